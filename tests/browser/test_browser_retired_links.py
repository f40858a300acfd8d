"""A link shown once in one tab, retired by a newer link made in another tab or browser: the first
tab says so at that link (as it polls, or comes back to the front), so nobody sends a dead link."""

from __future__ import annotations

from typing import Any

from browser.browser_helpers import visit

POLLED = 15000
"""How long to wait, in ms, for what a tab learns by its poll: it asks every second on the test
server (every 5 s on a server as it comes, when one in twelve tries under load came after 5.07 s,
past Playwright's default 5 s). Headless Chromium sends a tab brought to the front neither a focus
event nor a visibilitychange, so ``bring_to_front`` does not make it ask at once: the next tick of
the poll says it, plus the answer's time."""


def _tab(context: Any) -> Any:
    page = context.new_page()
    page.set_default_timeout(15000)
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def test_a_tab_showing_links_says_when_another_tab_retires_them(server: str, chromium: Any) -> None:
    """The organiser left the new game's page (its links) open in one tab and, in a second, made a
    new invite for seat 3 and then a new organiser link; a third time, a new invite for seat 2 is
    shown in one tab and replaced in another. Each first tab said nothing and still offered the
    dead links; now each says, at the link, that it no longer works."""
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    first = _tab(context)
    visit(first, server + "/")
    first.fill("input[name=name]", "Two tabs of links")
    first.click("#create-game button[type=submit]")
    organise = server + "/games/" + str(first.locator("#to-organise").get_attribute("href")).split("/")[2] + "/organise"
    expect(first.locator(".retired-note")).to_have_count(0)

    second = _tab(context)
    visit(second, organise)
    second.click("button[aria-label='New invite link for seat 3']")
    expect(second.locator("#invite-link")).to_be_visible()
    first.bring_to_front()
    seat3 = first.locator("#invites li[data-player=p3]")
    expect(seat3.locator(".retired-note")).to_contain_text("This link no longer works: a newer link for seat 3", timeout=POLLED)
    expect(seat3.locator("a.take-seat")).to_be_hidden()
    expect(first.locator("#invites li[data-player=p1] .retired-note")).to_have_count(0)
    expect(first.locator("#all-links-retired")).to_contain_text("the link of seat 3 no longer works")
    expect(first.locator("#organiser-link ~ .retired-note")).to_have_count(0)

    visit(second, organise)
    second.click("#new-organiser-link button")
    expect(second.locator("h1")).to_contain_text("New organiser link")
    first.bring_to_front()
    expect(first.locator("#organiser-link + .retired-note")).to_contain_text("a newer link for the organiser link", timeout=POLLED)

    # A new invite shown in one tab, replaced from another.
    visit(second, organise)
    second.click("button[aria-label='New invite link for seat 2']")
    shown = second.locator("#invite-link").inner_text()
    third = _tab(context)
    visit(third, organise)
    third.click("button[aria-label='New invite link for seat 2']")
    assert third.locator("#invite-link").inner_text() != shown
    second.bring_to_front()
    expect(second.locator("#invite-link + .retired-note")).to_contain_text("This link no longer works", timeout=POLLED)
    expect(third.locator(".retired-note")).to_have_count(0)
    context.close()


def _organises_and_makes_a_newer_link(chromium: Any, link: str) -> Any:
    """A second browser takes up the organiser link ``link`` and makes a newer one, which retires
    ``link`` and takes the organising from whichever browser held it; returns its tab."""
    from playwright.sync_api import expect

    b = _tab(chromium.new_context(viewport={"width": 1000, "height": 800}))
    visit(b, link)
    b.click("button[type=submit]")
    b.click("#new-organiser-link button")
    expect(b.locator("h1")).to_contain_text("New organiser link")
    return b


def test_a_new_organiser_link_made_in_another_browser_is_said_in_the_first(server: str, chromium: Any) -> None:
    """Browser A makes a new organiser link and shows it; browser B, which organises through it,
    makes another: A no longer organises and its link is dead, and A's page says both."""
    from playwright.sync_api import expect

    a = _tab(chromium.new_context(viewport={"width": 1000, "height": 800}))
    visit(a, server + "/")
    a.fill("input[name=name]", "Two browsers")
    a.click("#create-game button[type=submit]")
    a.click("#to-organise")
    a.click("#new-organiser-link button")
    link = a.locator("#organiser-link").inner_text()
    b = _organises_and_makes_a_newer_link(chromium, link)
    a.bring_to_front()
    expect(a.locator("#organiser-link + .retired-note")).to_contain_text("this browser has lost its part in the game", timeout=POLLED)
    a.context.close()
    b.context.close()


def test_an_invite_shown_to_an_organiser_who_lost_the_game_is_not_called_dead(server: str, chromium: Any) -> None:
    """Browser A shows a new invite for seat 3; browser B, organising through a newer organiser link,
    then takes the organising away from A. A's page said that invite "no longer works" and not to
    send it, though it still opened the seat. Now it says A can no longer tell, and the invite works."""
    from playwright.sync_api import expect

    a = _tab(chromium.new_context(viewport={"width": 1000, "height": 800}))
    visit(a, server + "/")
    a.fill("input[name=name]", "Lost organiser")
    a.click("#create-game button[type=submit]")
    a.click("#to-organise")
    organise = a.url
    a.click("#new-organiser-link button")
    link = a.locator("#organiser-link").inner_text()
    visit(a, organise)
    a.click("button[aria-label='New invite link for seat 3']")
    invite = a.locator("#invite-link").inner_text()
    b = _organises_and_makes_a_newer_link(chromium, link)
    a.bring_to_front()
    expect(a.locator("#invite-link + .unsure-note")).to_contain_text("cannot tell whether this link still works", timeout=POLLED)
    expect(a.locator(".retired-note")).to_have_count(0)
    c = _tab(chromium.new_context(viewport={"width": 1000, "height": 800}))
    visit(c, invite)
    expect(c.locator("body")).not_to_contain_text("no longer works")
    for context in (a.context, b.context, c.context):
        context.close()


def test_an_organiser_who_plays_a_seat_is_told_the_organiser_link_is_dead(server: str, chromium: Any) -> None:
    """As above, but browser A also plays seat 1, as an organiser often does: its poll is still
    answered (with its own seat's mark alone), and the page, finding no mark for the organiser link,
    said nothing while that link no longer worked."""
    from playwright.sync_api import expect

    a = _tab(chromium.new_context(viewport={"width": 1000, "height": 800}))
    visit(a, server + "/")
    a.fill("input[name=name]", "Organiser who plays")
    a.click("#create-game button[type=submit]")
    organise = server + str(a.locator("#to-organise").get_attribute("href"))
    a.locator("a.take-seat").first.click()
    a.fill("input[name=name]", "Me")
    a.click("#join button[type=submit]")
    visit(a, organise)
    a.click("#new-organiser-link button")
    link = a.locator("#organiser-link").inner_text()
    b = _organises_and_makes_a_newer_link(chromium, link)
    a.bring_to_front()
    expect(a.locator("#organiser-link + .retired-note")).to_contain_text("this browser has lost its part in the game", timeout=POLLED)
    a.context.close()
    b.context.close()
