"""Files that older versions of sevens wrote (tests/old_files, each made by the commit its name
starts with; its README says how) still verify, import and carry on today: the same champion, turns
and tables as the old program wrote, or, for a file no version could restore, the error that says
why."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from reliability.helpers import database
from sevens.cli.main import app
from sevens.store import games as store
from sevens.store.db import make_sessionmaker, session_scope
from sevens.store.models import GameRow, GameStatus
from sevens.store.testing import backends
from sevens.tournament import from_record, loads, to_record

OLD = Path(__file__).resolve().parents[1] / "old_files"

# What today's report must say of each old record: its champion as the old program recorded it.
RECORDS = {
    "record-04cc52d0-library.json.gz": "the champion (new-zealand) all agree",
    "record-0d1f0c4b-play.json.gz": "the champion (argentina) all agree",
    "record-cebf5690-web-house-random.json.gz": "the champion (canada) all agree",
    "record-7c151938-play.json.gz": "the champion (new-zealand) all agree",
    "record-7c151938-web-ended.json.gz": "ended the game after turn 1, so it has no champion",
    "record-461d2a5f-play-every-bot.json.gz": "the champion (south-africa) all agree",
}
FULL_BACKUPS = sorted(p.name for p in OLD.glob("backup-*-full.json.gz"))


def _text(name: str) -> bytes:
    return gzip.decompress((OLD / name).read_bytes())


def _unzipped(name: str, folder: Path) -> Path:
    path = folder / name.removesuffix(".gz")
    path.write_bytes(_text(name))
    return path


SAVED = ["saved-1f26064e-after-draw.json.gz", "saved-461d2a5f-after-turn-1.json.gz"]


def test_every_old_file_is_tested() -> None:
    assert sorted(p.name for p in OLD.glob("*.gz")) == sorted(
        [*RECORDS, *FULL_BACKUPS, "backup-6fa6eb53-shareable.json.gz", *SAVED]
    )


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_an_old_record_verifies_with_every_die_thrown_again(name: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["verify", str(_unzipped(name, tmp_path))])
    report = " ".join(result.output.split())
    assert result.exit_code == 0, report
    assert "recomputed from the revealed seed" in report
    assert RECORDS[name] in report


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_an_old_record_is_written_again_with_the_same_turns_and_tables(name: str) -> None:
    old = loads(_text(name))
    game, seed = from_record(old)
    again = to_record(game, seed=seed, ended_early=old.get("ended_early", False))
    # the first versions wrote no 'draw'; today's writer says null, as a reader takes it
    assert again == {"draw": None, **old}


def _kept(old: Any, new: Any, path: str = "") -> list[str]:
    """Where the re-export lost or changed what the old file said (keys it adds are new, not lost)."""
    if isinstance(old, dict) and isinstance(new, dict):
        lost = [f"{path}.{key}: missing" for key in old if key not in new]
        return lost + [d for key in old if key in new for d in _kept(old[key], new[key], f"{path}.{key}")]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [d for i, (a, b) in enumerate(zip(old, new, strict=True)) for d in _kept(a, b, f"{path}[{i}]")]
    return [] if old == new else [f"{path}: {old!r} became {new!r}"]


@pytest.mark.parametrize("backend", backends())
@pytest.mark.parametrize("name", FULL_BACKUPS)
def test_an_old_full_backup_imports_and_exports_again_as_it_was(name: str, backend: str, tmp_path: Path) -> None:
    source = _unzipped(name, tmp_path)
    with database(backend, tmp_path) as (url, _engine):
        imported = CliRunner().invoke(app, ["import", "--database-url", url, str(source)])
        assert imported.exit_code == 0, imported.output
        assert "imported 4 games (2 still open) and 2 credentials" in imported.output
        again = tmp_path / "again.json"
        exported = CliRunner().invoke(app, ["export", "--full", "--database-url", url, str(again)])
        assert exported.exit_code == 0, exported.output
    old, new = json.loads(source.read_text("utf-8")), json.loads(again.read_text("utf-8"))
    old.pop("exported_at")
    assert [g["champion"] for g in new["games"]] == [g["champion"] for g in old["games"]]
    assert _kept(old, new) == []


@pytest.mark.parametrize("name", FULL_BACKUPS)
def test_the_running_game_of_an_old_full_backup_plays_on_to_a_record_that_verifies(name: str, tmp_path: Path) -> None:
    source = _unzipped(name, tmp_path)
    now = datetime.now(UTC)
    with database("sqlite", tmp_path) as (url, engine):
        assert CliRunner().invoke(app, ["import", "--database-url", url, str(source)]).exit_code == 0
        factory = make_sessionmaker(engine)
        with factory() as db:
            game_id = db.query(GameRow.id).filter(GameRow.status == GameStatus.RUNNING).one()[0]
        for _ in range(6):  # the organiser resolves every turn; nobody orders again
            with session_scope(factory) as db:
                game = store.game_by_id(db, game_id=game_id)
                if game.status != GameStatus.RUNNING:
                    break
                store.resolve_turn(db, game_id=game_id, turn=game.current_turn, reason="organiser", now=now)
        exported = tmp_path / "after.json"
        assert CliRunner().invoke(app, ["export", "--database-url", url, str(exported)]).exit_code == 0
    (played,) = [g for g in json.loads(exported.read_text("utf-8"))["games"] if g["name"].startswith("running")]
    assert played["status"] == "finished"
    record = tmp_path / "record.json"
    record.write_text(json.dumps(played["record"]), "utf-8")
    verified = CliRunner().invoke(app, ["verify", str(record)])
    assert verified.exit_code == 0, verified.output
    assert f"the champion ({played['champion']}) all agree" in " ".join(verified.output.split())


def test_an_old_shareable_export_holding_a_running_game_says_to_use_a_full_backup(tmp_path: Path) -> None:
    source = _unzipped("backup-6fa6eb53-shareable.json.gz", tmp_path)
    with database("sqlite", tmp_path) as (url, _engine):
        result = CliRunner().invoke(app, ["import", "--database-url", url, str(source)])
    assert result.exit_code == 2
    assert "is running and its seed is not in this export" in result.output
    assert "restore it from a full backup ('sevens export --full')" in result.output


@pytest.mark.parametrize(("version", "shown"), [(0, "0"), (-1, "-1"), ("1", '"1"'), (None, "null"), ("-", "no version")])
def test_a_record_of_a_version_no_sevens_wrote_says_so_and_where_to_get_it_again(
    version: object, shown: str, tmp_path: Path
) -> None:
    """Every sevens so far wrote version 1: a lower or other one is no older record but an edited
    file, and the error says so and what to do instead of only 'found 0'."""
    record = loads(_text("record-04cc52d0-library.json.gz"))
    if version == "-":
        del record["version"]
    else:
        record["version"] = version
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(record), "utf-8")
    result = CliRunner().invoke(app, ["verify", str(path)])
    message = " ".join(result.output.split())
    assert result.exit_code == 2, message
    assert f"version: this program reads version 1 records, found {shown}; no sevens writes that" in message
    assert "edited or made by another program" in message
    assert "sevens play --record, or the web app's Download the record" in message


@pytest.mark.parametrize("name", SAVED)
def test_a_game_an_older_version_kept_is_carried_on_to_a_record_that_verifies(name: str, tmp_path: Path) -> None:
    kept = _unzipped(name, tmp_path)
    kept.chmod(0o600)  # as sevens play wrote it: the file holds the secret seed
    played = loads(json.dumps(json.loads(kept.read_text("utf-8"))["game"]))
    record = tmp_path / "record.json"
    result = CliRunner().invoke(app, ["play", "--resume", str(kept), "--record", str(record)], input="10 9\n" * 40)
    assert result.exit_code == 0, result.output[-2000:]
    verified = CliRunner().invoke(app, ["verify", str(record)])
    assert verified.exit_code == 0, verified.output
    finished = loads(record.read_text("utf-8"))
    # the turns the old version played stay as it played them
    assert finished["turns"][: len(played["turns"])] == played["turns"]
    assert finished["teams"] == played["teams"]


@pytest.mark.parametrize(
    ("version", "shown"), [(0, "version 0"), (True, "version true"), ("1", 'version "1"'), ("-", "no 'version'")]
)
def test_a_kept_game_of_a_version_no_sevens_wrote_is_called_an_edit_not_an_older_version(
    version: object, shown: str, tmp_path: Path
) -> None:
    """It said 'saved by a version of sevens that writes saved games of version 0 (or None): carry the
    game on with the version that saved it', a version that never was; true passed for 1."""
    kept = _unzipped("saved-461d2a5f-after-turn-1.json.gz", tmp_path)
    data = json.loads(kept.read_text("utf-8"))
    if version == "-":
        del data["version"]
    else:
        data["version"] = version
    kept.write_text(json.dumps(data), "utf-8")
    kept.chmod(0o600)
    result = CliRunner().invoke(app, ["play", "--resume", str(kept)], input="10 9\n" * 40)
    message = " ".join(result.output.split())
    assert result.exit_code == 2, message
    assert f"it says {shown}, which no sevens writes (every version so far keeps games as version 1)" in message
    assert "put back the file sevens play kept, or start a new game" in message
