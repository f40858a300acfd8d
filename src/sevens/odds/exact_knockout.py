"""Knockout win, level and loss of one order against another as exact fractions, count-back included.

Count-back (R9) compares points, then tries, then conversions, then drop goals. When one side has no
FLAIR its lines are finitely many: FORCE dice score only tries and penalties, so such a line is
``(points, tries)``. Each is met against the other side's chances, worked out exactly for every
``(points, tries)`` up to the most points the FORCE side can score, which is all count-back can ask
about: beyond that the other side has won on points whatever its line. A pair of ``(points,
tries)`` is one whole number ``points * S + tries`` (``S`` more than any count of tries within
reach), so the two-way table is one polynomial and its products are taken as exact.py takes
them, on whole numbers packed into one integer.

When both sides have FLAIR the chances are not fractions at all, so none are offered. Both may
throw any number of scoring doubles, and a full level needs the same number of each kind on both
sides: for one FLAIR option against one, ``level = 53/225 * (15/16)**2 * sum_s C(2s, s) / 1024**s``
(53/225 the chance the two last throws make the same line), and ``sum_s C(2s, s) x**s`` is
``1 / sqrt(1 - 4x)``, so the level is ``53 / (16 sqrt(255))``, an irrational number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from sevens.odds.exact import _power
from sevens.odds.polynomial import multiply
from sevens.odds.tables import flair_tables, force_die
from sevens.rules import MAX_ORDER_POINTS, Line, Order

__all__ = ["MOST_KNOCKOUT_POINTS", "STEPS", "STEP_KEYS", "WHY_NOT_BOTH_FLAIR", "ExactKnockout", "exact_knockout"]

WHY_NOT_BOTH_FLAIR = (
    "under count-back two orders that both have FLAIR have chances that are not fractions (a level "
    "match of one FLAIR option against one has chance 53/(16*sqrt(255)), an irrational number, from "
    "the doubles either side may throw without end)"
)

# Every pair of orders a team can give (160 each, R3): the work grows with the side without FLAIR,
# whose every line is met, and 40 FORCE + 120 FLAIR against 160 FORCE, the slowest measured, takes
# about 4 s of CPU and 250 MB for the whole command. Kept as a bound so that the refusal names it.
MOST_KNOCKOUT_POINTS = 2 * MAX_ORDER_POINTS

# The steps of count-back (R9) a knockout match is decided by, in order.
STEPS = ("points", "tries", "conversions", "drop goals")


@dataclass(frozen=True, slots=True)
class ExactKnockout:
    """Knockout chances from the first order's side after count-back, as fractions adding up to 1.

    ``win_by`` and ``loss_by`` split ``win`` and ``loss`` by the step of count-back that decided
    the match (points, tries, conversions, drop goals); ``level`` is every line equal, for the
    group record and then lots to decide.
    """

    win_by: tuple[Fraction, Fraction, Fraction, Fraction]
    level: Fraction
    loss_by: tuple[Fraction, Fraction, Fraction, Fraction]

    @property
    def win(self) -> Fraction:
        return sum(self.win_by, Fraction(0))

    @property
    def loss(self) -> Fraction:
        return sum(self.loss_by, Fraction(0))

    def turned(self) -> ExactKnockout:
        """The same match from the other side."""
        return ExactKnockout(win_by=self.loss_by, level=self.level, loss_by=self.win_by)

    def to_dict(self) -> dict[str, str | dict[str, str]]:
        return {"win": str(self.win), "level": str(self.level), "loss": str(self.loss),
                "win_by": _by_step(self.win_by), "loss_by": _by_step(self.loss_by)}


# The JSON keys of count-back's steps, spelt as ``expected_lines`` spells them. "drop goals", the
# only one spelt otherwise, was the key in sevens 0.1.0: it stays beside "drop_goals", so that a
# script reading it keeps working, until 0.2 (docs/odds.md says so).
STEP_KEYS = ("points", "tries", "conversions", "drop_goals")
_DEPRECATED_STEP_KEYS = {"drop_goals": "drop goals"}


def _by_step(chances: tuple[Fraction, Fraction, Fraction, Fraction]) -> dict[str, str]:
    out = {}
    for key, p in zip(STEP_KEYS, chances, strict=True):
        out[key] = str(p)
        if key in _DEPRECATED_STEP_KEYS:
            out[_DEPRECATED_STEP_KEYS[key]] = str(p)
    return out


def _packed(pairs: list[tuple[Line, Fraction]], stride: int, keep: int) -> tuple[list[int], int]:
    """A table of outcomes as a polynomial in ``points * stride + tries``: whole coefficients over
    one denominator, terms beyond ``keep`` left out."""
    denominator = math.lcm(*(p.denominator for _, p in pairs)) if pairs else 1
    coefficients = [0]
    for line, p in pairs:
        at = line.points * stride + line.tries
        if at <= keep:
            coefficients += [0] * (at + 1 - len(coefficients))
            coefficients[at] += int(p * denominator)
    return coefficients, denominator


def _doubles(pairs: list[tuple[Line, Fraction]], options: int, stride: int, most_points: int) -> tuple[list[int], int]:
    """All the scoring doubles of ``options`` FLAIR options, up to ``most_points``: ``s`` of them
    with chance ``C(s + k - 1, s) (1 - r)**k r**s``, each of its kind with that kind's chance."""
    r = flair_tables().ratio
    assert len(pairs) <= 2  # two kinds (5-5 and 3-3): a count of one leaves the rest to the other
    terms: dict[int, Fraction] = {}
    least = min(line.points for line, _ in pairs) if pairs else 1
    for s in range(most_points // least + 1):
        weight = math.comb(s + options - 1, s) * (1 - r) ** options * r**s
        kinds = pairs + [(Line(), Fraction(0))] * (2 - len(pairs))
        (first, p), (second, q) = kinds
        for x in range(s + 1):
            points = first.points * x + second.points * (s - x)
            if points > most_points or (q == 0 and x < s):
                continue
            at = points * stride + first.tries * x + second.tries * (s - x)
            terms[at] = terms.get(at, Fraction(0)) + weight * math.comb(s, x) * p**x * q ** (s - x)
    denominator = math.lcm(*(p.denominator for p in terms.values()))
    coefficients = [0] * (max(terms) + 1)
    for at, p in terms.items():
        coefficients[at] = int(p * denominator)
    return coefficients, denominator


def _force_lines(force: int, stride: int) -> tuple[list[int], int]:
    """The chance of each ``points * stride + tries`` of ``force`` FORCE dice, from the count of each
    face: ``t`` tries (a 5), ``p`` penalties (a 3) and the rest nothing (4 faces in 6), with chance
    ``force! / (t! p! m!) 4**m / 6**force``. Every line is kept, so nothing is truncated."""
    coefficients = [0] * (5 * force * stride + force + 1)
    for tries in range(force + 1):
        ways = math.comb(force, tries)
        for penalties in range(force - tries + 1):
            coefficients[(5 * tries + 3 * penalties) * stride + tries] += (
                ways * math.comb(force - tries, penalties) * 4 ** (force - tries - penalties))
    return coefficients, 6**force


def _lines(order: Order, stride: int, keep: int) -> tuple[tuple[list[int], list[int], list[int]], int]:
    """The chance of each ``points * stride + tries`` up to ``keep`` of the order's lines, three ways
    over one denominator: every line, the lines with no conversion, and those with no conversion nor
    drop goal.

    The FORCE dice are raised to their power once for all three, and so are the dice with the
    scoring doubles for the first two (a double is never converted: 5-5 is two tries, 3-3 two drop
    goals). Leaving kinds of outcome out can only leave a denominator that divides the whole one.
    """
    die, die_total = _packed(list(force_die().pairs), stride, keep)
    dice, dice_total = _power(die, die_total, order.force, keep)
    if not order.options:
        return (dice, dice, dice), dice_total
    tables = flair_tables()
    finals = list(tables.final.pairs)
    doubles = list(tables.scoring_double.pairs)
    no_conversion = [(line, p) for line, p in finals if not line.conversions]
    neither = [(line, p) for line, p in no_conversion if not line.drop_goals]
    assert not any(line.conversions for line, _ in doubles)
    all_doubles, all_doubles_total = _doubles(doubles, order.options, stride, keep // stride)
    dice_doubles = multiply(dice, all_doubles, keep)
    plain_doubles, plain_doubles_total = _doubles([(line, p) for line, p in doubles if not line.drop_goals],
                                                  order.options, stride, keep // stride)
    dice_plain = multiply(dice, plain_doubles, keep)
    out: list[tuple[list[int], int]] = []
    for kept, (before, before_total) in ((finals, (dice_doubles, dice_total * all_doubles_total)),
                                          (no_conversion, (dice_doubles, dice_total * all_doubles_total)),
                                          (neither, (dice_plain, dice_total * plain_doubles_total))):
        final, final_total = _packed(kept, stride, keep)
        power, power_total = _power(final, final_total, order.options, keep)
        out.append((multiply(before, power, keep), before_total * power_total))
    (every, total), (plain, plain_total), (clean, clean_total) = out
    assert total % plain_total == 0 and total % clean_total == 0
    return (every, [c * (total // plain_total) for c in plain], [c * (total // clean_total) for c in clean]), total


def exact_knockout(a: Order, b: Order) -> ExactKnockout:
    """Win, level and loss of ``a`` against ``b`` under knockout rules (R9), exactly.

    >>> one = exact_knockout(Order(force=1, flair=0), Order(force=1, flair=0))
    >>> one.win, one.level, one.loss  # a 5 beats a 3 on points, and nothing else is apart
    (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    >>> exact_knockout(Order(force=0, flair=3), Order(force=1, flair=0)).win_by[3]  # drop goal v penalty: 3/16 * 1/6
    Fraction(1, 32)

    Raises:
        ValueError: both orders have FLAIR, whose chances are not fractions (:data:`WHY_NOT_BOTH_FLAIR`),
            or they spend more than :data:`MOST_KNOCKOUT_POINTS` SCRUM points between them.
    """
    if a.options and b.options:
        raise ValueError(WHY_NOT_BOTH_FLAIR)
    if a.total + b.total > MOST_KNOCKOUT_POINTS:
        raise ValueError(
            f"exact fractions of a knockout match are worked out for orders of up to {MOST_KNOCKOUT_POINTS} SCRUM "
            f"points between them, got {a.total} + {b.total} = {a.total + b.total}"
        )
    if b.options:
        return _exact_knockout(b, a).turned()
    return _exact_knockout(a, b)


@lru_cache(maxsize=64)
def _exact_knockout(a: Order, b: Order) -> ExactKnockout:
    """``b`` has no FLAIR: every line of it is some tries and penalties."""
    assert not b.options
    stride = b.force + 1  # more than any count of tries within b's most points
    most = 5 * b.force
    keep = most * stride + stride - 1
    (every, no_conversion, neither), total = _lines(a, stride, keep)
    every = every + [0] * (keep + 1 - len(every))
    below = [0]
    for c in every:
        below.append(below[-1] + c)
    win = [0, 0, 0, 0]
    loss = [0, 0, 0, 0]
    level = 0
    theirs, their_total = _force_lines(b.force, stride)
    for at, chance in enumerate(theirs):
        if not chance:
            continue
        row = at - at % stride  # this many points and no tries
        same = every[at]
        clean = neither[at] if at < len(neither) else 0
        plain = no_conversion[at] if at < len(no_conversion) else 0
        loss[0] += chance * below[row]
        loss[1] += chance * (below[at] - below[row])
        win[1] += chance * (below[row + stride] - below[at + 1])
        win[0] += chance * (total - below[row + stride])
        win[2] += chance * (same - plain)  # b has no conversion nor drop goal: any of a's wins
        win[3] += chance * (plain - clean)
        level += chance * clean
    whole = total * their_total
    assert sum(win) + level + sum(loss) == whole, "the chances must add up to 1"
    return ExactKnockout(win_by=(Fraction(win[0], whole), Fraction(win[1], whole), Fraction(win[2], whole),
                                 Fraction(win[3], whole)),
                         level=Fraction(level, whole),
                         loss_by=(Fraction(loss[0], whole), Fraction(loss[1], whole), Fraction(0), Fraction(0)))
