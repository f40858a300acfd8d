"""``python -m sevens`` and ``python -m sevens.cli.main`` run the same command as ``sevens``."""

from __future__ import annotations

import subprocess
import sys

import pytest
from tests.terminal_session import ctrl_c_while_loading


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


@pytest.mark.parametrize("entry", ["from sevens.cli import run; run()",  # the sevens script
                                   "import runpy; runpy.run_module('sevens', run_name='__main__')"])  # python -m sevens
@pytest.mark.parametrize("loading", ["typer", "numpy", "sevens.cli.lab"])
def test_ctrl_c_while_the_command_loads_says_so_in_one_line_with_130(entry: str, loading: str) -> None:
    """Ctrl-C in the first half second (as typer, numpy or a command module was imported)
    printed a traceback through the imports: only the command modules' loop took it quietly, and
    the presses that landed before it (typer, at the top of sevens.cli.main) or after it (as typer
    built the command) did not. Then it ended with 130 and not a word, unlike Ctrl-C a moment
    later. A real SIGINT is sent, every time, as module ``loading`` is first looked for: a finder
    ahead of the others sends it."""
    script = ctrl_c_while_loading(loading, entry)
    result = subprocess.run(
        [sys.executable, "-c", script, "verify", "game.json"], capture_output=True, text=True, timeout=60, check=False
    )
    assert (result.returncode, result.stdout, result.stderr) == (
        130, "", "error: interrupted as the command started: nothing was done\n")
