"""Friends in London, New York and Sydney, on phones whose clocks are a few minutes (or a day) wrong:
what the pages tell each of them about the deadline."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from browser.browser_helpers import CHROMIUM, visit

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (scripts/setup-system)"
    ),
]


def _running_game(server: str, hours: float) -> str:
    """A game started with a deadline of ``hours`` and one seat taken; returns its id."""
    with httpx.Client(base_url=server, timeout=60) as api:
        made = api.post("/api/v1/games", json={"name": "Clocks", "players": 4, "deadline_hours": hours})
        made.raise_for_status()
        game, boss = made.json()["game"], {"Authorization": f"Bearer {made.json()['token']}"}
        api.post("/api/v1/join", json={"invite": made.json()["invites"]["p1"], "name": "Ann"}).raise_for_status()
        api.post(f"/api/v1/games/{game}/start", headers=boss).raise_for_status()
    return str(game)


@pytest.mark.parametrize(
    ("zone", "locale", "wrong_by"),
    [
        ("Europe/London", "en-GB", timedelta(minutes=5)),
        ("America/New_York", "en-US", timedelta(minutes=-5)),
        ("Australia/Sydney", "en-AU", timedelta(days=-1)),
        ("Europe/London", "en-GB", timedelta(days=1)),
    ],
)
def test_a_phone_whose_clock_is_wrong_counts_down_by_the_servers_clock(
    server: str, chromium: Any, zone: str, locale: str, wrong_by: timedelta
) -> None:
    """The countdown took the phone's own clock for the time: five minutes fast, it said "(in 1 h 55
    min)" of a deadline two hours off, and a phone on the wrong day said "passed" (orders closed)
    while the server still took orders, or "(in 1 d 2 h)". It now counts from the server's time,
    which the page is given, and so does the page's "Up to date at"."""
    from playwright.sync_api import expect

    game = _running_game(server, 2)
    context = chromium.new_context(timezone_id=zone, locale=locale)
    page = context.new_page()
    page.clock.install(time=datetime.now(UTC) + wrong_by)
    visit(page, f"{server}/games/{game}")
    expect(page.locator(".countdown")).to_have_text(re.compile(r"^\(in (2 h|1 h 59 min)\)$"))
    # "Up to date at", moved on by the script at its next look, says the server's time too.
    stamp = page.locator("#as-of")
    first = stamp.get_attribute("datetime")
    expect(stamp).not_to_have_attribute("datetime", first or "", timeout=15000)
    shown = datetime.fromisoformat(str(stamp.get_attribute("datetime")).replace("Z", "+00:00"))
    assert abs(shown - datetime.now(UTC)) < timedelta(minutes=1), (shown, wrong_by)
    context.close()
