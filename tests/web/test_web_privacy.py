"""What the server forgets: a game its organiser deletes (page and API), and what the scheduler
prunes (expired sessions, bot tokens that open nothing, old counts of attempts, games long over
if the server is set to)."""

from __future__ import annotations

import json
import logging
import re
import time
from datetime import UTC, datetime, timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from sevens.store import games as store
from sevens.store.backup import export_backup
from sevens.store.models import (
    ApiPrincipal,
    Base,
    FailedAttempt,
    GameRow,
    Grant,
    PrincipalKind,
    SeatRow,
    ServerKey,
)
from sevens.store.ratelimit import count_failure
from sevens.store.secrets import keyed_hash
from sevens.tournament.verify import verify_record
from sevens.web.api import NOT_ORGANISER
from sevens.web.app import create_app
from sevens.web.scheduler import Keeping, resolve_due, tidy
from sevens.web.settings import Settings
from web.conftest import WebDb
from web.web_helpers import FakeClock, Hosted, host_game, log_shown, new_client, post_form, unset


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


def _count(app: FastAPI, model: type[Base]) -> int:
    with app.state.sessionmaker() as db:
        return db.scalar(select(func.count()).select_from(model)) or 0


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
        # Not "its organiser deleted" it: the tidy deletes games long over too, and an unknown game reads the same.
        assert "gone for good once deleted, by its organiser or by the server when it has long been over" in answer.text, path
        assert "a game its organiser deleted" not in answer.text, path
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
    assert refused.status_code == 403 and refused.json() == {"detail": NOT_ORGANISER}
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


def test_a_bot_token_kept_for_another_game_loses_its_name_in_the_deleted_one(app: FastAPI) -> None:
    """A token labelled with the name it joined a game under ("Gone Gary", its first seat) and
    playing another game as "Kept Kim": the first game is deleted, and the token, kept for the
    other, was still called Gone Gary in GET /me, in the organiser acts it logged and in every full
    backup, a name of a game that is gone for good."""
    client = TestClient(app)
    deleted = client.post("/api/v1/games", json={"name": "Deleted", "players": 4}).json()
    kept = client.post("/api/v1/games", json={"name": "Kept", "players": 4}).json()
    bot = client.post("/api/v1/join", json={"invite": deleted["invites"]["p2"], "name": "Gone Gary"}).json()
    auth = _bearer(bot["token"])
    assert client.post("/api/v1/join", json={"invite": kept["invites"]["p3"], "name": "Kept Kim"}, headers=auth).status_code == 200
    assert client.post("/api/v1/organise", json={"link": kept["organiser_link"]}, headers=auth).status_code == 200
    assert client.delete(f"/api/v1/games/{deleted['game']}", headers=_bearer(deleted["token"])).status_code == 204
    assert client.get("/api/v1/me", headers=auth).json()["label"] == "Kept Kim"
    assert client.post(f"/api/v1/games/{kept['game']}/start", headers=auth).status_code == 200
    with app.state.sessionmaker() as db:
        backup = json.dumps(export_backup(db, full=True, now=datetime.now(UTC)), ensure_ascii=False)
    assert "Gone Gary" not in backup and "organiser (api: Kept Kim)" in backup


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


def _principals(app: FastAPI) -> list[tuple[PrincipalKind, str]]:
    with app.state.sessionmaker() as db:
        return sorted((p.kind, p.label) for p in db.scalars(select(ApiPrincipal)))


def test_tidying_forgets_expired_sessions_tokens_that_open_nothing_and_old_counts(app: FastAPI, clock: FakeClock) -> None:
    keeping = Keeping(unused_bot_days=60)
    game = host_game(app)  # the organiser's browser session, 60 days
    game.join("p1", "Ann")  # another session
    client = TestClient(app)
    joined = client.post("/api/v1/join", json={"invite": game.invites["p2"], "name": "Old Bot"}).json()
    # The organiser hands the bot's seat to the bots: its token opens nothing now, and keeps the name.
    assert post_form(game.organiser, f"{game.base}/seats/p2/release").status_code == 303
    count_failure(app.state.engine, client="10.0.0.1", at=clock().timestamp(), window=60)
    assert _count(app, FailedAttempt) == 1
    assert tidy(app.state.sessionmaker, now=clock(), keeping=keeping) == 0

    clock.advance(days=30)
    later = host_game(app, name="Later")  # a session made 30 days on
    assert tidy(app.state.sessionmaker, now=clock(), keeping=keeping) == 1  # the count, older than a day
    count_failure(app.state.engine, client="10.0.0.2", at=clock().timestamp(), window=60)
    assert _count(app, FailedAttempt) == 1

    clock.advance(days=30, seconds=1)
    assert tidy(app.state.sessionmaker, now=clock(), keeping=keeping) == 4  # two sessions, a token, a count
    assert _principals(app) == [(PrincipalKind.SESSION, "")]
    assert _count(app, Grant) == 1  # what the sessions were allowed went with them: Later's organiser's is left
    assert _count(app, FailedAttempt) == 0
    assert client.get("/api/v1/me", headers=_bearer(joined["token"])).status_code == 401
    assert later.organiser.get(f"{later.base}/organise").status_code == 200
    # Only the game's own rows stay: nobody's seat, and the games themselves are kept by default.
    assert {g.name for g in _games(app)} == {"Friday sevens", "Later"}


def test_games_over_are_deleted_after_the_days_set_never_by_default(app: FastAPI, clock: FakeClock) -> None:
    over = _played_a_turn(app)
    assert post_form(over.organiser, f"{over.base}/end").status_code == 303
    running = _played_a_turn(app)
    clock.advance(days=400)
    tidy(app.state.sessionmaker, now=clock(), keeping=Keeping(unused_bot_days=60))
    assert len(_games(app)) == 2

    ended = clock() - timedelta(days=400)
    keeping = Keeping(unused_bot_days=60, games_over_days=30)
    tidy(app.state.sessionmaker, now=ended + timedelta(days=29), keeping=keeping)
    assert len(_games(app)) == 2
    tidy(app.state.sessionmaker, now=ended + timedelta(days=31), keeping=keeping)
    assert set(_rows_of(app, over.public_id).values()) == {0}
    assert [g.public_id for g in _games(app)] == [running.public_id]


def test_the_servers_scheduler_tidies_as_it_runs(app: FastAPI, web_db: WebDb, clock: FakeClock) -> None:
    """The app's own scheduler (its lifespan) tidies at its first poll: a browser session past its
    60 days is gone, a live one kept; games over are kept, as by default."""
    old = host_game(app, name="Old")
    assert post_form(old.organiser, f"{old.base}/end").status_code == 303
    clock.advance(days=59)
    new = host_game(app, name="New")
    clock.advance(days=2)
    settings = Settings(database_url=web_db.url, migrate=False, scheduler_seconds=0.05)
    server = create_app(settings, clock=clock)
    with TestClient(server):  # runs the lifespan, and with it the scheduler
        for _ in range(200):
            if len(_principals(app)) == 1:
                break
            time.sleep(0.05)
    assert _principals(app) == [(PrincipalKind.SESSION, "")]
    assert new.organiser.get(f"{new.base}/organise").status_code == 200
    # The old game's browser is signed out (its organiser link would let it in again); the game stays.
    assert old.organiser.get(f"{old.base}/organise").status_code == 403
    assert {g.name for g in _games(app)} == {"Old", "New"}


def test_no_log_line_holds_a_name_an_address_or_a_secret_at_any_level(
    app: FastAPI, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """docs/web.md's 'What the server keeps': every logger at DEBUG (SQLAlchemy's too, which keeps
    its own level), through a game played to its deadline by a bot, a wrong token, the tidy and a
    deletion, writes no player's or game's name, no client address, no token, invite or organiser
    link, nor the key the rate-limit rows are hashed under or what it made of the address."""
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="sevens")
    caplog.set_level(logging.DEBUG, logger="sqlalchemy")
    client = TestClient(app)
    created = client.post("/api/v1/games", json={"name": "Quietly Named Cup", "players": 4, "deadline_hours": 1}).json()
    organiser = _bearer(created["token"])
    joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Zelda Quux"}).json()
    bot = _bearer(joined["token"])
    assert client.post(f"/api/v1/games/{created['game']}/start", headers=organiser).status_code == 200
    team = client.get(f"/api/v1/games/{created['game']}", headers=bot).json()["my_teams"][0]["team"]
    order = {"turn": 1, "force": 5, "flair": 3}
    assert client.put(f"/api/v1/games/{created['game']}/orders/{team}", json=order, headers=bot).status_code == 200
    assert client.get("/api/v1/me", headers=_bearer("not-a-token")).status_code == 401
    count_failure(app.state.engine, client="203.0.113.9", at=clock().timestamp(), window=60)
    clock.advance(hours=2)
    assert resolve_due(app.state.sessionmaker, now=clock()) >= 1
    clock.advance(days=90)
    assert tidy(app.state.sessionmaker, now=clock(), keeping=Keeping(unused_bot_days=60)) >= 1
    assert client.delete(f"/api/v1/games/{created['game']}", headers=organiser).status_code == 204

    with app.state.sessionmaker() as db:
        key = db.scalars(select(ServerKey.key_hex)).one()
    said = "\n".join(f"{r.getMessage()} {r.args!r}" for r in caplog.records if not r.name.startswith("httpx"))
    assert "resolved at its deadline" in said and "tidied:" in said  # the lines are there to read
    assert "INSERT INTO failed_attempts" in said  # and SQLAlchemy's
    secrets = [created["token"], joined["token"], created["organiser_link"], *created["invites"].values()]
    secrets += [key, keyed_hash(bytes.fromhex(key), "203.0.113.9")]
    for kept_out in ("Zelda Quux", "Quietly Named Cup", "testclient", "203.0.113.9", "not-a-token", *secrets):
        assert kept_out not in said, kept_out


def _text_of_game(app: FastAPI, public_id: str) -> str:
    """Every value of every row of the game, and of the credentials that may open it, as one text."""
    with app.state.sessionmaker() as db:
        game_id = db.scalar(select(GameRow.id).where(GameRow.public_id == public_id))
        values: list[str] = []
        for table in Base.metadata.sorted_tables:
            if "game_id" in table.c:
                rows = db.execute(select(table).where(table.c.game_id == game_id))
            elif table.name == "games":
                rows = db.execute(select(table).where(table.c.id == game_id))
            elif table.name == "principals":
                rows = db.execute(select(table).where(table.c.id.in_(select(Grant.principal_id).where(Grant.game_id == game_id))))
            else:
                continue
            values += [str(value) for row in rows for value in row]
        return "\n".join(values)


def test_the_organiser_removes_a_players_name_from_a_game_over(app: FastAPI) -> None:
    """A player asks for their name to go: the organiser's Remove name puts "Player N" in its place
    in the seat, the record (which still verifies), the event log and a bot token's label."""
    game = host_game(app, hours="0")
    ann = game.join("p1", "Ann Example")
    client = TestClient(app)
    bob = client.post("/api/v1/join", json={"invite": game.invites["p2"], "name": "Bob Example"}).json()
    game.start()
    # Ann signs out: the event log says "seat left", under her name.
    assert post_form(ann, "/signout").status_code == 303
    page = game.organiser.get(f"{game.base}/organise").text
    assert 'id="remove-name"' not in page and "/remove-name" not in page  # not while the game runs
    refused = post_form(game.organiser, f"{game.base}/seats/p1/remove-name")
    assert refused.status_code == 409 and "No name was removed" in refused.text
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    assert "Ann Example" in _text_of_game(app, game.public_id)
    page = game.organiser.get(f"{game.base}/organise").text
    assert page.count("/remove-name") == 2  # the two seats taken, not the two nobody took

    for seat in ("p1", "p2"):
        done = post_form(game.organiser, f"{game.base}/seats/{seat}/remove-name")
        assert done.status_code == 303 and done.headers["location"].endswith(f"/organise#seat-{seat}")
    kept = _text_of_game(app, game.public_id)
    assert "Ann Example" not in kept and "Bob Example" not in kept
    assert post_form(game.organiser, f"{game.base}/seats/p3/remove-name").status_code == 409  # nobody took it

    record = game.organiser.get(f"{game.base}/record.json").json()
    assert [p["name"] for p in record["players"]][:2] == ["Player 1", "Player 2"]
    verify_record(record)
    page = unset(game.organiser.get(f"{game.base}/organise").text)
    assert "left their seat · seat 1 (Player 1): its player signed out" in log_shown(page)
    assert "removed a player's name · seat 2" in log_shown(page)
    assert "/remove-name" not in page
    assert client.get("/api/v1/me", headers=_bearer(bob["token"])).json()["label"] == "Player 2"


def test_the_api_removes_a_players_name_from_a_game_over(app: FastAPI) -> None:
    client = TestClient(app)
    created = client.post("/api/v1/games", json={"name": "Bots", "players": 4}).json()
    game, organiser = created["game"], _bearer(created["token"])
    client.post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "Cleo Example"})
    url = f"/api/v1/games/{game}/seats/p2/remove-name"
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    early = client.post(url, headers=organiser)
    assert early.status_code == 409 and early.json()["detail"].startswith("the game is running: a name is removed once it is over")
    assert client.post(f"/api/v1/games/{game}/end", headers=organiser).status_code == 200
    view = client.post(url, headers=organiser)
    assert view.status_code == 200, view.text
    assert {s["player"]: s["name"] for s in view.json()["seats"]}["p2"] == "Player 2"
    assert "Cleo Example" not in _text_of_game(app, game)
    assert view.json()["events"][-1]["actor"] == "organiser (api: organiser)"


def test_removing_the_name_of_a_player_who_also_organises_by_api_leaves_it_in_no_event(app: FastAPI) -> None:
    """A bot that joined as a player and organises too (by the organiser link) writes its acts
    under "organiser (api: <its label>)", its label being the name it joined under: those events,
    and the removal's own, must lose the name with the seat."""
    client = TestClient(app)
    created = client.post("/api/v1/games", json={"name": "Bots", "players": 4}).json()
    game = created["game"]
    cleo = _bearer(client.post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "Cleo Example"}).json()["token"])
    assert client.post("/api/v1/organise", json={"link": created["organiser_link"]}, headers=cleo).status_code == 200
    assert client.post(f"/api/v1/games/{game}/start", headers=cleo).status_code == 200
    assert client.post(f"/api/v1/games/{game}/end", headers=cleo).status_code == 200
    assert "organiser (api: Cleo Example)" in _text_of_game(app, game)  # the acts are hers, by her label
    view = client.post(f"/api/v1/games/{game}/seats/p2/remove-name", headers=cleo)
    assert view.status_code == 200, view.text
    assert "Cleo Example" not in _text_of_game(app, game)
    assert [e["actor"] for e in view.json()["events"]][-1] == "organiser (api: Player 2)"


def test_a_bot_token_is_labelled_with_its_seats_name_not_the_name_it_sent(app: FastAPI) -> None:
    """A token was labelled with the name its join sent, as sent: a seat taken after the start
    plays under the record's name whatever is sent, and a name sent with extra spaces plays tidied.
    Either way the server kept, unseen, a name no page shows, and Remove name (which finds the
    token by the seat's name) left it there. The label is now the seat's name."""
    client = TestClient(app)
    created = client.post("/api/v1/games", json={"name": "Late bots", "players": 4}).json()
    game, organiser = created["game"], _bearer(created["token"])
    fay = client.post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "  Fay   Example "}).json()
    assert fay["name"] == "Fay Example"
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    late = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Gil Example"}).json()
    assert late["name"] == "Player 1" and "plays as 'Player 1'" in late["note"]
    assert "Gil Example" not in _text_of_game(app, game)
    assert client.get("/api/v1/me", headers=_bearer(late["token"])).json()["label"] == "Player 1"
    assert client.post(f"/api/v1/games/{game}/end", headers=organiser).status_code == 200
    assert client.post(f"/api/v1/games/{game}/seats/p2/remove-name", headers=organiser).status_code == 200
    assert "Fay" not in _text_of_game(app, game)
    assert client.get("/api/v1/me", headers=_bearer(fay["token"])).json()["label"] == "Player 2"


def test_the_organiser_page_removes_the_name_of_a_seat_handed_to_the_bots(app: FastAPI) -> None:
    """A seat handed to the bots while the game runs keeps its player's name (the Teams table
    says "<name>, handed to the bots"): once the game is over, its name can go as any other's,
    and a seat nobody took, or a name that only looks like a placeholder, is told apart."""
    game = host_game(app, hours="0")
    game.join("p1", "Dana Example")
    game.join("p2", "Player 23")  # a name chosen, not this seat's placeholder ("Player 2")
    game.start()
    assert post_form(game.organiser, f"{game.base}/seats/p1/release").status_code == 303
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    assert "Dana Example" in game.organiser.get(game.base).text  # its Teams table: "handed to the bots"
    page = game.organiser.get(f"{game.base}/organise").text
    offered = sorted(re.findall(r'/seats/(p\d+)/remove-name"', page))
    assert offered == ["p1", "p2"]
    assert post_form(game.organiser, f"{game.base}/seats/p1/remove-name").status_code == 303
    assert "Dana Example" not in _text_of_game(app, game.public_id)
    page = game.organiser.get(f"{game.base}/organise").text
    assert re.findall(r'/seats/(p\d+)/remove-name"', page) == ["p2"]


def test_a_removed_name_that_clashes_with_another_seats_says_the_seat_by_its_number_not_its_id(app: FastAPI) -> None:
    """Seat 3's name removed while seat 1 is called "Player 3" became "Player 3 (p3)": an id, for
    people to read in the record, the pages and the event log. It is "Player 3 (seat 3)" now; the
    organiser page offers no Remove name for it, nor for a seat still holding the old form."""
    game = host_game(app, hours="0")
    game.join("p3", "Cat Example")
    game.join("p1", "Player 3")  # free once seat 3 has a name of its own
    game.start()
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    assert post_form(game.organiser, f"{game.base}/seats/p3/remove-name").status_code == 303
    record = game.organiser.get(f"{game.base}/record.json").json()
    assert {p["id"]: p["name"] for p in record["players"]}["p3"] == "Player 3 (seat 3)"
    kept = _text_of_game(app, game.public_id)
    assert "Cat Example" not in kept and "(p3)" not in kept
    verify_record(record)
    page = unset(game.organiser.get(f"{game.base}/organise").text)
    assert "Player 3 (seat 3)" in page and "(p3)" not in page
    assert re.findall(r'/seats/(p\d+)/remove-name"', page) == ["p1"]  # "Player 3" is seat 1's own name
    with app.state.sessionmaker() as db:  # a name removed before, in the old form
        seat = db.scalar(select(SeatRow).join(GameRow).where(GameRow.public_id == game.public_id, SeatRow.player_id == "p3"))
        assert seat is not None
        seat.name = "Player 3 (p3)"
        db.commit()
    page = game.organiser.get(f"{game.base}/organise").text
    assert re.findall(r'/seats/(p\d+)/remove-name"', page) == ["p1"]
    assert post_form(game.organiser, f"{game.base}/seats/p1/remove-name").status_code == 303
    assert {p["id"]: p["name"] for p in game.organiser.get(f"{game.base}/record.json").json()["players"]}["p1"] == "Player 1"


def test_a_game_deleted_while_the_scheduler_polls_is_passed_over_without_an_error(
    app: FastAPI, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """The organiser deletes a game between the poll finding its turn due and resolving it: the
    poll goes on with the others, and logs no error (nothing is wrong; the game is gone)."""
    gone, kept = host_game(app, name="Gone", hours="1"), host_game(app, name="Kept", hours="1")
    for game in (gone, kept):
        game.join("p1", "Ann")
        game.start()
    clock.advance(hours=2)

    def delete_it() -> None:
        assert post_form(gone.organiser, f"{gone.base}/delete", {"confirm": "yes"}).status_code == 200

    failed: set[tuple[int, int]] = set()
    with caplog.at_level(logging.INFO, logger="sevens.web.scheduler"):
        assert resolve_due(app.state.sessionmaker, now=clock(), reached=delete_it, failed=failed) == 1
    assert [r.levelname for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert not failed
    assert kept.turn() == 2
