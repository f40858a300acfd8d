"""Pages while the server cannot answer for a while.

The server's own 503 page (its database unusable) answered to a page opened by hand was a dead end:
nothing on it asked again, so the reader stood on it until they reloaded. It now asks the address
again by itself, at a pace that slows to the answer's Retry-After, says when it last tried, and
reloads once the page is served; never the 503 of a form sent (a reload would send it again), nor
another error page. And a poll of ``/state`` whose handling throws is caught and logged once, and
the polls go on."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.browser_helpers import serve, start_with_one_seat, visit, wait_until


class Site:
    """A test server whose SQLite file sits alone in a folder, which ``down`` moves away (the
    pool's connection let go, so the next request cannot open the database: 503) and ``up`` puts
    back."""

    def __init__(self, tmp_path: Path) -> None:
        self.folder = tmp_path / "games"
        self.folder.mkdir()
        self.moved = tmp_path / "moved"
        self.apps: list[Any] = []
        self.running = serve(
            tmp_path, made=self.apps, database_url=f"sqlite:///{self.folder / 'site.sqlite3'}", scheduler=False
        )
        self.url = next(self.running)

    def down(self) -> None:
        self.folder.rename(self.moved)
        self.apps[0].state.engine.dispose()  # after the move: a connection opened between is let go too

    def up(self) -> None:
        self.moved.rename(self.folder)
        self.apps[0].state.engine.dispose()

    def stop(self) -> None:
        self.running.close()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    made = Site(tmp_path)
    yield made
    made.stop()


def _requests(page: Any) -> list[tuple[float, str, str]]:
    """Each request ``page`` sends from now on but for its static files (the icon, fetched as it
    pleases the browser): when, its method and its address."""
    sent: list[tuple[float, str, str]] = []
    page.on("request", lambda r: None if "/static/" in r.url else sent.append((time.monotonic(), r.method, r.url)))
    return sent


def test_a_page_opened_while_the_database_is_unusable_opens_by_itself_once_it_is_back(
    site: Site, chromium: Any
) -> None:
    from playwright.sync_api import expect

    page = chromium.new_context().new_page()
    page.set_default_timeout(15000)
    site.down()
    answer = page.goto(site.url + "/")
    assert answer is not None and answer.status == 503
    sent = _requests(page)
    note = page.locator("#self-retry")
    # the page's pace (1 s on the test servers) doubled after each refusal: 1, 2, 4 s
    expect(note).to_contain_text("still 503", timeout=10000)
    expect(note).to_have_attribute("role", "status")
    said = note.inner_text()
    assert said.startswith("This page asks the server again by itself, next in "), said
    assert "up to every 60 s" in said and "; last try " in said, said
    page.wait_for_timeout(4000)
    asked = [when for when, method, url in sent if url == site.url + "/"]
    assert all(method == "HEAD" for _, method, url in sent if url == site.url + "/")
    gaps = [later - before for before, later in itertools.pairwise(asked)]
    assert 2 <= len(asked) <= 4 and all(gap > 1.5 for gap in gaps), (asked, gaps)  # never a tight loop
    site.up()
    expect(page.locator("h1")).not_to_contain_text("503", timeout=20000)
    assert page.url == site.url + "/"
    assert page.locator("#self-retry").count() == 0


def test_a_forms_503_page_and_a_404_page_ask_nothing_again(site: Site, chromium: Any) -> None:
    from playwright.sync_api import expect

    page = chromium.new_context().new_page()
    page.set_default_timeout(15000)
    page.goto(site.url + "/")
    page.fill("input[name=name]", "Outage cup")
    site.down()
    with page.expect_navigation():
        page.click("#create-game button[type=submit]")
    expect(page.locator("h1")).to_contain_text("503")
    expect(page.locator("#what-now")).to_contain_text("Go back to the page you came from and reload it")
    assert page.locator("#self-retry").count() == 0
    sent = _requests(page)
    page.wait_for_timeout(3000)
    site.up()
    page.wait_for_timeout(3000)
    assert sent == [], sent
    expect(page.locator("h1")).to_contain_text("503")
    answer = page.goto(site.url + "/games/nosuchgame")
    assert answer is not None and answer.status == 404
    sent.clear()
    page.wait_for_timeout(4000)
    assert sent == [], sent
    assert page.locator("#self-retry").count() == 0


def test_a_poll_whose_handling_fails_is_logged_once_and_the_page_still_follows_the_game(
    site: Site, chromium: Any
) -> None:
    """A poll answered 200 with a server time no date can hold past this instant (as a proxy
    mangling the header could send) threw as the page said when it was up to date: an unhandled
    rejection at every tick, in the console and nowhere else."""
    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, site.url, "Throwing cup", hours="24")
    play = organise.removesuffix("/organise") + "/play"
    visit(page, play)
    failures: list[str] = []
    page.on("pageerror", lambda error: failures.append(str(error)))
    logged: list[str] = []
    page.on("console", lambda message: logged.append(message.text) if message.type == "error" else None)
    mangled = {"count": 0, "on": True}

    def answer(route: Any) -> None:
        if not mangled["on"]:
            route.continue_()
            return
        real = route.fetch()
        mangled["count"] += 1
        route.fulfill(response=real, headers={**real.headers, "sevens-server-time": "+275760-09-13T00:00:00.000Z"})

    page.route("**/state*", answer)
    assert wait_until(page, lambda: mangled["count"] >= 4, 15), mangled
    mangled["on"] = False
    organiser = context.new_page()
    organiser.on("dialog", lambda dialog: dialog.accept())
    visit(organiser, organise)
    organiser.click("#resolve button")
    from playwright.sync_api import expect

    expect(page.locator("#turn")).to_contain_text("2 of", timeout=20000)
    ours = [text for text in logged if text.startswith("Sevens:")]
    assert failures == [], failures
    assert len(ours) == 1 and "poll failed" in ours[0], logged
    page.unroute_all(behavior="ignoreErrors")  # a poll's answer being fetched at the close raised at the next step
    context.close()
