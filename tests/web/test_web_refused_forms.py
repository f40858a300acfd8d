"""A refused form comes back as the same form: what was typed still in its boxes, a summary at
its top linking to the box the reason is about, and the reason beside that box (marked
aria-invalid and described by it), on the page that holds the form."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from web.refused_forms import refused_form
from web.web_helpers import new_client, post_form

CREATE_TYPED = {
    "name": "Harbour cup",
    "arrangement": "4-8-2",
    "deadline_hours": "6",
    "default_bot": "equilibrium",
    "default_bot_weight": "1.5",
    "visibility": "private",
}


@pytest.mark.parametrize(
    ("change", "box", "words"),
    [
        ({"name": "   "}, "name", "the game's name is empty"),
        ({"name": "x" * 81}, "name", "keep it to 80"),
        ({"arrangement": "4-12-2"}, "arrangement", "R6"),
        ({"arrangement": "4-8-1"}, "arrangement", "R12"),
        ({"arrangement": "lots"}, "arrangement", "R12: choose an arrangement"),
        ({"deadline_hours": "soon"}, "deadline_hours", "a number of hours such as 24"),
        ({"deadline_hours": "745"}, "deadline_hours", "to 720 hours (30 days), got 745 hours"),
        ({"default_bot": "nobody"}, "default_bot", "R13: unknown default bot"),
        ({"default_bot_weight": "2000"}, "default_bot_weight", "0 to 1000"),
        ({"default_bot": "random", "default_bot_weight": "2"}, "default_bot_weight", "only even"),
        ({"visibility": "secret"}, "visibility", "visibility must be"),
    ],
)
def test_a_refused_game_comes_back_as_the_create_form(
    app: FastAPI, change: dict[str, str], box: str, words: str
) -> None:
    client = new_client(app)
    typed = {**CREATE_TYPED, **change}
    answer = post_form(client, "/games", typed)
    assert answer.status_code == 422, answer.text[-400:]
    form = refused_form(answer.text, "create-game")
    assert words in form.described(box)
    assert form.linked() == box and form.invalid() == [box]
    assert words in form.summary().text
    for name in ("name", "deadline_hours", "default_bot_weight"):
        assert form.value(name) == typed[name][:200]
    for name in ("arrangement", "default_bot", "visibility"):
        if typed[name] in ("4-8-2", "equilibrium", "private"):
            assert form.value(name) == typed[name]
    assert 'data-canonical="/"' in answer.text  # a reload reads the home page, not a second post
