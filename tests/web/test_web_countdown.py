"""The time left to a deadline on pages read without the script: a browser with scripts off, a
screen reader's simple mode, a text browser, or the moment before the script runs."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from fastapi import FastAPI

from web.web_helpers import FakeClock, host_game, new_client


def _countdown(html: str) -> str:
    found = re.search(r'<span class="countdown"[^>]*>([^<]*)</span>', html)
    assert found is not None, "no countdown on the page"
    return found.group(1)


def test_a_page_without_the_script_says_how_long_is_left_and_as_of_when(app: FastAPI, clock: FakeClock) -> None:
    """The countdown was an empty box filled in by the script: without it a reader got only the
    deadline in UTC, and a player elsewhere had to work out the time left from UTC by hand. The
    server writes it, with the time it counts from (the page's "Up to date at"), so a page left
    open without the script says how old its figure is; past the deadline it says orders are closed."""
    game = host_game(app, hours="2")
    player = game.join("p1", "Ann")
    game.start()
    clock.advance(minutes=10, seconds=30)
    spectator = new_client(app)
    for who, page in (
        ("spectator", spectator.get(game.base).text),
        ("player", player.get(f"{game.base}/play").text),
        ("organiser", game.organiser.get(f"{game.base}/organise").text),
    ):
        # 1 h 49 min 30 s left: from 12:10 (as shown) to 14:00, as the script counts.
        assert _countdown(page) == "(1 h 50 min left as of 12:10 UTC)", who
        assert "Up to date at" in page and ">2026-05-01 12:10 UTC</time>" in page, who
    clock.advance(hours=2)
    assert _countdown(spectator.get(game.base).text) == (
        "(passed: orders are closed; the turn plays as soon as the server gets to it, unless the "
        "organiser pauses or extends the deadline first)"
    )
    assert _countdown(game.organiser.get(f"{game.base}/organise").text).endswith(
        "unless you pause or extend the deadline first (below))"
    )


def test_the_countdown_counts_to_the_deadlines_minute_as_it_is_shown(app: FastAPI, clock: FakeClock) -> None:
    """The deadline is shown to the minute, its seconds dropped, and the countdown rounded its time
    left up: due 14:00:20 ("14:00"), at 12:10:10 ("12:10") it said 1 h 51 min, a minute past the
    time shown. It now counts from the minute shown to the deadline's, and the page says so."""
    clock.advance(seconds=20)
    game = host_game(app, hours="2")
    game.join("p1", "Ann")
    game.start()
    clock.advance(minutes=9, seconds=50)
    assert clock() == datetime(2026, 5, 1, 12, 10, 10, tzinfo=UTC)
    page = new_client(app).get(game.base).text
    assert ">2026-05-01 14:00 UTC</time>" in page
    assert _countdown(page) == "(1 h 50 min left as of 12:10 UTC)"
    assert "the time left counts whole minutes to the deadline's" in page
    clock.advance(hours=1, minutes=50)  # 14:00:10, ten seconds before the deadline
    assert _countdown(new_client(app).get(game.base).text) == "(under 1 min left as of 14:00 UTC)"
