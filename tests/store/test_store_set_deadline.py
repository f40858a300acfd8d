"""The organiser sets the open turn's time left: brings the deadline forward or puts it back,
running or paused, within the 1 minute to 30 days a turn may last, logged with who and when."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy.orm import Session

from sevens.store import games as store
from sevens.store.errors import Conflict, Invalid
from sevens.store.models import GameStatus
from store.test_store_games import spec, started


def test_the_deadline_is_brought_forward_or_put_back_and_logged(db: Session, now: datetime) -> None:
    game = started(db, now, turn_seconds=24 * 3600)
    later = now + timedelta(hours=1)
    store.set_deadline(db, game_id=game.id, seconds=1800, now=later, actor="organiser")
    assert game.deadline_at == later + timedelta(minutes=30), "brought forward from a day to half an hour"
    store.set_deadline(db, game_id=game.id, seconds=3 * 24 * 3600, now=later, actor="organiser")
    assert game.deadline_at == later + timedelta(days=3), "put back past the turn's usual length"
    event = store.events_of(db, game_id=game.id)[-1]
    assert (event.at, event.actor, event.kind) == (later, "organiser", "deadline set")
    assert event.detail == f"deadline {(later + timedelta(days=3)).isoformat()}"


def test_a_paused_game_keeps_the_time_set_for_its_resume(db: Session, now: datetime) -> None:
    game = started(db, now)
    store.pause_game(db, game_id=game.id, now=now, actor="organiser")
    store.set_deadline(db, game_id=game.id, seconds=600, now=now, actor="organiser")
    assert (game.status, game.paused_remaining, game.deadline_at) == (GameStatus.PAUSED, 600, None)
    assert store.events_of(db, game_id=game.id)[-1].detail == "600 s left"
    store.resume_game(db, game_id=game.id, now=now, actor="organiser")
    assert game.deadline_at == now + timedelta(minutes=10)


def test_a_passed_deadline_set_again_reopens_the_turn(db: Session, now: datetime) -> None:
    """As Extend: a turn past its deadline but not resolved yet takes orders again."""
    game = started(db, now)
    late = now + timedelta(hours=2)
    assert store.past_deadline(game.status, game.deadline_at, late)
    store.set_deadline(db, game_id=game.id, seconds=900, now=late, actor="organiser")
    assert not store.past_deadline(game.status, game.deadline_at, late)


@pytest.mark.parametrize("seconds", [-60, 0, 59, 30 * 24 * 3600 + 1])
def test_a_deadline_in_the_past_or_too_far_is_refused(db: Session, now: datetime, seconds: int) -> None:
    game = started(db, now)
    before = game.deadline_at
    with pytest.raises(Invalid, match="1 minute to 30 days from now"):
        store.set_deadline(db, game_id=game.id, seconds=seconds, now=now, actor="organiser")
    assert game.deadline_at == before


def test_only_a_running_or_paused_game_has_a_deadline_to_set(db: Session, now: datetime) -> None:
    game = started(db, now, name="Second")
    store.end_game(db, game_id=game.id, now=now, actor="organiser")
    with pytest.raises(Conflict, match="only a running or paused game"):
        store.set_deadline(db, game_id=game.id, seconds=600, now=now, actor="organiser")


def test_a_running_game_without_a_deadline_gets_one_for_this_turn_and_the_later_ones(
    db: Session, now: datetime
) -> None:
    """A game created without a deadline could never be given one ("no deadline" was refused), so
    an organiser whose friends went quiet had to resolve each turn by hand. Now the open turn
    closes ``seconds`` from now and every later turn lasts as long, logged with who and when."""
    game = started(db, now, turn_seconds=None)
    later = now + timedelta(hours=5)
    store.set_deadline(db, game_id=game.id, seconds=7200, now=later, actor="organiser")
    assert (game.turn_seconds, game.deadline_at) == (7200, later + timedelta(hours=2))
    event = store.events_of(db, game_id=game.id)[-1]
    assert (event.at, event.actor, event.kind) == (later, "organiser", "deadline set")
    assert event.detail == f"turns of 7200 s from now on; deadline {(later + timedelta(hours=2)).isoformat()}"
    resolved_at = later + timedelta(minutes=10)
    assert store.resolve_turn(db, game_id=game.id, turn=1, reason="organiser", now=resolved_at, actor="organiser")
    assert (game.current_turn, game.deadline_at) == (2, resolved_at + timedelta(hours=2))
    store.pause_game(db, game_id=game.id, now=resolved_at, actor="organiser")  # a clock like any other


def test_a_game_without_a_deadline_gets_none_before_its_start_or_after_its_end(db: Session, now: datetime) -> None:
    lobby = store.create_game(db, spec=spec(turn_seconds=None, name="Lobby"), now=now).game
    with pytest.raises(Conflict, match="one can be set while it is running"):
        store.set_deadline(db, game_id=lobby.id, seconds=600, now=now, actor="organiser")
    ended = started(db, now, turn_seconds=None, name="Over")
    store.end_game(db, game_id=ended.id, now=now, actor="organiser")
    with pytest.raises(Conflict, match="one can be set while it is running"):
        store.set_deadline(db, game_id=ended.id, seconds=600, now=now, actor="organiser")
    assert (ended.turn_seconds, ended.deadline_at) == (None, None)
