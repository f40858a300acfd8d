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

import pytest
from sqlalchemy import func, select, update

from reliability.helpers import ApiGame, check_game, cluster, pg_available
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
    # server_env's scheduler looks every hour: only the start-up look can play the turn.
    with cluster(farm, backend, tmp_path, count=1) as race:
        engine, [first] = race.engine, race.servers
        game = ApiGame.create(race.clients[0], engine, hours=1.0)
        first.kill()
        # Down for the evening: the deadline passed ten minutes ago.
        with engine.begin() as connection:
            connection.execute(
                update(GameRow).where(GameRow.id == game.game_id)
                .values(deadline_at=datetime.now(UTC) - timedelta(minutes=10))
            )
        started = datetime.now(UTC)
        race.start(2)
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
