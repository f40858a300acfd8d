"""The Verify page on a game whose record names bots the server cannot play again (R13, R14): one
it lacks, and one registered on it that fails to load. Such a record comes from another server
(a backup imported here); the stored record is edited to stand in for one."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.orm import Session

from installed_packages import install_package
from sevens.store.models import GameRow
from sevens.tournament import dumps
from web.conftest import WebDb
from web.web_helpers import host_game


def test_the_verify_page_says_which_bot_is_missing_and_which_fails_to_load(
    app: FastAPI, web_db: WebDb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not "Verified", and not "this server lacks" a bot that it has: the page says the registered
    bot fails to load, without what failed (it names the server's files). The page used to answer
    500, the bot's own exception escaping the check."""
    # A bot whose class raises as it is made (a file it needs is gone).
    broken = "class Mine:\n    def __init__(self):\n        raise OSError('/srv/private/weights.bin is missing')\n"
    install_package(tmp_path / "site", "webbrokenbots", {"webbrokenbot": broken}, {"mine-v1": "webbrokenbot:Mine"})
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    game = host_game(app, hours="0")
    game.start()  # nobody joined: the bots play it to the end at once
    with Session(web_db.engine) as db:
        row = db.scalars(select(GameRow).where(GameRow.public_id == game.public_id)).one()
        assert row.record_json is not None
        record = json.loads(row.record_json)
        record["turns"][1]["matches"][0]["home_order"]["autopilot"] = "mine-v1"
        record["turns"][1]["matches"][0]["away_order"]["autopilot"] = "equilibrium-v2"
        row.record_json = dumps(record)
        db.commit()
    page = game.organiser.get(f"{game.base}/verify")
    assert page.status_code == 200
    text = " ".join(html.unescape(page.text).split())
    assert 'id="verify-failed"' in text and 'id="verified"' not in text
    assert "orders of bots that fail to load or to play here were not checked: 'mine-v1'" in text
    assert (
        "not verified in full: this server lacks 'equilibrium-v2'; 'mine-v1' is installed on this server but "
        "fails to load" in text
    )
    assert "weights.bin" not in text and "lacks 'equilibrium-v2', 'mine-v1'" not in text


def test_the_verify_page_says_a_record_changed_in_the_database_fails(app: FastAPI, web_db: WebDb) -> None:
    """A finished game's record kept with another seed and its commitment (so that the dice are no
    longer the seed's) fails verification on its Verify page, said on the page with the game's name:
    the page answered a bare "Internal Server Error" in plain text (no title, no language, nothing
    a screen reader could place), as the record no longer replays to show the game's summary."""
    from sevens.rules.fairdice import seed_commitment

    game = host_game(app, hours="0")
    game.start()  # nobody joined: the bots play it to the end at once
    other = "ab" * 32
    with Session(web_db.engine) as db:
        row = db.scalars(select(GameRow).where(GameRow.public_id == game.public_id)).one()
        assert row.record_json is not None
        row.record_json = row.record_json.replace(row.seed_sha256, seed_commitment(other))
        row.seed_hex, row.seed_sha256 = other, seed_commitment(other)
        name = row.name
        db.commit()
    page = game.organiser.get(f"{game.base}/verify")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    text = " ".join(html.unescape(page.text).split())
    assert 'id="verify-failed"' in text and 'id="verified"' not in text
    assert (
        "Verification failed: the record this server keeps of this game is damaged: it no longer replays "
        "(turns[0].orders_digest: expected" in text
    )
    assert f"<h1>Verify <bdi>{name}</bdi></h1>" in text
