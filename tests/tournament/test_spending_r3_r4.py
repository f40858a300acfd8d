"""Spending everything, holding nothing, and when the winner's 10 can be spent (R3, R4), in a game.

The rules engine's own tests check ``scrum_after`` and ``validate_order`` on numbers; these play the
turns, so that the balance a game checks an order against is the one the rules say: what the team
held after its last match, the 10 of a win included, and never the 10 of the match being played.
"""

from __future__ import annotations

import pytest
from tournament_helpers import SEED, make_setup

from sevens.rules import Dice, Line, Order
from sevens.tournament import OrderRefused, TurnOrder, check_order, new_game, resolve_turn


def test_r3_r4_whole_balance_spent_then_only_the_10_won_or_nothing() -> None:
    """R3: "Both may be 0. Their sum may not exceed the team's SCRUM points at the time of the match."
    R4: "Points ordered are spent whatever happens. The winner of a match gains 10 after the match,
    usable from the next match on. A group-stage draw has no winner."
    Original, 2: "SCRUM points allocated to a match are "spent" and cannot be recovered."

    Turn 1: in the first match the home team spends all 100 on FORCE against an order of nothing
    (it scores nothing only if all 100 dice miss, a chance of (2/3)**100); in the second both teams
    spend all 100. Turn 2: the first winner holds exactly its 10, the teams of the second match 0 or
    10, and every order is checked against that.
    """
    game = new_game(make_setup(4))
    one, two = game.fixtures()[:2]
    spenders = {one.home, two.home, two.away}
    orders = {t: TurnOrder(t, Order(100, 0) if t in spenders else Order(0, 0)) for t in game.teams_in_play()}
    game = resolve_turn(game, orders, SEED)
    first, second = game.turns[0].matches[:2]

    # The whole balance is a legal order, and spent whatever happens.
    assert first.winner == one.home
    assert (first.home.scrum_before, first.home.scrum_after) == (100, 10)
    assert (first.away.scrum_before, first.away.scrum_after) == (100, 100)
    for side in (second.home, second.away):
        assert side.scrum_after == (10 if second.winner == side.team else 0)

    # The 10 arrive after the match and are usable in the next: all of them, and no more.
    assert game.scrum(one.home) == 10
    assert check_order(game, turn=2, team=one.home, force=10, flair=0) == Order(10, 0)
    assert check_order(game, turn=2, team=one.home, force=1, flair=9) == Order(1, 9)
    with pytest.raises(OrderRefused, match="spends 11 points but the team holds only 10 SCRUM points"):
        check_order(game, turn=2, team=one.home, force=11, flair=0)
    with pytest.raises(OrderRefused, match="spends 12 points but the team holds only 10"):
        check_order(game, turn=2, team=one.home, force=0, flair=12)

    # A team with nothing left can order nothing but nothing; it throws no dice and scores 0.
    broke = second.away.team if second.winner != second.away.team else second.home.team
    assert game.scrum(broke) == 0
    assert check_order(game, turn=2, team=broke, force=0, flair=0) == Order(0, 0)
    for force, flair in ((1, 0), (0, 3)):
        with pytest.raises(OrderRefused, match=r"R3: the order spends \d point.? but the team holds only 0 SCRUM points"):
            check_order(game, turn=2, team=broke, force=force, flair=flair)

    orders = {t: TurnOrder(t, Order(0, 0)) for t in game.teams_in_play()}
    orders[one.home] = TurnOrder(one.home, Order(1, 9))
    game = resolve_turn(game, orders, SEED)
    played = {side.team: side for m in game.turns[1].matches for side in (m.home, m.away)}
    assert played[one.home].scrum_before == 10
    assert played[broke].scrum_before == 0
    assert (played[broke].dice, played[broke].line) == (Dice(), Line())
    # Nothing spent and nothing won: 0 points at best draw 0-0, and a group draw has no winner.
    assert played[broke].scrum_after == 0
