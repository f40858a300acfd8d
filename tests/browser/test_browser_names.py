"""Names written right to left on the pages, in real Chromium: where two names people chose meet in
one line (a player's page: "<game>: <player>'s teams", and its title), each sits apart from the
words around it (<bdi> in the text, isolates in the title), so the two are never read swapped."""

from __future__ import annotations

import re
from typing import Any

from browser.browser_helpers import create_game, visit

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
    assert dan.title().endswith(f" · \u2068{DAN}\u2069 · \u2068{GAME}\u2069 · Sevens"), dan.title()


ANN = "آنا"  # Arabic: Anna
NAMES = (GAME, DAN, ANN)

SET_APART = """(names) => {
  // Every text holding a chosen name: the element around it must hold that name alone and set it
  // apart (unicode-bidi: isolate, as <bdi> does; Chromium gives a heading or a paragraph isolate
  // too, which is why the name must be all it holds), and the first letter after it on its
  // line must stand to its right (after it in an English sentence), not pulled to its left.
  const bad = [], seen = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const box = node.parentElement;
    if (!box || box.closest("textarea, script, [hidden]") || !box.getClientRects().length) continue;
    for (const name of names) {
      if (!node.data.includes(name)) continue;
      const style = getComputedStyle(box);
      if (!style.unicodeBidi.includes("isolate") || box.textContent !== node.data || node.data.trim() !== name) {
        bad.push(name + " bare in <" + box.tagName.toLowerCase() + ">: " + box.parentElement.textContent.trim().slice(0, 80));
        continue;
      }
      seen.push(name);
      const own = box.getBoundingClientRect();
      const after = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      after.currentNode = box.lastChild || box;
      for (let next = after.nextNode(); next; next = after.nextNode()) {
        if (box.contains(next)) continue;
        const at = next.data.search(/\\S/);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(next, at);
        range.setEnd(next, at + 1);
        const letter = range.getBoundingClientRect();
        if (letter.width && Math.abs(letter.top - own.top) < own.height / 2 && letter.left < own.right - 1) {
          bad.push(name + ": '" + next.data.trim().slice(0, 20) + "' drawn before it");
        }
        break;
      }
    }
  }
  return {bad, seen};
}"""


def _set_apart(page: Any, what: str) -> list[str]:
    """The names ``page`` shows, each checked set apart (the test fails on the first that is not)."""
    found = page.evaluate(SET_APART, list(NAMES))
    assert found["bad"] == [], (what, found["bad"])
    return list(found["seen"])


def test_every_page_sets_the_names_apart_in_chromium(server: str, chromium: Any) -> None:
    """The game's name in Hebrew and two players' in Hebrew and Arabic, on each kind of page: the
    created page, the organiser's (lobby, running), the invite, the front page, the player's with
    its list of who has ordered, the spectator's with tables, bracket and match reports once a turn
    is played, and the verify page. Each name is drawn in an element of its own that sets it apart,
    and what follows it on its line is drawn after it; the titles hold it between isolates."""
    from playwright.sync_api import expect

    organiser, organise, invites = create_game(chromium, server, GAME, viewport=VIEWPORT, arrangement="4-8-2", hours="24")
    shown = {"created": _set_apart(organiser, "created")}
    ann = _join(chromium, invites[0], ANN)
    dan = _join(chromium, invites[1], DAN)
    visit(organiser, organise)
    shown["organiser, lobby"] = _set_apart(organiser, "organiser, lobby")
    assert organiser.title().endswith(f" · Organise \u2068{GAME}\u2069 · Sevens"), organiser.title()
    # What a screen reader is given: the heading's name as written, <bdi> adds no character to it
    # (the title keeps its isolates: invisible, and no element can go there).
    assert organiser.locator("h1").aria_snapshot() == f'- heading "Organise {GAME}" [level=1]'
    stranger = chromium.new_context(viewport=VIEWPORT).new_page()
    visit(stranger, invites[2])
    shown["invite"] = _set_apart(stranger, "invite")
    assert stranger.title() == f"Join \u2068{GAME}\u2069 · Sevens"
    visit(ann, server + "/")
    shown["front page"] = _set_apart(ann, "front page")
    organiser.click("#start button")
    expect(organiser.locator("#order-states")).to_be_visible()
    shown["organiser, running"] = _set_apart(organiser, "organiser, running")
    play = organise.removesuffix("/organise") + "/play"
    visit(dan, play)
    expect(dan.locator("#who-ordered-list")).to_be_visible()
    shown["player"] = _set_apart(dan, "player")
    organiser.click("#resolve button")
    expect(organiser.locator("#done")).to_be_visible()
    game_page = organise.removesuffix("/organise")
    visit(organiser, game_page)
    expect(organiser.locator("#standings, .standings, table").first).to_be_visible()
    shown["spectator"] = _set_apart(organiser, "spectator")
    assert organiser.title().endswith(f" · \u2068{GAME}\u2069 · Sevens"), organiser.title()
    visit(organiser, game_page + "/verify")
    shown["verify"] = _set_apart(organiser, "verify")
    # Each page showed the names it should: a page that lost them would pass the check above.
    assert all(GAME in names for names in shown.values()), shown
    assert {ANN, DAN} <= set(shown["organiser, lobby"]) and {ANN, DAN} <= set(shown["organiser, running"]), shown
    assert ANN in shown["player"] and DAN in shown["player"], shown  # the heading, and Ann in who has ordered
    assert ANN in shown["spectator"] and DAN in shown["spectator"], shown  # the teams' managers


SHOWN = [
    "Jose\u0301",
    "\U0001f1eb\U0001f1ef\U0001f1eb\U0001f1ef\U0001f1eb",  # two flags and a lone regional indicator
    "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466 Lee",  # a family
    "\U0001f44d\U0001f3fd\u2764\ufe0f1\ufe0f\u20e3",  # a skin tone, a heart as emoji, a keycap
    "\U0001f3f3\ufe0f\u200d\U0001f308",  # the rainbow flag
    "\U0001f3f4\U000e0067\U000e0062\U000e0077\U000e006c\U000e0073\U000e007f Cymru",  # Wales: tags
    "\u1112\u1161\u11ab\ud55c\uad6d",  # 한 typed as jamo, then 한국 composed
    "\u0915\u094d\u0937\u0924\u094d\u0930\u093f\u092f",  # क्षत्रिय: Devanagari conjuncts
    "\u0928\u092e\u0938\u094d\u0924\u0947",  # नमस्ते
    "\u0e01\u0e34\u0e19 \u0e19\u0e49\u0e33",  # Thai: vowel and tone marks
    "Nguy\u1ec5n Z\u0336\u0336\u0336",
    "\u0410\u043d\u043d\u0430 \u039d\u03af\u03ba\u03bf\u03c2 \u0622\u0646\u0627 \u05d3\u05e0\u05d9",
    "a\u200db\u200cc",  # joiners between letters
    "\U0001f1eb\U0001f1ef\u200d\U0001f468",  # a flag is no emoji a joiner binds to the next
    "20\u00b0\u200d\U0001f525 \u00a9\u200d\u200d\u00a9",  # nor is a degree sign; two joiners bind nothing
    "\U0001f3fd\u200d\U0001f468 \u2764\u0e33\u200d\U0001f469",  # a lone skin tone; a spacing vowel between
    "\u0915\u094d\u0905 \u0915\u094d\u200c\u0937 \u0937\u094d\u200d\u0930",  # a vowel after a virama; ZWNJ; ZWJ
    "\u1112\u094d\u1112 \u0930\u093f\u094d\u0930",  # a virama of another script; one after a spacing mark
]


def test_a_name_is_counted_as_chromium_cuts_it_into_characters(chromium: Any) -> None:
    """The server counts a name in characters as shown (sevens.tournament.names.graphemes, written
    for the text a name may hold): it cuts each of these as Chromium's Intl.Segmenter does."""
    from sevens.tournament.names import graphemes

    page = chromium.new_context().new_page()
    cut = page.evaluate(
        "texts => texts.map(t => Array.from(new Intl.Segmenter('en', {granularity: 'grapheme'}).segment(t), s => s.segment))",
        SHOWN,
    )
    assert [graphemes(text) for text in SHOWN] == cut


def test_the_join_box_takes_the_longest_name_the_server_takes(server: str, chromium: Any) -> None:
    """A name of 22 family emoji is 22 characters and 154 code points, which the server takes,
    but 242 UTF-16 units: the box stopped at 160 units and cut it, so the name typed was not the
    name joined. Forty flags likewise, for the game's name box."""
    from playwright.sync_api import expect

    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466" * 22
    _, _, invites = create_game(chromium, server, "\U0001f1eb\U0001f1ef" * 80, viewport=VIEWPORT, arrangement="4-8-2", hours="24")
    page = chromium.new_context(viewport=VIEWPORT).new_page()
    visit(page, invites[0])
    page.fill("input[name=name]", family)
    assert page.input_value("input[name=name]") == family
    page.click("#join button[type=submit]")
    expect(page).to_have_url(re.compile(r"/play"))
    expect(page.locator("h1")).to_contain_text(family)


def test_the_name_boxes_count_characters_as_shown_and_say_when_a_name_is_too_long(server: str, chromium: Any) -> None:
    """The boxes stop at twice the server's code points in UTF-16 units, so a person typing emoji
    could not tell when they passed 40 characters. Each name box counts as a reader sees them (a flag
    is one), says so politely once typing stops, says 'too long' past the cap, and still sends: the
    server judges."""
    from playwright.sync_api import expect

    flag = "\U0001f1eb\U0001f1ef"
    page = chromium.new_context(viewport=VIEWPORT).new_page()
    visit(page, server + "/")
    game_count = page.locator("#create-game-name-count")
    expect(game_count).to_have_text("13 of 80 characters")  # Friday sevens
    _, _, invites = create_game(chromium, server, "Counted", viewport=VIEWPORT, arrangement="4-8-2", hours="24")
    page = chromium.new_context(viewport=VIEWPORT).new_page()
    visit(page, invites[0])
    box = page.locator("#join-name")
    count = page.locator("#join-name-count")
    assert "join-name-count" in (box.get_attribute("aria-describedby") or "").split()
    box.fill(flag * 40)
    expect(count).to_have_text("40 of 40 characters")
    box.fill("Jose\u0301 " + flag * 36)  # an accent on its letter is one character too
    expect(count).to_have_text("41 of 40 characters: too long")
    said = page.locator("#join [aria-live=polite]")
    expect(said).to_have_text("41 of 40 characters: too long")  # once typing pauses
    expect(count).to_have_css("color", "rgb(164, 22, 26)")
    page.click("#join button[type=submit]")  # not held back: the server says what is wrong
    expect(page.locator("#join-error")).to_contain_text("40")
    assert page.input_value("#join-name") == "Jose\u0301 " + flag * 36


def test_the_live_count_leaves_out_a_zero_width_space_as_the_server_does(server: str, chromium: Any) -> None:
    """A Thai name parts its words with zero width spaces, which show nothing: the box counted each
    ("47 of 40 characters: too long" for a name of 40 as seen), and so did the server. Both count
    what is seen now, and the name joins."""
    from playwright.sync_api import expect

    name = "\u200b".join(["\u0e2a\u0e21\u0e0a\u0e32\u0e22"] * 8)  # 40 characters as seen
    _, _, invites = create_game(chromium, server, "Counted Thai", viewport=VIEWPORT, arrangement="4-8-2", hours="24")
    page = chromium.new_context(viewport=VIEWPORT).new_page()
    visit(page, invites[0])
    page.locator("#join-name").fill(name + "\u0e01")
    expect(page.locator("#join-name-count")).to_have_text("41 of 40 characters: too long")
    page.locator("#join-name").fill(name)
    expect(page.locator("#join-name-count")).to_have_text("40 of 40 characters")
    page.click("#join button[type=submit]")
    expect(page).to_have_url(re.compile(r"/play"))
    expect(page.locator("h1")).to_contain_text(name)
    page.context.close()
