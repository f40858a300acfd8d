"""The API against hostile and careless input: NaN and Infinity, which Python's JSON reads as
numbers, and numbers in an address written as int() reads them but the pages do not. Never a
500; a refusal is a 4xx whose ``detail`` says what was wrong, and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI

from web.test_web_bad_input import snapshot
from web.web_helpers import TestClient, new_client

JSON = {"Content-Type": "application/json"}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _running(app: FastAPI) -> tuple[TestClient, dict[str, Any]]:
    """A started game with a deadline, made by API: the organiser's and p1's headers, p1's first
    team, and an invite nobody has used."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Hostile", "players": 4, "deadline_hours": 24}).json()
    game, organiser = created["game"], _bearer(created["token"])
    joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ana"}).json()
    p1 = _bearer(joined["token"])
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    team = client.get(f"/api/v1/games/{game}", headers=p1).json()["my_teams"][0]["team"]
    return client, {"game": game, "organiser": organiser, "p1": p1, "team": team, "invite": created["invites"]["p2"]}


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_said_to_be_no_number_of_hours(app: FastAPI, number: str) -> None:
    """``{"hours": NaN}`` was told "Input should be less than or equal to 720" (NaN compares
    false with every bound, so the bound named was whichever came first), and -Infinity "greater
    than 0": neither says what was wrong. Now each says that NaN and Infinity are not taken."""
    client, world = _running(app)
    at = f"/api/v1/games/{world['game']}"
    cases = [
        (f"{at}/extend", world["organiser"], f'{{"hours": {number}}}', "hours"),
        (f"{at}/deadline", world["organiser"], f'{{"hours": {number}}}', "hours"),
        ("/api/v1/games", {}, f'{{"name": "N", "players": 4, "deadline_hours": {number}}}', "deadline_hours"),
    ]
    for url, headers, body, field in cases:
        before = snapshot(app)
        answer = client.post(url, content=body.encode(), headers={**headers, **JSON})
        assert answer.status_code == 422, (url, answer.text)
        assert answer.json() == {"detail": f"{field}: NaN and Infinity are not taken here; send a finite number"}
        assert snapshot(app) == before, url


@pytest.mark.parametrize("typed", ["3_0", "3.0", "\u0663", "1e1", ""])
def test_the_odds_read_a_number_in_the_address_as_the_pages_do(app: FastAPI, typed: str) -> None:
    """``GET .../odds?force=3_0`` answered the odds of a FORCE of 30 and ``?force=3.0`` of 3, where
    the pages refuse both ("a whole number"): the address is read with ASCII digits alone now, and
    the refusal quotes what was sent."""
    client, world = _running(app)
    url = f"/api/v1/games/{world['game']}/teams/{world['team']}/odds"
    answer = client.get(url, params={"force": typed}, headers=world["p1"])
    assert answer.status_code == 422, answer.text
    assert answer.json() == {
        "detail": f"force: a whole number written with the digits 0-9 alone, such as 12, got {typed!r}"
    }
    # What the pages read, the address still does: spaces around, a sign, leading zeros.
    for fine, read in [(" 30 ", 30), ("+3", 3), ("0012", 12)]:
        answer = client.get(url, params={"force": fine}, headers=world["p1"])
        assert answer.status_code == 200 and answer.json()["order"]["force"] == read, (fine, answer.text)
