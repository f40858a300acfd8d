"""An order form sent after its game was deleted: the browser that held the seat is told the game
was deleted, and shown what it had typed, not the page of an address that never existed; anyone
else gets that page, word for word (a private game's existence stays untold)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from markupsafe import escape

from sevens.store import games as store
from sevens.web.scheduler import Keeping, tidy
from sevens.web.security import SESSION_COOKIE
from sevens.web.views import bdi
from web.web_helpers import FakeClock, Hosted, csrf, host_game, new_client, post_form


def _name_of(page: str, team: str) -> str:
    """The team's name as the player's page shows it at its order form."""
    found = re.search(rf'id="order-{team}"[^>]*data-name="([^"]*)"', page)
    assert found is not None, team
    return html.unescape(found.group(1))


def _form_of(page: str, team: str) -> dict[str, str]:
    """The hidden fields of the team's order form, as the browser sends them."""
    form = re.search(rf'<form[^>]*id="order-{team}".*?</form>', page, re.S)
    assert form is not None, team
    fields = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0))
    return {field: html.unescape(value) for field, value in fields}


def _started(app: FastAPI, name: str, visibility: str = "public") -> tuple[Hosted, TestClient]:
    """A started game of four seats, Ann's browser at p1."""
    game = host_game(app, name=name, visibility=visibility)
    player = game.join("p1", "Ann")
    for seat in ("p2", "p3", "p4"):
        game.join(seat, f"Player {seat}")
    game.start()
    return game, player


@contextmanager
def _deleting_games_over_after(app: FastAPI, days: int) -> Iterator[None]:
    """The server as if SEVENS_DELETE_GAMES_OVER_DAYS were ``days``."""
    kept = app.state.settings
    app.state.settings = kept.model_copy(update={"delete_games_over_days": days})
    try:
        yield
    finally:
        app.state.settings = kept  # the app serves the whole session's tests


@pytest.mark.parametrize("visibility", ["public", "private"])
def test_an_order_sent_after_delete_game_says_so_with_what_was_typed(app: FastAPI, visibility: str) -> None:
    game, player = _started(app, "Gone cup", visibility)
    team = game.my_teams("p1")[0]
    page = player.get(f"{game.base}/play").text
    sent = {**_form_of(page, team), "force": "30", "flair": "12", "action": "ready"}
    assert sent["seat"]
    deleted = post_form(game.organiser, f"{game.base}/delete", {"confirm": "yes"})
    assert deleted.status_code in (200, 303), deleted.text

    answer = player.post(f"{game.base}/orders", data=sent)
    assert answer.status_code == 404, answer.text
    assert "This game was deleted by its organiser before your order arrived: it was not saved" in answer.text
    # The team named as its page named it (the form carries the name, signed), not by its id.
    name = _name_of(page, team)
    assert name != team
    assert f"30 FORCE + 12 FLAIR</strong> for team {bdi(name)}, turn 1." in answer.text
    assert "Gone cup" not in answer.text  # nothing of the game but what the browser sent
    # A box left empty is said so, as the other 'not saved' pages say it, not printed as nothing.
    blank = player.post(f"{game.base}/orders", data={**sent, "flair": " "})
    assert f"30 FORCE + (left empty) FLAIR</strong> for team {bdi(name)}, turn 1." in blank.text, blank.text

    # Another browser, even with the form's fields copied, learns nothing: the page of no game.
    stranger = new_client(app)
    copied = stranger.post(f"{game.base}/orders", data={**sent, "csrf": csrf(stranger)})
    plain = stranger.post("/games/NoSuchGame1/orders", data={**sent, "csrf": csrf(stranger)})
    assert copied.status_code == plain.status_code == 404
    assert escape(store.no_such_game(game.public_id)) in copied.text
    assert copied.text.replace(game.public_id, "NoSuchGame1") == plain.text
    # The seat's browser with a form made without the mark (or for another game) is not believed either,
    # nor with a team name or team of its own making: the page prints only the name its form was made with.
    for forged in ({"seat": ""}, {"team_name": "Click <a>here</a>"}, {"team_name": ""}, {"team": team + "x"}):
        assert "was deleted" not in player.post(f"{game.base}/orders", data={**sent, **forged}).text, forged


def _mark_from_own_cookie(client: TestClient, public_id: str) -> str:
    """The seat mark a browser's user could work out from the cookie in their own browser, were it
    keyed with that cookie alone (anyone can read their own cookies in the browser's tools)."""
    session = next(cookie.value for cookie in client.cookies.jar if cookie.name == SESSION_COOKIE)
    digest = hmac.new(session.encode(), f"sevens seat form {public_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def test_the_seat_mark_cannot_be_made_by_the_browser_to_learn_whether_a_private_game_exists(app: FastAPI) -> None:
    """A user with a session of their own (a seat in some other game) who makes the mark for an
    address from their own cookie learns nothing: were it keyed with the cookie alone, an address
    of no game answered "deleted" and a private game's address "no such game", telling them apart."""
    elsewhere = host_game(app, name="Other cup")
    user = elsewhere.join("p1", "Eve")
    private = host_game(app, name="Secret cup", visibility="private")
    sent = {"team": "fiji", "turn": "1", "force": "30", "flair": "12", "action": "save"}
    answers = []
    for public_id in (private.public_id, "NoSuchGame1"):
        made = {**sent, "seat": _mark_from_own_cookie(user, public_id), "csrf": csrf(user)}
        answer = user.post(f"/games/{public_id}/orders", data=made)
        assert answer.status_code == 404, answer.text
        answers.append(answer.text.replace(public_id, "ID"))
    assert "was deleted" not in answers[1]
    assert answers[0] == answers[1]


def test_the_seat_mark_of_one_game_is_not_believed_for_another(app: FastAPI) -> None:
    """A browser playing in two games: the mark on one game's order form, sent for the other once
    that one is deleted, is not that game's, so the answer is the page of no game."""
    kept, player = _started(app, "Kept cup")
    gone = host_game(app, name="Gone cup", visibility="private")
    joined = post_form(player, gone.invites["p1"].split("testserver", 1)[1], {"name": "Ann"})
    assert joined.status_code == 303, joined.text
    sent = {**_form_of(player.get(f"{kept.base}/play").text, kept.my_teams("p1")[0]), "force": "30", "flair": "12"}
    assert post_form(gone.organiser, f"{gone.base}/delete", {"confirm": "yes"}).status_code in (200, 303)

    answer = player.post(f"{gone.base}/orders", data=sent)
    assert answer.status_code == 404 and "was deleted" not in answer.text
    assert escape(store.no_such_game(gone.public_id)) in answer.text


def test_an_order_sent_after_the_tidy_deleted_the_game_does_not_blame_the_organiser(
    app: FastAPI, clock: FakeClock
) -> None:
    """On a server that deletes games over for 30 days (SEVENS_DELETE_GAMES_OVER_DAYS), an order
    form left open while the game ended and then went with the tidy is not told its organiser
    deleted it; one whose page is younger than that is (the tidy cannot have deleted it yet)."""
    with _deleting_games_over_after(app, 30):
        _tidied_and_deleted(app, clock)


def _tidied_and_deleted(app: FastAPI, clock: FakeClock) -> None:
    game, player = _started(app, "Old cup")
    team = game.my_teams("p1")[0]
    sent = {**_form_of(player.get(f"{game.base}/play").text, team), "force": "3", "flair": "0", "action": "save"}
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    clock.advance(days=31)
    assert tidy(app.state.sessionmaker, now=clock(), keeping=Keeping(unused_bot_days=60, games_over_days=30)) >= 1

    answer = player.post(f"{game.base}/orders", data=sent)
    assert answer.status_code == 404, answer.text
    assert "deleted by its organiser before" not in answer.text
    assert (
        "This game was deleted by its organiser, or by this server (it deletes a game 30 days after it is over, "
        "and the page of this form was made on 2026-05-01, long enough ago) before your order arrived"
    ) in answer.text

    # A form of a page made less than 30 days before: only its organiser can have deleted it.
    fresh, fresh_player = _started(app, "New cup")
    team = fresh.my_teams("p1")[0]
    sent = {**_form_of(fresh_player.get(f"{fresh.base}/play").text, team), "force": "3", "flair": "0"}
    clock.advance(days=29)
    assert post_form(fresh.organiser, f"{fresh.base}/delete", {"confirm": "yes"}).status_code in (200, 303)
    answer = fresh_player.post(f"{fresh.base}/orders", data=sent)
    assert "This game was deleted by its organiser before your order arrived" in answer.text


@pytest.mark.parametrize("shown", ["\u00b2", "\u0661\u0662", "1_0", " 1", "-1"])
def test_a_seat_mark_with_a_time_not_in_ascii_digits_is_the_page_of_no_game(app: FastAPI, shown: str) -> None:
    """The time before the mark's dot is the server's own Unix seconds in ASCII digits: a superscript
    two (a digit to str.isdigit, not to int) was a server error, and Arabic-Indic digits a second
    spelling of the same mark. Either is answered as a mark that is not believed: the page of no game."""
    elsewhere = host_game(app, name="Other cup")
    user = elsewhere.join("p1", "Eve")
    sent = {"team": "fiji", "team_name": "Fiji", "turn": "1", "force": "30", "flair": "12", "action": "save"}
    answer = user.post("/games/NoSuchGame1/orders", data={**sent, "seat": f"{shown}.abc", "csrf": csrf(user)})
    assert answer.status_code == 404, answer.text
    assert escape(store.no_such_game("NoSuchGame1")) in answer.text


def test_a_server_that_deletes_games_a_day_after_says_one_day(app: FastAPI, clock: FakeClock) -> None:
    """SEVENS_DELETE_GAMES_OVER_DAYS=1: the answer to a form left open says "1 day", not "1 days"."""
    with _deleting_games_over_after(app, 1):
        game, player = _started(app, "Short cup")
        team = game.my_teams("p1")[0]
        sent = {**_form_of(player.get(f"{game.base}/play").text, team), "force": "3", "flair": "0"}
        assert post_form(game.organiser, f"{game.base}/end").status_code == 303
        clock.advance(days=2)
        assert tidy(app.state.sessionmaker, now=clock(), keeping=Keeping(unused_bot_days=60, games_over_days=1)) >= 1
        answer = player.post(f"{game.base}/orders", data=sent)
    assert answer.status_code == 404, answer.text
    assert "(it deletes a game 1 day after it is over, and the page of this form was made on " in answer.text
