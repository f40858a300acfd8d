"""A game remembers, per resolved turn, which teams a bot played because nobody played their seat
then (not taken yet, or handed to the bots), so that a match report says what was true at that turn
rather than how the seat stands now.

Revision ID: 0006
Revises: 0005

Turns resolved before this revision have no entry: their reports say how each seat stands now, as
before (nothing recorded it then).
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the nullable column. A plain ALTER TABLE on SQLite too: batch mode would copy and drop
    the games table, and with foreign keys on, dropping it deletes every seat, team and order."""
    op.add_column("games", sa.Column("seat_bots_json", sa.Text(), nullable=True))


def downgrade() -> None:
    """Drop the column (SQLite 3.35 and later drop a column without copying the table)."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE games DROP COLUMN seat_bots_json")
        return
    op.drop_column("games", "seat_bots_json")
