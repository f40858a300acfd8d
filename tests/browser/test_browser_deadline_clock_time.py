"""An organiser on the Chatham Islands (UTC+12:45, +13:45 in summer: a zone whose offset is not
whole hours) sets the deadline at "tomorrow 20:00" their time in Chromium: the page's script sends
the browser's offset at that date, the page says which zone it reads the time in, and the deadline
is shown back in their time, with the server's UTC words at hand."""

from __future__ import annotations

import re
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

