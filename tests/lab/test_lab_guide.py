"""docs/strategy.md's section on strategies of one's own, run as a reader would: the example module
from the current folder with 1 and 2 workers, the entry point it shows, and the JSON it explains."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from sevens.bots import ENTRY_POINT_GROUP

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "strategy.md").read_text()
SECTION = GUIDE[GUIDE.index("## Writing your own strategy"):GUIDE.index("## How the lab works")]


def _block(kind: str, after: str = "") -> str:
    found = re.search(rf"```{kind}\n(.*?)```", SECTION[SECTION.index(after):], re.S)
    assert found, f"no ```{kind} block in the guide's section"
    return found.group(1)


def _lab(args: list[str], cwd: Path, path: tuple[Path, ...] = ()) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in (ROOT / "src", *path))}
    return subprocess.run([sys.executable, "-m", "sevens", "lab", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600, check=False)


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A reader's folder holding the guide's pacers.py."""
    folder = tmp_path_factory.mktemp("reader")
    (folder / "pacers.py").write_text(_block("python"))
    return folder


@pytest.fixture(scope="module")
def runs(reader: Path) -> list[dict[str, Any]]:
    folder = reader
    names = re.search(r"--strategies (\S+)", _block("", "Run it from the folder"))
    assert names
    done = []
    for workers in ("1", "2"):
        run = _lab(["--strategies", names.group(1), "--tournaments", "2500", "--teams", "8", "--seed", "1",
                    "--workers", workers, "--json"], folder)
        assert run.returncode == 0, run.stderr
        done.append(json.loads(run.stdout))
    return done


def test_the_guides_example_runs_from_the_current_folder_with_the_same_results_for_any_workers(
    runs: list[dict[str, Any]],
) -> None:
    one, two = runs
    assert one == two
    assert {row["strategy"] for row in one["results"]} == {"even-flair", "pacers:SaveThenFlair", "pacers:HalfAndHalf"}


def test_every_key_of_the_json_is_explained_in_the_guide(runs: list[dict[str, Any]]) -> None:
    shown = GUIDE[GUIDE.index("## The JSON output"):GUIDE.index("## How the lab works")]

    def keys(value: object) -> set[str]:
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        if isinstance(value, list):
            return {k for v in value for k in keys(v)}
        return set()

    missing = sorted(k for k in keys(runs[0]) if f'"{k}"' not in shown)
    assert not missing


def test_the_jsons_command_plays_the_run_again_to_the_same_json(runs: list[dict[str, Any]], reader: Path) -> None:
    """A paper quoting a run's JSON can be checked: its command, run where the run was, prints it again,
    and the JSON says which code played (sevens' digest, the own module's file and digest)."""
    first = runs[0]
    words = shlex.split(first["command"])
    assert words[:2] == ["sevens", "lab"] and "--json" in words
    again = _lab(words[2:], reader)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == first
    own = {about["name"]: about for about in first["sources"]}
    digest = hashlib.sha256((reader / "pacers.py").read_bytes()).hexdigest()
    assert own["pacers:SaveThenFlair"]["file_sha256"] == own["pacers:HalfAndHalf"]["file_sha256"] == digest
    assert own["pacers:SaveThenFlair"]["kind"] == "module path" and own["even-flair"]["kind"] == "built-in"
    assert own["even-flair"]["parameters"] == {"flair": 1.0, "knockout_weight": "1"}
    totals = {row["strategy"]: row["titles"]["count"] for row in first["results"]}
    assert sum(totals.values()) == first["tournaments"]  # every title counted, once


def test_the_guides_entry_point_names_the_strategy(tmp_path: Path) -> None:
    """An installed package's entry point (here a dist-info folder on the path, as pip leaves it)."""
    site = tmp_path / "site"
    (site / "pacers-0.1.dist-info").mkdir(parents=True)
    (site / "pacers.py").write_text(_block("python"))
    (site / "pacers-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: pacers\nVersion: 0.1\n")
    declared = tomllib.loads(_block("toml"))  # the whole pyproject.toml the guide shows
    assert declared["tool"]["setuptools"]["py-modules"] == ["pacers"] and declared["project"]["name"] == "pacers"
    (group, entries), = declared["project"]["entry-points"].items()
    assert group == ENTRY_POINT_GROUP and len(entries) == 2
    lines = "".join(f"{name} = {target}\n" for name, target in entries.items())
    (site / "pacers-0.1.dist-info" / "entry_points.txt").write_text(f"[{group}]\n{lines}")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = _lab(["--strategies", ",".join(["even", *entries]), "--tournaments", "40", "--teams", "8", "--json"],
               elsewhere, (site,))
    assert run.returncode == 0, run.stderr
    assert {row["strategy"] for row in json.loads(run.stdout)["results"]} == {"even", *entries}
    # The same strategy by its entry point and by its path was seated twice, its rows read as two.
    name, target = next(iter(entries.items()))
    twice = _lab(["--strategies", f"{name},{target}", "--tournaments", "40", "--teams", "8"], elsewhere, (site,))
    assert twice.returncode == 2, twice.stderr
    assert twice.stderr == (f"error: --strategies: {name} and {target} are the same strategy, both {target} (an entry point names "
                            "it); name each strategy once\n")


SOLVER = GUIDE[GUIDE.index("## One match: FLAIR or FORCE?"):GUIDE.index("## How much to spend per round")]

# A's FLAIR points in the solved match between budgets A and B, as the guide's section on one match
# says them ("all FORCE", "all FLAIR", "6 FORCE, 24 FLAIR", ...), group rules then knockout rules.
SOLVED = {
    (9, 3, False): 0, (12, 3, False): 0, (15, 5, False): 0, (20, 5, False): 0, (24, 8, False): 0,
    (40, 10, False): 0, (30, 10, False): 24, (36, 12, False): 36, (45, 15, False): 45, (57, 18, False): 57,
    (60, 20, False): 60, (30, 9, False): 0, (39, 12, False): 0, (48, 15, False): 0, (60, 18, False): 0,
    (30, 10, True): 30, (12, 3, True): 12, (20, 5, True): 18,
    # against a small budget a smaller margin suffices
    (6, 3, False): 0, (7, 4, False): 0, (8, 5, False): 0, (15, 6, False): 6,
    # and in the knockouts a far wider one
    (22, 3, True): 0, (34, 6, True): 0, (44, 9, True): 0, (53, 12, True): 0,
}


def test_the_guides_solved_matches_are_what_the_solver_finds() -> None:
    """Each case the guide names (and every equal budget from 3 to 60, all FLAIR on both sides) is
    a pure saddle point of the solver's matrix with the split the guide gives."""
    from sevens.odds.solver import solve_match

    for (a, b, knockout), flair in SOLVED.items():
        assert f"{a} v {b}" in SOLVER, (a, b)
        mix = solve_match(a, b, knockout=knockout).mix_a
        assert mix.pure is not None and mix.pure.flair == flair, (a, b, knockout, mix)
    for n in range(3, 61):
        pair = solve_match(n, n).pure_saddle
        assert pair is not None and pair[0].flair == pair[1].flair == n // 3 * 3, n
    assert "For every equal budget we\n  checked (3 to 60)" in SOLVER


def test_the_guide_shows_an_exact_figure_as_the_table_prints_it(tmp_path: Path) -> None:
    """Wherever the guide quotes the title rate of a strategy alone in every seat of 8, it is the
    cell the table prints (it once read '12.50 ± 0.00' after the table had moved to '(exact)')."""
    run = _lab(["--strategies", "even", "--teams", "8", "--tournaments", "40", "--workers", "1"], tmp_path)
    assert run.returncode == 0, run.stderr
    row = next(line for line in run.stdout.splitlines() if line.startswith("even "))
    cell = re.search(r"12\.50 \S+", row)
    assert cell and cell.group(0) == "12.50 (exact)", row
    quoted = re.findall(r"`(12\.50[^`]*)`", GUIDE)
    assert quoted and all(q == cell.group(0) for q in quoted), quoted


def _least_force_budgets(knockout: bool) -> dict[int, int | None]:
    """The dict the guide prints for each B: the least A that puts more than its leftover into FORCE."""
    marker = "# the same under knockout rules" if knockout else "# for each B, the least A"
    after = SOLVER[SOLVER.index(marker):]
    printed = re.search(r"\n# (\{.*?\})", after, re.S)
    assert printed, f"the guide no longer prints the dict after {marker!r}"
    text = printed.group(1).replace("\n#", "")
    return {int(b): None if a == "None" else int(a) for b, a in re.findall(r"(\d+): (\d+|None)", text)}


@pytest.mark.parametrize("knockout", [False, True], ids=["group", "knockout"])
def test_the_guides_least_force_budgets_are_the_solvers(knockout: bool) -> None:
    """Each B's least A as the guide prints it: A turns to FORCE and A - 1 does not (a side that has
    turned stays turned, so that is the least), or, where it says None, not even A = 60. Under
    knockout rules the guide once printed no figures, and its summary said five to seven to one
    where the margins run from 4.4 to 7.75."""
    from sevens.odds.solver import solve_match

    def force(a: int, b: int) -> bool:
        pair = solve_match(a, b, knockout=knockout).pure_saddle
        assert pair is not None, (a, b)
        return pair[0].force > a % 3

    least = _least_force_budgets(knockout)
    assert sorted(least) == list(range(1, 21))
    for b, a in least.items():
        if a is None:
            assert not force(60, b), b
        else:
            assert force(a, b) and (a - 1 <= b or not force(a - 1, b)), (b, a)
    if knockout:
        ratios = [a / b for b, a in least.items() if 3 <= b <= 13 and a is not None]
        assert f"from {min(ratios):.1f} to {max(ratios):.2f} to one" in " ".join(SOLVER.split())


def test_the_smaller_spender_plays_all_flair_at_every_budget_pair() -> None:
    """The guide's claim beyond equal budgets, over every pair from 1 to 60 (group rules)."""
    from sevens.odds.solver import solve_match

    assert "the side spending less plays all\n  FLAIR, and so does the other wherever it spends less than 1.6 times" in SOLVER
    for b in range(1, 61):
        for a in range(b, 61):
            pair = solve_match(a, b).pure_saddle
            assert pair is not None and pair[1].force == b % 3, (a, b)
            assert a >= 1.6 * b or pair[0].force == a % 3, (a, b)


def test_the_guides_rule_of_thumb_beats_the_house_bots_by_a_wide_margin(tmp_path: Path) -> None:
    """The guide's `rest.py` (after two group wins, nothing in the third group match), one team at a
    time among equilibrium bots with 8 teams, its first command's seed: the lower end of its title
    interval clears both the neutral 12.5% and the field's upper end. Seeded, so the same every run."""
    start = GUIDE.find("## A rule of thumb, and a bot that reads its table")
    assert start >= 0, "the guide no longer has its section on the rule of thumb"
    rule = GUIDE[start:GUIDE.index("\n## ", start + 1)]
    module = re.search(r"`rest\.py`:\n\n```python\n(.*?)```", rule, re.S)
    command = re.search(r"sevens lab --teams 8 --field equilibrium --strategies (rest:\w+),\S+ --tournaments \d+ "
                        r"--seed (\d+)", rule)
    assert module and command, "the section no longer shows rest.py and its command with 8 teams"
    (tmp_path / "rest.py").write_text(module.group(1))
    run = _lab(["--teams", "8", "--field", "equilibrium", "--strategies", command.group(1), "--tournaments", "20000",
                "--seed", command.group(2), "--workers", "1", "--json"], tmp_path)
    assert run.returncode == 0, run.stderr
    rows = {row["strategy"]: row["titles"] for row in json.loads(run.stdout)["results"]}
    rest, field = rows[command.group(1)], rows["equilibrium (field)"]
    assert rest["ci95_low"] > max(field["ci95_high"], 1 / 8), (rest, field)
