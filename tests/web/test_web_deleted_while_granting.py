"""*Delete game* committing while the same bot token is given a new game (``POST /api/v1/organise``
with an organiser link, or ``POST /api/v1/games``): the token that opened only the deleted game
became a marker that opens nothing, and the new game's grant went to it, an organiser refused
everywhere. The call takes the token's lock (after the game's, as the join does) and tells the bot
what its next call would; a deletion that comes after the lock waits for the grant, and then
leaves the token live. Both on SQLite and PostgreSQL (two connections)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event, func, select

from sevens.store import games as store
from sevens.store.db import make_sessionmaker
from sevens.store.models import ApiPrincipal, GameRow, Grant
from sevens.store.retention import delete_game
from sevens.web.deps import token_of_deleted_game
from web.conftest import WebDb
from web.web_helpers import FakeClock


class _DeletedOnceTokenRead:
    """Commits *Delete game* of ``game_id`` just after the request has read its bearer token: the
    moment a second server's deletion (or another tab's) can fall into."""

    def __init__(self, engine: Engine, db_engine: Engine, game_id: int, clock: FakeClock) -> None:
        self.engine, self.db_engine, self.game_id, self.clock = engine, db_engine, game_id, clock
        self.token_read = self.deleted = False
        self.after: list[str] = []  # what the request sent to the database after the deletion

    def __enter__(self) -> _DeletedOnceTokenRead:
        event.listen(self.engine, "before_cursor_execute", self._delete)
        return self

    def __exit__(self, *exc: object) -> None:
        event.remove(self.engine, "before_cursor_execute", self._delete)
        assert self.deleted, "the request read no token: the test no longer crosses the deletion"

    def _delete(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if self.deleted:
            self.after.append(statement)
            return
        if not self.token_read:
            self.token_read = "principals" in statement and "token_hash" in statement
            return
        self.deleted = True
        with make_sessionmaker(self.db_engine)() as other:
            delete_game(other, game_id=self.game_id, now=self.clock())
            other.commit()
        self.after.append(statement)  # runs now, after the deletion


def _bot_of_old_and_game_next(app: FastAPI, web_db: WebDb) -> tuple[TestClient, dict[str, str], Any, int]:
    """A bot whose only game is "Old" (its client, its header and that game's id), and another
    organiser's game "Next" (the answer that made it, with its organiser link)."""
    client = TestClient(app)
    old = client.post("/api/v1/games", json={"name": "Old", "players": 4, "teams": 8, "teams_per_player": 2})
    assert old.status_code == 201, old.text
    bot = {"Authorization": f"Bearer {old.json()['token']}"}
    other = TestClient(app).post("/api/v1/games", json={"name": "Next", "players": 4, "teams": 8, "teams_per_player": 2})
    assert other.status_code == 201, other.text
    with make_sessionmaker(web_db.engine)() as db:
        old_id = store.game_by_public_id(db, public_id=old.json()["game"]).id
    return client, bot, other, old_id


@pytest.mark.parametrize("call", ["organise", "create"])
def test_a_token_given_a_game_as_its_only_game_is_deleted_is_told_it_went(
    app: FastAPI, web_db: WebDb, clock: FakeClock, call: str
) -> None:
    client, bot, other, old_id = _bot_of_old_and_game_next(app, web_db)
    with make_sessionmaker(web_db.engine)() as db:
        token_id = db.scalar(select(Grant.principal_id).where(Grant.game_id == old_id))
    with _DeletedOnceTokenRead(app.state.engine, web_db.engine, old_id, clock) as deletion:
        if call == "organise":
            answer = client.post("/api/v1/organise", json={"link": other.json()["organiser_link"]}, headers=bot)
        else:
            answer = client.post("/api/v1/games", json={"name": "New", "players": 4}, headers=bot)
    assert answer.status_code == 401, answer.text
    assert answer.json() == {"detail": token_of_deleted_game(clock())}
    # The refusal reads the token's row once, as it locks it: whether it is live, and when its game went.
    reads = [s for s in deletion.after if "game_deleted_at" in s and s.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 1, reads
    with make_sessionmaker(web_db.engine)() as db:
        assert db.scalar(select(func.count()).select_from(Grant).where(Grant.principal_id == token_id)) == 0
        assert db.scalar(select(ApiPrincipal.game_deleted_at).where(ApiPrincipal.id == token_id)) is not None
        assert db.scalars(select(GameRow.name)).all() == ["Next"]
    # The bot joins or creates afresh without its dead token, as the 401 says.
    again = client.post("/api/v1/games", json={"name": "New", "players": 4})
    assert again.status_code == 201, again.text


class _DeletedAsGrantIsWritten:
    """Starts *Delete game* of ``game_id`` on another connection just before the request writes
    its grant, and gives it time to reach the token's row before the request goes on."""

    def __init__(self, engine: Engine, db_engine: Engine, game_id: int, clock: FakeClock) -> None:
        self.engine, self.db_engine, self.game_id, self.clock = engine, db_engine, game_id, clock
        self.thread: threading.Thread | None = None
        self.failed: list[BaseException] = []

    def __enter__(self) -> _DeletedAsGrantIsWritten:
        event.listen(self.engine, "before_cursor_execute", self._start)
        return self

    def __exit__(self, *exc: object) -> None:
        event.remove(self.engine, "before_cursor_execute", self._start)
        assert self.thread is not None, "the request wrote no grant: the test no longer crosses the deletion"
        self.thread.join(timeout=30)
        assert not self.thread.is_alive() and not self.failed, self.failed

    def _start(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if self.thread is None and statement.lstrip().upper().startswith("INSERT INTO GRANTS"):
            self.thread = threading.Thread(target=self._delete)
            self.thread.start()
            time.sleep(0.5)  # the delete reaches the token's row (PostgreSQL) or SQLite's write lock

    def _delete(self) -> None:
        try:
            with make_sessionmaker(self.db_engine)() as other:
                delete_game(other, game_id=self.game_id, now=self.clock())
                other.commit()
        except BaseException as exc:  # reported by __exit__
            self.failed.append(exc)


def test_a_delete_after_the_organise_took_the_token_leaves_it_live(
    app: FastAPI, web_db: WebDb, clock: FakeClock
) -> None:
    client, bot, other, old_id = _bot_of_old_and_game_next(app, web_db)
    with _DeletedAsGrantIsWritten(app.state.engine, web_db.engine, old_id, clock):
        answer = client.post("/api/v1/organise", json={"link": other.json()["organiser_link"]}, headers=bot)
    assert answer.status_code == 200, answer.text
    # The token kept the game it was just given, and opens it.
    assert client.get("/api/v1/me", headers=bot).json()["grants"] == [
        {"game": other.json()["game"], "role": "organiser", "player": None}
    ]
