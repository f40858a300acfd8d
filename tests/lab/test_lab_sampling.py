"""Both line samplers against the exact distributions of sevens.odds (R1, R2)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2

from sevens.lab.sampling import TableSampler, sample_lines
from sevens.odds import joint_lines, order_points

ORDERS = [(0, 1), (5, 0), (12, 4), (0, 12), (40, 0), (1, 20)]
N = 40_000


def _draw(kind: str, force: int, options: int, rng: np.random.Generator):
    f = np.full(N, force)
    k = np.full(N, options)
    return TableSampler().sample(rng, f, k) if kind == "tables" else sample_lines(rng, f, k)


def _points_p_value(points: np.ndarray, pmf: np.ndarray) -> float:
    counts = np.bincount(points, minlength=len(pmf))
    assert len(counts) == len(pmf) or counts[len(pmf):].sum() == 0
    counts = counts[: len(pmf)]
    expected = pmf * N
    big = expected >= 5
    observed = np.append(counts[big], counts[~big].sum())
    wanted = np.append(expected[big], expected[~big].sum())
    keep = wanted > 0
    stat = (((observed - wanted) ** 2)[keep] / wanted[keep]).sum()
    return float(chi2.sf(stat, keep.sum() - 1))


@pytest.mark.parametrize("kind", ["tables", "direct"])
@pytest.mark.parametrize(("force", "options"), ORDERS)
def test_points_follow_the_exact_distribution(kind: str, force: int, options: int) -> None:
    """R1, R2: the points of sampled lines follow sevens.odds' exact points distribution."""
    lines = _draw(kind, force, options, np.random.default_rng(force * 100 + options))
    pmf, _ = order_points(force, options)
    assert _points_p_value(lines.points, pmf) > 1e-4


@pytest.mark.parametrize("kind", ["tables", "direct"])
def test_mean_line_matches_the_exact_joint_distribution(kind: str) -> None:
    """R1: mean tries, conversions, penalties and drop goals match the exact joint distribution."""
    force, options = 9, 7
    lines = _draw(kind, force, options, np.random.default_rng(7))
    joint = joint_lines(force, options).array  # [tries, conversions, penalties, drop goals]
    for axis, sampled in enumerate((lines.tries, lines.conversions, lines.penalties, lines.drop_goals)):
        marginal = joint.sum(axis=tuple(a for a in range(4) if a != axis))
        values = np.arange(len(marginal))
        mean = float(values @ marginal)
        sd = float(np.sqrt(((values - mean) ** 2) @ marginal))
        assert abs(sampled.mean() - mean) < 4.5 * sd / np.sqrt(N)


def test_no_order_scores_nothing_but_zero() -> None:
    """An empty order (0, 0) scores nothing; conversions never exceed tries (R1)."""
    rng = np.random.default_rng(3)
    for sampler in (TableSampler().sample, sample_lines):
        lines = sampler(rng, np.array([0, 0, 30, 0]), np.array([0, 0, 0, 30]))
        assert lines.points[:2].tolist() == [0, 0]
        assert (lines.conversions <= lines.tries).all()
        assert (lines.penalties[3] == 0) and (lines.conversions[2] == 0)


def test_table_sampler_refuses_impossible_orders() -> None:
    """R3: no order has more than 160 FORCE dice."""
    with pytest.raises(ValueError, match="R3"):
        TableSampler().sample(np.random.default_rng(0), np.array([161]), np.array([0]))


def test_compact_cells_hold_the_largest_orders_exactly() -> None:
    """R3's largest orders (160 FORCE dice, 53 FLAIR options) fit the compiled loop's 8-bit counts,
    and every compact cell unpacks to its table line and its alias's line."""
    from sevens.lab.sampling import FLAIR_BASE

    sampler = TableSampler()
    sampler.ensure(np.array([160, FLAIR_BASE + 53, 7, FLAIR_BASE + 2]))
    index, cells, coins = sampler.arrays()
    own, alias = cells[:, 1] & 0xFFFFFFFF, cells[:, 1] >> 32
    for part in range(4):
        wide = (sampler._packed >> (16 * part)) & 0xFFFF
        assert np.array_equal((own >> (8 * part)) & 0xFF, wide)
        assert np.array_equal((alias >> (8 * part)) & 0xFF, wide[sampler._alias])
        assert int(wide.max()) < 128
    assert np.array_equal(coins[:, 0], sampler._prob)
    assert index[160, 0] > 0 and index[FLAIR_BASE + 53, 0] > 0 and index[100, 0] == 0
