"""A game over knows its rematch, so that its pages can lead whoever may see the new game to it.

Revision ID: 0005
Revises: 0004

Games rematched before this revision keep no link (nothing recorded which game followed which).
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the nullable column, its foreign key and an index.

    The constraint has the name PostgreSQL would give it, as the models name none. SQLite adds
    both in one ALTER TABLE: batch mode would copy and drop the games table, and with
    foreign keys on, dropping it deletes every seat, team and order through their cascades."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            "ALTER TABLE games ADD COLUMN rematch_id INTEGER "
            "REFERENCES games (id)"
        )
    else:
        op.add_column("games", sa.Column("rematch_id", sa.Integer(), nullable=True))
        op.create_foreign_key("games_rematch_id_fkey", "games", "games", ["rematch_id"], ["id"])
    # Each page of a game asks which game it is the rematch of.
    op.create_index("ix_games_rematch_id", "games", ["rematch_id"], unique=False)


def downgrade() -> None:
    """Drop the index, the foreign key and the column (SQLite drops the column with its constraint)."""
    op.drop_index("ix_games_rematch_id", table_name="games")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE games DROP COLUMN rematch_id")
        return
    op.drop_constraint("games_rematch_id_fkey", "games", type_="foreignkey")
    op.drop_column("games", "rematch_id")
