"""``sevens odds``'s exact figures for a lesson: --distribution, --per-point, --fractions, --every-split, --csv."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sevens.cli.main import app
from sevens.cli.odds_classroom import decimal
from sevens.odds import exact_match, order_odds, per_point
from sevens.rules import Order

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> str:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def _csv(*args: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(_run(*args, "--csv"))))


def _exact(cell: str) -> Fraction:
    """A CSV's exact cell read back as docs/odds.md says: a fraction after an apostrophe, a whole number bare."""
    return Fraction(cell[1:] if cell.startswith("'") else cell)


@pytest.mark.parametrize(("force", "flair"), [(3, 0), (0, 3), (4, 6)])
def test_distribution_csv_is_exact_and_gives_every_tail(force: int, flair: int) -> None:
    rows = _csv("--force", str(force), "--flair", str(flair), "--distribution")
    data = json.loads(_run("--force", str(force), "--flair", str(flair), "--json", "--exact"))
    listed = [row for row in rows if not row["points"].startswith(">")]
    # The same totals and fractions as --json --exact, and P(at least k) is what is left from k on.
    assert [[int(r["points"]), str(_exact(r["probability_exact"]))] for r in listed] == data["distribution_exact"]
    total = sum((_exact(r["probability_exact"]) for r in rows), Fraction(0))
    assert total == 1
    for row in listed:
        k = int(row["points"])
        tail = sum((_exact(r["probability_exact"]) for r in rows
                    if r["points"].startswith(">") or int(r["points"]) >= k), Fraction(0))
        assert _exact(row["at_least_exact"]) == tail
        exact = _exact(row["probability_exact"])
        # six decimals, or two figures of a long shot: never 0 for what can happen
        assert float(row["probability"]) == pytest.approx(float(exact), rel=0.05, abs=5e-7)
        assert float(row["probability"]) > 0
    mean = sum((int(r["points"]) * _exact(r["probability_exact"]) for r in listed), Fraction(0))
    assert mean <= Fraction(data["expected_points_exact"]) <= mean + Fraction(1, 10**15)
    if not flair:
        assert mean == Fraction(data["expected_points_exact"])


def test_distribution_in_the_terminal_shows_fractions_decimals_and_the_spread() -> None:
    out = _run("--flair", "3", "--distribution")
    assert re.search(r"variance\s+│\s+66/5 │\s+13\.2000 │", out), out
    assert re.search(r"standard deviation\s+│\s+sqrt\(66/5\) │\s+3\.6332 │", out), out
    # P(8) = 1/16, and P(at least 8) = 59/512 (every total from 8 on)
    assert re.search(r"│\s+8 │\s+1/16 │ 0\.062500 │\s+59/512 │ 0\.115234 │", out), out


def test_distribution_json_adds_the_tails_and_the_standard_deviation() -> None:
    data = json.loads(_run("--force", "3", "--distribution", "--json", "--exact"))
    assert data["standard_deviation"] == pytest.approx(float(Fraction(data["variance_exact"])) ** 0.5)
    left = Fraction(1)
    for (p, chance), (q, at_least) in zip(data["distribution_exact"], data["at_least_exact"], strict=True):
        assert (q, Fraction(at_least)) == (p, left)
        left -= Fraction(chance)
    assert left == 0  # FORCE alone: the list ends at the highest score


def _page_figure(text: str, row: str) -> tuple[str, str]:
    found = re.search(rf"^\| {re.escape(row)} \| ([^ |]+)[^|]*\| ([^ |]+)[^|]*\|$", text, re.M)
    assert found, f"docs/original-figures.md no longer has the row {row!r}"
    return found.group(1), found.group(2)


def test_per_point_matches_the_original_figures_page() -> None:
    page = (ROOT / "docs" / "original-figures.md").read_text(encoding="utf-8")
    force, flair = json.loads(_run("--per-point", "--json"))["parts"]
    # The page's "Other figures" table: one FLAIR option against three FORCE dice.
    option_var, three_dice_var = _page_figure(page, "variance of points")
    assert flair["variance"] == option_var and str(3 * Fraction(force["variance"])) == three_dice_var
    option_zero, three_dice_zero = _page_figure(page, "chance of no points")
    assert flair["p_zero"] == option_zero and str(Fraction(force["p_zero"]) ** 3) == three_dice_zero
    per_point = re.search(r"FLAIR expects slightly \*more\* than FORCE \((\d+/\d+) = [\d.]+ a point against "
                          r"(\d+/\d+) = ", " ".join(page.split()))
    assert per_point, "docs/original-figures.md no longer gives the per-point means"
    assert (flair["mean_per_point"], force["mean_per_point"]) == per_point.groups()
    assert Fraction(flair["variance_per_point"]) > Fraction(force["variance_per_point"])


def test_per_point_table_and_csv() -> None:
    out = _run("--per-point")
    assert re.search(r"mean per point\s+│\s+4/3 ≈ 1\.3333 │\s+61/45 ≈ 1\.3556 │", out), out
    assert re.search(r"variance per point\s+│\s+35/9 ≈ 3\.8889 │\s+22/5 ≈ 4\.4000 │", out), out
    rows = _csv("--per-point")
    assert [(r["part"], r["mean_per_point"], r["variance_per_point"]) for r in rows] == [
        ("FORCE", "'4/3", "'35/9"), ("FLAIR", "'61/45", "'22/5")]


def test_fractions_of_a_match_in_every_form() -> None:
    args = ("--force", "3", "--vs-flair", "3", "--fractions")
    rows = {r["outcome"]: _exact(r["probability_exact"]) for r in _csv(*args)}
    assert sum(rows.values()) == 1
    data = json.loads(_run(*args, "--json"))
    assert {k: Fraction(data[f"{k}_exact"]) for k in ("win", "draw", "loss")} == rows
    for key in ("win", "draw", "loss"):  # the floats of the same JSON are within their tail bound
        assert abs(float(rows[key]) - data[key]) <= data["tail_bound"] + 1e-15
    out = _run(*args)
    assert re.search(rf"win\s+│\s+{rows['win']} │\s+{float(rows['win']):.6f} │", out), out


def test_knockout_fractions_in_every_form() -> None:
    # --fractions --knockout was refused outright; now it counts back exactly where one side has no FLAIR.
    args = ("--force", "3", "--vs-flair", "3", "--fractions", "--knockout")
    rows = {r["outcome"]: _exact(r["probability_exact"]) for r in _csv(*args)}
    assert rows["win"] + rows["level"] + rows["loss"] == 1
    assert rows["win"] == sum(rows[f"win on {step}"] for step in ("points", "tries", "conversions", "drop goals"))
    # Count-back first: on points the knockout match is the group match.
    group = {r["outcome"]: _exact(r["probability_exact"]) for r in _csv("--force", "3", "--vs-flair", "3", "--fractions")}
    assert (rows["win on points"], rows["loss on points"]) == (group["win"], group["loss"])
    data = json.loads(_run(*args, "--json"))
    assert data["rules"] == "knockout"
    assert {k: Fraction(data[f"{k}_exact"]) for k in ("win", "level", "loss")} == {
        k: rows[k] for k in ("win", "level", "loss")}
    for key in ("win", "level", "loss"):  # the floats of the same JSON are within their tail bound
        assert abs(float(rows[key]) - data[key]) <= data["tail_bound"] + 1e-15
    out = _run(*args)
    assert "knockout, after count-back (R9), exactly" in out
    assert re.search(rf"level\s+│\s+{rows['level']} │\s+{float(rows['level']):.6f} │", out), out
    assert re.search(rf"loss on drop goals\s+│\s+{rows['loss on drop goals']} │", out), out


def test_two_flair_sides_under_count_back_get_decimals_and_are_told_why_there_are_no_fractions() -> None:
    # They were refused (exit 2), the way out being to type the command again without --fractions.
    args = ["odds", "--flair", "3", "--vs-flair", "3", "--fractions", "--knockout"]
    level = 53 / (16 * math.sqrt(255))  # what the note says the level is
    for form in ([], ["--csv"], ["--json"]):
        result = runner.invoke(app, [*args, *form])
        assert result.exit_code == 0, result.output
        assert "no exact fractions" in result.stderr and "53/(16*sqrt(255)), an irrational number" in result.stderr
        assert "within 3.3e-11 of the true chance" in result.stderr  # the match's tail bound
    rows = _csv(*args[1:])
    assert [(r["outcome"], r["probability_exact"]) for r in rows] == [("win", ""), ("level", ""), ("loss", "")]
    assert rows[1]["probability"] == f"{level:.6f}"
    data = json.loads(_run(*args[1:], "--json"))
    assert abs(data["level"] - level) <= data["tail_bound"] + 1e-15
    assert "not fractions" in data["no_fractions"] and "win_exact" not in data
    out = _run(*args[1:])
    assert re.search(rf"│\s+0.396282 │\s+{level:.6f} │\s+0.396282 │", out), out
    assert "exactly" not in out  # the table of decimals, as without --fractions
    assert out == _run(*args[1:5], "--knockout")


def test_every_split_lists_the_splits_in_turn_each_as_its_own_match() -> None:
    rows = _csv("--every-split", "9", "--vs-force", "3", "--vs-flair", "3")
    assert [(r["force"], r["flair"]) for r in rows] == [("9", "0"), ("6", "3"), ("3", "6"), ("0", "9")]
    for row in rows:
        alone = {r["outcome"]: r["probability_exact"] for r in
                 _csv("--force", row["force"], "--flair", row["flair"], "--vs-force", "3", "--vs-flair", "3",
                      "--fractions")}
        assert (row["win_exact"], row["draw_exact"], row["loss_exact"]) == (alone["win"], alone["draw"], alone["loss"])
    out = _run("--every-split", "9", "--vs-force", "3", "--vs-flair", "3")
    assert "Every split of 9 v 3 FORCE + 3 FLAIR, group rules, FLAIR rising" in out


def test_fractions_and_every_split_take_any_orders_a_team_can_give() -> None:
    # Refused until odds4: two FLAIR sides past 90 points between them (45 + 48 here), and
    # --every-split past 60 (58 + 3); now up to the largest orders R3 allows.
    rows = {r["outcome"]: _exact(r["probability_exact"]) for r in
            _csv("--flair", "45", "--vs-flair", "48", "--fractions")}
    assert sum(rows.values()) == 1 and rows["win"] < rows["loss"]
    largest = {r["outcome"]: _exact(r["probability_exact"]) for r in
               _csv("--force", "1", "--flair", "159", "--vs-force", "1", "--vs-flair", "159", "--fractions")}
    assert largest["win"] == largest["loss"] and sum(largest.values()) == 1
    splits = _csv("--every-split", "58", "--vs-force", "3")
    assert [(r["force"], r["flair"]) for r in splits][::19] == [("58", "0"), ("1", "57")]
    assert all(_exact(r["win_exact"]) + _exact(r["draw_exact"]) + _exact(r["loss_exact"]) == 1 for r in splits)


@pytest.mark.parametrize(("args", "says"), [
    (["--per-point", "--force", "3"], "--per-point stands alone, the same for every order: drop --force 3"),
    (["--force", "3", "--csv", "--json"], "--csv and --json are two ways to print the same figures: choose one"),
    (["--force", "3", "--distribution", "--knockout"], "--distribution gives group figures: drop --knockout"),
    (["--every-split", "9", "--vs-force", "3", "--knockout"], "--every-split gives group figures: drop --knockout"),
    (["--force", "3", "--fractions"], "--fractions gives a match's win, draw and loss: add the opponent's"),
    (["--force", "3", "--vs-force", "3", "--distribution"], "--distribution is one order's: drop --vs-force 3"),
    (["--every-split", "9"], "--every-split needs the opposing order"),
    # A negative total was blamed on "FORCE points", which the player had not typed.
    (["--every-split", "-1", "--vs-force", "3"], "R3: --every-split takes the total of SCRUM points to split, 0 or more, "
     "got -1"),
    # --every-split refused a total and an order of more than 60 points between them until odds4;
    # now only what R3 refuses is.
    (["--every-split", "161", "--vs-force", "3"], "R3: an order of 161 points is more than any team can ever hold "
     "(160: 100 to start plus 10 for each of six wins) (--every-split 161)"),
    (["--best-split", "9", "--vs-force", "3", "--csv"], "drop --best-split"),
    (["--every-split", "9", "--force", "3", "--vs-force", "3"], "drop --force 3"),
    # --exact alone once said "the tables already show fractions", which each total's chance they did not
    (["--force", "3", "--exact"], "add --json, or use --distribution for every total's chance as a fraction"),
    (["--force", "3", "--vs-flair", "3", "--exact"], "or use --fractions for the match's win, draw and loss"),
])
def test_bad_combinations_are_one_line_saying_what_to_do(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert says in result.output


def test_csv_alone_names_every_figure_it_writes_and_each_way_out_is_taken() -> None:
    """`sevens odds --csv` was told "say which order: --force F --flair K", as if one order's points
    were all it writes; the help names --per-point, --fractions and --every-split too."""
    result = runner.invoke(app, ["odds", "--csv"])
    assert result.exit_code == 2, result.output
    said = " ".join(result.stderr.split())
    assert said == ("error: say what to write as CSV: one order's points, --force F --flair K (either alone: the other "
                    "is 0); a match, those with --vs-force F2 --vs-flair K2; --per-point; or "
                    "--every-split TOTAL with --vs-force/--vs-flair")
    for then in (["--force", "3"], ["--force", "3", "--vs-flair", "3"], ["--per-point"],
                 ["--every-split", "6", "--vs-flair", "3"]):
        taken = runner.invoke(app, ["odds", "--csv", *then])
        assert taken.exit_code == 0 and taken.stdout.count(",") > 2, (then, taken.output)


@pytest.mark.parametrize(("args", "says", "then"), [
    # Both once pointed at an option already typed: following the advice met the same refusal.
    (["--force", "3", "--vs-force", "3", "--distribution", "--fractions"], "drop --distribution (--fractions gives",
     ["--force", "3", "--vs-force", "3", "--fractions"]),
    (["--force", "3", "--vs-force", "3", "--distribution"], "or put --fractions in place of --distribution",
     ["--force", "3", "--vs-force", "3", "--fractions"]),
    (["--force", "3", "--distribution", "--exact"], "add --json, or drop --exact", ["--force", "3", "--distribution"]),
])
def test_the_way_out_a_refusal_names_is_taken(args: list[str], says: str, then: list[str]) -> None:
    refused = runner.invoke(app, ["odds", *args])
    assert refused.exit_code == 2 and says in refused.output, refused.output
    taken = runner.invoke(app, ["odds", *then])
    assert taken.exit_code == 0, taken.output


@pytest.mark.parametrize("args", [["--force", "2", "--distribution"], ["--flair", "3", "--distribution"], ["--per-point"],
                                  ["--every-split", "12", "--vs-force", "6", "--vs-flair", "6"],
                                  ["--force", "3", "--vs-flair", "3", "--fractions"],
                                  ["--force", "3", "--vs-flair", "3", "--fractions", "--knockout"]])
@pytest.mark.parametrize("columns", [40, 24])
def test_a_narrow_terminal_shows_every_exact_figure_whole(args: list[str], columns: int) -> None:
    wide = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["odds", *args])
    narrow = CliRunner(env={"COLUMNS": str(columns)}).invoke(app, ["odds", *args])
    assert wide.exit_code == narrow.exit_code == 0, narrow.output
    assert "…" not in narrow.stdout, narrow.stdout
    figures = re.findall(r"\d+/\d+|\d+\.\d+", wide.stdout)
    # A fraction longer than the line is folded over lines, but no figure is left out or cut.
    squeezed = "".join(narrow.stdout.split())
    assert figures and all(figure in squeezed for figure in figures)
    assert all(len(line) <= columns for line in narrow.stdout.splitlines())


@pytest.mark.parametrize(
    "args",
    [
        ("--force", "60", "--distribution"),  # at least 3 points: 1 - 2.7e-10
        ("--force", "60", "--vs-force", "1", "--fractions"),  # a win all but certain
        ("--force", "60", "--vs-force", "1", "--fractions", "--knockout"),
        ("--every-split", "60", "--vs-force", "1"),
    ],
)
def test_every_decimal_column_of_a_csv_is_a_number(args: tuple[str, ...]) -> None:
    """A near-certainty came as ">0.999999" in the CSV, as the table shows it: a spreadsheet kept
    the cell as text and pandas made the whole column text. It is a number now, with the decimals
    it takes to stay below 1, and its fraction beside it agrees."""
    rows = list(csv.DictReader(io.StringIO(_run(*args, "--csv"))))
    decimals = [key for key in rows[0] if key not in ("points", "outcome", "force", "flair") and not key.endswith("_exact")]
    near_one = 0
    for row in rows:
        for key in decimals:
            value = Fraction(row[key])  # a ValueError for ">0.999999"
            assert float(row[key]) == float(value)
            exact_key = "probability_exact" if key == "probability" else f"{key}_exact"
            exact = _exact(row[exact_key]) if row.get(exact_key) else None
            if exact is not None:
                assert abs(value - exact) <= Fraction(5, 10**7), (row, key)
            if key != "expected_points" and Fraction(999999, 10**6) < value:  # a chance, not points
                near_one += 1
                assert value < 1 or exact == 1, (row, key)
    assert near_one, "the case this test is for: a chance within 1e-6 of 1"


# What Excel or LibreOffice may take for a date: day/month, month/day, month/year, with a year or without.
_DATE_LIKE = re.compile(r"^\s*\d{1,4}\s*/\s*\d{1,4}(\s*/\s*\d{1,4})?\s*$")


@pytest.mark.parametrize("args", [
    ("--force", "2", "--distribution"),
    ("--flair", "3", "--distribution"),  # the last row, >N, is every total above N together
    ("--per-point",),
    ("--force", "3", "--vs-flair", "3", "--fractions"),
    ("--force", "3", "--vs-flair", "3", "--fractions", "--knockout"),
    ("--flair", "3", "--vs-flair", "3", "--fractions", "--knockout"),  # decimals alone: no fractions exist
    ("--every-split", "12", "--vs-force", "6", "--vs-flair", "6"),
])
def test_no_csv_cell_is_a_date_to_a_spreadsheet_and_every_fraction_reads_back_exactly(args: tuple[str, ...]) -> None:
    """The CSV wrote a fraction bare (1/6, 4/3), which a spreadsheet opening the file reads as a date
    (the 1st of June, the 4th of March); --per-point gave nothing else, so its sheet had no figure
    at all. A fraction now comes after an apostrophe, as text, with its decimal beside it."""
    rows = _csv(*args)
    exact = {key for key in rows[0] if key.endswith("_exact") or key in (
        "mean", "variance", "p_zero", "mean_per_point", "variance_per_point")}  # --per-point's names from 0.1.0
    fractions = 0
    for row in rows:
        for key, cell in row.items():
            assert not _DATE_LIKE.match(cell), (args, key, cell)
            if key in ("outcome", "part") or (key == "points" and cell.startswith(">")):
                continue  # the row's name
            if key in exact:
                if not cell:
                    assert "level" in [r["outcome"] for r in rows], (key, row)  # the decimals-only knockout
                    continue
                if cell.startswith("'"):
                    fractions += 1
                    assert Fraction(cell[1:]).denominator > 1, (key, cell)
                else:
                    assert Fraction(cell).denominator == 1 and "/" not in cell, (key, cell)  # a whole number
                # ... and its decimal beside it, the same figure rounded
                partner = ("probability" if key == "probability_exact" else key.removesuffix("_exact")
                           if key.endswith("_exact") else f"{key}_decimal")
                assert abs(Fraction(row[partner]) - _exact(cell)) <= Fraction(5, 10**7), (key, row)
            else:
                float(cell)  # a number, or a ValueError
                assert "/" not in cell and not cell.startswith("'"), (key, cell)
    if "--flair" not in args or "--knockout" not in args:
        assert fractions, "the case this test is for: fractions in the CSV"
    # Each exact figure is the library's own, read back from the cell.
    if args == ("--per-point",):
        for row, part in zip(rows, per_point(), strict=True):
            for key in ("mean", "variance", "p_zero", "mean_per_point", "variance_per_point"):
                assert _exact(row[key]) == getattr(part, key)
                assert row[f"{key}_decimal"] == decimal(getattr(part, key))
    if args[:1] == ("--every-split",):
        for row in rows:
            order = Order(force=int(row["force"]), flair=int(row["flair"]))
            match = exact_match(order, Order(force=6, flair=6))
            assert (_exact(row["win_exact"]), _exact(row["draw_exact"])) == (match.win, match.draw)
            assert _exact(row["win_plus_half_draw_exact"]) == match.win + match.draw / 2
            mean = order_odds(order.force, order.flair).expected_points_exact
            assert (_exact(row["expected_points_exact"]), row["expected_points"]) == (mean, decimal(mean))


def test_every_split_json_names_its_figures_as_the_other_objects_do() -> None:
    """Every other object of --json gives a figure as a float and its fraction as ``NAME_exact``
    (``expected_points`` beside ``expected_points_exact`` for one order); each split of
    --every-split gave the mean as a fraction alone, so an analyst had to parse "383/15" to plot it."""
    one = json.loads(_run("--force", "10", "--flair", "9", "--json"))
    splits = json.loads(_run("--every-split", "19", "--vs-force", "10", "--vs-flair", "9", "--json"))["splits"]
    same = next(s for s in splits if (s["force"], s["flair"]) == (10, 9))
    for split in splits:
        for key in ("win", "draw", "loss", "expected_points"):
            assert isinstance(split[key], float) and split[key] == float(Fraction(split[f"{key}_exact"])), (split, key)
    assert (same["expected_points"], same["expected_points_exact"]) == (one["expected_points"], one["expected_points_exact"])


def _every_split_with_stderr_on_a_terminal(*args: str) -> tuple[str, str]:
    """Stdout piped, stderr a real terminal (a pty), as a player running a long --every-split sees it."""
    leader, follower = os.openpty()
    try:
        run = subprocess.run([sys.executable, "-m", "sevens", "odds", "--every-split", "160", "--vs-flair", "159", *args],
                             stdout=subprocess.PIPE, stderr=follower, timeout=120, check=False)
        os.close(follower)
        seen = b""
        with contextlib.suppress(OSError):  # EIO once the terminal's other end is closed and read out
            while chunk := os.read(leader, 65536):
                seen += chunk
    finally:
        os.close(leader)
    assert run.returncode == 0, seen
    return run.stdout.decode(), seen.decode()


@pytest.mark.parametrize("output", [[], ["--csv"], ["--json"]])
def test_a_long_every_split_shows_its_progress_on_a_terminal_and_only_there(output: list[str]) -> None:
    # Every split of 160 against 159 FLAIR took about 5 s with no sign of life; it now counts the
    # splits on stderr once it has taken half a second, and wipes that line before the results.
    out, terminal = _every_split_with_stderr_on_a_terminal(*output)
    assert "working out every split of 160 against 0 FORCE + 159 FLAIR: 54 of 54 done" in terminal, terminal
    assert terminal.endswith("\r\x1b[K"), terminal
    # stdout is what it was: nothing of the note in the table, the CSV or the JSON.
    assert "working" not in out
    if output == ["--json"]:
        assert len(json.loads(out)["splits"]) == 54
    elif output == ["--csv"]:
        assert len(list(csv.DictReader(io.StringIO(out)))) == 54


def test_a_long_every_split_says_nothing_on_a_stderr_that_is_no_terminal() -> None:
    run = subprocess.run([sys.executable, "-m", "sevens", "odds", "--every-split", "160", "--vs-flair", "159", "--csv"],
                         capture_output=True, timeout=120, check=False)
    assert run.returncode == 0
    assert run.stderr == b""


def test_every_split_gives_the_same_figures_under_the_same_names_in_csv_json_and_table() -> None:
    # --every-split's JSON left out the ranking figure (win + draw/2) and the expected points as a
    # number, which its table and CSV give: a program reading it had to work them out again.
    args = ("--every-split", "12", "--vs-force", "3", "--vs-flair", "6")
    rows = _csv(*args)
    splits = json.loads(_run(*args, "--json"))["splits"]
    table = _run(*args)
    assert len(rows) == len(splits) == 5
    for row, split in zip(rows, splits, strict=True):
        for column, value in row.items():
            assert column in split, column
            if column.endswith("_exact"):
                assert _exact(value) == Fraction(split[column])
            elif column in ("force", "flair"):
                assert str(split[column]) == value
            else:  # six decimals in the CSV, the float nearest the fraction in the JSON
                assert split[column] == float(Fraction(split[f"{column}_exact"]))
                assert value == decimal(Fraction(split[f"{column}_exact"]))
        half = Fraction(split["win_exact"]) + Fraction(split["draw_exact"]) / 2
        assert Fraction(split["win_plus_half_draw_exact"]) == half
        assert split["expected_points"] == float(Fraction(split["expected_points_exact"]))
        assert re.search(rf"│\s+{split['force']} │\s+{split['flair']} │\s+{re.escape(split['expected_points_exact'])} │"
                         rf"\s+{row['win']} │\s+{row['draw']} │\s+{row['loss']} │\s+{row['win_plus_half_draw']} │", table)


def test_knockout_steps_in_json_are_spelt_as_expected_lines_spells_them() -> None:
    # win_by_exact and loss_by_exact had the key "drop goals" where expected_lines (and every other
    # JSON of sevens) says "drop_goals"; "drop_goals" is now there, and "drop goals" kept beside it
    # with the same figure until 0.2, so that a script written against 0.1.0 keeps working.
    data = json.loads(_run("--force", "6", "--vs-flair", "6", "--fractions", "--knockout", "--json"))
    for key in ("win_by_exact", "loss_by_exact"):
        steps = data[key]
        assert set(steps) - {"drop goals"} == {"points", *data["expected_lines"]} - {"penalties"}, steps
        assert steps["drop_goals"] == steps["drop goals"]
    assert Fraction(data["win_exact"]) == sum(Fraction(v) for k, v in data["win_by_exact"].items() if k != "drop goals")


def test_every_split_table_calls_the_mean_what_the_order_table_and_the_json_call_it() -> None:
    # The column was "mean points" where the one-order table's row, the JSON and the CSV say
    # expected points (expected_points, expected_points_exact): one figure, one name.
    table = _run("--every-split", "12", "--vs-force", "6", "--vs-flair", "6")
    heads = [line for line in table.splitlines() if line.startswith("┃")]
    cells = [" ".join(words) for words in zip(*([c.strip() for c in line.strip("┃").split("┃")] for line in heads),
                                               strict=True)]
    assert [" ".join(cell.split()) for cell in cells] == [
        "FORCE", "FLAIR", "expected points", "win", "draw", "loss", "win + draw/2"], cells
    assert "expected points" in _run("--force", "12")


def test_per_point_json_gives_its_fractions_under_exact_names_as_every_other_json_does() -> None:
    # --per-point's fractions were under the bare names (mean: "4/3"), which elsewhere hold floats
    # (expected_points beside expected_points_exact): a script reading float(part["mean"]) failed.
    # NAME_exact now holds the fraction; NAME keeps it until 0.2 for scripts written against 0.1.0.
    one = json.loads(_run("--force", "1", "--json"))
    force, flair = json.loads(_run("--per-point", "--json"))["parts"]
    assert Fraction(force["mean_exact"]) == Fraction(one["expected_points_exact"])
    assert Fraction(force["variance_exact"]) == Fraction(one["variance_exact"])
    assert Fraction(force["p_zero_exact"]) == Fraction(one["p_zero_exact"])
    for part in (force, flair):
        for name in ("mean", "variance", "p_zero", "mean_per_point", "variance_per_point"):
            assert part[name] == part[f"{name}_exact"], (part, name)
    assert Fraction(flair["mean_per_point_exact"]) * 3 == Fraction(flair["mean_exact"])
