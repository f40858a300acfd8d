"""What a name may hold, in any script, and when two names are one: the single rule behind the
web's forms, the JSON API and ``sevens play`` (``--names`` and its prompt).

A name is kept in Unicode's composed form (NFC): "José" typed as ``e`` and a combining accent is
the same text, and the same length, as "José" typed with ``é``. Whitespace of any kind, and the
letters that show as blank space, become single spaces, none at the ends. Its length is counted as
a reader counts it, in characters as shown (Unicode's extended grapheme clusters, :func:`graphemes`):
an accented letter, a flag and a family emoji are one each. A name also has a cap on its code points
(four a character, by default), so that a few characters built of dozens cannot fill the store.

Refused, with the character and where it is: controls (an escape, a bell), invisible format
characters (direction overrides and isolates, which turn the text after them backwards on a page,
soft hyphens, a zero width space anywhere but between two letters), code points Unicode leaves unassigned to be drawn as nothing
(:data:`_IGNORED_UNASSIGNED`), half a character (a lone surrogate, which only a JSON escape can
send), more than :data:`MAX_MARKS` combining marks on one character (stacked marks spill over
the lines above and below), and a name that shows nothing (marks or joiners alone). The two joiners stay, as emoji and some scripts need them, and so do
the tags that spell the flags of England, Scotland and Wales after a black flag, a zero width space
between two letters (Thai, Khmer, Lao and Burmese mark word breaks with it) and Mongolian's vowel
separator before a final a or e.

Names are compared by :func:`name_key`: case, spacing, the form of a character (a full-width
letter, a mathematical bold one), the invisible joiners and spaces, variation selectors and marks drawn as
nothing (a combining grapheme joiner), and a Cyrillic or
Greek letter drawn as a Latin one (:data:`LOOK_ALIKES`) do not tell two names apart; nor, with case
kept, do the Latin characters a plain face draws alike (:data:`LATIN_LOOK_ALIKES`: "AI" and "Al",
"Bob0" and "BobO", :func:`skeleton`). A name in one
script is never refused for its script: only one that would read as another name beside it
(:func:`name_clash`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

__all__ = [
    "LATIN_LOOK_ALIKES",
    "LOOK_ALIKES",
    "MAX_MARKS",
    "POINTS_PER_CHARACTER",
    "Clash",
    "NameRefused",
    "clean_name",
    "cut_name",
    "cut_shown",
    "graphemes",
    "shown_length",
    "kept_form",
    "name_clash",
    "name_key",
    "refused_character",
    "shortened",
    "shown_character",
    "skeleton",
]

MAX_MARKS = 8
"""The most combining marks one character may carry: a real name has at most a few (Vietnamese
two, Hebrew with vowels and cantillation three); dozens are a smear over the neighbouring lines."""

POINTS_PER_CHARACTER = 4
"""A name's cap on code points, per character of its limit: a flag is two, a thumb with a skin tone
two, an accented Vietnamese letter one; a family emoji is seven, so a name of only families is
capped before its limit in characters (a name of 40 may hold 160 code points)."""

LOOK_ALIKES: Mapping[int, str] = {
    ord(pair[0]): pair[1]
    for pair in (
        # Each letter followed by the Latin letter it is drawn as.
        # Cyrillic capitals
        "\u0410A", "\u0412B", "\u0421C", "\u0415E", "\u041dH", "\u0406I", "\u04c0I", "\u0408J", "\u041aK", "\u041cM",
        "\u041eO", "\u0420P", "\u051aQ", "\u0405S", "\u0422T", "\u051cW", "\u0425X", "\u0423Y", "\u04aeY",
        # Cyrillic small letters
        "\u0430a", "\u0441c", "\u0435e", "\u04bbh", "\u0456i", "\u0458j", "\u043eo", "\u0440p", "\u051bq", "\u0455s",
        "\u051dw", "\u0445x", "\u0443y", "\u0501d", "\u04cfl", "\u04afy", "\u0475v", "\u0474V",
        # Greek capitals
        "\u0391A", "\u0392B", "\u0395E", "\u0397H", "\u0399I", "\u039aK", "\u039cM", "\u039dN", "\u039fO", "\u03a1P",
        "\u03a4T", "\u03a7X", "\u03a5Y", "\u0396Z", "\u037fJ",
        # Greek small letters
        "\u03b1a", "\u03b9i", "\u03bak", "\u03bfo", "\u03c1p", "\u03c5u", "\u03bdv", "\u03f3j",
    )
}
"""Cyrillic and Greek letters drawn as a Latin one (Unicode TR39's confusables, the common cases
between these three scripts): "Аnn" with a Cyrillic А reads as "Ann". Letters that merely resemble
one (Cyrillic п, Greek η) are not here; nor are look-alikes within Latin (I and l), which case
folding would make clash with names that do not look alike ("IAN", "LAN"): those are
:data:`LATIN_LOOK_ALIKES`, compared with case kept."""

LATIN_LOOK_ALIKES: Mapping[str, str] = {
    "I": "l", "1": "l", "|": "l", "ǀ": "l",  # a capital i, the digit one, a bar, a dental click
    "0": "O",  # the digit zero
    "rn": "m",
}
"""Letters, digits and signs of the Latin keyboard that a sans-serif face (the site's, a big
screen's) draws as another, each with the one it is drawn as (TR39's confusables among them): "AI"
with a capital i reads as "Al", "Bob0" as "BobO", "Arnie" as "Amie". Compared with case kept, as
they are drawn: a capital I is a small l, never a capital L, so "IAN" and "LAN" stay two names, and
"bob0" is no "bobo" (a zero stands as tall as a capital O, not as a small o)."""

_SHOWN_AS = {
    "I": "capital 'I'", "l": "small 'l'", "1": "digit '1'", "|": "bar '|'", "ǀ": "click 'ǀ'",
    "0": "digit '0'", "O": "capital 'O'", "rn": "'rn'", "m": "'m'",
}

_JOINERS = frozenset("\u200c\u200d")
_BLACK_FLAG = "\U0001f3f4"
_TAGS = range(0xE0020, 0xE007F)
_CANCEL_TAG = "\U000e007f"
_BLANKS = dict.fromkeys(map(ord, "\u115f\u1160\u3164\uffa0\u2800"), " ")
"""Letters and signs that show as blank space (the Hangul fillers, the blank Braille pattern)."""
_UNSEEN = dict.fromkeys([
    *map(ord, _JOINERS), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0),
    # Marks drawn as nothing (Unicode's default ignorables): the combining grapheme joiner, Khmer's
    # two inherent vowels, Mongolian's variation selectors. Each made a second "Ann" of "Ann".
    0x034F, 0x17B4, 0x17B5, *range(0x180B, 0x180E), 0x180F,
    # The spaces of scripts written without spaces (_between_words): "A\u200bnn" is no other "Ann".
    0x200B, 0x180E,
])
"""What a reader hardly sees in a name: the joiners, the variation selectors and the marks drawn as
nothing (see name_key)."""


class NameRefused(ValueError):
    """A name that breaks the rule above; the message says what is wrong and how to mend it."""


def shown_character(char: str) -> str:
    """A character by its code point, its Unicode name if it has one, and what kind it is, for a
    message about a character that cannot be seen.

    >>> shown_character("\\u202e"), shown_character("\\x1b")
    ('U+202E RIGHT-TO-LEFT OVERRIDE, an invisible format character', 'U+001B, a control character')
    """
    name = unicodedata.name(char, "")
    kind = {
        "Cc": "a control character",
        "Cs": "half of a character (a lone surrogate)",
        "Cn": "an unassigned code point, drawn as nothing",
    }.get(
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


_ZWSP = "\u200b"
_MONGOLIAN_VOWEL_SEPARATOR = "\u180e"
_MONGOLIAN = range(0x1800, 0x18B0)


def _letter_or_mark(char: str) -> bool:
    return unicodedata.category(char)[0] in "LM"


def _between_words(name: str, at: int) -> bool:
    """Whether ``name[at]`` is a space names written without spaces need: a zero width space
    between two letters (Thai, Khmer, Lao and Burmese mark word breaks with it; a word may end in
    a vowel sign, a mark), or Mongolian's vowel separator between a Mongolian letter (or its
    variation selector) and the final a or e it sets apart. Never at an end, never two together."""
    if at == 0 or at == len(name) - 1:
        return False
    before, char, after = name[at - 1], name[at], name[at + 1]
    if char == _ZWSP:
        return _letter_or_mark(before) and _letter_or_mark(after)
    if char == _MONGOLIAN_VOWEL_SEPARATOR:
        return ord(before) in _MONGOLIAN and before != char and after in "\u1820\u1821"
    return False


_IGNORED_UNASSIGNED = (range(0x2065, 0x2066), range(0xFFF0, 0xFFF9), range(0xE0000, 0xE1000))
"""Where Unicode keeps code points unassigned that every font and browser must draw as nothing, now
and once assigned (default ignorable): each made a second "Ann" of "Ann". Other unassigned code
points are taken, as an emoji newer than this Python's Unicode is one of them."""


def refused_character(name: str) -> int | None:
    """Where the first character the rule refuses sits in ``name`` (from 0), or None.

    >>> refused_character("Ann\\u202e"), refused_character("\\U0001f468\\u200d\\U0001f469"), refused_character("A\\x00")
    (3, None, 1)
    """
    for at, char in enumerate(name):
        category = unicodedata.category(char)
        if category in ("Cc", "Cs") or (
            category == "Cf" and char not in _JOINERS and not _in_flag_tags(name, at) and not _between_words(name, at)
        ) or (category == "Cn" and any(ord(char) in unassigned for unassigned in _IGNORED_UNASSIGNED)):
            return at
    return None


_REGIONAL = range(0x1F1E6, 0x1F200)
_SKIN_TONES = range(0x1F3FB, 0x1F400)
_SPACING_VOWELS = frozenset("\u0e33\u0eb3")
"""Thai and Lao SARA AM: letters by their category, but written on the character before them."""
_LINKERS = frozenset("\u094d\u09cd\u0acd\u0b4d\u0c4d\u0d4d")
"""The viramas that join two consonants into one character as shown (Unicode 15.1's conjuncts):
Devanagari, Bengali, Gujarati, Oriya, Telugu, Malayalam."""


def _extends(char: str) -> bool:
    """Whether ``char`` belongs to the character before it: a mark, a joiner, a variation
    selector, a skin tone, a flag's tag."""
    code = ord(char)
    return (
        unicodedata.category(char) in ("Mn", "Me", "Mc")
        or char in _SPACING_VOWELS
        or char in _JOINERS
        or code in _SKIN_TONES
        or code in _TAGS
        or char == _CANCEL_TAG
    )


def _spacing(char: str) -> bool:
    """Whether ``char`` is a mark written beside the letter, not over it (a Devanagari ि, Thai's
    sara am): it stays with the character before, but no joiner or virama reaches past it."""
    return unicodedata.category(char) == "Mc" or char in _SPACING_VOWELS


def _pictograph(char: str) -> bool:
    """Whether ``char`` is an emoji-like symbol a joiner binds to the one before (UAX #29's
    Extended_Pictographic, near enough): not a regional indicator (half a flag) nor a skin tone,
    and below U+2000 only © and ® (a degree sign is a symbol, but no emoji)."""
    code = ord(char)
    if code in _REGIONAL or code in _SKIN_TONES:
        return False
    if code < 0x2000:
        return code in (0xA9, 0xAE)
    return unicodedata.category(char) == "So" or 0x1F000 <= code <= 0x1FAFF


def _hangul(char: str) -> str:
    """The Hangul jamo kind of ``char`` (L, V, T, LV, LVT), or "" for any other character."""
    code = ord(char)
    if 0x1100 <= code <= 0x115F or 0xA960 <= code <= 0xA97C:
        return "L"
    if 0x1160 <= code <= 0x11A7 or 0xD7B0 <= code <= 0xD7C6:
        return "V"
    if 0x11A8 <= code <= 0x11FF or 0xD7CB <= code <= 0xD7FB:
        return "T"
    if 0xAC00 <= code <= 0xD7A3:
        return "LV" if (code - 0xAC00) % 28 == 0 else "LVT"
    return ""


_MORE_CONSONANTS = frozenset([*range(0x978, 0x980), 0x9F0, 0x9F1, 0xAF9, 0xB71])


def _consonant(char: str) -> bool:
    """Whether ``char`` is a consonant a virama joins to the one before (Unicode's InCB=Consonant,
    for the scripts of :data:`_LINKERS`): those blocks share one layout, their consonants at 0x15
    to 0x3A and 0x58 to 0x5F of each, with a few more; an independent vowel (अ) is not one."""
    code = ord(char)
    if unicodedata.category(char) != "Lo" or not 0x900 <= code < 0xD80:
        return False
    return 0x15 <= code % 0x80 <= 0x3A or 0x58 <= code % 0x80 <= 0x5F or code in _MORE_CONSONANTS


_HANGUL_JOINS = {"L": {"L", "V", "LV", "LVT"}, "V": {"V", "T"}, "LV": {"V", "T"}, "T": {"T"}, "LVT": {"T"}}


def _joins(cluster: list[str], char: str) -> bool:
    """Whether ``char`` carries on the character shown by ``cluster`` (UAX #29's rules, for text
    without controls: names hold none)."""
    if _extends(char):
        return True
    last = cluster[-1]
    if _hangul(char) in _HANGUL_JOINS.get(_hangul(last), ()):
        return True
    if ord(char) in _REGIONAL:  # two regional indicators are one flag
        return len(cluster) == 1 and ord(last) in _REGIONAL
    if last == "\u200d" and _pictograph(char):  # an emoji joined to the one before: a family, a rainbow flag
        # Only to an emoji before the joiner, with nothing but marks, a skin tone or a variation selector between.
        at = len(cluster) - 2
        while at > 0 and _extends(cluster[at]) and cluster[at] != "\u200d" and not _spacing(cluster[at]):
            at -= 1
        return at >= 0 and _pictograph(cluster[at])
    # A consonant after a virama joins it: क्ष is one character as shown.
    at = len(cluster)
    while at > 0 and _extends(cluster[at - 1]):
        at -= 1
    return (
        0 < at < len(cluster)
        # A non-joiner after the virama keeps the two apart (क्‌ष), as a spacing mark does.
        and not any(_spacing(c) or c == "\u200c" for c in cluster[at:])
        and _consonant(char)
        and _consonant(cluster[at - 1])
        # The consonant before, the virama and this one all of one script's block.
        and ord(char) >> 7 == ord(cluster[at - 1]) >> 7
        and any(c in _LINKERS and ord(c) >> 7 == ord(char) >> 7 for c in cluster[at:])
    )


def graphemes(text: str) -> list[str]:
    """``text`` cut into the characters a reader sees (extended grapheme clusters, Unicode's
    UAX #29, for the text a name may hold): a letter with its marks, a flag, an emoji with its skin
    tone or joined to others, a Hangul syllable typed as jamo, a Devanagari conjunct.

    >>> [len(graphemes(t)) for t in ("Jose\u0301", "\U0001f1eb\U0001f1ef", "\U0001f468\u200d\U0001f469\u200d\U0001f467")]
    [4, 1, 1]
    >>> len(graphemes("\U0001f44d\U0001f3fd\u1112\u1161\u11ab\u0915\u094d\u0937"))
    3
    """
    clusters: list[list[str]] = []  # lists, not strings: a long cluster is not copied at each character
    for char in text:
        if clusters and _joins(clusters[-1], char):
            clusters[-1].append(char)
        else:
            clusters.append([char])
    return ["".join(cluster) for cluster in clusters]


def shown_length(text: str) -> int:
    """How many characters ``text`` shows: its :func:`graphemes` but those of format characters
    alone, which draw nothing (the zero width space a Thai or Khmer name puts between words, and
    Mongolian's vowel separator). A name's limit counts these: one need not shorten "ภาษา\u200bไทย"
    for a space nobody sees. The name boxes' live count (app.js) counts alike.

    >>> shown_length("\u0e20\u0e32\u0e29\u0e32\u200b\u0e44\u0e17\u0e22"), len(graphemes("\u0e20\u0e32\u0e29\u0e32\u200b\u0e44\u0e17\u0e22"))
    (7, 8)
    """
    return sum(1 for shown in graphemes(text) if _shows(shown))


def _shows(character: str) -> bool:
    """Whether a character (one of :func:`graphemes`) draws anything: not format characters alone."""
    return not all(unicodedata.category(c) == "Cf" for c in character)


def _cut(name: str, limit: int, points: int, counted: Callable[[str], bool]) -> str:
    """The longest start of ``name`` of at most ``limit`` characters that ``counted`` counts and
    ``points`` code points, cut between two of its :func:`graphemes`."""
    kept: list[str] = []
    used = shown = 0
    # No character past the first ``points`` code points is kept, so the rest need not be read
    # (the last one read, cut short there, still counts past ``points``).
    for part in graphemes(name[: points + 1]):
        used += len(part)
        counts = counted(part)
        if used > points or (counts and shown == limit):
            break
        shown += counts
        kept.append(part)
    return "".join(kept)


def cut_name(name: str, limit: int, points: int) -> str:
    """The longest start of ``name`` of at most ``limit`` characters (:func:`graphemes`) and
    ``points`` code points: cut between two characters as shown, never inside a flag or an emoji.

    >>> cut_name("\U0001f1eb\U0001f1ef" * 3, 2, 8) == "\U0001f1eb\U0001f1ef" * 2, cut_name("Jose\u0301", 9, 4)
    (True, 'Jos')
    """
    return _cut(name, limit, points, lambda character: True)


def cut_shown(name: str, limit: int, points: int) -> str:
    """The longest start of ``name`` of at most ``limit`` characters as a name's limit counts them
    (:func:`shown_length`) and ``points`` code points, cut between two characters as shown, and
    never just after a zero width space or a Mongolian vowel separator: a name holds those only
    between two letters (:func:`clean_name`), so a start ending in one, with more put after it,
    was refused.

    >>> thai = "\u0e20\u0e32\u0e29\u0e32\u200b\u0e44\u0e17\u0e22"
    >>> cut_shown(thai, 7, 16) == thai, cut_shown(thai, 4, 16) == thai[:4], cut_name(thai, 7, 16) == thai[:7]
    (True, True, True)
    """
    return _cut(name, limit, points, _shows).rstrip(_ZWSP + _MONGOLIAN_VOWEL_SEPARATOR)


def shortened(text: str, points: int) -> str:
    """``text`` where it must fit in ``points`` code points (the event log's columns, a token's
    label): whole, or cut between two characters as shown (:func:`cut_name`) and marked with '…',
    so that it is never cut in the middle of a flag or an emoji, nor read as a shorter name that
    could be someone else's.

    >>> shortened("Ann", 64), shortened("\U0001f1eb\U0001f1ef" * 3, 5) == "\U0001f1eb\U0001f1ef" * 2 + "\u2026"
    ('Ann', True)
    """
    if len(text) <= points:
        return text
    return cut_name(text, points, points - 1).rstrip() + "\u2026"


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


def clean_name(value: str, *, what: str, limit: int, points: int | None = None) -> str:
    """``value`` as a name is kept (NFC, spaces made single), or NameRefused saying why not.

    Args:
        value: the name as typed or sent.
        what: how the message names it ("your display name").
        limit: the most characters, as a reader counts them (:func:`shown_length`), the kept name may have.
        points: the most code points it may have, for the store; :data:`POINTS_PER_CHARACTER` times
            ``limit`` unless given.

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
        how = "type the name without it"
        if name[at] == _ZWSP:
            how = "a zero width space may stand only between two letters (as between words in Thai or Khmer); " + how
        raise NameRefused(f"{what} holds {shown_character(name[at])}, {_where(name, at)}; {how}")
    if not name:
        raise NameRefused(f"{what} is empty; type a name of 1 to {limit} characters")
    if all(unicodedata.category(c).startswith("M") or c == " " for c in name.translate(_UNSEEN)):
        # Combining marks and joiners alone: nothing of their own to show, only on a letter before
        # them; a name of joiners alone was taken, and stood blank wherever it was shown.
        raise NameRefused(f"{what} shows no letter, digit or sign; type a name of 1 to {limit} characters")
    marks, at = _marks_run(name)
    if marks > MAX_MARKS:
        raise NameRefused(
            f"{what} stacks {marks} combining marks on one character {_where(name, at)}; "
            f"keep it to {MAX_MARKS} a character"
        )
    shown = shown_length(name)
    if shown > limit:
        raise NameRefused(f"{what} is {shown} characters long; keep it to {limit}")
    points = POINTS_PER_CHARACTER * limit if points is None else points
    if len(name) > points:
        raise NameRefused(
            f"{what} is {shown} characters long but built of {len(name)} code points (an emoji such as a "
            f"family is several), and a name holds at most {points}; use fewer such emoji"
        )
    return name


def name_key(name: str) -> str:
    """What two names are compared by: names that differ only in case, in the spacing between
    words, in the form of a character (a full-width letter, a no-break space, an accent typed
    apart), in what is hardly seen (a joiner between two letters, an emoji's variation selector, a
    combining grapheme joiner) or
    in a Cyrillic or Greek letter drawn as a Latin one (:data:`LOOK_ALIKES`) look alike, so they
    count as one.

    >>> name_key(" Ann  LEE "), name_key("Ａnn\u00a0Lee"), name_key("Straße") == name_key("STRASSE")
    ('ann lee', 'ann lee', True)
    >>> name_key("A\u200dnn") == name_key("ann"), name_key("Jose\u0301") == name_key("JOSÉ")
    (True, True)
    >>> name_key("\u0410nn"), name_key("\u039f"), name_key("\U0001d400nn"), name_key("\u0410\u043d\u043d\u0430")
    ('ann', 'o', 'ann', 'aннa')
    """
    return _spaced(unicodedata.normalize("NFKC", unicodedata.normalize("NFKD", _unfolded(name).casefold()).translate(LOOK_ALIKES)))


def _unfolded(name: str) -> str:
    # Compared before case is folded, as a capital is drawn: Cyrillic Н is an H, its small н no h.
    return unicodedata.normalize("NFKD", name.translate(_UNSEEN)).translate(LOOK_ALIKES)


def _drawn(name: str) -> str:
    """``name`` as :func:`name_key` reads it before case is folded: what :func:`skeleton` and the
    message about a Latin look-alike go by."""
    return _spaced(unicodedata.normalize("NFKC", _unfolded(name)))


def skeleton(name: str) -> str:
    """What ``name`` looks like where it is drawn, case kept: :func:`name_key`'s reading, with each
    of :data:`LATIN_LOOK_ALIKES` as the letter it is drawn as. Two names of one skeleton look alike
    though their keys differ.

    >>> skeleton("AI") == skeleton("Al"), skeleton("Bob0") == skeleton("BobO"), skeleton("Arnie") == skeleton("Amie")
    (True, True, True)
    >>> skeleton("IAN") == skeleton("LAN"), skeleton("bob0") == skeleton("bobo"), skeleton("АI")
    (False, False, 'Al')
    """
    drawn = _drawn(name).replace("rn", "m")
    return "".join(LATIN_LOOK_ALIKES.get(char, char) for char in drawn)


def _latin_look_alike(name: str, other: str) -> str:
    """Which character of ``name`` is drawn as another of ``other``, as a clause for a message
    (" (its capital 'I' looks like a small 'l')"), for two names of one :func:`skeleton`; "" if the
    two differ in nothing of :data:`LATIN_LOOK_ALIKES`."""
    mine, theirs = _drawn(name), _drawn(other)
    at = there = 0
    while at < len(mine) and there < len(theirs):
        if mine[at] == theirs[there]:
            at, there = at + 1, there + 1
            continue
        one = "rn" if mine.startswith("rn", at) and theirs[there] == "m" else mine[at]
        two = "rn" if theirs.startswith("rn", there) and mine[at] == "m" else theirs[there]
        if one in _SHOWN_AS and two in _SHOWN_AS:
            like = _SHOWN_AS[two] if _SHOWN_AS[two].startswith("'") else f"a {_SHOWN_AS[two]}"
            return f" (its {_SHOWN_AS[one]} looks like {like})"
        at, there = at + len(one), there + len(two)
    return ""


def _other_script(name: str) -> str:
    """What makes ``name`` read as a Latin name it is not: its first Cyrillic or Greek letter drawn
    as a Latin one, as a clause for a message, or "" if it has none."""
    for char in unicodedata.normalize("NFKD", name):
        if ord(char) in LOOK_ALIKES:
            return f" (its {char!r} is {unicodedata.name(char)}, drawn as a Latin {LOOK_ALIKES[ord(char)]!r})"
    return ""


@dataclass(frozen=True, slots=True)
class Clash:
    """A name that would read as another where names are shown."""

    other: str
    """The name it reads as: a name already taken, or a reserved word as the caller gave it."""
    why: str | None
    """Why the reserved word is reserved, in the caller's words; None for a name already taken."""
    look_alike: str
    """A clause saying which letter of another script makes it read so, or "" when the two differ
    only in case, spacing or the form of a character."""

    def subject(self, name: str) -> str:
        """``name`` as the subject of a message about the clash: quoted, and when letters of
        another script make it read as the other name, which name and why.

        >>> Clash("Bot 4", "is a bot", " (its 'В' is ...)").subject("Вот 4")
        "'Вот 4', which reads as 'Bot 4' (its 'В' is ...),"
        """
        return f"{name!r}, which reads as {self.other!r}{self.look_alike}," if self.look_alike else repr(name)


def name_clash(
    name: str, *, taken: Iterable[str] = (), reserved: Mapping[str, str] | Iterable[tuple[str, str]] = ()
) -> Clash | None:
    """What ``name`` would read as, beside the names ``taken`` and the words ``reserved``, or None.

    Both are compared by :func:`name_key`, the names taken first. Which words are reserved, and
    why, is each caller's: the web reserves "you" and the game's teams, ``sevens play`` also
    "house" and the names of its bots.

    Args:
        name: the name asked for.
        taken: the names others have (stored ones are not judged again, only compared).
        reserved: each word no name may read as, with why (the caller's words), in the order checked.

    >>> name_clash("ANN", taken=["Ann"])
    Clash(other='Ann', why=None, look_alike='')
    >>> name_clash("\u0410nn", taken=["Ann"]).look_alike
    " (its 'А' is CYRILLIC CAPITAL LETTER A, drawn as a Latin 'A')"
    >>> name_clash("F\u0456ji", reserved={"Fiji": "is a team"}).why, name_clash("\u0410\u043d\u043d\u0430", taken=["Ann"])
    ('is a team', None)
    """
    key, drawn = name_key(name), skeleton(name)
    words = reserved.items() if isinstance(reserved, Mapping) else reserved
    for other, why in [*((t, None) for t in taken), *words]:
        if name_key(other) != key and skeleton(other) == drawn:
            # Told apart only by a Latin look-alike: "AI" beside "Al" (and any other-script letter).
            return Clash(other, why, _latin_look_alike(name, other) or _other_script(name) or _other_script(other))
        if name_key(other) == key:
            plain = _spaced(unicodedata.normalize("NFKC", name).casefold()) == _spaced(
                unicodedata.normalize("NFKC", other).casefold()
            )
            return Clash(other, why, "" if plain else _other_script(name) or _other_script(other))
    return None
