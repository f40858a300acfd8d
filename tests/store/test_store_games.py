"""The store: games, seats, orders, resolution once and only once, deadlines (SQLite and PostgreSQL)."""

from __future__ import annotations

import hashlib
import json
import threading
from datetime import datetime, timedelta

import pytest
from sqlalchemy import Engine, func, inspect, select
from sqlalchemy.orm import Session, sessionmaker

from sevens.rules import seed_commitment
from sevens.store import games as store
from sevens.store.auth import Access, access_to, add_grant, create_principal, game_by_organiser_link
from sevens.store.errors import Conflict, Invalid, Refused
from sevens.store.models import (
    Base,
    EventRow,
    GameRow,
    GameStatus,
    OrderLogRow,
    OrderRow,
    PrincipalKind,
    Role,
    TurnRow,
    Visibility,
)
from sevens.store.ratelimit import count_failure
from sevens.tournament.verify import verify_record
from sevens.web.scheduler import resolve_due, resolve_if_still_due


def spec(**changes: object) -> store.NewGame:
    values: dict[str, object] = {
        "name": "Test cup",
        "players": 4,
        "teams": 8,
        "teams_per_player": 2,
        "turn_seconds": 3600,
        "default_bot": "even",
        "visibility": Visibility.PUBLIC,
    }
    values.update(changes)
    return store.NewGame(**values)  # type: ignore[arg-type]


def started(db: Session, now: datetime, **changes: object) -> GameRow:
    created = store.create_game(db, spec=spec(**changes), now=now)
    for seat in store.seats_of(db, game_id=created.game.id):
        store.join_seat(db, seat=seat, name=f"Name {seat.player_id}", now=now)
    game = store.start_game(db, game_id=created.game.id, now=now)
    db.commit()
    return game


def my_teams(db: Session, game: GameRow, player_id: str) -> list[str]:
    return [t.team_id for t in store.teams_of(db, game_id=game.id) if t.player_id == player_id]


def count(db: Session, model: type[Base]) -> int:
    return int(db.scalar(select(func.count()).select_from(model)) or 0)


def order_all(
    db: Session, game: GameRow, now: datetime, *, ready: bool = True, skip: str | None = None
) -> None:
    state = store.load_game(game)
    managers = {t.team_id: t.player_id for t in store.teams_of(db, game_id=game.id)}
    for team in state.teams_in_play():
        pid = managers[team]
        if pid is None or team == skip:
            continue
        scrum = state.scrum(team)
        store.save_order(
            db,
            game_id=game.id,
            player_id=pid,
            team_id=team,
            turn=game.current_turn,
            force=min(10, scrum),
            flair=0,
            ready=ready,
            via="test",
            now=now,
        )
    db.commit()


def test_migrations_create_every_table(db: Session) -> None:
    """Alembic's head revision builds exactly the tables the models declare."""
    names = set(inspect(db.get_bind()).get_table_names())
    assert set(Base.metadata.tables) <= names
    assert "alembic_version" in names


def test_r14_create_game_commits_to_a_secret_seed(db: Session, now: datetime) -> None:
    """R14: the seed's SHA-256 is published when the game is created; secrets are stored hashed."""
    created = store.create_game(db, spec=spec(), now=now)
    db.commit()
    game = created.game
    assert game.seed_sha256 == seed_commitment(game.seed_hex)
    assert len(bytes.fromhex(game.seed_hex)) == 32
    assert game.organiser_link_hash == hashlib.sha256(created.organiser_token.encode()).hexdigest()
    seats = store.seats_of(db, game_id=game.id)
    assert [s.player_id for s in seats] == ["p1", "p2", "p3", "p4"]
    for (pid, token), seat in zip(created.invites, seats, strict=True):
        assert seat.player_id == pid
        assert seat.invite_hash == hashlib.sha256(token.encode()).hexdigest()
        assert len(token) >= 22  # at least 128 bits in URL-safe base64


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"players": 3}, "R12"),
        ({"players": 17}, "R12"),
        ({"teams": 12}, "R6"),
        ({"teams_per_player": 1}, "R12"),  # fewer than 8 players need at least two teams each
        ({"turn_seconds": 5}, "deadline"),
        ({"default_bot": "nobody"}, "R13"),
        ({"name": "   "}, "empty"),
        ({"name": "x" * 81}, "80"),
    ],
)
def test_create_game_refuses_bad_settings(
    db: Session, now: datetime, changes: dict[str, object], words: str
) -> None:
    """A bad name, format (R6, R12), deadline or bot is refused with a message and writes nothing."""
    with pytest.raises(Invalid, match=words):
        store.create_game(db, spec=spec(**changes), now=now)
    db.rollback()
    assert count(db, GameRow) == 0


def test_r12_start_draws_two_teams_each_in_different_groups(db: Session, now: datetime) -> None:
    """R12: each player manages the same number of teams, never two in one group."""
    game = started(db, now)
    assert game.status == GameStatus.RUNNING and game.current_turn == 1
    assert game.deadline_at == now + timedelta(hours=1)
    teams = store.teams_of(db, game_id=game.id)
    assert len(teams) == 8
    for pid in ("p1", "p2", "p3", "p4"):
        groups = [t.group for t in teams if t.player_id == pid]
        assert len(groups) == 2 and len(set(groups)) == 2
    with pytest.raises(Conflict):
        store.start_game(db, game_id=game.id, now=now)


def test_r3_refused_order_changes_nothing(db: Session, now: datetime) -> None:
    """R3: an order over the balance or with FLAIR not a multiple of 3 is refused; nothing is written."""
    game = started(db, now)
    team = my_teams(db, game, "p1")[0]
    for force, flair, words in ((90, 30, "R3"), (0, 4, "multiple of 3"), (-1, 0, "negative")):
        with pytest.raises(Invalid, match=words):
            store.save_order(
                db,
                game_id=game.id,
                player_id="p1",
                team_id=team,
                turn=1,
                force=force,
                flair=flair,
                ready=False,
                via="test",
                now=now,
            )
        db.rollback()
    assert count(db, OrderRow) == 0 and count(db, OrderLogRow) == 0


def test_orders_tagged_with_turn_and_team(db: Session, now: datetime) -> None:
    """An order for a turn that has moved on, or for another player's team, is refused."""
    game = started(db, now)
    mine, theirs = my_teams(db, game, "p1")[0], my_teams(db, game, "p2")[0]
    with pytest.raises(Conflict, match="turn 2"):
        store.save_order(
            db,
            game_id=game.id,
            player_id="p1",
            team_id=mine,
            turn=2,
            force=1,
            flair=0,
            ready=False,
            via="test",
            now=now,
        )
    db.rollback()
    with pytest.raises(Refused):
        store.save_order(
            db,
            game_id=game.id,
            player_id="p1",
            team_id=theirs,
            turn=1,
            force=1,
            flair=0,
            ready=False,
            via="test",
            now=now,
        )
    db.rollback()
    assert count(db, OrderRow) == 0


def test_every_submission_is_logged_and_changes_until_resolution(db: Session, now: datetime) -> None:
    """Each submission is written at once to the orders and appended to the log; the last one counts."""
    game = started(db, now)
    team = my_teams(db, game, "p1")[0]
    for force in (5, 7, 9):
        store.save_order(
            db,
            game_id=game.id,
            player_id="p1",
            team_id=team,
            turn=1,
            force=force,
            flair=3,
            ready=False,
            via="test",
            now=now,
        )
        db.commit()
    assert count(db, OrderLogRow) == 3
    own = store.orders_of_player(db, game_id=game.id, turn=1, player_id="p1")
    assert (own[team].force, own[team].flair, own[team].ready) == (9, 3, False)
    assert store.orders_of_player(db, game_id=game.id, turn=1, player_id="p2") == {}
    assert store.order_states(db, game=game)[team] == store.OrderState.SAVED


def test_turn_resolved_when_all_orders_ready(db: Session, now: datetime) -> None:
    """When every order of the turn is ready the turn is resolved at once; orders then become public."""
    game = started(db, now)
    order_all(db, game, now, ready=True)
    db.refresh(game)
    assert game.current_turn == 2
    record = store.record_of(game)
    first = record["turns"][0]
    assert first["number"] == 1 and len(first["matches"]) == 4
    assert all(m["home_order"]["missed"] is False for m in first["matches"])
    assert {m["home_order"]["force"] for m in first["matches"]} == {10}
    assert db.scalar(select(TurnRow.reason)) == "all-ready"


def test_saved_orders_count_at_the_deadline_and_r13_missed_orders_play_autopilot(
    db: Session, factory: sessionmaker[Session], now: datetime
) -> None:
    """R13: at the deadline saved orders count; a team without one plays its autopilot, marked missed."""
    game = started(db, now)
    skipped = my_teams(db, game, "p4")[0]
    order_all(db, game, now, ready=False, skip=skipped)
    assert resolve_due(factory, now=now + timedelta(minutes=59)) == 0
    # A fresh session factory stands for a restarted server: the deadline lives in the database.
    assert resolve_due(factory, now=now + timedelta(hours=1)) == 1
    db.expire_all()
    game = db.get(GameRow, game.id)
    assert game is not None and game.current_turn == 2
    assert game.deadline_at == now + timedelta(hours=2)
    sides = [(m["home"], m["home_order"]) for m in store.record_of(game)["turns"][0]["matches"]]
    sides += [(m["away"], m["away_order"]) for m in store.record_of(game)["turns"][0]["matches"]]
    by_team = dict(sides)
    assert by_team[skipped]["missed"] is True and by_team[skipped]["autopilot"] == "even"
    assert sum(o["missed"] for o in by_team.values()) == 1
    assert all(o["force"] == 10 for t, o in by_team.items() if t != skipped)


@pytest.mark.parametrize("act", ["pause", "extend"])
def test_a_turn_found_due_then_paused_or_extended_is_not_resolved_by_the_scheduler(
    factory: sessionmaker[Session], now: datetime, act: str
) -> None:
    """The scheduler finds the overdue turns in one transaction and resolves each in another: a Pause
    or Extend pressed between the two reopened the turn for the organiser and the players, and the
    scheduler resolved it all the same (a paused game too)."""
    due_at = now + timedelta(hours=1)
    with factory() as db:
        game_id = started(db, now).id
        assert store.due_turns(db, now=due_at) == [(game_id, 1)]
        if act == "pause":
            store.pause_game(db, game_id=game_id, now=due_at, actor="organiser")
        else:
            store.extend_deadline(db, game_id=game_id, seconds=600, now=due_at, actor="organiser")
        db.commit()
    assert resolve_if_still_due(factory, game_id=game_id, turn=1, now=due_at) == 0
    with factory() as db:
        game = db.get(GameRow, game_id)
        assert game is not None and game.current_turn == 1 and count(db, TurnRow) == 0
    if act == "extend":  # once the new deadline has passed, it is resolved as ever
        assert resolve_if_still_due(factory, game_id=game_id, turn=1, now=due_at + timedelta(minutes=10)) == 1


def test_turn_resolved_once_and_only_once(db: Session, now: datetime) -> None:
    """A second resolution of the same turn (organiser and scheduler together) does nothing."""
    game = started(db, now)
    assert store.resolve_turn(db, game_id=game.id, turn=1, reason="organiser", now=now) is True
    db.commit()
    assert store.resolve_turn(db, game_id=game.id, turn=1, reason="deadline", now=now) is False
    db.commit()
    assert count(db, TurnRow) == 1


def test_concurrent_resolutions_resolve_once(factory: sessionmaker[Session], now: datetime) -> None:
    """Two workers resolving the same turn at the same moment: exactly one succeeds (row lock)."""
    with factory() as db:
        game_id = started(db, now).id
    results: list[bool] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def work() -> None:
        try:
            with factory() as session:
                barrier.wait()
                results.append(
                    store.resolve_turn(session, game_id=game_id, turn=1, reason="deadline", now=now)
                )
                session.commit()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert sorted(results) == [False, True]
    with factory() as db:
        assert count(db, TurnRow) == 1
        game = db.get(GameRow, game_id)
        assert game is not None and game.current_turn == 2


def test_pause_resume_extend_are_recorded(db: Session, now: datetime) -> None:
    """Pause keeps the time left, resume restarts it, extend moves it; each is logged with who and when."""
    game = started(db, now)
    store.pause_game(db, game_id=game.id, now=now + timedelta(minutes=20), actor="organiser")
    assert game.deadline_at is None and game.paused_remaining == 40 * 60
    assert store.due_turns(db, now=now + timedelta(days=9)) == []
    store.extend_deadline(db, game_id=game.id, seconds=600, now=now, actor="organiser")
    store.resume_game(db, game_id=game.id, now=now + timedelta(hours=5), actor="organiser")
    assert game.deadline_at == now + timedelta(hours=5, minutes=50)
    store.extend_deadline(db, game_id=game.id, seconds=3600, now=now, actor="organiser")
    assert game.deadline_at == now + timedelta(hours=6, minutes=50)
    db.commit()
    kinds = [(e.kind, e.actor) for e in db.scalars(select(EventRow).order_by(EventRow.id))]
    assert kinds[-4:] == [
        ("paused", "organiser"),
        ("extended", "organiser"),
        ("resumed", "organiser"),
        ("extended", "organiser"),
    ]
    with pytest.raises(Conflict):
        store.resume_game(db, game_id=game.id, now=now, actor="organiser")


def test_all_ready_game_has_no_deadline(db: Session, now: datetime) -> None:
    """A game resolved when all are ready has no deadline to pause or extend."""
    game = started(db, now, turn_seconds=None)
    assert game.deadline_at is None
    with pytest.raises(Conflict, match="no deadline"):
        store.pause_game(db, game_id=game.id, now=now, actor="organiser")


def test_r14_whole_game_to_a_champion_verifies(db: Session, now: datetime) -> None:
    """R14: the seed stays out of the record until the final; then the record verifies from it."""
    game = started(db, now)
    for turn in range(1, 6):
        assert store.record_of(game)["seed"] is None
        assert store.revealed_seed(game) is None
        if turn < 4:
            order_all(db, game, now, ready=True)
        else:
            # Knockouts: whoever is still in orders; the rest play out on autopilot.
            store.resolve_turn(db, game_id=game.id, turn=turn, reason="organiser", now=now)
            db.commit()
        db.refresh(game)
    assert game.status == GameStatus.FINISHED and game.champion is not None
    record = store.record_of(game)
    assert record["seed"] == game.seed_hex and record["champion"] == game.champion
    report = verify_record(json.loads(json.dumps(record)))
    assert report.dice_checked and report.finished and report.champion == game.champion
    with pytest.raises(Conflict):
        store.save_order(
            db,
            game_id=game.id,
            player_id="p1",
            team_id=my_teams(db, game, "p1")[0],
            turn=5,
            force=1,
            flair=0,
            ready=True,
            via="test",
            now=now,
        )


def test_ended_game_reveals_seed_but_takes_no_orders(db: Session, now: datetime) -> None:
    """Ending a game early stops it: the seed is shown (no die is left to throw), orders are refused."""
    game = started(db, now)
    store.end_game(db, game_id=game.id, now=now, actor="organiser")
    assert store.revealed_seed(game) == game.seed_hex
    record = store.record_of(game)  # over, though unfinished: the record carries the seed and says why
    assert record["seed"] == game.seed_hex and record["ended_early"] is True and record["champion"] is None
    with pytest.raises(Conflict, match="ended"):
        store.save_order(
            db,
            game_id=game.id,
            player_id="p1",
            team_id=my_teams(db, game, "p1")[0],
            turn=1,
            force=1,
            flair=0,
            ready=True,
            via="test",
            now=now,
        )


def test_two_joins_racing_with_one_invite_let_one_in(factory: sessionmaker[Session], now: datetime) -> None:
    """Issue 6: two joins read the invite as open; the first to commit takes the seat, the other
    is refused (410, the invite was used) and writes nothing."""
    from sevens.store.auth import InviteState, invite_state
    from sevens.store.errors import Gone

    with factory() as db:
        created = store.create_game(db, spec=spec(), now=now)
        game_id = created.game.id
        db.commit()
    first, second = factory(), factory()
    try:
        seats = [next(s for s in store.seats_of(session, game_id=game_id) if s.player_id == "p1") for session in (first, second)]
        assert all(invite_state(seat, now=now) is InviteState.OPEN for seat in seats)
        store.join_seat(first, seat=seats[0], name="Ann", now=now)
        first.commit()
        with pytest.raises(Gone, match="already been used"):
            store.join_seat(second, seat=seats[1], name="Mallory", now=now)
        second.rollback()
    finally:
        first.close()
        second.close()
    with factory() as db:
        seat = next(s for s in store.seats_of(db, game_id=game_id) if s.player_id == "p1")
        assert seat.name == "Ann" and seat.invite_used_at is not None


def test_an_autopilot_set_by_a_player_signed_out_meanwhile_is_refused(
    factory: sessionmaker[Session], now: datetime
) -> None:
    """R13: a sign-out sets the seat's autopilots back to the game's default, so that whoever opens
    the new link never learns the previous player's choices. A Set that passed its access check
    just before the sign-out and wrote just after it left the signed-out player's bot in place,
    shown to the seat's next holder: the store now checks, under the game's lock, that the
    credential still plays the seat (as an order does), and refuses it."""
    with factory() as db:
        game = started(db, now)
        principal, _ = create_principal(db, kind=PrincipalKind.BOT, now=now, label="ann")
        add_grant(db, principal_id=principal.id, game_id=game.id, role=Role.PLAYER, player_id="p1")
        game_id, principal_id, team = game.id, principal.id, my_teams(db, game, "p1")[0]
        db.commit()
    setter, organiser = factory(), factory()
    try:
        # The Set's request has checked that its credential plays p1 ...
        assert "p1" in access_to(setter, principal_id=principal_id, game_id=game_id).player_ids
        # ... when the organiser signs p1 out and hands the seat on.
        store.reissue_invite(organiser, game_id=game_id, player_id="p1", now=now, sign_out=True)
        organiser.commit()
        with pytest.raises(Refused, match="seat p1 was signed out"):
            store.set_autopilot(
                setter, game_id=game_id, player_id="p1", team_id=team, strategy="even-force", now=now, principal_id=principal_id
            )
        setter.rollback()
    finally:
        setter.close()
        organiser.close()
    with factory() as db:
        assert next(t for t in store.teams_of(db, game_id=game_id) if t.team_id == team).autopilot is None


def test_new_organiser_link_replaces_the_hash_and_revokes_other_organisers(db: Session, now: datetime) -> None:
    """The old link opens nothing; every organiser grant but the asker's goes; the log keeps no secret."""
    created = store.create_game(db, spec=spec(), now=now)
    game_id = created.game.id
    kinds = (PrincipalKind.SESSION, PrincipalKind.SESSION, PrincipalKind.BOT)
    creds = [create_principal(db, kind=kind, now=now)[0] for kind in kinds]
    asker, other, bot = creds
    for principal in creds:
        add_grant(db, principal_id=principal.id, game_id=game_id, role=Role.ORGANISER)
    add_grant(db, principal_id=other.id, game_id=game_id, role=Role.PLAYER, player_id="p1")
    db.commit()
    token = store.new_organiser_link(db, game_id=game_id, now=now, keep=asker.id)
    db.commit()
    assert game_by_organiser_link(db, token=created.organiser_token) is None
    found = game_by_organiser_link(db, token=token)
    assert found is not None and found.id == game_id
    assert access_to(db, principal_id=asker.id, game_id=game_id).organiser
    assert not access_to(db, principal_id=bot.id, game_id=game_id).organiser
    # Only organising goes: a seat the other browser plays stays its own.
    assert access_to(db, principal_id=other.id, game_id=game_id) == Access(organiser=False, player_ids=("p1",))
    event = store.events_of(db, game_id=game_id)[-1]
    assert (event.kind, event.actor) == ("organiser link", "organiser")
    assert event.detail == "the old link stops working; 2 other browser(s) or token(s) lost organiser rights"
    assert token not in event.detail and created.organiser_token not in event.detail



def test_counts_of_two_limits_with_other_windows_keep_each_other(
    store_engine: Engine, factory: sessionmaker[Session]
) -> None:
    """A wrong secret's count (a minute's window) does not forget the games an address created
    within the hour (their own window), though both live in one table."""
    assert count_failure(store_engine, client="new game 10.0.0.1", at=1000.0, window=3600) == 1
    assert count_failure(store_engine, client="10.0.0.2", at=1200.0, window=60) == 1
    assert count_failure(store_engine, client="new game 10.0.0.1", at=1300.0, window=3600) == 2
    assert count_failure(store_engine, client="10.0.0.2", at=1300.0, window=60) == 1  # its own window


def test_delete_game_locks_the_game_it_is_the_rematch_of_in_id_order(
    factory: sessionmaker[Session], now: datetime
) -> None:
    """Deleting a rematch clears the rematch_id of the older game it came from, which locks that
    game's row too: in id order, as a sign-out of a browser playing both takes them. Taking the
    rematch first, the two deadlocked on PostgreSQL and one of them failed."""
    from sevens.store.retention import delete_game

    with factory() as db:
        old = started(db, now).id
        rematch = started(db, now).id
        assert old < rematch
        row = db.get(GameRow, old)
        assert row is not None
        row.rematch_id = rematch
        db.commit()
    errors: list[BaseException] = []
    signing_out = factory()
    store.lock_game(signing_out, game_id=old)  # a sign-out, in the games' order: the old one first

    def delete() -> None:
        try:
            with factory() as session:
                delete_game(session, game_id=rematch, now=now)
                session.commit()
        except BaseException as exc:  # reported below
            errors.append(exc)

    thread = threading.Thread(target=delete)
    thread.start()
    thread.join(timeout=1.0)  # the deletion is now waiting for the old game's lock
    try:
        store.lock_game(signing_out, game_id=rematch)
        signing_out.commit()
    except BaseException as exc:
        errors.append(exc)
        signing_out.rollback()
    finally:
        signing_out.close()
    thread.join()
    assert not errors, errors
    with factory() as db:
        assert db.get(GameRow, rematch) is None
        row = db.get(GameRow, old)
        assert row is not None and row.rematch_id is None
