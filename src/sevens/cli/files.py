"""Output files the commands write at the end: checked before the work, so a bad path costs nothing."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from sevens.cli.errors import fail

__all__ = ["check_writable"]


def check_writable(path: Path, option: str, *, example: str, suffixes: Sequence[str] = ()) -> None:
    """Fail at once, with one line, unless ``path`` can be written as a file.

    ``example``: a file name to suggest; ``suffixes``: the endings allowed (any when empty). The check creates the file and removes it
    again (an existing file is opened for appending and left as it was): permissions alone do not
    tell, root ignores them and some file systems (``/proc``) refuse new files to everyone.
    """
    if suffixes and path.suffix.lower() not in suffixes:
        fail(f"{option} must end in {' or '.join(suffixes)}, got {path.name or str(path)!r}")
    if path.is_dir():
        fail(f"{option} {path} is a folder; give a file name, e.g. {option} {path / example}")
    folder = path.parent
    if not folder.exists():
        fail(f"cannot write {option} {path}: the folder {folder} does not exist; create it or pick another path")
    if not folder.is_dir():
        fail(f"cannot write {option} {path}: {folder} is not a folder")
    existed = path.exists()
    try:
        if existed:
            with path.open("ab"):
                pass
        else:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            path.unlink()
    except OSError as exc:
        fail(f"cannot write {option} {path}: {exc.strerror or exc}; pick a file in a folder you can write to")
