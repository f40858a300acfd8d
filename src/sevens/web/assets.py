"""The static files (style sheet, script, icon), served from memory: cached by the browser for a
year under a versioned address, and gzipped for a browser that takes it.

A page names each file as ``/static/app.js?v=<hash of its bytes>`` (:meth:`Assets.url`). An answer
to exactly that address never changes, so it is ``immutable`` for a year: a phone loads the script
and style sheet once, not with every page and every reload a turn brings. A new release changes the
hash, hence the address, so no browser runs an old script against new pages. Any other address of
a file (no ``v``, or an old one) is ``no-cache``: the browser asks again each time, and its
``If-None-Match`` gets a 304 with no body while the file is unchanged.

These files are compressed (docs/web.md, *On a slow connection*): they hold no secret and nothing
a request can change, so the size of their gzip says nothing (BREACH needs a secret and attacker's
text in one compressed body). Of the pages and JSON answers only those that hold no secret either
go gzipped (sevens.web.compression); the rest go uncompressed.

The style sheet goes without its comments: they explain the rules to whoever edits the file and
were more than half of its gzipped bytes, on every phone's first visit. The script goes without
its lines that hold only a comment, which were over 40% of its gzipped bytes.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import Headers, QueryParams
from starlette.responses import PlainTextResponse, Response
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocketClose

from sevens.web.conditional import etag_of, matches

__all__ = ["FOREVER", "REVALIDATE", "Assets", "accepts_gzip", "css_without_comments", "js_without_comment_lines"]

FOREVER = "public, max-age=31536000, immutable"
"""The caching of a file asked for under its current versioned address: its bytes never change."""

REVALIDATE = "no-cache"
"""The caching of a file under any other address: kept, but asked again (a 304 while unchanged)."""


# Named here rather than guessed: the system's table may call a script application/javascript.
_KINDS = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}


@dataclass(frozen=True)
class _File:
    plain: bytes
    zipped: bytes | None  # None where gzip would not make it smaller
    kind: str
    version: str


# A quoted string (kept whole, so a "/*" inside one stays) or a comment.
_CSS_STRING_OR_COMMENT = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/', re.S)


def css_without_comments(text: str) -> str:
    """``text``, a style sheet, with its comments and the blank lines they leave taken out.

    >>> css_without_comments('a { content: "/* kept */"; }  /* gone */\\n/* gone\\n too */\\nb {}\\n')
    'a { content: "/* kept */"; }\\nb {}\\n'
    """
    bare = _CSS_STRING_OR_COMMENT.sub(lambda m: "" if m[0].startswith("/*") else m[0], text)
    return "".join(line.rstrip() + "\n" for line in bare.splitlines() if line.strip())


def js_without_comment_lines(text: str) -> str:
    """``text``, a script, without its lines that hold only a ``//`` comment, and its blank lines.

    Whole lines only: a ``//`` after code may be inside a string or a regular expression, and is
    kept, as are ``/* */`` comments (a few, inline). Safe for a script with no string spanning
    lines (app.js has no template literal), where such a line could be part of the text.

    >>> js_without_comment_lines('// why\\nvar a = "//x";  // kept\\n\\n  // gone\\nb(); /* kept */\\n')
    'var a = "//x";  // kept\\nb(); /* kept */\\n'
    """
    return "".join(line for line in text.splitlines(keepends=True) if line.strip() and not line.lstrip().startswith("//"))


def accepts_gzip(headers: Headers) -> bool:
    """Whether ``Accept-Encoding`` takes gzip (with no ``q=0`` for it).

    >>> accepts_gzip(Headers({"accept-encoding": "gzip, deflate, br"}))
    True
    >>> accepts_gzip(Headers({"accept-encoding": "br, gzip;q=0"})), accepts_gzip(Headers({}))
    (False, False)
    """
    for part in headers.get("accept-encoding", "").lower().split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


class Assets:
    """An ASGI app serving the files of ``directory`` (read once, at start) by name."""

    def __init__(self, directory: Path) -> None:
        self.files: dict[str, _File] = {}
        for path in sorted(directory.iterdir()):
            if not path.is_file():
                continue
            plain = path.read_bytes()
            if path.suffix == ".css":
                plain = css_without_comments(plain.decode("utf-8")).encode("utf-8")
            elif path.suffix == ".js":
                plain = js_without_comment_lines(plain.decode("utf-8")).encode("utf-8")
            zipped = gzip.compress(plain, compresslevel=9, mtime=0)
            kind = _KINDS.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            version = hashlib.sha256(plain).hexdigest()[:16]
            self.files[path.name] = _File(plain, zipped if len(zipped) < len(plain) else None, kind, version)

    def url(self, name: str) -> str:
        """The versioned address of the file ``name``, for a page to link to.

        A name with no such file is an error here, when the page is rendered, not a 404 later.
        """
        return f"/static/{name}?v={self.files[name].version}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # a websocket (the mount takes both): closed, as at an address with no page
            await WebSocketClose()(scope, receive, send)
            return
        name = str(scope.get("path", "")).removeprefix(str(scope.get("root_path", ""))).lstrip("/")
        found = self.files.get(name)
        if scope["method"] not in ("GET", "HEAD"):
            answer: Response = PlainTextResponse(
                "that address does not take this kind of request", status_code=405, headers={"Allow": "GET, HEAD"}
            )
        elif found is None:
            answer = PlainTextResponse("no such file; check the address", status_code=404)
        else:
            answer = self._answer(found, scope)
        await answer(scope, receive, send)

    def _answer(self, found: _File, scope: Scope) -> Response:
        headers = Headers(scope=scope)
        zipped = found.zipped is not None and accepts_gzip(headers)
        body = found.zipped if zipped and found.zipped is not None else found.plain
        # Each encoding its own strong tag: the two bodies differ byte for byte.
        tag = etag_of(body)
        current = QueryParams(scope.get("query_string", b"")).get("v") == found.version
        sent = {"ETag": tag, "Cache-Control": FOREVER if current else REVALIDATE, "Vary": "Accept-Encoding"}
        if zipped:
            sent["Content-Encoding"] = "gzip"
        if matches(headers.get("if-none-match"), tag):
            return Response(status_code=304, headers=sent)
        return Response(body, media_type=found.kind, headers=sent)
