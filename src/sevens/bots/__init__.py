"""Bots: strategies behind one small protocol; house teams and autopilots use them (R12, R13)."""

from sevens.bots.strategies import (
    DEFAULT_BOT,
    ENTRY_POINT_GROUP,
    STRATEGIES,
    EvenSpread,
    GroupBlitz,
    KnockoutSaver,
    RandomOrders,
    Strategy,
    get_strategy,
    load_registered,
    split,
)

__all__ = [
    "DEFAULT_BOT",
    "ENTRY_POINT_GROUP",
    "STRATEGIES",
    "EvenSpread",
    "GroupBlitz",
    "KnockoutSaver",
    "RandomOrders",
    "Strategy",
    "get_strategy",
    "load_registered",
    "split",
]
