"""What a team's next group match decides: its qualification outlook (R6-R8, R11).

Before a group match a manager wants to know what is at stake: "a win puts you through whatever
else happens", "you are out whatever happens", "a draw is enough unless Kenya beat Japan". This
module works that out from the group's resolved results alone (nothing about the orders of the
turn being played, R13).

How. The group's remaining matches (at most six, so at most 3^6 = 729 completions) are each given
every outcome, win, draw or loss; the league points (R8: 2 a win, 1 a draw) then say, in each
completion, whether the team is

* ``THROUGH``: at most ``places - 1`` other teams end on as many league points or more, so it is
  in the top ``places`` whatever the margins;
* ``OUT``: ``places`` other teams or more end on more league points;
* ``TIE_BREAKS``: otherwise. It is level on league points with teams competing for the last
  places, so R8's later criteria decide (tries scored, points scored, fewest conceded, head to
  head, lots), and those depend on the margins of matches still to be played, which outcomes alone
  do not fix. This is said as it is, never guessed.

For each result of the team's own next match the completions of the other remaining matches are
then summed up: certainly through, certainly out, down to tie-breaks in every case, or depending on
other results, in which case the one match whose result alone decides is named when there is one.
"Certainly" is sound by construction: it is said only when every completion agrees.

Which places go through (R6, R11): in both formats the knockouts start with every group's winner
and runner-up (2 groups of four into the semi-finals, 4 into the quarter-finals), so the top two of
each group go through and no format depends on other groups (no best third places).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import product

from sevens.tournament.fixtures import group_fixtures
from sevens.tournament.formats import GROUP_TURNS, Format, Stage
from sevens.tournament.game import Game
from sevens.tournament.standings import DRAW_POINTS, LOSS_POINTS, WIN_POINTS, GroupResult, group_table

__all__ = [
    "AfterResult",
    "Completion",
    "MatchOutcome",
    "Outlook",
    "Verdict",
    "describe_after",
    "describe_outlook",
    "game_outlook",
    "group_outlook",
    "places_through",
]


class MatchOutcome(StrEnum):
    """The result of a group match, from the home side's view."""

    HOME = "home"
    DRAW = "draw"
    AWAY = "away"


class Completion(StrEnum):
    """Where one completion of the group's outcomes leaves the team."""

    THROUGH = "through"
    OUT = "out"
    TIE_BREAKS = "tie-breaks"


class Verdict(StrEnum):
    """What one result of the team's next match leads to, whatever else happens."""

    THROUGH = "through"
    """Through in every completion."""
    OUT = "out"
    """Out in every completion."""
    TIE_BREAKS = "tie-breaks"
    """Level on league points for the last place(s) in every completion: margins decide (R8)."""
    DEPENDS = "depends"
    """Through, out or on tie-breaks according to other results."""


_OWN_RESULTS = ("win", "draw", "loss")


@dataclass(frozen=True, slots=True)
class AfterResult:
    """The outlook after one result of the team's next match.

    Attributes:
        result: ``"win"``, ``"draw"`` or ``"loss"`` for the team.
        verdict: What it leads to whatever else happens, or ``DEPENDS``.
        possible: Every :class:`Completion` some outcome of the other matches gives.
        decider: With ``DEPENDS``, a remaining match (home, away) whose result alone decides, if
            there is one; else the one with the most outcomes that decide on their own, if any;
            ``None`` otherwise.
        by_outcome: For ``decider``, what each of its outcomes leads to whatever else happens,
            ``None`` for an outcome after which it still depends on other results.
    """

    result: str
    verdict: Verdict
    possible: frozenset[Completion]
    decider: tuple[str, str] | None = None
    by_outcome: tuple[tuple[MatchOutcome, Completion | None], ...] = ()


@dataclass(frozen=True, slots=True)
class Outlook:
    """A team's outlook before its next group match.

    Attributes:
        team: The team.
        opponent: Its next opponent.
        places: How many places of the group go through (2).
        after: For a win, a draw and a loss, in that order.
    """

    team: str
    opponent: str
    places: int
    after: tuple[AfterResult, AfterResult, AfterResult]

    @property
    def already_through(self) -> bool:
        """Through whatever happens."""
        return all(a.verdict is Verdict.THROUGH for a in self.after)

    @property
    def already_out(self) -> bool:
        """Out whatever happens."""
        return all(a.verdict is Verdict.OUT for a in self.after)


def places_through(fmt: Format) -> int:
    """How many places of each group go to the knockouts: the first knockout round's teams shared
    among the groups (R6, R11). Both formats take the top two.

    >>> places_through(Format(8, 4, 2)), places_through(Format(16, 8, 2))
    (2, 2)
    """
    first_round: int = 2 ** len(fmt.knockout_stages)
    places, rest = divmod(first_round, fmt.groups)
    if rest:  # best third places and the like: would depend on other groups; no format has them
        raise ValueError(f"{first_round} knockout places are not shared evenly among {fmt.groups} groups")
    return places


def _points(outcome: MatchOutcome) -> tuple[int, int]:
    if outcome is MatchOutcome.HOME:
        return WIN_POINTS, LOSS_POINTS
    if outcome is MatchOutcome.AWAY:
        return LOSS_POINTS, WIN_POINTS
    return DRAW_POINTS, DRAW_POINTS


def _where(team: str, points: dict[str, int], places: int) -> Completion:
    mine = points[team]
    above = sum(1 for t, p in points.items() if t != team and p > mine)
    level = sum(1 for t, p in points.items() if t != team and p == mine)
    if above + level < places:
        return Completion.THROUGH
    if above >= places:
        return Completion.OUT
    return Completion.TIE_BREAKS


def group_outlook(
    teams: Sequence[str],
    results: Sequence[GroupResult],
    remaining: Sequence[tuple[str, str]],
    team: str,
    places: int = 2,
) -> Outlook:
    """The outlook of ``team`` before its next match, the first of ``remaining`` it plays.

    Args:
        teams: The group's teams.
        results: Its matches played so far (checked as :func:`group_table` checks them).
        remaining: Its matches still to play, (home, away), the team's next one among them.
        team: The team.
        places: How many places go through (see :func:`places_through`).

    Raises:
        ValueError: ``team`` has no match left, a remaining match names a team not in the group
            or was already played, or there are more than six matches left.

    Fiji on 4 league points, Kenya and Samoa 2, Japan 0, one round to play, Fiji v Kenya and Japan
    v Samoa: a win or a draw puts Fiji through; after a loss, Fiji are through unless Samoa beat
    Japan, which leaves three teams on 4 points for two places.

    >>> from sevens.rules.lines import Line
    >>> W, L = Line(tries=1), Line()
    >>> played = [GroupResult("fiji", "samoa", W, L), GroupResult("kenya", "japan", W, L),
    ...           GroupResult("fiji", "japan", W, L), GroupResult("samoa", "kenya", W, L)]
    >>> o = group_outlook(["fiji", "japan", "kenya", "samoa"], played,
    ...                   [("fiji", "kenya"), ("japan", "samoa")], "fiji")
    >>> [a.verdict.value for a in o.after]
    ['through', 'through', 'depends']
    >>> describe_after(o.after[2])
    'through unless samoa beat japan, then left to tie-breaks'
    """
    table = group_table(teams, results, None)  # checks the teams and the results
    points = {row.team: row.league_points for row in table.rows}
    played = {frozenset((r.home, r.away)) for r in results}
    for home, away in remaining:
        for side in (home, away):
            if side not in points:
                raise ValueError(f"remaining match {home} v {away} names {side!r}, not in the group")
        if frozenset((home, away)) in played:
            raise ValueError(f"{home} v {away} was already played; R7: every pair meets once")
    if len(remaining) > 6:
        raise ValueError(f"a group of four has at most 6 matches left, not {len(remaining)}")
    own = next((m for m in remaining if team in m), None)
    if own is None:
        raise ValueError(f"{team!r} has no group match left")
    rest = [m for m in remaining if m != own]
    opponent = own[1] if own[0] == team else own[0]
    at_home = own[0] == team
    after: list[AfterResult] = []
    for result in _OWN_RESULTS:
        outcome = {
            "win": MatchOutcome.HOME if at_home else MatchOutcome.AWAY,
            "draw": MatchOutcome.DRAW,
            "loss": MatchOutcome.AWAY if at_home else MatchOutcome.HOME,
        }[result]
        base = dict(points)
        gained = _points(outcome)
        base[own[0]] += gained[0]
        base[own[1]] += gained[1]
        found: list[tuple[tuple[MatchOutcome, ...], Completion]] = []
        for outcomes in product(MatchOutcome, repeat=len(rest)):
            now = dict(base)
            for (h, a), o in zip(rest, outcomes, strict=True):
                ph, pa = _points(o)
                now[h] += ph
                now[a] += pa
            found.append((outcomes, _where(team, now, places)))
        after.append(_sum_up(result, rest, found))
    return Outlook(team, opponent, places, (after[0], after[1], after[2]))


def _sum_up(
    result: str,
    rest: Sequence[tuple[str, str]],
    found: Sequence[tuple[tuple[MatchOutcome, ...], Completion]],
) -> AfterResult:
    possible = frozenset(c for _, c in found)
    if len(possible) == 1:
        return AfterResult(result, Verdict(next(iter(possible)).value), possible)
    # One match whose result alone decides: every outcome of it gives a single completion. Failing
    # that, the match with the most outcomes that settle it on their own ("through if Fiji beat
    # Kenya; otherwise it depends"), the others left open (None).
    best: tuple[int, tuple[str, str], tuple[tuple[MatchOutcome, Completion | None], ...]] | None = None
    for i, match in enumerate(rest):
        each: dict[MatchOutcome, set[Completion]] = {o: set() for o in MatchOutcome}
        for outcomes, where in found:
            each[outcomes[i]].add(where)
        by = tuple((o, next(iter(each[o])) if len(each[o]) == 1 else None) for o in MatchOutcome)
        settled = sum(1 for _, where in by if where is not None)
        if settled == len(by):
            return AfterResult(result, Verdict.DEPENDS, possible, match, by)
        if settled and (best is None or settled > best[0]):
            best = (settled, match, by)
    if best is not None:
        return AfterResult(result, Verdict.DEPENDS, possible, best[1], best[2])
    return AfterResult(result, Verdict.DEPENDS, possible)


def game_outlook(game: Game, team: str) -> Outlook | None:
    """The outlook of ``team`` before its next group match in ``game``, from the resolved turns
    only; ``None`` outside the group stage."""
    n = game.turn_number
    if n is None or game.stage is not Stage.GROUP:
        return None
    info = game.setup.team(team)
    remaining = [
        (f.home, f.away)
        for turn in range(n, GROUP_TURNS + 1)
        for f in group_fixtures(game.setup, turn)
        if f.group == info.group
    ]
    return group_outlook(
        game.setup.group(info.group),
        game.group_results(info.group),
        [(str(h), str(a)) for h, a in remaining],
        info.id,
        places_through(game.format),
    )


_WORDS = {
    Completion.THROUGH: "through",
    Completion.OUT: "out",
    Completion.TIE_BREAKS: "left to tie-breaks",  # level on league points for a place: R8's later steps
}


def _condition(match: tuple[str, str], outcomes: Sequence[MatchOutcome], name: Callable[[str], str]) -> str:
    h, a = name(match[0]), name(match[1])
    said = set(outcomes)
    if said == {MatchOutcome.HOME}:
        return f"{h} beat {a}"
    if said == {MatchOutcome.AWAY}:
        return f"{a} beat {h}"
    if said == {MatchOutcome.DRAW}:
        return f"{h} and {a} draw"
    if said == {MatchOutcome.HOME, MatchOutcome.DRAW}:
        return f"{a} do not beat {h}"
    if said == {MatchOutcome.AWAY, MatchOutcome.DRAW}:
        return f"{h} do not beat {a}"
    return f"{h} v {a} is not drawn"


def describe_after(after: AfterResult, name: Callable[[str], str] = str) -> str:
    """What one result leads to, in a few words ("through unless Japan beat Kenya, then out").

    >>> describe_after(AfterResult("win", Verdict.THROUGH, frozenset({Completion.THROUGH})))
    'through whatever else happens'
    >>> describe_after(AfterResult("loss", Verdict.DEPENDS, frozenset(Completion), None))
    'depends on other results'
    >>> describe_after(AfterResult("draw", Verdict.DEPENDS, frozenset({Completion.THROUGH, Completion.TIE_BREAKS})))
    'depends on other results, at worst on tie-breaks'
    """
    if after.verdict is Verdict.THROUGH:
        return "through whatever else happens"
    if after.verdict is Verdict.OUT:
        return "out whatever else happens"
    if after.verdict is Verdict.TIE_BREAKS:
        return "level on league points for a place whatever else happens, so tie-breaks (tries, points) decide"
    if after.decider is None:
        if Completion.OUT not in after.possible:
            return "depends on other results, at worst on tie-breaks"
        if Completion.THROUGH not in after.possible:
            return "depends on other results, at best on tie-breaks"
        return "depends on other results"
    groups: dict[Completion, list[MatchOutcome]] = {}
    open_ = False
    for outcome, where in after.by_outcome:
        if where is None:
            open_ = True
        else:
            groups.setdefault(where, []).append(outcome)
    if open_:
        settled = ", ".join(f"{_WORDS[w]} if {_condition(after.decider, o, name)}" for w, o in groups.items())
        return f"{settled}, otherwise it depends"
    if len(groups) == 2:
        (major, _), (minor, few) = sorted(groups.items(), key=lambda kv: -len(kv[1]))
        return f"{_WORDS[major]} unless {_condition(after.decider, few, name)}, then {_WORDS[minor]}"
    return ", ".join(f"{_WORDS[w]} if {_condition(after.decider, o, name)}" for w, o in groups.items())


def describe_outlook(outlook: Outlook, name: Callable[[str], str] = str) -> str:
    """The outlook in a sentence or two, for the manager before its order.

    >>> a = AfterResult("win", Verdict.THROUGH, frozenset({Completion.THROUGH}))
    >>> describe_outlook(Outlook("fiji", "kenya", 2, (a, a, a)))
    'fiji are through to the knockouts whatever happens (the top 2 of each group go through).'
    """
    who = name(outlook.team)
    if outlook.already_through:
        return f"{who} are through to the knockouts whatever happens (the top {outlook.places} of each group go through)."
    if outlook.already_out:
        return f"{who} are out whatever happens: they cannot finish in the group's top {outlook.places}."
    said: dict[str, list[str]] = {}  # results that lead to the same, said once: "a win or a draw: ..."
    for a in outlook.after:
        said.setdefault(describe_after(a, name), []).append(a.result)
    if len(said) == 1:
        parts = [f"whatever the result: {next(iter(said))}"]
    else:
        parts = [f"a {' or a '.join(results)}: {words}" for words, results in said.items()]
    return f"Top {outlook.places} go through. Against {name(outlook.opponent)}, " + "; ".join(parts) + "."
