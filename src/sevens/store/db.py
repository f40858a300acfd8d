"""Engines, sessions and migrations, built by factories (never at import time)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

__all__ = ["make_engine", "make_sessionmaker", "run_migrations", "session_scope", "normalise_url"]


def normalise_url(url: str) -> str:
    """Pick the psycopg 3 driver for a plain PostgreSQL URL.

    >>> normalise_url("postgresql://u@127.0.0.1:5432/db")
    'postgresql+psycopg://u@127.0.0.1:5432/db'
    >>> normalise_url("sqlite:///sevens.sqlite3")
    'sqlite:///sevens.sqlite3'
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    # WAL lets readers go on while a turn is being resolved; busy_timeout makes writers queue.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url`` (SQLite file or PostgreSQL).

    >>> make_engine("sqlite://").dialect.name
    'sqlite'
    """
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    """Sessions that keep loaded values after commit (pages render after the commit)."""
    return sessionmaker(bind=engine, expire_on_commit=False)


@contextmanager
def session_scope(factory: sessionmaker[Session]) -> Iterator[Session]:
    """A session that commits on success and rolls back on any error."""
    session = factory()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def run_migrations(engine: Engine) -> None:
    """Bring the database up to the newest schema with Alembic (run at start-up and in tests)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "sevens.store:migrations")
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
