"""The browser tests' watchdog: a Chromium that stops answering ends one test, not the run.

A page busy for ever (a script that never ends) stands in for a hung Chromium: Playwright's
evaluate has no time limit, so without the watchdog each of these would wait until pytest-timeout's
limit (set short here) failed it."""

from __future__ import annotations

import time

import pytest

import browser.conftest as browser_conftest
from browser.browser_helpers import Watchdog, launch_chromium

pytestmark = pytest.mark.timeout(120)

NEVER_ENDS = "() => { for (;;) {} }"

LIMIT = 10.0
"""The watchdogs' time here: Chromium must start within it (about a second, a few under load)."""


def test_a_page_that_never_answers_is_killed_and_the_waiting_call_raises() -> None:
    from playwright.sync_api import Error, sync_playwright

    watchdog = Watchdog(LIMIT)  # before the launch: it kills the Chromium started after it
    try:
        with sync_playwright() as pw:
            page = launch_chromium(pw).new_page()
            started = time.monotonic()
            with pytest.raises(Error, match="closed"):
                page.evaluate(NEVER_ENDS)
            waited = time.monotonic() - started
    finally:
        watchdog.stop()
    assert watchdog.fired and waited < 60
    # where the test was waiting, for the report
    assert "page.evaluate(NEVER_ENDS)" in watchdog.stacks, watchdog.stacks


def test_a_watchdog_stopped_in_time_kills_nothing() -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        watchdog = Watchdog(LIMIT)
        made = time.monotonic()
        page = launch_chromium(pw).new_page()
        assert page.evaluate("() => 6 * 7") == 42
        watchdog.stop()
        time.sleep(max(0.0, made + LIMIT + 1 - time.monotonic()))  # past the time it would have fired
        assert not watchdog.fired
        assert page.evaluate("() => 'still here'") == "still here"


_TESTS = '''
import pathlib

GOES = pathlib.Path(__file__).with_name("goes")


def test_browser(chromium):
    goes = int(GOES.read_text()) if GOES.exists() else 0
    GOES.write_text(str(goes + 1))
    page = chromium.new_page()
    if goes < HANGS:
        page.evaluate("() => { for (;;) {} }")
    assert page.evaluate("() => 1 + 1") == 2
'''


def _run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, hangs: int) -> pytest.RunResult:
    monkeypatch.setattr(browser_conftest, "BROWSER_TEST_SECONDS", LIMIT)
    pytester.makeconftest("from browser.conftest import *\n")
    pytester.makepyfile(test_hung=f"HANGS = {hangs}\n" + _TESTS)
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", "-o", "timeout=100")


def test_a_test_whose_chromium_hung_once_goes_again_and_says_so(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run(pytester, monkeypatch, hangs=1)
    result.assert_outcomes(passed=1)
    assert (pytester.path / "goes").read_text() == "2"
    result.stdout.fnmatch_lines(
        ["*Chromium hung (killed, and the test went again)*", "test_hung.py::test_browser (go 1): Chromium gave no answer in 10 s; where it was:"]
    )
    assert 'page.evaluate("() => { for (;;) {} }")' in result.stdout.str()
    assert "(go 2)" not in result.stdout.str()


def test_a_test_whose_chromium_hangs_twice_fails(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run(pytester, monkeypatch, hangs=2)
    result.assert_outcomes(failed=1)
    assert (pytester.path / "goes").read_text() == "2"
    result.stdout.fnmatch_lines(["*(go 1): Chromium gave no answer in 10 s*", "*(go 2): Chromium gave no answer in 10 s*"])


def test_a_test_that_fails_without_hanging_does_not_go_again(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser_conftest, "BROWSER_TEST_SECONDS", 30.0)
    pytester.makeconftest("from browser.conftest import *\n")
    pytester.makepyfile(
        test_fails='''
import pathlib

GOES = pathlib.Path(__file__).with_name("goes")


def test_browser(chromium):
    GOES.write_text(GOES.read_text() + "x" if GOES.exists() else "x")
    assert chromium.new_page().evaluate("() => 1 + 1") == 3
'''
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    assert (pytester.path / "goes").read_text() == "x"
    assert "Chromium hung" not in result.stdout.str()


def test_a_second_go_that_fails_before_its_chromium_starts_is_not_called_a_hang(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(browser_conftest, "BROWSER_TEST_SECONDS", LIMIT)
    pytester.makeconftest("from browser.conftest import *\n")
    pytester.makepyfile(
        test_setup_fails='''
import pathlib

import pytest

GOES = pathlib.Path(__file__).with_name("goes")


@pytest.fixture
def counted():
    goes = int(GOES.read_text()) if GOES.exists() else 0
    GOES.write_text(str(goes + 1))
    if goes == 1:
        raise RuntimeError("the second go's setup failed")
    return goes


def test_browser(counted, chromium):
    chromium.new_page().evaluate("() => { for (;;) {} }")
'''
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-o", "timeout=100")
    result.assert_outcomes(errors=1)
    assert (pytester.path / "goes").read_text() == "2"
    out = result.stdout.str()
    assert "(go 1): Chromium gave no answer" in out and "the second go's setup failed" in out
    # the first go's watchdog is not the second go's: go 2 never had a Chromium to hang
    assert "(go 2)" not in out, out


_SHARING = '''
import os
import pathlib
import signal
import time

import psutil

from browser.conftest import SHARED

NOTES = pathlib.Path(__file__).with_name("notes")


def _note(request, what):
    with NOTES.open("a") as notes:
        notes.write(f"{what} {request.config.stash[SHARED].launches} {time.monotonic()}\\n")


def test_first(request, chromium):
    _note(request, "first")
    # left open for the fixture to close: a cookie, a page and a page's own context
    context = chromium.new_context(color_scheme="dark", viewport={"width": 320, "height": 480})
    context.add_cookies([{"name": "seen", "value": "yes", "url": "http://127.0.0.1/"}])
    context.new_page()
    chromium.new_page()


def test_hung(request, chromium):
    goes = sum(line.startswith("hung") for line in NOTES.read_text().splitlines())
    _note(request, "hung")
    assert chromium.contexts == []
    if goes == 0:
        # the shared Chromium itself stops answering, not only a page (whose renderer, started
        # since the watchdog began, it would kill all the same)
        for pid in request.config.stash[SHARED].pids:
            if "chrom" in psutil.Process(pid).name():
                os.kill(pid, signal.SIGSTOP)
    assert chromium.new_page().evaluate("() => 1 + 1") == 2


def test_after(request, chromium):
    _note(request, "after")
    assert chromium.contexts == []
    context = chromium.new_context()
    assert context.cookies() == []
    page = context.new_page()
    assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches") is False
    assert page.evaluate("() => innerWidth") != 320
'''


def test_the_tests_share_one_chromium_each_in_contexts_of_its_own_until_one_hangs(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One Chromium for a run's browser tests, not one each; nothing a test left open is there for
    the next. A test that hangs on it has it killed (though it was started before that test's
    watchdog), goes again on a fresh one, and the test after it runs on that one."""
    monkeypatch.setattr(browser_conftest, "BROWSER_TEST_SECONDS", LIMIT)
    pytester.makeconftest("from browser.conftest import *\n")
    pytester.makepyfile(test_sharing=_SHARING)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-o", "timeout=100")
    result.assert_outcomes(passed=3)
    # the number of launches each test found: one for the first two, a second for the hung test's
    # second go, which the next test shares
    notes = [line.split() for line in (pytester.path / "notes").read_text().splitlines()]
    assert [(what, launches) for what, launches, _ in notes] == [("first", "1"), ("hung", "1"), ("hung", "2"), ("after", "2")]
    # ended by the watchdog, not by pytest-timeout's 100 s
    assert float(notes[2][2]) - float(notes[1][2]) < 60, notes
    result.stdout.fnmatch_lines(["*Chromium hung*", "test_sharing.py::test_hung (go 1): Chromium gave no answer in 10 s*"])
