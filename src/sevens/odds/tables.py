"""Chance as data: the outcome tables of one FORCE die and one FLAIR throw, read off the rules engine.

Nothing here scores a die: every line comes from :func:`sevens.rules.force_die_line` and
:func:`sevens.rules.flair_throw_line`, so the exact odds and the rules engine cannot disagree.

A FLAIR option (R2) is a run of doubles ended by the first throw that is not a double. Doubles
that score nothing (1-1, 2-2, 4-4, 6-6) change nothing but the number of throws, so for the line
an option is: ``J`` *scoring* doubles (5-5, 3-3), where ``P(J = j) = r**j * (1 - r)`` with
``r = P(scoring double) / (P(scoring double) + P(not a double)) = (2/36) / (32/36) = 1/16``,
then one throw that is not a double, each of its 30 ordered outcomes equally likely.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from sevens.rules import (
    CONVERSION_POINTS,
    DROP_GOAL_POINTS,
    PENALTY_POINTS,
    TRY_POINTS,
    Line,
    flair_throw_line,
    force_die_line,
)

__all__ = [
    "FACES",
    "POINT_WEIGHTS",
    "ExpectedLine",
    "FlairTables",
    "Outcomes",
    "flair_tables",
    "force_die",
]

FACES = range(1, 7)
# Points per (tries, conversions, penalties, drop goals), from the rules' own constants (R1).
POINT_WEIGHTS = (TRY_POINTS, CONVERSION_POINTS, PENALTY_POINTS, DROP_GOAL_POINTS)


def _counts(line: Line) -> tuple[int, int, int, int]:
    return (line.tries, line.conversions, line.penalties, line.drop_goals)


@dataclass(frozen=True, slots=True)
class ExpectedLine:
    """Expected tries, conversions, penalties and drop goals, as exact fractions (R1).

    >>> e = ExpectedLine(Fraction(1, 6), Fraction(0), Fraction(1, 6), Fraction(0))
    >>> e.points
    Fraction(4, 3)
    >>> (e * 3).points
    Fraction(4, 1)
    """

    tries: Fraction
    conversions: Fraction
    penalties: Fraction
    drop_goals: Fraction

    @property
    def points(self) -> Fraction:
        """Expected points: 5 tries + 2 conversions + 3 penalties + 3 drop goals (R1)."""
        return sum(
            (w * v for w, v in zip(POINT_WEIGHTS, self.as_tuple(), strict=True)),
            start=Fraction(0),
        )

    def as_tuple(self) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        return (self.tries, self.conversions, self.penalties, self.drop_goals)

    def as_floats(self) -> dict[str, float]:
        """The expected line as floats, keyed as in the game record.

        >>> ExpectedLine(Fraction(1, 2), Fraction(0), Fraction(0), Fraction(1, 4)).as_floats()
        {'tries': 0.5, 'conversions': 0.0, 'penalties': 0.0, 'drop_goals': 0.25}
        """
        return {
            "tries": float(self.tries),
            "conversions": float(self.conversions),
            "penalties": float(self.penalties),
            "drop_goals": float(self.drop_goals),
        }

    def as_fractions(self) -> dict[str, Fraction]:
        """The expected line as fractions, keyed as :meth:`as_floats`."""
        return dict(zip(("tries", "conversions", "penalties", "drop_goals"), self.as_tuple(), strict=True))

    def __add__(self, other: ExpectedLine) -> ExpectedLine:
        return ExpectedLine(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True)))

    def __mul__(self, factor: int | Fraction) -> ExpectedLine:
        return ExpectedLine(*(v * factor for v in self.as_tuple()))


ZERO_LINE = ExpectedLine(Fraction(0), Fraction(0), Fraction(0), Fraction(0))


@dataclass(frozen=True, slots=True)
class Outcomes:
    """A finite distribution over lines: ``(line, probability)`` pairs, lines distinct, sum 1."""

    pairs: tuple[tuple[Line, Fraction], ...]

    @classmethod
    def collect(cls, weighted: Iterable[tuple[Line, Fraction]]) -> Outcomes:
        """Merge equal lines and normalise the weights to sum to 1."""
        merged: dict[Line, Fraction] = {}
        for line, weight in weighted:
            merged[line] = merged.get(line, Fraction(0)) + weight
        total = sum(merged.values(), start=Fraction(0))
        ordered = sorted(merged.items(), key=lambda item: _counts(item[0]))
        return cls(tuple((line, weight / total) for line, weight in ordered))

    def mean(self) -> ExpectedLine:
        """The expected line."""
        parts = [Fraction(0)] * 4
        for line, p in self.pairs:
            for i, count in enumerate(_counts(line)):
                parts[i] += p * count
        return ExpectedLine(*parts)

    def points_mean(self) -> Fraction:
        return sum((p * line.points for line, p in self.pairs), start=Fraction(0))

    def points_variance(self) -> Fraction:
        mean = self.points_mean()
        return sum((p * (line.points - mean) ** 2 for line, p in self.pairs), start=Fraction(0))

    def probability(self, line: Line) -> Fraction:
        return sum((p for each, p in self.pairs if each == line), start=Fraction(0))

    def counts(self) -> list[tuple[tuple[int, int, int, int], float]]:
        """``((tries, conversions, penalties, drop goals), probability)`` pairs, for the arrays."""
        return [(_counts(line), float(p)) for line, p in self.pairs]

    def point_pmf(self) -> list[tuple[int, float]]:
        """``(points, probability)`` pairs (lines with equal points merged)."""
        merged: dict[int, Fraction] = {}
        for line, p in self.pairs:
            merged[line.points] = merged.get(line.points, Fraction(0)) + p
        return [(points, float(p)) for points, p in sorted(merged.items())]


@cache
def force_die() -> Outcomes:
    """One FORCE die: 1/6 a try, 1/6 a penalty, 4/6 nothing (seed 4, R1).

    >>> [(line.points, p) for line, p in force_die().pairs]
    [(0, Fraction(2, 3)), (3, Fraction(1, 6)), (5, Fraction(1, 6))]
    """
    return Outcomes.collect((force_die_line(face), Fraction(1, 6)) for face in FACES)


@dataclass(frozen=True, slots=True)
class FlairTables:
    """One FLAIR option, split as the module docstring says (R2).

    Attributes:
        p_double: probability that a throw is a double (1/6).
        ratio: ``r``, the chance that the next throw that matters is a scoring double (1/16).
        scoring_double: the line of a scoring double, given that it is one.
        final: the line of the throw that ends the option, given that it is not a double.
    """

    p_double: Fraction
    ratio: Fraction
    scoring_double: Outcomes
    final: Outcomes

    @property
    def expected_throws(self) -> Fraction:
        """Throws per option: 1 + 1/6 + 1/36 + ... = 1 / (1 - 1/6) = 6/5 (R2)."""
        return 1 / (1 - self.p_double)

    @property
    def expected_scoring_doubles(self) -> Fraction:
        """E[J] = r / (1 - r) = 1/15."""
        return self.ratio / (1 - self.ratio)

    def mean(self) -> ExpectedLine:
        """The expected line of one option: the ending throw plus E[J] scoring doubles."""
        return self.final.mean() + self.scoring_double.mean() * self.expected_scoring_doubles

    def points_variance(self) -> Fraction:
        """Variance of one option's points: Var(X) + E[J] Var(Y) + Var(J) E[Y]^2 (compound sum)."""
        r = self.ratio
        var_j = r / (1 - r) ** 2
        y_mean = self.scoring_double.points_mean()
        return (
            self.final.points_variance()
            + self.expected_scoring_doubles * self.scoring_double.points_variance()
            + var_j * y_mean**2
        )

    def p_zero(self) -> Fraction:
        """Chance that an option scores nothing: no scoring double, and an empty ending throw."""
        return (1 - self.ratio) * self.final.probability(Line())


@cache
def flair_tables() -> FlairTables:
    """The FLAIR option's tables, built from the 36 throws of two dice (R1, R2).

    >>> t = flair_tables()
    >>> t.p_double, t.ratio, t.expected_throws
    (Fraction(1, 6), Fraction(1, 16), Fraction(6, 5))
    >>> t.mean().points
    Fraction(61, 15)
    """
    throws = [(a, b, flair_throw_line(a, b)) for a in FACES for b in FACES]
    one = Fraction(1, len(throws))
    doubles = [(line, one) for a, b, line in throws if a == b]
    finals = [(line, one) for a, b, line in throws if a != b]
    scoring = [(line, p) for line, p in doubles if line != Line()]
    p_double = sum((p for _, p in doubles), start=Fraction(0))
    p_scoring = sum((p for _, p in scoring), start=Fraction(0))
    p_final = sum((p for _, p in finals), start=Fraction(0))
    return FlairTables(
        p_double=p_double,
        ratio=p_scoring / (p_scoring + p_final),
        scoring_double=Outcomes.collect(scoring),
        final=Outcomes.collect(finals),
    )
