"""Whole games for the sceptic's check (test_tournament_sceptic.py), played by the real engine from fixed seeds."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Sequence
from typing import Any

from sevens.bots import get_strategy
from sevens.rules import Order
from sevens.tournament import (
    Format,
    Game,
    Player,
    PlayerId,
    TeamId,
    TurnOrder,
    autopilot_orders,
    default_format,
    new_game,
    resolve_turn,
    to_record,
)
from sevens.tournament.setup import draw_game_from_seed

CHEAP_BOTS = ("random", "even", "group-blitz", "knockout-saver", "even-flair", "even-force")
ODDS_BOTS = ("equilibrium", "random", "field-reader", "knockout-saver", "odds-aware", "group-blitz")


@dataclasses.dataclass(frozen=True)
class Played:
    label: str
    game: Game
    record: dict[str, Any]
    default_format: bool


def _seed(label: str) -> bytes:
    return hashlib.sha256(f"sceptic2/{label}".encode()).digest()


def bot_game(players: int, label: str, bots: Sequence[str], fmt: Format | None = None, *, missed: bool = True) -> Played:
    """A game as ``sevens play --auto`` plays it: the draw from the seed, bots handed out in turn.
    ``missed``: keep the autopilot's orders marked missed (as for an absent manager, R13); otherwise a
    manager's bot chose them, as ``sevens play`` marks them."""
    seed = _seed(label)
    chosen = fmt or default_format(players)
    people = [Player(PlayerId(f"p{i}"), f"Bot {i}") for i in range(1, players + 1)]
    setup = draw_game_from_seed(people, chosen, seed=seed)
    for i, team in enumerate(setup.teams):
        setup = setup.with_autopilot(team.id, bots[i % len(bots)])
    game = new_game(setup)
    while not game.finished:
        orders = autopilot_orders(game, game.teams_in_play(), get_strategy, seed=seed)
        if not missed:
            orders = {t: dataclasses.replace(o, missed=False) for t, o in orders.items()}
        game = resolve_turn(game, orders, seed)
    return Played(label, game, to_record(game, seed=seed.hex()), fmt is None)


def small_orders_game(players: int, label: str, top: int, options: int) -> Played:
    """Tiny orders (FORCE 0 to ``top``, FLAIR 0 to ``options`` options), so scores are low and ties
    of every kind come up; ``top`` and ``options`` 0 make every match 0-0 and leave every tie to lots."""
    seed = _seed(label)
    people = [Player(PlayerId(f"p{i}"), f"Player {i}") for i in range(1, players + 1)]
    setup = draw_game_from_seed(people, default_format(players), seed=seed)
    game = new_game(setup)

    def choose(team: TeamId) -> Order:
        rng = random.Random(f"{label}/{game.turn_number}/{team}")
        force, flair = rng.randint(0, top), 3 * rng.randint(0, options)
        held = game.scrum(team)
        return Order(min(force, held), flair if force + flair <= held else 0)

    house = {team.id for team in setup.teams if team.manager is None}
    while not game.finished:
        in_play = game.teams_in_play()
        # House teams are played by their bot (R12); the managers send tiny orders.
        orders = autopilot_orders(game, [t for t in in_play if t in house], get_strategy, seed=seed)
        orders.update({t: TurnOrder(t, choose(t)) for t in in_play if t not in house})
        game = resolve_turn(game, orders, seed)
    return Played(label, game, to_record(game, seed=seed.hex()), True)


def scripted_game(label: str, group: Order, knockout: Order) -> Played:
    """16 players, one team each; every team orders ``group`` in the groups and ``knockout`` after."""
    seed = _seed(label)
    people = [Player(PlayerId(f"p{i}"), f"Player {i}") for i in range(1, 17)]
    game = new_game(draw_game_from_seed(people, default_format(16), seed=seed))
    while not game.finished:
        order = group if game.stage == "group" else knockout
        game = resolve_turn(game, {t: TurnOrder(t, order) for t in game.teams_in_play()}, seed)
    return Played(label, game, to_record(game, seed=seed.hex()), True)
