"""What the browser tests share: a real server under uvicorn, page visits that survive a page's own
reload, screenshots, and a game started from the front page."""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def launch_chromium(pw: Any) -> Any:
    """Debian's headless Chromium, with the switches that keep it off the network."""
    return pw.chromium.launch(
        executable_path=str(CHROMIUM),
        headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    )


def serve(tmp_path: Path, *, clock: Callable[[], datetime] | None = None, **settings: Any) -> Iterator[str]:
    """The real app under uvicorn on a free local port, with a throwaway SQLite database; yields
    its address and stops it afterwards. The port is bound here and the socket handed to uvicorn:
    a port picked as free and bound later could be taken in between by another program. ``clock``:
    the server's time, if not the real one (its scheduler and pages go by it)."""
    import uvicorn

    from sevens.web.app import create_app
    from sevens.web.settings import Settings

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = int(listener.getsockname()[1])
    app = create_app(
        Settings(database_url=f"sqlite:///{tmp_path / 'browser.sqlite3'}", scheduler_seconds=1.0, **settings),
        **({} if clock is None else {"clock": clock}),
    )
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not uv.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    uv.should_exit = True
    thread.join(timeout=10)
    listener.close()


BEHIND = "Object.defineProperty(Document.prototype, 'hidden', { get() { return true; } });"
"""An init script for a tab the game leaves behind: its page asks whether the game moved on only
while it is shown, so one that says it is hidden never reloads itself (as a tab in the background
until a moment ago); a button pressed there acts on what the page showed when it was loaded."""


def visit(page, url: str):  # type: ignore[no-untyped-def]
    """Go to ``url``. A page that follows the game reloads itself when the game moves on, and its
    own navigation can cut the test's short (ERR_ABORTED): then go again. Going by a blank page
    first leaves no script of the game's running to do so (a page reloading itself at every turn
    resolved cut three goes in a row short under load)."""
    from playwright.sync_api import Error

    for attempt in range(5):
        try:
            page.goto("about:blank")
            return page.goto(url)
        except Error as exc:
            if attempt == 4 or not ("ERR_ABORTED" in str(exc) or "interrupted by another navigation" in str(exc)):
                raise
            # Let the navigation that cut this one short end before going again: gone at once, the
            # next go met it still under way, three times in a row in a loaded CI run.
            with contextlib.suppress(Error):
                page.wait_for_load_state("load")
    return None


def on_screen(locator) -> str:  # type: ignore[no-untyped-def]
    """The text of ``locator``'s element as the screen shows it: the words said to screen readers
    instead of a short form ("60 to 51" beside 60-51, the templates' ``said``) left out, which
    inner_text() reads as well. Line breaks are not kept."""
    return str(locator.evaluate(
        "el => { const k = el.cloneNode(true); k.querySelectorAll('.visually-hidden').forEach(n => n.remove()); return k.textContent; }"
    ))


def shown_lines(locator) -> list[str]:  # type: ignore[no-untyped-def]
    """The lines of ``locator``'s element as the screen shows them, cut at each <br> (a bracket's
    match: "Ireland v Fiji", then its result), without the words said to screen readers only:
    inner_text() breaks a line at each of those as well, being positioned."""
    return list(locator.evaluate(
        "el => { const k = el.cloneNode(true); k.querySelectorAll('.visually-hidden').forEach(n => n.remove());"
        " return k.innerHTML.split(/<br\\s*\\/?>/i).map(h => { const d = document.createElement('div');"
        " d.innerHTML = h; return d.textContent.trim(); }); }"
    ))


def type_order(form, force: int, flair: int) -> None:  # type: ignore[no-untyped-def]
    """Type an order into a player's order form: its boxes start empty, and one left so is
    refused (an order nobody typed is never sent as 0 + 0)."""
    form.locator("input[name=force]").fill(str(force))
    form.locator("input[name=flair]").fill(str(flair))


def type_every_order(page, force: int, flair: int) -> None:  # type: ignore[no-untyped-def]
    """Type the same order into each order form of a player's page, for their odds to show."""
    for form in page.locator("form.order-form").all():
        type_order(form, force, flair)


def shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def create_game(chromium, server: str, name: str, *, viewport: dict[str, int], arrangement: str = "", hours: str = "", accept_all: bool = True) -> tuple[Any, str, list[str]]:  # type: ignore[no-untyped-def]
    """A game made on the front page in a browser of its own, which accepts every confirmation
    (unless ``accept_all`` is false: the test answers each one): that page (on the created page),
    the organiser page's address and the invite links."""
    page = chromium.new_context(viewport=viewport).new_page()
    page.set_default_timeout(15000)
    if accept_all:
        page.on("dialog", lambda dialog: dialog.accept())
    visit(page, server + "/")
    page.fill("input[name=name]", name)
    if arrangement:
        page.select_option("select[name=arrangement]", arrangement)
    if hours:
        page.fill("input[name=deadline_hours]", hours)
    page.click("#create-game button[type=submit]")
    invites = page.locator("code.invite").all_inner_texts()
    return page, server + str(page.locator("#to-organise").get_attribute("href")), invites


def join_by_invites(chromium, invites: list[str], viewport: dict[str, int]) -> list[Any]:  # type: ignore[no-untyped-def]
    """Each invite opened in a browser of its own, its seat taken as "Player 1", "Player 2"...;
    the players' pages, on their /play page."""
    from playwright.sync_api import expect

    players = []
    for number, link in enumerate(invites, start=1):
        page = chromium.new_context(viewport=viewport).new_page()
        page.set_default_timeout(15000)
        visit(page, link)
        page.fill("input[name=name]", f"Player {number}")
        page.click("#join button[type=submit]")
        expect(page).to_have_url(re.compile(r"/play"))
        players.append(page)
    return players


def start_with_one_seat(page, server: str, name: str, *, hours: str, arrangement: str = "", player: str = "Me") -> str:  # type: ignore[no-untyped-def]
    """Create a game on the front page, take its first seat in this browser under the name
    ``player`` (with no seat claimed the bots would play it all at once) and start it; returns the
    organiser page's address."""
    page.set_default_timeout(15000)
    page.goto(server + "/")
    page.fill("input[name=name]", name)
    page.fill("input[name=deadline_hours]", hours)
    if arrangement:
        page.select_option("select[name=arrangement]", arrangement)
    page.click("#create-game button[type=submit]")
    organise_url = server + str(page.locator("#to-organise").get_attribute("href"))
    page.locator("a.take-seat").first.click()
    page.fill("input[name=name]", player)
    page.click("#join button[type=submit]")
    page.goto(organise_url)
    page.click("#start button")
    return organise_url


class Watchdog:
    """Ends a browser test whose Chromium stops answering, so that one hang costs a test and not
    the whole run: a Playwright call waiting on a page that never answers (or a browser that never
    closes) waits for ever, and a CI run was once cut off after 90 minutes at one such test.

    After ``seconds`` it notes where every thread of this process was, kills the Chromium processes
    started since it began (the waiting call then raises), and if the test has still not ended
    ``grace`` seconds later kills the rest of them too (Playwright's driver)."""

    def __init__(self, seconds: float, *, grace: float = 20.0) -> None:
        import psutil

        self.seconds, self.grace = seconds, grace
        self.stacks = ""  # where each thread was when it fired; empty while it has not
        self._me = psutil.Process()
        self._before = {child.pid for child in self._me.children(recursive=True)}
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="browser-watchdog", daemon=True)
        self._thread.start()

    @property
    def fired(self) -> bool:
        return bool(self.stacks)

    def stop(self) -> None:
        self._done.set()
        self._thread.join()

    def _watch(self) -> None:
        if self._done.wait(self.seconds):
            return
        self.stacks = _where_each_thread_is()
        self._kill(lambda name: "chrom" in name)
        if not self._done.wait(self.grace):
            self._kill(lambda name: True)

    def _kill(self, which: Any) -> None:
        import psutil

        for child in self._me.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if child.pid not in self._before and which(child.name()):
                    child.kill()


def _where_each_thread_is() -> str:
    """Each thread's stack, and each paused greenlet's: Playwright's sync calls wait in a greenlet of
    their own while the main thread runs its event loop, so the test's own line is only there."""
    import gc
    import sys
    import traceback

    import greenlet

    names = {thread.ident: thread.name for thread in threading.enumerate()}
    stacks = [
        f"thread {names.get(ident, ident)}:\n" + "".join(traceback.format_stack(frame))
        for ident, frame in sys._current_frames().items()
    ]
    stacks += [
        "a greenlet waiting in the main thread:\n" + "".join(traceback.format_stack(paused.gr_frame))
        for paused in gc.get_objects()
        if isinstance(paused, greenlet.greenlet) and paused.gr_frame is not None
    ]
    return "\n".join(stacks)
