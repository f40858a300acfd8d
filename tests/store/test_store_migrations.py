"""Migrations at start-up, as several server processes run them on one database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from sevens.store.db import make_engine
from sevens.store.testing import backends, throwaway_database

# Each process loads everything, then waits for the go file, so that the migrations start together.
_MIGRATE = """
import sys, time
from pathlib import Path
from sevens.store.db import make_engine, run_migrations
engine = make_engine(sys.argv[1], serialise_sqlite=True)
go = Path(sys.argv[2])
while not go.exists():
    time.sleep(0.001)
run_migrations(engine)
"""


@pytest.mark.parametrize("backend", backends())
def test_servers_started_together_on_a_new_database_all_migrate_it(tmp_path: Path, backend: str) -> None:
    """Two `sevens serve` started at once on a new SQLite file: both read "no schema", both created
    the tables, and the second stopped with "table alembic_version already exists" (ten times in
    ten, threads aside). PostgreSQL had an advisory lock; SQLite now takes the file's write lock
    first. Three rounds of three processes, each with a database of its own."""
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    for round_ in range(3):
        with throwaway_database(backend, tmp_path) as url:
            go = tmp_path / f"go-{round_}"
            processes = [
                subprocess.Popen(
                    [sys.executable, "-c", _MIGRATE, url, str(go)], env=environment,
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                )
                for _ in range(3)
            ]
            go.touch()
            said = [p.communicate(timeout=120)[0] for p in processes]
            assert [p.returncode for p in processes] == [0, 0, 0], said
            engine = make_engine(url)
            try:
                with engine.connect() as connection:
                    assert connection.scalar(text("SELECT count(*) FROM alembic_version")) == 1
                    assert connection.scalar(text("SELECT count(*) FROM games")) == 0
            finally:
                engine.dispose()
