"""The player's page as someone who has never played meets it (task newcomer2): with four teams, on
a phone and on a wide screen, with and without the page's script."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser.browser_helpers import CHROMIUM, create_game, join_by_invites, start_with_one_seat, visit

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (scripts/setup-system)"
    ),
]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WIDE = {"viewport": {"width": 1280, "height": 800}}

HEIGHT = "() => document.documentElement.scrollHeight"
OPEN_ALL = "() => document.querySelectorAll('details.autopilot-box').forEach(d => { d.open = true; })"


def test_a_four_team_seats_page_is_shorter_with_the_autopilots_folded(server: str, chromium: Any) -> None:
    """Each of a seat's teams had its autopilot menu, knockout-weight box, Set and four lines of
    hint in sight: a four-team seat's page was 8337 px long at 390 px and 4694 px at 1280 (measured
    with the odds of every order shown). Folded, with a line saying what is set, the page is
    shorter by over 150 px a team on a phone and 60 px on a wide screen than with every fold
    open (which is the old layout and a line more), and the controls are a click away."""
    from playwright.sync_api import expect

    setup = chromium.new_context(**WIDE)
    page = setup.new_page()
    organise = start_with_one_seat(page, server, "Four teams cup", hours="24", arrangement="4-16-4")
    play = organise.removesuffix("/organise") + "/play"
    signed_in = setup.storage_state()
    for options, per_team in ((PHONE, 150), (WIDE, 60)):
        context = chromium.new_context(**options, storage_state=signed_in)
        seat = context.new_page()
        visit(seat, play)
        expect(seat.locator(".odds-table")).to_have_count(4)  # every order's odds, as a player sees them
        folds = seat.locator("details.autopilot-box")
        expect(folds).to_have_count(4)
        for i in range(4):
            fold = folds.nth(i)
            name = seat.locator("form.order-form").nth(i).get_attribute("data-name")
            # what is set now, and for a screen reader whose team it is for
            expect(fold.locator("summary")).to_have_text(
                f"Autopilot of {name}: equilibrium, knockout weight: the bot's own (plays if you send no order)"
            )
            expect(fold.locator("select[name=strategy]")).to_be_hidden()
            expect(fold.locator("input[name=weight]")).to_be_hidden()
        folded = seat.evaluate(HEIGHT)
        seat.evaluate(OPEN_ALL)
        unfolded = seat.evaluate(HEIGHT)
        width = options["viewport"]["width"]
        assert folded <= unfolded - 4 * per_team, f"{width} px: {folded} px folded, {unfolded} px open"
        context.close()
    setup.close()


def test_the_folded_autopilot_works_without_the_script_and_stays_open_once_chosen(server: str, chromium: Any) -> None:
    """With no script at all, on a phone: the summary opens the controls, Set sends them, and the
    page comes back with that team's controls open and its summary saying the new autopilot."""
    from playwright.sync_api import expect

    setup = chromium.new_context(**PHONE)
    organise = start_with_one_seat(setup.new_page(), server, "No script cup", hours="24")
    context = chromium.new_context(**PHONE, java_script_enabled=False, storage_state=setup.storage_state())
    page = context.new_page()
    visit(page, organise.removesuffix("/organise") + "/play")
    fold = page.locator("details.autopilot-box").first
    menu = fold.locator("select[name=strategy]")
    expect(menu).to_be_hidden()
    box = fold.locator("summary").bounding_box()
    assert box is not None and box["height"] >= 44  # tapped as a button is
    fold.locator("summary").click()
    expect(menu).to_be_visible()
    menu.select_option("even")
    fold.locator("input[name=weight]").fill("1.5")
    fold.locator("button").click()
    expect(page).to_have_url(re.compile(r"done=autopilot"))
    fold = page.locator("details.autopilot-box").first
    expect(fold).to_have_attribute("open", "")
    expect(fold.locator("summary")).to_have_text(re.compile(r"^Autopilot of [^:]+: even, knockout weight 1\.5 "))
    expect(fold.locator("select[name=strategy]")).to_be_visible()
    expect(page.locator("details.autopilot-box").nth(1)).not_to_have_attribute("open", "")
    context.close()
    setup.close()


def test_typing_kept_in_a_folded_autopilot_is_shown_open(server: str, chromium: Any) -> None:
    """A bot picked in the second team's autopilot and not set, then the first team's order saved:
    the page came back with the typing kept and its "Not sent yet" note inside a fold that was
    closed again, so neither was seen. That fold now opens."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    organise = start_with_one_seat(page, server, "Kept fold cup", hours="24")
    visit(page, organise.removesuffix("/organise") + "/play")
    second = page.locator("details.autopilot-box").nth(1)
    second.locator("summary").click()
    second.locator("select[name=strategy]").select_option("knockout-saver")
    order = page.locator("form.order-form").first
    order.locator("input[name=force]").fill("6")
    with page.expect_navigation():
        order.locator("button[value=save]").click()
    second = page.locator("details.autopilot-box").nth(1)
    expect(second).to_have_attribute("open", "")
    expect(second.locator(".kept-note")).to_be_visible()
    expect(second.locator("select[name=strategy]")).to_have_value("knockout-saver")
    context.close()


def test_the_line_saying_whom_the_turn_waits_for_follows_the_others_orders(server: str, chromium: Any) -> None:
    """Once all a player's orders are ready, a line above their teams names whom the turn waits
    for. The list of who has ordered keeps itself up to date without a reload; the line kept its
    first count ("Player 2 (2 teams not ready)") while the list said one. It now follows too."""
    from playwright.sync_api import expect

    organiser, _, invites = create_game(chromium, server, "Waiting cup", viewport=PHONE["viewport"], hours="0")
    organise = server + str(organiser.locator("#to-organise").get_attribute("href"))
    me, friend = join_by_invites(chromium, invites[:2], PHONE["viewport"])
    visit(organiser, organise)
    organiser.click("#start button")
    visit(me, organise.removesuffix("/organise") + "/play")
    for i in range(2):
        with me.expect_navigation():
            me.locator("form.order-form").nth(i).locator("button[value=ready]").click()
    expect(me.locator("#message")).to_contain_text("That was the last of your orders this turn.")
    waits = me.locator("#all-ready-waits")
    expect(waits).to_have_text("The turn waits for Player 2 (2 teams not ready); then it is resolved")
    me.evaluate("window.stillHere = true")
    visit(friend, organise.removesuffix("/organise") + "/play")
    with friend.expect_navigation():
        friend.locator("form.order-form").first.locator("button[value=ready]").click()
    expect(waits).to_have_text("The turn waits for Player 2 (1 team not ready); then it is resolved", timeout=20000)
    assert me.evaluate("window.stillHere === true")  # put in place, not reloaded
