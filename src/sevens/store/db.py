"""Engines, sessions and migrations, built by factories (never at import time)."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event, make_url, text
from sqlalchemy.orm import Session, sessionmaker

__all__ = [
    "POSTGRES_SPARE_CONNECTIONS",
    "SQLITE_SYNCHRONOUS",
    "check_writable",
    "is_in_memory",
    "make_engine",
    "make_sessionmaker",
    "normalise_url",
    "newest_revision",
    "read_one_moment",
    "other_tables",
    "run_migrations",
    "session_scope",
    "sevens_revision",
    "stored_revision",
]


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


def _sqlite_pragmas(synchronous: str) -> Callable[[Any, Any], None]:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        # WAL lets readers go on while a turn is being resolved; busy_timeout makes writers queue.
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        # NORMAL in WAL mode writes each commit to the log before it returns (a killed process
        # loses nothing) and syncs to disk at checkpoints only.
        cursor.execute(f"PRAGMA synchronous={synchronous.upper()}")
        cursor.close()

    return on_connect


def _made_private(database: str) -> Callable[[Any, Any, Any, Any], None]:
    def before_connect(_dialect: Any, _record: Any, _args: Any, _params: Any) -> None:
        # The file holds the open turns' orders and the games' secret seeds (R13, R14), like a full
        # backup, which is written 0600: a new one is made for its owner alone before SQLite opens
        # it (SQLite gives the WAL and shared-memory files the database's permissions). An existing
        # file is left as it is; any other failure is SQLite's to report when it opens the path.
        with contextlib.suppress(OSError):
            os.close(os.open(database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))

    return before_connect


def _no_result_rows(record: logging.LogRecord) -> bool:
    """Whether a record of SQLAlchemy's engine logger may be written: not the rows a query returned.

    With that logger at DEBUG (``echo="debug"``, or a logging set-up turned up to find a problem)
    SQLAlchemy logs every row read, ``hide_parameters`` notwithstanding: the open turns' saved
    orders, the seeds and the token hashes (R13, R14). Statements, timings and the columns'
    names are still logged.

    >>> _no_result_rows(logging.makeLogRecord({"msg": "Row %r", "args": ((61, 27),)}))
    False
    >>> _no_result_rows(logging.makeLogRecord({"msg": "SELECT orders.force FROM orders"}))
    True
    """
    return not (isinstance(record.msg, str) and record.msg.endswith(("Row %r", "rewound %d row(s)")))


SQLITE_SYNCHRONOUS = ("normal", "full")
"""The ``PRAGMA synchronous`` levels :func:`make_engine` accepts for SQLite."""

POSTGRES_SPARE_CONNECTIONS = 1
"""Connections a PostgreSQL pool of :func:`make_engine` may open beyond the ``postgres_connections``
it keeps, for whatever takes one outside the web requests' turns at the database (the deadline
scheduler, one at a time): it never has to wait for a request's, nor a request for its."""


def is_in_memory(url: str) -> bool:
    """Whether ``url`` is an in-memory SQLite database (each connection then opens its own).

    >>> is_in_memory("sqlite://"), is_in_memory("sqlite:///x.sqlite3"), is_in_memory("postgresql://h/db")
    (True, False, False)
    """
    url = normalise_url(url)
    return url.startswith("sqlite") and make_url(url).database in (None, "", ":memory:")


def make_engine(
    url: str,
    *,
    serialise_sqlite: bool = False,
    sqlite_synchronous: str = "normal",
    postgres_connections: int | None = None,
) -> Engine:
    """An engine for ``url`` (SQLite file or PostgreSQL).

    With ``serialise_sqlite`` (what the web app uses) a SQLite file gets a pool of one connection:
    see below. Code that holds two sessions at once on one engine must not ask for it.

    ``postgres_connections`` (PostgreSQL; what the web app uses): the pool keeps that many
    connections open, plus :data:`POSTGRES_SPARE_CONNECTIONS` opened when needed; its ``size()``
    is the number kept. None: SQLAlchemy's default pool (5 kept, 10 more opened and closed).

    ``sqlite_synchronous`` is ``normal`` (commits survive a crash of the process, not
    necessarily a power cut) or ``full`` (each commit synced to disk).

    Statement parameters are never logged (``hide_parameters``), nor the rows a query returns
    (:func:`_no_result_rows`): they hold draft orders and secret hashes, which R13 keeps out of
    every log line even when SQL logging is switched on.
    A SQLite file it creates is readable and writable by its owner only (mode 0600), for the
    same reason; an existing one keeps its permissions.

    >>> make_engine("sqlite://").dialect.name
    'sqlite'
    >>> make_engine("postgresql://u@127.0.0.1/db", postgres_connections=3).pool.size()  # connects when used
    3
    >>> make_engine("postgresql://u@127.0.0.1/db", postgres_connections=0)
    Traceback (most recent call last):
    ...
    ValueError: postgres_connections must be at least 1, not 0
    """
    url = normalise_url(url)
    logging.getLogger("sqlalchemy.engine.Engine").addFilter(_no_result_rows)  # once: a filter is added once
    if sqlite_synchronous not in SQLITE_SYNCHRONOUS:
        raise ValueError(f"sqlite_synchronous must be one of {SQLITE_SYNCHRONOUS}, not {sqlite_synchronous!r}")
    if url.startswith("sqlite"):
        # SQLite lets one writer in at a time, and a writer that finds the lock taken sleeps and
        # retries with growing back-off (busy_timeout): under a burst that gives latencies of
        # seconds. One pooled connection makes the requests of a worker queue for it in order
        # instead, and is never closed and reopened between requests.
        pool: dict[str, Any] = (
            {"pool_size": 1, "max_overflow": 0, "pool_timeout": 60}
            if serialise_sqlite and not is_in_memory(url)
            else {}
        )
        engine = create_engine(url, connect_args={"check_same_thread": False}, hide_parameters=True, **pool)
        parsed = make_url(url)
        if not is_in_memory(url) and "uri" not in parsed.query and parsed.database is not None:
            event.listen(engine, "do_connect", _made_private(parsed.database))
        event.listen(engine, "connect", _sqlite_pragmas(sqlite_synchronous))
        return engine
    if postgres_connections is not None and postgres_connections < 1:
        raise ValueError(f"postgres_connections must be at least 1, not {postgres_connections}")
    sized: dict[str, Any] = (
        {}
        if postgres_connections is None
        else {"pool_size": postgres_connections, "max_overflow": POSTGRES_SPARE_CONNECTIONS}
    )
    return create_engine(url, pool_pre_ping=True, hide_parameters=True, **sized)


def read_one_moment(session: Session) -> None:
    """Make every read of ``session`` until its transaction ends see the database as it stood at
    the first: a PostgreSQL REPEATABLE READ transaction, or on SQLite a read transaction begun at
    once (the driver begins one only at a write, so each read saw the latest commit). For a long
    read while the server writes, such as an export. A transaction already open is left as it is.
    """
    if session.in_transaction():
        return
    if session.get_bind().dialect.name == "postgresql":
        session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        return
    connection = session.connection()
    if not connection.connection.dbapi_connection.in_transaction:  # type: ignore[union-attr]
        connection.exec_driver_sql("BEGIN")


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


def run_migrations(engine: Engine, *, revision: str = "head") -> None:
    """Bring the database up to ``revision`` (the newest schema by default) with Alembic.

    Run at start-up and in tests; a test passes an older revision to start from an old schema.
    """
    from alembic import command

    config = _alembic_config()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Two workers starting together on one database: the second waits, then finds it done.
            connection.execute(text("SELECT pg_advisory_xact_lock(727271)"))
        elif connection.dialect.name == "sqlite":
            # The same on SQLite: the file's write lock, taken before Alembic reads the schema (the
            # driver would begin only at the first write). Without it both found no tables and the
            # second failed to start: "table alembic_version already exists".
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def check_writable(engine: Engine) -> None:
    """Raise the driver's error unless the database can be written: a row of ``alembic_version``
    is updated to itself and the change rolled back. A read-only SQLite file (another user's, or
    opened with ``mode=ro``) otherwise opens and serves every page, and fails every write. A
    database without the table (not migrated) is left to the pages to fail on.

    >>> check_writable(make_engine("sqlite://"))
    """
    from sqlalchemy import inspect

    with engine.connect() as connection:
        migrated = inspect(connection).has_table("alembic_version")
        connection.rollback()  # the look ran in a transaction of its own
        if not migrated:
            return
        with connection.begin() as transaction:
            connection.execute(text("UPDATE alembic_version SET version_num = version_num"))
            transaction.rollback()


def _alembic_config() -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "sevens.store:migrations")
    return config


def newest_revision() -> str:
    """The schema revision :func:`run_migrations` brings a database to.

    >>> newest_revision().isdigit()
    True
    """
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None
    return head


def _reading_engine(url: str) -> Engine:
    """An engine that only looks at the database at ``url``: a SQLite file is opened read-only and
    without :func:`make_engine`'s pragmas (its ``journal_mode=WAL`` alone rewrites the header of
    another application's file)."""
    url = normalise_url(url)
    if url.startswith("sqlite") and not is_in_memory(url):
        import sqlite3
        from pathlib import Path
        from urllib.parse import quote

        uri = f"file:{quote(str(Path(make_url(url).database or '').absolute()))}?mode=ro"
        return create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True))
    return make_engine(url)


def stored_revision(url: str) -> str | None:
    """The schema revision named by the ``alembic_version`` table of the database at ``url``,
    whether this version of sevens has it or not (a newer sevens', another application's); None
    without one.

    Only reads: a SQLite file is opened read-only and without :func:`make_engine`'s pragmas (its
    ``journal_mode=WAL`` alone rewrites the header of another application's file).

    >>> stored_revision("sqlite://") is None
    True
    """
    from alembic.migration import MigrationContext

    engine = _reading_engine(url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()


def sevens_revision(url: str) -> str | None:
    """The sevens schema revision of the database at ``url``, or None if it has no sevens schema
    this version knows.

    Alembic tracks the migrations in the table ``alembic_version``; a database without it (an
    empty file, another application's) or naming a revision sevens does not have (a newer
    sevens', another application's: :func:`stored_revision` tells) is not one this version can
    use, and :func:`run_migrations` would write sevens' tables into the first. Only reads.

    >>> sevens_revision("sqlite://") is None
    True
    """
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    current = stored_revision(url)
    if current is None:
        return None
    try:
        ScriptDirectory.from_config(_alembic_config()).get_revision(current)
    except CommandError:  # alembic's ResolutionError: a revision of some other application
        return None
    return current


def other_tables(url: str) -> list[str]:
    """The tables of the database at ``url`` when it has no ``alembic_version`` table: another
    application's (sorted), which :func:`run_migrations` would add sevens' tables to. Empty for
    an empty database and for one that Alembic has migrated (sevens, or a newer sevens: the
    migrations themselves then say which). Only reads, as :func:`sevens_revision` does.

    >>> other_tables("sqlite://")
    []
    """
    from pathlib import Path

    from sqlalchemy import inspect

    parsed = make_url(normalise_url(url))
    new_file = is_in_memory(url) or not Path(parsed.database or "").exists()
    if parsed.get_backend_name() == "sqlite" and "uri" not in parsed.query and new_file:
        return []  # a new database: nothing in it yet
    # A SQLite URI (file:...?mode=ro&uri=true) is opened as the server will open it.
    engine = make_engine(url) if "uri" in parsed.query else _reading_engine(url)
    try:
        with engine.connect() as connection:
            names = inspect(connection).get_table_names()
    finally:
        engine.dispose()
    return [] if "alembic_version" in names else sorted(names)
