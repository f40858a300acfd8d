"""A player's page and API view say how far each of their teams has gone, turn by turn to the
end: the group place, the knockout match that put a team out and to whom, the champion."""

from __future__ import annotations

import html
import json
import re

from fastapi import FastAPI

from sevens.tournament import describe_progress, from_record, team_progress
from web.web_helpers import Hosted, new_client, on_screen, post_form


def test_each_team_says_how_far_it_went(hosted: Hosted) -> None:
    seen_out = False
    for turn in range(1, 6):
        record = json.loads(hosted.organiser.get(f"{hosted.base}/record.json").text)
        game, _ = from_record(record)
        names = {t["id"]: t["name"] for t in record["teams"]}
        for pid, client in hosted.players.items():
            page = html.unescape(on_screen(client.get(f"{hosted.base}/play").text))
            mine = [t.id for t in game.setup.teams if t.manager == pid]
            assert len(mine) == 2
            for team in mine:
                expected = describe_progress(team_progress(game, team), names.__getitem__)
                shown = re.search(rf'id="progress-{team}">([^<]*)<', page)
                assert shown is not None and shown.group(1) == expected
                if turn == 1:
                    assert expected == f"Group {game.setup.team(team).group}: no match played yet."
                if expected.startswith("Out "):
                    seen_out = True
                    article = page.split(f'id="progress-{team}"')[1].split("</article>")[0]
                    assert 'name="force"' not in article  # no order form for a team that is out
        for pid in hosted.players:
            for team in hosted.my_teams(pid):
                assert hosted.order(pid, team, 8, 6, action="ready").status_code == 303
        if hosted.turn() == turn:  # every person's team is out: the organiser resolves the turn
            assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": str(turn)}).status_code == 303
    assert seen_out
    record = json.loads(hosted.organiser.get(f"{hosted.base}/record.json").text)
    game, seed = from_record(record)
    assert seed is not None and game.champion is not None
    said: dict[str, str] = {}
    for client in hosted.players.values():
        page = html.unescape(on_screen(client.get(f"{hosted.base}/play").text))
        said.update(re.findall(r'id="progress-([\w-]+)">([^<]*)<', page))
    assert len(said) == 8
    assert said[game.champion].startswith("Champion: won the final against ")
    assert sum(s.startswith("Runner-up: lost the final to ") for s in said.values()) == 1
    assert sum(s.startswith("Out in the semi-final: lost to ") for s in said.values()) == 2
    assert sum(s.startswith("Out after the groups: ") for s in said.values()) == 4


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_api_says_it_too_to_the_end_and_for_a_game_ended_early(app: FastAPI) -> None:
    client = new_client(app)
    for ended_early in (False, True):
        created = client.post("/api/v1/games", json={"name": "Bots", "players": 4}).json()
        game, organiser = created["game"], _bearer(created["token"])
        seats = {}
        for player, invite in sorted(created["invites"].items()):
            joined = client.post("/api/v1/join", json={"invite": invite, "name": f"bot {player}"})
            seats[player] = _bearer(joined.json()["token"])
        assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
        if ended_early:
            assert client.post(f"/api/v1/games/{game}/end", headers=organiser).status_code == 200
            teams = client.get(f"/api/v1/games/{game}", headers=seats["p1"]).json()["my_teams"]
            assert [t["progress"] for t in teams] == ["The game was ended before its first match."] * 2
            continue
        for _ in range(5):
            view = client.get(f"/api/v1/games/{game}", headers=organiser).json()
            if view["status"] == "finished":
                break
            for headers in seats.values():
                mine = client.get(f"/api/v1/games/{game}", headers=headers).json()
                for team in mine["my_teams"]:
                    if team["match"] is not None:
                        put = client.put(
                            f"/api/v1/games/{game}/orders/{team['team']}",
                            json={"turn": mine["turn"], "force": 8, "flair": 6, "ready": True},
                            headers=headers,
                        )
                        assert put.status_code == 200, put.text
            if client.get(f"/api/v1/games/{game}", headers=organiser).json()["turn"] == view["turn"]:
                client.post(f"/api/v1/games/{game}/resolve", json={"turn": view["turn"]}, headers=organiser)
        record = client.get(f"/api/v1/games/{game}/record").json()
        played, seed = from_record(record)
        assert seed is not None
        names = {t["id"]: t["name"] for t in record["teams"]}
        said = {
            t["team"]: t["progress"]
            for headers in seats.values()
            for t in client.get(f"/api/v1/games/{game}", headers=headers).json()["my_teams"]
        }
        assert len(said) == 8
        assert said == {t: describe_progress(team_progress(played, t), names.__getitem__) for t in said}
        assert said[str(played.champion)].startswith("Champion: ")
