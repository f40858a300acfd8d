"""A stop asked for by a signal is not lost where Python ignores exceptions: Ctrl-C during
``sevens import`` came as the import system ran a weak reference's callback, and the
:class:`~sevens.cli.stopping.Stopped` its handler raised there was printed as "Exception ignored
in ..." and dropped; the import went on to the end and exited 0. Real signals, in a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[2] / "src")

PROGRAM = """
import signal
import sys
import time
import weakref

from sevens.cli.stopping import Stopped, stop_on_signals


class Thing:
    pass


def callback(ref):
    signal.raise_signal(signal.SIG{name})
    for _ in range(1000):  # the handler runs here, in the callback, where Python ignores what it raises
        pass


try:
    with stop_on_signals():
        thing = Thing()
        watch = weakref.ref(thing, callback)
        del thing
        for _ in range({steps}):  # the rest of the work
            time.sleep(0.01)
        print("finished")
except Stopped as exc:
    print("stopped", exc.signum)
"""


@pytest.mark.parametrize("name", ["INT", "TERM"])
@pytest.mark.parametrize("steps", [300, 0])
def test_a_stop_raised_where_python_ignores_it_still_stops(name: str, steps: int) -> None:
    """With work left (3 s of it) the signal lands again where it is taken, and the work stops;
    with none, the block may end before that, and the stop is raised as it ends."""
    run = subprocess.run(
        [sys.executable, "-c", PROGRAM.format(name=name, steps=steps)], capture_output=True, text=True, timeout=60,
        check=False, env={**os.environ, "PYTHONPATH": SRC},
    )
    signum = {"INT": 2, "TERM": 15}[name]
    ended_first = {f"finished\nstopped {signum}\n", f"stopped {signum}\n"} if steps == 0 else {f"stopped {signum}\n"}
    assert run.returncode == 0 and run.stdout in ended_first and run.stderr == "", (run.stdout, run.stderr)


def test_other_exceptions_python_ignores_are_still_reported() -> None:
    """The hook takes back only a stop: what else a callback raises is printed as Python prints it."""
    program = (
        "import weakref\nfrom sevens.cli.stopping import stop_on_signals\nclass T: pass\n"
        "def cb(ref): raise ValueError('a bug in a callback')\n"
        "with stop_on_signals():\n    t = T(); w = weakref.ref(t, cb); del t\nprint('finished')\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=False,
                         env={**os.environ, "PYTHONPATH": SRC})
    assert run.returncode == 0 and run.stdout == "finished\n"
    assert "Exception ignored in" in run.stderr and "ValueError: a bug in a callback" in run.stderr
