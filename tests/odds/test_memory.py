"""Memory the count-back odds hold: a bounded cache, and a solver that keeps only what it uses.

Every split of 160 SCRUM points took 2.5 GB in ``sevens odds --best-split 160 ... --knockout`` and
4.3 GB in ``--solve 160 160 --knockout``: each order's joint lines (about 60 MB for a large order)
stayed in a cache of 256 entries. Measured here at a budget of 60 with tracemalloc (numpy reports
its arrays to it), with the cache bound made small.
"""

from __future__ import annotations

import gc
import threading
import tracemalloc
from collections.abc import Iterator

import pytest

from sevens.odds import best_splits, clear_caches, joint, knockout_odds, match_odds, order_odds
from sevens.odds.api import warm_shared_tables
from sevens.odds.points import order_points
from sevens.odds.solver import payoff_matrix, splits
from sevens.rules import FLAIR_OPTION_COST
from sevens.rules.orders import MAX_ORDER_POINTS

MB = 1 << 20


@pytest.fixture
def traced(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    clear_caches()
    monkeypatch.setattr(joint, "CACHE_BYTES", 8 * MB, raising=False)
    gc.collect()
    tracemalloc.start()
    try:
        yield
    finally:
        tracemalloc.stop()
        clear_caches()


@pytest.mark.usefixtures("traced")
def test_cached_joint_lines_stay_within_the_bound() -> None:
    """The 21 splits of 60 take about 85 MB of joint lines together; the cache keeps at most its bound
    (8 MB here) plus the one entry just made (6 MB at most)."""
    base = tracemalloc.get_traced_memory()[0]
    for order in splits(60):
        joint.joint_lines(order.force, order.options)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    assert held <= 16 * MB


@pytest.mark.usefixtures("traced")
def test_the_knockout_matrix_keeps_only_keys_and_chances() -> None:
    """Solving 60 against 60 on count-back peaked at 162 MB with every joint line held whole; about 56 MB
    with only their keys and chances kept."""
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    payoff_matrix(60, 60, knockout=True)
    assert tracemalloc.get_traced_memory()[1] - base <= 100 * MB


@pytest.mark.usefixtures("traced")
def test_a_knockout_matrix_larger_than_the_cache_leaves_nothing_in_it() -> None:
    """Each order's joint lines are read once by the matrix, so where together they outgrow the cache
    (every split of 160 filled it six times over) adding them only pushed each out before any use,
    and left the cache full of them: --solve 160 160 --knockout peaked at 1.45 GB, 1.05 GB without.
    Here the splits of 60 (about 85 MB) against a bound of 8 MB: none of them is left once it is done."""
    base = tracemalloc.get_traced_memory()[0]
    matrix = payoff_matrix(60, 60, knockout=True)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base - matrix.nbytes
    # The FLAIR arrays the lines are built from are kept in the cache (within its bound) since they
    # left a cache of their own: no lines are.
    assert not [key for key, kept in joint._cache.items() if isinstance(kept, joint.JointLines)]
    # The tables of dice and options the lines are built from stay (3.4 MB); the cache held 10.2 MB.
    assert held <= 6 * MB, f"{held / MB:.1f} MB held"


@pytest.mark.usefixtures("traced")
def test_ranking_splits_larger_than_the_cache_keeps_only_the_opponents_lines() -> None:
    """Ranking every split on count-back reads each split's joint lines once and the opponent's for
    every split. Added to the cache, the splits (every split of 160 filled it six times over) pushed
    one another out and left it full: --best-split 160 --vs-force 1 --vs-flair 159 --knockout
    peaked at 0.83 GB, 0.26 GB without. Here the splits of 60 (about 85 MB) against a bound of 8 MB."""
    best_splits(60, (30, 30), knockout=True)
    # Besides the odds of each split (a few hundred bytes each).
    assert [key for key, kept in joint._cache.items() if isinstance(kept, joint.JointLines)] == [(30, 10)]


@pytest.mark.usefixtures("traced")
def test_ranking_splits_within_the_cache_keeps_their_lines() -> None:
    """Small totals fit the cache and keep their lines, for the next opponent."""
    best_splits(9, (6, 3), knockout=True)
    assert all((o.force, o.options) in joint._cache for o in splits(9))


@pytest.mark.usefixtures("traced")
def test_a_knockout_matrix_within_the_cache_keeps_its_lines() -> None:
    """Small budgets fit the cache and keep their lines, for the next match that needs them."""
    payoff_matrix(9, 9, knockout=True)
    assert all((o.force, o.options) in joint._cache for o in splits(9))


def test_the_knockout_matrix_holds_less_than_21_and_a_half_bytes_a_key() -> None:
    """The matrix needs each order's chances (8 bytes a key) and where each key stands on the common
    scale. Building that scale by sorting every key of every order together held the keys, their
    concatenation and its sorted copy at once besides: 34 bytes a key at the peak (2.0 GB for 160
    against 160), where placing the keys on a grid of lines held 21 to 23. Each place was then kept
    as int64 beside the int32 cell it came from: 22.4 bytes a key here and 1.05 GB for 160 against
    160; as int32 in the cell's own array, 20.6 and 0.79 GB. With the cache of joint lines kept to
    its last entry, so that what is measured is the matrix's own."""
    orders = splits(60)
    keys = sum(len(joint.joint_lines(o.force, o.options).keys) for o in orders)
    clear_caches()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(joint, "CACHE_BYTES", 1)
            gc.collect()
            tracemalloc.start()
            base = tracemalloc.get_traced_memory()[0]
            payoff_matrix(60, 60, knockout=True)
            peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
        clear_caches()
    assert peak <= 21.5 * keys, f"{peak / keys:.1f} bytes a key"


def test_threads_asking_at_once_keep_the_cache_and_its_count_true() -> None:
    """The web server works odds out in several threads at once (each request's function runs in a
    thread pool; the deadline scheduler plays bots in another), and pages polling one game ask for
    the same orders together. Threads that found an order missing at once each added its bytes to
    the count, though the cache held it once: the count grew past what was held, and once past the
    bound it made the cache drop all but the newest entry for good."""
    clear_caches()
    orders = [(20, 10), (30, 10), (10, 5)] * 4
    start = threading.Barrier(len(orders))
    failed: list[BaseException] = []

    def ask(force: int, options: int) -> None:
        start.wait()
        try:
            joint.joint_lines(force, options)
        except BaseException as exc:  # reported in the test's own thread
            failed.append(exc)

    threads = [threading.Thread(target=ask, args=order) for order in orders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert failed == []
        lines = [key for key, kept in joint._cache.items() if isinstance(kept, joint.JointLines)]
        assert sorted(lines) == sorted(set(orders))
        # With the FLAIR arrays they were built from, each kept once.
        assert sorted(set(joint._cache) - set(lines)) == [(None, "flair", 5), (None, "flair", 10)]
        assert joint._cached_bytes == sum(joint._size(lines) for lines in joint._cache.values())
    finally:
        clear_caches()


@pytest.mark.usefixtures("traced")
def test_cached_joint_lines_hold_no_dense_array() -> None:
    """An order's cached lines are what comparing lines reads: keys, chances and their two running
    sums, 32 bytes a line. They also held the dense array the lines come from (9.3 MB for 40 FORCE +
    60 FLAIR, against 13 MB for the rest), which nothing reads: every split of 100 ranked on
    count-back filled the 512 MB cache with them, `--best-split 100 ... --knockout` peaking at 0.6 GB."""
    joint.lines_shape(40, 20)  # the cached tables of dice and options the lines are built from
    gc.collect()
    base = tracemalloc.get_traced_memory()[0]
    lines = joint.joint_lines(40, 20)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    assert held <= 32 * (len(lines.keys) + 1) + MB
    assert joint._cached_bytes == joint._size(lines) == 32 * len(lines.keys) + 16 + joint.ENTRY_BYTES


@pytest.mark.usefixtures("traced")
def test_the_flair_arrays_lines_are_built_from_stay_within_the_bound() -> None:
    """The bots' odds (asked under no scope) built their lines from FLAIR arrays kept in a cache of
    their own, for good and outside the bound: one for every count of options an order can hold (0 to
    53) took 67 MB. Counted in the cache, what they hold is within it (8 MB here)."""
    warm_shared_tables()  # the small tables every order shares, kept outside the bound
    gc.collect()
    base = tracemalloc.get_traced_memory()[0]
    for options in range(MAX_ORDER_POINTS // FLAIR_OPTION_COST + 1):
        joint.lines_shape(1, options)  # reads the order's FLAIR array, as its lines do
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    # Besides what is counted, numpy keeps some small freed buffers for reuse (about 15 KB here).
    assert 0 < held <= joint._cached_bytes + 64 * 1024, (held, joint._cached_bytes)
    assert joint._cached_bytes <= 8 * MB


def _every_order(most: int) -> list[tuple[int, int]]:
    return [(total - flair, flair) for total in range(most + 1) for flair in range(0, total + 1, 3)]


@pytest.mark.usefixtures("traced")
def test_the_odds_and_points_of_orders_asked_per_asker_stay_within_the_one_bound() -> None:
    """Each asker of the live odds had up to 4,096 orders' odds and as many points kept in caches of
    their own, outside the bound: 12.8 MB here (against a bound of 8) for two askers asking every order of up to 90 points."""
    warm_shared_tables()
    gc.collect()
    base = tracemalloc.get_traced_memory()[0]
    for asker in ("one player", "another"):
        for force, flair in _every_order(90):
            order_odds(force, flair, scope=asker)
            match_odds((force, flair), (3, 0), scope=asker)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    assert joint._cached_bytes <= 8 * MB
    assert held <= 9 * MB, held


def test_what_an_entry_is_counted_at_is_no_less_than_it_holds() -> None:
    """Odds, points and small results each counted at their arrays' bytes and ENTRY_BYTES: the bound
    holds only if that is no less than what keeping them takes."""
    clear_caches()
    warm_shared_tables()
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        orders = _every_order(30)
        for asker in range(3):
            for mine in orders:
                knockout_odds((mine[0], 0), (1, 0), scope=asker)
                for theirs in orders[:20]:
                    match_odds(mine, theirs, scope=asker)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
        counted = joint._cached_bytes
    finally:
        tracemalloc.stop()
        clear_caches()
    assert 0 < held <= counted, (held, counted)


def test_an_orders_odds_are_counted_at_no_less_than_they_hold_beside_their_points() -> None:
    """An order's odds share their array with its points, which the cache pushes out first (made,
    and so last used, before the odds): what the odds hold besides it (their exact figures, four
    Fractions, with the entry) must be counted with them alone. It was counted at ENTRY_BYTES, 640
    bytes, where it holds about 980."""
    clear_caches()
    warm_shared_tables()
    orders = _every_order(60)
    for force, flair in orders:
        order_points(force, flair // 3, "asker")
    gc.collect()
    tracemalloc.start()
    try:
        base, before = tracemalloc.get_traced_memory()[0], joint._cached_bytes
        arrays = sum(order_odds(force, flair, scope="asker").distribution.nbytes for force, flair in orders)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
        counted = joint._cached_bytes - before - arrays  # the arrays are the points', held already
    finally:
        tracemalloc.stop()
        clear_caches()
    assert 0 < held <= counted, (held, counted, len(orders))
