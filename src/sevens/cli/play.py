"""``sevens play``: a whole game in the terminal, for people at one keyboard against bots."""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import hashlib
import os
import re
import secrets
import signal
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.control import Control
from rich.markup import escape
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from sevens.bots import (
    DEFAULT_BOT,
    STRATEGIES,
    Plausible,
    ShownMix,
    describe,
    get_strategy,
    plausible_orders,
)
from sevens.bots.strategies import hidden_entry_point, raised_at
from sevens.cli import lineedit
from sevens.cli.errors import BOT_NEEDS, MAX_DIGITS, check_loadable, fail, raised
from sevens.cli.files import cannot_create_in, check_writable, refuse_existing, remove_leftovers, write_text
from sevens.cli.inputs import read_input
from sevens.cli.lineedit import AskLine, ConfirmLine
from sevens.cli.locking import GameLock, InUse
from sevens.cli.output import OutputFailed, ResultsConsole, StdoutError, drop_stdout
from sevens.cli.render import (
    Narrower,
    Phrases,
    bracket,
    draw_table,
    group_notes,
    group_table,
    literal,
    match_report,
    percent,
    phrases,
    team_names,
    team_story,
)
from sevens.cli.saved import (
    SavedGame,
    SavedGameError,
    bot_teams,
    bots_given,
    default_folder,
    default_names,
    looks_saved,
    read_saved,
    saved_start,
    saved_text,
)
from sevens.cli.stopping import (
    Stopped,
    exit_code,
    output_gone,
    signals_deferred,
    stop_on_signals,
    terminal_gone,
    winding_up,
)
from sevens.cli.whole_numbers import ascii_whole, separator_gap
from sevens.odds import KnockoutOdds, mix_odds, order_odds
from sevens.rules import MAX_ORDER_POINTS, Order, seed_commitment, validate_order
from sevens.tournament.fixtures import as_listed
from sevens.tournament.formats import TEAM_COUNTS, Format, check_format, format_asked, legal_formats
from sevens.tournament.game import (
    Game,
    OrderRefused,
    TurnOrder,
    autopilot_orders,
    check_order,
    new_game,
    resolve_turn,
)
from sevens.tournament.knockout import record_favourite
from sevens.tournament.names import (
    POINTS_PER_CHARACTER,
    NameRefused,
    clean_name,
    cut_name,
    kept_form,
    name_clash,
    name_key,
)
from sevens.tournament.outlook import describe_outlook, game_outlook
from sevens.tournament.progress import TeamProgress, describe_progress, final_standing, team_progress
from sevens.tournament.quoting import escaped, shell_quoted
from sevens.tournament.record import dumps, to_record
from sevens.tournament.setup import DEFAULT_TEAM_NAMES, Player, PlayerId, TeamId, draw_game_from_seed

__all__ = ["MAX_NAME", "OrderTyping", "SaveFailed", "Saving", "check_names", "parse_order_text", "play_game", "register", "resume_game"]


# ASCII digits only: str.isdigit and int() also take '²' or '٣'. A minus sign is let through so
# that check_order can say which rule a negative order breaks.
_ORDER_NUMBER = re.compile(r"-?[0-9]+")


class OrderTyping(ValueError):
    """Two numbers typed with a separator out of place (``20,,9``): an order, but mistyped."""


def parse_order_text(text: str) -> tuple[int, int]:
    """Read an order typed as ``FORCE FLAIR`` (``"20 9"``, ``"20+9"`` or ``"20,9"``).

    >>> parse_order_text("20 9"), parse_order_text(" 0+30 ")
    ((20, 9), (0, 30))
    >>> parse_order_text("twenty")
    Traceback (most recent call last):
    ...
    ValueError: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3); 'twenty' is not a whole number written with the digits 0-9
    >>> parse_order_text("--5 3")
    Traceback (most recent call last):
    ...
    ValueError: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3); '--5' is not a whole number written with the digits 0-9
    >>> parse_order_text("１０ ６")
    Traceback (most recent call last):
    ...
    ValueError: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3), with the digits 0-9: write '10 6', not '１０ ６'
    >>> parse_order_text("21")
    Traceback (most recent call last):
    ...
    ValueError: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3); '21' is one number: add FLAIR after it, '21 0' for none
    >>> parse_order_text("20 \u22129")  # a typographic minus, not '-'
    Traceback (most recent call last):
    ...
    ValueError: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3); '−9' is not a whole number written with the digits 0-9
    >>> parse_order_text("7 flair")
    Traceback (most recent call last):
    ...
    ValueError: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3); 'flair' is not a whole number written with the digits 0-9; the numbers alone say which is which, FORCE first: '0 9' is 9 FLAIR, '9 0' is 9 FORCE
    >>> parse_order_text("  ")
    Traceback (most recent call last):
    ...
    ValueError: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3); the line was empty, so nothing was sent: '0 0' spends nothing this match
    >>> parse_order_text("20 9 3")
    Traceback (most recent call last):
    ...
    ValueError: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3); '20 9 3' is 3 words
    >>> parse_order_text("\ufeff20 9")  # an orders file saved with a byte-order mark (Windows Notepad)
    (20, 9)
    >>> parse_order_text("20,,9")
    Traceback (most recent call last):
    ...
    sevens.cli.play.OrderTyping: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3); in '20,,9', ',,' is two separators with no number between them (a number may have been lost there): write '20,9' if that is the order you meant, else type it in full
    >>> parse_order_text("9999999 0")
    Traceback (most recent call last):
    ...
    ValueError: R3: a number of more than 6 digits is too large; an order has at most 160 points
    """
    # A byte-order mark, invisible, starts the first line of a file some editors save: not a character typed.
    parts = text.replace("\ufeff", " ").replace("+", " ").replace(",", " ").split()
    if len(parts) != 2 or not all(_ORDER_NUMBER.fullmatch(p) for p in parts):
        said = "type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3)"
        if len(parts) > 2:  # '20 9 3', or a word after the order: which of them was meant is not guessed
            said += f"; {text.strip()!r} is {len(parts)} words"
        elif not parts:
            # Enter alone is no order (the web's empty boxes are refused alike): spending nothing is typed.
            said += "; the line was empty, so nothing was sent: '0 0' spends nothing this match"
        elif len(parts) == 1 and _ORDER_NUMBER.fullmatch(parts[0]):  # FLAIR forgotten, or both run together
            said += f"; {parts[0]!r} is one number: add FLAIR after it, '{parts[0]} 0' for none"
        fixed = [p if _ORDER_NUMBER.fullmatch(p) else ascii_whole(p) for p in parts]
        if len(parts) == 2 and all(f is not None and _ORDER_NUMBER.fullmatch(f) for f in fixed):
            # Full-width digits from an input method, or 1_0: the numbers were meant, in other digits.
            said += f", with the digits 0-9: write '{' '.join(f or '' for f in fixed)}', not {text.strip()!r}"
        elif 0 < len(parts) <= 2 and not (len(parts) == 1 and _ORDER_NUMBER.fullmatch(parts[0])):
            # '7 flair', '20 −9' (a typographic minus): the word that is not a number is named, where
            # "'20' is one number" sent the player looking for a FLAIR they had typed.
            word = next(p for p in parts if not _ORDER_NUMBER.fullmatch(p))
            said += f"; {word!r} is not a whole number written with the digits 0-9"
        if any(p.lower() in ("force", "flair") for p in parts):
            said += "; the numbers alone say which is which, FORCE first: '0 9' is 9 FLAIR, '9 0' is 9 FORCE"
        raise ValueError(said)
    gap = separator_gap(text.replace("\ufeff", " "), ",+", signs="+")
    if gap is not None:
        # '20,,9' read as '20 9' hid a digit that may have been lost on the way ('20,19').
        why, mended = gap
        raise OrderTyping(
            f"type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3); in {text.strip()!r}, {why} "
            f"(a number may have been lost there): write {mended!r} if that is the order you meant, else type it in full"
        )
    if any(len(p.lstrip("-")) > MAX_DIGITS for p in parts):
        raise ValueError(f"R3: a number of more than {MAX_DIGITS} digits is too large; an order has at most {MAX_ORDER_POINTS} points")
    return int(parts[0]), int(parts[1])


def _dice_seed(seed: str | None) -> bytes:
    """The game's secret seed (R14): from the operating system, or from ``--seed`` so that a game
    can be played again; the draw and every die follow from it."""
    if seed is None:
        return secrets.token_bytes(32)
    return hashlib.sha256(f"sevens-play/{seed}".encode()).digest()


def _choose_format(players: int, teams: int | None, per_player: int | None = None) -> Format:
    """The arrangement for the options given: R12's default, or the one it prefers (largest share of
    teams managed by people, the smaller game on a tie) among those with that many teams or teams each.

    >>> _choose_format(4, 16)
    Format(teams=16, players=4, teams_per_player=4)
    >>> _choose_format(4, None, 2)
    Format(teams=8, players=4, teams_per_player=2)
    >>> _choose_format(5, 8)
    Traceback (most recent call last):
    ...
    ValueError: R12: 5 players cannot play with 8 teams; legal for 5 players: 16 teams with 2 each, 16 teams with 3 each
    """
    if teams is not None and teams not in TEAM_COUNTS:
        # Only the sizes these players can play are offered: 9 or more cannot share 8 teams.
        sizes = sorted({f.teams for f in legal_formats(players)})
        use = " or ".join(f"--teams {n}" for n in sizes)
        raise ValueError(f"R6: a game has 8 or 16 teams, not {teams}; use {use} (or leave --teams out for R12's default)")
    try:
        # One rule with the JSON API; only the refusals are worded here, naming this command's options.
        fmt = format_asked(players, teams=teams, teams_per_player=per_player)
    except ValueError:
        legal = ", ".join(f"{f.teams} teams with {f.teams_per_player} each" for f in legal_formats(players))
        if per_player is not None:
            # Whatever is legal with 8 teams is legal with 16, so this names why no game size works.
            check_format(Format(teams=16, players=players, teams_per_player=per_player))
        raise ValueError(
            f"R12: {players} players cannot play with {teams} teams; legal for {players} players: {legal}"
        ) from None
    check_format(fmt)  # both numbers given are taken as asked: a bad pair's R12 message lists the legal ones
    return fmt


def _plausible_opponent(game: Game, opponent: TeamId, bot: str | None) -> Plausible | str:
    """What the opponent's bot may order (:func:`sevens.bots.plausible_orders`, as the web's live
    odds ask it), or why there is none. For a person, the default bot's: a yardstick, not a guess."""
    knockout = game.stage is not None and game.stage.knockout
    # From the opponent's view alone: what everyone can see, never the game's secret seed.
    return plausible_orders(bot or DEFAULT_BOT, game.view_for(opponent), knockout=knockout)


def _mix_words(mix: ShownMix) -> str:
    """A mix's size and, for a few orders, each with its chance: "2 orders (11+9 62.5%, 8+12 37.5%)";
    a sample's size for one past MIX_MOST, whose odds are not exact."""
    if mix.sampled:
        return f"{mix.size:,} orders (by an even sample of {len(mix.orders)} of them, not exact)"
    if mix.size > 4:  # the random bot's hundreds: a list of a few would say nothing of them
        return f"{mix.size:,} orders"
    shown = sorted(mix.orders, key=lambda pair: -pair[1])
    return f"{mix.size} orders (" + ", ".join(f"{o.force}+{o.flair} {percent(p)}" for o, p in shown) + ")"


def _odds_line(game: Game, order: Order, opponent: TeamId, bot: str | None, known: Order | None = None) -> str:
    """``known``: the opponent's real order, sent already by the same person (two of one's teams
    meet in a knockout), which the odds are then against rather than a yardstick."""
    vs = (ShownMix(orders=((known, 1.0),), size=1), True) if known is not None else _plausible_opponent(game, opponent, bot)
    mean = order_odds(order.force, order.flair).expected_points
    if isinstance(vs, str):
        # Left out rather than stop the game: the odds are a help, and the bot may still choose
        # its real order; if it raises then too, the game stops in one line before the turn.
        return (
            # No colon after the bot's name: rich would read "mine:Boom:" as an emoji's code.
            f"expected {mean:.2f} points; no odds against its bot {literal(str(bot))}, which {literal(vs)} (if its "
            "real order fails the same way, the game stops before this turn)"
        )
    mix, whole = vs
    knockout = game.stage is not None and game.stage.knockout
    odds = mix_odds(order, mix.orders, knockout=knockout)
    if isinstance(odds, KnockoutOdds):
        # In the order of a group match's win, draw, loss, as the web's form and sevens odds have them.
        chances = f"win {percent(odds.win)}, level after count-back {percent(odds.level)}, loss {percent(odds.loss)}"
    else:
        chances = f"win {percent(odds.win)}, draw {percent(odds.draw)}, loss {percent(odds.loss)}"
    one = mix.orders[0][0]
    if known is not None:
        against = f"the order you sent for {literal(game.setup.team(opponent).name)}, {one.force}+{one.flair}"
    elif not whole:
        # Its real order may be any other: say so rather than pass one draw off as its play.
        against = (
            f"one typical order of its bot {literal(str(bot))} (it does not say what it mixes over), "
            f"{one.force}+{one.flair}"
        )
    elif mix.size == 1:
        against = (f"the order its bot {literal(str(bot))} gives here" if bot else "an even-paced order") + (
            f", {one.force}+{one.flair}"
        )
    else:
        whose = f"its bot {literal(str(bot))}'s mix" if bot else "an even-paced mix"
        against = f"{whose} of {_mix_words(mix)}"
    return f"expected {mean:.2f} points; against {against}: {chances}"


def _say(console: Console, line: str, keep: Sequence[str] = ()) -> None:
    """Print ``line`` (markup), broken between phrases only where it does not fit, so that no
    team's name (``keep``) is split and no figure parted from its label ("at most\n5 matches"),
    and with the lines after the first indented under it: at any width, since a long name
    wraps a line at 80 columns or 120 as a phone's does at 40."""
    console.print(Phrases(phrases(line, keep), indent=len(line) - len(line.lstrip(" ")) + 2))


class _SendConfirm(ConfirmLine):
    """y/n, and the words people type too: "yes" and "no" (rich takes only "y" and "n")."""

    validate_error_message = "[prompt.invalid]Please answer y (send it) or n (type another order)"

    def process_response(self, value: str) -> bool:
        word = value.strip().lower()
        if word not in ("y", "n", "yes", "no") and _reads_as_order(value):
            # At a keyboard an order typed here is a change of mind; piped in, a missing answer.
            raise _OrderForConfirm(value) if not sys.stdin.isatty() else _NewOrder(value)
        return super().process_response({"yes": "y", "no": "n"}.get(word, word))


class _OrderForConfirm(Exception):
    """An order piped in where "Send this order?" wanted y or n: the orders' file has no answer
    line after each order. Refused there, it left every later line one prompt out of step."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


class _NewOrder(Exception):
    """An order typed at the keyboard where "Send this order?" wanted y or n: the player changed
    their mind. Refused there ("Please answer y or n"), the order typed was lost."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


# What people type to leave a program; here they get how to stop the game instead of an order refused.
_QUIT_WORDS = ("q", "quit", "exit", "stop", "bye")
_ANSWER_WORDS = ("y", "n", "yes", "no")
_TABLE_WORDS = ("t", "tables")
_STORY_WORDS = ("m", "matches")

def _how_to_stop(kept: bool) -> str:
    """How to stop, and what stopping leaves: with --no-save the game is kept nowhere."""
    if not kept:
        return "to stop the game press Ctrl-C (or Ctrl-D at an empty prompt): it is not kept (--no-save), so it is lost"
    return (
        "to stop the game press Ctrl-C (or Ctrl-D at an empty prompt): the game then says where it is kept and "
        "the command that carries it on"
    )


def _order_help(scrum: int, *, kept: bool) -> str:
    """What to type and what it does (R1-R4, R9), for a player who has not read the rules."""
    return (
        f"  Type two whole numbers, FORCE then FLAIR, e.g. 20 9; together at most the team's SCRUM ({scrum}), "
        "either may be 0.\n"
        "  FORCE: one die per point; each 5 is a try (5 points, never converted), each 3 a penalty (3).\n"
        "  FLAIR: a multiple of 3, one throw of two dice per 3 points: a total of 7 is a converted try (7 "
        "points); otherwise each 5 is a try (5) and each 3 a drop goal (3). A double throws again.\n"
        "  SCRUM must last the whole tournament: every team starts with 100, points ordered are spent, win or "
        "lose, and the winner gains 10 for its next match. A group win is "
        "worth 2 league points, a draw 1; a level knockout goes to tries, conversions, drop goals, the group "
        "record, then lots.\n"
        "  Before you send it, the game shows the points the order scores on average and its chances against "
        "the orders the opponent's bot may give, each weighted by how often it gives it, worked out from what "
        "everyone can see (its real order is shown with the results).\n"
        "  Type t (or tables) to see the group tables and the bracket again, m (or matches) for every match so far "
        "of this team and its opponent, or m and a team's name for that team's; the order is then asked again.\n"
        "  Match reports: 36 (5T 1C 2P 1DG) is 36 points from 5 tries, 1 conversion, 2 penalties and 1 drop "
        "goal; under it every die, FORCE faces then each FLAIR throw, a double and its re-throw joined by '>' (2-2>3-4); "
        "under the report, what each side's dice scored.\n"
        f"  Stopping: {_how_to_stop(kept)}."
    )


def _reads_as_order(line: str) -> bool:
    """Whether ``line``, read where an empty one was wanted, is an order (``20 9``, even one the
    rules refuse): orders piped in without the empty line a hand-over takes.

    >>> _reads_as_order("20 9"), _reads_as_order("   "), _reads_as_order("ready"), _reads_as_order("y")
    (True, False, False, False)
    """
    try:
        parse_order_text(line)
    except OrderTyping:  # '20,,9': an order mistyped
        return True
    except ValueError as exc:
        return str(exc).startswith("R3")  # two numbers, one of them too long: an order all the same
    return True


def _if_level(game: Game, team: TeamId, opponent: TeamId) -> str:
    """In a knockout, who a match level after count-back goes to (R9: the better group record, on
    which count, or lots), from the public tables, as the web's order form says; else ``""``."""
    final = game.final_tables
    if game.stage is None or not game.stage.knockout or final is None:
        return ""
    setup = game.setup
    mine = final[setup.team(team).group].row(team)
    theirs = final[setup.team(opponent).group].row(opponent)
    favoured = record_favourite(mine, theirs)
    said = "  If it ends level on points, tries, conversions and drop goals, the better group record goes through (R9): "
    if favoured is None:
        return said + "the records are level too, so lots would decide."
    through, label, first, second = favoured
    return said + f"{literal(setup.team(TeamId(through)).name)}, on {label} {first}-{second}."


def _outlook(game: Game, team: TeamId) -> str:
    """Before a group match, what a win, a draw and a loss lead to (sevens.tournament.outlook),
    from the resolved results only (R13); else ``""``."""
    outlook = game_outlook(game, team)
    if outlook is None:
        return ""
    return "  " + literal(describe_outlook(outlook, lambda t: game.setup.team(t).name))


def _team_named(game: Game, text: str) -> TeamId | None:
    """The team whose name or id ``text`` holds as words (``fiji 20 9``, ``New Zealand``), if any:
    a first-time player may name the team an order is for, as a web form or a letter would."""
    words = " ".join(text.replace("+", " ").replace(",", " ").lower().split())
    for each in game.setup.teams:
        for said in {each.name.lower(), each.id, each.id.replace("-", " ")}:
            if re.search(rf"(^| ){re.escape(said)}( |$)", words):
                return each.id
    return None


def _why_no_team_name(game: Game, team: TeamId, named: TeamId, text: str) -> str:
    """Why an order naming a team is refused: each prompt is for one team, named in it already."""
    name = game.setup.team(team).name
    other = game.setup.team(named)
    said = f"{text.strip()!r} names a team; type the two numbers alone, e.g. '20 9': this order is for {name}"
    if named == team:
        return said
    if other.manager == game.setup.team(team).manager:
        return f"{said}, and {other.name}'s is asked for in its turn"
    return f"{said}; {other.name} is not one of your teams"


def _ask_order(
    console: Console, game: Game, team: TeamId, people: set[PlayerId], *, kept: bool, early: str | None = None,
    own: Mapping[TeamId, Order] | None = None,
) -> Order:
    """The order for ``team``, asked until one is sent. ``early``: an order read from a pipe at the
    hand-over's "Press Enter", which takes an empty line. Swallowed there, it left every later line
    one prompt out of step; it is said, and taken as the first answer here. ``own``: the orders this
    same person sent this turn, and no one else's (R13)."""
    view = game.view_for(team)
    n = game.turn_number
    assert n is not None and view.opponent is not None and view.opponent_scrum is not None
    # Markup-escaped: a saved game's team names and a registered bot's name are anybody's text.
    name = literal(game.setup.team(team).name)
    opp = literal(game.setup.team(view.opponent).name)
    rival = game.setup.team(view.opponent).manager
    bot = None if rival in people else game.setup.autopilot(view.opponent)
    if bot:
        played_by = f", played by the bot {literal(bot)}"
    elif rival == game.setup.team(team).manager:
        # Two of one's own teams meet in a knockout: "Player 1's team" read as somebody else's.
        played_by = ", your team too"
    else:  # at one keyboard: whose order it is up against
        played_by = f", {literal(next(p.name for p in game.setup.players if p.id == rival))}'s team"
    if view.turns_left == 1:  # the final: "at most 1 matches left" was neither English nor a help
        left = "the last match: no SCRUM is of use after it."
        whole = "the last match:"
    else:
        left = whole = f"at most {view.turns_left} matches"
        left += " left if you keep winning."
    console.print()
    bold = f"[bold]{escape(game.setup.team(team).name)}[/]"  # escape, not literal: a tag follows the name
    heading = f"{bold} (SCRUM {view.scrum}) v {opp} (SCRUM {view.opponent_scrum}{played_by}), {game.stage}, turn {n}; {left}"
    keep_heading = [bold, opp, whole, "your team too"]
    _say(console, heading, keep=keep_heading)
    level = _if_level(game, team, view.opponent)
    if level:
        _say(console, level, keep=[name, opp])
    outlook = _outlook(game, team)
    if outlook:
        group = game.setup.group(game.setup.team(team).group)
        _say(console, outlook, keep=[literal(game.setup.team(t).name) for t in group])  # any of them may be named
    if view.scrum == 0:
        # R3 leaves one order: asking for it would only invite refusals.
        console.print(f"{name} has no SCRUM left, so its order is 0 FORCE + 0 FLAIR.")
        return check_order(game, turn=n, team=team, force=0, flair=0)
    if early is not None:
        console.print(
            f"'{literal(early.strip())}' was read at the hand-over's \"Press Enter\", which takes an empty line; it is "
            f"an order, so it is taken as the order for {name} (put an empty line before each person's orders)."
        )
    while True:
        if early is not None:
            text, early = early, None
        else:
            # The team's name kept whole whatever its case: the prompt's own heuristic knows capitals only.
            text = AskLine.keeping([game.setup.team(team).name]).ask(f"Order for {name} as FORCE FLAIR (? for help)", console=console)
        if text.strip().lower() in ("?", "h", "help"):
            for paragraph in _order_help(view.scrum, kept=kept).splitlines():
                _say(console, paragraph)  # what wraps stays under its paragraph, figures with their words
            # The help, or the tables, push the match and both balances off a 24-line screen: said
            # again, so the order is typed with them in view.
            _say(console, heading, keep=keep_heading)
            continue
        if text.strip().lower() in _TABLE_WORDS:
            _print_tables(console, game)
            _say(console, heading, keep=keep_heading)
            continue
        word, _, rest = text.strip().partition(" ")
        if word.lower() in _STORY_WORDS:
            # "m": both teams of this match, as the web's team pages list them; "m NAME": any team.
            named = _team_named(game, rest) if rest.strip() else None
            if rest.strip() and named is None:
                console.print(
                    f"[red]Refused:[/] no team is named '{literal(rest.strip())}'; type m alone for {name} and {opp}, "
                    f"or m and a team's name as the draw gives it (m {literal(game.setup.teams[0].name)}). Try again."
                )
                continue
            _print_stories(console, game, [named] if named is not None else [team, view.opponent])
            _say(console, heading, keep=keep_heading)
            continue
        if text.strip().lower() in _QUIT_WORDS:
            console.print(f"[red]Refused:[/] '{literal(text.strip())}' is not an order; {_how_to_stop(kept)}. Try again.")
            continue
        if text.strip().lower() in _ANSWER_WORDS:
            # An answer with no question: y pressed twice, or a refused order's answer in orders piped in.
            console.print(
                f"[red]Refused:[/] '{literal(text.strip())}' answers \"Send this order?\", which is asked once an order "
                f"is accepted; type the order for {name} first, e.g. '20 9'. Try again."
            )
            continue
        try:
            try:
                force, flair = parse_order_text(text)
            except ValueError:
                named = _team_named(game, text)  # a line that is not an order only: a team may be named '20'
                if named is None:
                    raise
                raise ValueError(_why_no_team_name(game, team, named, text)) from None
            # The rule broken in the player's words first: check_order's message starts with the team.
            validate_order(force, flair, scrum=view.scrum)
            order = check_order(game, turn=n, team=team, force=force, flair=flair)
        except (ValueError, OrderRefused) as exc:
            console.print(f"[red]Refused:[/] {literal(str(exc))}. Try again.")  # it may quote the team's name
            lineedit.offer(text.strip())  # back at the prompt to be corrected, not typed again
            continue
        said = f"{order.force} FORCE + {order.flair} FLAIR:"
        # Two of one's own teams meet: the other's order, typed a moment ago, is the one to play against.
        known = (own or {}).get(view.opponent) if rival == game.setup.team(team).manager else None
        odds = _odds_line(game, order, view.opponent, bot, known)
        _say(console, f"  {said} {odds}", keep=[said, odds.split(";")[0]])  # "expected 8.07 points" whole
        try:
            if _SendConfirm.ask("  Send this order?", console=console, default=True):
                return order
            lineedit.offer(f"{order.force} {order.flair}")  # "n": the order to change, not to retype
        except _OrderForConfirm as read:
            console.print(
                f"\n'{literal(read.line.strip())}' was read where \"Send this order?\" wants y or n; it is an order, so "
                f"{order.force} FORCE + {order.flair} FLAIR is sent for {name} and '{literal(read.line.strip())}' "
                "is taken as the next answer (put y, or an empty line, after each order)."
            )
            lineedit.unread(read.line)
            return order
        except _NewOrder as typed:
            # Checked as any typed order and shown with its odds before it is asked about again.
            console.print(
                f"'{literal(typed.line.strip())}' is taken as a new order for {name} in place of "
                f"{order.force} FORCE + {order.flair} FLAIR, which is not sent."
            )
            early = typed.line


def _print_stories(console: Console, game: Game, teams: Sequence[TeamId]) -> None:
    """Each of ``teams``' whole tournament so far (:func:`~sevens.cli.render.team_story`): all of it
    public, from resolved turns only (R13)."""
    keep = [literal(n) for n in team_names(game).values()] + sorted({f"group {t.group}" for t in game.setup.teams})
    for team in teams:
        for line in team_story(game, team):
            _say(console, literal(line), keep=keep)


def _clear_screen_and_scrollback() -> Control:
    """ESC[2J then ESC[3J: people take turns at the keyboard, and the next one must not scroll back
    to the orders just typed (Console.clear only erases the screen, and some terminals move what it
    erases into the scrollback)."""
    control = Control.clear()
    # rich has no code for ESC[3J; kept in a control segment it is still left out of output that
    # is not a terminal, as rich's own codes are.
    control.segment = Segment("\x1b[2J\x1b[3J", None, control.segment.control)
    return control


def _hand_over(console: Console, can_clear: bool) -> None:
    """Hide the orders just typed from the next person at the keyboard (R13)."""
    lineedit.forget()  # nothing is kept, but nothing typed may ever be recalled by the next person
    lineedit.drop_typed_ahead()  # nor typed by the last one after their last answer
    if can_clear:
        console.control(_clear_screen_and_scrollback(), Control.home())
    else:
        # Control codes are left out here (a pipe, TERM=dumb): at least scroll the orders off the screen.
        console.out("\n" * (console.height + 1), end="")


def _print_standings(console: Console, game: Game) -> None:
    """The group tables after a group turn, the bracket once the knockouts are near."""
    last = game.turns[-1].stage if game.turns else None
    if last is not None and not last.knockout:
        _print_group_tables(console, game)
    if (game.stage is not None and game.stage.knockout) or (last is not None and last.knockout):
        console.print(bracket(game))


def _print_group_tables(console: Console, game: Game) -> None:
    """Each group's table, with its lots and, once played, who went through (as the web page)."""
    names = team_names(game)
    for letter, table in game.tables().items():
        console.print(group_table(table, names))
        for note in group_notes(table, names, game.format.knockout_stages[0], game.group_results(letter)):
            console.print(note)


def _print_tables(console: Console, game: Game) -> None:
    """The group tables as they stand and, once the knockouts are near, the bracket: asked for at
    the order prompt (t), all of it public."""
    _print_group_tables(console, game)
    if game.turns and (game.turns[-1].stage.knockout or (game.stage is not None and game.stage.knockout)):
        console.print(bracket(game))


def _fixtures_table(game: Game) -> RenderableType:
    """The turn's matches, home and away side by side; below 60 columns, where that cut names to
    "Argenti…", or where they would not fit whole (at 60, "United" over "States"), the away team
    under the home team, each with its SCRUM beside it."""
    table = Table()
    for header in ("Match", "Home", "SCRUM", "Away", "SCRUM"):
        # Figures right-aligned, as in the stacked layout and the group tables.
        table.add_column(header, justify="right" if header == "SCRUM" else "left")
    stacked = Table()
    stacked.add_column("Match", no_wrap=True)
    stacked.add_column("Home v away", overflow="fold")
    stacked.add_column("SCRUM", justify="right", no_wrap=True)
    fixtures = game.fixtures()
    for f in as_listed(fixtures[0].stage, fixtures) if fixtures else ():
        home, away = game.setup.team(f.home).name, game.setup.team(f.away).name
        table.add_row(
            f.id + (f" ({f.group})" if f.group else ""),
            Text(home),  # a saved game's team names are anybody's text: not markup
            str(game.scrum(f.home)),
            Text(away),
            str(game.scrum(f.away)),
        )
        stacked.add_row(
            f.id + (f"\n({f.group})" if f.group else ""),
            Group(Text(home), Text(f"v {away}")),
            f"{game.scrum(f.home)}\n{game.scrum(f.away)}",
        )
    return Narrower(table, stacked, whole=True)


class Saving:
    """Where a game in progress is kept (:mod:`sevens.cli.saved`), rewritten whole after every
    resolved turn, and how far the file on disk goes.

    ``path``: the file; ``overwrite``: whether its first write may replace a file there;
    ``fresh``: the game chose ``path`` itself in :func:`~sevens.cli.saved.default_folder`, so
    the first write takes the next free name instead of refusing one that is taken;
    ``module_bots``: bots named by a module path, repeated in the command that carries on;
    ``lock``: keeps a second ``sevens play`` from the file (:mod:`sevens.cli.locking`), taken
    before the game starts, or at the first write for a ``fresh`` file, and let go by :meth:`release`.
    """

    def __init__(
        self, path: Path, *, overwrite: bool = False, fresh: bool = False, turns: int | None = None,
        lock: GameLock | None = None,
    ) -> None:
        self.path = path
        self.overwrite = overwrite
        self.fresh = fresh
        self.turns = turns  # the turns resolved in the file on disk; None before it is written
        self.finished = False  # the file holds the game over: there is nothing left to carry on
        self.module_bots: tuple[str, ...] = ()
        self.lock = lock
        self._tidied = False

    def tidy(self) -> None:
        """Remove what writes of the file left when ``kill -9`` stopped them (a hidden
        ``.NAME-PID-....tmp.json`` beside it, holding the seed), once, while the game is locked:
        no other ``sevens play`` writes it then, and :func:`~sevens.cli.files.remove_leftovers`
        removes only files of a process that is gone which hold nothing yet or the start of a
        saved game, at the 0600 its writes give them: a user's file named alike is kept."""
        if not self._tidied and self.lock is not None and self.lock.held:
            remove_leftovers(self.path, mode=0o600, starts=saved_start())
            self._tidied = True

    def keep(self, saved: SavedGame) -> None:
        """Write the game as it stands, whole or not at all, readable by its owner only (0600: it
        holds the secret seed). OSError if it cannot be; the file then keeps the last turn it had.
        Ctrl-C, a closed terminal or ``kill`` during the write take effect once it is done and
        :attr:`turns` says what the file holds."""
        text = saved_text(saved)
        self.tidy()
        with signals_deferred():
            if self.turns is not None:
                write_text(self.path, text, overwrite=True, mode=0o600)
            elif not self.fresh:
                write_text(self.path, text, overwrite=self.overwrite, mode=0o600)
            else:
                self._keep_fresh(text)
            self.turns = len(saved.game.turns)
            self.finished = saved.game.finished

    def _keep_fresh(self, text: str) -> None:
        """The first write of a game kept in the default folder: the first free name, then locked."""
        for name in default_names():
            try:
                write_text(self.path.parent / name, text, overwrite=False, mode=0o600)
            except FileExistsError:
                continue
            self.path = self.path.parent / name
            break
        else:
            raise FileExistsError(errno.EEXIST, f"no free file name for the game in {self.path.parent}")
        self.lock = GameLock(self.path)
        try:
            self.lock.acquire()
        except (InUse, OSError):  # a file made a moment ago, that nobody could have opened yet: not expected
            self.lock = None

    def command(self) -> str:
        """The command that carries the game on."""
        bots = f" --bots {shell_quoted(','.join(self.module_bots))}" if self.module_bots else ""
        return f"sevens play --resume {shell_quoted(str(self.path))}{bots}"

    def release(self) -> None:
        """Let another ``sevens play`` have the file: the game here is over or has stopped."""
        if self.lock is not None:
            self.lock.release()

    def discard(self, console: Console) -> bool:
        """Remove the file once the game is over (the record, if any, is what stays); whether it is gone."""
        try:
            with signals_deferred():
                self.path.unlink(missing_ok=True)
        except OSError as exc:
            console.print(f"The saved game {literal(str(self.path))} could not be removed ({literal(str(exc.strerror or exc))}); "
                          "the game is over, so it can be deleted.")
            return False
        return True


class SaveFailed(OSError):
    """The game could not be kept after a resolved turn: it stops before showing that turn."""


def play_game(
    console: Console,
    *,
    players: int,
    teams: int | None,
    humans: int,
    seed: str | None,
    record: Path | None,
    bots: Sequence[str] = (),
    per_player: int | None = None,
    overwrite: bool = False,
    names: Sequence[str] = (),
    save: Saving | None = None,
) -> Game:
    """Play a whole game: people type orders for their teams, bots play the rest (``bots``: their
    names, given to the bot-played teams in turn; none: the default bot). ``teams`` and
    ``per_player`` (teams each player manages) pick the arrangement; R12's preference fills in.
    ``names``: the people's names, one for each of ``humans`` (default "Player 1", "Player 2", ...),
    checked by :func:`check_names`.
    ``record``: the file the game record is written to at the end (replacing a file there only
    with ``overwrite``); if it cannot be, the record goes to a file in the temporary folder, or
    failing that to the console, and OSError says where.
    ``save``: where the game is kept after the draw and after every resolved turn, to be carried
    on with :func:`resume_game` if it stops; removed once the game is over."""
    fmt = _choose_format(players, teams, per_player)
    dice_seed = _dice_seed(seed)
    named = list(check_names(names, humans=humans, players=players)) or [f"Player {i}" for i in range(1, humans + 1)]
    people = [Player(PlayerId(f"p{i}"), named[i - 1] if i <= humans else f"Bot {i}") for i in range(1, players + 1)]
    # Drawn from the dice seed, so anyone can redo the draw once the seed is revealed.
    setup = draw_game_from_seed(people, fmt, seed=dice_seed)
    human_ids = {p.id for p in people[:humans]}
    played_by_bots = [t.id for t in setup.teams if t.manager not in human_ids]
    for i, team in enumerate(played_by_bots if bots else ()):
        setup = setup.with_autopilot(team, bots[i % len(bots)])
    saved = SavedGame(new_game(setup), dice_seed, humans, record, overwrite)
    _print_heading(console, saved)
    if seed is not None and humans:
        # R14 keeps the dice unknown until every order is in; a seed that people typed is known to them.
        console.print(
            "[bold]--seed:[/] whoever knows the seed text can work out the bots' orders and the dice for any "
            "order before sending it; leave --seed out of a game played for real."
        )
    if save is not None:
        save.module_bots = tuple(bots) if any(":" in name for name in bots) else ()
        try:
            save.keep(saved)
        except OSError as exc:
            why = "a file of that name appeared meanwhile" if isinstance(exc, FileExistsError) else exc.strerror or exc
            raise SaveFailed(
                f"cannot keep the game in {save.path}: {why}; choose another file with --save FILE, or play without "
                "keeping the game with --no-save"
            ) from None
        # The prose wraps between words; the command has a line of its own, left whole for the
        # terminal to wrap, so that it is copied as one line. All soft-wrapped, the terminal cut
        # words in two ("the g" / "ame is over") at any width.
        _say(
            console,
            f"The game is kept in {literal(str(save.path))} after every turn. That file holds the game's secret "
            "seed: keep it to yourself until the game is over (it is removed then). If the game stops, carry it "
            "on with:",
            keep=[literal(str(save.path))],
        )
        console.print(f"  {literal(save.command())}", soft_wrap=True)
    return _play_on(console, saved, save)


def resume_game(console: Console, saved: SavedGame, save: Saving) -> Game:
    """Carry on a saved game (:func:`sevens.cli.saved.read_saved`) from its last resolved turn,
    keeping it in ``save`` as :func:`play_game` does; the same draw, dice, bots and people, so the
    game ends exactly as it would have without the interruption."""
    game = saved.game
    _print_heading(console, saved, resumed=True)
    _say(
        console,
        f"Carried on from {literal(str(save.path))}, where it is kept after every turn; it holds the game's secret "
        "seed: keep it to yourself until the game is over (it is removed then).",
        keep=[literal(str(save.path))],
    )
    if saved.record is not None:
        console.print(f"The game record is written to {literal(str(saved.record))} at the end.", soft_wrap=True)
    if game.turns:
        _heading(console, f"Where the game stopped: the results of turn {len(game.turns)}, {game.turns[-1].stage}")
        for match in as_listed(game.turns[-1].stage, game.turns[-1].matches):
            console.print(match_report(game, match))
        _print_standings(console, game)
    return _play_on(console, saved, save)


def _heading(console: Console, title: str) -> None:
    """A rule with ``title`` (markup) in it; where the rule would cut the title short (a narrow
    terminal, a long name), a bare rule with the whole title on the line under it."""
    if Text.from_markup(title).cell_len <= console.width - 4:  # rich keeps a rule character and a space each side
        console.rule(title)
    else:
        console.rule()
        console.print(title, style="bold")


def _print_digits(console: Console, label: str, digits: str) -> None:
    """``label`` and its 64 hex ``digits`` on one line where they fit, else the digits on a line of
    their own: at 80 columns the terminal broke them where the edge fell, the end of the seed on
    the next line. Soft-wrapped all the same: narrower than the digits, the terminal wraps them,
    so that they are copied whole, with no line break in the middle, to check one against the other."""
    if cell_len(f"{label} {digits}") <= console.width:
        console.print(f"{label} {digits}", soft_wrap=True)
    else:
        console.print(label)
        console.print(digits, soft_wrap=True)


def _print_heading(console: Console, saved: SavedGame, *, resumed: bool = False) -> None:
    """The game's arrangement, seed commitment, draw and bots, at its start or when carried on."""
    game, fmt, setup = saved.game, saved.game.format, saved.game.setup
    each = "1 team" if fmt.teams_per_player == 1 else f"{fmt.teams_per_player} teams"
    stood = "the draw" if not game.turns else f"turn {len(game.turns)}"
    after = f", carried on after {stood}" if resumed else ""
    _heading(console, f"Sevens: {fmt.teams} teams, {fmt.players} players, {each} each{after}")
    _print_digits(console, "Seed commitment (SHA-256 of the secret dice seed):", setup.seed_sha256)
    console.print(draw_table(game))
    # Whose are whose: a player alone finds "Player 1" in the draw, and nothing said that it is them.
    typing = saved.people[: saved.humans]
    for person in typing:
        names = [literal(t.name) for t in setup.teams if t.manager == person.id]
        who = f"You are {literal(person.name)}: you type" if len(typing) == 1 else f"{literal(person.name)} types"
        _say(console, f"{who} the orders of {', '.join(names)}", keep=names)
    by_bot: dict[str, list[str]] = {}
    for team in bot_teams(game, saved.human_ids):
        by_bot.setdefault(setup.autopilot(team), []).append(setup.team(team).name)
    for name, names in by_bot.items():
        names = [literal(n) for n in names]  # a saved game's team names, a registered bot's name: not markup
        said = f"Played by the bot {literal(name)} ({literal(describe(name))}): {', '.join(names)}"
        _say(console, said, keep=names)


def _play_on(console: Console, saved: SavedGame, save: Saving | None) -> Game:
    """Play the game from where it stands to its champion; keep it in ``save`` after each turn."""
    game, dice_seed, humans = saved.game, saved.seed, saved.humans
    setup, people, human_ids = game.setup, saved.people, saved.human_ids
    can_clear = console.is_terminal and not console.is_dumb_terminal
    if humans > 1 and not can_clear:
        console.print(
            "[bold]This output is not a terminal that can be cleared:[/] between two people's orders the "
            "game can only push them off the screen with blank lines, and they stay in the scrollback."
        )
    said_out = False
    while not game.finished:
        n = game.turn_number
        assert n is not None
        in_play = set(game.teams_in_play())
        if humans and not said_out and not any(t in in_play for p in people[:humans] for t in setup.teams_of(p.id)):
            # Else the turns to the champion only scroll by, and the player wonders whether to wait for a prompt.
            said_out = True
            whose = "All your teams are" if humans == 1 else "Every team typed for here is"
            _say(console, f"{whose} out: the bots play the rest of the game without asking.")
        _heading(console, f"Turn {n}: {game.stage}")
        console.print(_fixtures_table(game))
        orders: dict[TeamId, TurnOrder] = {}
        for person in people[:humans]:
            mine = [t for t in setup.teams_of(person.id) if t in in_play]
            if not mine:
                continue
            early = None
            if humans > 1:
                read = lineedit.wait_for_enter(
                    console, f"\n{literal(person.name)}: your orders are secret. Press Enter when you are at the keyboard",
                    keep=[person.name],
                )
                early = read if _reads_as_order(read) else None
            sent: dict[TeamId, Order] = {}  # this person's own orders only: the others' stay unseen (R13)
            for team in mine:
                sent[team] = _ask_order(console, game, team, human_ids, kept=save is not None, early=early, own=sent)
                orders[team] = TurnOrder(team, sent[team])
                early = None
            if humans > 1:
                _hand_over(console, can_clear)
                if any(t in in_play for p in people[people.index(person) + 1:humans] for t in setup.teams_of(p.id)):
                    # The next person sees what was on the screen before, all public, and none of the orders.
                    _heading(console, f"Turn {n}: {game.stage}")
                    _print_standings(console, game)
                    console.print(_fixtures_table(game))
        rest = [t for t in game.teams_in_play() if t not in orders]
        try:
            played = autopilot_orders(game, rest, get_strategy, seed=dice_seed)
        except OrderRefused:
            raise  # an order that breaks R3: its own message names the bot and the rule
        except (Exception, SystemExit) as exc:  # a bot's own code raised, or exited, as it chose
            raise _bot_failed(game, rest, dice_seed, exc, save) from None
        for team, given in played.items():
            manager = setup.team(team).manager
            # A bot manager chose this order on purpose: it is not a missed order (R13).
            orders[team] = dataclasses.replace(given, missed=False) if manager not in human_ids else given
        game = resolve_turn(game, orders, dice_seed)
        if save is not None:
            # Kept before the results are shown: a game carried on never plays a turn again whose
            # results someone has seen. The final too: a file left holding the game before it (Ctrl-C
            # as the champion is shown, a file that cannot be removed) would let the final be played
            # again by people who saw its dice; a finished game is refused by --resume.
            try:
                save.keep(dataclasses.replace(saved, game=game))
            except OSError as exc:
                raise SaveFailed(
                    f"cannot keep the game in {save.path} after turn {n}: {exc.strerror or exc}; the game stopped "
                    f"before showing that turn's results, and the file holds it as it was before turn {n}: make room "
                    f"and carry it on with: {save.command()} (turn {n}'s orders are typed again)"
                ) from None
        turn = game.turns[-1]
        for match in as_listed(turn.stage, turn.matches):
            console.print(match_report(game, match))
        _print_standings(console, game)

    champion = game.champion
    assert champion is not None
    manager = setup.team(champion).manager
    managed = "" if manager is None else f" ({literal(next(p.name for p in people if p.id == manager))})"
    _heading(console, f"Champion: {literal(setup.team(champion).name)}{managed}")
    _print_final_standing(console, game)
    _print_how_far(console, game, people[:humans])
    _print_digits(console, "Dice seed, revealed:", dice_seed.hex())
    # From here the game only writes its record and removes its saved file, each in a moment: a
    # signal now is ignored rather than stop that, since a kill that waited for the record's write
    # (signals_deferred) would then have said it was not written, the saved game already removed.
    winding_up()
    if saved.record is not None:
        try:
            _save_record(
                console, saved.record, dumps(to_record(game, seed=dice_seed.hex())), overwrite=saved.overwrite,
                module_bots=_played_module_bots(game),
            )
        except OSError:
            if save is not None:
                save.discard(console)  # the record was kept elsewhere or printed, the message says where
            raise
    elif humans:
        # The end is where a player looks for the record to check: say there is none, and how to get one.
        _say(
            console,
            "No game record was written (none was asked for): to check a game with sevens verify, start it with "
            "--record FILE, e.g. sevens play --record game.json.",
            keep=["sevens verify", "--record FILE", "sevens play --record game.json."],
        )
    if save is not None:
        save.discard(console)  # the game is over, and its record written if one was asked for
    return game


def _played_module_bots(game: Game) -> list[str]:
    """The bots named by a module path that played an order of ``game``: sevens verify imports
    them only when given with its ``--bots``."""
    return sorted({
        side.autopilot for turn in game.turns for match in turn.matches for side in (match.home, match.away)
        if side.autopilot is not None and ":" in side.autopilot
    })


def _bot_failed(game: Game, teams: Sequence[TeamId], seed: bytes, exc: BaseException, save: Saving | None) -> ValueError:
    """What to say when a bot's code raised choosing an order for ``teams``: which bot, for which
    team, where, and that the game stopped before the turn (kept as it was, if it is kept)."""
    team = next((t for t in teams if not _plays(game, t, seed)), None)
    n = game.turn_number
    who = "a bot" if team is None else f"the bot {game.setup.autopilot(team)!r} that plays {game.setup.team(team).name}"
    then = (
        f"; the game is kept as it was before turn {n}: fix the bot and carry it on with: {save.command()}"
        if save is not None else ": fix the bot and play again"
    )
    return ValueError(
        f"{who} raised {raised(exc)}{raised_at(exc)}, as it chose its order for turn {n}, so the game stopped before "
        f"turn {n} was played{then}"
    )


def _plays(game: Game, team: TeamId, seed: bytes) -> bool:
    try:
        autopilot_orders(game, [team], get_strategy, seed=seed)
    except (Exception, SystemExit):
        return False
    return True


def _save_record(
    console: Console, path: Path, text: str, *, overwrite: bool, module_bots: Sequence[str] = ()
) -> None:
    """Write the record to ``path``, whole or not at all; if that fails, keep it elsewhere and
    raise OSError saying where: the game cannot be played again (people's orders, a random seed).
    The command to check it gives ``module_bots`` to ``--bots``, so that their orders are checked."""
    try:
        with signals_deferred():  # Ctrl-C or a closed terminal as it is written: whole or absent
            write_text(path, text, overwrite=overwrite)
    except OSError as exc:
        why = (
            "a file of that name appeared during the game (another program's?) and was left as it is"
            if isinstance(exc, FileExistsError) else (exc.strerror or str(exc))
        )
        kept = _keep_elsewhere(text)
        if kept is None:
            console.out(text, highlight=False)
            where = "the record is printed above: save it to a file and check that file with sevens verify"
        else:
            # The file's real name, quoted for a shell: "sevens verify FILE" left the reader to find it.
            where = (
                f"the record was saved to {kept} instead: check it with: sevens verify {shell_quoted(str(kept))} "
                "(or by the name you move it to)"
            )
        raise OSError(f"cannot write the game record to {path}: {why}; {where}") from None
    # Quoted for the shell, and left to the terminal to wrap (as the saved game's line is), so that
    # the command is copied whole and as one line.
    command = f"sevens verify {shell_quoted(str(path))}"
    if module_bots:
        command += f" --bots {shell_quoted(','.join(module_bots))}"
    console.print(f"Game record written to {literal(str(path))}; check it with: {literal(command)}", soft_wrap=True)


def _keep_elsewhere(text: str) -> Path | None:
    """Save a record that could not be written where asked to a new file in the temporary folder
    (never replacing one); None if that fails too."""
    try:
        fd, name = tempfile.mkstemp(prefix="sevens-record-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError:
        return None
    return Path(name)


MAX_NAME = 30
"""The longest name a person at the keyboard may give, in characters as shown (a flag is one; it
goes in the draw's narrow columns), holding at most four code points a character."""


def check_names(names: Sequence[str], *, humans: int, players: int) -> tuple[str, ...]:
    """Refuse people's names (``--names``) that could not tell the people apart: one name for each
    of ``humans``, none empty, none twice (in any case, or spaced differently), none a bot's ("Bot 4",
    "even"), none another person's default ("Player 2" is only the second person's), none that reads
    as someone else beside the teams ("You", a team's name), each within the rule every name follows
    (:mod:`sevens.tournament.names`) and at most :data:`MAX_NAME` characters; none given is fine
    ("Player 1", ...). Returns the names as they are kept (NFC, spaces made single).

    >>> check_names(["Ann", "Jose\\u0301"], humans=2, players=4)
    ('Ann', 'José')
    >>> check_names(["Ann", "ann"], humans=2, players=4)
    Traceback (most recent call last):
    ...
    ValueError: --names: 'ann' is 'Ann' again (names are compared ignoring case and spacing); give each person a name of their own
    >>> check_names(["Ann", "Bot 4"], humans=2, players=4)
    Traceback (most recent call last):
    ...
    ValueError: --names: 'Bot 4' is the name of a bot in this game (players 3 and 4 are bots); choose another name
    >>> check_names(["Ann  Lee", "ann lee"], humans=2, players=4)
    Traceback (most recent call last):
    ...
    ValueError: --names: 'ann lee' is 'Ann Lee' again (names are compared ignoring case and spacing); give each person a name of their own
    >>> check_names(["Ann", "", "Bob"], humans=2, players=4)
    Traceback (most recent call last):
    ...
    ValueError: --names has an empty name; give names separated by commas, e.g. --names Ann,Bob
    >>> check_names(["Player 2", "Ann"], humans=2, players=4)
    Traceback (most recent call last):
    ...
    ValueError: --names: 'Player 2' is the name the game gives person 2 when none is given, and this is person 1; choose another name
    >>> check_names(["Ann", "YOU"], humans=2, players=4)
    Traceback (most recent call last):
    ...
    ValueError: --names: 'YOU' would read as whoever is at the keyboard (you); choose another name
    """
    if not names:
        return ()
    if not all(names):  # said first: "3 names for 2 people, or --humans 3" would count the gap as a name
        raise ValueError("--names has an empty name; give names separated by commas, e.g. --names Ann,Bob")
    if len(names) != humans:
        raise ValueError(
            f"--names gives {len(names)} name{'s' if len(names) != 1 else ''} for {humans} "
            f"{'person' if humans == 1 else 'people'} typing orders (--humans {humans}); give one name for each, "
            f"or --humans {len(names)}"
        )
    taken: list[str] = []
    for name in names:
        try:
            taken.append(_kept_name(name, taken, humans=humans, players=players))
        except NameRefused as exc:
            raise ValueError(f"--names: {exc}") from None
    return tuple(taken)


def _span(first: int, last: int, prefix: str = "") -> str:
    """Numbers ``first`` to ``last`` as a person says them: one alone, two joined by "and", more as a range.

    >>> _span(4, 4, "Bot "), _span(3, 4, "Bot "), _span(2, 4)
    ('Bot 4', 'Bot 3 and Bot 4', '2 to 4')
    """
    if first == last:
        return f"{prefix}{last}"
    return f"{prefix}{first} {'and' if last - first == 1 else 'to'} {prefix}{last}"


def _bots_in_draw(humans: int, players: int) -> str:
    """Which players are bots, by their names in the draw ("Bot 4 to Bot 4" read badly for one bot).

    >>> _bots_in_draw(3, 4), _bots_in_draw(2, 4), _bots_in_draw(1, 4)
    ('the bot here is Bot 4', 'the bots here are Bot 3 and Bot 4', 'the bots here are Bot 2 to Bot 4')
    """
    bots = _span(humans + 1, players, "Bot ")
    return f"the bot here is {bots}" if players - humans == 1 else f"the bots here are {bots}"


def _bot_players(humans: int, players: int) -> str:
    """The players that are bots, by number, as :func:`_bots_in_draw` says them.

    >>> _bot_players(3, 4), _bot_players(2, 4), _bot_players(1, 4)
    ('player 4 is a bot', 'players 3 and 4 are bots', 'players 2 to 4 are bots')
    """
    bots = _span(humans + 1, players)
    return f"player {bots} is a bot" if players - humans == 1 else f"players {bots} are bots"


def _kept_name(typed: str, taken: Sequence[str], *, humans: int, players: int) -> str:
    """``typed`` as it is kept for the name of the next person after the names ``taken``.

    Raises:
        NameRefused: why it cannot be their name.
    """
    # A pasted page is not said back whole; cut between characters as shown, never in a flag.
    start = cut_name(typed, MAX_NAME, POINTS_PER_CHARACTER * MAX_NAME)
    shown = repr(typed) if start == typed else f"{start!r}..."
    name = clean_name(typed, what=shown, limit=MAX_NAME)
    problem = _name_problem(typed, taken, humans=humans, players=players)  # said as typed: 'ann  lee' shows its two spaces
    if problem is not None:
        raise NameRefused(problem)
    return name


def _reserved_words(humans: int, players: int) -> dict[str, str]:
    """The words no person here may be called, with why (as a message says it after the name):
    each would read as someone else in the draw, the hand-overs or the prompts."""
    bots = f"is the name of a bot in this game ({_bot_players(humans, players)})"
    return {
        **dict.fromkeys((f"Bot {i}" for i in range(humans + 1, players + 1)), bots),
        # "You are 'You': you type", "You's team": the reader, or this person?
        "You": "would read as whoever is at the keyboard (you)",
        "house": "is what the draw calls the teams nobody manages (a bot plays them)",  # "Fiji (house)"
        # "Samoa (Fiji)" in the draw
        **dict.fromkeys(
            DEFAULT_TEAM_NAMES, "is the name of a team in Sevens, and the draw shows people's names beside their teams'"
        ),
        **dict.fromkeys(STRATEGIES, "is the name of a bot (sevens play --bots)"),  # "Fiji (even)" beside "played by the bot even"
    }


def _name_problem(name: str, taken: Sequence[str], *, humans: int, players: int) -> str | None:
    """Why ``name`` cannot be the name of the next person after the names ``taken``, or None if it can
    (:func:`sevens.tournament.names.name_clash`, with the words reserved here).

    >>> _name_problem("\u0410nn", ["Ann"], humans=2, players=4)
    "'Аnn' reads as 'Ann' (its 'А' is CYRILLIC CAPITAL LETTER A, drawn as a Latin 'A'); give each person a name of their own"
    >>> _name_problem("\u0412\u041e\u0422 4", ["Ann"], humans=2, players=4)
    "'ВОТ 4', which reads as 'Bot 4' (its 'В' is CYRILLIC CAPITAL LETTER VE, drawn as a Latin 'B'), is the name of a bot in this game (players 3 and 4 are bots); choose another name"
    """
    clash = name_clash(name, taken=taken, reserved=_reserved_words(humans, players))
    if clash is not None and clash.why is None:
        if clash.look_alike:
            return f"{name!r} reads as {clash.other!r}{clash.look_alike}; give each person a name of their own"
        said = f"{name!r} is given twice" if clash.other == kept_form(name) else f"{name!r} is {clash.other!r} again"
        return f"{said} (names are compared ignoring case and spacing); give each person a name of their own"
    if clash is not None:
        return f"{clash.subject(name)} {clash.why}; choose another name"
    key = name_key(name)
    if re.fullmatch(r"bot ?[0-9]+", key):  # "(Bot 1)" in the draw would read as a bot-played team
        bots = "no bots play here" if humans == players else _bots_in_draw(humans, players)
        return f"{name!r} is named like a bot ({bots}), and the draw would show a person's teams as a bot's; choose another name"
    default = re.fullmatch(r"player ?0*([1-9][0-9]*)", key)
    person = len(taken) + 1
    if default is not None and int(default[1]) != person:
        # Another person's name when none is given: "Player 2" for the first would leave the second,
        # pressing Enter, refused (or two "Player 2"s), and the hand-overs could not say who is who.
        return (f"{name!r} is the name the game gives person {int(default[1])} when none is given, and this is "
                f"person {person}; choose another name")
    return None


def _ask_names(console: Console, *, humans: int, players: int) -> tuple[str, ...]:
    """Ask each person at the keyboard for a name, checked as ``--names`` is; Enter keeps "Player N"."""
    console.print("Who is playing? Type each person's name (Enter keeps the name shown; --names gives them without asking).")
    names: list[str] = []
    while len(names) < humans:
        default = f"Player {len(names) + 1}"
        typed = AskLine.ask(f"Name of {default}", console=console, default=default).strip() or default
        try:
            names.append(_kept_name(typed, names, humans=humans, players=players))
        except NameRefused as exc:
            console.print(f"[red]Refused:[/] {literal(str(exc))}.")
    return tuple(names)


def _people_names(text: str | None) -> tuple[str, ...]:
    """The names given to ``--names``, comma-separated, each without the spaces around it."""
    return () if text is None else tuple(name.strip() for name in text.split(","))


def _bot_names(text: str | None) -> tuple[str, ...]:
    """The names given to ``--bots``, each checked to be a bot here (R13)."""
    if text is None:
        return ()
    names = tuple(name.strip() for name in text.split(","))
    if not all(names):
        fail(f"--bots {text!r} has an empty name; give names separated by commas, e.g. --bots equilibrium,even")
    for name in names:
        try:
            check_loadable("--bots", name, get_strategy, what="bot", needs=BOT_NEEDS)
        except ValueError as exc:
            fail(f"--bots: {exc}")
    for name in dict.fromkeys(names):  # a name given twice is noted once
        _note_hidden(name)
    return names


def _note_hidden(name: str) -> None:
    """Say on stderr where an installed package registers a bot under a built-in's name: the
    built-in plays, and the package's was left out without a word, its author taking the
    built-in's play for their own bot's (as sevens lab says of its strategies)."""
    hidden = hidden_entry_point(name)
    if hidden is not None:
        package, path = hidden
        with contextlib.suppress(OSError):  # a note lost to a closed stderr is no reason to stop the game
            typer.echo(
                f"note: --bots: the package {package} registers a bot called {name!r}, which is a built-in's name: "
                f"the built-in {name} plays; to play the package's, name it by its path, {path}, or rename its entry "
                "point in that package's pyproject.toml",
                err=True,
            )


def _print_final_standing(console: Console, game: Game) -> None:
    """Every team's place and how far it went, as the web's game page gives it after the final:
    teams out at the same stage share their places (3-4), those out after the groups go by their
    group place, with no tie-break made up between them."""
    names = team_names(game)
    keep = [literal(n) for n in names.values()] + sorted({f"group {t.group}" for t in game.setup.teams})
    console.print("Final standing:")
    for placing in final_standing(game):
        said = describe_progress(team_progress(game, placing.team), names.__getitem__)
        _say(console, f"  {placing.place} {literal(names[placing.team])}: {literal(said)}", keep=keep)


def _team_record(game: Game, progress: TeamProgress) -> str:
    """A team's whole tournament in figures: "Won 2, drawn 0, lost 1; points for 71, against 40."
    Its group table's row and then its knockouts, each won by the side R9 and R10 decide for, as
    the bracket says."""
    team, knockout = progress.team, progress.knockout
    row = game.tables()[progress.group].row(team)
    won = sum(m.winner == team for m in knockout)  # a knockout always has a winner
    scored = sum(m.side(team).line.points for m in knockout)
    conceded = sum(m.home.line.points + m.away.line.points for m in knockout) - scored
    return (f"Won {row.won + won}, drawn {row.drawn}, lost {row.lost + len(knockout) - won}; "
            f"points for {row.points_for + scored}, against {row.points_against + conceded}.")


def _print_how_far(console: Console, game: Game, people: Sequence[Player]) -> None:
    """Each team of the people at the keyboard: its place in the final standing, how far it went,
    and its record (won, drawn, lost, points for and against), which the end gave nowhere else."""
    names = team_names(game)
    places = {placing.team: placing.place for placing in final_standing(game)}
    # "3rd in group A.": the group's letter stays with its word, as a team's name stays whole.
    keep = [literal(n) for n in names.values()] + sorted({f"group {t.group}" for t in game.setup.teams})
    for person in people:
        console.print("Your teams:" if len(people) == 1 else f"{literal(person.name)}'s teams:")
        for team in game.setup.teams_of(person.id):
            progress = team_progress(game, team)
            said = describe_progress(progress, names.__getitem__)
            line = f"  {places[team]} {literal(names[team])}: {literal(said)} {_team_record(game, progress)}"
            _say(console, line, keep=[*keep, "points for"])


def _module_bots(saved: SavedGame) -> tuple[str, ...]:
    """The ``--bots`` a saved game must be carried on with: none unless one is a module path (a
    saved file never imports one by itself); then the list that gives every team its bot again."""
    names = bots_given(saved.game, saved.human_ids)
    return names if any(":" in name for name in names) else ()


def _contradictions(
    saved: SavedGame,
    *,
    players: int | None,
    teams: int | None,
    per_player: int | None,
    humans: int | None,
    names: Sequence[str],
    auto: bool,
    seed: str | None,
    bots: Sequence[str],
) -> list[str]:
    """The options given with ``--resume`` that do not describe the saved game, each with what it has."""
    game, fmt = saved.game, saved.game.format
    found: list[str] = []
    for option, value, kept in (
        ("--players", players, fmt.players),
        ("--teams", teams, fmt.teams),
        ("--per-player", per_player, fmt.teams_per_player),
        ("--humans", humans, saved.humans),
    ):
        if value is not None and value != kept:
            found.append(f"{option} {value} (the saved game has {kept})")
    if auto and saved.humans:
        typing = "1 person types" if saved.humans == 1 else f"{saved.humans} people type"
        found.append(f"--auto (in the saved game {typing} their orders)")
    typed = tuple(p.name for p in saved.people[: saved.humans])
    if names and tuple(names) != typed:
        found.append(f"--names {','.join(names)} (the saved game's people: {', '.join(typed) or 'none'})")
    if seed is not None and seed_commitment(_dice_seed(seed)) != game.id:
        found.append("--seed (not the seed text the saved game was started with)")
    teams_of_bots = bot_teams(game, saved.human_ids)
    if bots and any(game.setup.autopilot(t) != bots[i % len(bots)] for i, t in enumerate(teams_of_bots)):
        by_bot: dict[str, list[str]] = {}
        for team in teams_of_bots:
            by_bot.setdefault(game.setup.autopilot(team), []).append(game.setup.team(team).name)
        kept_bots = "; ".join(f"{bot} for {', '.join(named)}" for bot, named in by_bot.items())
        found.append(f"--bots {','.join(bots)} (the saved game's bots: {kept_bots})")
    return found


@contextlib.contextmanager
def _resume_lock(path: Path) -> Iterator[tuple[GameLock, OSError | None]]:
    """The saved game in ``path`` locked for ``sevens play --resume`` (and let go after), with the
    error that kept a lock from being taken where none can be: said once the file itself is checked."""
    # Locked before it is read: another game carrying it on could rewrite it meanwhile.
    lock = GameLock(path.absolute())
    unlocked: OSError | None = None
    try:
        lock.acquire()
    except InUse as exc:
        fail(_in_use(f"cannot carry on the game in {path}", exc, "run this command again"))
    except OSError as exc:  # no file can be made there
        unlocked = exc
    try:
        yield lock, unlocked
    finally:
        lock.release()


def _in_use(what: str, exc: InUse, then: str) -> str:
    """Why a saved game another ``sevens play`` holds cannot be used, and what to do (``then``)."""
    who = "another sevens play" if exc.pid is None else f"another sevens play (process {exc.pid})"
    ways = "end that game there (Ctrl-C)" if exc.pid is None else f"end that game there (Ctrl-C) or with kill {exc.pid}"
    return (
        f"{what}: it is open in {who}, which plays on from it and rewrites it after every turn, and two games "
        f"on one file would overwrite each other's turns; go on in that terminal, or {ways} (it stays kept) and {then}"
    )


def _resume(
    path: Path,
    lock: GameLock,
    unlocked: OSError | None,
    *,
    record: Path | None,
    overwrite: bool,
    bots: Sequence[str],
    players: int | None,
    teams: int | None,
    per_player: int | None,
    humans: int | None,
    names: Sequence[str],
    auto: bool,
    seed: str | None,
) -> None:
    """``sevens play --resume FILE``, the file locked: check it and the options, then carry the game on."""
    module_bots = [name for name in bots if ":" in name]
    try:
        saved = read_saved(
            read_input(path, what="a saved game", named=f"--resume {escaped(path)}", advice="give the file the interrupted game named"),
            module_bots=module_bots,
            path=path,
        )
    except SavedGameError as exc:
        fail(f"cannot carry on the game in {path} (the file is left as it is): {exc}")
    except KeyboardInterrupt as exc:  # while every die is thrown again: nothing was changed yet
        fail(f"interrupted while checking the game in {path}; the file is left as it is: run the command again",
             code=exit_code(exc))
    as_kept = (saved.record, saved.overwrite)
    wrong = _contradictions(
        saved, players=players, teams=teams, per_player=per_player, humans=humans, names=names, auto=auto, seed=seed,
        bots=bots,
    )
    if wrong:
        fail(
            f"cannot carry on the game in {path} with {'; '.join(wrong)}: a game carried on keeps the arrangement, "
            "people, names, bots and seed it was started with, so leave those options out"
        )
    if record is not None:
        if os.path.realpath(record) == os.path.realpath(path):  # however spelt: ./x/../game.json, a link
            fail(f"--record {record} is the saved game itself; give the record another file name")
        saved = dataclasses.replace(saved, record=record.absolute(), overwrite=overwrite)
    elif saved.record is not None:
        started_with = saved.record
        saved = dataclasses.replace(saved, overwrite=saved.overwrite or overwrite)
        if not started_with.parent.is_dir():  # a file carried on on another machine, or a folder since removed
            fail(f"cannot carry on the game in {path}: its record goes to {started_with} (the --record it was started "
                 f"with), and the folder {started_with.parent} is not there; give --record FILE to write it elsewhere")
    elif overwrite:
        fail("--overwrite replaces the file --record writes, and the saved game has no --record: add --record FILE "
             "or drop --overwrite")
    if saved.record is not None:
        check_writable(saved.record, "--record", example="game.json", overwrite=saved.overwrite)
    refused = cannot_create_in(path.absolute().parent)
    if refused is not None:
        fail(f"cannot carry on the game in {path}: it is rewritten after every turn, and its folder refuses new files "
             f"({refused.strerror or refused}); copy it to a folder you can write to and carry it on from there")
    if unlocked is not None:
        fail(f"cannot carry on the game in {path}: it cannot be locked against a second sevens play carrying it on at "
             f"the same time ({unlocked.strerror or unlocked}); copy it to a folder on a local disk and carry it on "
             "from there")
    save = Saving(path.absolute(), turns=len(saved.game.turns), lock=lock)
    save.module_bots = _module_bots(saved)
    save.tidy()  # now, should the game stop again before a turn is kept
    if (saved.record, saved.overwrite) != as_kept:
        # The file says where the record goes from now on: stopped again before a turn is kept, the
        # command the game then gives (--resume FILE alone) would otherwise forget --record.
        try:
            save.keep(saved)
        except OSError as exc:
            fail(f"cannot carry on the game in {path}: the --record given could not be kept in it "
                 f"({exc.strerror or exc}); the file is left as it was")
    if saved.humans:
        lineedit.enable()
    console = ResultsConsole()  # a closed pipe is an OSError here, not rich's own exit with status 1
    try:
        resume_game(console, saved, save)
    except (EOFError, KeyboardInterrupt) as exc:
        _interrupted(console, exc, saved.record, save)
    except (ValueError, OrderRefused) as exc:
        fail(str(exc))
    except OSError as exc:
        if terminal_gone(exc) or isinstance(exc, StdoutError):  # the terminal closed, or the game's output failed
            _interrupted(console, exc, saved.record, save)
        fail(str(exc), code=1)


def _reader_gone(exc: OSError) -> bool:
    """Whether the game's output was a pipe whose reader left (``sevens play --auto | head``): the
    game stops as at a closed terminal, with the status a shell expects of SIGPIPE, 141, as
    the other commands do (:mod:`sevens.cli.output`). Only its output, a pipe or a socket, can
    say so: the files it keeps are files."""
    return exc.errno in (errno.EPIPE, errno.ECONNRESET)


def _typed_in() -> bool:
    """Whether standard input is a terminal (its end was Ctrl-D), not orders piped or redirected in."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except ValueError:  # closed
        return False


def _interrupted(
    console: Console, exc: BaseException, record: Path | None, save: Saving | None, *, no_save: bool = False,
    humans: int = 1,
) -> NoReturn:
    """Say what an interrupted game left (where it is kept and how to carry it on) and exit: after
    Ctrl-C, Ctrl-\\ (SIGQUIT), input that ended, ``kill`` (SIGTERM) or a closed terminal (SIGHUP, or
    output that fails as the terminal goes), with what a shell expects of each (130, 131, 1, 143, 129). With no terminal
    left to print to, nothing is printed, but the file is left the same. Output that cannot be written
    (``>/dev/full``) is said first, as the other commands say it, status 1."""
    unwritten = ""
    if isinstance(exc, OSError) and not terminal_gone(exc) and not _reader_gone(exc):
        unwritten = OutputFailed(exc).message() + "; "
        drop_stdout()  # what is still buffered would only fail again as Python exits
    elif isinstance(exc, OSError):  # the terminal went away as the game wrote to it, or the reader of a pipe did
        exc = Stopped(signal.SIGPIPE if _reader_gone(exc) else signal.SIGHUP)
    winding_up()  # a second signal now would only break off what is said and removed
    try:
        if not unwritten:
            console.line()  # off the prompt's line, where the error would otherwise follow what was typed
    except OSError:
        output_gone()
    # Input that ran out interrupted nothing: it is said as what it was, Ctrl-D or orders that ran out.
    ended = isinstance(exc, EOFError)
    typed = ended and _typed_in()
    what = "the game was interrupted"
    if ended:
        what = "standard input ended (Ctrl-D)" if typed else "standard input ended (no orders were left on it)"
    if save is not None and save.finished:
        unsaved = "" if record is None else f"; {record} was not written (it is written last)"
        gone = f"so {save.path} was removed" if save.discard(console) else f"so {save.path} can be deleted"
        message = f"{what} after its final, whose results were shown: it is over, {gone}{unsaved}"
    elif save is None or save.turns is None:
        unsaved = "" if record is None else f"; {record} was not written (the record is written at the end)"
        if no_save:  # asked for: one who typed it once may not know it is why nothing can be carried on
            # A game of bots only is kept with --save alone (see _saving).
            keep = "leave out --no-save, or give --save FILE" if humans else "give --save FILE instead of --no-save"
            message = (
                f"{what} before {'the game did' if ended else 'the end'}; with --no-save it was kept nowhere, so it "
                f"is lost and there is nothing to carry on (to keep the next game, {keep}){unsaved}"
            )
        elif save is None:  # bots only without --save
            message = f"{what} before the game did; it was kept nowhere, so it is lost{unsaved}" if ended else (
                f"{what} before the end{unsaved}"
            )
        else:  # stopped at the names, or before the draw was first kept
            game = "the game" if ended else "it"
            message = f"{what} before {game} was first kept, so nothing of it is kept: run the command again{unsaved}"
    else:
        stood = "after the draw" if save.turns == 0 else f"after turn {save.turns}"
        # Orders piped in again from the start would be taken for the turn the game carries on at.
        piped = f", giving it the orders from turn {save.turns + 1} on," if ended and not typed else ""
        message = (
            f"{what}{' before the game did; the game' if ended else '; it'} is kept in {escaped(save.path)} "
            f"as it stood {stood} "
            f"(orders typed for turn {save.turns + 1} were not kept and are typed again): carry it on{piped} with: "
            f"{save.command()}"
        )
    # As a shell expects of a signal (128 + its number); input that ran out is a plain failure.
    fail(unwritten + message, code=exit_code(exc))


def _saving(save: Path | None, *, no_save: bool, humans: int, overwrite: bool, record: Path | None) -> Saving | None:
    """Where a new game is kept: ``--save FILE``; with people typing, a new file in
    :func:`~sevens.cli.saved.default_folder`; with ``--no-save``, or bots only, nowhere."""
    if save is not None and no_save:
        fail("--save FILE keeps the game in FILE and --no-save keeps it nowhere: give one of them")
    if save is not None:
        if record is not None and os.path.realpath(save) == os.path.realpath(record):  # however spelt, or linked
            both = (f"both name {escaped(save)}" if save == record
                    else f"name the same file ({escaped(save)}, {escaped(record)})")
            fail(f"--save and --record {both}: the game in progress and its record need a file each")
        # Locked from now, so that no game carried on from it (--overwrite) is replaced under its feet.
        lock = GameLock(save.absolute())
        locked = True
        try:
            lock.acquire()
        except InUse as exc:
            fail(_in_use(f"--save {escaped(save)} holds a game being played", exc,
                         f"carry it on with sevens play --resume {shell_quoted(str(save))}; or choose another file name"))
        except OSError:  # no file can be made there: check_writable says why
            locked = False
        try:
            if save.exists() and not overwrite and looks_saved(save):
                fail(f"--save {escaped(save)} already holds a saved game, which would be replaced: carry it on with sevens "
                     f"play --resume {shell_quoted(str(save))}, choose another file name, or pass --overwrite to "
                     "replace it")
            check_writable(save, "--save", example="game-save.json", overwrite=overwrite)
        except BaseException:
            lock.release()
            raise
        return Saving(save.absolute(), overwrite=overwrite, lock=lock if locked else None)
    if no_save or not humans:
        return None
    folder = default_folder()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot make the folder {folder}, where games in progress are kept: {exc.strerror or exc}; "
             "choose a file with --save FILE, or play without keeping the game with --no-save")
    refused = cannot_create_in(folder)
    if refused is not None:
        fail(f"cannot keep the game in {folder}: {refused.strerror or refused}; choose a file with --save FILE, "
             "or play without keeping the game with --no-save")
    return Saving(folder / "game.json", fresh=True)


def register(app: typer.Typer) -> None:
    """Add ``sevens play`` to the application."""

    @app.command("play")
    def play(
        players: Annotated[int | None, typer.Option(metavar="N", help="Number of managers, 4 to 16 (R12); default 4.")] = None,
        teams: Annotated[
            int | None,
            typer.Option(metavar="N", help="8 or 16 teams; default: the arrangement R12 prefers (largest share managed by people)."),
        ] = None,
        per_player: Annotated[
            int | None,
            typer.Option("--per-player", metavar="N", help="Teams each player manages (R12); default: as R12 prefers."),
        ] = None,
        humans: Annotated[
            int | None,
            typer.Option(
                metavar="N",
                help="How many of the players type their orders here (default: 1, as many as --names gives, or 0 with --auto).",
            ),
        ] = None,
        people_names: Annotated[
            str | None,
            typer.Option(
                "--names",
                metavar="NAMES",
                help="The names of the people typing orders, comma-separated, one for each of --humans "
                "(e.g. --names Ann,Bob): in the draw, the hand-overs and the game record. Default: asked at the start "
                "in a terminal for two or more people, else Player 1, Player 2, ...",
            ),
        ] = None,
        auto: Annotated[bool, typer.Option("--auto", metavar="", help="Bots play every team.")] = False,
        seed: Annotated[
            str | None,
            typer.Option(metavar="TEXT", help="Seed for the draw and the dice, any text (replayable game)."),
        ] = None,
        record: Annotated[
            Path | None,
            typer.Option(
                metavar="FILE",
                help="Write the game record (JSON) to this file at the end; checked before the game: "
                "its folder must be writable, and an existing file is refused unless --overwrite is given.",
            ),
        ] = None,
        overwrite: Annotated[
            bool,
            typer.Option(
                "--overwrite", metavar="", help="Replace the files --record and --save write if they already exist "
                "(without this, an existing file is refused and left as it is).",
            ),
        ] = False,
        bots: Annotated[
            str | None,
            typer.Option(
                metavar="NAMES",
                help=f"Bots for the teams nobody types for, comma-separated, given to them in turn "
                f"(one of: {', '.join(STRATEGIES)}; a knockout weight as in the strategy guide, "
                f"e.g. equilibrium@1.1; a registered bot's name; or a module:attribute path to a bot of "
                f"one's own). Default: {DEFAULT_BOT}."
            ),
        ] = None,
        save: Annotated[
            Path | None,
            typer.Option(
                metavar="FILE",
                help="Keep the game in this file after the draw and after every turn, to carry it on with --resume if "
                "it stops (Ctrl-C, input that ends, a closed terminal, a crash); removed once the game is over. It holds "
                "the game's SECRET seed (mode 0600): keep it to yourself. Default: when someone types orders, a new "
                "file in $XDG_STATE_HOME/sevens (~/.local/state/sevens); when only bots play (--auto), none.",
            ),
        ] = None,
        no_save: Annotated[
            bool, typer.Option("--no-save", metavar="", help="Do not keep the game in a file: if it stops, it is lost."),
        ] = False,
        resume: Annotated[
            Path | None,
            typer.Option(
                metavar="FILE",
                help="Carry on the game kept in FILE from its last resolved turn: the same draw, dice, bots, people and "
                "record file (orders typed in the turn that was interrupted are typed again). The file is checked "
                "first, every die thrown again from its seed; other options may be given only if they agree with it.",
            ),
        ] = None,
    ) -> None:
        """Play a game of Sevens in the terminal: you against the bots, or bots only with --auto.

        At each order prompt type FORCE then FLAIR (20 9); ? there explains the game, t shows the group
        tables, m every match so far of the two teams (m and a team's name: that team's).

        The game is kept after every turn, and a game that stops is carried on with --resume FILE."""
        if resume is not None and str(resume) == "-" and not resume.exists():
            # Other commands read - as standard input; here it holds the orders typed as the game goes.
            fail("--resume - would read the saved game from standard input, which the game reads its orders from; "
                 "give the saved game's file, e.g. --resume game.json (a file named - is --resume ./-)")
        for option, path in (("--record", record), ("--save", save)):
            if path is not None and str(path) == "-":
                # Other commands write - to standard output; here it shows the game. It made a file named -,
                # and then said to check it with "sevens verify -", which reads standard input.
                fail(f"{option} - would write to standard output, which shows the game; give a file, e.g. "
                     f"{option} game.json")
        if resume is not None:
            for flag, value in (("--save", save is not None), ("--no-save", no_save)):
                if value:
                    fail(f"--resume {resume} keeps the game in that same file: drop {flag}")
            # A closed terminal or kill ends the game as Ctrl-C does.
            with stop_on_signals(), _resume_lock(resume) as (lock, unlocked):
                _resume(
                    resume, lock, unlocked, record=record, overwrite=overwrite, bots=_bot_names(bots), players=players, teams=teams,
                    per_player=per_player, humans=humans, names=_people_names(people_names), auto=auto, seed=seed,
                )
            return
        players = 4 if players is None else players
        if auto and humans:
            fail(f"--auto has bots play every team, so nobody types orders: drop --humans {humans} or --auto")
        given = _people_names(people_names)
        if auto and given:
            fail("--auto has bots play every team, so nobody types orders and no name is needed: drop --names or --auto")
        humans = 0 if auto else ((len(given) or 1) if humans is None else humans)
        if not 4 <= players <= 16:
            fail(f"R12: Sevens is for 4 to 16 players, not {players}; use --players 4 to 16")
        if given and humans > players and len(given) == humans:  # --humans left out: --names set it
            fail(f"--names gives {len(given)} names, but the game has {players} players (--players {players}); every "
                 f"person typing orders is one of them: give --players {humans} or more, or fewer names")
        if not 0 <= humans <= players:
            fail(f"--humans must be from 0 to the number of players ({players}), not {humans}")
        try:
            check_names(given, humans=humans, players=players)
        except ValueError as exc:
            fail(str(exc))
        if save is None or no_save or not looks_saved(save):  # a saved game there gets its own words (--resume)
            refuse_existing([("--record", record), ("--save", None if no_save else save)], overwrite=overwrite)
        if record is not None:
            check_writable(record, "--record", example="game.json", overwrite=overwrite)
        elif overwrite and save is None:
            fail("--overwrite replaces the files --record and --save write, and neither is given: add --record FILE or "
                 "drop --overwrite")
        names = _bot_names(bots)
        saving = _saving(save, no_save=no_save, humans=humans, overwrite=overwrite, record=record)
        try:
            with stop_on_signals():  # a closed terminal or kill ends the game as Ctrl-C does
                _new_game(
                    saving, players=players, teams=teams, per_player=per_player, humans=humans, seed=seed,
                    record=record, bots=names, overwrite=overwrite, given=given, no_save=no_save,
                )
        finally:
            if saving is not None:
                saving.release()


def _new_game(
    saving: Saving | None,
    *,
    players: int,
    teams: int | None,
    per_player: int | None,
    humans: int,
    seed: str | None,
    record: Path | None,
    bots: Sequence[str],
    overwrite: bool,
    given: Sequence[str],
    no_save: bool,
) -> None:
    """``sevens play`` without ``--resume``, its options checked: ask the names, play the game."""
    if humans:
        lineedit.enable()  # arrow keys edit the order typed; nothing typed is kept for the next person
    console = ResultsConsole()  # a closed pipe is an OSError here, not rich's own exit with status 1
    try:
        if humans > 1 and not given and sys.stdin.isatty():
            # A terminal, so someone is there to answer; piped input keeps its answers for the orders.
            given = _ask_names(console, humans=humans, players=players)
        play_game(
            console, players=players, teams=teams, per_player=per_player, humans=humans, seed=seed,
            record=record, bots=bots, overwrite=overwrite, names=given, save=saving,
        )
    except (EOFError, KeyboardInterrupt) as exc:
        _interrupted(console, exc, record, saving, no_save=no_save, humans=humans)
    except (ValueError, OrderRefused) as exc:
        fail(str(exc))
    except OSError as exc:  # a turn could not be kept, or the record was kept elsewhere: the message says where
        if terminal_gone(exc) or isinstance(exc, StdoutError):  # the terminal closed, or the game's output failed
            _interrupted(console, exc, record, saving, no_save=no_save, humans=humans)
        fail(str(exc), code=1)
