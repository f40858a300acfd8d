"""The server as a whole: OpenAPI document, the background scheduler, `sevens serve`, settings."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi import FastAPI
from sqlalchemy import select

import sevens
from sevens.store.models import GameRow
from sevens.store.testing import backends
from sevens.tournament.verify import verify_record
from sevens.web.app import create_app
from sevens.web.settings import Settings
from web.web_helpers import FakeClock, Hosted, TestClient, new_client

ENDPOINTS = {
    ("post", "/api/v1/games"),
    ("post", "/api/v1/organise"),
    ("post", "/api/v1/games/{public_id}/start"),
    ("post", "/api/v1/games/{public_id}/resolve"),
    ("post", "/api/v1/games/{public_id}/pause"),
    ("post", "/api/v1/games/{public_id}/resume"),
    ("post", "/api/v1/games/{public_id}/extend"),
    ("post", "/api/v1/games/{public_id}/deadline"),
    ("post", "/api/v1/games/{public_id}/seats/{player}/release"),
    ("post", "/api/v1/games/{public_id}/seats/{player}/invite"),
    ("post", "/api/v1/games/{public_id}/end"),
    ("post", "/api/v1/games/{public_id}/organiser-link"),
    ("post", "/api/v1/games/{public_id}/rematch"),
    ("post", "/api/v1/join"),
    ("get", "/api/v1/me"),
    ("delete", "/api/v1/me"),
    ("get", "/api/v1/waiting"),
    ("get", "/api/v1/strategies"),
    ("get", "/api/v1/games/{public_id}"),
    ("get", "/api/v1/games/{public_id}/state"),
    ("get", "/api/v1/games/{public_id}/record"),
    ("get", "/api/v1/games/{public_id}/orders"),
    ("put", "/api/v1/games/{public_id}/orders/{team}"),
    ("put", "/api/v1/games/{public_id}/autopilot/{team}"),
    ("put", "/api/v1/games/{public_id}/house-bot/{team}"),
    ("get", "/api/v1/games/{public_id}/teams/{team}/view"),
    ("get", "/api/v1/games/{public_id}/teams/{team}/odds"),
    ("post", "/api/v1/games/{public_id}/teams/{team}/odds"),
    ("get", "/api/v1/games/{public_id}/standing.csv"),
    ("get", "/api/v1/games/{public_id}/matches.csv"),
    ("delete", "/api/v1/games/{public_id}"),
    ("post", "/api/v1/games/{public_id}/seats/{player}/remove-name"),
}



def _free_port() -> int:
    """A port free on 127.0.0.1 a moment ago, for a server of the test's own."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])

def test_openapi_document_lists_the_api(app: FastAPI) -> None:
    """The API's OpenAPI document covers what a player, a bot or an organiser does; pages stay out of it."""
    document = new_client(app).get("/api/v1/openapi.json").json()
    found = {(method, path) for path, item in document["paths"].items() for method in item}
    assert found == ENDPOINTS
    assert all(path.startswith("/api/v1/") for _, path in found)


def test_bot_plays_through_the_api(hosted: Hosted) -> None:
    """A bot joins with an invite, finds the games waiting for it, orders, and sees the turn resolved."""
    client = new_client(hosted.app)
    joined = client.post(
        "/api/v1/join", json={"invite": hosted.new_invite("p4").rsplit("/", 1)[1], "name": "Bot"}
    )
    headers = {"Authorization": f"Bearer {joined.json()['token']}"}
    waiting = client.get("/api/v1/waiting", headers=headers).json()
    assert [w["game"] for w in waiting] == [hosted.public_id] and len(waiting[0]["teams"]) == 2
    for pid in ("p1", "p2", "p3"):
        for team in hosted.my_teams(pid):
            hosted.order(pid, team, 5, 3, action="ready")
    resolved = []
    for team in waiting[0]["teams"]:
        view = client.get(f"/api/v1/games/{hosted.public_id}/teams/{team}/view", headers=headers).json()
        assert view["team"]["scrum"] == 100 and view["team"]["opponent"]
        body = {"turn": waiting[0]["turn"], "force": 6, "flair": 3, "ready": True}
        answer = client.put(f"/api/v1/games/{hosted.public_id}/orders/{team}", json=body, headers=headers)
        assert answer.status_code == 200
        resolved.append(answer.json()["resolved"])
    assert resolved == [False, True]
    assert client.get("/api/v1/waiting", headers=headers).json()[0]["turn"] == 2
    record = client.get(f"/api/v1/games/{hosted.public_id}/record", headers=headers).json()
    assert len(record["turns"]) == 1 and record["seed"] is None


def test_scheduler_task_resolves_overdue_turns(hosted: Hosted, clock: FakeClock) -> None:
    """The background scheduler (started with the app) resolves a turn whose deadline has passed."""
    app = create_app(
        Settings(database_url=str(hosted.app.state.settings.database_url), scheduler_seconds=0.05),
        clock=clock,
    )
    clock.advance(hours=25)
    with TestClient(app):  # runs the lifespan, which starts the scheduler
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with app.state.sessionmaker() as db:
                if db.scalar(select(GameRow.current_turn)) == 2:
                    break
            time.sleep(0.05)
    with app.state.sessionmaker() as db:
        assert db.scalar(select(GameRow.current_turn)) == 2
    app.state.engine.dispose()


def test_settings_read_database_url_from_environment(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """DATABASE_URL names the database; by default a SQLite file in the working directory."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert Settings().database_url == "sqlite:///./sevens.sqlite3"
    monkeypatch.setenv("DATABASE_URL", "postgresql://u@127.0.0.1:5432/sevens")
    assert Settings().database_url == "postgresql://u@127.0.0.1:5432/sevens"


@contextlib.contextmanager
def _serving(tmp_path: Path, *options: str, env: dict[str, str] | None = None) -> Iterator[int]:
    """`sevens serve` in a process of its own on a free port and a fresh database file, until the
    block ends; yields the port once the home page answers.

    The port is picked free and let go, and `sevens serve` binds it a moment later: another program
    can take it in between (a Dask worker took one of the reliability tests' ports so in CI). Then
    the server stops, saying so, or something else answers there: the server is started again on
    another port, a few times at most."""
    for attempt in range(3):
        port = _free_port()
        process = _start_serve(tmp_path, port, options, env)
        try:
            said = _until_home_page(process, port)
            if said is None:
                yield port
                return
            if attempt == 2 or not ("is using port" in said or "address already in use" in said):
                raise AssertionError(f"sevens serve did not start:\n{said}")
        finally:
            if process.poll() is None:
                process.terminate()
            process.wait(timeout=10)


def _start_serve(
    tmp_path: Path, port: int, options: tuple[str, ...], env: dict[str, str] | None
) -> subprocess.Popen[bytes]:
    args = ["serve", "--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'site.sqlite3'}", *options]
    script = (
        "import typer; from sevens.cli.serve import register\n"
        "app = typer.Typer(); register(app)\n"
        "@app.command()\ndef other() -> None: pass\n"
        f"app({args!r})\n"
    )
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL" and not k.startswith("SEVENS_")}
    # The process runs in tmp_path: name the sevens under test by its absolute path, so that a
    # relative PYTHONPATH (src) does not fall through to another installed copy.
    here = str(Path(sevens.__file__).resolve().parents[1])
    environment["PYTHONPATH"] = os.pathsep.join(p for p in (here, environment.get("PYTHONPATH", "")) if p)
    return subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env={**environment, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def _until_home_page(process: subprocess.Popen[bytes], port: int) -> str | None:
    """None once the server's home page answers on ``port``; else (the process ended, or 60 s
    passed: a bound, not a measure) what the process printed."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                if "Create a game" in response.read().decode():
                    return None
        except (OSError, http.client.HTTPException):  # not up yet, or another program's port
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            if process.poll() is None:
                process.kill()
            return process.communicate()[0].decode(errors="replace") or f"exit status {process.returncode}"
        time.sleep(0.2)


def test_serve_command_opens_a_working_site(tmp_path: Path) -> None:
    """`sevens serve` with a fresh database file answers on its port with the home page."""
    with _serving(tmp_path):
        assert (tmp_path / "site.sqlite3").exists()


def _new_game(port: int, forwarded_for: str) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/games",
        data=json.dumps({"name": "Cup", "players": 4}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as refused:
        return refused.code


def test_serve_says_it_migrated_an_older_database(tmp_path: Path) -> None:
    """An organiser upgrading restarts the server on the database an older sevens made: it was
    migrated without a word, and nothing said that an older sevens could no longer open it. Now one
    line says so, from which revision to which; a start on a database already current says nothing."""
    from sevens.store.db import make_engine, newest_revision, run_migrations

    engine = make_engine(f"sqlite:///{tmp_path / 'site.sqlite3'}")
    run_migrations(engine, revision="0001")
    engine.dispose()
    said = []
    for _ in range(2):
        port = _free_port()
        process = _start_serve(tmp_path, port, (), None)
        try:
            assert _until_home_page(process, port) is None
        finally:
            process.terminate()
            said.append(process.communicate(timeout=30)[0].decode())
    line = (
        f"Migrated the database from schema revision 0001 to {newest_revision()}: an older sevens cannot open it "
        "now (docs/web.md, Upgrades)"
    )
    assert said[0].splitlines()[0] == line, said[0]
    assert "Migrated" not in said[1] and said[1].startswith("Sevens is serving on"), said[1]


def test_serve_says_where_a_relative_sqlite_file_is_in_full(tmp_path: Path) -> None:
    """The default database, and any SQLite file named by a relative path, is a file in the folder
    the server was started in: the line saying it started showed './sevens.sqlite3', which does not
    say which folder, so an organiser who started it elsewhere the next time (a package installed
    with pip runs from any folder) found an empty site and no word of where the games were."""
    port = _free_port()
    process = _start_serve(tmp_path, port, ("--database-url", "sqlite:///./games.sqlite3"), None)
    try:
        assert _until_home_page(process, port) is None
    finally:
        process.terminate()
        output = process.communicate(timeout=30)[0].decode()
    assert f"(database: {tmp_path / 'games.sqlite3'})\n" in output, output
    assert (tmp_path / "games.sqlite3").is_file()


def test_serve_behind_a_trusted_proxy_counts_each_forwarded_client(tmp_path: Path) -> None:
    """`sevens serve --trusted-proxies 127.0.0.1`: each address the proxy forwards has its own
    allowance of new games; without the option the header is ignored, so a client that sends a
    new address each time still shares its connection's one."""
    limit = {"SEVENS_GAMES_PER_HOUR": "1"}
    (tmp_path / "proxied").mkdir()
    with _serving(tmp_path / "proxied", "--trusted-proxies", "127.0.0.1", env=limit) as port:
        assert [_new_game(port, f) for f in ("203.0.113.1", "203.0.113.1", "203.0.113.2")] == [201, 429, 201]
    (tmp_path / "direct").mkdir()
    with _serving(tmp_path / "direct", env=limit) as port:
        assert [_new_game(port, f) for f in ("203.0.113.1", "203.0.113.2", "203.0.113.3")] == [201, 429, 429]


def test_bots_host_and_play_a_whole_game_through_the_api(app: FastAPI) -> None:
    """An organiser bot creates and starts a game; four player bots play it to a champion by the API."""
    client = new_client(app)
    body = {"name": "Bot league", "players": 4, "teams": 8, "teams_per_player": 2, "deadline_hours": 48}
    created = client.post("/api/v1/games", json=body)
    assert created.status_code == 201, created.text
    data = created.json()
    gid, boss = data["game"], {"Authorization": f"Bearer {data['token']}"}
    bots = []
    for pid, invite in sorted(data["invites"].items()):
        joined = client.post("/api/v1/join", json={"invite": invite, "name": f"Bot {pid}"}).json()
        bots.append({"Authorization": f"Bearer {joined['token']}"})
    assert client.post(f"/api/v1/games/{gid}/start", headers=boss).json()["status"] == "running"
    assert client.post(f"/api/v1/games/{gid}/pause", headers=boss).json()["status"] == "paused"
    assert (
        client.post(f"/api/v1/games/{gid}/extend", json={"hours": 1.5}, headers=boss).json()[
            "paused_remaining"
        ]
        == (48 + 1.5) * 3600
    )
    assert client.post(f"/api/v1/games/{gid}/resume", headers=boss).json()["status"] == "running"
    for _turn in range(5):
        waiting = [client.get("/api/v1/waiting", headers=h).json() for h in bots]
        if not any(waiting):
            state = client.get(f"/api/v1/games/{gid}", headers=boss).json()
            client.post(f"/api/v1/games/{gid}/resolve", json={"turn": state["turn"]}, headers=boss)
            continue
        for headers, games in zip(bots, waiting, strict=True):
            for entry in games:
                for team in entry["teams"]:
                    view = client.get(f"/api/v1/games/{gid}/teams/{team}/view", headers=headers).json()
                    force = min(15, view["team"]["scrum"])
                    order = {"turn": entry["turn"], "force": force, "flair": 0, "ready": True}
                    assert (
                        client.put(
                            f"/api/v1/games/{gid}/orders/{team}", json=order, headers=headers
                        ).status_code
                        == 200
                    )
    final = client.get(f"/api/v1/games/{gid}", headers=boss).json()
    assert final["status"] == "finished" and final["champion"] and final["seed"]
    kinds = [e["kind"] for e in final["events"]]
    assert kinds[:5] == ["created", "started", "paused", "extended", "resumed"]
    assert verify_record(client.get(f"/api/v1/games/{gid}/record", headers=boss).json()).finished
    # The organiser's token organises only: it plays no seat.
    assert client.get(f"/api/v1/games/{gid}/orders", headers=boss).status_code == 403
    assert client.post(f"/api/v1/games/{gid}/end", headers=bots[0]).status_code == 403


def test_an_api_game_without_a_format_gets_r12_default(app: FastAPI) -> None:
    """Only the number of players: the game takes R12's default format for it, as the create form does."""
    client = new_client(app)
    for players, teams, per_player in ((4, 8, 2), (5, 16, 3), (9, 16, 1)):
        created = client.post("/api/v1/games", json={"name": "Cup", "players": players})
        assert created.status_code == 201, created.text
        boss = {"Authorization": f"Bearer {created.json()['token']}"}
        seen = client.get(f"/api/v1/games/{created.json()['game']}", headers=boss).json()
        fmt = seen["format"]
        assert (fmt["players"], fmt["teams"], fmt["teams_per_player"]) == (players, teams, per_player)
        assert len(created.json()["invites"]) == players
        assert seen["resolve_when"] == "all-ready"
    # 0 hours is "when all are ready", as on the create form.
    zero = client.post("/api/v1/games", json={"name": "Cup", "players": 4, "deadline_hours": 0}).json()
    seen = client.get(f"/api/v1/games/{zero['game']}", headers={"Authorization": f"Bearer {zero['token']}"}).json()
    assert seen["resolve_when"] == "all-ready"
    timed = client.post("/api/v1/games", json={"name": "Cup", "players": 4, "deadline_hours": 0.5}).json()
    seen = client.get(f"/api/v1/games/{timed['game']}", headers={"Authorization": f"Bearer {timed['token']}"}).json()
    assert seen["resolve_when"] == "deadline"


def test_an_api_game_with_teams_or_teams_per_player_alone_gets_r12_preferred(app: FastAPI) -> None:
    """One of the two numbers alone was refused ("give both teams and teams_per_player"): it is
    completed as R12 completes its default, the arrangement with the largest share of teams
    people play among the legal ones with it; one no legal arrangement has is refused with the
    legal ones to send, and nothing is created."""
    client = new_client(app)
    cases = (
        ({"players": 4, "teams": 16}, (16, 4)),
        ({"players": 6, "teams": 8}, None),
        ({"players": 6, "teams_per_player": 2}, (16, 2)),
        ({"players": 8, "teams_per_player": 2}, (16, 2)),
        ({"players": 12, "teams": 16}, (16, 1)),
        ({"players": 4, "teams_per_player": 1}, None),
    )
    for asked, expected in cases:
        created = client.post("/api/v1/games", json={"name": "Cup", **asked})
        if expected is None:
            assert created.status_code == 422, created.text
            detail = created.json()["detail"]
            assert "legal for" in detail and "send teams and teams_per_player" in detail, detail
            continue
        assert created.status_code == 201, created.text
        boss = {"Authorization": f"Bearer {created.json()['token']}"}
        fmt = client.get(f"/api/v1/games/{created.json()['game']}", headers=boss).json()["format"]
        assert (fmt["teams"], fmt["teams_per_player"]) == expected, asked
    refused = client.post("/api/v1/games", json={"name": "Cup", "players": 6, "teams": 8}).json()["detail"]
    assert refused == (
        "R12: no legal arrangement of 6 players has 8 teams; legal for 6 players: 16 teams with 2 each; send "
        "teams and teams_per_player as one of these, or neither for R12's default"
    )


def _home_status(port: int, host: str) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status), ""
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def test_serve_on_loopback_refuses_a_rebound_host_name(tmp_path: Path) -> None:
    """A page whose name was rebound to 127.0.0.1 reaches a local `sevens serve` with its own name
    in Host: refused, saying which setting to change; the loopback names and the listed ones answer."""
    (tmp_path / "default").mkdir()
    with _serving(tmp_path / "default") as port:
        for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "localhost"):
            assert _home_status(port, host)[0] == 200, host
        status, said = _home_status(port, f"rebound.example:{port}")
        assert status == 400 and "SEVENS_ALLOWED_HOSTS" in said and "rebound.example" in said
    (tmp_path / "listed").mkdir()
    with _serving(tmp_path / "listed", "--allowed-hosts", "games.example.org") as port:
        assert _home_status(port, "games.example.org")[0] == 200
        assert _home_status(port, "rebound.example")[0] == 400
    (tmp_path / "any").mkdir()
    with _serving(tmp_path / "any", env={"SEVENS_ALLOWED_HOSTS": "*"}) as port:
        assert _home_status(port, "rebound.example")[0] == 200


def _call(port: int, method: str, path: str, body: dict[str, object] | None = None, token: str = "") -> dict[str, object]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        answer = json.loads(response.read().decode())
    assert isinstance(answer, dict)
    return answer


def _game_with_an_order(port: int, **settings: object) -> str:
    """A 4-player game started with Ann in seat 1 and her order (37 FORCE, 27 FLAIR) saved for turn 1;
    returns its public id."""
    game = _call(port, "POST", "/api/v1/games", {"name": "Cup", "players": 4, **settings})
    invites = game["invites"]
    assert isinstance(invites, dict)
    player = _call(port, "POST", "/api/v1/join", {"invite": invites["p1"], "name": "Ann"})
    _call(port, "POST", f"/api/v1/games/{game['game']}/start", token=str(game["token"]))
    seen = _call(port, "GET", f"/api/v1/games/{game['game']}", token=str(player["token"]))
    teams = seen["teams"]
    assert isinstance(teams, list)
    team = next(t["id"] for t in teams if t["manager"] == "Ann")
    order = {"turn": 1, "force": 37, "flair": 27}
    _call(port, "PUT", f"/api/v1/games/{game['game']}/orders/{team}", order, token=str(player["token"]))
    return str(game["game"])


def test_serve_makes_its_database_readable_by_its_own_user_only(tmp_path: Path) -> None:
    """The SQLite database holds every open turn's saved orders and every game's secret seed, as a
    full backup does (written 0600). `sevens serve` made it, and SQLite its WAL and shared-memory
    files, 0644 under the usual umask: any account on the machine could read the orders before the
    turn was resolved (R13) and throw its dice (R14). With an order saved, none of them is open to
    the group or to others."""
    before = os.umask(0o022)  # the usual one, which the server process inherits
    try:
        with _serving(tmp_path) as port:
            _game_with_an_order(port)
            modes = {f.name: stat.S_IMODE(f.stat().st_mode) for f in tmp_path.glob("site.sqlite3*")}
    finally:
        os.umask(before)
    assert {"site.sqlite3", "site.sqlite3-wal", "site.sqlite3-shm"} <= set(modes), modes
    assert {name: oct(mode) for name, mode in modes.items() if mode & 0o077} == {}


def test_serve_logs_each_deadline_resolution_with_its_time_and_no_order(tmp_path: Path) -> None:
    """An operator reads in the server's log when each turn was resolved at its deadline (the game's
    public id, the turn, the time in UTC, level first as uvicorn's lines), and never an order (R13).
    Before, the scheduler's lines went through logging's last resort: no time, no level, and its
    resolutions were not logged at all."""
    port = _free_port()
    process = _start_serve(tmp_path, port, (), {"SEVENS_SCHEDULER_SECONDS": "0.1"})
    try:
        assert _until_home_page(process, port) is None
        public_id = _game_with_an_order(port, deadline_hours=1)
        _pass_the_deadline_and_await_turn_2(tmp_path)
    finally:
        process.terminate()
        output = process.communicate(timeout=30)[0].decode()
    lines = output.splitlines()
    pattern = rf"\d{{4}}-\d\d-\d\dT\d\d:\d\d:\d\dZ INFO: +game {public_id}: turn 1 resolved at its deadline"
    assert [line for line in lines if re.fullmatch(pattern, line)], output
    assert all(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ", line) for line in lines[1:]), output
    said = "\n".join(line.split(" ", 1)[-1] for line in lines if "server process" not in line)  # no time, no pid
    assert not re.search(r"(?<![\w.-])(37|27)(?![\w.-])", said.replace(str(port), "")), output


def _pass_the_deadline_and_await_turn_2(tmp_path: Path) -> datetime:
    """Move the one game's deadline a second into the past, behind the server's back, and wait (30 s
    at most) for its scheduler to resolve turn 1; when the deadline was moved."""
    from sqlalchemy import update

    from sevens.store.db import make_engine

    engine = make_engine(f"sqlite:///{tmp_path / 'site.sqlite3'}")
    try:
        with engine.begin() as db:
            db.execute(update(GameRow).values(deadline_at=datetime.now(UTC) - timedelta(seconds=1)))
        moved = datetime.now(UTC)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with engine.connect() as db:
                if db.scalar(select(GameRow.current_turn)) == 2:
                    break
            time.sleep(0.1)
    finally:
        engine.dispose()
    return moved


@pytest.mark.parametrize("zone", ["Pacific/Chatham", "America/New_York"])
def test_a_server_set_to_another_time_zone_keeps_deadlines_and_its_log_in_utc(tmp_path: Path, zone: str) -> None:
    """The machine's time zone (TZ for the server process: Chatham is UTC+13:45 in December, New
    York UTC-5) must not move a deadline, what the pages say of it, the next turn's deadline after
    the scheduler resolves one, or the times in the log: all are UTC, said as UTC."""
    port = _free_port()
    process = _start_serve(tmp_path, port, (), {"TZ": zone, "SEVENS_SCHEDULER_SECONDS": "0.1"})
    try:
        assert _until_home_page(process, port) is None
        before = datetime.now(UTC)
        public_id = _game_with_an_order(port, deadline_hours=2)
        after = datetime.now(UTC)
        due = datetime.fromisoformat(str(_call(port, "GET", f"/api/v1/games/{public_id}")["deadline"]))
        assert before + timedelta(hours=2) <= due <= after + timedelta(hours=2), (due, before)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/{public_id}", timeout=30) as response:
            page = response.read().decode()
        assert f">{due:%Y-%m-%d %H:%M} UTC</time>" in page, page
        assert re.search(r"\((2 h|1 h 59 min) left as of \d\d:\d\d UTC\)", page), page
        resolved = _pass_the_deadline_and_await_turn_2(tmp_path)
        following = datetime.fromisoformat(str(_call(port, "GET", f"/api/v1/games/{public_id}")["deadline"]))
        assert resolved + timedelta(hours=2) <= following <= datetime.now(UTC) + timedelta(hours=2), following
    finally:
        process.terminate()
        output = process.communicate(timeout=30)[0].decode()
    said = [line for line in output.splitlines() if "resolved at its deadline" in line]
    assert len(said) == 1, output
    logged = datetime.strptime(said[0][:20], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert abs(logged - resolved) < timedelta(minutes=1), (said, resolved)


def test_scheduler_says_once_in_one_line_that_the_database_cannot_be_reached_and_when_it_can(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """While the database cannot be used (a PostgreSQL server down; here a SQLite file in a folder
    not there yet) every poll fails. Each wrote "scheduler poll failed" and a traceback of about 120
    lines (a poll every 5 s: 86,000 lines an hour) with the reason deep inside. Now one line with
    the driver's reason, then one when the database answers, and the overdue turn is resolved."""
    import asyncio
    import logging

    from sevens.store import games as store
    from sevens.store.db import make_engine, make_sessionmaker, run_migrations, session_scope
    from sevens.store.models import Visibility
    from sevens.web.app import utc_now
    from sevens.web.scheduler import run_scheduler

    folder = tmp_path / "games"
    engine = make_engine(f"sqlite:///{folder / 'site.sqlite3'}")

    async def poll_while(make_ready: bool) -> None:
        task = asyncio.create_task(run_scheduler(make_sessionmaker(engine), clock=utc_now, interval=0.02))
        await asyncio.sleep(0.3)
        if make_ready:  # the database appears, with a game whose deadline has passed
            built = tmp_path / "building"
            built.mkdir()
            ready = make_engine(f"sqlite:///{built / 'site.sqlite3'}")
            run_migrations(ready)
            with session_scope(make_sessionmaker(ready)) as db:
                start = utc_now() - timedelta(hours=2)
                spec = store.NewGame("Cup", 4, 8, 2, 3600, "even", Visibility.PUBLIC)
                game_id = store.create_game(db, spec=spec, now=start).game.id
                seat = store.seats_of(db, game_id=game_id)[0]
                store.join_seat(db, seat=seat, name="Ann", now=start)  # a claimed team holds turns up
                store.start_game(db, game_id=game_id, now=start)
            ready.dispose()
            built.rename(folder)
            await asyncio.sleep(0.5)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    caplog.set_level(logging.INFO, logger="sevens")
    try:
        asyncio.run(poll_while(make_ready=True))
    finally:
        engine.dispose()
    said = [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records if r.name.startswith("sevens")]
    assert said[0] == (
        "ERROR",
        "the deadline scheduler cannot use the database: unable to open database file; turns past their "
        "deadline wait until it answers (tried again every 0.02 s)",
        None,
    ), said
    assert said[1] == ("INFO", "the deadline scheduler reaches the database again", None), said
    assert len(said) == 3 and re.fullmatch(r"game \S+: turn 1 resolved at its deadline", said[2][1]), said


def test_a_database_that_cannot_be_used_gets_503_and_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A request that finds the database unusable (PostgreSQL down; here the SQLite file moved away
    once the pool let its connection go) was a 500 "internal server error" and a traceback in the
    log for each request. It is the server's trouble, not a bug: 503 with Retry-After, and one log
    line naming the route (never the address, which may hold a link) and the driver's reason."""
    import logging

    folder = tmp_path / "games"
    folder.mkdir()
    app = create_app(Settings(database_url=f"sqlite:///{folder / 'site.sqlite3'}", scheduler=False))
    caplog.set_level(logging.INFO, logger="sevens")
    with TestClient(app, raise_server_exceptions=False) as client:
        assert client.get("/").status_code == 200
        document = client.get("/api/v1/openapi.json").json()
        app.state.engine.dispose()
        folder.rename(tmp_path / "moved")
        page = client.get("/join/" + "s3cret" * 6)
        api = client.post("/api/v1/games", json={"name": "Cup", "players": 4})
    app.state.engine.dispose()
    assert (page.status_code, api.status_code) == (503, 503), (page.text, api.text)
    assert api.headers["retry-after"] == "60" and page.headers["x-frame-options"] == "DENY"
    # A client generated from the OpenAPI document knows the answer and when to try again.
    documented = document["paths"]["/api/v1/games"]["post"]["responses"]["503"]
    assert documented["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorAnswer"}
    assert set(documented["headers"]) == {"Retry-After"}
    assert api.json()["detail"].startswith("the server cannot use its database just now; try again in a minute")
    assert "cannot use its database just now" in page.text
    said = [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records if r.name.startswith("sevens")]
    assert said == [
        ("ERROR", "GET /join/{token}: the database cannot be used: unable to open database file (answered 503)", None),
        ("ERROR", "POST /api/v1/games: the database cannot be used: unable to open database file (answered 503)", None),
    ], said
    assert "s3cret" not in caplog.text


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_serve_stops_on_sigterm_or_sigint_with_status_0_after_the_request_in_flight(
    tmp_path: Path, signum: int
) -> None:
    """systemd and docker stop a service with SIGTERM (a terminal with SIGINT) and count any status
    but 0 as a failure. Uvicorn finished the requests in flight and then sent itself the signal
    again: status -15 for SIGTERM, a KeyboardInterrupt's for SIGINT. Now 0, the request that was
    being received when the signal came is answered whole, and the log says in one line that sevens stopped."""
    port = _free_port()
    process = _start_serve(tmp_path, port, (), None)
    try:
        assert _until_home_page(process, port) is None
        body = json.dumps({"name": "Cup", "players": 4}).encode()
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(
                b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:10]
            )
            time.sleep(0.5)  # the headers are in: the request is in flight
            process.send_signal(signum)
            time.sleep(1)
            assert process.poll() is None, "the server ended with a request in flight"
            client.sendall(body[10:])
            answer = b""
            while chunk := client.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 201 "), answer[:200]
        assert b'"invites"' in answer
        output = process.communicate(timeout=30)[0].decode()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, output
    name = signal.Signals(signum).name
    stopped = [line for line in output.splitlines() if "sevens stopped" in line]
    assert len(stopped) == 1 and re.fullmatch(
        rf"\d{{4}}-\d\d-\d\dT\d\d:\d\d:\d\dZ INFO: +sevens stopped cleanly on {name}: the requests in flight were answered",
        stopped[0],
    ), output
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output


@pytest.mark.skipif("postgresql" not in backends(), reason="needs PostgreSQL (SEVENS_TEST_POSTGRES_URL)")
def test_serve_says_where_its_database_is_without_a_password_given_in_the_query(tmp_path: Path) -> None:
    """libpq takes the password in the URL's query too (``?password=``): the line saying the
    server started showed everything after the ``@``, that password included, on the console and
    in the service's log."""
    from sqlalchemy import make_url

    from sevens.store.testing import throwaway_database

    with throwaway_database("postgresql", tmp_path) as url:
        port = _free_port()
        given = f"{url}?password=hunter2&application_name=sevens"
        process = _start_serve(tmp_path, port, ("--database-url", given), None)
        try:
            assert _until_home_page(process, port) is None
        finally:
            process.terminate()
            output = process.communicate(timeout=30)[0].decode()
    parsed = make_url(url)
    assert f"(database: {parsed.host}:{parsed.port}/{parsed.database})\n" in output, output
    assert "hunter2" not in output, output
