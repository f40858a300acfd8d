"""Group-stage win, draw and loss of one order against another as exact fractions.

A FLAIR option has no highest score, yet the chances of a match are rational numbers. Each order's
points have a rational generating function (R1, R2): a FORCE die is ``(4 + z**3 + z**5) / 6`` and a
FLAIR option ``2 final(z) / Q(z)`` with ``final`` the throw that ends it over 15 and
``Q(z) = 32 - z**6 - z**10`` the doubles that throw again, so ``F(z) = N(z) / (c Q(z)**k)`` for an
order of ``k`` options, ``N`` and ``c`` whole. With ``a_n`` and ``b_n`` the chances that A and B
score ``n``:

* ``draw = sum_n a_n b_n``;
* ``loss = sum_n a_n P(B > n)``, and ``sum_n P(B > n) w**n = (1 - F_B(w)) / (1 - w)`` has the same
  denominator as ``F_B`` (the ``1 - w`` divides out, as ``F_B(1) = 1``);
* ``win = 1 - draw - loss``.

Each is ``sum_n a_n t_n`` for some ``T(w) = N_T(w) / (c Q(w)**k)`` of B's. Dividing ``N_T`` by
``Q**k`` leaves a polynomial, met term by term with A's first chances (exact.py's), and
``R / (c Q**k)`` with ``deg R < 10 k``, whose sum with A's chances is, on the unit circle,
``1/(2 pi i) * integral of F_A(1/w) R(w) / (c Q(w)**k) dw / w``. Outside the circle that has poles
only at ``Q``'s roots (all of modulus above 1; none at infinity), so the sum is minus their
residues, and partial fractions give those without finding a root: with ``M = (-Q)**k``, monic,
and ``F_A(1/w) / w = P(w) / (c_A X(w))``, the residues add up to the coefficient of ``w**(deg M - 1)``
of ``R P X**-1`` reduced modulo ``M``, over ``c_A``.

Everything is a polynomial with whole coefficients except ``X**-1``: it is found modulo ``Q`` by
Euclid on fractions (``Q`` has degree 10), then modulo ``Q**2``, ``Q**4``, ... ``Q**k`` by Newton's
step ``v (2 - X v)``, as whole coefficients over one denominator brought to lowest terms at each
step. The products are GMP's (gmpy2) on all the coefficients packed into one integer, and so are
the remainders modulo ``M`` (by the power series of the inverse of ``M`` reversed, which ``M``
being monic keeps whole).

Count-back (R9) compares four lines, not one number: knockout odds are in exact_knockout.py.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import gmpy2

from sevens.odds.exact import _head, _polynomial
from sevens.odds.polynomial import multiply
from sevens.odds.tables import flair_tables, force_die
from sevens.rules import MAX_ORDER_POINTS, Order

__all__ = ["MOST_POINTS", "ExactMatch", "exact_match", "exact_matches"]

# Whole coefficients, lowest degree first, no trailing zeros (the zero polynomial is []); those
# from a product are GMP's integers (gmpy2.mpz), which Python's own take as equals.
Poly = list[int]


def _trim(p: Poly) -> Poly:
    while p and p[-1] == 0:
        p.pop()
    return p


def _sub(a: Poly, b: Poly) -> Poly:
    out = list(a) + [0] * (len(b) - len(a))
    for i, y in enumerate(b):
        out[i] -= y
    return _trim(out)


def _mul(a: Poly, b: Poly) -> Poly:
    """``a * b`` (polynomial.py's product), without zeros at the top.

    >>> [int(c) for c in _mul([1, -2], [3, 0, -1])]
    [3, -6, -1, 2]
    """
    return _trim(multiply(a, b))


def _power(base: Poly, n: int) -> Poly:
    out: Poly = [1]
    while n:
        if n & 1:
            out = _mul(out, base)
        n >>= 1
        if n:
            base = _mul(base, base)
    return out


class _Modulus:
    """A monic polynomial ``m`` with whole coefficients: quotients and remainders by it stay whole.

    The quotient of ``p`` comes from the first terms of ``p`` reversed times the power series of
    ``1 / m`` reversed (Barrett's way), two products in all; that series is whole as ``m`` is
    monic, and it is worked out once, by Newton's step, to as many terms as have been asked for.
    """

    __slots__ = ("_series", "degree", "m")

    def __init__(self, m: Poly) -> None:
        assert m[-1] == 1, "the modulus must be monic"
        self.m = m
        self.degree = len(m) - 1
        self._series: tuple[Poly, int] = ([1], 1)  # the terms and how many of them are right

    def _reversed_inverse(self, terms: int) -> Poly:
        series, right = self._series
        if right < terms:
            reversed_m = self.m[::-1]
            while right < terms:  # g (2 - rev(m) g) has twice as many right
                right = min(2 * right, terms)
                step = [-c for c in _mul(reversed_m[:right], series)[:right]]
                step[0] += 2
                series = _mul(series, step)[:right]
            self._series = (series, right)
        return series[:terms]

    def divmod(self, p: Poly) -> tuple[Poly, Poly]:
        """``(quotient, remainder)`` of ``p`` by the modulus, the remainder of lower degree.

        >>> [[int(c) for c in part] for part in _Modulus([-2, 0, 1]).divmod([1, 2, 3, 4])]  # by z**2 - 2
        [[3, 4], [7, 10]]
        """
        terms = len(p) - self.degree  # of the quotient
        if terms <= 0:
            return [], p
        quotient = _mul(p[::-1][:terms], self._reversed_inverse(terms))[:terms]
        quotient = _trim((quotient + [0] * (terms - len(quotient)))[::-1])
        rest = _sub(p, _mul(quotient, self.m))
        assert len(rest) <= self.degree
        return quotient, rest


    def top(self, f: Poly, v: Poly) -> int:
        """The coefficient of ``w**(d - 1)`` in ``f v`` modulo ``m`` (of degree ``d``), ``v`` of degree below ``d``.

        That coefficient of ``w**n`` modulo ``m`` is the ``n - d + 1``-th term of the series of
        ``1 / m`` reversed (0 before the first): the two follow ``m``'s recurrence from the same
        first ``d``. Summed against ``f``'s terms, this is one product of ``f`` and the series, whose
        terms are then met with ``v``'s, with no product by ``v`` and no remainder.

        >>> _Modulus([-2, 0, 1]).top([1, 1], [3, 4])  # (1 + z)(3 + 4z) = 3 + 7z + 4z**2 = 11 + 7z when z**2 = 2
        7
        """
        if not f or not v:
            return 0
        terms = len(f)  # the series is read up to term len(f) - 1 + len(v) - d <= len(f) - 1
        met = _mul(f[::-1], self._reversed_inverse(terms))  # met[j + len(f) - d]: what v's j-th term meets
        shift = terms - self.degree
        return int(sum((c * met[j + shift] for j, c in enumerate(v) if 0 <= j + shift < len(met)), 0))


def _lowest_terms(p: Poly, denominator: int) -> tuple[Poly, int]:
    """``p / denominator`` with the largest whole factor of all of them divided out."""
    common = gmpy2.mpz(denominator)
    for c in p:
        if common == 1:
            return p, denominator
        common = gmpy2.gcd(common, c)
    return [c // common for c in p], denominator // common


def _fractions_divmod(a: list[Fraction], m: list[Fraction]) -> tuple[list[Fraction], list[Fraction]]:
    rest = list(a)
    quotient = [Fraction(0)] * max(len(a) - len(m) + 1, 0)
    while len(rest) >= len(m):
        factor = rest[-1] / m[-1]
        shift = len(rest) - len(m)
        quotient[shift] = factor
        for i, c in enumerate(m):
            rest[shift + i] -= factor * c
        rest.pop()  # its leading term is now 0
        while rest and rest[-1] == 0:
            rest.pop()
    return quotient, rest


def _first_inverse(x: Poly, m: Poly) -> tuple[Poly, int]:
    """``x**-1`` modulo ``m`` (of degree 10 here, with no root in common with ``x``), by Euclid on
    fractions, as whole coefficients over one denominator.

    >>> _first_inverse([0, 1], [-2, 0, 1])  # z * z/2 = 1 when z**2 = 2
    ([0, 1], 2)
    """
    r0, r1 = [Fraction(c) for c in m], [Fraction(c) for c in x]
    s0: list[Fraction] = []
    s1 = [Fraction(1)]
    while len(r1) > 1:
        q, r = _fractions_divmod(r0, r1)
        r0, r1 = r1, r
        s = list(s0) + [Fraction(0)] * (len(q) + len(s1) - 1 - len(s0))
        for i, u in enumerate(q):
            for j, v in enumerate(s1):
                s[i + j] -= u * v
        s0, s1 = s1, s
    assert len(r1) == 1, "the polynomials share a root"
    inverse = [c / r1[0] for c in s1]
    denominator = math.lcm(*(c.denominator for c in inverse))
    return _trim([int(c * denominator) for c in inverse]), denominator


@lru_cache(maxsize=1)
def _parts() -> tuple[Poly, int, Poly, int, Poly]:
    """A FORCE die's numerator and denominator, a FLAIR option's (but for ``Q``), and ``Q``.

    An option is ``final / t * (1 - r) / (1 - r double / o)`` with ``final / t`` the throw that ends
    it, ``double / o`` a scoring double and ``r = 1/16`` the chance of throwing again: that is
    ``final * (16 - 1) o / (t Q)`` with ``Q = 16 o - double``, ``32 - z**6 - z**10``.
    """
    die, die_total = _polynomial(force_die())
    tables = flair_tables()
    final, final_total = _polynomial(tables.final)
    double, over = _polynomial(tables.scoring_double)
    r = tables.ratio
    assert r.numerator == 1  # so that Q and the option's numerator are whole
    q = _sub([r.denominator * over], double)
    return die, die_total, [c * (r.denominator - 1) * over for c in final], final_total, q


def _numerator(order: Order) -> tuple[Poly, int]:
    """``(N, c)``: the order's points have generating function ``N(z) / (c Q(z)**k)``, ``k`` its options."""
    die, die_total, option, final_total, _ = _parts()
    return (_mul(_power(die, order.force), _power(option, order.options)),
            die_total**order.force * final_total**order.options)


@lru_cache(maxsize=16)
def _moduli(options: int) -> tuple[tuple[int, _Modulus], ...]:
    """``(-Q)**j`` for ``j`` = 1, 2, 4, ... and last ``options``: the steps of Newton's inverse."""
    first = [-c for c in _parts()[4]]
    powers = [1]
    while powers[-1] < options:
        powers.append(min(2 * powers[-1], options))
    return tuple((j, _Modulus(_power(first, j))) for j in powers)


def _inverse(x: Poly, options: int) -> tuple[Poly, int]:
    """``x**-1`` modulo ``Q**options``, as whole coefficients over one denominator in lowest terms.

    Modulo ``Q**j`` it is one; ``v (2 - x v)`` is then one modulo ``Q**(2 j)``, as ``1 - x v`` squared
    is what ``x`` times it leaves. Each step's denominator is the square of the last before its
    lowest terms, which bring it back to what that power of ``Q`` needs.
    """
    steps = _moduli(options)
    x = steps[-1][1].divmod(x)[1]
    v, denominator = _first_inverse(steps[0][1].divmod(x)[1], steps[0][1].m)
    for _, modulus in steps[1:]:
        left = modulus.divmod(_mul(modulus.divmod(x)[1], v))[1]  # x v, whole over the denominator
        v = modulus.divmod(_mul(v, _sub([2 * denominator], left)))[1]
        v, denominator = _lowest_terms(v, denominator * denominator)
    return v, denominator


# One order's inverse modulo the largest power of Q asked of it so far: modulo a smaller power it is
# that one's remainder in lowest terms, cheaper than Newton's steps from the start (every split of 160
# against 159 FLAIR asks for every power from 52 down, when asked in that order, as exact_matches does).
_INVERSES: dict[Order, tuple[int, Poly, int]] = {}
_KEPT_INVERSES = 4


def _inverse_for(a: Order, x: Poly, options: int) -> tuple[Poly, int]:
    """:func:`_inverse` of ``x``, which is ``a``'s, reusing one found for ``a`` modulo a higher power."""
    kept = _INVERSES.get(a)
    if kept is not None and kept[0] >= options:
        largest, v, denominator = kept
        if largest == options:
            return v, denominator
        return _lowest_terms(_moduli(options)[-1][1].divmod(v)[1], denominator)
    v, denominator = _inverse(x, options)
    if a not in _INVERSES and len(_INVERSES) >= _KEPT_INVERSES:
        del _INVERSES[next(iter(_INVERSES))]  # the oldest
    _INVERSES[a] = (options, v, denominator)
    return v, denominator


def _against(a: Order, options: int, sequences: tuple[Poly, ...], c: int) -> list[Fraction]:
    """``sum_n P(a scores n) t_n`` for each ``T(w) = N_T(w) / (c Q(w)**options)``, given as ``N_T``."""
    if options:
        modulus = _moduli(options)[-1][1]
        parted = [modulus.divmod(n) for n in sequences]
    else:
        parted = [(n, []) for n in sequences]
    results = [Fraction(0)] * len(sequences)
    longest = max(len(quotient) for quotient, _ in parted)
    if longest:  # the polynomial parts, term by term with a's first chances
        head, head_total = _head(a.force, a.options, longest - 1)
        for i, (quotient, _) in enumerate(parted):
            results[i] += Fraction(int(sum(x * y for x, y in zip(head, quotient, strict=False))), head_total)
    if any(rest for _, rest in parted):  # the rest, by the residues at Q's roots
        n_a, c_a = _numerator(a)
        q = _parts()[4]
        # F_A(1/w) / w = w**e rev(N_A)(w) / (c_A rQ(w)**k_A) with rQ(w) = w**10 Q(1/w), the side of
        # w**e that is a negative power going to x.
        e = (len(q) - 1) * a.options - (len(n_a) - 1) - 1
        inverse, denominator = _inverse_for(a, _mul(_power(q[::-1], a.options), [0] * max(-e, 0) + [1]), options)
        p = modulus.divmod([0] * max(e, 0) + n_a[::-1])[1]
        for i, (_, rest) in enumerate(parted):
            results[i] -= Fraction(modulus.top(_mul(rest, p), inverse), int(denominator) * c_a)
    sign = -1 if options % 2 else 1  # Q**k = (-1)**k M
    return [r * sign / c for r in results]


@dataclass(frozen=True, slots=True)
class ExactMatch:
    """Group-stage chances from the first order's side, as fractions that add up to exactly 1."""

    win: Fraction
    draw: Fraction
    loss: Fraction

    def to_dict(self) -> dict[str, str]:
        return {"win": str(self.win), "draw": str(self.draw), "loss": str(self.loss)}


# Every pair of orders a team can give (160 each, R3): 1 FORCE + 159 FLAIR against the same, the
# slowest, takes about 0.2 s, with fractions of over 800 digits. Kept as a bound so that the
# refusal names it, as exact_knockout.py's is.
MOST_POINTS = 2 * MAX_ORDER_POINTS


def exact_match(a: Order, b: Order) -> ExactMatch:
    """Win, draw and loss of ``a`` against ``b`` under group rules (points alone decide), exactly.

    >>> exact_match(Order(force=1, flair=0), Order(force=1, flair=0))
    ExactMatch(win=Fraction(1, 4), draw=Fraction(1, 2), loss=Fraction(1, 4))
    >>> exact_match(Order(force=0, flair=3), Order(force=0, flair=0)).draw  # one option scores nothing
    Fraction(5, 16)

    Raises:
        ValueError: the two orders spend more than :data:`MOST_POINTS` SCRUM points between them.
    """
    if a.total + b.total > MOST_POINTS:
        raise ValueError(
            f"exact fractions of a match are worked out for orders of up to {MOST_POINTS} SCRUM points "
            f"between them, got {a.total} + {b.total} = {a.total + b.total}"
        )
    if b.options > a.options:
        # The residues are those of b's side, modulo Q to the power of its options: the side with
        # fewer makes the shorter polynomials (159 FLAIR against 45: 0.08 s this way round, 0.12 s
        # the other). The fractions are the same either way round.
        other = _exact_match(b, a)
        return ExactMatch(win=other.loss, draw=other.draw, loss=other.win)
    return _exact_match(a, b)


def exact_matches(orders: Sequence[Order], vs: Order,
                  done: Callable[[int], None] | None = None) -> list[ExactMatch]:
    """:func:`exact_match` of each of ``orders`` against ``vs``, in the same order.

    They are worked out most FLAIR options first, so that the inverse found for ``vs`` modulo the
    highest power of ``Q`` serves every split with fewer options than ``vs`` by one remainder each
    (``--every-split 160 --vs-flair 159``: 1.8 s of CPU instead of 3.7). ``done``, if given, is
    called with how many are finished after each.

    >>> [m.draw for m in exact_matches([Order(force=1, flair=0), Order(force=0, flair=0)], Order(force=1, flair=0))]
    [Fraction(1, 2), Fraction(2, 3)]
    """
    results: dict[Order, ExactMatch] = {}
    for order in sorted(set(orders), key=lambda o: o.options, reverse=True):
        results[order] = exact_match(order, vs)
        if done is not None:
            done(len(results))
    return [results[order] for order in orders]


@lru_cache(maxsize=256)
def _exact_match(a: Order, b: Order) -> ExactMatch:
    n_b, c_b = _numerator(b)
    whole = [c * c_b for c in _power(_parts()[4], b.options)]  # c_b Q**k: F_B's denominator
    # sum_n P(B > n) w**n = (c_b Q**k - N_B) / (c_b Q**k (1 - w)): divided by w - 1 from the top
    # down, the last carry is the remainder, 0 as F_B(1) = 1.
    carries = list(itertools.accumulate(reversed(_sub(whole, n_b))))
    if carries and carries[-1] != 0:
        raise AssertionError("F_B(1) must be 1")
    beyond = _trim([-c for c in reversed(carries[:-1])])
    draw, loss = _against(a, b.options, (n_b, beyond), c_b)
    return ExactMatch(win=1 - draw - loss, draw=draw, loss=loss)
