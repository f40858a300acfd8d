"""Exact sampling of many teams' lines at once, in constant time per team whatever its order.

A line (R1) is tries, conversions, penalties and drop goals. For an order of ``F`` FORCE dice and
``k`` FLAIR options, the dice are independent, so the line only depends on *how many* dice and
throws fell in each scoring category, and those counts have closed-form laws:

* FORCE: each die is a try, a penalty or nothing; the counts are one multinomial draw
  ``Multinomial(F; P(try), P(penalty), P(nothing))``.
* FLAIR (R2): a double that scores nothing (1-1, 2-2, 4-4, 6-6) only throws again, so each option
  is a run of *scoring* doubles (5-5 or 3-3) ended by a throw that is not a double. With
  ``r = P(scoring double) / (P(scoring double) + P(not a double)) = 1/16``, the scoring doubles of
  all ``k`` options together number ``J ~ NegativeBinomial(k, 1 - r)`` (failures before the ``k``-th
  success); they split among 5-5 and 3-3 by one more multinomial; the ``k`` ending throws fall in
  the categories of the 30 non-doubles (a total of 7; a 5 and a 3; a 5 with 1, 4 or 6; a 3 with
  1, 2 or 6; nothing) by one multinomial draw.

Every category and probability is read off the rules engine (:func:`sevens.rules.force_die_line`,
:func:`sevens.rules.flair_throw_line`), never typed in, so the sampler scores as the rules do. Each
draw is exact: the binomial, multinomial and negative binomial samplers of numpy are exact up to
floating point, and nothing is truncated.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
from numpy.typing import NDArray

from sevens.lab.jit import compiler
from sevens.rules import Line, flair_throw_line, force_die_line

__all__ = [
    "FLAIR_BASE",
    "TABLE_IDS",
    "TAIL",
    "Category",
    "LineTables",
    "Lines",
    "TableSampler",
    "line_tables",
    "point_weights",
    "sample_lines",
    "table_word",
]

IntArray = NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Category:
    """A category of outcomes with one line: its probability and the line it scores."""

    probability: Fraction
    line: Line


def _categories(weighted: Sequence[tuple[Line, Fraction]]) -> tuple[Category, ...]:
    merged: dict[Line, Fraction] = {}
    for line, p in weighted:
        merged[line] = merged.get(line, Fraction(0)) + p
    total = sum(merged.values(), start=Fraction(0))
    # Scoring categories first (the last one is then the blank one, drawn as "the rest").
    ordered = sorted(merged.items(), key=lambda item: (item[0] == Line(), -item[1], item[0].points))
    return tuple(Category(p / total, line) for line, p in ordered)


@dataclass(frozen=True, slots=True)
class LineTables:
    """The categories of one FORCE die, one scoring double and one ending FLAIR throw (R1, R2).

    Attributes:
        force: categories of a FORCE die (try, penalty, nothing).
        scoring_double: categories of a double that scores (5-5, 3-3), given that it scores.
        final: categories of the throw that ends an option (not a double).
        ratio: ``r``, the chance that the next throw that matters is a scoring double.
    """

    force: tuple[Category, ...]
    scoring_double: tuple[Category, ...]
    final: tuple[Category, ...]
    ratio: Fraction

    def matrix(self, part: str) -> IntArray:
        """Lines of a part's categories as rows ``(tries, conversions, penalties, drop goals)``."""
        cats: tuple[Category, ...] = getattr(self, part)
        rows = [(c.line.tries, c.line.conversions, c.line.penalties, c.line.drop_goals) for c in cats]
        return np.array(rows, dtype=np.int64)

    def probabilities(self, part: str) -> NDArray[np.float64]:
        cats: tuple[Category, ...] = getattr(self, part)
        return np.array([float(c.probability) for c in cats])


@cache
def line_tables() -> LineTables:
    """The category tables, read off the rules engine.

    >>> t = line_tables()
    >>> [(c.line.points, c.probability) for c in t.force]
    [(3, Fraction(1, 6)), (5, Fraction(1, 6)), (0, Fraction(2, 3))]
    >>> t.ratio, sorted(str(c.probability) for c in t.final)
    (Fraction(1, 16), ['1/15', '1/3', '1/5', '1/5', '1/5'])
    """
    force = _categories([(force_die_line(face), Fraction(1, 6)) for face in range(1, 7)])
    throws = [(a, b, flair_throw_line(a, b)) for a, b in itertools.product(range(1, 7), repeat=2)]
    p = Fraction(1, 36)
    finals = [(line, p) for a, b, line in throws if a != b]
    scoring = [(line, p) for a, b, line in throws if a == b and line != Line()]
    p_scoring = sum((q for _, q in scoring), start=Fraction(0))
    p_final = sum((q for _, q in finals), start=Fraction(0))
    return LineTables(
        force=force,
        scoring_double=_categories(scoring),
        final=_categories(finals),
        ratio=p_scoring / (p_scoring + p_final),
    )


@dataclass(frozen=True, slots=True, eq=False)
class Lines:
    """Many lines at once: four arrays of the same shape (R1).

    >>> lines = Lines(*(np.array([v]) for v in (2, 1, 1, 0)))
    >>> lines.points.tolist()
    [15]
    """

    tries: IntArray
    conversions: IntArray
    penalties: IntArray
    drop_goals: IntArray

    @property
    def points(self) -> IntArray:
        """5 tries + 2 conversions + 3 penalties + 3 drop goals, from the rules' own line (R1)."""
        weights = point_weights()
        return (
            weights[0] * self.tries
            + weights[1] * self.conversions
            + weights[2] * self.penalties
            + weights[3] * self.drop_goals
        )

    def line(self, i: int) -> Line:
        """Line ``i`` as a rules :class:`~sevens.rules.Line`."""
        return Line(int(self.tries[i]), int(self.conversions[i]), int(self.penalties[i]), int(self.drop_goals[i]))


@cache
def point_weights() -> tuple[int, int, int, int]:
    """Points of a try, a conversion, a penalty and a drop goal, read off the rules' Line (R1).

    >>> point_weights()
    (5, 2, 3, 3)
    """
    # Read off the rules' Line so a change of scoring cannot leave the lab behind.
    return (
        Line(tries=1).points,
        Line(tries=1, conversions=1).points - Line(tries=1).points,
        Line(penalties=1).points,
        Line(drop_goals=1).points,
    )


def _multinomial(rng: np.random.Generator, n: IntArray, probs: NDArray[np.float64]) -> IntArray:
    """Counts of ``n`` trials in each category, for many ``n`` at once (conditional binomials)."""
    out = np.empty((len(probs), n.size), dtype=np.int64)
    left = n.astype(np.int64, copy=True)
    rest = 1.0
    for i, p in enumerate(probs[:-1]):
        share = min(1.0, p / rest) if rest > 0 else 0.0
        out[i] = rng.binomial(left, share)
        left -= out[i]
        rest -= p
    out[-1] = left
    return out


def sample_lines(rng: np.random.Generator, force: IntArray, options: IntArray) -> Lines:
    """Draw one line for each order ``(force[i] FORCE dice, options[i] FLAIR options)`` (R1, R2).

    The number of random draws per order is fixed (eleven binomial-type draws), whatever its size.

    Args:
        rng: the random source.
        force: FORCE dice of each order (whole numbers >= 0).
        options: FLAIR options of each order (whole numbers >= 0).

    Returns:
        The lines, one per order.

    >>> rng = np.random.default_rng(1)
    >>> lines = sample_lines(rng, np.array([0, 30]), np.array([0, 10]))
    >>> lines.points[0], bool(lines.points[1] > 0)
    (np.int64(0), True)
    """
    force = np.asarray(force, dtype=np.int64).ravel()
    options = np.asarray(options, dtype=np.int64).ravel()
    t = line_tables()
    total = (
        _multinomial(rng, force, t.probabilities("force")).T @ t.matrix("force")
        + _multinomial(rng, options, t.probabilities("final")).T @ t.matrix("final")
    )
    # Scoring doubles over all options: failures before the k-th success, success = not scoring.
    success = 1.0 - float(t.ratio)
    doubles = rng.negative_binomial(np.maximum(options, 1), success)
    doubles = np.where(options > 0, doubles, 0)
    total += _multinomial(rng, doubles, t.probabilities("scoring_double")).T @ t.matrix("scoring_double")
    return Lines(total[:, 0], total[:, 1], total[:, 2], total[:, 3])


# --- Table sampling: one uniform per part, through alias tables --------------------------------

# Each line is packed into one integer, 16 bits per count, so that the FORCE part and the FLAIR
# part of an order add as integers.
_SHIFT = 16
_MASK = (1 << _SHIFT) - 1
_FORCE_TABLES = 161  # FORCE dice 0..160 (R3: no team holds more than 160)
FLAIR_BASE = _FORCE_TABLES
"""Table id of an order with no FLAIR option; ``k`` options have id ``FLAIR_BASE + k``."""
TABLE_IDS = _FORCE_TABLES + 54
"""Number of table ids (FORCE 0-160, then FLAIR 0-53 options)."""
_PRUNE = 1e-13  # mass a table may drop in far tails (its bound, with the doubles cut)


def _pack(t: IntArray, c: IntArray, p: IntArray, d: IntArray) -> IntArray:
    return t | (c << _SHIFT) | (p << (2 * _SHIFT)) | (d << (3 * _SHIFT))


def _narrow(packed: IntArray) -> IntArray:
    """Lines packed 16 bits per count, repacked 8 bits per count (each count below 128)."""
    counts = [(packed >> (_SHIFT * c)) & _MASK for c in range(4)]
    if max((int(x.max(initial=0)) for x in counts), default=0) >= 128:
        raise ValueError("a table line has a count of 128 or more; the compiled loop packs counts in 7 bits")
    narrow: IntArray = counts[0] | (counts[1] << 8) | (counts[2] << 16) | (counts[3] << 24)
    return narrow


def _unpack(packed: IntArray) -> Lines:
    return Lines(
        packed & _MASK,
        (packed >> _SHIFT) & _MASK,
        (packed >> (2 * _SHIFT)) & _MASK,
        (packed >> (3 * _SHIFT)) & _MASK,
    )


def _power(rows: IntArray, probs: NDArray[np.float64], n: int) -> NDArray[np.float64]:
    """The distribution of the sum of ``n`` draws from categories ``rows`` (t, c, p, d) on a grid.

    >>> _power(np.array([[1, 0, 0, 0], [0, 0, 0, 0]]), np.array([0.5, 0.5]), 2).ravel().tolist()
    [0.25, 0.5, 0.25]
    """
    reach = np.ascontiguousarray(rows.max(axis=0), dtype=np.int64)
    shape = tuple(int(r) * n + 1 for r in reach)
    return _power_grid(np.zeros(shape), np.zeros(shape), reach, np.ascontiguousarray(rows), np.ascontiguousarray(probs), n)


@compiler()
def _power_grid(
    grid: NDArray[np.float64], grown: NDArray[np.float64], reach: IntArray, rows: IntArray,
    probs: NDArray[np.float64], n: int,
) -> NDArray[np.float64]:
    # Step by step, each step adding every category to the last step's reach (grid and grown
    # start at zero and swap roles). Compiled: this and the FLAIR convolution below took most of
    # the time spent building tables in plain numpy.
    grid[0, 0, 0, 0] = 1.0
    for step in range(n):
        s0, s1, s2, s3 = reach[0] * step + 1, reach[1] * step + 1, reach[2] * step + 1, reach[3] * step + 1
        grown[: s0 + reach[0], : s1 + reach[1], : s2 + reach[2], : s3 + reach[3]] = 0.0
        for r in range(rows.shape[0]):
            o0, o1, o2, o3 = rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3]
            p = probs[r]
            for a in range(s0):
                for b in range(s1):
                    for c in range(s2):
                        for d in range(s3):
                            grown[o0 + a, o1 + b, o2 + c, o3 + d] += p * grid[a, b, c, d]
        grid, grown = grown, grid
    return grid


@compiler()
def _spread(out: NDArray[np.float64], doubles: NDArray[np.float64], finals: NDArray[np.float64]) -> None:
    """Adds ``doubles[i] * finals`` at offset ``i`` of ``out``, for each nonzero ``i`` in order."""
    f0, f1, f2, f3 = finals.shape
    for i0 in range(doubles.shape[0]):
        for i1 in range(doubles.shape[1]):
            for i2 in range(doubles.shape[2]):
                for i3 in range(doubles.shape[3]):
                    w = doubles[i0, i1, i2, i3]
                    if w == 0.0:
                        continue
                    for a in range(f0):
                        for b in range(f1):
                            for c in range(f2):
                                for d in range(f3):
                                    out[i0 + a, i1 + b, i2 + c, i3 + d] += w * finals[a, b, c, d]


def _flair_grid(options: int) -> tuple[NDArray[np.float64], float]:
    """Lines of ``options`` FLAIR options: the ending throws, plus the scoring doubles cut where the
    mass beyond is below the budget. Returns the grid and the exact mass cut (a bound)."""
    t = line_tables()
    finals = _power(t.matrix("final"), t.probabilities("final"), options)
    if options == 0:
        return finals, 0.0
    r = float(t.ratio)
    # P(J = j) for the scoring doubles of all options, J ~ NegativeBinomial(options, 1 - r).
    weights = [(1 - r) ** options]
    while 1.0 - sum(weights) > _PRUNE / 2:
        j = len(weights)
        weights.append(weights[-1] * (j - 1 + options) / j * r)
    cut = max(0.0, 1.0 - sum(weights))
    rows = t.matrix("scoring_double")
    probs = t.probabilities("scoring_double")
    doubles = np.zeros(tuple(int(v) * (len(weights) - 1) + 1 for v in rows.max(axis=0)))
    for j, w in enumerate(weights):
        run = _power(rows, probs, j)
        doubles[tuple(slice(0, s) for s in run.shape)] += w * run
    shape = tuple(a + b - 1 for a, b in zip(finals.shape, doubles.shape, strict=True))
    out = np.zeros(shape)
    _spread(out, doubles, finals)
    return out, cut


def _alias(probs: NDArray[np.float64]) -> tuple[NDArray[np.float64], IntArray]:
    """Walker's alias table (Vose's construction): accept ``i`` with ``prob[i]``, else ``alias[i]``.

    >>> prob, alias = _alias(np.array([0.5, 0.25, 0.25]))
    >>> prob.tolist(), alias.tolist()
    ([1.0, 0.75, 0.75], [0, 0, 0])
    """
    scaled = probs * (len(probs) / probs.sum())
    return _vose(np.ascontiguousarray(scaled, dtype=np.float64))


@compiler()
def _vose(scaled: NDArray[np.float64]) -> tuple[NDArray[np.float64], IntArray]:
    # Compiled: in plain Python this loop took most of the time spent building tables.
    n = scaled.size
    prob = np.ones(n)
    alias = np.arange(n)
    values = scaled.copy()
    small = np.empty(n, dtype=np.int64)  # two stacks, as lists in index order
    large = np.empty(n, dtype=np.int64)
    smalls = larges = 0
    for i in range(n):
        if values[i] < 1.0:
            small[smalls] = i
            smalls += 1
        else:
            large[larges] = i
            larges += 1
    while smalls and larges:
        smalls -= 1
        s = small[smalls]
        big = large[larges - 1]
        prob[s] = values[s]
        alias[s] = big
        values[big] -= 1.0 - values[s]
        if values[big] < 1.0:
            larges -= 1
            small[smalls] = big
            smalls += 1
    return prob, alias


@dataclass(frozen=True, slots=True, eq=False)
class _Table:
    prob: NDArray[np.float64]
    alias: IntArray
    packed: IntArray
    bound: float
    compact: NDArray[np.uint64]  # the compiled loop's cells: the head's alias table, then the tail's
    heads: int  # cells of the head (its lines and, if the table has a tail, the tail's marker)


_HEAD_MASS = 1.0 - 2.0**-10  # the head holds at least this much of a table's probability
_SMALL = 64  # tables with at most this many lines are not split
TAIL = 1 << 31
"""The line of the head's cell that sends a draw to the tail (no line has a count of 128)."""
_BELOW_ONE = float(np.nextafter(1.0, 0.0))


def _thresholds(coin: NDArray[np.float64]) -> NDArray[np.uint64]:
    """Coins as 64-bit thresholds: a draw keeps its cell's own line when its fraction is below.

    A coin of 1 becomes the largest threshold below 2**64; such a cell's alias is itself, so the
    last few fractions that reach it change nothing.
    """
    scaled: NDArray[np.uint64] = np.ldexp(np.minimum(coin, _BELOW_ONE), 64).astype(np.uint64)
    return scaled


def _compact(probs: NDArray[np.float64], packed: IntArray) -> tuple[NDArray[np.uint64], int]:
    """A table as two alias tables: a small head with the likeliest lines, holding most of the
    probability, and the tail with the rest.

    The head has one more outcome, the tail's marker (line :data:`TAIL`) with the tail's
    probability; a draw that lands on it draws again from the tail: the same law, exactly. An
    alias table reads any of its cells equally often, whatever their probabilities, so one table
    for thousands of cells keeps all of them in use; most of the probability sits in a few of them,
    and the head's cells are few enough to stay in the processor's cache.
    """
    narrow = _narrow(packed)
    order = np.argsort(-probs, kind="stable")
    heads = len(probs)
    if len(probs) > _SMALL:
        share = np.cumsum(probs[order]) / probs.sum()
        heads = min(len(probs), int(np.searchsorted(share, _HEAD_MASS)) + 1)
    head, tail = order[:heads], order[heads:]
    parts = [(probs[head], narrow[head])]
    if tail.size:
        parts[0] = (np.append(probs[head], probs[tail].sum()), np.append(narrow[head], TAIL))
        parts.append((probs[tail], narrow[tail]))
    cells = []
    for weights, own in parts:
        coin, alias = _alias(weights)
        block = np.empty((own.size, 2), dtype=np.uint64)
        block[:, 0] = _thresholds(coin)
        block[:, 1] = (own | (own[alias] << 32)).astype(np.uint64)
        cells.append(block)
    return np.concatenate(cells), cells[0].shape[0]


def table_word(cells: int, first: int) -> int:
    """How the compiled loop finds an alias table: its cell count, the bits its draw shifts the
    random word by (the fewest that cover the count, at least 1) and its first cell, in one word.

    >>> hex(table_word(5, 100))
    '0x6403000005'
    """
    if not 0 < cells < 1 << 24 or not 0 <= first < 1 << 32:
        raise ValueError(f"an alias table of {cells} cells from cell {first} does not fit the compiled loop's index")
    return cells | (max(1, (cells - 1).bit_length()) << 24) | (first << 32)


def _table(grid: NDArray[np.float64], cut: float) -> _Table:
    flat = grid.ravel()
    # Most of a grid is out of reach (no more conversions than tries, ...): sort only the rest.
    reachable = np.flatnonzero(flat)
    order = reachable[np.argsort(flat[reachable], kind="stable")]
    # Drop the lightest cells while their total stays within the budget.
    dropped = np.searchsorted(np.cumsum(flat[order]), _PRUNE / 2, side="right")
    keep = np.sort(order[dropped:])
    lost = float(flat[order[:dropped]].sum())
    index = np.unravel_index(keep, grid.shape)
    probs = flat[keep]
    prob, alias = _alias(probs)
    packed = _pack(*(np.asarray(i, dtype=np.int64) for i in index))
    compact, heads = _compact(probs, packed)
    return _Table(prob, alias, packed, cut + lost, compact, heads)


class TableSampler:
    """Samples lines through alias tables, one uniform for the FORCE part and one for FLAIR.

    Tables are built the first time an order size is met, then kept (compiled: a few milliseconds
    for most, about 0.1 s for the largest).
    Each table drops at most ``1e-13`` of probability in its far tails (the exact bound of each is
    kept in :attr:`bound`); sampling is otherwise exact up to floating point (the uniform's 53 bits
    pick the cell and its coin; in the compiled loop, the 64 - k bits of a 64-bit word that a
    table of up to 2**k cells leaves, which is 53 or more for heads of up to 2048 cells).

    >>> sampler = TableSampler()
    >>> lines = sampler.sample(np.random.default_rng(2), np.array([3, 0]), np.array([0, 2]))
    >>> lines.tries.shape
    (2,)
    """

    def __init__(self) -> None:
        # Threads of one process may share a sampler (a Dask worker runs several tasks at once).
        self._lock = threading.RLock()
        self._tables: dict[int, _Table] = {}
        self._offset = np.zeros(TABLE_IDS, dtype=np.int64)
        self._size = np.zeros(TABLE_IDS, dtype=np.int64)
        self._prob: NDArray[np.float64] = np.zeros(0)
        self._alias: IntArray = np.zeros(0, dtype=np.int64)
        self._packed: IntArray = np.zeros(0, dtype=np.int64)
        self._built = np.zeros(TABLE_IDS, dtype=bool)
        self._cells: NDArray[np.uint64] = np.zeros((0, 2), dtype=np.uint64)
        self._index: NDArray[np.uint64] = np.zeros((TABLE_IDS, 2), dtype=np.uint64)
        self._cells_of = 0  # how many tables _cells and _index hold
        self._cells_used = 0  # rows of _cells in use (the rest is room to grow)
        self._flat_of = 0  # how many tables the numpy path's flat arrays hold

    @property
    def bound(self) -> float:
        """The largest probability mass any built table dropped (per part; a line errs by at most twice)."""
        return max((t.bound for t in self._tables.values()), default=0.0)

    def _ensure(self, ids: IntArray) -> None:
        if self._built[ids].all():
            return
        with self._lock:
            self._build(ids)

    def _build(self, ids: IntArray) -> None:
        missing = [int(i) for i in np.unique(ids) if int(i) not in self._tables]
        if not missing:
            return
        t = line_tables()
        for tid in missing:
            if tid < _FORCE_TABLES:
                self._tables[tid] = _table(_power(t.matrix("force"), t.probabilities("force"), tid), 0.0)
            else:
                self._tables[tid] = _table(*_flair_grid(tid - _FORCE_TABLES))
        self._built[missing] = True  # last: a reader without the lock trusts this flag

    def _new_tables(self, placed: int) -> list[tuple[int, _Table]]:
        """The tables built after the first ``placed`` (tables are only ever added, in order)."""
        return list(itertools.islice(self._tables.items(), placed, None))

    def _flatten(self) -> None:
        """Appends the tables built since the last call to the numpy path's flat arrays."""
        if self._flat_of == len(self._tables):
            return
        offset = len(self._prob)
        probs, aliases, packed = [self._prob], [self._alias], [self._packed]
        for tid, table in self._new_tables(self._flat_of):
            self._offset[tid] = offset
            self._size[tid] = len(table.prob)
            probs.append(table.prob)
            aliases.append(table.alias + offset)
            packed.append(table.packed)
            offset += len(table.prob)
        self._prob = np.concatenate(probs)
        self._alias = np.concatenate(aliases)
        self._packed = np.concatenate(packed)
        self._flat_of = len(self._tables)

    def ensure(self, ids: IntArray) -> None:
        """Build the tables of these ids (FORCE dice ``f``: ``f``; FLAIR options ``k``: :data:`FLAIR_BASE` + ``k``)."""
        self._ensure(np.asarray(ids, dtype=np.int64))

    def arrays(self) -> tuple[NDArray[np.uint64], NDArray[np.uint64]]:
        """The built tables as flat arrays for the compiled loop (:mod:`sevens.lab.kernels`).

        Each table is split in two alias tables: a head of its likeliest lines holding at least
        ``1 - 2**-10`` of its probability, plus a marker for the rest, and the tail with the rest
        (tables of up to 64 lines are not split). Returns ``index`` (per table id: the head's and
        the tail's :func:`table_word`; 0 if the table is not built or has no tail) and ``cells``
        (per cell: its coin as a 64-bit threshold, then its line in the low 32 bits and its
        alias's line in the high 32 bits of one word, 8 bits per count: tries, conversions,
        penalties, drop goals; the head's marker has line :data:`TAIL`). A FORCE line and a FLAIR
        line add as integers, so no count may reach 128.
        """
        with self._lock:
            if self._cells_of != len(self._tables):
                # Appended in place: a new table costs its own cells, not a copy of all of them
                # (but when the buffer doubles). A reader of an earlier view never looks past it.
                new = self._new_tables(self._cells_of)
                index = self._index.copy()
                at = self._cells_used
                size = at + sum(table.compact.shape[0] for _, table in new)
                if size > self._cells.shape[0]:
                    grown = np.empty((max(size, 2 * self._cells.shape[0]), 2), dtype=np.uint64)
                    grown[:at] = self._cells[:at]
                    self._cells = grown
                for tid, table in new:
                    cells = table.compact.shape[0]
                    index[tid, 0] = table_word(table.heads, at)
                    if cells > table.heads:
                        index[tid, 1] = table_word(cells - table.heads, at + table.heads)
                    self._cells[at : at + cells] = table.compact
                    at += cells
                self._index = index
                self._cells_used = at
                self._cells_of = len(self._tables)
            return self._index, self._cells[: self._cells_used]

    def _draw(self, rng: np.random.Generator, ids: IntArray) -> IntArray:
        size = self._size[ids]
        x = rng.random(ids.size) * size
        cell = np.minimum(x.astype(np.int64), size - 1)
        j = self._offset[ids] + cell
        pick = np.where(x - cell < self._prob[j], j, self._alias[j])
        return self._packed[pick]

    def sample(self, rng: np.random.Generator, force: IntArray, options: IntArray) -> Lines:
        """One line per order ``(force[i] FORCE dice, options[i] FLAIR options)`` (R1, R2)."""
        force = np.asarray(force, dtype=np.int64).ravel()
        options = np.asarray(options, dtype=np.int64).ravel()
        if force.size and (force.min() < 0 or force.max() >= _FORCE_TABLES or options.min() < 0 or options.max() > 53):
            raise ValueError("R3: an order has 0 to 160 FORCE dice and 0 to 53 FLAIR options")
        flair_ids = options + _FORCE_TABLES
        with self._lock:
            self._ensure(np.concatenate((force, flair_ids)))
            self._flatten()
            return _unpack(self._draw(rng, force) + self._draw(rng, flair_ids))
