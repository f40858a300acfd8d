"""Browser tests: real headless Chromium driven by Playwright, against the real app under uvicorn."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.browser_helpers import CHROMIUM, serve


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives Debian's headless Chromium through Playwright")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    yield from serve(tmp_path)


@pytest.fixture
def one_game_server(tmp_path: Path) -> Iterator[str]:
    """A server that lets an address create one game an hour."""
    yield from serve(tmp_path, games_per_hour=1)


@pytest.fixture
def chromium() -> Iterator[Any]:
    """Debian's headless Chromium, with the switches that keep it off the network."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            yield browser
        finally:
            browser.close()
