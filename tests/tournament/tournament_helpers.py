"""Shared builders for the tournament tests: players, set-ups and whole games."""

from __future__ import annotations

from collections.abc import Callable

from sevens.bots import get_strategy
from sevens.rules import Order, seed_commitment
from sevens.tournament import (
    Format,
    Game,
    GameSetup,
    Player,
    PlayerId,
    TeamId,
    TurnOrder,
    autopilot_orders,
    default_format,
    draw_game,
    new_game,
    resolve_turn,
)

SEED = "5e" * 32
OTHER_SEED = "a7" * 32


def people(n: int) -> list[Player]:
    return [Player(PlayerId(f"p{i}"), f"Player {i}") for i in range(1, n + 1)]


def make_setup(
    players: int = 4, fmt: Format | None = None, *, draw_seed: object = 1, seed: str = SEED
) -> GameSetup:
    chosen = fmt if fmt is not None else default_format(players)
    return draw_game(people(players), chosen, seed_sha256=seed_commitment(seed), draw_seed=draw_seed)  # type: ignore[arg-type]


def bot_game(setup: GameSetup, *, seed: str = SEED, turns: int | None = None) -> Game:
    """Play ``setup`` with every team on its autopilot, to the end or for ``turns`` turns."""
    game = new_game(setup)
    while not game.finished and (turns is None or len(game.turns) < turns):
        orders = autopilot_orders(game, game.teams_in_play(), get_strategy, seed=seed)
        game = resolve_turn(game, orders, seed)
    return game


def ordered_game(
    setup: GameSetup, choose: Callable[[Game, TeamId], Order], *, seed: str = SEED, turns: int | None = None
) -> Game:
    """Play ``setup`` with orders from ``choose(game, team)``."""
    game = new_game(setup)
    while not game.finished and (turns is None or len(game.turns) < turns):
        orders = {team: TurnOrder(team, choose(game, team)) for team in game.teams_in_play()}
        game = resolve_turn(game, orders, seed)
    return game


def zero_orders(game: Game, team: TeamId) -> Order:
    return Order(0, 0)
