"""The reliability tests' own servers: each holds its port from the moment it is started.

A port was picked as free, let go, and bound by the forked server a moment later; in between,
another process could take it. In a CI run a Dask worker did, and the test, waiting for its server,
read Dask's greeting instead (``BadStatusLine: ... compression ... pickle-protocol``)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import httpx
import pytest

from reliability.helpers import cluster, database, server_env
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


def test_a_cluster_server_that_does_not_start_is_named_with_its_log_and_none_is_left(
    farm: ServerFarm, tmp_path: Path
) -> None:
    """cluster() with a setting every server refuses at start: the failure says which server did not
    start and shows the end of its log (the setting's error), and no server of it is left running."""
    before = len(farm.servers)
    with pytest.raises(AssertionError) as failed, cluster(farm, "sqlite", tmp_path, sqlite_synchronous="sometimes"):
        pytest.fail("the cluster came up with a setting its servers refuse")
    said = str(failed.value)
    assert "server 1 of 2 on sqlite did not start" in said, said
    assert "its log's last lines" in said and "sqlite_synchronous" in said, said
    started = farm.servers[before:]
    assert len(started) == 2
    assert not any(_running(s.pid) for s in started), started


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
