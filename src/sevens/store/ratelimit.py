"""Failed attempts with a secret (and new games), counted in the database so that every worker sees them all."""

from __future__ import annotations

from typing import cast

from sqlalchemy import Engine, Table, delete, func, insert, select

from sevens.store.models import FailedAttempt
from sevens.store.secrets import hash_token

__all__ = ["KEEP_SECONDS", "count_failure"]

KEEP_SECONDS = 86400.0
"""How long any count is kept at least. The limits share the table with windows of their own (a
minute for wrong secrets, an hour for new games): one limit's call must not forget what another
still counts, so only what is older than a day (and than the caller's own window) goes."""

_ATTEMPTS = cast(Table, FailedAttempt.__table__)


def count_failure(engine: Engine, *, client: str, at: float, window: float) -> int:
    """Record a failed attempt by ``client`` at ``at`` (seconds since the epoch); return how many
    it made in the ``window`` seconds up to then, this one included, whichever worker saw them.

    Attempts older than the window (and than :data:`KEEP_SECONDS`) are forgotten on the way. The
    client's address is stored only as its SHA-256.

    >>> from sevens.store.db import make_engine, run_migrations
    >>> engine = make_engine("sqlite://")
    >>> run_migrations(engine)
    >>> [count_failure(engine, client="10.0.0.1", at=t, window=60) for t in (0, 10, 20, 75)]
    [1, 2, 3, 2]
    """
    key = hash_token(client)
    with engine.begin() as connection:
        connection.execute(delete(_ATTEMPTS).where(_ATTEMPTS.c.at <= at - max(window, KEEP_SECONDS)))
        connection.execute(insert(_ATTEMPTS).values(client_hash=key, at=at))
        total = connection.execute(
            select(func.count()).select_from(_ATTEMPTS).where(_ATTEMPTS.c.client_hash == key, _ATTEMPTS.c.at > at - window)
        ).scalar_one()
    return int(total)
