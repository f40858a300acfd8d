"""The lab's compiler: numba when it is installed, plain Python otherwise.

numba is a dependency, but the lab keeps a numpy path that works without it; the functions
compiled here then run as written, correct and slow.

numba keeps what it compiles on disk, and takes it back while the decorated function's own file is
unchanged. But a compiled function keeps the values of the globals it read (the rules' numbers)
and the code of the compiled functions it calls, which live in other files: changed there, numba
would go on playing the old ones. So the cache lives in a folder named by
a digest of every Python file of the package, and a change anywhere in it compiles afresh.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

_njit: Any
_config: Any
try:
    from numba import njit as _njit
    from numba.core import config as _config
except ImportError:  # pragma: no cover - numba is a dependency; this keeps the numpy path usable
    _njit = None
    _config = None

__all__ = ["AVAILABLE", "cache_folder", "compiler", "source_digest"]

AVAILABLE: bool = _njit is not None
"""Whether functions are compiled."""

_F = TypeVar("_F", bound=Callable[..., Any])

_PACKAGE = Path(__file__).resolve().parents[1]


@functools.cache  # read once per process: the compiler and the Dask check both ask
def source_digest(package: Path = _PACKAGE) -> str:
    """A digest of the package's source files (their paths and contents), or "" where they cannot
    be read. The version stays the same across checkouts and edits; this does not."""
    digest = hashlib.blake2b(digest_size=16)
    try:
        for path in sorted(package.rglob("*.py")):
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    except OSError:
        return ""
    return digest.hexdigest()


def cache_folder(package: Path = _PACKAGE) -> Path | None:
    """Where numba keeps the compiled functions for this source: under ``NUMBA_CACHE_DIR`` if set,
    else beside the package's own ``__pycache__`` (other sources' folders there are removed);
    None where that cannot be written (numba then chooses, as without this)."""
    digest = source_digest(package)
    if not digest:
        return None
    user = os.environ.get("NUMBA_CACHE_DIR")
    root = Path(user) / "sevens" if user else package / "lab" / "__pycache__" / "numba"
    folder = root / digest[:16]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    if not user:  # only our own folder: another checkout may share a NUMBA_CACHE_DIR
        for old in root.iterdir():
            if old != folder and old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
    return folder


@functools.cache
def _our_folder() -> Path | None:
    """:func:`cache_folder` of this package, looked for once per process."""
    return cache_folder()


@contextlib.contextmanager
def _cache_in_folder() -> Iterator[None]:
    # numba picks a function's cache folder as it is decorated, from config.CACHE_DIR
    folder, before = _our_folder(), _config.CACHE_DIR
    if folder is not None:
        _config.CACHE_DIR = str(folder)
    try:
        yield
    finally:
        _config.CACHE_DIR = before


def compiler(**options: Any) -> Callable[[_F], _F]:
    """A decorator that compiles with numba (cached on disk for this source, see above, without the
    GIL) and ``options``."""

    def compile_(fn: _F) -> _F:
        if _njit is None:  # pragma: no cover
            return fn
        with _cache_in_folder():
            compiled: _F = _njit(cache=True, nogil=True, error_model="numpy", **options)(fn)
        return compiled

    return compile_
