"""The organiser page counts who has ordered this turn and lists the teams still waiting first
(R13: whether an order is in, never what it is)."""

from __future__ import annotations

import html
import re

from fastapi import FastAPI

from web.web_helpers import Hosted, host_game


def _states(page: str) -> tuple[str, list[str]]:
    count = re.search(r'id="order-count">([^<]*)<', page)
    assert count is not None
    listed = re.findall(r'<li class="state-(\w+)">', page.split('id="order-states"')[1].split("</ul>")[0])
    return html.unescape(count.group(1)), listed


def test_the_count_and_the_waiting_teams_first(hosted: Hosted) -> None:
    organise = f"{hosted.base}/organise"
    count, listed = _states(hosted.organiser.get(organise).text)
    assert count == "Ready: 0 of 8 teams that people play (8 with no order yet; listed first)."
    assert listed == ["none"] * 8
    p1, p2 = hosted.my_teams("p1"), hosted.my_teams("p2")
    assert hosted.order("p1", p1[0], 5, 3, action="ready").status_code == 303
    assert hosted.order("p1", p1[1], 5, 3).status_code == 303
    assert hosted.order("p2", p2[0], 5, 3, action="ready").status_code == 303
    count, listed = _states(hosted.organiser.get(organise).text)
    assert count == "Ready: 2 of 8 teams that people play (5 with no order yet, 1 saved, not ready; listed first)."
    assert listed == ["none"] * 5 + ["saved"] + ["ready"] * 2
    assert "5+3" not in hosted.organiser.get(organise).text  # who has ordered, never what


def test_unclaimed_seats_are_counted_apart(app: FastAPI) -> None:
    game = host_game(app)
    game.join("p1", "Ann")
    game.start()
    count, listed = _states(game.organiser.get(f"{game.base}/organise").text)
    assert count == (
        "Ready: 0 of 2 teams that people play (2 with no order yet; listed first). "
        "6 teams whose seats nobody has taken play their autopilot."
    )
    assert listed == ["none"] * 2 + ["unclaimed"] * 6
    for team in game.my_teams("p1"):
        assert game.order("p1", team, 5, 3).status_code == 303
    count, _ = _states(game.organiser.get(f"{game.base}/organise").text)
    assert count.startswith("Ready: 0 of 2 teams that people play (2 saved, not ready; listed first).")
