"""The application factory: builds the engine, runs the migrations, mounts pages, API and static files."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import sys
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from functools import partial
from importlib.resources import files
from pathlib import Path

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.templating import Jinja2Templates
from sqlalchemy import Engine
from sqlalchemy.exc import DataError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sevens.bots import describe
from sevens.bots.pacing import WEIGHTED
from sevens.bots.strategies import hidden_entry_points
from sevens.store.db import check_writable, is_in_memory, make_engine, make_sessionmaker, run_migrations
from sevens.store.errors import DamagedRecord, GameGone, StoreError
from sevens.store.games import no_such_game
from sevens.store.ratelimit import count_failure, make_key
from sevens.store.retention import is_removed_name
from sevens.store.server_keys import SEAT_FORMS, server_key
from sevens.tournament.scoring import scoring_sentence
from sevens.tournament.standings import DECIDED_BY_WORDS
from sevens.tournament.story import order_note
from sevens.web.assets import Assets
from sevens.web.compression import KeptGzip, SpectatorGzip
from sevens.web.deps import hourly_limiter
from sevens.web.gone import ClientGone, ClientWatch
from sevens.web.hosts import HostCheck, parse_allowed_hosts
from sevens.web.odds_queue import OddsQueue
from sevens.web.prefix import RootPath, route_path, route_pattern, site_path, unstripped
from sevens.web.proxies import TrustedProxies, parse_trusted
from sevens.web.reports_cache import MatchReport, TurnReports
from sevens.web.scheduler import Keeping, database_trouble, run_scheduler
from sevens.web.security import (
    CRASHED,
    CSRF_COOKIE,
    BodyLimit,
    BodyTooLarge,
    RateLimiter,
    SecurityHeaders,
    answer_plainly,
    cookie_name,
    csrf_token,
    organiser_form_proof,
    seat_form_proof,
    set_cookie,
    wants_json,
)
from sevens.web.settings import Settings
from sevens.web.strict import body_fields, in_words, methods_at, unknown_fields_message
from sevens.web.views import (
    bdi,
    countdown_said,
    duration,
    event_actor_said,
    event_said,
    isolated,
    match_words,
    printable,
    qr_code,
    refusal_said,
    scores_said,
    seat_number,
    seat_said,
    teams_named,
)

__all__ = ["create_app", "utc_now"]

log = logging.getLogger("sevens.web")


def utc_now() -> datetime:
    """The current time, aware, in UTC."""
    return datetime.now(UTC)


def _package_dir(name: str) -> Path:
    return Path(str(files("sevens.web").joinpath(name)))


def _validation_message(
    exc: RequestValidationError,
    accepted: list[str],
    elsewhere: dict[str, str] | None = None,
    missing: dict[str, str] | None = None,
) -> str:
    """The refusal in words; unknown body fields first, named with what the body takes
    (``accepted``) and where a name that belongs to another operation goes (``elsewhere``); a
    field left out with what to send in it, where its model says (``missing``)."""
    parts = []
    errors = exc.errors()
    # Top-level fields of the body that its model does not have (extra="forbid"), said together.
    extra = [
        n
        for n, e in enumerate(errors)
        if e.get("type") == "extra_forbidden" and len(e["loc"]) == 2 and e["loc"][0] == "body"
    ]
    if extra:
        unknown = [str(errors[n]["loc"][1]) for n in extra]
        parts.append(
            unknown_fields_message(unknown, accepted, what="field", where="the body", elsewhere=elsewhere)
        )
    for n, error in enumerate(errors):
        kind = error.get("type", "")
        if n in extra:
            continue
        if kind == "json_invalid":
            parts.append("the request body is not valid JSON; send a JSON object")
            continue
        if tuple(error.get("loc", ())) == ("body",) and kind in ("model_attributes_type", "dict_type"):
            parts.append("the request body must be a JSON object (Content-Type: application/json)")
            continue
        if tuple(error.get("loc", ())) == ("body",) and kind == "missing":  # no body at all
            takes = f" with {', '.join(repr(a) for a in accepted)}" if accepted else ""
            parts.append(f"this operation needs a request body: send a JSON object{takes}")
            continue
        where = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path", "form"))
        if kind == "missing" and missing and where in missing:  # "force: Field required" said no more
            parts.append(f"{where}: missing: {missing[where]}")
            continue
        parts.append(in_words(error))
    return "; ".join(parts) or "the request was not understood"


_BODY_NOT_PARSED = "There was an error parsing the body"
"""FastAPI's 400 for a JSON body that json.loads refused with something other than a JSON syntax
error (whose own 422 says so): the exception it came from is its ``__cause__``."""


def unparsed_body_message(cause: BaseException | None) -> str:
    """What was wrong with a JSON body FastAPI could not parse, where its 400 says only that.

    >>> unparsed_body_message(UnicodeDecodeError("utf-8", b"\\xff", 0, 1, "invalid start byte"))
    'the request body is not UTF-8 text; send a JSON object in UTF-8'
    >>> import json
    >>> try:
    ...     json.loads("[" + "9" * 5000 + "]")
    ... except ValueError as exc:
    ...     unparsed_body_message(exc)
    'a number in the request body has more than 4300 digits, too many to read; send a JSON object with the numbers the operation takes'
    >>> unparsed_body_message(RecursionError()).split(";")[0]
    'the request body nests arrays or objects too deeply to read (no body the API takes nests more than a few levels)'
    """
    if isinstance(cause, UnicodeDecodeError):
        return "the request body is not UTF-8 text; send a JSON object in UTF-8"
    if isinstance(cause, ValueError) and "integer string conversion" in str(cause):
        return (
            f"a number in the request body has more than {sys.get_int_max_str_digits()} digits, too many to "
            "read; send a JSON object with the numbers the operation takes"
        )
    if isinstance(cause, RecursionError):
        # Valid JSON perhaps, but arrays or objects nested past what the reader follows.
        return (
            "the request body nests arrays or objects too deeply to read (no body the API takes nests more "
            "than a few levels); send a JSON object with the fields the operation takes"
        )
    return "the request body could not be read as JSON; send a JSON object"


class HeadAsGet:
    """ASGI middleware answering HEAD like GET, headers only: the routes declare GET alone, and
    uptime monitors and link checkers ask with HEAD."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)


class CsrfCookie:
    """ASGI middleware setting the CSRF cookie when a page handed out a new token (``csrf_token``).

    Plain ASGI rather than ``@app.middleware``: that wrapper costs each API request more than
    the work it does, and only pages ever set the cookie.
    """

    def __init__(self, app: ASGIApp, *, secure: bool, max_age: int, root: str) -> None:
        self.app = app
        self.secure = secure
        self.max_age = max_age
        self.root = root

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                state = scope.get("state") or {}
                new = state.get("new_csrf", "") if isinstance(state, dict) else ""
                secure = self.secure or scope.get("scheme") == "https"
                name = cookie_name(CSRF_COOKIE, secure, self.root)
                if new and HTTPConnection(scope).cookies.get(name) != new:
                    carrier = Response()
                    set_cookie(carrier, CSRF_COOKIE, new, secure=secure, max_age=self.max_age, root=self.root)
                    cookies = [(k, v) for k, v in carrier.raw_headers if k == b"set-cookie"]
                    message["headers"] = list(message.get("headers", [])) + cookies
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def _count_failure(engine: Engine, client: str, at: float, window: float) -> int:
    return count_failure(engine, client=client, at=at, window=window)


def _note_hidden_bots() -> None:
    """Say in the start-up log where an installed package registers a bot under a built-in's name:
    the menus' bot of that name (default bot, house teams, autopilots) is the built-in, which its
    author would otherwise take for their own (a hosted game plays built-in bots only)."""
    for name, package, path in hidden_entry_points():
        log.warning(
            "the package %s registers a bot called %r, which is a built-in's name: the games here play the "
            "built-in %s wherever it is chosen (default bot, house teams, autopilots), never the package's, "
            "since hosted games play built-in bots only; sevens play and sevens lab play the package's by its "
            "path, %s",
            package, name, name, path,
        )


_GAME_PATH = re.compile(r"/games/([A-Za-z0-9_-]{1,64})(?:/|$)")


def crash_reference() -> str:
    """A short reference for one unexpected failure, said to its client and in its log line.

    >>> len(crash_reference()), crash_reference() == crash_reference()
    (8, False)
    """
    return secrets.token_hex(4)


async def _crashed(
    templates: Jinja2Templates, scope: Scope, receive: Receive, send: Send, exc: Exception, started: bool
) -> None:
    """Answer an unexpected exception: one ERROR line with the traceback and a reference in the log,
    and the same reference on a page in the site's look (JSON for the API), so that the operator can
    find what the user saw; never the exception's words, which may hold anything."""
    reference = crash_reference()
    method = scope.get("method", "?")
    log.error(
        "%s %s failed with an unexpected %s (reference %s): %s", method, route_pattern(scope), type(exc).__name__,
        reference, "the answer had begun, so the connection was cut" if started else "answered 500", exc_info=exc,
    )
    if started:
        return  # the status and the headers are sent: nothing else can be said to the client
    path = site_path(scope)
    message = (
        f"something went wrong on the server's side, not because of what you did or sent; reference {reference}"
    )
    if wants_json(path):
        await JSONResponse({"detail": f"{message}: try again; if it keeps happening, give the reference to whoever "
                            "runs this server"}, status_code=500)(scope, receive, send)
        return
    game = _GAME_PATH.match(path)
    try:
        response = templates.TemplateResponse(
            Request(scope),
            "error.html",
            {"status": 500, "message": message, "reference": reference, "game_link": game and f"/games/{game.group(1)}"},
            status_code=500,
        )
    except Exception:  # a page that cannot be made either: its words alone
        log.exception("the error page for reference %s could not be made", reference)
        await answer_plainly(scope, send, 500, f"{CRASHED} (reference {reference})")
        return
    await response(scope, receive, send)


def _retry_seconds(request: Request, status: int, headers: dict[str, str] | None) -> int | None:
    """How long the page of a 503 answered to a GET (or a HEAD) says to wait before its script asks
    the same address again by itself (the answer's Retry-After, 60 s if it has none); None for any
    other answer. Never after a POST: reloading that page would send the form again."""
    if status != 503 or request.method not in ("GET", "HEAD"):
        return None
    given = (headers or {}).get("Retry-After", "")
    return int(given) if given.isdigit() else 60


def create_app(settings: Settings | None = None, *, clock: Callable[[], datetime] = utc_now) -> FastAPI:
    """Build the app for ``settings`` (read from the environment when None).

    Args:
        settings: where the database is and how the server behaves.
        clock: the current time (tests pass a fake one).
    """
    settings = settings or Settings()
    engine = make_engine(
        settings.database_url,
        serialise_sqlite=True,
        sqlite_synchronous=settings.sqlite_synchronous,
        postgres_connections=settings.db_connections,
    )
    if settings.migrate:
        run_migrations(engine)
    factory = make_sessionmaker(engine)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Requests wait for a database connection here, first come first served (get_db, and the
        # order submissions), rather than as threads the pool wakes in any order (each then
        # fighting for the GIL): one for SQLite's single connection (make_engine), the connections
        # the pool keeps for PostgreSQL (SEVENS_DB_CONNECTIONS). Never more turns than the pool
        # keeps: a request beyond them would wait in the pool, on a thread, and fail after its 30 s;
        # the pool's spare connection is the scheduler's.
        size = getattr(engine.pool, "size", None)
        app.state.db_limiter = anyio.CapacityLimiter(size() if callable(size) else 1)
        _note_hidden_bots()
        task = None
        if settings.scheduler:
            task = asyncio.create_task(
                run_scheduler(
                    factory, clock=clock, interval=settings.scheduler_seconds, keeping=Keeping(
                        unused_bot_days=settings.session_days, games_over_days=settings.delete_games_over_days
                    ),
                )
            )
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            app.state.odds_queue.close()
            engine.dispose()
            if counting is not None:
                counting.dispose()

    app = FastAPI(
        title="Sevens",
        version="1",
        # HEAD said once here, not as operations: a generator would make a client method of each
        # beside its GET's, and validators (schemathesis) take HEAD as implied by GET (RFC 9110).
        description=(
            "Host games of Sevens: pages for people, a JSON API for people and bots. Every GET operation "
            "answers HEAD too, with the GET's status and headers and no body; HEAD is not listed as "
            "operations of its own."
        ),
        docs_url=None,  # the interactive docs load scripts from a CDN, which the CSP forbids
        redoc_url=None,
        openapi_url="/api/v1/openapi.json",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.sessionmaker = factory
    app.state.db_limiter = None  # no turns (the pool's own wait), unless the lifespan sets them
    app.state.clock = clock
    # The odds of drafts, one at a time, in a process of their own started when first asked.
    app.state.odds_queue = OddsQueue(seconds=settings.odds_seconds, idle_seconds=settings.odds_idle_minutes * 60)
    # Failed attempts are also counted in the database, on connections of their own (the app's
    # one SQLite connection may be held by the request that failed), so all workers share the limit.
    # (Not for an in-memory database: another connection would open another database.)
    counting = None if is_in_memory(settings.database_url) else make_engine(
        settings.database_url, sqlite_synchronous=settings.sqlite_synchronous
    )
    if counting is not None and settings.migrate:
        # A database it may read but not write is refused here first, on sevens' own table, as
        # before the key was made at start-up (the key's insert would otherwise be the first write).
        check_writable(counting)
        make_key(counting, at=clock().timestamp())  # the key the counts hash addresses under
    with engine.begin() as connection:  # after check_writable: a read-only database is refused there
        app.state.seat_form_key = server_key(connection, purpose=SEAT_FORMS, at=clock().timestamp())
    shared = None if counting is None else partial(_count_failure, counting)
    app.state.limiter = RateLimiter(
        attempts=settings.rate_limit_attempts, window_seconds=settings.rate_limit_window_seconds, shared=shared
    )
    # New games, new credentials by organiser link (per address), organiser acts (per game) and links
    # for another device (per seat) count in the same table, under keys of their own; 0 turns a limit off.
    app.state.games_limiter = hourly_limiter(settings.games_per_hour, shared)
    app.state.credentials_limiter = hourly_limiter(settings.credentials_per_hour, shared)
    app.state.organiser_acts_limiter = hourly_limiter(settings.organiser_acts_per_hour, shared)
    app.state.device_links_limiter = hourly_limiter(settings.device_links_per_hour, shared)
    templates = Jinja2Templates(directory=str(_package_dir("templates")))
    assets = Assets(_package_dir("static"))
    templates.env.globals["static"] = assets.url
    templates.env.globals["csrf_token"] = csrf_token
    templates.env.globals["seat_form_proof"] = seat_form_proof
    templates.env.globals["organiser_form_proof"] = organiser_form_proof
    # Before every address a page writes from the site's root ("" at the root of its host).
    templates.env.globals["root"] = settings.root_path
    # The pace of the pages' polls (app.js reads it off <body>: no inline script passes the CSP).
    templates.env.globals["poll_ms"] = round(settings.poll_seconds * 1000)
    templates.env.globals["describe_bot"] = describe
    templates.env.globals["weighted_bots"] = WEIGHTED
    templates.env.filters["duration"] = duration
    templates.env.globals["countdown_said"] = countdown_said
    templates.env.filters["bdi"] = bdi
    templates.env.filters["isolated"] = isolated
    templates.env.filters["scores_said"] = scores_said
    templates.env.filters["match_words"] = match_words
    templates.env.globals["qr_code"] = qr_code
    templates.env.globals["event_said"] = event_said
    templates.env.globals["event_actor_said"] = event_actor_said
    templates.env.filters["seat_said"] = seat_said
    templates.env.filters["seat_number"] = seat_number
    templates.env.globals["removed_name"] = is_removed_name
    templates.env.globals["teams_named"] = teams_named
    templates.env.globals["decided_by_words"] = DECIDED_BY_WORDS
    templates.env.globals["scoring_sentence"] = scoring_sentence
    templates.env.globals["order_note"] = order_note
    # Set before any template is compiled: the compiler reads it.
    templates.env.finalize = printable
    templates.env.globals["turn_reports"] = TurnReports(templates.env)
    templates.env.globals["kept_match_report"] = MatchReport(templates.env)
    app.state.templates = templates

    if settings.root_path:
        # Innermost: the layers outside it see the path as the proxy sent it, without the prefix.
        app.add_middleware(RootPath, root=settings.root_path)
    app.add_middleware(
        CsrfCookie, secure=settings.secure_cookies, max_age=settings.session_days * 86400, root=settings.root_path
    )
    # Outside CsrfCookie, so that it sees the cookie that sets: an answer setting one is never
    # gzipped whole, only in its public stretches.
    app.state.gzip_kept = KeptGzip()
    app.add_middleware(SpectatorGzip, kept=app.state.gzip_kept)

    # An oversized body is refused before anything reads it (inside the security headers).
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    # Before anything else is done for it, a request for a host name this server is not (DNS rebinding).
    app.add_middleware(
        HostCheck, allowed=parse_allowed_hosts(settings.allowed_hosts), base_url=settings.base_url
    )
    app.add_middleware(SecurityHeaders, crashed=partial(_crashed, templates))
    app.add_middleware(HeadAsGet)
    trusted = parse_trusted(settings.trusted_proxies)
    if trusted:
        # Outside the rest: every layer within, and the limits' client_key, see the forwarded client.
        app.add_middleware(TrustedProxies, trusted=trusted)
    # Outermost: whether a GET's client has gone is read from what the server sends (get_db).
    app.add_middleware(ClientWatch)

    from sevens.web import api, pages

    templates.env.globals["name_box"] = pages.NAME_BOXES  # the name boxes' maxlength

    def error_response(
        request: Request, status: int, message: str, headers: dict[str, str] | None = None
    ) -> Response:
        if wants_json(site_path(request.scope)):  # a bot's call through a proxy that left the prefix on too
            return JSONResponse({"detail": message}, status_code=status, headers=headers)
        return templates.TemplateResponse(
            request, "error.html",
            {"status": status, "message": message, "retry_seconds": _retry_seconds(request, status, headers)},
            status_code=status, headers=headers,
        )

    @app.exception_handler(ClientGone)
    async def client_gone(request: Request, exc: ClientGone) -> Response:
        # Written to a closed connection, so never sent: no page made for nobody (nginx's 499).
        return Response(status_code=499)

    @app.exception_handler(pages.ShownAgain)
    async def shown_again(request: Request, exc: pages.ShownAgain) -> Response:
        return exc.response

    # The games whose damaged record was logged: once each, not at every request.
    app.state.damaged_said = pages.SaidOnce(pages.DAMAGED_SAID_MOST)

    @app.exception_handler(DamagedRecord)
    async def damaged_record(request: Request, exc: DamagedRecord) -> Response:
        public_id = str(request.path_params.get("public_id", ""))
        pages.say_damaged(request, public_id, exc)
        game = f"/games/{public_id}" if public_id else ""
        if wants_json(site_path(request.scope)):
            where = (
                f": download the record as it is stored from {settings.root_path}{game}/record.json and see where it "
                f"fails at {settings.root_path}{game}/verify" if game else ""
            )
            return JSONResponse({"detail": f"{exc}; nothing of this game can be shown or played until it is repaired{where}"},
                                status_code=500)
        return templates.TemplateResponse(
            request, "error.html", {"status": 500, "message": str(exc), "damaged": True, "game_link": game},
            status_code=500,
        )

    @app.exception_handler(StoreError)
    async def store_error(request: Request, exc: StoreError) -> Response:
        # The store's words name seats and teams by id, as the API gives them; a page says them
        # as people know them ("seat 3", "Fiji").
        said = str(exc) if wants_json(site_path(request.scope)) else refusal_said(exc)
        return error_response(request, exc.status, said)

    @app.exception_handler(GameGone)
    async def game_gone(request: Request, exc: GameGone) -> Response:
        # Found, then deleted before the caller's grants were read (sevens.store.auth.access_to):
        # answered, page or API, word for word as a game that is not there, so that whoever had no
        # access to a private game learns nothing from having caught the moment.
        public_id = str(request.path_params.get("public_id", ""))
        return error_response(request, 404, no_such_game(public_id) if public_id else str(exc))

    @app.exception_handler(DataError)
    async def data_error(request: Request, exc: DataError) -> Response:
        # PostgreSQL takes no NUL in text, not even to look one up (SQLite does): a forged seat id,
        # team or other value holding one would be a 500 there. No id, name or link holds one.
        if "NUL" not in str(exc.orig):
            raise exc
        return error_response(
            request, 400, "a value in this request holds a NUL character (\\x00), which no id, name or link "
            "of this site contains: nothing was done; check what was sent"
        )

    @app.exception_handler(OperationalError)
    async def database_unusable(request: Request, exc: OperationalError) -> Response:
        # The database could not be used (PostgreSQL down or refusing, a SQLite file gone, locked
        # past the busy timeout or read-only): the server's trouble, said to the client as 503, and
        # to the operator in one line with the driver's reason, instead of a 500 and a traceback a
        # request. The route's pattern, not the address: an address may hold an invite or a link.
        log.error(
            "%s %s: the database cannot be used: %s (answered 503)",
            request.method, route_pattern(request.scope), database_trouble(exc),
        )
        return error_response(
            request, 503, "the server cannot use its database just now; try again in a minute (reload first: "
            "what you sent may or may not have been saved)", headers={"Retry-After": "60"},
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        return error_response(request, 422, _validation_message(exc, *body_fields(request)))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        if exc.status_code == 400 and message == _BODY_NOT_PARSED and isinstance(exc.__cause__, BodyTooLarge):
            # A body streamed without Content-Length, cut off at the limit while FastAPI read it:
            # refused as one that declared its size is, not as unreadable JSON (or a form).
            return error_response(request, 413, str(exc.__cause__))
        if exc.status_code == 400 and message == _BODY_NOT_PARSED:
            # Unreadable as the bodies json.loads refuses for their syntax, and refused alike (422).
            return error_response(request, 422, unparsed_body_message(exc.__cause__))
        if exc.status_code == 404 and message == "Not Found":
            message = "no such page; check the address"
            if route_path(request.scope).startswith("/api/"):  # a bot's typo in a path: where the paths are
                message = f"no such operation in the API; check the address against {settings.root_path}/api/v1/openapi.json"
            if unstripped(request.scope):  # the server's own set-up, said to whoever set it up
                message = (
                    f"no such page: this server is set to be served under {settings.root_path} (SEVENS_ROOT_PATH) by a "
                    f"proxy that takes {settings.root_path} off each address, but this address still has it; make the "
                    f"proxy strip it (nginx: proxy_pass http://127.0.0.1:8000/; with the last '/'; Caddy: handle_path)"
                )
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405:
            message = "that address does not take this kind of request"
            allowed = methods_at(route_path(request.scope), [*api.router.routes, *pages.router.routes])
            if wants_json(route_path(request.scope)) and allowed:  # a bot is told what the address does take
                message = f"this address does not take {request.method}; it takes {', '.join(allowed)}"
                headers = {**(headers or {}), "Allow": ", ".join(allowed)}
        return error_response(request, exc.status_code, message, headers)

    app.mount("/static", assets, name="static")
    # The API first: its routes are the busiest, and Starlette tries routes in order (no path
    # is shared between the two routers, so the order changes nothing else).
    app.include_router(api.router)
    app.include_router(pages.router)
    api.document_refusals_only_as_sent(app)
    return app
