"""The create form's two default bots in a browser: one for the teams nobody plays, one for a
player's missed orders (R13)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from browser.browser_helpers import visit


def test_the_create_form_sets_a_bot_for_the_teams_nobody_plays_and_another_for_missed_orders(
    server: str, chromium: Any
) -> None:
    """One menu was both the house teams' bot and every absent player's autopilot: a hard field
    (table-reader) gave a friend who missed a deadline a stand-in that rests matches on purpose.
    The form now has a menu for each, named for what it sets, each with its knockout weight box; a
    refused weight comes back at its own box with both menus as chosen; the game then says which
    bot plays what, the player's page names their autopilot and the organiser's the house bots."""
    page = chromium.new_context(viewport={"width": 1000, "height": 800}).new_page()
    page.set_default_timeout(15000)
    page.on("dialog", lambda dialog: dialog.accept())
    visit(page, server + "/")
    house = page.get_by_label("Bot for the teams nobody plays (R13)")
    autopilot = page.get_by_label("Default autopilot for players' missed orders (R13)")
    expect(house).to_have_value("equilibrium")
    expect(autopilot).to_have_value("equilibrium")
    expect(page.locator("input[name=default_autopilot_weight]")).to_have_accessible_description(
        re.compile(r"^A knockout weight is optional\.")
    )
    page.fill("input[name=name]", "Two bots cup")
    page.fill("input[name=deadline_hours]", "24")
    house.select_option("table-reader")
    autopilot.select_option("field-reader")
    page.fill("input[name=default_autopilot_weight]", "9")
    page.click("#create-game button[type=submit]")

    summary = page.locator("#create-game-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("field-reader leans toward a knockout weight from 0 to 4, got 9")
    weight = page.locator("#create-game [name=default_autopilot_weight]")
    expect(weight).to_have_attribute("aria-invalid", "true")
    expect(weight).to_have_value("9")
    expect(house).to_have_value("table-reader")
    expect(autopilot).to_have_value("field-reader")
    weight.fill("1")
    page.click("#create-game button[type=submit]")

    solo = page.locator("#solo")
    expect(solo).to_contain_text("Seats nobody takes are played by the bot table-reader (R13)")
    expect(solo).to_contain_text("The missed orders of a player in their seat are played by the bot field-reader@1")
    organise = server + str(page.locator("#to-organise").get_attribute("href"))
    page.locator("a.take-seat").first.click()
    page.fill("input[name=name]", "Ann")
    page.click("#join button[type=submit]")
    visit(page, organise)
    page.click("#start button")
    expect(page.locator("#house-bots .house-bot")).to_have_count(6)
    assert set(page.locator("#house-bots .house-bot").all_inner_texts()) == {"table-reader"}

    visit(page, organise.removesuffix("/organise") + "/play")
    pilots = page.locator("form.autopilot")
    expect(pilots).to_have_count(2)
    for i in range(2):
        expect(pilots.nth(i)).to_contain_text("Now: field-reader@1,")
        expect(pilots.nth(i).locator("select[name=strategy]")).to_have_value("field-reader")
    page.context.close()
