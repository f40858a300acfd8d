"""The outlook of a team's open group match (what a win, a draw and a loss lead to) walks every way
the group's matches can end: worked out for each page of a player, it was most of what their page
cost (a twentieth of a second a team), and the page is made again at every order saved. It is
kept while the game's record stays the same."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from sevens.store.games import load_game
from sevens.store.models import GameRow
from sevens.web import views
from web.web_helpers import host_game


def test_a_teams_outlook_is_worked_out_once_a_turn_not_at_every_page(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = host_game(app, hours="0")
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    asked: list[str] = []
    real = views.game_outlook

    def counted(state: Any, team: str) -> Any:
        asked.append(team)
        return real(state, team)

    monkeypatch.setattr(views, "game_outlook", counted)
    player = game.players["p1"]
    first = player.get(f"{game.base}/play").text
    teams = game.my_teams("p1")
    assert sorted(asked) == sorted(teams)
    for team in teams:
        assert game.order("p1", team, 9, 9).status_code == 303
    again = player.get(f"{game.base}/play").text
    assert sorted(asked) == sorted(teams), "the outlook was worked out again for a page of the same turn"
    assert "outlook" in first and "outlook" in again
    game.resolve(1)  # a new record: the outlook changes with the results
    player.get(f"{game.base}/play")
    assert sorted(asked) == sorted(teams + teams)


def test_the_kept_outlooks_do_not_hold_the_game_records(app: FastAPI) -> None:
    # A 16-team game's record is 75 kB by turn 3, and each request reads its own copy: 256 outlooks
    # keyed by the record's text held tens of megabytes of a small server's memory.
    import tracemalloc

    game = host_game(app, hours="0")
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    game.resolve(1, 2)  # turn 3 of 3 in the groups: a record of some size, an outlook still to tell
    with app.state.sessionmaker() as db:
        row = db.scalars(select(GameRow).where(GameRow.public_id == game.public_id)).one()
    assert row.record_json is not None
    state = load_game(row)
    team = game.my_teams("p1")[0]
    views._OUTLOOKS.clear()  # worked out afresh: no page of this game has been asked for
    size = len(row.record_json)
    tracemalloc.start()
    try:
        record = (row.record_json + " ")[:-1]  # a copy of its own, as another request reads it
        views._outlook(record, state, team)
        del record
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kept < size // 2, f"{kept} bytes kept for an outlook of a {size}-byte record"
