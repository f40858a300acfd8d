"""Gzip for answers that hold no secret at all: what a browser with no session reads (a
spectator's game page, team page, big screen, CSVs, the record), never a page with a form token, a
seat's proof, an invite or organiser link, or anything of a session (docs/web.md, *Security* and *On a slow connection*).

BREACH guesses a secret from the size of a compressed body that also holds text an attacker
chose; a body with no secret in it tells nothing, however it is compressed. Whether one does is
decided by what the request carried and what answering it did, not by a list of pages:

* the request has no ``Authorization`` header and no cookie but the form token's (a session, a
  signed-out mark, any cookie a later version adds: each may put text of its own on the page);
* answering it handed out no secret: :func:`~sevens.web.security.csrf_token` (every form),
  :func:`~sevens.web.security.seat_form_proof` and the views that read an invite or organiser link
  from their address call :func:`~sevens.web.security.note_secret`, whatever the page then shows;
* the answer sets no cookie, is a 200 (or a 304) of text (HTML, JSON, CSV), is not encoded yet and
  says no ``Vary`` of its own (the static files choose their encoding themselves).

Each such answer says ``Vary: Accept-Encoding``, and goes gzipped when that makes it smaller. Its
``ETag`` (the API's reads) then gets ``-gzip`` inside its quotes, so the two encodings never share a
strong tag; an ``If-None-Match`` naming that tag is read as the plain one the view compares with,
and the 304 names the gzipped tag again.
"""

from __future__ import annotations

import gzip
import hashlib
from collections import OrderedDict

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sevens.web.assets import accepts_gzip
from sevens.web.security import CSRF_COOKIE, SECRET_HANDLED

__all__ = ["GZIP_TAG", "KEPT", "KeptGzip", "SpectatorGzip", "no_secret_asked"]

GZIP_TAG = "-gzip"
"""Put at the end of an ETag, inside its quotes, when the body it tags went gzipped."""

_TEXT = ("text/html", "application/json", "text/csv")
_LEVEL = 6  # a 150 kB page in about 2 ms; 9 saves about 3% more for three times the time
KEPT = 256
"""How many gzipped bodies are kept, by the digest of the plain body: spectators reloading a game
page between two turns get the same bytes, gzipped once. At most 256 bodies of some 10 kB gzipped
(a 16-team final's game page): a few MB."""


def no_secret_asked(scope: Scope) -> bool:
    """Whether the request carries nothing that could put a secret on its answer: no
    ``Authorization`` and no cookie but the form token's, under whichever prefix it has.

    >>> no_secret_asked({"type": "http", "headers": [(b"cookie", b"__Host-sevens_csrf=x")]})
    True
    >>> no_secret_asked({"type": "http", "headers": [(b"cookie", b"sevens_csrf=x; sevens_session=y")]})
    False
    >>> no_secret_asked({"type": "http", "headers": [(b"authorization", b"Bearer t")]})
    False
    """
    headers = Headers(scope=scope)
    if "authorization" in headers:
        return False
    names = HTTPConnection(scope).cookies
    return all(name.removeprefix("__Host-").removeprefix("__Secure-") == CSRF_COOKIE for name in names)


def _mark_zipped(headers: MutableHeaders) -> None:
    """The answer's ETag, if any, marked as the gzipped body's (:data:`GZIP_TAG` inside its quotes)."""
    if "etag" in headers:
        headers["ETag"] = headers["etag"][:-1] + GZIP_TAG + '"'


def _plain_tags(value: str) -> str:
    """An If-None-Match with the gzip mark taken off each tag, so the view's plain tag matches it."""
    return value.replace(GZIP_TAG + '"', '"')


class KeptGzip:
    """Gzipped bodies kept by the digest of their plain bytes, the :data:`KEPT` latest used."""

    def __init__(self, kept: int = KEPT) -> None:
        self.size = kept
        self._zipped: OrderedDict[bytes, bytes] = OrderedDict()
        self.hits = self.misses = 0

    def gzipped(self, body: bytes) -> bytes:
        """``body`` gzipped, kept for the next answer with the same bytes (only the event loop's
        thread calls this, so no lock)."""
        key = hashlib.sha256(body).digest()
        found = self._zipped.get(key)
        if found is not None:
            self.hits += 1
            self._zipped.move_to_end(key)
            return found
        self.misses += 1
        zipped = gzip.compress(body, compresslevel=_LEVEL, mtime=0)
        self._zipped[key] = zipped
        if len(self._zipped) > self.size:
            self._zipped.popitem(last=False)
        return zipped


class SpectatorGzip:
    """ASGI middleware gzipping an answer that holds no secret (see the module) for a browser that
    takes gzip. Outside :class:`~sevens.web.app.CsrfCookie`, so that it sees every cookie set."""

    def __init__(self, app: ASGIApp, kept: KeptGzip | None = None) -> None:
        self.app = app
        self.kept = kept or KeptGzip()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD") or not no_secret_asked(scope):
            await self.app(scope, receive, send)
            return
        # Made here if the server made none, so that what the views note in it reaches this layer.
        scope.setdefault("state", {})
        takes_gzip = accepts_gzip(Headers(scope=scope))
        asked = Headers(scope=scope).get("if-none-match")
        # The browser holds the gzipped body's tag: its 304 names that one again.
        holds_zipped = takes_gzip and asked is not None and GZIP_TAG + '"' in asked
        if holds_zipped and asked is not None:
            raw = [(k, v) for k, v in scope["headers"] if k != b"if-none-match"]
            raw.append((b"if-none-match", _plain_tags(asked).encode("latin-1")))
            scope = {**scope, "headers": raw}
        start: Message | None = None
        chunks: list[bytes] = []

        async def send_maybe_zipped(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                if not self._qualifies(scope, message):
                    await send(message)
                    return
                start = message
                headers = MutableHeaders(scope=start)
                headers.add_vary_header("Accept-Encoding")
                if message["status"] == 304:
                    if holds_zipped:
                        _mark_zipped(headers)
                    start = None
                    await send(message)
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            body = b"".join(chunks)
            headers = MutableHeaders(scope=start)
            zipped = self.kept.gzipped(body) if takes_gzip else body
            # A tiny body (a poll's) can come out bigger: it then goes as it is, under its plain tag.
            if len(zipped) < len(body):
                body = zipped
                headers["Content-Encoding"] = "gzip"
                _mark_zipped(headers)
            headers["Content-Length"] = str(len(body))
            await send(start)
            await send({"type": "http.response.body", "body": body, "more_body": False})

        await self.app(scope, receive, send_maybe_zipped)

    @staticmethod
    def _qualifies(scope: Scope, start: Message) -> bool:
        state = scope.get("state") or {}
        if isinstance(state, dict) and state.get(SECRET_HANDLED):
            return False
        if start["status"] not in (200, 304):
            return False
        headers = Headers(raw=start.get("headers", []))
        # A cookie set is a secret or a session's; an answer that says Vary already chose its
        # encoding itself (the static files).
        if "set-cookie" in headers or "content-encoding" in headers or "vary" in headers:
            return False
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        return start["status"] == 304 or kind in _TEXT
