"""One product of polynomials with whole coefficients for the exact odds, by GMP (gmpy2).

exact.py (an order's points), exact_knockout.py (count-back's lines) and exact_match.py (the
residues of a group match) all multiply polynomials whose coefficients are whole numbers of up to
thousands of digits. Schoolbook products of those are slow in Python; instead each polynomial is
packed into one integer, ``bits`` to a coefficient, those two integers are multiplied by GMP, and
the product's coefficients are read back from its bits. ``bits`` is wide enough for the largest
coefficient the product can have, so none spills into the next.
"""

from __future__ import annotations

import gmpy2

__all__ = ["multiply"]


def multiply(a: list[int], b: list[int], keep: int | None = None) -> list[int]:
    """``a * b``, coefficients lowest degree first, truncated to degree ``keep`` if given.

    The coefficients are Python's integers, as given. The product has ``min(len(a) + len(b) - 1, keep + 1)`` coefficients (none if ``a`` or ``b`` is
    empty), zeros at the top kept. Coefficients may be negative: each is then packed with an offset
    of half its field, which keeps every packed number and the product's fields positive.

    >>> multiply([1, 2], [3, 0, 1])
    [3, 6, 1, 2]
    >>> multiply([1, -2], [3, 0, -1])
    [3, -6, -1, 2]
    >>> multiply([1, 2], [3, 0, 1], keep=1)
    [3, 6]
    """
    if keep is not None:
        a, b = a[: keep + 1], b[: keep + 1]
    if not a or not b:
        return []
    terms = len(a) + len(b) - 1 if keep is None else min(keep + 1, len(a) + len(b) - 1)
    largest_a, largest_b = max(map(abs, a)), max(map(abs, b))
    if not largest_a or not largest_b:
        return [0] * terms  # and a field as wide as the product's zeros would not hold the other's terms
    signed = min(a) < 0 or min(b) < 0
    bound = largest_a * largest_b * min(len(a), len(b))  # no coefficient of a * b is larger, nor of a or b
    if not signed:
        bits = int(bound).bit_length()
        digits = gmpy2.unpack(gmpy2.pack(a, bits) * gmpy2.pack(b, bits), bits)
        out = [int(d) for d in digits[:terms]]
    else:
        bits = int(bound).bit_length() + 2
        half = gmpy2.mpz(1) << (bits - 1)
        x = gmpy2.pack([c + half for c in a], bits) - gmpy2.pack([half] * len(a), bits)
        y = gmpy2.pack([c + half for c in b], bits) - gmpy2.pack([half] * len(b), bits)
        whole = len(a) + len(b) - 1
        digits = gmpy2.unpack(x * y + gmpy2.pack([half] * whole, bits), bits)
        out = [int(d - half) for d in digits[:terms]]
    return out + [0] * (terms - len(out))
