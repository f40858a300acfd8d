"""Property tests: any seed and any legal orders give a champion, a record that round-trips and
verifies; any change to a die, an order, a line or a table row is caught."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_helpers import SEED, bot_game, make_setup

from sevens.bots import get_strategy
from sevens.rules import FLAIR_OPTION_COST, Order, seed_commitment
from sevens.tournament import (
    RecordError,
    TurnOrder,
    autopilot_orders,
    default_format,
    draw_game,
    from_record,
    new_game,
    resolve_turn,
    to_record,
    verify_record,
)
from sevens.tournament.setup import Player, PlayerId

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
fractions = st.tuples(st.floats(0, 1), st.floats(0, 1))


@settings(max_examples=25)
@given(seed=seeds, players=st.integers(4, 16), draw_seed=st.integers(0, 2**32), data=st.data())
def test_any_seed_and_legal_orders_give_a_champion_and_a_verifiable_record(
    seed: str, players: int, draw_seed: int, data: st.DataObject
) -> None:
    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(players)]
    setup = draw_game(people, default_format(players), seed_sha256=seed_commitment(seed), draw_seed=draw_seed)
    game = new_game(setup)
    house = {t.id for t in setup.teams if t.manager is None}
    while not game.finished:
        # House teams play their bot (R12); the managers' orders are any legal ones.
        orders = autopilot_orders(game, [t for t in game.teams_in_play() if t in house], get_strategy, seed=seed)
        for team in game.teams_in_play():
            if team in house:
                continue
            balance = game.scrum(team)
            spend, share = data.draw(fractions)
            total = int(balance * spend)
            flair = int(total * share) // FLAIR_OPTION_COST * FLAIR_OPTION_COST
            orders[team] = TurnOrder(team, Order(total - flair, flair))
        game = resolve_turn(game, orders, seed)
        assert all(balance >= 0 for balance in game.scrums().values())
        record = to_record(game)
        if not game.finished:
            assert from_record(record) == (game, None)
    assert game.champion is not None
    record = to_record(game, seed=seed)
    assert from_record(record) == (game, seed)
    report = verify_record(record)
    assert report.dice_checked and report.turns == setup.format.turns


RECORDS = [to_record(bot_game(make_setup(n)), seed=SEED) for n in (4, 9)]


def _leaves(record: dict[str, Any], kind: str) -> list[tuple[Any, ...]]:
    """Paths of every die, order amount, line count or table-row figure in a record."""
    found: list[tuple[Any, ...]] = []
    for t, turn in enumerate(record["turns"]):
        for j, m in enumerate(turn["matches"]):
            for side in ("home", "away"):
                base = ("turns", t, "matches", j)
                if kind == "die":
                    dice = m[f"{side}_dice"]
                    found += [(*base, f"{side}_dice", "force", i) for i in range(len(dice["force"]))]
                    found += [
                        (*base, f"{side}_dice", "flair", o, k, d)
                        for o, option in enumerate(dice["flair"])
                        for k in range(len(option))
                        for d in (0, 1)
                    ]
                elif kind == "order":
                    found += [(*base, f"{side}_order", key) for key in ("force", "flair")]
                elif kind == "line":
                    found += [(*base, f"{side}_line", key) for key in m[f"{side}_line"]]
    if kind == "row":
        for letter, rows in record["groups"].items():
            for i, row in enumerate(rows):
                found += [("groups", letter, i, key) for key in row if key not in ("team", "decided_by")]
    return found


@settings(max_examples=80)
@given(
    which=st.integers(0, len(RECORDS) - 1),
    kind=st.sampled_from(["die", "order", "line", "row"]),
    pick=st.integers(0, 10**6),
    delta=st.integers(1, 5),
)
def test_changing_any_die_order_line_or_row_is_caught(which: int, kind: str, pick: int, delta: int) -> None:
    record = copy.deepcopy(RECORDS[which])
    paths = _leaves(record, kind)
    *parents, last = paths[pick % len(paths)]
    holder: Any = record
    for key in parents:
        holder = holder[key]
    old = holder[last]
    if kind == "die":
        new = (old - 1 + delta) % 6 + 1
    elif kind == "order" and last == "flair":
        new = old + 3 * delta if old < 3 * delta else old - 3 * delta
    else:
        new = old + delta if old < delta else old - delta
    assert new != old
    holder[last] = new
    try:
        verify_record(record)
    except RecordError:
        return
    raise AssertionError(f"changing {paths[pick % len(paths)]} from {old} to {new} was not caught")
