"""R13 on a shared device: what a player typed into their order forms stays in the tab (each form's
last odds, with the draft they were asked for, and typing not sent) for the page's own use; signing
out of the browser forgets it, so that the next person at the same tab cannot read it back."""

from __future__ import annotations

import json
import re
from typing import Any

from browser.browser_helpers import create_game, type_order, visit


def test_signing_out_forgets_the_drafts_the_tab_kept(server: str, chromium: Any) -> None:
    """A player saved 47 + 39 for one team and typed 52 + 27 for another without sending it, then
    signed out on the front page: the tab's storage still held both, the first with its odds
    ("sevens-odds ... {force: 47, flair: 39}"), for whoever used the tab next to read in the
    browser's console. Now sign-out leaves nothing of sevens' in it."""
    from playwright.sync_api import expect

    organiser, organise, invites = create_game(chromium, server, "Shared tab cup", viewport={"width": 1000, "height": 800}, hours="24")
    page = chromium.new_context(viewport={"width": 1000, "height": 900}).new_page()
    page.set_default_timeout(15000)
    visit(page, invites[0])
    page.fill("input[name=name]", "Ann")
    page.click("#join button[type=submit]")
    expect(page).to_have_url(re.compile(r"/play"))
    visit(organiser, organise)
    organiser.click("#start button")
    visit(page, page.url)
    first, second = page.locator("form.order-form").nth(0), page.locator("form.order-form").nth(1)
    type_order(first, 47, 39)
    expect(first.locator("output.odds")).to_contain_text(re.compile(r"expected \d"))
    type_order(second, 52, 27)
    with page.expect_navigation():
        first.locator("button[value=save]").click()
    expect(page.locator("form.order-form").nth(1).locator("input[name=force]")).to_have_value("52")
    # The typing put back is read once and removed; what holds 52 now is its odds, kept when they
    # come (under load after the read below, which then found no 52).
    expect(page.locator("form.order-form").nth(1).locator("output.odds")).to_contain_text(re.compile(r"expected \d"))
    kept = page.evaluate("() => JSON.stringify(Object.entries(sessionStorage))")
    assert '\\"force\\":\\"47\\"' in kept and "52" in kept, kept  # the page keeps them while the seat is its

    visit(page, server + "/")
    with page.expect_navigation():
        page.click("#sign-out button")
    left = json.loads(page.evaluate("() => JSON.stringify(Object.entries(sessionStorage))"))
    assert [key for key, _ in left if key.startswith("sevens-")] == [], left
    assert not any(re.search(r"\b(47|39|52|27)\b", value) for _, value in left), left
