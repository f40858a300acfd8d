"""A friend drops out: Hand to the bots, in the seat's row of the organiser page, asks first
(dismissed, nothing changes), then hands the seat over and says so in its row; its player's
page no longer opens it (docs/web.md, A player drops out)."""

from __future__ import annotations

from typing import Any

from browser.browser_helpers import create_game, join_by_invites, visit


def test_hand_a_seat_to_the_bots_asks_first(server: str, chromium: Any) -> None:
    from playwright.sync_api import expect

    viewport = {"width": 1000, "height": 800}
    page, organise, invites = create_game(chromium, server, "Drop-out cup", viewport=viewport, hours="0", accept_all=False)
    players = join_by_invites(chromium, invites[:2], viewport)
    visit(page, organise)
    page.click("#start button")
    expect(page.locator("#done")).to_contain_text("turn 1 is open")

    row = page.locator("#seat-p2")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    row.get_by_role("button", name="Hand to the bots: seat 2", exact=True).click()
    expect(row).to_contain_text("yes")
    # The name between isolates, as in a title: the question is plain text, where no <bdi> can go.
    assert len(asked) == 1 and asked[0].startswith("Hand seat 2 (\u2068Player 2\u2069) to the bots?"), asked
    # the rest of the question, the same for every seat, is written once on the page and said in full
    assert asked[0].endswith(
        " to the bots? Whoever plays it is signed out on every browser and bot token, the orders it saved this turn are"
        " discarded (nobody sees them), and its teams play the bots you choose for them (the game's default bot until"
        " you do). Turns stop waiting for it: if nobody else plays, the bots play the rest of the game at once. A new"
        " invite link lets someone take the seat over later."
    ), asked
    expect(row).not_to_contain_text("handed to the bots")

    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Hand to the bots: seat 2", exact=True).click()
    expect(page.locator("#release-done")).to_contain_text("Done: seat 2 is played by the bots")
    expect(page.locator("#seat-p2")).to_contain_text("no: handed to the bots")
    expect(page.locator("#house-bots")).to_contain_text("Player 2, handed to the bots")
    response = players[1].reload()
    assert response is not None and response.status == 403
