"""docs/rules-coverage.md names, for every rule, the test that fails when the rule is broken: each
test it names must exist, or the page points a reader at nothing (a test renamed or removed)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
DEFINED = re.compile(r"^(?:async )?def (test_\w+)\(", re.M)


def _defined_tests() -> set[str]:
    return {
        name
        for path in (ROOT / "tests").rglob("test_*.py")
        for name in DEFINED.findall(path.read_text(encoding="utf-8"))
    }


def test_every_test_the_page_names_exists() -> None:
    defined = _defined_tests()
    named = set(re.findall(r"`(?:[\w/.]+::)?(test_\w+?)(\*)?`", PAGE))
    assert len(named) > 40, "the page names its tests in backquotes"
    missing = sorted(name for name, star in named if not star and name not in defined)
    # `test_r9_*` stands for every test of that stem: at least one must exist.
    empty = sorted(
        f"{name}*" for name, star in named if star and not any(d.startswith(name) for d in defined)
    )
    assert not missing and not empty, (
        f"docs/rules-coverage.md names tests that do not exist: {missing + empty}"
    )


def test_every_case_the_page_names_is_a_case_of_the_standings_tests() -> None:
    cases = set(
        re.findall(
            r'^    "(\w+)": Case\(',
            (ROOT / "tests/tournament/test_standings.py").read_text(encoding="utf-8"),
            re.M,
        )
    )
    named = {name for name in re.findall(r"`(\w+)`", PAGE) if "_" in name and not name.startswith("test_")}
    said = {name for name in named if name in cases or name.startswith(("head_to_head", "lots_", "partial_"))}
    assert said and said <= cases, f"not a case of test_standings.py: {sorted(said - cases)}"


def test_the_winners_10_is_cited_as_r4() -> None:
    """The 10 SCRUM a winner gains are R4 (the original's paragraph 2). strategy.md once cited them as
    R2, which is the rule on doubles: a reader who looked it up found nothing about the 10."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    ten = re.compile(r"(?:10 SCRUM|\+10|gains? 10|winner's 10)[^.()]{0,40}?[(,]?\s*(?:of |, )?\b(R\d+)\b")
    cited = [(page.name, rule) for page in pages for rule in ten.findall(page.read_text(encoding="utf-8"))]
    assert len(cited) >= 3, cited
    assert all(rule == "R4" for _, rule in cited), cited
