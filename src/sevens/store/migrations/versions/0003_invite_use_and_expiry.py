"""Invites are used once and expire: when a seat's invite was used, and until when it is valid.

Revision ID: 0003
Revises: 0002

Invites issued before this revision have no expiry; an invite whose seat was already joined
counts as used (the browser or bot that joined keeps its access).
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two columns; a joined seat's invite is marked used at its joining time."""
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("invite_used_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("invite_expires_at", sa.DateTime(), nullable=True))
    op.execute("UPDATE seats SET invite_used_at = joined_at WHERE joined_at IS NOT NULL")


def downgrade() -> None:
    """Drop the two columns."""
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("invite_expires_at")
        batch_op.drop_column("invite_used_at")
