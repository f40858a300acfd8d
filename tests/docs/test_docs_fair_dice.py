"""docs/fair-dice.md followed as a sceptical player would: its own Python, and only the stream names
the page gives, throw again every die of a real game from the revealed seed, its lots included.

The page once said only that lots use "streams of their own": a player could check every match's
dice but not one drawing of lots."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from sevens.rules import Order
from sevens.tournament import Player, PlayerId, TurnOrder, default_format, new_game, resolve_turn, to_record
from sevens.tournament.setup import draw_game_from_seed

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "fair-dice.md").read_text(encoding="utf-8")


def _page_dice() -> Any:
    """The page's ``dice(seed_hex, digest, stream, count)``, as a reader would paste it."""
    found = re.search(r"```python\n(.*?)```", PAGE, re.S)
    assert found, "docs/fair-dice.md no longer shows its Python"
    names: dict[str, Any] = {}
    exec(found.group(1), names)  # the page's own code, run as a reader runs it
    return names["dice"]


def _stream_names() -> tuple[str, str]:
    """The lots streams as the page writes them: a knockout match's and a group's."""
    knockout = re.search(r"`(t\{n\}/lots/\{match id\})`", PAGE)
    group = re.search(r"`(t3/lots/group-X)`", PAGE)
    assert knockout and group, "docs/fair-dice.md does not say what the streams of lots are called"
    return knockout.group(1), group.group(1)


def _all_level_game() -> dict[str, Any]:
    """Eight players who order nothing: every match 0-0, so every place and knockout goes to lots."""
    seed = hashlib.sha256(b"fair-dice.md/lots").digest()
    people = [Player(PlayerId(f"p{i}"), f"Player {i}") for i in range(1, 9)]
    game = new_game(draw_game_from_seed(people, default_format(8), seed=seed))
    while not game.finished:
        game = resolve_turn(game, {t: TurnOrder(t, Order(0, 0)) for t in game.teams_in_play()}, seed)
    return json.loads(json.dumps(to_record(game, seed=seed.hex())))


def test_the_pages_python_and_stream_names_throw_every_lots_draw_again() -> None:
    dice = _page_dice()
    knockout_stream, group_stream = _stream_names()
    record = _all_level_game()
    checked = 0
    for turn in record["turns"]:
        n = turn["number"]
        for lots in turn["lots"]:
            what = lots["what"]
            if what.startswith("group "):
                expected = group_stream.replace("t3", f"t{n}").replace("X", what.split()[1].rstrip(":"))
            else:
                expected = knockout_stream.replace("{n}", str(n)).replace("{match id}", what.split()[0])
            assert lots["stream"] == expected, (lots["stream"], expected)
            # The page: under the turn's digest, one die per team and round, in the order of the throws.
            thrown = [pair for round_ in lots["throws"] for pair in round_]
            faces = dice(record["seed"], turn["orders_digest"], expected, len(thrown))
            assert faces == [face for _, face in thrown], expected
            checked += 1
    kinds = {lots["stream"].split("/")[2].startswith("group") for turn in record["turns"] for lots in turn["lots"]}
    assert checked >= 4 and kinds == {True, False}, checked
