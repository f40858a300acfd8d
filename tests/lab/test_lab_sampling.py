"""Both line samplers against the exact distributions of sevens.odds (R1, R2)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2

from sevens.lab.sampling import TAIL, TableSampler, sample_lines, table_word
from sevens.odds import joint_array, order_points

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
    joint = joint_array(force, options)  # [tries, conversions, penalties, drop goals]
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


def _unpack_word(word: int) -> tuple[int, int, int]:
    return word & 0xFFFFFF, (word >> 24) & 0x3F, word >> 32


def _lines_of(cells: np.ndarray, word: int) -> set[int]:
    count, _, first = _unpack_word(word)
    return {int(cells[j, 1]) & 0xFFFFFFFF for j in range(first, first + count)}


def _law_of_cells(index: np.ndarray, cells: np.ndarray, tid: int) -> dict[int, float]:
    """The law the compiled loop draws from table ``tid``: each cell of the head is picked with
    equal chance, then its own line if the fraction is below its threshold, else its alias's; the
    tail's marker sends the draw to the tail's cells the same way."""
    law: dict[int, float] = {}

    def add(word: int, weight: float) -> None:
        count, _, first = _unpack_word(word)
        for j in range(first, first + count):
            coin = int(cells[j, 0]) / 2.0**64
            for line, p in ((int(cells[j, 1]) & 0xFFFFFFFF, coin), (int(cells[j, 1]) >> 32, 1.0 - coin)):
                if line == TAIL:
                    add(int(index[tid, 1]), weight * p / count)
                elif p > 0.0:
                    law[line] = law.get(line, 0.0) + weight * p / count

    add(int(index[tid, 0]), 1.0)
    return law


def test_compiled_cells_draw_each_table_law_exactly() -> None:
    """Head and tail alias tables together give every line of a table its probability (to rounding),
    the head holds at least 1 - 2**-10 of it, and R3's largest orders (160 FORCE dice, 53 FLAIR
    options) fit the compiled loop's 8-bit counts."""
    from sevens.lab.sampling import FLAIR_BASE

    ids = [0, 7, 30, 100, 160, FLAIR_BASE, FLAIR_BASE + 2, FLAIR_BASE + 10, FLAIR_BASE + 53]
    sampler = TableSampler()
    sampler.ensure(np.array(ids))
    index, cells = sampler.arrays()
    for tid in ids:
        table = sampler._tables[tid]
        # The table's own law, from the numpy path's alias table (cells picked equally often).
        expected: dict[int, float] = {}
        for j in range(len(table.prob)):
            for line, p in ((table.packed[j], table.prob[j]), (table.packed[table.alias[j]], 1.0 - table.prob[j])):
                narrow = sum(((int(line) >> (16 * c)) & 0xFFFF) << (8 * c) for c in range(4))
                expected[narrow] = expected.get(narrow, 0.0) + p / len(table.prob)
        got = _law_of_cells(index, cells, tid)
        assert set(got) <= set(expected)
        assert max(abs(got.get(k, 0.0) - v) for k, v in expected.items()) < 1e-12, tid
        heads, shift, first = _unpack_word(int(index[tid, 0]))
        assert 2 ** (shift - 1) < max(2, heads) <= 2**shift
        markers = [j for j in range(first, first + heads) if int(cells[j, 1]) & 0xFFFFFFFF == TAIL]
        if len(table.prob) > 64:  # a head, its tail's marker, and the tail
            assert len(markers) == 1 and heads - 1 < len(table.prob) and int(index[tid, 1]) > 0
            head = _lines_of(cells, int(index[tid, 0]))
            assert sum(v for k, v in expected.items() if k not in head) <= 2.0**-10
        else:
            assert not markers and int(index[tid, 1]) == 0
    assert int(index[50, 0]) == 0  # not built
    lines = cells[:, 1] & np.uint64(0xFFFFFFFF)
    lines = lines[lines != TAIL]
    for part in range(4):
        assert int(((lines >> np.uint64(8 * part)) & np.uint64(0xFF)).max()) < 128


def test_table_word_packs_cells_shift_and_first_cell() -> None:
    """The loop's index word: the cell count, the fewest bits that cover it (at least 1), the first cell."""
    assert _unpack_word(table_word(1, 0)) == (1, 1, 0)
    assert _unpack_word(table_word(64, 7)) == (64, 6, 7)
    assert _unpack_word(table_word(65, 2**31)) == (65, 7, 2**31)
    with pytest.raises(ValueError, match="does not fit"):
        table_word(1 << 24, 0)


def test_compiled_pick_splits_the_random_word_into_cell_and_coin() -> None:
    """The loop's draw: cell ``((r >> k) * n) >> (64 - k)``, own line if the rest of the product is
    below the cell's threshold, else the alias's (checked against Python's exact integers)."""
    from sevens.lab import kernels

    sampler = TableSampler()
    sampler.ensure(np.array([12, 175]))
    index, cells = sampler.arrays()
    rng = np.random.default_rng(5)
    for tid in (12, 175):
        word = int(index[tid, 0])
        count, shift, first = _unpack_word(word)
        words = [int(r) for r in rng.integers(0, 2**64, 2000, dtype=np.uint64)] + [0, 2**64 - 1]
        for r in words:
            x = (r >> shift) * count
            cell = first + (x >> (64 - shift))
            own = ((x << shift) % 2**64) < int(cells[cell, 0])
            line = int(cells[cell, 1]) >> (0 if own else 32) & 0xFFFFFFFF
            assert kernels.pick(np.uint64(word), np.uint64(r), cells) == line


def _alias_law(prob: np.ndarray, alias: np.ndarray) -> np.ndarray:
    """The law an alias table draws: each cell equally often, its own index or its alias."""
    law = prob / len(prob)
    np.add.at(law, alias, (1.0 - prob) / len(prob))
    return law


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.just(0.0), st.floats(1e-12, 1.0)), min_size=1, max_size=300).filter(lambda w: sum(w) > 0))
def test_alias_table_draws_its_weights(weights: list[float]) -> None:
    """Vose's construction (compiled): each index is drawn with its share of the weights, including
    zero weights, one weight and equal weights."""
    from sevens.lab.sampling import _alias

    probs = np.array(weights)
    prob, alias = _alias(probs)
    assert ((prob >= 0) & (prob <= 1)).all() and ((alias >= 0) & (alias < len(probs))).all()
    assert np.abs(_alias_law(prob, alias) - probs / probs.sum()).max() < 1e-12


@pytest.mark.parametrize("dice", [0, 1, 7, 40, 160])
def test_force_grid_is_the_multinomial_law(dice: int) -> None:
    """The compiled convolution of FORCE dice gives Multinomial(dice; 1/6 try, 1/6 penalty, 2/3 nothing)."""
    from scipy.stats import multinomial

    from sevens.lab.sampling import _power, line_tables

    t = line_tables()
    grid = _power(t.matrix("force"), t.probabilities("force"), dice)
    assert grid.shape == (dice + 1, 1, dice + 1, 1)
    tries, penalties = np.meshgrid(np.arange(dice + 1), np.arange(dice + 1), indexing="ij")
    nothing = dice - tries - penalties
    exact = multinomial.pmf(np.stack((tries, penalties, np.maximum(nothing, 0)), axis=-1), dice, [1 / 6, 1 / 6, 2 / 3])
    exact = np.where(nothing >= 0, exact, 0.0)
    assert np.abs(grid[:, 0, :, 0] - exact).max() < 1e-13


def test_tables_added_later_leave_earlier_arrays_and_draws_alone() -> None:
    """Both paths append new tables: arrays handed out before stay valid and unchanged, the new
    index reaches every table with the same cells, and the numpy path's flat arrays keep each
    table's own alias table."""
    from sevens.lab.sampling import FLAIR_BASE

    sampler = TableSampler()
    first_ids = [3, 20, FLAIR_BASE + 4]
    sampler.ensure(np.array(first_ids))
    index1, cells1 = sampler.arrays()
    before = cells1.copy()
    rng = np.random.default_rng(9)
    sampler.sample(rng, np.array([3]), np.array([4]))  # the numpy path flattens its first tables
    for more in ([60], [FLAIR_BASE + 30, 90], list(range(100, 161))):  # enough to regrow the buffer
        sampler.ensure(np.array(more))
        sampler.sample(rng, np.array([more[0] if more[0] < FLAIR_BASE else 0]), np.array([0]))
    index2, cells2 = sampler.arrays()
    assert np.array_equal(cells1, before)
    assert cells2.shape[0] > cells1.shape[0]
    for tid in first_ids:
        assert _law_of_cells(index1, cells1, tid) == _law_of_cells(index2, cells2, tid)
    for tid, table in sampler._tables.items():
        at, size = int(sampler._offset[tid]), int(sampler._size[tid])
        assert size == len(table.prob)
        assert np.array_equal(sampler._prob[at : at + size], table.prob)
        assert np.array_equal(sampler._alias[at : at + size], table.alias + at)
        assert np.array_equal(sampler._packed[at : at + size], table.packed)
