"""The organiser sets the open turn's time left: brings the deadline forward or puts it back,
running or paused, within the 1 minute to 30 days a turn may last, logged with who and when."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy.orm import Session

from sevens.store import games as store
from sevens.store.errors import Conflict, Invalid
from sevens.store.models import GameStatus
from store.test_store_games import started


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


def test_only_a_running_or_paused_game_with_a_deadline_has_one_to_set(db: Session, now: datetime) -> None:
    untimed = started(db, now, turn_seconds=None)
    with pytest.raises(Conflict, match="no deadline"):
        store.set_deadline(db, game_id=untimed.id, seconds=600, now=now, actor="organiser")
    game = started(db, now, name="Second")
    store.end_game(db, game_id=game.id, now=now, actor="organiser")
    with pytest.raises(Conflict, match="only a running or paused game"):
        store.set_deadline(db, game_id=game.id, seconds=600, now=now, actor="organiser")
