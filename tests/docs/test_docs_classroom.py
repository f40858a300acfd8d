"""docs/classroom.md's figures in prose are what sevens odds prints (its console blocks are run by
test_docs_commands.py): the sums it asks students to do must come out as the command says."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from sevens.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
PAGE = " ".join((ROOT / "docs" / "classroom.md").read_text(encoding="utf-8").split())


def _odds(*args: str) -> str:
    result = CliRunner().invoke(app, ["odds", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_order_sums_are_what_the_order_table_prints() -> None:
    said = re.search(r"(\d+) FORCE \+ (\d+) FLAIR expects [^=]*= (\d+/\d+), with variance [^=]*= (\d+/\d+)", PAGE)
    assert said, "docs/classroom.md no longer adds up an order's mean and variance"
    out = _odds("--force", said.group(1), "--flair", said.group(2))
    assert f"(= {said.group(3)})" in out and f"(variance {said.group(4)})" in out


def test_the_hand_worked_mean_is_the_distributions() -> None:
    said = re.search(r"check the mean as the sum of points times chance \(([^)]*) = (\d+/\d+)\)", PAGE)
    assert said, "docs/classroom.md no longer works out a mean by hand"
    terms = [term.split("·") for term in said.group(1).split(" + ")]
    assert sum((int(points) * Fraction(chance) for points, chance in terms), Fraction(0)) == Fraction(said.group(2))
    assert re.search(rf"│ mean\s+│\s+{said.group(2)} │", _odds("--force", "2", "--distribution"))


def test_the_match_sentence_names_the_printed_fractions() -> None:
    said = re.search(r"FLAIR wins a little more often here \((\d+/\d+) against (\d+/\d+)\)", PAGE)
    assert said, "docs/classroom.md no longer compares the two chances"
    out = _odds("--force", "3", "--vs-flair", "3", "--fractions")
    loss = re.search(r"loss\s+│\s+(\d+/\d+)", out)
    win = re.search(r"win\s+│\s+(\d+/\d+)", out)
    assert loss and win and (loss.group(1), win.group(1)) == said.groups()
    assert Fraction(said.group(1)) > Fraction(said.group(2))


def test_the_knockout_sentence_shares_out_the_group_draw_as_printed() -> None:
    said = re.search(r"count-back only shares out its draw \((\d+/\d+)\): (\d+/\d+) of it to FORCE on tries, "
                     r"(\d+/\d+) to FLAIR on drop goals .*?and the rest, (\d+/\d+), stays level", PAGE)
    assert said, "docs/classroom.md no longer shares out the knockout match's draw"
    draw, tries, drops, level = (Fraction(x) for x in said.groups())
    assert tries + drops + level == draw
    group = _odds("--force", "3", "--vs-flair", "3", "--fractions", "--csv")
    assert f"draw,'{said.group(1)}," in group  # a fraction after an apostrophe, not a date to a spreadsheet
    knockout = _odds("--force", "3", "--vs-flair", "3", "--fractions", "--knockout", "--csv")
    for row in (f"win on tries,'{said.group(2)},", f"loss on drop goals,'{said.group(3)},", f"level,'{said.group(4)},"):
        assert row in knockout
