"""Each page and view asks the database a fixed number of statements, however big the game: a
16-player game in its knockouts costs what a 4-player one does (no statement per team, turn,
seat or order). The bounds are today's counts; a change that adds a statement to a view raises
its bound here on purpose, one that adds a statement per team fails."""

from __future__ import annotations

import re
from dataclasses import dataclass

from fastapi import FastAPI

from web.web_helpers import Hosted, TestClient, host_game, new_client, post_form, statements_sent

BOUNDS = {
    "player page": 9,  # with the mark of the player's own orders and autopilots (one statement)
    "organiser page": 8,
    "spectator page": 3,
    "team page": 3,
    "record download": 1,
    "page poll (player)": 7,  # with the mark of who has ordered: the teams, the seats, the turn's orders; and of their own
    "page poll (player, other pages)": 3,  # the public page of a player's game: no mark to work out
    "who-ordered part (player)": 8,
    "page poll (organiser)": 8,  # with the seats some browser or token plays, and the event log's length
    "page poll (spectator)": 1,
    "links poll (organiser)": 4,
    "game JSON (player)": 8,
    "game JSON (organiser)": 8,
    "game JSON (spectator)": 3,
    "record JSON": 1,
    "API poll (player)": 3,
    "API poll (organiser)": 8,
    "API poll (spectator)": 1,
    "team view (player)": 9,
    "own orders (player)": 9,
    # the organiser's big screen: the public page, the organiser's version and who the turn waits for
    "big screen (organiser)": 10,
    "front page (player)": 8,
    "standing download": 2,
    "matches download": 2,
    "verify page": 2,
    "matches CSV (API)": 2,
}
"""The most statements each view may issue, for any size of game."""


def _pages_game_in_knockouts(app: FastAPI, arrangement: str, players: int, *, until: str = "knockouts") -> Hosted:
    """A game played through the pages into its knockouts (``until="final"``: to its final; ``"turn 1"``:
    not at all), with orders saved for the open turn."""
    game = host_game(app, arrangement=arrangement)
    for number in range(1, players + 1):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    stop = {"knockouts": lambda v: v["stage"] != "group", "final": lambda v: v["stage"] == "final"}.get(
        until, lambda v: True
    )
    while not stop(view := game.organiser.get(f"/api/v1/games/{game.public_id}").json()):
        response = post_form(game.organiser, f"{game.base}/resolve", {"turn": str(view["turn"])})
        assert response.status_code == 303, response.text[:300]
    for player in game.players:
        for team in game.my_teams(player):
            assert game.order(player, team, 9, 9).status_code == 303
    return game


@dataclass
class ApiGame:
    client: TestClient
    game: str
    organiser: dict[str, str]
    players: dict[str, dict[str, str]]
    playing: tuple[str, str]  # a seat with a team in play, and that team


def _api_game_in_knockouts(app: FastAPI, players: int, *, until: str = "knockouts") -> ApiGame:
    """The same through the API, each seat a bot token, with orders saved for the open turn."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Counted", "players": players}).json()
    game, organiser = created["game"], {"Authorization": f"Bearer {created['token']}"}
    tokens = {}
    for player, invite in created["invites"].items():
        joined = client.post("/api/v1/join", json={"invite": invite, "name": f"bot {player}"}).json()
        tokens[player] = {"Authorization": f"Bearer {joined['token']}"}
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    stop = {"knockouts": lambda v: v["stage"] != "group", "final": lambda v: v["stage"] == "final"}.get(
        until, lambda v: True
    )
    while not stop(view := client.get(f"/api/v1/games/{game}", headers=organiser).json()):
        resolved = client.post(f"/api/v1/games/{game}/resolve", headers=organiser, json={"turn": view["turn"]})
        assert resolved.status_code == 200, resolved.text
    playing = []
    for player, token in tokens.items():
        mine = client.get(f"/api/v1/games/{game}", headers=token).json()["my_teams"]
        for team in (t["team"] for t in mine if t["match"] is not None):
            body = {"turn": view["turn"], "force": 9, "flair": 9}
            assert client.put(f"/api/v1/games/{game}/orders/{team}", headers=token, json=body).status_code == 200
            playing.append((player, team))
    return ApiGame(client, game, organiser, tokens, playing[0])


def _counts(app: FastAPI, pages: Hosted, api: ApiGame) -> dict[str, int]:
    spectator = new_client(app)
    player = next(p for p in pages.players if pages.my_teams(p))
    seat, team = api.playing
    base, api_base = pages.base, f"/api/v1/games/{api.game}"
    reads: dict[str, tuple[TestClient, str, dict[str, str]]] = {
        "player page": (pages.players[player], f"{base}/play", {}),
        "organiser page": (pages.organiser, f"{base}/organise", {}),
        "spectator page": (spectator, base, {}),
        "team page": (spectator, f"{base}/teams/{team}", {}),
        "record download": (spectator, f"{base}/record.json", {}),
        "page poll (player)": (pages.players[player], f"{base}/state?as=player", {}),
        "page poll (player, other pages)": (pages.players[player], f"{base}/state", {}),
        "who-ordered part (player)": (pages.players[player], f"{base}/who-ordered", {}),
        "page poll (organiser)": (pages.organiser, f"{base}/state", {}),
        "page poll (spectator)": (spectator, f"{base}/state", {}),
        "links poll (organiser)": (pages.organiser, f"{base}/links", {}),
        "game JSON (player)": (api.client, api_base, api.players[seat]),
        "game JSON (organiser)": (api.client, api_base, api.organiser),
        "game JSON (spectator)": (api.client, api_base, {}),
        "record JSON": (api.client, f"{api_base}/record", {}),
        "API poll (player)": (api.client, f"{api_base}/state", api.players[seat]),
        "API poll (organiser)": (api.client, f"{api_base}/state", api.organiser),
        "API poll (spectator)": (api.client, f"{api_base}/state", {}),
        "team view (player)": (api.client, f"{api_base}/teams/{team}/view", api.players[seat]),
        "own orders (player)": (api.client, f"{api_base}/orders", api.players[seat]),
        "big screen (organiser)": (pages.organiser, f"{base}?screen=1", {}),
        "front page (player)": (pages.players[player], "/", {}),
        "standing download": (spectator, f"{base}/standing.csv", {}),
        "matches download": (spectator, f"{base}/matches.csv", {}),
        "verify page": (spectator, f"{base}/verify", {}),
        "matches CSV (API)": (api.client, f"{api_base}/matches.csv", {}),
    }
    counts = {}
    for name, (client, url, headers) in reads.items():
        client.get(url, headers=headers)  # a browser's first visit may set a cookie: not what is counted
        with statements_sent(app) as sent:
            response = client.get(url, headers=headers)
        assert response.status_code == 200, (name, response.status_code, response.text[:300])
        counts[name] = len(sent)
    return counts


def test_every_view_of_a_16_player_game_in_its_knockouts_costs_what_a_4_player_one_does(app: FastAPI) -> None:
    small = _counts(app, _pages_game_in_knockouts(app, "4-8-2", 4), _api_game_in_knockouts(app, 4))
    big = _counts(app, _pages_game_in_knockouts(app, "16-16-1", 16), _api_game_in_knockouts(app, 16))
    assert big == small, "a view asks the database more often the bigger the game (a statement per row?)"
    over = {name: count for name, count in big.items() if count > BOUNDS[name]}
    assert not over, f"more statements than their bound: {over}"


def test_every_view_of_a_16_player_game_at_its_final_costs_what_it_did_at_turn_1(app: FastAPI) -> None:
    """Nothing is read once per resolved turn or match: the final's pages, with five turns of
    reports on them, ask what turn 1's did."""
    first = _counts(
        app, _pages_game_in_knockouts(app, "16-16-1", 16, until="turn 1"), _api_game_in_knockouts(app, 16, until="turn 1")
    )
    final = _counts(
        app, _pages_game_in_knockouts(app, "16-16-1", 16, until="final"), _api_game_in_knockouts(app, 16, until="final")
    )
    assert final == first, "a view asks the database more often the more turns are played (a statement per turn?)"


def test_an_organisers_act_through_the_api_reads_the_grants_once(app: FastAPI) -> None:
    """An act (resolve here; start, pause, resume, extend, house-bot and end go the same way) read
    the game's grants twice: the caller's, to check it organises the game, and then every seat's,
    for the organiser's view it answers with. One statement now reads both, as GET
    /api/v1/games/{id} does."""
    api = _api_game_in_knockouts(app, 4)
    turn = api.client.get(f"/api/v1/games/{api.game}", headers=api.organiser).json()["turn"]
    with statements_sent(app) as sent:
        resolved = api.client.post(f"/api/v1/games/{api.game}/resolve", headers=api.organiser, json={"turn": turn})
    assert resolved.status_code == 200, resolved.text
    # Read from the game's row outward (sevens.store.auth.access_to), or from the grants alone.
    grants = [statement for statement in sent if re.search(r"\b(FROM|JOIN) grants\b", statement)]
    assert len(grants) == 1, grants
    assert resolved.json()["turn"] == turn + 1
