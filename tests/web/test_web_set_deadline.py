"""The organiser sets the open turn's time left on the organiser page or through the API: the
deadline comes forward or goes back, the log says who and when, and a time in the past or beyond
30 days is refused with the reason, nothing changed."""

from __future__ import annotations

import re
from datetime import timedelta

from fastapi import FastAPI

from web.web_helpers import FakeClock, event_log, host_game, new_client, post_form


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
    last, heard = event_log(page)[0]  # newest first
    assert re.search(r"organiser · set the deadline · due \d{4}-\d\d-\d\d \d\d:\d\d UTC$", last), last
    assert re.search(r" UTC, organiser: set the deadline, due \d{4}-\d\d-\d\d \d\d:\d\d UTC$", heard), heard
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


def test_a_game_without_a_deadline_gets_one_on_the_organiser_page(app: FastAPI, clock: FakeClock) -> None:
    """A game created without a deadline could never be given one (the forms and the store wanted
    a deadline to move), so an organiser whose friends went quiet could only resolve each turn by
    hand. Setting one now closes this turn that many hours from now and gives every later turn as
    long; the page says so before and after, and the event log says who and when."""
    game = host_game(app, hours="0")
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    game.start()
    page = game.organiser.get(f"{game.base}/organise").text
    form = re.search(r'<form [^>]*action="[^"]*/deadline"[^>]*>', page)
    assert form is not None, "no form to give the game a deadline"
    assert 'data-confirm="Give this game a deadline? Turn 1 closes' in form.group(0)
    assert "every later turn gets as long" in page
    assert 'action="/games/' + game.public_id + '/pause"' not in page, "no clock to pause yet"
    refused = post_form(game.organiser, f"{game.base}/deadline", {"hours": "0"})
    assert refused.status_code == 422 and "No deadline was set:" in refused.text
    assert new_client(app).get(f"/api/v1/games/{game.public_id}").json()["resolve_when"] == "all-ready"
    clock.advance(hours=1)
    answer = post_form(game.organiser, f"{game.base}/deadline", {"hours": "2"})
    assert answer.status_code == 303, answer.text
    page = game.organiser.get(answer.headers["location"]).text
    due = clock() + timedelta(hours=2)
    assert "Deadline set: turn 1 is due" in page and "Each later turn lasts 2 h." in page
    assert "Pause the deadline" in page and "Extend" in page, "it is now a game with a deadline"
    last = event_log(page)[0][0]
    assert re.search(r"organiser · set the deadline · turns of 2 h from now on; the first due \d{4}-\d\d-\d\d \d\d:\d\d UTC$", last), last
    public = new_client(app).get(f"/api/v1/games/{game.public_id}").json()
    assert (public["deadline"], public["resolve_when"]) == (due.isoformat(), "deadline")
    # The next turn gets as long, from its opening.
    clock.advance(minutes=5)
    assert post_form(game.organiser, f"{game.base}/resolve", {"turn": "1"}).status_code == 303
    public = new_client(app).get(f"/api/v1/games/{game.public_id}").json()
    assert (public["turn"], public["deadline"]) == (2, (clock() + timedelta(hours=2)).isoformat())


def test_the_api_gives_a_game_without_a_deadline_one(app: FastAPI, clock: FakeClock) -> None:
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Quiet", "players": 4}).json()
    organiser = {"Authorization": f"Bearer {created['token']}"}
    base = f"/api/v1/games/{created['game']}"
    client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ann"})
    lobby = client.post(f"{base}/deadline", json={"hours": 2}, headers=organiser)
    assert lobby.status_code == 409 and "while it is running" in lobby.json()["detail"]
    assert client.post(f"{base}/extend", json={"hours": 2}, headers=organiser).status_code == 409
    assert client.post(f"{base}/start", headers=organiser).status_code == 200
    assert client.post(f"{base}/extend", json={"hours": 2}, headers=organiser).status_code == 409, "nothing to extend"
    answer = client.post(f"{base}/deadline", json={"hours": 0.5}, headers=organiser)
    assert answer.status_code == 200, answer.text
    view = answer.json()
    assert (view["deadline"], view["resolve_when"]) == ((clock() + timedelta(minutes=30)).isoformat(), "deadline")
    assert view["events"][-1]["kind"] == "deadline set"
    assert view["events"][-1]["detail"].startswith("turns of 1800 s from now on; deadline ")
    assert client.post(f"{base}/pause", headers=organiser).status_code == 200


def test_hours_typed_with_a_decimal_comma_are_taken_in_every_hours_box(app: FastAPI, clock: FakeClock) -> None:
    """The hours boxes ask a phone for its decimal keypad (inputmode="decimal"), which in much of
    Europe and South America has a comma and no point: "1,5" there was refused as not a number of
    hours, so a player in Berlin could not type half an hour at all. A comma is read as the point."""
    game = host_game(app, hours="1,5")
    game.join("p1", "Ann")
    game.start()
    api = new_client(app)
    started = api.get(f"/api/v1/games/{game.public_id}").json()
    assert started["deadline"] == (clock() + timedelta(hours=1.5)).isoformat()
    answer = post_form(game.organiser, f"{game.base}/extend", {"hours": "0,25"})
    assert answer.status_code == 303, answer.text
    extended = api.get(f"/api/v1/games/{game.public_id}").json()["deadline"]
    assert extended == (clock() + timedelta(hours=1.75)).isoformat()
    answer = post_form(game.organiser, f"{game.base}/deadline", {"hours": ",5"})
    assert answer.status_code == 303, answer.text
    assert api.get(f"/api/v1/games/{game.public_id}").json()["deadline"] == (clock() + timedelta(minutes=30)).isoformat()
    # Two separators are still refused, in their box, nothing changed.
    answer = post_form(game.organiser, f"{game.base}/deadline", {"hours": "1,5,5"})
    assert answer.status_code == 422 and "got &#39;1,5,5&#39;" in answer.text
    assert api.get(f"/api/v1/games/{game.public_id}").json()["deadline"] == (clock() + timedelta(minutes=30)).isoformat()
