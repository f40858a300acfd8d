"""The ``sevens`` application: each command group lives in its own module and registers itself."""

from __future__ import annotations

import importlib
import sys

import typer

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


def main() -> None:
    """Entry point: bad input anywhere ends in a one-line error, not a traceback."""
    try:
        app()
    except (ValueError, OSError) as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
