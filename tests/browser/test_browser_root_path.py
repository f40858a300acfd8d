"""The site at /sevens behind a reverse proxy that strips the prefix, in Chromium: nothing it asks
for, pages, styles, scripts, the favicon, odds, polls, leaves /sevens."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.browser_helpers import serve, visit
from sevens.web.testing import PrefixProxy

DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[PrefixProxy]:
    for upstream in serve(tmp_path, root_path="/sevens"):
        with PrefixProxy(upstream, "/sevens") as proxy:
            yield proxy


def test_a_turn_played_and_an_invite_copied_and_used_all_under_the_prefix(proxied: PrefixProxy, chromium: Any) -> None:
    """The organiser creates a game and copies the invite links with the page's button; a second
    browser opens the first link and joins; the organiser starts; the player asks the odds of an
    order and saves it; the organiser resolves the turn and the player's page sees the game
    move on by its poll and show turn 2. Every request either browser made is under http://host/sevens/."""
    from playwright.sync_api import expect

    site = proxied.url
    origin = site.removesuffix("/sevens")
    asked: list[str] = []
    complaints: list[str] = []  # a script, style or fetch the CSP refused, any error of the page's script
    organiser_context = chromium.new_context(viewport=DESKTOP)
    organiser_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    organiser_context.on("request", lambda request: asked.append(request.url))
    organiser = organiser_context.new_page()
    organiser.on("console", lambda message: complaints.append(message.text) if message.type == "error" else None)
    organiser.set_default_timeout(15000)
    organiser.on("dialog", lambda dialog: dialog.accept())
    organiser.goto(site + "/")
    assert organiser.evaluate("getComputedStyle(document.body).fontFamily") != "Times New Roman"  # styled
    organiser.fill("input[name=name]", "Proxy cup")
    organiser.fill("input[name=deadline_hours]", "24")
    organiser.click("#create-game button[type=submit]")
    organiser.click("#copy-all")
    expect(organiser.locator("#copy-all-said")).to_contain_text("Copied")
    first = organiser.evaluate("navigator.clipboard.readText()").split("\n")[0]
    link = first.split(": ", 1)[1]
    assert re.fullmatch(re.escape(site) + r"/join/[\w-]+", link), first
    organise_url = organiser.locator("#to-organise").get_attribute("href")
    assert organise_url is not None and organise_url.startswith("/sevens/games/")

    player_context = chromium.new_context(viewport=DESKTOP)
    player_context.on("request", lambda request: asked.append(request.url))
    player = player_context.new_page()
    player.on("console", lambda message: complaints.append(message.text) if message.type == "error" else None)
    player.set_default_timeout(15000)
    player.goto(link)
    player.fill("input[name=name]", "Ann")
    player.click("#join button[type=submit]")
    expect(player).to_have_url(re.compile(re.escape(site) + r"/games/[\w-]+/play$"))

    organiser.click("#to-organise")
    organiser.click("#start button")
    expect(organiser.locator("#done")).to_contain_text("Started")

    # Loaded again (its own poll may be reloading it already, the game having started: visit
    # goes again if that cuts this load short).
    visit(player, player.url)
    form = player.locator("form.order-form").first
    form.locator("input[name=force]").fill("9")
    form.locator("input[name=flair]").fill("0")
    expect(form.locator("output.odds")).to_contain_text("Your order 9+0: expected")  # fetched by the script
    form.locator("button[value=save]").click()  # saved, not ready: the turn waits for the organiser
    expect(player.locator("#message")).to_be_visible()

    organiser.click("#resolve button")
    expect(organiser.locator("#done")).to_contain_text("Turn 1 resolved")
    # Its poll finds the game moved on, and the page (nothing typed in it) brings itself up to date.
    expect(player.locator("form.order-form input[name=turn]").first).to_have_value("2", timeout=30000)

    left = [url for url in asked if not url.startswith(site + "/")]
    assert not left, left
    assert any("/odds" in url for url in asked) and any("/state" in url for url in asked)
    assert any(url.startswith(site + "/static/favicon.svg?v=") for url in asked)
    assert proxied.outside == []
    assert not complaints, complaints
    organiser_context.close()
    player_context.close()
