"""Every option README.md and docs/*.md name is one a command takes: `sevens lab --workers 2` names
an option of sevens lab, and a bare `--lots-seed` in the prose one of some sevens command (or of a
benchmark script), so that a renamed or dropped option cannot live on in the pages; and a command in
backquotes in the running text is one the CLI's parser reads (a value its option takes)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer
from typer._click.exceptions import BadOptionUsage, ClickException, MissingParameter

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


# Commands the running text shows refused, on purpose, or as a synopsis rather than a command line.
NOT_TO_PARSE = {
    "sevens play --sve x": "docs/cli.md's misspelt option, shown refused",
    "sevens play FILE": "docs/play.md: a saved game given without --resume, shown refused",
    "sevens export [--full] PATH": "docs/web.md's synopsis",
}
SHELL = {"|", ">", ">>", "<", "&&", "||", ";"}
SPAN = re.compile(r"`((?:\.venv/bin/|~/sevens/bin/)?sevens [^`]+|bash scripts/run [^`]+)`")


def _spans() -> list[tuple[str, str, list[str]]]:
    """(page, span, the words after `sevens`, up to the first shell operator) of every command in
    backquotes in the running text of a page."""
    root = typer.main.get_command(app)
    found = []
    for page in PAGES:
        for span in SPAN.findall(page.read_text(encoding="utf-8")):
            words = shlex.split(span.replace("\n", " "))
            words = words[2:] if words[0] == "bash" else words[1:]
            cut = [i for i, word in enumerate(words) if word in SHELL]
            words = words[:cut[0]] if cut else words
            if words and words[0] in root.commands and "--help" not in words:  # type: ignore[attr-defined]
                found.append((page.name, span, words))
    return found


def test_a_command_in_the_running_text_parses(capsys: pytest.CaptureFixture[str]) -> None:
    """`sevens odds --force 3 --flair 9`, `bash scripts/run play --auto`: read by the CLI's own parser,
    as a reader's copy would be. An option named bare (`sevens lab --plot`) or a command shown without
    the options it needs (`sevens lab --dask ADDRESS`) is prose, not a command line, and passes."""
    root = typer.main.get_command(app)
    spans = _spans()
    assert len(spans) > 50
    assert set(NOT_TO_PARSE) <= {f"sevens {' '.join(words)}" for _, _, words in spans}, "a page no longer shows one"
    wrong = []
    for page, span, words in spans:
        if f"sevens {' '.join(words)}" in NOT_TO_PARSE:
            continue
        name, args = words[0], words[1:]
        try:
            root.commands[name].make_context(name, list(args))  # type: ignore[attr-defined]  # it eats the list
        except MissingParameter:
            continue
        except BadOptionUsage as refusal:
            if args and args[-1].startswith("--") and "requires an argument" in refusal.format_message():
                continue
            wrong.append(f"{page}: `{span}`: {refusal.format_message()}")
        except ClickException as refusal:
            wrong.append(f"{page}: `{span}`: {refusal.format_message()}")
        except typer.Exit:
            wrong.append(f"{page}: `{span}`: {capsys.readouterr().err.strip()}")
    assert not wrong, "commands in the running text that the CLI refuses:\n" + "\n".join(wrong)
