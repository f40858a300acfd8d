"""The JSON API's answers as Pydantic models, for its OpenAPI document (what generated clients see).

They describe exactly what :mod:`sevens.web.views` and :mod:`sevens.web.api` send: every field is
always present (required, nullable where it may be null), and a view has only the fields its
caller may see (R13, R14) -- a secret is absent from a model, never a null default. The routes that
answer with these views send the dicts as they are (a ``JSONResponse``), so a field a model forgot
would not be dropped from an answer; tests/web/test_web_api_schema.py checks real answers of every
operation against the models and the document, with no unknown field allowed.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from sevens.rules.match import DecidedBy
from sevens.store.auth import InviteState
from sevens.store.games import OrderState
from sevens.store.models import GameStatus, Role, Visibility
from sevens.tournament.outlook import Verdict
from sevens.tournament.standings import TableRow  # its rows are sent as to_dict writes them

__all__ = [
    "AutopilotAnswer",
    "ErrorAnswer",
    "GameAnswer",
    "GameView",
    "MeAnswer",
    "MyOrders",
    "OddsAnswer",
    "OrganiseAnswer",
    "OrganiserGameView",
    "OrganiserPlayerGameView",
    "PlayerGameView",
    "StateAnswer",
    "StrategiesAnswer",
    "TeamManagerView",
    "error_responses",
]


class ErrorAnswer(BaseModel):
    """Every refusal: what was wrong, in words."""

    detail: str


_ERRORS: dict[int, str] = {
    400: (
        "a value sent holds a NUL character, which no id, name or link contains (on PostgreSQL; SQLite finds "
        "nothing), or the Host header names a host this server does not answer to (SEVENS_ALLOWED_HOSTS)"
    ),
    401: (
        "no bearer token where one is needed, or one the server does not know (unknown or revoked), or one that "
        "went with the only game it opened when that game was deleted (the detail says so, and when): stop playing it"
    ),
    403: "the token may not do this (not the game's organiser, not the caller's team, no seat)",
    404: (
        "no such game, team, invite or link (a private game is not found by strangers; a deleted game, also one "
        "deleted while the request was answered, is no such game)"
    ),
    409: "the game is not in a state that allows this (not running, turn already resolved, ...)",
    410: "the invite was used or has expired",
    412: (
        "the request came with If-Match, which this API does not evaluate (no write has an ETag to match); "
        "nothing was done: send it without, an order's turn says which turn it is for"
    ),
    413: "the request body is too large (refused before it is read, also where the operation takes no body)",
    415: (
        "the request came with a Content-Encoding (gzip, say), which the server does not decode, or with a "
        "body not sent as Content-Type: application/json"
    ),
    422: (
        "the input breaks a rule or the request's shape, or has a field or query parameter the operation "
        "does not take (the detail says which, and what it takes)"
    ),
    429: (
        "too many wrong secrets, new games or new credentials from this address, organiser acts on this game, or odds "
        "requests unanswered from this token; see Retry-After"
    ),
    500: (
        "the server failed: an unexpected error (the detail gives a reference that whoever runs the server finds "
        "in its log), or the game's stored record is damaged and no longer replays (the detail says so, and where "
        "its organiser downloads the record as stored)"
    ),
    503: (
        "the server cannot use its database just now (not a refusal: what was sent may or may not be "
        "saved); read the state again after Retry-After. For odds: the server's odds process died or took "
        "too long on these (it is restarted); ask again"
    ),
}


_RETRY_AFTER = {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}

# The headers a refusal carries that a client acts on, so generated clients and readers of the
# document know they are there (tests/web/test_web_api_schema.py checks every real answer's).
_ERROR_HEADERS: dict[int, dict[str, Any]] = {
    401: {"WWW-Authenticate": {"description": "always Bearer: send the bot token", "schema": {"type": "string"}}},
    429: {"Retry-After": _RETRY_AFTER},
    503: {"Retry-After": _RETRY_AFTER},
}


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route: each refusal it may give, all with the body ``{"detail": ...}``,
    and the headers that come with it (Retry-After, WWW-Authenticate)."""
    return {
        code: {"model": ErrorAnswer, "description": _ERRORS[code]}
        | ({"headers": _ERROR_HEADERS[code]} if code in _ERROR_HEADERS else {})
        for code in codes
    }


class OrderValues(BaseModel):
    """FORCE and FLAIR points of an order (R3)."""

    force: int = Field(description="SCRUM points spent on FORCE dice, one die a point")
    flair: int = Field(description="SCRUM points spent on FLAIR options, a multiple of 3 (3 an option)")


class DraftOrder(OrderValues):
    """The caller's own order for the open turn (R13: no one else's)."""

    ready: bool


class Line(BaseModel):
    """What a side scored (R1); the game record's ``home_line`` and ``away_line``."""

    tries: int = Field(description="tries scored, a count (5 points each)")
    conversions: int = Field(description="conversions, a count (2 points each)")
    penalties: int = Field(description="penalties, a count (3 points each)")
    drop_goals: int = Field(description="drop goals, a count (3 points each)")
    points: int = Field(description="points scored, all of the above added up")


class Dice(BaseModel):
    """Every die a side threw; the game record's ``home_dice`` and ``away_dice``."""

    force: list[int] = Field(description="FORCE faces in the order thrown")
    flair: list[list[tuple[int, int]]] = Field(description="per FLAIR option, its throws [a, b] in order")


class MatchSide(BaseModel):
    """One side of a played match. The game record keeps the same figures under other names
    (``home_order``, ``home_dice``, ``home_line``, ``scrum``): docs/web.md maps them."""

    team: str = Field(description="the team's id (the view's teams give its name)")
    order: OrderValues = Field(description="the order it played; the record's home_order/away_order")
    missed: bool = Field(description="no order came in time: the autopilot played it")
    autopilot: str | None = Field(description="the bot that chose the order, if a bot did; null otherwise")
    dice: Dice
    line: Line
    scrum_before: int = Field(description="SCRUM points before the match (R4)")
    scrum_after: int = Field(description="SCRUM points after it: before, less the order, plus 10 for a win")


class PlayedMatch(BaseModel):
    """A match of a resolved turn; a line of matches.csv and a match of the game record hold the
    same figures (docs/web.md, "One match in matches.csv, the API and the record")."""

    match: str = Field(description="the match's id, t{turn}-m{k}; the record's id")
    home: MatchSide
    away: MatchSide
    winner: str | None = Field(description="the winner's team id; null for a group draw")
    decided_by: DecidedBy | None = Field(description="what decided it (R9); null for a group draw")
    summary: str = Field(description="the result in words, the winner's figures first, as the record's summary")


class ResolvedTurn(BaseModel):
    turn: int = Field(description="the turn, from 1; the record's number")
    stage: str = Field(description="group, quarter-final, semi-final or final")
    matches: list[PlayedMatch] = Field(description="in fixture order")


class FormatInfo(BaseModel):
    teams: int
    groups: int
    turns: int
    players: int
    teams_per_player: int
    house_teams: int
    stages: list[str]


class Seat(BaseModel):
    player: str
    name: str
    joined: bool


class Team(BaseModel):
    id: str
    name: str
    group: str
    manager: str = Field(description="the manager's display name, or 'house'")
    scrum: int
    in_play: bool
    bot: str | None = Field(
        description="the bot that plays the team because nobody plays its seat (a house team, a seat not "
        "taken, a seat handed to the bots); null for a team a player manages (their autopilot is theirs alone)"
    )


class Fixture(BaseModel):
    match: str
    stage: str
    home: str
    away: str


class Placing(BaseModel):
    place: str = Field(description="'1', '2', or a place shared by teams out at the same stage, such as '3-4'")
    team: str
    went: str = Field(description="how far the team went, in the game page's words")


class LotsDraw(BaseModel):
    what: str
    teams: list[str]
    throws: list[list[tuple[str, int]]] = Field(description="per round, [team, face] in the order thrown")
    order: list[str]


class GroupTable(BaseModel):
    what: str
    rows: list[TableRow]
    lots: list[LotsDraw]


class GameView(BaseModel):
    """The public view of a game: what anyone who may watch it sees (no open turn's orders, R13;
    ``seed`` null until the end, R14)."""

    id: str
    name: str
    status: GameStatus
    visibility: Visibility
    format: FormatInfo
    turn: int | None = Field(description="the open turn; null unless running or paused")
    stage: str | None
    deadline: str | None
    paused_remaining: int | None = Field(description="seconds the paused clock keeps; null unless paused")
    resolve_when: Literal["deadline", "all-ready"]
    default_bot: str = Field(
        description="the bot of the teams nobody plays, unless the organiser chose another for one (house_bots)"
    )
    default_autopilot: str = Field(
        description="the bot that plays a missed order of a player in their seat who chose no autopilot (R13)"
    )
    seed_sha256: str
    seed: str | None = Field(description="null until the game is over (R14)")
    champion: str | None
    ended_at: str | None = Field(
        description="when the game ended: its final played (finished), or its organiser ending it (ended; "
        "then turns holds the turns played and stage the one it stopped before); null before"
    )
    standing: list[Placing] = Field(
        description="once the final is played, every team's place, the champion first (as the game's page "
        "shows it); empty before, and for a game ended early"
    )
    seats: list[Seat]
    teams: list[Team]
    fixtures: list[Fixture] = Field(description="the open turn's matches")
    tables: dict[str, GroupTable] = Field(description="per group letter")
    turns: list[ResolvedTurn] = Field(description="resolved turns, their orders and dice")
    rematch: str | None = Field(
        description="the game's rematch, once started (POST .../rematch); null if none, or if it is a "
        "private game the caller neither organises nor plays (as on the game's page)"
    )
    rematch_of: str | None = Field(
        description="the game this one is the rematch of; null if none, or a private one the caller "
        "neither organises nor played"
    )


class Me(BaseModel):
    player: str
    name: str


class GroupRecord(BaseModel):
    """A team's group record, the counts a level knockout match falls back on (R9), in that order."""

    team: str
    league_points: int
    tries_for: int
    points_for: int
    tries_against: int
    points_against: int


class IfLevel(BaseModel):
    """What decides a knockout match that ends level after count-back (R9)."""

    explanation: str = Field(description="in a sentence, as the play page says it")
    figures: str = Field(description="both group records in words, as the play page gives them")
    favours: str | None = Field(description="the team the group records put through; null: level, lots decide")
    decided_on: str | None = Field(description="the first count that differs, such as 'league points'")
    records: list[GroupRecord] = Field(description="the team's own first, then its opponent's")


class AfterResult(BaseModel):
    """What one result of the team's open group match leads to (R6-R8), from resolved turns only."""

    verdict: Verdict = Field(
        description="through: through whatever else happens; out: out whatever else happens; tie-breaks: "
        "level on league points for the last place(s) whatever else happens, so tries and points decide (R8); "
        "depends: on the group's other results"
    )
    words: str = Field(description="the same in a few words, naming a match whose result decides, if one does")


class Outlook(BaseModel):
    """An open group match's qualification outlook: what a win, a draw and a loss lead to."""

    text: str = Field(description="in a sentence or two, as the play page says it")
    win: AfterResult
    draw: AfterResult
    loss: AfterResult


class MyTeam(BaseModel):
    """One of the caller's teams, with its own order for the open turn."""

    team: str
    name: str
    group: str
    scrum: int
    in_play: bool
    match: str | None = Field(description="its match this turn; null when it does not play")
    opponent: str | None
    opponent_scrum: int | None
    order: DraftOrder | None
    autopilot: str
    progress: str = Field(
        description="how far the team has gone, in a sentence: its group place, or the knockout match "
        "that put it out and to whom, or that it is champion"
    )
    if_level: IfLevel | None = Field(
        description="a knockout match this turn: both teams' group records, which decide it if it ends "
        "level after count-back (R9); null otherwise"
    )
    matches_left: int | None = Field(
        description="in the open turn, when the team plays: the matches it has left if it keeps winning, "
        "this one included, as the play page says; null otherwise"
    )
    outlook: Outlook | None = Field(
        description="an open group match: what a win, a draw and a loss lead to, as the play page says, "
        "from resolved turns only; null otherwise (a knockout match, no match, no open turn)"
    )


class TurnTeam(BaseModel):
    """A team in play in the open turn, and whether it has ordered (R13: never what)."""

    team: str
    state: Literal["none", "saved", "ready", "unclaimed", "released", "house"] = Field(
        description="no order yet; saved, not ready; ready; its seat not taken yet (its autopilot plays); "
        "its seat handed to the bots by the organiser, taken over by nobody since (its bot plays); "
        "a house team (its bot plays)"
    )
    mine: bool = Field(description="one of the caller's own teams")


_WHO_ORDERED = (
    "every team in play in the open turn, as the player's page lists them: the teams the turn waits "
    "for first (none, then saved), then ready, unclaimed, released and house teams, each in the draw's order; "
    "empty unless a turn is open"
)


class PlayerGameView(GameView):
    """A player's view: the public one, their seat and own teams, and where each team's order
    stands (``none``, ``saved``, ``ready``, ``unclaimed``, ``released``: never what it is)."""

    me: Me
    order_states: dict[str, OrderState]
    who_ordered: list[TurnTeam] = Field(description=_WHO_ORDERED)
    my_teams: list[MyTeam]


class Invite(BaseModel):
    state: InviteState
    expires_at: str | None
    played: bool = Field(
        description="some browser or bot token plays the seat now; false for a seat nobody has taken, and for "
        "one taken but left (its player signed out or revoked their token), whose teams play their autopilot"
    )


class Event(BaseModel):
    at: str
    actor: str
    kind: str
    detail: str


class OrganiserGameView(GameView):
    """The organiser's view: the public one, where each order stands (never what), the house
    teams' bots, the seats' invites and the event log."""

    order_states: dict[str, OrderState]
    house_bots: dict[str, str] = Field(description="teams nobody plays, and the bot that plays each")
    invites: dict[str, Invite] = Field(description="per seat")
    events: list[Event]


class OrganiserPlayerGameView(OrganiserGameView):
    """A token that organises the game and plays a seat in it: the organiser's view plus the
    seat and its own teams (their orders only)."""

    me: Me
    who_ordered: list[TurnTeam] = Field(description=_WHO_ORDERED)
    my_teams: list[MyTeam]


# The most specific first: a client's Pydantic picks the view with the most fields it matches.
GameAnswer = OrganiserPlayerGameView | PlayerGameView | OrganiserGameView | GameView


class ManagedTeam(MyTeam):
    turns_left: int = Field(description="matches the team may still play, this one included")
    stages_left: list[str]


class TeamManagerView(BaseModel):
    game: str
    turn: int | None
    stage: str | None
    team: ManagedTeam
    tables: dict[str, GroupTable]


class MyOrders(BaseModel):
    turn: int | None = Field(
        description="the open turn; null while none is open (the game has not started, or is over)"
    )
    orders: dict[str, DraftOrder] = Field(description="per team of the caller's that has an order this turn")


class AutopilotAnswer(BaseModel):
    team: str
    autopilot: str


class GroupOdds(BaseModel):
    """Group stage: chances against one bot's typical order."""

    bot: str = Field(description="the bot whose typical order this row is against")
    order: OrderValues = Field(description="that order")
    win: float = Field(description="chance of a win, from 0 to 1 (not percent)")
    draw: float = Field(description="chance of a draw, from 0 to 1")
    loss: float = Field(description="chance of a loss, from 0 to 1")


class KnockoutOdds(BaseModel):
    """Knockout: ``level`` is the chance that every count-back figure is equal too (R9)."""

    bot: str = Field(description="the bot whose typical order this row is against")
    order: OrderValues = Field(description="that order")
    win: float = Field(description="chance of a win after count-back, from 0 to 1 (not percent)")
    level: float = Field(description="chance that every count-back figure is equal too, from 0 to 1")
    loss: float = Field(description="chance of a loss after count-back, from 0 to 1")


class OddsAnswer(BaseModel):
    team: str = Field(description="the team's id")
    rules: Literal["group", "knockout"] | None = Field(
        description="the match's rules, as `sevens odds --json` names them: 'group' rows have draw, 'knockout' "
        "rows level; null with no match to play"
    )
    order: OrderValues = Field(description="the draft order the odds are of")
    expected_points: float = Field(
        description="the points the draft order expects to score, to 3 decimals, as sevens odds' expected_points"
    )
    scrum_left: int = Field(description="the team's SCRUM points after spending the draft order")
    opponent: str | None = Field(description="the opponent's team id; null with no match to play")
    opponent_bot: str | None = Field(description="the bot of an opponent nobody plays; null otherwise")
    against: list[GroupOdds] | list[KnockoutOdds] = Field(description="a row per bot in the opponent's place")
    assumed_zero: list[Literal["force", "flair"]] = Field(
        description="the sides of the draft left out (the order form: a box still empty), whose odds take them "
        "as 0; an order must name both"
    )


class Grant(BaseModel):
    game: str
    role: Role
    player: str | None


class MeAnswer(BaseModel):
    label: str
    grants: list[Grant]


class StrategiesAnswer(BaseModel):
    strategies: list[str]
    weighted: list[str] = Field(description="those that take a knockout weight after '@'")
    default: str
    about: dict[str, str]


class StateAnswer(BaseModel):
    """Where a game stands, as cheap to poll as it gets (GET /api/v1/games/{id}/state)."""

    status: GameStatus
    turn: int | None = Field(description="the open turn; null unless running or paused")
    version: str = Field(
        description=(
            "changes when the game starts, pauses, resumes, its deadline moves, a turn is resolved "
            "or it ends (for its organiser also with seats taken, invites expired and orders counted); compare it "
            "with the last one, do not parse it (for players and spectators it never moves when a "
            "seat orders, R13)"
        )
    )


class OrganiseAnswer(BaseModel):
    game: str
    token: str | None = Field(description="a new bearer token, unless the call carried one")
