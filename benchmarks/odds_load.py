"""Cheap requests with and without a client asking knockout odds non-stop, on a real ``sevens serve``.

    .venv/bin/python benchmarks/odds_load.py              # 3 rounds of 150 samples a request
    .venv/bin/python benchmarks/odds_load.py --quick      # 1 round of 40, a smoke run
    .venv/bin/python benchmarks/odds_load.py --quick --idle-minutes 0.5   # and the memory once idle

One ``sevens serve`` on a new SQLite database, on a free port of 127.0.0.1, with a 4-player, 8-team
game played to its semi-finals through the API. A client asks, one after another, for the front page,
the game's ``/state`` and a player's order saved again (not ready, so the turn stays open), and times
each answer. Each round times them once quiet and once while another process asks the odds of random
knockout drafts of the team with most SCRUM non-stop on two connections (the soak's odds client).
Quiet and busy alternate, so that both meet the same load from the rest of the machine. Printed: the
median and 95th percentile of each request, quiet and busy, their ratio (busy / quiet), the odds
answered a second, and the resident memory of the server and of its children (odds processes);
with ``--idle-minutes`` (``SEVENS_ODDS_IDLE_MINUTES``, 0 by default here: kept), that memory again once
the odds process has gone that long without a question.

Everything stops by itself: the server is stopped with SIGTERM at the end (and killed if it lingers).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from sevens.web.testing import child_pids, free_port, percentile, resident_mb, semi_finals, wait_until_up

HOST = "127.0.0.1"
ODDS_CONNECTIONS = 2





@contextmanager
def _server(directory: Path, idle_minutes: float) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    env = dict(os.environ, SEVENS_GAMES_PER_HOUR="0", SEVENS_CREDENTIALS_PER_HOUR="0",
               SEVENS_ODDS_IDLE_MINUTES=str(idle_minutes))
    log = (directory / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "sevens", "serve", "--port", str(port),
         "--database-url", f"sqlite:///{directory / 'sevens.db'}"],
        stdout=log, stderr=subprocess.STDOUT, env=env,
    )
    try:
        wait_until_up(port, pid=process.pid, timeout=60)
        yield f"http://{HOST}:{port}", process
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def _odds_client(url: str, odds_url: str, token: str, scrum: int) -> None:
    """The busy client (in a process of its own): random knockout drafts on two connections until
    its standard input closes; prints how many were answered."""
    stop = threading.Event()
    answered = [0] * ODDS_CONNECTIONS

    def ask(slot: int) -> None:
        rng = random.Random(slot)
        with httpx.Client(base_url=url, timeout=60, headers={"Authorization": f"Bearer {token}"}) as client:
            while not stop.is_set():
                flair = rng.randint(0, scrum)
                draft = {"force": rng.randint(0, scrum - flair), "flair": flair}
                if client.post(odds_url, json=draft).status_code == 200:
                    answered[slot] += 1

    threads = [threading.Thread(target=ask, args=(slot,)) for slot in range(ODDS_CONNECTIONS)]
    for thread in threads:
        thread.start()
    sys.stdin.read()
    stop.set()
    for thread in threads:
        thread.join()
    print(sum(answered), flush=True)


def _sample(client: httpx.Client, requests: dict[str, tuple[str, str, dict[str, object] | None, dict[str, str]]],
            count: int, into: dict[str, list[float]]) -> None:
    for _ in range(count):
        for name, (method, path, body, headers) in requests.items():
            started = time.perf_counter()
            answer = client.request(method, path, json=body, headers=headers)
            into[name].append(time.perf_counter() - started)
            assert answer.status_code == 200, (name, answer.status_code, answer.text)
            time.sleep(0.005)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one round of 40 samples, a smoke run")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--samples", type=int, default=None, help="samples of each request per round and phase")
    parser.add_argument("--idle-minutes", type=float, default=0.0,
                        help="SEVENS_ODDS_IDLE_MINUTES; the memory is measured again after that long idle")
    parser.add_argument("--odds-client", nargs=4, metavar=("URL", "ODDS_URL", "TOKEN", "SCRUM"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.odds_client:
        url, odds_url, token, scrum = args.odds_client
        _odds_client(url, odds_url, token, int(scrum))
        return
    rounds = args.rounds or (1 if args.quick else 3)
    samples = args.samples or (40 if args.quick else 150)
    with (
        tempfile.TemporaryDirectory(prefix="sevens-odds-load-") as temp,
        _server(Path(temp), args.idle_minutes) as (url, server),
        httpx.Client(base_url=url, timeout=60) as client,
    ):
        game, team, scrum, other = semi_finals(client)
        token = game.players[game.teams[team]]["Authorization"].removeprefix("Bearer ")
        odds_url = f"/api/v1/games/{game.public_id}/teams/{team}/odds"
        theirs = game.players[game.teams[other]]
        turn = client.get(f"/api/v1/games/{game.public_id}/state", headers=game.organiser).json()["turn"]
        requests: dict[str, tuple[str, str, dict[str, object] | None, dict[str, str]]] = {
            "front page": ("GET", "/", None, {}),
            "/state": ("GET", f"/api/v1/games/{game.public_id}/state", None, game.organiser),
            "an order": ("PUT", f"/api/v1/games/{game.public_id}/orders/{other}",
                         {"turn": turn, "force": 1, "flair": 0, "ready": False}, theirs),
        }
        quiet: dict[str, list[float]] = {name: [] for name in requests}
        busy: dict[str, list[float]] = {name: [] for name in requests}
        _sample(client, requests, 5, {name: [] for name in requests})  # warm up
        odds_answered, busy_seconds = 0, 0.0
        for _ in range(rounds):
            _sample(client, requests, samples, quiet)
            started = time.monotonic()
            odds = subprocess.Popen(
                [sys.executable, __file__, "--odds-client", url, odds_url, token, str(scrum)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )
            time.sleep(1.0)  # both connections asking
            _sample(client, requests, samples, busy)
            odds_answered += int(odds.communicate("")[0].strip() or 0)
            busy_seconds += time.monotonic() - started
        memory = {pid: resident_mb(pid) for pid in child_pids(server.pid)}
        server_mb = resident_mb(server.pid)
        if args.idle_minutes:
            time.sleep(args.idle_minutes * 60 + 2)  # the answers in flight, then the idle time
            idle_memory = {pid: resident_mb(pid) for pid in child_pids(server.pid)}
            idle_server_mb = resident_mb(server.pid)
    print(f"{rounds} round(s) of {samples} samples a request, quiet and busy alternately; "
          f"busy: a client asking knockout odds non-stop on {ODDS_CONNECTIONS} connections")
    print(f"{'':<12} {'median ms':^19} {'':6} {'p95 ms':^19}")
    print(f"{'request':<12} {'quiet':>9} {'busy':>9} {'ratio':>6} {'quiet':>9} {'busy':>9} {'ratio':>6}")
    for name in requests:
        q50, b50 = percentile(quiet[name], 0.5) * 1000, percentile(busy[name], 0.5) * 1000
        q95, b95 = percentile(quiet[name], 0.95) * 1000, percentile(busy[name], 0.95) * 1000
        print(f"{name:<12} {q50:9.1f} {b50:9.1f} {b50 / q50:5.1f}x {q95:9.1f} {b95:9.1f} {b95 / q95:5.1f}x")
    print(f"odds answered while busy: {odds_answered / busy_seconds:.1f} a second")
    print(f"resident memory at the end: server {server_mb:.0f} MB"
          + "".join(f", child {pid} {mb:.0f} MB" for pid, mb in memory.items()))
    if args.idle_minutes:
        print(f"resident memory {args.idle_minutes:g} minutes later without odds: server {idle_server_mb:.0f} MB"
              + ("".join(f", child {pid} {mb:.0f} MB" for pid, mb in idle_memory.items()) or ", no child"))


if __name__ == "__main__":
    main()
