"""A request that found its game a moment before *Delete game* committed: it is told the game is
gone, not that it may not act in it (the grants it then reads went with the game), by the API and
the pages alike."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from markupsafe import escape
from sqlalchemy import Engine, event

from sevens.store import games as store
from sevens.store.db import make_sessionmaker
from sevens.store.retention import delete_game
from web.conftest import WebDb
from web.web_helpers import csrf, host_game


def test_an_organiser_act_crossing_delete_game_is_told_the_game_is_gone(app: FastAPI, web_db: WebDb) -> None:
    """The deletion is made to commit just as the act reads its credential's grants, the moment a
    second server's *Delete game* can fall into (seen on two servers in test_turn_races): the act
    used to answer 403 "only the game's organiser can do this" to the organiser itself."""
    client = TestClient(app)
    created = client.post("/api/v1/games", json={"name": "Gone", "players": 4, "teams": 8, "teams_per_player": 2})
    assert created.status_code == 201, created.text
    public_id, token = created.json()["game"], created.json()["token"]
    with _DeletedAsGrantsAreRead(app.state.engine, web_db.engine, _game_id(web_db, public_id)):
        answer = client.post(f"/api/v1/games/{public_id}/start", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 404, answer.text
    assert answer.json()["detail"] == store.no_such_game(public_id)


class _DeletedAsGrantsAreRead:
    """Commits *Delete game* of ``game_id`` just before the request's first statement that reads
    grants: the moment a second server's deletion can fall into."""

    def __init__(self, engine: Engine, db_engine: Engine, game_id: int) -> None:
        self.engine, self.db_engine, self.game_id, self.deleted = engine, db_engine, game_id, False

    def __enter__(self) -> _DeletedAsGrantsAreRead:
        event.listen(self.engine, "before_cursor_execute", self._delete)
        return self

    def __exit__(self, *exc: object) -> None:
        event.remove(self.engine, "before_cursor_execute", self._delete)
        assert self.deleted, "the request read no grant: the test no longer crosses the deletion"

    def _delete(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if not self.deleted and statement.lstrip().upper().startswith("SELECT") and "grants" in statement:
            self.deleted = True
            with make_sessionmaker(self.db_engine)() as other:
                delete_game(other, game_id=self.game_id, now=datetime.now(UTC))
                other.commit()


def _game_id(web_db: WebDb, public_id: str) -> int:
    with make_sessionmaker(web_db.engine)() as db:
        return store.game_by_public_id(db, public_id=public_id).id


@pytest.mark.parametrize(
    ("who", "method", "path", "form"),
    [
        ("organiser", "post", "/start", {}),
        ("organiser", "get", "/organise", None),
        ("p1", "get", "/play", None),
        ("p1", "post", "/autopilot", {"team": "fiji", "strategy": "even"}),
    ],
)
def test_a_page_crossing_delete_game_says_the_game_is_gone(
    app: FastAPI, web_db: WebDb, who: str, method: str, path: str, form: dict[str, str] | None
) -> None:
    """The organiser's act or page used to answer 403 "only the game's organiser can do this", and
    a player's page "this browser plays no seat in this game", to the very browsers that did: the
    grants they read had gone with the game. Now the page that says there is no such game, as
    after the deletion."""
    game = host_game(app, name="Gone")
    game.join("p1", "Ann")
    client = game.organiser if who == "organiser" else game.players[who]
    body = None if form is None else {**form, "csrf": csrf(client)}
    with _DeletedAsGrantsAreRead(app.state.engine, web_db.engine, _game_id(web_db, game.public_id)):
        answer = client.request(method.upper(), f"{game.base}{path}", data=body)
    assert answer.status_code == 404, answer.text
    assert escape(store.no_such_game(game.public_id)) in answer.text
