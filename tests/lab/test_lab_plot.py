"""The ranking plot stays readable with many strategies and with long names of one's own."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import numpy as np

from sevens.lab.plot import ranking_figure
from sevens.lab.run import LabResult, Totals

LONG = [
    "research.pacing.variants:SaveForTheKnockoutsWhenTheFieldFrontLoads",
    "research.pacing.variants:SaveForTheKnockoutsWhenTheFieldSavesToo",
]
NAMES = ["even", "group-blitz", "knockout-saver", "random", "odds-aware", "equilibrium", "even-flair", *LONG]


def _result() -> LabResult:
    entries = np.full(len(NAMES), 16_000, dtype=np.int64)
    titles = np.array([800, 50, 400, 10, 1500, 1480, 1470, 1460, 1430], dtype=np.int64)
    zeros = np.zeros(len(NAMES), dtype=np.int64)
    totals = Totals(9_000, entries, titles, 2 * titles, zeros, zeros, zeros, zeros)
    return LabResult(tuple(NAMES), 16, 1, totals)


def test_nine_strategies_with_long_names_all_fit_whole_and_apart() -> None:
    """A name of 65 characters used to squeeze the bars into a sliver and push the title off the
    picture; now every name is there whole, on lines of its own, inside the figure, none on
    another, and the bars keep most of the width."""
    import matplotlib.pyplot as plt

    fig = ranking_figure(_result())
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
        width, height = fig.bbox.width, fig.bbox.height
        ax = fig.axes[0]
        labels = ax.get_yticklabels()
        assert sorted(label.get_text().replace("\n", "") for label in labels) == sorted(NAMES)
        boxes = [label.get_window_extent(renderer) for label in labels]
        title = ax.title.get_window_extent(renderer)
        neutral = ax.texts[0].get_window_extent(renderer)
        for box in [*boxes, title, neutral]:
            assert box.x0 >= 0 and box.x1 <= width and box.y0 >= 0 and box.y1 <= height, box
        for one, other in pairwise(boxes):
            assert not one.overlaps(other)
        assert not title.overlaps(neutral)
        assert ax.get_position().width > 0.5
    finally:
        plt.close(fig)


def test_the_same_result_plots_to_the_same_bytes(tmp_path: Path) -> None:
    """An SVG held the time it was written and random ids: two runs with the same seed (here, or
    one on a Dask cluster) gave files that differed. PNG and SVG, twice each, ranking and weights."""
    from sevens.lab.plot import plot_ranking, plot_weights

    weights = LabResult(("even@0.5", "even", "even@2"), 16, 1, Totals(3, *(np.arange(1, 4, dtype=np.int64),) * 7))
    for suffix in ("png", "svg"):
        for draw, result in ((plot_ranking, _result()), (plot_weights, weights)):
            first, second = tmp_path / f"1.{suffix}", tmp_path / f"2.{suffix}"
            draw(result, first)
            draw(result, second)
            assert first.read_bytes() == second.read_bytes(), (suffix, draw.__name__)


def test_a_weight_of_0_is_placed_apart_from_the_others_and_they_from_each_other() -> None:
    """A log scale has no place for 0: even-flair@0 was drawn at the far left and 0.5 and 1000 on top
    of each other at the right, their tick labels one blot."""
    import matplotlib.pyplot as plt

    from sevens.lab.plot import weights_figure

    names = ("even-flair@0", "even-flair@0.5", "even-flair@1000")
    result = LabResult(names, 8, 1, Totals(3, *(np.arange(1, 4, dtype=np.int64),) * 7))
    fig = weights_figure(result)
    try:
        fig.canvas.draw()
        ax = fig.axes[0]
        line = ax.get_lines()[0]
        points = np.column_stack([np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)])
        xs = ax.transData.transform(points)[:, 0]
        box = ax.get_window_extent()
        assert np.all(np.isfinite(xs)), xs
        assert np.all((xs >= box.x0) & (xs <= box.x1)), (xs, box)
        assert np.all(np.diff(xs) >= 0.05 * box.width), xs
    finally:
        plt.close(fig)
