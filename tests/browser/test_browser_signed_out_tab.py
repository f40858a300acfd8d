"""A player signs this browser out in one tab while an order is typed in another: the order sent
from the first tab is refused (its security token is the ended session's), and the page says
the browser was signed out, what was not saved and how to get the seat back, in real Chromium,
which says of its own forms that they come from this site (Sec-Fetch-Site)."""

from __future__ import annotations

from typing import Any

from browser.browser_helpers import BEHIND, start_with_one_seat, type_order, visit


def test_an_order_sent_from_a_tab_signed_out_in_another_says_what_was_not_saved(server: str, chromium: Any) -> None:
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": 1000, "height": 760})
    try:
        front = context.new_page()
        organise = start_with_one_seat(front, server, "Tab cup", hours="1")
        playing = context.new_page()
        playing.set_default_timeout(15000)
        playing.add_init_script(BEHIND)  # left in the background: it does not reload itself
        visit(playing, organise.replace("/organise", "/play"))
        form = playing.locator("form[id^=order-]").first
        team = form.locator("input[name=team_name]").get_attribute("value")
        type_order(form, 7, 6)
        visit(front, server + "/")
        front.click("#sign-out button")
        expect(front.locator("#sign-out")).to_have_count(0)
        with playing.expect_navigation() as answer:
            form.locator("button[value=ready]").click()
        assert answer.value is not None and answer.value.status == 403
        expect(playing.locator("h1")).to_have_text("Not saved: this browser plays no seat now")
        said = " ".join(playing.locator("main").inner_text().split())
        assert "This browser was signed out (Sign out of this browser, perhaps in another tab or window)" in said, said
        assert "seat in Tab cup: only a new invite link from the organiser opens it again" in said, said
        assert f"What you had sent, for your own note: 7 FORCE + 6 FLAIR, turn 1 for {team}." in said, said
    finally:
        context.close()


def test_an_organiser_button_pressed_in_a_tab_signed_out_in_another_says_what_was_not_done(
    server: str, chromium: Any
) -> None:
    """The organiser page's Hand to the bots, pressed in a tab loaded before the browser signed out
    in another: Chromium says the form comes from this site, so the page says the browser was
    signed out and what was not done, rather than the plain 403 whose reload refused too."""
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": 1000, "height": 760})
    try:
        front = context.new_page()
        organise_url = start_with_one_seat(front, server, "Org tab cup", hours="1")
        organising = context.new_page()
        organising.set_default_timeout(15000)
        organising.add_init_script(BEHIND)  # left in the background: it does not reload itself
        visit(organising, organise_url)
        visit(front, server + "/")
        front.click("#sign-out button")
        expect(front.locator("#sign-out")).to_have_count(0)
        organising.once("dialog", lambda dialog: dialog.accept())
        with organising.expect_navigation() as answer:
            organising.locator("form.release button").first.click()
        assert answer.value is not None and answer.value.status == 403
        expect(organising.locator("h1")).to_have_text("Not done: this browser was signed out")
        said = " ".join(organising.locator("main").inner_text().split())
        assert "so nothing was done in Org tab cup: seat 1 was not handed to the bots." in said, said
        assert "open your organiser link in this browser to organise it again" in said, said
        assert "security token" not in said and "reload" not in said, said
    finally:
        context.close()
