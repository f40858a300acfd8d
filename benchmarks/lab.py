"""Full 16-team tournaments per second: the rules engine one by one, the batched simulator, and the
random-number bound (one uniform per team per match), with the ratios.

The compiled simulator is timed with the four built-in pacing strategies seated in turn, on one
thread and on every core; the reference likewise draws on one thread, and on as many threads as
there are cores (numpy fills arrays without the GIL), so each ratio compares like with like. Two
more rows: the first batch from no alias tables at all, and every built-in of the lab's registry
seated (the smart ones' decisions warmed by ten batches). The output names the strategies each
row seats; the compiled rows are asked for the compiled loop, so a built-in it cannot seat stops
the benchmark rather than being timed on numpy under the loop's name.

Run: ``.venv/bin/python benchmarks/lab.py [--batch 20000] [--engine 30]``
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from threadpoolctl import threadpool_limits

from sevens.bots import get_strategy
from sevens.lab import kernels
from sevens.lab.cores import available_cores
from sevens.lab.registry import BUILTINS, resolve
from sevens.lab.sampling import TableSampler
from sevens.lab.simulate import Sampler, simulate
from sevens.rules import SeededDice
from sevens.tournament.formats import Format
from sevens.tournament.game import autopilot_orders, new_game, play_turn
from sevens.tournament.setup import Player, PlayerId, draw_game

NAMES = ("even", "group-blitz", "knockout-saver", "random")
EVERY_BUILTIN = tuple(BUILTINS)  # the registry's, so that a new built-in is timed with the rest
FORMAT = Format(16, 16, 1)


def engine_rate(games: int) -> float:
    """Whole games through sevens.tournament (seeded dice, bots as autopilots), one by one."""
    people = [Player(PlayerId(f"p{k}"), f"P{k}") for k in range(16)]
    start = time.perf_counter()
    for i in range(games):
        setup = draw_game(people, FORMAT, seed_sha256="0" * 64, draw_seed=i)
        for t, team in enumerate(setup.teams):
            setup = setup.with_autopilot(team.id, NAMES[t % 4])
        game = new_game(setup)
        seed = f"{i + 1:064x}"
        while not game.finished:
            n = game.turn_number
            orders = autopilot_orders(game, game.teams_in_play(), get_strategy, seed=seed)
            game = play_turn(game, orders, lambda s, n=n, i=i: SeededDice(random.Random(f"{i}/{n}/{s}")))
    return games / (time.perf_counter() - start)


def batch_rate(
    batch: int, sampler: Sampler, repeats: int = 5, *, compiled: bool | None = None, threads: int | None = None,
    names: tuple[str, ...] = NAMES, warm: int = 1,
) -> float:
    """The batched simulator with built-in strategies seated in turn (alias tables, compiled code
    and the smart strategies' decisions warmed by ``warm`` batches first)."""
    strategies = [resolve(name) for name in names]
    seats = np.tile(np.arange(16) % len(names), (batch, 1))
    rng = np.random.default_rng(1)
    tables = TableSampler()
    for _ in range(warm):
        simulate(16, seats, strategies, rng, sampler=sampler, tables=tables, compiled=compiled, threads=threads)
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        simulate(16, seats, strategies, rng, sampler=sampler, tables=tables, compiled=compiled, threads=threads)
        best = max(best, batch / (time.perf_counter() - start))
    return best


def first_batch_rate(batch: int) -> float:
    """The batched simulator's first batch, from no tables at all: what a lab run's start costs
    (compiled code warmed first, on a batch of its own)."""
    strategies = [resolve(name) for name in NAMES]
    seats = np.tile(np.arange(16) % 4, (batch, 1))
    simulate(16, seats[:1], strategies, np.random.default_rng(0), tables=TableSampler(), compiled=True, threads=1)
    start = time.perf_counter()
    simulate(16, seats, strategies, np.random.default_rng(1), tables=TableSampler(), compiled=True, threads=1)
    return batch / (time.perf_counter() - start)


def reference_rate(batch: int, repeats: int = 5, *, threads: int = 1) -> float:
    """The bound set by the generator: one uniform per team per match, turn by turn, nothing else;
    with several threads, each draws for its share of the batch from its own generator."""
    rngs = [np.random.default_rng(k) for k in range(threads)]
    playing = [16, 16, 16, 8, 4, 2]  # teams in play each turn (R6): 62 team-matches
    share = -(-batch // threads)

    def draw(rng: np.random.Generator) -> None:
        for n in playing:
            rng.random((share, n))

    best = 0.0
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for _ in range(repeats):
            start = time.perf_counter()
            list(pool.map(draw, rngs))
            best = max(best, share * threads / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=20000)
    parser.add_argument("--engine", type=int, default=30)
    args = parser.parse_args()
    engine = engine_rate(args.engine)
    cores = available_cores()  # as simulate and the lab size their threads: taskset is respected
    on_all = f"{cores} thread{'s' if cores > 1 else ''}"
    nan = float("nan")
    loop = kernels.AVAILABLE  # without numba the compiled rows read nan
    one = batch_rate(args.batch, Sampler.TABLES, compiled=True, threads=1) if loop else nan
    every = batch_rate(args.batch, Sampler.TABLES, compiled=True, threads=cores) if loop else nan
    first = first_batch_rate(args.batch) if loop else nan
    # The smart strategies decide each new case once (milliseconds of exact odds): warm longer.
    with threadpool_limits(limits=1, user_api="blas"):
        every_builtin = (
            batch_rate(args.batch, Sampler.TABLES, compiled=True, threads=1, names=EVERY_BUILTIN, warm=10) if loop else nan
        )
    numpy_only = batch_rate(args.batch, Sampler.TABLES, compiled=False)
    direct = batch_rate(args.batch, Sampler.DIRECT)
    reference = reference_rate(args.batch)
    reference_all = reference_rate(args.batch, threads=cores)
    all_builtins = f"all {len(EVERY_BUILTIN)} built-ins"
    rows = [
        ("rules engine, whole games one by one", engine),
        ("batched simulator, compiled loop, 1 thread", one),
        (f"batched simulator, compiled loop, {on_all}", every),
        ("  first batch, its tables built on the way, 1 thread", first),
        (f"  {all_builtins} seated, 1 thread", every_builtin),
        ("batched simulator, numpy only, alias tables", numpy_only),
        ("batched simulator, numpy only, closed-form draws", direct),
        ("reference: one uniform per team per match", reference),
        (f"reference on {on_all}", reference_all),
    ]
    print(f"16-team tournaments; seated in turn: {', '.join(NAMES)} (the engine's autopilots too),")
    print(f"and in the row of {all_builtins}: {', '.join(EVERY_BUILTIN)}.")
    print()
    print(f"{'what':<52}{'tournaments/s':>16}")
    for name, rate in rows:
        print(f"{name:<52}{rate:>16,.0f}")
    print()
    print(f"compiled, 1 thread / engine:              {one / engine:10.0f}x   (target >= 100x)")
    print(f"compiled, {on_all} / engine:             {every / engine:10.0f}x")
    print(f"numpy / engine:                           {numpy_only / engine:10.0f}x")
    print(f"first batch / compiled, 1 thread:         {first / one:10.3f}")
    print(f"{all_builtins + ' / compiled, 1 thread:':<42}{every_builtin / one:10.3f}")
    print(f"{all_builtins + ' / reference, 1 thread:':<42}{every_builtin / reference:10.3f}")
    print(f"compiled, 1 thread / reference, 1 thread: {one / reference:10.3f}    (target >= 0.25)")
    print(f"compiled, {on_all} / reference, {on_all}:{every / reference_all:10.3f}")
    print(f"compiled, {on_all} / reference, 1 thread:{every / reference:10.3f}")
    print(f"numpy / reference, 1 thread:              {numpy_only / reference:10.3f}")


if __name__ == "__main__":
    main()
