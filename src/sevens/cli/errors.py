"""One-line errors for the command line: say what was wrong and how to fix it, never a traceback."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import NoReturn

import typer

from sevens.tournament.quoting import escaped

__all__ = ["BOT_NEEDS", "EXIT_BAD_INPUT", "MAX_DIGITS", "check_loadable", "fail", "hidden_character", "one_line", "raised"]

EXIT_BAD_INPUT = 2

MAX_DIGITS = 6
"""The most digits a number typed to a command may have: no count in Sevens comes near a million,
and past 4,300 digits int() raises Python's own advice (sys.set_int_max_str_digits) instead."""


def one_line(message: str) -> str:
    """Collapse a message onto one line, with any control or invisible character in it escaped: a
    message may quote a file or an argument, and the terminal would obey an escape sequence there
    (clear the screen, set the window's title) rather than show it.

    >>> one_line("found Arg\\x1b[2Jentina\\n  in group A")
    'found Arg\\\\x1b[2Jentina in group A'
    """
    return escaped(" ".join(message.split()))


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` a terminal would act on or cannot show (a control or
    invisible one), or None: a name holding one is refused where a file gives it.

    >>> hidden_character("fi\\x1b[2Jji"), hidden_character("Pool B")
    ('\\x1b', None)
    """
    return next((c for c in text if not c.isprintable()), None)


def raised(exc: BaseException) -> str:
    """An exception as its type and message, for a line saying what some other code raised; the
    message with control characters escaped and cut short (:func:`sevens.bots.strategies.shown_error`).

    >>> raised(SystemExit()), raised(RuntimeError("no view"))
    ('SystemExit', 'RuntimeError: no view')
    """
    from sevens.bots.strategies import shown_raised  # only once something failed: it loads the odds

    return shown_raised(exc)


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` on one line to stderr and exit non-zero (still exit if stderr is
    gone, a closed terminal's, say)."""
    with contextlib.suppress(OSError):
        print(f"error: {one_line(message)}", file=sys.stderr)
    raise typer.Exit(code)


BOT_NEEDS = "an order(view, rng) method (a name is optional)"
"""What a refusal of ``--bots`` (play, verify) says a bot needs."""


def check_loadable(option: str, name: str, load: Callable[[str], object], *, what: str, needs: str) -> None:
    """Load ``name`` with ``load``; a module:attribute path that cannot make a ``what`` (its
    loading or its call with no arguments raises, or exits) is refused in one line, saying it
    ``needs``. An unknown name (ValueError) is left to the caller, whose message it is.
    """
    try:
        load(name)
    except ValueError as exc:
        from sevens.bots.strategies import raised_at  # only once something failed: it loads the odds

        if not raised_at(exc):
            raise  # the loader's own refusal (no such name, not a strategy): its message says what to do
        # Raised by one's own class as it was made ("no weights given"): said alone, it named nothing.
        _cannot_make(option, name, exc)
    except SyntaxError as exc:  # the file itself is to fix, not the name: it was said to name something else
        where = f"{exc.filename}, line {exc.lineno}" if exc.filename else f"the module of {name!r}"
        text = f": {exc.text.strip()!r}" if exc.text and exc.text.strip() else ""
        fail(
            f"{option}: cannot load {name!r}: {where} is not valid Python ({type(exc).__name__}: {exc.msg}){text}; "
            "fix it and run again"
        )
    except TypeError as exc:  # a module:attribute path is called with no arguments, as a class is
        fail(
            f"{option}: {name!r} is not a {what}: calling it with no arguments failed ({exc}); name a {what} "
            f"object, or a class or function that makes one, with {needs}"
        )
    except (Exception, SystemExit) as exc:  # importing or calling it ran its code: sys:exit exited 0
        from sevens.bots.strategies import raised_at

        if raised_at(exc):  # code of one's own raised, in the class or function making it: that line is to fix
            _cannot_make(option, name, exc)
        fail(
            f"{option}: {name!r} is not a {what}: loading it or calling it with no arguments raised {raised(exc)}; "
            f"name a {what} object, or a class or function that makes one, with {needs}"
        )


def _cannot_make(option: str, name: str, exc: BaseException) -> NoReturn:
    from sevens.bots.strategies import raised_at

    fail(
        f"{option}: cannot make {name!r}: calling it with no arguments raised {raised(exc)}{raised_at(exc)}; "
        "fix it and run again"
    )

