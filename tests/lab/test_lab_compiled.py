"""The compiled loops (sevens.lab.kernels): the same orders as the batch strategies, reproducible
batches, and the same results whichever strategies decide in the loop."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sevens.lab import kernels
from sevens.lab import simulate as simulate_module
from sevens.lab.cores import available_cores
from sevens.lab.sampling import TableSampler
from sevens.lab.simulate import Sampler, simulate
from sevens.lab.smart import (
    EquilibriumPacing,
    FieldReaderPacing,
    OddsAwarePacing,
    TableReaderPacing,
    table_rests,
)
from sevens.lab.strategies import (
    BatchView,
    EvenPacing,
    GroupBlitzPacing,
    KnockoutSaverPacing,
    RandomPacing,
    split_orders,
)
from sevens.rules import FLAIR_OPTION_COST, MAX_ORDER_POINTS
from sevens.tournament.formats import Stage

needs_numba = pytest.mark.skipif(not kernels.AVAILABLE, reason="numba is not installed")


class _NoJitter:
    """Stands in for the generator: the bots' jitter is uniform(-0.1, 0.1); this one gives 0."""

    def uniform(self, low: float, high: float, size: int) -> np.ndarray:
        return np.zeros(size)


def _view(scrum: np.ndarray, turn: int, turns_left: int, group_left: int) -> BatchView:
    n = scrum.size
    zeros = np.zeros(n, dtype=np.int64)
    return BatchView(
        teams=16, turn=turn, stage=Stage.GROUP if group_left else Stage.QUARTER_FINAL,
        turns_left=turns_left, group_matches_left=group_left, scrum=scrum, opponent_scrum=scrum,
        league_points=zeros, opponent_league_points=zeros, group_position=zeros + 1,
        home=np.ones(n, dtype=bool), tournament=zeros, team=zeros,
    )


@pytest.mark.parametrize(
    "strategy",
    [
        EvenPacing(), EvenPacing(flair=1.0), EvenPacing(flair=0.0), GroupBlitzPacing(), KnockoutSaverPacing(),
        EvenPacing(flair=1.0, knockout_weight=Fraction(1, 2)), EvenPacing(knockout_weight=Fraction(7, 3)),
    ],
)
def test_orders_in_the_loop_are_the_strategies_orders(strategy: Any) -> None:
    """R3 and the pacing formulas: the loop's plan gives the strategy's own order for every SCRUM
    held, at every turn: with the jitter fixed at its middle, the strategy's own ``orders``; for
    other uniforms, what ``split_orders`` makes of the jittered share."""
    scrum = np.arange(0, 161, dtype=np.int64)
    totals, shares = kernels.order_tables([strategy], 3, 3)
    plan, jitter = kernels.order_plan(totals, shares, 3)
    rng = np.random.default_rng(4)
    for turn, turns_left, group_left in [(1, 6, 3), (2, 5, 2), (3, 4, 1), (4, 3, 0), (6, 1, 0)]:
        low, width, drawn = shares[0, 0 if group_left else 1]
        assert drawn == 0.0
        total = plan[0, turn - 1] & 0xFFFF
        for u in [0.5, *rng.random(4)]:
            got = [kernels.plan_options(int(plan[0, turn - 1, h]), *jitter[0, turn - 1, h], u) for h in scrum]
            options = np.array(got) * FLAIR_OPTION_COST
            if u == 0.5:  # what _NoJitter gives; a fixed share has no jitter to round differently
                expected_force, expected_flair = strategy.orders(_view(scrum, turn, turns_left, group_left), _NoJitter())
                assert (total == expected_force + expected_flair).all()
                if width == 0.0:
                    assert options.tolist() == expected_flair.tolist()
                continue
            # The plan's products equal split_orders' on all but a set of uniforms of measure 0.
            _, expected_flair = split_orders(total, np.full(scrum.size, low + width * u), scrum)
            assert options.tolist() == expected_flair.tolist()


def test_random_pacing_draws_its_total_up_to_what_it_may_spend() -> None:
    """R3: "random" spends a uniform total from 0 to its SCRUM (at most 160), a uniform share on FLAIR."""
    totals, shares = kernels.order_tables([RandomPacing()], 3, 3)
    assert totals[0, 0, :].tolist() == [min(h, MAX_ORDER_POINTS) for h in range(161)]
    assert shares[0].tolist() == [[0.0, 1.0, 1.0], [0.0, 1.0, 1.0]]


def test_only_the_exact_builtin_classes_run_in_the_loop() -> None:
    """A subclass may override orders(), so it decides through orders() like any other strategy."""

    class Mine(EvenPacing):
        pass

    assert kernels.spec(RandomPacing()) == (kernels.RANDOM, 0.0, pytest.approx(np.nan, nan_ok=True))
    assert kernels.spec(GroupBlitzPacing(reserve=7))[:2] == (kernels.GROUP_BLITZ, 7.0)  # type: ignore[index]
    assert kernels.spec(Mine()) is None
    assert kernels.spec(OddsAwarePacing())[0] == kernels.ODDS_AWARE  # type: ignore[index]
    assert kernels.spec(EquilibriumPacing())[0] == kernels.EQUILIBRIUM  # type: ignore[index]
    assert kernels.spec(FieldReaderPacing())[0] == kernels.FIELD_READER  # type: ignore[index]
    assert kernels.spec(TableReaderPacing())[0] == kernels.TABLE_READER  # type: ignore[index]
    with pytest.raises(ValueError, match="built-in strategies only"):
        kernels.order_tables([Mine()], 3, 3)


def _one_team_view(held: int, opponent: int, turn: int, turns: int, group_rounds: int) -> BatchView:
    group_left = max(0, group_rounds - turn)
    one = np.zeros(1, dtype=np.int64)
    return BatchView(
        teams=16, turn=turn + 1, stage=Stage.GROUP if group_left else Stage.QUARTER_FINAL,
        turns_left=turns - turn, group_matches_left=group_left, scrum=one + held, opponent_scrum=one + opponent,
        league_points=one, opponent_league_points=one, group_position=one + 1,
        home=np.ones(1, dtype=bool), tournament=one, team=one,
    )


@pytest.mark.parametrize("weight", [Fraction(1), Fraction(3, 2)])
def test_smart_decisions_are_the_batch_strategies_own(weight: Fraction) -> None:
    """"odds-aware" and "equilibrium" in the loop: the plan's total and the decided split are what
    the strategies' own orders() give, for cases across turns, group and knockout, rich and poor,
    paced evenly or with a knockout weight."""
    decisions = kernels.Decisions(group_rounds=3, turns=6)
    rng = np.random.default_rng(3)
    for slot, strategy in enumerate([OddsAwarePacing(knockout_weight=weight), EquilibriumPacing(knockout_weight=weight)]):
        totals, shares = kernels.order_tables([strategy], 3, 3)
        plan, _ = kernels.order_plan(totals, shares, 3)
        cases = [(0, 100, 100), (3, 40, 12), (5, 9, 150)] + [
            (int(t), int(h), int(o)) for t, h, o in zip(rng.integers(0, 6, 8), rng.integers(0, 161, 8), rng.integers(0, 161, 8), strict=True)
        ]
        for turn, held, opponent in cases:
            force, flair = strategy.orders(_one_team_view(held, opponent, turn, 6, 3), np.random.default_rng(0))
            total = int(plan[0, turn, held]) & 0xFFFF
            assert total == int(force[0] + flair[0])
            assert int(plan[0, turn, held]) >> 33 == slot + 1
            decisions.decide((slot, turn, total, opponent))
            options = int(decisions.decided[slot, turn, total, opponent])
            assert options >= 0 and options * FLAIR_OPTION_COST == int(flair[0]), (slot, turn, held, opponent)
    key = decisions.key(1, 4, 17, 160)
    assert kernels.decision_key(key, 6) == (1, 4, 17, 160)


@needs_numba
def test_a_mixed_decision_is_drawn_with_its_probabilities() -> None:
    """A decided mix (none of the budgets met so far needs one, but the solver may give one):
    the share's uniform picks the first option whose cumulative probability is above it; an
    undecided case, or a mix newer than the loop's copy, asks to be decided."""
    decided = np.full((2, 6, 161, 161), -1, dtype=np.int64)
    mixes = np.zeros((1, 2, 55))
    mixes[0, 0, :3] = (2, 1, 4)  # two options: 1 or 4 FLAIR options
    mixes[0, 1, 1:3] = (0.25, 1.0)
    decided[1, 2, 50, 60] = -2
    decided[0, 2, 50, 60] = 5
    draws = [kernels.decision(1, 2, 50, 60, u, decided, mixes) for u in (0.0, 0.2499, 0.25, 0.9, 1.0)]
    assert draws == [1, 1, 4, 4, 4]
    assert kernels.decision(0, 2, 50, 60, 0.5, decided, mixes) == 5
    assert kernels.decision(0, 2, 50, 61, 0.5, decided, mixes) == -1
    decided[1, 2, 50, 61] = -3  # row 1: not in this copy of the mixes
    assert kernels.decision(1, 2, 50, 61, 0.5, decided, mixes) == -1


@needs_numba
def test_smart_strategies_in_the_loop_are_reproducible_and_agree_with_numpy() -> None:
    """Deciding cases as they come (the loop stops and plays the tournament again) gives the same
    batch as finding them decided, on 1 or 2 threads; and the numpy path draws the same law."""
    seats = np.tile(np.arange(8) % 4, (4000, 1))
    strategies = [OddsAwarePacing(), EquilibriumPacing(), EvenPacing(), RandomPacing()]
    simulate_module._decisions.cache_clear()
    fresh = simulate(8, seats, strategies, np.random.default_rng(5), compiled=True, threads=1)
    # The cases asked for are each team's total against its opponent's SCRUM: 100 / 5 against 100
    # at the start; later, mostly not what the team's own SCRUM would be had it been the opponent's.
    cases = np.argwhere(simulate_module._decisions(3, 5).decided >= 0)
    first = cases[cases[:, 1] == 0]
    assert len(first) == 2 and (first[:, 2] == 20).all() and (first[:, 3] == 100).all()
    later = cases[cases[:, 1] > 0]
    own_if_opponent = -(-later[:, 3] // (5 - later[:, 1]))
    assert (later[:, 2] != own_if_opponent).mean() > 0.3
    decided = simulate(8, seats, strategies, np.random.default_rng(5), compiled=True, threads=2)
    for field in FIELDS:
        assert np.array_equal(getattr(fresh, field), getattr(decided, field)), field
    numpy_path = simulate(8, seats, strategies, np.random.default_rng(6), compiled=False)
    for field in ("group_points", "scrum_left"):
        a, b = getattr(fresh, field).astype(float), getattr(numpy_path, field).astype(float)
        se = np.sqrt((a.var(axis=0) + b.var(axis=0)) / len(seats))
        assert (np.abs(a.mean(axis=0) - b.mean(axis=0)) < 4.5 * se).all(), field


@needs_numba
def test_smart_strategies_paced_differently_share_decisions_and_agree_with_numpy() -> None:
    """"equilibrium" and "odds-aware" at knockout weight 1.5 beside the even-paced ones: the loop keys
    decisions by the total spent, so both pacings read the same table and stay themselves (the
    weighted ones keep more SCRUM); the numpy path draws the same law."""
    seats = np.tile(np.arange(8) % 4, (4000, 1))
    k = Fraction(3, 2)
    strategies = [EquilibriumPacing(), EquilibriumPacing(knockout_weight=k), OddsAwarePacing(), OddsAwarePacing(knockout_weight=k)]
    simulate_module._decisions.cache_clear()
    loop = simulate(8, seats, strategies, np.random.default_rng(8), compiled=True, threads=2)
    numpy_path = simulate(8, seats, strategies, np.random.default_rng(9), compiled=False)
    for field in ("group_points", "scrum_left"):
        a, b = getattr(loop, field).astype(float), getattr(numpy_path, field).astype(float)
        se = np.sqrt((a.var(axis=0) + b.var(axis=0)) / len(seats))
        assert (np.abs(a.mean(axis=0) - b.mean(axis=0)) < 4.5 * se).all(), field
    left = loop.scrum_left.mean(axis=0)
    assert left[1] > left[0] + 2 and left[3] > left[2] + 2


FIELDS = (
    "champion", "knockout_wins", "reached", "group_points", "group_position", "scrum_left", "group_lines",
    "stage_lines", "stage_matches", "group_decided", "knockout_decided", "group_draws",
)


@needs_numba
def test_compiled_batches_are_reproducible_and_legal() -> None:
    """Same seed, same batch, whatever the threads and whichever tables were built before (the loop
    stops at a missing table and plays that tournament again); SCRUM stays in 0..160 (R3, R4)."""
    seats = np.tile(np.arange(16) % 4, (5000, 1))
    strategies = [EvenPacing(), GroupBlitzPacing(), KnockoutSaverPacing(), RandomPacing()]
    one = simulate(16, seats, strategies, np.random.default_rng(5), compiled=True, threads=1)
    warm = TableSampler()
    simulate(16, seats[:50], strategies, np.random.default_rng(6), tables=warm)
    two = simulate(16, seats, strategies, np.random.default_rng(5), compiled=True, tables=warm, threads=2)
    for field in FIELDS:
        assert np.array_equal(getattr(one, field), getattr(two, field)), field
    other = simulate(16, seats, strategies, np.random.default_rng(7), compiled=True)
    assert not np.array_equal(one.champion, other.champion)
    assert one.scrum_left.min() >= 0 and one.scrum_left.max() <= MAX_ORDER_POINTS
    # Every group position 1-4 once per group; the champion won every knockout round it played.
    places = np.sort(one.group_position.reshape(5000, 4, 4), axis=-1)
    assert (places == np.arange(1, 5)).all()
    assert (one.knockout_wins[np.arange(5000), one.champion] == 3).all()
    assert one.stage_matches.tolist() == [48 * 5000, 8 * 5000, 4 * 5000, 2 * 5000]


@needs_numba
@pytest.mark.parametrize("weight", [Fraction(1), Fraction(5, 2)])
def test_the_loop_and_orders_give_the_same_batch(weight: Fraction) -> None:
    """Strategies decided in the compiled loop or through orders() on the numpy path: the same law,
    checked on league points and SCRUM left."""
    seats = np.tile(np.arange(8) % 2, (20000, 1))
    fused = simulate(8, seats, [EvenPacing(knockout_weight=weight), RandomPacing()], np.random.default_rng(1), compiled=True)

    class Even(EvenPacing):  # decides through orders()
        pass

    adapted = simulate(8, seats, [Even(knockout_weight=weight), RandomPacing()], np.random.default_rng(2))
    for field in ("group_points", "scrum_left"):
        x, y = getattr(fused, field), getattr(adapted, field)
        a, b = x.mean(axis=0), y.mean(axis=0)
        se = np.sqrt((x.var(axis=0) + y.var(axis=0)) / 20000)
        assert (np.abs(a - b) < 4 * se).all(), field
        assert (a[::2] > a[1::2]).all() or (a[::2] < a[1::2]).all()  # the two strategies differ


@needs_numba
def test_compiled_needs_the_tables_sampler() -> None:
    """compiled=True with the closed-form sampler is refused with a clear message."""
    with pytest.raises(ValueError, match="alias tables"):
        simulate(8, np.zeros((2, 8), dtype=np.int64), [EvenPacing()], np.random.default_rng(1),
                 sampler=Sampler.DIRECT, compiled=True)


@needs_numba
def test_compiled_refuses_other_strategies_and_bad_threads() -> None:
    """The loop knows the built-in pacing only: anything else must run on the numpy path."""

    class Mine(EvenPacing):
        pass

    seats = np.zeros((2, 8), dtype=np.int64)
    with pytest.raises(ValueError, match="built-in strategies only"):
        simulate(8, seats, [Mine()], np.random.default_rng(1), compiled=True)
    with pytest.raises(ValueError, match="threads must be at least 1"):
        simulate(8, seats, [EvenPacing()], np.random.default_rng(1), threads=0)
    # By default such a batch simply takes the numpy path.
    assert simulate(8, seats, [Mine()], np.random.default_rng(1)).champion.shape == (2,)


def _xoshiro_reference(key: int, stream: int, n: int) -> list[float]:
    """xoshiro256** seeded by SplitMix64, written out again from the published algorithms."""
    mask = (1 << 64) - 1

    def rotl(x: int, k: int) -> int:
        return ((x << k) | (x >> (64 - k))) & mask

    z = (key + stream * 0xD1B54A32D192ED03) & mask
    s = []
    for _ in range(4):
        z = (z + 0x9E3779B97F4A7C15) & mask
        x = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
        s.append(x ^ (x >> 31))
    out = []
    for _ in range(n):
        result = (rotl((s[1] * 5) & mask, 7) * 9) & mask
        t = (s[1] << 17) & mask
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        out.append((result >> 11) / 2**53)
    return out


@needs_numba
@pytest.mark.parametrize(("key", "stream"), [(0, 0), (12345, 7), (2**64 - 1, 99999)])
def test_tournament_streams_are_xoshiro256starstar(key: int, stream: int) -> None:
    """Each tournament's stream is exactly xoshiro256** (checked against a plain-Python rewrite)."""
    assert kernels.uniforms(key, stream, 50).tolist() == _xoshiro_reference(key, stream, 50)


@needs_numba
def test_tournament_streams_are_uniform_and_distinct() -> None:
    """Neighbouring streams do not repeat each other, and their uniforms fill 20 bins evenly."""
    from scipy.stats import chisquare

    draws = np.concatenate([kernels.uniforms(3, s, 2000) for s in range(50)])
    assert len(np.unique(draws)) == draws.size
    assert chisquare(np.bincount((draws * 20).astype(int), minlength=20)).pvalue > 1e-4


def test_points_of_packed_lines_are_the_rules_points() -> None:
    """R1: the loop's points of a packed line (plain, and widened then multiplied) are the rules'
    own Line.points, up to the largest count a line may hold (255)."""
    import itertools

    from sevens.rules import Line

    for t, c, p, d in itertools.product((0, 1, 2, 7, 64, 128, 255), repeat=4):
        if c > t:
            continue  # R1: a conversion follows a try
        packed = t | (c << 8) | (p << 16) | (d << 24)
        expected = Line(t, c, p, d).points
        assert kernels._points(packed) == expected
        assert kernels._wide_points(kernels._widen(packed)) == expected


@needs_numba
@pytest.mark.parametrize("teams", [8, 16])
def test_the_loop_reads_the_field_as_the_game_bot(teams: int) -> None:
    """"field-reader" in the loop: the field it reads off a tournament's group orders is the game
    bot's (the median of the weights each order implies, R13's public orders), over random spends,
    with teams that spent nothing or held nothing; its reply to it, leaning toward 1.5 or another
    weight, is the bot's in twentieths; and it spends at that reply what the bot spends."""
    from statistics import median

    from sevens.bots.pacing import implied_weight, paced_budget, reply_weight

    rng = np.random.default_rng(11)
    knockout_rounds = teams.bit_length() - 2  # 8 teams: 2, 16: 3 (R6)
    by_field = kernels.field_totals(3, knockout_rounds)
    seen = set()
    for case in range(300):
        scrum = rng.integers(0, 131, size=(3, teams))
        spent = np.minimum(rng.integers(0, 60, size=(3, teams)), scrum)
        if case % 3 == 0:
            scrum[:, : teams // 2] = 0  # half the field spent out: only the others count
        if case % 50 == 0:
            scrum[:] = 0  # nothing to read
        for played in range(4):
            weights = [
                implied_weight(int(spent[r, t]), int(scrum[r, t]), 3 - r, knockout_rounds)
                for r in range(played) for t in range(teams) if scrum[r, t] > 0
            ]
            field = kernels.field_median(spent, scrum, played, knockout_rounds)
            assert (not weights and np.isnan(field)) or field == median(weights), (case, played)
            lean = (1.5, 0.4, 3.0)[case % 3]
            expected = reply_weight(median(weights) if weights else None, lean) * 20
            assert expected.denominator == 1
            got = kernels.reply_steps(field, lean)
            assert got == int(expected), (case, played, lean)
            pull = (0.0, 0.5, 1.0)[case % 3]  # the share of the way another field-reader moves
            moved = reply_weight(median(weights) if weights else None, lean, pull) * 20
            assert kernels.reply_steps(field, lean, pull) == int(moved), (case, played, lean, pull)
            seen.add(got)
            turn = min(played, 2)
            for held in (int(scrum[0, 0]), int(spent[1, 1]) + 100):
                paced = paced_budget(held, 3 + knockout_rounds - turn, 3 - turn, Fraction(got, 20))
                assert by_field[turn, got, held] == paced, (case, played, held)
    assert len(seen) > 10  # the cases read many different fields


def _same_on_threads_and_as_numpy(seats: np.ndarray, strategies: list[Any]) -> Any:
    """The compiled loop's 16-team batch on 1 thread, checked to be the one 2 threads give byte for
    byte, within R3 and R4, and from the law of the numpy path (group points and SCRUM left, each
    seat's mean within 4.5 standard errors)."""
    one = simulate(16, seats, strategies, np.random.default_rng(3), threads=1)
    two = simulate(16, seats, strategies, np.random.default_rng(3), compiled=True, threads=2)
    for field in FIELDS:
        assert np.array_equal(getattr(one, field), getattr(two, field)), field
    assert one.scrum_left.min() >= 0 and one.scrum_left.max() <= MAX_ORDER_POINTS  # R3, R4
    numpy_path = simulate(16, seats, strategies, np.random.default_rng(4), compiled=False)
    for field in ("group_points", "scrum_left"):
        a, b = getattr(one, field).astype(float), getattr(numpy_path, field).astype(float)
        se = np.sqrt((a.var(axis=0) + b.var(axis=0)) / len(seats))
        assert (np.abs(a.mean(axis=0) - b.mean(axis=0)) < 4.5 * se).all(), field
    return one


@needs_numba
def test_field_reader_in_the_loop_is_reproducible_and_agrees_with_numpy() -> None:
    """"field-reader" plays in the compiled loop against front-loaders it reads: the same batch on 1
    or 2 threads, and the same law as the numpy path, which hands it every group order played."""
    seats = np.tile(np.arange(16) % 2, (4000, 1))
    seats[:, 1::4] = 2  # field-reader@0.5 in a quarter of the seats, beside the one leaning to 1.5
    strategies = [FieldReaderPacing(), GroupBlitzPacing(), FieldReaderPacing(knockout_weight=Fraction(1, 2))]
    one = _same_on_threads_and_as_numpy(seats, strategies)
    # Each leans its own way: toward 0.5, it spends more in the groups than toward 1.5.
    assert one.scrum_left[:, 1::4].mean() < one.scrum_left[:, ::2].mean() - 4
    # It reads the front-loaders: its pacing before any round is read (K = 1.1) keeps far more SCRUM.
    halves = np.tile(np.arange(16) % 2, (4000, 1))
    reader = simulate(16, halves, strategies[:2], np.random.default_rng(3))
    fixed = simulate(16, halves, [EquilibriumPacing(knockout_weight=Fraction(11, 10)), GroupBlitzPacing()],
                     np.random.default_rng(3))
    assert reader.scrum_left[:, ::2].mean() < fixed.scrum_left[:, ::2].mean() - 4


@needs_numba
def test_field_readers_pull_plays_in_the_loop_as_in_numpy() -> None:
    """A field-reader made to move half the way toward its target rather than a quarter (``pull``,
    the guide's pulls.py) plays that share in the compiled loop, by the same law as the numpy path;
    among front-loaders, moving further from their pacing keeps more SCRUM (about 46 at the end
    against 36 for the quarter's reader, each ± 0.2; the same 36 for both where the loop ignored it)."""
    seats = np.ones((4000, 16), dtype=np.int64)  # front-loaders in 12 seats
    seats[:, 0::8] = 0  # two readers moving half the way
    seats[:, 4::8] = 2  # and two moving a quarter
    half = _same_on_threads_and_as_numpy(seats, [FieldReaderPacing(pull=0.5), GroupBlitzPacing(), FieldReaderPacing()])
    assert kernels.field_pulls([FieldReaderPacing(pull=0.5), GroupBlitzPacing()]).tolist()[0] == 0.5
    assert half.scrum_left[:, 0::8].mean() > half.scrum_left[:, 4::8].mean() + 4


def test_table_reader_plans_as_equilibrium_and_rests_in_a_row_of_its_own() -> None:
    """"table-reader" in the loop's plan: its row is "equilibrium"'s (pacing and decided split);
    one row more, after the strategies', orders nothing, and only a table-reader goes to it."""
    totals, shares = kernels.order_tables([EvenPacing(), TableReaderPacing(), EquilibriumPacing()], 3, 3)
    plan, jitter = kernels.order_plan(totals, shares, 3)
    assert plan.shape[0] == 4
    assert np.array_equal(plan[1], plan[2]) and np.array_equal(jitter[1], jitter[2])
    assert not plan[3].any() and not jitter[3].any()
    assert kernels.plan_options(int(plan[3, 2, 100]), *jitter[3, 2, 100], 0.99) == 0
    assert kernels.table_rows([EvenPacing(), TableReaderPacing(), EquilibriumPacing()]).tolist() == [-1, 3, -1, -1]
    assert kernels.table_rows([EvenPacing(), EquilibriumPacing()]).tolist() == [-1, -1]
    assert kernels.order_tables([EvenPacing(), EquilibriumPacing()], 3, 3)[0].shape[0] == 2


@needs_numba
@pytest.mark.parametrize("teams", [8, 16])
def test_the_loop_rests_the_teams_the_batch_form_rests(teams: int) -> None:
    """Before the last group round the loop finds each team's opponent and the group's other two
    (R7) from its fixtures and rests exactly the table-readers that the batch form (table_rests,
    the game bot's reading) rests, over random tables of league points 0 to 4 and seatings."""
    from sevens.tournament.fixtures import GROUP_ROUNDS

    groups = teams // 4
    group_home = np.array([[g * 4 + h for g in range(groups) for h, _ in r] for r in GROUP_ROUNDS], dtype=np.int64)
    group_away = np.array([[g * 4 + a for g in range(groups) for _, a in r] for r in GROUP_ROUNDS], dtype=np.int64)
    strategies = [EquilibriumPacing(), TableReaderPacing(), TableReaderPacing()]
    rows = kernels.table_rows(strategies)
    rng = np.random.default_rng(12)
    rested = kept = 0
    for case in range(400):
        points = rng.integers(0, 5, (1, teams))
        kind = rng.integers(0, 3, teams)
        got = kernels.rested_kinds(points[0], group_home, group_away, kind, rows)
        view = BatchView(
            teams=teams, turn=3, stage=Stage.GROUP, turns_left=teams.bit_length() - 1, group_matches_left=1,
            scrum=np.full(teams, 60), opponent_scrum=np.full(teams, 60), league_points=points[0],
            opponent_league_points=np.zeros(teams, dtype=np.int64), group_position=np.ones(teams, dtype=np.int64),
            home=np.ones(teams, dtype=bool), tournament=np.zeros(teams, dtype=np.int64),
            team=np.arange(teams, dtype=np.int64), group_league_points=points,
        )
        rests = table_rests(view) & (kind > 0)
        assert got.tolist() == np.where(rests, 3, kind).tolist(), (case, points, kind)
        rested += int(rests.sum())
        kept += int(((kind > 0) & ~rests).sum())
    assert rested > 100 and kept > 100  # both answers are met often


@needs_numba
def test_table_reader_in_the_loop_is_reproducible_and_agrees_with_numpy() -> None:
    """"table-reader" plays in the compiled loop (chosen by default): the same batch on 1 or 2
    threads, with its decisions found as it goes or already made; the same law as the numpy path,
    which hands it the group tables; and it rests, keeping SCRUM that equilibrium spends."""
    seats = np.tile(np.arange(16) % 2, (4000, 1))
    seats[:, 2::4] = 2
    strategies = [TableReaderPacing(), EquilibriumPacing(), EvenPacing()]
    simulate_module._decisions.cache_clear()
    one = _same_on_threads_and_as_numpy(seats, strategies)
    # Resting in the last group round, table-reader ends the groups with fewer league points than
    # equilibrium, which paces and splits as it does otherwise, and wins more titles with the SCRUM kept.
    assert one.group_points[:, ::4].mean() < one.group_points[:, 1::4].mean()
    titles = np.bincount(one.champion % 4, minlength=4)
    assert titles[0] > titles[1]


COUNTS_THREADS = """
import sys
import threading

import numpy as np

from sevens.lab.registry import resolve
from sevens.lab.simulate import simulate

started = set()


def seen(frame, event, arg):  # called first in each thread started from here on
    started.add(threading.current_thread().name)
    sys.settrace(None)


threading.settrace(seen)
seats = np.tile(np.arange(8) % 2, (5000, 1))  # three chunks: room for three threads
simulate(8, seats, [resolve("even"), resolve("group-blitz")], np.random.default_rng(1), compiled=True)
print(len(started))
"""


@pytest.mark.skipif(shutil.which("taskset") is None or (os.cpu_count() or 1) < 2,
                    reason="needs taskset and a machine of two cores or more")
@pytest.mark.skipif(not kernels.AVAILABLE, reason="the loop's threads need numba")
def test_the_default_threads_are_the_cores_the_process_may_use() -> None:
    """Under ``taskset -c 0`` the loop started a thread per core of the machine, all to take turns
    on the one core it may use (as the run's workers, capped by affinity, no longer did)."""
    env = {**os.environ, "PYTHONPATH": str(Path(simulate_module.__file__).parents[2])}
    counted = subprocess.run(["taskset", "-c", "0", sys.executable, "-c", COUNTS_THREADS], env=env,
                             capture_output=True, text=True, timeout=600, check=False)
    assert counted.returncode == 0, counted.stderr
    assert counted.stdout == "0\n"  # one core: played in the calling thread, no pool
    everywhere = subprocess.run([sys.executable, "-c", COUNTS_THREADS], env=env, capture_output=True, text=True,
                                timeout=600, check=False)
    assert everywhere.returncode == 0, everywhere.stderr
    assert everywhere.stdout == f"{min(available_cores(), 3)}\n"
