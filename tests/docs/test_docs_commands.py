"""The commands README.md and docs/*.md show, run as a reader copies them.

Every command in a code block is found and either run or set aside with a reason (SET_ASIDE below):
a new command in the docs that this file does not know fails `test_every_command_is_run_or_set_aside`,
so whoever adds one decides which it is. Commands run in one folder shared by every page, in the
pages' order, as a reader working down the README and then the docs would: the record that
`--record game.json` writes is the file that `sevens verify game.json` reads. The same command on
two pages runs once.

What is compared: the exit status (0 for a command shown as it is; 1 and the first prompt for a
game people play, since no one types here), every output line a console block shows under its
command, and the outputs the prose quotes (the README's excerpt of a game at 80 columns, the
verify summary, the refusal and the message of input that ended in docs/play.md, the notes of
docs/odds.md)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer
from typer._click.exceptions import ClickException

from sevens.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
# Lines of a plain (unlabelled) block that are commands, not output or data.
COMMAND_START = re.compile(r"^(\$ |sevens |\.venv/bin/|bash |scripts/|for |S=|done\b)")


@dataclass(frozen=True)
class Command:
    page: str
    line: int
    text: str
    shown_output: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def _commands(page: Path) -> list[Command]:
    text = page.read_text(encoding="utf-8")
    found: list[Command] = []
    for block in FENCE.finditer(text):
        label, body = block.group(1), block.group(2)
        if label not in ("", "console"):
            continue
        first_line = text.count("\n", 0, block.start(2)) + 1
        lines = body.splitlines()
        i = 0
        while i < len(lines):
            raw = lines[i]
            stripped = raw.strip()
            start = i
            if label == "console" and not raw.startswith("$ "):
                i += 1
                continue
            if label == "" and not COMMAND_START.match(stripped):
                i += 1
                continue
            command = stripped.removeprefix("$ ")
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1].rstrip() + " " + lines[i].strip()
            i += 1
            output: list[str] = []
            if label == "console":
                while i < len(lines) and not lines[i].startswith("$ "):
                    output.append(lines[i].rstrip())
                    i += 1
            found.append(Command(str(page.relative_to(ROOT)), first_line + start, command, tuple(output)))
    return found


COMMANDS = [command for page in PAGES for command in _commands(page)]

# Commands not run here, each with the reason; matched against the command with its comment.
SYNOPSIS = "a synopsis, not a command (FILE|DIR)"
SET_ASIDE: list[tuple[str, str]] = [
    (r"^bash scripts/(run|test)\b", "sets up .venv from the network; scripts/run is tested in test_scripts_run.py"),
    (r"^(bash )?scripts/pg\b|^\.venv/bin/python -m pytest\b", "the test suite itself"),
    (r"^\.venv/bin/python benchmarks/", "a benchmark: minutes of the whole machine"),
    (r"^\.venv/bin/python -m pip wheel |^pipx install |^python3\.11 -m venv |^~/sevens/bin/pip install ",
     "builds or installs the package; tests/packaging/test_installed_wheel.py does both, without the network"),
    (r"^\.venv/bin/python -c .*plot_solver_map", "solves a map of budgets and rewrites a picture in docs/"),
    (r"^(\.venv/bin/)?sevens lab\b|^for |^S=|^done\b",
     "lab runs take seconds to minutes (the first compiles the simulator); tests/lab covers the lab, and "
     "test_docs_strategy_figures.py runs most of strategy.md's with fewer tournaments against its figures"),
    (r"^(\.venv/bin/)?sevens serve\b", "starts a server that runs until stopped; tests/cli/test_serve_cli.py"),
    (r"^(\.venv/bin/)?sevens (export|import) \[", SYNOPSIS),
    (r"--resume ~/", "names an example file"),
    (r"odds --(best-split|solve) 1[0-9][0-9]\b.*--knockout|odds --solve 160 160 --knockout",
     "count-back at the largest budgets takes 10 s or more and up to 2 GB"),
]
# Commands shown with what they print for a file that a reader would not have.
ILLUSTRATIONS = {
    ("docs/record.md", "sevens verify game.json"): "the message for a doctored record, to show its form",
}


def _set_aside(command: Command) -> str | None:
    if (command.page, command.text) in ILLUSTRATIONS:
        return ILLUSTRATIONS[command.page, command.text]
    for pattern, reason in SET_ASIDE:
        if re.search(pattern, command.text):
            return reason
    return None


def _variants(words: list[str]) -> list[list[str]]:
    """`[--knockout]` and `[--json]` are options a reader may add: run without them and with all."""
    if not any(word.startswith("[") for word in words):
        return [words]
    plain = [word for word in words if not word.startswith("[")]
    full = [word.strip("[]") for word in words]
    return [plain, full]


def _sevens(words: list[str]) -> list[str] | None:
    if words and words[0] in ("sevens", ".venv/bin/sevens"):
        return [sys.executable, "-m", "sevens", *words[1:]]
    return None


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["COLUMNS"] = "80"  # what a pipe gets anyway; the README's excerpt is at 80 columns
    source = str(ROOT / "src")
    env["PYTHONPATH"] = source + os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else source
    return env


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("docs-commands")


_RESULTS: dict[tuple[str, ...], subprocess.CompletedProcess[str]] = {}


def _run(argv: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    key = (*argv, stdin)
    if key not in _RESULTS:
        _RESULTS[key] = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, text=True,
                                       timeout=300, env=_environment(), check=False)
    return _RESULTS[key]


def _interactive(words: list[str]) -> bool:
    return words[1:2] == ["play"] and "--auto" not in words and "--resume" not in words


def test_the_pages_show_commands() -> None:
    """The extraction finds what the pages show (so an empty list cannot pass every test below)."""
    texts = {command.text for command in COMMANDS}
    assert ".venv/bin/sevens verify game.json                 # redo every die from the revealed seed" in texts
    assert any(command.shown_output for command in COMMANDS)
    assert len(COMMANDS) > 30


@pytest.mark.parametrize("command", COMMANDS, ids=[command.id for command in COMMANDS])
def test_every_command_is_run_or_set_aside(command: Command) -> None:
    words = shlex.split(command.text, comments=True)
    assert _set_aside(command) or _sevens(words) or command.page == "docs/fair-dice.md", (
        f"{command.id}: `{command.text}` is neither run nor set aside: add a rule to SET_ASIDE in "
        f"{Path(__file__).name}, with the reason, or teach the test to run it")


RUN = [command for command in COMMANDS if not _set_aside(command)]
# Commands set aside that are still sevens command lines a reader copies (lab runs, servers, the
# slowest odds): not run, but read by the CLI's own parser, so that a value the option no longer
# takes, or an option that lost its value, shows here and not in a reader's terminal.
PARSED = [command for command in COMMANDS if _set_aside(command) not in (None, SYNOPSIS)
          and _sevens(shlex.split(command.text, comments=True)) is not None]
SHELL = {"|", ">", ">>", "<", "&&", "||", ";"}


def test_the_set_aside_commands_include_sevens_lines() -> None:
    """So that an extraction gone wrong cannot leave the test below with nothing to read."""
    assert any(" lab " in f" {command.text} " for command in PARSED)
    assert any(" serve" in command.text for command in PARSED)


@pytest.mark.parametrize("command", PARSED, ids=[command.id for command in PARSED])
def test_set_aside_command_parses(command: Command, capsys: pytest.CaptureFixture[str]) -> None:
    root = typer.main.get_command(app)
    for variant in _variants(shlex.split(command.text, comments=True)):
        words = variant[1:]
        cut = [i for i, word in enumerate(words) if word in SHELL]
        words = words[:cut[0]] if cut else words
        name, args = words[0], words[1:]
        assert name in root.commands, f"{command.id}: sevens has no command {name!r}"  # type: ignore[attr-defined]
        shown = " ".join(variant)
        try:
            root.commands[name].make_context(name, args)  # type: ignore[attr-defined]
        except (ClickException, typer.Exit) as refusal:
            message = refusal.format_message() if isinstance(refusal, ClickException) else ""
            pytest.fail(f"{command.id}: `{shown}` is refused: {message}{capsys.readouterr().err}")


@pytest.mark.parametrize("command", RUN, ids=[command.id for command in RUN])
def test_command_runs_as_printed(command: Command, workdir: Path) -> None:
    if command.page == "docs/fair-dice.md":
        for tool in ("xxd", "openssl", "sha256sum"):
            if tool in command.text and shutil.which(tool) is None:
                pytest.skip(f"{tool} is not installed")
        done = _run(["bash", "-c", command.text], workdir)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == list(command.shown_output), command.id
        return
    words = shlex.split(command.text, comments=True)
    for variant in _variants(words):
        argv = _sevens(variant)
        assert argv is not None
        interactive = _interactive(variant)
        # A game people play: Enter at the first hand-over (several people), then input ends.
        done = _run(argv, workdir, stdin="\n" if interactive else "")
        shown = " ".join(variant)
        if interactive:
            # The game reaches the first order's prompt, then stops as input ends (exit 1), kept
            # for --resume; input that ends is said as such, not as an interruption.
            assert done.returncode == 1, f"{command.id}: {shown}: {done.stderr}"
            assert "Order for " in done.stdout, f"{command.id}: {shown}: {done.stdout[-2000:]}"
            assert "standard input ended" in done.stderr, done.stderr
            assert "with: sevens play --resume" in done.stderr, done.stderr
            continue
        assert done.returncode == 0, f"{command.id}: {shown}: exit {done.returncode}: {done.stderr}"
        assert done.stdout.strip(), f"{command.id}: {shown} printed nothing"
        if command.shown_output:
            assert done.stdout.splitlines() == list(command.shown_output), command.id


def _squeezed(text: str) -> str:
    """Text with its line breaks and runs of spaces made one space (the pages wrap where the terminal does not)."""
    return " ".join(text.split())


def _block_after(page: str, words: str) -> str:
    """The first code block after the sentence ending in ``words``."""
    text = (ROOT / page).read_text(encoding="utf-8")
    sentence = re.search(r"\s+".join(map(re.escape, words.split())), text)
    assert sentence is not None, f"{page} no longer says {words!r}"
    block = FENCE.search(text, sentence.end())
    assert block is not None, f"{page}: no code block after {words!r}"
    return block.group(2)


def test_readme_excerpt_is_what_its_command_prints() -> None:
    """README's excerpt of a game at 80 columns: every line it shows is a line of that game's output."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"excerpt of a game at 80 columns \(`(sevens play [^`]*)`\)", _squeezed(readme))
    assert found, "README.md no longer names the command behind its excerpt"
    argv = _sevens(shlex.split(found.group(1)))
    assert argv is not None
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=_environment(), check=False)
    assert done.returncode == 0, done.stderr
    printed = [line.rstrip() for line in done.stdout.splitlines()]
    excerpt = _block_after("README.md", found.group(1) + "`):")
    shown = [line.rstrip() for line in excerpt.splitlines() if line.strip() and line.strip() != "..."]
    assert len(shown) > 10
    missing = [line for line in shown if line not in printed]
    assert not missing, f"README.md's excerpt shows lines the game does not print: {missing}"


def test_play_verify_summary_is_what_verify_prints(workdir: Path) -> None:
    """docs/play.md quotes what `sevens verify game.json` prints for the game of its `--seed 42` command."""
    shown = _block_after("docs/play.md", "or sums up what it checked:")
    record = _run(_sevens(shlex.split("sevens play --auto --players 12 --teams 16 --seed 42 --record game.json"))
                  or [], workdir)
    assert record.returncode == 0, record.stderr
    done = _run(_sevens(["sevens", "verify", "game.json"]) or [], workdir)
    assert done.returncode == 0, done.stderr
    assert _squeezed(done.stdout) == _squeezed(shown)


def test_play_refusal_is_what_the_game_prints(tmp_path: Path) -> None:
    """docs/play.md quotes the refusal of an order whose FLAIR is not a multiple of 3."""
    shown = _block_after("docs/play.md", "and asked for again:")
    typed = re.search(r"got (\d+), try", shown)
    assert typed, shown
    argv = _sevens(["sevens", "play", "--players", "4", "--seed", "docs"])
    assert argv is not None
    done = _run(argv, tmp_path, stdin=f"20 {typed.group(1)}\n")
    assert done.returncode == 1, done.stderr
    assert _squeezed(shown) in _squeezed(done.stdout)


def test_odds_page_says_what_a_near_certain_win_prints(tmp_path: Path) -> None:
    """docs/odds.md's example of a chance too close to 1 to print as 1 is what the table shows."""
    page = _squeezed((ROOT / "docs" / "odds.md").read_text(encoding="utf-8"))
    said = re.search(r"(\d+) FORCE dice against none [^(]*?the draw prints as `([^`]+)` and the win as `([^`]+)`", page)
    assert said, "docs/odds.md no longer gives its example of a near-certain win"
    done = _run(_sevens(["sevens", "odds", "--force", said.group(1), "--vs-force", "0"]) or [], tmp_path)
    assert done.returncode == 0, done.stderr
    win, draw, loss = done.stdout.splitlines()[-2].strip("│ ").split(" │ ")
    assert (win.strip(), draw.strip(), loss.strip()) == (said.group(3), said.group(2), "0")


def test_the_long_count_back_note_promises_no_less_than_odds_page_measured(tmp_path: Path) -> None:
    """Before a long count-back sevens odds says how much memory it may take; docs/odds.md gives the
    largest measured (`--solve 160 159 --knockout`). The note said 0.8 GB after that run took 1.3 GB."""
    page = _squeezed((ROOT / "docs" / "odds.md").read_text(encoding="utf-8"))
    said = re.search(r"`--solve (\d+) (\d+) --knockout` is the largest of those measured \((\d+) s of CPU and "
                     r"([\d.]+) GB", page)
    assert said, "docs/odds.md no longer names the largest count-back it measured"
    done = _run(_sevens(["sevens", "odds", "--best-split", "100", "--vs-force", "1", "--knockout", "--json"]) or [],
                tmp_path)
    assert done.returncode == 0, done.stderr
    note = re.search(r"about half a minute, and up to about ([\d.]+) GB of memory", done.stderr)
    assert note, done.stderr
    assert float(note.group(1)) >= float(said.group(4)), (note.group(0), said.group(0))
    assert int(said.group(3)) <= 30  # "about half a minute"


def test_play_input_ended_is_what_the_game_prints(tmp_path: Path) -> None:
    """docs/play.md quotes what a game says when the orders piped in run out after turn 1; it had the
    file's name as given, where the game names it in full."""
    shown = _block_after("docs/play.md", "one turn's orders piped in; the file is named in full):")
    folder = re.search(r"run in `([^`]+)`", _squeezed((ROOT / "docs" / "play.md").read_text(encoding="utf-8")))
    assert folder, "docs/play.md no longer says where its example game was run"
    argv = _sevens(["sevens", "play", "--players", "4", "--seed", "docs", "--save", "game.json"])
    assert argv is not None
    # The first turn: an order and its "Send this order?" answer for each of the two teams.
    done = _run(argv, tmp_path, stdin="20 9\ny\n20 9\ny\n")
    assert done.returncode == 1, done.stderr
    printed = done.stderr.replace(str(tmp_path), folder.group(1))
    assert _squeezed(printed) == _squeezed(shown)
