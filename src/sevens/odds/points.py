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
from functools import cache, lru_cache

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
    r = flair_tables().ratio
    kept = Fraction(0)
    j = 0
    term = (1 - r) ** options  # P(J = 0)
    while True:
        kept += term
        tail = 1 - kept
        if tail <= Fraction(budget):
            return j, tail
        # P(J = j + 1) / P(J = j) = (j + k) / (j + 1) * r
        term = term * (j + options) * r / (j + 1)
        j += 1


@cache
def doubles_weights(options: int, budget: float = TAIL_BUDGET) -> tuple[float, ...]:
    """``P(J = j)`` for ``j = 0 .. L``, ``L`` as :func:`doubles_cutoff` gives it (floats of exact values)."""
    cut, _ = doubles_cutoff(options, budget)
    if options == 0:
        return (1.0,)
    r = flair_tables().ratio
    return tuple(float(math.comb(j + options - 1, j) * r**j * (1 - r) ** options) for j in range(cut + 1))


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


@cache
def _force_points(dice: int) -> FloatArray:
    return _power(_from_pairs(force_die().point_pmf()), dice)


@cache
def _flair_points(options: int) -> FloatArray:
    tables = flair_tables()
    finals = _power(_from_pairs(tables.final.point_pmf()), options)
    double = _from_pairs(tables.scoring_double.point_pmf())
    weights = doubles_weights(options)
    doubles: FloatArray = np.zeros(1)
    run: FloatArray = np.ones(1)  # points of j scoring doubles
    for j, weight in enumerate(weights):
        if j:
            run = np.convolve(run, double)
        if len(doubles) < len(run):
            doubles = np.pad(doubles, (0, len(run) - len(doubles)))
        doubles[: len(run)] += weight * run
    return np.convolve(finals, doubles)


@lru_cache(maxsize=4096)
def order_points(force: int, options: int, scope: Hashable | None = None) -> tuple[FloatArray, Fraction]:
    """Points distribution of ``force`` FORCE dice and ``options`` FLAIR options, and its tail bound.

    Callers must have validated the order (R3). The array is read-only and shared (cached), under
    ``scope`` if one is given (one asker of the live odds: see :func:`sevens.odds.joint.joint_lines`).

    >>> pmf, tail = order_points(1, 0)
    >>> pmf.tolist(), tail
    ([0.6666666666666666, 0.0, 0.0, 0.16666666666666666, 0.0, 0.16666666666666666], Fraction(0, 1))
    """
    pmf = np.convolve(_force_points(force), _flair_points(options))
    # Trailing entries below the smallest float are rounding dust; keep the array tight.
    nonzero = np.flatnonzero(pmf > 0.0)
    pmf = pmf[: nonzero[-1] + 1] if nonzero.size else pmf[:1]
    pmf.setflags(write=False)
    return pmf, doubles_cutoff(options)[1]
