"""``sevens serve`` with a database it cannot use: one line, exit 2, before any server starts."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sevens.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://x:secret@y/z", "mysql databases are not supported; sevens runs on SQLite"),
        ("postgresql+asyncpg://u:secret@h/db", "the database driver asyncpg is not installed"),
        ("postgresql+nosuchdriver://u:secret@h/db", "the database driver nosuchdriver is not one SQLAlchemy knows"),
    ],
)
@pytest.mark.parametrize("given", ["option", "environment"])
def test_serve_names_a_database_it_cannot_use_in_one_line(given: str, url: str, words: str) -> None:
    args, env = (["serve", "--database-url", url], {}) if given == "option" else (["serve"], {"DATABASE_URL": url})
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert words in result.stderr and "PostgreSQL" in result.stderr
    assert "secret" not in result.stderr and "Traceback" not in result.output
