"""Serving the site under a path of another site's host (``SEVENS_ROOT_PATH=/sevens``).

A reverse proxy passes ``https://example.org/sevens/...`` on to this server with the prefix
stripped (nginx ``proxy_pass http://127.0.0.1:8000/;``, Caddy ``handle_path``), and
:class:`RootPath` gives the app the ASGI ``root_path`` and a ``path`` that starts with it, as the
ASGI specification has them, so that routing and ``request.base_url`` work under the prefix, and
puts the prefix before every ``Location`` the app writes as a path from the site's root (its
redirects, the API's new games). Pages and cookies read the prefix from the settings.

The prefix is a setting, not ``X-Forwarded-Prefix``: a header would have to be believed from
trusted proxies only, and a server is at one place on its host for all its visitors; a setting
is also what the links shown to the organiser (for other people) and the cookies' ``Path`` need.
"""

from __future__ import annotations

import re

from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SETTING", "RootPath", "parse_root_path", "route_path", "route_pattern", "site_path", "unstripped"]

SETTING = "SEVENS_ROOT_PATH (sevens serve --root-path)"

_SEGMENT = re.compile(r"[A-Za-z0-9._~-]+")
"""What a segment may hold: URL characters that need no escaping anywhere (address, HTML, cookie's Path)."""


def parse_root_path(text: str) -> str:
    """The path the site is served under, ``""`` for the root of its host.

    >>> parse_root_path("/sevens"), parse_root_path("/games/sevens"), parse_root_path(""), parse_root_path("/")
    ('/sevens', '/games/sevens', '', '')
    >>> parse_root_path("/sevens/")
    Traceback (most recent call last):
    ValueError: SEVENS_ROOT_PATH (sevens serve --root-path): '/sevens/' ends with '/'; write it without: /sevens
    >>> parse_root_path("sevens")
    Traceback (most recent call last):
    ValueError: SEVENS_ROOT_PATH (sevens serve --root-path): 'sevens' does not start with '/'; write it as the path on the site, e.g. /sevens

    Raises:
        ValueError: saying what is wrong with it and how to write it.
    """
    if text == "/":
        return ""
    if not text:
        return text
    start = f"{SETTING}: {text!r}"
    if not text.startswith("/"):
        raise ValueError(f"{start} does not start with '/'; write it as the path on the site, e.g. /{text.strip(' /')}")
    if text.endswith("/"):
        raise ValueError(f"{start} ends with '/'; write it without: {text.rstrip('/')}")
    for segment in text[1:].split("/"):
        if segment in (".", ".."):
            raise ValueError(f"{start} holds {segment!r} as a part; write the path itself, e.g. /sevens")
        if not _SEGMENT.fullmatch(segment):
            raise ValueError(
                f"{start} is not a plain path: each part between '/' must be letters, digits and . _ ~ - "
                "(no spaces, no empty part), e.g. /sevens or /games/sevens"
            )
    return text


def route_path(scope: Scope) -> str:
    """The request's path on the site without the prefix, the one the routes are written for.

    >>> route_path({"path": "/sevens/games/x", "root_path": "/sevens"}), route_path({"path": "/games/x"})
    ('/games/x', '/games/x')
    """
    path = str(scope.get("path", ""))
    root = str(scope.get("root_path", ""))
    if root and (path == root or path.startswith(root + "/")):
        return path[len(root):] or "/"
    return path


def route_pattern(scope: Scope) -> str:
    """The pattern of the route the request is for (``/games/{public_id}/play``), as the log says
    it rather than the address, which may hold an invite or an organiser link; "?" for none.
    Before routing (a failure in a middleware) the app's routes are matched against the path.

    >>> route_pattern({"path": "/nowhere", "app": None})
    '?'
    """
    route = scope.get("route")
    if route is not None:
        return str(getattr(route, "path", "?"))
    probe = {**scope, "path": route_path(scope), "root_path": ""}
    for candidate in getattr(getattr(scope.get("app"), "router", None), "routes", ()):
        if candidate.matches(probe)[0] == Match.FULL:
            return str(getattr(candidate, "path", "?"))
    return "?"


def unstripped(scope: Scope) -> bool:
    """Whether the path still starts with the prefix once it is taken off: the proxy passed it on
    unstripped (a request that found no page is told so).

    >>> unstripped({"path": "/sevens/sevens/games/x", "root_path": "/sevens"})
    True
    >>> unstripped({"path": "/sevens/games/x", "root_path": "/sevens"}), unstripped({"path": "/sevens/x"})
    (False, False)
    """
    root = str(scope.get("root_path", ""))
    rest = route_path(scope)
    return bool(root) and (rest == root or rest.startswith(root + "/"))


def site_path(scope: Scope) -> str:
    """:func:`route_path`, with the prefix a proxy left on (:func:`unstripped`) taken off too: the
    path an error's answer is chosen by (JSON for the API, else a page).

    >>> site_path({"path": "/sevens/sevens/api/v1/games", "root_path": "/sevens"})
    '/api/v1/games'
    """
    path = route_path(scope)
    return path[len(str(scope.get("root_path", ""))):] if unstripped(scope) else path


class RootPath:
    """ASGI middleware serving the app under ``root`` (see the module's docstring)."""

    def __init__(self, app: ASGIApp, *, root: str) -> None:
        self.app = app
        self.root = root
        self.raw_root = root.encode("ascii")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        # The proxy stripped the prefix; a path that still seems to start with it is not taken
        # for one that does (with /games as the prefix, /games/abc is a game's page).
        scope = {**scope, "root_path": self.root, "path": self.root + scope["path"]}
        if scope.get("raw_path") is not None:
            scope["raw_path"] = self.raw_root + scope["raw_path"]

        async def send_under_root(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    (key, self._moved(value) if key.lower() == b"location" else value)
                    for key, value in message.get("headers", [])
                ]
            await send(message)

        await self.app(scope, receive, send_under_root)

    def _moved(self, location: bytes) -> bytes:
        # A path from the site's root ("/games/x/play"), not an address ("https://...", "//host",
        # as Starlette's own redirects are, built from the request's address with the prefix).
        if location.startswith(b"/") and not location.startswith(b"//"):
            return self.raw_root + location
        return location
