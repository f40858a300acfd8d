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


@pytest.mark.parametrize("given", ["option", "environment"])
def test_serve_refuses_a_bad_trusted_proxy_in_one_line(given: str) -> None:
    """A proxy setting that is not addresses or networks stops `sevens serve` before it starts,
    saying which item and how to write it."""
    value = "127.0.0.1, proxy.local"
    # An address no server can listen on: were the setting let through, serve would fail, not hang.
    args = ["serve", "--database-url", "sqlite://", "--host", "256.0.0.1"]
    env = {"SEVENS_TRUSTED_PROXIES": value} if given == "environment" else {}
    if given == "option":
        args += ["--trusted-proxies", value]
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: bad setting: SEVENS_TRUSTED_PROXIES") and result.stderr.count("\n") == 1
    assert "'proxy.local' is not an IP address or network" in result.stderr and "10.0.0.0/8" in result.stderr
