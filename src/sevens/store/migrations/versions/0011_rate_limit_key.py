"""The rate-limit rows hash the client's address with a key of the server's own (HMAC-SHA-256)
rather than a plain SHA-256, which anyone holding the rows could reverse by trying every IPv4
address. The key is made by the first count after the upgrade, kept in ``server_keys``.

Revision ID: 0011
Revises: 0010

The rows counted before cannot be rewritten (that would need the addresses they hide), and they
would no longer match any count: both ways, they are deleted, which forgets the windows running
(an hour at most) as rotating the key does.
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the keys' table and forget the plain hashes."""
    op.create_table(
        "server_keys",
        sa.Column("purpose", sa.String(length=32), nullable=False),
        sa.Column("key_hex", sa.String(length=64), nullable=False),
        sa.Column("made_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("purpose"),
    )
    op.execute("DELETE FROM failed_attempts")


def downgrade() -> None:
    """Drop the keys (the older versions hash without one) and the rows made with them."""
    op.execute("DELETE FROM failed_attempts")
    op.drop_table("server_keys")
