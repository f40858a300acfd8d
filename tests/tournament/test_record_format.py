"""The game record: fields, JSON Schema, canonical text, round trip, malformed input."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from tournament_helpers import SEED, bot_game, make_setup, ordered_game, zero_orders

import sevens.tournament
from sevens.rules import Dice, Order, check_dice_shape, line_from_dice, scrum_after
from sevens.tournament import (
    FORMAT,
    VERSION,
    Format,
    RecordError,
    draw_game,
    dumps,
    from_record,
    loads,
    new_game,
    to_record,
    verify_record,
)
from sevens.tournament.record import schema
from sevens.tournament.setup import DEFAULT_TEAM_NAMES, Player, PlayerId, draw_game_from_seed

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "schema" / "game-record.schema.json"
PACKAGE_SCHEMA = Path(sevens.tournament.__file__).parent / "game-record.schema.json"

FINISHED = bot_game(make_setup(4))
FINISHED_RECORD = to_record(FINISHED, seed=SEED)
SIXTEEN = bot_game(make_setup(5))
LOTS_GAME = ordered_game(make_setup(4), zero_orders)


def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text("utf-8")))


def test_the_schema_is_draft_2020_12_and_both_copies_are_identical() -> None:
    document = json.loads(SCHEMA_FILE.read_text("utf-8"))
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(document)
    assert SCHEMA_FILE.read_bytes() == PACKAGE_SCHEMA.read_bytes()
    assert schema() == document


@pytest.mark.parametrize(
    ("game", "seed"),
    [
        (new_game(make_setup(4)), None),
        (bot_game(make_setup(4), turns=2), None),
        (bot_game(make_setup(9), turns=4), None),
        (FINISHED, SEED),
        (SIXTEEN, SEED),
        (LOTS_GAME, SEED),
    ],
)
def test_records_validate_against_the_schema_and_round_trip(
    game: sevens.tournament.Game, seed: str | None
) -> None:
    """Round trip: from_record(to_record(g)) == g, at every stage of a game."""
    record = to_record(game, seed=seed)
    _validator().validate(record)
    assert from_record(record) == (game, seed)
    assert from_record(loads(dumps(record))) == (game, seed)


def test_the_schema_rejects_a_broken_record() -> None:
    record = copy.deepcopy(FINISHED_RECORD)
    record["turns"][0]["matches"][0]["home_dice"]["force"].append(7)
    assert not _validator().is_valid(record)
    del record["turns"][0]["matches"][0]["home_dice"]
    assert not _validator().is_valid(record)


def test_record_fields_and_names() -> None:
    """The record carries the fields of the contract under their names."""
    r = FINISHED_RECORD
    assert (r["format"], r["version"]) == (FORMAT, VERSION) == ("sevens-game-record", 1)
    assert r["seed"] == SEED and r["seed_sha256"] == FINISHED.id
    assert r["champion"] == FINISHED.champion
    assert r["tournament"]["teams"] == 8 and r["tournament"]["teams_per_player"] == 2
    assert set(r["teams"][0]) >= {"id", "name", "group", "manager", "autopilot"}
    assert set(r["players"][0]) == {"id", "name", "teams"}
    assert [t["stage"] for t in r["turns"]] == ["group"] * 3 + ["semi-final", "final"]
    turn = r["turns"][0]
    assert set(turn) >= {"number", "stage", "orders_digest", "matches", "lots"}
    match = turn["matches"][0]
    assert set(match) >= {
        "id", "home", "away", "home_order", "away_order", "home_dice", "away_dice",
        "home_line", "away_line", "winner", "decided_by", "scrum",
    }  # fmt: skip
    assert set(match["home_order"]) == {"force", "flair", "missed", "autopilot"}
    assert set(match["home_dice"]) == {"force", "flair"}
    assert set(match["home_line"]) == {"tries", "conversions", "penalties", "drop_goals", "points"}
    assert set(match["scrum"]) == {match["home"], match["away"]}
    assert set(match["scrum"][match["home"]]) == {"before", "after"}
    assert set(r["groups"]) == {"A", "B"}
    assert set(r["groups"]["A"][0]) == {
        "team", "position", "played", "won", "drawn", "lost", "tries_for", "tries_against",
        "points_for", "points_against", "league_points", "decided_by",
    }  # fmt: skip


def test_flair_dice_are_recorded_per_option_with_rethrows() -> None:
    """R2: every FLAIR option is a list of [a, b] throws, doubles followed by one that is not."""
    options = [
        option
        for turn in FINISHED_RECORD["turns"]
        for m in turn["matches"]
        for side in ("home_dice", "away_dice")
        for option in m[side]["flair"]
    ]
    assert options and all(a != b for *_, (a, b) in options)
    assert all(a == b for option in options for a, b in option[:-1])
    assert any(len(option) > 1 for option in options)  # some double was thrown again


def test_lots_are_recorded_with_their_stream_and_what_they_decided() -> None:
    """R10: "every draw is recorded with what it decided"."""
    record = to_record(LOTS_GAME, seed=SEED)
    third = record["turns"][2]["lots"]
    assert {entry["stream"] for entry in third} == {"t3/lots/group-A", "t3/lots/group-B"}
    assert all(entry["what"].startswith("group ") for entry in third)
    final = record["turns"][4]
    assert final["lots"][0]["stream"] == "t5/lots/t5-m1"
    assert final["matches"][0]["decided_by"] == "lots"
    assert final["matches"][0]["winner"] == final["lots"][0]["order"][0]


def test_the_seed_is_null_until_the_game_is_finished() -> None:
    """R14: "The seed is revealed when the game ends"."""
    unfinished = bot_game(make_setup(4), turns=4)
    assert to_record(unfinished)["seed"] is None
    with pytest.raises(ValueError, match="R14: the seed is revealed only when the game is over"):
        to_record(unfinished, seed=SEED)
    with pytest.raises(ValueError, match="R14: this seed does not match"):
        to_record(FINISHED, seed="00" * 32)
    record = to_record(unfinished)
    record["seed"] = SEED
    with pytest.raises(RecordError, match=r"^turns: .*R14: the seed stays secret"):
        from_record(record)


def test_a_game_ended_early_reveals_its_seed_and_says_so() -> None:
    """R14: "The seed is revealed when the game ends": also when its organiser ends it before the final."""
    ended = bot_game(make_setup(4), turns=2)
    record = to_record(ended, seed=SEED, ended_early=True)
    assert record["seed"] == SEED and record["ended_early"] is True and record["champion"] is None
    assert list(record)[-1] == "ended_early" and "ended_early" not in to_record(FINISHED, seed=SEED)
    _validator().validate(record)
    assert from_record(loads(dumps(record))) == (ended, SEED)
    with pytest.raises(ValueError, match="a finished game was not ended early"):
        to_record(FINISHED, seed=SEED, ended_early=True)
    for value in (False, "yes"):
        record["ended_early"] = value
        assert not _validator().is_valid(record)
        with pytest.raises(RecordError, match=r"^ended_early: is true when present"):
            from_record(record)
    finished = copy.deepcopy(FINISHED_RECORD)
    finished["ended_early"] = True
    # The schema cannot count turns; the reader does.
    with pytest.raises(RecordError, match=r"^ended_early: .*did not end early"):
        from_record(finished)


def test_dumps_is_canonical() -> None:
    """One canonical JSON text: stable key order, indent 2, UTF-8 kept, final newline."""
    text = dumps(FINISHED_RECORD)
    assert text.endswith("}\n") and text.startswith('{\n  "format": "sevens-game-record",\n  "version": 1,')
    assert dumps(loads(text)) == text
    names = ["Côte d'Ivoire", "b", "c", "d", "e", "f", "g", "h"]
    setup = draw_game(
        make_setup(4).players, Format(8, 4, 2), seed_sha256=FINISHED.id, draw_seed=1, team_names=names
    )
    assert "Côte d'Ivoire" in dumps(to_record(new_game(setup)))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("[]", "a game record is a JSON object"),
        ("{", "not JSON"),
        ('{"format": "chess"}', "format: this is not a Sevens game record"),
        ('{"format": "sevens-game-record", "version": 9}', "version: this program reads version 1"),
        ('{"format": "sevens-game-record", "version": 1}', "missing field(s) seed_sha256"),
    ],
)
def test_malformed_records_are_refused_with_one_clear_error(data: str, words: str) -> None:
    with pytest.raises(RecordError) as info:
        from_record(loads(data))
    assert words in str(info.value)


def test_a_missing_or_mistyped_field_is_named_by_its_path() -> None:
    record = copy.deepcopy(FINISHED_RECORD)
    del record["turns"][1]["matches"][2]["away_order"]
    with pytest.raises(RecordError, match=r"^turns\[1\]\.matches\[2\]: missing field\(s\) away_order"):
        from_record(record)
    record = copy.deepcopy(FINISHED_RECORD)
    record["turns"][0]["matches"][0]["home_order"]["force"] = "ten"
    with pytest.raises(
        RecordError, match=r"^turns\[0\]\.matches\[0\]\.home_order\.force: must be a whole number"
    ):
        from_record(record)
    record = copy.deepcopy(FINISHED_RECORD)
    record["turns"][0]["matches"][0]["home_order"]["flair"] = 4
    with pytest.raises(RecordError, match=r"home_order: R3: FLAIR points must be a multiple of 3"):
        from_record(record)
    record = copy.deepcopy(FINISHED_RECORD)
    record["teams"][0]["group"] = "Z"
    with pytest.raises(RecordError, match=r"^teams\[0\]"):
        from_record(record)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, (*path, key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found.extend(_paths(item, (*path, i)))
    return found


def _as_given(path: tuple[Any, ...]) -> bool:
    """Fields the record states rather than derives: who chose an order, names, autopilots."""
    if path[-2:-1] in (("home_order",), ("away_order",)):
        return path[-1] in ("missed", "autopilot")
    return path[0] in ("teams", "players") and path[-1] in ("name", "autopilot")


def _damaged(record: dict[str, Any], path: tuple[Any, ...], junk: object, delete: bool) -> tuple[dict[str, Any], bool]:
    """A copy of ``record`` with the field at ``path`` deleted (where it is a key) or set to
    ``junk``, and whether that left it as it was."""
    copied = copy.deepcopy(record)
    *parents, last = path
    holder: Any = copied
    for key in parents:
        holder = holder[key]
    original = holder[last]
    if delete and isinstance(holder, dict):
        del holder[last]
        # The first versions wrote no draw, and a record without it reads as null (docs/record.md).
        return copied, path == ("draw",) and original is None
    holder[last] = junk
    return copied, junk == original and type(junk) is type(original)


SMALL = to_record(bot_game(make_setup(4), turns=4))
SMALL_PATHS = _paths(SMALL)[1:]
_DEEP: list[Any] = []
for _ in range(40):
    _DEEP = [_DEEP]
# Also what no record can hold: a number Python will not print, a lone surrogate, deep nesting.
JUNK = st.sampled_from([None, True, -1, 0, 7, 2.5, "", "x", [], {}, [1, 2], {"a": 1}, 10**5000, "\ud800", _DEEP])


@given(index=st.integers(0, len(SMALL_PATHS) - 1), junk=JUNK, delete=st.booleans())
@example(index=SMALL_PATHS.index(("draw",)), junk=None, delete=True)
def test_any_damaged_record_gives_a_record_error_never_a_crash(
    index: int, junk: object, delete: bool
) -> None:
    """Malformed files give one clear RecordError, never another exception (no traceback)."""
    record, unchanged = _damaged(SMALL, SMALL_PATHS[index], junk, delete)
    try:
        game, _ = from_record(record)
    except RecordError:
        return
    # Without the seed (this game is unfinished) a die is taken as given, so a changed face that
    # leaves the line as it was is consistent; so are the fields stated as given.
    dice = any(key in ("home_dice", "away_dice") for key in SMALL_PATHS[index][:-1])
    if _as_given(SMALL_PATHS[index]) or dice:
        assert to_record(game) == record
        return
    # Any other change that passes must have changed nothing.
    assert unchanged
    assert to_record(game) == SMALL


FINISHED_PATHS = _paths(FINISHED_RECORD)[1:]


@given(index=st.integers(0, len(FINISHED_PATHS) - 1), junk=JUNK, delete=st.booleans())
def test_any_damage_to_a_finished_record_is_caught_by_verify(index: int, junk: object, delete: bool) -> None:
    """With the seed revealed every field is checked, except those stated as given (names, who
    chose an order)."""
    record, unchanged = _damaged(FINISHED_RECORD, FINISHED_PATHS[index], junk, delete)
    try:
        verify_record(record)
    except RecordError:
        return
    assert _as_given(FINISHED_PATHS[index]) or unchanged


def test_the_example_in_docs_record_md_adds_up() -> None:
    """docs/record.md's example match follows R1, R2 and R4 and fits the schema."""
    text = (ROOT / "docs" / "record.md").read_text("utf-8")
    block = text.split("## A small example", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    match = json.loads(block)
    for side in ("home", "away"):
        dice = Dice.from_dict(match[f"{side}_dice"])
        order = Order(match[f"{side}_order"]["force"], match[f"{side}_order"]["flair"])
        check_dice_shape(order, dice)
        assert line_from_dice(dice).to_dict() == match[f"{side}_line"]
        scrum = match["scrum"][match[side]]
        won = match["winner"] == match[side]
        assert scrum["after"] == scrum_after(scrum["before"], order, won=won)
    document = json.loads(SCHEMA_FILE.read_text("utf-8"))
    match_schema = {**document["$defs"]["match"], "$defs": document["$defs"]}
    jsonschema.Draft202012Validator(match_schema).validate(match)


@pytest.mark.parametrize("players", [4, 5, 9])
def test_the_canonical_text_is_as_docs_record_md_describes_it(players: int) -> None:
    """docs/record.md, "Canonical text": an outside checker rebuilds a record and compares bytes, so the
    layout, the order of each player's teams and of each match's SCRUM are all it may rely on."""
    record = to_record(bot_game(make_setup(players)), seed=SEED)
    assert dumps(record) == json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    for player in record["players"]:
        assert player["teams"] == [t["id"] for t in record["teams"] if t["manager"] == player["id"]]
    for turn in record["turns"]:
        for match in turn["matches"]:
            assert list(match["scrum"]) == [match["home"], match["away"]]
    text = (ROOT / "docs" / "record.md").read_text("utf-8")
    layout = text.split("## Canonical text", 1)[1].split("```\n", 1)[1].split("```", 1)[0]
    example = text.split("## A small example", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    assert json.dumps(json.loads(example), indent=2, ensure_ascii=False).startswith(layout)


def _draw_as_docs_record_md_says(seed: str, players: list[str], fmt: Format) -> list[tuple[str, str, str | None]]:
    """The 'game-seed' draw redone from docs/record.md's recipe alone, with the standard library."""
    text = hmac.new(bytes.fromhex(seed), b"sevens/draw", hashlib.sha256).hexdigest()
    key = hashlib.sha256(b"sevens/group-draw/v1" + b"s:" + text.encode()).digest()
    words: list[int] = []
    block = 0

    def below(n: int) -> int:
        nonlocal block
        while True:
            if not words:
                digest = hashlib.sha256(key + block.to_bytes(8, "big")).digest()
                block += 1
                words.extend(int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8))
            word = words.pop(0)
            if word < 2**64 - 2**64 % n:
                return word % n

    def shuffle(items: list[Any]) -> list[Any]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    order = shuffle(players)
    letters = shuffle(list("ABCD"[: fmt.groups]))
    places: dict[str, list[str | None]] = {letter: [] for letter in sorted(letters)}
    for slot in range(fmt.players * fmt.teams_per_player):
        places[letters[slot % fmt.groups]].append(order[slot // fmt.teams_per_player])
    dealt = [(g, m) for g in sorted(places) for m in shuffle(places[g] + [None] * (4 - len(places[g])))]
    names = shuffle(list(DEFAULT_TEAM_NAMES[: fmt.teams]))
    return [(name, group, manager) for name, (group, manager) in zip(names, dealt, strict=True)]


@pytest.mark.parametrize("fmt", [Format(8, 4, 2), Format(16, 5, 3), Format(16, 9, 1), Format(16, 16, 1)])
def test_the_draw_recipe_in_docs_record_md_redoes_the_draw(fmt: Format) -> None:
    """An outside checker following docs/record.md gets the program's draw (R12, R14)."""
    people = [Player(PlayerId(f"p{i}"), f"Player {i}") for i in range(1, fmt.players + 1)]
    for seed in ("00" * 32, "5e" * 32, "0123456789abcdef" * 4):
        setup = draw_game_from_seed(people, fmt, seed=seed)
        drawn = [(team.name, team.group, team.manager) for team in setup.teams]
        assert drawn == _draw_as_docs_record_md_says(seed, [p.id for p in people], fmt)
