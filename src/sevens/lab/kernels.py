"""Compiled loop (numba) for the batched simulator: whole tournaments, one after another.

:mod:`sevens.lab.simulate` works turn by turn over the whole batch with numpy. That costs many
passes over large arrays per turn (one per step of every rule), so most of the time goes to memory
traffic and temporaries rather than to the dice. :func:`play_tournaments` instead plays each
tournament from its first group match to its final in one compiled loop, with the tournament's
state in a few small arrays that stay in the processor's cache: the orders of the built-in pacing
strategies, both lines of every match through the alias tables of
:class:`~sevens.lab.sampling.TableSampler`, league points, totals, head-to-head, the R8 tables,
the R11 pairings and the R9 count-back.

Each tournament has its own random stream: xoshiro256** seeded through SplitMix64 from the batch's
key and the tournament's index. A seed therefore gives the same batch every time, a tournament can
be played again from its start (the loop stops at an order whose alias table is not built yet, and
the caller builds it and goes on), and threads can share the batch out without changing a result.
The draws follow the same laws as the numpy path's, not the same stream: a uniform is drawn only
where it matters (no coin for a one-cell table, lots only where teams are still level), which
changes no distribution because every draw is independent of whether another was made.

Without numba (:data:`AVAILABLE` false) the functions still run as plain Python, far too slowly to
be useful; the simulator then keeps to its numpy path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from sevens.lab.sampling import FLAIR_BASE
from sevens.lab.strategies import EvenPacing, GroupBlitzPacing, KnockoutSaverPacing, RandomPacing
from sevens.rules import FLAIR_OPTION_COST, MAX_ORDER_POINTS, STARTING_SCRUM, WIN_BONUS

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
    "new_state",
    "play_tournaments",
    "spec",
    "uniforms",
]

AVAILABLE: bool = _njit is not None
"""Whether the compiled loop can be used."""

IntArray = NDArray[np.int64]
UIntArray = NDArray[np.uint64]
FloatArray = NDArray[np.float64]
_F = TypeVar("_F", bound=Callable[..., Any])

EVEN, GROUP_BLITZ, KNOCKOUT_SAVER, RANDOM = 0, 1, 2, 3
"""Kinds of built-in pacing that :func:`play_tournaments` computes in the loop."""

# The rules' numbers as globals, which numba compiles in as constants (a division by the option
# cost becomes a multiplication).
_OPTION_COST = FLAIR_OPTION_COST
_MAX_POINTS = MAX_ORDER_POINTS
_WIN_BONUS = WIN_BONUS
_STARTING_SCRUM = STARTING_SCRUM
_FLAIR_BASE = FLAIR_BASE
_STATS = 5  # league points, tries for, points for, -tries against, -points against (R8)
_CHAIN = 7  # ... then head-to-head and lots
_RECORD_BITS = (4, 12, 14, 12, 14)  # packed group record (R9): the five totals, each offset


def _compiler(**options: Any) -> Callable[[_F], _F]:
    def compile_(fn: _F) -> _F:
        if _njit is None:  # pragma: no cover
            return fn
        compiled: _F = _njit(cache=True, nogil=True, error_model="numpy", **options)(fn)
        return compiled

    return compile_


_jit = _compiler()
# Inlined by numba itself: a call that passes arrays also counts references on each of them.
_inline = _compiler(inline="always")


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


# --- Random numbers: xoshiro256** (Blackman and Vigna), one stream per tournament --------------


@_inline
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@_inline
def _splitmix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


_STATE = 4  # xoshiro256**'s four words


def new_state() -> UIntArray:
    """Room for one stream's state."""
    return np.zeros(_STATE, dtype=np.uint64)


@_jit
def _seed(state: UIntArray, key: np.uint64, stream: int) -> None:
    """Stream ``stream`` of ``key``: four SplitMix64 outputs from a start the key and index fix."""
    z = key + np.uint64(stream) * np.uint64(0xD1B54A32D192ED03)
    for i in range(4):
        z += np.uint64(0x9E3779B97F4A7C15)
        state[i] = _splitmix(z)


@_inline
def _next(state: UIntArray) -> np.uint64:
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    state[0], state[1], state[2], state[3] = s0, s1, s2, _rotl(s3, 45)
    return result


@_inline
def _uniform(state: UIntArray) -> float:
    """The stream's next uniform in [0, 1), from the top 53 bits of xoshiro256**'s next output."""
    # Through int64: 53 bits fit, and a signed conversion is one instruction, an unsigned one many.
    return float(np.int64(_next(state) >> np.uint64(11))) * (1.0 / 9007199254740992.0)


def uniforms(key: int, stream: int, n: int) -> FloatArray:
    """The first ``n`` uniforms of a tournament's stream (for tests of the generator).

    >>> u = uniforms(1, 0, 4)
    >>> bool(((u >= 0) & (u < 1)).all()), len(set(u.tolist()))
    (True, 4)
    """
    return _uniforms(np.uint64(key), stream, n)


@_jit
def _uniforms(key: np.uint64, stream: int, n: int) -> FloatArray:
    state = np.empty(_STATE, dtype=np.uint64)
    _seed(state, key, stream)
    out = np.empty(n, dtype=np.float64)
    for i in range(n):
        out[i] = _uniform(state)
    return out


# --- One team's order, one line ------------------------------------------------------------------


@_inline
def _ceil_div(a: int, b: int) -> int:
    # Through a float division, far faster than an integer one; exact for these small numbers.
    if b <= 0:
        return 0
    return int(np.ceil(a / b))


@_inline
def _order(
    kind: int, param: float, fixed_share: float, held: int, turns_left: int, group_left: int, base: float,
    state: UIntArray,
) -> tuple[int, int]:
    """One team's order from a built-in pacing strategy: the formulas of :mod:`sevens.lab.strategies`."""
    if kind == RANDOM:
        top = min(held, _MAX_POINTS)
        total = min(int(_uniform(state) * (top + 1)), top)
        share = _uniform(state)
    else:
        if kind == EVEN or group_left == 0:
            total = _ceil_div(held, turns_left)
        elif kind == GROUP_BLITZ:
            total = _ceil_div(max(held - int(param) * (turns_left - group_left), 0), group_left)
        else:
            total = int(np.ceil(held * param))
        share = fixed_share
        if np.isnan(share):
            share = base + (-0.1 + 0.2 * _uniform(state))  # the bots' uniform(-0.1, 0.1)
    # split_orders: cut to the SCRUM held and to the order limit, whole FLAIR options.
    total = max(0, min(total, held, _MAX_POINTS))
    share = min(max(share, 0.0), 1.0)
    opts = min(int(np.rint(total * share / _OPTION_COST)), total // _OPTION_COST)
    return total - opts * _OPTION_COST, opts


@_inline
def _draw(
    state: UIntArray, tid: int, index: IntArray, split: FloatArray, cells: IntArray, coins: FloatArray
) -> int:
    """A packed line from table ``tid``: its head's alias table, or with the tail's probability
    its tail's (with a fresh uniform). A cell is its coin and both lines, 16 bytes, one read."""
    n = index[tid, 0]
    j = index[tid, 1]
    if n == 1 and index[tid, 2] == 0:
        return int(cells[j, 1] & 0xFFFFFFFF)
    u = _uniform(state)
    if u < split[tid, 0]:
        n = index[tid, 2]
        j = index[tid, 3]
        x = _uniform(state) * n
    else:
        x = (u - split[tid, 0]) * split[tid, 2] * n
    cell = min(int(x), n - 1)
    j += cell
    # Branch-free: the coin is a fair guess half the time, so a branch would often mispredict.
    return int((cells[j, 1] >> (32 * int(x - cell >= coins[j, 0]))) & 0xFFFFFFFF)


# --- The tables (R8) -------------------------------------------------------------------------------


@_jit
def _group_tables(
    teams: int, stats: IntArray, h2h: IntArray, state: UIntArray, chain: IntArray, lots: FloatArray,
    record: IntArray, position: IntArray, decided: IntArray,
) -> bool:
    """R8 in every group: places, packed group records (R9) and the decided-by counts.

    A place is decided by the latest first difference, along R8's chain, against any other team
    of its group (as the numpy path counts). Lots are drawn only for groups that need them.
    Returns False if a total is beyond the packed record's range.
    """
    for t in range(teams):
        key = 0
        for c in range(_STATS):
            half = 1 << (_RECORD_BITS[c] - 1)
            if abs(stats[t, c]) >= half:
                return False
            key = (key << _RECORD_BITS[c]) | (stats[t, c] + half)
        record[t] = key
    for g in range(teams // 4):
        first = 4 * g
        for i in range(4):
            t = first + i
            for c in range(_STATS):
                chain[i, c] = stats[t, c]
            # Head-to-head league points among exactly the teams level on all five (R8).
            hh = 0
            for q in range(4):
                if record[first + q] == record[t]:
                    hh += h2h[t, q]
            chain[i, 5] = hh
            chain[i, 6] = 0
        need_lots = False
        for i in range(4):
            for q in range(i + 1, 4):
                if record[first + i] == record[first + q] and chain[i, 5] == chain[q, 5]:
                    need_lots = True
        if need_lots:
            for i in range(4):
                lots[i] = _uniform(state)
            for i in range(4):
                rank = 0
                for q in range(4):
                    if lots[q] < lots[i] or (lots[q] == lots[i] and q < i):
                        rank += 1
                chain[i, 6] = rank
        for i in range(4):
            better = 0
            latest = -1
            full_i = (record[first + i] * 8 + chain[i, 5]) * 4 + chain[i, 6]
            for q in range(4):
                if (record[first + q] * 8 + chain[q, 5]) * 4 + chain[q, 6] > full_i:
                    better += 1
                if q != i:
                    c = 0
                    while c < _CHAIN and chain[i, c] == chain[q, c]:
                        c += 1
                    if c < _CHAIN and c > latest:
                        latest = c
            position[first + i] = better + 1
            decided[better, latest] += 1
    return True


# --- Whole tournaments ---------------------------------------------------------------------------


@_jit
def play_tournaments(
    start: int,
    stop: int,
    key: np.uint64,
    seats: IntArray,
    kinds: IntArray,
    params: FloatArray,
    shares: FloatArray,
    weights: IntArray,
    group_home: IntArray,
    group_away: IntArray,
    first_home: IntArray,
    first_away: IntArray,
    next_home: IntArray,
    next_away: IntArray,
    index: IntArray,
    split: FloatArray,
    cells: IntArray,
    coins: FloatArray,
    champion: IntArray,
    knockout_wins: IntArray,
    reached: IntArray,
    league_points: IntArray,
    position: IntArray,
    scrum: IntArray,
    group_lines: NDArray[np.int16],
    stage_lines: IntArray,
    group_decided: IntArray,
    knockout_decided: IntArray,
    counters: IntArray,
    missing: IntArray,
) -> int:
    """Play tournaments ``start`` to ``stop - 1`` of a batch, each from its first match to its final.

    Team ``t`` of a tournament sits in group ``t // 4``. ``group_home``/``group_away`` give the
    teams of each group round's matches (R7); ``first_home``/``first_away`` the first knockout
    round as rows ``(group, place - 1)`` (R11); ``next_home``/``next_away`` each later round as
    indices into the last round's winners. Orders come from the built-in pacing
    strategies (``kinds``, ``params``, ``shares`` per strategy, see :func:`spec`); lines from the
    alias tables (``index``, ``split``, ``cells``, ``coins``: see
    :meth:`~sevens.lab.sampling.TableSampler.arrays`).

    Per-tournament results are written to their rows (``champion`` ... ``group_lines``); the
    counts (``stage_lines``, ``group_decided``, ``knockout_decided``, ``counters``: group draws)
    are added once a tournament is over. Returns -1 when all are played, or the tournament that
    needs a table not built yet (its ids in ``missing``, -1 for none): nothing of that tournament
    has been counted, and it can be played again from its start.
    """
    teams = seats.shape[1]
    rounds, per_round = group_home.shape
    ko_rounds = knockout_decided.shape[0]
    turns = rounds + ko_rounds
    state = np.empty(_STATE, dtype=np.uint64)
    stats = np.empty((teams, _STATS), dtype=np.int64)  # R8's first five, signed as the chain wants
    h2h = np.empty((teams, 4), dtype=np.int64)
    record = np.empty(teams, dtype=np.int64)
    chain = np.empty((4, _CHAIN), dtype=np.int64)
    lots = np.empty(4, dtype=np.float64)
    sums = np.empty(stage_lines.shape, dtype=np.int64)
    group_counts = np.empty(group_decided.shape, dtype=np.int64)
    ko_counts = np.empty(knockout_decided.shape, dtype=np.int64)
    side_team = np.empty(2, dtype=np.int64)
    side_line = np.empty((2, 4), dtype=np.int64)
    keys = np.empty((2, 5), dtype=np.int64)
    home = np.empty(first_home.shape[0], dtype=np.int64)
    away = np.empty(first_home.shape[0], dtype=np.int64)
    winners = np.empty(first_home.shape[0], dtype=np.int64)
    at = np.empty((teams // 4, 4), dtype=np.int64)
    for b in range(start, stop):
        _seed(state, key, b)
        stats[:] = 0
        h2h[:] = 0
        sums[:] = 0
        group_counts[:] = 0
        ko_counts[:] = 0
        draws = 0
        for t in range(teams):
            scrum[b, t] = _STARTING_SCRUM
            knockout_wins[b, t] = 0
            reached[b, t] = 0
        for turn in range(turns):
            knockout = turn >= rounds
            r = turn - rounds
            if not knockout:
                matches = per_round
            elif r == 0:
                matches = first_home.shape[0]
                for k in range(matches):
                    home[k] = at[first_home[k, 0], first_home[k, 1]]
                    away[k] = at[first_away[k, 0], first_away[k, 1]]
            else:
                matches = first_home.shape[0] >> r  # R11: each round halves the last
                for k in range(matches):
                    home[k] = winners[next_home[r - 1, k]]
                    away[k] = winners[next_away[r - 1, k]]
            group_left = max(0, rounds - turn)
            base = 0.6 if knockout else 0.5
            for k in range(matches):
                side_team[0] = home[k] if knockout else group_home[turn, k]
                side_team[1] = away[k] if knockout else group_away[turn, k]
                for side in range(2):
                    team = side_team[side]
                    s = seats[b, team]
                    f, o = _order(
                        kinds[s], params[s], shares[s], scrum[b, team], turns - turn, group_left, base, state
                    )
                    if index[f, 0] == 0 or index[_FLAIR_BASE + o, 0] == 0:
                        missing[0] = -1 if index[f, 0] > 0 else f
                        missing[1] = -1 if index[_FLAIR_BASE + o, 0] > 0 else _FLAIR_BASE + o
                        return b
                    packed = _draw(state, f, index, split, cells, coins) + _draw(
                        state, _FLAIR_BASE + o, index, split, cells, coins
                    )
                    scrum[b, team] -= f + _OPTION_COST * o
                    total = 0
                    for c in range(4):
                        v = (packed >> (8 * c)) & 0xFF
                        side_line[side, c] = v
                        total += weights[c] * v
                    keys[side, 0] = total
                h, a = side_team[0], side_team[1]
                stage = 0 if not knockout else r + 1
                for c in range(4):
                    sums[stage, c] += side_line[0, c] + side_line[1, c]
                if knockout:
                    for side in range(2):
                        keys[side, 1] = side_line[side, 0]  # tries
                        keys[side, 2] = side_line[side, 1]  # conversions
                        keys[side, 3] = side_line[side, 3]  # drop goals
                        keys[side, 4] = record[side_team[side]]
                        reached[b, side_team[side]] += 1
                    step = 0
                    while step < 5 and keys[0, step] == keys[1, step]:
                        step += 1
                    home_wins = keys[0, step] > keys[1, step] if step < 5 else _uniform(state) < 0.5
                    ko_counts[r, step] += 1
                    winner = h if home_wins else a
                    winners[k] = winner
                    scrum[b, winner] += _WIN_BONUS
                    knockout_wins[b, winner] += 1
                    continue
                hp, ap = keys[0, 0], keys[1, 0]
                # Without branches: who wins a match is a coin toss to the branch predictor.
                home_won, away_won = int(hp > ap), int(ap > hp)
                home_lp = 1 + home_won - away_won
                away_lp = 2 - home_lp
                scrum[b, h] += _WIN_BONUS * home_won
                scrum[b, a] += _WIN_BONUS * away_won
                draws += 1 - home_won - away_won
                for c in range(4):
                    group_lines[b, turn, k, 0, c] = side_line[0, c]
                    group_lines[b, turn, k, 1, c] = side_line[1, c]
                stats[h, 0] += home_lp
                stats[a, 0] += away_lp
                stats[h, 1] += side_line[0, 0]
                stats[a, 1] += side_line[1, 0]
                stats[h, 2] += hp
                stats[a, 2] += ap
                stats[h, 3] -= side_line[1, 0]
                stats[a, 3] -= side_line[0, 0]
                stats[h, 4] -= ap
                stats[a, 4] -= hp
                h2h[h, a % 4] += home_lp
                h2h[a, h % 4] += away_lp
            if turn == rounds - 1:
                if not _group_tables(teams, stats, h2h, state, chain, lots, record, position[b], group_counts):
                    missing[0] = -2
                    return b
                for t in range(teams):
                    league_points[b, t] = stats[t, 0]
                    at[t // 4, position[b, t] - 1] = t
        champion[b] = winners[0]
        stage_lines += sums
        group_decided += group_counts
        knockout_decided += ko_counts
        counters[0] += draws
    return -1
