"""Which answers go gzipped (sevens.web.compression): those to a browser with no session that
hold no secret (a spectator's game page, team page, big screen, CSVs, record, API view), never one
with a form token, a seat's proof, an invite or organiser link, or any session's text (BREACH)."""

from __future__ import annotations

import re

from fastapi import FastAPI
from fastapi.testclient import TestClient

from web.web_helpers import Hosted, every_seat_taken, new_client

GZIP = {"Accept-Encoding": "gzip, deflate, br"}
PLAIN = {"Accept-Encoding": "identity"}


def _sent_zipped(client: TestClient, url: str, headers: dict[str, str] | None = None) -> bool:
    answer = client.get(url, headers={**GZIP, **(headers or {})})
    assert answer.status_code == 200, (url, answer.status_code, answer.text[:300])
    assert "accept-encoding" in answer.headers.get("vary", "").lower() or "content-encoding" not in answer.headers
    return answer.headers.get("content-encoding") == "gzip"


def _played(app: FastAPI) -> Hosted:
    game = every_seat_taken(app)
    game.resolve(1)  # match reports on the pages, rows in the CSVs
    return game


def _public_reads(game: Hosted) -> list[str]:
    team = game.my_teams("p1")[0]
    return [
        # not standing.csv: only its header line before the final, too small to shrink
        game.base, f"{game.base}?screen=1", f"{game.base}/teams/{team}", f"{game.base}/matches.csv",
        f"{game.base}/record.json", f"/api/v1/games/{game.public_id}",
    ]


def test_a_spectators_pages_csvs_and_record_go_gzipped_and_read_the_same(app: FastAPI) -> None:
    game = _played(app)
    spectator = new_client(app)
    for url in _public_reads(game):
        zipped = spectator.get(url, headers=GZIP)
        assert zipped.headers.get("content-encoding") == "gzip", url
        assert "Accept-Encoding" in zipped.headers["vary"], url
        plain = spectator.get(url, headers=PLAIN)
        assert "content-encoding" not in plain.headers and "Accept-Encoding" in plain.headers["vary"], url
        # the same text either way, in fewer bytes gzipped (a game page at turn 2: about a tenth)
        assert zipped.content == plain.content, url
        assert int(zipped.headers["content-length"]) < len(plain.content), url


def test_a_spectator_who_has_the_form_token_cookie_still_gets_the_game_page_gzipped(app: FastAPI) -> None:
    game = _played(app)
    spectator = new_client(app)
    spectator.get("/")  # the front page's form sets the double-submit cookie
    assert spectator.cookies
    assert _sent_zipped(spectator, game.base)


def test_a_page_with_a_form_token_is_never_gzipped(app: FastAPI) -> None:
    game = _played(app)
    spectator = new_client(app)
    spectator.get("/")
    # the front page (its create-game form) for a browser that already has its token cookie: no
    # cookie is set, no session is sent, only the token on the page keeps it plain
    answer = spectator.get("/", headers=GZIP)
    assert 'name="csrf"' in answer.text and "set-cookie" not in answer.headers
    assert "content-encoding" not in answer.headers
    fresh = new_client(app)
    fresh.get("/")
    link = game.organiser_link.split("testserver", 1)[1]
    assert not _sent_zipped(fresh, link), "the organiser link's page holds the link and its form's token"
    invite = game.new_invite("p1").split("testserver", 1)[1]  # for another device: a join page
    assert not _sent_zipped(fresh, invite), "the invite's page holds the invite and its form's token"


def test_nothing_of_a_session_is_gzipped(app: FastAPI) -> None:
    game = _played(app)
    player, organiser = game.players["p1"], game.organiser
    for client, url in (
        (player, game.base), (player, f"{game.base}/play"), (player, f"{game.base}/matches.csv"),
        (player, f"{game.base}/record.json"), (organiser, game.base), (organiser, f"{game.base}?screen=1"),
        (organiser, f"{game.base}/organise"), (player, f"/api/v1/games/{game.public_id}"),
    ):
        assert not _sent_zipped(client, url), url
    # any cookie but the form token's (a signed-out mark, one a later version adds) keeps it plain
    stranger = new_client(app)
    assert not _sent_zipped(stranger, game.base, {"Cookie": "sevens_signed_out=x"})
    assert not _sent_zipped(stranger, game.base, {"Authorization": "Bearer not-a-token"})


def test_no_secret_of_anyone_is_ever_in_a_gzipped_answer(app: FastAPI) -> None:
    """Every page and download each browser reads in a game, and whether it went gzipped: none that
    did holds a form token, a session's secret, an invite or the organiser link."""
    game = _played(app)
    spectator = new_client(app)
    spectator.get("/")
    clients = {"organiser": game.organiser, "p1": game.players["p1"], "p2": game.players["p2"],
               "spectator": spectator}
    urls = [
        "/", "/how-to-play", f"{game.base}/play", f"{game.base}/organise", f"{game.base}/who-ordered",
        f"{game.base}/state", f"{game.base}/verify", game.organiser_link.split("testserver", 1)[1],
        *_public_reads(game),
    ]
    secrets = {game.organiser_link.rsplit("/", 1)[1], *(i.rsplit("/", 1)[1] for i in game.invites.values())}
    for client in clients.values():
        secrets |= {value for value in client.cookies.values() if len(value) > 8}
        secrets |= set(re.findall(r'name="csrf" value="([^"]+)"', client.get("/").text))
    zipped = set()
    for who, client in clients.items():
        for url in urls:
            answer = client.get(url, headers=GZIP)
            if answer.headers.get("content-encoding") == "gzip":
                zipped.add((who, url))
                for secret in secrets:
                    assert secret not in answer.text, (who, url)
    spectators = {"/how-to-play", f"{game.base}/verify", *_public_reads(game)}
    assert zipped == {("spectator", url) for url in spectators}


def test_an_etag_differs_between_the_encodings_and_each_gets_its_304(app: FastAPI) -> None:
    game = _played(app)
    spectator = new_client(app)
    url = f"/api/v1/games/{game.public_id}"
    zipped, plain = spectator.get(url, headers=GZIP), spectator.get(url, headers=PLAIN)
    zipped_tag, plain_tag = zipped.headers["etag"], plain.headers["etag"]
    assert zipped_tag == plain_tag[:-1] + '-gzip"'
    again = spectator.get(url, headers={**GZIP, "If-None-Match": zipped_tag})
    assert again.status_code == 304 and again.headers["etag"] == zipped_tag and not again.content
    assert "Accept-Encoding" in again.headers["vary"]
    assert spectator.get(url, headers={**PLAIN, "If-None-Match": plain_tag}).status_code == 304
    # a gzipped body's tag names no plain body: the full answer comes again
    other = spectator.get(url, headers={**PLAIN, "If-None-Match": zipped_tag})
    assert other.status_code == 200 and other.headers["etag"] == plain_tag


def test_a_poll_too_small_to_shrink_goes_as_it_is(app: FastAPI) -> None:
    game = _played(app)
    answer = new_client(app).get(f"{game.base}/state", headers=GZIP)
    assert answer.status_code == 200 and len(answer.content) < 200
    assert "content-encoding" not in answer.headers and "Accept-Encoding" in answer.headers["vary"]


def test_a_page_reloaded_unchanged_is_gzipped_once_and_kept(app: FastAPI) -> None:
    game = _played(app)
    kept = app.state.gzip_kept
    spectators = [new_client(app) for _ in range(3)]
    first = spectators[0].get(game.base, headers=GZIP)
    hits, misses = kept.hits, kept.misses
    for spectator in spectators:  # three browsers, the same page: the bytes gzipped before
        again = spectator.get(game.base, headers=GZIP)
        assert again.headers["content-length"] == first.headers["content-length"]
    assert (kept.hits - hits, kept.misses - misses) == (3, 0)
    game.resolve(2)  # a new page, gzipped afresh
    spectators[0].get(game.base, headers=GZIP)
    assert kept.misses - misses == 1
