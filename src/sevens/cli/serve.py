"""``sevens serve``: host games in the browser (pages and the JSON API) with uvicorn."""

from __future__ import annotations

import errno
import gc
import logging
import socket
from typing import Annotated, Any

import typer

from sevens.cli.database import DB_HELP, another_application, database_trouble, unknown_revision, usable_url
from sevens.cli.errors import fail
from sevens.cli.output import printing

__all__ = ["register"]


def _setting_error(error: Any) -> str:
    """One refused setting as a person reads it: our own checks already name the setting and
    say how to fix it; pydantic's name the field.

    >>> _setting_error({"loc": ("trusted_proxies",), "msg": "Value error, SEVENS_TRUSTED_PROXIES: ..."})
    'SEVENS_TRUSTED_PROXIES: ...'
    >>> _setting_error({"loc": ("games_per_hour",), "msg": "Input should be a valid integer"})
    'SEVENS_GAMES_PER_HOUR: Input should be a valid integer'
    """
    message = str(error["msg"])
    if message.startswith("Value error, "):
        return message.removeprefix("Value error, ")
    field = "_".join(str(part) for part in error["loc"])
    return f"SEVENS_{field.upper()}: {message}"


def check_listen(host: str, port: int) -> None:
    """Fail in one line unless a server can listen on ``host``:``port``: bind a socket there as
    uvicorn will, and let it go again. Uvicorn itself would say so only after the start-up
    (and after sevens had said it was serving), in a log line that does not say how to fix it."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    where = f"[{host}]:{port}" if family == socket.AF_INET6 else f"{host}:{port}"
    hosts = "an address of this machine: 127.0.0.1 (this machine only) or 0.0.0.0 (every network)"
    if not host.strip():  # "" would listen on every network: say so only when it is meant
        fail(f"--host is empty (an unset shell variable?); give --host {hosts}")
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except socket.gaierror as exc:
        fail(f"cannot listen on {host}: {exc.strerror or exc}; give --host {hosts}")
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            fail(
                f"cannot listen on {where}: another program is using port {port} (another sevens serve?); "
                "stop it, or choose another port with --port"
            )
        if exc.errno == errno.EACCES:
            fail(f"cannot listen on {where}: permission denied (ports below 1024 need root); choose --port 1024 or above")
        if exc.errno == errno.EADDRNOTAVAIL:
            fail(f"cannot listen on {host}: it is not an address of this machine; give --host {hosts}")
        fail(f"cannot listen on {where}: {exc.strerror or exc}; check --host and --port")


def log_config() -> dict[str, Any]:
    """Uvicorn's logging set-up with the time (UTC) on every line, and sevens' own loggers (the
    deadline scheduler's resolutions and troubles) and any library's warnings written as uvicorn's
    lines are, level first. Before, those went through logging's last resort: the bare message, no
    level or time, and nothing below a warning (the scheduler's "the database answers again")."""
    import copy
    import time

    from uvicorn.config import LOGGING_CONFIG
    from uvicorn.logging import DefaultFormatter

    class UtcFormatter(DefaultFormatter):
        def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
            return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created))

    config = copy.deepcopy(LOGGING_CONFIG)
    for formatter in config["formatters"].values():
        formatter["()"] = UtcFormatter if formatter["()"] == "uvicorn.logging.DefaultFormatter" else formatter["()"]
        formatter["fmt"] = "%(asctime)s " + formatter["fmt"]
    config["loggers"]["sevens"] = {"level": "INFO"}
    config["root"] = {"handlers": ["default"], "level": "WARNING"}
    return config


def _revision_before(url: str) -> str | None:
    """The sevens schema revision of the database at ``url`` before the server migrates it: None
    for a SQLite file not there yet (or in memory, or opened by URI, as the server will open it)
    and for a database without a sevens schema."""
    from pathlib import Path

    from sqlalchemy import make_url

    from sevens.store.db import is_in_memory, normalise_url, sevens_revision

    parsed = make_url(normalise_url(url))
    if parsed.get_backend_name() == "sqlite" and (
        is_in_memory(url) or "uri" in parsed.query or not Path(parsed.database or "").exists()
    ):
        return None
    return sevens_revision(url)


def shown_database(url: str) -> str:
    """Where the database is, for the line that says the server started: no user, no password, and
    none of the URL's query, which may hold one too (``?password=``, ``?sslpassword=``).

    >>> shown_database("postgresql://ann:secret@db.example.org:5432/sevens?password=x&sslmode=require")
    'db.example.org:5432/sevens'
    >>> shown_database("postgresql://sevens@/sevens?host=/run/postgresql")
    '/run/postgresql/sevens'

    A SQLite file named by a relative path (the default, ``./sevens.sqlite3``) is in the folder the
    server started in, which the path alone does not say: it is shown in full.

    >>> shown_database("sqlite:////srv/sevens/games.sqlite3")
    '/srv/sevens/games.sqlite3'
    >>> import os; shown_database("sqlite:///./sevens.sqlite3") == os.path.join(os.getcwd(), "sevens.sqlite3")
    True
    """
    import os

    from sqlalchemy import make_url

    from sevens.tournament.quoting import escaped

    # Escaped: a path's control characters reached the terminal (click strips colour codes only
    # where the output is no terminal, and then names another file).
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and "uri" not in parsed.query:  # a file: URI is shown as given
            return escaped(os.path.abspath(database))
        return escaped(database) or "(in memory)"
    folder = parsed.query.get("host")  # libpq's way to name a Unix socket's folder
    where = parsed.host or (folder if isinstance(folder, str) else None) or "localhost"
    return escaped(f"{where}{f':{parsed.port}' if parsed.port else ''}/{parsed.database or ''}")


def stop_cleanly() -> None:
    """Make SIGTERM and SIGINT end the server with status 0 and one line in its log.

    Uvicorn takes both signals while it serves, finishes the requests in flight, shuts the app down
    (the deadline scheduler finishing the game it is resolving), then puts back the handlers it
    found and sends the signal again, to end the process as the signal would have without it: by
    default status -15 (killed by SIGTERM) or a KeyboardInterrupt. systemd and docker count that
    as a failure. The handlers put here receive that second signal, after the clean shutdown
    (or before uvicorn takes over, when nothing is served yet), and end the process with 0."""
    import signal
    import sys
    from types import FrameType

    def stopped(signum: int, _frame: FrameType | None) -> None:
        name = signal.Signals(signum).name
        logging.getLogger("sevens.web").info("sevens stopped cleanly on %s: the requests in flight were answered", name)
        sys.exit(0)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stopped)


def register(app: typer.Typer) -> None:
    """Add ``sevens serve`` to the application."""

    @app.command("serve")
    def serve(
        host: Annotated[
            str,
            typer.Option(
                metavar="ADDRESS",
                help="Address to listen on: 127.0.0.1 for this machine only, 0.0.0.0 for every network.",
            ),
        ] = "127.0.0.1",
        port: Annotated[
            int,
            typer.Option(
                min=1, max=65535, metavar="PORT", help="Port to listen on; below 1024 only as root, e.g. 8080."
            ),
        ] = 8000,
        database_url: Annotated[str | None, typer.Option("--database-url", metavar="URL", help=DB_HELP)] = None,
        trusted_proxies: Annotated[
            str | None,
            typer.Option(
                "--trusted-proxies",
                metavar="ADDRESSES",
                help=(
                    "Reverse proxies to believe X-Forwarded-For and X-Forwarded-Proto from: IP addresses "
                    "and networks, comma-separated (127.0.0.1,10.0.0.0/8). Default: "
                    "$SEVENS_TRUSTED_PROXIES, else none (the client is the connection's address)."
                ),
            ),
        ] = None,
        allowed_hosts: Annotated[
            str | None,
            typer.Option(
                "--allowed-hosts",
                metavar="NAMES",
                help=(
                    "Host names the site may be reached by besides localhost, 127.0.0.1 and [::1] (and "
                    "the host of $SEVENS_BASE_URL), comma-separated; * for any. Default: "
                    "$SEVENS_ALLOWED_HOSTS, else none: a request on a loopback address must name a "
                    "loopback host (against DNS rebinding), one from the network may name any."
                ),
            ),
        ] = None,
        root_path: Annotated[
            str | None,
            typer.Option(
                "--root-path",
                metavar="PATH",
                help=(
                    "Serve the site under this path of its host behind a reverse proxy that strips it, "
                    "e.g. /sevens for https://example.org/sevens/: every link, form, redirect, cookie and "
                    "the API's addresses carry it. Default: $SEVENS_ROOT_PATH, else none (the root of the host)."
                ),
            ),
        ] = None,
    ) -> None:
        """Serve the web app: create games, invite players, order, resolve, download records.

        Migrations run at start-up; deadlines are resolved by a background scheduler. Other
        settings (session and invite lifetimes, rate limits, secure cookies, the base URL of
        invite links) come from SEVENS_* environment variables: see docs/web.md."""
        import uvicorn
        from alembic.util import CommandError
        from pydantic import ValidationError
        from sqlalchemy.exc import SQLAlchemyError

        from sevens.store.db import (
            check_writable,
            newest_revision,
            sevens_revision,
            stored_revision,
        )
        from sevens.web.app import create_app
        from sevens.web.memory_trace import start_from_environment
        from sevens.web.settings import Settings

        try:
            given: dict[str, Any] = {
                "database_url": database_url,
                "trusted_proxies": trusted_proxies,
                "allowed_hosts": allowed_hosts,
                "root_path": root_path,
            }
            settings = Settings(**{name: value for name, value in given.items() if value is not None})
            usable_url(settings.database_url)  # as export and import do: one line, not an ImportError
            # An operator's memory trace, only if SEVENS_TRACE_MEMORY_DIR asks: before the app is
            # made, so that it sees where all of the app's memory went.
            start_from_environment()
            check_listen(host, port)  # before the database is made or migrated: a busy port costs nothing
            if (refused := another_application(settings.database_url)) is not None:
                fail(refused)  # the migrations would add sevens' tables beside them, as export and import refuse to
            if not settings.migrate and (found := sevens_revision(settings.database_url)) != newest_revision():
                # Every page would fail on a missing table or column; say so now, and what to do.
                if found is None and (stored := stored_revision(settings.database_url)) is not None:
                    # A newer sevens' schema (it said "no sevens schema"): migrating would not help.
                    fail("SEVENS_MIGRATE is false, and " + unknown_revision(stored, then="serve it with that newer sevens"))
                fail(
                    f"SEVENS_MIGRATE is false, but the database holds {f'schema revision {found}' if found else 'no sevens schema'}, "
                    f"not this version's {newest_revision()}: serve it once without SEVENS_MIGRATE=false to migrate it, "
                    "or check --database-url (or $DATABASE_URL)"
                )
            before = _revision_before(settings.database_url) if settings.migrate else None
            web_app = create_app(settings)
            check_writable(web_app.state.engine)  # a read-only database would fail every write
        except ValidationError as exc:
            fail("bad setting: " + "; ".join(_setting_error(error) for error in exc.errors()))
        except SQLAlchemyError as exc:
            fail(f"cannot open the database: {database_trouble(exc, settings.database_url)}")
        except CommandError as exc:
            # Alembic found a schema revision it has no migration for: the database was brought up
            # to date by a newer sevens (and this one was installed over it), or its alembic_version
            # table is another application's. Before, a traceback; nothing has been written.
            fail(
                f"cannot migrate the database: {exc}, which this version of sevens does not know: a newer "
                "sevens made it (serve it with that version), or it is another application's database; check "
                "--database-url (or $DATABASE_URL)"
            )
        except ValueError as exc:
            fail(f"bad setting: {exc}")
        # As any command's results: a reader that left ends it quietly (141), >/dev/full in one line;
        # before, a bare "[Errno 28] ..." with the status of bad input, or status 1 and nothing said.
        with printing():
            if before is not None and before != newest_revision():
                # The organiser upgrading learns that it happened, and that there is no way back.
                typer.echo(
                    f"Migrated the database from schema revision {before} to {newest_revision()}: an older sevens "
                    "cannot open it now (docs/web.md, Upgrades)"
                )
            typer.echo(
                f"Sevens is serving on http://{host}:{port}/ (database: {shown_database(settings.database_url)})"
                + (
                    f", for a proxy that serves it under {settings.root_path}/ and strips that off"
                    if settings.root_path else ""
                )
            )
        # No access log: request lines carry invite secrets (/join/...) and draft orders (the API's
        # GET odds queries; the pages post theirs, and a bot may), which R13 and the secrecy of links keep out of every log.
        # Everything loaded by now lives as long as the server: frozen out of the collector's
        # way, a full collection no longer walks it in the middle of a request.
        gc.freeze()
        stop_cleanly()
        uvicorn.run(
            web_app, host=host, port=port, log_config=log_config(), log_level="info", access_log=False,
            proxy_headers=False,
        )
