"""The rules of Sevens as pure values and functions: standard library only, no I/O.

The random source is always passed in (:class:`DiceSource`); :class:`FairDice` is the game's
verifiable source (R14) and :class:`SeededDice` a seeded one for simulation.
"""

from sevens.rules.dice import DiceExhausted, DiceSource, ScriptedDice, SeededDice
from sevens.rules.fairdice import (
    SEED_BYTES,
    FairDice,
    fair_dice_bytes,
    fair_die,
    orders_digest,
    parse_seed,
    seed_commitment,
)
from sevens.rules.lines import (
    CONVERSION_POINTS,
    DROP_GOAL_POINTS,
    PENALTY_POINTS,
    TRY_POINTS,
    Line,
)
from sevens.rules.match import DecidedBy, Outcome, Side, countback, group_outcome
from sevens.rules.orders import (
    FLAIR_OPTION_COST,
    MAX_ORDER_POINTS,
    Order,
    OrderError,
    validate_order,
)
from sevens.rules.play import (
    Dice,
    Play,
    Throw,
    check_dice_shape,
    flair_throw_line,
    force_die_line,
    line_from_dice,
    play_order,
    throw_flair_option,
)
from sevens.rules.scrum import STARTING_SCRUM, WIN_BONUS, scrum_after

__all__ = [
    "CONVERSION_POINTS",
    "DROP_GOAL_POINTS",
    "FLAIR_OPTION_COST",
    "MAX_ORDER_POINTS",
    "PENALTY_POINTS",
    "SEED_BYTES",
    "STARTING_SCRUM",
    "TRY_POINTS",
    "WIN_BONUS",
    "DecidedBy",
    "Dice",
    "DiceExhausted",
    "DiceSource",
    "FairDice",
    "Line",
    "Order",
    "OrderError",
    "Outcome",
    "Play",
    "ScriptedDice",
    "SeededDice",
    "Side",
    "Throw",
    "check_dice_shape",
    "countback",
    "fair_die",
    "fair_dice_bytes",
    "flair_throw_line",
    "force_die_line",
    "group_outcome",
    "line_from_dice",
    "orders_digest",
    "parse_seed",
    "play_order",
    "scrum_after",
    "seed_commitment",
    "throw_flair_option",
    "validate_order",
]
