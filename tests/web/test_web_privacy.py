"""What the server forgets: a game its organiser deletes (page and API)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from sevens.store import games as store
from sevens.store.models import Base, GameRow
from web.web_helpers import Hosted, host_game, new_client, post_form, unset


def _rows_of(app: FastAPI, public_id: str) -> dict[str, int]:
    """How many rows each table holds for the game (the games table: its own row)."""
    with app.state.sessionmaker() as db:
        game_id = db.scalar(select(GameRow.id).where(GameRow.public_id == public_id))
        counts = {"games": 0 if game_id is None else 1}
        for table in Base.metadata.sorted_tables:
            if "game_id" in table.c:
                counts[table.name] = db.scalar(
                    select(func.count()).select_from(table).where(table.c.game_id == game_id)
                ) or 0
        return counts


def _played_a_turn(app: FastAPI) -> Hosted:
    """A running game with every kind of row: seats, teams, saved orders, a resolved turn, events."""
    game = host_game(app)
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    for player in ("p1", "p2"):
        assert game.order(player, game.my_teams(player)[0], 5, 3).status_code == 303
    game.resolve(1)
    saved = game.order("p3", game.my_teams("p3")[0], 4, 3)
    assert saved.status_code == 303, saved.text  # turn 2's, secret
    return game


def test_the_organiser_page_deletes_a_game_once_the_box_is_ticked_and_nothing_of_it_is_left(app: FastAPI) -> None:
    game = _played_a_turn(app)
    other = _played_a_turn(app)
    before, kept = _rows_of(app, game.public_id), _rows_of(app, other.public_id)
    # Every table of the game has rows, so that "none left" below means something.
    assert all(before.values()), before

    page = game.organiser.get(f"{game.base}/organise").text
    assert 'id="delete"' in page and 'name="confirm" value="yes" required' in page
    # Not over: no record to offer.
    assert "A game not over has no record to keep" in page

    unticked = post_form(game.organiser, f"{game.base}/delete")
    assert unticked.status_code == 400
    assert "Nothing was deleted: tick the box" in unticked.text
    assert _rows_of(app, game.public_id) == before
    # Only the organiser may: a player's browser is refused, and nothing goes.
    assert post_form(game.players["p1"], f"{game.base}/delete", {"confirm": "yes"}).status_code == 403
    assert _rows_of(app, game.public_id) == before

    done = post_form(game.organiser, f"{game.base}/delete", {"confirm": "yes"})
    assert done.status_code == 200, done.text
    assert "Friday sevens is deleted: nothing of it is left on this server" in unset(done.text)
    assert set(_rows_of(app, game.public_id).values()) == {0}
    assert _rows_of(app, other.public_id) == kept

    for client, path in (
        (game.organiser, f"{game.base}/organise"),
        (game.players["p1"], f"{game.base}/play"),
        (new_client(app), game.base),
        (new_client(app), f"{game.base}/record.json"),
        (new_client(app), f"/api/v1/games/{game.public_id}"),
    ):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert "a game its organiser deleted is gone for good" in answer.text, path
    # The other game still plays.
    assert other.players["p1"].get(f"{other.base}/play").status_code == 200


def test_a_game_over_offers_its_record_before_it_is_deleted(app: FastAPI) -> None:
    game = _played_a_turn(app)
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    page = game.organiser.get(f"{game.base}/organise").text
    assert f'href="/games/{game.public_id}/record.json" download>download the record</a> first' in page
    assert post_form(game.organiser, f"{game.base}/delete", {"confirm": "yes"}).status_code == 200
    assert set(_rows_of(app, game.public_id).values()) == {0}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_api_deletes_a_game_with_the_bot_tokens_that_opened_only_it(app: FastAPI) -> None:
    client = TestClient(app)
    created = client.post("/api/v1/games", json={"name": "Bots", "players": 4}).json()
    game, organiser = created["game"], _bearer(created["token"])
    other = client.post("/api/v1/games", json={"name": "Kept", "players": 4}).json()
    only_here = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Only Here"}).json()
    both = client.post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "In Both"}).json()
    joined = client.post(
        "/api/v1/join", json={"invite": other["invites"]["p1"], "name": "In Both"}, headers=_bearer(both["token"])
    )
    assert joined.status_code == 200, joined.text
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    order = {"turn": 1, "force": 5, "flair": 3}
    team = client.get(f"/api/v1/games/{game}", headers=_bearer(only_here["token"])).json()["my_teams"][0]["team"]
    assert client.put(f"/api/v1/games/{game}/orders/{team}", json=order, headers=_bearer(only_here["token"])).status_code == 200
    before, kept = _rows_of(app, game), _rows_of(app, other["game"])
    assert before["orders"] and before["order_log"] and before["grants"] == 3

    refused = client.delete(f"/api/v1/games/{game}", headers=_bearer(only_here["token"]))
    assert refused.status_code == 403 and refused.json() == {"detail": "only the game's organiser can do this"}
    assert _rows_of(app, game) == before

    assert client.delete(f"/api/v1/games/{game}", headers=organiser).status_code == 204
    assert set(_rows_of(app, game).values()) == {0}
    assert _rows_of(app, other["game"]) == kept
    gone = client.get(f"/api/v1/games/{game}", headers=_bearer(both["token"]))
    assert gone.status_code == 404 and gone.json() == {"detail": store.no_such_game(game)}
    assert client.delete(f"/api/v1/games/{game}", headers=_bearer(both["token"])).status_code == 404
    # The tokens that opened only this game are gone with it (one holds a player's name); the
    # token that plays the other game keeps it, and only it.
    assert client.get("/api/v1/me", headers=organiser).status_code == 401
    assert client.get("/api/v1/me", headers=_bearer(only_here["token"])).status_code == 401
    mine = client.get("/api/v1/me", headers=_bearer(both["token"])).json()
    assert mine["grants"] == [{"game": other["game"], "role": "player", "player": "p1"}]

    operation = client.get("/api/v1/openapi.json").json()["paths"]["/api/v1/games/{public_id}"]["delete"]
    assert {"204", "401", "403", "404"} <= set(operation["responses"])


def test_deleting_a_rematch_lets_the_old_game_have_another(app: FastAPI) -> None:
    game = _played_a_turn(app)
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    assert post_form(game.organiser, f"{game.base}/rematch").status_code == 201
    with app.state.sessionmaker() as db:
        old = db.scalar(select(GameRow).where(GameRow.public_id == game.public_id))
        assert old is not None and old.rematch_id is not None
        new = db.get(GameRow, old.rematch_id)
        assert new is not None
        rematch = new.public_id
    assert f"This game's rematch is <a href=\"/games/{rematch}\">" in game.organiser.get(f"{game.base}/organise").text

    assert post_form(game.organiser, f"/games/{rematch}/delete", {"confirm": "yes"}).status_code == 200
    assert set(_rows_of(app, rematch).values()) == {0}
    page = game.organiser.get(f"{game.base}/organise").text
    assert 'id="rematched"' not in page and 'id="rematch"' in page
    assert post_form(game.organiser, f"{game.base}/rematch").status_code == 201
    # Deleting the game a rematch came from leaves the rematch whole.
    assert post_form(game.organiser, f"{game.base}/delete", {"confirm": "yes"}).status_code == 200
    (left,) = _games(app)
    assert left.name == "Friday sevens (rematch)" and left.status.value == "lobby"


def _games(app: FastAPI) -> list[GameRow]:
    with app.state.sessionmaker() as db:
        return list(db.scalars(select(GameRow)))
