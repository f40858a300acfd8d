"""What keeping the live odds' work per asker costs: first, repeated and another's answers, side by side.

    .venv/bin/python benchmarks/odds_asker.py                # a few knockout and group drafts
    .venv/bin/python benchmarks/odds_asker.py --quick        # one of each, a smoke run
    .venv/bin/python benchmarks/odds_asker.py --all-splits   # and what working out every split ahead would hold

The odds process (sevens.web.odds_process) keeps what it works out under the credential that asked,
so that a split somebody else asked lately is not answered sooner (docs/web.md, 'Who sees what').
For each draft, in one process as the odds process runs them (no pipe, no server), this prints the
time of: a player's first answer (nothing kept), the same player's answer again, and another
player's first answer of that same split after the first player's (kept apart now, so worked out
again: before, it was found kept and took the repeated answer's time). Ratios are to the first
answer. Before them, the start's cost (every small table all askers share, worked out before any
question: its CPU, then a real odds process's start and first answer, then the tables' memory);
after them, the memory of the duplicated lines. With ``--all-splits``: how many orders a team can ever make
(up to 160 points) and how many bytes their lines would take, which is why they are not all worked
out ahead of time instead.
"""

from __future__ import annotations

import argparse
import resource
import time
import tracemalloc

from sevens.odds import clear_caches, joint
from sevens.odds.api import warm_shared_tables
from sevens.odds.joint import lines_shape
from sevens.rules import Order
from sevens.rules.orders import MAX_ORDER_POINTS
from sevens.tournament.formats import Format
from sevens.tournament.game import ManagerView
from sevens.tournament.standings import group_table
from sevens.web.odds_process import OddsProcess, OddsQuestion, odds_answer

BOTS = ("equilibrium", "even", "even-flair", "even-force", "odds-aware", "random")
DRAFTS = [Order(force=40, flair=30), Order(force=70, flair=60), Order(force=20, flair=90), Order(force=100, flair=30)]


def _question(mine: Order, knockout: bool) -> OddsQuestion:
    fmt = Format(16, 16, 1)
    turn = 5 if knockout else 2
    theirs = ManagerView(
        game_id="x", team="b2", group="B", format=fmt, turn=turn, stage=fmt.stages[turn - 1],
        scrum=120, in_play=True, fixture=None, opponent="a1", opponent_scrum=140,
        turns_left=fmt.turns + 1 - turn, table=group_table(["b1", "b2"], [], None),
    )
    return OddsQuestion(team_id="a1", mine=mine, scrum=140, theirs=theirs, their_bot=None, knockout=knockout, bots=BOTS)


def _ms(question: OddsQuestion, asker: str) -> float:
    start = time.perf_counter()
    odds_answer(question, asker)
    return (time.perf_counter() - start) * 1000


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _process_start(knockout: bool) -> tuple[float, float]:
    """Wall and CPU seconds of a real odds process's start and first answer (its import, the shared
    tables, the bots' mixes), the CPU read once it has exited."""
    process = OddsProcess(seconds=120)
    cpu = _child_cpu()
    start = time.perf_counter()
    process.answer(_question(Order(force=3, flair=0), knockout), 1)
    wall = time.perf_counter() - start
    process.close()
    return wall, _child_cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all-splits", action="store_true", help="count every order's lines too (a minute or more)")
    parser.add_argument("--quick", action="store_true", help="one draft, knockout and group")
    args = parser.parse_args()
    drafts = DRAFTS[:1] if args.quick else DRAFTS

    clear_caches()
    start = time.process_time()
    warm_shared_tables()
    print(f"start: every shared small table worked out in {(time.process_time() - start) * 1000:.0f} ms of CPU")
    for knockout in (True, False):
        runs = [_process_start(knockout) for _ in range(3)]
        print(f"odds process start and first {'knockout' if knockout else 'group'} answer: "
              f"{min(w for w, _ in runs):.2f} s, {min(c for _, c in runs):.2f} s of CPU (least of 3)")
    clear_caches()
    tracemalloc.start()
    start = time.perf_counter()
    warm_shared_tables()
    warm_ms = (time.perf_counter() - start) * 1000
    print(f"start: every shared small table worked out in {warm_ms:.0f} ms, "
          f"holding {tracemalloc.get_traced_memory()[0] / 1e6:.1f} MB")
    tracemalloc.stop()

    print(f"{'draft':14s} {'rules':8s} {'first ms':>9s} {'again ms':>9s} {'another ms':>11s} {'again/first':>12s} {'another/first':>14s} {'lines kept MB':>14s}")
    for knockout in (True, False):
        for mine in drafts:
            question = _question(mine, knockout)
            clear_caches()
            warm_shared_tables()
            odds_answer(_question(Order(force=3, flair=0), knockout), "warm")  # the bots' public orders
            first = _ms(question, "player")
            again = min(_ms(question, "player") for _ in range(3))
            held = joint._cached_bytes
            another = _ms(question, "someone else")
            extra = (joint._cached_bytes - held) / 1e6
            print(f"{mine.force:3d} + {mine.flair:3d}      {'knockout' if knockout else 'group':8s} {first:9.1f} {again:9.2f} "
                  f"{another:11.1f} {again / first:12.3f} {another / first:14.2f} {extra:14.1f}")

    # What askers' group drafts keep (each order's odds and points, each pair's odds), against what the
    # one bound counts of it: before, the odds and points had caches of their own, counted nowhere.
    clear_caches()
    warm_shared_tables()
    odds_answer(_question(Order(force=3, flair=0), False), "warm")
    tracemalloc.start()
    base, counted = tracemalloc.get_traced_memory()[0], joint._cached_bytes
    askers = 4 if args.quick else 20
    for asker in range(askers):
        for force in range(0, 121, 5):
            odds_answer(_question(Order(force=force, flair=3 * (asker % 10)), False), asker)
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    print(f"{askers} askers, 25 group drafts each: {held / 1e6:.1f} MB held, "
          f"{(joint._cached_bytes - counted) / 1e6:.1f} MB counted against the one bound (more than held: an order's "
          "points array is counted with its odds too)")

    if args.all_splits:
        orders = [(total - flair, flair // 3) for total in range(MAX_ORDER_POINTS + 1) for flair in range(0, total + 1, 3)]
        # The dense array's size bounds an order's lines (four arrays of its kept cells: 32 bytes each).
        dense = sum(t * c * p * d for t, c, p, d in (lines_shape(force, options) for force, options in orders))
        print(f"every split of 0 to {MAX_ORDER_POINTS} points: {len(orders)} orders, up to {dense * 32 / 1e9:.0f} GB of lines "
              f"(the odds' cache holds {joint.CACHE_BYTES / 1e9:.2f} GB)")
    clear_caches()


if __name__ == "__main__":
    main()
