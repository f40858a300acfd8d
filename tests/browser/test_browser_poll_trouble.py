"""A page left open on a game whose stored record is then damaged: its polls of ``/state`` get a
500, which the script dropped without a word, so the page went on as if nothing were wrong. It
now says at its top what the server says, and the note goes once the polls are answered again."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from browser.browser_helpers import CHROMIUM, create_game, join_by_invites, serve, visit

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (scripts/setup-system)"
    ),
]


def test_an_open_page_says_when_its_games_record_is_damaged(tmp_path: Path, chromium: Any) -> None:
    from playwright.sync_api import expect

    running = serve(tmp_path)
    server = next(running)
    try:
        viewport = {"width": 1000, "height": 800}
        organiser, organise, invites = create_game(chromium, server, "Damaged cup", viewport=viewport, hours="24")
        (player,) = join_by_invites(chromium, invites[:1], viewport)
        visit(organiser, organise)
        organiser.click("#start button")
        visit(player, organise.removesuffix("/organise") + "/play")
        visit(organiser, organise)
        public_id = organise.split("/")[-2]
        with sqlite3.connect(tmp_path / "browser.sqlite3") as db:
            (stored,) = db.execute("SELECT record_json FROM games WHERE public_id = ?", (public_id,)).fetchone()
            db.execute("UPDATE games SET record_json = substr(record_json, 1, 100) WHERE public_id = ?", (public_id,))
        for page in (player, organiser):
            note = page.locator("#poll-trouble")
            expect(note).to_contain_text(  # polled every 5 s
                "This page cannot follow the game: the record this server keeps of this game is damaged", timeout=15000
            )
            expect(note).to_contain_text("/verify")
            expect(note).to_have_attribute("role", "alert")
        with sqlite3.connect(tmp_path / "browser.sqlite3") as db:
            db.execute("UPDATE games SET record_json = ? WHERE public_id = ?", (stored, public_id))
        expect(player.locator("#poll-trouble")).to_have_count(0, timeout=15000)
    finally:
        next(running, None)
