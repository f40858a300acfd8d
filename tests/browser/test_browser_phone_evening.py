"""An evening of friends on phones: what a player does with a phone that a computer's user seldom
does (two tabs on one seat, the on-screen keyboard, the network lost and found again)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser.browser_helpers import start_with_one_seat, visit

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}


def test_a_tab_left_showing_an_order_another_tab_replaced_catches_up(server: str, chromium: Any) -> None:
    """A player had their seat open in two tabs of the phone (the invite opened from a message, then
    the browser's own tab). They marked 5+0 ready in one, then sent 3+3 from the other, still
    showing no order: the first tab went on saying "Your order: 5 FORCE + 0 FLAIR, ready" with 5
    and 0 in its boxes, while the list under it said "saved, not ready" and the turn would play
    3+3. Now a tab whose player's own orders (or autopilots) changed elsewhere reloads, as it does
    when the game moves on; one being typed into keeps the typing and says what changed."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    setup = context.new_page()
    play = start_with_one_seat(setup, server, "Two tabs cup", hours="24").removesuffix("/organise") + "/play"
    setup.close()
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.set_default_timeout(15000)
        visit(page, play)
    forms = first.locator("form.order-form")
    expect(forms).to_have_count(2)
    team, other = (str(forms.nth(i).get_attribute("data-team")) for i in (0, 1))

    first.fill(f"#order-{team} input[name=force]", "5")
    first.fill(f"#order-{team} input[name=flair]", "0")
    with first.expect_navigation():
        first.click(f"#order-{team} button[value=ready]")
    expect(first.locator(f"#team-{team} .order-state")).to_have_text("ready")

    second.fill(f"#order-{team} input[name=force]", "3")
    second.fill(f"#order-{team} input[name=flair]", "3")
    with second.expect_navigation():
        second.click(f"#order-{team} button[value=save]")
    expect(second.locator(f"#team-{team} .order-state")).to_have_text("saved, not ready")

    # The first tab learns it by its poll (every second here; 5 s on a server as it comes).
    expect(first.locator(f"#team-{team} .order-state")).to_have_text("saved, not ready", timeout=15000)
    expect(first.locator(f"#order-{team} input[name=force]")).to_have_value("3")
    expect(first.locator(f"#order-{team} input[name=flair]")).to_have_value("3")

    # Typing into the other team's order in the first tab: the autopilot set in the second does not
    # reload it from under the typing; a note says what changed, with its button to reload.
    first.fill(f"#order-{other} input[name=force]", "7")
    first.evaluate("window.stillHere = true")
    second.locator(f"#autopilot-box-{team} > summary").click()  # folded until opened
    second.select_option(f"#autopilot-{team}-strategy", index=1)
    with second.expect_navigation():
        second.click(f"#autopilot-{team} button")
    note = first.locator("#live-note [role=status]")
    expect(note).to_have_text(
        "Your orders or autopilots were changed in another tab or on another device: reload to see them as they stand.",
        timeout=15000,
    )
    assert first.evaluate("window.stillHere === true")
    expect(first.locator(f"#order-{other} input[name=force]")).to_have_value("7")
    context.close()


# Every box on the page that is typed into (not hidden, not a menu), by name, with the keyboard it
# asks a phone for.
_KEYBOARDS = """() => Array.from(document.querySelectorAll('main input:not([type=hidden]), main textarea'))
  .map(box => [box.name, box.type, box.getAttribute('inputmode')])"""

_NUMBERS = {"deadline_hours": "decimal", "hours": "decimal", "weight": "decimal", "force": "numeric", "flair": "numeric"}
"""The boxes that take a number, and the keypad each needs: hours and weights may have a decimal
point (0.5), an order's points are whole."""


@pytest.mark.parametrize("hours", ["24", "0"], ids=["deadline", "no deadline"])
def test_every_box_for_a_number_brings_up_a_phones_number_keypad(server: str, chromium: Any, hours: str) -> None:
    """On a phone the organiser's 'Extend by hours', 'Time left, in hours from now' and 'Deadline,
    in hours from now' brought up the full keyboard, letters first, for a number such as 2 or 0.5;
    a player's FORCE and FLAIR (type=number) the keyboard's row of figures among punctuation on
    iOS. Each box for a number now asks for the number keypad (inputmode): decimal for hours and
    weights, numeric for whole points."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    organise = start_with_one_seat(page, server, "Keypad cup", hours=hours)
    found: dict[str, set[str | None]] = {}
    for url in (server + "/", organise, organise.removesuffix("/organise") + "/play"):
        visit(page, url)
        for name, kind, mode in page.evaluate(_KEYBOARDS):
            found.setdefault(name, set()).add(mode)
            if kind == "number" or name in _NUMBERS:
                assert name in _NUMBERS, f"{url}: {name} takes a number this test does not know"
    # On the pages: the front page's deadline, the organiser's hours and bots' weights, the orders.
    assert {"deadline_hours", "hours", "weight", "force", "flair"} <= found.keys(), found
    wrong = {name: modes for name, modes in found.items() if name in _NUMBERS and modes != {_NUMBERS[name]}}
    assert not wrong, wrong
    context.close()


OFFLINE_NOTE = "Not sent: this device is offline. What you typed is still here: send it again once it is back online."


def test_an_order_sent_with_the_network_lost_is_kept_to_send_again(server: str, chromium: Any) -> None:
    """On a phone that had lost the network (a train in a tunnel), 'Save and mark ready' went to the
    browser's own error page ("No internet"), and Back, once online again, brought the page as the
    server had it: FORCE 0, no order, the 9 typed gone. Now the send is held while the browser is
    offline: the page stays, says why in the form, keeps the typing, and asks no question first
    (the organiser's resolve would have asked, then failed); back online, the same button sends it."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    organise = start_with_one_seat(page, server, "Tunnel cup", hours="24")
    play = organise.removesuffix("/organise") + "/play"
    visit(page, play)
    team = str(page.locator("form.order-form").first.get_attribute("data-team"))
    page.fill(f"#order-{team} input[name=force]", "9")
    page.fill(f"#order-{team} input[name=flair]", "0")
    context.set_offline(True)
    page.evaluate("window.stillHere = true")
    page.click(f"#order-{team} button[value=ready]")
    note = page.locator(f"#order-{team} .offline-note")
    expect(note).to_have_text(OFFLINE_NOTE)
    expect(note).to_have_attribute("role", "alert")
    assert page.evaluate("window.stillHere === true")  # the page was not left
    expect(page.locator(f"#order-{team} input[name=force]")).to_have_value("9")

    context.set_offline(False)
    expect(note).to_have_count(0)
    with page.expect_navigation():
        page.click(f"#order-{team} button[value=ready]")
    expect(page.locator(f"#team-{team} .order-state")).to_have_text("ready")
    expect(page.locator(f"#order-{team} input[name=force]")).to_have_value("9")

    # The organiser's resolve asks first, online; offline it is held before the question.
    visit(page, organise)
    context.set_offline(True)
    page.click("#resolve button")
    expect(page.locator("#resolve .offline-note")).to_have_text(OFFLINE_NOTE)
    assert asked == []
    context.set_offline(False)
    with page.expect_navigation():
        page.click("#resolve button")
    assert len(asked) == 1
    expect(page.locator("#done")).to_contain_text("Turn 1 resolved")
    context.close()


HIDE = """(hidden) => {
  Object.defineProperty(document, 'hidden', { configurable: true, get() { return hidden; } });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get() { return hidden ? 'hidden' : 'visible'; } });
  document.dispatchEvent(new Event('visibilitychange'));
}"""
"""Puts the page in the background (true) or brings it back (false), as a phone does when its
reader switches to another app and back."""


def test_a_countdown_brought_back_from_the_background_says_at_once_how_things_stand(server: str, chromium: Any) -> None:
    """A player typing an order switched to a messaging app and came back after the deadline had
    passed (the server had not yet got to the turn): the page went on saying "(in 2 h)", as the phone
    had held back its timers, until the next tick up to 30 s later. Brought back to the front, the
    countdown now says at once that the deadline has passed."""
    from datetime import UTC, datetime, timedelta

    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    page.clock.install(time=datetime.now(UTC))
    organise = start_with_one_seat(page, server, "Background cup", hours="2")
    visit(page, organise.removesuffix("/organise") + "/play")
    countdown = page.locator(".countdown")
    expect(countdown).to_have_text(re.compile(r"^\(in (2 h|1 h 59 min)\)$"))
    team = str(page.locator("form.order-form").first.get_attribute("data-team"))
    page.fill(f"#order-{team} input[name=force]", "4")  # typing: the page does not reload itself

    page.evaluate(HIDE, True)
    page.clock.set_system_time(datetime.now(UTC) + timedelta(hours=3))  # no timer runs meanwhile
    page.evaluate(HIDE, False)
    expect(countdown).to_have_text(re.compile(r"^\(passed: orders are closed"), timeout=2000)
    expect(page.locator(f"#order-{team} input[name=force]")).to_have_value("4")
    context.close()


ZOOMED_200 = {"viewport": {"width": 195, "height": 422}, "device_scale_factor": 6, "is_mobile": True, "has_touch": True}
"""A 390 px phone (three device pixels to one) with the browser's zoom at 200%."""


def test_no_page_to_make_or_join_a_game_scrolls_sideways_at_200_percent(server: str, chromium: Any) -> None:
    """On a 390 px phone zoomed to 200% (195 CSS px), the front page's name and deadline boxes,
    each as wide as 20 characters, were 222 px wide: the whole page scrolled sideways. No page of
    making, sharing and joining a game is wider than the screen now."""
    context = chromium.new_context(**ZOOMED_200)
    page = context.new_page()
    page.set_default_timeout(15000)
    wide = []
    visit(page, server + "/")
    wide.append(("front page", page.evaluate("() => document.scrollingElement.scrollWidth")))
    page.fill("input[name=name]", "Zoomed cup")
    page.click("#create-game button[type=submit]")
    page.wait_for_load_state("load")
    wide.append(("game created", page.evaluate("() => document.scrollingElement.scrollWidth")))
    invite = page.locator("code.invite").first.inner_text()
    guest = chromium.new_context(**ZOOMED_200).new_page()
    guest.set_default_timeout(15000)
    visit(guest, invite)
    wide.append(("joining", guest.evaluate("() => document.scrollingElement.scrollWidth")))
    guest.fill("input[name=name]", "Ann")
    guest.click("#join button[type=submit]")
    guest.wait_for_url(re.compile(r"/play$"))
    wide.append(("player's page", guest.evaluate("() => document.scrollingElement.scrollWidth")))
    assert [(where, width) for where, width in wide if width > 195] == [], wide
    guest.context.close()
    context.close()


KEPT_NOTE = "Not sent yet: what you typed here was kept while the page came back."


def test_an_order_half_typed_survives_a_reload(server: str, chromium: Any) -> None:
    """On a phone a pull down the page reloads it, often by accident: the order half typed (7 and
    3), the autopilot picked and the organiser's 'Extend by hours' came back as the server had
    them, the typing lost. Now what was typed since the page loaded comes back as typed, each form
    saying it is not sent yet; what is then sent is what the page shows after, with no such note."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    organise = start_with_one_seat(page, server, "Pull-down cup", hours="24")
    page.fill("#extend input[name=hours]", "7")
    page.reload()
    expect(page.locator("#extend input[name=hours]")).to_have_value("7")
    expect(page.locator("#extend .kept-note")).to_have_text(KEPT_NOTE)

    visit(page, organise.removesuffix("/organise") + "/play")
    forms = page.locator("form.order-form")
    expect(forms).to_have_count(2)
    team, other = (str(forms.nth(i).get_attribute("data-team")) for i in (0, 1))
    page.fill(f"#order-{team} input[name=force]", "7")
    page.fill(f"#order-{team} input[name=flair]", "3")
    pilot = page.locator(f"#autopilot-{other}-strategy")
    page.locator(f"#autopilot-box-{other} > summary").click()  # folded until opened; kept typing reopens it
    pilot.select_option(index=2)
    picked = pilot.input_value()
    page.reload()
    expect(page.locator(f"#order-{team} input[name=force]")).to_have_value("7")
    expect(page.locator(f"#order-{team} input[name=flair]")).to_have_value("3")
    expect(page.locator(f"#order-{team} .kept-note")).to_have_text(KEPT_NOTE)
    expect(pilot).to_have_value(picked)
    expect(page.locator(f"#autopilot-{other} .kept-note")).to_have_text(KEPT_NOTE)

    with page.expect_navigation():
        page.click(f"#order-{team} button[value=ready]")
    expect(page.locator(f"#team-{team} .order-state")).to_have_text("ready")
    expect(page.locator(f"#order-{team} input[name=force]")).to_have_value("7")
    expect(page.locator(f"#order-{team} .kept-note")).to_have_count(0)
    expect(pilot).to_have_value(picked)  # still not sent, still kept
    # Kept typing left as it was lasts one load, as ever: a second reload shows the server's page.
    page.reload()
    expect(page.locator(".kept-note")).to_have_count(0)
    assert pilot.input_value() != picked
    context.close()


def test_odds_asked_with_the_network_lost_come_once_it_is_back(server: str, chromium: Any) -> None:
    """A player typed an order on a phone that had just lost the network: the odds said "odds
    unavailable", and went on saying it once the phone was back online, until the order was typed
    again. They are now asked again as soon as the browser is back online."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    organise = start_with_one_seat(page, server, "Masts cup", hours="24")
    visit(page, organise.removesuffix("/organise") + "/play")
    team = str(page.locator("form.order-form").first.get_attribute("data-team"))
    odds = page.locator(f"#order-{team} output.odds")
    # Nothing typed yet, nothing asked: the script says what brings the odds.
    expect(odds).to_have_text("Type FORCE and FLAIR points to see this order's expected points and chances.")
    context.set_offline(True)
    page.fill(f"#order-{team} input[name=force]", "8")
    expect(odds).to_have_text("odds unavailable")
    context.set_offline(False)
    expect(odds.locator("p").first).to_contain_text("FLAIR is still empty: these odds take it as 0 (type 0 there to send none). 8+0: expected")
    context.close()
