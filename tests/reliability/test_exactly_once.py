"""Exactly-once resolution: "resolve now", the deadline scheduler and the last "ready" race each other.

Two real server processes (two app workers) on one PostgreSQL database, and one on SQLite in WAL
mode; each server's scheduler polls every 10 ms. In each trial the test holds every order but
one, then lets three things go at once: the last player marks ready on one worker, the organiser
presses *resolve now* on the other, and the deadline is moved into the past under both
schedulers. Whoever wins, the turn must be resolved once, with the last order in it exactly when
its submission was accepted, and the stored record must be what a replay writes.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import update

from reliability.helpers import ApiGame, check_game, cluster, pg_available, record_orders
from sevens.store.db import make_sessionmaker
from sevens.store.models import GameRow
from sevens.tournament.verify import verify_record
from sevens.web.testing import ServerFarm

pytestmark = pytest.mark.slow


def _race_turn(game: ApiGame, clients: list[httpx.Client], engine, turn: int, teams: list[str], trial: int) -> str:  # type: ignore[no-untyped-def]
    last, others = teams[-1], teams[:-1]
    for i, team in enumerate(others):
        answer = game.put_order(clients[i % len(clients)], team, turn, 1 + i % 4, 3, True)
        assert answer.status_code == 200, answer.text
    barrier = threading.Barrier(3)
    results: dict[str, int] = {}

    def ready() -> None:
        barrier.wait()
        results["ready"] = game.put_order(clients[0], last, turn, 2, 6, True).status_code

    def resolve() -> None:
        barrier.wait()
        results["resolve"] = game.resolve(clients[-1], turn).status_code

    def deadline() -> None:
        # The deadline of this turn passes (if the turn is still open: a later turn keeps its own).
        barrier.wait()
        with engine.begin() as connection:
            connection.execute(
                update(GameRow)
                .where(GameRow.id == game.game_id, GameRow.current_turn == turn)
                .values(deadline_at=datetime.now(UTC) - timedelta(seconds=1))
            )

    # Start the three in a different order each trial so no one of them is always first.
    jobs = [ready, resolve, deadline]
    jobs = jobs[trial % 3 :] + jobs[: trial % 3]
    threads = [threading.Thread(target=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    deadline_at = time.monotonic() + 10
    while game.open_turn(engine)[0] == turn and time.monotonic() < deadline_at:
        time.sleep(0.01)
    with make_sessionmaker(engine)() as db:
        row = game.row(db)
        assert (row.record_json is not None and row.current_turn == turn + 1) or row.status.value == "finished"
        played = record_orders(row.record_json, turn)
    assert results["ready"] in (200, 409) and results["resolve"] in (200, 409), results
    if results["ready"] == 200:
        assert played[last] == (2, 6, False), (turn, played[last])
    else:
        assert played[last][2] is True, "a refused order must leave the team to its autopilot (R13)"
    check_game(engine, game.game_id)
    winner = "ready" if results["ready"] == 200 and results["resolve"] == 409 else (
        "organiser" if results["resolve"] == 200 else "deadline"
    )
    return winner


def _trials(farm: ServerFarm, backend: str, workers: int, trials: int, tmp_path: Path) -> dict[str, int]:
    wins: dict[str, int] = {}
    with cluster(farm, backend, tmp_path, count=workers, scheduler_seconds=0.01) as race:
        engine, clients = race.engine, race.clients
        done = 0
        while done < trials:
            game = ApiGame.create(clients[0], engine)
            while done < trials:
                turn, teams, status = game.open_turn(engine)
                if status != "running":
                    break
                winner = _race_turn(game, clients, engine, turn, teams, done)
                wins[winner] = wins.get(winner, 0) + 1
                done += 1
            if game.open_turn(engine)[2] == "finished":
                report = verify_record(game.record(clients[-1]))
                assert report.dice_checked and report.finished
    return wins


@pytest.mark.skipif(not pg_available(), reason="needs SEVENS_TEST_POSTGRES_URL (scripts/pg)")
def test_exactly_once_two_workers_on_postgresql(farm: ServerFarm, tmp_path: Path) -> None:
    """Issue 6: resolve now, the scheduler and the last ready race across two workers, 100 trials."""
    wins = _trials(farm, "postgresql", 2, 100, tmp_path)
    assert sum(wins.values()) == 100
    print("winners on PostgreSQL:", wins)


def test_exactly_once_one_worker_on_sqlite(farm: ServerFarm, tmp_path: Path) -> None:
    """Issue 6: the same race on SQLite in WAL mode with one worker (its thread pool and scheduler), 50 trials."""
    wins = _trials(farm, "sqlite", 1, 50, tmp_path)
    assert sum(wins.values()) == 50
    print("winners on SQLite:", wins)
