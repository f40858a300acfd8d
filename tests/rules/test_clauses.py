"""One test per clause of the original rules and per project decision the rules engine covers.

Each docstring quotes the clause it checks: the original rules (``seed``) or ``RULES.md`` (R1-R4, R14).
"""

from __future__ import annotations

import hashlib
import hmac
import itertools

import pytest

from sevens.rules import (
    MAX_ORDER_POINTS,
    STARTING_SCRUM,
    WIN_BONUS,
    DecidedBy,
    Dice,
    FairDice,
    Line,
    Order,
    OrderError,
    ScriptedDice,
    Side,
    check_dice_shape,
    countback,
    fair_die,
    flair_throw_line,
    force_die_line,
    group_outcome,
    line_from_dice,
    orders_digest,
    play_order,
    scrum_after,
    seed_commitment,
    throw_flair_option,
    validate_order,
)

SEED = "5e" * 32

# --- the original rules -----------------------------------------------------------------------


def test_seed_2_each_team_starts_with_100_and_a_winner_gains_10() -> None:
    """Seed 2: "Each team starts the competition with 100 SCRUM ... Points. ... The winner of any match
    acquires 10 SCRUM points. SCRUM points allocated to a match are "spent" and cannot be recovered."
    """
    assert STARTING_SCRUM == 100
    assert WIN_BONUS == 10
    order = Order(force=30, flair=9)
    assert scrum_after(100, order, won=False) == 61
    assert scrum_after(100, order, won=True) == 71


def test_seed_3_a_match_order_is_an_amount_split_between_force_and_flair() -> None:
    """Seed 3: "Each match a player must decide (i) How many SCRUM points are to be allocated to the match
    (ii) How the SCRUM points are to be divided between FORCE and FLAIR"."""
    order = validate_order(12, 18, scrum=100)
    assert (order.force, order.flair, order.total) == (12, 18, 30)


def test_seed_4_force_dice_score_five_as_a_try_and_three_as_a_penalty() -> None:
    """Seed 4: "Each SCRUM point invested in FORCE allows one d6 to be thrown. On a throw of 5 or 3, the team
    scores that number of points by scoring a try or a penalty respectively. FORCE tries always go
    unconverted."
    """
    assert [force_die_line(face).points for face in range(1, 7)] == [0, 0, 3, 0, 5, 0]
    assert force_die_line(5) == Line(tries=1, conversions=0)
    assert force_die_line(3) == Line(penalties=1)
    play = play_order(Order(force=4, flair=0), ScriptedDice([5, 5, 3, 2]))
    assert play.dice.force == (5, 5, 3, 2)
    assert play.line == Line(tries=2, penalties=1)


def test_seed_5_each_flair_option_costs_three_and_throws_two_dice() -> None:
    """Seed 5: "Each FLAIR option requires an investment of 3 SCRUM points. For each FLAIR option a 2d6 are
    thrown."""
    play = play_order(Order(force=0, flair=9), ScriptedDice([1, 2, 4, 6, 6, 2]))
    assert Order(0, 9).options == 3
    assert play.dice.flair == (((1, 2),), ((4, 6),), ((6, 2),))


def test_seed_5i_every_pair_totalling_seven_is_a_converted_try() -> None:
    """Seed 5(i): "All pairs of dice totalling 7 (in any combination) score 7 points for a converted try."""
    for a in range(1, 7):
        b = 7 - a
        assert flair_throw_line(a, b) == Line(tries=1, conversions=1)
        assert flair_throw_line(a, b).points == 7


def test_seed_5ii_otherwise_each_five_is_a_try_and_each_three_a_drop_goal() -> None:
    """Seed 5(ii): "Where the dice do not total 7 the individual dice score 5 for a try and 3 for a drop goal
    when those numbers appear."""
    for a, b in itertools.product(range(1, 7), repeat=2):
        if a + b == 7:
            continue
        expected = Line(tries=[a, b].count(5), drop_goals=[a, b].count(3))
        assert flair_throw_line(a, b) == expected, (a, b)
    assert flair_throw_line(5, 3).points == 8


def test_seed_5iii_all_doubles_throw_again_without_limit() -> None:
    """Seed 5(iii): "All doubles, scoring or otherwise, throw again. It is theoretical possible to keep scoring
    ad infinitum on a single FLAIR option."""
    faces = [1, 1, 5, 5, 3, 3, 6, 6, 2, 2, 4, 4] * 5 + [2, 5]
    throws = throw_flair_option(ScriptedDice(faces))
    assert len(throws) == 31
    assert all(a == b for a, b in throws[:-1]) and throws[-1] == (2, 5)
    assert line_from_dice(Dice(flair=(throws,))) == Line(tries=10 + 1, conversions=1, drop_goals=10)


def test_seed_6_higher_score_wins_equal_score_draws() -> None:
    """Seed 6: "The total scores of the 2 teams involved in a match are compared and the higher score wins. If
    the score is equal the game is a draw."""
    assert group_outcome(Line(tries=1), Line(penalties=1)).winner is Side.HOME
    assert group_outcome(Line(penalties=1), Line(tries=1)).winner is Side.AWAY
    # 7 + 3 == 5 + 5: different lines, same points: a draw in the group.
    assert group_outcome(Line(tries=1, conversions=1, penalties=1), Line(tries=2)).winner is None
    assert group_outcome(Line(tries=1, conversions=1, penalties=1), Line(tries=2)).decided_by is None


def test_seed_6_knockout_draws_broken_by_tries_then_conversions_then_drop_goals() -> None:
    """Seed 6: "In the knockout phase draws will be broken by: (i) tries scored (ii) conversions scored
    (iii) drop goals scored (iv) the better group record of the 2 teams involved"."""
    # 10-10: two unconverted tries against a converted try and a penalty: more tries.
    outcome = countback(Line(tries=2), Line(tries=1, conversions=1, penalties=1))
    assert (outcome.winner, outcome.decided_by) == (Side.HOME, DecidedBy.TRIES)
    # 21-21 on three tries each: three conversions against two penalties.
    outcome = countback(Line(tries=3, conversions=3), Line(tries=3, penalties=2))
    assert (outcome.winner, outcome.decided_by) == (Side.HOME, DecidedBy.CONVERSIONS)
    # 11-11, one try each, no conversions: two drop goals against two penalties.
    a = Line(tries=1, drop_goals=2)
    b = Line(tries=1, penalties=2)
    outcome = countback(b, a)
    assert (outcome.winner, outcome.decided_by) == (Side.AWAY, DecidedBy.DROP_GOALS)
    # Identical lines: the tournament must look at the group records.
    assert countback(a, a).winner is None


# --- the project's decisions --------------------------------------------------------------------


def test_r1_points_from_lines() -> None:
    """R1: "Points = 5·tries + 2·conversions + 3·penalties + 3·drop goals. A FLAIR total of 7 is one try and one
    conversion (a converted try, 7 points). A FORCE 5 is a try (never converted), a FORCE 3 a penalty. In FLAIR, a
    die showing 5 is a try and a die showing 3 a drop goal, but only on a throw whose total is not 7."""
    for t, c, p, d in itertools.product(range(4), repeat=4):
        if c > t:
            with pytest.raises(ValueError, match="R1"):
                Line(tries=t, conversions=c, penalties=p, drop_goals=d)
            continue
        assert Line(t, c, p, d).points == 5 * t + 2 * c + 3 * p + 3 * d
    # 5+2 and 3+4 are sevens, so the 5 and the 3 in them are not a try or a drop goal of their own.
    assert flair_throw_line(5, 2) == Line(tries=1, conversions=1)
    assert flair_throw_line(3, 4) == Line(tries=1, conversions=1)
    assert force_die_line(5).conversions == 0


def test_r2_doubles_score_and_throw_again() -> None:
    """R2: "A FLAIR double scores as any other throw (5-5 is two tries, 3-3 two drop goals, 1-1 nothing) and then
    the same option throws again, with no limit."""
    assert flair_throw_line(5, 5) == Line(tries=2)
    assert flair_throw_line(3, 3) == Line(drop_goals=2)
    for face in (1, 2, 4, 6):
        assert flair_throw_line(face, face).points == 0
    play = play_order(Order(force=0, flair=6), ScriptedDice([5, 5, 3, 3, 1, 6, 2, 2, 6, 4]))
    assert play.dice.flair == (((5, 5), (3, 3), (1, 6)), ((2, 2), (6, 4)))
    assert play.line == Line(tries=3, conversions=1, drop_goals=2)
    # The record of an option must show the re-throws: a double that stops, or a throw after a non-double, is refused.
    with pytest.raises(ValueError, match="R2"):
        check_dice_shape(Order(0, 3), Dice(flair=(((4, 4),),)))
    with pytest.raises(ValueError, match="R2"):
        check_dice_shape(Order(0, 3), Dice(flair=(((4, 2), (1, 1), (1, 2)),)))
    check_dice_shape(Order(0, 3), Dice(flair=(((4, 4), (1, 2)),)))


@pytest.mark.parametrize(
    ("force", "flair", "scrum", "says"),
    [
        (-1, 0, 100, "FORCE points cannot be negative"),
        (0, -3, 100, "FLAIR points cannot be negative"),
        (2.5, 0, 100, "whole number"),
        ("7", 0, 100, "whole number"),
        (True, 0, 100, "whole number"),
        (0, 4, 100, "multiple of 3"),
        (0, 10, 100, "got 10, try 9 or 12$"),
        (0, 161, 170, "got 161, try 159$"),  # 162 would break the cap: not suggested
        (50, 50, 100, "got 50, try 48$"),  # 51 would break the balance: not suggested
        (96, 4, 100, "got 4, try 3$"),
        (99, 5, 100, "spends 104 points but the team holds only 100"),  # no multiple of 3 near it fits
        (0, 10, 11, "got 10, try 9$"),
        (0, 200, 300, "more than any team can ever hold"),  # no multiple of 3 near it fits
        (50, 51, 100, "holds only 100"),
        (10**9, 0, 10**10, "more than any team can ever hold"),
        (200, 0, 100, "spends 200 points but the team holds only 100"),
    ],
)
def test_r3_bad_orders_are_refused_naming_the_rule(force: object, flair: object, scrum: int, says: str) -> None:
    """R3: "FLAIR points are a multiple of 3 (one option per 3 points). Both may be 0. Their sum may not exceed the
    team's SCRUM points at the time of the match. Anything else is refused with an error that says which rule it
    breaks; nothing is spent on a refused order."""
    with pytest.raises(OrderError, match=says) as caught:
        validate_order(force, flair, scrum=scrum)
    assert caught.value.rule == "R3"
    assert str(caught.value).startswith("R3: ")


def test_r3_numpy_whole_numbers_are_whole_numbers_and_numpy_bools_are_not() -> None:
    """A bot computing its order with numpy gives numpy integers: they are whole numbers of points
    (the order holds plain ints), while numpy's True is no more a number of points than Python's."""
    import numpy as np

    order = validate_order(np.int64(4), np.int32(6), scrum=100)
    assert (order.force, order.flair) == (4, 6)
    assert type(order.force) is int and type(order.flair) is int
    with pytest.raises(OrderError, match="whole number"):
        validate_order(np.bool_(True), 0, scrum=100)


def test_r3_zero_orders_and_whole_balance_are_legal() -> None:
    """R3: "A team's order for one match is two whole numbers: FORCE points and FLAIR points. ... Both may be 0."
    """
    assert validate_order(0, 0, scrum=0) == Order(0, 0)
    assert validate_order(1, 99, scrum=100) == Order(1, 99)
    assert validate_order(MAX_ORDER_POINTS, 0, scrum=MAX_ORDER_POINTS).total == MAX_ORDER_POINTS


def test_r3_nothing_is_spent_on_a_refused_order() -> None:
    """R3: "nothing is spent on a refused order." A refused order raises before any balance changes."""
    balance = 40
    with pytest.raises(OrderError):
        balance = scrum_after(balance, Order(30, 12), won=False)
    assert balance == 40


def test_r4_points_ordered_are_spent_whatever_happens_and_the_winner_gains_ten() -> None:
    """R4: "Points ordered are spent whatever happens. The winner of a match gains 10 after the match, usable from
    the next match on. A group-stage draw has no winner."""
    order = Order(force=10, flair=30)
    assert scrum_after(40, order, won=False) == 0
    assert scrum_after(40, order, won=True) == 10
    # The bonus is usable only from the next match: an order is checked against the balance before the match.
    with pytest.raises(OrderError, match="R3"):
        scrum_after(40, Order(force=50, flair=0), won=True)


def test_r14_commitment_is_the_sha256_of_the_seed() -> None:
    """R14: "Every die of a game comes from a secret game seed whose SHA-256 hash is published when the game is
    created"."""
    assert seed_commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    with pytest.raises(ValueError, match="R14"):
        seed_commitment("not hex at all, and too short")


def test_r14_dice_are_hmac_sha256_of_seed_and_orders_digest_with_rejection_sampling() -> None:
    """R14: "combined with a digest of all the orders of that turn, through HMAC-SHA256 with rejection sampling
    (no modulo bias)." The test recomputes the stream independently with hmac and the documented recipe."""
    digest = orders_digest(seed_commitment(SEED), 1, {"fiji": Order(10, 9), "kenya": Order(0, 30)})
    stream = "t1-m1/home"
    expected: list[int] = []
    block = 0
    while len(expected) < 200:
        mac = hmac.new(bytes.fromhex(SEED), f"{digest}/{stream}/{block}".encode(), hashlib.sha256).digest()
        expected.extend(byte % 6 + 1 for byte in mac if byte < 252)
        block += 1
    dice = FairDice(SEED, digest, stream)
    assert [dice.d6() for _ in range(200)] == expected[:200]
    assert [fair_die(SEED, digest, stream, i) for i in (0, 57, 199)] == [expected[0], expected[57], expected[199]]


def test_r14_no_one_knows_the_dice_before_all_orders_are_in() -> None:
    """R14: "No one, the organiser included, can know a turn's dice before all its orders are in." Any change to
    any order changes the digest, and so every die of the turn."""
    base = {"fiji": Order(10, 9), "kenya": Order(0, 30)}
    changed = {"fiji": Order(10, 9), "kenya": Order(1, 30)}
    commitment = seed_commitment(SEED)
    d1 = orders_digest(commitment, 2, base)
    d2 = orders_digest(commitment, 2, changed)
    assert d1 != d2
    assert d1 != orders_digest(commitment, 3, base)
    faces1 = [fair_die(SEED, d1, "t2-m1/home", i) for i in range(30)]
    faces2 = [fair_die(SEED, d2, "t2-m1/home", i) for i in range(30)]
    assert faces1 != faces2


def test_r14_rejection_sampling_makes_every_face_equally_likely() -> None:
    """R14: "rejection sampling (no modulo bias)". Bytes 252-255 are skipped, so each face takes exactly 42 of the
    252 accepted byte values; over many dice the faces are uniform (chi-square, 5 degrees of freedom)."""
    counts = [0] * 6
    accepted = [byte for byte in range(256) if byte < 252]
    for byte in accepted:
        counts[byte % 6] += 1
    assert counts == [42] * 6
    dice = FairDice(SEED, "00" * 32, "uniformity")
    n = 60_000
    observed = [0] * 6
    for _ in range(n):
        observed[dice.d6() - 1] += 1
    chi2 = sum((o - n / 6) ** 2 / (n / 6) for o in observed)
    assert chi2 < 30.0  # p < 2e-5 for 5 degrees of freedom: a false alarm is vanishingly rare


def test_r14_anyone_can_recompute_a_play_from_the_revealed_seed() -> None:
    """R14: "The seed is revealed when the game ends, and anyone can then recompute every die and every result
    from the published record."""
    digest = orders_digest(seed_commitment(SEED), 4, {"a": Order(7, 12)})
    play = play_order(Order(7, 12), FairDice(SEED, digest, "t4-m1/home"))
    faces = [*play.dice.force, *(face for option in play.dice.flair for throw in option for face in throw)]
    assert faces == [fair_die(SEED, digest, "t4-m1/home", i) for i in range(len(faces))]
    assert line_from_dice(play.dice) == play.line
