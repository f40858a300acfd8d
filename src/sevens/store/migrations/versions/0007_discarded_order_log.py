"""The order log marks the lines of orders discarded with their seat (handed to the bots, or
signed out for a new link), so that they stay out of the shareable export once their turn is
resolved: those orders were never played, and nobody is to see them (R13).

Revision ID: 0007
Revises: 0006

Lines discarded before this revision are marked from the event log: an event that says a seat's
orders saved for turn N were discarded marks that seat's lines of turn N logged up to its time.
"""

import re

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# The words store.games writes in such an event's detail ("p4 (Ann): ...; its 1 order(s) saved for
# turn 3 were discarded"), kept here as they were when this revision was written.
_DISCARDED = re.compile(r"(p\d+)\b.*; its \d+ order\(s\) saved for turn (\d+) were discarded")


def upgrade() -> None:
    """Add the column, false for every line, then mark the lines the event log says were discarded.
    A plain ALTER TABLE on SQLite too (as 0006): batch mode would copy the table."""
    op.add_column("order_log", sa.Column("discarded", sa.Boolean(), nullable=False, server_default=sa.false()))
    bind = op.get_bind()
    events = sa.table(
        "events", sa.column("game_id", sa.Integer), sa.column("at", sa.DateTime), sa.column("kind", sa.String),
        sa.column("detail", sa.Text),
    )
    log = sa.table(
        "order_log", sa.column("game_id", sa.Integer), sa.column("turn", sa.Integer),
        sa.column("player_id", sa.String), sa.column("at", sa.DateTime), sa.column("discarded", sa.Boolean),
    )
    found = bind.execute(
        sa.select(events.c.game_id, events.c.at, events.c.detail).where(
            events.c.kind.in_(("seat to bots", "seat signed out", "new invite"))
        )
    )
    for game_id, at, detail in found:
        matched = _DISCARDED.match(detail or "")
        if matched is None:
            continue
        bind.execute(
            sa.update(log)
            .where(
                log.c.game_id == game_id,
                log.c.turn == int(matched.group(2)),
                log.c.player_id == matched.group(1),
                log.c.at <= at,
            )
            .values(discarded=True)
        )


def downgrade() -> None:
    """Drop the column (SQLite 3.35 and later drop a column without copying the table)."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE order_log DROP COLUMN discarded")
        return
    op.drop_column("order_log", "discarded")
