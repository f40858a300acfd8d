"""Browser tests of what a player alone against the bots sees (task solo1)."""

from __future__ import annotations

from typing import Any

from browser.browser_helpers import create_game, shown_lines, visit


def test_the_bracket_stands_each_match_level_between_the_two_it_follows(server: str, chromium: Any) -> None:
    """R11: the first semi-final follows quarter-finals 1 and 3. The page listed the quarter-finals
    1, 2, 3, 4 in a column and the semi-finals at the top of the next, so the first semi-final
    stood beside quarter-finals 1 and 2. Now the quarter-finals are listed 1, 3, 2, 4 and each later
    match stands level with the middle of the two it follows, the final between the semi-finals."""
    from playwright.sync_api import expect

    page, organise_url, _ = create_game(
        chromium, server, "Bracket cup", viewport={"width": 1100, "height": 900}, arrangement="4-16-4", hours="0"
    )
    visit(page, organise_url)
    page.click("#start button")  # no seat taken: it asks first (accepted), then the bots play it all
    visit(page, organise_url.removesuffix("/organise"))
    expect(page.locator("#champion")).to_be_visible()
    rounds = page.locator("section.bracket .round")
    expect(rounds).to_have_count(3)

    def middles(column: int) -> list[float]:
        boxes = [p.bounding_box() for p in rounds.nth(column).locator("li").all()]
        return [box["y"] + box["height"] / 2 for box in boxes if box is not None]

    def through(column: int) -> list[str]:
        return [shown_lines(li)[1].split(" win ")[0] for li in rounds.nth(column).locator("li").all()]

    quarters, semis, final = middles(0), middles(1), middles(2)
    assert len(quarters) == 4 and len(semis) == 2 and len(final) == 1
    assert abs(semis[0] - (quarters[0] + quarters[1]) / 2) < 2 and abs(semis[1] - (quarters[2] + quarters[3]) / 2) < 2
    assert abs(final[0] - (semis[0] + semis[1]) / 2) < 2
    winners = through(0)
    semi_matches = [shown_lines(li)[0] for li in rounds.nth(1).locator("li").all()]
    assert semi_matches == [f"{winners[0]} v {winners[1]}", f"{winners[2]} v {winners[3]}"]
