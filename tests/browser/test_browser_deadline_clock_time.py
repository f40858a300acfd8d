"""An organiser on the Chatham Islands (UTC+12:45, +13:45 in summer: a zone whose offset is not
whole hours) sets the deadline at "tomorrow 20:00" their time in Chromium: the page's script sends
the browser's offset at that date, the page says which zone it reads the time in, and the deadline
is shown back in their time, with the server's UTC words at hand."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import httpx

from browser.browser_helpers import start_with_one_seat

ZONE = "Pacific/Chatham"


def test_the_deadline_set_at_a_clock_time_is_read_in_the_organisers_zone(server: str, chromium: Any) -> None:
    from playwright.sync_api import expect

    context = chromium.new_context(timezone_id=ZONE, locale="en-NZ", viewport={"width": 1000, "height": 900})
    page = context.new_page()
    organise = start_with_one_seat(page, server, "Chatham cup", hours="24")
    page.goto(organise)
    there = datetime.now(ZoneInfo(ZONE)) + timedelta(days=1)
    local = there.replace(hour=20, minute=0, second=0, microsecond=0)
    east = int((local.utcoffset() or timedelta()).total_seconds() // 60)
    hint = page.locator("#deadline-at-zone")
    page.fill("#deadline-at-at", local.strftime("%Y-%m-%dT%H:%M"))
    sign, away = ("-" if east < 0 else "+"), abs(east)
    expect(hint).to_have_text(f"in this browser's time zone, {ZONE} (UTC{sign}{away // 60:02d}:{away % 60:02d} on that day)")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click("#deadline-at button[type=submit]")
    expect(page.locator("#done")).to_contain_text("Deadline set: turn 1 is due")
    assert asked and asked[0].startswith("Move the deadline of turn 1 to this time?"), asked
    game = re.search(r"/games/([\w-]+)/organise", organise)
    assert game is not None
    deadline = httpx.get(f"{server}/api/v1/games/{game.group(1)}", timeout=60).json()["deadline"]
    assert datetime.fromisoformat(deadline) == local.astimezone(UTC), (deadline, local)
    # Shown in the organiser's time (8 pm, not the 06:15 or 07:15 UTC the server wrote), the UTC words kept as its tooltip.
    due = page.locator("#done time")
    assert "8:00" in due.inner_text() and "UTC" not in due.inner_text(), due.inner_text()
    assert due.get_attribute("title") == f"{local.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
    context.close()


def test_a_refusal_quotes_what_was_typed_with_its_spaces(server: str, chromium: Any) -> None:
    """The box kept "1  2" as typed, while the refusal beside it said "got '1 2'": HTML makes a
    run of spaces one. The refusal's words keep them, so the quote is what is in the box."""
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    organise = start_with_one_seat(page, server, "Spaces cup", hours="24")
    page.goto(organise)
    page.fill("#extend-hours", "1  2")
    page.click("#extend button[type=submit]")
    expect(page.locator("#extend-error")).to_be_visible()
    assert "got '1  2'" in page.locator("#extend-error").inner_text(), page.locator("#extend-error").inner_text()
    assert "got '1  2'" in page.locator("#extend-summary").inner_text()
    assert page.locator("#extend-hours").input_value() == "1  2"
    context.close()


def test_a_note_at_the_top_of_the_page_quotes_what_was_typed_with_its_spaces(server: str, chromium: Any) -> None:
    """A refusal said at the top of the organiser page (the form it came from gone since: here the
    deadline paused in another tab, which takes the date and time box away) showed "got '1 2'" for
    "1  2", as the form's own refusals did before they kept a run of spaces; it keeps them too.
    The box is made a text box, as in a browser without the date and time box, to type into it."""
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    organise = start_with_one_seat(page, server, "Spaces note cup", hours="24")
    page.goto(organise)
    other_tab = context.new_page()
    other_tab.goto(organise)
    other_tab.click("form[action$='/pause'] button[type=submit]")
    expect(other_tab.locator("#done")).to_contain_text("Deadline paused")
    page.evaluate("document.querySelector('#deadline-at-at').type = 'text'")
    page.fill("#deadline-at-at", "1  2")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#deadline-at button[type=submit]")
    notice = page.locator("#notice")
    expect(notice).to_contain_text("The deadline was not set:")
    assert "got '1  2'" in notice.inner_text(), notice.inner_text()
    context.close()


def test_the_moving_countdown_counts_to_the_deadlines_minute_as_shown(server: str, chromium: Any) -> None:
    """Due at 20:00:59 ("20:00" on the page), at 18:00:10 the script said "(in 2 h 1 min)": its
    time left rounded up, a minute past the deadline shown. It counts from the minute shown to the
    deadline's, as the server's own countdown does."""
    from playwright.sync_api import expect

    while datetime.now(UTC).second > 40:  # the setting and the page's first count in one minute
        time.sleep(1)
    with httpx.Client(base_url=server, timeout=60) as api:
        made = api.post("/api/v1/games", json={"name": "Minutes", "players": 4, "deadline_hours": 24}).json()
        boss = {"Authorization": f"Bearer {made['token']}"}
        api.post("/api/v1/join", json={"invite": made["invites"]["p1"], "name": "Ann"}).raise_for_status()
        api.post(f"/api/v1/games/{made['game']}/start", headers=boss).raise_for_status()
        due = datetime.now(UTC).replace(second=59, microsecond=0) + timedelta(hours=2)
        api.post(f"/api/v1/games/{made['game']}/deadline", json={"at": due.isoformat()}, headers=boss).raise_for_status()
    context = chromium.new_context(timezone_id="America/St_Johns", locale="en-CA")  # UTC-3:30 in December
    page = context.new_page()
    page.goto(f"{server}/games/{made['game']}")
    expect(page.locator(".countdown")).to_have_text(re.compile(r"^\(in (2 h|1 h 59 min)\)$"))
    expect(page.locator("#deadline-minute")).to_contain_text("the time left counts whole minutes")
    context.close()
