"""The tail bound is honoured: the truncated distributions against deep exact computations.

Each probability the module reports may fall short of the truth by at most ``tail_bound`` (and never
exceed it beyond float rounding), and the mass it leaves out is the stated bound.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from odds_brute import missing, order_points

from sevens.odds import TAIL_BUDGET, joint_lines, knockout_odds, match_odds, order_odds
from sevens.odds.exact import EXACT_REST, exact_points
from sevens.odds.points import doubles_cutoff
from sevens.rules import MAX_ORDER_POINTS

ROUNDING = 1e-13
DEEP = 16  # the brute force then misses at most 6**-17 ~ 6e-14 per option


@pytest.mark.parametrize(("force", "flair"), [(0, 3), (0, 6), (3, 3)])
def test_truncated_distribution_within_its_bound_of_a_deep_exact_one(force: int, flair: int) -> None:
    """Every probability is within tail_bound below the deep exact one, and the missing mass is the bound."""
    odds = order_odds(force, flair)
    exact = order_points(force, flair // 3, DEEP)
    gap = missing(flair // 3, DEEP)
    pmf = odds.distribution
    shortfall = Fraction(0)
    for points in range(max(len(pmf), max(exact) + 1)):
        mine = Fraction(float(pmf[points])) if points < len(pmf) else Fraction(0)
        truth_low = exact.get(points, Fraction(0))  # truth is in [truth_low, truth_low + gap]
        assert mine <= truth_low + gap + Fraction(ROUNDING), points
        assert truth_low - mine <= Fraction(odds.tail_bound) + Fraction(ROUNDING), points
        shortfall += truth_low - mine
    # The mass left out is the stated bound itself (not merely below it).
    assert abs(shortfall - Fraction(odds.tail_bound)) <= gap + Fraction(ROUNDING)
    assert 0 < odds.tail_bound <= TAIL_BUDGET


def test_doubles_cut_tail_is_the_exact_negative_binomial_tail() -> None:
    """P(J > L) in closed form: one option (1/16)**(L+1); two options (L+2) r**(L+1) - (L+1) r**(L+2)."""
    r = Fraction(1, 16)
    cut, tail = doubles_cutoff(1)
    assert tail == r ** (cut + 1)
    assert r**cut > Fraction(TAIL_BUDGET)  # one double fewer would drop too much: the cut is the smallest
    cut, tail = doubles_cutoff(2)
    assert tail == (cut + 2) * r ** (cut + 1) - (cut + 1) * r ** (cut + 2)


def test_every_order_size_stays_within_the_budget() -> None:
    """Any order up to the largest legal one: the bound is at most 1e-10, so a match errs by at most 2e-10."""
    for options in range(MAX_ORDER_POINTS // 3 + 1):
        assert float(doubles_cutoff(options)[1]) <= TAIL_BUDGET
    big = order_odds(MAX_ORDER_POINTS - 60, 60)
    assert big.tail_bound <= TAIL_BUDGET
    assert big.distribution.sum() + big.tail_bound == pytest.approx(1, abs=ROUNDING)
    joint = joint_lines(40, 20)
    assert joint.tail_bound <= TAIL_BUDGET
    assert joint.probs.sum() + joint.tail_bound == pytest.approx(1, abs=ROUNDING)
    assert match_odds((0, 150), (0, 159)).tail_bound <= 2 * TAIL_BUDGET < 1e-9
    ko = knockout_odds((30, 30), (0, 60))
    assert ko.tail_bound <= 2 * TAIL_BUDGET
    assert ko.win + ko.loss + ko.level == pytest.approx(1, abs=ko.tail_bound + ROUNDING)


@pytest.mark.parametrize(("force", "flair"), [(0, 3), (0, 6), (3, 3), (2, 9)])
def test_exact_points_against_the_brute_force(force: int, flair: int) -> None:
    """The exact distribution (what --json prints) lies between the brute force's lower bounds and
    those plus what the brute force leaves out, at every total; listed and rest make exactly 1."""
    exact = exact_points(force, flair // 3)
    depth = 10
    brute = order_points(force, flair // 3, depth)
    gap = missing(flair // 3, depth)
    for points in range(exact.last + 1):
        low = brute.get(points, Fraction(0))
        assert low <= exact.probability(points) <= low + gap, points
    assert sum(exact.numerators) + exact.rest * exact.denominator == exact.denominator
    assert 0 < exact.rest < EXACT_REST
    # The end is the first total with less than EXACT_REST beyond it.
    assert exact.rest + exact.probability(exact.last) >= EXACT_REST


def test_exact_points_cover_the_largest_orders() -> None:
    """The largest legal orders too: every total to the end, 160 FORCE dice with nothing beyond."""
    dice = exact_points(MAX_ORDER_POINTS, 0)
    assert dice.last == 5 * MAX_ORDER_POINTS and dice.rest == 0
    assert dice.probability(0) == Fraction(2, 3) ** MAX_ORDER_POINTS
    assert sum(dice.numerators) == dice.denominator
    flair = exact_points(1, MAX_ORDER_POINTS // 3)
    assert sum(flair.numerators) + flair.rest * flair.denominator == flair.denominator
    assert flair.probability(0) == Fraction(2, 3) * Fraction(5, 16) ** (MAX_ORDER_POINTS // 3)
