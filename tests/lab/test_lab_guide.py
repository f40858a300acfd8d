"""docs/strategy.md's section on strategies of one's own, run as a reader would: the example module
from the current folder with 1 and 2 workers, the entry point it shows, and the JSON it explains."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

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
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("reader")
    (folder / "pacers.py").write_text(_block("python"))
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


def test_the_guides_entry_point_names_the_strategy(tmp_path: Path) -> None:
    """An installed package's entry point (here a dist-info folder on the path, as pip leaves it)."""
    site = tmp_path / "site"
    (site / "pacers-0.1.dist-info").mkdir(parents=True)
    (site / "pacers.py").write_text(_block("python"))
    (site / "pacers-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: pacers\nVersion: 0.1\n")
    declared = _block("toml")
    group = re.search(r'\[project\.entry-points\."([^"]+)"\]', declared)
    entry = re.search(r'^(\S+) = "([^"]+)"$', declared, re.M)
    assert group and entry
    (site / "pacers-0.1.dist-info" / "entry_points.txt").write_text(
        f"[{group.group(1)}]\n{entry.group(1)} = {entry.group(2)}\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = _lab(["--strategies", f"even,{entry.group(1)}", "--tournaments", "40", "--teams", "8", "--json"], elsewhere,
               (site,))
    assert run.returncode == 0, run.stderr
    assert {row["strategy"] for row in json.loads(run.stdout)["results"]} == {"even", entry.group(1)}
