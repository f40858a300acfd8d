"""A player's page works out the group tables once, not once per team and odds question: they
were about nine of a 4-player game's page (~13 ms of it) in the groups."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi import FastAPI

from sevens.tournament import game as game_module
from web.web_helpers import host_game


def test_a_players_page_works_out_each_group_table_at_most_once(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = host_game(app, arrangement="4-8-2", hours="0")
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    game.resolve(1, 2)  # results in the tables, the groups still open
    worked: list[str] = []
    real = game_module.group_table

    def counted(*args: Any, **kwargs: Any) -> Any:
        worked.append(args[-1])
        return real(*args, **kwargs)

    monkeypatch.setattr(game_module, "group_table", counted)
    page = game.players["p1"].get(f"{game.base}/play")
    assert page.status_code == 200
    # Two teams, each with an order form asking its odds, a progress line and the two tables.
    assert len(re.findall(r'class="order-form"', page.text)) == 2
    assert game.players["p2"].get(f"{game.base}/play").status_code == 200
    # Worked out with the record's first replay (store._replay), whichever request that was, and
    # kept on that frozen value for every page after: at most once per group in all.
    assert len(worked) == len(set(worked)) <= 2, f"tables worked out {len(worked)} times: {worked}"
    assert "Group A" in page.text and "Group B" in page.text
