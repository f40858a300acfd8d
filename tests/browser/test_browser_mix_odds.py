"""The live odds against a bot that mixes are against its whole mix, and the page says so."""

from __future__ import annotations

from typing import Any

from browser.browser_helpers import start_with_one_seat, type_order, visit

DESKTOP = {"width": 1280, "height": 900}


def test_the_live_odds_say_which_bots_mix_and_over_what(server: str, chromium: Any) -> None:
    """The table showed one order per bot, one draw of it ("even": 11+9), as if the bot played
    that. A mixing bot's row is now against its whole mix, marked "(mix)" beside its likeliest
    order, and a note under the table gives each mix: "even" at 20 points 11+9 62.5%, 8+12 37.5%;
    "random", hundreds of orders, by an even sample (not exact)."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport=DESKTOP).new_page()
    base = start_with_one_seat(page, server, "Mixes cup", hours="24").removesuffix("/organise")
    visit(page, f"{base}/play")
    form = page.locator("form.order-form").first
    type_order(form, 10, 9)
    odds = form.locator("output.odds")
    expect(odds.locator(".odds-mixes")).to_contain_text("Against a bot that mixes, the odds are against every order")
    note = odds.locator(".odds-mixes").inner_text()
    assert "11+9 62.5%, 8+12 37.5%" in note, note
    assert "random: " in note and "orders, by an even sample of " in note and "(not exact)" in note, note
    rows = odds.locator("table.odds-table tr").all()
    marked = [row.locator("th").inner_text() for row in rows[1:] if "(mix)" in row.locator("td").first.inner_text()]
    assert any("even" in bots.split(", ") for bots in marked), marked
    assert not any("even-flair" in bots.split(", ") for bots in marked), marked  # all FLAIR: one order
    # The caption, read out before the table, said the figures were "against each bot's order".
    caption = odds.locator("table.odds-table caption").text_content() or ""
    assert "against the orders each bot may give, each weighted by its chance" in caption, caption
    assert "a mixing bot's order shown is its likeliest" in caption, caption
    assert "random" in caption and "an even sample of its orders (not exact)" in caption, caption
    assert "each bot's order" not in caption, caption
    page.context.close()
