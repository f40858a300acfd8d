"""One server-side function per role builds what that role sees (R13).

:func:`spectator_view` holds only what is public: finished turns (their orders are public once
resolved), tables, bracket, fixtures of the open turn, the seed commitment, and the seed after the
end. :func:`organiser_view` adds seats, the event log and, per team, *whether* it has ordered,
never what. :func:`player_view` adds the player's own teams and their own current orders, read by
:func:`sevens.store.games.orders_of_player` for that player only, and whether each team in play
has ordered (never what). Pages, the API and the record
download all go through these functions; nothing else reads the orders table of an open turn.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, TypeVar

import segno
from markupsafe import Markup, escape
from sqlalchemy.orm import Session

from sevens.bots import DEFAULT_BOT, STRATEGIES, check_with_bots
from sevens.bots.pacing import WEIGHTED, WeightError, parse_knockout_weight
from sevens.rules import Order, OrderError, validate_order
from sevens.store import games as store
from sevens.store.auth import InviteState, invite_state, seats_held
from sevens.store.errors import (
    Conflict,
    DamagedRecord,
    Invalid,
    NotFound,
    Refused,
    StoreError,
    UnplayableOrder,
)
from sevens.store.models import GameRow, GameStatus, SeatRow, TeamRow
from sevens.tournament.fixtures import as_listed as listed
from sevens.tournament.formats import Format, Stage, legal_formats
from sevens.tournament.game import Game, MatchResult, MatchSide
from sevens.tournament.knockout import record_favourite
from sevens.tournament.outlook import Outlook, describe_after, describe_outlook, game_outlook
from sevens.tournament.progress import describe_progress, final_standing, team_progress
from sevens.tournament.quoting import quoted
from sevens.tournament.record import dumps
from sevens.tournament.setup import DEFAULT_AUTOPILOT
from sevens.tournament.standings import GroupTable, Separation, TableRow, describe_separation, separations
from sevens.tournament.story import StoryMatch, TeamStory, UpNext, team_story
from sevens.web.odds_process import OddsQuestion, odds_key

__all__ = [
    "IfLevel",
    "ListedStatus",
    "OddsQuestion",
    "OrganiserView",
    "PlayerView",
    "SpectatorView",
    "autopilot_setting",
    "bdi",
    "bot_name",
    "countdown_said",
    "decimal_point",
    "ended_point",
    "default_autopilot",
    "default_bot",
    "format_choices",
    "if_level",
    "isolated",
    "link_mark",
    "link_marks",
    "listed_statuses",
    "odds_key",
    "odds_question",
    "organiser_view",
    "parse_arrangement",
    "player_view",
    "printable",
    "record_text",
    "spectator_view",
    "team_history",
    "verify",
    "watch_state",
    "who_ordered",
    "who_ordered_mark",
    "who_ordered_now",
    "own_orders_mark",
]


def ended_point(fmt: Format, played: int | None) -> str:
    """Where a game the organiser ended stood when they did, ``played`` turns resolved (None: it
    never started), in words.

    >>> four = Format(teams=16, players=4, teams_per_player=4)
    >>> ended_point(four, None), ended_point(four, 0)
    ('before it started', 'before turn 1 of 6 was played')
    >>> ended_point(four, 2), ended_point(four, 3), ended_point(four, 5)
    ('after turn 2 of 6, in the group stage', 'after turn 3 of 6, before the quarter-finals', 'after turn 5 of 6, before the final')
    """
    if played is None:
        return "before it started"
    turns = fmt.turns
    if played == 0:
        return f"before turn 1 of {turns} was played"
    stage = fmt.stages[played] if played < turns else None
    if stage is None or stage is Stage.GROUP:
        return f"after turn {played} of {turns}, in the group stage"
    return f"after turn {played} of {turns}, before the {stage}{'' if stage is Stage.FINAL else 's'}"


@dataclass(frozen=True, slots=True)
class ListedStatus:
    """A game's status for a line of the front page's lists, saying briefly what its own page says:
    ``point`` where the organiser ended it (:func:`ended_point`, with ``ended_at``), ``champion``
    the champion's name of a game played to the final."""

    status: str
    ended_at: datetime | None = None
    point: str | None = None
    champion: str | None = None


def listed_statuses(db: Session, games: Iterable[GameRow]) -> dict[int, ListedStatus]:
    """:class:`ListedStatus` of each of ``games``, by row id: a game ended early said just "ended"
    there, as if played to the end."""
    games = list(games)
    champions = store.champion_names(db, games)
    out: dict[int, ListedStatus] = {}
    for game in games:
        point = None
        if game.status is GameStatus.ENDED:
            fmt = Format(teams=game.teams, players=game.players, teams_per_player=game.teams_per_player)
            # current_turn is the open turn once started (turn 1 at the start): one more than those played.
            point = ended_point(fmt, game.current_turn - 1 if game.started_at is not None else None)
        out[game.id] = ListedStatus(game.status.value, game.ended_at, point, champions.get(game.id))
    return out


def decimal_point(text: str) -> str:
    """A number typed in a form with a decimal comma written with the point: a box that asks a
    phone for its decimal keypad gets '1,5' in much of Europe and South America, where the keypad
    has a comma and no point. A comma anywhere else is left to be refused as a point would be.

    >>> decimal_point("1,5"), decimal_point(",25"), decimal_point("1,5,5")
    ('1.5', '.25', '1.5.5')
    """
    return text.replace(",", ".")


def bot_name(bot: str, weight: str, *, field: str = "strategy") -> str:
    """The bot a form's menu and knockout-weight box name together: ``("field-reader", "1")`` is
    ``"field-reader@1"``; a blank weight leaves the bot as it is (the store checks the result).

    A weight the menu's bot does not take, one that is no number or one out of the bot's range is
    refused here, read by the bots' own parser but in the words of the form's two boxes: the
    store's refusal speaks of the name's ``@``, which the page's reader never typed.

    >>> bot_name("field-reader", " 1 "), bot_name("even", ""), bot_name("even", "1/2"), bot_name("even", "1,5")
    ('field-reader@1', 'even', 'even@1/2', 'even@1.5')
    >>> bot_name("group-blitz", "2")
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: R13: group-blitz takes no knockout weight: leave the weight box blank, or choose one of even, even-flair, even-force, odds-aware, equilibrium, field-reader
    >>> bot_name("even", "soon")
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: R13: the knockout weight must be a number such as 0.5, 1.5 or 2, got 'soon'
    >>> bot_name("field-reader", "4.5")
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: R13: field-reader leans toward a knockout weight from 0 to 4, got 4.5
    """
    bot, weight = bot.strip(), weight.strip()
    if not weight:
        return bot
    if bot not in STRATEGIES:
        return f"{bot}@{weight}"  # the store refuses an unknown bot by its menu's name
    try:
        # Every number a form takes is in the digits 0 to 9; the bots' parser reads other scripts' too.
        if not weight.isascii():
            raise WeightError(weight, "not-a-number")
        parse_knockout_weight(bot, decimal_point(weight))
    except WeightError as exc:
        # Said of the form's boxes: the parser's words name 'NAME@K' and quote all of a long paste.
        words = {
            "no-weight": f"{bot} takes no knockout weight: leave the weight box blank, or choose one of {', '.join(WEIGHTED)}",
            "not-a-number": f"the knockout weight must be a number such as 0.5, 1.5 or 2, got {quoted(weight)}",
        }.get(exc.kind, str(exc))
        raise Invalid(f"R13: {words}", field=f"{field}_weight") from None
    return f"{bot}@{decimal_point(weight)}"


_CLOCK_TIME = re.compile(r"\s*(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d))?\s*")
_UTC_OFFSET = re.compile(r"[+-]?\d{1,4}")


def clock_time(typed: str, utc_offset: str) -> datetime:
    """A deadline typed as a clock time (``2026-12-13T20:00`` as a datetime-local box sends it, or
    ``2026-12-13 20:00`` typed by hand) in the zone ``utc_offset`` minutes east of UTC, or in UTC
    when that is blank (the page's script puts the browser's offset in; without it, UTC).

    >>> clock_time("2026-12-13T20:00", "60").isoformat(), clock_time(" 2026-12-13 20:00 ", "").isoformat()
    ('2026-12-13T19:00:00+00:00', '2026-12-13T20:00:00+00:00')
    >>> clock_time("Sunday 20:00", "")
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: give the deadline as a date and time, such as 2026-12-13 20:00, got 'Sunday 20:00'
    """
    found = _CLOCK_TIME.fullmatch(typed)
    if found is None:
        raise Invalid(
            f"give the deadline as a date and time, such as 2026-12-13 20:00, got {quoted(typed)}", field="at"
        )
    offset = utc_offset.strip()
    if offset and (not _UTC_OFFSET.fullmatch(offset) or abs(int(offset)) > 18 * 60):
        # Only the page's script writes it: a hand-made form, told what the box expects.
        raise Invalid(
            f"utc_offset must be the minutes east of UTC, -1080 to 1080 (blank: the time is in UTC), got {quoted(offset)}",
            field="at",
        )
    year, month, day, hour, minute, second = (int(part or 0) for part in found.groups())
    try:
        zone = timezone(timedelta(minutes=int(offset or 0)))
        return datetime(year, month, day, hour, minute, second, tzinfo=zone).astimezone(UTC)
    except (ValueError, OverflowError):  # 2026-02-30, 25:00, or past the calendar's ends in UTC
        raise Invalid(f"{quoted(typed.strip())} is no date and time on the calendar", field="at") from None


def extend_seconds(hours: float, typed: str, what: str = "extend by") -> int:
    """An extension of ``hours`` (``typed``: as the caller wrote it), or a time left (``what``
    says which), in seconds, refused in hours outside the store's range: the store's own refusal
    counts seconds, which no caller sends.

    >>> extend_seconds(0.5, "0.5")
    1800
    >>> extend_seconds(0.01, "0.01")
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: extend by 1 minute (0.0167 hours) to 720 hours (30 days), got 0.01 hours
    >>> extend_seconds(-2, "-2", "set the time left to")
    Traceback (most recent call last):
    ...
    sevens.store.errors.Invalid: set the time left to 1 minute (0.0167 hours) to 720 hours (30 days), got -2 hours
    """
    seconds = round(hours * 3600)
    if not store.MIN_TURN_SECONDS <= seconds <= store.MAX_TURN_SECONDS:
        raise Invalid(
            f"{what} 1 minute ({store.MIN_TURN_SECONDS / 3600:.4f} hours) to "
            f"{store.MAX_TURN_SECONDS // 3600} hours (30 days), got {typed if len(typed) <= 20 else quoted(typed)} hours",
            field="hours",
        )
    return seconds


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def printable(value: object) -> object:
    r"""What a page shows of ``value``: control characters (a NUL, an escape, a bell, typed or forged
    into a form or an address and echoed back in a note or a box) as the replacement character, so
    that no page carries them raw; tabs and line ends stay. The templates pass every value they
    show through it; one already escaped stays escaped.

    >>> printable("p1\x00\x1b[31m\t") == "p1\ufffd\ufffd[31m\t", printable(7)
    (True, 7)
    >>> printable(Markup("<b>\x07</b>")) == Markup("<b>\ufffd</b>")
    True
    """
    if not isinstance(value, str):
        return value
    shown = _CONTROL.sub("\ufffd", value)
    return Markup(shown) if isinstance(value, Markup) else shown


def bdi(name: object) -> Markup:
    """A name people chose, in the text of a page, set apart from the words around it (``<bdi>``):
    one in Arabic or Hebrew, or ending in digits, would otherwise take the punctuation and numbers
    beside it into its own direction, and "League: Dan's teams" read with the two names swapped.

    >>> bdi("Ann <3")
    Markup('<bdi>Ann &lt;3</bdi>')
    """
    return Markup("<bdi>%s</bdi>") % name


_SCORE = re.compile(r"(?<![\w-])(?:(\d+)-(\d+)|t(\d+)-m(\d+))(?![\w-])")
_AFTER_SCORE = ".,;:!?)"


def match_words(match_id: str) -> str:
    """A match id as heard: "t4-m1" was read "t 4 minus m 1".

    >>> match_words("t4-m1")
    'turn 4, match 1'
    """
    turn, match = match_id[1:].split("-m")
    return f"turn {turn}, match {match}"


def scores_said(text: object) -> Markup:
    """A text with scores or shared places in it ("France win 60-51", a standing's "3-4"), shown as
    it is, each such pair said to screen readers in words: "60-51" was read "60 minus 51" (or "60
    51"), a score no longer. The same hidden words as the templates' ``said`` macro. So is a match
    id, "t4-m1" read "t 4 minus m 1": "turn 4, match 1", or "1" right after the word "match".

    >>> scores_said("Fiji win 29-10, won on tries 3-1 <b>")  # doctest: +NORMALIZE_WHITESPACE
    Markup('Fiji win <span aria-hidden="true">29-10,</span><span class="visually-hidden"> 29 to 10,</span>
    won on tries <span aria-hidden="true">3-1</span><span class="visually-hidden"> 3 to 1</span> &lt;b&gt;')
    >>> scores_said("Turn 4, match t4-m1: U-20 keep their hyphens")  # doctest: +NORMALIZE_WHITESPACE
    Markup('Turn 4, match <span aria-hidden="true">t4-m1:</span><span class="visually-hidden"> 1:</span>
    U-20 keep their hyphens')
    """
    text = str(text)
    said = []
    at = 0
    for found in _SCORE.finditer(text):
        said.append(escape(text[at : found.start()]))
        at = found.end()
        # A sign right after the score goes into both spans (as the macro's ``after``): the hidden
        # span is positioned, read as a block of its own, and "58-40." was heard "58 to 40 .".
        rest = text[at:]
        after = rest[: len(rest) - len(rest.lstrip(_AFTER_SCORE))]
        at += len(after)
        a, b, turn, match = found.groups()
        if turn is None:
            words = f"{a} to {b}"
        else:
            words = match if text[: found.start()].endswith("match ") else match_words(found.group(0))
        said.append(
            Markup('<span aria-hidden="true">%s%s</span><span class="visually-hidden"> %s%s</span>')
            % (found.group(0), after, words, after)
        )
    said.append(escape(text[at:]))
    return Markup("").join(said)


def isolated(name: object) -> str:
    """A name in a page's title, where no element can set it apart: between the Unicode marks
    that do what ``<bdi>`` does (first strong isolate ... pop directional isolate).

    >>> isolated("Ann") == "\u2068Ann\u2069"
    True
    """
    return f"\u2068{name}\u2069"


def qr_code(link: str, label: str) -> Markup:
    """``link`` as a QR code in inline SVG, for a printed sheet of invites: scanned by a phone's
    camera rather than typed (32 random characters). ``label``: its accessible name, of the
    site's own words (an invite's seat), never a name someone chose.

    >>> str(qr_code("http://h/join/x", "Seat 1")).startswith('<svg')
    True
    """
    # M: a code still read with a corner folded or smudged on paper; segno escapes nothing, so
    # the label is escaped here.
    svg = segno.make(link, error="m").svg_inline(scale=3, border=2, svgclass="qr", lineclass=None, omitsize=False)
    return Markup(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1))


def duration(seconds: int | None) -> str:
    """Seconds as people read a time left: days, hours and minutes, or seconds under a minute.

    >>> duration(45), duration(60), duration(3 * 3600 + 25 * 60 + 7), duration(2 * 86400 + 3600)
    ('45 s', '1 min', '3 h 26 min', '2 d 1 h')
    """
    if seconds is None:
        return "unknown"
    if seconds < 60:
        return f"{seconds} s"
    days, rest = divmod(-(-seconds // 60), 24 * 60)  # minutes rounded up: never "0 min" with time left
    hours, minutes = divmod(rest, 60)
    parts = [f"{days} d" if days else "", f"{hours} h" if hours else "", f"{minutes} min" if minutes else ""]
    return " ".join(p for p in parts if p)


def countdown_said(deadline: datetime, as_of: str, organiser: bool) -> str:
    """The countdown beside a deadline as the page is made (``as_of``, ISO 8601, its "Up to date
    at"), for a reader whose browser runs no script: the script writes its own over it and keeps it
    moving, while this one says the moment it counts from. It does not begin as the script's
    "(in ...)" does, so a reader (or a test) waiting for the moving countdown cannot take it for one;
    past the deadline the words are the script's.

    >>> countdown_said(datetime(2026, 5, 1, 14, 10, 30, tzinfo=UTC), "2026-05-01T12:00:40+00:00", False)
    '(2 h 10 min left as of 12:00 UTC)'
    >>> countdown_said(datetime(2026, 5, 1, 12, 0, 50, tzinfo=UTC), "2026-05-01T12:00:10+00:00", False)
    '(under 1 min left as of 12:00 UTC)'
    >>> countdown_said(datetime(2026, 5, 1, 12, 0, tzinfo=UTC), "2026-05-01T12:00:00+00:00", True)[:36]
    '(passed: orders are closed; the turn'
    """
    at = datetime.fromisoformat(as_of)
    left = (deadline - at).total_seconds()
    if left > 0:
        # As the script counts: from the minute shown as "as of" to the deadline's minute as shown
        # (both with their seconds dropped), so the three agree; the last minute is "under 1 min".
        minutes = int(deadline.timestamp() // 60 - at.timestamp() // 60)
        said = duration(minutes * 60) if minutes > 0 else "under 1 min"
        return f"({said} left as of {at.astimezone(UTC):%H:%M} UTC)"
    who = "you pause or extend the deadline first (below)" if organiser else "the organiser pauses or extends the deadline first"
    return f"(passed: orders are closed; the turn plays as soon as the server gets to it, unless {who})"


_SECONDS_DETAIL = re.compile(r"(\+?)(\d+) s( left)?")
_DEADLINE_DETAIL = re.compile(r"deadline (\d{4}-\d\d-\d\dT[\d:.]+\+00:00)")
_FIRST_DEADLINE_DETAIL = re.compile(r"turns of (\d+) s from now on; " + _DEADLINE_DETAIL.pattern)


def event_words(detail: str) -> tuple[str, datetime | None]:
    """An event's detail as the organiser page shows it: the log keeps seconds and ISO times (the
    API gives them as they are), the page a time as people read it, and a deadline as a time the
    page can put in the reader's zone. Returns the words and the deadline, if any, to follow them.

    >>> event_words("+2592000 s"), event_words("93784 s left"), event_words("turn 2 (deadline)")
    (('+30 d', None), ('1 d 2 h 4 min left', None), ('turn 2 (deadline)', None))
    >>> event_words("deadline 2027-01-02T20:17:12.830653+00:00")
    ('due', datetime.datetime(2027, 1, 2, 20, 17, 12, 830653, tzinfo=datetime.timezone.utc))
    >>> event_words("turns of 7200 s from now on; deadline 2027-01-02T20:17:12+00:00")[0]
    'turns of 2 h from now on; the first due'
    """
    seconds = _SECONDS_DETAIL.fullmatch(detail)
    if seconds:
        sign, number, left = seconds.groups()
        return f"{sign}{duration(int(number))}{left or ''}", None
    first = _FIRST_DEADLINE_DETAIL.fullmatch(detail)
    if first:
        return f"turns of {duration(int(first.group(1)))} from now on; the first due", datetime.fromisoformat(first.group(2))
    deadline = _DEADLINE_DETAIL.fullmatch(detail)
    if deadline:
        # "due": the event's words already say it is the deadline ("resumed the deadline").
        return "due", datetime.fromisoformat(deadline.group(1))
    return detail, None


# What the organiser's page says each kind of event did, as the actor's act ("organiser: extended
# the deadline"): the log keeps short kinds, which the API gives as they are.
EVENT_KIND_WORDS = {
    "created": "created the game",
    "started": "started the game",
    "resolved": "resolved",
    "finished": "the game is over",
    "not resolved": "could not resolve the turn",
    "paused": "paused the deadline",
    "resumed": "resumed the deadline",
    "extended": "extended the deadline",
    "deadline set": "set the deadline",
    "ended": "ended the game",
    "house bot": "chose a bot for a team nobody plays",
    "new invite": "made a new invite link",
    "seat signed out": "signed a seat out",
    "seat to bots": "handed a seat to the bots",
    "seat left": "left their seat",
    "organiser link": "made a new organiser link",
    "rematch": "started a rematch",
    "name removed": "removed a player's name",
}
RESOLVED_BECAUSE = {"all-ready": "every team was ready", "deadline": "at its deadline", "organiser": "at once"}
_RESOLVED_DETAIL = re.compile(r"turn (\d+) \(([\w-]+)\)")
_HOUSE_BOT_DETAIL = re.compile(r"([\w-]+): (.+)")
_CHAMPION_DETAIL = re.compile(r"champion ([\w-]+)")


_SEAT_ID = re.compile(r"p(\d+)")
_SEAT_FIRST = re.compile(r"p(\d+)\b")
_TEAM_QUOTED = re.compile(r"team '([\w-]+)'")
# The kinds of event whose detail begins with the seat's id ("p2: the old link stops working").
_SEAT_KINDS = frozenset({"new invite", "seat signed out", "seat to bots", "seat left", "name removed"})


def seat_said(player_id: str) -> str:
    """A seat as a page names it to people, by its number ("seat 3"), as the sheet of invites does;
    the API, the CSV files and the record keep its id ("p3"). Anything else is said as it is.

    >>> seat_said("p3"), seat_said("house")
    ('seat 3', 'house')
    """
    number = seat_number(player_id)
    return f"seat {number}" if number else player_id


def seat_number(player_id: str) -> str:
    """A seat's number as people read it ("3" for "p3"), where a page writes it alone (a list's
    numbering, "Seat 3" in a heading); "" for anything not a seat's id. The one rule for it,
    beside :func:`seat_said`.

    >>> seat_number("p12"), seat_number("house")
    ('12', '')
    """
    found = _SEAT_ID.fullmatch(player_id)
    return found.group(1) if found else ""


_SEAT_IN_WORDS = re.compile(r"\b([Ss]eat) p(\d+)\b")


def seats_named(text: str) -> str:
    """``text`` (a store's reason, shown on a page) with each seat its words name by id ("nobody
    has taken seat p1") named by its number instead; a quoted id ("no seat 'p9x'") stays as typed.

    >>> seats_named("nobody has taken seat p1; Seat p12 is free, no seat 'p9x'")
    "nobody has taken seat 1; Seat 12 is free, no seat 'p9x'"
    """
    return _SEAT_IN_WORDS.sub(r"\1 \2", text)


def refusal_said(exc: StoreError) -> str:
    """A store's refusal as a page says it to people: seats by number ("seat 3", not "seat p3")
    and a blocking order's team by its name, where the API and the server's log keep the ids.

    >>> refusal_said(Refused("seat p2 was signed out: this credential no longer plays it"))
    'seat 2 was signed out: this credential no longer plays it'
    >>> refusal_said(UnplayableOrder(1, team="fiji", rule="R3", part=None, team_name="Fiji"))[:62]
    'turn 1 cannot be resolved: the saved order of Fiji breaks R3 ('
    """
    said = exc.naming(exc.team_name) if isinstance(exc, UnplayableOrder) else str(exc)
    return seats_named(said)


def teams_named(text: str, name: Callable[[str], str | None]) -> str:
    """``text`` with each team its store's words quote by id ("the saved order of team 'fiji'")
    called by its name instead, as pages name teams; an id ``name`` does not know stays as it is.

    >>> teams_named("the saved order of team 'fiji' breaks R3", {"fiji": "Fiji"}.get)
    'the saved order of Fiji breaks R3'
    """
    def said(found: re.Match[str]) -> str:
        named = name(found.group(1))
        return named if named and named != found.group(1) else found.group(0)

    return _TEAM_QUOTED.sub(said, text)


_FORMER_PLAYER = re.compile(r"^(former player of |organiser \(api: former player of )p(\d+)\b")


def event_actor_said(actor: str) -> str:
    """Who acted in an event, as the organiser page names them: the log keeps a freed seat's
    former player as "former player of p3" (and a bot token so labelled as "organiser (api:
    former player of p3)"), which a person reads as seat 3's. A name a player chose stays as it is.

    >>> event_actor_said("former player of p3"), event_actor_said("organiser (api: former player of p3)")
    ('former player of seat 3', 'organiser (api: former player of seat 3)')
    >>> event_actor_said("p3")
    'p3'
    """
    return _FORMER_PLAYER.sub(r"\1seat \2", actor, count=1)


def event_said(
    kind: str, detail: str, name: Callable[[str], str | None]
) -> tuple[str, str, datetime | None]:
    """An event of the log as its line on the organiser page says it: what was done, in words, the
    detail after it (team ids as their names, from ``name``; times as :func:`event_words` gives
    them), and the deadline to follow the detail, if any. A kind this page has no words for is
    said as it is.

    >>> names = {"fiji": "Fiji"}.get
    >>> event_said("resolved", "turn 2 (all-ready)", names)
    ('resolved turn 2', 'every team was ready', None)
    >>> event_said("house bot", "fiji: cautious", names), event_said("finished", "champion fiji", names)
    (('chose a bot for a team nobody plays', 'Fiji: cautious', None), ('the game is over', 'champion Fiji', None))
    >>> event_said("extended", "+7200 s", names), event_said("a kind of later", "x", names)
    (('extended the deadline', '+2 h', None), ('a kind of later', 'x', None))
    >>> event_said("new invite", "p2: the old link stops working", names)[1]
    'seat 2: the old link stops working'
    >>> event_said("not resolved", "turn 3: the saved order of team 'fiji' breaks R3", names)[1]
    'turn 3: the saved order of Fiji breaks R3'
    """
    what = EVENT_KIND_WORDS.get(kind, kind)
    # The stored detail keeps the ids (the API gives it as it is): named here, as the page reads.
    if kind in _SEAT_KINDS:
        detail = _SEAT_FIRST.sub(lambda m: seat_said(m.group(0)), detail, count=1) if detail.startswith("p") else detail
    elif kind == "not resolved":
        detail = teams_named(detail, name)
    resolved = _RESOLVED_DETAIL.fullmatch(detail) if kind == "resolved" else None
    if resolved:
        turn, because = resolved.groups()
        return f"resolved turn {turn}", RESOLVED_BECAUSE.get(because, because), None
    bot = _HOUSE_BOT_DETAIL.fullmatch(detail) if kind == "house bot" else None
    if bot:
        return what, f"{name(bot.group(1)) or bot.group(1)}: {bot.group(2)}", None
    champion = _CHAMPION_DETAIL.fullmatch(detail) if kind == "finished" else None
    if champion:
        return what, f"champion {name(champion.group(1)) or champion.group(1)}", None
    words, due = event_words(detail)
    return what, words, due


def default_bot() -> str:
    """The bot of the teams nobody plays when the organiser picks none."""
    return DEFAULT_BOT


def default_autopilot() -> str:
    """The autopilot of a manager who has chosen none, when the organiser picks none for the game."""
    return DEFAULT_AUTOPILOT


def orders_due(db: Session, game: GameRow, player_id: str) -> int:
    """How many of the player's teams in play still have no ready order this turn (0 when the
    game is not taking orders)."""
    mine = {t.team_id for t in store.teams_of(db, game_id=game.id) if t.player_id == player_id}
    states = store.order_states(db, game=game)
    return sum(1 for team, state in states.items() if team in mine and state is not store.OrderState.READY)


LIVE = (GameStatus.LOBBY, GameStatus.RUNNING, GameStatus.PAUSED)
"""The states in which a game's pages follow it (their script polls :func:`live_version`)."""


def live_version(
    db: Session,
    game: GameRow,
    *,
    organiser: bool,
    principal_id: int | None,
    now: datetime,
    shown: OrganiserView | None = None,
    rows: tuple[list[SeatRow], list[TeamRow]] | None = None,
) -> str:
    """A short text that changes whenever a game's pages would show something new: its state,
    turn and deadline, and its rematch once the caller (``principal_id``) may see it; for its
    organiser also the seats taken, the seats some browser or token plays now (the organiser page's
    *Joined* says which were left, by a sign-out or a revoked token), how many entries the event log
    holds (each organiser act adds one: a new invite link, a bot chosen, from another tab too), how
    many orders stand where (never whose or what, R13) and that a rematch was made at all (the
    organiser page says so, not where), and which seats' invite links have expired by ``now`` (the
    organiser page stops offering a dead link without a reload; the seats are read for the other
    parts anyway, so this costs no statement); for anyone else in the lobby, how many seats are
    taken (their pages say so). Spectators' and players' versions do not move when orders come in,
    nor for a private rematch they may not see.
    ``shown``: the organiser view this request has built already, whose seats and order states
    are counted rather than read again. ``rows``: the game's seats and teams, if read already.
    """
    parts = [game.status.value, str(game.current_turn), str(game.deadline_at), str(game.paused_remaining)]
    sequel = store.rematch_of(db, game=game, principal_id=principal_id)
    if sequel is not None:
        parts.append(f"rematch {sequel.public_id}")
    elif organiser and game.rematch_id is not None:
        parts.append("rematched")
    if game.status is GameStatus.LOBBY and not organiser:
        # The lobby's pages say how many seats are taken (never by whom they are taken, nor links).
        parts.append(f"{store.count_seats_taken(db, game_id=game.id)} taken")
    if organiser and shown is not None:
        states = sorted(shown.order_states.values())
        played, logged = sorted(shown.held), len(shown.events)
        parts += [str(sum(joined for _, _, joined in shown.public.seats)), ",".join(played), ",".join(states)]
        expired = sorted(pid for pid, (state, _) in shown.invites.items() if state == "expired")
        parts += [f"{logged} events", "expired " + ",".join(expired)]
    elif organiser:
        seats, teams = rows if rows is not None else (store.seats_of(db, game_id=game.id), None)
        states = sorted(state.value for state in store.order_states(db, game=game, seats=seats, teams=teams).values())
        played, logged = sorted(seats_held(db, game_id=game.id)), store.count_events(db, game_id=game.id)
        parts += [str(sum(s.joined_at is not None for s in seats)), ",".join(played), ",".join(states)]
        expired = sorted(s.player_id for s in seats if invite_state(s, now=now) is InviteState.EXPIRED)
        parts += [f"{logged} events", "expired " + ",".join(expired)]
    return "/".join(parts)


def watch_state(
    db: Session, game: GameRow, *, organiser: bool, principal_id: int | None, now: datetime
) -> dict[str, Any]:
    """Where the game stands, for anyone polling it (the pages' script, a bot): its status, the
    open turn (null unless running or paused) and :func:`live_version`, which moves only when
    something that caller may see has changed (R13).
    """
    return {
        "status": game.status.value,
        "turn": game.current_turn if game.status in (GameStatus.RUNNING, GameStatus.PAUSED) else None,
        "version": live_version(db, game, organiser=organiser, principal_id=principal_id, now=now),
    }


def who_ordered_now(
    db: Session, game: GameRow, player_id: str, rows: tuple[list[SeatRow], list[TeamRow]] | None = None
) -> tuple[TurnTeam, ...]:
    """:attr:`PlayerView.who_ordered` alone, as the player's page's script polls it (through
    :func:`who_ordered_mark`): empty unless a turn is open. ``rows``: the game's seats and teams,
    if read already."""
    if game.status not in (GameStatus.RUNNING, GameStatus.PAUSED):
        return ()
    seats, teams = rows if rows is not None else (None, store.teams_of(db, game_id=game.id))
    states = {team: s.value for team, s in store.order_states(db, game=game, seats=seats, teams=teams).items()}
    managers = {t.team_id: t.player_id for t in teams}
    return who_ordered(store.load_game(game), states, managers, player_id)


def own_orders_mark(db: Session, game: GameRow, player_id: str) -> str:
    """A short mark of player ``player_id``'s own orders in the open turn and their teams'
    autopilots (empty unless a turn is open): the player's page compares it with the one it was
    shown, so that a tab or device left showing an order another one has since replaced reloads,
    rather than show "ready" beside an order that is not the one the turn will play. It goes only
    to that player, and tells nothing of the orders to anyone else (R13)."""
    if game.status not in (GameStatus.RUNNING, GameStatus.PAUSED):
        return ""
    own = store.own_teams_now(db, game_id=game.id, turn=game.current_turn, player_id=player_id)
    text = ";".join(f"{team}={autopilot}:{order}" for team, autopilot, order in own)
    return hashlib.sha256(f"sevens own orders {game.current_turn} {text}".encode()).hexdigest()[:16]


def link_mark(stored_hash: str) -> str:
    """A short mark of one link (the organiser link, or a seat's invite), made from the hash the
    store keeps of it: it changes when a new link replaces that one, so that a page showing the
    link can tell it no longer works, and it tells nothing of the link.

    >>> link_mark("0" * 64) == link_mark("0" * 64) != link_mark("1" * 64)
    True
    >>> len(link_mark("0" * 64))
    16
    """
    return hashlib.sha256(f"sevens link mark {stored_hash}".encode()).hexdigest()[:16]


def link_marks(db: Session, game: GameRow, *, organiser: bool, player_id: str | None) -> dict[str, str]:
    """The marks (:func:`link_mark`) of the links a caller may have been shown: to the organiser
    the organiser link's (``"organiser"``) and every seat's invite (by seat); to a player only
    their own seat's (a link for another device)."""
    marks = {"organiser": link_mark(game.organiser_link_hash)} if organiser else {}
    for seat in store.seats_of(db, game_id=game.id):
        if organiser or seat.player_id == player_id:
            marks[seat.player_id] = link_mark(seat.invite_hash)
    return marks


def format_choices() -> list[tuple[str, str]]:
    """Every legal arrangement for 4 to 16 players as (value, label) for the create form (R12)."""
    choices = []
    for players in range(4, 17):
        for fmt in legal_formats(players):
            value = f"{fmt.players}-{fmt.teams}-{fmt.teams_per_player}"
            house = f", {fmt.house_teams} house" if fmt.house_teams else ""
            choices.append(
                (value, f"{fmt.players} players: {fmt.teams} teams, {fmt.teams_per_player} each{house}")
            )
    return choices


def parse_arrangement(value: str) -> tuple[int, int, int]:
    """``"players-teams-per_player"`` from the create form, as numbers.

    >>> parse_arrangement("4-8-2")
    (4, 8, 2)
    """
    parts = value.strip().split("-")
    # ASCII digits only: "²" passes isdigit() and int() then refuses it.
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
        raise Invalid(
            f"R12: choose an arrangement of players and teams from the list; got {quoted(value)}", field="arrangement"
        )
    players, teams, per_player = (int(p) for p in parts)
    return players, teams, per_player


@dataclass(frozen=True, slots=True)
class TeamInfo:
    """A team as everyone may see it."""

    id: str
    name: str
    group: str
    manager: str  # display name, or "house"
    scrum: int
    in_play: bool
    # The bot that plays it because nobody plays its seat (a house team, a seat not taken, a seat
    # handed to the bots); None for a team a player manages, whose autopilot is theirs alone.
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class SpectatorView:
    """What anyone allowed to watch the game sees; nothing of an unresolved turn's orders."""

    game: GameRow
    status: str
    format: Format
    state: Game | None
    teams: dict[str, TeamInfo]
    seats: list[tuple[str, str, bool]]  # (player id, display name, joined)
    tables: dict[str, GroupTable]
    history: list[tuple[int, str, list[MatchResult]]]  # (turn, stage, matches)
    fixtures: list[tuple[str, str, str, str]]  # (match id, stage, home, away) of the open turn
    # (stage, [(report, home, away, result)]): report, the match's id once played (its report is
    # #match-<id> on the page), else empty
    bracket: list[tuple[str, list[tuple[str, str, str, str]]]]
    seed: str | None
    deadline: datetime | None
    champion: str | None
    unclaimed: frozenset[str] = frozenset()  # teams whose seat nobody has taken: bots in all but name
    handed_over: frozenset[str] = frozenset()  # teams of seats handed to the bots, not taken over since
    seat_bots: dict[int, dict[str, str]] = field(default_factory=dict)  # per turn resolved: store.seat_bots
    # once the final is played: (place, team, how far it went), the champion first (progress.final_standing)
    standing: tuple[tuple[str, str, str], ...] = ()
    # per group: what put each team above the next one on the same league points (R8)
    separations: dict[str, tuple[Separation, ...]] = field(default_factory=dict)

    def name(self, team: str) -> str:
        """A team's display name."""
        info = self.teams.get(team)
        return info.name if info else team

    def separation_words(self, s: Separation) -> str:
        """What put one team above the next on the same league points, with both figures, as a
        group table's reader checks it (:func:`sevens.tournament.standings.separations`)."""
        return describe_separation(s, self.name)

    def manager_words(self, team: str) -> tuple[str | None, str]:
        """Who manages ``team``, as the Teams table and the CSV files both say it: the person's name
        (None for a house team or a seat not taken) and the words after it, with the bot that plays
        it for nobody (public: the odds name it to each opponent).

        >>> view = SpectatorView(None, "running", None, None, {"t1": TeamInfo("t1", "Fiji", "A", "house", 100, True, "even")},
        ...     [], {}, [], [], [], None, None, None)  # type: ignore[arg-type]
        >>> view.manager_words("t1")
        (None, 'house team (bot: even)')
        """
        info = self.teams[team]
        bot = f" (bot: {info.bot})" if info.bot else ""
        if info.manager == "house":
            return None, f"house team{bot}"
        if team in self.handed_over:
            return info.manager, f", handed to the bots{bot}"
        if team in self.unclaimed:
            return None, f"not taken{bot}"
        return info.manager, bot

    def played_by_bot(self, team: str) -> bool:
        """Whether a bot plays ``team`` for nobody: a house team, a seat not taken or one handed to
        the bots (:meth:`manager_words` names no person or says so)."""
        return self.teams[team].manager == "house" or team in self.unclaimed or team in self.handed_over

    def bots_then(self, turn: int) -> dict[str, str]:
        """The teams a bot played in resolved ``turn`` because nobody played their seat then:
        ``unclaimed`` or ``released``, as kept when it was resolved. A turn resolved before that
        was kept gets how each seat stands now (the best known)."""
        if turn in self.seat_bots:
            return self.seat_bots[turn]
        now = {team: "released" for team in self.handed_over}
        return now | {team: "unclaimed" for team in self.unclaimed if team not in now}

    def ended_point(self) -> str:
        """Where a game the organiser ended stood when they did (:func:`ended_point`)."""
        return ended_point(self.format, None if self.state is None else len(self.state.turns))

    @property
    def listed_fixtures(self) -> list[tuple[str, str, str, str]]:
        """The open turn's matches as the pages list them (:func:`as_listed`): a knockout round in
        the order of its bracket, which stands beside them; ``fixtures`` keeps the match order."""
        return as_listed(self.fixtures[0][1], self.fixtures) if self.fixtures else []

    @property
    def listed_history(self) -> list[tuple[int, str, list[MatchResult]]]:
        """The resolved turns, each with its matches as the pages list them (:func:`as_listed`);
        ``history`` keeps the match order, as the record, the API and the CSV files have it."""
        return [(number, stage, as_listed(stage, matches)) for number, stage, matches in self.history]

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data (the API's game document)."""
        return {
            "id": self.game.public_id,
            "name": self.game.name,
            "status": self.status,
            "visibility": self.game.visibility.value,
            "format": self.format.to_dict(),
            "turn": self.game.current_turn if self.status in ("running", "paused") else None,
            "stage": None if self.state is None or self.state.stage is None else str(self.state.stage),
            "deadline": None if self.deadline is None else self.deadline.isoformat(),
            # Seconds the paused clock keeps (null unless paused): the pages tell everyone.
            "paused_remaining": self.game.paused_remaining if self.status == "paused" else None,
            "resolve_when": "deadline" if self.game.turn_seconds else "all-ready",
            "default_bot": self.game.default_bot,
            "default_autopilot": self.game.default_autopilot,
            "seed_sha256": self.game.seed_sha256,
            "seed": self.seed,
            "champion": self.champion,
            # When it ended (the final played, or the organiser ending it): the pages say so.
            "ended_at": None if self.game.ended_at is None else self.game.ended_at.isoformat(),
            "standing": [{"place": place, "team": team, "went": went} for place, team, went in self.standing],
            "seats": [{"player": p, "name": n, "joined": j} for p, n, j in self.seats],
            "teams": [
                {
                    "id": t.id,
                    "name": t.name,
                    "group": t.group,
                    "manager": t.manager,
                    "scrum": t.scrum,
                    "in_play": t.in_play,
                    "bot": t.bot,
                }
                for t in self.teams.values()
            ],
            "fixtures": [{"match": m, "stage": s, "home": h, "away": a} for m, s, h, a in self.fixtures],
            "tables": {letter: table.to_dict() for letter, table in self.tables.items()},
            "turns": [
                {"turn": n, "stage": stage, "matches": [_match_dict(m) for m in matches]}
                for n, stage, matches in self.history
            ],
        }


@dataclass(frozen=True, slots=True)
class TeamHistory:
    """One team's tournament as anyone who may watch the game sees it: its story
    (:func:`sevens.tournament.story.team_story`, resolved turns only, R13), none before the game
    starts, and for each match the bots that played seats nobody played then
    (:meth:`SpectatorView.bots_then`), which its report names."""

    view: SpectatorView
    team: str
    story: TeamStory | None
    matches: tuple[tuple[StoryMatch, dict[str, str]], ...]

    @property
    def progress(self) -> str:
        """How far it went (:func:`sevens.tournament.progress.describe_progress`)."""
        return "" if self.story is None else self.story.said

    @property
    def next_match(self) -> UpNext | None:
        """Its match in the open turn, if any: whom it plays, no order (R13)."""
        return None if self.story is None else self.story.next_match


def team_history(view: SpectatorView, team: str) -> TeamHistory:
    """``team``'s page (:class:`TeamHistory`), from the game's public view."""
    if view.state is None:
        return TeamHistory(view, team, None, ())
    story = team_story(view.state, team, view.name, ended=view.status == "ended")
    return TeamHistory(view, team, story, tuple((m, view.bots_then(m.turn)) for m in story.matches))


def _side_dict(side: MatchSide) -> dict[str, Any]:
    return {
        "team": side.team,
        "order": side.order.to_dict(),
        "missed": side.missed,
        "autopilot": side.autopilot,
        "dice": side.dice.to_dict(),
        "line": {
            "tries": side.line.tries,
            "conversions": side.line.conversions,
            "penalties": side.line.penalties,
            "drop_goals": side.line.drop_goals,
            "points": side.line.points,
        },
        "scrum_before": side.scrum_before,
        "scrum_after": side.scrum_after,
    }


def _match_dict(match: MatchResult) -> dict[str, Any]:
    return {
        "match": match.fixture.id,
        "home": _side_dict(match.home),
        "away": _side_dict(match.away),
        "winner": match.winner,
        "decided_by": None if match.decided_by is None else str(match.decided_by),
        "summary": match.summary,
    }


_M = TypeVar("_M")


def as_listed(stage: str, matches: Sequence[_M]) -> list[_M]:
    """A turn's matches (or fixtures) in the one order every page lists them
    (:func:`sevens.tournament.fixtures.as_listed`), the stage as a view keeps it, in words.

    >>> as_listed("quarter-final", ["qf1", "qf2", "qf3", "qf4"]), as_listed("group", ["m1", "m2", "m3", "m4"])
    (['qf1', 'qf3', 'qf2', 'qf4'], ['m1', 'm2', 'm3', 'm4'])
    """
    return listed(Stage(stage), matches)


def spectator_view(
    db: Session, game: GameRow, *, seat_rows: list[SeatRow] | None = None, team_rows: list[TeamRow] | None = None
) -> SpectatorView:
    """The public view of a game (R13: resolved turns only); ``seat_rows`` and ``team_rows``: its
    seats and teams, if read already."""
    fmt = Format(teams=game.teams, players=game.players, teams_per_player=game.teams_per_player)
    rows = store.seats_of(db, game_id=game.id) if seat_rows is None else seat_rows
    seats = [(s.player_id, store.seat_name(s), s.joined_at is not None) for s in rows]
    names = {pid: name for pid, name, _ in seats}
    empty_seats = {pid for pid, _, joined in seats if not joined}
    handed_over = {s.player_id for s in rows if store.handed_to_bots(s)}
    state = None if game.record_json is None else store.load_game(game)
    teams: dict[str, TeamInfo] = {}
    tables: dict[str, GroupTable] = {}
    split: dict[str, tuple[Separation, ...]] = {}
    history: list[tuple[int, str, list[MatchResult]]] = []
    fixtures: list[tuple[str, str, str, str]] = []
    bracket: list[tuple[str, list[tuple[str, str, str, str]]]] = []
    if state is not None:
        # After the end (final played, or ended early) no team plays on.
        playing = set(state.teams_in_play()) if game.status in LIVE else set()
        scrums = state.scrums()
        # The bots of the teams nobody plays are public (the odds name them to each opponent); a
        # manager's autopilot is not, so the teams' rows are read only when there are such teams.
        nobody = {team.id for team in state.setup.teams if team.manager is None or team.manager in empty_seats}
        if nobody and team_rows is None:
            team_rows = store.teams_of(db, game_id=game.id)
        bots = {t.team_id: t.autopilot or game.default_bot for t in team_rows or () if t.team_id in nobody}
        for team in state.setup.teams:
            manager = "house" if team.manager is None else names.get(team.manager, team.manager)
            teams[team.id] = TeamInfo(
                team.id, team.name, team.group, manager, scrums[team.id], team.id in playing, bots.get(team.id)
            )
        tables = state.tables()
        split = {letter: separations(table, state.group_results(letter)) for letter, table in tables.items()}
        history = [(t.number, str(t.stage), list(t.matches)) for t in state.turns]
        if game.status in (GameStatus.RUNNING, GameStatus.PAUSED):
            fixtures = [(f.id, str(f.stage), f.home, f.away) for f in state.fixtures()]
        for turn in state.turns:
            if turn.stage.knockout:
                bracket.append(
                    (
                        str(turn.stage),
                        [
                            (
                                m.fixture.id,
                                m.home.team,
                                m.away.team,
                                # the summary gives the winner's figures first
                                f"{teams[m.winner].name} win {m.summary}" if m.winner else m.summary,
                            )
                            for m in as_listed(str(turn.stage), turn.matches)
                        ],
                    )
                )
        if fixtures and fixtures[0][1] != "group" and game.status in (GameStatus.RUNNING, GameStatus.PAUSED):
            bracket.append((fixtures[0][1], [("", h, a, "to play") for _, _, h, a in as_listed(fixtures[0][1], fixtures)]))
    return SpectatorView(
        game=game,
        status=game.status.value,
        format=fmt,
        state=state,
        teams=teams,
        seats=seats,
        tables=tables,
        history=history,
        fixtures=fixtures,
        bracket=bracket,
        seed=store.revealed_seed(game),
        deadline=game.deadline_at,
        champion=game.champion,
        unclaimed=frozenset(
            team.id for team in (state.setup.teams if state is not None else ()) if team.manager in empty_seats
        ),
        handed_over=frozenset(
            team.id for team in (state.setup.teams if state is not None else ()) if team.manager in handed_over
        ),
        seat_bots=store.seat_bots(game),
        separations=split,
        standing=()
        if state is None
        else tuple(
            (p.place, p.team, describe_progress(team_progress(state, p.team), lambda t: teams[t].name))
            for p in final_standing(state)
        ),
    )


@dataclass(frozen=True, slots=True)
class OrganiserView:
    """The public view, plus seats, the event log and who has ordered (never what, R13)."""

    public: SpectatorView
    order_states: dict[str, str]
    events: list[tuple[datetime, str, str, str]]
    paused_remaining: int | None
    invites: dict[str, tuple[str, datetime | None]]  # per seat: open, used or expired; valid until
    house_bots: dict[str, str] = field(default_factory=dict)  # teams nobody plays: their bot
    bots: tuple[str, ...] = field(default_factory=tuple)
    held: frozenset[str] = frozenset()  # seats some browser or bot token plays now
    released: frozenset[str] = frozenset()  # seats taken once, handed to the bots since (named, not joined)
    unresolved: str | None = None  # why the scheduler could not resolve the open turn at its deadline, if it could not

    def to_dict(self) -> dict[str, Any]:
        data = self.public.to_dict()
        data["order_states"] = self.order_states
        data["house_bots"] = self.house_bots
        data["invites"] = {
            pid: {"state": state, "expires_at": None if until is None else until.isoformat(), "played": pid in self.held}
            for pid, (state, until) in self.invites.items()
        }
        data["events"] = [
            {"at": at.isoformat(), "actor": a, "kind": k, "detail": d} for at, a, k, d in self.events
        ]
        data["paused_remaining"] = self.paused_remaining
        return data


def organiser_view(
    db: Session, game: GameRow, *, now: datetime, held: frozenset[str] | None = None
) -> OrganiserView:
    """What the organiser sees (``now`` tells an open invite from an expired one; ``held``, the
    seats some credential plays, read here unless the caller already read them with its access)."""
    # Seats and teams are read once here and handed to each part that needs them.
    seats = store.seats_of(db, game_id=game.id)
    taking_orders = game.status in (GameStatus.RUNNING, GameStatus.PAUSED)
    teams = store.teams_of(db, game_id=game.id) if taking_orders else []
    orders = store.order_states(db, game=game, seats=seats, teams=teams)
    states = {team: state.value for team, state in orders.items()}
    event_rows = store.events_of(db, game_id=game.id)
    events = [(e.at, e.actor, e.kind, e.detail) for e in event_rows]
    invites = {s.player_id: (invite_state(s, now=now).value, s.invite_expires_at) for s in seats}
    public = spectator_view(db, game, seat_rows=seats, team_rows=teams if taking_orders else None)
    house = {
        t.team_id: t.autopilot or game.default_bot
        for t in store.house_teams(db, game=game, state=public.state, seats=seats, teams=teams)
    }
    if held is None:
        held = frozenset(seats_held(db, game_id=game.id))
    # A seat handed to the bots after the start keeps its name (the record's) but nobody has it.
    released = frozenset(s.player_id for s in seats if store.handed_to_bots(s))
    return OrganiserView(
        public, states, events, game.paused_remaining, invites, house, store.strategy_names(), held, released,
        store.unresolved_now(game, event_rows),
    )


@dataclass(frozen=True, slots=True)
class IfLevel:
    """What a knockout match falls back on if it ends level after count-back (R9): both teams'
    group records, the player's team first. All of it is public (the final group tables)."""

    records: tuple[TableRow, TableRow]
    favours: str | None  # the team the records put through; None: level on all five, lots decide
    decided_on: str | None  # the first count that differs ("league points", ...)
    explanation: str
    figures: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "explanation": self.explanation,
            "figures": self.figures,
            "favours": self.favours,
            "decided_on": self.decided_on,
            "records": [
                {
                    "team": row.team,
                    "league_points": row.league_points,
                    "tries_for": row.tries_for,
                    "points_for": row.points_for,
                    "tries_against": row.tries_against,
                    "points_against": row.points_against,
                }
                for row in self.records
            ],
        }


def if_level(mine: TableRow, theirs: TableRow, name: Callable[[str], str]) -> IfLevel:
    """What decides a knockout match of ``mine`` against ``theirs`` left level after count-back,
    in words (``name``: a team's display name).

    >>> from sevens.tournament.standings import Criterion
    >>> a = TableRow("fiji", 1, 3, 3, 0, 0, 9, 2, 51, 10, 6, Criterion.LEAGUE_POINTS)
    >>> b = TableRow("samoa", 2, 3, 2, 0, 1, 7, 5, 40, 30, 4, Criterion.LEAGUE_POINTS)
    >>> said = if_level(b, a, str.title)
    >>> said.explanation
    'If the match ends level (on points, then tries, conversions and drop goals), the team with the better group record goes through (R9): here Fiji, on league points 6-4.'
    >>> said.figures
    'Group records: Samoa 4 league points, 7 tries and 40 points scored, 5 tries and 30 points conceded; Fiji 6 league points, 9 tries and 51 points scored, 2 tries and 10 points conceded.'
    >>> if_level(a, a, str.title).explanation.endswith("the records are level too, so lots would decide.")
    True
    """
    when = (
        "If the match ends level (on points, then tries, conversions and drop goals), "
        "the team with the better group record goes through (R9): "
    )
    favoured = record_favourite(mine, theirs)
    if favoured is None:
        verdict = "the records are level too, so lots would decide."
    else:
        team, label, first, second = favoured
        verdict = f"here {name(team)}, on {label} {first}-{second}."
    figures = "; ".join(
        f"{name(row.team)} {row.league_points} league points, {row.tries_for} tries and {row.points_for} "
        f"points scored, {row.tries_against} tries and {row.points_against} points conceded"
        for row in (mine, theirs)
    )
    return IfLevel(
        records=(mine, theirs),
        favours=None if favoured is None else favoured[0],
        decided_on=None if favoured is None else favoured[1],
        explanation=when + verdict,
        figures=f"Group records: {figures}.",
    )


WHO_ORDERED_STATES = ("none", "saved", "ready", "unclaimed", "released", "house")
"""Where a team in play stands in the open turn, as a player's page lists them (waiting ones
first): no order yet, saved but not ready, ready, a seat nobody has taken (its autopilot plays),
a seat handed to the bots (its bot plays), a house team (its bot plays). Whether, never what (R13)."""

AWAITED_STATES = ("none", "saved")
"""The :data:`WHO_ORDERED_STATES` a turn waits for: the team's manager has still to mark an order ready."""


@dataclass(frozen=True, slots=True)
class TurnTeam:
    """One team in play in the open turn, and whether it has ordered (never what, R13)."""

    team: str
    state: str  # one of WHO_ORDERED_STATES
    mine: bool  # one of the player's own teams

    def to_dict(self) -> dict[str, Any]:
        return {"team": self.team, "state": self.state, "mine": self.mine}


def who_ordered(
    state: Game | None, order_states: dict[str, str], managers: dict[str, str | None], player_id: str
) -> tuple[TurnTeam, ...]:
    """Every team in play in the open turn with where its order stands, for a player: those the
    turn waits for first (no order, then saved), then the ready ones, then the teams bots play
    (unclaimed seats, seats handed to the bots, house teams), each group in the draw's order.
    ``state``: the game, None unless a turn is open; ``order_states``: the store's
    (:func:`sevens.store.games.order_states`, as values), which leaves out house teams; ``managers``: each team's manager (None for a house
    team).
    """
    if state is None:
        return ()
    found = [
        TurnTeam(team, order_states.get(team, "house"), managers.get(team) == player_id)
        for team in state.teams_in_play()
        if team in order_states or (team in managers and managers[team] is None)
    ]
    rank = {name: place for place, name in enumerate(WHO_ORDERED_STATES)}
    return tuple(sorted(found, key=lambda t: rank[t.state]))


def autopilot_setting(bot: str) -> str:
    """What a team's autopilot is set to, in the few words the player's page shows on its folded
    menu and weight box ("Autopilot: ..."): the bot and, for a bot that takes one, the knockout
    weight (blank: the bot's own), so that a player sees what plays a missed order without opening
    the controls.

    >>> autopilot_setting("even@1.5"), autopilot_setting("equilibrium")
    ('even, knockout weight 1.5', "equilibrium, knockout weight: the bot's own")
    >>> autopilot_setting("group-blitz"), autopilot_setting("field-reader@ 1")
    ('group-blitz', 'field-reader, knockout weight 1')
    """
    base, _, weight = bot.partition("@")
    if weight.strip():
        return f"{base}, knockout weight {weight.strip()}"
    return f"{base}, knockout weight: the bot's own" if base in WEIGHTED else base


def _ordinal(n: int) -> str:
    """``n`` as a place: 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st.

    >>> [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    last = n % 10 if n % 100 not in (11, 12, 13) else 0
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(last, 'th')}"


def place_words(place: str) -> str:
    """A place of the final standing (``"1"``, or ``"3-4"`` shared by teams out at the same stage)
    in words.

    >>> place_words("1"), place_words("3-4"), place_words("9-16")
    ('1st', 'shared 3rd to 4th', 'shared 9th to 16th')
    """
    first, _, last = place.partition("-")
    return f"shared {_ordinal(int(first))} to {_ordinal(int(last))}" if last else _ordinal(int(first))


def who_ordered_mark(entries: tuple[TurnTeam, ...]) -> str:
    """A short mark of a player's list of who has ordered, that changes when any team's state in
    it does: the page's script compares it with the one it was shown to refresh the list in place.

    >>> who_ordered_mark(()) == who_ordered_mark(()) != who_ordered_mark((TurnTeam("fiji", "ready", True),))
    True
    """
    text = ",".join(f"{t.team}={t.state}" for t in entries)
    return hashlib.sha256(f"sevens who ordered {text}".encode()).hexdigest()[:16]


def _count(n: int, one: str, many: str = "") -> str:
    """``n`` things in words.

    >>> _count(1, "try", "tries"), _count(0, "try", "tries"), _count(2, "drop goal")
    ('1 try', '0 tries', '2 drop goals')
    """
    return f"{n} {one if n == 1 else many or one + 's'}"


def last_match(game: Game, team: str, name: Callable[[str], str]) -> str:
    """The team's latest played match in a sentence, for its card on the player's page: what it
    did with its order, so a newcomer need not look for it among the reports (the sentence names
    the match, whose report has its id, with no link: the next Tab after a turn resolved goes to
    the first order box); "" before its first."""
    for turn in reversed(game.turns):
        for m in turn.matches:
            if team not in (m.home.team, m.away.team):
                continue
            side = m.side(team)
            other = m.away.team if side is m.home else m.home.team
            verb = "drew with" if m.winner is None else "beat" if m.winner == team else "lost to"
            score = m.summary.removesuffix(", a draw")
            line = side.line
            won = " (the win's 10 included)" if m.winner == team else ""
            # A missed order was the autopilot's (R13), not one the player sent.
            whose = "Your autopilot's order (you sent none):" if side.missed else "Your order"
            return (
                f"Turn {turn.number}, match {m.fixture.id}: {verb} {name(other)}, {score}. {whose} {side.order.force} FORCE + "
                f"{side.order.flair} FLAIR scored {line.points} ({_count(line.tries, 'try', 'tries')}, "
                f"{_count(line.conversions, 'conversion')}, {_count(line.penalties, 'penalty', 'penalties')}, "
                # In words: a screen reader read "100 → 92" as "100 right arrow 92".
                f"{_count(line.drop_goals, 'drop goal')}); SCRUM "
                f"from {side.scrum_before} to {side.scrum_after}{won}. Its dice are in the match reports below."
            )
    return ""


@dataclass(frozen=True, slots=True)
class MyTeam:
    """One of the player's teams, with its current order (visible to this player only)."""

    info: TeamInfo
    opponent: str | None
    opponent_scrum: int | None
    match: str | None
    order: dict[str, Any] | None  # {"force", "flair", "ready"} for the open turn
    autopilot: str
    progress: str = ""  # how far it has gone, in a sentence ("Out in the semi-final: lost to ...")
    if_level: IfLevel | None = None  # a knockout match this turn: what decides it if it ends level
    matches_left: int | None = None  # in the open turn: its matches left if it keeps winning, this one included
    outlook: str = ""  # an open group match: what a win, a draw and a loss lead to (sevens.tournament.outlook)
    outlook_after: dict[str, dict[str, str]] | None = None  # the same per own result: {"win": {"verdict", "words"}, ...}
    last: str = ""  # its latest match in a sentence (last_match)
    odds_key: str = ""  # an open match: what its odds depend on besides the draft (odds_process.odds_key)
    autopilot_chosen: bool = False  # its manager picked the autopilot (else the game's default plays)

    @property
    def autopilot_setting(self) -> str:
        """:func:`autopilot_setting` of this team's autopilot, said by its folded controls."""
        return autopilot_setting(self.autopilot)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """The public view plus the player's own teams and orders."""

    public: SpectatorView
    player_id: str
    name: str
    teams: list[MyTeam]
    order_states: dict[str, str]
    bots: tuple[str, ...] = field(default_factory=tuple)
    who_ordered: tuple[TurnTeam, ...] = ()  # the open turn's teams in play: whether each has ordered

    @property
    def who_ordered_mark(self) -> str:
        """:func:`who_ordered_mark` of this view's list, which the page's script compares."""
        return who_ordered_mark(self.who_ordered)

    @property
    def waiting_for(self) -> tuple[tuple[str, int], ...] | None:
        """Once every one of the player's teams in the open turn is ready: the players the turn
        still waits for, each with how many of their teams are not ready (whether, never what,
        R13), in the list's order; None while a team of theirs is not ready or no turn is open.
        A newcomer who had marked every order ready saw the same forms as before and no word that
        there was nothing left to do."""
        mine = [t for t in self.who_ordered if t.mine]
        if not mine or any(t.state != "ready" for t in mine):
            return None
        counts: dict[str, int] = {}
        for t in self.who_ordered:
            if not t.mine and t.state in AWAITED_STATES:
                manager = self.public.teams[t.team].manager
                counts[manager] = counts.get(manager, 0) + 1
        return tuple(counts.items())

    @property
    def my_standing(self) -> tuple[tuple[str, str, str], ...]:
        """Once the final is played, the player's own teams in the final standing, best first:
        (place in words, team, how far it went). A player whose teams lost read only "finished:
        champion X" and each team's stage, with no place: the standing was on the game page."""
        mine = {t.info.id for t in self.teams}
        return tuple((place_words(p), team, went) for p, team, went in self.public.standing if team in mine)

    def to_dict(self) -> dict[str, Any]:
        data = self.public.to_dict()
        data["me"] = {"player": self.player_id, "name": self.name}
        data["order_states"] = self.order_states
        data["who_ordered"] = [t.to_dict() for t in self.who_ordered]
        data["my_teams"] = [
            {
                "team": t.info.id,
                "name": t.info.name,
                "group": t.info.group,
                "scrum": t.info.scrum,
                "in_play": t.info.in_play,
                "match": t.match,
                "opponent": t.opponent,
                "opponent_scrum": t.opponent_scrum,
                "order": t.order,
                "autopilot": t.autopilot,
                "progress": t.progress,
                "if_level": None if t.if_level is None else t.if_level.to_dict(),
                "matches_left": t.matches_left,
                "outlook": None if t.outlook_after is None else {"text": t.outlook, **t.outlook_after},
            }
            for t in self.teams
        ]
        return data


_OUTLOOKS: OrderedDict[tuple[bytes, str], Outlook | None] = OrderedDict()
_OUTLOOKS_KEPT = 256
_OUTLOOKS_LOCK = threading.Lock()


def _outlook(record_json: str, state: Game, team: str) -> Outlook | None:
    """:func:`game_outlook` of ``team`` in ``state``, the game its stored record ``record_json``
    replays to, kept for the next request: it walks every way the group's open matches can end (a
    twentieth of a second a team), and the player's page is made again at each order saved, at
    each reload and after each turn, its outlook the same until the record changes."""
    # Keyed by the record's digest: a record is tens of kilobytes by the knockouts (75 kB at turn 3
    # of 16 teams) and each request reads a copy of its own, so 256 records held megabytes.
    key = (hashlib.sha256(record_json.encode()).digest(), team)
    with _OUTLOOKS_LOCK:  # requests run on the worker's threads
        if key in _OUTLOOKS:
            _OUTLOOKS.move_to_end(key)
            return _OUTLOOKS[key]
    outlook = game_outlook(state, team)
    with _OUTLOOKS_LOCK:
        _OUTLOOKS[key] = outlook
        while len(_OUTLOOKS) > _OUTLOOKS_KEPT:
            _OUTLOOKS.popitem(last=False)
    return outlook


def player_view(db: Session, game: GameRow, player_id: str) -> PlayerView:
    """What player ``player_id`` sees: the public view and their own teams' orders."""
    seats = store.seats_of(db, game_id=game.id)  # read once, for the public view and the order states
    team_rows = store.teams_of(db, game_id=game.id) if game.record_json is not None else []
    public = spectator_view(db, game, seat_rows=seats, team_rows=team_rows)
    name = next((n for p, n, _ in public.seats if p == player_id), player_id)
    mine: list[MyTeam] = []
    states: dict[str, str] = {}
    waiting: tuple[TurnTeam, ...] = ()
    if public.state is not None:
        state = public.state
        open_turn = game.status in (GameStatus.RUNNING, GameStatus.PAUSED)
        own = (
            store.orders_of_player(db, game_id=game.id, turn=game.current_turn, player_id=player_id)
            if open_turn
            else {}
        )
        rows = {t.team_id: t for t in team_rows}
        # Every team's bot if nobody plays it, from the rows read above: asking per team would
        # cost a page a statement per open match.
        seat_of = {s.player_id: s for s in seats}
        house_bots = {
            t.team_id: store.house_bot_of(game, t, None if t.player_id is None else seat_of.get(t.player_id))
            for t in team_rows
        }
        final = state.final_tables
        for team in state.setup.teams:
            if team.manager != player_id:
                continue
            view = state.view_for(team.id)
            order = own.get(team.id)
            level = None
            outlook = None
            if open_turn and view.opponent is not None:
                outlook = _outlook(game.record_json or "", state, team.id)
            if open_turn and view.opponent is not None and view.stage is not None and view.stage.knockout:
                assert final is not None  # knockouts come after the groups
                level = if_level(
                    final[team.group].row(team.id),
                    final[state.setup.team(view.opponent).group].row(view.opponent),
                    public.name,
                )
            mine.append(
                MyTeam(
                    info=public.teams[team.id],
                    opponent=view.opponent if open_turn else None,
                    opponent_scrum=view.opponent_scrum if open_turn else None,
                    match=None if view.fixture is None or not open_turn else view.fixture.id,
                    order=None
                    if order is None
                    else {"force": order.force, "flair": order.flair, "ready": order.ready},
                    autopilot=rows[team.id].autopilot or store.default_for(game, True),  # their seat is taken
                    autopilot_chosen=rows[team.id].autopilot is not None,
                    progress=describe_progress(
                        team_progress(state, team.id), public.name, ended=game.status is GameStatus.ENDED
                    ),
                    if_level=level,
                    last=last_match(state, team.id, public.name),
                    matches_left=view.turns_left if open_turn and view.opponent is not None else None,
                    outlook="" if outlook is None else describe_outlook(outlook, public.name),
                    outlook_after=None
                    if outlook is None
                    else {
                        a.result: {"verdict": a.verdict.value, "words": describe_after(a, public.name)}
                        for a in outlook.after
                    },
                    odds_key=odds_key(
                        _odds_of(db, game, state, team.id, Order(0, 0), house_bots=house_bots), player_id
                    )
                    if open_turn and view.opponent is not None
                    else "",
                )
            )
        order_states = store.order_states(db, game=game, seats=seats, teams=team_rows)
        states = {team: s.value for team, s in order_states.items()}
        managers = {t.team_id: t.player_id for t in team_rows}
        waiting = who_ordered(state if open_turn else None, states, managers, player_id)
    return PlayerView(public, player_id, name, mine, states, store.strategy_names(), waiting)


def turn_in_link(turn: str) -> int | None:
    """The turn a page's link names after a form (``?turn=``), if it reads as one; a query has
    no length limit, and past 4,300 digits int() raises rather than reads.

    >>> turn_in_link("2"), turn_in_link("02"), turn_in_link("-1"), turn_in_link("\u0663"), turn_in_link("9" * 5000)
    (2, 2, None, None, None)
    """
    return int(turn) if turn.isascii() and turn.isdigit() and len(turn) <= 6 else None


def done_message(view: PlayerView, done: str, team: str, turn: str, held: bool | None = None) -> str:
    """The play page's note on what its form just did, worded here from the player's own teams;
    empty for anything else, so a crafted link shows nothing. ``held``: the team's order in the
    link's turn as the store has it (None: no order; else whether it is ready). An order's note
    says only what is so: a link sent by someone else, naming a team with no order, would have
    told the player their order was in while the autopilot was about to play it.

    >>> info = TeamInfo("fiji", "Fiji", "A", "Ana", 100, True)
    >>> mine = MyTeam(info, None, None, None, None, "even")
    >>> view = PlayerView(None, "p1", "Ana", [mine], {})
    >>> done_message(view, "ready", "fiji", "2", True), done_message(view, "autopilot", "fiji", "")
    ('Order for Fiji ready (turn 2).', 'Autopilot for Fiji set.')
    >>> done_message(view, "ready", "fiji", "2", False), done_message(view, "saved", "fiji", "2", False)
    ('', 'Order for Fiji saved (turn 2).')
    >>> done_message(view, "saved", "fiji", "2"), done_message(view, "ready", "tonga", "2", True)
    ('', '')
    >>> done_message(view, "hacked", "fiji", "2", True)
    ''
    """
    name = next((t.info.name for t in view.teams if t.info.id == team), None)
    if name is None:
        return ""
    if done == "autopilot":
        return f"Autopilot for {name} set."
    number = turn_in_link(turn)
    if done in ("saved", "ready") and number is not None and held is not None and (held or done == "saved"):
        return f"Order for {name} {done} (turn {number})."
    return ""


def turn_moved_on(status: str, current_turn: int, done: str, turn: str) -> str:
    """What the play page adds to an order's note when the turn it was for is no longer open (the
    order was the last one wanted, or the deadline came): empty while it is. Then the note stands
    before the player's first team rather than after the team it was about, so that the next Tab
    goes to the first order of the new turn.

    >>> turn_moved_on("running", 2, "ready", "2")
    ''
    >>> turn_moved_on("running", 3, "ready", "2")
    'Turn 2 has been resolved: turn 3 is open, your new matches are below.'
    >>> turn_moved_on("finished", 5, "saved", "5"), turn_moved_on("running", 3, "autopilot", "")
    ('Turn 5 has been resolved: the game is over.', '')
    """
    number = turn_in_link(turn)
    if done not in ("saved", "ready") or number is None:
        return ""
    if status in ("finished", "ended"):
        return f"Turn {number} has been resolved: the game is over." if status == "finished" else ""
    if status in ("running", "paused") and current_turn > number:
        return f"Turn {number} has been resolved: turn {current_turn} is open, your new matches are below."
    return ""


def record_text(game: GameRow) -> str:
    """The downloadable record, as canonical JSON text."""
    return dumps(store.record_of(game))


def verify(game: GameRow) -> dict[str, Any]:
    """Check a finished game's record with the revealed seed (R14); explain when it cannot be yet."""
    if game.record_json is None and game.status == GameStatus.ENDED:
        return {"ok": None, "message": "the game was ended before it started: no die was thrown, nothing to verify"}
    if game.record_json is not None:
        try:
            store.load_game(game)
        except DamagedRecord as exc:  # said before the end too: the other pages send the organiser here
            return {"ok": False, "message": str(exc)}
    if store.revealed_seed(game) is None:
        return {
            "ok": None,
            "message": "the seed is revealed when the game ends; then every die can be checked",
        }
    try:
        found = check_with_bots(json.loads(record_text(game)))
    except ValueError as exc:  # a RecordError (VerificationError among them), or a seed not its commitment
        return {"ok": False, "message": str(exc)}
    if not found.in_full:  # a game imported from a server with bots this one lacks (or has broken)
        return {"ok": False, "message": f"{found.summary}; not verified in full: {found.shortfall('this server')}"}
    return {"ok": True, "message": found.summary}


def odds_question(
    db: Session, game: GameRow, *, player_id: str, team_id: str, force: int, flair: int
) -> OddsQuestion:
    """Check a draft order of one's own team and read what its odds need.

    Raises:
        Conflict: the game is not running (the status an order gets then, so a bot reads both alike).
        Refused: not the player's team.
        Invalid: a draft that breaks R3.
    """
    if game.status not in (GameStatus.RUNNING, GameStatus.PAUSED):
        raise Conflict(f"the game is {game.status.said}; it is not taking orders")
    state = store.load_game(game)
    try:
        team = state.setup.team(team_id)
    except KeyError:
        raise NotFound(f"no team {quoted(team_id)} in this game") from None
    if team.manager != player_id:
        raise Refused("odds are given for your own teams only")
    try:
        mine = validate_order(force, flair, scrum=state.view_for(team_id).scrum)
    except OrderError as exc:
        raise Invalid(str(exc)) from None
    return _odds_of(db, game, state, team_id, mine)


def _odds_of(
    db: Session,
    game: GameRow,
    state: Game,
    team_id: str,
    mine: Order,
    *,
    house_bots: dict[str, str | None] | None = None,
) -> OddsQuestion:
    view = state.view_for(team_id)
    # A team nobody plays is the organiser's bot, named in every report: say which it is. A
    # manager's own autopilot stays theirs alone.
    if view.opponent is None:
        their_bot = None
    elif house_bots is not None:  # read once for the whole page
        their_bot = house_bots.get(view.opponent)
    else:
        their_bot = store.house_bot(db, game=game, team_id=view.opponent)
    return OddsQuestion(
        team_id=team_id,
        mine=mine,
        scrum=view.scrum,
        # What the opponent's manager may see, which is all its bots' orders are made from: the
        # question goes to another process (odds_process), the game's state need not.
        theirs=None if view.opponent is None else state.view_for(view.opponent),
        their_bot=their_bot,
        knockout=view.stage is not None and view.stage.knockout,
        bots=store.strategy_names(),
    )
