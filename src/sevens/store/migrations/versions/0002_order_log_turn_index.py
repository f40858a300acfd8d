"""Index the order log by game and turn (exports and audits read one turn's log at a time).

Revision ID: 0002
Revises: 0001
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the index."""
    with op.batch_alter_table("order_log", schema=None) as batch_op:
        batch_op.create_index("ix_order_log_game_turn", ["game_id", "turn"], unique=False)


def downgrade() -> None:
    """Drop the index."""
    with op.batch_alter_table("order_log", schema=None) as batch_op:
        batch_op.drop_index("ix_order_log_game_turn")
