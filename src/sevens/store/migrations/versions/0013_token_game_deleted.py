"""A bot token whose only game was deleted is kept, with its label emptied, as a marker that says
so: ``game_deleted_at`` is when. It opens nothing; a call with it is told why (401, "the game this
token was made for was deleted") instead of "unknown or revoked bot token", until the tidy removes
it ``SEVENS_SESSION_DAYS`` after the deletion.

Revision ID: 0013
Revises: 0012

Tokens deleted with their game before this revision are gone: they still answer "unknown".
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column (nullable: a plain ALTER TABLE on SQLite too)."""
    op.add_column("principals", sa.Column("game_deleted_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    """Remove the markers (they would read as live tokens that open nothing), then the column
    (SQLite 3.35 and later drop a column without copying the table)."""
    op.execute("DELETE FROM principals WHERE game_deleted_at IS NOT NULL")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE principals DROP COLUMN game_deleted_at")
        return
    op.drop_column("principals", "game_deleted_at")
