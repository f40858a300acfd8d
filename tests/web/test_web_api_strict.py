"""The API as a bot author with typos meets it: a field, query parameter or body it does not take
is refused (422) with a message naming it, what the operation takes and the name probably meant,
and the refusal changes nothing (an order with a misspelt field is not saved without it)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI

from web.test_web_bad_input import snapshot
from web.web_helpers import TestClient, new_client

ORDER_FIELDS = "the body takes 'turn', 'force', 'flair', 'ready'"


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _running(app: FastAPI) -> tuple[TestClient, dict[str, Any]]:
    """A started game made by API: its id, the organiser's and p1's headers, p1's first team, and
    the unused invite and organiser link (for the operations that take them)."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Typos", "players": 4}).json()
    game, organiser = created["game"], _bearer(created["token"])
    joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ana"}).json()
    p1 = _bearer(joined["token"])
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    team = client.get(f"/api/v1/games/{game}", headers=p1).json()["my_teams"][0]["team"]
    world = {
        "game": game,
        "organiser": organiser,
        "p1": p1,
        "team": team,
        "invite": created["invites"]["p2"],
        "link": created["organiser_link"],
    }
    return client, world


@pytest.mark.parametrize(
    ("sent", "said"),
    [
        ({"forse": 6, "flair": 9}, "unknown field 'forse' (did you mean 'force'?): " + ORDER_FIELDS),
        (
            {"turn": 1, "force": 6, "flair": 9, "ready": True, "autopilt": "even"},
            "unknown field 'autopilt' (did you mean 'autopilot'? a team's autopilot is set by "
            "PUT /api/v1/games/{id}/autopilot/{team}): " + ORDER_FIELDS,
        ),
        (
            {"turn": 1, "force": 6, "flair": 9, "team": "fiji"},
            "unknown field 'team' (the team is named in the address, /orders/{team}): " + ORDER_FIELDS,
        ),
        (
            {"turn": 1, "Force": 6, "flair": 9, "redy": True},
            "unknown fields 'Force' (did you mean 'force'?), 'redy' (did you mean 'ready'?): " + ORDER_FIELDS,
        ),
    ],
)
def test_an_order_with_an_unknown_field_is_refused_naming_it(
    app: FastAPI, sent: dict[str, Any], said: str
) -> None:
    """The order is not saved with the typo dropped: 422, the unknown field named first, with
    the fields the body takes and the one probably meant; nothing changes."""
    client, world = _running(app)
    before = snapshot(app)
    answer = client.put(f"/api/v1/games/{world['game']}/orders/{world['team']}", json=sent, headers=world["p1"])
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"].startswith(said), answer.json()
    assert snapshot(app) == before


@pytest.mark.parametrize(
    ("sent", "said"),
    [
        ({"turn": 1, "force": 6}, "flair: missing: send the FLAIR points, a multiple of 3; 0 spends none on FLAIR"),
        (
            {"turn": 1, "ready": True},
            "force: missing: send the FORCE points, a whole number; 0 spends none on FORCE; "
            "flair: missing: send the FLAIR points, a multiple of 3; 0 spends none on FLAIR",
        ),
        ({"force": 0, "flair": 0}, "turn: missing: send the number of the open turn"),
    ],
)
def test_an_order_with_a_field_left_out_says_what_to_send(app: FastAPI, sent: dict[str, Any], said: str) -> None:
    """An order without FORCE or FLAIR is refused, never read as 0 (as the order form refuses an
    empty box); it said only "flair: Field required", not what goes there or that 0 is how to
    spend none. Nothing is saved; 0 and 0, sent, is an order."""
    client, world = _running(app)
    url = f"/api/v1/games/{world['game']}/orders/{world['team']}"
    before = snapshot(app)
    answer = client.put(url, json=sent, headers=world["p1"])
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"].startswith(said), answer.json()
    assert snapshot(app) == before
    nothing = client.put(url, json={"turn": 1, "force": 0, "flair": 0, "ready": True}, headers=world["p1"])
    assert nothing.status_code == 200 and (nothing.json()["force"], nothing.json()["flair"]) == (0, 0), nothing.text


def test_a_weight_beside_the_strategy_is_said_where_it_goes(app: FastAPI) -> None:
    """The autopilot form has a weight field; the API takes the weight after '@' in the name."""
    client, world = _running(app)
    url = f"/api/v1/games/{world['game']}/autopilot/{world['team']}"
    answer = client.put(url, json={"strategy": "field-reader", "weight": 1}, headers=world["p1"])
    assert answer.status_code == 422
    assert answer.json()["detail"] == (
        "unknown field 'weight' (a knockout weight goes after '@' in the strategy, as "
        "'field-reader@1'): the body takes 'strategy'"
    )
    assert client.put(url, json={"strategy": "field-reader@1"}, headers=world["p1"]).status_code == 200


def test_every_body_refuses_an_unknown_field(app: FastAPI) -> None:
    """Each operation that takes a body: a valid body plus a misspelt field is refused, naming
    the field, the one meant and every field the body takes (as the document lists them)."""
    client, world = _running(app)
    organiser, p1 = world["organiser"], world["p1"]
    at, team = f"/api/v1/games/{world['game']}", world["team"]
    cases = [
        ("POST", "/api/v1/join", {"invite": world["invite"], "name": "Bo"}, {}, "JoinRequest", ("nmae", "name")),
        ("POST", "/api/v1/organise", {"link": world["link"]}, {}, "OrganiseRequest", ("lnk", "link")),
        ("POST", "/api/v1/games", {"name": "New", "players": 4}, {}, "CreateRequest", ("player", "players")),
        ("PUT", f"{at}/orders/{team}", {"turn": 1, "force": 1, "flair": 1}, p1, "OrderRequest", ("tturn", "turn")),
        ("PUT", f"{at}/autopilot/{team}", {"strategy": "even"}, p1, "AutopilotRequest", ("strategie", "strategy")),
        ("PUT", f"{at}/house-bot/{team}", {"strategy": "even"}, organiser, "AutopilotRequest", ("stratgy", "strategy")),
        ("POST", f"{at}/resolve", {"turn": 1}, organiser, "ResolveRequest", ("trun", "turn")),
        ("POST", f"{at}/extend", {"hours": 1}, organiser, "ExtendRequest", ("hour", "hours")),
    ]
    models = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    for method, url, body, headers, model, (typo, meant) in cases:
        before = snapshot(app)
        answer = client.request(method, url, json={**body, typo: 1}, headers=headers)
        assert answer.status_code == 422, (url, answer.text)
        takes = ", ".join(repr(name) for name in models[model]["properties"])
        said = f"unknown field {typo!r} (did you mean {meant!r}?): the body takes {takes}"
        assert answer.json()["detail"] == said, url
        assert snapshot(app) == before, url


def test_odds_refuse_an_unknown_query_parameter(app: FastAPI) -> None:
    """``?forse=6`` asked the odds of a FORCE of 0 without a word; now it is refused, naming the
    parameters the odds take."""
    client, world = _running(app)
    url = f"/api/v1/games/{world['game']}/teams/{world['team']}/odds"
    answer = client.get(url + "?forse=6&flair=9", headers=world["p1"])
    assert answer.status_code == 422, answer.text
    assert answer.json() == {
        "detail": "unknown query parameter 'forse' (did you mean 'force'?): this operation takes 'force', 'flair', "
        "'latest_only'"
    }
    assert client.get(url + "?force=6&flair=9", headers=world["p1"]).json()["order"] == {"force": 6, "flair": 9}


def test_every_operation_refuses_an_unknown_query_parameter(app: FastAPI) -> None:
    """Every operation of the document, sent with a query parameter it does not take, is
    refused before it acts: 422, named, nothing changed; a HEAD too."""
    client, world = _running(app)
    document = client.get("/api/v1/openapi.json").json()
    values = {"public_id": world["game"], "team": world["team"], "player": "p1"}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            before = snapshot(app)
            body = {"turn": 1} if "requestBody" in operation else None
            answer = client.request(
                method, path.format(**values) + "?verbose=1", json=body, headers=world["organiser"]
            )
            assert answer.status_code == 422, (method, path, answer.status_code)
            assert answer.json()["detail"].startswith("unknown query parameter 'verbose': this operation takes ")
            assert "422" in operation["responses"], (method, path)
            assert snapshot(app) == before, (method, path)
    assert client.head(f"/api/v1/games/{world['game']}?verbose=1").status_code == 422


@pytest.mark.parametrize("action", ["start", "pause", "end", "rematch", "organiser-link"])
def test_a_body_sent_where_none_is_taken_is_refused(app: FastAPI, action: str) -> None:
    """``POST /end {"reason": ...}`` or ``/rematch {"name": ...}`` did the act and dropped the
    body; now a body with anything in it is refused and the act not done (an empty one is fine)."""
    client, world = _running(app)
    url = f"/api/v1/games/{world['game']}/{action}"
    before = snapshot(app)
    answer = client.post(url, json={"name": "Another"}, headers=world["organiser"])
    assert answer.status_code == 422, answer.text
    assert answer.json() == {
        "detail": "this operation takes no request body (it got the field 'name'); send none, or an empty JSON object"
    }
    assert snapshot(app) == before
    assert client.post(url, content=b"not json", headers=world["organiser"]).status_code == 422
    assert client.post(url, json={}, headers=world["organiser"]).status_code != 422




def test_a_body_sent_with_a_get_is_refused_not_ignored(app: FastAPI) -> None:
    """``GET .../odds`` with the draft in a JSON body answered the odds of 0 FORCE and 0 FLAIR,
    the body dropped unread; now every GET with something in its body is refused, saying where its
    input goes. An empty body, or an empty object, is still fine."""
    client, world = _running(app)
    odds = f"/api/v1/games/{world['game']}/teams/{world['team']}/odds"
    answer = client.request("GET", odds, json={"force": 6, "flair": 9}, headers=world["p1"])
    assert answer.status_code == 422, answer.text
    assert answer.json() == {
        "detail": "a GET takes no request body (it got the fields 'force', 'flair'); "
        "its input goes in the query string ('force', 'flair', 'latest_only')"
    }
    view = f"/api/v1/games/{world['game']}"
    answer = client.request("GET", view, content=b"hello", headers=world["p1"])
    assert answer.status_code == 422 and answer.json() == {"detail": "a GET takes no request body; send none"}
    for empty in (b"", b"{}", b" null "):
        assert client.request("GET", view, content=empty, headers=world["p1"]).status_code == 200, empty
    assert client.request("GET", odds + "?force=6&flair=9", json={}, headers=world["p1"]).status_code == 200


def test_a_deeply_nested_body_where_none_is_taken_is_refused_not_a_server_error(app: FastAPI) -> None:
    """5,000 arrays one in another, 10 KB, sent to /pause: reading it to name its fields went past
    Python's recursion limit, and the server answered 500 (its own failure) instead of refusing it."""
    client, world = _running(app)
    before = snapshot(app)
    answer = client.post(
        f"/api/v1/games/{world['game']}/pause", content=b"[" * 5000 + b"]" * 5000,
        headers={**world["organiser"], "Content-Type": "application/json"},
    )
    assert answer.status_code == 422, answer.text
    assert answer.json() == {"detail": "this operation takes no request body; send none, or an empty JSON object"}
    assert snapshot(app) == before


def test_a_body_nested_too_deeply_to_read_is_told_so(app: FastAPI) -> None:
    """A new game whose name is 20,000 arrays one in another (40 KB, under the body limit, and
    valid JSON): Python's reader stops at its recursion limit, and the answer said the body "could
    not be read as JSON", which a client that checks its JSON finds untrue. It now says the body
    nests too deeply; nothing is created."""
    client, _ = _running(app)
    before = snapshot(app)
    body = b'{"name": ' + b"[" * 20000 + b"]" * 20000 + b', "players": 4}'
    answer = client.post("/api/v1/games", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"].startswith("the request body nests arrays or objects too deeply to read")
    assert snapshot(app) == before


def test_a_body_left_out_where_one_is_needed_says_what_to_send(app: FastAPI) -> None:
    """The other way round: an operation that needs a body, sent none, said only "input: Field
    required", naming no field and not saying that the whole body was missing."""
    client, world = _running(app)
    at, team = f"/api/v1/games/{world['game']}", world["team"]
    cases = [
        ("PUT", f"{at}/orders/{team}", world["p1"], "'turn', 'force', 'flair', 'ready'"),
        ("POST", f"{at}/extend", world["organiser"], "'hours'"),
        ("POST", "/api/v1/organise", {}, "'link'"),
    ]
    for method, url, headers, fields in cases:
        before = snapshot(app)
        answer = client.request(method, url, content=b"", headers={**headers, "Content-Type": "application/json"})
        assert answer.status_code == 422, (url, answer.text)
        said = f"this operation needs a request body: send a JSON object with {fields}"
        assert answer.json() == {"detail": said}, url
        assert snapshot(app) == before, url


def test_the_document_closes_every_request_body(app: FastAPI) -> None:
    """Generated clients and validators learn the rule from the document: every request body's
    schema has ``additionalProperties: false``."""
    document = new_client(app).get("/api/v1/openapi.json").json()
    schemas = document["components"]["schemas"]
    bodies = 0
    for item in document["paths"].values():
        for operation in item.values():
            if "requestBody" not in operation:
                continue
            ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            assert schemas[ref.rsplit("/", 1)[1]]["additionalProperties"] is False, ref
            bodies += 1
    assert bodies == 10  # POST .../deadline added one


@pytest.mark.parametrize("hours", ["2", True, None])
def test_extend_takes_a_json_number_only(app: FastAPI, hours: object) -> None:
    """The docs promise strict JSON types; ``/extend {"hours": "2"}`` moved the deadline by two
    hours and ``{"hours": true}`` by one. Now each is refused and the deadline stays put."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Clock", "players": 4, "deadline_hours": 1}).json()
    game, organiser = created["game"], _bearer(created["token"])
    client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ana"})  # or bots play it out
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    before = snapshot(app)
    answer = client.post(f"/api/v1/games/{game}/extend", json={"hours": hours}, headers=organiser)
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"].startswith("hours: "), answer.json()
    assert snapshot(app) == before
    assert client.post(f"/api/v1/games/{game}/extend", json={"hours": 2}, headers=organiser).status_code == 200


def test_an_extension_under_a_minute_is_refused_in_hours(app: FastAPI) -> None:
    """``/extend {"hours": 0.001}`` was told 'extend by 1 minute to 30 days; got 4 seconds', a unit
    the call does not take; now the range and the value are said in hours, as the page says them."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Clock", "players": 4, "deadline_hours": 1}).json()
    game, organiser = created["game"], _bearer(created["token"])
    client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ana"})
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    answer = client.post(f"/api/v1/games/{game}/extend", json={"hours": 0.001}, headers=organiser)
    assert answer.status_code == 422
    assert answer.json()["detail"] == "extend by 1 minute (0.0167 hours) to 720 hours (30 days), got 0.001 hours"


def test_a_method_an_address_does_not_take_is_told_what_it_takes(app: FastAPI) -> None:
    """``GET /orders/{team}`` (there is no such read) said only "that address does not take this
    kind of request"; now it says which methods the address takes, all of them (``POST /me``:
    GET and DELETE, where the Allow header named GET alone; and HEAD, which every address that
    takes GET answers, where Allow left it out)."""
    client, world = _running(app)
    answer = client.get(f"/api/v1/games/{world['game']}/orders/{world['team']}", headers=world["p1"])
    assert answer.status_code == 405 and answer.headers["Allow"] == "PUT"
    assert answer.json() == {"detail": "this address does not take GET; it takes PUT"}
    both = client.post("/api/v1/me", headers=world["p1"])
    assert both.status_code == 405 and both.headers["Allow"] == "DELETE, GET, HEAD"
    assert both.json() == {"detail": "this address does not take POST; it takes DELETE, GET, HEAD"}
    # What Allow names is so: HEAD is answered there, as GET without the body.
    head = client.head("/api/v1/me", headers=world["p1"])
    assert head.status_code == 200 and head.content == b""
    assert client.head(f"/api/v1/games/{world['game']}/orders/{world['team']}").status_code == 405


def test_an_unknown_api_address_points_to_the_document(app: FastAPI) -> None:
    """A misspelt path (``/game/`` for ``/games/``) was "no such page", as for a page; the API
    says it has no such operation and where its operations are listed."""
    client, world = _running(app)
    answer = client.get(f"/api/v1/game/{world['game']}", headers=world["p1"])
    assert answer.status_code == 404
    assert answer.json() == {
        "detail": "no such operation in the API; check the address against /api/v1/openapi.json"
    }
    assert "no such page" in client.get("/gamez").text  # a page's 404 is as before


def test_a_name_given_twice_is_refused(app: FastAPI) -> None:
    """``?force=1&force=30`` asked the odds of 30 and ``{"force": 1, "force": 50}`` saved 50, the
    last one silently winning; a name given twice is now refused, saying which."""
    client, world = _running(app)
    at = f"/api/v1/games/{world['game']}"
    odds = client.get(f"{at}/teams/{world['team']}/odds?force=1&flair=3&force=30", headers=world["p1"])
    assert odds.status_code == 422
    assert odds.json() == {"detail": "query parameter 'force' given more than once; give each once"}
    before = snapshot(app)
    raw = b'{"turn": 1, "force": 1, "flair": 3, "force": 50, "flair": 6}'
    order = client.put(
        f"{at}/orders/{world['team']}", content=raw, headers={**world["p1"], "Content-Type": "application/json"}
    )
    assert order.status_code == 422
    assert order.json() == {"detail": "body fields 'force', 'flair' given more than once; give each once"}
    assert snapshot(app) == before


# A value of the wrong type or out of range was refused in pydantic's words, which name no value
# sent and no way out: "players: Input should be greater than or equal to 4", "turn: Input should
# be a valid integer" (for true, or for 1e400, which JSON reads as Infinity), "name: String should
# have at least 1 character", "invite: Input should be a valid string, unable to parse raw data as a
# unicode string" (a lone \ud800 escape).
WORDED = [
    ("POST", "/api/v1/games", b'{"name": "Cup", "players": 3}', "players is 3: send 4 or more"),
    ("POST", "/api/v1/games", b'{"name": "Cup", "players": "4"}',
     "players: send a whole number, a JSON number such as 3 (not in quotes), not the string '4'"),
    ("POST", "/api/v1/games", b'{"name": "Cup", "players": 4.5}',
     "players: send a whole number, a JSON number such as 3 (not in quotes), not 4.5"),
    ("POST", "/api/v1/games", b'{"name": "Cup", "players": 4, "visibility": "secret"}',
     "visibility is the string 'secret': send 'public' or 'private'"),
    ("POST", "/api/v1/games", b'{"name": "", "players": 4}', "name is too short: send at least 1 character(s)"),
    ("POST", "/api/v1/games", b'{"name": "\\ud800", "players": 4}',
     "name: holds a \\ud800-\\udfff escape without its pair, which is no character; send the text as UTF-8"),
    ("POST", "/api/v1/games", b'{"name": "Cup", "players": 4, "teams_per_player": -99999999999999999999999}',
     "teams_per_player is a number of 23 digits: send 1 or more"),
    ("PUT", "{game}/orders/{team}", b'{"turn": true, "force": 1, "flair": 0}',
     "turn: send a whole number, a JSON number such as 3 (not in quotes), not true"),
    ("PUT", "{game}/orders/{team}", b'{"turn": 1e400, "force": 1, "flair": 0}',
     "turn: send a whole number, a JSON number such as 3 (not in quotes), not Infinity"),
    ("PUT", "{game}/orders/{team}", b'{"turn": 1, "force": -1, "flair": 0, "ready": "yes"}',
     "force is -1: send 0 or more; ready: send true or false, not the string 'yes'"),
    ("POST", "{game}/deadline", b'{"hours": "2"}',
     "hours: send a JSON number such as 1.5 (not in quotes), not the string '2'"),
    ("POST", "{game}/extend", b'{"hours": -1}', "hours is -1: send a number above 0"),  # not "above 0.0"
    ("POST", "{game}/deadline", b'{"hours": 1000}', "hours is 1000: send 720 or less"),
    # A field left out was "link: Field required": what it holds, from its description.
    ("POST", "/api/v1/organise", b"{}", "link: missing: send it (the organiser link, or its last part)"),
    ("POST", "{game}/resolve", b"{}", "turn: missing: send it (the open turn's number; another: 409)"),
    ("POST", "{game}/teams/{team}/odds", b'{"force": 1001}', "force is 1001: send 1000 or less"),
    ("GET", "{game}/teams/{team}/odds?force=5000", b"", "force is 5000: send 1000 or less"),
    ("POST", "/api/v1/join", b'{"invite": "x", "name": "' + b"n" * 2001 + b'"}',
     "name is too long (2,001 characters): send at most 2,000"),
]


@pytest.mark.parametrize(("method", "path", "sent", "said"), WORDED)
def test_a_value_refused_is_said_in_words_with_what_to_send(
    app: FastAPI, method: str, path: str, sent: bytes, said: str
) -> None:
    client, world = _running(app)
    url = path.format(game=f"/api/v1/games/{world['game']}", team=world["team"])
    organiser = path.endswith(("deadline", "extend", "resolve"))
    headers = {**world["organiser" if organiser else "p1"], "Content-Type": "application/json"}
    before = snapshot(app)
    answer = client.request(method, url, content=sent or None, headers=headers)
    assert answer.status_code == 422, answer.text
    assert answer.json() == {"detail": said}
    assert snapshot(app) == before
