"""SCRUM accounting (R4): 100 to start, orders are spent whatever happens, +10 to a winner."""

from __future__ import annotations

from sevens.rules.orders import Order, validate_order

__all__ = ["STARTING_SCRUM", "WIN_BONUS", "scrum_after"]

STARTING_SCRUM = 100
WIN_BONUS = 10


def scrum_after(before: int, order: Order, *, won: bool) -> int:
    """A team's SCRUM after a match: the order is spent, a winner gains 10 (R4).

    Args:
        before: SCRUM points held at the time of the match.
        order: the order played (checked against ``before``, R3).
        won: whether the team won the match (never in a group draw).

    >>> scrum_after(100, Order(force=20, flair=12), won=True)
    78
    >>> scrum_after(100, Order(force=20, flair=12), won=False)
    68
    """
    validate_order(order.force, order.flair, scrum=before)
    return before - order.total + (WIN_BONUS if won else 0)
