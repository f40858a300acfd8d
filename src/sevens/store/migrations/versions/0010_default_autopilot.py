"""A game has a default autopilot apart from its default bot: the bot that plays a missed order of
a manager who has taken their seat and chosen none (R13), while the default bot plays the teams
nobody plays. An organiser may want a hard field of house teams and a gentle stand-in for an absent
friend (docs/strategy.md, "Which bot plays when nobody chooses").

Revision ID: 0010
Revises: 0009

Every game keeps what it did: its default autopilot is its default bot, which played both.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column, filled from default_bot. A plain ALTER TABLE on SQLite too: batch mode would
    copy and drop the games table, and with foreign keys on, dropping it deletes every seat, team
    and order; so the column is NOT NULL with a default of '' for the rows already there."""
    op.add_column("games", sa.Column("default_autopilot", sa.String(40), nullable=False, server_default=""))
    op.execute("UPDATE games SET default_autopilot = default_bot")
    if op.get_bind().dialect.name != "sqlite":  # SQLite cannot drop a column's default in place
        op.alter_column("games", "default_autopilot", server_default=None)


def downgrade() -> None:
    """Drop the column (SQLite 3.35 and later drop a column without copying the table): the older
    versions play every missed order by the default bot again."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE games DROP COLUMN default_autopilot")
        return
    op.drop_column("games", "default_autopilot")
