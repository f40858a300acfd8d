"""What one SCRUM point buys on each side of an order: the mean and variance of its points, exactly.

A FORCE point is one die; a FLAIR point is a third of an option (R3: one option per 3 points).
Points of independent dice and options add, and so do their variances, so an order's mean and
variance are its FORCE points times the FORCE figures plus its FLAIR points times the FLAIR ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sevens.odds.tables import flair_tables, force_die
from sevens.rules import FLAIR_OPTION_COST, Line

__all__ = ["PerPoint", "per_point"]


@dataclass(frozen=True, slots=True)
class PerPoint:
    """One side of an order: what a unit (a die, an option) costs, scores and varies by."""

    part: str
    cost: int
    mean: Fraction
    variance: Fraction
    p_zero: Fraction

    @property
    def mean_per_point(self) -> Fraction:
        return self.mean / self.cost

    @property
    def variance_per_point(self) -> Fraction:
        return self.variance / self.cost

    def to_dict(self) -> dict[str, object]:
        figures = {"mean": self.mean, "variance": self.variance, "p_zero": self.p_zero,
                   "mean_per_point": self.mean_per_point, "variance_per_point": self.variance_per_point}
        # Every other JSON of sevens odds gives a fraction as NAME_exact and NAME as a float; these
        # gave the fraction under NAME. NAME_exact is there now, and NAME stays the fraction until
        # 0.2 (when it becomes the float, as elsewhere), so that a script reading it keeps working.
        return {"part": self.part, "cost": self.cost,
                **{name: str(value) for name, value in figures.items()},
                **{f"{name}_exact": str(value) for name, value in figures.items()}}


def per_point() -> tuple[PerPoint, PerPoint]:
    """FORCE (one die for 1 point) and FLAIR (one option for 3), from the rules' own tables.

    >>> force, flair = per_point()
    >>> force.mean_per_point, flair.mean_per_point, force.variance_per_point, flair.variance_per_point
    (Fraction(4, 3), Fraction(61, 45), Fraction(35, 9), Fraction(22, 5))
    """
    die, option = force_die(), flair_tables()
    return (
        PerPoint("FORCE", 1, die.points_mean(), die.points_variance(), die.probability(Line())),
        PerPoint("FLAIR", FLAIR_OPTION_COST, option.mean().points, option.points_variance(), option.p_zero()),
    )
