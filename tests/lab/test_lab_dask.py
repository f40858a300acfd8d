"""``sevens lab --dask``: runs on a real local Dask cluster whose workers are processes of their own
(``LocalCluster(processes=True)``), as on a cluster of machines: they import each strategy by its
path, print to their own terminal, and die or lose their scheduler apart from the run."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sevens.lab.run import run_lab
from sevens.lab.strategies import StrategyError
from strategy_sources import PRINTER
from terminal_session import in_terminal, press_ctrl_c, read_until

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "strategy.md").read_text()
PACERS = re.search(r"```python\n(.*?)```", GUIDE[GUIDE.index("## Writing your own strategy"):], re.S)

# Strategies of one's own, in a folder the workers have on their path (they start with this process's).
STRATEGIES = {
    "printer.py": PRINTER,
    "crashing.py": '''
from sevens.bots.strategies import EvenSpread


class Crashy(EvenSpread):
    name = "crashy"

    def order(self, view, rng):
        if view.turn >= 2:
            raise RuntimeError("no idea what to do")
        return super().order(view, rng)
''',
    "gated.py": '''
"""One-decision bots that hold the batch at a gate the test opens: the test acts while a batch plays."""

import os
import time
from pathlib import Path

from sevens.rules import Order

GATES = Path(os.environ["SEVENS_TEST_GATES"])


def _even(view):
    return Order(force=-(-view.scrum // view.turns_left), flair=0)


def _wait_for(gate, what):
    for _ in range(3000):  # a minute at most, then say what did not come
        if (GATES / gate).exists():
            return
        time.sleep(0.02)
    raise RuntimeError(f"{what} did not come")


class WaitsToBeSeen:
    """From its 40th decision on it thinks 20 ms a decision until the run's progress has shown part
    of a batch, so that a batch lasts seconds unless progress comes within it. (It used to stop
    dead until then, and a batch that got there within the half second before its first report
    could send none.)"""

    name = "waits-to-be-seen"

    def __init__(self):
        self.decided = 0

    def order(self, view, rng):
        self.decided += 1
        if self.decided >= 40 and not (GATES / "seen").exists():
            time.sleep(0.02)
        return _even(view)


class Marked:
    """Says which process plays it (a file named by its pid), then waits for the gate 'go'."""

    name = "marked"

    def order(self, view, rng):
        (GATES / f"playing-{os.getpid()}").touch()
        _wait_for("go", "the gate 'go'")
        return _even(view)


class Slow:
    """Says it plays, then thinks for 5 ms a decision: a batch of 2,000 tournaments takes minutes."""

    name = "slow"

    def order(self, view, rng):
        (GATES / f"playing-{os.getpid()}").touch()
        time.sleep(0.005)
        return _even(view)


class Dies:
    """Ends the process that plays it, as a crash in compiled code or the memory running out does."""

    name = "dies"

    def order(self, view, rng):
        os._exit(3)
''',
}


@pytest.fixture(scope="module")
def strategies_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("strategies")
    for file, code in STRATEGIES.items():
        (folder / file).write_text(code)
    assert PACERS
    (folder / "pacers.py").write_text(PACERS.group(1))
    (folder / "gates").mkdir()
    saved = sys.path.copy(), os.environ.get("SEVENS_TEST_GATES")
    sys.path.insert(0, str(folder))  # in this process and the workers it starts
    os.environ["SEVENS_TEST_GATES"] = str(folder / "gates")
    yield folder
    sys.path[:] = saved[0]
    if saved[1] is None:
        del os.environ["SEVENS_TEST_GATES"]
    else:
        os.environ["SEVENS_TEST_GATES"] = saved[1]


def _cluster(**config: object) -> distributed.LocalCluster:
    with dask.config.set(config):
        return distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
        )


@pytest.fixture(scope="module")
def cluster(strategies_folder: Path) -> Iterator[distributed.LocalCluster]:
    """Two worker processes, shared by the tests that leave them as they were."""
    with _cluster() as running:
        yield running


@pytest.fixture
def gates(strategies_folder: Path) -> Iterator[Path]:
    folder = strategies_folder / "gates"
    yield folder
    for gate in folder.iterdir():
        gate.unlink()


def _sevens(*args: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "sevens", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def _start_sevens(*args: str, cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.Popen([sys.executable, "-m", "sevens", *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _until(condition: object, what: str, limit: float = 120) -> None:
    """Wait until ``condition()`` holds (``limit`` seconds at most: a bound, not a measure)."""
    end = time.monotonic() + limit
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < end, f"{what} within {limit} s"
        time.sleep(0.05)


def _one_line(stderr: str) -> str:
    """What the command said on stderr, which must be one line starting 'error: '."""
    assert "Traceback" not in stderr and " - distributed." not in stderr, stderr  # nothing Dask logged
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    return lines[0]


def test_a_slow_strategy_shows_progress_inside_batches_on_dask_and_the_results_are_unchanged(
    cluster: distributed.LocalCluster, gates: Path
) -> None:
    """On Dask the progress came once per batch: a slow one-decision strategy left the bar still for
    minutes. From its 40th decision the strategy waits until the run has shown part of a batch."""
    told: list[int] = []

    def progress(n: int) -> None:
        told.append(n)
        if n < 8:  # less than a batch: part of one
            (gates / "seen").touch()

    shown = run_lab(["even", "gated:WaitsToBeSeen"], 24, seed=2, teams=8, batch_size=8,
                    dask=cluster.scheduler_address, progress=progress)
    assert (gates / "seen").exists() and len(told) > 3 and min(told) > 0 and sum(told) == 24, told
    assert shown.to_dict() == run_lab(["even", "gated:WaitsToBeSeen"], 24, seed=2, teams=8, batch_size=8).to_dict()


def test_a_strategy_the_workers_cannot_import_is_named_with_what_to_do(
    cluster: distributed.LocalCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module this process finds (here on its path, added after the workers started) that the
    workers do not: the run said what the loader says to a local user, to run from the module's folder."""
    (tmp_path / "elsewhere.py").write_text(STRATEGIES["printer.py"])
    monkeypatch.syspath_prepend(str(tmp_path))
    address = cluster.scheduler_address
    with pytest.raises(StrategyError) as caught:
        run_lab(["even", "elsewhere:Printer"], 16, seed=1, teams=8, batch_size=8, dask=address)
    message = str(caught.value)
    for part in ("strategy 'elsewhere:Printer' loads in this process but not on the Dask cluster's workers "
                 "(ModuleNotFoundError: No module named 'elsewhere')",
                 f"distributed.Client('{address}').upload_file('elsewhere.py')", "or run without --dask"):
        assert part in message, message
    assert "current folder" not in message
    # What it says to do works, and gives what a local run gives.
    with distributed.Client(address) as client:
        client.upload_file(str(tmp_path / "elsewhere.py"))
    on_dask = run_lab(["even", "elsewhere:Printer"], 16, seed=1, teams=8, batch_size=8, dask=address)
    assert on_dask.to_dict() == run_lab(["even", "elsewhere:Printer"], 16, seed=1, teams=8, batch_size=8).to_dict()


def test_what_a_strategy_prints_on_a_dask_worker_goes_to_stderr_and_the_json_stays_json(
    cluster: distributed.LocalCluster, strategies_folder: Path
) -> None:
    """A strategy's print() went to the worker's own terminal: the run's user never saw it."""
    run = _sevens("lab", "--strategies", "even,printer:Printer", "--tournaments", "2100", "--teams", "8", "--seed",
                  "1", "--dask", cluster.scheduler_address, "--json", cwd=strategies_folder)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["tournaments"] == 2100
    for turn in range(1, 6):  # the last too: nothing is left behind when the run ends
        assert run.stderr.count(f"deciding turn {turn}\n") == 3, run.stderr  # two batches, the first asked twice
    assert "Traceback" not in run.stderr


def test_a_strategy_raising_on_a_dask_worker_stops_the_run_in_one_line(
    cluster: distributed.LocalCluster, strategies_folder: Path
) -> None:
    run = _sevens("lab", "--strategies", "even,crashing:Crashy", "--tournaments", "20", "--teams", "8",
                  "--dask", cluster.scheduler_address, cwd=strategies_folder)
    assert run.returncode == 1, run.stderr
    said = _one_line(run.stderr)
    assert said.startswith("error: the run stopped: strategy 'crashing:Crashy' (named 'even') raised RuntimeError: "
                           "no idea what to do at "), said
    assert "in turn 2 (group round 2)" in said and run.stdout == ""


@pytest.mark.parametrize("plot", ["ranking.png", "ranking.svg"])
def test_json_and_plot_on_dask_are_the_same_bytes_as_a_local_run(
    cluster: distributed.LocalCluster, strategies_folder: Path, tmp_path: Path, plot: str
) -> None:
    """A user's own strategy (the guide's) and a last batch shorter than the others (2,100 tournaments:
    2,000 and 100), on the cluster and on this machine: the same JSON and the same plot, byte for byte."""
    args = ["lab", "--strategies", "even-flair,pacers:SaveThenFlair,knockout-saver", "--tournaments", "2100",
            "--teams", "8", "--seed", "1", "--json"]
    outputs = []
    for where in (["--dask", cluster.scheduler_address], ["--workers", "1"]):
        picture = tmp_path / f"{len(outputs)}-{plot}"
        run = _sevens(*args, *where, "--plot", str(picture), cwd=strategies_folder)
        assert run.returncode == 0, run.stderr
        outputs.append((run.stdout, picture.read_bytes()))
    assert json.loads(outputs[0][0])["tournaments"] == 2100
    assert outputs[0] == outputs[1]


def test_a_worker_dying_mid_run_changes_nothing(strategies_folder: Path, gates: Path) -> None:
    """Dask plays the dead worker's batches again elsewhere: the same JSON as a local run, and
    nothing of the client's logging about the results it could not fetch."""
    args = ["lab", "--strategies", "even,gated:Marked", "--tournaments", "30", "--teams", "8", "--seed", "4", "--json"]
    with _cluster() as cluster:
        run = _start_sevens(*args, "--dask", cluster.scheduler_address, cwd=strategies_folder)
        try:
            _until(lambda: any(gates.glob("playing-*")), "a batch playing")
            os.kill(int(next(gates.glob("playing-*")).name.removeprefix("playing-")), signal.SIGKILL)
            (gates / "go").touch()
            out, err = run.communicate(timeout=600)
        finally:
            run.kill()
    assert run.returncode == 0, err
    assert "Traceback" not in err and " - distributed." not in err, err
    assert len(list(gates.glob("playing-*"))) >= 2  # the batch was played again, by another process
    local = _sevens(*args, "--workers", "1", cwd=strategies_folder)
    assert json.loads(out) == json.loads(local.stdout)


def test_a_batch_whose_workers_keep_dying_stops_the_run_in_one_line(strategies_folder: Path) -> None:
    """Dask gives up on a batch after its workers died playing it (here at the first death): that
    was a KilledWorker blamed on the strategies as if they had raised it, then a line that named no
    strategy, where a local run's names the strategies of one's own that were playing."""
    with _cluster(**{"distributed.scheduler.allowed-failures": 0}) as cluster:
        run = _sevens("lab", "--strategies", "even,gated:Dies", "--tournaments", "20", "--teams", "8", "--dask",
                      cluster.scheduler_address, cwd=strategies_folder)
    assert run.returncode == 1, run.stderr
    said = _one_line(run.stderr)
    assert said.startswith("error: the run stopped after about 0 of 20 tournaments: Dask gave up on tournaments 1 "
                           "to 20 after a worker died playing them while gated:Dies played (Dask's "), said
    assert "no table is printed" in said and run.stdout == ""


CLUSTER = """
import sys, signal
from distributed import LocalCluster
if __name__ == "__main__":
    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50)
    print(cluster.scheduler_address, flush=True)
    signal.pause()
"""


def _other_sevens(tmp_path: Path) -> Path:
    """A copy of this sevens with one comment added, as a checkout a worker started from before an edit."""
    import shutil

    copy = tmp_path / "other"
    shutil.copytree(ROOT / "src" / "sevens", copy / "sevens", ignore=shutil.ignore_patterns("__pycache__"))
    with (copy / "sevens" / "lab" / "run.py").open("a") as run:
        run.write("# an edit made after the workers started\n")
    return copy


@contextlib.contextmanager
def _cluster_in_a_process(folder: Path, *pythonpath: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """A scheduler and its workers in a process of their own (CLUSTER, run in ``folder``), importing
    from ``pythonpath``: its address and the process, killed (with its children) on leaving."""
    (folder / "cluster.py").write_text(CLUSTER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(path) for path in pythonpath)}
    elsewhere = subprocess.Popen([sys.executable, "cluster.py"], cwd=folder, env=env, stdout=subprocess.PIPE,
                                 text=True, start_new_session=True)
    try:
        assert elsewhere.stdout is not None
        yield elsewhere.stdout.readline().strip(), elsewhere
    finally:
        if elsewhere.poll() is None:
            os.killpg(elsewhere.pid, signal.SIGKILL)
        elsewhere.wait()


@contextlib.contextmanager
def _worker_of(address: str, path: Path, strategies_folder: Path) -> Iterator[None]:
    """A ``dask worker`` that imports sevens from ``path``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path), str(strategies_folder)])}
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        yield
    finally:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()


@pytest.mark.parametrize("joins", ["before the run", "during the run"])
def test_workers_running_other_sevens_code_are_refused_in_one_line_that_says_to_restart_them(
    strategies_folder: Path, tmp_path: Path, joins: str
) -> None:
    """Workers started before an edit to sevens (the version stays 0.1.0) sent back results in
    classes of another shape, and the run blamed the user's strategy ("AttributeError: 'Totals'
    object has no attribute 'by_block' ... raised while pacers:SaveThenFlair played"); with an edit
    that changes nothing it played on. A worker that joins mid-run refuses its batch the same way."""
    other = _other_sevens(tmp_path)
    args = ["lab", "--strategies", "even,pacers:SaveThenFlair", "--tournaments", "20", "--teams", "8"]
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=":0", silence_logs=50) as cluster:
        address = cluster.scheduler_address
        if joins == "before the run":
            with _worker_of(address, other, strategies_folder):
                with distributed.Client(address) as client:
                    client.wait_for_workers(1, timeout=120)
                run = _sevens(*args, "--dask", address, cwd=strategies_folder)
        else:
            err = tmp_path / "stderr"
            with err.open("w") as errors:
                started = subprocess.Popen(
                    [sys.executable, "-m", "sevens", *args, "--dask", address], cwd=strategies_folder,
                    env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, stdout=subprocess.PIPE, stderr=errors,
                    text=True)
                try:
                    _until(lambda: "no workers" in err.read_text(), "the run saying the cluster has no workers")
                    with _worker_of(address, other, strategies_folder):
                        out, _ = started.communicate(timeout=300)
                finally:
                    started.kill()
            run = subprocess.CompletedProcess(started.args, started.returncode, out,
                                              err.read_text().split("\n", 1)[1])
    assert run.returncode == 1, run.stderr
    said = _one_line(run.stderr)
    assert said.startswith(f"error: the run stopped after about 0 of 20 tournaments: the Dask workers at {address} "
                           "run other sevens code than this process"), said
    assert "restart" in said.lower() and f"dask worker {address}" in said and "by_block" not in said, said
    assert "pacers:SaveThenFlair" not in said and run.stdout == ""


def test_a_scheduler_running_other_sevens_code_is_refused_in_one_line_that_says_to_restart_it(
    strategies_folder: Path, tmp_path: Path
) -> None:
    """The scheduler reads each batch with its own sevens: one started before an edit (with its
    workers, here a copy of this sevens with a comment added) played on as if nothing differed."""
    with _cluster_in_a_process(tmp_path, _other_sevens(tmp_path), strategies_folder) as (address, _):
        run = _sevens("lab", "--strategies", "even", "--tournaments", "10", "--teams", "8", "--dask", address,
                      cwd=strategies_folder, timeout=120)
    assert run.returncode == 1, run.stderr
    said = _one_line(run.stderr)
    assert said.startswith(f"error: the run stopped after about 0 of 10 tournaments: the Dask scheduler at {address} "
                           "runs other sevens code than this process"), said
    assert "Restart it and its workers" in said and run.stdout == ""


def test_losing_the_scheduler_mid_run_says_so_in_one_line(strategies_folder: Path, gates: Path, tmp_path: Path) -> None:
    """The scheduler (with its workers) killed while a batch plays: the client logged the traceback of
    its attempt to reconnect, and the run ended with 'error: in <TCP (closed) ConnectionPool.gather ...>'."""
    with _cluster_in_a_process(tmp_path, ROOT / "src", strategies_folder) as (address, elsewhere):
        run = _start_sevens("lab", "--strategies", "even,gated:Marked", "--tournaments", "20", "--teams", "8",
                            "--dask", address, cwd=strategies_folder)
        try:
            _until(lambda: any(gates.glob("playing-*")), "a batch playing")
            os.killpg(elsewhere.pid, signal.SIGKILL)
            out, err = run.communicate(timeout=120)
        finally:
            run.kill()
    assert run.returncode == 1, err
    said = _one_line(err)
    assert said.startswith(f"error: the run stopped after about 0 of 20 tournaments: lost the connection to the Dask "
                           f"scheduler at {address} while the run played"), said
    assert out == ""


def _playing(cluster: distributed.LocalCluster) -> list[str]:
    """The batches the cluster's workers are still playing, those let go of included."""
    with distributed.Client(cluster.scheduler_address) as client:
        running = client.run(lambda dask_worker: [str(t.key) for t in dask_worker.state.tasks.values()
                                                  if t.state in ("executing", "cancelled")])
    return [key for keys in running.values() for key in keys if "_dask_batch" in key or "run_batch" in key]


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_during_a_dask_run_stops_it_in_one_line_and_the_workers_stop_playing(
    strategies_folder: Path, gates: Path, presses: int
) -> None:
    """Ctrl-C in a real terminal (the cluster is not in its process group), once or twice. The
    batches playing went on for minutes on the workers after the run had stopped."""
    with _cluster() as cluster:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,gated:Slow", "--tournaments", "100000",
                   "--teams", "8", "--dask", cluster.scheduler_address]
        with in_terminal(command, cwd=strategies_folder, env=env) as (run, main):
            _until(lambda: len(list(gates.glob("playing-*"))) == 2, "both workers playing")
            assert len(_playing(cluster)) == 2
            press_ctrl_c(main, presses)
            shown = read_until(main, rb"for a\s+shorter\s+run", 120)
            assert run.wait(timeout=120) == 130
        said = " ".join(shown.decode(errors="replace").split())
        assert re.search(r"error: interrupted after about [\d,]+ of 100,000 tournaments: no table is printed",
                         said), said
        assert "Traceback" not in said and " - distributed." not in said, said
        _until(lambda: not _playing(cluster), "the workers stopping", limit=60)  # a batch takes minutes


NO_WORKERS = ("the Dask cluster at {} has no workers (none have joined, or all have left: a worker without the same "
              "sevens as here leaves when sent a batch, and its log says so); the run waits for one: start workers "
              "(dask worker {}) or press Ctrl-C to stop\n")


def test_a_cluster_without_workers_is_said_once_and_the_run_goes_on_when_one_joins(
    strategies_folder: Path, tmp_path: Path
) -> None:
    """A scheduler with no workers: the run waited with the bar at 0 and no word, forever. It now
    says so once, on stderr, keeps waiting, and gives a local run's results once a worker joins."""
    args = ["lab", "--strategies", "even,random", "--tournaments", "30", "--teams", "8", "--seed", "6", "--json"]
    said = NO_WORKERS
    err = tmp_path / "stderr"
    with distributed.LocalCluster(n_workers=0, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as cluster:
        address = cluster.scheduler_address
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        with err.open("w") as errors:
            run = subprocess.Popen([sys.executable, "-m", "sevens", *args, "--dask", address], cwd=strategies_folder,
                                   env=env, stdout=subprocess.PIPE, stderr=errors, text=True)
            try:
                _until(lambda: "no workers" in err.read_text(), "the run saying the cluster has no workers")
                time.sleep(3)  # a few more looks at the cluster: each would say it again
                assert err.read_text() == said.format(address, address)
                cluster.scale(1)
                out, _ = run.communicate(timeout=600)
            finally:
                run.kill()
    assert run.returncode == 0, err.read_text()
    assert err.read_text() == said.format(address, address)
    local = _sevens(*args, "--workers", "1", cwd=strategies_folder)
    assert json.loads(out) == json.loads(local.stdout)


def test_the_only_worker_dying_mid_run_is_said_and_the_run_goes_on_when_another_joins(
    strategies_folder: Path, tmp_path: Path
) -> None:
    """A run of many short batches whose only worker died: the run sat fetching a finished batch's
    result from the dead worker (Dask plays it again, once a worker comes), where it never looked
    at the cluster, and said nothing. Now it says so once and goes on when another worker joins.
    The wait for a worker is not taken for a slow pace: that said 'about 30 min to go at this pace
    (222 tournaments a second)' of a run that played at 13,000 a second once a worker joined."""
    args = ["lab", "--strategies", "even,random", "--tournaments", "400000", "--teams", "8", "--seed", "8", "--json"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    err = tmp_path / "stderr"
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=":0", silence_logs=50) as cluster:
        address = cluster.scheduler_address
        worker = [sys.executable, "-m", "dask", "worker", address, "--no-nanny", "--nthreads", "1"]
        alone = subprocess.Popen(worker, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with err.open("w") as errors:
            run = subprocess.Popen([sys.executable, "-m", "sevens", *args, "--dask", address], cwd=strategies_folder,
                                   env=env, stdout=subprocess.PIPE, stderr=errors, text=True)
            try:
                with distributed.Client(address) as client:
                    client.wait_for_workers(1, timeout=120)
                    # A batch's result held on the worker: finished, and not yet fetched and let go of.
                    _until(lambda: any(client.has_what().values()), "a finished batch on the worker")
                alone.kill()
                _until(lambda: "no workers" in err.read_text(), "the run saying the cluster has no workers")
                joined = time.monotonic()
                cluster.scale(1)
                out, _ = run.communicate(timeout=600)
                ended = time.monotonic()
            finally:
                run.kill()
                alone.kill()
    assert run.returncode == 0, err.read_text()
    # Nearly all of the run is played once the new worker has joined; its start counted in, this
    # pace is the least it had. A note of how long, if the run was slow enough for one, says a pace
    # near that (a shared, busy machine: within a factor of three); else it says the cluster has no
    # workers, once, and nothing more.
    least = 400_000 / (ended - joined)
    paces = [int(rate.replace(",", "")) for rate in re.findall(r"(?m)^note: about .* to go at this pace \(([\d,]+) "
                                                               r"tournaments a second\); Ctrl-C stops the run$",
                                                               err.read_text())]
    assert all(least / 3 <= rate <= least * 3 for rate in paces), (least, err.read_text())
    told = re.sub(r"(?m)^note: about .* to go at this pace .*\n", "", err.read_text())
    assert told == NO_WORKERS.format(address, address)
    assert json.loads(out) == json.loads(_sevens(*args, "--workers", "2", cwd=strategies_folder).stdout)


def test_a_scheduler_without_sevens_stops_the_run_in_one_line(strategies_folder: Path, tmp_path: Path) -> None:
    """Dask's scheduler reads each batch, so it needs sevens too (here a package of that name without
    its lab, as another version would lack a module): the run ended in a traceback ending 'RuntimeError:
    Error during deserialization of the task graph', which named neither sevens nor the fix."""
    (tmp_path / "sevens").mkdir()
    (tmp_path / "sevens" / "__init__.py").write_text("")
    with _cluster_in_a_process(tmp_path, tmp_path) as (address, _):
        run = _sevens("lab", "--strategies", "even", "--tournaments", "10", "--teams", "8", "--dask", address,
                      cwd=strategies_folder, timeout=120)
    assert run.returncode == 1, run.stderr
    assert _one_line(run.stderr) == (
        f"error: the run stopped after about 0 of 10 tournaments: the Dask scheduler at {address} cannot read the "
        "run's batches (ModuleNotFoundError: No module named 'sevens.lab'): the scheduler imports sevens to read "
        "them, as the workers do to play them; install the same sevens as here where the scheduler runs (and on "
        "every worker), and start it again; no table is printed, since a part of a run depends on which "
        "batches happened to finish")


def _to_nothing_listening() -> tuple[str, list[str], dict[str, str]]:
    """An address where nothing listens, a short run on it and its environment."""
    import socket

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{free.getsockname()[1]}"  # nothing listens there once closed
    command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--tournaments", "100",
               "--teams", "8", "--dask", address]
    return address, command, {**os.environ, "PYTHONPATH": str(ROOT / "src")}


@contextlib.contextmanager
def _never_answering() -> Iterator[str]:
    """An address whose connections are neither accepted nor refused: a port whose queue of
    connections waiting to be accepted is full, so that the system drops any more, as a firewall does."""
    import socket

    with socket.socket() as full:
        full.bind(("127.0.0.1", 0))
        full.listen(0)
        waiting = [socket.socket() for _ in range(2)]  # one waits to be accepted, the next fills the queue
        for client in waiting:
            client.setblocking(False)
            client.connect_ex(full.getsockname())
        time.sleep(0.2)
        try:
            yield f"tcp://127.0.0.1:{full.getsockname()[1]}"
        finally:
            for client in waiting:
                client.close()


def test_a_scheduler_that_is_not_there_is_said_while_connecting_then_in_one_line(strategies_folder: Path) -> None:
    """Nothing listening at the address: the run sat 30 s (Dask's connect timeout) under a bar that
    said 'simulating', then said so. It says what it is doing while it does, gives up after 10 s, and
    names the address and what to check."""
    address, command, env = _to_nothing_listening()
    with in_terminal(command, cwd=strategies_folder, env=env) as (run, main):
        shown = read_until(main, rb"error:[^\n]*\n", 120)
        assert run.wait(timeout=60) == 2
    text = shown.decode(errors="replace")
    assert f"connecting to {address}" in text and "0/100" in text, text[-500:]
    assert "simulating" not in text, text[-500:]
    said = _sevens(*command[3:], cwd=strategies_folder).stderr
    assert "Traceback" not in said and " - distributed." not in said, said
    assert said.splitlines() == [
        f"nothing listens at {address} yet: waiting up to 10 s for a Dask scheduler to start there (Ctrl-C to stop)",
        f"error: nothing listens at {address}: the connection was refused for 10 s; check that the "
        "scheduler is running on that host and that the port is the one it printed as it started (tcp://HOST:PORT, "
        f"8786 unless told otherwise), or start one there (dask scheduler --port {address.rpartition(':')[2]}, and workers: "
        f"dask worker {address}), or leave out --dask to run on this machine",
    ]


def test_a_scheduler_started_just_after_the_run_is_waited_for_and_played_on(strategies_folder: Path) -> None:
    """``dask scheduler & sevens lab --dask ...``: the scheduler takes a second or two to listen,
    and the run gave up at once, "nothing listens". It now says it waits (up to the connect timeout,
    10 s) and plays on the scheduler once it listens, with a local run's results."""
    address, command, env = _to_nothing_listening()
    port = address.rpartition(":")[2]
    run = subprocess.Popen([*command, "--seed", "3", "--json"], cwd=strategies_folder, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cluster: list[subprocess.Popen[str]] = []
    try:
        assert run.stderr is not None
        waiting = run.stderr.readline()
        assert waiting == (f"nothing listens at {address} yet: waiting up to 10 s for a Dask scheduler to start "
                           "there (Ctrl-C to stop)\n"), waiting + run.stderr.read()
        on_path = {**env, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(strategies_folder)])}
        for program in (["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", port,
                         "--dashboard-address", ":0"], ["distributed.cli.dask_worker", address, "--nthreads", "1"]):
            cluster.append(subprocess.Popen([sys.executable, "-m", *program], env=on_path, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, start_new_session=True, text=True))
        out, err = run.communicate(timeout=300)
    finally:
        run.kill()
        for process in cluster:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert run.returncode == 0, err
    local = _sevens(*command[3:-2], "--seed", "3", "--json", "--workers", "1", cwd=strategies_folder)
    assert json.loads(out) == json.loads(local.stdout)


def test_a_refused_address_is_waited_on_for_the_connect_timeout_not_longer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Dask retries a refused connection until its timeout, and its retries hide the refusal: the
    run waited its whole timeout and a second more, then said no answer came. A plain connection
    tried beside Dask's tells a refusal; the run says it waits for a scheduler to start there, and
    gives up once the connect timeout (3 s here) is up, saying the connection was refused."""
    import socket

    import dask

    from sevens.lab.on_dask import run_on_dask

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{free.getsockname()[1]}"  # nothing listens there once closed
    started = time.monotonic()
    with dask.config.set({"distributed.comm.timeouts.connect": "3s"}), pytest.raises(
        ValueError, match=f"^nothing listens at {address}: the connection was refused for 3 s; "
    ):
        run_on_dask(address, iter([]), {}, None, lambda spec, totals: None)
    assert 3 <= time.monotonic() - started < 3 + 2.5
    assert capsys.readouterr().err == (f"nothing listens at {address} yet: waiting up to 3 s for a Dask scheduler "
                                       "to start there (Ctrl-C to stop)\n")


def test_a_host_name_that_cannot_be_found_is_said_at_once_as_such() -> None:
    """A mistyped host name waited Dask's whole connect timeout (it retries a name that does not
    resolve too), then was said to give no answer, 'as when the host is down': the name is what to fix.
    Names under .invalid never resolve (RFC 6761)."""
    from sevens.lab.on_dask import CONNECT_TIMEOUT, run_on_dask

    address = "tcp://no-such-scheduler.invalid:8786"
    started = time.monotonic()
    with pytest.raises(ValueError) as caught:
        run_on_dask(address, iter([]), {}, None, lambda spec, totals: None)
    assert time.monotonic() - started < CONNECT_TIMEOUT / 2
    said = str(caught.value)
    assert said.startswith(f"the host of {address} cannot be found: "), said
    assert said.endswith("; check the host name (or give the scheduler's IP address, as dask scheduler prints it), or "
                         "leave out --dask to run on this machine"), said


def test_an_address_that_never_answers_is_told_apart_from_one_that_refuses(strategies_folder: Path) -> None:
    """A connection neither accepted nor refused (a host down, a firewall that drops it) was said as
    the one refused by a machine where nothing listens, 'no answer within 10 s' for both, and the
    refused one is an answer. Here with Dask's connect timeout set to 3 s."""
    with _never_answering() as address:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"}
        ran = subprocess.run([sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--tournaments",
                              "100", "--teams", "8", "--dask", address], cwd=strategies_folder, env=env,
                             capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 2
    assert _one_line(ran.stderr) == (
        f"error: no answer from {address} within 3 s: the connection was neither accepted nor refused, as when the "
        "host is down or is not the one meant, or a firewall drops the connection without a word; check the host "
        "name or IP address, that the machine is up and can be reached from here, and that its firewall lets the "
        "port through, or leave out --dask to run on this machine"
    )


def test_with_json_a_terminal_is_told_of_the_connecting_and_stdout_holds_nothing_else(
    strategies_folder: Path, tmp_path: Path, cluster: distributed.LocalCluster
) -> None:
    """--json drew no progress bar, so nothing said 'connecting to ADDRESS': ten silent seconds before
    the error where nothing answers. The note is on stderr (the terminal), and goes once the run
    connects; stdout, a file here, holds the JSON alone."""
    address, command, env = _to_nothing_listening()
    out = tmp_path / "out.json"
    with out.open("wb") as stdout, in_terminal([*command, "--json"], cwd=strategies_folder, env=env,
                                               stdout=stdout) as (run, main):
        shown = read_until(main, rb"error:[^\n]*\n", 120)
        assert run.wait(timeout=60) == 2
    text = shown.decode(errors="replace")
    assert f"connecting to {address}" in text, text[-500:]
    assert text.rindex(f"connecting to {address}") < text.index(f"error: nothing listens at {address}")
    assert out.read_bytes() == b""
    with out.open("wb") as stdout, in_terminal([*command[:-1], cluster.scheduler_address, "--json"],
                                               cwd=strategies_folder, env=env, stdout=stdout) as (run, main):
        shown = read_until(main, rb"(?!)", 300)  # all it shows, until it ends and the terminal closes
        assert run.wait(timeout=60) == 0, shown[-500:]
    assert json.loads(out.read_text())["tournaments"] == 100
    assert b"error" not in shown and b"Traceback" not in shown, shown[-500:]


def test_ctrl_c_while_connecting_says_so_and_not_to_run_fewer_tournaments(strategies_folder: Path) -> None:
    """Ctrl-C while the run connected said 'interrupted after about 0 of 100 tournaments ... with a
    smaller --tournaments for a shorter run': no length of run was at fault."""
    _, command, env = _to_nothing_listening()
    # An address that never answers: a refused one is said at once, before Ctrl-C could come.
    with _never_answering() as address, in_terminal([*command[:-1], address], cwd=strategies_folder,
                                                    env=env) as (run, main):
        shown = read_until(main, rb"connecting to", 120)
        assert b"connecting to" in shown, shown[-500:]
        press_ctrl_c(main, 2)
        shown = read_until(main, rb"this\s+machine", 60)
        assert run.wait(timeout=60) == 130
    said = " ".join(shown.decode(errors="replace").split())
    assert (f"error: interrupted while connecting to the Dask scheduler at {address}, before any tournament was "
            "played, so no table is printed; check that the scheduler is running") in said, said
    assert "--tournaments" not in said and "Traceback" not in said, said


BUSY_SCHEDULER = """
import asyncio

from distributed.core import Server


async def busy(comm=None, **message):
    await asyncio.sleep(3600)


async def main():
    server = Server({"register-client": busy, "identity": busy})
    await server.listen("tcp://127.0.0.1:0")
    print(server.address, flush=True)
    await asyncio.sleep(3600)


asyncio.run(main())
"""
"""A Dask server that answers the greeting and never gets round to a client's requests (who it is,
registering it), as a scheduler too busy to."""


def test_ctrl_c_as_the_client_registers_says_the_runs_line_alone(strategies_folder: Path) -> None:
    """Ctrl-C while the scheduler had yet to register the run's client: under the run's line came
    distributed's 'distributed.comm.tcp - WARNING - Closing dangling stream in <TCP ...>'."""
    with subprocess.Popen([sys.executable, "-c", BUSY_SCHEDULER], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True) as scheduler:
        try:
            assert scheduler.stdout is not None
            address = scheduler.stdout.readline().strip()
            command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--tournaments", "100",
                       "--teams", "8", "--dask", address]
            with in_terminal(command, cwd=strategies_folder, env={**os.environ, "PYTHONPATH": str(ROOT / "src")}) as (
                run, main
            ):
                shown = read_until(main, rb"connecting to", 120)
                assert b"connecting to" in shown, shown[-500:]
                time.sleep(1)  # greeted, and waiting to be registered
                press_ctrl_c(main, 1)
                shown = read_until(main, rb"(?!)", 60)  # all it shows, until it ends and the terminal closes
                assert run.wait(timeout=60) == 130, shown[-1000:]
        finally:
            scheduler.kill()
    said = shown.decode(errors="replace")
    assert "dangling" not in said and "distributed." not in said, said[-500:]
    last = " ".join(said[said.index("error: "):].split())
    assert last.startswith(f"error: interrupted while connecting to the Dask scheduler at {address}, before any "
                           "tournament was played"), last
    assert last.endswith("or leave out --dask to run on this machine"), last


def test_ctrl_c_while_the_cluster_has_no_workers_says_to_start_some(strategies_folder: Path) -> None:
    """Ctrl-C while the run waited for a worker advised a smaller --tournaments, which would have
    waited just the same."""
    with distributed.LocalCluster(n_workers=0, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as cluster:
        address = cluster.scheduler_address
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        command = [sys.executable, "-m", "sevens", "lab", "--strategies", "even,random", "--tournaments", "100",
                   "--teams", "8", "--dask", address]
        with in_terminal(command, cwd=strategies_folder, env=env) as (run, main):
            shown = read_until(main, rb"Ctrl-C\s+to\s+stop", 120)
            assert b"Ctrl-C" in shown, shown[-500:]
            shown += read_until(main, rb"no workers at [^\n]*, waiting", 30)
            press_ctrl_c(main, 1)
            shown += read_until(main, rb"this\s+machine", 60)
            assert run.wait(timeout=60) == 130
    said = " ".join(shown.decode(errors="replace").split())
    assert f"no workers at {address}, waiting" in said, said[-500:]
    assert re.search(
        rf"error: interrupted after about 0 of 100 tournaments: no table is printed, since a part of a run "
        rf"depends on which batches happened to finish; the Dask cluster at {re.escape(address)} had no workers, so "
        rf"the run was waiting for one: start workers \(dask worker {re.escape(address)}\) and run again", said), said
    assert "--tournaments" not in said and "Traceback" not in said, said


def test_the_dashboards_address_given_for_the_schedulers_is_said_in_one_line(strategies_folder: Path) -> None:
    """The dashboard's port accepts the connection and never answers Dask's greeting: the run waited
    under its bar for as long as the dashboard ran (Dask's connect timeout does not cover the greeting)."""
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address="127.0.0.1:0",
                                  silence_logs=50) as cluster:
        dashboard = "tcp://" + cluster.dashboard_link.split("://")[1].split("/")[0]
        ran = _sevens("lab", "--strategies", "even,random", "--tournaments", "100", "--teams", "8", "--dask",
                      dashboard, cwd=strategies_folder, timeout=120)
    assert ran.returncode == 2
    assert ran.stderr == (
        f"error: something accepts connections at {dashboard}, but not as a Dask scheduler (it did not answer Dask's "
        "greeting): "
        "is it the dashboard's port (8787 unless told otherwise) or another program's? Give the address the "
        "scheduler printed as it started (tcp://HOST:PORT, port 8786 unless told otherwise), or leave out --dask "
        "to run on this machine\n"
    )


def test_a_tls_cluster_set_up_in_dasks_configuration_runs_as_a_local_run_does(
    strategies_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cluster that takes TLS only, with the client's certificate named in Dask's configuration (as
    its documentation has it set up): the run's check of the address greeted it without that
    configuration and refused the address as one 'Dask cannot connect to', where Dask's own client
    connects. Certificates made here with openssl."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    roles = {f"tls_{role}_{part}": str(path) for role in ("scheduler", "worker", "client")
             for part, path in (("cert", cert), ("key", key))}
    security = distributed.Security(tls_ca_file=str(cert), require_encryption=True, **roles)  # type: ignore[no-untyped-call]
    for name, value in (("CA_FILE", cert), ("CLIENT__CERT", cert), ("CLIENT__KEY", key)):
        monkeypatch.setenv(f"DASK_DISTRIBUTED__COMM__TLS__{name}", str(value))
    monkeypatch.setenv("DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION", "True")
    args = ["lab", "--strategies", "even,random", "--tournaments", "300", "--teams", "8", "--seed", "5", "--json"]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, protocol="tls://",
                                  security=security, dashboard_address=":0", silence_logs=50) as tls:
        assert tls.scheduler_address.startswith("tls://")
        on_tls = _sevens(*args, "--dask", tls.scheduler_address, cwd=strategies_folder)
    assert on_tls.returncode == 0, on_tls.stderr
    assert json.loads(on_tls.stdout) == json.loads(_sevens(*args, "--workers", "1", cwd=strategies_folder).stdout)


def test_a_refused_address_is_said_as_refused_whenever_the_timeout_falls() -> None:
    """Dask's connect retries until its timeout, and when the timeout cut an attempt short, what it
    raised carried that cancellation, not the refusals before it: a port where nothing listens was
    then said to give no answer (at 1.75 s, two runs in three; once in a full CI run at 10 s).
    Each timeout here is tried twice."""
    import socket

    import dask

    from sevens.lab.on_dask import run_on_dask

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{free.getsockname()[1]}"  # nothing listens there once closed
    said = []
    timeouts = ("1.6s", "1.75s", "1.9s", "2s", "2.2s", "2.5s") * 2
    for timeout in timeouts:
        with dask.config.set({"distributed.comm.timeouts.connect": timeout}), pytest.raises(ValueError) as refused:
            run_on_dask(address, iter([]), {}, None, lambda spec, totals: None)
        said.append(str(refused.value).split(":")[0])
    assert said == ["nothing listens at tcp"] * len(timeouts)
