"""A worker's turns at a PostgreSQL database: as many requests at once as its pool keeps connections
(SEVENS_DB_CONNECTIONS), never more, with the pool's spare connection left to the scheduler."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from sevens.store.db import POSTGRES_SPARE_CONNECTIONS
from sevens.store.testing import backends, throwaway_database
from sevens.web.app import create_app
from sevens.web.settings import Settings
from sevens.web.testing import host_game

pytestmark = pytest.mark.skipif(
    "postgresql" not in backends(), reason="PostgreSQL only: run under scripts/pg (SEVENS_TEST_POSTGRES_URL)"
)

BURST = 60
"""More requests at once than the connections kept, and than the thread pool's 40 threads."""


def test_a_burst_uses_the_connections_kept_and_no_more(tmp_path: Path) -> None:
    """60 requests at once on a worker keeping 3 connections, while one more is held outside the
    requests (the scheduler's): every one answered 200, at most 3 of them at the database at once,
    and none waited for the pool itself (which gives up after 30 s with a 500)."""
    with throwaway_database("postgresql", tmp_path) as url:
        app = create_app(Settings(database_url=url, scheduler=False, games_per_hour=0, db_connections=3))
        engine = app.state.engine
        lock = threading.Lock()
        out = peak = 0

        def checked_out(*_: Any) -> None:
            nonlocal out, peak
            with lock:
                out += 1
                peak = max(peak, out)

        def checked_in(*_: Any) -> None:
            nonlocal out
            with lock:
                out -= 1

        with TestClient(app) as client:  # with its lifespan, which sets the turns
            game = host_game(client)
            token = game.players["p1"]
            paths = [f"/api/v1/games/{game.public_id}", f"/games/{game.public_id}/state", f"/games/{game.public_id}"]
            event.listen(engine, "checkout", checked_out)
            event.listen(engine, "checkin", checked_in)
            with engine.connect(), ThreadPoolExecutor(BURST) as threads:  # the scheduler's, held throughout
                answers = list(threads.map(lambda i: client.get(paths[i % 3], headers=token), range(BURST)))
            kept, left_out = engine.pool.size(), engine.pool.checkedout()
    assert [a.status_code for a in answers] == [200] * BURST, [a.text for a in answers if a.status_code != 200]
    assert peak == 3 + 1, f"{peak - 1} requests at the database at once, besides the held connection"
    assert peak <= 3 + POSTGRES_SPARE_CONNECTIONS
    assert (kept, left_out) == (3, 0)


def test_the_turns_are_the_connections_kept_by_default(tmp_path: Path) -> None:
    """The default: 5 connections kept, and as many turns (15 served 0.9x the requests a second
    of 5 in benchmarks/load.py)."""
    with throwaway_database("postgresql", tmp_path) as url:
        app = create_app(Settings(database_url=url, scheduler=False))
        with TestClient(app):
            assert app.state.engine.pool.size() == Settings.model_fields["db_connections"].default == 5
            assert app.state.db_limiter.total_tokens == 5
