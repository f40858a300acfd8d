"""The OpenAPI document describes the API's answers exactly: every real answer of every operation
(for each kind of caller, over whole games) fits its documented schema with no unknown field,
round-trips through its Pydantic model unchanged, and every refusal is listed with its
``{"detail": ...}`` body. The bearer token is the security scheme ``BotToken``, and the token's
checks answer as before. Secrets (another seat's orders, the seed before the end) stay out.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any, get_origin

import jsonschema
import jsonschema_rs
import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic import TypeAdapter

from sevens.web import api
from sevens.web.deps import UNKNOWN_TOKEN
from sevens.web.security import RateLimiter
from web.api_answers import BOTH, MALFORMED, NOBODY, ORGANISER, PLAYER, STRANGER, Answer, record_answers
from web.web_helpers import new_client

TOKEN_MISSING = "send your bot token as 'Authorization: Bearer <token>' (POST /api/v1/join gives one)"


@pytest.fixture
def answers(app: FastAPI) -> list[Answer]:
    return record_answers(app)


@pytest.fixture
def document(app: FastAPI) -> dict[str, Any]:
    return dict(new_client(app).get("/api/v1/openapi.json").json())


def _inline(schema: Any, components: dict[str, Any]) -> Any:
    """The schema with every ``$ref`` replaced by what it names (the models hold no cycles)."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            return _inline(components[schema["$ref"].rsplit("/", 1)[1]], components)
        return {key: _inline(value, components) for key, value in schema.items()}
    if isinstance(schema, list):
        return [_inline(item, components) for item in schema]
    return schema


def _closed(schema: Any) -> Any:
    """The schema with no unknown field allowed in any object (``extra="forbid"`` for the document)."""
    if isinstance(schema, dict):
        out = {key: _closed(value) for key, value in schema.items()}
        if "properties" in out:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [_closed(item) for item in schema]
    return schema


def _nodes(schema: Any, keep: Callable[[dict[str, Any]], bool]) -> Iterator[dict[str, Any]]:
    """Every object of a JSON schema, nested at any depth, that ``keep`` accepts."""
    if isinstance(schema, dict):
        if keep(schema):
            yield schema
        for value in schema.values():
            yield from _nodes(value, keep)
    elif isinstance(schema, list):
        for item in schema:
            yield from _nodes(item, keep)


def _objects(schema: Any) -> Iterator[dict[str, Any]]:
    return _nodes(schema, lambda node: node.get("type") == "object")


def _answer_schema(document: dict[str, Any], answer: Answer) -> dict[str, Any] | None:
    operation = document["paths"][answer.template][answer.method]
    listed = operation["responses"]
    assert str(answer.status) in listed, (answer, "status not documented", sorted(listed))
    content = listed[str(answer.status)].get("content")
    if content is None:
        return None
    if answer.headers.get("content-type", "").startswith("text/csv"):  # the CSV downloads: text, said so
        assert "text/csv" in content, (answer.template, "CSV not documented")
        return {"type": "string"}
    schema = content["application/json"]["schema"]
    return dict(_closed(_inline(schema, document["components"]["schemas"])))


def test_every_answer_fits_its_documented_schema_exactly(answers: list[Answer], document: dict[str, Any]) -> None:
    """Each real answer, refusals included, is listed for its operation and fits the documented
    schema with every object closed; every operation answered at least once with success."""
    succeeded = set()
    for answer in answers:
        schema = _answer_schema(document, answer)
        if answer.body is None:
            assert schema is None, answer
            assert answer.status in (204, 304), answer
        else:
            assert schema is not None, (answer.template, answer.status, "no documented body")
            jsonschema.Draft202012Validator(schema).validate(answer.body)
        if answer.status < 300:
            succeeded.add((answer.method, answer.template))
    every = {(method, path) for path, item in document["paths"].items() for method in item}
    assert succeeded == every


def _document_problems(document: dict[str, Any]) -> list[str]:
    """What makes ``document`` no valid OpenAPI 3.1: the specification's own schema (as schemathesis
    carries it), then each JSON schema in it against JSON Schema 2020-12, which that one leaves alone."""
    try:
        schemathesis.openapi.from_dict(copy.deepcopy(document)).validate()
    except jsonschema_rs.ValidationError as error:
        return [str(error).splitlines()[0]]
    problems = []
    schemas = dict(document["components"]["schemas"])
    schemas |= {
        f"{method} {path} {status}": media["schema"]
        for path, item in document["paths"].items()
        for method, operation in item.items()
        for status, response in operation["responses"].items()
        for media in response.get("content", {}).values()
    }
    for name, schema in schemas.items():
        for error in jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA).iter_errors(schema):
            problems.append(f"{name}: {error.message}")
    return problems


def test_the_document_is_valid_openapi(document: dict[str, Any]) -> None:
    """The served document passes OpenAPI 3.1's schema and every schema in it JSON Schema's, as
    generators and validators of clients expect; two broken copies show the check can fail."""
    assert document["openapi"].startswith("3.1.")
    assert _document_problems(document) == []
    no_description = copy.deepcopy(document)
    del no_description["paths"]["/api/v1/me"]["get"]["responses"]["200"]["description"]
    assert _document_problems(no_description) == ["\"description\" is a required property"]
    bad_type = copy.deepcopy(document)
    bad_type["components"]["schemas"]["Seat"]["properties"]["joined"]["type"] = "bool"
    assert len(_document_problems(bad_type)) == 1


# The headers a client acts on: each answer carrying one must have it documented for its status,
# and each documented one must be sent (Cache-Control and the security headers, the same on every
# answer, are described in docs/web.md instead).
PROTOCOL_HEADERS = {"etag", "retry-after", "www-authenticate", "location", "allow"}


def test_every_answer_has_its_documented_headers_and_content_type(
    answers: list[Answer], document: dict[str, Any]
) -> None:
    """A client generated from the document, or a person reading it, learns of the ETag of a view
    and its 304, the Location of a new game, the Retry-After of a 429 and the WWW-Authenticate of a
    401, and no answer sends one the document does not name; a body comes as the media type its
    status lists."""
    seen: set[tuple[str, int]] = set()
    for answer in answers:
        response = document["paths"][answer.template][answer.method]["responses"][str(answer.status)]
        documented = {name.lower() for name in response.get("headers", {})}
        sent = PROTOCOL_HEADERS & set(answer.headers)
        assert sent == documented, (answer.method, answer.template, answer.status, sorted(sent), sorted(documented))
        seen |= {(name, answer.status) for name in sent}
        if answer.body is not None:
            media = answer.headers["content-type"].split(";")[0]
            assert media in response["content"], (answer.method, answer.template, answer.status, media)
    assert {("etag", 200), ("etag", 304), ("location", 201), ("www-authenticate", 401), ("retry-after", 429)} <= seen
    for answer in answers:
        if answer.status == 201:  # a new game, by POST /games or /rematch: where to read it
            assert answer.headers["location"] == f"/api/v1/games/{answer.body['game']}", answer


def test_head_is_said_once_in_the_document_and_answered_at_every_get(app: FastAPI, document: dict[str, Any]) -> None:
    """Every GET address answers HEAD, but the document did not say so. It is said once, in its
    description, rather than listed beside each GET: a client generator would make a method of
    each, and validators (schemathesis) take HEAD as implied by GET. Said, and so: HEAD gets the
    GET's status and headers, no body."""
    assert "Every GET operation answers HEAD too, with the GET's status and headers and no body" in (
        document["info"]["description"]
    )
    assert not [path for path, operations in document["paths"].items() if "head" in operations]
    client = new_client(app)
    gets = [path for path, operations in document["paths"].items() if "get" in operations]
    assert len(gets) > 5
    for path in gets:
        url = path.replace("{public_id}", "nope").replace("{team}", "fiji")
        get, head = client.get(url), client.head(url)
        assert head.status_code == get.status_code and head.content == b"", path
        shown = ("content-type", "www-authenticate", "cache-control", "allow")
        assert {n: head.headers.get(n) for n in shown} == {n: get.headers.get(n) for n in shown}, path


def test_no_answer_is_an_open_object(document: dict[str, Any]) -> None:
    """Generated clients get types: every object in a success answer has its fields listed, or is
    a map with typed values; only the record is left to its own schema (schema/game-record.schema.json)."""
    components = document["components"]["schemas"]
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                content = response.get("content")
                if content is None or path.endswith("/record") or "text/csv" in content:  # CSV: text
                    continue
                schema = _inline(content["application/json"]["schema"], components)
                assert schema != {}, (method, path, status, "untyped answer")
                for obj in _objects(schema):
                    typed_map = isinstance(obj.get("additionalProperties"), dict) and obj["additionalProperties"]
                    assert "properties" in obj or typed_map, (method, path, status, obj)


def test_answers_round_trip_through_their_models(answers: list[Answer]) -> None:
    """A client reading an answer with the route's model and writing it back gets it unchanged:
    no field dropped, none added (a null default would add one)."""
    routes = {
        (method.lower(), route.path): route
        for route in api.router.routes
        if isinstance(route, APIRoute)
        for method in route.methods
    }
    checked = 0
    for answer in answers:
        model = routes[(answer.method, answer.template)].response_model
        if answer.status >= 300 or answer.body is None or model is None or answer.template.endswith("/record"):
            continue
        assert model is not Any and get_origin(model) is not dict, (answer.template, "an open object")
        adapter: TypeAdapter[Any] = TypeAdapter(model)
        assert adapter.dump_python(adapter.validate_python(answer.body), mode="json") == answer.body, answer
        checked += 1
    assert checked > 250


def test_each_caller_gets_its_own_view_of_a_game(answers: list[Answer], document: dict[str, Any]) -> None:
    """The game view is documented as four: the public one, a player's, an organiser's, and both
    for a token that organises and plays; each caller's real answer fits its own and no other."""
    components = document["components"]["schemas"]
    views = {
        name: jsonschema.Draft202012Validator(_closed(_inline(components[name], components)))
        for name in ("GameView", "PlayerGameView", "OrganiserGameView", "OrganiserPlayerGameView")
    }
    expected = {
        NOBODY: "GameView",
        MALFORMED: "GameView",  # a header that is no bearer token is none
        STRANGER: "GameView",
        PLAYER: "PlayerGameView",
        ORGANISER: "OrganiserGameView",
        BOTH: "OrganiserPlayerGameView",
    }
    # Where the recording's callers hold other roles: BOTH lost the organising to a new link, and
    # the game ended in its lobby is BOTH's alone.
    exceptions = {
        ("finished, new organiser link", BOTH): "PlayerGameView",
        ("ended-in-lobby", BOTH): "OrganiserGameView",
        ("ended-in-lobby", PLAYER): "GameView",
        ("ended-in-lobby", ORGANISER): "GameView",
    }
    seen = set()
    for answer in answers:
        if answer.template != "/api/v1/games/{public_id}" or answer.status != 200:
            continue
        fits = [name for name, validator in views.items() if validator.is_valid(answer.body)]
        # A caller with no grant in the game sees what the public sees; a private game's players
        # and organisers are those of the phases "ended" (the caller roles are the same).
        wanted = exceptions.get((answer.phase, answer.caller), expected[answer.caller])
        assert fits == [wanted], (answer.phase, answer.caller, fits)
        seen.add(answer.caller)
    assert seen == set(expected)


def test_secrets_stay_out_of_the_models_and_the_answers(answers: list[Answer], document: dict[str, Any]) -> None:
    """R13/R14: the public and organiser views have no field for anyone's orders of an open
    turn, a player's only for their own teams; every field of every answer is required, so no
    model can add a secret as a null default; the seed is null until the game is over; and a
    private rematch is named only to the token that organises and plays it."""
    components = document["components"]["schemas"]
    own = {"me", "my_teams"}
    assert not own & set(components["GameView"]["properties"])
    assert not own & set(components["OrganiserGameView"]["properties"])
    assert not {"invites", "events", "house_bots"} & set(components["PlayerGameView"]["properties"])
    answered = {
        schema["$ref"].rsplit("/", 1)[1]
        for item in document["paths"].values()
        for operation in item.values()
        for response in operation["responses"].values()
        for schema in _refs(response)
    }
    seen: set[str] = set()
    while answered - seen:
        name = (answered - seen).pop()
        seen.add(name)
        schema = components[name]
        if "properties" in schema:
            assert set(schema.get("required", [])) == set(schema["properties"]), (name, "a field with a default")
        answered |= {ref["$ref"].rsplit("/", 1)[1] for ref in _refs(schema)}
    for answer in answers:
        body = answer.body if isinstance(answer.body, dict) else {}
        if "status" in body and "seed" in body:  # a game view
            assert (body["seed"] is not None) == (body["status"] in ("finished", "ended")), answer
        if answer.template.endswith("/record") and answer.phase in ("running", "paused", "group", "knockout"):
            assert body["seed"] is None, answer
        if answer.template == "/api/v1/games/{public_id}" and answer.status == 200:
            names = {seat["player"]: seat["name"] for seat in body["seats"]}
            managers = {team["id"]: team["manager"] for team in body["teams"]}
            if "me" in body:
                assert all(managers[team["team"]] == names[body["me"]["player"]] for team in body["my_teams"])
        if answer.template == "/api/v1/games/{public_id}/orders" and answer.status == 200:
            assert answer.caller in (PLAYER, BOTH)
        if answer.phase == "ended" and body.get("rematch"):  # the private game's private rematch
            assert answer.caller == BOTH, answer


def _refs(schema: Any) -> Iterator[dict[str, Any]]:
    return _nodes(schema, lambda node: "$ref" in node)


def test_refusals_are_documented_as_detail(document: dict[str, Any]) -> None:
    """Every operation lists its refusals, each with the body ``{"detail": "..."}``; FastAPI's
    own 422 shape (a list of errors) is nowhere, as the server never sends it."""
    components = document["components"]["schemas"]
    assert components["ErrorAnswer"]["required"] == ["detail"]
    assert "HTTPValidationError" not in components
    for path, item in document["paths"].items():
        for method, operation in item.items():
            codes = {int(code) for code in operation["responses"] if int(code) >= 400}
            for code in codes:
                schema = operation["responses"][str(code)]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorAnswer"}, (method, path, code)
            # Any operation can give these (test_web_api_statuses.py sends the requests that do;
            # test_web_server.py the 503 of a database that cannot be used).
            assert {400, 413, 415, 422, 503} <= codes, (method, path)


def test_bearer_token_is_a_security_scheme(document: dict[str, Any]) -> None:
    """The token is the HTTP bearer scheme ``BotToken`` on every operation that reads it (so the
    interactive docs' Authorize button and generated clients send it), not a header parameter."""
    scheme = document["components"]["securitySchemes"]["BotToken"]
    assert scheme["type"] == "http" and scheme["scheme"] == "bearer"
    for path, item in document["paths"].items():
        for method, operation in item.items():
            parameters = operation.get("parameters", [])
            headers = {p["name"].lower() for p in parameters if p["in"] == "header"}
            assert headers <= {"if-none-match"}, (method, path)
            wanted = [{"BotToken": []}] if path != "/api/v1/strategies" else None
            assert operation.get("security") == wanted, (method, path)


@pytest.mark.parametrize("route", ["me", "order", "game"])
def test_token_checks_answer_as_before(app: FastAPI, route: str) -> None:
    """A missing or malformed token is refused with how to send one (an optional one is taken as
    none); a wrong or revoked one as unknown, counted, until 429 with Retry-After."""
    client = new_client(app)
    body = {"name": "Tokens", "players": 4, "teams": 8, "teams_per_player": 2}
    created = client.post("/api/v1/games", json=body).json()
    token = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ana"}).json()["token"]
    revoked = client.post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "Bo"}).json()["token"]
    assert client.delete("/api/v1/me", headers={"Authorization": f"Bearer {revoked}"}).status_code == 204
    method, url = {
        "me": ("GET", "/api/v1/me"),
        "order": ("PUT", f"/api/v1/games/{created['game']}/orders/x"),
        "game": ("GET", f"/api/v1/games/{created['game']}"),
    }[route]
    order = {"turn": 1, "force": 1, "flair": 1} if method == "PUT" else None

    def send(authorization: str | None) -> Any:
        headers = {} if authorization is None else {"Authorization": authorization}
        return client.request(method, url, headers=headers, json=order)

    app.state.limiter = RateLimiter(attempts=2, window_seconds=60)
    for malformed in (None, "", "Basic dXNlcjpwYXNz", "Bearer", "Bearer    ", f"Token {token}"):
        answer = send(malformed)
        if route == "game":  # a public game needs no token: a malformed one is none
            assert answer.status_code == 200 and "my_teams" not in answer.json(), malformed
        else:
            assert answer.status_code == 401 and answer.json() == {"detail": TOKEN_MISSING}, malformed
            assert answer.headers["WWW-Authenticate"] == "Bearer"
    assert send(f"bearer  {token} ").status_code == (409 if route == "order" else 200)
    for wrong in ("Bearer not-a-token", f"Bearer {revoked}"):
        answer = send(wrong)
        assert answer.status_code == 401 and answer.json() == {"detail": UNKNOWN_TOKEN}
        assert answer.headers["WWW-Authenticate"] == "Bearer"
    held = send("Bearer not-a-token")
    assert held.status_code == 429 and held.headers["Retry-After"] == "60" and "too many" in held.json()["detail"]
    assert send(f"Bearer {token}").status_code == (409 if route == "order" else 200)  # a right one goes through


# What a script reads of a played match and of the odds: its fields said nothing of their units
# (points or a count? a chance as 0.4 or 40?) nor which key of the game record each is.
RESULT_MODELS = ("ResolvedTurn", "PlayedMatch", "MatchSide", "Line", "Dice", "OrderValues", "GroupOdds",
                 "KnockoutOdds", "OddsAnswer")


@pytest.mark.parametrize("model", RESULT_MODELS)
def test_every_field_of_a_match_and_of_the_odds_says_what_it_is(document: dict[str, Any], model: str) -> None:
    schema = document["components"]["schemas"][model]
    bare = [name for name, field in schema["properties"].items()
            if "description" not in field and "$ref" not in field]  # a $ref's model says it
    assert not bare, (model, bare)
    for name, field in schema["properties"].items():
        if name in ("win", "draw", "level", "loss"):
            assert "from 0 to 1" in field["description"], (model, name)


def test_every_field_and_parameter_says_what_it_is(document: dict[str, Any]) -> None:
    """A client author reads each field's meaning, unit and null case in the document: 163 fields
    (game views, requests, tables, grants) had none, nor had the ids in the addresses."""
    bare = [
        f"{model}.{name}"
        for model, schema in document["components"]["schemas"].items()
        for name, field in schema.get("properties", {}).items()
        if not field.get("description")
    ]
    assert bare == []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for parameter in operation.get("parameters", []):
                assert parameter.get("description"), (method, path, parameter["name"])
                if parameter["in"] == "path":
                    assert parameter.get("example"), (method, path, parameter["name"])
    schemas = document["components"]["schemas"]
    assert schemas["GameView"]["properties"]["id"]["examples"] == ["gkpLXi037LwL"]
    assert "ISO 8601" in schemas["GameView"]["properties"]["deadline"]["description"]


def test_every_operation_has_a_summary_of_its_own(document: dict[str, Any]) -> None:
    """FastAPI's own summary is the function's name ("Put Order", "Me"); each operation says what
    it does instead, unique across the API."""
    routes = {route.path: route for route in api.router.routes if isinstance(route, APIRoute)}
    summaries = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            summary = operation.get("summary", "")
            named = routes[path].name.replace("_", " ").title()
            assert len(summary) > 10 and summary != named, (method, path, summary)
            summaries.append(summary)
    assert len(summaries) == len(set(summaries))


def test_documented_refusals_are_ones_the_operation_gives(app: FastAPI, document: dict[str, Any]) -> None:
    """A handful of real calls: a status the document lists is answered, and one it leaves out is
    not (GET /strategies reads no token, so a wrong one is no 401)."""
    client = new_client(app)

    def listed(method: str, path: str) -> set[int]:
        return {int(code) for code in document["paths"][path][method]["responses"]}

    created = client.post("/api/v1/games", json={"name": "Docs", "players": 4}).json()
    game, bearer = created["game"], {"Authorization": f"Bearer {created['token']}"}
    wrong = {"Authorization": "Bearer not-a-token"}
    calls = [
        ("get", "/api/v1/strategies", "/api/v1/strategies", wrong, None, 200),
        ("post", "/api/v1/join", "/api/v1/join", {}, {"invite": "nope", "name": "Ana"}, 404),
        ("get", "/api/v1/me", "/api/v1/me", {}, None, 401),
        ("post", "/api/v1/games/{public_id}/resolve", f"/api/v1/games/{game}/resolve", bearer, {"turn": 1}, 409),
        ("put", "/api/v1/games/{public_id}/orders/{team}", f"/api/v1/games/{game}/orders/fiji", bearer,
         {"turn": 1, "force": 1, "flair": 0}, 403),
        ("post", "/api/v1/games", "/api/v1/games", {}, {"name": "x", "players": 3}, 422),
        ("get", "/api/v1/games/{public_id}", "/api/v1/games/nope", {}, None, 404),
    ]
    for method, template, url, headers, body, status in calls:
        answer = client.request(method.upper(), url, headers=headers, json=body)
        assert answer.status_code == status, (method, url, answer.text)
        assert status in listed(method, template), (method, template, status)
    assert 401 not in listed("get", "/api/v1/strategies") and 429 not in listed("get", "/api/v1/strategies")
    assert 410 not in listed("get", "/api/v1/me") and 409 not in listed("get", "/api/v1/me")


def test_a_wrong_token_and_an_unknown_game_answer_as_listed_everywhere(
    app: FastAPI, document: dict[str, Any]
) -> None:
    """Every operation, called for real: one that lists 401 answers a wrong token with it and one
    that does not list it never does; one with a game in its address that lists 404 answers an
    unknown game with it (the token is an organiser's of another game, so it is no 401)."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Docs", "players": 4}).json()
    good = {"Authorization": f"Bearer {created['token']}"}
    values = {"public_id": "no-such-game", "team": "fiji", "player": "p1"}
    checked = 0
    for path, item in document["paths"].items():
        for method, operation in item.items():
            listed = {int(code) for code in operation["responses"]}
            url, body = path.format(**values), _a_body(operation, document)
            wrong = client.request(method.upper(), url, headers={"Authorization": "Bearer not-a-token"}, json=body)
            assert (wrong.status_code == 401) == (401 in listed), (method, path, wrong.status_code, wrong.text[:200])
            if "{public_id}" in path:
                unknown = client.request(method.upper(), url, headers=good, json=body)
                assert 404 in listed and unknown.status_code == 404, (method, path, unknown.text[:200])
                checked += 1
    assert checked > 20


def _a_body(operation: dict[str, Any], document: dict[str, Any]) -> dict[str, Any] | None:
    """A body of the right shape for the operation (its values need not be accepted), so that what
    is checked is the token or the game, not the body's shape."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if content is None:
        return None
    schema = _inline(content["schema"], document["components"]["schemas"])
    body = {}
    for name in schema.get("required", []):
        field = next(option for option in schema["properties"][name].get("anyOf", [schema["properties"][name]])
                     if option["type"] != "null")
        body[name] = {"string": "x", "integer": int(field.get("minimum", 1)), "number": 1.0}[field["type"]]
    return body


def test_the_apis_table_row_has_the_tournaments_fields() -> None:
    """schemas.TableRow repeats standings.TableRow's fields to describe each (the tournament's row
    has no place for descriptions): a field added there and not here would be dropped from answers."""
    from dataclasses import fields

    from sevens.tournament import standings
    from sevens.web import schemas

    assert list(schemas.TableRow.model_fields) == [f.name for f in fields(standings.TableRow)]
