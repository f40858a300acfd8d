"""Each game keeps when the deadline scheduler should next look whether its open turn's orders
are all ready (``games.ready_check_at``, indexed), so that a poll reads only the games due instead
of a row per game being played, abandoned ones included.

Revision ID: 0014
Revises: 0013

Every game being played (running or paused) is made due at once: the first poll after the
upgrade looks at each once, as the scheduler's first poll after a start did before.
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column (nullable: a plain ALTER TABLE on SQLite too) and its index; the games being
    played are due from when they started (a time in the past, with no time zone to convert)."""
    op.add_column("games", sa.Column("ready_check_at", sa.DateTime(), nullable=True))
    op.create_index(op.f("ix_games_ready_check_at"), "games", ["ready_check_at"], unique=False)
    op.execute(
        "UPDATE games SET ready_check_at = COALESCE(started_at, created_at) WHERE status IN ('running', 'paused')"
    )


def downgrade() -> None:
    """Remove the index, then the column (SQLite 3.35 and later drop a column without copying the
    table); the older scheduler looks at every game being played at its first poll."""
    op.drop_index(op.f("ix_games_ready_check_at"), table_name="games")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE games DROP COLUMN ready_check_at")
        return
    op.drop_column("games", "ready_check_at")
