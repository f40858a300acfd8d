"""The player's page: each open group match says what a win, a draw and a loss lead to (the
qualification outlook, sevens.tournament.outlook), worked out from resolved turns only (R13)."""

from __future__ import annotations

import html
import re

from fastapi import FastAPI

from sevens.tournament.formats import GROUP_TURNS
from sevens.tournament.outlook import describe_outlook, game_outlook
from sevens.tournament.record import from_record
from web.web_helpers import host_game


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
