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
import math
import re
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

__all__ = ["body_fields", "in_words", "likely", "methods_at", "refuse_unknown_input", "unknown_fields_message"]


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


def _sent(value: object) -> str:
    """A value a client sent, as a refusal names it: JSON's words for JSON's values.

    >>> _sent(True), _sent(None), _sent(2.5), _sent("12"), _sent([1]), _sent({})
    ('true', 'null', '2.5', "the string '12'", 'a list', 'an object')
    >>> _sent(10 ** 40), _sent(float("inf"))
    ('a number of 41 digits', 'Infinity')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float) and not math.isfinite(value):  # json.loads reads them, and 1e400 as inf
        return "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"
    if isinstance(value, int | float):
        shown = repr(value)
        return shown if len(shown) <= 20 else f"a number of {len(shown.lstrip('-'))} digits"
    if isinstance(value, str):
        return f"the string {quoted(value)}"
    return "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else type(value).__name__


# Pydantic's error types, each said as a client can act on it (its own text, "Input should be
# greater than or equal to 4", names no field, no value sent and no way out). {got}: the value sent.
_SAID: dict[str, str] = {
    "missing": "missing: send it (the OpenAPI document at /api/v1/openapi.json says what it holds)",
    "int_type": "send a whole number, a JSON number such as 3 (not in quotes), not {got}",
    "int_parsing": "send a whole number, a JSON number such as 3 (not in quotes), not {got}",
    "int_from_float": "send a whole number, such as 3, not {got}",
    "float_type": "send a JSON number such as 1.5 (not in quotes), not {got}",
    "float_parsing": "send a JSON number such as 1.5 (not in quotes), not {got}",
    "bool_type": "send true or false, not {got}",
    "bool_parsing": "send true or false, not {got}",
    "string_type": "send text, in double quotes, not {got}",
    "string_unicode": (
        "holds a \\ud800-\\udfff escape without its pair, which is no character; send the text as UTF-8"
    ),
    "string_too_short": "is too short: send at least {min_length} character(s)",
    "string_too_long": "is too long ({length:,} characters): send at most {max_length:,}",
    "greater_than_equal": "is {got}: send {ge} or more",
    "greater_than": "is {got}: send a number above {gt}",
    "less_than_equal": "is {got}: send {le} or less",
    "less_than": "is {got}: send a number below {lt}",
    "literal_error": "is {got}: send {expected}",
    "enum": "is {got}: send {expected}",
    "finite_number": "NaN and Infinity are not taken here; send a finite number",
}


def in_words(error: Mapping[str, Any]) -> str:
    """One of pydantic's validation errors as a refusal says it: the field, what was wrong with the
    value sent and what to send instead (pydantic's own message where its type is not known here).

    >>> in_words({"type": "greater_than_equal", "loc": ("body", "players"), "input": 3, "ctx": {"ge": 4}})
    'players is 3: send 4 or more'
    >>> in_words({"type": "int_type", "loc": ("body", "turn"), "input": "1", "msg": "Input should be..."})
    "turn: send a whole number, a JSON number such as 3 (not in quotes), not the string '1'"
    >>> in_words({"type": "greater_than", "loc": ("body", "hours"), "input": -1, "ctx": {"gt": 0.0}})
    'hours is -1: send a number above 0'
    >>> in_words({"type": "less_than_equal", "loc": ("query", "force"), "input": "5000", "ctx": {"le": 1000}})
    'force is 5000: send 1000 or less'
    >>> in_words({"type": "string_too_long", "loc": ("body", "name"), "input": "x" * 2001, "ctx": {"max_length": 2000}})
    'name is too long (2,001 characters): send at most 2,000'
    """
    where = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path", "form")) or "input"
    kind = str(error.get("type", ""))
    template = _SAID.get(kind)
    if template is None:
        return f"{where}: {error.get('msg', 'invalid')}"
    value = error.get("input")
    got = _sent(value)
    if error.get("loc", ("",))[0] == "query" and isinstance(value, str):  # an address holds text alone
        got = value.strip() if re.fullmatch(r"[+-]?[0-9]{1,20}", value.strip()) else quoted(value)
    # A bound of a float field is a float: 720.0 is said as 720.
    bounds = {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in dict(error.get("ctx") or {}).items()}
    facts = {**bounds, "got": got, "length": len(value) if isinstance(value, str) else 0}
    said = template.format(**facts)
    # "players is 3", but "turn: send a whole number": a sentence with a verb of its own has a colon.
    return f"{where} {said}" if said.startswith("is ") else f"{where}: {said}"


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
    left out: what its model lists as ``MISSING`` says, else the field's description."""
    route = request.scope.get("route")
    model = _takes(route).body if isinstance(route, APIRoute) else None
    if model is None:
        return [], {}, {}
    # A field left out is said with what it holds, as its description in the OpenAPI document has it.
    missing = {name: f"send it ({field.description})" for name, field in model.model_fields.items() if field.description}
    missing.update(getattr(model, "MISSING", {}))
    return list(model.model_fields), dict(getattr(model, "ELSEWHERE", {})), missing


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
    takes no body, a GET or HEAD among them (unknown body fields are refused by the request models themselves,
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
    sent = (await request.body()).strip()
    if takes.has_body and request.method not in ("GET", "HEAD"):
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
    if request.method in ("GET", "HEAD"):
        # Many servers drop a GET's body unread; here a draft sent in one was answered as 0 + 0.
        where = f"its input goes in the query string ({', '.join(map(quoted, accepted))})" if accepted else "send none"
        raise HTTPException(status_code=422, detail=f"a {request.method} takes no request body{fields}; {where}")
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
