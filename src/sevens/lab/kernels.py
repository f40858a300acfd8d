"""Compiled loop (numba) for the batched simulator: whole tournaments, one after another.

:mod:`sevens.lab.simulate` works turn by turn over the whole batch with numpy. That costs many
passes over large arrays per turn (one per step of every rule), so most of the time goes to memory
traffic and temporaries rather than to the dice. :func:`play_tournaments` instead plays each
tournament from its first group match to its final in one compiled loop, with the tournament's
state in a few small arrays that stay in the processor's cache: the orders of the built-in
strategies, both lines of every match through the alias tables of
:class:`~sevens.lab.sampling.TableSampler`, league points, totals, head-to-head, the R8 tables,
the R11 pairings and the R9 count-back.

Each tournament has its own random stream: xoshiro256** seeded through SplitMix64 from the batch's
key and the tournament's index. A seed therefore gives the same batch every time, a tournament can
be played again from its start (the loop stops at an order whose alias table is not built yet,
or whose smart strategy has not decided that case yet, and the caller builds or decides it and
goes on), and threads can share the batch out without changing a result.
The draws follow the same laws as the numpy path's, not the same stream: a uniform is drawn only
where it matters (no coin for a one-cell table, lots only where teams are still level), which
changes no distribution because every draw is independent of whether another was made.

Without numba (:data:`AVAILABLE` false) the functions still run as plain Python, far too slowly to
be useful; the simulator then keeps to its numpy path.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from sevens.bots import MIX_JITTER, MIX_SHARES
from sevens.bots.pacing import FIELD_CAP, NO_FIELD_REPLY, REPLY_PULL, REPLY_STEP
from sevens.lab.jit import AVAILABLE, compiler
from sevens.lab.sampling import FLAIR_BASE, TAIL, point_weights
from sevens.lab.smart import (
    EquilibriumPacing,
    FieldReaderPacing,
    OddsAwarePacing,
    TableReaderPacing,
    rest_table,
)
from sevens.lab.strategies import (
    BatchStrategy,
    BatchView,
    EvenPacing,
    GroupBlitzPacing,
    KnockoutSaverPacing,
    RandomPacing,
    paced_total,
    weighted_total,
)
from sevens.rules import FLAIR_OPTION_COST, MAX_ORDER_POINTS, STARTING_SCRUM, WIN_BONUS, DecidedBy
from sevens.tournament.formats import GROUP_TURNS, Stage

__all__ = [
    "AVAILABLE",
    "EQUILIBRIUM",
    "EVEN",
    "FIELD_READER",
    "GROUP_BLITZ",
    "KNOCKOUT_SAVER",
    "ODDS_AWARE",
    "RANDOM",
    "TABLE_READER",
    "DecisionKey",
    "Decisions",
    "decision",
    "decision_key",
    "field_median",
    "field_pulls",
    "field_targets",
    "field_totals",
    "mix64",
    "Scratch",
    "new_scratch",
    "order_plan",
    "order_tables",
    "pick",
    "plan_options",
    "play_tournaments",
    "reply_steps",
    "spec",
    "rested_kinds",
    "table_rows",
    "uniforms",
]

IntArray = NDArray[np.int64]
UIntArray = NDArray[np.uint64]
FloatArray = NDArray[np.float64]

EVEN, GROUP_BLITZ, KNOCKOUT_SAVER, RANDOM, ODDS_AWARE, EQUILIBRIUM, FIELD_READER, TABLE_READER = range(8)
"""Kinds of built-in strategy that the compiled loop plays (see :func:`spec`, :func:`order_tables`)."""
SMART = (ODDS_AWARE, EQUILIBRIUM)
"""The kinds whose split is a decision per case, asked of :mod:`sevens.lab.smart` as the loop meets
it (their slots in the decisions array, in this order). "field-reader" splits as "equilibrium"
does and shares its slot; its total comes from :func:`field_totals` at its reply weight to the
field (:func:`field_median`, :func:`reply_steps`). "table-reader" plans as "equilibrium"; before
the last group round, each of its teams that its group's table lets rest plays a row of its own
that orders nothing (:func:`table_rows`, :func:`sevens.lab.smart.rest_table`)."""

# A plan word's tag (bits 33 on): 0 a drawn total ("random"), a smart slot plus 1, or this one:
# the total read off the field, the split as equilibrium's.
_FIELD_TAG = 1 + len(SMART)
_EQUILIBRIUM_TAG = 1 + SMART.index(EQUILIBRIUM)
_FIELD_STEPS = int(FIELD_CAP * REPLY_STEP) + 1  # reply weights 0, 1/20, ... 4 (in twentieths)
_NO_FIELD = int(NO_FIELD_REPLY * REPLY_STEP)
_FIELD_CAP = FIELD_CAP
_REPLY_STEP = REPLY_STEP
_GROUP_ROUNDS = GROUP_TURNS

# The rules' numbers as globals, which numba compiles in as constants (an integer division by the
# option cost becomes a multiplication).
_OPTION_COST = FLAIR_OPTION_COST
_MAX_POINTS = MAX_ORDER_POINTS
_WIN_BONUS = WIN_BONUS
_STARTING_SCRUM = STARTING_SCRUM
_FLAIR_BASE = FLAIR_BASE
_TAIL = TAIL
_STATS = 5  # league points, tries for, points for, -tries against, -points against (R8)
_CHAIN = 7  # ... then head-to-head and lots
_KNOCKOUT_DECIDERS = len(DecidedBy)  # points ... lots (R9)
_RECORD_BITS = (4, 12, 14, 12, 14)  # packed group record (R9): the five totals, each offset
_W_TRY, _W_CONVERSION, _W_PENALTY, _W_DROP = point_weights()


_jit = compiler()
# Without reference counting: numba counts references on every array passed to a call, even an
# inlined one with a branch, and in the loop those counts cost more than the dice. Functions
# compiled so may not allocate; their callers pass them every array they need.
_loop = compiler(_nrt=False)
# Inlined by numba itself, so the loop keeps its values in registers across small helpers.
_inline = compiler(inline="always")
# Also inlined: a call passes each array as its seven fields, and the group tables take eleven.
_inline_loop = compiler(_nrt=False, inline="always")


def spec(strategy: object) -> tuple[int, float, float] | None:
    """``(kind, parameter, FLAIR share)`` of a built-in strategy, or None for any other.

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
    if kind is OddsAwarePacing:
        return (ODDS_AWARE, 0.0, np.nan)
    if kind is EquilibriumPacing:
        return (EQUILIBRIUM, 0.0, np.nan)
    if kind is FieldReaderPacing:
        return (FIELD_READER, 0.0, np.nan)
    if kind is TableReaderPacing:
        return (TABLE_READER, 0.0, np.nan)
    return None


# --- Random numbers: xoshiro256** (Blackman and Vigna), one stream per tournament --------------
# The loop keeps a stream's four words in local variables (registers), so each helper takes them
# and gives them back; an array would be read and written again at every draw.


@_inline
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


def mix64(z: Any) -> Any:
    """SplitMix64's finaliser: well-spread 64-bit words from consecutive ones (a uint64 or an array
    of them; the lab's seating hashes with it too)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


_splitmix = _inline(mix64)


_STATE = 4  # xoshiro256**'s four words
_Words = tuple[np.uint64, np.uint64, np.uint64, np.uint64]


@_inline
def _seed(key: np.uint64, stream: int) -> _Words:
    """Stream ``stream`` of ``key``: four SplitMix64 outputs from a start the key and index fix."""
    z = key + np.uint64(stream) * np.uint64(0xD1B54A32D192ED03)
    golden = np.uint64(0x9E3779B97F4A7C15)
    return (
        _splitmix(z + golden),
        _splitmix(z + golden * np.uint64(2)),
        _splitmix(z + golden * np.uint64(3)),
        _splitmix(z + golden * np.uint64(4)),
    )


@_inline
def _next(
    s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]:
    """The stream's next 64-bit word, and its new state."""
    out = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    return out, s0, s1, s2, _rotl(s3, 45)


@_inline
def _uniform(
    s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64
) -> tuple[float, np.uint64, np.uint64, np.uint64, np.uint64]:
    """The stream's next uniform in [0, 1) (top 53 bits of xoshiro256**'s output), and its new state."""
    out, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
    # Through int64: 53 bits fit, and a signed conversion is one instruction, an unsigned one many.
    return float(np.int64(out >> np.uint64(11))) * (1.0 / 9007199254740992.0), s0, s1, s2, s3


@_inline
def _uniform_from(state: UIntArray) -> float:
    """A uniform from a stream kept in an array (the group lots, outside the loop's registers)."""
    u, state[0], state[1], state[2], state[3] = _uniform(state[0], state[1], state[2], state[3])
    return u


def uniforms(key: int, stream: int, n: int) -> FloatArray:
    """The first ``n`` uniforms of a tournament's stream (for tests of the generator).

    >>> u = uniforms(1, 0, 4)
    >>> bool(((u >= 0) & (u < 1)).all()), len(set(u.tolist()))
    (True, 4)
    """
    return _uniforms(np.uint64(key), stream, n)


@_jit
def _uniforms(key: np.uint64, stream: int, n: int) -> FloatArray:
    s0, s1, s2, s3 = _seed(key, stream)
    out = np.empty(n, dtype=np.float64)
    for i in range(n):
        out[i], s0, s1, s2, s3 = _uniform(s0, s1, s2, s3)
    return out


# --- Orders: the pacing formulas as tables, then the loop's plan ------------------------------


def _view(held: IntArray, turn: int, turns_left: int, group_left: int) -> BatchView:
    """What a manager holding each of ``held`` sees before ``turn`` (only what the pacing uses)."""
    zeros = np.zeros_like(held)
    return BatchView(
        teams=16, turn=turn, stage=Stage.GROUP if group_left else Stage.QUARTER_FINAL, turns_left=turns_left,
        group_matches_left=group_left, scrum=held, opponent_scrum=held, league_points=zeros,
        opponent_league_points=zeros, group_position=zeros + 1, home=np.ones(held.size, dtype=bool),
        tournament=zeros, team=zeros,
    )


def order_tables(
    strategies: Sequence[BatchStrategy], group_rounds: int, knockout_rounds: int
) -> tuple[IntArray, FloatArray]:
    """The built-in strategies' orders as tables the loop reads instead of branching on formulas.

    Returns ``totals[strategy, turn, held]`` (points spent, read off each strategy's own
    ``orders``; for "random", the most it may spend) and ``shares[strategy, stage]``, stage 0 for
    the groups and 1 for the knockouts: the FLAIR share's low end, its width (0: fixed; the bots'
    jitter: 0.2) and 1.0 if the total itself is drawn ("random"), 2.0 or 3.0 if the split is a
    decision ("odds-aware", "equilibrium" and "table-reader": :data:`SMART`'s slot plus 2;
    "field-reader", whose total the loop reads off :func:`field_totals`: the number of slots plus
    2), else 0.0. With a "table-reader" among them, one row more follows the strategies': the order
    of a team that rests (nothing, :func:`table_rows`).

    >>> totals, shares = order_tables([EvenPacing()], 3, 3)
    >>> int(totals[0, 0, 100]), int(totals[0, 5, 7]), shares[0].round(2).tolist()
    (17, 7, [[0.4, 0.2, 0.0], [0.5, 0.2, 0.0]])
    """
    turns = group_rounds + knockout_rounds
    held = np.arange(_MAX_POINTS + 1, dtype=np.int64)
    rests = any(type(s) is TableReaderPacing for s in strategies)
    # The resting row is all zeros: no points spent, a fixed share of none.
    totals = np.zeros((len(strategies) + rests, turns, held.size), dtype=np.int64)
    shares = np.zeros((len(strategies) + rests, 2, 3), dtype=np.float64)
    for s, strategy in enumerate(strategies):
        found = spec(strategy)
        if found is None:
            raise ValueError(f"the compiled loop plays the built-in strategies only, not {strategy!r}")
        kind, _, share = found
        if kind == FIELD_READER:  # its pacing before it can read the field; the loop reads field_totals
            totals[s] = field_totals(group_rounds, knockout_rounds)[:, _NO_FIELD]
        for turn in range(turns if kind != FIELD_READER else 0):
            if kind == RANDOM:
                totals[s, turn] = np.minimum(held, _MAX_POINTS)
                continue
            if kind in SMART:  # the split is the decision's; the total is the pacing's
                assert isinstance(strategy, OddsAwarePacing | EquilibriumPacing)
                totals[s, turn] = paced_total(held, turns - turn, max(0, group_rounds - turn), strategy.knockout_weight)
                continue
            if kind == TABLE_READER:  # as "equilibrium" when it plays; its rests are the loop's
                totals[s, turn] = paced_total(held, turns - turn, max(0, group_rounds - turn))
                continue
            # The split's jitter does not change the total spent, so any generator will do.
            view = _view(held, turn + 1, turns - turn, max(0, group_rounds - turn))
            force, flair = strategy.orders(view, np.random.default_rng(0))
            totals[s, turn] = force + flair
        for stage, base in enumerate(MIX_SHARES):  # the groups', then the knockouts' share
            if kind == RANDOM:
                shares[s, stage] = (0.0, 1.0, 1.0)
            elif kind in SMART:
                shares[s, stage] = (0.0, 0.0, 2.0 + SMART.index(kind))  # "decided": see order_plan
            elif kind == TABLE_READER:
                shares[s, stage] = (0.0, 0.0, 2.0 + SMART.index(EQUILIBRIUM))
            elif kind == FIELD_READER:
                shares[s, stage] = (0.0, 0.0, 1.0 + _FIELD_TAG)
            elif np.isnan(share):
                shares[s, stage] = (base - MIX_JITTER, 2 * MIX_JITTER, 0.0)  # the bots' jittered mix
            else:
                shares[s, stage] = (share, 0.0, 0.0)
    return totals, shares


def order_plan(totals: IntArray, shares: FloatArray, group_rounds: int) -> tuple[IntArray, FloatArray]:
    """:func:`order_tables` as the loop reads them, by strategy, turn and SCRUM held.

    ``plan`` packs the total (bits 0-15; for "random", the most it may spend), the most FLAIR
    options it allows (bits 16-31), 1 in bit 32 if the order is not a jittered share, and from bit
    33 on, 0 if the total is drawn ("random"), a decision's slot plus 1, or ``1 + len(SMART)`` for
    "field-reader" (total from :func:`field_totals`, split as "equilibrium"). ``jitter`` holds the
    FLAIR options before rounding as ``jitter[..., 0] + jitter[..., 1] * u``, ``u`` the share's
    uniform. With a fixed share (width 0) that is the product
    :func:`~sevens.lab.strategies.split_orders` rounds, so it rounds the same way; with the bots'
    jitter the two differ only on exact ties, a set of uniforms of probability 0.

    >>> totals, shares = order_tables([EvenPacing(flair=0.5)], 3, 3)
    >>> plan, jitter = order_plan(totals, shares, 3)
    >>> int(plan[0, 0, 100]) & 0xFFFF, int(plan[0, 0, 100]) >> 16, jitter[0, 0, 100].tolist()
    (17, 5, [2.8333333333333335, 0.0])
    """
    stage = (np.arange(totals.shape[1]) >= group_rounds).astype(np.int64)
    low, width, drawn = (shares[:, stage, c][:, :, None] for c in range(3))
    other = (drawn > 0).astype(np.int64) | (np.maximum(drawn - 1, 0).astype(np.int64) << 1)
    plan: IntArray = totals | ((totals // _OPTION_COST) << 16) | (other << 32)
    jitter: FloatArray = np.stack((totals * low / _OPTION_COST, totals * width / _OPTION_COST), axis=-1)
    return plan, jitter


@_inline
def _options(word: int, low: float, width: float, u: float) -> int:
    """FLAIR options of a planned order (``word``, ``low``, ``width`` from :func:`order_plan`)
    for the share's uniform ``u``: rounded half to even, within the plan's cap."""
    return min(int(np.rint(low + width * u)), word >> 16 & 0xFFFF)


@_jit
def plan_options(word: int, low: float, width: float, u: float) -> int:
    """:func:`_options` callable from Python (for tests).

    >>> plan_options(17 | (5 << 16), 17 * 0.4 / 3, 17 * 0.2 / 3, 0.5)
    3
    """
    return _options(word, low, width, u)


# --- "field-reader": the field's pacing, read off the group orders played -------------------


def field_totals(group_rounds: int, knockout_rounds: int) -> IntArray:
    """What "field-reader" spends, by turn, reply weight in twentieths and SCRUM held:
    :func:`~sevens.lab.strategies.weighted_total` as its batch form calls it.

    >>> totals = field_totals(3, 3)
    >>> int(totals[0, 22, 100]), int(totals[1, 10, 90]), int(totals[4, 60, 40])
    (16, 26, 20)
    """
    turns = group_rounds + knockout_rounds
    held = np.arange(_MAX_POINTS + 1, dtype=np.int64)
    totals = np.zeros((turns, _FIELD_STEPS, held.size), dtype=np.int64)
    for turn in range(turns):
        for m in range(_FIELD_STEPS):
            totals[turn, m] = weighted_total(held, turns - turn, max(0, group_rounds - turn), m, REPLY_STEP)
    return totals


def field_targets(strategies: Sequence[BatchStrategy]) -> FloatArray:
    """The knockout weight each strategy's reply leans toward if it is a "field-reader", else NaN."""
    return np.array(
        [float(s.knockout_weight) if isinstance(s, FieldReaderPacing) else np.nan for s in strategies],
        dtype=np.float64,
    )


def field_pulls(strategies: Sequence[BatchStrategy]) -> FloatArray:
    """The share of the way each strategy's reply moves toward its target if it is a "field-reader"
    (:data:`~sevens.bots.pacing.REPLY_PULL` unless made with another), else NaN."""
    return np.array(
        [float(s.pull) if isinstance(s, FieldReaderPacing) else np.nan for s in strategies], dtype=np.float64,
    )


@_inline
def _field_median(spent: IntArray, scrum: IntArray, played: int, knockout_rounds: int, values: FloatArray) -> float:
    """The field of one tournament: the median knockout weight its group orders of rounds
    ``0 .. played - 1`` imply, NaN if none (the same floating-point steps as
    :func:`~sevens.lab.smart.field_weights` and :func:`~sevens.bots.smart.field_weight`).
    ``spent`` and ``scrum`` are ``[round, team]``; ``values`` is room for their entries."""
    n = 0
    for r in range(played):
        group_left = _GROUP_ROUNDS - r
        for t in range(spent.shape[1]):
            held = scrum[r, t]
            if held <= 0:  # a team that had spent out tells nothing
                continue
            x = spent[r, t]
            v = _FIELD_CAP
            if x > 0:
                v = min(_FIELD_CAP, max(0.0, (held / x - group_left) / knockout_rounds))
            i = n  # insertion sort: a few dozen values
            while i > 0 and values[i - 1] > v:
                values[i] = values[i - 1]
                i -= 1
            values[i] = v
            n += 1
    if n == 0:
        return np.nan
    half = n // 2
    return float(values[half]) if n % 2 else float((values[half - 1] + values[half]) / 2)


@_jit
def field_median(spent: IntArray, scrum: IntArray, played: int, knockout_rounds: int) -> float:
    """:func:`_field_median` callable from Python (for tests)."""
    return _field_median(spent, scrum, played, knockout_rounds, np.empty(spent.size, dtype=np.float64))


@_inline
def _reply_steps(field: float, target: float, pull: float) -> int:
    """The reply weight in twentieths to a field (NaN: none read yet) for a field-reader leaning
    toward ``target``, moving ``pull`` of the way (:func:`~sevens.bots.pacing.reply_weight`'s
    steps, rounded half to even)."""
    if np.isnan(field):
        return _NO_FIELD
    return int(np.rint((field + (target - field) * pull) * _REPLY_STEP))


@_jit
def _reply_steps_of(field: float, target: float, pull: float) -> int:
    return _reply_steps(field, target, pull)


def reply_steps(field: float, target: float, pull: float = REPLY_PULL) -> int:
    """:func:`_reply_steps` callable from Python (for tests).

    >>> reply_steps(1.0, 1.5), reply_steps(float("nan"), 1.5), reply_steps(0.15, 1.25)
    (22, 22, 8)
    >>> reply_steps(0.15, 1.5, 0.0), reply_steps(0.15, 1.5, 0.5)
    (3, 16)
    """
    return int(_reply_steps_of(field, target, pull))


# --- "table-reader": its group's table before the last group round ------------------------------

def table_rows(strategies: Sequence[BatchStrategy]) -> IntArray:
    """For each row of :func:`order_tables`, the row a team of it plays when its table lets it rest:
    the extra row after the strategies' for a "table-reader", -1 for any other (and the extra row)."""
    rows = np.full(len(strategies), -1, dtype=np.int64)
    readers = [type(s) is TableReaderPacing for s in strategies]
    if any(readers):
        rows[readers] = len(strategies)
        rows = np.append(rows, -1)
    return rows


@_inline_loop
def _table_rests(
    record: IntArray, group_home: IntArray, group_away: IntArray, kind: IntArray, rows: IntArray, stakes: IntArray
) -> None:
    """Before the last group round, from the packed records (league points after two rounds): each
    team of a "table-reader" that a loss cannot put out on league points takes its resting row
    (``rows``, :func:`table_rows`; ``stakes``, :func:`sevens.lab.smart.rest_table`). The group's other match of
    that round is the one whose teams sit in the same group (R7)."""
    last = group_home.shape[0] - 1
    matches = group_home.shape[1]
    for k in range(matches):
        h, a = group_home[last, k], group_away[last, k]
        for q in range(matches):
            x, y = group_home[last, q], group_away[last, q]
            if q != k and x // 4 == h // 4:
                home, away = _field(record[h], 0), _field(record[a], 0)
                other, others_opponent = _field(record[x], 0), _field(record[y], 0)
                if rows[kind[h]] >= 0 and stakes[home, away, other, others_opponent]:
                    kind[h] = rows[kind[h]]
                if rows[kind[a]] >= 0 and stakes[away, home, other, others_opponent]:
                    kind[a] = rows[kind[a]]


@_jit
def _rested_kinds(
    record: IntArray, group_home: IntArray, group_away: IntArray, kind: IntArray, rows: IntArray, stakes: IntArray
) -> IntArray:
    _table_rests(record, group_home, group_away, kind, rows, stakes)
    return kind


def rested_kinds(
    league_points: IntArray, group_home: IntArray, group_away: IntArray, kind: IntArray, rows: IntArray
) -> IntArray:
    """:func:`_table_rests` callable from Python (for tests): each team's row in the last group
    round, given every team's league points before it and its row before."""
    record = _RECORD_ZERO + (np.asarray(league_points, dtype=np.int64) << _FIELD_START[0])
    return _rested_kinds(record, group_home, group_away, np.array(kind, dtype=np.int64), rows, rest_table())


# --- Smart strategies' decisions, asked for as the loop meets them ----------------------------

_HELD = _MAX_POINTS + 1  # SCRUM a team may hold: 0 to 160 (100 and six wins' bonus)
_MIX_WIDTH = 2 + _MAX_POINTS // _OPTION_COST  # a mix's count, then one entry per FLAIR option


@_inline
def _key(slot: int, turn: int, total: int, opponent: int, turns: int) -> int:
    return ((slot * turns + turn) * _HELD + total) * _HELD + opponent


DecisionKey = tuple[int, int, int, int]


def decision_key(key: int, turns: int) -> DecisionKey:
    """``(slot, turn, total, opponent)`` of a case the loop reports undecided (the inverse of its key).

    >>> decision_key(((1 * 6 + 4) * 161 + 17) * 161 + 160, 6)
    (1, 4, 17, 160)
    """
    rest, opponent = divmod(key, _HELD)
    rest, total = divmod(rest, _HELD)
    slot, turn = divmod(rest, turns)
    return slot, turn, total, opponent


class Decisions:
    """The smart strategies' decisions for one format, filled case by case as the loop asks.

    A case is a slot of :data:`SMART`, a turn (from 0), the SCRUM the team spends (its pacing's
    total) and the SCRUM its opponent holds: the split depends on nothing else, so strategies of
    one kind paced differently (knockout weights) share their decisions. ``decided[case]`` is -1
    until the case is decided, then the FLAIR options of a pure split, or ``-2 - m`` for the mix in
    row ``m`` of ``mixes``: ``mixes[m, 0, 0]`` options, ``mixes[m, 0, i]`` the i-th option and
    ``mixes[m, 1, i]`` the cumulative probability up to it.
    Each answer comes from :mod:`sevens.lab.smart`, which the numpy path also asks, so both paths
    decide alike. Entries only ever go from -1 to their answer, so a loop may read while another
    thread decides; mixes grow into a new array, and a loop holding the older one treats a newer
    mix as undecided.

    >>> d = Decisions(group_rounds=3, turns=6)
    >>> d.decide(decision_key(d.key(1, 0, 17, 100), 6))
    >>> int(d.decided[1, 0, 17, 100]) * 3, EquilibriumPacing.mix(17, 100, 6)
    (15, ((15, 1.0),))
    """

    def __init__(self, group_rounds: int, turns: int) -> None:
        self.group_rounds = group_rounds
        self.turns = turns
        self.decided: IntArray = np.full((len(SMART), turns, _HELD, _HELD), -1, dtype=np.int64)
        self.mixes: FloatArray = np.zeros((0, 2, _MIX_WIDTH), dtype=np.float64)
        self._lock = threading.Lock()

    def key(self, slot: int, turn: int, total: int, opponent: int) -> int:
        """The loop's key of a case."""
        return int(_key(slot, turn, total, opponent, self.turns))

    def decide(self, case: DecisionKey) -> None:
        """Decide one case (nothing to do if it is already decided)."""
        slot, turn, total, opponent = case
        if self.decided[slot, turn, total, opponent] != -1:
            return
        turns_left = self.turns - turn
        if SMART[slot] == ODDS_AWARE:
            knockout = turn >= self.group_rounds
            value = OddsAwarePacing.flair(total, opponent, turns_left, knockout) // _OPTION_COST
        else:
            mix = EquilibriumPacing.mix(total, opponent, turns_left)
            if len(mix) == 1:
                value = mix[0][0] // _OPTION_COST
            else:
                with self._lock:
                    row = np.zeros((1, 2, _MIX_WIDTH))
                    row[0, 0, 0] = len(mix)
                    row[0, 0, 1 : len(mix) + 1] = [flair // _OPTION_COST for flair, _ in mix]
                    row[0, 1, 1 : len(mix) + 1] = np.cumsum([p for _, p in mix])
                    self.mixes = np.concatenate((self.mixes, row))
                    value = -2 - (self.mixes.shape[0] - 1)
        self.decided[slot, turn, total, opponent] = value


# --- One line ----------------------------------------------------------------------------------


@_inline
def _at(i: int) -> np.uint64:
    """An index as unsigned: numba then skips the correction for negative indices."""
    return np.uint64(i)


@_inline
def _pick(word: np.uint64, r: np.uint64, cells: UIntArray) -> np.uint64:
    """A line from the alias table ``word`` (see :func:`~sevens.lab.sampling.table_word`) and a
    random word: the cell from the high bits of ``(r >> k) * n``, the coin from the rest."""
    n = word & np.uint64(0xFFFFFF)
    k = (word >> np.uint64(24)) & np.uint64(0x3F)
    x = (r >> k) * n  # n <= 2**k, so no bit is lost
    c = (word >> np.uint64(32)) + (x >> (np.uint64(64) - k))
    keep = (x << k) < cells[c, 0]
    # Branch-free: the coin is a fair guess half the time, so a branch would often mispredict.
    return np.uint64((cells[c, 1] >> (np.uint64(32) - np.uint64(32) * np.uint64(keep))) & np.uint64(0xFFFFFFFF))


@_jit
def pick(word: np.uint64, r: np.uint64, cells: UIntArray) -> int:
    """:func:`_pick` callable from Python (for tests)."""
    return int(np.int64(_pick(word, r, cells)))


@_inline
def _draw(
    tid: int, index: UIntArray, cells: UIntArray,
    s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64,
) -> tuple[int, np.uint64, np.uint64, np.uint64, np.uint64]:
    """A packed line from table ``tid``: its head's alias table, or if that lands on the tail's
    marker (rarely), the tail's with a fresh word."""
    t = _at(tid)
    r, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
    line = _pick(index[t, 0], r, cells)
    if line == np.uint64(_TAIL):
        r, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
        line = _pick(index[t, 1], r, cells)
    return int(np.int64(line)), s0, s1, s2, s3  # signed, as the loop's other integers


# A widened line times this has its points in the top 16 bits: the product's lane there sums
# each count times its weight, and no lower lane reaches 2^16 (counts are below 256).
_POINTS_MUL = _W_DROP + (_W_PENALTY << 16) + (_W_CONVERSION << 32) + (_W_TRY << 48)


@_inline
def _wide_points(wide: int) -> int:
    """Points of a line widened by :func:`_widen` (one multiplication)."""
    return int((np.uint64(wide) * np.uint64(_POINTS_MUL)) >> np.uint64(48))


@_inline
def _points(line: int) -> int:
    """Points of a packed line (8 bits per count: tries, conversions, penalties, drop goals)."""
    return (
        _W_TRY * (line & 0xFF)
        + _W_CONVERSION * ((line >> 8) & 0xFF)
        + _W_PENALTY * ((line >> 16) & 0xFF)
        + _W_DROP * ((line >> 24) & 0xFF)
    )


@_inline
def _widen(line: int) -> int:
    """A packed line with 16 bits per count, so that a tournament's lines add up in one integer."""
    return (line & 0xFF) | ((line & 0xFF00) << 8) | ((line & 0xFF0000) << 16) | ((line & 0xFF000000) << 24)


# --- The tables (R8) -------------------------------------------------------------------------------

# Where each of R8's five totals starts in a packed record, from the last (points against) up,
# and the offset that keeps each field at or above zero.
_FIELD_START = tuple(int(sum(_RECORD_BITS[c + 1 :])) for c in range(_STATS))
_FIELD_HALF = tuple(1 << (bits - 1) for bits in _RECORD_BITS)
_RECORD_ZERO = int(sum(h << s for h, s in zip(_FIELD_HALF, _FIELD_START, strict=True)))
# A match may add at most this to a total and keep three matches within the packed range.
_TRIES_CAP = (_FIELD_HALF[1] - 1) // 3
_POINTS_CAP = (_FIELD_HALF[2] - 1) // 3


@_inline
def _record_step(league_points: int, tries_for: int, points_for: int, tries_against: int, points_against: int) -> int:
    """What one group match adds to a packed record (R8's five totals, signed as the chain wants)."""
    return (
        (league_points << _FIELD_START[0])
        + (tries_for << _FIELD_START[1])
        + (points_for << _FIELD_START[2])
        - (tries_against << _FIELD_START[3])
        - points_against
    )


@_inline
def _field(record: int, c: int) -> int:
    """Total ``c`` of R8's five from a packed record."""
    return ((record >> _FIELD_START[c]) & ((1 << _RECORD_BITS[c]) - 1)) - _FIELD_HALF[c]


@_inline
def _first_difference(x: int) -> int:
    """The first of R8's five totals on which two packed records differ (their XOR ``x`` > 0)."""
    c = _STATS - 1
    for k in range(1, _STATS):
        c -= int(x >= (1 << _FIELD_START[_STATS - 1 - k]))
    return c


@_inline_loop
def _group_tables(
    teams: int, record: IntArray, lines: NDArray[np.uint32], group_home: IntArray, group_away: IntArray,
    state: UIntArray, chain: IntArray, lots: FloatArray, h2h: IntArray, position: IntArray, decided: IntArray,
) -> None:
    """R8 in every group, from the packed records and the group's lines: places and the
    decided-by counts.

    A place is decided by the latest first difference, along R8's chain, against any other team
    of its group (as the numpy path counts). Head-to-head is worked out, and lots drawn, only
    for groups that need them.
    """
    for g in range(teams // 4):
        first = 4 * g
        r0, r1, r2, r3 = record[first], record[first + 1], record[first + 2], record[first + 3]
        if r0 != r1 and r0 != r2 and r0 != r3 and r1 != r2 and r1 != r3 and r2 != r3:
            # Usually the five totals alone part all four teams: the records order them, and
            # the first criterion two teams differ on is the field of their records' highest
            # differing bit (the fields are packed first criterion highest). Each of the six
            # pairs once: where their records first differ, and which is ahead.
            d01, d02, d03 = _first_difference(r0 ^ r1), _first_difference(r0 ^ r2), _first_difference(r0 ^ r3)
            d12, d13, d23 = _first_difference(r1 ^ r2), _first_difference(r1 ^ r3), _first_difference(r2 ^ r3)
            a01, a02, a03 = int(r0 > r1), int(r0 > r2), int(r0 > r3)
            a12, a13, a23 = int(r1 > r2), int(r1 > r3), int(r2 > r3)
            above = (3 - a01 - a02 - a03, a01 + 2 - a12 - a13, a02 + a12 + 1 - a23, a03 + a13 + a23)
            deciding = (max(d01, d02, d03), max(d01, d12, d13), max(d02, d12, d23), max(d03, d13, d23))
            for i in range(4):
                position[first + i] = above[i] + 1
                decided[above[i], deciding[i]] += 1
            continue
        # League points each team took from each other team of its group, from the lines.
        for i in range(4):
            for q in range(4):
                h2h[first + i, q] = 0
        for r in range(group_home.shape[0]):
            for k in range(group_home.shape[1]):
                h, a = group_home[r, k], group_away[r, k]
                if h // 4 == g:
                    hp, ap = _points(int(lines[r, k, 0])), _points(int(lines[r, k, 1]))
                    home_lp = 1 + int(hp > ap) - int(ap > hp)
                    h2h[h, a % 4] += home_lp
                    h2h[a, h % 4] += 2 - home_lp
        for i in range(4):
            t = first + i
            for c in range(_STATS):
                chain[i, c] = _field(record[t], c)
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
                lots[i] = _uniform_from(state)
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


# --- Whole tournaments ---------------------------------------------------------------------------

Scratch = tuple[
    UIntArray, IntArray, IntArray, FloatArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray,
    IntArray, FloatArray,
]


def new_scratch(teams: int, knockout_rounds: int, first_round_matches: int) -> Scratch:
    """The working arrays of :func:`play_tournaments` for one thread (the loop allocates nothing).

    >>> [a.shape for a in new_scratch(16, 3, 4)][:3]
    [(4,), (16,), (4, 7)]
    """
    return (
        np.empty(_STATE, dtype=np.uint64),  # the stream's state, for the group lots
        np.empty(teams, dtype=np.int64),  # packed group records
        np.empty((4, _CHAIN), dtype=np.int64),
        np.empty(4, dtype=np.float64),  # lots
        np.empty((teams, 4), dtype=np.int64),  # head-to-head league points
        np.empty((4, _CHAIN), dtype=np.int64),  # decided-by counts of the groups
        np.empty((knockout_rounds, _KNOCKOUT_DECIDERS), dtype=np.int64),
        np.empty((4, max(1, first_round_matches)), dtype=np.int64),  # knockout pairs and winners
        np.empty((4, teams), dtype=np.int64),  # each team's strategy, SCRUM, knockout wins; places
        np.empty(1 + knockout_rounds, dtype=np.int64),  # each stage's lines, 16 bits per count
        np.empty((2, _GROUP_ROUNDS, teams), dtype=np.int64),  # group spends and SCRUM before, for field-reader
        np.empty(_GROUP_ROUNDS * teams, dtype=np.float64),  # the field's implied weights
    )


@_inline
def _decision(
    slot: int, turn: int, total: int, opponent: int, u: float, decided: IntArray, mixes: FloatArray
) -> int:
    """FLAIR options of a smart strategy's decision (:class:`Decisions`), or -1 if the case has not
    been decided yet (or its mix is newer than ``mixes``)."""
    v = int(decided[_at(slot), _at(turn), _at(total), _at(opponent)])
    if v >= 0:
        return v
    m = -2 - v
    if v == -1 or m >= mixes.shape[0]:
        return -1
    n = int(mixes[m, 0, 0])
    o = int(mixes[m, 0, n])  # as the numpy path: beyond the last sum (rounding), the last option
    for i in range(1, n + 1):
        if u < mixes[m, 1, i]:
            o = int(mixes[m, 0, i])
            break
    return o


@_jit
def decision(
    slot: int, turn: int, total: int, opponent: int, u: float, decided: IntArray, mixes: FloatArray
) -> int:
    """:func:`_decision` callable from Python (for tests)."""
    return _decision(slot, turn, total, opponent, u, decided, mixes)


@_inline
def _order(
    s: int, held: int, opponent: int, turn: int, plan: IntArray, jitter: FloatArray,
    decided: IntArray, mixes: FloatArray, field: float, by_field: IntArray, targets: FloatArray,
    pulls: FloatArray, s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64,
) -> tuple[int, int, int, np.uint64, np.uint64, np.uint64, np.uint64]:
    """A team's order from its strategy's plan (:func:`order_plan`): its FORCE and FLAIR table
    ids, the points it spends, and the stream. A FORCE id of -1 means a smart strategy's case is
    not decided yet; its :func:`decision_key` is then in the FLAIR id's place. "field-reader"
    spends ``by_field[turn, reply, held]`` (:func:`field_totals`), its reply to the ``field``
    (:func:`reply_steps`) leaning toward ``targets[s]``, ``pulls[s]`` of the way."""
    row, at_turn, at_held = _at(s), _at(turn), _at(held)
    word = plan[row, at_turn, at_held]
    total = word & 0xFFFF
    u, s0, s1, s2, s3 = _uniform(s0, s1, s2, s3)
    if word >> 32:
        tag = word >> 33
        if tag == _FIELD_TAG:
            total = by_field[at_turn, _at(_reply_steps(field, targets[row], pulls[row])), at_held]
            tag = _EQUILIBRIUM_TAG
        if tag:  # a smart strategy: its decision for this case, drawn with u if it is a mix
            o = _decision(tag - 1, turn, total, opponent, u, decided, mixes)
            if o < 0:
                return -1, _key(tag - 1, turn, total, opponent, decided.shape[1]), 0, s0, s1, s2, s3
        else:  # "random" draws its total, then its share
            total = min(int(u * (total + 1)), total)
            u, s0, s1, s2, s3 = _uniform(s0, s1, s2, s3)
            o = min(int(np.rint(total * u / _OPTION_COST)), total // _OPTION_COST)
    else:
        o = _options(word, jitter[row, at_turn, at_held, 0], jitter[row, at_turn, at_held, 1], u)
    return total - o * _OPTION_COST, _FLAIR_BASE + o, total, s0, s1, s2, s3


@_inline
def _match_lines(
    h: int, a: int, turn: int, kind: IntArray, held: IntArray, plan: IntArray, jitter: FloatArray,
    decided: IntArray, mixes: FloatArray, field: float, by_field: IntArray, targets: FloatArray,
    pulls: FloatArray, index: UIntArray, cells: UIntArray, missing: IntArray,
    s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64,
) -> tuple[int, int, np.uint64, np.uint64, np.uint64, np.uint64]:
    """Both teams' orders and lines, their SCRUM spent (``held``); a home line of -1 if an alias
    table is not built yet (the ids of one team's missing tables then in ``missing``, -1 for a
    table that is there) or a smart strategy's case is not decided yet (``missing``: -3 and the
    case's :func:`decision_key`).

    Both orders come first, then the four draws: the processor can then work on all four tables
    at once rather than wait on one team's before it starts the other's.
    """
    home, away = _at(h), _at(a)
    home_held, away_held = held[home], held[away]
    home_force, home_flair, home_spent, s0, s1, s2, s3 = _order(
        kind[home], home_held, away_held, turn, plan, jitter, decided, mixes, field, by_field, targets,
        pulls, s0, s1, s2, s3,
    )
    away_force, away_flair, away_spent, s0, s1, s2, s3 = _order(
        kind[away], away_held, home_held, turn, plan, jitter, decided, mixes, field, by_field, targets,
        pulls, s0, s1, s2, s3,
    )
    for force, flair in ((home_force, home_flair), (away_force, away_flair)):
        if force < 0:
            missing[0] = -3
            missing[1] = flair
            return -1, 0, s0, s1, s2, s3
        if index[_at(force), 0] == 0 or index[_at(flair), 0] == 0:
            missing[0] = -1 if index[_at(force), 0] > 0 else force
            missing[1] = -1 if index[_at(flair), 0] > 0 else flair
            return -1, 0, s0, s1, s2, s3
    held[home] -= home_spent
    held[away] -= away_spent
    home_line, s0, s1, s2, s3 = _draw(home_force, index, cells, s0, s1, s2, s3)
    away_line, s0, s1, s2, s3 = _draw(away_force, index, cells, s0, s1, s2, s3)
    line, s0, s1, s2, s3 = _draw(home_flair, index, cells, s0, s1, s2, s3)
    home_line += line
    line, s0, s1, s2, s3 = _draw(away_flair, index, cells, s0, s1, s2, s3)
    return home_line, away_line + line, s0, s1, s2, s3


@_loop
def play_tournaments(
    start: int,
    stop: int,
    key: np.uint64,
    seats: IntArray,
    plan: IntArray,
    jitter: FloatArray,
    decided: IntArray,
    mixes: FloatArray,
    by_field: IntArray,
    targets: FloatArray,
    pulls: FloatArray,
    rows: IntArray,
    stakes: IntArray,
    group_home: IntArray,
    group_away: IntArray,
    first_home: IntArray,
    first_away: IntArray,
    next_home: IntArray,
    next_away: IntArray,
    index: UIntArray,
    cells: UIntArray,
    champion: IntArray,
    knockout_wins: IntArray,
    reached: IntArray,
    league_points: IntArray,
    position: IntArray,
    scrum: IntArray,
    group_lines: NDArray[np.uint32],
    stage_lines: IntArray,
    group_decided: IntArray,
    knockout_decided: IntArray,
    counters: IntArray,
    missing: IntArray,
    scratch: Scratch,
) -> int:
    """Play tournaments ``start`` to ``stop - 1`` of a batch, each from its first match to its final.

    Team ``t`` of a tournament sits in group ``t // 4``. ``group_home``/``group_away`` give the
    teams of each group round's matches (R7); ``first_home``/``first_away`` the first knockout
    round as rows ``(group, place - 1)`` (R11); ``next_home``/``next_away`` each later round as
    indices into the last round's winners. Orders come from the built-in strategies' tables
    (``plan``, ``jitter``: see :func:`order_plan`) and the smart strategies' decisions
    (``decided``, ``mixes``: see :class:`Decisions`) and "field-reader"'s totals (``by_field``,
    ``targets``, ``pulls``: see :func:`field_totals`, :func:`field_targets`, :func:`field_pulls`); "table-reader"'s rests from
    its group's table (``rows``, ``stakes``: see :func:`table_rows`, :func:`sevens.lab.smart.rest_table`); lines from the alias tables (``index``,
    ``cells``: see :meth:`~sevens.lab.sampling.TableSampler.arrays`).

    Per-tournament results are written to their rows (``champion`` ... ``group_lines``, each
    group line packed 8 bits per count); the counts (``stage_lines``, ``group_decided``,
    ``knockout_decided``, ``counters``: group draws) are added once a tournament is over. Returns
    -1 when all are played, or the tournament that needs a table not built yet (its ids in
    ``missing``, -1 for none), a decision not made yet (``missing``: -3 and its key, see
    :func:`decision_key`) or meets a group total beyond the packed records' range (``missing[0]``
    -2): nothing of that tournament has been counted, and it can be played again from its start.
    ``scratch`` comes from :func:`new_scratch`, one per thread.
    """
    state, record, chain, lots, h2h, group_counts, ko_counts, pairs, now, sums, orders_log, implied = scratch
    # Each team's strategy, SCRUM and knockout wins, and the team at each group place.
    kind, held, wins, placed = now[0], now[1], now[2], now[3]
    teams = seats.shape[1]
    rounds, per_round = group_home.shape
    ko_rounds = knockout_decided.shape[0]
    for b in range(start, stop):
        s0, s1, s2, s3 = _seed(key, b)
        group_counts[:] = 0
        ko_counts[:] = 0
        sums[:] = 0
        draws = 0
        group_sum = 0
        lines = group_lines[b]
        reads_field = False  # a "field-reader" seated: keep the group orders for it
        reads_table = False  # a "table-reader" seated: read the tables before the last group round
        for t in range(teams):
            kind[t] = seats[b, t]
            reads_field |= not np.isnan(targets[_at(kind[t])])
            reads_table |= rows[_at(kind[t])] >= 0
            held[t] = _STARTING_SCRUM
            wins[t] = 0
            record[t] = _RECORD_ZERO
            reached[b, t] = 0
        for turn in range(rounds):
            field = np.nan
            if reads_field and turn > 0:
                field = _field_median(orders_log[0], orders_log[1], turn, ko_rounds, implied)
            if reads_table and turn == rounds - 1:  # the tables as they stand before the round
                _table_rests(record, group_home, group_away, kind, rows, stakes)
            for k in range(per_round):
                h = group_home[turn, k]
                a = group_away[turn, k]
                home_held, away_held = held[h], held[a]
                home_line, away_line, s0, s1, s2, s3 = _match_lines(
                    h, a, turn, kind, held, plan, jitter, decided, mixes, field, by_field, targets, pulls, index, cells,
                    missing, s0, s1, s2, s3,
                )
                if home_line < 0:
                    return b
                if reads_field:
                    orders_log[0, turn, h] = home_held - held[h]
                    orders_log[0, turn, a] = away_held - held[a]
                    orders_log[1, turn, h] = home_held
                    orders_log[1, turn, a] = away_held
                lines[turn, k, 0] = home_line
                lines[turn, k, 1] = away_line
                home_wide, away_wide = _widen(home_line), _widen(away_line)
                group_sum += home_wide + away_wide
                hp, ap = _wide_points(home_wide), _wide_points(away_wide)
                ht, at = home_line & 0xFF, away_line & 0xFF
                if max(hp, ap) > _POINTS_CAP or max(ht, at) > _TRIES_CAP:
                    missing[0] = -2
                    return b
                # Without branches: who wins a match is a coin toss to the branch predictor.
                home_won, away_won = int(hp > ap), int(ap > hp)
                home_lp = 1 + home_won - away_won
                held[h] += _WIN_BONUS * home_won
                held[a] += _WIN_BONUS * away_won
                draws += 1 - home_won - away_won
                record[h] += _record_step(home_lp, ht, hp, at, ap)
                record[a] += _record_step(2 - home_lp, at, ap, ht, hp)
        if reads_table:  # the resting rows were for the last group round only
            for t in range(teams):
                kind[t] = seats[b, t]
        sums[0] = group_sum
        state[0], state[1], state[2], state[3] = s0, s1, s2, s3
        _group_tables(teams, record, lines, group_home, group_away, state, chain, lots, h2h,
                      position[b], group_counts)
        s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
        for t in range(teams):
            league_points[b, t] = _field(record[t], 0)
            placed[(t // 4) * 4 + position[b, t] - 1] = t
        for r in range(ko_rounds):
            turn = rounds + r
            if r == 0:
                matches = first_home.shape[0]
                for k in range(matches):
                    pairs[0, k] = placed[first_home[k, 0] * 4 + first_home[k, 1]]
                    pairs[1, k] = placed[first_away[k, 0] * 4 + first_away[k, 1]]
            else:
                matches = first_home.shape[0] >> r  # R11: each round halves the last
                for k in range(2 * matches):
                    pairs[3, k] = pairs[2, k]
                for k in range(matches):
                    pairs[0, k] = pairs[3, next_home[r - 1, k]]
                    pairs[1, k] = pairs[3, next_away[r - 1, k]]
            for k in range(matches):
                h = pairs[0, k]
                a = pairs[1, k]
                home_line, away_line, s0, s1, s2, s3 = _match_lines(
                    h, a, turn, kind, held, plan, jitter, decided, mixes, np.nan, by_field, targets, pulls, index,
                    cells, missing, s0, s1, s2, s3,
                )
                if home_line < 0:
                    return b
                home_wide, away_wide = _widen(home_line), _widen(away_line)
                sums[1 + r] += home_wide + away_wide
                hp, ap = _wide_points(home_wide), _wide_points(away_wide)
                # R9: points, then tries, conversions and drop goals, then the group record.
                step = 0
                if hp != ap:
                    home_wins = hp > ap
                else:
                    step = 1
                    hv = av = 0
                    for shift in (0, 8, 24):
                        hv = (home_line >> shift) & 0xFF
                        av = (away_line >> shift) & 0xFF
                        if hv != av:
                            break
                        step += 1
                    if step < 4:
                        home_wins = hv > av
                    elif record[h] != record[a]:
                        home_wins = record[h] > record[a]
                    else:
                        step = 5
                        u, s0, s1, s2, s3 = _uniform(s0, s1, s2, s3)
                        home_wins = u < 0.5
                ko_counts[r, step] += 1
                winner = h if home_wins else a
                pairs[2, k] = winner
                held[winner] += _WIN_BONUS
                wins[winner] += 1
                reached[b, h] = r + 1
                reached[b, a] = r + 1
        champion[b] = pairs[2, 0]
        for t in range(teams):
            scrum[b, t] = held[t]
            knockout_wins[b, t] = wins[t]
        for stage in range(sums.shape[0]):
            for c in range(4):
                stage_lines[stage, c] += (sums[stage] >> (16 * c)) & 0xFFFF
        group_decided += group_counts
        knockout_decided += ko_counts
        counters[0] += draws
    return -1
