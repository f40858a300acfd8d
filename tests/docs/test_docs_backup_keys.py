"""docs/backup.md lists exactly the keys a backup has: `sevens export` of a real database holding
games at every stage is run as each section of "Keys" says, and every key of the files written
must be in its table, and every key of its table in the files (a key added without docs fails)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from test_docs_json_keys import Sections, documented, sections
from typer.testing import CliRunner

from backup_games import play_every_stage
from reliability.helpers import database
from sevens.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "backup.md").read_text(encoding="utf-8")


def typed_sections(page: str, start: str) -> Sections:
    """The sections as :func:`sections` reads them, from tables whose second column is the key's
    JSON type and whose third is its meaning; every key must name its type."""
    found = sections(page, start)
    for title, (command, rows) in found.items():
        part = page[page.index(f"### {title}\n"):]
        cells = [[c.strip() for c in line.split("|")[1:4]] for line in part.splitlines()
                 if line.startswith("| ") and not line.startswith(("| key ", "| ---"))][: len(rows)]
        for key, kind, _ in cells:
            assert kind or key.startswith("the keys of "), f"{title}: {key} names no type"
        found[title] = (command, [(key, meaning) for key, _, meaning in cells])
    return found


BACKUP = typed_sections(PAGE, "## Keys")


def listed(name: str, command: str) -> set[str]:
    """The keys section ``name`` gives the backup ``command`` writes: a row "only with `--full`"
    counts only with that option, one "not with `--full`" only without it."""
    words = shlex.split(command)
    dropped = {re.findall(r"`([^`]+)`", key)[0] for _, rows in BACKUP.values() for key, meaning in rows
               if (never := re.search(r"not with `([^`]+)`", meaning)) and never.group(1) in words}
    return documented(name, BACKUP, command) - dropped


def keys_of(data: Any, wanted: set[str], prefix: str = "") -> set[str]:
    """Every key of ``data`` by its path, and inside an object (or each element of a list) where
    the page lists keys inside it; over all elements, so a key found in any of them counts."""
    found: set[str] = set()
    for key, value in data.items():
        name = prefix + key
        found.add(name)  # a list or object is a key of its own too, as its row says what it holds
        inside = any(w.startswith((name + ".", name + "[].")) for w in wanted)
        if isinstance(value, dict) and inside:
            found |= keys_of(value, wanted, name + ".")
        elif isinstance(value, list) and inside:
            for element in value:
                found |= keys_of(element, wanted, name + "[].")
    return found


def export(command: str, url: str, into: Path) -> list[dict[str, Any]]:
    """Run the section's command against the database; the documents it wrote."""
    words = shlex.split(command)
    target = into / words[-1]
    result = CliRunner().invoke(app, [*words[1:-1], "--database-url", url, f"{target}{'/' if words[-1].endswith('/') else ''}"])
    assert result.exit_code == 0, result.output
    files = sorted(target.glob("*.json")) if target.is_dir() else [target]
    return [json.loads(file.read_text(encoding="utf-8")) for file in files]


def test_the_page_has_a_section_per_kind_of_backup() -> None:
    assert list(BACKUP) == ["Shareable export", "Full backup", "Full backup in a folder"]


@pytest.mark.parametrize("name", list(BACKUP))
def test_each_backup_has_the_keys_its_section_lists(name: str, tmp_path: Path) -> None:
    command, _ = BACKUP[name]
    wanted = listed(name, command)
    with database("sqlite", tmp_path) as (url, engine):
        play_every_stage(engine)
        documents = export(command, url, tmp_path)
    found = set().union(*(keys_of(document, wanted) for document in documents))
    assert sorted(found - wanted) == [], f"{name}: keys in the backup that docs/backup.md does not list"
    assert sorted(wanted - found) == [], f"{name}: keys docs/backup.md lists that the backup does not have"
