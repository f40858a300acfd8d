"""Full 16-team tournaments per second: the rules engine one by one, the batched simulator, and the
random-number bound (one uniform per team per match), with the ratios.

Run: ``.venv/bin/python benchmarks/lab.py [--batch 20000] [--engine 30]``
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from sevens.bots import get_strategy
from sevens.lab import kernels
from sevens.lab.registry import resolve
from sevens.lab.sampling import TableSampler
from sevens.lab.simulate import Sampler, simulate
from sevens.rules import SeededDice
from sevens.tournament.formats import Format
from sevens.tournament.game import autopilot_orders, new_game, play_turn
from sevens.tournament.setup import Player, PlayerId, draw_game

NAMES = ("even", "group-blitz", "knockout-saver", "random")
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


def batch_rate(batch: int, sampler: Sampler, repeats: int = 3, *, compiled: bool | None = None) -> float:
    """The batched simulator with the built-in strategies (alias tables and compiled code warmed first)."""
    strategies = [resolve(name) for name in NAMES]
    seats = np.tile(np.arange(16) % 4, (batch, 1))
    rng = np.random.default_rng(1)
    tables = TableSampler()
    simulate(16, seats, strategies, rng, sampler=sampler, tables=tables, compiled=compiled)
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        simulate(16, seats, strategies, rng, sampler=sampler, tables=tables, compiled=compiled)
        best = max(best, batch / (time.perf_counter() - start))
    return best


def reference_rate(batch: int, repeats: int = 3) -> float:
    """The bound set by the generator: one uniform per team per match, turn by turn, nothing else."""
    rng = np.random.default_rng(1)
    playing = [16, 16, 16, 8, 4, 2]  # teams in play each turn (R6): 62 team-matches
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        for n in playing:
            rng.random((batch, n))
        best = max(best, batch / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=20000)
    parser.add_argument("--engine", type=int, default=30)
    args = parser.parse_args()
    engine = engine_rate(args.engine)
    tables = batch_rate(args.batch, Sampler.TABLES) if kernels.AVAILABLE else float("nan")
    numpy_only = batch_rate(args.batch, Sampler.TABLES, compiled=False)
    direct = batch_rate(args.batch, Sampler.DIRECT)
    reference = reference_rate(args.batch)
    print(f"{'what':<48}{'tournaments/s':>16}")
    print(f"{'rules engine, whole games one by one':<48}{engine:>16,.1f}")
    print(f"{'batched simulator, compiled loops (numba)':<48}{tables:>16,.0f}")
    print(f"{'batched simulator, numpy only, alias tables':<48}{numpy_only:>16,.0f}")
    print(f"{'batched simulator, closed-form draws':<48}{direct:>16,.0f}")
    print(f"{'reference: one uniform per team per match':<48}{reference:>16,.0f}")
    print()
    print(f"batched (compiled) / engine:   {tables / engine:10.0f}x   (target >= 100x)")
    print(f"batched (numpy) / engine:      {numpy_only / engine:10.0f}x")
    print(f"batched (direct) / engine:     {direct / engine:10.0f}x")
    print(f"batched (compiled) / reference:{tables / reference:10.3f}    (target >= 0.25)")
    print(f"batched (numpy) / reference:   {numpy_only / reference:10.3f}")


if __name__ == "__main__":
    main()
