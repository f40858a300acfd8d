"""Security plumbing: headers (CSP), CSRF tokens, cookies and a rate limit on attempts with a secret."""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import json
import logging
import math
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from fastapi import HTTPException, Request, Response
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sevens.store.secrets import tokens_equal
from sevens.tournament.quoting import quoted

log = logging.getLogger(__name__)

__all__ = [
    "BodyLimit",
    "BodyTooLarge",
    "CRASHED",
    "CSP",
    "CSRF_COOKIE",
    "CSRF_FIELD",
    "Crashed",
    "HSTS",
    "SESSION_COOKIE",
    "SIGNED_OUT_COOKIE",
    "RateLimiter",
    "SecurityHeaders",
    "address_key",
    "answer_plainly",
    "check_csrf",
    "client_key",
    "cookie_name",
    "csrf_token",
    "body_of_type",
    "encoded_body_message",
    "form_predates_session",
    "secure_cookies",
    "delete_session_cookie",
    "seat_form_proof",
    "organiser_form_proof",
    "held_organiser_form",
    "held_seat_form",
    "HeldSeatForm",
    "session_csrf",
    "SECRET_HANDLED",
    "note_secret",
    "sent_from_this_site",
    "signed_out_form",
    "session_token",
    "too_large_message",
    "try_again_in",
    "wants_json",
]

SESSION_COOKIE = "sevens_session"
CSRF_COOKIE = "sevens_csrf"
SIGNED_OUT_COOKIE = "sevens_signed_out"
"""Set by *Sign out of this browser*: the form token of the session it ended
(:func:`session_csrf`, never the session's secret), so that a form of a page still open from
that session can be told apart from a forged one and answered with what was not saved
(:func:`signed_out_form`). It opens nothing: no check takes it as a token."""
HOST_PREFIX = "__Host-"
"""Put before both names when the cookies are Secure: a browser then takes the cookie only if it
is Secure, for Path=/ and without a Domain, so a sibling subdomain cannot plant one for us."""
SECURE_PREFIX = "__Secure-"
"""Put before them instead when the site is served under a path (``SEVENS_ROOT_PATH``), since
``__Host-`` requires Path=/: the browser still takes them only if Secure, set over HTTPS."""
CSRF_FIELD = "csrf"

# Only our own script and style; no inline code, no frames, forms post only to us.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)

_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    # Invite links carry a secret in their path: never send it on in a Referer.
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
    # No other site's window keeps a handle on ours (to count its frames, follow where it goes),
    # and no other site can load our answers into its page as an image, script or the like.
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]

HSTS = (b"strict-transport-security", b"max-age=31536000")
"""Sent on answers to HTTPS requests (directly, or through a trusted proxy that says so): the
browser keeps to HTTPS for the site, so no later plain-HTTP request shows a cookie or a link."""

_HTTPS_HEADERS = [*_HEADERS, HSTS]


CRASHED = (
    "internal server error: the server failed on its side, not because of your request; try again, "
    "and if it keeps happening tell whoever runs this server"
)
"""What a client is told when a request fails with an unexpected exception (never the exception)."""


_POLLED = re.compile(r"/games/[^/]+/(?:state|who-ordered|links)")


def wants_json(path: str) -> bool:
    """Whether the answer to a request for ``path`` is JSON (the API, the order form's odds) rather
    than a page.

    The addresses the pages' script polls (a game's ``/state``, ``/who-ordered`` and ``/links``)
    are answered in JSON when they fail too, so that the script can say why: an error page's HTML
    is nothing it can show.

    >>> wants_json("/api/v1/me"), wants_json("/games/abc/odds"), wants_json("/games/abc")
    (True, True, False)
    >>> wants_json("/games/abc/state"), wants_json("/games/abc/who-ordered"), wants_json("/games/abc/play")
    (True, True, False)
    """
    return path.startswith("/api/") or path.endswith("/odds") or _POLLED.fullmatch(path) is not None


async def answer_plainly(scope: Scope, send: Send, status: int, message: str) -> None:
    """Answer from a middleware, where the app's error handlers do not reach: ``{"detail": ...}``
    where the client reads JSON (:func:`wants_json`), the message as plain text for a page (a
    browser showed raw JSON)."""
    if wants_json(str(scope.get("path", ""))):
        body, kind = json.dumps({"detail": message}).encode(), b"application/json"
    else:
        body, kind = message.encode(), b"text/plain; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


Crashed = Callable[[Scope, Receive, Send, Exception, bool], Awaitable[None]]
"""How an app answers an unexpected exception (:class:`SecurityHeaders`): given the request's scope,
``receive``, a ``send`` that adds the headers, the exception, and whether the answer had begun."""


class SecurityHeaders:
    """ASGI middleware adding the security headers to every HTTP response, the 500 of an unhandled
    exception included.

    ``crashed`` answers an unexpected exception (and logs it) in the app's own way; the exception then
    goes no further, so that the server does not log it a second time. Without it the client gets a
    plain message and the exception is raised on to the server, which logs its traceback."""

    def __init__(self, app: ASGIApp, crashed: Crashed | None = None) -> None:
        self.app = app
        self.crashed = crashed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                present = {name.lower() for name, _ in message.get("headers", [])}
                wanted = _HTTPS_HEADERS if scope.get("scheme") == "https" else _HEADERS
                extra = [(k, v) for k, v in wanted if k not in present]
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception as exc:
            if self.crashed is not None:
                await self.crashed(scope, receive, send_with_headers, exc, started)
                return
            # Starlette answers an unhandled exception from outside every middleware, so its 500
            # would carry none of the headers: answer it here. Re-raised, the exception still
            # reaches the server's log with its traceback; the client gets a plain message only.
            if not started:
                await answer_plainly(scope, send_with_headers, 500, CRASHED)
            raise


class BodyTooLarge(Exception):
    """A streamed request body (no Content-Length) passed the limit while being read."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(too_large_message(max_bytes))


def too_large_message(max_bytes: int) -> str:
    """What a client sending a body over ``max_bytes`` is told.

    >>> too_large_message(65536)
    'the request body is too large: send at most 65536 bytes'
    """
    return f"the request body is too large: send at most {max_bytes} bytes"


def body_of_type(content_type: str) -> str:
    """A request's body as a refusal of its Content-Type names it (the pages take forms, the API JSON).

    >>> body_of_type("text/plain; charset=utf-8"), body_of_type("")
    ("a body of type 'text/plain'", 'a body with no Content-Type')
    """
    kind = content_type.split(";")[0].strip()
    return f"a body of type {quoted(kind, 60)}" if kind else "a body with no Content-Type"


def encoded_body_message(encoding: str) -> str:
    """What a request sent with a ``Content-Encoding`` is told.

    >>> encoded_body_message("gzip")
    "the request body must be sent without a content encoding (this one came with Content-Encoding: 'gzip'), since the server does not decode request bodies; nothing was done: send the body uncompressed, with no Content-Encoding header"
    """
    return (
        f"the request body must be sent without a content encoding (this one came with Content-Encoding: "
        f"{quoted(encoding.strip())}), since the server does not decode request bodies; nothing was done: send "
        "the body uncompressed, with no Content-Encoding header"
    )


class BodyLimit:
    """ASGI middleware refusing request bodies over ``max_bytes`` with 413, before they are read whole.

    A declared Content-Length over the limit is refused at once; a body streamed without one is
    cut off as soon as it passes the limit. Every form and API body of the site is far smaller.

    A request with a ``Content-Encoding`` (gzip, say) is refused with 415 here too: nothing in the
    server decodes request bodies, so a compressed body would be read as text and refused for
    what it seemed to say (or a form read as empty), never for what was wrong.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def _refuse(self, scope: Scope, send: Send) -> None:
        await answer_plainly(scope, send, 413, too_large_message(self.max_bytes))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-encoding" and value.strip().lower() not in (b"", b"identity"):
                await answer_plainly(scope, send, 415, encoded_body_message(value.decode("latin-1")))
                return
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.max_bytes + 1
                if declared > self.max_bytes:
                    await self._refuse(scope, send)
                    return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    # FastAPI turns an error while it reads a body into its own 400 (caught in
                    # app.py and answered 413); a route reading the body itself lets it come here.
                    raise BodyTooLarge(self.max_bytes)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(scope, send)


def secure_cookies(connection: HTTPConnection) -> bool:
    """Whether this request's cookies are Secure (and so named with :data:`HOST_PREFIX`): it came
    over HTTPS, directly or through a trusted proxy that says so, or the server is set to
    ``SEVENS_SECURE_COOKIES``."""
    settings = getattr(connection.app.state, "settings", None)
    return connection.url.scheme == "https" or bool(getattr(settings, "secure_cookies", False))


def cookie_name(name: str, secure: bool, root: str = "") -> str:
    """The name the cookie ``name`` goes by: over HTTPS with the ``__Host-`` prefix, so that only
    a cookie this very host set is read (a planted ``sevens_session`` is ignored there); under a
    path (``root``) with ``__Secure-``, as ``__Host-`` cookies must have Path=/.

    >>> cookie_name(SESSION_COOKIE, True), cookie_name(CSRF_COOKIE, False)
    ('__Host-sevens_session', 'sevens_csrf')
    >>> cookie_name(SESSION_COOKIE, True, "/sevens"), cookie_name(SESSION_COOKIE, False, "/sevens")
    ('__Secure-sevens_session', 'sevens_session')
    """
    if not secure:
        return name
    return (SECURE_PREFIX if root else HOST_PREFIX) + name


def site_root(connection: HTTPConnection) -> str:
    """The path the site is served under (``SEVENS_ROOT_PATH``), "" at the root of its host."""
    settings = getattr(connection.app.state, "settings", None)
    return str(getattr(settings, "root_path", ""))


def _cookie(request: HTTPConnection, name: str) -> str:
    return request.cookies.get(cookie_name(name, secure_cookies(request), site_root(request)), "")


def session_csrf(session: str) -> str:
    """The CSRF token of the browser session whose cookie holds ``session``: an HMAC keyed with
    that secret, so only a page rendered for this session carries it (nothing else knows the key:
    the server stores the session's hash), and it tells nothing of the session back.

    >>> token = session_csrf("a session secret")
    >>> len(token), token == session_csrf("a session secret"), token == session_csrf("another one")
    (43, True, False)
    """
    digest = hmac.new(session.encode("utf-8"), b"sevens form token", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def seat_form_proof(request: Request, public_id: str, team: str, team_name: str) -> str:
    """What a player's order form of game ``public_id`` carries to show, should the game be
    deleted before it is sent, that this browser was shown that form (its seat's page), for team
    ``team`` named ``team_name``, at the time it says: an HMAC of the session's form token
    (:func:`session_csrf`, which stands for the session and outlives it in :data:`SIGNED_OUT_COOKIE`),
    the game, the team, its name and that time, under a key of the server's own
    (``app.state.seat_form_key``), after the time (Unix seconds) and a dot.
    A deleted game leaves nothing in the database to tell its players from anyone else, and only
    they may be told it was deleted; the name is signed so the answer may print it (nobody can make
    the page print text of their own), and the time tells whether the game was running less than
    ``SEVENS_DELETE_GAMES_OVER_DAYS`` before it went (then the tidy cannot have deleted it). Not
    keyed with the form token (or the session secret) alone: both are in the browser for its user
    to read, who could then make the mark for any address and learn from the answers which is a
    private game's (answered as no game) and which none's (as deleted)."""
    note_secret(request)
    session = _cookie(request, SESSION_COOKIE)
    if not session:
        return ""
    shown = int(request.app.state.clock().timestamp())
    return f"{shown}.{_seat_digest(request, session_csrf(session), public_id, team, team_name, shown)}"


def _seat_digest(request: Request, form_token: str, public_id: str, team: str, team_name: str, shown: int) -> str:
    # The session's form token stands for the session (one to one, and the key is the server's):
    # a browser signed out keeps that token, never the secret, and its open forms stay provable.
    return _form_digest(request, "sevens seat form", form_token, public_id, team, team_name, shown)


def _form_digest(request: Request, *fields: str | int) -> str:
    """An HMAC of ``fields`` under the server's key for form proofs (``app.state.seat_form_key``),
    the first naming what the proof is for. JSON, so that no choice of fields can run into the next
    one and sign another's."""
    key: bytes = request.app.state.seat_form_key
    digest = hmac.new(key, json.dumps(list(fields)).encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class HeldSeatForm:
    """An order form :func:`held_seat_form` believed."""

    team_name: str
    """The team's name as the form's page showed it."""
    shown: datetime
    """When the server made the form's page."""


def held_seat_form(
    request: Request, public_id: str, submitted: str, *, team: str, team_name: str, form_token: str = ""
) -> HeldSeatForm | None:
    """The form, if ``submitted`` is :func:`seat_form_proof` of this browser for game
    ``public_id``, team ``team`` and ``team_name``; else None. ``form_token``: that of the session
    the form was shown to, if not the browser's session now (one it signed out, :func:`signed_out_form`)."""
    session = _cookie(request, SESSION_COOKIE)
    form_token = form_token or (session_csrf(session) if session else "")
    shown, dot, digest = submitted.partition(".")
    # ASCII digits only: str.isdigit takes "²" (which int refuses) and other scripts' digits.
    if not form_token or not dot or not (shown.isascii() and shown.isdigit()) or len(shown) > 12 or not digest:
        return None
    if not tokens_equal(_seat_digest(request, form_token, public_id, team, team_name, int(shown)), digest):
        return None
    return HeldSeatForm(team_name=team_name, shown=datetime.fromtimestamp(int(shown), UTC))


def organiser_form_proof(request: Request, public_id: str) -> str:
    """What each form of the organiser page of game ``public_id`` carries to show, should this
    browser sign out before it is sent, that the page was shown to it as the game's organiser: an
    HMAC of the session's form token and the game under the server's key, as for
    :func:`seat_form_proof`. Only the organiser page has it, so a private game is named to a form
    sent after signing out only where it carries this (:func:`held_organiser_form`)."""
    note_secret(request)
    session = _cookie(request, SESSION_COOKIE)
    return _organiser_digest(request, session_csrf(session), public_id) if session else ""


def _organiser_digest(request: Request, form_token: str, public_id: str) -> str:
    # Its own first field, so that no seat's proof is ever one of these, nor the other way round.
    return _form_digest(request, "sevens organiser form", form_token, public_id)


def held_organiser_form(request: Request, public_id: str, submitted: str, *, form_token: str) -> bool:
    """Whether ``submitted`` is :func:`organiser_form_proof` for game ``public_id``, made for the
    session whose form token is ``form_token`` (one this browser signed out, :func:`signed_out_form`)."""
    if not form_token or not submitted:
        return False
    return tokens_equal(_organiser_digest(request, form_token, public_id), submitted)


SECRET_HANDLED = "secret_handled"
"""Set in a request's state once answering it has handed out or checked a secret
(:func:`note_secret`): its answer is then never compressed whole, only in the stretches its
template marks public, if any (sevens.web.compression)."""


def note_secret(request: HTTPConnection) -> None:
    """Mark ``request`` as one whose answer may hold a secret (a form token, a seat's proof, an
    invite or organiser link): its size must then not depend on that text, so it goes uncompressed
    but for the stretches marked public (sevens.web.compression)."""
    setattr(request.state, SECRET_HANDLED, True)


def csrf_token(request: Request) -> str:
    """The CSRF token for this browser's forms. With a session cookie it is bound to that session
    (:func:`session_csrf`), so a token copied or planted from another browser is refused. Without
    one (the create-game, join and organiser-link forms of a new visitor) it is a double-submit
    token: the CSRF cookie's value, or a new one set on the way out."""
    note_secret(request)
    session = _cookie(request, SESSION_COOKIE)
    if session:
        return session_csrf(session)
    token = _cookie(request, CSRF_COOKIE)
    if len(token) < 32 or len(token) > 100:
        token = getattr(request.state, "new_csrf", "") or secrets.token_urlsafe(24)
        request.state.new_csrf = token
    return token


def check_csrf(request: Request, submitted: str | None) -> None:
    """Refuse a form post whose hidden token is not this browser's (:func:`csrf_token`): the one
    bound to its session if it has one, else the value of its CSRF cookie (double submit).

    Raises:
        HTTPException: 403 with a message saying to reload the page.
    """
    session = _cookie(request, SESSION_COOKIE)
    expected = session_csrf(session) if session else _cookie(request, CSRF_COOKIE)
    if not expected or not submitted or not tokens_equal(expected, submitted):
        raise HTTPException(
            status_code=403,
            detail="the form's security token is missing or stale (CSRF check); reload the page and submit again",
        )


def form_predates_session(request: Request, submitted: str | None) -> bool:
    """Whether a form :func:`check_csrf` refused was a new visitor's form of this very browser,
    loaded before it had a session: it has one now (it joined or organised a game in another tab,
    say), and the form carries the double-submit token of its CSRF cookie, which the session's
    token has replaced.

    Such a form is still refused (the session's token is the only one a signed-in browser's
    posts are good with, so a planted CSRF cookie never acts for a session); this only tells the
    page it may send the form back, as typed, with the session's token, to be sent again.
    """
    cookie = _cookie(request, CSRF_COOKIE)
    return bool(
        _cookie(request, SESSION_COOKIE) and cookie and submitted and tokens_equal(cookie, submitted)
    )


def signed_out_form(request: Request, submitted: str | None) -> str:
    """The form token ``submitted`` if it is that of the session this browser signed out of
    (:data:`SIGNED_OUT_COOKIE`): the form was shown by this site to this browser before it signed
    out, perhaps in another tab. "" otherwise. The form is still refused: this only lets its
    answer say why and echo, to this same browser, what it sent."""
    ended = _cookie(request, SIGNED_OUT_COOKIE)
    return ended if ended and submitted and tokens_equal(ended, submitted) else ""


def sent_from_this_site(request: Request) -> bool:
    """Whether the browser says this form was sent from one of this site's own pages
    (``Sec-Fetch-Site: same-origin``, a header no page's script can set or change).

    A form :func:`check_csrf` refused that was sent so is this browser's own, typed here: its page
    may come back with the typing kept and a fresh token, to be checked and sent again by the
    person. Nothing of the refused form is done, so the stale token itself never counts; and a
    form sent from another site (or by a browser that does not say) is refused as before, so no
    other site can put values of its own in a page of ours.
    """
    return request.headers.get("sec-fetch-site") == "same-origin"


def set_cookie(response: Response, name: str, value: str, *, secure: bool, max_age: int, root: str = "") -> None:
    """An HttpOnly, SameSite=Lax cookie ``name`` for the whole site (every path under ``root``,
    the site's path on its host), as :func:`cookie_name` names it."""
    response.set_cookie(
        cookie_name(name, secure, root), value, max_age=max_age, httponly=True, samesite="lax", secure=secure,
        path=root or "/",
    )


def session_token(request: HTTPConnection) -> str:
    """The secret in this browser's session cookie ("" without one). Over HTTPS only the
    ``__Host-`` cookie counts: one under the plain name may have been planted by a sibling site."""
    return _cookie(request, SESSION_COOKIE)


def delete_session_cookie(request: HTTPConnection, response: Response) -> None:
    """Tell the browser to drop its session cookie (a ``__Host-`` one is dropped only if told with Secure)."""
    secure, root = secure_cookies(request), site_root(request)
    response.delete_cookie(
        cookie_name(SESSION_COOKIE, secure, root), path=root or "/", secure=secure, httponly=True, samesite="lax"
    )


def client_key(request: Request) -> str:
    """Who is attempting: the client's address (:func:`address_key`)."""
    return address_key(request.client.host) if request.client else "unknown"


def address_key(host: str) -> str:
    """The key a client's address is counted under by the limits: an IPv4 address as it is, an
    IPv6 one as its /64. A host on IPv6 is routinely given a whole /64 and may send from any
    address in it, so counting single addresses would give it billions of allowances.

    >>> address_key("203.0.113.7"), address_key("2001:db8:1:2:ffff::9"), address_key("::ffff:203.0.113.7")
    ('203.0.113.7', '2001:db8:1:2::/64', '203.0.113.7')
    >>> address_key("testclient")
    'testclient'
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def try_again_in(seconds: int) -> str:
    """When to try again after a refusal by a limit, in words, from the ``Retry-After`` it gives:
    every such refusal says it so (pages and API alike).

    >>> try_again_in(1), try_again_in(45), try_again_in(3599)
    ('try again in 1 second', 'try again in 45 seconds', 'try again in 60 minutes')
    """
    if seconds < 120:
        return f"try again in {seconds} second{'' if seconds == 1 else 's'}"
    return f"try again in {math.ceil(seconds / 60)} minutes"


SharedCount = Callable[[str, float, float], int]
"""Records a failed attempt ``(client, seconds since the epoch, window)`` where every worker sees
it, and returns the client's attempts within the window (:func:`sevens.store.ratelimit.count_failure`)."""


class RateLimiter:
    """Counts failed attempts with a secret per client in a sliding window.

    Each process counts its own; with ``shared``, every failure is also counted where all the
    server's workers see it, and a client past the limit there is blocked here for a window too.
    So N workers let through at most the limit plus N - 1 (plus the requests already past the
    check), not N times the limit.

    >>> limiter = RateLimiter(attempts=2, window_seconds=60, clock=lambda: 0.0)
    >>> limiter.failed("1.2.3.4"); limiter.failed("1.2.3.4"); limiter.blocked("1.2.3.4")
    True
    >>> limiter.blocked("5.6.7.8")
    False
    """

    def __init__(
        self,
        *,
        attempts: int,
        window_seconds: float,
        clock: Callable[[], float] = time.monotonic,
        shared: SharedCount | None = None,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.attempts = attempts
        self.window = window_seconds
        self._clock = clock
        self._shared = shared
        self._wall_clock = wall_clock
        self._failures: dict[str, deque[float]] = {}
        self._blocked_until: dict[str, float] = {}
        self._next_sweep = float("-inf")
        self._lock = threading.Lock()

    def _recent(self, key: str) -> deque[float]:
        # Only a failure stores a client (failed): a look-up of one with nothing counted must not,
        # or every address that ever asked would stay in memory for the life of the process.
        now = self._clock()
        queue = self._failures.get(key, deque())
        while queue and queue[0] <= now - self.window:
            queue.popleft()
        return queue

    def _sweep(self) -> None:
        """Forget the clients with nothing left in the window, at most once a window (so the work
        is spread thin): a stream of wrong secrets from ever new addresses would otherwise grow
        the process without end."""
        now = self._clock()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.window
        for key in [k for k, q in self._failures.items() if not q or q[-1] <= now - self.window]:
            del self._failures[key]
        for key in [k for k, until in self._blocked_until.items() if until <= now]:
            del self._blocked_until[key]

    def clients(self) -> int:
        """How many clients this process holds counts of (the rest are forgotten).

        >>> now = [0.0]
        >>> limiter = RateLimiter(attempts=2, window_seconds=60, clock=lambda: now[0])
        >>> for n in range(1000):
        ...     limiter.failed(f"10.0.{n // 256}.{n % 256}")
        >>> limiter.blocked("10.9.9.9"), limiter.clients()
        (False, 1000)
        >>> now[0] = 61.0; limiter.failed("10.9.9.9"); limiter.clients()
        1
        """
        with self._lock:
            return len(self._failures.keys() | self._blocked_until.keys())

    def blocked(self, key: str) -> bool:
        """True when ``key`` has used up its failed attempts for the window."""
        with self._lock:
            if self._blocked_until.get(key, float("-inf")) > self._clock():
                return True
            return len(self._recent(key)) >= self.attempts

    def retry_after(self, key: str) -> int:
        """Whole seconds until ``key`` is no longer :meth:`blocked` (0: it is not).

        >>> now = [0.0]
        >>> limiter = RateLimiter(attempts=2, window_seconds=60, clock=lambda: now[0])
        >>> limiter.failed("a"); now[0] = 10.0; limiter.failed("a"); limiter.retry_after("a")
        50
        >>> now[0] = 60.0; limiter.retry_after("a"), limiter.blocked("a")
        (0, False)
        """
        with self._lock:
            return self._wait(key)

    def _wait(self, key: str) -> int:
        now = self._clock()
        wait = self._blocked_until.get(key, now) - now
        recent = self._recent(key)
        if len(recent) >= self.attempts:
            # The attempt that must leave the window before one more is allowed.
            wait = max(wait, recent[len(recent) - self.attempts] + self.window - now)
        return max(0, math.ceil(wait))

    def _count(self, key: str) -> None:
        queue = self._recent(key)
        queue.append(self._clock())
        self._failures[key] = queue
        self._sweep()

    def hold(self, key: str) -> int:
        """Count one act of ``key`` now if one more is allowed, in one step: 0 once it is counted
        (here; :meth:`share` counts it where every worker sees it once the act is done, or
        :meth:`give_back` takes it back), else the whole seconds to wait, nothing counted. A check
        first and a count after the act let acts sent at once all pass before any was counted.

        >>> limiter = RateLimiter(attempts=2, window_seconds=60, clock=lambda: 0.0)
        >>> limiter.hold("a"), limiter.hold("a"), limiter.hold("a")
        (0, 0, 60)
        >>> limiter.give_back("a"); limiter.hold("a")
        0
        """
        with self._lock:
            wait = self._wait(key)
            if not wait:
                self._count(key)
            return wait

    def give_back(self, key: str) -> None:
        """Take back the latest act :meth:`hold` counted for ``key`` (it was not done after all)."""
        with self._lock:
            queue = self._failures.get(key)
            if queue:
                queue.pop()

    def failed(self, key: str) -> None:
        """Count one failed attempt (here, and where every worker sees it)."""
        with self._lock:
            self._count(key)
        self.share(key)

    def share(self, key: str) -> None:
        """Count one act of ``key``, already counted here, where every worker sees it; past the
        limit there, ``key`` is blocked here for a window too."""
        if self._shared is None:
            return
        try:
            total = self._shared(key, self._wall_clock(), self.window)
        except SQLAlchemyError:
            # The count in this process still holds; the attempt itself is refused anyway.
            log.warning("could not count a failed attempt in the database", exc_info=True)
            return
        if total >= self.attempts:
            with self._lock:
                self._blocked_until[key] = self._clock() + self.window

    def refused(self, key: str, wrong: HTTPException) -> HTTPException:
        """The answer to a wrong secret from ``key``: ``wrong``, counted, or 429 once past the limit.

        Only wrong secrets are held back. A right one always goes through: every secret has 192
        random bits, so guessing gains nothing, and blocking an address would lock out everyone
        behind it (a shared network, or every user behind a reverse proxy) whenever one of them
        sent ten wrong links.
        """
        if not self.blocked(key):
            self.failed(key)
            return wrong
        # The wait left, said as the header gives it (the whole window overstated it).
        wait = max(1, self.retry_after(key))
        return HTTPException(
            status_code=429,
            detail=f"too many attempts with a wrong link or token; {try_again_in(wait)}",
            headers={"Retry-After": str(wait)},
        )
