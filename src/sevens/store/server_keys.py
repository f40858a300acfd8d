"""Secret keys the server makes for itself, one per purpose, kept in ``server_keys``: every worker
and every server on one database must use the same key, and the database is what they all share."""

from __future__ import annotations

import secrets
from typing import cast

from sqlalchemy import Connection, Table, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from sevens.store.models import ServerKey

__all__ = ["SEAT_FORMS", "server_key"]

SEAT_FORMS = "seat-forms"
"""The key of the mark on a player's order form (sevens.web.security.seat_form_proof)."""

_KEYS = cast(Table, ServerKey.__table__)


def server_key(connection: Connection, *, purpose: str, at: float) -> bytes:
    """The server's 32-byte key for ``purpose``, made now (at ``at``) if there is none yet.

    >>> from sevens.store.db import make_engine, run_migrations
    >>> engine = make_engine("sqlite://")
    >>> run_migrations(engine)
    >>> with engine.begin() as connection:
    ...     one = server_key(connection, purpose=SEAT_FORMS, at=0)
    ...     one == server_key(connection, purpose=SEAT_FORMS, at=1), one == server_key(connection, purpose="other", at=1)
    (True, False)
    """
    found = connection.execute(select(_KEYS.c.key_hex).where(_KEYS.c.purpose == purpose)).scalar()
    if found is None:
        # Workers starting together may both make one: the first insert wins, and both read it.
        made = (postgresql_insert if connection.dialect.name == "postgresql" else sqlite_insert)(_KEYS)
        connection.execute(
            made.values(purpose=purpose, key_hex=secrets.token_hex(32), made_at=at).on_conflict_do_nothing(
                index_elements=["purpose"]
            )
        )
        found = connection.execute(select(_KEYS.c.key_hex).where(_KEYS.c.purpose == purpose)).scalar_one()
    return bytes.fromhex(found)
