"""A server's games at every stage, backed up with `sevens export --full` and restored with `sevens
import` into an empty SQLite and an empty PostgreSQL database (under scripts/pg): every page and
record reads the same on the restored server as on the old one, the open orders are kept, and the
links and tokens still open what they opened. Run against the real app on each database."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func, select
from typer.testing import CliRunner

from backup_games import NOW, Played, play_every_stage
from reliability.helpers import database
from sevens.cli.main import app as cli
from sevens.store.backup import export_backup
from sevens.store.db import make_sessionmaker
from sevens.store.models import GameRow, OrderRow, TeamRow
from sevens.store.testing import backends
from sevens.web.app import create_app
from sevens.web.security import SESSION_COOKIE
from sevens.web.settings import Settings

runner = CliRunner()
LATER = NOW + timedelta(minutes=10)  # before any open turn's deadline


@contextmanager
def site(url: str) -> Iterator[TestClient]:
    settings = Settings(database_url=url, scheduler=False, migrate=False, rate_limit_attempts=1000)
    application = create_app(settings, clock=lambda: LATER)
    try:
        yield TestClient(application, follow_redirects=False)
    finally:
        application.state.odds_queue.close()
        application.state.engine.dispose()


# What differs from one server, or one request, to the next and is no part of a game: the form
# tokens (each server marks its order forms, and the organiser page's, with a key of its own) and
# the style's nonce.
_PER_REQUEST = re.compile(r'((?:name="(?:csrf|proof|seat_proof|organises)"|nonce=)[^>]*?value=|nonce=)"[^"]*"')


def _same(text: str) -> str:
    return _PER_REQUEST.sub(r'\1"…"', text)


def _read(client: TestClient, played: Played, *, cookie: str, bot: str) -> dict[str, tuple[int, str]]:
    """Every page, download and API answer of every game, as the organiser's browser, a bot and a
    spectator see them; the organiser and invite links as followed by a new browser."""
    seen: dict[str, tuple[int, str]] = {}

    def get(path: str, **headers: str) -> None:
        answer = client.get(path, headers=headers)
        seen[f"{path} {sorted(headers)}"] = (answer.status_code, _same(answer.text))

    client.cookies.clear()
    get("/")
    for name, game in played.ids.items():
        for path in ("", "/record.json", "/standing.csv", "/matches.csv", "/verify", "/state", "/who-ordered"):
            get(f"/games/{game}{path}")
        get(f"/api/v1/games/{game}/state", Authorization=f"Bearer {bot}")
        get(f"/organiser/{played.organiser[name]}")
        for token in played.invites.get(name, {}).values():
            get(f"/join/{token}")
    get(f"/api/v1/games/{played.deleted}/state", Authorization=f"Bearer {played.tokens['deleted bot']}")
    get("/api/v1/me", Authorization=f"Bearer {bot}")
    client.cookies.set(SESSION_COOKIE, cookie)
    get("/")
    for game in played.ids.values():
        for path in ("", "/organise", "/links", "/play"):
            get(f"/games/{game}{path}")
    client.cookies.clear()
    return seen


def _open_orders(engine: Engine, played: Played) -> dict[str, dict[str, tuple[int, int, bool]]]:
    with make_sessionmaker(engine)() as db:
        kept: dict[str, dict[str, tuple[int, int, bool]]] = {}
        for name in played.open_orders:
            game = db.scalar(select(GameRow).where(GameRow.public_id == played.ids[name]))
            assert game is not None
            rows = db.scalars(select(OrderRow).where(OrderRow.game_id == game.id, OrderRow.turn == game.current_turn))
            kept[name] = {o.team_id: (o.force, o.flair, o.ready) for o in rows}
        return kept


@pytest.mark.parametrize("target", backends())
def test_every_game_at_every_stage_reads_the_same_after_a_restore(target: str, tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as (old_url, old), database(target, tmp_path) as (new_url, new):
        played = play_every_stage(old)
        backup = tmp_path / "club.json"
        result = runner.invoke(cli, ["export", "--full", "--database-url", old_url, str(backup)])
        assert result.exit_code == 0, result.output
        result = runner.invoke(cli, ["import", "--database-url", new_url, str(backup)])
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith("imported 8 games (6 still open) and 2 credentials into "), result.stdout
        # The open orders of the groups, the knock-outs, the private game and the turn a game was
        # ended in: kept.
        assert _open_orders(new, played) == _open_orders(old, played) == played.open_orders
        with make_sessionmaker(old)() as a, make_sessionmaker(new)() as b:
            before, after = (export_backup(db, full=True, now=NOW) for db in (a, b))
        assert after == before
        cookie, bot = played.tokens["session"], played.tokens["bot"]
        with site(old_url) as client:
            pages = _read(client, played, cookie=cookie, bot=bot)
        with site(new_url) as client:
            again = _read(client, played, cookie=cookie, bot=bot)
        assert {path: answer[0] for path, answer in pages.items()} == {path: answer[0] for path, answer in again.items()}
        differ = [path for path in pages if pages[path] != again[path]]
        assert differ == [], f"these read differently after the restore: {differ}"
        # Not only the same: working. The links open their game, the bot plays its seat, the
        # browser organises, and the lobby's unused invites still take a seat.
        statuses = {path.split()[0]: code for path, (code, _) in again.items()}
        assert all(statuses[f"/organiser/{played.organiser[name]}"] == 200 for name in played.ids)
        assert statuses[f"/api/v1/games/{played.ids['groups']}/state"] == 200
        assert statuses[f"/games/{played.ids['groups']}/organise"] == 200
        lobby = played.invites["lobby"]
        assert [statuses[f"/join/{lobby[p]}"] for p in ("p3", "p4")] == [200, 200]
        deleted = again[f"/api/v1/games/{played.deleted}/state ['Authorization']"]
        assert deleted[0] == 401 and "was deleted" in deleted[1], deleted  # its bot is told why, as before


@pytest.mark.parametrize("target", backends())
def test_a_restore_onto_a_server_holding_some_of_the_games_is_refused_and_changes_nothing(
    target: str, tmp_path: Path
) -> None:
    """A backup imported onto the server still holding part of it (an older copy of the database):
    neither a merge that would lose one side's turns nor a half import, but a refusal saying what
    the database holds, and the database as it was."""
    with database("sqlite", tmp_path) as (old_url, old), database(target, tmp_path) as (new_url, new):
        play_every_stage(old)
        backup = tmp_path / "club.json"
        assert runner.invoke(cli, ["export", "--full", "--database-url", old_url, str(backup)]).exit_code == 0
        document = json.loads(backup.read_text(encoding="utf-8"))
        older = tmp_path / "older.json"
        older.write_text(json.dumps({**document, "games": document["games"][:3], "credentials": []}), encoding="utf-8")
        assert runner.invoke(cli, ["import", "--database-url", new_url, str(older)]).exit_code == 0
        with make_sessionmaker(new)() as db:
            before = export_backup(db, full=True, now=NOW)
        result = runner.invoke(cli, ["import", "--database-url", new_url, str(backup)])
        assert result.exit_code == 2
        assert result.stderr.startswith("error: the database already holds 3 games and 0 credentials: import restores "
                                        "into an empty database only, so name a new one"), result.stderr
        with make_sessionmaker(new)() as db:
            assert export_backup(db, full=True, now=NOW) == before
            assert db.scalar(select(func.count()).select_from(TeamRow)) == 3 * 8 - 8  # the lobby has no teams
