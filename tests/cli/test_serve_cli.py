"""``sevens serve`` with a database it cannot use: one line, exit 2, before any server starts."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sevens.cli.main import app
from sevens.store.testing import backends

runner = CliRunner()


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://x:secret@y/z", "mysql databases are not supported; sevens runs on SQLite"),
        ("postgresql+asyncpg://u:secret@h/db", "the database driver asyncpg is not installed"),
        ("postgresql+nosuchdriver://u:secret@h/db", "the database driver nosuchdriver is not one SQLAlchemy knows"),
    ],
)
@pytest.mark.parametrize("given", ["option", "environment"])
def test_serve_names_a_database_it_cannot_use_in_one_line(given: str, url: str, words: str) -> None:
    args, env = (["serve", "--database-url", url], {}) if given == "option" else (["serve"], {"DATABASE_URL": url})
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert words in result.stderr and "PostgreSQL" in result.stderr
    assert "secret" not in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("given", ["option", "environment"])
def test_serve_refuses_a_bad_trusted_proxy_in_one_line(given: str) -> None:
    """A proxy setting that is not addresses or networks stops `sevens serve` before it starts,
    saying which item and how to write it."""
    value = "127.0.0.1, proxy.local"
    # An address no server can listen on: were the setting let through, serve would fail, not hang.
    args = ["serve", "--database-url", "sqlite://", "--host", "256.0.0.1"]
    env = {"SEVENS_TRUSTED_PROXIES": value} if given == "environment" else {}
    if given == "option":
        args += ["--trusted-proxies", value]
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: bad setting: SEVENS_TRUSTED_PROXIES") and result.stderr.count("\n") == 1
    assert "'proxy.local' is not an IP address or network" in result.stderr and "10.0.0.0/8" in result.stderr


@pytest.mark.parametrize("value", ["games.example.org\x1b[31m", "games.example.org\tother.example", "\u202egro.elpmaxe"])
def test_serve_refuses_a_host_name_holding_a_control_character_in_one_line(value: str) -> None:
    """No Host header holds a control or invisible character: such a setting was taken and the
    server started, then refused every visitor's address. It is named escaped, in one line."""
    args = ["serve", "--database-url", "sqlite://", "--host", "256.0.0.1", "--allowed-hosts", value]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: bad setting: SEVENS_ALLOWED_HOSTS") and result.stderr.count("\n") == 1
    assert "is not a host name" in result.stderr and result.stderr.isascii(), result.stderr
    assert "\x1b" not in result.stderr and "\t" not in result.stderr


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("SEVENS_SCHEDULER_SECONDS", "0"),  # a scheduler that polls the database without a pause
        ("SEVENS_SESSION_DAYS", "-3"),  # every sign-in over before it began
        ("SEVENS_MAX_BODY_BYTES", "0"),  # every form and API body refused
        ("SEVENS_RATE_LIMIT_WINDOW_SECONDS", "0"),  # wrong secrets counted over no time at all
        ("SEVENS_RATE_LIMIT_ATTEMPTS", "-1"),
    ],
)
def test_serve_refuses_a_setting_that_leaves_nothing_working_in_one_line(variable: str, value: str) -> None:
    """These were taken without a word, and the server started (a busy loop, or no sign-in or
    form that could work)."""
    args = ["serve", "--database-url", "sqlite://", "--host", "256.0.0.1"]  # were it let through: fails, not hangs
    result = runner.invoke(app, args, env={variable: value})
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: bad setting: {variable}: ") and result.stderr.count("\n") == 1, result.stderr
    assert "greater than" in result.stderr


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("0", "0 is too short a time between an open page's polls of its game"),  # every page polling without a pause
        ("0.1", "0.1 is too short a time"),
        ("600", "600 is too long a time"),  # a page ten minutes behind its game
        ("nan", "nan is not a number of seconds"),
    ],
)
def test_serve_refuses_a_poll_pace_out_of_bounds_and_says_the_bounds(value: str, words: str) -> None:
    """SEVENS_POLL_SECONDS, how often an open page asks whether its game moved on, is refused at
    start-up outside 0.5-60 s, saying what was given and what to give."""
    args = ["serve", "--database-url", "sqlite://", "--host", "256.0.0.1"]  # were it let through: fails, not hangs
    result = runner.invoke(app, args, env={"SEVENS_POLL_SECONDS": value})
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: bad setting: SEVENS_POLL_SECONDS: {words}"), result.stderr
    assert result.stderr.endswith("; give a number of seconds from 0.5 to 60 (5 if unset)\n"), result.stderr
    assert result.stderr.count("\n") == 1, result.stderr


@pytest.mark.parametrize("value", ["sevens.example.org", "ftp://sevens.example.org", "https://"])
def test_serve_refuses_a_base_url_without_its_scheme_or_host(value: str) -> None:
    """SEVENS_BASE_URL=sevens.example.org was taken, and every invite link shown began
    'sevens.example.org/join/...', which a browser reads as a path on the site that shows it."""
    args = ["serve", "--database-url", "sqlite://", "--host", "256.0.0.1"]
    result = runner.invoke(app, args, env={"SEVENS_BASE_URL": value})
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: bad setting: SEVENS_BASE_URL: ") and result.stderr.count("\n") == 1
    assert "https://sevens.example.org" in result.stderr


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("sevens", "'sevens' does not start with '/'; write it as the path on the site, e.g. /sevens"),
        ("/sevens/", "'/sevens/' ends with '/'; write it without: /sevens"),
        ("/my sevens", "'/my sevens' is not a plain path: each part between '/' must be letters, digits"),
        ("/games//sevens", "no empty part"),
        ("/games/../sevens", "'/games/../sevens' holds '..' as a part; write the path itself"),
        ("/sevens?x=1", "is not a plain path"),
    ],
)
@pytest.mark.parametrize("given", ["option", "environment"])
def test_serve_refuses_a_root_path_it_cannot_serve_under_in_one_line(given: str, value: str, words: str) -> None:
    """A prefix that is not a plain path on the site stops `sevens serve` before it starts, saying
    what is wrong and how to write it (a trailing slash would have made every link '//games/...')."""
    args = ["serve", "--database-url", "sqlite://", "--host", "256.0.0.1"]  # were it let through: fails, not hangs
    env = {"SEVENS_ROOT_PATH": value} if given == "environment" else {}
    if given == "option":
        args += ["--root-path", value]
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: bad setting: SEVENS_ROOT_PATH (sevens serve --root-path): ")
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


def test_serve_refuses_a_base_url_with_a_path_and_says_where_the_path_goes() -> None:
    """SEVENS_BASE_URL=https://example.org/sevens put the path in the links shown to the organiser
    only; the pages' own links and the cookies went without it."""
    args = ["serve", "--database-url", "sqlite://", "--host", "256.0.0.1"]
    result = runner.invoke(app, args, env={"SEVENS_BASE_URL": "https://example.org/sevens/"})
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        "error: bad setting: SEVENS_BASE_URL: 'https://example.org/sevens/' holds a path; write the scheme and "
        "host only (https://example.org) and the path as SEVENS_ROOT_PATH (/sevens)\n"
    )


def test_serve_help_tells_of_the_root_path() -> None:
    result = runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "--root-path" in result.output and "$SEVENS_ROOT_PATH" in result.output


def test_serve_names_a_port_in_use_before_it_starts_or_makes_the_database(tmp_path: Path) -> None:
    """Uvicorn said so only after sevens had announced it was serving, in a log line, exit 3."""
    database = tmp_path / "games.sqlite3"
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port), "--database-url", f"sqlite:///{database}"])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == (
        f"error: cannot listen on 127.0.0.1:{port}: another program is using port {port} (another sevens "
        "serve?); stop it, or choose another port with --port\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("host", "words"),
    [
        ("192.0.2.1", "cannot listen on 192.0.2.1: it is not an address of this machine; give --host"),
        ("no-such-host.invalid", "cannot listen on no-such-host.invalid: "),
    ],
)
def test_serve_names_an_address_it_cannot_listen_on(tmp_path: Path, host: str, words: str) -> None:
    """192.0.2.1 is kept for documentation (RFC 5737): no machine has it."""
    result = runner.invoke(app, ["serve", "--host", host, "--database-url", f"sqlite:///{tmp_path / 'g.sqlite3'}"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {words}") and result.stderr.count("\n") == 1, result.stderr
    assert "127.0.0.1 (this machine only) or 0.0.0.0 (every network)" in result.stderr
    assert result.stdout == "" and list(tmp_path.iterdir()) == []


def _unreachable_port() -> int:
    """A local port nothing listens on: bound and let go, so refused when connected to."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("command", ["serve", "export", "import", "rotate-key"])
def test_an_unreachable_postgresql_server_says_what_to_check(tmp_path: Path, command: str) -> None:
    source = tmp_path / "backup.json"
    source.write_text('{"format": "sevens-backup", "version": 1, "full": false, "games": [], "credentials": []}')
    url = f"postgresql://sevens:secret@127.0.0.1:{_unreachable_port()}/sevens"
    args = {"serve": ["serve", "--port", str(_unreachable_port())], "export": ["export", str(tmp_path / "out.json")],
            "rotate-key": ["rotate-key"]}.get(command, ["import", str(source)])
    result = runner.invoke(app, [*args, "--database-url", url])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: cannot ") and result.stderr.count("\n") == 1, result.stderr
    assert "Connection refused; check that the PostgreSQL server is running and that --database-url" in result.stderr
    assert "(psycopg" not in result.stderr and "secret" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.json"]


@pytest.mark.parametrize(
    ("make", "words"),
    [
        ("missing folder", "SQLite cannot open or create {path}; check that its folder exists and can be written"),
        ("folder", "{path} is a folder; give the path of a database file in --database-url (or $DATABASE_URL)"),
        ("not a database", "{path} is not a SQLite database; check the path in --database-url (or $DATABASE_URL)"),
    ],
)
def test_serve_says_what_is_wrong_with_a_sqlite_path(tmp_path: Path, make: str, words: str) -> None:
    path = tmp_path / "games.sqlite3"
    if make == "missing folder":
        path = tmp_path / "typo" / "games.sqlite3"
    elif make == "folder":
        path.mkdir()
    else:
        path.write_text('{"teams": []}\n' * 10)
    before = path.read_bytes() if path.is_file() else None
    result = runner.invoke(app, ["serve", "--port", str(_unreachable_port()), "--database-url", f"sqlite:///{path}"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: cannot open the database: ") and result.stderr.count("\n") == 1
    assert words.format(path=path) in result.stderr, result.stderr
    assert (path.read_bytes() if path.is_file() else None) == before


@pytest.mark.parametrize("port", ["99999", "0", "-5"])
def test_a_port_out_of_range_is_said_with_the_range_and_the_number_given(port: str) -> None:
    """It read "invalid value for '--port': Input should be less than or equal to 65535": neither
    the number typed nor the ports there are."""
    import os
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "sevens", "serve", "--port", port], capture_output=True, text=True,
                         timeout=120, check=False, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")})
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == f"error: --port takes a whole number from 1 to 65535, got {int(port)}\n"


@pytest.mark.parametrize("backend", backends())
@pytest.mark.parametrize("revision", ["0099", "a1b2c3d4e5f6"])
def test_serve_names_a_database_of_a_newer_sevens_or_another_application(
    tmp_path: Path, backend: str, revision: str
) -> None:
    """A database a newer sevens migrated (this one installed over it), or whose alembic_version is
    another application's: Alembic cannot find the revision. It was a traceback; now one line, and
    the database is left as it was."""
    from sqlalchemy import text

    from sevens.store.testing import newer_sevens_database

    with newer_sevens_database(backend, tmp_path, revision=revision) as (url, engine):
        result = runner.invoke(app, ["serve", "--port", str(_unreachable_port()), "--database-url", url])
        assert result.exit_code == 2, result.output
        assert result.stdout == "" and "Traceback" not in result.output
        assert result.stderr == (
            f"error: cannot migrate the database: Can't locate revision identified by '{revision}', which "
            "this version of sevens does not know: a newer sevens made it (serve it with that version), or "
            "it is another application's database; check --database-url (or $DATABASE_URL)\n"
        )
        with engine.connect() as connection:
            assert connection.scalar(text("SELECT version_num FROM alembic_version")) == revision


@pytest.mark.parametrize("backend", backends())
def test_serve_refuses_a_database_it_may_read_but_not_write(tmp_path: Path, backend: str) -> None:
    """A SQLite file the server may only read (another user's; here opened with mode=ro), or a
    PostgreSQL user granted SELECT alone: the server started, showed every page, and failed every
    write (a game, a join, an order). Now one line before it starts, and nothing is written."""
    import os
    import secrets
    import subprocess
    import sys

    from sqlalchemy import make_url, text

    from sevens.store.db import make_engine, run_migrations
    from sevens.store.testing import throwaway_database

    role = f"reader_{secrets.token_hex(4)}"
    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        try:
            run_migrations(engine)
            if backend == "sqlite":
                path = make_url(url).database
                served = f"sqlite:///file:{path}?mode=ro&uri=true"
                words = f"attempt to write a readonly database: sevens cannot write file:{path}; check that it may write"
            else:
                with engine.begin() as connection:
                    connection.execute(text(f"CREATE ROLE {role} LOGIN"))
                    connection.execute(text(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}"))
                served = make_url(url).set(username=role, password=None).render_as_string(hide_password=False)
                words = "permission denied for table alembic_version; the user in --database-url (or $DATABASE_URL) must"
            # A process of its own, bounded: a server let through would serve until stopped.
            run = subprocess.run(
                [sys.executable, "-m", "sevens", "serve", "--port", str(_unreachable_port()), "--database-url", served],
                capture_output=True, text=True, timeout=60, check=False,
                env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")},
            )
            assert (run.returncode, run.stdout) == (2, ""), run.stderr
            assert run.stderr.startswith(f"error: cannot open the database: {words}"), run.stderr
            assert run.stderr.count("\n") == 1, run.stderr
            with engine.connect() as connection:
                assert connection.scalar(text("SELECT count(*) FROM games")) == 0
        finally:
            if backend == "postgresql":
                with engine.begin() as connection:
                    connection.execute(text(f"DROP OWNED BY {role}"))
                    connection.execute(text(f"DROP ROLE {role}"))
            engine.dispose()


@pytest.mark.skipif("postgresql" not in backends(), reason="PostgreSQL roles")
def test_serve_says_who_may_migrate_an_older_database_on_postgresql(tmp_path: Path) -> None:
    """An upgrade served by a PostgreSQL user that may read and write sevens' tables but does not
    own them: the migration cannot alter them. It said 'must be owner of table ...; check
    --database-url', as if the URL were wrong. Now it says who may migrate it; nothing changes."""
    import os
    import secrets
    import subprocess
    import sys

    from sqlalchemy import make_url, text

    from sevens.store.db import make_engine, run_migrations
    from sevens.store.testing import throwaway_database

    role = f"server_{secrets.token_hex(4)}"
    with throwaway_database("postgresql", tmp_path) as url:
        engine = make_engine(url)
        try:
            run_migrations(engine, revision="0006")
            with engine.begin() as connection:
                connection.execute(text(f"CREATE ROLE {role} LOGIN"))
                connection.execute(text(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}"))
            served = make_url(url).set(username=role, password=None).render_as_string(hide_password=False)
            run = subprocess.run(
                [sys.executable, "-m", "sevens", "serve", "--port", str(_unreachable_port()), "--database-url", served],
                capture_output=True, text=True, timeout=60, check=False,
                env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")},
            )
            assert (run.returncode, run.stdout) == (2, ""), run.stderr
            assert run.stderr.startswith("error: cannot open the database: must be owner of table "), run.stderr
            assert run.stderr.endswith(
                "; migrating an older sevens schema changes its tables, which only their owner may do: run sevens "
                "once as the user that owns them (then this one may use it), or check --database-url (or "
                "$DATABASE_URL)\n"
            ), run.stderr
            with engine.connect() as connection:
                assert connection.scalar(text("SELECT version_num FROM alembic_version")) == "0006"
        finally:
            with engine.begin() as connection:
                connection.execute(text(f"DROP OWNED BY {role}"))
                connection.execute(text(f"DROP ROLE {role}"))
            engine.dispose()


@pytest.mark.parametrize("revision", [None, "0004"])
def test_serve_without_migrations_refuses_a_database_without_the_current_schema(
    tmp_path: Path, revision: str | None
) -> None:
    """SEVENS_MIGRATE=false on an empty database, or one an older sevens made: the server started,
    and every page failed on a missing table or column. Now one line saying what the database
    holds and how to migrate it; the database is left as it was."""
    import os
    import subprocess
    import sys

    from sevens.store.db import make_engine, newest_revision, run_migrations, sevens_revision

    path = tmp_path / "games.sqlite3"
    path.touch()
    url = f"sqlite:///{path}"
    if revision is not None:
        engine = make_engine(url)
        run_migrations(engine, revision=revision)
        engine.dispose()
    run = subprocess.run(
        [sys.executable, "-m", "sevens", "serve", "--port", str(_unreachable_port()), "--database-url", url],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "SEVENS_MIGRATE": "false", "PYTHONPATH": str(Path(__file__).parents[2] / "src")},
    )
    holds = f"schema revision {revision}" if revision else "no sevens schema"
    assert (run.returncode, run.stdout) == (2, ""), run.stderr
    assert run.stderr == (
        f"error: SEVENS_MIGRATE is false, but the database holds {holds}, not this version's {newest_revision()}: "
        "serve it once without SEVENS_MIGRATE=false to migrate it, or check --database-url (or $DATABASE_URL)\n"
    )
    assert sevens_revision(url) == revision


@pytest.mark.parametrize("backend", backends())
def test_serve_without_migrations_names_a_database_a_newer_sevens_migrated(tmp_path: Path, backend: str) -> None:
    """SEVENS_MIGRATE=false on a database a newer sevens migrated: it said the database held "no
    sevens schema" and to serve it once with migrations, which cannot help. Now it names the
    revision and what to do, and the database is left as it was."""
    from sqlalchemy import text

    from sevens.store.db import newest_revision
    from sevens.store.testing import newer_sevens_database

    with newer_sevens_database(backend, tmp_path) as (url, engine):
        result = runner.invoke(
            app, ["serve", "--port", str(_unreachable_port()), "--database-url", url], env={"SEVENS_MIGRATE": "false"}
        )
        assert (result.exit_code, result.stdout) == (2, ""), result.output
        assert result.stderr == (
            "error: SEVENS_MIGRATE is false, and the database holds schema revision '0099', which this version "
            f"of sevens (schema {newest_revision()}) does not know: a newer sevens migrated it, or it is another "
            "application's database; serve it with that newer sevens, or check --database-url (or $DATABASE_URL)\n"
        )
        with engine.connect() as connection:
            assert connection.scalar(text("SELECT version_num FROM alembic_version")) == "0099"


@pytest.mark.parametrize("backend", backends())
def test_serve_refuses_another_applications_database(tmp_path: Path, backend: str) -> None:
    """A database with tables but no alembic_version (another application's, given by mistake):
    the server added sevens' tables beside them and started. Now one line naming what it found
    and what to do, before anything is written; export already refused such a database."""
    import os
    import subprocess
    import sys

    from sqlalchemy import inspect, text

    from sevens.store.db import make_engine
    from sevens.store.testing import throwaway_database

    with throwaway_database(backend, tmp_path) as url:
        engine = make_engine(url)
        try:
            with engine.begin() as connection:
                connection.execute(text("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER)"))
                connection.execute(text("CREATE TABLE customers (id INTEGER PRIMARY KEY)"))
            # A process of its own, bounded: a server let through would serve until stopped.
            run = subprocess.run(
                [sys.executable, "-m", "sevens", "serve", "--port", str(_unreachable_port()), "--database-url", url],
                capture_output=True, text=True, timeout=60, check=False,
                env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")},
            )
            assert (run.returncode, run.stdout) == (2, ""), run.stderr
            assert run.stderr == (
                "error: not a sevens database: it holds tables (customers, invoices) but no sevens schema (no "
                "alembic_version table), so it is another application's; point --database-url (or $DATABASE_URL) "
                "at a new, empty database or at one sevens made\n"
            )
            with engine.connect() as connection:
                assert sorted(inspect(connection).get_table_names()) == ["customers", "invoices"]
        finally:
            engine.dispose()
