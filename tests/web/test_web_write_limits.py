"""Limits on what one client can write without end: new credentials by organiser link per address
(SEVENS_CREDENTIALS_PER_HOUR), organiser acts per game (SEVENS_ORGANISER_ACTS_PER_HOUR), on the
pages and the API alike, and a player's links for another device per seat (SEVENS_DEVICE_LINKS_PER_HOUR). The bursts against a real server are in tests/reliability/test_access.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from sevens.store.models import ApiPrincipal, EventRow, FailedAttempt, SeatRow
from sevens.web.app import create_app
from sevens.web.security import SESSION_COOKIE
from sevens.web.settings import Settings
from web.conftest import WebDb
from web.refused_forms import page_notice, refused_form
from web.web_helpers import Hosted, host_game, new_client, post_form


@pytest.fixture
def limited(app: FastAPI, web_db: WebDb) -> Iterator[FastAPI]:
    """An app on the test database (emptied by ``app``) that gives three new credentials per address
    and hour by organiser links, takes three organiser acts per game and hour, and makes three links
    for another device per seat and hour."""
    settings = Settings(
        database_url=web_db.url, scheduler=False, migrate=False, games_per_hour=0, credentials_per_hour=3,
        organiser_acts_per_hour=3, device_links_per_hour=3,
    )
    application = create_app(settings)
    yield application
    application.state.engine.dispose()


def _invites(app: FastAPI) -> list[tuple[str, str]]:
    """Each seat's invite as stored (its hash), by seat."""
    with app.state.sessionmaker() as db:
        return sorted((s.player_id, s.invite_hash) for s in db.scalars(select(SeatRow)))


def _count(app: FastAPI, table: type[ApiPrincipal] | type[EventRow] | type[FailedAttempt]) -> int:
    with app.state.sessionmaker() as db:
        return int(db.scalar(select(func.count()).select_from(table)) or 0)


def _refused(answer, words: str) -> None:  # type: ignore[no-untyped-def]
    assert answer.status_code == 429, answer.text
    assert 3000 < int(answer.headers["retry-after"]) <= 3600
    assert words in answer.text, answer.text


def test_organiser_links_give_a_few_new_credentials_an_hour(limited: FastAPI) -> None:
    """Browser sessions and bot tokens count together; past the limit the organiser link's page
    says so (429, its own HTML page) and the API in its JSON shape, nothing created; a browser or
    token that has a credential already organises as before, and another address is not held back."""
    game = host_game(limited)  # the organiser's browser has its session: not counted
    secret = game.organiser_link.rsplit("/", 1)[-1]
    assert post_form(game.organiser, f"/organiser/{secret}").status_code == 303
    for _ in range(2):
        assert post_form(new_client(limited), f"/organiser/{secret}").status_code == 303
    token = new_client(limited).post("/api/v1/organise", json={"link": secret})
    assert token.status_code == 200 and token.json()["token"], token.text
    before = _count(limited, ApiPrincipal)
    page = post_form(new_client(limited), f"/organiser/{secret}")
    _refused(page, "Too many new browser sessions from your address: this server gives 3 an hour to one address")
    assert page.headers["content-type"].startswith("text/html")
    assert page_notice(page.text).endswith("nothing was created, try again in 60 minutes.")
    assert "Organise this game from this browser</button>" in page.text  # its button, to press later
    assert SESSION_COOKIE not in page.headers.get("set-cookie", "")
    api = new_client(limited).post("/api/v1/organise", json={"link": secret})
    _refused(api, "too many new bot tokens from your address")
    assert list(api.json()) == ["detail"]
    assert _count(limited, ApiPrincipal) == before
    bearer = {"Authorization": f"Bearer {token.json()['token']}"}
    again = new_client(limited).post("/api/v1/organise", json={"link": secret}, headers=bearer)
    assert again.status_code == 200 and again.json()["token"] is None
    assert post_form(game.organiser, f"/organiser/{secret}").status_code == 303
    other = type(game.organiser)(limited, follow_redirects=False, client=("10.0.0.9", 50000))
    assert post_form(other, f"/organiser/{secret}").status_code == 303


def _act(game: Hosted, seat: str):  # type: ignore[no-untyped-def]
    # An act that can be repeated without moving the game on: a seat's new invite link.
    return post_form(game.organiser, f"{game.base}/seats/{seat}/invite")


def test_organiser_acts_on_a_game_are_limited(limited: FastAPI) -> None:
    """Pages and API count together, per game: past the limit the act is refused with 429 and
    adds nothing to the event log; an act the game refuses (a pause before the start) is not counted; another
    game's organiser is not held back, and the act that moves the game on (start) never is."""
    game = host_game(limited)
    assert post_form(game.organiser, f"{game.base}/pause").status_code == 409  # not done, so not counted
    assert [_act(game, seat).status_code for seat in ("p1", "p3")] == [200, 200]
    token = new_client(limited).post("/api/v1/organise", json={"link": game.organiser_link.rsplit("/", 1)[-1]})
    bearer = {"Authorization": f"Bearer {token.json()['token']}"}
    assert new_client(limited).post(f"/api/v1/games/{game.public_id}/pause", headers=bearer).status_code == 409
    assert new_client(limited).post(
        f"/api/v1/games/{game.public_id}/seats/p2/invite", headers=bearer
    ).status_code == 200
    events = _count(limited, EventRow)
    page = _act(game, "p1")
    _refused(page, "too many organiser acts on this game: this server allows 3 an hour on one game")
    _refused(page, "nothing was done")
    assert page.headers["content-type"].startswith("text/html")
    _refused(new_client(limited).post(f"/api/v1/games/{game.public_id}/seats/p2/invite", headers=bearer), "3 an hour")
    assert _count(limited, EventRow) == events
    other = host_game(limited)
    assert _act(other, "p1").status_code == 200
    assert post_form(game.organiser, f"{game.base}/start").status_code == 303


def test_an_organiser_act_past_the_limit_is_said_on_the_organiser_page(limited: FastAPI) -> None:
    """Past the limit each of the organiser page's repeatable acts brings that page back (429,
    Retry-After), not the general error page: a form with something typed in it (extend, set the
    deadline, a house bot) keeps it and says at the form what was refused and when to try again;
    a button says so at the top of the page, naming what was not done."""
    game = host_game(limited)
    game.join("p1", "Ann")
    game.start()
    house = next(t for t in re.findall(r'id="house-bot-([\w-]+)"', game.organiser.get(f"{game.base}/organise").text))
    for _ in range(3):
        assert _act(game, "p3").status_code == 200
    events = _count(limited, EventRow)
    for act, typed in (("extend", {"hours": "6"}), ("deadline", {"hours": "2"})):
        page = post_form(game.organiser, f"{game.base}/{act}", typed)
        _refused(page, "too many organiser acts on this game")
        form = refused_form(page.text, act)
        assert form.value("hours") == typed["hours"]
        said = " ".join(e.text for e in form.summary().all() if e.tag == "li")
        assert "too many organiser acts on this game" in said and "try again in 60 minutes" in said, said
    page = post_form(game.organiser, f"{game.base}/house-bot", {"team": house, "strategy": "group-blitz", "weight": ""})
    _refused(page, "3 an hour on one game")
    form = refused_form(page.text, f"house-bot-{house}")
    assert form.value("strategy") == "group-blitz"
    assert "try again in 60 minutes" in " ".join(e.text for e in form.summary().all()), page.text
    buttons = {
        "pause": "The deadline was not paused: too many organiser acts",
        "organiser-link": "No new organiser link was made: too many organiser acts",
        "seats/p3/invite": "No new link was made for seat 3: too many organiser acts",
        "seats/p1/release": "Seat 1 was not handed to the bots: too many organiser acts",
    }
    for path, note in buttons.items():
        page = post_form(game.organiser, f"{game.base}/{path}")
        _refused(page, "try again in 60 minutes")
        assert page_notice(page.text).startswith(note), (path, page_notice(page.text))
    signed = post_form(game.organiser, f"{game.base}/seats/p1/invite", {"sign_out": "yes"})
    _refused(signed, "try again")
    assert page_notice(signed.text).startswith("Seat 1 was not signed out and no new link was made: too many")
    assert _count(limited, EventRow) == events


def test_the_deadline_forms_past_the_limit_keep_a_clock_time_and_tell_a_mistyped_value_first(limited: FastAPI) -> None:
    """The clock-time form is limited as the hours forms are (429, the time kept in its box); and
    each deadline form reads what was typed before it counts the act: a mistyped value at the
    limit is told as mistyped (422, with what to type), not as a wait that would end in the same
    refusal an hour later."""
    game = host_game(limited)
    game.join("p1", "Ann")
    game.start()
    for _ in range(3):
        assert _act(game, "p3").status_code == 200
    at = (datetime.now(UTC) + timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M")
    page = post_form(game.organiser, f"{game.base}/deadline-at", {"at": at, "utc_offset": "0"})
    _refused(page, "too many organiser acts on this game")
    assert refused_form(page.text, "deadline-at").value("at") == at
    for act, typed, words in (
        ("extend", {"hours": "six"}, "extend by a number of hours, got 'six'"),
        ("deadline", {"hours": "1e3"}, "set the time left in hours, got '1e3'"),
        ("deadline-at", {"at": "tomorrow", "utc_offset": "0"}, "'tomorrow'"),
    ):
        page = post_form(game.organiser, f"{game.base}/{act}", typed)
        assert page.status_code == 422, (act, page.status_code)
        form = refused_form(page.text, act)
        said = " ".join(e.text for e in form.summary().all() if e.tag == "li")
        assert words in said and "too many" not in said, (act, said)


def _device_link(player: TestClient, game: Hosted):  # type: ignore[no-untyped-def]
    return post_form(player, f"{game.base}/device-link")


def test_a_seat_gets_a_few_links_for_another_device_an_hour(limited: FastAPI) -> None:
    """Each link for another device was a new invite and an event-log row, without end. Past the
    limit the player's own page says so at its top (429, Retry-After), nothing is written, and the
    last link made still works; another seat's player is not held back, from the same address."""
    game = host_game(limited)
    ann = game.join("p1", "Ann")
    bob = game.join("p2", "Bob")
    links = [_device_link(ann, game) for _ in range(3)]
    assert [page.status_code for page in links] == [200, 200, 200]
    last = re.search(r'id="invite-link">([^<]+)<', links[-1].text)
    assert last, links[-1].text[-400:]
    events, seats = _count(limited, EventRow), _invites(limited)
    page = _device_link(ann, game)
    _refused(page, "Too many links for another device for your seat: this server makes 3 an hour for one seat")
    assert page.headers["content-type"].startswith("text/html")
    notice = re.search(r'<div class="notice" id="notice"[^>]*><p>(.*?)</p>', page.text, re.S)
    assert notice and "no link was made, and the one you made last still works" in notice.group(1), page.text
    assert 'action="/games/' in page.text  # the player's own page, its forms there
    assert (_count(limited, EventRow), _invites(limited)) == (events, seats)
    phone = new_client(limited)
    assert post_form(phone, last.group(1).split("testserver", 1)[1], {"name": "Ann"}).status_code == 303
    assert phone.get(f"{game.base}/play").status_code == 200
    assert _device_link(bob, game).status_code == 200


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = Settings(database_url="sqlite://")
    assert (defaults.credentials_per_hour, defaults.organiser_acts_per_hour, defaults.device_links_per_hour) == (
        60, 120, 10
    )
    monkeypatch.setenv("SEVENS_CREDENTIALS_PER_HOUR", "0")
    monkeypatch.setenv("SEVENS_ORGANISER_ACTS_PER_HOUR", "7")
    monkeypatch.setenv("SEVENS_DEVICE_LINKS_PER_HOUR", "2")
    app = create_app(Settings(database_url="sqlite://", scheduler=False))
    assert app.state.credentials_limiter is None and app.state.organiser_acts_limiter.attempts == 7
    assert app.state.device_links_limiter.attempts == 2
    monkeypatch.setenv("SEVENS_ORGANISER_ACTS_PER_HOUR", "-1")
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        Settings(database_url="sqlite://")


def test_organiser_acts_are_counted_where_every_worker_sees_them(
    limited: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    """Pause and resume commit after the limit's block. The count every worker reads was written
    there, while the request still held SQLite's one write lock: it waited out the lock, was lost
    with a warning, and a page in the browser took seconds to come back. Now it is written once the
    request's session is closed: one row per act, and no warning."""
    game = host_game(limited)  # a deadline of 24 hours, so the clock can be paused
    game.join("p1", "Ann")  # a person to wait for: with bots alone the game plays out at the start
    game.start()
    with caplog.at_level("WARNING"):
        assert post_form(game.organiser, f"{game.base}/pause").status_code == 303
        assert post_form(game.organiser, f"{game.base}/resume").status_code == 303
    assert not [r for r in caplog.records if "could not count" in r.getMessage()], caplog.text
    assert _count(limited, FailedAttempt) == 2
