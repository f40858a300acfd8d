"""The organiser signs this browser out (Sign out of this browser) in one tab, the organiser page
still open in another, then presses one of that page's buttons: its security token is the ended
session's, so the form is refused and nothing is done. The answer was the plain 403 ("reload the
page and submit again"), whose reload refused too; it now says the browser was signed out, what
the button would have done and was not, and that the organiser link opens the page again, under
the same rules as a player's order sent so (tests/web/test_web_flow.py)."""

from __future__ import annotations

import html
import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from sevens.store import games as store
from sevens.store.models import GameRow
from sevens.web.security import SIGNED_OUT_COOKIE
from web.conftest import WebDb
from web.web_helpers import Hosted, host_game, new_client, post_form

HERE = {"Sec-Fetch-Site": "same-origin"}  # what a browser says of a form of the site's own page
SIGNED_OUT = "Not done: this browser was signed out"


def _shown(response) -> str:  # type: ignore[no-untyped-def]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", response.text)).split())


def _forms(page: str) -> dict[str, dict[str, str]]:
    """Each form of a page by its address (the first of two alike), with its hidden fields and
    what a person would fill in, as the browser sends them."""
    found: dict[str, dict[str, str]] = {}
    for action, body in re.findall(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', page, re.S):
        fields = {n: html.unescape(v) for n, v in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', body)}
        found.setdefault(action, {"hours": "2", "confirm": "yes", "strategy": "even", **fields})
    return found


def _sign_out(client: TestClient) -> None:
    """Sign out of this browser from another tab (the front page's button)."""
    front = client.get("/").text
    token = re.findall(r'id="sign-out".*?name="csrf" value="([^"]+)"', front, re.S)[0]
    assert client.post("/signout", data={"csrf": token}).status_code == 303
    assert client.cookies.get(SIGNED_OUT_COOKIE)


def _organise_again(game: Hosted) -> None:
    """Open the organiser link in this browser again: a new session, which organises the game."""
    assert post_form(game.organiser, game.organiser_link.split("testserver", 1)[1]).status_code == 303


def _stands(app: FastAPI, game: Hosted) -> tuple[str, int, int]:
    with app.state.sessionmaker() as db:
        row = store.game_by_public_id(db, public_id=game.public_id)
        return row.status.value, row.current_turn, len(store.house_teams(db, game=row))


@pytest.mark.parametrize("visibility", ["public", "private"])
def test_an_organiser_button_pressed_after_signing_out_in_another_tab_says_what_was_not_done(
    app: FastAPI, visibility: str
) -> None:
    game = host_game(app, visibility=visibility)
    for number in (1, 2):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    page = game.organiser.get(f"{game.base}/organise").text
    release = _forms(page)[f"{game.base}/seats/p2/release"]
    assert release["organises"]  # the page's proof that this browser organised the game
    before = _stands(app, game)
    _sign_out(game.organiser)
    answer = game.organiser.post(f"{game.base}/seats/p2/release", data=release, headers=HERE)
    assert answer.status_code == 403, answer.text
    said = _shown(answer)
    assert f"<h1>{SIGNED_OUT}</h1>" in answer.text, said
    assert "This browser was signed out (Sign out of this browser, perhaps in another tab or window) after this " \
           "page was loaded, so nothing was done in Friday sevens: seat 2 was not handed to the bots." in said, said
    assert "open your organiser link in this browser to organise it again" in said, said
    assert "security token" not in said
    # No secret on the page: neither link, nor the proof or token the form carried.
    for secret in (game.organiser_link, game.organiser_link.rsplit("/", 1)[1], release["organises"], release["csrf"]):
        assert secret not in answer.text
    # A private game's page opens nothing to a browser signed out: linked only when public.
    assert ('id="game-page"' in answer.text) == (visibility == "public")
    # Nothing was done: the seat is still played, the game where it was.
    assert game.players["p2"].get(f"{game.base}/play").status_code == 200
    assert _stands(app, game) == before

    # Without the page's proof the form is still this browser's, but a private game is not named.
    unproved = game.organiser.post(f"{game.base}/seats/p2/release", data={**release, "organises": ""}, headers=HERE)
    assert unproved.status_code == 403 and "seat 2 was not handed to the bots" in _shown(unproved)
    assert ("Friday sevens" in _shown(unproved)) == (visibility == "public"), _shown(unproved)
    # A browser that never organised, with the proof copied and a signed-out cookie and token made
    # up to match: the proof was made for the ended session's token, so the game is not named.
    stranger, made_up = new_client(app), "a-made-up-form-token-of-the-usual-length-xx"
    stranger.cookies.set(SIGNED_OUT_COOKIE, made_up)
    forged = stranger.post(f"{game.base}/seats/p2/release", data={**release, "csrf": made_up}, headers=HERE)
    assert forged.status_code == 403 and SIGNED_OUT in forged.text, _shown(forged)
    assert ("Friday sevens" in _shown(forged)) == (visibility == "public"), _shown(forged)

    # The CSRF check is as strict as before: another browser, a token not the ended session's, a
    # form the browser does not say it sent from this site's page: the plain 403.
    loaded = release["csrf"]
    for client, token, headers in ((new_client(app), loaded, HERE), (game.organiser, loaded[::-1], HERE),
                                   (game.organiser, loaded, {}), (game.organiser, loaded, {"Sec-Fetch-Site": "cross-site"})):
        refused = client.post(f"{game.base}/seats/p2/release", data={**release, "csrf": token}, headers=headers)
        assert refused.status_code == 403 and "security token is missing or stale" in refused.text, refused.text
        assert SIGNED_OUT not in refused.text and "Friday sevens" not in _shown(refused)
    # Signed in again since (the organiser link opened in another tab): the browser has a session,
    # so the page comes back as expired, as before, rather than saying it was signed out.
    _organise_again(game)
    again = game.organiser.post(f"{game.base}/seats/p2/release", data=release, headers=HERE)
    assert again.status_code == 403 and SIGNED_OUT not in again.text
    assert "This page had expired" in _shown(again)
    assert game.players["p2"].get(f"{game.base}/play").status_code == 200
    assert _stands(app, game) == before


def test_every_button_of_the_organiser_page_says_what_it_would_have_done(app: FastAPI) -> None:
    """Each form of the organiser page, in the lobby, a running game and one ended, sent after the
    browser signed out: the page names what was not done, and nothing is."""
    game = host_game(app, visibility="private")
    game.join("p1", "Ann")  # a name of its own, so that the ended game's page offers to remove it
    game.join("p2", "Ben")
    not_done = {
        "start": "the game was not started",
        "seats/p3/invite": "no new link was made for seat 3",
        "resolve": "turn 1 was not resolved",
        "pause": "the deadline was not paused",
        "extend": "the deadline was not moved",
        "deadline": "the deadline was not set",
        "seats/p1/invite": "seat 1 was not signed out and no new link was made",
        "seats/p2/release": "seat 2 was not handed to the bots",
        "house-bot": "the bot was not changed",
        "end": "the game was not ended",
        "organiser-link": "no new organiser link was made",
        "delete": "the game was not deleted",
        "rematch": "no rematch was created",
        "seats/p1/remove-name": "no name was removed",
    }
    sent: set[str] = set()

    def press_all() -> None:
        forms = _forms(game.organiser.get(f"{game.base}/organise").text)
        before = _stands(app, game)
        _sign_out(game.organiser)
        for action, fields in forms.items():
            act = action.removeprefix(f"{game.base}/")
            answer = game.organiser.post(action, data=fields, headers=HERE)
            said = _shown(answer)
            assert answer.status_code == 403 and SIGNED_OUT in answer.text, (act, said)
            if act in not_done:
                assert f"so nothing was done in Friday sevens: {not_done[act]}." in said, (act, said)
                sent.add(act)
        assert _stands(app, game) == before
        for number in (1, 2):
            assert game.players[f"p{number}"].get(f"{game.base}/play").status_code == 200
        _organise_again(game)

    press_all()  # the lobby
    game.start()
    press_all()  # running
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    press_all()  # ended
    assert sent == set(not_done)
    # The organiser link still opens the page, where the game is as it was left.
    assert game.organiser.get(f"{game.base}/organise").status_code == 200


@pytest.mark.parametrize("visibility", ["public", "private"])
def test_what_was_typed_in_an_organiser_form_sent_after_signing_out_is_repeated_escaped(
    app: FastAPI, visibility: str
) -> None:
    """The page said the deadline was not moved, or the bot not changed, but not the hours or the
    bot the organiser had typed or chosen, which reloading the page (it opens nothing now) loses:
    it repeats them, escaped, as the player's page repeats an order sent so. Never the form's
    token or proof, nor either link."""
    game = host_game(app, visibility=visibility)
    game.join("p1", "Ann")
    game.start()
    forms = _forms(game.organiser.get(f"{game.base}/organise").text)
    _sign_out(game.organiser)
    sent = {
        "extend": ({**forms[f"{game.base}/extend"], "hours": "7.5"}, "the deadline was not moved", "7.5 hours"),
        "deadline": ({**forms[f"{game.base}/deadline"], "hours": " 3 "}, "the deadline was not set", "3 hours"),
        "house-bot": ({**forms[f"{game.base}/house-bot"], "strategy": "even-flair", "weight": "<b>1.5</b>"},
                      "the bot was not changed", "bot even-flair, knockout weight <b>1.5</b>"),
    }
    for act, (fields, not_done, typed) in sent.items():
        answer = game.organiser.post(f"{game.base}/{act}", data=fields, headers=HERE)
        said = _shown(answer)
        assert answer.status_code == 403 and SIGNED_OUT in answer.text, (act, said)
        assert f"{not_done}." in said, (act, said)
        assert f"What you had typed, for your own note: {typed}." in said, (act, said)
        assert "<b>1.5" not in answer.text  # escaped, as text
        for secret in (game.organiser_link, game.organiser_link.rsplit("/", 1)[1], fields["organises"], fields["csrf"]):
            assert secret not in answer.text, act
    # A form with nothing typed (the hours box emptied) says nothing of it.
    empty = game.organiser.post(f"{game.base}/extend", data={**forms[f"{game.base}/extend"], "hours": ""}, headers=HERE)
    assert empty.status_code == 403 and "the deadline was not moved" in _shown(empty)
    assert "What you had typed" not in _shown(empty)


@pytest.mark.parametrize("visibility", ["public", "private"])
def test_the_damaged_record_pages_delete_form_carries_the_proof_so_its_signed_out_answer_names_the_game(
    app: FastAPI, web_db: WebDb, visibility: str
) -> None:
    """The error page of a game whose record no longer replays offers its organiser *Delete this
    game*; that form alone of the organiser's 15 had no ``organises`` proof, so sent after this
    browser signed out, its answer named no private game ("nothing was done: the game was not
    deleted"). It carries the proof now, and the answer names the game as the others' do."""
    game = host_game(app, hours="0", visibility=visibility)
    for seat, player in (("p1", "Ann"), ("p2", "Ben"), ("p3", "Cat"), ("p4", "Dan")):
        game.join(seat, player)
    game.start()
    game.resolve(1)
    with Session(web_db.engine) as db:
        row = db.scalars(select(GameRow).where(GameRow.public_id == game.public_id)).one()
        assert row.record_json is not None
        row.record_json = row.record_json[: len(row.record_json) // 2]
        db.commit()
    quiet = TestClient(app, raise_server_exceptions=False, cookies=game.organiser.cookies, follow_redirects=False)
    page = quiet.get(f"{game.base}/organise")
    assert page.status_code == 500 and "record is damaged" in page.text and 'id="delete"' in page.text, page.text
    delete = _forms(page.text)[f"{game.base}/delete"]
    assert delete["organises"], delete  # the proof, as on the organiser page's own forms
    _sign_out(game.organiser)
    answer = game.organiser.post(f"{game.base}/delete", data=delete, headers=HERE)
    said = _shown(answer)
    assert answer.status_code == 403 and SIGNED_OUT in answer.text, said
    assert "so nothing was done in Friday sevens: the game was not deleted." in said, said
    assert delete["organises"] not in answer.text and delete["csrf"] not in answer.text
    with Session(web_db.engine) as db:  # nothing was done
        assert db.scalars(select(GameRow).where(GameRow.public_id == game.public_id)).one_or_none() is not None
