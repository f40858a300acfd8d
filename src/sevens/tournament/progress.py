"""How far a team has gone: its group place, the knockout stages it played, who put it out.

A manager whose team is out wants to know where and to whom; one whose game is over, how far each
of their teams went. Everything here is derived from the turns played (no new facts), so a page,
the API and the terminal can all say it the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sevens.tournament.formats import GROUP_TURNS, Stage
from sevens.tournament.game import Game, MatchResult
from sevens.tournament.setup import TeamId

__all__ = ["Placing", "TeamProgress", "describe_progress", "final_standing", "ordinal", "team_progress"]


@dataclass(frozen=True, slots=True)
class TeamProgress:
    """Where one team stands in a game.

    Attributes:
        team: The team.
        group: Its group's letter.
        group_place: Its place in the group table (1 first): final once ``groups_over``, else as
            the table stands after ``group_played`` matches, shared with any team still level.
        group_played: Group matches it has played.
        groups_over: True once the group stage has been played (R8's final tables are drawn).
        knockout: Its knockout matches so far, in order.
        out: True once it can play no more: not through after the groups, or beaten in a knockout.
        champion: True for the winner of the final.
        next_stage: The stage of its next match, if it has one to play.
    """

    team: TeamId
    group: str
    group_place: int
    group_played: int
    groups_over: bool
    knockout: tuple[MatchResult, ...]
    out: bool
    champion: bool
    next_stage: Stage | None = None

    @property
    def beaten_in(self) -> MatchResult | None:
        """The knockout match it lost, if any."""
        last = self.knockout[-1] if self.knockout else None
        return last if last is not None and last.loser == self.team else None


def team_progress(game: Game, team: str) -> TeamProgress:
    """How far ``team`` has gone in ``game``.

    Raises:
        KeyError: no such team in the game.
    """
    info = game.setup.team(team)
    own = [(n, m) for n, turn in enumerate(game.turns) for m in turn.matches if info.id in (m.home.team, m.away.team)]
    played = sum(1 for n, _ in own if n < GROUP_TURNS)
    knockout = tuple(m for n, m in own if n >= GROUP_TURNS)
    # The table's own position: teams level in an unfinished group share it (R8).
    place = game.tables()[info.group].row(info.id).position
    groups_over = len(game.turns) >= GROUP_TURNS
    plays_next = info.id in game.teams_in_play()
    if knockout:
        out = knockout[-1].loser == info.id
    elif len(game.turns) > GROUP_TURNS:
        out = True  # the knockouts began without it
    else:
        out = groups_over and not plays_next
    champion = game.finished and game.champion == info.id
    next_stage = game.stage if plays_next else None
    return TeamProgress(info.id, info.group, place, played, groups_over, knockout, out, champion, next_stage)


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``...

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def describe_progress(progress: TeamProgress, name: Callable[[str], str] = str, *, ended: bool = False) -> str:
    """How far the team has gone, in one sentence for its manager ("Out in the semi-final: lost
    to Fiji, 19-12."). ``name`` gives a team's display name; ``ended`` says the game was stopped
    before its final, so that a team still in play is not told it plays on.

    >>> from sevens.tournament.setup import TeamId
    >>> describe_progress(TeamProgress(TeamId("fiji"), "A", 3, 3, True, (), True, False))
    'Out after the groups: 3rd in group A.'
    >>> describe_progress(TeamProgress(TeamId("fiji"), "A", 2, 2, False, (), False, False))
    'Group A: 2nd after 2 of 3 matches.'
    >>> describe_progress(TeamProgress(TeamId("fiji"), "A", 1, 3, True, (), False, False), ended=True)
    'Still in play when the game was ended: 1st in group A.'
    """
    place = ordinal(progress.group_place)
    if not progress.groups_over:
        place += f" after {progress.group_played} of {GROUP_TURNS} matches"
    group = f"{place} in group {progress.group}"
    beaten = progress.beaten_in
    if progress.champion:
        final = progress.knockout[-1]
        assert final.loser is not None  # a knockout match always has a loser (R9, R10)
        return f"Champion: won the final against {name(final.loser)}, {final.summary}."
    if beaten is not None:
        assert beaten.winner is not None
        winner = name(beaten.winner)
        summary = beaten.summary_for(progress.team, name)
        if beaten.fixture.stage is Stage.FINAL:
            return f"Runner-up: lost the final to {winner}, {summary}."
        return f"Out in the {beaten.fixture.stage}: lost to {winner}, {summary}."
    if progress.out:
        return f"Out after the groups: {group}."
    if ended and progress.group_played == 0:
        return "The game was ended before its first match."
    if ended:
        return f"Still in play when the game was ended: {group}."
    if not progress.groups_over:
        if progress.group_played == 0:
            return f"Group {progress.group}: no match played yet."
        return f"Group {progress.group}: {place}."
    through = f"Through to the {progress.next_stage}" if progress.next_stage is not None else "Through"
    if progress.knockout:
        won = progress.knockout[-1]
        assert won.loser is not None
        return f"{through}: beat {name(won.loser)} in the {won.fixture.stage}, {won.summary}."
    return f"{through}: {group}."


@dataclass(frozen=True, slots=True)
class Placing:
    """One team's place in a finished game's final standing.

    Attributes:
        first: The best place it shares (1 for the champion).
        last: The worst place it shares: teams out at the same stage share the places between.
        team: The team.
    """

    first: int
    last: int
    team: TeamId

    @property
    def place(self) -> str:
        """``1``, or ``3-4`` for a place shared by teams out at the same stage."""
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


def final_standing(game: Game) -> tuple[Placing, ...]:
    """Every team's place once the final is played: the champion, the runner-up, then the losers of
    each knockout stage from the last back (sharing the places of that stage: the semi-final losers
    3-4), then the teams out after the groups by their group place (every group's third, then every
    fourth), each band in the order of their groups. Nothing before the final (an ended game has
    no final standing).

    Only the knockouts and the group tables (R8) rank teams: no new tie-break is made up between
    teams out at the same stage, so they share their places.
    """
    if not game.finished or game.champion is None:
        return ()
    groups = {team.id: team.group for team in game.setup.teams}
    placings: list[Placing] = []
    seen: set[TeamId] = set()

    def band(teams: list[TeamId]) -> None:
        first = len(placings) + 1
        for team in sorted(teams, key=lambda t: groups[t]):
            placings.append(Placing(first, first + len(teams) - 1, team))
            seen.add(team)

    band([game.champion])
    for turn in reversed(game.turns[GROUP_TURNS:]):
        band([m.loser for m in turn.matches if m.loser is not None])
    tables = game.tables()
    places = sorted({row.position for table in tables.values() for row in table.rows})
    for position in places:
        rows = (row for table in tables.values() for row in table.rows)
        band([TeamId(row.team) for row in rows if row.position == position and row.team not in seen])
    return tuple(placings)
