"""Drawing of lots from the game's own dice (R10).

When every other criterion leaves teams level, lots decide. The lots use the same kind of dice
as the matches (in a game, :class:`sevens.rules.FairDice` on a stream of their own such as
``"t3/lots/group-A"``), so anyone holding the revealed seed can throw them again (R14).

The method: every team of the level set throws one die, in sorted id order. Higher throws rank
first. Teams level on their throw throw again among themselves, highest remaining place first,
until every team stands alone. Every throw is recorded with what it decided.

Why it is fair: the dice are independent and identically distributed and the method treats all
teams alike, so swapping two team names maps every sequence of dice onto another sequence of the
same length and the same probability with those two teams swapped in the result. Every order is
therefore exactly as likely as every other.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sevens.rules.dice import DiceExhausted, DiceSource, ScriptedDice

__all__ = ["LotsDraw", "LotsMismatch", "draw_lots", "replay_lots"]

Throws = tuple[tuple[tuple[str, int], ...], ...]


class LotsMismatch(ValueError):
    """A recorded draw of lots does not match the dice it claims to come from (R10)."""


@dataclass(frozen=True, slots=True)
class LotsDraw:
    """One drawing of lots: who drew, every throw in the order thrown, and the order it gave (R10).

    Attributes:
        what: What the draw decided, e.g. ``"group A: places 2-3"``.
        teams: The teams that drew, in sorted id order.
        throws: One entry per round of throwing; each round is ``(team, face)`` pairs in the
            order the teams threw.
        order: The teams from first to last as the lots placed them.

    >>> draw = draw_lots("group A: places 2-3", ["samoa", "fiji"], ScriptedDice([4, 4, 2, 6]))
    >>> draw.throws
    ((('fiji', 4), ('samoa', 4)), (('fiji', 2), ('samoa', 6)))
    >>> draw.order
    ('samoa', 'fiji')
    """

    what: str
    teams: tuple[str, ...]
    throws: Throws
    order: tuple[str, ...]

    @property
    def dice(self) -> tuple[int, ...]:
        """Every face thrown, in the order thrown."""
        return tuple(face for round_ in self.throws for _, face in round_)

    def to_dict(self) -> dict[str, Any]:
        """The draw as plain JSON-ready data.

        >>> draw_lots("x", ["b", "a"], ScriptedDice([2, 5])).to_dict()
        {'what': 'x', 'teams': ['a', 'b'], 'throws': [[['a', 2], ['b', 5]]], 'order': ['b', 'a']}
        """
        return {
            "what": self.what,
            "teams": list(self.teams),
            "throws": [[[team, face] for team, face in round_] for round_ in self.throws],
            "order": list(self.order),
        }

    @classmethod
    def from_dict(cls, data: object) -> LotsDraw:
        """Read a draw and check that its order follows from its throws (R10).

        Raises:
            ValueError: the data is malformed or the throws do not give the recorded order.

        >>> d = draw_lots("x", ["a", "b"], ScriptedDice([3, 1])).to_dict()
        >>> LotsDraw.from_dict(d).order
        ('a', 'b')
        >>> LotsDraw.from_dict({**d, "order": ["b", "a"]})
        Traceback (most recent call last):
        ...
        sevens.tournament.lots.LotsMismatch: R10: the lots record 'x' is inconsistent: ...
        """
        if not isinstance(data, dict):
            raise ValueError(f"R10: a lots record must be an object, got {type(data).__name__}")
        expected = {"what", "teams", "throws", "order"}
        if set(data) != expected:
            raise ValueError(
                f"R10: a lots record has exactly the fields {', '.join(sorted(expected))}; "
                f"got {', '.join(sorted(map(str, data)))}"
            )
        what = data["what"]
        if not isinstance(what, str):
            raise ValueError("R10: a lots record's 'what' must be a string")
        teams = _str_tuple(data["teams"], "teams")
        order = _str_tuple(data["order"], "order")
        rounds = data["throws"]
        if not isinstance(rounds, list):
            raise ValueError("R10: a lots record's 'throws' must be a list of rounds")
        throws: list[tuple[tuple[str, int], ...]] = []
        for round_ in rounds:
            if not isinstance(round_, list):
                raise ValueError("R10: each round of throws must be a list of [team, face] pairs")
            pairs: list[tuple[str, int]] = []
            for pair in round_:
                if (
                    not isinstance(pair, list | tuple)
                    or len(pair) != 2
                    or not isinstance(pair[0], str)
                    or type(pair[1]) is not int
                ):
                    raise ValueError(f"R10: a throw must be [team, face], got {pair!r}")
                pairs.append((pair[0], pair[1]))
            throws.append(tuple(pairs))
        record = cls(what=what, teams=teams, throws=tuple(throws), order=order)
        faces = record.dice
        if not all(1 <= face <= 6 for face in faces):
            raise ValueError(f"R10: the lots record {what!r} has a die face outside 1-6")
        # Its own faces, thrown again, must give exactly its throws (no more, no fewer) and order.
        _check_same(record, ScriptedDice(faces))
        return record


def _str_tuple(value: object, name: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"R10: a lots record's {name!r} must be a list of team ids")
    return tuple(value)


def _rank(
    level: tuple[str, ...], dice: DiceSource, rounds: list[tuple[tuple[str, int], ...]]
) -> Iterator[str]:
    """Yield ``level`` (sorted ids) in lots order, appending every round thrown to ``rounds``."""
    thrown = tuple((team, dice.d6()) for team in level)
    rounds.append(thrown)
    for face in range(6, 0, -1):
        same = tuple(team for team, f in thrown if f == face)
        if len(same) == 1:
            yield same[0]
        elif same:
            # Those level on this face settle it among themselves before lower places are thrown.
            yield from _rank(same, dice, rounds)


def draw_lots(what: str, teams: Iterable[str], dice: DiceSource) -> LotsDraw:
    """Order ``teams`` by lots thrown with ``dice`` (R10).

    Args:
        what: What the draw decides, recorded with it (e.g. ``"group A: places 2-3"``).
        teams: Two or more distinct team ids; they throw in sorted id order.
        dice: The game's dice for lots (``FairDice`` on a lots stream), or any other source.

    Returns:
        The record of the draw: every throw and the resulting order.

    Raises:
        ValueError: fewer than two teams, or a team named twice.

    >>> draw_lots("final", ["tonga", "fiji", "samoa"], ScriptedDice([5, 2, 5, 1, 3])).order
    ('tonga', 'fiji', 'samoa')
    """
    level = tuple(sorted(teams))
    if len(level) < 2:
        raise ValueError(f"R10: lots are drawn among two or more teams, got {list(level)}")
    if len(set(level)) != len(level):
        raise ValueError(f"R10: a team may draw lots only once; got {list(level)}")
    rounds: list[tuple[tuple[str, int], ...]] = []
    order = tuple(_rank(level, dice, rounds))
    return LotsDraw(what=what, teams=level, throws=tuple(rounds), order=order)


def _check_same(record: LotsDraw, dice: DiceSource) -> None:
    def mismatch(why: str) -> LotsMismatch:
        return LotsMismatch(f"R10: the lots record {record.what!r} is inconsistent: {why}")

    try:
        again = draw_lots(record.what, record.teams, dice)
    except DiceExhausted:
        raise mismatch("its throws stop before every team is separated") from None
    if again.teams != record.teams:
        raise mismatch(f"teams {list(record.teams)} are not in sorted id order or repeat a team")
    if again.throws != record.throws:
        raise mismatch(
            f"the dice give throws {again.to_dict()['throws']}, the record says {record.to_dict()['throws']}"
        )
    if again.order != record.order:
        raise mismatch(f"the throws give the order {list(again.order)}, the record says {list(record.order)}")


def replay_lots(draw: LotsDraw, dice: DiceSource) -> None:
    """Throw a recorded draw again from its dice source and check every throw and the order (R10).

    Several draws taken from one source (one group's lots stream) are replayed in the order they
    were drawn, on the same source.

    Raises:
        LotsMismatch: the dice do not give the recorded throws or order.

    >>> draw = draw_lots("x", ["a", "b"], ScriptedDice([6, 6, 1, 2]))
    >>> replay_lots(draw, ScriptedDice([6, 6, 1, 2]))
    >>> replay_lots(draw, ScriptedDice([6, 6, 2, 1]))
    Traceback (most recent call last):
    ...
    sevens.tournament.lots.LotsMismatch: R10: the lots record 'x' is inconsistent: the dice give throws ...
    """
    _check_same(draw, dice)
