"""Conditional reads for the API's views (RFC 9110): a strong ``ETag`` of the exact body sent to
the caller, and 304 Not Modified, with no body, to an ``If-None-Match`` that names it. Writes
give no tag, so a write sent with ``If-Match`` is refused (412) rather than done regardless.

The tag is a hash of the bytes that caller receives and of nothing else, so it tells a caller
nothing its own answer does not (R13): a player's tag cannot move when another seat orders unless
the player's body does, and two callers with different views get different tags.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse, Response

__all__ = ["NOT_MODIFIED", "answer_if_changed", "etag_of", "matches", "refuse_if_match"]

_ETAG = {
    "description": "a strong tag of this caller's answer, to send back as If-None-Match",
    "schema": {"type": "string"},
}

NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    200: {"headers": {"ETag": _ETAG}},
    304: {
        "description": (
            "not modified: the If-None-Match header named this answer's ETag, so the caller already "
            "has it; no body"
        ),
        "headers": {"ETag": _ETAG},
    },
}
"""The ETag of the answer and the 304 as the OpenAPI document lists them for a view read with
``If-None-Match``."""

_TAG = re.compile(r'\s*(?:W/)?("[^"]*")\s*(?:,|$)')


def etag_of(body: bytes) -> str:
    """A strong entity tag for ``body``: 128 bits of its SHA-256, quoted as HTTP wants.

    >>> etag_of(b'{"status":"lobby"}')
    '"432e98a60b0c0ed474f493e1d58a62f2"'
    >>> etag_of(b"{}") == etag_of(b"{ }")
    False
    """
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def matches(if_none_match: str | None, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (RFC 9110 13.1.2: a weak comparison,
    so a ``W/`` prefix does not matter; ``*`` names any current answer).

    >>> tag = '"abc"'
    >>> matches('"abc"', tag), matches('"x", W/"abc"', tag), matches("*", tag)
    (True, True, True)
    >>> matches(None, tag), matches('"abcd"', tag), matches("abc", tag), matches("", tag)
    (False, False, False, False)
    """
    if if_none_match is None:
        return False
    if if_none_match.strip() == "*":
        return True
    return etag in _TAG.findall(if_none_match)


def answer_if_changed(data: Any, if_none_match: str | None) -> Response:
    """``data`` as the JSON answer with its ``ETag``, or 304 with the tag and no body when the
    caller's ``If-None-Match`` already names it."""
    answer = JSONResponse(data)
    etag = etag_of(bytes(answer.body))
    if matches(if_none_match, etag):
        return Response(status_code=304, headers={"ETag": etag})
    answer.headers["ETag"] = etag
    return answer


async def refuse_if_match(request: Request) -> None:
    """A dependency of every API operation: a write sent with ``If-Match`` is refused (412), not done.

    No write answers with an ETag, so no tag a client holds can match one (RFC 9110 13.1.1: the
    method must then not be performed); done anyway, a client that counted on the header to keep
    it from overwriting a newer state would be wrong without knowing it. An order names its turn
    instead, and one for a turn no longer open gets 409. Reads take ``If-None-Match`` only."""
    if request.method not in ("GET", "HEAD") and "if-match" in request.headers:
        raise HTTPException(
            status_code=412,
            detail=(
                "this API does not take If-Match (no write has an ETag to match), so nothing was done: "
                "send the request without it; an order's 'turn' says which turn it is for, and a turn "
                "no longer open gets 409"
            ),
        )
