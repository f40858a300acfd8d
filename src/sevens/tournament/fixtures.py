"""Fixtures: the group round robin (R7) and the knockout bracket (R11).

Group rounds. A group's teams, in draw order ``t0 t1 t2 t3``, meet as follows (home first)::

    round 1: t0 v t1, t2 v t3
    round 2: t2 v t0, t3 v t1
    round 3: t0 v t3, t1 v t2

so every pair meets exactly once over the three rounds (R7) and every team is at home once or
twice. Home and away only name the dice streams; the ground is neutral.

Knockouts (R11). The first knockout round puts each group winner against a runner-up of another
group, the winner at home: with 2 groups ``A1-B2, B1-A2``; with 4 groups ``A1-D2, B1-C2, C1-B2,
D1-A2``. Each later round pairs the winners of the previous round: of four quarter-finals
``(1 v 3), (2 v 4)``, which gives the semi-finals ``(A1/D2 v C1/B2)`` and ``(B1/C2 v D1/A2)``;
of two semi-finals ``(1 v 2)``. A group's winner and runner-up therefore start in opposite halves
and can meet only in the final.

Match ids are ``t{turn}-m{k}``, ``k`` counting the turn's matches from 1 (groups in letter order
in the group stage, bracket order in the knockouts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from sevens.tournament.formats import GROUP_TURNS, Stage
from sevens.tournament.setup import GameSetup, TeamId

_M = TypeVar("_M")

__all__ = [
    "as_listed",
    "in_bracket_order",
    "GROUP_ROUNDS",
    "Fixture",
    "first_knockout_pairs",
    "group_fixtures",
    "knockout_fixtures",
    "match_id",
    "next_knockout_pairs",
]

GROUP_ROUNDS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 1), (2, 3)),
    ((2, 0), (3, 1)),
    ((0, 3), (1, 2)),
)
"""For each group round, the (home, away) places in the group's draw order (R7)."""

# R11: first-round pairs as ((winner's group, runner-up's group), ...).
_FIRST_ROUND: dict[int, tuple[tuple[str, str], ...]] = {
    2: (("A", "B"), ("B", "A")),
    4: (("A", "D"), ("B", "C"), ("C", "B"), ("D", "A")),
}


@dataclass(frozen=True, slots=True)
class Fixture:
    """One match to be played: id (``"t1-m1"``), turn, home and away teams, stage, and the
    group letter for a group match (``None`` in the knockouts).

    >>> Fixture("t4-m1", 4, TeamId("fiji"), TeamId("samoa"), Stage.SEMI_FINAL).teams
    ('fiji', 'samoa')
    """

    id: str
    turn: int
    home: TeamId
    away: TeamId
    stage: Stage
    group: str | None = None

    @property
    def teams(self) -> tuple[TeamId, TeamId]:
        """Home and away."""
        return (self.home, self.away)


def match_id(turn: int, number: int) -> str:
    """The id of match ``number`` (from 1) of ``turn``.

    >>> match_id(3, 2)
    't3-m2'
    """
    return f"t{turn}-m{number}"


def group_fixtures(setup: GameSetup, turn: int) -> tuple[Fixture, ...]:
    """The matches of group round ``turn`` (1, 2 or 3) for every group (R7).

    >>> from sevens.tournament.formats import Format
    >>> from sevens.tournament.setup import Player, PlayerId, draw_game
    >>> people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    >>> setup = draw_game(people, Format(8, 4, 2), seed_sha256="0" * 64, draw_seed=1)
    >>> [f.id for f in group_fixtures(setup, 2)]
    ['t2-m1', 't2-m2', 't2-m3', 't2-m4']
    """
    if not 1 <= turn <= GROUP_TURNS:
        raise ValueError(f"R7: the group stage has turns 1 to {GROUP_TURNS}, not {turn}")
    fixtures: list[Fixture] = []
    for letter in setup.format.group_letters:
        teams = setup.group(letter)
        for home, away in GROUP_ROUNDS[turn - 1]:
            number = len(fixtures) + 1
            fixtures.append(
                Fixture(match_id(turn, number), turn, teams[home], teams[away], Stage.GROUP, letter)
            )
    return tuple(fixtures)


def first_knockout_pairs(standings: Mapping[str, Sequence[str]]) -> tuple[tuple[TeamId, TeamId], ...]:
    """The first knockout round from the final group orders (R11).

    Args:
        standings: For each group letter, its teams from first to last.

    >>> first_knockout_pairs({"A": ["fiji", "samoa"], "B": ["kenya", "japan"]})
    (('fiji', 'japan'), ('kenya', 'samoa'))
    """
    plan = _FIRST_ROUND.get(len(standings))
    if plan is None or set(standings) != {g for g, _ in plan}:
        raise ValueError(f"R11: knockouts follow 2 groups (A, B) or 4 groups (A-D), got {sorted(standings)}")
    return tuple((TeamId(standings[w][0]), TeamId(standings[r][1])) for w, r in plan)


def next_knockout_pairs(winners: Sequence[TeamId]) -> tuple[tuple[TeamId, TeamId], ...]:
    """The next knockout round from the winners of the last one, in match order (R11).

    >>> next_knockout_pairs(["a1", "b1", "c1", "d1"])
    (('a1', 'c1'), ('b1', 'd1'))
    >>> next_knockout_pairs(["a1", "b1"])
    (('a1', 'b1'),)
    """
    if len(winners) == 4:
        return ((winners[0], winners[2]), (winners[1], winners[3]))
    if len(winners) == 2:
        return ((winners[0], winners[1]),)
    raise ValueError(f"R11: a knockout round follows 4 or 2 matches, not {len(winners)}")


def in_bracket_order(matches: Sequence[_M]) -> list[_M]:
    """A knockout round's matches (or fixtures) in the order a bracket draws them: those whose
    winners meet next side by side, the quarter-finals 1, 3, 2, 4 (R11 pairs the winners of the
    first and third); a round of one or two as it is.

    >>> in_bracket_order(["qf1", "qf2", "qf3", "qf4"]), in_bracket_order(["sf1", "sf2"])
    (['qf1', 'qf3', 'qf2', 'qf4'], ['sf1', 'sf2'])
    """
    if len(matches) != 4:
        return list(matches)
    # The pairing itself, not a copy of it: the places of the matches whose winners meet.
    pairs = next_knockout_pairs([TeamId(str(i)) for i in range(4)])
    return [matches[int(place)] for pair in pairs for place in pair]


def as_listed(stage: Stage, matches: Sequence[_M]) -> list[_M]:
    """A turn's matches (or fixtures) in the one order a list of them shows beside a bracket: a
    knockout round as the bracket draws it (:func:`in_bracket_order`), so that the two never show
    the same matches in two orders; a group turn as numbered, group by group, as the tables stand.

    >>> as_listed(Stage.QUARTER_FINAL, ["m1", "m2", "m3", "m4"]), as_listed(Stage.GROUP, ["m1", "m2", "m3", "m4"])
    (['m1', 'm3', 'm2', 'm4'], ['m1', 'm2', 'm3', 'm4'])
    """
    return in_bracket_order(matches) if stage.knockout else list(matches)


def knockout_fixtures(turn: int, stage: Stage, pairs: Sequence[tuple[TeamId, TeamId]]) -> tuple[Fixture, ...]:
    """Fixtures for a knockout turn, numbered in bracket order.

    >>> knockout_fixtures(5, Stage.FINAL, [(TeamId("fiji"), TeamId("samoa"))])[0].id
    't5-m1'
    """
    if not stage.knockout:
        raise ValueError(f"{stage} is not a knockout stage")
    return tuple(
        Fixture(match_id(turn, i), turn, home, away, stage) for i, (home, away) in enumerate(pairs, 1)
    )
