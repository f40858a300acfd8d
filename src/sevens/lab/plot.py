"""Plots of lab results (matplotlib, no display needed; the extra sevens[plot] installs it)."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from sevens.extras import require
from sevens.lab.registry import WEIGHTED_TYPES, resolve
from sevens.lab.run import LabResult, StrategyRow, counted
from sevens.lab.smart import FieldReaderPacing

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "LABEL_WIDTH",
    "knockout_weights",
    "label_lines",
    "plot_ranking",
    "plot_result",
    "plot_solver_map",
    "plot_weights",
    "ranking_figure",
    "weights_figure",
]


def knockout_weights(result: LabResult) -> dict[str, Fraction] | None:
    """Each strategy's knockout weight if the run compares one built-in strategy at three or more
    weights (``even-flair@0.5``, ``even-flair``, ``even-flair@2``, ...), else None.

    >>> from sevens.lab.run import Totals
    >>> knockout_weights(LabResult(("even@0.5", "even", "even@2"), 16, 0, Totals.zero(3)))
    {'even@0.5': Fraction(1, 2), 'even': Fraction(1, 1), 'even@2': Fraction(2, 1)}
    >>> knockout_weights(LabResult(("even@0.5", "even-flair", "even@2"), 16, 0, Totals.zero(3))) is None
    True
    """
    made = [resolve(name) for name in result.strategies]
    weighted = [m for m in made if isinstance(m, WEIGHTED_TYPES)]
    if len(made) < 3 or len(weighted) < len(made):
        return None
    # One base: the strategies differ in nothing but their names and weights.
    if len({replace(m, name="", knockout_weight=Fraction(1)) for m in weighted}) > 1:
        return None
    return {name: m.knockout_weight for name, m in zip(result.strategies, weighted, strict=True)}


def plot_result(result: LabResult, path: Path | str) -> Path:
    """:func:`plot_weights` if the run compares one strategy at several knockout weights, else
    :func:`plot_ranking`."""
    return plot_ranking(result, path) if knockout_weights(result) is None else plot_weights(result, path)


def plot_ranking(result: LabResult, path: Path | str) -> Path:
    """Draw the strategies' title rates with 95% intervals, best at the top; PNG or SVG by suffix.

    Args:
        result: a lab run.
        path: the file to write (``.png`` or ``.svg``).

    Returns:
        The path written.
    """
    require("plot", "sevens.lab.plot.plot_ranking")
    import matplotlib.pyplot as plt

    fig = ranking_figure(result)
    out = Path(path)
    _save(fig, out)
    plt.close(fig)
    return out


def _save(fig: Figure, out: Path) -> None:
    """Write the figure, PNG or SVG by the suffix, the same bytes for the same figure: an SVG would
    hold the time it was written and random ids, so that two runs with the same seed (on this
    machine or a Dask cluster) gave files that differed."""
    import matplotlib

    if out.suffix.lower() != ".svg":
        fig.savefig(out)
        return
    with matplotlib.rc_context({"svg.hashsalt": "sevens"}):
        fig.savefig(out, metadata={"Date": None})


LABEL_WIDTH = 30
"""The most characters on one line of a strategy's name in a plot: a longer name (a module path)
goes on several lines rather than squeezing the bars or running off the picture."""


def label_lines(name: str, width: int = LABEL_WIDTH) -> str:
    """A strategy's name on lines of at most ``width`` characters, broken after ``:``, ``.``,
    ``-``, ``_`` or ``@`` where it can be, anywhere where it cannot.

    >>> label_lines("even-flair@1.5")
    'even-flair@1.5'
    >>> print(label_lines("research.pacing.variants:SaveForTheKnockoutsAlways", 20))
    research.pacing.
    variants:
    SaveForTheKnockoutsA
    lways
    """
    pieces = re.findall(r"[^:.\-_@]*[:.\-_@]?", name)
    lines = [""]
    for piece in (p for p in pieces if p):
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines.append("")
        lines[-1] += piece
        while len(lines[-1]) > width:
            lines[-1:] = [lines[-1][:width], lines[-1][width:]]
    return "\n".join(lines)


def ranking_figure(result: LabResult) -> Figure:
    """The figure :func:`plot_ranking` writes, for a caller that wants to change it first."""
    require("plot", "sevens.lab.plot.ranking_figure")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(reversed(result.rows))
    names = [label_lines(row.name) for row in rows]
    # Every bar gets the room of the longest name, so that no name runs into the next one's.
    lines = max(name.count("\n") + 1 for name in names)
    fig, ax = plt.subplots(figsize=(7, len(rows) * (0.2 + 0.24 * lines) + 1.5))
    rates = [100 * row.title_rate for row in rows]
    ax.barh(names, rates, xerr=_bars(rows), color="#2a7f62", ecolor="#333333", capsize=3)
    for name, row, rate in zip(names, rows, rates, strict=True):
        if row.exact:  # no interval to draw: said in words, as the table says it
            ax.annotate("exact", xy=(rate, name), xytext=(3, 0), textcoords="offset points", va="center",
                        fontsize=8, color="#333333")
    ax.axvline(100 / result.teams, color="#aa3333", linestyle="--", linewidth=1)
    # Named above the plot rather than in a legend, which would cover a bar when there are few.
    # Just above the axes by a fixed distance (a fraction of the axes ran into the title on a tall plot).
    ax.annotate("neutral (1 / teams)", xy=(100 / result.teams, 1), xycoords=("data", "axes fraction"), xytext=(0, 2),
                textcoords="offset points", ha="center", va="bottom", color="#aa3333", fontsize=8)
    ax.set_xlabel("titles per team entered (%), 95% interval")
    against = "" if result.field is None else f"\none team at a time against {result.field}"  # own line: fits
    ax.set_title(f"{counted(result.totals.tournaments)} of {result.teams} teams (seed {result.seed}){against}",
                 fontsize=10, pad=16)
    fig.tight_layout()
    return fig


def _bars(rows: list[StrategyRow]) -> list[list[float]]:
    """Error bars (below, above) in percent for the title rates: their 95% Wilson intervals, and
    none (NaN, which matplotlib leaves out) for an exact rate, where a cap of width 0 looked like
    an interval too narrow to see.

    >>> _bars([StrategyRow("even", 16, 0.0625, 0.0111, 0.2833, 0, 0, 0, 0, 0, 0, 0)])
    [[5.14], [22.08]]
    >>> _bars([StrategyRow("even", 16, 0.125, 0.125, 0.125, 0, 0, 0, 0, 0, 0, 0, exact=True)])
    [[nan], [nan]]
    """
    below = [math.nan if r.exact else round(100 * (r.title_rate - r.title_low), 10) for r in rows]
    above = [math.nan if r.exact else round(100 * (r.title_high - r.title_rate), 10) for r in rows]
    return [below, above]


def plot_weights(result: LabResult, path: Path | str) -> Path:
    """Draw title rates, with 95% intervals, against the knockout weight of one strategy
    (:func:`knockout_weights`); a field's rate and the neutral rate as lines. PNG or SVG by suffix.

    Raises:
        ValueError: the run does not compare one strategy at several knockout weights.
    """
    require("plot", "sevens.lab.plot.plot_weights")
    import matplotlib.pyplot as plt

    fig = weights_figure(result)
    out = Path(path)
    _save(fig, out)
    plt.close(fig)
    return out


def weights_figure(result: LabResult) -> Figure:
    """The figure :func:`plot_weights` writes, for a caller that wants to change it first.

    Raises:
        ValueError: the run does not compare one strategy at several knockout weights.
    """
    weights = knockout_weights(result)
    if weights is None:
        raise ValueError("plot_weights needs one strategy at three or more knockout weights (even@0.5, even, even@2)")
    require("plot", "sevens.lab.plot.weights_figure")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = {row.name: row for row in result.rows}
    points = sorted((float(weights[name]), rows[name]) for name in weights)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.errorbar([k for k, _ in points], [100 * r.title_rate for _, r in points],
                yerr=_bars([r for _, r in points]), color="#2a7f62", ecolor="#333333",
                capsize=3, marker="o", label="one team at this weight")
    if result.field_label is not None:
        field = rows[result.field_label]
        ax.axhline(100 * field.title_rate, color="#3366aa", linewidth=1, label=f"the field ({result.field})")
    ax.axhline(100 / result.teams, color="#aa3333", linestyle="--", linewidth=1, label="neutral (1 / teams)")
    positive = [k for k, _ in points if k > 0]
    if len(positive) < len(points):
        # A log scale has no place for a weight of 0: it was drawn at the far left, and every other
        # weight squeezed together at the right. Linear from 0 to the least weight above it.
        least = min(positive, default=1.0)
        ax.set_xscale("symlog", base=2, linthresh=least)
        ax.set_xlim(left=-0.3 * least)  # no room for weights below 0, which there are none of
    else:
        ax.set_xscale("log", base=2)
    ax.set_xticks([k for k, _ in points], [f"{k:g}" for k, _ in points])
    if isinstance(resolve(result.strategies[0]), FieldReaderPacing):  # its weight is where it leans
        ax.set_xlabel("knockout weight K field-reader leans toward (a quarter of the way from the field's)")
    else:
        ax.set_xlabel("knockout weight K (1 = even pacing; below 1 spends more in the groups)")
    ax.set_ylabel("titles per team entered (%)")
    against = "" if result.field is None else f"\none team at a time against {result.field}"  # own line: fits
    ax.set_title(f"{counted(result.totals.tournaments)} of {result.teams} teams{against}", fontsize=10)
    ax.legend(loc="best")  # "lower center" covered a point at a low rate there
    fig.tight_layout()
    return fig


def plot_solver_map(path: Path | str, budgets: range, *, knockout: bool = False) -> Path:
    """Map side A's optimal expected FLAIR share for every pair of match budgets (the solver).

    Args:
        path: the file to write (``.png`` or ``.svg``).
        budgets: the budgets on both axes, e.g. ``range(3, 61, 3)``.
        knockout: count-back rules (R9) instead of group rules.

    Returns:
        The path written.
    """
    require("plot", "sevens.lab.plot.plot_solver_map")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from sevens.odds.solver import solve_match

    share = np.array([[solve_match(a, b, knockout=knockout).mix_a.mean_flair_share for b in budgets] for a in budgets])
    fig, ax = plt.subplots(figsize=(6.5, 5.5))
    image = ax.imshow(share, origin="lower", cmap="viridis", vmin=0, vmax=1, aspect="auto",
                      extent=(budgets[0] - budgets.step / 2, budgets[-1] + budgets.step / 2,
                              budgets[0] - budgets.step / 2, budgets[-1] + budgets.step / 2))
    fig.colorbar(image, ax=ax, label="A's optimal share of FLAIR (0 = all FORCE, 1 = all FLAIR)")
    ax.set_xlabel("B's budget (SCRUM spent on the match)")
    ax.set_ylabel("A's budget")
    ax.set_title(f"Match solver, {'knockout' if knockout else 'group'} rules")
    fig.tight_layout()
    out = Path(path)
    _save(fig, out)
    plt.close(fig)
    return out
