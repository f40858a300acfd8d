"""Helpers for the reliability tests: games played through the JSON API of real servers, and checks
of the database that hold whatever happened to the servers."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from sevens.store.db import make_engine, make_sessionmaker, run_migrations
from sevens.store.games import lock_game
from sevens.store.models import EventRow, GameRow, OrderLogRow, OrderRow, TeamRow, TurnRow
from sevens.store.testing import backends, throwaway_database
from sevens.tournament.record import dumps, from_record, to_record
from sevens.web.testing import Server, ServerFarm, wait_until_up

__all__ = [
    "BACKENDS",
    "ApiGame",
    "Cluster",
    "check_game",
    "cluster",
    "database",
    "open_turn_orders",
    "pg_available",
    "record_orders",
    "server_env",
    "together",
]


def pg_available() -> bool:
    return "postgresql" in backends()


BACKENDS = ["sqlite"] + (["postgresql"] if pg_available() else [])
"""The databases to race on: SQLite (the docs let several servers share one file), and PostgreSQL
under scripts/pg."""


@contextmanager
def database(backend: str, directory: Path) -> Iterator[tuple[str, Engine]]:
    """An empty, migrated database of the given kind and an engine on it."""
    with throwaway_database(backend, directory) as url:
        engine = make_engine(url)
        run_migrations(engine)
        try:
            yield url, engine
        finally:
            engine.dispose()


def server_env(url: str, **settings: object) -> dict[str, str]:
    env = {"DATABASE_URL": url, "SEVENS_SCHEDULER_SECONDS": "3600"}
    env.update({f"SEVENS_{k.upper()}": str(v) for k, v in settings.items()})
    return env


@dataclass(frozen=True)
class Cluster:
    """Real servers on one database: its URL, an engine of the test's own on it, the servers, and
    one HTTP client per server (``clients[i]`` talks to ``servers[i]``)."""

    backend: str
    url: str
    engine: Engine
    servers: list[Server]
    clients: list[httpx.Client]
    _farm: ServerFarm
    _env: dict[str, str]
    _stack: ExitStack

    def client(self, index: int, **options: object) -> httpx.Client:
        """A new client of server ``index`` (a browser of its own: its own cookies), closed with
        the cluster; ``options`` go to :class:`httpx.Client` (``follow_redirects``, ``timeout``)."""
        made = httpx.Client(base_url=self.servers[index].url, **{"timeout": 30, **options})  # type: ignore[arg-type]
        return self._stack.enter_context(made)

    def start(self, count: int = 1) -> list[Server]:
        """``count`` more servers on the database (after some were killed: a restart), with the
        cluster's settings, answering when this returns, and a client each; killed with the rest."""
        first = len(self.servers)
        # Started together, then waited for: a fork each, so N servers take about as long as one.
        self.servers.extend(self._farm.start(self._env, wait=False) for _ in range(count))
        for i in range(first, len(self.servers)):
            server = self.servers[i]
            try:
                wait_until_up(server.port, pid=server.pid)
            except TimeoutError as exc:
                raise AssertionError(
                    f"server {i + 1} of {len(self.servers)} on {self.backend} did not start: {exc}\n"
                    f"{_log_tail(i, server, len(self.servers))}"
                ) from None
            self.clients.append(self.client(i))
        return self.servers[first:]

    def logs(self) -> str:
        """The last lines each server logged, headed by which server it is."""
        return "\n".join(_log_tail(i, s, len(self.servers)) for i, s in enumerate(self.servers))


def _log_tail(index: int, server: Server, count: int, lines: int = 30) -> str:
    text = server.log.read_text(errors="replace") if server.log.exists() else ""
    tail = "\n".join(text.splitlines()[-lines:]) or "(nothing logged)"
    return f"--- server {index + 1} of {count} (pid {server.pid}, {server.url}), its log's last lines:\n{tail}"


@contextmanager
def cluster(
    farm: ServerFarm, backend: str, directory: Path, *, count: int = 2, **settings: object
) -> Iterator[Cluster]:
    """``count`` real servers (forked by ``farm``) on one new, migrated database of ``backend``
    ("sqlite": a file in ``directory``, several servers sharing it as the docs allow; "postgresql":
    under scripts/pg), each with ``settings`` (:func:`server_env`), answering when this yields.

    Whatever happens (a server that does not start, a failed assertion, Ctrl-C), every server is
    killed, every client closed and the database removed on the way out. A server that does not
    answer fails the test naming it and showing the end of its log; any other failure inside the
    block gets every server's log tail added to its report (the 500 behind a failed assertion is
    there)."""
    with database(backend, directory) as (url, engine), ExitStack() as stack:
        servers: list[Server] = []

        def kill_all() -> None:
            for server in servers:
                server.kill()

        stack.callback(kill_all)
        running = Cluster(backend, url, engine, servers, [], farm, server_env(url, **settings), stack)
        running.start(count)
        try:
            yield running
        except BaseException as exc:
            exc.add_note(running.logs())
            raise


def together(calls: list[Callable[[], httpx.Response]]) -> list[httpx.Response]:
    """Run the calls in threads released by one barrier; their answers in the calls' order.

    A call that raises (a connection refused, a timeout) fails the test with its error."""
    barrier = threading.Barrier(len(calls))
    answers: list[httpx.Response | BaseException | None] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            answers[i] = calls[i]()
        except BaseException as exc:  # reported below, in the test's thread
            answers[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for i, answer in enumerate(answers):
        if answer is None:
            raise AssertionError(f"request {i + 1} of {len(calls)} did not come back within 60 s")
        if isinstance(answer, BaseException):
            raise AssertionError(f"request {i + 1} of {len(calls)} failed: {answer!r}") from answer
    return [a for a in answers if isinstance(a, httpx.Response)]


@dataclass
class ApiGame:
    """A 4-player, 8-team game created and played by bots through the API."""

    public_id: str
    organiser: dict[str, str]
    players: dict[str, dict[str, str]]  # player id -> headers
    game_id: int = 0
    managers: dict[str, str] = field(default_factory=dict)  # team -> player id

    @classmethod
    def create(
        cls, client: httpx.Client, engine: Engine, *, hours: float | None = 1.0, start: bool = True
    ) -> ApiGame:
        body: dict[str, object] = {"name": "Reliable", "players": 4, "teams": 8, "teams_per_player": 2}
        if hours is not None:
            body["deadline_hours"] = hours
        created = client.post("/api/v1/games", json=body)
        assert created.status_code == 201, created.text
        data = created.json()
        players = {}
        for pid, invite in sorted(data["invites"].items()):
            joined = client.post("/api/v1/join", json={"invite": invite, "name": f"Bot {pid}"})
            assert joined.status_code == 200, joined.text
            players[pid] = {"Authorization": f"Bearer {joined.json()['token']}"}
        game = cls(data["game"], {"Authorization": f"Bearer {data['token']}"}, players)
        if start:
            started = client.post(f"/api/v1/games/{game.public_id}/start", headers=game.organiser)
            assert started.status_code == 200, started.text
        with make_sessionmaker(engine)() as db:
            row = db.scalar(select(GameRow).where(GameRow.public_id == game.public_id))
            assert row is not None
            game.game_id = row.id
            game.managers = {
                t.team_id: t.player_id or ""
                for t in db.scalars(select(TeamRow).where(TeamRow.game_id == row.id))
            }
        return game

    def row(self, db: Session) -> GameRow:
        row = db.get(GameRow, self.game_id, populate_existing=True)
        assert row is not None
        return row

    def open_turn(self, engine: Engine) -> tuple[int, list[str], str]:
        """(turn, teams in play, status) read from the database."""
        with make_sessionmaker(engine)() as db:
            row = self.row(db)
            if row.record_json is None:
                return row.current_turn, [], row.status.value
            state, _ = from_record(json.loads(row.record_json))
            return row.current_turn, list(state.teams_in_play()), row.status.value

    def put_order(
        self, client: httpx.Client, team: str, turn: int, force: int, flair: int, ready: bool
    ) -> httpx.Response:
        body = {"turn": turn, "force": force, "flair": flair, "ready": ready}
        return client.put(
            f"/api/v1/games/{self.public_id}/orders/{team}", json=body, headers=self.players[self.managers[team]]
        )

    def resolve(self, client: httpx.Client, turn: int) -> httpx.Response:
        return client.post(f"/api/v1/games/{self.public_id}/resolve", json={"turn": turn}, headers=self.organiser)

    def record(self, client: httpx.Client) -> dict[str, object]:
        answer = client.get(f"/api/v1/games/{self.public_id}/record", headers=self.organiser)
        assert answer.status_code == 200, answer.text
        data: dict[str, object] = answer.json()
        return data


def record_orders(record_json: str, turn: int) -> dict[str, tuple[int, int, bool]]:
    """team -> (force, flair, missed) in a resolved turn of a stored record."""
    record = json.loads(record_json)
    found: dict[str, tuple[int, int, bool]] = {}
    for match in record["turns"][turn - 1]["matches"]:
        for side in ("home", "away"):
            order = match[f"{side}_order"]
            found[match[side]] = (order["force"], order["flair"], order["missed"])
    return found


def open_turn_orders(engine: Engine, game_id: int, turn: int) -> dict[str, tuple[int, int, bool]]:
    """team -> (force, flair, ready) saved for a turn."""
    with make_sessionmaker(engine)() as db:
        rows = db.scalars(select(OrderRow).where(OrderRow.game_id == game_id, OrderRow.turn == turn))
        return {r.team_id: (r.force, r.flair, r.ready) for r in rows}


def check_game(engine: Engine, game_id: int) -> None:
    """The database holds one consistent game: each resolved turn once, wholly, and as a replay writes it.

    A turn is resolved wholly or not at all: the record's turns, the turn rows, the "resolved"
    events and the turn counter all agree; the stored record is exactly what replaying it writes.
    """
    with make_sessionmaker(engine)() as db:
        # The game's lock, as resolving takes it: a restarted server cannot resolve a turn between
        # the reads below (on SQLite each read outside a write otherwise sees the latest commit).
        row = lock_game(db, game_id=game_id)
        assert row is not None
        numbers = list(db.scalars(select(TurnRow.number).where(TurnRow.game_id == game_id).order_by(TurnRow.number)))
        resolved_events = db.scalar(
            select(func.count()).select_from(EventRow).where(EventRow.game_id == game_id, EventRow.kind == "resolved")
        )
        if row.record_json is None:
            assert numbers == [] and resolved_events == 0
            return
        state, _ = from_record(json.loads(row.record_json))
        assert dumps(to_record(state, seed=None)) == row.record_json
        done = len(state.turns)
        assert numbers == list(range(1, done + 1)), (numbers, done)
        assert resolved_events == done
        if row.status.value in ("running", "paused"):
            assert row.current_turn == done + 1
        # Orders of resolved turns, as logged last before the turn closed, are the ones played.
        log = list(db.scalars(select(OrderLogRow).where(OrderLogRow.game_id == game_id).order_by(OrderLogRow.id)))
        for number in range(1, done + 1):
            last = {e.team_id: (e.force, e.flair) for e in log if e.turn == number}
            played = record_orders(row.record_json, number)
            for team, (force, flair, missed) in played.items():
                if team in last:
                    assert (force, flair, missed) == (*last[team], False), (number, team)
