"""Exact distributions of points for one order (R1, R2), as numpy arrays indexed by points.

An order is ``F`` FORCE dice and ``k`` FLAIR options, all independent. Its points are the sum of

* ``F`` FORCE dice (a multinomial: try 1/6, penalty 1/6, nothing 4/6),
* the ``k`` throws that end the options (one each, from the 30 non-doubles),
* ``J`` scoring doubles over all the options together (5-5 or 3-3, half each), where ``J`` is
  negative binomial: ``P(J = j) = C(j + k - 1, j) r**j (1 - r)**k`` with ``r = 1/16``.

Only ``J`` is unbounded. It is cut at the smallest ``L`` with ``P(J > L)`` under the budget, and
``P(J > L)``, computed as an exact fraction, is the *tail bound*: the kept probabilities are exact
parts of the true ones (each is too small by at most the bound, and together they miss exactly
the bound), up to floating rounding of about 1e-15.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from fractions import Fraction
from functools import cache

import numpy as np
from numpy.typing import NDArray

from sevens.odds.tables import flair_tables, force_die

__all__ = ["TAIL_BUDGET", "doubles_cutoff", "doubles_weights", "order_points", "round_up"]

# Probability mass an order's distribution may drop; two orders in a match then err by at most
# twice this, well inside the promised 1e-9.
TAIL_BUDGET = 1e-10

FloatArray = NDArray[np.float64]


def round_up(value: Fraction) -> float:
    """The smallest float not below ``value`` (so a bound stays a bound).

    >>> round_up(Fraction(1, 3)) >= Fraction(1, 3)
    True
    """
    approx = float(value)
    return approx if Fraction(approx) >= value else math.nextafter(approx, math.inf)


@cache
def doubles_cutoff(options: int, budget: float = TAIL_BUDGET) -> tuple[int, Fraction]:
    """How many scoring doubles to keep for ``options`` FLAIR options, and the exact mass dropped.

    Args:
        options: number of FLAIR options ``k``.
        budget: largest mass that may be dropped.

    Returns:
        ``(L, P(J > L))`` with ``L`` the smallest cut whose dropped mass is within the budget.

    >>> doubles_cutoff(0)
    (0, Fraction(0, 1))
    >>> cut, tail = doubles_cutoff(1)
    >>> cut, tail == Fraction(1, 16) ** (cut + 1), float(tail) <= 1e-10
    (8, True, True)
    """
    if options == 0:
        return 0, Fraction(0)
    # Whole numbers over d**(j + k), r = n / d: P(J = j) = C(j + k - 1, j) n**j (d - n)**k / d**(j + k).
    # The same fractions as summing Fractions term by term, at a tenth of the cost (the odds
    # process works out every count at its start).
    n, d = _ratio()
    limit = Fraction(budget)
    kept = 0
    scale = d**options
    j = 0
    while True:
        kept = kept * d + _doubles_numerator(j, options, n, d)
        if (scale - kept) * limit.denominator <= limit.numerator * scale:
            return j, Fraction(scale - kept, scale)
        scale *= d
        j += 1


def _ratio() -> tuple[int, int]:
    r = flair_tables().ratio
    return r.numerator, r.denominator


def _doubles_numerator(j: int, options: int, n: int, d: int) -> int:
    """``P(J = j) * d**(j + options)``, a whole number."""
    numerator: int = math.comb(j + options - 1, j) * n**j * (d - n) ** options
    return numerator


@cache
def doubles_weights(options: int, budget: float = TAIL_BUDGET) -> tuple[float, ...]:
    """``P(J = j)`` for ``j = 0 .. L``, ``L`` as :func:`doubles_cutoff` gives it (floats of exact values)."""
    cut, _ = doubles_cutoff(options, budget)
    if options == 0:
        return (1.0,)
    n, d = _ratio()
    # A whole number divided by a whole number is correctly rounded, as float() of the Fraction is.
    return tuple(_doubles_numerator(j, options, n, d) / d ** (j + options) for j in range(cut + 1))


def _from_pairs(pairs: list[tuple[int, float]]) -> FloatArray:
    pmf = np.zeros(max(points for points, _ in pairs) + 1)
    for points, p in pairs:
        pmf[points] += p
    return pmf


def _power(kernel: FloatArray, n: int) -> FloatArray:
    result: FloatArray = np.ones(1)
    for _ in range(n):
        result = np.convolve(result, kernel)
    return result


# Each count below is the one before convolved once more: the same sums in the same order as
# _power, so the same bits, and every count up to 160 costs what the largest alone did.
@cache
def _force_points(dice: int) -> FloatArray:
    return _NOTHING if dice == 0 else _one_more(_force_points(dice - 1), force_die().point_pmf())


@cache
def _flair_finals(options: int) -> FloatArray:
    """Points of the ``options`` throws that end the options."""
    return _NOTHING if options == 0 else _one_more(_flair_finals(options - 1), flair_tables().final.point_pmf())


@cache
def _doubles_run(doubles: int) -> FloatArray:
    """Points of ``doubles`` scoring doubles."""
    return _NOTHING if doubles == 0 else _one_more(_doubles_run(doubles - 1), flair_tables().scoring_double.point_pmf())


def _one_more(before: FloatArray, pairs: list[tuple[int, float]]) -> FloatArray:
    """``before`` convolved once more with the outcome table ``pairs``, read-only: cached, and the
    next count is made from it."""
    array = np.convolve(before, _from_pairs(pairs))
    array.setflags(write=False)
    return array


_NOTHING = np.ones(1)
"""Points of no throw at all: 0, for certain (shared by every count's first, so read-only)."""
_NOTHING.setflags(write=False)


@cache
def _flair_points(options: int) -> FloatArray:
    finals = _flair_finals(options)
    weights = doubles_weights(options)
    doubles: FloatArray = np.zeros(1)
    for j, weight in enumerate(weights):
        run = _doubles_run(j)  # points of j scoring doubles
        if len(doubles) < len(run):
            doubles = np.pad(doubles, (0, len(run) - len(doubles)))
        doubles[: len(run)] += weight * run
    return np.convolve(finals, doubles)


def order_points(force: int, options: int, scope: Hashable | None = None) -> tuple[FloatArray, Fraction]:
    """Points distribution of ``force`` FORCE dice and ``options`` FLAIR options, and its tail bound.

    Callers must have validated the order (R3). The array is read-only and shared, kept with the
    joint lines under their one bound (:func:`sevens.odds.joint.kept`), under ``scope`` if one is
    given (one asker of the live odds: see :func:`sevens.odds.joint.joint_lines`).

    >>> pmf, tail = order_points(1, 0)
    >>> pmf.tolist(), tail
    ([0.6666666666666666, 0.0, 0.0, 0.16666666666666666, 0.0, 0.16666666666666666], Fraction(0, 1))
    """
    from sevens.odds import joint  # which imports this module

    return joint.kept((scope, "points", force, options), lambda: _order_points(force, options),
                      lambda made: made[0].nbytes + joint.ENTRY_BYTES)


def _order_points(force: int, options: int) -> tuple[FloatArray, Fraction]:
    pmf = np.convolve(_force_points(force), _flair_points(options))
    # Trailing entries below the smallest float are rounding dust; keep the array tight.
    nonzero = np.flatnonzero(pmf > 0.0)
    pmf = pmf[: nonzero[-1] + 1] if nonzero.size else pmf[:1]
    pmf.setflags(write=False)
    return pmf, doubles_cutoff(options)[1]
