"""Shared test configuration."""

from pathlib import Path

import pytest
from hypothesis import settings

# pytester: the browser tests' watchdog is tried on test runs of its own
pytest_plugins = ["pytester"]

# Bounded property tests: the machine is small and shared.
settings.register_profile("default", max_examples=60, deadline=None)
settings.load_profile("default")


@pytest.fixture(autouse=True)
def _games_kept_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`sevens play` keeps games with people typing in $XDG_STATE_HOME/sevens: never the real one in a
    test (programs started in a pseudo-terminal take the variable from this process's environment)."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return state
