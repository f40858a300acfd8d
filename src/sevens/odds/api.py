"""The public odds: one order, a group match, a knockout match, the best split of a total.

Every result carries ``tail_bound``: the probability mass the computation left out. Each
probability it reports is then within ``tail_bound`` of the true one (below it, never above,
up to floating rounding: about 1e-15 measured, at most n * 2**-53 for n lines summed), and
``tail_bound`` is at most 1e-10 for an order and 2e-10 for a match.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from sevens.odds import joint
from sevens.odds.exact import exact_points
from sevens.odds.joint import joint_lines, lines_shape
from sevens.odds.points import order_points, round_up
from sevens.odds.tables import ZERO_LINE, ExpectedLine, flair_tables, force_die
from sevens.rules import FLAIR_OPTION_COST, Line, Order, OrderError
from sevens.rules.orders import MAX_ORDER_POINTS

__all__ = [
    "KnockoutOdds",
    "MatchOdds",
    "OrderLike",
    "OrderOdds",
    "SplitOdds",
    "as_order",
    "best_splits",
    "clear_caches",
    "knockout_odds",
    "match_odds",
    "mix_odds",
    "order_odds",
    "splits",
    "warm_shared_tables",
]

OrderLike = Order | tuple[int, int]


def as_order(order: OrderLike) -> Order:
    """An :class:`~sevens.rules.Order` from an order or a ``(force, flair)`` pair (checked, R3).

    >>> as_order((4, 6))
    Order(force=4, flair=6)
    >>> as_order((0, 5))
    Traceback (most recent call last):
    ...
    sevens.rules.orders.OrderError: R3: FLAIR points must be a multiple of 3 (one option per 3 points); got 5, try 3 or 6
    >>> as_order((60,))
    Traceback (most recent call last):
    ...
    sevens.rules.orders.OrderError: R3: an order is an Order or a (force, flair) pair of SCRUM points, got (60,)
    """
    if isinstance(order, Order):
        return order
    try:
        force, flair = order
    except (TypeError, ValueError):  # not a pair: say what an order is rather than how unpacking failed
        raise OrderError("R3", f"an order is an Order or a (force, flair) pair of SCRUM points, got {order!r}") from None
    return Order(force=force, flair=flair)


@dataclass(frozen=True, slots=True, eq=False)
class OrderOdds:
    """What one order scores: the exact distribution of points and the expected line.

    Attributes:
        order: the order.
        distribution: ``distribution[p]`` = probability of exactly ``p`` points (read-only).
        tail_bound: mass missing from ``distribution`` (rigorous, exact before rounding up).
        expected: expected tries, conversions, penalties, drop goals, as fractions.
        variance_exact: variance of the points, as a fraction.
        p_zero_exact: probability of no points at all, as a fraction.
        expected_flair_throws: expected number of FLAIR throws, as a fraction (R2: 6/5 an option).
    """

    order: Order
    distribution: NDArray[np.float64]
    tail_bound: float
    expected: ExpectedLine
    variance_exact: Fraction
    p_zero_exact: Fraction
    expected_flair_throws: Fraction

    @property
    def expected_points_exact(self) -> Fraction:
        return self.expected.points

    @property
    def expected_points(self) -> float:
        return float(self.expected.points)

    @property
    def variance(self) -> float:
        return float(self.variance_exact)

    @property
    def p_zero(self) -> float:
        return float(self.p_zero_exact)

    def to_dict(self, *, exact: bool = False) -> dict[str, Any]:
        """The odds as plain JSON-ready data, the exact figures as fraction strings too.

        ``distribution`` lists every point total with a chance above zero from 0 up to
        ``rest["above"]``, each chance the float nearest its exact value (from
        :func:`~sevens.odds.exact.exact_points`, not cut like :attr:`distribution`); ``rest`` is the
        exact chance of more points than that (below 1e-20; 0 for FORCE alone), so the listed chances
        and ``rest`` make exactly 1. ``exact=True`` adds ``distribution_exact``, the same totals
        with their chances as fractions.

        >>> data = order_odds(3, 0).to_dict()
        >>> data["expected_points_exact"], data["distribution"][0], data["rest"]
        ('4', [0, 0.2962962962962963], {'above': 15, 'p': 0.0, 'exact': '0'})
        >>> order_odds(0, 3).to_dict(exact=True)["distribution_exact"][:3]
        [[0, '5/16'], [3, '3/16'], [5, '3/16']]
        """
        points = exact_points(self.order.force, self.order.options)
        listed = [(p, points.probability(p)) for p in range(points.last + 1) if points.numerators[p]]
        data: dict[str, Any] = {
            "force": self.order.force,
            "flair": self.order.flair,
            "expected_points": self.expected_points,
            "expected_points_exact": str(self.expected_points_exact),
            "variance": self.variance,
            "variance_exact": str(self.variance_exact),
            "p_zero": self.p_zero,
            "p_zero_exact": str(self.p_zero_exact),
            "distribution": [[p, float(chance)] for p, chance in listed],
            "rest": {"above": points.last, "p": float(points.rest), "exact": str(points.rest)},
            "expected_lines": self.expected.as_floats(),
            "expected_lines_exact": {key: str(value) for key, value in self.expected.as_fractions().items()},
            "expected_flair_throws": float(self.expected_flair_throws),
            "expected_flair_throws_exact": str(self.expected_flair_throws),
        }
        if exact:
            data["distribution_exact"] = [[p, str(chance)] for p, chance in listed]
        return data


ORDER_ODDS_BYTES = 2 * joint.ENTRY_BYTES
"""What an order's odds hold besides their array, counted with it: their exact figures, four
Fractions some of whose whole numbers run to a few dozen bytes, take about 980 bytes with the
entry's key and place (tests/odds/test_memory.py), more than :data:`~sevens.odds.joint.ENTRY_BYTES`."""


def _order_odds(order: Order, scope: Hashable | None = None) -> OrderOdds:
    # Its distribution is the array order_points keeps too, counted with each: the points, made and
    # so last used before the odds, may be pushed out first, and the odds alone must count it.
    return joint.kept((scope, "order", order), lambda: _new_order_odds(order, scope),
                      lambda made: made.distribution.nbytes + ORDER_ODDS_BYTES)


def _new_order_odds(order: Order, scope: Hashable | None) -> OrderOdds:
    die = force_die()
    flair = flair_tables()
    options = order.options
    pmf, tail = order_points(order.force, options, scope)
    return OrderOdds(
        order=order,
        distribution=pmf,
        tail_bound=round_up(tail),
        expected=ZERO_LINE + die.mean() * order.force + flair.mean() * options,
        variance_exact=die.points_variance() * order.force + flair.points_variance() * options,
        p_zero_exact=die.probability(Line()) ** order.force * flair.p_zero() ** options,
        expected_flair_throws=flair.expected_throws * options,
    )


def order_odds(force: int, flair: int, *, scope: Hashable | None = None) -> OrderOdds:
    """The exact odds of one order (R1, R2). Cached per order.

    Args:
        force: FORCE points (one die each).
        flair: FLAIR points, a multiple of 3 (one option each 3, R3).
        scope: one asker of the live odds, whose cache is kept apart from everyone else's
            (:func:`~sevens.odds.joint.joint_lines`); the odds are the same.

    Raises:
        OrderError: the order breaks R3.

    >>> odds = order_odds(0, 3)
    >>> odds.expected_points_exact, odds.expected_flair_throws
    (Fraction(61, 15), Fraction(6, 5))
    >>> order_odds(3, 0).expected_points_exact
    Fraction(4, 1)
    >>> round(float(odds.distribution[7]), 6), odds.tail_bound < 1e-10
    (0.1875, True)
    """
    return _order_odds(Order(force=force, flair=flair), scope)


@dataclass(frozen=True, slots=True)
class MatchOdds:
    """Group-stage odds from the first team's side: points alone decide (seed 6)."""

    win: float
    draw: float
    loss: float
    tail_bound: float

    @property
    def share(self) -> float:
        """Expected share of the league points: win + draw / 2."""
        return self.win + self.draw / 2

    def to_dict(self) -> dict[str, float]:
        return {"win": self.win, "draw": self.draw, "loss": self.loss}


@dataclass(frozen=True, slots=True)
class KnockoutOdds:
    """Knockout odds from the first team's side after count-back on the lines (R9).

    ``level`` is the chance that points, tries, conversions and drop goals are all equal, so the
    group record and then lots decide.
    """

    win: float
    loss: float
    level: float
    tail_bound: float

    @property
    def share(self) -> float:
        """Chance of going through if a level match were a coin toss: win + level / 2."""
        return self.win + self.level / 2

    def to_dict(self) -> dict[str, float]:
        return {"win": self.win, "loss": self.loss, "level": self.level}


def _match_odds(a: Order, b: Order, scope: Hashable | None = None) -> MatchOdds:
    return joint.kept((scope, "match", a, b), lambda: _new_match_odds(a, b, scope), _small)


def _small(_: object) -> int:
    return joint.ENTRY_BYTES


def _new_match_odds(a: Order, b: Order, scope: Hashable | None) -> MatchOdds:
    first = _order_odds(a, scope)
    second = _order_odds(b, scope)
    pa, pb = first.distribution, second.distribution
    below = np.concatenate(([0.0], np.cumsum(pb)))  # below[s] = P(B < s) for s <= len(pb)
    above = np.concatenate((np.cumsum(pb[::-1])[::-1], [0.0]))  # above[s] = P(B >= s)
    points = np.minimum(np.arange(len(pa)), len(pb))
    draw_b = np.zeros(len(pa))
    shared = min(len(pa), len(pb))
    draw_b[:shared] = pb[:shared]
    return MatchOdds(
        win=float(pa @ below[points]),
        draw=float(pa @ draw_b),
        loss=float(pa @ above[np.minimum(points + 1, len(pb))]),
        tail_bound=first.tail_bound + second.tail_bound,
    )


def match_odds(a: OrderLike, b: OrderLike, *, scope: Hashable | None = None) -> MatchOdds:
    """Group-stage win/draw/loss of order ``a`` against order ``b`` (seed 6: points decide).
    ``scope``: as for :func:`order_odds`.

    >>> odds = match_odds((1, 0), (1, 0))
    >>> round(odds.win, 12), round(odds.draw, 12), round(odds.loss, 12)
    (0.25, 0.5, 0.25)
    """
    return _match_odds(as_order(a), as_order(b), scope)


def _knockout_odds(a: Order, b: Order, *, keep: bool = True, scope: Hashable | None = None) -> KnockoutOdds:
    # ``keep``: whether ``a``'s joint lines, if worked out here, join their cache (joint_lines); the
    # odds are kept either way.
    return joint.kept((scope, "knockout", a, b), lambda: _new_knockout_odds(a, b, keep, scope), _small)


def _new_knockout_odds(a: Order, b: Order, keep: bool, scope: Hashable | None) -> KnockoutOdds:
    first = joint_lines(a.force, a.options, keep=keep, scope=scope)
    second = joint_lines(b.force, b.options, scope=scope)
    at = np.searchsorted(second.keys, first.keys, side="left")
    inside = np.minimum(at, len(second.keys) - 1)
    equal = (at < len(second.keys)) & (second.keys[inside] == first.keys)
    tie_mass = np.where(equal, second.probs[inside], 0.0)
    return KnockoutOdds(
        win=float(first.probs @ second.below[at]),
        loss=float(first.probs @ second.above[at + equal]),
        level=float(first.probs @ tie_mass),
        tail_bound=first.tail_bound + second.tail_bound,
    )


def knockout_odds(a: OrderLike, b: OrderLike, *, scope: Hashable | None = None) -> KnockoutOdds:
    """Knockout win/loss/level of order ``a`` against ``b``, count-back included (R9), exactly.
    ``scope``: as for :func:`order_odds`.

    >>> odds = knockout_odds((1, 0), (1, 0))
    >>> round(odds.win, 12), round(odds.loss, 12), round(odds.level, 12)
    (0.25, 0.25, 0.5)
    """
    return _knockout_odds(as_order(a), as_order(b), scope=scope)


def mix_odds(
    a: OrderLike, mix: Sequence[tuple[OrderLike, float]], *, knockout: bool, scope: Hashable | None = None
) -> MatchOdds | KnockoutOdds:
    """The odds of order ``a`` against a side that plays each order of ``mix`` with its weight
    (weights summing to 1): the weighted average of the odds against each, exact since the two
    sides' dice are independent of which order was drawn. Knockout rules count back (R9).
    ``scope``: as for :func:`order_odds`.

    >>> odds = mix_odds((1, 0), [((1, 0), 0.5), ((0, 0), 0.5)], knockout=False)  # halfway between 1+0 and 0+0
    >>> round(odds.win, 12), round(odds.draw, 12), round(odds.loss, 12)
    (0.291666666667, 0.583333333333, 0.125)
    """
    first = as_order(a)
    win = tie = loss = bound = 0.0
    for order, weight in mix:
        if knockout:
            k = _knockout_odds(first, as_order(order), scope=scope)
            win, tie, loss = win + weight * k.win, tie + weight * k.level, loss + weight * k.loss
            bound = max(bound, k.tail_bound)
        else:
            m = _match_odds(first, as_order(order), scope)
            win, tie, loss = win + weight * m.win, tie + weight * m.draw, loss + weight * m.loss
            bound = max(bound, m.tail_bound)
    # A weighted average of chances each within its bound of the truth is within the largest.
    if knockout:
        return KnockoutOdds(win=win, loss=loss, level=tie, tail_bound=bound)
    return MatchOdds(win=win, draw=tie, loss=loss, tail_bound=bound)


@dataclass(frozen=True, slots=True)
class SplitOdds:
    """One split of a total, with its odds against the opposing order."""

    order: Order
    odds: MatchOdds | KnockoutOdds

    @property
    def share(self) -> float:
        return self.odds.share

    def to_dict(self) -> dict[str, float | int]:
        """JSON-ready: the split, its chances, and their tail bound (which tells a program, as it
        tells the table, whether two splits are apart or level as far as anything here can say).

        >>> best_splits(3, (3, 0))[0].to_dict()
        {'force': 0, 'flair': 3, 'win': 0.40996890596418073, 'draw': 0.1842546816225405, 'loss': 0.40577641239872686, 'tail_bound': 1.4551915228366852e-11}
        """
        return {"force": self.order.force, "flair": self.order.flair, **self.odds.to_dict(),
                "tail_bound": self.odds.tail_bound}


def splits(total: int) -> list[Order]:
    """Every order that spends exactly ``total``: FLAIR 0, 3, 6, ... and FORCE the rest (R3).

    >>> [(o.force, o.flair) for o in splits(7)]
    [(7, 0), (4, 3), (1, 6)]
    """
    Order(force=total, flair=0)  # checks the total itself (whole, not negative, not absurd)
    return [Order(force=total - flair, flair=flair) for flair in range(0, total + 1, FLAIR_OPTION_COST)]


def best_splits(total: int, vs: OrderLike, knockout: bool = False) -> list[SplitOdds]:
    """Every split of ``total`` against ``vs``, best first.

    Group rules rank by expected league share (win + draw/2), knockout rules by win + level/2;
    ties go to the higher win, then to less FLAIR.

    Args:
        total: SCRUM points to spend.
        vs: the opposing order.
        knockout: rank under knockout rules (R9) instead of group rules.

    Raises:
        OrderError: ``total`` or ``vs`` breaks R3.

    >>> best = best_splits(3, (3, 0))
    >>> [(s.order.force, s.order.flair) for s in best]
    [(0, 3), (3, 0)]
    """
    if isinstance(total, bool) or not isinstance(total, int):
        raise OrderError("R3", f"a total of SCRUM points must be a whole number, got {total!r}")
    opponent = as_order(vs)
    orders = splits(total)
    # Each split's lines are read once here: where together they outgrow the cache (every split of
    # 160 fills it six times over), adding them pushed one another out and held half a GB of lines
    # no later split reads. The opponent's, read for every split, are kept.
    keep = knockout and sum(math.prod(lines_shape(o.force, o.options)) * 8 for o in orders) <= joint.CACHE_BYTES
    ranked: list[SplitOdds] = []
    for order in orders:
        odds: MatchOdds | KnockoutOdds = (
            _knockout_odds(order, opponent, keep=keep) if knockout else _match_odds(order, opponent)
        )
        ranked.append(SplitOdds(order, odds))
    ranked.sort(key=lambda s: (-s.share, -s.odds.win, s.order.flair))
    return ranked


def warm_shared_tables(most: int = MAX_ORDER_POINTS) -> None:
    """Work out every small table that odds asked under a scope still share, for every order of up
    to ``most`` points, in a fixed order: then which of them are kept says nothing of who asked what.

    They are the outcome tables, each count of FORCE dice's and FLAIR options' points, each count
    of options' cut on scoring doubles, and each count of dice's lines (about a tenth of a second of
    CPU and 12 MB for 160 points: each count is made from the one before, the doubles' chances from
    whole numbers). What is larger (an order's lines, its FLAIR array) is kept per
    scope instead.

    >>> warm_shared_tables(6)
    """
    from sevens.odds import joint, points

    force_die()
    flair_tables()
    for dice in range(most + 1):
        points._force_points(dice)
        joint._force_array(dice)
    for options in range(most // FLAIR_OPTION_COST + 1):
        points._flair_points(options)
        # Cached per argument list: the budget left to its default is a key of its own.
        points.doubles_cutoff(options)
        points.doubles_weights(options)
        for budget in (points.TAIL_BUDGET, joint._CUT_BUDGET):
            points.doubles_cutoff(options, budget)
            points.doubles_weights(options, budget)


def clear_caches() -> None:
    """Forget every cached distribution and match (for cold-start timing and memory).

    >>> clear_caches()
    """
    from sevens.odds import joint, points, tables

    for cached in (
        points.doubles_cutoff,
        points.doubles_weights,
        points._force_points,
        points._flair_points,
        points._flair_finals,
        points._doubles_run,
        joint._force_array,
        tables.force_die,
        tables.flair_tables,
    ):
        cached.cache_clear()
    joint.clear_cache()  # with the odds and points kept there
