"""The ``sevens`` command line: one module per command group, registered in :mod:`sevens.cli.main`."""

from __future__ import annotations

import signal
from types import FrameType


def run() -> None:
    """The ``sevens`` command, as the script and ``python -m sevens`` start it.

    Ctrl-C while the command loads (typer, pydantic, SQLAlchemy, the odds tables, every command
    module: half a second or more) ends it quietly with status 130, as Ctrl-C does once a command
    runs. Under Python's own handler it printed a traceback through whichever import it came in.
    Nothing heavy is imported here, so that this holds from the command's first moment.
    """
    loading = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if loading:
        signal.signal(signal.SIGINT, _quit_while_loading)
    from sevens.cli.main import command, main

    cli = command()
    if loading:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    main(cli)


def _quit_while_loading(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(130)  # 128 + SIGINT, as a shell expects; nothing has been done yet
