"""The deadline scheduler: a background task that resolves every turn whose deadline has passed.

Deadlines are absolute UTC times in the database, so the scheduler keeps no state of its own: a
restarted server finds the overdue turns on its first poll. Each resolution takes the game's row
lock and checks the turn number (:func:`sevens.store.games.resolve_turn`), so two servers polling
the same database never resolve a turn twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from sevens.store.db import session_scope
from sevens.store.games import due_turns, resolve_then_advance

__all__ = ["resolve_due", "resolve_if_still_due", "run_scheduler"]

log = logging.getLogger("sevens.web.scheduler")


def resolve_due(factory: sessionmaker[Session], *, now: datetime) -> int:
    """Resolve every overdue turn, one transaction per game; returns how many turns were resolved."""
    with session_scope(factory) as session:
        due = due_turns(session, now=now)
    resolved = 0
    for game_id, turn in due:
        try:
            resolved += resolve_if_still_due(factory, game_id=game_id, turn=turn, now=now)
        except Exception:  # one broken game must not stop the others' deadlines
            log.exception("resolving game %s turn %s failed", game_id, turn)
    return resolved


def resolve_if_still_due(factory: sessionmaker[Session], *, game_id: int, turn: int, now: datetime) -> int:
    """Resolve a turn :func:`resolve_due` found due, in a transaction of its own, unless the organiser
    paused the game or extended its deadline since (the turn then stays open, as the page said).
    Returns how many turns were resolved."""
    with session_scope(factory) as session:
        return resolve_then_advance(session, game_id=game_id, turn=turn, reason="deadline", now=now, due_only=True)


async def run_scheduler(
    factory: sessionmaker[Session], *, clock: Callable[[], datetime], interval: float
) -> None:
    """Poll for overdue turns every ``interval`` seconds until cancelled."""
    while True:
        try:
            await asyncio.to_thread(resolve_due, factory, now=clock())
        except Exception:
            log.exception("scheduler poll failed")
        await asyncio.sleep(interval)
