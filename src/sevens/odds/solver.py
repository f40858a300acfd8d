"""The match solver: one match between two budgets as a zero-sum matrix game, solved exactly.

Each side spends its whole budget on one match and chooses only the split: ``flair = 0, 3, 6, ...``
FLAIR points and the rest in FORCE (R3). The payoff to side A of the pair of splits ``(i, j)`` is

* group rules: ``P(A scores more) + P(level on points) / 2`` (a draw is worth half a win);
* knockout rules: ``P(A wins on count-back) + P(lines identical) / 2`` (R9: points, tries,
  conversions, drop goals; what is still level goes to the group record or lots, which a single
  match cannot know, so it counts as an even chance).

The game is constant-sum (B's payoff is ``1 -`` A's), so A's optimal mixed split maximises the
worst case over B's splits, and B's minimises A's best case; both come from a linear program
solved with scipy's HiGHS, and their values meet (von Neumann's minimax theorem). A pure saddle
point, where there is one, is found exactly before any linear program. The payoff entries come
from the exact distributions of :mod:`sevens.odds` and carry their tail bounds:
:attr:`MatchSolution.error_bound` adds those to what the two mixes actually guarantee each other
(the linear programs stop within a tolerance), so the value is exact to within it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np
from numpy.typing import NDArray

from sevens.odds import joint
from sevens.odds.joint import JointLines, joint_lines, key_cells, lines_shape
from sevens.odds.points import order_points
from sevens.odds.tables import POINT_WEIGHTS
from sevens.rules import FLAIR_OPTION_COST, MAX_ORDER_POINTS, Order

__all__ = [
    "MatchRules",
    "MatchSolution",
    "MixedSplit",
    "match_payoff",
    "optimal_split",
    "payoff_matrix",
    "row_optimum",
    "row_strategy",
    "solve_matrix_game",
    "solve_match",
    "splits",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

# A probability below this in an optimal mix is LP noise, not part of the support.
_SUPPORT_FLOOR = 1e-9


class MatchRules(StrEnum):
    """Which rules decide the match: group (draws allowed) or knockout (count-back, R9)."""

    GROUP = "group"
    KNOCKOUT = "knockout"


def _check_budget(name: str, budget: object) -> int:
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise ValueError(f"R3: budget {name} must be a whole number of SCRUM points, got {budget!r}")
    if not 0 <= budget <= MAX_ORDER_POINTS:
        raise ValueError(
            f"R3: budget {name} must be from 0 to {MAX_ORDER_POINTS} SCRUM points (the most a team "
            f"can hold), got {budget}"
        )
    return budget


def splits(budget: int) -> tuple[Order, ...]:
    """Every way to spend all of ``budget`` on one match: FLAIR 0, 3, 6, ... and FORCE the rest (R3).

    Args:
        budget: SCRUM points spent on the match, 0 to 160.

    Returns:
        The orders from all FORCE to the most FLAIR.

    >>> [(o.force, o.flair) for o in splits(7)]
    [(7, 0), (4, 3), (1, 6)]
    >>> splits(161)
    Traceback (most recent call last):
    ...
    ValueError: R3: budget A must be from 0 to 160 SCRUM points (the most a team can hold), got 161
    """
    budget = _check_budget("A", budget)
    return tuple(
        Order(force=budget - flair, flair=flair) for flair in range(0, budget + 1, FLAIR_OPTION_COST)
    )


def _group_matrix(rows: tuple[Order, ...], cols: tuple[Order, ...]) -> tuple[FloatArray, float]:
    row_pmfs = [order_points(o.force, o.options) for o in rows]
    col_pmfs = [order_points(o.force, o.options) for o in cols]
    width = max(len(pmf) for pmf, _ in (*row_pmfs, *col_pmfs))
    a = np.zeros((len(rows), width))
    b = np.zeros((len(cols), width))
    for i, (pmf, _) in enumerate(row_pmfs):
        a[i, : len(pmf)] = pmf
    for j, (pmf, _) in enumerate(col_pmfs):
        b[j, : len(pmf)] = pmf
    # below[j, s] = P(B's points < s): A wins with s points against everything below.
    below = np.concatenate((np.zeros((len(cols), 1)), np.cumsum(b, axis=1)[:, :-1]), axis=1)
    matrix: FloatArray = a @ below.T + 0.5 * (a @ b.T)
    bound = max(float(t) for _, t in row_pmfs) + max(float(t) for _, t in col_pmfs)
    return matrix, bound


def _knockout_entry(a: JointLines, b: JointLines) -> float:
    left = np.searchsorted(b.keys, a.keys, side="left")
    right = np.searchsorted(b.keys, a.keys, side="right")
    # P(B below A's line) + half of P(B's line is A's line), weighted by A's line.
    return float(a.probs @ (0.5 * (b.below[left] + b.below[right])))


def _knockout_matrix(rows: tuple[Order, ...], cols: tuple[Order, ...]) -> tuple[FloatArray, float]:
    orders = tuple(dict.fromkeys((*rows, *cols)))
    # Every key of every order on one sorted scale: each column is then one cumulative sum over
    # it, and each entry a gather, instead of two binary searches per pair of orders (which took
    # most of a minute for two budgets of 100).
    tries, conversions, penalties, drop_goals = (
        max(sizes) for sizes in zip(*(lines_shape(o.force, o.options) for o in orders), strict=True)
    )
    scale = _Scale((tries, conversions, drop_goals, penalties))
    # Each order is used once here: where their lines outgrow the cache (every split of 160 fills it
    # six times over), adding them would hold half a GB of lines this pass never reads again.
    keep = sum(math.prod(lines_shape(o.force, o.options)) * 8 for o in orders) <= joint.CACHE_BYTES
    # Only each order's chances and its keys' places on the scale are kept here, so that the rest of
    # its joint lines (about 60 MB for a large order) can leave the bounded cache: every split of
    # 160 held 4.3 GB at once when they were all kept, and 2.0 GB with every key kept.
    probs: dict[Order, FloatArray] = {}
    bounds: dict[Order, float] = {}
    cells: dict[Order, NDArray[np.int32]] = {}
    # Largest first: working out an order's lines takes several times their size for a moment, and
    # that moment is then when least of the others' is held (the scale is the same in any order).
    for order in sorted(orders, key=lambda o: -math.prod(lines_shape(o.force, o.options))):
        found = joint_lines(order.force, order.options, keep=keep)
        probs[order], bounds[order] = found.probs, found.tail_bound
        cells[order] = scale.add(found.keys)
        del found
    index = scale.places(cells)
    size = scale.size
    matrix = np.empty((len(rows), len(cols)))
    dense = np.empty(size)
    half = np.empty(size)
    beaten = np.empty(size)
    gathered = np.empty(max(len(p) for p in probs.values()))
    for j, order in enumerate(cols):
        dense.fill(0.0)
        dense[index[order]] = probs[order]
        # P(B below the key) + half of P(B at the key), for every key of the scale.
        np.cumsum(dense, out=beaten)
        np.multiply(dense, 0.5, out=half)
        beaten -= half
        for i, row in enumerate(rows):
            at = gathered[: len(probs[row])]
            # take into one buffer rather than beaten[index[row]], which allocates each time: a
            # tenth less time; clip checks no index, and every index is on the scale.
            np.take(beaten, index[row], out=at, mode="clip")
            # einsum, not @: numpy's BLAS dot on these vectors took four times as long.
            matrix[i, j] = np.einsum("i,i->", probs[row], at)
    bound = max(bounds[o] for o in rows) + max(bounds[o] for o in cols)
    return matrix, bound


class _Scale:
    """Count-back keys of several orders placed on one scale: the union of their keys, sorted.

    Each key is a line, so the scale is the set of lines any of the orders can score, kept as a grid
    of lines laid out as tries, conversions, drop goals, penalties (``layout``, large enough for
    every order). In that layout the cells of equal points already run in count-back order (as in
    :mod:`sevens.odds.joint`), so a stable sort on points orders the scale. For every split of 160
    this takes 2.0 s of CPU where sorting their 45 million keys together and searching the result
    took 3.6 s, and their concatenation and its sorted copy held 0.7 GB more at the peak.

    >>> from sevens.odds.joint import countback_key
    >>> scale = _Scale((2, 1, 1, 2))
    >>> cells = {"3 or 5": scale.add(np.array([countback_key(p, p == 5, 0, 0) for p in (0, 3, 5)])),
    ...          "5": scale.add(np.array([countback_key(5, 1, 0, 0)]))}
    >>> places = scale.places(cells)
    >>> scale.size, places["3 or 5"].tolist(), places["5"].tolist(), cells
    (3, [0, 1, 2], [2], {})
    """

    def __init__(self, layout: tuple[int, int, int, int]) -> None:
        self.layout = layout
        self.seen = np.zeros(math.prod(layout), dtype=bool)
        self.size = 0

    def add(self, keys: IntArray) -> NDArray[np.int32]:
        """Put these keys on the scale; returns their cells on the grid, for :meth:`places`."""
        _, conversions, drop_goals, penalties = self.layout
        t, c, p, d = key_cells(keys)
        cell = ((t * conversions + c) * drop_goals + d) * penalties + p
        self.seen[cell] = True
        return cell.astype(np.int32)  # half the memory; the grid has far fewer than 2**31 cells

    def places(self, cells: dict[Order, NDArray[np.int32]]) -> dict[Order, NDArray[np.int32]]:
        """Where each order's keys stand on the finished scale, from the cells :meth:`add` returned
        (emptying ``cells`` as it goes, so that each is freed once placed)."""
        on_scale = np.flatnonzero(self.seen)
        t, c, d, p = np.unravel_index(on_scale, self.layout)
        points = POINT_WEIGHTS[0] * t + POINT_WEIGHTS[1] * c + POINT_WEIGHTS[3] * d + POINT_WEIGHTS[2] * p
        del t, c, d, p
        # int16, which numpy sorts stably by radix: the points of any legal order fit (see joint).
        ordered = on_scale[np.argsort(points.astype(np.int16), kind="stable")]
        del on_scale, points
        rank = np.empty(len(self.seen), dtype=np.int32)
        rank[ordered] = np.arange(len(ordered), dtype=np.int32)
        self.size = len(ordered)
        index: dict[Order, NDArray[np.int32]] = {}
        for order in list(cells):
            # Into the cells' own array: int32, as numpy takes as fast as int64 here, and half
            # the size (the whole index of every split of 160 took 356 MB as int64).
            cell = cells.pop(order)
            index[order] = np.take(rank, cell, out=cell)
        return index


def payoff_matrix(a: int, b: int, *, knockout: bool = False) -> FloatArray:
    """A's payoff for every pair of splits: rows are :func:`splits` of ``a``, columns of ``b``.

    Args:
        a: SCRUM points side A spends.
        b: SCRUM points side B spends.
        knockout: count-back rules (R9) instead of group rules.

    Returns:
        ``P(A wins) + P(level) / 2`` for each pair, an array of shape ``(len(splits(a)), len(splits(b)))``.

    >>> m = payoff_matrix(1, 0)
    >>> m.shape, round(float(m[0, 0]), 12)  # one die: 3 or 5 wins (1/3), else 0-0 (half of 2/3)
    ((1, 1), 0.666666666667)
    """
    return _matrix(a, b, knockout)[0]


def _matrix(a: int, b: int, knockout: bool) -> tuple[FloatArray, float]:
    rows = splits(_check_budget("A", a))
    cols = splits(_check_budget("B", b))
    return _knockout_matrix(rows, cols) if knockout else _group_matrix(rows, cols)


def match_payoff(a: Order, b: Order, *, knockout: bool = False) -> float:
    """A's payoff, ``P(win) + P(level) / 2``, when A plays order ``a`` and B plays ``b``.

    >>> round(match_payoff(Order(3, 0), Order(0, 0)), 12) == round(23 / 27, 12)
    True
    """
    if knockout:
        return _knockout_entry(joint_lines(a.force, a.options), joint_lines(b.force, b.options))
    return float(_group_matrix((a,), (b,))[0][0, 0])


def solve_matrix_game(payoff: FloatArray) -> tuple[float, FloatArray, FloatArray]:
    """Solve a zero-sum matrix game for the row player (the maximiser) by linear programming.

    Row player: maximise ``v`` subject to ``x @ payoff[:, j] >= v`` for every column ``j``,
    ``sum(x) = 1``, ``x >= 0``. Column player: minimise ``w`` subject to ``payoff[i] @ y <= w``.
    Both programs are solved with HiGHS; by the minimax theorem ``v == w``. Where the matrix has a
    pure saddle point (a row whose worst entry is a column's best), that row and column are the
    answer, exactly: the programs' tolerance could otherwise pick a nearly optimal row instead.

    Args:
        payoff: the row player's payoffs, shape ``(m, n)``.

    Returns:
        ``(value, x, y)``: the value and both players' optimal mixed strategies.

    Matching pennies, value 1/2 and both players mix half and half:

    >>> v, x, y = solve_matrix_game(np.array([[1.0, 0.0], [0.0, 1.0]]))
    >>> round(v, 9), x.round(9).tolist(), y.round(9).tolist()
    (0.5, [0.5, 0.5], [0.5, 0.5])
    """
    matrix = _checked(payoff)
    worst, best = matrix.min(axis=1), matrix.max(axis=0)
    i, j = int(np.argmax(worst)), int(np.argmin(best))
    if worst[i] >= best[j]:
        x, y = np.zeros(matrix.shape[0]), np.zeros(matrix.shape[1])
        x[i] = y[j] = 1.0
        return float(matrix[i, j]), x, y
    # HiGHS's default tolerance (1e-7) let a split 3e-8 short of optimal pass for the optimum.
    value, x = row_strategy(matrix, tolerance=_TIGHT)
    # The column player maximises the negated, transposed game: the same program as minimising
    # w subject to M[i] @ y <= w, with w = -v.
    _, y = row_strategy(-matrix.T, tolerance=_TIGHT)
    return value, x, y


_TIGHT = 1e-10  # the smallest feasibility tolerance HiGHS accepts


def _checked(payoff: FloatArray) -> FloatArray:
    matrix = np.asarray(payoff, dtype=np.float64)
    if matrix.ndim != 2 or 0 in matrix.shape:
        raise ValueError(f"a payoff matrix must be two-dimensional and non-empty, got shape {matrix.shape}")
    return matrix


def row_strategy(payoff: FloatArray, *, tolerance: float | None = None) -> tuple[float, FloatArray]:
    """The row player's half of :func:`solve_matrix_game`: the value and an optimal mixed strategy,
    from one linear program (for a player that needs only its own side). ``tolerance``: HiGHS's
    feasibility tolerances (default: HiGHS's own, 1e-7, which the bots' recorded decisions were
    made with and replay with).

    >>> v, x = row_strategy(np.array([[1.0, 0.0], [0.0, 1.0]]))
    >>> round(v, 9), x.round(9).tolist()
    (0.5, [0.5, 0.5])
    """
    # Imported here: scipy.optimize takes half a second to load, and most commands that import
    # sevens.odds (play, serve, lab with pacing strategies) never solve a game.
    from scipy.optimize import linprog

    matrix = _checked(payoff)
    m, n = matrix.shape
    # Variables (x_1..x_m, v); minimise -v; v - x @ M[:, j] <= 0.
    row = linprog(
        c=np.concatenate((np.zeros(m), [-1.0])),
        A_ub=np.hstack((-matrix.T, np.ones((n, 1)))),
        b_ub=np.zeros(n),
        A_eq=np.concatenate((np.ones(m), [0.0]))[None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * m + [(None, None)],
        method="highs",
        options={} if tolerance is None else {
            "primal_feasibility_tolerance": tolerance, "dual_feasibility_tolerance": tolerance
        },
    )
    if row.status != 0:  # pragma: no cover - a bounded feasible LP always solves
        raise RuntimeError(f"the linear program failed: {row.message}")
    return float(-row.fun), _clean(np.asarray(row.x[:m]))


def _clean(mix: FloatArray) -> FloatArray:
    mix = np.where(mix < _SUPPORT_FLOOR, 0.0, mix)
    cleaned: FloatArray = mix / mix.sum()
    return cleaned


@dataclass(frozen=True, slots=True)
class MixedSplit:
    """One side's optimal mix: the orders played with positive probability.

    >>> MixedSplit(((Order(0, 9), 1.0),)).pure
    Order(force=0, flair=9)
    """

    support: tuple[tuple[Order, float], ...]

    @property
    def pure(self) -> Order | None:
        """The order, if the mix is a single one (a pure strategy)."""
        return self.support[0][0] if len(self.support) == 1 else None

    @property
    def mean_flair_share(self) -> float:
        """Expected share of the budget put into FLAIR (0 for all FORCE, 1 for all FLAIR)."""
        total = sum(p * order.total for order, p in self.support)
        if total == 0:
            return 0.0
        return sum(p * order.flair for order, p in self.support) / total

    def to_dict(self) -> list[dict[str, Any]]:
        return [{"force": o.force, "flair": o.flair, "probability": p} for o, p in self.support]


@dataclass(frozen=True, slots=True, eq=False)
class MatchSolution:
    """The solved match: value to A, optimal mixes of both sides, and the payoff matrix.

    Attributes:
        a: SCRUM points A spends.
        b: SCRUM points B spends.
        rules: group or knockout rules.
        value: A's expected payoff, ``P(win) + P(level) / 2``, when both play optimally.
        mix_a: A's optimal mixed split.
        mix_b: B's optimal mixed split.
        payoff: A's payoff matrix (rows: A's splits, columns: B's splits).
        error_bound: how far the value may be from the exact one: the payoff entries' tail bound
            plus half the gap between what the two mixes guarantee (0 at a pure saddle point).
    """

    a: int
    b: int
    rules: MatchRules
    value: float
    mix_a: MixedSplit
    mix_b: MixedSplit
    payoff: FloatArray
    error_bound: float

    @property
    def pure_saddle(self) -> tuple[Order, Order] | None:
        """The pair of orders, if both optimal mixes are pure (a saddle point in pure strategies)."""
        pa, pb = self.mix_a.pure, self.mix_b.pure
        return (pa, pb) if pa is not None and pb is not None else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: budgets, rules, value, each side's mix.

        >>> solve_match(3, 0).to_dict()["a"]["mix"]
        [{'force': 3, 'flair': 0, 'probability': 1.0}]
        """
        return {
            "rules": str(self.rules),
            "value": self.value,
            "error_bound": self.error_bound,
            "a": {"budget": self.a, "mix": self.mix_a.to_dict()},
            "b": {"budget": self.b, "mix": self.mix_b.to_dict()},
        }


def _mix(orders: tuple[Order, ...], weights: FloatArray) -> MixedSplit:
    return MixedSplit(tuple((o, float(w)) for o, w in zip(orders, weights, strict=True) if w > 0))


def optimal_split(a: int, b: int, *, knockout: bool = False) -> MixedSplit:
    """An optimal mixed split for A against a side spending ``b``, for a player that needs only
    its own side: the first pure split that is a saddle point when there is one, else the linear
    program's mix (:func:`row_strategy`).

    A saddle point is an exact optimum of the matrix (the split earns at least its row's minimum
    against every split of B, and some split of B holds every split of A to no more), and it needs
    no linear program. Where several splits are optimal, :func:`solve_match` may report another.

    >>> optimal_split(3, 0).pure
    Order(force=3, flair=0)
    >>> optimal_split(20, 20).pure  # at equal budgets, all the FLAIR it can buy
    Order(force=2, flair=18)
    """
    return _mix(splits(a), row_optimum(_matrix(a, b, knockout)[0]))


def row_optimum(payoff: FloatArray) -> FloatArray:
    """An optimal mixed strategy for the row player: the first pure saddle row if there is one,
    else :func:`row_strategy`'s.

    >>> row_optimum(np.array([[0.3, 0.9], [0.6, 0.7]])).tolist()  # row 2 guarantees 0.6
    [0.0, 1.0]
    >>> row_optimum(np.array([[1.0, 0.0], [0.0, 1.0]])).round(9).tolist()  # no saddle: mixed
    [0.5, 0.5]
    """
    matrix = _checked(payoff)
    worst = matrix.min(axis=1)
    best = int(np.argmax(worst))
    if worst[best] >= matrix.max(axis=0).min():
        pure = np.zeros(matrix.shape[0])
        pure[best] = 1.0
        return pure
    return row_strategy(matrix)[1]


def solve_match(a: int, b: int, *, knockout: bool = False) -> MatchSolution:
    """Solve the match between a side spending ``a`` and a side spending ``b``.

    Args:
        a: SCRUM points side A spends (0 to 160).
        b: SCRUM points side B spends (0 to 160).
        knockout: count-back rules (R9) instead of group rules.

    Returns:
        The value to A and both optimal mixed splits.

    Three points against nothing: three FORCE dice score with chance 19/27, one FLAIR option
    with chance 11/16, so A plays FORCE and the value is 19/27 + (8/27) / 2 = 23/27.

    >>> s = solve_match(3, 0)
    >>> s.mix_a.pure, round(s.value * 27, 9)
    (Order(force=3, flair=0), 23.0)
    """
    rules = MatchRules.KNOCKOUT if knockout else MatchRules.GROUP
    matrix, bound = _matrix(a, b, knockout)
    _, x, y = solve_matrix_game(matrix)
    # What A's mix earns against B's best reply, and what B's mix concedes to A's: the value lies
    # between, exactly for this matrix, whatever tolerance the programs stopped at.
    low, high = float((x @ matrix).min()), float((matrix @ y).max())
    return MatchSolution(
        a=a,
        b=b,
        rules=rules,
        value=(low + high) / 2,
        mix_a=_mix(splits(a), x),
        mix_b=_mix(splits(b), y),
        payoff=matrix,
        error_bound=bound + max(high - low, 0.0) / 2,
    )
