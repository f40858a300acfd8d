"""What a backup holds that is secret (docs/backup.md, "What is secret, and how to keep it"), one
test per rule, on backups `sevens export` writes of a real database with games at every stage."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from backup_games import NOW, Played, play_every_stage
from reliability.helpers import database
from sevens.cli.main import app
from sevens.store.auth import create_principal
from sevens.store.db import make_sessionmaker, session_scope
from sevens.store.models import GameRow, PrincipalKind
from sevens.store.secrets import hash_token
from sevens.web.security import session_csrf

runner = CliRunner()


def _backups(tmp_path: Path) -> tuple[Played, dict[str, str], dict[str, str]]:
    """The games played, and the text of each kind of backup of them and each game's seed by name;
    also a browser that joined from a form before it had a session (its CSRF cookie, hashed in
    the database for ten minutes, is given as the token ``pre-session``)."""
    with database("sqlite", tmp_path) as (url, engine):
        played = play_every_stage(engine)
        with session_scope(make_sessionmaker(engine)) as db:
            create_principal(db, kind=PrincipalKind.SESSION, now=NOW, pre_session="a-new-browsers-csrf-cookie")
            played.tokens["pre-session"] = "a-new-browsers-csrf-cookie"
            seeds = {g.public_id: g.seed_hex for g in db.scalars(select(GameRow))}
        texts = {}
        for kind, options in (("full", ["--full"]), ("shareable", [])):
            path = tmp_path / f"{kind}.json"
            result = runner.invoke(app, ["export", *options, "--database-url", url, str(path)])
            assert result.exit_code == 0, result.output
            texts[kind] = path.read_text(encoding="utf-8")
            texts[f"{kind}, said"] = result.stdout
    return played, texts, {name: seeds[game] for name, game in played.ids.items()}


@pytest.fixture(scope="module")
def backups(tmp_path_factory: pytest.TempPathFactory) -> tuple[Played, dict[str, str], dict[str, str]]:
    return _backups(tmp_path_factory.mktemp("secrets"))


def _links(played: Played) -> dict[str, str]:
    """Every secret that opens something, by what it is."""
    found = {f"{name} organiser link": token for name, token in played.organiser.items()}
    found.update({f"{name} {seat}'s invite": token for name, seats in played.invites.items() for seat, token in seats.items()})
    found.update({f"the {what} token": token for what, token in played.tokens.items()})
    found["the browser's CSRF token"] = session_csrf(played.tokens["session"])
    return found


@pytest.mark.parametrize("kind", ["full", "shareable"])
def test_no_link_token_or_csrf_token_is_in_a_backup(kind: str, backups: tuple[Played, dict[str, str], dict[str, str]]) -> None:
    played, texts, _ = backups
    leaked = [what for what, token in _links(played).items() if token in texts[kind]]
    assert leaked == []


def test_a_full_backup_holds_the_hash_of_every_live_link_and_token_instead(
    backups: tuple[Played, dict[str, str], dict[str, str]],
) -> None:
    """What a restore needs for the links to keep working, and no more: the server's own hashes.
    Not the hash of a browser's CSRF cookie from before its session, which counts for ten
    minutes only (docs/backup.md)."""
    played, texts, _ = backups
    live = {what: token for what, token in _links(played).items()
            if not what.startswith(("deleted ", "the browser's CSRF", "the pre-session"))}
    assert [what for what, token in live.items() if hash_token(token) not in texts["full"]] == []
    assert hash_token(played.tokens["pre-session"]) not in texts["full"]


def test_a_shareable_export_holds_no_hash_of_a_secret(backups: tuple[Played, dict[str, str], dict[str, str]]) -> None:
    played, texts, _ = backups
    hashed = [what for what, token in _links(played).items() if hash_token(token) in texts["shareable"]]
    assert hashed == []
    assert '"secret"' not in texts["shareable"] and json.loads(texts["shareable"])["credentials"] == []


def test_a_shareable_export_holds_no_seed_of_a_game_not_over(backups: tuple[Played, dict[str, str], dict[str, str]]) -> None:
    _, texts, seeds = backups
    over = {"finished", "ended"}
    assert sorted(name for name, seed in seeds.items() if (seed in texts["shareable"]) != (name in over)) == []


def _open_lines(game: dict[str, Any]) -> list[dict[str, Any]]:
    return [line for line in game["order_log"] if line["turn"] >= game["current_turn"]]


def test_the_open_turns_orders_are_in_the_full_backups_secret_alone(
    backups: tuple[Played, dict[str, str], dict[str, str]],
) -> None:
    """R13: orders of a turn not resolved are in no public part of any backup, and in the full
    backup's ``secret`` (a restore needs them: saved orders count at the deadline)."""
    played, texts, _ = backups
    full, shared = json.loads(texts["full"]), json.loads(texts["shareable"])
    assert [g["id"] for g in full["games"] + shared["games"] if _open_lines(g)] == []
    by_id = {g["id"]: g for g in full["games"]}
    for name, orders in played.open_orders.items():
        game = by_id[played.ids[name]]
        kept = {o["team"]: (o["force"], o["flair"], o["ready"]) for o in game["secret"]["orders"]
                if o["turn"] == game["current_turn"]}
        assert kept == orders, name


def test_a_shareable_export_holds_no_private_game(
    backups: tuple[Played, dict[str, str], dict[str, str]],
) -> None:
    """docs/web.md: a private game is for its players only; a shareable export is for anyone to
    read. It held the private game whole: its name, its seats' names and its record."""
    played, texts, _ = backups
    private = played.ids["private"]
    assert private in texts["full"]
    assert private not in texts["shareable"] and "private <cup>" not in texts["shareable"]
    said = texts["shareable, said"]
    assert said.startswith("exported 7 games as a shareable export to ") and said.endswith(
        "shareable.json (1 private game left out, for its players' eyes only; 'sevens export --full' holds every game)\n"
    ), said
    assert texts["full, said"].startswith("exported 8 games as a full backup")


def test_a_full_backup_is_readable_by_its_owner_alone(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as (url, engine):
        play_every_stage(engine)
        path = tmp_path / "full.json"
        assert runner.invoke(app, ["export", "--full", "--database-url", url, str(path)]).exit_code == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_full_backup_redirected_from_standard_output_is_readable_by_its_owner_alone(tmp_path: Path) -> None:
    """`sevens export --full - > full.json`: the shell made the file as the umask lets it (0644 as a
    rule), and the backup, the open turn's orders and the seeds in it (R13, R14), stayed readable by
    every account on the machine, where `sevens export --full full.json` writes it 0600. A full
    backup written into a file through standard output now makes that file its owner's alone too,
    and says so; a pipe is left as it is, and a shareable export's file too."""
    import os
    import subprocess
    import sys

    with database("sqlite", tmp_path) as (url, engine):
        played = play_every_stage(engine)
        for kind, options in (("full", ["--full"]), ("shareable", [])):
            path = tmp_path / f"{kind}.json"
            path.touch()
            path.chmod(0o644)
            with path.open("w") as out:
                done = subprocess.run(
                    [sys.executable, "-m", "sevens", "export", *options, "--database-url", url, "-"],
                    stdout=out, stderr=subprocess.PIPE, text=True, env={**os.environ, "NO_COLOR": "1"}, timeout=120,
                )
            assert done.returncode == 0, done.stderr
            assert json.loads(path.read_text(encoding="utf-8"))["games"]
            modes = {kind: stat.S_IMODE(path.stat().st_mode)}
            if kind == "full":
                assert modes == {"full": 0o600}
                assert "to standard output, a file now readable by its owner alone (mode 0600)" in done.stderr, done.stderr
                kept = json.loads(path.read_text(encoding="utf-8"))
                assert any(g["secret"]["orders"] for g in kept["games"]) and played.open_orders
            else:
                assert modes == {"shareable": 0o644}
                assert "mode 0600" not in done.stderr
        piped = subprocess.run(
            [sys.executable, "-m", "sevens", "export", "--full", "--database-url", url, "-"],
            capture_output=True, text=True, timeout=120,
        )
        assert piped.returncode == 0 and "mode 0600" not in piped.stderr, piped.stderr
