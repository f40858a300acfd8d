"""How many cores the lab may use: worker processes and the compiled loop's threads both size from it."""

from __future__ import annotations

import os

__all__ = ["available_cores"]


def available_cores() -> int:
    """The cores this process may run on: the ones the system lets it use where it says (``taskset``,
    a container's CPU set), else every core of the machine.

    >>> 1 <= available_cores() <= (os.cpu_count() or 1)
    True
    """
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # macOS and Windows have no affinity to ask
        return os.cpu_count() or 1
