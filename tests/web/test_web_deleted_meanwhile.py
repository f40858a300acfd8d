"""A request that found its game a moment before *Delete game* committed: it is told the game is
gone, not that it may not act in it (the grants it then reads went with the game)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import event

from sevens.store import games as store
from sevens.store.db import make_sessionmaker
from sevens.store.retention import delete_game
from web.conftest import WebDb


def test_an_organiser_act_crossing_delete_game_is_told_the_game_is_gone(app: FastAPI, web_db: WebDb) -> None:
    """The deletion is made to commit just as the act reads its credential's grants, the moment a
    second server's *Delete game* can fall into (seen on two servers in test_turn_races): the act
    used to answer 403 "only the game's organiser can do this" to the organiser itself."""
    client = TestClient(app)
    created = client.post("/api/v1/games", json={"name": "Gone", "players": 4, "teams": 8, "teams_per_player": 2})
    assert created.status_code == 201, created.text
    public_id, token = created.json()["game"], created.json()["token"]
    with make_sessionmaker(web_db.engine)() as db:
        game_id = store.game_by_public_id(db, public_id=public_id).id
    deleted: list[bool] = []

    def delete_before_the_grants_are_read(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if not deleted and statement.lstrip().upper().startswith("SELECT") and "FROM grants" in statement:
            deleted.append(True)
            with make_sessionmaker(web_db.engine)() as other:
                delete_game(other, game_id=game_id)
                other.commit()

    engine = app.state.engine
    event.listen(engine, "before_cursor_execute", delete_before_the_grants_are_read)
    try:
        answer = client.post(f"/api/v1/games/{public_id}/start", headers={"Authorization": f"Bearer {token}"})
    finally:
        event.remove(engine, "before_cursor_execute", delete_before_the_grants_are_read)
    assert deleted, "the act read no grant: the test no longer crosses the deletion"
    assert answer.status_code == 404, answer.text
    assert answer.json()["detail"] == store.no_such_game(public_id)
