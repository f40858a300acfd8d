"""The exact match chances and per-point figures against a brute force over the dice.

Nothing here is typed in: the brute force (odds_brute.py) scores every throw with the rules engine,
and follows FLAIR options to a depth of doubles, so its chances are lower bounds short by at most
the mass it leaves out; the exact fractions must lie between.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import odds_brute
import pytest

from sevens.odds import exact_match, match_odds, per_point
from sevens.odds.exact_match import _exact_match
from sevens.rules import Order, flair_throw_line, force_die_line

DEPTH = 3


@pytest.mark.parametrize(("a", "b"), [((1, 0), (2, 0)), ((4, 0), (3, 0)), ((0, 3), (3, 0)), ((3, 0), (0, 3)),
                                      ((0, 3), (0, 3)), ((2, 3), (1, 6)), ((0, 6), (5, 0)), ((0, 0), (0, 3))])
def test_exact_match_lies_within_the_brute_force(a: tuple[int, int], b: tuple[int, int]) -> None:
    exact = exact_match(Order(force=a[0], flair=a[1]), Order(force=b[0], flair=b[1]))
    options = a[1] // 3 + b[1] // 3
    brute = odds_brute.group_odds((a[0], a[1] // 3), (b[0], b[1] // 3), DEPTH)
    left_out = odds_brute.missing(options, DEPTH)
    assert exact.win + exact.draw + exact.loss == 1
    for got, low in zip((exact.win, exact.draw, exact.loss), brute, strict=True):
        assert low <= got <= low + left_out
        if not options:  # nothing to leave out: the brute force is exact too
            assert got == low


def test_exact_match_agrees_with_the_floats_within_their_tail_bound() -> None:
    a, b = Order(force=10, flair=9), Order(force=6, flair=12)
    exact, floats = exact_match(a, b), match_odds(a, b)
    for got, near in ((exact.win, floats.win), (exact.draw, floats.draw), (exact.loss, floats.loss)):
        assert abs(float(got) - near) <= floats.tail_bound + 1e-15


def test_exact_match_refuses_orders_too_large_saying_the_limit() -> None:
    with pytest.raises(ValueError, match=r"up to 90 SCRUM points between them .*, got 45 \+ 48 = 93"):
        exact_match(Order(force=0, flair=45), Order(force=3, flair=45))
    with pytest.raises(ValueError, match=r"\(any two orders where one side has no FLAIR\), got 45 \+ 48"):
        exact_match(Order(force=0, flair=45), Order(force=3, flair=45))
    # Refused past 120 points until odds3; any two orders where one side has no FLAIR are worked out.
    counted = exact_match(Order(force=100, flair=0), Order(force=0, flair=30))
    assert counted.win + counted.draw + counted.loss == 1


def test_a_side_of_force_alone_is_worked_out_past_60_points_as_the_residues_would() -> None:
    # Such a match was refused past 60 points (the residues took 21 s at 60 + 60); its lines met one
    # by one give the same fractions, checked here against the residues where both are quick.
    a, b = Order(force=10, flair=0), Order(force=2, flair=9)
    turned = _exact_match(b, a)
    assert exact_match(a, b) == _exact_match(a, b)
    assert (exact_match(b, a).win, exact_match(b, a).loss) == (turned.win, turned.loss)
    a, b = Order(force=60, flair=0), Order(force=0, flair=60)
    exact, floats = exact_match(a, b), match_odds(a, b)
    assert exact.win + exact.draw + exact.loss == 1
    for got, near in ((exact.win, floats.win), (exact.draw, floats.draw), (exact.loss, floats.loss)):
        # The floats' rounding over a few hundred totals adds about 1e-15 to their tail bound here.
        assert abs(float(got) - near) <= floats.tail_bound + 1e-13


def _enumerated_per_point() -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]:
    """Mean and variance of a FORCE die and of a FLAIR option from the 6 faces and 36 throws alone.

    An option's points are X = Y + [double] X' with Y one throw's points and X' a fresh option, so
    E[X] = E[Y] / (1 - d) and E[X^2] = (E[Y^2] + 2 E[Y; double] E[X]) / (1 - d), d = P(double).
    """
    faces = [Fraction(force_die_line(face).points) for face in range(1, 7)]
    die_mean = sum(faces) / 6
    die_var = sum(x * x for x in faces) / 6 - die_mean**2
    throws = [(a == b, Fraction(flair_throw_line(a, b).points)) for a, b in itertools.product(range(1, 7), repeat=2)]
    d = Fraction(sum(1 for double, _ in throws if double), 36)
    ey = sum(y for _, y in throws) / 36
    ey2 = sum(y * y for _, y in throws) / 36
    ey_double = sum(y for double, y in throws if double) / 36
    mean = ey / (1 - d)
    second = (ey2 + 2 * ey_double * mean) / (1 - d)
    return (die_mean, die_var), (mean, second - mean**2)


def test_per_point_figures_are_the_dice_enumerated() -> None:
    (die_mean, die_var), (option_mean, option_var) = _enumerated_per_point()
    force, flair = per_point()
    assert (force.mean_per_point, force.variance_per_point) == (die_mean, die_var)
    assert (flair.mean_per_point, flair.variance_per_point) == (option_mean / 3, option_var / 3)
    # FLAIR is richer and riskier per point: the lesson's point, from the enumeration itself.
    assert option_mean / 3 > die_mean and option_var / 3 > die_var


def test_per_point_figures_bracket_the_brute_force_of_one_option() -> None:
    force, flair = per_point()
    points = odds_brute.order_points(0, 1, 6)  # every throw sequence with up to 6 doubles
    mean = sum(p * x for p, x in points.items())
    assert mean <= flair.mean < mean + Fraction(1, 10**3)
    dice = odds_brute.order_points(1, 0, 0)
    assert sum(p * x for p, x in dice.items()) == force.mean


def _one_step_at_a_time(p: list[Fraction], outside: tuple[Fraction, list[Fraction], int], inside: list[Fraction]) -> Fraction:
    """The residues as they were worked out before powers by squaring: one product by q's inverse
    at a time, k of them."""
    from sevens.odds.exact_match import _divmod, _inverse, _mul

    c, q, k = outside
    step = _inverse(q, inside)
    b = _divmod([x / c for x in p], inside)[1]
    for _ in range(k):
        b = _divmod(_mul(b, step), inside)[1]
    degree = len(inside) - 1
    return (b[degree - 1] if len(b) >= degree else Fraction(0)) / inside[-1]


@pytest.mark.parametrize(("a", "b"), [((0, 3), (0, 3)), ((1, 6), (2, 9)), ((0, 21), (0, 6)), ((5, 12), (0, 15)),
                                      ((0, 15), (3, 24)), ((0, 30), (0, 30))])
def test_powers_by_squaring_give_the_fractions_one_product_at_a_time_gave(
    a: tuple[int, int], b: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    module = sys.modules["sevens.odds.exact_match"]  # the package's exact_match is the function
    first, second = Order(force=a[0], flair=a[1]), Order(force=b[0], flair=b[1])
    _exact_match.cache_clear()
    now = _exact_match(first, second)
    _exact_match.cache_clear()
    monkeypatch.setattr(module, "_inside_residues", _one_step_at_a_time)
    before = _exact_match(first, second)
    _exact_match.cache_clear()
    assert now == before


def test_two_flair_sides_are_worked_out_up_to_90_points_either_way_round() -> None:
    # Refused past 60 points before powers by squaring; 3 FLAIR against 87 is quick only because
    # the poles summed are those of the side with fewer options, whichever side that is.
    small, large = Order(force=0, flair=3), Order(force=0, flair=87)
    exact, floats = exact_match(small, large), match_odds(small, large)
    assert exact.win + exact.draw + exact.loss == 1
    for got, near in ((exact.win, floats.win), (exact.draw, floats.draw), (exact.loss, floats.loss)):
        assert abs(float(got) - near) <= floats.tail_bound + 1e-13
    turned = exact_match(large, small)
    assert (turned.win, turned.draw, turned.loss) == (exact.loss, exact.draw, exact.win)


@pytest.mark.parametrize(("a", "b"), [((0, 6), (0, 21)), ((4, 3), (2, 12)), ((0, 9), (7, 9))])
def test_the_side_whose_poles_are_summed_changes_no_fraction(
    a: tuple[int, int], b: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    first, second = Order(force=a[0], flair=a[1]), Order(force=b[0], flair=b[1])
    _exact_match.cache_clear()
    now = exact_match(first, second)
    monkeypatch.setattr(sys.modules["sevens.odds.exact_match"], "_inside_residues", _one_step_at_a_time)
    _exact_match.cache_clear()
    assert _exact_match(first, second) == now  # as before: the poles of the second side, one product at a time
    _exact_match.cache_clear()
