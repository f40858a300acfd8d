"""An operator's look at what the server's memory holds over hours: tracemalloc snapshots on disk.

Off unless ``SEVENS_TRACE_MEMORY_DIR`` names a folder (it is not a setting of the app, and never on
by default: tracing slows every allocation and holds its own record of each). When it is set,
``sevens serve`` starts tracemalloc before it loads the app and writes a snapshot there every
``SEVENS_TRACE_MEMORY_MINUTES`` (10), named by the minutes since the start (``trace-0010.0.snap``).
``benchmarks/soak.py --trace-memory DIR`` sets both and prints the sites that grew between two of
them (``python benchmarks/soak.py --compare-traces DIR`` again later). Snapshots hold file names
and line numbers only, never the data allocated, so no order or token reaches the disk by them.
"""

from __future__ import annotations

import os
import threading
import time
import tracemalloc
from pathlib import Path

__all__ = ["DIR_VARIABLE", "MINUTES_VARIABLE", "snapshot_name", "start_from_environment"]

DIR_VARIABLE = "SEVENS_TRACE_MEMORY_DIR"
MINUTES_VARIABLE = "SEVENS_TRACE_MEMORY_MINUTES"
FRAMES = 8  # enough of each allocation's stack to see whose code, past the libraries', made it


def snapshot_name(minute: float) -> str:
    """The file a snapshot taken ``minute`` minutes after the start is written to."""
    return f"trace-{minute:06.1f}.snap"


def start_from_environment(environ: dict[str, str] | None = None) -> threading.Thread | None:
    """Start tracing and the snapshot thread if the environment asks; the thread, else None.

    Raises:
        ValueError: the folder cannot be made or written, or the minutes are not a positive number;
            the message names the variable and what to give.
    """
    environ = dict(os.environ) if environ is None else environ
    folder = environ.get(DIR_VARIABLE, "")
    if not folder:
        return None
    said = environ.get(MINUTES_VARIABLE, "10")
    try:
        minutes = float(said)
    except ValueError:
        minutes = -1.0
    if not minutes > 0:
        raise ValueError(f"{MINUTES_VARIABLE}: {said!r} is not a number of minutes above 0; give e.g. 10")
    directory = Path(folder)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / ".writable"
        probe.touch()
        probe.unlink()
    except OSError as exc:
        raise ValueError(f"{DIR_VARIABLE}: cannot write snapshots to {folder}: {exc.strerror or exc}; "
                         "give a folder this user may write, or unset it") from exc
    tracemalloc.start(FRAMES)
    began = time.monotonic()
    thread = threading.Thread(target=_snapshots, args=(directory, minutes * 60, began), daemon=True,
                              name="sevens-memory-trace")
    thread.start()
    return thread


def _snapshots(directory: Path, every: float, began: float) -> None:
    taken = 0
    while True:
        taken += 1
        time.sleep(max(0.0, began + taken * every - time.monotonic()))
        if not tracemalloc.is_tracing():  # stopped by someone else (a test): nothing more to take
            return
        snapshot = tracemalloc.take_snapshot().filter_traces(
            # tracemalloc's own bookkeeping, and the import machinery's, are not the server's.
            [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap*>")]
        )
        name = directory / snapshot_name((time.monotonic() - began) / 60)
        snapshot.dump(str(name.with_suffix(".part")))
        name.with_suffix(".part").replace(name)  # whole or not there: a reader never opens half of one
