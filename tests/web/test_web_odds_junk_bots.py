"""The live odds against bots whose mix or typical order cannot be told (they raise, give junk, or
never stop giving), through a real app and its real odds process: each such bot's row is left out
and the others' odds answer, as sevens play leaves its odds line out and says why
(tests/cli/test_play_mix_odds_cli.py). Both ask sevens.bots.plausible_orders.

Hosted games play built-in bots only, so these bots are put among the built-ins in both processes:
here by monkeypatch, in the odds process by a sitecustomize module on its PYTHONPATH."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sevens.bots import STRATEGIES
from sevens.web.app import create_app
from sevens.web.settings import Settings

JUNK_BOTS = '''
import itertools

from sevens.bots import EvenSpread
from sevens.rules import Order


class Boom(EvenSpread):
    def order_mix(self, view):
        raise RuntimeError("no mix today")


class Junk(EvenSpread):
    def order_mix(self, view):
        return "eleven"


class Endless(EvenSpread):
    def order_mix(self, view):
        return itertools.repeat((Order(force=5, flair=3), 1.0))


class NoOrder:
    name = "no-order"

    def order(self, view, rng):
        return None


class Crash:
    name = "crash"

    def order(self, view, rng):
        raise SystemExit("bye")


BOTS = {"x-boom": Boom, "x-junk": Junk, "x-endless": Endless, "x-no-order": NoOrder, "x-crash": Crash}
'''


def test_the_odds_leave_out_each_bot_that_raises_or_gives_junk_and_answer_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user's bot raising in its order_mix (or its order, SystemExit included, or giving None for
    an order) failed the whole answer, 503 'the odds process ... ask again' at every keystroke, and
    an endless mix held it until the limit; a mix that was junk was left out. Now each is left out
    alike, and the built-in bots' rows answer."""
    (tmp_path / "junk_bots.py").write_text(JUNK_BOTS)
    (tmp_path / "sitecustomize.py").write_text(
        "import junk_bots\nfrom sevens.bots import STRATEGIES\nSTRATEGIES.update(junk_bots.BOTS)\n"
    )
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.syspath_prepend(str(tmp_path))
    junk = importlib.import_module("junk_bots")
    for name, bot in junk.BOTS.items():
        monkeypatch.setitem(STRATEGIES, name, bot)
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'site.sqlite3'}", scheduler=False, odds_seconds=20))
    try:
        with TestClient(app) as client:
            created = client.post("/api/v1/games", json={"name": "Junk", "players": 4}).json()
            organiser = {"Authorization": f"Bearer {created['token']}"}
            joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "bot p1"}).json()
            p1 = {"Authorization": f"Bearer {joined['token']}"}
            assert client.post(f"/api/v1/games/{created['game']}/start", headers=organiser).status_code == 200
            team = client.get(f"/api/v1/games/{created['game']}", headers=p1).json()["my_teams"][0]["team"]
            answer = client.get(f"/api/v1/games/{created['game']}/teams/{team}/odds?force=10&flair=9", headers=p1)
    finally:
        sys.modules.pop("junk_bots", None)
    assert answer.status_code == 200, answer.text
    rows = {row["bot"] for row in answer.json()["against"]}
    assert rows == set(STRATEGIES) - set(junk.BOTS)
