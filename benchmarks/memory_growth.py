"""Where a server's memory grew: two tracemalloc snapshots of ``sevens serve`` compared, site by site.

    SEVENS_TRACE_MEMORY_DIR=/tmp/traces sevens serve ...        # snapshots every 10 minutes
    .venv/bin/python benchmarks/soak.py --trace-memory /tmp/traces --minutes 60   # or a soak takes them
    .venv/bin/python benchmarks/memory_growth.py /tmp/traces               # from minute 10 to the last
    .venv/bin/python benchmarks/memory_growth.py /tmp/traces --since 20 --top 30 --by traceback

For each allocation site (a file and line, or with ``--by traceback`` the whole stack the snapshots
kept) the memory it held at the earlier snapshot and at the later one, side by side, their ratio, and
the count of blocks, the sites that grew most first; then the traced totals. A site that keeps growing
from one comparison to the next, where the caches have filled, is what to bound.
"""

from __future__ import annotations

import argparse
import sys
import tracemalloc
from contextlib import suppress
from pathlib import Path

# Read where the server wrote them; the name says the minute (sevens.web.memory_trace.snapshot_name).
_PREFIX, _SUFFIX = "trace-", ".snap"


def snapshots(directory: Path) -> dict[float, Path]:
    """The snapshots in ``directory`` by the minute each was taken."""
    found = {}
    for path in directory.glob(f"{_PREFIX}*{_SUFFIX}"):
        with suppress(ValueError):
            found[float(path.name.removeprefix(_PREFIX).removesuffix(_SUFFIX))] = path
    return found


def growth(earlier: tracemalloc.Snapshot, later: tracemalloc.Snapshot, by: str, top: int) -> list[str]:
    """The ``top`` sites that grew most, one line each, and a line of the totals."""
    lines = [f"{'MB then':>9} {'MB now':>9} {'ratio':>7} {'blocks then':>12} {'blocks now':>11}  site"]
    for stat in later.compare_to(earlier, by)[:top]:
        then_size, then_count = stat.size - stat.size_diff, stat.count - stat.count_diff
        ratio = f"{stat.size / then_size:.2f}" if then_size else "new"
        frames = stat.traceback.format(most_recent_first=True)
        site = " <- ".join(frame.strip() for frame in frames if not frame.startswith("    "))
        lines.append(f"{then_size / 1e6:9.2f} {stat.size / 1e6:9.2f} {ratio:>7} {then_count:12d} {stat.count:11d}  {site}")
    then = sum(t.size for t in earlier.traces)
    now = sum(t.size for t in later.traces)
    lines.append(f"{then / 1e6:9.2f} {now / 1e6:9.2f} {now / then:7.2f} {len(earlier.traces):12d} {len(later.traces):11d}  all traced")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", type=Path, help="the folder SEVENS_TRACE_MEMORY_DIR named")
    parser.add_argument("--since", type=float, default=10, help="the minute of the earlier snapshot (the first at or after it; 10)")
    parser.add_argument("--until", type=float, default=None, help="the minute of the later one (the last at or before it; the last)")
    parser.add_argument("--top", type=int, default=15, help="how many sites (15)")
    parser.add_argument("--by", choices=("lineno", "traceback", "filename"), default="lineno",
                        help="a site is a line (lineno), a whole stack (traceback) or a file (filename)")
    args = parser.parse_args()
    found = snapshots(args.directory)
    earlier = min((m for m in found if m >= args.since), default=None)
    later = max((m for m in found if args.until is None or m <= args.until), default=None)
    if earlier is None or later is None or later <= earlier:
        sys.exit(f"error: {args.directory} holds no two snapshots from minute {args.since:g}"
                 f"{'' if args.until is None else f' to {args.until:g}'} (it holds minutes "
                 f"{', '.join(f'{m:g}' for m in sorted(found)) or 'none'}); give another --since or --until, or let the server run longer")
    print(f"memory by {args.by}, minute {earlier:g} against minute {later:g}:")
    loaded = [tracemalloc.Snapshot.load(str(found[m])) for m in (earlier, later)]
    print(*growth(*loaded, args.by, args.top), sep="\n")


if __name__ == "__main__":
    main()
