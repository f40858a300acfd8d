"""Gzip, whole, for answers that hold no secret at all: what a browser with no session reads (a
spectator's game page, team page, big screen, CSVs, the record), never a page with a form token, a
seat's proof, an invite or organiser link, or anything of a session (docs/web.md, *Security* and
*On a slow connection*); and for a page of a session, gzip of its public stretches only (below).

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

Any other HTML page (a player's, the organiser's, any page of a session, and any page that handed
out a secret, such as the front page with its create form's token) may still go gzipped in part: only what lies between :data:`PUBLIC_OPEN` and :data:`PUBLIC_CLOSE` is compressed, each such
stretch by a compressor of its own that sees nothing else of the page, and everything else goes in
deflate's stored blocks, byte for byte as it is (:func:`gzip_public_parts`). The templates put the
marks around what every reader of the page is shown alike (a game's bracket, group tables and
match reports; the front page's blank create form and its public games), never around a token, a
proof, anything typed or a player's own orders. So the size of the compressed
stretches depends only on text that holds no secret, the secrets' stretches are as long gzipped as
plain, and a compression oracle learns nothing it could not read on the game's own page. An
attacker cannot write a mark of their own: every text a user chose is HTML-escaped, so ``<!--``
never comes from it, and a page whose marks do not alternate open, close is not compressed at all.
"""

from __future__ import annotations

import gzip
import hashlib
import struct
import zlib
from collections import OrderedDict
from collections.abc import Callable

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sevens.web.assets import accepts_gzip
from sevens.web.security import CSRF_COOKIE, SECRET_HANDLED

__all__ = [
    "GZIP_TAG", "KEPT", "PUBLIC_CLOSE", "PUBLIC_OPEN", "KeptGzip", "SpectatorGzip", "gzip_public_parts",
    "no_secret_asked", "public_parts",
]

GZIP_TAG = "-gzip"
"""Put at the end of an ETag, inside its quotes, when the body it tags went gzipped."""

_TEXT = ("text/html", "application/json", "text/csv")
_LEVEL = 6  # a 150 kB page in about 2 ms; 9 saves about 3% more for three times the time
KEPT = 256
"""How many gzipped bodies are kept, by the digest of the plain body: spectators reloading a game
page between two turns get the same bytes, gzipped once. At most 256 bodies of some 10 kB gzipped
(a 16-team final's game page): a few MB."""


PUBLIC_OPEN = b"<!--public-->"
"""Opens a stretch of a page that every reader of the game is shown alike (macros.html)."""
PUBLIC_CLOSE = b"<!--/public-->"
"""Closes it."""
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, mtime 0, OS unknown
_STORED_MAX = 0xFFFF


def public_parts(body: bytes) -> list[tuple[bytes, bool]] | None:
    """``body`` cut at the marks, each piece with whether it lies between an open and a close mark;
    None where there is no mark, or the marks do not alternate open, close, ending closed.

    >>> public_parts(b"a<!--public-->b<!--/public-->c")
    [(b'a', False), (b'<!--public-->b<!--/public-->', True), (b'c', False)]
    >>> public_parts(b"a<!--/public-->b") is None, public_parts(b"plain") is None
    (True, True)
    >>> public_parts(b"a<!--/public-->b<!--public-->c<!--/public-->") is None  # a close before any open
    True
    """
    pieces: list[tuple[bytes, bool]] = []
    at = 0
    while (start := body.find(PUBLIC_OPEN, at)) != -1:
        end = body.find(PUBLIC_CLOSE, start)
        # A close in what goes stored, or an open inside a stretch: not the templates' marks.
        if end == -1 or body.find(PUBLIC_OPEN, start + 1, end) != -1 or body.find(PUBLIC_CLOSE, at, start) != -1:
            return None
        pieces.append((body[at:start], False))
        at = end + len(PUBLIC_CLOSE)
        pieces.append((body[start:at], True))
    if not pieces or body.find(PUBLIC_CLOSE, at) != -1:
        return None
    pieces.append((body[at:], False))
    return [(piece, public) for piece, public in pieces if piece]


def _stored(piece: bytes) -> bytes:
    """``piece`` as deflate's stored blocks (none of them the last): its bytes as they are, after a
    five-byte header per 64 kB, whatever they hold."""
    out = []
    for at in range(0, len(piece), _STORED_MAX):
        chunk = piece[at : at + _STORED_MAX]
        out.append(b"\x00" + struct.pack("<HH", len(chunk), len(chunk) ^ 0xFFFF) + chunk)
    return b"".join(out)


def _deflated(piece: bytes) -> bytes:
    """``piece`` compressed by a compressor that has seen nothing else, ended on a byte boundary
    with no last block, so that more blocks may follow; it never points back before its start."""
    packer = zlib.compressobj(_LEVEL, zlib.DEFLATED, -15)
    return packer.compress(piece) + packer.flush(zlib.Z_SYNC_FLUSH)


def gzip_public_parts(parts: list[tuple[bytes, bool]], deflated: Callable[[bytes], bytes] = _deflated) -> bytes:
    """One gzip member holding the pieces in order: the public ones compressed each on its own,
    the others stored. Any gzip reader reads back the whole body.

    >>> parts = public_parts(b"token=s3cret <!--public-->" + b"report " * 50 + b"<!--/public-->")
    >>> zipped = gzip_public_parts(parts)
    >>> gzip.decompress(zipped) == b"".join(p for p, _ in parts), b"token=s3cret" in zipped
    (True, True)
    """
    body = b"".join(piece for piece, _ in parts)
    out = [_GZIP_HEADER]
    out += [deflated(piece) if public else _stored(piece) for piece, public in parts]
    out.append(b"\x01\x00\x00\xff\xff")  # the last block: stored, empty
    out.append(struct.pack("<II", zlib.crc32(body), len(body) & 0xFFFFFFFF))
    return b"".join(out)


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
        return self._kept(hashlib.sha256(body).digest(), lambda: gzip.compress(body, compresslevel=_LEVEL, mtime=0))

    def deflated(self, piece: bytes) -> bytes:
        """A public piece of a page compressed on its own (:func:`gzip_public_parts`), kept like a
        body: every player and the organiser of a game are shown the same reports."""
        return self._kept(b"piece" + hashlib.sha256(piece).digest(), lambda: _deflated(piece))

    def _kept(self, key: bytes, pack: Callable[[], bytes]) -> bytes:
        found = self._zipped.get(key)
        if found is not None:
            self.hits += 1
            self._zipped.move_to_end(key)
            return found
        self.misses += 1
        packed = self._zipped[key] = pack()
        if len(self._zipped) > self.size:
            self._zipped.popitem(last=False)
        return packed


class SpectatorGzip:
    """ASGI middleware gzipping an answer that holds no secret (see the module) for a browser that
    takes gzip, and any other page of HTML in its public stretches only. Outside :class:`~sevens.web.app.CsrfCookie`, so that it sees every cookie set."""

    def __init__(self, app: ASGIApp, kept: KeptGzip | None = None) -> None:
        self.app = app
        self.kept = kept or KeptGzip()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        if not no_secret_asked(scope):
            await self._public_parts_only(scope, receive, send)
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
        in_parts = False  # the answer goes gzipped in its public stretches only
        chunks: list[bytes] = []

        async def send_maybe_zipped(message: Message) -> None:
            nonlocal start, in_parts
            if message["type"] == "http.response.start":
                if not self._qualifies(scope, message):
                    # A page that handed out a secret (a form's token, an invite read from the
                    # address) goes as a session's page does: gzipped in its public stretches only.
                    if self._held_for_parts(message, takes_gzip and scope["method"] == "GET"):
                        start, in_parts = message, True
                        return
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
            body = _whole_body(chunks, message)
            if body is None:
                return
            if in_parts:
                await _send_whole(send, start, self._parts_zipped(start, body))
                return
            headers = MutableHeaders(scope=start)
            zipped = self.kept.gzipped(body) if takes_gzip else body
            # A tiny body (a poll's) can come out bigger: it then goes as it is, under its plain tag.
            if len(zipped) < len(body):
                body = zipped
                headers["Content-Encoding"] = "gzip"
                _mark_zipped(headers)
            await _send_whole(send, start, body)

        await self.app(scope, receive, send_maybe_zipped)

    async def _public_parts_only(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A page of a session: gzipped in its public parts only (:func:`gzip_public_parts`), for a
        browser that takes gzip, where it is a 200 of HTML with well placed marks."""
        takes_gzip = scope["method"] == "GET" and accepts_gzip(Headers(scope=scope))
        start: Message | None = None
        chunks: list[bytes] = []

        async def send_parts_zipped(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                if self._held_for_parts(message, takes_gzip):
                    start = message
                else:
                    await send(message)
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            body = _whole_body(chunks, message)
            if body is None:
                return
            await _send_whole(send, start, self._parts_zipped(start, body))

        await self.app(scope, receive, send_parts_zipped)

    @staticmethod
    def _held_for_parts(start: Message, takes_gzip: bool) -> bool:
        """Whether an answer is held back to go gzipped in its public stretches: a 200 of HTML, not
        encoded yet, with no ETag or Vary of its own (it then says Vary: Accept-Encoding, held or
        not), for a GET whose browser takes gzip."""
        headers = Headers(raw=start.get("headers", []))
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if start["status"] != 200 or kind != "text/html" or any(
            name in headers for name in ("content-encoding", "vary", "etag")
        ):
            return False
        MutableHeaders(scope=start).add_vary_header("Accept-Encoding")
        return takes_gzip

    def _parts_zipped(self, start: Message, body: bytes) -> bytes:
        """``body`` gzipped in its public stretches (:func:`gzip_public_parts`), saying so in
        ``start``, where its marks are well placed and that makes it smaller; else as it is."""
        parts = public_parts(body)
        if parts is None:
            return body
        zipped = gzip_public_parts(parts, self.kept.deflated)
        if len(zipped) >= len(body):
            return body
        MutableHeaders(scope=start)["Content-Encoding"] = "gzip"
        return zipped

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


def _whole_body(chunks: list[bytes], message: Message) -> bytes | None:
    """The answer's whole body once ``message`` brings its last part, else None (kept in
    ``chunks``): a body is gzipped whole, never part by part."""
    chunks.append(message.get("body", b""))
    return None if message.get("more_body", False) else b"".join(chunks)


async def _send_whole(send: Send, start: Message, body: bytes) -> None:
    """``start``, its length now the body's as it goes, then ``body`` in one message."""
    MutableHeaders(scope=start)["Content-Length"] = str(len(body))
    await send(start)
    await send({"type": "http.response.body", "body": body, "more_body": False})
