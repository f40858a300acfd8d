"""A match report says how each team's order was given in that turn, as it stood then: a seat not
taken yet, or one handed to the bots, plays its bot; a player in the seat who sent nothing missed
the order (R13). It used to say how each seat stands now, so a seat taken or handed over later
rewrote the reports of turns played before."""

from __future__ import annotations

import re

from fastapi import FastAPI
from sqlalchemy import update

from sevens.store.models import GameRow
from web.web_helpers import Hosted, host_game, new_client, post_form

_ROW = re.compile(
    r'class="name">([^<]+)</th><td role="cell"><span class="cell-label" aria-hidden="true">Order </span>'
    r'<span aria-hidden="true">\d+\+\d+</span><span class="visually-hidden"> \d+ FORCE, \d+ FLAIR</span>'
    r"(?: <em>([^<]*)</em>)?</td>"
)


def _reports(game: Hosted) -> dict[int, dict[str, str]]:
    """Per turn reported on the public page, each team's name and what its order cell says of it."""
    page = new_client(game.app).get(game.base).text
    reports = page.split('<section class="reports">', 1)[1]
    found: dict[int, dict[str, str]] = {}
    for number, part in re.findall(r'<h3>Turn <span aria-hidden="true">(\d+) ·</span>.*?</h3>(.*?)(?=<h3>|</section>)', reports, re.S):
        found[int(number)] = {name: said for name, said in _ROW.findall(part)}
    return found


def _says(reports: dict[int, dict[str, str]], turn: int, names: list[str]) -> set[str]:
    """What turn's report says of the teams ``names`` (with the bot's name left out)."""
    return {re.sub(r"(autopilot|bot) \S+", r"\1", reports[turn][name]) for name in names}


def _resolve(game: Hosted, turn: int) -> None:
    assert post_form(game.organiser, f"{game.base}/resolve", {"turn": str(turn)}).status_code == 303


def test_a_report_says_how_each_seat_stood_in_its_turn(app: FastAPI) -> None:
    game = host_game(app, hours="0")
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    game.start()
    record = game.organiser.get(f"/api/v1/games/{game.public_id}/record").json()
    teams = {seat: [t["name"] for t in record["teams"] if t["manager"] == seat] for seat in ("p1", "p2", "p3", "p4")}
    assert all(len(names) == 2 for names in teams.values()), record["teams"]
    # Turn 1: Ann and Ben send nothing, nobody has taken p3 or p4.
    _resolve(game, 1)
    # Turn 2: Ben's seat is handed to the bots, Cat takes p3 and sends nothing.
    assert post_form(game.organiser, f"{game.base}/seats/p2/release").status_code == 303
    game.join("p3", "Cat")
    _resolve(game, 2)
    reports = _reports(game)
    assert _says(reports, 1, teams["p1"]) == {"missed: autopilot (R13)"}
    assert _says(reports, 1, teams["p2"]) == {"missed: autopilot (R13)"}, "Ben was in his seat in turn 1"
    assert _says(reports, 1, teams["p3"]) == {"bot (seat not claimed)"}, "nobody had taken p3 in turn 1"
    assert _says(reports, 1, teams["p4"]) == {"bot (seat not claimed)"}
    assert _says(reports, 2, teams["p2"]) == {"bot (seat handed to the bots)"}
    assert _says(reports, 2, teams["p3"]) == {"missed: autopilot (R13)"}
    # Dan takes Ben's seat over by a new link: turn 2 still says it was handed to the bots then.
    made = post_form(game.organiser, f"{game.base}/seats/p2/invite")
    link = re.search(r'id="invite-link">([^<]+)<', made.text)
    assert made.status_code == 200 and link is not None
    dan = new_client(app)
    assert post_form(dan, link.group(1).split("testserver", 1)[1], {"name": "Dan"}).status_code == 303
    assert _reports(game) == reports, "taking a seat over rewrites no report"


def test_a_turn_resolved_before_it_was_kept_says_how_the_seat_stands_now(app: FastAPI) -> None:
    """Turns resolved before revision 0006 kept nothing of who held each seat: their reports say
    how each seat stands now, as all reports did before, rather than calling every bot "missed"."""
    game = host_game(app, hours="0")
    game.join("p1", "Ann")
    game.start()
    _resolve(game, 1)
    with app.state.sessionmaker() as db:  # as a database migrated from 0005 holds it
        db.execute(update(GameRow).where(GameRow.public_id == game.public_id).values(seat_bots_json=None))
        db.commit()
    reports = _reports(game)
    said = sorted(re.sub(r"(autopilot|bot) \S+", r"\1", text) for text in reports[1].values())
    assert said == ["bot (seat not claimed)"] * 6 + ["missed: autopilot (R13)"] * 2
