"""The database URL that ``sevens serve``, ``export`` and ``import`` are given, checked before use."""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING

from sevens.cli.errors import fail
from sevens.extras import extra_of, install_hint

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

__all__ = ["DB_HELP", "SUPPORTED", "another_application", "database_trouble", "quiet_interrupted_closes", "unknown_revision", "usable_url"]

SUPPORTED = "sevens runs on SQLite (sqlite:///PATH) and PostgreSQL (postgresql://USER@HOST/DB, driver psycopg)"
DB_HELP = (
    "SQLAlchemy URL of the database, e.g. sqlite:///games.sqlite3 or postgresql://USER:PASSWORD@HOST/DB "
    "(PostgreSQL needs sevens\\[postgres]); default $DATABASE_URL, else sqlite:///./sevens.sqlite3."
)
WHERE = "--database-url (or $DATABASE_URL)"


def usable_url(url: str) -> URL:
    """The parsed URL of a database sevens can use, with its driver importable, or a one-line
    error. The URL is never repeated in the error: it may hold a password.

    >>> usable_url("postgresql://u@h/db").drivername
    'postgresql+psycopg'
    """
    from sqlalchemy import make_url
    from sqlalchemy.exc import ArgumentError

    from sevens.store.db import normalise_url

    try:
        parsed = make_url(normalise_url(url))
    except ArgumentError:
        fail(f"the database URL is not one SQLAlchemy can read; {SUPPORTED}")
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        fail(f"{backend} databases are not supported; {SUPPORTED}")
    # Load the driver now: create_engine would raise the bare ImportError later (mysql://,
    # postgresql+asyncpg:// without asyncpg).
    try:
        parsed.get_dialect().import_dbapi()
    except ImportError as exc:
        if backend == "postgresql" and extra_of(exc.name) == "postgres":
            # psycopg is an extra: a plain `pip install sevens` runs on SQLite alone.
            fail(f"{WHERE} names a PostgreSQL database, and its driver {exc.name} is not installed: "
                 f"{install_hint('postgres')}")
        fail(f"the database driver {exc.name or exc} is not installed; {SUPPORTED}")
    except ArgumentError:  # NoSuchModuleError: a driver SQLAlchemy has never heard of
        fail(f"the database driver {parsed.get_driver_name()} is not one SQLAlchemy knows; {SUPPORTED}")
    return parsed


def database_trouble(exc: BaseException, url: str) -> str:
    """What went wrong with the database at ``url``, on one line, and what to check: the driver's
    own first line without SQLAlchemy's ``(module.Class)`` prefix, and a hint for the usual causes.
    The URL itself is never repeated: it may hold a password.

    >>> from sqlalchemy.exc import OperationalError
    >>> database_trouble(OperationalError("x", {}, Exception("unable to open database file")), "sqlite:///no/g.db")
    'unable to open database file: SQLite cannot open or create no/g.db; check that its folder exists and can be written, and the path in --database-url (or $DATABASE_URL)'
    >>> database_trouble(OperationalError("x", {}, Exception("connection refused")), "postgresql://u:pw@h/db")
    'connection refused; check that the PostgreSQL server is running and that --database-url (or $DATABASE_URL) names its host, port, user, password and database'
    """
    from pathlib import Path

    from sqlalchemy import make_url
    from sqlalchemy.exc import OperationalError

    from sevens.store.db import normalise_url

    lines = str(exc).splitlines() or [type(exc).__name__]
    detail = lines[0]
    if detail.startswith("(") and ") " in detail:
        detail = detail.split(") ", 1)[1]
    parsed = make_url(normalise_url(url))
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if Path(database).is_dir():
            return f"{detail}: {database} is a folder; give the path of a database file in {WHERE}"
        if "file is not a database" in detail:
            return f"{detail}: {database} is not a SQLite database; check the path in {WHERE}"
        if "readonly database" in detail:
            return f"{detail}: sevens cannot write {database}; check that it may write the file and its folder, and {WHERE}"
        if "unable to open database file" in detail:
            return (
                f"{detail}: SQLite cannot open or create {database}; check that its folder exists and can "
                f"be written, and the path in {WHERE}"
            )
        return f"{detail}; check the path in {WHERE}"
    if "must be owner of" in detail:  # PostgreSQL: only a table's owner may alter it, as a migration does
        return (
            f"{detail}; migrating an older sevens schema changes its tables, which only their owner may do: "
            f"run sevens once as the user that owns them (then this one may use it), or check {WHERE}"
        )
    if "permission denied" in detail:
        return f"{detail}; the user in {WHERE} must be able to read and write sevens' tables: grant it that, or name their owner"
    if "does not exist" in detail and "database" in detail:
        # The docs' restore names a new database: PostgreSQL makes none on connection, as SQLite does.
        return (
            f"{detail}; create it first (as the postgres user: createdb -O USER NAME, with the user and database "
            f"of {WHERE}), or check the name there"
        )
    if isinstance(exc, OperationalError):
        return (
            f"{detail}; check that the PostgreSQL server is running and that {WHERE} names its host, port, "
            "user, password and database"
        )
    return f"{detail}; check {WHERE}"


def another_application(url: str) -> str | None:
    """What to say of a database that holds another application's tables (no ``alembic_version``),
    to which the migrations would add sevens' own; None for an empty one or one sevens made."""
    from sevens.store.db import other_tables

    found = other_tables(url)
    if not found:
        return None
    shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
    return (
        f"not a sevens database: it holds tables ({shown}) but no sevens schema (no alembic_version "
        f"table), so it is another application's; point {WHERE} at a new, empty database or at one sevens made"
    )


def unknown_revision(revision: str, *, then: str) -> str:
    """What to say of a database whose schema revision this version of sevens has no migration
    for, and what to do (``then``): the migrations only go forward, to this version's newest.

    >>> unknown_revision("0099", then="export it with that newer sevens")  # doctest: +ELLIPSIS
    "the database holds schema revision '0099', which this version of sevens (schema 00...) does not know: a newer sevens migrated it, or it is another application's database; export it with that newer sevens, or check --database-url (or $DATABASE_URL)"
    """
    from sevens.store.db import newest_revision

    return (
        f"the database holds schema revision {revision!r}, which this version of sevens (schema "
        f"{newest_revision()}) does not know: a newer sevens migrated it, or it is another application's "
        f"database; {then}, or check {WHERE}"
    )


def _not_an_interrupt(record: logging.LogRecord) -> bool:
    return not (record.exc_info and record.exc_info[0] is not None and issubclass(record.exc_info[0], KeyboardInterrupt))


@functools.cache  # once a process: a second handler would write each warning twice
def quiet_interrupted_closes() -> None:
    """Keep SQLAlchemy's log of a Ctrl-C that lands as it closes a connection off stderr: the pool
    logs "Exception closing connection" with a traceback (through logging's last-resort handler)
    and raises the interrupt on, which the command then reports in its own line. Its other warnings
    and errors are written to stderr as before."""
    handler = logging.StreamHandler()  # sys.stderr, with the last-resort handler's level and format
    handler.setLevel(logging.WARNING)
    handler.addFilter(_not_an_interrupt)
    logging.getLogger("sqlalchemy").addHandler(handler)
