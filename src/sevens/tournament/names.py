"""What a name may hold, in any script, and when two names are one: the single rule behind the
web's forms, the JSON API and ``sevens play`` (``--names`` and its prompt).

A name is kept in Unicode's composed form (NFC): "José" typed as ``e`` and a combining accent is
the same text, and the same length, as "José" typed with ``é``. Whitespace of any kind, and the
letters that show as blank space, become single spaces, none at the ends. Its length is counted in
code points of that form (an accented letter is one, a flag two, a family emoji up to eleven).

Refused, with the character and where it is: controls (an escape, a bell), invisible format
characters (direction overrides and isolates, which turn the text after them backwards on a page,
zero-width spaces, soft hyphens), half a character (a lone surrogate, which only a JSON escape can
send), and more than :data:`MAX_MARKS` combining marks on one character (stacked marks spill over
the lines above and below). The two joiners stay, as emoji and some scripts need them, and so do
the tags that spell the flags of England, Scotland and Wales after a black flag.

Names are compared by :func:`name_key`: case, spacing, the form of a character (a full-width
letter) and the invisible joiners and variation selectors do not tell two names apart.
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_MARKS", "NameRefused", "clean_name", "kept_form", "name_key", "refused_character", "shown_character"]

MAX_MARKS = 8
"""The most combining marks one character may carry: a real name has at most a few (Vietnamese
two, Hebrew with vowels and cantillation three); dozens are a smear over the neighbouring lines."""

_JOINERS = frozenset("\u200c\u200d")
_BLACK_FLAG = "\U0001f3f4"
_TAGS = range(0xE0020, 0xE007F)
_CANCEL_TAG = "\U000e007f"
_BLANKS = dict.fromkeys(map(ord, "\u115f\u1160\u3164\uffa0\u2800"), " ")
"""Letters and signs that show as blank space (the Hangul fillers, the blank Braille pattern)."""
_UNSEEN = dict.fromkeys([*map(ord, _JOINERS), *range(0xFE00, 0xFE10)])
"""What a reader hardly sees in a name: the joiners and the variation selectors (see name_key)."""


class NameRefused(ValueError):
    """A name that breaks the rule above; the message says what is wrong and how to mend it."""


def shown_character(char: str) -> str:
    """A character by its code point, its Unicode name if it has one, and what kind it is, for a
    message about a character that cannot be seen.

    >>> shown_character("\\u202e"), shown_character("\\x1b")
    ('U+202E RIGHT-TO-LEFT OVERRIDE, an invisible format character', 'U+001B, a control character')
    """
    name = unicodedata.name(char, "")
    kind = {"Cc": "a control character", "Cs": "half of a character (a lone surrogate)"}.get(
        unicodedata.category(char), "an invisible format character"
    )
    return f"U+{ord(char):04X}{' ' + name if name else ''}, {kind}"


def _in_flag_tags(name: str, at: int) -> bool:
    """Whether ``name[at]`` is part of an emoji tag sequence: a black flag, tags, the cancel tag."""
    start = at
    while start > 0 and (ord(name[start - 1]) in _TAGS or name[start - 1] == _CANCEL_TAG):
        start -= 1
    end = at
    while end < len(name) and ord(name[end]) in _TAGS:
        end += 1
    return (
        start > 0 and name[start - 1] == _BLACK_FLAG and end > start and end < len(name) and name[end] == _CANCEL_TAG
    )


def refused_character(name: str) -> int | None:
    """Where the first character the rule refuses sits in ``name`` (from 0), or None.

    >>> refused_character("Ann\\u202e"), refused_character("\\U0001f468\\u200d\\U0001f469"), refused_character("A\\x00")
    (3, None, 1)
    """
    for at, char in enumerate(name):
        category = unicodedata.category(char)
        if category in ("Cc", "Cs") or (
            category == "Cf" and char not in _JOINERS and not _in_flag_tags(name, at)
        ):
            return at
    return None


def _spaced(value: str) -> str:
    return " ".join(value.translate(_BLANKS).split())


def kept_form(value: str) -> str:
    """``value`` in the form a name is kept in (NFC, spaces made single), unchecked: what a name
    sent again is compared with.

    >>> kept_form(" Jose\\u0301\\u3000Lee") == "José Lee"
    True
    """
    return unicodedata.normalize("NFC", _spaced(value))


def _marks_run(name: str) -> tuple[int, int]:
    """The longest run of combining marks in ``name``: (its length, where it starts)."""
    longest, start, run = 0, 0, 0
    for at, char in enumerate(name):
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if run > longest:
            longest, start = run, at - run + 1
    return longest, start


def _where(name: str, at: int) -> str:
    return "at its start" if at == 0 else f"after {name[max(0, at - 12):at]!r}"


def clean_name(value: str, *, what: str, limit: int) -> str:
    """``value`` as a name is kept (NFC, spaces made single), or NameRefused saying why not.

    Args:
        value: the name as typed or sent.
        what: how the message names it ("your display name").
        limit: the most code points the kept name may have.

    >>> clean_name("  Jose\\u0301   Lee ", what="the name", limit=10)
    'José Lee'
    >>> clean_name("Ann\\u202eeL", what="your display name", limit=40)
    Traceback (most recent call last):
    ...
    sevens.tournament.names.NameRefused: your display name holds U+202E RIGHT-TO-LEFT OVERRIDE, an invisible format character, after 'Ann'; type the name without it
    """
    name = kept_form(value)
    at = refused_character(name)
    if at is not None:
        raise NameRefused(
            f"{what} holds {shown_character(name[at])}, {_where(name, at)}; type the name without it"
        )
    if not name:
        raise NameRefused(f"{what} is empty; type a name of 1 to {limit} characters")
    if all(unicodedata.category(c).startswith("M") or c == " " for c in name):
        # Combining marks alone: nothing of their own to show, only on a letter before them.
        raise NameRefused(f"{what} shows no letter, digit or sign; type a name of 1 to {limit} characters")
    marks, at = _marks_run(name)
    if marks > MAX_MARKS:
        raise NameRefused(
            f"{what} stacks {marks} combining marks on one character {_where(name, at)}; "
            f"keep it to {MAX_MARKS} a character"
        )
    if len(name) > limit:
        raise NameRefused(f"{what} is {len(name)} characters long; keep it to {limit}")
    return name


def name_key(name: str) -> str:
    """What two names are compared by: names that differ only in case, in the spacing between
    words, in the form of a character (a full-width letter, a no-break space, an accent typed
    apart) or in what is hardly seen (a joiner between two letters, an emoji's variation selector)
    look alike, so they count as one.

    >>> name_key(" Ann  LEE "), name_key("Ａnn\\u00a0Lee"), name_key("Straße") == name_key("STRASSE")
    ('ann lee', 'ann lee', True)
    >>> name_key("A\\u200dnn") == name_key("ann"), name_key("Jose\\u0301") == name_key("JOSÉ")
    (True, True)
    """
    return _spaced(unicodedata.normalize("NFKC", name.translate(_UNSEEN)).casefold())
