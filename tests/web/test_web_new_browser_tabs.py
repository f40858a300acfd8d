"""Two tabs of a browser that has no session yet, each pressing Join on an invite of one game
before the other's answer (which brings the session cookie) has come back: both send the CSRF
cookie the invite pages set, and nothing else. Before, each join made a session of its own and took
its seat, and the browser kept whichever cookie came last: the other seat counted as taken by
nobody who could open it. On SQLite and PostgreSQL; tests/reliability/test_lobby_races.py sends
them at the very same moment to two servers."""

from __future__ import annotations

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from sevens.store.models import SeatRow
from web.web_helpers import FakeClock, Hosted, csrf, host_game, new_client


def _tabs(app: FastAPI) -> tuple[TestClient, TestClient, str]:
    """Two tabs of one new browser: the same CSRF cookie, no session."""
    first = new_client(app)
    token = csrf(first)  # the front page sets the browser's CSRF cookie
    second = new_client(app)
    second.cookies = httpx.Cookies(first.cookies)
    return first, second, token


def _taken(app: FastAPI, game: Hosted) -> list[str]:
    with app.state.sessionmaker() as db:
        seats = db.scalars(select(SeatRow).where(SeatRow.invite_used_at.is_not(None)))
        return sorted(s.player_id for s in seats)


def _path(game: Hosted, seat: str) -> str:
    return game.invites[seat].split("testserver", 1)[1]


def test_a_new_browsers_second_tab_takes_no_second_seat(app: FastAPI) -> None:
    game = host_game(app)
    first, second, token = _tabs(app)
    joined = first.post(_path(game, "p1"), data={"name": "Ann", "csrf": token})
    assert joined.status_code == 303, joined.text
    # The second tab's join left before the first answer's cookie came: it has none.
    refused = second.post(_path(game, "p2"), data={"name": "Ann two", "csrf": token})
    assert refused.status_code == 409, refused.text
    assert "this browser already plays seat 1 of " in refused.text  # its number, as the sheet of invites says
    assert _taken(app, game) == ["p1"]
    # The second invite stays open for its own player, in another browser.
    assert game.join("p2", "Ben").get(f"{game.base}/play").status_code == 200


def test_a_new_browser_joining_one_invite_in_two_tabs_opens_its_seat_in_both(app: FastAPI) -> None:
    """The same invite in two tabs: the second join was told the invite was used "by someone else",
    its own browser; it is sent on to the seat, which its cookie from the first answer opens."""
    game = host_game(app)
    first, second, token = _tabs(app)
    assert first.post(_path(game, "p1"), data={"name": "Ann", "csrf": token}).status_code == 303
    again = second.post(_path(game, "p1"), data={"name": "Ann", "csrf": token})
    assert again.status_code == 303, again.text
    assert again.headers["location"] == f"{game.base}/play"


def test_another_browser_and_a_later_one_are_not_taken_for_the_first(app: FastAPI, clock: FakeClock) -> None:
    """Only the browser's own tabs are tied: another new browser joins as ever, and so does this
    one's form token once the minutes in which its tabs' joins come are over."""
    game = host_game(app)
    first, _, token = _tabs(app)
    assert first.post(_path(game, "p1"), data={"name": "Ann", "csrf": token}).status_code == 303
    other = new_client(app)
    assert other.post(_path(game, "p2"), data={"name": "Ben", "csrf": csrf(other)}).status_code == 303
    clock.advance(minutes=11)
    late = new_client(app)
    late.cookies = httpx.Cookies(first.cookies)
    late.cookies.delete("sevens_session")
    assert late.post(_path(game, "p3"), data={"name": "Cat", "csrf": token}).status_code == 303
    assert _taken(app, game) == ["p1", "p2", "p3"]
