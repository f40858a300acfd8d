"""The odds-aware and equilibrium strategies for a whole batch (:mod:`sevens.bots.smart` in batch form).

Their decisions depend only on a few small integers (the budget, the opponent's balance, the
stage), so a batch computes each distinct case once with the scalar bots' cached functions and
spreads the answers back: the batch and the one-at-a-time bots choose alike by construction. The
compiled loop (:mod:`sevens.lab.kernels`) asks the same functions, one case at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from sevens.bots.smart import assumed_opponent_order, equilibrium_mix, even_total, odds_aware_flair
from sevens.lab.strategies import BatchView, Orders, check_knockout_weight, paced_total

__all__ = ["EquilibriumPacing", "OddsAwarePacing"]

IntArray = NDArray[np.int64]


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
        cases, back = np.unique(np.stack((total, view.opponent_scrum)), axis=1, return_inverse=True)
        u = rng.random(view.size)
        flair = np.zeros(view.size, dtype=np.int64)
        back = back.ravel()
        for c, (t, o) in enumerate(cases.T):
            mix = self.mix(int(t), int(o), view.turns_left)
            where = back == c
            options = np.array([f for f, _ in mix], dtype=np.int64)
            cumulative = np.cumsum([p for _, p in mix])
            pick = np.minimum(np.searchsorted(cumulative, u[where], side="right"), len(options) - 1)
            flair[where] = options[pick]
        return total - flair, flair
