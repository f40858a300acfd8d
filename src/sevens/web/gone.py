"""Requests whose clients have gone: a GET or HEAD that waited for its turn at the database is not
served once its client has closed the connection (:func:`sevens.web.deps.get_db`).

A browser's given-up polls, a bot's timed-out calls, a proxy that stopped waiting: each leaves its
request queued for the database, and each used to be served in full for nobody while the requests
of clients still there waited behind it. Only the safe methods are ever skipped: they change
nothing, so not serving one whose answer nobody will read loses nothing. A request that changes
something (POST, PUT, DELETE) is served whether or not its client waited for the answer: it may have
left after sending it in full, and what the request does must not depend on that.

How the server says a client has gone: ASGI's ``receive()`` gives ``http.disconnect`` once the
connection is closed, but a request's body (``http.request``, empty for a GET) comes first, and a
message read here would be lost to the route. So :class:`ClientWatch` keeps every message it reads
ahead and hands it to the app in order, as if it had never been looked at.
"""

from __future__ import annotations

from collections import deque

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SKIPPABLE", "ClientGone", "ClientWatch", "client_gone"]

SKIPPABLE = frozenset({"GET", "HEAD"})
"""The methods a request may go unserved for, once its client has gone: the safe ones."""

_WATCH = "sevens.client_gone"
"""The scope's key of the request's check (:func:`client_gone`), for the methods in :data:`SKIPPABLE`."""


class ClientGone(Exception):
    """Raised instead of serving a request whose client has gone; its handler answers 499, an
    answer nobody reads (the server writes nothing to a closed connection)."""


class ClientWatch:
    """ASGI middleware letting :func:`client_gone` look at a GET's or HEAD's connection without
    taking a message from the app: what it reads ahead is handed to the app first, in order.
    Outermost, so that it reads what the server sends, before any layer that counts a body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in SKIPPABLE:
            await self.app(scope, receive, send)
            return
        read_ahead: deque[Message] = deque()

        async def receive_kept_first() -> Message:
            return read_ahead.popleft() if read_ahead else await receive()

        async def gone() -> bool:
            if read_ahead and read_ahead[-1]["type"] == "http.disconnect":
                return True
            # The request's body comes first (an empty one for a GET), then nothing until the
            # connection closes: two messages at most say whether it has.
            for _ in range(2):
                message = await _if_there(receive)
                if message is None:
                    return False  # nothing more to read yet: the connection is open
                read_ahead.append(message)
                if message["type"] == "http.disconnect":
                    return True
                if message.get("more_body", False):
                    return False  # a body still coming in: its client is there, sending it
            return False

        await self.app({**scope, _WATCH: gone}, receive_kept_first, send)


async def _if_there(receive: Receive) -> Message | None:
    """The next message if the server has it now, else None, without waiting: the wait is
    cancelled before it starts (uvicorn's ``receive`` changes nothing before it waits)."""
    with anyio.CancelScope() as scope:
        scope.cancel()
        return await receive()
    return None


async def client_gone(scope: Scope) -> bool:
    """Whether the request's client has closed its connection, for a request :class:`ClientWatch`
    watches (a GET or HEAD); False for any other, which is served whatever happens."""
    watch = scope.get(_WATCH)
    return False if watch is None else bool(await watch())
