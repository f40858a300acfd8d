"""R13 end to end: an order saved for the open turn is seen by nobody but its own seat, on any
page, API answer or download, in its body or its headers, until the turn is resolved; then it is
public. Every GET route the app has is fetched by the other roles (another seat's browser,
another seat's bot token, a spectator, the organiser's browser and the organiser's token) with
one split saved, then with another: each answer must be the same byte for byte, so nothing in it
follows the split (docs/web.md, "Who sees what")."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from httpx import Response

from sevens.web import api, pages
from web.web_helpers import Hosted, host_game, new_client, post_form

# Headers that say when or how the answer was sent, not what it holds.
_TRANSPORT = {"date", "set-cookie"}

_FIRST, _SECOND = (47, 39), (52, 27)  # two splits whose figures no other part of a page holds


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _answer(response: Response) -> tuple[int, str, list[tuple[str, str]]]:
    headers = sorted((k, v) for k, v in response.headers.items() if k.lower() not in _TRANSPORT)
    return response.status_code, response.text, headers


class _Seats:
    """A started 4-seat game: p1 (the seat whose order is secret) and p2 play in browsers, p3 by a
    bot token; the organiser has a browser and a token; a spectator has neither."""

    def __init__(self, app: FastAPI) -> None:
        self.game: Hosted = host_game(app, hours="24")
        game = self.game
        game.join("p1", "Ann")
        game.join("p2", "Ben")
        game.join("p4", "Dan")
        self.api = new_client(app)
        joined = self.api.post("/api/v1/join", json={"invite": game.invites["p3"], "name": "Cat Bot"})
        assert joined.status_code == 200, joined.text
        self.p3 = _bearer(joined.json()["token"])
        organised = self.api.post("/api/v1/organise", json={"link": game.organiser_link})
        assert organised.status_code == 200, organised.text
        self.organiser = _bearer(organised.json()["token"])
        game.start()
        self.spectator = new_client(app)
        view = self.api.get(f"/api/v1/games/{game.public_id}", headers=self.organiser).json()
        self.teams = [t["id"] for t in view["teams"]]
        self.p3_teams = [t["team"] for t in self.api.get(f"/api/v1/games/{game.public_id}", headers=self.p3).json()["my_teams"]]
        self.team = game.my_teams("p1")[0]

    def save(self, split: tuple[int, int]) -> None:
        answer = self.game.order("p1", self.team, *split)
        assert answer.status_code == 303, answer.text


def _route_fetches(seats: _Seats) -> dict[str, list[tuple[str, Callable[[], Response]]]]:
    """Every GET route of the app, each with the fetches that fill in its address: by role, the
    answers an attacker may ask for with the credentials of that role."""
    game = seats.game
    gid = game.public_id
    browsers: dict[str, TestClient] = {
        "p2's browser": game.players["p2"],
        "spectator": seats.spectator,
        "organiser's browser": game.organiser,
    }
    tokens = {"p3's token": seats.p3, "organiser's token": seats.organiser, "no token": {}}
    secret_team, p3_team = seats.team, seats.p3_teams[0]
    invite_p2 = game.invites["p2"].split("/join/", 1)[1]
    organiser_link = game.organiser_link.split("/organiser/", 1)[1]

    def pages_at(*paths: str) -> list[tuple[str, Callable[[], Response]]]:
        return [
            (f"{who} GET {path}", lambda client=client, path=path: client.get(path))
            for who, client in browsers.items()
            for path in paths
        ]

    def api_at(*paths: str) -> list[tuple[str, Callable[[], Response]]]:
        return [
            (f"{who} GET {path}", lambda headers=headers, path=path: seats.api.get(path, headers=headers))
            for who, headers in tokens.items()
            for path in paths
        ]

    team_pages = [f"/games/{gid}/teams/{team}" for team in seats.teams]
    odds = [f"/api/v1/games/{gid}/teams/{team}/odds?force=10&flair=9" for team in (p3_team, secret_team)]
    return {
        "/favicon.ico": pages_at("/favicon.ico"),
        "/how-to-play": pages_at("/how-to-play"),
        "/": pages_at("/"),
        "/join/{token}": pages_at(f"/join/{invite_p2}"),
        "/organiser/{token}": pages_at(f"/organiser/{organiser_link}"),
        "/games/{public_id}": pages_at(f"/games/{gid}", f"/games/{gid}?screen=1"),
        "/games/{public_id}/teams/{team}": pages_at(*team_pages),
        "/games/{public_id}/state": pages_at(f"/games/{gid}/state", f"/games/{gid}/state?as=player"),
        "/games/{public_id}/who-ordered": pages_at(f"/games/{gid}/who-ordered", f"/games/{gid}/who-ordered?turn=1"),
        "/games/{public_id}/links": pages_at(f"/games/{gid}/links"),
        "/games/{public_id}/organise": pages_at(f"/games/{gid}/organise"),
        "/games/{public_id}/play": pages_at(f"/games/{gid}/play"),
        "/games/{public_id}/record.json": pages_at(f"/games/{gid}/record.json"),
        "/games/{public_id}/standing.csv": pages_at(f"/games/{gid}/standing.csv"),
        "/games/{public_id}/matches.csv": pages_at(f"/games/{gid}/matches.csv"),
        "/games/{public_id}/verify": pages_at(f"/games/{gid}/verify"),
        "/api/v1/me": api_at("/api/v1/me"),
        "/api/v1/waiting": api_at("/api/v1/waiting"),
        "/api/v1/strategies": api_at("/api/v1/strategies"),
        "/api/v1/games/{public_id}/state": api_at(f"/api/v1/games/{gid}/state"),
        "/api/v1/games/{public_id}": api_at(f"/api/v1/games/{gid}"),
        "/api/v1/games/{public_id}/record": api_at(f"/api/v1/games/{gid}/record"),
        "/api/v1/games/{public_id}/standing.csv": api_at(f"/api/v1/games/{gid}/standing.csv"),
        "/api/v1/games/{public_id}/matches.csv": api_at(f"/api/v1/games/{gid}/matches.csv"),
        "/api/v1/games/{public_id}/teams/{team}/view": api_at(
            *(f"/api/v1/games/{gid}/teams/{team}/view" for team in (p3_team, secret_team))
        ),
        "/api/v1/games/{public_id}/orders": api_at(f"/api/v1/games/{gid}/orders"),
        "/api/v1/games/{public_id}/teams/{team}/odds": api_at(*odds),
        "/api/v1/openapi.json": api_at("/api/v1/openapi.json"),
    }


def _every_get_route() -> set[str]:
    """The address patterns of every GET route, the pages' and the API's (its document's too)."""
    paths = {"/api/v1/openapi.json"}
    for router in (pages.router, api.router):
        paths |= {r.path for r in router.routes if isinstance(r, APIRoute) and "GET" in (r.methods or ())}
    return paths


def _said_in(text: str, split: tuple[int, int]) -> bool:
    """Whether a text words the split as the pages, the API or the CSV do."""
    force, flair = split
    return bool(
        re.search(rf"\b{force}\s*\+\s*{flair}\b", text)
        or re.search(rf"\b{force} FORCE\b", text)
        or re.search(rf'"force":\s*{force}\b', text)
        or re.search(rf"\b{force},{flair}\b", text)
    )


def _fetch_all(fetches: dict[str, list[tuple[str, Callable[[], Response]]]]) -> dict[str, tuple[int, str, list[tuple[str, str]]]]:
    return {label: _answer(fetch()) for entries in fetches.values() for label, fetch in entries}


def test_no_route_tells_another_seat_a_spectator_or_the_organiser_the_split_of_an_order_not_yet_resolved(
    app: FastAPI,
) -> None:
    """p1 saves 47 + 39 for a team, then 52 + 27: no answer to the others words either, and none
    differs between the two in its status, body or headers (ETag, Content-Length, X-Who-Ordered);
    once the turn is resolved the record, the matches' CSV, the team page and the API show 52 + 27,
    and still nothing shows the 47 + 39 it replaced."""
    seats = _Seats(app)
    fetches = _route_fetches(seats)
    # Every GET route is fetched: a new one fails here until it is added above.
    assert set(fetches) == _every_get_route(), set(fetches) ^ _every_get_route()

    seats.save(_FIRST)
    first = _fetch_all(fetches)
    assert any(status == 200 for status, _, _ in first.values())
    for label, (_, body, headers) in first.items():
        assert not _said_in(body + repr(headers), _FIRST), label
    # p1 itself sees its order (so the test's wording of a split finds one where it is shown).
    assert _said_in(seats.game.players["p1"].get(f"{seats.game.base}/play").text, _FIRST)

    seats.save(_SECOND)
    second = _fetch_all(fetches)
    changed = [label for label in first if first[label] != second[label]]
    assert not changed, changed

    # Resolved, the order is public: in the record, the matches' CSV and the team's page.
    seats.game.resolve(1)
    gid = seats.game.public_id
    record = seats.spectator.get(f"/games/{gid}/record.json").json()
    played = [m[side] for m in record["turns"][0]["matches"] for side in ("home_order", "away_order")]
    assert _SECOND in [(o["force"], o["flair"]) for o in played]
    assert _said_in(seats.spectator.get(f"/games/{gid}/matches.csv").text, _SECOND)
    assert _said_in(seats.spectator.get(f"/games/{gid}/teams/{seats.team}").text, _SECOND)
    assert _said_in(seats.api.get(f"/api/v1/games/{gid}", headers=seats.p3).text, _SECOND)
    # The split it replaced was never played: it stays unsaid (the order log keeps it, docs/web.md).
    after = _fetch_all(fetches)
    assert [label for label, (_, body, _) in after.items() if _said_in(body, _FIRST)] == []


def test_a_spectators_poll_and_the_opponents_odds_do_not_move_when_a_team_saves(app: FastAPI) -> None:
    """Whether a seat has saved is told only where docs/web.md says (who_ordered, the organiser's
    counts): a spectator's poll, and the odds the secret team's opponent asks of a draft against it
    (page and API), are the same before and after it saves."""
    seats = _Seats(app)
    game, gid = seats.game, seats.game.public_id
    view = seats.api.get(f"/api/v1/games/{gid}", headers=seats.organiser).json()
    opponent = next(f["home"] if f["away"] == seats.team else f["away"] for f in view["fixtures"] if seats.team in (f["home"], f["away"]))
    name = next(t["manager"] for t in view["teams"] if t["id"] == opponent)
    manager = next(s["player"] for s in view["seats"] if s["name"] == name)

    def asked() -> list[str]:
        said = [seats.spectator.get(f"/api/v1/games/{gid}/state").text, seats.spectator.get(f"{game.base}/state").text]
        if manager == "p3":
            url = f"/api/v1/games/{gid}/teams/{opponent}/odds"
            said.append(seats.api.post(url, json={"force": 10, "flair": 9}, headers=seats.p3).text)
            said.append(seats.api.get(f"{url}?force=10&flair=9", headers=seats.p3).text)
        else:
            page = post_form(game.players[manager], f"{game.base}/odds", {"team": opponent, "force": "10", "flair": "9"})
            said.append(page.text)
        assert all(text for text in said)
        return said

    before = asked()
    assert "win" in before[-1], before[-1]
    seats.save(_FIRST)
    assert asked() == before


def test_a_teams_own_autopilot_and_the_refusals_to_other_seats_do_not_follow_its_order(app: FastAPI) -> None:
    """The bot a manager picks for a missed order is the manager's alone (it tells what the team
    plays if the order never comes); and what another seat is told when it tries the secret team's
    order form, its order by the API or its odds, is the same whatever that team saved."""
    seats = _Seats(app)
    game, gid = seats.game, seats.game.public_id
    fetches = _route_fetches(seats)
    p2 = game.players["p2"]

    def refusals() -> list[tuple[int, str, list[tuple[str, str]]]]:
        team = seats.team
        return [
            _answer(game.order("p2", team, 10, 9)),
            _answer(post_form(p2, f"{game.base}/odds", {"team": team, "force": "10", "flair": "9"})),
            _answer(post_form(p2, f"{game.base}/autopilot", {"team": team, "strategy": "even"})),
            _answer(seats.api.put(f"/api/v1/games/{gid}/orders/{team}", json={"turn": 1, "force": 10, "flair": 9}, headers=seats.p3)),
            _answer(seats.api.put(f"/api/v1/games/{gid}/autopilot/{team}", json={"strategy": "even"}, headers=seats.p3)),
            _answer(seats.api.post(f"/api/v1/games/{gid}/teams/{team}/odds", json={"force": 10}, headers=seats.p3)),
        ]

    def autopilot(strategy: str) -> None:
        answer = post_form(game.players["p1"], f"{game.base}/autopilot", {"team": seats.team, "strategy": strategy})
        assert answer.status_code == 303, answer.text

    seats.save(_FIRST)
    autopilot("even")
    first, refused = _fetch_all(fetches), refusals()
    assert all(status in (403, 404) for status, _, _ in refused), [r[:2] for r in refused]
    seats.save(_SECOND)
    autopilot("knockout-saver")
    second = _fetch_all(fetches)
    assert [label for label in first if first[label] != second[label]] == []
    assert refusals() == refused


def test_no_log_line_at_debug_holds_an_order_or_a_draft_before_its_turn_is_resolved(
    app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    """docs/web.md, "Server logs": every logger at DEBUG (SQLAlchemy's statements, the odds process),
    through orders saved and changed by page and API, drafts asked for their odds (in the body and
    in the address), an order the rules refuse and a wrong team, writes neither split."""
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="sevens")
    caplog.set_level(logging.DEBUG, logger="sqlalchemy")
    seats = _Seats(app)
    game, gid = seats.game, seats.game.public_id
    p1, team, theirs = game.players["p1"], seats.team, seats.p3_teams[0]
    seats.save(_FIRST)
    assert post_form(p1, f"{game.base}/odds", {"team": team, "force": "52", "flair": "27"}).status_code == 200
    assert game.order("p1", team, 47, 40).status_code == 422  # FLAIR not a multiple of 3
    url = f"/api/v1/games/{gid}"
    assert seats.api.put(f"{url}/orders/{theirs}", json={"turn": 1, "force": 52, "flair": 27}, headers=seats.p3).status_code == 200
    assert seats.api.put(f"{url}/orders/{team}", json={"turn": 1, "force": 47, "flair": 39}, headers=seats.p3).status_code == 403
    assert seats.api.get(f"{url}/teams/{theirs}/odds?force=47&flair=39", headers=seats.p3).status_code == 200
    assert seats.api.post(f"{url}/teams/{theirs}/odds", json={"force": 52, "flair": 27}, headers=seats.p3).status_code == 200
    said = "\n".join(f"{r.getMessage()} {r.args!r} {r.exc_text or ''}" for r in caplog.records if not r.name.startswith("httpx"))
    assert "INSERT INTO orders" in said or "UPDATE orders" in said, said[-2000:]  # SQLAlchemy's lines are there
    for split in (_FIRST, _SECOND, (47, 40)):
        assert not re.search(rf"\b{split[0]}\b.{{0,40}}\b{split[1]}\b", said, re.S), split
