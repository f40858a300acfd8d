"""Dice sources. The rules never pick their own randomness: a source is passed in."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Protocol, runtime_checkable

__all__ = ["DiceSource", "SeededDice", "ScriptedDice", "DiceExhausted"]


@runtime_checkable
class DiceSource(Protocol):
    """Anything that throws one fair six-sided die at a time."""

    def d6(self) -> int:
        """Return a face from 1 to 6."""
        ...


class SeededDice:
    """Dice from a seeded :class:`random.Random`, for simulation and tests.

    >>> [SeededDice(7).d6() for _ in range(3)] == [SeededDice(7).d6() for _ in range(3)]
    True
    >>> all(1 <= SeededDice(s).d6() <= 6 for s in range(100))
    True
    """

    __slots__ = ("_rng",)

    def __init__(self, seed: int | random.Random) -> None:
        self._rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def d6(self) -> int:
        return self._rng.randint(1, 6)


class DiceExhausted(RuntimeError):
    """A scripted source ran out of faces."""


class ScriptedDice:
    """Dice that replay given faces, in order: for recomputation and hand-built cases.

    >>> dice = ScriptedDice([3, 4, 6])
    >>> dice.d6(), dice.d6(), dice.remaining
    (3, 4, 1)
    """

    __slots__ = ("_faces", "_used", "_total")

    def __init__(self, faces: Iterable[int]) -> None:
        listed = list(faces)
        for face in listed:
            if type(face) is not int or not 1 <= face <= 6:
                raise ValueError(f"a die face must be a whole number from 1 to 6, got {face!r}")
        self._total = len(listed)
        self._faces: Iterator[int] = iter(listed)
        self._used = 0

    def d6(self) -> int:
        try:
            face = next(self._faces)
        except StopIteration:
            raise DiceExhausted(f"the script's {self._total} dice are all used") from None
        self._used += 1
        return face

    @property
    def remaining(self) -> int:
        return self._total - self._used
