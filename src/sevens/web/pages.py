"""HTML pages: forms that work without JavaScript, every post checked for its CSRF token."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

import anyio.to_thread
from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from sevens.store import games as store
from sevens.store.auth import (
    Access,
    InviteState,
    access_and_seats_held,
    access_to,
    add_grant,
    create_principal,
    delete_principal,
    game_by_organiser_link,
    grants_of,
    holds_invited_seat,
    invite_state,
    other_seat_held,
    seat_by_invite,
    seat_of_new_browser,
)
from sevens.store.errors import (
    Conflict,
    DamagedRecord,
    Gone,
    Invalid,
    NotFound,
    Refused,
    SeatSignedOut,
    StoreError,
    UnplayableOrder,
)
from sevens.store.models import (
    ApiPrincipal,
    GameRow,
    GameStatus,
    PrincipalKind,
    Role,
    SeatRow,
    TeamRow,
    Visibility,
)
from sevens.store.retention import delete_game, remove_seat_name
from sevens.tournament.quoting import quoted
from sevens.web import results_csv, views
from sevens.web.deps import (
    ORGANISER_LINK_WRONG,
    ClockDep,
    LimiterDep,
    LimitReached,
    PrincipalDep,
    SessionDep,
    SettingsDep,
    device_link_allowed,
    give_back_db_turn,
    new_credential_allowed,
    new_game_allowed,
    organiser_act_allowed,
)
from sevens.web.odds_queue import OddsQueue
from sevens.web.prefix import route_path
from sevens.web.security import (
    SESSION_COOKIE,
    SIGNED_OUT_COOKIE,
    HeldSeatForm,
    body_of_type,
    check_csrf,
    client_key,
    delete_session_cookie,
    form_predates_session,
    held_organiser_form,
    held_seat_form,
    note_secret,
    secure_cookies,
    sent_from_this_site,
    session_csrf,
    session_token,
    set_cookie,
    signed_out_form,
)

__all__ = ["ShownAgain", "router"]


_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")

NAME_BOXES = {
    "display": 2 * store.NAME_POINTS,
    "game": 2 * store.GAME_NAME_POINTS,
    "display_characters": store.NAME_LENGTH,
    "game_characters": store.MAX_GAME_NAME,
}
"""The maxlength of the name boxes (join's, new game's), and the characters their live counts
(app.js) allow. A browser stops a box at maxlength UTF-16 units, two for a code point past the first
plane (an emoji): twice the store's cap lets every name the server takes be typed whole; past it the
server says, in characters, what is too long. A refused form gives back as much as its box holds."""


async def check_form_body(request: Request) -> None:
    """Refuse a form that sends a field twice (``force=1&force=30``): FastAPI keeps the last
    without a word, so a hand-made or scripted post would save an order nobody saw typed. No
    page's form repeats a field (the order form's two buttons send one ``action``), and the API
    refuses the same in its bodies (:mod:`sevens.web.strict`). The form is read once: FastAPI
    has already parsed it for the route, and Starlette keeps it.

    A POST with a body that is not a form (JSON, say) is refused (415) saying so: FastAPI reads
    such a body as an empty form, so it was answered as if a field was missing ("no team ''")."""
    if request.method != "POST":
        return
    kind = request.headers.get("content-type", "")
    if not kind.lower().startswith(_FORM_TYPES):
        if kind or await request.body():
            raise HTTPException(
                status_code=415,
                detail=f"this address takes a form (application/x-www-form-urlencoded or multipart/form-data), as "
                f"the site's pages send, not {body_of_type(kind)}; nothing was done. Programs use the JSON API under /api/v1/ "
                "(described at /api/v1/openapi.json)",
            )
        return
    seen: set[str] = set()
    twice: dict[str, None] = {}
    for name, _ in (await request.form()).multi_items():
        if name in seen:
            twice[name] = None
        seen.add(name)
    if twice:
        listed = ", ".join(quoted(name) for name in twice)
        plural = "s" if len(twice) > 1 else ""
        raise HTTPException(
            status_code=422,
            detail=f"the form sent the field{plural} {listed} more than once, which no page of this site does; "
            "nothing was done: reload the page and send the form again",
        )


log = logging.getLogger("sevens.web")

router = APIRouter(include_in_schema=False, dependencies=[Depends(check_form_body)])

CsrfField = Annotated[str | None, Form(alias="csrf")]
OrganisesField = Annotated[str, Form(max_length=100)]
"""The organiser page's forms' proof that this browser organised the game when it loaded the page
(:func:`~sevens.web.security.organiser_form_proof`): read only if the browser signed out since."""


def _templates(request: Request) -> Jinja2Templates:
    templates: Jinja2Templates = request.app.state.templates
    return templates


def render(
    request: Request,
    name: str,
    context: dict[str, Any],
    status: int = 200,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """Render a page; every page gets the viewer's CSRF token through the template global."""
    return _templates(request).TemplateResponse(
        request, name, context, status_code=status, headers=None if headers is None else dict(headers)
    )


def _ensure_session(
    db: SessionDep, principal: ApiPrincipal | None, settings: SettingsDep, clock: ClockDep, *, pre_session: str = ""
) -> tuple[ApiPrincipal, str | None]:
    if principal is not None:
        return principal, None
    fresh, token = create_principal(
        db, kind=PrincipalKind.SESSION, now=clock(), ttl=timedelta(days=settings.session_days), pre_session=pre_session
    )
    return fresh, token


def _with_session_cookie(
    request: Request, response: Response, token: str | None, settings: SettingsDep
) -> Response:
    if token is not None:
        set_cookie(
            response,
            SESSION_COOKIE,
            token,
            # Secure when set so, or when the request came over HTTPS (through a trusted proxy).
            secure=secure_cookies(request),
            max_age=settings.session_days * 86400,
            root=settings.root_path,
        )
    return response


def _base_url(request: Request, settings: SettingsDep) -> str:
    # The request's own carries the site's path already (its ASGI root_path, sevens.web.prefix).
    if settings.base_url:
        return settings.base_url.rstrip("/") + settings.root_path
    return str(request.base_url).rstrip("/")


def _access(db: SessionDep, principal: ApiPrincipal | None, game: GameRow) -> Access:
    return access_to(db, principal_id=None if principal is None else principal.id, game_id=game.id)


def _organiser_access(db: SessionDep, principal: ApiPrincipal | None, game: GameRow) -> tuple[Access, frozenset[str]]:
    """The access, and the seats someone plays, read together: the organiser's page shows both."""
    return access_and_seats_held(db, principal_id=None if principal is None else principal.id, game_id=game.id)


def _watchable(game: GameRow, access: Access) -> None:
    if game.visibility != Visibility.PUBLIC and not (access.organiser or access.player_ids):
        # Same answer as an unknown game: a private game's existence is not disclosed.
        raise HTTPException(status_code=404, detail=store.no_such_game(game.public_id))


def _organiser(game: GameRow, access: Access) -> None:
    if not access.organiser:
        raise Refused("only the game's organiser can do this; open your organiser link first")


def _player(access: Access) -> str:
    if access.player_id is None:
        # Also what a browser the organiser signed out meets, its page still open: its old invite
        # is used up, so "open your invite link" alone would send it round in a circle.
        raise Refused(
            "this browser plays no seat in this game, so nothing was done: open your invite link to take "
            "your seat; if you played from this browser until now, the organiser has signed it out, and "
            "only a new invite link from them opens your seat again"
        )
    return access.player_id


def _no_seat(request: Request, game: GameRow) -> Response:
    """A seat's page opened in a browser that plays no seat of the game (a stranger, or one the
    organiser signed out): refused with the way to the game's page, not the refusal page's "go
    back and reload", which would lead here again."""
    message = Markup(
        "This browser plays no seat in {}: open your invite link to take your seat. If you played "
        "from this browser until now, the organiser has signed it out, and only a new invite link from them "
        "opens your seat again."
    ).format(views.bdi(game.name))
    context = {"status": 403, "message": message, "game_page": f"/games/{game.public_id}", "game_name": game.name}
    return render(request, "error.html", context, status=403)


def _seat_gone(
    request: Request, db: SessionDep, game: GameRow, access: Access, *, team: str, held: HeldSeatForm | None,
    what: str, typed: str, checked: bool = False,
) -> Response | None:
    """A form of the player's page (an order, an autopilot) sent after this browser stopped playing
    its seat (the organiser signed it out or handed the seat to the bots): what happened, what was
    sent and not saved (``what``, then ``typed`` with the team), and how to get the seat back, on
    a page of its own with the way to the game's page, rather than the refusal page's "go back and
    reload", which led to a seat's page that refuses too. None for a browser that cannot show it
    held a seat of a game it may not watch: answered as before, without a word of the game.
    ``checked``: this request found the browser playing the seat and the store, a moment later
    under the game's lock, found it gone (:class:`~sevens.store.errors.SeatSignedOut`), which
    is proof enough that it held the seat."""
    public = game.visibility == Visibility.PUBLIC
    if not (public or access.organiser or held is not None or checked):
        return None
    sent = _for_team(db, game, team, held, typed) if public or checked or held is not None else typed
    message = Markup(
        "This browser no longer plays a seat in {}, so {} was not saved: the organiser has signed it out "
        "or handed the seat to the bots since the page was loaded. Only a new invite link from the "
        "organiser opens your seat again; send it again from there."
    ).format(views.bdi(game.name), what)
    context = {"status": 403, "message": message, "unsaved": sent,
               "game_page": f"/games/{game.public_id}" if public or access.organiser else "", "game_name": game.name}
    return render(request, "error.html", context, status=403)


def _for_team(db: SessionDep, game: GameRow, team: str, held: HeldSeatForm | None, typed: str) -> str:
    """What a 'not saved' page repeats: ``typed`` and the team it was for, as the form's proof
    names it (``held``), else as the game does; for a browser that may know the game."""
    name = held.team_name if held is not None else views.spectator_view(db, game).name(team)
    return f"{typed} for {name}" if name else typed


def _game_if_any(db: SessionDep, public_id: str) -> GameRow | None:
    """The game at ``public_id``, or None where there is none (deleted since, or never)."""
    try:
        return store.game_by_public_id(db, public_id=public_id)
    except NotFound:
        return None


def _signed_out_here(
    request: Request, db: SessionDep, principal: ApiPrincipal | None, public_id: str, csrf: str | None, *,
    what: str, typed: str, seat: str = "", team: str = "", team_name: str = "",
) -> Response | None:
    """A form of the player's page that :func:`~sevens.web.security.check_csrf` refused because
    this browser signed out (*Sign out of this browser*, in another tab or window) after the page
    was loaded: what happened, what was sent and not saved (``what``, then ``typed``), and how to
    get the seat back. Nothing is done. None for any other refused form, and for a browser signed
    in again since (:func:`_player_form_expired` answers it if it plays the seat again). As for an
    expired page, only a form the browser says it sent from this site's own page is answered so.
    The game and team are named only where this browser may know them: a public game, or an order
    form's seat proof (``seat``, for ``team`` named ``team_name``) made for the session it ended."""
    ended = signed_out_form(request, csrf)
    if not ended or principal is not None or not sent_from_this_site(request):
        return None
    held = held_seat_form(request, public_id, seat, team=team, team_name=team_name, form_token=ended) if seat else None
    game = _game_if_any(db, public_id)
    public = game is not None and game.visibility == Visibility.PUBLIC
    named = game if public or held is not None else None
    sent, where = typed, Markup("")
    if named is not None:
        sent, where = _for_team(db, named, team, held, typed), Markup(" in {}").format(views.bdi(named.name))
    message = Markup(
        "This browser was signed out (Sign out of this browser, perhaps in another tab or window) after "
        "this page was loaded, so {} was not saved and nothing was done. Signing out gave up this browser's "
        "seat{}: only a new invite link from the organiser opens it again; send it again from there."
    ).format(what, where)
    context = {"status": 403, "message": message, "unsaved": sent,
               # Only a game it may name: error.html prints the name only with game_page, but keep it out.
               "game_page": f"/games/{public_id}" if public else "", "game_name": "" if named is None else named.name}
    return render(request, "error.html", context, status=403)


def _organiser_signed_out_here(
    request: Request, db: SessionDep, principal: ApiPrincipal | None, public_id: str, csrf: str | None, *,
    organises: str, act: str, seat: str = "", turn: str = "", typed: str = "",
) -> Response | None:
    """A form of the organiser page (``act``, about ``seat`` or ``turn``) that
    :func:`~sevens.web.security.check_csrf` refused because this browser signed out (*Sign out
    of this browser*, in another tab or window) after the page was loaded: says so, what the form
    would have done and was not, and that the organiser link opens the page again. Nothing is done.
    None, for the plain refusal, for any other refused form, a browser signed in again since (the
    page comes back as expired if it organises the game) and a form the browser does not say it
    sent from this site's own page. The game is named only if it is public, or the form carries
    the proof that the ended session was shown its organiser page (``organises``). ``typed``, what
    the organiser typed or chose in the form (hours, a bot), is repeated for them to enter again."""
    ended = signed_out_form(request, csrf)
    if not act or not ended or principal is not None or not sent_from_this_site(request):
        return None
    game = _game_if_any(db, public_id)
    public = game is not None and game.visibility == Visibility.PUBLIC
    named = game if public or held_organiser_form(request, public_id, organises, form_token=ended) else None
    number = int(turn) if turn.isascii() and turn.isdigit() and len(turn) < 10 else 0
    # A seat only as its id reads (p1, p2...): the address is the sender's to write.
    said = views.seat_number(seat) and (_seat_named(db, named, seat) if named is not None else seat)
    what = _not_done(act, turn=number, seat=said)
    where = Markup("") if named is None else Markup(" in {}").format(views.bdi(named.name))
    message = Markup(
        "This browser was signed out (Sign out of this browser, perhaps in another tab or window) after "
        "this page was loaded, so nothing was done{}: {}. Signing out ended this browser's organising of the "
        "game: open your organiser link in this browser to organise it again, then press the button again "
        "there."
    ).format(where, what[:1].lower() + what[1:])
    context = {"status": 403, "message": message, "signed_out_act": True, "act_typed": typed,
               # As the player's version: a private game's page opens nothing to a browser signed out.
               "game_page": f"/games/{public_id}" if public else "",
               "game_name": "" if named is None else named.name}
    return render(request, "error.html", context, status=403)


def _not_organising(request: Request, game: GameRow) -> Response:
    """The organiser's page opened in a browser that may watch the game but does not organise it
    (the page's address copied to a friend): refused with the way to the game's page, not "go back
    and reload", which a browser that came by a copied link has nothing to go back to."""
    message = Markup(
        "This browser does not organise {}: open the organiser link to organise it. If this "
        "browser organised it until now, a new organiser link was made, and only that one opens this page."
    ).format(views.bdi(game.name))
    context = {"status": 403, "message": message, "game_page": f"/games/{game.public_id}", "game_name": game.name}
    return render(request, "error.html", context, status=403)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A form sent back refused, for its page to show again: ``form`` is the form's id on that
    page, ``message`` what was wrong and how to fix it, ``fields`` the names of the boxes it is
    about (the summary links to the first, the message stands after the last, each box is marked
    invalid and described by it; none when the form as a whole was refused), ``values`` what was
    typed, put back in the boxes."""

    form: str
    message: str
    fields: tuple[str, ...] = ()
    values: Mapping[str, str] = field(default_factory=dict)


def _refusal(
    form: str, exc: Exception, boxes: Mapping[str | None, tuple[str, ...]], values: Mapping[str, str]
) -> Refusal:
    """The refusal of ``form`` by ``exc``; ``boxes`` maps the error's ``field`` (as the store or
    the form's parsing names it, :class:`~sevens.store.errors.StoreError`) to the form's boxes.

    >>> from sevens.store.errors import Invalid
    >>> r = _refusal("extend", Invalid("too long", field="seconds"), {"seconds": ("hours",)}, {"hours": "999"})
    >>> r.fields, r.message
    (('hours',), 'too long')
    >>> _refusal("extend", Conflict("the game is over"), {"seconds": ("hours",)}, {}).fields
    ()
    """
    return Refusal(form, str(exc), boxes.get(getattr(exc, "field", None), ()), dict(values))


def _redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


@router.get("/favicon.ico", include_in_schema=False)
def favicon(request: Request) -> Response:
    """Browsers ask for this where a page names no icon (a JSON answer, a record): the same icon."""
    return RedirectResponse("/static/favicon.svg", status_code=301)


@router.get("/how-to-play")
def how_to_play(request: Request) -> Response:
    """The game taught in one page for someone who has never played it, linked from the order form."""
    return render(request, "how_to_play.html", {})


@dataclass(slots=True)
class MyGame:
    """A game of this browser's, for the front page's one line about it: whether the browser
    organises it, plays a seat of it, and how many of its orders are not ready this turn."""

    game: GameRow
    organises: bool = False
    plays: bool = False
    due: int = 0
    damaged: bool = False  # its stored record no longer replays: its line says so, the others still show

    @property
    def role(self) -> str:
        """What the browser is in the game, in the line's words.

        >>> MyGame(GameRow(), organises=True, plays=True).role
        'player and organiser'
        """
        return " and ".join(r for r, held in (("player", self.plays), ("organiser", self.organises)) if held)


@router.get("/")
def home(request: Request, db: SessionDep, principal: PrincipalDep) -> Response:
    """The front page: create a game, public games, the visitor's own games."""
    return _home(request, db, principal)


def _home(
    request: Request,
    db: SessionDep,
    principal: ApiPrincipal | None,
    *,
    refusal: Refusal | None = None,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
) -> Response:
    # ``refusal``: the create form sent back, with what was typed; the address shown is the home page's.
    mine: dict[int, MyGame] = {}  # one line per game, in the order this browser came to it
    if principal is not None:
        for grant in grants_of(db, principal_id=principal.id):
            line = mine.get(grant.game_id)
            if line is None:
                line = mine[grant.game_id] = MyGame(store.game_by_id(db, game_id=grant.game_id))
            if grant.role is Role.ORGANISER:
                line.organises = True
            else:
                line.plays = True
                try:
                    line.due += views.orders_due(db, line.game, grant.player_id)
                except DamagedRecord as exc:
                    # One damaged game must not take the front page, and the player's other games, with it.
                    say_damaged(request, line.game.public_id, exc)
                    line.damaged = True
    public = store.list_public_games(db)
    return render(
        request,
        "home.html",
        {
            "public": public,
            "mine": list(mine.values()),
            "statuses": views.listed_statuses(db, [*public, *(line.game for line in mine.values())]),
            "signed_in": principal is not None,
            "bots": store.strategy_names(),
            "default_bot": views.default_bot(),
            "default_autopilot": views.default_autopilot(),
            "formats": views.format_choices(),
            "refusal": refusal,
            "canonical": "/" if refusal is not None else None,
        },
        status=status,
        headers=headers,
    )


_WHOLE = re.compile(r"[+-]?[0-9]+")
_HOURS = re.compile(r"[0-9]+([.,][0-9]*)?|[.,][0-9]+")
"""Hours as typed in a form, with a decimal point or comma: the boxes ask a phone for its decimal
keypad, which in much of Europe and South America has a comma and no point."""


def _hours(text: str) -> float:
    """Hours that matched :data:`_HOURS` (a minus sign before them allowed) as a number."""
    return float(views.decimal_point(text))


_MAX_DIGITS = 6
"""The most digits a number in a form or query may have, as on the command line
(``sevens.cli.errors.MAX_DIGITS``): no count in Sevens comes near a million, and past 4,300
digits int() raises instead of reading it. Forms cap their fields at 20 characters; a query does not."""


def _int_field(value: str, what: str, *, allow_blank: bool = False, field: str | None = None) -> int | None:
    """A whole number typed into a form or query, or :class:`Invalid` saying what was wrong.

    >>> _int_field(" 42 ", "the turn"), _int_field("", "the turn", allow_blank=True), _int_field("0000160", "R3: FORCE")
    (42, None, 160)
    >>> _int_field("9" * 5000, "R3: FORCE")
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: R3: FORCE is too large (5000 digits): type a whole number of at most 6 digits
    """
    # Plain ASCII digits only: int() would also read "1_0" and other scripts' digits.
    text = value.strip()
    if allow_blank and text == "":
        return None
    if not _WHOLE.fullmatch(text):
        raise Invalid(f"{what} must be a whole number, got {quoted(value)}", field=field)
    # Leading zeros are no size ("0000160" is 160), as on the command line; int() counts them too.
    significant = text.lstrip("+-").lstrip("0")
    digits = len(significant)
    if digits > _MAX_DIGITS:  # not quoted back: it may be thousands of digits long
        raise Invalid(
            f"{what} is too large ({digits} digits): type a whole number of at most {_MAX_DIGITS} digits",
            field=field,
        )
    number = int(significant or "0")
    return -number if text.startswith("-") else number


def _deadline_seconds(deadline_hours: str) -> int | None:
    """The create form's deadline box (hours) in seconds; None resolves each turn when all are ready."""
    text = deadline_hours.strip()
    if text in ("", "0"):
        return None
    if not _HOURS.fullmatch(text):
        raise Invalid(
            f"the deadline must be a number of hours such as 24 or 0.5 (0 or blank: resolve when all are "
            f"ready), got {quoted(text)}",
            field="turn_seconds",
        )
    seconds = round(_hours(text) * 3600)
    if not store.MIN_TURN_SECONDS <= seconds <= store.MAX_TURN_SECONDS:
        raise Invalid(
            f"the deadline must be from 1 minute ({store.MIN_TURN_SECONDS / 3600:.4f} hours) to "
            f"{store.MAX_TURN_SECONDS // 3600} hours (30 days), got {text} hours "
            "(0 or blank: resolve when all are ready)",
            field="turn_seconds",
        )
    return seconds


_CREATE_BOXES: dict[str | None, tuple[str, ...]] = {
    "name": ("name",),
    "arrangement": ("arrangement",),
    "players": ("arrangement",),
    "teams": ("arrangement",),
    "teams_per_player": ("arrangement",),
    "turn_seconds": ("deadline_hours",),
    "default_bot": ("default_bot",),
    "default_bot_weight": ("default_bot_weight",),
    "default_autopilot": ("default_autopilot",),
    "default_autopilot_weight": ("default_autopilot_weight",),
    "visibility": ("visibility",),
}
"""Where the create form says each of the store's and its own refusals (the arrangement box
holds the players, the teams and the teams each)."""


@router.post("/games")
def create_game(
    request: Request,
    db: SessionDep,
    principal: PrincipalDep,
    settings: SettingsDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    name: Annotated[str, Form(max_length=2000)] = "",
    arrangement: Annotated[str, Form(max_length=40)] = "",
    deadline_hours: Annotated[str, Form(max_length=20)] = "",
    default_bot: Annotated[str, Form(max_length=40)] = "",
    default_bot_weight: Annotated[str, Form(max_length=20)] = "",
    default_autopilot: Annotated[str, Form(max_length=40)] = "",
    default_autopilot_weight: Annotated[str, Form(max_length=20)] = "",
    visibility: Annotated[str, Form(max_length=20)] = "public",
) -> Response:
    """Create a game; the answer shows the organiser link and one invite link per seat, once.

    A refused game (a bad value, or too many games from this address) sends the home page back
    with the form as it was typed and the reason at the box it is about; so does a form loaded
    before this browser had a session (:func:`~sevens.web.security.form_predates_session`)."""
    typed = {
        "name": name[: NAME_BOXES["game"]],
        "arrangement": arrangement,
        "deadline_hours": deadline_hours,
        "default_bot": default_bot,
        "default_bot_weight": default_bot_weight,
        "default_autopilot": default_autopilot,
        "default_autopilot_weight": default_autopilot_weight,
        "visibility": visibility,
    }
    try:
        check_csrf(request, csrf)
    except HTTPException:
        note = _stale_note(request, csrf).format(then="check the form and press Create game")
        if not note:
            raise
        return _home(request, db, principal, refusal=Refusal("create-game", note, (), typed), status=403)
    try:
        with new_game_allowed(request):
            players, teams, per_player = views.parse_arrangement(arrangement)
            turn_seconds = _deadline_seconds(deadline_hours)
            if visibility not in ("public", "private"):
                raise Invalid("visibility must be 'public' or 'private'", field="visibility")
            spec = store.NewGame(
                name=name,
                players=players,
                teams=teams,
                teams_per_player=per_player,
                turn_seconds=turn_seconds,
                default_bot=views.bot_name(default_bot or views.default_bot(), default_bot_weight, field="default_bot"),
                visibility=Visibility(visibility),
                # Left out (a form from before the two menus): the default bot, which played both.
                default_autopilot=views.bot_name(
                    default_autopilot or views.default_autopilot(), default_autopilot_weight, field="default_autopilot"
                )
                if default_autopilot or default_autopilot_weight
                else "",
            )
            created = store.create_game(
                db, spec=spec, now=clock(), invite_lifetime=timedelta(days=settings.invite_days)
            )
            session, token = _ensure_session(db, principal, settings, clock)
            add_grant(db, principal_id=session.id, game_id=created.game.id, role=Role.ORGANISER)
            db.commit()
    except HTTPException as exc:  # too many games: said on the form, with when to try again
        detail = exc.detail if isinstance(exc.detail, str) else "request refused"
        refusal = Refusal("create-game", detail, (), typed)
        return _home(request, db, principal, refusal=refusal, status=exc.status_code, headers=exc.headers)
    except StoreError as exc:
        db.rollback()
        refusal = _refusal("create-game", exc, _CREATE_BOXES, typed)
        return _home(request, db, principal, refusal=refusal, status=exc.status)
    base = _base_url(request, settings)
    response = render(
        request,
        "created.html",
        {
            "game": created.game,
            "organiser_link": f"{base}/organiser/{created.organiser_token}",
            "invites": [(pid, f"{base}/join/{tok}") for pid, tok in created.invites],
            "invites_until": _invites_until(db, created.game),
            "canonical": f"/games/{created.game.public_id}/organise",
            **_shown_links(db, created.game),
        },
        status=201,
    )
    return _with_session_cookie(request, response, token, settings)


def _invites_until(db: SessionDep, game: GameRow) -> datetime | None:
    """When the first of the game's open invites expires (they are issued together)."""
    return min((s.invite_expires_at for s in store.seats_of(db, game_id=game.id) if s.invite_expires_at), default=None)


def _shown_links(db: SessionDep, game: GameRow, *, player_id: str | None = None) -> dict[str, Any]:
    """For a page that shows links once: where its script asks whether they still work, and the
    mark of each as it is now (:func:`views.link_marks`); a player's page, its own seat's alone."""
    marks = views.link_marks(db, game, organiser=player_id is None, player_id=player_id)
    return {"links": f"/games/{game.public_id}/links", "marks": marks}


_SIGNED_IN_SINCE = (
    "This browser signed in after this page was loaded (it joined or organised a game, perhaps in "
    "another tab), so the security token of its form had to change. Nothing was done yet: {then} again."
)
"""What a new visitor's form says when it comes back because the browser gained a session
meanwhile (:func:`~sevens.web.security.form_predates_session`)."""

_PAGE_EXPIRED = (
    "This page had expired: the security token of its forms no longer matches this browser (it signed "
    "out or in again since the page was loaded, perhaps in another tab, or its cookies were cleared). "
    "Nothing was done: {then} again."
)
"""What a form of this site's own pages says when it comes back with a token that is not the
browser's any more (:func:`~sevens.web.security.sent_from_this_site`)."""


def _stale_note(request: Request, csrf: str | None, *, signed_in_form: bool = False) -> str:
    """What a form :func:`~sevens.web.security.check_csrf` refused says when it comes back to be
    checked and sent again (a note with ``{then}``, what to press, to fill in), or "" when it is
    refused as before: nothing it asked is done either way, the stale token never counts.

    A ``signed_in_form`` (orders, the organiser page's) was rendered with a session's token, never
    the CSRF cookie's: one carrying the cookie's value was not typed on such a page (a planted
    cookie, say), and comes back only as any other, sent from this site's own page."""
    if not signed_in_form and form_predates_session(request, csrf):
        return _SIGNED_IN_SINCE
    return _PAGE_EXPIRED if sent_from_this_site(request) else ""


def _game_for_stale_form(db: SessionDep, principal: ApiPrincipal | None, public_id: str) -> GameRow | None:
    """The game a stale form of a signed-in browser was sent about, or None: no session, no such
    game. Never a 404 of its own: the form is refused as stale alike whether the game exists or
    not, so a stale form tells nobody which private games there are."""
    if principal is None:
        return None
    try:
        return store.game_by_public_id(db, public_id=public_id)
    except NotFound:
        return None


class ShownAgain(Exception):
    """A page shown again in answer to a form, instead of what the form asked: raised where the
    route would act, answered by the app with :attr:`response` as it is."""

    def __init__(self, response: Response) -> None:
        super().__init__("a page shown again")
        self.response = response


def _invited_seat(
    db: SessionDep, token: str, request: Request, limiter: LimiterDep, principal: ApiPrincipal | None, now: datetime
) -> tuple[SeatRow, bool]:
    """The seat an invite opens, and whether this browser already plays it.

    An invite opens its seat once, before it expires; the browser that used it is sent on to its
    game instead. Anyone else gets 410 and is told to ask the organiser for a new link.
    """
    note_secret(request)  # the invite is in the address, and its page may show it
    seat = seat_by_invite(db, token=token)
    if seat is None:
        raise limiter.refused(
            client_key(request),
            HTTPException(status_code=404, detail="this invite link is not valid; ask the organiser for a new one"),
        )
    principal_id = None if principal is None else principal.id
    return seat, holds_invited_seat(db, seat=seat, principal_id=principal_id, now=now)


@router.get("/join/{token}")
def join_form(
    request: Request, token: str, db: SessionDep, principal: PrincipalDep, clock: ClockDep, limiter: LimiterDep
) -> Response:
    """The invite page: pick a display name."""
    try:
        seat, joined = _invited_seat(db, token, request, limiter, principal, clock())
    except Gone as exc:  # said on this page, with what to do, not the general "correct the form"
        return _invite_gone(request, db, token, exc, "")
    game = store.game_by_id(db, game_id=seat.game_id)
    if joined:
        return _redirect(f"/games/{game.public_id}/play")
    return _join_page(request, game, seat, held=_held_seat(db, principal, seat))


def _held_seat(db: SessionDep, principal: ApiPrincipal | None, seat: SeatRow) -> SeatRow | None:
    """Another seat of the invite's game that this browser plays already (it plays one seat of a
    game, :func:`~sevens.store.auth.check_one_seat`), or None."""
    held = other_seat_held(db, principal_id=None if principal is None else principal.id, seat=seat)
    if held is None:
        return None
    return next(s for s in store.seats_of(db, game_id=seat.game_id) if s.player_id == held)


def _join_page(
    request: Request,
    game: GameRow,
    seat: SeatRow,
    *,
    refusal: Refusal | None = None,
    status: int = 422,
    held: SeatRow | None = None,
    refused: bool = False,
) -> Response:
    # After the start a seat plays under the name the record has for it. A refused name names the
    # invite's address as the page's, so a reload reads the form rather than posting it again.
    # ``held``: a seat this browser plays already, said instead of a form (``refused``: the form was
    # sent anyway, from a page loaded before; 409, said as a notice).
    fixed = None if game.status == GameStatus.LOBBY else store.seat_name(seat)
    context: dict[str, Any] = {"game": game, "seat": seat, "fixed_name": fixed, "refusal": refusal}
    if held is not None:
        context.update(held=held, held_name=store.seat_name(held), refused=refused)
        context["canonical"] = route_path(request.scope)
        return render(request, "join.html", context, status=409 if refused else 200)
    if refusal is not None:
        context["canonical"] = route_path(request.scope)
    return render(request, "join.html", context, status=status if refusal else 200)


def _invite_gone(request: Request, db: SessionDep, token: str, exc: Gone, name: str) -> Response:
    """An invite used up or expired, opened or sent from a join form left open: said on the
    invite's own page (410), with what to do and any name typed, rather than on the general
    refusal page, which said to correct the form and dropped the name."""
    seat = seat_by_invite(db, token=token)
    assert seat is not None  # Gone is said of a seat found by its invite
    game = store.game_by_id(db, game_id=seat.game_id)
    context = {"game": game, "seat": seat, "gone": str(exc), "typed": name[: NAME_BOXES["display"]], "canonical": route_path(request.scope)}
    return render(request, "join.html", context, status=exc.status)


@router.post("/join/{token}")
def join(
    request: Request,
    token: str,
    db: SessionDep,
    principal: PrincipalDep,
    settings: SettingsDep,
    clock: ClockDep,
    limiter: LimiterDep,
    csrf: CsrfField = None,
    name: Annotated[str, Form(max_length=2000)] = "",
) -> Response:
    """Claim the seat: this browser now plays it, and the invite is used up."""
    try:
        check_csrf(request, csrf)
    except HTTPException as stale:
        # A form loaded before this browser had a session, or expired, comes back as typed with the
        # browser's token while its invite is open; anything else is refused as it was, the invite untouched.
        note = _stale_note(request, csrf).format(then="check your name and press Join the game")
        if not note:
            raise
        seat = seat_by_invite(db, token=token)
        if seat is None:  # the lookup was a guess at an invite, and a wrong one: counted as on its page
            raise limiter.refused(client_key(request), stale) from None
        if invite_state(seat, now=clock()) is not InviteState.OPEN:
            raise
        refusal = Refusal("join", note, (), {"name": name[: NAME_BOXES["display"]]})
        return _join_page(request, store.game_by_id(db, game_id=seat.game_id), seat, refusal=refusal, status=403)
    # A browser that nobody knows yet (no session, or a dead one): what its tabs share is the
    # token its forms carry, which check_csrf just found to be its cookie's.
    pre_session = (csrf or "") if principal is None else ""
    try:
        seat, joined = _invited_seat(db, token, request, limiter, principal, clock())
    except Gone as exc:  # used by someone else or expired while the form was open
        used = seat_by_invite(db, token=token)
        if used is not None and seat_of_new_browser(db, pre_session=pre_session, game_id=used.game_id, now=clock()) == used.player_id:
            return _redirect(f"/games/{store.game_by_id(db, game_id=used.game_id).public_id}/play")
        return _invite_gone(request, db, token, exc, name)
    game = store.game_by_id(db, game_id=seat.game_id)
    assert game is not None
    if joined:  # a join form loaded before this browser joined with it, in another tab
        try:
            store.check_name_again(game, seat, name)
        except Invalid as exc:  # said on the seat's page, rather than a redirect that drops the name
            access = _access(db, principal, game)
            note = f"You had joined already: {exc}."
            view = views.player_view(db, game, seat.player_id)
            return _play(request, db, game, access, view, principal=principal, notice=note, status=exc.status)
        return _redirect(f"/games/{game.public_id}/play")
    # Under the game's lock, so two tabs joining at once take one seat: with a session, by its
    # grants; a new browser's, by the form token its tabs share (the first join's session keeps it).
    store.lock_game(db, game_id=game.id)
    held = _held_seat(db, principal, seat)
    other_tab = seat_of_new_browser(db, pre_session=pre_session, game_id=seat.game_id, now=clock())
    if other_tab == seat.player_id:  # this very invite, joined in another tab a moment ago
        db.rollback()
        return _redirect(f"/games/{game.public_id}/play")
    if other_tab is not None:
        held = next(s for s in store.seats_of(db, game_id=game.id) if s.player_id == other_tab)
    if held is not None:  # a join form loaded before this browser took another seat of the game
        return _join_page(request, game, seat, held=held, refused=True)
    try:
        store.join_seat(db, seat=seat, name=name, now=clock())
    except Gone as exc:  # another join with the same invite won the race
        db.rollback()
        return _invite_gone(request, db, token, exc, name)
    except Invalid as exc:  # the name: said on the form, with what was typed, to try another
        db.rollback()
        return _join_page(request, game, seat, refusal=_refusal("join", exc, {"name": ("name",)}, {"name": name[: NAME_BOXES["display"]]}))
    session, new = _ensure_session(db, principal, settings, clock, pre_session=pre_session)
    add_grant(db, principal_id=session.id, game_id=game.id, role=Role.PLAYER, player_id=seat.player_id)
    db.commit()
    return _with_session_cookie(request, _redirect(f"/games/{game.public_id}/play"), new, settings)


@router.post("/signout")
def sign_out(
    request: Request, db: SessionDep, principal: PrincipalDep, clock: ClockDep, csrf: CsrfField = None
) -> Response:
    """Forget this browser: its session and what it grants are deleted, so the cookie opens nothing.
    A seat nobody else plays now is said to have been left in its game's event log."""
    check_csrf(request, csrf)
    if principal is not None:
        store.log_seats_left(db, principal_id=principal.id, now=clock(), how="its player signed out of the browser")
        delete_principal(db, principal_id=principal.id)
        db.commit()
    response = _redirect("/")
    ended = session_token(request)
    if ended:
        # Its pages still open in other tabs can then be answered "signed out" (_signed_out_here).
        settings = request.app.state.settings
        set_cookie(response, SIGNED_OUT_COOKIE, session_csrf(ended), secure=secure_cookies(request),
                   max_age=settings.session_days * 86400, root=settings.root_path)
    delete_session_cookie(request, response)
    return response


@router.get("/organiser/{token}")
def organiser_form(request: Request, token: str, db: SessionDep, limiter: LimiterDep) -> Response:
    """The organiser link: confirm to organise from this browser."""
    note_secret(request)  # the link is in the address, and its page may show it
    game = game_by_organiser_link(db, token=token)
    if game is None:
        raise limiter.refused(client_key(request), HTTPException(status_code=404, detail=ORGANISER_LINK_WRONG))
    return render(request, "organiser_link.html", {"game": game, "token": token})


@router.post("/organiser/{token}")
def organiser_claim(
    request: Request,
    token: str,
    db: SessionDep,
    principal: PrincipalDep,
    settings: SettingsDep,
    clock: ClockDep,
    limiter: LimiterDep,
    csrf: CsrfField = None,
) -> Response:
    """Organise the game from this browser."""
    try:
        check_csrf(request, csrf)
    except HTTPException as stale:
        # A form loaded before this browser had a session, or expired: its one button again, with
        # the browser's token, while the link is right; anything else is refused as it was.
        note = _stale_note(request, csrf).format(then="press the button")
        if not note:
            raise
        linked = game_by_organiser_link(db, token=token)
        if linked is None:  # the lookup was a guess at the link, and a wrong one: counted as on its page
            raise limiter.refused(client_key(request), stale) from None
        return render(request, "organiser_link.html", {"game": linked, "token": token, "notice": note}, status=403)
    game = game_by_organiser_link(db, token=token)
    if game is None:
        raise limiter.refused(client_key(request), HTTPException(status_code=404, detail=ORGANISER_LINK_WRONG))
    # Only a browser without a session is given one, and counted for it.
    try:
        with contextlib.nullcontext() if principal is not None else new_credential_allowed(request, "browser session"):
            session, new = _ensure_session(db, principal, settings, clock)
            add_grant(db, principal_id=session.id, game_id=game.id, role=Role.ORGANISER)
            db.commit()
    except LimitReached as exc:  # said on the link's own page, whose button works once the wait is over
        context = {"game": game, "token": token, "notice": exc.sentence}
        response = render(request, "organiser_link.html", context, status=exc.status_code)
        response.headers.update(exc.headers or {})
        return response
    return _with_session_cookie(request, _redirect(f"/games/{game.public_id}/organise"), new, settings)


def _sequels(db: SessionDep, principal: ApiPrincipal | None, game: GameRow) -> dict[str, GameRow | None]:
    """The game's rematch and the game it is the rematch of, for its pages to link to: each only
    if this browser may see it (a private game's existence is told to nobody else)."""
    principal_id = None if principal is None else principal.id
    return {
        "rematch": store.rematch_of(db, game=game, principal_id=principal_id),
        "previous": store.previous_game(db, game=game, principal_id=principal_id),
    }


def _live(
    request: Request,
    db: SessionDep,
    game: GameRow,
    access: Access,
    principal: ApiPrincipal | None,
    shown: views.OrganiserView | None = None,
    *,
    as_player: bool = False,
    rows: tuple[list[SeatRow], list[TeamRow]] | None = None,
) -> dict[str, str] | None:
    # What a page's script polls to follow the game, while there is something to follow.
    # ``shown``: the organiser view of this page, counted instead of read again. ``as_player``: the
    # player's page (``?as=player``), the only one whose poll is given the mark of who has ordered;
    # it follows a player's version even for its organiser, so that another seat's order does not
    # interrupt an organiser typing their own.
    if game.status not in views.LIVE:
        return None
    principal_id = None if principal is None else principal.id
    organiser = access.organiser and not as_player
    now: datetime = request.app.state.clock()  # the clock ClockDep gives: invites expire by it
    version = views.live_version(
        db, game, organiser=organiser, principal_id=principal_id, now=now, shown=shown, rows=rows
    )
    query = "?as=player" if as_player else ""
    # as_of: when the page was made; its script moves it on at every poll that finds nothing new, so
    # the reader can tell a page that is following the game from one that lost the server.
    live = {"url": f"/games/{game.public_id}/state{query}", "version": version, "as_of": now.isoformat()}
    if as_player and access.player_id is not None:
        live["own"] = views.own_orders_mark(db, game, access.player_id)
    return live


@router.get("/games/{public_id}")
def game_page(
    request: Request, public_id: str, db: SessionDep, principal: PrincipalDep, settings: SettingsDep, screen: str = ""
) -> Response:
    """The game as a spectator sees it: finished turns, tables, bracket; never current orders (R13).
    ``?screen=1``: the same for a television across a room (large type, the turn's essentials)."""
    game = store.game_by_public_id(db, public_id=public_id)
    access = _access(db, principal, game)
    _watchable(game, access)
    waiting: tuple[views.TurnTeam, ...] = ()
    rows = None
    if screen == "1" and access.organiser and game.status in (GameStatus.RUNNING, GameStatus.PAUSED):
        # The organiser's big screen names the teams the turn waits for, as the organiser's and every
        # player's page do (whether, never what: R13); a spectator's says only what it waits for. Its
        # version moves as orders come in, so the list follows without a touch. The seats and teams
        # are read once for the list, the public view and the version: it reloads at every order.
        rows = (store.seats_of(db, game_id=game.id), store.teams_of(db, game_id=game.id))
        waiting = tuple(t for t in views.who_ordered_now(db, game, "", rows) if t.state in views.AWAITED_STATES)
    seat_rows, team_rows = (None, None) if rows is None else rows
    view = views.spectator_view(db, game, seat_rows=seat_rows, team_rows=team_rows)
    context = {
        "view": view, "access": access, "live": _live(request, db, game, access, principal, rows=rows),
        "screen": screen == "1", "waiting": waiting, **_sequels(db, principal, game),
        # printed under the title: where a sheet's reader follows the game and verifies it
        "address": f"{_base_url(request, settings)}/games/{game.public_id}",
    }
    return render(request, "game.html", context)


@router.get("/games/{public_id}/teams/{team}")
def team_page(request: Request, public_id: str, team: str, db: SessionDep, principal: PrincipalDep) -> Response:
    """One team's whole tournament: its matches in order, both orders, every die, SCRUM before and
    after each; like the game page, resolved turns only (R13), so its next match shows no order."""
    game = store.game_by_public_id(db, public_id=public_id)
    access = _access(db, principal, game)
    _watchable(game, access)
    view = views.spectator_view(db, game)
    if team not in view.teams:
        return _no_such_team(request, view, team)
    context = {"view": views.team_history(view, team), "access": access}
    return render(request, "team.html", context)


def _no_such_team(request: Request, view: views.SpectatorView, team: str) -> Response:
    """404 for a team the game does not have, naming the teams it has as a person knows them (by
    name, group by group, each a link to its page) rather than by the ids in their addresses."""
    game = view.game
    if view.teams:
        message = f"this game has no team {quoted(team)}: its teams are below, each with a link to its page"
    elif game.status is GameStatus.ENDED:
        message = f"this game has no team {quoted(team)}: it was ended before it started, so no team was drawn"
    else:
        message = f"this game has no team {quoted(team)} yet: the teams are drawn when the game starts"
    known = sorted(view.teams.values(), key=lambda info: (info.group, info.name.casefold(), info.id))
    context = {"status": 404, "message": message, "known_teams": known,
               "game_page": f"/games/{game.public_id}", "game_name": game.name}
    return render(request, "error.html", context, status=404)


@router.get("/games/{public_id}/state")
def game_state(
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    as_: Annotated[str, Query(alias="as")] = "",
) -> Response:
    """Where the game stands, for the pages' script: they reload when ``version`` changes. The
    player's page asks ``?as=player``: the version a player has (for an organiser who plays too,
    one that stays put as other seats order) and ``who_ordered``, the mark of its list of who has
    ordered, which the other pages' polls are spared working out."""
    game = store.game_by_public_id(db, public_id=public_id)
    access = _access(db, principal, game)
    _watchable(game, access)
    as_player = as_ == "player" and access.player_id is not None
    body = views.watch_state(
        db,
        game,
        organiser=access.organiser and not as_player,
        principal_id=None if principal is None else principal.id,
        now=(now := clock()),
    )
    if as_player and access.player_id is not None and game.status in (GameStatus.RUNNING, GameStatus.PAUSED):
        # The player's page refreshes its list of who has ordered when this mark moves, without
        # a reload: their version stays put as orders come in, so as not to interrupt their typing.
        body["who_ordered"] = views.who_ordered_mark(views.who_ordered_now(db, game, access.player_id))
        # The player's own orders and autopilots as they stand: sent from another tab or device,
        # they are not what this page shows (its version stays put for any seat's order).
        body["own"] = views.own_orders_mark(db, game, access.player_id)
    # The server's time, by the clock its deadlines go by (not the Date header's, which is the
    # machine's): the page's script counts down by it, and takes it again should the device's
    # clock jump while the page is open.
    headers = {"Cache-Control": "no-store", "Sevens-Server-Time": now.isoformat()}
    return Response(json.dumps(body), media_type="application/json", headers=headers)


@router.get("/games/{public_id}/who-ordered")
def who_ordered_part(
    request: Request, public_id: str, db: SessionDep, principal: PrincipalDep, turn: int | None = None
) -> Response:
    """The player's page's list of who has ordered this turn (never what, R13), alone: what its
    script puts in place of the list when ``/state`` says it changed (403 to a browser with no seat).
    ``turn``: the turn the page shows; 409 once it is no longer the open one, so that a fetch that
    crossed the turn's resolution does not put another turn's list (or none) under its heading."""
    game = store.game_by_public_id(db, public_id=public_id)
    access = _access(db, principal, game)
    _watchable(game, access)
    player_id = _player(access)
    if turn is not None and not (game.status in (GameStatus.RUNNING, GameStatus.PAUSED) and game.current_turn == turn):
        raise HTTPException(status_code=409, detail=f"turn {turn} is not open any more: reload the page")
    view = views.player_view(db, game, player_id)
    response = render(request, "who_ordered.html", {"view": view})
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Who-Ordered"] = view.who_ordered_mark
    return response


@router.get("/games/{public_id}/links")
def links_state(public_id: str, db: SessionDep, principal: PrincipalDep) -> Response:
    """The marks of the links this browser may have been shown (:func:`views.link_marks`), for a
    page that shows a link once to tell, as it polls, whether a newer one has replaced it (made in
    another tab, or another browser)."""
    game = store.game_by_public_id(db, public_id=public_id)
    access = _access(db, principal, game)
    _watchable(game, access)
    if not access.organiser:
        _player(access)
    body = views.link_marks(db, game, organiser=access.organiser, player_id=access.player_id)
    return Response(json.dumps(body), media_type="application/json", headers={"Cache-Control": "no-store"})


class SaidOnce:
    """The games something was said about in the log, so that it is said once each, not at every
    request: at most ``most`` of them, the least recently met forgotten first (and said again if met
    again), and a game forgotten once it is deleted. Kept for the server's life, a set of every
    damaged game's id only grew.

    >>> said = SaidOnce(2)
    >>> [said.first_time(game) for game in ("a", "b", "a", "c", "b", "a")]
    [True, True, False, True, True, True]
    >>> said.forget("a"); said.forget("z"); said.first_time("b"), len(said)
    (False, 1)
    """

    def __init__(self, most: int) -> None:
        self.most = most
        self._said: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()  # the error handler and the delete pages run in different threads

    def first_time(self, game: str) -> bool:
        """Whether nothing was said about ``game`` yet (it is now counted as said)."""
        with self._lock:
            if game in self._said:
                self._said.move_to_end(game)
                return False
            self._said[game] = None
            while len(self._said) > self.most:
                self._said.popitem(last=False)
            return True

    def forget(self, game: str) -> None:
        with self._lock:
            self._said.pop(game, None)

    def __len__(self) -> int:
        return len(self._said)


DAMAGED_SAID_MOST = 1000
"""Damaged games said in the log remembered at once: a few KB, where damaged games are rare."""


def say_damaged(request: Request, public_id: str, exc: DamagedRecord) -> None:
    """Tell the operator, once per game (not at each request, nor each poll), that a game's stored
    record no longer replays: its pages say so to everyone, who may not know whom to tell."""
    said: SaidOnce = request.app.state.damaged_said
    if said.first_time(public_id):
        # Not where it fails: a record's words may quote a name, which no log line holds.
        log.error(
            "game %s: its stored record is damaged and no longer replays (its Verify page says where); its pages "
            "say so (answered 500, said once): restore the game from a backup made before, or its organiser "
            "deletes it", public_id or "?",
        )


@router.get("/games/{public_id}/organise")
def organise_page(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    done: str = "",
    team: str = "",
    turn: str = "",
    seat: str = "",
) -> Response:
    """The organiser's page: seats, who has not ordered (never what), controls, the event log.

    After a house bot was set, ``done`` and ``team`` say for which team; the page words the note
    itself, in that team's row, so a crafted link cannot put text of its own on it. After a button
    of the turn's (start, resolve, pause, resume, extend), ``done`` names it (and ``turn`` the
    turn resolved): the page says what it did just before the turn's controls (``#done``), where
    it comes back, so the next Tab goes on to them. After a seat was handed to the bots, ``seat``
    names it and the note stands in its row (if nobody plays it now)."""
    game = store.game_by_public_id(db, public_id=public_id)
    access, held = _organiser_access(db, principal, game)
    _watchable(game, access)
    if not access.organiser:
        return _not_organising(request, game)
    number = views.turn_in_link(turn)
    together = done == "resolve" and number is not None and store.resolved_together(db, game_id=game.id, first=number)
    act = _turn_done(game, done, turn, resolved_together=together)
    try:
        return _organise(
            request, db, game, (access, held), clock, principal=principal, done_team=team if done == "house-bot" else "",
            done_seat=seat if done == "release" else "", done_act=act, done_turn=str(views.turn_in_link(turn)) if act == "resolve" else "",
        )
    except DamagedRecord as exc:
        # The organiser's way out of a game that can no longer be played: the error page, with the
        # game's Delete form, which needs no record.
        say_damaged(request, game.public_id, exc)
        context = {"status": 500, "message": str(exc), "damaged": True, "game_link": f"/games/{game.public_id}", "delete": game}
        return render(request, "error.html", context, status=500)


def _turn_done(game: GameRow, done: str, turn: str, *, resolved_together: bool = False) -> str:
    """``done``, the organiser's button of the turn just pressed, if the game stands as that
    button leaves it (else empty: nothing is said); the page words the note from the game.

    A note that names the open turn is said only in the turn the button was pressed in (``turn``
    for resume and extend): a reload or a bookmark of the address in a later turn would otherwise
    say that turn's deadline was just resumed or moved. The note after Resolve stands while no
    turn was resolved since the button's (``resolved_together``: turn ``turn`` and every one
    after it were resolved at one moment, those after it held up by nobody).

    >>> running = GameRow(status=GameStatus.RUNNING, current_turn=2, turn_seconds=3600)
    >>> _turn_done(running, "resolve", "1", resolved_together=True), _turn_done(running, "pause", "")
    ('resolve', '')
    >>> _turn_done(running, "resolve", "1"), _turn_done(running, "resolve", "2")
    ('', '')
    >>> _turn_done(running, "extend", "2"), _turn_done(running, "resume", "2")
    ('extend', 'resume')
    >>> _turn_done(running, "extend", "1"), _turn_done(running, "resume", "1"), _turn_done(running, "extend", "")
    ('', '', '')
    >>> _turn_done(running, "start", ""), _turn_done(GameRow(status=GameStatus.RUNNING, current_turn=1), "start", "")
    ('', 'start')
    """
    status, timed = game.status, game.turn_seconds is not None
    open_now = status in (GameStatus.RUNNING, GameStatus.PAUSED)
    number = views.turn_in_link(turn)
    this_turn = number == game.current_turn
    if done == "resolve":
        return done if (status is GameStatus.FINISHED or open_now) and resolved_together else ""
    stands = {
        "start": open_now and game.current_turn == 1,  # its note says turn 1 is open
        "pause": status is GameStatus.PAUSED,
        "resume": status is GameStatus.RUNNING and timed and this_turn,
        "extend": open_now and timed and this_turn,
        "deadline": open_now and timed and this_turn,
        "deadline-at": status is GameStatus.RUNNING and timed and this_turn,
    }
    return done if stands.get(done, False) else ""


def _organise(
    request: Request,
    db: SessionDep,
    game: GameRow,
    access_held: tuple[Access, frozenset[str]],
    clock: ClockDep,
    *,
    principal: ApiPrincipal | None,
    refusal: Refusal | None = None,
    notice: str = "",
    status: int = 200,
    done_team: str = "",
    done_seat: str = "",
    done_act: str = "",
    done_turn: str = "",
) -> Response:
    # ``refusal``: one of the page's forms sent back, shown there with the typing kept; ``notice``:
    # a button refused, said at the top of the page. Either way the address shown is the page's.
    # ``done_team``: the team whose house bot was just set, said in its row. ``done_act``: the
    # button of the turn's just pressed (``done_turn``: the turn it resolved), said before them.
    access, held = access_held
    view = views.organiser_view(db, game, now=clock(), held=held)
    context: dict[str, Any] = {
        "view": view, "access": access, "live": _live(request, db, game, access, principal, view), "refusal": refusal,
        "notice": notice, "done_team": done_team, "done_seat": done_seat, "done_act": done_act, "done_turn": done_turn,
        **_sequels(db, principal, game),
    }
    previous = context["previous"]
    if previous is not None and game.status is GameStatus.LOBBY:
        # A rematch's seats, until taken: whose each was in the game before (its teams are drawn at
        # the start), so that a lost sheet of invites can be made again seat by seat. Said only to
        # whom may see that game, as its link is.
        context["seat_names_before"] = {s.player_id: s.name for s in store.seats_of(db, game_id=previous.id) if s.name}
    if refusal is not None or notice:
        context["canonical"] = f"/games/{game.public_id}/organise"
    return render(request, "organise.html", context, status=status)


def _organiser_refused(
    request: Request, db: SessionDep, principal: ApiPrincipal | None, game: GameRow, clock: ClockDep, refusal: Refusal,
    status: int,
) -> Response:
    """The organiser page again, with a form of it refused (nothing of the refused act is kept)."""
    db.rollback()
    return _organise(
        request, db, game, _organiser_access(db, principal, game), clock, principal=principal, refusal=refusal,
        status=status,
    )


def _stands(game: GameRow) -> str:
    """Where the game stands now, in a sentence, for a note on a button pressed too late.

    >>> _stands(GameRow(status=GameStatus.PAUSED, current_turn=3))
    'Turn 3 is open now, its deadline paused.'
    """
    return {
        GameStatus.LOBBY: "The game has not started yet.",
        GameStatus.RUNNING: f"Turn {game.current_turn} is open now.",
        GameStatus.PAUSED: f"Turn {game.current_turn} is open now, its deadline paused.",
        GameStatus.FINISHED: "The game is finished.",
        GameStatus.ENDED: "The game was ended early.",
    }[game.status]


_AGAIN = "(a second click, or another tab)"
"""How an organiser's act comes to be done twice: said in the notes on the organiser page."""


def _not_done(act: str, *, turn: int = 0, seat: str = "") -> str:
    """What was not done when the organiser page's button ``act`` was refused, as a note begins.

    >>> _not_done("invite", seat="p2"), _not_done("organiser-link")
    ('No new link was made for seat 2', 'No new organiser link was made')
    """
    said = views.seat_said(seat)  # by its number, as the page's Seat column names it
    return {
        "start": "The game was not started",
        "resolve": f"Turn {turn} was not resolved" if turn else "The turn was not resolved",
        "pause": "The deadline was not paused",
        "resume": "The deadline was not resumed",
        "extend": "The deadline was not moved",
        "deadline": "The deadline was not set",
        "deadline-at": "The deadline was not set",
        "end": "The game was not ended",
        "invite": f"No new link was made for {said}" if seat else "No new link was made",
        "sign-out": f"{said.capitalize()} was not signed out and no new link was made" if seat else "No seat was signed out",
        "house-bot": "The bot was not changed",
        "release": f"{said.capitalize()} was not handed to the bots" if seat else "No seat was handed to the bots",
        "organiser-link": "No new organiser link was made",
        "remove-name": "No name was removed",
        "delete": "The game was not deleted",
        "rematch": "No rematch was created",
    }[act]


def _late_note(act: str, game: GameRow, exc: StoreError, *, turn: int = 0, seat: str = "") -> str:
    """What the organiser page says when one of its buttons (``act``) was refused by ``exc``: what
    happened and what to do now, from where ``game`` stands now (read after the refusal). Most
    often another tab, a second click or the deadline did it first, and there is nothing to do.

    >>> running = GameRow(status=GameStatus.RUNNING, current_turn=4)
    >>> print(_late_note("resolve", running, Conflict("gone"), turn=3))
    Turn 3 had already been resolved (at its deadline, once every order was ready, or from another tab): nothing more to do. Turn 4 is open now.
    >>> print(_late_note("pause", GameRow(status=GameStatus.ENDED), Conflict("only a running game...")))
    The deadline was not paused: the game was ended early, so there is nothing left to do.
    """
    status = game.status
    what = _not_done(act, turn=turn, seat=seat)
    if act == "start" and game.started_at is not None:
        return f"The game had already been started {_AGAIN}: nothing more to do. {_stands(game)}"
    if act == "resolve" and game.current_turn > turn > 0:
        return (
            f"Turn {turn} had already been resolved (at its deadline, once every order was ready, or "
            f"from another tab): nothing more to do. {_stands(game)}"
        )
    if act == "end" and status == GameStatus.ENDED:
        return f"The game had already been ended {_AGAIN}: nothing more to do."
    if act == "end" and status == GameStatus.FINISHED:
        return "The game had already finished (its last turn was resolved): there is nothing to end."
    if status == GameStatus.FINISHED:
        return f"{what}: the game has finished, so there is nothing left to do."
    if status == GameStatus.ENDED:
        return f"{what}: the game was ended early, so there is nothing left to do."
    if act == "pause" and status == GameStatus.PAUSED:
        return f"The deadline was already paused {_AGAIN}: nothing more to do. Resume restarts it with the time left."
    if act == "resume" and status == GameStatus.RUNNING:
        return f"The deadline was already running again {_AGAIN}: nothing more to do."
    if act == "invite" and isinstance(exc, Conflict):
        return (
            f"{what}: its player has taken the seat since this page was loaded, and a link from the "
            "organiser would let a second person see its orders. If the seat is played by the wrong person, "
            "or its player lost their browser, use 'Sign out and new link' in its row."
        )
    reason = views.seats_named(str(exc))  # the store's words keep ids, which the API gives
    return f"{what}: {reason[:1].lower()}{reason[1:]}. Nothing was changed. {_stands(game)}"


def _organiser_noted(
    request: Request, db: SessionDep, principal: ApiPrincipal | None, game: GameRow, clock: ClockDep,
    act: str, exc: StoreError, *, turn: int = 0, seat: str = "",
) -> Response:
    """The organiser page again after one of its buttons was refused (``exc``, its HTTP status
    kept), with a note at its top saying what happened and what to do now; nothing is kept of the
    refused act."""
    db.rollback()  # also reads the game afresh: the note says where it stands now
    note = _late_note(act, game, exc, turn=turn, seat=seat)
    return _organise(
        request, db, game, _organiser_access(db, principal, game), clock, principal=principal, notice=note,
        status=exc.status,
    )


def _seat_named(db: SessionDep, game: GameRow, player_id: str) -> str:
    """``player_id`` if it is one of the game's seats, else "": a note names a seat only if it is
    one (a forged id is said by the store's reason, quoted)."""
    return player_id if any(s.player_id == player_id for s in store.seats_of(db, game_id=game.id)) else ""


def _organiser_limited(
    request: Request, db: SessionDep, principal: ApiPrincipal | None, game: GameRow, clock: ClockDep,
    act: str, exc: LimitReached, *, seat: str = "", refusal: Refusal | None = None,
) -> Response:
    """The organiser page again after one of its acts was refused by the hourly limit on organiser
    acts (429, with its Retry-After): said at the act's form with what was typed kept (``refusal``,
    whose message is put in), or else at the top of the page, with when to try again."""
    db.rollback()
    if refusal is not None:
        refusal = Refusal(refusal.form, str(exc.detail), (), refusal.values)
    note = "" if refusal is not None else f"{_not_done(act, seat=seat)}: {exc.detail}."
    response = _organise(
        request, db, game, _organiser_access(db, principal, game), clock, principal=principal, notice=note,
        refusal=refusal, status=exc.status_code,
    )
    response.headers.update(exc.headers or {})
    return response


@router.get("/games/{public_id}/play")
def play_page(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    done: str = "",
    team: str = "",
    turn: str = "",
) -> Response:
    """The player's page: own teams, SCRUM, next opponents, an order form per team.

    After a form, ``done``, ``team`` and ``turn`` say what was just done; the page words the
    message itself, so a crafted link cannot put text of its own on a player's page. It stands at
    the end of that team's part (``#message``), so that the page comes back there and the next Tab
    goes on to the next team's order; if that order's turn has since been resolved (it was the
    last order wanted), the message says so and stands before the first team instead, the next
    Tab going to the new turn's first order."""
    game = store.game_by_public_id(db, public_id=public_id)
    access = _access(db, principal, game)
    _watchable(game, access)
    if access.player_id is None:
        return _no_seat(request, game)
    player_id = access.player_id
    view = views.player_view(db, game, player_id)
    # A reload or a restored tab keeps the address: an order's note is said in its own turn, and
    # after it only as long as no turn was resolved since (that order's resolved its turn and those
    # nobody held up after it, all at once); an autopilot's while its team plays.
    number = views.turn_in_link(turn)
    held = None
    if done in ("saved", "ready") and number is not None:
        # The order the note would speak of, as it stands: the address may come from anyone.
        row = store.orders_of_player(db, game_id=game.id, turn=number, player_id=player_id).get(team)
        held = None if row is None else row.ready
    message = views.done_message(view, done, team, turn, held)
    past = done in ("saved", "ready") and number is not None and number != game.current_turn
    if past and not store.resolved_together(db, game_id=game.id, first=number or 0):
        message = ""
    if done == "autopilot" and not any(t.info.id == team and t.info.in_play for t in view.teams):
        message = ""
    moved = views.turn_moved_on(view.public.status, game.current_turn, done, turn) if message else ""
    if moved:  # said before the first team, whose new order the next Tab reaches
        return _play(request, db, game, access, view, principal=principal, message=f"{message} {moved}")
    return _play(request, db, game, access, view, principal=principal, message=message, team=team)


def _play_noting(
    request: Request,
    db: SessionDep,
    game: GameRow,
    access: Access,
    player_id: str,
    team: str,
    *,
    principal: ApiPrincipal | None,
    status: int,
    said: tuple[str, str],
) -> Response:
    """The player's page as it stands now, with a notice about ``team``: its name between the two
    halves of ``said``."""
    view = views.player_view(db, game, player_id)
    name = next((t.info.name for t in view.teams if t.info.id == team), team)
    return _play(request, db, game, access, view, principal=principal, notice=f"{said[0]} {name} {said[1]}", status=status)


def _play(
    request: Request,
    db: SessionDep,
    game: GameRow,
    access: Access,
    view: views.PlayerView,
    *,
    principal: ApiPrincipal | None,
    message: str = "",
    refusal: Refusal | None = None,
    notice: str = "",
    team: str = "",
    status: int = 200,
) -> Response:
    # ``refusal``: one of ``team``'s forms sent back, shown at that form with the typing kept; the
    # address shown is the page's, at that team. ``notice``: a form refused that is no longer on
    # the page (the game moved on), said at the top. ``message``: what ``team``'s form did, said
    # at the end of that team's part, or before the first team when ``team`` is empty.
    context: dict[str, Any] = {
        "view": view, "access": access, "message": message, "live": _live(request, db, game, access, principal, as_player=True),
        "refusal": refusal,
        "notice": notice, "team": team, **_sequels(db, principal, game),
    }
    if refusal is not None:
        context["canonical"] = f"/games/{game.public_id}/play#team-{team}"
    elif notice:
        context["canonical"] = f"/games/{game.public_id}/play"
    return render(request, "play.html", context, status=status)


_ORDER_BOXES: dict[str | None, tuple[str, ...]] = {"force": ("force",), "flair": ("flair",), None: ("force", "flair")}
"""Where the order form says an order refused (R3): at FORCE or FLAIR, or at both when it is the
order as a whole (more points than the team holds); the turn is a hidden field, said at the top."""



class _LeftEmpty(Invalid):
    """An order form sent with FORCE or FLAIR empty (``boxes``), refused rather than read as 0: a
    newcomer who pressed *Save and mark ready* without typing spent a match with nothing. Spending
    0 is an order the rules allow (R3), typed as 0."""

    def __init__(self, boxes: tuple[str, ...]) -> None:
        super().__init__(_left_empty(boxes, ""), field=boxes[0] if len(boxes) == 1 else None)
        self.boxes = boxes


def _left_empty(boxes: tuple[str, ...], team: str) -> str:
    """What the order form says of its boxes left empty, for the team named ``team``.

    >>> _left_empty(("force", "flair"), "Fiji")
    'FORCE and FLAIR for Fiji were left empty: type the points to spend on each, 0 in both to spend nothing this match'
    >>> _left_empty(("flair",), "Fiji")
    'FLAIR for Fiji was left empty: type the points to spend on FLAIR (a multiple of 3), 0 for none'
    """
    named = f" for {team}" if team else ""
    if len(boxes) > 1:
        return f"FORCE and FLAIR{named} were left empty: type the points to spend on each, 0 in both to spend nothing this match"
    box = boxes[0].upper()
    multiple = " (a multiple of 3)" if box == "FLAIR" else ""
    return f"{box}{named} was left empty: type the points to spend on {box}{multiple}, 0 for none"


_BOT_BOXES: dict[str | None, tuple[str, ...]] = {"strategy": ("strategy",), "strategy_weight": ("weight",)}
"""Where a bot form (autopilot, house bot) says a refused bot: at the menu or the weight box."""


def _typed_order(force: str, flair: str) -> str:
    """An order as its form's boxes held it, for a page that says it was not saved: as typed,
    unchecked, and a box left empty said so rather than left out.

    >>> _typed_order(" 7 ", "6"), _typed_order("", "x")
    ('7 FORCE + 6 FLAIR', '(left empty) FORCE + x FLAIR')
    """
    return f"{force.strip() or '(left empty)'} FORCE + {flair.strip() or '(left empty)'} FLAIR"


@router.post("/games/{public_id}/orders")
def post_order(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    team: Annotated[str, Form(max_length=64)] = "",
    turn: Annotated[str, Form(max_length=20)] = "",
    force: Annotated[str, Form(max_length=20)] = "",
    flair: Annotated[str, Form(max_length=20)] = "",
    action: Annotated[str, Form(max_length=20)] = "save",
    seat: Annotated[str, Form(max_length=100)] = "",
    team_name: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    """Save an order, or save it and mark it ready; refused orders change nothing."""
    try:
        check_csrf(request, csrf)
    except HTTPException:

        def form(game: GameRow, view: views.PlayerView) -> Refusal | None:
            # Only the turn's form it was typed for: the kept typing never crosses turns.
            mine = {t.info.id: t for t in view.teams}
            if team in mine and mine[team].match is not None and turn == str(game.current_turn):
                return Refusal(f"order-{team}", "", (), {"force": force, "flair": flair})
            return None

        def unkept(game: GameRow, view: views.PlayerView) -> str:
            # No form to keep it in (its turn resolved since, its team out): said, as it was typed.
            name = next((t.info.name for t in view.teams if t.info.id == team), None)
            if name is None:
                return ""
            sent = _typed_order(force, flair)
            if turn.strip().isascii() and turn.strip().isdigit() and 1 <= int(turn) < game.current_turn:
                return f"Your order for {name}, {sent} for turn {int(turn)}, was not saved: turn {int(turn)} has been resolved since."
            return f"Your order for {name}, {sent}, was not saved."

        then = "check the order and press Save or Ready"
        expired = _player_form_expired(
            request, db, principal, public_id, csrf, team=team, form=form, then=then, unkept=unkept
        )
        if expired is None:
            typed = f"{_typed_order(force, flair)}, turn {turn}"
            expired = _signed_out_here(request, db, principal, public_id, csrf, what="your order", typed=typed, seat=seat,
                                       team=team, team_name=team_name)
        if expired is None:
            raise
        return expired
    try:
        game = store.game_by_public_id(db, public_id=public_id)
        access = _access(db, principal, game)
    except NotFound:  # GameGone too: deleted as this request read it
        held = held_seat_form(request, public_id, seat, team=team, team_name=team_name)
        if held is None:
            raise  # answered as any game that is not there: nothing said of a private one
        return _order_of_deleted_game(request, held, clock(), turn=turn, force=force, flair=flair)
    sent = f"{_typed_order(force, flair)}, turn {turn}"
    if access.player_id is None:
        held = held_seat_form(request, public_id, seat, team=team, team_name=team_name)
        gone = _seat_gone(request, db, game, access, team=team, held=held, what="your order", typed=sent)
        if gone is not None:
            return gone
    _watchable(game, access)
    player_id = _player(access)
    if action not in ("save", "ready"):
        raise Invalid("action must be 'save' or 'ready'")
    try:
        turn_number = _int_field(turn, "the turn", field="turn")
        empty = tuple(box for box, typed in (("force", force), ("flair", flair)) if not typed.strip())
        if empty:
            raise _LeftEmpty(empty)
        force_points = _int_field(force, "R3: FORCE", field="force")
        flair_points = _int_field(flair, "R3: FLAIR", field="flair")
        assert turn_number is not None and force_points is not None and flair_points is not None
        store.save_order(
            db,
            game_id=game.id,
            player_id=player_id,
            team_id=team,
            turn=turn_number,
            force=force_points,
            flair=flair_points,
            ready=action == "ready",
            via="web",
            now=clock(),
            principal_id=None if principal is None else principal.id,
            then_advance=False,
        )
    except SeatSignedOut:
        # Signed out (or handed to the bots) after the check above, before the store locked the
        # game: the same page as when the check itself finds the seat gone.
        db.rollback()
        held = held_seat_form(request, public_id, seat, team=team, team_name=team_name)
        gone = _seat_gone(request, db, game, _access(db, principal, game), team=team, held=held, what="your order",
                          typed=sent, checked=True)
        assert gone is not None  # checked: always answered
        return gone
    except (Invalid, Conflict) as exc:
        db.rollback()
        view = views.player_view(db, game, player_id)
        mine = {t.info.id: t for t in view.teams}
        if team not in mine:
            raise  # not one of this player's teams: the error page says why
        name = mine[team].info.name
        # The rules' "Fiji, turn 1: " only repeats the team whose name heads the form.
        why = _left_empty(exc.boxes, name) if isinstance(exc, _LeftEmpty) else str(exc)
        if why.startswith(f"{name}, turn "):
            why = why.split(": ", 1)[1]
        # A Conflict comes from the store, once all three numbers are read.
        if isinstance(exc, Conflict) and turn_number is not None and 1 <= turn_number < game.current_turn:
            # Its turn was resolved first (the deadline, the last order ready, a second click or
            # another tab). The form now on the page, if any, is the new turn's, another match:
            # what was sent is said, not put in it, as the kept typing never crosses turns either.
            sent = f"{force_points} FORCE + {flair_points} FLAIR"
            before = store.orders_of_player(db, game_id=game.id, turn=turn_number, player_id=player_id).get(team)
            if before is not None and (before.force, before.flair) == (force_points, flair_points):
                note = (
                    f"Your order for {name}, {sent}, was already saved for turn {turn_number} {_AGAIN} and "
                    f"played when that turn was resolved: nothing more to do. {_stands(game)}"
                )
                return _play(request, db, game, access, view, principal=principal, notice=note, status=exc.status)
            resolved = f"turn {turn_number} had already been resolved when"
            how = "came in (at its deadline, once every order was ready, or from another tab)"
            if mine[team].match is None:  # the team plays no more, or the game is over: no form to say it at
                said = f"{resolved} it {how}. {mine[team].progress} {_stands(game)}"
                note = f"Your order for {name}, {sent}, was not saved: {said}"
                return _play(request, db, game, access, view, principal=principal, notice=note, status=exc.status)
            why = f"{resolved} this order {how}, so {sent} was not saved for it. This form is for turn "
            why += f"{game.current_turn}: type its order"
            refusal = Refusal(f"order-{team}", why)
            return _play(
                request, db, game, access, view, principal=principal, refusal=refusal, team=team, status=exc.status
            )
        if mine[team].match is None:
            # Its form went with the turn (the team is out, or the game is over): said at the top
            # of the page as it stands now.
            note = f"Your order for {name} was not saved: {why}. {_stands(game)}"
            return _play(request, db, game, access, view, principal=principal, notice=note, status=exc.status)
        # Said beside the form, with what was typed still in it.
        boxes = _ORDER_BOXES.get(exc.field, ()) if isinstance(exc, Invalid) else ()  # a stale turn: the whole form
        refusal = Refusal(f"order-{team}", why, boxes, {"force": force, "flair": flair})
        return _play(
            request, db, game, access, view, principal=principal, refusal=refusal, team=team, status=exc.status
        )
    db.commit()
    if action == "ready":
        # The order is kept first; the turn it may complete is worked out before the game's lock.
        try:
            store.advance(db, game_id=game.id, now=clock())
        except UnplayableOrder as exc:
            # Another saved order blocks the turn: this one is kept, which an error page alone
            # left unsaid ("Sorry: 409"), as if it had been refused; 200, as nothing was.
            db.rollback()
            return _play_noting(request, db, game, access, player_id, team, principal=principal, status=200,
                                said=("Your order for", f"is saved and ready, but {views.refusal_said(exc)}."))
        db.commit()
    word = "ready" if action == "ready" else "saved"
    return _redirect(f"/games/{game.public_id}/play?done={word}&team={team}&turn={turn_number}#message")


def _order_of_deleted_game(
    request: Request, form: HeldSeatForm, now: datetime, *, turn: str, force: str, flair: str
) -> Response:
    """The answer to an order form of a seat this browser held, sent after its game was deleted:
    said so, with what was typed and the team as its page named it, rather than the page of an
    address that never existed. Who deleted it is said when it can be known: the game was
    running when the form's page was made, so a tidy that deletes games over for N days cannot
    have deleted it within N days of that."""
    days = request.app.state.settings.delete_games_over_days
    if not days or now - form.shown < timedelta(days=days):
        by = "by its organiser"
    else:
        by = (
            f"by its organiser, or by this server (it deletes a game {days} day{'' if days == 1 else 's'} after "
            "it is over, and the page "
            f"of this form was made on {form.shown:%Y-%m-%d}, long enough ago)"
        )
    message = (
        f"This game was deleted {by} before your order arrived: it was not saved, and nothing "
        "more can be played in it. A deleted game is gone for good."
    )
    typed = {"team": form.team_name, "turn": turn, "order": _typed_order(force, flair)}
    return render(request, "error.html", {"status": 404, "message": message, "deleted_order": typed}, status=404)


def _player_form_expired(
    request: Request, db: SessionDep, principal: ApiPrincipal | None, public_id: str, csrf: str | None, *,
    team: str = "", form: Callable[[GameRow, views.PlayerView], Refusal | None] | None = None, then: str = "",
    unkept: Callable[[GameRow, views.PlayerView], str] | None = None,
) -> Response | None:
    """The player's page again for a form of it :func:`~sevens.web.security.check_csrf` refused
    that may come back (:func:`_stale_note`), nothing done: at the form ``form`` gives for the page
    as it is now, with what was typed (``then``: what to press), else said at the top, with what
    ``unkept`` says of the typing no form holds now. None: refused as before (another site's form,
    or this browser plays no seat of the game now)."""
    note = _stale_note(request, csrf, signed_in_form=True)
    game = _game_for_stale_form(db, principal, public_id) if note else None
    if game is None:
        return None
    access = _access(db, principal, game)
    if access.player_id is None:
        return None
    view = views.player_view(db, game, access.player_id)
    kept = None if form is None else form(game, view)
    if kept is not None:
        refusal = Refusal(kept.form, note.format(then=then), (), kept.values)
        return _play(request, db, game, access, view, principal=principal, refusal=refusal, team=team, status=403)
    said = note.format(then="check this page and send what you meant to")
    lost = "" if unkept is None else unkept(game, view)
    said += f" {lost}" if lost else ""
    return _play(request, db, game, access, view, principal=principal, notice=f"{said} {_stands(game)}", status=403)


def _bot_chosen(strategy: str, weight: str) -> str:
    """An autopilot form's choice as typed, for a page that says it was not saved: the bot's name
    and weight are not checked for a seat this browser no longer plays.

    >>> _bot_chosen("knockout-saver", " 2 "), _bot_chosen("", "")
    ('the bot knockout-saver, knockout weight 2', "the game's default bot")
    """
    chosen = f"the bot {strategy}" if strategy.strip() else "the game's default bot"
    return chosen + (f", knockout weight {weight.strip()}" if weight.strip() else "")


@router.post("/games/{public_id}/autopilot")
def post_autopilot(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    team: Annotated[str, Form(max_length=64)] = "",
    strategy: Annotated[str, Form(max_length=40)] = "",
    weight: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    """Pick the bot that plays a team's missed orders (R13), with a knockout weight if given; a
    refused bot sends the player's page back with the form as it was and the reason at its box."""
    try:
        check_csrf(request, csrf)
    except HTTPException:

        def form(game: GameRow, view: views.PlayerView) -> Refusal | None:
            if view.public.state is None or not any(t.info.id == team and t.info.in_play for t in view.teams):
                return None
            return Refusal(f"autopilot-{team}", "", (), {"strategy": strategy, "weight": weight})

        then = "check the bot and press Set"
        expired = _player_form_expired(request, db, principal, public_id, csrf, team=team, form=form, then=then)
        if expired is None:
            expired = _signed_out_here(request, db, principal, public_id, csrf, what="your choice of autopilot",
                                       typed=_bot_chosen(strategy, weight), team=team)
        if expired is None:
            raise
        return expired
    game = store.game_by_public_id(db, public_id=public_id)
    access = _access(db, principal, game)
    chosen = _bot_chosen(strategy, weight)
    if access.player_id is None:
        gone = _seat_gone(request, db, game, access, team=team, held=None, what="your choice of autopilot",
                          typed=chosen)
        if gone is not None:
            return gone
    _watchable(game, access)
    player_id = _player(access)
    try:
        store.set_autopilot(
            db,
            game_id=game.id,
            player_id=player_id,
            team_id=team,
            strategy=views.bot_name(strategy, weight),
            now=clock(),
            principal_id=None if principal is None else principal.id,
        )
    except SeatSignedOut:
        db.rollback()  # signed out between the check above and the store's lock: as found above
        gone = _seat_gone(request, db, game, _access(db, principal, game), team=team, held=None,
                          what="your choice of autopilot", typed=chosen, checked=True)
        assert gone is not None  # checked: always answered
        return gone
    except Conflict as exc:
        # The game ended or finished since the page was loaded, or the deadline passed: the page as
        # it stands now says so.
        db.rollback()
        return _play_noting(request, db, game, access, player_id, team, principal=principal, status=exc.status,
                            said=("The autopilot for", f"was not changed: {exc}."))
    except Invalid as exc:
        db.rollback()
        view = views.player_view(db, game, player_id)
        if view.public.state is None or not any(t.info.id == team and t.info.in_play for t in view.teams):
            raise  # not a form on this page (a team that is out has none): the error page says why
        refusal = _refusal(f"autopilot-{team}", exc, _BOT_BOXES, {"strategy": strategy, "weight": weight})
        return _play(
            request, db, game, access, view, principal=principal, refusal=refusal, team=team, status=exc.status
        )
    db.commit()
    return _redirect(f"/games/{game.public_id}/play?done=autopilot&team={team}#message")


@router.post("/games/{public_id}/house-bot")
def post_house_bot(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
    team: Annotated[str, Form(max_length=64)] = "",
    strategy: Annotated[str, Form(max_length=40)] = "",
    weight: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    """The organiser picks the bot of a team nobody plays (a house team or an unclaimed seat's); a
    refused bot sends the organiser page back with that team's form as typed and the reason there."""

    def form_now(game: GameRow) -> Refusal | None:
        housed = team in {t.team_id for t in store.house_teams(db, game=game)}
        return Refusal(f"house-bot-{team}", "", (), {"strategy": strategy, "weight": weight}) if housed else None

    weighted = f", knockout weight {weight.strip()}" if weight.strip() else ""
    game = _organiser_action(request, db, principal, public_id, csrf, form_now=form_now, act="house-bot",
                             organises=organises, typed=f"bot {strategy.strip()}{weighted}" if strategy.strip() else "")
    try:
        with organiser_act_allowed(request, game.public_id):
            store.set_house_bot(
                db, game_id=game.id, team_id=team, strategy=views.bot_name(strategy, weight), now=clock()
            )
    except StoreError as exc:
        db.rollback()
        if not isinstance(exc, Invalid) or team not in {t.team_id for t in store.house_teams(db, game=game)}:
            # No form for this team on the page now (its manager took the seat, it went out, the
            # game is over): said at the top of the page.
            return _organiser_noted(request, db, principal, game, clock, "house-bot", exc)
        refusal = _refusal(f"house-bot-{team}", exc, _BOT_BOXES, {"strategy": strategy, "weight": weight})
        return _organiser_refused(request, db, principal, game, clock, refusal, exc.status)
    except LimitReached as exc:
        kept = Refusal(f"house-bot-{team}", "", (), {"strategy": strategy, "weight": weight})
        housed = team in {t.team_id for t in store.house_teams(db, game=game)}
        return _organiser_limited(request, db, principal, game, clock, "house-bot", exc, refusal=kept if housed else None)
    # Back at the team's row, where the page says it is done: on a phone, or by keyboard, the top
    # of a long page is far from the next team's menu.
    return _back_to_organise(db, game, then=f"?done=house-bot&team={team}#house-{team}")


def _organiser_action(
    request: Request, db: SessionDep, principal: PrincipalDep, public_id: str, csrf: str | None, *,
    form_now: Callable[[GameRow], Refusal | None] | None = None, act: str = "", organises: str = "",
    seat: str = "", turn: str = "", typed: str = "",
) -> GameRow:
    """The game whose organiser page sent the form, checked: its token, and that this browser
    organises it. ``act`` names the form (as :func:`_not_done` does), with the ``seat`` or
    ``turn`` it was about, what was ``typed`` in it, and ``organises`` is its proof, for the page
    a browser signed out since the form was loaded gets (:func:`_organiser_signed_out_here`).

    Raises:
        ShownAgain: the browser signed out since the page was loaded (:func:`_organiser_signed_out_here`);
            or the form's token is stale but the form may come back (:func:`_stale_note`):
            the organiser page, nothing done, saying so at the form ``form_now`` gives for the game as
            it is now (with what was typed) if any, else at the top.
    """
    try:
        check_csrf(request, csrf)
    except HTTPException:
        ended = _organiser_signed_out_here(request, db, principal, public_id, csrf, organises=organises, act=act,
                                           seat=seat, turn=turn, typed=typed)
        if ended is not None:
            raise ShownAgain(ended) from None
        note = _stale_note(request, csrf, signed_in_form=True)
        game = _game_for_stale_form(db, principal, public_id) if note else None
        if game is None or not _access(db, principal, game).organiser:
            raise
        form = None if form_now is None else form_now(game)
        clock: Callable[[], datetime] = request.app.state.clock
        held = _organiser_access(db, principal, game)
        if form is None:
            said = note.format(then="check the page and press the button")
            raise ShownAgain(_organise(request, db, game, held, clock, principal=principal, notice=said, status=403)) from None
        refusal = Refusal(form.form, note.format(then="check what you typed and send it"), (), form.values)
        raise ShownAgain(_organise(request, db, game, held, clock, principal=principal, refusal=refusal, status=403)) from None
    game = store.game_by_public_id(db, public_id=public_id)
    access = _access(db, principal, game)
    _watchable(game, access)
    _organiser(game, access)
    return game


def _back_to_organise(db: SessionDep, game: GameRow, *, then: str = "") -> Response:
    """Commit an organiser's act and show the organiser page again; ``then``, added to its address,
    says what was done and where on the page (``?done=...#row``)."""
    db.commit()
    return _redirect(f"/games/{game.public_id}/organise{then}")


@router.post("/games/{public_id}/start")
def post_start(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
) -> Response:
    """Draw the groups and open turn 1."""
    game = _organiser_action(request, db, principal, public_id, csrf, act="start", organises=organises)
    now = clock()
    try:
        store.start_game(db, game_id=game.id, now=now, then_advance=False)
    except StoreError as exc:  # started already: a second click, another tab
        return _organiser_noted(request, db, principal, game, clock, "start", exc)
    db.commit()
    # Kept first: with no seat taken, the bots then play the game through before the game's lock.
    store.advance(db, game_id=game.id, now=now)
    return _back_to_organise(db, game, then="?done=start#done")


@router.post("/games/{public_id}/resolve")
def post_resolve(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
    turn: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    """Resolve the open turn now (saved orders count; missing ones play the autopilot, R13)."""
    game = _organiser_action(request, db, principal, public_id, csrf, act="resolve", organises=organises, turn=turn)
    number = _int_field(turn, "the turn")
    assert number is not None
    db.commit()  # the checks' reads ended: the bots then play the turn without holding the connection
    try:
        resolved = store.resolve_then_advance(
            db, game_id=game.id, turn=number, reason="organiser", now=clock(), actor="organiser"
        )
    except UnplayableOrder as blocked:
        # The organiser page again, its note naming the blocking team as the page names teams (an
        # error page said "team 'fiji'", its id); nothing of the turn was kept.
        db.rollback()
        why = views.refusal_said(blocked)
        access = _organiser_access(db, principal, game)
        return _organise(request, db, game, access, clock, principal=principal,
                         notice=f"{why[:1].upper()}{why[1:]}.", status=blocked.status)
    if not resolved:  # resolved already (the deadline, the last ready order, another tab), or the game is over
        exc = Conflict("it is not the open turn")
        return _organiser_noted(request, db, principal, game, clock, "resolve", exc, turn=number)
    return _back_to_organise(db, game, then=f"?done=resolve&turn={number}#done")


@router.post("/games/{public_id}/pause")
def post_pause(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
) -> Response:
    """Stop the deadline clock (recorded with who and when)."""
    game = _organiser_action(request, db, principal, public_id, csrf, act="pause", organises=organises)
    try:
        with organiser_act_allowed(request, game.public_id):
            store.pause_game(db, game_id=game.id, now=clock(), actor="organiser")
    except StoreError as exc:
        return _organiser_noted(request, db, principal, game, clock, "pause", exc)
    except LimitReached as exc:
        return _organiser_limited(request, db, principal, game, clock, "pause", exc)
    return _back_to_organise(db, game, then="?done=pause#done")


@router.post("/games/{public_id}/resume")
def post_resume(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
) -> Response:
    """Restart the deadline clock."""
    game = _organiser_action(request, db, principal, public_id, csrf, act="resume", organises=organises)
    try:
        with organiser_act_allowed(request, game.public_id):
            store.resume_game(db, game_id=game.id, now=clock(), actor="organiser")
    except StoreError as exc:
        return _organiser_noted(request, db, principal, game, clock, "resume", exc)
    except LimitReached as exc:
        return _organiser_limited(request, db, principal, game, clock, "resume", exc)
    return _back_to_organise(db, game, then=f"?done=resume&turn={game.current_turn}#done")


@router.post("/games/{public_id}/extend")
def post_extend(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
    hours: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    """Move the deadline later by a number of hours (recorded with who and when); a refused number
    sends the organiser page back with it in the box and the reason beside it."""
    return _change_deadline(request, public_id, db, principal, clock, csrf, hours, "extend", organises)


@router.post("/games/{public_id}/deadline")
def post_deadline(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
    hours: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    """Set the open turn's time left, in hours from now: bring the deadline forward or put it back
    (recorded with who and when); a refused number comes back in its box with the reason."""
    return _change_deadline(request, public_id, db, principal, clock, csrf, hours, "deadline", organises)


@router.post("/games/{public_id}/deadline-at")
def post_deadline_at(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
    at: Annotated[str, Form(max_length=30)] = "",
    utc_offset: Annotated[str, Form(max_length=10)] = "",
) -> Response:
    """Set the open turn's deadline to a clock time (``at``, as a datetime-local box sends it),
    read in the zone ``utc_offset`` says (minutes east of UTC, put in by the page's script from
    the browser's zone at that time), or in UTC when it is blank (no script ran); a refused time
    comes back in its box with the reason."""

    def read_clock_time() -> Callable[[GameRow], object]:
        deadline_at = views.clock_time(at, utc_offset)
        return lambda game: store.set_deadline_at(db, game_id=game.id, deadline_at=deadline_at, now=clock(), actor="organiser")

    return _deadline_form(
        request, public_id, db, principal, clock, csrf, organises, act="deadline-at", box="at", value=at,
        typed=at.strip(), boxed=_clock_time_boxed, boxes={"at": ("at",)}, read=read_clock_time,
    )


def _clock_time_boxed(game: GameRow) -> bool:
    """Whether the organiser page has the clock-time deadline form now: a running game with a deadline."""
    return game.status == GameStatus.RUNNING and game.turn_seconds is not None


def _deadline_boxed(game: GameRow, act: Literal["extend", "deadline"]) -> bool:
    """Whether the organiser page has the form of ``act`` (extend, or set the deadline) now."""
    return game.status in (GameStatus.RUNNING, GameStatus.PAUSED) and (
        game.turn_seconds is not None or (act == "deadline" and game.status == GameStatus.RUNNING)
    )


def _change_deadline(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: ApiPrincipal | None,
    clock: ClockDep,
    csrf: str | None,
    hours: str,
    act: Literal["extend", "deadline"],
    organises: str = "",
) -> Response:
    """The extend and set-the-deadline forms: ``hours`` later, or ``hours`` from now."""
    change, said, asked = (
        (store.extend_deadline, "extend by", "extend by a number of hours")
        if act == "extend"
        else (store.set_deadline, "set the time left to", "set the time left in hours")
    )

    def read_hours() -> Callable[[GameRow], object]:
        # As the create form's deadline: float() would also read "1_0" as 10, other scripts' digits,
        # "1e3"; a minus sign is let through, to be told the hours must be more than 0.
        if not _HOURS.fullmatch(hours.strip().removeprefix("-")):
            raise Invalid(f"{asked}, got {quoted(hours)}", field="hours")
        seconds = views.extend_seconds(_hours(hours.strip()), hours.strip(), said)
        return lambda game: change(db, game_id=game.id, seconds=seconds, now=clock(), actor="organiser")

    return _deadline_form(
        request, public_id, db, principal, clock, csrf, organises, act=act, box="hours", value=hours,
        typed=f"{hours.strip()} hours" if hours.strip() else "", boxed=lambda game: _deadline_boxed(game, act),
        boxes={"hours": ("hours",), "seconds": ("hours",)}, read=read_hours,
    )


def _deadline_form(
    request: Request, public_id: str, db: SessionDep, principal: ApiPrincipal | None, clock: ClockDep,
    csrf: str | None, organises: str, *, act: str, box: str, value: str, typed: str,
    boxed: Callable[[GameRow], bool], boxes: Mapping[str | None, tuple[str, ...]],
    read: Callable[[], Callable[[GameRow], object]],
) -> Response:
    """What the three deadline forms (extend, set the time left, set a clock time) share: ``read``
    the form's one ``box`` (``value`` as sent, ``typed`` as the signed-out page says it) into the
    change to make, then make it, as one of the game's organiser acts; a refusal brings the value
    back in its box when the page still has the form (``boxed``), else says it at the page's top.
    The value is read before the act is counted: a mistyped one is told so even at the limit."""

    def form_now(game: GameRow) -> Refusal | None:
        return Refusal(act, "", (), {box: value}) if boxed(game) else None

    game = _organiser_action(request, db, principal, public_id, csrf, form_now=form_now, act=act,
                             organises=organises, typed=typed)
    try:
        change = read()
        with organiser_act_allowed(request, game.public_id):
            change(game)
    except StoreError as exc:
        db.rollback()
        if not boxed(game):
            # No box on the page any more (the game is over): said at its top.
            return _organiser_noted(request, db, principal, game, clock, act, exc)
        refusal = _refusal(act, exc, boxes, {box: value})
        return _organiser_refused(request, db, principal, game, clock, refusal, exc.status)
    except LimitReached as exc:  # the value was right: kept in the box, to send again later
        return _organiser_limited(request, db, principal, game, clock, act, exc, refusal=form_now(game))
    return _back_to_organise(db, game, then=f"?done={act}&turn={game.current_turn}#done")


@router.post("/games/{public_id}/end")
def post_end(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
) -> Response:
    """End the game now; the seed is revealed."""
    game = _organiser_action(request, db, principal, public_id, csrf, act="end", organises=organises)
    try:
        store.end_game(db, game_id=game.id, now=clock(), actor="organiser")
    except StoreError as exc:
        return _organiser_noted(request, db, principal, game, clock, "end", exc)
    return _back_to_organise(db, game)


@router.post("/games/{public_id}/delete")
def post_delete(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
    confirm: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    """Delete the game for good, once the box saying so is ticked: every row of it goes
    (:func:`sevens.store.retention.delete_game`), and its pages answer 404 after."""
    game = _organiser_action(request, db, principal, public_id, csrf, act="delete", organises=organises)
    if confirm != "yes":
        # The box is required, so only a browser that ignores that (or a hand-made form) gets here.
        held = _organiser_access(db, principal, game)
        notice = "Nothing was deleted: tick the box that says you mean it, then press Delete this game again."
        return _organise(request, db, game, held, clock, principal=principal, notice=notice, status=400)
    name = game.name
    delete_game(db, game_id=game.id, now=clock())
    db.commit()
    request.app.state.damaged_said.forget(public_id)  # its id is never met again
    return render(request, "deleted.html", {"name": name, "canonical": "/"})


@router.post("/games/{public_id}/organiser-link")
def post_new_organiser_link(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    settings: SettingsDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
) -> Response:
    """A new organiser link, shown once; the old one stops working, and every other browser and
    bot token that organises the game loses that (this browser keeps it)."""
    game = _organiser_action(request, db, principal, public_id, csrf, act="organiser-link", organises=organises)
    assert principal is not None  # _organiser_action refused anyone without a grant
    try:
        with organiser_act_allowed(request, game.public_id):
            token = store.new_organiser_link(db, game_id=game.id, now=clock(), keep=principal.id)
            db.commit()
    except LimitReached as exc:
        return _organiser_limited(request, db, principal, game, clock, "organiser-link", exc)
    context = {
        "game": game,
        "link": f"{_base_url(request, settings)}/organiser/{token}",
        # A reload reads the organiser page rather than posting again (another link, the one
        # just shown dead).
        "canonical": f"/games/{game.public_id}/organise",
        **_shown_links(db, game),
    }
    return render(request, "organiser_new_link.html", context)


@router.post("/games/{public_id}/rematch")
def post_rematch(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    settings: SettingsDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
) -> Response:
    """A new game with the settings of this one, once it is over: the same arrangement, deadline,
    default bot and visibility, a new seed and draw. The seats this browser played it takes again
    under the same names; the other seats get new invite links, shown once as for a new game."""
    game = _organiser_action(request, db, principal, public_id, csrf, act="rematch", organises=organises)
    assert principal is not None  # _organiser_action refused anyone without a grant
    try:
        store.rematch_spec(game)  # a game not over, or rematched already: said before the hourly limit
        with new_game_allowed(request):
            rematch = store.start_rematch(
                db,
                game_id=game.id,
                principal_id=principal.id,
                now=clock(),
                actor="organiser",
                invite_lifetime=timedelta(days=settings.invite_days),
            )
            db.commit()
    except HTTPException as exc:  # too many games: said at the button, with when to try again
        detail = exc.detail if isinstance(exc.detail, str) else "request refused"
        response = _organiser_refused(
            request, db, principal, game, clock, Refusal("rematch", detail), status=exc.status_code
        )
        response.headers.update(exc.headers or {})
        return response
    except StoreError as exc:
        return _organiser_refused(
            request, db, principal, game, clock, _refusal("rematch", exc, {}, {}), status=exc.status
        )
    created, taken = rematch.created, rematch.taken
    base = _base_url(request, settings)
    return render(
        request,
        "created.html",
        {
            "game": created.game,
            "rematch_of": game,
            "taken": taken,
            # Whom each link is for: the name the seat had in the game over (the organiser saw it there).
            "seat_names": {s.player_id: s.name for s in store.seats_of(db, game_id=game.id) if s.name},
            "organiser_link": f"{base}/organiser/{created.organiser_token}",
            "invites": [(pid, f"{base}/join/{tok}") for pid, tok in created.invites if pid not in taken],
            "invites_until": _invites_until(db, created.game),
            "canonical": f"/games/{created.game.public_id}/organise",
            **_shown_links(db, created.game),
        },
        status=201,
    )


@router.post("/games/{public_id}/seats/{player_id}/invite")
def post_new_invite(
    request: Request,
    public_id: str,
    player_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    settings: SettingsDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
    sign_out: Annotated[str, Form(max_length=5)] = "",
) -> Response:
    """Issue a new invite link for a seat (the old one stops working); shown once, used once.
    With ``sign_out``, whoever plays the seat now loses it until the new link is used."""
    act = "sign-out" if sign_out == "yes" else "invite"
    game = _organiser_action(request, db, principal, public_id, csrf, act=act, organises=organises, seat=player_id)
    try:
        with organiser_act_allowed(request, game.public_id):
            return _new_link_page(
                request, db, settings, clock, game, player_id, sign_out=sign_out == "yes",
                canonical=f"/games/{game.public_id}/organise",
            )
    except StoreError as exc:  # the game ended, or the seat was taken since the page was loaded
        return _organiser_noted(request, db, principal, game, clock, act, exc, seat=_seat_named(db, game, player_id))
    except LimitReached as exc:
        return _organiser_limited(request, db, principal, game, clock, act, exc, seat=_seat_named(db, game, player_id))


@router.post("/games/{public_id}/seats/{player_id}/remove-name")
def post_remove_name(
    request: Request,
    public_id: str,
    player_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
) -> Response:
    """In a game over, put "Player N" in place of the name a seat's player chose (they asked the
    organiser to): in the seat, the record and the event log."""
    game = _organiser_action(request, db, principal, public_id, csrf, act="remove-name", organises=organises,
                             seat=player_id)
    try:
        remove_seat_name(db, game_id=game.id, player_id=player_id, now=clock())
    except StoreError as exc:  # the seat is unknown or was never taken (a forged form)
        return _organiser_noted(request, db, principal, game, clock, "remove-name", exc)
    return _back_to_organise(db, game, then=f"#seat-{player_id}")  # a seat the store found: p1, p2...


@router.post("/games/{public_id}/seats/{player_id}/release")
def post_release_seat(
    request: Request,
    public_id: str,
    player_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    clock: ClockDep,
    csrf: CsrfField = None,
    organises: OrganisesField = "",
) -> Response:
    """Hand a seat to the bots (its player dropped out): whoever plays it is signed out, its saved
    orders of the open turn discarded, and its teams play the bots the organiser picks; turns no
    longer wait for it. A new invite link lets someone take it over later."""
    game = _organiser_action(request, db, principal, public_id, csrf, act="release", organises=organises,
                             seat=player_id)
    now = clock()
    try:
        with organiser_act_allowed(request, game.public_id):
            store.release_seat(
                db, game_id=game.id, player_id=player_id, now=now, actor="organiser", then_advance=False
            )
            db.commit()
    except StoreError as exc:  # the game is over, or nobody holds the seat (another tab did it)
        return _organiser_noted(request, db, principal, game, clock, "release", exc, seat=_seat_named(db, game, player_id))
    except LimitReached as exc:
        return _organiser_limited(request, db, principal, game, clock, "release", exc, seat=_seat_named(db, game, player_id))
    # Kept first: the turns the seat no longer holds up (once no player is left, every turn to the
    # final) are then worked out before the game's lock.
    try:
        store.advance(db, game_id=game.id, now=now)
    except UnplayableOrder as exc:
        # Another saved order blocks the turn, but the hand-over is kept: 200, as nothing was refused.
        db.rollback()
        note = f"{views.seat_said(player_id).capitalize()} was handed to the bots, but {views.refusal_said(exc)}."
        access = _organiser_access(db, principal, game)
        return _organise(request, db, game, access, clock, principal=principal, notice=note)
    return _back_to_organise(db, game, then=f"?done=release&seat={player_id}#seat-{player_id}")


def _new_link_page(
    request: Request, db: SessionDep, settings: SettingsDep, clock: ClockDep, game: GameRow, player_id: str, *,
    canonical: str, sign_out: bool = False, by_holder: bool = False, actor: str = "organiser",
) -> Response:
    # A new invite for the seat (store.reissue_invite), committed and shown once.
    token = store.reissue_invite(
        db,
        game_id=game.id,
        player_id=player_id,
        now=clock(),
        invite_lifetime=timedelta(days=settings.invite_days),
        sign_out=sign_out,
        by_holder=by_holder,
        actor=actor,
    )
    seat = next(s for s in store.seats_of(db, game_id=game.id) if s.player_id == player_id)
    db.commit()
    context = {
        "game": game,
        "seat": seat,
        "link": f"{_base_url(request, settings)}/join/{token}",
        "signed_out": sign_out,
        "for_device": by_holder,
        "canonical": canonical,
        **_shown_links(db, game, player_id=player_id if by_holder else None),
    }
    return render(request, "invite.html", context)


@router.post("/games/{public_id}/device-link")
def post_device_link(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    settings: SettingsDep,
    clock: ClockDep,
    csrf: CsrfField = None,
) -> Response:
    """A player's own link to their seat, for another device (the old invite stops working);
    shown once, used once. Only the seat's player can ask: a link from the organiser for a seat
    in play signs its player out, so nobody else ever sees the seat's orders."""
    try:
        check_csrf(request, csrf)
    except HTTPException:
        expired = _player_form_expired(request, db, principal, public_id, csrf)
        if expired is None:
            raise
        return expired
    game = store.game_by_public_id(db, public_id=public_id)
    access = _access(db, principal, game)
    _watchable(game, access)
    player_id = _player(access)
    seat = next(s for s in store.seats_of(db, game_id=game.id) if s.player_id == player_id)
    try:
        with device_link_allowed(request, game.public_id, player_id):
            return _new_link_page(
                request, db, settings, clock, game, player_id, by_holder=True, actor=store.seat_name(seat),
                canonical=f"/games/{game.public_id}/play",
            )
    except StoreError as exc:  # the game is over since the page was loaded
        db.rollback()
        note = f"No link for another device was made: {exc}. {_stands(game)}"
        return _play(
            request, db, game, access, views.player_view(db, game, player_id), principal=principal, notice=note,
            status=exc.status,
        )
    except LimitReached as exc:  # too many links this hour: said at the top of the player's page
        db.rollback()
        response = _play(
            request, db, game, access, views.player_view(db, game, player_id), principal=principal,
            notice=exc.sentence, status=exc.status_code,
        )
        response.headers.update(exc.headers or {})
        return response


@router.get("/games/{public_id}/record.json")
def download_record(
    request: Request, public_id: str, db: SessionDep, principal: PrincipalDep, clock: ClockDep
) -> Response:
    """The game record (what ``sevens verify`` reads): resolved turns only, the seed after the end."""
    game = store.game_by_public_id(db, public_id=public_id)
    access = _access(db, principal, game)
    _watchable(game, access)
    try:
        body, what = views.record_text(game), "record"
    except DamagedRecord:
        # A record that no longer replays is still the organiser's to keep, and to repair: the text
        # as stored (the resolved turns only, as ever: R13), under a name that says what it is.
        assert game.record_json is not None  # a game with no record has nothing to replay
        body, what = game.record_json, "record-damaged"
    return Response(
        body, media_type="application/json",
        headers={"Content-Disposition": results_csv.attachment(game, what, "json", clock().date())},
    )


def _csv_download(db: SessionDep, principal: PrincipalDep, public_id: str, which: str, clock: ClockDep) -> Response:
    game = store.game_by_public_id(db, public_id=public_id)
    access = _access(db, principal, game)
    _watchable(game, access)
    return results_csv.download(views.spectator_view(db, game), which, clock().date())


@router.get("/games/{public_id}/standing.csv")
def download_standing(public_id: str, db: SessionDep, principal: PrincipalDep, clock: ClockDep) -> Response:
    """The final standing as CSV, for a spreadsheet (only its header before the final)."""
    return _csv_download(db, principal, public_id, "standing", clock)


@router.get("/games/{public_id}/matches.csv")
def download_matches(public_id: str, db: SessionDep, principal: PrincipalDep, clock: ClockDep) -> Response:
    """Every match of the turns resolved so far as CSV, a line each (nothing of the open turn, R13)."""
    return _csv_download(db, principal, public_id, "matches", clock)


@router.get("/games/{public_id}/verify")
def verify_page(request: Request, public_id: str, db: SessionDep, principal: PrincipalDep) -> Response:
    """Verify the game: after the end, every die recomputed from the revealed seed (R14)."""
    game = store.game_by_public_id(db, public_id=public_id)
    access = _access(db, principal, game)
    _watchable(game, access)
    check = views.verify(game)
    try:
        view = views.spectator_view(db, game)
    except ValueError:  # RecordError is one
        # A record kept that no longer replays (changed in the database): this page is the one to
        # say so, which the check has done; it was a bare "Internal Server Error" instead.
        view = None
    return render(request, "verify.html", {"game": game, "view": view, "check": check})


PAGE_NAME_LENGTH = 64
"""The longest name of a page asking odds (``odds_fragment``'s ``page``; the script's are 12 or so)."""


@router.post("/games/{public_id}/odds")
async def odds_fragment(
    request: Request,
    public_id: str,
    db: SessionDep,
    principal: PrincipalDep,
    team: Annotated[str, Form()] = "",
    force: Annotated[str, Form()] = "",
    flair: Annotated[str, Form()] = "",
    page: Annotated[str, Form()] = "",
) -> Response:
    """Live odds for a draft order of one's own team (JSON for the order form's script).

    ``page`` names the page asking (the script draws it at each load): this draft's odds replace
    those of an older draft of the same team from the same page still waiting to be worked out, which
    get 409 (:data:`sevens.web.odds_queue.SUPERSEDED`) and are never worked out. Absent, none are.

    A box left empty (or out) is not typed yet: the odds are those of 0 in it, and the answer's
    ``assumed_zero`` names it, as the API's does, so the page says what its figures take for granted.

    The draft comes in the request's body, not its address: an address is what a server or a
    reverse proxy in front of it writes to its access log, and a draft is as secret as the order
    it becomes. It changes nothing, so it needs no CSRF token (a stale one would blank the odds).
    """

    def ask() -> tuple[views.OddsQuestion, str]:
        try:
            game = store.game_by_public_id(db, public_id=public_id)
            access = _access(db, principal, game)
            _watchable(game, access)
            player_id = _player(access)
            if not team.strip():  # not "no team ''": what was left out, and what to send instead
                raise Invalid(
                    "the field 'team' is missing or blank: send the id of one of your teams in it (as the order "
                    "form's script does), with the draft's 'force' and 'flair'",
                    field="team",
                )
            if len(page) > PAGE_NAME_LENGTH:
                raise Invalid(
                    f"the field 'page' names the asking page in at most {PAGE_NAME_LENGTH} characters "
                    f"(the order form's script draws one), got {len(page)}: send a shorter one, or none",
                    field="page",
                )
            force_points = _int_field(force.strip() or "0", "R3: FORCE")
            flair_points = _int_field(flair.strip() or "0", "R3: FLAIR")
            assert force_points is not None and flair_points is not None
            question = views.odds_question(
                db, game, player_id=player_id, team_id=team, force=force_points, flair=flair_points
            )
            return question, player_id
        finally:
            db.close()  # the connection goes back before the odds are worked out (OddsQueue)

    question, player_id = await anyio.to_thread.run_sync(ask)
    give_back_db_turn(request)  # others use the database while the odds are worked out
    assert principal is not None  # _player found a seat of this principal's
    queue: OddsQueue = request.app.state.odds_queue
    # Only this credential's own questions are ever replaced (OddsQueue), a draft of the same team
    # asked from the same page: another tab's (another page) is not.
    latest_of = ("page", page, team) if page else None
    result = await queue.answer(principal.id, question, latest_of=latest_of)
    # The key of the question answered, which the script keeps the answer under: the page's own
    # key may be older than the game the answer was worked out from.
    assumed = [box for box, typed in (("force", force), ("flair", flair)) if not typed.strip()]
    return Response(
        json.dumps({**result, "assumed_zero": assumed, "key": views.odds_key(question, player_id)}),
        media_type="application/json",
    )
