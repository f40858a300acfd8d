"""The lock that keeps a second ``sevens play`` from a saved game (real files, real flock)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sevens.cli.locking import GameLock, InUse

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")


def test_a_second_lock_is_refused_with_the_holders_process_id_until_it_is_let_go(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    first, second = GameLock(game), GameLock(game)
    first.acquire()
    assert (tmp_path / ".game.json.lock").read_text() == f"{os.getpid()}\n"
    with pytest.raises(InUse) as refused:
        second.acquire()
    assert refused.value.pid == os.getpid() and not second.held
    first.release()
    assert not (tmp_path / ".game.json.lock").exists()
    second.acquire()
    assert second.held
    second.release()


def test_a_lock_file_left_by_a_killed_process_does_not_lock(tmp_path: Path) -> None:
    """Another process takes the lock and is killed with SIGKILL: its lock file stays, unlocked."""
    game = tmp_path / "game.json"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from sevens.cli.locking import GameLock; from pathlib import Path; "
         "GameLock(Path(sys.argv[1])).acquire(); print('locked', flush=True); time.sleep(600)", str(game)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        with pytest.raises(InUse) as refused:
            GameLock(game).acquire()
        assert refused.value.pid == holder.pid
    finally:
        holder.kill()
        holder.wait(timeout=30)
    assert (tmp_path / ".game.json.lock").exists()
    lock = GameLock(game)
    lock.acquire()
    assert (tmp_path / ".game.json.lock").read_text() == f"{os.getpid()}\n"
    lock.release()


def test_a_symbolic_link_named_like_the_lock_file_is_refused_and_what_it_names_is_left_alone(tmp_path: Path) -> None:
    """In a folder others can write to (a game kept with --save in /tmp), someone could make
    ``.game.json.lock`` a link to a file of the player's: taking the lock through it wrote the process
    id over that file. It is refused instead (OSError, which sevens play reports), the file kept."""
    kept = tmp_path / "notes.txt"
    kept.write_text("the player's own notes\n")
    (tmp_path / ".game.json.lock").symlink_to(kept)
    lock = GameLock(tmp_path / "game.json")
    with pytest.raises(OSError):
        lock.acquire()
    assert not lock.held and kept.read_text() == "the player's own notes\n"
