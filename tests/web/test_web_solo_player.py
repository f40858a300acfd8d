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


def test_each_turn_says_on_the_players_page_how_many_matches_are_left(app: FastAPI) -> None:
    """The terminal says before each order how many matches the team has left if it keeps winning,
    for pacing its SCRUM; the player's page did not. It now says so at each open match: 5 in turn 1
    of 8 teams, 4, then 3, then 2 in the semi-final (and the final says it is the last)."""
    game = host_game(app, hours="0")
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    for turn, left in ((1, 5), (2, 4), (3, 3), (4, 2)):
        assert game.turn() == turn
        said = f"At most {left} matches left, this one included, if it keeps winning."
        for pid, client in game.players.items():
            page = client.get(f"{game.base}/play").text
            assert page.count(said) == len(game.my_teams(pid)), (turn, pid)
        for pid in game.players:
            for team in game.my_teams(pid):
                game.order(pid, team, 3, 3, "ready")
