"""Helpers for the web tests: each role is its own client with its own cookie jar, as separate browsers."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from html import unescape
from typing import Any

from fastapi import FastAPI
from sqlalchemy import event

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


class FakeClock:
    """A clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def unset(html: str) -> str:
    """A page's HTML with the names people chose no longer set apart (their ``<bdi>`` and the
    title's isolates taken out), for tests about the words around them; test_web_names.py and
    test_browser_names.py check that every name is set apart."""
    return re.sub(r"</?bdi>|[\u2068\u2069]", "", html)


def on_screen(html: str) -> str:
    """A page's HTML as the screen shows it: the words said to screen readers instead of a short
    form (the templates' ``said`` macro, ``scores_said``) left out, and the short form unwrapped;
    test_browser_screen_reader.py checks what is said."""
    html = re.sub(r'<span class="visually-hidden"> [^<]*</span>', "", html)
    return re.sub(r'<span aria-hidden="true">([^<]*)</span>', r"\1", html)


def event_log(html: str) -> list[tuple[str, str]]:
    """The organiser page's event log, newest first: each line as (shown, heard). Shown is what the
    screen shows (its parts between dots, without the words said to screen readers only); heard is
    what a screen reader says (the punctuation said instead of the dots, and no dot).
    test_browser_screen_reader.py checks the same in Chromium's accessibility tree."""
    found = re.search(r'<ol class="events"[^>]*>(.*?)</ol>', html, re.S)
    assert found, "no event log on the page"

    def text(html: str) -> str:
        return unescape(re.sub(r"<[^>]+>", "", html))

    return [
        (
            text(re.sub(r'<span class="visually-hidden">.*?</span>', "", line)),
            text(re.sub(r'<span aria-hidden="true">.*?</span>', "", line)),
        )
        for line in re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S)
    ]


def log_shown(html: str) -> str:
    """The event log as shown, a line per event, newest first (:func:`event_log`)."""
    return "\n".join(shown for shown, _ in event_log(html))


def log_heard(html: str) -> str:
    """The event log as heard, a line per event, newest first (:func:`event_log`)."""
    return "\n".join(heard for _, heard in event_log(html))


def new_client(app: FastAPI) -> TestClient:
    return TestClient(app, follow_redirects=False)


def csrf(client: TestClient) -> str:
    """The client's CSRF token, read from a form of the front page as a browser has it (bound to
    the client's session once it has one; before, the value of the CSRF cookie it sets)."""
    found = re.search(r'name="csrf" value="([^"]+)"', client.get("/").text)
    assert found is not None
    return found.group(1)


def post_form(client: TestClient, url: str, data: dict[str, str] | None = None, *, token: bool = True):  # type: ignore[no-untyped-def]
    body = dict(data or {})
    if token:
        body["csrf"] = csrf(client)
    return client.post(url, data=body)


@dataclass
class Hosted:
    """A game hosted through the pages: the organiser's and players' clients, invites, teams."""

    app: FastAPI
    public_id: str
    organiser: TestClient
    organiser_link: str
    invites: dict[str, str]
    players: dict[str, TestClient] = field(default_factory=dict)

    @property
    def base(self) -> str:
        return f"/games/{self.public_id}"

    def join(self, player_id: str, name: str) -> TestClient:
        client = new_client(self.app)
        path = self.invites[player_id].split("testserver", 1)[1]
        response = post_form(client, path, {"name": name})
        assert response.status_code == 303, response.text
        self.players[player_id] = client
        return client

    def new_invite(self, player_id: str) -> str:
        """A new invite link for the seat (an invite opens its seat once): from its player, for
        another device, once the seat is taken; from the organiser before."""
        if player_id in self.players:
            response = post_form(self.players[player_id], f"{self.base}/device-link")
        else:
            response = post_form(self.organiser, f"{self.base}/seats/{player_id}/invite")
        assert response.status_code == 200, response.text
        link = re.search(r'id="invite-link">([^<]+)<', response.text)
        assert link is not None
        self.invites[player_id] = link.group(1)
        return link.group(1)

    def start(self) -> None:
        response = post_form(self.organiser, f"{self.base}/start")
        assert response.status_code == 303, response.text

    def resolve(self, *turns: int) -> None:
        """The organiser resolves these turns now, one after the other."""
        for turn in turns:
            response = post_form(self.organiser, f"{self.base}/resolve", {"turn": str(turn)})
            assert response.status_code == 303, response.text

    def my_teams(self, player_id: str) -> list[str]:
        """The player's teams in play this turn, read from their page's order forms."""
        page = self.players[player_id].get(f"{self.base}/play").text
        return re.findall(r'class="order-form"[^>]*data-team="([\w-]+)"', page)

    def turn(self) -> int:
        page = self.organiser.get(f"{self.base}/organise").text
        found = re.search(r'name="turn" value="(\d+)"', page)
        return int(found.group(1)) if found else 0

    def order(
        self, player_id: str, team: str, force: int, flair: int, action: str = "save", turn: int | None = None
    ):  # type: ignore[no-untyped-def]
        return post_form(
            self.players[player_id],
            f"{self.base}/orders",
            {
                "team": team,
                "turn": str(self.turn() if turn is None else turn),
                "force": str(force),
                "flair": str(flair),
                "action": action,
            },
        )


def host_game(
    app: FastAPI,
    *,
    arrangement: str = "4-8-2",
    hours: str = "24",
    visibility: str = "public",
    name: str = "Friday sevens",
    bot: str = "even",
    bot_weight: str = "",
    autopilot: str = "",
) -> Hosted:
    """A game created by the front page's form; ``autopilot``: its default autopilot menu's
    choice, left out of the form if empty (as a form from before that menu), so ``bot`` plays both."""
    organiser = new_client(app)
    response = post_form(
        organiser,
        "/games",
        {
            "name": name,
            "arrangement": arrangement,
            "deadline_hours": hours,
            "default_bot": bot,
            "default_bot_weight": bot_weight,
            "visibility": visibility,
            **({"default_autopilot": autopilot} if autopilot else {}),
        },
    )
    assert response.status_code == 201, response.text
    page = response.text
    organiser_link = re.search(r'id="organiser-link">([^<]+)<', page)
    invites = dict(re.findall(r'data-player="(p\d+)">.*?<code class="invite">([^<]+)<', page))
    public_id = re.search(r'href="/games/([\w-]+)/organise"', page)
    assert organiser_link and public_id and invites
    return Hosted(app, public_id.group(1), organiser, organiser_link.group(1), invites)


def every_seat_taken(app: FastAPI, *, name: str = "Friday sevens") -> Hosted:
    """A 4-player game without a deadline, its four seats taken (Ann, Ben, Cat, Dan) and started:
    every team has a player, so the bots never play the game out by themselves."""
    game = host_game(app, hours="0", name=name)
    for seat, player in (("p1", "Ann"), ("p2", "Ben"), ("p3", "Cat"), ("p4", "Dan")):
        game.join(seat, player)
    game.start()
    return game


@contextmanager
def statements_sent(app: FastAPI) -> Iterator[list[str]]:
    """Every SQL statement the app sends to its database meanwhile."""
    sent: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        sent.append(statement)

    engine = app.state.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", note)
