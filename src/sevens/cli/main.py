"""The ``sevens`` application: each command group lives in its own module and registers itself."""

from __future__ import annotations

import contextlib
import copy
import difflib
import importlib
import inspect
import io
import itertools
import os
import re
import stat
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

import typer
import typer.core
import typer.main
from rich.console import Console

# typer carries its own copy of click: its commands are typer._click's, not the click package's,
# and it gives these classes no public name. tests/cli/test_library_hooks.py fails first if they move.
from typer._click.core import Command, Context, Parameter
from typer._click.exceptions import ClickException, MissingParameter, NoArgsIsHelpError, NoSuchOption

from sevens import __version__
from sevens.cli.errors import EXIT_BAD_INPUT, fail, one_line
from sevens.cli.output import printing, without_padding
from sevens.cli.theme import style_help
from sevens.cli.whole_numbers import read_whole

__all__ = ["HELP_OPTIONS", "app", "command_line_refusal", "main", "usage_error_line"]

HELP_OPTIONS = ["-h", "--help"]
"""Both ask for a command's help, as most commands take them."""


def command_line_refusal(command: Command, ctx: Context, args: list[str]) -> str | None:
    """Why ``args`` given to ``command`` are refused before it parses them, or None.

    - An option that takes one value, given more than once with different values. Click would
      keep the last value without a word (``--force 3 --force 4`` computed FORCE 4), so whoever
      edits a long command line and leaves the old value in would get what they did not mean. The
      same value twice changes nothing and passes; options meant to repeat (``multiple``), flags
      and counts are left alone.
    - An empty argument: every argument is a path, and an empty one (``sevens export "$DIR"``
      with DIR unset) would be taken as the current folder, written into or read whole. So is an
      empty path given to an option (``sevens play --save "$FILE"``), which was refused as
      "--save . is a folder", naming a folder nobody typed, and an empty ``--database-url`` or seed.

    - An option whose value was left out, so that the parser would take the next option for it:
      ``sevens play --record --auto`` named the record '--auto' and started a game waiting for
      orders, not the bots' game asked for. Written ``--record=--auto``, that text is meant.

    Anything the parser refuses here is left alone: the command's own parsing says what is wrong.
    """
    left_out = _value_left_out(command, ctx, args)
    if left_out is not None:
        return left_out
    # The line is read by a parser of copies of the command's options, in which each option that
    # takes one value takes it any number of times (multiple), so as to see every value given, not
    # only the last one: a flag stores a constant, a count counts, a repeatable option appends.
    single = set()
    params = []
    for param in command.get_params(ctx):
        if param.param_type_name == "option" and not (
            getattr(param, "multiple", False) or getattr(param, "is_flag", False) or getattr(param, "count", False)
        ):
            param = copy.copy(param)
            param.multiple = True
            single.add(param.name)
        params.append(param)
    parser = typer.core.TyperCommand(name=command.name, params=params, add_help_option=False).make_parser(ctx)
    try:
        given, _, _ = parser.parse_args(args=list(args))
    except ClickException:
        return None
    help_option = command.get_help_option(ctx)
    if help_option is not None and given.get(help_option.name):
        return None  # --help shows the help whatever else is on the line
    for param in command.get_params(ctx):
        value = given.get(param.name)
        if param.param_type_name == "argument" and value == "":
            shown = param.metavar or (param.name or "argument").upper()
            what = getattr(param, "help", None) or f"see sevens {command.name} --help"
            return f"{shown} is empty (an unset shell variable?); give {shown}: {what}"
        if param.param_type_name == "option" and _empty_is_a_slip(param) and "" in (value or ()):
            name = max(param.opts, key=len)
            return (f"{name} is empty (an unset shell variable?); give {name} {param.metavar or 'PATH'} "
                    f"(see sevens {command.name} --help)")
        values = value if param.name in single else None
        if not values:
            continue
        texts = list(dict.fromkeys(" ".join(v) if isinstance(v, tuple) else str(v) for v in values))
        if len(texts) > 1:
            name = max(param.opts, key=len)
            shown = ", ".join(repr(text) for text in texts[:-1]) + f" and {texts[-1]!r}"
            times = "twice" if len(values) == 2 else f"{len(values)} times"
            return (
                f"{name} was given {times}, as {shown}, and takes one value; "
                f"give {name} once, with the value you mean"
            )
    return None


def _empty_is_a_slip(param: Parameter) -> bool:
    """Whether ``param`` is declared a path (``Path``, or ``Path | None``), takes a URL or is a seed's
    text (``TEXT``), which nobody gives empty on purpose: ``--database-url ""`` fell back to
    $DATABASE_URL or ./sevens.sqlite3, which sevens import created and filled without a word, and
    ``--seed ""`` played the same game, its dice known in advance, every time."""
    descriptor = getattr(param, "type_descriptor", None)
    return getattr(descriptor, "annotation", None) is Path or getattr(param, "metavar", None) in ("URL", "TEXT")


def _read_whole_first(param: Parameter) -> Callable[[Context, Any], Any]:
    """``param``'s own processing, given the number typed already read by the rule every command
    reads numbers by (:mod:`sevens.cli.whole_numbers`): typer's own reading took ``1_0`` for 10 and
    refused ``１２`` with "unable to parse string as an integer", where ``sevens odds`` read it as 12."""
    process = param.process_value
    name = max(param.opts, key=len) if param.opts else (param.name or "the number")

    low, high = getattr(param, "min", None), getattr(param, "max", None)

    def process_value(ctx: Context, value: Any) -> Any:
        if isinstance(value, str):
            try:
                value = read_whole(name, value)
            except ValueError as exc:
                fail(str(exc))
            # typer's own range check said "Input should be less than or equal to 65535": neither
            # the number given nor the range.
            if (low is not None and value < low) or (high is not None and value > high):
                span = f"from {low} to {high}" if low is not None and high is not None else (
                    f"of {low} or more" if low is not None else f"of {high} or less")
                fail(f"{name} takes a whole number {span}, got {value}")
        return process(ctx, value)

    return process_value


def reflowed(text: str) -> str:
    """A command's docstring as its help: each paragraph one line, for the terminal to wrap.
    typer keeps the line breaks of every paragraph after the first, so that the source's lines,
    wrapped again at 80 columns, left a word or two alone on every other line. A paragraph that
    begins with ``\\b`` on a line of its own (click's mark) keeps its lines, the mark dropped.

    >>> reflowed("Title.\\n\\n    A long\\n    sentence.\\n\\n    \\b\\n    {1,\\n    2}")
    'Title.\\n\\nA long sentence.\\n\\n{1,\\n2}'
    """
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(
        paragraph.removeprefix("\b\n") if paragraph.startswith("\b\n") else " ".join(paragraph.split("\n"))
        for paragraph in paragraphs
    )


class _Sevens(typer.core.TyperGroup):
    """The ``sevens`` group: checks a command's line (:func:`command_line_refusal`) before the command parses it."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        for command in self.commands.values():
            if command.help:
                command.help = reflowed(command.help)
            for param in command.params:
                if param.param_type_name == "argument":
                    # --help shows "FILE <path>", "PATH <str>": the metavar already says what it
                    # takes, and the Python type beside it says nothing more to a newcomer.
                    setattr(param, "display_type_rich", lambda ctx: None)  # noqa: B010
                descriptor = getattr(param, "type_descriptor", None)
                if descriptor is not None and descriptor.annotation is int:
                    setattr(param, "process_value", _read_whole_first(param))  # noqa: B010

    def make_context(self, info_name: str | None, args: list[str], parent: Context | None = None,
                     **extra: Any) -> Context:
        with _one_line_usage_errors():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Context) -> Any:
        with _one_line_usage_errors(ctx):  # the command's own line is parsed here, after the group's
            return super().invoke(ctx)

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if args or ctx.resilient_parsing:
            return super().parse_args(ctx, args)
        with _printing_help(ctx):  # ``sevens`` alone prints the help (no_args_is_help) as it parses
            return super().parse_args(ctx, args)

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        ctx.meta[_RUNNING] = name
        if command is not None and not ctx.resilient_parsing:
            probe = command.context_class(command, info_name=name, parent=ctx, resilient_parsing=True)
            refused = command_line_refusal(command, probe, rest)
            if refused is not None:
                fail(f"sevens {name}: {refused}")
        return name, command, rest


def _value_left_out(command: Command, ctx: Context, args: list[str]) -> str | None:
    """The refusal of an option that takes a value but is followed by another of the command's
    options (as a word of its own), or None."""
    params = [p for p in command.get_params(ctx) if p.param_type_name == "option"]
    names = {name for p in params for name in (*p.opts, *p.secondary_opts)}
    takes_value = {name: p.metavar or "VALUE" for p in params
                   if not (getattr(p, "is_flag", False) or getattr(p, "count", False)) for name in p.opts}
    for word, following in itertools.pairwise(args):
        if word == "--":  # what follows is arguments, never options
            break
        if word in takes_value and following in names:
            metavar = takes_value[word]
            # Free text (a seed) may really be '--auto'; '=' says so. A file has ./--auto.
            meant = f"; to mean that very text, write {word}={following}" if metavar == "TEXT" else ""
            return (f"{word} is missing its value ({word} {metavar}): the next word is the option "
                    f"{following}, which would have been taken for it{meant}")
    return None


def usage_error_line(exc: ClickException, where: str = "sevens") -> str:
    """A usage error click raised, as every other refusal of a command line reads: what was wrong,
    the close match if there is one, and where the help is. Click's own was a boxed panel under the
    usage line, its suggestions a list ("Possible options: --no-save, --save, --seed"). ``where``:
    the command, for an error that does not carry its context (the parser's own)."""
    ctx = getattr(exc, "ctx", None)
    where = ctx.command_path if ctx is not None else where
    see = f"(see {where} --help)"
    if isinstance(exc, NoSuchOption) and ctx is not None:
        known = [name for param in ctx.command.get_params(ctx) for name in (*param.opts, *param.secondary_opts)
                 if name.startswith("--")]
        close = difflib.get_close_matches(exc.option_name, known, n=1)
        return f"{where} has no option {exc.option_name}" + (f"; did you mean {close[0]}?" if close else "") + f" {see}"
    unknown = re.fullmatch(r"No such command '(.*)'\.(?: Did you mean .*)?", exc.message, flags=re.DOTALL)
    if unknown is not None and ctx is not None:
        names = list(getattr(ctx.command, "commands", {}))
        close = difflib.get_close_matches(unknown[1], names, n=1)
        return f"{where} has no command {unknown[1]!r}" + (f"; did you mean {close[0]}?" if close else "") + f" {see}"
    if isinstance(exc, MissingParameter) and exc.param is not None:
        name = exc.param.metavar or max(exc.param.opts, key=len)
        what = _first_sentence(getattr(exc.param, "help", None) or "")
        if what.endswith(_DASH_IS_STDIN) and _stdin_holds_data():
            # `sevens verify < game.json`: what was meant is plain, and one character away.
            what += f"; standard input is piped in here, so {where} - reads it"
        return f"{where}: {name} is missing; give {name}" + (f": {what}" if what else "") + f" {see}"
    message = exc.format_message().rstrip(".")
    return f"{where}: {message[:1].lower()}{message[1:]}{_resume_meant(ctx, exc.message)} {see}"


def _resume_meant(ctx: Context | None, message: str) -> str:
    """For `sevens play FILE`, FILE a file there: the option that carries a saved game on, which
    is surely what was meant (play takes no argument), else "".

    >>> import tempfile
    >>> play = Context(typer.core.TyperCommand("play"), info_name="play")
    >>> with tempfile.NamedTemporaryFile(suffix=".json") as saved:
    ...     said = _resume_meant(play, f"Got unexpected extra argument(s) ({saved.name})")
    ...     said == f"; to carry on the game saved in it, write sevens play --resume {saved.name}"
    True
    >>> _resume_meant(play, "Got unexpected extra argument(s) (no-such-file.json)")
    ''
    """
    extra = re.fullmatch(r"Got unexpected extra argument\(s\) \((.*)\)", message, flags=re.DOTALL)
    if ctx is None or ctx.info_name != "play" or extra is None:
        return ""
    # The whole of it first: a file's name may hold a space.
    named = next((word for word in (extra[1], extra[1].split(" ")[0]) if Path(word).is_file()), None)
    return "" if named is None else f"; to carry on the game saved in it, write sevens play --resume {named}"


_DASH_IS_STDIN = "or - to read it from standard input"


def _stdin_holds_data() -> bool:
    """Standard input is a pipe or a file (not a terminal, nor /dev/null or a closed one)."""
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        return False
    return stat.S_ISFIFO(mode) or (stat.S_ISREG(mode) and os.fstat(sys.stdin.fileno()).st_size > 0)


def _first_sentence(text: str) -> str:
    """An argument's help as part of an error line: its first sentence, lower-case and without its
    full stop (the rest of the help is one ``--help`` away).

    >>> _first_sentence("File to write, e.g. backup.json; or a folder. An existing file is refused.")
    'file to write, e.g. backup.json; or a folder'
    >>> _first_sentence("JSON file (a group's results).")
    "JSON file (a group's results)"
    """
    first = re.split(r"\.\s+(?=[A-Z])", text.strip(), maxsplit=1)[0].rstrip(".")
    if first[1:2].isupper():  # an acronym such as JSON keeps its case
        return first
    return first[:1].lower() + first[1:]


@contextlib.contextmanager
def _one_line_usage_errors(ctx: Context | None = None) -> Iterator[None]:
    """Within the block, a usage error click raises ends the command with :func:`usage_error_line`
    (``ctx``: the group's, whose meta names the command being run)."""
    try:
        yield
    except NoArgsIsHelpError:
        raise  # ``sevens`` alone: the help is printed already
    except ClickException as exc:
        name = ctx.meta.get(_RUNNING) if ctx is not None else None
        fail(usage_error_line(exc, f"sevens {name}" if name else "sevens"), code=exc.exit_code)


_RUNNING = "sevens.command"
"""The key in a context's meta of the command being run, as the group resolved it."""


ABOUT = (
    "Sevens: the seven-a-side rugby tournament game. Play, compute exact odds, verify records.\n\n"
    "New to the game? Start with 'sevens play': you against the bots; type ? at an order for the rules."
)
"""What ``sevens --help`` says first, with where a newcomer starts."""

app = typer.Typer(
    cls=_Sevens,
    name="sevens",
    context_settings={"help_option_names": HELP_OPTIONS},
    help=ABOUT,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

def _show_version(value: bool) -> None:
    if value:
        with printing():
            typer.echo(f"sevens {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False, "--version", metavar="", callback=_show_version, is_eager=True, help="Print the version of sevens and exit."
    ),
) -> None:
    """Sevens: the seven-a-side rugby tournament game (the help says ABOUT)."""


# Each module defines register(app: typer.Typer) -> None.
_COMMAND_MODULES = ("odds", "play", "verify", "table", "serve", "lab", "backup", "keys")

# Ctrl-C while they load ends the command quietly: see sevens.cli.run.
for _name in _COMMAND_MODULES:
    importlib.import_module(f"sevens.cli.{_name}").register(app)


@contextlib.contextmanager
def _printing_help(ctx: Context) -> Iterator[None]:
    """Within the block, help printed to standard output is results as any command's
    (:func:`~sevens.cli.output.printing`): ``sevens --help | head -1`` ended with status 1 (rich's
    and click's own handling of a closed pipe) and ``sevens --help >/dev/full`` with a bare
    "[Errno 28] ..." and status 2, as if the input was wrong.

    typer writes the help to ``sys.stdout`` as it lays it out; it is held here, and written once
    laid out. Where typer's panels would cut anything (an option's name to "--stra…" below 40
    columns, a word of its description), the help is laid out plainly instead (:func:`plain_help`)."""
    try:
        import typer.rich_utils  # here, not at start-up: it reads $TERMINAL_WIDTH as it loads
    except ValueError:
        fail(f"TERMINAL_WIDTH is {os.environ.get('TERMINAL_WIDTH')!r}, not a number of columns; set it to a whole "
             "number, such as 100, or unset it")
    style_help(typer.rich_utils)
    shown_on = sys.stdout
    held = _HeldHelp(shown_on)
    with printing():
        try:
            with contextlib.redirect_stdout(held):
                yield
        finally:
            text = held.getvalue()
            if "…" in _ANSI.sub("", text):
                width = typer.rich_utils.MAX_WIDTH or Console(file=shown_on).width
                text = plain_help(ctx, width)
            text = _without_blank_start(text)
            # typer pads every line to the panels' width: a file or a pipe kept dozens of lines
            # ending in spaces. A terminal shows the padding as nothing, and keeps it.
            shown_on.write(text if shown_on.isatty() else without_padding(text))


class _HeldHelp(io.StringIO):
    """The help as typer writes it, held: laid out as for the standard output it will go to (a
    terminal gets colour; the same encoding)."""

    def __init__(self, shown_on: TextIO) -> None:
        super().__init__()
        self.shown_on = shown_on

    def isatty(self) -> bool:
        return self.shown_on.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.shown_on, "encoding", None) or "utf-8"


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def plain_help(ctx: Context, width: int) -> str:
    """``ctx``'s command's help with nothing cut, for a terminal too narrow for typer's panels: the
    usage and description wrapped to ``width``, then each argument, option and command on a line of
    its own, whole, its description wrapped under it, indented.

    >>> text = plain_help(command().make_context("sevens", [], resilient_parsing=True), 24)
    >>> print(text[text.index("Options:"):text.index("  play")])
    Options:
      --version
          Print the version
          of sevens and
          exit.
      -h, --help
          Show this message
          and exit.
    <BLANKLINE>
    Commands:
      odds
          Exact odds: an
          order's points, a
          match, the best
          split of a total,
          or the solved
          match.
    <BLANKLINE>
    """
    width = max(width, 20)  # narrower, a description would be a word a line: let the terminal wrap
    lines: list[str] = []

    def wrapped(text: str, indent: int) -> None:
        text = text.replace("\\[", "[")  # rich's escape of a bracket (sevens\[plot]), which typer's panels drop
        for paragraph in text.split("\n\n"):
            # A paragraph of lines kept as written (an example) keeps them; any other is one line.
            for line in paragraph.split("\n"):
                # A word wider than the room beside the indent (an example URL at 40 columns) moves
                # the lines to the left, as far as 2 columns, rather than be broken in two.
                longest = max((len(word) for word in line.split()), default=0)
                at = " " * max(min(indent, width - longest), min(indent, 2))
                lines.extend(textwrap.wrap(line, width, initial_indent=at, subsequent_indent=at,
                                           break_on_hyphens=False) or [""])
            lines.append("")

    command = ctx.command
    wrapped(command.get_usage(ctx), 0)
    if command.help:
        wrapped(command.help, 0)
    sections: dict[str, list[tuple[str, str]]] = {"Arguments": [], "Options": []}
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is not None:
            sections["Arguments" if param.param_type_name == "argument" else "Options"].append(record)
    if isinstance(command, typer.core.TyperGroup):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                sections.setdefault("Commands", []).append((name, (sub.help or "").split("\n\n")[0]))
    for title, records in sections.items():
        if not records:
            continue
        lines.append(f"{title}:")
        for names, description in records:
            wrapped(names, 2)
            lines.pop()  # the description follows at once
            if description:
                wrapped(description, 6)
                lines.pop()
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


_BLANK_LINE = re.compile(r"(?:[ \t]|\x1b\[[0-9;]*m)*\n")


def _without_blank_start(text: str) -> str:
    """The help as typer lays it out, less the blank line it begins with (the usage line's padding:
    ``sevens --help | head -1`` showed nothing) and the blank lines it ends with. A line of spaces
    in colour codes is blank too.

    >>> _without_blank_start("   \\n\\x1b[33m  \\x1b[0m\\n Usage: sevens\\n\\n text\\n  \\n")
    ' Usage: sevens\\n\\n text\\n'
    """
    start = 0
    while found := _BLANK_LINE.match(text, start):
        start = found.end()
    lines = text[start:].split("\n")
    while lines and _BLANK_LINE.fullmatch(lines[-1] + "\n"):
        lines.pop()
    return "".join(line + "\n" for line in lines)


def _show_help(ctx: Context, param: Parameter, value: bool) -> None:
    """``--help``, printed as results are (:func:`_printing_help`)."""
    if value and not ctx.resilient_parsing:
        with _printing_help(ctx):
            text = ctx.get_help()  # typer prints it as it lays it out, and returns what is left: nothing
            if text:
                typer.echo(text, color=ctx.color)
        ctx.exit()


def command() -> Any:
    """The click command behind ``app``, its ``--help`` options without a type (typer shows
    ``<bool>`` beside every one, as if help took a value) and printing as results do."""
    root = typer.main.get_command(app)
    for cmd in (root, *getattr(root, "commands", {}).values()):
        option = cmd.get_help_option(cmd.make_context(cmd.name, [], resilient_parsing=True, help_option_names=HELP_OPTIONS))
        if option is not None:
            option.metavar = ""
            option.callback = _show_help
    return root


def main(cli: Any = None) -> None:
    """Entry point: bad input anywhere ends in a one-line error, not a traceback. ``cli``: the
    command already built by :func:`command` (:func:`sevens.cli.run` builds it while it takes
    Ctrl-C quietly)."""
    try:
        (cli or command())(prog_name="sevens")
    except (ValueError, OSError) as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)


if __name__ == "__main__":  # python -m sevens.cli.main, as well as python -m sevens
    main()
