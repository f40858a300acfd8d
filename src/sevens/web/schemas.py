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
from sevens.tournament.standings import Criterion

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

    detail: str = Field(
        description="what was wrong and how to put it right, in English words for a person; the status code "
        "says the kind, do not parse the words",
        examples=["unknown or revoked bot token, so nothing was done: check the token sent (Authorization: Bearer ...); ..."],
    )


# Forms a client cannot guess, said once and used by every field that holds one.
GAME_ID = Field(description="the game's public id, 12 letters, digits, '-' or '_'", examples=["gkpLXi037LwL"])
PLAYER_ID = Field(description="a seat's id: p1, p2, ... up to the game's players", examples=["p1"])
TEAM_ID = Field(description="a team's id, its name in lower case with '-' for spaces", examples=["new-zealand"])
MATCH_ID = "a match's id, t{turn}-m{k}: its turn, then its place in that turn's fixtures from 1"
WHEN = "(ISO 8601 with microseconds and +00:00, UTC)"
STAGE = "group, quarter-final, semi-final or final"
SCRUM = "SCRUM points the team has left to spend on orders (R4), from 100 at the start"
IN_PLAY = "false once the team is out (its group, or a knockout match lost): it plays no more matches"
GROUP = "the team's group letter, A to D (R6)"


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

    ready: bool = Field(description="true: the order is final for the turn (with resolve_when all-ready, the "
                        "turn resolves once every order is ready); false: saved, still a draft")


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
    dice: Dice = Field(description="every die it threw (R1, R2); the record's home_dice/away_dice")
    line: Line = Field(description="what it scored (R1); the record's home_line/away_line")
    scrum_before: int = Field(description="SCRUM points before the match (R4)")
    scrum_after: int = Field(description="SCRUM points after it: before, less the order, plus 10 for a win")


class PlayedMatch(BaseModel):
    """A match of a resolved turn; a line of matches.csv and a match of the game record hold the
    same figures (docs/web.md, "One match in matches.csv, the API and the record")."""

    match: str = Field(description="the match's id, t{turn}-m{k}; the record's id")
    home: MatchSide = Field(description="the side named first in the fixture")
    away: MatchSide = Field(description="the side named second")
    winner: str | None = Field(description="the winner's team id; null for a group draw")
    decided_by: DecidedBy | None = Field(description="what decided it (R9); null for a group draw")
    summary: str = Field(description="the result in words, the winner's figures first, as the record's summary")


class ResolvedTurn(BaseModel):
    """A turn once resolved: every match played in it, orders and dice public from then on (R13)."""

    turn: int = Field(description="the turn, from 1; the record's number")
    stage: str = Field(description="group, quarter-final, semi-final or final")
    matches: list[PlayedMatch] = Field(description="in fixture order")


class FormatInfo(BaseModel):
    """The tournament's shape, fixed when the game is created (R12)."""

    teams: int = Field(description="teams in the tournament, 8 or 16")
    groups: int = Field(description="groups of four, 2 or 4 (R6)")
    turns: int = Field(description="turns the whole tournament takes, final included")
    players: int = Field(description="seats, 4 to 16")
    teams_per_player: int = Field(description="teams each seat manages, 1 to 4")
    house_teams: int = Field(description="teams no seat manages, played by a bot (R12)")
    stages: list[str] = Field(description=f"the stages in order, each one of {STAGE}")


class Seat(BaseModel):
    """A seat at the game, taken or not."""

    player: str = PLAYER_ID
    name: str = Field(description="the name its player chose, or 'Player N' while nobody has taken it (or once its name was removed)")
    joined: bool = Field(description="true once someone has claimed the seat with its invite")


class Team(BaseModel):
    """A team of the tournament (the public facts: no order of an open turn, R13)."""

    id: str = TEAM_ID
    name: str = Field(description="the team's name, as shown", examples=["New Zealand"])
    group: str = Field(description=GROUP)
    manager: str = Field(description="the manager's display name, or 'house'")
    scrum: int = Field(description=SCRUM)
    in_play: bool = Field(description=IN_PLAY)
    bot: str | None = Field(
        description="the bot that plays the team because nobody plays its seat (a house team, a seat not "
        "taken, a seat handed to the bots); null for a team a player manages (their autopilot is theirs alone)"
    )


class Fixture(BaseModel):
    """A match of the open turn, not played yet."""

    match: str = Field(description=MATCH_ID, examples=["t1-m1"])
    stage: str = Field(description=STAGE)
    home: str = Field(description="the home team's id")
    away: str = Field(description="the away team's id")


class Placing(BaseModel):
    """A team's place in the final standing."""

    place: str = Field(description="'1', '2', or a place shared by teams out at the same stage, such as '3-4'")
    team: str = Field(description="the team's id")
    went: str = Field(description="how far the team went, in the game page's words")


class LotsDraw(BaseModel):
    """Lots drawn to part teams level on every count (R8, R10), as the record keeps them."""

    what: str = Field(description="which place the lots decided, in words")
    teams: list[str] = Field(description="the ids of the teams that threw")
    throws: list[list[tuple[str, int]]] = Field(description="per round, [team, face] in the order thrown")
    order: list[str] = Field(description="the teams' ids in the order the lots put them, first first")


class TableRow(BaseModel):
    """One team's line in a group table (R8); the record's table rows hold the same keys."""

    team: str = Field(description="the team's id")
    position: int = Field(description="its place in the group from 1; teams still level share one")
    played: int = Field(description="group matches played")
    won: int = Field(description="group matches won")
    drawn: int = Field(description="group matches drawn")
    lost: int = Field(description="group matches lost")
    tries_for: int = Field(description="tries scored, a count")
    tries_against: int = Field(description="tries conceded, a count")
    points_for: int = Field(description="points scored")
    points_against: int = Field(description="points conceded")
    league_points: int = Field(description="league points (R8): 2 a win, 1 a draw, 0 a loss")
    decided_by: Criterion | None = Field(
        description="the count that decided the team's place (R8); null while it is still level with another "
        "team in an unfinished group"
    )


class GroupTable(BaseModel):
    """A group's table, as the game page shows it."""

    what: str = Field(description="the table's title, such as 'group A'")
    rows: list[TableRow] = Field(description="one per team of the group, in the order of its place (R8)")
    lots: list[LotsDraw] = Field(description="lots drawn to order teams level on every count (R8, R10); empty if none")


class GameView(BaseModel):
    """The public view of a game: what anyone who may watch it sees (no open turn's orders, R13;
    ``seed`` null until the end, R14)."""

    id: str = GAME_ID
    name: str = Field(description="the game's name, as its organiser gave it")
    status: GameStatus = Field(
        description="lobby: seats being taken; running: a turn is open; paused: the deadline clock is stopped; "
        "finished: the final is played; ended: its organiser ended it early"
    )
    visibility: Visibility = Field(
        description="public: anyone with its id may watch; private: only its players and organiser (others get 404)"
    )
    format: FormatInfo = Field(description="the tournament's shape (R12)")
    turn: int | None = Field(description="the open turn; null unless running or paused")
    stage: str | None = Field(description=f"the open turn's stage, {STAGE}; null unless running or paused")
    deadline: str | None = Field(
        description=f"when the open turn closes {WHEN}; null while paused, in the lobby, once over, and in a game "
        "that resolves when all are ready",
        examples=["2026-12-06T09:26:13.465451+00:00"],
    )
    paused_remaining: int | None = Field(description="seconds the paused clock keeps; null unless paused")
    resolve_when: Literal["deadline", "all-ready"] = Field(
        description="deadline: a turn resolves when its deadline passes (or all are ready first); all-ready: "
        "when every order is ready, with no deadline"
    )
    default_bot: str = Field(
        description="the bot of the teams nobody plays, unless the organiser chose another for one (house_bots)"
    )
    default_autopilot: str = Field(
        description="the bot that plays a missed order of a player in their seat who chose no autopilot (R13)"
    )
    seed_sha256: str = Field(
        description="SHA-256 of the seed, 64 hex digits, published at creation so the dice can be checked "
        "once the seed is revealed (R14)"
    )
    seed: str | None = Field(description="null until the game is over (R14)")
    champion: str | None = Field(description="the winner's team id once the final is played; null before")
    ended_at: str | None = Field(
        description="when the game ended: its final played (finished), or its organiser ending it (ended; "
        "then turns holds the turns played and stage the one it stopped before); null before"
    )
    standing: list[Placing] = Field(
        description="once the final is played, every team's place, the champion first (as the game's page "
        "shows it); empty before, and for a game ended early"
    )
    seats: list[Seat] = Field(description="every seat, p1 first")
    teams: list[Team] = Field(description="every team, in the draw's order (empty in the lobby)")
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
    """The caller's seat in the game."""

    player: str = PLAYER_ID
    name: str = Field(description="the name the seat plays under")


class GroupRecord(BaseModel):
    """A team's group record, the counts a level knockout match falls back on (R9), in that order."""

    team: str = Field(description="the team's id")
    league_points: int = Field(description="league points in its group (R8)")
    tries_for: int = Field(description="tries it scored in its group matches")
    points_for: int = Field(description="points it scored in its group matches")
    tries_against: int = Field(description="tries it conceded in its group matches")
    points_against: int = Field(description="points it conceded in its group matches")


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
    win: AfterResult = Field(description="what a win leads to")
    draw: AfterResult = Field(description="what a draw leads to (R8: 1 league point)")
    loss: AfterResult = Field(description="what a loss leads to")


class MyTeam(BaseModel):
    """One of the caller's teams, with its own order for the open turn."""

    team: str = TEAM_ID
    name: str = Field(description="the team's name, as shown")
    group: str = Field(description=GROUP)
    scrum: int = Field(description=SCRUM)
    in_play: bool = Field(description=IN_PLAY)
    match: str | None = Field(description="its match this turn; null when it does not play")
    opponent: str | None = Field(description="the opponent's team id this turn; null when it does not play")
    opponent_scrum: int | None = Field(
        description="the opponent's SCRUM points (public, R4); null when it does not play"
    )
    order: DraftOrder | None = Field(
        description="the caller's own order for the open turn, as saved; null if none is saved (R13: only the "
        "caller's own teams carry one)"
    )
    autopilot: str = Field(description="the bot that plays the team's order if none is saved in time (R13)")
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

    team: str = Field(description="the team's id")
    state: Literal["none", "saved", "ready", "unclaimed", "released", "house"] = Field(
        description="no order yet; saved, not ready; ready; its seat not taken yet (its autopilot plays); "
        "its seat handed to the bots by the organiser, taken over by nobody since (its bot plays); "
        "a house team (its bot plays)"
    )
    mine: bool = Field(description="one of the caller's own teams")


_ORDER_STATES = (
    "per team id in play in the open turn, where its order stands (none, saved, ready, unclaimed, released, house), "
    "never what it is (R13); empty unless a turn is open"
)
_MY_TEAMS = "the caller's own teams, in the draw's order, each with its own order (R13: only these)"

_WHO_ORDERED = (
    "every team in play in the open turn, as the player's page lists them: the teams the turn waits "
    "for first (none, then saved), then ready, unclaimed, released and house teams, each in the draw's order; "
    "empty unless a turn is open"
)


class PlayerGameView(GameView):
    """A player's view: the public one, their seat and own teams, and where each team's order
    stands (``none``, ``saved``, ``ready``, ``unclaimed``, ``released``: never what it is)."""

    me: Me = Field(description="the caller's seat")
    order_states: dict[str, OrderState] = Field(description=_ORDER_STATES)
    who_ordered: list[TurnTeam] = Field(description=_WHO_ORDERED)
    my_teams: list[MyTeam] = Field(description=_MY_TEAMS)


class Invite(BaseModel):
    """A seat's invite, as its organiser sees it (the secret itself is shown only once, R13)."""

    state: InviteState = Field(description="open: can still be used; used: the seat was claimed; expired")
    expires_at: str | None = Field(description=f"until when it can be used {WHEN}; null if it has no end")
    played: bool = Field(
        description="some browser or bot token plays the seat now; false for a seat nobody has taken, and for "
        "one taken but left (its player signed out or revoked their token), whose teams play their autopilot"
    )


class Event(BaseModel):
    """A line of the game's event log (organiser only)."""

    at: str = Field(description=f"when it happened {WHEN}")
    actor: str = Field(description="who did it, in words: 'organiser', a seat's name, or an API token's label in brackets")
    kind: str = Field(description="what happened, a word or two (created, started, new invite, ...)",
                      examples=["started"])
    detail: str = Field(description="more about it in words; empty if nothing more (never an open turn's order, R13)")


class OrganiserGameView(GameView):
    """The organiser's view: the public one, where each order stands (never what), the house
    teams' bots, the seats' invites and the event log."""

    order_states: dict[str, OrderState] = Field(description=_ORDER_STATES)
    house_bots: dict[str, str] = Field(description="teams nobody plays, and the bot that plays each")
    invites: dict[str, Invite] = Field(description="per seat")
    events: list[Event] = Field(description="the event log, oldest first")


class SeatReleasedView(OrganiserGameView):
    """The organiser's view after a seat was handed to the bots, and whether a turn is held up."""

    held_up: str | None = Field(
        description="null, or why the turn the hand-over completed is still open: another saved order the "
        "rules refuse holds it up (its team and rule, never its numbers, R13); the seat is handed over all the same",
    )


class OrganiserPlayerGameView(OrganiserGameView):
    """A token that organises the game and plays a seat in it: the organiser's view plus the
    seat and its own teams (their orders only)."""

    me: Me = Field(description="the caller's seat")
    who_ordered: list[TurnTeam] = Field(description=_WHO_ORDERED)
    my_teams: list[MyTeam] = Field(description=_MY_TEAMS)


# The most specific first: a client's Pydantic picks the view with the most fields it matches.
GameAnswer = OrganiserPlayerGameView | PlayerGameView | OrganiserGameView | GameView


class ManagedTeam(MyTeam):
    """One of the caller's teams, as its manager's page shows it."""

    turns_left: int = Field(description="matches the team may still play, this one included")
    stages_left: list[str] = Field(description=f"the stages it may still play, each one of {STAGE}")


class TeamManagerView(BaseModel):
    """What a team's manager sees of it (R13: its own order only)."""

    game: str = GAME_ID
    turn: int | None = Field(description="the open turn; null unless running or paused")
    stage: str | None = Field(description=f"the open turn's stage, {STAGE}; null unless running or paused")
    team: ManagedTeam = Field(description="the team")
    tables: dict[str, GroupTable] = Field(description="per group letter")


class MyOrders(BaseModel):
    """The caller's own orders for the open turn."""

    turn: int | None = Field(
        description="the open turn; null while none is open (the game has not started, or is over)"
    )
    orders: dict[str, DraftOrder] = Field(description="per team of the caller's that has an order this turn")


class AutopilotAnswer(BaseModel):
    """The team's autopilot as saved."""

    team: str = TEAM_ID
    autopilot: str = Field(description="the bot now playing the team's missed orders (R13)")


class MixOrder(BaseModel):
    """One order of a bot's mix, with the chance that the bot gives it."""

    force: int = Field(description="FORCE points")
    flair: int = Field(description="FLAIR points")
    chance: float = Field(description="the chance the bot gives this order, from 0 to 1; a mix's chances sum to 1")


_BOT = "the bot in the opponent's place this row is against"
_ORDER = (
    "the likeliest order of the bot's mix (its one order where it mixes nothing); where `mix` is null, one typical "
    "order of a bot that does not say what it mixes over, which the odds are against alone"
)
_MIX = (
    "the orders the odds are against, each with its chance: the bot's whole mix, and the odds its weighted average, "
    "exact (an even sample of it where `mix_used` is less than `mix_size`); empty where more than 12 orders are "
    "used (the random bot's hundreds), which are not listed; null where the bot does not say what it mixes over"
)
_MIX_SIZE = "how many orders the bot's whole mix holds; null as `mix` is"
_MIX_USED = (
    "how many orders of the mix the odds are against: `mix_size`, or fewer where the mix is larger than the odds can "
    "take each time (400 orders in the groups, 12 in the knockouts) and an even sample of it stands in for it, so "
    "the figures are close rather than exact; null as `mix` is"
)


class GroupOdds(BaseModel):
    """Group stage: chances against one bot's mix of orders (or one typical order, where ``mix`` is null)."""

    bot: str = Field(description=_BOT)
    order: OrderValues = Field(description=_ORDER)
    win: float = Field(description="chance of a win, from 0 to 1 (not percent)")
    draw: float = Field(description="chance of a draw, from 0 to 1")
    loss: float = Field(description="chance of a loss, from 0 to 1")
    mix: list[MixOrder] | None = Field(description=_MIX)
    mix_size: int | None = Field(description=_MIX_SIZE)
    mix_used: int | None = Field(description=_MIX_USED)


class KnockoutOdds(BaseModel):
    """Knockout: ``level`` is the chance that every count-back figure is equal too (R9)."""

    bot: str = Field(description=_BOT)
    order: OrderValues = Field(description=_ORDER)
    win: float = Field(description="chance of a win after count-back, from 0 to 1 (not percent)")
    level: float = Field(description="chance that every count-back figure is equal too, from 0 to 1")
    loss: float = Field(description="chance of a loss after count-back, from 0 to 1")
    mix: list[MixOrder] | None = Field(description=_MIX)
    mix_size: int | None = Field(description=_MIX_SIZE)
    mix_used: int | None = Field(description=_MIX_USED)


class OddsAnswer(BaseModel):
    """The odds of the caller's draft order for its own team (R13: no other team's order is read)."""

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
    against: list[GroupOdds] | list[KnockoutOdds] = Field(
        description="a row per bot in the opponent's place: the odds against its whole mix of orders where it says "
        "what it mixes over (`mix`)"
    )
    assumed_zero: list[Literal["force", "flair"]] = Field(
        description="the sides of the draft left out (the order form: a box still empty), whose odds take them "
        "as 0; an order must name both"
    )


class Grant(BaseModel):
    """What the token may do in one game."""

    game: str = GAME_ID
    role: Role = Field(description="organiser: organises the game; player: plays the seat in player")
    player: str | None = Field(description="the seat played, p1, p2, ...; null for the organiser role")


class MeAnswer(BaseModel):
    """The caller's bearer token: its label and every game it opens."""

    label: str = Field(description="the token's label, as the event log names its acts")
    grants: list[Grant] = Field(description="one per game and role the token holds")


class StrategiesAnswer(BaseModel):
    """The bots an autopilot, a house team or a game default may be."""

    strategies: list[str] = Field(description="every bot's name, as an autopilot or a bot field takes it")
    weighted: list[str] = Field(description="those that take a knockout weight after '@'")
    default: str = Field(description="the bot a new game uses when none is named")
    about: dict[str, str] = Field(description="per bot name, how it plays in a few words")


class StateAnswer(BaseModel):
    """Where a game stands, as cheap to poll as it gets (GET /api/v1/games/{id}/state)."""

    status: GameStatus = Field(description="lobby, running, paused, finished or ended (as the game view's)")
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
    """The game the token now organises."""

    game: str = GAME_ID
    token: str | None = Field(description="a new bearer token, unless the call carried one")
