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

Then, on PostgreSQL, the worker's database connections (``SEVENS_DB_CONNECTIONS``, as many of its
requests at the database at once) compared under a mixed load for ``--mixed-seconds`` each: every
seat saving orders as above, and as many readers each loading the game's page and polling its
``/state`` in turn; the cases alternate, twice each, on one server each time, and are printed side
by side with their ratios to the first (``--connections 5,15,40``: the default, what the pool could reach
before the setting (5 kept, 10 more opened and closed), and one a thread of the thread pool, whose
40 threads then bind before the turns do).

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
                status, answer = await _exchange(reader, writer, request)
                latencies.append(time.perf_counter() - began)
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


async def _exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> tuple[int, bytes]:
    """Send one HTTP/1.1 request on a keep-alive connection and read its whole answer."""
    writer.write(request)
    status_line, _, headers = (await reader.readuntil(b"\r\n\r\n")).partition(b"\r\n")
    length = next(
        (int(v) for k, _, v in (h.partition(b":") for h in headers.split(b"\r\n"))
         if k.strip().lower() == b"content-length"),
        None,
    )
    if length is None:
        raise RuntimeError("the server answered without Content-Length; this client needs one")
    return int(status_line.split()[1]), await reader.readexactly(length)


MIXED_KINDS = ("page", "state", "order")


async def mixed_load(url: str, games: list[HostedGame], *, seconds: float) -> dict[str, LoadResult]:
    """For ``seconds``: every seat saves its teams' orders one after another (not ready), and one
    reader a seat loads the game's page and polls its ``/state`` in turn, all at once, each on its
    own keep-alive connection; each kind's latencies and statuses."""
    target = httpx.URL(url)
    host, port = target.host, target.port or 80
    latencies: dict[str, list[float]] = {kind: [] for kind in MIXED_KINDS}
    statuses: dict[str, dict[int, int]] = {kind: {} for kind in MIXED_KINDS}
    seats = [(game, pid) for game in games for pid in game.players]
    ends = time.perf_counter() + seconds

    async def client(requests: Any) -> None:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            for kind, request in requests:
                if time.perf_counter() >= ends:
                    return
                began = time.perf_counter()
                status, _ = await _exchange(reader, writer, request)
                latencies[kind].append(time.perf_counter() - began)
                statuses[kind][status] = statuses[kind].get(status, 0) + 1
        finally:
            writer.close()

    def orders(game: HostedGame, pid: str) -> Any:
        head = "".join(f"{k}: {v}\r\n" for k, v in game.players[pid].items())
        for revision in itertools.count():
            for team in _teams_of(game, pid):
                body = json.dumps({"turn": 1, "force": revision % 10, "flair": 3, "ready": False}).encode()
                yield "order", (
                    f"PUT /api/v1/games/{game.public_id}/orders/{team} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                    f"{head}Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                ).encode() + body

    def reads(game: HostedGame) -> Any:
        for kind, path in itertools.cycle(
            [("page", f"/games/{game.public_id}"), ("state", f"/games/{game.public_id}/state")]
        ):
            yield kind, f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()

    began = time.perf_counter()
    await asyncio.gather(*(client(orders(g, p)) for g, p in seats), *(client(reads(g)) for g, _ in seats))
    took = time.perf_counter() - began
    return {kind: LoadResult(took, tuple(latencies[kind]), statuses[kind], {}, {}) for kind in MIXED_KINDS}


def compare_connections(
    farm: ServerFarm, url: str, *, connections: list[int], games: int, seconds: float, rounds: int = 2
) -> dict[int, dict[str, LoadResult]]:
    """:func:`mixed_load` on one worker for each number of connections, the cases alternated
    ``rounds`` times (the machine's noise falls on each alike); each case's rounds pooled."""
    env = {"DATABASE_URL": url, "SEVENS_SCHEDULER_SECONDS": "3600", "SEVENS_GAMES_PER_HOUR": "0"}
    hosted: list[HostedGame] = []
    runs: dict[int, list[dict[str, LoadResult]]] = {n: [] for n in connections}
    for _, n in itertools.product(range(rounds), connections):
        server = farm.start({**env, "SEVENS_DB_CONNECTIONS": str(n)})
        try:
            if not hosted:
                with httpx.Client(base_url=server.url, timeout=30) as client:
                    hosted = [host_game(client) for _ in range(games)]
            asyncio.run(mixed_load(server.url, hosted[:1], seconds=0.5))  # connections and caches
            runs[n].append(asyncio.run(mixed_load(server.url, hosted, seconds=seconds)))
        finally:
            server.kill()
    pooled: dict[int, dict[str, LoadResult]] = {}
    for n, results in runs.items():
        pooled[n] = {}
        for kind in MIXED_KINDS:
            statuses: dict[int, int] = {}
            for result in results:
                for status, count in result[kind].statuses.items():
                    statuses[status] = statuses.get(status, 0) + count
            pooled[n][kind] = LoadResult(
                sum(r[kind].seconds for r in results),
                tuple(itertools.chain.from_iterable(r[kind].latencies for r in results)),
                statuses, {}, {},
            )
    return pooled


def connections_table(pooled: dict[int, dict[str, LoadResult]]) -> list[str]:
    """Requests a second, p50 and p99 of each kind for each case, and each case's ratios to the first."""
    first = next(iter(pooled))
    lines = [f"{'connections':<12} {'kind':<6} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8}"
             f"   {'req/s':>7} {'p50':>7} {'p99':>7} (x of {first})"]
    for kind in MIXED_KINDS:
        base = pooled[first][kind]
        for n, results in pooled.items():
            r = results[kind]
            bad = sum(c for s, c in r.statuses.items() if not 200 <= s < 300)
            p50, p99 = percentile(r.latencies, 0.5), percentile(r.latencies, 0.99)
            lines.append(
                f"{n:<12} {kind:<6} {r.per_second:>8.1f} {p50 * 1000:>8.1f} {p99 * 1000:>8.1f} {bad:>8}"
                f"   {r.per_second / base.per_second:>6.2f}x {p50 / percentile(base.latencies, 0.5):>6.2f}x"
                f" {p99 / percentile(base.latencies, 0.99):>6.2f}x"
            )
    return lines


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
    parser.add_argument(
        "--connections", default="5,15,40",
        help="PostgreSQL: SEVENS_DB_CONNECTIONS values compared under a mixed load, comma-separated ('' skips it)",
    )
    parser.add_argument("--mixed-seconds", type=float, default=6.0, help="seconds of each mixed-load run")
    parser.add_argument("--only-connections", action="store_true", help="the connections comparison alone")
    parser.add_argument("--quick", action="store_true", help="a small run (smoke test)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.revisions, args.rush, args.mixed_seconds = 2, 3, 3, 1.0
    postgres = not args.no_postgres
    if postgres and not postgres_or_rerun(__file__):
        return 2
    try:
        connections = [int(n) for n in args.connections.split(",") if n.strip()]
    except ValueError:
        parser.error(f"--connections takes whole numbers separated by commas, such as 5,15; not {args.connections!r}")
    with tempfile.TemporaryDirectory(prefix="sevens-load-") as tmp, ServerFarm(max_seconds=900) as farm:
        directory = Path(tmp)
        if postgres and connections:
            print(
                f"PostgreSQL, 1 worker: {args.games} games x 4 seats saving orders and 4 readers (page, /state), "
                f"{args.mixed_seconds:g} s a run, the cases alternated twice"
            )
            with throwaway_database("postgresql", directory) as url:
                pooled = compare_connections(
                    farm, url, connections=connections, games=args.games, seconds=args.mixed_seconds
                )
            print("\n".join(connections_table(pooled)), flush=True)
        if args.only_connections:
            return 0
        print(f"{args.games} games x 4 seats x 2 teams x {args.revisions} revisions, closed loop, loopback")
        print(f"{'case':<26} {'orders':>6} {'orders/s':>10} {'p50 ms':>9} {'p99 ms':>9} {'2xx':>6}")
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
