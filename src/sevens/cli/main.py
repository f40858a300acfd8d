"""The ``sevens`` application: each command group lives in its own module and registers itself."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import typer
import typer.main

from sevens.cli.errors import EXIT_BAD_INPUT, one_line

__all__ = ["app", "main"]

app = typer.Typer(
    name="sevens",
    help="Sevens: the seven-a-side rugby tournament game. Play, compute exact odds, verify records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Each module defines register(app: typer.Typer) -> None.
_COMMAND_MODULES = ("odds", "play", "verify", "table", "serve", "lab", "backup")

for _name in _COMMAND_MODULES:
    importlib.import_module(f"sevens.cli.{_name}").register(app)


def command() -> Any:
    """The click command behind ``app``, its ``--help`` options without a type: typer shows
    ``<bool>`` beside every one, as if help took a value."""
    root = typer.main.get_command(app)
    for cmd in (root, *getattr(root, "commands", {}).values()):
        option = cmd.get_help_option(cmd.make_context(cmd.name, [], resilient_parsing=True))
        if option is not None:
            option.metavar = ""
    return root


def main() -> None:
    """Entry point: bad input anywhere ends in a one-line error, not a traceback."""
    try:
        command()(prog_name="sevens")
    except (ValueError, OSError) as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)


if __name__ == "__main__":  # python -m sevens.cli.main, as well as python -m sevens
    main()
