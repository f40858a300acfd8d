"""Every status an API operation answers is one its entry in the OpenAPI document lists, found
with real requests against the app rather than taken from the code: the refusals any operation
can give whatever it does. A body over the limit gets 413 before it is read, so also where the
operation takes none; a Host the server does not answer to on a loopback connection gets 400
(DNS rebinding, sevens.web.hosts); and a NUL character in an id, name or link gets 400 on
PostgreSQL, which refuses to look one up (SQLite finds nothing: 404 or 422)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from fastapi import FastAPI

from web.web_helpers import TestClient, new_client

NUL = "x\x00y"

BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/api/v1/join"): {"invite": "an-invite", "name": "Bot"},
    ("put", "/api/v1/games/{public_id}/orders/{team}"): {"turn": 1, "force": 3, "flair": 3},
    ("put", "/api/v1/games/{public_id}/autopilot/{team}"): {"strategy": "even"},
    ("post", "/api/v1/games/{public_id}/teams/{team}/odds"): {"force": 3, "flair": 3},
    ("post", "/api/v1/games"): {"name": "Cup", "players": 4, "default_bot": "even", "visibility": "public"},
    ("post", "/api/v1/games/{public_id}/resolve"): {"turn": 1},
    ("post", "/api/v1/games/{public_id}/extend"): {"hours": 1},
    ("put", "/api/v1/games/{public_id}/house-bot/{team}"): {"strategy": "even"},
    ("post", "/api/v1/games/{public_id}/deadline"): {"hours": 2},
    ("post", "/api/v1/organise"): {"link": "a-link"},
}
"""A body of each operation that takes one, its strings to be replaced with a NUL one by one."""


@dataclass
class Running:
    client: TestClient
    auth: dict[str, str]  # organises the game and plays seat p1
    values: dict[str, str]  # the path parameters: the game's id, one of p1's teams, a seat


@pytest.fixture
def running(app: FastAPI) -> Running:
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Statuses", "players": 4}).json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Both"}, headers=auth)
    assert joined.status_code == 200, joined.text
    assert client.post(f"/api/v1/games/{created['game']}/start", headers=auth).status_code == 200
    mine = client.get(f"/api/v1/games/{created['game']}", headers=auth).json()["my_teams"]
    # p3, a seat nobody has taken: no operation probed here hands the token's own seat to the bots.
    return Running(client, auth, {"public_id": created["game"], "team": mine[0]["team"], "player": "p3"})


def _operations(client: TestClient) -> Iterator[tuple[str, str, dict[str, Any]]]:
    document = client.get("/api/v1/openapi.json").json()
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


def _listed(operation: dict[str, Any]) -> set[int]:
    return {int(code) for code in operation["responses"]}


def _url(path: str, values: dict[str, str]) -> str:
    return path.format(**{name: quote(value, safe="") for name, value in values.items()})


def test_a_body_over_the_limit_is_listed_for_every_operation(app: FastAPI, running: Running) -> None:
    """413 for every operation, those that take no body too: the limit is checked first."""
    too_big = b" " * (app.state.settings.max_body_bytes + 1)
    unlisted = []
    for method, path, operation in _operations(running.client):
        response = running.client.request(
            method, _url(path, running.values), content=too_big,
            headers={**running.auth, "Content-Type": "application/json"},
        )
        assert response.status_code == 413, (method, path, response.status_code, response.text[:200])
        if 413 not in _listed(operation):
            unlisted.append(f"{method.upper()} {path}")
    assert not unlisted, f"answer 413 but do not list it: {unlisted}"


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "br"])
def test_a_body_with_a_content_encoding_is_refused_by_every_operation(running: Running, encoding: str) -> None:
    """A body sent with ``Content-Encoding: gzip`` was read as if it were plain: the server decodes
    no request body, so every operation (those that take no body too) now answers 415 saying the
    body must come without a content encoding, lists 415, and does nothing."""
    before = running.client.get(_url("/api/v1/games/{public_id}", running.values), headers=running.auth).json()
    unlisted = []
    for method, path, operation in _operations(running.client):
        body = json.dumps(BODIES.get((method, path), {})).encode()
        response = running.client.request(
            method, _url(path, running.values), content=gzip.compress(body),
            headers={**running.auth, "Content-Type": "application/json", "Content-Encoding": encoding},
        )
        assert response.status_code == 415, (method, path, response.status_code, response.text[:200])
        assert response.json()["detail"].startswith(
            f"the request body must be sent without a content encoding (this one came with Content-Encoding: '{encoding}')"
        )
        if 415 not in _listed(operation):
            unlisted.append(f"{method.upper()} {path}")
    assert not unlisted, f"answer 415 but do not list it: {unlisted}"
    after = running.client.get(_url("/api/v1/games/{public_id}", running.values), headers=running.auth).json()
    assert after == before


def test_a_foreign_host_is_listed_for_every_operation(app: FastAPI, running: Running) -> None:
    """400 for every operation reached on a loopback address under a name it does not answer to."""
    local = TestClient(app, base_url="http://127.0.0.1:8000", follow_redirects=False)
    unlisted = []
    for method, path, operation in _operations(running.client):
        body = BODIES.get((method, path))
        response = local.request(
            method, _url(path, running.values), json=body, headers={**running.auth, "Host": "rebound.example"}
        )
        assert response.status_code == 400, (method, path, response.status_code, response.text[:200])
        if 400 not in _listed(operation):
            unlisted.append(f"{method.upper()} {path}")
    assert not unlisted, f"answer 400 but do not list it: {unlisted}"


def _with_a_nul(method: str, path: str, values: dict[str, str]) -> Iterator[tuple[str, str, Any]]:
    """Each request of the operation with one of its path parameters or body strings a NUL one."""
    body = BODIES.get((method, path))
    for name in values:
        if "{" + name + "}" in path:
            yield name, _url(path, {**values, name: NUL}), body
    for field, value in (body or {}).items():
        if isinstance(value, str):
            yield field, _url(path, values), {**(body or {}), field: NUL}


def test_a_nul_in_an_id_name_or_link_answers_a_listed_status(running: Running) -> None:
    """Whatever a NUL gets (400 on PostgreSQL, a 404 or 422 on SQLite), the operation lists it;
    every operation taking a body has one here, so a new one is probed too. The token is kept for
    last: no request here revokes it (DELETE /me takes nothing a NUL could be put in)."""
    unlisted, probed = [], 0
    for method, path, operation in _operations(running.client):
        assert ("requestBody" in operation) == ((method, path) in BODIES), (method, path)
        for where, url, body in _with_a_nul(method, path, running.values):
            probed += 1
            response = running.client.request(method, url, json=body, headers=running.auth)
            assert response.status_code < 500, (method, path, where, response.text[:200])
            if response.status_code not in _listed(operation):
                unlisted.append(f"{method.upper()} {path} ({where}): {response.status_code}")
    assert probed > 25
    assert not unlisted, f"answers it does not list: {unlisted}"


@pytest.mark.parametrize("condition", ['"a-tag"', "*", 'W/"a-tag", "another"'])
def test_a_write_sent_with_if_match_is_refused_and_not_done(running: Running, condition: str) -> None:
    """If-Match was ignored: an order, a resolve, a token's revocation... was done whatever the
    header said, so a client counting on it not to overwrite a newer state was wrong unawares. No
    write answers with an ETag for a tag to match (RFC 9110 13.1.1), so every write now answers
    412 saying to send it without, lists 412, and does nothing; a read with If-Match is read."""
    before = running.client.get(_url("/api/v1/games/{public_id}", running.values), headers=running.auth).json()
    unlisted, writes = [], 0
    for method, path, operation in _operations(running.client):
        response = running.client.request(
            method, _url(path, running.values), json=BODIES.get((method, path)),
            headers={**running.auth, "If-Match": condition},
        )
        if method == "get":
            assert response.status_code != 412 and 412 not in _listed(operation), (path, response.text[:200])
            continue
        writes += 1
        assert response.status_code == 412, (method, path, response.status_code, response.text[:200])
        assert response.json()["detail"].startswith("this API does not take If-Match (no write has an ETag to match)")
        if 412 not in _listed(operation):
            unlisted.append(f"{method.upper()} {path}")
    assert writes == 21
    assert not unlisted, f"answer 412 but do not list it: {unlisted}"
    after = running.client.get(_url("/api/v1/games/{public_id}", running.values), headers=running.auth).json()
    assert after == before


@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded", "text/json"])
def test_a_json_body_under_another_content_type_is_refused_as_such(running: Running, kind: str | None) -> None:
    """A right JSON object sent as text/plain (curl -d sends a form's type) was answered 422 "the
    request body must be a JSON object", which it was: the trouble is its Content-Type, which
    FastAPI reads no JSON under. Every operation taking a body now answers 415 naming the type
    sent and the one it takes, lists 415, and does nothing; a JSON subtype (+json) is JSON."""
    before = running.client.get(_url("/api/v1/games/{public_id}", running.values), headers=running.auth).json()
    unlisted = []
    for method, path, operation in _operations(running.client):
        if (method, path) not in BODIES:
            continue
        headers = {**running.auth, **({} if kind is None else {"Content-Type": kind})}
        sent = json.dumps(BODIES[(method, path)]).encode()
        response = running.client.request(method, _url(path, running.values), content=sent, headers=headers)
        assert response.status_code == 415, (method, path, response.status_code, response.text[:200])
        named = "a body with no Content-Type" if kind is None else f"a body of type '{kind}'"
        assert response.json()["detail"] == (
            f"this operation takes a JSON object sent as Content-Type: application/json, not {named}; nothing was done"
        )
        if 415 not in _listed(operation):
            unlisted.append(f"{method.upper()} {path}")
    assert not unlisted, f"answer 415 but do not list it: {unlisted}"
    after = running.client.get(_url("/api/v1/games/{public_id}", running.values), headers=running.auth).json()
    assert after == before
    odds = _url("/api/v1/games/{public_id}/teams/{team}/odds", running.values)
    typed = {**running.auth, "Content-Type": "application/merge-patch+json; charset=utf-8"}
    assert running.client.post(odds, content=b'{"force": 3, "flair": 3}', headers=typed).status_code == 200
