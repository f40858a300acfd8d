"""``sevens odds``: exact odds of an order, of a match, and the best split of a total.

* ``sevens odds --force F --flair K``: the order's distribution of points and expected line.
* ``... --vs-force F2 --vs-flair K2``: also the opponent's, and win/draw/loss (``--knockout``:
  win/level/loss after count-back, R9). Either ``--vs-*`` alone gives an opponent too, the other
  part 0 (as ``--force`` or ``--flair`` alone gives an order).
* ``sevens odds --best-split TOTAL --vs-force F2 --vs-flair K2 [--knockout]``: every split of
  TOTAL against that order, best first.

``--json`` prints one JSON object instead of tables.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import math
import re
from typing import Annotated, Any

import typer
from rich.console import RenderableType
from rich.table import Table

from sevens.cli import odds_classroom as classroom
from sevens.cli.errors import MAX_DIGITS, fail
from sevens.cli.output import ResultsConsole, printing
from sevens.cli.render import Narrower, Phrases, phrases
from sevens.cli.whole_numbers import read_whole, separator_gap
from sevens.odds import (
    WHY_NOT_BOTH_FLAIR,
    KnockoutOdds,
    MatchOdds,
    MatchRules,
    OrderOdds,
    SplitOdds,
    best_splits,
    knockout_odds,
    match_odds,
    order_odds,
    solve_match,
    splits,
)
from sevens.rules import MAX_ORDER_POINTS, TRY_POINTS, Order, OrderError
from sevens.tournament.quoting import shell_joined, shell_quoted

__all__ = ["bound", "chance", "histogram_rows", "odds_command", "ranking_figures", "register"]

_BAR_WIDTH = 40
_MIN_BAR_WIDTH = 10
_NARROWEST_BAR = 3  # below this the bars say nothing: the bins are listed instead
_MAX_ROWS = 30


def _whole(option: str, text: str | None) -> int | None:
    """A count of SCRUM points given to ``option``, read as every command reads a number
    (:mod:`sevens.cli.whole_numbers`)."""
    if text is None:
        return None
    try:
        return read_whole(
            option,
            text,
            what="a whole number of SCRUM points",
            most_digits=MAX_DIGITS,
            too_large=f"an order has at most {MAX_ORDER_POINTS} SCRUM points",
        )
    except ValueError as exc:
        fail(f"R3: {exc}")


_OPTION_NAME = re.compile(r"--?[A-Za-z][A-Za-z0-9-]*")
"""A word that reads as an option's name (``--jsn``, ``-x``), as opposed to a negative number."""


def _typed(*options: tuple[str, object]) -> str:
    """The options the user gave of ``options`` (``(name, value)``, None for one not given), written
    as they could be typed: a refusal names only what was typed, never an option left out.

    >>> _typed(("--force", None), ("--flair", 10))
    '--flair 10'
    >>> _typed(("--force", "3"), ("--best-split", "1 2"))
    "--force 3 --best-split '1 2'"
    """
    return " ".join(f"{name} {shell_quoted(str(value))}" for name, value in options if value is not None)


def _order(force_option: str, force: int | None, flair_option: str, flair: int | None) -> Order:
    for option, part, value in ((force_option, "FORCE", force), (flair_option, "FLAIR", flair)):
        if value is not None and value < 0:  # R3's own words say only that it cannot be
            fail(f"R3: {option} takes the SCRUM points spent on {part}, 0 or more, got {value}")
    try:
        return Order(force=force or 0, flair=flair or 0)
    except OrderError as exc:
        # The other part is 0 when left out (R3), but "(--force 0 --flair 10)" would name an option nobody typed.
        fail(f"{exc} ({_typed((force_option, force), (flair_option, flair))})")


def chance(p: float, places: int = 6) -> str:
    """A probability to ``places`` decimals that never rounds what can happen to 0, nor what may fail to 1,
    and keeps two significant figures of a long shot (scientific form where the decimals hold fewer).

    >>> chance(0.0), chance(0.25), chance(2.86e-8), chance(1 - 3e-9), chance(1.0)
    ('0', '0.250000', '2.9e-08', '>0.999999', '1')
    >>> chance(0.0000286), chance(0.00000888), chance(0.0000286, places=4)
    ('0.000029', '8.9e-06', '2.9e-05')

    More places give a long shot more figures too:

    >>> chance(3.3123e-26, places=8), chance(1 - 3.6e-7, places=8)
    ('3.312e-26', '0.99999964')
    """
    if p <= 0:
        return "0"
    if p >= 1:
        return "1"
    text = f"{p:.{places}f}"
    if p < 10.0 ** (1 - places):  # fewer than two figures would show: 0.000009 for 8.88e-06
        return f"{p:.{max(1, places - 5)}e}"
    if float(text) == 1:
        return ">0." + "9" * places
    return text


def bound(x: float) -> str:
    """An error bound to two significant figures, rounded up so that it never claims less error
    than there may be; a bound of 0 is "0".

    >>> bound(1.1793398315655208e-10), bound(1.2e-10), bound(9.96e-11), bound(2e-10), bound(0.0)
    ('1.2e-10', '1.2e-10', '1.0e-10', '2.0e-10', '0')
    """
    if x <= 0:
        return "0"
    text = f"{x:.1e}"
    if float(text) < x:  # rounded down: the next figure up
        mantissa, exponent = text.split("e")
        up = round(float(mantissa) + 0.1, 1)
        text = f"{up:.1f}e{exponent}" if up < 10 else f"1.0e{int(exponent) + 1:+03d}"
    return text


def histogram_rows(odds: OrderOdds, rows: int = _MAX_ROWS) -> list[tuple[str, float]]:
    """The distribution in at most ``rows`` bins of equal width over its central 99.9%.

    Returns:
        ``(label, probability)`` pairs, e.g. ``("12-14", 0.031)``; the first and last bins take the
        tails below and above.

    >>> [label for label, _ in histogram_rows(order_odds(1, 0))]
    ['0', '1', '2', '3', '4', '5']
    """
    pmf = odds.distribution
    cumulative = pmf.cumsum()
    low = int((cumulative < 0.0005).sum())
    high = int(min(len(pmf) - 1, (cumulative < 0.9995).sum()))
    width = max(1, math.ceil((high - low + 1) / rows))
    out: list[tuple[str, float]] = []
    for start in range(low, high + 1, width):
        stop = min(start + width - 1, high)
        mass = float(pmf[start : stop + 1].sum())
        if start == low:
            mass += float(pmf[:low].sum())
        if stop == high:
            mass += float(pmf[high + 1 :].sum())
        label = str(start) if stop == start else f"{start}-{stop}"
        if start == low and low > 0:
            label = f"<={stop}"
        if stop == high and high < len(pmf) - 1:
            label = f">={start}"
        out.append((label, mass))
    return out


# Budgets from which count-back odds (--knockout) over every split take more than a few seconds:
# each order's joint lines take a fraction of a second to work out at these sizes.
SLOW_BUDGET = 100
# The most memory such a run was measured to take: --solve 160 159 --knockout (two different budgets
# share no splits), docs/odds.md's largest figure; the note must not promise less.
SLOW_MEMORY = "1.3 GB"


def _warn_if_slow(budgets: list[int], orders: int) -> None:
    """Say on stderr that a knockout ranking or solution over large budgets takes a while."""
    # Only a note: a stderr that cannot take it (2>/dev/full) ended the command before the work.
    if max(budgets) >= SLOW_BUDGET:
        with contextlib.suppress(OSError):
            typer.echo(
                f"working out count-back (R9) for {orders} orders: at budgets this large that takes from a few "
                f"seconds to about half a minute, and up to about {SLOW_MEMORY} of memory",
                err=True,
            )


def _titled(title: str, caption: str | None = None, *, show_header: bool = True) -> Table:
    # A table as wide as its title and caption, so that neither wraps mid-phrase above narrow columns.
    width = max(len(title), len(caption or ""))
    # The caption is a line of text under the table, read with the note after it, so it starts
    # where they do rather than centred (a few columns in, or none, as its length happened to fall).
    return Table(title=title, caption=caption, min_width=width, show_header=show_header, caption_justify="left")


def _order_table(odds: OrderOdds, title: str, width: int) -> RenderableType:
    """The order's expected figures; below 60 columns without the frame, the names of the figures
    wrapped to leave their values the room of ``width``, and each value broken only between its
    figure and its fraction (not "25.5333  (=" above "383/15")."""
    e = odds.expected
    p_zero = chance(odds.p_zero)
    rows = [
        ("expected points", f"{odds.expected_points:.4f}  (= {odds.expected_points_exact})"),
        ("standard deviation", f"{math.sqrt(odds.variance):.4f}  (variance {odds.variance_exact})"),
        ("P(no points)", f"{p_zero}  (= {odds.p_zero_exact})" if odds.p_zero_exact.denominator < 10**6 else p_zero),
        ("expected tries", f"{float(e.tries):.4f}  (= {e.tries})"),
        ("expected conversions", f"{float(e.conversions):.4f}  (= {e.conversions})"),
        ("expected penalties", f"{float(e.penalties):.4f}  (= {e.penalties})"),
        ("expected drop goals", f"{float(e.drop_goals):.4f}  (= {e.drop_goals})"),
    ]
    if odds.expected_points_exact:
        share = TRY_POINTS * e.tries / odds.expected_points_exact
        rows.append(("share of points from tries", f"{float(share):.4f}  (= {share})"))
    if odds.order.flair:
        throws = odds.expected_flair_throws
        rows.append(("expected FLAIR throws", f"{float(throws):.4f}  (= {throws}, doubles throw again)"))
    rows.append(("tail bound", bound(odds.tail_bound)))
    table = _titled(title, show_header=False)
    narrow = Table(title=title, show_header=False, box=None, padding=(0, 1), pad_edge=False)
    table.add_column("figure")
    table.add_column("value", justify="right")
    longest = max(len(word) for figure, _ in rows for word in figure.split())
    # Room for each figure and its fraction on one line (a note after them may wrap), beside the
    # two spaces between the columns.
    room = max(len(" ".join(p.plain for p in phrases(value)[:2])) for _, value in rows)
    narrow.add_column("figure", max_width=max(longest, width - 2 - room))
    narrow.add_column("value", justify="right")
    for figure, value in rows:
        table.add_row(figure, value)
        narrow.add_row(figure, Phrases(phrases(value), indent=2))
    widest = max(p.cell_len for _, value in rows for p in phrases(value))
    if longest + 1 + widest > width:
        # Narrower still (below about 26 columns) the two columns cut "(variance" and "125/236196)"
        # short: each figure is then a line of its own, its value after its name.
        listing = Table(title=title, show_header=False, box=None, padding=(0, 0), min_width=min(len(title), width))
        listing.add_column(overflow="fold")
        for figure, value in rows:
            listing.add_row(Phrases([f"{figure}:", *phrases(value)], indent=2))
        return listing
    return Narrower(table, narrow)


def _histogram(odds: OrderOdds, title: str, width: int) -> Table:
    """The histogram, its chances printed as every other chance of the command, and its bars as
    long as fit in ``width`` columns beside them (at most :data:`_BAR_WIDTH`): at 60 columns, bars
    of a fixed 40 were cut short with "…", so that the highest bins all looked the same. Where even
    bars of :data:`_MIN_BAR_WIDTH` leave no room, the cells go without their padding and the bars
    shorter, and narrower still (below about 24 columns) each bin is a line of its own: the bars
    kept their 10 columns and rich cut the chances to "0.00…" at 30 columns, and at 20 left the
    points and chances out altogether."""
    rows = [(label, chance(p), p) for label, p in histogram_rows(odds)]
    points_width = max(len("points"), *(len(label) for label, _, _ in rows))
    chance_width = max(len("probability"), *(len(text) for _, text, _ in rows))
    room = width - points_width - chance_width - 4  # what four rules leave the bars and the padding
    if room < _NARROWEST_BAR:
        # As wide as the title where it fits: one bin's line alone ("0 points: 1") broke it mid-word.
        listing = Table(title=title, box=None, show_header=False, padding=(0, 0), min_width=min(len(title), width))
        listing.add_column(overflow="fold")
        for label, text, _ in rows:
            listing.add_row(f"{label} points: {text}")
        return listing
    table = _titled(title)
    # Each of the three columns has a space either side where that leaves the bars their least.
    padded = room - 3 * 2 >= _MIN_BAR_WIDTH
    bar_width = min(_BAR_WIDTH, room - 3 * 2) if padded else room
    if not padded:
        table.padding = (0, 0)
    table.add_column("points", justify="right")
    table.add_column("probability", justify="right")
    table.add_column("", no_wrap=True, overflow="crop")
    peak = max(p for _, _, p in rows) or 1.0
    for label, text, p in rows:
        table.add_row(label, text, "█" * round(bar_width * p / peak))
    return table


def _name(order: Order) -> str:
    return f"{order.force} FORCE + {order.flair} FLAIR"


LEVEL_NOTE = (
    "level: the same points, tries, conversions and drop goals. R9 then goes to the better group "
    "record, then lots, which one match cannot know"
)


def _in_reading_order(odds: MatchOdds | KnockoutOdds) -> dict[str, float]:
    """The chances as the tables show them: win, then draw or level, then loss, the order of the game's
    screen and the web's odds. The JSON keeps its own documented order (knockout: win, loss, level)."""
    chances = odds.to_dict()
    return {key: chances[key] for key in ("win", "draw", "level", "loss") if key in chances}


def _match_table(odds: MatchOdds | KnockoutOdds, a: Order, b: Order, width: int) -> Table:
    """The three chances, each whole: where ``width`` leaves no room for the cells' padding they go
    without it, and narrower still (below about 30 columns) each stands on a line with its name, as
    the splits table does; rich cut them to "0.1448…" and "0.854…" at 30 columns."""
    rules = "knockout, after count-back (R9)" if isinstance(odds, KnockoutOdds) else "group"
    title = f"{_name(a)} v {_name(b)}: {rules}"
    cells = {key: chance(v) for key, v in _in_reading_order(odds).items()}
    unpadded = sum(max(len(k), len(v)) for k, v in cells.items()) + len(cells) + 1
    if unpadded > width:
        listing = Table(title=title, box=None, show_header=False, padding=(0, 1, 0, 0))
        listing.add_column()
        listing.add_column(justify="right")
        for key, text in cells.items():
            listing.add_row(key, text)
        return listing
    table = Table(title=title, min_width=min(len(title), width),
                  padding=(0, 1) if unpadded + 2 * len(cells) <= width else (0, 0))
    for key in cells:
        table.add_column(key, justify="right")
    table.add_row(*cells.values())
    return table


# The most decimals the ranking's column takes: beyond them two splits differ by less than the
# match odds' tail bounds (at most 2e-10 each), so they are equal as far as anything here can tell.
_MOST_PLACES = 10


def ranking_figures(ranked: list[SplitOdds]) -> list[str]:
    """The figure each split is ranked by, with as many decimals (6 to :data:`_MOST_PLACES`) as tell
    each split from the next wherever they differ by more than their tail bounds: at six, 40 FORCE and
    37 FORCE + 3 FLAIR against one FLAIR option both showed 0.999970, ranked apart for no reason shown.
    """
    def apart(a: SplitOdds, b: SplitOdds) -> bool:
        return abs(a.share - b.share) > a.odds.tail_bound + b.odds.tail_bound

    for places in range(6, _MOST_PLACES + 1):
        texts = [chance(split.share, places) for split in ranked]
        if all(texts[i] != texts[i + 1] or not apart(ranked[i], ranked[i + 1]) for i in range(len(ranked) - 1)):
            break
    return texts


def _splits_table(ranked: list[SplitOdds], total: int, vs: Order, knockout: bool, width: int) -> Table:
    """Every split, best first, each figure whole: where ``width`` columns leave no room for the
    cells' padding, the cells go without it ("│0.012309│"), since rich would otherwise cut every
    chance to "0.012…" (at 60 columns, the width the histogram is drawn for, all of them were)."""
    rules = "knockout (R9)" if knockout else "group"
    headers = ["rank", "FORCE", "FLAIR", *(list(_in_reading_order(ranked[0].odds)) if ranked else [])]
    headers.append("win + level/2" if knockout else "win + draw/2")
    rows = [
        [str(rank), str(split.order.force), str(split.order.flair),
         *(chance(v) for v in _in_reading_order(split.odds).values()), share]
        for rank, (split, share) in enumerate(zip(ranked, ranking_figures(ranked), strict=True), start=1)
    ]
    # Each column as wide as its widest figure, or its header's longest word (a header may wrap).
    widths = [max([len(max(h.split(), key=len)), *(len(row[i]) for row in rows)]) for i, h in enumerate(headers)]
    padded = sum(widths) + 2 * len(widths) + len(widths) + 1  # a space either side of each cell, and the rules
    title = f"Splits of {total} v {_name(vs)}, {rules} rules, best first"
    if padded - 2 * len(widths) > width:
        # Even unpadded (below about 56 columns) rich would cut the chances: one split after the
        # other, its chances after it, each with its name.
        listing = Table(title=title, box=None, show_header=False, padding=(0, 0))
        listing.add_column(overflow="fold")
        for row in rows:
            rank, force, flair, *chances, share = row
            named = [f"{name} {value}{',' if i < len(chances) - 1 else ''}" for i, (name, value) in
                     enumerate(zip(headers[3:-1], chances, strict=True))]
            listing.add_row(Phrases([f"{rank.rjust(len(str(len(rows))))}. {force} FORCE + {flair} FLAIR:",
                                     f"{headers[-1]} {share};", *named], indent=len(str(len(rows))) + 2))
        return listing
    table = Table(title=title, min_width=min(len(title), width), padding=(0, 1) if padded <= width else (0, 0))
    for header in headers:
        table.add_column(header, justify="right")
    for row in rows:
        table.add_row(*row)
    return table


def odds_command(
    ctx: typer.Context,
    force: Annotated[str | None, typer.Option("--force", metavar="N", help="FORCE points of the order.")] = None,
    flair: Annotated[
        str | None, typer.Option("--flair", metavar="N", help="FLAIR points (a multiple of 3).")
    ] = None,
    vs_force: Annotated[
        str | None, typer.Option("--vs-force", metavar="N", help="FORCE points of the opponent (0 if only --vs-flair is given).")
    ] = None,
    vs_flair: Annotated[
        str | None, typer.Option("--vs-flair", metavar="N", help="FLAIR points of the opponent (0 if only --vs-force is given).")
    ] = None,
    best_split: Annotated[
        str | None,
        typer.Option("--best-split", metavar="TOTAL", help="Rank every split of this total against --vs-*, best first by win + draw/2 "
                     "(with --knockout: win + level/2)."),
    ] = None,
    solve: Annotated[
        list[str] | None,
        typer.Option(
            "--solve",
            metavar="A B",
            help="Solve the match between budgets A and B (--solve 30 10 or --solve 30,10): "
            "optimal mixed splits and value to A (win + draw/2; with --knockout: win + level/2).",
        ),
    ] = None,
    knockout: Annotated[bool, typer.Option("--knockout", metavar="",
                                            help="Knockout rules: points level, more tries win, then conversions, "
                                            "then drop goals (count-back, R9).")] = False,
    as_json: Annotated[bool, typer.Option("--json", metavar="", help="Print one JSON object.")] = False,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact", metavar="", help="With --json: each order's distribution as fractions too (distribution_exact)."
        ),
    ] = False,
    distribution: Annotated[
        bool,
        typer.Option("--distribution", metavar="",
                     help="Every total of one order: P(points) and P(at least), as fractions and decimals."),
    ] = False,
    per_point: Annotated[
        bool,
        typer.Option("--per-point", metavar="", help="Mean and variance of a SCRUM point of FORCE and of FLAIR, exactly."),
    ] = False,
    fractions: Annotated[
        bool,
        typer.Option("--fractions", metavar="", help="A match's win, draw and loss as exact fractions too (with --knockout: win, level and loss, "
                     "by step of count-back, where one side has no FLAIR; with FLAIR on both, none exist: decimals)."),
    ] = False,
    every_split: Annotated[
        str | None,
        typer.Option("--every-split", metavar="TOTAL",
                     help="Exact win, draw and loss of every split of TOTAL against --vs-*, FLAIR rising."),
    ] = None,
    as_csv: Annotated[
        bool,
        typer.Option("--csv", metavar="",
                     help="CSV for a spreadsheet: of --distribution (one order), --per-point, --fractions, --every-split."),
    ] = False,
) -> None:
    """Exact odds: an order's points, a match, the best split of a total, or the solved match."""
    # --solve takes one value, so that "30,10" is read too; B of "--solve 30 10" arrives here.
    extra = list(ctx.args)
    for word in extra:
        unknown = word.split("=")[0]
        # Only what reads as an option's name: "-5", "-1.5" or "-" is budget B, for --solve to refuse as such.
        if _OPTION_NAME.fullmatch(unknown):
            known = [name for param in ctx.command.params for name in param.opts if name.startswith("--")]
            if unknown in known:  # only "--" before it keeps an option's name from being read as one
                fail(f"{word} comes after --, which makes every word after it no option: put it before the --, "
                     "or leave the -- out (see sevens odds --help)")
            # --FORCE or --Flair, spelt as the rules write the words: difflib alone missed the first.
            close = [unknown.lower()] if unknown.lower() in known else difflib.get_close_matches(unknown, known, n=1)
            fail(f"sevens odds has no option {unknown}" + (f"; did you mean {close[0]}?" if close else "")
                 + " (see sevens odds --help)")
    if _classroom(force, flair, vs_force, vs_flair, best_split, solve, knockout, as_json, exact, distribution,
                  per_point, fractions, every_split, as_csv):
        return
    if exact and not as_json:
        # The tables show the expected figures as fractions but not each total's chance: say where those are.
        instead = ("--fractions for the match's win, draw and loss as fractions" if vs_force or vs_flair
                   else "--distribution for every total's chance as a fraction")
        fail(f"--exact adds the fractions to --json's distribution: add --json, or use {instead} in a table")
    if exact and (solve or best_split is not None):
        without = "--solve gives" if solve else "--best-split gives"
        fail(f"--exact is for one order or a match (--force/--flair, --vs-*): {without} no distribution")
    if solve:
        others = _typed(("--force", force), ("--flair", flair), ("--vs-force", vs_force), ("--vs-flair", vs_flair),
                        ("--best-split", best_split))
        if others:
            fail(f"--solve A B stands alone, working out both sides' splits itself: drop {others}")
        if len(solve) > 1:  # else the B of each would be read together with the last A
            fail("--solve is given once, with two budgets: --solve 30 10 or --solve 30,10")
        words = [solve[0], *extra]
        joined = " ".join(words)
        budgets = joined.replace(",", " ").split()
        if len(budgets) != 2:
            # Quoted as typed: "--solve '' 10" read "not --solve 10", as if B alone had been given.
            fail(f"--solve takes two budgets, A and B: write --solve 30 10 or --solve 30,10, not --solve "
                 f"{shell_joined(words)}")
        gap = separator_gap(joined, ",")
        if gap is not None:
            # "--solve 30,,10" was read as 30 and 10: a figure may have been lost between them ("30,5,10").
            why, mended = gap
            fail(f"--solve takes two budgets, A and B, parted by one comma or by spaces; in {joined.strip()!r}, {why} "
                 f"(a figure may have been lost there): write --solve {shell_quoted(mended)} if those are the budgets "
                 "you meant")
        a, b = _whole("--solve", budgets[0]), _whole("--solve", budgets[1])
        assert a is not None and b is not None
        _solve(a, b, knockout=knockout, as_json=as_json)
        return
    if extra:
        fail(f"unexpected {' '.join(extra)!r}: options are written --force N --flair N (see sevens odds --help)")
    f, k = _whole("--force", force), _whole("--flair", flair)
    vf, vk = _whole("--vs-force", vs_force), _whole("--vs-flair", vs_flair)
    total = _whole("--best-split", best_split)
    has_vs = vf is not None or vk is not None
    console = ResultsConsole()
    if total is not None:
        if f is not None or k is not None:
            mine = _typed(("--force", f), ("--flair", k))
            fail(f"give either {mine} (one order) or --best-split {total} (every split of it), not both")
        if not has_vs:
            fail("--best-split needs the opposing order: add --vs-force F2 --vs-flair K2 (either alone: the other is 0)")
        if total < 0:  # else best_splits blames the FORCE of a split it tried
            fail(f"R3: --best-split takes the total of SCRUM points to split, 0 or more, got {total}")
        vs = _order("--vs-force", vf, "--vs-flair", vk)
        if knockout and total <= MAX_ORDER_POINTS:  # else best_splits's error says why
            _warn_if_slow([total], len(set(splits(total)) | {vs}))
        try:
            ranked = best_splits(total, vs, knockout=knockout)
        except OrderError as exc:
            fail(f"{exc} (--best-split {total})")
        with printing():
            if as_json:
                typer.echo(json.dumps({"rules": _rules(knockout), "splits": [s.to_dict() for s in ranked]}))
            else:
                console.print(_splits_table(ranked, total, vs, knockout, console.width))
                if knockout:
                    console.print(f"{LEVEL_NOTE}: the ranking counts it as half a win.")
        return
    if f is None and k is None:
        if has_vs:
            fail(f"{_typed(('--vs-force', vf), ('--vs-flair', vk))} is the opponent's order; add yours, --force F --flair K (either alone: the other is 0), "
                 "or --best-split TOTAL to rank every split of a total against it")
        fail(
            "say which order: --force F --flair K (or --best-split TOTAL with --vs-force/--vs-flair, or --solve A B "
            "for the match between two budgets)"
        )
    if knockout and not has_vs:
        fail("--knockout compares two orders: add the opponent's --vs-force and --vs-flair (either alone: the other is 0)")
    order = _order("--force", f, "--flair", k)
    first = order_odds(order.force, order.flair)
    result: dict[str, Any] = first.to_dict(exact=exact) if as_json else {}
    if not has_vs:
        with printing():
            if as_json:
                typer.echo(json.dumps(result))
            else:
                console.print(_order_table(first, _name(order), console.width))
                console.print(_histogram(first, "distribution of points", console.width))
        return
    vs = _order("--vs-force", vf, "--vs-flair", vk)
    second = order_odds(vs.force, vs.flair)
    match: MatchOdds | KnockoutOdds = knockout_odds(order, vs) if knockout else match_odds(order, vs)
    if as_json:
        # "rules" first, as --solve has it; one order alone has none (its points are the same under both).
        result = {"rules": _rules(knockout), **result, "vs": second.to_dict(exact=exact), **match.to_dict()}
        result["tail_bound"] = match.tail_bound
        with printing():
            typer.echo(json.dumps(result))
        return
    with printing():
        console.print(_order_table(first, _name(order), console.width))
        console.print(_order_table(second, _name(vs), console.width))
        console.print(_match_table(match, order, vs, console.width))
        if knockout:
            console.print(f"{LEVEL_NOTE}.")


def _classroom(force: str | None, flair: str | None, vs_force: str | None, vs_flair: str | None,
               best_split: str | None, solve: list[str] | None, knockout: bool, as_json: bool, exact: bool,
               distribution: bool, per_point: bool, fractions: bool, every_split: str | None, as_csv: bool) -> bool:
    """The exact figures a lesson wants (:mod:`sevens.cli.odds_classroom`); False if none was asked for."""
    if not (distribution or per_point or fractions or every_split is not None or as_csv):
        return False
    if as_csv and as_json:
        fail("--csv and --json are two ways to print the same figures: choose one")
    if knockout and (distribution or per_point or every_split is not None):
        asked = " and ".join(filter(None, ["--distribution" * distribution, "--per-point" * per_point,
                                           "--every-split" * (every_split is not None)]))
        fail(f"--knockout changes only one match's chances (--fractions --knockout with --vs-force/--vs-flair gives "
             f"them exactly); {asked} gives group figures: drop --knockout")
    typed = _typed(("--force", force), ("--flair", flair), ("--vs-force", vs_force), ("--vs-flair", vs_flair),
                   ("--best-split", best_split), ("--solve", " ".join(solve) if solve else None),
                   ("--every-split", every_split))
    if solve or best_split is not None:
        fail(f"--solve and --best-split give decimals of their own; the exact figures are of one order "
             f"(--distribution), a match (--fractions) or --every-split TOTAL: drop {'--solve' if solve else '--best-split'}")
    if per_point:
        if typed or distribution or fractions or exact:
            others = " ".join(filter(None, [typed, "--distribution" * distribution, "--fractions" * fractions,
                                            "--exact" * exact]))
            fail(f"--per-point stands alone, the same for every order: drop {others}")
        classroom.print_per_point(as_csv=as_csv, as_json=as_json)
        return True
    f, k = _whole("--force", force), _whole("--flair", flair)
    vf, vk = _whole("--vs-force", vs_force), _whole("--vs-flair", vs_flair)
    has_vs = vf is not None or vk is not None
    if every_split is not None:
        total = _whole("--every-split", every_split)
        assert total is not None
        if f is not None or k is not None or distribution or fractions or exact:
            others = " ".join(filter(None, [_typed(("--force", f), ("--flair", k)), "--distribution" * distribution,
                                            "--fractions" * fractions, "--exact" * exact]))
            fail(f"--every-split {total} works out every split of {total} itself, with its fractions: drop {others}")
        if total < 0:  # else splits blamed "FORCE points" for the total
            fail(f"R3: --every-split takes the total of SCRUM points to split, 0 or more, got {total}")
        if not has_vs:
            fail("--every-split needs the opposing order: add --vs-force F2 --vs-flair K2 (either alone: the other is 0)")
        vs = _order("--vs-force", vf, "--vs-flair", vk)
        classroom.print_every_split(total, vs, as_csv=as_csv, as_json=as_json)
        return True
    if f is None and k is None:
        if as_csv and not (distribution or fractions or has_vs):
            # --csv alone was told of one order only, as if that were all it writes.
            fail("say what to write as CSV: one order's points, --force F --flair K (either alone: the other is 0); "
                 "a match, those with --vs-force F2 --vs-flair K2; --per-point; or --every-split "
                 "TOTAL with --vs-force/--vs-flair")
        fail("say which order: --force F --flair K (either alone: the other is 0)")
    order = _order("--force", f, "--flair", k)
    if not has_vs:
        if fractions:
            fail("--fractions gives a match's win, draw and loss: add the opponent's --vs-force and --vs-flair, or "
                 "--distribution for this order's points as fractions")
        if exact and not as_json:
            # Not "add --distribution": it may be there already, and its table has the fractions.
            fail("--exact adds the fractions to --json's distribution: add --json, or drop --exact (--distribution's "
                 "table shows every chance as a fraction)")
        classroom.print_distribution(order, as_csv=as_csv, as_json=as_json, exact=exact)
        return True
    if distribution:
        # "add --fractions" beside --distribution would be refused again: the way out is one or the other.
        vs_typed = _typed(("--vs-force", vf), ("--vs-flair", vk))
        fail("--distribution is one order's: drop --distribution (--fractions gives the match's chances as fractions)"
             if fractions else f"--distribution is one order's: drop {vs_typed}, or put --fractions in place of "
             "--distribution for the match's chances as fractions")
    vs = _order("--vs-force", vf, "--vs-flair", vk)
    _match_fractions(order, vs, typed, knockout=knockout, as_csv=as_csv, as_json=as_json, exact=exact)
    return True


def _match_fractions(
    order: Order, vs: Order, typed: str, *, knockout: bool, as_csv: bool, as_json: bool, exact: bool
) -> None:
    """A match's win, draw (or level, with count-back's share of it in a knockout) and loss as
    fractions: a group match's and a knockout's differ only in which result and table they use."""
    if knockout and order.options and vs.options:
        _knockout_decimals(order, vs, typed, as_csv=as_csv, as_json=as_json, exact=exact)
        return
    result: Any = classroom.knockout_or_fail(order, vs, typed) if knockout else classroom.exact_or_fail(order, vs, typed)
    if as_csv:
        (classroom.knockout_csv if knockout else classroom.match_csv)(result)
        return
    if as_json:
        floats: Any = knockout_odds(order, vs) if knockout else match_odds(order, vs)
        data = {"rules": _rules(knockout), **order_odds(order.force, order.flair).to_dict(exact=exact),
                "vs": order_odds(vs.force, vs.flair).to_dict(exact=exact), **floats.to_dict(),
                "tail_bound": floats.tail_bound, **{f"{key}_exact": value for key, value in result.to_dict().items()}}
        with printing():
            typer.echo(json.dumps(data))
        return
    if exact:
        fail("--exact adds the fractions to --json's distribution: add --json (the tables already show fractions)")
    console = ResultsConsole()
    with printing():
        console.print(_order_table(order_odds(order.force, order.flair), _name(order), console.width))
        console.print(_order_table(order_odds(vs.force, vs.flair), _name(vs), console.width))
        if knockout:
            console.print(classroom.knockout_table(order, vs, result, console.width))
            console.print(f"{LEVEL_NOTE}.")
        else:
            console.print(classroom.fractions_table(order, vs, result, console.width))


def _knockout_decimals(order: Order, vs: Order, typed: str, *, as_csv: bool, as_json: bool, exact: bool) -> None:
    """Two FLAIR sides under count-back have no fractions to give: say why on stderr, and give the
    decimals (within their tail bound) in the form asked for, rather than refuse the whole command."""
    if exact and not as_json:
        fail("--exact adds the fractions to --json's distribution: add --json (the tables already show fractions)")
    floats = knockout_odds(order, vs)
    typer.echo(f"--fractions --knockout ({typed}): no exact fractions, {WHY_NOT_BOTH_FLAIR}; these are decimals, "
               f"each within {bound(floats.tail_bound)} of the true chance", err=True)
    if as_csv:
        # probability_exact left empty, as there is none; the rows of count-back's steps need fractions too.
        classroom.knockout_decimals_csv(floats.win, floats.level, floats.loss)
        return
    if as_json:
        data = {"rules": _rules(True), **order_odds(order.force, order.flair).to_dict(exact=exact),
                "vs": order_odds(vs.force, vs.flair).to_dict(exact=exact), **floats.to_dict(),
                "tail_bound": floats.tail_bound, "no_fractions": WHY_NOT_BOTH_FLAIR}
        with printing():
            typer.echo(json.dumps(data))
        return
    console = ResultsConsole()
    with printing():
        console.print(_order_table(order_odds(order.force, order.flair), _name(order), console.width))
        console.print(_order_table(order_odds(vs.force, vs.flair), _name(vs), console.width))
        console.print(_match_table(floats, order, vs, console.width))
        console.print(f"{LEVEL_NOTE}.")


def _rules(knockout: bool) -> str:
    """The JSON's "rules", as --solve's (:meth:`~sevens.odds.MatchSolution.to_dict`) gives them."""
    return str(MatchRules.KNOCKOUT if knockout else MatchRules.GROUP)


def _solve(a: int, b: int, *, knockout: bool, as_json: bool) -> None:
    if knockout and min(a, b) >= 0 and max(a, b) <= MAX_ORDER_POINTS:  # else solve_match's error says why
        _warn_if_slow([a, b], len(set(splits(a)) | set(splits(b))))
    try:
        solution = solve_match(a, b, knockout=knockout)
    except (OrderError, ValueError) as exc:
        fail(f"{exc} (--solve {a} {b})")
    if as_json:
        with printing():
            typer.echo(json.dumps(solution.to_dict()))
        return
    rules = "knockout (R9)" if knockout else "group"
    title = f"Solved match, {rules} rules: A spends {a}, B spends {b}"
    caption = (
        f"value to A (win + {'level' if knockout else 'draw'}/2): {chance(solution.value)} "
        f"({'exact' if solution.error_bound <= 0 else 'within ' + bound(solution.error_bound)})"
    )
    headers = ("side", "FORCE", "FLAIR", "probability")
    rows = [(side, str(order.force), str(order.flair), chance(p))
            for side, mix in (("A", solution.mix_a), ("B", solution.mix_b)) for order, p in mix.support]
    console = ResultsConsole()
    # As the splits table: cells without their padding where it does not fit, and below that (about
    # 30 columns) each split on a line of its own, rather than headers cut to "FOR…" and "pro…".
    unpadded = sum(max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(headers)) + len(headers) + 1
    table: Table
    if unpadded > console.width:
        table = Table(title=title, caption=caption, caption_justify="left", box=None, show_header=False,
                      padding=(0, 0))
        table.add_column(overflow="fold")
        for side, force, flair, p in rows:
            table.add_row(f"{side}: {force} FORCE + {flair} FLAIR, probability {p}")
    else:
        table = _titled(title, caption)
        if unpadded + 2 * len(headers) > console.width:
            table.padding = (0, 0)
        for header in headers:
            table.add_column(header, justify="left" if header == "side" else "right")
        for row in rows:
            table.add_row(*row)
    with printing():
        console.print(table)
        if knockout:
            console.print(f"{LEVEL_NOTE}: the value counts it as half a win.")


ODDS_EXAMPLES = "\n\n".join([
    "Examples (docs/odds.md says more):",
    "sevens odds --force 10 --flair 9   (one order: expected points, spread, histogram)",
    "sevens odds --force 10 --flair 9 --vs-flair 30 [--knockout]   (a match: win, draw, loss)",
    "sevens odds --best-split 30 --vs-force 15 --vs-flair 15   (every split of 30, best first)",
    "sevens odds --solve 30 10   (both sides guessing: optimal mixed splits)",
    "sevens odds --force 3 --vs-flair 3 --fractions [--csv | --json]   (a match as exact fractions)",
    "sevens odds --every-split 12 --vs-force 6 --vs-flair 6 --csv   (every split's exact chances)",
])


def register(app: typer.Typer) -> None:
    """Add the ``odds`` command to the application."""
    # Extra arguments (B of "--solve A B", or a stray word) reach the command, which says what is wrong.
    # One example of each kind of question under the options: --help named every option but showed none in use.
    app.command("odds", context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
                epilog=ODDS_EXAMPLES)(odds_command)
