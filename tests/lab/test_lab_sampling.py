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


def _law_of_cells(index: np.ndarray, split: np.ndarray, coins: np.ndarray, cells: np.ndarray, tid: int) -> dict[int, float]:
    """The law the compiled loop draws from table ``tid``: each cell of the head (or the tail) is
    picked with equal chance, then its own line with its coin's chance, else its alias's."""
    law: dict[int, float] = {}
    tail = float(split[tid, 0])
    for count, first, weight in ((index[tid, 0], index[tid, 1], 1.0 - tail), (index[tid, 2], index[tid, 3], tail)):
        for j in range(first, first + count):
            coin = float(coins[j, 0])
            own, alias = int(cells[j, 1] & 0xFFFFFFFF), int(cells[j, 1] >> 32)
            law[own] = law.get(own, 0.0) + weight * coin / count
            law[alias] = law.get(alias, 0.0) + weight * (1.0 - coin) / count
    return law


def test_compiled_cells_draw_each_table_law_exactly() -> None:
    """Head and tail alias tables together give every line of a table its probability (to rounding),
    the head holds at least 1 - 2**-10 of it, and R3's largest orders (160 FORCE dice, 53 FLAIR
    options) fit the compiled loop's 8-bit counts."""
    from sevens.lab.sampling import FLAIR_BASE

    ids = [0, 7, 30, 100, 160, FLAIR_BASE, FLAIR_BASE + 2, FLAIR_BASE + 10, FLAIR_BASE + 53]
    sampler = TableSampler()
    sampler.ensure(np.array(ids))
    index, split, cells, coins = sampler.arrays()
    for tid in ids:
        table = sampler._tables[tid]
        # The table's own law, from the numpy path's alias table (cells picked equally often).
        expected: dict[int, float] = {}
        for j in range(len(table.prob)):
            for line, p in ((table.packed[j], table.prob[j]), (table.packed[table.alias[j]], 1.0 - table.prob[j])):
                narrow = sum(((int(line) >> (16 * c)) & 0xFFFF) << (8 * c) for c in range(4))
                expected[narrow] = expected.get(narrow, 0.0) + p / len(table.prob)
        got = _law_of_cells(index, split, coins, cells, tid)
        assert set(got) <= set(expected)
        assert max(abs(got.get(k, 0.0) - v) for k, v in expected.items()) < 1e-12, tid
        assert split[tid, 0] <= 2.0**-10
        if len(table.prob) > 64:
            assert index[tid, 2] > 0 and index[tid, 0] < len(table.prob)
    assert index[50, 0] == 0  # not built
    for part in range(4):
        assert int(((cells[:, 1] >> (8 * part)) & 0xFF).max()) < 128
