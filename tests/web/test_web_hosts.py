"""The Host check against DNS rebinding (sevens.web.hosts), in process: which names a request may
carry on a loopback connection and on one from the network, with and without the settings.
(tests/web/test_web_server.py checks the same through `sevens serve` itself.)"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from pydantic import ValidationError

from sevens.web.app import create_app
from sevens.web.settings import Settings
from web.conftest import WebDb
from web.web_helpers import TestClient

API = {"name": "Cup", "players": 4}


@pytest.fixture
def make_app(app: FastAPI, web_db: WebDb) -> Iterator[Callable[..., FastAPI]]:
    made: list[FastAPI] = []

    def build(**settings: str) -> FastAPI:
        application = create_app(Settings(database_url=web_db.url, scheduler=False, migrate=False, **settings))
        made.append(application)
        return application

    yield build
    for application in made:
        application.state.engine.dispose()


def _client(app: FastAPI, server: str) -> TestClient:
    # The test client's connection arrives on the address of its base URL (scope["server"]).
    return TestClient(app, base_url=f"http://{server}", follow_redirects=False)


def test_a_loopback_connection_must_name_a_loopback_host(make_app: Callable[..., FastAPI]) -> None:
    """On 127.0.0.1 a rebound name gets 400 (JSON on the API, nothing created); the loopback names
    and the base URL's host answer."""
    app = make_app(base_url="https://games.example.org")
    local = _client(app, "127.0.0.1:8000")
    for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST", "games.example.org"):
        assert local.get("/", headers={"Host": host}).status_code == 200, host
    refused = local.post("/api/v1/games", json=API, headers={"Host": "rebound.example:8000"})
    assert refused.status_code == 400
    assert "SEVENS_ALLOWED_HOSTS" in refused.json()["detail"] and "rebound.example" in refused.json()["detail"]
    page = local.get("/", headers={"Host": "rebound.example"})
    assert page.status_code == 400 and "content-security-policy" in page.headers


def test_a_refused_host_is_quoted_cut_short_as_other_values_sent_are(make_app: Callable[..., FastAPI]) -> None:
    """The refusal quoted the Host header whole, however long it came (a header of thousands of
    characters came back in full), unlike every other value a request sends; a host name DNS
    allows (up to 253 characters) is still quoted whole, for the operator to copy."""
    local = _client(make_app(), "127.0.0.1:8000")
    long_name = "a" * 3000 + ".example"
    refused = local.get("/", headers={"Host": long_name})
    assert refused.status_code == 400
    assert len(refused.text) < 600 and "(3,008 characters)" in refused.text
    longest = ".".join(["b" * 63] * 3) + ".example"  # 199 characters, a name DNS allows
    refused = local.post("/api/v1/games", json=API, headers={"Host": longest})
    assert refused.status_code == 400 and repr(longest) in refused.json()["detail"]


def test_a_network_connection_names_any_host_until_a_list_is_set(make_app: Callable[..., FastAPI]) -> None:
    """Reached over the network (`--host 0.0.0.0`) any name goes through by default; with a list,
    only the listed and the loopback ones do; `*` lets every name through on loopback too."""
    open_app = _client(make_app(), "192.168.1.20:8000")
    assert open_app.get("/", headers={"Host": "mybox.local:8000"}).status_code == 200
    listed = make_app(allowed_hosts="mybox.local, 192.168.1.20")
    network = _client(listed, "192.168.1.20:8000")
    assert network.get("/", headers={"Host": "mybox.local:8000"}).status_code == 200
    assert network.get("/", headers={"Host": "192.168.1.20:8000"}).status_code == 200
    assert network.get("/", headers={"Host": "rebound.example"}).status_code == 400
    anything = _client(make_app(allowed_hosts="*"), "127.0.0.1:8000")
    assert anything.get("/", headers={"Host": "rebound.example"}).status_code == 200


def test_a_url_in_the_setting_is_refused_saying_how_to_write_it() -> None:
    with pytest.raises(ValidationError, match="give names only"):
        Settings(database_url="sqlite://", allowed_hosts="https://games.example.org/")
