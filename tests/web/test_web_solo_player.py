"""A player's page as a player alone against the bots reads it (task solo1)."""

from __future__ import annotations

from fastapi import FastAPI

from web.web_helpers import host_game


def test_the_final_says_on_the_players_page_that_it_is_the_last_match(app: FastAPI) -> None:
    """The order form of the final said only 'Turn 5, match t5-m1: against ...', and its odds line
    '28 SCRUM left' as in any turn, although nothing is left to spend SCRUM on. The final now says
    that it is the last match and that no SCRUM is of use after it; no earlier turn says so."""
    game = host_game(app, hours="0")
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    seen = []
    for turn in range(1, 6):
        assert game.turn() == turn
        pages = {pid: client.get(f"{game.base}/play").text for pid, client in game.players.items()}
        said = [pid for pid, page in pages.items() if "The final, the last match: no SCRUM is of use after it." in page]
        seen.append(bool(said))
        for pid in game.players:
            for team in game.my_teams(pid):
                assert game.order(pid, team, 3, 3, "ready").status_code in (200, 303)
    assert seen == [False, False, False, False, True]
