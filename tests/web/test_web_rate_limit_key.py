"""The rate-limit rows hold a client's address only as an HMAC under a key the server made for
itself: a plain SHA-256 of an IPv4 address is reversed by hashing all 2**32 of them."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from sevens.store.db import make_engine
from sevens.store.models import FailedAttempt, ServerKey
from sevens.store.ratelimit import KEY_PURPOSE
from sevens.store.secrets import keyed_hash
from sevens.store.testing import backends, throwaway_database
from sevens.web.app import create_app
from sevens.web.settings import Settings


def _server(url: str) -> FastAPI:
    return create_app(Settings(database_url=url, scheduler=False, rate_limit_attempts=3))


def _wrong_link(app: FastAPI) -> int:
    return TestClient(app).get("/join/not-a-real-invite-link-at-all-000").status_code


def _stored(app: FastAPI) -> tuple[list[str], bytes]:
    with app.state.sessionmaker() as db:
        rows = list(db.scalars(select(FailedAttempt.client_hash)))
        key = db.scalars(select(ServerKey.key_hex).where(ServerKey.purpose == KEY_PURPOSE)).one()
    return rows, bytes.fromhex(key)


def _close(app: FastAPI) -> None:
    app.state.odds_queue.close()
    app.state.engine.dispose()


@pytest.mark.parametrize("backend", backends())
def test_two_servers_store_one_address_differently_and_not_as_its_sha256(backend: str, tmp_path: Path) -> None:
    """Each server makes its key at its first start; the same client's wrong link is stored under
    each server's own, and neither row is the address's plain SHA-256 (what the rows held before)."""
    stored = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        with throwaway_database(backend, tmp_path / name) as url:
            app = _server(url)
            try:
                assert _wrong_link(app) == 404
                rows, key = _stored(app)
            finally:
                _close(app)
        assert rows == [keyed_hash(key, "testclient")]  # the test client's address
        assert rows[0] != hashlib.sha256(b"testclient").hexdigest()
        stored.append((rows[0], key))
    (first, first_key), (second, second_key) = stored
    assert first_key != second_key and first != second


@pytest.mark.parametrize("backend", backends())
def test_the_key_is_kept_across_restarts_and_rotating_it_forgets_the_windows(backend: str, tmp_path: Path) -> None:
    """A restarted server counts on under the key it made (the limit holds across the restart);
    a rotated key starts every limit afresh, and rows of the old key are gone."""
    with throwaway_database(backend, tmp_path) as url:
        app = _server(url)
        try:
            assert [_wrong_link(app) for _ in range(2)] == [404, 404]
            _, key = _stored(app)
        finally:
            _close(app)
        app = _server(url)  # a new process: nothing counted in its memory
        try:
            assert [_wrong_link(app) for _ in range(2)] == [404, 429]
            rows, kept = _stored(app)
            assert kept == key and len(rows) == 3
            engine = make_engine(url)
            try:  # rotated as docs/web.md says, while the server runs
                with engine.begin() as connection:
                    connection.execute(text(f"DELETE FROM server_keys WHERE purpose = '{KEY_PURPOSE}'"))
                    connection.execute(text("DELETE FROM failed_attempts"))
            finally:
                engine.dispose()
            assert _wrong_link(app) == 429  # its own memory still holds the window, as docs/web.md says
            with app.state.sessionmaker() as db:
                counts_key = select(ServerKey).where(ServerKey.purpose == KEY_PURPOSE)  # not the seat forms' key
                assert db.scalars(select(FailedAttempt)).all() == db.scalars(counts_key).all() == []
        finally:
            _close(app)
        app = _server(url)
        try:
            assert [_wrong_link(app) for _ in range(4)] == [404, 404, 404, 429]
            rows, rotated = _stored(app)
            assert rotated != key and rows == [keyed_hash(rotated, "testclient")] * 3
        finally:
            _close(app)
