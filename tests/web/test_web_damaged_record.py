"""A game whose stored record no longer replays (changed in the database, or imported from a backup
edited by hand): every page of the game says so in the site's look, with what its organiser can do,
instead of a bare "Internal Server Error"; the record as stored can still be downloaded, the Verify
page says where it fails, and the organiser can still delete the game. On SQLite and PostgreSQL."""

from __future__ import annotations

import html
import json
import logging
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from sevens.store.models import GameRow
from sevens.web.scheduler import resolve_due
from web.conftest import WebDb
from web.web_helpers import FakeClock, Hosted, every_seat_taken, host_game, new_client, post_form


def _truncated(text: str) -> str:
    return text[: len(text) // 2]


def _edited(text: str) -> str:
    record = json.loads(text)
    order = record["turns"][0]["matches"][0]["home_order"]
    order["force"], order["flair"] = order["flair"], order["force"] + 1  # not what was played
    return json.dumps(record)


def _damage(web_db: WebDb, game: Hosted, how: Callable[[str], str]) -> str:
    with Session(web_db.engine) as db:
        row = db.scalars(select(GameRow).where(GameRow.public_id == game.public_id)).one()
        assert row.record_json is not None
        row.record_json = how(row.record_json)
        db.commit()
        return row.record_json


def _text(page: Any) -> str:
    return " ".join(html.unescape(page.text).split())


@pytest.mark.parametrize("how", [_truncated, _edited], ids=["truncated", "edited"])
def test_every_page_of_a_game_with_a_damaged_record_says_so_and_what_to_do(
    app: FastAPI, web_db: WebDb, how: Callable[[str], str], caplog: pytest.LogCaptureFixture
) -> None:
    game = every_seat_taken(app)
    game.resolve(1)
    stored = _damage(web_db, game, how)
    stranger = new_client(app)
    seen = {
        "organiser": (game.organiser, ["", "?screen=1", "/organise", "/standing.csv", "/matches.csv"]),
        "player": (game.players["p1"], ["", "/play", "/standing.csv"]),
        "stranger": (stranger, ["", "?screen=1", "/matches.csv", "/teams/fiji"]),
    }
    caplog.set_level(logging.INFO, logger="sevens")
    for who, (client, paths) in seen.items():
        quiet = TestClient(app, raise_server_exceptions=False, cookies=client.cookies, follow_redirects=False)
        for path in paths:
            page = quiet.get(game.base + path)
            where = f"{who} {path or '/'}"
            assert page.status_code == 500, where
            assert page.headers["content-type"].startswith("text/html"), where
            text = _text(page)
            assert '<html lang="en">' in text and "<title>This game's record is damaged · Sevens</title>" in text, where
            assert "the record this server keeps of this game is damaged: it no longer replays (" in text, where
            assert f'<a href="{game.base}/record.json" id="stored-record">' in text, where
            assert f'<a href="{game.base}/verify" id="verify-page">' in text, where
            assert '<a href="/">home</a>' in text and "Traceback" not in text, where
            assert ('id="delete"' in text) == (path == "/organise"), where
        api = quiet.get(f"/api/v1/games/{game.public_id}")
        assert api.status_code == 500, who
        detail = api.json()["detail"]
        assert detail.startswith("the record this server keeps of this game is damaged: it no longer replays ("), detail
        assert f"download the record as it is stored from {game.base}/record.json" in detail, detail
        # What the organiser is sent to: the record as stored, and the Verify page saying where it fails.
        download = quiet.get(f"{game.base}/record.json")
        assert download.status_code == 200 and download.text == stored, who
        saved_as = download.headers["content-disposition"]
        assert saved_as.startswith("attachment; filename=\"sevens-") and "-record-damaged-" in saved_as, saved_as
        verify = quiet.get(f"{game.base}/verify")
        assert verify.status_code == 200, who
        assert re.search(r'id="verify-failed">Verification failed: the record this server keeps of this game is '
                         r"damaged: it no longer replays \(", _text(verify)), who
    # The operator hears of it once, in a line without a traceback, not at every request.
    said = [r for r in caplog.records if r.name.startswith("sevens") and r.levelno >= logging.ERROR]
    assert len(said) == 1 and said[0].exc_info is None, [r.getMessage() for r in said]
    assert said[0].getMessage().startswith(
        f"game {game.public_id}: its stored record is damaged and no longer replays (its Verify page says where); "
        "its pages say so"
    ), said[0].getMessage()
    # The organiser's way out: the Delete form on their page still works.
    gone = post_form(game.organiser, f"{game.base}/delete", {"confirm": "yes"})
    assert gone.status_code == 200 and "deleted" in gone.text.lower()
    assert stranger.get(game.base).status_code == 404


def test_the_addresses_the_pages_script_polls_say_the_record_is_damaged_in_json(app: FastAPI, web_db: WebDb) -> None:
    """A page left open while its game's record was damaged polls ``/state`` (and a player's page
    ``/who-ordered``): they answered the HTML error page, which the script could only drop, so the
    page went on looking up to date. Now JSON, whose detail the script shows."""
    game = every_seat_taken(app)
    game.resolve(1)
    _damage(web_db, game, _truncated)
    organiser, player = (
        TestClient(app, raise_server_exceptions=False, cookies=c.cookies) for c in (game.organiser, game.players["p1"])
    )
    # (A spectator's /state reads no record: it still answers where the game stands.)
    for client, path in [(organiser, "/state"), (player, "/state?as=player"), (player, "/who-ordered?turn=2")]:
        answer = client.get(game.base + path)
        assert answer.status_code == 500, path
        assert answer.headers["content-type"] == "application/json", path
        detail = answer.json()["detail"]
        assert detail.startswith("the record this server keeps of this game is damaged: it no longer replays ("), detail
        assert "nothing of this game can be shown or played until it is repaired" in detail, detail
        assert f"{game.base}/verify" in detail and "<" not in detail, detail


def test_the_scheduler_says_a_damaged_record_once_without_a_traceback(
    app: FastAPI, web_db: WebDb, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """Met at a deadline, such a record was a traceback in the log (said once): the record was
    changed outside sevens, which no traceback explains. Now one line, with what to do."""
    game = host_game(app)
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    _damage(web_db, game, _truncated)
    failed: set[tuple[int, int]] = set()
    with caplog.at_level(logging.INFO, logger="sevens.web.scheduler"):
        for _ in range(3):
            assert resolve_due(app.state.sessionmaker, now=clock() + timedelta(hours=25), failed=failed) == 0
    lines = [r for r in caplog.records if r.name == "sevens.web.scheduler"]
    assert [(r.levelno, r.exc_info) for r in lines] == [(logging.ERROR, None)], [r.getMessage() for r in lines]
    assert lines[0].getMessage().startswith(
        f"game {game.public_id}: turn 1 cannot be resolved at its deadline: its stored record is damaged"
    ), lines[0].getMessage()


def test_a_players_front_page_lists_a_damaged_game_among_their_others(app: FastAPI, web_db: WebDb) -> None:
    """The front page counted each of the player's games' orders not ready by replaying its record:
    one damaged game made the page a 500 naming no game, whose "go home" link led back to it, so
    the player reached none of their other games."""
    other = every_seat_taken(app, name="Saturday sevens")
    game = host_game(app, hours="0")
    ann = other.players["p1"]
    taken = post_form(ann, game.invites["p1"].split("testserver", 1)[1], {"name": "Ann"})
    assert taken.status_code == 303, taken.text
    game.players["p1"] = ann
    for seat, player in (("p2", "Ben"), ("p3", "Cat"), ("p4", "Dan")):
        game.join(seat, player)
    game.start()
    game.resolve(1)
    _damage(web_db, game, _truncated)
    home = ann.get("/")
    assert home.status_code == 200
    lines = {line.split('">', 1)[0]: line for line in _text(home).split('<li><a href="')[1:]}
    assert "its stored record is damaged: its page says what to do" in lines[f"{game.base}/play"]
    assert "damaged" not in lines[f"{other.base}/play"] and "of your orders not ready" in lines[f"{other.base}/play"]


def _said_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("sevens") and r.levelno >= logging.ERROR]


def test_the_damaged_games_said_once_are_forgotten_when_deleted_and_kept_to_a_bound(
    app: FastAPI, web_db: WebDb, caplog: pytest.LogCaptureFixture
) -> None:
    """Each damaged game's id was kept for the server's life, so that its damage was said once:
    deleted games' too, without end."""
    said = app.state.damaged_said
    said.most = 2
    games = [every_seat_taken(app) for _ in range(3)]
    for game in games:
        game.resolve(1)
        _damage(web_db, game, _truncated)
    caplog.set_level(logging.INFO, logger="sevens")

    def visit(game: Hosted) -> None:
        quiet = TestClient(app, raise_server_exceptions=False, cookies=game.organiser.cookies, follow_redirects=False)
        assert quiet.get(game.base).status_code == 500

    first, second, third = games
    for game in (first, second, first):
        visit(game)
    assert len(_said_lines(caplog)) == 2 and len(said) == 2  # the first said once, not at its second visit
    # Deleted, a game is forgotten: its id is never met again.
    gone = post_form(first.organiser, f"{first.base}/delete", {"confirm": "yes"})
    assert gone.status_code == 200
    assert len(said) == 1
    # Past the bound the least recently met is forgotten, and said again if met again.
    said.most = 1
    visit(third)
    visit(second)
    lines = _said_lines(caplog)
    assert len(lines) == 4 and len(said) == 1
    assert lines[-1].startswith(f"game {second.public_id}: its stored record is damaged"), lines[-1]
