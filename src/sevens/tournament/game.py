"""The game as a pure state machine: set-up, three group rounds, the knockouts, a champion.

A :class:`Game` is a value: the set-up and the turns resolved so far. :func:`resolve_turn`
returns a new game one turn further on. Nothing here reads a clock, a file or a global random
source; dice come from the game's secret seed through :class:`sevens.rules.FairDice` (R14).

Resolving turn ``n`` (R14):

1. Every team still in plays exactly one match (R6); each has a :class:`TurnOrder`, its own or
   its autopilot's (R13). Orders are checked against the team's SCRUM (R3).
2. ``digest = orders_digest(seed_sha256, n, {team: order})`` over all the turn's orders.
3. Each match ``m`` throws the home order on ``FairDice(seed, digest, f"{m}/home")`` and the away
   order on ``FairDice(seed, digest, f"{m}/away")``: FORCE dice first, then each FLAIR option
   (:func:`sevens.rules.play_order`).
4. Group matches: the higher score wins, level scores draw. Knockout matches: count-back, group
   record, then lots on ``FairDice(seed, digest, f"t{n}/lots/{m}")`` (R9, R10).
5. SCRUM: every order is spent; a winner gains 10 (R4).
6. After the third group round the final group tables are drawn up (R8), lots for group ``X``
   on ``FairDice(seed, digest, f"t3/lots/group-{X}")``, and the first knockout round is paired
   from them (R11).
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol

from sevens.rules import (
    STARTING_SCRUM,
    DecidedBy,
    Dice,
    DiceSource,
    FairDice,
    Line,
    Order,
    OrderError,
    Side,
    orders_digest,
    parse_seed,
    play_order,
    scrum_after,
    seed_commitment,
    validate_order,
)
from sevens.tournament.fixtures import (
    Fixture,
    first_knockout_pairs,
    group_fixtures,
    knockout_fixtures,
    next_knockout_pairs,
)
from sevens.tournament.formats import GROUP_TURNS, Format, Stage
from sevens.tournament.knockout import Decision, decide_group, decide_knockout, describe
from sevens.tournament.lots import LotsDraw
from sevens.tournament.quoting import quoted
from sevens.tournament.setup import GameSetup, TeamId
from sevens.tournament.standings import GroupResult, GroupTable, group_table

__all__ = [
    "Autopilot",
    "Game",
    "ManagerView",
    "MatchResult",
    "MatchSide",
    "OrderRefused",
    "ResolvedTurn",
    "TurnOrder",
    "autopilot_orders",
    "autopilot_rng",
    "check_order",
    "group_lots_stream",
    "knockout_lots_stream",
    "new_game",
    "play_turn",
    "resolve_turn",
]


def group_lots_stream(turn: int, letter: str) -> str:
    """The dice stream for group ``letter``'s lots, drawn in the last group turn (R10).

    >>> group_lots_stream(3, "A")
    't3/lots/group-A'
    """
    return f"t{turn}/lots/group-{letter}"


def knockout_lots_stream(turn: int, match: str) -> str:
    """The dice stream for lots in knockout match ``match`` (R9, R10).

    >>> knockout_lots_stream(5, "t5-m1")
    't5/lots/t5-m1'
    """
    return f"t{turn}/lots/{match}"


class OrderRefused(ValueError):
    """An order the game cannot take: wrong game, turn or team, an eliminated team, or an order
    that breaks R3. ``rule`` names the rule broken, if one is; ``field`` the part of the order
    that is wrong (``"force"``, ``"flair"``), if it is one part (:class:`~sevens.rules.OrderError`);
    ``team`` the team whose order broke it, where one did (so that a log can say whose, and why,
    without the message's numbers: R13)."""

    def __init__(
        self, message: str, rule: str | None = None, *, field: str | None = None, team: str | None = None
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.field = field
        self.team = team


@dataclass(frozen=True, slots=True)
class TurnOrder:
    """One team's order for one turn (R3, R13).

    ``missed`` is true when the team's manager sent nothing and its autopilot played (R13);
    ``autopilot`` names the bot that chose the order, if a bot did (always for house teams,
    which are never "missed": nobody was due to send them an order).
    """

    team: TeamId
    order: Order
    missed: bool = False
    autopilot: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.order, Order):
            raise OrderRefused(
                f"team {self.team!r}: an order must be an Order, got {type(self.order).__name__}"
            )
        if type(self.missed) is not bool:
            raise ValueError(f"team {self.team!r}: missed must be true or false, got {self.missed!r}")


@dataclass(frozen=True, slots=True)
class MatchSide:
    """What one team did in one match: order, every die, its line, SCRUM before and after (R1-R4)."""

    team: TeamId
    order: Order
    missed: bool
    autopilot: str | None
    dice: Dice
    line: Line
    scrum_before: int
    scrum_after: int

    @property
    def turn_order(self) -> TurnOrder:
        """The order as it was given."""
        return TurnOrder(self.team, self.order, self.missed, self.autopilot)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A played match: the fixture, both sides, the winner (``None`` for a group draw), what
    decided it, any lots drawn, and a sentence saying so ("14-14, won on tries 2-1")."""

    fixture: Fixture
    home: MatchSide
    away: MatchSide
    winner: TeamId | None
    decided_by: DecidedBy | None
    summary: str
    lots: LotsDraw | None = None

    def side(self, team: str) -> MatchSide:
        """The side of ``team`` in this match."""
        if team == self.home.team:
            return self.home
        if team == self.away.team:
            return self.away
        raise KeyError(f"{team!r} did not play {self.fixture.id}")

    def summary_for(self, team: str, name: Callable[[str], str] = str) -> str:
        """The summary told to ``team``: its "won on tries 2-1" is the winner's, so told to the
        loser it names the winner (``name`` gives a team's display name).

        >>> from sevens.rules import Dice, Line, Order
        >>> side = lambda t: MatchSide(TeamId(t), Order(0, 0), False, None, Dice(), Line(2), 100, 100)
        >>> final = MatchResult(Fixture("t5-m1", 5, TeamId("fiji"), TeamId("samoa"), Stage.FINAL),
        ...                     side("fiji"), side("samoa"), TeamId("fiji"), None, "10-10, won on conversions 1-0")
        >>> final.summary_for("fiji"), final.summary_for("samoa", str.title)
        ('10-10, won on conversions 1-0', '10-10, Fiji won on conversions 1-0')
        """
        if self.winner is None or self.winner == team:
            return self.summary
        return self.summary.replace(", won ", f", {name(self.winner)} won ", 1)

    @property
    def loser(self) -> TeamId | None:
        """The team that lost, if any."""
        if self.winner is None:
            return None
        return self.away.team if self.winner == self.home.team else self.home.team


@dataclass(frozen=True, slots=True)
class ResolvedTurn:
    """A resolved turn: number, stage, the digest its dice came from, its matches; after the last
    group round also the final group tables (with any lots they drew)."""

    number: int
    stage: Stage
    orders_digest: str
    matches: tuple[MatchResult, ...]
    tables: tuple[GroupTable, ...] = ()

    @property
    def orders(self) -> dict[TeamId, TurnOrder]:
        """Every order of the turn, public once resolved (R13)."""
        out: dict[TeamId, TurnOrder] = {}
        for match in self.matches:
            for side in (match.home, match.away):
                out[side.team] = side.turn_order
        return out

    @property
    def lots(self) -> tuple[tuple[str, LotsDraw], ...]:
        """Every drawing of lots in the turn with its dice stream: knockout matches, then groups."""
        found = [
            (knockout_lots_stream(self.number, m.fixture.id), m.lots)
            for m in self.matches
            if m.lots is not None
        ]
        for table in self.tables:
            letter = table.what.rsplit(" ", 1)[-1]
            found.extend((group_lots_stream(self.number, letter), draw) for draw in table.lots)
        return tuple(found)


@dataclass(frozen=True, slots=True)
class ManagerView:
    """What a team's manager (or its bot) may see before sending an order.

    Attributes:
        game_id: The game's id (its seed commitment).
        team: The team.
        group: Its group letter.
        format: The game's format.
        turn: The turn to be resolved next (``None`` when the game is over).
        stage: That turn's stage.
        scrum: The team's SCRUM now (R4).
        in_play: Whether the team plays next turn (false once eliminated or finished).
        fixture: Its next match, if any.
        opponent: Its next opponent, if any.
        opponent_scrum: The opponent's SCRUM (public: every order is, once resolved).
        turns_left: Matches the team plays if it keeps winning, this one included.
        table: Its group's table as it stands.
        history: Every resolved turn (public, R13).
    """

    game_id: str
    team: TeamId
    group: str
    format: Format
    turn: int | None
    stage: Stage | None
    scrum: int
    in_play: bool
    fixture: Fixture | None
    opponent: TeamId | None
    opponent_scrum: int | None
    turns_left: int
    table: GroupTable
    history: tuple[ResolvedTurn, ...] = ()

    @property
    def stages_left(self) -> tuple[Stage, ...]:
        """The stages of the matches still possible, this one first (empty once out)."""
        if not self.in_play or self.turn is None:
            return ()
        return self.format.stages[self.turn - 1 :]

    @property
    def group_matches_left(self) -> int:
        """Group matches still to play, this one included."""
        return sum(stage is Stage.GROUP for stage in self.stages_left)


class Autopilot(Protocol):
    """A bot that can play a team (the same shape as :class:`sevens.bots.Strategy`)."""

    @property
    def name(self) -> str: ...

    def order(self, view: ManagerView, rng: random.Random) -> Order: ...


@dataclass(frozen=True, slots=True)
class Game:
    """A game: its set-up and the turns resolved so far. Every other fact is derived."""

    setup: GameSetup
    turns: tuple[ResolvedTurn, ...] = ()
    # tables() worked out once per value: a player's page asked for them once per team and twice
    # per odds question (nine times for two teams). Not part of the value: no init, compare or repr.
    _tables: dict[str, GroupTable] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def id(self) -> str:
        """The game's id: the published commitment to its seed (R14)."""
        return self.setup.seed_sha256

    @property
    def format(self) -> Format:
        """The game's format."""
        return self.setup.format

    @property
    def finished(self) -> bool:
        """True once the final is played."""
        return len(self.turns) >= self.setup.format.turns

    @property
    def turn_number(self) -> int | None:
        """The next turn to resolve (from 1), or ``None`` when the game is over."""
        return None if self.finished else len(self.turns) + 1

    @property
    def stage(self) -> Stage | None:
        """The next turn's stage, or ``None`` when the game is over."""
        return None if self.finished else self.setup.format.stages[len(self.turns)]

    @property
    def champion(self) -> TeamId | None:
        """The winner of the final, once played."""
        if not self.finished:
            return None
        return self.turns[-1].matches[0].winner

    @property
    def final_tables(self) -> dict[str, GroupTable] | None:
        """The group tables after the group stage (with lots if needed), or ``None`` before."""
        if len(self.turns) < GROUP_TURNS:
            return None
        return {table.what.rsplit(" ", 1)[-1]: table for table in self.turns[GROUP_TURNS - 1].tables}

    def matches(self) -> tuple[MatchResult, ...]:
        """Every match played so far, in order."""
        return tuple(match for turn in self.turns for match in turn.matches)

    def fixtures(self) -> tuple[Fixture, ...]:
        """The next turn's matches: the group round robin (R7) or the knockout bracket (R11)."""
        n = self.turn_number
        stage = self.stage
        if n is None or stage is None:
            return ()
        if stage is Stage.GROUP:
            return group_fixtures(self.setup, n)
        if n == GROUP_TURNS + 1:
            tables = self.final_tables
            assert tables is not None  # the group stage is over once a knockout turn is next
            pairs = first_knockout_pairs({letter: table.order for letter, table in tables.items()})
        else:
            winners = [m.winner for m in self.turns[-1].matches]
            pairs = next_knockout_pairs([w for w in winners if w is not None])
        return knockout_fixtures(n, stage, [(TeamId(h), TeamId(a)) for h, a in pairs])

    def teams_in_play(self) -> tuple[TeamId, ...]:
        """The teams that play next turn, in fixture order (home, away, ...)."""
        return tuple(team for fixture in self.fixtures() for team in fixture.teams)

    def scrum(self, team: str) -> int:
        """A team's SCRUM now: 100, less every order, plus 10 per win (R4)."""
        self.setup.team(team)
        for turn in reversed(self.turns):
            for match in turn.matches:
                if team in (match.home.team, match.away.team):
                    return match.side(team).scrum_after
        return STARTING_SCRUM

    def scrums(self) -> dict[TeamId, int]:
        """Every team's SCRUM now, in set-up order."""
        balances = {t.id: STARTING_SCRUM for t in self.setup.teams}
        for match in self.matches():
            for side in (match.home, match.away):
                balances[side.team] = side.scrum_after
        return balances

    def group_results(self, letter: str) -> tuple[GroupResult, ...]:
        """The group matches played so far in group ``letter``."""
        return tuple(
            GroupResult(m.home.team, m.away.team, m.home.line, m.away.line)
            for turn in self.turns[:GROUP_TURNS]
            for m in turn.matches
            if m.fixture.group == letter
        )

    def tables(self) -> dict[str, GroupTable]:
        """The group tables as they stand (R8); final, with any lots, once the groups are over."""
        if self._tables is None:
            tables = self.final_tables
            if tables is None:
                tables = {
                    letter: group_table(self.setup.group(letter), self.group_results(letter), None, f"group {letter}")
                    for letter in self.setup.format.group_letters
                }
            object.__setattr__(self, "_tables", tables)  # frozen: the one write, of a derived value
        assert self._tables is not None
        return dict(self._tables)  # a copy: a caller changing its dict cannot change the cached one

    def view_for(self, team: str) -> ManagerView:
        """What ``team``'s manager may see now: nothing secret, the team's own situation first."""
        return self.views_for([team])[TeamId(team)]

    def views_for(self, teams: Iterable[str]) -> dict[TeamId, ManagerView]:
        """:meth:`view_for` for several teams at once (fixtures, balances and tables built once)."""
        fixtures = self.fixtures()
        scrums = self.scrums()
        tables = self.tables()
        views: dict[TeamId, ManagerView] = {}
        for team in teams:
            info = self.setup.team(team)
            fixture = next((f for f in fixtures if team in f.teams), None)
            opponent = None if fixture is None else (fixture.away if fixture.home == team else fixture.home)
            views[info.id] = ManagerView(
                game_id=self.id,
                team=info.id,
                group=info.group,
                format=self.format,
                turn=self.turn_number,
                stage=self.stage,
                scrum=scrums[info.id],
                in_play=fixture is not None,
                fixture=fixture,
                opponent=opponent,
                opponent_scrum=None if opponent is None else scrums[opponent],
                turns_left=0 if fixture is None else self.format.turns - len(self.turns),
                table=tables[info.group],
                history=self.turns,
            )
        return views


def new_game(setup: GameSetup) -> Game:
    """A game before its first turn.

    >>> from sevens.tournament.formats import Format
    >>> from sevens.tournament.setup import Player, PlayerId, draw_game
    >>> people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    >>> game = new_game(draw_game(people, Format(8, 4, 2), seed_sha256="0" * 64, draw_seed=1))
    >>> game.turn_number, str(game.stage), len(game.fixtures())
    (1, 'group', 4)
    """
    if not isinstance(setup, GameSetup):
        raise ValueError(f"new_game needs a GameSetup, got {type(setup).__name__}")
    return Game(setup)


def check_order(
    game: Game,
    *,
    turn: int,
    team: str,
    force: object,
    flair: object,
    game_id: str | None = None,
) -> Order:
    """Check an order tagged with its game, turn and team, and return it (R3).

    Args:
        game: The game as it stands.
        turn: The turn the order is for; must be the turn to be resolved next.
        team: The team it is for; must be in play this turn.
        force: FORCE points.
        flair: FLAIR points (a multiple of 3).
        game_id: If given, must be this game's id (its seed commitment).

    Raises:
        OrderRefused: saying what is wrong and how to put it right.

    >>> from sevens.tournament.formats import Format
    >>> from sevens.tournament.setup import Player, PlayerId, draw_game
    >>> people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    >>> game = new_game(draw_game(people, Format(8, 4, 2), seed_sha256="0" * 64, draw_seed=1))
    >>> check_order(game, turn=1, team="fiji", force=10, flair=9)
    Order(force=10, flair=9)
    >>> check_order(game, turn=2, team="fiji", force=10, flair=9)
    Traceback (most recent call last):
    ...
    sevens.tournament.game.OrderRefused: this order is for turn 2, but the game is at turn 1; send an order for turn 1
    """
    if game_id is not None and game_id != game.id:
        raise OrderRefused(f"this order is for game {game_id}, not this game ({game.id})")
    n = game.turn_number
    if n is None:
        raise OrderRefused("the game is finished; it takes no more orders")
    if turn != n:
        if isinstance(turn, int) and turn < n:
            raise OrderRefused(
                f"this order is for turn {turn}, which is already resolved; send an order for turn {n}"
            )
        raise OrderRefused(
            f"this order is for turn {turn}, but the game is at turn {n}; send an order for turn {n}"
        )
    try:
        game.setup.team(team)
    except KeyError:
        raise OrderRefused(
            f"there is no team {quoted(team)} in this game; teams: {', '.join(t.id for t in game.setup.teams)}"
        ) from None
    shown = game.setup.team(team).name  # people read the team's name; the id is for records and URLs
    if team not in game.teams_in_play():
        raise OrderRefused(f"R6: {shown} is out of the tournament and plays no match in turn {n}", rule="R6")
    try:
        return validate_order(force, flair, scrum=game.scrum(team))
    except OrderError as exc:
        raise OrderRefused(f"{shown}, turn {n}: {exc}", rule=exc.rule, field=exc.field) from None


def _check_orders(game: Game, orders: Mapping[TeamId, TurnOrder]) -> dict[TeamId, TurnOrder]:
    n = game.turn_number
    if n is None:
        raise OrderRefused("the game is finished; there is no turn left to resolve")
    playing = game.teams_in_play()
    missing = [team for team in playing if team not in orders]
    if missing:
        raise OrderRefused(
            f"turn {n}: no order for {', '.join(missing)}; every team in play needs one "
            "(fill the missing ones with autopilot_orders, R13)",
            rule="R13",
        )
    extra = sorted(set(orders) - set(playing))
    if extra:
        raise OrderRefused(
            f"turn {n}: {', '.join(extra)} play no match this turn; remove their orders", rule="R6"
        )
    checked: dict[TeamId, TurnOrder] = {}
    balances = game.scrums()
    for team in playing:
        given = orders[team]
        if not isinstance(given, TurnOrder):
            raise OrderRefused(
                f"turn {n}: the order for {team} must be a TurnOrder, got {type(given).__name__}"
            )
        if given.team != team:
            raise OrderRefused(f"turn {n}: the order filed under {team} is tagged for {given.team}")
        try:
            validate_order(given.order.force, given.order.flair, scrum=balances[team])
        except OrderError as exc:
            raise OrderRefused(
                f"{game.setup.team(team).name}, turn {n}: {exc}", rule=exc.rule, field=exc.field, team=team
            ) from None
        checked[team] = given
    return checked


def play_turn(game: Game, orders: Mapping[TeamId, TurnOrder], dice_for: Callable[[str], DiceSource]) -> Game:
    """Resolve the next turn with dice from any source: ``dice_for(stream)`` gives the dice of
    each stream named in the module docstring. For simulation (fast seeded dice), replay
    (recorded dice) and tests; games people play use :func:`resolve_turn` and the fair dice.

    Raises:
        OrderRefused: as :func:`resolve_turn`.

    >>> from sevens.rules import SeededDice
    >>> from sevens.tournament.formats import Format
    >>> from sevens.tournament.setup import Player, PlayerId, draw_game
    >>> people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    >>> game = new_game(draw_game(people, Format(8, 4, 2), seed_sha256="0" * 64, draw_seed=1))
    >>> orders = {t: TurnOrder(t, Order(10, 9)) for t in game.teams_in_play()}
    >>> game = play_turn(game, orders, lambda stream: SeededDice(random.Random(stream)))
    >>> game.turn_number, len(game.turns[0].matches), max(game.scrums().values()) <= 91
    (2, 4, True)
    """
    return _play_checked(game, _check_orders(game, orders), dice_for)


def _play_checked(
    game: Game, orders: Mapping[TeamId, TurnOrder], dice_for: Callable[[str], DiceSource]
) -> Game:
    n = game.turn_number
    stage = game.stage
    assert n is not None and stage is not None
    digest = orders_digest(game.id, n, {team: given.order for team, given in orders.items()})
    final = game.final_tables
    balances = game.scrums()
    matches: list[MatchResult] = []
    for fixture in game.fixtures():
        home_given, away_given = orders[fixture.home], orders[fixture.away]
        home_play = play_order(home_given.order, dice_for(f"{fixture.id}/home"))
        away_play = play_order(away_given.order, dice_for(f"{fixture.id}/away"))
        home_record = away_record = None
        decision: Decision
        if stage is Stage.GROUP:
            decision = decide_group(home_play.line, away_play.line)
        else:
            assert final is not None
            home_record = final[game.setup.team(fixture.home).group].row(fixture.home)
            away_record = final[game.setup.team(fixture.away).group].row(fixture.away)
            stream = knockout_lots_stream(n, fixture.id)
            decision = decide_knockout(
                home_play.line,
                away_play.line,
                home_record=home_record,
                away_record=away_record,
                lots=partial(dice_for, stream),
                what=f"{fixture.id} ({stage}): {fixture.home} v {fixture.away}, level after count-back and group record",
            )
        winner = (
            None
            if decision.winner is None
            else (fixture.home if decision.winner is Side.HOME else fixture.away)
        )
        sides = []
        for given, play in ((home_given, home_play), (away_given, away_play)):
            before = balances[given.team]
            after = scrum_after(before, given.order, won=winner == given.team)
            sides.append(
                MatchSide(
                    given.team,
                    given.order,
                    given.missed,
                    given.autopilot,
                    play.dice,
                    play.line,
                    before,
                    after,
                )
            )
        matches.append(
            MatchResult(
                fixture=fixture,
                home=sides[0],
                away=sides[1],
                winner=winner,
                decided_by=decision.decided_by,
                summary=describe(
                    home_play.line, away_play.line, decision, home_record=home_record, away_record=away_record
                ),
                lots=decision.lots,
            )
        )
    tables: tuple[GroupTable, ...] = ()
    if n == GROUP_TURNS:
        played = Game(game.setup, (*game.turns, ResolvedTurn(n, stage, digest, tuple(matches))))
        tables = tuple(
            group_table(
                game.setup.group(letter),
                played.group_results(letter),
                dice_for(group_lots_stream(n, letter)),
                f"group {letter}",
            )
            for letter in game.format.group_letters
        )
    return Game(game.setup, (*game.turns, ResolvedTurn(n, stage, digest, tuple(matches), tables)))


def resolve_turn(game: Game, orders: Mapping[TeamId, TurnOrder], seed: str | bytes) -> Game:
    """Resolve the next turn: every team in play needs a :class:`TurnOrder` (R13), dice from the
    game's seed and the digest of the turn's orders (R14). Returns the game one turn on.

    Args:
        game: The game as it stands.
        orders: Every team in play, mapped to its order (its own, or its autopilot's).
        seed: The game's secret seed (64 hex characters or 32 bytes); must match the commitment.

    Raises:
        OrderRefused: an order is missing, extra, mistagged or over the team's SCRUM (R3).
        ValueError: the seed does not match the game's commitment (R14).
    """
    if seed_commitment(seed) != game.id:
        raise ValueError("R14: this seed does not match the game's published commitment (seed_sha256)")
    checked = _check_orders(game, orders)
    n = game.turn_number
    assert n is not None
    digest = orders_digest(game.id, n, {team: given.order for team, given in checked.items()})
    raw = parse_seed(seed)
    return _play_checked(game, checked, lambda stream: FairDice(raw, digest, stream))


def autopilot_rng(seed: str | bytes, turn: int, team: str) -> random.Random:
    """The random source a bot gets for ``team`` in ``turn``: derived from the secret game seed, so
    a house team's order cannot be predicted before the seed is revealed, and can be re-derived
    after (HMAC-SHA256(seed, f"autopilot/t{turn}/{team}")).

    >>> autopilot_rng("00" * 32, 1, "fiji").random() == autopilot_rng("00" * 32, 1, "fiji").random()
    True
    """
    digest = hmac.new(parse_seed(seed), f"autopilot/t{turn}/{team}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def autopilot_orders(
    game: Game,
    missing: Iterable[str],
    strategies: Mapping[str, Autopilot] | Callable[[str], Autopilot],
    *,
    seed: str | bytes,
) -> dict[TeamId, TurnOrder]:
    """Orders for teams without one, from each team's autopilot (R13).

    Args:
        game: The game as it stands.
        missing: The teams that need an order (for example every house team, plus any team whose
            manager sent nothing).
        strategies: The bots by name, or a function from a name to a bot
            (``sevens.bots.get_strategy``).
        seed: The game's secret seed; each bot's ``rng`` is :func:`autopilot_rng`.

    Returns:
        One :class:`TurnOrder` per team, ``autopilot`` set to the bot's name and ``missed`` true
        for a managed team (its manager missed the turn), false for a house team.

    Raises:
        OrderRefused: a team is not in play, or a bot gave an order that breaks R3.
    """
    n = game.turn_number
    if n is None:
        raise OrderRefused("the game is finished; no orders are needed")
    teams = list(missing)
    playing = set(game.teams_in_play())
    for team in teams:
        if team not in playing:
            game.setup.team(team)  # an unknown team is a KeyError naming the teams
            raise OrderRefused(
                f"R6: {game.setup.team(team).name} is out of the tournament and plays no match in turn {n}",
                rule="R6",
            )
    out: dict[TeamId, TurnOrder] = {}
    for team, view in game.views_for(teams).items():
        info = game.setup.team(team)
        name = game.setup.autopilot(team)
        strategy = strategies[name] if isinstance(strategies, Mapping) else strategies(name)
        order = strategy.order(view, autopilot_rng(seed, n, team))
        if not (hasattr(order, "force") and hasattr(order, "flair")):
            # Reading .force off a tuple said the bot "raised AttributeError", pointing nowhere.
            shown = repr(order)
            shown = shown if len(shown) <= 60 else f"{shown[:60]}..."
            raise OrderRefused(
                f"the bot {name!r} gave an order the game refuses: {info.name}, turn {n}: its order method returned "
                f"{type(order).__name__} {shown}, not an Order: return sevens.rules.Order(force=..., flair=...)"
            )
        try:
            checked = validate_order(order.force, order.flair, scrum=view.scrum)
        except OrderError as exc:
            raise OrderRefused(
                f"the bot {name!r} gave an order the game refuses: {info.name}, turn {n}: {exc}", rule=exc.rule
            ) from None
        out[info.id] = TurnOrder(info.id, checked, missed=info.manager is not None, autopilot=name)
    return out
