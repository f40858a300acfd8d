"""Shared set-up for the command-line tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _games_kept_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`sevens play` keeps games with people typing in $XDG_STATE_HOME/sevens: never the real one here
    (the pseudo-terminal tests' programs take the variable from this process's environment)."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return state
