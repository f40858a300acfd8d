"""A page left open on a game whose stored record is then damaged, or which its organiser then
deletes: its polls of ``/state`` get a 500 or a 404, which the script dropped without a word, so the
page went on as if nothing were wrong (offering an order form whose order could only be refused).
It now says at its top what the server says, and the note goes once the polls are answered again."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from browser.browser_helpers import create_game, join_by_invites, serve, visit
from sevens.store import games as store
from sevens.store.db import make_engine, make_sessionmaker
from sevens.store.retention import delete_game


def started_with_the_players_page_open(chromium: Any, server: str, name: str) -> tuple[Any, Any, str]:
    """A one-seat game started, its player's page and its organiser's page open: the two pages and
    the game's public id."""
    viewport = {"width": 1000, "height": 800}
    organiser, organise, invites = create_game(chromium, server, name, viewport=viewport, hours="24")
    (player,) = join_by_invites(chromium, invites[:1], viewport)
    visit(organiser, organise)
    organiser.click("#start button")
    visit(player, organise.removesuffix("/organise") + "/play")
    visit(organiser, organise)
    return organiser, player, organise.split("/")[-2]


def test_an_open_page_says_when_its_games_record_is_damaged(tmp_path: Path, chromium: Any) -> None:
    from playwright.sync_api import expect

    running = serve(tmp_path)
    server = next(running)
    try:
        organiser, player, public_id = started_with_the_players_page_open(chromium, server, "Damaged cup")
        with sqlite3.connect(tmp_path / "browser.sqlite3") as db:
            (stored,) = db.execute("SELECT record_json FROM games WHERE public_id = ?", (public_id,)).fetchone()
            db.execute("UPDATE games SET record_json = substr(record_json, 1, 100) WHERE public_id = ?", (public_id,))
        for page in (player, organiser):
            note = page.locator("#poll-trouble")
            expect(note).to_contain_text(  # polled every second here
                "This page cannot follow the game: the record this server keeps of this game is damaged", timeout=15000
            )
            expect(note).to_contain_text("/verify")
            expect(note).to_have_attribute("role", "alert")
        with sqlite3.connect(tmp_path / "browser.sqlite3") as db:
            db.execute("UPDATE games SET record_json = ? WHERE public_id = ?", (stored, public_id))
        expect(player.locator("#poll-trouble")).to_have_count(0, timeout=15000)
    finally:
        next(running, None)


def _delete_behind_the_page(tmp_path: Path, public_id: str) -> None:
    """*Delete game* committed straight into the server's database, as the organiser's press would."""
    engine = make_engine(f"sqlite:///{tmp_path / 'browser.sqlite3'}")
    try:
        with make_sessionmaker(engine)() as db:
            delete_game(db, game_id=store.game_by_public_id(db, public_id=public_id).id, now=datetime.now(UTC))
            db.commit()
    finally:
        engine.dispose()


def test_an_open_page_says_when_its_game_was_deleted(tmp_path: Path, chromium: Any) -> None:
    from playwright.sync_api import expect

    running = serve(tmp_path)
    server = next(running)
    try:
        _, player, public_id = started_with_the_players_page_open(chromium, server, "Gone cup")
        _delete_behind_the_page(tmp_path, public_id)
        note = player.locator("#poll-trouble")
        expect(note).to_contain_text(  # polled every second here
            "This page cannot follow the game: the server no longer finds it for this browser: it was deleted, by "
            "its organiser or by the server once it had long been over", timeout=15000
        )
        expect(note).to_have_attribute("role", "alert")
    finally:
        next(running, None)


def test_an_order_sent_after_its_game_was_deleted_says_so_and_keeps_what_was_typed(tmp_path: Path, chromium: Any) -> None:
    """The player typed an order, the organiser deleted the game, then the player pressed Ready:
    the answer was the page of an address that never existed, and the order typed was gone."""
    from playwright.sync_api import expect

    running = serve(tmp_path)
    server = next(running)
    try:
        _, player, public_id = started_with_the_players_page_open(chromium, server, "Gone cup")
        form = player.locator("form.order-form").first
        form.locator("input[name=force]").fill("4")
        form.locator("input[name=flair]").fill("3")
        _delete_behind_the_page(tmp_path, public_id)
        with player.expect_navigation():
            form.locator("button[value=ready]").click()
        expect(player.locator("h1")).to_have_text("Sorry: this game was deleted")
        expect(player.locator("[role=alert]").first).to_contain_text("This game was deleted by its organiser")
        expect(player.locator("#typed")).to_contain_text("4 FORCE + 3 FLAIR")
        expect(player).to_have_title("This game was deleted · Sevens")
        from browser.test_browser_a11y import axe_problems

        assert axe_problems(player, "the deleted game's order answer") == []
    finally:
        next(running, None)
