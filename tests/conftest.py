"""Shared test configuration."""

import signal
from pathlib import Path

import pytest
from hypothesis import settings

# pytester: the browser tests' watchdog is tried on test runs of its own
pytest_plugins = ["pytester"]

# Bounded property tests: the machine is small and shared.
settings.register_profile("default", max_examples=60, deadline=None)
settings.load_profile("default")


def pytest_configure(config: pytest.Config) -> None:
    """Signals at their defaults, whatever the runner started with: an ignored signal is passed on
    to every program a test starts, so a suite run under ``nohup`` (SIGHUP ignored) or as a script's
    background job (SIGINT ignored) failed the tests of a closed terminal or a Ctrl-C, which the
    commands rightly ignore then. A test that means to start a program ignoring one says so itself."""
    for signum in (signal.SIGHUP, signal.SIGTERM, signal.SIGQUIT):
        if signal.getsignal(signum) is signal.SIG_IGN:
            signal.signal(signum, signal.SIG_DFL)
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _games_kept_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`sevens play` keeps games with people typing in $XDG_STATE_HOME/sevens: never the real one in a
    test (programs started in a pseudo-terminal take the variable from this process's environment)."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return state
