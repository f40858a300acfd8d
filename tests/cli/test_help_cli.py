"""``--help``: numbers are shown as N (A B, TOTAL) and files as FILE or PATH, not as Python types."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

import sevens
from sevens.cli.main import app
from terminal_session import in_terminal, read_until

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


@pytest.mark.parametrize(
    ("command", "flags"),
    [
        (["play"], ["--auto"]),
        (["lab"], ["--json"]),
        (["odds"], ["--knockout", "--json"]),
        (["table"], ["--json"]),
        (["export"], ["--full"]),
    ],
)
def test_flags_show_no_value_and_seeds_say_what_they_take(command: list[str], flags: list[str]) -> None:
    """A flag takes no value, so --help shows none ('--auto <bool>' suggested one); a seed is TEXT
    where any text is hashed (play, table's lots) and N where it is a number (lab)."""
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    lines = [" ".join(line.replace("│", " ").split()) for line in result.output.splitlines()]
    for flag in flags:
        line = next(line for line in lines if line.startswith(f"{flag} "))
        assert "<" not in line, line
    seeds = {"play": "--seed TEXT", "lab": "--seed N", "table": "--lots-seed TEXT"}
    if command[0] in seeds:
        assert any(line.startswith(seeds[command[0]] + " ") for line in lines)


@pytest.mark.parametrize("command", [[], ["odds"], ["play"], ["verify"], ["table"], ["serve"], ["lab"], ["export"], ["import"], ["rotate-key"]])
def test_installed_help_shows_no_python_types(command: list[str]) -> None:
    """Through the entry point, as a user runs it: --help itself takes no value (typer showed
    '--help <bool>'), and text options name what they take (URL, ADDRESS, NAMES), not <str>."""
    result = subprocess.run(
        [sys.executable, "-c", "from sevens.cli.main import main; main()", *command, "--help"],
        capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"}, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = [" ".join(line.replace("│", " ").split()) for line in result.stdout.splitlines()]
    assert "--help -h Show this message and exit." in lines
    options = [line for line in lines if line.lstrip("* ").startswith("--")]
    assert options and not [line for line in options if re.search(r"<[a-z]", line)]


@pytest.mark.parametrize("command", ["verify", "table", "export", "import"])
def test_arguments_show_what_they_take_not_a_python_type(command: str) -> None:
    """The Arguments panel read 'FILE <path>' and 'PATH <str>'."""
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    panel = result.output.split("Arguments")[1].split("Options")[0]
    assert ("FILE" in panel or "PATH" in panel) and "<" not in panel, panel


def test_table_help_shows_a_results_file_that_table_reads(tmp_path: Path) -> None:
    """The help said only 'JSON file with the group's teams and matches': a newcomer could not
    write one. Its example is run here as it stands."""
    result = runner.invoke(app, ["table", "--help"], env={"COLUMNS": "200"})
    lines = [line.strip() for line in result.output.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith('{"teams"'))
    end = next(i for i in range(start, len(lines)) if lines[i].endswith("}]}"))
    example = tmp_path / "group.json"
    example.write_text(" ".join(lines[start : end + 1]), encoding="utf-8")
    table = runner.invoke(app, ["table", "--json", str(example)])
    assert table.exit_code == 0, table.output
    assert json.loads(table.stdout)["rows"][0]["team"] == "fiji"


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (["serve"], ["127.0.0.1 for this machine only, 0.0.0.0 for every network", "e.g. 8080", "SEVENS_*"]),
        (["export"], ["e.g. backup.json", "when PATH ends in / or is a folder already, e.g. backups/"]),
        (["import"], ["e.g. backup.json or backups/"]),
        (["export"], ["e.g. sqlite:///games.sqlite3 or postgresql://USER:PASSWORD@HOST/DB"]),
        # "Rank", "best" and "value" named no measure; nor did "count-back (R9)" say what it counts.
        (["odds"], ["best first by win + draw/2 (with --knockout: win + level/2)",
                    "value to A (win + draw/2; with --knockout: win + level/2)",
                    "more tries win, then conversions, then drop goals"]),
    ],
)
def test_help_gives_examples_where_a_format_is_involved(command: list[str], words: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    text = " ".join(result.output.replace("│", " ").split())
    for phrase in words:
        assert phrase in text, phrase


def test_a_terminal_width_that_is_not_a_number_is_named() -> None:
    """typer reads $TERMINAL_WIDTH as its help loads: 'abc' there said only "invalid literal for int()
    with base 10: 'abc'", nothing of where it came from."""
    def sevens(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "sevens", *args], capture_output=True, text=True,
                              env={**os.environ, "TERMINAL_WIDTH": "abc"}, timeout=60, check=False)

    for args in (["--help"], ["odds", "--help"], []):
        run = sevens(*args)
        assert (run.returncode, run.stdout) == (2, "")
        assert run.stderr == ("error: TERMINAL_WIDTH is 'abc', not a number of columns; set it to a whole number, "
                              "such as 100, or unset it\n")
    assert sevens("odds", "--force", "3", "--flair", "3").returncode == 0  # only the help reads it


@pytest.mark.parametrize("command", [[], ["odds"], ["play"], ["verify"], ["table"], ["serve"], ["lab"], ["export"], ["import"], ["rotate-key"]])
def test_the_description_is_wrapped_to_the_terminal(command: list[str]) -> None:
    """typer kept the docstrings' own line breaks after their first paragraph: at 80 columns the
    source's lines wrapped again, leaving 'Other', 'URL of' or 'line' alone on every other line. A
    line of prose is now ended only where its next word would not fit (the table's example JSON
    keeps its lines)."""
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "80"})
    head = "\n".join(line.strip() for line in result.output.split("╭")[0].splitlines())
    for paragraph in head.split("\n\n"):
        lines = paragraph.strip("\n").splitlines()
        if not lines or lines[0].startswith(("Usage:", "{")):
            continue
        for line, after in itertools.pairwise(lines):
            assert len(line) + 1 + len(after.split()[0]) > 78, f"{line!r} then {after!r}"


_COMMANDS = ["", "odds", "play", "verify", "table", "serve", "lab", "export", "import", "rotate-key"]


@pytest.mark.parametrize("columns", [20, 30, 39, 60])
def test_in_a_narrow_terminal_every_option_name_is_whole_and_nothing_is_cut(columns: int) -> None:
    """Below 40 columns typer's panels cut option names ('--stra…', '--…') and the descriptions
    beside them to a word a line; at 60, export's and import's '--database-url' example URL ended
    in '…'. Where the panels would cut anything, the help is laid out plainly: each name whole on
    a line of its own, the description wrapped under it. Each command's help, in a real terminal."""
    from sevens.cli.main import command

    root = command()
    for name in _COMMANDS:
        cmd = root.commands[name] if name else root  # type: ignore[attr-defined]
        ctx = cmd.make_context(name or "sevens", [], resilient_parsing=True)
        names = [opt for param in cmd.get_params(ctx) for opt in (*param.opts, *param.secondary_opts)
                 if opt.startswith("-")]
        with in_terminal([sys.executable, "-m", "sevens", *([name] if name else []), "--help"],
                         env={**os.environ, "COLUMNS": str(columns)}) as (run, main):
            shown = read_until(main, rb"\Z-never", 60)  # all there is, until the command ends
            assert run.wait(timeout=60) == 0
        text = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", shown.decode())
        assert "…" not in text, (name, text)
        for option in names:
            assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text), (name, option, text)
        assert max(len(line) for line in text.splitlines()) <= columns, (name, text)


def test_version_is_the_projects_and_is_printed_as_results_are() -> None:
    """``sevens --version`` prints the package's version, in a real process, and (as every result) a
    full disk is said, not ignored. pyproject.toml takes the version from ``sevens.__version__``, so
    the two cannot differ (tests/packaging checks it in an installed wheel)."""
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "sevens.__version__"}
    declared = sevens.__version__
    shown = subprocess.run([sys.executable, "-m", "sevens", "--version"], capture_output=True, text=True, timeout=60)
    assert (shown.returncode, shown.stdout, shown.stderr) == (0, f"sevens {declared}\n", "")
    with open("/dev/full", "w") as full:
        refused = subprocess.run([sys.executable, "-m", "sevens", "--version"], stdout=full, stderr=subprocess.PIPE,
                                 text=True, timeout=60)
    assert refused.returncode == 1 and "could not be written" in refused.stderr
    listed = runner.invoke(app, ["--help"], env={"COLUMNS": "100"})
    assert "--version" in listed.output and "Print the version of sevens" in listed.output


def test_help_written_to_a_file_has_no_padding_no_colour_codes_and_fits_80_columns(tmp_path: Path) -> None:
    """``sevens play --help > help.txt`` (or into a pipe, a pager) kept typer's padding: every line
    of the usage, the description and the panels ended in spaces out to 80 columns, over a hundred
    lines in all. A file gets the help as a terminal of 80 columns shows it, less that padding."""
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FORCE_COLOR", "TERMINAL_WIDTH")}
    for name in _COMMANDS:
        kept = tmp_path / f"{name or 'sevens'}.txt"
        with kept.open("w") as file:
            run = subprocess.run([sys.executable, "-m", "sevens", *([name] if name else []), "--help"], stdout=file,
                                 stderr=subprocess.PIPE, env=environ, timeout=60)
        assert (run.returncode, run.stderr) == (0, b""), name
        text = kept.read_text()
        padded = [line for line in text.splitlines() if line != line.rstrip()]
        assert not padded, (name, padded)
        assert "\x1b" not in text and "Usage: sevens" in text, name
        assert max(cell_len(line) for line in text.splitlines()) <= 80, name


@pytest.mark.parametrize("columns", [40, 60, 80, 120])
def test_in_a_terminal_of_any_common_width_no_word_of_the_help_is_broken(columns: int) -> None:
    """At 40 columns the plain help broke serve's, export's and import's example URL in two
    ('po' / 'stgresql://USER:PASSWORD@HOST/DB;'), the description's indent leaving it 34 columns.
    Every word of every command's and option's help now shows whole, in a terminal of that width,
    and no line is wider than the terminal (which would wrap it wherever the edge falls)."""
    from sevens.cli.main import command

    root = command()
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "TERMINAL_WIDTH")}
    for name in _COMMANDS:
        cmd = root.commands[name] if name else root  # type: ignore[attr-defined]
        ctx = cmd.make_context(name or "sevens", [], resilient_parsing=True)
        said = " ".join([cmd.help or "", *(getattr(param, "help", None) or "" for param in cmd.get_params(ctx))])
        said = said.replace("\\[", "[")  # rich markup's escaped bracket (sevens\[plot]) shows as a bracket
        with in_terminal([sys.executable, "-m", "sevens", *([name] if name else []), "--help"], columns=columns,
                         env=environ) as (run, main):
            shown = read_until(main, rb"\Z-never", 60)  # all there is, until the command ends
            assert run.wait(timeout=60) == 0
        text = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", shown.decode()).replace("\r\n", "\n")
        words = set(re.split(r"[\s│]+", text))
        broken = [word for word in said.split() if word.strip("{}[]") and word not in words]
        assert not broken, (name, columns, broken)
        assert max(cell_len(line) for line in text.splitlines()) <= columns, (name, text)
