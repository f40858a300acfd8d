"""Every ``sevens NAME`` the guides name in running text is a command ``sevens`` has: the operator's
part of docs/web.md told of a ``sevens backup`` that does not exist (``sevens export`` backs up)."""

from __future__ import annotations

import re
from pathlib import Path

from sevens.cli.main import command

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_COMMANDS = {
    ("cli.md", "ply"): "the misspelt command whose refusal the page shows",
    ("web.md", "stopped"): "the server's last log line, `sevens stopped cleanly on SIGTERM`",
}


def test_every_sevens_command_the_docs_name_exists() -> None:
    known = set(command().commands)
    named = {
        (page.name, name)
        for page in PAGES
        for name in re.findall(r"`sevens ([a-z][a-z-]*)\b", page.read_text(encoding="utf-8"))
    }
    assert named, "the pages name no sevens command"
    assert sorted(pair for pair in named if pair[1] not in known and pair not in NOT_COMMANDS) == []
