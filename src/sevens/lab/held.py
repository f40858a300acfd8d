"""Signals held for the lab's next look: Ctrl-C, ``kill`` and a closed terminal acted on between the
lab's own steps, never inside a pool's code.

Python raises a handler's KeyboardInterrupt wherever the main thread is. While a pool of processes
or threads plays, that is nearly always inside ``concurrent.futures`` or ``threading``, between
taking a lock and letting it go: a future's lock, or the condition a new thread reports its start
on. Left held, that lock stopped the pool from shutting down, and the run said it was interrupted
and then never ended. :func:`between_steps` keeps each signal instead, and :meth:`Held.take` acts
on it, in the lab's own code, as the handler it stands in for would have.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

__all__ = ["EVERY", "SIGNALS", "Held", "between_steps"]

EVERY = 0.1
"""Seconds at most between two looks for a held signal while a pool plays."""

SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals held: Ctrl-C, ``kill`` and a closed terminal (SIGHUP is not there on Windows)."""


class Held:
    """Signals kept for :meth:`take` (see :func:`between_steps`)."""

    def __init__(self, handlers: dict[int, Callable[[int, FrameType | None], Any]]) -> None:
        self.handlers = handlers  # the ones it stands in for, by signal; a signal not there is not held
        self.kept: list[int] = []

    def keep(self, signum: int, frame: FrameType | None) -> None:
        if signum not in self.kept:
            self.kept.append(signum)

    def take(self) -> None:
        """Act on the signals kept since the last look, in the order they came, as the handlers
        they stand in for do."""
        while self.kept:
            signum = self.kept.pop(0)
            self.handlers[signum](signum, None)


@contextlib.contextmanager
def between_steps() -> Iterator[Held]:
    """Hold Ctrl-C, SIGTERM and SIGHUP for the caller's next :meth:`Held.take`, where each runs the
    handler it stands in for. Only a handler of the caller's own is stood in for (``sevens lab``
    stops on the first press and ignores later ones): an ignored signal stays ignored, and one left
    to the system's default still ends the process where it is. A signal kept and not yet taken
    when the block ends without an exception is taken then, after the handlers are back, so none
    is lost. Off the main thread, where no signal is delivered, nothing is held."""
    handlers = {}
    if threading.current_thread() is threading.main_thread():
        handlers = {signum: handler for signum in SIGNALS if callable(handler := signal.getsignal(signum))}
    held = Held(handlers)
    for signum in handlers:
        signal.signal(signum, held.keep)
    try:
        yield held
    finally:
        for signum, handler in handlers.items():
            if signal.getsignal(signum) == held.keep:  # not changed by the handler it stood in for
                signal.signal(signum, handler)
    held.take()
