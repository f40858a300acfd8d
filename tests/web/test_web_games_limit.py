"""A limit on new games per client address (SEVENS_GAMES_PER_HOUR), on the form and the API alike."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from sevens.store.models import GameRow
from sevens.web.app import create_app
from sevens.web.settings import Settings
from web.conftest import WebDb
from web.refused_forms import refused_form
from web.web_helpers import host_game, new_client, post_form

FORM = {"name": "Cup", "arrangement": "4-8-2", "deadline_hours": "24", "default_bot": "even", "visibility": "public"}
API = {"name": "Cup", "players": 4}


def _games(app: FastAPI) -> int:
    with app.state.sessionmaker() as db:
        return int(db.scalar(select(func.count()).select_from(GameRow)) or 0)


@pytest.fixture
def limited(app: FastAPI, web_db: WebDb) -> Iterator[FastAPI]:
    """An app on the test database (emptied by ``app``) that allows two new games per address and hour."""
    settings = Settings(database_url=web_db.url, scheduler=False, migrate=False, games_per_hour=2)
    application = create_app(settings)
    yield application
    application.state.engine.dispose()


def _wait(response) -> int:  # type: ignore[no-untyped-def]
    assert response.status_code == 429, response.text
    wait = int(response.headers["retry-after"])
    assert 3000 < wait <= 3600  # the hour's window, from games created a moment ago
    return wait


def test_new_games_past_the_limit_get_429_on_the_form_and_the_api(limited: FastAPI) -> None:
    """Form and API count together; a refused form leaves the game uncreated and comes back as the
    create form, what was typed kept, saying at its top when to try again; the API answers in its
    JSON error shape."""
    browser = new_client(limited)
    bad = post_form(browser, "/games", {**FORM, "arrangement": "3-8-2"})
    assert bad.status_code == 422  # a refused game is not counted
    assert post_form(browser, "/games", FORM).status_code == 201
    assert browser.post("/api/v1/games", json=API).status_code == 201
    page = post_form(browser, "/games", FORM)
    wait = _wait(page)
    assert page.headers["content-type"].startswith("text/html")
    assert '<a class="brand" href="/">Sevens</a>' in page.text
    form = refused_form(page.text, "create-game")
    assert form.invalid() == [] and all(form.value(k) == v for k, v in FORM.items())
    said = [e.text for e in form.summary().all() if e.tag == "li"]
    assert said == [
        "too many new games from your address: this server allows 2 an hour from one address; "
        f"nothing was created, try again in {-(-wait // 60)} minutes"
    ]
    api = new_client(limited).post("/api/v1/games", json=API)  # another browser, the same address
    _wait(api)
    assert list(api.json()) == ["detail"]
    assert api.json()["detail"].startswith("too many new games from your address: this server allows 2 an hour")
    assert _games(limited) == 2
    # Another address is not held back, and joining and playing are not limited.
    other = type(browser)(limited, follow_redirects=False, client=("10.0.0.9", 50000))
    assert post_form(other, "/games", FORM).status_code == 201


def test_no_limit_with_zero(app: FastAPI) -> None:
    """SEVENS_GAMES_PER_HOUR=0 (the test site's setting): no limit at all."""
    assert app.state.games_limiter is None
    client = new_client(app)
    for _ in range(25):
        assert client.post("/api/v1/games", json=API).status_code == 201


def test_the_limit_holds_across_workers(limited: FastAPI, web_db: WebDb) -> None:
    """A second worker on the same database sees the games the first created: past the limit it
    lets through at most one more (the one that finds the count), then refuses."""
    second = create_app(Settings(database_url=web_db.url, scheduler=False, migrate=False, games_per_hour=2))
    try:
        for _ in range(2):
            host_game(limited)
        client = new_client(second)
        statuses = [client.post("/api/v1/games", json=API).status_code for _ in range(2)]
        assert statuses == [201, 429]
        assert _games(limited) == 3
    finally:
        second.state.engine.dispose()


def test_setting_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings(database_url="sqlite://").games_per_hour == 20
    monkeypatch.setenv("SEVENS_GAMES_PER_HOUR", "5")
    assert Settings(database_url="sqlite://").games_per_hour == 5
    monkeypatch.setenv("SEVENS_GAMES_PER_HOUR", "-1")
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        Settings(database_url="sqlite://")


def test_a_rematch_counts_as_a_new_game(limited: FastAPI) -> None:
    """A rematch creates a game, so it counts against the limit: past it the organiser page comes
    back with the reason at the rematch button and Retry-After, and nothing is created."""
    game = host_game(limited)
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    assert post_form(game.organiser, f"{game.base}/rematch").status_code == 201
    with limited.state.sessionmaker() as db:
        again = db.scalar(select(GameRow.public_id).order_by(GameRow.id.desc()))
    assert post_form(game.organiser, f"/games/{again}/end").status_code == 303
    page = post_form(game.organiser, f"/games/{again}/rematch")  # the rematch of the rematch
    wait = _wait(page)
    said = [e.text for e in refused_form(page.text, "rematch").summary().all() if e.tag == "li"]
    assert said == [
        "too many new games from your address: this server allows 2 an hour from one address; "
        f"nothing was created, try again in {-(-wait // 60)} minutes"
    ]
    assert _games(limited) == 2


def test_an_api_rematch_counts_as_a_new_game(limited: FastAPI) -> None:
    """By API too: past the limit the rematch gets 429 with Retry-After and nothing is created;
    a game that already has its rematch is told so (409) rather than to wait an hour."""
    client = new_client(limited)
    created = client.post("/api/v1/games", json=API).json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    old = created["game"]
    assert client.post(f"/api/v1/games/{old}/end", headers=auth).status_code == 200
    new = client.post(f"/api/v1/games/{old}/rematch", headers=auth)
    assert new.status_code == 201, new.text
    assert client.post(f"/api/v1/games/{old}/rematch", headers=auth).status_code == 409
    again = new.json()["game"]
    assert client.post(f"/api/v1/games/{again}/end", headers=auth).status_code == 200
    refused = client.post(f"/api/v1/games/{again}/rematch", headers=auth)
    _wait(refused)
    assert refused.json()["detail"].startswith("too many new games from your address: this server allows 2 an hour")
    assert _games(limited) == 2
