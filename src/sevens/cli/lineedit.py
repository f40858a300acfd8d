"""Line editing at the prompts of ``sevens play`` (GNU readline), with nothing kept between lines.

People at one keyboard take turns (R13: orders are secret until the turn is resolved), so the
editing must not let the next person recall what the last one typed: no line is added to the
history, the history is cleared after every line, no history file is read or written, and the keys
that paste back deleted text (the kill ring: Ctrl-Y, Alt-Y, and Alt-X, which can run any command by
name) do nothing. The user's own inputrc is not read (the system's is), as it could bind them again.
At a hand-over, keys typed but not yet read are dropped (:func:`drop_typed_ahead`).

Only when both standard input and output are a terminal: readline edits nothing else, and a prompt
written through a pipe would carry its markers.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from types import ModuleType
from typing import TextIO

from rich.console import Console
from rich.prompt import Confirm, Prompt
from rich.text import TextType

__all__ = ["AskLine", "ConfirmLine", "drop_typed_ahead", "enable", "forget", "read_line"]

_readline: ModuleType | None = None

_SYSTEM_INPUTRC = "/etc/inputrc"

# The keys that would bring deleted text back, bound to abort (a bell) instead.
_NO_YANK = (r'"\C-y": abort', r'"\ey": abort', r'"\ex": abort')

# A control sequence of the rendered prompt: readline must not count it as printed characters.
_CONTROL = re.compile(r"(\x1b\[[0-9;?]*[ -/]*[@-~])")


def enable() -> bool:
    """Turn line editing on if standard input and output are a terminal and readline is there;
    whether it is on."""
    global _readline
    if _readline is not None:
        return True
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    saved = os.environ.get("INPUTRC")
    # Read when readline is first imported: the system's key bindings (Home and End on more
    # terminals), not the user's, which could bind the kill ring's keys again.
    os.environ["INPUTRC"] = _SYSTEM_INPUTRC if os.path.isfile(_SYSTEM_INPUTRC) else os.devnull
    try:
        import readline
    except ImportError:  # a Python built without it: plain input, as before
        return False
    finally:
        if saved is None:
            del os.environ["INPUTRC"]
        else:
            os.environ["INPUTRC"] = saved
    readline.set_auto_history(False)
    for binding in _NO_YANK:
        readline.parse_and_bind(binding)
    readline.clear_history()
    _readline = readline
    return True


def forget() -> None:
    """Clear the history (nothing should be in it), as at every hand-over to the next person."""
    if _readline is not None:
        _readline.clear_history()


def drop_typed_ahead() -> None:
    """Discard what was typed but not yet read, when standard input is a terminal: keys the last
    person pressed after their last answer would otherwise show at the next person's prompt."""
    if not sys.stdin.isatty():
        return
    try:
        import termios
    except ImportError:  # not a POSIX system: nothing to discard with
        return
    with contextlib.suppress(OSError):
        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)


def read_line(console: Console, prompt: TextType) -> str:
    """Read a line as rich's prompts do, but with the prompt given to readline, so that editing
    redraws it rather than writing over it; the history is cleared after the line."""
    if _readline is None:
        return console.input(prompt)
    with console.capture() as captured:
        console.print(prompt, end="")
    head, newline, last = captured.get().rpartition("\n")
    if newline:
        console.file.write(head + newline)
        console.file.flush()
    try:
        # \001 and \002 tell readline where the colour codes that take no room start and end.
        return input(_CONTROL.sub("\x01\\1\x02", last))
    finally:
        forget()


class AskLine(Prompt):
    """rich's Prompt, reading with :func:`read_line`."""

    @classmethod
    def get_input(cls, console: Console, prompt: TextType, password: bool, stream: TextIO | None = None) -> str:
        if password or stream is not None:
            return super().get_input(console, prompt, password, stream)
        return read_line(console, prompt)


class ConfirmLine(Confirm):
    """rich's Confirm, reading with :func:`read_line`."""

    @classmethod
    def get_input(cls, console: Console, prompt: TextType, password: bool, stream: TextIO | None = None) -> str:
        if password or stream is not None:
            return super().get_input(console, prompt, password, stream)
        return read_line(console, prompt)
