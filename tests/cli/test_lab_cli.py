"""``sevens lab``: a bad --plot path is refused before any simulation, and results are never lost to it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from sevens.cli.main import app
from sevens.lab.run import run_lab, wilson_interval

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


def test_results_are_printed_before_a_plot_that_fails_at_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevens.cli.lab import _report

    result = run_lab(["even", "random"], 10, 1, teams=8)
    with pytest.raises(typer.Exit):
        _report(result, tmp_path / "gone" / "x.png", json_out=True)
    out, err = capsys.readouterr()
    assert json.loads(out)["strategies"] == ["even", "random"]
    assert err.startswith("error: cannot write --plot") and "the results are printed above" in err


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
