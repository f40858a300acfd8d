"""Exact odds for Sevens: points distributions, group and knockout match odds, best splits.

Built only on :mod:`sevens.rules` (its outcome tables feed every figure) with numpy. Expected
values are exact fractions; distributions are floats with a stated tail bound (the probability
mass left out, at most 1e-10 per order), so every reported probability is within 1e-9.
:func:`exact_points` gives an order's distribution as exact fractions instead, every total up to an
end beyond which less than 1e-20 is left, and that rest exactly.

>>> order_odds(0, 3).expected_points_exact
Fraction(61, 15)
>>> odds = match_odds((30, 30), (60, 0))
>>> abs(odds.win + odds.draw + odds.loss - 1) < 1e-9
True
"""

from sevens.odds.api import (
    KnockoutOdds,
    MatchOdds,
    OrderLike,
    OrderOdds,
    SplitOdds,
    as_order,
    best_splits,
    clear_caches,
    knockout_odds,
    match_odds,
    mix_odds,
    order_odds,
    splits,
)
from sevens.odds.exact import EXACT_REST, ExactPoints, exact_points
from sevens.odds.exact_knockout import (
    MOST_KNOCKOUT_POINTS,
    STEPS,
    WHY_NOT_BOTH_FLAIR,
    ExactKnockout,
    exact_knockout,
)
from sevens.odds.exact_match import MOST_POINTS, ExactMatch, exact_match, exact_matches
from sevens.odds.joint import JointLines, countback_key, joint_array, joint_lines
from sevens.odds.per_point import PerPoint, per_point
from sevens.odds.points import TAIL_BUDGET, order_points
from sevens.odds.solver import (
    MatchRules,
    MatchSolution,
    MixedSplit,
    match_payoff,
    payoff_matrix,
    solve_match,
    solve_matrix_game,
)
from sevens.odds.tables import ExpectedLine, FlairTables, Outcomes, flair_tables, force_die

__all__ = [
    "EXACT_REST",
    "ExactPoints",
    "exact_points",
    "MOST_KNOCKOUT_POINTS",
    "STEPS",
    "WHY_NOT_BOTH_FLAIR",
    "ExactKnockout",
    "exact_knockout",
    "MOST_POINTS",
    "ExactMatch",
    "exact_match",
    "exact_matches",
    "PerPoint",
    "per_point",
    "MatchRules",
    "MatchSolution",
    "MixedSplit",
    "match_payoff",
    "payoff_matrix",
    "solve_match",
    "solve_matrix_game",
    "TAIL_BUDGET",
    "ExpectedLine",
    "FlairTables",
    "JointLines",
    "KnockoutOdds",
    "MatchOdds",
    "OrderLike",
    "OrderOdds",
    "Outcomes",
    "SplitOdds",
    "as_order",
    "best_splits",
    "clear_caches",
    "countback_key",
    "joint_array",
    "flair_tables",
    "force_die",
    "joint_lines",
    "knockout_odds",
    "match_odds",
    "mix_odds",
    "order_odds",
    "order_points",
    "splits",
]
