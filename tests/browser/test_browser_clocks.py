"""Friends in London, New York and Sydney, on phones whose clocks are a few minutes (or a day) wrong:
what the pages tell each of them about the deadline."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser.browser_helpers import serve, visit


def _running_game(server: str, hours: float, *, paused: bool = False) -> str:
    """A game started with a deadline of ``hours`` and one seat taken, its deadline ``paused`` or
    not; returns its id."""
    with httpx.Client(base_url=server, timeout=60) as api:
        made = api.post("/api/v1/games", json={"name": "Clocks", "players": 4, "deadline_hours": hours})
        made.raise_for_status()
        game, boss = made.json()["game"], {"Authorization": f"Bearer {made.json()['token']}"}
        api.post("/api/v1/join", json={"invite": made.json()["invites"]["p1"], "name": "Ann"}).raise_for_status()
        api.post(f"/api/v1/games/{game}/start", headers=boss).raise_for_status()
        if paused:
            api.post(f"/api/v1/games/{game}/pause", headers=boss).raise_for_status()
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


def test_a_paused_games_up_to_date_at_says_the_servers_time_on_a_phone_a_day_ahead(server: str, chromium: Any) -> None:
    """A paused game's page has no countdown, and its "Up to date at" went by the phone's clock: a
    day ahead, it said tomorrow's date at every look. It says the server's time, as a running game's."""
    from playwright.sync_api import expect

    game = _running_game(server, 2, paused=True)
    context = chromium.new_context(timezone_id="Australia/Sydney", locale="en-AU")
    page = context.new_page()
    page.clock.install(time=datetime.now(UTC) + timedelta(days=1))
    visit(page, f"{server}/games/{game}")
    stamp = page.locator("#as-of")
    first = stamp.get_attribute("datetime")
    expect(stamp).not_to_have_attribute("datetime", first or "", timeout=15000)
    shown = datetime.fromisoformat(str(stamp.get_attribute("datetime")).replace("Z", "+00:00"))
    assert abs(shown - datetime.now(UTC)) < timedelta(minutes=1), shown
    context.close()


FRIENDS = (("Europe/London", "en-GB"), ("America/New_York", "en-US"), ("Australia/Sydney", "en-AU"))
"""Where the friends play from, each phone in its own language: 24-hour clocks in London, 12-hour
in New York and Sydney."""


@pytest.mark.parametrize(
    ("opened", "shown"),
    [
        # London goes on to summer time (29 March 2026): 20:00 GMT, then 24 hours on, 21:00 BST.
        ("2026-03-28T20:00:00+00:00", (r"29 Mar 2026, 21:00 BST", r"Mar 29, 2026, 4:00\sPM EDT", r"30 Mar 2026, 7:00\sam AEDT")),
        # London goes back (25 October 2026): 20:00 BST, then 19:00 GMT; Sydney is on summer time.
        ("2026-10-24T19:00:00+00:00", (r"25 Oct 2026, 19:00 GMT", r"Oct 25, 2026, 3:00\sPM EDT", r"26 Oct 2026, 6:00\sam AEDT")),
        # New York goes on to summer time (8 March 2026): 20:00 EST, then 21:00 EDT.
        ("2026-03-08T01:00:00+00:00", (r"9 Mar 2026, 01:00 GMT", r"Mar 8, 2026, 9:00\sPM EDT", r"9 Mar 2026, 12:00\spm AEDT")),
        # Sydney goes back (5 April 2026): 20:00 AEDT, then 19:00 AEST.
        ("2026-04-04T09:00:00+00:00", (r"5 Apr 2026, 10:00 BST", r"Apr 5, 2026, 5:00\sAM EDT", r"5 Apr 2026, 7:00\spm AEST")),
    ],
)
def test_a_24_hour_turn_across_a_change_of_summer_time_is_24_hours_said_in_each_friends_time(
    tmp_path: Path, chromium: Any, opened: str, shown: tuple[str, str, str]
) -> None:
    """docs/web.md's decision: a deadline of 24 hours is 24 hours of time passing, not the same clock
    time the next day. A turn opened the evening before a change of clocks closes an hour later or
    earlier by the clock of the place that changed; each friend reads the moment in their own time,
    with its zone and their own 12- or 24-hour clock, and the same countdown. The server's clock is
    set to the evening the turn opens (the phones' too)."""
    from playwright.sync_api import expect

    start = datetime.fromisoformat(opened)
    shift = start - datetime.now(UTC)
    for server in serve(tmp_path, clock=lambda: datetime.now(UTC) + shift):
        game = _running_game(server, 24)
        for (zone, locale), words in zip(FRIENDS, shown, strict=True):
            context = chromium.new_context(timezone_id=zone, locale=locale)
            page = context.new_page()
            page.clock.install(time=datetime.now(UTC) + shift)
            visit(page, f"{server}/games/{game}")
            deadline = page.locator(".countdown").locator("xpath=preceding-sibling::time[1]")
            # Stored: the moment 24 hours on (the turn opened seconds after the clock was set).
            due = (start + timedelta(hours=24)).isoformat()[:16]
            expect(deadline).to_have_attribute("datetime", re.compile("^" + re.escape(due)))
            expect(deadline).to_have_text(re.compile(words))
            expect(page.locator(".countdown")).to_have_text(re.compile(r"^\(in (1 d|23 h 59 min)\)$"))
            context.close()


def test_with_scripts_off_a_reader_elsewhere_is_told_the_time_left_as_of_when(server: str, chromium: Any) -> None:
    """A reader in Chatham (UTC+13:45 in December) on a German browser with scripts off had the
    deadline in UTC and an empty countdown: the hours left were theirs to work out. The server's
    countdown says them, and from when; with scripts on, the moving countdown replaces it."""
    from playwright.sync_api import expect

    game = _running_game(server, 2)
    context = chromium.new_context(timezone_id="Pacific/Chatham", locale="de-DE", java_script_enabled=False)
    page = context.new_page()
    visit(page, f"{server}/games/{game}")
    made = str(page.locator("#as-of").get_attribute("datetime"))
    expect(page.locator(".countdown")).to_have_text(
        re.compile(r"^\((2 h|1 h 59 min) left as of " + re.escape(made[11:16]) + r" UTC\)$")
    )
    expect(page.locator(".countdown").locator("xpath=preceding-sibling::time[1]")).to_have_text(re.compile(r" UTC$"))
    context.close()
    context = chromium.new_context(timezone_id="Pacific/Chatham", locale="de-DE")
    page = context.new_page()
    visit(page, f"{server}/games/{game}")
    expect(page.locator(".countdown")).to_have_text(re.compile(r"^\(in (2 h|1 h 59 min)\)$"))
    context.close()


def test_a_phone_whose_clock_jumps_a_day_while_the_page_is_open_still_counts_by_the_servers_clock(
    server: str, chromium: Any
) -> None:
    """The page took how far the phone's clock stood from the server's once, when it was made: a
    clock set a day ahead while the page stayed open (by hand, by the network) then made its
    countdown say "passed" (orders closed) and "Up to date at" tomorrow, until a reload. Each poll
    says the server's time, which the page takes again once the phone's clock has jumped."""
    from playwright.sync_api import expect

    game = _running_game(server, 2)
    context = chromium.new_context(timezone_id="America/New_York", locale="en-US")
    page = context.new_page()
    page.clock.install(time=datetime.now(UTC))
    visit(page, f"{server}/games/{game}")
    countdown = page.locator(".countdown")
    expect(countdown).to_have_text(re.compile(r"^\(in (2 h|1 h 59 min)\)$"))
    page.clock.set_system_time(datetime.now(UTC) + timedelta(days=1))
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")  # a poll at once
    stamp = page.locator("#as-of")
    first = stamp.get_attribute("datetime")
    expect(stamp).not_to_have_attribute("datetime", first or "", timeout=15000)
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")  # the countdown said again
    expect(countdown).to_have_text(re.compile(r"^\(in (2 h|1 h 59 min|1 h 58 min)\)$"))
    shown = datetime.fromisoformat(str(stamp.get_attribute("datetime")).replace("Z", "+00:00"))
    assert abs(shown - datetime.now(UTC)) < timedelta(minutes=1), shown
    context.close()
