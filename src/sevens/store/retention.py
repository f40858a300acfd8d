"""What the server forgets: a game its organiser deletes, and what has outlived its use.

Every function receives the session and the caller commits, as in :mod:`sevens.store.games`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, exists, select, update
from sqlalchemy.orm import Session

from sevens.store.auth import delete_expired_sessions
from sevens.store.models import ApiPrincipal, Base, FailedAttempt, GameRow, GameStatus, Grant, PrincipalKind
from sevens.store.ratelimit import KEEP_SECONDS

__all__ = ["Pruned", "delete_game", "games_over_before", "prune"]


def delete_game(session: Session, *, game_id: int) -> None:
    """Remove a game and every row of it: seats, teams, orders and their log, turns, events and
    what any credential may do in it. A bot token that opened nothing but this game goes too (its
    label is a player's name, and it would open nothing now). A browser session is kept: it is
    the browser's, and may play other games. The game it was the rematch of no longer names it
    (and may have another rematch)."""
    only_here = select(Grant.principal_id).where(Grant.game_id == game_id).except_(
        select(Grant.principal_id).where(Grant.game_id != game_id)
    )
    bots = list(
        session.scalars(
            select(ApiPrincipal.id).where(ApiPrincipal.id.in_(only_here), ApiPrincipal.kind == PrincipalKind.BOT)
        )
    )
    session.execute(update(GameRow).where(GameRow.rematch_id == game_id).values(rematch_id=None))
    # Every table that holds a game's rows, children first: one added later is not forgotten here.
    for table in reversed(Base.metadata.sorted_tables):
        if "game_id" in table.c:
            session.execute(delete(table).where(table.c.game_id == game_id))
    session.execute(delete(GameRow).where(GameRow.id == game_id))
    if bots:
        session.execute(delete(ApiPrincipal).where(ApiPrincipal.id.in_(bots)))
    session.expunge_all()  # no object of the game is left to be flushed again


def games_over_before(session: Session, *, before: datetime) -> list[int]:
    """The games that ended (finished, or ended early) before ``before``."""
    over = (GameStatus.FINISHED, GameStatus.ENDED)
    return list(session.scalars(select(GameRow.id).where(GameRow.status.in_(over), GameRow.ended_at < before)))


@dataclass(frozen=True)
class Pruned:
    """How many rows :func:`prune` removed, of each kind."""

    sessions: int
    bot_tokens: int
    attempts: int

    @property
    def total(self) -> int:
        return self.sessions + self.bot_tokens + self.attempts


def prune(session: Session, *, now: datetime, unused_bot_days: int) -> Pruned:
    """Remove what nobody can use any more: expired browser sessions (and what they were allowed),
    bot tokens that open no game and were made more than ``unused_bot_days`` days ago (a seat
    taken from them, their games deleted: their label may be a player's name), and counts of
    attempts older than any rate limit's window (:data:`sevens.store.ratelimit.KEEP_SECONDS`)."""
    expired = delete_expired_sessions(session, now=now)
    idle = session.execute(
        delete(ApiPrincipal).where(
            ApiPrincipal.kind == PrincipalKind.BOT,
            ApiPrincipal.created_at <= now - timedelta(days=unused_bot_days),
            ~exists().where(and_(Grant.principal_id == ApiPrincipal.id)),
        )
    )
    attempts = session.execute(delete(FailedAttempt).where(FailedAttempt.at <= now.timestamp() - KEEP_SECONDS))
    return Pruned(
        sessions=expired, bot_tokens=_count(idle), attempts=_count(attempts)
    )


def _count(result: object) -> int:
    return int(getattr(result, "rowcount", 0) or 0)
