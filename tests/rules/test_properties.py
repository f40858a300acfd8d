"""Properties of the rules engine over random orders and dice."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sevens.rules import (
    MAX_ORDER_POINTS,
    Dice,
    Line,
    Order,
    ScriptedDice,
    SeededDice,
    check_dice_shape,
    line_from_dice,
    play_order,
)

orders = st.builds(
    Order,
    force=st.integers(0, 40),
    flair=st.integers(0, 13).map(lambda options: 3 * options),
)


@given(order=orders, seed=st.integers(0, 2**32))
def test_every_die_is_kept_and_scores_the_line(order: Order, seed: int) -> None:
    play = play_order(order, SeededDice(seed))
    check_dice_shape(order, play.dice)
    assert line_from_dice(play.dice) == play.line
    assert Dice.from_dict(play.dice.to_dict()) == play.dice
    assert Line.from_dict(play.line.to_dict()) == play.line
    assert play.line.conversions <= order.options


@given(order=orders, seed=st.integers(0, 2**32))
def test_replaying_the_recorded_faces_gives_the_same_play(order: Order, seed: int) -> None:
    play = play_order(order, SeededDice(seed))
    faces = [*play.dice.force, *(f for option in play.dice.flair for throw in option for f in throw)]
    assert play_order(order, ScriptedDice(faces)) == play


@given(force=st.integers(-5, MAX_ORDER_POINTS + 5), flair=st.integers(-5, MAX_ORDER_POINTS + 5))
def test_an_order_is_legal_exactly_when_r3_allows_it(force: int, flair: int) -> None:
    legal = force >= 0 and flair >= 0 and flair % 3 == 0 and force + flair <= MAX_ORDER_POINTS
    if legal:
        assert Order(force, flair).total == force + flair
    else:
        with pytest.raises(ValueError, match="R3"):
            Order(force, flair)


def test_values_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Order(1, 3).force = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Line(1).tries = 2  # type: ignore[misc]
