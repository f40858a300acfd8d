"""Knockout fractions as sevens worked them out before odds3, kept to check the faster way against:
every product by Python's own multiplication, the FORCE side's lines by powers of one die, and
each of the three kinds of the other side's lines (every one, no conversion, neither conversion
nor drop goal) from its own dice. A copy of src/sevens/odds/exact_knockout.py and exact.py's
_multiply and _power at 8b02fba, the module docstring, limits and refusals left out; the two tables
odds3 did not change (_packed, _doubles) are imported rather than copied.
"""

from __future__ import annotations

from fractions import Fraction

from sevens.odds.exact_knockout import ExactKnockout, _doubles, _packed
from sevens.odds.tables import flair_tables, force_die
from sevens.rules import Line, Order


def _pack(coefficients: list[int], size: int) -> int:
    # exact.py's at 8b02fba, copied when polynomial.py's multiply took the place of it.
    return int.from_bytes(b"".join(c.to_bytes(size, "little") for c in coefficients), "little")


def _multiply(a: list[int], b: list[int], bound: int, keep: int) -> list[int]:
    a, b = a[: keep + 1], b[: keep + 1]
    size = bound.bit_length() // 8 + 1
    terms = min(keep + 1, len(a) + len(b) - 1)
    data = (_pack(a, size) * _pack(b, size)).to_bytes((len(a) + len(b)) * size, "little")
    return [int.from_bytes(data[i * size : (i + 1) * size], "little") for i in range(terms)]


def _power(base: list[int], denominator: int, n: int, keep: int) -> tuple[list[int], int]:
    result, total = [1], 1
    square, square_total = base, denominator
    while n:
        if n & 1:
            result = _multiply(result, square, total * square_total, keep)
            total *= square_total
        n >>= 1
        if n:
            square = _multiply(square, square, square_total**2, keep)
            square_total **= 2
    return result, total


def _lines(order: Order, stride: int, keep: int, allowed: tuple[bool, bool]) -> tuple[list[int], int]:
    """The chance of each ``points * stride + tries`` up to ``keep`` of the order's lines, counting
    only lines with no conversion (``allowed[0]`` False) or no drop goal (``allowed[1]`` False)."""

    def kept(pairs: list[tuple[Line, Fraction]]) -> list[tuple[Line, Fraction]]:
        return [(line, p) for line, p in pairs
                if (allowed[0] or not line.conversions) and (allowed[1] or not line.drop_goals)]

    die, die_total = _packed(list(force_die().pairs), stride, keep)
    dice, dice_total = _power(die, die_total, order.force, keep)
    if not order.options:
        return dice, dice_total
    tables = flair_tables()
    final, final_total = _packed(kept(list(tables.final.pairs)), stride, keep)
    finals, finals_total = _power(final, final_total, order.options, keep)
    doubles, doubles_total = _doubles(kept(list(tables.scoring_double.pairs)), order.options, stride,
                                      keep // stride)
    both = _multiply(dice, finals, dice_total * finals_total, keep)
    denominator = dice_total * finals_total * doubles_total
    return _multiply(both, doubles, denominator, keep), denominator


def knockout_before(a: Order, b: Order) -> ExactKnockout:
    """Win, level and loss of ``a`` against ``b``, one of them without FLAIR."""
    assert not (a.options and b.options)
    if b.options:
        return _exact_knockout(b, a).turned()
    return _exact_knockout(a, b)


def _exact_knockout(a: Order, b: Order) -> ExactKnockout:
    """``b`` has no FLAIR: every line of it is some tries and penalties."""
    assert not b.options
    stride = b.force + 1  # more than any count of tries within b's most points
    most = 5 * b.force
    keep = most * stride + stride - 1
    every, total = _lines(a, stride, keep, (True, True))
    # Leaving kinds of outcome out can only leave a denominator that divides the whole one.
    no_conversion, neither = (
        [c * (total // part) for c in coefficients]
        for coefficients, part in (_lines(a, stride, keep, (False, True)), _lines(a, stride, keep, (False, False)))
    )
    every += [0] * (keep + 1 - len(every))
    below = [0]
    for c in every:
        below.append(below[-1] + c)
    win = [0, 0, 0, 0]
    loss = [0, 0, 0, 0]
    level = 0
    theirs, their_total = _lines(b, stride, keep, (True, True))
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
