"""A rule of thumb against the house bots: rest in the third group match after two wins."""

import numpy as np

from sevens.lab.strategies import BatchView, Orders, paced_total, split_orders


class RestWhenSafe:
    """Even pacing, all FLAIR; after two group wins (4 league points), nothing in the third group match."""

    name = "rest-when-safe"

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left)
        if not view.knockout and view.group_matches_left == 1:
            total = np.where(view.league_points == 4, 0, total)  # two wins: rest, save it for the knockouts
        return split_orders(total, np.ones(view.size), view.scrum)
