"""What put each team above the next on the same league points (R8), as the web's group tables say
it: the step, both teams' figures, and for head-to-head or lots the teams still level then."""

from __future__ import annotations

from itertools import pairwise

from sevens.rules import Line, ScriptedDice
from sevens.tournament.standings import Criterion, GroupResult, group_table, separations

TEAMS = ["fiji", "samoa", "tonga", "wales"]


def test_every_drawn_group_is_settled_by_lots_and_said_so() -> None:
    results = [GroupResult(h, a, Line(), Line()) for h, a in [(x, y) for i, x in enumerate(TEAMS) for y in TEAMS[i + 1:]]]
    table = group_table(TEAMS, results, ScriptedDice([6, 5, 4, 3]))
    split = separations(table, results)
    assert [(s.upper, s.lower) for s in split] == list(pairwise(table.order))
    assert all(s.criterion is Criterion.LOTS and s.figures is None and s.among == tuple(TEAMS) for s in split)


def test_teams_still_level_in_an_unfinished_group_share_their_place() -> None:
    results = [GroupResult("fiji", "samoa", Line(tries=1), Line(tries=1)), GroupResult("tonga", "wales", Line(), Line())]
    table = group_table(TEAMS, results, None)
    split = {(s.upper, s.lower): s for s in separations(table, results)}
    assert split[("fiji", "samoa")].criterion is None and split[("fiji", "samoa")].among == ("fiji", "samoa")
    assert split[("samoa", "tonga")].criterion is Criterion.TRIES_FOR and split[("samoa", "tonga")].figures == (1, 0)


def test_on_a_conceded_count_the_upper_team_has_the_smaller_figure() -> None:
    results = [GroupResult("fiji", "tonga", Line(tries=1), Line()), GroupResult("samoa", "wales", Line(tries=1), Line(penalties=1))]
    table = group_table(TEAMS, results, None)
    assert table.order == ("fiji", "samoa", "wales", "tonga")
    split = [(s.upper, s.lower, s.criterion, s.figures) for s in separations(table, results)]
    assert split == [("fiji", "samoa", Criterion.POINTS_AGAINST, (0, 3)), ("wales", "tonga", Criterion.POINTS_FOR, (3, 0))]
