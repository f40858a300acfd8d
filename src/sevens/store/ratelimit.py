"""Failed attempts with a secret (and new games), counted in the database so that every worker sees them all."""

from __future__ import annotations

from typing import cast

from sqlalchemy import Connection, Engine, Table, delete, func, insert, select

from sevens.store.models import FailedAttempt, ServerKey
from sevens.store.secrets import keyed_hash
from sevens.store.server_keys import server_key

__all__ = ["KEEP_SECONDS", "KEY_PURPOSE", "count_failure", "make_key", "rotate_key"]

KEEP_SECONDS = 86400.0
"""How long any count is kept at least. The limits share the table with windows of their own (a
minute for wrong secrets, an hour for new games): one limit's call must not forget what another
still counts, so only what is older than a day (and than the caller's own window) goes."""

KEY_PURPOSE = "rate-limits"
"""The :class:`~sevens.store.models.ServerKey` the counts' keys are hashed under."""

_ATTEMPTS = cast(Table, FailedAttempt.__table__)
_KEYS = cast(Table, ServerKey.__table__)


def _key(connection: Connection, *, at: float) -> bytes:
    """The server's key for the counts, made now if there is none (first start, or rotated by
    deleting it: docs/web.md). Read at every count rather than held by the process, so that every
    worker takes up a rotated key at once.

    >>> from sevens.store.db import make_engine, run_migrations
    >>> engine = make_engine("sqlite://")
    >>> run_migrations(engine)
    >>> with engine.begin() as connection:
    ...     _key(connection, at=0) == _key(connection, at=1) and len(_key(connection, at=2))
    32
    """
    return server_key(connection, purpose=KEY_PURPOSE, at=at)


def make_key(engine: Engine, *, at: float) -> None:
    """Make the server's key for the counts if it has none yet (at start-up, so that the first
    count does not)."""
    with engine.begin() as connection:
        _key(connection, at=at)


def count_failure(engine: Engine, *, client: str, at: float, window: float) -> int:
    """Record a failed attempt by ``client`` at ``at`` (seconds since the epoch); return how many
    it made in the ``window`` seconds up to then, this one included, whichever worker saw them.

    Attempts older than the window (and than :data:`KEEP_SECONDS`) are forgotten on the way. The
    client's address is stored only as its HMAC under the server's key (:func:`keyed_hash`), not
    as a plain hash: there are few enough IPv4 addresses to hash them all and look the rows up.

    >>> from sevens.store.db import make_engine, run_migrations
    >>> engine = make_engine("sqlite://")
    >>> run_migrations(engine)
    >>> [count_failure(engine, client="10.0.0.1", at=t, window=60) for t in (0, 10, 20, 75)]
    [1, 2, 3, 2]
    """
    with engine.begin() as connection:
        key = keyed_hash(_key(connection, at=at), client)
        connection.execute(delete(_ATTEMPTS).where(_ATTEMPTS.c.at <= at - max(window, KEEP_SECONDS)))
        connection.execute(insert(_ATTEMPTS).values(client_hash=key, at=at))
        total = connection.execute(
            select(func.count()).select_from(_ATTEMPTS).where(_ATTEMPTS.c.client_hash == key, _ATTEMPTS.c.at > at - window)
        ).scalar_one()
    return int(total)


def rotate_key(engine: Engine, *, at: float) -> int:
    """Replace the server's key for the counts with a new one and forget every count kept (rows
    hashed under the old key, which nothing could match any more); return how many went.

    One transaction: a worker counting meanwhile hashes under the old key or the new, never finds
    the table without a key. Each worker's memory of the windows running is its own, untouched.

    >>> from sevens.store.db import make_engine, run_migrations
    >>> engine = make_engine("sqlite://")
    >>> run_migrations(engine)
    >>> [count_failure(engine, client="10.0.0.1", at=t, window=60) for t in (0, 10)]
    [1, 2]
    >>> rotate_key(engine, at=20), count_failure(engine, client="10.0.0.1", at=30, window=60)
    (2, 1)
    """
    with engine.begin() as connection:
        forgotten = connection.execute(delete(_ATTEMPTS)).rowcount
        connection.execute(delete(_KEYS).where(_KEYS.c.purpose == KEY_PURPOSE))
        _key(connection, at=at)
    return int(forgotten)
