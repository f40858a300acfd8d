"""Names are counted in characters as a reader sees them (a flag or a family emoji is one), with a
cap of four code points a character: a display name holds up to 160 code points, a game's name up
to 320, where the columns held 40 and 80.

Revision ID: 0009
Revises: 0008

Every stored name fits the wider columns as it is; none is judged again.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

WIDTHS = {("seats", "name"): (40, 160), ("games", "name"): (80, 320)}
"""Each column widened: (table, column) to (old width, new width)."""


def _set_width(table: str, column: str, width: int, old: int, cut: bool) -> None:
    if op.get_bind().dialect.name == "sqlite":
        # SQLite cannot change a column's type in place; batch mode would copy and drop the table,
        # and with foreign keys on, dropping games deletes every seat. A new column takes the
        # values, the old one is dropped (SQLite 3.35 and later) and the new one takes its name.
        nullable = table == "seats"
        kind = f"VARCHAR({width})" + ("" if nullable else " NOT NULL DEFAULT ''")
        value = f"substr({column}, 1, {width})" if cut else column
        op.execute(f"ALTER TABLE {table} ADD COLUMN {column}_wide {kind}")
        op.execute(f"UPDATE {table} SET {column}_wide = {value}")
        op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        op.execute(f"ALTER TABLE {table} RENAME COLUMN {column}_wide TO {column}")
        return
    op.alter_column(
        table,
        column,
        type_=sa.String(width),
        existing_type=sa.String(old),
        postgresql_using=f"left({column}, {width})" if cut else None,
    )


def upgrade() -> None:
    """Widen both columns."""
    for (table, column), (old, new) in WIDTHS.items():
        _set_width(table, column, new, old, cut=False)


def downgrade() -> None:
    """Narrow them again, cutting a longer name to the old width (the old versions counted code
    points, so it is then a name they take)."""
    for (table, column), (old, new) in WIDTHS.items():
        _set_width(table, column, old, new, cut=True)
