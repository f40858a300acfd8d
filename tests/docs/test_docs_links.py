"""Every link and picture in README.md and docs/*.md leads somewhere: the file is there and so is the
heading an anchor names; and every file of the project a page names in backquotes exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _prose(page: Path) -> str:
    """The page without its code blocks (a link in a code block is code, not a link)."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def _slug(heading: str) -> str:
    """The anchor GitHub makes of a heading: lower case, punctuation dropped, spaces made hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} (.+)$", _prose(page), re.M):
        slug = _slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def test_slugs_are_githubs() -> None:
    assert _slug("Play a game in the terminal: `sevens play`") == "play-a-game-in-the-terminal-sevens-play"
    assert _slug("The strategies and what they assume") == "the-strategies-and-what-they-assume"


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_links_and_pictures_resolve(page: Path) -> None:
    broken = []
    for target in LINK.findall(_prose(page)):
        if re.match(r"[a-z]+:", target):
            continue  # a web address: not checked offline
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}")
        elif anchor and anchor not in anchors(file):
            broken.append(f"{target}: {file.name} has no heading with the anchor #{anchor}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_files_named_in_backquotes_exist(page: Path) -> None:
    """`tests/odds/test_odds_exact.py`, `schema/game-record.schema.json`, `benchmarks/load.py`: a path
    of the project that a page names must be there (relative to the project, or to the package)."""
    missing = []
    for name in re.findall(r"`((?:src|tests|docs|schema|scripts|benchmarks|sevens)/[\w./-]+)`",
                           page.read_text(encoding="utf-8")):
        if not ((ROOT / name).exists() or (ROOT / "src" / name).exists()):
            missing.append(name)
    assert not missing, f"{page.relative_to(ROOT)} names files that are not there: {missing}"


def _test_functions() -> set[str]:
    return {name for path in (ROOT / "tests").rglob("test_*.py")
            for name in re.findall(r"^(?:async )?def (test_\w+)", path.read_text(encoding="utf-8"), re.M)}


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_tests_named_in_backquotes_exist(page: Path) -> None:
    """`test_rate_limit_holds_across_two_server_workers`: a test a page cites as its evidence is
    still there under that name (a file, `test_crash.py`, and a prefix, `test_r14_*`, aside)."""
    named = re.findall(r"`(?:[\w/.]+::)?(test_\w+)(?![\w.*])", page.read_text(encoding="utf-8"))
    missing = sorted(set(named) - _test_functions())
    assert not missing, f"{page.relative_to(ROOT)} names tests that are not there: {missing}"


def test_the_rules_page_leads_to_every_other_page() -> None:
    """docs/rules.md ends with where to read more: a row for every other page of docs/ (it had none
    for odds.md and cli.md), so that a page added later is not left out."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text[text.index("## Where to read more"):]
    listed = set(re.findall(r"^\| `([\w-]+\.md)` \|", table, re.M))
    pages = {page.name for page in (ROOT / "docs").glob("*.md")} - {"rules.md"}
    assert listed == pages, f"docs/rules.md's last table lacks {sorted(pages - listed)}, names {sorted(listed - pages)}"


PICTURES = sorted(path for folder in ("screenshots", "images") for path in (ROOT / "docs" / folder).iterdir())


def _pictures_shown() -> set[Path]:
    return {(page.parent / target).resolve() for page in PAGES
            for target in re.findall(r"!\[[^\]]*\]\(([^)\s#]+)\)", _prose(page))}


@pytest.mark.parametrize("picture", PICTURES, ids=[str(p.relative_to(ROOT)) for p in PICTURES])
def test_every_picture_is_shown_by_a_page(picture: Path) -> None:
    """A file of docs/screenshots or docs/images that no page of README.md and docs/ shows is a
    picture nobody sees, kept up to date for nothing (or left behind by a page that stopped
    showing it); one shown but missing fails test_links_and_pictures_resolve."""
    assert picture.resolve() in _pictures_shown(), f"{picture.relative_to(ROOT)} is shown by no page: show it or remove it"


SCREENSHOTS = sorted((ROOT / "docs" / "screenshots").glob("*.png"))


@pytest.mark.parametrize("picture", SCREENSHOTS, ids=[p.name for p in SCREENSHOTS])
def test_every_screenshot_is_written_by_a_browser_test(picture: Path) -> None:
    """Each screenshot is remade by a browser test (``shot(page, "name")``, or a path under
    SCREENSHOTS), so it follows the page it shows; one no test writes goes stale unseen."""
    written = set()
    for test in (ROOT / "tests" / "browser").glob("*.py"):
        text = test.read_text(encoding="utf-8")
        written |= set(re.findall(r"""shot\(\w+, ["']([\w-]+)["'][,)]""", text))
        written |= {Path(name).stem for name in re.findall(r"""SCREENSHOTS / ["']([\w.-]+)["']""", text)}
    assert picture.stem in written, f"docs/screenshots/{picture.name} is written by no test in tests/browser"


@pytest.mark.parametrize("picture", SCREENSHOTS, ids=[p.name for p in SCREENSHOTS])
def test_no_screenshot_ends_in_blank_page(picture: Path) -> None:
    """A screenshot taken in a window much taller than its page ends in a blank band (the verify
    page's was blank below its middle): its lowest fifth shows something. The big screen's are
    of the whole television it fills, space to spare and all."""
    from PIL import Image

    if picture.name.startswith("big-screen"):
        pytest.skip("the television's whole screen, as the room sees it")

    with Image.open(picture) as image:
        rgb = image.convert("RGB")
        width, height = rgb.size
        band = rgb.crop((0, height - height // 5, width, height))
        assert len(band.getcolors(maxcolors=1 << 16) or [0, 0]) > 1, f"{picture.name}: its lowest fifth is blank"
