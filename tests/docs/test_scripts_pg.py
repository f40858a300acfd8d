"""`scripts/pg COMMAND`: the throwaway PostgreSQL server `bash scripts/test` runs the suite in.

Its port is picked free and bound by the server a few seconds later; another program can take it in
between (a test's own server, a Dask worker). The server then starts on a fresh port rather than
failing the whole run. PGPORT names the port tried first, which lets a test hold it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PGBIN = Path(os.environ.get("PGBIN", "/usr/lib/postgresql/15/bin"))

pytestmark = pytest.mark.skipif(not (PGBIN / "pg_ctl").exists(), reason="PostgreSQL 15 is not installed")

SHOW = "import os; print(os.environ['DATABASE_URL'])"


def _pg(*command: str, port: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PGPORT": str(port)}
    return subprocess.run(["bash", str(ROOT / "scripts" / "pg"), *command], env=env,
                          capture_output=True, text=True, timeout=180, check=False)


def test_a_port_taken_before_the_server_binds_it_is_left_for_another() -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        taken = held.getsockname()[1]
        done = _pg(sys.executable, "-c", SHOW, port=taken)
    assert done.returncode == 0, done.stderr
    url = done.stdout.strip()
    assert url.startswith("postgresql://postgres@127.0.0.1:") and url.endswith("/postgres")
    assert url != f"postgresql://postgres@127.0.0.1:{taken}/postgres"
    assert f"port {taken} on 127.0.0.1 is taken; trying another" in done.stderr
    assert "could not start server" not in done.stderr  # pg_ctl's words for a try that is retried


def test_the_commands_status_is_the_scripts_and_the_server_is_gone_after() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    done = _pg(sys.executable, "-c", SHOW + "; raise SystemExit(3)", port=free)
    assert done.returncode == 3, done.stderr
    assert done.stdout.strip() == f"postgresql://postgres@127.0.0.1:{free}/postgres"
    with socket.socket() as after:  # nothing listens there any more
        assert after.connect_ex(("127.0.0.1", free)) != 0


def test_a_server_that_cannot_start_for_another_reason_says_why_once() -> None:
    done = _pg("true", port=1)  # below 1024: refused to a user other than root
    assert done.returncode == 1
    assert "Permission denied" in done.stderr
    assert "trying another" not in done.stderr
