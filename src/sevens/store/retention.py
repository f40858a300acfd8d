"""What the server forgets: a game its organiser deletes, and what has outlived its use.

Every function receives the session and the caller commits, as in :mod:`sevens.store.games`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, exists, or_, select, update
from sqlalchemy.orm import Session

from sevens.store.auth import delete_expired_sessions
from sevens.store.errors import Conflict, NotFound
from sevens.store.games import (
    EVENT_ACTOR_POINTS,
    api_actor,
    lock_game,
    name_elsewhere,
    rename_in_events,
    seat_name,
)
from sevens.store.models import (
    ApiPrincipal,
    Base,
    EventRow,
    FailedAttempt,
    GameRow,
    GameStatus,
    Grant,
    PrincipalKind,
    Role,
    SeatRow,
)
from sevens.store.ratelimit import KEEP_SECONDS
from sevens.tournament.names import name_clash, shortened
from sevens.tournament.quoting import quoted
from sevens.tournament.record import dumps

__all__ = ["Pruned", "delete_game", "games_over_before", "is_removed_name", "prune", "remove_seat_name"]


def delete_game(session: Session, *, game_id: int, now: datetime) -> None:
    """Remove a game and every row of it: seats, teams, orders and their log, turns, events and
    what any credential may do in it. A bot token that opened nothing but this game goes too (its
    label is a player's name, and it would open nothing now): all that is left of it is a marker,
    with no name, saying when its game was deleted (``game_deleted_at``), so that a bot still
    calling with it is told why it opens nothing; :func:`prune` removes it later. A browser
    session is kept: it is the browser's, and may play other games. The game it was the rematch
    of no longer names it (and may have another rematch).

    Raises:
        NotFound: the game was deleted in the meantime (a second press, another tab).
    """
    # The game's lock first, as a join takes it: a join that got in before is then seen (its new
    # bot token, labelled with the player's name, goes too), and one after finds no game. Read
    # before the lock, the tokens missed a join committing meanwhile and kept its token.
    # The game it is the rematch of is written too (its rematch_id, below), so both are locked in
    # id order, as a sign-out playing both locks them: the other way round, they deadlock.
    previous = session.scalars(select(GameRow.id).where(GameRow.rematch_id == game_id)).all()
    for locked in sorted({game_id, *previous}):
        try:
            lock_game(session, game_id=locked)
        except NotFound:
            if locked == game_id:
                raise
    only_here = select(Grant.principal_id).where(Grant.game_id == game_id).except_(
        select(Grant.principal_id).where(Grant.game_id != game_id)
    )
    candidates = list(
        session.scalars(
            select(ApiPrincipal.id).where(ApiPrincipal.id.in_(only_here), ApiPrincipal.kind == PrincipalKind.BOT)
        )
    )
    # Their rows locked (after the games', as a join takes them: auth.lock_token), then read
    # again: a join of one of them to another game, committed meanwhile, keeps it live.
    session.execute(
        select(ApiPrincipal.id).where(ApiPrincipal.id.in_(candidates)).order_by(ApiPrincipal.id).with_for_update()
    )
    bots = list(session.scalars(select(ApiPrincipal.id).where(ApiPrincipal.id.in_(candidates), ApiPrincipal.id.in_(only_here))))
    _relabel_tokens_kept(session, game_id=game_id, going=set(bots))
    session.execute(update(GameRow).where(GameRow.rematch_id == game_id).values(rematch_id=None))
    # Every table that holds a game's rows, children first: one added later is not forgotten here.
    for table in reversed(Base.metadata.sorted_tables):
        if "game_id" in table.c:
            session.execute(delete(table).where(table.c.game_id == game_id))
    session.execute(delete(GameRow).where(GameRow.id == game_id))
    if bots:
        session.execute(
            update(ApiPrincipal).where(ApiPrincipal.id.in_(bots)).values(label="", game_deleted_at=now)
        )
    session.expunge_all()  # no object of the game is left to be flushed again


def _relabel_tokens_kept(session: Session, *, game_id: int, going: set[int]) -> None:
    """The bot tokens that play a seat of the game being deleted and stay (they open other games)
    lose their label if it is their name in it (the name of their first seat): it goes with the
    game. Each takes the name of a seat it still plays, as a token joining one is labelled, or
    "organiser" if it only organises."""
    rows = session.execute(
        select(ApiPrincipal, SeatRow)
        .join(Grant, Grant.principal_id == ApiPrincipal.id)
        .join(SeatRow, and_(SeatRow.game_id == Grant.game_id, SeatRow.player_id == Grant.player_id))
        .where(Grant.game_id == game_id, Grant.role == Role.PLAYER, ApiPrincipal.kind == PrincipalKind.BOT)
    ).all()
    for principal, seat in rows:
        if principal.id in going or principal.label != shortened(seat_name(seat), 40):
            continue
        principal.label = name_elsewhere(session, principal_id=principal.id, game_id=game_id) or "organiser"
    session.flush()


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
    taken from them, their games deleted: their label may be a player's name), the markers of bot
    tokens deleted with their only game that many days after the deletion, and counts of
    attempts older than any rate limit's window (:data:`sevens.store.ratelimit.KEEP_SECONDS`)."""
    expired = delete_expired_sessions(session, now=now)
    before = now - timedelta(days=unused_bot_days)
    idle = session.execute(
        delete(ApiPrincipal).where(
            ApiPrincipal.kind == PrincipalKind.BOT,
            # A token its game's deletion left opening nothing is counted from then: made long
            # before, it would otherwise go at the next tidy, before its bot heard why.
            or_(
                and_(ApiPrincipal.game_deleted_at.is_(None), ApiPrincipal.created_at <= before),
                ApiPrincipal.game_deleted_at <= before,
            ),
            ~exists().where(and_(Grant.principal_id == ApiPrincipal.id)),
        )
    )
    attempts = session.execute(delete(FailedAttempt).where(FailedAttempt.at <= now.timestamp() - KEEP_SECONDS))
    return Pruned(
        sessions=expired, bot_tokens=_count(idle), attempts=_count(attempts)
    )


def _count(result: object) -> int:
    return int(getattr(result, "rowcount", 0) or 0)


def _placeholders(player_id: str) -> Iterator[str]:
    """The names a removed name may become, the plainest first: people read them, so the seat is
    said by its number, never by its id ("p3"); the next one is taken when another seat holds one.

    >>> [n for n, _ in zip(_placeholders("p3"), range(4))]
    ['Player 3', 'Player 3 (seat 3)', 'Player 3 (seat 3, 2)', 'Player 3 (seat 3, 3)']
    """
    number = player_id[1:]
    yield f"Player {number}"
    yield f"Player {number} (seat {number})"
    extra = 2
    while True:
        yield f"Player {number} (seat {number}, {extra})"
        extra += 1


def is_removed_name(name: str, player_id: str) -> bool:
    """Whether ``name`` is one :func:`remove_seat_name` put in place of seat ``player_id``'s, now or
    before (it wrote "Player 3 (p3)" on a clash then), so that a page offers no removal of it.

    >>> [is_removed_name(n, "p3") for n in ("Player 3", "Player 3 (p3)", "Player 3 (seat 3, 2)", "Player 4", "Ann")]
    [True, True, True, False, False]
    """
    number = re.escape(player_id[1:])
    pattern = rf"Player {number}( \((p{number}|seat {number}(, [0-9]+)?)\))?"
    return re.fullmatch(pattern, name) is not None


def remove_seat_name(
    session: Session, *, game_id: int, player_id: str, now: datetime, actor: str = "organiser"
) -> str:
    """Put a placeholder ("Player 3") in place of the name a seat's player chose, in a game over:
    in the seat, the record, the event log and the label of a bot token that joined under it.
    The dice do not depend on names, so the record still verifies. Returns the new name.

    Raises:
        NotFound: no such seat.
        Conflict: the game is not over (before the start, handing the seat to the bots frees its
            name; while it runs, names are fixed), or nobody took the seat (it has no name of its own).
    """
    # Under the game's lock, read afresh: two removals at once would each write back the record
    # as it read it, putting the other's removed name back in it.
    try:
        game = lock_game(session, game_id=game_id)
    except NotFound:
        game = None
    seat = session.scalar(
        select(SeatRow)
        .where(SeatRow.game_id == game_id, SeatRow.player_id == player_id[:16])
        .execution_options(populate_existing=True)
    )
    if game is None or seat is None:
        raise NotFound(f"no seat {quoted(player_id)} in this game")
    if game.status not in (GameStatus.FINISHED, GameStatus.ENDED):
        raise Conflict(
            f"the game is {game.status.said}: a name is removed once it is over (before the start, "
            "hand the seat to the bots and its name is free; while it runs, names are fixed)"
        )
    if seat.name is None:
        raise Conflict(f"nobody took seat {seat.player_id}: it has no name of its own to remove")
    old = seat.name
    others = [seat_name(s) for s in session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)) if s.id != seat.id]
    new = next(n for n in _placeholders(seat.player_id) if name_clash(n, taken=others) is None)
    seat.name = new
    if game.record_json is not None:
        record = json.loads(game.record_json)
        for player in record.get("players", []):
            if player.get("id") == seat.player_id:
                player["name"] = new
        game.record_json = dumps(record)
    label = shortened(old, 40)
    if shortened(actor, EVENT_ACTOR_POINTS) == shortened(api_actor(label), EVENT_ACTOR_POINTS):
        actor = api_actor(new)  # the removal itself, by a token that joined under the name
    rename_in_events(session, game_id=game_id, player_id=seat.player_id, old=old, actor=new, detail=new)
    holders = select(Grant.principal_id).where(
        Grant.game_id == game_id, Grant.role == Role.PLAYER, Grant.player_id == seat.player_id
    )
    session.execute(
        update(ApiPrincipal).where(ApiPrincipal.id.in_(holders), ApiPrincipal.label == label).values(label=new)
    )
    session.add(EventRow(game_id=game_id, at=now, actor=shortened(actor, EVENT_ACTOR_POINTS), kind="name removed", detail=seat.player_id))
    session.flush()
    return new
