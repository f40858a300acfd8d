"""The front page's list of public games is for watching: games being played come first, then
lobbies someone has joined, then games over; a lobby nobody has joined, or a game ended before it
started, is not listed, so a flood of fresh empty games cannot bury the real ones."""

from __future__ import annotations

import re

from fastapi import FastAPI

from web.web_helpers import host_game, new_client, post_form, unset


def _listed(app: FastAPI) -> list[str]:
    page = unset(new_client(app).get("/").text)
    section = page.split("<h2>Public games</h2>", 1)[1].split("</section>", 1)[0]
    return re.findall(r'<a href="/games/[^"]+">([^<]+)</a>', section)


def test_games_being_played_come_first_and_empty_lobbies_are_not_listed(app: FastAPI) -> None:
    over = host_game(app, name="Over cup")
    over.start()  # nobody seated: the bots play it through at once
    playing = host_game(app, name="Playing cup")
    playing.join("p1", "Ann")
    playing.start()
    waiting = host_game(app, name="Waiting cup")
    waiting.join("p1", "Ben")
    ended = host_game(app, name="Ended cup")
    assert post_form(ended.organiser, f"{ended.base}/end", {}).status_code == 303
    for number in range(60):  # more than the list holds, each newer than every game above
        host_game(app, name=f"Empty {number}")
    host_game(app, name="Private cup", visibility="private").join("p1", "Cas")

    states = {
        name: new_client(app).get(f"/api/v1/games/{game.public_id}").json()["status"]
        for name, game in (("over", over), ("playing", playing), ("ended", ended))
    }
    assert states == {"over": "finished", "playing": "running", "ended": "ended"}
    assert _listed(app) == ["Playing cup", "Waiting cup", "Over cup"]


def test_a_lobby_is_listed_once_someone_joins_it(app: FastAPI) -> None:
    lobby = host_game(app, name="New cup")
    assert _listed(app) == []
    assert "None yet" in new_client(app).get("/").text
    lobby.join("p2", "Dee")
    assert _listed(app) == ["New cup"]


def test_a_copied_organiser_page_address_leads_a_spectator_to_the_game_page(app: FastAPI) -> None:
    """The organiser shares their page's address (``/games/{id}/organise``) with friends who only
    watch. It answered 403 "only the game's organiser can do this; open your organiser link first"
    and "go back to the page you came from", which a friend who came by the link does not have: it
    now says this browser does not organise the game and links to the game's page (a private game
    still answers 404, as for any stranger)."""
    game = host_game(app, name="Shared cup")
    game.join("p1", "Ann")
    game.start()
    friend = new_client(app)
    answer = friend.get(f"{game.base}/organise")
    assert answer.status_code == 403
    assert "This browser does not organise Shared cup" in unset(answer.text)
    assert f'<a href="{game.base}" id="game-page">Shared cup</a>' in unset(answer.text)
    assert "Go back to the page you came from" not in answer.text
    hidden = host_game(app, name="Hidden cup", visibility="private")
    assert friend.get(f"{hidden.base}/organise").status_code == 404
