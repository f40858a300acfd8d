"""The pages that list the keys of a machine-readable output list exactly the keys it has.

docs/odds.md's "JSON, key by key" (and docs/strategy.md's for ``sevens lab --json``): each section names a command on a line of its own and a table
whose first column holds the keys (dotted for nested ones, ``[]`` for each element of a list), or
"the keys of SECTION" for every key another section lists. The command is run and the keys it
prints must be those, no more and no fewer: a key renamed, added or dropped without the page fails.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sevens.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


Sections = dict[str, tuple[str, list[tuple[str, str]]]]


def sections(page: str, start: str, end: str | None = None) -> Sections:
    """Each ``###`` section between two ``##`` headings: its command and its table's rows (the key
    cell and the meaning)."""
    text = page[page.index(start):page.index(end) if end else None]
    found: Sections = {}
    for part in re.split(r"^### ", text, flags=re.M)[1:]:
        title, _, body = part.partition("\n")
        command = re.search(r"^`(sevens [^`]+)`", body, flags=re.M)
        assert command, f"section {title!r} names no command on a line of its own"
        rows = [(line.split("|")[1].strip(), line.split("|")[2].strip()) for line in body.splitlines()
                if line.startswith("| ") and not line.startswith(("| key ", "| ---"))]
        found[title.strip()] = (command.group(1), rows)
    return found


def documented(name: str, found: Sections, command: str) -> set[str]:
    """The keys ``command`` should print by section ``name``: a row "only with `--exact`" counts
    only where the command has that option."""
    keys: set[str] = set()
    for cell, meaning in found[name][1]:
        only = re.match(r"only with `([^`]+)`", meaning)
        if only and only.group(1) not in shlex.split(command):
            continue
        if cell.startswith("the keys of "):
            keys |= documented(cell.removeprefix("the keys of "), found, command)
        else:
            listed = re.findall(r"`([^`]+)`", cell)
            assert listed, f"{name}: a row names no key: {cell!r}"
            keys.update(listed)
    return keys


def flattened(data: Any, wanted: set[str], prefix: str = "") -> set[str]:
    """The keys of ``data``, going into a nested object (or a list of them) only where the page
    lists keys inside it: an object the page calls a whole (``vs``: an order) stays one key."""
    keys: set[str] = set()
    for key, value in data.items():
        name = prefix + key
        inside = [w for w in wanted if w.startswith((name + ".", name + "[]."))]
        if isinstance(value, dict) and inside:
            keys |= flattened(value, wanted, name + ".")
        elif isinstance(value, list) and inside:
            assert value and all(isinstance(v, dict) for v in value), name
            for element in value:
                keys |= flattened(element, wanted, name + "[].")
        else:
            keys.add(name)
    return keys


def printed(command: str) -> Any:
    words = shlex.split(command)
    assert words[0] == "sevens"
    result = runner.invoke(app, words[1:])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


ODDS = sections((ROOT / "docs" / "odds.md").read_text(encoding="utf-8"), "## JSON, key by key", "## Bad input")


def test_the_odds_page_lists_every_json_it_prints() -> None:
    # Every --json of sevens odds has a section: one order, a match, a knockout one, best split,
    # solve and the five lesson options (two for --fractions --knockout).
    assert len(ODDS) == 12, list(ODDS)


@pytest.mark.parametrize("name", list(ODDS))
def test_each_odds_json_has_the_keys_its_section_lists(name: str) -> None:
    command, _ = ODDS[name]
    wanted = documented(name, ODDS, command)
    data = printed(command)
    assert flattened(data, wanted) == wanted, (name, command)


STANDINGS = sections((ROOT / "docs" / "standings.md").read_text(encoding="utf-8"), "## `sevens table FILE`")


def test_the_standings_page_lists_every_key_of_sevens_table_json(tmp_path: Path) -> None:
    # A complete group of six 0-0 draws: every team level after head-to-head, so lots decide
    # and the lots' keys are printed too.
    teams = ["fiji", "samoa", "tonga", "wales"]
    nil = {"tries": 0, "conversions": 0, "penalties": 0, "drop_goals": 0}
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"teams": teams, "matches": [
        {"home": a, "away": b, "home_line": nil, "away_line": nil} for i, a in enumerate(teams) for b in teams[i + 1:]]}))
    (name, (command, _)), = STANDINGS.items()
    wanted = documented(name, STANDINGS, command)
    data = printed(command.replace("results.json", str(results)))
    assert data["lots"], data
    assert flattened(data, wanted) == wanted


GUIDE = (ROOT / "docs" / "strategy.md").read_text(encoding="utf-8")
LAB = sections(GUIDE, "## The JSON output", "## The CSV output")


def test_the_strategy_guide_lists_every_key_of_sevens_lab_json() -> None:
    # The run's settings, the code and strategies that played it, and each count with its interval:
    # what a paper needs to report the run and to play it again.
    (name, (command, _)), = LAB.items()
    wanted = documented(name, LAB, command)
    data = printed(command)
    assert {"sevens.source_digest", "command", "sources[].file_sha256", "results[].titles.count"} <= wanted
    assert flattened(data, wanted) == wanted


LAB_CSV = sections(GUIDE, "## The CSV output", "## How the lab works")


def test_the_strategy_guide_lists_every_column_of_sevens_lab_csv_in_order() -> None:
    """The CSV's header against the guide's table of its columns, in their order: a column added,
    renamed or moved without the page fails."""
    (name, (command, rows)), = LAB_CSV.items()
    words = shlex.split(command)
    result = runner.invoke(app, words[1:])
    assert result.exit_code == 0, result.output
    header = result.stdout.split("\n")[0].split(",")
    listed = [column for cell, _ in rows for column in re.findall(r"`([^`]+)`", cell)]
    assert {"titles_ci95_low", "group_points_ci95_high", "seed", "command"} <= set(listed)
    assert listed == header, (name, command)
