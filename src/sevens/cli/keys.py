"""``sevens rotate-key``: give a hosted site's rate limits a new key, as the operator's one command
for what was an SQL statement (docs/web.md, *What the server keeps*)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from sevens.cli.database import (
    DB_HELP,
    WHERE,
    database_trouble,
    quiet_interrupted_closes,
    unknown_revision,
    usable_url,
)
from sevens.cli.errors import fail
from sevens.cli.output import OutputFailed, writing_stdout

__all__ = ["KEY_REVISION", "register"]

KEY_REVISION = "0011"
"""The schema revision that made the key's table: a database before it has no key to rotate."""


def _count(n: int) -> str:
    """
    >>> _count(1), _count(0)
    ('1 counted request', '0 counted requests')
    """
    return f"{n} counted request" + ("" if n == 1 else "s")


def rotate(url: str) -> str:
    """Rotate the key of the sevens database at ``url``; the line that says what was done and
    what it forgets, or a one-line error. Nothing is migrated or created: a database another
    version must first bring up to date is refused, naming what to run."""
    from sqlalchemy.exc import SQLAlchemyError

    from sevens.cli.serve import shown_database
    from sevens.store.db import is_in_memory, make_engine, newest_revision, sevens_revision, stored_revision
    from sevens.store.ratelimit import rotate_key

    quiet_interrupted_closes()
    parsed = usable_url(url)
    if is_in_memory(url):
        fail(f"an in-memory database (sqlite://) holds no key; name the server's database in {WHERE}")
    if parsed.get_backend_name() == "sqlite" and not Path(parsed.database or "").is_file():
        # Opening it would create an empty database: the server's is elsewhere.
        fail(f"there is no SQLite database at {parsed.database}; name the one the server uses in {WHERE} "
             "(sevens serve's first line names it)")
    try:
        revision = sevens_revision(url)
        if revision is None:
            found = stored_revision(url)
            if found is not None:
                fail(unknown_revision(found, then="rotate the key with that newer sevens"))
            fail(f"not a sevens database: it has no sevens schema (no alembic_version table naming a sevens revision); check {WHERE}")
        if int(revision) < int(KEY_REVISION):
            fail(f"the database holds schema revision {revision!r}, from before the rate-limit key (revision "
                 f"{KEY_REVISION}); start this version's sevens serve on it once, which migrates it and makes a key")
        engine = make_engine(url)
        try:
            forgotten = rotate_key(engine, at=time.time())
        finally:
            engine.dispose()
    except SQLAlchemyError as exc:
        fail(f"cannot rotate the key: {database_trouble(exc, url)}")
    later = "" if revision == newest_revision() else " (its schema is older than this sevens': it was left as it was)"
    return (
        f"rotated the rate-limit key of {shown_database(url)}{later}: forgot {_count(forgotten)} (wrong "
        "secrets, new games, organiser links and acts, device links), so every address and seat starts "
        "its limits afresh; each worker of a running server takes the new key at its next count but "
        "keeps what it counted itself in memory until its window ends (an hour at most) or it restarts"
    )


def register(app: typer.Typer) -> None:
    """Add ``sevens rotate-key`` to the application."""

    @app.command("rotate-key")
    def rotate_key_command(
        database_url: Annotated[str | None, typer.Option("--database-url", metavar="URL", help=DB_HELP)] = None,
    ) -> None:
        """Give the server's rate limits a new key, forgetting every count kept in the database.

        The rate-limit rows hold addresses only as keyed hashes; with the key, a copy of the whole
        database could match them to addresses for the day they are kept. Rotating makes a new key
        and deletes the rows, which nothing could match any more. The server may keep running."""
        from sevens.web.settings import Settings

        line = rotate(database_url or Settings().database_url)
        try:
            with writing_stdout():
                typer.echo(line)
        except OutputFailed as failed:
            failed.end(then=" (the key was rotated)")
