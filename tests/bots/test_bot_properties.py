"""Property: no bot ever gives an illegal order (R3), whatever it is shown."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given
from hypothesis import strategies as st

from sevens.bots import STRATEGIES, get_strategy, split
from sevens.rules import MAX_ORDER_POINTS, Order, seed_commitment, validate_order
from sevens.tournament import ManagerView, Player, PlayerId, default_format, draw_game, new_game

BASES: dict[int, ManagerView] = {}
for players in (4, 9):
    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(players)]
    game = new_game(
        draw_game(people, default_format(players), seed_sha256=seed_commitment("1f" * 32), draw_seed=1)
    )
    BASES[players] = game.view_for(game.teams_in_play()[0])


@st.composite
def views(draw: st.DrawFn) -> ManagerView:
    base = BASES[draw(st.sampled_from(sorted(BASES)))]
    fmt = base.format
    turn = draw(st.integers(1, fmt.turns))
    in_play = draw(st.booleans())
    return dataclasses.replace(
        base,
        turn=turn,
        stage=fmt.stages[turn - 1],
        scrum=draw(st.integers(0, MAX_ORDER_POINTS)),
        in_play=in_play,
        turns_left=fmt.turns - turn + 1 if in_play else 0,
        opponent_scrum=draw(st.integers(0, MAX_ORDER_POINTS)),
    )


@given(view=views(), name=st.sampled_from(sorted(STRATEGIES)), rng_seed=st.integers(0, 2**32))
def test_bots_never_give_an_illegal_order(view: ManagerView, name: str, rng_seed: int) -> None:
    """R3: "FLAIR points are a multiple of 3 ... Their sum may not exceed the team's SCRUM points"."""
    order = get_strategy(name).order(view, random.Random(rng_seed))
    assert isinstance(order, Order)
    assert validate_order(order.force, order.flair, scrum=view.scrum) == order
    if view.in_play and view.turns_left == 1 and name != "random":
        assert order.total == view.scrum  # nothing is worth keeping after the final


@given(total=st.integers(-50, 500), share=st.floats(-1, 2, allow_nan=False), scrum=st.integers(0, 200))
def test_split_is_always_legal(total: int, share: float, scrum: int) -> None:
    """R3 for the mixing helper every bot uses."""
    order = split(total, share, scrum)
    assert order.total == max(0, min(total, scrum, MAX_ORDER_POINTS))
    assert validate_order(order.force, order.flair, scrum=scrum) == order
