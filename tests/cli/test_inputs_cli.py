"""The files ``table``, ``verify`` and ``import`` read, when they are not what the command wants:
another command's file, an empty or cut-short one, a device. One line saying what the file is and
what to do, exit 2, nothing written."""

from __future__ import annotations

import json
import os
import resource
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sevens.cli.inputs
from sevens.cli.main import app

runner = CliRunner()

RECORD = {"format": "sevens-game-record", "version": 1, "seed_sha256": "00" * 32, "turns": []}
SAVED = {"format": "sevens-saved-game", "version": 1}
BACKUP = {"format": "sevens-backup", "version": 1, "full": False, "games": [], "credentials": []}
RESULTS = {"teams": ["fiji", "samoa", "tonga", "wales"], "matches": []}


def _run(tmp_path: Path, command: str, path: Path) -> tuple[int, str]:
    args = {"import": ["import", "--database-url", f"sqlite:///{tmp_path / 'restored.sqlite3'}"]}.get(command, [command])
    result = runner.invoke(app, [*args, str(path)])
    assert not (tmp_path / "restored.sqlite3").exists()
    return result.exit_code, result.stderr


@pytest.mark.parametrize(
    ("command", "data", "words"),
    [
        ("table", RECORD, "is a Sevens game record, not a group's results; check it with: sevens verify {path}"),
        ("table", BACKUP, "is a backup written by sevens export, not a group's results; restore it with: sevens import {path}"),
        ("table", SAVED, "is a game in progress kept by sevens play, not a group's results; carry it on with: sevens play --resume {path}"),
        ("verify", RESULTS, "is a group's results for sevens table, not a game record; draw its table with: sevens table {path}"),
        ("verify", BACKUP, "is a backup written by sevens export, not a game record; restore it with: sevens import {path}"),
        ("import", RECORD, "is a Sevens game record, not a backup written by 'sevens export'; check it with: sevens verify {path}"),
        ("import", RESULTS, "is a group's results for sevens table, not a backup written by 'sevens export'; draw its"),
    ],
)
def test_another_commands_file_is_named_with_the_command_that_takes_it(
    tmp_path: Path, command: str, data: dict[str, object], words: str
) -> None:
    """table listed a record's ten fields as unknown; verify and import said only 'not a record' or
    'not a backup', without naming the file or the command it is for. The command named a file with a
    space unquoted, so that pasted it gave two names."""
    path = tmp_path / "my file.json"  # a space: the command it names is quoted for a shell
    path.write_text(json.dumps(data), encoding="utf-8")
    code, err = _run(tmp_path, command, path)
    assert code == 2
    assert err.startswith(f"error: {path} " + words.format(path=shlex.quote(str(path)))) and err.count("\n") == 1, err


@pytest.mark.parametrize("command", ["table", "verify", "import"])
@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("", "the file is empty; is it the right file, and was it saved?"),
        ("  \n", "the file is empty"),
        ('{"format": "sevens-backup", "games": [{"id": "x", "na', "the file ends in the middle of its JSON (line 1): it was cut short"),
    ],
)
def test_an_empty_or_cut_short_file_is_called_so(tmp_path: Path, command: str, content: str, words: str) -> None:
    """Both used to read 'Expecting value: line 2 column 1 (char 1)', JSON's words for a parser."""
    path = tmp_path / "file.json"
    path.write_text(content, encoding="utf-8")
    code, err = _run(tmp_path, command, path)
    assert code == 2
    assert err.startswith("error: ") and words in err and err.count("\n") == 1, err


def test_an_empty_folder_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    code, err = _run(tmp_path, "import", folder)
    assert code == 2
    assert err == f"error: the folder {folder} holds no .json files; pass a file or directory written by 'sevens export'\n"


def test_a_file_not_a_backup_is_named_among_a_folders_files(tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "a.json").write_text(json.dumps(BACKUP), encoding="utf-8")
    (folder / "notes.json").write_text(json.dumps({"todo": []}), encoding="utf-8")
    code, err = _run(tmp_path, "import", folder)
    assert code == 2
    assert err.startswith(f"error: {folder / 'notes.json'} is not a Sevens backup"), err


@pytest.mark.parametrize("command", ["table", "verify", "import"])
def test_a_file_larger_than_any_input_is_refused_unread(
    tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sevens.cli.inputs, "MAX_INPUT_BYTES", 1024 * 1024)
    path = tmp_path / "big.json"
    path.write_text(json.dumps({**RESULTS, "padding": "x" * 1024 * 1024}), encoding="utf-8")
    code, err = _run(tmp_path, command, path)
    assert code == 2
    assert err.startswith(f"error: {path} is larger than 1 MB, far more than ") and err.count("\n") == 1, err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("command", ["table", "verify", "play --resume"])
def test_a_device_that_never_ends_is_refused_not_read_until_memory_runs_out(command: str) -> None:
    """`sevens verify /dev/zero` was read until the machine's memory ran out. The address space is
    capped here, so without the bound the command fails with a MemoryError instead of the machine."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))

    result = subprocess.run(
        [sys.executable, "-c", "from sevens.cli.main import main; main()", *command.split(), "/dev/zero"],
        # One BLAS thread: numpy's would otherwise reserve address space for each core of a big machine.
        capture_output=True, text=True, env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
        timeout=120, check=False, preexec_fn=cap,
    )
    assert result.returncode == 2, result.stderr[-500:]
    shown = "--resume /dev/zero" if command == "play --resume" else "/dev/zero"
    assert result.stderr.startswith(f"error: {shown} is larger than 64 MB, far more than "), result.stderr[-500:]
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("command", ["table", "verify", "import"])
def test_a_path_that_cannot_be_looked_at_is_refused_with_the_reason(tmp_path: Path, command: str) -> None:
    """A link to itself stands for any path the system will not look up (a file in a folder one may
    not search, as a user who is not root meets it): import called the link missing, and gave a
    bare "[Errno 13] Permission denied: ..." for the folder one may not search."""
    path = tmp_path / "loop.json"
    path.symlink_to(path.name)
    code, err = _run(tmp_path, command, path)
    assert code == 2
    assert err.startswith(f"error: cannot read {path}: Too many levels of symbolic links; ") and err.count("\n") == 1, err


@pytest.mark.parametrize(("command", "words"), [
    ("table", "no such file: {path}; give the path of a JSON file of a group's results"),
    ("verify", "no such file: {path}; give the path of a game record's JSON file"),
    ("import", "{path} does not exist; pass a file or directory written by 'sevens export'"),
])
def test_a_newline_in_a_files_name_is_shown_escaped_not_as_a_space(tmp_path: Path, command: str, words: str) -> None:
    """A refusal is one line, its line breaks made spaces: 'no such file: a b.json' named a file
    that may well be there, not the one typed."""
    path = tmp_path / "a\nb.json"
    code, err = _run(tmp_path, command, path)
    assert code == 2
    assert err == "error: " + words.format(path=f"{tmp_path}/a\\nb.json") + "\n", err
