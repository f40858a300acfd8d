"""``-`` for standard input and output (``sevens export -``, ``import -``, ``verify -``, ``table -``),
and Ctrl-C during ``export`` and ``import``: a real process, real pipes and a real SIGINT."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.terminal_session import ctrl_c_while_loading

SEVENS = [sys.executable, "-m", "sevens"]


def _database(tmp_path: Path, games: int) -> str:
    """A sevens SQLite database holding ``games`` games in their lobby."""
    from datetime import UTC, datetime

    from sevens.store import games as store
    from sevens.store.db import make_engine, make_sessionmaker, run_migrations, session_scope
    from sevens.store.models import Visibility

    url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    engine = make_engine(url)
    run_migrations(engine)
    with session_scope(make_sessionmaker(engine)) as db:
        for number in range(games):
            store.create_game(db, spec=store.NewGame(f"cup {number}", 4, 8, 2, 3600, "even", Visibility.PUBLIC),
                              now=datetime.now(UTC))
    engine.dispose()
    return url


def _blocked_on(process: subprocess.Popen[bytes], what: str, limit: float = 60) -> None:
    """Wait until ``process`` waits in the kernel on ``what`` (pipe_read, pipe_write): its work has begun."""
    end = time.monotonic() + limit
    while what not in Path(f"/proc/{process.pid}/wchan").read_text() and time.monotonic() < end:
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)


def _ctrl_c_when_blocked(run: subprocess.Popen[bytes], what: str) -> tuple[bytes, bytes]:
    """Ctrl-C for ``run`` once it waits on ``what`` (:func:`_blocked_on`); its output."""
    try:
        _blocked_on(run, what)
        run.send_signal(signal.SIGINT)
        return run.communicate(timeout=60)
    finally:
        run.kill()


def _holds_open(process: subprocess.Popen[bytes], name: str) -> bool:
    """Whether ``process`` has a file called ``name`` open (its descriptors come and go as it is read)."""
    try:
        fds = list(Path(f"/proc/{process.pid}/fd").iterdir())
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(fd).endswith(name):
                return True
        except OSError:
            continue
    return False


def test_export_to_standard_output_imports_from_standard_input(tmp_path: Path) -> None:
    url = _database(tmp_path, 2)
    exported = subprocess.run([*SEVENS, "export", "--full", "--database-url", url, "-"], capture_output=True, timeout=120,
                              check=False)
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["format"] == "sevens-backup"
    assert exported.stderr == b"exported 2 games as a full backup to standard output\n"
    assert not (tmp_path / "-").exists()
    restored = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    imported = subprocess.run([*SEVENS, "import", "--database-url", restored, "-"], input=exported.stdout,
                              capture_output=True, timeout=120, check=False)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith(b"imported 2 games")


@pytest.mark.parametrize(
    ("command", "given", "said"),
    [
        (["import", "--database-url", "sqlite:///{tmp}/r.sqlite3"], b"",
         "error: standard input is empty: nothing was piped in; pipe in a backup written by 'sevens export', or give its path"),
        (["import", "--database-url", "sqlite:///{tmp}/r.sqlite3"], b'{"format": "sevens-backup"',
         "error: standard input is not a Sevens backup: the file ends in the middle of its JSON"),
        (["verify"], b"  \n", "error: standard input is empty: nothing was piped in"),
        (["verify"], b"[1 2]", "error: standard input: not a readable Sevens game record: the file is not valid JSON"),
        (["table"], b'{"teams": []}', "error: standard input: the file must have \"teams\""),
    ],
)
def test_bad_standard_input_is_named_as_such(command: list[str], given: bytes, said: str, tmp_path: Path) -> None:
    args = [part.replace("{tmp}", str(tmp_path)) for part in command]
    result = subprocess.run([*SEVENS, *args, "-"], input=given, capture_output=True, timeout=120, check=False)
    assert result.returncode == 2
    assert result.stderr.decode().startswith(said), result.stderr
    assert result.stderr.count(b"\n") == 1
    assert not (tmp_path / "r.sqlite3").exists()


def test_ctrl_c_while_import_reads_its_input_says_nothing_was_imported(tmp_path: Path) -> None:
    database = tmp_path / "restored.sqlite3"
    run = subprocess.Popen([*SEVENS, "import", "--database-url", f"sqlite:///{database}", "-"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = _ctrl_c_when_blocked(run, "pipe_read")
    assert run.returncode == 130
    assert out == b""
    assert err == b"error: interrupted while reading standard input: nothing was imported\n"
    assert not database.exists()


def test_ctrl_c_while_export_writes_to_a_pipe_says_the_output_is_cut_short(tmp_path: Path) -> None:
    """A hundred games are more than a pipe holds: the export waits for a reader that never reads."""
    url = _database(tmp_path, 100)
    run = subprocess.Popen([*SEVENS, "export", "--database-url", url, "-"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    out, err = _ctrl_c_when_blocked(run, "pipe_write")
    assert run.returncode == 130
    assert out  # what the pipe took before the export waited
    assert err == b"error: interrupted: what standard output got of the export is cut short: do not use it\n"


def _ctrl_c_once(
    run: subprocess.Popen[bytes], ready: Callable[[], bool], signum: int = signal.SIGINT
) -> tuple[bool, bytes, bytes]:
    """Ctrl-C for ``run`` once ``ready()`` holds (or a minute has gone), sent while it is stopped
    (SIGSTOP) so that it lands in the midst of the work; whether it had ended first, and its output."""
    try:
        end = time.monotonic() + 60
        while not ready() and run.poll() is None and time.monotonic() < end:
            time.sleep(0.005)
        run.send_signal(signal.SIGSTOP)
        ended = run.poll() is not None
        run.send_signal(signum)
        run.send_signal(signal.SIGCONT)
        out, err = run.communicate(timeout=60)
    finally:
        run.kill()
    return ended, out, err


def test_ctrl_c_during_export_to_a_file_says_nothing_was_written(tmp_path: Path) -> None:
    """Stopped (SIGSTOP) once it has the database open, so that Ctrl-C comes in the midst of the work."""
    url = _database(tmp_path, 100)
    target = tmp_path / "backup.json"
    run = subprocess.Popen([*SEVENS, "export", "--database-url", url, str(target)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    ended, out, err = _ctrl_c_once(run, lambda: _holds_open(run, "source.sqlite3"))
    if ended:
        pytest.skip("the export ended before it could be interrupted")
    assert run.returncode == 130, err
    assert out == b""
    if target.exists():  # on a loaded machine the stop may come as late as the write itself: whole, and said so
        assert err == f"error: interrupted: {target} was written, whole, before it stopped\n".encode()
        assert json.loads(target.read_bytes())["format"] == "sevens-backup"
        return
    assert err == f"error: interrupted: nothing was written; {target} is as it was\n".encode()
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith("source.sqlite3")] == []


@pytest.mark.parametrize("command", [["verify"], ["table"], ["import", "--database-url", "sqlite:///{tmp}/r.sqlite3"]])
def test_dash_in_a_terminal_is_refused_rather_than_waited_on(command: list[str], tmp_path: Path) -> None:
    """Nobody types a JSON file: - with the terminal as standard input is a slip, said at once."""
    from tests.terminal_session import in_terminal, read_until

    args = [part.replace("{tmp}", str(tmp_path)) for part in command]
    with in_terminal([*SEVENS, *args, "-"]) as (run, main):
        shown = read_until(main, rb"its path\r\n", 60)
        assert run.wait(timeout=30) == 2
    assert shown.decode().startswith("error: - reads ")
    assert f"from standard input, which is a terminal here; pipe it in (... | sevens {command[0]} -) or give its path" in (
        shown.decode())
    assert not (tmp_path / "r.sqlite3").exists()


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_during_import_says_nothing_was_imported_and_removes_the_file_it_created(
    signum: int, status: int, tmp_path: Path
) -> None:
    """Stopped (SIGSTOP) once it has created the database, so that Ctrl-C comes as it migrates and imports.
    A kill (SIGTERM) ended it with the file left behind and not a word; it is now said as Ctrl-C is."""
    url = _database(tmp_path, 100)
    backup = tmp_path / "backup.json"
    exported = subprocess.run([*SEVENS, "export", "--full", "--database-url", url, str(backup)], capture_output=True,
                              timeout=120, check=False)
    assert exported.returncode == 0, exported.stderr
    database = tmp_path / "restored.sqlite3"
    run = subprocess.Popen([*SEVENS, "import", "--database-url", f"sqlite:///{database}", str(backup)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    ended, out, err = _ctrl_c_once(run, database.exists, signum)
    if ended:
        pytest.skip("the import ended before it could be interrupted")
    assert run.returncode == status, err
    assert err == b"error: interrupted: nothing was imported and the database file it created is removed\n"
    assert out == b""
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("restored")]


@pytest.mark.parametrize(
    ("command", "loading", "said"),
    [
        (["export", "--database-url", "{url}", "{tmp}/backup.json"], "sevens.web.settings",
         "error: interrupted: nothing was written; {tmp}/backup.json is as it was\n"),
        (["import", "--database-url", "sqlite:///{tmp}/restored.sqlite3", "{tmp}/backup.json"], "sevens.web.settings",
         "error: interrupted: nothing was imported\n"),
        (["import", "--database-url", "sqlite:///{tmp}/restored.sqlite3", "{tmp}/backup.json"], "sevens.store.backup",
         "error: interrupted while reading {tmp}/backup.json: nothing was imported\n"),
    ],
)
def test_ctrl_c_as_the_command_loads_what_it_needs_says_nothing_was_done(
    command: list[str], loading: str, said: str, tmp_path: Path
) -> None:
    """The settings and the store load once the command has begun, for a moment in which Ctrl-C
    ended it silently. A real SIGINT is sent as module ``loading`` is first looked for."""
    url = _database(tmp_path, 1)
    exported = subprocess.run([*SEVENS, "export", "--full", "--database-url", url, str(tmp_path / "backup.json")],
                              capture_output=True, timeout=120, check=False)
    assert exported.returncode == 0, exported.stderr
    script = ctrl_c_while_loading(loading)
    args = [part.replace("{tmp}", str(tmp_path)).replace("{url}", url) for part in command]
    before = (tmp_path / "backup.json").read_bytes()
    result = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120,
                            check=False)
    assert (result.returncode, result.stdout, result.stderr) == (130, "", said.replace("{tmp}", str(tmp_path)))
    assert (tmp_path / "backup.json").read_bytes() == before
    assert not (tmp_path / "restored.sqlite3").exists()


CLOSE_INTERRUPTED = '''
import sqlite3, sys
from sqlalchemy import create_engine, text
from sevens.cli.database import quiet_interrupted_closes

class Closing(sqlite3.Connection):
    """A real SQLite connection whose close is where the Ctrl-C lands (or, with 'fails', errs)."""
    def close(self):
        super().close()
        if sys.argv[2] == "fails":
            raise sqlite3.OperationalError("disk I/O error")
        raise KeyboardInterrupt

if sys.argv[1] == "quiet":
    quiet_interrupted_closes()
engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(":memory:", factory=Closing))
with engine.connect() as connection:
    connection.execute(text("select 1"))
try:
    engine.dispose()
except KeyboardInterrupt:
    print("interrupted", file=sys.stderr)
'''


@pytest.mark.parametrize(("setup", "close", "said"), [
    ("quiet", "interrupted", "interrupted\n"),  # the command's own line alone
    ("as-sqlalchemy-has-it", "interrupted", "Exception closing connection"),  # what export printed before
    ("quiet", "fails", "Exception closing connection"),  # any other failure is still said
])
def test_a_ctrl_c_as_a_connection_closes_leaves_no_sqlalchemy_traceback(setup: str, close: str, said: str) -> None:
    """A Ctrl-C that landed as SQLAlchemy's pool closed the connection (export stopped at its very end)
    printed the pool's "Exception closing connection" and a traceback before the export's own
    'error: interrupted: ...' line (a CI run's test_ctrl_c_during_export_to_a_file_says_nothing_was_written).
    Run in a process of its own: the handler is the process's logging set-up, as in the command."""
    done = subprocess.run([sys.executable, "-c", CLOSE_INTERRUPTED, setup, close], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")})
    assert done.returncode == 0, done.stderr
    if said == "interrupted\n":
        assert done.stderr == said
    else:
        assert done.stderr.startswith(said), done.stderr


CTRL_C_AS_IT_COMMITS = (
    "import os, signal\n"
    "from sqlalchemy import event\n"
    "from sqlalchemy.orm import Session\n"
    "event.listen(Session, 'after_commit', lambda session: os.kill(os.getpid(), signal.SIGINT))\n"
    "from sevens.cli import run; run()\n"
)


@pytest.mark.parametrize("existing", [False, True], ids=["database-created", "empty-database-given"])
def test_ctrl_c_as_the_import_commits_says_it_was_done_and_keeps_it(existing: bool, tmp_path: Path) -> None:
    """A real SIGINT sent as SQLAlchemy reports the import's commit: the press lands once the database
    holds the games, where the import said "nothing was imported" (and removed the file it had made)."""
    from sqlalchemy import create_engine, text

    url = _database(tmp_path, 2)
    backup = tmp_path / "backup.json"
    exported = subprocess.run([*SEVENS, "export", "--full", "--database-url", url, str(backup)], capture_output=True,
                              timeout=120, check=False)
    assert exported.returncode == 0, exported.stderr
    restored = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    if existing:
        from sevens.store.db import make_engine, run_migrations

        engine = make_engine(restored)
        run_migrations(engine)
        engine.dispose()
    result = subprocess.run([sys.executable, "-c", CTRL_C_AS_IT_COMMITS, "import", "--database-url", restored,
                             str(backup)], capture_output=True, text=True, timeout=120, check=False)
    assert (result.returncode, result.stdout) == (130, ""), result.stderr
    assert result.stderr == ("error: interrupted after the import was done: 2 games (2 still open) and "
                             "0 credentials are in the database\n")
    engine = create_engine(restored)
    with engine.connect() as connection:
        assert connection.execute(text("select count(*) from games")).scalar() == 2
    engine.dispose()
