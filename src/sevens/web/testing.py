"""Real server processes for the reliability tests and the load benchmark, on 127.0.0.1 only.

A :class:`ServerFarm` starts one *zygote* process that imports the app once, then forks a fresh
uvicorn server for every :meth:`ServerFarm.start` in a few tenths of a second: the crash tests
kill servers with SIGKILL and restart them dozens of times. Each server is a real uvicorn process
with its own event loop, engine and connection pool; two servers on one database are two app
workers. Everything stops by itself: a server exits when its zygote is gone or after
``max_seconds``, and the zygote when its standard input closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import httpx

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "HostedGame",
    "LoadResult",
    "PrefixProxy",
    "Server",
    "ServerFarm",
    "host_game",
    "child_pids",
    "free_port",
    "percentile",
    "proc_status",
    "resident_mb",
    "semi_finals",
    "submit_load",
    "wait_until_up",
]

HOST = "127.0.0.1"


def wait_until_up(port: int, *, timeout: float = 30.0, pid: int | None = None) -> None:
    """Wait until a server answers on ``port``.

    Raises:
        TimeoutError: it did not answer within ``timeout`` seconds (or its process died).
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/v1/strategies", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if pid is not None and not _alive(pid):
            raise TimeoutError(f"the server on port {port} died while starting")
        if time.monotonic() > deadline:
            raise TimeoutError(f"no server answered on port {port} within {timeout} s")
        time.sleep(0.02)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True, slots=True)
class Server:
    """One running server process."""

    pid: int
    port: int
    log: Path

    @property
    def url(self) -> str:
        """Its base URL."""
        return f"http://{HOST}:{self.port}"

    def kill(self) -> None:
        """SIGKILL: no clean-up, no flush, no goodbye (what a crash looks like)."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while _alive(self.pid) and time.monotonic() < deadline:
            time.sleep(0.005)


class ServerFarm:
    """Starts and kills uvicorn servers forked from one zygote that imported the app once."""

    def __init__(self, *, max_seconds: float = 600.0, directory: Path | None = None) -> None:
        self._owned_dir = None if directory is not None else tempfile.TemporaryDirectory(prefix="sevens-farm-")
        self.directory = directory or Path(self._owned_dir.name)  # type: ignore[union-attr]
        self.max_seconds = max_seconds
        self._lock = threading.Lock()
        self._zygote = subprocess.Popen(
            [sys.executable, "-m", "sevens.web.testing"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.servers: list[Server] = []

    def start(self, env: Mapping[str, str], *, port: int | None = None, wait: bool = True) -> Server:
        """Fork a server with these environment settings (``DATABASE_URL``, ``SEVENS_*``), on
        ``port`` (a restart on the port of a server killed before) or on a free port.

        The port is listening when this returns: the zygote binds it before it forks the server,
        which serves on that socket. (A port picked as free and bound by the server later could be
        taken in between: a test once found a Dask worker answering there.) Connections made before
        the server is up wait in the socket's queue; ``wait`` waits until it answers."""
        log = self.directory / f"server-{len(self.servers)}.log"
        command = {"port": port or 0, "env": dict(env), "log": str(log), "max_seconds": self.max_seconds}
        assert self._zygote.stdin is not None and self._zygote.stdout is not None
        with self._lock:
            self._zygote.stdin.write(json.dumps(command) + "\n")
            self._zygote.stdin.flush()
            answer = self._zygote.stdout.readline()
        if not answer.strip():
            raise RuntimeError("the server zygote died")
        started = json.loads(answer)
        if "error" in started:
            raise OSError(f"cannot listen on {HOST}:{port or 0} for a test server: {started['error']}")
        server = Server(pid=started["pid"], port=started["port"], log=log)
        self.servers.append(server)
        if wait:
            try:
                wait_until_up(server.port, pid=server.pid)
            except TimeoutError as exc:
                text = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise TimeoutError(f"{exc}\n{text}") from None
        return server

    def logs(self) -> str:
        """Everything every server printed (its log lines)."""
        return "".join(s.log.read_text(errors="replace") for s in self.servers if s.log.exists())

    def close(self) -> None:
        """Kill every server and the zygote; remove the temporary directory."""
        for server in self.servers:
            server.kill()
        if self._zygote.stdin is not None:
            with contextlib.suppress(OSError):
                self._zygote.stdin.close()
        try:
            self._zygote.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._zygote.kill()
            self._zygote.wait(timeout=10)
        if self._zygote.stdout is not None:
            self._zygote.stdout.close()
        if self._owned_dir is not None:
            self._owned_dir.cleanup()

    def __enter__(self) -> ServerFarm:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class HostedGame:
    """A game created, joined and started through the API, with each seat's bearer token."""

    public_id: str
    organiser: dict[str, str]
    players: dict[str, dict[str, str]]  # player id -> request headers
    teams: dict[str, str]  # team -> managing player id


def host_game(
    client: httpx.Client, *, players: int = 4, teams: int = 8, per_player: int = 2, hours: float | None = 24.0
) -> HostedGame:
    """Create a game by API, join every seat with its own bot token, and start it."""
    body: dict[str, object] = {"name": "Load", "players": players, "teams": teams, "teams_per_player": per_player}
    if hours is not None:
        body["deadline_hours"] = hours
    created = client.post("/api/v1/games", json=body)
    created.raise_for_status()
    data = created.json()
    seats: dict[str, dict[str, str]] = {}
    for pid, invite in sorted(data["invites"].items()):
        joined = client.post("/api/v1/join", json={"invite": invite, "name": f"Bot {pid}"})
        joined.raise_for_status()
        seats[pid] = {"Authorization": f"Bearer {joined.json()['token']}"}
    organiser = {"Authorization": f"Bearer {data['token']}"}
    client.post(f"/api/v1/games/{data['game']}/start", headers=organiser).raise_for_status()
    managed: dict[str, str] = {}
    for pid, headers in seats.items():
        view = client.get(f"/api/v1/games/{data['game']}", headers=headers)
        view.raise_for_status()
        managed.update({t["team"]: pid for t in view.json()["my_teams"]})
    return HostedGame(data["game"], organiser, seats, managed)


def semi_finals(client: httpx.Client) -> tuple[HostedGame, str, int, str]:
    """A game hosted by :func:`host_game` whose every team is played through the API to its first
    knockout turn: the game, the team in play with the most SCRUM, that SCRUM, and a team in play of
    another player (each order 10 FORCE, so the semi-finalists keep 70 SCRUM or more)."""
    game = host_game(client, hours=None)
    for turn in (1, 2, 3):
        for team, pid in game.teams.items():
            client.put(
                f"/api/v1/games/{game.public_id}/orders/{team}",
                json={"turn": turn, "force": 10, "flair": 0, "ready": True},
                headers=game.players[pid],
            ).raise_for_status()
    scrum: dict[str, int] = {}
    for team, pid in game.teams.items():
        view = client.get(f"/api/v1/games/{game.public_id}/teams/{team}/view", headers=game.players[pid])
        view.raise_for_status()
        if view.json()["stage"] == "group":
            raise AssertionError(f"game {game.public_id} is still in its group stage after three turns")
        if view.json()["team"]["in_play"]:
            scrum[team] = view.json()["team"]["scrum"]
    team = max(scrum, key=lambda t: scrum[t])
    other = next(t for t in scrum if game.teams[t] != game.teams[team])
    return game, team, scrum[team], other


CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, which the browser tests and the soak benchmark drive through Playwright."""

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
"""Its switches: no sandbox (run as root), and no call to the network of its own."""


def free_port() -> int:
    """A TCP port free on :data:`HOST` just now, for a server a benchmark starts."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def proc_status(pid: int, name: str) -> str:
    """The value of field ``name`` in ``/proc/PID/status`` ("State", "Threads", "VmRSS"); "" where
    the process or the field is gone (a child reaped between two readings)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(name + ":"):
                return line.split(":", 1)[1].strip()
    return ""


def resident_mb(pid: int) -> float:
    """The process's resident memory in MB; 0 where it is gone."""
    value = proc_status(pid, "VmRSS")
    return int(value.split()[0]) / 1024 if value else 0.0


def child_pids(pid: int) -> list[int]:
    """The process's children (its odds process, for a server), from every thread's list."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def percentile(values: list[float] | tuple[float, ...], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank method.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5), percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.99)
    (3.0, 5.0)
    """
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True, slots=True)
class LoadResult:
    """What a load run did: every submission's latency and answer, and each team's last accepted order."""

    seconds: float
    latencies: tuple[float, ...]
    statuses: dict[int, int]
    last_accepted: dict[tuple[str, str], tuple[int, int]]  # (game, team) -> (force, flair)
    accepted: dict[tuple[str, str], int]  # (game, team) -> how many 2xx answers

    @property
    def per_second(self) -> float:
        """Submissions answered per second."""
        return len(self.latencies) / self.seconds if self.seconds else 0.0


async def submit_load(
    urls: list[str], games: list[HostedGame], *, turn: int, revisions: int, seed: int = 0, timeout: float = 30.0
) -> LoadResult:
    """Every seat of every game is one client that saves, then revises, each of its teams' orders
    ``revisions`` times, one request after another, all clients at once; client ``i`` talks to
    ``urls[i % len(urls)]``. Orders are saved, not marked ready, so no turn resolves meanwhile.
    """
    rng = random.Random(seed)
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    last: dict[tuple[str, str], tuple[int, int]] = {}
    accepted: dict[tuple[str, str], int] = {}
    seats = [(game, pid) for game in games for pid in game.players]
    plans = [
        [(team, rng.randint(0, 9), rng.choice((0, 3, 6))) for _ in range(revisions) for team in _teams_of(game, pid)]
        for game, pid in seats
    ]
    limits = httpx.Limits(max_connections=len(seats), max_keepalive_connections=len(seats))
    clients = [httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) for url in urls]

    async def seat(index: int) -> None:
        game, pid = seats[index]
        client = clients[index % len(clients)]
        headers = game.players[pid]
        for team, force, flair in plans[index]:
            body = {"turn": turn, "force": force, "flair": flair, "ready": False}
            began = time.perf_counter()
            answer = await client.put(f"/api/v1/games/{game.public_id}/orders/{team}", json=body, headers=headers)
            latencies.append(time.perf_counter() - began)
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
            if 200 <= answer.status_code < 300:
                last[(game.public_id, team)] = (force, flair)
                accepted[(game.public_id, team)] = accepted.get((game.public_id, team), 0) + 1

    began = time.perf_counter()
    try:
        await asyncio.gather(*(seat(i) for i in range(len(seats))))
    finally:
        for client in clients:
            await client.aclose()
    return LoadResult(time.perf_counter() - began, tuple(latencies), statuses, last, accepted)


def _teams_of(game: HostedGame, pid: str) -> list[str]:
    return sorted(team for team, owner in game.teams.items() if owner == pid)


def _watchdog(parent: int, max_seconds: float) -> None:
    # A server outlives neither its zygote nor its time limit: nothing is left running.
    started = time.monotonic()
    while True:
        time.sleep(0.2)
        if os.getppid() != parent or time.monotonic() - started > max_seconds:
            os._exit(0)


def _listening(port: int) -> socket.socket:
    """A socket listening on ``port`` of 127.0.0.1 (0: a free one), as uvicorn would open it
    (SO_REUSEADDR: a server restarted on the port of one killed a moment ago takes it at once)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((HOST, port))
        listener.listen(2048)
    except OSError:
        listener.close()
        raise
    return listener


def _serve_child(command: dict[str, object], parent: int, listener: socket.socket) -> None:  # pragma: no cover - in a child
    import uvicorn

    from sevens.web.app import create_app
    from sevens.web.settings import Settings

    log = os.open(str(command["log"]), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    env = command["env"]
    assert isinstance(env, dict)
    os.environ.update({str(k): str(v) for k, v in env.items()})
    max_seconds = command["max_seconds"]
    assert isinstance(max_seconds, float | int)
    threading.Thread(target=_watchdog, args=(parent, float(max_seconds)), daemon=True).start()
    app = create_app(Settings())
    # Everything loaded by now lives as long as the server: frozen out of the collector's
    # way, a full collection no longer walks it in the middle of a request.
    gc.freeze()
    port = listener.getsockname()[1]
    config = uvicorn.Config(app, host=HOST, port=port, log_level="warning", access_log=False, proxy_headers=False)
    uvicorn.Server(config).run(sockets=[listener])  # the socket the zygote bound: no other can take the port


def _zygote() -> None:  # pragma: no cover - runs as its own process
    # Import everything a server needs once; every fork then starts in a fraction of a second.
    import uvicorn  # noqa: F401

    import sevens.web.api
    import sevens.web.pages  # noqa: F401
    from sevens.web.app import create_app
    from sevens.web.settings import Settings

    # Build one app on a memory database and drop it: Alembic's scripts and the rest are then
    # loaded before any fork. Its engine is disposed, so no connection crosses a fork.
    create_app(Settings(database_url="sqlite://", scheduler=False)).state.engine.dispose()

    # Killed servers are reaped at once (no zombies), so "is it gone?" is a plain kill(pid, 0).
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    children: list[int] = []
    for line in sys.stdin:
        for pid in list(children):
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(pid, os.WNOHANG) != (0, 0):
                    children.remove(pid)
        command = json.loads(line)
        try:
            listener = _listening(int(command["port"]))
        except OSError as exc:
            sys.stdout.write(json.dumps({"error": str(exc)}) + "\n")
            sys.stdout.flush()
            continue
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                _serve_child(command, parent, listener)
            except BaseException:
                # Into the server's log (its standard error by now): os._exit prints nothing, and
                # a server that died starting would leave no word of why.
                traceback.print_exc()
                sys.stderr.flush()
            finally:
                os._exit(0)
        port = listener.getsockname()[1]
        listener.close()  # the server's now
        children.append(pid)
        sys.stdout.write(json.dumps({"pid": pid, "port": port}) + "\n")
        sys.stdout.flush()
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    for pid in children:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


if __name__ == "__main__":  # pragma: no cover
    _zygote()


class PrefixProxy:
    """A reverse proxy on 127.0.0.1 serving ``upstream`` under ``prefix``, as nginx's ``location
    /sevens/ { proxy_pass http://127.0.0.1:8000/; }`` does: ``/sevens/x`` is passed on as ``/x``
    with the client's ``Host`` and ``X-Forwarded-For``; anything else gets 404 from the proxy
    itself and is kept in :attr:`outside`. Use it as a context manager; :attr:`url` is where the
    site is (``http://127.0.0.1:PORT/sevens``)."""

    def __init__(self, upstream: str, prefix: str) -> None:
        import http.client
        import http.server
        from urllib.parse import urlsplit

        self.prefix = prefix
        self.outside: list[str] = []
        self.passed: list[str] = []
        target = urlsplit(upstream)
        proxy = self
        hop_by_hop = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection"}

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:  # quiet, as sevens serve is
                pass

            def _forward(self) -> None:
                if not (self.path == proxy.prefix or self.path.startswith(proxy.prefix + "/")):
                    proxy.outside.append(f"{self.command} {self.path}")
                    self._answer(404, [("Content-Type", "text/plain")], b"outside the proxied path\n")
                    return
                path = self.path[len(proxy.prefix):] or "/"
                proxy.passed.append(f"{self.command} {path}")
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in hop_by_hop}
                headers["X-Forwarded-For"] = self.client_address[0]
                headers["X-Forwarded-Proto"] = "http"
                connection = http.client.HTTPConnection(target.hostname or HOST, target.port, timeout=60)
                try:
                    connection.request(self.command, path, body=body, headers=headers)
                    answer = connection.getresponse()
                    data = answer.read()
                    kept = [(k, v) for k, v in answer.getheaders() if k.lower() not in hop_by_hop | {"content-length"}]
                    self._answer(answer.status, kept, data)
                finally:
                    connection.close()

            def _answer(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
                self.send_response_only(status)
                for key, value in headers:
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = do_OPTIONS = _forward

        self._server = http.server.ThreadingHTTPServer((HOST, 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://{HOST}:{self._server.server_address[1]}{prefix}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> PrefixProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)
