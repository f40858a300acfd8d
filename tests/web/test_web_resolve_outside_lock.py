"""Resolving a turn takes the game's lock (on SQLite, the write lock of the whole file, which every
game's orders wait for) only to check and write: the bots' orders for the teams that sent none,
which in a knockout can take a second of odds, are worked out before it (store.plan_turn)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi import FastAPI

from sevens.store import games as store
from sevens.store.db import session_scope
from sevens.web.scheduler import resolve_if_still_due
from web.web_helpers import FakeClock, Hosted, host_game, new_client, statements_sent


def test_the_bots_play_a_resolved_turn_before_the_game_is_locked(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, team = _started_with_an_order(app, "8-8-1", players=8)
    locked: list[bool] = []  # whether the game's lock was taken when the bots were asked
    real = store.autopilot_orders

    def watched(*args: Any, **kwargs: Any) -> Any:
        locked.append(any(re.match(r"\s*UPDATE games SET current_turn", s) for s in sent))
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "autopilot_orders", watched)
    with statements_sent(app) as sent:
        game.resolve(1)
    assert locked == [False], "the bots were asked for orders while the game was locked"
    assert any(re.match(r"\s*UPDATE games SET current_turn", s) for s in sent)
    assert game.turn() == 2
    # Worked out once, from what the lock then confirmed: the saved order counted as sent.
    played = _orders_of_turn_1(game.organiser.get(f"{game.base}/record.json").json())
    assert (played[team]["force"], played[team]["flair"], played[team]["missed"]) == (9, 9, False)
    assert sum(o["missed"] for o in played.values()) == 7  # the other players' teams


def test_an_order_changed_after_the_plan_is_the_one_played(app: FastAPI) -> None:
    """The plan is only a head start: what resolves the turn is read again under the lock."""
    game, team = _started_with_an_order(app, "4-8-2", players=4)
    with session_scope(app.state.sessionmaker) as session:
        game_id = store.game_by_public_id(session, public_id=game.public_id).id
        store.plan_turn(session, game_id=game_id, turn=1)
    assert game.order("p1", team, 3, 6).status_code == 303
    game.resolve(1)
    played = _orders_of_turn_1(game.organiser.get(f"{game.base}/record.json").json())
    assert (played[team]["force"], played[team]["flair"], played[team]["missed"]) == (3, 6, False)


def _started_with_an_order(app: FastAPI, arrangement: str, *, players: int) -> tuple[Hosted, str]:
    """A started game, every seat taken, and player 1's first team's order 9+9 saved."""
    game = host_game(app, arrangement=arrangement, hours="0")
    for number in range(1, players + 1):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    team = game.my_teams("p1")[0]
    assert game.order("p1", team, 9, 9).status_code == 303
    return game, team


def _orders_of_turn_1(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    turn = record["turns"][0]
    matches = turn["matches"] if isinstance(turn, dict) else turn
    orders = {}
    for match in matches:
        orders[match["home"]] = match["home_order"]
        orders[match["away"]] = match["away_order"]
    return orders



@pytest.mark.parametrize("through", ["page", "api", "scheduler"])
def test_no_database_connection_is_held_while_the_bots_play_the_turn(
    app: FastAPI, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, through: str
) -> None:
    """A web worker on SQLite has one connection: held while the bots thought, every poll and page
    of every game on that worker waited for them. The organiser's Resolve (page and API) and the
    deadline's resolution give it back first."""
    held: list[int] = []
    real = store.autopilot_orders

    def watched(*args: Any, **kwargs: Any) -> Any:
        held.append(app.state.engine.pool.checkedout())
        return real(*args, **kwargs)

    if through == "api":
        client = new_client(app)
        created = client.post("/api/v1/games", json={"name": "Held", "players": 4}).json()
        organiser = {"Authorization": f"Bearer {created['token']}"}
        public_id = created["game"]
        joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "bot Ann"})
        assert joined.status_code == 200, joined.text
        assert client.post(f"/api/v1/games/{public_id}/start", headers=organiser).status_code == 200
        monkeypatch.setattr(store, "autopilot_orders", watched)
        resolved = client.post(f"/api/v1/games/{public_id}/resolve", headers=organiser, json={"turn": 1})
        assert resolved.status_code == 200, resolved.text
        assert resolved.json()["turn"] == 2
    else:
        game = host_game(app, hours="1")
        game.join("p1", "Ann")
        game.start()
        monkeypatch.setattr(store, "autopilot_orders", watched)
        if through == "page":
            game.resolve(1)
        else:
            with session_scope(app.state.sessionmaker) as session:
                game_id = store.game_by_public_id(session, public_id=game.public_id).id
            clock.advance(hours=2)
            assert resolve_if_still_due(app.state.sessionmaker, game_id=game_id, turn=1, now=clock()) == 1
        assert game.turn() == 2
    assert held and held[0] == 0, f"connections held while the bots played the turn: {held}"
