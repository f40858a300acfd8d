"""Replaying the bots' orders of a record (R13, R14): a bot's order that is not what the bot plays
is caught, even when the record is otherwise consistent (digests, dice, tables all recomputed)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from sevens.bots import BotOrderCheck, get_strategy, named_bot
from sevens.rules import Order
from sevens.tournament.formats import Format
from sevens.tournament.game import Game, autopilot_orders, new_game, resolve_turn
from sevens.tournament.record import VerificationError, to_record
from sevens.tournament.setup import DEFAULT_TEAM_NAMES, Player, PlayerId, draw_game_from_seed
from sevens.tournament.verify import verify_record

SEED = bytes(range(32))


def _play(forge_turn: int | None = None) -> tuple[Game, str]:
    """A 4-player game played by bots alone; with ``forge_turn``, one bot order of that turn is
    swapped for another legal one, and the turn is resolved with it (so every die follows it)."""
    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(1, 5)]
    game = new_game(draw_game_from_seed(people, Format(8, 4, 2), seed=SEED))
    forged = ""
    while not game.finished:
        n = game.turn_number
        orders = autopilot_orders(game, game.teams_in_play(), get_strategy, seed=SEED)
        if n == forge_turn:
            team, given = next(iter(orders.items()))
            other = Order(given.order.flair, given.order.force) if given.order.force % 3 == 0 else Order(0, 0)
            if (other.force, other.flair) == (given.order.force, given.order.flair):
                other = Order(0, 0) if given.order.force + given.order.flair else Order(1, 0)
            orders[team] = dataclasses.replace(given, order=other)
            forged = team
        game = resolve_turn(game, orders, SEED)
    return game, forged


def test_every_bot_order_of_an_honest_record_replays() -> None:
    """R13: each bot order is what the named bot plays from the game and the revealed seed."""
    game, _ = _play()
    check = BotOrderCheck(SEED.hex())
    report = verify_record(to_record(game, seed=SEED.hex()), check_orders=check)
    assert report.dice_checked
    assert check.checked == sum(2 * len(turn.matches) for turn in game.turns)
    assert check.unknown == set()


def test_a_forged_bot_order_is_caught_though_the_rest_is_consistent() -> None:
    """R14: a server that plays a bot's team with another order, and throws the dice for it, gives a
    record that the dice and digests cannot fault; replaying the bot names the forged order."""
    game, forged = _play(forge_turn=2)
    record = to_record(game, seed=SEED.hex())
    assert verify_record(record).dice_checked  # consistent without the bots (the test can fail)
    with pytest.raises(VerificationError) as caught:
        verify_record(record, check_orders=BotOrderCheck(SEED.hex()))
    assert caught.value.path.startswith("turns[1].matches[")
    # The path locates the order; the words name the team as people know it, not by its id.
    name = game.setup.team(forged).name
    assert f"plays for {name} in turn 2, from the revealed seed" in str(caught.value), str(caught.value)
    # docs/record.md quotes such a message: it names the team the same way (it once gave the id).
    shown = (Path(__file__).resolve().parents[2] / "docs" / "record.md").read_text("utf-8")
    quoted_team = re.search(r"plays for (.+?) in turn 2, from the revealed seed", shown.replace("\n", " "))
    assert quoted_team is not None and quoted_team[1] in DEFAULT_TEAM_NAMES, quoted_team


def test_unknown_bots_are_reported_not_imported() -> None:
    """A record is anyone's data: a bot it names by module path is never imported, and a bot this
    installation lacks is left unchecked and reported."""
    game, _ = _play()
    record = to_record(game, seed=SEED.hex())
    for turn in record["turns"]:
        for match in turn["matches"]:
            match["home_order"]["autopilot"] = "os:abort"
    check = BotOrderCheck(SEED.hex())
    verify_record(record, check_orders=check)
    assert check.unknown == {"os:abort"}
    assert check.checked == sum(len(t["matches"]) for t in record["turns"])
    with pytest.raises(ValueError, match="module path"):
        named_bot("os:abort")
