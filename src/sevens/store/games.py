"""Hosted games: create, join, start, orders, resolution, pause, extend, end.

Every function is keyword-only and receives the session; the caller commits. Writes that race
(two order submissions, the scheduler and the organiser resolving together) first lock the
game's row (:func:`lock_game`), so a turn is resolved once and only once: the second writer waits,
then finds the turn number moved on and does nothing.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from functools import lru_cache
from typing import cast

from sqlalchemy import Table, and_, bindparam, case, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from sevens.bots import STRATEGIES, get_strategy
from sevens.bots.pacing import WEIGHTED, split_weighted_name
from sevens.bots.strategies import meant_bot
from sevens.rules import Order, OrderError, seed_commitment
from sevens.store.auth import (
    REPLACED_INVITE,
    USED_INVITE,
    access_to,
    add_grant,
    revoke_organisers,
    revoke_seat,
    seats_held,
)
from sevens.store.errors import (
    Conflict,
    DamagedRecord,
    GameGone,
    Gone,
    Invalid,
    NotFound,
    Refused,
    SeatSignedOut,
    UnplayableOrder,
)
from sevens.store.models import (
    ApiPrincipal,
    EventRow,
    GameRow,
    GameStatus,
    Grant,
    OrderLogRow,
    OrderRow,
    Role,
    SeatRow,
    TeamRow,
    TurnRow,
    Visibility,
)
from sevens.store.secrets import hash_token, new_public_id, new_token
from sevens.tournament.formats import Format, check_format
from sevens.tournament.game import Game, OrderRefused, TurnOrder, autopilot_orders, check_order, new_game
from sevens.tournament.game import resolve_turn as resolve_game_turn
from sevens.tournament.names import (
    POINTS_PER_CHARACTER,
    NameRefused,
    clean_name,
    cut_name,
    cut_shown,
    kept_form,
    name_clash,
    shortened,
)
from sevens.tournament.quoting import quoted
from sevens.tournament.record import dumps, from_record, to_record
from sevens.tournament.setup import DEFAULT_TEAM_NAMES, Player, PlayerId, TeamId, draw_game_from_seed

__all__ = [
    "no_such_game",
    "past_deadline",
    "INVITE_LIFETIME",
    "MAX_DEADLINE_AHEAD",
    "MAX_TURN_SECONDS",
    "check_deadline_ahead",
    "MIN_TURN_SECONDS",
    "CreatedGame",
    "NewGame",
    "OrderState",
    "LEFT_READY_AFTER",
    "ready_check_done",
    "ready_checks_due",
    "handed_to_bots",
    "advance",
    "champion_names",
    "check_bot_name",
    "count_games",
    "create_game",
    "due_turns",
    "public_ids",
    "end_game",
    "events_of",
    "count_events",
    "count_seats_taken",
    "log_seats_left",
    "extend_deadline",
    "game_by_id",
    "game_by_public_id",
    "join_seat",
    "list_public_games",
    "load_game",
    "lock_game",
    "new_organiser_link",
    "note_unresolved",
    "order_states",
    "orders_of_player",
    "own_teams_now",
    "pause_game",
    "record_of",
    "reissue_invite",
    "release_seat",
    "unresolved_now",
    "UNRESOLVED",
    "Rematch",
    "previous_game",
    "rematch_of",
    "rematch_spec",
    "start_rematch",
    "seat_name",
    "resolve_turn",
    "resolved_together",
    "resume_game",
    "revealed_seed",
    "save_order",
    "seat_bots",
    "seats_of",
    "set_deadline",
    "set_deadline_at",
    "default_for",
    "api_actor",
    "house_bot",
    "house_bot_of",
    "taken_seats",
    "house_teams",
    "set_autopilot",
    "set_house_bot",
    "start_game",
    "strategy_names",
    "teams_of",
]

MIN_TURN_SECONDS = 60
MAX_TURN_SECONDS = 30 * 24 * 3600
MAX_DEADLINE_AHEAD = 2**31 - 1
"""The furthest from now a deadline may be, in seconds (68 years): a paused game keeps its time
left in a 32-bit column. One rule for every way a deadline moves (Extend, Set the deadline in
hours or at a clock time, an import), where Extend pressed again and again once went past it."""
NAME_LENGTH = 40
"""The longest display name, in characters as a reader counts them (:func:`sevens.tournament.names.graphemes`)."""
NAME_POINTS = POINTS_PER_CHARACTER * NAME_LENGTH
"""The most code points a display name may hold (the ``seats.name`` column's width)."""
INVITE_LIFETIME = timedelta(days=14)
"""How long a new invite link can be used, unless the server says otherwise."""


def strategy_names() -> tuple[str, ...]:
    """The bots a game may use as default or autopilot (R13); those of
    :data:`~sevens.bots.pacing.WEIGHTED` may also take a knockout weight (:func:`check_bot_name`)."""
    return tuple(sorted(STRATEGIES))


def check_bot_name(name: str, what: str = "bot", *, field: str = "strategy") -> str:
    """``name`` as a hosted game keeps it: a built-in bot, or a weighted one such as
    ``"field-reader@1"`` (spaces dropped). A game never loads a bot by module path or entry point:
    a name typed into a form must not make the server import code.

    Raises:
        Invalid: anything else, saying what may be written; its ``field`` is ``field`` for a name
            that is no bot, ``field + "_weight"`` for a knockout weight that is refused.

    >>> check_bot_name("even-flair@ 1.5")
    'even-flair@1.5'
    >>> check_bot_name("even@\u0661.\u0665")
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: R13: 'even@١.٥': the knockout weight after '@' must be a number such as 0.5, 1.5 or 2 in the digits 0 to 9, got '١.٥'
    >>> check_bot_name("os:system", "autopilot")
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: R13: unknown autopilot 'os:system'; choose one of equilibrium, even, even-flair, even-force, field-reader, group-blitz, knockout-saver, odds-aware, random, table-reader, or one of even, even-flair, even-force, odds-aware, equilibrium, field-reader with a knockout weight ('field-reader@1', 'equilibrium@0.4')
    >>> check_bot_name("front-loading", "autopilot")
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: R13: unknown autopilot 'front-loading' (did you mean 'group-blitz'?); choose one of ...
    """
    if name in STRATEGIES:
        return name
    if "@" in name and name.partition("@")[0] in STRATEGIES:
        try:
            if not name.isascii():
                # Typed in other scripts' digits (which the bots read): refused, as every number a
                # form takes, rather than kept as typed.
                raise ValueError(
                    f"{name!r}: the knockout weight after '@' must be a number such as 0.5, 1.5 or 2 in the "
                    f"digits 0 to 9, got {name.partition('@')[2]!r}"
                )
            named = split_weighted_name(name.strip())[2]
        except ValueError as exc:
            raise Invalid(f"R13: {exc}", field=f"{field}_weight") from None
        if len(named) > NAME_LENGTH:
            raise Invalid(
                f"R13: {named[:NAME_LENGTH]!r}...: a bot's name is at most {NAME_LENGTH} characters",
                field=f"{field}_weight",
            )
        return named
    meant = meant_bot(name[:60], STRATEGIES)
    near = f" (did you mean {meant!r}?)" if meant else ""
    raise Invalid(
        f"R13: unknown {what} {quoted(name)}{near}; choose one of {', '.join(strategy_names())}, "
        f"or one of {', '.join(WEIGHTED)} with a knockout weight ('field-reader@1', 'equilibrium@0.4')",
        field=field,
    )


@dataclass(frozen=True, slots=True)
class NewGame:
    """What the organiser asks for when creating a game."""

    name: str
    players: int
    teams: int
    teams_per_player: int
    turn_seconds: int | None
    default_bot: str
    visibility: Visibility
    default_autopilot: str = ""
    """The autopilot of a manager who has taken their seat and chosen none (R13); empty: the
    same as ``default_bot``, which plays the teams nobody plays (as before the two were apart)."""


@dataclass(frozen=True, slots=True)
class CreatedGame:
    """A new game, its organiser link and one invite link per seat (each shown once)."""

    game: GameRow
    organiser_token: str
    invites: tuple[tuple[str, str], ...]  # (player id, invite token)


class OrderState(StrEnum):
    """Where a team's order stands in the open turn (what the organiser may see, R13)."""

    NONE = "none"
    SAVED = "saved"
    READY = "ready"
    UNCLAIMED = "unclaimed"
    """The team's seat has not been claimed: nobody can order, so its autopilot plays and the
    turn does not wait for it (until someone claims the seat)."""
    RELEASED = "released"
    """The team's seat was handed to the bots (:func:`release_seat`): as unclaimed, its bot plays
    and the turn does not wait for it, until someone takes the seat over by a new link."""


def handed_to_bots(seat: SeatRow) -> bool:
    """Whether ``seat`` was handed to the bots (:func:`release_seat`) after the start and nobody
    has taken it since: it keeps its name (the record's) but nobody has joined it. A seat nobody
    ever took has no name of its own, and one handed over in the lobby loses its name."""
    return seat.name is not None and seat.joined_at is None


def _clean_name(value: str, what: str, limit: int, field: str = "name") -> str:
    try:
        return clean_name(value, what=what, limit=limit)
    except NameRefused as exc:
        raise Invalid(str(exc), field=field) from None


def seat_name(seat: SeatRow) -> str:
    """The seat's display name, or the one it plays under in the record while nobody has taken it."""
    return seat.name or f"Player {seat.player_id[1:]}"


def _check_new_game(spec: NewGame) -> Format:
    if not 4 <= spec.players <= 16:
        raise Invalid(f"R12: a game has 4 to 16 players; got {spec.players}", field="players")
    if spec.teams not in (8, 16):
        raise Invalid(f"R6: a game has 8 or 16 teams; got {spec.teams}", field="teams")
    fmt = Format(teams=spec.teams, players=spec.players, teams_per_player=spec.teams_per_player)
    try:
        check_format(fmt)
    except ValueError as exc:
        raise Invalid(str(exc), field="teams_per_player") from None
    if spec.turn_seconds is not None and not MIN_TURN_SECONDS <= spec.turn_seconds <= MAX_TURN_SECONDS:
        raise Invalid(
            f"a turn's deadline must be between {MIN_TURN_SECONDS // 60} minute and "
            f"{MAX_TURN_SECONDS // 86400} days; got {spec.turn_seconds} seconds "
            "(or choose 'resolve when all are ready')",
            field="turn_seconds",
        )
    return fmt


MAX_GAME_NAME = 80
"""The longest name a game may have, in characters as a reader counts them."""
GAME_NAME_POINTS = POINTS_PER_CHARACTER * MAX_GAME_NAME
"""The most code points a game's name may hold (the ``games.name`` column's width)."""


def create_game(
    session: Session, *, spec: NewGame, now: datetime, invite_lifetime: timedelta = INVITE_LIFETIME
) -> CreatedGame:
    """Create a game in the lobby with a fresh secret seed (R14) and one invite per seat.

    Each invite opens its seat once, until ``now + invite_lifetime``.

    Raises:
        Invalid: a name, format (R6, R12), deadline or bot that is not allowed.
    """
    name = _clean_name(spec.name, "the game's name", MAX_GAME_NAME)
    _check_new_game(spec)
    default_bot = check_bot_name(spec.default_bot, "default bot", field="default_bot")
    default_autopilot = (
        check_bot_name(spec.default_autopilot, "default autopilot", field="default_autopilot")
        if spec.default_autopilot
        else default_bot
    )
    seed = secrets.token_hex(32)
    organiser_token = new_token()
    game = GameRow(
        public_id=new_public_id(),
        name=name,
        status=GameStatus.LOBBY,
        visibility=spec.visibility,
        players=spec.players,
        teams=spec.teams,
        teams_per_player=spec.teams_per_player,
        turn_seconds=spec.turn_seconds,
        default_bot=default_bot,
        default_autopilot=default_autopilot,
        seed_hex=seed,
        seed_sha256=seed_commitment(seed),
        current_turn=0,
        created_at=now,
        organiser_link_hash=hash_token(organiser_token),
    )
    session.add(game)
    session.flush()
    invites: list[tuple[str, str]] = []
    for number in range(1, spec.players + 1):
        token = new_token()
        player_id = f"p{number}"
        session.add(
            SeatRow(
                game_id=game.id,
                player_id=player_id,
                invite_hash=hash_token(token),
                invite_expires_at=now + invite_lifetime,
            )
        )
        invites.append((player_id, token))
    _event(
        session,
        game,
        now=now,
        actor="organiser",
        kind="created",
        detail=f"seed commitment {game.seed_sha256}",
    )
    session.flush()
    return CreatedGame(game=game, organiser_token=organiser_token, invites=tuple(invites))


ALREADY_REMATCHED = (
    "this game already has its rematch (a game has one): its pages link to it for everyone who may "
    "see it; if you do not organise it, ask whoever started it for its organiser link"
)


REMATCH = " (rematch)"
"""What a rematch adds to its game's name, so that the two games can be told apart in a list."""


def rematch_spec(game: GameRow) -> NewGame:
    """The settings of a game over, for a new game between the same seats: the same players and
    teams (R12), deadline, default bot and default autopilot (R13) and visibility, and the name marked as a rematch
    (once: a rematch of a rematch keeps the name). The new game draws its own seed (R14) and
    groups; the organiser's choices of bots for the teams nobody plays are made again after its
    start, since the draw gives those teams to other seats.

    >>> from sevens.store.models import GameStatus, Visibility
    >>> old = GameRow(name="Friday sevens", status=GameStatus.FINISHED, players=16, teams=16, teams_per_player=1,
    ...               turn_seconds=None, default_bot="table-reader", default_autopilot="field-reader@1",
    ...               visibility=Visibility.PUBLIC)
    >>> spec = rematch_spec(old)
    >>> spec.name, spec.players, spec.teams, spec.teams_per_player, spec.default_bot, spec.default_autopilot
    ('Friday sevens (rematch)', 16, 16, 1, 'table-reader', 'field-reader@1')
    >>> old.name = spec.name
    >>> rematch_spec(old).name
    'Friday sevens (rematch)'

    Raises:
        Conflict: the game is still in its lobby or being played, or already has its rematch.
    """
    if game.status not in (GameStatus.FINISHED, GameStatus.ENDED):
        raise Conflict(
            f"the game is {game.status.said}: a rematch is started once it is over (finished, or ended "
            "early by its organiser)"
        )
    if game.rematch_id is not None:
        raise Conflict(ALREADY_REMATCHED)
    # Cut between characters as shown, so that a flag is never cut in half, counted as the name's
    # limit counts them (a Thai name's zero width spaces are not), never just after such a space.
    start = cut_shown(game.name, MAX_GAME_NAME - len(REMATCH), GAME_NAME_POINTS - len(REMATCH))
    name = game.name if game.name.endswith(REMATCH) else start.rstrip() + REMATCH
    return NewGame(
        name=name,
        players=game.players,
        teams=game.teams,
        teams_per_player=game.teams_per_player,
        turn_seconds=game.turn_seconds,
        default_bot=game.default_bot,
        visibility=game.visibility,
        default_autopilot=game.default_autopilot,
    )


@dataclass(frozen=True, slots=True)
class Rematch:
    """A rematch just started: the new game with its links (each shown once), and the seats of it
    that the asking credential took again, with their names."""

    created: CreatedGame
    taken: dict[str, str]


def start_rematch(
    session: Session,
    *,
    game_id: int,
    principal_id: int,
    now: datetime,
    actor: str,
    invite_lifetime: timedelta = INVITE_LIFETIME,
) -> Rematch:
    """Start the rematch of a game over (:func:`rematch_spec`), organised by ``principal_id``; the
    seats that credential played in the old game it plays again in the new one, under the same
    names. The old game remembers its rematch (``rematch_id``) and logs who started it.

    Raises:
        Conflict: the game is not over yet, or already has its rematch (one per game: a second
            click, or a second organiser, must not make another game the old one's players
            cannot find).
    """
    game = lock_game(session, game_id=game_id)  # two rematches at once: the second finds the first
    spec = rematch_spec(game)
    held = access_to(session, principal_id=principal_id, game_id=game.id).player_ids
    created = create_game(session, spec=spec, now=now, invite_lifetime=invite_lifetime)
    new = created.game
    game.rematch_id = new.id
    # Not its id: an organiser of this game may not be one of a private rematch (rematch_of).
    _event(session, game, now=now, actor=actor, kind="rematch", detail="a rematch with the same settings")
    add_grant(session, principal_id=principal_id, game_id=new.id, role=Role.ORGANISER)
    names = {seat.player_id: seat_name(seat) for seat in seats_of(session, game_id=game.id)}
    new_seats = {seat.player_id: seat for seat in seats_of(session, game_id=new.id)}
    taken: dict[str, str] = {}
    for player_id in held:
        try:
            join_seat(session, seat=new_seats[player_id], name=names[player_id], now=now)
        except Invalid:  # the name is another seat's in the new game ("Player 3"): its link is shown
            continue
        add_grant(session, principal_id=principal_id, game_id=new.id, role=Role.PLAYER, player_id=player_id)
        taken[player_id] = names[player_id]
    session.flush()
    return Rematch(created=created, taken=taken)


def rematch_of(session: Session, *, game: GameRow, principal_id: int | None) -> GameRow | None:
    """The rematch of ``game``, if it has one that ``principal_id`` may see: a public game, or one
    it organises or plays. A private rematch is never named to anyone else (its existence is not
    disclosed, as :func:`no_such_game` keeps it)."""
    if game.rematch_id is None:
        return None
    return _visible(session, session.get(GameRow, game.rematch_id), principal_id)


def previous_game(session: Session, *, game: GameRow, principal_id: int | None) -> GameRow | None:
    """The game ``game`` is the rematch of, if ``principal_id`` may see it (as :func:`rematch_of`)."""
    return _visible(session, session.scalar(select(GameRow).where(GameRow.rematch_id == game.id)), principal_id)


def _visible(session: Session, game: GameRow | None, principal_id: int | None) -> GameRow | None:
    if game is None or game.visibility == Visibility.PUBLIC:
        return game
    try:
        access = access_to(session, principal_id=principal_id, game_id=game.id)
    except GameGone:  # deleted since it was read: the page of the game that named it still shows
        return None
    return game if access.organiser or access.player_ids else None


def no_such_game(public_id: str) -> str:
    """What an unknown game and a private game one may not see both answer, word for word, so
    that the answer does not tell whether a private game exists."""
    return (
        f"no game {quoted(public_id)}; check the link (a private game answers only its players and organiser, "
        "and a game is gone for good once deleted, by its organiser or by the server when it has long been over)"
    )


def game_by_public_id(session: Session, *, public_id: str) -> GameRow:
    """The game at ``public_id``.

    Raises:
        NotFound: no such game.
    """
    game = (
        session.scalar(select(GameRow).where(GameRow.public_id == public_id))
        if len(public_id) <= 32
        else None
    )
    if game is None:
        raise NotFound(no_such_game(public_id))
    return game


def game_by_id(session: Session, *, game_id: int) -> GameRow:
    """The game with database id ``game_id``.

    Raises:
        NotFound: no such game.
    """
    game = session.get(GameRow, game_id)
    if game is None:
        raise NotFound("no such game")
    return game


def reissue_invite(
    session: Session,
    *,
    game_id: int,
    player_id: str,
    now: datetime,
    invite_lifetime: timedelta = INVITE_LIFETIME,
    sign_out: bool = False,
    by_holder: bool = False,
    actor: str = "organiser",
) -> str:
    """A new invite secret for a seat, to be used once until ``now + invite_lifetime``; the old
    link stops working. Returns the secret (shown once).

    ``by_holder``: the seat's own player asks, for another device; the seat stays theirs.
    Otherwise (the organiser) a seat somebody plays now is only handed on with ``sign_out``:
    every browser and bot token that plays it loses it, and its orders saved for the open turn
    are discarded, so a new link can never show anyone the orders of a player still in the game
    (R13). A seat taken once but played by nobody now (its token revoked, its browser signed out)
    loses its saved orders with a plain new link for the same reason. That goes into the event log.

    Raises:
        NotFound: no such seat.
        Conflict: the game is over, or the seat is played and ``sign_out`` was not asked for.
    """
    seat = session.scalar(
        select(SeatRow).where(SeatRow.game_id == game_id, SeatRow.player_id == player_id[:16])
    )
    if seat is None:
        raise NotFound(f"no seat {quoted(player_id)} in this game")
    # The game's lock, as an order takes it: a sign-out and an order of the seat never interleave.
    game = lock_game(session, game_id=game_id)
    if game.status in (GameStatus.FINISHED, GameStatus.ENDED):
        raise Conflict(f"the game is {game.status.value}: no seat needs a new link")
    if not (by_holder or sign_out) and seat.player_id in seats_held(session, game_id=game_id):
        raise Conflict(
            f"seat {seat.player_id} is played now: a link from the organiser would let a second person see "
            "its orders; use 'Sign out and new link' (its player is signed out and its saved orders of this "
            "turn are discarded), or let its player make a link for another device on their own page"
        )
    # Refusals first: nothing about the seat changes unless the new link is issued.
    token = new_token()
    seat.invite_hash = hash_token(token)
    seat.invite_used_at = None
    seat.invite_expires_at = now + invite_lifetime
    if by_holder:
        detail = f"{seat.player_id}: its player asked for a link for another device; the old link stops working"
        _event(session, game, now=now, actor=actor, kind="new invite", detail=detail)
    elif sign_out:
        # Found by its grant, which goes now: a bot token would keep the name for its whole life,
        # in every full backup, after the seat was taken again under another one.
        _forget_token_labels(session, seat)
        lost = revoke_seat(session, game_id=game_id, player_id=seat.player_id)
        dropped = _discard_open_orders(session, game, player_id=seat.player_id)
        detail = f"{seat.player_id}: {lost} browser(s) or token(s) lost it; a new link was issued"
        if dropped:
            detail += f"; its {dropped} order(s) saved for turn {game.current_turn} were discarded"
        _event(session, game, now=now, actor=actor, kind="seat signed out", detail=detail)
    else:
        detail = f"{seat.player_id}: the old link stops working"
        # A seat taken once but held by nobody now (its token revoked, its browser signed out):
        # whoever opens the new link need not be its player, so its saved orders go, as on a sign-out.
        dropped = 0 if seat.joined_at is None else _discard_open_orders(session, game, player_id=seat.player_id)
        if dropped:
            detail += f"; its {dropped} order(s) saved for turn {game.current_turn} were discarded"
        _event(session, game, now=now, actor=actor, kind="new invite", detail=detail)
    session.flush()
    return token


def _forget_token_labels(session: Session, seat: SeatRow) -> None:
    """The bot tokens about to lose ``seat`` that joined it under its player's name (their label)
    forget the name: "former player of p3"."""
    holders = select(Grant.principal_id).where(
        Grant.game_id == seat.game_id, Grant.role == Role.PLAYER, Grant.player_id == seat.player_id
    )
    named = session.scalars(
        select(ApiPrincipal).where(ApiPrincipal.id.in_(holders), ApiPrincipal.label == shortened(seat_name(seat), 40))
    )
    for principal in named:
        # One that plays a seat of another game goes by that name, as a token joining one would.
        other = name_elsewhere(session, principal_id=principal.id, game_id=seat.game_id)
        principal.label = other or f"{FORMER_PLAYER} of {seat.player_id}"
    session.flush()


def name_elsewhere(session: Session, *, principal_id: int, game_id: int) -> str | None:
    """The name of the seat a credential plays in a game other than ``game_id`` (its earliest
    such grant), cut as a token's label is, or None if it plays none."""
    other = session.scalars(
        select(SeatRow)
        .join(Grant, and_(Grant.game_id == SeatRow.game_id, Grant.player_id == SeatRow.player_id))
        .where(Grant.principal_id == principal_id, Grant.role == Role.PLAYER, Grant.game_id != game_id)
        .order_by(Grant.id)
    ).first()
    return None if other is None else shortened(seat_name(other), 40)


def forgotten_label(label: str) -> bool:
    """Whether a bot token's label is the one :func:`_forget_token_labels` gave it when a seat was
    taken from it ("former player of p3"), rather than a name or "organiser".

    >>> forgotten_label("former player of p3"), forgotten_label("Bea"), forgotten_label("former player of Ann")
    (True, False, False)
    """
    return re.fullmatch(rf"{FORMER_PLAYER} of p\d+", label) is not None


def label_joined_token(principal: ApiPrincipal, seat: SeatRow) -> None:
    """A bot token that joins ``seat`` with no name of its own (its seat was taken from it: the
    organiser's sign-out, or a seat handed to the bots) is labelled with the name ``seat`` plays
    under, as a new token is: its acts as organiser are logged under that name again, not as a
    former player's. Events written before keep what they say."""
    if forgotten_label(principal.label):
        principal.label = shortened(seat_name(seat), 40)


def release_seat(
    session: Session, *, game_id: int, player_id: str, now: datetime, actor: str = "organiser", then_advance: bool = True
) -> SeatRow:
    """Hand a seat to the bots (a player dropped out): from now on nobody plays it.

    Every browser and bot token that plays it loses it, as on a sign-out; its orders saved for the
    open turn are discarded and its teams' autopilots set back to the game's default bot, so nobody
    ever learns what its player had chosen (R13). The seat counts as unclaimed again: its teams are
    among :func:`house_teams` (the organiser picks their bots) and a turn no longer waits for it,
    so a turn that only waited for it is resolved at once, and once no claimed team is left in play
    the bots play the game through (:func:`advance`). Its link stops working; a new invite link
    (:func:`reissue_invite`) lets someone take the seat over later. After the start the seat keeps
    its name (the record's); in the lobby it loses it, as a seat nobody has taken.

    Only the organiser's act does this: a seat whose player signed out or revoked their token stays
    claimed (its player may come back by a new link, as after a lost browser), and a game without a
    deadline waits for it until the organiser hands it over, resolves the turn, or it is taken again.

    ``then_advance=False``: the turns the seat no longer holds up are not resolved here; the caller
    commits the hand-over, then calls :func:`advance` with no transaction open (as for a start).

    Raises:
        NotFound: no such seat.
        Conflict: the game is over, nobody has taken the seat (its autopilot already plays it), or
            the open turn's deadline has passed (it is resolved as it stood then).
    """
    seat = session.scalar(
        select(SeatRow).where(SeatRow.game_id == game_id, SeatRow.player_id == player_id[:16])
    )
    if seat is None:
        raise NotFound(f"no seat {quoted(player_id)} in this game")
    # The game's lock, as an order takes it: an order of the seat never lands after the discard.
    game = lock_game(session, game_id=game_id)
    session.refresh(seat)
    if game.status in (GameStatus.FINISHED, GameStatus.ENDED):
        raise Conflict(f"the game is {game.status.value}: no seat needs handing to the bots")
    if seat.joined_at is None:
        raise Conflict(
            f"nobody has taken seat {seat.player_id}: its teams are played by bots already (the organiser "
            "chooses them after the start)"
        )
    if past_deadline(game.status, game.deadline_at, now):
        # Its saved orders count at the deadline: discarding them now would change a closed turn.
        raise Conflict(
            f"the deadline of turn {game.current_turn} has passed, so the turn plays as it stood then, this "
            f"seat's saved orders included: the server resolves it {_UNLESS_REOPENED}, then hand the seat over"
        )
    freed = game.status == GameStatus.LOBBY and seat.name is not None
    if freed:
        _forget_token_labels(session, seat)
    lost = revoke_seat(session, game_id=game_id, player_id=seat.player_id)
    dropped = _discard_open_orders(session, game, player_id=seat.player_id)
    name = seat_name(seat)
    seat.joined_at = None
    if game.status == GameStatus.LOBBY:
        seat.name = None  # names are fixed at the start, not before: the seat is open to anyone
    if seat.invite_used_at is None:
        # A link issued but not used yet: it was meant for whoever played the seat; the organiser
        # issues another for whoever takes it over.
        seat.invite_hash = hash_token(new_token())
        seat.invite_expires_at = now
    shown = FORMER_PLAYER if freed else shortened(name, EVENT_ACTOR_POINTS)
    if freed:
        forget_freed_name(session, game_id=game_id, player_id=seat.player_id, old=name)
    detail = f"{seat.player_id} ({shown}): {lost} browser(s) or token(s) lost it; its teams play their bots"
    if dropped:
        detail += f"; its {dropped} order(s) saved for turn {game.current_turn} were discarded"
    _event(session, game, now=now, actor=actor, kind="seat to bots", detail=detail)
    if game.status in (GameStatus.RUNNING, GameStatus.PAUSED):
        _look_for_all_ready(game, now=now)  # the turn may have waited for this seat alone
    session.flush()
    if then_advance and game.status in (GameStatus.RUNNING, GameStatus.PAUSED):
        # The turn may have waited for this seat alone.
        advance(session, game_id=game.id, now=now)
    return seat


def new_organiser_link(
    session: Session, *, game_id: int, now: datetime, keep: int | None, actor: str = "organiser"
) -> str:
    """A new organiser link for the game; the old one stops working at once. Returns the secret
    (shown once, stored as its SHA-256 only).

    Every browser and bot token that organises the game loses that, except ``keep`` (the
    credential asking): a grant does not say whether it came through the old link, and one that
    did must not outlive it. The event log says how many lost it; it never holds the secret.
    """
    game = lock_game(session, game_id=game_id)
    token = new_token()
    game.organiser_link_hash = hash_token(token)
    lost = revoke_organisers(session, game_id=game.id, keep=keep)
    detail = f"the old link stops working; {lost} other browser(s) or token(s) lost organiser rights"
    _event(session, game, now=now, actor=actor, kind="organiser link", detail=detail)
    session.flush()
    return token


def _discard_open_orders(session: Session, game: GameRow, *, player_id: str) -> int:
    # The orders a seat's teams saved for the open turn (none in the lobby, turn 0): secret to
    # whoever played the seat until now. So are the autopilots its player chose (only a manager
    # sees their own): the seat's next holder starts from the game's default autopilot.
    teams = select(TeamRow.team_id).where(TeamRow.game_id == game.id, TeamRow.player_id == player_id)
    result = session.execute(
        delete(OrderRow).where(
            OrderRow.game_id == game.id, OrderRow.turn == game.current_turn, OrderRow.team_id.in_(teams)
        )
    )
    session.execute(
        update(TeamRow).where(TeamRow.game_id == game.id, TeamRow.player_id == player_id).values(autopilot=None)
    )
    # Their lines in the order log stay (the full backup keeps them), marked: never played, they
    # are not among the turn's public lines once it is resolved (backup's shareable export).
    session.execute(
        update(OrderLogRow)
        .where(OrderLogRow.game_id == game.id, OrderLogRow.turn == game.current_turn, OrderLogRow.team_id.in_(teams))
        .values(discarded=True)
    )
    return int(getattr(result, "rowcount", 0) or 0)


def list_public_games(session: Session, *, limit: int = 50) -> list[GameRow]:
    """The public games worth watching: those being played (latest started first), then lobbies
    someone has joined (newest first), then those over (latest ended first).

    A lobby nobody has joined, or a game ended before it started, has nothing to watch and is left
    out: fresh empty games, however many, do not push real ones off the list.
    """
    joined = select(SeatRow.id).where(SeatRow.game_id == GameRow.id, SeatRow.joined_at.is_not(None)).exists()
    lobby = GameRow.status == GameStatus.LOBBY
    playing = GameRow.status.in_((GameStatus.RUNNING, GameStatus.PAUSED))
    query = (
        select(GameRow)
        .where(GameRow.visibility == Visibility.PUBLIC, or_(GameRow.started_at.is_not(None), and_(lobby, joined)))
        .order_by(
            case((playing, 0), (lobby, 1), else_=2),
            func.coalesce(GameRow.ended_at, GameRow.started_at, GameRow.created_at).desc(),
            GameRow.id.desc(),
        )
        .limit(limit)
    )
    return list(session.scalars(query))


def seats_of(session: Session, *, game_id: int) -> list[SeatRow]:
    """The seats of a game, p1 first."""
    rows = session.scalars(select(SeatRow).where(SeatRow.game_id == game_id))
    return sorted(rows, key=lambda s: int(s.player_id[1:]))


def champion_names(session: Session, games: Iterable[GameRow]) -> dict[int, str]:
    """The champion's team name of each finished game of ``games``, by the game's row id, in one query
    (the front page lists up to 50 games)."""
    champions = {game.id: game.champion for game in games if game.champion is not None}
    if not champions:
        return {}
    rows = session.execute(select(TeamRow.game_id, TeamRow.team_id, TeamRow.name).where(TeamRow.game_id.in_(champions)))
    return {game_id: name for game_id, team_id, name in rows if champions[game_id] == team_id}


def teams_of(session: Session, *, game_id: int) -> list[TeamRow]:
    """The teams of a started game, by group then id."""
    rows = session.scalars(select(TeamRow).where(TeamRow.game_id == game_id))
    return sorted(rows, key=lambda t: (t.group, t.team_id))


def kept_name_note(seat: SeatRow, sent: str) -> str | None:
    """What a joiner is told when the seat plays under another name than the one it sent (a seat
    taken after the start keeps the record's name), or None when it plays under the name sent."""
    if kept_form(sent) == seat_name(seat):
        return None
    return f"this seat plays as {seat_name(seat)!r}: names are fixed once the game has started (they are in its record)"


def check_name_again(game: GameRow, seat: SeatRow, name: str) -> None:
    """A join asked again by the one who took the seat: the name it sends must be the seat's, if
    the seat took its name from its join (in the lobby). Otherwise the caller would believe it
    plays under a name nobody sees. A seat taken after the start plays under the record's name
    whatever was sent, then and now, so a retry of that join is not refused.

    Raises:
        Invalid: the seat was named at its join and the name sent is another.
    """
    taken_in_lobby = seat.joined_at is not None and (game.started_at is None or seat.joined_at < game.started_at)
    sent = kept_form(name)
    if taken_in_lobby and sent != seat_name(seat):
        raise Invalid(
            f"names are fixed once the seat is taken; this seat is {seat_name(seat)!r}, not "
            f"{cut_name(sent, NAME_LENGTH, NAME_POINTS)!r}",
            field="name",
        )


def _reserved_words(game: GameRow) -> dict[str, str]:
    """The words no player of ``game`` may be called, with why (as a message says it after the
    name): each would read as someone else where players' names are shown.

    The pages and the API call a team nobody manages "house": a player of that name would pass for
    the bot, and their teams for teams nobody plays. A player's page lists who has ordered as "Fiji
    (you)" for its own teams and "Samoa (Ann)" for the others': a player called "You" would pass for
    the reader. A name that is one of the game's teams or one of the bots stands beside them in the
    same lists ("Samoa (Fiji)", "Fiji (bot: even)"). "Bot 3" is a name like any other here, as no
    seat of a hosted game is called that (a seat nobody took is "Player 3", which is taken).
    """
    return {
        "house": "is what the teams nobody manages are called (their bot plays them)",
        "you": "is how each player's own page names its reader ('you')",
        **dict.fromkeys(DEFAULT_TEAM_NAMES[: game.teams], "is the name of a team in this game"),
        **dict.fromkeys(STRATEGIES, "is the name of a bot"),
    }


def _name_clash(name: str, game: GameRow, taken: Iterable[str] = ()) -> str | None:
    """Why ``name`` cannot be the display name of a player of ``game`` beside the names ``taken``
    (:func:`sevens.tournament.names.name_clash`: case, spacing, the form of a letter, a Cyrillic
    or Greek letter drawn as a Latin one and a Latin look-alike, "AI" for "Al", do not make it
    another), or None.

    >>> game = GameRow(teams=8)
    >>> _name_clash("YOU", game)
    "'YOU' is how each player's own page names its reader ('you'); pick another display name"
    >>> _name_clash("F\u0456ji", game)
    "'Fіji', which reads as 'Fiji' (its 'і' is CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I, drawn as a Latin 'i'), is the name of a team in this game; pick another display name"
    >>> _name_clash("\u0410nn", game, ["Ann"])
    "another player in this game is already called 'Ann', which 'Аnn' reads as (its 'А' is CYRILLIC CAPITAL LETTER A, drawn as a Latin 'A'); pick another display name"
    >>> _name_clash("Canada", game), _name_clash("Youssef", game), _name_clash("Bot 3", game), _name_clash("Анна", game, ["Ann"])
    (None, None, None, None)
    """
    clash = name_clash(name, taken=taken, reserved=_reserved_words(game))
    if clash is None:
        return None
    if clash.why is None:
        reads = f", which {name!r} reads as{clash.look_alike}" if clash.look_alike else ""
        return f"another player in this game is already called {clash.other!r}{reads}; pick another display name"
    return f"{clash.subject(name)} {clash.why}; pick another display name"


def join_seat(session: Session, *, seat: SeatRow, name: str, now: datetime) -> SeatRow:
    """Claim a seat and pick a display name (the name is kept once the game has started); the
    invite is used up.

    Raises:
        Invalid: an empty or over-long name, or one another player of the game has.
        Gone: the invite was used in the meantime (by a join that won the race), or replaced
            by a new link.
    """
    clean = _clean_name(name, "your display name", NAME_LENGTH)
    invite_hash = seat.invite_hash  # the invite this join came with, before the seat is read again
    # Joins queue behind each other and behind Start on the game's row, and read the game and its
    # seats afresh once they hold it: two joins at once as "Sam" would each find the name free,
    # and a join crossing Start would rename a seat the start had already drawn as nobody's.
    game = lock_game(session, game_id=seat.game_id)
    # After the start the name is the record's, for a seat taken late too.
    renames = game.status == GameStatus.LOBBY
    # Two players of one name could not be told apart in the tables, the reports or the record;
    # an unclaimed seat's name in the record ("Player 3") counts as taken.
    others = session.scalars(
        select(SeatRow).where(SeatRow.game_id == seat.game_id).execution_options(populate_existing=True)
    )
    taken = [seat_name(o) for o in others if o.id != seat.id]
    if seat.invite_hash != invite_hash:
        raise Gone(REPLACED_INVITE)
    if seat.invite_used_at is not None:
        raise Gone(USED_INVITE)
    clash = _name_clash(clean, game, taken) if renames else None
    if clash:
        raise Invalid(clash, field="name")
    # Claimed in one statement: of two joins racing with one invite, exactly one wins, and an
    # invite replaced by a new link while its join waited opens nothing.
    claimed = session.execute(
        update(SeatRow)
        .where(SeatRow.id == seat.id, SeatRow.invite_used_at.is_(None), SeatRow.invite_hash == invite_hash)
        .values(invite_used_at=now)
        .execution_options(synchronize_session=False)
    )
    if not getattr(claimed, "rowcount", 0):
        raise Gone(USED_INVITE)
    if renames and seat.name is not None and seat.name != clean:
        if seat.player_id in seats_held(session, game_id=seat.game_id):
            # A link for another device, taken under a new name: the same player, who still plays
            # the seat on the first device, renamed, not a former player.
            rename_in_events(
                session, game_id=seat.game_id, player_id=seat.player_id, old=seat.name, actor=clean, detail=clean
            )
        else:
            forget_freed_name(session, game_id=seat.game_id, player_id=seat.player_id, old=seat.name)
    seat.name = clean if renames else seat_name(seat)
    if seat.joined_at is None:
        seat.joined_at = now
    set_committed_value(seat, "invite_used_at", now)
    session.flush()
    return seat


# Statements on the order path are built once, so each call skips building them and their cache keys.
_GAMES = cast(Table, GameRow.__table__)
_LOCK_GAME = update(_GAMES).where(_GAMES.c.id == bindparam("game_id")).values(current_turn=_GAMES.c.current_turn)
# The same lock, which also makes the game due for the scheduler's look for a turn all ready.
_LOCK_GAME_READY = _LOCK_GAME.values(ready_check_at=bindparam("ready_check_at"))
_ORDER_NEEDS = (_GAMES.c.status, _GAMES.c.current_turn, _GAMES.c.record_json, _GAMES.c.deadline_at)
_FRESH_GAME = (
    select(GameRow).where(GameRow.id == bindparam("game_id")).execution_options(populate_existing=True)
)


def lock_game(session: Session, *, game_id: int) -> GameRow:
    """Take the game's row lock for the rest of the transaction and return a fresh copy.

    A no-op UPDATE locks the row on PostgreSQL and takes SQLite's write lock, so concurrent
    writers on one game queue behind each other on both.
    """
    session.connection().execute(_LOCK_GAME, {"game_id": game_id})
    game = session.scalar(_FRESH_GAME, {"game_id": game_id})
    if game is None:
        raise NotFound("the game no longer exists")
    return game


EVENT_ACTOR_POINTS = 64
"""The most code points of an event's actor (its column's width): a player's name can hold more."""
EVENT_DETAIL_POINTS = 200
"""The most code points of an event's detail (its column's width)."""


def api_actor(label: str) -> str:
    """How an organiser's act through the API is written in the event log: by its token's label,
    which for a bot that joined a seat is its player's name (:func:`sevens.store.retention.remove_seat_name`)."""
    return f"organiser (api: {label})"


FORMER_PLAYER = "former player"
"""What the event log says in place of a name freed in the lobby (:func:`forget_freed_name`)."""


def rename_in_events(session: Session, *, game_id: int, player_id: str, old: str, actor: str, detail: str) -> None:
    """Write ``actor`` where the event log names seat ``player_id``'s player ``old`` as who acted
    (a seat left, a link for another device; an organiser's act through a bot token that joined
    under that name, "organiser (api: old)"), and ``detail`` where a detail names them ("p3 (old)").

    Only the seat's own events are read as its player's: another player may have chosen a name
    such as "server" or "organiser", which the log also uses for the server and the organiser.
    """
    label = shortened(old, 40)  # a bot token's label: the name it joined under, cut so
    as_api = shortened(api_actor(label), EVENT_ACTOR_POINTS)
    plain = shortened(old, EVENT_ACTOR_POINTS)
    named = f"{player_id} ({plain})"
    for event in session.scalars(select(EventRow).where(EventRow.game_id == game_id)):
        if event.actor == as_api:
            event.actor = shortened(api_actor(actor), EVENT_ACTOR_POINTS)
        elif event.actor == plain and event.detail.startswith((f"{player_id}:", f"{named}:")):
            event.actor = shortened(actor, EVENT_ACTOR_POINTS)
        event.detail = event.detail.replace(named, f"{player_id} ({detail})")


def forget_freed_name(session: Session, *, game_id: int, player_id: str, old: str) -> None:
    """The name ``old`` is free again in the lobby (its seat handed to the bots, or taken under
    another name): the event log keeps what happened to the seat but no longer whose it was, as
    the seat itself no longer says. Only a game's deletion would have removed it before, and every
    later reader of the log (the organiser page, the API's events, a full backup) saw it."""
    rename_in_events(
        session, game_id=game_id, player_id=player_id, old=old, actor=f"{FORMER_PLAYER} of {player_id}",
        detail=FORMER_PLAYER,
    )


def _event(
    session: Session, game: GameRow, *, now: datetime, actor: str, kind: str, detail: str = ""
) -> None:
    session.add(
        EventRow(
            game_id=game.id, at=now, actor=shortened(actor, EVENT_ACTOR_POINTS), kind=kind,
            detail=shortened(detail, EVENT_DETAIL_POINTS),
        )
    )


def events_of(session: Session, *, game_id: int) -> list[EventRow]:
    """The game's append-only event log, oldest first."""
    return list(session.scalars(select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.id)))


def log_seats_left(session: Session, *, principal_id: int, now: datetime, how: str) -> None:
    """Before a credential is forgotten (a browser signs out, a bot revokes its token): in each game
    still played whose seat it plays and nothing else does, log that the seat was left (``how``
    says how), so the organiser knows when and may hand it to the bots. The seat stays taken
    (docs/web.md: its player may come back by a new link)."""
    # In the games' order, as every writer locks them, so two sign-outs never wait on each other.
    grants = session.scalars(
        select(Grant)
        .where(Grant.principal_id == principal_id, Grant.role == Role.PLAYER)
        .order_by(Grant.game_id, Grant.id)
    ).all()
    for grant in grants:
        # Counted under the game's lock: a phone and a laptop signing out of one seat at once would
        # each count the other as still playing it, and neither would say the seat was left.
        try:
            lock_game(session, game_id=grant.game_id)
        except NotFound:
            continue
        others = session.scalar(
            select(func.count())
            .select_from(Grant)
            .where(
                Grant.game_id == grant.game_id,
                Grant.role == Role.PLAYER,
                Grant.player_id == grant.player_id,
                Grant.principal_id != principal_id,
            )
        )
        game = session.get(GameRow, grant.game_id)
        if others or game is None or game.status not in (GameStatus.LOBBY, GameStatus.RUNNING, GameStatus.PAUSED):
            continue
        seat = session.scalar(
            select(SeatRow).where(SeatRow.game_id == grant.game_id, SeatRow.player_id == grant.player_id)
        )
        if seat is None:
            continue
        name = seat_name(seat)
        # The name cut as the actor is, so that the detail keeps its words after it.
        detail = f"{seat.player_id} ({shortened(name, EVENT_ACTOR_POINTS)}): {how}; nobody plays the seat now"
        _event(session, game, now=now, actor=name, kind="seat left", detail=detail)


def count_seats_taken(session: Session, *, game_id: int) -> int:
    """How many of the game's seats someone has taken (joined, and not handed to the bots since)."""
    taken = select(func.count()).select_from(SeatRow).where(SeatRow.game_id == game_id, SeatRow.joined_at.is_not(None))
    return int(session.scalar(taken) or 0)


def count_events(session: Session, *, game_id: int) -> int:
    """How many entries the game's event log holds (:func:`events_of`): every organiser act adds one."""
    return int(session.scalar(select(func.count()).select_from(EventRow).where(EventRow.game_id == game_id)) or 0)


def start_game(
    session: Session, *, game_id: int, now: datetime, actor: str = "organiser", then_advance: bool = True
) -> GameRow:
    """Draw the groups (R12) and open turn 1; seats nobody claimed play on autopilot (R13), and if
    no seat is claimed the bots play the game through at once. ``then_advance=False``: not here;
    the caller commits the start, then calls :func:`advance` with no transaction open, which works
    the bots' turns out before the game's lock (on SQLite the file's, which every game waits for).

    Raises:
        Conflict: the game has already started, or was ended before it started.
    """
    game = lock_game(session, game_id=game_id)
    if game.status == GameStatus.ENDED and game.record_json is None:  # ended in its lobby: it never started
        raise Conflict(
            "the game was ended before it started: nothing is left to start; a rematch starts a new game with its settings"
        )
    if game.status != GameStatus.LOBBY:
        raise Conflict("the game has already started")
    seats = seats_of(session, game_id=game.id)
    players = [Player(PlayerId(s.player_id), seat_name(s)) for s in seats]
    fmt = Format(teams=game.teams, players=game.players, teams_per_player=game.teams_per_player)
    # Drawn from the secret seed, so the record says draw = "game-seed" and verify redoes it (R14).
    drawn = draw_game_from_seed(players, fmt, seed=game.seed_hex)
    taken = taken_seats(seats)
    setup = replace(drawn, autopilots={team.id: default_for(game, team.manager in taken) for team in drawn.teams})
    for team in setup.teams:
        session.add(
            TeamRow(
                game_id=game.id, team_id=team.id, name=team.name, group=team.group, player_id=team.manager
            )
        )
    game.record_json = dumps(to_record(new_game(setup), seed=None))
    game.status = GameStatus.RUNNING
    game.current_turn = 1
    game.started_at = now
    game.deadline_at = None if game.turn_seconds is None else now + timedelta(seconds=game.turn_seconds)
    _look_for_all_ready(game, now=now)  # no seat taken: nobody is waited for
    _event(session, game, now=now, actor=actor, kind="started")
    session.flush()
    if then_advance:
        # With no seat claimed nobody is due an order: the bots play on at once, as they do after
        # any turn once no claimed team is left in play.
        advance(session, game_id=game.id, now=now)
    return game


def load_game(game: GameRow) -> Game:
    """The game's state, replayed from its stored record.

    Raises:
        Conflict: the game has not started.
        DamagedRecord: the stored record no longer replays (changed outside sevens).
    """
    if game.record_json is None:
        if game.status == GameStatus.ENDED:
            raise Conflict("the game was ended before it started: no die was thrown, so it has no record")
        raise Conflict("the game has not started yet: the organiser starts it once the players have joined")
    return _replay(game.record_json)


@lru_cache(maxsize=128)
def _replay(record_json: str) -> Game:
    # Games are frozen values, so one replay of a stored record can serve every request after.
    # As many as PLANNED keeps games: a resolution replays its game's record under the lock
    # (136 ms at a 16-team final) when the plans of other games pushed it out. About 0.16 MB each.
    try:
        state, _seed = from_record(json.loads(record_json))
    except ValueError as exc:  # RecordError, or not JSON at all
        raise DamagedRecord(str(exc) or type(exc).__name__) from exc
    return state


def revealed_seed(game: GameRow) -> str | None:
    """The seed, once no die is left to throw (R14); None before."""
    return game.seed_hex if game.status in (GameStatus.FINISHED, GameStatus.ENDED) else None


def record_of(game: GameRow) -> dict[str, object]:
    """The downloadable game record: exactly ``to_record``, with the seed once the game is over
    (R14): played to its final, or ended early by its organiser (then the record says so)."""
    state = load_game(game)
    ended_early = game.status == GameStatus.ENDED and not state.finished
    return to_record(state, seed=revealed_seed(game), ended_early=ended_early)


_TEAM_AND_ORDER = (
    select(TeamRow.player_id, TeamRow.name, OrderRow.id)
    .outerjoin(
        OrderRow,
        and_(
            OrderRow.game_id == TeamRow.game_id,
            OrderRow.team_id == TeamRow.team_id,
            OrderRow.turn == bindparam("turn"),
        ),
    )
    .where(TeamRow.game_id == bindparam("game_id"), TeamRow.team_id == bindparam("team_id"))
)
_ORDERS = cast(Table, OrderRow.__table__)
_UPDATE_ORDER = (
    update(_ORDERS)
    .where(_ORDERS.c.id == bindparam("order_id"))
    .values(
        force=bindparam("force"),
        flair=bindparam("flair"),
        ready=bindparam("ready"),
        updated_at=bindparam("updated_at"),
    )
)
_INSERT_ORDER = insert(_ORDERS)
_INSERT_ORDER_LOG = insert(cast(Table, OrderLogRow.__table__))


def _team_for_player(session: Session, *, game: GameRow, team_id: str, player_id: str) -> TeamRow:
    team = session.scalar(select(TeamRow).where(TeamRow.game_id == game.id, TeamRow.team_id == team_id))
    if team is None:
        raise NotFound(f"no team {quoted(team_id)} in this game")
    if team.player_id != player_id:
        raise Refused(f"you do not manage {team.name}; you can only order for your own teams")
    return team


def _team_and_order(session: Session, *, game_id: int, team_id: str, player_id: str, turn: int) -> int | None:
    # As _team_for_player, and in the same query the id of the team's saved order for ``turn``.
    found = session.connection().execute(
        _TEAM_AND_ORDER, {"game_id": game_id, "team_id": team_id, "turn": turn}
    ).first()
    if found is None:
        raise NotFound(f"no team {quoted(team_id)} in this game")
    manager, name, order_id = found
    if manager != player_id:
        raise Refused(f"you do not manage {name}; you can only order for your own teams")
    return None if order_id is None else int(order_id)


def save_order(
    session: Session,
    *,
    game_id: int,
    player_id: str,
    team_id: str,
    turn: int,
    force: int,
    flair: int,
    ready: bool,
    via: str,
    now: datetime,
    principal_id: int | None = None,
    then_advance: bool = True,
) -> OrderRow:
    """Save a team's order for the open turn (R3), written at once and logged; ready or not.

    If this makes every order of the turn ready, the turn is resolved in the same transaction,
    under the game's lock. ``then_advance=False``: not here; the caller commits the order, then
    calls :func:`advance` with no transaction open, which works the turn out before the lock.
    ``principal_id``: the credential sending it, which must still play the seat once the game is
    locked (a sign-out may have taken the seat since the caller checked).

    Raises:
        Conflict: the turn is not the open one, or the game is not running.
        Refused: the team is not the player's; SeatSignedOut: the credential no longer plays the seat.
        Invalid: the order breaks a rule (R3) or the team does not play this turn.
    """
    # lock_game's lock, and in the same statement the little this needs of the game's row.
    session.flush()
    connection = session.connection()
    # A ready order may complete the turn: in the same statement, the scheduler is to look later
    # whether it did (:func:`ready_checks_due`), should the work after the commit not be done.
    lock, params = (
        (_LOCK_GAME_READY, {"ready_check_at": now + LEFT_READY_AFTER}) if ready else (_LOCK_GAME, {})
    )
    locked = connection.execute(lock.returning(*_ORDER_NEEDS), {"game_id": game_id, **params}).first()
    if locked is None:
        raise NotFound("the game no longer exists")
    status, current_turn, record_json, deadline_at = locked
    if status not in (GameStatus.RUNNING, GameStatus.PAUSED):
        raise Conflict(f"the game is {status.said}; orders are taken only while it is running")
    if turn != current_turn:
        if turn < current_turn:  # the page or the bot read the game before that turn was resolved
            raise Conflict(
                f"turn {turn} is not open for orders; the open turn is {current_turn}: turn {turn} has been "
                f"resolved, so this order was not saved; read the game again and send an order for turn {current_turn}"
            )
        raise Conflict(
            f"turn {turn} is not open for orders; the open turn is {current_turn}: reload and order again"
        )
    if past_deadline(status, deadline_at, now):
        # Orders close at the deadline, not when the scheduler next looks for overdue turns (every
        # few seconds, or first thing after a restart): the turn is resolved as it stood then.
        raise Conflict(
            f"the deadline of turn {turn} has passed ({deadline_at:%Y-%m-%d %H:%M:%S} UTC), so orders for it "
            "are closed: the server plays the turn as it stood then, missing orders by their autopilots (R13), "
            f"{_UNLESS_REOPENED}"
        )
    if principal_id is not None and player_id not in access_to(session, principal_id=principal_id, game_id=game_id).player_ids:
        # Checked again under the lock: an order written after a sign-out's discard would be left
        # for whoever opens the new link to read (R13).
        raise SeatSignedOut(player_id, what="the order")
    order_id = _team_and_order(session, game_id=game_id, team_id=team_id, player_id=player_id, turn=turn)
    try:
        order = check_order(_replay(record_json), turn=turn, team=team_id, force=force, flair=flair)
    except (OrderRefused, ValueError) as exc:
        raise Invalid(str(exc), field=getattr(exc, "field", None)) from None
    # Written with Core statements on the session's connection (same transaction, after the lock):
    # the ORM's unit of work costs more than these two small writes.
    values = {"force": order.force, "flair": order.flair, "ready": ready, "updated_at": now}
    if order_id is None:
        inserted = connection.execute(
            _INSERT_ORDER, {"game_id": game_id, "turn": turn, "team_id": team_id, **values}
        )
        key = inserted.inserted_primary_key
        assert key is not None
        order_id = int(key[0])
    else:
        connection.execute(_UPDATE_ORDER, {"order_id": order_id, **values})
    connection.execute(
        _INSERT_ORDER_LOG,
        {"game_id": game_id, "turn": turn, "team_id": team_id, "player_id": player_id, "via": via, "at": now}
        | {k: values[k] for k in ("force", "flair", "ready")},
    )
    row = session.identity_map.get(session.identity_key(OrderRow, (order_id,)))
    if isinstance(row, OrderRow):
        # A copy this session loaded earlier: bring it up to date without marking it changed.
        for name, value in values.items():
            set_committed_value(row, name, value)
    else:
        row = OrderRow(id=order_id, game_id=game_id, turn=turn, team_id=team_id, **values)
    if ready and then_advance:
        # Only a ready order can complete the turn: a saved one leaves this team not ready.
        advance(session, game_id=game_id, now=now)
    return row


def orders_of_player(session: Session, *, game_id: int, turn: int, player_id: str) -> dict[str, OrderRow]:
    """The player's own orders for a turn, by team (only ever shown to that player, R13)."""
    query = (
        select(OrderRow)
        .join(TeamRow, (TeamRow.game_id == OrderRow.game_id) & (TeamRow.team_id == OrderRow.team_id))
        .where(OrderRow.game_id == game_id, OrderRow.turn == turn, TeamRow.player_id == player_id)
    )
    return {row.team_id: row for row in session.scalars(query)}


def own_teams_now(session: Session, *, game_id: int, turn: int, player_id: str) -> list[tuple[str, str | None, str]]:
    """Each team of the player's with its autopilot (None: the game's default) and its order for
    ``turn`` as "FORCE+FLAIR/ready" ("" for none), by team, in one statement (only ever shown to
    that player, R13)."""
    query = (
        select(TeamRow.team_id, TeamRow.autopilot, OrderRow.force, OrderRow.flair, OrderRow.ready)
        .outerjoin(
            OrderRow,
            (OrderRow.game_id == TeamRow.game_id) & (OrderRow.team_id == TeamRow.team_id) & (OrderRow.turn == turn),
        )
        .where(TeamRow.game_id == game_id, TeamRow.player_id == player_id)
        .order_by(TeamRow.team_id)
    )
    return [
        (team, autopilot, "" if force is None else f"{force}+{flair}/{ready}")
        for team, autopilot, force, flair, ready in session.execute(query)
    ]


def order_states(
    session: Session, *, game: GameRow, seats: list[SeatRow] | None = None, teams: list[TeamRow] | None = None
) -> dict[str, OrderState]:
    """For each human-managed team in the open turn: no order, saved or ready (never the order),
    unclaimed when nobody has taken its seat yet, or released when its seat was handed to the bots
    and nobody has taken it over. ``seats`` and ``teams``: the game's, if the
    caller has read them already (:func:`seats_of`, :func:`teams_of`)."""
    if game.status not in (GameStatus.RUNNING, GameStatus.PAUSED):
        return {}
    state = load_game(game)
    teams = teams_of(session, game_id=game.id) if teams is None else teams
    seats = seats_of(session, game_id=game.id) if seats is None else seats
    managers = {t.team_id: t.player_id for t in teams if t.player_id is not None}
    claimed = taken_seats(seats)
    released = {s.player_id for s in seats if handed_to_bots(s)}
    in_play = [t for t in state.teams_in_play() if t in managers]
    rows = {
        r.team_id: r
        for r in session.scalars(
            select(OrderRow).where(OrderRow.game_id == game.id, OrderRow.turn == game.current_turn)
        )
    }
    result: dict[str, OrderState] = {}
    for team in in_play:
        row = rows.get(team)
        if row is None:
            if managers[team] in claimed:
                result[team] = OrderState.NONE
            else:
                result[team] = OrderState.RELEASED if managers[team] in released else OrderState.UNCLAIMED
        else:
            result[team] = OrderState.READY if row.ready else OrderState.SAVED
    return result


def _all_ready(session: Session, game: GameRow) -> bool:
    waits_for_none = (OrderState.READY, OrderState.UNCLAIMED, OrderState.RELEASED)
    return all(s in waits_for_none for s in order_states(session, game=game).values())


_Given = tuple[tuple[str, int, int], ...]
_Chosen = tuple[tuple[str, str], ...]


def _turn_inputs(
    session: Session, game: GameRow, state: Game
) -> tuple[dict[str, TeamRow], list[SeatRow], _Given, _Chosen, tuple[str, ...]]:
    """What the open turn is played from besides the record and the seed: the managers' saved
    orders (ready or not), each team's autopilot, and the teams in play with no order."""
    teams = {t.team_id: t for t in teams_of(session, game_id=game.id)}
    in_play = list(state.teams_in_play())
    rows = {
        r.team_id: r
        for r in session.scalars(
            select(OrderRow).where(OrderRow.game_id == game.id, OrderRow.turn == game.current_turn)
        )
    }
    given = tuple(
        (team, rows[team].force, rows[team].flair)
        for team in in_play
        if team in rows and teams[team].player_id is not None
    )
    ordered = {team for team, _, _ in given}
    missing = tuple(t for t in in_play if t not in ordered)
    seats = seats_of(session, game_id=game.id)
    # The autopilot a manager picked (or the game's default autopilot, or for a team nobody plays
    # its default bot) plays each missing order (R13).
    taken = taken_seats(seats)
    chosen = tuple(
        sorted((t, row.autopilot or default_for(game, row.player_id in taken)) for t, row in teams.items())
    )
    return teams, seats, given, chosen, missing


def _played_turn(
    record_json: str, given: _Given, chosen: _Chosen, missing: tuple[str, ...], seed: str
) -> tuple[Game, str]:
    """The game after its open turn and its new record, from all the turn depends on. Pure, so
    :func:`plan_turn` works it out before the game's lock and :func:`resolve_turn` finds it kept
    (:data:`PLANNED`) under the lock: the bots' orders (a knockout's odds can take a second) and
    the record are not worked out while every other writer waits (on SQLite, for every game of
    the file)."""
    state = _replay(record_json)
    orders = {
        TeamId(team): TurnOrder(team=TeamId(team), order=Order(force=force, flair=flair), missed=False)
        for team, force, flair in given
    }
    # A copy of the set-up carries the choices; the stored record keeps the original set-up.
    picker = Game(replace(state.setup, autopilots={TeamId(t): bot for t, bot in chosen}), state.turns)
    orders.update(autopilot_orders(picker, missing, get_strategy, seed=seed))
    new_state = resolve_game_turn(state, orders, seed)
    return new_state, dumps(to_record(new_state, seed=None))


_TurnKey = tuple[str, _Given, _Chosen, tuple[str, ...], str]
"""All a turn's result depends on: :func:`_played_turn`'s arguments (the record holds the set-up)."""


class PlannedTurns:
    """The turns :func:`plan_turn` worked out, kept by game until their resolution asks for them.

    A plain LRU of 16 turns was shared by every game: with more than 16 games planning at once (a
    deadline shared by many games, or their last orders coming in together) a game's planned turn
    was pushed out before its resolution took the lock, which then worked it again, under the lock.
    Here each game keeps its own: only the turns worked out from its record as it stands now (the
    open turn, and the bots-only turns that follow it), at most ``per_game`` (a 16-team
    tournament has six turns); a newer record (a plan or a resolution) drops those from older
    ones, which nothing could ask for again. The ``games`` most recently planned are kept. A turn is found
    only by every input it was worked out from (record, orders, autopilots, missing teams, seed):
    a changed order is worked out afresh."""

    def __init__(self, games: int, per_game: int = 6) -> None:
        self.games = games
        self.per_game = per_game
        self.hits = 0
        self.misses = 0
        self._kept: OrderedDict[int, OrderedDict[_TurnKey, tuple[Game, str]]] = OrderedDict()
        self._lock = threading.Lock()  # web requests plan and resolve from many threads

    def played(self, game_id: int, key: _TurnKey) -> tuple[Game, str]:
        """The turn worked out from ``key``: the one kept, else worked out now (and kept)."""
        with self._lock:
            turns = self._kept.get(game_id)
            found = turns.get(key) if turns is not None else None
            if found is None:
                self.misses += 1
            else:
                self.hits += 1
                return found
        worked = _played_turn(*key)  # with no lock held: other games' plans go on meanwhile
        with self._lock:
            turns = self._kept.setdefault(game_id, OrderedDict())
            self._kept.move_to_end(game_id)
            turns[key] = worked
            while len(turns) > self.per_game:
                turns.popitem(last=False)
            while len(self._kept) > self.games:
                self._kept.popitem(last=False)
        return worked

    def moved_on(self, game_id: int, record_json: str) -> None:
        """Forget what was worked out for the game before ``record_json``, now its record: keep only
        the turns played from it and from the records those lead to (the bots-only turns ahead)."""
        with self._lock:
            turns = self._kept.get(game_id)
            if turns is None:
                return
            ahead = {record_json}
            grew = True
            while grew:
                grew = False
                for key, (_, record) in turns.items():
                    if key[0] in ahead and record not in ahead:
                        ahead.add(record)
                        grew = True
            for key in [k for k in turns if k[0] not in ahead]:
                del turns[key]
            if not turns:
                del self._kept[game_id]

    def kept(self) -> int:
        """How many turns are kept, all games together."""
        with self._lock:
            return sum(len(turns) for turns in self._kept.values())


PLANNED = PlannedTurns(games=128, per_game=6)
"""Each worker's planned turns. A turn kept is a game and its record: about 0.16 MB for a 16-team
game at its final (its record 84 kB). A game keeps one turn from its plan to its resolution, and
six in a row only while the bots play it out (dropped as they are resolved): about 20 MB with a
turn kept for each of 128 games, 120 MB if all were six bots-only turns ahead. A game pushed out
(the 129th planning at once) is only worked out again, under its lock, as before."""


def plan_turn(session: Session, *, game_id: int, turn: int | None = None, if_all_ready: bool = False) -> bool:
    """Work out ``turn`` (None: the open one) as it stands, without taking the game's lock, so that
    resolving it next finds the result made (:func:`_played_turn`) if no order or seat changed
    meanwhile; and the bots-only turns that would follow it at once (no taken seat has a team in
    play), so that :func:`advance` finds those made too. Only reads; anything that stops it (the
    turn moved on, an order the rules refuse) is left to :func:`resolve_turn` to find and say
    under the lock. ``if_all_ready``: only if every order the turn waits for is ready.

    Returns False when there is nothing to resolve (the turn is not open, the game not running,
    or, with ``if_all_ready``, an order is still awaited), else True.

    A session with no transaction yet gives its connection back before the bots think: a web
    worker on SQLite has one, which its polls and pages would wait for."""
    fresh = not session.in_transaction()
    # Read afresh: a session that kept the row from before its last commit would plan a stale turn.
    game = session.scalar(_FRESH_GAME, {"game_id": game_id})
    try:
        if game is None or game.record_json is None or game.status not in (GameStatus.RUNNING, GameStatus.PAUSED):
            return False
        if turn is not None and game.current_turn != turn:
            return False
        if if_all_ready and not _all_ready(session, game):
            return False
        record, seed = game.record_json, game.seed_hex
        teams, seats, given, chosen, missing = _turn_inputs(session, game, load_game(game))
        # Read before the rollback below, which expires the rows (read again, they would take the
        # connection back for the bots' whole think).
        taken = taken_seats(seats)
        played_by_someone = {t for t, row in teams.items() if row.player_id in taken}
    except DamagedRecord:
        return True  # said by resolve_turn, under the lock
    finally:
        if fresh:
            session.rollback()  # nothing written: only ends the reads
    PLANNED.moved_on(game_id, record)
    try:
        state, record = PLANNED.played(game_id, (record, given, chosen, missing, seed))
        while not state.finished:
            in_play = tuple(state.teams_in_play())
            if played_by_someone.intersection(in_play):
                break
            # As _turn_inputs will find it: no order saved yet, every team in play missing.
            state, record = PLANNED.played(game_id, (record, (), chosen, in_play, seed))
    except (OrderRefused, OrderError):
        pass
    return True


def resolve_turn(
    session: Session,
    *,
    game_id: int,
    turn: int,
    reason: str,
    now: datetime,
    actor: str = "server",
    due_only: bool = False,
) -> bool:
    """Resolve ``turn`` if it is still the open one; returns whether this call resolved it.
    ``due_only``: only if it is still past its deadline (:func:`past_deadline`), for the
    scheduler, which found it due in a transaction of its own: a Pause or Extend since then has
    reopened it.

    Saved orders count, ready or not; teams without one play their autopilot and are marked
    missed (R13); house teams play their bot. Dice come from the game's seed (R14).
    """
    game = lock_game(session, game_id=game_id)
    if game.current_turn != turn or game.status not in (GameStatus.RUNNING, GameStatus.PAUSED):
        return False
    if due_only and not past_deadline(game.status, game.deadline_at, now):
        return False
    state = load_game(game)
    teams, seats, given, chosen, missing = _turn_inputs(session, game, state)
    _note_seat_bots(game, turn, missing, teams, seats)
    try:
        # Worked out already by plan_turn before the lock when nothing changed since: a cache hit.
        new_state, record = PLANNED.played(game.id, (game.record_json or "", given, chosen, missing, game.seed_hex))
    except (OrderRefused, OrderError) as exc:
        # Nothing is written: the caller's transaction is rolled back with the seat notes above.
        refused = str(getattr(exc, "team", None) or "?")
        name = teams[refused].name if refused in teams else None
        raise UnplayableOrder(turn, team=refused, rule=exc.rule, part=exc.field, team_name=name) from None
    game.record_json = record
    game.current_turn = turn + 1
    PLANNED.moved_on(game.id, record)
    session.add(TurnRow(game_id=game.id, number=turn, reason=reason, resolved_at=now))
    _event(session, game, now=now, actor=actor, kind="resolved", detail=f"turn {turn} ({reason})")
    if new_state.finished:
        game.status = GameStatus.FINISHED
        game.champion = new_state.champion
        game.deadline_at = None
        game.paused_remaining = None
        game.ready_check_at = None
        game.ended_at = now
        _event(
            session, game, now=now, actor="server", kind="finished", detail=f"champion {new_state.champion}"
        )
    else:
        _look_for_all_ready(game, now=now)  # the next turn may be the bots' alone
        if game.turn_seconds is not None and game.status == GameStatus.PAUSED:
            game.paused_remaining = game.turn_seconds
        elif game.turn_seconds is not None:
            game.deadline_at = now + timedelta(seconds=game.turn_seconds)
    session.flush()
    return True


def _note_seat_bots(
    game: GameRow, turn: int, missing: Sequence[str], teams: dict[str, TeamRow], seats: list[SeatRow]
) -> None:
    """Keep, for ``turn``, which of its ``missing`` teams a bot plays because nobody plays their
    seat now (not taken yet, or handed to the bots), so that its reports say so later however the
    seat changes hands (:func:`seat_bots`). A team whose player is in the seat but sent nothing
    missed its order, as the record says, and is not noted."""
    by_player = {s.player_id: s for s in seats}
    noted: dict[str, str] = {}
    for team in missing:
        seat = by_player.get(teams[team].player_id or "")
        if seat is not None and seat.joined_at is None:
            noted[team] = OrderState.RELEASED.value if handed_to_bots(seat) else OrderState.UNCLAIMED.value
    every = json.loads(game.seat_bots_json) if game.seat_bots_json else {}
    every[str(turn)] = noted
    game.seat_bots_json = json.dumps(every, sort_keys=True)


def seat_bots(game: GameRow) -> dict[int, dict[str, str]]:
    """Per resolved turn, the teams a bot played because nobody played their seat then, and why:
    ``unclaimed`` (not taken yet) or ``released`` (handed to the bots). A turn resolved before this
    was kept (revision 0006) is not among the keys."""
    if not game.seat_bots_json:
        return {}
    return {int(turn): dict(teams) for turn, teams in json.loads(game.seat_bots_json).items()}


def advance(session: Session, *, game_id: int, now: datetime) -> int:
    """Resolve turns while every order of the open turn is ready; returns how many were resolved.

    Once no human team is left in play this plays the bots' turns through to the champion.

    Called with no transaction open (a ready order committed first, so it is kept whatever
    follows), it works the turns out before taking the game's lock (:func:`plan_turn`), and takes
    the lock only if every order is ready; under it, all is checked again. Called inside a
    transaction that holds the lock, the turns are worked out under it.
    """
    if not session.in_transaction() and not plan_turn(session, game_id=game_id, if_all_ready=True):
        return 0
    resolved = 0
    while True:
        game = lock_game(session, game_id=game_id)
        if game.status not in (GameStatus.RUNNING, GameStatus.PAUSED) or not _all_ready(session, game):
            return resolved
        if not resolve_turn(session, game_id=game_id, turn=game.current_turn, reason="all-ready", now=now):
            return resolved
        resolved += 1


def resolved_together(session: Session, *, game_id: int, first: int) -> bool:
    """Whether turn ``first`` and every turn after it are resolved, all at the same moment: by one
    request, the turns after ``first`` being those nobody held up (all ready, or bots only), as
    :func:`resolve_then_advance` plays them. False while ``first`` is open."""
    times = session.scalars(
        select(TurnRow.resolved_at).where(TurnRow.game_id == game_id, TurnRow.number >= first)
    ).all()
    return bool(times) and len(set(times)) == 1


def resolve_then_advance(
    session: Session,
    *,
    game_id: int,
    turn: int,
    reason: str,
    now: datetime,
    actor: str = "server",
    due_only: bool = False,
) -> int:
    """Resolve ``turn`` if it is still open (``due_only``: and past its deadline, as
    :func:`resolve_turn`), then any turns that follow at once (all ready, or bots only); returns
    how many turns were resolved, 0 if ``turn`` was no longer open.

    The organiser's "resolve now" and the deadline scheduler both come here, so they cannot drift.
    """
    plan_turn(session, game_id=game_id, turn=turn)
    if not resolve_turn(session, game_id=game_id, turn=turn, reason=reason, now=now, actor=actor, due_only=due_only):
        return 0
    return 1 + advance(session, game_id=game_id, now=now)


UNRESOLVED = "not resolved"
"""The event the deadline scheduler logs when a turn it found due cannot be resolved."""


def note_unresolved(session: Session, *, game_id: int, turn: int, now: datetime, why: str) -> bool:
    """Put in the game's event log that ``turn`` could not be resolved at its deadline and ``why``
    (words for the organiser: never an order's numbers, R13), unless the last event says so already
    (the scheduler tries again at every poll, and a restarted one forgets what it said). Returns
    whether it was written."""
    game = session.get(GameRow, game_id)
    if game is None or game.current_turn != turn:
        return False
    detail = f"turn {turn}: {why}"
    last = session.scalars(
        select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.id.desc()).limit(1)
    ).first()
    if last is not None and last.kind == UNRESOLVED and last.detail == shortened(detail, EVENT_DETAIL_POINTS):
        return False
    _event(session, game, now=now, actor="server", kind=UNRESOLVED, detail=detail)
    return True


def unresolved_now(game: GameRow, events: Sequence[EventRow]) -> str | None:
    """Why the game's open turn could not be resolved at its deadline, if the last event says it
    could not (an act of the organiser's since, such as an extension, makes it old news)."""
    if game.status != GameStatus.RUNNING or not events:
        return None
    last = events[-1]
    prefix = f"turn {game.current_turn}: "
    if last.kind != UNRESOLVED or not last.detail.startswith(prefix):
        return None
    return last.detail[len(prefix):]


# What happens to a turn past its deadline, said by each refusal it causes. The scheduler is not
# the only way on: the organiser may pause or extend first, which reopens the turn (past_deadline
# is then false), so no refusal may promise that the turn is already being resolved.
_UNLESS_REOPENED = (
    "as soon as it can, unless the organiser first pauses the deadline or extends it to a time "
    "still to come, which reopens the turn; reload in a few seconds to see which"
)


def past_deadline(status: GameStatus, deadline_at: datetime | None, now: datetime) -> bool:
    """Whether a game's open turn is due: running, with a deadline that has passed. Orders and bots
    for it are then closed, however long the scheduler takes to resolve it (:func:`due_turns`
    finds the same turns)."""
    return status == GameStatus.RUNNING and deadline_at is not None and deadline_at <= now


def due_turns(session: Session, *, now: datetime) -> list[tuple[int, int]]:
    """(game id, turn) of every running game whose deadline has passed."""
    query = select(GameRow.id, GameRow.current_turn).where(
        GameRow.status == GameStatus.RUNNING, GameRow.deadline_at.is_not(None), GameRow.deadline_at <= now
    )
    return [(game_id, turn) for game_id, turn in session.execute(query)]


LEFT_READY_AFTER = timedelta(seconds=15)
"""How long after a write that may complete the open turn the scheduler looks whether every order
of it is ready (:func:`ready_checks_due`): the request that made the write is resolving the turn
itself meanwhile (16 bots' knockouts can take seconds), and two doing the same work would only
share the machine's cores."""


def _look_for_all_ready(game: GameRow, *, now: datetime) -> None:
    # Kept in the row, not in the scheduler's memory: a server stopped between the commit and the
    # work after it finds the turn at its next start's first polls.
    game.ready_check_at = now + LEFT_READY_AFTER


def ready_checks_due(session: Session, *, now: datetime | None) -> list[tuple[int, datetime]]:
    """(game id, ready_check_at) of each game whose open turn the scheduler is to look at now, to
    see whether every order is ready (:func:`advance`): a write that may have completed the turn
    was made at least :data:`LEFT_READY_AFTER` ago (``now`` None: every game a write marked, however
    recently). Read from the column's index: the games nobody plays any more cost nothing here."""
    marked = GameRow.ready_check_at.is_not(None) if now is None else GameRow.ready_check_at <= now
    query = select(GameRow.id, GameRow.ready_check_at).where(marked)
    return [(game_id, at) for game_id, at in session.execute(query) if at is not None]


def ready_check_done(session: Session, *, game_id: int, at: datetime) -> bool:
    """The scheduler has looked at the game made due at ``at``: it is not due any more, unless a
    write since made it due again (a later time, kept). Returns whether it was cleared."""
    cleared = session.execute(
        update(_GAMES)
        .where(_GAMES.c.id == game_id, _GAMES.c.ready_check_at == bindparam("at"))
        .values(ready_check_at=None),
        {"at": at},
    )
    return bool(getattr(cleared, "rowcount", 0))


def public_ids(session: Session, game_ids: list[int]) -> dict[int, str]:
    """The public id (the one in the pages' addresses) of each game of ``game_ids``."""
    if not game_ids:
        return {}
    query = select(GameRow.id, GameRow.public_id).where(GameRow.id.in_(game_ids))
    return {game_id: public_id for game_id, public_id in session.execute(query)}


def _require_deadline(game: GameRow) -> None:
    if game.turn_seconds is None:
        raise Conflict(
            "this game has no deadline: its turns are resolved when all orders are ready; while it runs, "
            "the organiser may set one (Set a deadline), which every later turn keeps"
        )


def check_deadline_ahead(deadline_at: datetime, now: datetime, *, field: str, what: str) -> None:
    """Refuse, with :class:`Invalid` on ``field``, a deadline more than :data:`MAX_DEADLINE_AHEAD`
    seconds after ``now``; ``what`` says what would put it there (the message's first words)."""
    ahead = (deadline_at - now).total_seconds()
    if ahead > MAX_DEADLINE_AHEAD:
        raise Invalid(
            f"{what} would put the deadline at {deadline_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC, more than "
            f"{MAX_DEADLINE_AHEAD:,} seconds (68 years) from now, the furthest a deadline may be; "
            "choose an earlier one",
            field=field,
        )


def pause_game(session: Session, *, game_id: int, now: datetime, actor: str) -> GameRow:
    """Stop the deadline clock, keeping the time left (recorded with who and when)."""
    game = lock_game(session, game_id=game_id)
    _require_deadline(game)
    if game.status != GameStatus.RUNNING or game.deadline_at is None:
        raise Conflict(f"only a running game can be paused; this one is {game.status.said}")
    game.paused_remaining = max(0, int((game.deadline_at - now).total_seconds()))
    game.deadline_at = None
    game.status = GameStatus.PAUSED
    _event(session, game, now=now, actor=actor, kind="paused", detail=f"{game.paused_remaining} s left")
    session.flush()
    return game


def resume_game(session: Session, *, game_id: int, now: datetime, actor: str) -> GameRow:
    """Restart the deadline clock with the time that was left."""
    game = lock_game(session, game_id=game_id)
    if game.status != GameStatus.PAUSED:
        raise Conflict(f"only a paused game can be resumed; this one is {game.status.said}")
    game.deadline_at = now + timedelta(seconds=game.paused_remaining or 0)
    game.paused_remaining = None
    game.status = GameStatus.RUNNING
    _event(
        session, game, now=now, actor=actor, kind="resumed", detail=f"deadline {game.deadline_at.isoformat()}"
    )
    session.flush()
    return game


def extend_deadline(session: Session, *, game_id: int, seconds: int, now: datetime, actor: str) -> GameRow:
    """Move the open turn's deadline later by ``seconds`` (recorded with who and when).

    Raises:
        Invalid: not between 1 minute and 30 days, or the deadline would then be more than
            :data:`MAX_DEADLINE_AHEAD` from now.
        Conflict: the game has no deadline or is not running.
    """
    if not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        raise Invalid(f"extend by 1 minute to 30 days; got {seconds} seconds", field="seconds")
    game = lock_game(session, game_id=game_id)
    _require_deadline(game)
    said = "this extension"
    if game.status == GameStatus.PAUSED:
        left = (game.paused_remaining or 0) + seconds
        check_deadline_ahead(now + timedelta(seconds=left), now, field="seconds", what=said)
        game.paused_remaining = left
    elif game.status == GameStatus.RUNNING and game.deadline_at is not None:
        later = game.deadline_at + timedelta(seconds=seconds)
        check_deadline_ahead(later, now, field="seconds", what=said)
        game.deadline_at = later
    else:
        raise Conflict(
            f"only a running or paused game has a deadline to extend; this one is {game.status.said}"
        )
    _event(session, game, now=now, actor=actor, kind="extended", detail=f"+{seconds} s")
    session.flush()
    return game


def set_deadline(session: Session, *, game_id: int, seconds: int, now: datetime, actor: str) -> GameRow:
    """Set the open turn's time left to ``seconds`` from ``now``: bring the deadline forward or put
    it back (recorded with who and when). A paused game keeps that much for its Resume. As with an
    extension, a deadline that has passed but whose turn is not resolved yet is reopened.

    A running game created without a deadline (its turns resolved when all are ready) gets one
    from now on: the open turn closes ``seconds`` from ``now`` and every later turn lasts
    ``seconds`` too, as if it had been created with that deadline (its rematch keeps it). There is
    no way back to no deadline; pause, extend and set it again as for any game with a deadline.

    Raises:
        Invalid: not between 1 minute and 30 days from now (a deadline in the past, or further
            than a turn may last).
        Conflict: the game is not running or paused (a game without a deadline: not running).
    """
    if not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        raise Invalid(f"set the time left to 1 minute to 30 days from now; got {seconds} seconds", field="seconds")
    game = lock_game(session, game_id=game_id)
    if game.turn_seconds is None:
        if game.status != GameStatus.RUNNING:
            raise Conflict(
                "this game has no deadline: one can be set while it is running, for the open turn and "
                f"every later one; this one is {game.status.said}"
            )
        game.turn_seconds = seconds
        game.deadline_at = now + timedelta(seconds=seconds)
        detail = f"turns of {seconds} s from now on; deadline {game.deadline_at.isoformat()}"
        _event(session, game, now=now, actor=actor, kind="deadline set", detail=detail)
        session.flush()
        return game
    if game.status == GameStatus.PAUSED:
        game.paused_remaining = seconds
        detail = f"{seconds} s left"
    elif game.status == GameStatus.RUNNING and game.deadline_at is not None:
        game.deadline_at = now + timedelta(seconds=seconds)
        detail = f"deadline {game.deadline_at.isoformat()}"
    else:
        raise Conflict(f"only a running or paused game has a deadline to set; this one is {game.status.said}")
    _event(session, game, now=now, actor=actor, kind="deadline set", detail=detail)
    session.flush()
    return game


def set_deadline_at(session: Session, *, game_id: int, deadline_at: datetime, now: datetime, actor: str) -> GameRow:
    """Set the open turn's deadline to a clock time, ``deadline_at`` (timezone-aware), as the
    organiser reads a calendar: "Sunday 20:00" (recorded with who and when). Only the open turn's
    deadline moves; the later turns keep their length.

    A game without a deadline is not given its first one here, by design: a first deadline also
    fixes how long every later turn lasts, for good (:func:`set_deadline`), and a clock time says
    only when this turn closes. Taking the time from now to it as the length would leave a game
    with turns of, say, 4 days 5 h 23 min and no way to change them.

    Raises:
        Invalid: less than 1 minute from ``now`` (a time passed), or more than
            :data:`MAX_DEADLINE_AHEAD` from it.
        Conflict: the game has no deadline yet (set one in hours first, which every later turn
            keeps), is paused (its time left is what Resume restarts), or is over; said before a
            wrong time, which would not make it right.
    """
    if deadline_at.tzinfo is None:
        raise ValueError("deadline_at must be timezone-aware")
    game = lock_game(session, game_id=game_id)
    if game.turn_seconds is None:
        raise Conflict(
            "this game has no deadline, and a clock time cannot be its first: a first deadline also sets "
            "how long every later turn lasts, for good, where a clock time says only when this turn closes. "
            "Set one in hours first (Set a deadline on the organiser page, hours in the API): this turn closes "
            "that many hours from now and every later turn lasts as long; then move this turn's deadline to "
            "the clock time"
        )
    if game.status == GameStatus.PAUSED:
        raise Conflict(
            "the game is paused: its deadline is a time left, not a clock time; resume it first, or set "
            "the time left in hours, which it keeps for its Resume"
        )
    if game.status != GameStatus.RUNNING or game.deadline_at is None:
        raise Conflict(f"only a running game has a deadline to set; this one is {game.status.said}")
    deadline_at = deadline_at.astimezone(UTC)
    shown = f"{deadline_at:%Y-%m-%d %H:%M} UTC"
    if (deadline_at - now).total_seconds() < MIN_TURN_SECONDS:
        passed = "has passed" if deadline_at <= now else "is less than 1 minute from now"
        raise Invalid(
            f"the deadline {shown} {passed} (it is {now.astimezone(UTC):%Y-%m-%d %H:%M} UTC): choose a time "
            "at least 1 minute on",
            field="at",
        )
    check_deadline_ahead(deadline_at, now, field="at", what="this time")
    game.deadline_at = deadline_at
    _event(session, game, now=now, actor=actor, kind="deadline set", detail=f"deadline {deadline_at.isoformat()}")
    session.flush()
    return game


def end_game(session: Session, *, game_id: int, now: datetime, actor: str) -> GameRow:
    """Stop a game before its end; the seed is then revealed (no die is left to throw)."""
    game = lock_game(session, game_id=game_id)
    if game.status in (GameStatus.FINISHED, GameStatus.ENDED):
        raise Conflict(f"the game is already {game.status.value}")
    game.status = GameStatus.ENDED
    game.deadline_at = None
    game.paused_remaining = None
    game.ready_check_at = None
    game.ended_at = now
    _event(session, game, now=now, actor=actor, kind="ended")
    session.flush()
    return game


def _bots_closed_at_deadline(game: GameRow, *, now: datetime) -> None:
    """Refuse a change of the bot that plays a team's missed order once the open turn's deadline has
    passed: that turn is resolved as it stood at the deadline, autopilots included, however long
    the scheduler takes to get to it (R13)."""
    if past_deadline(game.status, game.deadline_at, now):
        raise Conflict(
            f"the deadline of turn {game.current_turn} has passed ({game.deadline_at:%Y-%m-%d %H:%M:%S} UTC), "
            "so its bots can no longer be chosen: the server plays the turn with the bots chosen before its "
            f"deadline {_UNLESS_REOPENED}, and choose again (the choice plays from the turn open then)"
        )


def set_autopilot(
    session: Session,
    *,
    game_id: int,
    player_id: str,
    team_id: str,
    strategy: str,
    now: datetime,
    principal_id: int | None = None,
) -> TeamRow:
    """Pick the bot that plays a team's missed orders (R13). ``principal_id``: the credential
    asking, which must still play the seat once the game is locked, as for an order.

    Raises:
        Invalid: an unknown bot.
        Refused: not the player's team; SeatSignedOut: the credential no longer plays the seat.
        Conflict: the game is over, or the team is out of the tournament: no bot plays for it any more;
            or the open turn's deadline has passed (the turn is resolved as it stood then).
    """
    strategy = check_bot_name(strategy, "autopilot")
    # The game's lock, as an order and a sign-out take it: a sign-out sets the seat's autopilots
    # back to the game's default, and one written after it by the player it signed out would be
    # shown to whoever opens the new link (R13: a manager's choice is theirs alone).
    game = lock_game(session, game_id=game_id)
    if game.status in (GameStatus.FINISHED, GameStatus.ENDED):
        raise Conflict(f"the game is {game.status.value}: no autopilot plays for it any more")
    if principal_id is not None and player_id not in access_to(session, principal_id=principal_id, game_id=game_id).player_ids:
        raise SeatSignedOut(player_id, what="the choice of autopilot")
    team = _team_for_player(session, game=game, team_id=team_id, player_id=player_id)
    # A bot for a team that plays no more matches would never play: saying it was set misleads.
    if game.status in (GameStatus.RUNNING, GameStatus.PAUSED) and team.team_id not in load_game(game).teams_in_play():
        raise Conflict(f"{team.name} is out of the tournament and plays no more matches, so it needs no autopilot")
    _bots_closed_at_deadline(game, now=now)
    team.autopilot = strategy
    session.flush()
    return team


def house_teams(
    session: Session,
    *,
    game: GameRow,
    state: Game | None = None,
    seats: list[SeatRow] | None = None,
    teams: list[TeamRow] | None = None,
) -> list[TeamRow]:
    """The teams in play that nobody plays: house teams (R12) and teams whose manager has not taken
    their seat (R13). The organiser picks their bots (:func:`set_house_bot`). ``state``: the game
    as :func:`load_game` gives it, and ``seats`` and ``teams`` its rows, if the caller has them already."""
    if game.status not in (GameStatus.RUNNING, GameStatus.PAUSED):
        return []
    seats = seats_of(session, game_id=game.id) if seats is None else seats
    claimed = taken_seats(seats)
    in_play = set((state or load_game(game)).teams_in_play())
    teams = teams_of(session, game_id=game.id) if teams is None else teams
    return [t for t in teams if t.team_id in in_play and t.player_id not in claimed]


def taken_seats(seats: Iterable[SeatRow]) -> set[str]:
    """The seats someone has taken (joined), by player id."""
    return {s.player_id for s in seats if s.joined_at is not None}


def default_for(game: GameRow, seat_taken: bool) -> str:
    """The bot that plays a team with no autopilot chosen for it (R13): the game's default
    autopilot if its manager has taken their seat, else its default bot (a house team, or a seat
    not taken yet or handed to the bots)."""
    return game.default_autopilot if seat_taken else game.default_bot


def house_bot(session: Session, *, game: GameRow, team_id: str) -> str | None:
    """The bot that plays ``team_id`` if nobody plays it (a house team, or one whose manager has not
    taken their seat); ``None`` for a manager's team (their autopilot is theirs to know)."""
    team = session.scalar(select(TeamRow).where(TeamRow.game_id == game.id, TeamRow.team_id == team_id))
    seat = None
    if team is not None and team.player_id is not None:
        seat = session.scalar(
            select(SeatRow).where(SeatRow.game_id == game.id, SeatRow.player_id == team.player_id)
        )
    return house_bot_of(game, team, seat)


def house_bot_of(game: GameRow, team: TeamRow | None, seat: SeatRow | None) -> str | None:
    """:func:`house_bot` from rows already read: ``seat`` is the seat of ``team``'s manager."""
    if team is None or (team.player_id is not None and seat is not None and seat.joined_at is not None):
        return None
    return team.autopilot or default_for(game, False)


def set_house_bot(
    session: Session, *, game_id: int, team_id: str, strategy: str, now: datetime, actor: str = "organiser"
) -> TeamRow:
    """The organiser picks the bot that plays a team nobody plays (:func:`house_teams`), logged as
    an event; a manager who has taken their seat picks their own team's autopilot.

    Raises:
        Invalid: an unknown bot.
        NotFound: no such team.
        Refused: the team's manager has taken their seat.
        Conflict: the game has not started, or it is over; or the open turn's deadline has passed.
    """
    strategy = check_bot_name(strategy)
    game = session.get(GameRow, game_id)
    if game is None:
        raise NotFound("no such game")
    if game.status not in (GameStatus.RUNNING, GameStatus.PAUSED):
        raise Conflict(
            "the bots of teams nobody plays are chosen after the start (the draw makes the teams) "
            "and until the game is over"
        )
    team = session.scalar(select(TeamRow).where(TeamRow.game_id == game.id, TeamRow.team_id == team_id))
    if team is None:
        raise NotFound(f"no team {quoted(team_id)} in this game")
    if team.team_id not in load_game(game).teams_in_play():
        raise Conflict(f"{team.name} is out of the tournament: it plays no more matches")
    if house_bot(session, game=game, team_id=team.team_id) is None:
        raise Refused(f"{team.name}'s manager has taken their seat: only they choose its autopilot")
    _bots_closed_at_deadline(game, now=now)
    team.autopilot = strategy
    _event(session, game, now=now, actor=actor, kind="house bot", detail=f"{team.team_id}: {strategy}")
    session.flush()
    return team


def count_games(session: Session) -> int:
    """How many games the database holds."""
    return int(session.scalar(select(func.count()).select_from(GameRow)) or 0)
