"""Alembic environment: run with a connection handed over by sevens.store.db.run_migrations."""

from __future__ import annotations

from alembic import context

from sevens.store.models import Base


def run() -> None:
    """Run the migrations on the connection given in the config's attributes."""
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run the migrations through sevens.store.db.run_migrations(engine)")
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


# Alembic's context exists only while Alembic runs this script (not when a doctest run imports it).
if getattr(context, "config", None) is not None:
    run()
