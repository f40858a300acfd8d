"""A turn worked out before the game's lock (store.plan_turn) is found by its resolution however
many other games planned theirs meanwhile, and never for inputs other than its own."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy.orm import Session, sessionmaker

from sevens.store import games as store
from store.test_store_games import my_teams, started


@pytest.fixture
def worked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Each turn worked out by the rules while the test runs (a planned turn found is not)."""
    turns: list[int] = []
    real = store.resolve_game_turn

    def counted(state: Any, *args: Any, **kwargs: Any) -> Any:
        turns.append(len(state.turns) + 1)
        return real(state, *args, **kwargs)

    monkeypatch.setattr(store, "resolve_game_turn", counted)
    yield turns


def _planned_game(factory: sessionmaker[Session], now: datetime, force: int = 9) -> tuple[int, str]:
    """A started 8-team game with one order saved (the other teams' autopilots play), its turn 1
    planned as the last order's request plans it: with no transaction open."""
    with factory() as db:
        game = started(db, now)
        team = my_teams(db, game, "p1")[0]
        store.save_order(
            db, game_id=game.id, player_id="p1", team_id=team, turn=1, force=force, flair=6,
            ready=False, via="web", now=now,
        )
        db.commit()
        game_id = game.id
    with factory() as db:
        assert store.plan_turn(db, game_id=game_id, turn=1)
    return game_id, team


def _resolve(factory: sessionmaker[Session], game_id: int, now: datetime) -> dict[str, Any]:
    with factory() as db:
        assert store.resolve_turn(db, game_id=game_id, turn=1, reason="deadline", now=now)
        db.commit()
        record = json.loads(store.game_by_id(db, game_id=game_id).record_json or "")
    turn = record["turns"][0]
    matches = turn["matches"] if isinstance(turn, dict) else turn
    orders = {m["home"]: m["home_order"] for m in matches}
    orders.update({m["away"]: m["away_order"] for m in matches})
    return orders


def test_a_planned_turn_is_found_after_24_other_games_planned_theirs(
    factory: sessionmaker[Session], now: datetime, worked: list[int]
) -> None:
    """Many games at one deadline: each plans its turn before any takes the lock. With one cache
    of 16 turns for all games the first game's plan was pushed out and worked again under its lock."""
    first, team = _planned_game(factory, now)
    for _ in range(24):
        _planned_game(factory, now)
    worked.clear()
    orders = _resolve(factory, first, now)
    assert worked == [], "the planned turn was worked out again under the game's lock"
    assert (orders[team]["force"], orders[team]["flair"], orders[team]["missed"]) == (9, 6, False)


def test_a_planned_turn_is_not_replayed_under_the_lock_after_70_other_games_planned_theirs(
    factory: sessionmaker[Session], now: datetime, worked: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The resolution reads its game's state replayed from the stored record: kept for 64 records,
    it was replayed again under the lock once 64 other games had planned (96 16-team games at their
    quarter-finals: the lock held 76 ms a resolution where 64 games held it 7 ms)."""
    first, _ = _planned_game(factory, now)
    for _ in range(70):
        _planned_game(factory, now)
    replayed: list[int] = []
    real = store.from_record

    def counted(data: Any) -> Any:
        replayed.append(len(data["turns"]))
        return real(data)

    monkeypatch.setattr(store, "from_record", counted)
    worked.clear()
    _resolve(factory, first, now)
    assert (worked, replayed) == ([], []), "the game was worked out or replayed again under its lock"


def test_an_order_changed_or_added_after_the_plan_is_worked_out_afresh(
    factory: sessionmaker[Session], now: datetime, worked: list[int]
) -> None:
    game_id, team = _planned_game(factory, now)
    with factory() as db:
        other = my_teams(db, store.game_by_id(db, game_id=game_id), "p2")[0]
        store.save_order(
            db, game_id=game_id, player_id="p1", team_id=team, turn=1, force=3, flair=0,
            ready=False, via="web", now=now,
        )
        store.save_order(
            db, game_id=game_id, player_id="p2", team_id=other, turn=1, force=7, flair=3,
            ready=False, via="web", now=now,
        )
        db.commit()
    worked.clear()
    orders = _resolve(factory, game_id, now)
    assert worked == [1]
    assert (orders[team]["force"], orders[team]["flair"], orders[team]["missed"]) == (3, 0, False)
    assert (orders[other]["force"], orders[other]["flair"], orders[other]["missed"]) == (7, 3, False)


def test_an_order_changed_back_finds_the_plan_and_plays_as_sent(
    factory: sessionmaker[Session], now: datetime, worked: list[int]
) -> None:
    """The plan is keyed by every input: the same orders again are the same turn."""
    game_id, team = _planned_game(factory, now)
    for force in (2, 9):
        with factory() as db:
            store.save_order(
                db, game_id=game_id, player_id="p1", team_id=team, turn=1, force=force, flair=6,
                ready=False, via="web", now=now,
            )
            db.commit()
    worked.clear()
    orders = _resolve(factory, game_id, now)
    assert worked == []
    assert (orders[team]["force"], orders[team]["flair"]) == (9, 6)


def test_planned_turns_kept_are_bounded_and_dropped_once_resolved(
    factory: sessionmaker[Session], now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = store.PlannedTurns(games=3)
    monkeypatch.setattr(store, "PLANNED", kept)
    ids = [_planned_game(factory, now, force=force)[0] for force in range(5)]
    assert kept.kept() == 3  # one turn each for the three games planned last
    for game_id in ids[-3:]:
        _resolve(factory, game_id, now)
    assert (kept.kept(), kept.hits, kept.misses) == (0, 3, 5)
