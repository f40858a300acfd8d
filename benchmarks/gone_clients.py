"""Requests whose clients have gone: how long the request of a client still there waits behind a
burst of requests given up before their answer, with the server serving them in full (as it used
to) and with it skipping them (``sevens.web.gone``), side by side.

    .venv/bin/python benchmarks/gone_clients.py                  # SQLite, then PostgreSQL (scripts/pg)
    .venv/bin/python benchmarks/gone_clients.py --no-postgres --bursts 50,200 --rounds 3

For each database, two real ``sevens serve`` started alike by a small launcher (:data:`LAUNCHER`),
each on a new database with one started game; in the one called "served" the launcher makes
``ClientWatch`` pass every request through untouched, so that ``get_db`` never finds a client
gone, as before the check. For each burst size N, and each round (the two servers one after the
other): N GETs (a game's JSON view with a bot token and its page's ``/state``, in turn) are sent
over sockets closed before their answer, then one GET of the game's JSON view by a client still
there, timed from its connection to the last byte of its answer; and the server's CPU time (all its
threads) from the burst's first request to that answer. Medians over the rounds; the last two
columns are the skipped server's figures over the served one's.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
from postgres_or_rerun import postgres_or_rerun  # beside this script, on its sys.path
from soak import _server  # beside this script, on its sys.path

from sevens.store.testing import throwaway_database
from sevens.web.testing import HostedGame, host_game

LAUNCHER = """
import runpy, sys
if sys.argv[1] == "served":  # the check taken away: every request goes on to its route
    from sevens.web import gone
    async def passed_through(self, scope, receive, send):
        await self.app(scope, receive, send)
    gone.ClientWatch.__call__ = passed_through
sys.argv = ["sevens", *sys.argv[2:]]
runpy.run_module("sevens", run_name="__main__", alter_sys=True)
"""

TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    """The process's CPU time, user and system, all threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime: fields 14 and 15


def _request(path: str, token: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {token}\r\nConnection: close\r\n\r\n".encode()


def _burst(port: int, game: HostedGame, count: int) -> None:
    """``count`` GETs over sockets closed once they are all sent, before any answer."""
    token = game.players["p1"]["Authorization"]
    paths = [f"/api/v1/games/{game.public_id}", f"/games/{game.public_id}/state"]
    given_up = []
    try:
        for i in range(count):
            connection = socket.create_connection(("127.0.0.1", port))
            given_up.append(connection)
            connection.sendall(_request(paths[i % 2], token))
    finally:
        for connection in given_up:
            connection.close()


def _present(port: int, game: HostedGame) -> float:
    """Seconds for a GET of the game's JSON view, from the connection to the last byte of its
    answer (the server closes after it)."""
    began = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=120) as connection:
        connection.sendall(_request(f"/api/v1/games/{game.public_id}", game.players["p1"]["Authorization"]))
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    took = time.perf_counter() - began
    if not answer.startswith(b"HTTP/1.1 200"):
        sys.exit(f"the present client's request was answered {answer[:200]!r}")
    return took


@contextmanager
def _servers(backend: str, folder: Path) -> Iterator[dict[str, tuple[int, subprocess.Popen[bytes], HostedGame]]]:
    """The two servers, "served" and "skipped", each with a game started."""
    with ExitStack() as stack:
        found = {}
        for kind in ("served", "skipped"):
            home = folder / f"{backend}-{kind}"
            home.mkdir()
            url = stack.enter_context(throwaway_database(backend, home))
            base, process, _ = stack.enter_context(
                _server(url, home, None, launcher=[sys.executable, "-c", LAUNCHER, kind])
            )
            with httpx.Client(base_url=base, timeout=60) as client:
                game = host_game(client)
            found[kind] = (int(base.rsplit(":", 1)[1]), process, game)
        yield found


def _measure(backend: str, bursts: list[int], rounds: int, folder: Path) -> None:
    with _servers(backend, folder) as servers:
        for port, _, game in servers.values():
            for _ in range(3):  # warm: the routes' first calls load templates and compile queries
                _present(port, game)
        for count in bursts:
            waits: dict[str, list[float]] = {"served": [], "skipped": []}
            cpu: dict[str, list[float]] = {"served": [], "skipped": []}
            for _ in range(rounds):
                for kind, (port, process, game) in servers.items():
                    before = _cpu_seconds(process.pid)
                    _burst(port, game, count)
                    waits[kind].append(_present(port, game))
                    cpu[kind].append(_cpu_seconds(process.pid) - before)
                    time.sleep(0.3)  # the connections' ends handled before the next burst
            served, skipped = (statistics.median(waits[k]) * 1000 for k in ("served", "skipped"))
            served_cpu, skipped_cpu = (statistics.median(cpu[k]) * 1000 for k in ("served", "skipped"))
            values = [backend, str(count), f"{served:.0f}", f"{skipped:.0f}", f"{served_cpu:.0f}",
                      f"{skipped_cpu:.0f}", _ratio(skipped, served), _ratio(skipped_cpu, served_cpu)]
            print(" ".join(f"{v:>12}" for v in values), flush=True)


def _ratio(part: float, whole: float) -> str:
    return f"{part / whole:.2f}" if whole else "-"  # CPU time is counted in ticks (10 ms): 0 for a short run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bursts", default="0,50,200,500", help="burst sizes, comma-separated (0,50,200,500)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each burst on each server (5)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args()
    try:
        bursts = [int(n) for n in args.bursts.split(",")]
    except ValueError:
        parser.error(f"--bursts is sizes separated by commas, e.g. 50,200,500; got {args.bursts!r}")
    if any(n < 0 for n in bursts) or args.rounds < 1:
        parser.error("--bursts sizes must be 0 or more, --rounds at least 1")
    backends = ["sqlite"]
    if not args.no_postgres and postgres_or_rerun(__file__):
        backends.append("postgresql")
    columns = ("database", "burst", "served ms", "skipped ms", "served CPU ms", "skipped CPU", "wait ratio",
               "CPU ratio")
    print(f"the present client's wait after a burst of given-up GETs, median of {args.rounds} rounds")
    print(" ".join(f"{c:>12}" for c in columns), flush=True)
    with tempfile.TemporaryDirectory(prefix="sevens-gone-") as temp:
        for backend in backends:
            _measure(backend, bursts, args.rounds, Path(temp))


if __name__ == "__main__":
    main()
