"""Plots of lab results (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path

from sevens.lab.run import LabResult

__all__ = ["plot_ranking", "plot_solver_map"]


def plot_ranking(result: LabResult, path: Path | str) -> Path:
    """Draw the strategies' title rates with 95% intervals, best at the top; PNG or SVG by suffix.

    Args:
        result: a lab run.
        path: the file to write (``.png`` or ``.svg``).

    Returns:
        The path written.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(reversed(result.rows))
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(rows) + 1.5))
    names = [row.name for row in rows]
    rates = [100 * row.title_rate for row in rows]
    errors = [100 * row.title_ci for row in rows]
    ax.barh(names, rates, xerr=errors, color="#2a7f62", ecolor="#333333", capsize=3)
    ax.axvline(100 / result.teams, color="#aa3333", linestyle="--", linewidth=1, label="neutral (1 / teams)")
    ax.set_xlabel("titles per team entered (%), 95% interval")
    ax.set_title(f"{result.totals.tournaments} tournaments of {result.teams} teams (seed {result.seed})")
    ax.legend(loc="lower right")
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out


def plot_solver_map(path: Path | str, budgets: range, *, knockout: bool = False) -> Path:
    """Map side A's optimal expected FLAIR share for every pair of match budgets (the solver).

    Args:
        path: the file to write (``.png`` or ``.svg``).
        budgets: the budgets on both axes, e.g. ``range(3, 61, 3)``.
        knockout: count-back rules (R9) instead of group rules.

    Returns:
        The path written.
    """
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
    fig.savefig(out)
    plt.close(fig)
    return out
