"""Text for a CSV cell that a spreadsheet will show as text, never run as a formula.

A spreadsheet takes a cell starting with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return
before one, or the full-width ``＝``, ``＋``, ``－``, ``＠`` that spreadsheets in East Asian locales
also read as those) for a formula: a name chosen by anyone (a player's, a strategy's) that reads
``=HYPERLINK(...)`` would run when the file is opened. Such text is written after an apostrophe,
which spreadsheets show as text. Numbers are left to the writer, as numbers: only text is guarded,
so that ``-2`` written from an int stays a number.

Here, below both, as the web's downloads and ``sevens lab --csv`` (whose rows the lab writes) keep
the one rule, and the web and the command line never import each other.
"""

from __future__ import annotations

__all__ = ["FORMULA_STARTS", "text_cell"]

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
