"""Text for a CSV cell that a spreadsheet will show as text, never run as a formula.

A spreadsheet takes a cell starting with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return
before one, or the full-width ``＝``, ``＋``, ``－``, ``＠`` that spreadsheets in East Asian locales
also read as those) for a formula: a name chosen by anyone (a player's, a strategy's) that reads
``=HYPERLINK(...)`` would run when the file is opened. Such text is written after an apostrophe,
which spreadsheets show as text. Numbers are left to the writer, as numbers: only text is guarded,
so that ``-2`` written from an int stays a number.

An exact fraction such as ``1/6`` is guarded the same way (:func:`fraction_cell`): a spreadsheet
opening the file reads one that could be a day and a month as a date (the 1st of June, or the 6th of
January, as its locale has it). After the apostrophe it is text, and ``Fraction(cell[1:])`` gives it
back exactly.

Here, below both, as the web's downloads and ``sevens lab --csv`` (whose rows the lab writes) keep
the one rule, and the web and the command line never import each other.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["FORMULA_STARTS", "fraction_cell", "text_cell"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
"""How text starts that a spreadsheet would read as a formula."""


def text_cell(text: str) -> str:
    """``text`` as a CSV cell a spreadsheet shows as it is: after an apostrophe where it would start
    a formula.

    >>> text_cell("=HYPERLINK(1)"), text_cell("-1"), text_cell("@x"), text_cell("even-flair@1.5")
    ("'=HYPERLINK(1)", "'-1", "'@x", 'even-flair@1.5')
    >>> text_cell("\\uff1dSUM(1)") == "'\\uff1dSUM(1)"
    True
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def fraction_cell(value: Fraction) -> str:
    """An exact fraction as a CSV cell no spreadsheet turns into a date: a whole number as it is (a
    number), anything else after an apostrophe, as text.

    >>> fraction_cell(Fraction(1, 6)), fraction_cell(Fraction(4, 3)), fraction_cell(Fraction(0)), fraction_cell(Fraction(16))
    ("'1/6", "'4/3", '0', '16')
    >>> Fraction(fraction_cell(Fraction(359005, 884736))[1:])
    Fraction(359005, 884736)
    """
    return str(value) if value.denominator == 1 else "'" + str(value)
