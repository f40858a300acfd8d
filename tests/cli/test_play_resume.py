"""``sevens play`` keeps a game in progress after every resolved turn, and ``--resume FILE`` carries
it on: the same draw, dice, bots and people, so the record at the end is the one the game would have
had without the interruption, byte for byte."""

from __future__ import annotations

import errno
import json
import os
import re
import shlex
import signal
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from sevens.cli import play as play_cli
from sevens.cli.main import app
from sevens.rules import seed_commitment

runner = CliRunner()

SEED = "resume"
SECRET = play_cli._dice_seed(SEED).hex()  # what the saved file keeps and nothing may print before the end
GAME = ["play", "--players", "4", "--teams", "16", "--seed", SEED]  # one person with 4 teams, 6 turns
ORDER = "10 6\ny\n"  # 16 points a match: every team can afford it in all 6 turns
OTHER = "30 3\ny\n"  # typed in a turn that is interrupted: never resolved, so never kept


def _play(args: list[str], answers: str = "") -> Result:
    return runner.invoke(app, args, input=answers)


def _prompts_per_turn(output: str) -> list[int]:
    """How many orders the person typed in each turn of a game's output."""
    return [part.count("Order for ") for part in re.split(r"─ Turn \d+: ", output)[1:]]


def _saved(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.fixture(scope="module")
def whole_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, list[int]]:
    """The game played without interruption: its record and the orders typed in each turn."""
    folder = tmp_path_factory.mktemp("whole")
    record = folder / "game.json"
    result = _play([*GAME, "--record", str(record), "--save", str(folder / "kept.json")], ORDER * 40)
    assert result.exit_code == 0, result.output
    assert not (folder / "kept.json").exists()  # removed once the game is over
    prompts = _prompts_per_turn(result.output)
    assert len(prompts) == 6 and sum(prompts) > 6
    return record.read_bytes(), prompts


def test_a_game_interrupted_at_several_turns_and_carried_on_ends_with_the_same_record(
    tmp_path: Path, whole_game: tuple[bytes, list[int]]
) -> None:
    """Interrupted in turn 1, then in two later turns where the person has orders to type (input that
    ends, as a closed terminal does), each time after typing another order for one team: each
    interruption says where the game is kept and the command that carries it on, the file holds the
    turns resolved so far and nothing of the turn interrupted, and the final record is the
    uninterrupted game's, byte for byte; it verifies."""
    whole, prompts = whole_game
    record, kept = tmp_path / "game.json", tmp_path / "kept.json"
    # Turns where the person has two orders or more to type, so that one is sent and the turn still waits.
    later = [k for k in range(2, 6) if prompts[k] > 1]
    stops = [0, later[0], later[-1]]  # interrupted in turn 1 and in the first and last such later turns
    assert len(set(stops)) == 3, prompts
    result = _play([*GAME, "--record", str(record), "--save", str(kept)], OTHER)  # turn 1, one order typed
    done = 0
    for n, stop in enumerate(stops):
        assert result.exit_code == 1, result.output
        stood = "after the draw" if stop == 0 else f"after turn {stop}"
        assert result.stderr == (
            f"error: standard input ended (no orders were left on it) before the game did; the game is kept in "
            f"{kept} as it stood {stood} (orders typed for turn {stop + 1} were not kept and are typed again): carry "
            f"it on, giving it the orders from turn {stop + 1} on, with: sevens play --resume {kept}\n"
        )
        assert SECRET not in result.output
        assert not record.exists()
        data = _saved(kept)
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
        assert data["seed"] == SECRET and data["game"]["seed"] is None
        assert data["game"]["turns"] == json.loads(whole)["turns"][:stop]
        # Carried on: the orders of the turns up to the next stop, then one more typed and interrupted.
        done = stop
        upto = stops[n + 1] if n + 1 < len(stops) else 6
        answers = ORDER * sum(prompts[done:upto]) + (OTHER if n + 1 < len(stops) else "")
        result = _play(["play", "--resume", str(kept)], answers)
        assert f"carried on {stood}" in result.output
    assert result.exit_code == 0, result.output
    assert record.read_bytes() == whole
    assert not kept.exists()
    checked = _play(["verify", str(record)])
    assert checked.exit_code == 0 and "ok: 6 turns" in checked.output


def test_without_save_a_game_with_people_is_kept_in_the_state_folder(tmp_path: Path) -> None:
    """No --save: a new file in $XDG_STATE_HOME/sevens, readable by its owner only, named in the message."""
    state = Path(os.environ["XDG_STATE_HOME"]) / "sevens"
    result = _play(GAME, ORDER)
    assert result.exit_code == 1
    [kept] = state.iterdir()
    assert re.fullmatch(r"game-\d{8}-\d{6}\.json", kept.name)
    assert f"The game is kept in {kept} after every turn" in " ".join(result.output.split())
    assert result.stderr.endswith(f"with: sevens play --resume {kept}\n")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and stat.S_IMODE(state.stat().st_mode) == 0o700
    again = _play(GAME, ORDER)  # a second game the same second takes a name of its own
    assert again.exit_code == 1 and len(list(state.iterdir())) == 2


def test_bots_only_games_are_kept_only_when_asked(tmp_path: Path) -> None:
    state = Path(os.environ["XDG_STATE_HOME"]) / "sevens"
    assert _play(["play", "--auto", "--seed", "a"]).exit_code == 0
    assert not state.exists()
    nobody = _play(["play", "--players", "4", "--seed", "b", "--no-save"], "")
    assert nobody.exit_code == 1 and not state.exists()
    assert "before the game did; with --no-save it was kept nowhere, so it is lost" in nobody.stderr


def test_orders_piped_in_that_run_out_leave_the_game_whole_and_the_message_says_how_to_go_on(
    tmp_path: Path, whole_game: tuple[bytes, list[int]]
) -> None:
    """Orders piped in (a real pipe, as `sevens play < orders.txt` or `... | sevens play`) that run out
    in turn 2 were said to have interrupted the game: the message now says standard input ended, where
    the game is kept and the command that carries it on from turn 2's orders, status 1. The file then
    holds turn 1 whole, nothing is left beside it (no temporary file, no lock), and that command, the
    rest of the orders piped in, ends with the record of the game played without a stop."""
    whole, prompts = whole_game
    kept, record = tmp_path / "kept.json", tmp_path / "game.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-m", "sevens"]
    first = subprocess.run(
        [*command, *GAME, "--save", str(kept), "--record", str(record)], input=ORDER * prompts[0] + OTHER,
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert first.returncode == 1, first.stderr
    assert first.stderr == (
        f"error: standard input ended (no orders were left on it) before the game did; the game is kept in "
        f"{kept} as it stood after turn 1 (orders typed for turn 2 were not kept and are typed again): carry it on, "
        f"giving it the orders from turn 2 on, with: sevens play --resume {kept}\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [kept.name]
    saved = play_cli.read_saved(kept.read_bytes())
    assert len(saved.game.turns) == 1 and saved.record == record
    rest = subprocess.run(
        [*command, "play", "--resume", str(kept)], input=ORDER * sum(prompts[1:]), capture_output=True, text=True,
        env=env, timeout=300,
    )
    assert rest.returncode == 0, rest.stderr
    assert record.read_bytes() == whole
    assert sorted(p.name for p in tmp_path.iterdir()) == [record.name]


def _interrupted_after_turn_1(tmp_path: Path, *extra: str) -> Path:
    kept = tmp_path / "kept.json"
    result = _play([*GAME, "--save", str(kept), *extra], ORDER * 4 + OTHER)
    assert result.exit_code == 1 and "as it stood after turn 1" in result.stderr, result.output
    bots = extra[extra.index("--bots") + 1] if "--bots" in extra else None
    if bots is not None and ":" in bots:  # the command that carries it on names those bots again
        assert result.stderr.endswith(f"sevens play --resume {kept} --bots {bots}\n"), result.stderr
    return kept


def _refused(kept: Path, args: list[str] | None = None) -> str:
    """Carrying ``kept`` on fails before any turn with exit 2 and leaves the file as it was."""
    before = kept.read_bytes()
    result = _play(["play", "--resume", str(kept), *(args or [])], ORDER * 20)
    assert result.exit_code == 2, result.output
    assert "Turn 2" not in result.output
    assert kept.read_bytes() == before
    assert SECRET not in result.output
    return result.stderr


def _edit(kept: Path, change: Any) -> None:
    data = _saved(kept)
    change(data)
    kept.write_text(json.dumps(data, indent=2))


def _first_typed_order(data: dict[str, Any]) -> dict[str, Any]:
    match = data["game"]["turns"][0]["matches"][0]
    side = "home" if match["home_order"]["autopilot"] is None else "away"
    order: dict[str, Any] = match[f"{side}_order"]
    return order


def _harmless_die(data: dict[str, Any]) -> list[int]:
    """FORCE dice whose first shows 1: made a 2 it scores nothing either, so only the seed tells."""
    for match in data["game"]["turns"][0]["matches"]:
        force: list[int] = match["home_dice"]["force"]
        if force[:1] == [1]:
            return force
    raise AssertionError("no home FORCE die showing 1 first in turn 1")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (None, "it is not a whole saved game: the file ends in the middle of its JSON (line "),
        (lambda d: d.update(version=2), "it was saved by a version of sevens that writes saved games of version 2; "
                                        "this one reads version 1"),
        (lambda d: d.update(seed="ab" * 32), "its seed does not match the game's published commitment"),
        (lambda d: d.update(seed="xyz"), "its 'seed' is damaged: R14: a game seed is 32 bytes"),
        (lambda d: d.pop("humans"), "the field 'humans' is missing"),
        (lambda d: d.update(humans=2), "the field 'humans' does not fit the game"),
        (lambda d: _first_typed_order(d).update(force=_first_typed_order(d)["force"] + 1),
         "its game does not check out: at game.turns[0].orders_digest: expected"),
        (lambda d: _harmless_die(d).__setitem__(0, 2),
         "its game does not check out: at game.turns[0].matches[5].home_dice.force[0]: expected 1, found 2"),
        (lambda d: d["game"].update(seed=d["seed"]), "the record in it reveals the game's seed"),
        (lambda d: d["game"].update(seed_sha256=seed_commitment("cd" * 32)),
         "its seed does not match the game's published commitment"),
    ],
    ids=["truncated", "version", "other-seed", "bad-seed", "missing", "humans", "order", "dice", "revealed", "commitment"],
)
def test_a_damaged_or_edited_file_is_refused_and_left_as_it_is(tmp_path: Path, change: Any, says: str) -> None:
    kept = _interrupted_after_turn_1(tmp_path)
    if change is None:
        kept.write_bytes(kept.read_bytes()[: len(kept.read_bytes()) // 2])
    else:
        _edit(kept, change)
    message = _refused(kept)
    assert message.startswith(f"error: cannot carry on the game in {kept} (the file is left as it is): {says}"), message


@pytest.mark.parametrize(("key", "where"), [
    ("seed", "at its top level"), ("humans", "at its top level"), ("orders_digest", "in game.turns[0]"),
])
def test_a_key_named_twice_is_said_to_be_an_edit_with_where_and_what_to_do(tmp_path: Path, key: str, where: str) -> None:
    """A saved game naming a key twice (whole JSON, so not cut short) said "it is not a whole saved game: the
    key "humans" appears twice in one object; a record names each field once (a file cut short, or not a saved
    game at all)": neither where the key is, nor that the file was edited, nor what to do. The seed's value is
    never shown (_refused checks)."""
    kept = _interrupted_after_turn_1(tmp_path)
    text = kept.read_text()
    line = re.search(rf'^ *"{key}": .*\n', text, re.M)
    assert line
    kept.write_text(text[:line.end()] + line.group() + text[line.end():])
    assert _refused(kept) == (
        f"error: cannot carry on the game in {kept} (the file is left as it is): it names the key \"{key}\" twice in "
        f"one object ({where}), which sevens play never writes: the file was edited by hand or written by something "
        "else; remove one of the two, or start a new game\n"
    )


@pytest.mark.parametrize(("text", "says"), [
    ("[1]", "a game record is a JSON object, this is a list"),
    ('{"format": 123456789012345678901234}', "a number of 24 digits, far past any count in a game record"),
])
def test_whole_json_that_is_no_saved_game_is_not_called_cut_short(tmp_path: Path, text: str, says: str) -> None:
    """Whole JSON that the record reader refuses said "(a file cut short, or not a saved game at all)",
    though the file was whole: it is another kind of file, or edited."""
    kept = tmp_path / "other.json"
    kept.write_text(text)
    assert _refused(kept) == (
        f"error: cannot carry on the game in {kept} (the file is left as it is): it is not a saved game as sevens "
        f"play writes one: {says}; give the file the game said it was kept in, or start a new game\n"
    )


def test_a_finished_game_or_a_record_is_not_carried_on(tmp_path: Path, whole_game: tuple[bytes, list[int]]) -> None:
    record = tmp_path / "record.json"
    record.write_bytes(whole_game[0])
    assert "it is a game record (what --record writes), not a saved game in progress" in _refused(record)
    kept = _interrupted_after_turn_1(tmp_path)
    _edit(kept, lambda d: d.update(game={**json.loads(whole_game[0]), "seed": None}))
    assert "it holds a finished game (champion: " in _refused(kept)
    missing = _play(["play", "--resume", str(tmp_path / "nothing.json")])
    assert missing.exit_code == 2 and "no such file" in missing.stderr


@pytest.mark.parametrize("name", ["record.json", "moved record.json", "it's here.json"])
def test_a_record_given_to_resume_is_told_to_be_verified_by_the_name_it_was_given(
    tmp_path: Path, whole_game: tuple[bytes, list[int]], name: str
) -> None:
    """A record given to --resume (renamed or moved, so taken for the game in progress) said "check it
    with sevens verify FILE", leaving the reader to put in the name; the command now names the file,
    quoted where a shell would split it, and runs as it is pasted."""
    record = tmp_path / name
    record.write_bytes(whole_game[0])
    said = _refused(record)
    command = f"sevens verify {shlex.quote(str(record))}"
    assert said.endswith(f"a record is not carried on; check it with: {command}\n"), said
    checked = runner.invoke(app, shlex.split(command)[1:])
    assert checked.exit_code == 0, checked.output


def test_a_saved_game_that_cannot_be_read_is_named_with_what_to_do(tmp_path: Path) -> None:
    """--resume reads its file as table and verify read theirs (sevens.cli.inputs), saying what to do."""
    missing = _play(["play", "--resume", str(tmp_path / "nothing.json")])
    assert missing.stderr == f"error: no such file: --resume {tmp_path / 'nothing.json'}; give the file the interrupted game named\n"
    folder = _play(["play", "--resume", str(tmp_path)])
    assert folder.stderr == f"error: --resume {tmp_path} is a folder; give the file the interrupted game named\n"
    assert missing.exit_code == folder.exit_code == 2


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"", "the file is empty; is it the right file, and was it saved?"),
        (b"[" * 100_000 + b"]" * 100_000, "its JSON is nested too deeply"),
        (b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "its JSON is nested too deeply"),
        (b"\xff\xfe{", "the file is not text (not UTF-8), so it is not JSON"),
    ],
    ids=["empty", "deep-list", "deep-object", "binary"],
)
def test_a_file_that_is_not_json_is_named_as_table_and_verify_name_it(tmp_path: Path, content: bytes, says: str) -> None:
    """A deeply nested file was a RecursionError traceback, and an empty one 'not JSON: Expecting value:
    line 1 column 1 (char 0)'."""
    kept = tmp_path / "kept.json"
    kept.write_bytes(content)
    result = _play(["play", "--resume", str(kept)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: cannot carry on the game in {kept} (the file is left as it is): it is "
                                    f"not a whole saved game: {says}"), result.stderr
    assert result.stderr.count("\n") == 1 and kept.read_bytes() == content


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--players", "5"], "--players 5 (the saved game has 4)"),
        (["--teams", "8"], "--teams 8 (the saved game has 16)"),
        (["--per-player", "2"], "--per-player 2 (the saved game has 4)"),
        (["--humans", "2"], "--humans 2 (the saved game has 1)"),
        (["--auto"], "--auto (in the saved game 1 person types their orders)"),  # was '1 of the players type'
        (["--names", "Zed"], "--names Zed (the saved game's people: Player 1)"),
        (["--seed", "other"], "--seed (not the seed text the saved game was started with)"),
        (["--bots", "even"], "--bots even (the saved game's bots: equilibrium for "),
    ],
)
def test_options_that_contradict_the_saved_game_are_refused(tmp_path: Path, args: list[str], says: str) -> None:
    kept = _interrupted_after_turn_1(tmp_path)
    message = _refused(kept, args)
    assert message.startswith(f"error: cannot carry on the game in {kept} with {says}"), message
    assert "leave those options out" in message


def test_options_that_agree_with_the_saved_game_are_taken(tmp_path: Path) -> None:
    kept = _interrupted_after_turn_1(tmp_path)
    result = _play(
        ["play", "--resume", str(kept), "--players", "4", "--teams", "16", "--seed", SEED, "--names", "Player 1",
         "--bots", "equilibrium"],
        ORDER * 20,
    )
    assert result.exit_code == 0, result.output
    assert "carried on after turn 1" in result.output and "Champion:" in result.output


def test_headings_too_long_for_a_narrow_terminal_are_shown_whole(tmp_path: Path) -> None:
    """At 60 columns 'Sevens: 16 teams, 4 players, 4 teams each, carried on after turn 1' does not
    fit inside a rule, which would cut it to '... carried on a…': it goes under a bare rule, whole."""
    kept = _interrupted_after_turn_1(tmp_path)
    result = runner.invoke(app, ["play", "--resume", str(kept)], input=OTHER, env={"COLUMNS": "60"})
    said = " ".join(result.output.split())
    assert "Sevens: 16 teams, 4 players, 4 teams each, carried on after turn 1" in said
    assert "…" not in result.output


@pytest.mark.parametrize("flag", [["--save", "other.json"], ["--no-save"]])
def test_resume_keeps_the_game_in_its_own_file(tmp_path: Path, flag: list[str]) -> None:
    kept = _interrupted_after_turn_1(tmp_path)
    assert _refused(kept, flag) == f"error: --resume {kept} keeps the game in that same file: drop {flag[0]}\n"


def test_the_record_file_goes_with_the_game_and_is_checked_again(tmp_path: Path, whole_game: tuple[bytes, list[int]]) -> None:
    """--record given at the start is written at the end of the game carried on, from any folder; a
    file that appeared there meanwhile is refused before the game goes on (no --overwrite), and
    --record on carrying on chooses another file."""
    record = tmp_path / "game.json"
    kept = _interrupted_after_turn_1(tmp_path, "--record", str(record))
    record.write_text("someone else's\n")
    assert _refused(kept).startswith(f"error: --record {record} already exists and would be replaced")
    assert record.read_text() == "someone else's\n"
    elsewhere = tmp_path / "elsewhere.json"
    result = _play(["play", "--resume", str(kept), "--record", str(elsewhere)], ORDER * 20)
    assert result.exit_code == 0, result.output
    assert elsewhere.read_bytes() == whole_game[0] and record.read_text() == "someone else's\n"


def test_an_existing_save_file_is_not_replaced_without_overwrite(tmp_path: Path) -> None:
    mine = tmp_path / "notes.json"
    mine.write_text("mine\n")
    result = _play([*GAME, "--save", str(mine)], ORDER)
    assert result.exit_code == 2 and "The draw" not in result.output
    assert result.stderr == (
        f"error: --save {mine} already exists and would be replaced; choose another file name, or pass --overwrite "
        "to replace it\n"
    )
    assert mine.read_text() == "mine\n"
    kept = _interrupted_after_turn_1(tmp_path)
    before = kept.read_bytes()
    result = _play([*GAME, "--save", str(kept)], ORDER)
    assert result.exit_code == 2
    assert f"already holds a saved game, which would be replaced: carry it on with sevens play --resume {kept}" in result.stderr
    assert kept.read_bytes() == before
    same = _play([*GAME, "--save", str(tmp_path / "x.json"), "--record", str(tmp_path / "x.json")])
    assert same.exit_code == 2 and "both name" in same.stderr
    # The same file spelt otherwise, or through a link: the game was played to the end, its saved file
    # then removed, and the record put in the temporary folder as if another program had taken its name.
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.json").symlink_to(tmp_path / "y.json")
    for save, record in (
        (tmp_path / "sub" / ".." / "y.json", tmp_path / "y.json"),
        (tmp_path / "link.json", tmp_path / "y.json"),
    ):
        same = _play([*GAME, "--save", str(save), "--record", str(record)], ORDER)
        assert same.exit_code == 2 and "The draw" not in same.output
        assert same.stderr == (
            f"error: --save and --record name the same file ({save}, {record}): the game in progress and its record "
            "need a file each\n"
        )
    kept_there = _play(["play", "--resume", str(kept), "--record", str(tmp_path / "sub" / ".." / kept.name)], ORDER)
    assert kept_there.exit_code == 2 and "is the saved game itself" in kept_there.stderr
    assert kept.read_bytes() == before


def test_a_turn_that_cannot_be_kept_stops_the_game_before_its_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whole_game: tuple[bytes, list[int]]
) -> None:
    """The disk is full after turn 2: the game stops before showing that turn's results (a game
    carried on never plays again a turn whose results were seen), the file holds turn 1, and the
    game carried on from it ends as the uninterrupted one."""
    kept, record = tmp_path / "kept.json", tmp_path / "game.json"
    real = play_cli.write_text
    writes: list[Path] = []

    def full_at_the_third(path: Path, text: str, **kwargs: Any) -> None:
        writes.append(path)
        if len(writes) == 3:  # the draw, turn 1, then turn 2
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real(path, text, **kwargs)

    monkeypatch.setattr(play_cli, "write_text", full_at_the_third)
    prompts = whole_game[1]
    result = _play([*GAME, "--save", str(kept), "--record", str(record)], ORDER * sum(prompts[:2]))
    monkeypatch.undo()
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"error: cannot keep the game in {kept} after turn 2: No space left on device; the game stopped before "
        "showing that turn's results, and the file holds it as it was before turn 2: make room and carry it on with: "
        f"sevens play --resume {kept} (turn 2's orders are typed again)\n"
    )
    assert "t2-m1 group" not in result.output and "t1-m1 group" in result.output
    assert len(_saved(kept)["game"]["turns"]) == 1
    again = _play(["play", "--resume", str(kept)], ORDER * sum(prompts[1:]))
    assert again.exit_code == 0, again.output
    assert record.read_bytes() == whole_game[0]


def test_a_bot_loaded_from_a_module_is_named_again_to_carry_on(tmp_path: Path) -> None:
    """A saved file never imports a module by itself: the game asks for its --bots again, the list that
    gives every team its bot again (not the names once each: 'X,equilibrium' would give other teams X)."""
    bots = "sevens.bots.strategies:EvenSpread,equilibrium,equilibrium"
    kept = _interrupted_after_turn_1(tmp_path, "--bots", bots)
    message = _refused(kept)
    assert "the bot 'sevens.bots.strategies:EvenSpread' that plays" in message and f"--bots {bots}\n" in message
    result = _play(["play", "--resume", str(kept), "--bots", bots], ORDER * 20)
    assert result.exit_code == 0, result.output


def test_a_bot_whose_order_raises_as_the_turns_played_are_checked_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checking the saved turns plays each bot's order again: one raising there is named with where,
    and the file left as it is, not a traceback."""
    (tmp_path / "stops_on_resume.py").write_text(
        "import os\n\nfrom sevens.bots import EvenSpread\n\n\nclass Mine(EvenSpread):\n"
        "    def order(self, view, rng):\n"
        "        if os.path.exists('stop-playing'):\n"
        "            raise RuntimeError('asked to stop')\n"
        "        return EvenSpread.order(self, view, rng)\n"
    )
    monkeypatch.chdir(tmp_path)
    bots = "stops_on_resume:Mine"
    kept = _interrupted_after_turn_1(tmp_path, "--bots", bots)
    (tmp_path / "stop-playing").touch()
    message = " ".join(_refused(kept, ["--bots", bots]).split())
    # Named as the game names the team everywhere else ("spain" before).
    assert "the bot 'stops_on_resume:Mine' fails to play: its order for Spain in turn 1 raised " in message, message
    assert f"in turn 1 raised RuntimeError: asked to stop at {tmp_path / 'stops_on_resume.py'}, line 9, as the turns " \
           "played so far were checked again; the game cannot go on without it" in message


def test_verify_points_a_saved_game_to_resume(tmp_path: Path) -> None:
    """The command named a file with a space unquoted (two words when pasted), and one piped in as
    '--resume -', which play refuses."""
    kept = _interrupted_after_turn_1(tmp_path).rename(tmp_path / "kept game.json")
    result = _play(["verify", str(kept)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {kept}: a game in progress kept by sevens play, not a game record: carry it on with: sevens play "
        f"--resume '{kept}'; the record it writes at the end (--record) is what verifies\n"
    )
    assert SECRET not in result.output
    piped = runner.invoke(app, ["verify", "-"], input=kept.read_bytes())
    assert piped.exit_code == 2
    assert piped.stderr == (
        "error: standard input: a game in progress kept by sevens play, not a game record: save it to a file and "
        "carry it on with sevens play --resume FILE; the record it writes at the end (--record) is what verifies\n"
    )
    assert SECRET not in piped.output


def test_ctrl_c_once_the_final_is_shown_leaves_no_final_to_play_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C pressed as the champion is shown: the final's results were seen, so the file must not
    carry the game on from before the final (its orders typed again, knowing the dice of the first
    try); the game is over and the message says so, with no command to carry it on."""
    kept, record = tmp_path / "kept.json", tmp_path / "game.json"

    def pressed(*args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(play_cli, "_print_how_far", pressed)  # the first thing printed after the champion
    result = _play([*GAME, "--save", str(kept), "--record", str(record)], ORDER * 40)
    assert result.exit_code == 130, result.output
    assert "Champion: " in result.output
    assert result.stderr == (
        f"error: the game was interrupted after its final, whose results were shown: it is over, so {kept} was "
        f"removed; {record} was not written (it is written last)\n"
    )
    assert not kept.exists() and not record.exists()


def test_a_record_folder_that_is_gone_asks_for_another_record_file(tmp_path: Path, whole_game: tuple[bytes, list[int]]) -> None:
    """The file carried on on another machine, or the record's folder removed meanwhile: the message
    says the record file is the one the game was started with and how to choose another, which the
    person never typed in this command (it used to read as if --record had been given)."""
    folder = tmp_path / "records"
    folder.mkdir()
    record = folder / "game.json"
    kept = _interrupted_after_turn_1(tmp_path, "--record", str(record))
    folder.rmdir()
    assert _refused(kept) == (
        f"error: cannot carry on the game in {kept}: its record goes to {record} (the --record it was started with), "
        f"and the folder {folder} is not there; give --record FILE to write it elsewhere\n"
    )
    elsewhere = tmp_path / "elsewhere.json"
    result = _play(["play", "--resume", str(kept), "--record", str(elsewhere)], ORDER * 20)
    assert result.exit_code == 0, result.output
    assert elsewhere.read_bytes() == whole_game[0]


def test_a_record_file_given_to_carry_on_is_kept_with_the_game_at_once(
    tmp_path: Path, whole_game: tuple[bytes, list[int]]
) -> None:
    """--record given to --resume went into the file only with the next turn kept: stopped again before
    that, the game said to carry it on with --resume FILE alone, which then wrote no record at all."""
    kept = _interrupted_after_turn_1(tmp_path)
    record = tmp_path / "game.json"
    result = _play(["play", "--resume", str(kept), "--record", str(record)], OTHER)  # stopped in turn 2
    assert result.exit_code == 1 and result.stderr.endswith(f"with: sevens play --resume {kept}\n")
    assert _saved(kept)["record_file"] == str(record)
    result = _play(["play", "--resume", str(kept)], ORDER * 20)
    assert result.exit_code == 0, result.output
    assert record.read_bytes() == whole_game[0]


def test_a_saved_game_read_back_does_not_show_its_seed_when_printed(tmp_path: Path) -> None:
    """A SavedGame in a debugging print, a log line or an assertion's message shows no seed (R14)."""
    saved = play_cli.read_saved(_interrupted_after_turn_1(tmp_path).read_bytes())
    assert saved.seed.hex() == SECRET
    for shown in (repr(saved), str(saved)):
        assert repr(saved.seed) not in shown and SECRET not in shown, "the seed, as bytes or as text"


def test_ctrl_c_while_the_saved_game_is_checked_says_so_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during the half second in which --resume throws every die again: one line, exit 130,
    the file as it was, and no traceback."""
    kept = _interrupted_after_turn_1(tmp_path)
    before = kept.read_bytes()

    def pressed(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(play_cli, "read_saved", pressed)
    result = _play(["play", "--resume", str(kept)], ORDER * 20)
    assert result.exit_code == 130, result.output
    assert result.stderr == (
        f"error: interrupted while checking the game in {kept}; the file is left as it is: run the command again\n"
    )
    assert kept.read_bytes() == before


# Writes the saved game NAME as `sevens play` does, and is killed (kill -9) in the middle of it.
_KILLED_MID_WRITE = """
import sys, time
from pathlib import Path
from sevens.cli.files import replacing
kept = Path(sys.argv[1])
with replacing(kept, overwrite=True, mode=0o600) as part:
    part.write_bytes(kept.read_bytes()[:1000])  # as far as the write had gone
    print(part.name, flush=True)
    time.sleep(600)
"""


def test_a_write_killed_midway_leaves_a_file_the_next_resume_removes(tmp_path: Path) -> None:
    """Issue: `kill -9` while the game was kept left a hidden .kept-XXXXXXXX.tmp.json (mode 0600,
    part of the secret seed in it) beside the saved game, for good. A write's temporary file now
    names its process, and carrying the game on removes such a file of a process that is gone;
    a file of a process still running and a user's files named alike are left as they are."""
    kept = _interrupted_after_turn_1(tmp_path)
    before = kept.read_bytes()
    writer = subprocess.Popen([sys.executable, "-c", _KILLED_MID_WRITE, str(kept)], stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None
    leftover = tmp_path / writer.stdout.readline().strip()
    writer.kill()
    assert writer.wait() == -signal.SIGKILL
    assert leftover.name.startswith(".kept-") and stat.S_IMODE(leftover.stat().st_mode) == 0o600
    assert kept.read_bytes() == before  # the saved game itself is whole
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    mine = [tmp_path / ".kept-notes.tmp.json", tmp_path / ".kept-a1b2c3d4.tmp.json", tmp_path / ".kept.json.bak",
            tmp_path / f".kept-{os.getppid()}-a1b2c3d4.tmp.json",  # a running process's: perhaps writing it now
            # Named as a leftover of a process that is gone, 0600 as one is: only its text tells it apart.
            tmp_path / f".kept-{int(gone.stdout)}-backup_1.tmp.json"]
    for path in mine:
        path.write_text("a user's")
        path.chmod(0o600)
    result = _play(["play", "--resume", str(kept)], "")  # carried on, then input ends at the first order
    assert result.exit_code == 1 and "as it stood after turn 1" in result.stderr, result.output
    assert not leftover.exists()
    assert all(path.read_text() == "a user's" for path in mine)
    assert kept.read_bytes() == before


@pytest.mark.parametrize("where", ["players", "teams"])
def test_a_name_edited_to_hold_an_escape_sequence_is_refused_not_printed(tmp_path: Path, where: str) -> None:
    """A saved game whose player's (or, with no draw from the seed, team's) name was edited to hold
    ESC[2J and ESC]0;...BEL was carried on with the name printed as it was, so the terminal cleared its screen and retitled its window:
    sevens play never takes such a name, so the file is now refused, naming the field and the
    character, with nothing printed but the one escaped error line."""
    kept = _interrupted_after_turn_1(tmp_path)
    def change(data: dict[str, Any]) -> None:
        data["game"][where][1]["name"] = "Ann\x1b[2J\x1b]0;owned\x07"
        data["game"]["draw"] = None  # teams as given, not drawn again from the seed (which would name the edit)

    _edit(kept, change)
    message = _refused(kept)
    assert "\x1b" not in message and "\x07" not in message
    assert (
        f"game.{where}[1].name is 'Ann\\x1b[2J\\x1b]0;owned\\x07', which holds a control or invisible character "
        "('\\x1b') that sevens play never takes in a name" in message
    ), message


@pytest.mark.parametrize("columns", ["40", "120"])
def test_names_holding_markup_are_shown_as_they_are(tmp_path: Path, columns: str) -> None:
    """rich reads '[bold]' in a printed line as a style, '[link=...]' as a link and '[/]' with
    nothing to close as an error (MarkupError, a traceback at the draw). A saved game's team names
    (and a player's) are anybody's text: each is shown as it is, at any width, from the draw and the
    fixtures to the order prompts, match reports, tables and the champion; a name ending in a
    backslash keeps its one backslash."""
    kept = _interrupted_after_turn_1(tmp_path)
    forms = ("[bold]T{}", "T{} [/]", "[link=https://example.org]T{}", "T{} [", "T{}\\")
    names = [forms[i % len(forms)].format(i) for i in range(16)]
    mine: list[str] = []

    def change(data: dict[str, Any]) -> None:
        person = set(data["game"]["players"][0]["teams"])
        for team, name in zip(data["game"]["teams"], names, strict=True):
            team["name"] = name
            if team["id"] in person:
                mine.append(name)
        data["game"]["players"][0]["name"] = "[red]Ann\\"
        data["game"]["draw"] = None  # teams as given, not drawn again from the seed

    _edit(kept, change)
    result = runner.invoke(app, ["play", "--resume", str(kept)], input=ORDER * 40, env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    out = result.output
    for name in names:
        assert name in out, name
    assert "([red]Ann\\)" in out  # the draw names the person
    if columns == "120":
        assert any(f"Order for {name} as FORCE FLAIR" in out for name in mine), out
        assert re.search(r"Champion: .*T\d", out), out
    assert "\\\\" not in out  # no backslash shown twice


def test_a_name_saved_before_unassigned_invisible_code_points_were_refused_still_loads(tmp_path: Path) -> None:
    """sevens play took U+FFF0 (unassigned, drawn as nothing) in a name until names began refusing
    it; a game saved before with such a name was then refused on resume as edited by hand. It
    does nothing on a terminal, so the saved game carries on."""
    kept = _interrupted_after_turn_1(tmp_path)

    def change(data: dict[str, Any]) -> None:
        data["game"]["players"][1]["name"] = "Ann\ufff0"
        data["game"]["draw"] = None  # as in the tests above: the edit is the only change

    _edit(kept, change)
    result = _play(["play", "--resume", str(kept)], "")  # carried on, then input ends at the first order
    assert result.exit_code == 1 and "as it stood after turn 1" in result.stderr, result.output
