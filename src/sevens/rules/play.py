"""FORCE and FLAIR resolution, every die kept (R1, R2)."""

from __future__ import annotations

from dataclasses import dataclass

from sevens.rules.dice import DiceSource
from sevens.rules.lines import Line
from sevens.rules.orders import Order

__all__ = [
    "Throw",
    "Dice",
    "Play",
    "check_dice_shape",
    "force_die_line",
    "flair_throw_line",
    "line_from_dice",
    "play_order",
    "throw_flair_option",
]

Throw = tuple[int, int]


def force_die_line(face: int) -> Line:
    """One FORCE die: 5 is an unconverted try, 3 a penalty, anything else nothing (R1).

    >>> force_die_line(5), force_die_line(3).points, force_die_line(6).points
    (Line(tries=1, conversions=0, penalties=0, drop_goals=0), 3, 0)
    """
    if face == 5:
        return Line(tries=1)
    if face == 3:
        return Line(penalties=1)
    return Line()


def flair_throw_line(a: int, b: int) -> Line:
    """One FLAIR throw of two dice (R1, R2).

    A total of 7 is a converted try; otherwise each 5 is a try and each 3 a drop goal.

    >>> flair_throw_line(3, 4).points, flair_throw_line(5, 2).points
    (7, 7)
    >>> flair_throw_line(5, 3)
    Line(tries=1, conversions=0, penalties=0, drop_goals=1)
    >>> flair_throw_line(5, 5).points, flair_throw_line(3, 3).points, flair_throw_line(1, 1).points
    (10, 6, 0)
    """
    if a + b == 7:
        return Line(tries=1, conversions=1)
    tries = (a == 5) + (b == 5)
    drops = (a == 3) + (b == 3)
    return Line(tries=tries, drop_goals=drops)


def throw_flair_option(dice: DiceSource) -> tuple[Throw, ...]:
    """Throw one FLAIR option: two dice, and again after every double, with no limit (R2).

    >>> from sevens.rules.dice import ScriptedDice
    >>> throw_flair_option(ScriptedDice([5, 5, 2, 2, 6, 1]))
    ((5, 5), (2, 2), (6, 1))
    """
    throws: list[Throw] = []
    while True:
        a, b = dice.d6(), dice.d6()
        throws.append((a, b))
        if a != b:
            return tuple(throws)


@dataclass(frozen=True, slots=True)
class Dice:
    """Every die a team threw in a match: FORCE faces, and per FLAIR option its throws in order."""

    force: tuple[int, ...] = ()
    flair: tuple[tuple[Throw, ...], ...] = ()

    def to_dict(self) -> dict[str, list[int] | list[list[list[int]]]]:
        return {
            "force": list(self.force),
            "flair": [[[a, b] for a, b in option] for option in self.flair],
        }

    @classmethod
    def from_dict(cls, data: object) -> Dice:
        """Read dice as in the game record: ``{"force": [faces], "flair": [[[a, b], ...], ...]}``."""
        if not isinstance(data, dict) or set(data) != {"force", "flair"}:
            raise ValueError(f"dice must be an object with exactly 'force' and 'flair'; got {data!r}")
        force = data["force"]
        flair = data["flair"]
        if not isinstance(force, list) or not isinstance(flair, list):
            raise ValueError("dice 'force' and 'flair' must be lists")
        options: list[tuple[Throw, ...]] = []
        for option in flair:
            if not isinstance(option, list):
                raise ValueError(f"a FLAIR option must be a list of [a, b] throws, got {option!r}")
            throws: list[Throw] = []
            for pair in option:
                if not isinstance(pair, list) or len(pair) != 2:
                    raise ValueError(f"a FLAIR throw must be a pair [a, b], got {pair!r}")
                throws.append((_face(pair[0]), _face(pair[1])))
            options.append(tuple(throws))
        return cls(force=tuple(_face(f) for f in force), flair=tuple(options))


def _face(value: object) -> int:
    if type(value) is not int or not 1 <= value <= 6:
        raise ValueError(f"a die face must be a whole number from 1 to 6, got {value!r}")
    return value


def line_from_dice(dice: Dice) -> Line:
    """Score a team's dice: the sum of every FORCE die and every FLAIR throw (R1, R2).

    >>> line_from_dice(Dice(force=(5, 3, 1), flair=(((3, 3), (2, 5)),))).points
    21
    """
    line = Line()
    for face in dice.force:
        line = line + force_die_line(face)
    for option in dice.flair:
        for a, b in option:
            line = line + flair_throw_line(a, b)
    return line


def check_dice_shape(order: Order, dice: Dice) -> None:
    """Check that dice fit an order: one FORCE die per point, one option per 3 FLAIR points,
    each option a run of doubles ended by a throw that is not a double (R2)."""
    if len(dice.force) != order.force:
        raise ValueError(f"{order.force} FORCE points throw {order.force} dice, not {len(dice.force)}")
    if len(dice.flair) != order.options:
        raise ValueError(f"{order.flair} FLAIR points throw {order.options} options, not {len(dice.flair)}")
    for index, option in enumerate(dice.flair, start=1):
        if not option:
            raise ValueError(f"FLAIR option {index} has no throw")
        *doubles, last = option
        if any(a != b for a, b in doubles) or last[0] == last[1]:
            raise ValueError(
                f"FLAIR option {index} must throw again after every double and stop after the first "
                f"throw that is not one (R2); got {[list(t) for t in option]}"
            )


@dataclass(frozen=True, slots=True)
class Play:
    """What one team did in one match: its order, every die it threw and the line they make."""

    order: Order
    dice: Dice
    line: Line


def play_order(order: Order, dice: DiceSource) -> Play:
    """Resolve an order: FORCE dice first, then each FLAIR option in turn (R1, R2).

    >>> from sevens.rules.dice import ScriptedDice
    >>> play = play_order(Order(force=2, flair=3), ScriptedDice([5, 3, 6, 6, 4, 3]))
    >>> play.dice.flair, play.line.points
    ((((6, 6), (4, 3)),), 15)
    """
    force = tuple(dice.d6() for _ in range(order.force))
    flair = tuple(throw_flair_option(dice) for _ in range(order.options))
    recorded = Dice(force=force, flair=flair)
    return Play(order=order, dice=recorded, line=line_from_dice(recorded))

