"""The exact match chances and per-point figures against a brute force over the dice.

Nothing here is typed in: the brute force (odds_brute.py) scores every throw with the rules engine,
and follows FLAIR options to a depth of doubles, so its chances are lower bounds short by at most
the mass it leaves out; the exact fractions must lie between.
"""

from __future__ import annotations

import itertools
import math
import random
import sys
from fractions import Fraction

import odds_brute
import pytest
from match_before import match_before

from sevens.odds import ExactMatch, exact_knockout, exact_match, exact_matches, match_odds, per_point, splits
from sevens.odds.exact_match import _exact_match
from sevens.rules import (
    MAX_ORDER_POINTS,
    Order,
    OrderError,
    SeededDice,
    flair_throw_line,
    force_die_line,
    group_outcome,
    play_order,
)

DEPTH = 3


@pytest.mark.parametrize(("a", "b"), [((1, 0), (2, 0)), ((4, 0), (3, 0)), ((0, 3), (3, 0)), ((3, 0), (0, 3)),
                                      ((0, 3), (0, 3)), ((2, 3), (1, 6)), ((0, 6), (5, 0)), ((0, 0), (0, 3))])
def test_exact_match_lies_within_the_brute_force(a: tuple[int, int], b: tuple[int, int]) -> None:
    exact = exact_match(Order(force=a[0], flair=a[1]), Order(force=b[0], flair=b[1]))
    options = a[1] // 3 + b[1] // 3
    brute = odds_brute.group_odds((a[0], a[1] // 3), (b[0], b[1] // 3), DEPTH)
    left_out = odds_brute.missing(options, DEPTH)
    assert exact.win + exact.draw + exact.loss == 1
    for got, low in zip((exact.win, exact.draw, exact.loss), brute, strict=True):
        assert low <= got <= low + left_out
        if not options:  # nothing to leave out: the brute force is exact too
            assert got == low


def test_exact_match_agrees_with_the_floats_within_their_tail_bound() -> None:
    a, b = Order(force=10, flair=9), Order(force=6, flair=12)
    exact, floats = exact_match(a, b), match_odds(a, b)
    for got, near in ((exact.win, floats.win), (exact.draw, floats.draw), (exact.loss, floats.loss)):
        assert abs(float(got) - near) <= floats.tail_bound + 1e-15


def test_every_pair_of_orders_a_team_can_give_is_worked_out() -> None:
    # Two FLAIR sides were refused past 90 points between them until odds4; now the largest orders
    # R3 allows are worked out, and agree with the floats (another method: each order's points,
    # cut where less than 1e-10 is left) within their tail bound.
    for a, b in ((Order(force=1, flair=159), Order(force=1, flair=159)), (Order(force=0, flair=45), Order(force=3, flair=45)),
                 (Order(force=100, flair=60), Order(force=160, flair=0))):
        exact, floats = exact_match(a, b), match_odds(a, b)
        assert exact.win + exact.draw + exact.loss == 1
        for got, near in ((exact.win, floats.win), (exact.draw, floats.draw), (exact.loss, floats.loss)):
            # The floats' rounding over hundreds of totals adds about 1e-15 to their tail bound here.
            assert abs(float(got) - near) <= floats.tail_bound + 1e-13
    assert exact_match(Order(force=1, flair=159), Order(force=1, flair=159)).draw.denominator > 10**800
    with pytest.raises(OrderError, match="more than any team can ever hold"):
        Order(force=MAX_ORDER_POINTS, flair=3)


def test_a_side_of_force_alone_gives_the_knockouts_first_step() -> None:
    # exact_match sent such a match to exact_knockout until odds4 (it was faster than the residues
    # then): count-back's first step, points, is the group result, and the fractions are the same.
    for a, b in (((10, 0), (2, 9)), ((60, 0), (0, 60)), ((0, 0), (0, 3)), ((7, 0), (5, 0)), ((30, 9), (45, 0))):
        first, second = Order(force=a[0], flair=a[1]), Order(force=b[0], flair=b[1])
        for x, y in ((first, second), (second, first)):
            counted = exact_knockout(x, y)
            assert exact_match(x, y) == ExactMatch(win=counted.win_by[0], draw=1 - counted.win_by[0] - counted.loss_by[0],
                                                   loss=counted.loss_by[0])


def _before(a: Order, b: Order) -> ExactMatch:
    """The old method, summing at the poles of the side with fewer FLAIR options as it did."""
    if b.options > a.options:
        turned = match_before(b, a)
        return ExactMatch(win=turned.loss, draw=turned.draw, loss=turned.win)
    return match_before(a, b)


SMALL = [(f, k) for f in (0, 1, 4) for k in (0, 3, 6, 12)]


@pytest.mark.parametrize("a", SMALL)
def test_the_faster_fractions_are_those_worked_out_before_both_ways_round(a: tuple[int, int]) -> None:
    """Integers multiplied by GMP, the poles outside the circle and Newton's inverse give the same
    fractions as the residues on Python's fractions did, to the last digit, either side first."""
    first = Order(force=a[0], flair=a[1])
    for b in SMALL:
        second = Order(force=b[0], flair=b[1])
        assert exact_match(first, second) == _before(first, second)
        assert exact_match(second, first) == _before(second, first)


@pytest.mark.slow
def test_the_faster_fractions_are_those_worked_out_before_at_the_old_limit() -> None:
    # The old method's slowest at its limit of 90 points (45 FLAIR against 45: about 3 s), and
    # the other sides it measured there.
    for a, b in (((0, 45), (0, 45)), ((30, 15), (0, 45)), ((0, 3), (0, 87)), ((0, 30), (0, 60)), ((11, 30), (4, 45))):
        first, second = Order(force=a[0], flair=a[1]), Order(force=b[0], flair=b[1])
        assert exact_match(first, second) == _before(first, second)


@pytest.mark.parametrize(("a", "b"), [((0, 6), (0, 21)), ((4, 3), (2, 12)), ((0, 9), (7, 9)), ((9, 0), (0, 33)),
                                      ((0, 159), (1, 48))])
def test_the_side_whose_poles_are_summed_changes_no_fraction(a: tuple[int, int], b: tuple[int, int]) -> None:
    first, second = Order(force=a[0], flair=a[1]), Order(force=b[0], flair=b[1])
    turned = _exact_match(second, first)
    assert _exact_match(first, second) == ExactMatch(win=turned.loss, draw=turned.draw, loss=turned.win)


@pytest.mark.slow
def test_exact_match_past_the_old_limit_matches_the_rules_engine() -> None:
    """Win, draw and loss of two orders of 111 points between them (refused before odds4) within
    4.5 standard errors of what the rules engine's own dice give over 40,000 matches (see
    test_odds_vs_engine.py)."""
    a, b = Order(force=0, flair=57), Order(force=9, flair=45)
    dice = SeededDice(random.Random(20261205))
    matches = 40_000
    seen = {"home": 0, None: 0, "away": 0}
    for _ in range(matches):
        seen[group_outcome(play_order(a, dice).line, play_order(b, dice).line).winner] += 1
    exact = exact_match(a, b)
    for key, p in (("home", exact.win), (None, exact.draw), ("away", exact.loss)):
        spread = 4.5 * math.sqrt(float(p * (1 - p)) / matches)
        assert abs(seen[key] / matches - float(p)) <= spread, (key, seen[key] / matches, float(p))


def _enumerated_per_point() -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]:
    """Mean and variance of a FORCE die and of a FLAIR option from the 6 faces and 36 throws alone.

    An option's points are X = Y + [double] X' with Y one throw's points and X' a fresh option, so
    E[X] = E[Y] / (1 - d) and E[X^2] = (E[Y^2] + 2 E[Y; double] E[X]) / (1 - d), d = P(double).
    """
    faces = [Fraction(force_die_line(face).points) for face in range(1, 7)]
    die_mean = sum(faces) / 6
    die_var = sum(x * x for x in faces) / 6 - die_mean**2
    throws = [(a == b, Fraction(flair_throw_line(a, b).points)) for a, b in itertools.product(range(1, 7), repeat=2)]
    d = Fraction(sum(1 for double, _ in throws if double), 36)
    ey = sum(y for _, y in throws) / 36
    ey2 = sum(y * y for _, y in throws) / 36
    ey_double = sum(y for double, y in throws if double) / 36
    mean = ey / (1 - d)
    second = (ey2 + 2 * ey_double * mean) / (1 - d)
    return (die_mean, die_var), (mean, second - mean**2)


def test_per_point_figures_are_the_dice_enumerated() -> None:
    (die_mean, die_var), (option_mean, option_var) = _enumerated_per_point()
    force, flair = per_point()
    assert (force.mean_per_point, force.variance_per_point) == (die_mean, die_var)
    assert (flair.mean_per_point, flair.variance_per_point) == (option_mean / 3, option_var / 3)
    # FLAIR is richer and riskier per point: the lesson's point, from the enumeration itself.
    assert option_mean / 3 > die_mean and option_var / 3 > die_var


def test_per_point_figures_bracket_the_brute_force_of_one_option() -> None:
    force, flair = per_point()
    points = odds_brute.order_points(0, 1, 6)  # every throw sequence with up to 6 doubles
    mean = sum(p * x for p, x in points.items())
    assert mean <= flair.mean < mean + Fraction(1, 10**3)
    dice = odds_brute.order_points(1, 0, 0)
    assert sum(p * x for p, x in dice.items()) == force.mean


def test_every_split_shares_one_inverse_and_gives_the_fractions_of_each_match_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """exact_matches finds the opponent's inverse by Newton's steps once, for the split with most
    options below its own, and reduces it for the others; the fractions are those worked out
    before (match_before.py), split by split."""
    module = sys.modules["sevens.odds.exact_match"]
    vs = Order(force=1, flair=15)  # 5 options: the splits of 12 have 0 to 4
    _exact_match.cache_clear()
    module._INVERSES.clear()
    newton = []
    inverse = module._inverse
    monkeypatch.setattr(module, "_inverse", lambda x, options: newton.append(options) or inverse(x, options))
    orders = splits(12)
    assert exact_matches(orders, vs) == [_before(order, vs) for order in orders]
    assert newton == [4]

