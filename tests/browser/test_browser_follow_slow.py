"""A player's page follows the game on a server slow to answer it: its reload, or a request of its
polls, held back in the browser (Playwright's ``page.route``) as a loaded server or a lost
connection holds them."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from browser.browser_helpers import create_game, join_by_invites, start_with_one_seat, visit


class HeldBack:
    """Requests this page sends that ``match``, each held ``seconds`` before it goes to the server
    (None: never); the test calls ``wait`` to let time pass, which sends those due."""

    def __init__(self, page: Any, match: Callable[[Any], bool], seconds: float | None) -> None:
        self.page, self.match, self.seconds = page, match, seconds
        self.armed = False
        self.held: list[tuple[float, Any]] = []
        self.count = 0
        page.route("**/*", self._route)

    def _route(self, route: Any) -> None:
        if not (self.armed and self.match(route.request)):
            route.continue_()
            return
        self.count += 1
        self.held.append((float("inf") if self.seconds is None else time.monotonic() + self.seconds, route))

    def wait(self, until: Callable[[], bool], seconds: float) -> bool:
        """Whether ``until`` came true within ``seconds``, sending each held request when due."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for due, route in [item for item in self.held if item[0] <= time.monotonic()]:
                self.held.remove((due, route))
                route.continue_()
            if until():
                return True
            self.page.wait_for_timeout(200)
        return False


def _on_turn(page: Any, turn: int) -> Callable[[], bool]:
    """Whether ``page`` shows ``turn`` now."""
    from playwright.sync_api import Error

    def shown() -> bool:
        try:
            return bool(re.match(rf"{turn} of", page.locator("#turn").inner_text(timeout=1000)))
        except Error:  # the page between two documents
            return False

    return shown


def test_a_page_the_server_is_slow_to_send_again_still_follows_the_game(server: str, chromium: Any) -> None:
    """The page reloads itself once its poll says the turn was resolved. A server taking longer to
    send the page than the 5 s between polls (a traced soak on a loaded machine: 1.5-9.7 s a page)
    never got to send it: the next poll's answer reloaded the page again, which cut the reload under
    way short, every 5 s, and the page stood on the old turn for as long as the server was slow."""
    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Slow cup", hours="24")
    play = organise.removesuffix("/organise") + "/play"
    visit(page, play)
    cut_short: list[str] = []
    page.on("requestfailed", lambda r: cut_short.append(r.url) if r.resource_type == "document" else None)
    slow = HeldBack(page, lambda request: request.resource_type == "document", 8.0)
    organiser = context.new_page()
    organiser.on("dialog", lambda dialog: dialog.accept())
    visit(organiser, organise)
    slow.armed = True
    organiser.click("#resolve button")
    assert slow.wait(_on_turn(page, 2), 45), f"still on turn 1; {slow.count} reloads asked, {len(cut_short)} cut short"
    assert (slow.count, cut_short) == (1, [])
    context.close()


def test_a_list_of_who_ordered_whose_answer_never_comes_is_asked_again(server: str, chromium: Any) -> None:
    """The page fetches the list of who has ordered one at a time. A fetch the network lost, never
    answered nor refused, kept the page from fetching it again for good: another player's ready
    order never showed. Such a fetch is now given up after 30 s."""
    from playwright.sync_api import expect

    viewport = {"width": 1000, "height": 800}
    organiser, organise, invites = create_game(chromium, server, "Lost cup", viewport=viewport, arrangement="4-8-2", hours="24")
    first, second = join_by_invites(chromium, invites[:2], viewport)
    visit(organiser, organise)
    organiser.click("#start button")
    play = organise.removesuffix("/organise") + "/play"
    visit(first, play)
    visit(second, play)
    lost = HeldBack(first, lambda request: "who-ordered" in request.url, None)
    lost.armed = True
    their_form = second.locator("form.order-form").first
    their_team = their_form.get_attribute("data-team")
    their_form.locator("input[name=force]").fill("5")
    their_form.locator("input[name=flair]").fill("3")
    with second.expect_navigation():
        their_form.locator("button[value=ready]").click()
    expect(second.locator("#message")).to_contain_text("ready")
    assert lost.wait(lambda: lost.count == 1, 15), "the list was not asked for"
    lost.armed = False  # the next ask is answered
    ready = first.locator(f"#who-ordered-list li[data-team='{their_team}']")
    # 30 s before the lost one is given up, then a poll within 5 s
    expect(ready).to_have_class("state-ready", timeout=50000)
    assert first.locator("#live-note").count() == 0
