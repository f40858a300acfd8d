"""A turn whose deadline passed while no server ran: the servers started again play it once.

The friends' server went down in the evening (a host rebooted, a crash) and the turn's deadline
passed meanwhile. Two servers are started at once on the database, each with a scheduler that looks
every hour, so only the look each makes at start-up can play the turn: between them it is played
exactly once (one resolution, one event, the next turn open with a full deadline from then).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select, update

from reliability.helpers import ApiGame, check_game, database, pg_available, server_env
from sevens.store.db import make_sessionmaker
from sevens.store.models import EventRow, GameRow, TurnRow
from sevens.web.testing import ServerFarm

pytestmark = pytest.mark.slow

BACKENDS = ["sqlite", pytest.param(
    "postgresql", marks=pytest.mark.skipif(not pg_available(), reason="needs SEVENS_TEST_POSTGRES_URL (scripts/pg)")
)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_deadline_passed_while_the_server_was_down_is_played_once_by_two_servers_started_together(
    farm: ServerFarm, tmp_path: Path, backend: str
) -> None:
    with database(backend, tmp_path) as (url, engine):
        env = server_env(url)  # a look every hour: only the start-up look can play the turn
        first = farm.start(env)
        with httpx.Client(base_url=first.url, timeout=30) as client:
            game = ApiGame.create(client, engine, hours=1.0)
        first.kill()
        # Down for the evening: the deadline passed ten minutes ago.
        with engine.begin() as connection:
            connection.execute(
                update(GameRow).where(GameRow.id == game.game_id)
                .values(deadline_at=datetime.now(UTC) - timedelta(minutes=10))
            )
        servers = [farm.start(env, wait=False) for _ in range(2)]
        started = datetime.now(UTC)
        limit = time.monotonic() + 30
        while game.open_turn(engine)[0] == 1 and time.monotonic() < limit:
            time.sleep(0.05)
        time.sleep(1.0)  # time for a second resolution, were there to be one
        with make_sessionmaker(engine)() as db:
            row = game.row(db)
            assert row.current_turn == 2, "the overdue turn was never played"
            assert db.scalar(select(func.count()).select_from(TurnRow).where(TurnRow.game_id == game.game_id)) == 1
            resolved = db.scalars(
                select(EventRow.detail).where(EventRow.game_id == game.game_id, EventRow.kind == "resolved")
            ).all()
            assert resolved == ["turn 1 (deadline)"], resolved
            # Turn 2 runs its full hour from when turn 1 was played, not from the missed deadline.
            assert row.deadline_at is not None
            assert started + timedelta(minutes=59) < row.deadline_at < datetime.now(UTC) + timedelta(hours=1)
        check_game(engine, game.game_id)
        for server in servers:
            server.kill()
