"""A player's page left open, order form and all, while the organiser deletes the game: its polls
of ``/state`` got 404, which the script dropped without a word, so the page went on offering a
form whose order could only be refused. It now says at its top that the game is gone and why."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from browser.browser_helpers import CHROMIUM, create_game, join_by_invites, serve, visit
from sevens.store import games as store
from sevens.store.db import make_engine, make_sessionmaker
from sevens.store.retention import delete_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (scripts/setup-system)"
    ),
]


def test_an_open_page_says_when_its_game_was_deleted(tmp_path: Path, chromium: Any) -> None:
    from playwright.sync_api import expect

    running = serve(tmp_path)
    server = next(running)
    try:
        viewport = {"width": 1000, "height": 800}
        organiser, organise, invites = create_game(chromium, server, "Gone cup", viewport=viewport, hours="24")
        (player,) = join_by_invites(chromium, invites[:1], viewport)
        visit(organiser, organise)
        organiser.click("#start button")
        visit(player, organise.removesuffix("/organise") + "/play")
        public_id = organise.split("/")[-2]
        engine = make_engine(f"sqlite:///{tmp_path / 'browser.sqlite3'}")
        try:
            with make_sessionmaker(engine)() as db:
                delete_game(db, game_id=store.game_by_public_id(db, public_id=public_id).id, now=datetime.now(UTC))
                db.commit()
        finally:
            engine.dispose()
        note = player.locator("#poll-trouble")
        expect(note).to_contain_text(  # polled every 5 s
            "This page cannot follow the game: the server no longer finds it for this browser: its organiser "
            "deleted it", timeout=15000
        )
        expect(note).to_have_attribute("role", "alert")
    finally:
        next(running, None)
