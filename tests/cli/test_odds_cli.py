"""``sevens odds``: one order, a match (group or knockout), and the best split, as tables and JSON."""

from __future__ import annotations

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
from sevens.rules import MAX_ORDER_POINTS

runner = CliRunner()




def _json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1  # one JSON object
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    return data


SINGLE_KEYS = {"force", "flair", "expected_points", "expected_points_exact", "variance", "variance_exact", "p_zero",
               "p_zero_exact", "distribution", "rest", "expected_lines", "expected_lines_exact", "expected_flair_throws",
               "expected_flair_throws_exact"}


def test_single_order_json() -> None:
    """One FLAIR option: 61/15 expected points (R2, R5), P(0) = 5/16, every point total with a chance listed."""
    data = _json("--force", "0", "--flair", "3")
    assert set(data) == SINGLE_KEYS
    assert data["expected_points_exact"] == "61/15"
    assert data["expected_points"] == pytest.approx(61 / 15)
    assert (data["p_zero"], data["p_zero_exact"]) == (5 / 16, "5/16")
    assert (data["variance"], data["variance_exact"]) == (pytest.approx(13.2), "66/5")
    assert data["expected_lines"] == pytest.approx({"tries": 8 / 15, "conversions": 0.2, "penalties": 0,
                                                    "drop_goals": 1 / 3})
    assert data["expected_lines_exact"] == {"tries": "8/15", "conversions": "1/5", "penalties": "0",
                                            "drop_goals": "1/3"}
    distribution = data["distribution"]
    assert isinstance(distribution, list)
    assert all(p > 0 for _, p in distribution)
    as_dict = dict((int(s), p) for s, p in distribution)
    assert as_dict[7] == 3 / 16
    assert 1 not in as_dict and 2 not in as_dict
    assert min(as_dict.values()) < 1e-18  # the far totals are there too


def _tail(data: dict[str, object], above: int) -> float:
    """P(more than ``above`` points), as a program reading the JSON would work it out."""
    distribution = data["distribution"]
    rest = data["rest"]
    assert isinstance(distribution, list) and isinstance(rest, dict)
    return math.fsum([p for points, p in distribution if points > above] + [rest["p"]])


@pytest.mark.parametrize(("force", "flair"), [(0, 3), (0, 6), (5, 9), (10, 0), (0, 159), (100, 60)])
def test_json_distribution_sums_to_one_and_gives_every_tail(force: int, flair: int) -> None:
    """Issue: --json left out the far totals and the chance beyond them (1.5e-11 for one option),
    so its chances summed to 0.99999999998545 and a tail such as P(more than 30 points) came out short.
    Every total is now listed up to rest["above"], each the float nearest its exact chance, and
    rest is the exact chance beyond: with it they sum to 1, and as fractions exactly 1."""
    data = _json("--force", str(force), "--flair", str(flair), "--exact")
    rest = data["rest"]
    assert isinstance(rest, dict)
    assert rest["p"] == float(Fraction(rest["exact"])) < 1e-20
    listed = data["distribution"]
    assert isinstance(listed, list)
    assert max(points for points, _ in listed) == rest["above"]
    assert math.fsum(p for _, p in listed) + rest["p"] == pytest.approx(1, abs=1e-15)
    exact = data["distribution_exact"]
    assert isinstance(exact, list)
    assert [points for points, _ in exact] == [points for points, _ in listed]
    assert all(float(Fraction(f)) == p for (_, f), (_, p) in zip(exact, listed, strict=True))
    assert sum((Fraction(f) for _, f in exact), Fraction(rest["exact"])) == 1


def test_json_reproduces_the_tail_the_rules_page_quotes() -> None:
    """docs/original-figures.md: one FLAIR option scores more than 30 points with chance 38939/536870912."""
    data = _json("--force", "0", "--flair", "3", "--exact")
    assert _tail(data, 30) == pytest.approx(38939 / 536870912, rel=1e-14)
    exact = data["distribution_exact"]
    assert isinstance(exact, list)
    rest = data["rest"]
    assert isinstance(rest, dict)
    above_30 = sum((Fraction(f) for points, f in exact if points > 30), Fraction(rest["exact"]))
    assert above_30 == Fraction(38939, 536870912)
    assert dict(exact)[18] == "1029/524288"  # the page's worked example


def test_exact_needs_json_and_a_distribution() -> None:
    for args, says in (
        (["--force", "3", "--exact"], "add --json"),
        (["--solve", "9", "9", "--json", "--exact"], "--solve gives no distribution"),
    ):
        result = runner.invoke(app, ["odds", *args])
        assert result.exit_code == 2 and says in result.output and "Traceback" not in result.output


def test_force_order_expects_exactly_four() -> None:
    """R5: 3 points of FORCE net 4 exactly; FORCE alone has nothing beyond its last total (15)."""
    data = _json("--force", "3", "--flair", "0")
    assert Fraction(str(data["expected_points_exact"])) == 4
    assert data["rest"] == {"above": 15, "p": 0.0, "exact": "0"}


def test_match_json_has_win_draw_loss_and_the_opponent() -> None:
    data = _json("--force", "1", "--flair", "0", "--vs-force", "1", "--vs-flair", "0")
    assert data["rules"] == "group"  # as --solve says it
    # one die each: win 1/4 (5 beats 3 or 0, 3 beats 0), draw 1/2, loss 1/4
    assert (data["win"], data["draw"], data["loss"]) == pytest.approx((0.25, 0.5, 0.25))
    assert "level" not in data
    assert data["tail_bound"] == 0  # FORCE alone: nothing cut, win/draw/loss exact but for rounding
    vs = data["vs"]
    assert isinstance(vs, dict) and set(vs) == SINGLE_KEYS
    flair = _json("--force", "0", "--flair", "3", "--vs-flair", "3")
    assert 0 < flair["tail_bound"] <= 2e-10  # type: ignore[operator]


def test_knockout_json_has_win_loss_level() -> None:
    """R9: with --knockout the keys are win, loss, level (count-back on tries, conversions, drop goals)."""
    data = _json("--force", "1", "--flair", "0", "--vs-force", "1", "--vs-flair", "0", "--knockout")
    assert data["rules"] == "knockout" and "draw" not in data
    # 5 v 5 and 3 v 3 stay level on count-back too: level = 4/9 + 1/36 + 1/36 = 1/2
    assert (data["win"], data["loss"], data["level"]) == pytest.approx((0.25, 0.25, 0.5))


@pytest.mark.parametrize("columns", ["200", "30"])
@pytest.mark.parametrize(
    "args", [["--force", "6", "--flair", "3", "--vs-force", "6"], ["--best-split", "9", "--vs-force", "6"]]
)
def test_knockout_tables_read_win_level_loss_as_the_game_does(args: list[str], columns: str) -> None:
    """The game's screen reads 'win, level after count-back, loss' (level where a group match's
    draw is); the knockout tables read 'win, loss, level', the JSON's order. The tables now follow
    the game and a group match; the JSON keeps its documented order."""
    shown = runner.invoke(app, ["odds", *args, "--knockout"], env={"COLUMNS": columns})
    assert shown.exit_code == 0, shown.output
    table = shown.output.split("level: the same points")[0].replace("win + level/2", "")  # the ranking's column
    words = re.findall(r"\b(win|level|loss)\b", table)
    assert words[:3] == ["win", "level", "loss"], shown.output
    data = _json(*args, "--knockout")
    chances = data["splits"][0] if "splits" in data else data  # type: ignore[index]
    assert [key for key in chances if key in ("win", "loss", "level")] == ["win", "loss", "level"]


def test_best_split_json_ranks_every_split() -> None:
    data = _json("--best-split", "9", "--vs-force", "9", "--vs-flair", "0")
    assert set(data) == {"rules", "splits"} and data["rules"] == "group"
    splits = data["splits"]
    assert isinstance(splits, list)
    assert sorted((s["force"], s["flair"]) for s in splits) == [(0, 9), (3, 6), (6, 3), (9, 0)]
    shares = [s["win"] + s["draw"] / 2 for s in splits]
    assert shares == sorted(shares, reverse=True)
    assert set(splits[0]) == {"force", "flair", "win", "draw", "loss", "tail_bound"}


def test_best_split_knockout_json() -> None:
    data = _json("--best-split", "6", "--vs-force", "3", "--vs-flair", "3", "--knockout")
    assert data["rules"] == "knockout"
    splits = data["splits"]
    assert isinstance(splits, list)
    assert set(splits[0]) == {"force", "flair", "win", "loss", "level", "tail_bound"}
    shares = [s["win"] + s["level"] / 2 for s in splits]
    assert shares == sorted(shares, reverse=True)


def test_human_output_has_tables_and_histogram() -> None:
    result = runner.invoke(app, ["odds", "--force", "0", "--flair", "3"])
    assert result.exit_code == 0
    assert "61/15" in result.stdout
    assert "█" in result.stdout
    result = runner.invoke(app, ["odds", "--force", "30", "--flair", "30", "--vs-force", "60", "--vs-flair", "0",
                                    "--knockout"])
    assert result.exit_code == 0
    assert "level" in result.stdout and "count-back" in result.stdout
    result = runner.invoke(app, ["odds", "--best-split", "12", "--vs-force", "6", "--vs-flair", "6"])
    assert result.exit_code == 0
    assert "best first" in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        # It said "FORCE points cannot be negative, got -3" and not what to write instead.
        (["--force", "-3", "--flair", "3"], "R3: --force takes the SCRUM points spent on FORCE, 0 or more, got -3"),
        (["--force", "3", "--vs-flair", "-6"], "R3: --vs-flair takes the SCRUM points spent on FLAIR, 0 or more, got -6"),
        (["--force", "1.5", "--flair", "3"], "R3"),
        (["--force", "ten"], "R3"),
        (["--force", "0", "--flair", "4"], "R3"),
        (["--force", str(MAX_ORDER_POINTS + 1)], "R3"),
        (["--force", "3", "--vs-force", "3", "--vs-flair", "5"], "R3"),
        (["--best-split", "12"], "--vs-force"),
        (["--best-split", "-3", "--vs-force", "3"], "R3: --best-split takes the total of SCRUM points to split, 0 or more, got -3"),
        (["--best-split", str(MAX_ORDER_POINTS + 3), "--vs-force", "3"], "R3"),
        (["--best-split", "12", "--force", "3", "--vs-force", "3"], "not both"),
        (["--force", "3", "--knockout"], "--vs-force"),
        ([], "--force"),
    ],
)
def test_bad_input_is_one_line_naming_the_problem(args: list[str], needle: str) -> None:
    """Bad input exits non-zero with one line on stderr, never a traceback."""
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
    assert needle in lines[0]
    assert "Traceback" not in result.output


def test_solve_prints_the_optimal_mixes_and_the_value() -> None:
    """Issue 5: `sevens odds --solve A B [--knockout] [--json]` prints the optimal mixed splits and the value."""
    from sevens.odds import match_payoff, solve_match
    from sevens.rules import Order

    data = _json("--solve", "12", "12")
    assert data["rules"] == "group"
    assert abs(float(data["value"]) - 0.5) < 1e-8  # a symmetric game is worth a half to each side
    for side in ("a", "b"):
        mix = data[side]["mix"]  # type: ignore[index]
        assert abs(sum(m["probability"] for m in mix) - 1) < 1e-9
    # The printed mix for A guarantees the value against every pure split of B.
    solution = solve_match(20, 9)
    for k in range(0, 10, 3):
        b = Order(9 - k, k)
        guaranteed = sum(p * match_payoff(a, b) for a, p in solution.mix_a.support)
        assert guaranteed >= solution.value - 1e-7
    knockout = _json("--solve", "9", "6", "--knockout")
    assert knockout["rules"] == "knockout"
    human = runner.invoke(app, ["odds", "--solve", "30", "10"])
    assert human.exit_code == 0 and "value to A" in human.output
    assert _json("--solve", "30,10") == _json("--solve", "30", "10") == _json("--solve", "30,", "10")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--solve", "12", "x"], "whole number"),
        (["--solve", "12", "12", "--force", "3"], "--solve A B stands alone"),
        (["--solve", "-3", "12"], "R3"),
        (["--solve", "30"], "--solve takes two budgets, A and B: write --solve 30 10 or --solve 30,10, not --solve 30"),
        (["--solve", "30,10,5"], "write --solve 30 10 or --solve 30,10, not --solve 30,10,5"),
        (["--solve", "30", "10", "5"], "not --solve 30 10 5"),
        # An empty budget, quoted as typed: it read "not --solve 10", as if B alone had been given.
        (["--solve", "", "10"], "not --solve '' 10\n"),
        (["--solve", "30", ""], "not --solve 30 ''\n"),
        # Given twice, the second's A took the first's place ("not --solve 5 10 5", never typed).
        (["--solve", "30", "10", "--solve", "5", "5"], "--solve is given once, with two budgets: --solve 30 10 or --solve 30,10"),
        (["--solve", "30,10", "--solve", "5,5"], "--solve is given once, with two budgets"),
        # A comma doubled, or one at an end, was read past ("30,,10" as 30 10): a figure may be lost there.
        (["--solve", "30,,10"], "error: --solve takes two budgets, A and B, parted by one comma or by spaces; in '30,,10', "
         "',,' is two separators with no number between them (a figure may have been lost there): write --solve 30,10 "
         "if those are the budgets you meant\n"),
        (["--solve", "30,", ",10"], "in '30, ,10', ', ,' is two separators"),
        (["--solve", "30,10,"], "in '30,10,', the last character, ',', has no number after it"),
        (["--solve", ",30", "10"], "in ',30 10', the first character, ',', has no number before it (a figure may have "
         "been lost there): write --solve '30 10' if"),
        (["--force", "3", "7"], "unexpected '7'"),
        # Past 4,300 digits int() gave Python's advice to call sys.set_int_max_str_digits().
        (["--solve", "9" * 5000, "3"], "R3: --solve is too large (5000 digits): an order has at most 160 SCRUM points"),
        (["--force", "9" * 5000], "R3: --force is too large (5000 digits)"),
        (["--best-split", "-" + "9" * 5000, "--vs-force", "3"], "R3: --best-split is too large (5000 digits)"),
        (["--force", "3", "--vs-flair", "1234567"], "R3: --vs-flair is too large (7 digits)"),
        # An option mistyped: named as such, with the nearest one, also where --solve would take it for budget B.
        (["--force", "3", "--jsn"], "error: sevens odds has no option --jsn; did you mean --json? (see sevens odds --help)"),
        (["--solve", "30", "10", "--jsn"], "error: sevens odds has no option --jsn; did you mean --json?"),
        (["--force", "3", "--vs-froce=3"], "error: sevens odds has no option --vs-froce; did you mean --vs-force?"),
        (["--force", "3", "--zzz"], "error: sevens odds has no option --zzz (see sevens odds --help)"),
        # FORCE and FLAIR in capitals, as the rules write them: --FORCE got no suggestion at all.
        (["--FORCE", "3"], "error: sevens odds has no option --FORCE; did you mean --force? (see sevens odds --help)"),
        (["--force", "3", "--VS-FLAIR=3"], "error: sevens odds has no option --VS-FLAIR; did you mean --vs-flair?"),
        # A negative budget B that is not whole is still B, not an option ("no option -1.5" was said).
        (["--solve", "30", "-1.5"], "R3: --solve takes a whole number of SCRUM points, such as 12, got '-1.5'"),
        (["--solve", "30", "-"], "R3: --solve takes a whole number of SCRUM points, such as 12, got '-'"),
        # A long paste is quoted by its first 40 characters and its length, not cut without a word.
        (["--force", "q" * 100], f"--force takes a whole number of SCRUM points, such as 12, got '{'q' * 40}'... (100 characters)"),
    ],
)
def test_solve_refuses_bad_input_in_one_line(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code != 0
    assert says in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("given", "meant"),
    [
        (["--force", "10", "--flair", "9", "--vs-force", "5"], ["--force", "10", "--flair", "9", "--vs-force", "5", "--vs-flair", "0"]),
        (["--force", "10", "--flair", "9", "--vs-flair", "3"], ["--force", "10", "--flair", "9", "--vs-force", "0", "--vs-flair", "3"]),
        (["--force", "6", "--vs-force", "5", "--knockout"], ["--force", "6", "--flair", "0", "--vs-force", "5", "--vs-flair", "0", "--knockout"]),
        (["--best-split", "30", "--vs-force", "15"], ["--best-split", "30", "--vs-force", "15", "--vs-flair", "0"]),
        (["--best-split", "12", "--vs-flair", "6"], ["--best-split", "12", "--vs-force", "0", "--vs-flair", "6"]),
    ],
)
def test_either_side_of_the_opponent_alone_means_an_opponent_the_other_part_0(given: list[str], meant: list[str]) -> None:
    data = _json(*given)
    assert data == _json(*meant)
    assert "splits" in data or ("vs" in data and "win" in data)


@pytest.mark.parametrize(
    ("args", "counted"),
    [
        (["--force", "0", "--flair", "3", "--vs-force", "3"], ""),
        (["--best-split", "9", "--vs-force", "3", "--vs-flair", "3"], "the ranking counts it as half a win"),
        (["--solve", "6", "3"], "the value counts it as half a win"),
    ],
)
def test_knockout_output_says_what_level_means(args: list[str], counted: str) -> None:
    """'level' (13% for one option against 3 FORCE dice) is what count-back leaves to the group
    record and lots; the output says so, and how the ranking or value counts it."""
    knockout = runner.invoke(app, ["odds", *args, "--knockout"], env={"COLUMNS": "200"})
    group = runner.invoke(app, ["odds", *args], env={"COLUMNS": "200"})
    assert knockout.exit_code == 0 and group.exit_code == 0
    assert "level: the same points, tries, conversions and drop goals" in knockout.output
    assert "better group record, then lots" in knockout.output and counted in knockout.output
    assert "level:" not in group.output


@pytest.mark.parametrize(
    ("args", "titled"),
    [
        (["--force", "0", "--flair", "3", "--vs-force", "3", "--knockout"], "3 FORCE + 0 FLAIR: knockout, after count-back (R9)"),
        (["--best-split", "9", "--vs-force", "3", "--vs-flair", "3", "--knockout"], "knockout (R9) rules, best first"),
        (["--solve", "6", "3", "--knockout"], "Solved match, knockout (R9) rules"),
        (["--help"], "then drop goals (count-back, R9)."),
    ],
)
def test_the_knockout_is_spelt_as_everywhere_else(args: list[str], titled: str) -> None:
    """The odds tables and --help said "knock-out" where the rules, the docs, the web and sevens
    play say "knockout" (and the option is --knockout)."""
    result = runner.invoke(app, ["odds", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    shown = " ".join(result.output.replace("│", " ").split())
    assert titled in shown, shown
    assert "knock-out" not in shown.lower()


def _row(output: str, first: str) -> list[str]:
    """The cells of the table row whose first cell is ``first``."""
    for line in output.splitlines():
        cells = [cell.strip() for cell in line.strip("│ ").split("│")]
        if cells and cells[0] == first:
            return cells
    raise AssertionError(f"no row {first!r} in\n{output}")


def test_human_output_never_rounds_what_can_happen_to_0_or_1() -> None:
    """Issue: 90 FORCE dice against one FLAIR option printed win 1.000000, draw 0.000000, loss 0.000000,
    and the histogram of one option printed 0.0000 both for 22 points (2.9e-05) and for 1 point
    (impossible). A player could not tell a long shot from no chance at all."""
    single = runner.invoke(app, ["odds", "--force", "0", "--flair", "3"], env={"COLUMNS": "120"})
    assert single.exit_code == 0
    assert _row(single.stdout, "22")[1] == "0.000029"
    assert _row(single.stdout, "1")[1] == "0"  # 1 point cannot be scored
    assert _row(single.stdout, "P(no points)")[1] == "0.312500  (= 5/16)"
    match = runner.invoke(app, ["odds", "--force", "90", "--vs-flair", "3"], env={"COLUMNS": "120"})
    assert match.exit_code == 0
    lines = match.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if "win" in line and "draw" in line)
    win, draw, loss = [cell.strip() for cell in lines[header + 2].strip("│ ").split("│")]
    assert win == ">0.999999"
    assert float(draw) > 0 and float(loss) > 0 and "e-" in loss
    splits = runner.invoke(app, ["odds", "--best-split", "40", "--vs-force", "1"], env={"COLUMNS": "120"})
    assert _row(splits.stdout, "1")[-1] == "0.99999964"  # win + draw/2, as many decimals as tell the splits apart


@pytest.mark.parametrize("args", [["--best-split", "40", "--vs-flair", "3"], ["--best-split", "40", "--vs-force", "1"],
                                  ["--best-split", "40", "--vs-flair", "3", "--knockout"],
                                  ["--best-split", "2", "--vs-force", "160"]])
def test_the_ranking_never_shows_two_splits_equal_that_differ(args: list[str]) -> None:
    """Issue: against one FLAIR option, 40 FORCE and 37 FORCE + 3 FLAIR both showed win + draw/2 0.999970
    (and four splits 0.999969), ranked apart by a difference the table hid. The ranking's column takes
    more decimals where six would hide a difference larger than the two splits' tail bounds."""
    from sevens.odds import best_splits

    total = int(args[1])
    vs = (int(args[3]), 0) if args[2] == "--vs-force" else (0, int(args[3]))
    ranked = best_splits(total, vs, knockout="--knockout" in args)
    shown = runner.invoke(app, ["odds", *args], env={"COLUMNS": "120"})
    assert shown.exit_code == 0
    figures = [_row(shown.stdout, str(rank))[-1] for rank in range(1, len(ranked) + 1)]
    for i in range(len(ranked) - 1):
        a, b = ranked[i], ranked[i + 1]
        if a.share - b.share > a.odds.tail_bound + b.odds.tail_bound:
            assert figures[i] != figures[i + 1], shown.stdout
    for split, figure in zip(ranked, figures, strict=True):
        assert figure not in ("0", "1") and abs(float(figure.lstrip(">")) - split.share) <= 1e-6


def test_a_long_shot_keeps_two_figures() -> None:
    """30 FLAIR score nothing with chance 8.88e-06, which six decimals printed as 0.000009: one figure,
    a tenth out. Below 1e-05 a chance is printed in scientific form, with two."""
    single = runner.invoke(app, ["odds", "--force", "0", "--flair", "30"], env={"COLUMNS": "120"})
    assert single.exit_code == 0
    assert _row(single.stdout, "P(no points)")[1] == "8.9e-06"


def test_every_figure_the_original_quotes_is_printed() -> None:
    """The original ends with three figures (docs/original-figures.md, docs/odds.md): doubles multiply a
    FLAIR option's expected score by 1.2, 3 FLAIR expect "about 3.97" (61/15 in fact), 3 FORCE net 4.00,
    and FLAIR takes a greater share of its points from tries. Issue: the 1.2 (6/5 throws an option)
    and the try shares (40/61 against 5/8) were printed by no command."""
    flair = runner.invoke(app, ["odds", "--force", "0", "--flair", "3"], env={"COLUMNS": "120"})
    force = runner.invoke(app, ["odds", "--force", "3", "--flair", "0"], env={"COLUMNS": "120"})
    assert _row(flair.stdout, "expected points")[1] == "4.0667  (= 61/15)"
    assert _row(flair.stdout, "expected FLAIR throws")[1].startswith("1.2000  (= 6/5")
    assert _row(flair.stdout, "share of points from tries")[1] == "0.6557  (= 40/61)"
    assert _row(force.stdout, "expected points")[1] == "4.0000  (= 4)"
    assert _row(force.stdout, "share of points from tries")[1] == "0.6250  (= 5/8)"
    assert "expected FLAIR throws" not in force.stdout
    assert _row(flair.stdout, "standard deviation")[1] == "3.6332  (variance 66/5)"
    assert _row(force.stdout, "P(no points)")[1] == "0.296296  (= 8/27)"
    data = _json("--force", "0", "--flair", "3")
    assert (data["expected_flair_throws"], data["expected_flair_throws_exact"]) == (1.2, "6/5")


def test_a_long_count_back_says_so_first() -> None:
    """Issue: --best-split 160 --knockout ran 10 s (and 17 s, 2.5 GB before the bounded cache) and
    --solve 160 160 --knockout 20 s with nothing on the screen. From a budget of 100 stderr says what
    is being worked out and how long it may take; the JSON on stdout stays one object."""
    result = runner.invoke(app, ["odds", "--best-split", "100", "--vs-force", "1", "--knockout", "--json"])
    assert result.exit_code == 0
    assert "working out count-back (R9) for 35 orders" in result.stderr
    assert json.loads(result.stdout)["splits"]
    small = runner.invoke(app, ["odds", "--best-split", "30", "--vs-force", "1", "--knockout"])
    assert small.exit_code == 0 and small.stderr == ""
    group = runner.invoke(app, ["odds", "--best-split", "160", "--vs-force", "1"])
    assert group.exit_code == 0 and group.stderr == ""  # points alone: under a second


def test_a_stderr_that_cannot_take_the_note_on_a_long_count_back_loses_no_results(tmp_path: Path) -> None:
    """The note that a long count-back is being worked out is only a note: with stderr on a device
    that takes nothing (/dev/full), the command ended there with status 1 and printed no results."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    with open("/dev/full", "wb") as full:
        run = subprocess.run(
            [sys.executable, "-m", "sevens", "odds", "--best-split", "100", "--vs-force", "1", "--knockout", "--json"],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=full, text=True, timeout=600, check=False,
        )
    assert run.returncode == 0
    assert len(json.loads(run.stdout)["splits"]) == 34  # FLAIR 0, 3, ..., 99


def test_the_rules_page_distribution_table_is_what_json_exact_prints() -> None:
    """docs/original-figures.md tabulates one FLAIR option's chances, 0 to 30 points, as fractions and
    six decimals; `sevens odds --flair 3 --json --exact` prints each of them (odds.md says so)."""
    import re
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "original-figures.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| (\d+/\d+) \| ([\d.]+) \|$", page, flags=re.MULTILINE)
    assert len(rows) == 28  # 0 to 30 points but 1, 2 and 4
    exact = _json("--flair", "3", "--exact")["distribution_exact"]
    assert isinstance(exact, list)
    printed = dict(exact)
    for points, fraction, decimals in rows:
        assert printed[int(points)] == fraction, points
        assert abs(float(Fraction(fraction)) - float(decimals)) < 5e-7, points


_CHANCE = re.compile(r"0|1|0\.[0-9]{6}|>0\.999999|[1-9]\.[0-9]e-[0-9]{2}")


def _histogram(output: str) -> list[tuple[str, str, str]]:
    """(points, probability, bar) of every row of the histogram."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "points" in line and "probability" in line)
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("│"):
            break
        points, figure, bar = (cell.strip() for cell in line.strip("│").split("│"))
        rows.append((points, figure, bar))
    return rows


@pytest.mark.parametrize("columns", [60, 80, 200])
@pytest.mark.parametrize(("force", "flair"), [(10, 9), (0, 3), (1, 159)])
def test_the_histogram_prints_its_chances_as_the_tables_do_and_whole_bars_at_any_width(
    columns: int, force: int, flair: int
) -> None:
    """The histogram printed its chances to 4 decimals, switching to 2.9e-05 where the match tables
    print 0.000029, and P(no points) as a float of any length (0.000529221); at 60 columns its bars,
    40 wide, were cut short with an ellipsis, so that the three highest bins looked the same."""
    result = runner.invoke(app, ["odds", "--force", str(force), "--flair", str(flair)], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= columns
    rows = _histogram(result.stdout)
    assert all(_CHANCE.fullmatch(figure) for _, figure, _ in rows), rows
    assert _CHANCE.fullmatch(_row(result.stdout, "P(no points)")[1].split("  (=")[0])
    # Each bar as long as its chance makes it, the highest bin's the longest.
    chances = [float(figure.lstrip(">")) for _, figure, _ in rows]
    bars = [len(bar) for _, _, bar in rows]
    peak = max(chances)
    assert bars[chances.index(peak)] == max(bars) >= 10
    assert all(abs(bar - max(bars) * p / peak) <= 1 for bar, p in zip(bars, chances, strict=True))


def test_the_histogram_sums_what_json_lists() -> None:
    """Each bin's chance is the chance of its totals in --json's distribution, the first and last bin
    taking the tails."""
    data = _json("--force", "10", "--flair", "9")
    listed = {points: p for points, p in data["distribution"]}  # type: ignore[union-attr]
    result = runner.invoke(app, ["odds", "--force", "10", "--flair", "9"], env={"COLUMNS": "100"})
    rows = _histogram(result.stdout)
    for k, (label, figure, _) in enumerate(rows):
        low, _, high = label.lstrip("<>=").partition("-")
        first, last = int(low), int(high or low)
        if k == 0:
            first = 0
        if k == len(rows) - 1:
            last = max(listed)
        mass = sum(p for points, p in listed.items() if first <= points <= last)
        if k == len(rows) - 1:
            mass += data["rest"]["p"]  # type: ignore[index]
        assert figure == f"{mass:.6f}", (label, figure, mass)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--flair", "10"], "error: R3: FLAIR points must be a multiple of 3 (one option per 3 points); got 10, try 9 or 12 "
                            "(--flair 10)"),
        (["--force", "200"], "error: R3: an order of 200 points is more than any team can ever hold (160: 100 to start plus "
                             "10 for each of six wins) (--force 200)"),
        (["--force", "3", "--vs-flair", "10"], "error: R3: FLAIR points must be a multiple of 3 (one option per 3 points); "
                                               "got 10, try 9 or 12 (--vs-flair 10)"),
        (["--best-split", "9", "--vs-force", "+170"], "error: R3: an order of 170 points is more than any team can ever hold "
                                                      "(160: 100 to start plus 10 for each of six wins) (--vs-force 170)"),
        (["--solve", "30", "10", "--force", "3"], "error: --solve A B stands alone, working out both sides' splits itself: "
                                                  "drop --force 3"),
        (["--vs-flair", "6", "--solve", "30,10", "--best-split", "9"],
         "error: --solve A B stands alone, working out both sides' splits itself: drop --vs-flair 6 --best-split 9"),
        (["--best-split", "9", "--flair", "3", "--vs-force", "9"], "error: give either --flair 3 (one order) or "
                                                                   "--best-split 9 (every split of it), not both"),
        (["--best-split", "9", "--vs-force", "9", "--json", "--exact"],
         "error: --exact is for one order or a match (--force/--flair, --vs-*): --best-split gives no distribution"),
        (["--solve", "9", "9", "--json", "--exact"],
         "error: --exact is for one order or a match (--force/--flair, --vs-*): --solve gives no distribution"),
        (["--vs-flair", "3", "--knockout"], "error: --vs-flair 3 is the opponent's order; add yours, --force F --flair K "
                                            "(either alone: the other is 0), or --best-split TOTAL to rank every split of "
                                            "a total against it"),
    ],
)
def test_a_refusal_names_only_the_options_typed(args: list[str], line: str) -> None:
    """Issue: `sevens odds --flair 10` answered "... (--force 0 --flair 10)", naming a --force nobody
    typed, and the refusals of combinations named every option of a kind ("drop --force/--flair/--vs-*/
    --best-split", "--solve and --best-split give no distribution") whatever was given. Each now
    echoes what was typed (a number as it was read: +170 is 170), and a lone opponent is named as such."""
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [line]


@pytest.mark.parametrize("budgets", [("30", "10"), ("9", "9"), ("60", "3"), ("3", "0")])
def test_the_solved_match_never_prints_less_error_than_its_bound(budgets: tuple[str, str]) -> None:
    """Issue: `--solve 30 10` printed "(within 1e-10)" for an error bound of 1.18e-10 (one figure,
    rounded down), claiming more accuracy than the solution has. It prints 1.2e-10 now: two figures,
    rounded up, at least the bound --json gives."""
    bound = _json("--solve", *budgets)["error_bound"]
    assert isinstance(bound, float) and bound > 0
    shown = runner.invoke(app, ["odds", "--solve", *budgets], env={"COLUMNS": "200"})
    assert shown.exit_code == 0
    found = re.search(r"\(within (\S+)\)", shown.stdout)
    assert found is not None, shown.stdout
    assert bound <= float(found[1]) <= bound * 1.1


@pytest.mark.parametrize("args", [["0", "0"], ["30", "10"], ["30", "10", "--knockout"], ["160", "0"]])
@pytest.mark.parametrize("columns", ["40", "80"])
def test_the_solved_value_starts_its_line_as_the_note_under_it_does(args: list[str], columns: str) -> None:
    """Issue: the value line was centred under the table: three spaces in at --solve 0 0, four with
    --knockout (above a note that starts at the margin), none at --solve 30 10, as its length fell."""
    shown = runner.invoke(app, ["odds", "--solve", *args], env={"COLUMNS": columns})
    assert shown.exit_code == 0
    assert any(line.startswith("value to A (win + ") for line in shown.stdout.splitlines()), shown.stdout


@pytest.mark.parametrize("columns", [24, 30, 34])
def test_a_narrow_terminal_shows_the_solved_match_whole(columns: int) -> None:
    """Issue: at 30 columns the solved match's headers were cut to 'FOR…' and 'pro…'. The cells lose
    their padding instead, and below that each side's split stands on a line of its own."""
    shown = runner.invoke(app, ["odds", "--solve", "30", "10"], env={"COLUMNS": str(columns)})
    assert shown.exit_code == 0
    assert "…" not in shown.stdout, shown.stdout
    text = " ".join(shown.stdout.replace("│", " ").replace("┃", " ").split())
    assert "FORCE FLAIR probability" in text or "A: 6 FORCE + 24 FLAIR, probability 1" in text, shown.stdout
    assert "0.982625 (within 1.2e-10)" in text


def test_a_solved_match_with_nothing_cut_says_it_is_exact() -> None:
    """`--solve 0 0` printed "(within 0e+00)"."""
    shown = runner.invoke(app, ["odds", "--solve", "0", "0"])
    assert shown.exit_code == 0
    assert "value to A (win + draw/2): 0.500000 (exact)" in shown.stdout


@pytest.mark.parametrize("args", [["--best-split", "9", "--vs-flair", "30", "--knockout"],
                                  ["--best-split", "30", "--vs-flair", "3"]])
def test_the_splits_table_shows_every_chance_whole_at_60_columns(args: list[str]) -> None:
    """Issue: at 60 columns (the width the histogram is drawn for) every chance of --best-split's
    table was cut to '0.012…' or '0.000…', which reads as nothing at all. The cells lose their
    padding instead, and each chance shows as --json's figure does."""
    from sevens.cli.odds import chance

    splits = _json(*args)["splits"]
    assert isinstance(splits, list)
    shown = runner.invoke(app, ["odds", *args], env={"COLUMNS": "60"})
    assert shown.exit_code == 0
    lines = shown.stdout.splitlines()
    assert "…" not in shown.stdout and max(len(line) for line in lines) <= 60
    for rank, split in enumerate(splits, start=1):
        figures = [str(rank), str(split["force"]), str(split["flair"]),
                   *(chance(split[key]) for key in ("win", "draw", "level", "loss") if key in split)]
        rows = [[cell.strip() for cell in line.strip("│").split("│")] for line in lines if line.startswith("│")]
        assert [figures] == [row[: len(figures)] for row in rows if row[0] == str(rank)], shown.stdout


@pytest.mark.parametrize("columns", [40, 50])
@pytest.mark.parametrize("args", [["--best-split", "9", "--vs-flair", "30", "--knockout"],
                                  ["--best-split", "40", "--vs-force", "1"]])
def test_below_56_columns_each_split_is_listed_with_every_chance_whole_and_named(args: list[str], columns: int) -> None:
    """At 40 columns even the unpadded splits table cut every chance to '0.99…' and '3.6…' and the
    last header to 'dra…'. Each split now starts a line of its own, its chances after it, each
    after its name as --json names it."""
    from sevens.cli.odds import chance

    splits = _json(*args)["splits"]
    assert isinstance(splits, list)
    shown = runner.invoke(app, ["odds", *args], env={"COLUMNS": str(columns)})
    assert shown.exit_code == 0
    assert "…" not in shown.stdout and max(len(line) for line in shown.stdout.splitlines()) <= columns
    text = " ".join(shown.stdout.split())
    share = "win + level/2" if "--knockout" in args else "win + draw/2"
    for rank, split in enumerate(splits, start=1):
        named = ", ".join(f"{key} {chance(split[key])}" for key in ("win", "draw", "level", "loss") if key in split)
        said = f"{rank}. {split['force']} FORCE + {split['flair']} FLAIR: {share} "
        assert re.search(re.escape(said) + r"[>\d][^ ;]*; " + re.escape(named), text), shown.stdout


@pytest.mark.parametrize("columns", [24, 30, 34])
@pytest.mark.parametrize("args", [["--force", "10", "--flair", "9", "--vs-flair", "30", "--knockout"],
                                  ["--force", "90", "--vs-flair", "3"]])
def test_a_narrow_terminal_shows_every_chance_of_a_match_whole(args: list[str], columns: int) -> None:
    """Issue: at 30 columns the match table cut its chances to '0.1448…', '0.854…' and '0.0003…'.
    The cells lose their padding instead, and below that each chance stands on a line with its name."""
    from sevens.cli.odds import chance

    found = _json(*args)
    shown = runner.invoke(app, ["odds", *args], env={"COLUMNS": str(columns)})
    assert shown.exit_code == 0
    assert "…" not in shown.stdout, shown.stdout
    keys = ["win", "level", "loss"] if "--knockout" in args else ["win", "draw", "loss"]
    lines = shown.stdout.splitlines()
    last = max(i for i, line in enumerate(lines) if "tail bound" in line)  # the opponent's table ends there
    text = " ".join(lines[last + 1 :]).replace("│", " ").replace("┃", " ")
    figures = [chance(float(str(found[key]))) for key in keys]
    assert re.search(r"\s+".join(map(re.escape, keys)) + r"\s.*?" + r"\s+".join(map(re.escape, figures)), text) or all(
        re.search(re.escape(key) + r"\s+" + re.escape(figure), text) for key, figure in zip(keys, figures, strict=True)
    ), shown.stdout


def test_at_40_columns_each_figure_of_an_order_keeps_its_fraction_on_its_line() -> None:
    """At 40 columns the order's table broke '25.5333  (=' from '383/15)' and '0.000529  (=' from
    '125/236196)'. Without its frame the table leaves the values the room to stay whole."""
    shown = runner.invoke(app, ["odds", "--force", "10", "--flair", "9"], env={"COLUMNS": "40"})
    assert shown.exit_code == 0
    assert "…" not in shown.stdout and max(len(line) for line in shown.stdout.splitlines()) <= 40
    for value in ("25.5333 (= 383/15)", "8.8594 (variance 3532/45)", "0.000529 (= 125/236196)", "3.2667 (= 49/15)"):
        assert any(line.rstrip().endswith(value) for line in shown.stdout.splitlines()), shown.stdout


@pytest.mark.parametrize("columns", [16, 20, 24, 30, 36])
@pytest.mark.parametrize(("force", "flair"), [(10, 9), (1, 159), (0, 0)])
def test_a_narrow_terminal_shows_every_figure_of_an_order_and_every_bin_whole(columns: int, force: int, flair: int) -> None:
    """Below 37 columns the histogram kept its bars 10 wide and rich cut every chance to '0.00…' (at 30
    columns) or left the points and chances out altogether (at 20); below about 26 the order's table cut
    '(variance' and '125/236196)'. The cells lose their padding and the bars shrink instead, and narrower
    still each bin and each figure is a line of its own, under a title whose words stay whole (one bin's
    line alone, '0 points: 1', first broke it to 'distributio' and 'n of points')."""
    from sevens.cli.odds import chance, histogram_rows
    from sevens.odds import order_odds

    shown = runner.invoke(app, ["odds", "--force", str(force), "--flair", str(flair)], env={"COLUMNS": str(columns)})
    assert shown.exit_code == 0, shown.output
    assert "…" not in shown.stdout, shown.stdout
    assert max(len(line) for line in shown.stdout.splitlines()) <= columns
    words = shown.stdout.replace("│", " ").replace("┃", " ").split()
    assert {"distribution", "of", "points", "FORCE", "FLAIR"} <= set(words), shown.stdout
    odds = order_odds(force, flair)
    # Every bin's label and chance, in order, each whole.
    after = words.index("points", words.index("distribution"))
    text = " ".join(words[after:])
    at = 0
    for label, p in histogram_rows(odds):
        found = re.compile(rf"(?<!\S){re.escape(label)}(?: points:)?\s+{re.escape(chance(p))}(?!\S)").search(text, at)
        assert found, (label, chance(p), shown.stdout)
        at = found.end()
    for figure in (f"{odds.expected_points:.4f}", f"{odds.expected_points_exact})", f"{odds.variance_exact})",
                   f"{float(odds.expected.tries):.4f}"):
        assert figure in words, (figure, shown.stdout)


@pytest.mark.parametrize("args", [["--force", "3", "--", "--json"], ["--solve", "3", "--", "3", "--json"],
                                  ["--", "--solve=3,3"]])
def test_an_option_after_a_double_dash_is_said_to_be_after_it(args: list[str]) -> None:
    """'--force 3 -- --json' said "sevens odds has no option --json; did you mean --json?"."""
    shown = runner.invoke(app, ["odds", *args])
    assert shown.exit_code == 2
    word = args[-1]
    assert shown.stderr == (f"error: {word} comes after --, which makes every word after it no option: put it before "
                            "the --, or leave the -- out (see sevens odds --help)\n")


@pytest.mark.parametrize(("args", "key", "value"), [
    (["--force", "0000160"], "force", 160),
    (["--force", "-0000000", "--flair", "+0000009"], "flair", 9),
    (["--force", "0" * 5000 + "3"], "force", 3),
])
def test_leading_zeros_are_no_size(args: list[str], key: str, value: int) -> None:
    """A script's zero-padded 160 ('0000160') was refused: "--force is too large (7 digits): an order has at
    most 160 SCRUM points"; 5,000 zeros before a 3, as more than 4,300 digits."""
    assert _json(*args)[key] == value


@pytest.mark.parametrize("knockout", [[], ["--knockout"]])
def test_best_split_json_gives_each_splits_tail_bound_as_the_match_json_does(knockout: list[str]) -> None:
    """A program reading --best-split's JSON had the chances of each split but not how far they may be
    from the true ones, which a match's JSON gives (tail_bound) and by which the table tells two splits
    apart: each split's is the match's own against the same order."""
    splits = _json("--best-split", "9", "--vs-force", "3", "--vs-flair", "3", *knockout)["splits"]
    assert isinstance(splits, list)
    for split in splits:
        match = _json("--force", str(split["force"]), "--flair", str(split["flair"]), "--vs-force", "3",
                      "--vs-flair", "3", *knockout)
        assert split["tail_bound"] == match["tail_bound"] > 0


@pytest.mark.parametrize("args", [["odds", "--force", "3", "--flair", "3"], ["odds", "--help"],
                                  ["odds", "--best-split", "6", "--vs-force", "3"]])
def test_a_width_of_zero_columns_is_no_width(args: list[str]) -> None:
    """COLUMNS=0 (set by some shells and CI runners where there is no terminal) printed nothing at all,
    tables and help alike, with status 0: rich took it for zero columns. The command is run as a process,
    as the shell starts it, so that it reads its own environment."""
    def run(columns: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "COLUMNS": columns, "PYTHONPATH": os.pathsep.join(sys.path)}
        return subprocess.run([sys.executable, "-m", "sevens", *args], capture_output=True, text=True, env=env,
                              timeout=60, check=False)

    shown, wide = run("0"), run("80")  # no terminal here: 80 columns is what is left
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == wide.stdout and shown.stdout.strip()


def test_help_shows_an_example_of_each_kind_of_question_and_each_example_runs() -> None:
    # --help named every option but showed none in use.
    shown = runner.invoke(app, ["odds", "--help"], terminal_width=200).stdout
    examples = [line.strip().split("   (")[0] for line in shown.splitlines() if line.strip().startswith("sevens odds ")]
    used = " ".join(examples)
    for option in ("--force", "--vs-flair", "--knockout", "--best-split", "--solve", "--fractions", "--csv", "--json",
                   "--every-split"):
        assert option in used, option
    for example in examples:
        words = example.replace("[", "").replace("]", "").replace(" | --json", "").split()[2:]
        result = runner.invoke(app, ["odds", *words])
        assert result.exit_code == 0, (example, result.output)
