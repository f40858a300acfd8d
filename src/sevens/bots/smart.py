"""Bots that think about the match in front of them: "odds-aware" and "equilibrium" (issue 5).

Both pace their SCRUM like "even" (spread over the matches still possible if they keep winning)
and differ only in how they split a match's budget between FORCE and FLAIR:

* **odds-aware** assumes the opponent, whose balance is public, paces evenly too and splits half
  and half (as the "even" bot does), and plays the split with the best exact odds against that
  order (:func:`sevens.odds.best_splits`; group or knockout rules by the stage).
* **equilibrium** assumes only the opponent's budget (even pacing of its balance) and plays the
  optimal mixed split of the zero-sum match between the two budgets
  (:func:`sevens.odds.solver.optimal_split`), drawing the split from the mix with its ``rng``.
  It uses the group-rules solution in the knockouts too (solving count-back matrices is much
  slower and their optimal splits are close: level lines are rare).

What they assume: the opponent spends about ``ceil(balance / matches left)``; nothing about its
past orders is used. Each decision is cached by its inputs, so a lab run pays once per budget pair.

**field-reader** splits as equilibrium does but paces by what the field does: it reads the
knockout weight the public group orders imply and paces a little further toward the knockouts
than the field (:class:`FieldReader`), the strategy guide's advice made a bot.

**table-reader** paces and splits as equilibrium but reads its group's table before the last
group match (:func:`sevens.bots.stakes.last_match_stakes`): when a loss there cannot put it out
on league points, it spends nothing and keeps that SCRUM for the knockouts (:class:`TableReader`).
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from sevens.bots.mixes import Mix
from sevens.bots.pacing import (
    REPLY_PULL,
    REPLY_TARGET,
    check_knockout_weight,
    check_reply_pull,
    check_reply_target,
    implied_weight,
    paced_budget,
    reply_weight,
)
from sevens.bots.stakes import Stakes, last_match_stakes
from sevens.odds import best_splits
from sevens.odds.solver import optimal_split
from sevens.rules import FLAIR_OPTION_COST, MAX_ORDER_POINTS, Order
from sevens.tournament.formats import GROUP_TURNS, Stage
from sevens.tournament.game import ManagerView

__all__ = [
    "Equilibrium",
    "FieldReader",
    "OddsAware",
    "TableReader",
    "assumed_opponent_order",
    "equilibrium_mix",
    "even_total",
    "field_weight",
    "odds_aware_flair",
    "table_stakes",
]


def even_total(scrum: int, matches: int) -> int:
    """``ceil(scrum / matches)`` within what the team holds (0 when no match is left).

    >>> even_total(100, 6), even_total(7, 0)
    (17, 0)
    """
    return paced_budget(scrum, matches, 0)


def assumed_opponent_order(opponent_scrum: int, matches: int) -> Order:
    """The order the smart bots expect: even pacing, FLAIR about half (whole options).

    >>> assumed_opponent_order(100, 5)
    Order(force=11, flair=9)
    """
    total = even_total(opponent_scrum, matches)
    options = min(round(total * 0.5 / FLAIR_OPTION_COST), total // FLAIR_OPTION_COST)
    return Order(force=total - options * FLAIR_OPTION_COST, flair=options * FLAIR_OPTION_COST)


@lru_cache(maxsize=65536)
def odds_aware_flair(total: int, opponent: Order, knockout: bool) -> int:
    """FLAIR points of the best split of ``total`` against ``opponent`` (exact odds).

    >>> odds_aware_flair(3, Order(3, 0), False)
    3
    """
    if total <= 0:
        return 0
    return best_splits(total, opponent, knockout=knockout)[0].order.flair


@lru_cache(maxsize=65536)
def equilibrium_mix(total: int, opponent_total: int) -> tuple[tuple[int, float], ...]:
    """The optimal mixed split of ``total`` against a side spending ``opponent_total``:
    ``(flair, probability)`` pairs (group rules).

    >>> equilibrium_mix(15, 3)
    ((0, 1.0),)
    """
    mix = optimal_split(max(0, total), max(0, min(opponent_total, MAX_ORDER_POINTS)))
    return tuple((order.flair, p) for order, p in mix.support)


def _matches_left(view: ManagerView) -> int:
    return view.turns_left


@dataclass(frozen=True, slots=True)
class OddsAware:
    """ "odds-aware": even pacing, the split with the best exact odds against the opponent's
    expected order (its visible balance paced evenly, half FLAIR)."""

    name: str = "odds-aware"
    knockout_weight: Fraction = Fraction(1)
    """Pacing: each knockout match still possible counts this many group matches (1: even)."""

    def __post_init__(self) -> None:
        check_knockout_weight(self.knockout_weight)

    def order(self, view: ManagerView, rng: random.Random) -> Order:
        if not view.in_play:
            return Order(0, 0)
        total = paced_budget(view.scrum, view.turns_left, view.group_matches_left, self.knockout_weight)
        opponent = assumed_opponent_order(view.opponent_scrum or 0, _matches_left(view))
        knockout = view.stage is not None and view.stage.knockout
        flair = odds_aware_flair(total, opponent, knockout)
        return Order(force=total - flair, flair=flair)

    def order_mix(self, view: ManagerView) -> Mix:
        """The one order it gives for ``view`` (it draws nothing)."""
        return ((self.order(view, random.Random(0)), 1.0),)


@dataclass(frozen=True, slots=True)
class Equilibrium:
    """ "equilibrium": even pacing, the split drawn from the match solver's optimal mix against
    the opponent's expected budget."""

    name: str = "equilibrium"
    knockout_weight: Fraction = Fraction(1)
    """Pacing: each knockout match still possible counts this many group matches (1: even)."""

    def __post_init__(self) -> None:
        check_knockout_weight(self.knockout_weight)

    def order(self, view: ManagerView, rng: random.Random) -> Order:
        if not view.in_play:
            return Order(0, 0)
        total = paced_budget(view.scrum, view.turns_left, view.group_matches_left, self.knockout_weight)
        return _equilibrium_split(total, view, rng)

    def order_mix(self, view: ManagerView) -> Mix:
        """The solver's mix it draws its order from for ``view``, each split with its chance."""
        if not view.in_play:
            return ((Order(0, 0), 1.0),)
        total = paced_budget(view.scrum, view.turns_left, view.group_matches_left, self.knockout_weight)
        return _equilibrium_orders(total, view)


def _equilibrium_orders(total: int, view: ManagerView) -> Mix:
    mix = equilibrium_mix(total, even_total(view.opponent_scrum or 0, _matches_left(view)))
    return tuple((Order(force=total - flair, flair=flair), p) for flair, p in mix)


def _equilibrium_split(total: int, view: ManagerView, rng: random.Random) -> Order:
    # The split drawn from the optimal mix against the opponent's even-paced budget.
    mix = equilibrium_mix(total, even_total(view.opponent_scrum or 0, _matches_left(view)))
    u = rng.random()
    flair = mix[-1][0]
    for option, p in mix:
        if u < p:
            flair = option
            break
        u -= p
    return Order(force=total - flair, flair=flair)


def field_weight(view: ManagerView) -> float | None:
    """How the field paces, read off the public orders of the group rounds played so far (R13):
    the median of the knockout weights their totals imply (:func:`~sevens.bots.pacing.implied_weight`),
    every team's order counted, this team's too; ``None`` before the first round is resolved."""
    rounds = view.format.turns - GROUP_TURNS
    weights = [
        implied_weight(side.order.total, side.scrum_before, GROUP_TURNS + 1 - turn.number, rounds)
        for turn in view.history
        if turn.stage is Stage.GROUP
        for match in turn.matches
        for side in (match.home, match.away)
        if side.scrum_before > 0
    ]
    return statistics.median(weights) if weights else None


@dataclass(frozen=True, slots=True)
class FieldReader:
    """ "field-reader": paces by what the others do. Before each group match it reads the field's
    knockout weight off the group orders played so far (:func:`field_weight`) and paces a quarter
    of the way from it toward 1.5 (:func:`~sevens.bots.pacing.reply_weight`; 1.1 in the first
    round); the split as "equilibrium" draws it. In the knockouts it spreads what is left evenly.
    """

    name: str = "field-reader"
    knockout_weight: Fraction = Fraction(REPLY_TARGET)
    """The knockout weight its reply leans toward ("field-reader@K"), 0 to 4."""
    pull: float = REPLY_PULL
    """The share of the way it moves from the field's weight toward that one, 0 to 1 (no name
    sets it: the guide's trials of how far to move make one in Python)."""

    def __post_init__(self) -> None:
        check_reply_target(self.knockout_weight)
        check_reply_pull(self.pull)

    def order(self, view: ManagerView, rng: random.Random) -> Order:
        if not view.in_play:
            return Order(0, 0)
        k = reply_weight(field_weight(view), float(self.knockout_weight), self.pull)
        total = paced_budget(view.scrum, view.turns_left, view.group_matches_left, k)
        return _equilibrium_split(total, view, rng)

    def order_mix(self, view: ManagerView) -> Mix:
        """The solver's mix it draws its order from for ``view`` (paced by the field's weight)."""
        if not view.in_play:
            return ((Order(0, 0), 1.0),)
        k = reply_weight(field_weight(view), float(self.knockout_weight), self.pull)
        return _equilibrium_orders(paced_budget(view.scrum, view.turns_left, view.group_matches_left, k), view)


def table_stakes(view: ManagerView) -> Stakes | None:
    """What the team's last group match can still change, read off its group's table
    (:func:`~sevens.bots.stakes.last_match_stakes`); ``None`` before any other match, or where the
    table does not hold the team, its opponent and the group's other two."""
    if view.stage is not Stage.GROUP or view.group_matches_left != 1 or view.opponent is None:
        return None
    points = {row.team: row.league_points for row in view.table.rows}
    others = [team for team in points if team not in (view.team, view.opponent)]
    if len(points) != 4 or len(others) != 2 or view.team not in points or view.opponent not in points:
        return None
    return last_match_stakes(points[view.team], points[view.opponent], points[others[0]], points[others[1]])


@dataclass(frozen=True, slots=True)
class TableReader:
    """ "table-reader": paces evenly and splits as "equilibrium", but before its last group match
    reads its group's table: when a loss there would leave at most one team above it on league
    points whatever the other match (at worst level for second place, for the tie-breaks), it
    orders nothing and spreads that SCRUM over the knockouts instead. The lab found resting there
    worth more than the group place a win could bring, and more than waiting until a loss would
    leave it through whatever the tie-breaks say (docs/strategy.md).
    """

    name: str = "table-reader"

    def order(self, view: ManagerView, rng: random.Random) -> Order:
        if not view.in_play:
            return Order(0, 0)
        stakes = table_stakes(view)
        if stakes is not None and stakes.second_or_level_if_lost:
            return Order(0, 0)  # a loss cannot put it out on league points: keep the SCRUM for the knockouts
        total = paced_budget(view.scrum, view.turns_left, view.group_matches_left)
        return _equilibrium_split(total, view, rng)

    def order_mix(self, view: ManagerView) -> Mix:
        """The one order of a rest (nothing), else the solver's mix as :meth:`order` draws from it."""
        if not view.in_play:
            return ((Order(0, 0), 1.0),)
        stakes = table_stakes(view)
        if stakes is not None and stakes.second_or_level_if_lost:
            return ((Order(0, 0), 1.0),)
        return _equilibrium_orders(paced_budget(view.scrum, view.turns_left, view.group_matches_left), view)
