"""The odds-aware and equilibrium strategies for a whole batch (:mod:`sevens.bots.smart` in batch form).

Their decisions depend only on a few small integers (the budget, the opponent's balance, the
stage), so a batch computes each distinct case once with the scalar bots' cached functions and
spreads the answers back: the batch and the one-at-a-time bots choose alike by construction.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from sevens.bots.smart import assumed_opponent_order, equilibrium_mix, even_total, odds_aware_flair
from sevens.lab.strategies import BatchView, Orders

__all__ = ["EquilibriumPacing", "OddsAwarePacing"]

IntArray = NDArray[np.int64]


def _even(scrum: IntArray, matches: int) -> IntArray:
    if matches <= 0:
        return np.zeros_like(scrum)
    return np.clip(-(-scrum // matches), 0, np.minimum(scrum, 160))


@dataclass(frozen=True, slots=True)
class OddsAwarePacing:
    """ "odds-aware" for a batch (see :class:`sevens.bots.smart.OddsAware`)."""

    name: str = "odds-aware"

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        total = _even(view.scrum, view.turns_left)
        cases, back = np.unique(np.stack((total, view.opponent_scrum)), axis=1, return_inverse=True)
        flair_of = np.array(
            [
                odds_aware_flair(
                    int(t), assumed_opponent_order(int(o), view.turns_left), view.knockout
                )
                for t, o in cases.T
            ],
            dtype=np.int64,
        )
        flair = flair_of[back.ravel()]
        return total - flair, flair


@dataclass(frozen=True, slots=True)
class EquilibriumPacing:
    """ "equilibrium" for a batch (see :class:`sevens.bots.smart.Equilibrium`)."""

    name: str = "equilibrium"

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        total = _even(view.scrum, view.turns_left)
        opponent = np.array([even_total(int(o), view.turns_left) for o in np.unique(view.opponent_scrum)])
        opponent_total = opponent[np.searchsorted(np.unique(view.opponent_scrum), view.opponent_scrum)]
        cases, back = np.unique(np.stack((total, opponent_total)), axis=1, return_inverse=True)
        u = rng.random(view.size)
        flair = np.zeros(view.size, dtype=np.int64)
        back = back.ravel()
        for c, (t, o) in enumerate(cases.T):
            mix = equilibrium_mix(int(t), int(o))
            where = back == c
            options = np.array([f for f, _ in mix], dtype=np.int64)
            cumulative = np.cumsum([p for _, p in mix])
            pick = np.minimum(np.searchsorted(cumulative, u[where], side="right"), len(options) - 1)
            flair[where] = options[pick]
        return total - flair, flair
