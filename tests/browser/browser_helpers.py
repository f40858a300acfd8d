"""What the browser tests share: a real server under uvicorn, page visits that survive a page's own
reload, screenshots, and a game started from the front page."""

from __future__ import annotations

import base64
import contextlib
import random
import re
import socket
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sevens.web.testing import CHROMIUM, CHROMIUM_ARGS

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def launch_chromium(pw: Any) -> Any:
    """Debian's headless Chromium, with the switches that keep it off the network."""
    return pw.chromium.launch(
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
    )


def _my_processes() -> set[int]:
    import psutil

    return {child.pid for child in psutil.Process().children(recursive=True)}


class SharedChromium:
    """One Playwright driver and one Chromium for a run of browser tests, rather than one each: a
    launch takes 2.4-4.7 s in a loaded CI run, and there are some 130 tests. Each test gets it
    through the ``chromium`` fixture, makes its own contexts in it (new_page and new_context do:
    nothing of one context is seen in another) and has them closed at its end.

    Launched at the first test that asks for it, and again after it was discarded or its Chromium
    went away (a watchdog killed it). Discarded before a test that does not ask for ``chromium``:
    Playwright's sync API cannot start inside another one running (such a test may start its own),
    and at the end of the session."""

    def __init__(self) -> None:
        self._pw: Any = None
        self._browser: Any = None
        self.pids: set[int] = set()  # Playwright's driver and Chromium's processes at its launch
        self.launches = 0

    def browser(self) -> Any:
        if self._browser is not None and self._browser.is_connected():
            return self._browser
        self.discard()
        from playwright.sync_api import sync_playwright

        before = _my_processes()
        self._pw = sync_playwright().start()
        self._browser = launch_chromium(self._pw)
        self.pids = _my_processes() - before
        self.launches += 1
        return self._browser

    def discard(self) -> None:
        """Close the browser and stop the driver; either may be dead already (killed by a
        watchdog), which Playwright answers at once with an error."""
        browser, pw = self._browser, self._pw
        self._browser = self._pw = None
        self.pids = set()
        if browser is not None:
            with contextlib.suppress(Exception):
                browser.close()
        if pw is not None:
            with contextlib.suppress(Exception):
                pw.stop()


TEST_POLL_SECONDS = 1.0
"""How often the test servers' pages poll (SEVENS_POLL_SECONDS): a test that waits for a page to
notice a change (a turn resolved, a link retired, an order in) waits about a second, not the 5 s a
server polls by default. The tests of the pace itself serve the default (``default_pace_server``)."""


def serve(
    tmp_path: Path, *, clock: Callable[[], datetime] | None = None, made: list[Any] | None = None, **settings: Any
) -> Iterator[str]:
    """The real app under uvicorn on a free local port, with a throwaway SQLite database; yields
    its address and stops it afterwards. The port is bound here and the socket handed to uvicorn:
    a port picked as free and bound later could be taken in between by another program. ``clock``:
    the server's time, if not the real one (its scheduler and pages go by it). Its pages poll every
    TEST_POLL_SECONDS unless ``settings`` say otherwise. ``made``: a list the app is put in, for a
    test that reaches into it (its database engine)."""
    import uvicorn

    from sevens.web.app import create_app
    from sevens.web.settings import Settings

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = int(listener.getsockname()[1])
    app = create_app(
        Settings(**{
            "database_url": f"sqlite:///{tmp_path / 'browser.sqlite3'}", "scheduler_seconds": 1.0,
            "poll_seconds": TEST_POLL_SECONDS, **settings,
        }),
        **({} if clock is None else {"clock": clock}),
    )
    if made is not None:
        made.append(app)
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


def wait_until(page: Any, until: Callable[[], bool], seconds: float) -> bool:
    """Whether ``until`` came true within ``seconds``, asked every 200 ms of the page's time."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if until():
            return True
        page.wait_for_timeout(200)
    return False


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


PICTURE_TIME = datetime(2026, 10, 15, 19, 30, tzinfo=UTC)  # a Thursday evening in the club
PICTURE_ADDRESS = "https://sevens.example.org"
"""The address the docs' pictures show in links (the ``base_url`` setting, as a club's server
behind its own name has it): the test server's port differs at each run."""


class Seeded:
    """A stand-in for the ``secrets`` module where the store draws a game's seed, and its tokens
    and public ids: the same draws at every run (a seeded generator), each noted so that
    :func:`varying_shown` can tell them from a draw of the real module."""

    def __init__(self, seed: str) -> None:
        self._random = random.Random(seed)
        self.drawn: set[str] = set()

    def _note(self, drawn: str) -> str:
        self.drawn.add(drawn)
        return drawn

    def token_hex(self, nbytes: int = 32) -> str:
        return self._note(self._random.randbytes(nbytes).hex())

    def token_urlsafe(self, nbytes: int = 32) -> str:
        return self._note(base64.urlsafe_b64encode(self._random.randbytes(nbytes)).rstrip(b"=").decode())


PICTURED: list[Seeded] = []  # the draws of the test now picturing pages (fixed_for_pictures)


def fixed_for_pictures(monkeypatch: Any) -> None:
    """What the docs' pictures would show differently at each run, drawn the same at every run:
    each game's secret seed (its draw, every die and every bot's order follow from it) and each
    token and public id (the links), from two generators so that one more token never moves a seed.
    The server's clock is fixed apart (:func:`picture_server`), and the browser's (:func:`picture_context`)."""
    from sevens.store import games
    from sevens.store import secrets as store_secrets

    seeds, tokens = Seeded("sevens seeds"), Seeded("sevens tokens")
    monkeypatch.setattr(games, "secrets", seeds)
    monkeypatch.setattr(store_secrets, "secrets", tokens)
    monkeypatch.setattr(sys.modules[__name__], "PICTURED", [seeds, tokens])


def picture_server(tmp_path: Path, monkeypatch: Any) -> Iterator[str]:
    """:func:`serve` for a test that pictures pages for the docs: its draws fixed
    (:func:`fixed_for_pictures`), its clock standing at PICTURE_TIME, its links at PICTURE_ADDRESS
    (:func:`local` turns one back into the test server's)."""
    fixed_for_pictures(monkeypatch)
    yield from serve(tmp_path, clock=lambda: PICTURE_TIME, base_url=PICTURE_ADDRESS)


def local(link: str, server: str) -> str:
    """A link the picture server shows (at PICTURE_ADDRESS), to open on the test server."""
    return server + link.removeprefix(PICTURE_ADDRESS)


def picture_context(chromium, **options: Any):  # type: ignore[no-untyped-def]
    """A browser context for the docs' pictures: times shown in UTC in American English, as on a
    machine anywhere, and the page's clock standing at PICTURE_TIME as the server's does."""
    context = chromium.new_context(timezone_id="UTC", locale="en-US", **options)
    context.clock.set_fixed_time(PICTURE_TIME)
    return context


class Pictured:
    """``chromium`` whose every new context is a :func:`picture_context`, for helpers that make
    their own (:func:`join_by_invites`)."""

    def __init__(self, chromium: Any) -> None:
        self._chromium = chromium

    def new_context(self, **options: Any) -> Any:
        return picture_context(self._chromium, **options)


def varying_shown(text: str, server: str) -> list[str]:
    """What in a picture's text would differ at the next run: the test server's address (its port),
    today's date, and a token (32 characters of base64url) or a seed (64 hex digits, or its
    commitment) that the pictures' seeded draws did not give."""
    from sevens.rules.fairdice import seed_commitment

    found = [f"the test server's address {server}"] if server.split("//")[-1] in text or "127.0.0.1" in text else []
    today = datetime.now(UTC)
    for day in (f"{today:%Y-%m-%d}", f"{today:%b} {today.day}, {today.year}", f"{today.day} {today:%b} {today.year}"):
        if day in text:
            found.append(f"today's date {day}")
    drawn = {d for seeded in PICTURED for d in seeded.drawn}
    drawn |= {seed_commitment(d) for d in drawn if len(d) == 64}
    for token in re.findall(r"(?<![\w-])[\w-]{32}(?![\w-])|(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])", text):
        if token not in drawn:
            found.append(f"a token or seed drawn at random: {token}")
    return found


def shot(page, name: str, *, part: str = "", full_page: bool = False) -> None:  # type: ignore[no-untyped-def]
    """docs/screenshots/<name>.png: the page (the whole of it if ``full_page``), or the element
    ``part`` selects. The picture must come out the same at every run, so that one is committed
    only when the page changed: its text must show nothing that varies (:func:`varying_shown`)."""
    shown = page.locator(part) if part else page.locator("body")
    server = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(page.url))
    varying = varying_shown(shown.inner_text(), server)
    assert not varying, f"{name}.png would differ at each run: it shows " + "; ".join(varying)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if part:
        shown.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
    else:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


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
    ``grace`` seconds later kills the rest of them too (Playwright's driver). ``adopted``: processes
    started before it that are the test's all the same (a :class:`SharedChromium`'s), killed as
    those started since, with every process they started."""

    def __init__(self, seconds: float, *, grace: float = 20.0, adopted: set[int] | frozenset[int] = frozenset()) -> None:
        import psutil

        self.seconds, self.grace = seconds, grace
        self.stacks = ""  # where each thread was when it fired; empty while it has not
        self._me = psutil.Process()
        self._before = set()
        for child in self._me.children(recursive=True):
            try:
                lineage = {child.pid} | {parent.pid for parent in child.parents()}
            except psutil.Error:  # gone already: not to be killed if its number comes round again
                lineage = set()
            if not lineage & adopted:
                self._before.add(child.pid)
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
