"""One-line errors for the command line: say what was wrong and how to fix it, never a traceback."""

from __future__ import annotations

import sys
from typing import NoReturn

import typer

__all__ = ["EXIT_BAD_INPUT", "MAX_DIGITS", "fail", "one_line", "raised"]

EXIT_BAD_INPUT = 2

MAX_DIGITS = 6
"""The most digits a number typed to a command may have: no count in Sevens comes near a million,
and past 4,300 digits int() raises Python's own advice (sys.set_int_max_str_digits) instead."""


def one_line(message: str) -> str:
    """Collapse a message onto one line."""
    return " ".join(message.split())


def raised(exc: BaseException) -> str:
    """An exception as its type and message, for a line saying what some other code raised.

    >>> raised(SystemExit()), raised(RuntimeError("no view"))
    ('SystemExit', 'RuntimeError: no view')
    """
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` on one line to stderr and exit non-zero."""
    print(f"error: {one_line(message)}", file=sys.stderr)
    raise typer.Exit(code)
