"""What the big screen tells the room of a paused game's open turn: true to what the server does."""

from __future__ import annotations

import re

from fastapi import FastAPI

from web.test_web_newcomer import _words
from web.web_helpers import host_game, new_client, post_form


def test_a_paused_big_screen_says_all_ready_still_plays_the_turn(app: FastAPI) -> None:
    """Paused, the screen said the turn "is played as soon as every order is ready, once the
    organiser resumes the game", so the room waited for a resume; but a pause stops only the
    deadline's clock: with every order ready the turn is played at once."""
    game = host_game(app, hours="24")
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    game.start()
    assert post_form(game.organiser, f"{game.base}/pause", {}).status_code == 303
    said = (
        "The turn is played as soon as every order is ready, even while the game is paused, or at the deadline, "
        "whose clock stands still until the organiser resumes the game."
    )
    for reader in (game.organiser, new_client(app)):
        screen = reader.get(f"{game.base}?screen=1")
        waiting = re.search(r'<section id="waiting".*?</section>', screen.text, re.S)
        assert screen.status_code == 200 and waiting, screen.text
        assert _words(waiting.group(0)).endswith(said), _words(waiting.group(0))
    for seat in ("p1", "p2"):
        for team in game.my_teams(seat):
            assert game.order(seat, team, 10, 9, "ready", turn=1).status_code == 303
    assert game.turn() == 2  # played while still paused, as the screen says
    assert "Turn 1 results" in new_client(app).get(f"{game.base}?screen=1").text
