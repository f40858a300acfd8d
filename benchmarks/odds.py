"""Exact match odds: sevens.odds against icepool, side by side.

Run: ``.venv/bin/python benchmarks/odds.py`` (two or three minutes on a small machine), or with
``--full`` to time icepool on the whole 34 x 34 grid of 100-point splits as well (hours: see below).

icepool models the same game from the dice up: a FORCE die is a d6 mapped to 5/3/0 points; a FLAIR
throw is two d6 mapped to points with a marker on doubles, *exploded* on doubles to depth 20 (icepool's
``Die.explode``), so each option is exact up to the chance of more than 20 doubles in a row (6**-21).
Orders are sums of those dice, and win/draw/loss come from comparing two order dice. Both sides start
cold (every sevens.odds cache cleared; icepool builds its dice inside the timing), and each ratio is
taken on identical work.

icepool needs tens of seconds for one large all-FLAIR order (its exact big-integer distributions keep
every outcome of every explosion), so the full 34 x 34 grid of 100-point splits is timed for
sevens.odds only; the head-to-head ratio uses a fixed subset of that grid, chosen *in icepool's
favour* (FLAIR 0, 3, 6, 9 on each side: the orders icepool handles fastest), plus 40+60 v 100+0.
(Run once with FLAIR 0/15/30/45 on each side instead, icepool took 544 s, against 0.011 s.)
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import icepool

from sevens.odds import clear_caches, knockout_odds, match_odds, splits
from sevens.rules import Order, flair_throw_line, force_die_line

MARK = 1000  # added to a double's points so icepool can tell which throws to explode
DEPTH = 20


def _best(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        clear_caches()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


# --- icepool's model ---------------------------------------------------------------------------


def _throw_points(a: int, b: int) -> int:
    # Scored by the rules engine, as sevens.odds is; only the modelling of doubles differs.
    return flair_throw_line(a, b).points + (MARK if a == b else 0)


class IcepoolModel:
    """FORCE dice and exploding FLAIR options in icepool, one order die per order."""

    def __init__(self) -> None:
        self.force = icepool.d6.map(lambda face: force_die_line(face).points)
        throw = icepool.map(_throw_points, icepool.d6, icepool.d6)
        exploded = throw.explode(lambda outcome: outcome >= MARK, depth=DEPTH)
        self.option = exploded.map(lambda total: total % MARK)
        self.orders: dict[Order, Any] = {}

    def order(self, order: Order) -> Any:
        if order not in self.orders:
            die = order.force @ self.force if order.force else icepool.Die([0])
            if order.options:
                die = die + order.options @ self.option
            self.orders[order] = die
        return self.orders[order]

    def match(self, a: Order, b: Order) -> tuple[float, float, float]:
        da, db = self.order(a), self.order(b)
        win = (da > db).probability(True)
        draw = (da == db).probability(True)
        return float(win), float(draw), float(1 - win - draw)  # exact fractions: the dice sum to 1


def _icepool_matches(pairs: Sequence[tuple[Order, Order]]) -> list[tuple[float, float, float]]:
    model = IcepoolModel()
    return [model.match(a, b) for a, b in pairs]


def _project_matches(pairs: Sequence[tuple[Order, Order]]) -> list[tuple[float, float, float]]:
    out = []
    for a, b in pairs:
        odds = match_odds(a, b)
        out.append((odds.win, odds.draw, odds.loss))
    return out


def _largest_difference(x: list[tuple[float, float, float]], y: list[tuple[float, float, float]]) -> float:
    return max(abs(p - q) for row_x, row_y in zip(x, y, strict=True) for p, q in zip(row_x, row_y, strict=True))


def _row(name: str, ours: float, theirs: float | None, diff: float | None) -> str:
    ratio = f"{theirs / ours:10.0f}x" if theirs is not None else "          -"
    theirs_text = f"{theirs:10.3f}" if theirs is not None else "   not run"
    diff_text = f"{diff:.1e}" if diff is not None else "-"
    return f"{name:52s} {ours:11.5f} {theirs_text} {ratio} {diff_text:>10s}"


# The largest count-back computations `sevens odds` makes (docs/odds.md quotes their figures):
# every split of 160 worked out, and for --solve a 54 x 54 matrix of their count-back odds.
HEAVY = (
    ("--solve 160 160 --knockout", "solve_match(160, 160, knockout=True)"),
    ("--best-split 160 --vs-force 1 --vs-flair 159 --knockout", "best_splits(160, (1, 159), knockout=True)"),
)


def _heavy(call: str) -> tuple[float, float]:
    """CPU seconds and peak resident memory (MB) of ``call`` in a fresh Python, as /usr/bin/time
    measures a command: the process's whole footprint, caches included."""
    code = (
        "import resource, time\n"
        "from sevens.odds import best_splits\n"
        "from sevens.odds.solver import solve_match\n"
        f"{call}\n"
        "usage = resource.getrusage(resource.RUSAGE_SELF)\n"
        "print(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    cpu, peak = done.stdout.split()
    return float(cpu), float(peak)


def main() -> int:
    print(__doc__.split("\n\n")[0])
    print(f"python {sys.version.split()[0]}, icepool {icepool.__version__}\n")
    print(f"{'matchup (group rules: win/draw/loss)':52s} {'sevens s':>11s} {'icepool s':>10s} {'ratio':>11s} {'max |dp|':>10s}")

    subset_flair = (0, 3, 6, 9)
    subset = [
        (Order(100 - i, i), Order(100 - j, j)) for i in subset_flair for j in subset_flair
    ]
    single = [(Order(40, 60), Order(100, 0))]
    failures = []
    for name, pairs in (
        ("100 v 100, 4 x 4 subset (FLAIR 0/3/6/9 each side)", subset),
        ("40+60 v 100+0", single),
    ):
        clear_caches()
        start = time.perf_counter()
        theirs_odds = _icepool_matches(pairs)
        theirs = time.perf_counter() - start
        ours = _best(lambda pairs=pairs: _project_matches(pairs), repeats=5)
        diff = _largest_difference(_project_matches(pairs), theirs_odds)
        print(_row(name, ours, theirs, diff))
        if theirs / ours < 200 or diff >= 1e-9:
            failures.append(name)

    grid = [(a, b) for a in splits(100) for b in splits(100)]
    ours = _best(lambda: _project_matches(grid), repeats=3)
    name = f"100 v 100, all {len(splits(100))} x {len(splits(100))} split pairs"
    if "--full" in sys.argv[1:]:
        clear_caches()
        start = time.perf_counter()
        theirs_odds = _icepool_matches(grid)
        theirs = time.perf_counter() - start
        diff = _largest_difference(_project_matches(grid), theirs_odds)
        print(_row(name, ours, theirs, diff))
        if theirs / ours < 200 or diff >= 1e-9:
            failures.append(name)
    else:
        print(_row(name, ours, None, None))
        print("  (icepool not run on the full grid without --full: building one 1+99 order alone took it about 16 s)")

    print(f"\n{'knock-out, count-back included (R9), cold caches':52s} {'sevens s':>11s}")
    pair = (Order(30, 30), Order(30, 30))
    print(f"{'60 v 60: 30+30 v 30+30 (best of 5)':52s} {_best(lambda: knockout_odds(*pair), 5):11.5f}")
    # The slowest pair among all 21 x 21 splits of 60, each timed once cold, then the slowest re-timed.
    timed = []
    for a in splits(60):
        for b in splits(60):
            timed.append((_best(lambda a=a, b=b: knockout_odds(a, b), 1), a, b))
    timed.sort(key=lambda item: item[0], reverse=True)
    slowest = []
    for _, a, b in timed[:5]:
        slowest.append((_best(lambda a=a, b=b: knockout_odds(a, b), 5), a, b))
    worst, a, b = max(slowest, key=lambda item: item[0])
    median = statistics.median(t for t, _, _ in timed)
    print(f"{'60 v 60: slowest pair ' + f'{a.force}+{a.flair} v {b.force}+{b.flair} (best of 5)':52s} {worst:11.5f}")
    print(f"{'60 v 60: median over all 441 split pairs (one run each)':52s} {median:11.5f}")
    ko = knockout_odds(*pair)
    print(f"\n30+30 v 30+30 knock-out: win {ko.win:.9f} loss {ko.loss:.9f} level {ko.level:.9f} "
          f"(tail bound {ko.tail_bound:.1e})")
    missing = 1 - (Fraction(ko.win) + Fraction(ko.loss) + Fraction(ko.level))
    print(f"  win + loss + level = 1 - {float(missing):.1e} (within the tail bound), win - loss = "
          f"{float(Fraction(ko.win) - Fraction(ko.loss)):.1e}")
    if worst >= 0.2:
        failures.append("knock-out 60 v 60 under 0.2 s")

    print(f"\n{'sevens odds at the heavy end, each in a fresh process':58s} {'CPU s':>11s} {'peak MB':>10s}")
    for name, call in HEAVY:
        cpu, peak = _heavy(call)
        print(f"{name:58s} {cpu:11.2f} {peak:10.0f}")
    if failures:
        print("\nTargets missed: " + "; ".join(failures))
        return 1
    print("\nTargets met: >= 200x icepool with |dp| < 1e-9; 60 v 60 knock-out under 0.2 s.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
