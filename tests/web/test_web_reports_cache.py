"""The match reports of a resolved turn are rendered once and kept (web/reports_cache.py): the game
page, the player's page and the organiser's page all show them, and at the final of a 16-team game
they were most of each page's time. These tests hold the kept reports to the game as it is: a turn
resolved since is on the next page, each game shows its own, a changed name or seat is not served
from before, and no order of the open turn is ever in them (R13)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from fastapi import FastAPI
from markupsafe import Markup
from sqlalchemy.orm import Session

from sevens.store import games as store
from sevens.web import views
from web.web_helpers import Hosted, every_seat_taken, new_client


def _kept(app: FastAPI) -> Any:
    return app.state.templates.env.globals["turn_reports"]


def _reports(page: str) -> str:
    """The page's Match reports section."""
    return page.split('<section class="reports">', 1)[1].split("</section>", 1)[0]


def _articles(reports: str) -> dict[str, str]:
    return dict(re.findall(r'<article class="match" id="match-([\w-]+)">(.*?)</article>', reports, re.S))


def _assert_reports_are_the_record(game: Hosted, page: str) -> None:
    """Every resolved match of the game's own record has its report on the page, with both sides'
    SCRUM and points as the record has them, and nothing more."""
    document = new_client(game.app).get(f"/api/v1/games/{game.public_id}").json()
    articles = _articles(_reports(page))
    played = [m for turn in document["turns"] for m in turn["matches"]]
    assert sorted(articles) == sorted(m["match"] for m in played)
    for match in played:
        report = articles[match["match"]]
        for side in (match["home"], match["away"]):
            assert f"{side['scrum_before']} → {side['scrum_after']}" in report, (match["match"], side)
            assert f">{side['line']['points']} (" in report, (match["match"], side)


def _view(app: FastAPI, game: Hosted) -> views.SpectatorView:
    with Session(app.state.engine) as db:
        return views.spectator_view(db, store.game_by_public_id(db, public_id=game.public_id))


def test_each_turns_reports_are_rendered_once_for_every_page_that_shows_them(app: FastAPI) -> None:
    game = every_seat_taken(app)
    game.resolve(1, 2)
    ann = game.players["p1"]
    before = _kept(app).cache_info()
    pages = [
        client.get(url).text
        for _ in range(3)
        for client, url in ((new_client(app), game.base), (ann, f"{game.base}/play"), (game.organiser, f"{game.base}/organise"))
    ]
    after = _kept(app).cache_info()
    assert after.misses - before.misses == 2  # turns 1 and 2, once each
    assert after.hits - before.hits == 2 * (len(pages) - 1)
    # the same reports for everyone: nothing in them is the reader's own
    assert len({_reports(page) for page in pages}) == 1
    _assert_reports_are_the_record(game, pages[0])


def test_a_turn_resolved_since_is_on_the_next_page_and_no_open_order_before(app: FastAPI) -> None:
    game = every_seat_taken(app)
    game.resolve(1)
    spectator = new_client(app)
    first = spectator.get(game.base).text
    _assert_reports_are_the_record(game, first)
    assert not any(id.startswith("t2-") for id in _articles(_reports(first)))
    team = game.my_teams("p1")[0]
    assert game.order("p1", team, 13, 27, action="ready").status_code == 303
    # Ann's order of the open turn is on no page's reports, kept or not (R13)
    for page in (spectator.get(game.base).text, game.players["p2"].get(f"{game.base}/play").text):
        assert "13+27" not in _reports(page)
        assert _reports(page) == _reports(first)
    game.resolve(2)
    second = spectator.get(game.base).text
    _assert_reports_are_the_record(game, second)
    document = new_client(app).get(f"/api/v1/games/{game.public_id}").json()
    match = next(m["match"] for m in document["turns"][1]["matches"] if team in (m["home"]["team"], m["away"]["team"]))
    assert "13 FORCE, 27 FLAIR" in _articles(_reports(second))[match]
    # turn 2 above turn 1, turn 1's reports as they were
    assert _reports(second).index("Turn <span") < _reports(second).index("t1-m1")
    assert _articles(_reports(first)).items() <= _articles(_reports(second)).items()


def test_each_game_shows_its_own_reports_of_the_same_turn(app: FastAPI) -> None:
    one, two = every_seat_taken(app, name="One"), every_seat_taken(app, name="Two")
    one.resolve(1)
    two.resolve(1)
    for game in (one, two, one):
        _assert_reports_are_the_record(game, new_client(app).get(game.base).text)


def test_a_name_or_seat_changed_since_is_not_served_from_before(app: FastAPI) -> None:
    game = every_seat_taken(app)
    game.resolve(1)
    view = _view(app, game)
    (number, stage, matches), = view.listed_history
    kept = _kept(app)
    shown = kept(view, number, stage, matches)
    team = matches[0].home.team
    renamed = dataclasses.replace(
        view, teams={**view.teams, team: dataclasses.replace(view.teams[team], name="Renamed Fifteen")}
    )
    assert "Renamed Fifteen" not in shown
    assert "Renamed Fifteen" in kept(renamed, number, stage, matches)
    # a turn whose seats were not kept when it was resolved is said with the seats as they stand now
    missed = dataclasses.replace(matches[0].home, missed=True, autopilot="even")
    changed = [dataclasses.replace(matches[0], home=missed), *matches[1:]]
    handed = dataclasses.replace(view, seat_bots={}, handed_over=frozenset({team}))
    assert "missed: autopilot even (R13)" in kept(view, number, stage, changed)
    assert "bot even (seat handed to the bots)" in kept(handed, number, stage, changed)


def test_the_kept_reports_are_what_the_macros_make_of_the_whole_view(app: FastAPI) -> None:
    game = every_seat_taken(app)
    game.resolve(1, 2, 3)
    view = _view(app, game)
    env = app.state.templates.env
    direct = env.from_string(
        '{% import "macros.html" as m %}{% for number, stage, matches in view.listed_history | reverse %}'
        "<h3>{{ m.turn_stage(number, stage) }}</h3>{% set bots_then = view.bots_then(number) %}"
        "{% for x in matches %}{{ m.match_report(view, x, bots_then) }}{% endfor %}{% endfor %}"
    ).render(view=view)
    kept = "".join(_kept(app)(view, n, s, matches) for n, s, matches in reversed(view.listed_history))
    assert direct.count('<article class="match"') == 12
    assert re.sub(r"\s+", " ", kept).strip() == re.sub(r"\s+", " ", direct).strip()


# The team page shows single matches, not whole turns: each report is kept on its own
# (reports_cache.MatchReport), under the same inputs as a turn's.


def _kept_matches(app: FastAPI) -> Any:
    return app.state.templates.env.globals["kept_match_report"]


def _team_pages(app: FastAPI, game: Hosted) -> dict[str, str]:
    """Every team's page, read by a spectator."""
    view = _view(app, game)
    spectator = new_client(app)
    return {team: spectator.get(f"{game.base}/teams/{team}").text for team in sorted(view.teams)}


def _rendered_afresh(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on the team page renders each report with the macro itself, nothing kept."""
    macro = app.state.templates.env.get_template("macros.html").make_module().match_report
    monkeypatch.setitem(
        app.state.templates.env.globals, "kept_match_report", lambda view, match, bots: Markup(macro(view, match, bots))
    )


def test_each_match_report_is_rendered_once_for_every_team_page_that_shows_it(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = every_seat_taken(app)
    game.resolve(1, 2, 3)
    before = _kept_matches(app).cache_info()
    loads = [_team_pages(app, game) for _ in range(3)]
    after = _kept_matches(app).cache_info()
    # 8 teams, 3 matches each, 3 loads: 72 reports shown, 12 matches rendered once each
    assert after.misses - before.misses == 12
    assert after.hits - before.hits == 72 - 12
    assert all(pages == loads[0] for pages in loads)
    game_page = _articles(_reports(new_client(app).get(game.base).text))
    for team, page in loads[0].items():
        shown = _articles(_reports(page))
        assert len(shown) == 3, team
        # the same markup as the game page's report of that match
        assert all(shown[id] == game_page[id] for id in shown), team
    # and every team page byte for byte what the macro makes of each match afresh
    _rendered_afresh(app, monkeypatch)
    assert _team_pages(app, game) == loads[0]


def test_a_team_page_is_never_served_another_games_or_a_renamed_teams_report(app: FastAPI) -> None:
    one, two = every_seat_taken(app, name="One"), every_seat_taken(app, name="Two")
    one.resolve(1, 2)
    two.resolve(1, 2)
    for game in (one, two, one, two):
        document = new_client(app).get(f"/api/v1/games/{game.public_id}").json()
        for team, page in _team_pages(app, game).items():
            articles = _articles(_reports(page))
            played = [m for turn in document["turns"] for m in turn["matches"] if team in (m["home"]["team"], m["away"]["team"])]
            assert sorted(articles) == sorted(m["match"] for m in played), team
            for match in played:
                for side in (match["home"], match["away"]):
                    assert f"{side['scrum_before']} → {side['scrum_after']}" in articles[match["match"]]
                    assert f"{side['line']['points']} (" in articles[match["match"]]
    view = _view(app, one)
    team = sorted(view.teams)[0]
    told, bots_then = views.team_history(view, team).matches[0]
    kept = _kept_matches(app)
    shown = kept(view, told.match, bots_then)
    assert view.name(team) in shown
    renamed = dataclasses.replace(
        view, teams={**view.teams, team: dataclasses.replace(view.teams[team], name="Renamed Fifteen")}
    )
    assert "Renamed Fifteen" not in shown
    assert "Renamed Fifteen" in kept(renamed, told.match, bots_then)
    assert "Renamed Fifteen" not in kept(view, told.match, bots_then)
    # a seat that a bot played that turn is said so, the same match kept without it is not served
    assert "seat handed to the bots" not in shown
    missed = dataclasses.replace(told.match, home=dataclasses.replace(told.match.home, missed=True, autopilot="even"))
    handed = {told.match.home.team: "released"}
    assert "bot even (seat handed to the bots)" in kept(view, missed, handed)
    assert "missed: autopilot even (R13)" in kept(view, missed, {})
