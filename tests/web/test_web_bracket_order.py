"""The bracket on a game's page shows the knockouts as a bracket (R11), task solo1."""

from __future__ import annotations

import html
import re

from fastapi import FastAPI

from web.web_helpers import host_game, on_screen


def _rounds(page: str) -> dict[str, list[tuple[str, str, str]]]:
    """The bracket's rounds: for each stage, its matches top down as (home, away, result), the
    result's text without the link to the match's report."""
    page = on_screen(page)
    section = page[page.index('<section class="bracket"'):]
    section = section[: section.index("</section>")]
    rounds = {}
    for stage, body in re.findall(r'<div class="round"><h3>([^<]+)</h3>(.*?)</div>', section, re.S):
        rounds[stage] = [
            (html.unescape(h), html.unescape(a), html.unescape(r))
            # a played match's result is a link to its report
            for h, a, r in re.findall(r"<li>(.+?) v (.+?)<br><small>(?:<a [^>]*>)?(.+?)(?:</a>)?</small></li>", body)
        ]
    return rounds


def test_the_bracket_puts_next_to_each_other_the_quarter_finals_whose_winners_meet(app: FastAPI) -> None:
    """R11: the first semi-final is the winner of quarter-final 1 v the winner of 3. The page listed
    the quarter-finals 1, 2, 3, 4, so the two at the top, beside the first semi-final, were not the
    two it follows. They are listed 1, 3, 2, 4: each two, top down, lead to the semi-final beside them."""
    game = host_game(app, arrangement="4-16-4", hours="0")
    game.start()  # no seat taken: the bots play the whole game at once
    rounds = _rounds(game.organiser.get(game.base).text)
    quarters, semis = rounds["quarter-final"], rounds["semi-final"]
    assert len(quarters) == 4 and len(semis) == 2 and len(rounds["final"]) == 1
    through = [result.split(" win ")[0] for _, _, result in quarters]
    assert [(home, away) for home, away, _ in semis] == [(through[0], through[1]), (through[2], through[3])]
