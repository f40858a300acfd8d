"""The operator's steps of docs/web.md ("Backups", "Upgrades") and docs/reliability.md run as
written, with the real commands: ``sevens serve`` in a folder of its own, ``sevens export --full``,
then ``sevens import`` on another machine (a fresh folder and another database: SQLite to
PostgreSQL, and back), and ``sevens serve`` there. Whatever a user sees must be the same after the
move, and the open turn's orders must stay secret in every export, page and log on the way."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.reliability.helpers import pg_available

from sevens.cli.serve import shown_database
from sevens.store.testing import throwaway_database

SECRET_FORCE, SECRET_FLAIR = 17, 12  # an order nobody else may see before turn 2 is resolved
SEVENS = [sys.executable, "-m", "sevens"]
pytestmark = pytest.mark.skipif(not pg_available(), reason="needs PostgreSQL (bash scripts/pg)")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SEVENS_") and k != "DATABASE_URL"}
    env.update({"SEVENS_SCHEDULER_SECONDS": "3600", "NO_COLOR": "1", "COLUMNS": "200"})
    env.update(extra)
    return env


def _sevens(*args: str, cwd: Path, env: dict[str, str], ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*SEVENS, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    if ok:
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _serve(cwd: Path, env: dict[str, str], log: Path) -> Iterator[httpx.Client]:
    """``sevens serve`` started in ``cwd``, as the docs start it, and stopped as systemd does (SIGTERM)."""
    port = _free_port()
    with log.open("a") as out:
        server = subprocess.Popen([*SEVENS, "serve", "--port", str(port)], cwd=cwd, env=env, stderr=out, stdout=out)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                httpx.get(f"{base}/api/v1/strategies", timeout=1)
                break
            except httpx.TransportError:
                assert server.poll() is None, log.read_text()
                time.sleep(0.1)
        with httpx.Client(base_url=base, timeout=30) as client:
            yield client
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0, log.read_text()


def _csrf(client: httpx.Client) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get("/").text)
    assert found
    return found.group(1)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _new_game(client: httpx.Client, name: str) -> dict[str, Any]:
    made = client.post("/api/v1/games", json={"name": name, "players": 4, "teams": 8, "teams_per_player": 2,
                                              "deadline_hours": 24})
    assert made.status_code == 201, made.text
    data: dict[str, Any] = made.json()
    return data


def _join(client: httpx.Client, invite: str, name: str) -> str:
    joined = client.post("/api/v1/join", json={"invite": invite, "name": name})
    assert joined.status_code == 200, joined.text
    return str(joined.json()["token"])


def _teams_of(client: httpx.Client, game: str, token: str) -> list[str]:
    me = client.get("/api/v1/me", headers=_bearer(token)).json()
    view = client.get(f"/api/v1/games/{game}", headers=_bearer(token)).json()
    return [t["id"] for t in view["teams"] if t.get("player") in {g.get("player") for g in me["grants"]}]


def _build(client: httpx.Client) -> dict[str, Any]:
    """Games in every state, and the credentials that open them."""
    world: dict[str, Any] = {}
    lobby = _new_game(client, "Lobby game")
    world["lobby"] = {"id": lobby["game"], "organiser": lobby["token"], "unused_invite": lobby["invites"]["p2"],
                      "bot": _join(client, lobby["invites"]["p1"], "Lobby Ann")}
    # A browser that joined a seat through the pages: its session cookie.
    browser = httpx.Client(base_url=str(client.base_url), timeout=30)
    running = _new_game(client, "Running game")
    gid = running["game"]
    joined = browser.post(f"/join/{running['invites']['p1']}", data={"name": "Browser Bea", "csrf": _csrf(browser)})
    assert joined.status_code in (200, 303), joined.text
    bots = {p: _join(client, running["invites"][p], f"Bot {p}") for p in ("p2", "p3", "p4")}
    assert client.post(f"/api/v1/games/{gid}/start", headers=_bearer(running["token"])).status_code == 200
    assert client.post(f"/api/v1/games/{gid}/resolve", json={"turn": 1},
                       headers=_bearer(running["token"])).status_code == 200
    # Turn 2: a ready order and a draft, both secret (R13) until the turn is resolved.
    view = client.get(f"/api/v1/games/{gid}", headers=_bearer(bots["p2"])).json()
    mine = [t["id"] for t in view["teams"] if t["manager"] == "Bot p2"]
    for team, ready in zip(mine, (True, False), strict=True):
        put = client.put(f"/api/v1/games/{gid}/orders/{team}", headers=_bearer(bots["p2"]),
                         json={"turn": 2, "force": SECRET_FORCE, "flair": SECRET_FLAIR, "ready": ready})
        assert put.status_code == 200, put.text
    world["running"] = {"id": gid, "organiser": running["token"], "bots": bots, "secret_teams": mine,
                        "organiser_link": running["organiser_link"],
                        "session": dict(browser.cookies)}
    browser.close()
    finished = _new_game(client, "Finished game")
    fid = finished["game"]
    fbots = {p: _join(client, finished["invites"][p], f"Fin {p}") for p in ("p1", "p2", "p3", "p4")}
    assert client.post(f"/api/v1/games/{fid}/start", headers=_bearer(finished["token"])).status_code == 200
    for turn in range(1, 20):
        resolved = client.post(f"/api/v1/games/{fid}/resolve", json={"turn": turn}, headers=_bearer(finished["token"]))
        assert resolved.status_code == 200, resolved.text
        if resolved.json()["status"] == "finished":
            break
    world["finished"] = {"id": fid, "organiser": finished["token"], "bot": fbots["p1"]}
    deleted = _new_game(client, "Deleted game")
    gone = client.delete(f"/api/v1/games/{deleted['game']}", headers=_bearer(deleted["token"]))
    assert gone.status_code == 204, gone.text
    world["deleted"] = {"id": deleted["game"], "organiser": deleted["token"]}
    return world



def _seen(text: str) -> str:
    """A page or answer as a user reads it, but for what differs between any two servers: the
    address it was served at, the moment it was served (and the time left to a deadline as of
    then), the forms' CSRF tokens and the order forms' seat marks (keyed with each server's own
    key, which a backup does not carry)."""
    text = re.sub(r"http://127\.0\.0\.1:\d+", "http://SERVER", text)
    text = re.sub(r'(id="as-of" datetime|data-now)="[^"]*"', r'\1="NOW"', text)
    text = re.sub(r'(id="as-of"[^>]*>)[^<]*<', r"\1NOW<", text)
    text = re.sub(r'"as_of": ?"[^"]*"', '"as_of": "NOW"', text)
    # The countdown the server writes beside a deadline: the time left as of the moment served.
    text = re.sub(r"\([^()<]* left as of \d\d:\d\d UTC\)", "(LEFT as of NOW UTC)", text)
    text = re.sub(r'name="seat" value="[^"]*"', 'name="seat" value="SEAT"', text)
    return re.sub(r'name="csrf" value="[^"]*"', 'name="csrf" value="CSRF"', text)


def _what_users_see(client: httpx.Client, world: dict[str, Any]) -> dict[str, tuple[int, str]]:
    """Every page and answer of every game, as a spectator, each player and each organiser."""
    seen: dict[str, tuple[int, str]] = {}
    for kind, game in world.items():
        g = game["id"]
        paths = [f"/games/{g}", f"/games/{g}?screen=1", f"/api/v1/games/{g}", f"/api/v1/games/{g}/state",
                 f"/games/{g}/record.json", f"/games/{g}/standing.csv", f"/games/{g}/matches.csv", f"/games/{g}/verify",
                 f"/api/v1/games/{g}/record"]
        tokens = {"spectator": None, "organiser": game["organiser"], **{p: t for p, t in game.get("bots", {}).items()}}
        for who, token in tokens.items():
            headers = _bearer(token) if token else {}
            for path in paths + ([f"/api/v1/games/{g}/orders", "/api/v1/me"] if token else []):
                answer = client.get(path, headers=headers)
                seen[f"{kind} {who} {path}"] = (answer.status_code, _seen(answer.text))
        if "session" in game:  # the browser that joined through the pages, by its cookie
            with httpx.Client(base_url=str(client.base_url), cookies=game["session"], timeout=30) as browser:
                for path in (f"/games/{g}/play", f"/games/{g}/who-ordered", f"/games/{g}"):
                    answer = browser.get(path)
                    seen[f"{kind} browser {path}"] = (answer.status_code, _seen(answer.text))
    return seen


def _secret_order_in(text: str) -> bool:
    """Whether a page, answer, export or log holds the open turn's saved order, as JSON or as the form shows it."""
    return bool(re.search(rf'"force": ?{SECRET_FORCE},\s*"flair": ?{SECRET_FLAIR}\b', text)
                or re.search(rf'name="force"[^>]*value="{SECRET_FORCE}"', text))


def test_a_full_backup_moves_from_sqlite_to_postgresql_and_back(tmp_path: Path) -> None:
    """web.md's "To another machine, or from SQLite to PostgreSQL", step by step with the real
    commands: the old server (SQLite, its default ./sevens.sqlite3) stopped, a full backup
    exported with its settings, imported on a new machine (another folder) into a PostgreSQL
    database the new server had already started on once, served there; then the same way back
    into SQLite. Every page, answer and credential is the same after each move, and the open
    turn resolves to the same record on both sides."""
    old, new, back = tmp_path / "old-machine", tmp_path / "new-machine", tmp_path / "back-again"
    for folder in (old, new, back):
        folder.mkdir()
    env_old = _env()  # the server's default database, ./sevens.sqlite3 in the folder it starts in
    logs = {name: tmp_path / f"{name}.log" for name in ("old", "new", "back")}
    with _serve(old, env_old, logs["old"]) as client:
        world = _build(client)
        before = _what_users_see(client, world)
    running = world["running"]
    mine = before[f"running p2 /api/v1/games/{running['id']}/orders"]
    assert mine[0] == 200 and _secret_order_in(mine[1])  # its manager sees the saved order...
    signed_in = before[f"running browser /games/{running['id']}/play"]
    assert signed_in[0] == 200 and "Browser Bea" in signed_in[1]
    others = {k: v for k, v in before.items() if not k.startswith("running p2 ")}
    assert not any(_secret_order_in(text) for _, text in others.values())  # ...and only they do (R13)

    backup = tmp_path / "move.json"
    exported = _sevens("export", "--full", str(backup), cwd=old, env=env_old)
    assert exported.stdout == f"exported 3 games as a full backup (mode 0600) to {backup}\n"
    assert backup.stat().st_mode & 0o777 == 0o600
    shareable = tmp_path / "share.json"
    _sevens("export", str(shareable), cwd=old, env=env_old)
    assert not _secret_order_in(shareable.read_text(encoding="utf-8"))
    assert world["deleted"]["id"] not in backup.read_text(encoding="utf-8")

    with throwaway_database("postgresql", tmp_path) as pg_url:
        env_new = _env(DATABASE_URL=pg_url)
        # The new server started once before the import (systemctl enable --now): still empty.
        with _serve(new, env_new, logs["new"]) as empty:
            assert empty.get(f"/games/{world['finished']['id']}").status_code == 404
        imported = _sevens("import", str(backup), cwd=new, env=env_new)
        first, second = imported.stdout.splitlines()
        assert first == f"imported 3 games (2 still open) and 12 credentials into {shown_database(pg_url)}"
        assert second.startswith("not in the backup: the rate limits' key and counts")
        again = _sevens("import", str(backup), cwd=new, env=env_new, ok=False)
        assert again.returncode == 2 and again.stderr == (
            "error: the database already holds every game of this backup (3 games and 12 credentials): it is the "
            "database the backup was made from, or the backup was imported into it already (by an import stopped "
            "after it was done?); there is nothing to do, unless you meant another database: name a new, empty database "
            "in --database-url (or $DATABASE_URL)\n"
        )
        with _serve(new, env_new, logs["new"]) as client:
            after = _what_users_see(client, world)
            assert after == _moved(before)
            # The organiser link signs a browser in on the new server; its pages keep the order secret too.
            with httpx.Client(base_url=str(client.base_url), timeout=30) as organiser:
                signed = organiser.post(f"/organiser/{running['organiser_link']}", data={"csrf": _csrf(organiser)})
                assert signed.status_code == 303, signed.text
                for path in (f"/games/{running['id']}/organise", f"/games/{running['id']}/links"):
                    page = organiser.get(path)
                    assert page.status_code == 200 and not _secret_order_in(page.text), (path, page.status_code)
                assert "Running game" in organiser.get(f"/games/{running['id']}/organise").text
            # An invite nobody used opens its seat on the new server, and the open turn resolves there.
            lobby = world["lobby"]
            assert client.post("/api/v1/join", json={"invite": lobby["unused_invite"], "name": "Late Lou"}).status_code == 200
            on_new = client.post(f"/api/v1/games/{running['id']}/resolve", json={"turn": 2},
                                 headers=_bearer(running["organiser"]))
            assert on_new.status_code == 200, on_new.text
            record_new = client.get(f"/games/{running['id']}/record.json").text
        with _serve(old, env_old, logs["old"]) as client:
            on_old = client.post(f"/api/v1/games/{running['id']}/resolve", json={"turn": 2},
                                 headers=_bearer(running["organiser"]))
            assert on_old.status_code == 200, on_old.text
            assert client.get(f"/games/{running['id']}/record.json").text == record_new
        assert _secret_order_in(record_new)  # resolved, the order is public in the record, as played

        # And back: PostgreSQL to SQLite, with the server's settings and the literal steps.
        home = tmp_path / "home.json"
        _sevens("export", "--full", str(home), cwd=new, env=env_new)
        env_back = _env(DATABASE_URL="sqlite:///games/sevens.sqlite3")
        (back / "games").mkdir()
        _sevens("import", str(home), cwd=back, env=env_back)
        again_home = tmp_path / "again.json"
        _sevens("export", "--full", str(again_home), cwd=back, env=env_back)
        first_doc = json.loads(home.read_text(encoding="utf-8"))
        second_doc = json.loads(again_home.read_text(encoding="utf-8"))
        assert {**first_doc, "exported_at": None} == {**second_doc, "exported_at": None}
        with _serve(back, env_back, logs["back"]) as client:
            record = client.get(f"/games/{world['finished']['id']}/record.json")
        finished = tmp_path / "finished.json"
        finished.write_text(record.text, encoding="utf-8")
        verified = _sevens("verify", str(finished), cwd=back, env=env_back)
        assert ": ok: 5 turns" in verified.stdout, verified.stdout

    for name, log in logs.items():
        text = log.read_text(encoding="utf-8")
        assert "Traceback" not in text, (name, text)
        assert not _secret_order_in(text)
        for game in world.values():
            for secret in (game["organiser"], *game.get("bots", {}).values(), *game.get("session", {}).values()):
                assert secret not in text, name


def _moved(seen: dict[str, tuple[int, str]]) -> dict[str, tuple[int, str]]:
    """What users see after a move: the same, the bot token of the game deleted before the export
    included: a full backup carries its marker (its hash and when), so the new server tells it
    that its game was deleted, as the old one did, and it opens nothing there either."""
    dead = {key for key, (status, text) in seen.items() if status == 401 and "was deleted" in text}
    assert dead and all(key.startswith("deleted organiser ") for key in dead), dead
    return seen


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_import_killed_midway_can_be_run_again(tmp_path: Path, backend: str) -> None:
    """A restore the machine stopped midway (SIGKILL: no handler runs, nothing is tidied) leaves a
    database the same command imports into when run again: nothing half imported is left behind."""
    source = tmp_path / "source"
    source.mkdir()
    with _serve(source, _env(), tmp_path / "source.log") as client:
        _build(client)
    backup = tmp_path / "full.json"
    _sevens("export", "--full", str(backup), cwd=source, env=_env())
    with throwaway_database(backend, tmp_path) as url:
        env = _env(DATABASE_URL=url)
        killed = 0
        # Growing delays, then one run let finish (the machine may be slow: the delays are no promise).
        for delay in (0.3, 0.6, 0.9, 1.2, 1.5, 1.8, 2.1, 2.5, 3.0, 4.0, 120.0):
            started = subprocess.Popen([*SEVENS, "import", str(backup)], cwd=tmp_path, env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                started.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                started.kill()
                started.communicate()
                killed += 1
                continue
            out, err = started.communicate()
            if started.returncode == 2:  # the kill came after the commit: the run again says so
                assert killed and err.startswith("error: the database already holds every game of this backup"), err
                out = "imported 3 games (2 still open) and 12 credentials, before"
            else:
                assert started.returncode == 0, err
            break
        else:
            pytest.fail("the import never finished")
        assert killed >= 1  # at least one stop midway, before the one that went through
        assert out.startswith("imported 3 games (2 still open) and 12 credentials"), out
        restored = tmp_path / "restored.json"
        _sevens("export", "--full", str(restored), cwd=tmp_path, env=env)
        first, second = (json.loads(p.read_text(encoding="utf-8")) for p in (backup, restored))
        assert {**first, "exported_at": None} == {**second, "exported_at": None}
