"""What was typed into one form of a page and not sent is still there, and said to be not sent,
when another form of that page is sent and the page comes back (the organiser's bots and extend
box, a player's orders per team); never in a form of another turn, never in another tab."""

from __future__ import annotations

import re
from typing import Any

from browser.browser_helpers import start_with_one_seat, visit


def test_the_organiser_page_keeps_what_was_typed_into_its_other_forms(server: str, chromium: Any) -> None:
    """The organiser typed 6 into 'Extend by hours' and picked a bot for one team, then pressed
    'Set' for another team's bot (or 'Pause'): the page came back with 24 and the old bot, the
    typing lost without a word. Now both stay, each form saying it is not sent yet; the form that
    was sent shows what the server did, and nothing typed was sent."""
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Kept cup", hours="24")
    forms = page.locator("#house-bots form")
    assert forms.count() >= 2
    first, second = forms.nth(0), forms.nth(1)
    first_id, second_id = first.get_attribute("id"), second.get_attribute("id")
    page.fill("#extend-hours", "6")
    page.select_option(f"#{first_id} select", "group-blitz")
    page.fill(f"#{first_id} input[name=weight]", "")
    page.select_option(f"#{second_id} select", "knockout-saver")
    with page.expect_navigation():
        page.click(f"#{second_id} button")
    expect(page).to_have_url(re.compile("^" + re.escape(organise + "?done=house-bot")))
    expect(page.locator("#extend-hours")).to_have_value("6")
    expect(page.locator(f"#{first_id} select")).to_have_value("group-blitz")
    expect(page.locator("#extend-kept")).to_contain_text("Not sent yet")
    expect(page.locator(f"#{first_id}-kept")).to_contain_text("Not sent yet")
    # The form sent is as the server has it now; the others were not sent.
    expect(page.locator(f"#{second_id} select")).to_have_value("knockout-saver")
    expect(page.locator(f"#{second_id}-kept")).to_have_count(0)
    assert "group-blitz" not in page.locator(f"#house-{first_id.removeprefix('house-bot-')} .house-bot").inner_text()
    # A button with nothing typed behind it keeps the typing too, once more.
    with page.expect_navigation():
        page.click("button:has-text('Pause the deadline')")
    expect(page.locator("#paused")).to_be_visible()
    expect(page.locator("#extend-hours")).to_have_value("6")
    expect(page.locator(f"#{first_id} select")).to_have_value("group-blitz")
    # Read once: a reload (or another tab) shows the page as the server has it.
    page.reload()
    expect(page.locator("#extend-hours")).to_have_value("24")
    expect(page.locator(".kept-note")).to_have_count(0)
    context.close()


def test_a_players_other_order_stays_typed_but_never_in_the_next_turns_form(server: str, chromium: Any) -> None:
    """A player typed an order for their second team, then saved the first: the second team's
    boxes came back empty. Now they keep it (not sent, and said so), until a turn moves on: then the
    next turn's form starts from the server's values."""
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Kept orders", hours="24")
    visit(page, organise.removesuffix("/organise") + "/play")
    orders = page.locator("form.order-form")
    assert orders.count() == 2
    one, two = orders.nth(0).get_attribute("id"), orders.nth(1).get_attribute("id")
    page.fill(f"#{two} input[name=force]", "4")
    page.fill(f"#{two} input[name=flair]", "3")
    page.fill(f"#{one} input[name=force]", "2")
    page.fill(f"#{one} input[name=flair]", "0")
    # Typing takes a while: the page that comes back is made in a later second than this one
    # (its forms' seat marks, which hold that time, differ from these).
    page.wait_for_timeout(1100)
    with page.expect_navigation():
        page.click(f"#{one} button[value=save]")
    expect(page.locator("#message")).to_be_visible()
    expect(page.locator(f"#{two} input[name=force]")).to_have_value("4")
    expect(page.locator(f"#{two} input[name=flair]")).to_have_value("3")
    expect(page.locator(f"#{two}-kept")).to_contain_text("Not sent yet")
    expect(page.locator(f"#{one}-kept")).to_have_count(0)
    # The second is marked ready as typed; then typed again, not sent, while the first is marked
    # ready: that was the last order missing, the turn is resolved, and the next turn's form of the
    # second team starts from the server's values, not from what was typed for the turn before.
    with page.expect_navigation():
        page.click(f"#{two} button[value=ready]")
    # Nothing was typed into the first since it was saved: nothing is said to be kept (its buttons
    # and the rest of its form, as they came, are not typing).
    expect(page.locator("#message")).to_be_visible()
    expect(page.locator(".kept-note")).to_have_count(0)
    page.fill(f"#{two} input[name=force]", "5")
    with page.expect_navigation():
        page.click(f"#{one} button[value=ready]")
    expect(page.locator("#turn")).to_have_text(re.compile(r"^2 of"))
    expect(page.locator(f"#{two} input[name=force]")).to_have_value("")  # no order yet for turn 2
    expect(page.locator(".kept-note")).to_have_count(0)
    context.close()


def test_a_refusal_by_an_hourly_limit_is_said_where_the_form_was(few_acts_server: str, chromium: Any) -> None:
    """Past the limit on organiser acts the organiser's browser showed the general error page, the
    hours typed into the form gone with it. Now the organiser page comes back: the form says what
    was refused and when to try again (focused), with the hours still in the box; a button says so
    at the top of the page. A player past the limit on links for another device is told so at the
    top of their own page, its order forms there as they were."""
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, few_acts_server, "Limited cup", hours="24")
    for button in ("Pause the deadline", "Resume"):  # the two acts this hour
        with page.expect_navigation():
            page.click(f"button:has-text('{button}')")
    page.fill("#extend-hours", "6")
    with page.expect_navigation():
        page.click("#extend button")
    assert page.url == organise
    summary = page.locator("#extend-summary")
    expect(summary).to_contain_text("The deadline was not moved:")
    expect(summary).to_contain_text("too many organiser acts on this game: this server allows 2 an hour on one game")
    expect(summary).to_contain_text("try again in 60 minutes")
    expect(summary).to_be_focused()
    expect(page.locator("#extend-hours")).to_have_value("6")
    with page.expect_navigation():
        page.click("button:has-text('Pause the deadline')")
    expect(page.locator("#notice")).to_contain_text("The deadline was not paused: too many organiser acts")
    expect(page.locator("#notice")).to_be_focused()
    expect(page.locator("#paused")).to_have_count(0)
    play = organise.removesuffix("/organise") + "/play"
    visit(page, play)
    first = page.locator("form.order-form").first.get_attribute("id")
    with page.expect_navigation():
        page.click("button:has-text('A link for another device')")
    expect(page.locator("#invite-link")).to_be_visible()
    visit(page, play)
    with page.expect_navigation():
        page.click("button:has-text('A link for another device')")
    assert page.url == play
    notice = page.locator("#notice")
    expect(notice).to_contain_text("Too many links for another device for your seat: this server makes 1 an hour")
    expect(notice).to_contain_text("the one you made last still works, try again in 60 minutes")
    expect(notice).to_be_focused()
    expect(page.locator(f"#{first}")).to_be_visible()
    context.close()


def _hours_typed_then_a_new_session(server: str, chromium: Any, name: str) -> tuple[Any, str]:
    """A started game's organiser page with 6 typed into Extend, left open while, in another tab,
    the browser signed out and opened the organiser link again: that page, and its address."""
    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.set_default_timeout(15000)
    page.goto(server + "/")
    page.fill("input[name=name]", name)
    page.fill("input[name=deadline_hours]", "24")
    page.click("#create-game button[type=submit]")
    link = page.locator("#organiser-link").inner_text()
    organise = server + str(page.locator("#to-organise").get_attribute("href"))
    page.locator("a.take-seat").first.click()  # a seat taken, or the bots would play it all at once
    page.fill("input[name=name]", "Me")
    page.click("#join button[type=submit]")
    page.goto(organise)
    page.click("#start button")
    page.fill("#extend-hours", "6")
    other = context.new_page()
    other.on("dialog", lambda dialog: dialog.accept())
    other.goto(server + "/")
    with other.expect_navigation():
        other.click("#sign-out button")
    other.goto(link)
    with other.expect_navigation():
        other.click("form button[type=submit]")
    other.close()
    return page, organise


def test_an_organiser_form_whose_page_expired_comes_back_to_send_again(server: str, chromium: Any) -> None:
    """The organiser page left open while, in another tab, the browser signed out and opened the
    organiser link again (a new session, so a new token for the forms): the hours typed into the
    old tab came back on the general error page, and only the back button kept them. Now Chromium,
    which says the form was sent from the site's own page, gets the organiser page back with the
    hours in the box, saying the page had expired and nothing was done; sent again, it is done."""
    from playwright.sync_api import expect

    page, organise = _hours_typed_then_a_new_session(server, chromium, "Expired cup")
    with page.expect_navigation():
        page.click("#extend button")
    assert page.url == organise
    summary = page.locator("#extend-summary")
    expect(summary).to_contain_text("This page had expired")
    expect(summary).to_contain_text("Nothing was done")
    expect(summary).to_be_focused()
    expect(page.locator("#extend-hours")).to_have_value("6")
    with page.expect_navigation():
        page.click("#extend button")
    expect(page).to_have_url(re.compile("^" + re.escape(organise + "?done=extend")))
    page.context.close()


def test_typing_in_the_organiser_page_outlives_a_new_session_when_another_form_is_sent(
    server: str, chromium: Any
) -> None:
    """Hours typed into Extend, then Pause pressed, after the browser signed out and opened the
    organiser link again in another tab: the page comes back as expired, and the hours are back in
    their box. Each form's hidden proof that this browser organises the game (organises) is made
    for the session, as its token is, so a form is matched without it, or the new session's page
    would not know the old one's typing for its own."""
    from playwright.sync_api import expect

    page, _ = _hours_typed_then_a_new_session(server, chromium, "Kept across cup")
    with page.expect_navigation():
        page.click("form[action$='/pause'] button")
    expect(page.locator("#notice")).to_contain_text("This page had expired")
    expect(page.locator("#extend-hours")).to_have_value("6")
    page.context.close()
