"""What a team's last group match can still change, read off its group's league points (R8).

Before the third group round each team of a group has played two matches, and the round's two
matches are the team against its opponent and the group's other two against each other (R7).
Nine outcomes remain (win, draw or loss in each match); :func:`last_match_stakes` goes through
them and says what the team's own result can change: whether a loss can put it out on league
points, whether it is through even if it loses, out even if it wins, and whether a win can still
make it group winner.

League points alone are read; the tie-breaks that part teams level on them (tries, points, R8)
depend on the match's lines, not yet played.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

__all__ = ["Stakes", "last_match_stakes"]

_RESULTS = ((2, 0), (1, 1), (0, 2))  # league points of a win, a draw, a loss (R8), and the other side's


@dataclass(frozen=True, slots=True)
class Stakes:
    """What the last group match can change for a team (league points alone).

    Attributes:
        second_or_level_if_lost: even if it loses, at most one team finishes above it on league
            points, whatever the other match: a loss can leave it level for second place, for the
            tie-breaks to decide, but never out on league points.
        through_if_lost: it finishes in the top two even if it loses, whatever the other match,
            a tie on league points counted against it.
        out_if_won: it finishes below the top two even if it wins, whatever the other match.
        can_top: a win can make it group winner (alone on most league points) in some outcome.
    """

    second_or_level_if_lost: bool
    through_if_lost: bool
    out_if_won: bool
    can_top: bool


@cache
def last_match_stakes(mine: int, opponent: int, other: int, others_opponent: int) -> Stakes:
    """The stakes of a team holding ``mine`` league points before the last group round, against a
    side holding ``opponent``, while the group's other two (``other``, ``others_opponent``) meet.

    >>> last_match_stakes(4, 0, 2, 2)  # two wins; a loss leaves the opponent on 2, at most one other on 4
    Stakes(second_or_level_if_lost=True, through_if_lost=True, out_if_won=False, can_top=True)
    >>> last_match_stakes(4, 2, 2, 0)  # two wins; a loss puts the opponent on 4, and maybe another too
    Stakes(second_or_level_if_lost=True, through_if_lost=False, out_if_won=False, can_top=True)
    >>> last_match_stakes(3, 3, 1, 1)  # a win and a draw; a loss: the opponent on 5, the others' winner on 3
    Stakes(second_or_level_if_lost=True, through_if_lost=False, out_if_won=False, can_top=True)
    >>> last_match_stakes(0, 4, 2, 2)  # two losses: a win makes 2, the other match's winner has 4
    Stakes(second_or_level_if_lost=False, through_if_lost=False, out_if_won=True, can_top=False)
    """
    second_or_level_if_lost = True
    through_if_lost = True
    out_if_won = True
    can_top = False
    for mine_gets, opponent_gets in _RESULTS:
        for other_gets, last_gets in _RESULTS:
            me = mine + mine_gets
            rest = (opponent + opponent_gets, other + other_gets, others_opponent + last_gets)
            above = sum(points > me for points in rest)
            level_or_above = sum(points >= me for points in rest)
            if mine_gets == 0:
                second_or_level_if_lost = second_or_level_if_lost and above <= 1
                through_if_lost = through_if_lost and level_or_above <= 1
            if mine_gets == 2:
                out_if_won = out_if_won and above >= 2
                can_top = can_top or level_or_above == 0
    return Stakes(second_or_level_if_lost, through_if_lost, out_if_won, can_top)
