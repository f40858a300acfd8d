"""The organiser sets the open turn's deadline as people think of it, at a date and time ("Sunday
20:00 my time"), on the organiser page (a datetime-local box, with the browser's UTC offset put in
by the page's script, else read in UTC, as the page says) or through the API (``at``, ISO 8601 with
its offset). A time passed, or further than any deadline may be (68 years, the rule import keeps
too, and which Extend pressed again and again once went past), is refused with the reason and
nothing changed. The countdown counts to the deadline's minute as it is shown."""

from __future__ import annotations

import re
from datetime import timedelta

from fastapi import FastAPI

from sevens.store import games as store
from web.web_helpers import FakeClock, event_log, host_game, new_client, post_form

FURTHEST = timedelta(seconds=store.MAX_DEADLINE_AHEAD)


def _deadline(app: FastAPI, public_id: str) -> str | None:
    return new_client(app).get(f"/api/v1/games/{public_id}").json()["deadline"]  # type: ignore[no-any-return]


def test_the_organiser_page_sets_the_deadline_at_a_clock_time_in_the_browsers_zone_or_in_utc(
    app: FastAPI, clock: FakeClock
) -> None:
    game = host_game(app, hours="24")
    game.join("p1", "Ann")
    game.start()
    page = game.organiser.get(f"{game.base}/organise").text
    box = re.search(r'<input type="datetime-local" name="at"[^>]*>', page)
    assert box is not None and 'aria-describedby="deadline-at-zone"' in box.group(0)
    # Without the script nothing puts an offset in: the page says the time is read in UTC, and when it is now.
    assert '<span class="hint" id="deadline-at-zone">read in UTC (it is 2026-05-01 12:00 UTC now)</span>' in page
    # 20:00 on a day in Paris's summer time (UTC+2, as the script sends it: 120 minutes east).
    answer = post_form(game.organiser, f"{game.base}/deadline-at", {"at": "2026-05-03T20:00", "utc_offset": "120"})
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == f"{game.base}/organise?done=deadline-at&turn=1#done"
    assert _deadline(app, game.public_id) == "2026-05-03T18:00:00+00:00"
    page = game.organiser.get(answer.headers["location"]).text
    assert re.search(r"Deadline set: turn 1 is due <time [^>]*>2026-05-03 18:00 UTC</time>\.</p>", page)
    last, _ = event_log(page)[0]
    assert last.endswith("organiser · set the deadline · due 2026-05-03 18:00 UTC"), last
    # No offset (no script ran): the time is read in UTC, as the page said; typed by hand with a space.
    answer = post_form(game.organiser, f"{game.base}/deadline-at", {"at": " 2026-05-02 09:30 ", "utc_offset": ""})
    assert answer.status_code == 303, answer.text
    assert _deadline(app, game.public_id) == "2026-05-02T09:30:00+00:00"
    # West of UTC: 20:00 in New York's summer time (UTC-4) is midnight UTC.
    answer = post_form(game.organiser, f"{game.base}/deadline-at", {"at": "2026-05-01T20:00", "utc_offset": "-240"})
    assert answer.status_code == 303, answer.text
    assert _deadline(app, game.public_id) == "2026-05-02T00:00:00+00:00"


def test_a_refused_clock_time_comes_back_in_its_box_with_the_reason_and_nothing_changes(
    app: FastAPI, clock: FakeClock
) -> None:
    game = host_game(app, hours="24")
    game.join("p1", "Ann")
    game.start()
    before = _deadline(app, game.public_id)
    too_far = (clock() + FURTHEST + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    for typed, offset, said in (
        ("2026-05-01T11:00", "", "the deadline 2026-05-01 11:00 UTC has passed (it is 2026-05-01 12:00 UTC)"),
        # 12:30 in UTC+1 is 11:30 UTC: passed, though its clock figures are later than now's.
        ("2026-05-01T12:30", "60", "the deadline 2026-05-01 11:30 UTC has passed"),
        ("2026-05-01T12:00", "", "the deadline 2026-05-01 12:00 UTC has passed"),
        (too_far, "", "more than 2,147,483,647 seconds (68 years) from now, the furthest a deadline may be"),
        ("Sunday 20:00", "", "give the deadline as a date and time, such as 2026-12-13 20:00, got &#39;Sunday 20:00&#39;"),
        ("2026-02-30T20:00", "", "&#39;2026-02-30T20:00&#39; is no date and time on the calendar"),
        ("2026-05-03T20:00", "9999", "utc_offset must be the minutes east of UTC"),
    ):
        answer = post_form(game.organiser, f"{game.base}/deadline-at", {"at": typed, "utc_offset": offset})
        assert answer.status_code == 422, typed
        assert "The deadline was not set:" in answer.text and said in answer.text, (typed, answer.text[-3000:])
        assert 'aria-invalid="true"' in re.search(r'<input type="datetime-local"[^>]*>', answer.text).group(0)  # type: ignore[union-attr]
    assert _deadline(app, game.public_id) == before


def test_extend_pressed_again_and_again_stops_at_the_furthest_deadline_import_takes(
    app: FastAPI, clock: FakeClock
) -> None:
    """Extend added its hours to any deadline: pressed often enough it went past 68 years, which an
    import of the game's backup then refused, and paused, the time left outgrew its column (on
    PostgreSQL, an error page). Both now stop at the one limit, with the reason in the box."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Far", "players": 4, "deadline_hours": 24}).json()
    organiser = {"Authorization": f"Bearer {created['token']}"}
    base = f"/api/v1/games/{created['game']}"
    assert client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ann"}).status_code == 200
    assert client.post(f"{base}/start", headers=organiser).status_code == 200
    near = clock() + FURTHEST - timedelta(days=10)
    answer = client.post(f"{base}/deadline", json={"at": near.isoformat()}, headers=organiser)
    assert answer.status_code == 200, answer.text
    refused = client.post(f"{base}/extend", json={"hours": 720}, headers=organiser)
    assert refused.status_code == 422, refused.text
    assert "this extension would put the deadline at" in refused.text and "(68 years)" in refused.text
    assert client.get(base).json()["deadline"] == near.isoformat()
    assert client.post(f"{base}/extend", json={"hours": 24 * 9}, headers=organiser).status_code == 200
    assert client.post(f"{base}/pause", headers=organiser).status_code == 200
    left = client.get(base).json()["paused_remaining"]
    refused = client.post(f"{base}/extend", json={"hours": 48}, headers=organiser)
    assert refused.status_code == 422, refused.text
    assert "this extension would put the deadline at" in refused.text
    assert client.get(base).json()["paused_remaining"] == left
    assert client.post(f"{base}/extend", json={"hours": 1}, headers=organiser).status_code == 200


def test_the_api_sets_the_deadline_at_a_clock_time_with_its_offset(app: FastAPI, clock: FakeClock) -> None:
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Clock", "players": 4, "deadline_hours": 48}).json()
    organiser = {"Authorization": f"Bearer {created['token']}"}
    base = f"/api/v1/games/{created['game']}"
    assert client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ann"}).status_code == 200
    assert client.post(f"{base}/start", headers=organiser).status_code == 200
    answer = client.post(f"{base}/deadline", json={"at": "2026-05-03T20:00:00+01:00"}, headers=organiser)
    assert answer.status_code == 200, answer.text
    assert answer.json()["deadline"] == "2026-05-03T19:00:00+00:00"
    assert answer.json()["events"][-1]["kind"] == "deadline set"
    for body, said in (
        ({"at": "2026-05-03T20:00:00"}, "timezone"),  # no offset: whose 20:00?
        ({"at": "2026-05-01T11:59:00Z"}, "has passed"),
        ({"at": (clock() + FURTHEST + timedelta(hours=1)).isoformat()}, "(68 years)"),
        ({"at": "2026-05-03T20:00:00Z", "hours": 2}, "one of the two"),
        ({}, "one of the two"),
    ):
        refused = client.post(f"{base}/deadline", json=body, headers=organiser)
        assert refused.status_code == 422 and said in refused.text, (body, refused.text)
    assert client.get(base).json()["deadline"] == "2026-05-03T19:00:00+00:00"
    assert client.post(f"{base}/pause", headers=organiser).status_code == 200
    paused = client.post(f"{base}/deadline", json={"at": "2026-05-03T20:00:00Z"}, headers=organiser)
    assert paused.status_code == 409 and "resume it first" in paused.text
    untimed = client.post("/api/v1/games", json={"name": "Open", "players": 4}).json()
    headers = {"Authorization": f"Bearer {untimed['token']}"}
    assert client.post("/api/v1/join", json={"invite": untimed["invites"]["p1"], "name": "Ann"}).status_code == 200
    assert client.post(f"/api/v1/games/{untimed['game']}/start", headers=headers).status_code == 200
    none_yet = client.post(
        f"/api/v1/games/{untimed['game']}/deadline", json={"at": "2026-05-03T20:00:00Z"}, headers=headers
    )
    assert none_yet.status_code == 409 and none_yet.json() == {"detail": NO_FIRST_AT}


# Why a game without a deadline is not given its first at a clock time, and what to do instead.
NO_FIRST_AT = (
    "this game has no deadline, and a clock time cannot be its first: a first deadline also sets how long "
    "every later turn lasts, for good, where a clock time says only when this turn closes. Set one in hours "
    "first (Set a deadline on the organiser page, hours in the API): this turn closes that many hours from now "
    "and every later turn lasts as long; then move this turn's deadline to the clock time"
)


def test_a_clock_time_cannot_be_a_games_first_deadline_and_the_refusal_says_why_and_how(
    app: FastAPI, clock: FakeClock
) -> None:
    """A game made without a deadline is given one in hours, which also sets every later turn's
    length for good; a clock time says no length, so it is refused (409 "set one in hours first",
    which did not say why), now with the reason, before a wrong time (a passed one was refused as
    passed first, and then again as the wrong game), and nothing changes. The page has no date and
    time box for such a game and says why; a form sent to it all the same gets the same words at
    the top of the page. Once hours gave it a deadline, the clock time moves this turn's."""
    client = new_client(app)
    untimed = client.post("/api/v1/games", json={"name": "Open", "players": 4}).json()
    headers = {"Authorization": f"Bearer {untimed['token']}"}
    base = f"/api/v1/games/{untimed['game']}"
    assert client.post("/api/v1/join", json={"invite": untimed["invites"]["p1"], "name": "Ann"}).status_code == 200
    assert client.post(f"{base}/start", headers=headers).status_code == 200
    for at in ("2026-05-03T20:00:00Z", "2026-05-01T11:00:00Z"):  # ahead, and passed
        refused = client.post(f"{base}/deadline", json={"at": at}, headers=headers)
        assert (refused.status_code, refused.json()) == (409, {"detail": NO_FIRST_AT}), (at, refused.text)
    assert (client.get(base).json()["deadline"], client.get(base).json()["resolve_when"]) == (None, "all-ready")

    game = host_game(app, hours="0")
    game.join("p1", "Ann")
    game.start()
    page = game.organiser.get(f"{game.base}/organise").text
    assert 'action="' + f"{game.base}/deadline-at" + '"' not in page
    assert "A date and time cannot be the first deadline, as it gives the later turns no length" in page
    answer = post_form(game.organiser, f"{game.base}/deadline-at", {"at": "2026-05-03T20:00", "utc_offset": ""})
    assert answer.status_code == 409, answer.text
    notice = re.search(r'<div class="notice" id="notice"[^>]*><p>([^<]*)</p>', answer.text)
    assert notice is not None, answer.text[-3000:]
    said = NO_FIRST_AT.replace("'", "&#39;")
    assert notice.group(1).startswith(f"The deadline was not set: {said}. Nothing was changed."), notice.group(1)
    assert _deadline(app, game.public_id) is None
    # Hours first, as it says: then the clock time moves this turn's deadline, later turns keeping 24 h.
    assert post_form(game.organiser, f"{game.base}/deadline", {"hours": "24"}).status_code == 303
    answer = post_form(game.organiser, f"{game.base}/deadline-at", {"at": "2026-05-03T20:00", "utc_offset": ""})
    assert answer.status_code == 303, answer.text
    assert _deadline(app, game.public_id) == "2026-05-03T20:00:00+00:00"
