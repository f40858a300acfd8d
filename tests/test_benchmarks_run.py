"""The benchmarks still run: each is tried in a small run (its figures are not judged here; the
machine is shared, and figures are compared within one run by the benchmark itself)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sevens.lab.registry import BUILTINS

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _run(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    return result.stdout


def test_load_benchmark_runs_and_times_a_turn() -> None:
    out = _run(str(BENCHMARKS / "load.py"), "--quick", "--no-postgres")
    assert re.search(r"^sqlite, 1 worker\s+\d+\s+\d+", out, re.M), out
    assert re.search(r"resolve a 16-team turn on sqlite: median [\d.]+ ms", out), out
    rush = r"^3 games planned, then resolved, turn 4 \(odds-aware\) on sqlite: lock held median [\d.]+ ms, .*: \d+$"
    assert re.search(rush, out, re.M), out


def test_load_benchmark_compares_postgres_connections_side_by_side() -> None:
    # Under scripts/pg as CI runs it; alone it starts a throwaway PostgreSQL itself.
    out = _run(str(BENCHMARKS / "load.py"), "--quick", "--only-connections", "--connections", "2,3")
    for kind in ("page", "state", "order"):
        for connections in (2, 3):
            row = rf"^{connections}\s+{kind}\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+0\s+[\d.]+x\s+[\d.]+x\s+[\d.]+x$"
            assert re.search(row, out, re.M), out


def test_gone_clients_benchmark_prints_served_and_skipped_side_by_side() -> None:
    out = _run(str(BENCHMARKS / "gone_clients.py"), "--no-postgres", "--bursts", "0,20", "--rounds", "1")
    for burst in (0, 20):
        assert re.search(rf"^\s+sqlite\s+{burst}(\s+\d+){{4}}\s+([\d.]+|-)\s+([\d.]+|-)$", out, re.M), out


def test_lab_benchmark_runs_says_what_it_seats_and_prints_its_ratios() -> None:
    out = _run(str(BENCHMARKS / "lab.py"), "--batch", "400", "--engine", "1")
    assert re.search(r"^rules engine, whole games one by one\s+[\d,]+$", out, re.M), out
    assert re.search(r"^compiled, 1 thread / reference, 1 thread:\s+[\d.]+", out, re.M), out
    # The row of every built-in seats the registry's, names them, and is timed in the compiled
    # loop (a figure, not nan): it once left out table-reader while saying "all nine built-ins".
    seated = re.search(rf"^and in the row of all {len(BUILTINS)} built-ins: (.+)\.$", out, re.M)
    assert seated is not None, out
    assert seated[1].split(", ") == list(BUILTINS)
    assert re.search(rf"^  all {len(BUILTINS)} built-ins seated, 1 thread\s+[\d,]+$", out, re.M), out
    assert re.search(r"^16-team tournaments; seated in turn: even, group-blitz, knockout-saver, random ", out, re.M), out


def test_odds_memory_benchmark_runs_and_finds_the_same_results() -> None:
    # against this checkout's own HEAD: a clone need not hold the default older commit
    out = _run(str(BENCHMARKS / "odds_memory.py"), "--quick", "--before", "HEAD")
    assert re.search(r"^--best-split 30 .* yes$", out, re.M), out
    assert "Every result is the same, bit for bit." in out, out


def test_odds_memory_benchmark_prints_a_real_odds_processs_resident_memory_before_and_after() -> None:
    out = _run(str(BENCHMARKS / "odds_memory.py"), "--resident", "2", "--before", "HEAD")
    for side in ("before", "after"):
        assert re.search(rf"^{side}\s+\d+\s+\d+$", out, re.M), out
    assert "Every answer is the same, byte for byte." in out, out


def test_odds_load_benchmark_runs_and_prints_its_ratios() -> None:
    out = _run(str(BENCHMARKS / "odds_load.py"), "--rounds", "1", "--samples", "5")
    for request in ("front page", "/state", "an order"):
        assert re.search(rf"^{re.escape(request)}\s+[\d.]+\s+[\d.]+\s+[\d.]+x\s+[\d.]+\s+[\d.]+\s+[\d.]+x$", out, re.M), out
    assert re.search(r"^odds answered while busy: [\d.]+ a second$", out, re.M), out


def test_odds_typing_benchmark_runs_and_prints_before_and_after_side_by_side() -> None:
    out = _run(str(BENCHMARKS / "odds_typing.py"), "--quick", "--keys", "4")
    assert re.search(r"^last draft's odds, median s\s+[\d.]+\s+[\d.]+\s+[\d.]+x$", out, re.M), out
    # every typed draft asked the old way is worked out (or refused), none replaced
    assert re.search(r"^typed drafts replaced 409\s+0\.00\s+[\d.]+", out, re.M), out
    assert re.search(r"^askers odds a second, median\s+[\d.]+\s+[\d.]+\s+[\d.]+x$", out, re.M), out


def test_web_benchmark_runs_and_prints_statements_and_ratios() -> None:
    out = _run(str(BENCHMARKS / "web.py"), "--quick", "--no-postgres")
    # the eight cases' statements (turns 1, 2, 3 and the final of two games), the same in each:
    # no page asks once per team or turn
    assert re.search(r"^  page poll \(player\)\s+(\d+)(?:/\1){7}$", out, re.M), out
    assert re.search(r"^  game page \(spectator\)\s+\d+\s+\d+\s+[\d.]+x$", out, re.M), out
    # the group stage side by side: six figures, then turn 3 (and 2) against turn 1
    group_stage = r"^  player's page\s+(?:\d+\s+){6}(?:[\d.]+x\s*){3}$"
    assert re.search(group_stage, out, re.M), out
    # the final against turn 1, and how often the resolved turns' reports and the team pages' were
    # rendered, not kept
    assert re.search(r"^  game page \(spectator\)\s+[\d.]+x$", out, re.M), out
    said = r"^sqlite: turns' reports rendered \d+ times, kept ones served \d+;"
    said += r" the team pages' single reports rendered \d+ times, kept ones served \d+$"
    assert re.search(said, out, re.M), out
    assert re.search(r"^  sqlite\s+\d+ a second, \d+ statements, [\d,]+ bytes$", out, re.M), out


def test_odds_asker_benchmark_runs_and_prints_each_answer_beside_the_first() -> None:
    out = _run(str(BENCHMARKS / "odds_asker.py"), "--quick")
    assert re.search(r"^start: every shared small table worked out in \d+ ms, holding [\d.]+ MB$", out, re.M), out
    for rules in ("knockout", "group"):
        row = rf"^ 40 \+  30\s+{rules}(\s+[\d.]+){{6}}$"
        assert re.search(row, out, re.M), out
    # More is counted than held (an order's points array twice): "of it" said the opposite.
    counted = re.search(r"^4 askers, 25 group drafts each: ([\d.]+) MB held, ([\d.]+) MB counted against the one bound", out, re.M)
    assert counted is not None and float(counted[2]) >= float(counted[1]), out


def test_page_bytes_benchmark_runs_and_prints_plain_and_gzipped_side_by_side() -> None:
    out = _run(str(BENCHMARKS / "page_bytes.py"), "--teams", "8")
    figures = r"((?:\s*[\d,]+ /){2}\s*[\d,]+)"
    ratios = r"((?:\s*[\d.]+ /){2}\s*[\d.]+)"
    rows = {
        found[1]: [[int(n.replace(",", "")) for n in part.split("/")] for part in (found[2], found[3], found[5])]
        for found in re.finditer(rf"^  (\S.*?)\s{{2,}}{figures}{figures}{ratios}{figures}", out, re.M)
    }
    plain, zipped, sent = rows["game page (spectator)"]
    assert sent == zipped and zipped[-1] < plain[-1], out  # a spectator's page goes gzipped
    for page in ("player's page", "organiser's page", "front page"):
        # With a form token: gzipped in its public stretches only, the rest stored as it is, so
        # sent lies between the whole page gzipped and the page as it is.
        plain, zipped, sent = rows[page]
        assert all(z < s < p for p, z, s in zip(plain, zipped, sent, strict=True)), (page, out)
    sections = re.findall(r"^  (Bracket|Group tables|Match reports|Players)\s+[\d,]+\s+[\d.]+%\s*(public)?$", out, re.M)
    assert ("Match reports", "public") in sections and ("Players", "") in sections, out
    assert re.search(r"^  attribute class\s+[\d,]+\s+[\d.]+%$", out, re.M), out


def test_soak_benchmark_runs_a_real_server_and_samples_it_side_by_side() -> None:
    out = _run(str(BENCHMARKS / "soak.py"), "--minutes", "0.3", "--every", "6")
    header = re.search(r"^\s+min\s+server MB\s+odds MB\s+children\s+fds\s+threads\s+db conns.*errors$", out, re.M)
    assert header is not None, out
    samples = [line.split() for line in out.splitlines() if re.match(r"^\s+\d+\.\d\s", line)]
    assert len(samples) >= 3 and len({len(sample) for sample in samples}) == 1, out  # every column, each time
    assert samples[-1][-1] == "0", out  # no client met an error
    done = re.search(r"^done: .*?(\d+) games created, .*?(\d+) orders", out, re.M)
    assert done is not None and int(done[1]) > 0 and int(done[2]) > 0, out


def test_soak_benchmark_traces_the_servers_memory_and_prints_what_grew(tmp_path: Path) -> None:
    """With --trace-memory the server writes tracemalloc snapshots as it runs, and the soak prints the
    sites that grew between the first and the last, side by side; memory_growth.py compares any two."""
    traces = tmp_path / "traces"
    out = _run(str(BENCHMARKS / "soak.py"), "--minutes", "0.4", "--every", "8", "--players", "1",
               "--trace-memory", str(traces), "--trace-every", "0.1")
    assert len(list(traces.glob("trace-*.snap"))) >= 2, out
    table = out[out.index("memory traced, the sites that grew most from minute "):]
    rows = re.findall(r"^\s+([\d.]+)\s+([\d.]+)\s+([\d.]+|new)\s+(\d+)\s+(\d+)\s+(.+)$", table, re.M)
    assert rows and rows[-1][-1] == "all traced" and float(rows[-1][1]) > 0, out
    again = _run(str(BENCHMARKS / "memory_growth.py"), str(traces), "--since", "0", "--by", "traceback", "--top", "3")
    assert again.startswith("memory by traceback, minute ") and "all traced" in again, again
    assert "File " in again.splitlines()[2], again  # a site is named by its file and line


def test_give_back_benchmark_runs_two_servers_and_prints_their_memory_side_by_side() -> None:
    out = _run(str(BENCHMARKS / "give_back.py"), "--minutes", "0.3", "--every", "6", "--players", "1",
               "--give-back-minutes", "0.05", "--threads", "2")
    assert re.search(r"^\s+min\s+kept MB\s+given MB\s+given/kept\s", out, re.M), out
    samples = re.findall(r"^\s+\d+\.\d\s+(\d+)\s+(\d+)\s+([\d.]+)\s", out, re.M)
    assert len(samples) >= 3, out
    assert all(abs(float(ratio) - int(given) / int(kept)) < 0.01 for kept, given, ratio in samples), out
    for side in ("kept", "given"):
        assert re.search(rf"^{side}: .*?(\d+) games created, .*?([1-9]\d*) orders", out, re.M), out
    assert re.search(r"^\s+2\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+\d+\s+\d+$", out, re.M), out


def test_scheduler_poll_benchmark_runs_and_prints_each_count_of_games_side_by_side() -> None:
    out = _run(str(BENCHMARKS / "scheduler_poll.py"), "--games", "2", "5", "--no-postgres")
    rows = re.findall(r"^sqlite\s+(\d+)\s+(\d+)\s+[\d.]+\s+([\d.]+)$", out, re.M)
    assert [games for games, _, _ in rows] == ["2", "5"], out
    assert rows[0][2] == "1.00", out  # each time against the fewest games'


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_soak_benchmark_plays_in_a_browser_and_rematches() -> None:
    """The soak's browser client takes a seat at its invite, sees the odds of the drafts it types and
    sends them from the /play page, and games over are followed by rematches, all without an error."""
    out = _run(str(BENCHMARKS / "soak.py"), "--minutes", "1.5", "--every", "15", "--players", "1", "--browsers", "1",
               "--rematches", "1", "--pause", "0")
    samples = [line.split() for line in out.splitlines() if re.match(r"^\s+\d+\.\d\s", line)]
    assert samples and samples[-1][-1] == "0", out  # no client met an error
    counts = {k: int(v) for v, k in re.findall(r"(\d+) ([a-z ]+?)(?:,|$)", out.splitlines()[-1].removeprefix("done: "))}
    assert counts.get("browser odds seen", 0) > 0 and counts.get("browser orders", 0) > 0, out
    assert counts.get("rematches", 0) > 0, out
    # The browser's columns have figures: its /play pages and the odds it was shown were timed.
    assert any(sample[-6] != "-" and sample[-4] != "-" for sample in samples), out
