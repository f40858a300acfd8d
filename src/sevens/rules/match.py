"""Match outcome: points decide; in the knockouts, count-back on the lines (R9)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sevens.rules.lines import Line

__all__ = ["Side", "DecidedBy", "Outcome", "group_outcome", "countback"]


class Side(StrEnum):
    HOME = "home"
    AWAY = "away"

    @property
    def other(self) -> Side:
        return Side.AWAY if self is Side.HOME else Side.HOME


class DecidedBy(StrEnum):
    """What decided a match (R9), as written in the game record's ``decided_by``."""

    POINTS = "points"
    TRIES = "tries"
    CONVERSIONS = "conversions"
    DROP_GOALS = "drop_goals"
    GROUP_RECORD = "group_record"
    LOTS = "lots"


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won (``None`` for a level match) and what decided it."""

    winner: Side | None
    decided_by: DecidedBy | None


def _compare(home: int, away: int) -> Side | None:
    if home > away:
        return Side.HOME
    if away > home:
        return Side.AWAY
    return None


def group_outcome(home: Line, away: Line) -> Outcome:
    """Group rules: the higher score wins, equal scores draw (seed 6).

    >>> group_outcome(Line(tries=1), Line(penalties=1))
    Outcome(winner=<Side.HOME: 'home'>, decided_by=<DecidedBy.POINTS: 'points'>)
    >>> group_outcome(Line(tries=1), Line(tries=1)).winner is None
    True
    """
    winner = _compare(home.points, away.points)
    return Outcome(winner, DecidedBy.POINTS if winner else None)


def countback(home: Line, away: Line) -> Outcome:
    """Knockout rules on the lines alone: points, then tries, conversions, drop goals (R9).

    A ``None`` winner means the lines are identical, so the group record and then lots decide;
    those belong to the tournament, which knows the group tables and the game's dice.

    >>> countback(Line(tries=2, penalties=1), Line(tries=1, conversions=1, drop_goals=2))
    Outcome(winner=<Side.HOME: 'home'>, decided_by=<DecidedBy.TRIES: 'tries'>)
    >>> countback(Line(tries=1, drop_goals=1), Line(tries=1, penalties=1)).decided_by
    <DecidedBy.DROP_GOALS: 'drop_goals'>
    """
    steps = (
        (DecidedBy.POINTS, home.points, away.points),
        (DecidedBy.TRIES, home.tries, away.tries),
        (DecidedBy.CONVERSIONS, home.conversions, away.conversions),
        (DecidedBy.DROP_GOALS, home.drop_goals, away.drop_goals),
    )
    for decided_by, h, a in steps:
        winner = _compare(h, a)
        if winner is not None:
            return Outcome(winner, decided_by)
    return Outcome(None, None)
