"""Which answers go gzipped (sevens.web.compression): those to a browser with no session that
hold no secret (a spectator's game page, team page, big screen, CSVs, record, API view), never one
with a form token, a seat's proof, an invite or organiser link, or any session's text (BREACH); a
page of a session only in what every reader of the game is shown alike, the rest stored as it is."""

from __future__ import annotations

import gzip
import re

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sevens.web.compression import PUBLIC_CLOSE, PUBLIC_OPEN, gzip_public_parts, public_parts
from web.web_helpers import Hosted, csrf, every_seat_taken, host_game, new_client, post_form

GZIP = {"Accept-Encoding": "gzip, deflate, br"}
PLAIN = {"Accept-Encoding": "identity"}


def _sent_zipped(client: TestClient, url: str, headers: dict[str, str] | None = None) -> bool:
    answer = client.get(url, headers={**GZIP, **(headers or {})})
    assert answer.status_code == 200, (url, answer.status_code, answer.text[:300])
    assert "accept-encoding" in answer.headers.get("vary", "").lower() or "content-encoding" not in answer.headers
    return answer.headers.get("content-encoding") == "gzip"


def _wire(client: TestClient, url: str) -> tuple[bytes, bytes, str | None]:
    """The body as it went over the wire, as the browser reads it, and its Content-Encoding."""
    with client.stream("GET", url, headers=GZIP) as answer:
        assert answer.status_code == 200, (url, answer.status_code)
        raw = b"".join(answer.iter_raw())
        encoding = answer.headers.get("content-encoding")
    return raw, gzip.decompress(raw) if encoding == "gzip" else raw, encoding


def _compressed_only_in_public(raw: bytes, body: bytes) -> list[bytes]:
    """Checks that every byte outside the public marks went over the wire as it is (stored, never
    compressed); returns the public pieces."""
    parts = public_parts(body)
    assert parts is not None
    for piece, public in parts:
        if not public:
            assert piece in raw, piece[:200]
    return [piece for piece, public in parts if public]


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


def test_a_visitors_front_page_goes_gzipped_in_its_public_stretches_only(app: FastAPI) -> None:
    """The front page hands a visitor with no session a form token (its create-game form): it goes
    as a session's page does, the blank form's fields and the list of public games compressed, the
    token and every other byte stored, as it is."""
    game = _played(app)  # a public game on the list
    visitor = new_client(app)
    shown = None
    # a first visit (its answer sets the token's cookie), the next (the cookie held), a player's
    for client in (visitor, visitor, game.players["p1"]):
        raw, body, encoding = _wire(client, "/")
        assert encoding == "gzip"
        public = _compressed_only_in_public(raw, body)
        token = re.search(rb'name="csrf" value="([^"]+)"', body)
        assert token is not None and token[1] in raw and not any(token[1] in piece for piece in public)
        assert b'id="public-games"' in b"".join(public) and b'name="deadline_hours"' in b"".join(public)
        shown = shown or public
        assert public == shown  # what every reader of the front page is shown alike
        assert len(raw) < len(body) / 2, (len(raw), len(body))
    answer = visitor.get("/", headers=PLAIN)
    assert "content-encoding" not in answer.headers and "Accept-Encoding" in answer.headers["vary"]


def test_a_front_page_sent_back_with_what_was_typed_compresses_none_of_it(app: FastAPI) -> None:
    """A create form refused comes back holding what was typed: then only the public games are
    marked, never the form."""
    visitor = new_client(app)
    typed = "A name typed " + "x" * 700  # too long: refused
    page = post_form(visitor, "/games", {"name": typed, "arrangement": "4-8-2", "deadline_hours": "0"}).content
    parts = public_parts(page)
    assert typed[:80].encode() in page and parts is not None
    assert [piece[len(PUBLIC_OPEN) :][:25] for piece, public in parts if public] == [b"<section><h2>Public games"]


def test_the_join_and_organiser_link_pages_have_nothing_public_and_go_plain(app: FastAPI) -> None:
    """Each holds a secret in its address and a form's token, and nothing every reader is shown
    alike but a line or two (a 1.2 kB page): no stretch is marked, so it goes as it is."""
    game = _played(app)
    fresh = new_client(app)
    fresh.get("/")
    link = game.organiser_link.split("testserver", 1)[1]
    assert not _sent_zipped(fresh, link), "the organiser link's page holds the link and its form's token"
    invite = game.new_invite("p1").split("testserver", 1)[1]  # for another device: a join page
    assert not _sent_zipped(fresh, invite), "the invite's page holds the invite and its form's token"
    assert "Accept-Encoding" in fresh.get(invite, headers=GZIP).headers["vary"]


def test_a_game_named_as_a_visitors_token_leaves_the_front_page_as_long(app: FastAPI) -> None:
    """BREACH on the front page: a public game named as a guess at a visitor's form token puts the
    guess on the page beside the token. Gzipped whole, the right guess makes the page shorter than
    a wrong one; gzipped in its public stretches, the two go in the same bytes."""
    right, wrong = new_client(app), new_client(app)
    token = csrf(right)
    assert token != csrf(wrong)
    game = host_game(app, hours="0", name=token)
    game.join("p1", "Ann")  # listed once a seat is taken
    (right_raw, right_body, _), (wrong_raw, wrong_body, _) = _wire(right, "/"), _wire(wrong, "/")
    assert right_body.count(token.encode()) == 2 and len(right_body) == len(wrong_body)
    assert len(gzip.compress(right_body)) < len(gzip.compress(wrong_body))  # the oracle, whole
    assert len(right_raw) == len(wrong_raw) < len(right_body) / 2


def test_nothing_of_a_session_is_compressed_but_what_a_spectator_is_shown(app: FastAPI) -> None:
    """A session's page goes gzipped in its bracket, tables and reports only, the very bytes a
    spectator gets on the game page; every other byte (forms, tokens, proofs, orders) goes stored."""
    game = _played(app)
    game.order("p1", game.my_teams("p1")[0], 12, 9)  # a draft order on p1's page
    shown = _compressed_only_in_public(*_wire(new_client(app), game.base)[1:2] * 2)
    player, organiser = game.players["p1"], game.organiser
    for client, url in (
        (player, game.base), (player, f"{game.base}/play"), (organiser, game.base), (organiser, f"{game.base}/organise"),
    ):
        raw, body, encoding = _wire(client, url)
        assert encoding == "gzip", url
        assert _compressed_only_in_public(raw, body) == shown, url
    _compressed_only_in_public(*_wire(organiser, f"{game.base}?screen=1")[:2])  # its bracket has no links
    for client, url in (
        (player, f"{game.base}/matches.csv"), (player, f"{game.base}/record.json"),
        (player, f"/api/v1/games/{game.public_id}"),
    ):
        assert not _sent_zipped(client, url), url
    # any cookie but the form token's (a signed-out mark, one a later version adds) keeps it plain
    stranger = new_client(app)
    assert not _sent_zipped(stranger, f"{game.base}/verify", {"Cookie": "sevens_signed_out=x"})
    assert not _sent_zipped(stranger, f"{game.base}/verify", {"Authorization": "Bearer not-a-token"})


def test_a_players_and_the_organisers_final_pages_go_in_a_fraction_of_their_bytes(app: FastAPI) -> None:
    game = _played(app)
    while turn := game.turn():  # to the end: every report of the game on each page
        game.resolve(turn)
    for client, url in ((game.players["p1"], f"{game.base}/play"), (game.organiser, f"{game.base}/organise")):
        raw, body, encoding = _wire(client, url)
        assert encoding == "gzip" and body.count(b'<article class="match"') >= 14, url
        assert len(raw) < len(body) / 2, (url, len(raw), len(body))
        plain = client.get(url, headers=PLAIN)
        assert "content-encoding" not in plain.headers and "Accept-Encoding" in plain.headers["vary"]


def test_a_guess_at_a_secret_beside_it_changes_nothing_of_the_size() -> None:
    """The BREACH oracle: a page holding a secret and, in a public stretch, text an attacker chose.
    Gzipped whole, a guess matching the secret comes out smaller; in public parts it never does."""
    def page(guess: bytes) -> bytes:
        return (b'<input name="csrf" value="Kx7Qp2Zr9">' + PUBLIC_OPEN + b"<p>manager " + guess
                + b"</p>" + b"<p>report</p>" * 40 + PUBLIC_CLOSE)

    right, wrong = page(b'name="csrf" value="Kx7Qp2Zr9"'), page(b'name="csrf" value="Wm4Tb8Yc1"')
    assert len(gzip.compress(right)) < len(gzip.compress(wrong))  # the oracle, whole
    parted = [gzip_public_parts(public_parts(body) or []) for body in (right, wrong)]
    assert len(parted[0]) == len(parted[1])
    assert [gzip.decompress(p) for p in parted] == [right, wrong]


def test_marks_that_do_not_alternate_open_close_leave_the_page_plain() -> None:
    """A close mark before an open one (or after a close) is no stretch the templates made: the
    page goes plain, as it does for an open mark inside a stretch or one never closed."""
    stretch = PUBLIC_OPEN + b"report" + PUBLIC_CLOSE
    for body in (
        b"token" + PUBLIC_CLOSE + b"secret" + stretch,
        stretch + b"token" + PUBLIC_CLOSE + b"secret" + stretch,
        stretch + PUBLIC_OPEN + b"secret" + stretch,
        stretch + PUBLIC_OPEN + b"secret",
    ):
        assert public_parts(body) is None, body
    assert public_parts(b"token" + stretch + b"form" + stretch) is not None


def test_a_name_cannot_open_or_close_a_public_stretch(app: FastAPI) -> None:
    """A manager's name is on the group tables and reports, in the compressed stretches: written
    as marks, it is escaped like any text and opens or closes nothing."""
    marks = "<!--/public--> <!--public-->"
    game = host_game(app, hours="0", name=marks)
    for seat, player in (("p1", marks), ("p2", "Ben"), ("p3", "Cat"), ("p4", "Dan")):
        game.join(seat, player)
    game.start()
    game.resolve(1)
    for client, url in ((game.players["p2"], f"{game.base}/play"), (game.organiser, f"{game.base}/organise")):
        page = client.get(url, headers=PLAIN).content
        assert b"&lt;!--/public--&gt;" in page and marks.encode() not in page, url
        parts = public_parts(page)
        assert parts is not None and [piece[len(PUBLIC_OPEN) :][:24] for piece, public in parts if public] == [
            b'<section class="tables">', b'<section class="reports"'
        ], url


def test_no_secret_of_anyone_is_ever_compressed(app: FastAPI) -> None:
    """Every page and download each browser reads in a game: none that went gzipped holds a form
    token, a session's secret, an invite or the organiser link but as stored bytes, as they are."""
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
    zipped, held = set(), 0
    for who, client in clients.items():
        for url in urls:
            if client.get(url).status_code != 200:
                continue
            raw, body, encoding = _wire(client, url)
            if encoding != "gzip":
                continue
            zipped.add((who, url))
            if who == "spectator" and not any(secret.encode() in body for secret in secrets):
                continue  # gzipped whole, holding no secret
            public = b"".join(_compressed_only_in_public(raw, body))
            for secret in secrets:
                assert secret.encode() not in public, (who, url)
                held += secret.encode() in body
    # the front page in its public stretches for everyone, its form's token stored
    spectators = {"/", "/how-to-play", f"{game.base}/verify", *_public_reads(game)}
    sessions = {(who, f"{game.base}/{page}") for who, page in (("p1", "play"), ("p2", "play"), ("organiser", "organise"))}
    sessions |= {(who, "/") for who in ("organiser", "p1", "p2")}
    sessions |= {(who, url) for who in ("organiser", "p1", "p2") for url in (game.base, f"{game.base}?screen=1")}
    assert zipped == {("spectator", url) for url in spectators} | sessions
    assert held > 0  # the tokens were on those pages, and went stored


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
