"""An independent brute force over the dice, for checking :mod:`sevens.odds`.

It does not import :mod:`sevens.odds`. Every throw is scored by the rules engine
(:func:`sevens.rules.force_die_line`, :func:`sevens.rules.flair_throw_line`); a FLAIR option is
followed through every sequence of throws up to ``depth`` doubles, with exact fractions. What is
left out is the chance of more than ``depth`` doubles in a row, ``(1/6) ** (depth + 1)`` per
option, so each brute-force probability is a lower bound, short by at most ``options`` times that.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache, cmp_to_key

from sevens.rules import Line, countback, flair_throw_line, force_die_line

Dist = dict[Line, Fraction]
FACES = range(1, 7)


def combine(a: Dist, b: Dist) -> Dist:
    """The distribution of the sum of two independent lines."""
    out: Dist = {}
    for la, pa in a.items():
        for lb, pb in b.items():
            line = la + lb
            out[line] = out.get(line, Fraction(0)) + pa * pb
    return out


def force_die() -> Dist:
    die: Dist = {}
    for face in FACES:
        line = force_die_line(face)
        die[line] = die.get(line, Fraction(0)) + Fraction(1, 6)
    return die


@cache
def flair_option(depth: int) -> tuple[tuple[Line, Fraction], ...]:
    """One option, every throw sequence with at most ``depth`` doubles before the last throw."""
    dist: Dist = {}
    for a, b in itertools.product(FACES, repeat=2):
        line = flair_throw_line(a, b)
        if a != b:
            dist[line] = dist.get(line, Fraction(0)) + Fraction(1, 36)
        elif depth > 0:
            for more, p in flair_option(depth - 1):
                dist[line + more] = dist.get(line + more, Fraction(0)) + Fraction(1, 36) * p
    return tuple(dist.items())


def missing(options: int, depth: int) -> Fraction:
    """Mass the brute force leaves out: at most ``options * (1/6) ** (depth + 1)``."""
    return options * Fraction(1, 6) ** (depth + 1)


@cache
def order_lines(force: int, options: int, depth: int) -> tuple[tuple[Line, Fraction], ...]:
    dist: Dist = {Line(): Fraction(1)}
    die = force_die()
    for _ in range(force):
        dist = combine(dist, die)
    option = dict(flair_option(depth))
    for _ in range(options):
        dist = combine(dist, option)
    return tuple(dist.items())


def _add_points(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for sa, pa in a.items():
        for sb, pb in b.items():
            out[sa + sb] = out.get(sa + sb, Fraction(0)) + pa * pb
    return out


def _points_of(lines: Dist) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for line, p in lines.items():
        out[line.points] = out.get(line.points, Fraction(0)) + p
    return out


@cache
def _order_points(force: int, options: int, depth: int) -> tuple[tuple[int, Fraction], ...]:
    dist: dict[int, Fraction] = {0: Fraction(1)}
    die = _points_of(force_die())
    for _ in range(force):
        dist = _add_points(dist, die)
    option = _points_of(dict(flair_option(depth)))
    for _ in range(options):
        dist = _add_points(dist, option)
    return tuple(dist.items())


def order_points(force: int, options: int, depth: int) -> dict[int, Fraction]:
    """Points of ``force`` dice and ``options`` options (each line scored by the rules engine)."""
    return dict(_order_points(force, options, depth))


def group_odds(a: tuple[int, int], b: tuple[int, int], depth: int) -> tuple[Fraction, Fraction, Fraction]:
    """Win, draw, loss on points, ``a`` and ``b`` as ``(force dice, options)``."""
    pa, pb = order_points(*a, depth), order_points(*b, depth)
    win = draw = loss = Fraction(0)
    for sa, qa in pa.items():
        for sb, qb in pb.items():
            if sa > sb:
                win += qa * qb
            elif sa == sb:
                draw += qa * qb
            else:
                loss += qa * qb
    return win, draw, loss


def _countback_order(x: Line, y: Line) -> int:
    winner = countback(x, y).winner
    return 0 if winner is None else (1 if winner == "home" else -1)


def knockout_odds(a: tuple[int, int], b: tuple[int, int], depth: int) -> tuple[Fraction, Fraction, Fraction]:
    """Win, loss, level after count-back (R9), with the rules engine's countback as the only comparison.

    All lines of both sides are sorted with countback as the comparator; lines it calls level share a
    rank. Then P(B below each rank) is a running sum.
    """
    lines_a, lines_b = dict(order_lines(*a, depth)), dict(order_lines(*b, depth))
    ordered = sorted(set(lines_a) | set(lines_b), key=cmp_to_key(_countback_order))
    rank: dict[Line, int] = {}
    for i, line in enumerate(ordered):
        same = i > 0 and _countback_order(line, ordered[i - 1]) == 0
        rank[line] = rank[ordered[i - 1]] if same else i
    mass_b: dict[int, Fraction] = {}
    for line, p in lines_b.items():
        mass_b[rank[line]] = mass_b.get(rank[line], Fraction(0)) + p
    below: dict[int, Fraction] = {}
    running = Fraction(0)
    for r in sorted(set(rank.values())):
        below[r] = running
        running += mass_b.get(r, Fraction(0))
    win = loss = level = Fraction(0)
    for line, p in lines_a.items():
        r = rank[line]
        tie = mass_b.get(r, Fraction(0))
        win += p * below[r]
        level += p * tie
        loss += p * (running - below[r] - tie)
    return win, loss, level
