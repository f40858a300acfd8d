"""Whole numbers typed on the command line, read by one rule in every command.

A number is written with the digits 0-9, with an optional sign in front (``+`` or ``-``); spaces
around it are ignored. So ``12``, ``+12`` and ``" 12 "`` are 12, and ``-0`` is 0 (a negative count
is then refused by the command, naming the rule it breaks). Anything else is refused in one line
that says what to write instead: other scripts' digits (full-width ``１２``, Arabic-Indic ``١٢``)
and ``_`` between digits, which Python's ``int()`` would read, and decimals, words and empty text,
which it would not. The web pages read numbers by the same rule (docs/web.md).

Two numbers typed in one word (an order's ``20,9`` in ``sevens play``, ``sevens odds --solve
30,10``) are parted by one separator: two together (``20,,9``) or one at either end (``20,9,``)
is refused by :func:`separator_gap`, as a number may have been lost there (``20,19``).

Every command applies it: ``sevens odds`` to its counts of SCRUM points, and the ``sevens`` group
(:mod:`sevens.cli.main`) to every option declared ``int`` (``sevens play --players``, ``sevens lab
--tournaments``, ``sevens serve --port``, ...), before the option's own checks.
"""

from __future__ import annotations

import re
import unicodedata

from sevens.tournament.quoting import quoted

__all__ = ["ascii_whole", "read_whole", "separator_gap"]

_WHOLE = re.compile(r"[+-]?[0-9]+")
_PYTHON_MOST_DIGITS = 4300
"""Past this many digits int() refuses with advice about sys.set_int_max_str_digits, which
says nothing to someone typing a command."""


def _as_ascii(text: str) -> str | None:
    """``text`` with every decimal digit of any script made the digit 0-9 it stands for, if that
    is all it holds besides a sign; else None."""
    digits = []
    for i, char in enumerate(text):
        value = unicodedata.decimal(char, None)
        if value is not None:
            digits.append(str(value))
        elif i == 0 and char in "+-":
            digits.append(char)
        else:
            return None
    return "".join(digits)


def ascii_whole(text: str) -> str | None:
    """``text`` (stripped) written with the digits 0-9 alone, if it is a whole number written
    otherwise: in another script's digits or with ``_`` between digits; else None.

    >>> ascii_whole("１２"), ascii_whole("1_000"), ascii_whole("12"), ascii_whole("1.5"), ascii_whole("_1")
    ('12', '1000', None, None, None)
    """
    cleaned = text.strip()
    if not cleaned or _WHOLE.fullmatch(cleaned) or "_" in cleaned[:1] + cleaned[-1:]:
        return None
    fixed = _as_ascii(cleaned.replace("_", ""))
    return fixed if fixed is not None and _WHOLE.fullmatch(fixed) else None


def read_whole(option: str, text: str, *, what: str = "a whole number", most_digits: int | None = None,
                too_large: str = "no number sevens takes has that many") -> int:
    """The whole number ``text`` given to ``option``, read by the module's rule.

    Args:
        option: the option's name, for the message (``--force``).
        text: what was typed.
        what: what the option takes, for the message ("a whole number of SCRUM points").
        most_digits: refuse more digits than this (not quoted back: it may be thousands of digits).
        too_large: why, when there are more: "an order has at most 160 SCRUM points".

    Raises:
        ValueError: one line saying what was wrong and what to write instead.

    >>> read_whole("--n", " +12 "), read_whole("--n", "-0"), read_whole("--n", "-3"), read_whole("--n", "0000160", most_digits=6)
    (12, 0, -3, 160)
    >>> read_whole("--n", "１２")
    Traceback (most recent call last):
    ...
    ValueError: --n takes a whole number written with the digits 0-9: write 12, not '１２'
    >>> read_whole("--n", "1_000")
    Traceback (most recent call last):
    ...
    ValueError: --n takes a whole number written with the digits 0-9 alone: write 1000, not '1_000'
    >>> read_whole("--n", "2.5")
    Traceback (most recent call last):
    ...
    ValueError: --n takes a whole number, such as 12, got '2.5'
    >>> read_whole("--n", "1234567", most_digits=6, too_large="no count comes near a million")
    Traceback (most recent call last):
    ...
    ValueError: --n is too large (7 digits): no count comes near a million
    """
    cleaned = text.strip()
    if not _WHOLE.fullmatch(cleaned):
        shown = quoted(text)
        fixed = ascii_whole(cleaned)
        if fixed is not None:
            alone = " alone" if "_" in cleaned else ""
            raise ValueError(f"{option} takes {what} written with the digits 0-9{alone}: write {fixed}, not {shown}")
        if not cleaned:
            raise ValueError(f"{option} takes {what}, such as 12, but was given nothing")
        raise ValueError(f"{option} takes {what}, such as 12, got {shown}")
    # Leading zeros are no size: "0000160" (a script's zero-padded 160) was refused as too large
    # (7 digits). Left out before int() too, whose own limit counts them.
    significant = cleaned.lstrip("+-").lstrip("0")
    digits = len(significant)
    limit = _PYTHON_MOST_DIGITS if most_digits is None else min(most_digits, _PYTHON_MOST_DIGITS)
    if digits > limit:
        raise ValueError(f"{option} is too large ({digits} digits): {too_large}")
    value = int(significant or "0")
    return -value if cleaned.startswith("-") else value


def separator_gap(text: str, separators: str, *, signs: str = "") -> tuple[str, str] | None:
    """Where ``text``, numbers parted by ``separators`` (and spaces), has a separator with no
    number on one side: two together (``20,,9``, ``20, ,9``), or one first or last (``,20 9``,
    ``20 9,``), where a number or a digit may have been lost; else None. A first character in
    ``signs`` is a number's sign, not a separator (``+20 9``).

    Returns:
        what is wrong, in words, and ``text`` with the gaps closed, for the message to offer.

    >>> separator_gap("20,,9", ",+")
    ("',,' is two separators with no number between them", '20,9')
    >>> separator_gap(" 20+9, ", ",+")
    ("the last character, ',', has no number after it", '20+9')
    >>> separator_gap(",20 9", ",")
    ("the first character, ',', has no number before it", '20 9')
    >>> separator_gap("+20 9", ",+", signs="+"), separator_gap("20, 9", ","), separator_gap("20 9", ",")
    (None, None, None)
    >>> separator_gap("++20 9", ",+", signs="+"), separator_gap("+20,9,", ",+", signs="+")
    (("'++' is two separators with no number between them", '+20 9'), ("the last character, ',', has no number after it", '+20,9'))
    """
    cleaned = text.strip()
    parts = re.escape(separators)
    together = re.compile(rf"[{parts}](?:\s*[{parts}])+")
    first, last = cleaned[:1], cleaned[-1:]
    found = together.search(cleaned)
    if found:
        why = f"{found.group()!r} is two separators with no number between them"
    elif first and first in separators and first not in signs:
        why = f"the first character, {first!r}, has no number before it"
    elif last and last in separators:
        why = f"the last character, {last!r}, has no number after it"
    else:
        return None
    mended = together.sub(lambda m: m.group()[0], cleaned).rstrip(separators + " ")
    kept = mended[:1] if mended[:1] in signs else ""  # "+20,9," is mended to "+20,9", its sign kept
    return why, kept + mended[len(kept):].lstrip(separators + " ")
