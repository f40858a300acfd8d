"""Verification of a game record from its revealed seed and its orders (R14)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from tournament_helpers import OTHER_SEED, SEED, bot_game, make_setup, ordered_game, zero_orders

from sevens.rules import Order
from sevens.tournament import GameSetup, RecordError, VerificationError, to_record, verify_record
from sevens.tournament.record import dumps, loads, replay_record


def _even_bots(setup: GameSetup) -> GameSetup:
    """Every team on "even", which orders FORCE and FLAIR both, so the record holds dice of each."""
    for team in setup.teams:
        setup = setup.with_autopilot(team.id, "even")
    return setup


GAME = bot_game(_even_bots(make_setup(4)))
RECORD = to_record(GAME, seed=SEED)
UNFINISHED = to_record(bot_game(make_setup(4), turns=4))


def _dice_in(record: dict[str, Any]) -> int:
    """Every die in a record, counted from the JSON itself."""
    total = 0
    for turn in record["turns"]:
        for m in turn["matches"]:
            for side in ("home_dice", "away_dice"):
                total += len(m[side]["force"]) + sum(2 * len(option) for option in m[side]["flair"])
        total += sum(len(r) for entry in turn["lots"] for r in entry["throws"])
    return total


def _tampered(path: str, value: Any, record: dict[str, Any] = RECORD) -> dict[str, Any]:
    data = copy.deepcopy(record)
    *parents, last = _parse(path)
    holder: Any = data
    for key in parents:
        holder = holder[key]
    holder[last] = value
    return data


def _parse(path: str) -> list[str | int]:
    keys: list[str | int] = []
    for part in path.replace("[", ".[").split("."):
        if part.startswith("["):
            keys.append(int(part[1:-1]))
        elif part:
            keys.append(part)
    return keys


def _get(path: str, record: dict[str, Any] = RECORD) -> Any:
    value: Any = record
    for key in _parse(path):
        value = value[key]
    return value


def _rejected(data: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as info:
        verify_record(data)
    return str(info.value)


def test_r14_a_finished_record_verifies_and_says_what_was_checked() -> None:
    """R14: "The seed is revealed when the game ends, and anyone can then recompute every die and
    every result from the published record"."""
    report = verify_record(RECORD)
    assert report.dice_checked and report.finished
    assert (report.turns, report.matches) == (5, 4 * 3 + 2 + 1)
    assert report.dice == _dice_in(RECORD)
    assert report.champion == RECORD["champion"]
    assert "recomputed from the revealed seed" in report.summary()


def test_an_unfinished_record_is_checked_for_consistency_only() -> None:
    report = verify_record(UNFINISHED)
    assert not report.dice_checked and not report.finished
    assert report.dice == _dice_in(UNFINISHED)
    assert "could not be checked" in report.summary()


def _first_force_die() -> str:
    for t, turn in enumerate(RECORD["turns"]):
        for j, m in enumerate(turn["matches"]):
            if t >= 3 and len(m["home_dice"]["force"]) > 4:
                return f"turns[{t}].matches[{j}].home_dice.force[4]"
    raise AssertionError("no knockout match with five FORCE dice")


def test_a_changed_die_is_named_precisely() -> None:
    path = _first_force_die()
    die = _get(path)
    message = _rejected(_tampered(path, die % 6 + 1))
    assert message == f"{path}: expected {die}, found {die % 6 + 1}"


def test_a_changed_flair_throw_is_named_precisely() -> None:
    path = next(
        f"turns[{t}].matches[{j}].away_dice.flair[0][0][1]"
        for t, turn in enumerate(RECORD["turns"])
        for j, m in enumerate(turn["matches"])
        if m["away_dice"]["flair"]
    )
    die = _get(path)
    assert _rejected(_tampered(path, die % 6 + 1)).startswith(f"{path}: expected {die}, found")


def test_a_changed_order_breaks_the_orders_digest() -> None:
    """R14: dice come from "a digest of all the orders of that turn"."""
    path = "turns[1].matches[2].away_order.force"
    message = _rejected(_tampered(path, _get(path) + 1))
    assert message.startswith("turns[1].orders_digest: expected ")


def test_a_changed_order_in_an_unfinished_record_breaks_the_orders_digest_not_the_dice() -> None:
    """Without the seed the recorded dice are replayed: an order raised past the dice recorded was
    "home_dice: expected more dice", pointing at the dice rather than at the order or its digest."""
    path = "turns[0].matches[0].home_order.force"
    message = _rejected(_tampered(path, _get(path, UNFINISHED) + 10, UNFINISHED))
    assert message.startswith("turns[0].orders_digest: expected "), message
    assert "an order or the digest was changed" in message


def test_an_order_beyond_the_balance_is_named_with_r3() -> None:
    """R3: "Their sum may not exceed the team's SCRUM points at the time of the match"."""
    match = RECORD["turns"][4]["matches"][0]
    before = match["scrum"][match["home"]]["before"]
    path = "turns[4].matches[0].home_order.force"
    message = _rejected(_tampered(path, before - match["home_order"]["flair"] + 1))
    assert message.startswith("turns[4].matches[0].home_order: expected an order of at most")
    assert "R3" in message


@pytest.mark.parametrize(
    "path",
    [
        "turns[0].matches[0].home_line.tries",
        "turns[2].matches[1].away_line.points",
        "turns[3].matches[0].scrum.{home}.before",
        "turns[1].matches[0].scrum.{away}.after",
        "groups.A[0].points_for",
        "groups.B[3].league_points",
    ],
)
def test_a_changed_line_balance_or_table_row_is_named(path: str) -> None:
    match = _get(path.split(".scrum")[0]) if ".scrum" in path else None
    if match is not None:
        path = path.format(home=match["home"], away=match["away"])
    value = _get(path)
    assert _rejected(_tampered(path, value + 1)) == f"{path}: expected {value}, found {value + 1}"


def test_a_changed_winner_decision_or_champion_is_named() -> None:
    final = RECORD["turns"][4]["matches"][0]
    loser = final["away"] if final["winner"] == final["home"] else final["home"]
    assert _rejected(_tampered("turns[4].matches[0].winner", loser)).startswith(
        "turns[4].matches[0].winner: expected"
    )
    assert _rejected(_tampered("turns[4].matches[0].decided_by", "lots")).startswith(
        "turns[4].matches[0].decided_by: expected"
    )
    assert (
        _rejected(_tampered("champion", loser)) == f'champion: expected "{final["winner"]}", found "{loser}"'
    )


def test_r11_a_changed_pairing_is_named() -> None:
    """R11: the knockout pairing follows from the final tables."""
    semi = copy.deepcopy(RECORD)
    m0, m1 = semi["turns"][3]["matches"]
    m0["away"], m1["away"] = m1["away"], m0["away"]
    m0["away_order"], m1["away_order"] = m1["away_order"], m0["away_order"]
    assert "turns[3].matches[0].away: expected" in _rejected(semi)
    assert "R11 pairing" in _rejected(semi)


def test_r14_a_wrong_seed_or_an_early_seed_is_refused() -> None:
    """R14: the seed must hash to the published commitment, and stays secret until the game ends."""
    assert _rejected(_tampered("seed", "11" * 32)).startswith("seed: expected a seed whose SHA-256 is")
    early = copy.deepcopy(UNFINISHED)
    early["seed"] = SEED
    assert "R14" in _rejected(early)


def test_r14_a_game_ended_early_is_verified_dice_and_all() -> None:
    """A game its organiser ended after turn 4: the seed is revealed and every die thrown is checked."""
    ended = to_record(bot_game(make_setup(4), turns=4), seed=SEED, ended_early=True)
    report = verify_record(ended)
    assert report.dice_checked and not report.finished and report.champion is None
    assert report.turns == 4 and report.dice == _dice_in(ended)
    assert "its organiser ended the game after turn 4, so it has no champion; the group draw was not redone" in report.summary()
    path = "turns[2].matches[0].home_dice.force[0]"
    die = _get(path, ended)
    assert _rejected(_tampered(path, 1 if die != 1 else 2, ended)).startswith(f"{path}: expected {die}")
    hidden = copy.deepcopy(ended)
    hidden["seed"] = None
    assert _rejected(hidden).startswith('seed: expected the game\'s seed, found null (R14: a game that ended early')
    # Without the mark, a seed in an unfinished record is still an early seed.
    unmarked = copy.deepcopy(ended)
    del unmarked["ended_early"]
    assert _rejected(unmarked).startswith("turns: expected all 5 turns, as the record reveals its seed, found 4 turns")
    # A finished record with its last turn cut off says as much.
    cut = copy.deepcopy(RECORD)
    del cut["turns"][-1]
    assert _rejected(cut).startswith("turns: expected all 5 turns") and '"ended_early": true' in _rejected(cut)


def test_r14_a_finished_record_without_its_seed_is_refused() -> None:
    """The seed is revealed when the game ends: a finished record whose seed was taken out (null)
    would otherwise pass as consistent, its dice never checked."""
    hidden = copy.deepcopy(RECORD)
    hidden["seed"] = None
    assert _rejected(hidden).startswith("seed: expected the game's seed, found null (R14: a finished game reveals its seed")
    assert verify_record(UNFINISHED).summary().endswith("not finished (seed not revealed), so the dice themselves could not be checked")


def test_r13_only_a_managed_team_misses_an_order_and_its_autopilot_plays_it() -> None:
    """A missed order names the bot that played it; a house team (R12) has no order to miss."""
    typed = to_record(ordered_game(make_setup(4), zero_orders), seed=SEED)
    verify_record(typed)
    path = "turns[0].matches[0].home_order"
    assert _get(path, typed) == {"force": 0, "flair": 0, "missed": False, "autopilot": None}
    message = _rejected(_tampered(f"{path}.missed", True, typed))
    assert message.startswith(f"{path}.autopilot: expected the bot that played the missed order, found null")
    housed = to_record(bot_game(make_setup(9), turns=1))
    house = {t["id"] for t in housed["teams"] if t["manager"] is None}
    index = next(i for i, m in enumerate(housed["turns"][0]["matches"]) if m["home"] in house)
    path = f"turns[0].matches[{index}].home_order.missed"
    assert _get(path, housed) is False
    assert _rejected(_tampered(path, True, housed)).startswith(f"{path}: expected false, found true (R12")


def test_r12_a_house_teams_order_names_its_bot() -> None:
    """A house team is played by its bot (R12), so its order names the bot and verification can
    play it again. An order for it that names no bot was accepted: whoever runs the server (who
    knows the seed, so can throw the dice for any order) could have house teams throw their
    matches, and the record still verified."""
    housed = to_record(bot_game(make_setup(9), turns=1))
    house = {t["id"] for t in housed["teams"] if t["manager"] is None}
    index = next(i for i, m in enumerate(housed["turns"][0]["matches"]) if m["home"] in house)
    path = f"turns[0].matches[{index}].home_order.autopilot"
    assert _get(path, housed) is not None
    message = _rejected(_tampered(path, None, housed))
    assert message.startswith(f"{path}: expected the bot that plays the house team, found null (R12")

    # The same with the dice thrown for the other order, as a server could: refused all the same.
    def nothing_for_house_teams(game: Any, team: str) -> Order:
        return Order(0, 0) if game.setup.team(team).manager is None else Order(10, 9)

    forged = to_record(ordered_game(make_setup(9), nothing_for_house_teams), seed=SEED)
    assert "expected the bot that plays the house team, found null (R12" in _rejected(forged)


def test_turns_beyond_the_final_are_refused() -> None:
    longer = copy.deepcopy(RECORD)
    longer["turns"].append(copy.deepcopy(longer["turns"][-1]))
    assert _rejected(longer).startswith("turns[5]: expected no turn 6")


def test_unfinished_records_still_catch_lines_that_do_not_follow_from_their_dice() -> None:
    """Without the seed the dice are taken as given, but everything that follows from them is checked."""
    path = "turns[0].matches[1].home_dice.force[0]"
    die = _get(path, UNFINISHED)
    changed = 1 if die in (3, 5) else 5
    message = _rejected(_tampered(path, changed, UNFINISHED))
    assert message.startswith("turns[0].matches[1].home_line.")


def test_r10_changed_lots_are_refused() -> None:
    """R10: lots are reproducible and verifiable."""
    record = to_record(ordered_game(make_setup(4), zero_orders), seed=SEED)
    verify_record(record)
    entry = record["turns"][4]["lots"][0]
    team, face = entry["throws"][0][0]
    other = face % 6 + 1
    with pytest.raises(RecordError):
        verify_record(_tampered("turns[4].lots[0].throws[0][0]", [team, other], record))
    dropped = copy.deepcopy(record)
    dropped["turns"][4]["lots"] = []
    with pytest.raises(VerificationError):
        verify_record(dropped)


def _harmless_die(record: dict[str, Any]) -> str:
    """A FORCE die showing 1: changed to 2 it scores nothing either, so only the dice themselves tell."""
    for t, turn in enumerate(record["turns"]):
        for j, m in enumerate(turn["matches"]):
            for k, face in enumerate(m["home_dice"]["force"]):
                if face == 1:
                    return f"turns[{t}].matches[{j}].home_dice.force[{k}]"
    raise AssertionError("no FORCE die showing 1")


def test_a_secret_seed_checks_the_dice_of_a_game_in_progress_without_revealing_it() -> None:
    """Whoever keeps a game's seed (a saved game in progress) can have every die of its unfinished
    record thrown again: a die changed where it scores nothing passes a consistency check but not this,
    and the seed is neither revealed in the replay nor shown in any message."""
    path = _harmless_die(UNFINISHED)
    edited = _tampered(path, 2, UNFINISHED)
    replay_record(edited, check_dice=True)  # the recorded dice are taken as given
    game, revealed = replay_record(UNFINISHED, check_dice=True, secret_seed=SEED)
    assert revealed is None and to_record(game) == UNFINISHED
    with pytest.raises(VerificationError) as info:
        replay_record(edited, check_dice=True, secret_seed=SEED)
    assert str(info.value) == f"{path}: expected 1, found 2"
    with pytest.raises(VerificationError) as info:
        replay_record(UNFINISHED, check_dice=True, secret_seed=OTHER_SEED)
    assert str(info.value).startswith("seed_sha256: expected the SHA-256 of the game's secret seed, found ")
    assert OTHER_SEED not in str(info.value) and SEED not in str(info.value)


HUGE = 10**5000  # past the 4,300 digits Python will turn into text


@pytest.mark.parametrize(
    "path",
    [
        "version",
        "turns[0].number",
        "turns[0].stage",
        "turns[0].matches[0].home_order.force",
        "turns[0].matches[0].home_dice.force[0]",
        "turns[0].matches[0].home_line.tries",
        "turns[0].matches[0].scrum.fiji.after",
        "groups.A[0].points",
        "ended_early",
    ],
)
def test_a_huge_number_anywhere_is_named_by_its_path_not_a_crash(path: str) -> None:
    message = _rejected(_tampered(path, HUGE))
    assert message == f"{path}: a whole number of about 5001 digits, far past any count in a game record"


def test_a_field_nested_past_any_record_is_refused_not_a_recursion_crash() -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    message = _rejected(_tampered("turns[0].matches[0].summary", deep))
    assert message.startswith("turns[0].matches[0].summary[0]")
    assert "nested 33 levels deep; no field of a record is deeper than 32" in message


def test_a_huge_wrong_value_is_quoted_short() -> None:
    message = _rejected(_tampered("turns[0].matches[0].summary", list(range(1_000_000))))
    assert message.startswith("turns[0].matches[0].summary: expected ")
    assert len(message) < 600
    assert "characters in all)" in message


@pytest.mark.parametrize("path", ["turns[0].matches[0].summary", "turns[0].stage", "champion"])
def test_a_huge_wrong_text_with_spaces_is_quoted_short(path: str) -> None:
    # Text with spaces once passed for the program's own words and was printed whole.
    message = _rejected(_tampered(path, "x " * 100_000))
    assert message.startswith(f'{path}: expected {json.dumps(_get(path))}, found "x x x ')
    assert len(message) < 600
    assert "characters in all)" in message


def test_a_difference_in_spaces_is_visible() -> None:
    summary = _get("turns[0].matches[0].summary")
    message = _rejected(_tampered("turns[0].matches[0].summary", summary + " "))
    assert message == f'turns[0].matches[0].summary: expected "{summary}", found "{summary} "'


def test_a_look_alike_of_a_plain_id_is_shown_escaped() -> None:
    # A Cyrillic "і" for the Latin "i": printed as it is, the two sides of the message would look the same.
    champion = _get("champion")
    assert "i" in champion or "a" in champion
    fake = champion.replace("i", "\u0456", 1) if "i" in champion else champion.replace("a", "\u0430", 1)
    message = _rejected(_tampered("champion", fake))
    assert message == f"champion: expected {json.dumps(champion)}, found {json.dumps(fake)}"
    assert "\\u04" in message
    # The other way round too: the team list holds the look-alike, which the players' lists are checked against.
    data = copy.deepcopy(RECORD)
    team = next(t for t in data["teams"] if t["id"] == champion)
    team["id"] = fake
    assert f"expected {json.dumps(fake)}, found {json.dumps(champion)}" in _rejected(data)


def test_a_huge_unknown_key_is_named_short() -> None:
    data = copy.deepcopy(RECORD)
    data["x" * 100_000] = 1
    message = _rejected(data)
    assert message == "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (100,000 characters): expected no such field, found 1"


FLAG = "\U0001f1eb\U0001f1ef"  # Fiji's: two code points, one character as shown


def test_a_long_key_of_flags_is_quoted_by_characters_as_shown_never_half_a_flag() -> None:
    """It was cut at 40 code points: after a leading letter, the 20th flag was cut in half."""
    data = copy.deepcopy(RECORD)
    data["a" + FLAG * 45] = 1
    message = _rejected(data)
    assert message == f"{'a' + FLAG * 39!r}... (46 characters): expected no such field, found 1"


def test_a_long_wrong_value_of_flags_is_cut_between_flags() -> None:
    # JSON of ["a" and 300 flags "]: 305 characters as shown, of which the first 200 are quoted.
    message = _rejected(_tampered("turns[0].matches[0].summary", ["a" + FLAG * 300]))
    assert message.endswith(f'found ["a{FLAG * 197}... (305 characters in all)')


def test_text_no_utf8_file_can_hold_is_named() -> None:
    message = _rejected(_tampered("players[0].name", "Pl\ud800yer"))
    assert message == (
        "players[0].name: not valid Unicode text: surrogates not allowed at character 3; no UTF-8 file can hold it"
    )


def test_a_key_given_twice_is_refused_as_ambiguous() -> None:
    # Readers differ on which of two equal keys counts: the record must say one thing.
    text = dumps(RECORD).replace('"champion": ', '"champion": "fiji", "champion": ', 1)
    with pytest.raises(RecordError, match=r'^the key "champion" appears twice in one object'):
        loads(text)


def test_a_key_given_twice_deep_in_the_record_is_refused_with_the_path_of_its_object() -> None:
    """It said "the key "home" appears twice in one object" with no path: one object among hundreds."""
    text = dumps(RECORD).replace('"orders_digest": ', '"orders_digest": "x", "orders_digest": ', 1)
    with pytest.raises(RecordError, match=r'^turns\[0\]: the key "orders_digest" appears twice in one object'):
        loads(text)


def test_non_utf8_bytes_are_not_json() -> None:
    with pytest.raises(RecordError, match=r"^not JSON: 'utf-8' codec can't decode byte 0xff"):
        loads(dumps(RECORD).encode().replace(b"Player 1", b"Player \xff"))


def test_a_number_too_long_for_python_is_named_in_the_text_too() -> None:
    # Python's own refusal past 4,300 digits advised sys.set_int_max_str_digits.
    text = dumps(RECORD).replace('"version": 1', '"version": 1' + "0" * 5000, 1)
    with pytest.raises(RecordError) as info:
        loads(text)
    assert str(info.value) == "a number of 5,001 digits, far past any count in a game record"
