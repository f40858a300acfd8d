"""The compiled loops (sevens.lab.kernels): the same orders as the batch strategies, reproducible
batches, and the same results whichever strategies decide in the loop."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sevens.lab import kernels
from sevens.lab.sampling import TableSampler
from sevens.lab.simulate import Sampler, simulate
from sevens.lab.strategies import (
    BatchView,
    EvenPacing,
    GroupBlitzPacing,
    KnockoutSaverPacing,
    RandomPacing,
)
from sevens.rules import FLAIR_OPTION_COST, MAX_ORDER_POINTS
from sevens.tournament.formats import Stage

needs_numba = pytest.mark.skipif(not kernels.AVAILABLE, reason="numba is not installed")


class _NoJitter:
    """Stands in for the generator: the bots' jitter is uniform(-0.1, 0.1); this one gives 0."""

    def uniform(self, low: float, high: float, size: int) -> np.ndarray:
        return np.zeros(size)


def _view(scrum: np.ndarray, turn: int, turns_left: int, group_left: int) -> BatchView:
    n = scrum.size
    zeros = np.zeros(n, dtype=np.int64)
    return BatchView(
        teams=16, turn=turn, stage=Stage.GROUP if group_left else Stage.QUARTER_FINAL,
        turns_left=turns_left, group_matches_left=group_left, scrum=scrum, opponent_scrum=scrum,
        league_points=zeros, opponent_league_points=zeros, group_position=zeros + 1,
        home=np.ones(n, dtype=bool), tournament=zeros, team=zeros,
    )


@pytest.mark.parametrize(
    "strategy", [EvenPacing(), EvenPacing(flair=1.0), EvenPacing(flair=0.0), GroupBlitzPacing(), KnockoutSaverPacing()]
)
def test_orders_in_the_loop_are_the_strategies_orders(strategy: Any) -> None:
    """R3 and the pacing formulas: with the jitter fixed, the loop's order equals the strategy's own."""
    scrum = np.arange(0, 161, dtype=np.int64)
    kind, param, share = kernels.spec(strategy)  # type: ignore[misc]
    for turn, turns_left, group_left in [(1, 6, 3), (2, 5, 2), (3, 4, 1), (4, 3, 0), (6, 1, 0)]:
        expected_force, expected_flair = strategy.orders(_view(scrum, turn, turns_left, group_left), _NoJitter())
        base = 0.5 if group_left else 0.6
        fixed = base if np.isnan(share) else share
        got = [
            kernels._order(kind, param, fixed, int(h), turns_left, group_left, base, MAX_ORDER_POINTS,
                           FLAIR_OPTION_COST, np.random.default_rng(0))
            for h in scrum
        ]
        assert [f for f, _ in got] == expected_force.tolist()
        assert [o * FLAIR_OPTION_COST for _, o in got] == expected_flair.tolist()


def test_only_the_exact_builtin_classes_run_in_the_loop() -> None:
    """A subclass may override orders(), so it decides through orders() like any other strategy."""

    class Mine(EvenPacing):
        pass

    assert kernels.spec(RandomPacing()) == (kernels.RANDOM, 0.0, pytest.approx(np.nan, nan_ok=True))
    assert kernels.spec(GroupBlitzPacing(reserve=7))[:2] == (kernels.GROUP_BLITZ, 7.0)  # type: ignore[index]
    assert kernels.spec(Mine()) is None


@needs_numba
def test_compiled_batches_are_reproducible_and_legal() -> None:
    """Same seed, same batch; every team ends with SCRUM in 0..160 and spent what it ordered (R3, R4)."""
    seats = np.tile(np.arange(16) % 4, (300, 1))
    strategies = [EvenPacing(), GroupBlitzPacing(), KnockoutSaverPacing(), RandomPacing()]
    one = simulate(16, seats, strategies, np.random.default_rng(5), compiled=True)
    two = simulate(16, seats, strategies, np.random.default_rng(5), compiled=True, tables=TableSampler())
    for field in ("champion", "group_points", "group_position", "scrum_left", "group_lines", "knockout_decided"):
        assert np.array_equal(getattr(one, field), getattr(two, field)), field
    assert one.scrum_left.min() >= 0 and one.scrum_left.max() <= MAX_ORDER_POINTS
    # Every group position 1-4 once per group; the champion won every knockout round it played.
    places = np.sort(one.group_position.reshape(300, 4, 4), axis=-1)
    assert (places == np.arange(1, 5)).all()
    assert (one.knockout_wins[np.arange(300), one.champion] == 3).all()


@needs_numba
def test_the_loop_and_orders_give_the_same_batch() -> None:
    """Strategies decided in the loop or through orders(): the same law, checked on league points."""
    seats = np.tile(np.arange(8) % 2, (20000, 1))
    fused = simulate(8, seats, [EvenPacing(), RandomPacing()], np.random.default_rng(1), compiled=True)

    class Even(EvenPacing):  # decides through orders()
        pass

    adapted = simulate(8, seats, [Even(), RandomPacing()], np.random.default_rng(2), compiled=True)
    a, b = fused.group_points.mean(axis=0), adapted.group_points.mean(axis=0)
    se = np.sqrt((fused.group_points.var(axis=0) + adapted.group_points.var(axis=0)) / 20000)
    assert (np.abs(a - b) < 4 * se).all()
    assert (a[::2] > a[1::2]).all() or (a[::2] < a[1::2]).all()  # the two strategies differ


@needs_numba
def test_compiled_needs_the_tables_sampler() -> None:
    """compiled=True with the closed-form sampler is refused with a clear message."""
    with pytest.raises(ValueError, match="alias tables"):
        simulate(8, np.zeros((2, 8), dtype=np.int64), [EvenPacing()], np.random.default_rng(1),
                 sampler=Sampler.DIRECT, compiled=True)
