"""A player's open page follows who has ordered: another seat's "ready" shows in its list within a
poll or two, without a reload and without touching what the player is typing (R13: whether, never
what)."""

from __future__ import annotations

from typing import Any

import pytest

from browser.browser_helpers import CHROMIUM, create_game, join_by_invites, visit

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (scripts/setup-system)"
    ),
]


def test_another_players_ready_shows_on_an_open_page_without_a_reload(server: str, chromium: Any) -> None:
    from playwright.sync_api import expect

    organiser, organise, invites = create_game(
        chromium, server, "Waiting cup", viewport={"width": 1000, "height": 800}, arrangement="4-8-2", hours="24"
    )
    players = join_by_invites(chromium, invites[:2], {"width": 1000, "height": 800})
    visit(organiser, organise)
    organiser.click("#start button")
    expect(organiser.locator("#order-states")).to_be_visible()
    first, second = players
    play = organise.removesuffix("/organise") + "/play"
    visit(first, play)
    visit(second, play)

    listed = first.locator("#who-ordered-list")
    expect(first.locator("#who-ordered-count")).to_have_text("Ready: 0 of 4 teams that people play. 4 more teams are played by their bots.")
    their_team = second.locator("form.order-form").first.get_attribute("data-team")
    expect(listed.locator(f"li[data-team='{their_team}']")).to_have_class("state-none")
    # The first player is typing an order, its box still focused, when the second marks theirs ready.
    form = first.locator("form.order-form").first
    form.locator("input[name=force]").fill("7")
    form.locator("input[name=flair]").fill("6")
    first.evaluate("window.stillThisPage = true")
    second.locator("form.order-form").first.locator("input[name=force]").fill("5")
    second.locator("form.order-form").first.locator("input[name=flair]").fill("3")
    with second.expect_navigation():
        second.locator("form.order-form").first.locator("button[value=ready]").click()
    expect(second.locator("#message")).to_contain_text("ready")

    expect(listed.locator(f"li[data-team='{their_team}']")).to_have_class("state-ready", timeout=15000)  # polled every 5 s
    expect(listed.locator(f"li[data-team='{their_team}']")).to_contain_text("(Player 2): ready")
    expect(first.locator("#who-ordered-count")).to_have_text(
        "Ready: 1 of 4 teams that people play. 4 more teams are played by their bots."
    )
    assert first.evaluate("window.stillThisPage") is True  # not reloaded
    expect(form.locator("input[name=force]")).to_have_value("7")
    expect(form.locator("input[name=flair]")).to_have_value("6")
    expect(form.locator("input[name=flair]")).to_be_focused()  # the box last typed into
    expect(first.locator("#live-note")).to_have_count(0)  # the game has not moved on for this player
    assert "5+3" not in first.content() and "5 FORCE" not in first.content()
