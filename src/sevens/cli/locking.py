"""One ``sevens play`` at a time for each saved game.

Two terminals carrying on one saved file would both play on and both rewrite it, the later write
silently winning. So the game holds an operating-system lock (``flock``) for as long as it keeps the
file. The lock is not taken on the saved file itself, which is replaced by a new file after every
turn, but on a small file beside it, ``.NAME.lock``, which holds the process id of the game that has
it. The system lets the lock go when that process ends in any way, ``kill -9`` and a crash
included, so a game that died never leaves its file locked; the lock file is removed when the
game lets go of it normally.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # not a POSIX system: games there are not locked
    fcntl = None  # type: ignore[assignment]

__all__ = ["GameLock", "InUse"]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # POSIX; a link named like the lock file is then refused (ELOOP)


class InUse(Exception):
    """Another process holds the lock: ``pid`` is its process id if it wrote one."""

    def __init__(self, path: Path, pid: int | None) -> None:
        super().__init__(f"{path} is open in another sevens play" + ("" if pid is None else f" (process {pid})"))
        self.path = path
        self.pid = pid


class GameLock:
    """The lock that keeps a second ``sevens play`` from the saved game ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock_path = path.with_name(f".{path.name}.lock")
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock, or raise :class:`InUse` at once if another process has it; OSError if the
        lock file cannot be made. Taking it again while held does nothing."""
        if self._fd is not None or fcntl is None:
            return
        while True:
            # Never through a symbolic link: in a folder others can write to (/tmp, a shared one),
            # one named like the lock file would have the process id written over the file it names.
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | _NOFOLLOW, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pid = _pid_in(fd)
                os.close(fd)
                raise InUse(self.path, pid) from None
            except OSError:
                os.close(fd)
                raise
            # The game that had it may have removed the lock file as it let go (and another game
            # made a new one) between the open and the lock: a lock on a removed file is no lock.
            try:
                same = os.path.samestat(os.fstat(fd), os.lstat(self.lock_path))
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        """Remove the lock file and let the lock go (the process ending does the same, bar the removal)."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.lock_path)
        os.close(self._fd)
        self._fd = None


def _pid_in(fd: int) -> int | None:
    """The process id written in a lock file, if it holds one."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None
