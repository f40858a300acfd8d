"""Knockout chances as exact fractions against a brute force over the dice and against the floats.

The brute force (odds_brute.py) scores every throw with the rules engine and lets its countback
decide every pair of lines; FLAIR is followed to a depth of doubles, so its chances are lower
bounds short by at most the mass it leaves out, and the fractions must lie between.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import odds_brute
import pytest
from knockout_before import knockout_before

from sevens.odds import MOST_KNOCKOUT_POINTS, STEPS, exact_knockout, knockout_odds
from sevens.rules import MAX_ORDER_POINTS, Order, OrderError, SeededDice, countback, play_order

DEPTH = 3
PAIRS = [((1, 0), (2, 0)), ((4, 0), (3, 0)), ((0, 3), (3, 0)), ((3, 0), (0, 3)), ((2, 3), (1, 0)),
         ((0, 6), (5, 0)), ((0, 0), (0, 3)), ((2, 0), (2, 6))]


def _order(pair: tuple[int, int]) -> Order:
    return Order(force=pair[0], flair=pair[1])


def _brute_by_step(a: tuple[int, int], b: tuple[int, int]) -> dict[tuple[str | None, str | None], Fraction]:
    """The chance of each (winner, step that decided it), every pair of lines put to the engine's countback."""
    lines_a = odds_brute.order_lines(a[0], a[1] // 3, DEPTH)
    lines_b = odds_brute.order_lines(b[0], b[1] // 3, DEPTH)
    out: dict[tuple[str | None, str | None], Fraction] = {}
    for x, p in lines_a:
        for y, q in lines_b:
            outcome = countback(x, y)
            key = (None if outcome.winner is None else str(outcome.winner),
                   None if outcome.decided_by is None else str(outcome.decided_by).replace("_", " "))
            out[key] = out.get(key, Fraction(0)) + p * q
    return out


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_exact_knockout_lies_within_the_brute_force(a: tuple[int, int], b: tuple[int, int]) -> None:
    exact = exact_knockout(_order(a), _order(b))
    assert exact.win + exact.level + exact.loss == 1
    brute_win, brute_loss, brute_level = odds_brute.knockout_odds((a[0], a[1] // 3), (b[0], b[1] // 3), DEPTH)
    left_out = odds_brute.missing(a[1] // 3 + b[1] // 3, DEPTH)
    for got, low in ((exact.win, brute_win), (exact.loss, brute_loss), (exact.level, brute_level)):
        assert low <= got <= low + left_out
    by_step = _brute_by_step(a, b)
    for side, split in (("home", exact.win_by), ("away", exact.loss_by)):
        for step, got in zip(STEPS, split, strict=True):
            low = by_step.get((side, step), Fraction(0))
            assert low <= got <= low + left_out, (side, step)
            if not left_out:  # FORCE alone: the brute force is exact too
                assert got == low


def test_exact_knockout_agrees_with_the_floats_within_their_tail_bound() -> None:
    for a, b in (((10, 9), (20, 0)), ((30, 0), (0, 30)), ((0, 21), (99, 0))):
        exact, floats = exact_knockout(_order(a), _order(b)), knockout_odds(a, b)
        for got, near in ((exact.win, floats.win), (exact.loss, floats.loss), (exact.level, floats.level)):
            assert abs(float(got) - near) <= floats.tail_bound + 1e-15


def test_two_flair_sides_have_an_irrational_level_and_are_refused() -> None:
    # 53/225 of pairs of last throws match; then both need the same doubles of each kind:
    # (15/16)**2 * sum_s C(2s, s) / 1024**s = (225/256) / sqrt(1 - 4/1024).
    level = 53 / (16 * math.sqrt(255))
    floats = knockout_odds((0, 3), (0, 3))
    assert abs(floats.level - level) <= floats.tail_bound + 1e-15
    with pytest.raises(ValueError, match="not fractions"):
        exact_knockout(Order(force=0, flair=3), Order(force=3, flair=3))


def test_every_pair_of_orders_a_team_can_give_is_worked_out() -> None:
    # 120 SCRUM points between the two were the most before GMP's products; 160 a side is all R3 allows.
    assert MOST_KNOCKOUT_POINTS == 2 * MAX_ORDER_POINTS
    a, b = (1, 159), (MAX_ORDER_POINTS, 0)
    worst = exact_knockout(_order(a), _order(b))
    assert worst.win + worst.level + worst.loss == 1
    floats = knockout_odds(a, b)
    for got, near in ((worst.win, floats.win), (worst.loss, floats.loss), (worst.level, floats.level)):
        assert abs(float(got) - near) <= floats.tail_bound + 1e-15
    with pytest.raises(OrderError, match="more than any team can ever hold"):
        Order(force=MAX_ORDER_POINTS + 1, flair=0)


SMALL = [((f, k), (g, 0)) for f in range(0, 8, 2) for k in range(0, 16, 3) for g in range(0, 9, 2)]


@pytest.mark.parametrize(("a", "b"), SMALL)
def test_the_faster_fractions_are_those_worked_out_before_both_ways_round(
    a: tuple[int, int], b: tuple[int, int]
) -> None:
    """GMP's products, the FORCE side's lines from the counts of its faces and the three kinds of
    the other side's lines sharing their dice give the same fractions as before, to the last digit."""
    assert exact_knockout(_order(a), _order(b)) == knockout_before(_order(a), _order(b))
    assert exact_knockout(_order(b), _order(a)) == knockout_before(_order(b), _order(a))


@pytest.mark.slow
def test_the_faster_fractions_are_those_worked_out_before_at_the_old_limit() -> None:
    for a, b in (((0, 21), (99, 0)), ((30, 30), (60, 0))):  # the slowest at 120 before
        assert exact_knockout(_order(a), _order(b)) == knockout_before(_order(a), _order(b))


@pytest.mark.slow
def test_exact_knockout_matches_the_rules_engine_by_step() -> None:
    """Each step of count-back's share, won or lost, within 4.5 standard errors of what the rules
    engine's own dice and countback give over 10**5 matches (see test_odds_vs_engine.py)."""
    a, b = Order(force=4, flair=9), Order(force=12, flair=0)
    dice = SeededDice(random.Random(20261205))
    seen: dict[tuple[str | None, str | None], int] = {}
    matches = 100_000
    for _ in range(matches):
        outcome = countback(play_order(a, dice).line, play_order(b, dice).line)
        key = (None if outcome.winner is None else str(outcome.winner),
               None if outcome.decided_by is None else str(outcome.decided_by).replace("_", " "))
        seen[key] = seen.get(key, 0) + 1
    exact = exact_knockout(a, b)
    expected = {(None, None): exact.level}
    for side, split in (("home", exact.win_by), ("away", exact.loss_by)):
        expected.update({(side, step): p for step, p in zip(STEPS, split, strict=True)})
    assert set(seen) <= set(expected)
    for key, p in expected.items():
        spread = 4.5 * math.sqrt(max(float(p * (1 - p)), 1e-12) / matches)
        assert abs(seen.get(key, 0) / matches - float(p)) <= spread, (key, seen.get(key, 0) / matches, float(p))
