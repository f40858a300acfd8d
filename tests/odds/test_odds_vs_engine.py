"""The exact odds agree with the rules engine playing real (seeded) dice.

10^5 matches are played with :func:`sevens.rules.play_order` and
:class:`sevens.rules.SeededDice`; every observed frequency must lie within 4.5 standard errors of the
exact probability (binomial), and each mean within 4.5 standard errors of the exact expected points
(using the exact variance). For a correct implementation a single such check fails with probability
about 6.8e-6 (two-sided normal tail at 4.5 sigma), so the 8 checks here together raise a false
alarm with probability below 6e-5; the seed is fixed, so the test is also deterministic.
"""

from __future__ import annotations

import math
import random

import pytest

from sevens.odds import knockout_odds, match_odds, order_odds
from sevens.rules import Order, SeededDice, countback, group_outcome, play_order

MATCHES = 100_000
SIGMAS = 4.5


def _within(observed: int, p: float, n: int = MATCHES) -> None:
    spread = SIGMAS * math.sqrt(max(p * (1 - p), 1e-12) / n)
    assert abs(observed / n - p) <= spread, (observed / n, p, spread)


@pytest.mark.slow
def test_exact_odds_match_the_rules_engine() -> None:
    """Group win/draw/loss, knockout win/loss/level and mean points, all within 4.5 sigma."""
    a, b = Order(force=6, flair=9), Order(force=0, flair=12)  # mixed v all FLAIR: draws and count-back
    dice = SeededDice(random.Random(20261130))
    group = {"home": 0, "away": 0, None: 0}
    knock = {"home": 0, "away": 0, None: 0}
    points_a = points_b = 0
    for _ in range(MATCHES):
        line_a = play_order(a, dice).line
        line_b = play_order(b, dice).line
        points_a += line_a.points
        points_b += line_b.points
        group[group_outcome(line_a, line_b).winner] += 1
        knock[countback(line_a, line_b).winner] += 1
    g = match_odds(a, b)
    k = knockout_odds(a, b)
    _within(group["home"], g.win)
    _within(group[None], g.draw)
    _within(group["away"], g.loss)
    _within(knock["home"], k.win)
    _within(knock[None], k.level)
    _within(knock["away"], k.loss)
    for order, total in ((a, points_a), (b, points_b)):
        odds = order_odds(order.force, order.flair)
        assert abs(total / MATCHES - odds.expected_points) <= SIGMAS * math.sqrt(odds.variance / MATCHES)
