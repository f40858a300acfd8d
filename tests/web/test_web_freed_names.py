"""A name freed in the lobby (the seat handed to the bots, or taken again under another name after
its player left) is no longer whose the seat was in the event log: the seat forgets it, and the
log said it until the game was deleted, on the organiser's page, in the API's events and in every
full backup. The log keeps what happened to the seat, said of a "former player". On SQLite and
PostgreSQL."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from fastapi import FastAPI

from sevens.store.backup import export_backup
from web.web_helpers import host_game, log_shown, new_client, post_form, unset


def _everywhere(app: FastAPI, game_base: str, organiser: object) -> str:
    """What a later reader of the game's log sees: its organiser page and a full backup."""
    page = organiser.get(f"{game_base}/organise").text  # type: ignore[attr-defined]
    with app.state.sessionmaker() as db:
        backup = export_backup(db, full=True, now=datetime.now(UTC))
    return page + json.dumps(backup, ensure_ascii=False)


def test_a_name_freed_in_the_lobby_leaves_the_event_log(app: FastAPI) -> None:
    game = host_game(app)
    # p2 takes its seat, makes a link for another device (logged under its name), signs out
    # (logged: "seat left", under its name), and the organiser hands the seat to the bots.
    leaver = game.join("p2", "Leaver Lou")
    game.new_invite("p2")
    assert post_form(leaver, "/signout").status_code == 303
    assert post_form(game.organiser, f"{game.base}/seats/p2/release").status_code == 303
    # p3 takes its seat, signs out, and the seat's new link is taken under another name.
    quitter = game.join("p3", "Quitter Quinn")
    assert post_form(quitter, "/signout").status_code == 303
    del game.players["p3"]
    game.new_invite("p3")
    game.join("p3", "Newcomer Nell")
    # p1 is taken by a bot through the API, and handed to the bots: its token's label was the name.
    joined = new_client(app).post("/api/v1/join", json={"invite": game.invites["p1"], "name": "Bot Bea"})
    assert joined.status_code == 200, joined.text
    assert post_form(game.organiser, f"{game.base}/seats/p1/release").status_code == 303
    # The same names: a player who stays in keeps theirs in the log.
    stayer = game.join("p4", "Stayer Sam")
    game.new_invite("p4")
    seen = _everywhere(app, game.base, game.organiser)
    assert "Leaver Lou" not in seen and "Quitter Quinn" not in seen and "Bot Bea" not in seen
    assert "Newcomer Nell" in seen and "Stayer Sam" in seen
    # What happened to each seat is still there, said of its former player.
    page = log_shown(game.organiser.get(f"{game.base}/organise").text)
    assert "former player of seat 2 · left their seat · seat 2 (former player): its player signed out" in page
    assert "former player of seat 2 · made a new invite link · seat 2: its player asked for a link for another device" in page
    assert "organiser · handed a seat to the bots · seat 2 (former player): 0 browser(s) or token(s) lost it" in page
    assert "former player of seat 3 · left their seat · seat 3 (former player)" in page
    assert stayer.get(f"{game.base}/play").status_code == 200
    assert new_client(app).get(game.base).status_code == 200


def test_removing_a_players_name_leaves_the_servers_and_organisers_own_events_alone(app: FastAPI) -> None:
    """A player may call themselves "server" or "organiser", which the log also uses for who did
    what: removing such a name after the game rewrote every event of that actor, so the log said
    "Player 3" finished the game. Only the seat's own events are its player's."""
    game = host_game(app, hours="0")
    for seat, name in (("p1", "Ann"), ("p2", "organiser"), ("p3", "server"), ("p4", "Dan")):
        game.join(seat, name)
    game.start()
    game.resolve(1, 2, 3, 4, 5)
    for seat in ("p2", "p3"):
        assert post_form(game.organiser, f"{game.base}/seats/{seat}/remove-name").status_code == 303
    page = log_shown(game.organiser.get(f"{game.base}/organise").text)
    assert "server · the game is over · champion" in page and "Player 3 · the game is over" not in page
    assert "organiser · started the game" in page and "Player 2 · started" not in page
    assert "organiser · removed a player's name · seat 2" in page and "organiser · removed a player's name · seat 3" in page


def test_a_bot_tokens_name_goes_when_the_organiser_signs_its_seat_out_and_it_is_taken_again(app: FastAPI) -> None:
    """The organiser's *Sign out and new link* takes the seat from a bot token that joined as "Bot
    Bea", and the new link is taken as "Newcomer Nell": the token, which plays nothing any more,
    kept "Bot Bea" as its label in every full backup (a hand-over or Remove name finds a token by
    its grant of the seat, which the sign-out had deleted)."""
    game = host_game(app)
    joined = new_client(app).post("/api/v1/join", json={"invite": game.invites["p3"], "name": "Bot Bea"})
    assert joined.status_code == 200, joined.text
    handed = post_form(game.organiser, f"{game.base}/seats/p3/invite", {"sign_out": "yes"})
    assert handed.status_code == 200, handed.text
    link = re.search(r'id="invite-link">([^<]+)<', handed.text)
    assert link is not None
    game.invites["p3"] = link.group(1)
    game.join("p3", "Newcomer Nell")
    seen = _everywhere(app, game.base, game.organiser)
    assert "Bot Bea" not in seen and "Newcomer Nell" in seen
    assert '"label": "former player of p3"' in seen


def test_a_second_device_taken_under_a_new_name_renames_the_player_in_the_log(app: FastAPI) -> None:
    """A player's link for another device, opened and joined as "Sammy": the first device still
    plays the seat, and so does its player, now called Sammy. The log said a "former player of p3"
    had asked for the link, as if the seat had changed hands, and named its player nowhere."""
    game = host_game(app)
    first = game.join("p3", "Sam")
    game.new_invite("p3")
    del game.players["p3"]
    game.join("p3", "Sammy")
    assert first.get(f"{game.base}/play").status_code == 200
    page = game.organiser.get(f"{game.base}/organise").text
    assert "Sammy · made a new invite link · seat 3: its player asked for a link for another device" in log_shown(page)
    assert "former player" not in page and "Sam " not in page


def test_a_bot_token_that_takes_its_seat_back_gets_its_name_back(app: FastAPI) -> None:
    """A bot joined p3 as "Bot Bea" and organises the game too; the organiser's *Sign out and new
    link* took the seat from it (its label became "former player of p3"), and the bot took the seat
    back with the new link under the same name. Its label stayed "former player of p3": GET /me
    said so, and every act it did as organiser was logged as "organiser (api: former player of p3)"
    while the seat, the pages and the record call its player Bot Bea."""
    game = host_game(app)
    bot = new_client(app)
    joined = bot.post("/api/v1/join", json={"invite": game.invites["p3"], "name": "Bot Bea"})
    assert joined.status_code == 200, joined.text
    auth = {"Authorization": f"Bearer {joined.json()['token']}"}
    assert bot.post("/api/v1/organise", json={"link": game.organiser_link}, headers=auth).status_code == 200
    handed = post_form(game.organiser, f"{game.base}/seats/p3/invite", {"sign_out": "yes"})
    assert handed.status_code == 200, handed.text
    link = re.search(r'id="invite-link">([^<]+)<', handed.text)
    assert link is not None
    assert bot.get("/api/v1/me", headers=auth).json()["label"] == "former player of p3"
    again = bot.post("/api/v1/join", json={"invite": link.group(1), "name": "Bot Bea"}, headers=auth)
    assert again.status_code == 200, again.text
    assert again.json()["token"] is None and again.json()["name"] == "Bot Bea"
    assert bot.get("/api/v1/me", headers=auth).json()["label"] == "Bot Bea"
    assert bot.post(f"/api/v1/games/{game.public_id}/start", headers=auth).status_code == 200
    page = unset(game.organiser.get(f"{game.base}/organise").text)
    assert "organiser (api: Bot Bea) · started the game" in log_shown(page), page
    assert "former player of p3" not in page and "former player of seat 3" not in page


def test_a_bot_token_that_takes_another_seat_is_labelled_with_its_name(app: FastAPI) -> None:
    """A bot token whose seat was taken from it, and whose label was forgotten, joins another game
    as "Cy": it is labelled so, not as the former player of a seat it no longer plays."""
    first = host_game(app)
    bot = new_client(app)
    joined = bot.post("/api/v1/join", json={"invite": first.invites["p3"], "name": "Bot Bea"})
    auth = {"Authorization": f"Bearer {joined.json()['token']}"}
    assert post_form(first.organiser, f"{first.base}/seats/p3/release").status_code == 303
    assert bot.get("/api/v1/me", headers=auth).json()["label"] == "former player of p3"
    second = host_game(app)
    again = bot.post("/api/v1/join", json={"invite": second.invites["p1"], "name": "Cy"}, headers=auth)
    assert again.status_code == 200, again.text
    assert bot.get("/api/v1/me", headers=auth).json()["label"] == "Cy"


def test_a_bot_token_that_loses_one_seat_keeps_the_name_of_the_one_it_still_plays(app: FastAPI) -> None:
    """A token labelled "Bot Bea" (its first seat, in one lobby) plays another game as "Cy" and
    organises it. Its first seat is handed to the bots: it was labelled "former player of p3",
    and its acts as the other game's organiser were logged so, though it plays a seat there."""
    first, second = host_game(app), host_game(app)
    bot = new_client(app)
    joined = bot.post("/api/v1/join", json={"invite": first.invites["p3"], "name": "Bot Bea"})
    auth = {"Authorization": f"Bearer {joined.json()['token']}"}
    assert bot.post("/api/v1/join", json={"invite": second.invites["p1"], "name": "Cy"}, headers=auth).status_code == 200
    assert bot.post("/api/v1/organise", json={"link": second.organiser_link}, headers=auth).status_code == 200
    assert post_form(first.organiser, f"{first.base}/seats/p3/release").status_code == 303
    assert bot.get("/api/v1/me", headers=auth).json()["label"] == "Cy"
    assert bot.post(f"/api/v1/games/{second.public_id}/start", headers=auth).status_code == 200
    page = unset(second.organiser.get(f"{second.base}/organise").text)
    assert "organiser (api: Cy) · started the game" in log_shown(page)
    assert "Bot Bea" not in _everywhere(app, first.base, first.organiser)
