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


@pytest.mark.parametrize(
    ("low", "width", "total"),
    [(0.4, 0.2, 17), (0.5, 0.2, 40), (0.4, 0.2, 3), (0.0, 1.0, 29), (1.0, 0.0, 11), (0.0, 0.0, 8), (0.5, 0.0, 9)],
)
def test_option_weights_are_split_orders_over_the_share(low: float, width: float, total: int) -> None:
    """R3: the FLAIR options of an order whose share is uniform on [low, low + width], as
    split_orders rounds them, counted on a fine grid of shares."""
    from sevens.lab.sampling import option_weights
    from sevens.lab.strategies import split_orders

    n = 200_000
    shares = low + width * (np.arange(n) + 0.5) / n
    _, flair = split_orders(np.full(n, total), shares, np.full(n, 160))
    options, counts = np.unique(flair // 3, return_counts=True)
    weights = option_weights(low, width, total)
    assert sorted(weights) == options.tolist()
    for k, c in zip(options.tolist(), counts.tolist(), strict=True):
        assert abs(weights[k] - c / n) < 1e-4
    assert abs(sum(weights.values()) - 1.0) < 1e-12


@pytest.mark.parametrize(("low", "width", "total"), [(0.4, 0.2, 17), (0.0, 1.0, 12), (1.0, 0.0, 9), (0.5, 0.2, 0)])
def test_joint_tables_mix_the_force_and_flair_tables(low: float, width: float, total: int) -> None:
    """R1, R2: a joint table's law is the FORCE and FLAIR lines of each split added, mixed by the
    chance of each split; here built from the two parts' own tables, line by line."""
    from sevens.lab.sampling import FLAIR_BASE, option_weights

    sampler = TableSampler()
    joint = int(sampler.joint_ids(low, width)[total])
    weights = option_weights(low, width, total)
    parts = [total - 3 * k for k in weights] + [FLAIR_BASE + k for k in weights]
    sampler.ensure(np.array([joint, *parts]))
    index, split, cells, coins = sampler.arrays()
    expected: dict[int, float] = {}
    for k, w in weights.items():
        force = _law_of_cells(index, split, coins, cells, total - 3 * k)
        flair = _law_of_cells(index, split, coins, cells, FLAIR_BASE + k)
        for a, pa in force.items():
            for b, pb in flair.items():
                expected[a + b] = expected.get(a + b, 0.0) + w * pa * pb
    got = _law_of_cells(index, split, coins, cells, joint)
    # Each table may drop up to 1e-13 in its far tail, so lines that light may be missing.
    assert max(abs(got.get(k, 0.0) - v) for k, v in expected.items()) < 1e-11
    assert sum(v for k, v in got.items() if k not in expected) < 1e-11
