"""A browser session made by a join from a browser that had none keeps the SHA-256 of the CSRF
token that browser's forms carried (its CSRF cookie's value), so that a second tab of the same
browser, whose join was sent before the first one's answer brought the session cookie, is known
as the same browser (docs/reliability.md, Lobby races).

Revision ID: 0012
Revises: 0011

Sessions made before have none: the column is empty for them, as for every bot token.
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column (nullable: a plain ALTER TABLE on SQLite too) and its index."""
    op.add_column("principals", sa.Column("pre_session_hash", sa.String(64), nullable=True))
    op.create_index("ix_principals_pre_session_hash", "principals", ["pre_session_hash"], unique=False)


def downgrade() -> None:
    """Drop them (SQLite 3.35 and later drop a column without copying the table): the older
    versions give two such tabs two sessions, one seat each."""
    op.drop_index("ix_principals_pre_session_hash", table_name="principals")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE principals DROP COLUMN pre_session_hash")
        return
    op.drop_column("principals", "pre_session_hash")
