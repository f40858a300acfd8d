"""Browser tests: real headless Chromium driven by Playwright."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives Debian's headless Chromium through Playwright")
