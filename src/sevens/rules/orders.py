"""Orders: how a team splits the SCRUM points it spends on one match (R3)."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

__all__ = [
    "Order",
    "OrderError",
    "FLAIR_OPTION_COST",
    "MAX_ORDER_POINTS",
    "validate_order",
]

FLAIR_OPTION_COST = 3
# The most SCRUM a team can ever hold: 100 to start plus 10 for each of at most six wins (R4, R6).
MAX_ORDER_POINTS = 160


class OrderError(ValueError):
    """An order that breaks a rule. ``rule`` names it (for example ``"R3"``); ``field`` names the
    part of the order that is wrong (``"force"`` or ``"flair"``), or is ``None`` when it is the
    order as a whole (more points than the team holds).

    >>> error = OrderError("R3", "FLAIR points cannot be negative, got -3", field="flair")
    >>> error.rule, error.field
    ('R3', 'flair')
    """

    def __init__(self, rule: str, message: str, *, field: str | None = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.field = field


def _whole(name: str, value: object) -> int:
    # bool is an int subclass; True is not a number of points.
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        # numpy's integers (a bot working on arrays) are whole numbers too; numpy's bool is not Integral.
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            return int(value)
        raise OrderError("R3", f"{name} points must be a whole number, got {value!r}", field=name.lower())
    return value


@dataclass(frozen=True, slots=True)
class Order:
    """A team's order for one match: FORCE points and FLAIR points (R3).

    >>> Order(force=4, flair=6).options
    2
    >>> Order(force=4, flair=6).total
    10
    >>> Order(force=0, flair=4)
    Traceback (most recent call last):
    ...
    sevens.rules.orders.OrderError: R3: FLAIR points must be a multiple of 3 (one option per 3 points); got 4, try 3 or 6
    """

    force: int
    flair: int

    def __post_init__(self) -> None:
        force = _whole("FORCE", self.force)
        flair = _whole("FLAIR", self.flair)
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "flair", flair)
        if force < 0:
            raise OrderError("R3", f"FORCE points cannot be negative, got {force}", field="force")
        if flair < 0:
            raise OrderError("R3", f"FLAIR points cannot be negative, got {flair}", field="flair")
        if flair % FLAIR_OPTION_COST:
            lower = flair - flair % FLAIR_OPTION_COST
            # Suggest only what would pass: the multiple above may break the cap below (and where
            # neither does, the cap is what to tell).
            fits = [k for k in (lower, lower + FLAIR_OPTION_COST) if force + k <= MAX_ORDER_POINTS]
            if fits:
                raise OrderError(
                    "R3",
                    f"FLAIR points must be a multiple of 3 (one option per 3 points); "
                    f"got {flair}, try {' or '.join(str(k) for k in fits)}",
                    field="flair",
                )
        if force + flair > MAX_ORDER_POINTS:
            raise OrderError(
                "R3",
                f"an order of {force + flair} points is more than any team can ever hold "
                f"({MAX_ORDER_POINTS}: 100 to start plus 10 for each of six wins)",
            )

    @property
    def options(self) -> int:
        """Number of FLAIR options (one per 3 FLAIR points)."""
        return self.flair // FLAIR_OPTION_COST

    @property
    def total(self) -> int:
        """SCRUM points the order spends."""
        return self.force + self.flair

    def to_dict(self) -> dict[str, int]:
        return {"force": self.force, "flair": self.flair}


def validate_order(force: object, flair: object, scrum: int) -> Order:
    """Build an order and check it against the team's SCRUM balance (R3).

    Args:
        force: FORCE points asked for.
        flair: FLAIR points asked for.
        scrum: the team's SCRUM points at the time of the match.

    Returns:
        The order, if every part of R3 holds.

    Raises:
        OrderError: naming the rule broken; nothing is spent.

    >>> validate_order(10, 9, scrum=100)
    Order(force=10, flair=9)
    >>> validate_order(60, 45, scrum=100)
    Traceback (most recent call last):
    ...
    sevens.rules.orders.OrderError: R3: the order spends 105 points but the team holds only 100 SCRUM points
    >>> validate_order(200, 0, scrum=100)  # the team's balance, not the cap on any balance, says why
    Traceback (most recent call last):
    ...
    sevens.rules.orders.OrderError: R3: the order spends 200 points but the team holds only 100 SCRUM points
    >>> validate_order(1, 0, scrum=0)
    Traceback (most recent call last):
    ...
    sevens.rules.orders.OrderError: R3: the order spends 1 point but the team holds only 0 SCRUM points
    >>> validate_order(50, 50, scrum=100)  # 51 would be refused too: not suggested
    Traceback (most recent call last):
    ...
    sevens.rules.orders.OrderError: R3: FLAIR points must be a multiple of 3 (one option per 3 points); got 50, try 48
    """
    whole_force, whole_flair = _whole("FORCE", force), _whole("FLAIR", flair)
    total = whole_force + whole_flair
    if min(whole_force, whole_flair) >= 0 and whole_flair % FLAIR_OPTION_COST and scrum < MAX_ORDER_POINTS:
        # The multiples of 3 to suggest are those this team can afford beside its FORCE: "try 48 or
        # 51" to a team of 100 with 50 FORCE was an order refused again. Where neither fits, the
        # balance is what to tell first.
        lower = whole_flair - whole_flair % FLAIR_OPTION_COST
        fits = [k for k in (lower, lower + FLAIR_OPTION_COST) if whole_force + k <= scrum]
        if not fits:
            raise OrderError("R3", f"the order spends {_points(total)} but the team holds only {_points(scrum, 'SCRUM ')}")
        raise OrderError(
            "R3",
            f"FLAIR points must be a multiple of 3 (one option per 3 points); got {whole_flair}, "
            f"try {' or '.join(str(k) for k in fits)}",
            field="flair",
        )
    if min(whole_force, whole_flair) >= 0 and whole_flair % FLAIR_OPTION_COST == 0 and total > scrum:
        raise OrderError("R3", f"the order spends {_points(total)} but the team holds only {_points(scrum, 'SCRUM ')}")
    return Order(force=whole_force, flair=whole_flair)


def _points(n: int, kind: str = "") -> str:
    return f"{n} {kind}point{'' if n == 1 else 's'}"
