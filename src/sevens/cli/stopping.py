"""How ``sevens play`` stops: Ctrl-C (SIGINT), Ctrl-\\ (SIGQUIT), a closed terminal (SIGHUP) and
``kill`` (SIGTERM) all end the game the same way, and none of them in the middle of writing a file.

By default SIGHUP, SIGTERM and SIGQUIT end a Python program at once, wherever it is (SIGQUIT with a
core dump): a game being kept in its file would leave the temporary file of that write beside it,
and nobody would be told how to carry the game on. Under :func:`stop_on_signals` each of these
signals raises :class:`Stopped`
(a KeyboardInterrupt, so every place that handles Ctrl-C handles them too), only once: a second
signal while the game winds up is ignored. Inside :func:`signals_deferred` they wait until the
block is done, so that a file being written is written whole and the game knows it was.

The waiting is done by the handler, not by blocking the signals: a signal sent to the process may
be taken by any of its threads (a numerical library's, say), and only a blocked thread would wait.

Python runs a signal's handler wherever the main thread is, and there are places where it ignores
what is raised: a weak reference's callback (the import system has some), a ``__del__``. Raised
there, :class:`Stopped` would be printed as "Exception ignored in ..." and lost, the program going
on as if no one had asked it to stop. It is caught on its way to being ignored, and the signal is
sent again a moment later, to land where it is taken.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

__all__ = [
    "Stopped", "exit_code", "output_gone", "signals_deferred", "stop_on_signals", "terminal_gone", "winding_up",
]

# SIGHUP and SIGQUIT are not there on Windows; the others are.
_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGHUP", "SIGTERM", "SIGQUIT") if hasattr(signal, name)
)

_stopping = False  # Stopped was raised: the program is winding up
_deferring = 0  # how many signals_deferred blocks are running
_pending: int | None = None  # a signal that came during one of them
_in_hook = False  # _unraisable is running: a Stopped raised now would be lost as well
_lost: int | None = None  # a signal whose Stopped Python ignored, to be sent again
_resend: threading.Timer | None = None  # what sends it
_AGAIN_AFTER = 0.01  # seconds before a lost signal is sent again: the place that lost it is left by then


class Stopped(KeyboardInterrupt):
    """A signal asked the program to stop: ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_code(exc: BaseException) -> int:
    """The exit status a shell expects of a program a signal stopped (128 + its number): 130 for
    Ctrl-C, 131 for Ctrl-\\, 129 for a closed terminal, 143 for ``kill``; 1 for anything else (input
    that ended).

    >>> exit_code(Stopped(signal.SIGTERM)), exit_code(KeyboardInterrupt()), exit_code(EOFError())
    (143, 130, 1)
    """
    if isinstance(exc, Stopped):
        return 128 + exc.signum
    return 128 + signal.SIGINT if isinstance(exc, KeyboardInterrupt) else 1


def terminal_gone(exc: BaseException) -> bool:
    """Whether ``exc`` says the terminal went away: the SIGHUP of a closed terminal, or the
    input/output error of writing to it once it is closed."""
    if isinstance(exc, Stopped):
        return exc.signum == getattr(signal, "SIGHUP", None)
    return isinstance(exc, OSError) and exc.errno == errno.EIO


def _stop(signum: int, frame: FrameType | None) -> None:
    global _stopping, _pending, _lost
    if _in_hook:  # inside the hook below, where it would be lost as well
        _send_again(signum)
        return
    if _stopping:  # already winding up: finish that rather than break it off
        return
    if _deferring:
        _pending = signum if _pending is None else _pending
        return
    _stopping, _lost = True, None
    raise Stopped(signum)


def _send_again(signum: int) -> None:
    global _lost, _resend
    _lost = signum
    _resend = threading.Timer(_AGAIN_AFTER, os.kill, (os.getpid(), signum))
    _resend.daemon = True
    _resend.start()


def _unraisable_hook(previous: Any) -> Any:
    """A :data:`sys.unraisablehook` that takes back a :class:`Stopped` Python is about to ignore
    (raised in a weak reference's callback or a ``__del__``): the stop is not over, so the signal
    is sent again; anything else goes to ``previous``."""

    def hook(unraisable: Any) -> None:
        global _stopping, _in_hook
        if not isinstance(unraisable.exc_value, Stopped):
            previous(unraisable)
            return
        _in_hook = True
        _stopping = False
        _send_again(unraisable.exc_value.signum)
        _in_hook = False

    return hook


def winding_up() -> None:
    """The program is stopping anyway (input ended, the terminal failed): under
    :func:`stop_on_signals`, a signal now is ignored rather than break off the winding up."""
    global _stopping
    _stopping = True


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGINT, SIGQUIT, SIGHUP and SIGTERM raise :class:`Stopped` (once); the handlers
    there before are put back after it. A signal the program was started ignoring stays ignored:
    ``nohup`` ignores SIGHUP so that a game goes on after the terminal closes, and a shell ignores
    SIGINT and SIGQUIT for a job it runs in the background. Outside the main thread, where Python handles no
    signal, nothing changes."""
    global _stopping, _pending
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {signum: handler for signum in _SIGNALS if (handler := signal.getsignal(signum)) is not signal.SIG_IGN}
    _stopping, _pending = False, None
    hook_before = sys.unraisablehook
    sys.unraisablehook = _unraisable_hook(hook_before)
    for signum in before:
        signal.signal(signum, _stop)
    try:
        yield
    finally:
        lost = _take_back_lost()
        for signum, handler in before.items():
            signal.signal(signum, handler)
        sys.unraisablehook = hook_before
        _stopping, _pending = False, None
        if lost is not None and sys.exc_info()[1] is None:
            raise Stopped(lost)  # lost, and the block ended before it was sent again: it still stops


def _take_back_lost() -> int | None:
    """A lost signal not yet raised again, its sending called off (None if there is none)."""
    global _lost, _resend
    lost, timer = _lost, _resend
    _lost, _resend = None, None
    if timer is not None:
        timer.cancel()
    return lost


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Under :func:`stop_on_signals`, hold its signals back while the block runs: one
    that came meanwhile raises :class:`Stopped` as the block ends, whether it ended well or not."""
    global _deferring, _pending, _stopping
    _deferring += 1
    try:
        yield
    finally:
        _deferring -= 1
        if not _deferring and _pending is not None and not _stopping:
            signum, _pending, _stopping = _pending, None, True
            raise Stopped(signum)  # the signal says why the program stops, over what the block raised


def output_gone() -> None:
    """Send standard output and error to the null device once the terminal is gone: what is still
    to be printed, and flushed at exit, is dropped instead of failing."""
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        for fd in (1, 2):
            os.dup2(null, fd)
        os.close(null)
