"""The group table and its tie-breaks (R8), and the group record used in knockout count-back (R9).

Order of a group (R8): league points (2 for a win, 1 for a draw, 0 for a loss). Teams level on
league points are separated, in turn, by tries scored, points scored, fewest tries conceded,
fewest points conceded (all over the group's matches), then by head-to-head league points in the
matches among the teams still level at that step, then by lots (R10). Each criterion splits the
level set into smaller sets; only the sets still level go on to the next criterion, and the
head-to-head is counted among exactly the teams of such a set.

Every row says which criterion decided its place: the criterion at which the set holding the team
shrank to that team alone. A table can be computed at any point of the group. Lots are only drawn
once the group is complete (every pair has met); before that, teams level on every criterion up to
head-to-head share their place and their ``decided_by`` is ``None``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from itertools import groupby, pairwise
from typing import Any

from sevens.rules.dice import DiceSource
from sevens.rules.lines import Line
from sevens.rules.match import Side, group_outcome
from sevens.tournament.lots import LotsDraw, draw_lots

__all__ = [
    "CHAIN",
    "DECIDED_BY_WORDS",
    "DRAW_POINTS",
    "LOSS_POINTS",
    "WIN_POINTS",
    "Criterion",
    "GroupResult",
    "GroupTable",
    "Separation",
    "TableRow",
    "compare_group_records",
    "describe_separation",
    "group_record_key",
    "group_table",
    "separations",
]

WIN_POINTS = 2
DRAW_POINTS = 1
LOSS_POINTS = 0


class Criterion(StrEnum):
    """A step of the group order (R8), as written in a table row's ``decided_by``."""

    LEAGUE_POINTS = "league_points"
    TRIES_FOR = "tries_for"
    POINTS_FOR = "points_for"
    TRIES_AGAINST = "tries_against"
    """Fewest tries conceded."""
    POINTS_AGAINST = "points_against"
    """Fewest points conceded."""
    HEAD_TO_HEAD = "head_to_head"
    LOTS = "lots"


DECIDED_BY_WORDS: dict[Criterion, str] = {
    Criterion.LEAGUE_POINTS: "league points",
    Criterion.TRIES_FOR: "tries scored",
    Criterion.POINTS_FOR: "points scored",
    Criterion.TRIES_AGAINST: "fewer tries conceded",
    Criterion.POINTS_AGAINST: "fewer points conceded",
    Criterion.HEAD_TO_HEAD: "head-to-head",
    Criterion.LOTS: "lots",
}
"""Each step as the tables say what decided a place (R8); on what a team conceded, fewer wins, which
the field's name ("tries_against") does not say."""

CHAIN: tuple[Criterion, ...] = tuple(Criterion)
"""The criteria in the order R8 applies them."""


@dataclass(frozen=True, slots=True)
class GroupResult:
    """One played group match: the two teams and their lines (R1).

    >>> r = GroupResult("fiji", "samoa", Line(tries=2), Line(penalties=1))
    >>> GroupResult.from_dict(r.to_dict()) == r
    True
    """

    home: str
    away: str
    home_line: Line
    away_line: Line

    def __post_init__(self) -> None:
        for name in ("home", "away"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise ValueError(f"a match's {name} team must be a non-empty team id, got {value!r}")
        for name in ("home_line", "away_line"):
            if not isinstance(getattr(self, name), Line):
                raise ValueError(f"a match's {name} must be a Line (R1)")
        if self.home == self.away:
            raise ValueError(
                f"{self.home!r} cannot play itself; R7: in a group every team plays each other team once"
            )

    def to_dict(self) -> dict[str, Any]:
        """The match as JSON-ready data, lines with their points."""
        return {
            "home": self.home,
            "away": self.away,
            "home_line": self.home_line.to_dict(),
            "away_line": self.away_line.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: object) -> GroupResult:
        """Read a match ``{"home", "away", "home_line", "away_line"}``; each line's points are optional.

        >>> GroupResult.from_dict({"home": "a", "away": "b", "home_line": {"tries": 1,
        ...     "conversions": 2, "penalties": 0, "drop_goals": 0}, "away_line": {}})
        Traceback (most recent call last):
        ...
        ValueError: home_line: R1: a line cannot have more conversions (2) than tries (1); every conversion follows a try
        """
        if not isinstance(data, dict):
            raise ValueError(f"a match must be an object with home, away, home_line, away_line; got {data!r}")
        keys = ("home", "away", "home_line", "away_line")
        missing = [k for k in keys if k not in data]
        if missing:
            raise ValueError(f"a match is missing {', '.join(missing)}")
        unknown = sorted(map(str, set(data) - set(keys)))
        if unknown:
            raise ValueError(f"a match has unknown field(s) {', '.join(unknown)}; expected {', '.join(keys)}")
        lines: dict[str, Line] = {}
        for name in ("home_line", "away_line"):
            try:
                lines[name] = Line.from_dict(data[name])
            except (ValueError, TypeError) as exc:
                raise ValueError(f"{name}: {exc}") from None
        return cls(home=data["home"], away=data["away"], **lines)


@dataclass(frozen=True, slots=True)
class TableRow:
    """One team's line in the group table (R8).

    ``tries_against`` and ``points_against`` are what the team conceded. ``decided_by`` is the
    criterion that decided the team's place, or ``None`` while it is still level with another team
    in an unfinished group (both then share ``position``).
    """

    team: str
    position: int
    played: int
    won: int
    drawn: int
    lost: int
    tries_for: int
    tries_against: int
    points_for: int
    points_against: int
    league_points: int
    decided_by: Criterion | None

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON-ready data; keys are the field names, ``decided_by`` a string or null.

        >>> row = TableRow("fiji", 1, 3, 3, 0, 0, 9, 2, 51, 10, 6, Criterion.LEAGUE_POINTS)
        >>> row.to_dict()["decided_by"], TableRow.from_dict(row.to_dict()) == row
        ('league_points', True)
        """
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["decided_by"] = None if self.decided_by is None else str(self.decided_by)
        return data

    @classmethod
    def from_dict(cls, data: object) -> TableRow:
        """Read a row written by :meth:`to_dict`."""
        if not isinstance(data, dict):
            raise ValueError(f"a table row must be an object, got {type(data).__name__}")
        names = [f.name for f in fields(cls)]
        if set(data) != set(names):
            raise ValueError(
                f"a table row has exactly the fields {', '.join(names)}; got {', '.join(map(str, data))}"
            )
        team = data["team"]
        if not isinstance(team, str) or not team:
            raise ValueError(f"a table row's team must be a non-empty id, got {team!r}")
        counts: dict[str, int] = {}
        for name in names[1:-1]:
            value = data[name]
            if type(value) is not int or value < 0:
                raise ValueError(f"a table row's {name} must be a whole number >= 0, got {value!r}")
            counts[name] = value
        decided = data["decided_by"]
        if decided is not None and decided not in set(Criterion):
            raise ValueError(
                f"a table row's decided_by must be null or one of {', '.join(CHAIN)}, got {decided!r}"
            )
        return cls(team=team, decided_by=None if decided is None else Criterion(decided), **counts)


@dataclass(frozen=True, slots=True)
class GroupTable:
    """A group's table: rows from first to last, and every drawing of lots it needed (R8, R10)."""

    what: str
    rows: tuple[TableRow, ...]
    lots: tuple[LotsDraw, ...] = ()

    @property
    def order(self) -> tuple[str, ...]:
        """Team ids from first to last."""
        return tuple(row.team for row in self.rows)

    @property
    def complete(self) -> bool:
        """True once every team has played every other team."""
        return all(row.played == len(self.rows) - 1 for row in self.rows)

    def row(self, team: str) -> TableRow:
        """The row of ``team``."""
        for row in self.rows:
            if row.team == team:
                return row
        raise KeyError(f"{team!r} is not in {self.what}")

    def to_dict(self) -> dict[str, Any]:
        """``{"what": ..., "rows": [...], "lots": [...]}``."""
        return {
            "what": self.what,
            "rows": [row.to_dict() for row in self.rows],
            "lots": [draw.to_dict() for draw in self.lots],
        }

    @classmethod
    def from_dict(cls, data: object) -> GroupTable:
        """Read a table written by :meth:`to_dict`."""
        if not isinstance(data, dict) or set(data) != {"what", "rows", "lots"}:
            raise ValueError("a group table is an object with exactly the fields what, rows, lots")
        if not isinstance(data["what"], str):
            raise ValueError("a group table's 'what' must be a string")
        if not isinstance(data["rows"], list) or not isinstance(data["lots"], list):
            raise ValueError("a group table's rows and lots must be lists")
        return cls(
            what=data["what"],
            rows=tuple(TableRow.from_dict(row) for row in data["rows"]),
            lots=tuple(LotsDraw.from_dict(draw) for draw in data["lots"]),
        )


@dataclass(slots=True)
class _Tally:
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    tries_for: int = 0
    tries_against: int = 0
    points_for: int = 0
    points_against: int = 0
    league_points: int = 0


def _league_points(result: GroupResult) -> tuple[int, int]:
    winner = group_outcome(result.home_line, result.away_line).winner
    if winner is None:
        return DRAW_POINTS, DRAW_POINTS
    return (WIN_POINTS, LOSS_POINTS) if winner is Side.HOME else (LOSS_POINTS, WIN_POINTS)


def _check_teams(teams: Iterable[str], what: str) -> tuple[str, ...]:
    listed = tuple(teams)
    for team in listed:
        if not isinstance(team, str) or not team:
            raise ValueError(f"{what}: a team id must be a non-empty string, got {team!r}")
    seen: set[str] = set()
    for team in listed:
        if team in seen:
            raise ValueError(f"{what}: team {team!r} is listed twice; list each team once")
        seen.add(team)
    if len(listed) < 2:
        raise ValueError(f"{what}: a group table needs at least two teams, got {list(listed)}")
    return listed


def _check_results(teams: tuple[str, ...], results: Sequence[GroupResult], what: str) -> None:
    known = set(teams)
    met: dict[frozenset[str], int] = {}
    for number, result in enumerate(results, start=1):
        if not isinstance(result, GroupResult):
            raise ValueError(f"{what}: match {number} must be a GroupResult, got {type(result).__name__}")
        label = f"{what}: match {number} ({result.home} v {result.away})"
        for team in (result.home, result.away):
            if team not in known:
                raise ValueError(
                    f"{label} names {team!r}, which is not one of the group's teams "
                    f"({', '.join(teams)}); fix the name or add the team"
                )
        pair = frozenset((result.home, result.away))
        if pair in met:
            raise ValueError(
                f"{label}: {result.home} and {result.away} already met in match {met[pair]}; "
                "R7: in a group every pair meets once, so remove one of the two"
            )
        met[pair] = number


def _tally(teams: tuple[str, ...], results: Sequence[GroupResult]) -> dict[str, _Tally]:
    tally = {team: _Tally() for team in teams}
    for result in results:
        home_points, away_points = _league_points(result)
        sides = (
            (result.home, result.home_line, result.away_line, home_points),
            (result.away, result.away_line, result.home_line, away_points),
        )
        for team, line, other, points in sides:
            t = tally[team]
            t.played += 1
            t.won += points == WIN_POINTS
            t.drawn += points == DRAW_POINTS
            t.lost += points == LOSS_POINTS
            t.tries_for += line.tries
            t.tries_against += other.tries
            t.points_for += line.points
            t.points_against += other.points
            t.league_points += points
    return tally


def _head_to_head(level: tuple[str, ...], results: Sequence[GroupResult]) -> dict[str, int]:
    among = set(level)
    points = dict.fromkeys(level, 0)
    for result in results:
        if result.home in among and result.away in among:
            home_points, away_points = _league_points(result)
            points[result.home] += home_points
            points[result.away] += away_points
    return points


def group_table(
    teams: Iterable[str],
    results: Iterable[GroupResult],
    lots: DiceSource | None,
    what: str = "group A",
) -> GroupTable:
    """The group table after ``results``, ordered by R8, with lots from ``lots`` if needed (R10).

    Args:
        teams: The group's team ids (two or more; a game's groups have four).
        results: The matches played so far, any number of them; each pair at most once.
        lots: The dice for drawing lots (the game's lots stream for this group). Lots are drawn
            only when the group is complete and teams are still level after head-to-head; each
            draw consumes dice from this source in table order. May be ``None`` when no lots
            are needed.
        what: The group's name, used in lots records and error messages.

    Returns:
        The table: rows from first to last, and the lots drawn.

    Raises:
        ValueError: a match names an unknown team, a team plays itself, a pair meets twice, or a
            complete group needs lots and ``lots`` is ``None``.

    Three teams all on 2 league points: c scored no tries, so it is third on tries scored; a and
    b both scored 4 tries and 20 points, and a conceded fewer tries (1 against 2).

    >>> results = [
    ...     GroupResult("a", "b", Line(tries=2), Line(tries=1)),
    ...     GroupResult("c", "a", Line(penalties=4), Line(tries=2)),
    ...     GroupResult("b", "c", Line(tries=3), Line()),
    ... ]
    >>> [(r.position, r.team, str(r.decided_by)) for r in group_table(["a", "b", "c"], results, None).rows]
    [(1, 'a', 'tries_against'), (2, 'b', 'tries_against'), (3, 'c', 'tries_for')]
    """
    listed = _check_teams(teams, what)
    played = tuple(results)
    _check_results(listed, played, what)
    tally = _tally(listed, played)
    complete = len(played) == len(listed) * (len(listed) - 1) // 2
    draws: list[LotsDraw] = []

    def key_for(criterion: Criterion, level: tuple[str, ...]) -> Callable[[str], int]:
        # Every key is "higher is better"; the two conceded counts are negated.
        if criterion is Criterion.HEAD_TO_HEAD:
            h2h = _head_to_head(level, played)
            return h2h.__getitem__
        if criterion in (Criterion.TRIES_AGAINST, Criterion.POINTS_AGAINST):
            return lambda team: -getattr(tally[team], criterion.value)
        return lambda team: int(getattr(tally[team], criterion.value))

    def settle(
        level: tuple[str, ...], step: int, first: int
    ) -> list[tuple[tuple[str, ...], Criterion | None]]:
        """Order ``level`` (sorted ids, places ``first``...) from criterion ``CHAIN[step]`` on."""
        criterion = CHAIN[step]
        if criterion is Criterion.LOTS:
            if not complete:
                return [(level, None)]
            places = f"places {first}-{first + len(level) - 1}"
            if lots is None:
                raise ValueError(
                    f"R8/R10: in {what}, {', '.join(level)} are level on every criterion up to "
                    f"head-to-head for {places}, so lots must decide; pass the game's dice source for lots"
                )
            draw = draw_lots(f"{what}: {places}", level, lots)
            draws.append(draw)
            return [((team,), Criterion.LOTS) for team in draw.order]
        key = key_for(criterion, level)
        settled: list[tuple[tuple[str, ...], Criterion | None]] = []
        place = first
        for _, same in groupby(sorted(level, key=lambda team: (-key(team), team)), key=key):
            subset = tuple(same)
            if len(subset) == 1:
                settled.append((subset, criterion))
            else:
                settled.extend(settle(subset, step + 1, place))
            place += len(subset)
        return settled

    rows: list[TableRow] = []
    place = 1
    for subset, decided_by in settle(tuple(sorted(listed)), 0, 1):
        for team in subset:
            t = tally[team]
            rows.append(
                TableRow(
                    team=team,
                    position=place,
                    played=t.played,
                    won=t.won,
                    drawn=t.drawn,
                    lost=t.lost,
                    tries_for=t.tries_for,
                    tries_against=t.tries_against,
                    points_for=t.points_for,
                    points_against=t.points_against,
                    league_points=t.league_points,
                    decided_by=decided_by,
                )
            )
        place += len(subset)
    return GroupTable(what=what, rows=tuple(rows), lots=tuple(draws))


def group_record_key(row: TableRow) -> tuple[int, int, int, int, int]:
    """A key that sorts better group records higher (R9): league points, tries scored, points
    scored, fewest tries conceded, fewest points conceded.

    >>> a = TableRow("a", 1, 3, 2, 0, 1, 6, 3, 40, 20, 4, Criterion.LEAGUE_POINTS)
    >>> group_record_key(a)
    (4, 6, 40, -3, -20)
    """
    return (row.league_points, row.tries_for, row.points_for, -row.tries_against, -row.points_against)


def compare_group_records(a: TableRow, b: TableRow) -> int:
    """Compare two group records for knockout count-back (R9): 1 if ``a`` is better, -1 if ``b``
    is, 0 if they are level on all five counts (then lots decide).

    >>> a = TableRow("a", 1, 3, 2, 0, 1, 6, 3, 40, 20, 4, Criterion.LEAGUE_POINTS)
    >>> b = TableRow("b", 2, 3, 2, 0, 1, 6, 4, 40, 20, 4, Criterion.TRIES_AGAINST)
    >>> compare_group_records(a, b), compare_group_records(b, a), compare_group_records(a, a)
    (1, -1, 0)
    """
    ka, kb = group_record_key(a), group_record_key(b)
    return (ka > kb) - (ka < kb)


@dataclass(frozen=True, slots=True)
class Separation:
    """What put ``upper`` directly above ``lower`` in a table, both on the same league points (R8).

    Attributes:
        upper: The team placed higher.
        lower: The team directly below it.
        criterion: The step that separated them; ``None`` while they still share a place (a group
            not finished, lots not drawn yet).
        figures: Each team's figure on that step, ``upper``'s first (on head-to-head, league points
            in the matches among ``among``); ``None`` for lots or a shared place.
        among: On head-to-head, lots or a shared place, the teams still level at that step, whose
            matches among themselves head-to-head counted; otherwise empty.
    """

    upper: str
    lower: str
    criterion: Criterion | None
    figures: tuple[int, int] | None = None
    among: tuple[str, ...] = ()


def separations(table: GroupTable, results: Iterable[GroupResult]) -> tuple[Separation, ...]:
    """For each two teams next to each other in ``table`` on the same league points, what put one
    above the other: the "Decided by" column names the step that left a team alone in its level
    set, but not which team it was set against, nor, for head-to-head, the figures (which come
    from matches the table does not show). ``results``: the matches the table was made from.

    A team splits from another at the first step on which their figures differ: the steps up to
    head-to-head compare each team's own counts, so two teams are still in one level set exactly
    while those are equal; head-to-head counts the matches among that whole set (R8).

    The worked example of docs/standings.md:

    >>> lines = {0: Line(), 3: Line(penalties=1), 5: Line(tries=1), 8: Line(tries=1, penalties=1)}
    >>> results = [GroupResult(h, a, lines[x], lines[y]) for h, a, x, y in [
    ...     ("samoa", "tonga", 3, 0), ("samoa", "wales", 0, 0), ("samoa", "fiji", 5, 8),
    ...     ("tonga", "wales", 3, 0), ("tonga", "fiji", 5, 5), ("wales", "fiji", 8, 5)]]
    >>> table = group_table(["fiji", "samoa", "tonga", "wales"], results, None)
    >>> for s in separations(table, results):
    ...     print(s.upper, s.lower, s.criterion, s.figures, s.among)
    fiji samoa tries_for (3, 1) ()
    samoa tonga head_to_head (3, 2) ('samoa', 'tonga', 'wales')
    tonga wales head_to_head (2, 1) ('samoa', 'tonga', 'wales')
    """
    played = tuple(results)
    steps = (Criterion.TRIES_FOR, Criterion.POINTS_FOR, Criterion.TRIES_AGAINST, Criterion.POINTS_AGAINST)
    found: list[Separation] = []
    for upper, lower in pairwise(table.rows):
        if upper.league_points != lower.league_points:
            continue
        step = next((c for c in steps if getattr(upper, c.value) != getattr(lower, c.value)), None)
        if step is not None:
            found.append(Separation(upper.team, lower.team, step, (getattr(upper, step.value), getattr(lower, step.value))))
            continue
        level = tuple(sorted(r.team for r in table.rows if group_record_key(r) == group_record_key(upper)))
        h2h = _head_to_head(level, played)
        if h2h[upper.team] != h2h[lower.team]:
            found.append(Separation(upper.team, lower.team, Criterion.HEAD_TO_HEAD, (h2h[upper.team], h2h[lower.team]), level))
        elif upper.position == lower.position:
            found.append(Separation(upper.team, lower.team, None, None, level))
        else:
            found.append(Separation(upper.team, lower.team, Criterion.LOTS, None, level))
    return tuple(found)


def describe_separation(s: Separation, name: Callable[[str], str] = str) -> str:
    """What put one team above the next on the same league points, with both figures, as a group
    table's reader checks it; said alike under the web's tables and the terminal's. ``name``: how
    to show a team's id.

    >>> describe_separation(Separation("fiji", "samoa", Criterion.TRIES_FOR, (3, 1)), str.title)
    'Fiji above Samoa on tries scored, 3 to 1'
    >>> describe_separation(Separation("samoa", "tonga", Criterion.HEAD_TO_HEAD, (3, 2), ("samoa", "tonga", "wales")))
    'samoa above tonga on head-to-head, 3 league points to 2 in the matches among samoa, tonga and wales'
    >>> describe_separation(Separation("a", "b", Criterion.POINTS_AGAINST, (10, 12)))
    'a above b on points conceded, 10 to 12 (fewer is better)'
    """
    upper, lower = name(s.upper), name(s.lower)
    among = ", ".join(name(t) for t in s.among[:-1]) + f" and {name(s.among[-1])}" if s.among else ""
    if s.criterion is None:
        return f"{upper} and {lower} are level on every count so far and share the place until the group is played"
    if s.criterion is Criterion.LOTS:
        return f"{upper} above {lower} by drawing lots, after {among} were level on every count and head-to-head"
    assert s.figures is not None
    a, b = s.figures
    if s.criterion is Criterion.HEAD_TO_HEAD:
        return f"{upper} above {lower} on head-to-head, {a} league points to {b} in the matches among {among}"
    what = {Criterion.TRIES_FOR: "tries scored", Criterion.POINTS_FOR: "points scored",
            Criterion.TRIES_AGAINST: "tries conceded", Criterion.POINTS_AGAINST: "points conceded"}[s.criterion]
    fewer = " (fewer is better)" if s.criterion in (Criterion.TRIES_AGAINST, Criterion.POINTS_AGAINST) else ""
    return f"{upper} above {lower} on {what}, {a} to {b}{fewer}"
