"""Strategy tournaments: many batches of simulated tournaments, seated fairly, summed exactly.

Seating: the tournaments run in blocks of ``S`` (the number of strategies). Block ``b`` draws a
random order of the strategies, ``order_b``, and its tournament ``i`` seats ``order_b[(t + i) mod S]``
in seat ``t``: over a block every strategy sits in every seat exactly once, and since the order is
drawn afresh for each block, every strategy shares groups and brackets with every other equally
often in the long run (with one fixed order, a strategy would always meet the same neighbours, and
the ranking would depend on the order the strategies were named in). The orders come from the run's
seed and the block's index alone. Batches have a fixed size and batch ``j`` draws its dice from the
``j``-th child of ``numpy.random.SeedSequence(seed)``; the totals are integer sums, so a run gives
the same numbers whatever the number of workers and whatever order the batches finish in.

Runs play in this process, in a pool of local worker processes, or on a Dask cluster
(:mod:`sevens.lab.on_dask`).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import cache, partial
from itertools import islice
from types import FrameType
from typing import Any

import numpy as np
from numpy.typing import NDArray
from threadpoolctl import ThreadpoolController

from sevens.bots.strategies import registered_entry_point, shown_raised
from sevens.extras import require
from sevens.lab import held
from sevens.lab.cores import available_cores
from sevens.lab.jit import source_digest
from sevens.lab.kernels import mix64
from sevens.lab.registry import BUILTINS, describe, is_builtin, resolve
from sevens.lab.sampling import TableSampler
from sevens.lab.simulate import Sampler, simulate
from sevens.lab.strategies import BatchStrategy, ScalarAdapter, StrategyError
from sevens.tournament.quoting import shell_joined
from sevens.tournament.spreadsheet import text_cell

__all__ = [
    "BATCH_SIZE",
    "CSV_COLUMNS",
    "METRICS",
    "MIN_BLOCKS",
    "BatchSpec",
    "BlockSums",
    "LabResult",
    "SameStrategyTwice",
    "StrategyRow",
    "Totals",
    "counted",
    "WorkersCut",
    "check_run",
    "default_workers",
    "run_batch",
    "run_lab",
    "seat_block",
    "seating_key",
    "warm_up",
    "wilson_interval",
    "workers_to_use",
]

IntArray = NDArray[np.int64]
BATCH_SIZE = 2000
_Z95 = 1.959963984540054


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def seating_key(seed: int) -> int:
    """The 64-bit key a run's seating orders come from (its own stream of the run's seed).

    >>> seating_key(1) == seating_key(1) != seating_key(2)
    True
    """
    return int(np.random.SeedSequence(seed, spawn_key=(2**32 - 1,)).generate_state(1, np.uint64)[0])


def seat_block(
    strategies: int, teams: int, start: int, count: int, *, field: bool = False, key: int = 0
) -> IntArray:
    """Seats of tournaments ``start .. start + count - 1`` (see the module docstring): in block
    ``b = i // S``, strategy ``order_b[(t + i) mod S]`` in seat ``t``, each block's order drawn
    from ``key`` and ``b`` alone.

    With ``field``, the last strategy is the field and the others are played one team at a time
    against it: tournament ``i`` seats strategy ``i mod (S - 1)`` in seat ``(i // (S - 1)) mod teams``
    and the field everywhere else, so over ``(S - 1) * teams`` tournaments each sits in every
    seat once.

    >>> seats = seat_block(3, 8, 0, 3, key=7)
    >>> sorted(seats[:, 0].tolist()) == [0, 1, 2] and seats[0].tolist() == (seats[0, :3].tolist() * 3)[:8]
    True
    >>> seat_block(3, 4, 0, 5, field=True).tolist()
    [[0, 2, 2, 2], [1, 2, 2, 2], [2, 0, 2, 2], [2, 1, 2, 2], [2, 2, 0, 2]]
    """
    index = np.arange(start, start + count, dtype=np.int64)
    if field:
        others = strategies - 1
        alone = np.full((count, teams), others, dtype=np.int64)
        alone[np.arange(count), (index // others) % teams] = index % others
        return alone
    blocks = np.arange(start // strategies, (start + count - 1) // strategies + 1, dtype=np.uint64)
    # Each block's order: the strategies sorted by a hash of (key, block, strategy).
    cells = blocks[:, None] * np.uint64(strategies) + np.arange(strategies, dtype=np.uint64)
    words = (cells * _GOLDEN + np.uint64(key)).astype(np.uint64)  # wraps modulo 2**64, as meant
    orders = np.argsort(mix64(words), axis=1)
    rotation = (np.arange(teams, dtype=np.int64)[None, :] + index[:, None]) % strategies
    seats: IntArray = orders[(index // strategies - start // strategies)[:, None], rotation]
    return seats


@dataclass(frozen=True, slots=True)
class BatchSpec:
    """One batch: which strategies, which tournaments, and its seed (a SeedSequence child)."""

    strategies: tuple[str, ...]
    teams: int
    start: int
    count: int
    seed: np.random.SeedSequence
    sampler: Sampler = Sampler.TABLES
    threads: int | None = None
    """Threads of the compiled loop (None: one per core it may use); the result does not depend on it."""
    field: bool = False
    """The last strategy is a field the others play against one team at a time (:func:`seat_block`)."""
    seating: int = 0
    """The run's :func:`seating_key`."""


METRICS = ("titles", "finals", "group_points", "scrum_left")
"""What a run totals per strategy, in :class:`BlockSums`' order."""


@dataclass(frozen=True, slots=True, eq=False)
class BlockSums:
    """Sums over a run's blocks of tournaments, per strategy, for intervals that hold where a
    strategy's teams do not play independently.

    A block is the unit whose outcomes are independent of every other's: the ``S`` tournaments
    that share one drawn order of the strategies (:func:`seat_block`), or, against a field, one
    tournament. Within it a strategy's teams are tied together: there is one title per tournament
    (so two teams of one strategy cannot both win it), a group's league points add up to 12, and
    the tournaments of a block seat the same neighbours side by side. Counted as independent
    entries, the intervals were up to 1.4 times too wide with two strategies and too narrow with
    eight. With ``n_b`` a strategy's entries in block ``b`` and ``Y_b`` its total of a metric
    there, the sums are ``Σ n_b²``, ``Σ Y_b²`` and ``Σ Y_b n_b`` per metric (:data:`METRICS`),
    as exact integers, and the number of blocks it played in.

    A block that straddles batches is held in ``pending`` (its index: tournaments seen, then
    the sums of ``n`` and of each metric in it) until the batches that share it are added
    together: the sums are the same in whatever order the batches finish.
    """

    block_size: int
    blocks: NDArray[np.object_]
    n_sq: NDArray[np.object_]
    y_sq: NDArray[np.object_]
    """Shape ``(metrics, strategies)``."""
    y_n: NDArray[np.object_]
    pending: dict[int, tuple[int, IntArray]]

    @classmethod
    def zero(cls, strategies: int, block_size: int) -> BlockSums:
        def none(*shape: int) -> NDArray[np.object_]:
            return np.zeros(shape, dtype=np.int64).astype(object)

        metrics = len(METRICS)
        return cls(block_size, none(strategies), none(strategies), none(metrics, strategies),
                   none(metrics, strategies), {})

    @classmethod
    def of(cls, block_size: int, first: int, per_tournament: IntArray) -> BlockSums:
        """The sums of consecutive tournaments from ``first``: ``per_tournament[i, 0, s]`` is
        strategy ``s``'s entries in the ``i``-th, ``[i, 1 + m, s]`` its total of metric ``m``."""
        index = np.arange(first, first + per_tournament.shape[0]) // block_size
        blocks, at = np.unique(index, return_inverse=True)
        sums = np.zeros((blocks.size, *per_tournament.shape[1:]), dtype=np.int64)
        np.add.at(sums, at, per_tournament)
        counts = np.bincount(at, minlength=blocks.size)
        whole = counts == block_size
        # The whole blocks at once (a batch's sums stay far inside int64), the few at its edges kept.
        n, y = sums[whole, 0], sums[whole, 1:]
        return cls(
            block_size,
            (n > 0).sum(axis=0).astype(object),
            (n * n).sum(axis=0).astype(object),
            (y * y).sum(axis=0).astype(object),
            (y * n[:, None, :]).sum(axis=0).astype(object),
            {int(b): (int(c), s) for b, c, s in zip(blocks[~whole], counts[~whole], sums[~whole], strict=True)},
        )

    def __add__(self, other: BlockSums) -> BlockSums:
        pending = dict(self.pending)
        for block, (count, sums) in other.pending.items():
            had = pending.get(block)
            pending[block] = (count, sums) if had is None else (had[0] + count, had[1] + sums)
        summed = BlockSums(self.block_size, self.blocks + other.blocks, self.n_sq + other.n_sq,
                           self.y_sq + other.y_sq, self.y_n + other.y_n, pending)
        return summed._folded(everything=False)

    def _folded(self, *, everything: bool) -> BlockSums:
        """These sums with every whole block taken out of ``pending`` (with ``everything``, the
        partial ones too: a run's last block may be short)."""
        blocks, n_sq, y_sq, y_n = self.blocks.copy(), self.n_sq.copy(), self.y_sq.copy(), self.y_n.copy()
        pending = {}
        for block, (count, sums) in self.pending.items():
            if count < self.block_size and not everything:
                pending[block] = (count, sums)
                continue
            n, y = sums[0].astype(object), sums[1:].astype(object)  # Python integers: no overflow
            blocks += n > 0
            n_sq += n * n
            y_sq += y * y
            y_n += y * n
        return BlockSums(self.block_size, blocks, n_sq, y_sq, y_n, pending)

    def whole(self) -> BlockSums:
        """Every block taken in, the last one short or not: what a finished run's intervals use."""
        return self._folded(everything=True)


@dataclass(frozen=True, slots=True, eq=False)
class Totals:
    """Integer totals per strategy (arrays of length S) over some tournaments, and, where known,
    their sums by block (:class:`BlockSums`), which the intervals are computed from."""

    tournaments: int
    entries: IntArray
    titles: IntArray
    finals: IntArray
    group_points: IntArray
    group_points_sq: IntArray
    scrum_left: IntArray
    scrum_left_sq: IntArray
    by_block: BlockSums | None = None

    def __add__(self, other: Totals) -> Totals:
        by_block = None if self.by_block is None or other.by_block is None else self.by_block + other.by_block
        summed = {f: getattr(self, f) + getattr(other, f) for f in _FIELDS}
        return Totals(self.tournaments + other.tournaments, **summed, by_block=by_block)

    @classmethod
    def zero(cls, strategies: int, block_size: int | None = None) -> Totals:
        """No tournaments; with ``block_size``, sums by block to add to (:class:`BlockSums`)."""
        by_block = None if block_size is None else BlockSums.zero(strategies, block_size)
        return cls(0, **{f: np.zeros(strategies, dtype=np.int64) for f in _FIELDS}, by_block=by_block)


_FIELDS = ("entries", "titles", "finals", "group_points", "group_points_sq", "scrum_left", "scrum_left_sq")


@cache
def _tables() -> TableSampler:
    """The process's alias tables, kept between batches."""
    return TableSampler()


def _blas() -> ThreadpoolController:
    """The process's thread pools, looked up again only when scipy's own BLAS has come in since:
    a lookup costs more than a small batch, and numba loads scipy.linalg the first time it
    compiles or loads the loop, that is inside the first batch."""
    return _blas_found("scipy.linalg" in sys.modules)


@cache
def _blas_found(with_scipy: bool) -> ThreadpoolController:
    return ThreadpoolController()


def warm_up(teams: int = 16) -> bool:
    """Load the compiled simulator by playing one tournament, which compiles it on the first run
    after an install or an update (a minute or so on a small machine; numba keeps the result on disk). Returns
    whether there is a compiled simulator at all.

    >>> from sevens.lab import kernels
    >>> warm_up(8) == kernels.AVAILABLE
    True
    """
    from sevens.lab import kernels

    if not kernels.AVAILABLE:
        return False
    seats = np.zeros((1, teams), dtype=np.int64)
    simulate(teams, seats, [resolve("even")], np.random.default_rng(0), tables=_tables(), threads=1)
    return True


def run_batch(spec: BatchSpec, progress: Callable[[int], None] | None = None,
              look: Callable[[], None] | None = None) -> Totals:
    """Simulate one batch and total it per strategy (a plain function: it runs in any worker).

    ``progress``, if given, is told now and then while the batch plays how many of its tournaments'
    worth of work is done (more each time, fewer than ``spec.count``; the totals say when all of it
    is), at most every :data:`PROGRESS_EVERY` seconds: a batch of slow strategies can take minutes.
    ``look``, if given, is called each time a team's decision is made in the loop in Python (a
    held signal's look); the compiled loop plays a batch in one go.
    """
    tables = _tables()
    strategies = [_load(name) for name in spec.strategies]
    seats = seat_block(len(strategies), spec.teams, spec.start, spec.count, field=spec.field, key=spec.seating)
    # The run's first batch asks each strategy of one's own every question twice: one whose answers
    # change (numbers of its own, state kept outside it) is refused before its table misleads anyone.
    # Each is asked again through a second one made the same way (its twin): nothing is copied.
    probe = {i: _load(name) for i, name in enumerate(spec.strategies) if spec.start == 0 and not is_builtin(name)}
    labels = [_label(typed, made) for typed, made in zip(spec.strategies, strategies, strict=True)]
    # One BLAS thread: the odds' products are small and many, and BLAS threads that wait by
    # spinning took the cores from the lab's other workers (a run 10 times slower with 2 workers).
    try:
        with _blas().limit(limits=1, user_api="blas"):
            result = simulate(
                spec.teams, seats, strategies, np.random.default_rng(spec.seed), sampler=spec.sampler, tables=tables,
                threads=spec.threads, probe=probe, labels=labels, progress=_every(spec.count, progress, look),
            )
    except StrategyError as exc:
        # Which batch too: a run to that batch's end, with the same seed, plays it again.
        end = spec.start + spec.count
        raise StrategyError(
            f"{exc} (in the batch of tournaments {spec.start + 1:,} to {end:,}: --tournaments {end} with the same "
            "seed plays it again)"
        ) from exc.__cause__
    s = len(strategies)
    champion = np.zeros(seats.shape, dtype=np.int64)
    champion[np.arange(seats.shape[0]), result.champion] = 1
    # [tournament, seat] -> [tournament, strategy]: bincount over the pair's index.
    pair = (np.arange(seats.shape[0])[:, None] * s + seats).ravel()

    def per_tournament(values: IntArray) -> IntArray:
        # Float weights are exact here: every total stays far below 2**53.
        summed = np.bincount(pair, weights=values.ravel().astype(np.float64), minlength=seats.shape[0] * s)
        return summed.round().astype(np.int64).reshape(seats.shape[0], s)

    entries = np.bincount(pair, minlength=seats.shape[0] * s).astype(np.int64).reshape(seats.shape[0], s)
    metrics = [per_tournament(v) for v in (champion, result.finalist.astype(np.int64), result.group_points,
                                            result.scrum_left)]
    block = 1 if spec.field else s
    return Totals(
        tournaments=spec.count,
        entries=entries.sum(axis=0),
        titles=metrics[0].sum(axis=0),
        finals=metrics[1].sum(axis=0),
        group_points=metrics[2].sum(axis=0),
        group_points_sq=per_tournament(result.group_points**2).sum(axis=0),
        scrum_left=metrics[3].sum(axis=0),
        scrum_left_sq=per_tournament(result.scrum_left**2).sum(axis=0),
        by_block=BlockSums.of(block, spec.start, np.stack([entries, *metrics], axis=1)),
    )


PROGRESS_EVERY = 0.5
"""Seconds at least between two reports of a batch's progress while it plays."""


def _every(count: int, progress: Callable[[int], None] | None,
           look: Callable[[], None] | None = None) -> Callable[[float], None] | None:
    """A batch's share of decisions made, passed on to ``progress`` as tournaments' worth of work
    (fewer than ``count``), when that has grown and :data:`PROGRESS_EVERY` seconds have passed;
    ``look`` is called at every share."""
    if progress is None and look is None:
        return None
    told = 0
    when = time.monotonic()

    def share(done: float) -> None:
        nonlocal told, when
        if look is not None:
            look()
        tournaments = min(count - 1, int(done * count))
        if progress is not None and tournaments > told and time.monotonic() - when >= PROGRESS_EVERY:
            told, when = tournaments, time.monotonic()
            progress(tournaments)

    return share


def _label(typed: str, made: object) -> str:
    """A strategy as messages name it: as the run names it, and by its own name where that differs.

    A strategy of one's own need not have a name: it is then named as the run names it. A bot's
    is its own ``name``, not the name its adapter takes from its class where it has none ("(named
    'Plain')" read as a name the bot was given).

    >>> _label("even", resolve("even")), _label("mine:Pacer", resolve("even")), _label("mine:Plain", object())
    ("'even'", "'mine:Pacer' (named 'even')", "'mine:Plain'")
    >>> class Plain:
    ...     def order(self, view, rng): ...
    >>> _label("mine:Plain", ScalarAdapter(Plain()))
    "'mine:Plain'"
    """
    own = getattr(made.strategy if isinstance(made, ScalarAdapter) else made, "name", typed)
    return repr(typed) if typed == own else f"{typed!r} (named {own!r})"


@dataclass(frozen=True, slots=True)
class StrategyRow:
    """One strategy's results, per team it played: rates with their 95% Wilson intervals
    (``*_low``, ``*_high``), means with their 95% half-widths (``*_ci``; NaN over a single entry, which shows no spread).

    ``exact``: the strategy held every seat of every tournament, so the rules fix its title and
    final rates (one title and two finalists a tournament, all its own) and its mean group points
    (2 league points a group match): these are exact, their intervals of width 0, and not
    estimates. Its SCRUM left is still an estimate.
    """

    name: str
    entries: int
    title_rate: float
    title_low: float
    title_high: float
    final_rate: float
    final_low: float
    final_high: float
    group_points: float
    group_points_ci: float
    scrum_left: float
    scrum_left_ci: float
    exact: bool = False
    titles: int = 0
    """Titles won: the count ``title_rate`` is of, for pooling runs without rounding."""
    finals: int = 0
    """Finals reached."""
    blocks: int = 0
    """Independent blocks of tournaments it played in; at :data:`MIN_BLOCKS` or more, the intervals
    come from the spread between them, else over its entries as if independent."""

    def to_dict(self) -> dict[str, Any]:
        exact = self.exact
        return {
            "strategy": self.name,
            "entries": self.entries,
            "blocks": self.blocks,
            "titles": {"count": self.titles, "rate": self.title_rate, "ci95_low": self.title_low,
                       "ci95_high": self.title_high, "exact": exact},
            "finals": {"count": self.finals, "rate": self.final_rate, "ci95_low": self.final_low,
                       "ci95_high": self.final_high, "exact": exact},
            "group_points": {"mean": self.group_points, "ci95": _known(self.group_points_ci), "exact": exact},
            "scrum_left": {"mean": self.scrum_left, "ci95": _known(self.scrum_left_ci), "exact": False},
        }


def wilson_interval(k: int, n: float, rate: float | None = None) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate of ``k`` in ``n``.

    The normal approximation ``p ± 1.96 sqrt(p(1-p)/n)`` is empty at 0 or ``n`` (a strategy that
    never won over a short run would read "0 ± 0") and reaches below 0 or above 1 over few
    entries; Wilson's stays inside [0, 1] and is close to the normal one once ``n`` is large.
    Over no entries at all the rate could be anything: [0, 1].

    ``n`` may be an effective number of entries (Kish's: ``p(1-p)`` over the rate's variance),
    with ``rate`` the rate itself: the interval of entries that are not independent.

    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    >>> [round(x, 4) for x in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    """
    if n == 0:
        return 0.0, 1.0
    p = k / n if rate is None else rate
    z2 = _Z95 * _Z95
    scale = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / scale
    half = _Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / scale
    # At k = 0 or n one end is exactly the rate; clamp the rounding around it.
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def _known(half: float) -> float | None:
    """A half-width for JSON: null where it is unknown (a single entry)."""
    return None if math.isnan(half) else half


MIN_BLOCKS = 30
"""Blocks a strategy must play in for its intervals to come from the spread between blocks: over
fewer, that spread is too rough a guess (two tournaments against a field that it won once each
show none at all), and the intervals are over its entries as if they were independent."""


def _block_variance(sums: BlockSums, metric: int, strategy: int, total: int, n: int) -> float | None:
    """The variance of a strategy's ratio ``total / n`` over independent blocks (the ratio
    estimator's, ``B / (B - 1) Σ (Y_b - r n_b)² / n²``), or None over fewer than
    :data:`MIN_BLOCKS` blocks."""
    blocks = int(sums.blocks[strategy])
    if blocks < MIN_BLOCKS:
        return None
    y_sq, y_n, n_sq = int(sums.y_sq[metric, strategy]), int(sums.y_n[metric, strategy]), int(sums.n_sq[strategy])
    # n² Σ (Y_b - r n_b)², exactly: the terms are large and nearly cancel.
    spread = n * n * y_sq - 2 * n * total * y_n + total * total * n_sq
    return max(0.0, spread / n**4) * blocks / (blocks - 1)


def _rate(k: int, n: int, variance: float | None = None, *, everywhere: bool = False) -> tuple[float, float, float]:
    """A rate and its interval; ``everywhere``: the strategy held every seat of every tournament."""
    rate = k / n if n else 0.0
    if everywhere:
        # One title and two finalists per tournament, all its own: exact, over any number of
        # blocks (over fewer than MIN_BLOCKS it had a Wilson interval around 1 / teams).
        return rate, rate, rate
    if not variance or rate in (0.0, 1.0):
        # No blocks to go by, none of its teams won (or all did), or every block came out alike by
        # chance (a field whose lone teams never won): Wilson's over the entries.
        return rate, *wilson_interval(k, n)
    return rate, *wilson_interval(k, rate * (1 - rate) / variance, rate)


def _mean(total: int, squares: int, n: int, variance: float | None = None) -> tuple[float, float]:
    # One entry tells nothing of the spread: its half-width is unknown (NaN), not 0.
    if n == 0:
        return 0.0, math.nan
    mean = total / n
    if variance is not None:
        return mean, _Z95 * math.sqrt(variance)
    if n == 1:
        return mean, math.nan
    var = max(0.0, squares / n - mean * mean) * n / max(1, n - 1)
    return mean, _Z95 * math.sqrt(var / n)


@dataclass(frozen=True, slots=True, eq=False)
class LabResult:
    """A strategy tournament: its settings, exact totals, and the table ranked by titles.

    With a ``field``, each of ``strategies`` played one team at a time against it, and the totals
    have one more entry, the field's, last.
    """

    strategies: tuple[str, ...]
    teams: int
    seed: int
    totals: Totals
    field: str | None = None
    batch_size: int = BATCH_SIZE
    sampler: Sampler = Sampler.TABLES
    sources: tuple[dict[str, Any], ...] = ()
    """What each strategy named (and the field, last) played: :func:`sevens.lab.registry.describe`."""

    @property
    def field_label(self) -> str | None:
        """The field's row name in :attr:`rows` ("NAME (field)"), if there is a field."""
        return None if self.field is None else f"{self.field} (field)"

    @property
    def rows(self) -> list[StrategyRow]:
        """One row per strategy (the field's named :attr:`field_label`), best title rate first.

        Rates are per team entered (a strategy that plays a quarter of the seats and wins a
        quarter of the titles has the neutral rate ``1 / teams``). The intervals take the blocks of
        tournaments as the independent units (:class:`BlockSums`): normal approximations for the
        means, Wilson's for the rates over their effective number of entries. A strategy seen in
        fewer than :data:`MIN_BLOCKS` blocks (or totals without block sums) has them over its
        entries as if they were independent.
        """
        t = self.totals
        names = self.strategies if self.field_label is None else (*self.strategies, self.field_label)
        by_block = None if t.by_block is None else t.by_block.whole()
        rows = []
        for i, name in enumerate(names):
            n = int(t.entries[i])
            totals = [int(getattr(t, metric)[i]) for metric in METRICS]
            spread = [None if by_block is None else _block_variance(by_block, m, i, totals[m], n)
                      for m in range(len(METRICS))]
            everywhere = n == self.teams * t.tournaments
            title = _rate(totals[0], n, spread[0], everywhere=everywhere)
            final = _rate(totals[1], n, spread[1], everywhere=everywhere)
            gp, gp_ci = _mean(totals[2], int(t.group_points_sq[i]), n, spread[2])
            if everywhere:
                gp_ci = 0.0  # every group match gives 2 league points, all its own: exact
            sl, sl_ci = _mean(totals[3], int(t.scrum_left_sq[i]), n, spread[3])
            blocks = 0 if by_block is None else int(by_block.blocks[i])
            rows.append(StrategyRow(name, n, *title, *final, gp, gp_ci, sl, sl_ci, exact=everywhere, titles=totals[0],
                                    finals=totals[1], blocks=blocks))
        return sorted(rows, key=lambda r: -r.title_rate)

    @property
    def command(self) -> str | None:
        """The ``sevens lab`` command that plays this run again and prints the same ``--json``; None
        for a run whose batch size or sampler the command cannot set (``run_lab``'s own)."""
        return self._command("--json")

    def _command(self, *output: str) -> str | None:
        if self.batch_size != BATCH_SIZE or self.sampler != Sampler.TABLES:
            return None
        words = ["sevens", "lab", "--strategies", ",".join(self.strategies), "--tournaments",
                 str(self.totals.tournaments), "--seed", str(self.seed), "--teams", str(self.teams)]
        if self.field is not None:
            words += ["--field", self.field]
        return shell_joined([*words, *output])

    def to_dict(self) -> dict[str, Any]:
        from sevens import __version__

        return {
            "strategies": list(self.strategies),
            "field": self.field,
            "teams": self.teams,
            "tournaments": self.totals.tournaments,
            "seed": self.seed,
            "batch_size": self.batch_size,
            "sampler": self.sampler.name.lower(),
            "sevens": {"version": __version__, "source_digest": source_digest()},
            "command": self.command,
            "sources": [dict(about) for about in self.sources],
            "results": [row.to_dict() for row in self.rows],
        }

    def to_csv(self) -> str:
        """The results as CSV (``sevens lab --csv``): a header of :data:`CSV_COLUMNS`, then one line
        per strategy in the order of :attr:`rows`, each with every figure of :meth:`to_dict`'s
        ``results`` and the run's settings, so that lines from several runs pasted into one sheet
        still say which run each came from. Numbers are written as the JSON writes them (Python's
        shortest text that reads back as the same float), ``true``/``false`` for the ``exact``
        flags, and a cell the JSON has as null is left empty (pandas reads it as NaN).

        >>> lines = run_lab(["even", "random"], 20, 1, teams=8).to_csv().splitlines()
        >>> lines[0].split(",")[:6]
        ['strategy', 'entries', 'blocks', 'titles_count', 'titles_rate', 'titles_ci95_low']
        >>> len(lines), lines[1].split(",")[0] in ("even", "random")
        (3, True)
        """
        data = self.to_dict()
        named = [*self.strategies, *([] if self.field_label is None else [self.field_label])]
        sources = dict(zip(named, data["sources"], strict=True)) if data["sources"] else {}
        run = {"teams": data["teams"], "tournaments": data["tournaments"], "seed": data["seed"],
               "field": data["field"], "batch_size": data["batch_size"], "sampler": data["sampler"],
               "sevens_version": data["sevens"]["version"], "sevens_source_digest": data["sevens"]["source_digest"],
               "command": self._command("--csv", "-")}  # what prints this CSV: the JSON's says --json
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")  # as sevens odds --csv writes
        writer.writerow(CSV_COLUMNS)
        for row in data["results"]:
            cells: dict[str, Any] = {"strategy": row["strategy"], "entries": row["entries"], "blocks": row["blocks"]}
            for figure in ("titles", "finals"):
                for key in ("count", "rate", "ci95_low", "ci95_high", "exact"):
                    cells[f"{figure}_{key}"] = row[figure][key]
            for figure in ("group_points", "scrum_left"):
                mean, half = row[figure]["mean"], row[figure]["ci95"]
                cells.update({f"{figure}_mean": mean, f"{figure}_ci95": half,
                              f"{figure}_ci95_low": None if half is None else mean - half,
                              f"{figure}_ci95_high": None if half is None else mean + half,
                              f"{figure}_exact": row[figure]["exact"]})
            source = sources.get(row["strategy"], {})
            for key in _SOURCE_KEYS:
                value = source.get(key)
                # The parameters are an object: kept as the JSON writes it, in one cell.
                cells[f"source_{key}"] = json.dumps(value) if key == "parameters" and value is not None else value
            cells.update(run)
            writer.writerow(_csv_cell(cells[column]) for column in CSV_COLUMNS)
        return out.getvalue()


_SOURCE_KEYS = ("kind", "target", "parameters", "package", "package_version", "file", "file_sha256")

CSV_COLUMNS = (
    "strategy", "entries", "blocks",
    *(f"{figure}_{key}" for figure in ("titles", "finals") for key in ("count", "rate", "ci95_low", "ci95_high", "exact")),
    *(f"{figure}_{key}" for figure in ("group_points", "scrum_left")
      for key in ("mean", "ci95", "ci95_low", "ci95_high", "exact")),
    *(f"source_{key}" for key in _SOURCE_KEYS),
    "teams", "tournaments", "seed", "field", "batch_size", "sampler", "sevens_version", "sevens_source_digest", "command",
)
"""The columns of :meth:`LabResult.to_csv`: the JSON's keys, a nested one joined by ``_``
(``titles.ci95_low`` as ``titles_ci95_low``), with the means' interval bounds beside their
half-widths, each strategy's ``sources`` entry as ``source_*``, and the run's settings."""


def _csv_cell(value: object) -> object:
    """A value as a CSV cell: JSON's spelling for the flags, nothing for a null, a float as the JSON
    writes it (the shortest text that reads back as the same number), and text a spreadsheet would
    run as a formula (a strategy registered as ``=HYPERLINK(...)``) after an apostrophe; a negative
    number is a number, not text, and stays one.

    >>> [_csv_cell(v) for v in (True, None, 0.1 + 0.2, 7, "even", "-1", -0.5)]
    ['true', '', '0.30000000000000004', 7, 'even', "'-1", '-0.5']
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return text_cell(value)
    return value


def _specs(
    strategies: tuple[str, ...], tournaments: int, seed: int, teams: int, batch_size: int, sampler: Sampler,
    threads: int | None, field: bool,
) -> Iterator[BatchSpec]:
    # Made as they are sent out, so that a long run holds only the batches in flight. Child j is
    # what SeedSequence(seed).spawn(count)[j] would be, without making all the others first.
    key = seating_key(seed)
    for j in range(math.ceil(tournaments / batch_size)):
        start = j * batch_size
        count_j = min(batch_size, tournaments - start)
        child = np.random.SeedSequence(seed, spawn_key=(j,))
        yield BatchSpec(strategies, teams, start, count_j, child, sampler, threads, field, key)


MAX_TOURNAMENTS = 10**12  # 16 teams' squared SCRUM left (160^2 each) still fits an int64 total


class WorkersCut(UserWarning):
    """:func:`run_lab` was asked for more workers than the run has batches, or than the cores it may
    use (:func:`sevens.lab.cores.available_cores`), and plays with fewer (:func:`workers_to_use`)."""


def counted(tournaments: int) -> str:
    """A number of tournaments in words, for the table's and the plot's titles and the messages: a
    run of one said "1 tournaments of 16 teams".

    >>> counted(1), counted(20000)
    ('1 tournament', '20,000 tournaments')
    """
    return f"{tournaments:,} tournament{'' if tournaments == 1 else 's'}"


def workers_to_use(workers: int, tournaments: int, batch_size: int = BATCH_SIZE,
                   *, asked: str = "workers={}") -> tuple[int, list[str]]:
    """The local workers a run plays with when asked for ``workers``, and why each cut was made.

    No more than the run has batches (a batch is not split: its dice are its own from the seed),
    nor than the cores the process may use (more only take turns on them, each with its own
    memory). ``asked`` spells the request in the reasons (``"--workers {}"`` for the command).
    The results are the same for any number of workers, so a cut changes only the time taken.

    >>> workers_to_use(4, 10, batch_size=10)[0]
    1
    """
    reasons = []
    batches = math.ceil(tournaments / batch_size)
    if workers > batches:
        reasons.append(
            f"{asked.format(workers)} is more than the {batches:,} batch{'' if batches == 1 else 'es'} of up to "
            f"{batch_size:,} tournaments this run has: playing with {batches:,} (a batch plays in one worker, and is "
            "not split, since each has dice of its own from the seed: that keeps the results the same for any "
            "number of workers)"
        )
        workers = batches
    if workers > (cores := available_cores()):
        # 16 workers on 2 cores took 2.7 times as long as 2 did, and 1.7 GB of memory, for the same table.
        reasons.append(
            f"{asked.format(workers)} is more than the {cores} core{'' if cores == 1 else 's'} this run may use: playing with {cores} "
            "(more workers would only take turns on the same cores, each with its own memory, for the same results)"
        )
        workers = cores
    return workers, reasons


def default_workers(tournaments: int, batch_size: int = BATCH_SIZE) -> int:
    """Worker processes for a run when none are asked for: one per core, but no more than the run
    has batches (a single batch gains nothing from a pool, and starting one costs a second).

    >>> default_workers(1) == 1 and default_workers(10**6) == available_cores()
    True
    """
    return max(1, min(available_cores(), math.ceil(tournaments / batch_size)))


class SameStrategyTwice(ValueError):
    """A run naming one strategy twice (under one name or two): its rows would read as two."""


def check_run(
    strategies: Sequence[str], tournaments: int, *, teams: int = 16, workers: int = 1, batch_size: int = BATCH_SIZE,
    field: str | None = None, seed: int = 0,
) -> None:
    """Refuse a run that cannot start, before any work (``run_lab`` calls it first).

    >>> check_run(["even"], 0)
    Traceback (most recent call last):
    ...
    ValueError: the number of tournaments must be at least 1, got 0
    """
    if not strategies:
        raise ValueError("give at least one strategy")
    twice = sorted(name for name, n in Counter(strategies).items() if n > 1)
    if twice:
        raise SameStrategyTwice(f"{', '.join(twice)} named more than once; name each strategy once")
    if tournaments < 1:
        raise ValueError(f"the number of tournaments must be at least 1, got {tournaments}")
    if tournaments > MAX_TOURNAMENTS:
        raise ValueError(
            f"{tournaments} tournaments is more than one run counts exactly (its totals are 64-bit "
            f"integers): run at most {MAX_TOURNAMENTS:,} at a time, with a different --seed for each run"
        )
    if seed < 0:
        raise ValueError(f"the seed must be 0 or more, got {seed}")
    if workers < 1:
        raise ValueError(f"the number of workers must be at least 1, got {workers}")
    if teams not in (8, 16):
        raise ValueError(f"R6: a tournament has 8 or 16 teams, not {teams}; use --teams 8 or --teams 16 (16 if left out)")
    if batch_size < 1:
        raise ValueError(f"the batch size must be at least 1, got {batch_size}")
    # Every strategy named must play at least one team, or its row would be empty (seat_block).
    if field is not None and tournaments < len(strategies):
        raise ValueError(
            f"against a field each tournament seats one team of one strategy, so {len(strategies)} strategies "
            f"need at least {len(strategies)} tournaments, got {tournaments}: run --tournaments "
            f"{len(strategies)} or more (a multiple of {len(strategies) * teams:,} seats each in every seat "
            "equally often)"
        )
    if field is None and teams + tournaments - 1 < len(strategies):
        # 2 tournaments have seats enough for 20 strategies, but the seating is a rotation (seat_block):
        # it is what seats each strategy in every seat equally often.
        least = len(strategies) - teams + 1
        raise ValueError(
            f"{len(strategies)} strategies in tournaments of {teams} teams need at least {least} tournaments for "
            f"each to play a team, got {tournaments}: the strategies take the {teams} seats in turn, one place "
            f"further on in each tournament, so the last of them first plays in tournament {least}; run "
            f"--tournaments {least} or more (a multiple of {len(strategies)} seats each in every seat equally often)"
        )
    for name in (*strategies, *([field] if field is not None else [])):
        resolve(name)  # an unknown name fails here, before any work is sent out
    # A built-in under two spellings (even-flair, even-flair@1.0) is one strategy seated twice.
    seen: dict[tuple[str, object], str] = {}
    for name in strategies:
        base = name.partition("@")[0]
        if base not in BUILTINS:
            continue
        key = (base, getattr(resolve(name), "knockout_weight", None))
        if key in seen:
            raise SameStrategyTwice(
                f"{seen[key]} and {name} are the same strategy (knockout weight {key[1]}); name each strategy once"
            )
        seen[key] = name
    # One's own strategy under its entry point's name and its path is one strategy seated twice too.
    paths: dict[str, str] = {}
    for name in strategies:
        if is_builtin(name):
            continue
        registered = registered_entry_point(name)
        path = name if registered is None else registered[1]
        if path in paths:
            raise SameStrategyTwice(
                f"{paths[path]} and {name} are the same strategy, both {path} (an entry point names it); name each "
                "strategy once"
            )
        paths[path] = name


def run_lab(
    strategies: Sequence[str],
    tournaments: int,
    seed: int,
    *,
    teams: int = 16,
    workers: int = 1,
    dask: str | None = None,
    batch_size: int = BATCH_SIZE,
    sampler: Sampler = Sampler.TABLES,
    progress: Callable[[int], None] | None = None,
    field: str | None = None,
    stage: Callable[[str], None] | None = None,
) -> LabResult:
    """Run a strategy tournament.

    Args:
        strategies: strategy names (see :func:`sevens.lab.registry.resolve`), at least one.
        tournaments: how many tournaments.
        seed: the run's seed; the same seed gives the same result for any ``workers``.
        teams: 8 or 16 teams per tournament (R6).
        workers: local processes (1: in this process); no more than the run has batches nor than the
            cores it may use play (:func:`workers_to_use`), and asking for more warns
            :class:`WorkersCut` once for each cut.
        dask: address of a Dask scheduler to run the batches on instead.
        batch_size: tournaments per batch (part of the run's identity with the seed).
        sampler: how lines are drawn.
        progress: called with the number of tournaments' worth of work done since it was last
            called: when a batch finishes, and now and then while one plays (a batch of slow
            strategies can take minutes), in any worker or on a Dask cluster; the numbers add up to
            ``tournaments``. Whether and when it is called changes nothing in the results.
        field: a strategy that fills every seat but one: each of ``strategies`` then plays one
            team per tournament against it, in turn and in every seat (:func:`seat_block`).
        stage: on Dask, told what the run is doing whenever that changes: ``"connecting"`` to the
            scheduler, ``"playing"``, or ``"no workers"`` (the cluster has none, and the run waits
            for one); see :data:`sevens.lab.on_dask.STAGES`.

    Raises:
        ValueError: a bad count, an unknown strategy, or no Dask scheduler at ``dask`` (where nothing
            listens yet, after waiting the connect timeout for one to start, as said on stderr).
        sevens.extras.MissingExtra: ``dask`` is given and Dask is not installed (sevens[dask]).
        StrategyError: a strategy of one's own failed, or does not load in a worker.
        sevens.lab.on_dask.ClusterError: the Dask scheduler went away during the run, or the workers
            playing a batch kept dying.

    >>> result = run_lab(["even", "group-blitz"], 40, seed=1, teams=8, batch_size=20)
    >>> result.totals.tournaments, int(result.totals.titles.sum())
    (40, 40)
    """
    names = tuple(strategies)
    check_run(names, tournaments, teams=teams, workers=workers, batch_size=batch_size, field=field, seed=seed)
    if dask is not None:
        require("dask", "run_lab(dask=...)")  # before any work: dask and distributed are an extra
    if dask is None:
        workers, reasons = workers_to_use(workers, tournaments, batch_size)
        for reason in reasons:
            # The command says these in notes; a caller from Python was not told, and took one busy
            # core for a fault (or 16 processes on 2 cores for a slow lab).
            warnings.warn(reason, WorkersCut, stacklevel=2)
    seated = names if field is None else (*names, field)
    sources = tuple(describe(name) for name in seated)  # before the run: a file edited meanwhile is not this run's
    # One process uses every core; several processes (or a Dask cluster) one thread each.
    threads = None if workers == 1 and dask is None else 1
    specs = _specs(seated, tournaments, seed, teams, batch_size, sampler, threads, field is not None)
    # Integer totals add up to the same whatever order the batches finish in.
    total = Totals.zero(len(seated), block_size=1 if field is not None else len(seated))
    told: dict[int, int] = {}  # tournaments' worth of work told so far of each batch still playing, by start

    def partly(start: int, tournaments: int) -> None:
        if progress is not None and start in told and tournaments > told[start]:
            progress(tournaments - told[start])
            told[start] = tournaments

    def done(spec: BatchSpec, totals: Totals) -> None:
        nonlocal total
        total = total + totals
        if progress is not None:
            progress(totals.tournaments - told.pop(spec.start, 0))

    if dask is not None:
        from sevens.lab.on_dask import run_on_dask

        run_on_dask(dask, specs, told, partly if progress is not None else None, done, stage)
    elif workers == 1:
        # Signals held for a look between batches and at each decision of a slow batch, as the pool
        # below looks: a kill acted on wherever the main thread was once left a run neither stopping
        # nor saying so (a CI run, for four minutes, with one worker).
        with held.between_steps() as ctrl_c:
            for spec in specs:
                ctrl_c.take()
                told[spec.start] = 0
                done(spec, run_batch(spec, partial(partly, spec.start), look=ctrl_c.take))
    else:
        warm_up(teams)  # compile here once, not in every worker at the same time
        context = multiprocessing.get_context()
        # The workers tell how far their batches are on a queue of their own, read between results.
        told_by = None if progress is None else context.Queue()
        started = _Workers(context)
        with held.between_steps() as ctrl_c, ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_start_worker,
            initargs=(told_by, context.get_start_method(), started.reported),
        ) as pool:

            def send(spec: BatchSpec) -> Future[Totals]:
                told[spec.start] = 0
                future = pool.submit(_pooled_batch, spec)
                playing[future] = spec
                return future

            def read_told() -> None:
                started.look()
                while told_by is not None:
                    try:
                        partly(*told_by.get_nowait())
                    except queue.Empty:
                        return

            playing: dict[Future[Totals], BatchSpec] = {}
            try:
                pending = {send(spec) for spec in islice(specs, _IN_FLIGHT * workers)}
                while pending:
                    finished, pending = wait(pending, timeout=held.EVERY, return_when=FIRST_COMPLETED)
                    ctrl_c.take()
                    read_told()
                    for future in finished:
                        done(playing.pop(future), future.result())
                        pending |= {send(spec) for spec in islice(specs, 1)}
            except BaseException:
                # A failed batch or Ctrl-C: the batches playing stop as at Ctrl-C, and those queued
                # are dropped. After a failed batch the run used to wait for the others to end: half
                # a minute for a slow strategy's two, for a result it would not show.
                started.interrupt()
                raise
            finally:
                # Waited for here: left for Python's exit, the pool's thread could close its pipe as
                # the exit woke it ('Exception ignored ... OSError: Bad file descriptor' under the
                # run's message).
                _shut_down(pool, read_told)
                started.reported.close()
                if told_by is not None:
                    told_by.cancel_join_thread()  # what is left on it is of no use now
    return LabResult(names, teams, seed, total, field, batch_size, sampler, sources)


def _shut_down(pool: ProcessPoolExecutor, read_told: Callable[[], None]) -> None:
    """End ``pool``, dropping the batches it has not started, and read the workers' progress while
    it ends: a worker leaves only once all it told is in the pipe, and unread, a full pipe kept it
    (and the run, waiting for it) there for good, after a failed batch with progress shown at
    every step."""
    ending = threading.Thread(target=pool.shutdown, kwargs={"wait": True, "cancel_futures": True},
                              name="lab pool ending")
    ending.start()
    while ending.is_alive():
        read_told()
        ending.join(held.EVERY)
    read_told()


class _Workers:
    """The worker processes of a run's pool, as each reports its pid on starting: a pool has no
    public list of its processes (``ProcessPoolExecutor``'s is private before Python 3.14)."""

    def __init__(self, context: Any) -> None:
        # A SimpleQueue writes in the worker's own thread: no feeder thread for Ctrl-C to break off.
        self.reported = context.SimpleQueue()
        self.pids: set[int] = set()
        self.stopping = False

    def look(self) -> None:
        """Take in the pids reported since the last look; once stopping, interrupt each new one (a
        worker that starts late still takes a batch the pool had already queued for it)."""
        while not self.reported.empty():
            pid = self.reported.get()
            self.pids.add(pid)
            if self.stopping:
                _interrupt(pid)

    def interrupt(self) -> None:
        """Tell every worker to stop the batch it plays, as Ctrl-C typed in a terminal does (each
        takes it once, :func:`_interrupted_once`): a run stopped by a signal sent to it alone
        (``kill``, ``timeout``), or by a failed batch, where they would play on, or be left playing
        once the run was gone."""
        self.stopping = True
        for pid in self.pids:
            _interrupt(pid)
        self.look()


def _interrupt(pid: int) -> None:
    with contextlib.suppress(OSError):  # ended already
        os.kill(pid, signal.SIGINT)


_TOLD: Any = None
"""In a worker process of :func:`run_lab`: the queue it tells its batches' progress on, or None."""

_STARTED_BY: str | None = None
"""In a worker process of :func:`run_lab`: how it was started ("fork", "spawn", "forkserver")."""


def _start_worker(told: Any, started_by: str, reported: Any = None) -> None:
    global _TOLD, _STARTED_BY
    _TOLD, _STARTED_BY = told, started_by
    # Ctrl-C reaches the workers too (they share the terminal's process group). Taken once: a second
    # press, as the worker reported the first to the run, broke that off with a traceback printed
    # under the run's message. A forked worker inherits the run's own handler (`sevens lab` sets
    # one), which raised in a worker waiting for a batch, outside any batch: replaced too. Only an
    # ignored Ctrl-C (a run started with it ignored, in the background) stays ignored.
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, _interrupted_once)
    # The run's own handlers of kill and of a closed terminal, inherited by a forked worker, are the
    # run's: a worker ends at them, as the pool expects when it ends a worker (SIGTERM).
    for signum in (s for s in held.SIGNALS if s != signal.SIGINT):
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, signal.SIG_DFL)
    sys.stdout = _in_whole_lines(sys.stdout)
    sys.stderr = _in_whole_lines(sys.stderr)
    # Only now, with Ctrl-C taken as above: the run may send it as soon as it knows the pid.
    if reported is not None:
        reported.put(os.getpid())


def _in_whole_lines(stream: Any) -> Any:
    """``stream``, writing each line in one piece: the workers share the run's stderr, and a
    strategy's ``print("deciding turn", 3)`` is four writes, which with Python unbuffered
    (``PYTHONUNBUFFERED``, ``-u``) reached the file one by one, so two workers' lines came out
    interleaved mid-line. A stream with no file behind it (a captured one) is left as it is."""
    try:
        number = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return stream
    # The stream inherited is not touched beyond its number: forked while another thread of the run
    # (the progress bar's) was writing to it, its lock stays held in the worker for good, and a flush
    # here waited for ever (the worker never took a batch, and the run never ended). The run flushed
    # it just before forking.
    # The worker's stream for as long as the process lives: nothing to close.
    file = open(number, "wb", closefd=False)  # noqa: SIM115
    return io.TextIOWrapper(file, encoding=stream.encoding, errors=stream.errors, line_buffering=True)


_STOPPED = False
"""In a worker process of :func:`run_lab`: Ctrl-C came, so it plays no more batches."""

_PLAYING = False
"""In a worker process of :func:`run_lab`: a batch is playing."""

_TELLING = False
"""In a worker process of :func:`run_lab`: the batch is putting its progress on the run's queue."""


def _interrupted_once(signum: int, frame: FrameType | None) -> None:
    """A worker's Ctrl-C: the batch playing stops (KeyboardInterrupt), none queued is played, and
    any further press is ignored. A worker waiting for a batch is not broken off where it waits."""
    global _STOPPED
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _STOPPED = True
    if _PLAYING and not _TELLING:
        raise KeyboardInterrupt


_DEFAULT_FOR = {"spawn": "Python's default on macOS and Windows", "forkserver": "Python's default on Linux from 3.14"}


def _load(name: str) -> BatchStrategy:
    """The strategy called ``name``, as :func:`resolve` makes it; in a worker of :func:`run_lab`,
    one that does not load there (though it did in the run's own process, which checked every
    name) is a :class:`StrategyError` that says why and what to do."""
    try:
        return resolve(name)
    except Exception as exc:
        from sevens.lab.on_dask import ON_DASK, not_on_dask

        address = getattr(ON_DASK, "address", None)
        if address is not None:
            raise StrategyError(not_on_dask(name, exc, address)) from None
        if _STARTED_BY is None:
            raise
        raise StrategyError(_not_in_worker(name, exc, _STARTED_BY)) from None


def _not_in_worker(name: str, exc: BaseException, started_by: str) -> str:
    """Why strategy ``name`` loads in the run's process and not in a worker started by ``started_by``.

    >>> print(_not_in_worker("__main__:Mine", AttributeError("no Mine"), "spawn"))  # doctest: +ELLIPSIS
    strategy '__main__:Mine' loads in this process but not in the run's worker processes (AttributeError: no Mine): ...

    What the strategy's code raised is quoted escaped (a terminal code is shown, not obeyed):

    >>> message = _not_in_worker("m:Mine", ValueError("no\\x1b[2J Mine"), "fork")
    >>> "\\x1b" in message, "(ValueError: no\\\\x1b[2J Mine)" in message
    (False, True)
    """
    if started_by == "fork":
        why = "the workers started as copies of this process (fork), so the strategy's code or state differs there"
    else:
        why = (
            f"the workers are new Python processes (started by {started_by!r}, "
            f"{_DEFAULT_FOR.get(started_by, 'as asked')}), which import each strategy afresh by its path: it must "
            "be defined at the top level of a file they can import (in the current folder, on PYTHONPATH or installed), not only in "
            "this process (python -c, a notebook, the interactive prompt, under if __name__ == '__main__', "
            "or set at run time)"
        )
    return (
        f"strategy {name!r} loads in this process but not in the run's worker processes ({shown_raised(exc)}): "
        f"{why}. Put it in a file of its own (mine.py, say, naming it 'mine:{name.partition(':')[2] or 'Mine'}') "
        "in the folder you run from, or run with one worker (--workers 1, workers=1), which plays in this process"
    )


def _pooled_batch(spec: BatchSpec) -> Totals:
    """:func:`run_batch` in a worker of :func:`run_lab`'s pool, telling the run how far it is; after
    Ctrl-C, a batch the pool had already handed over is not played (the run is stopping)."""
    global _PLAYING
    _PLAYING = True
    try:
        if _STOPPED:
            raise KeyboardInterrupt
        if _TOLD is None:
            return run_batch(spec)
        return run_batch(spec, partial(_tell, _TOLD, spec.start))
    finally:
        _PLAYING = False


def _tell(told: Any, start: int, tournaments: int) -> None:
    """Put a batch's progress on the run's queue whole: Ctrl-C raised inside ``Queue.put`` (which
    starts the queue's thread the first time) could leave the queue unable to close, and the worker
    waiting for it at exit. Ctrl-C that came meanwhile stops the batch just after."""
    global _TELLING
    _TELLING = True
    try:
        told.put((start, tournaments))
    finally:
        _TELLING = False
    if _STOPPED:
        raise KeyboardInterrupt


_IN_FLIGHT = 4  # batches queued per worker: enough to keep it busy, few enough to hold little
