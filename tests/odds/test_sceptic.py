"""A sceptic's check of :mod:`sevens.odds`: every figure worked out again from the rules alone.

:mod:`sevens.odds` is only asked for the figures under test: nothing here is worked out with it, nor
with the rules engine's scoring, which the odds read their tables from. A die and a throw are scored below as the original rules say (4, 5 and R1,
R2), and three methods of this file's own stand against what the program says:

* **brute force**: the dice of an order thrown one by one, every face of every die, each FLAIR option
  followed through every sequence of throws up to a depth, in exact fractions; what is left out (a run
  of doubles longer than the depth) is a known mass, so each chance is bracketed;
* **the option's own equation**: an option is a throw, plus (on a double) another option, so its law
  ``G`` solves ``36 G = E + 4 G + S * G`` (``E``: the 30 throws that end it, ``4``: the doubles that
  score nothing, ``S``: 5-5 and 3-3). Solved total by total, in rising points, that gives each line's
  chance exactly, and orders follow by convolution: in fractions where they are small, modulo a
  prime where exact fractions would have denominators of thousands of digits (equal fractions are
  equal modulo it; a wrong one passes only by a chance of one in 33 million for each total, and
  every total of the order is compared), and in floats, with the mass left out counted, for match
  odds between larger orders;
* the rules engine itself (:func:`sevens.rules.play_order`), playing seeded matches, as a statistical
  cross-check that the scoring written here is the game's.

Match chances are then intervals that contain the true value (their width is what was cut), and the
program's figure must lie within its own ``tail_bound`` of that interval. The figures of
``docs/original-figures.md`` are read off the page and compared with the numbers worked out here.
The whole file takes about 15 s of CPU on the project's machine.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray
from typer.testing import CliRunner

from sevens import odds
from sevens.cli.main import app
from sevens.rules import Order, SeededDice, countback, group_outcome, play_order

DOCS = Path(__file__).resolve().parents[2] / "docs"
FACES = range(1, 7)
Line = tuple[int, int, int, int]  # tries, conversions, penalties, drop goals
NOTHING: Line = (0, 0, 0, 0)
# Floating rounding allowed on top of a stated bound: sums of at most ~1e6 terms of float64.
ROUNDING = 1e-12


# --- scoring, from the rules ---------------------------------------------------------------------


def die_line(face: int) -> Line:
    """Seed 4: a FORCE die on 5 is a try (never converted), on 3 a penalty."""
    return (1, 0, 0, 0) if face == 5 else (0, 0, 1, 0) if face == 3 else NOTHING


def throw_line(a: int, b: int) -> Line:
    """Seed 5 (i)-(ii), R1: a total of 7 is a converted try; otherwise each 5 a try, each 3 a drop goal."""
    if a + b == 7:
        return (1, 1, 0, 0)
    return ((a == 5) + (b == 5), 0, 0, (a == 3) + (b == 3))


def points(line: Line) -> int:
    tries, conversions, penalties, drop_goals = line
    return 5 * tries + 2 * conversions + 3 * penalties + 3 * drop_goals


def plus(x: Line, y: Line) -> Line:
    return (x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3])


def minus(x: Line, y: Line) -> Line | None:
    out = (x[0] - y[0], x[1] - y[1], x[2] - y[2], x[3] - y[3])
    return out if min(out) >= 0 else None


def countback_rank(line: Line) -> tuple[int, int, int, int]:
    """R9: points, then tries, then conversions, then drop goals."""
    return (points(line), line[0], line[1], line[3])


ENDS = Counter(throw_line(a, b) for a in FACES for b in FACES if a != b)  # out of 36
AGAIN = Counter(throw_line(a, a) for a in FACES)  # seed 5 (iii): every double throws again
STILL = AGAIN.pop(NOTHING)  # 1-1, 2-2, 4-4, 6-6: throw again, score nothing


# --- brute force ---------------------------------------------------------------------------------

Dist = dict[Line, Fraction]


def combine(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    for la, pa in a.items():
        for lb, pb in b.items():
            line = plus(la, lb)
            out[line] = out.get(line, Fraction(0)) + pa * pb
    return out


@cache
def brute_option(depth: int) -> tuple[Dist, Fraction]:
    """One option thrown die by die, every run of at most ``depth`` doubles; and the mass left out."""
    dist: Dist = {}
    left_out = Fraction(0)

    def walk(line: Line, chance: Fraction, doubles_left: int) -> None:
        nonlocal left_out
        for a in FACES:
            for b in FACES:
                here, p = plus(line, throw_line(a, b)), chance / 36
                if a != b:
                    dist[here] = dist.get(here, Fraction(0)) + p
                elif doubles_left:
                    walk(here, p, doubles_left - 1)
                else:
                    left_out += p

    walk(NOTHING, Fraction(1), depth)
    return dist, left_out


def brute_order(force: int, options: int, depth: int) -> tuple[Dist, Fraction]:
    """Every face of every FORCE die, and each option as :func:`brute_option`: a lower bound on each
    line's chance, short by at most the mass returned (any option past ``depth`` doubles)."""
    dist: Dist = {}
    for faces in itertools.product(FACES, repeat=force):
        line = NOTHING
        for face in faces:
            line = plus(line, die_line(face))
        dist[line] = dist.get(line, Fraction(0)) + Fraction(1, 6**force)
    option, left_out = brute_option(depth)
    for _ in range(options):
        dist = combine(dist, option)
    return dist, options * left_out


# --- the option's own equation, and convolution --------------------------------------------------


@cache
def option_lines(cap: int) -> Dist:
    """Every line of one option with at most ``cap`` points and its exact chance.

    36 G(L) = E(L) + 4 G(L) + sum over the scoring doubles x of G(L - x); each x adds points, so in
    rising points every G(L - x) is known when G(L) is wanted.
    """
    lines = {line for line in ENDS if points(line) <= cap}
    grown = set(lines)
    while grown:
        grown = {plus(line, x) for line in grown for x in AGAIN if points(plus(line, x)) <= cap} - lines
        lines |= grown
    law: Dist = {}
    for line in sorted(lines, key=points):
        total = Fraction(ENDS.get(line, 0))
        for x, count in AGAIN.items():
            before = minus(line, x)
            if before is not None:
                total += count * law.get(before, Fraction(0))
        law[line] = total / (36 - STILL)
    return law


def force_lines(force: int) -> Dist:
    """FORCE dice: tries and penalties are multinomial (1/6, 1/6, 4/6 nothing)."""
    law: Dist = {}
    for tries in range(force + 1):
        for penalties in range(force - tries + 1):
            ways = math.comb(force, tries) * math.comb(force - tries, penalties)
            law[(tries, 0, penalties, 0)] = Fraction(ways * 4 ** (force - tries - penalties), 6**force)
    return law


def truncate(dist: Dist, cap: int) -> Dist:
    return {line: p for line, p in dist.items() if points(line) <= cap}


@cache
def order_lines(force: int, options: int, cap: int) -> Dist:
    """Every line of an order with at most ``cap`` points, exactly (cut at ``cap`` as it is built: a
    line past ``cap`` only grows, so every line kept is complete)."""
    law = truncate(force_lines(force), cap)
    option = option_lines(cap)
    for _ in range(options):
        law = truncate(combine(law, option), cap)
    return law


@cache
def option_points(cap: int) -> tuple[Fraction, ...]:
    """One option's P(points = p), p = 0 .. cap: the equation of :func:`option_lines` on points alone."""
    ends = [0] * (cap + 11)
    for line, count in ENDS.items():
        ends[points(line)] += count
    steps = [(points(x), count) for x, count in AGAIN.items()]
    law: list[Fraction] = []
    for p in range(cap + 1):
        law.append((ends[p] + sum(count * law[p - s] for s, count in steps if s <= p)) / Fraction(36 - STILL))
    return tuple(law)


def series_multiply(a: list[Fraction], b: list[Fraction], cap: int) -> list[Fraction]:
    out = [Fraction(0)] * min(cap + 1, len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b[: cap + 1 - i]):
                out[i + j] += x * y
    return out


@cache
def order_points(force: int, options: int, cap: int) -> list[Fraction]:
    """P(points = p) for p = 0 .. cap, exactly (FORCE dice one by one, then each option)."""
    die = [Fraction(0)] * 6
    for face in FACES:
        die[points(die_line(face))] += Fraction(1, 6)
    law = [Fraction(1)]
    for _ in range(force):
        law = series_multiply(law, die, cap)
    for _ in range(options):
        law = series_multiply(law, list(option_points(cap)), cap)
    return law + [Fraction(0)] * (cap + 1 - len(law))


# Modulo a prime: the same convolution where exact fractions grow too long (a FLAIR order of 159
# points has denominators of about 24,000 bits). Every denominator is a power of 2 and 3. The prime
# is below 2**25, so numpy convolves 600 residues in int64 without overflow.
PRIME = 33_554_393


def mod(value: Fraction) -> int:
    return value.numerator % PRIME * pow(value.denominator, -1, PRIME) % PRIME


def mod_multiply(a: NDArray[np.int64], b: NDArray[np.int64], cap: int) -> NDArray[np.int64]:
    out: NDArray[np.int64] = np.convolve(a[: cap + 1], b[: cap + 1])[: cap + 1] % PRIME
    return out


def mod_power(base: NDArray[np.int64], n: int, cap: int) -> NDArray[np.int64]:
    result = np.ones(1, dtype=np.int64)
    while n:
        if n & 1:
            result = mod_multiply(result, base, cap)
        n >>= 1
        if n:
            base = mod_multiply(base, base, cap)
    return result


def mod_order_points(force: int, options: int, cap: int) -> list[int]:
    """P(points = p) modulo :data:`PRIME`, p = 0 .. cap: the option's equation on points alone."""
    die = np.zeros(6, dtype=np.int64)
    for face in FACES:
        die[points(die_line(face))] += pow(6, -1, PRIME)
    ends = [0] * (cap + 11)
    for line, count in ENDS.items():
        ends[points(line)] += count
    steps = [(points(x), count) for x, count in AGAIN.items()]
    inverse = pow(36 - STILL, -1, PRIME)
    option = [0] * (cap + 1)
    for p in range(cap + 1):
        option[p] = (ends[p] + sum(count * option[p - s] for s, count in steps if s <= p)) * inverse % PRIME
    whole = mod_multiply(mod_power(die % PRIME, force, cap), mod_power(np.array(option, dtype=np.int64), options, cap), cap)
    return whole.tolist() + [0] * (cap + 1 - len(whole))


# Floats, for match odds between larger orders. One option is kept to OPTION_CAP points and to
# lines of chance above FLOOR; what that leaves out is counted exactly, and added to the error.
FloatArray = NDArray[np.float64]
OPTION_CAP = 140
FLOOR = Fraction(1, 10**17)


@cache
def float_option() -> tuple[tuple[tuple[Line, float], ...], float]:
    kept = {line: p for line, p in option_lines(OPTION_CAP).items() if p > FLOOR}
    left_out = 1 - sum(kept.values())
    return tuple((line, float(p)) for line, p in kept.items()), float(left_out) * (1 + 1e-9)


def trim(array: FloatArray, budget: float) -> tuple[FloatArray, float]:
    """Cut the far ends of each axis whose mass is below ``budget`` in all; return what was cut."""
    cut = 0.0
    for axis in range(4):
        others = tuple(x for x in range(4) if x != axis)
        from_end = np.cumsum(array.sum(axis=others)[::-1])
        keep = array.shape[axis] - int(np.searchsorted(from_end, budget / 4, side="right"))
        keep = max(keep, 1)
        cut += float(array.sum(axis=others)[keep:].sum())
        array = array[(slice(None),) * axis + (slice(0, keep),)]
    return array, cut


@cache
def float_order(force: int, options: int) -> tuple[FloatArray, float]:
    """An order's lines as a float array [tries, conversions, penalties, drop goals], and the most
    its chances can be short of the true ones in all."""
    option, _ = float_option()
    reach = [max(line[axis] for line, _ in option) for axis in range(4)]
    flair = np.ones((1, 1, 1, 1))
    for _ in range(options):  # one option at a time: its lines, each shifting and weighing the rest
        grown = np.zeros(tuple(n + r for n, r in zip(flair.shape, reach, strict=True)))
        for line, p in option:
            grown[tuple(slice(s, s + n) for s, n in zip(line, flair.shape, strict=True))] += p * flair
        flair, _ = trim(grown, 1e-17)
    dice = np.zeros((force + 1, force + 1))
    for (tries, _, penalties, _), p in force_lines(force).items():
        dice[tries, penalties] = float(p)
    t, c, _, d = flair.shape
    whole = np.zeros((t + force, c, force + 1, d))
    for tries in range(force + 1):  # FLAIR scores no penalties: its array is flat on that axis
        whole[tries : tries + t] += flair * dice[tries][None, None, :, None]
    # Every cut only removed chances, so each kept one is a part of the true one, and what is missing
    # from the whole is the most any chance can be short.
    return whole, max(0.0, 1.0 - float(whole.sum())) + ROUNDING


@cache
def float_points(force: int, options: int) -> tuple[FloatArray, float]:
    """An order's points as floats, and the most its chances can be short of the true ones in all."""
    option = option_points(OPTION_CAP)
    law = np.ones(1)
    die = np.zeros(6)
    for face in FACES:
        die[points(die_line(face))] += 1 / 6
    for _ in range(force):
        law = np.convolve(law, die)
    for _ in range(options):
        law = np.convolve(law, np.array([float(p) for p in option]))
    return law, options * float(1 - sum(option)) * (1 + 1e-9) + ROUNDING


def lines_of(array: FloatArray) -> tuple[NDArray[np.int64], FloatArray]:
    """The occupied cells as count-back keys (points, tries, conversions, drop goals) and chances."""
    cells = np.argwhere(array > 0)
    t, c, pen, d = (cells[:, axis].astype(np.int64) for axis in range(4))
    assert max(array.shape) < 1024
    keys = (((5 * t + 2 * c + 3 * pen + 3 * d) * 1024 + t) * 1024 + c) * 1024 + d
    return keys, array[tuple(cells.T)]


def float_intervals(a: tuple[int, int], b: tuple[int, int], knockout: bool) -> dict[str, tuple[float, float]]:
    """Win, draw (knockout: level) and loss of ``a`` against ``b`` from the float arrays, as intervals."""
    if knockout:  # whole lines, ranked by count-back
        array_a, error_a = float_order(a[0], a[1] // 3)
        array_b, error_b = float_order(b[0], b[1] // 3)
        keys_a, probs_a = lines_of(array_a)
        keys_b, probs_b = lines_of(array_b)
    else:  # points alone
        probs_a, error_a = float_points(a[0], a[1] // 3)
        probs_b, error_b = float_points(b[0], b[1] // 3)
        keys_a, keys_b = np.arange(len(probs_a)), np.arange(len(probs_b))
    order = np.argsort(keys_b, kind="stable")
    keys_b, probs_b = keys_b[order], probs_b[order]
    below = np.concatenate(([0.0], np.cumsum(probs_b)))
    lo = np.searchsorted(keys_b, keys_a, side="left")
    hi = np.searchsorted(keys_b, keys_a, side="right")
    values = {
        "win": float(probs_a @ below[lo]),
        "level" if knockout else "draw": float(probs_a @ (below[hi] - below[lo])),
        "loss": float(probs_a @ (below[-1] - below[hi])),
    }
    error = error_a + error_b
    return {name: (value - ROUNDING, value + error) for name, value in values.items()}


# --- match odds, exactly (small orders) and as intervals ------------------------------------------

# Points caps beyond which an order of at most two options has less than 1e-14 left (asserted).
EXACT_CAP = {0: 0, 1: 110, 2: 130}


def group_interval(a: tuple[int, int], b: tuple[int, int]) -> dict[str, tuple[Fraction, Fraction]]:
    """Group win, draw, loss of ``a`` against ``b`` (at most two options each): each an exact interval
    containing the true value, as wide as what the caps leave out."""
    cap_a, cap_b = (5 * force + EXACT_CAP[flair // 3] for force, flair in (a, b))
    pa, pb = order_points(a[0], a[1] // 3, cap_a), order_points(b[0], b[1] // 3, cap_b)
    rest = (1 - sum(pa)) + (1 - sum(pb))
    assert rest < Fraction(1, 10**14)
    below = [Fraction(0)]
    for p in pb:
        below.append(below[-1] + p)
    win = sum((p * below[min(s, cap_b + 1)] for s, p in enumerate(pa)), start=Fraction(0))
    draw = sum((p * pb[s] for s, p in enumerate(pa) if s <= cap_b), start=Fraction(0))
    loss = sum((p * (below[-1] - below[min(s + 1, cap_b + 1)]) for s, p in enumerate(pa)), start=Fraction(0))
    return {name: (value, value + rest) for name, value in (("win", win), ("draw", draw), ("loss", loss))}


def knockout_interval(a: tuple[int, int], b: tuple[int, int]) -> dict[str, tuple[Fraction, Fraction]]:
    """Knockout win, level, loss (R9) of orders of at most one option, as exact intervals: B's lines
    sorted by count-back, A's looked up among them."""
    la, lb = (order_lines(force, flair // 3, 5 * force + EXACT_CAP[flair // 3]) for force, flair in (a, b))
    rest = (1 - sum(la.values())) + (1 - sum(lb.values()))
    assert rest < Fraction(1, 10**14)
    ranked = sorted(lb.items(), key=lambda item: countback_rank(item[0]))
    ranks = [countback_rank(line) for line, _ in ranked]
    below = [Fraction(0)]
    for _, p in ranked:
        below.append(below[-1] + p)
    win = level = loss = Fraction(0)
    for line, p in la.items():
        rank = countback_rank(line)
        lo, hi = bisect_left(ranks, rank), bisect_right(ranks, rank)
        win += p * below[lo]
        level += p * (below[hi] - below[lo])
        loss += p * (below[-1] - below[hi])
    return {name: (value, value + rest) for name, value in (("win", win), ("level", level), ("loss", loss))}


def intervals(a: tuple[int, int], b: tuple[int, int], knockout: bool) -> dict[str, tuple[float, float]]:
    """Exact intervals where the orders are small enough, float ones otherwise."""
    caps = [5 * force + EXACT_CAP.get(flair // 3, 999) for force, flair in (a, b)]
    exact = max(caps) <= (120 if knockout else 400)  # exact lines are slow past a few thousand
    if not exact:
        return float_intervals(a, b, knockout)
    found = knockout_interval(a, b) if knockout else group_interval(a, b)
    return {name: (float(lo), float(hi)) for name, (lo, hi) in found.items()}


def assert_within(name: str, theirs: float, interval: tuple[Fraction | float, Fraction | float], bound: float) -> None:
    """``theirs`` may be short of the truth by its tail bound (never over it, but for rounding)."""
    lo, hi = float(interval[0]), float(interval[1])
    assert lo - bound - ROUNDING <= theirs <= hi + ROUNDING, (name, theirs, lo, hi, bound)


# --- the scoring written here is the game's --------------------------------------------------------


def test_the_scoring_here_is_the_rules_engines_on_every_face_and_throw() -> None:
    """Before anything is compared: the engine scores every die and throw as this file reads the rules."""
    from sevens.rules import flair_throw_line, force_die_line

    for face in FACES:
        line = force_die_line(face)
        assert (line.tries, line.conversions, line.penalties, line.drop_goals) == die_line(face)
    for a in FACES:
        for b in FACES:
            line = flair_throw_line(a, b)
            assert (line.tries, line.conversions, line.penalties, line.drop_goals) == throw_line(a, b)
    assert ENDS.total() == 30 and STILL == 4 and dict(AGAIN) == {(2, 0, 0, 0): 1, (0, 0, 0, 2): 1}


def test_the_option_equation_agrees_with_brute_force_dice() -> None:
    """Each line of one option, by its equation, lies in the brute force's bracket (depth 4)."""
    brute, left_out = brute_option(4)
    assert left_out == Fraction(1, 6**5)
    exact = option_lines(80)
    assert sum(exact.values()) > 1 - Fraction(1, 10**8)
    for line, p in exact.items():
        assert brute.get(line, Fraction(0)) <= p <= brute.get(line, Fraction(0)) + left_out, line
    assert all(line in exact for line in brute if points(line) <= 80)


# --- one order ---------------------------------------------------------------------------------------

SMALL = [(force, flair) for force in range(5) for flair in (0, 3, 6)]


@pytest.mark.parametrize(("force", "flair"), SMALL)
def test_small_orders_line_by_line_against_brute_force(force: int, flair: int) -> None:
    """FORCE 0-4, FLAIR 0-6: every die thrown. The exact points, the joint lines and the float
    distribution the program gives all agree with the dice and with the option's equation."""
    options = flair // 3
    brute, left_out = brute_order(force, options, 3)
    cap = 5 * force + 18 * options  # every line up to here exactly; beyond it, only their total
    exact = order_lines(force, options, cap)
    beyond = 1 - sum(exact.values())
    for line, p in brute.items():
        if points(line) <= cap:
            assert p <= exact[line] <= p + left_out, line
    # Points, exactly: the program's fractions are this file's, total by total, and its rest too.
    theirs = odds.exact_points(force, options)
    one = odds.order_odds(force, flair)
    mine = order_points(force, options, max(theirs.last, len(one.distribution) - 1))
    assert [theirs.probability(p) for p in range(theirs.last + 1)] == mine[: theirs.last + 1]
    assert theirs.rest == 1 - sum(mine[: theirs.last + 1])
    if options:  # the first end with less than 1e-20 beyond it
        assert theirs.rest < Fraction(1, 10**20) <= theirs.rest + mine[theirs.last]
    else:
        assert theirs.rest == 0 and theirs.last == 5 * force
    # The float distribution: never above the truth, short of it by at most its tail bound.
    for p, chance in enumerate(one.distribution):
        assert float(mine[p]) - one.tail_bound - ROUNDING <= chance <= float(mine[p]) + ROUNDING, p
    # The joint lines behind the knockout odds, each decoded from the documented key layout.
    joint = odds.joint_lines(force, options)
    seen = Fraction(0)
    mask = (1 << 12) - 1
    for key, chance in zip(joint.keys.tolist(), joint.probs.tolist(), strict=True):
        drop_goals, conversions, tries, total = key & mask, key >> 12 & mask, key >> 24 & mask, key >> 36
        penalties, leftover = divmod(total - 5 * tries - 2 * conversions - 3 * drop_goals, 3)
        line = (tries, conversions, penalties, drop_goals)
        assert leftover == 0 and conversions <= min(tries, options), line
        if total > cap:
            assert chance <= float(beyond) + ROUNDING, line
            continue
        assert float(exact[line]) - joint.tail_bound - ROUNDING <= chance <= float(exact[line]) + ROUNDING, line
        seen += exact[line]
    assert 1 - seen <= joint.tail_bound + float(beyond) + ROUNDING


def moments(force: int, options: int) -> dict[str, Fraction]:
    """Expected line, variance, chance of nothing, expected throws: from the rules, by first-step
    analysis of one option (X = T + [T a double] X', X' an independent option) and sums over dice."""
    throws = [(a, b) for a in FACES for b in FACES]
    double = Fraction(6, 36)
    mean_line = [Fraction(sum(throw_line(a, b)[i] for a, b in throws), 36) / (1 - double) for i in range(4)]
    die_mean = [Fraction(sum(die_line(f)[i] for f in FACES), 6) for i in range(4)]
    t_mean = Fraction(sum(points(throw_line(a, b)) for a, b in throws), 36)
    t_square = Fraction(sum(points(throw_line(a, b)) ** 2 for a, b in throws), 36)
    t_on_double = Fraction(sum(points(throw_line(a, a)) for a in FACES), 36)
    x_mean = t_mean / (1 - double)
    x_square = (t_square + 2 * t_on_double * x_mean) / (1 - double)
    die_points = [points(die_line(f)) for f in FACES]
    die_var = Fraction(sum(p * p for p in die_points), 6) - Fraction(sum(die_points), 6) ** 2
    line = [force * d + options * m for d, m in zip(die_mean, mean_line, strict=True)]
    return {
        "tries": line[0], "conversions": line[1], "penalties": line[2], "drop_goals": line[3],
        "points": 5 * line[0] + 2 * line[1] + 3 * line[2] + 3 * line[3],
        "variance": force * die_var + options * (x_square - x_mean**2),
        "p_zero": Fraction(4, 6) ** force * option_points(0)[0] ** options,
        "throws": options / (1 - double),
    }


LARGE = [(10, 9), (0, 30), (1, 159), (82, 78), (160, 0), (0, 159), (37, 3)]


@pytest.mark.parametrize(("force", "flair"), SMALL[::3] + LARGE)
def test_expected_figures_of_an_order(force: int, flair: int) -> None:
    mine = moments(force, flair // 3)
    one = odds.order_odds(force, flair)
    assert one.expected_points_exact == mine["points"]
    assert one.expected.as_fractions() == {k: mine[k] for k in ("tries", "conversions", "penalties", "drop_goals")}
    assert (one.variance_exact, one.p_zero_exact, one.expected_flair_throws) == (
        mine["variance"], mine["p_zero"], mine["throws"])


@pytest.mark.parametrize(("force", "flair"), LARGE)
def test_large_orders_points_exactly_modulo_a_prime(force: int, flair: int) -> None:
    """Every total the program lists exactly, to the last, equals this file's modulo a prime; so
    does the rest; and the list ends where less than 1e-20 is first left."""
    theirs = odds.exact_points(force, flair // 3)
    mine = mod_order_points(force, flair // 3, theirs.last)
    assert [mod(theirs.probability(p)) for p in range(theirs.last + 1)] == mine
    assert mod(theirs.rest) == (1 - sum(mine)) % PRIME
    if flair:
        assert theirs.rest < Fraction(1, 10**20) <= theirs.rest + theirs.probability(theirs.last)
    else:
        assert theirs.rest == 0 and theirs.last == 5 * force


def test_the_float_options_cut_is_small() -> None:
    _, left_out = float_option()
    assert left_out < 1e-15


# --- matches ---------------------------------------------------------------------------------------

PAIRS = [((1, 0), (1, 0)), ((3, 0), (0, 3)), ((0, 0), (0, 0)), ((2, 0), (0, 0)), ((0, 3), (0, 3)),
         ((4, 3), (2, 3)), ((4, 6), (2, 3)), ((0, 6), (0, 6)), ((10, 0), (4, 6)), ((6, 9), (0, 12)),
         ((10, 9), (0, 30)), ((30, 30), (60, 0)), ((40, 60), (100, 0)), ((0, 3), (40, 0))]


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_matches(a: tuple[int, int], b: tuple[int, int]) -> None:
    """Group win/draw/loss and knockout win/level/loss (R9 count-back): exact intervals for small
    orders, floats with every cut counted for the others."""
    group = odds.match_odds(a, b)
    for name, interval in intervals(a, b, knockout=False).items():
        assert_within(name, getattr(group, name), interval, group.tail_bound)
    knock = odds.knockout_odds(a, b)
    for name, interval in intervals(a, b, knockout=True).items():
        assert_within(name, getattr(knock, name), interval, knock.tail_bound)


@pytest.mark.parametrize(("a", "b", "knockout"), [
    ((4, 3), (2, 3), False), ((0, 6), (3, 0), False), ((4, 3), (2, 3), True), ((10, 3), (0, 3), True)])
def test_exact_and_float_intervals_agree(a: tuple[int, int], b: tuple[int, int], knockout: bool) -> None:
    """This file's two ways of working out a match overlap (a check on the checker)."""
    exact = knockout_interval(a, b) if knockout else group_interval(a, b)
    floats = float_intervals(a, b, knockout)
    for name, (lo, hi) in exact.items():
        assert floats[name][0] - ROUNDING <= hi and lo <= floats[name][1] + ROUNDING, name


def test_the_rules_engine_plays_the_odds_worked_out_here() -> None:
    """10,000 seeded matches of the engine, 4 + 6 v 2 + 3: each frequency within 4.5 standard errors
    of this file's chance (a false alarm about once in 10**5 runs; the seed is fixed)."""
    a, b = (4, 6), (2, 3)
    group = {k: v[0] for k, v in intervals(a, b, knockout=False).items()}
    knock = {k: v[0] for k, v in intervals(a, b, knockout=True).items()}
    dice = SeededDice(random.Random(20261203))
    n = 10_000
    seen_group: Counter[str] = Counter()
    seen_knock: Counter[str] = Counter()
    words = {"home": "win", "away": "loss", None: None}
    for _ in range(n):
        line_a = play_order(Order(*a), dice).line
        line_b = play_order(Order(*b), dice).line
        seen_group[words[group_outcome(line_a, line_b).winner] or "draw"] += 1
        seen_knock[words[countback(line_a, line_b).winner] or "level"] += 1
    for expected, seen in ((group, seen_group), (knock, seen_knock)):
        for name, p in expected.items():
            assert abs(seen[name] / n - p) <= 4.5 * math.sqrt(p * (1 - p) / n), (name, seen[name] / n, p)


# --- best splits ------------------------------------------------------------------------------------


def shares(total: int, vs: tuple[int, int], knockout: bool) -> dict[tuple[int, int], tuple[float, float]]:
    """Each split's win + draw/2 (knockout: win + level/2), as an interval."""
    out = {}
    tie = "level" if knockout else "draw"
    for flair in range(0, total + 1, 3):
        split = (total - flair, flair)
        chances = intervals(split, vs, knockout)
        out[split] = (chances["win"][0] + chances[tie][0] / 2, chances["win"][1] + chances[tie][1] / 2)
    return out


@pytest.mark.parametrize(("total", "vs", "knockout"), [
    (3, (3, 0), False), (12, (6, 6), False), (30, (15, 15), False), (100, (40, 60), False), (40, (0, 3), False),
    (3, (3, 0), True), (12, (6, 6), True), (30, (15, 15), True), (21, (0, 3), True),
])
def test_best_split(total: int, vs: tuple[int, int], knockout: bool) -> None:
    """The program's ranking: every split there, each share right, and best first as far as the
    figures can tell (a split ranked above another is never worse by more than the two bounds)."""
    mine = shares(total, vs, knockout)
    ranked = odds.best_splits(total, vs, knockout=knockout)
    assert sorted((s.order.force, s.order.flair) for s in ranked) == sorted(mine)
    for split in ranked:
        assert_within("share", split.share, mine[(split.order.force, split.order.flair)], split.odds.tail_bound)
    for upper, lower in itertools.pairwise(ranked):
        hi_upper = mine[(upper.order.force, upper.order.flair)][1]
        lo_lower = mine[(lower.order.force, lower.order.flair)][0]
        assert hi_upper + upper.odds.tail_bound + lower.odds.tail_bound + ROUNDING >= lo_lower, (upper, lower)


# --- the command line -------------------------------------------------------------------------------

runner = CliRunner()


def cli_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize(("force", "flair"), [(0, 3), (3, 0), (10, 9), (4, 6)])
def test_cli_one_order(force: int, flair: int) -> None:
    """`sevens odds --force F --flair K --json --exact`: every figure and every listed chance."""
    data = cli_json("--force", str(force), "--flair", str(flair), "--exact")
    mine = moments(force, flair // 3)
    assert Fraction(data["expected_points_exact"]) == mine["points"]
    assert Fraction(data["variance_exact"]) == mine["variance"]
    assert Fraction(data["p_zero_exact"]) == mine["p_zero"]
    assert Fraction(data["expected_flair_throws_exact"]) == mine["throws"]
    assert {k: Fraction(v) for k, v in data["expected_lines_exact"].items()} == {
        k: mine[k] for k in ("tries", "conversions", "penalties", "drop_goals")}
    above = data["rest"]["above"]
    exact = order_points(force, flair // 3, above)
    listed = {int(p): Fraction(v) for p, v in data["distribution_exact"]}
    assert listed == {p: v for p, v in enumerate(exact) if v}
    assert {int(p): v for p, v in data["distribution"]} == {p: float(v) for p, v in listed.items()}
    assert Fraction(data["rest"]["exact"]) == 1 - sum(exact)


@pytest.mark.parametrize(("a", "b", "knockout"), [
    ((4, 6), (2, 3), False), ((4, 6), (2, 3), True), ((10, 9), (0, 30), True), ((30, 30), (60, 0), False)])
def test_cli_match(a: tuple[int, int], b: tuple[int, int], knockout: bool) -> None:
    args = ["--force", str(a[0]), "--flair", str(a[1]), "--vs-force", str(b[0]), "--vs-flair", str(b[1])]
    data = cli_json(*args, *(["--knockout"] if knockout else []))
    assert data["rules"] == ("knockout" if knockout else "group")
    for name, interval in intervals(a, b, knockout).items():
        assert_within(name, data[name], interval, data["tail_bound"])


@pytest.mark.parametrize("knockout", [False, True])
def test_cli_best_split(knockout: bool) -> None:
    data = cli_json("--best-split", "12", "--vs-force", "6", "--vs-flair", "6", *(["--knockout"] if knockout else []))
    mine = shares(12, (6, 6), knockout)
    tie = "level" if knockout else "draw"
    splits = data["splits"]
    assert sorted((s["force"], s["flair"]) for s in splits) == sorted(mine)
    assert (splits[0]["force"], splits[0]["flair"]) == max(mine, key=lambda split: mine[split][0])
    for s in splits:
        assert_within("share", s["win"] + s[tie] / 2, mine[(s["force"], s["flair"])], 2 * s["tail_bound"])


# --- docs/original-figures.md, figure by figure -----------------------------------------------------


def fractions_in(cell: str) -> list[Fraction]:
    return [Fraction(int(n), int(d)) for n, d in re.findall(r"(\d+)/(\d+)", cell)]


def table_rows(text: str, heading: str) -> list[list[str]]:
    """The rows of the first table after ``heading``, each a list of cells."""
    after = text.split(heading, 1)[1]
    rows = []
    for line in after.splitlines():
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    return rows[2:]


ORIGINAL = (DOCS / "original-figures.md").read_text(encoding="utf-8")


def one_throw() -> Counter[int]:
    return Counter(points(throw_line(a, b)) for a in FACES for b in FACES)


def test_figures_one_throw_of_two_dice() -> None:
    rows = table_rows(ORIGINAL, "## One throw of two dice")
    assert {int(r[0]): int(r[1]) for r in rows} == one_throw()
    total = sum(p * n for p, n in one_throw().items())
    assert f"= {total}, so one throw expects" in ORIGINAL
    assert f"**{total}/36 = {Fraction(total, 36)} ≈ {total / 36:.3f}**" in ORIGINAL


def test_figures_the_multiplier_and_one_option() -> None:
    m = moments(0, 1)
    assert m["throws"] == Fraction(6, 5) and "= 6/5 = 1.2   exactly" in ORIGINAL
    per_throw = Fraction(sum(one_throw().elements()), 36)
    assert m["points"] == Fraction(6, 5) * per_throw == Fraction(61, 15)
    assert f"6/5 · {per_throw} = {m['points']} ≈ {float(m['points']):.4f}" in ORIGINAL
    # The other route: the ending throw, and the scoring doubles before it.
    ending = Fraction(sum(points(line) * n for line, n in ENDS.items()), 30)
    assert ending == Fraction(53, 15) and "= 106/30 = 53/15" in ORIGINAL
    doubles = (m["throws"] - 1) * Fraction(sum(points(x) for x in AGAIN), 6)
    assert doubles == Fraction(8, 15) and ending + doubles == m["points"]
    assert "1/5 · (10 + 6)/6 = 8/15. And 53/15 + 8/15 = 61/15" in ORIGINAL
    # The verdicts table.
    verdicts = {r[0]: r[1] for r in table_rows(ORIGINAL, "In short:")}
    assert verdicts["doubles multiply a FLAIR option's expected score by 1.2"] == "6/5 exactly"
    assert fractions_in(verdicts["3 points of FLAIR expect about 3.97"]) == [m["points"]]
    assert "4.0667" in verdicts["3 points of FLAIR expect about 3.97"]
    assert f"{float(1 - Fraction(397, 100) / m['points']) * 100:.1f}% too low" in ORIGINAL
    assert f"is {float(m['points']) - 3.97:.3f} short of it" in ORIGINAL
    force = moments(3, 0)
    assert verdicts["3 points of FORCE net 4.00"] == f"{force['points']} exactly"
    shares = fractions_in(verdicts["FLAIR takes a greater share of its points from tries"])
    assert shares == [5 * m["tries"] / m["points"], 5 * force["tries"] / force["points"]]
    assert f"({float(m['points'] / 3):.3f} a point against {force['points'] / 3} = {float(force['points'] / 3):.3f})" \
        in ORIGINAL.replace("61/45 = ", "")


def test_figures_expected_lines() -> None:
    rows = {r[0]: r[1:] for r in table_rows(ORIGINAL, "The expected line of one option, exactly:")}
    for label, (force, options) in (("one FLAIR option (3 points)", (0, 1)), ("three FORCE dice (3 points)", (3, 0))):
        m = moments(force, options)
        tries, conversions, penalties, drop_goals, total = rows[label]
        assert [Fraction(x) for x in (tries, conversions, penalties, drop_goals)] == [
            m["tries"], m["conversions"], m["penalties"], m["drop_goals"]]
        assert Fraction(total.split()[0]) == m["points"]


def test_figures_the_guess_at_3_97() -> None:
    """Each other reading of the rules, scored again here."""
    def per_throw(score: Callable[[int, int], int]) -> Fraction:
        return Fraction(sum(score(a, b) for a in FACES for b in FACES), 36)

    def once_each(number: int, worth: int) -> Callable[[int, int], int]:
        def score(a: int, b: int) -> int:
            base = points(throw_line(a, b))
            return base - worth if a == b == number else base
        return score

    readings = {
        "the rules as written (R1, R2)": per_throw(lambda a, b: points(throw_line(a, b))) * Fraction(6, 5),
        "3-3 scores one drop goal": per_throw(once_each(3, 3)) * Fraction(6, 5),
        "5-5 scores one try": per_throw(once_each(5, 5)) * Fraction(6, 5),
        "each number scores once per throw (5-5 one try, 3-3 one drop goal)":
            per_throw(lambda a, b: once_each(3, 3)(a, b) - (5 if a == b == 5 else 0)) * Fraction(6, 5),
        "5-3 and 3-5 score only the try": per_throw(lambda a, b: points(throw_line(a, b)) - 3 * ({a, b} == {3, 5}))
            * Fraction(6, 5),
        "doubles score nothing, only throw again": per_throw(lambda a, b: 0 if a == b else points(throw_line(a, b)))
            * Fraction(6, 5),
        "a double throws again only once (× 7/6, not 6/5)": per_throw(lambda a, b: points(throw_line(a, b)))
            * Fraction(7, 6),
    }
    rows = table_rows(ORIGINAL, "We tried other readings")
    assert len(rows) == len(readings)
    for reading, throw, option in rows:
        value = readings[reading]
        assert Fraction(throw) == value / (Fraction(7, 6) if "only once" in reading else Fraction(6, 5))
        assert fractions_in(option)[0] == value
        assert f"{float(value):.3f}" in option
    # 3.97 to two decimals is 36x in [118.95, 119.25]: only 119 of the whole totals.
    assert [n for n in range(100, 130) if round(n / 30, 2) == 3.97] == [119]
    # A mean of 1000 simulated options 0.1 or more below: about one time in five.
    sd = math.sqrt(moments(0, 1)["variance"] / 1000)
    assert f"sqrt({moments(0, 1)['variance']}) ≈ {math.sqrt(moments(0, 1)['variance']):.2f}" in ORIGINAL
    assert round(0.5 * math.erfc(0.1 / sd / math.sqrt(2)), 1) == 0.2


def test_figures_shares_of_tries_and_other_figures() -> None:
    flair, force = moments(0, 1), moments(3, 0)
    measures = {r[0]: (r[1], r[2]) for r in table_rows(ORIGINAL, "However it is measured:")}

    def last_fraction(cell: str) -> Fraction:
        found = fractions_in(cell)
        return found[-1] if found else Fraction(cell.split()[0])

    expected = {
        "share of points from tries (5 each)": (5 * flair["tries"] / flair["points"], 5 * force["tries"] / force["points"]),
        "same, conversions counted with their tries": (
            (5 * flair["tries"] + 2 * flair["conversions"]) / flair["points"], 5 * force["tries"] / force["points"]),
        "tries among scores (tries / (tries + penalties + drop goals))": (
            flair["tries"] / (flair["tries"] + flair["penalties"] + flair["drop_goals"]),
            force["tries"] / (force["tries"] + force["penalties"] + force["drop_goals"])),
        "tries per SCRUM point": (flair["tries"] / 3, force["tries"] / 3),
    }
    assert set(measures) == set(expected)
    for name, (flair_cell, force_cell) in measures.items():
        want_flair, want_force = expected[name]
        assert last_fraction(flair_cell.replace("%", "")) == want_flair, name
        assert fractions_in(force_cell)[-1:] in ([want_force], []) or Fraction(force_cell.split()[0].rstrip("%")) == want_force
    others = {r[0]: (r[1], r[2]) for r in table_rows(ORIGINAL, "## Other figures worth knowing")}
    assert fractions_in(others["expected points"][0])[0] == flair["points"]
    assert Fraction(others["expected points"][1]) == force["points"]
    assert fractions_in(others["variance of points"][0])[0] == flair["variance"]
    assert fractions_in(others["variance of points"][1])[0] == force["variance"]
    assert fractions_in(others["chance of no points"][0])[0] == flair["p_zero"]
    assert fractions_in(others["chance of no points"][1])[0] == force["p_zero"]
    assert fractions_in(others["expected throws"][0])[0] == flair["throws"]
    both = moments(30, 10)["points"]
    assert f"30 FORCE + 30 FLAIR expects {both} ≈ {float(both):.2f} points, 60 FORCE expects {moments(60, 0)['points']}" \
        in ORIGINAL


def test_figures_the_distribution_of_one_option() -> None:
    rows = table_rows(ORIGINAL, "## The distribution of one FLAIR option")
    exact = order_points(0, 1, 160)
    listed = {int(r[0]): (Fraction(r[1]), r[2]) for r in rows if r[0].isdigit()}
    assert listed == {p: (v, f"{float(v):.6f}") for p, v in enumerate(exact[:31]) if v}
    more = next(r for r in rows if r[0] == "more than 30")
    assert Fraction(more[1]) == 1 - sum(exact[:31]) and more[2] == f"{float(1 - sum(exact[:31])):.6f}"
    # The worked examples under the heading, and the end of the list (144 points for one option).
    assert exact[8] == Fraction(15, 16) * Fraction(2, 30) == Fraction(1, 16)
    assert exact[18] == Fraction(1024 + 5, 524288)
    rest_after = [1 - sum(exact[: p + 1]) for p in range(161)]
    first_end = next(p for p, left in enumerate(rest_after) if left < Fraction(1, 10**20))
    assert first_end == 144 and "(144 points for one option)" in ORIGINAL


def test_figures_quoted_in_odds_md() -> None:
    """The few chances docs/odds.md quotes as examples, from this file's numbers."""
    text = (DOCS / "odds.md").read_text(encoding="utf-8")
    assert moments(10, 3)["p_zero"] == Fraction(125, 236196) and "`125/236196`" in text
    assert f"{float(moments(0, 10)['p_zero']):.1e}" == "8.9e-06" and "`8.9e-06`" in text
    assert f"{float(Fraction(2, 3) ** 160):.1e}" == "6.7e-29" and "`6.7e-29`" in text
    lose = group_interval((90, 0), (0, 3))["loss"]
    assert f"{float(lose[0]):.1e}" == f"{float(lose[1]):.1e}" == "3.5e-11" and "`3.5e-11`" in text
    for split, quoted in (((40, 0), "0.9999697"), ((37, 3), "0.9999695")):
        chances = group_interval(split, (0, 3))
        share = chances["win"][0] + chances["draw"][0] / 2
        assert f"{float(share):.7f}" == quoted and f"`{quoted}`" in text
    chances = group_interval((40, 0), (1, 0))
    share = float(chances["win"][0] + chances["draw"][0] / 2)
    quoted = (f"0.{round(share * 1e8):08d}; win {float(chances['win'][0]):.6f}, draw "
              f"{float(chances['draw'][0]):.1e}, loss {float(chances['loss'][0]):.1e}")
    assert quoted in " ".join(text.split()), quoted

