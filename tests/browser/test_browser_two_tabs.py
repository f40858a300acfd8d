"""The organiser's journey with two tabs open on one game, the deadline scheduler running: a
button pressed in the tab the game has left behind (its page had not yet noticed) lands back on
the organiser page as it stands, with a note at its top, focused, saying what happened and that
there is nothing more to do; nothing is done twice."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from browser.browser_helpers import BEHIND, serve, visit

TURN = timedelta(seconds=72)  # 0.02 hours: room enough for the presses before the deadline


@pytest.fixture
def clocked_server(tmp_path: Path) -> Iterator[tuple[str, list[timedelta]]]:
    """A server whose clock runs as the real one, ahead by what the test sets in the list."""
    ahead = [timedelta(0)]
    for server in serve(tmp_path, clock=lambda: datetime.now(UTC) + ahead[0]):
        yield server, ahead


def test_the_organiser_presses_each_button_again_in_a_second_tab(
    clocked_server: tuple[str, list[timedelta]], chromium: Any
) -> None:
    from playwright.sync_api import expect

    # The server's clock is moved on by a turn once the presses are done, rather than the test
    # waiting the turn out (72 s of doing nothing): the scheduler still resolves the turn when
    # its deadline passes by the server's time.
    server, ahead = clocked_server
    context = chromium.new_context(viewport={"width": 1000, "height": 760})
    front = context.new_page()
    front.set_default_timeout(15000)
    front.on("dialog", lambda dialog: dialog.accept())
    visit(front, server + "/")
    front.fill("input[name=name]", "Two tabs cup")
    front.fill("input[name=deadline_hours]", str(TURN.total_seconds() / 3600))
    front.click("#create-game button[type=submit]")
    organise = server + str(front.locator("#to-organise").get_attribute("href"))
    front.locator("a.take-seat").first.click()
    front.fill("input[name=name]", "Me")
    front.click("#join button[type=submit]")
    visit(front, organise)
    behind = context.new_page()
    behind.set_default_timeout(15000)
    behind.on("dialog", lambda dialog: dialog.accept())
    behind.add_init_script(BEHIND)
    visit(behind, organise)

    def again(button: str, status: int = 409) -> str:
        """Press ``button`` in the tab behind: the organiser page comes back with the note."""
        with behind.expect_navigation() as answer:
            behind.click(button)
        assert answer.value is not None and answer.value.status == status
        note = behind.locator("#notice")
        expect(note).to_be_focused()
        expect(note).to_have_attribute("role", "alert")
        expect(behind).to_have_url(organise)  # a reload reads the page, it does not post again
        return note.inner_text()

    front.click("#start button")
    expect(front.locator("#order-states")).to_be_visible()
    said = again("#start button")
    assert said == "The game had already been started (a second click, or another tab): nothing more to do. Turn 1 is open now."
    expect(behind.locator("#turn")).to_have_text("1 of 5")  # the page as it stands

    front.click("button:has-text('Pause the deadline')")
    expect(front.locator("#paused")).to_be_visible()
    assert again("button:has-text('Pause the deadline')").startswith("The deadline was already paused")
    front.click("button:has-text('Resume')")
    expect(front.locator("#paused")).to_have_count(0)
    assert again("button:has-text('Resume')").startswith("The deadline was already running again")

    # The deadline passes: the scheduler resolves turn 1, the tab in front follows by itself. A
    # turn on from now is past the deadline whether Resume gave back the time paused or a whole turn.
    ahead[0] = TURN
    expect(front.locator("#turn")).to_have_text(re.compile(r"^2 of"), timeout=120_000)
    expect(behind.locator("#turn")).to_have_text("1 of 5")
    said = again("#resolve button")
    assert said.startswith("Turn 1 had already been resolved (at its deadline"), said
    assert said.endswith("nothing more to do. Turn 2 is open now.")

    front.click("#end button")
    expect(front.locator("#end")).to_have_count(0)
    assert again("#end button") == "The game had already been ended (a second click, or another tab): nothing more to do."

    # Each act happened once; the extra presses left nothing in the event log.
    events = front.locator("ol.events li")
    visit(front, organise)
    for act in ("started the game", "paused the deadline", "resumed the deadline", "ended the game", "resolved turn"):
        expect(events.filter(has_text=act)).to_have_count(1)
    context.close()
