"""The small tables every live odds question shares, worked out at the odds process's start
(docs/web.md): the same to the bit as written the plain way, and cheap enough to make all of."""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import pytest

from sevens.odds import clear_caches, joint, points
from sevens.odds.api import warm_shared_tables
from sevens.odds.tables import flair_tables, force_die


@pytest.fixture(autouse=True)
def _cleared() -> Iterator[None]:
    clear_caches()
    yield
    clear_caches()


def _cutoff_by_fractions(options: int, budget: float) -> tuple[int, Fraction]:
    # As the module's docstring defines it: the smallest L with P(J > L) within the budget.
    r = flair_tables().ratio
    kept = Fraction(0)
    j = 0
    while True:
        kept += math.comb(j + options - 1, j) * r**j * (1 - r) ** options
        if 1 - kept <= Fraction(budget):
            return j, 1 - kept
        j += 1


@pytest.mark.parametrize("budget", [points.TAIL_BUDGET, joint._CUT_BUDGET, 1e-3, 1e-40])
def test_the_cut_on_scoring_doubles_and_its_weights_are_the_fractions_to_the_bit(budget: float) -> None:
    r = flair_tables().ratio
    for options in range(1, 54):
        cut, tail = _cutoff_by_fractions(options, budget)
        assert points.doubles_cutoff(options, budget) == (cut, tail)
        weights = tuple(float(math.comb(j + options - 1, j) * r**j * (1 - r) ** options) for j in range(cut + 1))
        assert points.doubles_weights(options, budget) == weights


def test_each_count_of_dice_and_options_worked_out_from_the_one_before_is_the_same_to_the_bit() -> None:
    die = points._from_pairs(force_die().point_pmf())
    final = points._from_pairs(flair_tables().final.point_pmf())
    for count in (0, 1, 2, 17, 53, 160):
        assert points._force_points(count).tobytes() == points._power(die, count).tobytes()
        if count <= 53:
            assert points._flair_finals(count).tobytes() == points._power(final, count).tobytes()


def test_the_start_makes_each_table_from_the_one_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each count of dice raised from nothing took 160 * 161 / 2 convolutions for the points alone
    (and as many again for the options' throws); one more each from the count before takes one."""
    made = 0
    convolve = np.convolve

    def counted(*args: object, **kwargs: object) -> object:
        nonlocal made
        made += 1
        return convolve(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(np, "convolve", counted)
    warm_shared_tables()
    # 160 dice, 53 options' throws, 53 options' points and their runs of doubles, one each.
    assert made <= 160 + 2 * 53 + 30
