"""The pages: create, invite, join, start, order, resolve, download and verify a whole game."""

from __future__ import annotations

import html
import json
import re
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast
from unittest.mock import ANY

import pytest
import typer
from fastapi import FastAPI
from sqlalchemy import func, select
from typer.testing import CliRunner

from sevens.cli.verify import register as register_verify
from sevens.rules.lines import Line
from sevens.store import games as store
from sevens.store.models import GameRow, OrderLogRow, TeamRow
from sevens.tournament.formats import Format
from sevens.tournament.standings import DECIDED_BY_WORDS, GroupResult, group_table
from sevens.tournament.verify import verify_record
from sevens.web.scheduler import resolve_due
from sevens.web.security import CSP, CSRF_COOKIE, SESSION_COOKIE, SIGNED_OUT_COOKIE
from web.web_helpers import (
    FakeClock,
    Hosted,
    csrf,
    host_game,
    log_heard,
    log_shown,
    new_client,
    on_screen,
    post_form,
    unset,
)


def test_security_headers_and_cookie_flags(app: FastAPI) -> None:
    """Every page carries a Content-Security-Policy; cookies are HttpOnly and SameSite."""
    client = new_client(app)
    response = client.get("/")
    assert response.headers["content-security-policy"] == CSP
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP
    assert response.headers["referrer-policy"] == "no-referrer"
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    game = host_game(app)
    assert game.organiser.cookies.get("sevens_session")
    page = game.organiser.get(f"{game.base}/organise")
    assert page.status_code == 200 and "Start the game" in page.text


def test_an_unhandled_exception_is_a_page_with_a_reference_that_its_one_log_line_has(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug on any path answered a bare "Internal Server Error" in plain text (no title, no
    language, no way back), and the server logged a traceback nothing tied to what the user saw.
    Now: a page in the site's look (JSON under /api/) with every security header, nothing of the
    exception, a way back (the game's page under /games/{id}/, home) and a short reference, which
    the one ERROR line with the traceback also holds; the exception goes no further (the server
    would log it again)."""
    import logging

    from fastapi.testclient import TestClient

    from sevens.web.app import create_app
    from sevens.web.settings import Settings

    def crash() -> None:
        raise RuntimeError("a secret detail of the bug")

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'crash.sqlite3'}", scheduler=False))
    app.add_api_route("/games/{public_id}/crash-for-test", crash)
    app.add_api_route("/api/v1/crash-for-test", crash)
    client = TestClient(app)  # raises what reaches the server: nothing does
    headers = {
        "content-security-policy": CSP,
        "x-frame-options": "DENY",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-resource-policy": "same-origin",
    }
    caplog.set_level(logging.DEBUG)
    secret = "s3cretLink" * 3
    page = client.get(f"/games/{secret}/crash-for-test")
    api = client.get("/api/v1/crash-for-test")
    head = client.head(f"/games/{secret}/crash-for-test")
    for answer in (page, api, head):
        assert answer.status_code == 500
        assert {name: answer.headers.get(name) for name in headers} == headers
        assert "secret detail" not in answer.text and "Traceback" not in answer.text
    assert page.headers["content-type"] == "text/html; charset=utf-8" and head.content == b""
    assert '<html lang="en">' in page.text and "<title>Something went wrong · Sevens</title>" in page.text
    assert f'<a href="/games/{secret}" id="game-page">' in page.text and '<a href="/">home</a>' in page.text
    shown = re.search(r'<strong id="reference">([0-9a-f]{8})</strong>', page.text)
    detail = api.json()["detail"]
    said = re.search(r"reference ([0-9a-f]{8})", detail)
    assert shown and said and shown.group(1) != said.group(1), (page.text, detail)
    assert "try again" in detail and "secret detail" not in detail
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [(r.name, r.getMessage()) for r in errors] == [
        ("sevens.web", f"GET /games/{{public_id}}/crash-for-test failed with an unexpected RuntimeError (reference "
         f"{shown.group(1)}): answered 500"),
        ("sevens.web", f"GET /api/v1/crash-for-test failed with an unexpected RuntimeError (reference {said.group(1)}): "
         "answered 500"),
        ("sevens.web", errors[2].getMessage()),  # HEAD, answered as GET: a reference of its own
    ], [r.getMessage() for r in errors]
    assert re.fullmatch(
        r"GET /games/\{public_id\}/crash-for-test failed with an unexpected RuntimeError \(reference [0-9a-f]{8}\): "
        r"answered 500", errors[2].getMessage()
    )
    assert all(r.exc_info and r.exc_info[0] is RuntimeError for r in errors)
    # The route's pattern, never the address (httpx, the test's client, logs its own requests).
    assert not [r for r in caplog.records if r.name.startswith("sevens") and secret in caplog.handler.format(r)]
    app.state.engine.dispose()


def test_head_is_answered_like_get_without_a_body(app: FastAPI, hosted: Hosted) -> None:
    """Monitors and link checkers ask with HEAD: the same status and headers as GET, no body."""
    client = new_client(app)
    for path in ("/", hosted.base, f"{hosted.base}/record.json", "/static/favicon.svg", "/api/v1/strategies"):
        get, head = client.get(path), client.head(path)
        assert get.status_code == head.status_code == 200 and get.content and head.content == b"", path
        assert head.headers["content-type"] == get.headers["content-type"]
        assert head.headers["content-security-policy"] == CSP
    assert client.head("/games/nope").status_code == 404
    assert post_form(client, "/games", {}).status_code != 405  # the other methods are untouched
    icon = client.get("/")
    assert re.search(r'<link rel="icon" href="/static/favicon\.svg\?v=[0-9a-f]{16}"', icon.text)
    moved = client.get("/favicon.ico", follow_redirects=False)  # asked for where no page names an icon
    assert moved.status_code == 301 and moved.headers["location"] == "/static/favicon.svg"


def test_created_page_gives_secret_links_once(app: FastAPI) -> None:
    """The organiser gets one invite link per seat and an organiser link, each 128+ random bits."""
    game = host_game(app, arrangement="5-16-3")
    assert sorted(game.invites) == ["p1", "p2", "p3", "p4", "p5"]
    for link in [*game.invites.values(), game.organiser_link]:
        token = link.rsplit("/", 1)[1]
        assert len(token) >= 22  # base64url: 6 bits a character, 22 characters = 132 bits
    assert len(set(game.invites.values())) == 5
    # The links are not stored: the organiser page never shows them again.
    page = game.organiser.get(f"{game.base}/organise").text
    assert not any(link.rsplit("/", 1)[1] in page for link in game.invites.values())


def test_join_escapes_names(app: FastAPI) -> None:
    """Names are escaped wherever they are shown."""
    game = host_game(app)
    player = game.join("p1", "<script>alert(1)</script>")
    page = player.get(f"{game.base}/play").text
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_csrf_missing_or_wrong_token_is_refused(app: FastAPI) -> None:
    """A form post without the CSRF token, or with another browser's, is refused and changes nothing."""
    game = host_game(app)
    refused = post_form(game.organiser, f"{game.base}/start", token=False)
    assert refused.status_code == 403 and "CSRF" in refused.text
    other = new_client(app)
    other.get("/")
    forged = game.organiser.post(f"{game.base}/start", data={"csrf": str(other.cookies["sevens_csrf"])})
    assert forged.status_code == 403
    assert "Start the game" in game.organiser.get(f"{game.base}/organise").text


def test_a_csrf_token_is_good_for_its_own_session_only(app: FastAPI) -> None:
    """Once a browser has a session its forms' token is bound to it: the token of another browser's
    session is refused, and so is a token planted with a matching CSRF cookie (which a plain double
    submit would take). The page carries no part of the session's secret; the session's own token
    goes through, and a new visitor's create-game form still works without a session."""
    game = host_game(app)  # the organiser's browser created it with no session (double submit)
    player = game.join("p1", "Ana")
    session = str(game.organiser.cookies[SESSION_COOKIE])
    mine, theirs = csrf(game.organiser), csrf(player)
    assert mine != theirs and session not in game.organiser.get(f"{game.base}/organise").text
    start = f"{game.base}/start"
    player.cookies.set(CSRF_COOKIE, mine)
    assert player.post(f"{game.base}/device-link", data={"csrf": mine}).status_code == 403
    game.organiser.cookies.set(CSRF_COOKIE, theirs)
    assert game.organiser.post(start, data={"csrf": theirs}).status_code == 403
    planted = "x" * 40
    game.organiser.cookies.set(CSRF_COOKIE, planted)
    refused = game.organiser.post(start, data={"csrf": planted})
    assert refused.status_code == 403 and "reload the page" in refused.text
    assert "Start the game" in game.organiser.get(f"{game.base}/organise").text
    assert game.organiser.post(start, data={"csrf": mine}).status_code == 303


def test_orders_then_all_ready_resolves(hosted: Hosted) -> None:
    """Saved orders can change until the turn is resolved; when all are ready it is resolved."""
    teams = {pid: hosted.my_teams(pid) for pid in hosted.players}
    assert all(len(t) == 2 for t in teams.values())
    team = teams["p1"][0]
    saved = hosted.order("p1", team, 10, 9)
    assert saved.status_code == 303
    page = hosted.players["p1"].get(saved.headers["location"]).text
    assert 'value="10"' in page and "saved, not ready" in page
    name = re.search(rf'data-team="{team}" data-name="([^"]+)"', page)
    assert name and f'id="message">Order for {name.group(1)} saved (turn 1).</p>' in page
    # The note is worded by the page from what was done: a crafted link shows no text of its own.
    other = teams["p2"][0]
    for crafted in ("message=You+lost", f"done=ready&team={other}&turn=1", f"done=won&team={team}&turn=1"):
        assert 'id="message"' not in hosted.players["p1"].get(f"{hosted.base}/play?{crafted}").text
    assert hosted.order("p1", team, 12, 6).status_code == 303
    for pid, own in teams.items():
        for t in own:
            assert hosted.order(pid, t, 12, 6, action="ready").status_code == 303
    assert hosted.turn() == 2
    public = hosted.organiser.get(hosted.base).text
    assert "Turn 1 · group" in on_screen(public) and "12+6" in on_screen(public)


def test_whole_game_record_verifies(hosted: Hosted, tmp_path: Path) -> None:
    """A game played to a champion through the pages; the downloaded record passes verification (R14)."""
    for turn in range(1, 6):
        assert hosted.turn() == turn
        record = json.loads(hosted.organiser.get(f"{hosted.base}/record.json").text)
        assert record["seed"] is None
        for pid in hosted.players:
            for team in hosted.my_teams(pid):
                assert hosted.order(pid, team, 8, 6, action="ready").status_code == 303
        if hosted.turn() == turn:  # every human team is out: the organiser resolves it
            assert (
                post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": str(turn)}).status_code == 303
            )
    page = hosted.organiser.get(hosted.base).text
    assert 'id="champion"' in page and 'id="seed"' in page
    # What decided each place reads as the terminal says it: "fewer tries conceded", not the field
    # name "tries against", which read as if more were better.
    decided = re.findall(r'<td role="cell" class="decided"><span class="cell-label"[^>]*>Place decided by: </span>(.*?)</td>', page)
    assert len(decided) == 8 and set(decided) <= set(DECIDED_BY_WORDS.values()), decided
    download = hosted.organiser.get(f"{hosted.base}/record.json")
    assert "attachment" in download.headers["content-disposition"]
    record = json.loads(download.text)
    # Each report's heading names the winner before the score, which gives the winner's points first.
    names = {t["id"]: t["name"] for t in record["teams"]}
    headings = {m: html.unescape(h) for m, h in re.findall(r'id="match-([^"]+)">\s*<h4>(.*?)</h4>', on_screen(page))}
    matches = [m for turn in record["turns"] for m in turn["matches"]]
    assert matches and len(headings) == len(matches)
    for m in matches:
        home, away = m["home_line"]["points"], m["away_line"]["points"]
        if m["winner"] is None:
            outcome = f"{home}-{away}, a draw"
        else:
            won, lost = (home, away) if m["winner"] == m["home"] else (away, home)
            outcome = f"{names[m['winner']]} win {won}-{lost}"
        assert headings[m["id"]].startswith(f"{m['id']}: {names[m['home']]} v {names[m['away']]} — {outcome}")
    report = verify_record(record)
    assert report.finished and report.dice_checked and report.turns == 5
    assert record["draw"] == "game-seed" and report.draw_checked  # the draw is redone from the seed too
    # `sevens verify` reads the downloaded file as it is.
    path = tmp_path / "record.json"
    path.write_bytes(download.content)
    cli = typer.Typer()
    register_verify(cli)
    cli.command("other")(lambda: None)
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "ok:" in result.output
    assert 'id="verified"' in hosted.organiser.get(f"{hosted.base}/verify").text


def test_a_group_table_says_in_words_what_decided_each_place(app: FastAPI) -> None:
    """The pages' group table (the macro every page uses) says "fewer tries conceded", as the
    terminal does; it showed the field's name, "tries against", which read as if more were better.
    The table is the rules' own, of two played matches that tries conceded and tries scored decide."""
    results = [
        GroupResult("fiji", "kenya", Line(tries=2), Line(tries=1)),
        GroupResult("samoa", "japan", Line(tries=2), Line()),
    ]
    table = group_table(("fiji", "samoa", "kenya", "japan"), results, None)
    # the table's line on who goes through reads the game's format and status too
    view = SimpleNamespace(tables={"A": table}, name=str.title, format=Format(teams=8, players=4, teams_per_player=2), status="running", separations={})
    page = str(app.state.templates.env.get_template("macros.html").module.tables(view))
    decided = re.findall(r'class="decided"><span class="cell-label"[^>]*>Place decided by: </span>(.*?)</td>', page)
    assert decided == ["fewer tries conceded", "fewer tries conceded", "tries scored", "tries scored"], decided
    assert [row.decided_by for row in table.rows] == ["tries_against", "tries_against", "tries_for", "tries_for"]


def test_deadline_resolves_with_autopilot(app: FastAPI, clock: FakeClock, hosted: Hosted) -> None:
    """At the deadline the scheduler resolves the turn; missing orders are played by the autopilot (R13)."""
    team = hosted.my_teams("p1")[0]
    hosted.order("p1", team, 20, 0)
    clock.advance(hours=24)
    assert resolve_due(app.state.sessionmaker, now=clock()) == 1
    assert hosted.turn() == 2
    page = hosted.organiser.get(hosted.base).text
    assert "missed: autopilot even (R13)" in page
    assert page.count("missed: autopilot") == 7


def test_pause_extend_resume_through_pages(app: FastAPI, clock: FakeClock, hosted: Hosted) -> None:
    """The organiser pauses, extends and resumes the deadline; each is in the event log."""
    assert post_form(hosted.organiser, f"{hosted.base}/pause").status_code == 303
    clock.advance(hours=30)
    assert resolve_due(app.state.sessionmaker, now=clock()) == 0
    assert post_form(hosted.organiser, f"{hosted.base}/extend", {"hours": "2"}).status_code == 303
    # The time kept while paused is shown: the 24 hours of the turn, plus the 2 of the extension.
    assert '<span id="paused">paused, 1 d 2 h left when it resumes</span>' in new_client(app).get(hosted.base).text
    assert "Resume (1 d 2 h left)" in hosted.organiser.get(f"{hosted.base}/organise").text
    assert post_form(hosted.organiser, f"{hosted.base}/resume").status_code == 303
    page = hosted.organiser.get(f"{hosted.base}/organise").text
    assert "organiser · paused the deadline" in log_shown(page) and "organiser · extended the deadline · +2 h" in log_shown(page)
    assert "organiser: extended the deadline, +2 h" in log_heard(page)
    assert re.search(r"organiser · resumed the deadline · due \d{4}-\d\d-\d\d \d\d:\d\d UTC", log_shown(page))
    clock.advance(hours=25)
    assert resolve_due(app.state.sessionmaker, now=clock()) == 0
    clock.advance(hours=1)
    assert resolve_due(app.state.sessionmaker, now=clock()) == 1


def test_new_invite_replaces_old(app: FastAPI) -> None:
    """A new invite link for a seat nobody has taken works; the old one no longer does."""
    hosted = host_game(app)
    for number in (1, 3, 4):
        hosted.join(f"p{number}", f"Player {number}")
    hosted.start()
    response = post_form(hosted.organiser, f"{hosted.base}/seats/p2/invite")
    assert response.status_code == 200
    new_link = re.search(r'id="invite-link">([^<]+)<', response.text)
    assert new_link
    stranger = new_client(hosted.app)
    assert stranger.get(hosted.invites["p2"].split("testserver", 1)[1]).status_code == 404
    page = stranger.get(new_link.group(1).split("testserver", 1)[1])
    assert page.status_code == 200
    # The game has started: the seat's name is in its record, so the page does not offer to change it.
    assert 'id="fixed-name">You play as <strong>Player 2</strong>' in unset(page.text)
    assert 'type="hidden" name="name" value="Player 2"' in page.text
    hosted.invites["p2"] = new_link.group(1)
    hosted.join("p2", "Mallory")
    assert "Player 2" in hosted.players["p2"].get(f"{hosted.base}/play").text
    organise = hosted.organiser.get(f"{hosted.base}/organise").text
    assert "made a new invite link · seat 2: the old link stops working" in log_shown(organise)
    assert post_form(hosted.organiser, f"{hosted.base}/end").status_code == 303
    assert "New invite link" not in hosted.organiser.get(f"{hosted.base}/organise").text
    over = post_form(hosted.organiser, f"{hosted.base}/seats/p2/invite", {"sign_out": "yes"})
    assert over.status_code == 409
    assert "Seat 2 was not signed out and no new link was made: the game was ended early" in over.text


def test_a_taken_seat_gets_a_second_link_only_from_its_player(hosted: Hosted) -> None:
    """R13: a plain new link from the organiser for a seat in play would let a second person read
    its orders before the turn is resolved, so it is refused; the seat's player can make one for
    another device, which sees the player's own saved orders."""
    team = hosted.my_teams("p2")[0]
    assert hosted.order("p2", team, 17, 33).status_code == 303
    page = hosted.organiser.get(f"{hosted.base}/organise").text
    assert 'aria-label="New invite link for seat 2"' not in page  # only "Sign out and new link"
    plain = post_form(hosted.organiser, f"{hosted.base}/seats/p2/invite")
    assert plain.status_code == 409 and "Sign out and new link" in html.unescape(plain.text)
    assert "Your order: 17 FORCE + 33 FLAIR" in hosted.players["p2"].get(f"{hosted.base}/play").text
    own = post_form(hosted.players["p2"], f"{hosted.base}/device-link")
    assert own.status_code == 200 and "for another device" in own.text
    link = re.search(r'id="invite-link">([^<]+)<', own.text)
    assert link
    phone = new_client(hosted.app)
    assert post_form(phone, link.group(1).split("testserver", 1)[1], {"name": "Player 2"}).status_code == 303
    assert "Your order: 17 FORCE + 33 FLAIR" in phone.get(f"{hosted.base}/play").text
    assert hosted.players["p2"].get(f"{hosted.base}/play").status_code == 200  # still theirs too
    assert "its player asked for a link for another device" in hosted.organiser.get(f"{hosted.base}/organise").text
    # Only a player of the game can ask: the organiser (who plays no seat) and strangers cannot.
    assert post_form(hosted.organiser, f"{hosted.base}/device-link").status_code == 403
    assert post_form(new_client(hosted.app), f"{hosted.base}/device-link").status_code == 403


def test_signing_a_seat_out_discards_its_saved_orders(hosted: Hosted) -> None:
    """R13: whoever opens the new link after a sign-out does not see the orders the seat's player
    saved this turn; they are discarded (the event log says how many), other seats' stay. Nor the
    autopilot its player chose, which only a manager sees: the new holder starts from the default."""
    mine, other = hosted.my_teams("p2")[0], hosted.my_teams("p1")[0]
    assert hosted.order("p2", mine, 17, 33).status_code == 303
    assert hosted.order("p1", other, 5, 3).status_code == 303
    chose = {"team": mine, "strategy": "knockout-saver", "weight": ""}
    assert post_form(hosted.players["p2"], f"{hosted.base}/autopilot", chose).status_code == 303
    assert "Now: knockout-saver" in hosted.players["p2"].get(f"{hosted.base}/play").text
    response = post_form(hosted.organiser, f"{hosted.base}/seats/p2/invite", {"sign_out": "yes"})
    assert response.status_code == 200
    link = re.search(r'id="invite-link">([^<]+)<', response.text)
    assert link
    taker = new_client(hosted.app)
    assert post_form(taker, link.group(1).split("testserver", 1)[1], {"name": "Player 2"}).status_code == 303
    page = taker.get(f"{hosted.base}/play").text
    assert "17 FORCE" not in page and "Your order" not in page
    # Nor may the browser offer the boxes' earlier entries: a shared browser's form history would hold
    # the last player's numbers once the seat changes hands.
    boxes = re.findall(r'<input name="(?:force|flair)"[^>]*>', page)
    assert boxes and all('autocomplete="off"' in box for box in boxes), boxes
    assert "Now: knockout-saver" not in page and "Now: " in page
    assert "Your order: 5 FORCE + 3 FLAIR" in hosted.players["p1"].get(f"{hosted.base}/play").text
    assert "its 1 order(s) saved for turn 1 were discarded" in hosted.organiser.get(f"{hosted.base}/organise").text


def test_the_organiser_can_sign_out_whoever_holds_a_seat(hosted: Hosted) -> None:
    """A link that reached the wrong person: the organiser signs out every browser and bot token on
    the seat and issues a new link; a link its player made for another device leaves them as they are."""
    bot = new_client(hosted.app)
    joined = bot.post("/api/v1/join", json={"invite": hosted.new_invite("p2").rsplit("/", 1)[1], "name": "Player 2"})
    token = {"Authorization": f"Bearer {joined.json()['token']}"}
    page = hosted.organiser.get(f"{hosted.base}/organise").text
    assert page.count('class="inline sign-out"') == 4  # one per joined seat
    assert hosted.players["p2"].get(f"{hosted.base}/play").status_code == 200  # kept by the device link
    response = post_form(hosted.organiser, f"{hosted.base}/seats/p2/invite", {"sign_out": "yes"})
    assert response.status_code == 200 and 'id="signed-out"' in response.text
    assert hosted.players["p2"].get(f"{hosted.base}/play").status_code == 403
    assert bot.get(f"/api/v1/games/{hosted.public_id}/orders", headers=token).status_code == 403
    team = hosted.my_teams("p1")[0]  # other seats keep playing
    assert hosted.order("p1", team, 5, 3).status_code == 303
    assert "organiser · signed a seat out · seat 2: " in log_shown(hosted.organiser.get(f"{hosted.base}/organise").text)
    link = re.search(r'id="invite-link">([^<]+)<', response.text)
    assert link
    hosted.invites["p2"] = link.group(1)
    assert hosted.join("p2", "Player 2").get(f"{hosted.base}/play").status_code == 200


def _form_fields(page: str, form_id: str) -> dict[str, str]:
    """The hidden fields of one form of a page, as the browser would send them."""
    form = page.split(f'id="{form_id}"', 1)[1].split("</form>", 1)[0]
    return {name: html.unescape(value) for name, value in
            re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form) if name != "csrf"}


def _shown(response) -> str:  # type: ignore[no-untyped-def]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", response.text)).split())


def test_a_browser_signed_out_of_its_seat_is_told_so_when_it_orders(hosted: Hosted) -> None:
    """A player whose browser the organiser signed out, their page still open, sent an order and
    landed on the refusal page ("Sorry: 403 ... Go back to the page you came from and reload it"),
    which led to a seat's page that refused again, and what they had typed was gone. The answer now
    says what happened, what was sent (not saved), how to get the seat back and where the game
    stands; the same for a seat handed to the bots, and for its autopilot form."""
    p1_team = hosted.my_teams("p1")[0]
    assert hosted.order("p1", p1_team, 13, 6, action="ready").status_code == 303  # another seat's secret
    team = hosted.my_teams("p2")[0]
    page = hosted.players["p2"].get(f"{hosted.base}/play").text
    fields = _form_fields(page, f"order-{team}")
    name = fields["team_name"]
    assert post_form(hosted.organiser, f"{hosted.base}/seats/p2/invite", {"sign_out": "yes"}).status_code == 200
    answer = post_form(hosted.players["p2"], f"{hosted.base}/orders",
                       {**fields, "force": "7", "flair": "6", "action": "ready"})
    assert answer.status_code == 403
    said = _shown(answer)
    assert "This browser no longer plays a seat in Friday sevens, so your order was not saved: the organiser has " \
           "signed it out or handed the seat to the bots since the page was loaded." in said, said
    assert "Only a new invite link from the organiser opens your seat again; send it again from there." in said
    assert f"What you had sent, for your own note: 7 FORCE + 6 FLAIR, turn 1 for {name}." in said, said
    assert f'<a href="{hosted.base}" id="game-page">' in answer.text
    assert "<h1>Not saved: this browser plays no seat now</h1>" in answer.text
    assert "Go back to the page you came from" not in said and "13 FORCE" not in said
    # Nothing was saved for it: back in its seat by a new link, the form is empty.
    hosted.invites["p2"] = re.findall(r'id="invite-link">([^<]+)<', post_form(
        hosted.organiser, f"{hosted.base}/seats/p2/invite", {"sign_out": "yes"}).text)[0]
    back = hosted.join("p2", "Player 2").get(f"{hosted.base}/play").text
    assert "Your order: 7 FORCE" not in back and f'id="order-{team}"' in back
    # A seat handed to the bots: its player's autopilot form, sent after, says the same of the bot.
    team3 = hosted.my_teams("p3")[0]
    autopilot = _form_fields(hosted.players["p3"].get(f"{hosted.base}/play").text, f"autopilot-{team3}")
    assert post_form(hosted.organiser, f"{hosted.base}/seats/p3/release").status_code == 303
    answer = post_form(hosted.players["p3"], f"{hosted.base}/autopilot",
                       {**autopilot, "strategy": "knockout-saver", "weight": ""})
    assert answer.status_code == 403
    said = _shown(answer)
    assert "so your choice of autopilot was not saved" in said, said
    assert "What you had sent, for your own note: the bot knockout-saver for " in said, said


def _signing_out_between_check_and_save(
    monkeypatch: pytest.MonkeyPatch, name: str, organiser: Any, url: str, form: dict[str, str]
) -> list[int]:
    """store.``name`` run as it is, once the organiser (another request, in another thread) has
    posted ``form`` to ``url``: the seat goes after the page checked it and before the store's
    lock. The status of that post, once made."""
    real = getattr(store, name)
    done: list[int] = []

    def meanwhile(*args: Any, **kwargs: Any) -> Any:
        if not done:
            args[0].commit()  # the request's reads so far: SQLite takes one writer at a time
            other = threading.Thread(target=lambda: done.append(post_form(organiser, url, form).status_code))
            other.start()
            other.join(timeout=15)
        return real(*args, **kwargs)

    monkeypatch.setattr(store, name, meanwhile)
    return done


@pytest.mark.parametrize("how", ["signed out", "handed to the bots"])
def test_a_seat_lost_between_the_pages_check_and_the_save_is_told_what_was_not_saved(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """The organiser signs a seat out (or hands it to the bots) after the order's request found
    this browser plays it and before the store, under the game's lock, finds it does not: the
    store refuses, and that refusal got the plain error page ("Sorry: 403 ... go back and
    reload"), the order typed gone. It gets the page of a seat found gone before the save: what
    happened, what was sent and not saved, and how to get the seat back; the autopilot form too."""
    game = host_game(app, visibility="private")
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    team = game.my_teams("p2")[0]
    page = game.players["p2"].get(f"{game.base}/play").text
    fields = _form_fields(page, f"order-{team}")
    url, form = (f"{game.base}/seats/p2/invite", {"sign_out": "yes"}) if how == "signed out" else \
        (f"{game.base}/seats/p2/release", {})
    done = _signing_out_between_check_and_save(monkeypatch, "save_order", game.organiser, url, form)
    answer = post_form(game.players["p2"], f"{game.base}/orders", {**fields, "force": "7", "flair": "6"})
    assert done and done[0] in (200, 303), done
    assert answer.status_code == 403, answer.text
    said = _shown(answer)
    assert "<h1>Not saved: this browser plays no seat now</h1>" in answer.text, said
    assert "so your order was not saved: the organiser has signed it out or handed the seat to the bots" in said
    assert f"What you had sent, for your own note: 7 FORCE + 6 FLAIR, turn 1 for {fields['team_name']}." in said
    assert "Only a new invite link from the organiser opens your seat again" in said
    with app.state.sessionmaker() as db:
        assert db.scalar(select(func.count()).select_from(OrderLogRow)) == 0  # nothing saved
    # The autopilot form of another seat, lost the same way.
    team3 = game.my_teams("p3")[0]
    autopilot = _form_fields(game.players["p3"].get(f"{game.base}/play").text, f"autopilot-{team3}")
    url = url.replace("/p2/", "/p3/")
    done = _signing_out_between_check_and_save(monkeypatch, "set_autopilot", game.organiser, url, form)
    answer = post_form(game.players["p3"], f"{game.base}/autopilot", {**autopilot, "strategy": "knockout-saver"})
    assert done and done[0] in (200, 303), done
    assert answer.status_code == 403, answer.text
    said = _shown(answer)
    assert "so your choice of autopilot was not saved" in said, said
    assert "What you had sent, for your own note: the bot knockout-saver" in said, said


@pytest.mark.parametrize("visibility", ["public", "private"])
def test_an_order_sent_after_signing_out_in_another_tab_is_said_not_saved(app: FastAPI, visibility: str) -> None:
    """A player signs this browser out (Sign out of this browser) in another tab, then sends the
    order typed in the first: its security token is the ended session's, so the CSRF check refuses
    it, and the answer was the plain 403 ("reload the page and submit again"), whose reload leads
    to a seat's page that refuses too, the order gone. It now says the browser was signed out,
    what was not saved and that only a new invite link opens the seat again; nothing is saved, and
    a form with any other token (another browser's, a forged one) gets the plain 403 as before.
    A private game is named only to a form carrying its seat's proof."""
    game = host_game(app, visibility=visibility)
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    browser = game.players["p2"]
    team = game.my_teams("p2")[0]
    page = browser.get(f"{game.base}/play").text
    loaded = re.findall(r'name="csrf" value="([^"]+)"', page)[0]
    fields = {**_form_fields(page, f"order-{team}"), "force": "7", "flair": "6", "action": "ready", "csrf": loaded}
    other_tab = browser.get("/").text
    assert browser.post("/signout", data={"csrf": re.findall(r'name="csrf" value="([^"]+)"', other_tab)[0]}).status_code == 303
    here = {"Sec-Fetch-Site": "same-origin"}  # what a browser says of a form of the site's own page
    answer = browser.post(f"{game.base}/orders", data=fields, headers=here)
    assert answer.status_code == 403, answer.text
    said = _shown(answer)
    assert "<h1>Not saved: this browser plays no seat now</h1>" in answer.text, said
    assert "This browser was signed out (Sign out of this browser, perhaps in another tab or window) after this " \
           "page was loaded, so your order was not saved and nothing was done." in said, said
    assert "seat in Friday sevens: only a new invite link from the organiser opens it again" in said, said
    assert f"What you had sent, for your own note: 7 FORCE + 6 FLAIR, turn 1 for {fields['team_name']}." in said
    assert ('id="game-page"' in answer.text) == (visibility == "public")
    with app.state.sessionmaker() as db:
        assert db.scalar(select(func.count()).select_from(OrderLogRow)) == 0
    # Without its seat's proof the form is still this browser's, but a private game is not named.
    unproved = browser.post(f"{game.base}/orders", data={**fields, "seat": ""}, headers=here)
    assert unproved.status_code == 403 and "7 FORCE + 6 FLAIR, turn 1" in _shown(unproved)
    assert ("Friday sevens" in _shown(unproved)) == (visibility == "public"), _shown(unproved)
    # A browser that never played, with the seat's proof copied and a signed-out cookie and token
    # made up to match: the proof was signed for the ended session's token, so nothing is named.
    stranger, made_up = new_client(app), "a-made-up-form-token-of-the-usual-length-xx"
    stranger.cookies.set(SIGNED_OUT_COOKIE, made_up)
    forged = stranger.post(f"{game.base}/orders", data={**fields, "csrf": made_up}, headers=here)
    assert forged.status_code == 403 and "7 FORCE + 6 FLAIR, turn 1" in _shown(forged), _shown(forged)
    for secret in ("Friday sevens", fields["team_name"]):
        assert (secret in _shown(forged)) == (visibility == "public"), (secret, _shown(forged))
    # The CSRF check is as strict as before: another browser, a token not the ended session's, a
    # form the browser does not say it sent from this site's page.
    for client, token, headers in ((new_client(app), loaded, here), (browser, loaded[::-1], here), (browser, loaded, {})):
        refused = client.post(f"{game.base}/orders", data={**fields, "csrf": token}, headers=headers)
        assert refused.status_code == 403 and "security token is missing or stale" in refused.text
        assert "7 FORCE" not in _shown(refused)
    # The page's autopilot form alike.
    chosen = {**_form_fields(page, f"autopilot-{team}"), "strategy": "knockout-saver", "csrf": loaded}
    answer = browser.post(f"{game.base}/autopilot", data=chosen, headers=here)
    assert answer.status_code == 403 and "so your choice of autopilot was not saved" in _shown(answer)
    assert "What you had sent, for your own note: the bot knockout-saver" in _shown(answer)


def test_a_private_games_signed_out_order_is_said_only_to_the_browser_that_held_the_seat(app: FastAPI) -> None:
    """In a private game only the browser that held the seat (its form's proof) is told its order was
    not saved; anyone else sending the same fields meets the 404 of a game that is not there."""
    game = host_game(app, visibility="private")
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    team = game.my_teams("p2")[0]
    fields = _form_fields(game.players["p2"].get(f"{game.base}/play").text, f"order-{team}")
    assert post_form(game.organiser, f"{game.base}/seats/p2/invite", {"sign_out": "yes"}).status_code == 200
    answer = post_form(game.players["p2"], f"{game.base}/orders", {**fields, "force": "7", "flair": "6"})
    assert answer.status_code == 403
    said = _shown(answer)
    assert f"7 FORCE + 6 FLAIR, turn 1 for {fields['team_name']}" in said and 'id="game-page"' not in answer.text
    stranger = post_form(new_client(app), f"{game.base}/orders", {**fields, "force": "7", "flair": "6"})
    assert stranger.status_code == 404 and fields["team_name"] not in _shown(stranger)


def test_an_invite_opened_after_the_game_is_over_says_so(hosted: Hosted) -> None:
    """An invite opened once the game was over said "You are invited to play seat p2" and offered
    "Join the game", with nothing left to play: it now says the game is over, and what joining
    still gives (the seat's page, with how the game went)."""
    link = hosted.new_invite("p2").split("testserver", 1)[1]
    assert 'id="game-over"' not in new_client(hosted.app).get(link).text
    assert post_form(hosted.organiser, f"{hosted.base}/end").status_code == 303
    page = html.unescape(re.sub(r"<[^>]+>", "", new_client(hosted.app).get(link).text))
    assert "This game is over (ended early by its organiser): nothing is left to play." in page


def test_one_browser_or_token_plays_one_seat_of_a_game(app: FastAPI) -> None:
    """A second seat for the same browser (or token) is refused and its invite left unused: its
    pages show one seat, so the second seat's teams would wait for orders nobody could give."""
    game = host_game(app)
    browser = game.join("p1", "Ann")
    # The second invite says so as it opens, with no form to fill in first and a way to one's own
    # seat; before, it offered the form and turned the name down on an error page.
    page = browser.get(game.invites["p2"].split("testserver", 1)[1])
    assert page.status_code == 200 and 'id="join"' not in page.text
    said = html.unescape(re.sub(r"<[^>]+>", "", page.text))
    assert "This browser already plays seat 1 of " in said and "as Ann, and one browser plays one seat" in said
    assert "This invite is still open." in said and f'href="{game.base}/play"' in page.text
    second = post_form(browser, game.invites["p2"].split("testserver", 1)[1], {"name": "Ben"})  # a form loaded before
    assert second.status_code == 409 and 'id="join"' not in second.text
    said = html.unescape(re.sub(r"<[^>]+>", "", second.text))
    assert "You have not joined seat 2: this browser already plays seat 1 of " in said
    bot = new_client(app)
    token = bot.post("/api/v1/join", json={"invite": game.invites["p3"].rsplit("/", 1)[1], "name": "Cy"}).json()
    headers = {"Authorization": f"Bearer {token['token']}"}
    again = bot.post("/api/v1/join", json={"invite": game.invites["p4"].rsplit("/", 1)[1], "name": "Di"}, headers=headers)
    assert again.status_code == 409 and "this token already plays seat p3" in again.json()["detail"]
    game.join("p2", "Ben")  # the invites are still open for their own players
    game.join("p4", "Di")


def test_names_a_reader_cannot_tell_apart_are_refused_and_a_late_seat_keeps_its_record_name(app: FastAPI) -> None:
    """Names are compared as a reader sees them; an unclaimed seat's name in the record counts; a
    seat taken after the start plays under the name the record has for it."""
    game = host_game(app)
    game.join("p1", "Alice")
    for name, words in (
        ("Ａlice", "already called"),  # fullwidth A
        ("ALICE", "already called"),
        ("Player 3", "already called"),  # p3, unclaimed, plays under this name in the record
        ("Alice\u200b", "invisible"),
        ("Al\u200bice", "already called"),  # a zero width space between letters (Thai's word break) is unseen
        ("\u200b", "invisible"),
        ("Al\u00adice", "invisible"),  # soft hyphen
    ):
        answer = post_form(new_client(app), game.invites["p2"].split("testserver", 1)[1], {"name": name})
        assert answer.status_code == 422 and words in answer.text, (name, answer.status_code)
        # Said on the join form itself, with the name as typed, to change it and try again.
        assert 'id="join-error"' in answer.text and f'value="{html.escape(name)}"' in answer.text
    game.join("p2", "Bob")
    game.start()
    page = unset(new_client(app).get(game.invites["p3"].split("testserver", 1)[1]).text)
    assert 'id="fixed-name">You play as <strong>Player 3</strong>' in page
    late = game.join("p3", "Zed")
    assert "Player 3" in late.get(f"{game.base}/play").text
    record = json.loads(game.organiser.get(f"{game.base}/record.json").text)
    assert [p["name"] for p in record["players"]] == ["Alice", "Bob", "Player 3", "Player 4"]
    assert "Zed" not in game.organiser.get(f"{game.base}/organise").text


def test_a_team_that_is_out_has_no_autopilot_to_pick(hosted: Hosted) -> None:
    """In the knockout a player's page offered the autopilot menu, weight and Set of each team
    out of the tournament too: a bot for matches it will never play, three more stops for the
    keyboard between the teams still in. Only the teams in play have one now."""
    for _ in (1, 2, 3):
        for pid in hosted.players:
            for team in hosted.my_teams(pid):
                assert hosted.order(pid, team, 10, 6, action="ready").status_code == 303
    assert hosted.turn() == 4
    out = 0
    for client in hosted.players.values():
        page = client.get(f"{hosted.base}/play").text
        playing = set(re.findall(r'class="order-form"[^>]*data-team="([\w-]+)"', page))
        pilots = set(re.findall(r'<form [^>]*class="inline autopilot" id="autopilot-([\w-]+)"', page))
        assert pilots == playing
        out += page.count('class="my-team"') - len(playing)
    assert out == 4  # the semi-finals' four teams are in play, the other four out


def test_setting_the_autopilot_of_a_team_that_is_out_says_so_and_sets_nothing(app: FastAPI, hosted: Hosted) -> None:
    """A form kept open from before the knockout (or a crafted post) set the autopilot of a team
    already out and answered "Autopilot for ... set.": it now says the team is out, with 409, and
    the team's bot is left as it was."""
    for _ in (1, 2, 3):
        for pid in hosted.players:
            for team in hosted.my_teams(pid):
                assert hosted.order(pid, team, 10, 6, action="ready").status_code == 303
    assert hosted.turn() == 4
    pid, out = next(
        (pid, team)
        for pid, client in hosted.players.items()
        for team in re.findall(r'class="my-team" id="team-([\w-]+)"', client.get(f"{hosted.base}/play").text)
        if team not in hosted.my_teams(pid)
    )
    answer = post_form(hosted.players[pid], f"{hosted.base}/autopilot", {"team": out, "strategy": "group-blitz"})
    assert answer.status_code == 409, answer.text
    assert "is out of the tournament and plays no more matches, so it needs no autopilot" in answer.text
    assert "set." not in answer.text
    with app.state.sessionmaker() as db:
        assert db.scalar(select(TeamRow.autopilot).where(TeamRow.team_id == out)) is None


def test_the_note_after_an_autopilot_is_set_is_not_said_once_its_team_is_out(hosted: Hosted) -> None:
    """"Autopilot for ... set." stood on every reload of the address its form left, in the knockout
    too, for a team already out and playing no more: it is said while the team plays."""
    addresses = {}
    for pid in hosted.players:
        for team in hosted.my_teams(pid):
            answer = post_form(hosted.players[pid], f"{hosted.base}/autopilot", {"team": team, "strategy": "random"})
            addresses[team] = (pid, answer.headers["location"].split("#", 1)[0])
    for _ in (1, 2, 3):
        for pid in hosted.players:
            for team in hosted.my_teams(pid):
                assert hosted.order(pid, team, 10, 6, action="ready").status_code == 303
    said = {team: 'id="message"' in hosted.players[pid].get(address).text for team, (pid, address) in addresses.items()}
    playing = {team for pid in hosted.players for team in hosted.my_teams(pid)}
    assert {team for team, shown in said.items() if shown} == playing and len(playing) == 4


def test_a_name_can_change_with_a_new_link_before_the_start(app: FastAPI) -> None:
    """In the lobby nothing is recorded yet: a new link's join form offers the name, and changes it."""
    game = host_game(app)
    game.join("p1", "Eve")
    game.new_invite("p1")
    page = new_client(app).get(game.invites["p1"].split("testserver", 1)[1]).text
    assert 'id="fixed-name"' not in page and 'name="name" required maxlength="320" dir="auto" data-count="40" value="Eve"' in page
    game.join("p1", "Ada")
    assert "Ada" in game.players["p1"].get(f"{game.base}/play").text


def test_order_log_is_append_only(app: FastAPI, hosted: Hosted) -> None:
    """Every submission is written at once to the log."""
    team = hosted.my_teams("p1")[0]
    for force in (1, 2, 3):
        hosted.order("p1", team, force, 0)
    with app.state.sessionmaker() as db:
        assert db.scalar(select(func.count()).select_from(OrderLogRow)) == 3
        assert db.scalar(select(GameRow.current_turn)) == 1


def test_live_odds_for_own_team(hosted: Hosted) -> None:
    """The order form's odds: expected points and win/draw/loss against plausible orders."""
    from sevens.bots import STRATEGIES

    team = hosted.my_teams("p1")[0]
    response = hosted.players["p1"].post(f"{hosted.base}/odds", data={"team": team, "force": 10, "flair": 9})
    assert response.status_code == 200
    data = response.json()
    assert data["scrum_left"] == 81 and data["against"] and data["rules"] == "group"
    for row in data["against"]:
        assert abs(row["win"] + row["draw"] + row["loss"] - 1) < 1e-6
    # 10 FORCE dice at 8/6 points each and 3 FLAIR options at 61/15 each (R1, R2).
    assert abs(data["expected_points"] - (10 * 8 / 6 + 3 * 61 / 15)) < 1e-3
    # Every seat is taken: the opponent's autopilot is its manager's own business.
    assert data["opponent_bot"] is None and sorted(row["bot"] for row in data["against"]) == sorted(STRATEGIES)


def test_live_odds_with_a_box_still_empty_say_they_take_it_as_0(hosted: Hosted) -> None:
    """A box left empty is not typed yet (the order form refuses it): the odds of the draft are
    those of 0 there, and the answer names that box, as the API's does, for the page to say so. A
    box of spaces is as empty; a 0 typed is not assumed."""
    team = hosted.my_teams("p1")[0]
    player = hosted.players["p1"]
    cases: list[tuple[dict[str, str], list[str], dict[str, int]]] = [
        ({"force": "12", "flair": ""}, ["flair"], {"force": 12, "flair": 0}),
        ({"force": " ", "flair": "9"}, ["force"], {"force": 0, "flair": 9}),
        ({"force": "12"}, ["flair"], {"force": 12, "flair": 0}),  # left out of the form altogether
        ({"force": "12", "flair": "0"}, [], {"force": 12, "flair": 0}),
    ]
    for typed, assumed, order in cases:
        response = player.post(f"{hosted.base}/odds", data={"team": team, **typed})
        assert response.status_code == 200, response.text
        assert response.json()["assumed_zero"] == assumed, typed
        assert response.json()["order"] == order


def test_live_odds_take_the_draft_in_the_body_never_in_the_address(hosted: Hosted) -> None:
    """A draft order is as secret as the order it becomes, and a request's address is what a server
    or a reverse proxy writes to its access log: the odds are asked for by a POST whose body holds
    the draft, and the page's route takes no draft in its address."""
    team = hosted.my_teams("p1")[0]
    player = hosted.players["p1"]
    in_address = player.get(f"{hosted.base}/odds", params={"team": team, "force": 10, "flair": 9})
    assert in_address.status_code == 405
    assert "expected_points" not in in_address.text
    page = player.get(f"{hosted.base}/play").text
    assert f'data-odds="/games/{hosted.public_id}/odds"' in page  # where the script posts, with no query


def test_live_odds_name_the_bot_of_an_opponent_nobody_plays(app: FastAPI) -> None:
    """R13: against a team nobody plays, the odds say which bot plays it (the organiser's choice,
    named in every report), with a row for it even when it has a knockout weight; once its manager
    takes their seat, the odds say nothing of their autopilot."""
    from sevens.bots import STRATEGIES

    game = host_game(app, hours="0")
    player = game.join("p1", "Solo")
    game.start()
    team = game.my_teams("p1")[0]

    def odds() -> dict[str, Any]:
        response = player.post(f"{game.base}/odds", data={"team": team, "force": 10, "flair": 9})
        assert response.status_code == 200, response.text
        return cast(dict[str, Any], response.json())

    opponent = odds()["opponent"]
    assert odds()["opponent_bot"] == "even"
    set_bot = {"team": opponent, "strategy": "even-flair", "weight": "2"}
    assert post_form(game.organiser, f"{game.base}/house-bot", set_bot).status_code == 303
    data = odds()
    assert data["opponent_bot"] == "even-flair@2"
    assert sorted(row["bot"] for row in data["against"]) == sorted([*STRATEGIES, "even-flair@2"])
    teams = json.loads(game.organiser.get(f"{game.base}/record.json").text)["teams"]
    manager = next(t["manager"] for t in teams if t["id"] == opponent)
    game.join(manager, "Late")
    data = odds()
    assert data["opponent_bot"] is None and "even-flair@2" not in {row["bot"] for row in data["against"]}


def test_bot_menus_say_what_each_bot_does(app: FastAPI, hosted: Hosted) -> None:
    """R13: the create form and each team's autopilot menu name every bot with a few words on it,
    the game's default (or the team's own autopilot) chosen; the API gives the same words."""
    from sevens.bots import DEFAULT_BOT, STRATEGIES, SUMMARIES

    def options(page: str, name: str) -> list[tuple[str, bool, str]]:
        menu = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
        assert menu is not None, name
        found = re.findall(r'<option value="([^"]+)"( selected)?>([^<]+)</option>', menu.group(1))
        return [(value, bool(selected), html.unescape(text)) for value, selected, text in found]

    front = new_client(app).get("/").text
    # Two settings: the bot of the house teams and unclaimed seats, and the autopilot of a player
    # in their seat who picks none; each menu says which it is.
    for name, said in (
        ("default_bot", "Bot for the teams nobody plays (R13)"),
        ("default_autopilot", "Default autopilot for players' missed orders (R13)"),
    ):
        home = options(front, name)
        label = re.search(rf'<label>([^<]*)<select name="{name}"', front)
        assert label is not None and label[1].strip() == said
        assert sorted(value for value, _, _ in home) == sorted(STRATEGIES)
        assert [value for value, selected, _ in home if selected] == [DEFAULT_BOT]
        assert all(text == f"{value}: {SUMMARIES[value]}" for value, _, text in home)

    team = hosted.my_teams("p1")[0]
    player = hosted.players["p1"]
    response = post_form(player, f"{hosted.base}/autopilot", {"team": team, "strategy": "even-flair"})
    assert response.status_code == 303
    menus = options(player.get(f"{hosted.base}/play").text, "strategy")
    assert ("even-flair", True, "even-flair: paces evenly, all FLAIR") in menus

    about = new_client(app).get("/api/v1/strategies").json()
    assert about["default"] == DEFAULT_BOT
    assert about["about"] == {name: SUMMARIES[name] for name in STRATEGIES}


def test_bots_with_a_knockout_weight_play_missed_orders_and_the_record_verifies(app: FastAPI) -> None:
    """R13: the create form and the autopilot form take a knockout weight beside the bot
    ("field-reader" and 1 is field-reader@1); those bots play, the record names them and its bots'
    orders are played again at the end (R14)."""
    game = host_game(app, hours="0", bot="field-reader", bot_weight=" 1 ")
    player = game.join("p1", "Solo")
    game.start()
    first, second = game.my_teams("p1")
    set_ = post_form(player, f"{game.base}/autopilot", {"team": first, "strategy": "equilibrium", "weight": "0.4"})
    assert set_.status_code == 303
    page = html.unescape(player.get(f"{game.base}/play").text)
    form = page[page.index(f'value="{first}"') :]
    assert '<option value="equilibrium" selected>' in form.split("</select>")[0]
    assert re.search(r'<input name="weight" value="0.4"', form)
    assert "Now: equilibrium@0.4, " in form and "a knockout match weighs 0.4 group matches" in form
    other = page[page.index(f'value="{second}"') :]
    assert '<option value="field-reader" selected>' in other.split("</select>")[0]
    assert "Now: field-reader@1, " in other and "leans toward a knockout weight of 1" in other

    while 'id="champion"' not in game.organiser.get(game.base).text:
        turn = game.turn()
        assert post_form(game.organiser, f"{game.base}/resolve", {"turn": str(turn)}).status_code == 303
    record = game.organiser.get(f"{game.base}/record.json").text
    assert set(re.findall(r'"autopilot": ?"([^"]+)"', record)) == {"field-reader@1", "equilibrium@0.4"}
    assert 'id="verified"' in game.organiser.get(f"{game.base}/verify").text


def test_the_organiser_picks_the_bots_of_teams_nobody_plays(app: FastAPI) -> None:
    """R12, R13: after the start the organiser page lists the house teams and the teams of unclaimed
    seats, each with a bot menu; the organiser sets them (a knockout weight too), never a team whose
    manager has taken their seat; those bots play, and a manager who joins later takes over."""
    game = host_game(app, arrangement="4-16-3", hours="0")
    game.join("p1", "Solo")
    assert "Teams nobody plays" not in game.organiser.get(f"{game.base}/organise").text  # no teams before the draw
    game.start()
    page = unset(html.unescape(game.organiser.get(f"{game.base}/organise").text))
    listed = re.findall(r'<tr id="house-([\w-]+)">', page)
    mine = game.my_teams("p1")
    assert len(listed) == 13 and not set(listed) & set(mine)
    seat_and_bot = r'<span class="house-seat">group [A-D] <span class="sep" aria-hidden="true">·</span> {}</span></td>\n<td><span class="house-bot" title="[^"]+">even</span>'
    assert len(re.findall(seat_and_bot.format("house team"), page)) == 4
    assert len(re.findall(seat_and_bot.format(r"Player \d, not claimed"), page)) == 9

    bot = new_client(app)  # the organiser's API client, with a token for the organiser link
    token = bot.post("/api/v1/organise", json={"link": game.organiser_link.rsplit("/", 1)[1]}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    view = bot.get(f"/api/v1{game.base}", headers=auth).json()
    assert sorted(view["house_bots"]) == sorted(listed)
    managers = {t["id"]: t["manager"] for t in view["teams"]}
    house = [team for team in listed if managers[team] == "house"]
    p2 = [team for team in listed if managers[team] == "Player 2"]
    assert len(house) == 4 and len(p2) == 3
    set_bot = {"team": house[0], "strategy": "knockout-saver"}
    assert post_form(game.organiser, f"{game.base}/house-bot", set_bot).status_code == 303
    set_bot = {"team": p2[0], "strategy": "even-flair", "weight": "2"}
    assert post_form(game.organiser, f"{game.base}/house-bot", set_bot).status_code == 303
    page = html.unescape(game.organiser.get(f"{game.base}/organise").text)
    names = {t["id"]: t["name"] for t in view["teams"]}
    shown = log_shown(page)
    assert f"chose a bot for a team nobody plays · {names[house[0]]}: knockout-saver" in shown
    assert f"chose a bot for a team nobody plays · {names[p2[0]]}: even-flair@2" in shown
    entry = page[page.index(f'<tr id="house-{p2[0]}">') :].split("</tr>")[0]
    assert re.search(r'<option value="even-flair" title="[^"]+" selected>', entry) and 'name="weight" value="2"' in entry
    refused = post_form(game.organiser, f"{game.base}/house-bot", {"team": mine[0], "strategy": "even"})
    assert refused.status_code == 403 and "taken their seat" in html.unescape(refused.text)
    player = game.players["p1"]
    not_organiser = post_form(player, f"{game.base}/house-bot", {"team": house[1], "strategy": "even"})
    assert not_organiser.status_code == 403
    # The same by API.
    answer = bot.put(f"/api/v1{game.base}/house-bot/{house[1]}", json={"strategy": "group-blitz"}, headers=auth)
    assert answer.status_code == 200 and answer.json()["house_bots"][house[1]] == "group-blitz"
    assert answer.json()["house_bots"][p2[0]] == "even-flair@2" and len(answer.json()["house_bots"]) == 13
    wrong = bot.put(f"/api/v1{game.base}/house-bot/{mine[1]}", json={"strategy": "even"}, headers=auth)
    assert wrong.status_code == 403

    assert post_form(game.organiser, f"{game.base}/resolve", {"turn": "1"}).status_code == 303
    report = html.unescape(game.organiser.get(game.base).text)
    assert report.count("<em>bot knockout-saver</em>") == 1 and report.count("<em>bot group-blitz</em>") == 1
    assert report.count("bot even-flair@2 (seat not claimed)") == 1

    game.join("p2", "Late")  # p2's teams leave the list; p2 sees the bot the organiser chose
    page = game.organiser.get(f"{game.base}/organise").text
    assert len(re.findall(r'<tr id="house-', page)) == 10 and f'id="house-{p2[0]}"' not in page
    assert "Now: even-flair@2, " in html.unescape(game.players["p2"].get(f"{game.base}/play").text)
    while 'id="champion"' not in game.organiser.get(game.base).text:
        turn = game.turn()
        assert post_form(game.organiser, f"{game.base}/resolve", {"turn": str(turn)}).status_code == 303
    assert 'id="verified"' in game.organiser.get(f"{game.base}/verify").text
    over = post_form(game.organiser, f"{game.base}/house-bot", {"team": house[0], "strategy": "even"})
    assert over.status_code == 409 and "The bot was not changed: the game has finished" in over.text


def test_one_player_against_the_bots_is_not_kept_waiting_by_unclaimed_seats(app: FastAPI) -> None:
    """R13: seats nobody claimed play on autopilot, so a game with no deadline goes on as soon as
    every claimed seat is ready (one person against the bots); a seat claimed later counts again."""
    game = host_game(app, hours="0")
    game.join("p1", "Solo")
    game.start()
    states = game.organiser.get(f"{game.base}/organise").text
    assert states.count("seat not claimed: its autopilot plays") == 6 and states.count("): no order yet") == 2
    first, second = game.my_teams("p1")
    game.order("p1", first, 10, 9, action="ready")
    assert game.turn() == 1  # p1's other team is still to order
    game.order("p1", second, 10, 9, action="ready")
    assert game.turn() == 2
    report = game.organiser.get(game.base).text
    assert report.count("bot even (seat not claimed)") == 6 and "missed: autopilot" not in report

    game.join("p2", "Late")  # a seat claimed during the game: the turn now waits for it too
    for team in game.my_teams("p1"):
        game.order("p1", team, 10, 9, action="ready")
    assert game.turn() == 2
    for team in game.my_teams("p2"):
        game.order("p2", team, 10, 9, action="ready")
    assert game.turn() == 3
    # Turn 1's report still says p2's seat was not claimed then (6 in turn 1, 4 in turn 2), rather
    # than reading p2's turn-1 orders as missed now that p2 has a player.
    report = game.organiser.get(game.base).text
    assert report.count("bot even (seat not claimed)") == 10 and "missed: autopilot" not in report


def test_the_organiser_can_take_a_seat_from_the_created_page_and_play_alone(app: FastAPI) -> None:
    """The created page offers each seat's link to follow in this browser and says that seats
    nobody takes are the bots'; an organiser who takes one is sent on to start, then plays alone."""
    organiser = new_client(app)
    created = post_form(
        organiser, "/games",
        {"name": "Solo", "arrangement": "4-8-2", "deadline_hours": "0", "default_bot": "even-flair", "visibility": "private"},
    )
    assert created.status_code == 201
    assert "Seats nobody takes are played by the bot even-flair (R13)" in html.unescape(created.text)
    seat = re.search(r'<a class="take-seat" href="http://testserver(/join/[\w-]+)">', created.text)
    assert seat is not None
    assert 'id="join"' in organiser.get(seat.group(1)).text  # the name form: opening the link takes nothing
    joined = post_form(organiser, seat.group(1), {"name": "Me"})
    assert joined.status_code == 303
    play = organiser.get(joined.headers["location"]).text
    assert "You organise this game: start it from the" in play
    organise = re.search(r'href="(/games/[\w-]+/organise)"', play)
    assert organise is not None
    started = post_form(organiser, organise.group(1).replace("/organise", "/start"))
    assert started.status_code == 303
    base = organise.group(1).removesuffix("/organise")
    game = Hosted(app, base.rsplit("/", 1)[1], organiser, "", {}, {"p1": organiser})
    for turn in (1, 2, 3):
        assert game.turn() == turn
        for team in game.my_teams("p1"):
            game.order("p1", team, 1, 15, action="ready")
    assert game.turn() in (4, 0)  # the group stage was played without waiting for the three bot seats


def _live(page: str) -> tuple[str, str] | None:
    found = re.search(r'<main data-live="([^"]+)" data-version="([^"]+)"', page)
    return None if found is None else (found.group(1), html.unescape(found.group(2)))


def _own(page: str) -> str | None:
    found = re.search(r'<main data-live="[^"]+" data-version="[^"]+" data-own="([^"]+)"', page)
    return None if found is None else found.group(1)


def test_pages_follow_the_game_through_a_state_that_changes_with_it(app: FastAPI, hosted: Hosted) -> None:
    """The pages of a game in progress carry the address and version of its state, which their
    script polls: it moves when a turn is resolved, and for the organiser when orders come in,
    but not for spectators or players (a player's list of who has ordered follows its own mark)."""
    spectator = new_client(app)
    url, version = _live(spectator.get(hosted.base).text) or ("", "")
    assert url == f"{hosted.base}/state"
    state = spectator.get(url)
    assert state.headers["cache-control"] == "no-store"
    assert state.json() == {"status": "running", "turn": 1, "version": version}
    organiser_version = _live(hosted.organiser.get(f"{hosted.base}/organise").text)
    player_version = _live(hosted.players["p2"].get(f"{hosted.base}/play").text)
    # the player's page asks as a player (the mark of its list of who has ordered comes with that)
    assert organiser_version is not None and player_version == (f"{url}?as=player", version)

    # A player's page also holds the mark of that player's own orders, which moves only with them.
    own = {p: _own(hosted.players[p].get(f"{hosted.base}/play").text) for p in ("p1", "p2")}
    assert own["p1"] and own["p2"] and own["p1"] != own["p2"]
    team = hosted.my_teams("p1")[0]
    hosted.order("p1", team, 10, 9, action="ready")
    assert spectator.get(url).json()["version"] == version
    assert hosted.players["p2"].get(url).json()["version"] == version
    assert hosted.organiser.get(url).json()["version"] != organiser_version[1]
    assert "own" not in spectator.get(url).json() and "own" not in hosted.players["p1"].get(url).json()
    assert hosted.players["p2"].get(f"{url}?as=player").json()["own"] == own["p2"]
    assert hosted.players["p1"].get(f"{url}?as=player").json()["own"] not in ("", own["p1"])
    assert _own(hosted.players["p1"].get(f"{hosted.base}/play").text) == hosted.players["p1"].get(f"{url}?as=player").json()["own"]

    post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"})
    moved = spectator.get(url).json()
    assert moved["turn"] == 2 and moved["version"] != version
    assert _live(spectator.get(hosted.base).text) == (url, moved["version"])

    assert post_form(hosted.organiser, f"{hosted.base}/end").status_code == 303
    assert _live(spectator.get(hosted.base).text) is None  # nothing left to follow
    assert spectator.get(url).json() == {"status": "ended", "turn": None, "version": ANY}


def test_a_game_ended_early_is_verified_dice_and_all(hosted: Hosted, tmp_path: Path) -> None:
    """R14: the seed is revealed when the game ends, so the turns played can be checked, every die."""
    bot = new_client(hosted.app)
    invite = hosted.new_invite("p4").rsplit("/", 1)[1]
    token = bot.post("/api/v1/join", json={"invite": invite, "name": "Bot"}).json()["token"]
    assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"}).status_code == 303
    assert post_form(hosted.organiser, f"{hosted.base}/end").status_code == 303
    seen = bot.get(f"/api/v1/games/{hosted.public_id}", headers={"Authorization": f"Bearer {token}"}).json()
    assert seen["status"] == "ended" and seen["turn"] is None
    assert seen["teams"] and not any(team["in_play"] for team in seen["teams"])
    record = json.loads(hosted.organiser.get(f"{hosted.base}/record.json").text)
    assert record["seed"] and record["ended_early"] is True and len(record["turns"]) == 1
    report = verify_record(record)
    assert report.dice_checked and report.draw_checked and not report.finished
    page = hosted.organiser.get(f"{hosted.base}/verify").text
    assert 'id="verified"' in page and "ended the game after turn 1, so it has no champion" in page
    assert "could not be checked" not in page
    path = tmp_path / "ended.json"
    path.write_text(hosted.organiser.get(f"{hosted.base}/record.json").text)
    cli = typer.Typer()
    register_verify(cli)
    cli.command("other")(lambda: None)
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 0 and "recomputed from the revealed seed" in result.output, result.output


def test_a_game_nobody_joined_is_played_by_the_bots_at_its_start(app: FastAPI) -> None:
    """R13: unclaimed seats hold no turn up, so with none claimed the bots play it through at once."""
    game = host_game(app, hours="0")
    game.start()
    page = game.organiser.get(game.base).text
    assert 'id="champion"' in page and 'id="seed"' in page
    assert verify_record(json.loads(game.organiser.get(f"{game.base}/record.json").text)).dice_checked


def test_a_game_ended_before_its_start_says_it_has_no_record(app: FastAPI) -> None:
    """No die was thrown: no record to download or verify, and the pages say so instead of 'not started yet'."""
    game = host_game(app)
    assert "Download the record" not in game.organiser.get(game.base).text  # the lobby has none either
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    page = game.organiser.get(game.base).text
    assert "ended" in page and "Download the record" not in page and "/verify" not in page
    verify = game.organiser.get(f"{game.base}/verify")
    assert verify.status_code == 200 and "ended before it started: no die was thrown, nothing to verify" in verify.text
    record = game.organiser.get(f"{game.base}/record.json")
    assert record.status_code == 409 and "ended before it started" in record.text


def test_a_private_game_state_is_not_disclosed(app: FastAPI) -> None:
    game = host_game(app, visibility="private")
    assert new_client(app).get(f"{game.base}/state").status_code == 404
    assert f'<a href="{game.base}">Game page</a>' in game.organiser.get(f"{game.base}/organise").text
    public = host_game(app)
    assert f'<a href="{public.base}">Public page</a>' in public.organiser.get(f"{public.base}/organise").text
    assert game.organiser.get(f"{game.base}/state").json()["status"] == "lobby"


def test_the_front_page_says_which_games_wait_for_your_orders(app: FastAPI, hosted: Hosted) -> None:
    """A player's own games on the front page say how many of their orders are not ready this turn."""
    player = hosted.players["p1"]
    mine = re.compile(r'\(player, running, <strong class="due">turn (\d+): (\d+) of your orders not ready</strong>\)')
    assert mine.findall(player.get("/").text) == [("1", "2")]
    first, second = hosted.my_teams("p1")
    hosted.order("p1", first, 10, 9, action="ready")
    hosted.order("p1", second, 10, 9)  # saved, not ready: still to do
    assert mine.findall(player.get("/").text) == [("1", "1")]
    hosted.order("p1", second, 10, 9, action="ready")
    page = player.get("/").text
    assert not mine.findall(page) and "(player, running)" in page
    assert "not ready" not in hosted.organiser.get("/").text  # the organiser has no orders to give


def test_the_front_page_lists_a_game_once_for_its_organiser_who_plays_it(app: FastAPI) -> None:
    """An organiser who also plays a seat sees one line for the game: its name leads to their
    teams, with the orders they owe, and a second link to the organiser page; a game they only
    organise or only play keeps its one link."""
    game = host_game(app, name="Both cup")
    path = game.invites["p1"].split("testserver", 1)[1]
    assert post_form(game.organiser, path, {"name": "Org"}).status_code == 303
    only = host_game(app, name="Organised cup")
    only.organiser = game.organiser
    assert post_form(game.organiser, only.organiser_link.split("testserver", 1)[1]).status_code == 303
    game.start()
    section = unset(game.organiser.get("/").text).split("<h2>Your games</h2>", 1)[1].split("</ul>", 1)[0]
    mine = re.findall(r"<li>(.*?)</li>", section)
    assert len(mine) == 2, mine
    both = mine[0]
    assert both.startswith(f'<a href="{game.base}/play">Both cup</a> (player and organiser, running, ')
    assert 'turn 1: 2 of your orders not ready' in both
    assert both.endswith(
        # The dot is shown, not read ("middle dot").
        f' <span class="sep" aria-hidden="true">·</span> <a href="{game.base}/organise" class="organise-link">'
        'organiser page<span class="visually-hidden"> of Both cup</span></a>'
    )
    assert mine[1] == f'<a href="{only.base}/organise">Organised cup</a> (organiser, lobby)'


def _all_links(page: str) -> list[str]:
    box = re.search(r'<textarea id="all-links" readonly rows="(\d+)"[^>]*>\n(.*?)</textarea>', page, re.S)
    assert box is not None, page
    return html.unescape(box.group(2)).split("\n")


def test_the_created_page_has_every_invite_link_in_one_box_to_copy(app: FastAPI) -> None:
    """Sixteen links are sent in one go: a box below the list holds every invite link, one line
    per seat with its number, and not the organiser link; it works without the script (the copy
    button is hidden until the script shows it). After a rematch it holds the seats still open,
    each with the name it had in the game over."""
    game = host_game(app, arrangement="16-16-1", visibility="private")
    created = post_form(new_client(app), "/games", {
        "name": "Sixteen", "arrangement": "16-16-1", "deadline_hours": "0", "default_bot": "even", "visibility": "public",
    })
    assert created.status_code == 201
    links = re.findall(r'data-player="(p\d+)">.*?<code class="invite">([^<]+)<', created.text)
    assert len(links) == 16
    assert _all_links(created.text) == [f"Seat {pid[1:]}: {link}" for pid, link in links]
    organiser_link = re.search(r'id="organiser-link">([^<]+)<', created.text)
    assert organiser_link is not None and organiser_link.group(1) not in created.text.split('id="all-links"', 1)[1]
    assert re.search(r'<button type="button" id="copy-all" data-copies="all-links" hidden>Copy all 16 invite links', created.text)

    for number, name in ((1, "Org"), (2, "Bo"), (5, "Cy")):
        path = game.invites[f"p{number}"].split("testserver", 1)[1]
        client = game.organiser if number == 1 else new_client(app)
        assert post_form(client, path, {"name": name}).status_code == 303
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    rematch = post_form(game.organiser, f"{game.base}/rematch")
    assert rematch.status_code == 201
    lines = _all_links(rematch.text)
    assert len(lines) == 15 and not any(line.startswith("Seat 1:") for line in lines)
    assert lines[0].startswith("Seat 2 (Bo): http://testserver/join/")
    assert lines[3].startswith("Seat 5 (Cy): http://testserver/join/")
    assert lines[1].startswith("Seat 3: http://testserver/join/")


def test_a_player_in_the_lobby_is_told_the_page_follows_the_game(app: FastAPI) -> None:
    """A player who joined before the start read "Come back to this page once it has", and left
    it, though the page follows the game and shows the first matches by itself as the game starts.
    It says so now, and what to do without the script; the page does poll the game."""
    game = host_game(app)
    player = game.join("p1", "Ann")
    page = html.unescape(player.get(f"{game.base}/play").text)
    assert "Come back to this page" not in page
    assert "shows your first matches as soon as the game starts: it follows the game by itself" in page
    assert f'data-live="/games/{game.public_id}/state?as=player"' in page


def test_resolve_now_asks_what_it_does_with_a_saved_order(app: FastAPI, hosted: Hosted) -> None:
    """*Resolve now* plays an order saved but not marked ready as it was saved, and the autopilot
    only for a team with no order (R13); the question before it says so. It used to say that teams
    without a ready order were played by their autopilot, which would have the organiser wait for a
    player whose saved order already counts."""
    saved, empty = hosted.my_teams("p1")
    assert hosted.order("p1", saved, 5, 3).status_code == 303
    page = hosted.organiser.get(f"{hosted.base}/organise").text
    found = re.search(r'id="resolve" data-confirm="([^"]+)"', page)
    assert found is not None
    question = html.unescape(found.group(1))
    assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"}).status_code == 303
    record = new_client(app).get(f"/api/v1/games/{hosted.public_id}/record").json()
    played = {m[side]: m[f"{side}_order"] for m in record["turns"][0]["matches"] for side in ("home", "away")}
    assert played[saved] == {"force": 5, "flair": 3, "missed": False, "autopilot": None}
    assert played[empty]["missed"] is True
    assert question.startswith("Resolve turn 1 now? An order saved but not marked ready counts as saved;")
    assert "with no order is played by its autopilot (R13)" in question


def test_a_saved_order_says_it_counts_if_the_turn_is_resolved_first(hosted: Hosted) -> None:
    """A player who saved an order without marking it ready is told it is played as saved should
    the deadline or the organiser resolve the turn first (R13: only a team with none plays its
    autopilot), not left to wonder whether it counts."""
    team = hosted.my_teams("p1")[0]
    assert hosted.order("p1", team, 10, 9).status_code == 303
    page = hosted.players["p1"].get(f"{hosted.base}/play").text
    said = re.sub(r"<[^>]+>", "", page.split(f'id="team-{team}"', 1)[1])
    assert "Your order: 10 FORCE + 9 FLAIR, saved, not ready: it is played as saved if the turn is resolved first." in said


def test_a_browser_signed_out_of_its_seat_opening_its_page_is_shown_a_way_out(hosted: Hosted) -> None:
    """The seat's page opened (or reloaded) in a browser the organiser signed out is refused (403)
    with what happened and a link to the game's page. It used to say that nothing was done and to
    go back to the page it came from and reload it: that page, which only refused again."""
    response = post_form(hosted.organiser, f"{hosted.base}/seats/p2/invite", {"sign_out": "yes"})
    assert response.status_code == 200
    page = hosted.players["p2"].get(f"{hosted.base}/play")
    assert page.status_code == 403
    text = html.unescape(re.sub(r"<[^>]+>", "", page.text))
    assert "This browser plays no seat in Friday sevens" in text
    assert "the organiser has signed it out" in text
    assert "nothing was done" not in text and "Go back to the page you came from" not in text
    assert f'<a href="{hosted.base}" id="game-page">' in page.text
    # A stranger opening the address of a seat's page is shown the same way to the game.
    stranger = new_client(hosted.app).get(f"{hosted.base}/play")
    assert stranger.status_code == 403 and f'<a href="{hosted.base}" id="game-page">' in stranger.text


def test_the_created_page_says_until_when_the_invite_links_open_their_seats(app: FastAPI) -> None:
    """An organiser sending the links round learns there, not later on the organiser page, that
    they expire (SEVENS_INVITE_DAYS), and when: the moment the organiser page then gives per seat."""
    organiser = new_client(app)
    created = post_form(organiser, "/games", {"name": "Cup", "arrangement": "6-16-2", "deadline_hours": "24"})
    assert created.status_code == 201
    said = re.search(r'<p id="invites-until">(.*?)</p>', created.text)
    assert said is not None, "the created page does not say when the invites expire"
    until = re.findall(r'<time datetime="([^"]+)">', said.group(1))
    assert "opens its seat once" in said.group(1) and len(until) == 1
    public_id = re.search(r'href="/games/([\w-]+)/organise"', created.text)
    assert public_id is not None
    seats = organiser.get(f"/games/{public_id.group(1)}/organise").text.split('class="seats"', 1)[1]
    assert set(re.findall(r'open until <time datetime="([^"]+)">', seats)) == set(until)


def test_an_order_after_the_deadline_is_refused_though_the_turn_is_not_resolved_yet(
    app: FastAPI, clock: FakeClock, hosted: Hosted
) -> None:
    """The deadline is when orders close: one sent after it, before the scheduler's next look for
    overdue turns (every few seconds, or the first after a restart), is refused with the reason,
    through the page and the API alike, and the team plays its autopilot (R13). Such an order used
    to be taken and played, as if sent in time."""
    team = hosted.my_teams("p1")[0]
    clock.advance(hours=24, seconds=1)
    refused = hosted.order("p1", team, 20, 0, action="ready")
    assert refused.status_code == 409
    assert "the deadline of turn 1 has passed" in html.unescape(refused.text)
    joined = new_client(app).post(
        "/api/v1/join", json={"invite": hosted.new_invite("p2").rsplit("/", 1)[1], "name": "Player 2"}
    ).json()
    bot_team = hosted.my_teams("p2")[0]
    body = {"turn": 1, "force": 20, "flair": 0, "ready": True}
    late = new_client(app).put(
        f"/api/v1/games/{hosted.public_id}/orders/{bot_team}",
        json=body,
        headers={"Authorization": f"Bearer {joined['token']}"},
    )
    assert late.status_code == 409 and "the deadline of turn 1 has passed" in late.json()["detail"]
    assert resolve_due(app.state.sessionmaker, now=clock()) == 1
    record = new_client(app).get(f"/api/v1/games/{hosted.public_id}/record").json()
    played = {m[side]: m[f"{side}_order"] for m in record["turns"][0]["matches"] for side in ("home", "away")}
    assert played[team]["missed"] is True and played[bot_team]["missed"] is True


def test_an_autopilot_chosen_after_the_deadline_is_refused_and_the_turn_plays_the_one_before(
    app: FastAPI, clock: FakeClock, hosted: Hosted
) -> None:
    """R13: the turn is resolved as it stood at its deadline. An autopilot chosen after it, before
    the scheduler's next look for overdue turns, used to be taken and to play that very turn;
    now it is refused (409, through the page and the API), saying it can be chosen again once the
    turn is resolved, and then it plays from the next turn."""
    team = hosted.my_teams("p1")[0]
    joined = new_client(app).post(
        "/api/v1/join", json={"invite": hosted.new_invite("p2").rsplit("/", 1)[1], "name": "Player 2"}
    ).json()
    bearer = {"Authorization": f"Bearer {joined['token']}"}
    bot_team = hosted.my_teams("p2")[0]
    clock.advance(hours=24, seconds=1)
    refused = post_form(hosted.players["p1"], f"{hosted.base}/autopilot", {"team": team, "strategy": "group-blitz"})
    assert refused.status_code == 409
    said = html.unescape(refused.text)
    assert "The autopilot for" in said and "the deadline of turn 1 has passed" in said
    assert "the choice plays from the turn open then" in said
    late = new_client(app).put(
        f"/api/v1/games/{hosted.public_id}/autopilot/{bot_team}", json={"strategy": "group-blitz"}, headers=bearer
    )
    assert late.status_code == 409 and "the deadline of turn 1 has passed" in late.json()["detail"]
    assert resolve_due(app.state.sessionmaker, now=clock()) == 1
    record = new_client(app).get(f"/api/v1/games/{hosted.public_id}/record").json()
    played = {m[side]: m[f"{side}_order"] for m in record["turns"][0]["matches"] for side in ("home", "away")}
    assert played[team]["missed"] and played[bot_team]["missed"]
    assert played[team]["autopilot"] == played[bot_team]["autopilot"] == "even"
    # Once the turn is resolved the choice is taken again, for the next turn on.
    again = new_client(app).put(
        f"/api/v1/games/{hosted.public_id}/autopilot/{bot_team}", json={"strategy": "group-blitz"}, headers=bearer
    )
    assert again.status_code == 200 and again.json()["autopilot"] == "group-blitz"


def test_a_house_bot_chosen_after_the_deadline_is_refused(app: FastAPI, clock: FakeClock) -> None:
    """The organiser's bot for a team nobody plays is held to the deadline as a player's autopilot
    is: chosen after it, it used to play the turn being resolved; now the page says it was not
    changed, and why."""
    game = host_game(app)
    for number in range(1, 4):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    page = game.organiser.get(f"{game.base}/organise").text
    house = re.findall(r'id="house-bot-([\w-]+)"', page)
    assert house, "the seat nobody took has teams with a house bot form"
    clock.advance(hours=24, seconds=1)
    refused = post_form(game.organiser, f"{game.base}/house-bot", {"team": house[0], "strategy": "group-blitz"})
    assert "the deadline of turn 1 has passed" in html.unescape(refused.text)
    assert resolve_due(app.state.sessionmaker, now=clock()) == 1
    record = new_client(app).get(f"/api/v1/games/{game.public_id}/record").json()
    played = {m[side]: m[f"{side}_order"] for m in record["turns"][0]["matches"] for side in ("home", "away")}
    assert played[house[0]]["autopilot"] == "even"


def test_a_refusal_after_the_deadline_holds_when_the_organiser_reopens_the_turn(
    app: FastAPI, clock: FakeClock, hosted: Hosted
) -> None:
    """An order or a bot refused after the deadline was told the turn 'is being resolved', and
    that a bot chosen again would play from the next turn. The organiser may pause or extend
    first, which reopens the turn: the refusals now say so, and they hold: after a pause the same
    order is saved for that turn and the game is waiting again; after an extension a bot chosen
    again plays that very turn."""
    team = hosted.my_teams("p1")[0]
    joined = new_client(app).post(
        "/api/v1/join", json={"invite": hosted.new_invite("p2").rsplit("/", 1)[1], "name": "Player 2"}
    ).json()
    bot = new_client(app)
    bot.headers["Authorization"] = f"Bearer {joined['token']}"
    bot_team = hosted.my_teams("p2")[0]
    body = {"turn": 1, "force": 20, "flair": 0, "ready": False}
    clock.advance(hours=24, seconds=1)
    refusals = [
        html.unescape(hosted.order("p1", team, 20, 0).text),
        bot.put(f"/api/v1/games/{hosted.public_id}/orders/{bot_team}", json=body).json()["detail"],
        html.unescape(post_form(hosted.players["p1"], f"{hosted.base}/autopilot", {"team": team, "strategy": "group-blitz"}).text),
        bot.put(f"/api/v1/games/{hosted.public_id}/autopilot/{bot_team}", json={"strategy": "group-blitz"}).json()["detail"],
    ]
    for said in refusals:
        assert "the deadline of turn 1 has passed" in said and "being resolved" not in said
        assert "unless the organiser first pauses the deadline or extends it to a time still to come" in said
        assert "which reopens the turn" in said
    # The organiser pauses: the turn the refusals named is open again, as they said it might be.
    assert post_form(hosted.organiser, f"{hosted.base}/pause").status_code == 303
    assert [w["turn"] for w in bot.get("/api/v1/waiting").json()] == [1]
    saved = bot.put(f"/api/v1/games/{hosted.public_id}/orders/{bot_team}", json=body)
    assert saved.status_code == 200 and saved.json()["turn"] == 1
    # Resumed with no time left, it is past due again; an extension reopens it once more, and the
    # bot chosen now plays turn 1, the turn open then.
    assert post_form(hosted.organiser, f"{hosted.base}/resume").status_code == 303
    choose = {"team": team, "strategy": "group-blitz"}
    assert post_form(hosted.players["p1"], f"{hosted.base}/autopilot", choose).status_code == 409
    assert post_form(hosted.organiser, f"{hosted.base}/extend", {"hours": "1"}).status_code == 303
    assert post_form(hosted.players["p1"], f"{hosted.base}/autopilot", choose).status_code == 303
    clock.advance(hours=1, seconds=1)
    assert resolve_due(app.state.sessionmaker, now=clock()) == 1
    record = new_client(app).get(f"/api/v1/games/{hosted.public_id}/record").json()
    played = {m[side]: m[f"{side}_order"] for m in record["turns"][0]["matches"] for side in ("home", "away")}
    assert played[team]["missed"] and played[team]["autopilot"] == "group-blitz"
    assert not played[bot_team]["missed"]


def test_a_pause_after_the_deadline_says_resume_would_close_the_turn_at_once(
    app: FastAPI, clock: FakeClock, hosted: Hosted
) -> None:
    """Paused after its deadline, a turn keeps 0 s: the note said only '0 s left when it resumes',
    leaving an organiser who paused to let a late player in to press Resume, which closes the
    orders again at once. It now says so, and that an extension gives the players time, and the
    deadline line of every page says orders are taken meanwhile; a pause with time left says
    nothing of it."""
    clock.advance(hours=1)
    in_time = post_form(hosted.organiser, f"{hosted.base}/pause")
    note = re.search(r'<p class="ok" role="status" id="done">(.*?)</p>', hosted.organiser.get(in_time.headers["location"]).text)
    assert note and note.group(1) == "Deadline paused: 23 h left when it resumes."
    assert post_form(hosted.organiser, f"{hosted.base}/resume").status_code == 303
    clock.advance(hours=23, seconds=1)
    late = post_form(hosted.organiser, f"{hosted.base}/pause")
    note = re.search(r'<p class="ok" role="status" id="done">(.*?)</p>', hosted.organiser.get(late.headers["location"]).text)
    assert note and html.unescape(note.group(1)) == (
        "Deadline paused: 0 s left when it resumes. Turn 1 takes orders again while paused, but Resume would "
        "close them at once: extend first to give the players time."
    )
    # Every page's deadline line said only '0 s left', which reads as no time to order.
    assert '<span id="paused">paused, 0 s left when it resumes (orders are taken until then)</span>' in (
        hosted.players["p1"].get(f"{hosted.base}/play").text
    )


def test_a_turn_past_its_deadline_is_not_listed_as_waiting_for_orders(
    app: FastAPI, clock: FakeClock, hosted: Hosted
) -> None:
    """GET /api/v1/waiting lists the games whose orders a bot should send. After the deadline,
    until the scheduler resolves the turn, it listed the game still, though every order for it is
    refused (409): a bot doing as docs/web.md says (order what is listed, read again after a 409)
    asked and was refused again and again, without a pause, until the turn was resolved."""
    joined = new_client(app).post(
        "/api/v1/join", json={"invite": hosted.new_invite("p2").rsplit("/", 1)[1], "name": "Player 2"}
    ).json()
    bot = new_client(app)
    bot.headers["Authorization"] = f"Bearer {joined['token']}"
    assert [w["turn"] for w in bot.get("/api/v1/waiting").json()] == [1]
    clock.advance(hours=24, seconds=1)
    assert bot.get("/api/v1/waiting").json() == []
    assert resolve_due(app.state.sessionmaker, now=clock()) == 1
    assert [w["turn"] for w in bot.get("/api/v1/waiting").json()] == [2]


def test_sign_out_hint_names_the_link_that_brings_each_browser_back(app: FastAPI) -> None:
    """An organiser's browser comes back by its organiser link, which stays the same; only a seat
    needs a new invite from the organiser. The hint by *Sign out* says which holds here."""
    hosted = host_game(app)
    player = hosted.join("p1", "Ann")
    organiser_only = hosted.organiser.get("/").text
    assert "open your organiser link again" in organiser_only
    assert "ask the organiser for a new invite link" not in organiser_only
    player_only = player.get("/").text
    assert "ask the organiser for a new invite link" in player_only
    assert "organiser link" not in player_only.split('id="sign-out"', 1)[1].split("</section>", 1)[0]
    # The organiser link does bring a signed-out organiser back.
    assert post_form(hosted.organiser, "/signout").status_code == 303
    path = hosted.organiser_link.split("testserver", 1)[1]
    assert post_form(hosted.organiser, path).status_code == 303
    assert "Friday sevens</a> (organiser" in unset(hosted.organiser.get("/").text)


def test_a_knockout_weight_typed_with_a_decimal_comma_is_taken_in_every_weight_box(app: FastAPI) -> None:
    """The weight boxes ask a phone for its decimal keypad (inputmode="decimal"), which in much of
    Europe and South America has a comma and no point: "1,5" was refused there as no number, while
    the hours boxes read it as 1.5. Each weight box now reads a comma as the point, as they do
    (the create form's two, the autopilot's, the organiser's house bot); two separators are still
    refused, in their box, nothing changed."""
    organiser = new_client(app)
    front = organiser.get("/").text
    for box in ("default_bot_weight", "default_autopilot_weight"):
        assert re.search(rf'<input name="{box}" value="" inputmode="decimal"', front), box
    created = post_form(organiser, "/games", {"name": "Comma", "arrangement": "4-16-3", "deadline_hours": "0",
                                               "default_bot": "even", "default_bot_weight": "1,5",
                                               "default_autopilot": "field-reader", "default_autopilot_weight": "0,5",
                                               "visibility": "public"})
    assert created.status_code == 201, created.text
    public_id = re.search(r'href="/games/([\w-]+)/organise"', created.text)
    invite = re.search(r'data-player="p1">.*?<code class="invite">([^<]+)<', created.text)
    link = re.search(r'id="organiser-link">([^<]+)<', created.text)
    assert public_id and invite and link
    game = Hosted(app, public_id[1], organiser, link[1], {"p1": invite[1]})
    api = new_client(app)
    about = api.get(f"/api/v1{game.base}").json()
    assert (about["default_bot"], about["default_autopilot"]) == ("even@1.5", "field-reader@0.5")

    player = game.join("p1", "Solo")
    game.start()
    mine = game.my_teams("p1")[0]
    play = player.get(f"{game.base}/play").text
    assert re.search(r'<input name="weight" value="[^"]*" inputmode="decimal"', play)
    assert post_form(player, f"{game.base}/autopilot",
                     {"team": mine, "strategy": "equilibrium", "weight": "0,4"}).status_code == 303
    refused = post_form(player, f"{game.base}/autopilot", {"team": mine, "strategy": "even", "weight": "1,5,5"})
    assert refused.status_code == 422 and "got &#39;1,5,5&#39;" in refused.text

    organise = game.organiser.get(f"{game.base}/organise").text
    house = re.findall(r'<tr id="house-([\w-]+)">', organise)[0]
    assert re.search(r'<input name="weight" value="[^"]*" inputmode="decimal"', organise)
    assert post_form(game.organiser, f"{game.base}/house-bot",
                     {"team": house, "strategy": "even-flair", "weight": "2,25"}).status_code == 303
    refused = post_form(game.organiser, f"{game.base}/house-bot", {"team": house, "strategy": "even", "weight": "2,,5"})
    assert refused.status_code == 422 and "got &#39;2,,5&#39;" in refused.text

    entry = html.unescape(game.organiser.get(f"{game.base}/organise").text)
    entry = entry[entry.index(f'<tr id="house-{house}">') :].split("</tr>")[0]
    assert re.search(r'<option value="even-flair" title="[^"]+" selected>', entry) and 'name="weight" value="2.25"' in entry
    page = html.unescape(player.get(f"{game.base}/play").text)
    assert "Now: equilibrium@0.4, " in page[page.index(f'value="{mine}"') :]
