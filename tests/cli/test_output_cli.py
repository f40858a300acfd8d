"""Results that cannot all be written to standard output: a reader that left (``| head -1``) ends a
command quietly with status 141, as ``yes | head -1`` does; a write that fails (``>/dev/full``) ends
it with one line saying so. Real processes, a real pipe whose reader has closed it, the real
``/dev/full``."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sevens.bots import get_strategy
from sevens.rules import seed_commitment
from sevens.store.backup import BACKUP_FORMAT, BACKUP_VERSION
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

SRC = str(Path(__file__).resolve().parents[2] / "src")
LAB = ["lab", "--strategies", "even,random", "--tournaments", "40", "--teams", "8", "--workers", "1"]
GROUP = '{"teams": ["fiji", "samoa", "tonga", "wales"], "matches": []}'
COMMANDS = {
    "odds": ["odds", "--force", "20", "--flair", "9"],
    "odds --json": ["odds", "--force", "20", "--flair", "9", "--json"],
    "odds match": ["odds", "--force", "20", "--flair", "9", "--vs-force", "10"],
    "odds --best-split": ["odds", "--best-split", "20", "--vs-force", "10"],
    "odds --solve": ["odds", "--solve", "12", "10"],
    "table": ["table", "group.json"],
    "table --json": ["table", "group.json", "--json"],
    "lab": LAB,
    "lab --json": [*LAB, "--json"],
    "verify": ["verify", "game.json"],
}
SEED = "c0" * 32


@pytest.fixture(scope="module")
def record() -> str:
    """A whole game's record, for sevens verify."""
    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    game = new_game(draw_game(people, default_format(4), seed_sha256=seed_commitment(SEED), draw_seed=2))
    while not game.finished:
        game = resolve_turn(game, autopilot_orders(game, game.teams_in_play(), get_strategy, seed=SEED), SEED)
    return dumps(to_record(game, seed=SEED))


@pytest.fixture
def folder(tmp_path: Path, record: str) -> Path:
    (tmp_path / "group.json").write_text(GROUP)
    (tmp_path / "game.json").write_text(record)
    return tmp_path


@pytest.fixture
def closed_pipe() -> Iterator[int]:
    """The writing end of a pipe whose reader has already gone, as ``| true`` leaves it."""
    read, write = os.pipe()
    os.close(read)
    yield write
    os.close(write)


def _sevens(args: list[str], cwd: Path, stdout: int) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "sevens", *args], cwd=cwd, env=env, stdout=stdout,
                          stderr=subprocess.PIPE, timeout=600, check=False)


@pytest.mark.parametrize("command", [*COMMANDS, "play --auto"])
def test_a_reader_that_left_ends_the_command_quietly_with_status_141(
    command: str, folder: Path, closed_pipe: int
) -> None:
    """It ended with status 1 and nothing said (click's handling of a closed pipe, or rich's), which a
    script under ``set -o pipefail`` took for the command failing."""
    args = ["play", "--auto", "--seed", "x"] if command == "play --auto" else COMMANDS[command]
    run = _sevens(args, folder, closed_pipe)
    assert (run.returncode, run.stderr) == (141, b"")


@pytest.mark.parametrize("command", COMMANDS)
def test_output_that_cannot_be_written_is_said_in_one_line(command: str, folder: Path) -> None:
    """It said 'error: [Errno 28] No space left on device' and nothing of the results, with status 2 as for bad input."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with open("/dev/full", "wb") as full:
        run = _sevens(COMMANDS[command], folder, full.fileno())
    # verify's 1 says the record does not verify: its output failing keeps the status it had, 2.
    assert run.returncode == (2 if command == "verify" else 1)
    assert run.stderr == (b"error: the results could not be written to standard output: No space left on device; "
                          b"send them somewhere that can take them (a file on a disk with room, a terminal, a pipe)\n")


def test_the_plot_is_written_when_the_results_cannot_be_printed(folder: Path, closed_pipe: int) -> None:
    """The run is not lost for the reader leaving early (``| head -3`` to see the top of the table)."""
    run = _sevens([*LAB, "--plot", "ranking.png"], folder, closed_pipe)
    assert (run.returncode, run.stderr) == (141, b"")
    assert (folder / "ranking.png").read_bytes().startswith(b"\x89PNG")
    if Path("/dev/full").exists():
        with open("/dev/full", "wb") as full:
            run = _sevens([*LAB, "--json", "--plot", "again.svg"], folder, full.fileno())
        assert run.returncode == 1
        assert b"No space left on device (the plot is written to again.svg);" in run.stderr
        assert (folder / "again.svg").read_text().lstrip().startswith("<?xml")



HELP = [["--help"], [], *([name, "--help"] for name in ("odds", "play", "verify", "table", "serve", "lab", "export", "import", "rotate-key"))]


@pytest.mark.parametrize("args", HELP, ids=lambda args: " ".join(args) or "no arguments")
def test_help_is_printed_as_results_are(args: list[str], tmp_path: Path, closed_pipe: int) -> None:
    """``sevens --help | head -1`` ended with status 1 and nothing said (click's handling of a closed
    pipe, or rich's), and ``sevens --help >/dev/full`` with a bare 'error: [Errno 28] No space left on
    device' and status 2, as for bad input; now as the commands' own results (and ``sevens`` alone,
    which prints the help)."""
    said = _ends_as_results_do(args, tmp_path, closed_pipe)
    assert said is None or said.startswith(b"error: the results could not be written to standard output: No space left")


def _ends_as_results_do(args: list[str], cwd: Path, closed_pipe: int) -> bytes | None:
    """Runs ``args`` into a reader that left (status 141, nothing said), then into /dev/full where
    the system has one (status 1): the one line said there."""
    run = _sevens(args, cwd, closed_pipe)
    assert (run.returncode, run.stderr) == (141, b"")
    if not Path("/dev/full").exists():
        return None
    with open("/dev/full", "wb") as full:
        run = _sevens(args, cwd, full.fileno())
    assert run.returncode == 1 and run.stderr.count(b"\n") == 1
    return run.stderr


UNWRITTEN = (b"error: the results could not be written to standard output: %s; send them somewhere that can take them "
             b"(a file on a disk with room, a terminal, a pipe); ")


def _limit_files(size: int) -> None:
    import resource  # in the child: a file written past ``size`` bytes fails with EFBIG, as a disk that fills

    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def test_a_game_whose_output_cannot_be_written_says_so_and_where_it_is_kept(tmp_path: Path) -> None:
    """``sevens play`` said a bare 'error: [Errno 28] No space left on device' (or 'File too large'), and
    nothing of where the game was kept or how to carry it on."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with open("/dev/full", "wb") as full:
        run = _sevens(["play", "--auto", "--seed", "x", "--record", "r.json"], tmp_path, full.fileno())
    assert run.returncode == 1
    assert run.stderr == UNWRITTEN % b"No space left on device" + (
        b"the game was interrupted before the end; r.json was not written (the record is written at the end)\n")

    # Output to a file that stops growing while the game waits at turn 1 (a player asking for help again
    # and again; orders would let the save outgrow the output): the game is kept, and the line says where.
    env = {**os.environ, "PYTHONPATH": SRC}
    with open(tmp_path / "out.txt", "wb") as out:
        run = subprocess.run(
            [sys.executable, "-m", "sevens", "play", "--seed", "x", "--save", "kept.json"], cwd=tmp_path, env=env,
            input=b"?\n" * 100, stdout=out, stderr=subprocess.PIPE, timeout=600, check=False,
            preexec_fn=lambda: _limit_files(10_000),
        )
    assert run.returncode == 1
    assert run.stderr.startswith(UNWRITTEN % b"File too large" + b"the game was interrupted; it is kept in ")
    assert run.stderr.count(b"\n") == 1 and b"carry it on with: sevens play --resume" in run.stderr
    assert (tmp_path / "kept.json").exists()
    with open("/dev/full", "wb") as full:
        run = _sevens(["play", "--resume", "kept.json"], tmp_path, full.fileno())
    assert run.returncode == 1
    assert run.stderr.startswith(UNWRITTEN % b"No space left on device" + b"the game was interrupted; it is kept in ")


def test_export_and_import_say_they_were_done_when_their_line_cannot_be_printed(tmp_path: Path, closed_pipe: int) -> None:
    """Both said a bare 'error: [Errno 28] No space left on device' with status 2, as for bad input,
    though the export was written and the import done; a reader that left made status 1."""
    empty = json.dumps({"format": BACKUP_FORMAT, "version": BACKUP_VERSION, "full": False, "games": [],
                        "credentials": []})
    (tmp_path / "empty.json").write_text(empty)
    run = _sevens(["import", "--database-url", "sqlite:///piped.sqlite3", "empty.json"], tmp_path, closed_pipe)
    assert (run.returncode, run.stderr) == (141, b"")
    run = _sevens(["export", "--database-url", "sqlite:///piped.sqlite3", "piped.json"], tmp_path, closed_pipe)
    assert (run.returncode, run.stderr) == (141, b"")
    assert json.loads((tmp_path / "piped.json").read_text())["games"] == []
    if not Path("/dev/full").exists():
        return
    with open("/dev/full", "wb") as full:
        imported = _sevens(["import", "--database-url", "sqlite:///full.sqlite3", "empty.json"], tmp_path, full.fileno())
        exported = _sevens(["export", "--database-url", "sqlite:///full.sqlite3", "full.json"], tmp_path, full.fileno())
    assert (imported.returncode, exported.returncode) == (1, 1)
    assert imported.stderr == (b"error: the results could not be written to standard output: No space left on device "
                               b"(the import is done); send them somewhere that can take them (a file on a disk with "
                               b"room, a terminal, a pipe)\n")
    assert b"No space left on device (the export is written to full.json);" in exported.stderr
    assert (tmp_path / "full.json").exists()


def test_serve_whose_address_line_cannot_be_printed_ends_as_the_commands_do(tmp_path: Path, closed_pipe: int) -> None:
    """The line saying where it serves: into a closed pipe serve ended with status 1 and nothing said,
    into /dev/full with a bare 'error: [Errno 28] No space left on device' and status 2."""
    args = ["serve", "--port", "0", "--database-url", f"sqlite:///{tmp_path / 'games.sqlite3'}"]
    with socket.socket() as probe:  # a port free a moment ago; serve ends before it would listen
        probe.bind(("127.0.0.1", 0))
        args[2] = str(probe.getsockname()[1])
    said = _ends_as_results_do(args, tmp_path, closed_pipe)
    assert said is None or said == UNWRITTEN.removesuffix(b"; ") % b"No space left on device" + b"\n"


@pytest.mark.parametrize(
    ("args", "closed", "code", "says"),
    [
        (["odds", "--force", "20", "--flair", "9"], [1], 1, UNWRITTEN.removesuffix(b"; ") % b"Bad file descriptor" + b"\n"),
        (["--help"], [1], 1, UNWRITTEN.removesuffix(b"; ") % b"Bad file descriptor" + b"\n"),
        (["play", "--auto", "--seed", "x"], [1], 1, UNWRITTEN % b"Bad file descriptor"
         + b"the game was interrupted before the end\n"),
        (["play", "--seed", "x", "--no-save"], [0], 1, b"error: standard input ended (no orders were left on it) "
         b"before the game did; with --no-save it was kept nowhere, so it is lost and there is nothing to carry on "
         b"(to keep the next game, leave out --no-save, or give --save FILE)\n"),
        (["odds", "--force", "x", "--flair", "3"], [2], 2, b""),
    ],
    ids=["results", "help", "game", "no-input", "no-errors"],
)
def test_a_stream_the_command_was_started_without_is_the_null_device(
    args: list[str], closed: list[int], code: int, says: bytes, tmp_path: Path
) -> None:
    """Started with standard output closed (``>&-``) every command was a traceback ('NoneType' object
    has no attribute 'flush') and ``play --auto`` played to no one with status 0; without standard
    input ``play`` was a traceback; without standard error the error went to standard output."""
    def close() -> None:
        for fd in closed:
            os.close(fd)

    env = {**os.environ, "PYTHONPATH": SRC}
    run = subprocess.run([sys.executable, "-m", "sevens", *args], cwd=tmp_path, env=env, capture_output=True,
                         preexec_fn=close, timeout=600, check=False)
    assert run.returncode == code
    if 2 not in closed:
        assert run.stderr == says
    if 1 not in closed:
        assert b"error" not in run.stdout


@pytest.mark.parametrize("encoding", ["latin-1", "cp437", "ascii"])
@pytest.mark.parametrize("command", ["odds", "lab"])
def test_results_are_printed_whole_to_an_output_not_in_utf8(command: str, encoding: str, folder: Path) -> None:
    """An output whose encoding is not UTF-8 (a Latin-1 locale, a file redirected on Windows) could not
    take odds' bars ('█') or lab's dashes ('–'): the command ended with status 2 and "'latin-1' codec
    can't encode character", its results half printed."""
    env = {**os.environ, "PYTHONPATH": SRC, "PYTHONIOENCODING": encoding}
    run = subprocess.run([sys.executable, "-m", "sevens", *COMMANDS[command]], cwd=folder, env=env,
                         capture_output=True, timeout=600, check=False)
    assert (run.returncode, run.stderr) == (0, b"")
    shown = run.stdout.decode(encoding)
    assert re.search(r"\| [#█]+ +\|" if command == "odds" else r"\(\d+\.\d\d-\d+\.\d\d\)", shown), shown


@pytest.mark.parametrize(
    "args",
    [["play", "--auto", "--seed", "log"], ["odds", "--force", "30", "--flair", "9", "--vs-force", "20", "--knockout"]],
)
def test_a_log_has_no_line_ending_in_spaces_and_a_terminal_shows_the_same(args: list[str], tmp_path: Path) -> None:
    """``sevens play --auto > game.txt``: rich pads tables' titles and captions with spaces to the
    table's width, some fifty lines of a game's log ending in spaces. Written to a file they are
    dropped; a terminal (a real pty) shows exactly what it showed, the same text padded."""
    command = [sys.executable, "-m", "sevens", *args]
    env = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "80"}
    log = tmp_path / "log.txt"
    with log.open("w") as out:
        subprocess.run(command, cwd=tmp_path, env=env, stdout=out, timeout=600, check=True)
    written = log.read_text().splitlines()
    assert [line for line in written if line.endswith(" ")] == []
    with in_terminal(command, cwd=tmp_path, env=env) as (run, main):
        shown = read_until(main, rb"\Z-never", 600)  # all there is, until the command ends
        assert run.wait(timeout=60) == 0
    lines = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", shown.decode()).replace("\r\n", "\n").splitlines()
    assert any(line.endswith(" ") for line in lines)  # centred and left-justified titles, as before
    assert [line.rstrip() for line in lines] == written
