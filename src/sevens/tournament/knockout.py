"""Deciding a knockout match (R9, R10) and saying in words how a match was decided.

A knockout match always has a winner (R4, R9): points, then tries, conversions and drop goals
(:func:`sevens.rules.countback`), then the better group record (league points, tries scored,
points scored, fewest tries conceded, fewest points conceded:
:func:`sevens.tournament.standings.compare_group_records`), then lots thrown with the game's
dice (R10, :func:`sevens.tournament.lots.draw_lots`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sevens.rules import DecidedBy, DiceSource, Line, Side, countback, group_outcome
from sevens.tournament.lots import LotsDraw, draw_lots
from sevens.tournament.standings import TableRow, compare_group_records, group_record_key

__all__ = ["Decision", "decide_group", "decide_knockout", "describe", "group_record_edge", "record_favourite"]

_RECORD_STEPS = ("league points", "tries scored", "points scored", "tries conceded", "points conceded")


@dataclass(frozen=True, slots=True)
class Decision:
    """Who won a match (``None`` for a group draw), what decided it, and the lots if drawn."""

    winner: Side | None
    decided_by: DecidedBy | None
    lots: LotsDraw | None = None


def group_record_edge(a: TableRow, b: TableRow) -> tuple[str, int, int] | None:
    """The first count of the group record (R9) on which ``a`` and ``b`` differ, with ``a``'s and
    ``b``'s figures; ``None`` when they are level on all five (then lots decide).

    >>> from sevens.tournament.standings import Criterion
    >>> a = TableRow("fiji", 1, 3, 2, 0, 1, 6, 3, 40, 20, 4, Criterion.LEAGUE_POINTS)
    >>> b = TableRow("samoa", 2, 3, 2, 0, 1, 6, 4, 40, 20, 4, Criterion.TRIES_AGAINST)
    >>> group_record_edge(a, b), group_record_edge(a, a)
    (('tries conceded', 3, 4), None)
    """
    for label, x, y in zip(_RECORD_STEPS, group_record_key(a), group_record_key(b), strict=True):
        if x != y:
            # Conceded counts are negated in the key; give them as counts.
            return label, abs(x), abs(y)
    return None


def record_favourite(a: TableRow, b: TableRow) -> tuple[str, str, int, int] | None:
    """Whom the group records favour should a knockout match of ``a`` and ``b`` end level after
    count-back (R9): that team, the count that settles it, its figure then the other's; ``None``
    when they are level on all five (then lots decide).

    >>> from sevens.tournament.standings import Criterion
    >>> a = TableRow("fiji", 1, 3, 2, 0, 1, 6, 3, 40, 20, 4, Criterion.LEAGUE_POINTS)
    >>> b = TableRow("samoa", 2, 3, 2, 0, 1, 6, 4, 40, 20, 4, Criterion.TRIES_AGAINST)
    >>> record_favourite(b, a), record_favourite(a, a)
    (('fiji', 'tries conceded', 3, 4), None)
    """
    edge = group_record_edge(a, b)
    if edge is None:
        return None
    label, ours, others = edge
    return (a.team, label, ours, others) if compare_group_records(a, b) > 0 else (b.team, label, others, ours)


def decide_group(home: Line, away: Line) -> Decision:
    """A group match: the higher score wins, a draw has no winner (seed 6, R4).

    >>> decide_group(Line(tries=1), Line(tries=1))
    Decision(winner=None, decided_by=None, lots=None)
    """
    outcome = group_outcome(home, away)
    return Decision(outcome.winner, outcome.decided_by)


def decide_knockout(
    home: Line,
    away: Line,
    *,
    home_record: TableRow,
    away_record: TableRow,
    lots: Callable[[], DiceSource],
    what: str,
) -> Decision:
    """A knockout match: count-back, then the better group record, then lots (R9, R10).

    Args:
        home: The home team's line.
        away: The away team's line.
        home_record: The home team's final group-table row.
        away_record: The away team's final group-table row.
        lots: Gives the dice for lots; called only if lots are needed.
        what: What the lots decide, recorded with the draw.

    >>> from sevens.rules import ScriptedDice
    >>> from sevens.tournament.standings import Criterion
    >>> a = TableRow("fiji", 1, 3, 3, 0, 0, 9, 2, 51, 10, 6, Criterion.LEAGUE_POINTS)
    >>> b = TableRow("samoa", 2, 3, 2, 0, 1, 7, 5, 40, 30, 4, Criterion.LEAGUE_POINTS)
    >>> level = Line(tries=2, conversions=2)
    >>> decide_knockout(level, level, home_record=b, away_record=a, lots=lambda: ScriptedDice([]), what="x")
    Decision(winner=<Side.AWAY: 'away'>, decided_by=<DecidedBy.GROUP_RECORD: 'group_record'>, lots=None)
    """
    outcome = countback(home, away)
    if outcome.winner is not None:
        return Decision(outcome.winner, outcome.decided_by)
    better = compare_group_records(home_record, away_record)
    if better:
        return Decision(Side.HOME if better > 0 else Side.AWAY, DecidedBy.GROUP_RECORD)
    draw = draw_lots(what, (home_record.team, away_record.team), lots())
    winner = Side.HOME if draw.order[0] == home_record.team else Side.AWAY
    return Decision(winner, DecidedBy.LOTS, draw)


def describe(
    home: Line,
    away: Line,
    decision: Decision,
    *,
    home_record: TableRow | None = None,
    away_record: TableRow | None = None,
) -> str:
    """How a match was decided, in words, the winner's figures first.

    >>> describe(Line(tries=3), Line(tries=1, penalties=1), Decision(Side.HOME, DecidedBy.POINTS))
    '15-8'
    >>> describe(Line(penalties=2), Line(tries=1, conversions=1), Decision(Side.AWAY, DecidedBy.POINTS))
    '7-6'
    >>> two, one = Line(tries=2, penalties=1, drop_goals=1), Line(tries=1, conversions=1, drop_goals=3)
    >>> describe(one, two, Decision(Side.AWAY, DecidedBy.TRIES))
    '16-16, won on tries 2-1'
    >>> describe(Line(tries=1), Line(tries=1), Decision(None, None))
    '5-5, a draw'
    """
    if decision.winner is None:
        return f"{home.points}-{away.points}, a draw"
    win, lose = (home, away) if decision.winner is Side.HOME else (away, home)
    score = f"{win.points}-{lose.points}"
    decided_by = decision.decided_by
    if decided_by is DecidedBy.POINTS or decided_by is None:
        return score
    if decided_by in (DecidedBy.TRIES, DecidedBy.CONVERSIONS, DecidedBy.DROP_GOALS):
        label = str(decided_by).replace("_", " ")
        field = decided_by.value
        return f"{score}, won on {label} {getattr(win, field)}-{getattr(lose, field)}"
    if decided_by is DecidedBy.GROUP_RECORD:
        if home_record is None or away_record is None:
            return f"{score}, level on count-back, won on group record"
        records = (home_record, away_record) if decision.winner is Side.HOME else (away_record, home_record)
        edge = group_record_edge(*records)
        if edge is not None:
            label, w, lo = edge
            return f"{score}, level on count-back, won on group record ({label} {w}-{lo})"
        return f"{score}, level on count-back, won on group record"
    return f"{score}, level on count-back and group record, won by drawing lots"
