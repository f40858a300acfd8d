"""The game taught to someone who has never played it, in one page the order form links to (task
newcomer1)."""

from __future__ import annotations

import html
import re
from fractions import Fraction

from fastapi import FastAPI

from sevens.odds import order_odds
from web.web_helpers import host_game, new_client


def _words(page: str) -> str:
    """The page's text as read, tags dropped and spaces folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_the_order_form_links_to_a_page_that_teaches_the_game(app: FastAPI) -> None:
    """Nothing on the web pages said what FORCE, FLAIR or SCRUM points do, that SCRUM lasts the
    whole tournament and a win brings 10, what wins a group or a knockout, or what the odds shown
    as you type mean: a newcomer alone against the bots had to guess (or find docs/rules.md). Now
    /how-to-play says it, in step with R1-R4, R8 and R9, and the player's page links to it once,
    above the order forms, as do the front page and the join page."""
    game = host_game(app, hours="0")
    joining = new_client(app).get(game.invites["p1"].split("testserver", 1)[1]).text
    game.join("p1", "Newcomer")
    game.start()
    play = game.players["p1"].get(f"{game.base}/play").text
    assert play.count('href="/how-to-play"') == 1 and play.count('class="order-form"') == 2
    assert 'href="/how-to-play"' in game.organiser.get("/").text and 'href="/how-to-play"' in joining

    taught = game.players["p1"].get("/how-to-play")
    assert taught.status_code == 200
    said = _words(taught.text)
    force, flair = order_odds(3, 0).expected_points_exact, order_odds(0, 3).expected_points_exact
    assert force == 4 and flair == Fraction(61, 15)
    for fact in (
        "starts with 100 SCRUM points",  # R4
        "must last it the whole tournament",
        "winner of a match gains 10",
        "FORCE : one die per point. A 5 is a try (5 points), a 3 a penalty (3 points)",  # R1
        f"On average 3 points of FORCE score {force}",
        "each 3 points throw two dice. A total of 7 is a converted try (7 points)",
        "scores as usual and then throws again",  # R2
        f"On average 3 points of FLAIR score {float(flair):.2f}",
        "FLAIR must be a multiple of 3, either may be 0",  # R3
        "a win is worth 2 league points, a draw 1. The top two of each group go through",  # R8
        "more tries wins, then more conversions, then more drop goals, then the better group record, then lots",  # R9
        "your chances of a win, a draw",  # the odds
        "Save and mark ready says you are done",
    ):
        assert fact in said, fact
    for word in ("Autopilot", "House team", "Knockout weight", "count-back"):
        assert word in said, word

