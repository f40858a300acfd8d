"""The JSON API under /api/v1: everything a player or a bot does, each bot with its own bearer token.

A bot joins a game with its invite (``POST /api/v1/join``) and gets a token; joining more games with
the same token (sent as ``Authorization: Bearer``) adds them to that credential, so
``GET /api/v1/waiting`` lists every game waiting for its orders.
"""

from __future__ import annotations

import functools
import json
import re
from datetime import datetime, timedelta
from typing import Annotated, Any, ClassVar, Literal, NamedTuple

import anyio
import anyio.to_thread
from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
)
from pydantic_core import PydanticCustomError
from sqlalchemy.orm import Session, sessionmaker

from sevens.bots import describe
from sevens.bots.pacing import WEIGHTED
from sevens.store import games as store
from sevens.store import retention
from sevens.store.auth import (
    Access,
    access_and_seats_held,
    access_to,
    add_grant,
    bot_seat,
    check_one_seat,
    create_principal,
    delete_principal,
    deleted_with_its_game,
    find_principal,
    game_by_organiser_link,
    grants_of,
    holds_invited_seat,
    lock_token,
    seat_by_invite,
)
from sevens.store.errors import Conflict, Invalid, NotFound, Refused, UnplayableOrder
from sevens.store.models import ApiPrincipal, GameRow, GameStatus, PrincipalKind, Role, SeatRow, Visibility
from sevens.tournament.formats import format_asked
from sevens.tournament.quoting import quoted
from sevens.web import results_csv, schemas, views
from sevens.web.conditional import NOT_MODIFIED, answer_if_changed, refuse_if_match
from sevens.web.deps import (
    ORGANISER_LINK_WRONG,
    UNKNOWN_TOKEN,
    AuthorizationDep,
    BotDep,
    ClockDep,
    LimiterDep,
    SessionDep,
    bot_token,
    current_principal,
    give_back_db_turn,
    new_credential_allowed,
    new_game_allowed,
    organiser_act_allowed,
    refuse_bot_token,
    token_of_deleted_game,
)
from sevens.web.odds_queue import OddsQueue
from sevens.web.schemas import error_responses
from sevens.web.security import RateLimiter, client_key
from sevens.web.strict import refuse_unknown_input

__all__ = ["NOT_ORGANISER", "document_refusals_only_as_sent", "router"]

# Refusals any operation gives, whatever it does: a 422 for input it does not know
# (sevens.web.strict: a typo in a field or query parameter is said, not dropped), a 413 for a body
# over the limit (checked before the operation runs, so also where it takes none), a 415 for a
# body with a Content-Encoding (sevens.web.security.BodyLimit) and a 400 for a Host it does not
# answer to (sevens.web.hosts) or a NUL in an id (PostgreSQL looks none up); and a 503 with
# Retry-After when the database cannot be used (sevens.web.app), which no caller can rule out,
# nor a 500 (an unexpected failure, with a reference; or a game whose stored record is damaged).
# Every write also lists 412, for a request sent with If-Match (sevens.web.conditional).
router = APIRouter(
    prefix="/api/v1",
    tags=["api"],
    dependencies=[Depends(refuse_unknown_input), Depends(refuse_if_match)],
    responses=error_responses(400, 413, 415, 422, 500, 503),
)


_PATH_PARAMETERS: dict[tuple[str, str], dict[str, Any]] = {
    ("path", "public_id"): {"description": "the game's public id (the `game` a creation or a join answers)",
                            "example": "gkpLXi037LwL"},
    ("path", "team"): {"description": "a team's id, its name in lower case with '-' for spaces",
                       "example": "new-zealand"},
    ("query", "force"): {"description": "FORCE points of the draft (R3); absent: 0, said in assumed_zero"},
    ("query", "flair"): {"description": "FLAIR points of the draft, a multiple of 3 (R3); absent: 0, said in assumed_zero"},
    ("path", "player"): {"description": "a seat's id: p1, p2, ... up to the game's players", "example": "p1"},
}


def document_refusals_only_as_sent(app: FastAPI) -> None:
    """Build ``app``'s OpenAPI document without FastAPI's own 422 (a list of errors): it adds one
    to every operation with a parameter, but the server sends ``{"detail": ...}`` (ErrorAnswer),
    which the router lists for every operation (each refuses a query parameter it does not take)."""
    build = app.openapi

    def document() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        built = build()  # cached by FastAPI as app.openapi_schema: changed here once
        for item in built["paths"].values():
            for operation in item.values():
                answer = operation["responses"].get("422", {})
                if "HTTPValidationError" in json.dumps(answer):
                    del operation["responses"]["422"]
        for item in built["paths"].values():  # the ids in an address, in the forms a client cannot guess
            for operation in item.values():
                for parameter in operation.get("parameters", []):
                    parameter.update(_PATH_PARAMETERS.get((parameter["in"], parameter["name"]), {}))
        for name in ("HTTPValidationError", "ValidationError"):
            built.get("components", {}).get("schemas", {}).pop(name, None)
        return built

    app.openapi = document  # type: ignore[method-assign]


class JoinRequest(BaseModel):
    """Claim a seat with its invite: the link, or its last part (the secret)."""

    model_config = ConfigDict(extra="forbid")
    ELSEWHERE: ClassVar[dict[str, str]] = {"token": "a bot token is sent as 'Authorization: Bearer <token>'"}
    invite: str = Field(
        min_length=1,
        max_length=200,
        description="the invite link, or its last part (the secret)",
        examples=["https://sevens.example/join/clcaVwni3K41WM2btTXgtIQlCq7HksF6"],
    )
    name: str = Field(
        min_length=1,
        max_length=2000,  # as the join form; the name's own limit is counted once it is kept (store.games)
        description=(
            f"display name, up to {store.NAME_LENGTH} characters as a reader counts them (a flag or an emoji is one) "
            f"and {store.NAME_POINTS} code points, as kept (NFC, spaces made single; docs/web.md); a seat that had one when the game started keeps it (it is in the record); "
            "asking again for a seat taken in the lobby, send its name (another gets 422)"
        ),
    )


class JoinResponse(BaseModel):
    """The seat claimed and the name it plays under (the one sent, unless the seat was taken after
    the start: then the record's); ``token`` is new only when the call carried no bearer token."""

    game: str = schemas.GAME_ID
    player: str = schemas.PLAYER_ID
    name: str = Field(description="the name the seat plays under")
    token: str | None = Field(
        description="a new bearer token, to send as 'Authorization: Bearer <token>'; null when the call carried one "
        "(the seat is added to it)",
        examples=["dEEb9Sc9RZCHnLRZ_Uc0A243WAyfguVb"],
    )
    note: str | None = Field(
        description=(
            "why `name` is not the name sent (a seat taken after the start keeps the record's), and that the "
            "game is over if it is (the seat is joined, to read, but nothing is left to play); null otherwise"
        )
    )


class OrderRequest(BaseModel):
    """An order for one team, tagged with the turn it is for (R3)."""

    model_config = ConfigDict(extra="forbid")
    ELSEWHERE: ClassVar[dict[str, str]] = {  # said when a refused field's name is close to one
        "autopilot": "a team's autopilot is set by PUT /api/v1/games/{id}/autopilot/{team}",
        "team": "the team is named in the address, /orders/{team}",
    }
    # Said when a field is left out: an order nobody gave is never read as 0 + 0.
    MISSING: ClassVar[dict[str, str]] = {
        "turn": "send the number of the open turn (the 'turn' of GET /api/v1/games/{id}/state)",
        "force": "send the FORCE points, a whole number; 0 spends none on FORCE",
        "flair": "send the FLAIR points, a multiple of 3; 0 spends none on FLAIR",
    }
    # No upper bound: a turn past the game's last is a turn that is not open (409, saying which is),
    # as a past one is, not a malformed request.
    turn: StrictInt = Field(ge=1, description="the open turn's number (R3: an order is for one match); another: 409")
    force: StrictInt = Field(ge=0, le=1000, description="FORCE points, a whole number (R3)")
    flair: StrictInt = Field(ge=0, le=1000, description="FLAIR points, a multiple of 3 (R3); force + flair at most the team's SCRUM")
    ready: StrictBool = Field(default=False, description="true: final for the turn; false or absent: a draft")


class OrderResponse(BaseModel):
    """The order as saved (visible only to its owner until the turn is resolved, R13)."""

    game: str = schemas.GAME_ID
    turn: int = Field(description="the turn it is for")
    team: str = schemas.TEAM_ID
    force: int = Field(description="FORCE points (R3)")
    flair: int = Field(description="FLAIR points (R3)")
    ready: bool = Field(description="true: final for the turn; false: a draft")
    resolved: bool = Field(
        description="true if this order completed the turn and this request resolved it (of two last orders "
        "racing, one says true)"
    )
    held_up: str | None = Field(
        description="null, or why the turn this ready order completed is still open: another saved order the "
        "rules refuse holds it up (its team and rule, never its numbers, R13); this order is kept all the same",
    )


class AutopilotRequest(BaseModel):
    """The bot that plays a team's missed orders (R13)."""

    model_config = ConfigDict(extra="forbid")
    ELSEWHERE: ClassVar[dict[str, str]] = {
        "weight": "a knockout weight goes after '@' in the strategy, as 'field-reader@1'",
        "team": "the team is named in the address",
    }
    strategy: str = Field(
        min_length=1,
        max_length=40,
        description="a bot of GET /api/v1/strategies, with a knockout weight after '@' for a weighted one",
        examples=["field-reader@1"],
    )


class WaitingGame(BaseModel):
    """A game with a turn open for one of the caller's teams."""

    game: str = schemas.GAME_ID
    name: str = Field(description="the game's name")
    turn: int = Field(description="the open turn")
    status: Literal["running", "paused"] = Field(
        description="paused: the organiser stopped the deadline clock (deadline is null until it resumes)"
    )
    deadline: str | None = Field(
        description="when the turn closes (ISO 8601, UTC); null while paused and in a game without a deadline"
    )
    teams: list[str] = Field(description="the caller's teams in play this turn")
    ready: list[str] = Field(description="those already marked ready")


def _game_for_bot(db: SessionDep, principal_id: int | None, public_id: str) -> tuple[GameRow, str | None, bool]:
    """The game, and the caller's seat in it and whether they organise it; a private game is
    found only by its players and organiser (``principal_id`` None: nobody's token)."""
    game = store.game_by_public_id(db, public_id=public_id)
    if principal_id is None:
        return _found_by(game, Access(), public_id), None, False
    access = access_to(db, principal_id=principal_id, game_id=game.id)
    return _found_by(game, access, public_id), access.player_id, access.organiser


def _found_by(game: GameRow, access: Access, public_id: str) -> GameRow:
    """The game, unless it is private and ``access`` is none: then nobody is told it exists."""
    if game.visibility != Visibility.PUBLIC and not (access.organiser or access.player_ids):
        raise HTTPException(status_code=404, detail=store.no_such_game(public_id))
    return game


def secret_in(sent: str) -> str:
    """The secret in a link as a person copies it (``https://host/join/SECRET``, maybe with a
    trailing slash, a query or a fragment) or in the secret sent alone: the last part of its path.
    A secret holds no '/', so one sent alone is itself.

    >>> secret_in("https://sevens.example/join/Ab_9-x?utm=mail#top"), secret_in(" Ab_9-x ")
    ('Ab_9-x', 'Ab_9-x')
    """
    path = sent.strip().split("#", 1)[0].split("?", 1)[0]
    return path.rstrip("/").rsplit("/", 1)[-1]


def _player_or_refuse(player_id: str | None) -> str:
    if player_id is None:
        # Also what a token whose seat was signed out or handed to the bots meets: its invite is
        # used up, so "join with its invite" alone would send its bot round in a circle.
        raise Refused(
            "this token plays no seat in this game, so nothing was done: join it with its invite; if it played "
            "a seat until now, the organiser has signed it out or handed the seat to the bots, and only a new "
            "invite link from them opens the seat again"
        )
    return player_id


def _optional_bot(
    db: SessionDep, authorization: str | None, *, key: str, limiter: RateLimiter, now: datetime,
    dead_as_none: bool = False,
) -> ApiPrincipal | None:
    """The bot credential sent, if any (a wrong one is refused and counted). A request without one
    is not held back by the limiter here: it carries no secret, unless its body does.
    ``dead_as_none``: a token that went with its deleted game counts as none sent (a join, which
    its 401 tells the bot to make for a new token: a client that keeps sending it must get one)."""
    scheme, _, sent = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not sent.strip():
        return None
    principal = find_principal(db, token=sent.strip(), kind=PrincipalKind.BOT, now=now)
    if principal is None:
        if dead_as_none and deleted_with_its_game(db, token=sent.strip()) is not None:
            return None
        raise refuse_bot_token(db, sent.strip(), key, limiter)
    return principal


@router.post(
    "/join", response_model=JoinResponse, responses=error_responses(401, 404, 409, 410, 412, 422, 429)
)
def join(
    body: JoinRequest,
    request: Request,
    db: SessionDep,
    clock: ClockDep,
    limiter: LimiterDep,
    authorization: AuthorizationDep,
) -> JoinResponse:
    """Claim a seat with its invite; returns a new bot token unless a valid one was sent."""
    key = client_key(request)
    now = clock()
    principal = _optional_bot(db, authorization, key=key, limiter=limiter, now=now, dead_as_none=True)
    token: str | None = None
    seat = seat_by_invite(db, token=secret_in(body.invite))
    if seat is None:
        raise limiter.refused(
            key, HTTPException(status_code=404, detail="this invite is not valid; ask the organiser for a new one")
        )
    game = store.game_by_id(db, game_id=seat.game_id)
    principal_id = None if principal is None else principal.id
    if holds_invited_seat(db, seat=seat, principal_id=principal_id, now=now):
        # The token that joined with it, asking again: the same seat, under the same name.
        store.check_name_again(game, seat, body.name)
        return _joined(game, seat, body.name, token=None)
    if principal_id is not None:  # under the game's lock, so two joins at once with one token take one seat
        store.lock_game(db, game_id=seat.game_id)
        if not lock_token(db, principal_id=principal_id).live:  # its only game deleted meanwhile
            principal = principal_id = None
    check_one_seat(db, principal_id=principal_id, seat=seat, holder="this token")
    store.join_seat(db, seat=seat, name=body.name, now=now)
    if principal is None:
        # Labelled with the name the seat plays under, not the one sent: a seat taken after the
        # start keeps the record's, and a name is tidied (spaces, accents). Remove name finds the
        # token by the seat's name; the sent one would be kept, unseen, for the token's life.
        principal, token = create_principal(db, kind=PrincipalKind.BOT, now=now, label=store.seat_name(seat))
    else:
        store.label_joined_token(principal, seat)
    add_grant(db, principal_id=principal.id, game_id=seat.game_id, role=Role.PLAYER, player_id=seat.player_id)
    db.commit()
    return _joined(game, seat, body.name, token=token)


def _lock_live_or_refuse(db: Session, principal: ApiPrincipal) -> None:
    """Lock the caller's bot token before a grant is added to it (after the game's lock, as the
    join and *Delete game* take them). A deletion of its only game that committed since the token
    was read made it a marker: the grant would go to a token refused everywhere, so the caller is
    told now what it would be told on its next call."""
    locked = lock_token(db, principal_id=principal.id)
    if locked.live:
        return
    deleted_at = locked.game_deleted_at
    db.rollback()
    detail = UNKNOWN_TOKEN if deleted_at is None else token_of_deleted_game(deleted_at)
    raise HTTPException(status_code=401, detail=detail, headers={"WWW-Authenticate": "Bearer"})


def _joined(game: GameRow, seat: SeatRow, sent: str, *, token: str | None) -> JoinResponse:
    # A game over is said, as the invite's page says it: the seat is joined (its view and the
    # record are the token's to read), but nothing is left to play.
    over = None
    if game.status in (GameStatus.FINISHED, GameStatus.ENDED):
        how = "finished" if game.status is GameStatus.FINISHED else "ended early by its organiser"
        over = f"the game is over ({how}): nothing is left to play; this token reads the seat's view and the record"
    notes = [n for n in (store.kept_name_note(seat, sent), over) if n is not None]
    return JoinResponse(
        game=game.public_id,
        player=seat.player_id,
        name=store.seat_name(seat),
        token=token,
        note="; ".join(notes) or None,
    )


@router.get("/me", response_model=schemas.MeAnswer, responses=error_responses(401, 429))
def me(principal: BotDep, db: SessionDep) -> Response:
    """The caller's seats and organised games."""
    out = []
    for grant in grants_of(db, principal_id=principal.id):
        game = store.game_by_id(db, game_id=grant.game_id)
        out.append({"game": game.public_id, "role": grant.role.value, "player": grant.player_id or None})
    return JSONResponse({"label": principal.label, "grants": out})


@router.delete("/me", status_code=204, responses=error_responses(401, 412, 429))
def revoke(principal: BotDep, db: SessionDep, clock: ClockDep) -> Response:
    """Revoke the caller's token: it and its grants are deleted, and the token opens nothing after.
    A seat nobody else plays now is said to have been left in its game's event log."""
    store.log_seats_left(db, principal_id=principal.id, now=clock(), how="its bot token was revoked")
    delete_principal(db, principal_id=principal.id)
    db.commit()
    return Response(status_code=204)


@router.get("/waiting", response_model=list[WaitingGame], responses=error_responses(401, 429))
def waiting(principal: BotDep, db: SessionDep, clock: ClockDep) -> list[WaitingGame]:
    """Games waiting for the caller's orders: an open turn with one of its teams in play, not all
    ready, whose deadline has not passed."""
    found: list[WaitingGame] = []
    now = clock()
    for grant in grants_of(db, principal_id=principal.id):
        if grant.role != Role.PLAYER:
            continue
        game = store.game_by_id(db, game_id=grant.game_id)
        if game.status not in (GameStatus.RUNNING, GameStatus.PAUSED):
            continue
        if store.past_deadline(game.status, game.deadline_at, now):
            # Its orders are closed until the scheduler resolves the turn (a few seconds) or the
            # organiser reopens it by a pause or an extension (then it is listed again): listing it
            # would have a bot order, be refused with 409, and ask again at once, until then.
            continue
        view = views.player_view(db, game, grant.player_id)
        playing = [t.info.id for t in view.teams if t.match is not None]
        ready = [t.info.id for t in view.teams if t.match is not None and t.order and t.order["ready"]]
        if playing and len(ready) < len(playing):
            found.append(
                WaitingGame(
                    game=game.public_id,
                    name=game.name,
                    turn=game.current_turn,
                    status="paused" if game.status == GameStatus.PAUSED else "running",
                    deadline=None if game.deadline_at is None else game.deadline_at.isoformat(),
                    teams=playing,
                    ready=ready,
                )
            )
    return found


@router.get("/strategies", response_model=schemas.StrategiesAnswer)
def strategies() -> Response:
    """The bots a team's autopilot may be (R13), with a few words on each; those in ``weighted``
    also take a knockout weight after '@' (``"field-reader@1"``)."""
    names = store.strategy_names()
    return JSONResponse(
        {
            "strategies": list(names),
            "weighted": list(WEIGHTED),
            "default": views.default_bot(),
            "about": {n: describe(n) for n in names},
        }
    )


class Reader(NamedTuple):
    """A game as one caller reads it: the game, the caller's seat in it, whether the caller
    organises it, the caller's credential (None: no token), and the seats some credential plays
    (read with the caller's access, for the organiser's view; None without a token)."""

    row: GameRow
    player_id: str | None
    organiser: bool
    principal_id: int | None
    held: frozenset[str] | None


def _readable_game(
    public_id: str,
    request: Request,
    db: SessionDep,
    clock: ClockDep,
    limiter: LimiterDep,
    authorization: AuthorizationDep,
) -> Reader:
    """A game read with the caller's bearer token, or with none for a public game (as its page
    needs none)."""
    principal = _optional_bot(db, authorization, key=client_key(request), limiter=limiter, now=clock())
    if principal is None:
        return Reader(*_game_for_bot(db, None, public_id), None, None)
    game = store.game_by_public_id(db, public_id=public_id)
    # One statement for both: the organiser's view needs the seats someone plays as well.
    access, held = access_and_seats_held(db, principal_id=principal.id, game_id=game.id)
    return Reader(_found_by(game, access, public_id), access.player_id, access.organiser, principal.id, held)


ReadableGame = Annotated[Reader, Depends(_readable_game)]


def _with_sequels(db: Session, row: GameRow, principal_id: int | None, view: dict[str, Any]) -> dict[str, Any]:
    """The view with the game's ``rematch`` and the game it is the ``rematch_of``, each named only
    to a caller who may see it, by the pages' rule (store.rematch_of): a private game's existence
    is told to nobody outside it."""
    rematch = store.rematch_of(db, game=row, principal_id=principal_id)
    previous = store.previous_game(db, game=row, principal_id=principal_id)
    view["rematch"] = None if rematch is None else rematch.public_id
    view["rematch_of"] = None if previous is None else previous.public_id
    return view

IfNoneMatch = Annotated[
    str | None,
    Header(
        description=(
            "the ETag of the answer the caller already has: if the answer would be the same, "
            "it is 304 with no body"
        )
    ),
]
"""A view read conditionally (:mod:`sevens.web.conditional`)."""

_VIEW_ERRORS = {**NOT_MODIFIED, **error_responses(401, 404, 429)}


@router.get("/games/{public_id}/state", response_model=schemas.StateAnswer, responses=_VIEW_ERRORS)
def state(
    public_id: str,
    request: Request,
    db: SessionDep,
    clock: ClockDep,
    limiter: LimiterDep,
    authorization: AuthorizationDep,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Where the game stands, the cheap call to poll: its status, open turn and a ``version`` that
    changes when the game starts, pauses, resumes, its deadline moves, a turn is resolved, it
    ends, or a rematch the caller may see is started; for its organiser also when a seat is taken
    or left (a sign-out, a revoked token, handed to the bots), when its event log grows (any
    organiser act), when any rematch is started, when a seat's invite link expires, and when any played team's order state in the open turn changes
    (none, saved, ready: how many teams are in each, never whose or what; changing a saved order
    does not move it). For anyone else it never moves when a seat orders (R13). Read with the bearer
    token, or in a browser with its session, or with neither for a public game."""
    now = clock()
    principal = _optional_bot(db, authorization, key=client_key(request), limiter=limiter, now=now)
    if principal is None and not (authorization or "").strip():
        principal = current_principal(request, db, clock)  # a browser's session (the pages' own poll)
    row, _, organiser = _game_for_bot(db, None if principal is None else principal.id, public_id)
    principal_id = None if principal is None else principal.id
    return answer_if_changed(
        views.watch_state(db, row, organiser=organiser, principal_id=principal_id, now=now), if_none_match
    )


# The views are sent as built (JSONResponse): response_model documents them, and filtering through
# it would drop any field a model lacked (the tests check the models against real answers).
@router.get("/games/{public_id}", response_model=schemas.GameAnswer, responses=_VIEW_ERRORS)
def game(read: ReadableGame, db: SessionDep, clock: ClockDep, if_none_match: IfNoneMatch = None) -> Response:
    """The game as the caller may see it: the player's view for a seat, the organiser's for its
    organiser, both for a token that is both, else the public view (a public game needs no
    token, as its page needs none). Its ``ETag`` is a hash of this caller's answer alone."""
    return answer_if_changed(_game_view(read, db, clock), if_none_match)


def _game_view(read: Reader, db: Session, clock: ClockDep) -> dict[str, Any]:
    return _with_sequels(db, read.row, read.principal_id, _role_view(read, db, clock))


def _role_view(read: Reader, db: Session, clock: ClockDep) -> dict[str, Any]:
    row, player_id, organiser, _, held = read
    if player_id is not None and organiser:
        # Both roles' facts, none beyond them: the seat's own teams and orders, and the log,
        # invites and bots the organiser sees (who has ordered, never what, R13).
        both = views.organiser_view(db, row, now=clock(), held=held).to_dict()
        mine = views.player_view(db, row, player_id).to_dict()
        both.update(me=mine["me"], who_ordered=mine["who_ordered"], my_teams=mine["my_teams"])
        return both
    if player_id is not None:
        return views.player_view(db, row, player_id).to_dict()
    if organiser:
        return views.organiser_view(db, row, now=clock(), held=held).to_dict()
    return views.spectator_view(db, row).to_dict()


@router.get(
    "/games/{public_id}/record",
    responses={
        200: {"description": "the game record: docs/record.md, schema/game-record.schema.json"},
        **error_responses(401, 404, 409, 429),
    },
)
def record(read: ReadableGame) -> Any:
    """The game record (resolved turns; the seed after the end, R14); no token for a public game."""
    return json.loads(views.record_text(read.row))


_CSV_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {"text/csv": {"schema": {"type": "string"}}},
        "description": "CSV with a header line, UTF-8 after a byte order mark (docs/web.md, Results for a spreadsheet)",
    }
}


@router.get(
    "/games/{public_id}/standing.csv",
    response_class=Response,
    responses={**_CSV_ANSWER, **error_responses(401, 404, 429)},
)
def standing_csv(read: ReadableGame, db: SessionDep, clock: ClockDep) -> Response:
    """The final standing as CSV (place, team, manager, group, how far it went): the header alone
    until the final is played. Text that a spreadsheet would take for a formula starts with an
    apostrophe. No token for a public game."""
    return results_csv.download(views.spectator_view(db, read.row), "standing", clock().date())


@router.get(
    "/games/{public_id}/matches.csv",
    response_class=Response,
    responses={**_CSV_ANSWER, **error_responses(401, 404, 429)},
)
def matches_csv(read: ReadableGame, db: SessionDep, clock: ClockDep) -> Response:
    """Every match of the turns resolved so far as CSV, a line each in the order played (orders,
    lines, points, winner): nothing of the open turn (R13). No token for a public game."""
    return results_csv.download(views.spectator_view(db, read.row), "matches", clock().date())


@router.get(
    "/games/{public_id}/teams/{team}/view",
    response_model=schemas.TeamManagerView,
    responses={**NOT_MODIFIED, **error_responses(401, 403, 404, 409, 429)},
)
def manager_view(
    public_id: str, team: str, principal: BotDep, db: SessionDep, if_none_match: IfNoneMatch = None
) -> Response:
    """What the team's manager may see: its SCRUM, next opponent and theirs, the matches it may
    still play (``turns_left``, ``stages_left``: the pacing facts a house bot gets) and the tables;
    resolved turns are in the game's view. Its ``ETag`` is a hash of this answer alone. 404 for a
    team the game does not have, 403 for another seat's."""
    row, player_id, _ = _game_for_bot(db, principal.id, public_id)
    me_ = _player_or_refuse(player_id)
    if row.record_json is None:
        # No team is anyone's before the start: "not one of your teams" (403) would be untrue.
        if row.status is GameStatus.ENDED:
            raise Conflict("the game was ended before it started: no team was dealt to a seat, so there is none to view")
        raise Conflict(
            "the game has not started yet: its teams are dealt to the seats when the organiser starts it; "
            f"ask again then (GET /api/v1/games/{row.public_id}/state says when it starts)"
        )
    view = views.player_view(db, row, me_)
    mine = next((t for t in view.teams if t.info.id == team), None)
    if mine is None and team not in {t.team_id for t in store.teams_of(db, game_id=row.id)}:
        # Not a team of this game at all: 404, as its odds and orders say, not "not yours" (403).
        raise NotFound(
            f"this game has no team {quoted(team)}; yours are in my_teams of GET /api/v1/games/{row.public_id}"
        )
    if mine is None:
        raise Refused(
            f"{quoted(team)} is not one of your teams; yours are in my_teams of GET /api/v1/games/{row.public_id}"
        )
    data = view.to_dict()
    # A bot paces its SCRUM over the matches left; give it them as the built-in bots get them.
    facts = store.load_game(row).view_for(team)
    answer = dict(next(t for t in data["my_teams"] if t["team"] == team))
    answer["turns_left"] = facts.turns_left
    answer["stages_left"] = [str(stage) for stage in facts.stages_left]
    return answer_if_changed(
        {
            "game": row.public_id,
            "turn": data["turn"],
            "stage": data["stage"],
            "team": answer,
            "tables": data["tables"],
        },
        if_none_match,
    )


@router.get(
    "/games/{public_id}/orders", response_model=schemas.MyOrders, responses=error_responses(401, 403, 404, 429)
)
def my_orders(public_id: str, principal: BotDep, db: SessionDep) -> Response:
    """The caller's own orders for the open turn (R13: no one else's). ``turn`` is null while no
    turn is open (the game has not started, or is over), as in ``/state``; ``orders`` is then empty."""
    row, player_id, _ = _game_for_bot(db, principal.id, public_id)
    me_ = _player_or_refuse(player_id)
    view = views.player_view(db, row, me_)
    open_turn = row.current_turn if row.status in (GameStatus.RUNNING, GameStatus.PAUSED) else None
    return JSONResponse(
        {
            "turn": open_turn,
            "orders": {t.info.id: t.order for t in view.teams if t.order is not None},
        }
    )


def _save_order_now(
    factory: sessionmaker[Session],
    *,
    authorization: str | None,
    key: str,
    limiter: RateLimiter,
    now: datetime,
    public_id: str,
    team: str,
    body: OrderRequest,
) -> dict[str, Any]:
    # The whole submission (credential, seat, save, commit) in one trip to the thread pool and one
    # session: the checks and their answers are those of BotDep, _game_for_bot and _player_or_refuse.
    token = bot_token(authorization)
    db = factory()
    try:
        seat = bot_seat(db, token=token, public_id=public_id, now=now)
        if seat is None:
            raise refuse_bot_token(db, token, key, limiter)
        if seat.game_id is None:
            raise NotFound(store.no_such_game(public_id))
        if not seat.public and not (seat.access.organiser or seat.access.player_ids):
            raise HTTPException(status_code=404, detail=store.no_such_game(public_id))
        me_ = _player_or_refuse(seat.access.player_id)
        saved = store.save_order(
            db,
            game_id=seat.game_id,
            player_id=me_,
            team_id=team,
            turn=body.turn,
            force=body.force,
            flair=body.flair,
            ready=body.ready,
            via="api",
            now=now,
            principal_id=seat.principal_id,
            then_advance=False,
        )
        result: dict[str, Any] = {
            "game": seat.public_id,
            "turn": saved.turn,
            "team": saved.team_id,
            "force": saved.force,
            "flair": saved.flair,
            "ready": saved.ready,
            "resolved": False,
            "held_up": None,
        }
        db.commit()
        if body.ready:
            # Only a ready order can complete the turn, worked out once the order is kept. Said by
            # this request's own advance: two last orders racing both find the turn moved on.
            result["resolved"], result["held_up"] = _advance_after_act(db, seat.game_id, now)
            db.commit()
        return result
    finally:
        db.rollback()
        db.close()


@router.put(
    "/games/{public_id}/orders/{team}",
    response_model=OrderResponse,
    responses=error_responses(401, 403, 404, 409, 412, 422, 429),
)
async def put_order(
    public_id: str,
    team: str,
    body: OrderRequest,
    request: Request,
    authorization: AuthorizationDep,
) -> Response:
    """Save an order for one of the caller's teams, ready or not; change it until the turn is resolved.
    A ready order is kept even when another saved order the rules refuse holds its turn up: 200,
    with ``held_up`` saying why the turn is still open."""
    state = request.app.state
    result = await anyio.to_thread.run_sync(
        functools.partial(
            _save_order_now,
            state.sessionmaker,
            authorization=authorization,
            key=client_key(request),
            limiter=state.limiter,
            now=state.clock(),
            public_id=public_id,
            team=team,
            body=body,
        ),
        limiter=state.db_limiter,
    )
    # Built here from plain values: nothing to validate again on the way out.
    return JSONResponse(result)


@router.put(
    "/games/{public_id}/autopilot/{team}",
    response_model=schemas.AutopilotAnswer,
    responses=error_responses(401, 403, 404, 409, 412, 422, 429),
)
def put_autopilot(
    public_id: str, team: str, body: AutopilotRequest, principal: BotDep, db: SessionDep, clock: ClockDep
) -> Response:
    """Pick the bot that plays the team's missed orders (R13); 409 once the open turn's deadline
    has passed, until the turn is resolved or the organiser reopens it (pause, or extend)."""
    row, player_id, _ = _game_for_bot(db, principal.id, public_id)
    me_ = _player_or_refuse(player_id)
    saved = store.set_autopilot(
        db, game_id=row.id, player_id=me_, team_id=team, strategy=body.strategy, now=clock(), principal_id=principal.id
    )
    db.commit()
    return JSONResponse({"team": saved.team_id, "autopilot": saved.autopilot or ""})


_QUERY_WHOLE = re.compile(r"[+-]?[0-9]+")


def _query_whole(value: object) -> object:
    """A whole number in the address read as the pages read one (ASCII digits, a sign, spaces
    around): int() also reads '3_0' as 30 and pydantic '3.0' as 3, so a typo would ask the odds of
    another order without a word."""
    if isinstance(value, str) and not _QUERY_WHOLE.fullmatch(value.strip()):
        raise PydanticCustomError(
            "whole_number",
            "a whole number written with the digits 0-9 alone, such as 12, got {got}",
            {"got": quoted(value)},
        )
    return value


QueryWhole = Annotated[int, Query(ge=0, le=1000), BeforeValidator(_query_whole)]


def _query_flag(value: object) -> object:
    """A yes or no in the address, written ``true`` or ``false`` as the body's JSON writes it:
    pydantic alone would also take 1, on, yes, t and True (and 0, off, no, f, False), spellings the
    POST's body refuses; one spelling each, so a client finds a mistyped one at its first call."""
    if isinstance(value, str):
        if value not in ("true", "false"):
            raise PydanticCustomError(
                "true_or_false", "true or false, in lower case as JSON writes them, got {got}", {"got": quoted(value)}
            )
        return value == "true"
    return value


LATEST_ONLY = (
    "true: this draft replaces the odds of this team that this token asked with latest_only and that are "
    "still waiting to be worked out (they get 409, never worked out), as a client asking at each keystroke wants"
)


@router.get(
    "/games/{public_id}/teams/{team}/odds",
    response_model=schemas.OddsAnswer,
    responses=error_responses(401, 403, 404, 409, 422, 429),
)
async def odds(
    public_id: str,
    team: str,
    request: Request,
    principal: BotDep,
    db: SessionDep,
    force: QueryWhole = 0,
    flair: QueryWhole = 0,
    latest_only: Annotated[bool, Query(description=LATEST_ONLY), BeforeValidator(_query_flag)] = False,
) -> Response:
    """Odds of a draft order for one's own team against plausible opposing orders."""
    left_out = [box for box in ("force", "flair") if box not in request.query_params]
    return await _draft_odds(public_id, team, request, principal, db, force, flair, left_out, latest_only)


async def _draft_odds(
    public_id: str,
    team: str,
    request: Request,
    principal: ApiPrincipal,
    db: Session,
    force: int,
    flair: int,
    left_out: list[str],
    latest_only: bool = False,
) -> Response:
    def ask() -> views.OddsQuestion:
        try:
            row, player_id, _ = _game_for_bot(db, principal.id, public_id)
            me_ = _player_or_refuse(player_id)
            return views.odds_question(db, row, player_id=me_, team_id=team, force=force, flair=flair)
        finally:
            db.close()  # the connection goes back before the odds are worked out (OddsQueue)

    question = await anyio.to_thread.run_sync(ask)
    give_back_db_turn(request)  # others use the database while the odds are worked out
    queue: OddsQueue = request.app.state.odds_queue
    # A side left out is taken as 0, and the answer says so, as the order form's odds do: the order
    # it becomes must name both (R3), and a client reading 0 + 9 should know it never wrote the 0.
    # Only this token's own waiting drafts of the team are replaced (OddsQueue), never another's.
    latest_of = ("api", team) if latest_only else None
    answer = await queue.answer(principal.id, question, latest_of=latest_of)
    return JSONResponse({**answer, "assumed_zero": left_out})


class OddsRequest(BaseModel):
    """A draft order to ask the odds of, in the body rather than the address (which access logs keep)."""

    model_config = ConfigDict(extra="forbid")
    force: StrictInt = Field(default=0, ge=0, le=1000, description="FORCE points of the draft (R3); absent: 0, said in assumed_zero")
    flair: StrictInt = Field(
        default=0, ge=0, le=1000, description="FLAIR points of the draft, a multiple of 3 (R3); absent: 0, said in assumed_zero"
    )
    latest_only: StrictBool = Field(default=False, description=LATEST_ONLY)


@router.post(
    "/games/{public_id}/teams/{team}/odds",
    response_model=schemas.OddsAnswer,
    responses=error_responses(401, 403, 404, 409, 412, 422, 429),
)
async def odds_of_draft(
    public_id: str, team: str, body: OddsRequest, request: Request, principal: BotDep, db: SessionDep
) -> Response:
    """The odds of ``GET .../odds``, with the draft in the body: an address is what a server or a
    reverse proxy in front of it keeps in its access log, and a draft is as secret as its order."""
    left_out = [box for box in ("force", "flair") if box not in body.model_fields_set]
    return await _draft_odds(public_id, team, request, principal, db, body.force, body.flair, left_out, body.latest_only)


class CreateRequest(BaseModel):
    """A new game (R6, R12, R13); ``deadline_hours`` null or absent: resolve when all are ready;
    ``teams`` and ``teams_per_player`` both absent: R12's default format for that many players; one
    of them absent: the arrangement R12 prefers among the legal ones with the other."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(
        min_length=1,
        max_length=2000,  # as the form; the name's own limit is counted once it is kept (store.games)
        description=(
            f"up to {store.MAX_GAME_NAME} characters as a reader counts them (a flag or an emoji is one) and "
            f"{store.GAME_NAME_POINTS} code points, as kept (NFC, spaces made single; docs/web.md)"
        ),
    )
    players: StrictInt = Field(ge=4, le=16, description="seats, 4 to 16 (R12)")
    teams: StrictInt | None = Field(
        default=None, description="8 or 16; absent: R12's preferred with teams_per_player, or its default"
    )
    teams_per_player: StrictInt | None = Field(
        default=None, ge=1, le=4, description="absent: R12's preferred with teams, or its default"
    )
    deadline_hours: float | None = Field(
        default=None,
        ge=0,
        le=24 * 30,
        strict=True,
        allow_inf_nan=False,  # json.loads reads NaN and Infinity, which the bounds alone misname
        description="1/60 to 720 hours; 0, null or absent: resolve when all are ready (as the form's 0)",
    )
    default_bot: str | None = Field(
        default=None, max_length=40, description="the bot of the teams nobody plays (R13); absent: equilibrium"
    )
    default_autopilot: str | None = Field(
        default=None,
        max_length=40,
        description="the bot that plays a missed order of a player in their seat who chose no autopilot of "
        "their own (R13); absent: the same as default_bot",
    )
    visibility: Literal["public", "private"] = Field(
        default="public", description="public: anyone with its id may watch; private: only its players and organiser"
    )


class CreateResponse(BaseModel):
    """The game, its secrets (shown once) and the bearer token that organises it."""

    game: str = schemas.GAME_ID
    seed_sha256: str = Field(description="SHA-256 of the seed, 64 hex digits, to check the dice once it is revealed (R14)")
    organiser_link: str = Field(
        description="the organiser link's secret, for /organiser/<secret> in a browser"
    )
    invites: dict[str, str] = Field(
        description="invite secret per seat, for /join/<secret> or POST /api/v1/join"
    )
    token: str | None = Field(description="a new bearer token, unless the call carried one")


class ResolveRequest(BaseModel):
    """Which turn to resolve now: it must be the open one."""

    model_config = ConfigDict(extra="forbid")
    turn: StrictInt = Field(ge=1, description="the open turn's number; another: 409")  # unbounded, as OrderRequest's


class ExtendRequest(BaseModel):
    """How many hours to add to the deadline."""

    model_config = ConfigDict(extra="forbid")
    # A JSON number: "2" and true are refused, and so are NaN and Infinity (json.loads reads them).
    hours: float = Field(
        gt=0, le=24 * 30, strict=True, allow_inf_nan=False, description="hours to add, a JSON number above 0, up to 720"
    )


class DeadlineRequest(BaseModel):
    """The open turn's time left, in hours from now, or its deadline at a clock time: one of the two."""

    model_config = ConfigDict(extra="forbid")
    # A JSON number: "2" and true are refused, and so are NaN and Infinity (json.loads reads them).
    hours: float | None = Field(
        default=None, gt=0, le=24 * 30, strict=True, allow_inf_nan=False,
        description="hours from now, a JSON number above 0, up to 720",
    )
    at: AwareDatetime | None = Field(
        default=None,
        description="the deadline as an ISO 8601 time with its offset from UTC, such as "
        "2026-12-13T20:00:00+01:00: at least 1 minute from now and at most 2,147,483,647 seconds "
        "(68 years); only the open turn's deadline moves, later turns keep their length. A game without a "
        "deadline takes its first in hours (409 here): that also sets how long every later turn lasts, which a "
        "clock time does not say",
    )


# A new game's answer says where it is (RFC 9110: else the new resource would be POST's address).
_CREATED: dict[int | str, dict[str, Any]] = {
    201: {
        "headers": {
            "Location": {
                # The same words for every server: the prefix of SEVENS_ROOT_PATH is in `servers`.
                "description": (
                    "the new game in the API, as an absolute path: the path of the URL in `servers`, then "
                    "/api/v1/games/{id} (just /api/v1/games/{id} on a server at its host's root)"
                ),
                "schema": {"type": "string"},
            }
        }
    }
}


def _created_at(response: Response, public_id: str) -> None:
    response.headers["Location"] = f"/api/v1/games/{public_id}"


@router.post(
    "/games",
    response_model=CreateResponse,
    status_code=201,
    responses={**_CREATED, **error_responses(401, 412, 422, 429)},
)
def create(
    body: CreateRequest,
    request: Request,
    response: Response,
    db: SessionDep,
    clock: ClockDep,
    limiter: LimiterDep,
    authorization: AuthorizationDep,
) -> CreateResponse:
    """Create a game; the caller's token (or a new one) organises it."""
    now = clock()
    principal = _optional_bot(db, authorization, key=client_key(request), limiter=limiter, now=now)
    with new_game_allowed(request):
        # One of the two alone is completed as R12 completes its default, never refused for the other's absence.
        try:
            fmt = format_asked(body.players, teams=body.teams, teams_per_player=body.teams_per_player)
        except ValueError as exc:
            raise Invalid(f"{exc}; send teams and teams_per_player as one of these, or neither for R12's default") from None
        spec = store.NewGame(
            name=body.name,
            players=body.players,
            teams=fmt.teams,
            teams_per_player=fmt.teams_per_player,
            turn_seconds=round(body.deadline_hours * 3600) if body.deadline_hours else None,
            default_bot=body.default_bot or views.default_bot(),
            visibility=Visibility(body.visibility),
            default_autopilot=body.default_autopilot or "",
        )
        days = request.app.state.settings.invite_days
        if principal is not None:
            _lock_live_or_refuse(db, principal)
        created = store.create_game(db, spec=spec, now=now, invite_lifetime=timedelta(days=days))
        token: str | None = None
        if principal is None:
            principal, token = create_principal(db, kind=PrincipalKind.BOT, now=now, label="organiser")
        add_grant(db, principal_id=principal.id, game_id=created.game.id, role=Role.ORGANISER)
        db.commit()
    _created_at(response, created.game.public_id)
    return CreateResponse(
        game=created.game.public_id,
        seed_sha256=created.game.seed_sha256,
        organiser_link=created.organiser_token,
        invites=dict(created.invites),
        token=token,
    )


def _actor(principal: ApiPrincipal) -> str:
    """How an organiser's act through the API is written in the event log."""
    return store.api_actor(principal.label)


def _advance_after_act(db: SessionDep, game_id: int, now: datetime) -> tuple[bool, str | None]:
    """Work out the turns an act already committed completes (an order, a hand-over): whether one
    was resolved, and ``held_up``, why not when another saved order the rules refuse holds the turn
    up (nothing of the turn kept). The act stands then: a 409 would tell the client it was refused."""
    try:
        return store.advance(db, game_id=game_id, now=now) > 0, None
    except UnplayableOrder as exc:
        db.rollback()
        return False, str(exc)


def _organiser_answer(
    db: SessionDep, row: GameRow, now: datetime, principal_id: int, held: frozenset[str], **more: Any
) -> Response:
    """Commit an organiser's act and answer with the organiser's view of the game (``held``: the
    seats some credential plays, read with the caller's access by :func:`_organised_holding`),
    and the act's own fields (``more``)."""
    db.commit()
    view = views.organiser_view(db, row, now=now, held=held).to_dict()
    return JSONResponse({**_with_sequels(db, row, principal_id, view), **more})


# Said to a token that does not organise the game: which one does, and how a token comes to.
NOT_ORGANISER = (
    "only the game's organiser can do this; send the token that organises it, or let yours organise it with "
    "POST /api/v1/organise and the game's organiser link"
)

# An organiser's act answers with the organiser's view (OrganiserGameView), or refuses.
_ACT_ERRORS = error_responses(401, 403, 404, 409, 412, 429)
_ACT_WITH_BODY_ERRORS = error_responses(401, 403, 404, 409, 412, 422, 429)


def _organised(db: SessionDep, principal_id: int, public_id: str) -> GameRow:
    row, _, organiser = _game_for_bot(db, principal_id, public_id)
    if not organiser:
        raise Refused(NOT_ORGANISER)
    return row


def _organised_holding(db: SessionDep, principal_id: int, public_id: str) -> tuple[GameRow, frozenset[str]]:
    """:func:`_organised`, and the seats some credential plays, for the act's answer: the grants are
    read once, as GET /api/v1/games/{id} reads them (of these acts only a seat handed to the bots
    changes a grant, and its answer leaves that seat out)."""
    game = store.game_by_public_id(db, public_id=public_id)
    access, held = access_and_seats_held(db, principal_id=principal_id, game_id=game.id)
    row = _found_by(game, access, public_id)
    if not access.organiser:
        raise Refused(NOT_ORGANISER)
    return row, held


@router.post("/games/{public_id}/start", response_model=schemas.OrganiserGameView, responses=_ACT_ERRORS)
def start(public_id: str, principal: BotDep, db: SessionDep, clock: ClockDep) -> Response:
    """Draw the groups (R12) and open turn 1."""
    row, held = _organised_holding(db, principal.id, public_id)
    now = clock()
    store.start_game(db, game_id=row.id, now=now, actor=_actor(principal), then_advance=False)
    db.commit()
    # Kept first: with no seat taken, the bots then play the game through before the game's lock.
    store.advance(db, game_id=row.id, now=now)
    return _organiser_answer(db, row, clock(), principal.id, held)


@router.post(
    "/games/{public_id}/resolve", response_model=schemas.OrganiserGameView, responses=_ACT_WITH_BODY_ERRORS
)
def resolve(
    public_id: str, body: ResolveRequest, principal: BotDep, db: SessionDep, clock: ClockDep
) -> Response:
    """Resolve the open turn now: saved orders count, missing ones play the autopilot (R13)."""
    row, held = _organised_holding(db, principal.id, public_id)
    db.commit()  # the checks' reads ended: the bots then play the turn without holding the connection
    if not store.resolve_then_advance(
        db, game_id=row.id, turn=body.turn, reason="organiser", now=clock(), actor=_actor(principal)
    ):
        # resolve_turn took the game's lock and read it afresh into ``row``: what it says is current.
        if row.status in (GameStatus.RUNNING, GameStatus.PAUSED):
            raise Conflict(f"turn {body.turn} is not open; the open turn is {row.current_turn}")
        raise Conflict(f"turn {body.turn} is not open: the game is {row.status.said}")
    return _organiser_answer(db, row, clock(), principal.id, held)


@router.post("/games/{public_id}/pause", response_model=schemas.OrganiserGameView, responses=_ACT_ERRORS)
def pause(public_id: str, request: Request, principal: BotDep, db: SessionDep, clock: ClockDep) -> Response:
    """Stop the deadline clock, keeping the time left."""
    row, held = _organised_holding(db, principal.id, public_id)
    with organiser_act_allowed(request, row.public_id):
        store.pause_game(db, game_id=row.id, now=clock(), actor=_actor(principal))
    return _organiser_answer(db, row, clock(), principal.id, held)


@router.post("/games/{public_id}/resume", response_model=schemas.OrganiserGameView, responses=_ACT_ERRORS)
def resume(public_id: str, request: Request, principal: BotDep, db: SessionDep, clock: ClockDep) -> Response:
    """Restart the deadline clock with the time that was left."""
    row, held = _organised_holding(db, principal.id, public_id)
    with organiser_act_allowed(request, row.public_id):
        store.resume_game(db, game_id=row.id, now=clock(), actor=_actor(principal))
    return _organiser_answer(db, row, clock(), principal.id, held)


@router.post(
    "/games/{public_id}/extend", response_model=schemas.OrganiserGameView, responses=_ACT_WITH_BODY_ERRORS
)
def extend(
    public_id: str, body: ExtendRequest, request: Request, principal: BotDep, db: SessionDep, clock: ClockDep
) -> Response:
    """Move the deadline later."""
    row, held = _organised_holding(db, principal.id, public_id)
    seconds = views.extend_seconds(body.hours, f"{body.hours:g}")
    with organiser_act_allowed(request, row.public_id):
        store.extend_deadline(db, game_id=row.id, seconds=seconds, now=clock(), actor=_actor(principal))
    return _organiser_answer(db, row, clock(), principal.id, held)


@router.post(
    "/games/{public_id}/deadline", response_model=schemas.OrganiserGameView, responses=_ACT_WITH_BODY_ERRORS
)
def set_deadline(
    public_id: str, body: DeadlineRequest, request: Request, principal: BotDep, db: SessionDep, clock: ClockDep
) -> Response:
    """Set the open turn's time left (``hours`` from now), or its deadline at a clock time (``at``,
    with its UTC offset; a running game with a deadline only): bring the deadline forward or put it
    back; a paused game keeps a time left for its resume. A running game without a deadline gets one in
    hours: this turn closes that many hours from now and every later turn lasts as long
    (``resolve_when`` becomes ``deadline``, for good); a clock time gives no length for the later
    turns, so it cannot be the first (409 saying so)."""
    row, held = _organised_holding(db, principal.id, public_id)
    # Checked here, not in the body's model: an unknown game or a wrong token is said first.
    if (body.hours is None) == (body.at is None):
        raise Invalid("give either hours (a time left) or at (a clock time with its UTC offset), one of the two")
    if body.at is not None:
        with organiser_act_allowed(request, row.public_id):
            store.set_deadline_at(db, game_id=row.id, deadline_at=body.at, now=clock(), actor=_actor(principal))
        return _organiser_answer(db, row, clock(), principal.id, held)
    assert body.hours is not None
    seconds = views.extend_seconds(body.hours, f"{body.hours:g}", "set the time left to")
    with organiser_act_allowed(request, row.public_id):
        store.set_deadline(db, game_id=row.id, seconds=seconds, now=clock(), actor=_actor(principal))
    return _organiser_answer(db, row, clock(), principal.id, held)


@router.put(
    "/games/{public_id}/house-bot/{team}",
    response_model=schemas.OrganiserGameView,
    responses=_ACT_WITH_BODY_ERRORS,
)
def put_house_bot(
    public_id: str, team: str, body: AutopilotRequest, request: Request, principal: BotDep, db: SessionDep, clock: ClockDep
) -> Response:
    """Pick the bot of a team nobody plays: a house team (R12) or an unclaimed seat's (R13)."""
    row, held = _organised_holding(db, principal.id, public_id)
    with organiser_act_allowed(request, row.public_id):
        store.set_house_bot(
            db, game_id=row.id, team_id=team, strategy=body.strategy, now=clock(), actor=_actor(principal)
        )
    return _organiser_answer(db, row, clock(), principal.id, held)


@router.post(
    "/games/{public_id}/seats/{player}/release", response_model=schemas.SeatReleasedView, responses=_ACT_ERRORS
)
def release_seat(
    public_id: str, player: str, request: Request, principal: BotDep, db: SessionDep, clock: ClockDep
) -> Response:
    """Hand a seat to the bots (its player dropped out): every browser and token playing it is
    signed out, its orders saved for the open turn are discarded (R13), and its teams play the bots
    the organiser picks (``PUT .../house-bot/{team}``); turns no longer wait for it. It keeps its
    name after the start; a new invite link (``POST .../seats/{player}/invite``) lets someone take it over.
    The hand-over is kept even when another saved order the rules refuse holds the turn up: 200,
    with ``held_up`` saying why the turn is still open (null otherwise)."""
    row, held = _organised_holding(db, principal.id, public_id)
    now = clock()
    with organiser_act_allowed(request, row.public_id):
        store.release_seat(db, game_id=row.id, player_id=player, now=now, actor=_actor(principal), then_advance=False)
        db.commit()
    # Kept first: the turns the seat no longer holds up are then worked out before the game's lock.
    _, held_up = _advance_after_act(db, row.id, now)
    return _organiser_answer(db, row, clock(), principal.id, held - {player}, held_up=held_up)


@router.post(
    "/games/{public_id}/seats/{player}/remove-name", response_model=schemas.OrganiserGameView, responses=_ACT_ERRORS
)
def remove_name(public_id: str, player: str, principal: BotDep, db: SessionDep, clock: ClockDep) -> Response:
    """Once the game is over, put "Player N" in place of the name a seat's player chose (they asked
    for it to go), as *Remove name* on the organiser page: in the seat, the record (which still
    verifies), the event log and the label of a token that joined under it. 409 before the end or
    for a seat nobody took, 404 for no such seat."""
    row, held = _organised_holding(db, principal.id, public_id)
    retention.remove_seat_name(db, game_id=row.id, player_id=player, now=clock(), actor=_actor(principal))
    return _organiser_answer(db, row, clock(), principal.id, held)


class InviteResponse(BaseModel):
    """A seat's new invite link, shown once; the seat's old link no longer works."""

    game: str = schemas.GAME_ID
    player: str = schemas.PLAYER_ID
    invite: str = Field(description="the new invite's secret, for /join/<secret> or POST /api/v1/join; used once")
    expires_at: str = Field(description="until when it can be used (ISO 8601, UTC)")


@router.post(
    "/games/{public_id}/seats/{player}/invite",
    response_model=InviteResponse,
    responses=error_responses(401, 403, 404, 409, 412, 429),
)
def new_invite(
    public_id: str, player: str, request: Request, principal: BotDep, db: SessionDep, clock: ClockDep
) -> InviteResponse:
    """A new invite link for a seat nobody plays now, as the organiser page's *New invite link*:
    a seat not taken yet, one handed to the bots (a friend takes it over, under its name after the
    start, and turns wait for them again) or one its player left (signed out, token revoked: its
    orders saved for the open turn are discarded, R13). The old link stops working. A seat someone
    plays gets 409: hand it to the bots first, or use *Sign out and new link* on the organiser
    page."""
    row, held = _organised_holding(db, principal.id, public_id)
    if player in held and row.status in (GameStatus.LOBBY, GameStatus.RUNNING, GameStatus.PAUSED):
        raise Conflict(
            f"seat {player} is played now: a new link would let a second person see its orders; hand it "
            f"to the bots first (POST /api/v1/games/{row.public_id}/seats/{player}/release), or use 'Sign out "
            "and new link' on the organiser page"
        )
    now, lifetime = clock(), timedelta(days=request.app.state.settings.invite_days)
    with organiser_act_allowed(request, row.public_id):
        secret = store.reissue_invite(
            db, game_id=row.id, player_id=player, now=now, invite_lifetime=lifetime, actor=_actor(principal)
        )
        db.commit()
    return InviteResponse(
        game=row.public_id, player=player, invite=secret, expires_at=(now + lifetime).isoformat()
    )


@router.post("/games/{public_id}/end", response_model=schemas.OrganiserGameView, responses=_ACT_ERRORS)
def end(public_id: str, principal: BotDep, db: SessionDep, clock: ClockDep) -> Response:
    """End the game now; the seed is revealed."""
    row, held = _organised_holding(db, principal.id, public_id)
    store.end_game(db, game_id=row.id, now=clock(), actor=_actor(principal))
    return _organiser_answer(db, row, clock(), principal.id, held)


@router.delete("/games/{public_id}", status_code=204, responses=error_responses(401, 403, 404, 412, 429))
def delete_game(request: Request, public_id: str, principal: BotDep, db: SessionDep, clock: ClockDep) -> Response:
    """Delete the game for good, in the lobby, running or over: its seats and names, teams, orders,
    turns, event log and every credential's access to it (a bot token that opened only this game
    goes too). Its addresses then answer 404. A game over has a record (GET .../record) that
    nothing here keeps once it is deleted: fetch it first to keep it."""
    row = _organised(db, principal.id, public_id)
    retention.delete_game(db, game_id=row.id, now=clock())
    db.commit()
    request.app.state.damaged_said.forget(public_id)  # its id is never met again
    return Response(status_code=204)


class RematchResponse(BaseModel):
    """The rematch: the new game, its secrets (shown once) as at its creation, and the seats the
    calling token took again."""

    game: str = schemas.GAME_ID
    rematch_of: str = Field(description="the game it is the rematch of")
    name: str = Field(description="the new game's name, made from the old one's")
    seed_sha256: str = Field(description="SHA-256 of the new seed, 64 hex digits (R14)")
    organiser_link: str = Field(
        description="the new game's organiser link's secret, for /organiser/<secret> in a browser"
    )
    invites: dict[str, str] = Field(
        description=(
            "invite secret per seat nobody has taken yet, for /join/<secret> or POST /api/v1/join "
            "(not those in taken)"
        )
    )
    taken: dict[str, str] = Field(
        description="the seats the calling token played in the old game and plays again, each with its name"
    )


@router.post(
    "/games/{public_id}/rematch",
    summary="Start the game's rematch, once it is over",
    response_model=RematchResponse,
    status_code=201,
    responses={**_CREATED, **error_responses(401, 403, 404, 409, 412, 429)},
)
def rematch(
    public_id: str, request: Request, response: Response, principal: BotDep, db: SessionDep, clock: ClockDep
) -> RematchResponse:
    """Once the game is over (finished, or ended early): a new game with its settings (the same
    players and teams, deadline, default bot and default autopilot and visibility; a new seed and draw),
    organised by the calling token, which plays again the seats it played, under the same names.
    One rematch per game (409 for a second); it counts against the hourly limit on new games."""
    row = _organised(db, principal.id, public_id)
    store.rematch_spec(row)  # a game not over, or rematched already: said before the hourly limit
    now = clock()
    days = request.app.state.settings.invite_days
    with new_game_allowed(request):
        started = store.start_rematch(
            db,
            game_id=row.id,
            principal_id=principal.id,
            now=now,
            actor=_actor(principal),
            invite_lifetime=timedelta(days=days),
        )
        db.commit()
    new = started.created.game
    _created_at(response, new.public_id)
    return RematchResponse(
        game=new.public_id,
        rematch_of=row.public_id,
        name=new.name,
        seed_sha256=new.seed_sha256,
        organiser_link=started.created.organiser_token,
        invites={pid: secret for pid, secret in started.created.invites if pid not in started.taken},
        taken=started.taken,
    )


class OrganiserLinkResponse(BaseModel):
    """A new organiser link's secret, shown once; the old one no longer works."""

    game: str = schemas.GAME_ID
    organiser_link: str = Field(description="the new organiser link's secret, for /organiser/<secret> in a browser")


@router.post(
    "/games/{public_id}/organiser-link",
    response_model=OrganiserLinkResponse,
    responses=error_responses(401, 403, 404, 412, 429),
)
def new_organiser_link(
    public_id: str, request: Request, principal: BotDep, db: SessionDep, clock: ClockDep
) -> OrganiserLinkResponse:
    """A new organiser link: the old one stops working, and every other browser and bot token that
    organises the game loses that (the calling token keeps it)."""
    row = _organised(db, principal.id, public_id)
    with organiser_act_allowed(request, row.public_id):
        token = store.new_organiser_link(db, game_id=row.id, now=clock(), keep=principal.id, actor=_actor(principal))
        db.commit()
    return OrganiserLinkResponse(game=row.public_id, organiser_link=token)


class OrganiseRequest(BaseModel):
    """Organise a game by API with its organiser link, or the link's last part (the secret)."""

    model_config = ConfigDict(extra="forbid")
    link: str = Field(min_length=1, max_length=200, description="the organiser link, or its last part")


@router.post(
    "/organise", response_model=schemas.OrganiseAnswer, responses=error_responses(401, 404, 412, 422, 429)
)
def organise(
    body: OrganiseRequest,
    request: Request,
    db: SessionDep,
    clock: ClockDep,
    limiter: LimiterDep,
    authorization: AuthorizationDep,
) -> Response:
    """Let a bot token organise the game whose organiser link is given; returns a new token unless one was sent."""
    key = client_key(request)
    now = clock()
    principal = _optional_bot(db, authorization, key=key, limiter=limiter, now=now)
    row = game_by_organiser_link(db, token=secret_in(body.link))
    if row is None:
        raise limiter.refused(key, HTTPException(status_code=404, detail=ORGANISER_LINK_WRONG))
    if principal is not None:
        store.lock_game(db, game_id=row.id)  # games before principals, as the join and the delete
        _lock_live_or_refuse(db, principal)
        add_grant(db, principal_id=principal.id, game_id=row.id, role=Role.ORGANISER)
        db.commit()
        return JSONResponse({"game": row.public_id, "token": None})
    with new_credential_allowed(request, "bot token"):
        principal, token = create_principal(db, kind=PrincipalKind.BOT, now=now, label="organiser")
        add_grant(db, principal_id=principal.id, game_id=row.id, role=Role.ORGANISER)
        db.commit()
    return JSONResponse({"game": row.public_id, "token": token})


def _summarise(routes: list[Any]) -> None:
    """Give each operation a summary, its docstring's first sentence: FastAPI's own is the function's
    name ("Put Order"), which tells a client author nothing the path does not."""
    for route in routes:
        if isinstance(route, APIRoute) and route.summary is None:
            first, depth = " ".join((route.description or "").split("\n\n")[0].split()), 0
            for at, char in enumerate(first):
                depth += {"(": 1, ")": -1}.get(char, 0)
                if depth == 0 and char in ".;:" and first[at + 1 : at + 2] in (" ", ""):
                    first = first[:at]
                    break
            route.summary = first


_summarise(router.routes)
