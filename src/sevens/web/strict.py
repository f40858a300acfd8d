"""The API takes no input it does not know: an unknown body field, an unknown query parameter, a
name given twice or a body sent to an operation that takes none is refused (422) with a message
naming what was not understood, what the operation does take and, where one is close, the name
probably meant (or, for a name that belongs to another operation, where it goes).

A bot that misspells ``force`` as ``forse`` would otherwise have its order saved without it, or
its odds asked for a FORCE of 0, and never know why.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException, Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.routing import BaseRoute

from sevens.tournament.quoting import quoted
from sevens.web.security import body_of_type

__all__ = ["body_fields", "likely", "methods_at", "refuse_unknown_input", "unknown_fields_message"]


def likely(name: str, accepted: Sequence[str]) -> str | None:
    """The accepted name ``name`` was probably meant as, if one is close enough.

    >>> likely("forse", ["turn", "force", "flair", "ready"])
    'force'
    >>> likely("Flair", ["turn", "force", "flair", "ready"])
    'flair'
    >>> likely("autopilt", ["turn", "force", "flair", "ready"]) is None
    True
    """
    lowered = {a.lower(): a for a in accepted}
    if name.lower() in lowered:
        return lowered[name.lower()]
    found = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[found[0]] if found else None


def unknown_fields_message(
    unknown: Sequence[str],
    accepted: Sequence[str],
    *,
    what: str,
    where: str,
    elsewhere: Mapping[str, str] | None = None,
) -> str:
    """One sentence: each unknown name (with the likely intended one) and what is accepted;
    ``elsewhere`` tells where a name that is not taken here does belong.

    >>> unknown_fields_message(["forse"], ["turn", "force", "flair", "ready"], what="field", where="the body")
    "unknown field 'forse' (did you mean 'force'?): the body takes 'turn', 'force', 'flair', 'ready'"
    >>> unknown_fields_message(["x", "y"], [], what="query parameter", where="this operation")
    "unknown query parameters 'x', 'y': this operation takes none"
    >>> unknown_fields_message(["autopilt"], ["turn"], what="field", where="the body",
    ...                        elsewhere={"autopilot": "PUT .../autopilot/{team} sets it"})
    "unknown field 'autopilt' (did you mean 'autopilot'? PUT .../autopilot/{team} sets it): the body takes 'turn'"
    """
    named = []
    for name in unknown:
        guess = likely(name, accepted)
        other = likely(name, list(elsewhere or {})) if guess is None else None
        if guess is not None:
            named.append(f"{quoted(name)} (did you mean {guess!r}?)")
        elif other is not None and elsewhere is not None:
            meant = "" if other.lower() == name.lower() else f"did you mean {other!r}? "
            named.append(f"{quoted(name)} ({meant}{elsewhere[other]})")
        else:
            named.append(quoted(name))
    takes = ", ".join(repr(a) for a in accepted) if accepted else "none"
    plural = "s" if len(unknown) > 1 else ""
    return f"unknown {what}{plural} {', '.join(named)}: {where} takes {takes}"


def _dependants(dependant: Dependant) -> Iterator[Dependant]:
    yield dependant
    for sub in dependant.dependencies:
        yield from _dependants(sub)


@dataclass(frozen=True)
class _Takes:
    """What one operation takes, worked out once from its route."""

    route: APIRoute  # held, so that its id is not reused while it is cached
    query: tuple[str, ...]
    body: type[BaseModel] | None
    has_body: bool


_TAKES: dict[int, _Takes] = {}


def _takes(route: APIRoute) -> _Takes:
    known = _TAKES.get(id(route))
    if known is None:
        dependants = list(_dependants(route.dependant))
        bodies = [param.field_info.annotation for d in dependants for param in d.body_params]
        models = [m for m in bodies if isinstance(m, type) and issubclass(m, BaseModel)]
        known = _Takes(
            route=route,
            query=tuple(q.alias for d in dependants for q in d.query_params),
            body=models[0] if models else None,
            has_body=any(d.body_params for d in dependants),
        )
        _TAKES[id(route)] = known
    return known


def body_fields(request: Request) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """The fields the body of the request's operation takes (none if it is not an API operation),
    where the names its model lists as ``ELSEWHERE`` belong instead, and what to send for a field
    left out that its model lists as ``MISSING``."""
    route = request.scope.get("route")
    model = _takes(route).body if isinstance(route, APIRoute) else None
    if model is None:
        return [], {}, {}
    return list(model.model_fields), dict(getattr(model, "ELSEWHERE", {})), dict(getattr(model, "MISSING", {}))


def _repeated(names: Iterable[str]) -> list[str]:
    """The names that come more than once, in the order of their second coming.

    >>> _repeated(["force", "flair", "force", "force"])
    ['force']
    """
    seen: set[str] = set()
    twice: dict[str, None] = {}
    for name in names:
        if name in seen:
            twice[name] = None
        seen.add(name)
    return list(twice)


def _repeated_keys(raw: bytes) -> list[str]:
    """The keys some object of the JSON text ``raw`` holds twice (json.loads keeps the last, silently)."""
    found: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        found.extend(name for name in _repeated(k for k, _ in items) if name not in found)
        return dict(items)

    try:
        json.loads(raw, object_pairs_hook=pairs)
    except (ValueError, RecursionError):  # not JSON, or nested past Python's limit: the body's own parsing says so
        return []
    return found


def _once(names: list[str], what: str) -> HTTPException:
    plural = "s" if len(names) > 1 else ""
    listed = ", ".join(quoted(n) for n in names)
    return HTTPException(status_code=422, detail=f"{what}{plural} {listed} given more than once; give each once")


def is_json_type(content_type: str) -> bool:
    """Whether FastAPI reads a body of ``content_type`` as JSON (``application/json`` or any
    ``application/...+json``; a body with no Content-Type it does not).

    >>> [is_json_type(t) for t in ("application/json", "Application/JSON; charset=utf-8", "application/merge-patch+json")]
    [True, True, True]
    >>> [is_json_type(t) for t in ("", "text/plain", "application/x-www-form-urlencoded", "text/json")]
    [False, False, False, False]
    """
    kind = content_type.split(";")[0].strip().lower()
    main, _, sub = kind.partition("/")
    return main == "application" and (sub == "json" or sub.endswith("+json"))


def _not_json(content_type: str) -> HTTPException:
    """415 for a body FastAPI would not read as JSON: it was answered as if the body were not a JSON
    object ("must be a JSON object"), when it may well be one sent under another type."""
    return HTTPException(
        status_code=415,
        detail=f"this operation takes a JSON object sent as Content-Type: application/json, not {body_of_type(content_type)}; "
        "nothing was done",
    )


async def refuse_unknown_input(request: Request) -> None:
    """A dependency of every API operation: refuse a query parameter it does not take or one given
    twice, a body field given twice, and a body with anything in it sent to an operation that
    takes no body (unknown body fields are refused by the request models themselves,
    ``extra="forbid"``); and, with 415, a body sent to one that takes a body under a Content-Type
    other than JSON's. Async, so it costs no thread."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    takes = _takes(route)
    accepted = takes.query
    unknown = [name for name in dict.fromkeys(request.query_params) if name not in accepted]
    if unknown:
        raise HTTPException(
            status_code=422,
            detail=unknown_fields_message(unknown, accepted, what="query parameter", where="this operation"),
        )
    twice = _repeated(name for name, _ in request.query_params.multi_items())
    if twice:
        raise _once(twice, "query parameter")
    if request.method in ("GET", "HEAD"):
        return
    sent = (await request.body()).strip()
    if takes.has_body:
        kind = request.headers.get("content-type", "")
        if sent and not is_json_type(kind):
            raise _not_json(kind)
        twice = _repeated_keys(sent)
        if twice:
            raise _once(twice, "body field")
        return
    if sent in (b"", b"{}", b"null"):
        return
    try:
        value: Any = json.loads(sent)
    except (ValueError, RecursionError):  # not JSON, or arrays in arrays past Python's limit: refused all the same
        value = None
    fields = ""
    if isinstance(value, dict):
        plural = "s" if len(value) > 1 else ""
        fields = f" (it got the field{plural} {', '.join(quoted(k) for k in value)})"
    raise HTTPException(
        status_code=422,
        detail=f"this operation takes no request body{fields}; send none, or an empty JSON object",
    )


def methods_at(path: str, routes: Sequence[BaseRoute]) -> list[str]:
    """Every method some operation of ``routes`` takes at ``path`` (several may share one path, as
    ``GET`` and ``DELETE /api/v1/me`` do, where Starlette's ``Allow`` names only the first's).
    An address that takes GET takes HEAD too: the app answers HEAD like GET (``HeadAsGet``)."""
    found = {
        method
        for route in routes
        if isinstance(route, APIRoute) and route.path_regex.match(path)
        for method in route.methods or ()
    }
    if "GET" in found:
        found.add("HEAD")
    return sorted(found)
