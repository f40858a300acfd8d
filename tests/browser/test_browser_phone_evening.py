"""An evening of friends on phones: what a player does with a phone that a computer's user seldom
does (two tabs on one seat, the on-screen keyboard, the network lost and found again)."""

from __future__ import annotations

from typing import Any

import pytest

from browser.browser_helpers import CHROMIUM, start_with_one_seat, visit

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (scripts/setup-system)"
    ),
]

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

    # The first tab is polled every 5 s: more than expect's own 5 s.
    expect(first.locator(f"#team-{team} .order-state")).to_have_text("saved, not ready", timeout=15000)
    expect(first.locator(f"#order-{team} input[name=force]")).to_have_value("3")
    expect(first.locator(f"#order-{team} input[name=flair]")).to_have_value("3")

    # Typing into the other team's order in the first tab: the autopilot set in the second does not
    # reload it from under the typing; a note says what changed, with its button to reload.
    first.fill(f"#order-{other} input[name=force]", "7")
    first.evaluate("window.stillHere = true")
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
