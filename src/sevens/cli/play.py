"""``sevens play``: a whole game in the terminal, for people at one keyboard against bots."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import random
import re
import secrets
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.control import Control
from rich.markup import escape
from rich.segment import Segment
from rich.table import Table

from sevens.bots import DEFAULT_BOT, STRATEGIES, describe, get_strategy
from sevens.cli import lineedit
from sevens.cli.errors import MAX_DIGITS, check_loadable, fail
from sevens.cli.files import OVERWRITE_HELP, check_writable, write_text
from sevens.cli.lineedit import AskLine, ConfirmLine
from sevens.cli.render import bracket, draw_table, group_table, match_report, percent
from sevens.odds import knockout_odds, match_odds, order_odds
from sevens.rules import MAX_ORDER_POINTS, Order, validate_order
from sevens.tournament.formats import TEAM_COUNTS, Format, check_format, legal_formats, preferred
from sevens.tournament.game import (
    Game,
    OrderRefused,
    TurnOrder,
    autopilot_orders,
    check_order,
    new_game,
    resolve_turn,
)
from sevens.tournament.record import dumps, to_record
from sevens.tournament.setup import Player, PlayerId, TeamId, draw_game_from_seed

__all__ = ["MAX_NAME", "check_names", "parse_order_text", "play_game", "register"]


# ASCII digits only: str.isdigit and int() also take '²' or '٣'. A minus sign is let through so
# that check_order can say which rule a negative order breaks.
_ORDER_NUMBER = re.compile(r"-?[0-9]+")


def parse_order_text(text: str) -> tuple[int, int]:
    """Read an order typed as ``FORCE FLAIR`` (``"20 9"``, ``"20+9"`` or ``"20,9"``).

    >>> parse_order_text("20 9"), parse_order_text(" 0+30 ")
    ((20, 9), (0, 30))
    >>> parse_order_text("twenty")
    Traceback (most recent call last):
    ...
    ValueError: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3)
    >>> parse_order_text("--5 3")
    Traceback (most recent call last):
    ...
    ValueError: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3)
    >>> parse_order_text("9999999 0")
    Traceback (most recent call last):
    ...
    ValueError: R3: a number of more than 6 digits is too large; an order has at most 160 points
    """
    parts = text.replace("+", " ").replace(",", " ").split()
    if len(parts) != 2 or not all(_ORDER_NUMBER.fullmatch(p) for p in parts):
        raise ValueError("type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3)")
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
        raise ValueError(f"R6: a game has 8 or 16 teams, not {teams}")
    if teams is not None and per_player is not None:
        fmt = Format(teams=teams, players=players, teams_per_player=per_player)
        check_format(fmt)  # a bad combination: its R12 message lists the legal ones
        return fmt
    options = [
        f
        for f in legal_formats(players)
        if (teams is None or f.teams == teams) and (per_player is None or f.teams_per_player == per_player)
    ]
    if not options and per_player is not None:
        # Whatever is legal with 8 teams is legal with 16, so this names why no game size works.
        check_format(Format(teams=16, players=players, teams_per_player=per_player))
    if not options:
        legal = ", ".join(f"{f.teams} teams with {f.teams_per_player} each" for f in legal_formats(players))
        raise ValueError(f"R12: {players} players cannot play with {teams} teams; legal for {players} players: {legal}")
    return preferred(options)


def _plausible_opponent(game: Game, opponent: TeamId, bot: str | None) -> Order:
    # A typical order of the opponent's bot, drawn from a fixed random source rather than the
    # game's secret one: a bot whose choice leaves nothing to chance plays exactly this (its
    # inputs are public), the others something like it. For a person, what an evenly pacing
    # manager would send: a yardstick, not a guess.
    return get_strategy(bot or DEFAULT_BOT).order(game.view_for(opponent), random.Random(0))


def _odds_line(game: Game, order: Order, opponent: TeamId, bot: str | None) -> str:
    vs = _plausible_opponent(game, opponent, bot)
    mean = order_odds(order.force, order.flair).expected_points
    if game.stage is not None and game.stage.knockout:
        ko = knockout_odds(order, vs)
        chances = f"win {percent(ko.win)}, lose {percent(ko.loss)}, level after count-back {percent(ko.level)}"
    else:
        m = match_odds(order, vs)
        chances = f"win {percent(m.win)}, draw {percent(m.draw)}, lose {percent(m.loss)}"
    against = f"a typical order of its bot {bot}" if bot else "an even-paced order"
    return f"expected {mean:.2f} points; against {against}, {vs.force}+{vs.flair}: {chances}"


class _SendConfirm(ConfirmLine):
    """y/n, and the words people type too: "yes" and "no" (rich takes only "y" and "n")."""

    validate_error_message = "[prompt.invalid]Please answer y (send it) or n (type another order)"

    def process_response(self, value: str) -> bool:
        word = value.strip().lower()
        return super().process_response({"yes": "y", "no": "n"}.get(word, word))


def _order_help(scrum: int) -> str:
    """What to type and what it does (R1-R4, R9), for a player who has not read the rules."""
    return (
        f"  Type two whole numbers, FORCE then FLAIR, e.g. 20 9; together at most the team's SCRUM ({scrum}), "
        "either may be 0.\n"
        "  FORCE: one die per point; each 5 is a try (5 points, never converted), each 3 a penalty (3).\n"
        "  FLAIR: a multiple of 3, one throw of two dice per 3 points: a total of 7 is a converted try (7 "
        "points); otherwise each 5 is a try (5) and each 3 a drop goal (3). A double throws again.\n"
        "  Points ordered are spent, win or lose; the winner gains 10 SCRUM for its next match. A group win is "
        "worth 2 league points, a draw 1; a level knockout goes to tries, conversions, drop goals, the group "
        "record, then lots.\n"
        "  Before you send it, the game shows the points the order scores on average and its chances against "
        "a typical order of the opponent, worked out from what everyone can see (its real order is shown with "
        "the results).\n"
        "  Match reports: 36 (5T 1C 2P 1DG) is 36 points from 5 tries, 1 conversion, 2 penalties and 1 drop "
        "goal; under it every die, FORCE faces then each FLAIR throw, a double and its re-throw joined by '>' (2-2>3-4)."
    )


def _ask_order(console: Console, game: Game, team: TeamId, people: set[PlayerId]) -> Order:
    view = game.view_for(team)
    n = game.turn_number
    assert n is not None and view.opponent is not None and view.opponent_scrum is not None
    name = game.setup.team(team).name
    opp = game.setup.team(view.opponent).name
    bot = None if game.setup.team(view.opponent).manager in people else game.setup.autopilot(view.opponent)
    played_by = f", played by the bot {bot}" if bot else ""
    console.print(
        f"\n[bold]{name}[/] (SCRUM {view.scrum}) v {opp} (SCRUM {view.opponent_scrum}{played_by}), {game.stage}, "
        f"turn {n}; at most {view.turns_left} matches left if you keep winning."
    )
    if view.scrum == 0:
        # R3 leaves one order: asking for it would only invite refusals.
        console.print(f"{name} has no SCRUM left, so its order is 0 FORCE + 0 FLAIR.")
        return check_order(game, turn=n, team=team, force=0, flair=0)
    while True:
        text = AskLine.ask(f"Order for {name} as FORCE FLAIR (? for help)", console=console)
        if text.strip().lower() in ("?", "h", "help"):
            console.print(_order_help(view.scrum))
            continue
        try:
            force, flair = parse_order_text(text)
            # The rule broken in the player's words first: check_order's message starts with the team's id.
            validate_order(force, flair, scrum=view.scrum)
            order = check_order(game, turn=n, team=team, force=force, flair=flair)
        except (ValueError, OrderRefused) as exc:
            console.print(f"[red]Refused:[/] {exc}. Try again.")
            continue
        console.print(f"  {order.force} FORCE + {order.flair} FLAIR: {_odds_line(game, order, view.opponent, bot)}")
        if _SendConfirm.ask("  Send this order?", console=console, default=True):
            return order


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
        for table in game.tables().values():
            console.print(group_table(table, _team_names(game)))
    if (game.stage is not None and game.stage.knockout) or (last is not None and last.knockout):
        console.print(bracket(game))


def _fixtures_table(game: Game) -> Table:
    table = Table()
    for header in ("Match", "Home", "SCRUM", "Away", "SCRUM"):
        table.add_column(header)
    for f in game.fixtures():
        table.add_row(
            f.id + (f" ({f.group})" if f.group else ""),
            game.setup.team(f.home).name,
            str(game.scrum(f.home)),
            game.setup.team(f.away).name,
            str(game.scrum(f.away)),
        )
    return table


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
) -> Game:
    """Play a whole game: people type orders for their teams, bots play the rest (``bots``: their
    names, given to the bot-played teams in turn; none: the default bot). ``teams`` and
    ``per_player`` (teams each player manages) pick the arrangement; R12's preference fills in.
    ``names``: the people's names, one for each of ``humans`` (default "Player 1", "Player 2", ...),
    checked by :func:`check_names`.
    ``record``: the file the game record is written to at the end (replacing a file there only
    with ``overwrite``); if it cannot be, the record goes to a file in the temporary folder, or
    failing that to the console, and OSError says where."""
    fmt = _choose_format(players, teams, per_player)
    dice_seed = _dice_seed(seed)
    check_names(names, humans=humans, players=players)
    named = list(names) or [f"Player {i}" for i in range(1, humans + 1)]
    people = [Player(PlayerId(f"p{i}"), named[i - 1] if i <= humans else f"Bot {i}") for i in range(1, players + 1)]
    # Drawn from the dice seed, so anyone can redo the draw once the seed is revealed.
    setup = draw_game_from_seed(people, fmt, seed=dice_seed)
    human_ids = {p.id for p in people[:humans]}
    played_by_bots = [t.id for t in setup.teams if t.manager not in human_ids]
    for i, team in enumerate(played_by_bots if bots else ()):
        setup = setup.with_autopilot(team, bots[i % len(bots)])
    game = new_game(setup)
    each = "1 team" if fmt.teams_per_player == 1 else f"{fmt.teams_per_player} teams"
    console.rule(f"Sevens: {fmt.teams} teams, {players} players, {each} each")
    # soft_wrap: a narrow terminal wraps the hash itself, so that it is copied whole, with no line
    # break in the middle, for checking against the seed revealed at the end.
    console.print(f"Seed commitment (SHA-256 of the secret dice seed): {setup.seed_sha256}", soft_wrap=True)
    console.print(draw_table(game))
    by_bot: dict[str, list[str]] = {}
    for team in played_by_bots:
        by_bot.setdefault(setup.autopilot(team), []).append(setup.team(team).name)
    for name, names in by_bot.items():
        console.print(f"Played by the bot {name} ({describe(name)}): {', '.join(names)}")

    if seed is not None and humans:
        # R14 keeps the dice unknown until every order is in; a seed that people typed is known to them.
        console.print(
            "[bold]--seed:[/] whoever knows the seed text can work out the bots' orders and the dice for any "
            "order before sending it; leave --seed out of a game played for real."
        )
    can_clear = console.is_terminal and not console.is_dumb_terminal
    if humans > 1 and not can_clear:
        console.print(
            "[bold]This output is not a terminal that can be cleared:[/] between two people's orders the "
            "game can only push them off the screen with blank lines, and they stay in the scrollback."
        )
    while not game.finished:
        n = game.turn_number
        assert n is not None
        console.rule(f"Turn {n}: {game.stage}")
        console.print(_fixtures_table(game))
        in_play = set(game.teams_in_play())
        orders: dict[TeamId, TurnOrder] = {}
        for person in people[:humans]:
            mine = [t for t in setup.teams_of(person.id) if t in in_play]
            if not mine:
                continue
            if humans > 1:
                AskLine.ask(f"\n{escape(person.name)}: your orders are secret. Press Enter when you are at the keyboard",
                           console=console, default="", show_default=False)
            for team in mine:
                orders[team] = TurnOrder(team, _ask_order(console, game, team, human_ids))
            if humans > 1:
                _hand_over(console, can_clear)
                if any(t in in_play for p in people[people.index(person) + 1:humans] for t in setup.teams_of(p.id)):
                    # The next person sees what was on the screen before, all public, and none of the orders.
                    console.rule(f"Turn {n}: {game.stage}")
                    _print_standings(console, game)
                    console.print(_fixtures_table(game))
        rest = [t for t in game.teams_in_play() if t not in orders]
        played = autopilot_orders(game, rest, get_strategy, seed=dice_seed)
        for team, given in played.items():
            manager = setup.team(team).manager
            # A bot manager chose this order on purpose: it is not a missed order (R13).
            orders[team] = dataclasses.replace(given, missed=False) if manager not in human_ids else given
        game = resolve_turn(game, orders, dice_seed)
        turn = game.turns[-1]
        for match in turn.matches:
            console.print(match_report(game, match))
        _print_standings(console, game)

    champion = game.champion
    assert champion is not None
    manager = setup.team(champion).manager
    managed = "" if manager is None else f" ({escape(next(p.name for p in people if p.id == manager))})"
    console.rule(f"Champion: {setup.team(champion).name}{managed}")
    console.print(f"Dice seed, revealed: {dice_seed.hex()}", soft_wrap=True)
    if record is not None:
        _save_record(console, record, dumps(to_record(game, seed=dice_seed.hex())), overwrite=overwrite)
    return game


def _save_record(console: Console, path: Path, text: str, *, overwrite: bool) -> None:
    """Write the record to ``path``, whole or not at all; if that fails, keep it elsewhere and
    raise OSError saying where: the game cannot be played again (people's orders, a random seed)."""
    try:
        write_text(path, text, overwrite=overwrite)
    except OSError as exc:
        why = (
            "a file of that name appeared during the game (another program's?) and was left as it is"
            if isinstance(exc, FileExistsError) else (exc.strerror or str(exc))
        )
        kept = _keep_elsewhere(text)
        if kept is None:
            console.out(text, highlight=False)
            where = "the record is printed above: save it to a file"
        else:
            where = f"the record was saved to {kept} instead: move it where you want it"
        raise OSError(
            f"cannot write the game record to {path}: {why}; {where} and check it with sevens verify FILE"
        ) from None
    console.print(f"Game record written to {path}; check it with: sevens verify {path}")


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
"""The longest name a person at the keyboard may give (it goes in the draw's narrow columns)."""


def check_names(names: Sequence[str], *, humans: int, players: int) -> None:
    """Refuse people's names (``--names``) that could not tell the people apart: one name for each
    of ``humans``, none empty, none twice (in any case), none a bot's ("Bot 4"), each printable and
    at most :data:`MAX_NAME` characters; none given is fine ("Player 1", ...).

    >>> check_names(["Ann", "Bob"], humans=2, players=4)
    >>> check_names(["Ann", "ann"], humans=2, players=4)
    Traceback (most recent call last):
    ...
    ValueError: --names: 'ann' is given twice (names are compared ignoring case); give each person a name of their own
    >>> check_names(["Ann", "Bot 4"], humans=2, players=4)
    Traceback (most recent call last):
    ...
    ValueError: --names: 'Bot 4' is the name of a bot in this game (players 3 to 4 are bots); choose another name
    """
    if not names:
        return
    if len(names) != humans:
        raise ValueError(
            f"--names gives {len(names)} name{'s' if len(names) != 1 else ''} for {humans} "
            f"{'person' if humans == 1 else 'people'} typing orders (--humans {humans}); give one name for each, "
            f"or --humans {len(names)}"
        )
    taken: list[str] = []
    for name in names:
        if not name:
            raise ValueError("--names has an empty name; give names separated by commas, e.g. --names Ann,Bob")
        problem = _name_problem(name, taken, humans=humans, players=players)
        if problem:
            raise ValueError(f"--names: {problem}")
        taken.append(name)


def _name_problem(name: str, taken: Sequence[str], *, humans: int, players: int) -> str | None:
    """Why ``name`` cannot be a person's name beside the names ``taken``, or None if it can."""
    if not name.isprintable():
        return f"{name!r} has a character that cannot be shown (a tab, a newline, ...); use letters, digits and spaces"
    if len(name) > MAX_NAME:
        return f"{name[:MAX_NAME]!r}... is longer than {MAX_NAME} characters; give a shorter name"
    if name.casefold() in {t.casefold() for t in taken}:
        return f"{name!r} is given twice (names are compared ignoring case); give each person a name of their own"
    if name.casefold() in {f"bot {i}" for i in range(humans + 1, players + 1)}:
        return f"{name!r} is the name of a bot in this game (players {humans + 1} to {players} are bots); choose another name"
    return None


def _ask_names(console: Console, *, humans: int, players: int) -> tuple[str, ...]:
    """Ask each person at the keyboard for a name, checked as ``--names`` is; Enter keeps "Player N"."""
    console.print("Who is playing? Type each person's name (Enter keeps the name shown; --names gives them without asking).")
    names: list[str] = []
    while len(names) < humans:
        default = f"Player {len(names) + 1}"
        name = AskLine.ask(f"Name of {default}", console=console, default=default).strip() or default
        problem = _name_problem(name, names, humans=humans, players=players)
        if problem:
            console.print(f"[red]Refused:[/] {escape(problem)}.")
            continue
        names.append(name)
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
            check_loadable("--bots", name, get_strategy, what="bot", needs="a name and an order(view, rng) method")
        except ValueError as exc:
            fail(f"--bots: {exc}")
    return names


def _team_names(game: Game) -> dict[str, str]:
    return {t.id: t.name for t in game.setup.teams}


def register(app: typer.Typer) -> None:
    """Add ``sevens play`` to the application."""

    @app.command("play")
    def play(
        players: Annotated[int, typer.Option(metavar="N", help="Number of managers, 4 to 16 (R12).")] = 4,
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
        overwrite: Annotated[bool, typer.Option("--overwrite", metavar="", help=OVERWRITE_HELP)] = False,
        bots: Annotated[
            str | None,
            typer.Option(
                metavar="NAMES",
                help=f"Bots for the teams nobody types for, comma-separated, given to them in turn "
                f"(one of: {', '.join(STRATEGIES)}; a knockout weight as in the strategy guide, "
                f"e.g. equilibrium@1.1; or a registered bot's name). Default: {DEFAULT_BOT}."
            ),
        ] = None,
    ) -> None:
        """Play a game of Sevens in the terminal: you against the bots, or bots only with --auto."""
        if auto and humans:
            fail(f"--auto has bots play every team, so nobody types orders: drop --humans {humans} or --auto")
        given = _people_names(people_names)
        if auto and given:
            fail("--auto has bots play every team, so nobody types orders and no name is needed: drop --names or --auto")
        humans = 0 if auto else ((len(given) or 1) if humans is None else humans)
        if not 4 <= players <= 16:
            fail(f"R12: Sevens is for 4 to 16 players, not {players}; use --players 4 to 16")
        if not 0 <= humans <= players:
            fail(f"--humans must be from 0 to the number of players ({players}), not {humans}")
        try:
            check_names(given, humans=humans, players=players)
        except ValueError as exc:
            fail(str(exc))
        if record is not None:
            check_writable(record, "--record", example="game.json", overwrite=overwrite)
        elif overwrite:
            fail("--overwrite replaces the file --record writes, and no --record is given: add --record FILE or drop --overwrite")
        names = _bot_names(bots)
        if humans:
            lineedit.enable()  # arrow keys edit the order typed; nothing typed is kept for the next person
        console = Console()
        try:
            if humans > 1 and not given and sys.stdin.isatty():
                # A terminal, so someone is there to answer; piped input keeps its answers for the orders.
                given = _ask_names(console, humans=humans, players=players)
            play_game(
                console, players=players, teams=teams, per_player=per_player, humans=humans, seed=seed,
                record=record, bots=names, overwrite=overwrite, names=given,
            )
        except (ValueError, OrderRefused) as exc:
            fail(str(exc))
        except OSError as exc:  # the game was played; its record is kept elsewhere, the message says where
            fail(str(exc), code=1)
        except (EOFError, KeyboardInterrupt) as exc:
            console.line()  # off the prompt's line, where the error would otherwise follow what was typed
            unsaved = "" if record is None else f"; {record} was not written (the record is written at the end)"
            # Ctrl-C exits as a shell expects of SIGINT (128 + 2); input that ran out is a plain failure.
            fail(f"the game was interrupted before the end{unsaved}", code=130 if isinstance(exc, KeyboardInterrupt) else 1)
