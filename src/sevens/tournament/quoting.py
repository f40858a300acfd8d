"""How a message quotes a value someone sent or wrote (an id in an address, a name in a record).

Escaped like ``repr`` (control characters included) and cut short: a refusal that quoted a
5,000-character team id back whole would be mostly that id, and a terminal or log would carry
whatever was sent.
"""

from __future__ import annotations

__all__ = ["QUOTED_LENGTH", "plain_or_quoted", "quoted"]

QUOTED_LENGTH = 40
"""Characters of a value that a message quotes; past it, the message says how long the value was."""


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
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def plain_or_quoted(text: str) -> str:
    """``text`` as it is where a message names it in passing (a team's name, a key in a path),
    unless it is long or holds what a terminal would act on: then :func:`quoted`.

    >>> plain_or_quoted("New Zealand")
    'New Zealand'
    >>> plain_or_quoted("x" * 5000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (5,000 characters)"
    """
    return text if len(text) <= QUOTED_LENGTH and text.isprintable() else quoted(text)
