"""``python -m sevens`` and ``python -m sevens.cli.main`` run the same command as ``sevens``."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["sevens", "sevens.cli.main"])
def test_python_dash_m_runs_the_command(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", module, "odds", "--force", "0", "--flair", "3"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "61/15" in done.stdout


def test_python_dash_m_reports_bad_input_as_the_command_does() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sevens", "odds", "--force", "1", "--flair", "1"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 2 and done.stderr.startswith("error: "), done.stderr
