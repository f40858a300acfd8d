"""``sevens lab``: a bad --plot path is refused before any simulation, and results are never lost to it."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
import typer
from typer.testing import CliRunner

from installed_packages import install_package
from sevens.cli.main import app
from sevens.lab.cores import available_cores
from sevens.lab.run import run_lab, wilson_interval
from strategy_sources import FAILS_ONCE, PRINTER
from terminal_session import in_terminal, press_ctrl_c, read_until, wait_or_show_where

runner = CliRunner()


@pytest.mark.parametrize("plot", ["nodir/x.png", "folder", "x.pdf", "/proc/x.png"])
def test_a_plot_that_cannot_be_written_is_refused_before_simulating(tmp_path: Path, plot: str) -> None:
    if plot.startswith("/proc") and not Path("/proc").is_dir():
        pytest.skip("no /proc here")
    target = {"nodir/x.png": str(tmp_path / "nodir" / "x.png"), "folder": str(tmp_path)}.get(plot, plot)
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--plot", target])
    assert result.exit_code == 2
    assert "--plot" in result.output and "Traceback" not in result.output
    assert "simulating" not in result.output and not (tmp_path / "nodir").exists()


@pytest.mark.parametrize("given", ["~/ranking.png", "~root/ranking.png"])
def test_a_plot_under_a_tilde_the_shell_left_says_it_was_not_expanded_and_what_to_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    """--plot "~/x.png" (quoted, or --plot=~/x.png) said "the folder ~ does not exist; create it or pick
    another path": advice to make a folder named ~ beside one's files."""
    monkeypatch.chdir(tmp_path)
    first = given.partition("/")[0]
    expanded = os.path.expanduser(given)
    if expanded == given:
        pytest.skip(f"no {first} here")
    whose = "your home folder" if first == "~" else f"{first[1:]}'s home folder"
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--plot", given])
    assert result.exit_code == 2
    assert result.stderr == (f"error: cannot write --plot {given}: {first} was not expanded to {whose} (a shell expands "
                             f"it only unquoted, at the start of a word) and there is no folder named {first} here; "
                             f"write --plot {given} (unquoted, after a space) or --plot {expanded}\n")
    assert list(tmp_path.iterdir()) == []


def test_a_plot_under_a_folder_named_tilde_is_written_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A path is taken as written: where a folder named ~ is here, that is where the plot goes."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "~").mkdir()
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--plot", "~/ranking.png"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "~" / "ranking.png").stat().st_size > 0


@pytest.mark.parametrize("length", [250, 300])
def test_a_plot_name_too_long_for_the_file_system_is_refused_before_simulating(tmp_path: Path, length: int) -> None:
    """A name of 300 characters ended the command with Python's '[Errno 36] File name too long'; one of
    250 passed the check, the run played, and the plot failed at the end: the plot is written under a
    longer temporary name first, past the file system's 255 characters."""
    plot = tmp_path / ("b" * (length - 4) + ".png")
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--plot", str(plot)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"error: cannot write --plot {plot}: File name too long; choose a shorter file name (it is "
                             "written under a longer temporary name first, then renamed)\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("plot", [".png", ".SVG", "out/.png"])
def test_a_plot_named_by_its_ending_alone_is_refused_saying_a_name_is_missing(plot: str) -> None:
    """'--plot .svg' said "--plot must end in .png or .svg, got '.svg'", which it does."""
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--plot", plot])
    assert result.exit_code == 2
    name = Path(plot).name
    assert result.stderr == f"error: --plot {name} is an ending with no name before it; give a file name, e.g. --plot ranking.png\n"


@pytest.mark.parametrize(("plot", "says"), [
    ("{tmp}", "--plot {tmp} is a folder; give a file name, e.g. --plot {tmp}/ranking.png"),
    ("{tmp}/", "--plot {tmp} is a folder; give a file name, e.g. --plot {tmp}/ranking.png"),
    ("x.bmp", "--plot must end in .png or .svg, got 'x.bmp'; write e.g. --plot x.png"),
    ("plots/ranking", "--plot must end in .png or .svg, got 'ranking'; write e.g. --plot plots/ranking.png"),
])
def test_a_plot_that_is_a_folder_or_has_another_ending_is_told_what_to_write(tmp_path: Path, plot: str, says: str) -> None:
    """'--plot /tmp' was told it "must end in .png or .svg, got 'tmp'", as if tmp were a file's name, and an
    unknown ending was told what was wrong but not what to write instead."""
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--plot", plot.format(tmp=tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == f"error: {says.format(tmp=tmp_path)}\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("even,,random", "the 2nd, between 'even' and 'random' (two commas together); give the names parted by one comma "
         "each, --strategies even,random, or put back the name left out"),
        (",even,random", "the 1st, before 'even' (a comma at the start); give the names parted by one comma each, "
         "--strategies even,random,"),
        ("even,random, ", "the 3rd, after 'random' (a comma at the end)"),
    ],
)
def test_an_empty_strategy_name_is_refused_saying_where(given: str, says: str) -> None:
    """'even,,random' ran even and random alone, the empty name dropped without a word: a name
    left out went unseen. It is refused, saying which position is empty and the list without it."""
    result = runner.invoke(app, ["lab", "--strategies", given, "--tournaments", "10"])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: --strategies {given!r} has an empty name, {says}"), result.stderr


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("Even", "even"), ("group_blitz", "group-blitz"), ("odds-awre", "odds-aware"), ("front-loading", "group-blitz"), ("Knockout saving", "knockout-saver")],
)
def test_a_strategy_name_nearly_right_is_told_the_name_meant(typed: str, meant: str) -> None:
    """'Even' was told only that there is no strategy called 'Even', then the list of all of them."""
    result = runner.invoke(app, ["lab", "--strategies", f"random,{typed}", "--tournaments", "10"])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: --strategies: there is no strategy called {typed!r} (did you mean {meant!r}?); choose one of: ")


def test_results_are_printed_before_a_plot_that_fails_at_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevens.cli.lab import _report

    result = run_lab(["even", "random"], 10, 1, teams=8)
    with pytest.raises(typer.Exit):
        _report(result, tmp_path / "gone" / "x.png", json_out=True)
    out, err = capsys.readouterr()
    assert json.loads(out)["strategies"] == ["even", "random"]
    assert err.startswith("error: cannot write --plot") and "the JSON is printed" in err


@pytest.mark.parametrize(("args", "says"), [
    (["--strategies", "os:system"], "--strategies: 'os:system' is not a strategy"),
    (["--strategies", "even,json:dumps"], "--strategies: 'json:dumps' is not a strategy"),
    (["--strategies", "even", "--field", "json:dumps"], "--field: 'json:dumps' is not a strategy"),
    # Calling these exits (it used to end the command with status 0 and no word) or raises.
    (["--strategies", "even,sys:exit"], "--strategies: 'sys:exit' is not a strategy: loading it or calling it with "
                                        "no arguments raised SystemExit; name a strategy object"),
    (["--strategies", "even", "--field", "sys:exit"], "--field: 'sys:exit' is not a strategy"),
    (["--strategies", "asyncio:get_running_loop"], "--strategies: 'asyncio:get_running_loop' is not a strategy: "
                                                   "loading it or calling it with no arguments raised RuntimeError: no running event loop"),
])
def test_a_path_to_something_that_is_not_a_strategy_is_refused(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["lab", *args, "--tournaments", "10"])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {says}") and result.stderr.count("\n") == 1


@pytest.mark.parametrize(("address", "why"), [
    ("scheduler", "ValueError: missing port number in address 'scheduler'"),
    ("http://127.0.0.1:8786", "ValueError: unknown address scheme 'http'"),
    ("tcp://127.0.0.1:port", "ValueError: invalid literal for int() with base 10: 'port'"),
])
def test_a_dask_address_dask_cannot_use_says_how_to_give_one(address: str, why: str) -> None:
    """'--dask scheduler' said only "error: missing port number in address 'scheduler'", and
    '--dask tcp://127.0.0.1:port' "error: invalid literal for int() with base 10: 'port'"."""
    pytest.importorskip("distributed")
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--dask", address])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error: {address!r} is not an address Dask can connect to ({why}"), result.stderr
    assert lines[0].endswith("give it as the scheduler prints it, tcp://HOST:PORT (dask scheduler listens on port "
                             "8786 unless told otherwise), or leave out --dask to run on this machine")


@pytest.mark.parametrize("name", [":Mine", "even:", ":"])
def test_a_path_missing_its_module_or_attribute_says_both_are_needed(name: str) -> None:
    """':Mine' said "error: Empty module name" (Python's words), naming neither the option nor the fix."""
    result = runner.invoke(app, ["lab", "--strategies", f"even-flair,{name}", "--tournaments", "10"])
    assert result.exit_code == 2
    assert result.stderr == (f"error: --strategies: cannot load {name!r}: a 'module:attribute' path needs both parts, such as "
                             "'mine:Mine' (Mine in mine.py)\n")


@pytest.mark.parametrize(("source", "name", "says"), [
    ("import not_installed_anywhere\n", "Mine",
     "{module} ({file}) imports 'not_installed_anywhere', which is not installed where this runs (No module named "
     "'not_installed_anywhere'): install it here, or take that import out of {module}"),
    ("from collections import NoSuch\n", "Mine",
     "importing {module} ({file}) raised ImportError: cannot import name 'NoSuch' from 'collections'"),
    ("class Mine:\n    pass\n\nclass Other:\n    pass\n", "Mien", "{module} ({file}) has no 'Mien'; it has Mine, Other: "
     "check the name after the colon (case counts), or define 'Mien' in {module}\n"),
])
def test_a_module_that_is_found_but_does_not_load_is_not_said_to_be_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, name: str, says: str
) -> None:
    """A module of one's own importing a package not installed said "No module named
    'not_installed_anywhere' (a module of your own is looked for where Python looks and in the
    current folder: run from its folder, set PYTHONPATH, or install it)", as if one's own module were
    not found; a name it does not define said "module 'x' has no attribute 'Mien'" with the same advice."""
    module = f"found_{len(source)}"  # a module of its own for each case: imports are kept
    (tmp_path / f"{module}.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = runner.invoke(app, ["lab", "--strategies", f"even,{module}:{name}", "--tournaments", "10"])
    assert result.exit_code == 2
    expected = says.format(module=module, file=tmp_path / f"{module}.py")
    assert result.stderr.startswith(f"error: --strategies: cannot load '{module}:{name}': {expected}"), result.stderr
    assert "looked for where Python looks" not in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize(("source", "raised", "line"), [
    ("import math\n\nLIMIT = math.pi\nSTEP = LIMTI / 3\n", "NameError: name 'LIMTI' is not defined", 4),
    ("SHARE = 2 / 0\n", "ZeroDivisionError: division by zero", 1),
    ("import json\n\nSETTINGS = json.loads('{}')['flair']\n", "KeyError: 'flair'", 3),
    ("import sys\n\nif True:\n    sys.exit('not today')\n", "SystemExit: not today", 4),
])
def test_a_module_that_raises_as_it_is_imported_names_the_file_line_and_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, raised: str, line: int
) -> None:
    """A module of one's own raising anything but ImportError as it was imported said "'mine:Mine' is not a
    strategy: loading it or calling it with no arguments raised NameError: name 'LIMTI' is not defined; name a
    strategy object, or a class or function that makes one": no file, no line, and advice to name something else."""
    module = f"raises_{len(source)}"
    (tmp_path / f"{module}.py").write_text(source + "\nclass Mine:\n    pass\n")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["lab", "--strategies", f"even,{module}:Mine", "--tournaments", "10"])
    assert result.exit_code == 2
    file = tmp_path / f"{module}.py"
    assert result.stderr == (f"error: --strategies: cannot load '{module}:Mine': importing {module} ({file}) raised {raised} at "
                             f"{file}, line {line}; fix it and run again\n")


def test_a_module_whose_import_raises_in_another_of_ones_own_names_the_line_that_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The line to fix is where the error was raised, in whichever file of one's own that is."""
    (tmp_path / "tables_of_mine.py").write_text("def shares():\n    return [1, 2][5]\n\nSHARES = shares()\n")
    (tmp_path / "uses_tables.py").write_text("from tables_of_mine import SHARES\n\nclass Mine:\n    pass\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = runner.invoke(app, ["lab", "--strategies", "even,uses_tables:Mine", "--tournaments", "10"])
    assert result.exit_code == 2
    assert result.stderr.endswith(f"raised IndexError: list index out of range at {tmp_path / 'tables_of_mine.py'}, "
                                  "line 2; fix it and run again\n"), result.stderr


@pytest.mark.parametrize("option", ["--strategies", "--field"])
def test_a_class_that_raises_as_it_is_made_names_the_file_line_and_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    """Its __init__ raising said "'mine:Mine' is not a strategy ... name a strategy object, or a class or function
    that makes one", though Mine is one: the line that raised is what to fix."""
    module = f"makes_{option.strip('-')}"
    (tmp_path / f"{module}.py").write_text("class Mine:\n    def __init__(self):\n        self.weights = {}['knockout']\n\n"
                                           "    def order(self, view, rng):\n        raise AssertionError\n")
    monkeypatch.chdir(tmp_path)
    args = ["lab", "--strategies", f"even,{module}:Mine" if option == "--strategies" else "even", "--tournaments", "10"]
    result = runner.invoke(app, args if option == "--strategies" else [*args, "--field", f"{module}:Mine"])
    assert result.exit_code == 2
    assert result.stderr == (f"error: {option}: cannot make '{module}:Mine': calling it with no arguments raised KeyError: "
                             f"'knockout' at {tmp_path / module}.py, line 3; fix it and run again\n")


@pytest.mark.parametrize("by", ["path", "entry point"])
def test_a_name_set_to_none_is_said_to_be_none_not_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, by: str) -> None:
    """'Mine = None', left for later, was told "there is no strategy called 'unset:Mine'; choose one of: ...", as
    if the module had no Mine: the name was right, its value is what to fix."""
    module = f"unset_{by.replace(' ', '_')}"
    install_package(tmp_path, f"pkg_{module}", {module: "Mine = None\n"}, {f"{module}-mine": f"{module}:Mine"})
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    name = f"{module}:Mine" if by == "path" else f"{module}-mine"
    how = "" if by == "path" else f", as the entry point '{module}:Mine' names it"
    result = runner.invoke(app, ["lab", "--strategies", f"even,{name}", "--tournaments", "10"])
    assert result.exit_code == 2
    assert result.stderr == (f"error: --strategies: cannot load '{name}': 'Mine' in {module} ({tmp_path / module}.py) is "
                             f"None{how}, not a strategy: set it to a batch strategy (orders(view, rng)) or a bot "
                             "(order(view, rng)), or to a class or function that makes one (docs/strategy.md shows both)\n")


def test_a_class_with_neither_method_says_what_to_give_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It said only that the class was neither a batch strategy nor a bot."""
    (tmp_path / "methodless.py").write_text("class Mine:\n    pass\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = runner.invoke(app, ["lab", "--strategies", "even,methodless:Mine", "--tournaments", "10"])
    assert result.exit_code == 2
    assert result.stderr == ("error: --strategies: 'methodless:Mine' is neither a batch strategy (orders(view, rng)) nor a bot "
                             "(order(view, rng)): give it one of those methods (docs/strategy.md shows both), or name "
                             "the class or object in its module that has one\n")


@pytest.mark.parametrize(("module", "returned", "shown"), [
    ("making_none", "", "None"), ("making_tuple", "return (25, 0)", "a tuple (25, 0)"),
])
def test_a_function_that_makes_no_strategy_is_told_what_it_returned(
    module: str, returned: str, shown: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A factory with a forgotten return was told it was 'neither a batch strategy nor a bot', as if the
    function itself should have had the methods."""
    (tmp_path / f"{module}.py").write_text(f"def make():\n    x = 1\n    {returned or 'del x'}\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = runner.invoke(app, ["lab", "--strategies", f"even,{module}:make", "--tournaments", "10"])
    assert result.exit_code == 2
    assert result.stderr == (f"error: --strategies: '{module}:make' is a function, called to make the strategy, and it "
                             f"returned {shown}, which is neither a batch strategy (orders(view, rng)) nor a bot "
                             "(order(view, rng)): return the strategy from it (a forgotten return gives None), or name "
                             "the class or object that has one of those methods\n")


@pytest.mark.parametrize("option", ["--strategies", "--field"])
@pytest.mark.parametrize(("name", "says"), [
    ("{module}:Nope", "cannot load '{module}:Nope': {module} ({file}) has no 'Nope'; it has HalfAndHalf, "
                      "SaveThenFlair: check the name after the colon (case counts), or define 'Nope' in {module}"),
    ("mine", "cannot load 'mine': the entry point '{module}:Nope' names 'Nope', but {module} ({file}) has no 'Nope'; "
             "it has HalfAndHalf, SaveThenFlair: correct the entry point in the pyproject.toml of the package that "
             "declares it and reinstall that package, or define 'Nope' in {module}"),
    ("Even", "there is no strategy called 'Even' (did you mean 'even'?); choose one of: "),
])
def test_every_strategy_that_cannot_be_loaded_is_refused_under_the_option_that_named_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str, name: str, says: str
) -> None:
    """'pacers:Nope' said "error: cannot load 'pacers:Nope': pacers (...) has no 'Nope'; it defines ...": no
    --strategies or --field, as the strategies that could not be made had, and no word of what to do; an entry
    point naming what its module lacks said AttributeError was raised "at .../importlib/metadata/__init__.py",
    then "fix it and run again"."""
    module = f"pacers_{option.strip('-')}_{len(name)}"  # a module of its own for each case: imports are kept
    install_package(
        tmp_path, module, {module: "class SaveThenFlair:\n    pass\n\nclass HalfAndHalf:\n    pass\n"}, {"mine": f"{module}:Nope"}
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    name = name.format(module=module)
    args = ["lab", "--strategies", f"even,{name}" if option == "--strategies" else "even", "--tournaments", "10"]
    result = runner.invoke(app, args if option == "--strategies" else [*args, "--field", name])
    assert result.exit_code == 2
    expected = says.format(module=module, file=tmp_path / f"{module}.py")
    assert result.stderr.startswith(f"error: {option}: {expected}"), result.stderr
    assert result.stderr.count("\n") == 1 and "importlib" not in result.stderr


@pytest.mark.parametrize(("target", "code", "says"), [
    ("{module}_gone:Mine", None,
     "the entry point '{module}_gone:Mine' of the package pkg_{module} names the module {module}_gone, which is not "
     "installed where this runs (No module named '{module}_gone'): correct the entry point in the pyproject.toml of "
     "pkg_{module} and reinstall it, or install {module}_gone"),
    ("{module}:Mine", "import numpyy\n",
     "{module} ({file}), imported for the entry point '{module}:Mine' of the package pkg_{module}, imports 'numpyy', "
     "which is not installed where this runs (No module named 'numpyy'): install it here, or take that import out "
     "of {module}"),
    ("{module}:Mine", "raise RuntimeError('no weights')\n",
     "importing {module} ({file}) for the entry point '{module}:Mine' of the package pkg_{module} raised "
     "RuntimeError: no weights at {file}, line 1; fix it and run again"),
], ids=["its module missing", "an import missing", "raising"])
def test_an_entry_point_that_fails_to_import_names_the_package_that_declares_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, code: str | None, says: str
) -> None:
    """An entry point whose module is not installed (a typo in it, a module left out of the package) said
    "importing ... raised ModuleNotFoundError: ...; fix it and run again": no word of which of the installed
    packages declares it, nor that the entry point itself is what to correct."""
    module = f"ep_fails_{len(says)}"  # a module of its own for each case: imports are kept
    install_package(tmp_path, f"pkg_{module}", {module: code} if code else {}, {"mine-ep": target.format(module=module)})
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = runner.invoke(app, ["lab", "--strategies", "even,mine-ep", "--tournaments", "10"])
    assert result.exit_code == 2
    expected = says.format(module=module, file=tmp_path / f"{module}.py")
    assert result.stderr == f"error: --strategies: cannot load 'mine-ep': {expected}\n"


@pytest.mark.parametrize("option", ["--strategies", "--field"])
def test_a_strategy_module_with_a_syntax_error_names_the_file_and_line_to_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    """A typo in one's own module read "'mine:Mine' is not a strategy ... name a strategy object, or a
    class or function that makes one": as if the name were wrong, not the file."""
    module = f"typo_{option.strip('-')}"
    (tmp_path / f"{module}.py").write_text("from sevens.bots.strategies import EvenSpread\n\n"
                                           "class Mine(EvenSpread)\n    name = 'mine'\n")
    monkeypatch.chdir(tmp_path)
    names = [f"{module}:Mine", "even"] if option == "--strategies" else ["even"]
    args = ["lab", "--strategies", ",".join(names), "--tournaments", "10"]
    result = runner.invoke(app, args if option == "--strategies" else [*args, "--field", f"{module}:Mine"])
    assert result.exit_code == 2
    assert result.stderr == (f"error: {option}: cannot load '{module}:Mine': {tmp_path / module}.py, line 3 is not valid Python "
                             "(SyntaxError: expected ':'): 'class Mine(EvenSpread)'; fix it and run again\n")


def test_the_table_shows_each_rates_wilson_interval_never_empty_nor_past_0_or_100_percent() -> None:
    """Over 8 tournaments a normal interval would read '0.00 ± 0.00' for a strategy that won
    nothing and reach below 0% for one that won once; the table and JSON give Wilson's interval,
    as '±' where it is symmetric at two decimals and as (low–high) where it is not."""
    args = ["lab", "--strategies", "even,random,group-blitz", "--tournaments", "8", "--teams", "8", "--seed", "3"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    table = " ".join(runner.invoke(app, args, env={"COLUMNS": "250"}).stdout.split())
    for row in data["results"]:
        for key in ("titles", "finals"):
            rate, low, high = row[key]["rate"], row[key]["ci95_low"], row[key]["ci95_high"]
            assert 0 <= low <= rate <= high <= 1 and low < high
            assert (low, high) == pytest.approx(wilson_interval(round(rate * row["entries"]), row["entries"]))
            assert f"{100 * rate:.2f} ({100 * low:.2f}–{100 * high:.2f})" in table
    never = next(row for row in data["results"] if row["titles"]["rate"] == 0)
    assert never["titles"]["ci95_high"] > 0.05


def test_a_mean_over_a_single_entry_has_no_interval_rather_than_plus_or_minus_zero() -> None:
    """Against a field over two tournaments, each of two strategies enters one team: one value
    shows no spread, so its means carry no interval (JSON null, "(1 entry)" in the table), not "± 0"."""
    args = ["lab", "--strategies", "even,random", "--field", "equilibrium", "--tournaments", "2", "--seed", "2"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    table = " ".join(runner.invoke(app, args, env={"COLUMNS": "250"}).stdout.split())
    single = [row for row in data["results"] if row["entries"] == 1]
    field = next(row for row in data["results"] if row["entries"] > 1)
    assert len(single) == 2
    for row in single:
        for key, digits in (("group_points", 2), ("scrum_left", 1)):
            assert row[key]["ci95"] is None
            assert f"{row[key]['mean']:.{digits}f} (1 entry)" in table
    assert field["group_points"]["ci95"] > 0 and field["scrum_left"]["ci95"] > 0
    assert " ± 0.00 " not in table and " ± 0.0 " not in table


def test_a_half_width_too_small_for_the_decimals_shown_gets_more_rather_than_reading_plus_or_minus_zero() -> None:
    """One strategy in every seat of 1,000 tournaments: its SCRUM left read "30.3 ± 0.0", as if
    exact, where the JSON gave a half-width of 0.04 (a run of millions did the same to rates:
    "0.06 ± 0.00"). The table now shows the decimals the interval needs; an exact figure (the
    strategy wins every title, so its rate) reads "(exact)", not ± 0.00."""
    args = ["lab", "--strategies", "even", "--tournaments", "1000", "--teams", "8", "--seed", "4"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    table = " ".join(runner.invoke(app, args, env={"COLUMNS": "250"}).stdout.split())
    row = data["results"][0]
    half = row["scrum_left"]["ci95"]
    assert 0 < half < 0.05  # zero at one decimal
    assert f" {row['scrum_left']['mean']:.2f} ± {half:.2f}" in table, table
    assert f"{half:.2f}" != "0.00" and " ± 0.0 " not in table + " "
    assert row["titles"]["ci95_low"] == row["titles"]["rate"] == row["titles"]["ci95_high"] == 1 / 8
    assert "12.50 (exact)" in table and " ± 0.00" not in table


@pytest.mark.parametrize("tournaments", [3, 40])  # fewer blocks than MIN_BLOCKS, and more
def test_a_lone_strategys_exact_figures_read_exact_in_the_table_json_and_plot(tournaments: int,
                                                                              tmp_path: Path) -> None:
    """One strategy in every seat: its title rate is 1 / teams, its final rate 2 / teams and its
    group points 3 (2 league points a match) whatever the dice. The table read "12.50 ± 0.00" (over
    a few tournaments a Wilson interval around 12.50), as if an estimate that rounded to no width;
    the JSON could not tell an exact 0 from a very narrow interval; the plot drew a cap of width 0."""
    from matplotlib.text import Annotation

    from sevens.lab.plot import ranking_figure
    from sevens.lab.run import run_lab

    args = ["lab", "--strategies", "even", "--tournaments", str(tournaments), "--teams", "8", "--seed", "4"]
    row = json.loads(runner.invoke(app, [*args, "--json"]).stdout)["results"][0]
    table = " ".join(runner.invoke(app, args, env={"COLUMNS": "250"}).stdout.split())
    assert "even 12.50 (exact) 25.00 (exact) 3.00 (exact) " in table, table
    for key, rate, count in (("titles", 1 / 8, tournaments), ("finals", 2 / 8, 2 * tournaments)):
        assert row[key] == {"count": count, "rate": rate, "ci95_low": rate, "ci95_high": rate, "exact": True}
    assert row["group_points"] == {"mean": 3.0, "ci95": 0.0, "exact": True}
    assert row["scrum_left"]["exact"] is False and row["scrum_left"]["ci95"] > 0
    figure = ranking_figure(run_lab(["even"], tournaments, seed=4, teams=8))
    said = [child.get_text() for child in figure.axes[0].get_children() if isinstance(child, Annotation)]
    assert "exact" in said, said


def test_figures_of_strategies_sharing_the_seats_are_not_exact() -> None:
    row = json.loads(runner.invoke(app, ["lab", "--strategies", "even,random", "--tournaments", "40", "--teams", "8",
                                         "--json"]).stdout)["results"][0]
    assert [row[key]["exact"] for key in ("titles", "finals", "group_points", "scrum_left")] == [False] * 4
    assert row["titles"]["ci95_low"] < row["titles"]["rate"] < row["titles"]["ci95_high"]


@pytest.mark.parametrize(("args", "says"), [
    (["--strategies", "even,random", "--field", "equilibrium", "--tournaments", "1"],
     "against a field each tournament seats one team of one strategy, so 2 strategies need at least 2 "
     "tournaments, got 1: run --tournaments 2 or more (a multiple of 32 seats each in every seat equally often)"),
    (["--strategies", ",".join(f"even-flair@{w}" for w in (0.5, 0.6, 0.7, 0.8, 0.9, 1.1, 1.2, 1.3, 1.4)),
      "--teams", "8", "--tournaments", "1"],
     "9 strategies in tournaments of 8 teams need at least 2 tournaments for each to play a team, got 1: the "
     "strategies take the 8 seats in turn, one place further on in each tournament, so the last of them first "
     "plays in tournament 2; run --tournaments 2 or more (a multiple of 9 seats each in every seat equally often)"),
    (["--strategies", ",".join(f"even-flair@{w / 10}" for w in range(1, 21)), "--tournaments", "2"],
     "20 strategies in tournaments of 16 teams need at least 5 tournaments for each to play a team, got 2: the "
     "strategies take the 16 seats in turn, one place further on in each tournament, so the last of them first "
     "plays in tournament 5; run --tournaments 5 or more (a multiple of 20 seats each in every seat equally often)"),
])
def test_a_run_too_short_for_every_strategy_to_play_is_refused_saying_why_and_what_to_type(
    args: list[str], says: str
) -> None:
    """A strategy seated nowhere would get a row of zeros that reads like a result. 20 strategies asked
    for 5 tournaments without a word on why, where 2 have 32 seats."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    run = subprocess.run([sys.executable, "-m", "sevens", "lab", *args], env=env, capture_output=True, text=True,
                         timeout=120, check=False)
    assert run.returncode == 2
    assert run.stderr == f"error: {says}\n"


@pytest.mark.parametrize("tournaments", [1, 2])
def test_the_table_and_the_plot_count_the_tournaments_in_words(tmp_path: Path, tournaments: int) -> None:
    """A run of one tournament was titled "1 tournaments of 8 teams", in the table and in the plot."""
    plot = tmp_path / "ranking.svg"
    result = runner.invoke(app, ["lab", "--strategies", "even,random", "--teams", "8", "--tournaments",
                                 str(tournaments), "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    said = f"{tournaments} tournament{'s' if tournaments > 1 else ''} of 8 teams,"
    assert " ".join(result.stdout.split()[:5]) == said, result.stdout
    # matplotlib draws an SVG's text as paths, each text in a comment before them
    assert f"<!-- {said.rstrip(',')} (seed 0) -->" in plot.read_text()


def test_an_existing_plot_is_refused_before_simulating_and_left_as_it_was(tmp_path: Path) -> None:
    plot = tmp_path / "ranking.png"
    plot.write_bytes(b"an earlier plot")
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--plot", str(plot)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: --plot {plot} already exists and would be replaced; choose another file name, or pass "
        "--overwrite to replace it\n"
    )
    assert "simulating" not in result.output and plot.read_bytes() == b"an earlier plot"


def test_overwrite_replaces_an_existing_plot_whole(tmp_path: Path) -> None:
    plot = tmp_path / "ranking.svg"
    plot.write_bytes(b"an earlier plot")
    args = ["lab", "--strategies", "even,random", "--tournaments", "10", "--teams", "8", "--plot", str(plot), "--overwrite"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert plot.read_text().rstrip().endswith("</svg>")
    assert [p.name for p in tmp_path.iterdir()] == ["ranking.svg"]


def test_a_plot_that_appears_during_the_run_is_not_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sevens.cli.lab import _report

    result = run_lab(["even", "random"], 10, 1, teams=8)
    plot = tmp_path / "x.png"
    plot.write_bytes(b"another run's plot")
    with pytest.raises(typer.Exit):
        _report(result, plot, json_out=True)
    out, err = capsys.readouterr()
    assert json.loads(out)["strategies"] == ["even", "random"]
    assert "already exists" in err and "the JSON is printed" in err
    assert plot.read_bytes() == b"another run's plot" and [p.name for p in tmp_path.iterdir()] == ["x.png"]


def test_overwrite_without_a_plot_is_refused() -> None:
    """--overwrite alone would do nothing: the user most likely forgot --plot (or --csv)."""
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--overwrite"])
    assert result.exit_code == 2
    assert result.stderr == ("error: --overwrite replaces the files --plot and --csv write, and no file is given: add "
                             "--plot FILE or --csv FILE, or drop --overwrite\n")


@pytest.mark.parametrize(("workers", "presses"), [("1", 1), ("2", 1), ("1", 2), ("2", 2)])
def test_ctrl_c_stops_a_long_run_with_one_clear_line_and_no_process_left(workers: str, presses: int) -> None:
    """Ctrl-C in a real terminal: the command used to end (status 130) without a word, its progress
    bar wiped; it says how far the run got and that nothing was printed, and its workers are gone.
    An impatient second press while the run winds down changes nothing (it used to end the run with
    click's bare 'Aborted!', status 1)."""
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--tournaments", "100000000",
               "--workers", workers]
    # Python's stderr as a user's shell has it (buffered, with its lock), and tracebacks of every
    # thread on SIGABRT: a run that does not end says where it waits.
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}, "PYTHONFAULTHANDLER": "1"}
    with in_terminal(command, env=env) as (run, main):
        done = rb"[1-9]\d*/100000000"  # a batch or more is done
        shown = read_until(main, done, 300)
        assert re.search(done, shown), shown.decode(errors="replace")
        workers_seen = psutil.Process(run.pid).children(recursive=True)
        assert len(workers_seen) == (0 if workers == "1" else 2)
        press_ctrl_c(main, presses)
        shown = read_until(main, rb"for a\s+shorter\s+run", 120)
        try:
            assert run.wait(timeout=120) == 130
        except subprocess.TimeoutExpired:
            for process in [psutil.Process(run.pid), *workers_seen]:
                with contextlib.suppress(psutil.NoSuchProcess):
                    process.send_signal(signal.SIGABRT)
            pytest.fail("the run did not end:\n" + (shown + read_until(main, rb"(?!)", 10)).decode(errors="replace"))
    said = " ".join(shown.decode(errors="replace").split())
    # About: the batches still playing count by their share done, not as whole tournaments.
    assert re.search(r"error: interrupted after about [\d,]+ of 100,000,000 tournaments: no table is printed", said)
    assert "Traceback" not in said
    _, alive = psutil.wait_procs(workers_seen, timeout=60)
    assert not alive


def test_on_a_narrow_terminal_the_progress_bar_gives_way_and_its_figures_stay_whole() -> None:
    """At 40 columns the bar kept its width and rich cut the count instead: '400000/40…', the
    total lost. Now only the bar is narrowed."""
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,group-blitz", "--tournaments", "400000",
               "--workers", "1"]
    with in_terminal(command, env={**os.environ, "COLUMNS": "40"}) as (run, main):
        shown = read_until(main, rb"SCRUM left[\s\S]*group-blitz", 300)
        assert run.wait(timeout=60) == 0, shown.decode(errors="replace")
    frames = [frame for frame in re.split(rb"[\r\n]", shown) if b"simulating" in frame]
    assert frames, shown.decode(errors="replace")
    for frame in frames:
        assert "…" not in frame.decode() and re.search(rb"\d+/400000", frame), frame


def test_with_json_a_terminal_is_shown_the_progress_bar_and_stdout_holds_the_json_alone(tmp_path: Path) -> None:
    """--json drew no bar even on a terminal: a long run showed nothing for minutes. The bar is on
    stderr, the terminal here, and stdout, a file, holds the JSON alone."""
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,group-blitz", "--tournaments", "100000",
               "--workers", "1", "--json"]
    out = tmp_path / "out.json"
    with out.open("wb") as stdout, in_terminal(command, stdout=stdout) as (run, main):
        shown = read_until(main, rb"(?!)", 300)  # all it shows, until it ends and the terminal closes
        assert run.wait(timeout=60) == 0, shown.decode(errors="replace")
    frames = [frame for frame in re.split(rb"[\r\n]", shown) if b"simulating" in frame]
    assert frames and any(re.search(rb"\d+/100000", frame) for frame in frames), shown.decode(errors="replace")
    assert json.loads(out.read_text())["tournaments"] == 100000


@pytest.mark.parametrize(("workers", "signum"), [("1", signal.SIGTERM), ("2", signal.SIGTERM), ("2", signal.SIGHUP)])
def test_kill_or_a_closed_terminal_stops_a_run_as_ctrl_c_does_and_no_worker_plays_on(
    workers: str, signum: signal.Signals
) -> None:
    """``kill`` (or ``timeout``) ended the command where it was, status 143 and no word, and its
    two worker processes played on without it, at full speed, for the rest of the run (a hundred
    million tournaments here). SIGHUP, as a closed terminal sends, the same. Both now stop the run as
    Ctrl-C does: one line, the status a shell expects (128 + the signal), no worker left."""
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--tournaments", "100000000",
               "--workers", workers]
    with in_terminal(command, env={**os.environ, "PYTHONFAULTHANDLER": "1"}) as (run, main):
        done = rb"[1-9]\d*/100000000"  # a batch or more is done
        shown = read_until(main, done, 300)
        assert re.search(done, shown), shown.decode(errors="replace")
        workers_seen = psutil.Process(run.pid).children(recursive=True)
        assert len(workers_seen) == (0 if workers == "1" else 2)
        os.kill(run.pid, signum)  # to the run alone, as kill sends it: not to its workers
        shown = read_until(main, rb"for a\s+shorter\s+run", 120)
        assert wait_or_show_where(run, main, 120) == 128 + signum, shown.decode(errors="replace")
    said = " ".join(shown.decode(errors="replace").split())
    why = "kill" if signum == signal.SIGTERM else "the terminal closed"
    assert re.search(rf"error: stopped by {signum.name} \({why}\) after about [\d,]+ of 100,000,000 tournaments: "
                     "no table is printed", said), said
    assert "Traceback" not in said
    _, alive = psutil.wait_procs(workers_seen, timeout=60)
    assert not alive


def test_more_workers_than_cores_are_cut_to_the_cores_with_a_note(tmp_path: Path) -> None:
    """--workers 16 on 2 cores started 16 processes, which took turns on the 2 cores: 2.7 times as
    long as 2 workers, and 1.7 GB of memory, for the same table."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    asked = cores + 2
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--teams", "8", "--tournaments",
               str(2000 * asked * 4), "--workers", str(asked), "--json"]
    with subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as run:
        most = 0
        while run.poll() is None:  # the pool starts its processes at once, and they stay until the end
            with contextlib.suppress(psutil.NoSuchProcess):
                most = max(most, len(psutil.Process(run.pid).children(recursive=True)))
            time.sleep(0.05)  # not to take a core from the run
        out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    assert err.decode() == (f"note: --workers {asked} is more than the {cores} cores this run may use: playing with "
                            f"{cores} (more workers would only take turns on the same cores, each with its own memory, "
                            "for the same results)\n")
    assert most == (cores if cores > 1 else 0)  # one worker plays in the run's own process
    assert json.loads(out)["tournaments"] == 2000 * asked * 4


def test_more_workers_than_batches_are_cut_to_the_batches_with_a_note(tmp_path: Path) -> None:
    """--workers 2 for a run of one batch played in one process and said nothing: the second worker
    was quietly dropped. A batch is not split (its dice are its own, from the seed), so the note
    says so, and the results are those of one worker."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--teams", "8", "--tournaments",
               "300", "--seed", "5", "--json"]
    asked = subprocess.run([*command, "--workers", "2"], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=600, check=False)
    assert asked.returncode == 0, asked.stderr
    assert asked.stderr == ("note: --workers 2 is more than the 1 batch of up to 2,000 tournaments this run has: "
                            "playing with 1 (a batch plays in one worker, and is not split, since each has dice of its "
                            "own from the seed: that keeps the results the same for any number of workers)\n")
    one = subprocess.run([*command, "--workers", "1"], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=600, check=False)
    assert one.stderr == "" and json.loads(asked.stdout) == json.loads(one.stdout)


PRESSES_CTRL_C = """
import os, signal
import numpy as np
from sevens.lab.strategies import paced_total, split_orders


class Presser:
    \"\"\"Even pacing, pressing Ctrl-C (SIGINT to its own process) at every decision.\"\"\"

    def orders(self, view, rng):
        os.kill(os.getpid(), signal.SIGINT)
        return split_orders(paced_total(view.scrum, view.turns_left, view.group_matches_left), np.ones(view.size), view.scrum)
"""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_run_started_with_ctrl_c_ignored_keeps_ignoring_it(tmp_path: Path, workers: str) -> None:
    """Started with Ctrl-C ignored (in the background of a script, where the key is meant for the job
    in the foreground), the run set its own handler and stopped at it, status 130, where its workers
    went on ignoring it. It now plays to the end, as they do; here with presses while it plays. Two
    batches (2,001 tournaments), so that --workers 2 has two workers playing, not a note."""
    (tmp_path / "presser.py").write_text(PRESSES_CTRL_C)
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
            f"sys.argv = ['sevens', 'lab', '--strategies', 'even,presser:Presser', '--tournaments', '2001', '--teams', "
            f"'8', '--workers', {workers!r}, '--json']\n"
            "from sevens.cli.main import main; main()\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=600, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["tournaments"] == 2001
    assert "note:" not in run.stderr, run.stderr


QUITS = """
from sevens.lab.strategies import EvenPacing


class Quits(EvenPacing):
    \"\"\"Even pacing until its second turn, where its code raises KeyboardInterrupt itself.\"\"\"

    def orders(self, view, rng):
        if view.turn >= 2:
            raise KeyboardInterrupt("gave up")
        return super().orders(view, rng)
"""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_strategy_raising_keyboard_interrupt_is_told_from_ctrl_c(tmp_path: Path, workers: str) -> None:
    """A strategy whose code raised KeyboardInterrupt was reported as 'interrupted', status 130, as
    if Ctrl-C had been pressed. The run's handler knows no signal came: it is said to be the
    strategy's, status 1. A strategy that sends the run's own process SIGINT is still Ctrl-C."""
    (tmp_path / "quits.py").write_text(QUITS)
    (tmp_path / "presser.py").write_text(PRESSES_CTRL_C)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    base = [sys.executable, "-m", "sevens", "lab", "--tournaments", "4000", "--teams", "8", "--workers", workers]
    quits = subprocess.run([*base, "--strategies", "even,quits:Quits"], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=600, check=False)
    assert quits.returncode == 1, quits.stderr
    assert quits.stderr.startswith("error: the run stopped: KeyboardInterrupt: gave up, raised while quits:Quits played, "
                                   "though the run was sent no Ctrl-C or other signal"), quits.stderr
    if workers == "1":  # in a worker of its own, the SIGINT goes to that worker alone, not to the run
        pressed = subprocess.run([*base, "--strategies", "even,presser:Presser"], cwd=tmp_path, env=env,
                                 capture_output=True, text=True, timeout=600, check=False)
        assert pressed.returncode == 130, pressed.stderr
        assert pressed.stderr.startswith("error: interrupted after about "), pressed.stderr


def test_long_strategy_names_are_shown_whole_in_a_narrow_table() -> None:
    """Two module paths cut to the same first characters ('sevens.lab.str…') could not be told apart."""
    names = ["sevens.lab.strategies:RandomPacing", "sevens.lab.strategies:KnockoutSaverPacing"]
    args = ["lab", "--strategies", ",".join(names), "--tournaments", "8", "--teams", "8"]
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    body = result.stdout.split("─\n", 1)[1].splitlines()  # below the header's rule
    first_column = "".join(line.split()[0] for line in body if line and not line.startswith(" "))
    assert all(name in first_column for name in names), result.stdout
    assert "…" not in result.stdout


FOUR = ["lab", "--strategies", "even,odds-aware,equilibrium,random", "--tournaments", "2000", "--seed", "1"]


@pytest.fixture(scope="module")
def four_strategies() -> dict[str, Any]:
    """The JSON of a run whose intervals are asymmetric at two decimals, (low–high), the widest cells."""
    data: dict[str, Any] = json.loads(runner.invoke(app, [*FOUR, "--json"]).stdout)
    return data


def _figures(row: dict[str, Any]) -> list[str]:
    """A strategy's figures as the table writes them."""
    percent = [f"{100 * row[key][end]:.2f}" for key in ("titles", "finals") for end in ("rate", "ci95_low", "ci95_high")]
    means = [f"{row['group_points'][k]:.2f}" for k in ("mean", "ci95")] + [f"{row['scrum_left'][k]:.1f}"
                                                                          for k in ("mean", "ci95")]
    return percent + means


def test_at_80_columns_each_strategy_is_one_line_with_all_its_figures(four_strategies: dict[str, Any]) -> None:
    """The default terminal's 80 columns wrapped each interval of "finals %" over two lines, so that
    every strategy took two (and a figure's halves sat on different lines)."""
    result = runner.invoke(app, FOUR, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    for row in four_strategies["results"]:
        mine = [line for line in lines if line.startswith(row["strategy"] + " ")]
        assert len(mine) == 1, result.stdout
        assert _in_order(_figures(row), mine[0]), result.stdout
    body = result.stdout.split("─\n", 1)[1].strip().splitlines()
    assert len(body) == 4, result.stdout


def _in_order(figures: list[str], text: str) -> bool:
    """Whether ``figures`` occur in ``text`` in that order, each a whole number of its own."""
    at = 0
    for figure in figures:
        found = re.search(rf"(?<![\d.]){re.escape(figure)}(?![\d.])", text[at:])
        if found is None:
            return False
        at += found.end()
    return True


@pytest.mark.parametrize("columns", [60, 120])
def test_at_60_and_120_columns_every_figure_is_shown_whole(four_strategies: dict[str, Any], columns: int) -> None:
    """At 60 columns the intervals were cut short ("(8.22–9.…"): figures lost. Narrower than one line
    needs, each strategy takes two, its finals under its titles and its SCRUM left under its points."""
    result = runner.invoke(app, FOUR, env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout and max(len(line.rstrip()) for line in result.stdout.splitlines()) <= columns
    for row in four_strategies["results"]:
        at = result.stdout.index(row["strategy"] + " ")
        block = " ".join(result.stdout[at:].splitlines()[:1 if columns == 120 else 2])
        assert _in_order([_figures(row)[i] for i in ((0, 1, 2, 6, 7) if columns == 60 else range(10))], block), (
            result.stdout)
        if columns == 60:
            assert _in_order([_figures(row)[i] for i in (3, 4, 5, 8, 9)], block), result.stdout




CHATTY = '''
import numpy as np
from sevens.lab.strategies import paced_total, split_orders


class Chatty:
    """Says what it decides, a word at a time, as print() with several arguments writes."""

    name = "chatty"

    def orders(self, view, rng):
        for _ in range(200):
            print("deciding", "turn", view.turn, "for", view.size, "teams")
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left)
        return split_orders(total, np.ones(view.size), view.scrum)
'''


def test_what_strategies_print_in_two_workers_comes_out_in_whole_lines(tmp_path: Path) -> None:
    """With Python unbuffered, each word a strategy printed was a write of its own, so two workers'
    lines came out mixed mid-line ('deciding deciding turn turn 1 1 ...')."""
    (tmp_path / "chatty.py").write_text(CHATTY)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"), "PYTHONUNBUFFERED": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "sevens", "lab", "--strategies", "even,chatty:Chatty", "--tournaments", "8000",
         "--teams", "8", "--seed", "1", "--workers", "2", "--json"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["tournaments"] == 8000
    printed = [line for line in run.stderr.splitlines() if "deciding" in line or "teams" in line]
    assert printed, run.stderr
    mixed = [line for line in printed if not re.fullmatch(r"deciding turn \d+ for \d+ teams", line)]
    assert not mixed, mixed[:5]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_what_a_strategy_prints_goes_to_stderr_and_the_json_stays_json(workers: str, tmp_path: Path) -> None:
    """A strategy's print() went to stdout, into the JSON, which then could not be read."""
    (tmp_path / "printer.py").write_text(PRINTER)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    run = subprocess.run(
        [sys.executable, "-m", "sevens", "lab", "--strategies", "even,printer:Printer", "--tournaments", "2100",
         "--teams", "8", "--seed", "1", "--workers", workers, "--json"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["tournaments"] == 2100
    assert run.stderr.count("deciding turn 1") == 3  # two batches, the first asked twice
    assert "note:" not in run.stderr, run.stderr  # two batches: --workers 2 plays with two


@pytest.mark.parametrize(("workers", "tournaments"), [("1", 20), ("2", 2001), ("2", 20)])
def test_a_stderr_that_cannot_be_written_loses_no_results(workers: str, tournaments: int, tmp_path: Path) -> None:
    """With stderr on a device that takes nothing (/dev/full), the run ended with status 1 before it
    played, and stdout had nothing: the note shown while the simulator loads wrote to stderr even
    where no terminal would show it. With two batches (2,001 tournaments) two workers play; with one,
    --workers 2 is cut to 1 with a note that cannot be written either."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    with open("/dev/full", "wb") as full:
        run = subprocess.run(
            [sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--tournaments", str(tournaments),
             "--teams", "8", "--workers", workers, "--json"],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=full, text=True, timeout=600, check=False,
        )
    assert run.returncode == 0
    assert json.loads(run.stdout)["tournaments"] == tournaments


LOUD = '''
print("loading loud")
from sevens.bots.strategies import EvenSpread


class Loud(EvenSpread):
    name = "loud"

    def __init__(self):
        print("making loud")
        super().__init__()
'''


@pytest.mark.parametrize("workers", ["1", "2"])
def test_what_a_strategy_prints_as_it_loads_goes_to_stderr_and_the_json_stays_json(workers: str, tmp_path: Path) -> None:
    """The command loads each strategy of one's own to check it before the run: what its module
    printed as it was imported, and what it printed as it was made, went to stdout, before the JSON.
    Two batches (2,001 tournaments), so that --workers 2 has two workers playing, not a note."""
    (tmp_path / "loud.py").write_text(LOUD)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    run = subprocess.run(
        [sys.executable, "-m", "sevens", "lab", "--strategies", "even,loud:Loud", "--tournaments", "2001",
         "--teams", "8", "--workers", workers, "--json"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["tournaments"] == 2001
    assert "loading loud" in run.stderr and "making loud" in run.stderr
    assert "note:" not in run.stderr, run.stderr


COUNTED = '''
import os

with open(os.environ["LOADS_FILE"], "a") as loads:
    loads.write(f"{os.getpid()}\\n")
print("loading counted")
{rest}
'''
"""Writes its process's pid to $LOADS_FILE and prints as it is imported, then ``rest``."""


@pytest.mark.parametrize(("rest", "status"), [
    ("from sevens.lab.strategies import EvenPacing as Counted", 0),
    ("SHARE = 2 / 0", 2),
    ("from sevens.lab.strategies import EvenPacing\n\nclass Counted(EvenPacing):\n"
     "    def __init__(self):\n        print('making counted')\n        raise ValueError('no weights given')", 2),
])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_module_of_ones_own_is_imported_once_in_the_runs_process(
    tmp_path: Path, rest: str, status: int, workers: str
) -> None:
    """A module that raised as it was imported was run twice before the run was refused: once as the
    command checked what the name makes, and again as it checked the run, so what it printed or
    counted at its top was printed or counted twice. A class raising ValueError as it was made was
    made twice, and then said only "error: no weights given", naming neither it nor the line.
    Forked workers import nothing again (they start as copies of the command's process)."""
    (tmp_path / "counted.py").write_text(COUNTED.replace("{rest}", rest))
    loads = tmp_path / "loads.txt"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"), "LOADS_FILE": str(loads)}
    run = subprocess.run(
        [sys.executable, "-m", "sevens", "lab", "--strategies", "even,counted:Counted", "--tournaments", "4100",
         "--teams", "8", "--workers", workers],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    assert run.returncode == status, run.stderr
    assert run.stderr.count("loading counted") == 1, run.stderr
    assert len(loads.read_text().splitlines()) == 1, loads.read_text()
    assert "note:" not in run.stderr, run.stderr  # three batches: --workers 2 plays with two
    if "making" in rest:
        assert run.stderr.count("making counted") == 1, run.stderr
        assert run.stderr.endswith("error: --strategies: cannot make 'counted:Counted': calling it with no arguments "
                                   f"raised ValueError: no weights given at {tmp_path / 'counted.py'}, line 12; "
                                   "fix it and run again\n"), run.stderr


RAISES = '''
from sevens.bots.strategies import EvenSpread


class Raises(EvenSpread):
    name = "raises"

    def order(self, view, rng):
        if view.turn >= 2:
            raise RuntimeError("no idea what to do")
        return super().order(view, rng)
'''


@pytest.mark.parametrize("workers", ["1", "2"])
def test_on_a_stderr_that_is_no_terminal_the_error_is_all_there_is_no_empty_line_before_it(
    workers: str, tmp_path: Path
) -> None:
    """rich's progress bar, which draws nothing where stderr is no terminal, wrote an empty line there as
    it stopped: every run's stderr began with one (a log of runs had a blank line a run), and every
    error after the bar had started was '\\nerror: ...'."""
    (tmp_path / "raising.py").write_text(RAISES)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    # Two batches, so that two workers play: more than a run has batches are cut, with a note.
    base = [sys.executable, "-m", "sevens", "lab", "--tournaments", "4000", "--teams", "8", "--workers", workers]
    failed = subprocess.run([*base, "--strategies", "even,raising:Raises"], cwd=tmp_path, env=env,
                            capture_output=True, timeout=600, check=False)
    assert failed.returncode == 1
    assert failed.stderr.startswith(b"error: the run stopped: strategy 'raising:Raises'"), failed.stderr
    assert failed.stderr.count(b"\n") == 1 and failed.stderr.endswith(b"\n"), failed.stderr
    done = subprocess.run([*base, "--strategies", "even,random"], cwd=tmp_path, env=env, capture_output=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert b"4,000 tournaments of 8 teams" in done.stdout


def test_at_40_columns_each_name_and_interval_is_whole_with_the_figures_under_the_name() -> None:
    """At 40 columns 'field-reader@1' was shown as 'field-reader' over '@1', 'equilibrium@1.1' as
    'equilibrium@' over '1.1', and an interval as '(10.78–60.32' over ')'. Each strategy's name now
    has a line of its own, its titles and group points on the next, its finals and SCRUM left under
    those."""
    args = ["lab", "--strategies", "field-reader@1,equilibrium@1.1,group-blitz", "--tournaments", "4", "--teams", "8",
            "--seed", "3"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    result = runner.invoke(app, args, env={"COLUMNS": "40"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "…" not in result.stdout and max(len(line.rstrip()) for line in lines) <= 40
    for row in data["results"]:
        at = [line.strip() for line in lines].index(row["strategy"])
        figures = _figures(row)
        assert _in_order([figures[i] for i in (0, 1, 2, 6, 7)], lines[at + 1]), result.stdout
        assert _in_order([figures[i] for i in (3, 4, 5, 8, 9)], lines[at + 2]), result.stdout


def test_at_30_columns_each_figure_stays_with_its_interval_on_a_line_of_its_own() -> None:
    """At 30 columns a pair of figures under the name did not fit, and the table broke a figure
    from its interval ("2.78 ±" over "0.04"). Each figure now has a line of its own, in the order
    of the headers: titles, finals, group points, SCRUM left."""
    args = ["lab", "--strategies", "field-reader@1,equilibrium@1.1,group-blitz", "--tournaments", "4", "--teams", "8",
            "--seed", "3"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    result = runner.invoke(app, args, env={"COLUMNS": "30"})
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert "…" not in result.stdout and max(len(line) for line in result.stdout.splitlines()) <= 30
    body = [line.strip() for line in result.stdout.split("─\n", 1)[1].splitlines()]  # below the header's rule
    assert not [line for line in body if line.endswith("±") or line.startswith("±")], result.stdout
    for row in data["results"]:
        at = lines.index(row["strategy"])
        f = _figures(row)
        whole = [f"{f[0]} ({f[1]}–{f[2]})", f"{f[3]} ({f[4]}–{f[5]})", f"{f[6]} ± {f[7]}", f"{f[8]} ± {f[9]}"]
        assert lines[at + 1:at + 5] == whole, result.stdout


PACE_NOTE = re.compile(r"note: (now )?about .+ to go at this pace \(")


def _in_session(leader: int) -> list[psutil.Process]:
    """The processes left of the session ``leader`` started (a run started with start_new_session)."""
    left = []
    for process in psutil.process_iter():
        with contextlib.suppress(psutil.Error, ProcessLookupError):
            if os.getsid(process.pid) == leader and process.status() != psutil.STATUS_ZOMBIE:
                left.append(process)
    return left


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_batch_that_fails_stops_a_long_run_at_once_in_one_line_naming_the_strategy_turn_and_batch(
    workers: str, tmp_path: Path
) -> None:
    """A strategy fails in one batch while the run's other batches play a slow strategy's decisions.
    With workers, the run used to wait for the batches already playing before it said so: minutes
    here, where each decision takes 10 ms once a batch has failed. It stops them now, leaves no
    worker, and says in which batch the fault came, for a shorter run that plays it again."""
    (tmp_path / "fails_once.py").write_text(FAILS_ONCE)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"),
           "FAILS_ONCE_FLAG": str(tmp_path / "failed"), "FAILS_ONCE_THINKS": "0.01"}
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,fails_once:FailsOnce", "--teams", "8",
               "--tournaments", "2000000", "--workers", workers]
    with subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          start_new_session=True) as run:
        try:
            out, err = run.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            pytest.fail("a run with a failed batch was still going after 120 s")
    said = err.decode()
    # A run this long says how long it has to go once its first batches are timed: before the fault when
    # they came slowly (numba compiling the lab in a fresh checkout, a loaded machine).
    said = "".join(line for line in said.splitlines(keepends=True) if not PACE_NOTE.match(line))
    assert run.returncode == 1, said
    assert out == b""
    assert said.count("\n") == 1, said  # one line, no traceback
    assert said.startswith("error: the run stopped: strategy 'fails_once:FailsOnce' (named 'fails-once') raised "
                           "RuntimeError: no plan for turn 3 at "), said
    assert "in turn 3 (group round 3)" in said
    assert re.search(r"in the batch of tournaments ([\d,]+) to ([\d,]+): --tournaments \d+ with the same seed plays "
                     r"it again\); no table is printed$", said.strip()), said
    assert not _in_session(run.pid)  # no worker left behind


def test_kill_stops_the_batches_playing_a_slow_strategy_at_once_and_leaves_no_worker(tmp_path: Path) -> None:
    """``kill`` reaches the run alone, not its workers: the run tells them to stop the batches they
    play. Left to finish, two batches of a strategy taking 10 ms a decision would take minutes."""
    (tmp_path / "fails_once.py").write_text(FAILS_ONCE)
    (tmp_path / "failed").touch()  # so it never fails, only thinks
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"),
           "FAILS_ONCE_FLAG": str(tmp_path / "failed"), "FAILS_ONCE_THINKS": "0.01"}
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,fails_once:FailsOnce", "--teams", "8",
               "--tournaments", "2000000", "--workers", "2"]
    with subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          start_new_session=True) as run:
        deadline = time.monotonic() + 120
        while len(psutil.Process(run.pid).children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(2)  # the workers have their batches
        os.kill(run.pid, signal.SIGTERM)
        try:
            out, err = run.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            pytest.fail("a run killed while its workers played a slow strategy was still going after 20 s")
    said = err.decode()
    assert run.returncode == 128 + signal.SIGTERM, said
    assert out == b""
    assert said.startswith("error: stopped by SIGTERM (kill) after about "), said
    assert not _in_session(run.pid)  # no worker left behind


ENDS_ITS_PROCESS = """
import os
import numpy as np


class Ends:
    \"\"\"Ends the process it plays in, with no error: as a crash in compiled code, or the system's
    out-of-memory killer, would.\"\"\"

    def orders(self, view, rng):
        os._exit(1)
"""


def test_a_worker_that_ends_abruptly_is_said_in_one_line_with_the_likely_causes(tmp_path: Path) -> None:
    """A worker process that ended without a word was said as "BrokenProcessPool: A process in the
    process pool was terminated abruptly while the future was running or pending., raised while
    ends:Ends played": neither what that means nor what to look for."""
    if available_cores() < 2:
        pytest.skip("two workers need two cores here (with one, the strategy ends the run's own process)")
    (tmp_path / "ends.py").write_text(ENDS_ITS_PROCESS)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,ends:Ends", "--teams", "8",
               "--tournaments", "4000", "--workers", "2"]
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 1, run.stderr
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1, run.stderr
    assert run.stderr.startswith("error: the run stopped after about "), run.stderr
    assert ("of 4,000 tournaments: a worker process ended abruptly while ends:Ends played, with no error to report; "
            "a strategy that ends its own process (os._exit, a signal, a crash in compiled code) does this, and so "
            "does the system stopping a worker short of memory") in run.stderr
    assert "BrokenProcessPool" not in run.stderr


@pytest.mark.parametrize("option", ["--strategies", "--field"])
def test_an_entry_point_under_a_built_ins_name_is_said_to_be_left_out_and_how_to_play_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    """A package registering its own 'equilibrium' had the built-in played in its place without a word:
    its author read the built-in's figures as their own strategy's."""
    module = f"own_equilibrium_{option.strip('-')}"  # a module of its own for each case: imports are kept
    source = ("import numpy as np\n\nclass Mine:\n    def orders(self, view, rng):\n"
              "        return np.zeros(view.size, dtype=np.int64), np.zeros(view.size, dtype=np.int64)\n")
    install_package(tmp_path, f"pkg_{module}", {module: source}, {"equilibrium": f"{module}:Mine"})
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["lab", "--strategies", "even", "--tournaments", "10", "--json"]
    result = runner.invoke(app, [*args, "--field", "equilibrium"] if option == "--field" else
                           ["lab", "--strategies", "even,equilibrium", "--tournaments", "10", "--json"])
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        f"note: {option}: the package pkg_{module} registers a strategy called 'equilibrium', which is a built-in's "
        f"name: the built-in equilibrium is played; to play the package's, name it by its path, {module}:Mine, or "
        "rename its entry point in that package's pyproject.toml\n"
    )
    assert json.loads(result.stdout)["tournaments"] == 10


@pytest.mark.parametrize("teams", ["12", "0", "32"])
def test_a_number_of_teams_r6_does_not_allow_is_told_the_two_it_does(teams: str) -> None:
    """'--teams 12' said "R6: a tournament has 8 or 16 teams, not 12" and no word of what to write."""
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--teams", teams])
    assert result.exit_code == 2
    assert result.stderr == (f"error: R6: a tournament has 8 or 16 teams, not {teams}; use --teams 8 or --teams 16 "
                             "(16 if left out)\n")


@pytest.mark.parametrize("option", ["--strategies", "--field"])
def test_a_module_named_without_its_strategy_is_told_to_name_the_strategy_in_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    """'--strategies even,pacers', the pacers.py beside it named without ':SaveThenFlair', was told only
    that there is no strategy called 'pacers', with the built-ins' names."""
    module = f"my_pacers_{option.strip('-')}"
    (tmp_path / f"{module}.py").write_text("class SaveThenFlair:\n    pass\n")
    monkeypatch.chdir(tmp_path)
    args = ["lab", "--strategies", f"even,{module}" if option == "--strategies" else "even", "--tournaments", "10"]
    result = runner.invoke(app, args if option == "--strategies" else [*args, "--field", module])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {option}: there is no strategy called '{module}'; "), result.stderr
    assert result.stderr.endswith(f"or give a 'module:attribute' path ('{module}' is a module here: name the strategy "
                                  f"in it, as '{module}:NAME'), or register a name of your own as an entry point in "
                                  "the group 'sevens.strategies' (docs/strategy.md, Writing your own strategy)\n"), \
        result.stderr
    assert "is a module" not in runner.invoke(app, ["lab", "--strategies", "even,json"]).stderr  # Python's own


SLOW_BOT = """
import time
from sevens.rules import Order


class Slow:
    \"\"\"A one-decision bot that thinks for a second over each order.\"\"\"

    def order(self, view, rng):
        time.sleep(1)
        return Order(force=0, flair=0)
"""


def test_a_run_of_one_tournament_stopped_is_not_told_to_run_fewer_but_that_a_strategy_is_slow(tmp_path: Path) -> None:
    """A run of one tournament held up by a slow bot, stopped, was told to "run again, with a smaller
    --tournaments for a shorter run": there is none shorter."""
    (tmp_path / "slow.py").write_text(SLOW_BOT)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,slow:Slow", "--teams", "8",
               "--tournaments", "1", "--workers", "1"]
    with subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          start_new_session=True) as run:
        time.sleep(8)  # loaded, and playing (each turn asks 4 teams, a second each: the run takes half a minute)
        os.kill(run.pid, signal.SIGTERM)
        try:
            out, err = run.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            pytest.fail("a run stopped while a slow bot played was still going after 30 s")
    said = err.decode()
    assert run.returncode == 128 + signal.SIGTERM, said
    assert out == b""
    assert said.startswith("error: stopped by SIGTERM (kill) after about 0 of 1 tournament: "), said
    assert said.rstrip().endswith(
        "a run of one tournament is as short as a run gets, so one that takes this long has a strategy slow to decide: "
        "a one-decision bot (order(view, rng)) is asked once per team and turn, far slower than a batch strategy "
        "(docs/strategy.md), and a strategy of your own is asked what its code takes to answer"), said
    assert "smaller --tournaments" not in said


@pytest.mark.parametrize(("typed", "says"), [
    ("even,even-flar@1.5", "--strategies: 'even-flar@1.5': only even, even-flair, even-force, odds-aware, equilibrium, "
     "field-reader take a knockout weight ('even-flair@1.5'), not 'even-flar' (did you mean 'even-flair@1.5'?)"),
    ("Equilibrium@1.1", "--strategies: 'Equilibrium@1.1': only even, even-flair, even-force, odds-aware, equilibrium, "
     "field-reader take a knockout weight ('even-flair@1.5'), not 'Equilibrium' (did you mean 'equilibrium@1.1'?)"),
    ("even,even-flair@1,5", "--strategies: 'even-flair@1,5' reads as 'even-flair@1' and a strategy called '5', as "
     "commas part the names; write a knockout weight with a point: even-flair@1.5"),
])
def test_a_weighted_name_mistyped_or_with_a_decimal_comma_is_told_what_was_meant(typed: str, says: str) -> None:
    """'even-flar@1.5' was told which names take a weight but not which was meant, as 'even-flar' alone is;
    'even-flair@1,5' (a decimal comma) was told "there is no strategy called '5'"."""
    result = runner.invoke(app, ["lab", "--strategies", typed, "--tournaments", "10"])
    assert result.exit_code == 2
    assert result.stderr == f"error: {says}\n"


def test_workers_beside_dask_are_refused_at_once_rather_than_dropped() -> None:
    """'--workers 3 --dask ADDRESS' played on the cluster's workers and dropped --workers without a word
    (here, after waiting 10 s for a scheduler that was never there)."""
    started = time.monotonic()
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--workers", "3",
                                 "--dask", "tcp://127.0.0.1:1"])
    assert result.exit_code == 2
    assert result.stderr == ("error: --workers 3 is for a run on this machine, and with --dask the cluster's workers "
                             "play (as many as were started with dask worker ADDRESS): drop --workers, or --dask to "
                             "run here\n")
    assert time.monotonic() - started < 5


def test_strategy_and_plot_names_holding_markup_are_printed_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """rich read '[/]' in a strategy's name (a module's attribute, or a package's entry point, may be
    called anything) and in --plot's file name as markup: MarkupError, a traceback where the table
    and 'plot written to' should be. Both are printed as given, --field's name in the title too."""
    (tmp_path / "marked.py").write_text(
        "from sevens.bots.strategies import EvenSpread\n\nglobals()['x[/]'] = EvenSpread\nglobals()['[bold]y'] = EvenSpread\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = runner.invoke(app, ["lab", "--strategies", "even,marked:[bold]y", "--field", "marked:x[/]",
                                 "--tournaments", "16", "--teams", "8", "--workers", "1", "--plot", "[red]r[b].svg"],
                           env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "against a field of marked:x[/]" in result.stdout
    assert any(line.startswith("marked:[bold]y ") for line in result.stdout.splitlines()), result.stdout
    assert "plot written to [red]r[b].svg" in result.stdout and (tmp_path / "[red]r[b].svg").stat().st_size > 0


def test_a_strategy_named_in_a_script_the_plots_font_lacks_is_said_once_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A registered strategy named in Linear B (a script DejaVu Sans, matplotlib's font, lacks) came
    out as a box in the plot and matplotlib's UserWarning, naming a line of plot.py and the character
    by its decimal number, once for each drawing; now one note says which character, in which name,
    and that the table and the JSON give it whole."""
    name = "pacer-\U00010000"  # LINEAR B SYLLABLE B008 A
    install_package(tmp_path, "pkg_linear_b", {"linear_b": "from sevens.bots import get_strategy\nMine = get_strategy('even')\n"},
                    {name: "linear_b:Mine"})
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = runner.invoke(app, ["lab", "--strategies", f"even,{name}", "--tournaments", "10", "--plot", "p.png"])
    assert result.exit_code == 0, result.output
    assert name in result.stdout and (tmp_path / "p.png").exists()
    assert "UserWarning" not in result.stderr and "plot.py" not in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(
        f"note: --plot: the plot's font (DejaVu Sans) has no \U00010000 (U+10000), in the name {name!r}: the plot "
        "shows a box for each; the table and --json give the names whole"
    ), result.stderr


NOTE_OF_PACE = re.compile(r"note: about (?:(\d+) h )?(\d+) min to go at this pace \(([\d,]+) tournaments a second\); "
                          r"Ctrl-C stops the run")


def test_a_long_run_says_early_how_long_it_will_take_on_stderr_and_the_estimate_holds(tmp_path: Path) -> None:
    """sevens lab --tournaments 100000000 started without a word of how long it would take: a log (no
    terminal, no bar) showed nothing for the hours it ran. A few seconds into the play a note on stderr
    says how long the rest will take at the pace so far; stdout holds the JSON alone. The pace it gives
    is the run's: the tournaments played by the Ctrl-C a few seconds later agree with it."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"), "PYTHONUNBUFFERED": "1"}
    run = subprocess.Popen([sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--tournaments",
                            "100000000", "--json"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        assert run.stderr is not None and run.stdout is not None
        # Waits for it: compiling, if the code changed, takes a minute or two. A run that never says
        # it is stopped, and its error is the line read.
        timer = threading.Timer(240, run.send_signal, (signal.SIGINT,))
        timer.start()
        line = run.stderr.readline()
        timer.cancel()
        noted = time.monotonic()
        found = NOTE_OF_PACE.fullmatch(line.rstrip("\n"))
        assert found, line
        hours, minutes, rate = int(found[1] or 0), int(found[2]), int(found[3].replace(",", ""))
        # What remains, at the pace said: a hundred million less a few seconds' worth.
        assert abs(60 * (60 * hours + minutes) - (100_000_000 / rate)) <= 60 + 30, line
        time.sleep(5)
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    stopped = time.monotonic()
    assert run.returncode == 130 and out == "", err
    played = int(re.search(r"interrupted after about ([\d,]+) of", err)[1].replace(",", ""))  # type: ignore[index]
    # Played from the start to Ctrl-C, against the pace said over the seconds since the note: the
    # machine is shared and busy, so the pace is held to a factor of three either way, not to a %.
    assert rate * (stopped - noted) / 3 <= played <= rate * (stopped - noted + 60) * 3, (line, err)


NOTE_OF_NEW_PACE = re.compile(r"note: now about (?:(\d+) h )?(\d+) min to go at this pace \(([\d,]+) tournaments a second, "
                              r"where it was ([\d,]+)\); Ctrl-C stops the run")


def test_a_run_that_slows_down_a_lot_says_the_new_time_to_go_once(tmp_path: Path) -> None:
    """The note of how long a run will take was said once, from its first seconds: a run slowed by
    other work on the machine kept a time to go that no longer held. Held to a third of its speed
    after the note (stopped 2 s in every 3), it says once more how long the rest will take, at the
    pace it has now, and what the pace was."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"), "PYTHONUNBUFFERED": "1"}
    run = subprocess.Popen([sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--tournaments",
                            "100000000", "--workers", "1", "--json"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    try:
        assert run.stderr is not None
        errors = run.stderr

        def read() -> None:  # a line at a time, as said: the run is stopped now and then
            for line in errors:
                lines.append(line)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        _until_lines(lines, 1, 240)  # compiling, if the code changed, takes a minute or two
        first = NOTE_OF_PACE.fullmatch(lines[0].rstrip("\n"))
        assert first, lines
        slowed = time.monotonic()
        while len(lines) < 2 and time.monotonic() - slowed < 150:
            run.send_signal(signal.SIGSTOP)
            time.sleep(2)
            run.send_signal(signal.SIGCONT)
            time.sleep(1)
        assert len(lines) == 2, lines
        run.send_signal(signal.SIGINT)
        assert run.stdout is not None
        out = run.stdout.read()  # stderr is the reader's
        run.wait(timeout=120)
        reader.join(timeout=30)
    finally:
        if run.poll() is None:
            run.send_signal(signal.SIGCONT)
            run.kill()
            run.wait()
    assert run.returncode == 130 and out == "", lines
    again = NOTE_OF_NEW_PACE.fullmatch(lines[1].rstrip("\n"))
    assert again, lines
    said, was = int(first[3].replace(",", "")), int(again[4].replace(",", ""))
    rate, minutes = int(again[3].replace(",", "")), 60 * int(again[1] or 0) + int(again[2])
    assert was == said, lines  # the pace said before, as said
    # A third of the speed, give or take what a shared, busy machine does to it.
    assert rate < said / 1.5, lines
    # The time to go at the new pace: a hundred million less what was played by then.
    stopped = re.search(r"interrupted after about ([\d,]+) of", "".join(lines[2:]))
    assert stopped, lines
    played = int(stopped[1].replace(",", ""))
    assert abs(60 * minutes - (100_000_000 - played) / rate) <= 60 + (100_000_000 / rate) / 10, lines
    assert lines[2].startswith("error: interrupted after about "), lines  # and no other note


def _until_lines(lines: list[str], count: int, limit: float) -> None:
    """Wait until ``lines`` holds ``count`` lines, for ``limit`` seconds at most."""
    end = time.monotonic() + limit
    while len(lines) < count:
        assert time.monotonic() < end, f"{count} lines of stderr within {limit} s: {lines}"
        time.sleep(0.2)


def test_the_help_shows_runs_put_together_and_each_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """sevens lab --help named every option and showed no run of them together: a newcomer had to
    find docs/strategy.md first. Its examples run as written (fewer tournaments, for time), the
    strategy of one's own from a mine.py beside them."""
    helped = runner.invoke(app, ["lab", "--help"], env={"COLUMNS": "200"})
    assert helped.exit_code == 0, helped.output
    examples = [line.strip().split("   (")[0] for line in helped.stdout.splitlines()
                if line.strip().startswith("sevens lab ")]
    assert len(examples) >= 4, helped.stdout
    (tmp_path / "mine.py").write_text("from sevens.bots.strategies import EvenSpread\n\n\nclass Mine(EvenSpread):\n"
                                      "    name = 'mine'\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for example in examples:
        args = example.split()[1:]
        ran = runner.invoke(app, [*args, "--tournaments", "40", "--teams", "8", "--workers", "1"])
        assert ran.exit_code == 0, (example, ran.output)
    assert {p.name for p in tmp_path.iterdir()} >= {"weights.png", "results.csv"}


def test_in_a_terminal_the_note_of_how_long_is_shown_above_the_bar_and_stays(tmp_path: Path) -> None:
    """The note goes through the bar's own console: written beside a live bar it would be drawn
    over, and the bar goes when the run stops, the note stays."""
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--tournaments", "100000000",
               "--json"]
    with in_terminal(command, cwd=tmp_path) as (run, main):
        shown = read_until(main, rb"Ctrl-C\s+stops\s+the\s+run", 300)
        assert re.search(rb"to\s+go\s+at\s+this\s+pace", shown), shown.decode(errors="replace")
        press_ctrl_c(main, 1)
        shown += read_until(main, rb"for a\s+shorter\s+run", 120)
        assert run.wait(timeout=120) == 130, shown.decode(errors="replace")
    said = " ".join(shown.decode(errors="replace").split())
    assert NOTE_OF_PACE.search(said), said
    assert "error: interrupted after about " in said and "no JSON is printed" in said, said
