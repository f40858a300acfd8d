"""A package registering a bot under a built-in's name: hosted games play built-in bots only, so the
menus' bot of that name is the built-in; the server says so when it starts rather than leave the
package's author to take the built-in's play for their own bot's."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from installed_packages import install_package
from sevens.web.app import create_app
from sevens.web.settings import Settings


def _start_up_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'site.sqlite3'}", scheduler=False))
    caplog.set_level(logging.INFO, logger="sevens")
    with TestClient(app) as client:  # runs the app's start-up, as sevens serve does
        assert client.get("/api/v1/strategies").status_code == 200
    return [(r.levelname, r.getMessage()) for r in caplog.records if r.name.startswith("sevens")]


def test_a_registered_bot_under_a_built_ins_name_is_said_at_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    site = tmp_path / "site"
    mine = "from sevens.bots import EvenSpread\n\n\nclass Mine(EvenSpread):\n    pass\n"
    install_package(site, "hostbots", {"hostbots_mine": mine},
                    {"equilibrium": "hostbots_mine:Mine", "even-flair@1.5": "hostbots_mine:Mine", "cautious": "hostbots_mine:Mine"})
    monkeypatch.syspath_prepend(str(site))
    said = _start_up_log(tmp_path, caplog)
    assert said == [
        (
            "WARNING",
            f"the package hostbots registers a bot called {name!r}, which is a built-in's name: the games here play "
            f"the built-in {name} wherever it is chosen (default bot, house teams, autopilots), never the package's, "
            "since hosted games play built-in bots only; sevens play and sevens lab play the package's by its path, "
            "hostbots_mine:Mine",
        )
        for name in ("equilibrium", "even-flair@1.5")  # 'cautious' is no built-in's name: nothing said of it
    ]


def test_no_such_note_without_a_package_that_registers_one(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert _start_up_log(tmp_path, caplog) == []
