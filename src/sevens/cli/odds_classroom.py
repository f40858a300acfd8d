"""The exact figures of ``sevens odds`` that a lesson on chance wants, as tables, CSV and JSON.

* ``--distribution``: every total one order can score, its chance and the chance of at least that
  many points, each as a fraction and a decimal.
* ``--per-point``: the mean and variance of a point of FORCE and of FLAIR.
* ``--fractions``: a group match's win, draw and loss as fractions.
* ``--every-split TOTAL``: those for every split of TOTAL in turn, FLAIR 0, 3, 6, ...

``--csv`` writes any of them as comma-separated values (a header, then a row each) for a
spreadsheet. Every figure is exact; the decimals are the fractions rounded, never simulated. A
fraction is written after an apostrophe (``'1/6``), as text: bare, a spreadsheet read it as a date.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import sys
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import typer
from rich.table import Table

from sevens.cli.errors import fail
from sevens.cli.output import ResultsConsole, printing
from sevens.cli.render import Phrases
from sevens.odds import (
    STEPS,
    ExactKnockout,
    ExactMatch,
    exact_knockout,
    exact_match,
    exact_matches,
    exact_points,
    order_odds,
    per_point,
    splits,
)
from sevens.rules import Order, OrderError
from sevens.tournament.spreadsheet import fraction_cell

__all__ = ["at_least_rows", "decimal", "exact_or_fail", "fractions_table", "match_csv", "print_distribution",
           "print_every_split", "print_per_point"]


def decimal(p: Fraction, places: int = 6) -> str:
    """A fraction to ``places`` decimals, rounded half up from the exact value (a float could round
    a tie the other way). As every chance sevens odds prints, what can happen never reads as 0, nor
    what may fail as 1: a long shot keeps two figures in scientific form, a near-certainty is ">0.99...".

    >>> decimal(Fraction(1, 3)), decimal(Fraction(61, 45), 4), decimal(Fraction(1, 8), 2), decimal(Fraction(0))
    ('0.333333', '1.3556', '0.13', '0.000000')
    >>> decimal(Fraction(1, 10**20)), decimal(1 - Fraction(1, 10**9)), decimal(Fraction(66, 5), 4)
    ('1.0e-20', '>0.999999', '13.2000')
    """
    if 0 < p < Fraction(1, 10 ** (places - 1)):
        return f"{float(p):.{max(1, places - 5)}e}"
    if 1 - Fraction(1, 2 * 10**places) <= p < 1:
        return ">0." + "9" * places
    scaled = abs(p) * 10**places
    whole = math.floor(scaled + Fraction(1, 2))
    text = f"{whole // 10**places}.{whole % 10**places:0{places}d}"
    return f"-{text}" if p < 0 and whole else text


def csv_decimal(p: Fraction, places: int = 6) -> str:
    """A chance as a CSV cell gives it: :func:`decimal`, but always a number a spreadsheet or
    pandas reads as one. A near-certainty that :func:`decimal` writes ">0.999999" gets as many
    decimals as show two figures of what it falls short of 1, so it is never read as 1 either.

    >>> csv_decimal(Fraction(1, 3)), csv_decimal(1 - Fraction(27, 10**11)), csv_decimal(1 - Fraction(1, 10**30))
    ('0.333333', '0.99999999973', '0.9999999999999999999999999999990')
    """
    text = decimal(p, places)
    if not text.startswith(">"):
        return text
    short = 1 - p
    shown = places
    while short * 10**shown < 10:  # two figures of 1 - p
        shown += 1
    return decimal(p, shown)


def at_least_rows(force: int, flair: int) -> tuple[list[tuple[int, Fraction, Fraction]], int, Fraction]:
    """``(points, P(exactly), P(at least))`` for every total the order can score up to the last
    listed (:func:`~sevens.odds.exact_points`), that last total, and the exact chance of more.

    >>> rows, last, rest = at_least_rows(1, 0)
    >>> rows, last, rest
    ([(0, Fraction(2, 3), Fraction(1, 1)), (3, Fraction(1, 6), Fraction(1, 3)), (5, Fraction(1, 6), Fraction(1, 6))], 5, Fraction(0, 1))
    """
    order = Order(force=force, flair=flair)
    points = exact_points(order.force, order.options)
    rows = []
    left = Fraction(1)
    for p in range(points.last + 1):
        chance = points.probability(p)
        if chance:
            rows.append((p, chance, left))
        left -= chance
    return rows, points.last, points.rest


def _csv(header: list[str], rows: list[list[object]]) -> None:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    with printing():
        typer.echo(out.getvalue(), nl=False)


_FOLDED = 12  # the least room a column of long fractions takes, folding them over lines


def _fitted(title: str, headers: list[str], rows: list[list[str]], width: int, caption: str | None = None) -> Table:
    """A table of ``rows`` under ``headers``, or, where it would not fit in ``width`` columns and rich
    would cut its figures short ("0.44…"), each row on lines of its own, every figure named and whole.
    A fraction (a cell with "/") may fold over lines of its cell, as a decimal may not."""
    widths = []
    for i, header in enumerate(headers):
        cells = [row[i] for row in rows]
        longest = max([len(max(header.split(), key=len)) if header.strip() else 0, *map(len, cells)])
        if any("/" in cell for cell in cells):
            longest = min(longest, max([_FOLDED, *(len(c) for c in cells if "/" not in c)]))
        widths.append(longest)
    if sum(widths) + 3 * len(widths) + 1 <= width:
        table = Table(title=title, caption=caption, caption_justify="left", min_width=min(len(title), width))
        for i, header in enumerate(headers):
            table.add_column(header, justify="left" if i == 0 and not rows[0][0][:1].isdigit() else "right",
                             overflow="fold")
        for row in rows:
            table.add_row(*row)
        return table
    listing = Table(title=title, caption=caption, caption_justify="left", box=None, show_header=False,
                    padding=(0, 0))
    listing.add_column(overflow="fold")
    for row in rows:
        first, *rest = row
        named = [f"{header.strip() or '?'} {value}" for header, value in zip(headers[1:], rest, strict=True)]
        lead = f"{headers[0]} {first}" if headers[0].strip() else first
        listing.add_row(Phrases([f"{lead}:", *(f"{n}," for n in named[:-1]), named[-1]], indent=2))
    return listing


def _name(order: Order) -> str:
    return f"{order.force} FORCE + {order.flair} FLAIR"


def _moments(order: Order) -> list[tuple[str, Fraction, str]]:
    odds = order_odds(order.force, order.flair)
    mean, variance = odds.expected_points_exact, odds.variance_exact
    return [("mean", mean, decimal(mean, 4)), ("variance", variance, decimal(variance, 4)),
            ("standard deviation", variance, f"{math.sqrt(variance):.4f}")]


def print_distribution(order: Order, *, as_csv: bool, as_json: bool, exact: bool) -> None:
    """Every total of one order with its chance and the chance of at least as many, exactly."""
    rows, last, rest = at_least_rows(order.force, order.flair)
    if as_csv:
        _csv(["points", "probability_exact", "probability", "at_least_exact", "at_least"],
             [[p, fraction_cell(chance), csv_decimal(chance), fraction_cell(up), csv_decimal(up)] for p, chance, up in rows]
             + ([[f">{last}", fraction_cell(rest), csv_decimal(rest), fraction_cell(rest), csv_decimal(rest)]]
                if rest else []))
        return
    if as_json:
        odds = order_odds(order.force, order.flair)
        data: dict[str, Any] = odds.to_dict(exact=exact)
        data["standard_deviation"] = math.sqrt(odds.variance_exact)
        data["at_least"] = [[p, float(up)] for p, _, up in rows]
        data["at_least_exact"] = [[p, str(up)] for p, _, up in rows]
        with printing():
            typer.echo(json.dumps(data))
        return
    console = ResultsConsole()
    figures = _fitted(_name(order), ["figure", "exact", "decimal"],
                      [[name, f"sqrt({value})" if name == "standard deviation" else str(value), text]
                       for name, value, text in _moments(order)], console.width)
    listed = [[str(p), str(chance), decimal(chance), str(up), decimal(up)] for p, chance, up in rows]
    if rest:
        listed.append([f">{last}", str(rest), decimal(rest), str(rest), decimal(rest)])
    table = _fitted("every total: P(exactly) and P(at least)", ["points", "P(points)", "≈", "P(at least)", "≈"],
                    listed, console.width)
    with printing():
        console.print(figures)
        console.print(table)


def print_per_point(*, as_csv: bool, as_json: bool) -> None:
    """The mean and variance of a point spent on FORCE and on FLAIR, exactly."""
    parts = per_point()
    if as_json:
        with printing():
            typer.echo(json.dumps({"parts": [part.to_dict() for part in parts]}))
        return
    header = ["part", "cost", "mean", "variance", "p_zero", "mean_per_point", "variance_per_point"]
    if as_csv:
        # The fractions keep the names 0.1.0 gave them; each has its decimal at the end of the row.
        _csv(header + [f"{key}_decimal" for key in header[2:]],
             [[part.part, part.cost, *(fraction_cell(getattr(part, key)) for key in header[2:]),
               *(csv_decimal(getattr(part, key)) for key in header[2:])] for part in parts])
        return
    force, flair = parts
    rows = [["one unit", "1 die, 1 point", f"1 option, {flair.cost} points"]]
    for name, key in (("mean of a unit", "mean"), ("variance of a unit", "variance"), ("P(unit scores 0)", "p_zero"),
                      ("mean per point", "mean_per_point"), ("variance per point", "variance_per_point")):
        rows.append([name, *(f"{getattr(part, key)} ≈ {decimal(getattr(part, key), 4)}" for part in (force, flair))])
    console = ResultsConsole()
    table = _fitted("What one SCRUM point buys", [" ", "FORCE", "FLAIR"], rows, console.width)
    with printing():
        console.print(table)
        # Wrapped to the terminal as the tables are (typer.echo ran past 80 columns).
        console.print("An order's mean (and variance) is its FORCE points times FORCE's per point plus its FLAIR "
                      "points times FLAIR's.")


def exact_or_fail(a: Order, b: Order, typed: str) -> ExactMatch:
    try:
        return exact_match(a, b)
    except ValueError as exc:
        fail(f"{exc} ({typed})")


def knockout_or_fail(a: Order, b: Order, typed: str) -> ExactKnockout:
    # Two FLAIR sides never come here (the command gives their decimals), and since the limit is
    # every pair of orders R3 allows, the library's own refusal is all that is left to pass on.
    try:
        return exact_knockout(a, b)
    except ValueError as exc:
        fail(f"{exc} ({typed})")


def _knockout_rows(result: ExactKnockout) -> list[tuple[str, Fraction]]:
    """Win, level and loss, each of win and loss then split by the step of count-back that decided it
    (steps that never decide this match left out)."""
    rows: list[tuple[str, Fraction]] = [("win", result.win)]
    rows += [(f"  win on {step}", p) for step, p in zip(STEPS, result.win_by, strict=True) if p]
    rows.append(("level", result.level))
    rows.append(("loss", result.loss))
    rows += [(f"  loss on {step}", p) for step, p in zip(STEPS, result.loss_by, strict=True) if p]
    return rows


def knockout_csv(result: ExactKnockout) -> None:
    """A knockout match's chances as CSV rows, exactly and to six decimals; each step of count-back
    has a row, 0 or not, so that a spreadsheet finds the same rows for every match."""
    rows: list[tuple[str, Fraction]] = [("win", result.win), ("level", result.level), ("loss", result.loss)]
    rows += [(f"win on {step}", p) for step, p in zip(STEPS, result.win_by, strict=True)]
    rows += [(f"loss on {step}", p) for step, p in zip(STEPS, result.loss_by, strict=True)]
    _csv(["outcome", "probability_exact", "probability"], [[k, fraction_cell(v), csv_decimal(v)] for k, v in rows])


def knockout_decimals_csv(win: float, level: float, loss: float) -> None:
    """The CSV of a knockout match with no fractions to give (two FLAIR sides): the same columns as
    :func:`knockout_csv`, ``probability_exact`` left empty, and no rows for count-back's steps."""
    _csv(["outcome", "probability_exact", "probability"],
         [[k, "", csv_decimal(Fraction(v))] for k, v in (("win", win), ("level", level), ("loss", loss))])


def knockout_table(a: Order, b: Order, result: ExactKnockout, width: int) -> Table:
    return _fitted(f"{_name(a)} v {_name(b)}: knockout, after count-back (R9), exactly",
                   ["outcome", "probability", "≈"],
                   [[key, str(value), decimal(value)] for key, value in _knockout_rows(result)], width)


def match_csv(result: ExactMatch) -> None:
    """A group match's win, draw and loss as CSV rows, exactly and to six decimals."""
    chances = {"win": result.win, "draw": result.draw, "loss": result.loss}
    _csv(["outcome", "probability_exact", "probability"],
         [[k, fraction_cell(v), csv_decimal(v)] for k, v in chances.items()])


def fractions_table(a: Order, b: Order, result: ExactMatch, width: int) -> Table:
    return _fitted(f"{_name(a)} v {_name(b)}: group, exactly", ["outcome", "probability", "≈"],
                   [[key, str(value), decimal(value)] for key, value in
                    (("win", result.win), ("draw", result.draw), ("loss", result.loss))], width)


# A run shorter than this shows no note: it would only flicker.
PROGRESS_AFTER = 0.5


@contextlib.contextmanager
def _progress(what: str, count: int) -> Iterator[Callable[[int], None]]:
    """A callback for each piece of work done that keeps one line on stderr, ``what: 12 of 54 done``,
    once the work has taken :data:`PROGRESS_AFTER` seconds, and wipes it at the end. Only on a
    terminal: a stderr sent to a file or a pipe gets nothing, and stdout never does."""
    stream = sys.stderr
    shown = False
    start = time.monotonic()
    live = stream.isatty()

    def done(finished: int) -> None:
        nonlocal shown
        if live and time.monotonic() - start >= PROGRESS_AFTER:
            with contextlib.suppress(OSError):  # only a note: a closed terminal must not end the work
                stream.write(f"\r{what}: {finished} of {count} done")
                stream.flush()
                shown = True

    try:
        yield done
    finally:
        if shown:
            with contextlib.suppress(OSError):
                stream.write("\r\x1b[K")  # the line wiped, so the table starts on a clean one
                stream.flush()


def print_every_split(total: int, vs: Order, *, as_csv: bool, as_json: bool) -> None:
    """Win, draw and loss of every split of ``total`` against ``vs``, FLAIR 0, 3, 6, ... in turn."""
    try:
        orders = splits(total)
    except OrderError as exc:
        fail(f"{exc} (--every-split {total})")
    with _progress(f"working out every split of {total} against {_name(vs)}", len(orders)) as done:
        results = exact_matches(orders, vs, done)
    rows = [(order, result, order_odds(order.force, order.flair).expected_points_exact)
            for order, result in zip(orders, results, strict=True)]
    if as_json:
        data = {"rules": "group", "vs": {"force": vs.force, "flair": vs.flair}, "splits": [
            # Every column of the CSV and the table under the same name, the ranking figure too.
            {"force": o.force, "flair": o.flair, **{k: float(getattr(r, k)) for k in ("win", "draw", "loss")},
             **{f"{k}_exact": str(getattr(r, k)) for k in ("win", "draw", "loss")},
             "win_plus_half_draw": float(r.win + r.draw / 2), "win_plus_half_draw_exact": str(r.win + r.draw / 2),
             "expected_points": float(m), "expected_points_exact": str(m)} for o, r, m in rows]}
        with printing():
            typer.echo(json.dumps(data))
        return
    if as_csv:
        # expected_points and win_plus_half_draw_exact came later: at the end, where no script counted on a column.
        _csv(["force", "flair", "win_exact", "draw_exact", "loss_exact", "win", "draw", "loss", "win_plus_half_draw",
              "expected_points_exact", "expected_points", "win_plus_half_draw_exact"],
             [[o.force, o.flair, *(fraction_cell(x) for x in (r.win, r.draw, r.loss)), csv_decimal(r.win),
               csv_decimal(r.draw), csv_decimal(r.loss), csv_decimal(r.win + r.draw / 2), fraction_cell(m),
               csv_decimal(m), fraction_cell(r.win + r.draw / 2)] for o, r, m in rows])
        return
    console = ResultsConsole()
    table = _fitted(f"Every split of {total} v {_name(vs)}, group rules, FLAIR rising",
                    ["FORCE", "FLAIR", "expected points", "win", "draw", "loss", "win + draw/2"],
                    [[str(o.force), str(o.flair), str(m), decimal(r.win), decimal(r.draw), decimal(r.loss),
                      decimal(r.win + r.draw / 2)] for o, r, m in rows], console.width,
                    caption="exact, rounded to six decimals; --csv or --json for the fractions")
    with printing():
        console.print(table)
