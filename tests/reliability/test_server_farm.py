"""The reliability tests' own servers: each holds its port from the moment it is started.

A port was picked as free, let go, and bound by the forked server a moment later; in between,
another process could take it. In a CI run a Dask worker did, and the test, waiting for its server,
read Dask's greeting instead (``BadStatusLine: ... compression ... pickle-protocol``)."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from reliability.helpers import database, server_env
from sevens.web.testing import ServerFarm, wait_until_up


def test_a_server_holds_its_port_as_soon_as_it_is_started(farm: ServerFarm, tmp_path: Path) -> None:
    """Right after ``start`` (not waiting for the server to come up), a connection to its port is
    taken, not refused, and the request sent on it is answered by that server once it is up."""
    with database("sqlite", tmp_path) as (url, _engine):
        server = farm.start(server_env(url), wait=False)
        try:
            with socket.create_connection(("127.0.0.1", server.port), timeout=5):
                pass  # refused before: nothing listened there until the server had started
            wait_until_up(server.port, pid=server.pid)
            with httpx.Client(base_url=server.url, timeout=30) as client:
                assert client.get("/api/v1/strategies").status_code == 200
        finally:
            server.kill()


def test_a_port_another_program_listens_on_is_refused_in_one_line(farm: ServerFarm, tmp_path: Path) -> None:
    with socket.socket() as busy, database("sqlite", tmp_path) as (url, _engine):
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(OSError, match=rf"cannot listen on 127\.0\.0\.1:{port} for a test server: "):
            farm.start(server_env(url), port=port)
