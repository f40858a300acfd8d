"""A turn is resolved at the first poll at or after its deadline, whichever write last moved that
deadline: the scheduler reads only the games due (revision 0014), so each write must leave the
game findable. SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from fastapi import FastAPI

from sevens.store import games as store
from sevens.store.backup import export_backup, import_backup
from sevens.store.db import session_scope
from sevens.store.models import GameStatus
from sevens.store.testing import clear_tables
from sevens.web.scheduler import resolve_all_ready, resolve_due
from web.web_helpers import FakeClock, Hosted, host_game

HOUR = 3600

Write = Callable[[FastAPI, Hosted, FakeClock], datetime]
"""Moves the game's deadline (or keeps it) at the clock's time; returns the deadline it is due at."""


def _game_id(app: FastAPI, game: Hosted) -> int:
    with session_scope(app.state.sessionmaker) as session:
        return store.game_by_public_id(session, public_id=game.public_id).id


def _turn(app: FastAPI, game: Hosted) -> int:
    with session_scope(app.state.sessionmaker) as session:  # an import keeps no browser signed in
        return store.game_by_public_id(session, public_id=game.public_id).current_turn


def _deadline(app: FastAPI, game: Hosted) -> datetime:
    with session_scope(app.state.sessionmaker) as session:
        deadline = store.game_by_public_id(session, public_id=game.public_id).deadline_at
    assert deadline is not None
    return deadline


def _extend(app: FastAPI, game: Hosted, clock: FakeClock) -> datetime:
    with session_scope(app.state.sessionmaker) as session:
        store.extend_deadline(session, game_id=_game_id(app, game), seconds=HOUR // 2, now=clock(), actor="organiser")
    return _deadline(app, game)


def _pause(app: FastAPI, game: Hosted, clock: FakeClock) -> datetime:
    before = _deadline(app, game)
    with session_scope(app.state.sessionmaker) as session:
        store.pause_game(session, game_id=_game_id(app, game), now=clock(), actor="organiser")
    _poll(app, before + timedelta(days=3))  # paused: not due, however long
    assert _turn(app, game) == 1
    with session_scope(app.state.sessionmaker) as session:
        assert store.game_by_public_id(session, public_id=game.public_id).status == GameStatus.PAUSED
    return _resume(app, game, clock, left=before - clock(), after=timedelta(days=3))


def _resume(
    app: FastAPI, game: Hosted, clock: FakeClock, *, left: timedelta | None = None, after: timedelta | None = None
) -> datetime:
    if left is None:  # paused here, resumed twenty minutes on
        left = _deadline(app, game) - clock()
        with session_scope(app.state.sessionmaker) as session:
            store.pause_game(session, game_id=_game_id(app, game), now=clock(), actor="organiser")
    clock.advance(seconds=(after or timedelta(minutes=20)).total_seconds())
    with session_scope(app.state.sessionmaker) as session:
        store.resume_game(session, game_id=_game_id(app, game), now=clock(), actor="organiser")
    assert _deadline(app, game) == clock() + left
    return _deadline(app, game)


def _set_deadline(app: FastAPI, game: Hosted, clock: FakeClock) -> datetime:
    with session_scope(app.state.sessionmaker) as session:  # brought forward: 10 minutes from now
        store.set_deadline(session, game_id=_game_id(app, game), seconds=600, now=clock(), actor="organiser")
    assert _deadline(app, game) == clock() + timedelta(minutes=10)
    return _deadline(app, game)


def _order(app: FastAPI, game: Hosted, clock: FakeClock) -> datetime:
    teams = game.my_teams("p1")
    assert game.order("p1", teams[0], 5, 3, action="ready").status_code == 303
    assert game.order("p1", teams[1], 5, 3).status_code == 303  # saved, not ready: the turn waits
    return _deadline(app, game)


def _turn_resolved(app: FastAPI, game: Hosted, clock: FakeClock) -> datetime:
    with session_scope(app.state.sessionmaker) as session:
        turn = _turn(app, game)
        assert store.resolve_then_advance(
            session, game_id=_game_id(app, game), turn=turn, reason="organiser", now=clock(), actor="organiser"
        ) == 1
    assert _turn(app, game) == 2
    return _deadline(app, game)


def _import(app: FastAPI, game: Hosted, clock: FakeClock) -> datetime:
    with session_scope(app.state.sessionmaker) as session:
        document = export_backup(session, full=True, now=clock())
    clear_tables(app.state.engine)
    clock.advance(minutes=5)
    with session_scope(app.state.sessionmaker) as session:
        import_backup(session, document=document, now=clock())
    return _deadline(app, game)


def _poll(app: FastAPI, now: datetime) -> None:
    """One poll of the scheduler, as run_scheduler makes it."""
    resolve_due(app.state.sessionmaker, now=now, failed=set())
    resolve_all_ready(app.state.sessionmaker, now=now)


@pytest.mark.parametrize(
    "write", [_extend, _pause, _resume, _set_deadline, _order, _turn_resolved, _import],
    ids=["extend", "pause", "resume", "set deadline", "order", "turn resolved", "import"],
)
def test_a_due_turn_is_resolved_at_its_deadline_after_each_write_that_moves_it(
    app: FastAPI, clock: FakeClock, write: Write
) -> None:
    game = host_game(app, name="On time", hours="1")
    game.join("p1", "Ann")
    game.start()
    idle = host_game(app, name="Idle", hours="0")  # an abandoned game beside it
    idle.join("p1", "Bea")
    idle.start()
    clock.advance(minutes=10)
    due = write(app, game, clock)
    turn = _turn(app, game)
    assert due > clock(), "the write left a deadline still to come"
    _poll(app, due - timedelta(seconds=1))
    assert _turn(app, game) == turn, "resolved before its deadline"
    _poll(app, due)
    assert _turn(app, game) == turn + 1, "not resolved at the first poll at its deadline"
    assert _turn(app, idle) == 1
