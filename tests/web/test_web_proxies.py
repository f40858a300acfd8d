"""Behind a reverse proxy (SEVENS_TRUSTED_PROXIES): a request from a trusted proxy is counted
against the client address it forwards (the rightmost hop that is not a trusted proxy) and takes
its scheme from X-Forwarded-Proto; from any other peer both headers are ignored, so a client
cannot pick the address its new games and wrong secrets are counted against."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from httpx import Response
from pydantic import ValidationError

from sevens.web.app import create_app
from sevens.web.security import CSRF_COOKIE, SESSION_COOKIE, SIGNED_OUT_COOKIE
from sevens.web.settings import Settings
from web.conftest import WebDb
from web.web_helpers import TestClient

PROXY = ("10.0.0.2", 41000)  # within the trusted 10.0.0.0/8
STRANGER = ("198.51.100.7", 41000)  # a client connecting directly
API = {"name": "Cup", "players": 4}
HOST = "__Host-"


@pytest.fixture
def proxied(app: FastAPI, web_db: WebDb) -> Iterator[FastAPI]:
    """An app on the test database (emptied by ``app``) behind proxies in 10.0.0.0/8 and ::1,
    allowing one new game per address and hour and two wrong secrets per address and minute."""
    settings = Settings(
        database_url=web_db.url,
        scheduler=False,
        migrate=False,
        games_per_hour=1,
        rate_limit_attempts=2,
        trusted_proxies="10.0.0.0/8, ::1",
    )
    application = create_app(settings)
    yield application
    application.state.engine.dispose()


def _from(app: FastAPI, peer: tuple[str, int]) -> TestClient:
    return TestClient(app, follow_redirects=False, client=peer)


def _create(client: TestClient, forwarded_for: str | None = None) -> int:
    headers = {} if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
    return client.post("/api/v1/games", json=API, headers=headers).status_code


def test_a_trusted_proxy_gives_each_forwarded_client_its_own_allowance(proxied: FastAPI) -> None:
    """Through the proxy, each forwarded address gets its own new game an hour; an address the
    client itself wrote left of the proxy's hop changes nothing, and proxies within the chain are
    skipped."""
    proxy = _from(proxied, PROXY)
    assert _create(proxy, "203.0.113.1") == 201
    assert _create(proxy, "203.0.113.1") == 429
    assert _create(proxy, "203.0.113.99, 203.0.113.1") == 429  # made-up hop on the left
    assert _create(proxy, "203.0.113.1, 10.9.9.9") == 429  # a second proxy of ours in between
    assert _create(proxy, "203.0.113.2") == 201
    assert _create(proxy) == 201  # no header: the proxy's own address, counted once too
    assert _create(proxy) == 429


def test_an_untrusted_peer_cannot_choose_its_address_with_the_headers(proxied: FastAPI) -> None:
    """The same headers from a client connecting directly are ignored: every attempt counts
    against its connection's address, whatever X-Forwarded-For says."""
    stranger = _from(proxied, STRANGER)
    assert _create(stranger, "203.0.113.3") == 201
    for spoofed in ("203.0.113.4", "203.0.113.5, 10.0.0.2", None):
        assert _create(stranger, spoofed) == 429, spoofed
    # The stranger's own address, forwarded by the proxy, is the same key: already used.
    assert _create(_from(proxied, PROXY), STRANGER[0]) == 429


def test_wrong_secrets_are_counted_per_forwarded_client(proxied: FastAPI) -> None:
    """Two wrong bot tokens from one forwarded client hold that client back (429) and no other;
    a direct client's spoofed header does not reset its count."""
    proxy, stranger = _from(proxied, PROXY), _from(proxied, STRANGER)

    def wrong(client: TestClient, forwarded_for: str | None) -> int:
        headers = {"Authorization": "Bearer not-a-token"}
        if forwarded_for is not None:
            headers["X-Forwarded-For"] = forwarded_for
        return client.get("/api/v1/me", headers=headers).status_code

    assert [wrong(proxy, "203.0.113.7") for _ in range(3)] == [401, 401, 429]
    assert wrong(proxy, "203.0.113.8") == 401
    assert [wrong(stranger, f"203.0.113.{n}") for n in (20, 21, 22)] == [401, 401, 429]


def _create_game_over_https(proxy: TestClient, https: dict[str, str]) -> tuple[str, Response]:
    """A new visitor's front page and new game through the proxy over HTTPS: the CSRF cookie's
    Set-Cookie line and the answer to the game's creation."""
    page = proxy.get("/", headers=https)
    line = page.headers["set-cookie"]
    token = page.cookies[HOST + CSRF_COOKIE]
    form = {
        "name": "Cup", "arrangement": "4-8-2", "deadline_hours": "24", "default_bot": "even",
        "visibility": "public", "csrf": token,
    }
    # The test client keeps a Secure cookie from a plain-http address: send it as the browser would.
    created = proxy.post("/games", data=form, headers={**https, "Cookie": f"{HOST}{CSRF_COOKIE}={token}"})
    return line, created


def test_https_at_the_proxy_marks_the_cookies_secure_and_the_links_https(proxied: FastAPI) -> None:
    """X-Forwarded-Proto: https from the proxy makes the CSRF and session cookies Secure and the
    links shown to the organiser https; from a direct client the header is ignored."""
    proxy = _from(proxied, ("::1", 41000))
    https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.30"}
    line, created = _create_game_over_https(proxy, https)
    assert "secure" in line.lower()
    assert created.status_code == 201, created.text
    session = [c for c in created.headers.get_list("set-cookie") if c.startswith(HOST + SESSION_COOKIE)]
    assert session and "secure" in session[0].lower()
    assert "https://testserver/join/" in created.text and "http://testserver/join/" not in created.text

    stranger = _from(proxied, STRANGER)
    plain = stranger.get("/", headers=https)
    assert plain.headers["set-cookie"].startswith(f"{CSRF_COOKIE}=") and "secure" not in plain.headers["set-cookie"].lower()


def test_https_cookies_carry_the_host_prefix_and_a_planted_plain_one_is_ignored(proxied: FastAPI) -> None:
    """Over HTTPS the session and CSRF cookies are __Host- ones (Secure, Path=/, no Domain), which a
    sibling subdomain cannot set; a cookie under the plain name (planted so, or left from before)
    signs nobody in there, and signing out drops the __Host- one. Plain HTTP keeps the plain names."""
    proxy = _from(proxied, ("::1", 41000))
    https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.31"}
    line, created = _create_game_over_https(proxy, https)
    assert line.startswith(f"{HOST}{CSRF_COOKIE}=") and "path=/" in line.lower() and "domain" not in line.lower()
    session_line = next(c for c in created.headers.get_list("set-cookie") if "session" in c)
    assert session_line.startswith(f"{HOST}{SESSION_COOKIE}=")
    assert "secure" in session_line.lower() and "path=/" in session_line.lower() and "domain" not in session_line.lower()
    session = session_line.split(";", 1)[0].split("=", 1)[1]

    def signed_in(cookie: str) -> bool:
        proxy.cookies.clear()
        return "Sign out of this browser" in proxy.get("/", headers={**https, "Cookie": cookie}).text

    assert signed_in(f"{HOST}{SESSION_COOKIE}={session}")
    assert not signed_in(f"{SESSION_COOKIE}={session}")  # the plain name is not read over HTTPS
    proxy.cookies.clear()
    page = proxy.get("/", headers={**https, "Cookie": f"{HOST}{SESSION_COOKIE}={session}"})
    token = page.text.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    out = proxy.post(
        "/signout", data={"csrf": token}, headers={**https, "Cookie": f"{HOST}{SESSION_COOKIE}={session}"}
    )
    dropped = [c for c in out.headers.get_list("set-cookie") if c.startswith(f"{HOST}{SESSION_COOKIE}=")]
    assert out.status_code == 303 and dropped and "secure" in dropped[0].lower()
    # The cookie sign-out leaves is kept as the session's was: __Host-, Secure, HttpOnly, Lax, as long.
    left = next(c for c in out.headers.get_list("set-cookie") if c.startswith(f"{HOST}{SIGNED_OUT_COOKIE}="))
    parts = {p.strip().split("=", 1)[0].lower() for p in left.split(";")[1:]}
    assert {"secure", "httponly", "path", "max-age", "samesite"} <= parts and "domain" not in parts, left
    assert "samesite=lax" in left.lower() and "path=/;" in left.lower() + ";", left
    assert _max_age(left) == _max_age(session_line) > 0
    assert session not in left  # the ended session's form token, never its secret


def _max_age(cookie: str) -> int:
    return int(cookie.lower().split("max-age=", 1)[1].split(";", 1)[0])


def test_https_answers_tell_the_browser_to_keep_to_https(proxied: FastAPI) -> None:
    """Strict-Transport-Security on every answer to a request that came over HTTPS (a page, the
    API, a static file, a refusal), so a browser never again sends its cookie over plain HTTP;
    never over plain HTTP itself (a browser ignores it there, and a site tried out on http must not
    be locked to https), nor for a client that only claims HTTPS in the header."""
    https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.31"}
    proxy, stranger = _from(proxied, ("::1", 41000)), _from(proxied, STRANGER)
    for path in ("/", "/api/v1/strategies", "/static/style.css", "/games/nope"):
        answer = proxy.get(path, headers=https)
        assert answer.headers.get("strict-transport-security") == "max-age=31536000", path
        for answer in (proxy.get(path), stranger.get(path, headers=https)):
            assert "strict-transport-security" not in answer.headers, path
    direct = TestClient(proxied, base_url="https://testserver").get("/")
    assert direct.headers.get("strict-transport-security") == "max-age=31536000"


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("10.0.0.1/8", "write the network as 10.0.0.0/8, or the one address as 10.0.0.1"),
        ("127.0.0.1, proxy.local", "'proxy.local' is not an IP address or network"),
        ("*", "'*' would let any client set its own address"),
        ("10.0.0.0/33", "'10.0.0.0/33' is not an IP address or network"),
    ],
)
def test_a_bad_proxy_setting_is_refused_saying_what_and_how(value: str, words: str) -> None:
    with pytest.raises(ValidationError) as refused:
        Settings(database_url="sqlite://", trusted_proxies=value)
    assert words in str(refused.value) and "SEVENS_TRUSTED_PROXIES" in str(refused.value)


def test_an_ipv6_client_is_counted_by_its_64_network(proxied: FastAPI) -> None:
    """A host on IPv6 is given a whole /64 and may use any address in it: counted by address, it
    had a new allowance of games (and of wrong secrets) per address, billions of them. Each /64
    is one client now, directly and through the proxy; another /64 is another client."""
    first = _from(proxied, ("2001:db8:1:2::1", 41000))
    assert _create(first) == 201
    assert _create(_from(proxied, ("2001:db8:1:2:ffff:1234:5678:9abc", 41000))) == 429
    assert _create(_from(proxied, PROXY), "[2001:db8:1:2::77]:443") == 429
    assert _create(_from(proxied, ("2001:db8:1:3::1", 41000))) == 201
    # An IPv4 client reached over IPv6 (mapped) is that IPv4 address alone, not its /64.
    assert _create(_from(proxied, ("::ffff:203.0.113.8", 41000))) == 201
    assert _create(_from(proxied, ("::ffff:203.0.113.9", 41000))) == 201
    assert _create(_from(proxied, PROXY), "203.0.113.8") == 429
