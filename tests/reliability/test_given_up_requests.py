"""Requests whose clients give up before the answer: a burst of them must not jam the server."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from sevens.web.testing import ServerFarm, host_game

from .helpers import BACKENDS, database, server_env

BURST = 200
"""More requests at once than the server's thread pool has threads (40)."""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_burst_of_requests_given_up_leaves_the_server_answering(
    farm: ServerFarm, tmp_path: Path, backend: str
) -> None:
    """A browser that gives up its polls (AbortController), or phones and proxies that drop their
    connections, can have far more requests in flight than its six connections a host. Sent over
    sockets closed before the answer, each request ran anyway; once more than the thread pool's
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
