"""The bot printed in docs/web.md, run as printed against a real `sevens serve` over HTTP: it
joins, waits for the start, orders every turn its teams play, and sees the game to its end."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from sevens.tournament.verify import verify_record
from web.test_web_server import _serving

DOCS = Path(__file__).resolve().parents[2] / "docs" / "web.md"


def _docs_bot() -> Any:
    """The ``play`` function of the docs' bot, from the page's code block."""
    found = re.search(r"```python\n(.*?def play\(.*?)```", DOCS.read_text(), re.DOTALL)
    assert found is not None, "docs/web.md has no bot with a play() function"
    namespace: dict[str, Any] = {}
    exec(compile(found.group(1), str(DOCS), "exec"), namespace)
    return namespace["play"]


def test_the_docs_bot_plays_a_game_to_its_end(tmp_path: Path) -> None:
    play = _docs_bot()
    with _serving(tmp_path) as port:
        base = f"http://127.0.0.1:{port}"
        client = httpx.Client(base_url=base, timeout=30)
        created = client.post("/api/v1/games", json={"name": "Docs bot", "players": 4}).json()
        game, organiser = created["game"], {"Authorization": f"Bearer {created['token']}"}
        outcome: dict[str, Any] = {}

        def run() -> None:
            try:
                outcome["view"] = play(base, created["invites"]["p1"], "Docs bot", every=0.2)
            except Exception as error:  # reported below, in the test's own thread
                outcome["error"] = error

        bot = threading.Thread(target=run, daemon=True)
        bot.start()
        # The seat is taken before the start, or the bots would play every team at once.
        for _ in range(600):
            seats = client.get(f"/api/v1/games/{game}", headers=organiser).json()["seats"]
            if seats[0]["joined"] or "error" in outcome:
                break
            time.sleep(0.1)
        assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
        bot.join(timeout=600)
        assert not bot.is_alive(), "the docs bot did not see the game end"
        assert "error" not in outcome, outcome.get("error")
        view = outcome["view"]
        assert view["status"] == "finished" and view["champion"] and view["seed"]
        mine = {team["team"] for team in view["my_teams"]}
        played = [
            side
            for turn in view["turns"]
            for match in turn["matches"]
            for side in (match["home"], match["away"])
            if side["team"] in mine
        ]
        assert played and not any(side["missed"] for side in played), "the bot missed an order"
        record = client.get(f"/api/v1/games/{game}/record").json()
        assert verify_record(record).finished
