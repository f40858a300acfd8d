"""The lab's compiler: numba when it is installed, plain Python otherwise.

numba is a dependency, but the lab keeps a numpy path that works without it; the functions
compiled here then run as written, correct and slow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_njit: Any
try:
    from numba import njit as _njit
except ImportError:  # pragma: no cover - numba is a dependency; this keeps the numpy path usable
    _njit = None

__all__ = ["AVAILABLE", "compiler"]

AVAILABLE: bool = _njit is not None
"""Whether functions are compiled."""

_F = TypeVar("_F", bound=Callable[..., Any])


def compiler(**options: Any) -> Callable[[_F], _F]:
    """A decorator that compiles with numba (cached on disk, without the GIL) and ``options``."""

    def compile_(fn: _F) -> _F:
        if _njit is None:  # pragma: no cover
            return fn
        compiled: _F = _njit(cache=True, nogil=True, error_model="numpy", **options)(fn)
        return compiled

    return compile_
