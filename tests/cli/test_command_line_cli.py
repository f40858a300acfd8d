"""What every command's line is checked for before the command runs, in one line each.

An option that takes one value, given twice with different values: click kept the last value
without a word (``sevens odds --force 3 --force 4`` computed FORCE 4). An empty argument: click
took it for the current folder (``sevens export "$DIR"`` with DIR unset wrote there). Every
command's every option and argument is tried, found by walking the application, so one added
later is covered without a change here.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from sevens.cli.main import app

runner = CliRunner()

# Were a repeat let through, each command would fail fast on its own (a database sevens cannot
# use, a missing option or file), never start a server or a game that waits for input.
ENV = {"DATABASE_URL": "mysql://nowhere/x", "COLUMNS": "200"}


def _single_valued() -> list[tuple[str, str, int]]:
    """(command, option, values it takes) for every option that takes one value at a time."""
    found = []
    root = typer.main.get_command(app)
    for name, command in sorted(getattr(root, "commands", {}).items()):
        for param in command.params:
            flag = getattr(param, "is_flag", False) or getattr(param, "count", False)
            if param.param_type_name == "option" and not flag and not param.multiple:
                found.append((name, max(param.opts, key=len), param.nargs))
    return found


SINGLE_VALUED = _single_valued()


def test_the_walk_finds_the_options_of_every_command() -> None:
    commands = {name for name, _, _ in SINGLE_VALUED}
    assert {"odds", "play", "table", "serve", "lab", "export", "import"} <= commands
    assert ("odds", "--force", 1) in SINGLE_VALUED and ("serve", "--port", 1) in SINGLE_VALUED


@pytest.mark.parametrize(("command", "option", "nargs"), SINGLE_VALUED)
def test_a_single_valued_option_given_twice_is_refused(
    command: str, option: str, nargs: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a file option let through writes nothing outside the test
    first, second = ["1"] * nargs, ["2"] * nargs
    result = runner.invoke(app, [command, option, *first, option, *second], env=ENV)
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"error: sevens {command}: {option} was given twice, as {' '.join(first)!r} and {' '.join(second)!r}, and takes one value; "
        f"give {option} once, with the value you mean\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_three_values_are_all_named_and_a_value_repeated_as_it_was_passes() -> None:
    result = runner.invoke(app, ["lab", "--seed", "1", "--seed", "2", "--seed", "3"], env=ENV)
    assert result.exit_code == 2
    assert "--seed was given 3 times, as '1', '2' and '3'" in result.stderr
    # The same value twice cannot give anything but what was meant.
    result = runner.invoke(app, ["odds", "--force", "3", "--force", "3", "--flair", "0", "--json"])
    assert result.exit_code == 0, result.output
    assert '"force": 3' in result.stdout


def test_options_meant_to_repeat_flags_and_help_are_left_alone() -> None:
    # --solve collects its values itself (and odds says how to give two budgets): not this refusal.
    result = runner.invoke(app, ["odds", "--solve", "30,10", "--solve", "20,20"], env=ENV)
    assert "was given twice" not in result.output
    result = runner.invoke(app, ["odds", "--force", "3", "--flair", "0", "--json", "--json"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["serve", "--port", "1", "--port", "2", "--help"], env=ENV)
    assert result.exit_code == 0 and "--port" in result.stdout


def test_the_installed_command_refuses_a_repeat_in_one_line() -> None:
    """Through the entry point, as a user runs it: no server starts on either port."""
    result = subprocess.run(
        [sys.executable, "-c", "from sevens.cli.main import main; main()", "serve", "--port", "8123", "--port=8124"],
        capture_output=True, text=True, env={**os.environ, **ENV}, timeout=60, check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "error: sevens serve: --port was given twice, as '8123' and '8124', and takes one value; "
        "give --port once, with the value you mean\n"
    )


def _arguments() -> list[tuple[str, str]]:
    root = typer.main.get_command(app)
    return [
        (name, param.metavar or "")
        for name, command in sorted(getattr(root, "commands", {}).items())
        for param in command.params
        if param.param_type_name == "argument"
    ]


def test_the_walk_finds_every_commands_arguments() -> None:
    assert {name for name, _ in _arguments()} == {"export", "import", "table", "verify"}


@pytest.mark.parametrize(("command", "metavar"), _arguments())
def test_an_empty_argument_is_refused_not_taken_for_the_current_folder(
    command: str, metavar: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """import read every .json file of the current folder, export wrote into it, table and
    verify said '. is a folder'."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.json").write_text("{}", encoding="utf-8")
    database = tmp_path / "games.sqlite3"
    result = runner.invoke(app, [command, "--", ""], env={**ENV, "DATABASE_URL": f"sqlite:///{database}"})
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(
        f"error: sevens {command}: {metavar} is empty (an unset shell variable?); give {metavar}: "
    ) and result.stderr.count("\n") == 1, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.json"]


def _path_options() -> list[tuple[str, str, str]]:
    """(command, option, metavar) for every option declared a path, found by walking the application."""
    root = typer.main.get_command(app)
    return [
        (name, max(param.opts, key=len), param.metavar or "")
        for name, command in sorted(getattr(root, "commands", {}).items())
        for param in command.params
        if param.param_type_name == "option" and getattr(getattr(param, "type_descriptor", None), "annotation", None) is Path
    ]


def test_the_walk_finds_every_path_option() -> None:
    assert {(name, option) for name, option, _ in _path_options()} == {
        ("play", "--record"), ("play", "--save"), ("play", "--resume"), ("lab", "--plot"), ("lab", "--csv")
    }


@pytest.mark.parametrize(("command", "option", "metavar"), _path_options())
def test_an_empty_path_option_is_refused_not_taken_for_the_current_folder(
    command: str, option: str, metavar: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sevens play --save "$FILE"` with FILE unset said "--save . is a folder", naming a folder
    nobody typed; `--record ""` and `--resume ""` the same. Said as an empty argument is, before anything runs."""
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, [command, f"{option}=", "--seed", "x"] if command == "play" else [command, option, ""],
                           input="")
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"error: sevens {command}: {option} is empty (an unset shell variable?); give {option} {metavar} "
        f"(see sevens {command} --help)\n"
    ), result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["import", "backup.json"], ["export", "backup.json"], ["serve"]])
def test_an_empty_database_url_is_refused_not_replaced_by_the_default(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sevens import --database-url "$URL"` with URL unset imported into ./sevens.sqlite3, a
    database it created there without a word; export named that file, serve refused '' as a URL
    SQLAlchemy cannot read."""
    monkeypatch.chdir(tmp_path)
    empty = '{"format": "sevens-backup", "version": 1, "full": false, "games": [], "credentials": []}'
    (tmp_path / "backup.json").write_text(empty, encoding="utf-8")
    result = runner.invoke(app, [command[0], "--database-url", "", *command[1:]], env={"DATABASE_URL": None})
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"error: sevens {command[0]}: --database-url is empty (an unset shell variable?); give "
                             f"--database-url URL (see sevens {command[0]} --help)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.json"]


@pytest.mark.parametrize("command", [["play", "--auto", "--seed"], ["table", "group.json", "--lots-seed"]])
def test_an_empty_seed_is_refused_not_taken_for_a_seed(command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`sevens play --seed "$SEED"` with SEED unset played the same game every time, its dice known to
    anyone who tried the empty seed; table drew its lots from it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "group.json").write_text('{"teams": ["fiji", "samoa", "tonga", "wales"], "matches": []}')
    result = runner.invoke(app, [*command, ""])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"error: sevens {command[0]}: {command[-1]} is empty (an unset shell variable?); give "
                             f"{command[-1]} TEXT (see sevens {command[0]} --help)\n")
    assert result.stdout == ""


def test_serve_refuses_an_empty_host_rather_than_listen_on_every_network(tmp_path: Path) -> None:
    """--host "" bound every network's address, as 0.0.0.0 does, which nobody asked for. (The port
    is held, so that were the empty host let through, serve would stop there, not go on serving.)"""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        result = runner.invoke(
            app, ["serve", "--host", "", "--port", port, "--database-url", f"sqlite:///{tmp_path / 'g.sqlite3'}"]
        )
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: --host is empty (an unset shell variable?); give --host an address")
    assert list(tmp_path.iterdir()) == []


def _number_options() -> list[tuple[str, str]]:
    """(command, option) for every option read as a whole number: those declared int, found by
    walking the application, and sevens odds's counts, which it reads itself."""
    root = typer.main.get_command(app)
    declared = [
        (name, max(param.opts, key=len))
        for name, command in sorted(getattr(root, "commands", {}).items())
        for param in command.params
        if getattr(getattr(param, "type_descriptor", None), "annotation", None) is int
    ]
    return declared + [("odds", option) for option in ("--force", "--flair", "--vs-force", "--vs-flair", "--best-split", "--solve")]


NUMBER_OPTIONS = _number_options()


def test_the_walk_finds_the_number_options_of_every_command() -> None:
    assert {("play", "--players"), ("lab", "--tournaments"), ("lab", "--seed"), ("serve", "--port")} <= set(NUMBER_OPTIONS)


@pytest.mark.parametrize(("command", "option"), NUMBER_OPTIONS)
@pytest.mark.parametrize(("typed", "meant"), [("１２", "12"), ("١٢", "12"), ("1_2", "12")])
def test_a_number_in_other_digits_or_with_underscores_is_refused_saying_what_to_write(
    command: str, option: str, typed: str, meant: str
) -> None:
    """One rule for every number on every command line (docs/play.md, docs/odds.md): the digits 0-9.
    sevens odds read full-width and other scripts' digits as numbers and refused '1_2'; every
    option declared int did the reverse, taking '1_2' for 12 and refusing '１２' in a box that said
    only 'unable to parse string as an integer'."""
    extra = {"--solve": ["3"], "--best-split": ["--vs-force", "3"]}.get(option, [])
    result = runner.invoke(app, [command, option, typed, *extra], env=ENV)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    line = result.stderr.strip()
    assert line.count("\n") == 0 and line.startswith(f"error: {'R3: ' if command == 'odds' else ''}{option} takes ")
    assert line.endswith(f"written with the digits 0-9{' alone' if '_' in typed else ''}: write {meant}, not {typed!r}")


@pytest.mark.parametrize("typed", ["+3", " 3 ", "3\n"])
def test_a_sign_and_spaces_around_a_number_are_read_as_the_web_pages_read_them(typed: str) -> None:
    same = runner.invoke(app, ["odds", "--force", "3", "--json"])
    result = runner.invoke(app, ["odds", "--force", typed, "--json"])
    assert result.exit_code == 0, result.output
    assert result.stdout == same.stdout
    # An option declared int reads it too, and goes on to its own checks.
    result = runner.invoke(app, ["lab", "--strategies", "nosuch", "--tournaments", typed], env=ENV)
    assert result.exit_code == 2 and "there is no strategy called 'nosuch'" in result.stderr


def test_minus_zero_is_zero() -> None:
    result = runner.invoke(app, ["odds", "--force", "-0", "--flair", "3", "--json"])
    assert result.exit_code == 0, result.output
    assert result.stdout == runner.invoke(app, ["odds", "--flair", "3", "--json"]).stdout
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "-0"], env=ENV)
    assert result.exit_code == 2 and "the number of tournaments must be at least 1, got 0" in result.stderr


@pytest.mark.parametrize(("option", "typed", "least"), [
    ("--tournaments", "0", "1"), ("--tournaments", "-5", "1"), ("--workers", "0", "1"), ("--workers", "-2", "1"),
    ("--seed", "-1", "0"),
])
def test_a_lab_count_out_of_range_is_refused_naming_its_option_and_what_to_give(
    option: str, typed: str, least: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "the number of workers must be at least 1, got 0" named no option and no value to give.
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["lab", "--strategies", "even", option, typed, "--plot", "x.png"], env=ENV)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {option} {typed}: ") and result.stderr.count("\n") == 1
    assert f"got {typed}; give {option} {least} or more (" in result.stderr
    assert list(tmp_path.iterdir()) == []  # no plot, nor any part of one


@pytest.mark.parametrize(("command", "option"), [("odds", "--force"), ("lab", "--tournaments")])
def test_a_decimal_or_a_superscript_is_refused_naming_what_was_typed(command: str, option: str) -> None:
    for typed in ("2.5", "²", ""):
        result = runner.invoke(app, [command, option, typed], env=ENV)
        assert result.exit_code == 2, result.output
        assert result.stderr.count("\n") == 1
        assert (f"got {typed!r}" if typed else "was given nothing") in result.stderr


def _options_of(command: str) -> list[str]:
    root = typer.main.get_command(app)
    return [max(p.opts, key=len) for p in getattr(root, "commands", {})[command].params if p.param_type_name == "option"]


@pytest.mark.parametrize(("command", "option", "nargs"), [s for s in SINGLE_VALUED if s[2] == 1])
def test_an_option_whose_value_was_left_out_is_refused_not_given_the_next_option(
    command: str, option: str, nargs: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sevens play --record --auto`` took '--auto' for the record's file name and started a game
    that waited for orders, not the bots' game that was asked for."""
    monkeypatch.chdir(tmp_path)
    after = next((name for name in _options_of(command) if name != option), "--help")
    root = typer.main.get_command(app)
    metavar = next(p.metavar for p in getattr(root, "commands", {})[command].params if option in p.opts)
    result = runner.invoke(app, [command, option, after], env=ENV)
    assert result.exit_code == 2, result.output
    meant = f"; to mean that very text, write {option}={after}" if metavar == "TEXT" else ""
    assert result.stderr == (
        f"error: sevens {command}: {option} is missing its value ({option} {metavar}): the next word is "
        f"the option {after}, which would have been taken for it{meant}\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_the_value_of_an_option_may_look_like_an_option_when_written_with_equals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["play", "--auto", "--seed=--auto"], env=ENV)
    assert result.exit_code == 0, result.output
    assert "Champion" in result.output
