"""Names written right to left on the pages, in real Chromium: where two names people chose meet in
one line (a player's page: "<game>: <player>'s teams", and its title), each sits apart from the
words around it (<bdi> in the text, isolates in the title), so the two are never read swapped."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser.browser_helpers import CHROMIUM, create_game, visit

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (scripts/setup-system)"
    ),
]

GAME, DAN = "ליגה", "דני"  # Hebrew: league, Dan
VIEWPORT = {"width": 1000, "height": 800}

LEFT_OF = """(element, word) => {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(word);
    if (at >= 0) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + word.length);
      return range.getBoundingClientRect().left;
    }
  }
  return null;
}"""


def _join(chromium: Any, link: str, name: str) -> Any:
    from playwright.sync_api import expect

    page = chromium.new_context(viewport=VIEWPORT).new_page()
    page.set_default_timeout(15000)
    visit(page, link)
    page.fill("input[name=name]", name)
    page.click("#join button[type=submit]")
    expect(page).to_have_url(re.compile(r"/play"))
    return page


def test_names_written_right_to_left_keep_their_places_in_the_text(server: str, chromium: Any) -> None:
    from playwright.sync_api import expect

    organiser, organise, invites = create_game(chromium, server, GAME, viewport=VIEWPORT, arrangement="4-8-2", hours="24")
    dan = _join(chromium, invites[0], DAN)
    visit(organiser, organise)
    organiser.click("#start button")
    expect(organiser.locator("#order-states")).to_be_visible()
    play = organise.removesuffix("/organise") + "/play"
    visit(dan, play)
    # "<game>: <player>'s teams": the game's name first, at the left, as the words say.
    heading = dan.locator("h1")
    expect(heading).to_have_text(f"{GAME}: {DAN}'s teams")
    game_at = heading.evaluate(LEFT_OF, GAME)
    dan_at = heading.evaluate(LEFT_OF, DAN)
    assert game_at is not None and dan_at is not None and game_at < dan_at, (game_at, dan_at)
    assert dan.title() == f"\u2068{DAN}\u2069 · \u2068{GAME}\u2069 · Sevens"
