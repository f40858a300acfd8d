"""The rule on names (sevens.tournament.names), clause by clause."""

from __future__ import annotations

import pytest

from sevens.tournament.names import (
    LOOK_ALIKES,
    MAX_MARKS,
    Clash,
    NameRefused,
    clean_name,
    cut_name,
    graphemes,
    name_clash,
    name_key,
    shown_length,
    skeleton,
)

FIJI = "\U0001f1eb\U0001f1ef"
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # seven code points
WALES = "\U0001f3f4\U000e0067\U000e0062\U000e0077\U000e006c\U000e0073\U000e007f"


@pytest.mark.parametrize(("typed", "kept"), [
    ("Jose\u0301", "Jos\u00e9"),  # composed (NFC)
    (" Ann\t\u3000Lee\u2028", "Ann Lee"),  # any whitespace, one space, none at the ends
    ("Ann\u3164Lee", "Ann Lee"),  # a Hangul filler shows as blank space
    (f"{WALES} Cymru", f"{WALES} Cymru"),  # a flag's tags after a black flag
    ("\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f468\u200d\U0001f469\u200d\U0001f467"),  # ZWJ
    ("Nguye\u0302\u0303n", "Nguy\u1ec5n"),
    ("a" + "\u0301" * MAX_MARKS, "\u00e1" + "\u0301" * (MAX_MARKS - 1)),
])
def test_a_name_is_kept_composed_and_single_spaced(typed: str, kept: str) -> None:
    assert clean_name(typed, what="the name", limit=40) == kept


@pytest.mark.parametrize(("typed", "says"), [
    ("Ann\u202e", "holds U+202E RIGHT-TO-LEFT OVERRIDE, an invisible format character, after 'Ann'"),
    ("\u2067Ann", "holds U+2067 RIGHT-TO-LEFT ISOLATE, an invisible format character, at its start"),
    # A zero width space goes between two letters only: not at an end, not two together, not alone.
    ("Ann\u200b", "holds U+200B ZERO WIDTH SPACE, an invisible format character, after 'Ann'; a zero width space "
     "may stand only between two letters (as between words in Thai or Khmer); type the name without it"),
    ("\u200bAnn", "holds U+200B ZERO WIDTH SPACE, an invisible format character, at its start"),
    ("A\u200b\u200bnn", "holds U+200B ZERO WIDTH SPACE, an invisible format character, after 'A'"),
    ("Ann \u200bLee", "holds U+200B ZERO WIDTH SPACE, an invisible format character, after 'Ann '"),
    ("\u200b", "holds U+200B ZERO WIDTH SPACE"),
    # Mongolian's vowel separator only sets a final a or e apart from a Mongolian letter.
    ("A\u180ea", "holds U+180E MONGOLIAN VOWEL SEPARATOR, an invisible format character, after 'A'"),
    ("\u1828\u180e", "holds U+180E MONGOLIAN VOWEL SEPARATOR"),
    ("Ann\x1b[2J", "holds U+001B, a control character, after 'Ann'"),
    ("Ann\ud800", "holds U+D800, half of a character (a lone surrogate), after 'Ann'"),
    ("Ann\U000e0067\U000e007f", "holds U+E0067 TAG LATIN SMALL LETTER G"),  # tags with no black flag
    ("\U0001f3f4\U000e0067", "holds U+E0067 TAG LATIN SMALL LETTER G"),  # tags never cancelled
    # Unassigned, and kept by Unicode to be drawn as nothing: each made a second 'Ann'
    ("An\ufff0n", "holds U+FFF0, an unassigned code point, drawn as nothing, after 'An'"),
    ("An\U000e0002n", "holds U+E0002, an unassigned code point, drawn as nothing, after 'An'"),
    ("\u0301\u0302", "shows no letter, digit or sign"),
    ("\u200d", "shows no letter, digit or sign"),  # a joiner alone stood blank wherever it was shown
    ("\u200c \u200d\u0301", "shows no letter, digit or sign"),
    ("Z" + "\u0336" * (MAX_MARKS + 1), f"stacks {MAX_MARKS + 1} combining marks on one character after 'Z'"),
    ("x" * 41, "is 41 characters long; keep it to 40"),
    (" \u3164 ", "is empty"),
])
def test_a_name_is_refused_saying_what_and_where(typed: str, says: str) -> None:
    with pytest.raises(NameRefused, match=r"^the name ") as refused:
        clean_name(typed, what="the name", limit=40)
    assert says in str(refused.value)


@pytest.mark.parametrize(("one", "other"), [
    ("Jose\u0301", "JOS\u00c9"),
    ("A\u200dnn", "ann"),
    ("\u2764", "\u2764\ufe0f"),  # text and emoji presentation of one heart
    # Marks drawn as nothing: a combining grapheme joiner, a Khmer inherent vowel, a Mongolian
    # variation selector, an ideographic variation selector
    ("An\u034fn", "Ann"), ("Ann\u034f", "Ann"), ("An\u17b4n", "Ann"), ("An\u180bn", "Ann"), ("An\U000e0100n", "Ann"),
    ("\uff21nn  Lee", "ann lee"),
])
def test_names_a_reader_cannot_tell_apart_are_one(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


def test_the_flags_of_england_scotland_and_wales_are_three_names() -> None:
    england = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    scotland = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    assert len({name_key(england), name_key(scotland), name_key(WALES)}) == 3


@pytest.mark.parametrize(("one", "other"), [
    ("\u0410nn", "Ann"),  # Cyrillic capital A
    ("\u039f", "O"),  # Greek capital omicron
    ("\U0001d400nn", "Ann"),  # mathematical bold A (NFKC)
    ("\uff21nn", "Ann"),  # full-width A (NFKC)
    ("\u0412\u041e\u0412", "bob"),  # Cyrillic capitals VE, O, VE
    ("\u039a\u0391\u0399", "kai"),  # Greek capitals
    ("\u043e\u0440\u0430", "opa"),  # Cyrillic small letters
    ("F\u0456ji", "FIJI"),  # a Ukrainian i among Latin letters
    ("\u0401va", "\u00cbva"),  # Cyrillic YO: E with a diaeresis
    ("\u0501an", "dan"), ("A\u04cfan", "Alan"), ("Ama\u04af", "Amay"),  # Cyrillic komi de, palochka, straight u
    ("\u0474era", "vera"), ("\u037fo", "jo"), ("\u03f3o", "Jo"),  # Cyrillic izhitsa, Greek yot
])
def test_a_letter_of_another_script_drawn_as_a_latin_one_makes_no_new_name(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(("one", "other"), [
    ("\u0410\u043d\u043d\u0430", "Anna"),  # Анна: its н is no n
    ("\u0418\u0432\u0430\u043d", "Ivan"),  # Иван
    ("\u039d\u03af\u03ba\u03bf\u03c2", "Nikos"),  # Νίκος
    ("\u043d\u0430\u043c", "ham"),  # нам: a small н is drawn as no h, though a capital Н is
    ("IAN", "LAN"),  # I and l are alike, I and L are not: no look-alikes within Latin
])
def test_names_that_look_different_stay_two(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)
    assert name_clash(one, taken=[other]) is None
    assert clean_name(one, what="the name", limit=40) == one


@pytest.mark.parametrize(("one", "other", "said"), [
    ("AI", "Al", " (its capital 'I' looks like a small 'l')"),
    ("Al", "AI", " (its small 'l' looks like a capital 'I')"),
    ("Bob0", "BobO", " (its digit '0' looks like a capital 'O')"),
    ("Team 1", "Team I", " (its digit '1' looks like a capital 'I')"),
    ("Arnie", "Amie", " (its 'rn' looks like 'm')"),
    ("АI", "Al", " (its capital 'I' looks like a small 'l')"),  # a Cyrillic А and a capital i
])
def test_names_told_apart_only_by_a_latin_look_alike_clash_and_say_which(one: str, other: str, said: str) -> None:
    """"Al" and "AI", "Bob0" and "BobO" were two names, one sight in a sans-serif face (a big screen,
    a table): they clash, and the clash says which character reads as which."""
    assert name_key(one) != name_key(other) and skeleton(one) == skeleton(other)
    assert name_clash(one, taken=["Zoe", other]) == Clash(other, None, said)


@pytest.mark.parametrize(("one", "other"), [
    ("IAN", "LAN"),  # a capital I is drawn as a small l, never as a capital L
    ("bob0", "bobo"),  # a zero stands as tall as a capital O
    ("Al", "Ai"),
    ("Carl", "Cari"),
])
def test_latin_names_that_look_different_stay_two(one: str, other: str) -> None:
    assert name_clash(one, taken=[other]) is None


def test_every_look_alike_maps_a_cyrillic_or_greek_letter_to_a_latin_one() -> None:
    import unicodedata

    for code, latin in LOOK_ALIKES.items():
        script = unicodedata.name(chr(code)).split()[0]
        assert script in ("CYRILLIC", "GREEK") and latin.isascii() and latin.isalpha(), chr(code)
        assert chr(code).isupper() == latin.isupper(), chr(code)  # a capital drawn as a capital


def test_a_clash_says_what_the_name_reads_as_and_which_letter_makes_it() -> None:
    reserved = {"you": "is the reader", "Fiji": "is a team"}
    assert name_clash("ann", taken=["Bob", "Ann"], reserved=reserved) == Clash("Ann", None, "")
    assert name_clash("F\u0456ji", taken=["Bob"], reserved=reserved) == Clash(
        "Fiji", "is a team", " (its '\u0456' is CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I, drawn as a Latin 'i')"
    )
    # The other's letter is named when the new name is the plain Latin one.
    clash = name_clash("Ann", taken=["\u0410nn"])
    assert clash is not None and "CYRILLIC CAPITAL LETTER A" in clash.look_alike
    assert name_clash("YOU", reserved=[("you", "is the reader")]) == Clash("you", "is the reader", "")
    assert name_clash("Ann Lee", taken=["Ann"], reserved=reserved) is None


@pytest.mark.parametrize(("text", "shown"), [
    ("Jose\u0301", ["J", "o", "s", "e\u0301"]),
    (FIJI * 2 + "\U0001f1eb", [FIJI, FIJI, "\U0001f1eb"]),  # two indicators a flag, a lone one a character
    (FAMILY + "x", [FAMILY, "x"]),
    ("\U0001f44d\U0001f3fd\u2764\ufe0f", ["\U0001f44d\U0001f3fd", "\u2764\ufe0f"]),  # a skin tone, a selector
    (WALES + " ", [WALES, " "]),
    ("\u1112\u1161\u11ab\ud55c", ["\u1112\u1161\u11ab", "\ud55c"]),  # 한 typed as jamo, then composed
    ("\u0915\u094d\u0937\u0924\u094d\u0930\u093f\u092f", ["\u0915\u094d\u0937", "\u0924\u094d\u0930\u093f", "\u092f"]),
    ("\u0e01\u0e34\u0e19\u0e49\u0e33", ["\u0e01\u0e34", "\u0e19\u0e49\u0e33"]),  # Thai: vowels above and after
    ("a\u200db", ["a\u200d", "b"]),  # a joiner between letters joins nothing
])
def test_a_name_is_cut_into_the_characters_a_reader_sees(text: str, shown: list[str]) -> None:
    assert graphemes(text) == shown


def test_a_length_is_counted_in_characters_as_shown_with_a_cap_on_code_points() -> None:
    assert clean_name(FIJI * 40, what="the name", limit=40) == FIJI * 40  # 80 code points
    assert clean_name("\U0001f44d\U0001f3fd" * 40, what="the name", limit=40)
    with pytest.raises(NameRefused, match=r"^the name is 41 characters long; keep it to 40$"):
        clean_name(FIJI * 41, what="the name", limit=40)
    assert clean_name(FAMILY * 22, what="the name", limit=40) == FAMILY * 22  # 154 code points
    with pytest.raises(NameRefused) as refused:
        clean_name(FAMILY * 23, what="the name", limit=40)
    assert str(refused.value) == (
        "the name is 23 characters long but built of 161 code points (an emoji such as a family is several), "
        "and a name holds at most 160; use fewer such emoji"
    )
    assert clean_name("ab", what="the name", limit=5, points=2) == "ab"


def test_a_name_is_cut_between_characters() -> None:
    assert cut_name("a" + FIJI * 3, 3, 99) == "a" + FIJI * 2
    assert cut_name("a" + FIJI * 3, 9, 4) == "a" + FIJI  # a flag is not cut in half at the cap
    assert cut_name(FAMILY, 1, 6) == ""


@pytest.mark.parametrize("name", [
    "\u0e2a\u0e21\u0e0a\u0e32\u0e22\u200b\u0e43\u0e08\u0e14\u0e35",  # Thai, two words
    "\u1780\u17b6\u179a\u200b\u1795\u17d2\u179f\u17b6\u1799",  # Khmer, a word ending in a vowel sign
    "\u1019\u1031\u102c\u1004\u103a\u200b\u1019\u1031\u102c\u1004\u103a",  # Burmese, a word ending in a mark
    "\u1828\u1822\u182d\u1824\u1837\u180e\u1820",  # Mongolian, a final a set apart
])
def test_the_spaces_of_scripts_written_without_spaces_stand_between_letters(name: str) -> None:
    """Thai, Khmer, Lao and Burmese mark where a word ends with a zero width space, and Mongolian
    sets a final vowel apart with its vowel separator: names written so are kept as typed."""
    assert clean_name(name, what="the name", limit=40) == name


def test_a_zero_width_space_between_letters_does_not_tell_two_names_apart() -> None:
    assert name_key("A\u200bnn") == name_key("Ann")
    assert name_clash("A\u200bnn", taken=["Ann"]) == Clash("Ann", None, "")
    assert name_key("\u1828\u1822\u182d\u1824\u1837\u180e\u1820") == name_key("\u1828\u1822\u182d\u1824\u1837\u1820")


def test_a_zero_width_space_between_words_is_not_counted_toward_the_limit() -> None:
    """It shows nothing: a Thai name of 40 characters as seen, its words parted by zero width
    spaces, was refused as 47 characters long (each space counted as one)."""
    word = "\u0e2a\u0e21\u0e0a\u0e32\u0e22"  # five characters as seen
    name = "\u200b".join([word] * 8)
    assert shown_length(name) == 40
    assert clean_name(name, what="the name", limit=40) == name
    with pytest.raises(NameRefused, match=r"^the name is 41 characters long; keep it to 40$"):
        clean_name(name + "\u0e01", what="the name", limit=40)
