"""A player's page that reloads itself when the game moves on comes back at the address of the page
as it now is: the note on the order just sent, its query (done, team, turn) and the ``#message``
fragment that pointed at it belong to the page the order was sent from."""

from __future__ import annotations

import re
from typing import Any

from browser.browser_helpers import start_with_one_seat, visit


def test_a_page_reloaded_after_an_order_was_sent_keeps_no_fragment_pointing_at_its_note(
    server: str, chromium: Any
) -> None:
    """The order's page is /play?done=ready&team=...&turn=1#message, scrolled to the note. When
    the turn was resolved the page reloaded into turn 2 without the note but still at #message:
    an address naming nothing in the page, which a bookmark, a copy of the address or a reload by
    hand would carry on, and which would jump to another turn's note if one were there."""
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Fragment cup", hours="24")
    play = organise.removesuffix("/organise") + "/play"
    visit(page, play)
    form = page.locator("form.order-form").first
    form.locator("input[name=force]").fill("10")
    form.locator("input[name=flair]").fill("0")
    with page.expect_navigation():
        form.locator("button[value=ready]").click()
    expect(page.locator("#message")).to_be_visible()
    assert re.fullmatch(re.escape(play) + r"\?done=ready&team=[\w-]+&turn=1#message", page.url), page.url

    organiser = context.new_page()
    organiser.on("dialog", lambda dialog: dialog.accept())
    visit(organiser, organise)
    organiser.click("#resolve button")
    # The player's page, not touched since the order, follows the game into turn 2 by itself.
    expect(page.locator("#turn")).to_have_text(re.compile(r"^2 of"), timeout=30000)
    expect(page.locator("#message")).to_have_count(0)
    assert page.url == play, page.url
    context.close()
