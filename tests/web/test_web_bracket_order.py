"""The bracket on a game's page shows the knockouts as a bracket (R11), task solo1."""

from __future__ import annotations

import html
import re

from fastapi import FastAPI

from web.web_helpers import host_game, new_client, on_screen


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


PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def _listed(page: str, section: str) -> list[tuple[str, str]]:
    """The matches of a list on ``page`` (the first ``<ul>`` after ``section``, a piece of its
    opening tag), top down as shown: (home, away), each team's name without its player's."""
    page = on_screen(page)
    body = page[page.index(section):]
    body = body[body.index("<ul"): body.index("</ul>")]
    found = []
    for item in re.findall(r"<li>(.*?)</li>", body, re.S):
        text = html.unescape(re.sub(r"<[^>]+>", "", item)).split(": ", 1)[-1]  # the full page's id and stage first
        home, away = re.split(r" v | \d+-\d+ ", text)  # "Fiji v Samoa", or a result "Fiji 29-10 Samoa"
        found.append(tuple(re.sub(rf" \(({'|'.join(PLAYERS)})\)$", "", side) for side in (home, away)))
    return found  # type: ignore[return-value]


def _reports_and_links(page: str, turn: int) -> tuple[list[str], list[str]]:
    """The order of ``turn``'s match reports on ``page`` and that of the bracket's links to them."""
    section = page[page.index('<section class="bracket"'):]
    section = section[: section.index("</section>")]
    links = re.findall(rf'href="#match-(t{turn}-m\d+)"', section)
    return re.findall(rf'<article class="match" id="match-(t{turn}-m\d+)"', page), links


def test_every_list_of_a_knockout_round_is_in_the_order_of_its_bracket(app: FastAPI) -> None:
    """A spectator reading the quarter-finals on the big screen, then the bracket beside them, met
    the same four matches in two orders: the lists went by match (1, 2, 3, 4), the bracket by who
    meets whom next (1, 3, 2, 4). This turn's matches (big screen and full page), the big screen's
    last results and the match reports of the full, organiser's and players' pages now follow the
    bracket's order."""
    game = host_game(app, arrangement="4-16-4", hours="0")
    for number, name in enumerate(PLAYERS, start=1):
        game.join(f"p{number}", name)
    game.start()
    game.resolve(1, 2, 3)  # every team has a player: the quarter-finals wait for their orders
    spectator = new_client(app)
    screen, full = spectator.get(f"{game.base}?screen=1").text, spectator.get(game.base).text
    bracket = [(home, away) for home, away, _ in _rounds(screen)["quarter-final"]]
    assert len(set(bracket)) == 4
    assert _listed(screen, '<section id="fixtures"') == bracket
    assert _listed(full, '<section id="fixtures"') == bracket
    assert [(h, a) for h, a, _ in _rounds(full)["quarter-final"]] == bracket

    game.resolve(4)
    screen = spectator.get(f"{game.base}?screen=1").text
    assert "Turn 4 results (quarter-final)" in screen
    assert _listed(screen, '<section id="last-results"') == bracket
    for page in (
        spectator.get(game.base).text,
        game.organiser.get(f"{game.base}/organise").text,
        game.players["p1"].get(f"{game.base}/play").text,
    ):
        reports, links = _reports_and_links(page, 4)
        assert reports == links and len(links) == 4
