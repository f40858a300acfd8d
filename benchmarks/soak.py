"""Soak: one real ``sevens serve`` kept busy with many games for minutes or hours, sampled as it goes.

    .venv/bin/python benchmarks/soak.py                        # SQLite, 3 minutes
    .venv/bin/python benchmarks/soak.py --minutes 15           # longer
    .venv/bin/python benchmarks/soak.py --browsers 2 --rematches 0.5   # with browsers and rematches
    bash scripts/pg .venv/bin/python benchmarks/soak.py --database-url '$DATABASE_URL'   # PostgreSQL
    .venv/bin/python benchmarks/soak.py --database-url postgresql+psycopg://u@host/db      # an existing one
    .venv/bin/python benchmarks/soak.py --minutes 60 --trace-memory /tmp/traces   # what the server's memory holds

The server is started as ``sevens serve`` starts it (one worker, its odds process started by the first
odds request), on a free port of 127.0.0.1, on a new SQLite file in a temporary folder unless
``--database-url`` names a database (``$DATABASE_URL`` as the word is read from the environment, as
``scripts/pg`` sets it). The per-hour limits on new games and credentials are turned off: the clients
make far more than a person would.

Clients, each a thread with its own keep-alive connection, as real ones would:

- ``--players`` player clients (4): each creates a 4-player, 8-team game, takes three or four of its
  seats through the API (a bot plays any other), starts it and plays it turn by turn: for each of its
  teams still in play (its view says) it asks the odds of a draft half the time (GET, now and then
  POST), then sends a ready order. One game in five has a one-minute deadline, and in one of its first three turns one seat's
  orders are left unsent, so the scheduler resolves that turn; one in ten is ended by its organiser midway, one in ten deleted
  midway and one in ten abandoned (left running, never touched again). A finished game has its record,
  Verify page and standing read, and one in four is deleted after. Then the next game.
- ``--browsers`` browser clients (0): each a headless Chromium (Debian's, /usr/bin/chromium) playing
  one seat of a 4-player game it creates through the API, taken at its invite page; two more seats are
  taken through the API and a bot plays the fourth. Each turn it loads the /play page, types a draft
  for each of its teams key by key, waits for the page's own odds of it, looks a moment and sends it
  ready; then the page is left open to follow the game to the next turn by itself.
- ``--rematches`` (0): the share of games over (finished, or ended by the organiser) that their client
  follows with a rematch through the API, played as the first was; a rematch's rematch too.
- one spectator: polls the ``/state`` of recent games with ``If-None-Match``, and reads the front page
  and a game's page.

Every ``--every`` seconds (30) one line: the server's resident memory and its odds process's (all its
children: a second child, or a zombie, would be an odds process not reaped), open file descriptors,
threads, database connections (SQLite: descriptors open on the database file; PostgreSQL: sessions in
``pg_stat_activity`` but this script's own), the database's size (SQLite with its WAL), the server log's
size, the median and 95th percentile of a game page (``GET /games/{id}``) and of an order (``PUT
.../orders/{team}``) in that interval, and a browser's (its /play page loaded whole, its odds shown
after the last key of a draft), games finished in all, and errors (a 5xx, or an answer the client
did not expect; the first few are printed). At the end, the first and last samples side by side, and
the counts, errors among them by kind (a status, no answer, a browser's odds late, ...).

With ``--trace-memory DIR`` the server runs under tracemalloc (``SEVENS_TRACE_MEMORY_DIR``, see
``sevens.web.memory_trace``) and writes a snapshot to DIR every ``--trace-every`` minutes (10); at the
end the sites that grew most between the first and the last are printed, and
``benchmarks/memory_growth.py DIR --since M`` compares others. Tracing slows the server several times
over and its memory grows by the tracer's own record at each snapshot: its resident figures are not
those of a server run without it; the traced totals are what to read.

Load is moderate on purpose (each client pauses ``--pause`` seconds, 0.05, between requests): on 2
cores it leaves room for other work. Everything stops by itself: the server is stopped by SIGTERM and
killed if it lingers; the temporary folder is removed.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from sevens.web import memory_trace
from sevens.web.testing import (
    CHROMIUM,
    CHROMIUM_ARGS,
    child_pids,
    free_port,
    percentile,
    proc_status,
    resident_mb,
    wait_until_up,
)

HOST = "127.0.0.1"
SHOWN_ERRORS = 5






def _fds(pid: int) -> list[str]:
    targets = []
    with suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with suppress(OSError):
                targets.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
    return targets


@dataclass
class Tally:
    """What the clients did, shared between their threads (under ``lock``)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    page: list[float] = field(default_factory=list)  # this interval's game-page latencies
    order: list[float] = field(default_factory=list)  # and orders'
    play: list[float] = field(default_factory=list)  # a browser's /play page, loaded whole
    odds: list[float] = field(default_factory=list)  # a browser's odds shown, from the last key typed
    counts: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    recent: list[str] = field(default_factory=list)  # games for the spectator

    def count(self, what: str, n: int = 1) -> None:
        with self.lock:
            self.counts[what] = self.counts.get(what, 0) + n

    def error(self, what: str, kind: str = "answer") -> None:
        """An error, counted in all and by ``kind`` (only the first few are printed whole)."""
        with self.lock:
            self.counts["errors"] = self.counts.get("errors", 0) + 1
            self.counts[f"errors of {kind}"] = self.counts.get(f"errors of {kind}", 0) + 1
            if len(self.errors) < SHOWN_ERRORS:
                self.errors.append(what)
                print(f"  error: {what}", flush=True)


class Client:
    """One thread's connection; every answer is checked against what it should be."""

    def __init__(self, url: str, tally: Tally, pause: float) -> None:
        self.http = httpx.Client(base_url=url, timeout=60)
        self.tally = tally
        self.pause = pause

    def call(self, method: str, path: str, *, expect: tuple[int, ...] = (200,), timing: str | None = None,
             **kwargs: Any) -> httpx.Response | None:
        time.sleep(self.pause)
        began = time.perf_counter()
        try:
            answer = self.http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            self.tally.error(f"{method} {path}: {exc!r}", "no answer")
            return None
        took = time.perf_counter() - began
        if answer.status_code not in expect:
            self.tally.error(f"{method} {path}: {answer.status_code} {answer.text[:200]}", f"status {answer.status_code}")
            return None
        if timing is not None:
            with self.tally.lock:
                getattr(self.tally, timing).append(took)
        return answer


def _player(url: str, tally: Tally, pause: float, seed: int, stop: threading.Event, rematches: float) -> None:
    rng = random.Random(seed)
    client = Client(url, tally, pause)
    while not stop.is_set():
        game = _new_game(client, rng)
        # A game over is followed by its rematch this often, played by the same client.
        while game is not None and _one_game(client, rng, stop, game) and rng.random() < rematches:
            game = _rematch(client, game)


@dataclass
class Game:
    """A game as its organiser holds it: its id, the organiser's token, and the seats' invites."""

    id: str
    organiser: dict[str, str]
    invites: dict[str, str]
    deadline: bool


def _new_game(client: Client, rng: random.Random, *, deadline: bool | None = None) -> Game | None:
    if deadline is None:
        deadline = rng.random() < 0.2
    created = client.call("POST", "/api/v1/games", expect=(201,), json={
        "name": f"Soak {rng.randrange(10**6)}", "players": 4, "teams": 8, "teams_per_player": 2,
        "deadline_hours": 1 / 60 if deadline else None,
    })
    if created is None:
        time.sleep(1)
        return None
    data = created.json()
    client.tally.count("games created")
    return Game(data["game"], {"Authorization": f"Bearer {data['token']}"}, data["invites"], deadline)


def _rematch(client: Client, game: Game) -> Game | None:
    """The game's rematch, organised by the same token (it took no seat, so every seat is open)."""
    answer = client.call("POST", f"/api/v1/games/{game.id}/rematch", expect=(201,), headers=game.organiser)
    if answer is None:
        return None
    data = answer.json()
    client.tally.count("rematches")
    return Game(data["game"], game.organiser, data["invites"], game.deadline)


def _one_game(client: Client, rng: random.Random, stop: threading.Event, game_: Game) -> bool:
    """Play the game as its fate says; True if it ended over (finished, or ended by its organiser)."""
    tally = client.tally
    game, organiser, deadline = game_.id, game_.organiser, game_.deadline
    fate = rng.choices(["finish", "end", "delete", "abandon"], weights=[7, 1, 1, 1])[0]
    seats: dict[str, dict[str, str]] = {}
    invites = sorted(game_.invites.items())
    for pid, invite in invites[: rng.choice((3, 4))]:
        joined = client.call("POST", "/api/v1/join", json={"invite": invite, "name": f"Soaker {pid}"})
        if joined is None:
            return False
        seats[pid] = {"Authorization": f"Bearer {joined.json()['token']}"}
    if client.call("POST", f"/api/v1/games/{game}/start", headers=organiser) is None:
        return False
    teams: dict[str, dict[str, str]] = {}
    for headers in seats.values():
        view = client.call("GET", f"/api/v1/games/{game}", headers=headers)
        if view is None:
            return False
        teams.update({t["team"]: headers for t in view.json()["my_teams"]})
    with tally.lock:
        tally.recent = [*tally.recent[-15:], game]
    stop_at = rng.randint(1, 3) if fate != "finish" else None
    # In a game with a deadline one seat sends nothing in one turn: the scheduler resolves it.
    missing = rng.choice(list(seats)) if deadline else None
    missing_turn = rng.randint(1, 3)
    for _ in range(12):
        if stop.is_set():
            return False
        state = client.call("GET", f"/api/v1/games/{game}/state", headers=organiser)
        if state is None:
            return False
        turn = state.json()["turn"]
        if state.json()["status"] != "running":
            break
        if stop_at is not None and turn >= stop_at:
            if fate == "end":
                ended = client.call("POST", f"/api/v1/games/{game}/end", headers=organiser)
                tally.count("games ended")
                return ended is not None
            if fate == "delete":
                client.call("DELETE", f"/api/v1/games/{game}", expect=(204,), headers=organiser)
                tally.count("games deleted")
            else:
                tally.count("games abandoned")
            return False
        client.call("GET", f"/games/{game}", timing="page")
        for team, headers in sorted(teams.items()):
            if missing is not None and turn == missing_turn and headers is seats[missing]:
                continue
            _api_order(client, rng, game, team, headers, turn)
        if missing is not None and turn == missing_turn:
            # The deadline resolves the turn: poll as a client would until it has.
            for _ in range(90):
                if stop.wait(1.0):
                    return False
                now = client.call("GET", f"/api/v1/games/{game}/state", headers=organiser)
                if now is None or now.json()["turn"] != turn:
                    break
    over = client.call("GET", f"/api/v1/games/{game}/state", headers=organiser)
    if over is None or over.json()["status"] != "finished":
        if over is not None:
            tally.error(f"game {game} not finished after its turns: {over.json()}", "unfinished game")
        return False
    tally.count("games finished")
    client.call("GET", f"/api/v1/games/{game}/record")
    client.call("GET", f"/games/{game}/verify")
    client.call("GET", f"/api/v1/games/{game}/standing.csv")
    if rng.random() < 0.25:
        client.call("DELETE", f"/api/v1/games/{game}", expect=(204,), headers=organiser)
        tally.count("games deleted")
        return False
    return True


def _api_order(client: Client, rng: random.Random, game: str, team: str, headers: dict[str, str], turn: int) -> None:
    """A seat's order for one team through the API: its view, the odds of a draft half the time, a ready order."""
    tally = client.tally
    path = f"/api/v1/games/{game}/teams/{team}"
    # 409: the game finished meanwhile (this team is out, the final played).
    view = client.call("GET", f"{path}/view", headers=headers, expect=(200, 409))
    if view is None or view.status_code == 409 or not view.json()["team"]["in_play"]:
        return
    force, flair = rng.randint(0, 12), rng.choice((0, 3, 6))
    if rng.random() < 0.5:
        client.call("GET", f"{path}/odds", headers=headers, params={"force": force, "flair": flair},
                    expect=(200, 409))
        tally.count("odds asked")
    elif rng.random() < 0.2:
        client.call("POST", f"{path}/odds", headers=headers, json={"force": force, "flair": flair},
                    expect=(200, 409))
        tally.count("odds asked")
    body = {"turn": turn, "force": force, "flair": flair, "ready": True}
    # 409: the turn was resolved meanwhile (its deadline passed); the loop reads the state again.
    if client.call("PUT", f"/api/v1/games/{game}/orders/{team}", headers=headers, json=body,
                   expect=(200, 409), timing="order"):
        tally.count("orders")


def _spectator(url: str, tally: Tally, pause: float, stop: threading.Event) -> None:
    client = Client(url, tally, pause)
    tags: dict[str, str] = {}
    rng = random.Random(99)
    while not stop.wait(0.3):
        with tally.lock:
            recent = list(tally.recent)
        if not recent:
            continue
        game = rng.choice(recent)
        headers = {"If-None-Match": tags[game]} if game in tags else {}
        # 404: deleted by its organiser since.
        answer = client.call("GET", f"/api/v1/games/{game}/state", headers=headers, expect=(200, 304, 404))
        if answer is not None and answer.status_code == 200:
            tags[game] = answer.headers.get("ETag", "")
        tally.count("polls")
        if rng.random() < 0.2:
            client.call("GET", "/")
        if rng.random() < 0.2:
            client.call("GET", f"/games/{game}", expect=(200, 404))
        if len(tags) > 200:
            tags.clear()


# How long the browser waits for anything it expects of the page: a load, the odds of a draft, the
# page following the game to its next turn (it polls every 5 s). Playwright's expect() does not
# take the page's default timeout: left alone, it gives up after 5 s, one poll, so a page that
# followed the game a moment after its first poll on a loaded machine was counted as an error.
BROWSER_WAIT_MS = 60000


def _browser(url: str, tally: Tally, pause: float, seed: int, stop: threading.Event, rematches: float) -> None:
    """A person at a browser: one seat of a game, taken at its invite, played on the /play page."""
    from playwright.sync_api import Error, sync_playwright

    rng = random.Random(seed)
    client = Client(url, tally, pause)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            while not stop.is_set():
                game = _new_game(client, rng, deadline=False)
                while game is not None and not stop.is_set():
                    # A browser of its own for each game, as a person opening an invite would.
                    context = browser.new_context(viewport={"width": 1000, "height": 900})
                    try:
                        page = context.new_page()
                        # A page load given up before it came (net::ERR_ABORTED): one the page's own
                        # reload, or another load, cut short; a page that follows the game should
                        # leave its reload to finish, so these stay few under load.
                        page.on("requestfailed", lambda request: tally.count("browser page loads cut short")
                                if request.resource_type == "document" else None)
                        over = _browser_game(client, page, rng, stop, game)
                    except (Error, AssertionError) as exc:
                        if stop.is_set():  # cut short by the end of the run, not a fault
                            return
                        # Playwright's first line says what was awaited, its "Actual value" what came.
                        said = [line.strip() for line in str(exc).splitlines()]
                        actual = next((line for line in said if line.startswith("Actual value")), "")
                        tally.error(f"browser, game {game.id}: {said[0][:200]} {actual[:300]} {_page_state(page)}", "browser")
                        over = False
                        stop.wait(5)  # not at once into the next game, were every one to fail
                    finally:
                        context.close()
                    game = _rematch(client, game) if over and rng.random() < rematches else None
        finally:
            browser.close()


def _page_state(page: Any) -> str:
    """Where a browser's page stood when it failed: its address, turn, note and focus."""
    try:
        main = page.evaluate("""async () => { const m = document.querySelector('main[data-live]');
            if (!m) { return 'no main[data-live]'; }
            const r = await fetch(m.dataset.live, {cache: 'no-store'});
            return {version: m.dataset.version, live: await r.text(), time: r.headers.get('Sevens-Server-Time'),
                    now: new Date().toISOString()}; }""")
        return str(main) + " " + str(page.evaluate("""() => ({url: location.href, turn: (document.getElementById('turn') || {}).textContent,
            note: (document.getElementById('live-note') || {}).textContent, hidden: document.hidden,
            focus: document.activeElement && (document.activeElement.id || document.activeElement.tagName),
            trouble: (document.querySelector('.poll-trouble') || {}).textContent})"""))
    except Exception as exc:  # the page may be gone
        return f"(page unreadable: {exc})"


def _browser_game(client: Client, page: Any, rng: random.Random, stop: threading.Event, game: Game) -> bool:
    """Seat p1 in the browser, p2 and p3 through the API, p4 left to a bot. Each turn the player
    loads /play, types a draft for each team, waits for the page's odds of it, then sends it ready;
    the API seats order, and the page is left to follow the game to the next turn. True once over."""
    from playwright.sync_api import expect

    tally = client.tally
    url = str(client.http.base_url).rstrip("/")
    page.set_default_timeout(BROWSER_WAIT_MS)
    expect.set_options(timeout=BROWSER_WAIT_MS)  # expect() keeps a timeout of its own
    page.goto(f"{url}/join/{game.invites['p1']}")
    page.fill("input[name=name]", "Browser soaker")
    page.click("#join button[type=submit]")
    page.wait_for_url(f"**/games/{game.id}/play")
    seats = []
    for pid in ("p2", "p3"):
        joined = client.call("POST", "/api/v1/join", json={"invite": game.invites[pid], "name": f"Soaker {pid}"})
        if joined is None:
            return False
        seats.append({"Authorization": f"Bearer {joined.json()['token']}"})
    if client.call("POST", f"/api/v1/games/{game.id}/start", headers=game.organiser) is None:
        return False
    teams: dict[str, dict[str, str]] = {}
    for headers in seats:
        view = client.call("GET", f"/api/v1/games/{game.id}", headers=headers)
        if view is None:
            return False
        teams.update({t["team"]: headers for t in view.json()["my_teams"]})
    with tally.lock:
        tally.recent = [*tally.recent[-15:], game.id]
    for _ in range(8):
        if stop.is_set():
            return False
        state = client.call("GET", f"/api/v1/games/{game.id}/state", headers=game.organiser)
        if state is None:
            return False
        turn, status = state.json()["turn"], state.json()["status"]
        if status != "running":
            break
        began = time.perf_counter()
        page.goto(f"{url}/games/{game.id}/play")
        with tally.lock:
            tally.play.append(time.perf_counter() - began)
        forms = page.locator("form.order-form")
        for i in range(forms.count()):
            form = forms.nth(i)
            team = form.get_attribute("data-team")
            scrum = int(page.locator(f"#team-{team} .scrum").inner_text())
            force = rng.randint(0, min(12, scrum))
            flair = rng.choice([f for f in (0, 3, 6) if force + f <= scrum])
            # Typed key by key, as a person does: the page asks the odds of each draft it sees.
            for name, value in (("force", force), ("flair", flair)):
                box = form.locator(f"input[name={name}]")
                box.fill("")
                box.press_sequentially(str(value), delay=80)
            began = time.perf_counter()
            shown = form.locator("output.odds")
            try:
                expect(shown).to_contain_text(f"Your order {force}+{flair}: expected")
            except AssertionError:
                # A person would wait no longer and send the order without its odds: an error,
                # with what the page said instead, and the game goes on.
                tally.error(f"browser, game {game.id}, turn {turn}: no odds of {force}+{flair} in "
                            f"{BROWSER_WAIT_MS // 1000} s; "
                            f"the page said {shown.inner_text()[:200]!r}", "browser odds late")
            else:
                with tally.lock:
                    tally.odds.append(time.perf_counter() - began)
                tally.count("browser odds seen")
            page.wait_for_timeout(rng.randint(500, 3000))  # a look at the odds before sending
            name = form.get_attribute("data-name")
            # Sending is a page load: the next form is typed into once it is in, not into the page
            # going (whose note of the last order already said "ready"), which the load wipes.
            with page.expect_navigation():
                form.locator("button[value=ready]").click()
            expect(page.locator("#message")).to_contain_text(f"Order for {name} ready (turn {turn})")
            tally.count("browser orders")
        for team, headers in sorted(teams.items()):
            _api_order(client, rng, game.id, team, headers, turn)
        now = state.json()
        for _ in range(60):  # the last order resolves the turn at once; a bot's may come a moment later
            if stop.is_set():
                return False
            answer = client.call("GET", f"/api/v1/games/{game.id}/state", headers=game.organiser)
            if answer is None:
                return False
            now = answer.json()
            if now["turn"] != turn or now["status"] != "running":
                break
            time.sleep(1)
        # The open page follows the game by itself: it shows the next turn, or the champion. Or,
        # where the reader is busy in it (the focus in the page, as on the note of the order just
        # sent), it stays put and offers a reload, which a person takes.
        if now["status"] == "running":
            shown = page.locator("#turn", has_text=f"{now['turn']} of ")
        else:
            shown = page.locator("#champion")
        offered = page.locator("#live-note button")
        expect(shown.or_(offered).first).to_be_visible()
        if not shown.is_visible():
            tally.count("browser reloads offered")
            with page.expect_navigation():
                offered.click()
            expect(shown).to_be_visible()
    over = client.call("GET", f"/api/v1/games/{game.id}/state", headers=game.organiser)
    if over is None or over.json()["status"] != "finished":
        if over is not None and not stop.is_set():
            tally.error(f"browser game {game.id} not finished after its turns: {over.json()}", "unfinished game")
        return False
    tally.count("games finished")
    tally.count("browser games finished")
    page.goto(f"{url}/games/{game.id}/verify")
    return True


class Database:
    """Connections and size, SQLite's from the file and the server's descriptors, PostgreSQL's by asking."""

    def __init__(self, url: str, sqlite_file: Path | None) -> None:
        self.sqlite_file = sqlite_file
        self.engine = None
        if sqlite_file is None:
            from sqlalchemy import create_engine
            from sqlalchemy.pool import NullPool

            from sevens.store.db import normalise_url

            self.engine = create_engine(normalise_url(url), poolclass=NullPool)

    def sample(self, server_pid: int, fds: list[str]) -> tuple[int, float]:
        if self.sqlite_file is not None:
            name = str(self.sqlite_file)
            size = sum(p.stat().st_size for p in self.sqlite_file.parent.glob(self.sqlite_file.name + "*"))
            return sum(1 for target in fds if target == name), size / 1e6
        from sqlalchemy import text

        assert self.engine is not None
        with self.engine.connect() as db:
            sessions = db.execute(text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )).scalar_one()
            size = db.execute(text("SELECT pg_database_size(current_database())")).scalar_one()
        return int(sessions), int(size) / 1e6


@contextmanager
def _server(url: str, directory: Path, odds_idle: float | None,
            trace: tuple[Path, float] | None = None,
            launcher: list[str] | None = None) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """A real ``sevens serve``, started by ``launcher`` (a command its arguments follow) if given."""
    port = free_port()
    env = dict(os.environ, SEVENS_GAMES_PER_HOUR="0", SEVENS_CREDENTIALS_PER_HOUR="0")
    if odds_idle is not None:
        env["SEVENS_ODDS_IDLE_MINUTES"] = str(odds_idle)
    if trace is not None:  # the server's memory traced, a snapshot every so many minutes (sevens.web.memory_trace)
        env[memory_trace.DIR_VARIABLE], env[memory_trace.MINUTES_VARIABLE] = str(trace[0]), str(trace[1])
    log_path = directory / "server.log"
    log = log_path.open("wb")
    process = subprocess.Popen(
        [*(launcher or [sys.executable, "-m", "sevens"]), "serve", "--port", str(port), "--database-url", url],
        stdout=log, stderr=subprocess.STDOUT, env=env,
    )
    try:
        # Traced, every import and the migrations go several times slower: on a loaded machine, minutes.
        wait_until_up(port, pid=process.pid, timeout=60 if trace is None else 300)
        yield f"http://{HOST}:{port}", process, log_path
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


COLUMNS = ("min", "server MB", "odds MB", "children", "fds", "threads", "db conns", "db MB", "log KB",
           "page p50", "page p95", "order p50", "order p95", "play p50", "play p95", "odds p50", "odds p95",
           "finished", "errors")


def _row(values: list[str]) -> str:
    return " ".join(f"{v:>9}" for v in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=3.0, help="how long to play (3)")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between samples (30)")
    parser.add_argument("--players", type=int, default=4, help="player clients, each playing one game at a time (4)")
    parser.add_argument("--browsers", type=int, default=0,
                        help="browser clients, each a headless Chromium playing one seat of a game at a time (0)")
    parser.add_argument("--rematches", type=float, default=0.0,
                        help="the share of games over that their client follows with a rematch, 0 to 1 (0)")
    parser.add_argument("--pause", type=float, default=0.05, help="seconds each client waits between requests")
    parser.add_argument("--database-url", default=None,
                        help="a database for the server (it must hold no other application's tables); "
                             "default: a new SQLite file; '$DATABASE_URL': the environment's")
    parser.add_argument("--trace-memory", type=Path, default=None, metavar="DIR",
                        help="trace the server's memory (tracemalloc, which slows it and takes memory of its own) and "
                             "keep snapshots in DIR; at the end the sites that grew most are printed "
                             "(benchmarks/memory_growth.py DIR compares any two)")
    parser.add_argument("--trace-every", type=float, default=10.0, help="minutes between snapshots (10)")
    parser.add_argument("--odds-idle-minutes", type=float, default=None,
                        help="SEVENS_ODDS_IDLE_MINUTES for the server (default: the server's own, 10)")
    args = parser.parse_args()
    # Stopped by SIGTERM, it stops the server and removes its folder as at the end.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.minutes <= 0 or args.every <= 0 or args.players < 1 or args.pause < 0 or args.browsers < 0:
        parser.error("--minutes and --every must be above 0, --players at least 1, --browsers and --pause at least 0")
    if args.trace_every <= 0:
        parser.error(f"--trace-every is minutes between snapshots, above 0; got {args.trace_every:g}")
    if not 0 <= args.rematches <= 1:
        parser.error(f"--rematches is a share of games, from 0 to 1; got {args.rematches:g}")
    url = args.database_url
    if url == "$DATABASE_URL":
        url = os.environ.get("DATABASE_URL")
        if not url:
            parser.error("--database-url '$DATABASE_URL' but DATABASE_URL is not set: run under scripts/pg")
    with tempfile.TemporaryDirectory(prefix="sevens-soak-") as temp:
        sqlite_file = None
        if url is None:
            sqlite_file = Path(temp) / "sevens.sqlite3"
            url = f"sqlite:///{sqlite_file}"
        database = Database(url, sqlite_file)
        tally = Tally()
        stop = threading.Event()
        trace = None if args.trace_memory is None else (args.trace_memory.resolve(), args.trace_every)
        with _server(url, Path(temp), args.odds_idle_minutes, trace) as (base, server, log_path):
            print(f"soak: {args.players} players, {args.browsers} browsers and a spectator for {args.minutes:g} minutes on "
                  f"{'SQLite' if sqlite_file else 'PostgreSQL'}; server pid {server.pid}", flush=True)
            threads = [threading.Thread(target=_player, args=(base, tally, args.pause, i, stop, args.rematches),
                                        daemon=True) for i in range(args.players)]
            threads += [threading.Thread(target=_browser, args=(base, tally, args.pause, 1000 + i, stop, args.rematches),
                                         daemon=True) for i in range(args.browsers)]
            threads.append(threading.Thread(target=_spectator, args=(base, tally, args.pause, stop), daemon=True))
            for thread in threads:
                thread.start()
            print(_row(list(COLUMNS)), flush=True)
            samples: list[list[str]] = []
            began = time.monotonic()
            end = began + args.minutes * 60
            while True:
                if server.poll() is not None:
                    tally.error(f"the server exited with {server.returncode}", "server exit")
                    break
                fds = _fds(server.pid)
                children = child_pids(server.pid)
                zombies = sum(1 for c in children if proc_status(c, "State").startswith("Z"))
                connections, size = database.sample(server.pid, fds)
                with tally.lock:
                    pages, orders, plays, odds = tally.page, tally.order, tally.play, tally.odds
                    tally.page, tally.order, tally.play, tally.odds = [], [], [], []
                    finished, errors = tally.counts.get("games finished", 0), tally.counts.get("errors", 0)
                values = [
                    f"{(time.monotonic() - began) / 60:.1f}", f"{resident_mb(server.pid):.0f}",
                    f"{sum(resident_mb(c) for c in children):.0f}", f"{len(children)}{'z' * zombies}",
                    str(len(fds)), proc_status(server.pid, "Threads"), str(connections), f"{size:.1f}",
                    f"{log_path.stat().st_size / 1024:.0f}",
                    *_latencies(pages), *_latencies(orders), *_latencies(plays), *_latencies(odds), str(finished), str(errors),
                ]
                samples.append(values)
                print(_row(values), flush=True)
                if time.monotonic() >= end:
                    break
                time.sleep(min(args.every, max(0.0, end - time.monotonic())))
            stop.set()
            for thread in threads:
                thread.join(timeout=120)
            log_tail = log_path.read_text(errors="replace").splitlines()[-5:]
    print()
    print("first and last samples:")
    print(_row(list(COLUMNS)))
    print(_row(samples[0]))
    print(_row(samples[-1]))
    print("done: " + ", ".join(f"{v} {k}" for k, v in sorted(tally.counts.items())))
    if args.trace_memory is not None:
        _print_growth(args.trace_memory)
    if tally.counts.get("errors"):
        # Again at the end, where a caller keeping only the output's tail (the tests) reads them.
        print("the first errors:", *tally.errors, sep="\n  ")
        print("last lines of the server's log:", *log_tail, sep="\n  ")
        sys.exit(1)


def _print_growth(directory: Path) -> None:
    """The sites that grew most between the first snapshot and the last (after the samples, before any errors)."""
    import tracemalloc

    from memory_growth import growth, snapshots  # beside this script

    found = snapshots(directory)
    if len(found) < 2:
        print(f"memory traced: {len(found)} snapshot in {directory}, too few to compare; run longer or with a "
              "smaller --trace-every")
        return
    first, last = min(found), max(found)
    print(f"memory traced, the sites that grew most from minute {first:g} to {last:g} "
          f"(benchmarks/memory_growth.py {directory} --since M compares others):")
    print(*growth(*(tracemalloc.Snapshot.load(str(found[m])) for m in (first, last)), "lineno", 10), sep="\n")


def _latencies(values: list[float]) -> list[str]:
    if not values:
        return ["-", "-"]
    return [f"{percentile(values, 0.5) * 1000:.1f}", f"{percentile(values, 0.95) * 1000:.1f}"]


if __name__ == "__main__":
    main()
