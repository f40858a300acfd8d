"""Bots: strategies behind one small protocol; house teams and autopilots use them (R12, R13)."""

from sevens.bots.strategies import (
    DEFAULT_BOT,
    STRATEGIES,
    EvenSpread,
    GroupBlitz,
    KnockoutSaver,
    RandomOrders,
    Strategy,
    get_strategy,
    split,
)

__all__ = [
    "DEFAULT_BOT",
    "STRATEGIES",
    "EvenSpread",
    "GroupBlitz",
    "KnockoutSaver",
    "RandomOrders",
    "Strategy",
    "get_strategy",
    "split",
]
