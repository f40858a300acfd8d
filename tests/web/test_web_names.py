"""Names in any script through the JSON API and the forms: one rule (sevens.tournament.names) for
both, kept in NFC, refused with the character and where it is, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re

from fastapi import FastAPI

from web.web_helpers import host_game, new_client, post_form

ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
"""The flag of England: a black flag, the tags g b e n g, the cancel tag."""


def _create(app: FastAPI, name: str) -> dict[str, str]:
    answer = new_client(app).post("/api/v1/games", json={"name": name, "players": 4})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def test_an_accent_typed_apart_is_kept_composed_through_the_api_and_the_record(app: FastAPI) -> None:
    """'José' typed as e + U+0301 and typed as é are one name, kept as é: the same bytes in the
    game's document, the join's answer and the record, and the second is refused as the first."""
    client = new_client(app)
    created = _create(app, "Cafe\u0301 sevens")
    organiser = {"Authorization": f"Bearer {created['token']}"}
    joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Jose\u0301"})
    assert joined.status_code == 200 and joined.json()["name"] == "Jos\u00e9"
    again = new_client(app).post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "Jos\u00e9"})
    assert again.status_code == 422 and "already called 'José'" in again.json()["detail"]
    game = client.get(f"/api/v1/games/{created['game']}", headers=organiser).json()
    assert game["name"] == "Caf\u00e9 sevens"
    for seat in ("p2", "p3", "p4"):
        new_client(app).post("/api/v1/join", json={"invite": created["invites"][seat], "name": f"Seat {seat}"})
    assert client.post(f"/api/v1/games/{created['game']}/start", headers=organiser).status_code == 200
    record = client.get(f"/api/v1/games/{created['game']}/record", headers=organiser)
    assert "Jos\u00e9".encode() in record.content and b"Jose\xcc\x81" not in record.content
    assert json.loads(record.content)["players"][0]["name"] == "Jos\u00e9"


def test_a_name_longer_sent_than_kept_is_counted_as_kept(app: FastAPI) -> None:
    """The API counted the name as sent (40 code points), the form as kept: a Vietnamese name of 40
    letters typed decomposed, or one with spaces around it, was refused by one and taken by the other."""
    created = _create(app, "Hanoi sevens")
    name = "Nguye\u0302\u0303n " + "x" * 32  # 40 characters composed, 42 as sent
    joined = new_client(app).post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": f"  {name} "})
    assert joined.status_code == 200 and joined.json()["name"] == "Nguy\u1ec5n " + "x" * 32
    too_long = new_client(app).post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "y" * 41})
    assert too_long.status_code == 422 and "41 characters long; keep it to 40" in too_long.json()["detail"]


def test_flags_and_joined_emoji_are_names_and_hidden_characters_are_named(app: FastAPI) -> None:
    """England's, Scotland's and Wales's flags are tag sequences: they were refused as invisible
    characters. A refusal names the character and where it is; a joiner hidden between two letters
    does not make a second 'Ann'."""
    created = _create(app, f"{ENGLAND} v \U0001f1eb\U0001f1ef")
    organiser = {"Authorization": f"Bearer {created['token']}"}
    game = new_client(app).get(f"/api/v1/games/{created['game']}", headers=organiser).json()
    assert game["name"] == f"{ENGLAND} v \U0001f1eb\U0001f1ef"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 Lee"
    for seat, name in (("p1", f"{ENGLAND} Ann"), ("p2", family)):
        joined = new_client(app).post("/api/v1/join", json={"invite": created["invites"][seat], "name": name})
        assert joined.status_code == 200 and joined.json()["name"] == name, joined.text
    hidden = new_client(app).post("/api/v1/join", json={"invite": created["invites"]["p3"], "name": "Ann\u202eeL"})
    assert hidden.status_code == 422
    assert hidden.json()["detail"] == (
        "your display name holds U+202E RIGHT-TO-LEFT OVERRIDE, an invisible format character, after 'Ann'; "
        "type the name without it"
    )
    lone = new_client(app).post(
        "/api/v1/join",
        content=b'{"invite": "%s", "name": "\\ud800Ann"}' % created["invites"]["p3"].encode(),
        headers={"Content-Type": "application/json"},
    )
    assert lone.status_code == 422
    zalgo = new_client(app).post("/api/v1/join", json={"invite": created["invites"]["p3"], "name": "Z" + "\u0336" * 20})
    assert zalgo.status_code == 422
    assert "stacks 20 combining marks on one character after 'Z'; keep it to 8" in zalgo.json()["detail"]
    game = host_game(app)
    game.join("p1", "Ann")
    twin = post_form(new_client(app), game.invites["p2"].split("testserver", 1)[1], {"name": "A\u200dnn"})
    assert twin.status_code == 422 and "already called" in twin.text


def test_the_name_boxes_let_a_name_the_server_takes_be_typed_whole(app: FastAPI) -> None:
    """A browser stops a box at maxlength UTF-16 units; an emoji outside the first plane is two.
    The join box stopped at 40 units, so a name of 40 characters as kept, 20 of them flags' letters,
    could not be typed whole though the server takes it; likewise the new game's name."""
    name = "\U0001f1eb\U0001f1ef" * 10 + "x" * 20  # 40 characters, 60 units
    for page, field, limit in (("/", "name", 80), (None, "name", 40)):
        game = host_game(app)
        address = page or game.invites["p1"].split("testserver", 1)[1]
        box = re.search(rf'<input name="{field}" required maxlength="(\d+)"', new_client(app).get(address).text)
        assert box is not None
        whole = name * (limit // 40)
        assert len(whole.encode("utf-16-le")) // 2 <= int(box.group(1)), (address, box.group(1))
    joined = post_form(new_client(app), game.invites["p1"].split("testserver", 1)[1], {"name": name})
    assert joined.status_code == 303, joined.text
