"""The deadline scheduler meeting a saved order the rules refuse (one a hand-made backup could hold)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest
from fastapi import FastAPI
from sqlalchemy import select, update

from sevens.store.models import GameRow, OrderRow
from sevens.web.scheduler import run_scheduler
from web.web_helpers import FakeClock, Hosted


def test_a_refused_saved_order_is_logged_once_by_team_and_rule_without_its_numbers(
    app: FastAPI, hosted: Hosted, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """A saved order over its team's SCRUM made resolution fail at every poll, and each time the
    log held the refusal's text, with the order's numbers (R13: secret until the turn is resolved)
    and a traceback. Now one line says which game, turn and team, and which rule, and no number
    of the order; later polls say nothing more about that turn."""
    team = hosted.my_teams("p1")[0]
    assert hosted.order("p1", team, 10, 0).status_code == 303
    with app.state.sessionmaker() as db:  # as a hand-edited backup could have left it: over SCRUM 100
        db.execute(update(OrderRow).where(OrderRow.team_id == team).values(force=91, flair=12))
        db.commit()
    clock.advance(hours=25)

    async def polls() -> None:
        task = asyncio.create_task(run_scheduler(app.state.sessionmaker, clock=clock, interval=0.2))
        await asyncio.sleep(1.5)  # several polls
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    with caplog.at_level(logging.INFO, logger="sevens.web.scheduler"):
        asyncio.run(polls())
    lines = [r for r in caplog.records if r.name == "sevens.web.scheduler"]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    said = lines[0].getMessage()
    assert lines[0].levelno == logging.ERROR and lines[0].exc_info is None
    assert said.startswith(
        f"game {hosted.public_id}: turn 1 cannot be resolved at its deadline: the saved order of team '{team}' "
        "breaks R3 (the order as a whole); the turn stays open"
    ), said
    unsaid = said.replace(hosted.public_id, "")
    assert "91" not in unsaid and "12" not in unsaid and "103" not in unsaid, said
    with app.state.sessionmaker() as db:  # the turn stays open, the order as it was
        assert db.scalar(select(GameRow.current_turn).where(GameRow.public_id == hosted.public_id)) == 1
