"""Invites issued before revision 0003 expire: they were made without an expiry, so an open one
opened its seat for ever. Each such invite not yet used expires 14 days after this upgrade
(``SEVENS_INVITE_DAYS``' default), as a new one issued at that moment would.

Revision ID: 0008
Revises: 0007

Counted from the upgrade, not from when the invite was made: an organiser whose players have not
joined yet keeps their links working for the time a new link gets, and can issue new ones (the old
stop working) to end them sooner. A used invite needs none: it opens nothing again.
"""

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

LIFETIME = timedelta(days=14)
"""How long an old invite stays usable after the upgrade: the default of ``SEVENS_INVITE_DAYS``
(migrations run without the server's settings)."""


def upgrade() -> None:
    """Give every unused invite without an expiry one, 14 days from now (naive UTC, as sevens
    stores every time)."""
    seats = sa.table(
        "seats", sa.column("invite_used_at", sa.DateTime), sa.column("invite_expires_at", sa.DateTime)
    )
    until = datetime.now(UTC).replace(tzinfo=None) + LIFETIME
    op.get_bind().execute(
        sa.update(seats)
        .where(seats.c.invite_expires_at.is_(None), seats.c.invite_used_at.is_(None))
        .values(invite_expires_at=until)
    )


def downgrade() -> None:
    """Nothing to undo: an invite with an expiry is what revision 0003 makes."""
