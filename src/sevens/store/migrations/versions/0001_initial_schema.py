"""Initial schema: games, seats, teams, orders, order log, turns, events, credentials.

Revision ID: 0001
Revises: (none)
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create every table."""

    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "lobby",
                "running",
                "paused",
                "finished",
                "ended",
                name="game_status",
                native_enum=False,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column(
            "visibility",
            sa.Enum("public", "private", name="visibility", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("teams", sa.Integer(), nullable=False),
        sa.Column("teams_per_player", sa.Integer(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=True),
        sa.Column("default_bot", sa.String(length=40), nullable=False),
        sa.Column("seed_hex", sa.String(length=64), nullable=False),
        sa.Column("seed_sha256", sa.String(length=64), nullable=False),
        sa.Column("current_turn", sa.Integer(), nullable=False),
        sa.Column("deadline_at", sa.DateTime(), nullable=True),
        sa.Column("paused_remaining", sa.Integer(), nullable=True),
        sa.Column("record_json", sa.Text(), nullable=True),
        sa.Column("champion", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.Column("organiser_link_hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("organiser_link_hash"),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_games_deadline_at"), ["deadline_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_public_id"), ["public_id"], unique=True)

    op.create_table(
        "principals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "kind",
            sa.Enum("session", "bot", name="principal_kind", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("detail", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_events_game_id"), ["game_id"], unique=False)

    op.create_table(
        "grants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("principal_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column(
            "role", sa.Enum("organiser", "player", name="role", native_enum=False, length=16), nullable=False
        ),
        sa.Column("player_id", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["principal_id"], ["principals.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("principal_id", "game_id", "role", "player_id"),
    )
    with op.batch_alter_table("grants", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_grants_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_grants_principal_id"), ["principal_id"], unique=False)

    op.create_table(
        "order_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=16), nullable=False),
        sa.Column("force", sa.Integer(), nullable=False),
        sa.Column("flair", sa.Integer(), nullable=False),
        sa.Column("ready", sa.Boolean(), nullable=False),
        sa.Column("via", sa.String(length=8), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("order_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_order_log_game_id"), ["game_id"], unique=False)

    op.create_table(
        "orders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.String(length=64), nullable=False),
        sa.Column("force", sa.Integer(), nullable=False),
        sa.Column("flair", sa.Integer(), nullable=False),
        sa.Column("ready", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "turn", "team_id"),
    )
    with op.batch_alter_table("orders", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_orders_game_id"), ["game_id"], unique=False)

    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("invite_hash", sa.String(length=64), nullable=False),
        sa.Column("joined_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "player_id"),
        sa.UniqueConstraint("invite_hash"),
    )
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seats_game_id"), ["game_id"], unique=False)

    op.create_table(
        "teams",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("group", sa.String(length=4), nullable=False),
        sa.Column("player_id", sa.String(length=16), nullable=True),
        sa.Column("autopilot", sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "team_id"),
    )
    with op.batch_alter_table("teams", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_teams_game_id"), ["game_id"], unique=False)

    op.create_table(
        "turns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("resolved_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "number"),
    )
    with op.batch_alter_table("turns", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_turns_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    """Drop every table."""

    with op.batch_alter_table("turns", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_turns_game_id"))

    op.drop_table("turns")
    with op.batch_alter_table("teams", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_teams_game_id"))

    op.drop_table("teams")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seats_game_id"))

    op.drop_table("seats")
    with op.batch_alter_table("orders", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_orders_game_id"))

    op.drop_table("orders")
    with op.batch_alter_table("order_log", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_order_log_game_id"))

    op.drop_table("order_log")
    with op.batch_alter_table("grants", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_grants_principal_id"))
        batch_op.drop_index(batch_op.f("ix_grants_game_id"))

    op.drop_table("grants")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_events_game_id"))

    op.drop_table("events")
    op.drop_table("principals")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_public_id"))
        batch_op.drop_index(batch_op.f("ix_games_deadline_at"))

    op.drop_table("games")
