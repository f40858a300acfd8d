"""``sevens rotate-key``: the operator's command for the rate-limit key (docs/web.md, *What the
server keeps*), which could only be rotated by SQL. It makes a new key, forgets every count kept
(rows nothing could match any more) and says so; a running server counts afresh under the new key.
On SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from typer.testing import CliRunner

from sevens.cli.main import app as cli
from sevens.store.db import make_engine, run_migrations
from sevens.store.models import FailedAttempt, ServerKey
from sevens.store.ratelimit import KEY_PURPOSE
from sevens.store.secrets import keyed_hash
from sevens.store.testing import backends, newer_sevens_database, throwaway_database
from sevens.web.app import create_app
from sevens.web.settings import Settings

runner = CliRunner()


def _server(url: str) -> FastAPI:
    return create_app(Settings(database_url=url, scheduler=False, rate_limit_attempts=3))


def _wrong_link(app: FastAPI) -> int:
    return TestClient(app).get("/join/not-a-real-invite-link-at-all-000").status_code


def _key_and_rows(url: str) -> tuple[str, list[str]]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            key = connection.execute(select(ServerKey.key_hex).where(ServerKey.purpose == KEY_PURPOSE)).scalar_one()
            rows = list(connection.execute(select(FailedAttempt.client_hash)).scalars())
    finally:
        engine.dispose()
    return key, rows


@pytest.mark.parametrize("backend", backends())
def test_rotate_key_makes_a_new_key_and_forgets_the_counts(backend: str, tmp_path: Path) -> None:
    with throwaway_database(backend, tmp_path) as url:
        server = _server(url)
        try:
            assert [_wrong_link(server) for _ in range(2)] == [404, 404]
            old, rows = _key_and_rows(url)
            assert len(rows) == 2
            result = runner.invoke(cli, ["rotate-key", "--database-url", url])
            assert result.exit_code == 0, result.stderr
            line = result.stdout
            assert line.count("\n") == 1 and line.startswith("rotated the rate-limit key of "), line
            assert "forgot 2 counted requests" in line and "starts its limits afresh" in line, line
            assert "in memory until its window ends" in line, line  # what a running server still holds
            new, rows = _key_and_rows(url)
            assert new != old and rows == []
            # The running server takes the new key at its next count.
            # Its own memory still holds the window, as the line says: a fresh start would allow 3.
            assert [_wrong_link(server) for _ in range(2)] == [404, 429]
            assert _key_and_rows(url) == (new, [keyed_hash(bytes.fromhex(new), "testclient")])  # a refusal is not counted
        finally:
            server.state.odds_queue.close()
            server.state.engine.dispose()
        again = runner.invoke(cli, ["rotate-key", "--database-url", url])
        assert again.exit_code == 0 and "forgot 1 counted request " in again.stdout, again.stdout
        assert _key_and_rows(url)[0] not in (old, new)


@pytest.mark.parametrize("backend", backends())
def test_rotate_key_refuses_a_database_that_is_not_this_sevens_and_changes_nothing(backend: str, tmp_path: Path) -> None:
    with newer_sevens_database(backend, tmp_path) as (url, _engine):
        result = runner.invoke(cli, ["rotate-key", "--database-url", url])
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
        assert "schema revision '0099'" in result.stderr and "rotate the key with that newer sevens" in result.stderr
    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        try:
            run_migrations(engine, revision="0010")  # before the key's table
        finally:
            engine.dispose()
        result = runner.invoke(cli, ["rotate-key", "--database-url", url])
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
        assert "schema revision '0010', from before the rate-limit key" in result.stderr
        assert "start this version's sevens serve on it once" in result.stderr
        engine = make_engine(url)
        try:
            with engine.connect() as connection:  # not migrated behind the operator's back
                assert connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar_one() == "0010"
        finally:
            engine.dispose()


def test_rotate_key_refuses_no_database_without_making_one(tmp_path: Path) -> None:
    typo = tmp_path / "sevens.sqlite"
    result = runner.invoke(cli, ["rotate-key", "--database-url", f"sqlite:///{typo}"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert f"there is no SQLite database at {typo}" in result.stderr and not typo.exists()
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    result = runner.invoke(cli, ["rotate-key", "--database-url", f"sqlite:///{empty}"])
    assert result.exit_code == 2 and "not a sevens database" in result.stderr
    result = runner.invoke(cli, ["rotate-key", "--database-url", "sqlite://"])
    assert result.exit_code == 2 and "an in-memory database (sqlite://) holds no key" in result.stderr
    with throwaway_database("sqlite", tmp_path) as url:
        engine = make_engine(url)
        run_migrations(engine)
        with engine.connect() as connection:  # a database no server has started on yet: it is made now
            assert connection.execute(select(func.count()).select_from(ServerKey)).scalar_one() == 0
        engine.dispose()
        result = runner.invoke(cli, ["rotate-key", "--database-url", url])
        assert result.exit_code == 0 and "forgot 0 counted requests" in result.stdout
        assert len(_key_and_rows(url)[0]) == 64
