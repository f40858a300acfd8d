"""A friend drops out mid-tournament: the organiser hands their seat to the bots, on the organiser
page or through the API. Whoever played it is signed out, its saved orders are never shown nor
played (R13), its teams join the "teams nobody plays" with a bot the organiser picks, and the
turns of a game without a deadline stop waiting for it."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from sevens.store.models import OrderRow, TeamRow
from web.web_helpers import host_game, log_shown, new_client, post_form, unset


def _seat_row(page: str, player_id: str) -> str:
    # Found by the row's id, which keeps the seat's; its first cell says "Seat 2" to people.
    row = re.search(rf'<tr role="row" id="seat-{player_id}"><td role="cell">Seat {player_id[1:]}</td>.*?</tr>', page, re.S)
    assert row is not None, page
    return row.group(0)


def test_the_organiser_page_hands_a_seat_to_the_bots(app: FastAPI) -> None:
    """The button asks first, signs the seat's player out, keeps its name, says what it did in the
    seat's row, puts its teams in the bots' menu, and the turn it alone held up is resolved; its
    saved order shows nowhere and the record has its autopilot's instead."""
    game = host_game(app, hours="0")
    ann = game.join("p1", "Ann")
    ben = game.join("p2", "Ben")
    game.start()
    page = game.organiser.get(f"{game.base}/organise").text
    assert "Hand to the bots" not in _seat_row(page, "p3"), "nobody has taken p3: its bots play it already"
    form = re.search(r'<form [^>]*action="[^"]*/seats/p2/release"[^>]*>', _seat_row(page, "p2"))
    assert form is not None and 'data-confirm="Hand seat 2 (\u2068Ben\u2069) to the bots?' in form.group(0)
    # what every seat's question goes on to say is on the page once, not in each of its rows
    assert 'data-confirm-more="confirm-release"' in form.group(0)
    assert page.count("Whoever plays it is signed out") == 1 and page.count('data-confirm-more="confirm-release"') == 2
    bens = game.my_teams("p2")
    assert game.order("p2", bens[0], 11, 9, action="save").status_code == 303
    for team in game.my_teams("p1"):
        assert game.order("p1", team, 4, 3, action="ready").status_code == 303
    assert game.turn() == 1, "Ben's seat holds the turn up"

    released = post_form(game.organiser, f"{game.base}/seats/p2/release")
    assert released.status_code == 303
    assert released.headers["location"] == f"{game.base}/organise?done=release&seat=p2#seat-p2"
    page = unset(game.organiser.get(released.headers["location"]).text)
    row = _seat_row(page, "p2")
    assert "Ben" in row and "no: handed to the bots" in row and 'id="release-done"' in row
    assert "Hand to the bots" not in row and "New invite link for seat 2" in row
    assert game.turn() == 2, "the turn held up by Ben's seat alone is resolved"
    house = re.search(r'<table class="house-bots".*?</table>', page, re.S)
    assert house is not None and all(f'id="house-{team}"' in house.group(0) for team in bens)
    assert house.group(0).count("Ben, handed to the bots") == len(bens)
    assert "organiser · handed a seat to the bots · seat 2 (Ben): 1 browser(s) or token(s) lost it" in log_shown(page)
    assert ben.get(f"{game.base}/play").status_code == 403
    record = ann.get(f"/api/v1/games/{game.public_id}/record").json()
    (turn,) = record["turns"]
    for match in turn["matches"]:
        for side in ("home", "away"):
            if match[side] == bens[0]:
                order = match[f"{side}_order"]
                assert order["missed"] is True and order["autopilot"] == "even", order


def test_a_refused_hand_over_says_why_on_the_organiser_page(app: FastAPI) -> None:
    """A second click (another tab did it first) comes back with a note, nothing changed."""
    game = host_game(app)
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    game.start()
    assert post_form(game.organiser, f"{game.base}/seats/p1/release").status_code == 303
    again = post_form(game.organiser, f"{game.base}/seats/p1/release")
    assert again.status_code == 409
    assert "Seat 1 was not handed to the bots: nobody has taken seat 1" in again.text
    assert post_form(new_client(app), f"{game.base}/seats/p1/release").status_code == 403


def _api_game(app: FastAPI, **settings: Any) -> tuple[TestClient, str, dict[str, str], dict[str, dict[str, str]]]:
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Drop-outs", "players": 4, **settings}).json()
    organiser = {"Authorization": f"Bearer {created['token']}"}
    players = {}
    for pid, name in (("p1", "Ann"), ("p2", "Ben")):
        joined = client.post("/api/v1/join", json={"invite": created["invites"][pid], "name": name}).json()
        players[pid] = {"Authorization": f"Bearer {joined['token']}"}
    assert client.post(f"/api/v1/games/{created['game']}/start", headers=organiser).status_code == 200
    return client, created["game"], organiser, players


def _teams(client: TestClient, game: str, auth: dict[str, str]) -> list[str]:
    return [t["team"] for t in client.get(f"/api/v1/games/{game}", headers=auth).json()["my_teams"]]


def test_the_api_hands_a_seat_to_the_bots_and_the_organiser_then_picks_their_bot(app: FastAPI) -> None:
    """PUT .../house-bot/{team} was refused for a seat its player left ("manager has taken their
    seat"); handed to the bots, the seat's teams take the organiser's bot. The player's token no
    longer plays it, and its saved order is not in the organiser's view, nor the record."""
    client, game, organiser, players = _api_game(app)
    base = f"/api/v1/games/{game}"
    bens = _teams(client, game, players["p2"])
    saved = client.put(f"{base}/orders/{bens[0]}", json={"turn": 1, "force": 11, "flair": 9}, headers=players["p2"])
    assert saved.status_code == 200
    assert client.delete("/api/v1/me", headers=players["p2"]).status_code == 204  # Ben's bot leaves
    refused = client.put(f"{base}/house-bot/{bens[0]}", json={"strategy": "group-blitz"}, headers=organiser)
    assert refused.status_code == 403 and "manager has taken their seat" in refused.json()["detail"]

    assert client.post(f"{base}/seats/p2/release", headers=players["p1"]).status_code == 403
    answer = client.post(f"{base}/seats/p2/release", headers=organiser)
    assert answer.status_code == 200, answer.text
    view = answer.json()
    assert view["invites"]["p2"]["played"] is False and view["turn"] == 1
    assert {"player": "p2", "name": "Ben", "joined": False} in view["seats"]
    assert set(bens) <= set(view["house_bots"]) and view["order_states"][bens[0]] == "released"
    event = view["events"][-1]
    assert event["kind"] == "seat to bots" and event["actor"].startswith("organiser (api"), event
    assert "1 order(s) saved for turn 1 were discarded" in event["detail"]
    chosen = client.put(f"{base}/house-bot/{bens[0]}", json={"strategy": "group-blitz"}, headers=organiser)
    assert chosen.status_code == 200 and chosen.json()["house_bots"][bens[0]] == "group-blitz"
    assert client.get(f"{base}/record", headers=organiser).json()["turns"] == []
    assert client.post(f"{base}/seats/p2/release", headers=organiser).status_code == 409
    assert client.post(f"{base}/seats/p7/release", headers=organiser).status_code == 404

    resolved = client.post(f"{base}/resolve", json={"turn": 1}, headers=organiser)
    assert resolved.status_code == 200
    for match in client.get(f"{base}/record").json()["turns"][0]["matches"]:
        for side in ("home", "away"):
            if match[side] == bens[0]:
                assert match[f"{side}_order"]["autopilot"] == "group-blitz"
                assert match[f"{side}_order"]["missed"] is True


def test_whoever_takes_a_seat_handed_to_the_bots_learns_nothing_of_its_orders(app: FastAPI) -> None:
    """R13, before the turn is resolved: the order the leaver saved shows neither to the organiser
    (page, API) nor in the record, nor to the friend who takes the seat over by a new link, under
    the seat's name; from then on the turns wait for the friend again."""
    game = host_game(app, hours="24")
    game.join("p1", "Ann")
    ben = game.join("p2", "Ben")
    game.start()
    bens = game.my_teams("p2")
    assert game.order("p2", bens[0], 11, 9, action="save").status_code == 303
    assert 'name="force" type="number"' in ben.get(f"{game.base}/play").text
    assert 'value="11"' in ben.get(f"{game.base}/play").text, "the page shows a saved order to its player"
    assert post_form(game.organiser, f"{game.base}/seats/p2/release").status_code == 303
    page = game.organiser.get(f"{game.base}/organise").text
    assert "saved, not ready" not in page and "seat handed to the bots: its bot plays" in page
    assert game.turn() == 1
    assert game.organiser.get(f"/api/v1/games/{game.public_id}/record").json()["turns"] == []
    game.players.pop("p2")
    game.new_invite("p2")
    friend = game.join("p2", "A friend")
    play = friend.get(f"{game.base}/play").text
    assert "Ben" in play and 'value="11"' not in play and 'value="9"' not in play
    page = game.organiser.get(f"{game.base}/organise").text
    assert "no: handed to the bots" not in _seat_row(page, "p2") and "yes" in _seat_row(page, "p2")
    assert "no order yet" in page, "the friend's teams are waited for again"


def test_who_has_ordered_says_a_seat_was_handed_to_the_bots(app: FastAPI) -> None:
    """The lists of who has ordered (the organiser page, a player's page and the API's
    ``who_ordered`` and ``order_states``) called a seat handed to the bots "seat not claimed",
    as if nobody had ever taken it: they say it was handed to the bots, and count it apart from
    the teams people play, until a friend takes it over by a new link."""
    game = host_game(app, hours="24")
    ann = game.join("p1", "Ann")
    game.join("p2", "Ben")
    cats_bot = new_client(app).post("/api/v1/join", json={"invite": game.invites["p3"], "name": "Cat"}).json()
    cat = {"Authorization": f"Bearer {cats_bot['token']}"}
    game.start()
    bens = game.my_teams("p2")
    assert post_form(game.organiser, f"{game.base}/seats/p2/release").status_code == 303

    page = unset(game.organiser.get(f"{game.base}/organise").text)
    listed = page.split('id="order-states">', 1)[1].split("</ul>", 1)[0]
    lines = re.findall(r'<li class="state-(\w+)">[^<]*\(Ben\): ([^<]*)</li>', listed)
    assert lines == [("released", "seat handed to the bots: its bot plays")] * len(bens), listed
    assert listed.count("seat not claimed") == 2, "p4's teams: nobody ever took them"
    count = re.search(r'<p id="order-count">([^<]*)</p>', page)
    assert count is not None
    assert count.group(1).startswith("Ready: 0 of 4 teams that people play"), "Ann's and Cat's"
    assert f"{len(bens)} teams whose seats were handed to the bots play their bots." in count.group(1)

    play = unset(ann.get(f"{game.base}/play").text)
    for team in bens:
        line = re.search(rf'<li class="state-(\w+)" data-team="{team}">[^<]*\(Ben\): ([^<]*)</li>', play)
        assert line is not None and line.groups() == ("released", "seat handed to the bots, its bot plays"), play
    view = ann.get(f"/api/v1/games/{game.public_id}", headers=cat).json()
    assert {t["team"]: t["state"] for t in view["who_ordered"] if t["team"] in bens} == dict.fromkeys(bens, "released")
    assert {team: view["order_states"][team] for team in bens} == dict.fromkeys(bens, "released")
    states = [t["state"] for t in view["who_ordered"]]
    assert states.index("released") > states.index("unclaimed"), "after the seats never taken, before house teams"

    game.players.pop("p2")
    game.new_invite("p2")
    game.join("p2", "A friend")
    view = ann.get(f"/api/v1/games/{game.public_id}", headers=cat).json()
    assert {t["team"]: t["state"] for t in view["who_ordered"] if t["team"] in bens} == dict.fromkeys(bens, "none")


def test_an_api_organiser_gets_a_new_invite_link_for_a_seat_handed_to_the_bots(app: FastAPI) -> None:
    """After a hand-over the pages say a new invite link lets a friend take the seat over, but
    only the organiser page made one: an organiser working through the API had no way to. POST
    .../seats/{player}/invite gives it (shown once), for a seat nobody plays; the friend joins
    with it under the seat's name, and the turns wait for them again. A seat someone plays gets
    409 (a second person would see its orders, R13), a player 403, no such seat 404."""
    client, game, organiser, players = _api_game(app)
    base = f"/api/v1/games/{game}"
    refused = client.post(f"{base}/seats/p2/invite", headers=organiser)
    assert refused.status_code == 409, refused.text
    assert "seat p2 is played now" in refused.json()["detail"] and f"{base}/seats/p2/release" in refused.json()["detail"]
    assert client.post(f"{base}/seats/p2/invite", headers=players["p1"]).status_code == 403
    assert client.post(f"{base}/seats/p9/invite", headers=organiser).status_code == 404
    assert client.post(f"{base}/seats/p2/release", headers=organiser).status_code == 200

    answer = client.post(f"{base}/seats/p2/invite", headers=organiser)
    assert answer.status_code == 200, answer.text
    made = answer.json()
    assert set(made) == {"game", "player", "invite", "expires_at"} and (made["game"], made["player"]) == (game, "p2")
    event = client.get(base, headers=organiser).json()["events"][-1]
    assert event["kind"] == "new invite" and event["actor"].startswith("organiser (api"), event
    friend = client.post("/api/v1/join", json={"invite": made["invite"], "name": "A friend"})
    assert friend.status_code == 200, friend.text
    assert (friend.json()["player"], friend.json()["name"]) == ("p2", "Ben"), "the seat keeps the record's name"
    view = client.get(base, headers=organiser).json()
    assert {"player": "p2", "name": "Ben", "joined": True} in view["seats"]
    assert "none" in {view["order_states"][team] for team in _teams(client, game, players["p1"])}
    friends = _teams(client, game, {"Authorization": f"Bearer {friend.json()['token']}"})
    assert {view["order_states"][team] for team in friends} == {"none"}, "the turn waits for the friend"
    again = client.post("/api/v1/join", json={"invite": made["invite"], "name": "Someone else"})
    assert again.status_code == 410, "used once"

    assert client.post(f"{base}/end", headers=organiser).status_code == 200
    over = client.post(f"{base}/seats/p3/invite", headers=organiser)
    assert over.status_code == 409 and "the game is ended" in over.json()["detail"]


def test_a_join_through_the_api_after_the_game_is_over_says_so(app: FastAPI) -> None:
    """The invite's page says a game is over before one joins (joining then only opens the seat's
    page, to read); the API joined and answered 200 with nothing to tell a bot that nothing was
    left to play. It still joins (as the page does), and its ``note`` says the game is over."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Too late", "players": 4}).json()
    organiser = {"Authorization": f"Bearer {created['token']}"}
    base = f"/api/v1/games/{created['game']}"
    early = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ann"}).json()
    assert early["note"] is None
    assert client.post(f"{base}/start", headers=organiser).status_code == 200
    assert client.post(f"{base}/end", headers=organiser).status_code == 200
    late = client.post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "Player 2"})
    assert late.status_code == 200, late.text
    assert late.json()["note"] == (
        "the game is over (ended early by its organiser): nothing is left to play; this token reads the seat's "
        "view and the record"
    )
    renamed = client.post("/api/v1/join", json={"invite": created["invites"]["p3"], "name": "Cat"}).json()
    assert renamed["name"] == "Player 3" and renamed["note"].startswith("this seat plays as 'Player 3'")
    assert renamed["note"].endswith("; the game is over (ended early by its organiser): nothing is left to play; "
                                    "this token reads the seat's view and the record")
    token = {"Authorization": f"Bearer {late.json()['token']}"}
    assert client.get(base, headers=token).json()["status"] == "ended"
    assert client.get("/api/v1/waiting", headers=token).json() == []
    page = new_client(app).get(f"/join/{created['invites']['p4']}")
    assert page.status_code == 200 and 'id="game-over"' in page.text and "nothing is left to play" in page.text


def test_a_match_report_says_a_handed_over_seats_team_was_played_by_its_bot(app: FastAPI) -> None:
    """A turn played by the bots of a seat handed to the bots was reported, to everyone, as
    "bot even (seat not claimed)", as if nobody had ever taken the seat: it says "seat handed to
    the bots"; the seats nobody ever took keep "seat not claimed"."""
    game = host_game(app, hours="0")
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    game.start()
    bens = game.my_teams("p2")
    assert post_form(game.organiser, f"{game.base}/seats/p2/release").status_code == 303
    for team in game.my_teams("p1"):
        assert game.order("p1", team, 4, 3, action="ready").status_code == 303
    assert game.turn() == 2
    for reader in (new_client(app), game.organiser, game.players["p1"]):
        page = reader.get(game.base).text
        assert page.count("bot even (seat handed to the bots)") == len(bens), page
        assert page.count("bot even (seat not claimed)") == 4, "p3's and p4's teams"


def test_the_event_log_says_when_a_seat_was_left(app: FastAPI) -> None:
    """Whether to hand a seat to the bots is the organiser's call, but the event log did not say
    when its player left it: only the Joined column said that nobody plays it now. A browser's
    sign-out or a bot's revoked token that leaves a seat played by nobody is logged ("seat left",
    by the player, when); one that leaves it played on another device is not, nor one in a game
    over."""
    game = host_game(app, hours="24")
    game.join("p1", "Ann")
    ben = game.join("p2", "Ben")
    bots = new_client(app).post("/api/v1/join", json={"invite": game.invites["p3"], "name": "Cat"}).json()
    game.start()
    device = post_form(ben, f"{game.base}/device-link")
    link = re.search(r'id="invite-link">([^<]+)<', device.text)
    assert link is not None
    phone = new_client(app)
    assert post_form(phone, link.group(1).split("testserver", 1)[1], {"name": "Ben"}).status_code == 303

    api_token = game.organiser.post("/api/v1/organise", json={"link": game.organiser_link}).json()["token"]
    organiser = {"Authorization": f"Bearer {api_token}"}

    def left() -> list[tuple[str, str]]:
        events = game.organiser.get(f"/api/v1/games/{game.public_id}", headers=organiser).json()["events"]
        return [(e["actor"], e["detail"]) for e in events if e["kind"] == "seat left"]

    assert post_form(ben, "/signout").status_code == 303
    assert left() == [], "Ben still plays the seat on his phone"
    assert post_form(phone, "/signout").status_code == 303
    assert left() == [("Ben", "p2 (Ben): its player signed out of the browser; nobody plays the seat now")]
    # The API's log keeps the seat's id; the organiser page says its number.
    assert "seat 2 (Ben): its player signed out of the browser" in game.organiser.get(f"{game.base}/organise").text
    token = {"Authorization": f"Bearer {bots['token']}"}
    assert game.organiser.delete("/api/v1/me", headers=token).status_code == 204
    assert left()[-1] == ("Cat", "p3 (Cat): its bot token was revoked; nobody plays the seat now")
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    assert post_form(game.players["p1"], "/signout").status_code == 303
    assert len(left()) == 2, "a game over: nothing to hand over"


def test_the_event_log_cuts_a_long_name_between_characters_and_says_so(app: FastAPI) -> None:
    """A name may hold 160 code points (40 characters as shown, a family emoji seven), but an
    event's actor holds 64 and its detail 200: a seat left by a player named in 22 families was
    logged as 9 families and a lone man, and its detail stopped mid-word ('signed out of the bro'),
    losing what happened. The name is cut between characters and marked '…', the words kept."""
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    long_names = {"p3": family * 22, "p4": "\U0001f1eb\U0001f1ef" * 40}
    game = host_game(app, hours="24")
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    bots = {
        seat: new_client(app).post("/api/v1/join", json={"invite": game.invites[seat], "name": name}).json()
        for seat, name in long_names.items()
    }
    game.start()
    assert game.organiser.delete("/api/v1/me", headers={"Authorization": f"Bearer {bots['p3']['token']}"}).status_code == 204
    api_token = game.organiser.post("/api/v1/organise", json={"link": game.organiser_link}).json()["token"]
    organiser = {"Authorization": f"Bearer {api_token}"}
    released = game.organiser.post(f"/api/v1/games/{game.public_id}/seats/p4/release", headers=organiser)
    assert released.status_code == 200 and released.json()["held_up"] is None, released.text
    events = game.organiser.get(f"/api/v1/games/{game.public_id}", headers=organiser).json()["events"]
    [left] = [e for e in events if e["kind"] == "seat left"]
    [handed] = [e for e in events if e["kind"] == "seat to bots"]

    def cut_whole(shown: str, name: str, unit: str) -> bool:
        """``shown`` is the start of ``name`` in whole characters, marked as cut."""
        kept = shown.removesuffix("\u2026")
        return shown.endswith("\u2026") and name.startswith(kept) and kept and len(kept) % len(unit) == 0

    assert cut_whole(left["actor"], long_names["p3"], family), left["actor"]
    assert left["detail"].endswith("): its bot token was revoked; nobody plays the seat now"), left["detail"]
    assert left["detail"].startswith("p3 (") and cut_whole(left["detail"][4:].split(")")[0], long_names["p3"], family)
    assert handed["detail"].endswith("its teams play their bots"), handed["detail"]
    shown = handed["detail"][4:].split(")")[0]
    assert cut_whole(shown, long_names["p4"], "\U0001f1eb\U0001f1ef"), handed["detail"]


@pytest.mark.parametrize("through", ["page", "api"])
def test_a_hand_over_whose_turn_another_saved_order_blocks_stands_and_says_so(app: FastAPI, through: str) -> None:
    """The hand-over is committed before the turn it completes is worked out; if another saved
    order the rules refuse (a changed database) blocks that turn, the seat is handed over even so
    and the organiser is told both, with 200 as for any act kept: the API's answer is the
    organiser's view with ``held_up`` saying why, as an order's PUT says it. A 409 told a client
    the hand-over had failed; before that, the whole hand-over was undone."""
    game = host_game(app, arrangement="4-8-2", hours="0")
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    game.start()
    first, second = game.my_teams("p1")
    assert game.order("p1", first, 10, 0, action="ready").status_code == 303
    assert game.order("p1", second, 10, 0, action="ready").status_code == 303
    with app.state.sessionmaker() as db:  # over SCRUM 100, as a hand-edited backup could hold it
        db.execute(update(OrderRow).where(OrderRow.team_id == first).values(force=91, flair=12))
        db.commit()
    blocked = f"turn 1 cannot be resolved: the saved order of team '{first}' breaks R3"
    if through == "page":
        with app.state.sessionmaker() as db:  # the page names the team, as it names every team
            name = db.scalar(select(TeamRow.name).where(TeamRow.team_id == first))
        assert name is not None and name != first
        answer = post_form(game.organiser, f"{game.base}/seats/p2/release")
        assert answer.status_code == 200, answer.text
        said = re.search(r"Seat 2 was handed to the bots, but [^<]*", html.unescape(unset(answer.text)))
        named = f"turn 1 cannot be resolved: the saved order of {name} breaks R3"
        assert said is not None and said.group(0).startswith(f"Seat 2 was handed to the bots, but {named}"), answer.text
        said_text = said.group(0)
    else:
        client = new_client(app)
        token = client.post("/api/v1/organise", json={"link": game.organiser_link}).json()["token"]
        answer = client.post(f"/api/v1/games/{game.public_id}/seats/p2/release", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        said_text = answer.json()["held_up"]
        assert said_text.startswith(blocked), answer.text
        assert answer.json()["invites"]["p2"]["played"] is False and answer.json()["turn"] == 1
    page = game.organiser.get(f"{game.base}/organise").text
    assert "handed to the bots" in _seat_row(page, "p2") and game.turn() == 1
    assert "91" not in said_text and "103" not in said_text  # the order's numbers stay secret (R13)
