"""How a message quotes a value someone sent or wrote (an id in an address, a name in a record).

Escaped like ``repr`` (control characters included) and cut short: a refusal that quoted a
5,000-character team id back whole would be mostly that id, and a terminal or log would carry
whatever was sent.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable

from sevens.tournament.names import cut_name, graphemes

__all__ = ["QUOTED_LENGTH", "cut_for_message", "escaped", "plain_or_quoted", "quoted", "shell_joined", "shell_quoted"]

QUOTED_LENGTH = 40
"""Characters of a value that a message quotes (as a reader sees them, so a flag is one and is
never cut in half); past it, the message says how long the value was."""

_POINTS_A_CHARACTER = 4
"""Code points a quoted character may take at most, as in a kept name: a character of a thousand
marks is not quoted whole."""

_COUNTED = 100_000
"""Past this many code points a value that is not ASCII has its length said in code points:
counting its characters as shown would take a noticeable time for a value nobody reads whole."""


def escaped(text: str | os.PathLike[str]) -> str:
    r"""``text`` (or a path) as it is, but for each character a terminal would act on or cannot
    show (a control or invisible one, a line break or tab) written as its escape: the one way a
    path, a name or a message someone else wrote is shown, so that it can neither clear the screen
    nor set the window's title, nor pass for another name (a newline in a file's name is shown as
    ``\n``).

    >>> from pathlib import Path
    >>> print(escaped("/srv/ev\x1b[31mil/bot.py"), escaped(Path("a\nb\u202e.json")), escaped("Côte d'Ivoire"))
    /srv/ev\x1b[31mil/bot.py a\nb\u202e.json Côte d'Ivoire
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in os.fspath(text))


_SHELL_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t"}
"""What bash's ``$'...'`` quoting writes with a backslash among the characters kept as they are."""


def shell_quoted(text: str) -> str:
    r"""``text`` (a file's name, an option's value) quoted for a command shown to be copied into a
    shell: as :func:`shlex.quote` quotes it where every character is printable, and in bash's
    ``$'...'`` quoting where one is a control or invisible character (each such written as its
    bytes' ``\xNN``, or ``\n``, ``\t``) or where spaces run together. Only then does the command
    both show safely, since a message is :func:`escaped` on its way to the terminal, and name the
    same file when pasted back: ``'\x1b[32mg.json'`` names a file whose name starts with a
    backslash, and a refusal made one line keeps one space of ``'a  b.json'``.

    >>> print(shell_quoted("my game.json"), shell_quoted("g.json"), shell_quoted("it's"))
    'my game.json' g.json 'it'"'"'s'
    >>> print(shell_quoted("\x1b[32mg.json"), shell_quoted("a\nb\\c'd\u202e"))
    $'\x1b[32mg.json' $'a\nb\\c\'d\xe2\x80\xae'
    >>> print(shell_quoted("a   b.json"))
    $'a \x20\x20b.json'
    """
    if text.isprintable() and "  " not in text:
        return shlex.quote(text)
    # Bytes, not \u escapes: bash turns those into the locale's characters; a name's bytes are
    # what the file system holds, an undecodable byte (a lone surrogate here) included. A space
    # after a space is escaped too: a refusal is made one line, which keeps one of them.
    return "$'" + "".join(
        _SHELL_ESCAPES.get(c)
        or ("\\x20" if c == " " and text[i - 1 : i] == " " else c if c.isprintable() else
            "".join(f"\\x{b:02x}" for b in os.fsencode(c)))
        for i, c in enumerate(text)
    ) + "'"


def shell_joined(words: Iterable[str]) -> str:
    """A command's words, each :func:`shell_quoted`, as :func:`shlex.join` joins them.

    >>> print(shell_joined(["sevens", "verify", "my game.json", "g\x1b.json"]))
    sevens verify 'my game.json' $'g\\x1b.json'
    """
    return " ".join(map(shell_quoted, words))


def cut_for_message(text: str, limit: int) -> tuple[str, str] | None:
    """``text`` cut to its first ``limit`` characters as a reader sees them (never inside a flag or
    an emoji), and its whole length in words; None if it is short enough to show whole.

    >>> cut_for_message("a" + "\U0001f1eb\U0001f1ef" * 3, 2) == ("a\U0001f1eb\U0001f1ef", "4 characters")
    True
    >>> cut_for_message("ok", 2) is None
    True
    """
    shown = cut_name(text, limit, limit * _POINTS_A_CHARACTER)
    if shown == text:
        return None
    if text.isascii():  # one character a code point: counted at once, however long
        return shown, f"{len(text):,} characters"
    if len(text) > _COUNTED:
        return shown, f"{len(text):,} code points"
    return shown, f"{len(graphemes(text)):,} characters"


def quoted(text: str, limit: int = QUOTED_LENGTH) -> str:
    """``text`` as a message quotes it: its ``repr``, cut to its first ``limit`` characters with
    the whole length said.

    >>> quoted("t3")
    "'t3'"
    >>> quoted("bad\\x1b[31m")
    "'bad\\\\x1b[31m'"
    >>> quoted("x" * 5000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (5,000 characters)"
    """
    cut = cut_for_message(text, limit)
    if cut is None:
        return repr(text)
    shown, length = cut
    return f"{shown!r}... ({length})"


def plain_or_quoted(text: str) -> str:
    """``text`` as it is where a message names it in passing (a team's name, a key in a path),
    unless it is long or holds what a terminal would act on: then :func:`quoted`.

    >>> plain_or_quoted("New Zealand")
    'New Zealand'
    >>> plain_or_quoted("x" * 5000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (5,000 characters)"
    """
    return text if text.isprintable() and cut_for_message(text, QUOTED_LENGTH) is None else quoted(text)
