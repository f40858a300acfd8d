"""The one hook into a library's private parts the command line keeps, pinned: typer carries its own
copy of click as ``typer._click`` and gives no public name for the classes and exceptions the command
line handles (its commands, contexts, parameters, usage errors, the current context). If typer moves
them or goes back to the click package, these fail first, naming what moved, rather than the command
line breaking in some odd corner. The other hooks (typer's help console, click's parser tables, rich's
buffer methods) were replaced by public means, tested where they act: the help's colour below."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import typer
import typer.core
import typer.main

from sevens.cli.main import app, command
from terminal_session import in_terminal, read_until


def test_typer_still_carries_the_click_classes_the_command_line_imports_from_it() -> None:
    from typer._click.core import Command, Context, Parameter
    from typer._click.exceptions import ClickException, MissingParameter, NoArgsIsHelpError, NoSuchOption
    from typer._click.globals import get_current_context

    root = typer.main.get_command(app)
    assert isinstance(root, Command) and isinstance(root, typer.core.TyperGroup)
    assert issubclass(typer.Context, Context) and issubclass(typer.core.TyperOption, Parameter)
    assert issubclass(typer.BadParameter, ClickException)
    assert all(issubclass(exc, ClickException) for exc in (MissingParameter, NoArgsIsHelpError, NoSuchOption))
    # What the usage errors are raised as when a real line is parsed: the classes caught are typer's own.
    ctx = command().make_context("sevens", ["odds", "--help"], resilient_parsing=True)
    assert isinstance(ctx, Context) and callable(get_current_context)


def test_help_keeps_its_colour_on_a_terminal_and_has_none_through_a_pipe() -> None:
    """The help is held while typer lays it out (to be written as results are), in a buffer that
    says it is a terminal where standard output is one: rich asks the file it writes to. Were rich
    to ask otherwise, a terminal's help would lose its colour."""
    env = {**os.environ, "COLUMNS": "100"}
    env.pop("NO_COLOR", None)
    with in_terminal([sys.executable, "-m", "sevens", "odds", "--help"], env=env) as (run, main):
        shown = read_until(main, rb"\Z-never", 60)
        assert run.wait(timeout=60) == 0
    assert re.search(rb"\x1b\[[0-9;]*m", shown), shown[:300]
    piped = subprocess.run([sys.executable, "-m", "sevens", "odds", "--help"], env=env, capture_output=True,
                           timeout=60, check=False)
    assert piped.returncode == 0 and b"--force" in piped.stdout and b"\x1b[" not in piped.stdout
