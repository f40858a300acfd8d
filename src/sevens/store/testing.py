"""Throwaway databases for tests: a SQLite file, or a fresh database on a real PostgreSQL server.

The PostgreSQL backend is used when ``SEVENS_TEST_POSTGRES_URL`` names a server on which the
user may create databases (``scripts/pg`` starts one and prints its URL).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from sevens.store.db import make_engine, normalise_url, run_migrations
from sevens.store.models import Base

__all__ = ["NEWER_REVISION", "POSTGRES_ENV", "backends", "clear_tables", "newer_sevens_database", "throwaway_database"]

POSTGRES_ENV = "SEVENS_TEST_POSTGRES_URL"

NEWER_REVISION = "0099"
"""A schema revision no version of sevens has made yet, as a newer sevens would leave it."""


def backends() -> list[str]:
    """The database backends to test: always SQLite, PostgreSQL when a server is given."""
    return ["sqlite", "postgresql"] if os.environ.get(POSTGRES_ENV) else ["sqlite"]


@contextmanager
def throwaway_database(backend: str, directory: Path) -> Iterator[str]:
    """The URL of an empty database that is removed afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{directory / f'test-{secrets.token_hex(4)}.sqlite3'}"
        return
    admin_url = os.environ.get(POSTGRES_ENV)
    if not admin_url:
        raise RuntimeError(f"set {POSTGRES_ENV} to test on PostgreSQL (scripts/pg prints one)")
    name = f"sevens_test_{secrets.token_hex(6)}"
    admin = create_engine(normalise_url(admin_url), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(normalise_url(admin_url)).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def clear_tables(engine: Engine) -> None:
    """Empty every table (children first), keeping the schema: a clean slate between tests."""
    with engine.begin() as connection:
        for table in reversed(Base.metadata.sorted_tables):
            connection.execute(table.delete())


@contextmanager
def newer_sevens_database(
    backend: str, directory: Path, *, revision: str = NEWER_REVISION
) -> Iterator[tuple[str, Engine]]:
    """The URL and an engine of a throwaway database a newer sevens migrated: this version's tables,
    at ``revision``, which this version does not know (another application's, given another name)."""
    with throwaway_database(backend, directory) as url:
        engine = make_engine(url)
        try:
            run_migrations(engine)
            with engine.begin() as connection:
                connection.execute(text("UPDATE alembic_version SET version_num = :newer"), {"newer": revision})
            yield url, engine
        finally:
            engine.dispose()
