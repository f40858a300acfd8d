"""What the server forgets: a game its organiser deletes.

Every function receives the session and the caller commits, as in :mod:`sevens.store.games`.
"""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from sevens.store.models import ApiPrincipal, Base, GameRow, Grant, PrincipalKind

__all__ = ["delete_game"]


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
