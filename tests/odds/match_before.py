"""Group-match fractions as sevens worked them out before odds4, kept to check the faster way against:
the residues at the poles of the second order's side, by polynomial arithmetic on Python's fractions
(every product, remainder and inverse reduced to lowest terms as it goes). A copy of
src/sevens/odds/exact_match.py's arithmetic and _exact_match at d80f98f, the module docstring, the
limits, the choice of side and the refusals left out: call it with the side of fewer FLAIR options
second, as exact_match did, or it is slow (the fractions are the same either way round).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from sevens.odds.exact import _polynomial
from sevens.odds.exact_match import ExactMatch
from sevens.odds.tables import flair_tables, force_die
from sevens.rules import Order

Poly = list[Fraction]  # coefficients, lowest degree first, no trailing zeros (the zero polynomial is [])


def _trim(p: Poly) -> Poly:
    while p and p[-1] == 0:
        p.pop()
    return p


def _mul(a: Poly, b: Poly) -> Poly:
    if not a or not b:
        return []
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return _trim(out)


def _sub(a: Poly, b: Poly) -> Poly:
    out = [Fraction(0)] * max(len(a), len(b))
    for i, x in enumerate(a):
        out[i] += x
    for i, y in enumerate(b):
        out[i] -= y
    return _trim(out)


def _divmod(a: Poly, m: Poly) -> tuple[Poly, Poly]:
    rest = list(a)
    quotient = [Fraction(0)] * max(len(a) - len(m) + 1, 0)
    lead = m[-1]
    while len(rest) >= len(m):
        factor = rest[-1] / lead
        shift = len(rest) - len(m)
        quotient[shift] = factor
        for i, c in enumerate(m):
            rest[shift + i] -= factor * c
        rest.pop()  # its leading term is now 0
        _trim(rest)
    return _trim(quotient), rest


def _inverse(a: Poly, m: Poly) -> Poly:
    """``b`` with ``a b = 1 (mod m)``; ``a`` and ``m`` have no common root."""
    r0, r1 = m, _divmod(a, m)[1]
    s0: Poly = []
    s1: Poly = [Fraction(1)]
    while len(r1) > 1:
        q, r = _divmod(r0, r1)
        r0, r1 = r1, r
        s0, s1 = s1, _sub(s0, _mul(q, s1))
    assert len(r1) == 1, "the polynomials share a root"
    return [c / r1[0] for c in s1]


def _power(base: Poly, n: int) -> Poly:
    out = [Fraction(1)]
    for _ in range(n):
        out = _mul(out, base)
    return out


def _whole(coefficients: list[int]) -> Poly:
    return _trim([Fraction(c) for c in coefficients])


@lru_cache(maxsize=4)
def _parts() -> tuple[Poly, Poly, Poly]:
    """A FORCE die's numerator, and a FLAIR option's numerator and denominator, from the rules' tables."""
    die, _ = _polynomial(force_die())
    tables = flair_tables()
    final, _ = _polynomial(tables.final)
    double, over = _polynomial(tables.scoring_double)
    r = tables.ratio
    # An option: final * (1 - r) / (1 - r * double / over); any whole factor cancels between A and B's
    # shares of the sum, but not in a chance, so each part is scaled to give 1 at z = 1 below.
    numerator = [Fraction(c) * (1 - r) * over for c in final]
    denominator = _sub([Fraction(over)], [Fraction(c) * r for c in double])
    return _whole(die), _trim(numerator), denominator


def _generating(order: Order) -> tuple[Poly, Fraction, Poly, int]:
    """``(N, c, q, k)``: the order's points have generating function ``N(z) / (c q(z)**k)``."""
    die, numerator, denominator = _parts()
    n = _mul(_power(die, order.force), _power(numerator, order.options))
    c = Fraction(sum(die)) ** order.force
    scale = c * sum(denominator) ** order.options / sum(n)  # so that the function is 1 at z = 1
    return [x * scale for x in n], c, denominator, order.options


def _power_mod(base: Poly, n: int, m: Poly) -> Poly | None:
    """``base**n`` reduced modulo ``m``, by squaring; ``None`` for ``n == 0`` (a product left alone).

    >>> _power_mod([Fraction(0), Fraction(1)], 5, [Fraction(-2), Fraction(0), Fraction(1)])  # z**5 = 4 z when z**2 = 2
    [Fraction(0, 1), Fraction(4, 1)]
    """
    out: Poly | None = None
    while n:
        if n & 1:
            out = base if out is None else _divmod(_mul(out, base), m)[1]
        n >>= 1
        if n:
            base = _divmod(_mul(base, base), m)[1]
    return out


def _inside_residues(p: Poly, outside: tuple[Fraction, Poly, int], inside: Poly) -> Fraction:
    """The sum of the residues of ``p / (c * q**k * inside)`` at the roots of ``inside``, where
    ``outside`` is ``(c, q, k)``."""
    c, q, k = outside
    # q**k has a hundred terms where q has eleven: Euclid on q alone keeps the fractions small.
    step = _inverse(q, inside)
    b = _divmod([x / c for x in p], inside)[1]
    # q**-k by squaring: about log2(k) products instead of k, each of the same two sizes (a product
    # of two remainders, then its remainder), where nearly all the time goes, in the fractions' gcds.
    # 30 FLAIR against 30: 0.7 s instead of 2.1 s, the same fractions.
    power = _power_mod(step, k, inside)
    if power is not None:
        b = _divmod(_mul(b, power), inside)[1]
    degree = len(inside) - 1
    return (b[degree - 1] if len(b) >= degree else Fraction(0)) / inside[-1]


def match_before(a: Order, b: Order) -> ExactMatch:
    na, ca, qa, ka = _generating(a)
    nb, cb, qb, kb = _generating(b)
    db = [x * cb for x in _power(qb, kb)]
    # F_B(1/z) = rev(N_B)(z) z**(deg D_B - deg N_B) / rev(D_B)(z)
    shift = (len(db) - 1) - (len(nb) - 1)
    numerator = _mul(na, nb[::-1])
    turned = db[::-1]
    chances = []
    for pole_at_one in (False, True):  # draw: G(z) / z; win: G(z) / (z (z - 1))
        at_zero = 1 - shift  # the power of z under the line, once z**shift and the 1/z meet
        p = [Fraction(0)] * max(0, -at_zero) + numerator
        inside = [Fraction(0)] * max(0, at_zero) + turned
        if pole_at_one:
            inside = _mul(inside, [Fraction(-1), Fraction(1)])
        chances.append(_inside_residues(p, (ca, qa, ka), inside))
    draw, win = chances
    return ExactMatch(win=win, draw=draw, loss=1 - win - draw)
