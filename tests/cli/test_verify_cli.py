"""``sevens verify FILE``: exit 0 saying what was checked, 1 at the first mismatch, 2 for files that
are not game records; always one line, never a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from installed_packages import install_package
from sevens.bots import get_strategy
from sevens.cli.main import app
from sevens.rules import seed_commitment
from sevens.tournament import (
    Player,
    PlayerId,
    autopilot_orders,
    default_format,
    draw_game,
    dumps,
    new_game,
    resolve_turn,
    to_record,
)
from terminal_session import in_terminal, read_until

SEED = "c0" * 32
ROOT = Path(__file__).resolve().parents[2]

# A bot of one's own, named by its module path; it raises once told to stop (a file in its folder).
MINE = """import os

from sevens.bots import EvenSpread


class Mine(EvenSpread):
    def order(self, view, rng):
        if os.path.exists('stop-playing'):
            raise RuntimeError('asked to stop')
        return EvenSpread.order(self, view, rng)
"""




def _record(turns: int | None = None) -> dict[str, object]:
    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    game = new_game(draw_game(people, default_format(4), seed_sha256=seed_commitment(SEED), draw_seed=2))
    while not game.finished and (turns is None or len(game.turns) < turns):
        game = resolve_turn(game, autopilot_orders(game, game.teams_in_play(), get_strategy, seed=SEED), SEED)
    return to_record(game, seed=SEED if game.finished else None)


def _run(tmp_path: Path, content: str | bytes) -> tuple[int, str, str]:
    path = tmp_path / "game.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path)])
    return result.exit_code, result.stdout, result.stderr


def test_a_good_record_verifies_and_says_what_was_checked(tmp_path: Path) -> None:
    record = _record()
    code, out, err = _run(tmp_path, dumps(record))
    assert code == 0 and err == ""
    assert "5 turns, 15 matches" in out and "dice recomputed from the revealed seed" in out


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_summary_is_broken_between_words_in_a_terminal_and_one_line_in_a_pipe(tmp_path: Path, columns: int) -> None:
    """The summary is some 280 columns long: in a terminal it was one line, which the terminal broke
    where its edge fell ('the cham' / 'pion'). A terminal now gets it broken between words, the
    lines after the first indented; a pipe still gets one line, for a script to read."""
    path = tmp_path / "game.json"
    path.write_text(dumps(_record()), encoding="utf-8")
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    piped = subprocess.run([sys.executable, "-m", "sevens", "verify", str(path)], capture_output=True, text=True,
                           env=environ, timeout=120, check=True).stdout
    assert piped.count("\n") == 1 and len(piped) > 200
    with in_terminal([sys.executable, "-m", "sevens", "verify", str(path)], columns=columns, env=environ) as (run, main):
        shown = read_until(main, rb"\Z-never", 120).decode()
        assert run.wait(timeout=120) == 0
    lines = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", shown).replace("\r\n", "\n").splitlines()
    assert len(lines) > 1 and all(line.startswith("  ") for line in lines[1:]), lines
    assert all(len(line) <= columns for line in lines if " " in line.strip()), lines  # a long file name may not fit
    assert " ".join(lines).split() == piped.split()  # every word whole, none lost


def test_orders_of_bots_not_installed_here_leave_the_record_not_verified_in_full(tmp_path: Path) -> None:
    """Exit 3: everything else agrees, but an order in the name of a bot this installation lacks
    could be any order (a server could forge one and name a bot nobody has)."""
    record = _record()
    order = record["turns"][1]["matches"][0]["home_order"]  # type: ignore[index]
    order["autopilot"] = "equilibrium-v2"
    code, out, err = _run(tmp_path, dumps(record))
    assert code == 3 and "dice recomputed from the revealed seed" in out
    message = " ".join(err.split())
    assert "not verified in full: the orders of 'equilibrium-v2' could not be played again" in message
    assert (
        "as no bot of that name is installed here, so any order could stand in its name; install the package that "
        "registers that bot (an entry point in the group 'sevens.strategies' under that name) and verify again"
    ) in message
    # Two bots missing: said of both.
    record["turns"][1]["matches"][0]["away_order"]["autopilot"] = "pacer-x"  # type: ignore[index]
    code, out, err = _run(tmp_path, dumps(record))
    message = " ".join(err.split())
    assert code == 3 and "the orders of 'equilibrium-v2', 'pacer-x' could not be played again, as no bot of those names" in message
    assert (
        "install the package that registers each of those bots (entry points in the group 'sevens.strategies' under "
        "those names) and verify again"
    ) in message


@pytest.mark.parametrize(
    ("autopilot", "words"),
    [
        ("", "'' is not a bot's name"),
        ("even-flair@nan", "'even-flair@nan': the knockout weight must be a number"),
        ("random@2", "only even, even-flair, even-force, odds-aware, equilibrium, field-reader take a knockout"),
        ("x" * 100_000, "'" + "x" * 40 + "'... (100,000 characters) is too long for a bot's name"),
        # Cut between flags (two code points each, one character as shown), not in the 20th.
        ("a" + "\U0001f1eb\U0001f1ef" * 60, "'a" + "\U0001f1eb\U0001f1ef" * 39 + "'... (61 characters) is too long"),
        ("mine\x1b[2J\nok: verified", "'mine\\x1b[2J\\nok: verified' is not a bot's name"),
    ],
)
def test_a_malformed_bot_name_is_refused_by_path_shortened_and_escaped(
    tmp_path: Path, autopilot: str, words: str
) -> None:
    """A name no bot can have is bad input at its path (exit 2), not a bot "not installed here";
    the message quotes at most 40 of its characters, control characters escaped."""
    record = _record()
    record["turns"][1]["matches"][0]["home_order"]["autopilot"] = autopilot  # type: ignore[index]
    code, out, err = _run(tmp_path, dumps(record))
    message = " ".join(err.split())
    assert code == 2 and out == ""
    assert "turns[1].matches[0].home_order.autopilot: " in message and words in message
    assert "not installed" not in message and "verified in full" not in message
    assert len(err) < 700 and "\x1b" not in err and err.count("\n") == 1


def _sevens(args: list[str], cwd: Path, site: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in (ROOT / "src", site) if p is not None)}
    return subprocess.run([sys.executable, "-m", "sevens", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300, check=False)


@pytest.mark.parametrize(
    ("code", "target", "words"),
    [
        ("raise RuntimeError('no weights\x1b[2J' + 'y' * 1000)\n", "brokenbot:Mine",
         "importing brokenbot ("),
        ("def order(:\n", "brokenbot:Mine", "brokenbot.py, line 1 is not valid Python (SyntaxError"),
        ("import sys\nclass Mine:\n    def __init__(self):\n        sys.exit(4)\n", "brokenbot:Mine",
         "raised SystemExit: 4 at "),
        ("class Mine:\n    def __init__(self):\n        raise OSError('weights.bin')\n", "brokenbot:Mine",
         "raised OSError: weights.bin at "),
        ("Mine = 5\n", "brokenbot:Mine", "'mine-v1' is not a bot: it needs an order(view, rng) method"),
        # Raised in Python's own code: the place to fix is one's own line, or none (not importlib's).
        ("class Other:\n    pass\n", "brokenbot:Mine",
         "has no 'Mine'; it has Other: correct the entry point"),
        ("import json\nclass Mine:\n    def __init__(self):\n        json.loads('{')\n", "brokenbot:Mine",
         "brokenbot.py, line 4; fix or reinstall"),
    ],
)
def test_a_registered_bot_that_fails_to_load_is_said_to_be_installed_and_broken(
    tmp_path: Path, code: str, target: str, words: str
) -> None:
    """A bot whose entry point is there but whose loading (or making) raises, or exits, is not
    "not installed here": exit 3 says it is installed, what failed (escaped, cut short) and to fix
    its package; the other orders are still played again. It used to be called missing, or to end
    the verification with a traceback (a SyntaxError, a raising class) or silently (sys.exit)."""
    site = tmp_path / "site"
    install_package(site, "brokenbots", {"brokenbot": code}, {"mine-v1": target})
    record = _record()
    record["turns"][1]["matches"][0]["home_order"]["autopilot"] = "mine-v1"  # type: ignore[index]
    (tmp_path / "game.json").write_text(dumps(record))
    run = _sevens(["verify", "game.json"], tmp_path, site)
    message = " ".join(run.stderr.split())
    assert run.returncode == 3, run.stderr
    assert "dice recomputed from the revealed seed" in run.stdout and "bot orders played again" in run.stdout
    assert "orders of bots that fail to load or to play here were not checked: 'mine-v1'" in run.stdout
    assert (
        "not verified in full: the orders of 'mine-v1' could not be played again: it is installed here (an entry "
        "point in the group 'sevens.strategies') but fails to load: " in message
    )
    assert words in message and message.endswith("fix or reinstall the package that registers it and verify again")
    assert "not installed" not in message and "Traceback" not in run.stderr
    assert "\x1b" not in run.stderr and run.stderr.count("\n") == 1 and len(run.stderr) < 900


def test_a_record_naming_a_module_path_bot_verifies_in_full_once_the_user_gives_it_with_bots(tmp_path: Path) -> None:
    """sevens play --bots mine:Mine writes a record that a record alone can never get verified in
    full (verify imports nothing a record names). The exit-3 message now says to pass --bots with
    the exact names; given, its orders are played again (a forged one is caught), and play's line
    after the record gives the command with it. Before, --bots was no option of verify (exit 2)."""
    (tmp_path / "mine.py").write_text(MINE)
    played = _sevens(["play", "--auto", "--bots", "mine:Mine,even", "--no-save", "--record", "game.json"], tmp_path)
    assert played.returncode == 0, played.stderr
    assert "check it with: sevens verify game.json --bots mine:Mine" in " ".join(played.stdout.split())

    alone = _sevens(["verify", "game.json"], tmp_path)
    message = " ".join(alone.stderr.split())
    assert alone.returncode == 3, alone.stderr
    assert "not verified in full: the orders of 'mine:Mine' could not be played again" in message
    assert message.endswith("if you trust that code, let verify import it (it runs) with --bots mine:Mine and "
                            "verify again")
    assert "install the packages" not in message

    given = _sevens(["verify", "game.json", "--bots", "mine:Mine"], tmp_path)
    assert given.returncode == 0 and given.stderr == "", given.stderr
    assert "bot orders played again from the seed, each what its bot plays" in given.stdout
    assert "not checked" not in given.stdout

    record = json.loads((tmp_path / "game.json").read_text())
    order = next(
        side for turn in record["turns"] for match in turn["matches"] for side in (match["home_order"], match["away_order"])
        if side["autopilot"] == "mine:Mine"
    )
    order["force"], order["flair"] = (0, 0) if order["force"] + order["flair"] else (1, 0)
    (tmp_path / "forged.json").write_text(dumps(record))
    forged = _sevens(["verify", "forged.json", "--bots", "mine:Mine"], tmp_path)
    assert forged.returncode == 1 and "(the order the bot 'mine:Mine' plays for " in forged.stderr


def test_a_bot_whose_order_raises_as_it_is_played_again_leaves_the_record_not_verified_in_full(tmp_path: Path) -> None:
    """Exit 3 saying which bot failed to play, where and how, not a traceback (exit 1)."""
    (tmp_path / "mine.py").write_text(MINE)
    played = _sevens(["play", "--auto", "--bots", "mine:Mine", "--no-save", "--record", "game.json"], tmp_path)
    assert played.returncode == 0, played.stderr
    (tmp_path / "stop-playing").touch()
    run = _sevens(["verify", "game.json", "--bots", "mine:Mine"], tmp_path)
    message = " ".join(run.stderr.split())
    assert run.returncode == 3 and "Traceback" not in run.stderr, run.stderr
    assert "orders of bots that fail to load or to play here were not checked: 'mine:Mine'" in run.stdout
    assert "the orders of 'mine:Mine' could not be played again: it is imported as --bots says but fails to play: " \
           "its order for " in message
    assert f"in turn 1 raised RuntimeError: asked to stop at {tmp_path / 'mine.py'}, line 9; fix it and verify " \
           "again" in message


@pytest.mark.parametrize(
    ("bots", "words"),
    [
        ("even", "--bots: 'even' is not a module path: --bots takes the bots a record names by module:attribute"),
        ("mine:Mine,", "--bots 'mine:Mine,' has an empty name; give module paths separated by commas"),
        ("nope:Mine", "--bots: cannot load 'nope:Mine': No module named 'nope'"),
    ],
)
def test_verify_bots_that_are_no_module_path_bot_are_refused(tmp_path: Path, bots: str, words: str) -> None:
    (tmp_path / "game.json").write_text(dumps(_record()))
    result = CliRunner().invoke(app, ["verify", str(tmp_path / "game.json"), "--bots", bots])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and words in " ".join(result.stderr.split())


def test_an_unfinished_record_is_consistent_but_its_dice_unchecked(tmp_path: Path) -> None:
    code, out, _ = _run(tmp_path, dumps(_record(turns=2)))
    assert code == 0
    assert "could not be checked" in out


def test_a_tampered_record_fails_naming_the_first_mismatch(tmp_path: Path) -> None:
    record = _record()
    turns = record["turns"]
    assert isinstance(turns, list)
    die = turns[0]["matches"][0]["home_dice"]["force"][0]
    turns[0]["matches"][0]["home_dice"]["force"][0] = die % 6 + 1
    code, out, err = _run(tmp_path, dumps(record))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert f"turns[0].matches[0].home_dice.force[0]: expected {die}, found {die % 6 + 1}" in err


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "not valid JSON"),
        (b"\xff\xfe\x00", "not JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),  # json raises RecursionError, not ValueError
        ("[1, 2, 3]", "JSON object"),
        (json.dumps({"format": "pgn"}), "not a Sevens game record"),
        (json.dumps({"format": "sevens-game-record", "version": 1}), "missing field(s)"),
        (
            json.dumps(
                {
                    "format": "sevens-game-record",
                    "version": 1,
                    "seed_sha256": 5,
                    "seed": None,
                    "tournament": {},
                    "players": [],
                    "teams": [],
                    "turns": [],
                    "groups": {},
                    "champion": None,
                }
            ),
            "tournament: missing field(s) teams",
        ),
    ],
)
def test_malformed_files_give_one_line_and_exit_2(tmp_path: Path, content: str | bytes, words: str) -> None:
    code, out, err = _run(tmp_path, content)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1 and words in err
    assert "Traceback" not in out + err


def test_a_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["verify", str(tmp_path / "nope.json")])
    assert result.exit_code == 2
    assert result.stderr == f"error: no such file: {tmp_path / 'nope.json'}; give the path of a game record's JSON file\n"
    result = CliRunner().invoke(app, ["verify", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder" in result.stderr


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [("teams", {}, "teams: must be a list, found an object"), ("players", None, "players: must be a list, found null"),
     ("tournament", [], "tournament: must be an object, found a list")],
)
def test_a_field_of_the_wrong_kind_is_named_in_plain_english(tmp_path: Path, field: str, value: object, words: str) -> None:
    """It said 'found a object' and 'found a null'."""
    code, _, err = _run(tmp_path, json.dumps({**_record(), field: value}))
    assert code == 2 and words in err, err


def test_a_tampered_name_is_quoted_escaped_not_obeyed_by_the_terminal(tmp_path: Path) -> None:
    """Through the real command: a record whose first team's name held ESC[2J and ESC]0;...BEL
    failed to verify with a message quoting the name as it was, so the reader's terminal cleared its
    screen and retitled its window. Every error line now shows such characters escaped."""
    path = tmp_path / "game.json"
    # A game drawn from its own seed, whose verification redoes the draw and so compares the names.
    made = _sevens(["play", "--auto", "--players", "4", "--seed", "3", "--record", str(path)], tmp_path)
    assert made.returncode == 0, made.stderr
    record = json.loads(path.read_text(encoding="utf-8"))
    name = record["teams"][0]["name"]
    record["teams"][0]["name"] = name[:3] + "\x1b[2J\x1b]0;owned\x07" + name[3:]
    path.write_text(json.dumps(record), encoding="utf-8")
    result = _sevens(["verify", str(path)], tmp_path)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    assert f"found '{name[:3]}\\x1b[2J\\x1b]0;owned\\x07{name[3:]}' (" in result.stderr


def test_a_forged_champion_id_is_printed_escaped_in_the_summary(tmp_path: Path) -> None:
    """A record made up whole (digests and dice agree: the seed is revealed, so anyone can) whose
    team ids hold ESC]0;...BEL verified, and its one line of output named the champion by its id as
    it was, so the terminal retitled its window. The line now shows such characters escaped."""
    from dataclasses import replace

    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    drawn = draw_game(people, default_format(4), seed_sha256=seed_commitment(SEED), draw_seed=2)
    mark = "\x1b]0;owned\x07"
    setup = replace(
        drawn,
        teams=tuple(replace(team, id=team.id + mark) for team in drawn.teams),
        autopilots={team + mark: bot for team, bot in drawn.autopilots.items()},
    )
    game = new_game(setup)
    while not game.finished:
        game = resolve_turn(game, autopilot_orders(game, game.teams_in_play(), get_strategy, seed=SEED), SEED)
    assert game.champion is not None and game.champion.endswith(mark)
    code, out, err = _run(tmp_path, dumps(to_record(game, seed=SEED)))
    assert code == 0 and err == "", err
    assert "\x1b" not in out and "\x07" not in out
    assert f"the champion ({game.champion[: -len(mark)]}\\x1b]0;owned\\x07) all agree" in out, out


def test_a_record_saved_again_as_utf16_or_latin1_is_refused_saying_how_and_where(tmp_path: Path) -> None:
    """A referee's Windows may save a mailed record as UTF-16 (Notepad, PowerShell 5's >) or Latin-1;
    both were 'not text (not UTF-8)', which says neither what the file is nor which byte."""
    text = dumps(_record())
    code, _, err = _run(tmp_path, text.encode("utf-16"))
    assert code == 2 and "the file is UTF-16 text, not UTF-8" in err and "save it again as UTF-8" in err
    latin = text.replace('"name": "P1"', '"name": "Pé"').encode("latin-1")
    line = latin[: latin.index(b"\xe9")].count(b"\n") + 1
    code, _, err = _run(tmp_path, latin)
    assert code == 2 and f"byte 0xE9 on line {line} is not UTF-8" in err and "Latin-1" in err, err


@pytest.mark.parametrize("version", [1.0, True, "1", 0])
def test_a_version_that_is_not_the_whole_number_1_is_refused_as_unreadable(tmp_path: Path, version: object) -> None:
    """1.0 and true equal 1 in Python: they passed the version check and failed later as a mismatch (exit 1)."""
    code, _, err = _run(tmp_path, json.dumps({**_record(), "version": version}))
    assert code == 2, err
    assert f"version: this program reads version 1 records, found {json.dumps(version)}" in err


def test_a_record_of_a_newer_version_says_to_upgrade(tmp_path: Path) -> None:
    code, _, err = _run(tmp_path, json.dumps({**_record(), "version": 2}))
    assert code == 2 and "found 2 (a version 2 record comes from a newer sevens: upgrade sevens to verify it)" in err


def test_a_finished_record_short_of_a_turn_names_the_turn_missing(tmp_path: Path) -> None:
    record = _record()
    turns = record["turns"]
    assert isinstance(turns, list)
    del turns[1]
    code, _, err = _run(tmp_path, dumps(record))
    assert code == 1 and f"found {len(turns)} turns, turn 2 missing" in err, err


def test_a_list_one_short_says_one_item(tmp_path: Path) -> None:
    record = _record()
    turns = record["turns"]
    assert isinstance(turns, list)
    force = turns[0]["matches"][0]["home_dice"]["force"]
    del force[1:]
    code, _, err = _run(tmp_path, dumps(record))
    assert code == 1 and "home_dice.force: expected" in err and "found 1 item" in err and "1 items" not in err, err


@pytest.mark.parametrize(
    ("name", "words"),
    [(" ", "' ' is not a bot's name"), ("mine\x1b[2J", r"'mine\x1b[2J' is not a bot's name"),
     ("even-flair@nan", "'even-flair@nan': the knockout weight must be a number"),
     ("x" * 1_000, "'" + "x" * 40 + "'... (1,000 characters) is too long")],
)
@pytest.mark.parametrize("finished", [True, False])
def test_an_autopilot_no_bot_can_have_is_refused_wherever_the_record_gives_it(
    tmp_path: Path, name: str, words: str, finished: bool
) -> None:
    """Found by fuzzing: a team's autopilot in 'teams' was never looked at, and without the seed
    neither was an order's, so a finished record with 'mine\\x1b[2J' as a team's autopilot said
    'ok', as did an unfinished one with it on a missed order. Both are now refused as malformed."""
    record = _record(None if finished else 3)
    teams = record["teams"]
    assert isinstance(teams, list)
    teams[5]["autopilot"] = name
    code, _, err = _run(tmp_path, dumps(record))
    assert code == 2 and f"teams[5].autopilot: {words}" in err and err.count("\n") == 1, err
    record = _record(None if finished else 3)
    turns = record["turns"]
    assert isinstance(turns, list)
    order = turns[0]["matches"][0]["home_order"]
    assert order["missed"] and order["autopilot"] == "equilibrium"
    order["autopilot"] = name
    code, _, err = _run(tmp_path, dumps(record))
    assert code == 2 and f"turns[0].matches[0].home_order.autopilot: {words}" in err, err
