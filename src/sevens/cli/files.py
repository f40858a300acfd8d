"""Output files the commands write at the end: checked before the work, so a bad path costs nothing,
and written whole or not at all.

Every command that writes a file follows one rule: an existing file is never replaced unless
``--overwrite`` is given, and the refusal comes before the work. A file is written to a temporary
file beside it and then moved into place in one step (``os.replace``, or ``os.link`` where nothing
may be replaced), so an interrupted or failed write leaves the old file, or none, never half a file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from sevens.cli.errors import fail

__all__ = ["OVERWRITE_HELP", "cannot_create_in", "check_writable", "exists_message", "replacing", "write_text"]

OVERWRITE_HELP = "Replace the output file if it already exists (without this, an existing file is refused and left as it is)."


def exists_message(label: str) -> str:
    """What to say when the file ``label`` names is there already: what was wrong and how to go on.

    >>> exists_message("--record game.json")
    '--record game.json already exists and would be replaced; choose another file name, or pass --overwrite to replace it'
    """
    return f"{label} already exists and would be replaced; choose another file name, or pass --overwrite to replace it"


def cannot_create_in(folder: Path) -> OSError | None:
    """Why no new file can be made in ``folder`` (which exists), or None if one can: a temporary
    file is created and removed again, as a write through :func:`replacing` will need."""
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".sevens-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return exc
    return None


def check_writable(
    path: Path, option: str, *, example: str, suffixes: Sequence[str] = (), overwrite: bool = False
) -> None:
    """Fail at once, with one line, unless ``path`` can be written as a file.

    ``example``: a file name to suggest; ``suffixes``: the endings allowed (any when empty);
    ``overwrite``: whether an existing file may be replaced (else it is refused). The check creates
    a temporary file in the folder and removes it again, as the write itself will: permissions alone
    do not tell, root ignores them and some file systems (``/proc``) refuse new files to everyone.
    """
    if suffixes and path.suffix.lower() not in suffixes:
        fail(f"{option} must end in {' or '.join(suffixes)}, got {path.name or str(path)!r}")
    if path.is_dir():
        fail(f"{option} {path} is a folder; give a file name, e.g. {option} {path / example}")
    if path.exists() and not overwrite:
        fail(exists_message(f"{option} {path}"))
    folder = path.parent
    if not folder.exists():
        fail(f"cannot write {option} {path}: the folder {folder} does not exist; create it or pick another path")
    if not folder.is_dir():
        fail(f"cannot write {option} {path}: {folder} is not a folder")
    refused = cannot_create_in(folder)
    if refused is not None:
        fail(f"cannot write {option} {path}: {refused.strerror or refused}; pick a file in a folder you can write to")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def replacing(path: Path, *, overwrite: bool, mode: int | None = None) -> Iterator[Path]:
    """A temporary file beside ``path`` for the block to write; when the block ends without an
    error it becomes ``path`` in one step, and otherwise it is removed.

    ``mode``: the file's permissions (default: what a new file gets, 0666 less the umask). Without
    ``overwrite`` a ``path`` that appeared meanwhile is left alone: FileExistsError.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with replacing(folder / "a.txt", overwrite=False) as part:
    ...     _ = part.write_text("whole")
    >>> (folder / "a.txt").read_text(), [p.name for p in folder.iterdir()]
    ('whole', ['a.txt'])
    >>> with replacing(folder / "a.txt", overwrite=False) as part:
    ...     _ = part.write_text("again")
    Traceback (most recent call last):
    ...
    FileExistsError: [Errno 17] File exists: 'a.txt'
    >>> (folder / "a.txt").read_text(), [p.name for p in folder.iterdir()]
    ('whole', ['a.txt'])
    """
    # The suffix is kept (".tmp.png"): what writes the file may choose its format by it.
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=f".tmp{path.suffix}")
    part = Path(name)
    try:
        os.fchmod(fd, (0o666 & ~_umask()) if mode is None else mode)
        os.close(fd)
        fd = -1
        yield part
        with part.open("rb") as handle:
            os.fsync(handle.fileno())  # on disk before it takes the name: a crash leaves the old file
        if overwrite:
            os.replace(part, path)
        else:
            _link_new(part, path)
    finally:
        if fd != -1:
            os.close(fd)
        part.unlink(missing_ok=True)


def _link_new(part: Path, path: Path) -> None:
    """Give ``part``'s file the name ``path`` unless that name is taken (then FileExistsError)."""
    try:
        os.link(part, path)  # atomic, and it never replaces a file
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), path.name) from None
    except OSError:
        # A file system without hard links: the check and the move are two steps then.
        if path.exists():
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), path.name) from None
        os.replace(part, path)


def write_text(path: Path, text: str, *, overwrite: bool, mode: int | None = None) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all (see :func:`replacing`)."""
    with replacing(path, overwrite=overwrite, mode=mode) as part:
        part.write_text(text, encoding="utf-8")
