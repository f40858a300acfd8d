"""A demanding player and organiser on a 375-pixel phone: what they act on is on the screen, not
off to the right of a table that scrolls sideways."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from browser.browser_helpers import start_with_one_seat, type_every_order, type_order, visit

PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}
ZOOMED_400 = {"viewport": {"width": 320, "height": 640}}  # a 1280 px window at 400% (WCAG 1.4.10)

OVERFLOW = """(selector) => Array.from(document.querySelectorAll(selector)).map(
    (table) => { const box = table.closest('.table-scroll'); return [box.scrollWidth, box.clientWidth]; })"""


def _right_edges(page: Any, selector: str) -> list[float]:
    return [float(box["x"] + box["width"]) for box in (el.bounding_box() for el in page.locator(selector).all()) if box]


def test_the_house_bots_menus_and_every_odds_column_fit_a_phone(server: str, chromium: Any) -> None:
    """At 375 pixels the table of the teams nobody plays had five columns, and its menus, weight
    boxes and Set buttons sat off the right edge of the screen; the odds table's last column
    (loss) too. Both now fit: nothing to scroll sideways to, every control on the screen."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    organise = start_with_one_seat(page, server, "Phone cup", hours="24")
    expect(page.locator("#house-bots")).to_be_visible()
    assert all(scroll <= client for scroll, client in page.evaluate(OVERFLOW, "#house-bots"))
    edges = _right_edges(page, "#house-bots select, #house-bots input[name=weight], #house-bots button")
    assert edges and max(edges) <= 375, edges

    visit(page, organise.removesuffix("/organise") + "/play")
    type_every_order(page, 10, 9)  # the boxes start empty: no odds until an order is typed
    expect(page.locator(".odds-table")).to_have_count(2)
    sizes = page.evaluate(OVERFLOW, ".odds-table")
    assert all(scroll <= client for scroll, client in sizes), sizes
    assert max(_right_edges(page, ".odds-table th")) <= 375
    context.close()


# The words of a team's name in a cell of the game's tables (its own text, not a line under it such
# as a house team's seat) that are split over two lines, and cells whose text is cut at their edge.
TEAM_CELLS = (
    "table.teams tbody td:first-child, table.group-table tbody th, table.report tbody th, #house-bots tbody td:first-child"
)
SPLIT_WORDS = """(selector) => Array.from(document.querySelectorAll(selector)).flatMap(cell => {
  const found = [];
  if (cell.scrollWidth > cell.clientWidth) { found.push(cell.textContent.trim() + ': cut (' + cell.scrollWidth + ' px in ' + cell.clientWidth + ')'); }
  for (const node of cell.childNodes) {
    if (node.nodeType !== 3) { continue; }
    for (const word of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
      if (lines.size > 1) { found.push(word[0] + ' split over ' + lines.size + ' lines in a cell ' + Math.round(cell.getBoundingClientRect().width) + ' px wide'); }
    }
  }
  return found;
})"""


@pytest.mark.parametrize("options", [PHONE, ZOOMED_400], ids=["phone", "400%"])
def test_team_names_keep_their_words_whole_on_a_phone(server: str, chromium: Any, options: dict[str, Any]) -> None:
    """At 375 pixels the public page's table of teams gave its manager column, a name of 40
    letters with no space, the room, and squeezed the team's column to 70 px: "Argentina",
    "Australia" and "Zealand" were split letter by letter over two lines. A team's name now keeps
    its words whole in every table of the public, organiser and player pages, and is never cut.
    At 320 px the group tables' figures left a team 46 px ("Aus|tralia"): there the name has a
    line of its own, the figures under it, each under its column's header."""
    from playwright.sync_api import expect

    context = chromium.new_context(**options)
    page = context.new_page()
    organise = start_with_one_seat(
        page, server, "Narrow cup", hours="24", player="Wolfeschlegelsteinhausenbergerdorffvoral"
    )
    base = organise.removesuffix("/organise")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resolve button")  # a turn of match reports
    expect(page.locator("#resolve input[name=turn]")).to_have_value("2")
    found = []
    for url in (base, organise, f"{base}/play"):
        visit(page, url)
        page.wait_for_load_state("load")
        assert page.locator(TEAM_CELLS).count() >= 8, url
        found += [f"{url.removeprefix(base) or 'public page'}: {problem}" for problem in page.evaluate(SPLIT_WORDS, TEAM_CELLS)]
        found += [f"{url.removeprefix(base) or 'public page'}: {problem}" for problem in page.evaluate(_OUT_OF_COLUMN)]
    assert not found, "\n".join(found)
    context.close()


# In the group tables: the figures' headers that take more than one line ("TF" as "T" over "F" in a
# column one letter wide), and the figures of each row that are not right under their header.
_OUT_OF_COLUMN = """() => Array.from(document.querySelectorAll('table.group-table')).flatMap(table => {
  const headers = Array.from(table.querySelectorAll('thead th:not(.decided)'));
  const broken = headers.slice(2).filter(th => {
    const range = document.createRange();
    range.selectNodeContents(th);
    return new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size > 1;
  }).map(th => 'the header ' + th.textContent + ' takes more than one line');
  const rects = headers.map(th => th.getBoundingClientRect());
  return broken.concat(Array.from(table.querySelectorAll('tbody tr')).flatMap(row => Array.from(row.children).slice(2, headers.length)
    .map((cell, i) => [cell, rects[i + 2]])
    .filter(([cell, header]) => Math.abs(cell.getBoundingClientRect().right - header.right) > 1)
    .map(([cell]) => row.querySelector('th').textContent.trim() + ': ' + cell.textContent + ' is not under its header')));
})"""


# The cells whose text takes more than one line.
_MORE_THAN_ONE_LINE = """(selector) => Array.from(document.querySelectorAll(selector)).filter(cell => {
  const range = document.createRange();
  range.selectNodeContents(cell);
  return new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size > 1;
}).map(cell => cell.textContent)"""


FOCUSED = "() => { const e = document.activeElement; return [e.tagName, e.getAttribute('aria-label') || e.textContent.trim().slice(0, 40)]; }"


def test_an_order_in_the_odds_is_on_one_line_on_a_phone(server: str, chromium: Any) -> None:
    """On a phone each bot's typical order stands in a column 3.2rem wide: "14+15" and "13+36"
    broke after their fourth character, read as 14+1 and a 5 on the line under it. An order and
    every figure now keep to one line, and the table still fits the screen. So do the headers of
    the order and the figures: "their order" took two lines."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    organise = start_with_one_seat(page, server, "Phone cup", hours="24")
    visit(page, organise.removesuffix("/organise") + "/play")
    type_every_order(page, 10, 9)  # the boxes start empty: no odds until an order is typed
    expect(page.locator(".odds-table")).to_have_count(2)
    orders = page.locator(".odds-table td:nth-child(2)").all_inner_texts()
    assert any(len(order) >= 5 for order in orders), orders  # such as 14+15
    assert page.evaluate(SPLIT_WORDS, ".odds-table td") == []
    assert page.evaluate(_MORE_THAN_ONE_LINE, ".odds-table th[scope=col]:not(:first-child)") == []
    assert all(scroll <= client for scroll, client in page.evaluate(OVERFLOW, ".odds-table"))
    assert max(_right_edges(page, ".odds-table td")) <= 375
    context.close()


def test_a_house_bot_set_by_keyboard_on_a_phone_comes_back_at_its_row(server: str, chromium: Any) -> None:
    """By keyboard on a phone, 'Set' for a house bot brought the organiser page back at its top,
    with no word that anything was done: ten Tabs and a long scroll back to the table, to find the
    bot changed. Now the page comes back at that team's row, says there what it is played by, and
    the next Tab goes on from the row, to the next team's menu."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    organise = start_with_one_seat(page, server, "Keys cup", hours="24")
    rows = page.locator("#house-bots tbody tr")
    first = str(rows.nth(0).get_attribute("id")).removeprefix("house-")
    second_menu = str(rows.nth(1).locator("select").get_attribute("aria-label"))
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED)[0] == "SELECT":
            break
    assert page.evaluate(FOCUSED)[0] == "SELECT"
    page.keyboard.press("ArrowDown")  # the next bot in the menu
    chosen = page.evaluate("() => document.activeElement.value")
    page.keyboard.press("Tab")  # the weight box
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == ["BUTTON", f"Set the bot for {page.locator(f'#house-{first} td').first.evaluate('td => td.firstChild.textContent')}"]
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page).to_have_url(f"{organise}?done=house-bot&team={first}#house-{first}")
    done = page.locator(f"#house-{first} #house-bot-done")
    expect(done).to_have_attribute("role", "status")
    expect(done).to_contain_text(f"is played by {chosen}.")
    expect(page.locator(f"#house-{first} .house-bot")).to_have_text(chosen)
    assert page.locator(f"#house-{first}").bounding_box()["y"] < 740  # on the screen
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == ["SELECT", second_menu]:
            break
    assert page.evaluate(FOCUSED) == ["SELECT", second_menu]
    # A crafted link puts no text of its own on the page: only a team of the table is named.
    visit(page, f"{organise}?done=house-bot&team=<b>hacked</b>")
    expect(page.locator("#house-bot-done")).to_have_count(0)
    context.close()


def test_a_page_that_follows_the_game_does_not_reload_from_under_the_keyboard(server: str, chromium: Any) -> None:
    """The organiser, by keyboard, had tabbed down to 'Resolve turn 1 now' when a player's order
    came in: the page reloaded itself and the focus went back to the top of the page (on a phone,
    the screen too). Now a page with the focus on one of its controls stays as it is and says the
    game has moved on, with a button to reload; the control keeps the focus."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(15000)
    visit(page, server + "/")
    page.fill("input[name=name]", "Focus cup")
    page.fill("input[name=deadline_hours]", "24")
    page.click("#create-game button[type=submit]")
    organise = server + str(page.locator("#to-organise").get_attribute("href"))
    invite = page.locator("#invites code.invite").first.inner_text()
    player = chromium.new_context(**PHONE).new_page()
    player.set_default_timeout(15000)
    visit(player, invite)
    player.fill("input[name=name]", "Ann")
    player.click("#join button[type=submit]")
    visit(page, organise)
    page.click("#start button")
    expect(page.locator("#order-count")).to_contain_text("Ready: 0 of 2")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == ["BUTTON", "Resolve turn 1 now"]:
            break
    assert page.evaluate(FOCUSED) == ["BUTTON", "Resolve turn 1 now"]
    page.evaluate("window.stillHere = true")

    visit(player, organise.removesuffix("/organise") + "/play")
    type_order(player.locator("form.order-form").first, 10, 9)
    player.locator("form.order-form button[value=save]").first.click()  # the organiser's version moves
    expect(player.locator("#message")).to_be_visible()
    # Polled every second on the test server (5 s on a server as it comes), and the words come a
    # moment after the note (to be announced): room for a loaded machine beyond expect's own 5 s.
    expect(page.locator("#live-note")).to_contain_text("The game has moved on", timeout=15000)
    assert page.evaluate("window.stillHere === true")
    assert page.evaluate(FOCUSED) == ["BUTTON", "Resolve turn 1 now"]
    # The note's button reloads: the page as it stands now.
    page.locator("#live-note button").click()
    expect(page.locator("#order-count")).to_contain_text("1 saved, not ready")
    player.context.close()
    context.close()


def test_an_order_marked_ready_by_keyboard_goes_on_to_the_next_team(server: str, chromium: Any) -> None:
    """By keyboard on a phone, 'Save and mark ready' for the first team brought the page back at
    the top of that team's part, the note of what was done at the top of the page, off the screen:
    the next Tab went back into the same team's FORCE box, seven Tabs from the next team's. Now
    the page comes back at the note, at the end of the team's part and on the screen, and the next
    Tab goes on to the next team's order. Setting an autopilot does the same (its controls are
    folded after the order: Enter on their summary opens them)."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    base = start_with_one_seat(page, server, "Ready keys cup", hours="24").removesuffix("/organise")
    visit(page, f"{base}/play")
    forms = page.locator("form.order-form")
    expect(forms).to_have_count(2)
    first, second = (str(forms.nth(i).get_attribute("data-team")) for i in (0, 1))
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == f"order-{first}-force":
            break
    page.keyboard.press("Control+A")
    page.keyboard.type("6")
    page.keyboard.press("Tab")  # FLAIR, typed too: a box left empty is refused
    page.keyboard.type("0")
    for _ in range(2):  # Save, Save and mark ready
        page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED)[1].startswith("Save and mark ready")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    message = page.locator(f"#team-{first} #message")
    expect(message).to_have_text(re.compile(r"^Order for .+ ready \(turn 1\)\.$"))
    expect(message).to_have_attribute("role", "status")
    expect(message).to_be_in_viewport()  # on the screen
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == f"order-{second}-force"

    # The autopilot's Set, by keyboard, comes back at its note too, and Tab goes on from there.
    # Past the second order, the autopilot's folded controls: Enter opens them, Tab goes in.
    for _ in range(4):  # FLAIR, Save, Save and mark ready, the fold's summary
        page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED)[0] == "SUMMARY"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == f"autopilot-{second}-strategy"
    page.keyboard.press("Tab")  # the weight box
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED)[0] == "BUTTON"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator(f"#team-{second} #message")).to_have_text(re.compile(r"^Autopilot for .+ set\.$"))
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == ["BUTTON", "A link for another device"]
    context.close()


def test_the_live_odds_are_on_the_screen_while_an_order_is_typed_by_keyboard(server: str, chromium: Any) -> None:
    """On a 375-pixel phone, Tab brought the first team's FORCE box to the bottom edge of the
    screen and the live odds, under the form's buttons, stayed 100 pixels below it: the player
    typed the order without seeing what it was expected to score. Tab now leaves room under each
    box and button of the order for the odds' first sentence."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    base = start_with_one_seat(page, server, "Odds in sight cup", hours="24").removesuffix("/organise")
    visit(page, f"{base}/play")
    page.wait_for_load_state("load")
    form = page.locator("form.order-form").first
    said = form.locator("output.odds p").first
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.name") == "force":
            break
    page.keyboard.press("Control+A")
    page.keyboard.type("7")
    expect(said).to_contain_text("FLAIR is still empty: these odds take it as 0 (type 0 there to send none). 7+0: expected")
    expect(said).to_be_in_viewport(ratio=1)
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    expect(said).to_contain_text("Your order 7+3: expected")
    expect(said).to_be_in_viewport(ratio=1)
    for _ in range(2):  # Save, Save and mark ready
        page.keyboard.press("Tab")
        expect(said).to_be_in_viewport(ratio=1)
    context.close()


def test_the_last_order_of_a_turn_by_keyboard_goes_on_to_the_new_turn(server: str, chromium: Any) -> None:
    """In a game resolved when every order is ready, a player marked their second and last team
    ready by keyboard: the turn was resolved at once and the page came back at the end of that
    team's part saying only "Order for ... ready (turn 1)." — nothing said that turn 2 had
    begun, and the next Tab went to "A link for another device", past every order of the new
    turn. Now the note says the turn has been resolved, stands before the first team, and the
    next Tab goes to the first team's order for turn 2."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    base = start_with_one_seat(page, server, "Last order cup", hours="0").removesuffix("/organise")
    visit(page, f"{base}/play")
    forms = page.locator("form.order-form")
    expect(forms).to_have_count(2)
    first, second = (str(forms.nth(i).get_attribute("data-team")) for i in (0, 1))
    type_order(forms.nth(0), 10, 9)
    page.locator(f"#order-{first} button[value=ready]").click()
    expect(page.locator(f"#team-{first} #message")).to_contain_text("ready (turn 1).")
    type_order(page.locator(f"#order-{second}"), 10, 9)
    page.locator(f"#order-{second}-flair").focus()
    page.keyboard.press("Tab")  # Save
    page.keyboard.press("Tab")  # Save and mark ready
    with page.expect_navigation():
        page.keyboard.press("Enter")
    message = page.locator("#message")
    expect(message).to_have_text(
        re.compile(r"^Order for .+ ready \(turn 1\)\. Turn 1 has been resolved: turn 2 is open, your new matches are below\.$")
    )
    expect(message).to_have_attribute("role", "status")
    expect(message).to_be_in_viewport()
    expect(page.locator("#turn")).to_have_text(re.compile(r"^2 of "))
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == f"order-{first}-force"
    expect(page.locator(f"#order-{first} input[name=turn]")).to_have_value("2")
    context.close()


def test_the_turns_buttons_by_keyboard_come_back_at_a_note_before_them(server: str, chromium: Any) -> None:
    """On a phone, by keyboard, the organiser's Start, Pause, Resume, Extend and Resolve each
    brought the page back at its top with nothing said of what was done (a screen reader heard the
    page's title again), the focus back before the header's link. Now the page comes back at a
    note that says it ("Turn 1 resolved: turn 2 is open."), on the screen, and the next Tab goes on
    to the turn's controls: first the link to the organiser's own teams' page while their orders
    are not in (task newcomer1), then its buttons. A link that claims a turn resolved that is still
    open says nothing."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Said cup", hours="24")
    note = page.locator("#done")

    def press(button: str, said: str, then: list[str]) -> None:
        page.locator(button).focus()
        with page.expect_navigation():
            page.keyboard.press("Enter")
        expect(note).to_have_text(re.compile(said))
        expect(note).to_have_attribute("role", "status")
        expect(note).to_be_in_viewport()
        page.keyboard.press("Tab")
        assert page.evaluate(FOCUSED) == then

    expect(note).to_have_text("Started: the groups are drawn and turn 1 is open.")
    my_teams = ["A", "your teams' page"]  # the organiser's own orders are not in
    press("button:has-text('Pause the deadline')", r"^Deadline paused: .+ left when it resumes\.$", my_teams)
    press("button:has-text('Resume')", r"^Deadline running again: turn 1 is due ", my_teams)
    page.fill("#extend input[name=hours]", "5")
    press("#extend button", r"^Deadline moved: turn 1 is due ", my_teams)
    press("#resolve button", r"^Turn 1 resolved: turn 2 is open\.$", my_teams)
    visit(page, f"{organise}?done=resolve&turn=2")
    expect(page.locator("#resolve input[name=turn]")).to_have_value("2")
    expect(note).to_have_count(0)
    context.close()


STATUS_INSERTS = """() => { window.statusInserts = [];
    new MutationObserver((records) => records.forEach((record) => record.addedNodes.forEach((node) => {
        if (node.nodeType !== 1) { return; }
        const regions = [node, ...node.querySelectorAll('[role=status]')].filter((e) => e.getAttribute('role') === 'status');
        regions.forEach((region) => window.statusInserts.push(region.textContent));
    }))).observe(document.querySelector('main'), { childList: true, subtree: true }); }"""
"""Records the text each live region (role=status) had as it was put into the page."""


def test_a_player_far_down_the_page_is_told_where_they_are_that_the_game_moved_on(server: str, chromium: Any) -> None:
    """A player on a phone, by keyboard, at their second team's autopilot far down the page when
    the organiser resolved the turn: the page said "The game has moved on" at its very top, off
    the screen, as a live region put into the page already holding its words (which screen
    readers do not announce), and its Reload button lay some twenty Tabs back. Now the note
    stands just after the control that has the focus, on the screen, the focus stays there, the
    next Tabs reach its button, and its words come into a region already in the page."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(15000)
    organise = start_with_one_seat(page, server, "Far down cup", hours="24")
    visit(page, organise.removesuffix("/organise") + "/play")
    forms = page.locator("form.order-form")
    expect(forms).to_have_count(2)
    second = str(forms.nth(1).get_attribute("data-team"))
    page.locator(f"#autopilot-box-{second} > summary").click()  # folded until opened
    page.locator(f"#autopilot-{second}-strategy").focus()
    page.keyboard.press("Tab")  # the weight box
    page.keyboard.press("Tab")  # Set
    set_button = ["BUTTON", f"Set the autopilot for {forms.nth(1).get_attribute('data-name')}"]
    assert page.evaluate(FOCUSED) == set_button
    assert page.evaluate("() => window.scrollY") > 300  # far down: the page's top is off the screen
    page.evaluate(STATUS_INSERTS)
    page.evaluate("window.stillHere = true")

    organiser = context.new_page()
    organiser.on("dialog", lambda dialog: dialog.accept())  # "Resolve turn 1 now?"
    visit(organiser, organise)
    organiser.click("#resolve button")
    expect(organiser.locator("#done")).to_contain_text("Turn 1 resolved")
    organiser.close()

    note = page.locator("#live-note")
    expect(note).to_contain_text("The game has moved on (running, turn 2).", timeout=15000)  # polled every second here
    assert page.evaluate("window.stillHere === true")
    assert page.evaluate(FOCUSED) == set_button
    expect(note).to_be_in_viewport()
    status = note.locator("[role=status]")
    expect(status).to_have_count(1)
    expect(status).to_contain_text("The game has moved on")
    assert page.evaluate("window.statusInserts") == [""], "a live region came in holding its words"
    page.keyboard.press("Tab")  # Set was the form's last control: the note's button is next
    assert page.evaluate(FOCUSED) == ["BUTTON", "Reload the page"], page.evaluate(FOCUSED)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("#turn")).to_have_text(re.compile(r"^2 of "))

    # With the page's main part itself focused there is no part to stand after: the note is at
    # the top (looking for a part above the page's main part threw, and no note came).
    page.evaluate("() => { const main = document.querySelector('main'); main.tabIndex = -1; main.focus(); }")
    organiser = context.new_page()
    organiser.on("dialog", lambda dialog: dialog.accept())
    visit(organiser, organise)
    organiser.click("#resolve button")
    expect(organiser.locator("#done")).to_contain_text("Turn 2 resolved")
    organiser.close()
    expect(page.locator("main > #live-note:first-child")).to_contain_text("The game has moved on (running, turn 3).", timeout=15000)
    context.close()


LONG_OPTION = 12
"""Throws in the one long FLAIR option of the test below: eleven doubles re-thrown (R2), then a
throw that ends it. A CI run's dice once gave an option long enough to widen a report past a
phone; the chance of twelve is about 1 in 360 million, so the test writes them into the game."""


def _turn_one_with_a_long_flair_option(database: Path, organise_url: str) -> None:
    """Resolve turn 1 of the started game as if its dice had given the first match's home team a
    FLAIR option of :data:`LONG_OPTION` throws (every other order one plain throw)."""
    from sqlalchemy.orm import Session

    from sevens.rules import Order, ScriptedDice
    from sevens.store import games as store
    from sevens.store.db import make_engine
    from sevens.tournament.game import TurnOrder, play_turn
    from sevens.tournament.record import dumps, to_record
    from sevens.tournament.setup import TeamId

    public_id = organise_url.removesuffix("/organise").rsplit("/", 1)[1]
    engine = make_engine(f"sqlite:///{database}")
    with Session(engine) as db:
        game = store.game_by_public_id(db, public_id=public_id)
        state = store.load_game(game)
        long_stream = f"{state.fixtures()[0].id}/home"
        orders = {team: TurnOrder(TeamId(team), Order(force=0, flair=3)) for team in state.teams_in_play()}

        def dice_for(stream: str) -> ScriptedDice:
            doubles = [1, 1] * (LONG_OPTION - 1) if stream == long_stream else []
            return ScriptedDice([*doubles, 2, 4])

        played = play_turn(state, orders, dice_for)
        game.record_json = dumps(to_record(played, seed=None))
        game.current_turn = 2
        db.commit()
    engine.dispose()


@pytest.mark.parametrize("width", [360, 320])
def test_a_match_report_with_a_long_flair_option_fits_a_phone(
    server: str, tmp_path: Path, chromium: Any, width: int
) -> None:
    """A report whose FLAIR option is twelve throws long breaks it between its throws: no page
    showing it (the spectator's, the player's, the organiser's, its team's) is wider than the phone, nor does
    anything on it scroll sideways."""
    from playwright.sync_api import expect

    from browser.test_browser_a11y import _SCROLLING_BOXES, _loaded_width, settled

    page = chromium.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True).new_page()
    organise = start_with_one_seat(page, server, "Doubles cup", hours="24")
    _turn_one_with_a_long_flair_option(tmp_path / "browser.sqlite3", organise)  # the server's database
    base = organise.removesuffix("/organise")
    record = page.request.get(f"{server}/api/v1/games/{base.rsplit('/', 1)[1]}/record").json()
    long_team = record["turns"][0]["matches"][0]["home"]  # its team's page has the report too
    for url in (base, f"{base}/play", organise, f"{base}/teams/{long_team}"):
        visit(page, url)
        # Each throw shown, then said, the comma after it in both (sr4: no space before it when heard).
        long_option = page.locator(".report td.dice .part", has_text=" ".join(["1-1, 1 and 1,"] * (LONG_OPTION - 1)))
        expect(long_option).to_have_count(1)
        settled(page)  # the player's page measured with its odds' tables in, which come after load
        wide, widest = _loaded_width(page)
        assert wide <= width, f"{url} is {wide} px wide on a {width} px phone (widest: {widest})"
        assert not page.evaluate(_SCROLLING_BOXES), url


PHONE_360 = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def test_names_keep_their_words_whole_at_360_pixels(server: str, chromium: Any) -> None:
    """At 360 pixels the organiser's table of seats left a player's name about 80 px beside the
    invite's button and split it anywhere ("Bartholo|mew"), and the group tables split "Argentina"
    and "Australia" after their eighth letter. The seats now put the invite on a line of its own
    and the group tables' one-figure columns are narrower: every name keeps its words whole."""
    context = chromium.new_context(**PHONE_360)
    page = context.new_page()
    page.set_default_timeout(15000)
    visit(page, server + "/")
    page.fill("input[name=name]", "Narrower cup")
    page.click("#create-game button[type=submit]")
    invites = page.locator("code.invite").all_inner_texts()
    organise = server + str(page.locator("#to-organise").get_attribute("href"))
    base = organise.removesuffix("/organise")
    for invite, name in zip(invites, ("Bartholomew", "Chidimma Okonkwo-Smith", "Maximilian"), strict=False):
        guest = chromium.new_context(**PHONE_360).new_page()
        visit(guest, invite)
        guest.fill("input[name=name]", name)
        guest.click("#join button[type=submit]")
        guest.wait_for_url(re.compile(r"/play$"))
        guest.context.close()
    visit(page, invites[3])  # the organiser plays the last seat
    page.fill("input[name=name]", "Olga")
    page.click("#join button[type=submit]")
    page.wait_for_url(re.compile(r"/play$"))
    visit(page, organise)
    found = [f"seats: {problem}" for problem in page.evaluate(SPLIT_WORDS, "table.seats td.name")]
    page.click("#start button")
    for url in (base, organise, f"{base}/play"):
        visit(page, url)
        page.wait_for_load_state("load")
        assert page.locator("table.group-table tbody th").count() == 8, url
        found += [f"{url.removeprefix(base) or 'public page'}: {problem}" for problem in page.evaluate(SPLIT_WORDS, TEAM_CELLS)]
    assert not found, "\n".join(found)
    from browser.test_browser_a11y import settled

    settled(page)  # the player's page, with its odds' tables in (they come after load)
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    context.close()


# Where each of several elements under one is on the page (the first match of each selector).
_RECTS = """(root, selectors) => selectors.map(s => {
  const r = root.querySelector(s).getBoundingClientRect();
  return {x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height};
})"""


@pytest.mark.parametrize("options", [PHONE_360, {"viewport": {"width": 1000, "height": 800}}], ids=["phone", "desktop"])
def test_the_autopilots_set_button_is_beside_its_weight_box(server: str, chromium: Any, options: dict[str, Any]) -> None:
    """The explanation of a knockout weight came in the markup between the weight box and its Set
    button, so Set stood at the end of a paragraph: on a phone four lines under the box, on a
    computer at the far end of a line of text. It is now on the box's line, the explanations under
    both; Tab still goes from the box to Set."""
    from playwright.sync_api import expect

    context = chromium.new_context(**options)
    page = context.new_page()
    organise = start_with_one_seat(page, server, "Pilot cup", hours="24")
    visit(page, organise.removesuffix("/organise") + "/play")
    forms = page.locator("form.autopilot")
    assert forms.count() == 2
    for summary in page.locator("details.autopilot-box > summary").all():  # folded until opened
        summary.click()
    # The odds of each order form come in after an order is typed and push the forms under them
    # down: measured in between, the box was above that table and Set under it (a CI run).
    type_every_order(page, 10, 9)
    expect(page.locator("output.odds .odds-table")).to_have_count(2)
    for i in range(2):
        form = forms.nth(i)
        weight = form.locator("input[name=weight]")
        # The three in one go, so that nothing can move between them.
        box, set_, words = form.evaluate(_RECTS, ["input[name=weight]", "button", ".hint"])
        middle = set_["y"] + set_["height"] / 2
        assert box["y"] <= middle <= box["y"] + box["height"], (box, set_)  # on the box's line
        assert set_["x"] > box["x"] + box["width"], (box, set_)  # just after it
        assert words["y"] >= set_["y"] + set_["height"] - 1, (set_, words)  # the explanation under both
        assert set_["x"] + set_["width"] <= options["viewport"]["width"]  # on the screen
        weight.focus()
        page.keyboard.press("Tab")
        assert page.evaluate(FOCUSED)[0] == "BUTTON"
        assert page.evaluate(FOCUSED)[1].startswith("Set the autopilot for ")
    context.close()


def test_an_explanation_in_a_paragraph_lines_up_with_its_heading(server: str, chromium: Any) -> None:
    """The explanations that are paragraphs of their own (the box of all invite links', the house
    bots', the organiser link's) were set in by 8 px from the headings and text around them, as a
    hint beside a box is: they now line up with their heading."""
    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15000)
    visit(page, server + "/")
    page.fill("input[name=name]", "Lined-up cup")
    page.click("#create-game button[type=submit]")
    lefts = [page.locator(selector).bounding_box()["x"] for selector in ("#all-links-heading", "#all-links-hint")]
    assert lefts[0] == lefts[1], lefts
    context.close()
    page = chromium.new_context(viewport={"width": 1000, "height": 800}).new_page()
    start_with_one_seat(page, server, "Lined-up too", hours="24")
    heading = page.locator("#house-bots-section h2").bounding_box()["x"]
    assert page.locator("#house-bots-hint").bounding_box()["x"] == heading
    page.context.close()


def test_a_phone_turned_sideways_keeps_its_touch_sizes(server: str, chromium: Any) -> None:
    """A player types an order on a 375 px phone and turns it sideways (740x375): what was typed
    stays, and the controls keep their touch sizes. Past 600 px the phone left the narrow layout
    and with it every touch size: the links under the title 18 px tall, the FORCE box 28 px with
    15 px text (iOS zooms into a box under 16 px at each tap), Resolve 33 px."""
    from playwright.sync_api import expect

    from browser.test_browser_a11y import phone_problems

    page = chromium.new_context(**PHONE).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Sideways cup", hours="24")
    game = organise.removesuffix("/organise")
    visit(page, f"{game}/play")
    form = page.locator("form.order-form").first
    type_order(form, 14, 15)
    page.set_viewport_size({"width": 740, "height": 375})
    expect(form.locator("input[name=force]")).to_have_value("14")
    expect(form.locator("input[name=flair]")).to_have_value("15")
    found = phone_problems(page, "the player's page, turned sideways")
    for url, what in ((organise, "the organiser's page"), (game, "the game's page"), (f"{server}/", "the front page")):
        visit(page, url)
        found += phone_problems(page, f"{what}, turned sideways")
    page.context.close()
    assert not found, "\n".join(found)
