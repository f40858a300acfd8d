"""``sevens export`` and ``sevens import``: back up every hosted game, and restore into an empty database.

``sevens export PATH`` writes a *shareable* export (the public games, as any spectator may read them; see
:mod:`sevens.store.backup`). ``sevens export --full PATH`` writes a *full backup* that also holds
the seeds of unfinished games, the open turn's orders and the hashed credentials: it is created
with mode 0600 (a directory 0700), because whoever reads it can throw the open turn's dice.
PATH is a file (one JSON document) or a directory (one file per game, ``<game id>.json``, and
``credentials.json`` for a full backup); a PATH ending in ``/`` or naming an existing directory
is a directory.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from sevens.cli.database import (
    DB_HELP,
    another_application,
    database_trouble,
    quiet_interrupted_closes,
    unknown_revision,
    usable_url,
)
from sevens.cli.errors import fail
from sevens.cli.files import (
    OVERWRITE_HELP,
    cannot_create_in,
    exists_message,
    instead,
    through_link,
    unexpanded_home,
    write_text,
)
from sevens.cli.inputs import STDIN, other_kind, parse_json, read_input, shown
from sevens.cli.output import OutputFailed, writing_stdout
from sevens.cli.stopping import exit_code, signals_deferred, stop_on_signals
from sevens.store.secrets import is_public_id
from sevens.tournament.quoting import escaped, quoted

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from sevens.store.backup import ImportReport

__all__ = ["check_target", "read_documents", "register", "write_export"]

def _write(path: Path, document: dict[str, Any], *, private: bool, overwrite: bool) -> None:
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    # A link to an earlier backup (latest.json) is written through, not replaced by a file of its own.
    write_text(through_link(path), text, overwrite=overwrite, mode=0o600 if private else 0o644)


def _owner_only_stdout() -> str:
    """Make standard output, when it is a file others may read, its owner's alone (mode 0600), as
    a full backup written by name is: the shell made it as the umask lets it, 0644 as a rule, and
    it is to hold the open turns' orders and the seeds (R13, R14). Returns the words that say so
    ("" for a pipe or a terminal, or a file already closed to others).

    Raises:
        typer.Exit: through :func:`fail`, a file others may read whose mode cannot be changed (not
            the caller's): nothing is written to it.
    """
    try:
        fd = sys.stdout.fileno()
        found = os.fstat(fd)
    except (OSError, ValueError, AttributeError):  # no real file behind it (a test's capture)
        return ""
    if not stat.S_ISREG(found.st_mode) or not stat.S_IMODE(found.st_mode) & 0o077:
        return ""
    try:
        os.fchmod(fd, 0o600)
    except OSError as exc:
        fail(
            f"standard output is a file others may read (mode {stat.S_IMODE(found.st_mode):04o}) and its mode cannot "
            f"be changed ({exc.strerror or exc}): a full backup holds the open turns' orders and the seeds, so nothing "
            "was written; give the file's name instead of '-' (it is then written mode 0600)"
        )
    return ", a file now readable by its owner alone (mode 0600)"


def _is_directory(target: str) -> bool:
    """Whether an export to ``target`` is split per game into a directory."""
    return target.endswith(("/", os.sep)) or Path(target).is_dir()


def check_target(target: str, *, overwrite: bool) -> None:
    """Refuse, before the database is read, an export that would replace a file (without
    ``overwrite``) or that cannot be written: its folder is missing or takes no new file."""
    path = Path(target)
    home = unexpanded_home(target, "sevens export")
    if home is not None:  # else a folder export would make a folder named ~ here, with the rest in it
        fail(f"cannot write {target}: {home}")
    if _is_directory(target):
        if path.exists() and not path.is_dir():
            fail(f"cannot write {target}: {path} is a file, not a folder; pick another path, or drop the final /")
        if not path.exists():
            return  # made by the export, with its parents
        folder, written = path, None
    else:
        if path.exists() and not path.is_file():
            # --overwrite would put a file in its place (/dev/null itself, when root writes there):
            # said before "already exists", whose advice (pass --overwrite) would only lead to that.
            fail(f"cannot write {target}: it is not a file but a device, a pipe or a socket, which the export would "
                 "replace; give a file name, e.g. backup.json")
        if path.exists() and not overwrite:
            fail(exists_message(str(path)))
        written = through_link(path)
        folder = written.parent
        if folder.exists() and not folder.is_dir():
            fail(f"cannot write {target}: {folder} is a file, not a folder; pick another path")
        if not folder.is_dir():
            fail(f"cannot write {target}: the folder {folder} does not exist; create it or pick another path")
    refused = cannot_create_in(folder, like=written)
    if refused is not None:
        fail(f"cannot write {target}: {refused.strerror or refused}; {instead(refused)}")


def write_export(
    document: dict[str, Any],
    target: str,
    *,
    overwrite: bool = False,
    written: list[Path] | None = None,
    removed: list[Path] | None = None,
) -> list[Path]:
    """Write an export document to a file, or split per game into a directory; returns the files.

    A full backup's files are created with mode 0600 and its directory with 0700. Each file is
    written whole or not at all; an existing file is replaced only with ``overwrite``, and without
    it an export that would replace any file writes none. ``written``: each file is added to it
    once it is written whole (for a command interrupted midway to say which). With ``overwrite``, a
    directory export also removes the files an earlier export wrote there for games this one does
    not hold (deleted since), adding each to ``removed``: else a restore of the folder would bring
    them back.

    Raises:
        FileExistsError: a file to write is there already (and not ``overwrite``); nothing is written.
        OSError: the file or directory cannot be written.
        ValueError: a game's id cannot name a file (nothing is written then).
    """
    private = bool(document.get("full"))
    path = Path(target)
    if not _is_directory(target):
        if path.parent and not path.parent.is_dir():
            raise OSError(f"the folder {path.parent} does not exist; create it or pick another path")
        if path.exists() and not overwrite:
            raise FileExistsError(exists_message(str(path)))
        _write(path, document, private=private, overwrite=overwrite)
        if written is not None:
            written.append(path)
        return [path]
    # Each file is named by its game's id: only an id of the shape sevens makes, never "../x".
    for game in document["games"]:
        if not is_public_id(game["id"]):
            raise ValueError(
                f"game {quoted(game['id'])} ({quoted(game['name'])}) has an id sevens does not make, so it "
                "cannot name a file; export to one file instead (a PATH that is not a directory)"
            )
    head = {k: v for k, v in document.items() if k not in ("games", "credentials")}
    if private:
        # How many files make the backup whole, so that a restore of a folder an interrupted export
        # left half written is refused rather than restoring some games, or none of their logins.
        head["files"] = len(document["games"]) + 1
    parts = [(path / f"{game['id']}.json", {**head, "games": [game], "credentials": []}) for game in document["games"]]
    if private:
        parts.append((path / "credentials.json", {**head, "games": [], "credentials": document["credentials"]}))
    there = [file for file, _ in parts if file.exists()]
    if there and not overwrite:
        raise FileExistsError(
            f"{path} already holds {len(there)} of the {len(parts)} files this export writes ({there[0].name} "
            "first) and they would be replaced; choose another directory, or pass --overwrite to replace them"
        )
    path.mkdir(mode=0o700 if private else 0o755, parents=True, exist_ok=True)
    if private:
        path.chmod(0o700)
    for file, part in parts:
        _write(file, part, private=private, overwrite=overwrite)
        if written is not None:
            written.append(file)
    if overwrite:
        # A game deleted since the export being replaced would otherwise keep its file here, and
        # come back with the next restore of this folder.
        for file in _earlier_game_files(path, keep={file for file, _ in parts}):
            file.unlink(missing_ok=True)
            if removed is not None:
                removed.append(file)
    return [file for file, _ in parts]


def _earlier_game_files(folder: Path, *, keep: set[Path]) -> list[Path]:
    """The files of ``folder`` that an earlier folder export wrote for a game (``<game id>.json``,
    a backup document holding that game alone) and that are not in ``keep``."""
    from sevens.store.backup import BACKUP_FORMAT

    found = []
    for file in sorted(folder.glob("*.json")):
        if file in keep or not is_public_id(file.stem) or not file.is_file():
            continue
        try:
            document = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # not one of sevens': left as it is
        games = document.get("games") if isinstance(document, dict) else None
        if (document.get("format") == BACKUP_FORMAT and isinstance(games, list) and len(games) == 1
                and isinstance(games[0], dict) and games[0].get("id") == file.stem):
            found.append(file)
    return found


def read_documents(source: str) -> list[dict[str, Any]]:
    """The JSON documents in a file, or in every ``*.json`` file of a directory."""
    from sevens.store.backup import BACKUP_FORMAT

    path = Path(source)
    piped = source == STDIN
    if not piped:
        # Looked at first, with the reason: is_dir() raised a bare "[Errno 13] Permission denied"
        # for a file in a folder one may not search, and exists() called a link to itself missing.
        try:
            path.stat()
        except FileNotFoundError:
            raise OSError(f"{shown(source)} does not exist; pass a file or directory written by 'sevens export'") from None
        except OSError as exc:
            raise OSError(f"cannot read {shown(source)}: {exc.strerror or exc}; pass a file or directory written by "
                          "'sevens export'") from None
    files = sorted(path.glob("*.json")) if path.is_dir() and not piped else [path]
    if not files:
        raise ValueError(f"the folder {shown(source)} holds no .json files; pass a file or directory written by 'sevens export'")
    documents = []
    for file in files:
        raw = read_input(file, what="a backup written by 'sevens export'", dash_is_stdin=True)
        try:
            document = parse_json(raw, keys_once=True)
        except ValueError as exc:
            raise ValueError(f"{shown(file)} is not a Sevens backup: {exc}") from None
        refused = other_kind(document, file, wanted=BACKUP_FORMAT, expected="a backup written by 'sevens export'")
        if refused is not None:
            raise ValueError(refused)
        if not isinstance(document, dict) or document.get("format") != BACKUP_FORMAT:
            raise ValueError(
                f"{shown(file)} is not a Sevens backup (it has no \"format\": \"{BACKUP_FORMAT}\"); pass a file or "
                "directory written by 'sevens export'"
            )
        documents.append(document)
    if len(files) > 1:
        _one_export(files, documents, source)
    if path.is_dir() and not piped:
        _whole_export(documents, source)
    return documents


def _whole_export(documents: list[dict[str, Any]], source: str) -> None:
    """Refuse a folder holding only part of a full backup (its export was stopped midway, or a
    file went missing since): restored, its other games or their logins would be gone."""
    wanted = {document.get("files") for document in documents}
    if len(wanted) != 1 or not isinstance(whole := wanted.pop(), int) or isinstance(whole, bool):
        return  # a shareable export, or a full one from before the count was written
    lacking = whole - len(documents)
    if lacking > 0:
        logins = ", credentials.json among them" if not any(d.get("games") == [] for d in documents) else ""
        fail(
            f"the folder {source} holds {len(documents)} of the {whole} files of its full backup ({lacking} missing"
            f"{logins}): its export was cut short, or a file was moved; export the database again, or restore an "
            "earlier backup whole"
        )


def _one_export(files: list[Path], documents: list[dict[str, Any]], source: str) -> None:
    """Refuse a folder whose files come from more than one export: a game deleted since, whose
    file an earlier export left, would come back; a newer file beside an older one mixes times."""
    times = Counter(str(document.get("exported_at")) for document in documents)
    if len(times) < 2:
        return
    newest = max(times)
    odd = [file.name for file, document in zip(files, documents, strict=True) if str(document.get("exported_at")) != newest]
    fail(
        f"the folder {source} mixes files of {len(times)} exports: {_count(len(odd), 'file')} ({odd[0]} first) "
        f"{'is' if len(odd) == 1 else 'are'} not from the newest, of {newest}; move {'it' if len(odd) == 1 else 'them'} "
        "out (a game deleted since would come back), or export the database again into an empty folder"
    )


def _engine(url: str, *, command: str) -> Engine:
    """An engine for a database sevens can use (see :func:`usable_url`), or a one-line error.

    Both commands refuse an in-memory database: each connection opens its own, empty one, gone
    when the command ends. ``export`` also refuses a SQLite file that is not there (opening it
    would create it), ``import`` one whose folder is not there (SQLite would only say that it
    cannot open the file).
    """
    from sevens.store.db import is_in_memory, make_engine

    quiet_interrupted_closes()
    parsed = usable_url(url)
    if is_in_memory(url):
        what = "has nothing to export" if command == "export" else "would lose what is imported when the command ends"
        fail(
            f"an in-memory database (sqlite://) {what}; give a database file, sqlite:///PATH, "
            "or PostgreSQL in --database-url (or $DATABASE_URL)"
        )
    if parsed.get_backend_name() == "sqlite" and Path(parsed.database or "").is_dir():
        fail(f"{parsed.database} is a folder, not a SQLite database; give the path of a database file in --database-url (or $DATABASE_URL)")
    if command == "export" and parsed.get_backend_name() == "sqlite" and not Path(parsed.database or "").is_file():
        fail(
            f"there is no SQLite database at {parsed.database}; check the path in --database-url "
            "(or $DATABASE_URL): export reads a database, it does not create one"
        )
    folder = Path(parsed.database or "").parent
    if command == "import" and parsed.get_backend_name() == "sqlite" and not folder.is_dir():
        fail(
            f"cannot create the SQLite database {parsed.database}: there is no folder {folder}; create it "
            "or check the path in --database-url (or $DATABASE_URL)"
        )
    return make_engine(url)


def register(app: typer.Typer) -> None:
    """Add ``sevens export`` and ``sevens import`` to the application."""

    @app.command("export")
    def export(
        target: Annotated[
            str,
            typer.Argument(
                metavar="PATH",
                help="File to write, e.g. backup.json; or a folder, one file per game, when PATH ends in / "
                "or is a folder already, e.g. backups/. An existing file is refused unless --overwrite is given.",
            ),
        ],
        database_url: Annotated[str | None, typer.Option("--database-url", metavar="URL", help=DB_HELP)] = None,
        full: Annotated[
            bool,
            typer.Option(
                "--full",
                metavar="",
                help="Also write seeds of unfinished games, open orders and hashed credentials "
                "(file mode 0600): what a restore of running games needs.",
            ),
        ] = False,
        overwrite: Annotated[bool, typer.Option("--overwrite", metavar="", help=OVERWRITE_HELP)] = False,
    ) -> None:
        """Export the public games as anyone may read them, or (--full) every game in a complete backup.

        Without --full the export is safe to share: it holds what any spectator may read, and no
        private game. A full backup can throw the open turns' dice: keep it as secret as the
        database."""
        written: list[Path] = []
        before = _identity(target) if target != STDIN else None
        try:  # from the start: the settings and the database's driver take a moment to load
            from sevens.web.settings import Settings

            url = database_url or Settings().database_url
            engine = _engine(url, command="export")  # checks the URL; reads nothing yet
            if target != STDIN:
                check_target(target, overwrite=overwrite)
            _export(engine, url, target, full=full, overwrite=overwrite, written=written)
        except KeyboardInterrupt as exc:
            if target != STDIN and not written and _identity(target) not in (None, before):
                written.append(Path(target))  # in place, as the write was about to say
            fail(f"interrupted: {_export_state(target, written)}", code=exit_code(exc))

    @app.command("import")
    def import_(
        source: Annotated[
            str,
            typer.Argument(
                metavar="PATH",
                help="File or folder written by 'sevens export', e.g. backup.json or backups/, or - to read it "
                "from standard input.",
            ),
        ],
        database_url: Annotated[str | None, typer.Option("--database-url", metavar="URL", help=DB_HELP)] = None,
    ) -> None:
        """Restore an export into an empty database (SQLite or PostgreSQL); every record is checked."""
        try:
            from sevens.store.backup import merge

            document = merge(read_documents(source))
        except (OSError, ValueError) as exc:
            fail(str(exc))
        except KeyboardInterrupt as exc:
            fail(f"interrupted while reading {shown(source)}: nothing was imported", code=exit_code(exc))
        try:  # the settings and the database's driver take a moment to load; nothing is written yet
            from sevens.web.settings import Settings

            url = database_url or Settings().database_url
            engine = _engine(url, command="import")
            created = _new_sqlite_files(url)
        except KeyboardInterrupt as exc:
            fail("interrupted: nothing was imported", code=exit_code(exc))
        committed: list[ImportReport] = []
        try:
            with stop_on_signals():
                _restore(engine, document, url, committed)
                engine.dispose()
                from sevens.cli.serve import shown_database

                # Where it went, as 'sevens serve' names it: a relative SQLite path is in this folder.
                _report(f"imported {_imported(committed[0])} into {shown_database(url)}\n"
                        f"{_not_carried(full=bool(document.get('full')))}",
                        then=" (the import is done)")
        except BaseException as exc:
            if committed:  # stopped after the commit: what is imported stays, and is said to be there
                engine.dispose()
                if isinstance(exc, KeyboardInterrupt):
                    fail(f"interrupted after the import was done: {_imported(committed[0])} are in the database",
                         code=exit_code(exc))
                raise
            # A failed import leaves nothing behind: not even the migrated file it created.
            engine.dispose()
            for file in created:
                file.unlink(missing_ok=True)
            if isinstance(exc, KeyboardInterrupt):
                removed = " and the database file it created is removed" if created else ""
                fail(f"interrupted: nothing was imported{removed}", code=exit_code(exc))
            raise


def _imported(report: ImportReport) -> str:
    return (f"{_count(report.games, 'game')} ({report.running} still open) and "
            f"{_count(report.credentials, 'credential')}")


def _not_carried(*, full: bool) -> str:
    """What a restore leaves behind, said where the operator looks: the import's own output."""
    links = "" if full else "no invite or organiser link, bot token or browser session (a shareable export holds none), "
    return (
        f"not in the backup: {links}the rate limits' key and counts (the server makes a new key at its first start, "
        "so every address starts its limits afresh) and the server's settings (SEVENS_BASE_URL and the rest: "
        "set them as on the old server)"
    )


def _report(line: str, *, then: str) -> None:
    """Print what was done; output that fails says so (``then``: that it was done all the same)
    rather than a bare "[Errno 28] ...", status 2 as for bad input, and a reader that left ends
    the command quietly with status 141, as the other commands do."""
    try:
        with writing_stdout():
            typer.echo(line)
    except OutputFailed as failed:
        failed.end(then=then)


def _new_sqlite_files(url: str) -> list[Path]:
    """The files an import into the SQLite database at ``url`` would create: the database and its
    journals, if the database is not there yet (an existing database's files are never removed)."""
    from sqlalchemy import make_url

    from sevens.store.db import normalise_url

    parsed = make_url(normalise_url(url))
    if parsed.get_backend_name() != "sqlite" or Path(parsed.database or "").exists():
        return []
    database = Path(parsed.database or "")
    files = [database, *(Path(f"{database}{end}") for end in ("-wal", "-shm", "-journal"))]
    return [file for file in files if not file.exists()]


def _restore(engine: Engine, document: dict[str, Any], url: str, committed: list[ImportReport]) -> None:
    """Migrate the database and import the backup into it, or a one-line error; once the import is
    committed, its report is added to ``committed``."""
    from alembic.util import CommandError
    from sqlalchemy.exc import IntegrityError, SQLAlchemyError

    from sevens.store.backup import AlreadyImported, import_backup
    from sevens.store.db import make_sessionmaker, run_migrations, stored_revision
    from sevens.store.errors import Conflict, StoreError

    try:
        if (refused := another_application(url)) is not None:
            fail(refused)  # as serve refuses it: the migrations would write sevens' tables beside its own
        run_migrations(engine)
        db = make_sessionmaker(engine)()
        try:  # closed uncommitted, the session rolls the import back
            report = import_backup(db, document=document, now=datetime.now(UTC))
            # A Ctrl-C as it commits waits for the commit: then the command knows whether it was done.
            with signals_deferred():
                db.commit()
                committed.append(report)
        finally:
            db.close()
    except CommandError as exc:  # Alembic has no migration from its revision: a traceback before
        found = stored_revision(url)
        fail(unknown_revision(found, then="import into a new, empty database instead") if found else str(exc))
    except Conflict as exc:  # a database in use: say how to restore beside it instead
        if isinstance(exc, AlreadyImported):
            fail(f"{exc}, unless you meant another database: name a new, empty database in --database-url (or $DATABASE_URL)")
        fail(f"{exc}, so name a new one, e.g. --database-url sqlite:///restored.sqlite3 (a SQLite file "
             "that is not there yet is created), or an empty PostgreSQL database")
    except StoreError as exc:
        fail(str(exc))
    except IntegrityError as exc:  # the database is empty, so the backup repeats something
        fail(_held_twice(document) or f"cannot write the database: {database_trouble(exc, url)}")
    except SQLAlchemyError as exc:
        fail(f"cannot write the database: {database_trouble(exc, url)}")
    except (KeyError, TypeError) as exc:
        fail(f"the backup is malformed: {exc!r} is missing or of the wrong kind")


def _held_twice(document: dict[str, Any]) -> str | None:
    """Say which game or credential a backup holds twice (a unique key broken on import), if any.

    >>> _held_twice({"games": [{"id": "a"}, {"id": "b"}, {"id": "a"}], "credentials": []})
    "the backup holds game 'a' twice; keep one of them (a file copied twice into the folder?) and import again"
    >>> _held_twice({"games": [], "credentials": [{"token_hash": "x"}, {"token_hash": "x"}]})
    'the backup holds the same credential (token hash) twice; keep one of them and import again'
    >>> _held_twice({"games": [{"id": "a"}], "credentials": []}) is None
    True
    """
    games = Counter(g.get("id") for g in document.get("games") or [] if isinstance(g, dict))
    twice = [game for game, n in games.items() if n > 1]
    if twice:
        return f"the backup holds game {twice[0]!r} twice; keep one of them (a file copied twice into the folder?) and import again"
    hashes = Counter(c.get("token_hash") for c in document.get("credentials") or [] if isinstance(c, dict))
    if any(n > 1 for n in hashes.values()):
        return "the backup holds the same credential (token hash) twice; keep one of them and import again"
    return None


def _count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless one.

    >>> _count(1, "game"), _count(0, "game"), _count(5, "file")
    ('1 game', '0 games', '5 files')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _export(engine: Engine, url: str, target: str, *, full: bool, overwrite: bool, written: list[Path]) -> None:
    """Read every game and write the export to ``target`` (``-``: standard output); each file
    written whole is added to ``written``."""
    from sqlalchemy.exc import SQLAlchemyError

    from sevens.store.backup import export_backup
    from sevens.store.db import make_sessionmaker, run_migrations, sevens_revision, stored_revision
    from sevens.store.errors import StoreError
    from sevens.store.games import count_games

    try:
        # The migrations below would write sevens' tables into any database: first make sure
        # it is one (an older sevens schema is still brought up to date, as before).
        if sevens_revision(url) is None:
            if (found := stored_revision(url)) is not None:  # a newer sevens' (it said "not a sevens database")
                fail(unknown_revision(found, then="export it with that newer sevens"))
            fail(
                "not a sevens database: it has no sevens schema (no alembic_version table naming a sevens "
                "revision), so there is nothing to export; check --database-url (or $DATABASE_URL)"
            )
        run_migrations(engine)
        with make_sessionmaker(engine)() as db:
            document = export_backup(db, full=full, now=datetime.now(UTC))
            left_out = count_games(db) - len(document["games"])  # the private games of a shareable export
        engine.dispose()
    except SQLAlchemyError as exc:
        fail(f"cannot read the database: {database_trouble(exc, url)}")
    except StoreError as exc:  # a game's stored record that no longer replays, named
        engine.dispose()
        fail(str(exc))
    kind = "full backup" if full else "shareable export"
    kept_back = (f" ({_count(left_out, 'private game')} left out, for {'its' if left_out == 1 else 'their'} players' eyes "
                 "only; 'sevens export --full' holds every game)" if left_out else "")
    if target == STDIN:
        # A full backup redirected into a file (`> full.json`) is kept as one written by name is.
        shut = _owner_only_stdout() if full else ""
        try:
            with writing_stdout():
                typer.echo(json.dumps(document, indent=2, ensure_ascii=False))
        except OutputFailed as failed:
            failed.end(then="; what was written of the export is cut short: do not use it")
        # Standard output holds the export: what was done goes to standard error.
        print(f"exported {_count(len(document['games']), 'game')} as a {kind} to standard output{shut}{kept_back}",
              file=sys.stderr)
        return
    try:
        removed: list[Path] = []
        files = write_export(document, target, overwrite=overwrite, written=written, removed=removed)
    except FileExistsError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {target}: {exc.strerror or exc}")
    except ValueError as exc:
        fail(f"cannot write {target}: {exc}")
    kind = "full backup (mode 0600)" if full else "shareable export"
    where = escaped(str(files[0]) if len(files) == 1 else f"{_count(len(files), 'file')} in {target}")
    gone = (f", and removed {_count(len(removed), 'file')} of an earlier export for games no longer in the database"
            if removed else "")
    _report(f"exported {_count(len(document['games']), 'game')} as a {kind} to {where}{kept_back}{gone}",
            then=f" (the export is written to {where})")


def _export_state(target: str, written: list[Path]) -> str:
    """What an export interrupted midway leaves, having written ``written`` (whole) to ``target``.

    >>> _export_state("b.json", [])
    'nothing was written; b.json is as it was'
    >>> _export_state("b.json", [Path("b.json")])
    'b.json was written, whole, before it stopped'
    >>> _export_state("out/", [Path("out/a.json")])
    'only 1 of its files was written to out/ (each whole); export again with --overwrite for them all'
    >>> _export_state("-", [])
    'what standard output got of the export is cut short: do not use it'
    """
    if target == STDIN:
        return "what standard output got of the export is cut short: do not use it"
    if not written:
        return f"nothing was written; {target} is as it was"
    if not _is_directory(target):
        return f"{target} was written, whole, before it stopped"
    were = "was" if len(written) == 1 else "were"
    return f"only {len(written)} of its files {were} written to {target} (each whole); export again with --overwrite for them all"


def _identity(target: str) -> tuple[int, int, int] | None:
    """Which file ``target`` names now (None if none, or a folder): a file written in its place
    (``os.replace``) is another file, though the interruption came before the write said so."""
    try:
        info = through_link(Path(target)).stat()
    except OSError:
        return None
    return None if _is_directory(target) else (info.st_dev, info.st_ino, info.st_mtime_ns)
