"""What a friend who does not play sees of a 16-team game from its shared link, on a phone: the
bracket leading to each match's report, who goes through each group, the final standing, and a page
that says how fresh it is while it follows the game (task spectator1)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from browser.browser_helpers import on_screen, shown_lines, visit

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _game(server: str, *, seats: int = 0) -> tuple[str, list[str]]:
    """A public 16-team game made and started through the API, ``seats`` of its seats taken (their
    bearer tokens returned): with none, the bots play it all at once."""
    with httpx.Client(base_url=server, timeout=60) as api:
        made = api.post("/api/v1/games", json={"name": "Sixteen nations", "players": 16, "teams": 16, "teams_per_player": 1})
        made.raise_for_status()
        game = made.json()["game"]
        tokens = []
        for number, invite in enumerate(list(made.json()["invites"].values())[:seats], start=1):
            joined = api.post("/api/v1/join", json={"invite": invite, "name": f"Fan {number}"})
            joined.raise_for_status()
            tokens.append(joined.json()["token"])
        api.post(f"/api/v1/games/{game}/start", headers={"Authorization": f"Bearer {made.json()['token']}"}).raise_for_status()
    return game, tokens


def test_each_played_match_in_the_bracket_leads_to_its_report(server: str, chromium: Any) -> None:
    """The bracket gave each knockout's result as plain text: to see its dice and how a level match
    was decided, a spectator had to scroll through every turn's reports to find it. Each result is
    now a link to that match's report, on the same page, reachable by Tab alone."""
    from playwright.sync_api import expect

    game, _ = _game(server)
    page = chromium.new_context(**PHONE).new_page()
    visit(page, f"{server}/games/{game}")
    expect(page.locator("#champion")).to_be_visible()
    results = page.locator("section.bracket .round a")
    expect(results).to_have_count(7)  # 4 quarter-finals, 2 semi-finals, the final
    final = page.locator("section.bracket .round").nth(2).locator("a")
    expect(final).to_have_attribute("href", "#match-t6-m1")
    final.focus()
    page.keyboard.press("Enter")
    assert page.url.endswith("#match-t6-m1")
    report = page.locator("#match-t6-m1")
    expect(report).to_be_in_viewport()
    champion = page.locator("#champion").inner_text()
    expect(report.locator("h4")).to_contain_text(f"{champion} win")
    # Every link names a report that is on the page.
    for href in results.evaluate_all("links => links.map(a => a.getAttribute('href'))"):
        expect(page.locator(href)).to_have_count(1)


def test_a_finished_game_shows_its_final_standing(server: str, chromium: Any) -> None:
    """The finished game named its champion and nothing else of the end: who was runner-up, how far
    each team went, had to be worked out from the bracket and four tables. The page now has a final
    standing (1 the champion, 2 the runner-up, then 3-4, 5-8, 9-12, 13-16 shared), each team with
    how far it went, readable on a phone."""
    from playwright.sync_api import expect

    game, _ = _game(server)
    page = chromium.new_context(**PHONE).new_page()
    visit(page, f"{server}/games/{game}")
    champion = page.locator("#champion").inner_text()
    rows = page.locator("#standing tbody tr")
    expect(rows).to_have_count(16)
    # As the screen shows them (a shared place is said "3 to 4" to screen readers as well).
    places = [on_screen(rows.nth(i).locator("td").first) for i in range(16)]
    assert places == ["1", "2"] + ["3-4"] * 2 + ["5-8"] * 4 + ["9-12"] * 4 + ["13-16"] * 4
    expect(rows.first.locator("th")).to_have_text(champion)
    expect(rows.first).to_contain_text("Champion: won the final against")
    expect(rows.nth(1)).to_contain_text("Runner-up: lost the final to " + champion)
    expect(rows.nth(2)).to_contain_text("Out in the semi-final: lost to")
    expect(rows.nth(15)).to_contain_text("Out after the groups: 4th in group D.")
    # Nothing of it is wider than the phone, and no team's name is split inside a word.
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    # Lines are the distinct tops of the name's boxes: a name that links to the team's page has a box
    # for the link and one for its text on the same line.
    lines = ("th => { const text = document.createRange(); text.selectNodeContents(th); "
             "return new Set(Array.from(text.getClientRects(), box => Math.round(box.top))).size; }")
    for name in rows.locator("th").all():
        assert name.evaluate(lines) <= len(name.inner_text().split()), f"{name.inner_text()!r} is split inside a word"


def test_each_group_table_says_who_goes_through(server: str, chromium: Any) -> None:
    """The group tables ranked the teams but never said that the top two go on, nor, once the
    group was played, who did: a spectator had to know the format. Under each table a line now
    says so, by name once the group is over, matching its top two and the quarter-finals."""
    from playwright.sync_api import expect

    running, _ = _game(server, seats=1)
    page = chromium.new_context(**PHONE).new_page()
    visit(page, f"{server}/games/{running}")
    for letter in "ABCD":
        expect(page.locator(f"#through-{letter}")).to_have_text("The top two go through to the quarter-finals.")
    game, _ = _game(server)
    visit(page, f"{server}/games/{game}")
    quarter_finalists = set()
    for match in page.locator("section.bracket .round").first.locator("li").all():
        quarter_finalists.update(shown_lines(match)[0].split(" v "))
    for letter in "ABCD":
        table = page.locator(f"#group-{letter} tbody th")
        first, second = table.nth(0).inner_text(), table.nth(1).inner_text()
        expect(page.locator(f"#through-{letter}")).to_have_text(f"Through to the quarter-finals: {first} and {second}.")
        assert {first, second} <= quarter_finalists
    assert len(quarter_finalists) == 8


def test_a_page_following_the_game_says_when_it_was_last_up_to_date(server: str, chromium: Any) -> None:
    """A spectator's page follows the game by itself, but said nothing of it: a page that had lost
    the server (a laptop woken from sleep) looked just as current as one that had checked a second
    ago. It now says when it last found the game as shown, a time its script moves on at every
    check, and the page reloaded at the turn's resolution says so afresh."""
    from playwright.sync_api import expect

    game, (token,) = _game(server, seats=1)
    page = chromium.new_context(**PHONE).new_page()
    visit(page, f"{server}/games/{game}")
    stamp = page.locator("#as-of")
    expect(stamp).to_be_visible()
    first = stamp.get_attribute("datetime")
    expect(stamp).not_to_have_attribute("datetime", first or "", timeout=15000)  # checked every second here
    # The one seat taken orders: the turn is resolved, and the page reloads itself at turn 2.
    with httpx.Client(base_url=server, timeout=60) as api:
        auth = {"Authorization": f"Bearer {token}"}
        (waiting,) = api.get("/api/v1/waiting", headers=auth).json()
        for team in waiting["teams"]:
            api.put(f"/api/v1/games/{game}/orders/{team}", headers=auth, json={"turn": 1, "force": 10, "flair": 6, "ready": True}).raise_for_status()
    expect(page.locator("#turn")).to_have_text("2 of 6", timeout=15000)
    expect(stamp).to_be_visible()


# Each throw of two dice ("5-3") in the match reports, as the rectangles of the lines it is laid
# out on: more than one is a throw split at its hyphen, one die at a line's end and one at the next.
_SPLIT_THROWS = """() => {
  const split = [], cells = document.querySelectorAll('.report td.dice');
  let wrapped = 0;
  cells.forEach(cell => {
    if (cell.getBoundingClientRect().height > 40) { wrapped += 1; }
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const throw_ of node.textContent.matchAll(/\\d-\\d/g)) {
        const range = document.createRange();
        range.setStart(node, throw_.index);
        range.setEnd(node, throw_.index + 3);
        const lines = new Set(Array.from(range.getClientRects(), r => Math.round(r.top)));
        if (lines.size > 1) { split.push(cell.closest('article').id + ': ' + throw_[0]); }
      }
    }
  });
  return {split: split, wrapped: wrapped, cells: cells.length};
}"""


@pytest.mark.parametrize("width", [390, 320])
def test_no_throw_of_the_dice_is_split_over_two_lines_on_a_phone(server: str, chromium: Any, width: int) -> None:
    """On a phone a report's dice wrap over several lines, and a throw could break at its hyphen:
    "FLAIR 1-" at a line's end and "1, 3-5" under it read as other dice than 1-1. A throw now keeps
    its two dice together; the dice still wrap between throws, and nothing is wider than the phone."""
    game, _ = _game(server)
    page = chromium.new_context(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True).new_page()
    visit(page, f"{server}/games/{game}")
    found = page.evaluate(_SPLIT_THROWS)
    assert found["cells"] == 62 and found["wrapped"] > 20  # 31 matches, most of their dice over lines
    assert found["split"] == []
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width


def test_a_reader_deep_in_the_reports_keeps_their_place_when_the_page_reloads(server: str, chromium: Any) -> None:
    """A spectator scrolled down to an old match's report lost it when the game moved on: the page
    reloaded at the same height, the new turn's eight reports having come in above, so another
    turn's reports stood where they were reading. The report they were reading now stands where it
    stood before the reload; a reader at the top of the page stays at the top, where the news is."""
    from playwright.sync_api import expect

    game, (token,) = _game(server, seats=1)
    auth = {"Authorization": f"Bearer {token}"}

    def order(turn: int) -> None:
        with httpx.Client(base_url=server, timeout=60) as api:
            (waiting,) = api.get("/api/v1/waiting", headers=auth).json()
            assert waiting["turn"] == turn
            for team in waiting["teams"]:
                body = {"turn": turn, "force": 10, "flair": 6, "ready": True}
                api.put(f"/api/v1/games/{game}/orders/{team}", headers=auth, json=body).raise_for_status()

    order(1)  # the one seat taken orders: turn 1 is resolved, its eight reports on the page
    desktop = {"viewport": {"width": 1000, "height": 800}}
    deep, top = chromium.new_context(**desktop).new_page(), chromium.new_context(**desktop).new_page()
    for page in (deep, top):
        visit(page, f"{server}/games/{game}")
        expect(page.locator("#turn")).to_have_text("2 of 6")
        page.evaluate("window.stillHere = true")
    # Turn 1's heading at the top of the screen, its first reports under it.
    heading = "Array.from(document.querySelectorAll('section.reports h3')).find(h => h.textContent.startsWith('Turn 1 '))"
    deep.evaluate(f"{heading}.scrollIntoView(); window.scrollBy(0, -20)")
    where = deep.evaluate(f"{heading}.getBoundingClientRect().top")
    height = deep.evaluate("window.scrollY")
    assert height > 1000 and 10 < where < 30, (height, where)

    order(2)
    for page in (deep, top):
        expect(page.locator("#turn")).to_have_text("3 of 6", timeout=15000)  # polled every second here
        assert page.evaluate("window.stillHere === undefined"), "the page reloaded itself"
        page.wait_for_load_state("load")
        # After the load, a reload by the reader's own hand is the browser's as usual.
        page.wait_for_function("history.scrollRestoration === 'auto'")
    expect(deep.locator("#match-t2-m1")).to_have_count(1)  # turn 2's reports, above turn 1's
    now = deep.evaluate(f"{heading}.getBoundingClientRect().top")
    assert abs(now - where) <= 2, (where, now, deep.evaluate("window.scrollY"))
    assert deep.evaluate("window.scrollY") > height + 500, "scrolled down past the new reports"
    assert top.evaluate("window.scrollY") == 0


def test_every_time_on_the_pages_is_to_the_minute_in_the_readers_zone(server: str, chromium: Any) -> None:
    """The script put times in the reader's zone with seconds ('05/12/2026, 09:41:07'), beside the
    countdown's minutes, and named no zone, and 'Up to date at' kept seconds where the script does
    not run: every time on the game's and the organiser's pages is now to the minute, its zone named."""
    from playwright.sync_api import expect

    with httpx.Client(base_url=server, timeout=60) as api:
        made = api.post("/api/v1/games", json={"name": "Times", "players": 4, "deadline_hours": 30})
        made.raise_for_status()
        game, boss = made.json()["game"], {"Authorization": f"Bearer {made.json()['token']}"}
        api.post("/api/v1/join", json={"invite": made.json()["invites"]["p1"], "name": "Ann"}).raise_for_status()
        api.post(f"/api/v1/games/{game}/start", headers=boss).raise_for_status()
        api.post(f"/api/v1/games/{game}/extend", headers=boss, json={"hours": 1.5}).raise_for_status()
    seconds = re.compile(r"\d:\d\d:\d\d")
    context = chromium.new_context(timezone_id="Pacific/Auckland", locale="en-GB")
    page = context.new_page()
    without_script = chromium.new_context(java_script_enabled=False).new_page()
    visit(without_script, f"{server}/games/{game}")
    stamp = without_script.locator("#as-of").inner_text()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", stamp), stamp
    assert "in UTC where scripts are off" in without_script.locator("footer").inner_text()  # as shown there
    for url in (f"{server}/games/{game}", f"{server}/organiser/{made.json()['organiser_link']}"):
        visit(page, url)
        if "/organiser/" in url:
            page.get_by_role("button", name="Organise this game from this browser").click()
            expect(page.locator("ol.events li").first).to_be_visible()
        times = page.locator("time")
        expect(times.first).to_contain_text("GMT+13")  # the script has run: December in Auckland
        shown = times.all_inner_texts()
        assert len(shown) >= 2, shown
        assert all(not seconds.search(text) and "GMT+13" in text for text in shown), shown
    visit(page, f"{server}/games/{game}")
    stamp_in_page = page.locator("#as-of")
    first = stamp_in_page.get_attribute("datetime")
    expect(stamp_in_page).not_to_have_attribute("datetime", first or "", timeout=15000)  # moved on by the script
    assert not seconds.search(stamp_in_page.inner_text()), stamp_in_page.inner_text()
    context.close()
