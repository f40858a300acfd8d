"""Would a server worker gain by giving the memory it has freed back to the system now and then
(glibc's ``malloc_trim(0)``, which the odds process calls after each answer)? And what does the trim
itself cost?

    .venv/bin/python benchmarks/give_back.py                      # 4 minutes, given back every minute
    .venv/bin/python benchmarks/give_back.py --minutes 11 --every 60 --give-back-minutes 5

Two real ``sevens serve`` run at once, each on its own new SQLite file, started alike by a small
launcher (:data:`LAUNCHER`); in one of them the launcher also runs a thread that calls
``malloc_trim(0)`` every ``--give-back-minutes``, off the event loop's thread, as the server would.
Each is played by the same clients as ``benchmarks/soak.py`` (``--players`` player clients with the
same seeds on each, and a spectator) for the same minutes; the clients wait for each answer, so
their games drift apart and the counts printed at the end say how much each server did. Every
``--every`` seconds one line: each worker's resident memory and their ratio, and each one's median
and 95th percentile game page and order in that interval (a trim that held requests up would show
there).

Then the trim alone, in this process: ``--threads`` threads (comma-separated counts) each fill
their own malloc arena with small blocks and free most of them, and ``malloc_trim(0)`` is timed
from the main thread while one more thread allocates and frees small blocks and notes the longest
it waited for them, beside the trim and in the half second before it.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from soak import Tally, _latencies, _player, _server, _spectator  # beside this script, on its sys.path

from sevens.web.odds_process import malloc_trim
from sevens.web.testing import resident_mb

LAUNCHER = """
import runpy, sys, threading, time
from sevens.web.odds_process import malloc_trim  # both servers load it: it is the app's own module
minutes = float(sys.argv[1])
if minutes > 0:  # the C library's freed memory given back every so many minutes, on a thread of its own
    trim = malloc_trim()
    def give_back():
        while True:
            time.sleep(minutes * 60)
            trim(0)
    threading.Thread(target=give_back, daemon=True).start()
sys.argv = ["sevens", *sys.argv[2:]]
runpy.run_module("sevens", run_name="__main__", alter_sys=True)
"""


def _malloc_trim() -> Callable[[int], int]:
    trim = malloc_trim()
    if trim is None:
        sys.exit("no malloc_trim in this C library (glibc has it): nothing to measure")
    return trim


def _play(base: str, tally: Tally, players: int, pause: float, stop: threading.Event) -> list[threading.Thread]:
    threads = [threading.Thread(target=_player, args=(base, tally, pause, i, stop, 0.0), daemon=True)
               for i in range(players)]
    threads.append(threading.Thread(target=_spectator, args=(base, tally, pause, stop), daemon=True))
    for thread in threads:
        thread.start()
    return threads


def _interval(tally: Tally) -> list[str]:
    with tally.lock:
        pages, orders = tally.page, tally.order
        tally.page, tally.order = [], []
    return [*_latencies(pages), *_latencies(orders)]


def _trim_alone(threads: int, blocks: int) -> tuple[float, float, float, float, float]:
    """Trim's duration, the longest wait for a few small blocks beside it and in the half second
    before it, ms; resident MB before and after."""
    filled = threading.Barrier(threads + 1)
    done = threading.Event()

    def fill() -> None:
        held = [bytes(1000) for _ in range(blocks)]  # past Python's own small-object allocator: malloc's
        kept = held[::64]  # one block in 64 stays: the freed ones between cannot go back by themselves
        del held
        filled.wait()
        done.wait()
        del kept

    workers = [threading.Thread(target=fill) for _ in range(threads)]
    for worker in workers:
        worker.start()
    filled.wait()
    longest = 0.0
    watching = threading.Event()

    def watch() -> None:
        nonlocal longest
        watching.set()
        while not done.is_set():
            began = time.perf_counter()
            _ = [bytes(1000) for _ in range(10)]
            longest = max(longest, time.perf_counter() - began)

    watcher = threading.Thread(target=watch)
    watcher.start()
    watching.wait()
    time.sleep(0.5)
    unstalled, longest = longest, 0.0  # the longest wait without a trim, for comparison
    trim = _malloc_trim()
    before = resident_mb(os.getpid())
    began = time.perf_counter()
    trim(0)
    took = time.perf_counter() - began
    after = resident_mb(os.getpid())
    time.sleep(0.1)
    done.set()
    for thread in [*workers, watcher]:
        thread.join()
    return took * 1000, longest * 1000, unstalled * 1000, before, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=4.0, help="how long to play (4)")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between samples (30)")
    parser.add_argument("--give-back-minutes", type=float, default=1.0,
                        help="minutes between two trims in the second server (1)")
    parser.add_argument("--players", type=int, default=2, help="player clients on each server (2)")
    parser.add_argument("--pause", type=float, default=0.05, help="seconds each client waits between requests")
    parser.add_argument("--threads", default="4,16,64", help="thread counts for the trim alone (4,16,64)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.minutes <= 0 or args.every <= 0 or args.players < 1 or args.give_back_minutes <= 0:
        parser.error("--minutes, --every and --give-back-minutes must be above 0, --players at least 1")
    try:
        counts = [int(n) for n in args.threads.split(",")]
    except ValueError:
        parser.error(f"--threads is thread counts separated by commas, e.g. 4,16,64; got {args.threads!r}")
    if not all(n >= 1 for n in counts):
        parser.error(f"--threads counts must be at least 1; got {args.threads!r}")

    stop = threading.Event()
    tallies = (Tally(), Tally())
    with tempfile.TemporaryDirectory(prefix="sevens-give-back-") as temp:
        folders = (Path(temp) / "kept", Path(temp) / "given")
        for folder in folders:
            folder.mkdir()
        _malloc_trim()  # here first: said before two servers are started for nothing
        kept_launcher = [sys.executable, "-c", LAUNCHER, "0"]
        given_launcher = [sys.executable, "-c", LAUNCHER, str(args.give_back_minutes)]
        with (_server(f"sqlite:///{folders[0] / 'sevens.sqlite3'}", folders[0], None, launcher=kept_launcher)
              as (kept_base, kept, _),
              _server(f"sqlite:///{folders[1] / 'sevens.sqlite3'}", folders[1], None, launcher=given_launcher)
              as (given_base, given, _)):
            print(f"give back: two servers, {args.players} players and a spectator each, {args.minutes:g} minutes on "
                  f"SQLite; one never gives freed memory back, one every {args.give_back_minutes:g} minutes", flush=True)
            threads = _play(kept_base, tallies[0], args.players, args.pause, stop)
            threads += _play(given_base, tallies[1], args.players, args.pause, stop)
            columns = ("min", "kept MB", "given MB", "given/kept", "kept page p50", "p95", "kept order p50", "p95",
                       "given page p50", "p95", "given order p50", "p95")
            print(" ".join(f"{c:>10}" for c in columns), flush=True)
            began = time.monotonic()
            end = began + args.minutes * 60
            ratios = []
            while True:
                if kept.poll() is not None or given.poll() is not None:
                    print("a server exited", file=sys.stderr)
                    sys.exit(1)
                kept_mb, given_mb = resident_mb(kept.pid), resident_mb(given.pid)
                ratios.append(given_mb / kept_mb)
                values = [f"{(time.monotonic() - began) / 60:.1f}", f"{kept_mb:.0f}", f"{given_mb:.0f}",
                          f"{given_mb / kept_mb:.2f}", *_interval(tallies[0]), *_interval(tallies[1])]
                print(" ".join(f"{v:>10}" for v in values), flush=True)
                if time.monotonic() >= end:
                    break
                time.sleep(min(args.every, max(0.0, end - time.monotonic())))
            stop.set()
            for thread in threads:
                thread.join(timeout=120)
    for name, tally in zip(("kept", "given"), tallies, strict=True):
        print(f"{name}: " + ", ".join(f"{v} {k}" for k, v in sorted(tally.counts.items())))
    print()
    print("the trim alone, in this process (each thread ~15 MB of small blocks, 63 in 64 freed):")
    print(f"{'threads':>8} {'trim ms':>8} {'longest wait ms':>16} {'without a trim':>15} {'MB before':>10} {'MB after':>9}")
    for n in counts:
        took, longest, unstalled, before, after = _trim_alone(n, 15_000)
        print(f"{n:>8} {took:>8.1f} {longest:>16.1f} {unstalled:>15.1f} {before:>10.0f} {after:>9.0f}", flush=True)
    if any(tally.counts.get("errors") for tally in tallies):
        sys.exit(1)


if __name__ == "__main__":
    main()
