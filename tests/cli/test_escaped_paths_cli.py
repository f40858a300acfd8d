"""Paths someone chose, printed by a command that worked: an escape sequence in a folder's or a
file's name is shown escaped (``\\x1b[31m``), as the refusals show it, never passed to the
terminal, which would obey it (turn the rest red, clear the screen, retitle the window). Where the
output is no terminal, click used to strip the sequence instead, naming a file that is not there."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sevens.cli.main import app
from sevens.tournament.quoting import escaped

runner = CliRunner()

RED = "\x1b[31m"


def _shown(output: str) -> str:
    assert "\x1b" not in output, output
    return " ".join(output.split())


def test_the_path_of_a_bot_that_raised_is_escaped_in_the_odds_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """sevens.bots.strategies.raised_at named the bot's file as it was, and the odds line printed it
    to the terminal; the refusal line that stops a game escaped it already."""
    folder = tmp_path / f"ev{RED}il"
    folder.mkdir()
    (folder / "escaped_boom.py").write_text("from sevens.bots import EvenSpread\n\n\nclass Boom(EvenSpread):\n"
                                            "    def order_mix(self, view):\n        raise RuntimeError('no mix')\n")
    monkeypatch.chdir(folder)
    result = runner.invoke(app, ["play", "--players", "4", "--bots", "escaped_boom:Boom", "--no-save", "--seed", "m"],
                           input="10 9\ny\n" * 12, env={"COLUMNS": "400"})
    said = _shown(result.output)
    assert (f"no odds against its bot escaped_boom:Boom, which raised RuntimeError: no mix at "
            f"{tmp_path}/ev\\x1b[31mil/escaped_boom.py, line 6 when asked what it mixes over") in said


def test_the_record_file_is_named_escaped_when_it_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["play", "--auto", "--seed", "a", "--no-save", "--record", f"{RED}g.json"])
    assert result.exit_code == 0, result.output
    assert "Game record written to \\x1b[31mg.json; check it with: sevens verify" in _shown(result.output)
    assert (tmp_path / f"{RED}g.json").stat().st_size > 0


def test_the_csv_file_is_named_escaped_when_it_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["lab", "--strategies", "even,random", "--tournaments", "16", "--teams", "8",
                                 "--workers", "1", "--csv", f"{RED}r.csv"])
    assert result.exit_code == 0, result.output
    assert _shown(result.stdout).endswith("CSV written to \\x1b[31mr.csv")
    assert (tmp_path / f"{RED}r.csv").stat().st_size > 0


def test_the_database_and_the_export_are_named_escaped(tmp_path: Path) -> None:
    """import, export and rotate-key say which database and which file; sevens serve's first line
    names its database the same way (sevens.cli.serve.shown_database)."""
    backup = tmp_path / "empty.json"
    backup.write_text(json.dumps({"format": "sevens-backup", "version": 1, "full": False, "games": [],
                                  "credentials": []}), encoding="utf-8")
    database = tmp_path / f"{RED}games.sqlite3"
    url = f"sqlite:///{database}"
    escaped_database = f"{tmp_path}/\\x1b[31mgames.sqlite3"

    imported = runner.invoke(app, ["import", "--database-url", url, str(backup)])
    assert imported.exit_code == 0, imported.output
    assert f"imported 0 games (0 still open) and 0 credentials into {escaped_database}" in _shown(imported.stdout)

    export = tmp_path / f"{RED}export.json"
    exported = runner.invoke(app, ["export", "--database-url", url, str(export)])
    assert exported.exit_code == 0, exported.output
    assert _shown(exported.stdout) == f"exported 0 games as a shareable export to {tmp_path}/\\x1b[31mexport.json"
    assert json.loads(export.read_text(encoding="utf-8"))["games"] == []

    rotated = runner.invoke(app, ["rotate-key", "--database-url", url])
    assert rotated.exit_code == 0, rotated.output
    assert _shown(rotated.stdout).startswith(f"rotated the rate-limit key of {escaped_database}: forgot 0 ")


@pytest.mark.parametrize(("made", "words"), [
    ("folder", "--csv {path} is a folder; give a file name, e.g. --csv {path}/results.csv"),
    ("file", "--csv {path} already exists"),
    ("nothing", "cannot write --csv {path}/r.csv: the folder {path} does not exist"),
])
def test_a_file_to_write_that_is_refused_is_named_with_its_newline(tmp_path: Path, made: str, words: str) -> None:
    """The refusal was made one line after the path went in, so a newline in it became a space, naming
    a file that is not there; it stays \\n as the refusals of a file read keep it."""
    path = tmp_path / "two\nlines"
    if made == "folder":
        path.mkdir()
    elif made == "file":
        path.write_text("kept", encoding="utf-8")
    given = path / "r.csv" if made == "nothing" else path
    result = runner.invoke(app, ["lab", "--strategies", "even,random", "--tournaments", "16", "--teams", "8",
                                 "--workers", "1", "--csv", str(given)])
    assert result.exit_code != 0 and result.stderr.count("\n") == 1, result.output
    assert words.format(path=f"{tmp_path}/two\\nlines") in result.stderr, result.stderr
    assert made != "file" or path.read_text(encoding="utf-8") == "kept"


# A file's name with what a terminal acts on: an escape sequence, a newline, a tab, U+202E (shown
# right to left), a backslash and a quote beside them, a byte that is no UTF-8 (a surrogate in str);
# and one with spaces together, of which a refusal made one line keeps one.
ODD_NAMES = [f"{RED}g.json", "two\nlines.json", "a\tb\\c'd.json", "ab\u202egnp.json", os.fsdecode(b"x\xff.json"),
             "a  b.json"]

# One word of a command as a shell reads it: $'...' with its escapes, '...', or a bare word.
_WORD = r"(\$'(?:[^'\\]|\\.)*'|'[^']*'|[^\s;,']+)"


def _named_by_bash(output: str, command: str) -> bytes:
    """The file named by the word after ``command`` in ``output``, as bash reads it when the
    command is pasted: its bytes, from bash's own printf."""
    found = re.search(re.escape(command) + " " + _WORD, _shown(output))
    assert found, output
    named = subprocess.run(["bash", "-c", f"printf %s {found[1]}"], capture_output=True, check=True, timeout=30)
    return named.stdout


@pytest.mark.parametrize("name", ODD_NAMES, ids=["escape", "newline", "tab-backslash-quote", "u202e", "not-utf8", "two-spaces"])
def test_the_commands_shown_to_copy_name_the_same_file_when_pasted_into_bash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Each command shown with a file's name (verify the record; carry on a saved game from verify,
    from the game that stopped and from --save refusing to replace it; the other command that
    takes a file) names that file when pasted into bash, while the line holds nothing a terminal
    would act on. shlex.quote's '...' of the escaped name named a file that starts with a
    backslash ('\\x1b[31mg.json')."""
    monkeypatch.chdir(tmp_path)
    wanted = os.fsencode(name)
    recorded = runner.invoke(app, ["play", "--auto", "--seed", "a", "--no-save", "--record", name],
                             env={"COLUMNS": "400"})
    assert recorded.exit_code == 0, recorded.output
    assert _named_by_bash(recorded.output, "check it with: sevens verify") == wanted
    tabled = runner.invoke(app, ["table", name], env={"COLUMNS": "400"})
    assert tabled.exit_code != 0 and _named_by_bash(tabled.stderr, "check it with: sevens verify") == wanted
    assert _shown(tabled.stderr).startswith(f"error: {_shown(escaped(name))} is a Sevens game record"), tabled.stderr

    saved = f"s-{name}"
    played = runner.invoke(app, ["play", "--players", "4", "--seed", "b", "--save", saved], input="10 9\ny\n",
                           env={"COLUMNS": "400"})
    assert played.exit_code == 1, played.output
    assert f"the game is kept in {_shown(escaped(str(tmp_path / saved)))} as it stood" in _shown(played.stderr)
    assert _named_by_bash(played.stderr, "sevens play --resume") == os.fsencode(str(tmp_path / saved))
    verified = runner.invoke(app, ["verify", saved], env={"COLUMNS": "400"})
    assert _named_by_bash(verified.stderr, "sevens play --resume") == os.fsencode(saved)
    again = runner.invoke(app, ["play", "--players", "4", "--seed", "b", "--save", saved], input="10 9\ny\n",
                          env={"COLUMNS": "400"})
    assert _shown(again.stderr).startswith(f"error: --save {_shown(escaped(saved))} already holds"), again.stderr
    assert _named_by_bash(again.stderr, "sevens play --resume") == os.fsencode(saved)
