"""Every option README.md and docs/*.md name is one a command takes: `sevens lab --workers 2` names
an option of sevens lab, and a bare `--lots-seed` in the prose one of some sevens command (or of a
benchmark script), so that a renamed or dropped option cannot live on in the pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer

from sevens.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# Not after "!": an HTML comment the pages quote (<!--public-->) is no option.
OPTION = re.compile(r"(?<![\w!-])--[a-z][a-z0-9-]*[a-z0-9]")
# Options on the pages that are no sevens command's, each with its reason.
ELSEWHERE = {
    "--sve": "docs/cli.md's example of a misspelt option, shown refused",
    "--strict": "mypy's, run by scripts/test",
    "--now": "systemctl's, in docs/web.md's step-by-step server",
    "--no-deps": "pip's, building the wheel in the README",
    "--no-build-isolation": "pip's, building the wheel in the README",
}


def _options() -> dict[str, set[str]]:
    """Each command's long options; under "" those of ``sevens`` itself (``--version``)."""
    root = typer.main.get_command(app)
    commands = {"": root, **root.commands}  # type: ignore[attr-defined]
    return {name: {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)
                   if opt.startswith("--")} | {"--help"}
            for name, command in commands.items()}


def _benchmark_options() -> set[str]:
    return {option for path in (ROOT / "benchmarks").glob("*.py")
            for option in re.findall(r"add_argument\(\s*\"(--[a-z-]+)\"", path.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_an_option_after_a_command_is_that_commands(page: Path) -> None:
    options = _options()
    wrong = []
    for line in page.read_text(encoding="utf-8").splitlines():
        # A command in backquotes, or on a line of a code block: its options up to the span's end.
        for command, rest in re.findall(r"\bsevens (\w+)((?: +[^`#|;&\n]*)?)", line):
            if command not in options:
                continue  # a word after "sevens" in prose ("sevens keeps ..."), not a command
            for option in OPTION.findall(rest):
                name = option.split("=")[0]
                if name not in options[command] and name not in ELSEWHERE:
                    wrong.append(f"sevens {command} {name}")
    assert not wrong, f"{page.relative_to(ROOT)} names options the commands do not take: {sorted(set(wrong))}"


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_every_option_named_is_some_commands(page: Path) -> None:
    known = set().union(*_options().values()) | _benchmark_options() | set(ELSEWHERE)
    named = set(OPTION.findall(page.read_text(encoding="utf-8")))
    assert not named - known, f"{page.relative_to(ROOT)} names options no command takes: {sorted(named - known)}"
