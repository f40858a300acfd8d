"""``sevens lab --csv``: the results for a spreadsheet or pandas, every figure of ``--json`` on one row
per strategy with the run's settings beside them, written whole after the run or not at all."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import psutil
import pytest
import typer
from typer.testing import CliRunner

from installed_packages import install_package
from sevens.cli.main import app
from sevens.lab.run import CSV_COLUMNS, run_lab
from terminal_session import in_terminal, press_ctrl_c, read_until

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def _sevens(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "sevens", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600, check=False)


def _rows(text: str) -> list[dict[str, str]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    assert tuple(reader.fieldnames or ()) == CSV_COLUMNS
    return list(reader)


def _same(cell: str, value: Any) -> bool:
    """A CSV cell read back holds the JSON's value: the same float to the last bit, the same whole
    number, true/false for a flag, nothing for a null."""
    if value is None:
        return cell == ""
    if isinstance(value, bool):
        return cell == ("true" if value else "false")
    if isinstance(value, int):
        return cell == str(value)
    if isinstance(value, float):
        return float(cell) == value
    return cell == value


RUNS = [
    pytest.param(["--strategies", "even,random,table-reader", "--tournaments", "240", "--seed", "5"], id="three-strategies"),
    pytest.param(["--strategies", "random,even-flair@1.5", "--field", "equilibrium", "--tournaments", "2"],
                 id="against-a-field-one-entry-each"),
    pytest.param(["--strategies", "even", "--tournaments", "20"], id="alone-exact"),
]


@pytest.mark.parametrize("args", RUNS)
def test_the_csv_holds_every_figure_of_the_json_of_the_same_run(args: list[str], tmp_path: Path) -> None:
    """One run with --json, --csv FILE and --plot together, and a second of the same seed with --csv -:
    the file, read back with the csv module, has a row per strategy in the JSON's order, each holding
    the JSON's figures exactly (the means' interval bounds as mean ± ci95), its strategy's source and
    the run's settings; the CSV printed is the file's to the byte."""
    both = _sevens("lab", *args, "--teams", "8", "--json", "--csv", "out.csv", "--plot", "out.png", cwd=tmp_path)
    assert both.returncode == 0, both.stderr
    data = json.loads(both.stdout)  # stdout holds the JSON alone: no "written to" lines after it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv", "out.png"]
    text = (tmp_path / "out.csv").read_text(encoding="utf-8")
    rows = _rows(text)
    assert [row["strategy"] for row in rows] == [entry["strategy"] for entry in data["results"]]
    named = [*data["strategies"], *([f"{data['field']} (field)"] if data["field"] else [])]
    sources = dict(zip(named, data["sources"], strict=True))
    wrong = []
    for row, entry in zip(rows, data["results"], strict=True):
        expected: dict[str, Any] = {"entries": entry["entries"], "blocks": entry["blocks"]}
        for figure in ("titles", "finals"):
            expected.update({f"{figure}_{key}": entry[figure][key]
                             for key in ("count", "rate", "ci95_low", "ci95_high", "exact")})
        for figure in ("group_points", "scrum_left"):
            mean, half = entry[figure]["mean"], entry[figure]["ci95"]
            expected.update({f"{figure}_mean": mean, f"{figure}_ci95": half, f"{figure}_exact": entry[figure]["exact"],
                             f"{figure}_ci95_low": None if half is None else mean - half,
                             f"{figure}_ci95_high": None if half is None else mean + half})
        source = sources[entry["strategy"]]
        expected.update({f"source_{key}": source[key] for key in source if key not in ("name", "parameters")})
        expected.update({key: data[key] for key in ("teams", "tournaments", "seed", "field", "batch_size", "sampler")})
        expected.update(sevens_version=data["sevens"]["version"], sevens_source_digest=data["sevens"]["source_digest"],
                        command=data["command"].removesuffix(" --json") + " --csv -")
        assert set(expected) | {"strategy", "source_parameters"} == set(CSV_COLUMNS)
        wrong += [f"{entry['strategy']} {key}: {row[key]!r} in the CSV, {value!r} in the JSON"
                  for key, value in expected.items() if not _same(row[key], value)]
        if json.loads(row["source_parameters"]) != source["parameters"]:
            wrong.append(f"{entry['strategy']} source_parameters: {row['source_parameters']!r}")
    assert not wrong, "\n".join(wrong)
    again = _sevens(*shlex.split(data["command"].removesuffix(" --json"))[1:], "--csv", "-", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout == text  # the command the CSV names prints it again


def test_the_csv_says_what_each_case_of_the_json_is() -> None:
    """The three kinds of figure the JSON writes apart: an exact one (a lone strategy's), a null half-width
    (a mean over one entry, an empty cell) and an estimate."""
    alone = _rows(run_lab(["even"], 20, 1, teams=8).to_csv())
    assert [(r["titles_rate"], r["titles_exact"], r["group_points_ci95"], r["scrum_left_exact"]) for r in alone] == [
        ("0.125", "true", "0.0", "false")]
    lone = {r["strategy"]: r for r in _rows(run_lab(["random"], 1, 1, teams=8, field="even").to_csv())}
    assert lone["random"]["entries"] == "1"
    assert [lone["random"][k] for k in ("group_points_ci95", "group_points_ci95_low", "scrum_left_ci95_high")] == ["", "", ""]
    assert lone["even (field)"]["field"] == "even" and lone["even (field)"]["titles_exact"] == "false"


def test_the_table_is_printed_and_the_csv_file_said_written(tmp_path: Path) -> None:
    result = runner.invoke(app, ["lab", "--strategies", "even,random", "--tournaments", "10", "--teams", "8",
                                 "--csv", str(tmp_path / "r.csv")])
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())  # rich folds a long path over lines
    assert "titles %" in said and said.endswith(f"CSV written to {tmp_path / 'r.csv'}")
    assert len(_rows((tmp_path / "r.csv").read_text(encoding="utf-8"))) == 2


@pytest.mark.parametrize(("given", "says"), [
    ("{tmp}", "--csv {tmp} is a folder; give a file name, e.g. --csv {tmp}/results.csv"),
    ("{tmp}/nodir/r.csv", "cannot write --csv {tmp}/nodir/r.csv: the folder {tmp}/nodir does not exist; create it or pick "
                          "another path"),
    ("/proc/r.csv", "cannot write --csv /proc/r.csv: "),
    ("{tmp}/" + "c" * 246 + ".csv", "cannot write --csv {tmp}/" + "c" * 246 + ".csv: File name too long; choose a shorter "
                                    "file name (it is written under a longer temporary name first, then renamed)"),
])
def test_a_csv_that_cannot_be_written_is_refused_before_simulating(tmp_path: Path, given: str, says: str) -> None:
    if given.startswith("/proc") and not Path("/proc").is_dir():
        pytest.skip("no /proc here")
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--csv", given.format(tmp=tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {says.format(tmp=tmp_path)}"), result.stderr
    assert "Traceback" not in result.output and result.stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_an_existing_csv_is_refused_before_simulating_and_left_as_it_was(tmp_path: Path) -> None:
    kept = tmp_path / "results.csv"
    kept.write_text("an earlier run's\n")
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--csv", str(kept)])
    assert result.exit_code == 2
    assert result.stderr == (f"error: --csv {kept} already exists and would be replaced; choose another file name, or "
                             "pass --overwrite to replace it\n")
    assert result.stdout == "" and kept.read_text() == "an earlier run's\n"


def test_overwrite_replaces_an_existing_csv_whole(tmp_path: Path) -> None:
    kept = tmp_path / "results.csv"
    kept.write_text("an earlier run's\n")
    result = runner.invoke(app, ["lab", "--strategies", "even,random", "--tournaments", "10", "--teams", "8",
                                 "--csv", str(kept), "--overwrite"])
    assert result.exit_code == 0, result.output
    assert [row["strategy"] for row in _rows(kept.read_text())] in (["even", "random"], ["random", "even"])
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]


def test_a_plot_and_a_csv_both_there_already_are_named_in_one_refusal(tmp_path: Path) -> None:
    """Refused one at a time, a user who renamed the plot was sent back again for the CSV."""
    plot, kept = tmp_path / "ranking.png", tmp_path / "results.csv"
    plot.write_bytes(b"an earlier plot")
    kept.write_text("an earlier run's\n")
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--plot", str(plot),
                                 "--csv", str(kept)])
    assert result.exit_code == 2
    assert result.stderr == (f"error: --plot {plot} and --csv {kept} already exist and would be replaced; choose other "
                             "file names, or pass --overwrite to replace them\n")
    assert plot.read_bytes() == b"an earlier plot" and kept.read_text() == "an earlier run's\n"


def test_the_help_of_overwrite_names_both_files_it_replaces() -> None:
    """It said 'the output file', export's words, where the lab writes two."""
    result = runner.invoke(app, ["lab", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.replace("│", " ").split())
    said = re.search(r"--overwrite (?:<bool> )?([A-Z][^.]*)", text)
    assert said, text
    assert said.group(1).startswith("Replace the files --plot and --csv write if they already exist"), said.group(1)


@pytest.mark.parametrize(("csv_name", "plot_name", "link"), [
    ("ranking.png", "ranking.png", False),
    ("./ranking.svg", "ranking.svg", False),
    ("latest.csv", "ranking.png", True),  # latest.csv a link to ranking.png, not there yet
])
def test_a_csv_and_a_plot_naming_one_file_are_refused_before_simulating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, csv_name: str, plot_name: str, link: bool
) -> None:
    """Both were checked apart and passed; the run played, the CSV was written, and the plot then found
    its file taken ('appeared during the run'), or with --overwrite replaced the CSV by the picture."""
    monkeypatch.chdir(tmp_path)
    if link:
        (tmp_path / csv_name).symlink_to(plot_name)
    for overwrite in ([], ["--overwrite"]):
        result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--csv", csv_name,
                                     "--plot", plot_name, *overwrite])
        assert result.exit_code == 2, result.output
        assert result.stderr == (f"error: --csv {Path(csv_name)} and --plot {plot_name} name the same file, and each would "
                                 "replace the other: give each a file of its own (--csv results.csv --plot ranking.png)\n")
        assert [p.name for p in tmp_path.iterdir()] == ([csv_name] if link else [])


def test_csv_to_stdout_beside_json_is_refused() -> None:
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--csv", "-", "--json"])
    assert result.exit_code == 2
    assert result.stderr == ("error: --csv - and --json would both print to standard output, one after the other, which "
                             "no reader takes apart: write the CSV to a file (--csv results.csv), or drop --json or --csv\n")


@pytest.mark.parametrize(("args", "says"), [
    ([], "no file is given"),
    (["--csv", "-"], "no file is given, and --csv - prints to standard output"),
])
def test_overwrite_with_no_file_to_replace_is_refused(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["lab", "--strategies", "even", "--tournaments", "10", "--overwrite", *args])
    assert result.exit_code == 2
    assert result.stderr == (f"error: --overwrite replaces the files --plot and --csv write, and {says}: add --plot FILE "
                             "or --csv FILE, or drop --overwrite\n")


def test_csv_to_stdout_replaces_the_table_and_a_plot_is_still_written(tmp_path: Path) -> None:
    """Standard output holds the CSV alone: 'plot written to' after it would be a row of the sheet."""
    run = _sevens("lab", "--strategies", "even,random", "--tournaments", "20", "--teams", "8", "--csv", "-",
                  "--plot", "r.svg", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert [row["strategy"] for row in _rows(run.stdout)] in (["even", "random"], ["random", "even"])
    assert (tmp_path / "r.svg").read_text().rstrip().endswith("</svg>")


def test_a_csv_that_cannot_be_written_at_the_end_loses_neither_the_results_nor_the_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevens.cli.lab import _report

    result = run_lab(["even", "random"], 10, 1, teams=8)
    (tmp_path / "taken.csv").write_text("another run's\n")
    with pytest.raises(typer.Exit):
        _report(result, tmp_path / "r.png", json_out=True, csv_out=tmp_path / "taken.csv")
    out, err = capsys.readouterr()
    assert json.loads(out)["strategies"] == ["even", "random"]
    assert err == (f"error: --csv {tmp_path / 'taken.csv'} already exists and would be replaced; choose another file "
                   "name, or pass --overwrite to replace it; it appeared during the run; the JSON is printed, "
                   f"and the plot is written to {tmp_path / 'r.png'}\n")
    assert (tmp_path / "taken.csv").read_text() == "another run's\n" and (tmp_path / "r.png").stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.png", "taken.csv"]


BROKEN = '''
class Broken:
    """Raises in the second group round, as a strategy of one's own under work may."""

    name = "broken"

    def orders(self, view, rng):
        if view.turn == 2:
            raise RuntimeError("no plan for turn 2")
        from sevens.lab.registry import resolve
        return resolve("even").orders(view, rng)
'''


def test_a_run_that_fails_writes_no_csv_nor_plot(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text(BROKEN)
    run = _sevens("lab", "--strategies", "even,broken:Broken", "--tournaments", "4000", "--teams", "8",
                  "--csv", "out.csv", "--plot", "out.png", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert "no plan for turn 2" in run.stderr and run.stdout == ""
    # Said, naming both files: the message spoke of neither, and a user looked for out.csv.
    assert run.stderr.rstrip().endswith("; no table is printed and no file is written (--csv out.csv, --plot out.png)")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "__pycache__") == ["broken.py"]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_writes_no_csv_nor_plot(tmp_path: Path, workers: str) -> None:
    """A run stopped part way has figures that depend on which batches happened to finish: no file
    may hold them, not even a temporary one left behind."""
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--tournaments", "100000000",
               "--workers", workers, "--csv", "out.csv", "--plot", "out.png"]
    with in_terminal(command, cwd=tmp_path) as (run, main):
        done = rb"[1-9]\d*/100000000"  # a batch or more is done
        shown = read_until(main, done, 300)
        assert re.search(done, shown), shown.decode(errors="replace")
        workers_seen = psutil.Process(run.pid).children(recursive=True)
        press_ctrl_c(main, 1)
        shown = read_until(main, rb"for a\s+shorter\s+run", 120)
        assert run.wait(timeout=120) == 130, shown.decode(errors="replace")
    assert "no table is printed and no file is written (--csv out.csv, --plot out.png)" in " ".join(
        shown.decode(errors="replace").split())
    psutil.wait_procs(workers_seen, timeout=60)
    assert list(tmp_path.iterdir()) == []


ZEROS = ("import numpy as np\n\nclass Mine:\n    def orders(self, view, rng):\n"
         "        return np.zeros(view.size, dtype=np.int64), np.zeros(view.size, dtype=np.int64)\n")


def test_a_strategy_named_as_a_formula_is_written_as_text_and_the_numbers_as_numbers(tmp_path: Path) -> None:
    """Entry points registered as '+1' and '-1' and a module path '=HYPERLINK(1):Mine' were written as
    they are: a spreadsheet opening the file ran them as formulas. They start with an apostrophe now,
    as in the web's downloads; every figure is still a number a spreadsheet reads as one."""
    install_package(tmp_path, "pkg_formulas", {"plus_one": ZEROS, "minus_one": ZEROS, "=HYPERLINK(1)": ZEROS},
                    {"+1": "plus_one:Mine", "-1": "minus_one:Mine"})
    run = subprocess.run(
        [sys.executable, "-m", "sevens", "lab", "--strategies", "+1,=HYPERLINK(1):Mine", "--field=-1",
         "--tournaments", "10", "--teams", "8", "--csv", "-"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": os.pathsep.join((str(tmp_path), str(ROOT / "src")))},
        capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr
    rows = _rows(run.stdout)
    assert sorted(row["strategy"] for row in rows) == ["'+1", "'-1 (field)", "'=HYPERLINK(1):Mine"]
    assert {row["field"] for row in rows} == {"'-1"}
    assert {row["source_target"] for row in rows} == {"plus_one:Mine", "minus_one:Mine", "'=HYPERLINK(1):Mine"}
    text = {"strategy", "field", "sampler", "command", "sevens_version", "sevens_source_digest"} | {
        column for column in CSV_COLUMNS if column.startswith("source_") or column.endswith("_exact")}
    for row in rows:
        for column in set(CSV_COLUMNS) - text:
            assert row[column] == "" or math.isfinite(float(row[column])), (column, row[column])
