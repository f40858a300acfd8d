"""Compiled loops (numba) for the batched simulator: decisions, lines, matches and tables.

:mod:`sevens.lab.simulate` works turn by turn over the whole batch with numpy. That costs many
passes over large arrays per turn (one per step of every rule), so most of the time goes to memory
traffic and temporaries rather than to the dice. The functions here do the same work in one
compiled loop per turn: for each tournament and match, the orders of the built-in pacing
strategies, both lines through the alias tables of :class:`~sevens.lab.sampling.TableSampler`,
the result, and the bookkeeping (league points, totals, head-to-head, SCRUM, count-back).

They draw from the batch's own :class:`numpy.random.Generator` (numba reads and advances its
state), so a seed gives the same batch every time. The draws are the same laws as the numpy path's,
not the same stream: a uniform is drawn only where it matters (no coin for a one-cell table, lots
only where teams are still level), which changes no distribution because every draw is independent
of whether another was made.

Without numba (:data:`AVAILABLE` false) the functions still run as plain Python, too slowly to be
useful; the simulator then keeps to its numpy path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from sevens.lab.strategies import EvenPacing, GroupBlitzPacing, KnockoutSaverPacing, RandomPacing

_njit: Any
try:
    from numba import njit as _njit
except ImportError:  # pragma: no cover - numba is a dependency; this keeps the numpy path usable
    _njit = None

__all__ = [
    "AVAILABLE",
    "EVEN",
    "GROUP_BLITZ",
    "KNOCKOUT_SAVER",
    "RANDOM",
    "final_tables",
    "first_knockout",
    "play_round",
    "spec",
]

AVAILABLE: bool = _njit is not None
"""Whether the compiled loops can be used."""

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
_F = TypeVar("_F", bound=Callable[..., Any])

EVEN, GROUP_BLITZ, KNOCKOUT_SAVER, RANDOM = 0, 1, 2, 3
"""Kinds of built-in pacing that :func:`decide` computes in the loop."""


def _jit(fn: _F) -> _F:
    if _njit is None:  # pragma: no cover
        return fn
    compiled: _F = _njit(cache=True, nogil=True)(fn)
    return compiled


def spec(strategy: object) -> tuple[int, float, float] | None:
    """``(kind, parameter, FLAIR share)`` of a built-in pacing strategy, or None for any other.

    The share is NaN for the bots' jittered mix. Only the exact built-in classes qualify (a
    subclass may change ``orders``).

    >>> spec(EvenPacing(flair=1.0))
    (0, 0.0, 1.0)
    >>> spec(object()) is None
    True
    """
    kind = type(strategy)
    if kind is EvenPacing:
        assert isinstance(strategy, EvenPacing)
        return (EVEN, 0.0, np.nan if strategy.flair is None else float(strategy.flair))
    if kind is GroupBlitzPacing:
        assert isinstance(strategy, GroupBlitzPacing)
        return (GROUP_BLITZ, float(strategy.reserve), np.nan)
    if kind is KnockoutSaverPacing:
        assert isinstance(strategy, KnockoutSaverPacing)
        return (KNOCKOUT_SAVER, float(strategy.share), np.nan)
    if kind is RandomPacing:
        return (RANDOM, 0.0, np.nan)
    return None


@_jit
def _ceil_div(a: int, b: int) -> int:
    if b <= 0:
        return 0
    return -(-a // b)


@_jit
def _order(
    kind: int, param: float, fixed_share: float, held: int, turns_left: int, group_left: int, base: float,
    max_points: int, option_cost: int, rng: np.random.Generator,
) -> tuple[int, int]:
    """One team's order from a built-in pacing strategy: the formulas of :mod:`sevens.lab.strategies`."""
    if kind == RANDOM:
        total = int(rng.integers(0, min(held, max_points) + 1))
        share = rng.random()
    else:
        if kind == EVEN or group_left == 0:
            total = _ceil_div(held, turns_left)
        elif kind == GROUP_BLITZ:
            total = _ceil_div(max(held - int(param) * (turns_left - group_left), 0), group_left)
        else:
            total = int(np.ceil(held * param))
        share = fixed_share
        if np.isnan(share):
            share = base + (-0.1 + 0.2 * rng.random())  # numpy's uniform(-0.1, 0.1)
    # split_orders: cut to the SCRUM held and to the order limit, whole FLAIR options.
    total = max(0, min(total, held, max_points))
    share = min(max(share, 0.0), 1.0)
    opts = min(int(np.rint(total * share / option_cost)), total // option_cost)
    return total - opts * option_cost, opts


@_jit
def _draw(rng: np.random.Generator, tid: int, index: IntArray, cells: IntArray, coins: FloatArray) -> int:
    # A cell is (coin, its line, its alias's line): one cache line per draw.
    n = index[tid, 0]
    first = index[tid, 1]
    if n == 1:
        return int(cells[first, 1])
    x = rng.random() * n
    cell = min(int(x), n - 1)
    j = first + cell
    # Branch-free: the coin is a fair guess half the time, so a branch would often mispredict.
    return int(cells[j, 2 - int(x - cell < coins[j, 0])])


@_jit
def play_round(
    knockout: bool,
    fused: bool,
    start: int,
    decided_first: bool,
    kinds: IntArray,
    params: FloatArray,
    shares: FloatArray,
    seats: IntArray,
    turns_left: int,
    group_left: int,
    limits: IntArray,
    home: IntArray,
    away: IntArray,
    force: IntArray,
    options: IntArray,
    index: IntArray,
    cells: IntArray,
    coins: FloatArray,
    missing: IntArray,
    rng: np.random.Generator,
    weights: IntArray,
    scrum: IntArray,
    lp: IntArray,
    tries_for: IntArray,
    tries_against: IntArray,
    points_for: IntArray,
    points_against: IntArray,
    h2h: IntArray,
    group_lines: IntArray,
    round_index: int,
    record: IntArray,
    winners: IntArray,
    knockout_wins: IntArray,
    reached: IntArray,
    decided: IntArray,
    stage_sums: IntArray,
    counters: IntArray,
) -> int:
    """One round of every tournament, from match ``start`` (flat ``b * M + k``) on.

    With ``fused``, each team's order comes from its built-in pacing strategy (kinds, params,
    shares per strategy; see :func:`spec`) and is written to ``force``/``options``; otherwise the
    orders are read from them. Slot ``k`` is match ``k``'s home team, ``M + k`` its away team.
    Lines are drawn through the alias tables (``index``: cells and first cell per table id;
    ``cells``: alias coin bits, line, alias's line; ``coins``: the same memory as floats).

    Group rounds (seed 6, R4, R7) add league points, totals, head-to-head and group lines; knockout
    rounds decide by R9 (points, tries, conversions, drop goals, group record, lots) and write
    ``winners``. ``limits`` holds (order limit, FLAIR option cost, win bonus, first FLAIR table id).

    Returns -1 when the round is done, or the match where it stopped because a table is not
    built yet (its ids in ``missing``, -1 for none); the orders of that match are then already
    written, and the caller builds the tables and calls again with ``decided_first``.
    """
    batch, m = home.shape
    max_points, option_cost, win_bonus, flair_base = limits[0], limits[1], limits[2], limits[3]
    base = 0.6 if knockout else 0.5
    keys = np.empty((2, 5), dtype=np.int64)
    lines = np.empty((2, 4), dtype=np.int64)
    for flat in range(start, batch * m):
        b = flat // m
        k = flat - b * m
        h = home[b, k]
        a = away[b, k]
        if fused and not (decided_first and flat == start):
            for side in range(2):
                team = h if side == 0 else a
                s = seats[b, team]
                f, o = _order(
                    kinds[s], params[s], shares[s], scrum[b, team], turns_left, group_left, base, max_points,
                    option_cost, rng,
                )
                force[b, k + side * m] = f
                options[b, k + side * m] = o
        gap = False
        for side in range(2):
            j = k + side * m
            missing[2 * side] = -1 if index[force[b, j], 0] > 0 else force[b, j]
            missing[2 * side + 1] = -1 if index[flair_base + options[b, j], 0] > 0 else flair_base + options[b, j]
            gap = gap or missing[2 * side] >= 0 or missing[2 * side + 1] >= 0
        if gap:
            return flat
        for side in range(2):
            j = k + side * m
            team = h if side == 0 else a
            packed_line = _draw(rng, force[b, j], index, cells, coins) + _draw(
                rng, flair_base + options[b, j], index, cells, coins
            )
            total = 0
            for c in range(4):
                v = (packed_line >> (16 * c)) & 0xFFFF
                lines[side, c] = v
                stage_sums[c] += v
                total += weights[c] * v
            keys[side, 0] = total
            scrum[b, team] -= force[b, j] + option_cost * options[b, j]
        hp, ap = keys[0, 0], keys[1, 0]
        if knockout:
            for side in range(2):
                team = h if side == 0 else a
                keys[side, 1] = lines[side, 0]  # tries
                keys[side, 2] = lines[side, 1]  # conversions
                keys[side, 3] = lines[side, 3]  # drop goals
                keys[side, 4] = record[b, team]
                reached[b, team] += 1
            step = 0
            while step < 5 and keys[0, step] == keys[1, step]:
                step += 1
            home_wins = keys[0, step] > keys[1, step] if step < 5 else rng.random() < 0.5
            decided[step] += 1
            winner = h if home_wins else a
            winners[b, k] = winner
            scrum[b, winner] += win_bonus
            knockout_wins[b, winner] += 1
            continue
        if hp > ap:
            home_lp, away_lp = 2, 0
            scrum[b, h] += win_bonus
        elif ap > hp:
            home_lp, away_lp = 0, 2
            scrum[b, a] += win_bonus
        else:
            home_lp, away_lp = 1, 1
            counters[0] += 1
        for c in range(4):
            group_lines[b, round_index, k, 0, c] = lines[0, c]
            group_lines[b, round_index, k, 1, c] = lines[1, c]
        lp[b, h] += home_lp
        lp[b, a] += away_lp
        tries_for[b, h] += lines[0, 0]
        tries_for[b, a] += lines[1, 0]
        tries_against[b, h] += lines[1, 0]
        tries_against[b, a] += lines[0, 0]
        points_for[b, h] += hp
        points_for[b, a] += ap
        points_against[b, h] += ap
        points_against[b, a] += hp
        h2h[b, h, a % 4] += home_lp
        h2h[b, a, h % 4] += away_lp
    return -1


@_jit
def final_tables(
    lp: IntArray,
    tries_for: IntArray,
    points_for: IntArray,
    tries_against: IntArray,
    points_against: IntArray,
    h2h: IntArray,
    rng: np.random.Generator,
    position: IntArray,
    record: IntArray,
    decided: IntArray,
) -> bool:
    """R8 over every group: places, the packed group record (R9) and the decided-by counts.

    A place is decided by the latest first difference, along R8's chain, against any other team
    of its group (as the numpy path counts). Lots are drawn only for groups that need them.
    Returns False if a total is beyond the packed record's range.
    """
    batch, teams = lp.shape
    bits = (4, 12, 14, 12, 14)
    chain = np.empty((4, 7), dtype=np.int64)
    full = np.empty(4, dtype=np.int64)
    lots = np.empty(4, dtype=np.float64)
    for b in range(batch):
        for t in range(teams):
            key = 0
            for c in range(5):
                if c == 0:
                    v = lp[b, t]
                elif c == 1:
                    v = tries_for[b, t]
                elif c == 2:
                    v = points_for[b, t]
                elif c == 3:
                    v = -tries_against[b, t]
                else:
                    v = -points_against[b, t]
                half = 1 << (bits[c] - 1)
                if abs(v) >= half:
                    return False
                key = (key << bits[c]) | (v + half)
            record[b, t] = key
        for g in range(teams // 4):
            first = 4 * g
            for i in range(4):
                t = first + i
                chain[i, 0] = lp[b, t]
                chain[i, 1] = tries_for[b, t]
                chain[i, 2] = points_for[b, t]
                chain[i, 3] = -tries_against[b, t]
                chain[i, 4] = -points_against[b, t]
                # Head-to-head league points among exactly the teams level on all five (R8).
                hh = 0
                for q in range(4):
                    if record[b, first + q] == record[b, t]:
                        hh += h2h[b, t, q]
                chain[i, 5] = hh
                chain[i, 6] = 0
            need_lots = False
            for i in range(4):
                for q in range(i + 1, 4):
                    if record[b, first + i] == record[b, first + q] and chain[i, 5] == chain[q, 5]:
                        need_lots = True
            if need_lots:
                for i in range(4):
                    lots[i] = rng.random()
                for i in range(4):
                    rank = 0
                    for q in range(4):
                        if lots[q] < lots[i] or (lots[q] == lots[i] and q < i):
                            rank += 1
                    chain[i, 6] = rank
            for i in range(4):
                full[i] = (record[b, first + i] * 8 + chain[i, 5]) * 4 + chain[i, 6]
            for i in range(4):
                better = 0
                latest = -1
                for q in range(4):
                    if full[q] > full[i]:
                        better += 1
                    if q != i:
                        c = 0
                        while c < 7 and chain[i, c] == chain[q, c]:
                            c += 1
                        if c < 7 and c > latest:
                            latest = c
                position[b, first + i] = better + 1
                decided[better, latest] += 1
    return True


@_jit
def first_knockout(
    position: IntArray, home_spec: IntArray, away_spec: IntArray, home: IntArray, away: IntArray
) -> None:
    """R11's first knockout round from the final places: spec rows are (group, place - 1)."""
    batch, teams = position.shape
    at = np.empty((teams // 4, 4), dtype=np.int64)
    for b in range(batch):
        for t in range(teams):
            at[t // 4, position[b, t] - 1] = t
        for k in range(home_spec.shape[0]):
            home[b, k] = at[home_spec[k, 0], home_spec[k, 1]]
            away[b, k] = at[away_spec[k, 0], away_spec[k, 1]]
