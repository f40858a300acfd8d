"""Failed attempts with a secret, shared by every worker so that a rate limit holds across them.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table and its indexes."""
    op.create_table(
        "failed_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("client_hash", sa.String(length=64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_failed_attempts_client_at", "failed_attempts", ["client_hash", "at"], unique=False)
    op.create_index("ix_failed_attempts_at", "failed_attempts", ["at"], unique=False)


def downgrade() -> None:
    """Drop the table."""
    op.drop_index("ix_failed_attempts_at", table_name="failed_attempts")
    op.drop_index("ix_failed_attempts_client_at", table_name="failed_attempts")
    op.drop_table("failed_attempts")
