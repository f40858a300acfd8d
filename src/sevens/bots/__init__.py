"""Bots: strategies behind one small protocol; house teams and autopilots use them (R12, R13)."""

from sevens.bots.replay import BotOrderCheck, bot_order_check, named_bot
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
    "BotOrderCheck",
    "DEFAULT_BOT",
    "ENTRY_POINT_GROUP",
    "STRATEGIES",
    "EvenSpread",
    "GroupBlitz",
    "KnockoutSaver",
    "RandomOrders",
    "Strategy",
    "bot_order_check",
    "get_strategy",
    "load_registered",
    "named_bot",
    "split",
]
