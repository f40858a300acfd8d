"""Strategies that decide for a whole batch of teams at once, and an adapter for one-at-a-time bots.

A :class:`BatchStrategy` gets a :class:`BatchView` (arrays: one entry per team it plays this turn,
all at the same turn and stage) and a numpy random source, and returns FORCE and FLAIR arrays.
The simulator checks every order against R3 and refuses the batch, naming the rule, if one breaks it.

The built-ins reproduce the bots of :mod:`sevens.bots` exactly in law ("even", "group-blitz",
"knockout-saver", "random"), add pure FLAIR/FORCE pacing for the strategy guide, and the
odds-aware and equilibrium strategies (:mod:`sevens.lab.smart`). A bot written for one decision
(the :class:`sevens.bots.Strategy` protocol) runs through :class:`ScalarAdapter`, which builds the
:class:`~sevens.tournament.game.ManagerView` the bot expects for each team, one at a time.
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from sevens.bots import MIX_JITTER, MIX_SHARES
from sevens.bots.pacing import check_knockout_weight
from sevens.rules import FLAIR_OPTION_COST, MAX_ORDER_POINTS, Order
from sevens.tournament.formats import Stage

__all__ = [
    "BatchStrategy",
    "BatchView",
    "BotRaised",
    "EvenPacing",
    "GroupBlitzPacing",
    "KnockoutSaverPacing",
    "Orders",
    "RandomPacing",
    "NotAnOrder",
    "ScalarAdapter",
    "StrategyError",
    "check_knockout_weight",
    "paced_total",
    "split_orders",
    "weighted_total",
]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
Orders = tuple[IntArray, IntArray]


class StrategyError(ValueError):
    """A strategy of the run raised, or gave orders the lab cannot play: the message names the
    strategy, the turn, what was wrong and how to put it right."""


class NotAnOrder(TypeError):
    """A one-decision bot's ``order(view, rng)`` returned something other than an
    :class:`~sevens.rules.Order`: ``returned`` is what it gave, ``index`` the team's place in the
    batch's view. The simulator turns it into a :class:`StrategyError` that names the bot and the
    turn; said as what the bot returned, since its code raised nothing."""

    def __init__(self, returned: object, index: int) -> None:
        super().__init__(f"order(view, rng) returned {type(returned).__name__} {returned!r}, not an Order")
        self.returned = returned
        self.index = index


class BotRaised(Exception):
    """A one-decision bot's ``order(view, rng)`` raised (its exception is the ``__cause__``) when
    asked for the team at ``index`` of the batch's view: the simulator names that team, not the
    whole view, since a bot decides for one team at a time."""

    def __init__(self, index: int) -> None:
        super().__init__(f"order(view, rng) raised for the team at {index} of the view")
        self.index = index


@dataclass(frozen=True, slots=True, eq=False)
class BatchView:
    """What the managers of many teams see before one turn, as arrays (one entry per team).

    Attributes:
        teams: teams in the format (8 or 16).
        turn: the turn about to be played (from 1).
        stage: its stage.
        turns_left: matches a team plays if it keeps winning, this one included.
        group_matches_left: group matches still to play, this one included.
        scrum: each team's SCRUM now (R4).
        opponent_scrum: its opponent's SCRUM (public).
        league_points: its group league points so far.
        opponent_league_points: its opponent's.
        group_position: its current place in its group table by league points alone (1 = top,
            ties share the better place), before this turn.
        home: whether the team is the home side (names the dice stream only).
        tournament: index of each team's tournament in the batch (for adapters and logs).
        team: index of each team in its tournament (0..teams-1; group = team // 4).
        manager_view: gives the :class:`~sevens.tournament.game.ManagerView` of entry ``i``
            (for one-decision bots through :class:`ScalarAdapter`); set by the simulator.
        group_spent: ``[tournament, group round played, team]``: what every team spent in each
            group round so far (public once resolved, R13); set by the numpy simulator only.
        group_scrum: the same shape: the SCRUM each team held before that round.
        group_league_points: ``[tournament, team]``: every team's league points before this turn
            (its group's table, public); set by the numpy simulator only.
    """

    teams: int
    turn: int
    stage: Stage
    turns_left: int
    group_matches_left: int
    scrum: IntArray
    opponent_scrum: IntArray
    league_points: IntArray
    opponent_league_points: IntArray
    group_position: IntArray
    home: NDArray[np.bool_]
    tournament: IntArray
    team: IntArray
    manager_view: Callable[[int], object] | None = None
    group_spent: IntArray | None = None
    group_scrum: IntArray | None = None
    group_league_points: IntArray | None = None

    @property
    def size(self) -> int:
        """Number of teams in the view."""
        return int(self.scrum.size)

    @property
    def knockout(self) -> bool:
        """Whether this turn is a knockout round."""
        return self.stage is not Stage.GROUP


@runtime_checkable
class BatchStrategy(Protocol):
    """A strategy for many teams at once: legal orders for every team of the view (R3)."""

    @property
    def name(self) -> str: ...

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders: ...


def split_orders(total: IntArray, flair_share: FloatArray, scrum: IntArray) -> Orders:
    """Legal orders spending about ``total``, about ``flair_share`` of it on FLAIR (R3).

    The batch form of :func:`sevens.bots.split`: the total is cut to the SCRUM held (and to 160),
    FLAIR is rounded to whole options (half to even, as Python's ``round``), FORCE takes the rest.

    >>> force, flair = split_orders(np.array([20, 50, -3]), np.array([0.5, 0.5, 0.5]), np.array([100, 7, 100]))
    >>> force.tolist(), flair.tolist()
    ([11, 4, 0], [9, 3, 0])
    """
    total = np.clip(np.minimum(total, scrum), 0, MAX_ORDER_POINTS).astype(np.int64)
    share = np.clip(flair_share, 0.0, 1.0)
    options = np.minimum(np.rint(total * share / FLAIR_OPTION_COST).astype(np.int64), total // FLAIR_OPTION_COST)
    flair = options * FLAIR_OPTION_COST
    return total - flair, flair


def _even_budget(scrum: IntArray, matches: int) -> IntArray:
    if matches <= 0:
        return np.zeros_like(scrum)
    return -(-scrum // matches)  # ceiling division


def paced_total(
    scrum: IntArray, turns_left: int, group_matches_left: int, knockout_weight: Fraction | float = Fraction(1)
) -> IntArray:
    """What a team holding ``scrum`` spends when it spreads its SCRUM as if each knockout match
    still possible counted ``knockout_weight`` group matches (1: evenly over the matches still
    possible), within what it holds and R3's cap: :func:`sevens.bots.pacing.paced_budget` for a
    whole batch.

    A group match gets ``ceil(SCRUM / (g + K * k))`` (``g`` group matches left, this one included,
    ``k`` knockout rounds), a knockout match an even share of what is left; K is a fraction, so the
    totals are exact. K may be given as a number too: ``1.2`` is read as written, 6/5.

    Raises:
        ValueError: K is not a number from 0 to 1000 with at most 6 decimals.

    >>> [int(paced_total(np.array([100]), 6, 3, Fraction(k))[0]) for k in (1, 2)]  # 100/6, 100/(3 + 2*3)
    [17, 12]
    >>> int(paced_total(np.array([100]), 6, 3, 1.2)[0]), int(paced_total(np.array([100]), 6, 3, Fraction(6, 5))[0])
    (16, 16)
    """
    k = _knockout_weight(knockout_weight)
    return weighted_total(scrum, turns_left, group_matches_left, k.numerator, k.denominator)


def _knockout_weight(k: object) -> Fraction:
    """A knockout weight given to :func:`paced_total` as the fraction it works with. A float is read
    by its shortest decimal form (1.2 as 6/5, not as the binary 1.19999999999999995559...), which
    is what a researcher wrote; anything else is refused, naming what was given."""
    typed = None
    if isinstance(k, numbers.Integral) and not isinstance(k, bool):
        k = Fraction(int(k))
    elif isinstance(k, numbers.Real) and not isinstance(k, (bool, Fraction)) and math.isfinite(k):
        typed = repr(float(k))
        k = Fraction(typed)
    try:
        check_knockout_weight(k, typed)
    except ValueError as exc:
        raise ValueError(f"paced_total: {exc}; give K as a number, 1.5 or Fraction(3, 2)") from None
    assert isinstance(k, Fraction)
    return k


def weighted_total(
    scrum: IntArray, turns_left: int, group_matches_left: int, numerator: IntArray | int, denominator: int
) -> IntArray:
    """:func:`paced_total` with K = ``numerator / denominator``, where the numerator may differ
    from team to team (one per entry of ``scrum``).

    >>> weighted_total(np.array([100, 100]), 6, 3, np.array([20, 40]), 20).tolist()
    [17, 12]
    """
    if group_matches_left == 0:
        total = _even_budget(scrum, turns_left)
    else:
        knockouts = turns_left - group_matches_left
        total = -(-scrum * denominator // (group_matches_left * denominator + knockouts * numerator))
    return np.clip(total, 0, np.minimum(scrum, MAX_ORDER_POINTS))


def _bot_mix(view: BatchView, rng: np.random.Generator) -> FloatArray:
    # The pacing bots' mix (sevens.bots): their share for the stage, jittered.
    base = MIX_SHARES[1] if view.knockout else MIX_SHARES[0]
    return base + rng.uniform(-MIX_JITTER, MIX_JITTER, view.size)


@dataclass(frozen=True, slots=True)
class EvenPacing:
    """ "even": SCRUM spread evenly over the matches still possible if the team keeps winning.

    With ``flair`` set, every order puts that share into FLAIR (1.0: all FLAIR, 0.0: all FORCE)
    instead of the bots' jittered half-and-half.

    With ``knockout_weight`` K, SCRUM is spread as if each knockout match still possible counted
    K group matches (:func:`paced_total`): K = 1 is even pacing, K < 1 spends more in the groups,
    K > 1 saves for the knockouts.
    """

    name: str = "even"
    flair: float | None = None
    knockout_weight: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        check_knockout_weight(self.knockout_weight)

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left, self.knockout_weight)
        share = _bot_mix(view, rng) if self.flair is None else np.full(view.size, self.flair)
        return split_orders(total, share, view.scrum)


@dataclass(frozen=True, slots=True)
class GroupBlitzPacing:
    """ "group-blitz": spend big in the groups, keeping ``reserve`` points per knockout round."""

    name: str = "group-blitz"
    reserve: int = 5

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        if view.group_matches_left == 0:
            total = _even_budget(view.scrum, view.turns_left)
        else:
            knockouts = view.turns_left - view.group_matches_left
            total = _even_budget(np.maximum(0, view.scrum - self.reserve * knockouts), view.group_matches_left)
        return split_orders(total, _bot_mix(view, rng), view.scrum)


@dataclass(frozen=True, slots=True)
class KnockoutSaverPacing:
    """ "knockout-saver": ``share`` of SCRUM per group match, the rest spread over the knockouts."""

    name: str = "knockout-saver"
    share: float = 0.1

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        if view.group_matches_left == 0:
            total = _even_budget(view.scrum, view.turns_left)
        else:
            total = np.ceil(view.scrum * self.share).astype(np.int64)
        return split_orders(total, _bot_mix(view, rng), view.scrum)


@dataclass(frozen=True, slots=True)
class RandomPacing:
    """ "random": a uniformly chosen total from 0 to the SCRUM held and a uniform FLAIR share."""

    name: str = "random"

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        top = np.minimum(view.scrum, MAX_ORDER_POINTS)
        total = rng.integers(0, top + 1)
        return split_orders(total, rng.random(view.size), view.scrum)


@dataclass(slots=True)
class ScalarAdapter:
    """Runs a one-decision bot (``order(view, rng) -> Order``) over a batch, one team at a time.

    Each team gets the :class:`~sevens.tournament.game.ManagerView` the simulator builds for it
    (:attr:`BatchView.manager_view`) and a :class:`random.Random` seeded from the batch's
    generator. Slower than a batch strategy by the cost of a Python call and a view per team.
    """

    strategy: object
    name: str = field(init=False)
    needs_manager_view: ClassVar[bool] = True

    def __post_init__(self) -> None:
        self.name = str(getattr(self.strategy, "name", type(self.strategy).__name__))

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        make_view = view.manager_view
        if make_view is None:
            raise ValueError("a one-decision bot needs the simulator's manager views (BatchView.manager_view)")
        force = np.zeros(view.size, dtype=np.int64)
        flair = np.zeros(view.size, dtype=np.int64)
        seeds = rng.integers(0, 2**63, view.size)
        decide = self.strategy.order  # type: ignore[attr-defined]
        for i in range(view.size):
            try:
                order = decide(make_view(i), random.Random(int(seeds[i])))
            except (Exception, SystemExit) as exc:  # the bot's own code: which team it was deciding for
                raise BotRaised(i) from exc
            if not isinstance(order, Order):
                raise NotAnOrder(order, i)
            force[i] = order.force
            flair[i] = order.flair
        return force, flair
