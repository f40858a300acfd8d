"""Requests whose clients give up before the answer: a burst of them must not jam the server."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine, func, select

from sevens.store.models import FailedAttempt, GameRow
from sevens.web.testing import Server, ServerFarm, host_game

from .helpers import BACKENDS, database, server_env

BURST = 200
"""More requests at once than the server's thread pool has threads (40)."""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_burst_of_requests_given_up_leaves_the_server_answering(
    farm: ServerFarm, tmp_path: Path, backend: str
) -> None:
    """A browser that gives up its polls (AbortController), or phones and proxies that drop their
    connections, can have far more requests in flight than its six connections a host. Sent over
    sockets closed before the answer, each request ran anyway (until those that wait for the
    database were skipped once their client had gone, below); once more than the thread pool's
    40 waited for a database connection on a thread, the request holding the connection (taken by
    its bot token's lookup) found no thread free to run its route: the server answered nothing
    for a minute, then 500 (the pool timed out)."""
    with database(backend, tmp_path) as (url, _engine):
        server = farm.start(server_env(url))
        try:
            with httpx.Client(base_url=server.url, timeout=60) as client:
                game = host_game(client)
            token = game.players["p1"]["Authorization"]
            paths = [f"/api/v1/games/{game.public_id}", f"/games/{game.public_id}/state"]
            sockets = []
            for i in range(BURST):
                given_up = socket.create_connection(("127.0.0.1", server.port))
                given_up.sendall(
                    f"GET {paths[i % 2]} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {token}\r\n\r\n".encode()
                )
                sockets.append(given_up)
            for given_up in sockets:
                given_up.close()
            with httpx.Client(base_url=server.url, timeout=20) as client:
                started = time.monotonic()
                after = client.get(paths[0], headers={"Authorization": token})
                waited = time.monotonic() - started
        finally:
            server.kill()
    assert after.status_code == 200, after.text
    assert waited < 10, f"the next request waited {waited:.1f} s"
    assert "timed out" not in farm.logs()


def _sent(port: int, request: str) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=60)
    connection.sendall(request.encode())
    return connection


def _answer(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes (each request here says Connection: close)."""
    answer = b""
    with connection:
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


@contextlib.contextmanager
def _held_up(server: Server) -> Iterator[None]:
    """The server stopped (SIGSTOP) while the block sends, as one busy elsewhere: the requests
    sent meanwhile, and the closing of the connections given up, are all there when it goes on."""
    os.kill(server.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(server.pid, signal.SIGCONT)


def _wrong_guesses(engine: Engine) -> int:
    with engine.connect() as connection:
        return int(connection.scalar(select(func.count()).select_from(FailedAttempt)) or 0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_given_up_gets_are_not_served_and_the_present_ones_are(
    farm: ServerFarm, tmp_path: Path, backend: str
) -> None:
    """A GET or HEAD whose client has closed its connection by the time its turn at the database
    comes is not served: its route does nothing (here, a wrong bot token that would be counted
    against the address in the database). Served in full for nobody, a burst of 200 kept the
    requests of clients still there waiting behind it. The requests of clients still there, which
    waited behind the same burst, are served: a GET, a HEAD, a GET with a body, a POST."""
    with database(backend, tmp_path) as (url, engine):
        # No limit reached by the wrong tokens, and no new game counted: each row one wrong token served.
        server = farm.start(server_env(url, rate_limit_attempts=BURST * 10, games_per_hour=0))
        try:
            with httpx.Client(base_url=server.url, timeout=60) as client:
                game = host_game(client)
            token = game.players["p1"]["Authorization"]
            view = f"/api/v1/games/{game.public_id}"
            before = _wrong_guesses(engine)
            new_game = json.dumps({"name": "Present", "players": 4, "teams": 8, "teams_per_player": 2})
            with _held_up(server):
                given_up = [
                    _sent(server.port, "GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer not-a-token\r\n\r\n")
                    for _ in range(BURST)
                ]
                for connection in given_up:
                    connection.close()
                present = [
                    _sent(server.port, f"{method} {view} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {token}\r\n"
                          f"Connection: close\r\n{body}")
                    for method, body in (("GET", "\r\n"), ("HEAD", "\r\n"), ("GET", "Content-Length: 2\r\n\r\n{}"))
                ]
                present.append(_sent(
                    server.port, "POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(new_game)}\r\nConnection: close\r\n\r\n{new_game}"
                ))
            answers = [_answer(connection) for connection in present]
            served = _wrong_guesses(engine) - before
        finally:
            server.kill()
    logged = server.log.read_text()
    statuses = [answer.split(b"\r\n", 1)[0] for answer in answers]
    assert statuses == [b"HTTP/1.1 200 OK"] * 3 + [b"HTTP/1.1 201 Created"], answers
    got, headed, with_body = (answer.partition(b"\r\n\r\n")[2] for answer in answers[:3])
    assert json.loads(got)["id"] == game.public_id and with_body == got and headed == b""
    # Only the burst's first requests, at a free turn or before their connection's end was read.
    assert served < BURST // 4, f"{served} of {BURST} given-up requests were served"
    assert "Traceback" not in logged, logged[-3000:]  # a request not served is no failure


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_given_up_post_is_still_done(farm: ServerFarm, tmp_path: Path, backend: str) -> None:
    """A request that changes something is served whether or not its client waited for the answer:
    sent in full, it may be on its way, and what it does must not depend on when its client gave
    up. Here a new game posted behind a burst of given-up GETs, its connection closed at once."""
    with database(backend, tmp_path) as (url, engine):
        server = farm.start(server_env(url, games_per_hour=0))
        try:
            new_game = json.dumps({"name": "Given up", "players": 4, "teams": 8, "teams_per_player": 2})
            with _held_up(server):
                given_up = [
                    *(_sent(server.port, "GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer x\r\n\r\n")
                      for _ in range(BURST)),
                    _sent(server.port, "POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                          f"\r\nContent-Length: {len(new_game)}\r\n\r\n{new_game}"),
                ]
                for connection in given_up:
                    connection.close()
            with httpx.Client(base_url=server.url, timeout=60) as client:
                # Behind the post in the queue for the database: its turn has come once this is answered.
                assert client.get("/api/v1/games/none-such").status_code == 404
                deadline = time.monotonic() + 30
                while not (names := _game_names(engine)) and time.monotonic() < deadline:
                    time.sleep(0.05)
        finally:
            server.kill()
    assert names == ["Given up"]


def _game_names(engine: Engine) -> list[str]:
    with engine.connect() as connection:
        return list(connection.scalars(select(GameRow.name)))
