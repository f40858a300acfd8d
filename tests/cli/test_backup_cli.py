"""``sevens export`` and ``sevens import`` on bad input: one line, exit 2, never a traceback."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sevens.cli.main import app
from sevens.rules import seed_commitment
from sevens.store.backup import BACKUP_FORMAT, BACKUP_VERSION
from sevens.store.testing import backends

runner = CliRunner()
HEAD = {"format": BACKUP_FORMAT, "version": BACKUP_VERSION, "full": False, "credentials": []}
SEED = "ab" * 32
GAME_ID = "Gm1-abcd_XYZ"  # the shape of the ids sevens makes (store.secrets.new_public_id)


def _import(tmp_path: Path, content: str) -> tuple[int, str]:
    source = tmp_path / "backup.json"
    source.write_text(content, encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    result = runner.invoke(app, ["import", "--database-url", url, str(source)])
    return result.exit_code, result.stderr


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "is not a Sevens backup: its JSON is nested too deeply"),
        (json.dumps({**HEAD, "games": None}), "the backup's 'games' is null, not a list"),
        (  # json would keep the second "games" without a word, another reader the first
            json.dumps({**HEAD, "games": []}).replace('"games": []', '"games": [{}], "games": []'),
            'it names the key "games" twice in one object (at its top level)',
        ),
        (json.dumps({**HEAD, "games": [], "credentials": {}}), "the backup's 'credentials' is an object, not a list"),
        (
            json.dumps({**HEAD, "games": [{"id": GAME_ID, "status": "finished", "visibility": "public",
                                           "revealed_seed": SEED, "seed_sha256": seed_commitment(SEED),
                                           "record": []}]}),
            f"game {GAME_ID}: its record is an array, not a game record (a JSON object)",
        ),
    ],
)
def test_malformed_backups_give_one_line_and_exit_2(tmp_path: Path, content: str, words: str) -> None:
    code, err = _import(tmp_path, content)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1 and words in err, err


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://u@h/db", "mysql databases are not supported; sevens runs on SQLite"),
        ("postgresql+asyncpg://u:secret@h/db", "the database driver asyncpg is not installed"),
        ("postgresql+nosuchdriver://u:secret@h/db", "the database driver nosuchdriver is not one SQLAlchemy knows"),
        ("not a url", "not one SQLAlchemy can read"),
    ],
)
@pytest.mark.parametrize("command", ["export", "import"])
def test_databases_sevens_cannot_use_are_named_in_one_line(tmp_path: Path, command: str, url: str, words: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps({**HEAD, "games": []}), encoding="utf-8")
    result = runner.invoke(app, [command, "--database-url", url, str(path)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and words in result.stderr and "PostgreSQL" in result.stderr
    assert "secret" not in result.stderr


def test_export_refuses_a_sqlite_file_that_is_not_there_and_does_not_create_it(tmp_path: Path) -> None:
    database = tmp_path / "typo.sqlite3"
    result = runner.invoke(app, ["export", "--database-url", f"sqlite:///{database}", str(tmp_path / "x.json")])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: there is no SQLite database at {database}; check the path in --database-url "
        "(or $DATABASE_URL): export reads a database, it does not create one\n"
    )
    assert not database.exists() and not (tmp_path / "x.json").exists()


def test_export_reads_an_existing_sqlite_database(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    from sevens.store.db import make_engine, run_migrations

    engine = make_engine(f"sqlite:///{database}")
    run_migrations(engine)
    engine.dispose()
    result = runner.invoke(app, ["export", "--database-url", f"sqlite:///{database}", str(tmp_path / "x.json")])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("exported 0 games")


def _other_application(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE notes (body TEXT)")
    connection.execute("INSERT INTO notes VALUES ('mine')")
    connection.commit()
    connection.close()


def _other_alembic_application(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)")
    connection.execute("INSERT INTO alembic_version VALUES ('1f2e3d4c5b6a')")
    connection.commit()
    connection.close()


@pytest.mark.parametrize("make", [Path.touch, _other_application, _other_alembic_application])
def test_export_refuses_a_database_that_is_not_sevens_and_leaves_it_as_it_was(tmp_path: Path, make: Any) -> None:
    database = tmp_path / "other.db"
    make(database)
    before = database.read_bytes()
    target = tmp_path / "x.json"
    result = runner.invoke(app, ["export", "--database-url", f"sqlite:///{database}", str(target)])
    assert result.exit_code == 2, result.output
    # Another application's alembic_version may be a newer sevens' too: the revision is named.
    said = "the database holds schema revision '1f2e3d4c5b6a'" if make is _other_alembic_application else "not a sevens database: "
    assert result.stderr.startswith(f"error: {said}") and result.stderr.count("\n") == 1
    assert database.read_bytes() == before and not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]  # no -wal or -shm either


@pytest.mark.parametrize("backend", backends())
def test_export_and_import_name_a_database_a_newer_sevens_migrated(tmp_path: Path, backend: str) -> None:
    """An organiser back on an older version, with the database a newer one migrated: export said
    "not a sevens database" and import stopped with Alembic's traceback. Now both name the revision
    and what to do, and the database is left as it was."""
    from sqlalchemy import text

    from sevens.store.db import make_engine, newest_revision, run_migrations
    from sevens.store.testing import newer_sevens_database

    backup, source = tmp_path / "backup.json", make_engine(f"sqlite:///{tmp_path / 'new.sqlite3'}")
    run_migrations(source)
    source.dispose()
    made = runner.invoke(app, ["export", "--full", "--database-url", f"sqlite:///{tmp_path / 'new.sqlite3'}", str(backup)])
    assert made.exit_code == 0, made.output
    with newer_sevens_database(backend, tmp_path) as (url, engine):
        known = f"the database holds schema revision '0099', which this version of sevens (schema {newest_revision()}) does not know: a newer sevens migrated it, or it is another application's database; "
        exported = runner.invoke(app, ["export", "--full", "--database-url", url, str(tmp_path / "x.json")])
        assert (exported.exit_code, exported.stdout) == (2, ""), exported.output
        assert exported.stderr == f"error: {known}export it with that newer sevens, or check --database-url (or $DATABASE_URL)\n"
        imported = runner.invoke(app, ["import", "--database-url", url, str(backup)])
        assert (imported.exit_code, imported.stdout) == (2, ""), imported.output
        assert imported.stderr == f"error: {known}import into a new, empty database instead, or check --database-url (or $DATABASE_URL)\n"
        with engine.connect() as connection:
            assert connection.scalar(text("SELECT version_num FROM alembic_version")) == "0099"
            assert connection.scalar(text("SELECT count(*) FROM games")) == 0


def test_export_brings_an_older_sevens_schema_up_to_date_as_before(tmp_path: Path) -> None:
    from sevens.store.db import make_engine, newest_revision, run_migrations, sevens_revision

    database = tmp_path / "old.sqlite3"
    engine = make_engine(f"sqlite:///{database}")
    run_migrations(engine, revision="0001")
    engine.dispose()
    result = runner.invoke(app, ["export", "--database-url", f"sqlite:///{database}", str(tmp_path / "x.json")])
    assert result.exit_code == 0, result.output
    assert sevens_revision(f"sqlite:///{database}") == newest_revision()


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
@pytest.mark.parametrize(("command", "words"), [("export", "has nothing to export"), ("import", "would lose what is imported when the command ends")])
def test_an_in_memory_database_is_refused(tmp_path: Path, command: str, words: str, url: str) -> None:
    path = tmp_path / "x.json"
    if command == "import":
        path.write_text(json.dumps({**HEAD, "games": []}), encoding="utf-8")
    result = runner.invoke(app, [command, "--database-url", url, str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: an in-memory database (sqlite://) {words}; give a database file")
    assert result.stderr.count("\n") == 1 and result.stdout == ""
    assert path.exists() == (command == "import")


def test_import_names_a_missing_folder_and_creates_nothing(tmp_path: Path) -> None:
    source = tmp_path / "backup.json"
    source.write_text(json.dumps({**HEAD, "games": []}), encoding="utf-8")
    database = tmp_path / "no" / "such" / "x.db"
    result = runner.invoke(app, ["import", "--database-url", f"sqlite:///{database}", str(source)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"error: cannot create the SQLite database {database}: there is no folder {database.parent}; "
        "create it or check the path in --database-url (or $DATABASE_URL)\n"
    )
    assert not (tmp_path / "no").exists()


RECORD_IS_AN_ARRAY = {**HEAD, "games": [{"id": GAME_ID, "status": "finished", "visibility": "public", "revealed_seed": SEED,
                                         "seed_sha256": seed_commitment(SEED), "record": []}]}


def test_a_failed_import_removes_the_database_file_it_created(tmp_path: Path) -> None:
    code, err = _import(tmp_path, json.dumps(RECORD_IS_AN_ARRAY))
    assert code == 2 and "its record is an array" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.json"]


def test_a_failed_import_keeps_a_database_that_was_there(tmp_path: Path) -> None:
    from sevens.store.db import make_engine, newest_revision, run_migrations, sevens_revision

    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    engine = make_engine(url)
    run_migrations(engine)
    engine.dispose()
    code, err = _import(tmp_path, json.dumps(RECORD_IS_AN_ARRAY))
    assert code == 2 and "its record is an array" in err
    assert sevens_revision(url) == newest_revision()


def _full_backup_of_one_game(tmp_path: Path) -> dict[str, Any]:
    """A full backup of a database holding one game in its lobby and one bot credential."""
    from datetime import UTC, datetime

    from sevens.store import games as store
    from sevens.store.auth import create_principal
    from sevens.store.db import make_engine, make_sessionmaker, run_migrations, session_scope
    from sevens.store.models import PrincipalKind, Visibility

    url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    engine = make_engine(url)
    run_migrations(engine)
    now = datetime.now(UTC)
    with session_scope(make_sessionmaker(engine)) as db:
        store.create_game(db, spec=store.NewGame("cup", 4, 8, 2, 3600, "even", Visibility.PUBLIC), now=now)
        create_principal(db, kind=PrincipalKind.BOT, now=now, label="bot")
    engine.dispose()
    target = tmp_path / "full.json"
    result = runner.invoke(app, ["export", "--full", "--database-url", url, str(target)])
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(target.read_text(encoding="utf-8"))
    return document


@pytest.mark.parametrize("key", ["games", "credentials"])
def test_import_names_a_game_or_credential_the_backup_holds_twice(tmp_path: Path, key: str) -> None:
    document = _full_backup_of_one_game(tmp_path)
    document[key] = document[key] * 2
    code, err = _import(tmp_path, json.dumps(document))
    assert code == 2 and err.count("\n") == 1, err
    if key == "games":
        assert err == (
            f"error: the backup holds game {document['games'][0]['id']!r} twice; keep one of them "
            "(a file copied twice into the folder?) and import again\n"
        )
    else:
        assert err == "error: the backup holds the same credential (token hash) twice; keep one of them and import again\n"
    assert not (tmp_path / "restored.sqlite3").exists()


@pytest.mark.parametrize(
    ("where", "value", "words"),
    [
        (("games", 0, "seats", 1), "p2", "seats[1]: expected an object, found a string"),
        (("games", 0, "seats", 0), 7, "seats[0]: expected an object, found a number"),
        (("games", 0, "seats", 0), ["p1"], "seats[0]: expected an object, found an array"),
        (("games", 0, "events"), [None], "events[0]: expected an object, found null"),
        (("games", 0, "order_log"), ["line"], "order_log[0]: expected an object, found a string"),
        (("games", 0, "secret", "invite_hashes"), [], "secret.invite_hashes: expected an object, found an array"),
        (("credentials", 0), "token", "credentials[0]: expected an object, found a string"),
        (("credentials", 0, "grants"), [1], "credentials[0].grants[0]: expected an object, found a number"),
    ],
)
def test_an_entry_of_the_backup_that_is_no_object_is_named_by_its_path(
    tmp_path: Path, where: tuple[str | int, ...], value: object, words: str
) -> None:
    """Found by fuzzing: a seat given as a string (or a number, an array) ended the import with
    AttributeError and a traceback; a credential given so, with "string indices must be integers"."""
    document = _full_backup_of_one_game(tmp_path)
    holder: Any = document
    for key in where[:-1]:
        holder = holder[key]
    assert where[-1] in holder or isinstance(holder, list)
    holder[where[-1]] = value
    code, err = _import(tmp_path, json.dumps(document))
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and words in err, err
    assert "import the export as 'sevens export' wrote it" in err or "invite_hashes" in err
    assert not (tmp_path / "restored.sqlite3").exists()


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [("turn_seconds", 10**30, "games[0].turn_seconds: a number of 31 digits, larger than any in a backup"),
     ("paused_remaining", 2**32, "games[0].paused_remaining: 4,294,967,296, larger than any in a backup"),
     ("players", -(2**63), "games[0].players: a number of 19 digits, larger than any in a backup")],
)
def test_a_number_no_column_holds_is_named_by_its_path(tmp_path: Path, field: str, value: int, words: str) -> None:
    """Found by fuzzing: a number past 64 bits ended the import with OverflowError and a traceback
    (SQLite); one past 32 bits is more than PostgreSQL's INTEGER holds."""
    document = _full_backup_of_one_game(tmp_path)
    document["games"][0][field] = value
    code, err = _import(tmp_path, json.dumps(document))
    assert code == 2 and err.count("\n") == 1 and words in err and "(at most 2,147,483,647)" in err, err
    assert not (tmp_path / "restored.sqlite3").exists()


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [("turn_seconds", -3600, "-3,600 seconds, where a turn's clock is 60 (1 minute) to 2,592,000 (30 days), or null"),
     ("turn_seconds", 0, "0 seconds, where"),
     ("turn_seconds", 59, "59 seconds, where"),
     ("turn_seconds", 2_592_001, "2,592,001 seconds, where"),
     ("paused_remaining", -1, "-1 seconds, where a paused clock's time left is 0 or more, or null")],
)
def test_a_turn_clock_the_server_never_keeps_is_refused(tmp_path: Path, field: str, value: int, words: str) -> None:
    """A backup edited by hand could give a game a turn clock of -3600 seconds (or 0): it was
    imported, and every turn after the open one was then due an hour before it opened, so the
    scheduler played the game out, a turn at each of its looks. The server makes a turn clock of 1
    minute to 30 days only, and a paused clock's time left of 0 or more: anything else is refused,
    named, and nothing is written."""
    document = _full_backup_of_one_game(tmp_path)
    document["games"][0][field] = value
    code, err = _import(tmp_path, json.dumps(document))
    named = f"error: game {document['games'][0]['id']}.{field}: {words}"
    assert code == 2 and err.count("\n") == 1 and err.startswith(named), err
    assert "import the export as 'sevens export' wrote it" in err
    assert not (tmp_path / "restored.sqlite3").exists()


def test_a_deadline_past_what_the_server_could_keep_is_refused(tmp_path: Path) -> None:
    """A backup edited to a deadline on 9999-12-31 was imported; Extend on it then failed with
    OverflowError (a server error, the deadline past the last date Python has), and Pause would
    have kept a time left larger than the column holds. A deadline more than 68 years off (the
    largest number of seconds a backup holds) is refused, named, nothing written; one a year off
    (extended that far) is still imported."""
    from datetime import UTC, datetime, timedelta

    document = _full_backup_of_one_game(tmp_path)
    document["games"][0]["deadline_at"] = "9999-12-31T23:00:00+00:00"
    code, err = _import(tmp_path, json.dumps(document))
    named = f"error: game {document['games'][0]['id']}.deadline_at: 9999-12-31T23:00:00+00:00 is more than 2,147,483,647 seconds"
    assert code == 2 and err.count("\n") == 1 and err.startswith(named), err
    assert not (tmp_path / "restored.sqlite3").exists()
    document["games"][0]["deadline_at"] = (datetime.now(UTC) + timedelta(days=365)).isoformat()
    code, err = _import(tmp_path, json.dumps(document))
    assert code == 0, err


def test_a_field_missing_from_a_seat_is_named_with_its_game(tmp_path: Path) -> None:
    """It said "the backup is malformed: KeyError('player') is missing or of the wrong kind"."""
    document = _full_backup_of_one_game(tmp_path)
    del document["games"][0]["seats"][0]["player"]
    code, err = _import(tmp_path, json.dumps(document))
    game = document["games"][0]["id"]
    assert err == (f"error: games[0] ('{game}'): the field 'player' is missing from one of its entries; "
                   "import the export as 'sevens export' wrote it\n"), err
    assert code == 2 and not (tmp_path / "restored.sqlite3").exists()


def test_import_into_a_database_that_holds_games_says_what_it_holds_and_how_to_restore(tmp_path: Path) -> None:
    document = _full_backup_of_one_game(tmp_path)
    source = tmp_path / "other.json"  # a backup of another game than the database holds
    source.write_text(json.dumps({**document, "games": [{**document["games"][0], "id": GAME_ID}]}), encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    result = runner.invoke(app, ["import", "--database-url", url, str(source)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr == (
        "error: the database already holds 1 game and 1 credential: import restores into an empty "
        "database only, so name a new one, e.g. --database-url sqlite:///restored.sqlite3 "
        "(a SQLite file that is not there yet is created), or an empty PostgreSQL database\n"
    )
    assert len(document["games"]) == 1


def test_import_run_again_into_the_database_it_restored_says_it_was_done(tmp_path: Path) -> None:
    """A restore run again (its first run was killed after its commit, or its terminal lost) was
    told to name a new database, as if the games were another's."""
    _full_backup_of_one_game(tmp_path)
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    assert runner.invoke(app, ["import", "--database-url", url, str(tmp_path / "full.json")]).exit_code == 0
    result = runner.invoke(app, ["import", "--database-url", url, str(tmp_path / "full.json")])
    assert result.exit_code == 2 and result.stderr == (
        "error: the database already holds every game of this backup (1 game and 1 credential): it is the "
        "database the backup was made from, or the backup was imported into it already (by an import stopped "
        "after it was done?); there is nothing to do, unless you meant another database: name a new, empty database "
        "in --database-url (or $DATABASE_URL)\n"
    )


@pytest.mark.parametrize("bad", ["../../escaped", "ab/../../cde", "", "..", "abcdefghijk\n", "abcdefghijkl.json"])
def test_import_refuses_a_game_id_sevens_does_not_make_and_imports_nothing(tmp_path: Path, bad: str) -> None:
    """A game's id names its address and, in a directory export, its file: an id sevens never makes
    (edited by hand: "../../escaped") is refused in one line naming the game, and no game of the
    backup is imported, not even those before it."""
    from sqlalchemy import func, select

    from sevens.store.db import make_engine, make_sessionmaker, run_migrations
    from sevens.store.models import GameRow

    document = _full_backup_of_one_game(tmp_path)
    good = document["games"][0]
    # A copy that differs in its id, name and links only: without the id check it would import.
    secret = {**good["secret"], "organiser_link_hash": "0" * 64, "invite_hashes": {}}
    document["games"] = [good, {**good, "id": bad, "name": "copy", "secret": secret}]
    document["credentials"] = []
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    engine = make_engine(url)
    run_migrations(engine)
    code, err = _import(tmp_path, json.dumps(document))
    assert code == 2 and err == (
        f"error: games[1] ('copy'): its id {bad!r} is not one sevens makes (12 letters, digits, '-' or '_'); "
        "import the export as 'sevens export' wrote it\n"
    )
    with make_sessionmaker(engine)() as db:
        assert db.scalar(select(func.count()).select_from(GameRow)) == 0
    engine.dispose()


def test_export_to_a_directory_names_files_by_safe_ids_only(tmp_path: Path) -> None:
    """Defence in depth: should a database hold a game id sevens never makes (say, imported by an
    older version), a directory export refuses it in one line and writes nothing, rather than a file
    outside the directory; a single-file export still works."""
    document = _full_backup_of_one_game(tmp_path)
    source = tmp_path / "source.sqlite3"
    with sqlite3.connect(source) as connection:
        connection.execute("UPDATE games SET public_id = ? WHERE public_id = ?", ("../../escaped", document["games"][0]["id"]))
    connection.close()
    url = f"sqlite:///{source}"
    folder = tmp_path / "out" / "games"
    result = runner.invoke(app, ["export", "--database-url", url, f"{folder}/"])
    assert result.exit_code == 2 and result.stderr == (
        f"error: cannot write {folder}/: game '../../escaped' ('cup') has an id sevens does not make, so it "
        "cannot name a file; export to one file instead (a PATH that is not a directory)\n"
    )
    assert sorted(p.name for p in tmp_path.rglob("*.json")) == ["full.json"]  # the one written before
    assert not (tmp_path / "out").exists()
    single = tmp_path / "one.json"
    result = runner.invoke(app, ["export", "--database-url", url, str(single)])
    assert result.exit_code == 0, result.output
    assert json.loads(single.read_text(encoding="utf-8"))["games"][0]["id"] == "../../escaped"


def test_export_refuses_to_replace_a_file_unless_told_to(tmp_path: Path) -> None:
    """An earlier backup is never lost to a new export by accident: refused in one line before the
    database is read, left as it was; --overwrite replaces it whole, with the backup's mode."""
    _full_backup_of_one_game(tmp_path)
    url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    target = tmp_path / "full.json"
    before = target.read_bytes()
    result = runner.invoke(app, ["export", "--full", "--database-url", url, str(target)])
    assert result.exit_code == 2 and result.stderr == (
        f"error: {target} already exists and would be replaced; choose another file name, or pass --overwrite "
        "to replace it\n"
    )
    assert target.read_bytes() == before
    target.chmod(0o644)
    result = runner.invoke(app, ["export", "--full", "--overwrite", "--database-url", url, str(target)])
    assert result.exit_code == 0, result.output
    assert json.loads(target.read_text(encoding="utf-8"))["full"] is True
    assert target.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full.json", "source.sqlite3"]


def test_a_directory_export_replaces_none_of_an_earlier_ones_files_unless_told_to(tmp_path: Path) -> None:
    _full_backup_of_one_game(tmp_path)
    url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    folder = tmp_path / "backup"
    assert runner.invoke(app, ["export", "--full", "--database-url", url, f"{folder}/"]).exit_code == 0
    written = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert len(written) == 2  # the game and credentials.json
    result = runner.invoke(app, ["export", "--full", "--database-url", url, f"{folder}/"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert f"{folder} already holds 2 of the 2 files this export writes" in result.stderr
    assert "choose another directory, or pass --overwrite to replace them" in result.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == written
    result = runner.invoke(app, ["export", "--full", "--overwrite", "--database-url", url, f"{folder}/"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == sorted(written)


def test_export_to_a_name_too_long_for_its_temporary_one_is_refused_before_reading_the_database(tmp_path: Path) -> None:
    """The file is written under a longer temporary name first: a name that fits the file system's
    limit but leaves that one no room was found only at the write, with no word on what to do."""
    target = tmp_path / ("a" * 245 + ".json")
    (tmp_path / "empty.sqlite3").touch()  # not a sevens database: reading it would be refused
    result = runner.invoke(app, ["export", "--database-url", f"sqlite:///{tmp_path / 'empty.sqlite3'}", str(target)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: cannot write {target}: File name too long; choose a shorter file name")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.sqlite3"]


@pytest.mark.parametrize("target", ["~/backup.json", "~/backups/"])
def test_export_under_a_tilde_the_shell_left_says_it_was_not_expanded_and_makes_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    """Quoted, ~ reaches the command as it is: a folder export made ./~/backups/, a file export
    advised creating a folder named ~."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty.sqlite3").touch()  # not a sevens database: reading it would be refused
    result = runner.invoke(app, ["export", "--database-url", f"sqlite:///{tmp_path / 'empty.sqlite3'}", target])
    assert result.exit_code == 2
    home = os.path.expanduser("~")
    assert result.stderr == (
        f"error: cannot write {target}: ~ was not expanded to your home folder (a shell expands it only unquoted, at "
        f"the start of a word) and there is no folder named ~ here; write sevens export {target} (unquoted, after a "
        f"space) or sevens export {home}{target[1:]}\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.sqlite3"]


def test_export_to_a_folder_that_is_not_there_is_refused_before_reading_the_database(tmp_path: Path) -> None:
    target = tmp_path / "nowhere" / "x.json"
    (tmp_path / "empty.sqlite3").touch()  # not a sevens database: reading it would be refused
    result = runner.invoke(app, ["export", "--database-url", f"sqlite:///{tmp_path / 'empty.sqlite3'}", str(target)])
    assert result.exit_code == 2 and result.stderr == (
        f"error: cannot write {target}: the folder {target.parent} does not exist; create it or pick another path\n"
    )


@pytest.mark.parametrize("command", ["export", "import"])
def test_a_folder_given_as_the_sqlite_database_is_named(tmp_path: Path, command: str) -> None:
    """Export said there was no database there; import, that SQLite could not open the file."""
    folder = tmp_path / "data"
    folder.mkdir()
    source = tmp_path / "backup.json"
    source.write_text(json.dumps({**HEAD, "games": []}), encoding="utf-8")
    path = str(tmp_path / "out.json") if command == "export" else str(source)
    result = runner.invoke(app, [command, "--database-url", f"sqlite:///{folder}", path])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {folder} is a folder, not a SQLite database; give the path of a database file in "
        "--database-url (or $DATABASE_URL)\n"
    )
    assert list(folder.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["backup.json", "data"]


@pytest.mark.parametrize("target", ["notes.txt/out.json", "notes.txt/"])
def test_an_export_into_a_file_taken_for_a_folder_says_so(tmp_path: Path, target: str) -> None:
    """It said 'the folder notes.txt does not exist', or 'Not a directory'; the file is there."""
    database = tmp_path / "games.sqlite3"
    assert runner.invoke(app, ["import", "--database-url", f"sqlite:///{database}", _empty_backup(tmp_path)]).exit_code == 0
    (tmp_path / "notes.txt").write_text("keep me", encoding="utf-8")
    result = runner.invoke(app, ["export", "--database-url", f"sqlite:///{database}", f"{tmp_path}/{target}"])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: cannot write {tmp_path}/{target}") and result.stderr.count("\n") == 1
    assert f"{tmp_path / 'notes.txt'} is a file, not a folder; pick another path" in result.stderr, result.stderr
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "keep me"


def _empty_backup(tmp_path: Path) -> str:
    path = tmp_path / "empty-backup.json"
    path.write_text(json.dumps({**HEAD, "games": []}), encoding="utf-8")
    return str(path)


def test_an_import_makes_a_new_sqlite_database_readable_by_its_own_user_only(tmp_path: Path) -> None:
    """A full backup restored into a new SQLite file puts there the seeds and the open turns' orders
    it kept 0600; the file was made 0644 under the usual umask, for any account to read."""
    database = tmp_path / "games.sqlite3"
    before = os.umask(0o022)
    try:
        result = runner.invoke(app, ["import", "--database-url", f"sqlite:///{database}", _empty_backup(tmp_path)])
    finally:
        os.umask(before)
    assert result.exit_code == 0, result.output
    assert oct(stat.S_IMODE(database.stat().st_mode)) == oct(0o600)


@pytest.mark.parametrize("overwrite", [[], ["--overwrite"]])
def test_export_refuses_a_path_that_is_not_a_file_rather_than_replace_it(tmp_path: Path, overwrite: list[str]) -> None:
    """A pipe (or /dev/null, as root) was said to 'already exist and be replaced; pass --overwrite', and
    with --overwrite was replaced by a regular file: /dev/null itself, for everyone on the machine."""
    database = tmp_path / "games.sqlite3"
    source = tmp_path / "empty.json"
    source.write_text(json.dumps({**HEAD, "games": []}), encoding="utf-8")
    assert runner.invoke(app, ["import", "--database-url", f"sqlite:///{database}", str(source)]).exit_code == 0
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    result = runner.invoke(app, ["export", "--database-url", f"sqlite:///{database}", *overwrite, str(pipe)])
    assert result.exit_code == 2
    assert result.stderr == (f"error: cannot write {pipe}: it is not a file but a device, a pipe or a socket, which the "
                             "export would replace; give a file name, e.g. backup.json\n")
    assert stat.S_ISFIFO(pipe.stat().st_mode)


@pytest.mark.parametrize("into", ["same", "other"])
def test_export_overwrite_onto_a_link_writes_the_file_it_names_and_keeps_the_link(tmp_path: Path, into: str) -> None:
    """As the shell's > and cp do: the link (latest.json, say) stays a link, and the backup it names
    is replaced whole, with the backup's mode. The link itself was replaced by a new file."""
    import subprocess
    import sys

    _full_backup_of_one_game(tmp_path)
    url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    folder = tmp_path if into == "same" else tmp_path / "dated"
    folder.mkdir(exist_ok=True)
    named = folder / "2026-12-01.json"
    named.write_text("an older backup\n", encoding="utf-8")
    named.chmod(0o644)
    link = tmp_path / "latest.json"
    link.symlink_to(named)
    result = subprocess.run(
        [sys.executable, "-m", "sevens", "export", "--full", "--overwrite", "--database-url", url, str(link)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and link.resolve() == named.resolve()
    assert json.loads(named.read_text(encoding="utf-8"))["full"] is True
    assert named.stat().st_mode & 0o777 == 0o600
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".")], "no temporary file is left"


def test_import_quotes_a_long_id_name_and_bot_by_their_first_40_characters_and_length(tmp_path: Path) -> None:
    """A backup edited by hand is quoted back in its refusal: an id or name was cut to 40 characters
    and a bot's name to 60 with nothing to say that the rest was left out; now each says its length."""
    from sevens.store.db import make_engine, run_migrations

    document = _full_backup_of_one_game(tmp_path)
    good = document["games"][0]
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    engine = make_engine(url)
    run_migrations(engine)
    engine.dispose()
    bad_id = {**document, "games": [{**good, "id": "../" * 30, "name": "n" * 100}]}
    code, err = _import(tmp_path, json.dumps(bad_id))
    assert code == 2
    assert err.startswith(
        f"error: games[0] ('{'n' * 40}'... (100 characters)): its id '{'../' * 13}.'... (90 characters) is not one sevens makes"
    ), err
    bad_bot = {**document, "games": [{**good, "default_bot": "q" * 100}]}
    code, err = _import(tmp_path, json.dumps(bad_bot))
    assert code == 2
    assert f"game {good['id']}.default_bot: R13: unknown bot '{'q' * 40}'... (100 characters); choose one of " in err, err


def test_export_to_a_directory_quotes_a_long_id_by_its_first_40_characters_and_length(tmp_path: Path) -> None:
    """An id sevens never makes, too long to quote whole, is said cut with its length."""
    document = _full_backup_of_one_game(tmp_path)
    source = tmp_path / "source.sqlite3"
    with sqlite3.connect(source) as connection:
        connection.execute("UPDATE games SET public_id = ? WHERE public_id = ?", ("../" * 30, document["games"][0]["id"]))
    connection.close()
    result = runner.invoke(app, ["export", "--database-url", f"sqlite:///{source}", f"{tmp_path / 'out'}/"])
    assert result.exit_code == 2
    assert f"game '{'../' * 13}.'... (90 characters) ('cup') has an id sevens does not make" in result.stderr, result.stderr


@pytest.mark.parametrize("full", [False, True], ids=["shareable", "full"])
def test_export_names_the_game_whose_stored_record_is_damaged_and_what_to_do(tmp_path: Path, full: bool) -> None:
    """A record changed in the database stopped every export with the parser's words alone
    ("error: Unterminated string ..."), naming no game among however many the server holds."""
    from datetime import UTC, datetime

    from sevens.store import games as store
    from sevens.store.db import make_engine, make_sessionmaker, run_migrations, session_scope
    from sevens.store.models import Visibility

    url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    engine = make_engine(url)
    run_migrations(engine)
    now = datetime.now(UTC)
    with session_scope(make_sessionmaker(engine)) as db:
        game = store.create_game(
            db, spec=store.NewGame("Old cup", 4, 8, 2, 3600, "even", Visibility.PUBLIC), now=now
        ).game
        store.start_game(db, game_id=game.id, now=now)  # nobody joined: the bots play it to the end
        public_id = game.public_id
    engine.dispose()
    with sqlite3.connect(tmp_path / "source.sqlite3") as db:
        db.execute("UPDATE games SET record_json = substr(record_json, 1, 100)")
    db.close()
    target = tmp_path / "out.json"
    result = runner.invoke(app, ["export", *(["--full"] if full else []), "--database-url", url, str(target)])
    assert result.exit_code == 2, result.output
    err = result.stderr
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert err.startswith(f"error: game {public_id} ('Old cup'): the record this server keeps of this game is damaged")
    assert "so nothing was exported: download its record as stored from its page" in err
    assert f"/games/{public_id}/record.json" in err and not target.exists(), err


def _delete_games_but_one(url: str, keep: str) -> None:
    from datetime import UTC, datetime

    from sevens.store import retention
    from sevens.store.db import make_engine, make_sessionmaker, session_scope
    from sevens.store.models import GameRow

    engine = make_engine(url)
    with session_scope(make_sessionmaker(engine)) as db:
        for game in list(db.query(GameRow)):
            if game.public_id != keep:
                retention.delete_game(db, game_id=game.id, now=datetime.now(UTC))
    engine.dispose()


def test_a_nightly_folder_export_with_overwrite_forgets_a_deleted_game(tmp_path: Path) -> None:
    """A folder exported again with --overwrite kept the file of a game deleted since, and
    importing the folder brought the game back, with its names and seed."""
    from datetime import UTC, datetime

    from sevens.store import games as store
    from sevens.store.db import make_engine, make_sessionmaker, session_scope
    from sevens.store.models import Visibility

    document = _full_backup_of_one_game(tmp_path)
    url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    engine = make_engine(url)
    with session_scope(make_sessionmaker(engine)) as db:
        spec = store.NewGame("to forget", 4, 8, 2, 3600, "even", Visibility.PRIVATE)
        forgotten = store.create_game(db, spec=spec, now=datetime.now(UTC)).game.public_id
    engine.dispose()
    folder = tmp_path / "nightly"
    assert runner.invoke(app, ["export", "--full", "--database-url", url, f"{folder}/"]).exit_code == 0
    assert (folder / f"{forgotten}.json").exists()
    (folder / "notes.json").write_text('{"mine": true}', encoding="utf-8")  # not sevens': kept
    _delete_games_but_one(url, keep=document["games"][0]["id"])
    result = runner.invoke(app, ["export", "--full", "--overwrite", "--database-url", url, f"{folder}/"])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"exported 1 game as a full backup (mode 0600) to 2 files in {folder}/, and removed 1 file of an "
        "earlier export for games no longer in the database\n"
    )
    assert sorted(p.name for p in folder.iterdir()) == sorted([f"{document['games'][0]['id']}.json", "credentials.json",
                                                               "notes.json"])


def test_import_refuses_a_folder_mixing_files_of_two_exports(tmp_path: Path) -> None:
    """A folder holding a file an earlier export left (written by an older sevens, or copied in) was
    imported whole: a game deleted since came back. Now it is refused, naming the file."""
    document = _full_backup_of_one_game(tmp_path)
    folder = tmp_path / "nightly"
    folder.mkdir()
    game = document["games"][0]
    newer = {**document, "exported_at": "2026-05-02T04:00:00+00:00"}
    (folder / f"{game['id']}.json").write_text(json.dumps({**newer, "credentials": []}), encoding="utf-8")
    (folder / "credentials.json").write_text(json.dumps({**newer, "games": []}), encoding="utf-8")
    secret = {**game["secret"], "organiser_link_hash": "0" * 64,
              "invite_hashes": {seat: f"{n:064x}" for n, seat in enumerate(game["secret"]["invite_hashes"], 1)}}
    stale = {**game, "id": "Old-game_123", "name": "deleted since", "secret": secret}
    older = {**document, "exported_at": "2026-05-01T04:00:00+00:00", "games": [stale], "credentials": []}
    (folder / "Old-game_123.json").write_text(json.dumps(older), encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    result = runner.invoke(app, ["import", "--database-url", url, str(folder)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"error: the folder {folder} mixes files of 2 exports: 1 file (Old-game_123.json first) is not from the "
        "newest, of 2026-05-02T04:00:00+00:00; move it out (a game deleted since would come back), or export the "
        "database again into an empty folder\n"
    )
    assert not (tmp_path / "restored.sqlite3").exists()


def test_a_backup_from_a_newer_sevens_says_to_import_it_with_that_version(tmp_path: Path) -> None:
    code, err = _import(tmp_path, json.dumps({**HEAD, "version": BACKUP_VERSION + 1, "games": []}))
    assert code == 2
    assert err == (
        f"error: the backup is of version {BACKUP_VERSION + 1}, written by a newer sevens; this one reads version "
        f"{BACKUP_VERSION}: import it with the sevens that wrote it, or a later one\n"
    )


@pytest.mark.parametrize(
    ("head", "said"),
    [
        ({"version": 0}, 'its "version" is 0'),
        ({"version": "1"}, 'its "version" is "1"'),
        ({"version": True}, 'its "version" is true'),
        ({"version": None}, 'its "version" is null'),
        ({"version": None, "drop": True}, 'it has no "version"'),
    ],
)
def test_a_backup_of_a_version_sevens_never_wrote_says_so_in_json_and_what_to_do(
    tmp_path: Path, head: dict[str, Any], said: str
) -> None:
    """It said "backup version None is not supported", and took "version": true for 1."""
    document = {**HEAD, "version": head["version"], "games": []}
    if head.get("drop"):
        del document["version"]
    code, err = _import(tmp_path, json.dumps(document))
    assert (code, err) == (2, f"error: the backup is of no version sevens wrote: {said}, and sevens writes "
                              f"{BACKUP_VERSION} (the first); it was edited or made by another program: export it "
                              "again from the server it came from\n")
    assert not (tmp_path / "restored.sqlite3").exists()


def test_a_backup_whose_full_is_not_true_or_false_is_refused(tmp_path: Path) -> None:
    """"full": "no" read as a full backup."""
    code, err = _import(tmp_path, json.dumps({**HEAD, "full": "no", "games": []}))
    assert (code, err) == (2, 'error: the backup\'s "full" is "no", not true or false; export it again from the '
                              "server it came from\n")


@pytest.mark.parametrize("full", [True, False])
def test_import_says_what_the_backup_does_not_carry(tmp_path: Path, full: bool) -> None:
    """The rate limits' key and the server's settings stay on the old machine: the docs said so,
    the command did not, where the operator restoring looks."""
    source = tmp_path / "backup.json"
    source.write_text(json.dumps({**HEAD, "full": full, "games": []}), encoding="utf-8")
    result = runner.invoke(app, ["import", "--database-url", f"sqlite:///{tmp_path / 'new.sqlite3'}", str(source)])
    assert (result.exit_code, result.stderr) == (0, "")
    first, second = result.stdout.splitlines()
    assert first == f"imported 0 games (0 still open) and 0 credentials into {tmp_path / 'new.sqlite3'}"
    assert second.startswith("not in the backup: ")
    assert "the rate limits' key and counts" in second and "SEVENS_BASE_URL" in second
    assert ("no invite or organiser link, bot token or browser session" in second) is not full


@pytest.mark.skipif("postgresql" not in backends(), reason="needs PostgreSQL (bash scripts/pg)")
def test_import_into_a_postgresql_database_not_created_yet_says_to_create_it(tmp_path: Path) -> None:
    """The docs' restore names a new database (createdb ... sevens2); one forgotten got "check that
    the PostgreSQL server is running", which it was."""
    from sqlalchemy import make_url

    from sevens.store.db import normalise_url
    from sevens.store.testing import POSTGRES_ENV

    missing = make_url(normalise_url(os.environ[POSTGRES_ENV])).set(database="sevens_never_created")
    source = tmp_path / "backup.json"
    source.write_text(json.dumps({**HEAD, "full": True, "games": []}), encoding="utf-8")
    result = runner.invoke(app, ["import", "--database-url", missing.render_as_string(hide_password=False), str(source)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
    assert 'database "sevens_never_created" does not exist; create it first (as the postgres user: createdb -O USER NAME' in result.stderr
    assert "check that the PostgreSQL server is running" not in result.stderr


@pytest.mark.parametrize("lost", ["credentials", "game"])
def test_import_refuses_a_full_backup_folder_missing_a_file(tmp_path: Path, lost: str) -> None:
    """A folder export stopped midway (or a file moved out since) was imported as it was: some
    games gone, or every game without its links and tokens, and "imported" said all the same."""
    document = _full_backup_of_one_game(tmp_path)
    url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    folder = tmp_path / "backup"
    assert runner.invoke(app, ["export", "--full", "--database-url", url, f"{folder}/"]).exit_code == 0
    (folder / ("credentials.json" if lost == "credentials" else f"{document['games'][0]['id']}.json")).unlink()
    result = runner.invoke(app, ["import", "--database-url", f"sqlite:///{tmp_path / 'restored.sqlite3'}", str(folder)])
    assert result.exit_code == 2, result.output
    among = ", credentials.json among them" if lost == "credentials" else ""
    assert result.stderr == (
        f"error: the folder {folder} holds 1 of the 2 files of its full backup (1 missing{among}): its export was "
        "cut short, or a file was moved; export the database again, or restore an earlier backup whole\n"
    )
    assert not (tmp_path / "restored.sqlite3").exists()


def test_a_whole_full_backup_folder_still_imports(tmp_path: Path) -> None:
    _full_backup_of_one_game(tmp_path)
    url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    folder = tmp_path / "backup"
    assert runner.invoke(app, ["export", "--full", "--database-url", url, f"{folder}/"]).exit_code == 0
    result = runner.invoke(app, ["import", "--database-url", f"sqlite:///{tmp_path / 'restored.sqlite3'}", str(folder)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"imported 1 game (1 still open) and 1 credential into {tmp_path / 'restored.sqlite3'}\n")


def test_import_names_the_database_it_restored_into_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A relative SQLite path lands in the folder import runs in; the server, started in another,
    would make an empty database of its own. The line now names the file in full, as serve does."""
    source = tmp_path / "backup.json"
    source.write_text(json.dumps({**HEAD, "full": True, "games": []}), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["import", "--database-url", "sqlite:///restored.sqlite3", str(source)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == (
        f"imported 0 games (0 still open) and 0 credentials into {tmp_path / 'restored.sqlite3'}"
    )


@pytest.mark.parametrize("backend", backends())
def test_import_refuses_another_applications_database_and_adds_no_table(tmp_path: Path, backend: str) -> None:
    """serve and export refused a database holding another application's tables; import added
    sevens' twelve tables beside them, and said "imported"."""
    from sqlalchemy import inspect, text

    from sevens.store.db import make_engine
    from sevens.store.testing import throwaway_database

    source = tmp_path / "backup.json"
    source.write_text(json.dumps({**HEAD, "full": True, "games": []}), encoding="utf-8")
    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        with engine.begin() as connection:
            connection.execute(text("CREATE TABLE notes (body TEXT)"))
        result = runner.invoke(app, ["import", "--database-url", url, str(source)])
        assert result.exit_code == 2, result.output
        assert result.stderr == (
            "error: not a sevens database: it holds tables (notes) but no sevens schema (no alembic_version table), "
            "so it is another application's; point --database-url (or $DATABASE_URL) at a new, empty database or "
            "at one sevens made\n"
        )
        with engine.connect() as connection:
            assert inspect(connection).get_table_names() == ["notes"]
        engine.dispose()


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda c: c.pop("kind"), "credentials[0]: the field 'kind' is missing"),
        (lambda c: c["grants"][0].pop("role"), "credentials[0].grants[0]: the field 'role' is missing"),
        (lambda c: c.update(kind="wizard"), "credentials[0].kind is 'wizard': a credential is one of"),
        (lambda c: c["grants"][0].update(role="king"), "credentials[0].grants[0].role is 'king': a grant's role is one of"),
    ],
)
def test_a_credential_missing_a_field_or_of_no_known_kind_is_named_by_its_path(
    tmp_path: Path, change: Callable[[dict[str, Any]], object], said: str
) -> None:
    """They said "the backup is malformed: KeyError('kind') is missing or of the wrong kind", or
    quoted the enum's ValueError."""
    document = _full_backup_of_one_game(tmp_path)
    credential = next(c for c in document["credentials"] if "game_deleted_at" not in c)
    # An organiser's grant (the export writes its player as "", a hand-made backup may write null);
    # the test's database made none.
    credential["grants"] = [{"game": document["games"][0]["id"], "role": "organiser", "player": None}]
    document["credentials"] = [credential]
    change(credential)
    code, err = _import(tmp_path, json.dumps(document))
    assert err.startswith(f"error: {said}") and err.count("\n") == 1, err
    assert code == 2 and not (tmp_path / "restored.sqlite3").exists()


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda c: c.update(kind=["bot"]), "credentials[0].kind: expected a string, found an array"),
        (lambda c: c.update(token_hash={}), "credentials[0].token_hash: expected a string, found an object"),
        (lambda c: c.update(token_hash=5), "credentials[0].token_hash: expected a string, found a number"),
        (lambda c: c.update(token_hash="ab"), "credentials[0].token_hash: expected the token's SHA-256, 64 hex digits"),
        (lambda c: c.update(label=["x"]), "credentials[0].label: expected a string, found an array"),
        (lambda c: c["grants"][0].update(game=[]), "credentials[0].grants[0].game: expected a string, found an array"),
        (lambda c: c["grants"][0].update(role={}), "credentials[0].grants[0].role: expected a string, found an object"),
        (lambda c: c["grants"].append({"game": c["grants"][0]["game"], "role": "player", "player": None}),
         "credentials[0].grants[1].player: expected a string, found null"),
        (lambda c: c["grants"].append({"game": c["grants"][0]["game"], "role": "player", "player": ""}),
         "credentials[0].grants[1].player is empty: a player's grant names the seat it plays"),
    ],
)
def test_a_credentials_field_of_the_wrong_kind_is_named_by_its_path(
    tmp_path: Path, change: Callable[[dict[str, Any]], object], said: str
) -> None:
    """A list or an object as a credential's kind, hash, game or role said "the backup is malformed:
    TypeError("unhashable type: 'list'") is missing or of the wrong kind"; one as its label blamed
    the database ("check the path in --database-url"); a number as the hash and a player's grant
    with no seat were imported as they were."""
    document = _full_backup_of_one_game(tmp_path)
    credential = next(c for c in document["credentials"] if "game_deleted_at" not in c)
    credential["grants"] = [{"game": document["games"][0]["id"], "role": "organiser", "player": ""}]
    document["credentials"] = [credential]
    change(credential)
    code, err = _import(tmp_path, json.dumps(document))
    assert err.startswith(f"error: {said}") and err.count("\n") == 1, err
    assert code == 2 and not (tmp_path / "restored.sqlite3").exists()


@pytest.mark.parametrize("backend", backends())
def test_an_organisers_grant_is_stored_with_no_seat_and_a_repeated_or_seated_one_is_refused_by_name(
    tmp_path: Path, backend: str
) -> None:
    """An organiser's grant is stored with the player "" whether the backup says "" (as the export
    writes it) or null (as the API shows it): "" is no seat's id (a player's grant with it is
    refused, and every match of a grant to a seat is of a player's grant), and NULL would let one
    credential hold the same organiser grant twice, the table's unique constraint taking NULLs as
    all different. A grant given twice (null and "" are the same one) said "cannot write the
    database: UNIQUE constraint failed ...; check the path in --database-url", and an organiser's
    grant naming a seat was imported as one, the API then showing the organiser a seat."""
    from sqlalchemy import text

    from sevens.store.auth import access_to
    from sevens.store.db import make_engine, make_sessionmaker
    from sevens.store.testing import throwaway_database

    document = _full_backup_of_one_game(tmp_path)
    credential = next(c for c in document["credentials"] if "game_deleted_at" not in c)
    game = document["games"][0]["id"]
    document["credentials"] = [credential]
    source = tmp_path / "backup.json"

    def imported(grants: list[dict[str, Any]]) -> tuple[int, str, list[tuple[str, str | None]], bool]:
        credential["grants"] = grants
        source.write_text(json.dumps(document), encoding="utf-8")
        with throwaway_database(backend, tmp_path) as url:
            result = runner.invoke(app, ["import", "--database-url", url, str(source)])
            stored: list[tuple[str, str | None]] = []
            organises = False
            if result.exit_code == 0:
                engine = make_engine(url)
                with engine.connect() as connection:
                    stored = [(str(r), p) for r, p in connection.execute(text("SELECT role, player_id FROM grants"))]
                with make_sessionmaker(engine)() as db:
                    principal, game_id = db.execute(text("SELECT principal_id, game_id FROM grants")).one()
                    access = access_to(db, principal_id=principal, game_id=game_id)
                    organises = access.organiser and access.player_ids == ()
                engine.dispose()
            return result.exit_code, result.stderr, stored, organises

    for player in (None, ""):
        code, err, stored, organises = imported([{"game": game, "role": "organiser", "player": player}])
        assert code == 0, err
        assert [(role.lower(), p) for role, p in stored] == [("organiser", "")] and organises, (player, stored)
    for grants, said in [
        ([{"game": game, "role": "organiser", "player": None}, {"game": game, "role": "organiser", "player": ""}],
         f"credentials[0].grants[1] repeats credentials[0].grants[0] (organising of game '{game}'): a credential "
         "holds each grant once; remove one"),
        ([{"game": game, "role": "player", "player": "p2"}, {"game": game, "role": "player", "player": "p2"}],
         f"credentials[0].grants[1] repeats credentials[0].grants[0] (seat p2 of game '{game}'): "),
        ([{"game": game, "role": "organiser", "player": "p1"}],
         "credentials[0].grants[0].player is 'p1': an organiser's grant names no seat; write null (or \"\", as the "
         "export does), or make it a player's grant"),
        # Said without its path ("a credential's grant names game ..."), unlike every other refusal here.
        ([{"game": game, "role": "organiser", "player": None}, {"game": "elsewhere", "role": "organiser", "player": None}],
         "credentials[0].grants[1].game is 'elsewhere', which is no game of the backup: import the export that holds "
         "it with this one, or remove the grant"),
        # A seat the game does not have was imported, its credential then playing nothing any page knows.
        ([{"game": game, "role": "organiser", "player": None}, {"game": game, "role": "player", "player": "p9"}],
         f"credentials[0].grants[1].player is 'p9': game '{game}' has no such seat (its seats are p1, p2, p3, p4); "
         "name one of them, or remove the grant"),
    ]:
        code, err, _, _ = imported(grants)
        assert code == 2 and err.startswith(f"error: {said}") and err.count("\n") == 1, err
