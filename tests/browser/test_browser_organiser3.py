"""A player leaves while the organiser page is open: the page follows it by itself. Its *Joined*
column says a seat whose browser signed out is played by nobody now (the organiser's version did
not move for a sign-out, so the page kept saying "yes"), and once the organiser hands that seat to
the bots another player's list of who has ordered says so, refreshed in place, rather than calling
it a seat nobody has taken (docs/web.md, A player drops out)."""

from __future__ import annotations

from typing import Any

from browser.browser_helpers import create_game, join_by_invites, visit


def test_an_open_organiser_page_follows_a_player_leaving_and_the_hand_over(server: str, chromium: Any) -> None:
    from playwright.sync_api import expect

    viewport = {"width": 1000, "height": 800}
    page, organise, invites = create_game(chromium, server, "Leavers' cup", viewport=viewport, hours="24")
    ann, ben = join_by_invites(chromium, invites[:2], viewport)
    visit(page, organise)
    page.click("#start button")
    expect(page.locator("#done")).to_contain_text("turn 1 is open")
    visit(page, organise)  # opened afresh: no focus on a control, so the page reloads itself
    expect(page.locator("#seat-p2")).to_contain_text("yes")
    expect(page.locator("#seat-p2")).not_to_contain_text("nobody plays it now")
    visit(ann, ann.url)
    expect(ann.locator("#who-ordered-list li.state-none")).to_have_count(4)

    visit(ben, server + "/")
    ben.click("#sign-out button")
    expect(page.locator("#seat-p2")).to_contain_text("yes, but nobody plays it now (signed out)", timeout=30000)

    page.click("#seat-p2 .release button")  # create_game's page accepts the confirmation
    expect(page.locator("#seat-p2")).to_contain_text("no: handed to the bots")
    released = ann.locator("#who-ordered-list li.state-released")
    expect(released).to_have_count(2, timeout=30000)
    for line in released.all_inner_texts():
        assert line.endswith("(Player 2): seat handed to the bots, its bot plays"), line
    expect(ann.locator("#who-ordered-count")).to_contain_text("Ready: 0 of 2 teams that people play.")
