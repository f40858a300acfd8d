"""Output files are written whole or not at all, and never replace a file unless asked to."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sevens.cli.files import replacing, write_text


def test_a_write_that_fails_half_way_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("the old record", encoding="utf-8")
    with pytest.raises(RuntimeError), replacing(path, overwrite=True) as part:
        part.write_text("half a rec", encoding="utf-8")
        raise RuntimeError("the disk filled up")
    assert path.read_text() == "the old record"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_overwrite_replaces_the_file_in_one_step(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("the old record", encoding="utf-8")
    write_text(path, "the new record", overwrite=True)
    assert path.read_text() == "the new record"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_without_overwrite_an_existing_file_is_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("the old record", encoding="utf-8")
    with pytest.raises(FileExistsError):
        write_text(path, "the new record", overwrite=False)
    assert path.read_text() == "the old record"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_file_system_without_hard_links_still_never_replaces_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(src: object, dst: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    write_text(tmp_path / "new.json", "written", overwrite=False)
    assert (tmp_path / "new.json").read_text() == "written"
    with pytest.raises(FileExistsError):
        write_text(tmp_path / "new.json", "again", overwrite=False)
    assert (tmp_path / "new.json").read_text() == "written"
    assert [p.name for p in tmp_path.iterdir()] == ["new.json"]


@pytest.mark.parametrize(("mode", "expected"), [(None, 0o644), (0o600, 0o600)])
def test_the_file_gets_the_permissions_of_a_new_file_or_those_asked_for(
    tmp_path: Path, mode: int | None, expected: int
) -> None:
    old = os.umask(0o022)
    try:
        write_text(tmp_path / "x.json", "{}", overwrite=False, mode=mode)
    finally:
        os.umask(old)
    assert (tmp_path / "x.json").stat().st_mode & 0o777 == expected


@pytest.mark.parametrize("option", ["--record", "--save"])
def test_overwrite_never_puts_a_file_in_place_of_a_pipe_or_a_device(option: str, tmp_path: Path) -> None:
    """`--record /dev/null --overwrite`, run as root, would have played the game and then replaced
    /dev/null itself with the record (os.replace takes any name). A named pipe stands in for the
    device here: refused before the game, and left a pipe."""
    import stat

    from typer.testing import CliRunner

    from sevens.cli.main import app

    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    result = CliRunner().invoke(app, ["play", "--auto", "--seed", "x", option, str(pipe), "--overwrite"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {option} {pipe} is not a file but a device, a pipe or a socket, which a "
                                    "written file would replace; give a file name, e.g. "), result.stderr
    assert "The draw" not in result.output
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)


def test_save_on_a_pipe_without_overwrite_is_refused_at_once_as_not_a_file(tmp_path: Path) -> None:
    """`sevens play --save PIPE` waited for ever: the check whether PIPE held a saved game opened
    it for reading, which waits for a writer. It is refused at once, as not a file: "already
    exists ... pass --overwrite" would send the person on to a second refusal. (The time limit
    only bounds the wait of a failing run.)"""
    import subprocess
    import sys

    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    result = subprocess.run([sys.executable, "-m", "sevens", "play", "--seed", "x", "--save", str(pipe)],
                            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"error: --save {pipe} is not a file but a device, a pipe or a socket, which a "
                                    "written file would replace; give a file name, e.g. "), result.stderr
    assert "--overwrite" not in result.stderr


@pytest.mark.parametrize("option", ["--record", "--save"])
def test_a_link_to_nothing_is_refused_before_the_game(option: str, tmp_path: Path) -> None:
    """A link whose file is not there is no file, so it passed the check; the game was played to the
    end, and then the record went to the temporary folder "as a file of that name appeared during
    the game" (--save: at the first turn, the same)."""
    from typer.testing import CliRunner

    from sevens.cli.main import app

    link = tmp_path / "game.json"
    link.symlink_to(tmp_path / "gone.json")
    result = CliRunner().invoke(app, ["play", "--auto", "--seed", "x", option, str(link)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"error: {option} {link} is a link to {tmp_path / 'gone.json'}, which is not there; the file written would "
        "replace the link: choose another file name, or pass --overwrite to replace it\n"
    )
    assert "The draw" not in result.output
    assert link.is_symlink() and not (tmp_path / "gone.json").exists()
