"""What an organiser running a game for friends meets: the refusals a game still in its lobby gives."""

from __future__ import annotations

from fastapi import FastAPI

from web.web_helpers import new_client


def test_a_game_in_its_lobby_is_said_so_in_refusals(app: FastAPI) -> None:
    """An order, a resolution, a pause or a rematch asked of a game not started yet is refused
    saying it is still in its lobby ("the game is lobby" read as a slip)."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Lobby", "players": 4, "deadline_hours": 24}).json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    base = f"/api/v1/games/{created['game']}"
    assert client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Olga"}, headers=auth).status_code == 200
    lobby = "the game is still in its lobby (not started)"
    answers = {
        "resolve": client.post(f"{base}/resolve", json={"turn": 1}, headers=auth),
        "pause": client.post(f"{base}/pause", headers=auth),
        "rematch": client.post(f"{base}/rematch", headers=auth),
        "order": client.put(f"{base}/orders/fiji", json={"turn": 1, "force": 3, "flair": 3}, headers=auth),
    }
    said = {what: (answer.status_code, answer.json()["detail"]) for what, answer in answers.items()}
    assert said == {
        "resolve": (409, f"turn 1 is not open: {lobby}"),
        "pause": (409, "only a running game can be paused; this one is still in its lobby (not started)"),
        "rematch": (409, f"{lobby}: a rematch is started once it is over (finished, or ended early by its organiser)"),
        "order": (409, f"{lobby}; orders are taken only while it is running"),
    }, said
