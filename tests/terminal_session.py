"""A command run in a real pseudo-terminal, for the tests that press keys in one (Ctrl-C)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Iterator
from typing import Any

import pytest


@contextlib.contextmanager
def in_terminal(command: list[str], columns: int | None = None,
                **popen: Any) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``command`` started in a session of its own whose controlling terminal is a new pty (so that
    Ctrl-C typed there reaches its worker processes too), with the pty's other end to read and type
    on; the command is killed if it is still running when the block ends. ``popen`` may send its
    stdout elsewhere (a file), its stderr staying on the terminal. ``columns``: the terminal's
    width, as a window of that size tells it (24 lines), before the command starts."""
    main, child = pty.openpty()
    if columns is not None:
        fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    run = subprocess.Popen(
        command, **{"stdin": child, "stdout": child, "stderr": child, **popen}, start_new_session=True,
        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
    )
    os.close(child)
    try:
        yield run, main
    finally:
        if run.poll() is None:
            run.kill()
        os.close(main)


def press_ctrl_c(main: int, presses: int) -> None:
    """Type Ctrl-C ``presses`` times, an impatient moment apart.

    The terminal is set not to throw away output on Ctrl-C (NOFLSH): by default a press discards
    what the command wrote and the test had not read yet, and on a loaded machine a second press
    could come after the command's last line was written, which the test then never saw (the
    line 'interrupted after about ...' went missing from a run that had printed it)."""
    attributes = termios.tcgetattr(main)
    attributes[3] |= termios.NOFLSH
    termios.tcsetattr(main, termios.TCSANOW, attributes)
    for press in range(presses):
        if press:
            time.sleep(0.02)
        os.write(main, b"\x03")


def read_until(fd: int, pattern: bytes, limit: float) -> bytes:
    """What the terminal shows until ``pattern`` appears (or ``limit`` seconds pass: a bound, not a measure)."""
    seen = b""
    end = time.monotonic() + limit
    while not re.search(pattern, seen) and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:  # the other end closed: the command ended
                break
    return seen


def wait_or_show_where(run: subprocess.Popen[bytes], fd: int, timeout: float) -> int:
    """``run``'s exit status once it ends; if it has not ended in ``timeout`` seconds, the test fails
    with what every thread of it was doing (``run`` started with ``PYTHONFAULTHANDLER=1``, whose
    handler prints each thread's stack on SIGABRT to the terminal ``fd`` reads): a hang in CI then
    says where it was."""
    try:
        return run.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        run.send_signal(signal.SIGABRT)
        where = read_until(fd, rb"(?!)", 10)
        pytest.fail(f"still running {timeout} s on; where each thread was:\n{where.decode(errors='replace')}")


def ctrl_c_while_loading(loading: str, entry: str = "from sevens.cli import run; run()") -> str:
    """A ``python -c`` script that runs the command by ``entry`` (the ``sevens`` script's own call by
    default) and sends itself a real SIGINT as module ``loading`` is first looked for: a finder ahead
    of the others sends it, so the press lands at that moment every time."""
    return (
        "import os, signal, sys\n"
        "class Press:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name == {loading!r}:\n"
        "            os.kill(os.getpid(), signal.SIGINT)\n"
        "sys.meta_path.insert(0, Press())\n"
        f"{entry}\n"
    )
