"""The match solver against hand-solved budgets, brute force over the dice, and the saddle-point conditions.

The brute force here does not use :mod:`sevens.odds`: it builds each order's distribution of lines
from the rules engine's own scoring of every die face and every throw of two dice, with exact
fractions, following FLAIR doubles to a fixed depth (the mass beyond it is bounded and small).
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from sevens.odds.solver import (
    MatchRules,
    match_payoff,
    optimal_split,
    payoff_matrix,
    row_optimum,
    solve_match,
    solve_matrix_game,
    splits,
)
from sevens.rules import Line, Order, countback, flair_throw_line, force_die_line

Dist = dict[Line, float]
DEPTH = 6  # scoring doubles (5-5, 3-3) followed per FLAIR option; the mass cut is (1/16)**(DEPTH+1)


@cache
def _option(depth: int) -> tuple[tuple[Line, float], ...]:
    """One FLAIR option (R2): a double that scores nothing just throws again, so it only rescales
    the rest by 1 / (1 - 4/36); a scoring double adds its line to a fresh option."""
    dist: Dist = {}
    for x, y in itertools.product(range(1, 7), repeat=2):
        line = flair_throw_line(x, y)
        if x != y:
            dist[line] = dist.get(line, 0.0) + 1 / 32
        elif line != Line() and depth > 0:
            for more, p in _option(depth - 1):
                dist[line + more] = dist.get(line + more, 0.0) + p / 32
    return tuple(dist.items())


def _add_keys(a: dict[tuple[int, ...], float], b: dict[tuple[int, ...], float]) -> dict[tuple[int, ...], float]:
    out: dict[tuple[int, ...], float] = {}
    for ka, pa in a.items():
        for kb, pb in b.items():
            key = tuple(x + y for x, y in zip(ka, kb, strict=True))
            out[key] = out.get(key, 0.0) + pa * pb
    return out


def _key(line: Line, knockout: bool) -> tuple[int, ...]:
    # Group rules look at points only; count-back (R9) at points, tries, conversions, drop goals.
    # Each is a sum over dice and throws, so distributions of these keys convolve.
    if knockout:
        return (line.points, line.tries, line.conversions, line.drop_goals)
    return (line.points,)


@cache
def _order_lines(force: int, options: int, knockout: bool = True) -> np.ndarray:
    """Rows (key..., probability) of every distinct key of the order's lines."""
    die: dict[tuple[int, ...], float] = {}
    for face in range(1, 7):
        k = _key(force_die_line(face), knockout)
        die[k] = die.get(k, 0.0) + 1 / 6
    option: dict[tuple[int, ...], float] = {}
    for line, p in _option(DEPTH):
        k = _key(line, knockout)
        option[k] = option.get(k, 0.0) + p
    width = 4 if knockout else 1
    dist: dict[tuple[int, ...], float] = {(0,) * width: 1.0}
    for _ in range(force):
        dist = _add_keys(dist, die)
    for _ in range(options):
        dist = _add_keys(dist, option)
    return np.array([(*k, p) for k, p in dist.items()])


def _brute_payoff(a: Order, b: Order, knockout: bool) -> float:
    la = _order_lines(a.force, a.options, knockout)
    lb = _order_lines(b.force, b.options, knockout)
    # Seed 6 / R9: points decide; in the knockouts, level points go to tries, conversions, drop goals.
    score = np.full((len(la), len(lb)), 0.5)
    undecided = np.ones_like(score, dtype=bool)
    for c in range(la.shape[1] - 1):
        x = la[:, c][:, None]
        y = lb[:, c][None, :]
        score = np.where(undecided & (x > y), 1.0, np.where(undecided & (x < y), 0.0, score))
        undecided &= x == y
    return float(la[:, -1] @ score @ lb[:, -1])


def _brute_matrix(a: int, b: int, knockout: bool) -> np.ndarray:
    return np.array([[_brute_payoff(x, y, knockout) for y in splits(b)] for x in splits(a)])


def _tolerance(a: int, b: int) -> float:
    # Every option loses at most (1/16)**(DEPTH+1) of mass to the depth cut; floats add rounding.
    return 2 * ((a + b) // 3 + 1) * (1 / 16) ** (DEPTH + 1) + 1e-9


def test_brute_force_countback_agrees_with_the_rules_engine() -> None:
    """R9: the brute force's vectorised count-back decides as sevens.rules.countback on every pair
    of lines of two small orders."""
    la = _order_lines(2, 1)
    lb = _order_lines(1, 1)
    for row_a in la[:40]:
        for row_b in lb[:40]:
            line_a = _line(row_a)
            line_b = _line(row_b)
            expected = countback(line_a, line_b).winner
            one = np.array([row_a])
            two = np.array([row_b])
            got = _brute_payoff_rows(one, two)
            assert got == (0.5 if expected is None else float(expected == "home"))


def _line(row: np.ndarray) -> Line:
    points, tries, conversions, drops = (int(v) for v in row[:4])
    penalties = (points - 5 * tries - 2 * conversions - 3 * drops) // 3
    return Line(tries, conversions, penalties, drops)


def _brute_payoff_rows(la: np.ndarray, lb: np.ndarray) -> float:
    score = np.full((len(la), len(lb)), 0.5)
    undecided = np.ones_like(score, dtype=bool)
    for c in range(4):
        x = la[:, c][:, None]
        y = lb[:, c][None, :]
        score = np.where(undecided & (x > y), 1.0, np.where(undecided & (x < y), 0.0, score))
        undecided &= x == y
    return float(score[0, 0])


def _support_enumeration_value(m: np.ndarray) -> float:
    """The value of a zero-sum game by naive support enumeration (equal-size supports)."""
    rows, cols = m.shape
    best: float | None = None
    for k in range(1, min(rows, cols) + 1):
        for rs in itertools.combinations(range(rows), k):
            for cs in itertools.combinations(range(cols), k):
                sub = m[np.ix_(rs, cs)]
                # y on cs makes every row in rs worth v; x on rs makes every column in cs worth v.
                a_y = np.vstack((np.hstack((sub, -np.ones((k, 1)))), np.append(np.ones(k), 0.0)))
                a_x = np.vstack((np.hstack((sub.T, -np.ones((k, 1)))), np.append(np.ones(k), 0.0)))
                rhs = np.append(np.zeros(k), 1.0)
                try:
                    sol_y = np.linalg.solve(a_y, rhs)
                    sol_x = np.linalg.solve(a_x, rhs)
                except np.linalg.LinAlgError:
                    continue
                y = np.zeros(cols)
                x = np.zeros(rows)
                y[list(cs)] = sol_y[:k]
                x[list(rs)] = sol_x[:k]
                v = sol_y[k]
                if (x < -1e-12).any() or (y < -1e-12).any():
                    continue
                if (m @ y <= v + 1e-9).all() and (x @ m >= v - 1e-9).all():
                    best = v
    assert best is not None, "support enumeration found no equilibrium"
    return float(best)


def test_splits_spend_the_whole_budget_in_legal_orders() -> None:
    """R3: FLAIR points are a multiple of 3; the sum may not exceed the team's SCRUM."""
    for budget in range(0, 40):
        orders = splits(budget)
        assert all(o.total == budget and o.flair % 3 == 0 for o in orders)
        assert len(orders) == budget // 3 + 1


def test_hand_solved_one_die_against_nothing() -> None:
    """One FORCE die scores 3 or 5 with chance 1/3 and is otherwise level at 0-0: value 1/3 + 1/3."""
    for knockout in (False, True):
        s = solve_match(1, 0, knockout=knockout)
        assert s.value == pytest.approx(2 / 3, abs=1e-12)


def test_hand_solved_three_points_against_nothing() -> None:
    """3 FORCE dice all miss with chance (4/6)^3 = 8/27; one FLAIR option scores nothing only with
    no scoring double (15/16) and an empty ending throw (10 of the 30 non-doubles): 15/16 * 1/3 = 5/16.
    So FORCE is better: value 19/27 + 4/27 = 23/27 against FLAIR's 11/16 + 5/32 = 27/32."""
    s = solve_match(3, 0)
    assert s.mix_a.pure == Order(3, 0)
    assert s.value == pytest.approx(23 / 27, abs=1e-12)
    assert s.payoff[1, 0] == pytest.approx(27 / 32, abs=s.error_bound + 1e-12)


def test_lp_solves_rock_paper_scissors() -> None:
    """A game with a known mixed solution: rock-paper-scissors (win 1, draw 1/2, loss 0) has value
    1/2 and both players mix a third each."""
    rps = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
    value, x, y = solve_matrix_game(rps)
    assert value == pytest.approx(0.5, abs=1e-9)
    assert x == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert y == pytest.approx([1 / 3] * 3, abs=1e-9)


def test_row_optimum_is_a_saddle_row_or_the_lp_mix() -> None:
    """The bots' shortcut: a pure saddle row where there is one (the first of several), else the
    LP's mix (rock-paper-scissors has no saddle)."""
    saddle = np.array([[0.2, 0.9, 0.4], [0.5, 0.6, 0.7], [0.5, 0.8, 0.5]])
    assert row_optimum(saddle).tolist() == [0.0, 1.0, 0.0]
    rps = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
    assert row_optimum(rps) == pytest.approx([1 / 3] * 3, abs=1e-9)


@pytest.mark.parametrize("knockout", [False, True])
def test_optimal_split_guarantees_the_solved_value(knockout: bool) -> None:
    """For a spread of budget pairs, the bots' optimal split earns at least the match's value
    against every split of B (so it is an optimal strategy, whatever the LP would have picked)."""
    pairs = [(0, 0), (3, 0), (5, 40), (12, 12), (20, 9), (17, 30), (40, 41), (60, 20)]
    for a, b in pairs[: 5 if knockout else None]:
        s = solve_match(a, b, knockout=knockout)
        mix = dict(optimal_split(a, b, knockout=knockout).support)
        x = np.array([mix.get(o, 0.0) for o in splits(a)])
        assert x.sum() == pytest.approx(1.0)
        assert (x @ s.payoff >= s.value - 1e-9).all(), (a, b)


@pytest.mark.parametrize(
    ("a", "b", "knockout"),
    [(3, 3, False), (6, 3, False), (7, 5, False), (9, 6, False), (8, 8, False), (14, 10, False), (3, 3, True), (6, 3, True), (7, 5, True), (8, 4, True)],
)
def test_payoff_matrix_matches_brute_force_over_the_dice(a: int, b: int, knockout: bool) -> None:
    """Every payoff entry equals the brute-force P(win) + P(level)/2 built from the rules engine."""
    assert payoff_matrix(a, b, knockout=knockout) == pytest.approx(
        _brute_matrix(a, b, knockout), abs=_tolerance(a, b)
    )


@pytest.mark.parametrize(
    ("a", "b", "knockout"),
    [(6, 3, False), (7, 5, False), (9, 6, False), (10, 4, False), (12, 9, False), (6, 3, True), (7, 5, True)],
)
def test_value_matches_support_enumeration(a: int, b: int, knockout: bool) -> None:
    """The LP's value equals the value found by naive support enumeration on the brute-force matrix."""
    brute = _brute_matrix(a, b, knockout)
    assert solve_match(a, b, knockout=knockout).value == pytest.approx(
        _support_enumeration_value(brute), abs=_tolerance(a, b) + 1e-7
    )


@pytest.mark.parametrize("knockout", [False, True])
@pytest.mark.parametrize(("a", "b"), [(30, 18), (45, 45), (40, 12), (25, 60), (30, 10)])
def test_optimal_mixes_satisfy_the_saddle_point_conditions(a: int, b: int, knockout: bool) -> None:
    """A's mix guarantees at least the value against every split of B, and B's mix holds A to at
    most it, within the stated error bound (30 v 10: HiGHS's default tolerance once reported a
    split 3e-8 short of the value, 270 times the bound it claimed)."""
    s = solve_match(a, b, knockout=knockout)
    x = np.array([dict(s.mix_a.support).get(o, 0.0) for o in splits(a)])
    y = np.array([dict(s.mix_b.support).get(o, 0.0) for o in splits(b)])
    assert x.sum() == pytest.approx(1.0) and y.sum() == pytest.approx(1.0)
    assert (x @ s.payoff >= s.value - s.error_bound).all()
    assert (s.payoff @ y <= s.value + s.error_bound).all()
    assert s.rules is (MatchRules.KNOCKOUT if knockout else MatchRules.GROUP)


@pytest.mark.parametrize("knockout", [False, True])
@pytest.mark.parametrize("budget", [0, 2, 9, 21, 50])
def test_equal_budgets_are_worth_one_half(budget: int, knockout: bool) -> None:
    """Symmetry: with the same budget both sides have the same splits, so the value is 1/2."""
    assert solve_match(budget, budget, knockout=knockout).value == pytest.approx(0.5, abs=1e-9)


@pytest.mark.parametrize("knockout", [False, True])
def test_swapping_sides_complements_the_value(knockout: bool) -> None:
    """Constant sum: A's value plus B's value (sides swapped) is 1."""
    assert solve_match(24, 15, knockout=knockout).value + solve_match(
        15, 24, knockout=knockout
    ).value == pytest.approx(1.0, abs=1e-9)


def _pure_saddle(m: np.ndarray) -> tuple[int, int] | None:
    """A pure saddle point found without any LP: an entry that is its row's minimum and its column's maximum."""
    for i, j in itertools.product(range(m.shape[0]), range(m.shape[1])):
        if m[i, j] <= m[i].min() + 1e-12 and m[i, j] >= m[:, j].max() - 1e-12:
            return i, j
    return None


@pytest.mark.parametrize("budget", [6, 12, 15])
def test_known_result_all_flair_is_the_pure_saddle_for_equal_budgets(budget: int) -> None:
    """Issue 5: 'within one match with similar spending on both sides, putting everything into FLAIR
    tends to be the pure saddle point'. Checked on the brute-force matrix, by pure strategies alone."""
    brute = _brute_matrix(budget, budget, knockout=False)
    saddle = _pure_saddle(brute)
    assert saddle is not None
    last = len(splits(budget)) - 1
    assert saddle == (last, last)
    assert solve_match(budget, budget).pure_saddle == (Order(0, budget), Order(0, budget))


def test_known_result_a_wide_margin_prefers_force() -> None:
    """Issue 5: 'a side that outspends the other by a wide margin prefers FORCE's lower variance'.
    Checked on the brute-force matrix: spending 15 against 3, all FORCE is a pure saddle row."""
    brute = _brute_matrix(15, 3, knockout=False)
    saddle = _pure_saddle(brute)
    assert saddle is not None and splits(15)[saddle[0]] == Order(15, 0)
    assert solve_match(15, 3).mix_a.pure == Order(15, 0)


def test_match_payoff_agrees_with_the_matrix() -> None:
    """One entry computed alone equals the same entry of the whole matrix, in both rules."""
    for knockout in (False, True):
        m = payoff_matrix(9, 6, knockout=knockout)
        assert match_payoff(Order(3, 6), Order(6, 0), knockout=knockout) == pytest.approx(m[2, 0], abs=1e-12)


def test_budgets_out_of_range_are_refused_naming_r3() -> None:
    """R3: a budget is a whole number of SCRUM points a team can hold."""
    with pytest.raises(ValueError, match="R3"):
        solve_match(-1, 3)
    with pytest.raises(ValueError, match="R3"):
        solve_match(3, 200)
    with pytest.raises(ValueError, match="R3"):
        payoff_matrix(3, True)  # type: ignore[arg-type]


def test_a_pure_saddle_point_is_reported_exactly() -> None:
    """30 v 10 under group rules has a pure saddle point (A 6 + 24, B 1 + 9): the solver and
    optimal_split both report it, and the bound is the payoff tail alone."""
    s = solve_match(30, 10)
    assert s.pure_saddle == (Order(6, 24), Order(1, 9))
    assert optimal_split(30, 10).pure == Order(6, 24)
    assert s.value == s.payoff[splits(30).index(Order(6, 24)), splits(10).index(Order(1, 9))]
    assert s.error_bound < 1e-9
