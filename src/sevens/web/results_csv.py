"""A game's results as CSV, for a club's records or a spreadsheet: the final standing and every
match played, built from the public view alone (resolved turns only, R13).

A cell a spreadsheet would read as a formula (one starting with ``=``, ``+``, ``-``, ``@``, a tab
or a carriage return, or the full-width ``＝``, ``＋``, ``－``, ``＠`` that spreadsheets in East Asian
locales also take for them: a player named ``=HYPERLINK(...)``) is written after an apostrophe,
which spreadsheets show as text; numbers are written as numbers. A shared place ("3-4") and a score
("12-10") are written with an en dash ("3–4"), as a spreadsheet would turn "3-4" into the 4th of
March. The file starts with a byte order mark
so that Excel reads it as UTF-8 (names in any script, emoji), as LibreOffice and Python's
``utf-8-sig`` do anyway.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import date
from urllib.parse import quote

from fastapi.responses import Response

from sevens.store.models import GameRow, GameStatus
from sevens.tournament.game import MatchSide
from sevens.tournament.names import cut_name, graphemes
from sevens.tournament.spreadsheet import text_cell
from sevens.web.views import SpectatorView

_NUMBER_DASH_NUMBER = re.compile(r"(?<=\d)-(?=\d)")


def not_a_date(text: str) -> str:
    """A place shared or a score as a spreadsheet keeps it: "3-4" and "12-10" with an en dash,
    which no spreadsheet reads as a date.

    >>> not_a_date("3-4"), not_a_date("31-31, won on tries"), not_a_date("1")
    ('3\u20134', '31\u201331, won on tries', '1')
    """
    return _NUMBER_DASH_NUMBER.sub("\u2013", text)


def cell(value: str | int | None) -> str | int:
    """A value as a spreadsheet should read it: text that would start a formula is quoted as text.

    >>> cell("=1+1"), cell("-2"), cell("Fiji"), cell(-2), cell(None)
    ("'=1+1", "'-2", 'Fiji', -2, '')
    >>> cell("\uff1dSUM(1)") == "'\uff1dSUM(1)"
    True
    """
    if value is None:
        return ""
    if isinstance(value, int):
        return value
    return text_cell(value)  # the rule sevens lab --csv keeps too


def _csv(header: Sequence[str], rows: Iterable[Sequence[str | int | None]]) -> str:
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180's line ends
    writer.writerow(header)
    writer.writerows([cell(v) for v in row] for row in rows)
    return out.getvalue()


def _manager(view: SpectatorView, team: str) -> str:
    """Who manages a team, in the words of the game page's Teams table (a person's name, a house
    team, a seat not taken or handed to the bots, and the bot that plays it then)."""
    who, said = view.manager_words(team)
    return (who or "") + said


def standing_csv(view: SpectatorView) -> str:
    """The final standing (empty but for its header until the final is played)."""
    return _csv(
        ("place", "team", "manager", "group", "how far it went"),
        ((not_a_date(place), view.name(team), _manager(view, team), view.teams[team].group, went) for place, team, went in view.standing),
    )


MATCH_COLUMNS = (
    "turn", "stage", "match",
    "home", "home manager", "away", "away manager",
    "home points", "away points", "winner", "decided by", "result",
    "home force", "home flair", "home missed order", "home tries", "home conversions", "home penalties", "home drop goals",
    "home scrum before", "home scrum after", "home force dice", "home flair dice",
    "away force", "away flair", "away missed order", "away tries", "away conversions", "away penalties", "away drop goals",
    "away scrum before", "away scrum after", "away force dice", "away flair dice",
)


def matches_csv(view: SpectatorView) -> str:
    """Every match of the turns resolved so far, a line each, in the order played: never anything
    of the open turn (R13)."""

    def side(match_side: MatchSide) -> list[str | int | None]:
        line = match_side.line
        return [
            match_side.order.force, match_side.order.flair, "yes" if match_side.missed else "no",
            line.tries, line.conversions, line.penalties, line.drop_goals,
            match_side.scrum_before, match_side.scrum_after,
            # Every die: FORCE faces; FLAIR options apart, a double's throw again after ">" (R2),
            # each throw as "6+1" (a spreadsheet reads the pages' "5-4" as a date).
            " ".join(str(face) for face in match_side.dice.force),
            " ".join(">".join(f"{a}+{b}" for a, b in option) for option in match_side.dice.flair),
        ]

    rows = []
    for turn, stage, matches in view.history:
        for m in matches:
            rows.append(
                [
                    turn, stage, m.fixture.id,
                    view.name(m.home.team), _manager(view, m.home.team), view.name(m.away.team), _manager(view, m.away.team),
                    m.home.line.points, m.away.line.points,
                    "draw" if m.winner is None else view.name(m.winner),
                    None if m.decided_by is None else str(m.decided_by), not_a_date(m.summary),
                    *side(m.home), *side(m.away),
                ]
            )
    return _csv(MATCH_COLUMNS, rows)


_NAME_WORDS = 40
"""Characters of a game's name that a file name keeps (a name may have 160)."""

_NAME_BYTES = 120
"""UTF-8 bytes of a game's name that a file name keeps: most file systems take 255 bytes a name."""

_NOT_IN_FILE_NAMES = re.compile(r'[\\/:*?"<>|%;\s]+')
"""What some system refuses in a file name (Windows' reserved signs), breaks the header that
carries it, or would leave a space at an end; runs of them become one hyphen."""


def _name_part(name: str, *, ascii_only: bool) -> str:
    """A game's name as a part of a file name: OS-safe, cut short; in ASCII letters for the header's
    plain ``filename``, accents dropped ("Zürich" as "Zurich"), other scripts left out.

    >>> _name_part("Coupe d\u2019\u00e9t\u00e9: Z\u00fcrich/Basel", ascii_only=False)
    'Coupe-d\u2019\u00e9t\u00e9-Z\u00fcrich-Basel'
    >>> _name_part("Coupe d\u2019\u00e9t\u00e9: Z\u00fcrich/Basel", ascii_only=True), _name_part("\u6771\u4eac", ascii_only=True)
    ('Coupe-d-ete-Zurich-Basel', '')
    >>> player = "\U0001f3c9\U0001f3fd\u200d\u2642\ufe0f"  # a man playing rugby, his skin tone: one character
    >>> _name_part(player * 40, ascii_only=False) == player * 7  # 7 x 17 bytes
    True
    """
    name = cut_name(unicodedata.normalize("NFC", name), _NAME_WORDS, 4 * _NAME_WORDS)
    shown = len(graphemes(name))
    while len(name.encode("utf-8")) > _NAME_BYTES:  # forty emoji of four code points: 640 bytes
        shown -= 1
        name = cut_name(name, shown, 4 * _NAME_WORDS)
    if ascii_only:
        name = "".join(
            c if c.isascii() else "" if unicodedata.category(c) == "Mn" else " "  # an accent, or another sign
            for c in unicodedata.normalize("NFKD", name)
        )
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", name)
    # Control and invisible characters (bidi marks among them) are kept out of names on disk; the
    # joiners inside an emoji ("man rugby player") are part of it.
    name = "".join(c if unicodedata.category(c)[0] not in "CZ" or c in "\u200c\u200d" else " " for c in name)
    return _NOT_IN_FILE_NAMES.sub("-", name).strip("-.")


def _when(game: GameRow) -> str:
    if game.status == GameStatus.FINISHED:
        return "final"
    resolved = max(game.current_turn - 1, 0)
    if game.status == GameStatus.ENDED:
        return f"ended-after-turn-{resolved}"
    return f"after-turn-{resolved}" if resolved else "before-turn-1"


def attachment(game: GameRow, what: str, extension: str, today: date) -> str:
    """A ``Content-Disposition`` that saves a download under a name saying which game, what, how far
    it had gone and the day it was downloaded: ``sevens-Club-cup-matches-after-turn-3-2026-05-01-ID.csv``.
    The game's own name (any script) in ``filename*`` (RFC 6266), which browsers use; an ASCII form
    in ``filename`` for older clients. The game's id keeps two games of one name apart."""

    def name(ascii_only: bool) -> str:
        parts = ["sevens", _name_part(game.name, ascii_only=ascii_only), what, _when(game), today.isoformat(),
                 game.public_id]
        return "-".join(part for part in parts if part) + "." + extension

    return f"attachment; filename=\"{name(True)}\"; filename*=UTF-8''{quote(name(False), safe='')}"


def download(view: SpectatorView, which: str, today: date) -> Response:
    """``standing`` or ``matches`` as a file to save (:func:`attachment` names it)."""
    body = standing_csv(view) if which == "standing" else matches_csv(view)
    return Response(
        body,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": attachment(view.game, which, "csv", today)},
    )
