"""Credentials and what they grant: browser sessions, bot tokens, invites and organiser links."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from sevens.store.models import ApiPrincipal, GameRow, Grant, PrincipalKind, Role, SeatRow
from sevens.store.secrets import hash_token, new_token

__all__ = [
    "Access",
    "add_grant",
    "create_principal",
    "find_principal",
    "grants_of",
    "access_to",
    "seat_by_invite",
    "game_by_organiser_link",
]


def create_principal(
    session: Session, *, kind: PrincipalKind, now: datetime, label: str = "", ttl: timedelta | None = None
) -> tuple[ApiPrincipal, str]:
    """A new credential; returns the row and the token, which is shown once and stored hashed."""
    token = new_token()
    principal = ApiPrincipal(
        kind=kind,
        token_hash=hash_token(token),
        label=label[:40],
        created_at=now,
        expires_at=None if ttl is None else now + ttl,
    )
    session.add(principal)
    session.flush()
    return principal, token


def find_principal(
    session: Session, *, token: str, kind: PrincipalKind, now: datetime
) -> ApiPrincipal | None:
    """The live credential holding ``token``, or None (unknown, wrong kind or expired)."""
    if not token or len(token) > 200:
        return None
    principal = session.scalar(select(ApiPrincipal).where(ApiPrincipal.token_hash == hash_token(token)))
    if principal is None or principal.kind != kind:
        return None
    if principal.expires_at is not None and principal.expires_at <= now:
        return None
    return principal


def add_grant(session: Session, *, principal_id: int, game_id: int, role: Role, player_id: str = "") -> None:
    """Let a credential organise a game or play one seat (idempotent)."""
    existing = session.scalar(
        select(Grant).where(
            Grant.principal_id == principal_id,
            Grant.game_id == game_id,
            Grant.role == role,
            Grant.player_id == player_id,
        )
    )
    if existing is None:
        session.add(Grant(principal_id=principal_id, game_id=game_id, role=role, player_id=player_id))
        session.flush()


def grants_of(session: Session, *, principal_id: int) -> list[Grant]:
    """Every grant of a credential."""
    return list(session.scalars(select(Grant).where(Grant.principal_id == principal_id).order_by(Grant.id)))


@dataclass(frozen=True, slots=True)
class Access:
    """What one credential may do in one game: organise it, and which seats it plays."""

    organiser: bool = False
    player_ids: tuple[str, ...] = ()

    @property
    def player_id(self) -> str | None:
        """The seat played (a credential holds at most one seat per game in practice)."""
        return self.player_ids[0] if self.player_ids else None


def access_to(session: Session, *, principal_id: int | None, game_id: int) -> Access:
    """The access a credential has to one game (none for an anonymous visitor)."""
    if principal_id is None:
        return Access()
    rows = session.scalars(
        select(Grant).where(Grant.principal_id == principal_id, Grant.game_id == game_id).order_by(Grant.id)
    )
    organiser = False
    seats: list[str] = []
    for grant in rows:
        if grant.role == Role.ORGANISER:
            organiser = True
        elif grant.player_id not in seats:
            seats.append(grant.player_id)
    return Access(organiser=organiser, player_ids=tuple(seats))


def seat_by_invite(session: Session, *, token: str) -> SeatRow | None:
    """The seat an invite link opens, or None."""
    if not token or len(token) > 200:
        return None
    return session.scalar(select(SeatRow).where(SeatRow.invite_hash == hash_token(token)))


def game_by_organiser_link(session: Session, *, token: str) -> GameRow | None:
    """The game an organiser link opens, or None."""
    if not token or len(token) > 200:
        return None
    return session.scalar(select(GameRow).where(GameRow.organiser_link_hash == hash_token(token)))


def delete_expired_sessions(session: Session, *, now: datetime) -> int:
    """Remove expired credentials; returns how many."""
    result = session.execute(
        delete(ApiPrincipal).where(ApiPrincipal.expires_at.is_not(None), ApiPrincipal.expires_at <= now)
    )
    return int(getattr(result, "rowcount", 0) or 0)
