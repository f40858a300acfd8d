"""The database tables, as SQLAlchemy 2 typed models.

Secrets (invite links, session and bot tokens, the organiser's link) are stored only as their
SHA-256. The game seed is the one secret stored as it is, because the server must throw the dice
with it; it leaves the database only in the record of a finished game (R14).
"""

from __future__ import annotations

import enum
from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Dialect,
    Enum,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql import false
from sqlalchemy.types import TypeDecorator

__all__ = [
    "ApiPrincipal",
    "Base",
    "EventRow",
    "FailedAttempt",
    "GameRow",
    "GameStatus",
    "Grant",
    "OrderLogRow",
    "OrderRow",
    "PrincipalKind",
    "Role",
    "SeatRow",
    "ServerKey",
    "TeamRow",
    "TurnRow",
    "UTCDateTime",
    "Visibility",
]


class UTCDateTime(TypeDecorator[datetime]):
    """An absolute time: stored as naive UTC everywhere, read back as aware UTC.

    SQLite keeps no time zone, so the column never relies on the database for one.
    """

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("refusing a naive datetime: deadlines are absolute UTC times")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    """Declarative base of every table."""


class GameStatus(enum.StrEnum):
    """Where a game stands."""

    LOBBY = "lobby"  # created, players joining
    RUNNING = "running"  # a turn is open for orders
    PAUSED = "paused"  # the deadline clock is stopped
    FINISHED = "finished"  # a champion is crowned
    ENDED = "ended"  # stopped by the organiser before the end

    @property
    def said(self) -> str:
        """The status as a refusal says it after "is": "the game is lobby" reads as a slip.

        >>> GameStatus.LOBBY.said, GameStatus.ENDED.said
        ('still in its lobby (not started)', 'ended')
        """
        return "still in its lobby (not started)" if self is GameStatus.LOBBY else self.value


class Visibility(enum.StrEnum):
    """Who may watch a game."""

    PUBLIC = "public"
    PRIVATE = "private"


class Role(enum.StrEnum):
    """What a credential may do in one game."""

    ORGANISER = "organiser"
    PLAYER = "player"


class PrincipalKind(enum.StrEnum):
    """A browser session (cookie) or a bot (bearer token)."""

    SESSION = "session"
    BOT = "bot"


def _enum(cls: type[enum.StrEnum], name: str) -> Enum:
    # Stored as plain strings with a CHECK, so SQLite and PostgreSQL hold the same values.
    return Enum(cls, name=name, native_enum=False, values_callable=lambda e: [m.value for m in e], length=16)


class GameRow(Base):
    """One hosted game."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(320))  # store.games.GAME_NAME_POINTS
    status: Mapped[GameStatus] = mapped_column(_enum(GameStatus, "game_status"))
    visibility: Mapped[Visibility] = mapped_column(_enum(Visibility, "visibility"))
    players: Mapped[int] = mapped_column(Integer)
    teams: Mapped[int] = mapped_column(Integer)
    teams_per_player: Mapped[int] = mapped_column(Integer)
    # None: the turn is resolved when every order is ready (or by the organiser).
    turn_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    default_bot: Mapped[str] = mapped_column(String(40))
    # The autopilot of a manager who has taken their seat and chosen none (R13); default_bot plays
    # the teams nobody plays. Two settings since revision 0010, which gave old games default_bot here.
    default_autopilot: Mapped[str] = mapped_column(String(40))
    seed_hex: Mapped[str] = mapped_column(String(64))
    seed_sha256: Mapped[str] = mapped_column(String(64))
    # The next turn to resolve (1-based), 0 in the lobby; the guard of "resolved once" (R13, R14).
    current_turn: Mapped[int] = mapped_column(Integer, default=0)
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True, index=True)
    paused_remaining: Mapped[int | None] = mapped_column(Integer, nullable=True)
    ready_check_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True, index=True)
    """From when the deadline scheduler looks whether the open turn's orders are all ready, or None:
    set by each write that may leave a turn nobody waits for (a ready order, a start, a seat handed
    to the bots, a turn resolved), cleared once the scheduler has looked. A poll reads only the
    games due (this index and ``deadline_at``'s), however many are idle (revision 0014)."""
    record_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    champion: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    organiser_link_hash: Mapped[str] = mapped_column(String(64), unique=True)
    rematch_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id"), nullable=True, index=True
    )
    """The game started as this one's rematch (a game over has at most one), or None."""
    seat_bots_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    """Per resolved turn, the teams whose order a bot gave because nobody played their seat then:
    ``{"3": {"t5": "unclaimed", "t6": "released"}}`` (its seat not taken yet, or handed to the
    bots). Written as each turn is resolved (an empty object for a turn with none), so that a match
    report says what was true at that turn; a turn resolved before revision 0006 has no entry."""


class SeatRow(Base):
    """One player's place in a game, claimed with an invite link."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "player_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[str] = mapped_column(String(16))  # "p1", "p2", ...
    name: Mapped[str | None] = mapped_column(String(160), nullable=True)  # store.games.NAME_POINTS
    invite_hash: Mapped[str] = mapped_column(String(64), unique=True)
    joined_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    invite_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    """When the invite was used to join; an invite opens a seat once."""
    invite_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    """Until when the invite can be used (None: no limit, for invites issued before there was one)."""


class TeamRow(Base):
    """A team of a started game, with its manager's autopilot choice (R13)."""

    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("game_id", "team_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(64))
    group: Mapped[str] = mapped_column(String(4))
    player_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    autopilot: Mapped[str | None] = mapped_column(String(40), nullable=True)


class OrderRow(Base):
    """A team's current order for a turn: saved or ready, secret until the turn is resolved (R13)."""

    __tablename__ = "orders"
    __table_args__ = (UniqueConstraint("game_id", "turn", "team_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    team_id: Mapped[str] = mapped_column(String(64))
    force: Mapped[int] = mapped_column(Integer)
    flair: Mapped[int] = mapped_column(Integer)
    ready: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class OrderLogRow(Base):
    """Append-only log of every order submission; private to the server until the turn is over."""

    __tablename__ = "order_log"
    __table_args__ = (Index("ix_order_log_game_turn", "game_id", "turn"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    team_id: Mapped[str] = mapped_column(String(64))
    player_id: Mapped[str] = mapped_column(String(16))
    force: Mapped[int] = mapped_column(Integer)
    flair: Mapped[int] = mapped_column(Integer)
    ready: Mapped[bool] = mapped_column(Boolean)
    via: Mapped[str] = mapped_column(String(8))  # "web" or "api"
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    # Discarded with its seat's saved orders (a seat handed to the bots, or signed out for a new
    # link): never played, so never public, not even once its turn is resolved (R13).
    discarded: Mapped[bool] = mapped_column(Boolean, server_default=false())


class TurnRow(Base):
    """One resolved turn: when, why and by whom (the record holds what happened)."""

    __tablename__ = "turns"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))  # "all-ready", "deadline", "organiser"
    resolved_at: Mapped[datetime] = mapped_column(UTCDateTime())


class EventRow(Base):
    """Append-only log of what the organiser and the clock did (start, pause, extend, resolve, end)."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    actor: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))
    detail: Mapped[str] = mapped_column(String(200), default="")


class ApiPrincipal(Base):
    """A credential: a browser session (cookie) or a bot (bearer token), stored hashed."""

    __tablename__ = "principals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[PrincipalKind] = mapped_column(_enum(PrincipalKind, "principal_kind"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(40), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # A session made by a join from a browser with no session yet: the SHA-256 of the CSRF token
    # its forms carried, which its other tabs send too (sevens.store.auth.seat_of_new_browser).
    pre_session_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # Set when the only game a bot token opened was deleted: the token then opens nothing, and is
    # kept (its label, a player's name in that game, emptied) only to tell whoever sends it why, until the
    # tidy removes it (sevens.store.auth.deleted_with_its_game).
    game_deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class Grant(Base):
    """What a credential may do in one game: organise it, or play one seat."""

    __tablename__ = "grants"
    __table_args__ = (UniqueConstraint("principal_id", "game_id", "role", "player_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    principal_id: Mapped[int] = mapped_column(ForeignKey("principals.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    role: Mapped[Role] = mapped_column(_enum(Role, "role"))
    player_id: Mapped[str] = mapped_column(String(16), default="")  # "" for the organiser


class FailedAttempt(Base):
    """A wrong secret tried, or a game created: by whom (an HMAC-SHA-256 of the client's address,
    with a prefix per limit, under the server's :class:`ServerKey`) and when (seconds since the
    epoch). Every worker of the server counts these, so a rate limit holds across them."""

    __tablename__ = "failed_attempts"
    __table_args__ = (Index("ix_failed_attempts_client_at", "client_hash", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    client_hash: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float, index=True)


class ServerKey(Base):
    """A secret key the server made for itself, by what it is for (``rate-limits``: the key the
    rate-limit rows hash addresses under). Kept in the database because every worker and every
    server on it must use the same one; removing it makes the next user make a new one."""

    __tablename__ = "server_keys"

    purpose: Mapped[str] = mapped_column(String(32), primary_key=True)
    key_hex: Mapped[str] = mapped_column(String(64))
    made_at: Mapped[float] = mapped_column(Float)
