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


def test_ctrl_c_while_the_commands_load_ends_quietly_with_130() -> None:
    """Ctrl-C in the first half second (while the command modules are imported) printed a
    traceback through the imports. The interrupt is made to come, every time, when the lab module
    is imported: a finder ahead of the others raises it as Ctrl-C would."""
    script = (
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'sevens.cli.lab':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "from sevens.cli.main import main\n"
        "main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, "verify", "game.json"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 130
    assert "Traceback" not in result.stderr and result.stdout == "", result.stderr
