"""Resolving a turn takes the game's lock (on SQLite, the write lock of the whole file, which every
game's orders wait for) only to check and write: the bots' orders for the teams that sent none,
which in a knockout can take a second of odds, are worked out before it (store.plan_turn)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sevens.store import games as store
from sevens.store.db import session_scope
from sevens.store.models import GameStatus
from sevens.web.scheduler import resolve_if_still_due, run_scheduler
from web.web_helpers import FakeClock, Hosted, host_game, new_client, post_form, statements_sent


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


@pytest.mark.parametrize("through", ["page", "api"])
def test_the_last_ready_order_is_kept_and_its_turn_worked_out_before_the_lock(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch, through: str
) -> None:
    """The order that makes the turn ready is committed first; the bots then play the turn with
    no connection held (so no lock: on SQLite the whole file's), and the lock is taken only to
    check the inputs again and write."""
    game = host_game(app, arrangement="4-8-2", hours="0")
    # The other three seats stay empty: their teams are the bots'.
    if through == "page":
        game.join("p1", "Ann")
        game.start()
        first, last = game.my_teams("p1")
        assert game.order("p1", first, 9, 9, action="ready").status_code == 303
        held = _watch_the_bots(app, monkeypatch)
        assert game.order("p1", last, 7, 3, action="ready").status_code == 303
    else:
        client = new_client(app)
        joined = client.post("/api/v1/join", json={"invite": game.invites["p1"], "name": "bot Ann"})
        assert joined.status_code == 200, joined.text
        ann = {"Authorization": f"Bearer {joined.json()['token']}"}
        game.start()
        view = client.get(f"/api/v1/games/{game.public_id}", headers=ann).json()
        first, last = (t["team"] for t in view["my_teams"])
        orders = f"/api/v1/games/{game.public_id}/orders"
        answer = client.put(f"{orders}/{first}", json={"turn": 1, "force": 9, "flair": 9, "ready": True}, headers=ann)
        assert answer.status_code == 200 and answer.json()["resolved"] is False, answer.text
        held = _watch_the_bots(app, monkeypatch)
        answer = client.put(f"{orders}/{last}", json={"turn": 1, "force": 7, "flair": 3, "ready": True}, headers=ann)
        assert answer.status_code == 200, answer.text
        assert answer.json()["resolved"] is True
    assert held and all(n == 0 for n in held), f"connections held while the bots played the turn: {held}"
    assert game.turn() == 2
    played = _orders_of_turn_1(game.organiser.get(f"{game.base}/record.json").json())
    assert (played[first]["force"], played[first]["flair"], played[last]["force"], played[last]["flair"]) == (9, 9, 7, 3)
    assert sum(o["missed"] for o in played.values()) == 6  # the empty seats' teams


def test_the_bots_only_turns_after_the_last_ready_order_are_worked_out_before_the_lock(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the last human team is out, the order that put it out resolves every turn left to the
    final (bots only): all of them worked out with no connection held."""
    held = _watch_the_bots(app, monkeypatch)
    for _attempt in range(5):  # a team playing 0+0 nearly always goes out before the final
        held.clear()
        game = host_game(app, arrangement="8-8-1", hours="0")
        game.join("p1", "Ann")
        game.start()
        turns = []
        while mine := game.my_teams("p1"):
            turns.append(game.turn())
            assert game.order("p1", mine[0], 0, 0, action="ready").status_code == 303
        if game.turn() == 0 and turns[-1] < 6:  # out before the final, which the bots then played
            break
    else:
        pytest.fail("Ann's team reached the final in every game")
    with session_scope(app.state.sessionmaker) as session:
        game_id = store.game_by_public_id(session, public_id=game.public_id).id
        assert store.resolved_together(session, game_id=game_id, first=turns[-1])
    assert held and all(n == 0 for n in held), f"connections held while the bots played: {held}"


def test_two_last_orders_racing_resolve_the_turn_once(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann's last order completes the turn; while the bots play it for her request (no lock
    held), Ben sends his ready order again, which completes it too: the turn is resolved once,
    by whichever takes the lock first, with both orders as sent, and the next turn stays open."""
    game = host_game(app, arrangement="4-8-2", hours="0")
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    game.start()
    ann, ben = game.my_teams("p1"), game.my_teams("p2")
    for team in ben:
        assert game.order("p2", team, 5, 6, action="ready").status_code == 303
    assert game.order("p1", ann[0], 9, 9, action="ready").status_code == 303
    # Ben's, from another worker: on the old path it waited for the lock Ann's request held.
    bens_again = lambda: game.order("p2", ben[0], 5, 6, action="ready", turn=1).status_code  # noqa: E731
    with _as_the_bots_first_think(monkeypatch, bens_again) as answers:
        assert game.order("p1", ann[1], 8, 3, action="ready").status_code == 303
    assert answers[:3] == [0, 303, 0], f"Ben's order waited for Ann's request to resolve the turn: {answers}"
    assert game.turn() == 2
    with session_scope(app.state.sessionmaker) as session:
        game_id = store.game_by_public_id(session, public_id=game.public_id).id
        resolved = [e.detail for e in store.events_of(session, game_id=game_id) if e.kind == "resolved"]
    assert resolved == ["turn 1 (all-ready)"]
    played = _orders_of_turn_1(game.organiser.get(f"{game.base}/record.json").json())
    assert [(played[t]["force"], played[t]["flair"]) for t in ann + ben] == [(9, 9), (8, 3), (5, 6), (5, 6)]


@contextlib.contextmanager
def _as_the_bots_first_think(monkeypatch: pytest.MonkeyPatch, act: Callable[[], int]) -> Iterator[list[int]]:
    """``act`` (a request, answering its status) sent from a thread of its own, as another worker
    would, when the bots are first asked for orders in the block, and given 15 s, far more than it
    needs: on the old path it waited for the lock the block's request held. The list yielded reads
    ``[0, act's status, 1 if it was still waiting else 0]`` once the block has ended."""
    answers: list[int] = []
    threads: list[threading.Thread] = []
    real = store.autopilot_orders

    def meanwhile(*args: Any, **kwargs: Any) -> Any:
        if not answers:
            answers.append(0)
            other = threading.Thread(target=lambda: answers.append(act()))
            other.start()
            other.join(timeout=15)
            answers.append(int(other.is_alive()))
            threads.append(other)
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "autopilot_orders", meanwhile)
    yield answers
    for thread in threads:
        thread.join()


def _watch_the_bots(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The connections checked out each time the bots are asked (none: no transaction, no lock)."""
    held: list[int] = []
    real = store.autopilot_orders

    def watched(*args: Any, **kwargs: Any) -> Any:
        held.append(app.state.engine.pool.checkedout())
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "autopilot_orders", watched)
    return held


def test_a_turn_left_with_every_order_ready_by_a_stopped_server_is_resolved_when_it_starts(
    app: FastAPI, clock: FakeClock
) -> None:
    """A last ready order is committed before its turn is worked out; a server stopped between the
    two left a game with no deadline waiting for nothing, until someone pressed Ready again. The
    scheduler's first poll now resolves such a turn, and leaves a turn still waiting for an order."""
    waiting = host_game(app, name="Still waiting", arrangement="4-8-2", hours="0")
    stranded = host_game(app, name="Stranded", arrangement="4-8-2", hours="0")
    for game in (waiting, stranded):
        game.join("p1", "Ann")
        game.start()
    first, last = stranded.my_teams("p1")
    with session_scope(app.state.sessionmaker) as session:
        # What the order's request had committed when the server stopped.
        game_id = store.game_by_public_id(session, public_id=stranded.public_id).id
        for team in (first, last):
            store.save_order(
                session, game_id=game_id, player_id="p1", team_id=team, turn=1, force=9, flair=9,
                ready=True, via="web", now=clock(), then_advance=False,
            )
    assert waiting.order("p1", waiting.my_teams("p1")[0], 5, 3, action="ready").status_code == 303
    assert stranded.turn() == 1 and waiting.turn() == 1

    async def start_then_stop() -> None:
        task = asyncio.create_task(run_scheduler(app.state.sessionmaker, clock=clock, interval=60))
        await asyncio.sleep(3)  # the first poll has run; the next is a minute away
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    asyncio.run(start_then_stop())
    assert stranded.turn() == 2
    played = _orders_of_turn_1(stranded.organiser.get(f"{stranded.base}/record.json").json())
    assert (played[first]["force"], played[first]["flair"], played[last]["missed"]) == (9, 9, False)
    assert waiting.turn() == 1, "a turn still waiting for an order was resolved"


def _api_organiser(app: FastAPI, players: int = 4) -> tuple[TestClient, dict[str, str], dict[str, Any]]:
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Bots only", "players": players, "deadline_hours": 0}).json()
    return client, {"Authorization": f"Bearer {created['token']}"}, created


def _status_of(app: FastAPI, public_id: str) -> tuple[GameStatus, int]:
    with session_scope(app.state.sessionmaker) as session:
        game = store.game_by_public_id(session, public_id=public_id)
        return game.status, game.current_turn


@pytest.mark.parametrize("through", ["page", "api"])
def test_a_start_with_no_seat_taken_is_kept_then_the_bots_play_it_through_before_the_lock(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch, through: str
) -> None:
    """Nobody took a seat: every turn is the bots'. They played the whole tournament in the start's
    own transaction, under the game's lock (on SQLite the file's, which every game's orders wait
    for): 3.5-8.4 s for 16 odds-aware bots. The start is now committed first and the turns worked
    out with no connection held, the lock taken only to check and write."""
    held = _watch_the_bots(app, monkeypatch)
    if through == "page":
        game = host_game(app, arrangement="8-8-1", hours="0")
        game.start()
        public_id = game.public_id
    else:
        client, organiser, created = _api_organiser(app)
        public_id = created["game"]
        answer = client.post(f"/api/v1/games/{public_id}/start", headers=organiser)
        assert answer.status_code == 200, answer.text
        assert answer.json()["status"] == "finished"
    assert _status_of(app, public_id)[0] == GameStatus.FINISHED
    assert held and all(n == 0 for n in held), f"connections held while the bots played: {held}"
    with session_scope(app.state.sessionmaker) as session:
        game_id = store.game_by_public_id(session, public_id=public_id).id
        assert store.resolved_together(session, game_id=game_id, first=1)
        kinds = [e.kind for e in store.events_of(session, game_id=game_id)]
    assert kinds[:2] == ["created", "started"] and kinds.count("resolved") == len(held)


@pytest.mark.parametrize("through", ["page", "api"])
def test_the_last_seat_handed_to_the_bots_is_kept_then_the_bots_play_on_before_the_lock(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch, through: str
) -> None:
    """Once the last player's seat is handed to the bots every turn left is theirs: they were all
    played in the hand-over's transaction, under the lock. The hand-over is now committed first."""
    game = host_game(app, arrangement="4-8-2", hours="0")
    if through == "page":
        game.join("p1", "Ann")
        game.start()
        held = _watch_the_bots(app, monkeypatch)
        assert post_form(game.organiser, f"{game.base}/seats/p1/release").status_code == 303
    else:
        client = new_client(app)
        assert client.post("/api/v1/join", json={"invite": game.invites["p1"], "name": "bot Ann"}).status_code == 200
        game.start()
        token = client.post("/api/v1/organise", json={"link": game.organiser_link}).json()["token"]
        held = _watch_the_bots(app, monkeypatch)
        answer = client.post(
            f"/api/v1/games/{game.public_id}/seats/p1/release", headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["status"] == "finished"
    assert _status_of(app, game.public_id)[0] == GameStatus.FINISHED
    assert held and all(n == 0 for n in held), f"connections held while the bots played: {held}"
    with session_scope(app.state.sessionmaker) as session:
        game_id = store.game_by_public_id(session, public_id=game.public_id).id
        kinds = [e.kind for e in store.events_of(session, game_id=game_id)]
    assert "seat to bots" in kinds and kinds.index("seat to bots") < kinds.index("resolved")


def test_the_organiser_can_act_on_the_game_while_the_bots_play_the_seat_handed_to_them(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the bots play the turns left after the last seat was handed to them, the game is not
    locked: the organiser's new link for another seat (which takes the game's lock) goes through
    at once. It waited for the bots before, on SQLite and on PostgreSQL alike."""
    game = host_game(app, arrangement="4-8-2", hours="0")
    game.join("p1", "Ann")
    game.start()
    new_link = lambda: post_form(game.organiser, f"{game.base}/seats/p2/invite").status_code  # noqa: E731
    with _as_the_bots_first_think(monkeypatch, new_link) as answers:
        assert post_form(game.organiser, f"{game.base}/seats/p1/release").status_code == 303
    assert answers[:3] == [0, 200, 0], f"the organiser's act waited for the bots: {answers}"
    assert _status_of(app, game.public_id)[0] == GameStatus.FINISHED
