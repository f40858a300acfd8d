"""The database URL that ``sevens serve``, ``export`` and ``import`` are given, checked before use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sevens.cli.errors import fail

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

__all__ = ["DB_HELP", "SUPPORTED", "usable_url"]

SUPPORTED = "sevens runs on SQLite (sqlite:///PATH) and PostgreSQL (postgresql://USER@HOST/DB, driver psycopg)"
DB_HELP = "SQLAlchemy URL of the database; default $DATABASE_URL, else ./sevens.sqlite3."


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
        fail(f"the database driver {exc.name or exc} is not installed; {SUPPORTED}")
    except ArgumentError:  # NoSuchModuleError: a driver SQLAlchemy has never heard of
        fail(f"the database driver {parsed.get_driver_name()} is not one SQLAlchemy knows; {SUPPORTED}")
    return parsed
