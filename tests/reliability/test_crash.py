"""Crash safety: the server is killed with SIGKILL at random moments while orders arrive and turns resolve.

After every restart the database must be consistent: each turn resolved wholly or not at all
(record, turn rows, events and turn counter agree; the stored record is what a replay writes), no
accepted order lost (an order is accepted when a 2xx answer came back: it is the team's saved
order, or the one played if the turn was resolved since), SQLite's own integrity check passes,
and the game goes on to a champion whose record verifies with the revealed seed.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text, update

from reliability.helpers import (
    ApiGame,
    check_game,
    database,
    open_turn_orders,
    record_orders,
    server_env,
)
from sevens.store.db import make_sessionmaker
from sevens.store.models import GameRow
from sevens.tournament.record import VerificationError, from_record
from sevens.tournament.verify import verify_record
from sevens.web.testing import ServerFarm

pytestmark = pytest.mark.slow

KILLS = 50
BUDGET_SECONDS = 120

Key = tuple[int, int, str]  # (game id, turn, team)


def _diagnosis(
    error: Exception, game: ApiGame, engine, record: dict[str, object], farm: ServerFarm, keep: Path
) -> str:  # type: ignore[no-untyped-def]
    """What a failed verification needs to be understood later: kept files and the code's version."""
    shutil.copytree(farm.directory, keep / "server-logs", dirs_exist_ok=True)
    (keep / "served-record.json").write_text(json.dumps(record, indent=1))
    with make_sessionmaker(engine)() as db:
        stored = db.get(GameRow, game.game_id)
        stored_json = stored.record_json if stored is not None else None
    try:
        from_record(json.loads(stored_json or "{}"))
        replay = "the stored record replays"
    except Exception as exc:  # any failure to replay is the finding
        replay = f"the stored record does not replay: {exc}"
    root = Path(__file__).resolve().parents[2]
    version = subprocess.run(
        ["git", "-C", str(root), "log", "-1", "--format=%H %cI"], capture_output=True, text=True, check=False
    ).stdout.strip()
    changed = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain", "src"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return (
        f"game {game.game_id} does not verify: {error}; {replay}; code at {version or 'unknown'}"
        f"{'; uncommitted changes under src: ' + changed if changed else ''}; server logs and the record "
        f"kept in {keep}"
    )


def _check_orders(
    engine, accepted: dict[Key, tuple[int, int]], in_flight: tuple[Key, tuple[int, int]] | None
) -> None:  # type: ignore[no-untyped-def]
    """Every accepted order is still the team's order (or was played); the in-flight one may have landed."""
    with make_sessionmaker(engine)() as db:
        rows = {g.id: (g.current_turn, g.record_json, g.status.value) for g in db.query(GameRow)}
    for key, value in list(accepted.items()):
        game_id, turn, team = key
        allowed = {value}
        if in_flight is not None and in_flight[0] == key:
            allowed.add(in_flight[1])
        current, record_json, status = rows[game_id]
        if turn < current or status == "finished":
            assert record_json is not None
            force, flair, missed = record_orders(record_json, turn)[team]
            found = (force, flair)
            assert not missed, f"accepted order of {team} in turn {turn} was lost: played as missed"
        else:
            found = open_turn_orders(engine, game_id, turn)[team][:2]
        assert found in allowed, f"accepted order {value} of {team} in turn {turn} lost: found {found}"
        accepted[key] = found


def test_sigkill_during_orders_and_resolution_sqlite_wal(farm: ServerFarm, tmp_path: Path) -> None:
    """Issue 6: SIGKILL at random moments, 50 times; after each restart the database is consistent."""
    rng = random.Random(20260501)
    with database("sqlite", tmp_path) as (url, engine):
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        env = server_env(url, scheduler_seconds=0.05)
        server = farm.start(env)
        accepted: dict[Key, tuple[int, int]] = {}
        finished: list[ApiGame] = []
        games_seen: list[ApiGame] = []
        kills = 0
        resolved_during_kill_cycles = 0
        started = time.monotonic()
        game: ApiGame | None = None
        while kills < KILLS and time.monotonic() - started < BUDGET_SECONDS:
            client = httpx.Client(base_url=server.url, timeout=10)
            if game is None or game.open_turn(engine)[2] == "finished":
                game = ApiGame.create(client, engine, hours=1)
                games_seen.append(game)
            killer = threading.Timer(rng.uniform(0.02, 0.3), server.kill)
            killer.start()
            in_flight: tuple[Key, tuple[int, int]] | None = None
            turn_before = game.open_turn(engine)[0]
            while True:
                turn, teams, status = game.open_turn(engine)
                if status == "finished":
                    break
                roll = rng.random()
                try:
                    if roll < 0.8:
                        team = rng.choice(teams)
                        value = (rng.randint(0, 5), rng.choice((0, 3)))
                        in_flight = ((game.game_id, turn, team), value)
                        answer = game.put_order(client, team, turn, *value, rng.random() < 0.35)
                        if answer.status_code == 200:
                            accepted[in_flight[0]] = value
                        else:
                            assert answer.status_code == 409, answer.text  # the turn moved on
                        in_flight = None
                    elif roll < 0.93:
                        answer = game.resolve(client, turn)
                        assert answer.status_code in (200, 409), answer.text
                    else:  # the deadline of the open turn passes: the scheduler resolves it
                        with engine.begin() as connection:
                            connection.execute(
                                update(GameRow)
                                .where(GameRow.id == game.game_id, GameRow.current_turn == turn)
                                .values(deadline_at=datetime.now(UTC) - timedelta(seconds=1))
                            )
                except httpx.TransportError:
                    break  # killed mid-request: the outcome of the request in flight is unknown
            killer.join()
            server.kill()
            client.close()
            kills += 1
            resolved_during_kill_cycles += game.open_turn(engine)[0] - turn_before
            # Restart on the same database and check everything before going on.
            server = farm.start(env, port=server.port)
            with engine.connect() as connection:
                assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"
            for seen in games_seen:
                check_game(engine, seen.game_id)
            _check_orders(engine, accepted, in_flight)
            if game.open_turn(engine)[2] == "finished":
                finished.append(game)
        # Play the last game to its end on the restarted server: it goes on, and it verifies.
        with httpx.Client(base_url=server.url, timeout=10) as client:
            assert game is not None
            for _ in range(10):
                turn, _teams, status = game.open_turn(engine)
                if status == "finished":
                    break
                assert game.resolve(client, turn).status_code in (200, 409)
            if game not in finished:
                finished.append(game)
            for done in finished:
                record = done.record(client)
                try:
                    report = verify_record(record)
                except VerificationError as exc:
                    pytest.fail(_diagnosis(exc, done, engine, record, farm, tmp_path))
                assert report.finished and report.dice_checked
        server.kill()
    assert kills >= KILLS, f"only {kills} kills within {BUDGET_SECONDS} s"
    assert resolved_during_kill_cycles > 0
    print(f"{kills} kills, {len(finished)} games finished and verified, {len(accepted)} accepted orders kept")
