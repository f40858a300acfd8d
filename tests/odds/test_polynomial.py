"""The one product of polynomials the exact odds share (sevens.odds.polynomial.multiply), against
the schoolbook product on Python's integers."""

from __future__ import annotations

import random

import pytest

from sevens.odds.polynomial import multiply


def schoolbook(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1) if a and b else []
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def test_products_of_every_kind_the_odds_make_are_the_schoolbook_ones() -> None:
    rng = random.Random(5)
    for _ in range(400):
        digits = rng.choice([1, 8, 64, 700])  # a die's sixths up to the residues' hundreds of digits
        signed = rng.random() < 0.5
        a, b = ([rng.randint(-(10**digits) if signed else 0, 10**digits) for _ in range(rng.randint(1, 40))]
                for _ in range(2))
        if rng.random() < 0.2:
            a[-1] = 0  # zeros at the top are kept, not trimmed
        full = schoolbook(a, b)
        assert multiply(a, b) == full
        keep = rng.randint(0, len(full) + 2)
        assert multiply(a, b, keep) == full[: keep + 1]


@pytest.mark.parametrize(("a", "b", "keep", "product"), [
    ([], [1, 2], None, []), ([0], [0], None, [0]), ([0, 0], [0, 0, 0], None, [0, 0, 0, 0]),
    ([5], [-3], None, [-15]), ([-1, -1], [-1, -1], None, [1, 2, 1]), ([1, 1], [1, 1], 0, [1]),
    ([2**200], [2**200, 0, 1], 5, [2**400, 0, 2**200]),
])
def test_the_edges(a: list[int], b: list[int], keep: int | None, product: list[int]) -> None:
    assert multiply(a, b, keep) == product
