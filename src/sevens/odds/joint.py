"""Joint distribution of a whole line (tries, conversions, penalties, drop goals) for one order.

Knockout matches are decided by count-back (R9): points, then tries, then conversions, then drop
goals. A line determines its points, and ``(points, tries, conversions, drop goals)`` determines the
line back (penalties are what points leave over), so each line of an order maps to one sortable
integer *key*, and comparing keys is comparing lines under count-back. An order's joint
distribution is kept as its keys in increasing order with their probabilities and prefix sums;
a knockout match is then one ``searchsorted``.

The arrays are indexed ``[tries, conversions, penalties, drop_goals]`` and built by convolution
from the rules' outcome tables (:mod:`sevens.odds.tables`). Besides the cut on scoring doubles
(:mod:`sevens.odds.points`), the far tails of each axis and entries too small to matter are
dropped, each within a stated budget, and every dropped mass is added to the tail bound.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from sevens.odds.points import TAIL_BUDGET, doubles_cutoff, doubles_weights, round_up
from sevens.odds.tables import POINT_WEIGHTS, flair_tables, force_die

__all__ = [
    "JointLines",
    "countback_key",
    "joint_array",
    "joint_lines",
    "key_cells",
    "kept",
    "line_grid",
    "lines_shape",
    "worked_out",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
Entries = list[tuple[tuple[int, int, int, int], float]]

# Key layout: points, tries, conversions, drop goals, 12 bits each below the points.
_BITS = 12
_LIMIT = 1 << _BITS
# The budget is shared: half for the scoring-doubles cut, a quarter each for trimming and pruning.
_CUT_BUDGET = TAIL_BUDGET / 2
_TRIM_BUDGET = TAIL_BUDGET / 4
_PRUNE_BUDGET = TAIL_BUDGET / 4


def countback_key(points: int, tries: int, conversions: int, drop_goals: int) -> int:
    """One integer that orders lines as count-back does (R9): points, tries, conversions, drop goals.

    >>> countback_key(10, 2, 0, 0) > countback_key(10, 1, 1, 1)
    True
    """
    return ((points * _LIMIT + tries) * _LIMIT + conversions) * _LIMIT + drop_goals


def key_cells(keys: IntArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The tries, conversions, penalties and drop goals of each count-back key: the line it stands
    for, as :func:`countback_key` made it (penalties are what the points leave over).

    >>> [int(x[0]) for x in key_cells(np.array([countback_key(19, 2, 1, 1)]))]
    [2, 1, 1, 1]
    """
    mask = _LIMIT - 1
    drop_goals = keys & mask
    conversions = (keys >> _BITS) & mask
    tries = (keys >> (2 * _BITS)) & mask
    rest = (keys >> (3 * _BITS)) - POINT_WEIGHTS[0] * tries - POINT_WEIGHTS[1] * conversions
    rest -= POINT_WEIGHTS[3] * drop_goals
    return tries, conversions, rest // POINT_WEIGHTS[2], drop_goals


def _convolve(a: FloatArray, b: FloatArray) -> FloatArray:
    """Full convolution of two 4-axis arrays.

    Axes where one side has length 1 are plain outer products, done by broadcasting; the loop runs
    only over the smaller side's positions on the axes where both are longer than 1.
    """
    shape = tuple(x + y - 1 for x, y in zip(a.shape, b.shape, strict=True))
    overlap = [axis for axis in range(a.ndim) if a.shape[axis] > 1 and b.shape[axis] > 1]
    if len(overlap) == 1:
        return _convolve_one_axis(a, b, overlap[0], shape)
    a_positions = math.prod(a.shape[axis] for axis in overlap)
    b_positions = math.prod(b.shape[axis] for axis in overlap)
    small, big = (a, b) if a_positions <= b_positions else (b, a)
    out: FloatArray = np.zeros(shape)
    others = tuple(axis for axis in range(a.ndim) if axis not in overlap)
    occupied = np.argwhere(small.sum(axis=others) if others else small)
    for position in occupied.tolist():
        pick: list[slice] = [slice(None)] * a.ndim
        place: list[slice] = [slice(None)] * a.ndim
        for axis, i in zip(overlap, position, strict=True):
            pick[axis] = slice(i, i + 1)
            place[axis] = slice(i, i + big.shape[axis])
        out[tuple(place)] += small[tuple(pick)] * big
    return out


def _convolve_one_axis(a: FloatArray, b: FloatArray, axis: int, shape: tuple[int, ...]) -> FloatArray:
    """Convolution when the two arrays share one long axis (FORCE and FLAIR share tries).

    Sliding windows along that axis turn it into one matrix product, much faster than a
    shift-and-add loop; every product is of non-negative numbers, so nothing cancels.
    """
    a0 = np.moveaxis(a, axis, 0)
    b0 = np.moveaxis(b, axis, 0)
    if math.prod(a0.shape[1:]) < math.prod(b0.shape[1:]):
        a0, b0 = b0, a0  # window the side with less else to copy
    a_rest, b_rest = a0.shape[1:], b0.shape[1:]
    n, m = a0.shape[0], b0.shape[0]
    padded = np.zeros((m + 2 * (n - 1), math.prod(b_rest)))
    padded[n - 1 : n - 1 + m] = b0.reshape(m, -1)
    # windows[u, x, s] = b[u + s - (n - 1), x]: pairing s with a[n - 1 - s] convolves.
    windows = np.lib.stride_tricks.sliding_window_view(padded, n, axis=0)
    stacked = np.ascontiguousarray(windows).reshape(-1, n)
    product = (stacked @ a0.reshape(n, -1)[::-1]).reshape((n + m - 1, *b_rest, *a_rest))
    rank = len(b_rest)
    # Each remaining axis is long on at most one side: keep that side's, drop the other's.
    order = [0]
    order += [1 + i if b_rest[i] > 1 else 1 + rank + i for i in range(rank)]
    order += [i for i in range(1, 1 + 2 * rank) if i not in order]
    merged = product.transpose(order).reshape(
        [n + m - 1, *(max(x, y) for x, y in zip(b_rest, a_rest, strict=True))]
    )
    out: FloatArray = np.ascontiguousarray(np.moveaxis(merged, 0, axis))
    assert out.shape == shape
    return out


def _shift_add(array: FloatArray, entries: Entries) -> FloatArray:
    """Convolve with a small table given as ``(counts, probability)`` entries."""
    reach = [max(counts[axis] for counts, _ in entries) for axis in range(array.ndim)]
    grown: FloatArray = np.zeros(tuple(s + r for s, r in zip(array.shape, reach, strict=True)))
    scaled: dict[float, FloatArray] = {}  # p * array once for each p (both scoring doubles have 1/2)
    for counts, p in entries:
        if p not in scaled:
            scaled[p] = p * array
        grown[tuple(slice(c, c + s) for c, s in zip(counts, array.shape, strict=True))] += scaled[p]
    return grown


def _power(entries: Entries, n: int) -> FloatArray:
    """The n-fold convolution of a small table."""
    result: FloatArray = np.ones((1, 1, 1, 1))
    for _ in range(n):
        result = _shift_add(result, entries)
    return result


def _trim(array: FloatArray, budget: float) -> tuple[FloatArray, float]:
    """Cut the far end of each axis while the mass cut stays within ``budget``; return it too."""
    dropped = 0.0
    share = budget / array.ndim
    for axis in range(array.ndim):
        others = tuple(x for x in range(array.ndim) if x != axis)
        marginal = array.sum(axis=others)
        from_end = np.cumsum(marginal[::-1])[::-1]  # from_end[i] = mass at index >= i
        keep = int(np.searchsorted(-from_end, -share, side="right"))
        keep = max(keep, 1)
        if keep < array.shape[axis]:
            dropped += float(from_end[keep])
            array = array[(slice(None),) * axis + (slice(0, keep),)]
    return array, dropped


# Per unit of tries, conversions, penalties, drop goals: its share of the count-back key,
# key = points * L**3 + tries * L**2 + conversions * L + drop goals.
_KEY_WEIGHTS = tuple(
    w * _LIMIT**3 + place for w, place in zip(POINT_WEIGHTS, (_LIMIT**2, _LIMIT, 0, 1), strict=True)
)


def _linear_grid(shape: tuple[int, ...], weights: tuple[int, ...], dtype: type[np.integer[Any]]) -> NDArray[Any]:
    """``sum(weights[i] * index[i])`` over every cell of a 4-axis array, in one full-size pass."""
    vectors = [np.arange(n, dtype=dtype) * w for n, w in zip(shape, weights, strict=True)]
    front = vectors[0][:, None] + vectors[1][None, :]
    back = vectors[2][:, None] + vectors[3][None, :]
    grid: NDArray[Any] = front[:, :, None, None] + back[None, None, :, :]
    return grid


def line_grid(shape: tuple[int, ...]) -> tuple[IntArray, IntArray]:
    """Points and count-back keys of every cell of a ``[T, C, P, D]`` array (R1, R9).

    >>> points, keys = line_grid((2, 2, 2, 2))
    >>> int(points[1, 1, 0, 1]), int(keys[1, 1, 0, 1]) == countback_key(10, 1, 1, 1)
    (10, True)
    """
    return _linear_grid(shape, POINT_WEIGHTS, np.int64), _linear_grid(shape, _KEY_WEIGHTS, np.int64)


@dataclass(frozen=True, slots=True, eq=False)
class JointLines:
    """An order's lines as sorted count-back keys with probabilities (read-only, shared).

    Attributes:
        keys: count-back keys, strictly increasing.
        probs: probability of each key.
        below: ``below[i]`` = total probability of ``keys[:i]`` (length ``len(keys) + 1``).
        above: ``above[i]`` = total probability of ``keys[i:]`` (length ``len(keys) + 1``).
        tail_bound: probability mass dropped, at most ``TAIL_BUDGET``.

    The dense ``[tries, conversions, penalties, drop_goals]`` array the lines are read from is not
    kept (:func:`joint_array` works it out again): nothing that compares lines reads it, and in the
    cache it took more than the four arrays above together for orders of 100 points and more.
    """

    keys: IntArray
    probs: FloatArray
    below: FloatArray
    above: FloatArray
    tail_bound: float


@cache
def _force_array(dice: int) -> FloatArray:
    # One die more than the array before it, kept: the same sums in the same order as _power, so
    # the same bits, and every count up to 160 costs about as much as the largest alone did.
    if dice == 0:
        result = _power(force_die().counts(), 0)
    else:
        result = _shift_add(_force_array(dice - 1), force_die().counts())
    result.setflags(write=False)  # cached and shared
    return result


def _flair_array(options: int) -> FloatArray:
    # Not cached here: kept in the bounded cache by _flair_part (54 of them took 67 MB for good).
    tables = flair_tables()
    finals = _power(tables.final.counts(), options)
    weights = doubles_weights(options, _CUT_BUDGET)
    step = tables.scoring_double.counts()
    # Horner: sum_j w_j F * S^j = (((w_L F) * S + w_(L-1) F) * S + ...) + w_0 F, one small
    # convolution per scoring double instead of one large one per (tries, drop goals) cell.
    result = weights[-1] * finals
    for weight in reversed(weights[:-1]):
        result = _shift_add(result, step)
        result[tuple(slice(0, s) for s in finals.shape)] += weight * finals
    result.setflags(write=False)  # kept and shared
    return result


# Joint lines kept for reuse, most recently used last, and the bytes they hold. A large order's
# lines take about 60 MB, so a count of entries is no bound: 54 of them (every split of 160) took
# 2.5 GB when 256 were kept. Half a GB holds eight of the largest, or hundreds of middling ones.
# Lines asked for under a scope (one asker of the live odds) are kept apart from everyone else's,
# with the FLAIR arrays they were built from, under the same bound. Everyone else's FLAIR arrays are
# kept here too: a cache of their own held up to 54 of them (67 MB) for good outside the bound.
# The odds of an order and of a pair of orders (sevens.odds.api) and an order's points are kept here
# too, each counted at its arrays' bytes and ENTRY_BYTES more (an order's odds at twice that, for
# their exact fractions: api.ORDER_ODDS_BYTES): the per-asker caches they had of
# their own (4,096, 4,096, 65,536 and 16,384 entries) held up to about 55 MB outside the bound.
CACHE_BYTES = 1 << 29
ENTRY_BYTES = 640
"""What one kept entry holds besides its arrays, at most (its key, its place in the cache, a small
result's object and floats), counted with it: measured under tracemalloc by tests/odds/test_memory.py."""
_cache: OrderedDict[Hashable, object] = OrderedDict()
_sizes: dict[Hashable, int] = {}
_cached_bytes = 0
_worked_out = 0  # entries made here rather than found kept, since the last clear
# The web server asks from several threads at once (its request pool, the deadline scheduler's
# bots): the cache and its count change together under this lock. An order is worked out outside
# it, so a slow one holds no other up; two threads that miss it at once both work it out, and the
# second keeps the first one's.
_cache_lock = threading.Lock()

_Kept = TypeVar("_Kept", JointLines, FloatArray)
_T = TypeVar("_T")


def _size(lines: JointLines | FloatArray) -> int:
    if isinstance(lines, np.ndarray):
        return lines.nbytes + ENTRY_BYTES
    return sum(part.nbytes for part in (lines.keys, lines.probs, lines.below, lines.above)) + ENTRY_BYTES


def _kept(key: Hashable, make: Callable[[], _Kept], keep: bool) -> _Kept:
    return kept(key, make, _size, keep=keep)


def kept(key: Hashable, make: Callable[[], _T], size: Callable[[_T], int], *, keep: bool = True) -> _T:
    """What ``make`` gives, kept under ``key`` within :data:`CACHE_BYTES` with everything else kept
    here, counted as ``size`` of it says (its arrays' bytes and :data:`ENTRY_BYTES`); the least
    recently used go first. With ``keep=False`` a kept one is used but a new one is not kept."""
    global _cached_bytes, _worked_out
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found  # type: ignore[return-value]  # each key holds one kind (its maker's)
        _worked_out += 1
    made = make()
    if not keep:
        return made
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:  # another thread made it meanwhile: one copy is kept and counted
            _cache.move_to_end(key)
            return found  # type: ignore[return-value]
        _cache[key] = made
        _sizes[key] = bytes_ = size(made)
        _cached_bytes += bytes_
        while _cached_bytes > CACHE_BYTES and len(_cache) > 1:
            dropped, _ = _cache.popitem(last=False)
            _cached_bytes -= _sizes.pop(dropped)
    return made


def worked_out() -> int:
    """How many joint lines, odds, points and FLAIR arrays were worked out rather than found kept
    since the cache was last cleared: the work a question cost, counted.

    >>> clear_cache(); _ = joint_lines(2, 1); _ = joint_lines(2, 1); worked_out()  # its FLAIR array, its lines
    2
    """
    return _worked_out


def joint_lines(force: int, options: int, *, keep: bool = True, scope: Hashable | None = None) -> JointLines:
    """The joint distribution of the line of ``force`` FORCE dice and ``options`` FLAIR options.

    Callers must have validated the order (R3). Results are cached, the least recently used
    dropped first once they hold more than :data:`CACHE_BYTES`; with ``keep=False`` one found in
    the cache is used but one worked out is not added (for a pass over more orders than the cache
    holds, which would only push out each one it added before using it again).

    With a ``scope`` (one asker of the live odds), only lines asked for under that same scope are
    found, and the FLAIR arrays they are built from are kept under it too (the FORCE arrays, small,
    are all worked out ahead: :func:`sevens.odds.api.warm_shared_tables`): how long an answer takes
    then depends on what that asker asked before, never on what anyone else did.

    >>> one_die = joint_lines(1, 0)
    >>> one_die.probs.tolist() == [2 / 3, 1 / 6, 1 / 6], one_die.tail_bound
    (True, 0.0)
    >>> joint_lines(1, 0) is one_die, joint_lines(1, 0, scope="someone") is one_die
    (True, False)
    """
    if scope is None:
        return _kept((force, options), lambda: _joint_lines(force, options), keep)
    return _kept((scope, "lines", force, options), lambda: _joint_lines(force, options, scope), keep)


def clear_cache() -> None:
    """Forget every cached joint distribution."""
    global _cached_bytes, _worked_out
    with _cache_lock:
        _cache.clear()
        _sizes.clear()
        _cached_bytes = 0
        _worked_out = 0


def _flair_part(options: int, scope: Hashable | None = None) -> FloatArray:
    # Kept with the lines, under the same bound, whatever the lines' own ``keep``: a pass over every
    # split reads each FLAIR array twice (its shape, then its lines), and they are small beside them.
    return _kept((scope, "flair", options), lambda: _flair_array(options), True)


def lines_shape(force: int, options: int) -> tuple[int, int, int, int]:
    """The shape of ``joint_array(force, options)`` without working the lines out (from the
    tables of FORCE dice and FLAIR options, the latter kept in the bounded cache): every key of the
    order is a cell within it.

    >>> lines_shape(1, 0) == joint_array(1, 0).shape, lines_shape(30, 10) == joint_array(30, 10).shape
    (True, True)
    """
    force_part, _ = _trim(_force_array(force), _TRIM_BUDGET / 2)
    flair_part, _ = _trim(_flair_part(options), _TRIM_BUDGET / 2)
    t, c, p, d = (x + y - 1 for x, y in zip(force_part.shape, flair_part.shape, strict=True))
    return t, c, p, d


def _cells(force: int, options: int, scope: Hashable | None = None) -> tuple[FloatArray, tuple[Fraction, float, float]]:
    """An order's lines as a dense array laid out ``[T, C, D, P]``, and the masses the cuts left out
    (scoring doubles, FORCE trimming, FLAIR trimming)."""
    _, cut_tail = doubles_cutoff(options, _CUT_BUDGET)
    force_part, force_cut = _trim(_force_array(force), _TRIM_BUDGET / 2)  # all worked out at start
    flair_part, flair_cut = _trim(_flair_part(options, scope), _TRIM_BUDGET / 2)
    # Cells laid out as [T, C, D, P]: among lines with equal points, equal tries and conversions fix
    # P + D, so this layout already runs in count-back order (by D) and a stable sort on points
    # alone (a radix sort on int16) sorts by the whole key. The parts are convolved in that layout,
    # so that the result needs no copy into it.
    cells = _convolve(np.moveaxis(force_part, 2, 3), np.moveaxis(flair_part, 2, 3))
    return cells, (cut_tail, force_cut, flair_cut)


def joint_array(force: int, options: int) -> FloatArray:
    """The dense array behind ``joint_lines(force, options)``, indexed ``[tries, conversions,
    penalties, drop_goals]`` (read-only), before the smallest entries are pruned. Worked out on each
    call, not cached: only tests and the lab's checks read it.

    >>> joint_array(1, 0)[:, 0, :, 0].tolist() == [[2 / 3, 1 / 6], [1 / 6, 0.0]]
    True
    """
    cells, _ = _cells(force, options)
    array: FloatArray = np.moveaxis(cells, 3, 2)
    array.setflags(write=False)
    return array


def _joint_lines(force: int, options: int, scope: Hashable | None = None) -> JointLines:
    cells, (cut_tail, force_cut, flair_cut) = _cells(force, options, scope)
    t, c, d, p = cells.shape
    most_points = sum(w * (n - 1) for w, n in zip(POINT_WEIGHTS, (t, c, p, d), strict=True))
    if max(cells.shape) >= _LIMIT or most_points >= 2**15:  # never for legal orders (R3)
        raise ValueError(f"lines up to {(t, c, p, d)} are beyond the count-back key's range")
    layout = cells.shape
    flat = cells.ravel()
    # Entries below size/budget can be pruned whatever their number: they weigh at most the budget.
    small = flat <= _PRUNE_BUDGET / flat.size
    pruned = float(flat[small].sum())
    kept = np.flatnonzero(~small)
    weights = (POINT_WEIGHTS[0], POINT_WEIGHTS[1], POINT_WEIGHTS[3], POINT_WEIGHTS[2])
    points = _linear_grid(layout, weights, np.int16).ravel()[kept]
    order = kept[np.argsort(points, kind="stable")]
    key_weights = (_KEY_WEIGHTS[0], _KEY_WEIGHTS[1], _KEY_WEIGHTS[3], _KEY_WEIGHTS[2])
    sorted_keys = _linear_grid(layout, key_weights, np.int64).ravel()[order]
    sorted_probs = flat[order]
    # Plain float64 prefix sums: each is off by at most n * 2**-53 of its value (n <= ~1e6).
    below = np.empty(len(sorted_probs) + 1)
    below[0] = 0.0
    np.cumsum(sorted_probs, out=below[1:])
    above = np.empty(len(sorted_probs) + 1)
    above[-1] = 0.0
    np.cumsum(sorted_probs[::-1], out=above[-2::-1])
    for part in (sorted_keys, sorted_probs, below, above):
        part.setflags(write=False)
    tail = round_up(cut_tail) + force_cut + flair_cut + pruned
    return JointLines(sorted_keys, sorted_probs, below, above, tail)
