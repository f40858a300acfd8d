"""The lab's worker processes started the ways Python starts them: "fork" on Linux, "spawn" on macOS
and Windows ("forkserver" on Linux from Python 3.14). A worker started by spawn imports each
strategy afresh, so one that exists only in the run's own process cannot play there: the run says
which, why and what to do, rather than a worker's bare "no attribute"."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "strategy.md").read_text()
PACERS = re.search(r"```python\n(.*?)```", GUIDE[GUIDE.index("## Writing your own strategy"):], re.S)


def _python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600, check=False)


def _run_ending_within(code: str, cwd: Path, seconds: float, *, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """``code`` run as :func:`_python` runs it, in a session of its own: status, stdout, stderr. A
    run that has not ended within ``seconds`` fails the test, its workers killed with it."""
    env = {**(os.environ if env is None else env), "PYTHONPATH": str(ROOT / "src")}
    run = subprocess.Popen([sys.executable, "-c", code], cwd=cwd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = run.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        run.communicate()
        pytest.fail(f"the run did not end within {seconds:.0f} s")
    return run.returncode, out, err


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_a_strategy_defined_only_in_the_running_process_is_refused_by_a_spawned_worker_saying_what_to_do(
    method: str, tmp_path: Path
) -> None:
    """Defined in ``python -c`` (as in a notebook or at the prompt): the workers' ``__main__`` is not
    this one, and the worker's own error said only that ``__main__`` had no such attribute."""
    code = f"""
import multiprocessing
from sevens.lab.run import run_lab
from sevens.lab.strategies import StrategyError, paced_total, split_orders

class Mine:
    name = "mine"

    def orders(self, view, rng):
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left)
        return split_orders(total, rng.uniform(0, 1, view.size), view.scrum)

multiprocessing.set_start_method({method!r})
try:
    run_lab(["even", "__main__:Mine"], 40, seed=1, teams=8, batch_size=20, workers=2)
except StrategyError as exc:
    print(exc)
"""
    run = _python(code, tmp_path)
    assert run.returncode == 0, run.stderr
    said = run.stdout
    for part in ("strategy '__main__:Mine' loads in this process but not in the run's worker processes",
                 "__main__ has no 'Mine'", f"started by '{method}'", "import each strategy afresh by its path",
                 "python -c, a notebook", "naming it 'mine:Mine'", "--workers 1"):
        assert part in said, said


def test_the_guides_example_gives_the_same_results_with_workers_started_by_spawn(tmp_path: Path) -> None:
    """As on macOS and Windows: the module in the current folder is found by the workers too."""
    assert PACERS
    (tmp_path / "pacers.py").write_text(PACERS.group(1))
    args = ["lab", "--strategies", "even-flair,pacers:SaveThenFlair,pacers:HalfAndHalf", "--tournaments", "2100",
            "--teams", "8", "--seed", "1", "--workers", "2", "--json"]
    tables = []
    for method in ("fork", "spawn"):
        run = _python(f"import multiprocessing, sys\nmultiprocessing.set_start_method({method!r})\n"
                      f"sys.argv = ['sevens', *{args!r}]\nfrom sevens.cli.main import main\nmain()\n", tmp_path)
        assert run.returncode == 0, run.stderr
        tables.append(json.loads(run.stdout))
    assert tables[0] == tables[1]



PRESSER = """
import os, signal
from sevens.lab.strategies import paced_total, split_orders
import numpy as np

pressed = []


class Presser:
    \"\"\"Even pacing; the first time it is asked, Ctrl-C is pressed (SIGINT to its own process).\"\"\"

    def orders(self, view, rng):
        print("asked", flush=True)
        if not pressed:
            pressed.append(1)
            os.kill(os.getpid(), signal.SIGINT)
        return split_orders(paced_total(view.scrum, view.turns_left, view.group_matches_left), np.ones(view.size), view.scrum)
"""


def test_a_worker_takes_ctrl_c_once_stops_its_batch_and_plays_no_other(tmp_path: Path) -> None:
    """Ctrl-C reaches the workers too. A second press while a worker reported the first to the run
    broke that off, and the worker printed a traceback under the run's one-line message (the lab
    CLI's Ctrl-C test, two workers, two presses, about one run in three); a batch the pool had
    already handed to the worker was then played whole. A worker as the run starts it, with real
    signals sent to its own process: the first press stops the batch, the second does nothing, and
    the next batch is not played (its strategy is never asked)."""
    (tmp_path / "presser.py").write_text(PRESSER)
    code = """
import dataclasses, os, signal
import numpy as np
from sevens.lab import run
run._start_worker(None, "fork")
spec = run.BatchSpec(("even", "presser:Presser"), 8, 0, 8, np.random.SeedSequence(1))
try:
    run._pooled_batch(spec)
except KeyboardInterrupt:
    os.kill(os.getpid(), signal.SIGINT)  # a second press, as the worker reports the first
    print("the first press stopped the batch", flush=True)
try:
    run._pooled_batch(dataclasses.replace(spec, start=8))
except KeyboardInterrupt:
    print("the next batch was not played", flush=True)
"""
    done = _python(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "asked\nthe first press stopped the batch\nthe next batch was not played\n", done.stdout


def test_a_forked_worker_waiting_for_a_batch_takes_ctrl_c_without_a_traceback(tmp_path: Path) -> None:
    """A worker forked from `sevens lab` inherits the run's own Ctrl-C handler, which raises. The
    worker kept it, so a press while it waited for a batch (not playing one) ended it with
    'Process ForkProcess-1: Traceback ... KeyboardInterrupt' under the run's message (the lab CLI's
    Ctrl-C test with two workers, in a loaded CI run). A worker as the run starts it, from a process
    with such a handler, with a real signal sent while no batch plays."""
    code = """
import os, signal
from sevens.lab import run

def first(signum, frame):  # as `sevens lab` takes Ctrl-C in the run
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt

signal.signal(signal.SIGINT, first)
run._start_worker(None, "fork")
os.kill(os.getpid(), signal.SIGINT)
print("still waiting for a batch", flush=True)
"""
    waited = _python(code, tmp_path)
    assert waited.returncode == 0, waited.stderr
    assert (waited.stdout, waited.stderr) == ("still waiting for a batch\n", "")


def test_a_worker_of_a_run_started_with_ctrl_c_ignored_keeps_ignoring_it(tmp_path: Path) -> None:
    """A run started with Ctrl-C ignored (in the background): its workers ignore it too, and a press
    meant for the shell's foreground job stops no batch."""
    code = """
import os, signal
from sevens.lab import run

signal.signal(signal.SIGINT, signal.SIG_IGN)
run._start_worker(None, "fork")
print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN, flush=True)
"""
    kept = _python(code, tmp_path)
    assert (kept.returncode, kept.stdout) == (0, "True\n"), kept.stderr


def test_a_run_forked_while_another_thread_writes_to_stderr_still_plays(tmp_path: Path) -> None:
    """The progress bar of `sevens lab` writes to stderr from a thread of its own. A worker forked as
    that thread wrote (on a slow terminal, or under load) inherited stderr's lock held, for good, and
    waited for it at its first flush: it never took a batch, and the run never ended (the lab CLI's
    two-worker Ctrl-C test, in a CI run). A thread writes to stderr without pause here, as a slow
    terminal takes it, while the run forks its workers."""
    code = """
import os, sys, threading, time
from sevens.lab.run import run_lab

read, write = os.pipe()
os.dup2(write, 2)

def terminal():  # takes what is written slowly
    while True:
        os.read(read, 4096)
        time.sleep(0.001)

def progress_bar():
    while True:
        sys.stderr.write("x" * 65536)
        sys.stderr.flush()

threading.Thread(target=terminal, daemon=True).start()
threading.Thread(target=progress_bar, daemon=True).start()
time.sleep(0.2)
result = run_lab(["even", "random"], 40, seed=1, teams=8, batch_size=20, workers=2)
print(result.totals.tournaments, flush=True)
os._exit(0)  # the writing thread still holds stderr: no flush at exit
"""
    # Python's stderr is buffered (and locked) unless told otherwise, as in a user's shell.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    status, played, _ = _run_ending_within(code, tmp_path, 120, env=env)  # before: a worker waited for stderr's lock
    assert (status, played) == (0, "40\n")


@pytest.mark.parametrize("workers", [2, 1])
def test_ctrl_c_in_a_run_comes_between_its_steps_not_inside_a_pool(tmp_path: Path, workers: int) -> None:
    """Ctrl-C raised wherever the run was. With workers, nearly always inside
    ``concurrent.futures.wait``: there it could leave a future's lock held, and the pool's thread
    waited for that lock for ever (the lab CLI's two-worker Ctrl-C test, one run in thirty). With
    one worker the run plays in its own process on a thread per core, and a press raised as a new
    thread reported its start left that thread waiting on a lock for good (the one-worker test,
    once in a loaded full run). Either way the run said it was interrupted and never ended. The
    run's own handler (here one like `sevens lab`'s, which ignores later presses) now runs at the
    run's next look, between batches or chunks, in its own code, and no thread is left. With one
    worker a press between batches was raised where the run was then, in the lab's code or in the
    progress bar's (the one-worker kill test in CI, a run that never ended): held for a look too."""
    code = """
import os, signal, threading, time, traceback
from sevens.lab.run import run_lab

where = []

def first(signum, frame):  # as `sevens lab` takes Ctrl-C in the run
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    where.extend(f"{step.filename}:{step.name}" for step in traceback.extract_stack()[:-1])
    raise KeyboardInterrupt

def press_twice():
    for _ in range(2):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.02)

pressing = threading.Timer(0.3, press_twice)

def progress(tournaments):  # the run is playing: press soon, wherever it is then
    if pressing.ident is None:  # not started yet (pressed, it may be a while before the run looks)
        pressing.start()

signal.signal(signal.SIGINT, first)
try:
    run_lab(["even", "random"], 10**8, seed=1, teams=8, workers=WORKERS, progress=progress)
except KeyboardInterrupt:
    left = [thread.name for thread in threading.enumerate() if thread not in (threading.main_thread(), pressing)]
    print(where[-1])
    print(any("concurrent/futures" in step or step.startswith(threading.__file__) for step in where))
    print(left)
""".replace("WORKERS", str(workers))
    status, said, problems = _run_ending_within(code, tmp_path, 120)
    assert status == 0, problems
    innermost, inside_the_pool, left = said.splitlines()
    assert innermost.endswith("sevens/lab/held.py:take"), said
    assert inside_the_pool == "False", said
    # The pool's own thread has ended too: left for Python's exit to wait for, it could close its
    # pipe just as the exit woke it ('Exception ignored ... OSError: Bad file descriptor' under the
    # run's message, 7 runs in 25 of the CLI's case on a loaded machine).
    assert left == "[]", said


def test_ctrl_c_as_a_worker_reports_progress_stops_the_batch_once_the_report_is_put(tmp_path: Path) -> None:
    """A press as the worker put its progress on the run's queue raised inside ``Queue.put``, which
    (the first time) starts the queue's own thread and registers its closing: broken off there,
    the worker could wait at exit for a thread never told to stop. The report is put whole, and the
    batch stops just after."""
    code = """
import os, signal
import numpy as np
from sevens.lab import run
from sevens.lab.simulate import Sampler

class Queue:
    def put(self, item):
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, as the report is being put
        for _ in range(1000):  # a Python handler runs between these steps
            pass
        print("the report was put whole", flush=True)

run._start_worker(Queue(), "fork")
run.PROGRESS_EVERY = 0
# The loop in Python (the compiled one plays a batch in one go, and tells nothing until it ends).
spec = run.BatchSpec(("even", "random"), 8, 0, 8, np.random.SeedSequence(1), sampler=Sampler.DIRECT)
try:
    run._pooled_batch(spec)
except KeyboardInterrupt:
    print("the batch stopped", flush=True)
"""
    done = _python(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "the report was put whole\nthe batch stopped\n", done.stdout


def test_a_signal_as_a_one_worker_run_tells_its_progress_waits_until_the_progress_is_told() -> None:
    """With one worker a Ctrl-C (or kill) was raised wherever the run's process was: in the middle
    of the progress bar's own code, say, which ``sevens lab`` runs as the batches end (rich's locks
    and its drawing thread), and a CI run killed so never ended. Held now for the run's next look:
    the progress is told whole, and the run stops after."""
    code = """
import os, signal
from sevens.lab.run import run_lab

def progress(tournaments):
    os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C as the progress is being told
    for _ in range(1000):  # a Python handler runs between these steps
        pass
    print("the progress was told whole", flush=True)

try:
    run_lab(["even", "random"], 10**6, seed=1, teams=8, workers=1, batch_size=100, progress=progress)
except KeyboardInterrupt:
    print("the run stopped", flush=True)
"""
    status, said, problems = _run_ending_within(code, ROOT, 120)
    assert status == 0, problems
    assert said == "the progress was told whole\nthe run stopped\n", said
