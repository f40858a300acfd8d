"""The operator's memory trace (sevens.web.memory_trace): off unless asked, refused in one line
when asked wrongly, and when asked, snapshots a reader can load and compare."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sevens.cli.main import app
from sevens.web import memory_trace

runner = CliRunner()


def test_nothing_is_traced_unless_the_folder_is_named() -> None:
    assert memory_trace.start_from_environment({}) is None
    assert memory_trace.start_from_environment({memory_trace.MINUTES_VARIABLE: "5"}) is None
    assert not tracemalloc.is_tracing()


def test_snapshots_are_written_every_so_often_and_load(tmp_path: Path) -> None:
    folder = tmp_path / "traces"  # made if missing
    thread = memory_trace.start_from_environment(
        {memory_trace.DIR_VARIABLE: str(folder), memory_trace.MINUTES_VARIABLE: "0.005"}  # every 0.3 s
    )
    try:
        assert thread is not None and tracemalloc.is_tracing()
        held = [bytearray(1000) for _ in range(50)]  # something of this test's to find in them
        deadline = time.monotonic() + 30
        while len(list(folder.glob("trace-*.snap"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        tracemalloc.stop()
    thread.join(timeout=10)
    assert not thread.is_alive()  # it stops once tracing has
    written = sorted(folder.glob("trace-*.snap"))
    assert len(written) >= 2 and not list(folder.glob("*.part")), written
    assert written[0].name == memory_trace.snapshot_name(float(written[0].stem.removeprefix("trace-")))
    snapshot = tracemalloc.Snapshot.load(str(written[-1]))
    here = [s for s in snapshot.statistics("lineno") if s.traceback[0].filename == __file__]
    assert any(s.size >= 50 * 1000 for s in here), here[:5]
    assert len(held) == 50


@pytest.mark.parametrize("minutes", ["0", "-1", "ten", "nan"])
def test_serve_refuses_minutes_that_are_not_a_positive_number_in_one_line(tmp_path: Path, minutes: str) -> None:
    args = ["serve", "--database-url", "sqlite://", "--host", "256.0.0.1"]  # were it let through: fails, not hangs
    env = {memory_trace.DIR_VARIABLE: str(tmp_path), memory_trace.MINUTES_VARIABLE: minutes}
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: bad setting: {memory_trace.MINUTES_VARIABLE}: {minutes!r} is not a number")
    assert result.stderr.count("\n") == 1 and "give e.g. 10" in result.stderr
    assert not tracemalloc.is_tracing()


def test_serve_refuses_a_folder_it_cannot_write_in_one_line(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    args = ["serve", "--database-url", "sqlite://", "--host", "256.0.0.1"]
    result = runner.invoke(app, args, env={memory_trace.DIR_VARIABLE: str(a_file / "traces")})
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: bad setting: {memory_trace.DIR_VARIABLE}: cannot write snapshots to ")
    assert result.stderr.count("\n") == 1 and "or unset it" in result.stderr
    assert not tracemalloc.is_tracing()
