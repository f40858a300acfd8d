"""A player's page follows the game on a server slow to answer it: its reload, or a request of its
polls, held back in the browser (Playwright's ``page.route``) as a loaded server or a lost
connection holds them; and its polls lost on the way, over real sockets (``LosingNetwork``)."""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from browser.browser_helpers import create_game, join_by_invites, start_with_one_seat, visit, wait_until


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
    order never showed. Such a fetch is now given up after 30 s (of the page's clock, which the test
    moves on rather than wait them out)."""
    from playwright.sync_api import expect

    viewport = {"width": 1000, "height": 800}
    organiser, organise, invites = create_game(chromium, server, "Lost cup", viewport=viewport, arrangement="4-8-2", hours="24")
    first, second = join_by_invites(chromium, invites[:2], viewport)
    visit(organiser, organise)
    organiser.click("#start button")
    play = organise.removesuffix("/organise") + "/play"
    # The page's clock is the test's to move on: the lost fetch's 30 s pass at once (below).
    first.clock.install()
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
    asked: list[str] = []
    first.on("request", lambda request: asked.append(request.url) if "who-ordered" in request.url else None)
    # not given up a while before its 30 s (some of which went by as the test saw it asked), nor
    # asked again meanwhile, though the page polled twenty times
    first.clock.run_for(20000)
    first.wait_for_timeout(3000)
    assert asked == []
    expect(ready).not_to_have_class("state-ready")
    # given up once they are over, then asked again at the next poll (every second here)
    first.clock.run_for(8000)
    expect(ready).to_have_class("state-ready", timeout=15000)
    assert first.locator("#live-note").count() == 0


def test_a_page_whose_reload_the_server_cannot_send_for_a_while_still_follows_the_game(
    server: str, chromium: Any
) -> None:
    """A server restarting or overloaded, or a proxy with no server behind it, answers the page's
    own address 503 for a while, though the poll saw the turn resolved. The page reloaded itself
    into that error page, which runs no polls: the reader stood on it until they reloaded by hand.
    The page now reloads only once the server sends its address again, and says meanwhile why it
    does not move on."""
    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Restart cup", hours="24")
    play = organise.removesuffix("/organise") + "/play"
    visit(page, play)
    down_until = 0.0
    refused: list[str] = []

    def answer(route: Any) -> None:
        if route.request.url == play and time.monotonic() < down_until:
            refused.append(route.request.resource_type)
            # as a proxy says it: a page of its own, with no script of the game's
            route.fulfill(status=503, content_type="text/html", headers={"Retry-After": "5"},
                          body="<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>")
            return
        route.continue_()

    page.route("**/*", answer)
    organiser = context.new_page()
    organiser.on("dialog", lambda dialog: dialog.accept())
    visit(organiser, organise)
    down_until = time.monotonic() + 15
    organiser.click("#resolve button")
    said: list[str] = []

    def trouble_said() -> bool:
        note = page.locator("#poll-trouble")
        if note.count():
            said.append(note.inner_text())
        return False

    wait_until(page, trouble_said, 15)
    assert wait_until(page, _on_turn(page, 2), 30), f"still on turn 1 or on the error page; the address refused to the {refused}"
    assert refused and "document" not in refused, refused  # it never left for the error page
    assert said and "503" in said[-1], said
    assert page.locator("#poll-trouble").count() == 0
    context.close()


class LosingNetwork:
    """A relay between the browser and ``server``, over real sockets, standing for a network that
    loses what the browser sends while ``losing`` is set: whatever a connection carries from then on
    goes nowhere and the connection stays open, never answered nor closed, as one a phone that
    moved between networks or a dropped link leaves; connections made after the loss work again.
    ``lost`` counts the connections so lost."""

    def __init__(self, server: str) -> None:
        host, port = server.removeprefix("http://").split(":")
        self.target = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.losing = False
        self.lost = 0
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                browser, _ = self.listener.accept()
            except OSError:  # closed
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [browser, upstream]
            dead = threading.Event()
            threading.Thread(target=self._pipe, args=(browser, upstream, dead, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, browser, dead, False), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, dead: threading.Event, outward: bool) -> None:
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                break
            if not data:
                break
            if outward and (self.losing or dead.is_set()):
                if not dead.is_set():
                    self.lost += 1
                dead.set()
                continue
            try:
                sink.sendall(data)
            except OSError:
                break
        if outward or not dead.is_set():  # a lost connection's browser end stays open: nothing comes
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.close()

    def close(self) -> None:
        self.listener.close()
        for end in self.sockets:
            with contextlib.suppress(OSError):
                end.close()


def test_a_page_whose_polls_the_network_lost_still_follows_the_game(default_pace_server: str, chromium: Any) -> None:
    """A poll the network lost is never answered nor refused. The page polls on at its pace, but
    Chromium sends at most six requests at a time to a server: six lost polls held every one of
    them, and every later poll, and the reload, waited behind them for good, so the page never
    followed the game again, the network long back. A poll not answered in 30 s is now given up,
    which closes its connection, and three in a row are said at the page's top. The page's clock is
    run fast (its timers), the network in real time."""
    server = default_pace_server  # its clock run by 5 s: one poll a step, at the default pace
    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Lossy cup", hours="24")
    network = LosingNetwork(server)
    try:
        play = network.url + organise.removeprefix(server).removesuffix("/organise") + "/play"
        page.clock.install()
        visit(page, play)
        polls: list[str] = []
        page.on("request", lambda request: polls.append(request.url) if "/state" in request.url else None)
        network.losing = True
        for _ in range(10):  # 50 s of polls, each lost
            page.clock.run_for(5000)
            page.wait_for_timeout(300)
        assert network.lost >= 6, network.lost
        # One poll a tick, a poll given up not asked again; the third given up in a row is said.
        assert len(polls) == 10, polls
        note = page.locator("#poll-trouble")
        assert "no answer from the server to its last few asks" in note.inner_text(timeout=1000)
        network.losing = False
        for _ in range(12):  # the note goes once a poll is answered again
            page.clock.run_for(5000)
            page.wait_for_timeout(300)
            if not note.count():
                break
        assert not note.count(), note.inner_text()
        organiser = context.new_page()
        organiser.on("dialog", lambda dialog: dialog.accept())
        visit(organiser, organise)
        organiser.click("#resolve button")
        on_turn_2, moved = _on_turn(page, 2), False
        for _ in range(24):  # two minutes by the page's clock
            page.clock.run_for(5000)
            page.wait_for_timeout(500)
            if on_turn_2():
                moved = True
                break
        assert moved, f"still on turn 1; {network.lost} connections lost"
    finally:
        network.close()
    context.close()
