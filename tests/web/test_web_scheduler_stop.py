"""The deadline scheduler stopping with the server (SIGTERM) while it resolves turns."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time

from fastapi import FastAPI
from sqlalchemy import select, text

from sevens.store.models import GameRow
from sevens.web.scheduler import run_scheduler
from web.conftest import WebDb
from web.web_helpers import FakeClock, host_game


def test_a_stopped_scheduler_finishes_the_game_it_resolves_and_begins_no_other(
    app: FastAPI, clock: FakeClock, web_db: WebDb
) -> None:
    """Cancelled in the middle of a poll (the server's shutdown cancels it), the scheduler returned
    at once while its thread went on resolving every overdue game, after the server had let go of
    the database and while the process was ending. Now the game being resolved is finished, no
    other is begun (its deadline is in the database: the next server resolves it), and the
    shutdown waits for that."""
    for name in ("Cup", "Plate"):
        game = host_game(app, name=name)
        for number in range(1, 5):
            game.join(f"p{number}", f"Player {number}")
        game.start()
    clock.advance(hours=25)
    blocker = web_db.engine.connect()
    # Another writer holds every game (SQLite's write lock; the rows' locks on PostgreSQL): the
    # scheduler finds both turns due, and its first resolution waits here.
    blocker.execute(text("UPDATE games SET current_turn = current_turn"))
    released_at: list[float] = []

    def release() -> None:
        released_at.append(time.monotonic())
        blocker.rollback()

    async def stop_while_resolving() -> float:
        task = asyncio.create_task(run_scheduler(app.state.sessionmaker, clock=clock, interval=60))
        await asyncio.sleep(2)  # the poll has found both turns and waits on the first
        timer = threading.Timer(1, release)
        timer.start()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        timer.join()
        return time.monotonic()

    try:
        ended_at = asyncio.run(stop_while_resolving())
    finally:
        blocker.close()
    time.sleep(1)  # a thread left running would resolve the other game by now
    assert ended_at >= released_at[0], "the scheduler ended before the game it was resolving"
    with web_db.engine.connect() as connection:
        turns = sorted(connection.scalars(select(GameRow.current_turn)))
    assert turns == [1, 2], turns
