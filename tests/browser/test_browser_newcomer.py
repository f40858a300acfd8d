"""The player's page as someone who has never played meets it (task newcomer2): with four teams, on
a phone and on a wide screen, with and without the page's script."""

from __future__ import annotations

import re
from typing import Any

from browser.browser_helpers import (
    create_game,
    join_by_invites,
    start_with_one_seat,
    type_order,
    visit,
)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WIDE = {"viewport": {"width": 1280, "height": 800}}

HEIGHT = "() => document.documentElement.scrollHeight"
OPEN_ALL = "() => document.querySelectorAll('details.autopilot-box').forEach(d => { d.open = true; })"


def play_page_without_script(chromium: Any, server: str, name: str) -> tuple[Any, Any, Any]:
    """A one-seat game set up on a phone, then its player's page opened in that browser with the
    script off: the setup context, the script-less one and its page."""
    setup = chromium.new_context(**PHONE)
    organise = start_with_one_seat(setup.new_page(), server, name, hours="24")
    context = chromium.new_context(**PHONE, java_script_enabled=False, storage_state=setup.storage_state())
    page = context.new_page()
    visit(page, organise.removesuffix("/organise") + "/play")
    return setup, context, page


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
        for i in range(4):  # the boxes start empty: an order typed in each brings its odds
            type_order(seat.locator("form.order-form").nth(i), 10, 9)
        expect(seat.locator(".odds-table")).to_have_count(4)  # every order's odds, as a player sees them
        folds = seat.locator("details.autopilot-box")
        expect(folds).to_have_count(4)
        for i in range(4):
            fold = folds.nth(i)
            name = seat.locator("form.order-form").nth(i).get_attribute("data-name")
            # what is set now, and for a screen reader whose team it is for
            said = f"Autopilot of {name}: equilibrium, knockout weight: the bot's own (plays if you send no order)"
            assert said in fold.locator("summary").aria_snapshot(), fold.locator("summary").aria_snapshot()
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

    setup, context, page = play_page_without_script(chromium, server, "No script cup")
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
    assert re.search(r"Autopilot of [^:]+: even, knockout weight 1\.5 ", fold.locator("summary").aria_snapshot())
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
    order.locator("input[name=flair]").fill("0")
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
        mine = me.locator("form.order-form").nth(i)
        type_order(mine, 10, 9)
        with me.expect_navigation():
            mine.locator("button[value=ready]").click()
    expect(me.locator("#message")).to_contain_text("That was the last of your orders this turn.")
    waits = me.locator("#all-ready-waits")
    expect(waits).to_have_text("The turn waits for Player 2 (2 teams not ready); then it is resolved")
    me.evaluate("window.stillHere = true")
    visit(friend, organise.removesuffix("/organise") + "/play")
    theirs = friend.locator("form.order-form").first
    type_order(theirs, 10, 9)
    with friend.expect_navigation():
        theirs.locator("button[value=ready]").click()
    expect(waits).to_have_text("The turn waits for Player 2 (1 team not ready); then it is resolved", timeout=20000)
    assert me.evaluate("window.stillHere === true")  # put in place, not reloaded


def test_an_order_nobody_typed_is_not_sent(server: str, chromium: Any) -> None:
    """The FORCE and FLAIR boxes started at 0: a newcomer who pressed *Save and mark ready* without
    typing sent 0 + 0, a match spent with nothing, and the odds under the empty form read "Your
    order 0+0". The boxes now start empty and are required: the browser keeps the form, saying
    which team's box and that 0 is typed for none; the odds wait for a number, and with one box
    typed say that the other is still empty. A deliberate 0 + 0 is two keys away and is sent."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    base = start_with_one_seat(page, server, "Untyped cup", hours="24").removesuffix("/organise")
    visit(page, f"{base}/play")
    form = page.locator("form.order-form").first
    name = str(form.get_attribute("data-name"))
    team = str(form.get_attribute("data-team"))
    force, flair = form.locator("input[name=force]"), form.locator("input[name=flair]")
    expect(force).to_have_value("")
    expect(flair).to_have_value("")
    odds = form.locator("output.odds")
    expect(odds).to_have_text("Type FORCE and FLAIR points to see this order's expected points and chances.")
    expect(force).to_have_accessible_description("Type a number in both boxes: 0 spends nothing on that one.")

    page.evaluate("window.stillHere = true")
    form.locator("button[value=ready]").click()
    page.wait_for_timeout(300)
    assert page.evaluate("window.stillHere === true")  # not sent: the page stayed
    expect(force).to_be_focused()
    assert force.evaluate("box => box.validationMessage") == f"Type the FORCE points for {name}, 0 for none."
    expect(page.locator(f"#team-{team} .order-state")).to_have_text("No order yet")

    force.fill("12")
    # What the order spends and what it leaves after the match were "88 SCRUM left" alone. With
    # FLAIR empty there is no order yet: the sentence said "Your order 12+0", and the empty box last.
    expect(odds.locator("p").first).to_have_text(re.compile(
        r"^FLAIR is still empty: these odds take it as 0 \(type 0 there to send none\)\. 12\+0: expected [0-9.]+ "
        r"points\. It spends 12 of its 100 SCRUM points, leaving 88 after this match \(98 if it wins\)\.$"
    ))
    expect(form.locator(".odds-said")).to_have_text(re.compile(r"^FLAIR is still empty"))
    form.locator("button[value=ready]").click()
    page.wait_for_timeout(300)
    assert page.evaluate("window.stillHere === true")
    expect(flair).to_be_focused()
    assert flair.evaluate("box => box.validationMessage") == f"Type the FLAIR points for {name}, 0 for none."

    force.fill("0")
    flair.fill("0")
    expect(odds.locator("p").first).to_have_text(
        "Your order 0+0: expected 0 points. It spends nothing, leaving 100 after this match (110 if it wins)."
    )
    with page.expect_navigation():
        form.locator("button[value=ready]").click()
    expect(page.locator(f"#team-{team} .order-state")).to_have_text("ready")
    assert "Your order: 0 FORCE + 0 FLAIR" in page.locator(f"#team-{team}").inner_text()
    expect(page.locator(f"#order-{team} input[name=force]")).to_have_value("0")
    context.close()


def test_without_the_script_an_empty_box_is_refused_by_the_browser(server: str, chromium: Any) -> None:
    """With no script, the boxes are required all the same: *Save and mark ready* on an empty form
    sends nothing, and the page still says that no order was given."""
    from playwright.sync_api import expect

    setup, context, page = play_page_without_script(chromium, server, "Untyped, no script cup")
    form = page.locator("form.order-form").first
    team = str(form.get_attribute("data-team"))
    form.locator("button[value=ready]").click()
    page.wait_for_timeout(500)
    assert "done=" not in page.url
    assert form.locator("input[name=force]").evaluate("box => box.validity.valueMissing")
    expect(page.locator(f"#team-{team} .order-state")).to_have_text("No order yet")
    context.close()
    setup.close()
