"""An organiser's slips the pages catch: Start pressed before any friend has taken a seat asks first,
since the bots would play the whole game at once (docs/web.md, Start)."""

from __future__ import annotations

from typing import Any

from browser.browser_helpers import visit


def test_start_with_no_seat_taken_asks_first(server: str, chromium: Any) -> None:
    from playwright.sync_api import expect

    page = chromium.new_context(viewport={"width": 1000, "height": 800}).new_page()
    page.set_default_timeout(15000)
    visit(page, server + "/")
    page.fill("input[name=name]", "Too early cup")
    page.fill("input[name=deadline_hours]", "24")
    page.click("#create-game button[type=submit]")
    organise = server + str(page.locator("#to-organise").get_attribute("href"))
    visit(page, organise)
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("#start button")
    expect(page.locator("#start button")).to_be_visible()  # dismissed: still the lobby
    assert len(asked) == 1 and "Nobody has taken a seat yet" in asked[0], asked
    visit(page, organise)
    expect(page.locator("#start button")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#start button")
    expect(page.locator("main")).to_contain_text("champion")  # the bots played it through at once
