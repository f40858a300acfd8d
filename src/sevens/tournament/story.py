"""A team's tournament, match by match: what the web's team page and the terminal's ``m`` both tell.

Derived from the resolved turns of a :class:`~sevens.tournament.game.Game` only, so an order of the
open turn cannot be in it (R13): its match in the open turn is the fixture and the opponent, no
more. The web and the terminal format the same :class:`TeamStory`, each in its own layout.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sevens.rules import WIN_BONUS
from sevens.tournament.fixtures import Fixture
from sevens.tournament.formats import Stage
from sevens.tournament.game import Game, MatchResult, MatchSide
from sevens.tournament.progress import TeamProgress, describe_progress, team_progress
from sevens.tournament.setup import TeamId

__all__ = ["StoryMatch", "TeamStory", "UpNext", "order_note", "team_story"]


def order_note(side: MatchSide, seat: str | None = None) -> str:
    """Who gave a resolved order when the team's player did not, in the words the match report,
    the team page and the terminal all use (R13): ``seat`` is how the team's seat stood that turn
    (``unclaimed`` or ``released``, or None). "" for an order its player sent.

    >>> from sevens.rules import Dice, Line, Order
    >>> side = MatchSide(TeamId("fiji"), Order(6, 3), True, "even", Dice(), Line(), 100, 91)
    >>> order_note(side), order_note(side, "unclaimed"), order_note(side, "released")
    ('missed: autopilot even (R13)', 'bot even (seat not claimed)', 'bot even (seat handed to the bots)')
    """
    if side.missed and seat == "released":
        return f"bot {side.autopilot} (seat handed to the bots)"
    if side.missed and seat == "unclaimed":
        return f"bot {side.autopilot} (seat not claimed)"
    if side.missed:
        return f"missed: autopilot {side.autopilot} (R13)" if side.autopilot else "missed: autopilot (R13)"
    return f"bot {side.autopilot}" if side.autopilot else ""


@dataclass(frozen=True, slots=True)
class StoryMatch:
    """One resolved match of the team: ``own`` its side, ``other`` its opponent's, both orders
    public now that the turn is resolved (R13); ``summary`` the score and what decided it, told to
    the team (:meth:`~sevens.tournament.game.MatchResult.summary_for`)."""

    turn: int
    stage: Stage
    match: MatchResult
    own: MatchSide
    other: MatchSide
    summary: str

    @property
    def outcome(self) -> str:
        """``won``, ``lost`` or ``drew``."""
        winner = self.match.winner
        return "drew" if winner is None else "won" if winner == self.own.team else "lost"

    @property
    def score(self) -> str:
        """The summary after the outcome: a draw's "a draw" goes, as "drew" says it already."""
        return self.summary.removesuffix(", a draw") if self.outcome == "drew" else self.summary

    @property
    def result(self) -> str:
        """How it ended for the team: "won 19-12", "lost 14-14, Fiji won on tries 2-1", "drew 0-0"."""
        return f"{self.outcome} {self.score}"

    @property
    def spent(self) -> int:
        """SCRUM the team's order spent, win or lose (R4)."""
        return self.own.order.total

    @property
    def bonus(self) -> int:
        """SCRUM the team gained by winning (R4): its after is its before, less ``spent``, plus this."""
        return WIN_BONUS if self.outcome == "won" else 0


@dataclass(frozen=True, slots=True)
class UpNext:
    """The team's match in the open turn: whom it plays, never an order (R13)."""

    turn: int
    stage: Stage
    fixture: Fixture
    opponent: TeamId


@dataclass(frozen=True, slots=True)
class TeamStory:
    """One team's tournament so far: its resolved matches in order, how far it has gone (in
    ``progress``, said in ``said``), its SCRUM now and its match in the open turn, if any."""

    team: TeamId
    group: str
    matches: tuple[StoryMatch, ...]
    progress: TeamProgress
    said: str
    scrum: int
    next_match: UpNext | None


def team_story(game: Game, team: str, name: Callable[[str], str] = str, *, ended: bool = False) -> TeamStory:
    """``team``'s story in ``game``; ``name`` gives a team's display name, ``ended`` says the game
    was stopped before its final (then no match is to play).

    Raises:
        KeyError: no such team in the game.
    """
    info = game.setup.team(team)
    matches = []
    for turn in game.turns:
        for m in turn.matches:
            if info.id in (m.home.team, m.away.team):
                own, other = (m.home, m.away) if m.home.team == info.id else (m.away, m.home)
                matches.append(StoryMatch(turn.number, turn.stage, m, own, other, m.summary_for(info.id, name)))
    progress = team_progress(game, info.id)
    next_match = None
    if not ended and game.turn_number is not None and game.stage is not None:
        fixture = next((f for f in game.fixtures() if info.id in f.teams), None)
        if fixture is not None:
            opponent = fixture.away if fixture.home == info.id else fixture.home
            next_match = UpNext(game.turn_number, game.stage, fixture, opponent)
    return TeamStory(
        info.id,
        info.group,
        tuple(matches),
        progress,
        describe_progress(progress, name, ended=ended),
        game.scrum(info.id),
        next_match,
    )
