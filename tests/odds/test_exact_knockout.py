"""Knockout chances as exact fractions against a brute force over the dice and against the floats.

The brute force (odds_brute.py) scores every throw with the rules engine and lets its countback
decide every pair of lines; FLAIR is followed to a depth of doubles, so its chances are lower
bounds short by at most the mass it leaves out, and the fractions must lie between.
"""

from __future__ import annotations

import math
from fractions import Fraction

import odds_brute
import pytest

from sevens.odds import MOST_KNOCKOUT_POINTS, STEPS, exact_knockout, knockout_odds
from sevens.rules import Order, countback

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


def test_the_largest_knockout_match_allowed_is_worked_out_and_one_more_is_refused() -> None:
    worst = exact_knockout(Order(force=0, flair=21), Order(force=MOST_KNOCKOUT_POINTS - 21, flair=0))
    assert worst.win + worst.level + worst.loss == 1
    with pytest.raises(ValueError, match=f"up to {MOST_KNOCKOUT_POINTS} SCRUM points"):
        exact_knockout(Order(force=0, flair=21), Order(force=MOST_KNOCKOUT_POINTS - 20, flair=0))
