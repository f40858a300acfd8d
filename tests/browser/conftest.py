"""Browser tests: real headless Chromium driven by Playwright, against the real app under uvicorn."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _pytest.runner import runtestprotocol

from browser.browser_helpers import CHROMIUM, SharedChromium, Watchdog, picture_server, serve

BROWSER_TEST_SECONDS = 300.0
"""How long one browser test may take before its Chromium is taken to have hung: the slowest takes
about a minute in a loaded CI run (`bash scripts/test` prints the slowest)."""

WATCHDOG = pytest.StashKey[Watchdog]()
HUNG = pytest.StashKey[list[str]]()  # each test whose Chromium hung, and where it was
SHARED = pytest.StashKey[SharedChromium]()  # the session's one Chromium, which the tests share
LAST_TO_SHARE = pytest.StashKey[bool]()  # whether the test after this one has no use for it


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives Debian's headless Chromium through Playwright")
    config.stash[HUNG] = []
    config.stash[SHARED] = SharedChromium()


def pytest_sessionfinish(session: pytest.Session) -> None:
    shared = session.config.stash.get(SHARED, None)
    if shared is not None:
        shared.discard()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test, skipped with how to get Chromium where it is
    missing; one place rather than a block at the top of each file (one file had forgotten it)."""
    here = Path(__file__).parent
    missing = pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (scripts/setup-system)"
    )
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(missing)


def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """A browser test whose Chromium hung (the watchdog killed it) goes once more: a hang is
    Chromium's, and says nothing of the app. It is reported at the end of the run all the same, with
    where it was; a test that fails for any other reason, or hangs twice, fails."""
    if "chromium" not in getattr(item, "fixturenames", ()):
        return None
    # the next test may start Playwright of its own, which cannot start inside the shared one
    item.stash[LAST_TO_SHARE] = nextitem is None or "chromium" not in getattr(nextitem, "fixturenames", ())
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    for go in (1, 2):
        if go == 2:
            item._initrequest()  # type: ignore[attr-defined]  # fresh fixtures for the second go
            # the first go's watchdog is not this go's, which may fail before it starts one
            del item.stash[WATCHDOG]
        reports = runtestprotocol(item, nextitem=nextitem, log=False)
        watchdog = item.stash.get(WATCHDOG, None)
        if watchdog is None or not watchdog.fired:
            break
        hung = f"{item.nodeid} (go {go}): Chromium gave no answer in {watchdog.seconds:.0f} s; where it was:"
        item.config.stash[HUNG].append(f"{hung}\n{watchdog.stacks}")
        if not any(report.failed for report in reports):
            break
    for report in reports:
        item.ihook.pytest_runtest_logreport(report=report)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    hung = config.stash.get(HUNG, [])
    if hung:
        terminalreporter.section("Chromium hung (killed, and the test went again)")
        for what in hung:
            terminalreporter.write_line(what)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    yield from serve(tmp_path)


@pytest.fixture(name="picture_server")
def picture_server_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The server of a test that writes docs/screenshots: the same game, links and times at
    every run (browser_helpers.picture_server)."""
    yield from picture_server(tmp_path, monkeypatch)


@pytest.fixture
def default_pace_server(tmp_path: Path) -> Iterator[str]:
    """A server whose pages poll at a server's default pace (SEVENS_POLL_SECONDS unset), not the
    other test servers' quick one: for the tests that count a page's polls or the bytes it costs."""
    from sevens.web.settings import Settings

    yield from serve(tmp_path, poll_seconds=Settings.model_fields["poll_seconds"].default)


@pytest.fixture
def one_game_server(tmp_path: Path) -> Iterator[str]:
    """A server that lets an address create one game an hour."""
    yield from serve(tmp_path, games_per_hour=1)


@pytest.fixture
def few_acts_server(tmp_path: Path) -> Iterator[str]:
    """A server that takes two organiser acts per game an hour and makes one link for another
    device per seat an hour."""
    yield from serve(tmp_path, organiser_acts_per_hour=2, device_links_per_hour=1)


@pytest.fixture
def chromium(request: pytest.FixtureRequest) -> Iterator[Any]:
    """Debian's headless Chromium under a watchdog (see :func:`pytest_runtest_protocol`): the one
    the session's browser tests share (:class:`SharedChromium`), from which each test makes its own
    contexts; every context the test leaves open is closed at its end. A test whose Chromium hung
    leaves it killed and discarded, so that the next (its second go too) has a fresh one."""
    shared = request.config.stash[SHARED]
    # the shared Chromium was started before this test, and is its all the same for the watchdog
    watchdog = request.node.stash[WATCHDOG] = Watchdog(BROWSER_TEST_SECONDS, adopted=frozenset(shared.pids))
    try:
        browser = shared.browser()  # launched again if it is gone, since the watchdog began
        try:
            yield browser
        finally:
            for context in browser.contexts:
                with contextlib.suppress(Exception):  # a browser the watchdog killed has none to close
                    context.close()
            # a context that would not close would be the next test's to see: start afresh instead
            if watchdog.fired or not browser.is_connected() or browser.contexts:
                shared.discard()
            elif request.node.stash.get(LAST_TO_SHARE, True):
                shared.discard()  # under the watchdog: closing a Chromium can hang as well
    finally:
        watchdog.stop()
