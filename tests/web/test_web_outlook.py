"""The player's page: each open group match says what a win, a draw and a loss lead to (the
qualification outlook, sevens.tournament.outlook), worked out from resolved turns only (R13)."""

from __future__ import annotations

import html
import re
from typing import Any

from fastapi import FastAPI

from sevens.tournament.formats import GROUP_TURNS
from sevens.tournament.outlook import describe_after, describe_outlook, game_outlook
from sevens.tournament.record import from_record
from web.web_helpers import host_game, new_client


def _outlooks(page: str) -> dict[str, str]:
    return {team: html.unescape(text) for team, text in re.findall(r'<p class="outlook" id="outlook-([\w-]+)">([^<]*)</p>', page)}


def test_each_open_group_match_says_the_teams_outlook_and_no_knockout_does(app: FastAPI) -> None:
    game = host_game(app, hours="0")
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    for turn in range(1, GROUP_TURNS + 2):
        assert game.turn() == turn
        state, _ = from_record(game.organiser.get(f"{game.base}/record.json").json())
        names = {t.id: t.name for t in state.setup.teams}
        for pid, client in game.players.items():
            shown = _outlooks(client.get(f"{game.base}/play").text)
            teams = game.my_teams(pid)
            if turn > GROUP_TURNS:
                assert shown == {}, (turn, pid)  # a semi-final: nothing of the kind
                continue
            expected = {}
            for team in teams:
                outlook = game_outlook(state, team)
                assert outlook is not None
                expected[team] = describe_outlook(outlook, names.__getitem__)
            assert shown == expected, (turn, pid)
        if turn > GROUP_TURNS:
            break
        # Orders saved by the others change nobody's outlook before the turn is resolved (R13).
        before = _outlooks(game.players["p1"].get(f"{game.base}/play").text)
        for pid in ("p2", "p3", "p4"):
            for team in game.my_teams(pid):
                assert game.order(pid, team, 6, 3, "ready").status_code == 303
        assert _outlooks(game.players["p1"].get(f"{game.base}/play").text) == before
        for team in game.my_teams("p1"):
            assert game.order("p1", team, 3, 3, "ready").status_code == 303


def _matches_left(page: str, team: str) -> int | None:
    """The "At most N matches left" line of the team's match on the play page, if it has one."""
    block = page.split(f'id="team-{team}"', 1)[1].split("</article>", 1)[0]
    found = re.search(r'<span class="matches-left">At most (\d+) matches left', block)
    return int(found.group(1)) if found else None


def test_the_api_gives_each_team_the_outlook_and_matches_left_the_page_shows(app: FastAPI) -> None:
    game = host_game(app, hours="0")
    players = [f"p{number}" for number in range(1, 5)]
    for pid in players:
        game.join(pid, f"Player {pid}")
    # A bot token for each seat, from a new invite for another device.
    api = new_client(app)
    auth = {}
    for pid in players:
        joined = api.post("/api/v1/join", json={"invite": game.new_invite(pid), "name": f"Player {pid}"})
        assert joined.status_code == 200, joined.text
        auth[pid] = {"Authorization": f"Bearer {joined.json()['token']}"}
    game.start()
    seen_knockout = False

    def my_teams(pid: str) -> list[dict[str, Any]]:
        return list(api.get(f"/api/v1/games/{game.public_id}", headers=auth[pid]).json()["my_teams"])

    for turn in range(1, GROUP_TURNS + 2):
        assert game.turn() == turn
        state, _ = from_record(game.organiser.get(f"{game.base}/record.json").json())
        names = {t.id: t.name for t in state.setup.teams}
        for pid in players:
            page = game.players[pid].get(f"{game.base}/play").text
            shown = _outlooks(page)
            mine = {t["team"]: t for t in my_teams(pid)}
            played = game.my_teams(pid)
            for team in played:
                sent = mine[team]
                assert sent["matches_left"] == state.view_for(team).turns_left
                assert sent["matches_left"] == _matches_left(page, team)  # no final in these turns: the page says it
                if turn <= GROUP_TURNS:
                    outlook = game_outlook(state, team)
                    assert outlook is not None
                    assert sent["outlook"]["text"] == shown[team]
                    assert [sent["outlook"][r]["verdict"] for r in ("win", "draw", "loss")] == [
                        a.verdict.value for a in outlook.after
                    ]
                    assert [sent["outlook"][r]["words"] for r in ("win", "draw", "loss")] == [
                        describe_after(a, names.__getitem__) for a in outlook.after
                    ]
                else:
                    assert team not in shown and sent["outlook"] is None  # a semi-final
                    seen_knockout = True
                view = api.get(f"/api/v1/games/{game.public_id}/teams/{team}/view", headers=auth[pid]).json()["team"]
                assert (view["matches_left"], view["outlook"]) == (sent["matches_left"], sent["outlook"])
            for team, t in mine.items():
                if team not in played:
                    assert t["matches_left"] is None and t["outlook"] is None
        if turn > GROUP_TURNS:
            break
        # Orders the others make ready change nothing p1's API says before the turn is resolved (R13).
        before = my_teams("p1")
        for pid in ("p2", "p3", "p4"):
            for team in game.my_teams(pid):
                assert game.order(pid, team, 6, 3, "ready").status_code == 303
        assert my_teams("p1") == before
        for team in game.my_teams("p1"):
            assert game.order("p1", team, 3, 3, "ready").status_code == 303
    assert seen_knockout
