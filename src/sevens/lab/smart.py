"""The odds-aware, equilibrium, field-reader and table-reader strategies for a whole batch (:mod:`sevens.bots.smart`
in batch form).

Their decisions depend only on a few small integers (the budget, the opponent's balance, the
stage), so a batch computes each distinct case once with the scalar bots' cached functions and
spreads the answers back: the batch and the one-at-a-time bots choose alike by construction. The
compiled loop (:mod:`sevens.lab.kernels`) asks the same functions, one case at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
from numpy.typing import NDArray

from sevens.bots.pacing import (
    FIELD_CAP,
    NO_FIELD_REPLY,
    REPLY_PULL,
    REPLY_STEP,
    REPLY_TARGET,
    check_reply_pull,
    check_reply_target,
)
from sevens.bots.smart import assumed_opponent_order, equilibrium_mix, even_total, odds_aware_flair
from sevens.bots.stakes import last_match_stakes
from sevens.lab.strategies import BatchView, Orders, check_knockout_weight, paced_total, weighted_total
from sevens.tournament.fixtures import GROUP_ROUNDS
from sevens.tournament.formats import GROUP_SIZE, GROUP_TURNS

__all__ = [
    "EquilibriumPacing",
    "FieldReaderPacing",
    "OddsAwarePacing",
    "TableReaderPacing",
    "field_weights",
    "rest_table",
    "table_rests",
]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class OddsAwarePacing:
    """ "odds-aware" for a batch (see :class:`sevens.bots.smart.OddsAware`); with a knockout
    weight, paced as :func:`~sevens.lab.strategies.paced_total` says (as the bot of the same name)."""

    name: str = "odds-aware"
    knockout_weight: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        check_knockout_weight(self.knockout_weight)

    @staticmethod
    def flair(total: int, opponent_scrum: int, turns_left: int, knockout: bool) -> int:
        """FLAIR points of the split it plays with ``total`` against a side holding ``opponent_scrum``.

        >>> OddsAwarePacing.flair(17, 100, 6, False)
        15
        """
        return odds_aware_flair(total, assumed_opponent_order(opponent_scrum, turns_left), knockout)

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left, self.knockout_weight)
        cases, back = np.unique(np.stack((total, view.opponent_scrum)), axis=1, return_inverse=True)
        flair_of = np.array(
            [self.flair(int(t), int(o), view.turns_left, view.knockout) for t, o in cases.T], dtype=np.int64
        )
        flair = flair_of[back.ravel()]
        return total - flair, flair


@dataclass(frozen=True, slots=True)
class EquilibriumPacing:
    """ "equilibrium" for a batch (see :class:`sevens.bots.smart.Equilibrium`); with a knockout
    weight, paced as :func:`~sevens.lab.strategies.paced_total` says (as the bot of the same name)."""

    name: str = "equilibrium"
    knockout_weight: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        check_knockout_weight(self.knockout_weight)

    @staticmethod
    def mix(total: int, opponent_scrum: int, turns_left: int) -> tuple[tuple[int, float], ...]:
        """The mix it draws its split from: ``(FLAIR points, probability)``, FLAIR increasing.

        >>> EquilibriumPacing.mix(17, 100, 6)
        ((15, 1.0),)
        """
        return equilibrium_mix(total, even_total(opponent_scrum, turns_left))

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left, self.knockout_weight)
        return _equilibrium_split(total, view, rng)


def _equilibrium_split(total: IntArray, view: BatchView, rng: np.random.Generator) -> Orders:
    # Each team's split drawn from the optimal mix against its opponent's even-paced budget.
    cases, back = np.unique(np.stack((total, view.opponent_scrum)), axis=1, return_inverse=True)
    u = rng.random(view.size)
    flair = np.zeros(view.size, dtype=np.int64)
    back = back.ravel()
    for c, (t, o) in enumerate(cases.T):
        mix = EquilibriumPacing.mix(int(t), int(o), view.turns_left)
        where = back == c
        options = np.array([f for f, _ in mix], dtype=np.int64)
        cumulative = np.cumsum([p for _, p in mix])
        pick = np.minimum(np.searchsorted(cumulative, u[where], side="right"), len(options) - 1)
        flair[where] = options[pick]
    return total - flair, flair


def field_weights(view: BatchView) -> FloatArray:
    """For each team of the view, the field's knockout weight read off its tournament's group
    orders so far (:func:`sevens.bots.smart.field_weight` for a batch, the same floating-point
    steps); NaN before any."""
    if view.group_spent is None or view.group_scrum is None or view.group_spent.shape[1] == 0:
        return np.full(view.size, np.nan)
    tournaments, back = np.unique(view.tournament, return_inverse=True)
    spent = view.group_spent[tournaments]
    scrum = view.group_scrum[tournaments]
    knockout_rounds = int(np.log2(view.teams)) - 1  # 8 teams: 2 rounds, 16: 3 (R6)
    group_left = (GROUP_TURNS - np.arange(spent.shape[1]))[None, :, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        implied = np.clip((scrum / spent - group_left) / knockout_rounds, 0.0, FIELD_CAP)
    implied = np.where(spent <= 0, FIELD_CAP, implied)
    implied = np.where(scrum > 0, implied, np.nan).reshape(tournaments.size, -1)
    field = np.full(tournaments.size, np.nan)
    seen = ~np.isnan(implied).all(axis=1)  # a tournament whose every team had spent out reads nothing
    field[seen] = np.nanmedian(implied[seen], axis=1)
    result: FloatArray = field[back.ravel()]
    return result


@dataclass(frozen=True, slots=True)
class FieldReaderPacing:
    """ "field-reader" for a batch (see :class:`sevens.bots.smart.FieldReader`): each team paces at
    the reply weight to its tournament's field, in twentieths, and splits as "equilibrium"; with a
    knockout weight, its reply leans toward that weight rather than 1.5 (as the bot of the same name)."""

    name: str = "field-reader"
    knockout_weight: Fraction = Fraction(REPLY_TARGET)
    pull: float = REPLY_PULL
    """The share of the way its reply moves from the field's weight toward ``knockout_weight``."""

    def __post_init__(self) -> None:
        check_reply_target(self.knockout_weight)
        check_reply_pull(self.pull)

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        field = field_weights(view)
        # reply_weight's steps, rounded half to even as Python's round.
        target = float(self.knockout_weight)
        reply = np.round((field + (target - field) * float(self.pull)) * REPLY_STEP)
        m = np.where(np.isnan(field), int(NO_FIELD_REPLY * REPLY_STEP), reply).astype(np.int64)
        total = weighted_total(view.scrum, view.turns_left, view.group_matches_left, m, REPLY_STEP)
        return _equilibrium_split(total, view, rng)


def _last_round_places() -> IntArray:
    # For each place in a group's draw order: its opponent's place in the last group round, then
    # the places of the group's other two, who meet each other (R7).
    rows = np.zeros((GROUP_SIZE, 3), dtype=np.int64)
    last = GROUP_ROUNDS[GROUP_TURNS - 1]
    for home, away in last:
        (other, others_opponent), = [pair for pair in last if pair != (home, away)]
        rows[home] = (away, other, others_opponent)
        rows[away] = (home, other, others_opponent)
    return rows


_LAST_ROUND = _last_round_places()


_LEAGUE_MOST = 2 * (GROUP_TURNS - 1)  # league points a team may hold before the last group round (R8)


@cache
def rest_table() -> IntArray:
    """Whether "table-reader" rests, by the league points before the last group round of the
    team, its opponent and the group's other two (0 to 4 each): 1 where a loss cannot put it out
    on league points (:func:`sevens.bots.stakes.last_match_stakes`, the game bot's reading), else
    0. Built once (625 cases) for the batch form and the compiled loop alike.

    >>> stakes = rest_table()
    >>> int(stakes[4, 0, 2, 2]), int(stakes[0, 4, 2, 2])
    (1, 0)
    """
    points = range(_LEAGUE_MOST + 1)
    return np.array(
        [[[[last_match_stakes(m, o, x, y).second_or_level_if_lost for y in points] for x in points] for o in points]
         for m in points],
        dtype=np.int64,
    )


def table_rests(view: BatchView) -> NDArray[np.bool_]:
    """For each team of the view, whether "table-reader" rests: before its last group match, a loss
    would leave at most one team above it on league points (:func:`rest_table`); all false at any
    other turn, or without the tables."""
    if view.knockout or view.group_matches_left != 1 or view.group_league_points is None:
        return np.zeros(view.size, dtype=bool)
    group_start = view.team - view.team % GROUP_SIZE
    places = group_start[:, None] + _LAST_ROUND[view.team % GROUP_SIZE]
    table = view.group_league_points[view.tournament[:, None], places]
    result: NDArray[np.bool_] = rest_table()[view.league_points, table[:, 0], table[:, 1], table[:, 2]].astype(bool)
    return result


@dataclass(frozen=True, slots=True)
class TableReaderPacing:
    """ "table-reader" for a batch (see :class:`sevens.bots.smart.TableReader`): even pacing, the
    split as "equilibrium"; nothing in the last group match for a team that a loss there cannot
    put out on league points (:func:`table_rests`)."""

    name: str = "table-reader"

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left)
        force, flair = _equilibrium_split(total, view, rng)
        rest = table_rests(view)
        return np.where(rest, 0, force), np.where(rest, 0, flair)
