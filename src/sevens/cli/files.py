"""Output files the commands write at the end: checked before the work, so a bad path costs nothing,
and written whole or not at all.

Every command that writes a file follows one rule: an existing file is never replaced unless
``--overwrite`` is given, and the refusal comes before the work. A file is written to a temporary
file beside it and then moved into place in one step (``os.replace``, or ``os.link`` where nothing
may be replaced), so an interrupted or failed write leaves the old file, or none, never half a file.

Only ``kill -9`` (or a power cut) can stop a write before it removes its temporary file. That file's
name carries the writer's process id (``.NAME-PID-XXXXXXXX.tmp.json``), so that a later write of
the same file can tell such a leftover from a write in progress and remove it
(:func:`remove_leftovers`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from sevens.cli.errors import fail
from sevens.tournament.quoting import escaped

__all__ = [
    "OVERWRITE_HELP",
    "cannot_create_in",
    "check_writable",
    "exists_message",
    "instead",
    "refuse_existing",
    "remove_leftovers",
    "replacing",
    "through_link",
    "unexpanded_home",
    "write_text",
]

OVERWRITE_HELP = "Replace the output file if it already exists (without this, an existing file is refused and left as it is)."


def exists_message(label: str) -> str:
    """What to say when the file ``label`` names is there already: what was wrong and how to go on.

    >>> exists_message("--record game.json")
    '--record game.json already exists and would be replaced; choose another file name, or pass --overwrite to replace it'
    """
    return f"{label} already exists and would be replaced; choose another file name, or pass --overwrite to replace it"


def refuse_existing(outputs: Sequence[tuple[str, Path | None]], *, overwrite: bool) -> None:
    """Refuse in one line, unless ``overwrite``, the files already there among two or more a command
    writes (``("--plot", path)``, ...; None for one not asked for): refused one by one, a user who
    renamed the first was sent back again for the second. One alone is left to :func:`check_writable`,
    and two names of one file to the command, which says so.
    """
    if overwrite:
        return
    found = [(option, path) for option, path in outputs if path is not None and _is_file(path)]
    if len({os.path.realpath(path) for _, path in found}) < len(found):
        return  # two names of one file: the command says so, which is the mistake to mend first
    there = [f"{option} {path}" for option, path in found]
    if len(there) > 1:
        fail(f"{', '.join(there[:-1])} and {there[-1]} already exist and would be replaced; choose other file names, "
             "or pass --overwrite to replace them")


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file already there; a name the file system cannot even look up (too
    long) is none, left to :func:`check_writable` to refuse with its reason."""
    try:
        return path.is_file()
    except OSError:
        return False


def _part_affixes(path: Path) -> tuple[str, str]:
    """The prefix and suffix of the temporary file :func:`replacing` writes ``path`` through. The
    suffix is kept (".tmp.png"): what writes the file may choose its format by it. The process id
    tells a leftover of a writer that was killed from a write in progress (remove_leftovers)."""
    return f".{path.stem}-{os.getpid()}-", f".tmp{path.suffix}"


def through_link(path: Path) -> Path:
    """The file a write of ``path`` replaces: the file a symbolic link names, as the shell's ``>``
    and ``cp`` write through one; else ``path`` itself. Replacing the link by a new file left the
    file it named as it was and cut the link (a ``latest.json`` pointing into a dated folder, say).
    A link to nothing is left to the write, which refuses it as a name already taken."""
    if path.is_symlink() and path.exists():
        return path.resolve()
    return path


def cannot_create_in(folder: Path, like: Path | None = None) -> OSError | None:
    """Why no new file can be made in ``folder`` (which exists), or None if one can: a temporary
    file is created and removed again, as a write through :func:`replacing` will need; named as
    that write's own will be where ``like`` (the file to write) is given, since a name near the
    file system's limit leaves no room for the temporary one's longer name."""
    prefix, suffix = (".sevens-", ".tmp") if like is None else _part_affixes(like)
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=suffix)
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
    try:
        _check_writable(path, option, example=example, suffixes=suffixes, overwrite=overwrite)
    except OSError as exc:  # the path itself cannot be looked at (a name too long for the file system)
        fail(f"cannot write {option} {escaped(path)}: {exc.strerror or exc}; {instead(exc)}")


def instead(exc: OSError) -> str:
    """What to do instead when a write of a file cannot be made in its folder (:func:`cannot_create_in`)."""
    if exc.errno == errno.ENAMETOOLONG:
        return "choose a shorter file name (it is written under a longer temporary name first, then renamed)"
    return "pick a file in a folder you can write to"


def unexpanded_home(path: Path | str, option: str) -> str | None:
    """What to say of a path given to ``option`` that starts with a ``~`` the shell left as it is
    (a shell expands it only at the start of a word and unquoted: not in ``--plot "~/x.png"``, nor
    in ``--plot=~/x.png``), where no folder of that name is here; else None. Such a path is taken
    as written, as every path given to a command is: a folder named ``~`` in the current one is
    written to, and none is made (creating one was the advice it got). ``path`` as typed is kept in
    what to write instead (an export's folder keeps its final ``/``).

    >>> import os
    >>> home = os.path.expanduser("~")
    >>> unexpanded_home(Path("~/x.png"), "--plot") == (f"~ was not expanded to your home folder (a shell expands it "
    ...     f"only unquoted, at the start of a word) and there is no folder named ~ here; write --plot ~/x.png "
    ...     f"(unquoted, after a space) or --plot {home}/x.png")
    True
    >>> unexpanded_home(Path("~nobody-at-all/x.png"), "--plot")
    '~nobody-at-all was not expanded (a shell expands ~ only unquoted, at the start of a word), names no user here, and there is no folder of that name here; write the whole path'
    >>> unexpanded_home(Path("plots/x.png"), "--plot") is None
    True
    """
    parts = Path(path).parts
    first = parts[0] if parts else ""
    if not first.startswith("~") or Path(first).exists():
        return None
    expanded = os.path.expanduser(str(path))
    if expanded == str(path):  # ~name of a user this machine does not have
        return (f"{first} was not expanded (a shell expands ~ only unquoted, at the start of a word), names no user "
                "here, and there is no folder of that name here; write the whole path")
    whose = "your home folder" if first == "~" else f"{first[1:]}'s home folder"
    return (f"{first} was not expanded to {whose} (a shell expands it only unquoted, at the start of a word) and "
            f"there is no folder named {first} here; write {option} {path} (unquoted, after a space) or {option} {expanded}")


def _check_writable(path: Path, option: str, *, example: str, suffixes: Sequence[str], overwrite: bool) -> None:
    # Names escaped before the message is made one line: a newline in a name stays \n, not a space.
    if suffixes and path.name.lower() in suffixes:  # '.png' alone is a hidden file's name, with no ending
        fail(f"{option} {escaped(path.name)} is an ending with no name before it; give a file name, e.g. {option} {example}")
    if path.is_dir():  # before its ending: '--plot /tmp' was told it "must end in .png or .svg, got 'tmp'"
        fail(f"{option} {escaped(path)} is a folder; give a file name, e.g. {option} {escaped(path / example)}")
    if suffixes and path.suffix.lower() not in suffixes:
        # What to write, not only what is wrong: the same name with an ending it takes.
        named = path.with_suffix(suffixes[0]) if path.name else Path(example)
        fail(f"{option} must end in {' or '.join(suffixes)}, got {path.name or str(path)!r}; write e.g. {option} {escaped(named)}")
    if path.exists() and not path.is_file():
        # --overwrite would put a file in its place: /dev/null itself, when root writes there. Said
        # before "already exists", whose advice (pass --overwrite) would only lead to this.
        fail(f"{option} {escaped(path)} is not a file but a device, a pipe or a socket, which a written file would replace; "
             f"give a file name, e.g. {option} {example}")
    if path.exists() and not overwrite:
        fail(exists_message(f"{option} {escaped(path)}"))
    if path.is_symlink() and not path.exists() and not overwrite:
        # A link to nothing is no file, but its name is taken: the write, made without replacing,
        # found it at the end and said a file had appeared meanwhile, a whole game later.
        fail(f"{option} {escaped(path)} is a link to {escaped(os.readlink(path))}, which is not there; the file written would replace "
             "the link: choose another file name, or pass --overwrite to replace it")
    folder = path.parent
    if not folder.exists():
        home = unexpanded_home(path, option)
        if home is not None:
            fail(f"cannot write {option} {escaped(path)}: {home}")
        fail(f"cannot write {option} {escaped(path)}: the folder {escaped(folder)} does not exist; create it or pick another path")
    if not folder.is_dir():
        fail(f"cannot write {option} {escaped(path)}: {escaped(folder)} is not a folder")
    refused = cannot_create_in(folder, like=path)
    if refused is not None:
        fail(f"cannot write {option} {escaped(path)}: {refused.strerror or refused}; {instead(refused)}")


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
    prefix, suffix = _part_affixes(path)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=suffix)
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


def _running(pid: int) -> bool:
    """Whether a process ``pid`` is running here (one of another user's counts as running)."""
    try:
        os.kill(pid, 0)  # signal 0: nothing is sent, the system only says whether the process is there
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it is there, another user's
        return True
    return True


def remove_leftovers(path: Path, *, mode: int, starts: bytes) -> list[Path]:
    """Remove the temporary files that writes of ``path`` through :func:`replacing` (with ``mode``)
    left behind when their process was killed (``kill -9``) mid-write; the files removed.

    Only a file that is provably such a leftover is removed: named exactly as :func:`replacing`
    names a temporary file of ``path`` (``.NAME-PID-XXXXXXXX.tmp.SUFFIX``, the folder's own), a
    regular file, owned by the user running this, with exactly the permissions ``mode`` that the
    write gave it, empty or starting as every file written to ``path`` starts (``starts``: what
    was written, or the first part of it), and written by a process ``PID`` that is not running
    (so not being written now; a process id used again by another program keeps it). The name
    alone proves nothing: a user may call a file ``.game-2024-backup_1.tmp.json``. Anything else
    is left as it is, and so is a file that cannot be looked at or removed: tidying up never
    stops the write it goes with.

    >>> import tempfile, subprocess, sys
    >>> folder = Path(tempfile.mkdtemp())
    >>> gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    >>> dead = int(gone.stdout)
    >>> for name, text in ((f".game-{dead}-a1b2c3d4.tmp.json", '{"game"'), (f".game-{dead}-b1b2c3d4.tmp.json", ""),
    ...                    (f".game-{os.getpid()}-a1b2c3d4.tmp.json", '{"game"'), (".game-a1b2c3d4.tmp.json", '{"game"'),
    ...                    (f".game-{dead}-a1b2c3d4.tmp.txt", '{"game"'), (f".other-{dead}-a1b2c3d4.tmp.json", '{"game"'),
    ...                    (f".game-{dead}-backup_1.tmp.json", "a user's")):
    ...     _ = (folder / name).write_text(text)
    ...     (folder / name).chmod(0o600)
    >>> removed = remove_leftovers(folder / "game.json", mode=0o600, starts=b'{"game"')
    >>> sorted(p.name for p in removed) == [f".game-{dead}-a1b2c3d4.tmp.json", f".game-{dead}-b1b2c3d4.tmp.json"]
    True
    >>> len(list(folder.iterdir()))
    5
    """
    if os.name != "posix":  # os.kill(pid, 0) is no question elsewhere (on Windows it sends Ctrl-C)
        return []
    pattern = re.compile(rf"\.{re.escape(path.stem)}-([1-9][0-9]{{0,9}})-[a-z0-9_]{{8}}\.tmp{re.escape(path.suffix)}")
    folder = path.parent
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        found = pattern.fullmatch(name)
        if found is None or int(found[1]) == os.getpid():
            continue
        leftover = folder / name
        try:
            info = os.lstat(leftover)
            if (not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or stat.S_IMODE(info.st_mode) != mode
                    or not _starts(leftover, starts) or _running(int(found[1]))):
                continue
            leftover.unlink()
        except OSError:
            continue
        removed.append(leftover)
    return removed


def _starts(file: Path, starts: bytes) -> bool:
    """Whether ``file`` holds what a write that begins with ``starts`` may have left: nothing yet,
    part of ``starts``, or ``starts`` and more. Never through a link, nor waiting on a pipe."""
    fd = os.open(file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        head = handle.read(len(starts))
    return starts.startswith(head)
