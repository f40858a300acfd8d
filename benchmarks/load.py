"""Load on the hosted game: order submissions per second and latency, and the time to resolve a turn.

    .venv/bin/python benchmarks/load.py            # SQLite, 1 worker; PostgreSQL, 1 and 2 workers
    .venv/bin/python benchmarks/load.py --quick    # smaller, for a smoke run

Everything runs on 127.0.0.1 and stops by itself. Servers are real uvicorn processes (forked from
one zygote, :mod:`sevens.web.testing`); the clients are one asyncio task per seat, each saving and
revising its teams' orders one request after another (closed loop), all seats at once, over one
keep-alive HTTP/1.1 connection per seat (a lean client: it shares the cores with the server). Without a
PostgreSQL URL in ``SEVENS_TEST_POSTGRES_URL`` the script runs itself again under ``scripts/pg``,
which starts a throwaway PostgreSQL 15 in a temporary directory and removes it afterwards.

Targets on a 2-core machine (issue 6): at least 300 submissions/s with p99 under 100 ms on SQLite,
and a 16-team turn resolved in under 100 ms.

Then many games at one deadline (``--rush``, in process): every game's turn planned before any is
resolved, as requests queued for the lock are; it says how long each resolution held the lock and
how many found their planned turn gone and worked it out again under the lock.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from postgres_or_rerun import postgres_or_rerun  # beside this script, on its sys.path
from sqlalchemy import select

from sevens.store import games as store
from sevens.store.db import make_engine, make_sessionmaker, run_migrations, session_scope
from sevens.store.models import TeamRow, Visibility
from sevens.store.testing import throwaway_database
from sevens.web.testing import HostedGame, LoadResult, ServerFarm, host_game, percentile

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


async def lean_submit_load(
    urls: list[str], games: list[HostedGame], *, turn: int, revisions: int, seed: int = 0
) -> LoadResult:
    """The same closed-loop load as :func:`submit_load`, from a lean HTTP/1.1 client.

    The client shares the 2 cores with the server: httpx spends about 3 ms of CPU on each request,
    so a small client on asyncio streams (one keep-alive connection per seat, as httpx keeps)
    leaves the cores to the server. Each latency still runs from the first byte of the request
    sent to the last byte of the answer read.
    """
    rng = random.Random(seed)
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    last: dict[tuple[str, str], tuple[int, int]] = {}
    accepted: dict[tuple[str, str], int] = {}
    seats = [(game, pid) for game in games for pid in game.players]
    plans = [
        [(team, rng.randint(0, 9), rng.choice((0, 3, 6))) for _ in range(revisions) for team in _teams_of(game, pid)]
        for game, pid in seats
    ]

    async def seat(index: int) -> None:
        game, pid = seats[index]
        url = httpx.URL(urls[index % len(urls)])
        host, port = url.host, url.port or 80
        reader, writer = await asyncio.open_connection(host, port)
        head = "".join(f"{k}: {v}\r\n" for k, v in game.players[pid].items())
        try:
            for team, force, flair in plans[index]:
                body = json.dumps({"turn": turn, "force": force, "flair": flair, "ready": False}).encode()
                request = (
                    f"PUT /api/v1/games/{game.public_id}/orders/{team} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                    f"{head}Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                ).encode() + body
                began = time.perf_counter()
                writer.write(request)
                status_line, _, headers = (await reader.readuntil(b"\r\n\r\n")).partition(b"\r\n")
                length = next(
                    (int(v) for k, _, v in (h.partition(b":") for h in headers.split(b"\r\n"))
                     if k.strip().lower() == b"content-length"),
                    None,
                )
                if length is None:
                    raise RuntimeError("the server answered without Content-Length; this client needs one")
                answer = await reader.readexactly(length)
                latencies.append(time.perf_counter() - began)
                status = int(status_line.split()[1])
                statuses[status] = statuses.get(status, 0) + 1
                if 200 <= status < 300:
                    saved = json.loads(answer)
                    if (saved["force"], saved["flair"]) != (force, flair):
                        raise RuntimeError(f"the server saved {saved} for {force}/{flair}")
                    last[(game.public_id, team)] = (force, flair)
                    accepted[(game.public_id, team)] = accepted.get((game.public_id, team), 0) + 1
        finally:
            writer.close()

    began = time.perf_counter()
    await asyncio.gather(*(seat(i) for i in range(len(seats))))
    return LoadResult(time.perf_counter() - began, tuple(latencies), statuses, last, accepted)


def _teams_of(game: HostedGame, pid: str) -> list[str]:
    return sorted(team for team, owner in game.teams.items() if owner == pid)


def load_case(farm: ServerFarm, url: str, *, workers: int, games: int, revisions: int) -> LoadResult:
    env = {"DATABASE_URL": url, "SEVENS_SCHEDULER_SECONDS": "3600"}
    servers = [farm.start(env) for _ in range(workers)]
    try:
        with httpx.Client(base_url=servers[0].url, timeout=30) as client:
            hosted = [host_game(client) for _ in range(games)]
        # A short warm-up (connections, caches), then the measured run.
        asyncio.run(lean_submit_load([s.url for s in servers], hosted[:1], turn=1, revisions=1, seed=1))
        return asyncio.run(lean_submit_load([s.url for s in servers], hosted, turn=1, revisions=revisions, seed=2))
    finally:
        for server in servers:
            server.kill()


def _started_game(factory: Any, name: str, *, bot: str) -> int:
    """A public 16-team game of 16 players, every seat taken (as in a game of people: a game nobody
    joined plays itself out at its start) and started; its id."""
    with session_scope(factory) as db:
        spec = store.NewGame(name, 16, 16, 1, 3600, bot, Visibility.PUBLIC)
        game_id = store.create_game(db, spec=spec, now=NOW).game.id
        for seat in store.seats_of(db, game_id=game_id):
            store.join_seat(db, seat=seat, name=f"Player {seat.player_id}", now=NOW)
        store.start_game(db, game_id=game_id, now=NOW)
    return int(game_id)


def resolve_times(url: str, *, games: int) -> list[float]:
    """Seconds to resolve turn 1 of a 16-team game (16 players, every order saved), commit included."""
    engine = make_engine(url)
    run_migrations(engine)
    factory = make_sessionmaker(engine)
    times = []
    for number in range(games):
        game_id = _started_game(factory, f"Timing {number}", bot="even")
        with session_scope(factory) as db:
            for i, team in enumerate(db.scalars(select(TeamRow).where(TeamRow.game_id == game_id))):
                store.save_order(
                    db, game_id=game_id, player_id=team.player_id or "", team_id=team.team_id,
                    turn=1, force=5 + i % 7, flair=3 * (i % 4), ready=False, via="api", now=NOW,
                )
        began = time.perf_counter()
        with session_scope(factory) as db:
            assert store.resolve_turn(db, game_id=game_id, turn=1, reason="organiser", now=NOW)
        times.append(time.perf_counter() - began)
    engine.dispose()
    return times


def rush(url: str, *, games: int, turn: int, bot: str) -> tuple[list[float], int]:
    """Many 16-team games reaching ``turn`` at once, as at a deadline they share: each game's turn
    is planned (worked out before its lock, as the last order's request or the scheduler does),
    all of them, and only then is each resolved, as requests waiting for the lock (on SQLite the
    file's) are. Half of each game's teams sent an order; ``bot`` plays the rest. Returns the
    seconds each resolution held the lock, commit included, and how many worked the turn out
    again under it (its plan pushed out meanwhile)."""
    engine = make_engine(url)
    run_migrations(engine)
    factory = make_sessionmaker(engine)
    ids = []
    for number in range(games):
        game_id = _started_game(factory, f"Rush {number}", bot=bot)
        for before in range(1, turn):  # the turns before it, played by the bots
            with session_scope(factory) as db:
                store.resolve_turn(db, game_id=game_id, turn=before, reason="organiser", now=NOW)
        with session_scope(factory) as db:
            in_play = set(store.load_game(store.game_by_id(db, game_id=game_id)).teams_in_play())
            teams = db.scalars(select(TeamRow).where(TeamRow.game_id == game_id).order_by(TeamRow.team_id))
            for i, team in enumerate(teams):
                if i % 2 == 0 and team.team_id in in_play:
                    store.save_order(
                        db, game_id=game_id, player_id=team.player_id or "", team_id=team.team_id,
                        turn=turn, force=5 + i % 5, flair=3 * (i % 4), ready=False, via="api", now=NOW,
                    )
        ids.append(game_id)
    for game_id in ids:
        with factory() as db:
            store.plan_turn(db, game_id=game_id, turn=turn)
    missed = store.PLANNED.misses  # a resolution that misses its plan works the turn out under the lock
    held = []
    try:
        for game_id in ids:
            began = time.perf_counter()
            with session_scope(factory) as db:
                assert store.resolve_turn(db, game_id=game_id, turn=turn, reason="deadline", now=NOW)
            held.append(time.perf_counter() - began)
    finally:
        engine.dispose()
    return held, store.PLANNED.misses - missed


def line(name: str, result: LoadResult) -> str:
    ok = sum(n for status, n in result.statuses.items() if 200 <= status < 300)
    return (
        f"{name:<26} {len(result.latencies):>6} {result.per_second:>10.0f} "
        f"{percentile(result.latencies, 0.5) * 1000:>9.1f} {percentile(result.latencies, 0.99) * 1000:>9.1f} "
        f"{ok:>6}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games played at once (4 seats each)")
    parser.add_argument("--revisions", type=int, default=20, help="times each seat revises each team's order")
    parser.add_argument(
        "--rush", type=int, default=32, help="16-team games whose turns are planned, then resolved, together"
    )
    parser.add_argument("--quick", action="store_true", help="a small run (smoke test)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.revisions, args.rush = 2, 3, 3
    postgres = not args.no_postgres
    if postgres and not postgres_or_rerun(__file__):
        return 2
    print(f"{args.games} games x 4 seats x 2 teams x {args.revisions} revisions, closed loop, loopback")
    print(f"{'case':<26} {'orders':>6} {'orders/s':>10} {'p50 ms':>9} {'p99 ms':>9} {'2xx':>6}")
    with tempfile.TemporaryDirectory(prefix="sevens-load-") as tmp, ServerFarm(max_seconds=900) as farm:
        directory = Path(tmp)
        cases = [("sqlite", 1)] + ([("postgresql", 1), ("postgresql", 2)] if postgres else [])
        for backend, workers in cases:
            with throwaway_database(backend, directory) as url:
                result = load_case(farm, url, workers=workers, games=args.games, revisions=args.revisions)
                print(line(f"{backend}, {workers} worker{'s' if workers > 1 else ''}", result), flush=True)
        for backend in ["sqlite"] + (["postgresql"] if postgres else []):
            with throwaway_database(backend, directory) as url:
                times = resolve_times(url, games=3 if args.quick else 8)
            print(
                f"resolve a 16-team turn on {backend}: median {statistics.median(times) * 1000:.1f} ms, "
                f"max {max(times) * 1000:.1f} ms over {len(times)} turns"
            )
        rushes = [(1, "equilibrium"), (4, "odds-aware")]
        for (turn, bot), backend in itertools.product(rushes, ["sqlite"] + (["postgresql"] if postgres else [])):
            with throwaway_database(backend, directory) as url:
                held, again = rush(url, games=args.rush, turn=turn, bot=bot)
            print(
                f"{args.rush} games planned, then resolved, turn {turn} ({bot}) on {backend}: lock held median "
                f"{statistics.median(held) * 1000:.1f} ms, max {max(held) * 1000:.1f} ms, "
                f"total {sum(held):.2f} s; worked out again under the lock: {again}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
