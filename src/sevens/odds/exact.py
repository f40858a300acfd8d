"""An order's points distribution as exact fractions, every total up to a stated end, and the rest.

The floats of :mod:`sevens.odds.points` cut the number of scoring doubles, so each of their
probabilities may be short by up to the tail bound. Here nothing is cut below the end: a total of
``p`` points can only come from at most ``p // 6`` scoring doubles (each is worth 6 or 10), so
keeping ``N // 6`` of them makes every probability up to ``N`` points complete and exact. The
chance of more than ``N`` points is then exactly one less their sum.

Every part is a polynomial in the points with whole coefficients over a known denominator (R1, R2):

* a FORCE die: ``4 + z**3 + z**5`` over 6;
* the throw that ends a FLAIR option (one of the 30 non-doubles): ``5 + 3z**3 + 3z**5 + 3z**7 + z**8``
  over 15;
* ``j`` scoring doubles over all ``k`` options: ``C(j + k - 1, j) 15**k / 16**(j + k)``, each double
  ``z**6`` or ``z**10`` with a half each.

Products are taken on whole numbers packed into one integer, multiplied by GMP (gmpy2), which is
exact: polynomial.py's multiply, which exact_match.py and exact_knockout.py share. Python's own
multiplication (Karatsuba) took nearly all the time of a knockout match's fractions on the
integers of hundreds of kB these make; GMP's is many times faster there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from sevens.odds.polynomial import multiply
from sevens.odds.tables import Outcomes, flair_tables, force_die
from sevens.rules import FLAIR_OPTION_COST, Order

__all__ = ["EXACT_REST", "ExactPoints", "exact_points"]

# The chance left beyond the last total listed is below this: far under what a float sum of the
# listed chances can tell from 0 (2**-53 ~ 1.1e-16), so the floats sum to 1 as well as floats can.
EXACT_REST = Fraction(1, 10**20)


@dataclass(frozen=True, slots=True)
class ExactPoints:
    """Exact ``P(points = p)`` for ``p = 0 .. last``, and the exact chance of more than ``last``.

    Attributes:
        numerators: ``numerators[p] / denominator`` is the chance of exactly ``p`` points.
        denominator: the common denominator.
        rest: the chance of more than ``last`` points, exactly (0 when the order has no FLAIR).
    """

    numerators: tuple[int, ...]
    denominator: int
    rest: Fraction

    @property
    def last(self) -> int:
        """The largest total listed."""
        return len(self.numerators) - 1

    def probability(self, points: int) -> Fraction:
        """The chance of exactly ``points`` points, as a fraction; totals past :attr:`last` are not listed."""
        if not 0 <= points <= self.last:
            raise ValueError(f"only totals 0 to {self.last} are listed, not {points}")
        return Fraction(self.numerators[points], self.denominator)


def _polynomial(outcomes: Outcomes) -> tuple[list[int], int]:
    """Points polynomial of a table of outcomes: whole coefficients over one denominator."""
    merged: dict[int, Fraction] = {}
    for line, p in outcomes.pairs:
        merged[line.points] = merged.get(line.points, Fraction(0)) + p
    denominator = math.lcm(*(p.denominator for p in merged.values()))
    coefficients = [0] * (max(merged) + 1)
    for points, p in merged.items():
        coefficients[points] = int(p * denominator)
    return coefficients, denominator


def _power(base: list[int], denominator: int, n: int, keep: int) -> tuple[list[int], int]:
    """``base**n`` truncated to degree ``keep``, with its denominator ``denominator**n``."""
    result, total = [1], 1
    square, square_total = base, denominator
    while n:
        if n & 1:
            result = multiply(result, square, keep)
            total *= square_total
        n >>= 1
        if n:
            square = multiply(square, square, keep)
            square_total **= 2
    return result, total


def _doubles(options: int, keep: int) -> tuple[list[int], int]:
    """Points of all the scoring doubles of ``options`` options, up to ``keep`` points.

    With ``M`` the most doubles that fit in ``keep`` points and ``D`` one double's polynomial over
    ``d``, ``sum_j P(J = j) (D/d)**j`` is summed by Horner's rule over the denominator
    ``16**(M + k) d**M``: the ``j``-th weight is then the whole number ``C(j + k - 1, j) 15**k (16 d)**(M - j)``.
    """
    tables = flair_tables()
    double, over = _polynomial(tables.scoring_double)  # z**6 + z**10 over 2
    shifts = [(points, c) for points, c in enumerate(double) if c]
    most = keep // min(points for points, _ in shifts)
    r = tables.ratio  # 1/16
    assert r.numerator == 1  # so that the weights below are whole numbers
    step = r.denominator * over
    base = (r.denominator - 1) ** options  # 15**k
    acc = [math.comb(most + options - 1, most) * base]
    for j in range(most - 1, -1, -1):
        grown = [0] * min(keep + 1, len(acc) + len(double) - 1)
        for points, c in shifts:
            for i, value in enumerate(acc[: len(grown) - points]):
                grown[i + points] += c * value
        grown[0] += math.comb(j + options - 1, j) * base * step ** (most - j)
        acc = grown
    return acc, r.denominator ** (most + options) * over**most


def _head(force: int, options: int, keep: int) -> tuple[list[int], int]:
    """The chances of 0 to ``keep`` points of ``force`` FORCE dice and ``options`` FLAIR options,
    exactly: whole numbers over one denominator (fewer of them where the dice cannot reach ``keep``).

    >>> _head(1, 0, 9)  # 4 faces in 6 score nothing, a 3 scores 3 and a 5 scores 5
    ([4, 0, 0, 1, 0, 1], 6)
    """
    die, die_total = _polynomial(force_die())
    final, final_total = _polynomial(flair_tables().final)
    dice, dice_total = _power(die, die_total, force, keep)
    finals, finals_total = _power(final, final_total, options, keep)
    if options:
        doubles, doubles_total = _doubles(options, keep)
    else:
        doubles, doubles_total = [1], 1
    denominator = dice_total * finals_total * doubles_total
    return multiply(multiply(dice, finals, keep), doubles, keep), denominator


@lru_cache(maxsize=64)
def exact_points(force: int, options: int, rest: Fraction = EXACT_REST) -> ExactPoints:
    """The exact distribution of ``force`` FORCE dice and ``options`` FLAIR options.

    Every total from 0 up to the first end beyond which less than ``rest`` is left is listed.
    An order no team could give is refused (R3), as is a ``rest`` outside (0, 1), which would never
    be reached.

    >>> one = exact_points(0, 1)
    >>> one.probability(0), one.probability(8), one.probability(18)
    (Fraction(5, 16), Fraction(1, 16), Fraction(1029, 524288))
    >>> exact_points(3, 0).rest, exact_points(3, 0).last
    (Fraction(0, 1), 15)
    >>> 0 < exact_points(0, 1).rest < Fraction(1, 10**20)
    True
    >>> exact_points(0, 10**6)
    Traceback (most recent call last):
    ...
    sevens.rules.orders.OrderError: R3: an order of 3000000 points is more than any team can ever hold (160: 100 to start plus 10 for each of six wins)
    """
    Order(force=force, flair=options * FLAIR_OPTION_COST)  # checked: the work grows with the order
    if not 0 < rest < 1:
        raise ValueError(f"rest is the probability left beyond the last total listed: between 0 and 1, got {rest}")
    die, _ = _polynomial(force_die())
    final, _ = _polynomial(flair_tables().final)
    most = max(len(die) - 1, 1) * force + (len(final) - 1) * options  # without scoring doubles
    keep = most if options == 0 else max(most, 16)
    while True:
        whole, denominator = _head(force, options, keep)
        if options == 0:
            while len(whole) > 1 and whole[-1] == 0:
                whole.pop()
            return ExactPoints(tuple(whole), denominator, Fraction(0))
        # The first end with less than ``rest`` beyond it, if this much reaches one.
        left = denominator
        for last, count in enumerate(whole):
            left -= count
            if left * rest.denominator < rest.numerator * denominator:
                return ExactPoints(tuple(whole[: last + 1]), denominator, Fraction(left, denominator))
        keep += keep // 4
