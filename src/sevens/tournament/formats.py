"""Tournament formats: how many teams, how many players, how many teams each player manages.

R6 fixes the two shapes of a tournament: 8 teams in 2 groups (5 turns) or 16 teams in 4 groups
(6 turns). R12 says who manages what: 4 to 16 players, each manages the same number of teams, no
player has two teams in one group, and with fewer than eight players each manages at least two.
Teams nobody manages are house teams, played by a bot.

A *legal arrangement* is a :class:`Format` that satisfies all of that. Two facts make the check
simple: a player's teams must sit in different groups, so a player manages at most one team per
group; and any number of players with ``k <= groups`` teams each and ``players * k <= teams``
can be placed (fill the groups cyclically, see :mod:`sevens.tournament.setup`), so those two
inequalities plus R12's minimum of two teams below eight players are all there is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

__all__ = [
    "GROUP_SIZE",
    "GROUP_TURNS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "TEAM_COUNTS",
    "Format",
    "Stage",
    "check_format",
    "default_format",
    "format_asked",
    "legal_formats",
    "preferred",
]

MIN_PLAYERS = 4
MAX_PLAYERS = 16
TEAM_COUNTS = (8, 16)
GROUP_SIZE = 4
GROUP_TURNS = 3
# R12: "With fewer than eight players, each player manages at least two teams".
_SHARED_BELOW = 8


class Stage(StrEnum):
    """The stage a turn belongs to, as written in the game record."""

    GROUP = "group"
    QUARTER_FINAL = "quarter-final"
    SEMI_FINAL = "semi-final"
    FINAL = "final"

    @property
    def knockout(self) -> bool:
        """True for every stage after the groups."""
        return self is not Stage.GROUP


@dataclass(frozen=True, slots=True)
class Format:
    """The shape of one game: team count, player count, teams each player manages (R6, R12).

    Building a ``Format`` only checks that the three numbers are whole numbers; whether the
    arrangement is legal is :func:`check_format`'s job, so an organiser's override can be built
    and then explained when it is refused.

    >>> fmt = Format(teams=16, players=5, teams_per_player=3)
    >>> fmt.groups, fmt.turns, fmt.human_teams, fmt.house_teams
    (4, 6, 15, 1)
    >>> [str(stage) for stage in Format(8, 4, 2).stages]
    ['group', 'group', 'group', 'semi-final', 'final']
    """

    teams: int
    players: int
    teams_per_player: int

    def __post_init__(self) -> None:
        for name in ("teams", "players", "teams_per_player"):
            value = getattr(self, name)
            if type(value) is not int:
                raise ValueError(f"a format's {name} must be a whole number, got {value!r}")

    @property
    def groups(self) -> int:
        """Number of groups of four (2 or 4, R6)."""
        return self.teams // GROUP_SIZE

    @property
    def group_letters(self) -> tuple[str, ...]:
        """The groups' letters: ``("A", "B")`` or ``("A", "B", "C", "D")``."""
        return tuple("ABCD"[: self.groups])

    @property
    def knockout_stages(self) -> tuple[Stage, ...]:
        """The knockout rounds in order (R6)."""
        if self.teams == 16:
            return (Stage.QUARTER_FINAL, Stage.SEMI_FINAL, Stage.FINAL)
        return (Stage.SEMI_FINAL, Stage.FINAL)

    @property
    def stages(self) -> tuple[Stage, ...]:
        """The stage of every turn, in order: three group rounds, then the knockouts (R6, R7)."""
        return (Stage.GROUP,) * GROUP_TURNS + self.knockout_stages

    @property
    def turns(self) -> int:
        """Number of turns: 5 with 8 teams, 6 with 16 (R6)."""
        return len(self.stages)

    @property
    def human_teams(self) -> int:
        """Teams managed by players."""
        return self.players * self.teams_per_player

    @property
    def house_teams(self) -> int:
        """Teams nobody manages, played by a bot (R12)."""
        return self.teams - self.human_teams

    def to_dict(self) -> dict[str, int | list[str]]:
        """The format as written in the game record (derived counts included for readers).

        >>> Format(8, 4, 2).to_dict()
        {'teams': 8, 'groups': 2, 'turns': 5, 'players': 4, 'teams_per_player': 2, 'house_teams': 0,
         'stages': ['group', 'group', 'group', 'semi-final', 'final']}
        """
        return {
            "teams": self.teams,
            "groups": self.groups,
            "turns": self.turns,
            "players": self.players,
            "teams_per_player": self.teams_per_player,
            "house_teams": self.house_teams,
            "stages": [str(stage) for stage in self.stages],
        }


def _check_players(players: object) -> int:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"R12: Sevens is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}")
    return players


def _problem(fmt: Format) -> str | None:
    """Why ``fmt`` is not a legal arrangement, or ``None`` if it is."""
    if fmt.teams not in TEAM_COUNTS:
        return f"R6: a game has 8 teams (2 groups) or 16 teams (4 groups), not {fmt.teams}"
    if not MIN_PLAYERS <= fmt.players <= MAX_PLAYERS:
        return f"R12: Sevens is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {fmt.players}"
    k = fmt.teams_per_player
    if k < 1:
        return f"R12: each player manages at least one team, not {k}"
    if fmt.players < _SHARED_BELOW and k < 2:
        return f"R12: with fewer than {_SHARED_BELOW} players each player manages at least two teams, not {k}"
    if k > fmt.groups:
        return (
            f"R12: no player may have two teams in one group, so with {fmt.groups} groups a player "
            f"manages at most {fmt.groups} teams, not {k}"
        )
    if fmt.human_teams > fmt.teams:
        return (
            f"R12: {fmt.players} players with {k} team{'' if k == 1 else 's'} each need {fmt.human_teams} teams, "
            f"but the game has only {fmt.teams}"
        )
    return None


def legal_formats(players: int) -> list[Format]:
    """Every legal arrangement for ``players`` players, smaller game first, then fewer teams each (R12).

    Raises:
        ValueError: ``players`` is outside 4..16.

    >>> [(f.teams, f.teams_per_player) for f in legal_formats(4)]
    [(8, 2), (16, 2), (16, 3), (16, 4)]
    >>> [(f.teams, f.teams_per_player) for f in legal_formats(9)]
    [(16, 1)]
    """
    _check_players(players)
    found: list[Format] = []
    for teams in TEAM_COUNTS:
        for k in range(1, teams // GROUP_SIZE + 1):
            fmt = Format(teams=teams, players=players, teams_per_player=k)
            if _problem(fmt) is None:
                found.append(fmt)
    return found


def default_format(players: int) -> Format:
    """R12's default: the legal arrangement with the largest share of human-managed teams,
    the smaller game on a tie.

    >>> default_format(5)
    Format(teams=16, players=5, teams_per_player=3)
    >>> default_format(8)
    Format(teams=8, players=8, teams_per_player=1)
    """
    return preferred(legal_formats(players))


def format_asked(players: int, *, teams: int | None = None, teams_per_player: int | None = None) -> Format:
    """The arrangement asked for with ``teams``, ``teams_per_player``, both or neither: both are
    taken as given (:func:`check_format` judges them), neither is R12's default, and one alone
    is completed as R12 completes the default, among the legal arrangements with it.

    >>> format_asked(4, teams=16)
    Format(teams=16, players=4, teams_per_player=4)
    >>> format_asked(6, teams_per_player=2)
    Format(teams=16, players=6, teams_per_player=2)
    >>> format_asked(9, teams=8)
    Traceback (most recent call last):
    ...
    ValueError: R12: no legal arrangement of 9 players has 8 teams; legal for 9 players: 16 teams with 1 each

    Raises:
        ValueError: ``players`` is outside 4..16, or no legal arrangement has the one number given.
    """
    if teams is not None and teams_per_player is not None:
        return Format(teams=teams, players=players, teams_per_player=teams_per_player)
    legal = legal_formats(players)
    found = [f for f in legal if teams in (None, f.teams) and teams_per_player in (None, f.teams_per_player)]
    if found:
        return preferred(found)
    options = ", ".join(f"{f.teams} teams with {f.teams_per_player} each" for f in legal)
    if teams is not None and teams not in TEAM_COUNTS:
        problem = f"R6: a game has 8 teams (2 groups) or 16 teams (4 groups), not {teams}"
    else:
        given = f"{teams} teams" if teams is not None else f"{teams_per_player} team{'' if teams_per_player == 1 else 's'} each"
        problem = f"R12: no legal arrangement of {players} players has {given}"
    raise ValueError(f"{problem}; legal for {players} players: {options}")


def preferred(formats: Iterable[Format]) -> Format:
    """The arrangement R12 prefers among ``formats``: the largest share of teams managed by
    people, the smaller game on a tie.

    >>> preferred(f for f in legal_formats(4) if f.teams == 16)
    Format(teams=16, players=4, teams_per_player=4)

    Raises:
        ValueError: ``formats`` is empty.
    """
    return max(formats, key=lambda f: (Fraction(f.human_teams, f.teams), -f.teams))


def check_format(fmt: Format) -> None:
    """Check an arrangement (the default or an organiser's choice) against R6 and R12.

    Raises:
        ValueError: naming the rule broken and listing the legal arrangements for that many players.

    >>> check_format(Format(teams=16, players=6, teams_per_player=2))
    >>> check_format(Format(teams=8, players=5, teams_per_player=2))
    Traceback (most recent call last):
    ...
    ValueError: R12: 5 players with 2 teams each need 10 teams, but the game has only 8; legal for 5 players: 16 teams with 2 each, 16 teams with 3 each
    """
    if not isinstance(fmt, Format):
        raise ValueError(f"expected a Format, got {type(fmt).__name__}")
    problem = _problem(fmt)
    if problem is None:
        return
    if MIN_PLAYERS <= fmt.players <= MAX_PLAYERS:
        options = ", ".join(
            f"{f.teams} teams with {f.teams_per_player} each" for f in legal_formats(fmt.players)
        )
        problem += f"; legal for {fmt.players} players: {options}"
    raise ValueError(problem)
