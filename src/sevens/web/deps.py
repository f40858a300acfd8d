"""Typed dependencies: the database session, the clock, the caller's credential."""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import datetime
from typing import Annotated

import anyio
import anyio.to_thread
from fastapi import Depends, HTTPException, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from sevens.store.auth import deleted_with_its_game, find_principal
from sevens.store.models import ApiPrincipal, PrincipalKind
from sevens.web.gone import ClientGone, client_gone
from sevens.web.prefix import route_pattern
from sevens.web.security import RateLimiter, SharedCount, client_key, session_token, try_again_in
from sevens.web.settings import Settings

__all__ = [
    "AuthorizationDep",
    "BEARER",
    "BotDep",
    "ClockDep",
    "LimiterDep",
    "PrincipalDep",
    "SessionDep",
    "SettingsDep",
    "UNKNOWN_TOKEN",
    "HOUR_SECONDS",
    "LimitReached",
    "bot_token",
    "device_link_allowed",
    "hourly_limiter",
    "current_principal",
    "get_db",
    "give_back_db_turn",
    "new_credential_allowed",
    "new_game_allowed",
    "organiser_act_allowed",
    "refuse_bot_token",
    "token_of_deleted_game",
]

log = logging.getLogger("sevens.web")


async def get_db(request: Request) -> AsyncIterator[Session]:
    """One session per request; routes commit what they change, anything else is rolled back.
    Then the acts a limit counted during the request are counted where every worker sees them
    (:func:`_held`).

    The request first waits for its turn at the database (a slot of the app's ``db_limiter``, as
    many as the pool has connections), here in the event loop, and keeps it until its route
    returns (or :func:`give_back_db_turn`). Waited for on a thread instead, a burst of requests
    larger than the thread pool (40) jammed a server on SQLite: every thread waited for the one
    connection, while the request holding it (its credential looked up on one thread) waited for a
    free thread to run its route, until the pool gave up after a minute and answered 500.

    A GET or HEAD that had to wait for its turn, and whose client has gone by then (a browser's
    given-up poll, a bot's timed-out call), is not served: :class:`~sevens.web.gone.ClientGone`,
    answered 499 to nobody. Served anyway, a burst of them kept the requests of clients still
    there waiting behind them (``benchmarks/gone_clients.py``). Any other method is served
    whether or not its client waited (:mod:`sevens.web.gone`)."""
    slots: anyio.CapacityLimiter | None = request.app.state.db_limiter
    turn = object()  # the borrower of the slot: not the task, which the route may hand on
    waited = False
    if slots is not None:
        waited = slots.available_tokens < 1  # the slots are handed on in turn: none free, a queue
        await slots.acquire_on_behalf_of(turn)
    request.state.db_turn = (slots, turn) if slots is not None else None
    request.state.after_session = []
    try:
        if waited and await client_gone(request.scope):
            log.debug(
                "%s %s: its client left while it waited for the database; not served",
                request.method, route_pattern(request.scope),
            )
            raise ClientGone
        session: Session = request.app.state.sessionmaker()
    except BaseException:
        give_back_db_turn(request)
        raise
    try:
        yield session
    finally:
        # Shielded: a request cancelled here still gives its connection back.
        with anyio.CancelScope(shield=True):
            try:
                if session.in_transaction() or request.state.after_session:
                    # On a limiter of its own: a turn at the database never waits for a thread
                    # of the busy pool (the jam above).
                    await anyio.to_thread.run_sync(_close, session, request, limiter=anyio.CapacityLimiter(1))
                else:
                    session.close()  # nothing to send the database: no thread needed
            finally:
                give_back_db_turn(request)


def _close(session: Session, request: Request) -> None:
    session.rollback()
    session.close()
    for share in request.state.after_session:
        share()


def give_back_db_turn(request: Request) -> None:
    """End the request's turn at the database (:func:`get_db`) before its route returns: for a
    route that has closed its session and then waits for something else (the odds process), so
    that other requests use the database meanwhile. Once only; later calls do nothing."""
    held: tuple[anyio.CapacityLimiter, object] | None = getattr(request.state, "db_turn", None)
    if held is not None:
        request.state.db_turn = None
        slots, turn = held
        slots.release_on_behalf_of(turn)


# The small dependencies are async: FastAPI runs a sync one on the thread pool, a hop that costs
# more than the function itself.
async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_clock(request: Request) -> Callable[[], datetime]:
    clock: Callable[[], datetime] = request.app.state.clock
    return clock


async def get_limiter(request: Request) -> RateLimiter:
    limiter: RateLimiter = request.app.state.limiter
    return limiter


# Scope "function": the turn ends when the route returns, not once a slow client has read the answer.
SessionDep = Annotated[Session, Depends(get_db, scope="function")]
SettingsDep = Annotated[Settings, Depends(get_settings)]
ClockDep = Annotated[Callable[[], datetime], Depends(get_clock)]
LimiterDep = Annotated[RateLimiter, Depends(get_limiter)]


def current_principal(request: Request, db: SessionDep, clock: ClockDep) -> ApiPrincipal | None:
    """The browser session named by the session cookie, or None for an anonymous visitor."""
    token = session_token(request)
    if not token:
        return None
    return find_principal(db, token=token, kind=PrincipalKind.SESSION, now=clock())


PrincipalDep = Annotated[ApiPrincipal | None, Depends(current_principal)]


ORGANISER_LINK_WRONG = "this organiser link is not valid"

BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="BotToken",
    description="a bot token, from POST /api/v1/join, POST /api/v1/games or POST /api/v1/organise",
)
"""The bearer token as the OpenAPI document's security scheme ``BotToken``."""


async def authorization_header(
    request: Request, _: Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)]
) -> str | None:
    """The ``Authorization`` header as sent. ``BEARER`` only names the scheme in the document: it
    would pass over a malformed header in silence, where :func:`bot_token` says what is wrong."""
    return request.headers.get("authorization")


AuthorizationDep = Annotated[str | None, Depends(authorization_header)]


def bot_token(authorization: str | None) -> str:
    """The bearer token sent with an API call.

    Raises:
        HTTPException: 401 without a bearer token.
    """
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(
            status_code=401,
            detail="send your bot token as 'Authorization: Bearer <token>' (POST /api/v1/join gives one)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return token.strip()


UNKNOWN_TOKEN = (
    "unknown or revoked bot token, so nothing was done: check the token sent (Authorization: Bearer ...); a "
    "revoked one (DELETE /api/v1/me) opens nothing again: for a new token, join with a new invite link from "
    "the organiser, or send the organiser link to POST /api/v1/organise"
)
"""The 401 of a bearer token that opens nothing and did not go with a deleted game: the server
cannot tell a revoked token from a mistyped one (it keeps neither), so it says both ways back."""


def refuse_bot_token(db: Session, token: str, key: str, limiter: RateLimiter) -> HTTPException:
    """The 401 (or 429) to raise for a bearer token that opens nothing. A token that went with the
    only game it opened is told so, and not counted as a wrong guess: its bot was playing, and
    needs to hear why it no longer can. Any other is counted against the caller."""
    deleted_at = deleted_with_its_game(db, token=token)
    if deleted_at is not None:
        return HTTPException(status_code=401, detail=token_of_deleted_game(deleted_at), headers={"WWW-Authenticate": "Bearer"})
    return limiter.refused(
        key, HTTPException(status_code=401, detail=UNKNOWN_TOKEN, headers={"WWW-Authenticate": "Bearer"})
    )


def token_of_deleted_game(deleted_at: datetime) -> str:
    """What a bot token that went with its only game is told (a deleted game leaves no name or
    id to say, so none is said).

    >>> from datetime import UTC, datetime
    >>> print(token_of_deleted_game(datetime(2026, 5, 1, 18, 30, 5, tzinfo=UTC)))  # doctest: +ELLIPSIS
    this bot token opens nothing any more: the game it was made for was deleted at 2026-05-01 18:30:05 UTC ...
    """
    return (
        f"this bot token opens nothing any more: the game it was made for was deleted at "
        f"{deleted_at:%Y-%m-%d %H:%M:%S} UTC (by its organiser, or by the server once it had long been over), "
        "and the token went with it; a deleted game is gone for good: stop playing it, and join another "
        "game with its invite (POST /api/v1/join) for a new token"
    )


def bot_principal(
    request: Request,
    db: SessionDep,
    clock: ClockDep,
    limiter: LimiterDep,
    authorization: AuthorizationDep,
) -> ApiPrincipal:
    """The bot credential of an API call (``Authorization: Bearer <token>``).

    Raises:
        HTTPException: 401 without a valid token, 429 after too many wrong ones.
    """
    key = client_key(request)
    token = bot_token(authorization)
    principal = find_principal(db, token=token, kind=PrincipalKind.BOT, now=clock())
    if principal is None:
        raise refuse_bot_token(db, token, key, limiter)
    return principal


BotDep = Annotated[ApiPrincipal, Depends(bot_principal)]


HOUR_SECONDS = 3600
"""The window of every hourly limit: new games, new credentials, organiser acts, a seat's links for
another device (``Settings.*_per_hour``)."""


def hourly_limiter(per_hour: int, shared: SharedCount | None = None) -> RateLimiter | None:
    """The limiter of ``per_hour`` acts an hour (None, no limit, for 0), counting in ``shared``
    where every worker sees it when given."""
    return None if per_hour == 0 else RateLimiter(attempts=per_hour, window_seconds=HOUR_SECONDS, shared=shared)


def _games_key(request: Request) -> str:
    # Its own key: new games and wrong secrets are counted in one table, never against each other.
    return f"new game {client_key(request)}"


class LimitReached(HTTPException):
    """A 429 from one of the hourly limits (:func:`_held`): ``detail`` says what was refused, the
    limit and when to try again, ``Retry-After`` the seconds. A page catches it to say so on the
    form's own page, keeping what was typed."""

    def __init__(self, detail: str, wait: int) -> None:
        super().__init__(status_code=429, detail=detail, headers={"Retry-After": str(wait)})

    @property
    def sentence(self) -> str:
        """The detail as a sentence of its own, for a note on a page.

        >>> LimitReached("too many links: 3 an hour, try again in 5 minutes", 300).sentence
        'Too many links: 3 an hour, try again in 5 minutes.'
        """
        return f"{self.detail[:1].upper()}{self.detail[1:]}."


@contextlib.contextmanager
def _held(request: Request, limiter: RateLimiter | None, key: str, refusal: str) -> Iterator[None]:
    """One act of ``key`` under ``limiter`` (None: no limit), held while the block does it.

    The check and the count are one step: checked first and counted once the act was done,
    requests sent at once all passed the check before any was counted (a burst of 40 made 40 games
    against a limit of 5). An act the block does not do (it raises) is given back.

    Raises:
        LimitReached: 429 with Retry-After: ``refusal`` (with the ``{limit}`` filled in, and
        what was not done) and when to try again.
    """
    if limiter is None:
        yield
        return
    wait = limiter.hold(key)
    if wait:
        raise LimitReached(f"{refusal.format(limit=limiter.attempts)}, {try_again_in(wait)}", wait)
    try:
        yield
    except BaseException:
        limiter.give_back(key)
        raise
    after_session = getattr(request.state, "after_session", None)
    if after_session is None:
        limiter.share(key)
    else:
        # Once the request's session is closed: SQLite takes one writer at a time, and a route that
        # commits after the block (pause, resume, ...) still holds the lock the count must take.
        after_session.append(functools.partial(limiter.share, key))


def new_game_allowed(request: Request) -> contextlib.AbstractContextManager[None]:
    """One of the new games this address may create this hour, held while the block makes it
    (:func:`_held`; a game the block does not make, a bad setting, is given back).

    Raises:
        LimitReached: 429 with Retry-After, saying the limit and when to try again.
    """
    return _held(
        request,
        request.app.state.games_limiter,
        _games_key(request),
        "too many new games from your address: this server allows {limit} an hour from one address; "
        "nothing was created",
    )


def new_credential_allowed(request: Request, what: str) -> contextlib.AbstractContextManager[None]:
    """One of the new credentials (``what``: a bot token, a browser session) this address may be
    given this hour by an organiser link, held while the block makes it (:func:`_held`).

    Raises:
        LimitReached: 429 with Retry-After, saying the limit and when to try again.
    """
    # A key of its own, as for new games: counted in the same table, never against another limit.
    return _held(
        request,
        request.app.state.credentials_limiter,
        f"new credential {client_key(request)}",
        f"too many new {what}s from your address: this server gives {{limit}} an hour to one address "
        "by organiser links (one sent with the session or token you have needs no new one); nothing was created",
    )


def organiser_act_allowed(request: Request, public_id: str) -> contextlib.AbstractContextManager[None]:
    """One of the organiser acts game ``public_id`` may have this hour, held while the block does
    it (:func:`_held`). Counted per game, whoever organises it: each act adds a row to the game's
    event log. Only ask once the caller is known to organise the game, or anyone could use up
    the game's acts.

    Raises:
        LimitReached: 429 with Retry-After, saying the limit and when to try again.
    """
    return _held(
        request,
        request.app.state.organiser_acts_limiter,
        f"organiser act {public_id}",
        "too many organiser acts on this game: this server allows {limit} an hour on one game "
        "(new links, pause and resume, deadline changes, house bots, seats handed to the bots); nothing was done",
    )


def device_link_allowed(request: Request, public_id: str, player_id: str) -> contextlib.AbstractContextManager[None]:
    """One of the links for another device seat ``player_id`` of game ``public_id`` may have this
    hour, held while the block makes it (:func:`_held`). Counted per seat, from whichever browser:
    each link adds a row to the game's event log. Only ask once the caller is known to play the
    seat, or anyone could use up its links.

    Raises:
        LimitReached: 429 with Retry-After, saying the limit and when to try again.
    """
    return _held(
        request,
        request.app.state.device_links_limiter,
        f"device link {public_id} {player_id}",
        "too many links for another device for your seat: this server makes {limit} an hour for one seat; "
        "no link was made, and the one you made last still works",
    )
