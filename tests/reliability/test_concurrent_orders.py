"""Concurrent orders: many clients save and revise the orders of several games at once.

Afterwards every team's saved order is exactly its last accepted submission, the order log holds
one line per accepted submission (none lost, none doubled), and a submission for a turn that has
been resolved is refused with a message that says so.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import func, select

from reliability.helpers import cluster, pg_available
from sevens.store.db import make_sessionmaker
from sevens.store.models import GameRow, OrderLogRow, OrderRow
from sevens.web.testing import ServerFarm, host_game, submit_load

pytestmark = pytest.mark.slow

CASES = [("sqlite", 1)] + ([("postgresql", 2)] if pg_available() else [])


@pytest.mark.parametrize(("backend", "workers"), CASES)
def test_concurrent_orders_keep_the_last_accepted_submission(
    farm: ServerFarm, tmp_path: Path, backend: str, workers: int
) -> None:
    """Issue 6: every team's order is its last accepted submission; none lost, none doubled; a
    submission for a resolved turn is refused with a clear message."""
    with cluster(farm, backend, tmp_path, count=workers) as race:
        engine, servers = race.engine, race.servers
        games = [host_game(race.clients[0]) for _ in range(3)]
        result = asyncio.run(
            submit_load([s.url for s in servers], games, turn=1, revisions=6, seed=7)
        )
        assert result.statuses == {200: 3 * 4 * 2 * 6}, result.statuses
        with make_sessionmaker(engine)() as db:
            public = {g.id: g.public_id for g in db.scalars(select(GameRow))}
            saved = {
                (public[r.game_id], r.team_id): (r.force, r.flair)
                for r in db.scalars(select(OrderRow).where(OrderRow.turn == 1))
            }
            logged = {
                (public[game_id], team): count
                for game_id, team, count in db.execute(
                    select(OrderLogRow.game_id, OrderLogRow.team_id, func.count()).group_by(
                        OrderLogRow.game_id, OrderLogRow.team_id
                    )
                )
            }
        assert saved == result.last_accepted
        assert logged == result.accepted
        # The organiser resolves turn 1 of the first game; a late order for it is refused.
        game = games[0]
        client = race.clients[-1]
        resolved = client.post(
            f"/api/v1/games/{game.public_id}/resolve", json={"turn": 1}, headers=game.organiser
        )
        assert resolved.status_code == 200, resolved.text
        team, pid = next(iter(game.teams.items()))
        late = client.put(
            f"/api/v1/games/{game.public_id}/orders/{team}",
            json={"turn": 1, "force": 1, "flair": 0, "ready": True},
            headers=game.players[pid],
        )
        assert late.status_code == 409
        assert "turn 1 is not open for orders; the open turn is 2" in late.json()["detail"]
        with make_sessionmaker(engine)() as db:
            assert db.scalar(select(func.count()).select_from(OrderLogRow)) == sum(result.accepted.values())
