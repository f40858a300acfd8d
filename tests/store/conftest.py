"""Store tests run on SQLite and, when SEVENS_TEST_POSTGRES_URL is set, on PostgreSQL too."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from sevens.store.db import make_engine, make_sessionmaker, run_migrations
from sevens.store.testing import backends, clear_tables, throwaway_database


@pytest.fixture(scope="session", params=backends())
def store_engine(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Engine]:
    with throwaway_database(request.param, tmp_path_factory.mktemp("db")) as url:
        engine = make_engine(url)
        run_migrations(engine)
        yield engine
        engine.dispose()


@pytest.fixture
def factory(store_engine: Engine) -> Iterator[sessionmaker[Session]]:
    clear_tables(store_engine)
    yield make_sessionmaker(store_engine)


@pytest.fixture
def db(factory: sessionmaker[Session]) -> Iterator[Session]:
    session = factory()
    yield session
    session.rollback()
    session.close()


@pytest.fixture
def now() -> datetime:
    return datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
