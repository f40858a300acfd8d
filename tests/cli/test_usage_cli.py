"""A command line click refuses reads as every other refusal (one line, status 2), ``-h`` is
``--help``, and the help starts on its first line: all through the real ``sevens`` process."""

from __future__ import annotations

import fcntl
import os
import pathlib
import struct
import subprocess
import sys
import termios

import pytest
from tests.terminal_session import in_terminal, read_until

COMMANDS = ["odds", "play", "verify", "table", "serve", "lab", "export", "import", "rotate-key"]


def sevens(*args: str, piped: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """The real process; standard input is /dev/null unless text is ``piped`` in (whatever the tests' own is)."""
    return subprocess.run(
        [sys.executable, "-m", "sevens", *args], capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "COLUMNS": "80", **env}, input=piped, stdin=subprocess.DEVNULL if piped is None else None,
    )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["ply"], "error: sevens has no command 'ply'; did you mean play? (see sevens --help)"),
        (["zzz"], "error: sevens has no command 'zzz' (see sevens --help)"),
        (["--nope"], "error: sevens has no option --nope (see sevens --help)"),
        (["odds", "--forse", "3"], "error: sevens odds has no option --forse; did you mean --force? (see sevens odds --help)"),
        (["play", "--sve", "x"], "error: sevens play has no option --sve; did you mean --save? (see sevens play --help)"),
        (["verify", "a", "b"], "error: sevens verify: got unexpected extra argument(s) (b) (see sevens verify --help)"),
        (["table", "--json=3", "x"], "error: sevens table: option '--json' does not take a value (see sevens table --help)"),
        (["lab", "--tournaments"], "error: sevens lab: option '--tournaments' requires an argument (see sevens lab --help)"),
        (["verify"], "error: sevens verify: FILE is missing; give FILE: a game record (JSON), as written by "
                     "`sevens play --record` or downloaded from a game's page of the web app (its record.json), "
                     "or - to read it from standard input (see sevens verify --help)"),
        # The argument's help cut to its first sentence, and nothing that points at a help not shown.
        (["table"], "error: sevens table: FILE is missing; give FILE: a JSON file with the group's teams and matches, "
                    "or - to read it from standard input (see sevens table --help)"),
        (["export"], "error: sevens export: PATH is missing; give PATH: file to write, e.g. backup.json; or a folder, "
                     "one file per game, when PATH ends in / or is a folder already, e.g. backups/ "
                     "(see sevens export --help)"),
    ],
)
@pytest.mark.parametrize("env", [{}, {"COLUMNS": "20", "NO_COLOR": "1"}])
def test_a_mistyped_command_line_is_refused_in_one_line(args: list[str], line: str, env: dict[str, str]) -> None:
    """click's own was the usage line, a hint and a boxed panel, wrapped inside the box at narrow widths."""
    result = sevens(*args, **env)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == line + "\n"


def test_a_saved_game_given_to_play_without_resume_is_pointed_to_resume(tmp_path: pathlib.Path) -> None:
    """`sevens play game.json`: play takes no argument, and a file there is a game to carry on."""
    saved = tmp_path / "my game.json"
    saved.write_text("{}")
    for given in (str(saved), "no-such-game.json"):
        result = sevens("play", given)
        assert result.returncode == 2
        said = f"; to carry on the game saved in it, write sevens play --resume {saved}"
        expected = f"error: sevens play: got unexpected extra argument(s) ({given}){said if given == str(saved) else ''}"
        assert result.stderr == f"{expected} (see sevens play --help)\n", result.stderr


@pytest.mark.parametrize(("command", "name"), [("verify", "FILE"), ("table", "FILE"), ("import", "PATH")])
def test_a_missing_file_with_standard_input_piped_in_says_that_dash_reads_it(command: str, name: str) -> None:
    """`sevens verify < game.json` (no '-') said only that FILE was missing, though what was meant
    was one character away; with nothing piped in (/dev/null) there is nothing to point at."""
    result = sevens(command, piped='{"format": "x"}')
    assert result.returncode == 2
    assert result.stderr.endswith(
        f", or - to read it from standard input; standard input is piped in here, so sevens {command} - reads it "
        f"(see sevens {command} --help)\n"
    ), result.stderr
    assert result.stderr.startswith(f"error: sevens {command}: {name} is missing; give {name}: ")
    assert "piped in here" not in sevens(command).stderr


def test_a_mistyped_command_in_a_narrow_terminal_is_one_line_without_colour() -> None:
    """In a real terminal 24 columns wide: the terminal wraps the line itself, nothing is boxed or coloured."""
    with in_terminal([sys.executable, "-m", "sevens", "ply"], env={**os.environ, "NO_COLOR": "1", "TERM": "xterm"}) as (
        run, main,
    ):
        fcntl.ioctl(main, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 24, 0, 0))
        shown = read_until(main, rb"help\)\r\n", 30)
        assert run.wait(timeout=30) == 2
    text = shown.decode().replace("\r\n", "\n")
    assert text == "error: sevens has no command 'ply'; did you mean play? (see sevens --help)\n"


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)])
def test_h_is_help_and_help_starts_on_its_first_line(command: list[str]) -> None:
    long, short = sevens(*command, "--help"), sevens(*command, "-h")
    assert long.returncode == short.returncode == 0
    assert short.stdout == long.stdout
    lines = long.stdout.splitlines()
    assert lines[0].strip().startswith(f"Usage: sevens {command[0] if command else '[OPTIONS]'}")
    assert lines[-1].strip(), "the help ends on its last line, with no blank line after it"
    # In typer's panel, or laid out plainly ("-h, --help") where the panels would cut something.
    assert any(set(line.replace("│", " ").replace(",", " ").split()[:2]) == {"-h", "--help"} for line in lines)


def test_help_in_colour_starts_on_its_first_line() -> None:
    """In a terminal rich colours the usage line's padding: a line of coloured spaces is still blank."""
    with in_terminal([sys.executable, "-m", "sevens", "table", "-h"], env={**os.environ, "TERM": "xterm-256color"}) as (
        run, main,
    ):
        shown = read_until(main, rb"\n\S*\Z", 30) + read_until(main, rb"never", 2)
        assert run.wait(timeout=30) == 0
    assert b"\x1b[" in shown, "coloured, as in a terminal"
    first = shown.split(b"\r\n")[0]
    assert b"Usage:" in first
