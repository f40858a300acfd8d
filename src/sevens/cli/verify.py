"""``sevens verify FILE``: check a game record against its revealed seed and its orders (R14)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from sevens.bots import ENTRY_POINT_GROUP, BotVerification, check_with_bots, shown_name, shown_names
from sevens.cli.errors import EXIT_BAD_INPUT, fail
from sevens.cli.inputs import STDIN, other_kind, parse_json, read_input, shown
from sevens.cli.output import printing
from sevens.cli.saved import FORMAT as SAVED_FORMAT
from sevens.tournament.record import FORMAT as RECORD_FORMAT
from sevens.tournament.record import RecordError, VerificationError, loads

__all__ = ["EXIT_MISMATCH", "register"]

EXIT_MISMATCH = 1
EXIT_UNCHECKED = 3  # all agrees, but some bots named in the record are not installed here, or fail to load


def register(app: typer.Typer) -> None:
    """Add ``sevens verify`` to the application."""

    @app.command("verify")
    def verify(
        file: Annotated[
            Path, typer.Argument(metavar="FILE", help="A game record (JSON), as written by `sevens play --record`.")
        ],
    ) -> None:
        """Recompute a game from its record: seed, digests, dice, lines, SCRUM, tables, pairings, bots.

        Exits 0 if all agrees, 1 at a mismatch, 2 for a file that is not a readable record, and 3
        if all agrees but some orders name bots not installed here (or failing to load here), so they could not
        be played again."""
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
                    else f"carry it on with: sevens play --resume {shlex.quote(str(file))}"
                )
                fail(
                    f"{name}: a game in progress kept by sevens play, not a game record: {resume}; the record it "
                    "writes at the end (--record) is what verifies",
                    code=EXIT_BAD_INPUT,
                )
            if refused is not None:
                fail(refused, code=EXIT_BAD_INPUT)
            found = check_with_bots(data)
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
            typer.echo(f"{name}: {found.summary}")
        if not found.in_full:
            fail(f"{name}: not verified in full: {_shortfall(found)}", code=EXIT_UNCHECKED)


def _shortfall(found: BotVerification) -> str:
    """Whose orders could not be played again, why, and what to do about it."""
    said = []
    if found.unchecked:
        paths = [bot for bot in found.unchecked if ":" in bot]
        how = (
            f"install the packages that register those bots (entry points in the group {ENTRY_POINT_GROUP!r} "
            "under those names) and verify again"
        )
        if paths:  # never imported from a record, whatever is installed
            how += f"; {shown_names(paths)}: a module path, never imported from a record"
        said.append(
            f"the orders of {shown_names(found.unchecked)} could not be played again, as no bot of that name is "
            f"installed here, so any order could stand in their name; {how}"
        )
    for bot, reason in found.failing:
        # Installed, so installing it is no advice: its package is what to fix.
        said.append(
            f"the orders of {shown_name(bot)} could not be played again: it is installed here (an entry point in "
            f"the group {ENTRY_POINT_GROUP!r}) but fails to load: {reason}; fix or reinstall the package that "
            "registers it and verify again"
        )
    return "; and ".join(said)
