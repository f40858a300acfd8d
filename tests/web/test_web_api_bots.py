"""The JSON API as a bot uses it: an organiser token creates and starts a game, bot tokens join
seats, and each bot decides from what the API tells it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy.orm import Session

from sevens.store import games
from sevens.store.db import make_engine
from web.conftest import WebDb
from web.web_helpers import FakeClock, TestClient, host_game, new_client, post_form


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _api_game(app: FastAPI, seats: int = 4) -> tuple[TestClient, str, dict[str, str], dict[str, str]]:
    """A game created by API with ``seats`` seats joined by bot tokens, not started yet: the
    client, the game, the organiser's headers and each joined seat's headers."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Bots", "players": 4})
    assert created.status_code == 201, created.text
    body = created.json()
    players: dict[str, dict[str, str]] = {}
    for player, invite in sorted(body["invites"].items())[:seats]:
        joined = client.post("/api/v1/join", json={"invite": invite, "name": f"bot {player}"})
        assert joined.status_code == 200, joined.text
        players[player] = _bearer(joined.json()["token"])
    return client, body["game"], _bearer(body["token"]), players  # type: ignore[return-value]


def test_odds_outside_a_running_game_answer_409_like_an_order(app: FastAPI) -> None:
    """A bot asks for odds and orders against the same state: both say the game is not taking
    orders with the same status (409, as the order endpoint does), before the start and after
    the end."""
    client, game, organiser, players = _api_game(app)
    p1 = players["p1"]
    early = client.get(f"/api/v1/games/{game}/teams/fiji/odds?force=1&flair=3", headers=p1)
    order = client.put(f"/api/v1/games/{game}/orders/fiji", json={"turn": 1, "force": 1, "flair": 3}, headers=p1)
    assert order.status_code == 409
    assert early.status_code == 409, early.text
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    team = client.get(f"/api/v1/games/{game}", headers=p1).json()["my_teams"][0]["team"]
    assert client.get(f"/api/v1/games/{game}/teams/{team}/odds?force=1&flair=3", headers=p1).status_code == 200
    assert client.post(f"/api/v1/games/{game}/end", headers=organiser).status_code == 200
    late = client.get(f"/api/v1/games/{game}/teams/{team}/odds?force=1&flair=3", headers=p1)
    assert late.status_code == 409, late.text
    assert "not taking orders" in late.json()["detail"]


def test_odds_of_a_draft_in_the_body_are_those_of_the_same_draft_in_the_address(app: FastAPI) -> None:
    """A bot may keep its drafts out of the access logs of whatever stands in front of the server
    by posting them: the answer is the GET's for the same draft, and the same refusals hold."""
    client, game, organiser, players = _api_game(app)
    p1, p2 = players["p1"], players["p2"]
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    team = client.get(f"/api/v1/games/{game}", headers=p1).json()["my_teams"][0]["team"]
    url = f"/api/v1/games/{game}/teams/{team}/odds"
    for force, flair in [(0, 0), (10, 9), (40, 60)]:
        posted = client.post(url, json={"force": force, "flair": flair}, headers=p1)
        assert posted.status_code == 200, posted.text
        assert posted.json() == client.get(f"{url}?force={force}&flair={flair}", headers=p1).json()
    assert client.post(url, json={"force": 1001}, headers=p1).status_code == 422
    assert client.post(url, json={"force": "5"}, headers=p1).status_code == 422  # a JSON number, as an order's
    assert client.post(url, json={"force": 5}, headers=p2).status_code == 403  # not p2's team


def test_odds_of_a_draft_with_a_side_left_out_say_they_take_it_as_0(app: FastAPI) -> None:
    """An order must name FORCE and FLAIR both (R3), but a draft may leave one out while it is
    written: its odds are those of 0 there, and the answer names the sides it took as 0, by GET and
    by POST alike, as the order form's odds do with a box still empty."""
    client, game, organiser, players = _api_game(app)
    p1 = players["p1"]
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    team = client.get(f"/api/v1/games/{game}", headers=p1).json()["my_teams"][0]["team"]
    url = f"/api/v1/games/{game}/teams/{team}/odds"
    cases: list[tuple[dict[str, int], list[str]]] = [
        ({"force": 10, "flair": 9}, []),
        ({"force": 10, "flair": 0}, []),  # a 0 written is a 0 meant
        ({"force": 10}, ["flair"]),
        ({"flair": 9}, ["force"]),
        ({}, ["force", "flair"]),
    ]
    for draft, assumed in cases:
        query = "&".join(f"{side}={points}" for side, points in draft.items())
        for answer in (client.post(url, json=draft, headers=p1), client.get(f"{url}?{query}", headers=p1)):
            assert answer.status_code == 200, answer.text
            body = answer.json()
            assert body["assumed_zero"] == assumed, (draft, body["assumed_zero"])
            assert body["order"] == {"force": draft.get("force", 0), "flair": draft.get("flair", 0)}


def test_a_team_view_says_how_many_matches_the_team_may_still_play(app: FastAPI) -> None:
    """What a pacing bot needs: the matches left if the team keeps winning (this one included),
    and their stages, so that it can spread its SCRUM without reading the format itself."""
    client, game, organiser, players = _api_game(app)
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    p1 = players["p1"]
    team = client.get(f"/api/v1/games/{game}", headers=p1).json()["my_teams"][0]["team"]
    view = client.get(f"/api/v1/games/{game}/teams/{team}/view", headers=p1).json()
    assert view["team"]["turns_left"] == 5
    assert view["team"]["stages_left"] == ["group", "group", "group", "semi-final", "final"]
    assert client.post(f"/api/v1/games/{game}/resolve", json={"turn": 1}, headers=organiser).status_code == 200
    view = client.get(f"/api/v1/games/{game}/teams/{team}/view", headers=p1).json()
    assert view["turn"] == 2
    assert view["team"]["turns_left"] == 4
    assert view["team"]["stages_left"] == ["group", "group", "semi-final", "final"]


def test_a_paused_deadline_is_told_to_players_and_spectators_as_on_the_pages(app: FastAPI, clock: FakeClock) -> None:
    """While the organiser pauses the clock the pages tell everyone the time left; the API told
    only the organiser, and ``/waiting`` showed a paused game as one with no deadline at all."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Paused", "players": 4, "deadline_hours": 2}).json()
    game, organiser = created["game"], _bearer(created["token"])
    joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Bot"}).json()
    p1 = _bearer(joined["token"])
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    (running,) = client.get("/api/v1/waiting", headers=p1).json()
    assert running["status"] == "running" and running["deadline"] is not None
    clock.advance(minutes=30)
    assert client.post(f"/api/v1/games/{game}/pause", headers=organiser).status_code == 200
    (paused,) = client.get("/api/v1/waiting", headers=p1).json()
    assert paused["status"] == "paused" and paused["deadline"] is None
    for headers in (p1, {}):
        seen = client.get(f"/api/v1/games/{game}", headers=headers).json()
        assert seen["status"] == "paused"
        assert seen["paused_remaining"] == 90 * 60, seen.get("paused_remaining")
    assert client.post(f"/api/v1/games/{game}/resume", headers=organiser).status_code == 200
    assert client.get(f"/api/v1/games/{game}", headers=p1).json()["paused_remaining"] is None


def test_a_new_link_for_a_seat_whose_token_was_revoked_does_not_show_its_saved_orders(app: FastAPI) -> None:
    """R13: a bot saves an order and revokes its token; the seat is then held by nobody, so the
    organiser page offers a plain new invite, and whoever opens it (the organiser here) must not
    read the order the bot saved, as after 'Sign out and new link'."""
    client, game, organiser, players = _api_game(app, seats=1)
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    p1 = players["p1"]
    team = client.get(f"/api/v1/games/{game}", headers=p1).json()["my_teams"][0]["team"]
    saved = client.put(f"/api/v1/games/{game}/orders/{team}", json={"turn": 1, "force": 17, "flair": 12}, headers=p1)
    assert saved.status_code == 200
    assert client.delete("/api/v1/me", headers=p1).status_code == 204
    link = client.post(f"/api/v1/games/{game}/organiser-link", headers=organiser).json()["organiser_link"]
    browser = new_client(app)
    assert post_form(browser, f"/organiser/{link}").status_code == 303
    issued = post_form(browser, f"/games/{game}/seats/p1/invite")
    assert issued.status_code == 200, issued.text
    invite = re.search(r'id="invite-link">([^<]+)<', issued.text)
    assert invite is not None
    joined = client.post(
        "/api/v1/join", json={"invite": invite.group(1).rsplit("/", 1)[1], "name": "Curious"}, headers=organiser
    )
    assert joined.status_code == 200, joined.text
    mine = client.get(f"/api/v1/games/{game}/orders", headers=organiser).json()
    assert mine["orders"] == {}, mine
    seen = client.get(f"/api/v1/games/{game}", headers=organiser).json()
    assert all(t["order"] is None for t in seen["my_teams"]), seen["my_teams"]
    assert "discarded" in browser.get(f"/games/{game}/organise").text


def test_an_order_racing_a_sign_out_of_its_seat_is_not_left_for_the_new_holder(
    app: FastAPI, web_db: WebDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R13 under a race: the bot's token is checked, then the organiser signs its seat out (from
    another worker: another connection), then the order is written. It must be refused, not
    saved after the discard for whoever opens the new link to read."""
    client, game, organiser, players = _api_game(app, seats=1)
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    p1 = players["p1"]
    team = client.get(f"/api/v1/games/{game}", headers=p1).json()["my_teams"][0]["team"]
    real_save = games.save_order
    other_worker = make_engine(web_db.url)
    new_link: list[str] = []

    def sign_out_first(session: Session, **kwargs: Any) -> Any:
        # Between the token's check and the write: the organiser signs the seat out elsewhere.
        with Session(other_worker) as elsewhere:
            row = games.game_by_public_id(elsewhere, public_id=game)
            new_link.append(games.reissue_invite(elsewhere, game_id=row.id, player_id="p1", now=row.created_at, sign_out=True))
            elsewhere.commit()
        monkeypatch.setattr(games, "save_order", real_save)
        return real_save(session, **kwargs)

    monkeypatch.setattr(games, "save_order", sign_out_first)
    try:
        late = client.put(f"/api/v1/games/{game}/orders/{team}", json={"turn": 1, "force": 17, "flair": 12}, headers=p1)
    finally:
        other_worker.dispose()
    assert new_link and late.status_code == 403, late.text
    # Its body says what happened and what to do, as the pages' "Not saved" page does.
    said = late.json()["detail"]
    assert said.startswith("seat p1 was signed out, so the order was not saved:"), said
    assert "the organiser signed it out or handed the seat to the bots" in said and "new link" in said, said
    joined = client.post("/api/v1/join", json={"invite": new_link[0], "name": "Next"}, headers=organiser)
    assert joined.status_code == 200, joined.text
    assert client.get(f"/api/v1/games/{game}/orders", headers=organiser).json()["orders"] == {}


def test_an_order_from_a_token_that_lost_its_seat_or_its_turn_says_what_happened_and_what_to_do(
    app: FastAPI,
) -> None:
    """The API's side of a seat or a turn lost under a bot: its seat handed to the bots before the
    order, its token revoked (DELETE /api/v1/me, by another process of the same bot), its turn
    resolved meanwhile. Each refusal said what was wrong but not what became of the order or
    what to do: "join it with its invite first" (its invite is used up), "unknown or revoked bot
    token", "reload and order again". Each now says the order was not saved and the way back."""
    client, game, organiser, players = _api_game(app)
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    teams = {p: client.get(f"/api/v1/games/{game}", headers=h).json()["my_teams"][0]["team"] for p, h in players.items()}
    order = {"turn": 1, "force": 3, "flair": 3}
    # Seat 1 handed to the bots: its token plays no seat now.
    assert client.post(f"/api/v1/games/{game}/seats/p1/release", headers=organiser).status_code == 200
    gone = client.put(f"/api/v1/games/{game}/orders/{teams['p1']}", json=order, headers=players["p1"])
    assert gone.status_code == 403, gone.text
    said = gone.json()["detail"]
    assert "plays no seat in this game" in said and "join it with its invite" in said, said
    assert "if it played a seat until now, the organiser has signed it out or handed the seat to the bots" in said
    assert "only a new invite link from them opens the seat again" in said, said
    # Seat 2's token revoked by another process of its bot.
    assert client.delete("/api/v1/me", headers=players["p2"]).status_code == 204
    revoked = client.put(f"/api/v1/games/{game}/orders/{teams['p2']}", json=order, headers=players["p2"])
    assert revoked.status_code == 401, revoked.text
    said = revoked.json()["detail"]
    assert said.startswith("unknown or revoked bot token, so nothing was done:"), said
    assert "a new invite link from the organiser" in said and "POST /api/v1/organise" in said, said
    # Turn 1 resolved before seat 3's order came in.
    assert client.post(f"/api/v1/games/{game}/resolve", json={"turn": 1}, headers=organiser).status_code == 200
    late = client.put(f"/api/v1/games/{game}/orders/{teams['p3']}", json=order, headers=players["p3"])
    assert late.status_code == 409, late.text
    assert late.json()["detail"] == (
        "turn 1 is not open for orders; the open turn is 2: turn 1 has been resolved, so this order was not "
        "saved; read the game again and send an order for turn 2"
    )
    assert client.get(f"/api/v1/games/{game}/orders", headers=players["p3"]).json()["orders"] == {}


def test_a_token_that_organises_and_plays_reads_both_views(app: FastAPI) -> None:
    """An organiser's bot that also plays a seat reads its own teams and orders and, as the
    organiser it is, the event log, the invites and the bots of the teams nobody plays; the
    other seats' orders stay hidden (R13)."""
    client = new_client(app)
    body = client.post("/api/v1/games", json={"name": "Mine too", "players": 4}).json()
    game, boss = body["game"], _bearer(body["token"])
    assert client.post("/api/v1/join", json={"invite": body["invites"]["p1"], "name": "Boss"}, headers=boss).status_code == 200
    other = _bearer(client.post("/api/v1/join", json={"invite": body["invites"]["p2"], "name": "Other"}).json()["token"])
    assert client.post(f"/api/v1/games/{game}/start", headers=boss).status_code == 200
    theirs = client.get(f"/api/v1/games/{game}", headers=other).json()["my_teams"][0]["team"]
    order = {"turn": 1, "force": 17, "flair": 12}
    assert client.put(f"/api/v1/games/{game}/orders/{theirs}", json=order, headers=other).status_code == 200
    seen = client.get(f"/api/v1/games/{game}", headers=boss).json()
    assert seen["me"]["player"] == "p1" and len(seen["my_teams"]) == 2
    assert {"events", "house_bots", "invites"} <= set(seen), sorted(seen)
    assert seen["order_states"][theirs] == "saved"
    assert "17" not in str(seen["my_teams"]) and "force': 17" not in str(seen)


def test_an_autopilot_for_a_team_that_is_out_is_refused_with_409(app: FastAPI) -> None:
    """A bot setting the autopilot of each of its teams got 200 for a team already out of the
    tournament, as if a bot would play for it: 409 now says the team is out, and nothing is set."""
    client, game, organiser, players = _api_game(app)
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    for turn in (1, 2, 3):
        assert client.post(f"/api/v1/games/{game}/resolve", json={"turn": turn}, headers=organiser).status_code == 200
    out = [
        (headers, team["team"])
        for headers in players.values()
        for team in client.get(f"/api/v1/games/{game}", headers=headers).json()["my_teams"]
        if not team["in_play"]
    ]
    assert len(out) == 4  # the semi-finals' four teams play on
    for headers, team in out:
        answer = client.put(f"/api/v1/games/{game}/autopilot/{team}", json={"strategy": "random"}, headers=headers)
        assert answer.status_code == 409, answer.text
        assert "out of the tournament" in answer.json()["detail"]
        mine = client.get(f"/api/v1/games/{game}", headers=headers).json()["my_teams"]
        assert next(t["autopilot"] for t in mine if t["team"] == team) != "random"


def test_a_bot_joins_and_organises_with_the_links_as_people_pass_them_on(app: FastAPI) -> None:
    """An organiser hands a bot writer the invite link the page shows (``https://.../join/SECRET``),
    and the organiser link likewise. /join and /organise took only the secret after the last '/',
    answering a whole link 404 'this invite is not valid; ask the organiser for a new one' (and
    counting it as a wrong secret): the organiser would issue a new link, refused the same way."""
    hosted = host_game(app, visibility="private")
    invite, organiser = hosted.invites["p1"], hosted.organiser_link
    assert "/join/" in invite and "/organiser/" in organiser
    client = new_client(app)
    joined = client.post("/api/v1/join", json={"invite": invite + "\n", "name": "Pasted"})
    assert joined.status_code == 200, joined.text
    game = joined.json()["game"]
    assert client.get(f"/api/v1/games/{game}", headers=_bearer(joined.json()["token"])).json()["me"]["player"]
    organised = client.post("/api/v1/organise", json={"link": organiser + "/"})
    assert organised.status_code == 200, organised.text
    assert organised.json()["game"] == game
    wrong = client.post("/api/v1/join", json={"invite": invite.rsplit("/", 1)[0] + "/nope", "name": "x"})
    assert wrong.status_code == 404


def test_a_turn_that_is_not_the_open_one_is_409_whether_it_is_past_or_beyond_the_last(app: FastAPI) -> None:
    """An order or a resolve for turn 7, past any game's last turn, was refused as a bad request
    (422) where one for a past turn, or for turn 6 of a game that ends at turn 5, was 409: a bot
    reading the status could not tell that it had the turn wrong. Every turn that is not the open
    one is now 409, saying which is open; a turn below 1 is no turn at all and stays 422."""
    client, game, organiser, players = _api_game(app)
    p1 = players["p1"]
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    team = client.get(f"/api/v1/games/{game}", headers=p1).json()["my_teams"][0]["team"]
    assert client.post(f"/api/v1/games/{game}/resolve", json={"turn": 1}, headers=organiser).status_code == 200
    for turn in (1, 3, 6, 7, 10**30):
        order = client.put(f"/api/v1/games/{game}/orders/{team}", json={"turn": turn, "force": 3, "flair": 3},
                           headers=p1)
        assert order.status_code == 409, (turn, order.text)
        said = order.json()["detail"]
        if turn == 1:  # resolved: said so, and what became of the order
            assert said == "turn 1 is not open for orders; the open turn is 2: turn 1 has been resolved, so this " \
                "order was not saved; read the game again and send an order for turn 2", said
        else:
            assert said == f"turn {turn} is not open for orders; the open turn is 2: reload and order again", said
        resolve = client.post(f"/api/v1/games/{game}/resolve", json={"turn": turn}, headers=organiser)
        assert resolve.status_code == 409, (turn, resolve.text)
        assert resolve.json()["detail"] == f"turn {turn} is not open; the open turn is 2"
    for turn in (0, -1):
        order = client.put(f"/api/v1/games/{game}/orders/{team}", json={"turn": turn, "force": 3, "flair": 3},
                           headers=p1)
        resolve = client.post(f"/api/v1/games/{game}/resolve", json={"turn": turn}, headers=organiser)
        assert (order.status_code, resolve.status_code) == (422, 422), (order.text, resolve.text)
    assert client.post(f"/api/v1/games/{game}/end", headers=organiser).status_code == 200
    over = client.post(f"/api/v1/games/{game}/resolve", json={"turn": 7}, headers=organiser)
    assert over.status_code == 409 and over.json()["detail"] == "turn 7 is not open: the game is ended", over.text


def test_joining_again_under_another_name_is_refused_not_ignored(app: FastAPI, clock: FakeClock) -> None:
    """The token that took a seat may send its join again and gets the same seat; with another
    name it got 200 and the old name was kept without a word, so a bot believed it played under a
    name nobody saw. A seat taken after the start plays under the record's name whatever is sent,
    so a retry of that join still answers 200; every answer names the seat's name, so that a late
    joiner is told it is not the one it sent."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Names", "players": 4}).json()
    game, organiser = created["game"], _bearer(created["token"])
    first = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ana"}).json()
    ana = _bearer(first["token"])
    same = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": " Ana "}, headers=ana)
    assert first["name"] == "Ana"
    assert same.status_code == 200 and same.json()["player"] == "p1" and same.json()["name"] == "Ana", same.text
    other = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Bea"}, headers=ana)
    assert other.status_code == 422, other.text
    assert other.json()["detail"].startswith("names are fixed once the seat is taken; this seat is 'Ana'")
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    late = client.post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "Late"}).json()
    again = client.post(
        "/api/v1/join", json={"invite": created["invites"]["p2"], "name": "Late"}, headers=_bearer(late["token"])
    )
    assert late["name"] == "Player 2", late
    assert again.status_code == 200 and again.json()["player"] == "p2" and again.json()["name"] == "Player 2", again.text
    # ...and says why, in so many words, on each answer; a join under the name sent says nothing.
    note = "this seat plays as 'Player 2': names are fixed once the game has started (they are in its record)"
    assert late["note"] == note and again.json()["note"] == note, (late, again.text)
    assert first["note"] is None and same.json()["note"] is None, (first, same.text)
    names = str(client.get(f"/api/v1/games/{game}", headers=ana).json())
    assert "'Ana'" in names and "Bea" not in names and "'Player 2'" in names and "Late" not in names
