"""Count-back odds at the heavy end, the code as it was against the code as it is: CPU and peak memory.

Run: ``.venv/bin/python benchmarks/odds_memory.py`` (a minute or two), ``--before REV`` to compare with
another commit's ``src`` (default: the last one whose joint lines kept their dense array in the
cache), ``--quick`` for one small call, ``--resident`` for a real odds process's resident memory instead.

Each call runs in a fresh Python, once with ``src`` as it was at ``REV`` (taken with ``git archive``)
and once with this checkout's, one after the other and twice each, so that both meet the same load on
the machine; the lower CPU time of the two runs is printed, and the peak resident memory (what
``/usr/bin/time`` reports as maximum resident set size: the whole process, caches included). The
results of both are compared exactly (the repr of every float), and a difference is a failure.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The last commit before the cached joint lines left out their dense array.
BEFORE = "1b4be6abb1bbfb3427a7ca91981cd742a4575e81"

CALLS = (
    ("--best-split 100 --vs-force 40 --vs-flair 60 --knockout",
     "[(s.order.force, s.order.flair, s.odds.win, s.odds.loss, s.odds.level, s.odds.tail_bound) "
     "for s in best_splits(100, (40, 60), knockout=True)]"),
    ("--best-split 160 --vs-force 1 --vs-flair 159 --knockout",
     "[(s.order.force, s.order.flair, s.odds.win, s.odds.loss, s.odds.level, s.odds.tail_bound) "
     "for s in best_splits(160, (1, 159), knockout=True)]"),
    ("--solve 100 100 --knockout", "solve_match(100, 100, knockout=True)"),
)
QUICK = (
    ("--best-split 30 --vs-force 15 --vs-flair 15 --knockout",
     "[(s.order.force, s.order.flair, s.odds.win, s.odds.loss, s.odds.level) "
     "for s in best_splits(30, (15, 15), knockout=True)]"),
)


def _source(rev: str, into: Path) -> Path:
    """``src`` as it was at ``rev``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], capture_output=True, check=True)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def _run(src: Path, call: str) -> tuple[float, float, str]:
    """CPU seconds, peak MB and the result's repr of ``call`` in a fresh Python on ``src``."""
    code = (
        "import hashlib, resource\n"
        "from sevens.odds import best_splits\n"
        "from sevens.odds.solver import solve_match\n"
        f"result = repr({call})\n"
        "usage = resource.getrusage(resource.RUSAGE_SELF)\n"
        "print(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, hashlib.sha256(result.encode()).hexdigest())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})
    cpu, peak, digest = done.stdout.split()
    return float(cpu), float(peak), digest


RESIDENT = """
import hashlib, json, random
from sevens.rules import Order
from sevens.tournament import ManagerView, default_format
from sevens.tournament.standings import group_table
from sevens.web.odds_process import OddsProcess, OddsQuestion
fmt = default_format(16)
turn = next(i for i, stage in enumerate(fmt.stages, 1) if stage.knockout)
theirs = ManagerView(game_id="x", team="b2", group="B", format=fmt, turn=turn, stage=fmt.stages[turn - 1],
                     scrum=120, in_play=True, fixture=None, opponent="a1", opponent_scrum=140,
                     turns_left=fmt.turns + 1 - turn, table=group_table(["b1", "b2"], [], None))
bots = ("equilibrium", "even", "even-flair", "even-force", "odds-aware", "random")
rng, digest, peak = random.Random(1), hashlib.sha256(), 0.0
process = OddsProcess(seconds=600)
for i in range(QUESTIONS):
    flair = 3 * rng.randint(0, 45)
    mine = Order(force=rng.randint(1, 140 - flair), flair=flair)
    question = OddsQuestion(team_id="a1", mine=mine, scrum=140, theirs=theirs, their_bot=None, knockout=True, bots=bots)
    digest.update(json.dumps(process.answer(question, rng.randint(1, 4)), sort_keys=True).encode())
    with open(f"/proc/{process.pid}/status") as status:
        rss = next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmRSS:"))
    peak = max(peak, rss)
process.close()
print(rss, peak, digest.hexdigest())
"""


def _resident(src: Path, questions: int) -> tuple[float, float, str]:
    """A real odds process's resident MB after its last answer, the most after any, and a digest of
    its answers, asked ``questions`` knockout drafts by 4 askers (the same drafts on every side)."""
    done = subprocess.run([sys.executable, "-c", RESIDENT.replace("QUESTIONS", str(questions))], capture_output=True,
                          text=True, check=True, env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})
    last, most, digest = done.stdout.split()
    return float(last), float(most), digest


def main_resident(before: str, questions: int) -> int:
    print(f"A real odds process asked {questions} knockout drafts by 4 askers: resident MB after its answers")
    print(f"before: src at {before}; after: {ROOT / 'src'}\n")
    with tempfile.TemporaryDirectory() as tmp:
        found = {"before": _resident(_source(before, Path(tmp)), questions), "after": _resident(ROOT / "src", questions)}
    print(f"{'':8s} {'after the last answer':>22s} {'most after any':>15s}")
    for side, (last, most, _) in found.items():
        print(f"{side:8s} {last:22.0f} {most:15.0f}")
    if found["before"][2] != found["after"][2]:
        print("\nThe answers differ.")
        return 1
    print("\nEvery answer is the same, byte for byte.")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with (default: %(default)s)")
    parser.add_argument("--quick", action="store_true", help="one small call only")
    parser.add_argument("--resident", type=int, metavar="N", default=0,
                        help="a real odds process asked N knockout drafts instead (compare with --before HEAD~2)")
    args = parser.parse_args()
    if args.resident:
        return main_resident(args.before, args.resident)
    print(__doc__.split("\n\n")[0])
    print(f"before: src at {args.before}; after: {ROOT / 'src'}\n")
    print(f"{'sevens odds':56s} {'CPU s before':>12s} {'after':>7s} {'ratio':>6s} "
          f"{'peak MB before':>14s} {'after':>6s} {'ratio':>6s}  same result")
    different = []
    with tempfile.TemporaryDirectory() as tmp:
        before_src = _source(args.before, Path(tmp))
        for name, call in QUICK if args.quick else CALLS:
            runs: dict[str, list[tuple[float, float, str]]] = {"before": [], "after": []}
            for _ in range(2):
                runs["before"].append(_run(before_src, call))
                runs["after"].append(_run(ROOT / "src", call))
            cpu = {side: min(r[0] for r in found) for side, found in runs.items()}
            peak = {side: max(r[1] for r in found) for side, found in runs.items()}
            same = len({r[2] for found in runs.values() for r in found}) == 1
            print(f"{name:56s} {cpu['before']:12.2f} {cpu['after']:7.2f} {cpu['after'] / cpu['before']:6.2f} "
                  f"{peak['before']:14.0f} {peak['after']:6.0f} {peak['after'] / peak['before']:6.2f}  "
                  f"{'yes' if same else 'NO'}")
            if not same:
                different.append(name)
    if different:
        print("\nResults differ: " + "; ".join(different))
        return 1
    print("\nEvery result is the same, bit for bit.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
