"""``sevens verify FILE``: check a game record against its revealed seed and its orders (R14)."""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path
from typing import Annotated

import typer

from sevens.bots import (
    ENTRY_POINT_GROUP,
    BotVerification,
    check_with_bots,
    get_strategy,
    named_bot,
    shown_name,
    shown_names,
)
from sevens.cli.errors import BOT_NEEDS, EXIT_BAD_INPUT, check_loadable, fail, one_line
from sevens.cli.inputs import STDIN, other_kind, parse_json, read_input, shown
from sevens.cli.output import printing
from sevens.cli.saved import FORMAT as SAVED_FORMAT
from sevens.tournament.quoting import shell_quoted
from sevens.tournament.record import FORMAT as RECORD_FORMAT
from sevens.tournament.record import RecordError, VerificationError, loads

__all__ = ["EXIT_MISMATCH", "register"]

EXIT_MISMATCH = 1
_LISTED = 5  # module paths the exit-3 message gives for --bots before it counts the rest
EXIT_UNCHECKED = 3  # all agrees, but some bots named in the record are not installed here, or fail here


def register(app: typer.Typer) -> None:
    """Add ``sevens verify`` to the application."""

    @app.command("verify")
    def verify(
        file: Annotated[
            Path, typer.Argument(metavar="FILE", help="A game record (JSON), as written by `sevens play --record` or downloaded from a game's page of the web app (its record.json), or - to read it from standard input.")
        ],
        bots: Annotated[
            str | None,
            typer.Option(
                "--bots",
                metavar="MODULE:ATTR,...",
                help="Bots the record names by a module path (as given to sevens play --bots), comma-separated, "
                "that verify may import to play their orders again. Their code runs: give only code you trust. "
                "A record alone never makes verify import a module.",
            ),
        ] = None,
    ) -> None:
        """Recompute a game from its record: seed, digests, dice, lines, SCRUM, tables, pairings, bots.

        Exits 0 if all agrees, 1 at a mismatch, 2 for a file that is not a readable record, and 3
        if all agrees but some orders name bots not installed here (or failing to load or to play here,
        or named by a module path not given with --bots), so they could not be played again."""
        trusted = _trusted_bots(bots)
        text = read_input(file, what="a game record's JSON file", dash_is_stdin=True)
        name = shown(file)
        try:
            parsed = parse_json(text)
        except ValueError as exc:
            fail(f"{name}: not a readable Sevens game record: {exc}", code=EXIT_BAD_INPUT)
        try:
            data = loads(text)
            refused = other_kind(parsed, file, wanted=RECORD_FORMAT, expected="a game record")
            if data.get("format") == SAVED_FORMAT:
                # Quoted for a shell, to be pasted; '--resume -' is refused, so piped in it needs a file.
                resume = (
                    "save it to a file and carry it on with sevens play --resume FILE" if str(file) == STDIN
                    else f"carry it on with: sevens play --resume {shell_quoted(str(file))}"
                )
                fail(
                    f"{name}: a game in progress kept by sevens play, not a game record: {resume}; the record it "
                    "writes at the end (--record) is what verifies",
                    code=EXIT_BAD_INPUT,
                )
            if refused is not None:
                fail(refused, code=EXIT_BAD_INPUT)
            found = check_with_bots(data, strategies=lambda bot: get_strategy(bot) if bot in trusted else named_bot(bot))
        except VerificationError as exc:
            fail(f"{name}: does not verify: {exc}", code=EXIT_MISMATCH)
        except RecordError as exc:
            fail(f"{name}: not a readable Sevens game record: {exc}", code=EXIT_BAD_INPUT)
        except ValueError as exc:  # anything else the rules refuse is still bad input, not a crash
            fail(f"{name}: not a valid Sevens game record: {exc}", code=EXIT_BAD_INPUT)
        except RecursionError:  # json gives up on deep nesting this way, not with a ValueError
            fail(f"{name}: not a readable Sevens game record: its JSON is nested too deeply", code=EXIT_BAD_INPUT)
        # 1 says the record does not verify: output that failed keeps the status it had, 2.
        with printing(code=EXIT_BAD_INPUT):
            # The summary names the champion by the record's id, which a forged record may fill with
            # an escape sequence: shown escaped, as the error lines are.
            typer.echo(_between_words(one_line(f"{name}: {found.summary}")))
        if not found.in_full:
            fail(f"{name}: not verified in full: {_shortfall(found)}", code=EXIT_UNCHECKED)


def _between_words(line: str) -> str:
    """``line`` broken between words to the terminal's width, the lines after the first indented,
    where standard output is a terminal: it left the summary's 280 columns to the terminal, which
    broke words where its edge fell. Piped or in a file it stays one line, for a script to read."""
    if not sys.stdout.isatty():
        return line
    width = shutil.get_terminal_size().columns
    return "\n".join(textwrap.wrap(line, width, subsequent_indent="  ", break_long_words=False,
                                   break_on_hyphens=False)) or line


def _trusted_bots(text: str | None) -> frozenset[str]:
    """The module paths given to ``--bots``, each loaded once to refuse one that is no bot now."""
    if text is None:
        return frozenset()
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        fail(f"--bots {text!r} has an empty name; give module paths separated by commas, e.g. --bots mine:Mine,theirs:Bot")
    for name in names:
        if ":" not in name:
            fail(
                f"--bots: {name!r} is not a module path: --bots takes the bots a record names by module:attribute "
                "(such as mine:Mine); built-in bots and those registered as entry points are found without it"
            )
        try:
            check_loadable("--bots", name, get_strategy, what="bot", needs=BOT_NEEDS)
        except ValueError as exc:
            fail(f"--bots: {exc}")
    return frozenset(names)


def _shortfall(found: BotVerification) -> str:
    """Whose orders could not be played again, why, and what to do about it."""
    said = []
    missing = [bot for bot in found.unchecked if ":" not in bot]
    paths = [bot for bot in found.unchecked if ":" in bot]
    if missing:
        one = len(missing) == 1
        said.append(
            f"the orders of {shown_names(missing)} could not be played again, as no bot of "
            f"{'that name' if one else 'those names'} is installed here, so any order could stand in "
            f"{'its' if one else 'their'} name; install the package that registers "
            f"{'that bot (an entry point' if one else 'each of those bots (entry points'} in the group "
            f"{ENTRY_POINT_GROUP!r} under {'that name' if one else 'those names'}) and verify again"
        )
    if paths:
        # The record's word is not enough to run code: the user's own, on the command line, is.
        given = ",".join(paths[:_LISTED]) + (f" (and {len(paths) - _LISTED:,} more)" if len(paths) > _LISTED else "")
        said.append(
            f"the orders of {shown_names(paths)} could not be played again, as a bot named by a module path is never "
            "imported because a record names it, so any order could stand in their name; if you trust that code, "
            f"let verify import it (it runs) with --bots {given} and verify again"
        )
    for bot, why in found.failing:
        # Installed (or given), so installing it is no advice: its code is what to fix.
        if ":" in bot:
            what, fix = "it is imported as --bots says", "fix it and verify again"
        else:
            what = f"it is installed here (an entry point in the group {ENTRY_POINT_GROUP!r})"
            fix = "fix or reinstall the package that registers it and verify again"
        said.append(f"the orders of {shown_name(bot)} could not be played again: {what} but {why}; {fix}")
    return "; and ".join(said)
