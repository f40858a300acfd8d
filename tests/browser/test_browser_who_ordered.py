"""A player's open page follows who has ordered: another seat's "ready" shows in its list within a
poll or two, without a reload and without touching what the player is typing (R13: whether, never
what)."""

from __future__ import annotations

import re
from typing import Any

from browser.browser_helpers import create_game, join_by_invites, visit


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
    # Of the second player's teams, the one listed first: ready, it goes behind the other three
    # waiting teams, so the list's order changes.
    theirs = [f.get_attribute("data-team") for f in second.locator("form.order-form").all()]
    shown_before = listed.evaluate("ul => Array.from(ul.children, li => li.dataset.team)")
    their_team = min(theirs, key=shown_before.index)
    their_form = second.locator(f"form.order-form[data-team='{their_team}']")
    expect(listed.locator(f"li[data-team='{their_team}']")).to_have_class("state-none")
    # The first player is typing an order, its box still focused, when the second marks theirs ready.
    form = first.locator("form.order-form").first
    form.locator("input[name=force]").fill("7")
    form.locator("input[name=flair]").fill("6")
    first.evaluate("window.stillThisPage = true")
    # Each line of the list is tagged: the refresh mends the list item by item and keeps each
    # team's element (a screen reader reading inside the list keeps its place).
    listed.evaluate("ul => { ul.tag = 'kept'; Array.from(ul.children).forEach(li => { li.tag = li.dataset.team; }); }")
    their_form.locator("input[name=force]").fill("5")
    their_form.locator("input[name=flair]").fill("3")
    with second.expect_navigation():
        their_form.locator("button[value=ready]").click()
    expect(second.locator("#message")).to_contain_text("ready")

    expect(listed.locator(f"li[data-team='{their_team}']")).to_have_class("state-ready", timeout=15000)  # polled every second here
    expect(listed.locator(f"li[data-team='{their_team}']")).to_contain_text("(Player 2): ready")
    expect(first.locator("#who-ordered-count")).to_have_text(
        "Ready: 1 of 4 teams that people play. 4 more teams are played by their bots."
    )
    assert first.evaluate("window.stillThisPage") is True  # not reloaded
    # Markup and all: a manager's name keeps its own <bdi> (a name written right to left).
    kept = listed.evaluate("ul => [ul.tag, Array.from(ul.children, li => [li.dataset.team, li.tag, li.className, li.innerHTML])]")
    assert kept[0] == "kept"
    assert all(team == tag for team, tag, _, _ in kept[1]), kept  # the same elements, each its own team's
    assert sorted(team for team, _, _, _ in kept[1]) == sorted(shown_before)
    # ...in the order, with the classes and the words, of the list as the server gives it now.
    served = first.evaluate(
        """url => fetch(url, {credentials: 'same-origin'}).then(r => r.text()).then(text => {
             const list = new DOMParser().parseFromString(text, 'text/html').getElementById('who-ordered-list');
             return Array.from(list.children, li => [li.dataset.team, li.className, li.innerHTML]);
           })""",
        first.locator("#who-ordered").get_attribute("data-url"),
    )
    assert [[team, cls, text] for team, _, cls, text in kept[1]] == served
    assert [team for team, _, _, _ in kept[1]] != shown_before  # the team now ready has gone behind the waiting ones
    expect(form.locator("input[name=force]")).to_have_value("7")
    expect(form.locator("input[name=flair]")).to_have_value("6")
    expect(form.locator("input[name=flair]")).to_be_focused()  # the box last typed into
    expect(first.locator("#live-note")).to_have_count(0)  # the game has not moved on for this player
    # Their 5 + 3 nowhere on this page but inside the odds, which are against the bots' public mixes
    # (orders such as 15+15 or 5+3 among them; tests/web/test_web_secret_orders.py holds that they do
    # not move when a team saves).
    # The odds of the order typed, which an odds process just started may take a while to send.
    expect(form.locator("output.odds .odds-table")).not_to_have_count(0, timeout=15000)
    page = first.evaluate(
        "() => { const d = document.documentElement.cloneNode(true);"
        " d.querySelectorAll('output.odds').forEach(o => o.remove()); return d.outerHTML; }"
    )
    assert "odds-table" in first.content() and "odds-table" not in page  # the odds were there, and only they went
    assert not re.search(r"(?<!\d)5(\+| FORCE, )3(?!\d)", page), page
