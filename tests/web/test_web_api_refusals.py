"""Every refusal an API operation lists in the OpenAPI document (403, 409, 410, 422, 429) is made to
happen by a real call against the real app, and each answers with the one documented shape,
``{"detail": "<words>"}``, saying what was wrong and how to put it right, with no secret in it.

The walk is over the document: an operation added later, or a refusal added to one, without a
case here fails :func:`test_every_listed_refusal_is_given_by_a_real_call`. The refusals every
operation gives alike are walked elsewhere: 400, 412, 413 and 415 in test_web_api_statuses.py, 401
and 404 in test_web_api_schema.py, 503 in test_web_server.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI

from sevens.web.security import RateLimiter
from web.test_web_api_statuses import BODIES
from web.web_helpers import FakeClock, TestClient, new_client

WALKED = {403, 409, 410, 422, 429}
"""The refusals whose causes differ from one operation to the next, walked here."""
ELSEWHERE = {400, 401, 404, 412, 413, 415, 500, 503}
"""Refusals any operation gives for the same causes, each walked by another test (the docstring)."""

# Pydantic's and FastAPI's own words, which tell a person little ("Input should be a valid
# integer": which one, and what is a valid one here?) and never how to put it right.
MACHINE_WORDS = re.compile(
    r"Input should|Field required|String should|should have at|Value error|validation error|"
    r"unable to parse|\[\{|'loc'|'type'|type=|Extra inputs|request refused|Not Found|Unprocessable"
)


@dataclass
class World:
    """Games in each state an operation can be refused for, and the tokens that reach them."""

    client: TestClient
    clock: FakeClock
    running: str  # organised by `organiser`, who plays p1; `player` plays p2; deadline in an hour
    lobby: str  # organised by `stranger`, who plays its p1: not started
    ended: str  # organised by `organiser`, who plays its p1, ended before it started
    organiser: dict[str, str]
    player: dict[str, str]
    stranger: dict[str, str]  # organises and plays in the lobby game, nothing in the running one
    mine: str  # a team of `organiser`'s seat in the running game
    theirs: str  # a team of `player`'s seat
    p2_invite: str  # used by `player`
    p3_invite: str  # nobody's yet
    secrets: list[str]  # every token, invite and link handed out: none may be in a refusal


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def world(app: FastAPI, clock: FakeClock) -> World:
    return _world(app, clock)


def _world(app: FastAPI, clock: FakeClock) -> World:
    client = new_client(app)
    body = {"name": "Refusals", "players": 4, "deadline_hours": 1}
    created = client.post("/api/v1/games", json=body).json()
    organiser = _bearer(created["token"])
    joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ana"}, headers=organiser)
    assert joined.status_code == 200, joined.text
    second = client.post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "Bo"}).json()
    player = _bearer(second["token"])
    game = created["game"]
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    mine = client.get(f"/api/v1/games/{game}", headers=organiser).json()["my_teams"][0]["team"]
    theirs = client.get(f"/api/v1/games/{game}", headers=player).json()["my_teams"][0]["team"]
    # A saved order of the player's: its figures (7 and 6) must be in no refusal to anyone.
    order = {"turn": 1, "force": 7, "flair": 6}
    assert client.put(f"/api/v1/games/{game}/orders/{theirs}", json=order, headers=player).status_code == 200

    lobby = client.post("/api/v1/games", json={"name": "Lobby", "players": 4}).json()
    stranger = _bearer(lobby["token"])
    sat = client.post("/api/v1/join", json={"invite": lobby["invites"]["p1"], "name": "Cy"}, headers=stranger)
    assert sat.status_code == 200, sat.text

    ended = client.post("/api/v1/games", json={"name": "Ended", "players": 4}, headers=organiser).json()
    sat = client.post("/api/v1/join", json={"invite": ended["invites"]["p1"], "name": "Ana"}, headers=organiser)
    assert sat.status_code == 200, sat.text
    assert client.post(f"/api/v1/games/{ended['game']}/end", headers=organiser).status_code == 200

    secrets = [created["token"], second["token"], lobby["token"], created["organiser_link"],
               lobby["organiser_link"], ended["organiser_link"],
               *created["invites"].values(), *lobby["invites"].values(), *ended["invites"].values()]
    return World(client, clock, game, lobby["game"], ended["game"], organiser, player, stranger, mine, theirs,
                 created["invites"]["p2"], created["invites"]["p3"], secrets)


@dataclass(frozen=True)
class Call:
    """One request, and the words its refusal must hold: what was wrong and what to do."""

    url: str
    headers: dict[str, str]
    body: Any = None
    said: tuple[str, ...] = ()


Case = Callable[[World], Call]
G = "/api/v1/games/{public_id}"


def _in(world: World, game: str, path: str, **values: str) -> str:
    return path.replace("{public_id}", game).format(**values)


def _not_organiser(path: str, body: Any = None) -> Case:
    return lambda w: Call(_in(w, w.running, path, team=w.mine, player="p3"), w.player, body,
                          ("only the game's organiser can do this", "POST /api/v1/organise"))


def _no_such_query(path: str, game: str = "running") -> Case:
    """422 of an operation that takes no input to break: a query parameter it does not take."""
    return lambda w: Call(_in(w, getattr(w, game), path, team=w.mine, player="p3") + "?forse=3", w.organiser,
                          None, ("unknown query parameter 'forse'", "takes"))


# (method, path) -> status -> the call that gets it. Each message is checked for the words that
# say what went wrong and what to do next.
CASES: dict[tuple[str, str], dict[int, Case]] = {
    ("post", "/api/v1/join"): {
        409: lambda w: Call("/api/v1/join", w.player, {"invite": w.p3_invite, "name": "Bo"},
                            ("already plays seat p2", "join with another token")),
        410: lambda w: Call("/api/v1/join", {}, {"invite": w.p2_invite, "name": "Bo"}, ("already been used", "ask")),
        422: lambda w: Call("/api/v1/join", {}, {"invite": w.p3_invite, "name": "x" * 2001},
                            ("name is too long (2,001 characters)", "send at most 2,000")),
    },
    ("get", "/api/v1/me"): {422: _no_such_query("/api/v1/me")},
    ("delete", "/api/v1/me"): {422: _no_such_query("/api/v1/me")},
    ("get", "/api/v1/waiting"): {422: _no_such_query("/api/v1/waiting")},
    ("get", "/api/v1/strategies"): {422: _no_such_query("/api/v1/strategies")},
    ("get", G + "/state"): {422: _no_such_query(G + "/state")},
    ("get", G): {422: _no_such_query(G)},
    ("delete", G): {403: _not_organiser(G), 422: _no_such_query(G)},
    ("get", G + "/record"): {
        409: lambda w: Call(_in(w, w.lobby, G + "/record"), w.stranger, None,
                            ("has not started yet", "the organiser starts it")),
        422: _no_such_query(G + "/record"),
    },
    ("get", G + "/standing.csv"): {422: _no_such_query(G + "/standing.csv")},
    ("get", G + "/matches.csv"): {422: _no_such_query(G + "/matches.csv")},
    ("get", G + "/teams/{team}/view"): {
        403: lambda w: Call(_in(w, w.running, G + "/teams/{team}/view", team=w.mine), w.player, None,
                            ("is not one of your teams", "yours are in my_teams of GET /api/v1/games/")),
        409: lambda w: Call(_in(w, w.lobby, G + "/teams/{team}/view", team="fiji"), w.stranger, None,
                            ("has not started yet", "dealt to the seats when the organiser starts it")),
        422: _no_such_query(G + "/teams/{team}/view"),
    },
    ("get", G + "/orders"): {
        403: lambda w: Call(_in(w, w.running, G + "/orders"), w.stranger, None,
                            ("plays no seat in this game", "join it with its invite")),
        422: _no_such_query(G + "/orders"),
    },
    ("put", G + "/orders/{team}"): {
        403: lambda w: Call(_in(w, w.running, G + "/orders/{team}", team=w.mine), w.player,
                            {"turn": 1, "force": 1, "flair": 0}, ("you do not manage", "your own teams")),
        409: lambda w: Call(_in(w, w.running, G + "/orders/{team}", team=w.mine), w.organiser,
                            {"turn": 2, "force": 1, "flair": 0}, ("turn 2 is not open", "the open turn is 1")),
        422: lambda w: Call(_in(w, w.running, G + "/orders/{team}", team=w.mine), w.organiser,
                            {"turn": 1, "force": 1, "flair": 4}, ("multiple of 3",)),
    },
    ("put", G + "/autopilot/{team}"): {
        403: lambda w: Call(_in(w, w.running, G + "/autopilot/{team}", team=w.mine), w.player,
                            {"strategy": "even"}, ("you do not manage", "your own teams")),
        409: lambda w: Call(_in(w, w.ended, G + "/autopilot/{team}", team="fiji"), w.organiser,
                            {"strategy": "even"}, ("the game is ended", "no autopilot plays")),
        422: lambda w: Call(_in(w, w.running, G + "/autopilot/{team}", team=w.mine), w.organiser,
                            {"strategy": "nobody"}, ("unknown", "'nobody'", "choose one of")),
    },
    ("get", G + "/teams/{team}/odds"): {
        403: lambda w: Call(_in(w, w.running, G + "/teams/{team}/odds", team=w.mine) + "?force=3", w.player, None,
                            ("your own teams",)),
        409: lambda w: Call(_in(w, w.lobby, G + "/teams/{team}/odds", team="fiji"), w.stranger, None,
                            ("not taking orders",)),
        422: lambda w: Call(_in(w, w.running, G + "/teams/{team}/odds", team=w.mine) + "?flair=4", w.organiser,
                            None, ("multiple of 3",)),
    },
    ("post", G + "/teams/{team}/odds"): {
        403: lambda w: Call(_in(w, w.running, G + "/teams/{team}/odds", team=w.mine), w.player, {"force": 3},
                            ("your own teams",)),
        409: lambda w: Call(_in(w, w.lobby, G + "/teams/{team}/odds", team="fiji"), w.stranger, {},
                            ("not taking orders",)),
        422: lambda w: Call(_in(w, w.running, G + "/teams/{team}/odds", team=w.mine), w.organiser, {"flair": 4},
                            ("multiple of 3",)),
    },
    ("post", "/api/v1/games"): {
        422: lambda w: Call("/api/v1/games", {}, {"name": "Three", "players": 3}, ("players is 3", "send 4 or more")),
    },
    ("post", G + "/start"): {
        403: _not_organiser(G + "/start"),
        409: lambda w: Call(_in(w, w.running, G + "/start"), w.organiser, None, ("already started",)),
        422: _no_such_query(G + "/start"),
    },
    ("post", G + "/resolve"): {
        403: _not_organiser(G + "/resolve", {"turn": 1}),
        409: lambda w: Call(_in(w, w.running, G + "/resolve"), w.organiser, {"turn": 2},
                            ("turn 2 is not open", "the open turn is 1")),
        422: lambda w: Call(_in(w, w.running, G + "/resolve"), w.organiser, {"turn": 0}, ("turn is 0", "send 1 or more")),
    },
    ("post", G + "/pause"): {
        403: _not_organiser(G + "/pause"),
        409: lambda w: Call(_in(w, w.lobby, G + "/pause"), w.stranger, None, ("has no deadline", "may set one")),
        422: _no_such_query(G + "/pause"),
    },
    ("post", G + "/resume"): {
        403: _not_organiser(G + "/resume"),
        409: lambda w: Call(_in(w, w.running, G + "/resume"), w.organiser, None, ("only a paused game",)),
        422: _no_such_query(G + "/resume"),
    },
    ("post", G + "/extend"): {
        403: _not_organiser(G + "/extend", {"hours": 1}),
        409: lambda w: Call(_in(w, w.lobby, G + "/extend"), w.stranger, {"hours": 1}, ("deadline",)),
        422: lambda w: Call(_in(w, w.running, G + "/extend"), w.organiser, {"hours": 0}, ("hours is 0", "above 0")),
    },
    ("post", G + "/deadline"): {
        403: _not_organiser(G + "/deadline", {"hours": 1}),
        409: lambda w: Call(_in(w, w.lobby, G + "/deadline"), w.stranger, {"hours": 1},
                            ("still in its lobby", "while it is running")),
        422: lambda w: Call(_in(w, w.running, G + "/deadline"), w.organiser, {"hours": -1}, ("hours is -1", "above 0")),
    },
    ("put", G + "/house-bot/{team}"): {
        403: lambda w: Call(_in(w, w.running, G + "/house-bot/{team}", team=w.mine), w.organiser,
                            {"strategy": "even"}, ("has taken their seat", "only they")),
        409: lambda w: Call(_in(w, w.lobby, G + "/house-bot/{team}", team="fiji"), w.stranger,
                            {"strategy": "even"}, ("chosen after the start",)),
        422: lambda w: Call(_in(w, w.running, G + "/house-bot/{team}", team=w.mine), w.organiser,
                            {"strategy": "nobody"}, ("unknown", "'nobody'", "choose one of")),
    },
    ("post", G + "/seats/{player}/release"): {
        403: _not_organiser(G + "/seats/{player}/release"),
        409: lambda w: Call(_in(w, w.running, G + "/seats/{player}/release", player="p3"), w.organiser, None,
                            ("nobody has taken seat p3",)),
        422: _no_such_query(G + "/seats/{player}/release"),
    },
    ("post", G + "/seats/{player}/remove-name"): {
        403: _not_organiser(G + "/seats/{player}/remove-name"),
        409: lambda w: Call(_in(w, w.running, G + "/seats/{player}/remove-name", player="p2"), w.organiser, None,
                            ("over",)),
        422: _no_such_query(G + "/seats/{player}/remove-name"),
    },
    ("post", G + "/seats/{player}/invite"): {
        403: _not_organiser(G + "/seats/{player}/invite"),
        409: lambda w: Call(_in(w, w.running, G + "/seats/{player}/invite", player="p2"), w.organiser, None,
                            ("seat p2 is played now", "hand it to the bots first")),
        422: _no_such_query(G + "/seats/{player}/invite"),
    },
    ("post", G + "/end"): {
        403: _not_organiser(G + "/end"),
        409: lambda w: Call(_in(w, w.ended, G + "/end"), w.organiser, None, ("already ended",)),
        422: _no_such_query(G + "/end"),
    },
    ("post", G + "/rematch"): {
        403: _not_organiser(G + "/rematch"),
        409: lambda w: Call(_in(w, w.running, G + "/rematch"), w.organiser, None, ("over",)),
        422: _no_such_query(G + "/rematch"),
    },
    ("post", G + "/organiser-link"): {
        403: _not_organiser(G + "/organiser-link"),
        422: _no_such_query(G + "/organiser-link"),
    },
    ("post", "/api/v1/organise"): {
        422: lambda w: Call("/api/v1/organise", {}, {"link": ""}, ("link is too short", "at least 1 character")),
    },
}


def _operations(client: TestClient) -> dict[tuple[str, str], set[int]]:
    document = client.get("/api/v1/openapi.json").json()
    return {
        (method, path): {int(code) for code in operation["responses"]}
        for path, item in document["paths"].items()
        for method, operation in item.items()
    }


def check_refusal(answer: Any, status: int, said: tuple[str, ...], secrets: list[str]) -> str:
    """The refusal's status, its one documented shape, its words, and no secret in it."""
    assert answer.status_code == status, (status, answer.status_code, answer.text[:300])
    assert answer.headers["content-type"] == "application/json"
    body = answer.json()
    assert set(body) == {"detail"} and isinstance(body["detail"], str), body
    detail: str = body["detail"]
    assert len(detail) > 20 and not MACHINE_WORDS.search(detail), detail
    for words in said:
        assert words in detail, (words, detail)
    assert not [secret for secret in secrets if secret in detail], detail
    if status == 429:
        assert int(answer.headers["Retry-After"]) >= 1 and "try again" in detail, (answer.headers, detail)
    return detail


def test_every_listed_refusal_is_given_by_a_real_call(world: World) -> None:
    """Each (operation, refusal) the document lists among 403, 409, 410 and 422 has a case that
    gets it, with words that say what and what to do; no case gets a refusal its operation does
    not list; and an operation or refusal the document gains without a case fails here."""
    listed = _operations(world.client)
    assert set(CASES) == set(listed), set(listed) ^ set(CASES)
    unlisted = [(op, codes - WALKED - ELSEWHERE) for op, codes in listed.items()
                if {c for c in codes if c >= 400} - WALKED - ELSEWHERE]
    assert not unlisted, f"refusals no test makes happen: {unlisted}"
    given, wrong = 0, []
    for (method, path), codes in sorted(listed.items()):
        wanted = (codes & WALKED) - {429}
        cases = CASES[(method, path)]
        assert set(cases) == wanted, (method, path, sorted(wanted), sorted(cases))
        for status, case in sorted(cases.items()):
            call = case(world)
            answer = world.client.request(method.upper(), call.url, headers=call.headers, json=call.body)
            try:
                check_refusal(answer, status, call.said, world.secrets)
            except AssertionError as failed:
                wrong.append(f"{method.upper()} {path} {status}: {failed}")
            given += 1
    assert not wrong, "\n".join(wrong)
    assert given > 70
    # The refusals changed nothing: the player's saved order is still theirs alone.
    orders = world.client.get(f"/api/v1/games/{world.running}/orders", headers=world.player).json()["orders"]
    assert orders[world.theirs] == {"force": 7, "flair": 6, "ready": False}


def test_every_operation_that_reads_a_token_answers_too_many_wrong_ones_with_429(app: FastAPI, world: World) -> None:
    """429 for every operation that lists it: once an address has sent too many wrong tokens, the
    next wrong one gets 429 with Retry-After and when to try again, whatever the operation (a right
    token still goes through). An operation that reads no token lists no 429 and gives none."""
    app.state.limiter = RateLimiter(attempts=1, window_seconds=60)
    wrong = _bearer("not-a-token")
    first = world.client.get("/api/v1/me", headers=wrong)
    assert first.status_code == 401, first.text
    values = {"public_id": world.running, "team": world.mine, "player": "p3"}
    for (method, path), codes in sorted(_operations(world.client).items()):
        answer = world.client.request(method.upper(), path.format(**values), headers=wrong, json=BODIES.get((method, path)))
        if 429 in codes:
            check_refusal(answer, 429, ("too many attempts with a wrong link or token",), world.secrets)
        else:
            assert answer.status_code < 400, (method, path, answer.status_code, answer.text[:200])
    assert world.client.get("/api/v1/me", headers=world.organiser).status_code == 200


def test_no_operation_gives_a_refusal_it_does_not_list(app: FastAPI, clock: FakeClock) -> None:
    """The other way round: every operation, called on a game in the lobby, running and ended, by
    nobody, a stranger, a player and the organiser, for a seat played and one nobody took, answers
    only statuses its entry lists, each refusal in the one shape and in words. A fresh set of
    games for each operation, as some of its calls change them (an end, a deletion, a revoked token)."""
    unlisted: list[str] = []
    refusals: set[int] = set()
    calls = 0
    client = new_client(app)
    world_ = _world(app, clock)
    for (method, path), codes in sorted(_operations(client).items()):
        if method != "get":  # a read changes nothing: the games are made again for a write alone
            world_ = _world(app, clock)
        for game in (world_.lobby, world_.running, world_.ended):
            for caller in ({}, world_.stranger, world_.player, world_.organiser):
                for player in ("p2", "p3"):
                    url = _in(world_, game, path, team=world_.mine, player=player)
                    body = BODIES.get((method, path))
                    if path == "/api/v1/join":  # a used invite, and one nobody used
                        body = {"invite": world_.p2_invite if player == "p2" else world_.p3_invite, "name": "Di"}
                    answer = world_.client.request(method.upper(), url, headers=caller, json=body)
                    calls += 1
                    if answer.status_code not in codes:
                        unlisted.append(f"{method.upper()} {path} in {game}: {answer.status_code} {answer.text[:160]}")
                    elif answer.status_code >= 400:
                        refusals.add(answer.status_code)
                        detail = answer.json()["detail"]
                        assert isinstance(detail, str) and not MACHINE_WORDS.search(detail), (method, path, detail)
                        assert not [s for s in world_.secrets if s in detail], (method, path, detail)
    assert not unlisted, "\n".join(unlisted)
    assert calls == 24 * len(_operations(client))
    assert {401, 403, 404, 409, 410} <= refusals, refusals


def test_starting_a_game_ended_in_its_lobby_is_not_said_to_have_started(world: World) -> None:
    """A game its organiser ended before the start was refused a Start with "the game has already
    started", which it never had: the refusal now says it is over and what would start a new one."""
    answer = world.client.post(f"/api/v1/games/{world.ended}/start", headers=world.organiser)
    detail = check_refusal(answer, 409, ("ended before it started", "a rematch starts a new game"), world.secrets)
    assert "already started" not in detail


def test_a_team_view_of_a_game_that_never_started_says_so_not_that_the_team_is_not_yours(world: World) -> None:
    """A seat's token asking for a team's view in a lobby, or in a game ended in its lobby, was
    told 403 "'fiji' is not one of your teams": no team is anyone's before the start. 409, saying
    why, as the record says."""
    c = world.client
    for game, who, said in ((world.lobby, world.stranger, ("has not started yet", "ask again then")),
                            (world.ended, world.organiser, ("ended before it started", "no team was dealt"))):
        for team in ("fiji", "nosuch"):
            check_refusal(c.get(f"/api/v1/games/{game}/teams/{team}/view", headers=who), 409, said, world.secrets)
    # Once it has started, a team not the caller's is still 403.
    check_refusal(c.get(f"/api/v1/games/{world.running}/teams/{world.mine}/view", headers=world.player), 403,
                  ("is not one of your teams",), world.secrets)


def test_a_team_view_of_a_team_the_game_does_not_have_is_404_not_403(world: World) -> None:
    """A started game's view of a team it has no such team of was 403 "'nosuch' is not one of your
    teams", as if it were another seat's: 404, saying the game has no such team, as its odds, its
    orders and the team's page say; another seat's team stays 403."""
    c = world.client
    for who in (world.player, world.organiser):
        detail = check_refusal(c.get(f"/api/v1/games/{world.running}/teams/nosuch/view", headers=who), 404,
                               ("this game has no team 'nosuch'", "my_teams of GET /api/v1/games/"), world.secrets)
        assert "not one of your teams" not in detail
    odds = c.get(f"/api/v1/games/{world.running}/teams/nosuch/odds?force=0&flair=0", headers=world.player)
    assert odds.status_code == 404, odds.text
    page = c.get(f"/games/{world.running}/teams/nosuch")
    assert page.status_code == 404 and "this game has no team" in page.text, page.text[:300]
    check_refusal(c.get(f"/api/v1/games/{world.running}/teams/{world.theirs}/view", headers=world.organiser), 403,
                  ("is not one of your teams",), world.secrets)
