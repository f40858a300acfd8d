"""One-line errors for the command line: say what was wrong and how to fix it, never a traceback."""

from __future__ import annotations

import sys
from typing import NoReturn

import typer

__all__ = ["EXIT_BAD_INPUT", "fail", "one_line"]

EXIT_BAD_INPUT = 2


def one_line(message: str) -> str:
    """Collapse a message onto one line."""
    return " ".join(message.split())


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` on one line to stderr and exit non-zero."""
    print(f"error: {one_line(message)}", file=sys.stderr)
    raise typer.Exit(code)
