"""The ``sevens`` command line: one module per command group, registered in :mod:`sevens.cli.main`."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from types import FrameType


def run() -> None:
    """The ``sevens`` command, as the script and ``python -m sevens`` start it.

    Ctrl-C while the command loads (typer, pydantic, SQLAlchemy, the odds tables, every command
    module: half a second or more) ends it with one line, :data:`STOPPED_LOADING`, and status 130,
    as Ctrl-C does once a command runs. Under Python's own handler it printed a traceback through
    whichever import it came in; then it ended with 130 and no word, which looked like a crash.
    Nothing heavy is imported here, so that this holds from the command's first moment.
    """
    _hold_closed_streams()
    _drop_zero_width()
    loading = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if loading:
        signal.signal(signal.SIGINT, _quit_while_loading)
    from sevens.cli.main import command, main

    cli = command()
    if loading:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    main(cli)


STOPPED_LOADING = "error: interrupted as the command started: nothing was done\n"
"""What Ctrl-C while the command loads says (on stderr), as the other Ctrl-C paths say where they stopped."""


def _quit_while_loading(signum: int, frame: FrameType | None) -> None:
    # os.write, not print: the press may land inside an import of io's own machinery, and stderr
    # may be gone (a closed terminal); it costs nothing at start-up, being run only on a press.
    with contextlib.suppress(OSError):
        os.write(2, STOPPED_LOADING.encode())
    raise SystemExit(130)  # 128 + SIGINT, as a shell expects; nothing has been done yet


def _drop_zero_width() -> None:
    """``COLUMNS=0`` (some shells and CI runners set it where there is no terminal) is no width:
    rich took it for zero columns and printed nothing at all, results and help alike, with status
    0. Left out, the width is the terminal's, or 80 where there is none, as where it is unset."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) == 0:
        del os.environ["COLUMNS"]


def _hold_closed_streams() -> None:
    """A standard stream the command was started without (``>&-``, ``2>&-``, ``<&-``), which
    Python leaves None, becomes the null device: input ends at once; results fail with "Bad file
    descriptor" (the device opened for reading only), said as for any output that cannot be
    written; errors go nowhere, as asked. It was a traceback (None has no flush), an error printed
    to standard output, or a game played to no one with status 0; and the file opened next (a
    saved game, a database) took the stream's number."""
    for fd, name, flags in ((0, "stdin", os.O_RDONLY), (1, "stdout", os.O_RDONLY), (2, "stderr", os.O_WRONLY)):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
            continue  # open after all: left to Python
        except OSError:
            pass
        null = os.open(os.devnull, flags)  # the lowest free number: fd itself, as the lower ones are taken
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
        # Lives as the process does, as the stream Python would have opened.
        setattr(sys, name, open(fd, "r" if fd == 0 else "w", encoding="utf-8", closefd=False))  # noqa: SIM115
