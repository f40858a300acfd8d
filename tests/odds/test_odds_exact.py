"""Exact odds against hand derivations, the rules engine and an independent brute force over the dice.

Spec tests quote the decision they check (RULES.md R1, R2, R3, R5, R9). Golden values are derived by
hand in the comments or by :mod:`odds_brute`, which scores every throw with the rules engine.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from odds_brute import group_odds, missing, order_lines, order_points
from odds_brute import knockout_odds as brute_knockout

from sevens.odds import (
    KnockoutOdds,
    MatchOdds,
    best_splits,
    countback_key,
    exact_points,
    flair_tables,
    force_die,
    joint_array,
    joint_lines,
    knockout_odds,
    match_odds,
    order_odds,
    splits,
)
from sevens.rules import (
    MAX_ORDER_POINTS,
    Line,
    Order,
    OrderError,
    ScriptedDice,
    countback,
    flair_throw_line,
    force_die_line,
    play_order,
)

FACES = range(1, 7)
ROUNDING = 1e-13  # floating rounding allowed on top of the stated tail bounds
DEPTH = 12  # brute-force doubles depth: misses at most 6**-13 ~ 7.7e-11 per option


def _pmf_close(force: int, flair: int, depth: int = DEPTH) -> None:
    """Module and brute force agree on every point total within both stated bounds."""
    odds = order_odds(force, flair)
    brute = order_points(force, flair // 3, depth)
    slack = max(odds.tail_bound, float(missing(flair // 3, depth))) + ROUNDING
    for points in range(max(len(odds.distribution), max(brute) + 1)):
        mine = float(odds.distribution[points]) if points < len(odds.distribution) else 0.0
        assert abs(mine - float(brute.get(points, 0))) <= slack, points


# --- the outcome tables, checked by enumeration against the rules engine ---------------------------


def test_force_die_classes_by_enumeration() -> None:
    """Seed 4 / R1: a FORCE 5 is an unconverted try (1/6), a 3 a penalty (1/6), the rest nothing (4/6)."""
    lines = [force_die_line(face) for face in FACES]
    assert lines.count(Line(tries=1)) == 1
    assert lines.count(Line(penalties=1)) == 1
    assert lines.count(Line()) == 4
    assert dict(force_die().pairs) == {
        Line(): Fraction(4, 6),
        Line(tries=1): Fraction(1, 6),
        Line(penalties=1): Fraction(1, 6),
    }


def test_flair_throw_classes_by_enumeration() -> None:
    """R1/R2: of the 36 throws, 6 doubles (5-5 two tries, 3-3 two drop goals, others nothing); the 30
    others: total 7 (6) try + conversion, 5-3 (2) try + drop goal, a 5 with 1/4/6 (6) try, a 3 with 1/2/6
    (6) drop goal, the other 10 nothing."""
    doubles = {a: flair_throw_line(a, a) for a in FACES}
    assert doubles[5] == Line(tries=2) and doubles[3] == Line(drop_goals=2)
    assert all(doubles[a] == Line() for a in (1, 2, 4, 6))
    finals = [flair_throw_line(a, b) for a, b in itertools.product(FACES, repeat=2) if a != b]
    assert len(finals) == 30
    expected_counts = {
        Line(tries=1, conversions=1): 6,
        Line(tries=1, drop_goals=1): 2,
        Line(tries=1): 6,
        Line(drop_goals=1): 6,
        Line(): 10,
    }
    assert {line: finals.count(line) for line in set(finals)} == expected_counts
    # The module's tables say the same, as conditional probabilities.
    tables = flair_tables()
    assert dict(tables.final.pairs) == {line: Fraction(n, 30) for line, n in expected_counts.items()}
    assert dict(tables.scoring_double.pairs) == {Line(tries=2): Fraction(1, 2), Line(drop_goals=2): Fraction(1, 2)}
    assert tables.p_double == Fraction(6, 36)
    # r = P(5-5 or 3-3) / P(5-5, 3-3 or a non-double) = 2 / 32
    assert tables.ratio == Fraction(2, 32)


def test_brute_force_option_follows_the_rules_engine_throw_by_throw() -> None:
    """R2: the brute force's option (depth 2) equals play_order over every scripted throw sequence."""
    from odds_brute import flair_option

    engine: dict[Line, Fraction] = {}
    non_doubles = [(a, b) for a, b in itertools.product(FACES, repeat=2) if a != b]
    for n in range(3):
        for doubles in itertools.product(FACES, repeat=n):
            for last in non_doubles:
                faces = [f for d in doubles for f in (d, d)] + list(last)
                line = play_order(Order(0, 3), ScriptedDice(faces)).line
                engine[line] = engine.get(line, Fraction(0)) + Fraction(1, 36) ** (n + 1)
    assert engine == dict(flair_option(2))


# --- golden distributions ---------------------------------------------------------------------------


def test_golden_one_force_die() -> None:
    """One die: 0 (4/6), 3 (1/6), 5 (1/6)."""
    odds = order_odds(1, 0)
    assert odds.distribution.tolist() == pytest.approx([4 / 6, 0, 0, 1 / 6, 0, 1 / 6], abs=1e-15)
    assert odds.tail_bound == 0
    assert odds.expected_points_exact == Fraction(4, 3)


def test_golden_two_force_dice() -> None:
    """Two dice: 0 (4/9), 3 or 5 (2 x 1/6 x 4/6 = 2/9 each), 6 and 10 (1/36), 8 (2/36)."""
    golden = {0: Fraction(4, 9), 3: Fraction(2, 9), 5: Fraction(2, 9), 6: Fraction(1, 36), 8: Fraction(1, 18),
              10: Fraction(1, 36)}
    pmf = order_odds(2, 0).distribution
    assert len(pmf) == 11
    for points in range(11):
        assert pmf[points] == pytest.approx(float(golden.get(points, 0)), abs=1e-15)
    assert order_odds(2, 0).variance_exact == 2 * (Fraction(34, 6) - Fraction(4, 3) ** 2)


# One option: J scoring doubles, P(J = j) = (1/16)**j * 15/16, each 5-5 (10) or 3-3 (6) with 1/2,
# then one non-double: 0 (1/3), 3 (1/5), 5 (1/5), 7 (1/5), 8 (1/15).
#   P(0)  = 15/16 * 1/3                                    = 5/16
#   P(3) = P(5) = P(7) = 15/16 * 1/5                      = 3/16
#   P(8)  = 15/16 * 1/15                                   = 1/16
#   P(6)  = 15/256 * 1/2 * 1/3   (3-3, then nothing)       = 5/512
#   P(9)  = 15/256 * 1/2 * 1/5   (3-3, then 3)             = 3/512
#   P(10) = 15/256 * 1/2 * 1/3   (5-5, then nothing)       = 5/512
#   P(11) = 15/256 * 1/2 * 1/5   (3-3, then 5)             = 3/512
#   P(12) = 15/4096 * 1/4 * 1/3  (3-3, 3-3, then nothing)  = 5/16384
#   P(13) = 2 * 15/256 * 1/2 * 1/5 (3-3 then 7; 5-5 then 3) = 3/256
#   P(14) = 15/256 * 1/2 * 1/15  (3-3, then 8)             = 1/512
#   P(15) = 3/512 (5-5 then 5) + 15/4096 * 1/4 * 1/5 (3-3, 3-3, then 3) = 99/16384
ONE_OPTION = {
    0: Fraction(5, 16), 1: Fraction(0), 2: Fraction(0), 3: Fraction(3, 16), 4: Fraction(0),
    5: Fraction(3, 16), 6: Fraction(5, 512), 7: Fraction(3, 16), 8: Fraction(1, 16), 9: Fraction(3, 512),
    10: Fraction(5, 512), 11: Fraction(3, 512), 12: Fraction(5, 16384), 13: Fraction(3, 256),
    14: Fraction(1, 512), 15: Fraction(99, 16384),
}


def test_golden_one_flair_option_by_hand() -> None:
    """A FLAIR option's probabilities of 0..15 points, derived by hand above."""
    pmf = order_odds(0, 3).distribution
    for points, p in ONE_OPTION.items():
        assert pmf[points] == pytest.approx(float(p), abs=1e-15), points


def test_golden_one_flair_option_by_brute_force() -> None:
    """The hand table again, from the brute force over every throw sequence (a lower bound, short by at
    most 6**-13), and the module's whole distribution against it."""
    brute = order_points(0, 1, DEPTH)
    for points, p in ONE_OPTION.items():
        assert 0 <= p - brute.get(points, 0) <= missing(1, DEPTH)
    _pmf_close(0, 3)


@pytest.mark.parametrize(("force", "flair"), [(3, 0), (5, 0), (3, 3), (0, 6), (2, 6), (0, 9)])
def test_golden_small_orders_by_brute_force(force: int, flair: int) -> None:
    """Small orders, every point total, against the brute force."""
    _pmf_close(force, flair)


@pytest.mark.parametrize(("force", "options"), [(2, 1), (0, 2), (3, 0)])
def test_golden_joint_lines_by_brute_force(force: int, options: int) -> None:
    """The joint distribution of whole lines (tries, conversions, penalties, drop goals) is right too."""
    joint = joint_lines(force, options)
    depth = 8 if options < 2 else 5
    slack = max(joint.tail_bound, float(missing(options, depth))) + ROUNDING
    brute = dict(order_lines(force, options, depth))
    array = joint_array(force, options)
    shape = array.shape
    for line, p in brute.items():
        cell = (line.tries, line.conversions, line.penalties, line.drop_goals)
        mine = array[cell] if all(c < s for c, s in zip(cell, shape, strict=True)) else 0.0
        assert abs(mine - float(p)) <= slack, line
    assert joint.probs.sum() + joint.tail_bound == pytest.approx(1, abs=ROUNDING)


@pytest.mark.parametrize(("force", "options"), [(0, 1), (2, 1), (30, 10), (7, 15), (60, 0)])
def test_joint_keys_sorted_unique_and_decode_to_their_lines(force: int, options: int) -> None:
    """R9: each order's count-back keys run strictly upwards, each the key of its own line."""
    joint = joint_lines(force, options)
    assert np.all(np.diff(joint.keys) > 0)
    array = joint_array(force, options)
    cells = {}
    for cell in zip(*np.nonzero(array), strict=True):
        t, c, p, d = (int(x) for x in cell)
        cells[countback_key(Line(t, c, p, d).points, t, c, d)] = array[cell]
    for key, p in zip(joint.keys.tolist(), joint.probs.tolist(), strict=True):
        assert cells[key] == p
    assert joint.below[-1] == pytest.approx(joint.probs.sum(), abs=ROUNDING)
    assert joint.above[0] == pytest.approx(joint.probs.sum(), abs=ROUNDING)


def test_point_and_line_distributions_agree() -> None:
    """The points distribution and the joint distribution of lines give the same points."""
    from sevens.odds.joint import line_grid

    for force, flair in [(30, 30), (0, 60), (7, 45)]:
        joint = joint_lines(force, flair // 3)
        array = joint_array(force, flair // 3)
        points, _ = line_grid(array.shape)
        from_lines = np.bincount(points.ravel(), weights=array.ravel())
        pmf = order_odds(force, flair).distribution
        n = max(len(pmf), len(from_lines))
        diff = np.pad(pmf, (0, n - len(pmf))) - np.pad(from_lines, (0, n - len(from_lines)))
        assert np.abs(diff).max() <= order_odds(force, flair).tail_bound + joint.tail_bound + ROUNDING


# --- exact expectations and the decisions behind them ---------------------------------------------


def test_r1_force_tries_unconverted_and_at_most_one_conversion_per_option() -> None:
    """R1: "A FORCE 5 is a try (never converted) ... A FLAIR total of 7 is one try and one conversion"
    — a FORCE order expects no conversion, and an option converts at most once (doubles never total 7)."""
    assert order_odds(60, 0).expected.conversions == 0
    for options in (1, 4, 20):
        # the conversions axis has room for one per option (the far end may be trimmed as negligible)
        assert joint_array(0, options).shape[1] <= options + 1
    assert joint_array(0, 3).shape[1] == 4
    assert all(flair_throw_line(a, a).conversions == 0 for a in FACES)
    assert order_odds(0, 3).expected.conversions == Fraction(6, 30)


def test_r2_doubles_multiply_by_exactly_six_fifths() -> None:
    """R2: "A FLAIR double scores as any other throw ... and then the same option throws again, with no
    limit." — throws per option are geometric: 1 / (1 - 6/36) = 6/5, the seed's 1.2 exactly, and (Wald)
    an option expects 6/5 of one throw's points."""
    throws = list(itertools.product(FACES, repeat=2))
    per_throw = Fraction(sum(flair_throw_line(a, b).points for a, b in throws), len(throws))
    p_double = Fraction(sum(a == b for a, b in throws), len(throws))
    assert per_throw == Fraction(122, 36)
    assert 1 / (1 - p_double) == Fraction(6, 5)
    odds = order_odds(0, 3)
    assert odds.expected_flair_throws == Fraction(6, 5)
    assert odds.expected_points_exact == per_throw * Fraction(6, 5)
    # The brute force's mean creeps up to it as doubles are followed deeper.
    brute_mean = sum(p * s for s, p in order_points(0, 1, DEPTH).items())
    assert 0 < odds.expected_points_exact - brute_mean < Fraction(1, 10**8)


def test_r5_three_flair_points_expect_61_15_not_3_97() -> None:
    """R5: "The original quotes an expected 3.97 points for 3 points of FLAIR ... The project derives
    every such figure exactly" — 122/36 * 6/5 = 61/15 = 4.0667, not 3.97."""
    odds = order_odds(0, 3)
    assert odds.expected_points_exact == Fraction(61, 15)
    assert round(odds.expected_points, 2) != 3.97
    assert odds.expected == odds.expected  # frozen value
    assert odds.expected.tries == Fraction(8, 15)
    assert odds.expected.drop_goals == Fraction(1, 3)


def test_r5_the_guess_for_3_97_in_the_docs() -> None:
    """R5: "says ... where the original's figures agree and where they do not" — docs/original-figures.md
    guesses 3.97 came from scoring 3-3 as one drop goal: 119/36 a throw, x 6/5 = 119/30 = 3.967."""

    def slip(a: int, b: int) -> int:
        return 3 if (a, b) == (3, 3) else flair_throw_line(a, b).points

    per_throw = Fraction(sum(slip(a, b) for a, b in itertools.product(FACES, repeat=2)), 36)
    assert per_throw * Fraction(6, 5) == Fraction(119, 30)
    assert round(float(per_throw * Fraction(6, 5)), 2) == 3.97


def test_r5_three_force_points_expect_exactly_4() -> None:
    """R5 / seed: "3 points of Force nets 4.00" — 3 dice x (5 + 3)/6 = 4 exactly."""
    assert order_odds(3, 0).expected_points_exact == 4
    assert order_odds(3, 0).expected == order_odds(1, 0).expected * 3


def test_r5_flair_takes_a_greater_share_of_its_points_from_tries() -> None:
    """R5 / seed: "The proportion of tries is greater in Flair" — tries make 5*(8/15) / (61/15) = 40/61 of
    FLAIR's points (46/61 with conversions) against 5*(1/6) / (4/3) = 5/8 of FORCE's."""
    flair = order_odds(0, 3).expected
    force = order_odds(3, 0).expected
    flair_share = 5 * flair.tries / flair.points
    force_share = 5 * force.tries / force.points
    assert flair_share == Fraction(40, 61)
    assert force_share == Fraction(5, 8)
    assert flair_share > force_share
    assert (5 * flair.tries + 2 * flair.conversions) / flair.points == Fraction(46, 61)


def test_variance_and_p_zero_are_exact() -> None:
    """Exact variance and P(0) agree with the distribution's own moments."""
    for force, flair in [(0, 3), (4, 6), (30, 30)]:
        odds = order_odds(force, flair)
        pmf = odds.distribution
        points = np.arange(len(pmf))
        mean = float(points @ pmf)
        assert mean == pytest.approx(odds.expected_points, abs=1e-6)
        assert float(points**2 @ pmf) - mean**2 == pytest.approx(odds.variance, rel=1e-7)
        assert pmf[0] == pytest.approx(odds.p_zero, rel=1e-12)
    # One option scores nothing with 5/16: no scoring double (15/16) and an empty last throw (10/30).
    assert order_odds(0, 3).p_zero_exact == Fraction(5, 16)
    assert order_odds(2, 6).p_zero_exact == Fraction(4, 9) * Fraction(5, 16) ** 2


def test_r3_bad_orders_are_refused_naming_r3() -> None:
    """R3: "FLAIR points are a multiple of 3 ... Anything else is refused with an error that says which rule
    it breaks"."""
    for force, flair in [(0, 4), (-1, 3), (3, -3), (MAX_ORDER_POINTS + 1, 0), (1.5, 0)]:
        with pytest.raises(OrderError) as caught:
            order_odds(force, flair)  # type: ignore[arg-type]
        assert caught.value.rule == "R3"
        assert str(caught.value).startswith("R3:")
    with pytest.raises(OrderError, match="R3"):
        match_odds((3, 0), (0, 5))
    with pytest.raises(OrderError, match="R3"):
        best_splits(-3, (3, 0))
    with pytest.raises(OrderError, match="R3"):
        best_splits(MAX_ORDER_POINTS + 3, (3, 0))


@pytest.mark.parametrize("vs", [(60,), (1, 2, 3), None, 60])
def test_an_opponent_that_is_not_a_pair_is_refused_saying_what_an_order_is(vs: object) -> None:
    for ask in (match_odds, knockout_odds):
        with pytest.raises(OrderError, match=r"R3: an order is an Order or a \(force, flair\) pair") as caught:
            ask((30, 30), vs)  # type: ignore[arg-type]
        assert repr(vs) in str(caught.value)
    with pytest.raises(OrderError, match="R3: an order is an Order"):
        best_splits(30, vs)  # type: ignore[arg-type]


def test_exact_points_refuses_what_no_team_can_order_at_once() -> None:
    """Before, ``exact_points(0, 10**6)`` worked on a million options for as long as one cared to wait."""
    with pytest.raises(OrderError, match="more than any team can ever hold"):
        exact_points(0, 10**6)
    with pytest.raises(OrderError, match="FORCE points cannot be negative"):
        exact_points(-1, 0)
    for rest in (Fraction(0), Fraction(1), Fraction(-1, 2)):  # nothing is ever left below 0: the loop never ended
        with pytest.raises(ValueError, match=r"rest .* between 0 and 1"):
            exact_points(0, 2, rest)


# --- matches ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b"), [((1, 0), (1, 0)), ((2, 1), (1, 1)), ((0, 2), (3, 0)), ((3, 0), (0, 1))])
def test_group_odds_by_brute_force(a: tuple[int, int], b: tuple[int, int]) -> None:
    """Seed 6: "the higher score wins. If the score is equal the game is a draw." Against the brute force."""
    depth = DEPTH
    odds = match_odds((a[0], 3 * a[1]), (b[0], 3 * b[1]))
    slack = odds.tail_bound + float(missing(a[1] + b[1], depth)) + ROUNDING
    win, draw, loss = group_odds(a, b, depth)
    assert odds.win == pytest.approx(float(win), abs=slack)
    assert odds.draw == pytest.approx(float(draw), abs=slack)
    assert odds.loss == pytest.approx(float(loss), abs=slack)
    assert odds.win + odds.draw + odds.loss == pytest.approx(1, abs=odds.tail_bound + ROUNDING)


@pytest.mark.parametrize(("a", "b"), [((1, 0), (1, 0)), ((2, 1), (1, 1)), ((0, 2), (3, 0)), ((1, 1), (0, 1))])
def test_r9_knockout_odds_by_brute_force(a: tuple[int, int], b: tuple[int, int]) -> None:
    """R9: "Level on points: more tries wins; then more conversions; then more drop goals" — against the
    rules engine's countback as the only comparison of brute-force lines."""
    depth = 8 if a[1] + b[1] < 3 else 6
    odds = knockout_odds((a[0], 3 * a[1]), (b[0], 3 * b[1]))
    slack = odds.tail_bound + float(missing(a[1] + b[1], depth)) + ROUNDING
    win, loss, level = brute_knockout(a, b, depth)
    assert odds.win == pytest.approx(float(win), abs=slack)
    assert odds.loss == pytest.approx(float(loss), abs=slack)
    assert odds.level == pytest.approx(float(level), abs=slack)


def test_r9_countback_key_orders_lines_as_countback_does() -> None:
    """R9: the count-back key of a line sorts exactly as the rules engine's countback decides."""
    rng = random.Random(9)
    lines = [Line(tries=t, conversions=min(c, t), penalties=p, drop_goals=d)
             for t, c, p, d in (tuple(rng.randint(0, 4) for _ in range(4)) for _ in range(300))]
    for home, away in zip(lines, reversed(lines), strict=True):
        hk = countback_key(home.points, home.tries, home.conversions, home.drop_goals)
        ak = countback_key(away.points, away.tries, away.conversions, away.drop_goals)
        winner = countback(home, away).winner
        assert (hk > ak) == (winner == "home")
        assert (hk < ak) == (winner == "away")
        assert (hk == ak) == (winner is None)


def test_knockout_is_group_refined() -> None:
    """Count-back only splits draws: knockout win >= group win, and level <= draw."""
    for a, b in [((30, 30), (60, 0)), ((0, 60), (30, 30)), ((9, 9), (12, 6))]:
        group = match_odds(a, b)
        ko = knockout_odds(a, b)
        assert ko.win >= group.win - ROUNDING
        assert ko.loss >= group.loss - ROUNDING
        assert ko.level <= group.draw + ROUNDING
        assert ko.win + ko.loss + ko.level == pytest.approx(1, abs=ko.tail_bound + ROUNDING)
        assert ko.win - group.win + ko.loss - group.loss + ko.level == pytest.approx(group.draw, abs=1e-9)


def test_match_odds_are_antisymmetric() -> None:
    """Swapping the teams swaps win and loss."""
    ab, ba = match_odds((20, 12), (5, 30)), match_odds((5, 30), (20, 12))
    assert ab.win == pytest.approx(ba.loss, abs=1e-12)
    assert ab.draw == pytest.approx(ba.draw, abs=1e-12)
    kab, kba = knockout_odds((20, 12), (5, 30)), knockout_odds((5, 30), (20, 12))
    assert kab.win == pytest.approx(kba.loss, abs=1e-12)
    assert kab.level == pytest.approx(kba.level, abs=1e-12)


# --- best splits -----------------------------------------------------------------------------------


def test_splits_are_every_legal_order_of_the_total() -> None:
    """R3: FLAIR in multiples of 3, the rest FORCE, the sum exactly the total."""
    assert [(o.force, o.flair) for o in splits(100)] == [(100 - k, k) for k in range(0, 100, 3)]
    assert len(splits(100)) == 34
    assert splits(0) == [Order(0, 0)]


@pytest.mark.parametrize("knockout", [False, True])
def test_best_splits_rank_as_the_brute_force_does(knockout: bool) -> None:
    """Every split of 6 against 3 FORCE + 3 FLAIR, ranked by win + draw/2 (group) or win + level/2
    (knockout), as the brute force ranks them."""
    depth = 5
    ranked = best_splits(6, (3, 3), knockout=knockout)
    assert sorted((s.order.force, s.order.flair) for s in ranked) == [(0, 6), (3, 3), (6, 0)]
    shares = []
    for split in ranked:
        a = (split.order.force, split.order.options)
        if knockout:
            win, _, level = brute_knockout(a, (3, 1), depth)
            assert isinstance(split.odds, KnockoutOdds)
            shares.append(float(win + level / 2))
        else:
            win, draw, _ = group_odds(a, (3, 1), depth)
            assert isinstance(split.odds, MatchOdds)
            shares.append(float(win + draw / 2))
        # depth 5 misses at most 3 options x 6**-6 of mass
        assert split.share == pytest.approx(shares[-1], abs=3 * 6**-6 + 1e-9)
    assert shares == sorted(shares, reverse=True)


def test_best_splits_to_dict_keys() -> None:
    """Group splits report win/draw/loss, knockout splits win/loss/level, both their tail bound."""
    assert set(best_splits(9, (9, 0))[0].to_dict()) == {"force", "flair", "win", "draw", "loss", "tail_bound"}
    assert set(best_splits(9, (9, 0), knockout=True)[0].to_dict()) == {"force", "flair", "win", "loss", "level",
                                                                        "tail_bound"}


def test_r5_every_other_figure_on_the_original_figures_page() -> None:
    """R5: the project "says, in its documentation, where the original's figures agree and where they do
    not". docs/original-figures.md backs its verdicts with more figures than the tests above check: the
    one-throw table, the other readings tried for 3.97 (none but 3-3 as one drop goal lands on it), the
    second route to 61/15, and the table of other figures. Each is worked out here from the engine."""
    throws = list(itertools.product(FACES, repeat=2))
    points = [flair_throw_line(a, b).points for a, b in throws]
    # One throw of two dice: how many of the 36 score each total.
    assert {p: points.count(p) for p in set(points)} == {0: 14, 3: 6, 5: 6, 6: 1, 7: 6, 8: 2, 10: 1}
    per_throw = Fraction(sum(points), 36)
    assert per_throw == Fraction(61, 18)

    def reading(score: Callable[[int, int], int], times: Fraction = Fraction(6, 5)) -> Fraction:
        return Fraction(sum(score(a, b) for a, b in throws), 36) * times

    def rules(a: int, b: int) -> int:
        return flair_throw_line(a, b).points

    def once_per_number(a: int, b: int) -> int:
        return rules(a, b) // 2 if a == b else rules(a, b)

    readings = {
        "as written": reading(rules),
        "3-3 one drop goal": reading(lambda a, b: 3 if (a, b) == (3, 3) else rules(a, b)),
        "5-5 one try": reading(lambda a, b: 5 if (a, b) == (5, 5) else rules(a, b)),
        "each number once": reading(lambda a, b: once_per_number(a, b) if a in (3, 5) else rules(a, b)),
        "5-3 only the try": reading(lambda a, b: 5 if {a, b} == {3, 5} else rules(a, b)),
        "doubles score nothing": reading(lambda a, b: 0 if a == b else rules(a, b)),
        "a double throws again once": reading(rules, Fraction(7, 6)),
    }
    assert readings == {
        "as written": Fraction(61, 15),
        "3-3 one drop goal": Fraction(119, 30),
        "5-5 one try": Fraction(39, 10),
        "each number once": Fraction(19, 5),
        "5-3 only the try": Fraction(58, 15),
        "doubles score nothing": Fraction(53, 15),
        "a double throws again once": Fraction(427, 108),
    }
    assert [name for name, value in readings.items() if round(float(value), 2) == 3.97] == ["3-3 one drop goal"]
    # The second route: the last throw of an option is a non-double (53/15 on average), after 1/5 doubles
    # on average, a sixth each 5-5 and 3-3.
    last = Fraction(sum(p for (a, b), p in zip(throws, points, strict=True) if a != b), 30)
    assert last == Fraction(53, 15)
    assert last + Fraction(1, 5) * Fraction(10 + 6, 6) == order_odds(0, 3).expected_points_exact
    # Other figures worth knowing: FLAIR (one option) against FORCE (three dice).
    flair, force = order_odds(0, 3), order_odds(3, 0)
    assert (flair.variance_exact, force.variance_exact) == (Fraction(66, 5), Fraction(35, 3))
    assert (flair.p_zero_exact, force.p_zero_exact) == (Fraction(5, 16), Fraction(8, 27))
    f, g = flair.expected, force.expected
    assert f.tries / (f.tries + f.penalties + f.drop_goals) == Fraction(8, 13)
    assert g.tries / (g.tries + g.penalties + g.drop_goals) == Fraction(1, 2)
    assert (f.tries / 3, g.tries / 3) == (Fraction(8, 45), Fraction(1, 6))
    assert (flair.expected_points_exact / 3, force.expected_points_exact / 3) == (Fraction(61, 45), Fraction(4, 3))
    assert order_odds(30, 30).expected_points_exact == Fraction(242, 3)
    assert order_odds(60, 0).expected_points_exact == 80
    # The simulation remark: the mean of 1,000 options falls 0.1 or more short about one time in five.
    spread = math.sqrt(float(flair.variance_exact) / 1000)
    assert 0.18 < statistics.NormalDist(0, spread).cdf(-0.1) < 0.22
