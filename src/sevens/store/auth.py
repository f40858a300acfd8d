"""Credentials and what they grant: browser sessions, bot tokens, invites and organiser links."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, bindparam, delete, or_, select
from sqlalchemy.orm import Session

from sevens.store.errors import Conflict, GameGone, Gone
from sevens.store.models import ApiPrincipal, GameRow, Grant, PrincipalKind, Role, SeatRow, Visibility
from sevens.store.secrets import hash_token, new_token
from sevens.tournament.names import shortened

__all__ = [
    "Access",
    "add_grant",
    "create_principal",
    "find_principal",
    "grants_of",
    "access_and_seats_held",
    "access_to",
    "BotSeat",
    "bot_seat",
    "delete_principal",
    "deleted_with_its_game",
    "holds_invited_seat",
    "LockedToken",
    "lock_token",
    "other_seat_held",
    "revoke_organisers",
    "InviteState",
    "invite_state",
    "seat_by_invite",
    "seat_of_new_browser",
    "seats_held",
    "game_by_organiser_link",
]


def create_principal(
    session: Session,
    *,
    kind: PrincipalKind,
    now: datetime,
    label: str = "",
    ttl: timedelta | None = None,
    pre_session: str = "",
) -> tuple[ApiPrincipal, str]:
    """A new credential; returns the row and the token, which is shown once and stored hashed.
    ``pre_session``: the CSRF token of the browser a join makes this session for (kept hashed,
    :func:`seat_of_new_browser`)."""
    token = new_token()
    principal = ApiPrincipal(
        kind=kind,
        token_hash=hash_token(token),
        label=shortened(label, 40),  # the column's width; a bot's name may hold 160 code points
        created_at=now,
        expires_at=None if ttl is None else now + ttl,
        pre_session_hash=hash_token(pre_session) if pre_session else None,
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
    if principal is None or principal.kind != kind or principal.game_deleted_at is not None:
        return None
    if principal.expires_at is not None and principal.expires_at <= now:
        return None
    return principal


PRE_SESSION_WINDOW = timedelta(minutes=10)
"""How long after a join from a browser with no session a second join with the same CSRF cookie
and no session counts as the same browser's: its other tabs' joins, sent before the first answer
brought the session cookie, come within seconds."""


def seat_of_new_browser(session: Session, *, pre_session: str, game_id: int, now: datetime) -> str | None:
    """The seat of game ``game_id`` that a browser with no session, whose forms carry the CSRF
    token ``pre_session``, took in another tab a moment ago (a session made by that join, in the
    last :data:`PRE_SESSION_WINDOW`, plays it), or None.

    Two tabs of a new browser share its CSRF cookie, and a form is refused unless its token is the
    cookie's; nothing else ties them together before either has a session. This only ever refuses
    a join, never opens anything: a cookie planted by another site could at worst keep its browser
    from joining a second seat of one game for those minutes.
    """
    if not pre_session:
        return None
    found = session.scalars(
        select(Grant.player_id)
        .join(ApiPrincipal, ApiPrincipal.id == Grant.principal_id)
        .where(
            ApiPrincipal.pre_session_hash == hash_token(pre_session),
            ApiPrincipal.kind == PrincipalKind.SESSION,
            ApiPrincipal.created_at > now - PRE_SESSION_WINDOW,
            Grant.game_id == game_id,
            Grant.role == Role.PLAYER,
        )
        .order_by(Grant.id)
    ).first()
    return found


def other_seat_held(session: Session, *, principal_id: int | None, seat: SeatRow) -> str | None:
    """The player id of another seat of ``seat``'s game that the credential plays already (one
    credential plays one seat of a game: :func:`check_one_seat`), or None."""
    if principal_id is None:
        return None
    held = [p for p in access_to(session, principal_id=principal_id, game_id=seat.game_id).player_ids if p != seat.player_id]
    return held[0] if held else None


def check_one_seat(session: Session, *, principal_id: int | None, seat: SeatRow, holder: str) -> None:
    """Refuse a second seat in one game to one credential: its pages and token show one seat, so
    the second seat's teams would wait for orders nobody could give.

    Raises:
        Conflict: the credential already plays another seat of the game (``holder``: "this
            browser" or "this token", for the message).
    """
    held = other_seat_held(session, principal_id=principal_id, seat=seat)
    if held is not None:
        raise Conflict(
            f"{holder} already plays seat {held} in this game, and one plays one seat: open this "
            "invite in another browser (a private window will do), or join with another token"
        )


def revoke_seat(session: Session, *, game_id: int, player_id: str) -> int:
    """Take a seat from every browser and bot token that plays it; returns how many lose it."""
    result = session.execute(
        delete(Grant).where(Grant.game_id == game_id, Grant.role == Role.PLAYER, Grant.player_id == player_id)
    )
    return int(getattr(result, "rowcount", 0) or 0)


def revoke_organisers(session: Session, *, game_id: int, keep: int | None) -> int:
    """Take organising a game from every browser and bot token but ``keep``'s; returns how many lose it.

    A grant does not record whether it came from the organiser link or from creating the game, so
    a new link takes it from all of them: whoever should still organise opens the new link.
    """
    query = delete(Grant).where(Grant.game_id == game_id, Grant.role == Role.ORGANISER)
    if keep is not None:
        query = query.where(Grant.principal_id != keep)
    result = session.execute(query)
    return int(getattr(result, "rowcount", 0) or 0)


def seats_held(session: Session, *, game_id: int) -> set[str]:
    """The seats of a game that some browser or bot token plays now."""
    query = select(Grant.player_id).where(Grant.game_id == game_id, Grant.role == Role.PLAYER).distinct()
    return set(session.scalars(query))


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
    """The access a credential has to one game (none for an anonymous visitor).

    Raises:
        GameGone: the game was deleted since the caller found it (read in the same statement as
            the grants, so a deletion committing in between is never taken for "no access").
    """
    if principal_id is None:
        return Access()
    return _access_of(_grants_with_game(session, game_id=game_id, theirs=Grant.principal_id == principal_id))


def access_and_seats_held(session: Session, *, principal_id: int | None, game_id: int) -> tuple[Access, frozenset[str]]:
    """:func:`access_to` and :func:`seats_held` in one statement (the organiser's page needs both).

    Raises:
        GameGone: as :func:`access_to`.
    """
    theirs = Grant.role == Role.PLAYER
    if principal_id is not None:
        theirs = or_(theirs, Grant.principal_id == principal_id)
    rows = _grants_with_game(session, game_id=game_id, theirs=theirs)
    access = Access() if principal_id is None else _access_of(r for r in rows if r[0] == principal_id)
    return access, frozenset(player for _, role, player in rows if role == Role.PLAYER)


def _grants_with_game(session: Session, *, game_id: int, theirs: ColumnElement[bool]) -> list[tuple[int, Role, str]]:
    """The game's grants that match ``theirs``, as (principal, role, seat), read from the game's
    row outward: a game deleted after the request found it (its grants go in the same commit)
    then reads as gone rather than as a game this credential may do nothing in.

    Raises:
        GameGone: the game's row is gone.
    """
    rows = session.execute(
        select(GameRow.id, Grant.principal_id, Grant.role, Grant.player_id)
        .select_from(GameRow)
        .outerjoin(Grant, and_(Grant.game_id == GameRow.id, theirs))
        .where(GameRow.id == game_id)
        .order_by(Grant.id)
    ).all()
    if not rows:
        raise GameGone()
    return [(principal, role, player) for _, principal, role, player in rows if role is not None]


def _access_of(rows: Iterable[tuple[int, Role, str]]) -> Access:
    organiser = False
    seats: list[str] = []
    for _, role, player_id in rows:
        if role == Role.ORGANISER:
            organiser = True
        elif player_id not in seats:
            seats.append(player_id)
    return Access(organiser=organiser, player_ids=tuple(seats))


# Built once: the statement and its cache key are reused by every order submission. The outer
# joins keep the credential's row when the game or the grants are missing.
_BOT_SEAT = (
    select(
        ApiPrincipal.id,
        ApiPrincipal.kind,
        ApiPrincipal.expires_at,
        ApiPrincipal.game_deleted_at,
        GameRow.id,
        GameRow.visibility,
        Grant.role,
        Grant.player_id,
    )
    .select_from(ApiPrincipal)
    .outerjoin(GameRow, GameRow.public_id == bindparam("public_id"))
    .outerjoin(Grant, and_(Grant.principal_id == ApiPrincipal.id, Grant.game_id == GameRow.id))
    .where(ApiPrincipal.token_hash == bindparam("token_hash"))
    .order_by(Grant.id)
)


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A live bot credential and what it may do in the game it names (``game_id`` None: no such game)."""

    principal_id: int
    game_id: int | None = None
    public_id: str = ""
    public: bool = False
    access: Access = Access()


def bot_seat(session: Session, *, token: str, public_id: str, now: datetime) -> BotSeat | None:
    """The bot credential holding ``token`` and its access to game ``public_id``, in one query.

    The same answers as :func:`find_principal`, then the game by its public id, then
    :func:`access_to`; None for an unknown, non-bot or expired token.
    """
    if not token or len(token) > 200:
        return None
    # Games' public ids are at most 32 characters; no game has an empty one.
    params = {"token_hash": hash_token(token), "public_id": public_id if len(public_id) <= 32 else ""}
    # On the session's connection: the ORM's statement handling costs more than this query.
    rows = session.connection().execute(_BOT_SEAT, params).all()
    if not rows:
        return None
    principal_id, kind, expires_at, game_deleted_at, game_id, visibility, _, _ = rows[0]
    if kind != PrincipalKind.BOT or (expires_at is not None and expires_at <= now) or game_deleted_at is not None:
        return None
    if game_id is None:
        return BotSeat(principal_id=principal_id)
    organiser = False
    seats: list[str] = []
    for *_, role, player_id in rows:
        if role == Role.ORGANISER:
            organiser = True
        elif role is not None and player_id not in seats:
            seats.append(player_id)
    return BotSeat(
        principal_id=principal_id,
        game_id=game_id,
        public_id=public_id,
        public=visibility == Visibility.PUBLIC,
        access=Access(organiser=organiser, player_ids=tuple(seats)),
    )


class InviteState(enum.StrEnum):
    """Whether an invite can still open its seat."""

    OPEN = "open"
    USED = "used"
    EXPIRED = "expired"


def invite_state(seat: SeatRow, *, now: datetime) -> InviteState:
    """An invite opens its seat once, before it expires.

    >>> from datetime import UTC, datetime, timedelta
    >>> now = datetime(2026, 5, 1, tzinfo=UTC)
    >>> seat = SeatRow(invite_expires_at=now + timedelta(days=1))
    >>> invite_state(seat, now=now).value
    'open'
    >>> seat.invite_used_at = now
    >>> invite_state(seat, now=now).value
    'used'
    """
    if seat.invite_used_at is not None:
        return InviteState.USED
    if seat.invite_expires_at is not None and seat.invite_expires_at <= now:
        return InviteState.EXPIRED
    return InviteState.OPEN


USED_INVITE = "this invite link has already been used to join; ask the organiser for a new one"
REPLACED_INVITE = "this invite link was replaced by a new one while you joined; ask the organiser for the new link"
EXPIRED_INVITE = "this invite link has expired; ask the organiser for a new one"


def holds_invited_seat(session: Session, *, seat: SeatRow, principal_id: int | None, now: datetime) -> bool:
    """Whether the caller already plays the seat an invite opens (it is then sent on to its game);
    False while the invite is open for joining.

    Raises:
        Gone: the invite was used (by another browser or bot) or has expired.
    """
    state = invite_state(seat, now=now)
    if state is InviteState.OPEN:
        return False
    if principal_id is not None and seat.player_id in access_to(session, principal_id=principal_id, game_id=seat.game_id).player_ids:
        return True
    raise Gone(USED_INVITE if state is InviteState.USED else EXPIRED_INVITE)


def deleted_with_its_game(session: Session, *, token: str) -> datetime | None:
    """When the only game the bot token ``token`` opened was deleted, taking the token with it, or
    None (the token is live, unknown, or went otherwise). Kept for the tidy's
    ``unused_bot_days`` after the deletion so that a bot still calling with it is told why it
    opens nothing; the marker holds no name and no game."""
    if not token or len(token) > 200:
        return None
    return session.scalar(
        select(ApiPrincipal.game_deleted_at).where(
            ApiPrincipal.token_hash == hash_token(token), ApiPrincipal.kind == PrincipalKind.BOT
        )
    )


@dataclass(frozen=True)
class LockedToken:
    """A bot token's row as :func:`lock_token` found it."""

    found: bool
    """False: the token is gone (revoked, or removed by the tidy)."""
    game_deleted_at: datetime | None
    """When *Delete game* made it a marker (its only game deleted), or None."""

    @property
    def live(self) -> bool:
        return self.found and self.game_deleted_at is None


def lock_token(session: Session, *, principal_id: int) -> LockedToken:
    """Lock a bot token's row before a grant is added to it, and say whether it is still live,
    and if not why, in one read: a marker once *Delete game* deleted its only game
    (sevens.store.retention.delete_game). Taken after the game's lock, as the delete takes them
    (games before principals): a join and a delete crossing then see each other, where the token
    was otherwise marked dead holding the new seat."""
    deleted = session.execute(
        select(ApiPrincipal.game_deleted_at).where(ApiPrincipal.id == principal_id).with_for_update()
    ).one_or_none()
    return LockedToken(found=deleted is not None, game_deleted_at=None if deleted is None else deleted[0])


def delete_principal(session: Session, *, principal_id: int) -> None:
    """Forget a credential and its grants: its cookie or token opens nothing any more."""
    session.execute(delete(Grant).where(Grant.principal_id == principal_id))
    session.execute(delete(ApiPrincipal).where(ApiPrincipal.id == principal_id))


def seat_by_invite(session: Session, *, token: str) -> SeatRow | None:
    """The seat an invite link opens (used or not, expired or not: see :func:`invite_state`), or None."""
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
