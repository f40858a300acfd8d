"""The rest tests tried before table-reader's was chosen (docs/strategy.md, "table-reader: what the
third group match can still change"): one batch strategy per row of its table.

Each plays as table-reader's batch form does (even pacing, the split drawn from equilibrium's mix
with one uniform per team) and orders nothing in the third group match where its own test says so;
the last four change the split, the pacing, or what a contested third match gets. "Contested":
neither through if it loses nor out if it wins. Run from this folder, which holds rest.py too:

    sevens lab --teams 8 --field equilibrium --tournaments 60000 --seed 101 \\
        --strategies variants:Safe,variants:Four,variants:SafeOrOut,variants:SafeHot,variants:SafeCold,rest:RestWhenSafe
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from sevens.bots.stakes import last_match_stakes
from sevens.lab.smart import EquilibriumPacing
from sevens.lab.strategies import BatchView, Orders, paced_total, split_orders
from sevens.tournament.fixtures import GROUP_ROUNDS
from sevens.tournament.formats import GROUP_SIZE, GROUP_TURNS

MOST = 2 * (GROUP_TURNS - 1)  # league points a team can hold before its last group match


def _three_level_for_second(mine: int, opponent: int, other: int, others_opponent: int) -> bool:
    # Whether some loss leaves three teams level on its points for second place: with one team
    # above it, itself and two others; with none, itself and three others (one of them first).
    for other_gets, last_gets in ((2, 0), (1, 1), (0, 2)):
        rest = (opponent + 2, other + other_gets, others_opponent + last_gets)
        level = 1 + sum(points == mine for points in rest)
        if level - (sum(points > mine for points in rest) == 0) > 2:
            return True
    return False


def _stakes_tables() -> dict[str, np.ndarray]:
    # Each reading of the table, by the league points of the team, its opponent and the other two.
    points = range(MOST + 1)
    shape = (MOST + 1,) * 4
    tables = {key: np.zeros(shape, dtype=bool) for key in ("level", "level_two", "safe", "out")}
    for m in points:
        for o in points:
            for x in points:
                for y in points:
                    stakes = last_match_stakes(m, o, x, y)
                    tables["level"][m, o, x, y] = stakes.second_or_level_if_lost
                    tables["level_two"][m, o, x, y] = (stakes.second_or_level_if_lost
                                                       and not _three_level_for_second(m, o, x, y))
                    tables["safe"][m, o, x, y] = stakes.through_if_lost
                    tables["out"][m, o, x, y] = stakes.out_if_won
    return tables


STAKES = _stakes_tables()

# For each place in a group, the places of the other two teams in the last group round (R7).
_OTHERS = np.zeros((GROUP_SIZE, 2), dtype=np.int64)
for _home, _away in GROUP_ROUNDS[GROUP_TURNS - 1]:
    _pair = [p for p in range(GROUP_SIZE) if p not in (_home, _away)]
    _OTHERS[_home] = _OTHERS[_away] = _pair


class Variant:
    """table-reader with its rest test left to a subclass (``rests``); none rests here."""

    weight = Fraction(1)  # the knockout weight it paces by
    contested_weight: Fraction | None = None  # another weight for a contested third match
    all_flair = False  # rest.py's split rather than equilibrium's

    def rests(self, view: BatchView, stakes: dict[str, np.ndarray]) -> np.ndarray:
        return np.zeros(view.size, dtype=bool)

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left, self.weight)
        rest = np.zeros(view.size, dtype=bool)
        last = not view.knockout and view.group_matches_left == 1 and view.group_league_points is not None
        if last:
            stakes = self._stakes(view)
            rest = self.rests(view, stakes)
            if self.contested_weight is not None:
                contested = ~stakes["safe"] & ~stakes["out"]
                other = paced_total(view.scrum, view.turns_left, view.group_matches_left, self.contested_weight)
                total = np.where(contested, other, total)
        if self.all_flair:
            force, flair = split_orders(total, np.ones(view.size), view.scrum)
        else:
            force, flair = self._equilibrium_split(total, view, rng)
        return np.where(rest, 0, force), np.where(rest, 0, flair)

    @staticmethod
    def _stakes(view: BatchView) -> dict[str, np.ndarray]:
        assert view.group_league_points is not None
        place = view.team % GROUP_SIZE
        others = (view.team - place)[:, None] + _OTHERS[place]
        other, others_opponent = view.group_league_points[view.tournament[:, None], others].T
        where = (view.league_points, view.opponent_league_points, other, others_opponent)
        return {key: table[where] for key, table in STAKES.items()}

    @staticmethod
    def _equilibrium_split(total: np.ndarray, view: BatchView, rng: np.random.Generator) -> Orders:
        # One uniform per team picks its FLAIR from the solver's mix for its case (its total and
        # its opponent's SCRUM), as table-reader's batch form does, so Level plays as table-reader.
        u = rng.random(view.size)
        flair = np.zeros(view.size, dtype=np.int64)
        cases, case_of = np.unique(np.stack((total, view.opponent_scrum)), axis=1, return_inverse=True)
        case_of = case_of.ravel()
        for c, (spend, opponent) in enumerate(cases.T):
            mix = EquilibriumPacing.mix(int(spend), int(opponent), view.turns_left)
            choices = np.array([points for points, _ in mix], dtype=np.int64)
            upper = np.cumsum([chance for _, chance in mix])
            mine = case_of == c
            flair[mine] = choices[np.minimum(np.searchsorted(upper, u[mine], side="right"), len(choices) - 1)]
        return total - flair, flair


class Level(Variant):
    """A loss cannot put it out on league points: table-reader's own test."""

    name = "rest-if-level"

    def rests(self, view: BatchView, stakes: dict[str, np.ndarray]) -> np.ndarray:
        return stakes["level"]


class LevelTwo(Variant):
    """As Level, and no loss leaves more than two teams level on its points."""

    name = "rest-if-level-two"

    def rests(self, view: BatchView, stakes: dict[str, np.ndarray]) -> np.ndarray:
        return stakes["level_two"]


class Four(Variant):
    """4 league points (two wins): rest.py's test."""

    name = "rest-on-four"

    def rests(self, view: BatchView, stakes: dict[str, np.ndarray]) -> np.ndarray:
        return np.asarray(view.league_points == 4)


class FourOrSafe(Variant):
    """4 league points, or through even if it loses."""

    name = "rest-on-four-or-safe"

    def rests(self, view: BatchView, stakes: dict[str, np.ndarray]) -> np.ndarray:
        return np.asarray((view.league_points == 4) | stakes["safe"])


class Safe(Variant):
    """Through even if it loses, a tie on league points counted as lost."""

    name = "rest-if-safe"

    def rests(self, view: BatchView, stakes: dict[str, np.ndarray]) -> np.ndarray:
        return stakes["safe"]


class SafeOrOut(Safe):
    """Through even if it loses, or out even if it wins."""

    name = "rest-if-safe-or-out"

    def rests(self, view: BatchView, stakes: dict[str, np.ndarray]) -> np.ndarray:
        return np.asarray(stakes["safe"] | stakes["out"])


class SafeFlair(Safe):
    """As Safe, all FLAIR (rest.py's split)."""

    name = "rest-if-safe-flair"
    all_flair = True


class SafeK11(Safe):
    """As Safe, paced as equilibrium@1.1."""

    name = "rest-if-safe-k1.1"
    weight = Fraction(11, 10)


class SafeHot(Safe):
    """As Safe, a contested third match paced as K = 0.5 (more spent there)."""

    name = "rest-if-safe-hot"
    contested_weight = Fraction(1, 2)


class SafeCold(Safe):
    """As Safe, a contested third match paced as K = 2 (less spent there)."""

    name = "rest-if-safe-cold"
    contested_weight = Fraction(2)
