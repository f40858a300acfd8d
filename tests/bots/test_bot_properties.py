"""Property: no bot ever gives an illegal order (R3), whatever it is shown.

The views come from real games (8 teams for 4 players, 16 teams for 9 and 16 players) played by
mixed bots, one at every turn, so that every bot meets group and knockout stages and a history of
public orders to read (field-reader paces by it), and every team's group table before the last
group round (table-reader reads it); then their SCRUM is changed to anything legal.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sevens.bots import STRATEGIES, get_strategy, split
from sevens.bots.pacing import WEIGHTED
from sevens.bots.smart import table_stakes
from sevens.rules import MAX_ORDER_POINTS, Order, seed_commitment, validate_order
from sevens.tournament import ManagerView, Player, PlayerId, default_format, draw_game, new_game
from sevens.tournament.formats import GROUP_TURNS
from sevens.tournament.game import autopilot_orders, resolve_turn

SEED = "1f" * 32
MIXED = ("group-blitz", "even", "knockout-saver", "random", "even-flair@0.5")


def _views_of_a_played_game(players: int) -> list[ManagerView]:
    """A view of one team in play before every turn of a game played by :data:`MIXED` bots, and of
    every other team before the last group round."""
    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(players)]
    setup = draw_game(people, default_format(players), seed_sha256=seed_commitment(SEED), draw_seed=players)
    for t, team in enumerate(setup.teams):
        setup = setup.with_autopilot(team.id, MIXED[t % len(MIXED)])
    game = new_game(setup)
    views: list[ManagerView] = []
    last_group_round: list[ManagerView] = []
    while not game.finished:
        views.append(game.view_for(game.teams_in_play()[0]))
        if game.turn_number == GROUP_TURNS:
            last_group_round.extend(game.view_for(team) for team in game.teams_in_play()[1:])
        game = resolve_turn(game, autopilot_orders(game, game.teams_in_play(), get_strategy, seed=SEED), SEED)
    return views + last_group_round


BASES: dict[int, list[ManagerView]] = {players: _views_of_a_played_game(players) for players in (4, 9, 16)}
# 8 teams: 3 group + 2 knockout turns, and 7 more teams before the last group round; 16: 3 + 3, and 15.
assert {len(views) for views in BASES.values()} == {5 + 7, 6 + 15}
# Some teams cannot be put out by a loss in their last group match: table-reader rests there.
assert any((s := table_stakes(view)) is not None and s.second_or_level_if_lost for views in BASES.values() for view in views)
assert all(view.history for views in BASES.values() for view in views[1:])

# Every built-in, and each that takes a knockout weight at a few weights (field-reader leans
# toward one from 0 to 4).
NAMES = sorted(STRATEGIES) + [f"{base}@{k}" for base in WEIGHTED for k in ("0", "0.4", "1.5", "4")]


@st.composite
def views(draw: st.DrawFn) -> ManagerView:
    base = draw(st.sampled_from(BASES[draw(st.sampled_from(sorted(BASES)))]))
    in_play = draw(st.booleans())
    assert base.turn is not None
    return dataclasses.replace(
        base,
        scrum=draw(st.integers(0, MAX_ORDER_POINTS)),
        in_play=in_play,
        turns_left=base.format.turns - base.turn + 1 if in_play else 0,
        opponent_scrum=draw(st.integers(0, MAX_ORDER_POINTS)),
    )


def _check(name: str, view: ManagerView, rng_seed: int) -> Order:
    order = get_strategy(name).order(view, random.Random(rng_seed))
    assert isinstance(order, Order)
    assert validate_order(order.force, order.flair, scrum=view.scrum) == order, (name, view.turn, view.scrum)
    if view.in_play and view.turns_left == 1 and name != "random":
        assert order.total == view.scrum  # nothing is worth keeping after the final
    return order


@given(view=views(), name=st.sampled_from(NAMES), rng_seed=st.integers(0, 2**32))
def test_bots_never_give_an_illegal_order(view: ManagerView, name: str, rng_seed: int) -> None:
    """R3: "FLAIR points are a multiple of 3 ... Their sum may not exceed the team's SCRUM points"."""
    _check(name, view, rng_seed)


@pytest.mark.parametrize("players", sorted(BASES))
def test_bots_with_almost_no_scrum_give_legal_orders_at_every_turn(players: int) -> None:
    """SCRUM 0 to 3 (less than one FLAIR option, or just one) at every group and knockout turn,
    against opponents holding as little or a lot: every bot still orders within what it holds."""
    for base in BASES[players]:
        for name in NAMES:
            for scrum in range(4):
                for opponent in (0, 1, 3, 100):
                    view = dataclasses.replace(base, scrum=scrum, opponent_scrum=opponent)
                    order = _check(name, view, scrum * 7 + opponent)
                    if name.partition("@")[0] in WEIGHTED and scrum > 0:
                        assert order.total >= 1, (name, base.turn, scrum)  # a pacer's share rounds up


@given(total=st.integers(-50, 500), share=st.floats(-1, 2, allow_nan=False), scrum=st.integers(0, 200))
def test_split_is_always_legal(total: int, share: float, scrum: int) -> None:
    """R3 for the mixing helper every bot uses."""
    order = split(total, share, scrum)
    assert order.total == max(0, min(total, scrum, MAX_ORDER_POINTS))
    assert validate_order(order.force, order.flair, scrum=scrum) == order
