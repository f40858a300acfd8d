"""``--help``: numbers are shown as N (A B, TOTAL) and files as FILE or PATH, not as Python types."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sevens.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("command", "shown", "not_shown"),
    [
        (["odds"], ["--force  N", "--best-split  TOTAL", "--solve  A B"], ["<str>", "<str,str>"]),
        (["play"], ["--players  N", "--per-player  N", "--record  FILE"], ["<int>", "<path>"]),
        (["lab"], ["--tournaments  N", "--plot  FILE"], ["<int>", "<path>"]),
        (["verify"], ["{FILE}"], ["{file}"]),
        (["table"], ["{FILE}"], ["{file}"]),
        (["export"], ["{PATH}"], ["{target}"]),
        (["import"], ["{PATH}"], ["{source}"]),
    ],
)
def test_help_names_numbers_n_and_files_file(command: list[str], shown: list[str], not_shown: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.output.replace("│", " ").split())
    for words in shown:
        assert " ".join(words.split()) in text
    for words in not_shown:
        assert words not in text
