"""docs/odds.md's table of the original's figures: each row names a command and the row of its output
that shows the figure; the command is run and the row must show the value the table gives."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "odds.md").read_text(encoding="utf-8")
SECTION = PAGE[PAGE.index("## The original's figures"):PAGE.index("## JSON, key by key")]
ROWS = [
    [cell.strip() for cell in line.strip("|").split("|")]
    for line in SECTION.splitlines()
    if line.startswith("| ") and not line.startswith("| the original says") and not line.startswith("| ---")
]


def _output(command: str) -> str:
    words = shlex.split(command)
    assert words[0] == "sevens", command
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-m", "sevens", *words[1:]], env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _shown(output: str, row: str) -> str:
    """The figure a table row of `sevens odds` shows, with its fraction: `0.6557  (= 40/61)`."""
    for line in output.splitlines():
        cells = [cell.strip() for cell in line.strip("│ ").split("│")]
        if cells and cells[0] == row:
            return " ".join(cells[1].split())
    raise AssertionError(f"no row {row!r} in:\n{output}")


def test_the_table_has_its_rows() -> None:
    assert len(ROWS) == 4 and all(len(row) == 4 for row in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[row[0][:40] for row in ROWS])
def test_each_figure_is_what_its_command_prints(row: list[str]) -> None:
    _, command, name, value = row
    commands = re.findall(r"`(sevens odds [^`]+)`", command)
    if command == "both of the above":  # the FLAIR figure, then "against" the FORCE one
        commands = ["sevens odds --flair 3", "sevens odds --force 3"]
    assert commands, row
    # Each figure the value cell gives, as the table prints it: `0.6557 (= 40/61)`.
    figures = re.findall(r"\d+\.\d+ \(= [\d/]+\)", value)
    assert len(figures) == len(commands), row
    for each, figure in zip(commands, figures, strict=True):
        shown = _shown(_output(each), name)
        # The command may say more after the fraction: `1.2000  (= 6/5, doubles throw again)`.
        assert shown == figure or shown.startswith(f"{figure[:-1]}, "), (each, name, shown, figure)
