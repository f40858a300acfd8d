"""What a screen reader says of a player's page, in real headless Chromium: the page's title,
which is read first each time the page opens (after each form sent, and when it reloads itself as
the game moves on), and the words of the match reports, read as words rather than glyphs.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser.browser_helpers import (
    CHROMIUM,
    create_game,
    join_by_invites,
    start_with_one_seat,
    type_order,
    visit,
)
from browser.test_browser_a11y import DESKTOP

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (scripts/setup-system)"
    ),
]


def test_the_play_pages_title_says_what_changed(server: str, chromium: Any) -> None:
    """A blind player hears the title first as the page opens: it says where their orders stand
    in the turn, what the form just did, that it was refused, and, at the end, that the game is
    over; the name and the game stay at its end. The title was the same on every load."""
    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Title cup", hours="24")
    play = organise.removesuffix("/organise") + "/play"
    visit(page, play)
    tail = " · \u2068Me\u2069 · \u2068Title cup\u2069 · Sevens"
    forms = page.locator("form.order-form")
    mine = forms.count()
    assert page.title() == f"Turn 1 of 5: {mine} of your orders not ready{tail}"
    # More points than the team holds: refused by the server (the boxes' limits let it through).
    type_order(forms.first, 60, 60)
    forms.first.locator("button[value=ready]").click()
    page.wait_for_load_state("load")
    assert page.title() == f"Error: Turn 1 of 5: {mine} of your orders not ready{tail}"
    team = str(forms.first.get_attribute("data-name"))
    type_order(forms.first, 5, 3)
    forms.first.locator("button[value=ready]").click()
    page.wait_for_load_state("load")
    assert page.title() == f"Order for {team} ready (turn 1). Turn 1 of 5: {mine - 1} of your orders not ready{tail}"
    # Every order ready, turn after turn, to the end of the game.
    ready = page.locator(".order-state", has_text=re.compile("^ready$"))
    to_order = page.locator("article.my-team").filter(has_not=ready).locator("form.order-form")
    for _ in range(40):
        if page.title().startswith("Game over"):
            break
        if to_order.count():
            type_order(to_order.first, 0, 0)
            to_order.first.locator("button[value=ready]").click()
            page.wait_for_load_state("load")
        else:
            visit(page, play)
    assert page.title().startswith("Game over"), page.title()
    champion = page.locator("#champion").inner_text()
    assert page.title() == f"Game over, champion {champion}{tail}"
    page.context.close()


def test_the_match_reports_are_read_as_words(server: str, chromium: Any) -> None:
    """A match report's cells showed the dice as "5-3" (read "5 minus 3"), the line as "10 (1T 1C
    1P 0DG)" (read "1 T 1 C...") and SCRUM as "100 → 92" (read "100 right arrow 92"). The screen
    looks the same; what the accessibility tree gives a screen reader is in words. So are the group
    tables' headers, read with each figure: "tries against", not "T A"."""
    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Words cup", hours="24")
    play = organise.removesuffix("/organise") + "/play"
    visit(page, play)
    ready = page.locator(".order-state", has_text=re.compile("^ready$"))
    to_order = page.locator("article.my-team").filter(has_not=ready).locator("form.order-form")
    for _ in range(to_order.count()):
        type_order(to_order.first, 5, 6)
        to_order.first.locator("button[value=ready]").click()
        page.wait_for_load_state("load")
    visit(page, organise.removesuffix("/organise"))
    from playwright.sync_api import expect

    # The public page reloads itself as the game moves on: its title says where the game stands.
    assert page.title() == "Turn 2 of 5 · \u2068Words cup\u2069 · Sevens"
    reports = page.locator("section.reports")
    shown = reports.inner_text()
    assert re.search(r"\d-\d", shown) and "→" in shown and re.search(r"\(\d+T \d+C \d+P \d+DG\)", shown), shown
    # The tables only: a heading's score ("29-10") is read as a score.
    said = "\n".join(table.aria_snapshot() for table in reports.locator("table.report").all())
    for glyphs in (r"\d-\d", "→", r"\d(T|C|P|DG)\b"):
        assert not re.search(glyphs, said), (glyphs, said)
    # Every side of every match: its line and its SCRUM in words, each throw of FLAIR as two dice.
    sides = page.locator("table.report tbody tr").count()
    assert sides >= 8
    assert len(re.findall(r"cell \"\d+ points?: \d+ tr(y|ies), \d+ conversions?, \d+ penalt(y|ies), \d+ drop goals?", said)) == sides, said
    assert len(re.findall(r"cell \"\d+ to \d+", said)) == sides, said
    assert re.search(r"FLAIR \d and \d", said), said
    # A group table's figures are read with their header: in words, not "T A" or "P t s".
    table = page.locator("table#group-A")
    for short, long in (("TF", "tries for"), ("TA", "tries against"), ("Pts", "league points"), ("P", "played")):
        header = table.get_by_role("columnheader", name=long, exact=True)
        expect(header).to_have_count(1)
        expect(header).to_have_text(short)
    page.context.close()


def test_the_organiser_pages_title_says_where_the_game_stands(server: str, chromium: Any) -> None:
    """The organiser page reloads itself as seats are taken and orders come in; its title, read
    first, was "Organise <game>" whatever happened. It now says how many seats are taken, then
    how many teams are ready (whether, never what: R13), that a form was refused, and the end."""
    from playwright.sync_api import expect

    page, organise, invites = create_game(chromium, server, "Lead cup", viewport=DESKTOP, hours="24")
    tail = " · Organise \u2068Lead cup\u2069 · Sevens"
    visit(page, organise)
    assert page.title() == f"Not started, 0 of {len(invites)} seats taken{tail}"
    (player,) = join_by_invites(chromium, invites[:1], DESKTOP)
    visit(page, organise)
    assert page.title() == f"Not started, 1 of {len(invites)} seats taken{tail}"
    page.click("#start button")
    expect(page.locator("#order-states")).to_be_visible()
    visit(player, organise.removesuffix("/organise") + "/play")
    teams = player.locator("form.order-form").count()  # the seats nobody took are the bots'
    assert teams > 0
    assert page.title() == f"Turn 1 of 5: 0 of {teams} teams ready{tail}"
    page.fill("#extend-hours", "forever")
    page.click("#extend button[type=submit]")
    expect(page.locator("#extend-summary")).to_be_focused()
    assert page.title() == f"Error: Turn 1 of 5: 0 of {teams} teams ready{tail}"
    form = player.locator("form.order-form").first
    type_order(form, 5, 3)
    form.locator("button[value=ready]").click()
    player.wait_for_load_state("load")
    visit(page, organise)
    assert page.title() == f"Turn 1 of 5: 1 of {teams} teams ready{tail}"
    page.click("#end button[type=submit]")  # create_game's page accepts the confirmation
    expect(page.locator("#end")).to_have_count(0)
    assert page.title() == f"Ended by the organiser{tail}"
    visit(player, organise.removesuffix("/organise"))
    assert player.title() == "Ended by the organiser · \u2068Lead cup\u2069 · Sevens"
    player.context.close()
    page.context.close()


def test_a_refused_join_says_error_first(server: str, chromium: Any) -> None:
    """A refused form comes back as its page with a focused summary; the title, which a screen
    reader says as the page opens, was the same as before the form was sent. It now starts with
    "Error:" on every page a form is refused on, the join page too."""
    from playwright.sync_api import expect

    organiser, _, invites = create_game(chromium, server, "Join cup", viewport=DESKTOP, hours="24")
    page = chromium.new_context(viewport=DESKTOP).new_page()
    visit(page, invites[0])
    assert page.title() == "Join \u2068Join cup\u2069 · Sevens"
    page.fill("input[name=name]", "A" * 60)  # the box takes it; the server takes 40 characters
    page.click("#join button[type=submit]")
    expect(page.locator("#join-summary")).to_be_focused()
    assert page.title() == "Error: Join \u2068Join cup\u2069 · Sevens"
    page.context.close()
    organiser.context.close()
