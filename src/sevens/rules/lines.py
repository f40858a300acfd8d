"""Lines: what a team scored in one match (R1)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Line", "TRY_POINTS", "CONVERSION_POINTS", "PENALTY_POINTS", "DROP_GOAL_POINTS"]

TRY_POINTS = 5
CONVERSION_POINTS = 2
PENALTY_POINTS = 3
DROP_GOAL_POINTS = 3


@dataclass(frozen=True, slots=True)
class Line:
    """A team's result in one match: tries, conversions, penalties, drop goals (R1).

    >>> Line(tries=2, conversions=1, penalties=1, drop_goals=0).points
    15
    >>> (Line(tries=1) + Line(penalties=2)).points
    11
    """

    tries: int = 0
    conversions: int = 0
    penalties: int = 0
    drop_goals: int = 0

    def __post_init__(self) -> None:
        for name in ("tries", "conversions", "penalties", "drop_goals"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"R1: a line's {name} must be a whole number >= 0, got {value!r}")
        if self.conversions > self.tries:
            raise ValueError(
                f"R1: a line cannot have more conversions ({self.conversions}) "
                f"than tries ({self.tries}); every conversion follows a try"
            )

    @property
    def points(self) -> int:
        """Points = 5 tries + 2 conversions + 3 penalties + 3 drop goals (R1)."""
        return (
            TRY_POINTS * self.tries
            + CONVERSION_POINTS * self.conversions
            + PENALTY_POINTS * self.penalties
            + DROP_GOAL_POINTS * self.drop_goals
        )

    def __add__(self, other: Line) -> Line:
        return Line(
            tries=self.tries + other.tries,
            conversions=self.conversions + other.conversions,
            penalties=self.penalties + other.penalties,
            drop_goals=self.drop_goals + other.drop_goals,
        )

    def to_dict(self) -> dict[str, int]:
        """The line as in the game record, points included.

        >>> Line(tries=1, conversions=1).to_dict()
        {'tries': 1, 'conversions': 1, 'penalties': 0, 'drop_goals': 0, 'points': 7}
        """
        return {
            "tries": self.tries,
            "conversions": self.conversions,
            "penalties": self.penalties,
            "drop_goals": self.drop_goals,
            "points": self.points,
        }

    @classmethod
    def from_dict(cls, data: object) -> Line:
        """Read a line; ``points`` is optional and, if given, must agree (R1).

        >>> Line.from_dict({"tries": 1, "conversions": 0, "penalties": 1, "drop_goals": 0})
        Line(tries=1, conversions=0, penalties=1, drop_goals=0)
        >>> Line.from_dict({"tries": 1, "conversions": 0, "penalties": 0, "drop_goals": 0, "points": 6})
        Traceback (most recent call last):
        ...
        ValueError: R1: the line says 6 points but 1 tries, 0 conversions, 0 penalties, 0 drop goals make 5
        """
        if not isinstance(data, dict):
            raise ValueError(f"a line must be an object with tries, conversions, penalties, drop_goals; got {data!r}")
        keys = ("tries", "conversions", "penalties", "drop_goals")
        missing = [k for k in keys if k not in data]
        if missing:
            raise ValueError(f"a line is missing {', '.join(missing)}")
        unknown = sorted(set(data) - set(keys) - {"points"})
        if unknown:
            raise ValueError(f"a line has unknown field(s) {', '.join(unknown)}")
        line = cls(**{k: data[k] for k in keys})
        if "points" in data and data["points"] != line.points:
            raise ValueError(
                f"R1: the line says {data['points']!r} points but {line.tries} tries, "
                f"{line.conversions} conversions, {line.penalties} penalties, "
                f"{line.drop_goals} drop goals make {line.points}"
            )
        return line
