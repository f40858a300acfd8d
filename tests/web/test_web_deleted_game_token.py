"""A bot playing a game its organiser deletes: its token, which opened only that game, went with
it, and every call with it is told so rather than "unknown or revoked bot token"; a token that
plays other games too keeps them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from sevens.store import games as store
from sevens.store.backup import export_backup
from sevens.store.db import make_sessionmaker
from sevens.store.models import ApiPrincipal
from sevens.store.retention import prune
from sevens.web.deps import UNKNOWN_TOKEN, token_of_deleted_game
from sevens.web.security import RateLimiter
from web.conftest import WebDb
from web.web_helpers import FakeClock


def _api_game(client: TestClient, name: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """A game made through the API: its id, the organiser's token header and its invites."""
    created = client.post("/api/v1/games", json={"name": name, "players": 4, "teams": 8, "teams_per_player": 2})
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    return body["game"], {"Authorization": f"Bearer {body['token']}"}, body["invites"]


def test_a_bot_whose_only_game_was_deleted_is_told_so(app: FastAPI, web_db: WebDb, clock: FakeClock) -> None:
    client = TestClient(app)
    public_id, organiser, invites = _api_game(client, "Gone")
    joined = client.post("/api/v1/join", json={"invite": invites["p1"], "name": "Ann"})
    assert joined.status_code == 200, joined.text
    bot = {"Authorization": f"Bearer {joined.json()['token']}"}
    assert client.post(f"/api/v1/games/{public_id}/start", headers=organiser).status_code == 200
    team = client.get(f"/api/v1/games/{public_id}", headers=bot).json()["my_teams"][0]["team"]
    deleted_at = clock()
    assert client.delete(f"/api/v1/games/{public_id}", headers=organiser).status_code == 204
    told = token_of_deleted_game(deleted_at)
    # Few wrong tokens allowed: a bot polling with its dead token is not taken for a guesser.
    app.state.limiter = RateLimiter(attempts=2, window_seconds=60)
    calls = [
        ("GET", "/api/v1/me", None),  # BotDep
        ("GET", f"/api/v1/games/{public_id}", None),  # a token optional (a public game)
        ("PUT", f"/api/v1/games/{public_id}/orders/{team}", {"turn": 1, "force": 3, "flair": 3}),  # the order's own path
        ("GET", "/api/v1/waiting", None),
        ("GET", f"/api/v1/games/{public_id}/state", None),
    ]
    for headers in (bot, organiser, bot):
        for method, url, body in calls:
            answer = client.request(method, url, headers=headers, json=body)
            assert answer.status_code == 401, (url, answer.text)
            assert answer.json() == {"detail": told}, url
            assert answer.headers["WWW-Authenticate"] == "Bearer"
    # What is left of the tokens holds no name of the game's players.
    with make_sessionmaker(web_db.engine)() as db:
        labels = set(db.scalars(select(ApiPrincipal.label).where(ApiPrincipal.game_deleted_at.is_not(None))))
    assert labels == {""}
    # An unknown token is still refused as such, and counted.
    for _ in range(2):
        unknown = client.get("/api/v1/me", headers={"Authorization": "Bearer not-a-token"})
        assert unknown.status_code == 401 and unknown.json() == {"detail": UNKNOWN_TOKEN}
    assert client.get("/api/v1/me", headers={"Authorization": "Bearer not-a-token"}).status_code == 429


def test_a_token_that_plays_another_game_keeps_it(app: FastAPI) -> None:
    """Deleting one of its games leaves the token working for the others: the deleted one answers
    404 as any missing game, and the token lists only what it still opens."""
    client = TestClient(app)
    gone, organiser, invites = _api_game(client, "Gone")
    kept, _, kept_invites = _api_game(client, "Kept")
    first = client.post("/api/v1/join", json={"invite": invites["p1"], "name": "Ann"})
    bot = {"Authorization": f"Bearer {first.json()['token']}"}
    assert client.post("/api/v1/join", json={"invite": kept_invites["p2"], "name": "Ann"}, headers=bot).status_code == 200
    assert client.delete(f"/api/v1/games/{gone}", headers=organiser).status_code == 204
    assert client.get(f"/api/v1/games/{gone}", headers=bot).json() == {"detail": store.no_such_game(gone)}
    me = client.get("/api/v1/me", headers=bot)
    assert me.status_code == 200 and [g["game"] for g in me.json()["grants"]] == [kept]


def test_the_tidy_keeps_the_marker_of_a_token_deleted_with_its_game_for_its_days(
    app: FastAPI, web_db: WebDb, clock: FakeClock
) -> None:
    """A token made long ago whose game is deleted today says why for the tidy's days from today,
    not from when it was made (the next tidy would otherwise remove it)."""
    client = TestClient(app)
    public_id, organiser, _ = _api_game(client, "Old")
    clock.now += timedelta(days=100)
    assert client.delete(f"/api/v1/games/{public_id}", headers=organiser).status_code == 204
    factory = make_sessionmaker(web_db.engine)
    with factory() as db:
        assert prune(db, now=clock() + timedelta(days=59), unused_bot_days=60).bot_tokens == 0
        db.commit()
    assert client.get("/api/v1/me", headers=organiser).json() == {"detail": token_of_deleted_game(clock())}
    with factory() as db:
        assert prune(db, now=clock() + timedelta(days=61), unused_bot_days=60).bot_tokens == 1
        db.commit()
    assert client.get("/api/v1/me", headers=organiser).json() == {"detail": UNKNOWN_TOKEN}


def test_a_full_backup_carries_the_tokens_deleted_with_their_game_as_markers(
    app: FastAPI, web_db: WebDb, clock: FakeClock
) -> None:
    """The marker is not a credential: a full export carries it as its hash and time only, never
    as a token that would come back from an import live, opening nothing (an import makes it a
    marker again: tests/store/test_store_backup_deleted_tokens.py)."""
    client = TestClient(app)
    gone, organiser, _ = _api_game(client, "Gone")
    _api_game(client, "Kept")
    assert client.delete(f"/api/v1/games/{gone}", headers=organiser).status_code == 204
    with make_sessionmaker(web_db.engine)() as db:
        document = export_backup(db, full=True, now=clock())
        markers = db.scalar(select(func.count()).select_from(ApiPrincipal).where(ApiPrincipal.game_deleted_at.is_not(None)))
    assert markers == 1
    assert [c["label"] for c in document["credentials"] if "label" in c] == ["organiser"]
    (marker,) = (c for c in document["credentials"] if "label" not in c)
    assert set(marker) == {"kind", "token_hash", "game_deleted_at"}


def test_a_bot_told_to_join_another_game_can_do_so_with_its_dead_token_still_sent(app: FastAPI) -> None:
    """The 401 says "join another game ... for a new token": a bot whose client still sends the
    dead token with every call gets that new token from the join, not the same 401 again."""
    client = TestClient(app)
    gone, organiser, invites = _api_game(client, "Gone")
    _, _, other_invites = _api_game(client, "Next")
    first = client.post("/api/v1/join", json={"invite": invites["p1"], "name": "Ann"})
    dead = {"Authorization": f"Bearer {first.json()['token']}"}
    assert client.delete(f"/api/v1/games/{gone}", headers=organiser).status_code == 204
    joined = client.post("/api/v1/join", json={"invite": other_invites["p1"], "name": "Ann"}, headers=dead)
    assert joined.status_code == 200, joined.text
    fresh = joined.json()["token"]
    assert fresh and f"Bearer {fresh}" != dead["Authorization"]
    assert client.get("/api/v1/me", headers={"Authorization": f"Bearer {fresh}"}).status_code == 200
    # The dead one opens nothing still.
    assert client.get("/api/v1/me", headers=dead).status_code == 401
