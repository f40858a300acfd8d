"""R13: a game's two default bots, one for the teams nobody plays and one for the missed orders of
a player in their seat (docs/strategy.md, "Which bot plays when nobody chooses": table-reader makes
a fair harder field but, as an absent friend's autopilot, loses on purpose)."""

from __future__ import annotations

import html
import json
import re

from fastapi import FastAPI

from web.web_helpers import host_game, new_client, post_form


def _bots_of_turn(record: dict[str, object], turn: int) -> dict[str, tuple[str | None, bool]]:
    """Each team's order in ``turn`` of a record: the bot that chose it, and whether it was missed."""
    turns = record["turns"]
    assert isinstance(turns, list)
    return {
        m[side]: (m[f"{side}_order"]["autopilot"], m[f"{side}_order"]["missed"])
        for m in turns[turn - 1]["matches"]
        for side in ("home", "away")
    }


def test_house_teams_and_missed_orders_each_have_their_default_bot(app: FastAPI) -> None:
    """One setting was the bot of house teams and unclaimed seats and the autopilot of every
    manager who chose none: an organiser wanting a hard field (table-reader) gave an absent friend
    a stand-in that rests their matches on purpose. The create form now has two menus: the teams
    nobody plays get the first, a player in their seat who misses an order and chose no autopilot
    the second; their own choice wins, and a seat handed to the bots goes back to the first. The
    record names each bot and verifies at the end (R14)."""
    game = host_game(app, hours="0", bot="table-reader", autopilot="even-flair")
    created = game.organiser.get(f"{game.base}/organise")
    assert created.status_code == 200
    ann = game.join("p1", "Ann")
    game.join("p2", "Ben")
    game.start()
    ben_first, ben_second = game.my_teams("p2")
    chosen = post_form(game.players["p2"], f"{game.base}/autopilot", {"team": ben_first, "strategy": "even-force"})
    assert chosen.status_code == 303

    # Ann's page says which bot plays her missed orders; the organiser's, which plays the rest.
    play = html.unescape(ann.get(f"{game.base}/play").text)
    assert play.count("Now: even-flair, ") == 2
    organise = html.unescape(game.organiser.get(f"{game.base}/organise").text)
    assert len(re.findall(r'<span class="house-bot" title="[^"]+">table-reader</span>', organise)) == 4
    view = new_client(app).get(f"/api/v1{game.base}").json()
    assert (view["default_bot"], view["default_autopilot"]) == ("table-reader", "even-flair")

    game.resolve(1)  # nobody sent an order
    managers = {t["id"]: t["manager"] for t in view["teams"]}
    record = json.loads(game.organiser.get(f"{game.base}/record.json").text)
    # Every team has a seat here, so each order is a missed one, the unclaimed seats' too.
    expected = {
        team: ("even-force" if team == ben_first else "even-flair" if manager in ("Ann", "Ben") else "table-reader", True)
        for team, manager in managers.items()
    }
    assert _bots_of_turn(record, 1) == expected

    # Ben's seat handed to the bots: his choice is forgotten (R13) and his teams are the house's.
    assert post_form(game.organiser, f"{game.base}/seats/p2/release").status_code == 303
    while 'id="champion"' not in game.organiser.get(game.base).text:
        game.resolve(game.turn())
    record = json.loads(game.organiser.get(f"{game.base}/record.json").text)
    second = _bots_of_turn(record, 2)
    for team in (ben_first, ben_second):
        if team in second:
            assert second[team] == ("table-reader", True), second
    assert {bot for team, bot in second.items() if managers[team] == "Ann"} == {("even-flair", True)}
    assert 'id="verified"' in game.organiser.get(f"{game.base}/verify").text


def test_a_form_or_api_call_without_a_default_autopilot_has_the_default_bot_play_both(app: FastAPI) -> None:
    """A create form loaded before the second menu, and an API client that sends default_bot
    alone, get what they asked for then: the default bot plays missed orders too. The API takes
    default_autopilot, refuses an unknown one, and its document describes both."""
    game = host_game(app, hours="0", bot="even-force")
    view = new_client(app).get(f"/api/v1{game.base}").json()
    assert (view["default_bot"], view["default_autopilot"]) == ("even-force", "even-force")

    client = new_client(app)
    alone = client.post("/api/v1/games", json={"name": "Cup", "players": 4, "default_bot": "table-reader"})
    both = client.post(
        "/api/v1/games", json={"name": "Cup", "players": 4, "default_bot": "table-reader", "default_autopilot": "even"}
    )
    assert alone.status_code == both.status_code == 201, (alone.text, both.text)
    read = {
        answer.json()["game"]: client.get(f"/api/v1/games/{answer.json()['game']}").json() for answer in (alone, both)
    }
    assert [(v["default_bot"], v["default_autopilot"]) for v in read.values()] == [
        ("table-reader", "table-reader"),
        ("table-reader", "even"),
    ]
    refused = client.post("/api/v1/games", json={"name": "Cup", "players": 4, "default_autopilot": "nobody"})
    assert refused.status_code == 422 and "R13: unknown default autopilot 'nobody'" in refused.json()["detail"]

    document = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    create = next(s for name, s in document.items() if "default_autopilot" in s.get("properties", {}) and "players" in s.get("properties", {}))
    assert "same as default_bot" in create["properties"]["default_autopilot"]["description"]
    assert "default_autopilot" in document["GameView"]["required"]
