"""The organiser hands a seat to the bots (a player dropped out): the seat's player loses it, its
saved orders of the open turn are never played nor shown (R13), its teams play the bots the
organiser picks, turns stop waiting for it, and a new link lets a friend take it over."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from sevens.store import games as store
from sevens.store.auth import add_grant, create_principal, revoke_seat, seats_held
from sevens.store.errors import Conflict, NotFound
from sevens.store.models import GameRow, GameStatus, OrderRow, PrincipalKind, Role, SeatRow
from sevens.tournament.verify import verify_record
from store.test_store_games import my_teams, spec, started


def _started_without_deadline(db: Session, now: datetime) -> GameRow:
    created = store.create_game(db, spec=spec(turn_seconds=None), now=now)
    for seat in store.seats_of(db, game_id=created.game.id):
        store.join_seat(db, seat=seat, name=f"Name {seat.player_id}", now=now)
        principal = create_principal(db, kind=PrincipalKind.SESSION, now=now)[0]
        add_grant(db, principal_id=principal.id, game_id=created.game.id, role=Role.PLAYER, player_id=seat.player_id)
    game = store.start_game(db, game_id=created.game.id, now=now)
    db.commit()
    return game


def _order(db: Session, game: GameRow, player_id: str, team: str, now: datetime, *, force: int, ready: bool) -> None:
    store.save_order(
        db, game_id=game.id, player_id=player_id, team_id=team, turn=game.current_turn,
        force=force, flair=0, ready=ready, via="test", now=now,
    )


def _order_all_but(db: Session, game: GameRow, now: datetime, *, but: set[str]) -> None:
    """Every team of every seat but ``but`` orders, ready."""
    state = store.load_game(game)
    managers = {t.team_id: t.player_id for t in store.teams_of(db, game_id=game.id)}
    for team in state.teams_in_play():
        pid = managers[team]
        if pid is None or pid in but:
            continue
        _order(db, game, pid, team, now, force=min(10, state.scrum(team)), ready=True)
    db.commit()


def _orders_of(record: dict[str, Any], turn: int, team: str) -> dict[str, Any]:
    for match in record["turns"][turn - 1]["matches"]:
        for side in ("home", "away"):
            if match[side] == team:
                return dict(match[f"{side}_order"])
    raise AssertionError(f"{team} played no match in turn {turn}")


def test_a_seat_its_player_left_still_holds_up_a_turn_until_handed_to_the_bots(db: Session, now: datetime) -> None:
    """The choice (docs/web.md): a seat whose player signed out or revoked their token stays
    claimed (its player may come back by a new link, as after a lost browser), so a game without a
    deadline waits for it; once the organiser hands it to the bots the turn goes on at once, its
    saved order discarded (R13: the record shows its autopilot's order, marked missed)."""
    game = _started_without_deadline(db, now)
    team = my_teams(db, game, "p4")[0]
    _order(db, game, "p4", team, now, force=7, ready=False)
    revoke_seat(db, game_id=game.id, player_id="p4")  # its only browser signed out
    db.commit()
    _order_all_but(db, game, now, but={"p4"})
    db.refresh(game)
    assert game.current_turn == 1, "a seat left by its player still holds the turn"
    assert store.order_states(db, game=game)[team] == store.OrderState.SAVED

    store.release_seat(db, game_id=game.id, player_id="p4", now=now, actor="organiser")
    db.commit()
    db.refresh(game)
    assert game.current_turn == 2, "handed to the bots, the seat no longer holds the turn"
    record = store.record_of(game)
    played = _orders_of(record, 1, team)
    assert (played["missed"], played["autopilot"]) == (True, "even"), played
    assert db.scalars(select(OrderRow).where(OrderRow.team_id == team, OrderRow.turn == 1)).all() == []
    seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game.id, SeatRow.player_id == "p4"))
    assert seat is not None and seat.name == "Name p4" and seat.joined_at is None
    assert "p4" not in seats_held(db, game_id=game.id)
    event = next(e for e in store.events_of(db, game_id=game.id) if e.kind == "seat to bots")
    assert (event.actor, event.at) == ("organiser", now)
    assert event.detail.startswith("p4 (Name p4): 0 browser(s) or token(s) lost it")
    assert "1 order(s) saved for turn 1 were discarded" in event.detail
    # Its teams are the organiser's to give a bot, and turns no longer wait for them.
    assert set(my_teams(db, game, "p4")) <= {t.team_id for t in store.house_teams(db, game=game)}
    assert store.order_states(db, game=game)[team] == store.OrderState.RELEASED


def test_a_seat_handed_to_the_bots_plays_their_bots_and_a_friend_can_take_it_over(db: Session, now: datetime) -> None:
    """The organiser picks the bot of the seat's teams, the record names it for each turn it
    played, a new link lets a friend take the seat over under its name (then the turns wait for
    it again), and the whole game's record verifies."""
    game = _started_without_deadline(db, now)
    store.release_seat(db, game_id=game.id, player_id="p4", now=now, actor="organiser")
    teams = my_teams(db, game, "p4")
    for team in teams:
        store.set_house_bot(db, game_id=game.id, team_id=team, strategy="group-blitz", now=now)
    db.commit()
    _order_all_but(db, game, now, but={"p4"})
    db.refresh(game)
    assert game.current_turn == 2
    for team in teams:
        played = _orders_of(store.record_of(game), 1, team)
        assert (played["missed"], played["autopilot"]) == (True, "group-blitz"), played

    token = store.reissue_invite(db, game_id=game.id, player_id="p4", now=now)
    seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game.id, SeatRow.player_id == "p4"))
    assert seat is not None
    store.join_seat(db, seat=seat, name="A friend", now=now)
    db.commit()
    assert token and seat.name == "Name p4", "names are fixed after the start"
    assert not set(teams) & {t.team_id for t in store.house_teams(db, game=game)}
    _order_all_but(db, game, now, but={"p4"})
    db.refresh(game)
    assert game.current_turn == 2, "taken over, the seat holds the turn again"
    _order_all_but(db, game, now, but=set())
    db.refresh(game)
    assert game.current_turn == 3
    while game.status == GameStatus.RUNNING:
        store.resolve_turn(db, game_id=game.id, turn=game.current_turn, reason="organiser", now=now)
        db.commit()
        db.refresh(game)
    report = verify_record(json.loads(json.dumps(store.record_of(game))))
    assert report.dice_checked and report.finished and report.champion == game.champion


def test_handing_a_seat_to_the_bots_in_the_lobby_frees_its_name(db: Session, now: datetime) -> None:
    """Before the start names are not fixed: the seat is open again, as if nobody had taken it."""
    created = store.create_game(db, spec=spec(), now=now)
    seat = store.seats_of(db, game_id=created.game.id)[1]
    store.join_seat(db, seat=seat, name="Leaver", now=now)
    store.release_seat(db, game_id=created.game.id, player_id="p2", now=now, actor="organiser")
    assert seat.name is None and seat.joined_at is None
    store.reissue_invite(db, game_id=created.game.id, player_id="p2", now=now)
    store.join_seat(db, seat=seat, name="Newcomer", now=now)
    assert seat.name == "Newcomer"


def test_handing_a_seat_to_the_bots_is_refused_when_it_makes_no_sense(db: Session, now: datetime) -> None:
    """Nobody has taken the seat, no such seat, or the game is over: nothing changes."""
    game = _started_without_deadline(db, now)
    with pytest.raises(NotFound):
        store.release_seat(db, game_id=game.id, player_id="p9", now=now)
    store.release_seat(db, game_id=game.id, player_id="p3", now=now)
    with pytest.raises(Conflict, match="nobody has taken seat p3"):
        store.release_seat(db, game_id=game.id, player_id="p3", now=now)
    store.end_game(db, game_id=game.id, now=now, actor="organiser")
    with pytest.raises(Conflict, match="the game is ended"):
        store.release_seat(db, game_id=game.id, player_id="p1", now=now)


def test_handing_the_last_played_seat_to_the_bots_lets_them_finish_the_game(db: Session, now: datetime) -> None:
    """As when nobody has taken a seat at the start: with no seat played the bots play on."""
    game = _started_without_deadline(db, now)
    for pid in ("p1", "p2", "p3", "p4"):
        store.release_seat(db, game_id=game.id, player_id=pid, now=now)
    db.commit()
    db.refresh(game)
    assert game.status == GameStatus.FINISHED
    assert verify_record(json.loads(json.dumps(store.record_of(game)))).finished


def test_a_seat_is_not_handed_over_between_its_turns_deadline_and_resolution(db: Session, now: datetime) -> None:
    """Saved orders count at the deadline: discarding the seat's then would change a closed turn."""
    game = started(db, now)
    team = my_teams(db, game, "p2")[0]
    _order(db, game, "p2", team, now, force=5, ready=False)
    db.commit()
    late = now + timedelta(hours=2)
    with pytest.raises(Conflict, match="the deadline of turn 1 has passed"):
        store.release_seat(db, game_id=game.id, player_id="p2", now=late)
    db.rollback()
    assert store.order_states(db, game=game)[team] == store.OrderState.SAVED
    store.extend_deadline(db, game_id=game.id, seconds=3600 * 2, now=late, actor="organiser")
    store.release_seat(db, game_id=game.id, player_id="p2", now=late)
