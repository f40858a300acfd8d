"""The organiser sets the open turn's time left on the organiser page or through the API: the
deadline comes forward or goes back, the log says who and when, and a time in the past or beyond
30 days is refused with the reason, nothing changed."""

from __future__ import annotations

import re
from datetime import timedelta

from fastapi import FastAPI

from web.web_helpers import FakeClock, host_game, new_client, post_form


def test_the_organiser_page_sets_the_deadline(app: FastAPI, clock: FakeClock) -> None:
    game = host_game(app, hours="24")
    game.join("p1", "Ann")
    game.start()
    page = game.organiser.get(f"{game.base}/organise").text
    form = re.search(r'<form [^>]*action="[^"]*/deadline"[^>]*>', page)
    assert form is not None and 'data-confirm="Set the time left for turn 1?' in form.group(0)
    clock.advance(hours=1)
    answer = post_form(game.organiser, f"{game.base}/deadline", {"hours": "0.5"})
    assert answer.status_code == 303
    assert answer.headers["location"] == f"{game.base}/organise?done=deadline&turn=1#done"
    page = game.organiser.get(answer.headers["location"]).text
    due = clock() + timedelta(minutes=30)
    assert "Deadline set: turn 1 is due" in page
    assert f'datetime="{due.isoformat()}"' in page or due.strftime("%Y-%m-%d %H:%M") in page
    log = re.search(r'<ol class="events">(.*?)</ol>', page, re.S)
    assert log is not None
    last = re.sub(r"<[^>]+>", "", re.findall(r"<li>(.*?)</li>", log.group(1), re.S)[-1])
    assert re.search(r"organiser · deadline set · deadline \d{4}-\d\d-\d\d \d\d:\d\d UTC$", last), last
    public = new_client(app).get(f"/api/v1/games/{game.public_id}").json()
    assert public["deadline"] == due.isoformat()


def test_a_refused_time_left_comes_back_in_its_box(app: FastAPI, clock: FakeClock) -> None:
    game = host_game(app, hours="24")
    game.join("p1", "Ann")
    game.start()
    before = new_client(app).get(f"/api/v1/games/{game.public_id}").json()["deadline"]
    for typed, said in (("-2", "got -2 hours"), ("721", "got 721 hours"), ("soon", "got &#39;soon&#39;")):
        answer = post_form(game.organiser, f"{game.base}/deadline", {"hours": typed})
        assert answer.status_code == 422, typed
        assert "The deadline was not set:" in answer.text and said in answer.text, typed
        assert f'value="{typed}"' in answer.text, "the typing is kept"
    assert new_client(app).get(f"/api/v1/games/{game.public_id}").json()["deadline"] == before


def test_the_api_sets_the_deadline(app: FastAPI, clock: FakeClock) -> None:
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Clock", "players": 4, "deadline_hours": 48}).json()
    organiser = {"Authorization": f"Bearer {created['token']}"}
    base = f"/api/v1/games/{created['game']}"
    joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ann"}).json()
    player = {"Authorization": f"Bearer {joined['token']}"}
    assert client.post(f"{base}/deadline", json={"hours": 2}, headers=organiser).status_code == 409  # lobby
    assert client.post(f"{base}/start", headers=organiser).status_code == 200
    answer = client.post(f"{base}/deadline", json={"hours": 2}, headers=organiser)
    assert answer.status_code == 200, answer.text
    assert answer.json()["deadline"] == (clock() + timedelta(hours=2)).isoformat()
    assert answer.json()["events"][-1]["kind"] == "deadline set"
    for hours in (0, -1, 721, "2"):
        assert client.post(f"{base}/deadline", json={"hours": hours}, headers=organiser).status_code == 422, hours
    assert client.post(f"{base}/deadline", json={"hours": 2}, headers=player).status_code == 403
    assert client.post(f"{base}/pause", headers=organiser).status_code == 200
    paused = client.post(f"{base}/deadline", json={"hours": 0.25}, headers=organiser).json()
    assert (paused["status"], paused["paused_remaining"], paused["deadline"]) == ("paused", 900, None)
