"""Bots: strategies behind one small protocol; house teams and autopilots use them (R12, R13)."""

from sevens.bots.replay import BotOrderCheck, BotVerification, check_with_bots, named_bot, verify_with_bots
from sevens.bots.strategies import (
    DEFAULT_BOT,
    ENTRY_POINT_GROUP,
    MIX_JITTER,
    MIX_SHARES,
    STRATEGIES,
    SUMMARIES,
    EvenSpread,
    GroupBlitz,
    KnockoutSaver,
    RandomOrders,
    Strategy,
    describe,
    get_strategy,
    load_registered,
    split,
)

__all__ = [
    "BotOrderCheck",
    "DEFAULT_BOT",
    "ENTRY_POINT_GROUP",
    "STRATEGIES",
    "SUMMARIES",
    "EvenSpread",
    "GroupBlitz",
    "KnockoutSaver",
    "MIX_JITTER",
    "MIX_SHARES",
    "RandomOrders",
    "Strategy",
    "describe",
    "get_strategy",
    "load_registered",
    "named_bot",
    "split",
    "verify_with_bots",
    "check_with_bots",
    "BotVerification",
]
