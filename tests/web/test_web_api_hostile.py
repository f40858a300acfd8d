"""The API against hostile and careless input: NaN and Infinity, which Python's JSON reads as
numbers; numbers in an address written as int() reads them but the pages do not; and bodies
Hypothesis writes: wrong types, huge numbers, odd Unicode, missing, extra and duplicate keys.
Never a 500; a refusal is a 4xx whose ``detail`` says what was wrong, and the game reads the
same through the API afterwards."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


@pytest.mark.parametrize("typed", ["True", "TRUE", "1", "yes", "on", "t", "0", "False", "no", " true", ""])
def test_latest_only_in_the_address_is_true_or_false_as_json_writes_them(app: FastAPI, typed: str) -> None:
    """``GET .../odds?latest_only=`` takes the POST body's ``latest_only``, spelt as there: pydantic
    alone read 1, yes, on, t and True as true (and their opposites as false), which the body
    refuses; each is refused with what to send, quoting what was sent."""
    client, world = _running(app)
    url = f"/api/v1/games/{world['game']}/teams/{world['team']}/odds"
    answer = client.get(url, params={"force": 3, "latest_only": typed}, headers=world["p1"])
    assert answer.status_code == 422, answer.text
    assert answer.json() == {"detail": f"latest_only: true or false, in lower case as JSON writes them, got {typed!r}"}
    for fine in ("true", "false"):
        answer = client.get(url, params={"force": 3, "latest_only": fine}, headers=world["p1"])
        assert answer.status_code == 200 and answer.json()["order"]["force"] == 3, (fine, answer.text)


# JSON text for a value of any kind, the hostile ones included: Python's JSON writes NaN and
# Infinity as such, and ensure_ascii=False keeps emoji, right-to-left marks and NUL as they are.
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, 1, 3, 6, 160, 1000, 1001, -1, 2**63, 2**64]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.sampled_from(["", "1", "even", "field-reader@1", "\u202eAna", "A\u200bna", "\U0001f3c9", "A\x00", "<b>x</b>", "x" * 300, "\ud800"]),
)
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)


def _json_text(pairs: list[tuple[str, Any]]) -> bytes:
    """An object with these pairs in order, duplicates kept (json.dumps of a dict cannot say one twice)."""
    inner = ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}" for k, v in pairs)
    return ("{" + inner + "}").encode("utf-8", "surrogatepass")


# Each operation: its method, address under the game (None: under /api/v1), who sends it, and
# a valid value for each field it takes, so that half the fields are right and the refusals come
# from the rest (drawn from _VALUES) rather than from a body wrong everywhere.
OPERATIONS: dict[str, tuple[str, str | None, str | None, dict[str, st.SearchStrategy[Any]]]] = {
    "order": ("PUT", "/orders/{team}", "p1", {
        "turn": st.just(1), "force": st.integers(0, 12), "flair": st.sampled_from([0, 3, 9]), "ready": st.booleans(),
    }),
    "odds": ("POST", "/teams/{team}/odds", "p1", {"force": st.integers(0, 12), "flair": st.sampled_from([0, 3])}),
    "autopilot": ("PUT", "/autopilot/{team}", "p1", {"strategy": st.sampled_from(["even", "field-reader@1"])}),
    "house-bot": ("PUT", "/house-bot/{team}", "organiser", {"strategy": st.sampled_from(["even", "random"])}),
    "extend": ("POST", "/extend", "organiser", {"hours": st.floats(0.1, 2)}),
    "deadline": ("POST", "/deadline", "organiser", {"hours": st.floats(1, 48)}),
    "resolve": ("POST", "/resolve", "organiser", {"turn": st.just(2)}),  # never the open one: the game stays put
    "create": ("POST", None, None, {
        "name": st.text(min_size=1, max_size=20), "players": st.integers(4, 16),
        "deadline_hours": st.sampled_from([None, 0, 1, 24]), "visibility": st.sampled_from(["public", "private"]),
    }),
    "join": ("POST", None, None, {"invite": st.just("{invite}"), "name": st.text(min_size=1, max_size=20)}),
    "organise": ("POST", None, None, {"link": st.just("wrong-link")}),
}
ROOT = {"create": "/api/v1/games", "join": "/api/v1/join", "organise": "/api/v1/organise"}


def test_hostile_bodies_never_fail_and_refusals_change_nothing(app: FastAPI) -> None:
    """Hypothesis writes 250 bodies for the ten operations that take one: each field (and now
    and then one the operation does not take, or one given twice) set to any JSON value, NaN,
    Infinity, numbers past 64 bits, emoji, right-to-left and zero-width marks, NUL and lists and
    objects nested in them. No answer is a 500 (the test client re-raises one); a refusal has a
    ``detail`` in words, and the game's view, p1's orders and the database stay as they were."""
    client, world = _running(app)
    at = f"/api/v1/games/{world['game']}"
    seen: dict[int, int] = {}

    def view() -> tuple[Any, ...]:
        game = client.get(at, headers=world["organiser"]).json()
        orders = client.get(f"{at}/orders", headers=world["p1"]).json()
        return game, orders

    @given(
        operation=st.sampled_from(sorted(OPERATIONS)),
        data=st.data(),
    )
    @settings(
        max_examples=250, deadline=None, derandomize=True, database=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(operation: str, data: st.DataObject) -> None:
        method, path, who, good = OPERATIONS[operation]
        fields = list(good)
        names = data.draw(st.lists(st.sampled_from([*fields, *fields, "extra"]), min_size=1, max_size=len(fields) + 2))
        names = data.draw(st.sampled_from([fields, names]))  # half the bodies have every field, once
        pairs = []
        for name in names:
            hostile = data.draw(st.booleans()) or name not in good
            value = data.draw(_VALUES if hostile else good[name])
            pairs.append((name, world["invite"] if value == "{invite}" else value))
        body = _json_text(pairs)
        url = ROOT[operation] if path is None else at + path.format(team=world["team"])
        headers = {**JSON, **(world[who] if who else {})}
        before, seen_before = snapshot(app), view()
        answer = client.request(method, url, content=body, headers=headers)
        seen[answer.status_code] = seen.get(answer.status_code, 0) + 1
        assert answer.status_code < 500, (operation, body, answer.text)
        if answer.status_code >= 400:
            detail = answer.json()["detail"]
            assert isinstance(detail, str) and detail, (operation, body, answer.text)
            assert snapshot(app) == before, (operation, body, answer.status_code)
            assert view() == seen_before, (operation, body, answer.status_code)

    check()
    assert sum(seen.values()) == 250
    assert set(seen) - {200, 201} <= {403, 404, 409, 410, 422}, seen
