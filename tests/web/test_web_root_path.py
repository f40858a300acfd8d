"""The site under a path of its host (SEVENS_ROOT_PATH=/sevens), behind a reverse proxy that strips it.

The real thing: `sevens serve --root-path /sevens` behind :class:`sevens.web.testing.PrefixProxy`,
which passes on only what is asked under /sevens/ (as nginx's ``location /sevens/`` does) and keeps
whatever else is asked of it: a link, form, redirect or fetch that left the prefix is there.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send

from sevens.store.testing import backends, throwaway_database
from sevens.web.app import create_app
from sevens.web.settings import Settings
from sevens.web.testing import PrefixProxy, host_game
from web.conftest import WebDb
from web.test_web_server import _serving
from web.web_helpers import post_form

ROOT = "/sevens"

_ADDRESS = re.compile(r'\s(href|src|action|data-(?:live|url|odds|canonical|links))="([^"]*)"')


def addresses(page: str) -> list[tuple[str, str]]:
    """Every address a page writes (links, assets, forms, what its script fetches), unescaped."""
    return [(attribute, html.unescape(value)) for attribute, value in _ADDRESS.findall(page)]


def outside(page: str, site: str) -> list[tuple[str, str]]:
    """The addresses of ``page`` that lead out of ``site`` (scheme, host and prefix)."""
    prefix = urlsplit(site).path
    bad = []
    for attribute, value in addresses(page):
        if value.startswith("#"):
            continue
        if value.startswith(("http://", "https://")):
            if not value.startswith(site + "/"):
                bad.append((attribute, value))
        elif not value.startswith(prefix + "/"):
            bad.append((attribute, value))
    return bad


def behind_a_proxy(app: ASGIApp, *, secure: bool = False) -> TestClient:
    """A test client asking for http://testserver/sevens/..., which reaches ``app`` with the
    prefix stripped, as through a proxy (the cookies' Path is then the one the browser sees)."""

    async def stripping(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            assert scope["path"].startswith(ROOT + "/"), f"asked outside the prefix: {scope['path']}"
            scope = {**scope, "path": scope["path"][len(ROOT):], "raw_path": scope["raw_path"][len(ROOT):]}
        await app(scope, receive, send)

    scheme = "https" if secure else "http"
    return TestClient(stripping, base_url=f"{scheme}://testserver{ROOT}", follow_redirects=False)


def within(location: str) -> str:
    """A Location under the prefix as the path the proxied test client asks for."""
    assert location.startswith(ROOT + "/"), location
    return location[len(ROOT):]


@pytest.fixture
def prefixed(web_db: WebDb) -> Iterator[FastAPI]:
    """The app at /sevens on the tests' database (cleared by the autouse fixture of conftest)."""
    settings = Settings(
        database_url=web_db.url, scheduler=False, migrate=False, games_per_hour=0, root_path=ROOT
    )
    application = create_app(settings)
    yield application
    application.state.odds_queue.close()
    application.state.engine.dispose()


def test_pages_redirects_and_cookies_carry_the_prefix(prefixed: FastAPI) -> None:
    """Through the app alone (the test client asks as a stripping proxy does): every address on
    the pages, every Location and the cookies' Path are under /sevens."""
    organiser = behind_a_proxy(prefixed)
    home = organiser.get("/")
    assert home.status_code == 200 and not outside(home.text, "http://testserver" + ROOT)
    assert ' href="/sevens/static/style.css?v=' in home.text and ' action="/sevens/games"' in home.text
    assert "; Path=/sevens;" in home.headers["set-cookie"] + ";"  # the CSRF cookie
    created = post_form(organiser, "/games", {"name": "Cup", "arrangement": "4-8-2", "deadline_hours": "24"})
    assert created.status_code == 201 and not outside(created.text, "http://testserver" + ROOT)
    invite = re.search(r'<code class="invite">([^<]+)<', created.text)
    link = re.search(r'id="organiser-link">([^<]+)<', created.text)
    assert invite and invite.group(1).startswith("http://testserver/sevens/join/")
    assert link and link.group(1).startswith("http://testserver/sevens/organiser/")
    player = behind_a_proxy(prefixed)
    joined = post_form(player, within(urlsplit(invite.group(1)).path), {"name": "Ann"})
    assert joined.status_code == 303 and re.fullmatch(r"/sevens/games/[\w-]+/play", joined.headers["location"])
    assert "sevens_session=" in joined.headers["set-cookie"] and "Path=/sevens;" in joined.headers["set-cookie"] + ";"
    play = player.get(within(joined.headers["location"]))
    assert play.status_code == 200 and not outside(play.text, "http://testserver" + ROOT)
    assert player.get("/favicon.ico").headers["location"] == "/sevens/static/favicon.svg"
    signed_out = post_form(player, "/signout")
    assert signed_out.headers["location"] == "/sevens/"
    # Each cookie on its own line: sign-out also leaves sevens_signed_out, whose Path alone held it.
    lines = {c.split("=", 1)[0]: c for c in signed_out.headers.get_list("set-cookie")}
    assert set(lines) == {"sevens_session", "sevens_signed_out"}, lines
    assert all("Path=/sevens;" in line + ";" for line in lines.values()), lines
    assert "Max-Age=0" in lines["sevens_session"] and "Max-Age=0" not in lines["sevens_signed_out"], lines


def test_secure_cookies_under_a_prefix_are_secure_and_for_its_path(web_db: WebDb) -> None:
    """``__Host-`` cookies must have Path=/, which would send them to every other site on the
    host: under a prefix they are ``__Secure-`` (still only set and sent over HTTPS) for its path,
    and a browser that joined is signed in with them."""
    settings = Settings(database_url=web_db.url, scheduler=False, migrate=False, root_path=ROOT, secure_cookies=True)
    application = create_app(settings)
    try:
        organiser = behind_a_proxy(application, secure=True)
        created = post_form(organiser, "/games", {"name": "Cup", "arrangement": "4-8-2", "deadline_hours": "24"})
        cookie = created.headers["set-cookie"]
        assert cookie.startswith("__Secure-sevens_session=") and "Path=/sevens" in cookie and "Secure" in cookie
        public_id = re.search(r'href="/sevens/games/([\w-]+)/organise"', created.text)
        assert public_id is not None
        assert organiser.get(f"/games/{public_id.group(1)}/organise").status_code == 200  # signed in by it
    finally:
        application.state.odds_queue.close()
        application.state.engine.dispose()


def test_links_shown_with_a_base_url_carry_the_prefix(web_db: WebDb) -> None:
    """SEVENS_BASE_URL names the scheme and host; the links shown to the organiser add the prefix."""
    settings = Settings(
        database_url=web_db.url, scheduler=False, migrate=False, root_path=ROOT, base_url="https://example.org/"
    )
    application = create_app(settings)
    try:
        created = post_form(behind_a_proxy(application), "/games", {"name": "Cup", "arrangement": "4-8-2"})
        assert created.status_code == 201
        links = re.findall(r'<code[^>]*>(https://[^<]+)<', created.text)
        assert len(links) == 5 and all(link.startswith(("https://example.org/sevens/join/",
                                                        "https://example.org/sevens/organiser/")) for link in links)
    finally:
        application.state.odds_queue.close()
        application.state.engine.dispose()


def test_a_proxy_that_does_not_strip_the_prefix_is_told_how_to(prefixed: FastAPI) -> None:
    """nginx's proxy_pass without its last '/' passes /sevens/... on whole: the page and the API
    said only "no such page; check the address", which names nothing to change."""
    client = TestClient(prefixed, follow_redirects=False)  # asks for /sevens/..., as such a proxy does
    for path, kind in (("/sevens/", "text/html"), ("/sevens/api/v1/strategies", "application/json")):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.headers["content-type"].startswith(kind)
        said = "proxy that takes /sevens off each address, but this address still has it; make the proxy strip it"
        assert said in (answer.json()["detail"] if kind == "application/json" else html.unescape(answer.text))
    assert "still has it" not in client.get("/games/nothing").text  # a mistyped address is not taken for it


def test_the_api_and_its_document_carry_the_prefix(prefixed: FastAPI) -> None:
    client = behind_a_proxy(prefixed)
    created = client.post("/api/v1/games", json={"name": "Cup", "players": 4})
    assert created.status_code == 201
    assert created.headers["location"] == f"/sevens/api/v1/games/{created.json()['game']}"
    document = client.get("/api/v1/openapi.json").json()
    assert document["servers"] == [{"url": "/sevens"}]
    # The header's description said '/api/v1/games/{id}' whole, which it is not here: it says where the prefix is.
    said = document["paths"]["/api/v1/games"]["post"]["responses"]["201"]["headers"]["Location"]["description"]
    assert "the path of the URL in `servers`, then /api/v1/games/{id}" in said
    assert created.headers["location"] == document["servers"][0]["url"] + f"/api/v1/games/{created.json()['game']}"
    missing = client.get("/api/v1/nothing-here")
    assert missing.status_code == 404 and "/sevens/api/v1/openapi.json" in missing.json()["detail"]
    # Refusals of the API are still told as JSON, and a method an address does not take with what it does.
    wrong = client.delete("/api/v1/strategies")
    assert wrong.status_code == 405 and wrong.headers["allow"] == "GET, HEAD" and "it takes GET" in wrong.json()["detail"]
    assert client.post("/api/v1/games", json={"name": "Cup"}).json()["detail"]


def _form(page: str, form_id: str) -> tuple[str, dict[str, str]]:
    """A form's action and its hidden fields."""
    found = re.search(rf'<form method="post" action="([^"]+)"[^>]*id="{form_id}"[^>]*>(.*?)</form>', page, re.S)
    assert found is not None, f"no form {form_id}"
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', found.group(2)))
    return html.unescape(found.group(1)), hidden


def _csrf(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


class Browserless:
    """A browser without scripts on the proxy: follows redirects itself, checking each Location and
    every address of every page it is given."""

    def __init__(self, site: str) -> None:
        self.site = site
        self.client = httpx.Client(follow_redirects=False, timeout=60)
        self.pages = 0

    def get(self, url: str) -> httpx.Response:
        return self._checked(self.client.get(urljoin(self.site + "/", url)))

    def post(self, url: str, data: dict[str, str]) -> httpx.Response:
        return self._checked(self.client.post(urljoin(self.site + "/", url), data=data))

    def _checked(self, response: httpx.Response) -> httpx.Response:
        while response.status_code in (301, 302, 303, 307):
            location = response.headers["location"]
            assert location.startswith(urlsplit(self.site).path + "/"), location
            response = self.client.get(urljoin(str(response.url), location))
        assert response.status_code < 400, (response.url, response.status_code, response.text[:500])
        if response.headers.get("content-type", "").startswith("text/html"):
            assert not outside(response.text, self.site), (response.url, outside(response.text, self.site))
            self.pages += 1
        return response


def _a_whole_game_through_the_proxy(site: str) -> None:
    """An organiser creates a game by the pages, four players join by their invite links, all
    order every turn until the final; then bots host and play one by the API."""
    organiser = Browserless(site)
    home = organiser.get(site + "/")
    action, _ = _form(home.text, "create-game")
    created = organiser.post(action, {
        "csrf": _csrf(home.text), "name": "Cup", "arrangement": "4-8-2", "deadline_hours": "0",
        "default_bot": "even", "visibility": "public",
    })
    invites = dict(re.findall(r'data-player="(p\d+)">.*?<code class="invite">([^<]+)<', created.text))
    assert len(invites) == 4 and all(link.startswith(site + "/join/") for link in invites.values())
    organise_url = re.search(r'id="to-organise" href="([^"]+)"', created.text)
    assert organise_url is not None
    players = {}
    for seat, link in invites.items():
        player = Browserless(site)
        page = player.get(link)
        assert '<form method="post" class="form" id="join">' in page.text  # posted to its own address
        play = player.post(link, {"csrf": _csrf(page.text), "name": f"Player {seat}"})
        assert str(play.url).endswith("/play")
        players[seat] = player
    organise = organiser.get(organise_url.group(1))
    action, hidden = _form(organise.text, "start")
    organiser.post(action, {"csrf": _csrf(organise.text), **hidden})
    game_page = urljoin(site + "/", organise_url.group(1).removesuffix("/organise"))
    polled = 0
    for _turn in range(12):
        for player in players.values():
            play = player.get(game_page + "/play")
            forms = re.findall(r'<form method="post" action="([^"]+)" class="order-form" id="[^"]+" data-odds="([^"]+)"', play.text)
            for action, odds in forms:
                form = play.text[play.text.index(f'action="{action}" class="order-form"'):]
                team = re.search(r'data-team="([\w-]+)"', form)
                turn = re.search(r'name="turn" value="(\d+)"', form)
                assert team and turn
                fields = {"csrf": _csrf(play.text), "team": team.group(1), "turn": turn.group(1), "force": "5", "flair": "0"}
                odds_answer = player.client.post(urljoin(site + "/", odds), data={**fields})
                assert odds_answer.status_code == 200, odds_answer.text
                player.post(action, {**fields, "action": "ready"})
            live = re.search(r'data-live="([^"]+)"', play.text)  # what its script polls, while the game runs
            if live is not None:
                assert player.client.get(urljoin(site + "/", html.unescape(live.group(1)))).status_code == 200
                polled += 1
        organise = organiser.get(organise_url.group(1))
        if 'id="resolve"' in organise.text:
            action, hidden = _form(organise.text, "resolve")
            organiser.post(action, {"csrf": _csrf(organise.text), **hidden})
        if 'id="champion"' in organiser.get(game_page).text:
            break
    else:
        raise AssertionError("the game did not reach its final in 12 turns")
    assert polled >= 4
    verify = organiser.get(game_page + "/verify")
    record = re.search(r'href="([^"]+/record\.json)"', verify.text)
    assert record is not None and organiser.get(record.group(1)).json()["format"]

    with httpx.Client(base_url=site, timeout=60) as api:
        assert api.get("/api/v1/openapi.json").json()["servers"] == [{"url": urlsplit(site).path}]
        created_by_api = api.post("/api/v1/games", json={"name": "Bots", "players": 4})
        assert created_by_api.status_code == 201, created_by_api.text
        assert created_by_api.headers["location"] == f"{urlsplit(site).path}/api/v1/games/{created_by_api.json()['game']}"
        hosted = host_game(api, hours=None)
        assert api.get(f"/api/v1/games/{hosted.public_id}", headers=hosted.organiser).status_code == 200


@pytest.mark.parametrize("backend", backends())
def test_a_whole_game_by_pages_and_api_through_a_proxy_that_strips_the_prefix(tmp_path: Path, backend: str) -> None:
    """`sevens serve --root-path /sevens` behind a proxy that serves it at /sevens/: the organiser's
    and players' pages, forms, redirects, polls, odds and the API all stay under /sevens (the proxy
    is never asked for anything else), to the final."""
    with throwaway_database(backend, tmp_path) as url, _serving(
        tmp_path, "--root-path", ROOT, "--trusted-proxies", "127.0.0.1", "--database-url", url
    ) as port, PrefixProxy(f"http://127.0.0.1:{port}", ROOT) as proxy:
        _a_whole_game_through_the_proxy(proxy.url)
        assert proxy.outside == []
        assert any(path.startswith("POST /games/") for path in proxy.passed)  # it went through the proxy
