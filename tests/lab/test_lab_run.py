"""Strategy tournaments: reproducible for any number of workers, on Dask, through the CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
import typer
from threadpoolctl import threadpool_info
from typer.testing import CliRunner

from sevens.cli import lab as lab_cli
from sevens.lab.cores import available_cores
from sevens.lab.registry import resolve
from sevens.lab.run import (
    BATCH_SIZE,
    MAX_TOURNAMENTS,
    WorkersCut,
    _specs,
    check_run,
    default_workers,
    run_lab,
    seat_block,
    seating_key,
    wilson_interval,
)
from sevens.lab.simulate import Sampler
from sevens.lab.strategies import BatchView, EvenPacing, Orders

NAMES = ["even", "group-blitz", "odds-aware"]


def _same(a: object, b: object) -> None:
    for field in ("entries", "titles", "finals", "group_points", "group_points_sq", "scrum_left", "scrum_left_sq"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    # The sums by block too, whichever batches (sharing a block of tournaments) finished first.
    one, other = a.by_block.whole(), b.by_block.whole()  # type: ignore[attr-defined]
    for field in ("blocks", "n_sq", "y_sq", "y_n"):
        assert np.array_equal(getattr(one, field), getattr(other, field)), field


def test_one_and_two_workers_give_identical_results() -> None:
    """Per-batch seeds from SeedSequence.spawn: the same seed gives the same totals for 1 and 2 workers."""
    one = run_lab(NAMES, 300, seed=42, teams=8, workers=1, batch_size=50)
    two = run_lab(NAMES, 300, seed=42, teams=8, workers=2, batch_size=50)
    _same(one.totals, two.totals)
    other = run_lab(NAMES, 300, seed=43, teams=8, workers=1, batch_size=50)
    assert not np.array_equal(one.totals.titles, other.totals.titles) or not np.array_equal(
        one.totals.group_points, other.totals.group_points
    )


def test_a_local_dask_cluster_gives_the_same_results() -> None:
    """--dask: batches run on a Dask cluster (a light in-process one here) and sum to the same totals."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        on_dask = run_lab(NAMES, 200, seed=7, teams=8, dask=cluster.scheduler_address, batch_size=50)
    local = run_lab(NAMES, 200, seed=7, teams=8, batch_size=50)
    _same(on_dask.totals, local.totals)


def test_every_strategy_sits_in_every_seat_equally_often() -> None:
    """Fair seating: over each block of S tournaments each strategy plays each seat exactly once,
    however the blocks fall across batches."""
    seats = seat_block(3, 16, 6, 6, key=seating_key(4))
    for seat in range(16):
        assert sorted(np.bincount(seats[:, seat], minlength=3).tolist()) == [2, 2, 2]
    assert np.array_equal(seats, np.vstack([seat_block(3, 16, 6, 4, key=seating_key(4)), seat_block(3, 16, 10, 2, key=seating_key(4))]))


def test_every_strategy_meets_every_other_in_its_group_equally_often() -> None:
    """Fair seating: each block draws its own order of the strategies, so no strategy always has
    the same neighbours in its group (with one fixed order, the ranking of a run depended on the
    order the strategies were named in)."""
    strategies, blocks = 8, 4000
    seats = seat_block(strategies, 16, 0, strategies * blocks, key=seating_key(9))
    groups = seats.reshape(-1, 4, 4)
    together = np.zeros((strategies, strategies))
    for a in range(strategies):
        has_a = (groups == a).any(axis=2)
        for b in range(strategies):
            if a != b:
                together[a, b] = (has_a & (groups == b).any(axis=2)).mean()
    shares = together[~np.eye(strategies, dtype=bool)]
    assert shares.max() - shares.min() < 0.1 * shares.mean(), together.round(3)
    assert not np.array_equal(seat_block(strategies, 16, 0, 8, key=1), seat_block(strategies, 16, 0, 8, key=2))


def test_the_ranking_does_not_depend_on_the_order_of_the_names() -> None:
    """Named in another order, the same strategies get the same rates within the noise."""
    names = ["even", "group-blitz", "knockout-saver", "even-flair", "random", "even-force"]
    one = run_lab(names, 12000, seed=3, batch_size=2000)
    other = run_lab([names[i] for i in (3, 0, 5, 1, 4, 2)], 12000, seed=4, batch_size=2000)
    for name in names:
        a = next(r for r in one.rows if r.name == name)
        b = next(r for r in other.rows if r.name == name)
        half_widths = (a.title_high - a.title_low + b.title_high - b.title_low) / 2
        assert abs(a.title_rate - b.title_rate) < 1.5 * half_widths, name


def test_against_a_field_each_strategy_plays_one_seat_in_turn() -> None:
    """--field: every seat but one is the field's; over S * teams consecutive tournaments (from any
    start) each of the S strategies plays each seat exactly once."""
    strategies, teams = 3, 8
    seats = seat_block(strategies + 1, teams, 7, strategies * teams, field=True)
    alone = seats != strategies
    assert (alone.sum(axis=1) == 1).all()
    played = {(int(seats[i, t]), t) for i, t in zip(*np.nonzero(alone), strict=True)}
    assert played == {(s, t) for s in range(strategies) for t in range(teams)}


def test_a_field_run_is_the_same_for_any_workers_and_names_its_field() -> None:
    names = ["even-flair@0.5", "even-flair", "even-flair@2"]
    one = run_lab(names, 240, seed=3, teams=8, workers=1, batch_size=50, field="even-flair")
    two = run_lab(names, 240, seed=3, teams=8, workers=2, batch_size=50, field="even-flair")
    _same(one.totals, two.totals)
    assert one.totals.entries.tolist() == [80, 80, 80, 240 * 7]
    assert int(one.totals.titles.sum()) == 240
    assert sorted(row.name for row in one.rows) == sorted([*names, "even-flair (field)"])
    assert one.to_dict()["field"] == "even-flair"
    with pytest.raises(ValueError, match="no strategy called 'nope'"):
        run_lab(names, 10, seed=3, field="nope")


def test_titles_sum_to_the_tournaments_and_rates_are_per_entry() -> None:
    """Every tournament has exactly one champion; with one strategy everywhere the rate is 1/teams."""
    result = run_lab(["even"], 100, seed=1, teams=8, batch_size=40)
    assert int(result.totals.titles.sum()) == 100
    assert result.rows[0].title_rate == pytest.approx(1 / 8)
    assert int(result.totals.finals.sum()) == 200


def test_unknown_strategy_and_bad_counts_are_refused() -> None:
    """Clear errors naming what is wrong."""
    with pytest.raises(ValueError, match="no strategy called 'nope'"):
        run_lab(["nope"], 10, seed=1)
    with pytest.raises(ValueError, match="at least 1"):
        run_lab(["even"], 0, seed=1)
    with pytest.raises(ValueError, match="R6"):
        run_lab(["even"], 10, seed=1, teams=12)
    with pytest.raises(ValueError, match="more than one run counts exactly"):
        run_lab(["even"], MAX_TOURNAMENTS + 1, seed=1)
    with pytest.raises(ValueError, match=r"even-flair and even-flair@1\.0 are the same strategy"):
        run_lab(["even-flair", "even-flair@1.0", "even-flair@1.5"], 10, seed=1)
    run_lab(["even-flair", "even-flair@1.5", "even"], 10, seed=1, batch_size=10)  # other weights are others


def test_batches_are_made_as_they_are_sent_with_the_seeds_of_spawn() -> None:
    """A run of 10^12 tournaments used to build all its 5 * 10^8 batches (and their seeds) before
    the first one ran, and filled the memory; now each is made when it is sent out, with the very
    seed SeedSequence(seed).spawn gives it, so results are those of before."""
    specs = _specs(("even",), MAX_TOURNAMENTS, 7, 16, BATCH_SIZE, Sampler.TABLES, 1, False)
    first = [next(specs) for _ in range(5)]
    spawned = np.random.SeedSequence(7).spawn(5)
    for spec, child in zip(first, spawned, strict=True):
        assert (spec.seed.generate_state(4) == child.generate_state(4)).all()
    assert [s.start for s in first] == [j * BATCH_SIZE for j in range(5)]


def test_module_path_registration() -> None:
    """A strategy can be named by 'module:attribute' (a batch strategy class or a one-decision bot)."""
    assert resolve("sevens.lab.strategies:RandomPacing").name == "random"
    assert resolve("sevens.bots.smart:OddsAware").name == "odds-aware"
    with pytest.raises(ValueError, match=r"sevens\.lab\.strategies \(.*strategies\.py\) has no 'Nope'; it has the "
                                         r"batch strategies .*RandomPacing"):
        resolve("sevens.lab.strategies:Nope")


BLAS_THREADS_SEEN: list[int] = []


def _blas_threads() -> list[int]:
    return [int(pool["num_threads"]) for pool in threadpool_info() if pool["user_api"] == "blas"]


class BlasWatcher:
    """Even pacing that notes how many threads BLAS may use while the batch decides."""

    name = "blas-watcher"

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        BLAS_THREADS_SEEN.extend(_blas_threads())
        return EvenPacing().orders(view, rng)


def test_batches_run_with_one_blas_thread() -> None:
    """The odds' many small products run on one BLAS thread inside a batch (BLAS threads that
    spin while they wait took the cores from the other workers), and the limit ends with it."""
    outside = _blas_threads()
    BLAS_THREADS_SEEN.clear()
    run_lab(["even", f"{__name__}:BlasWatcher"], 8, seed=1, teams=8, workers=1, batch_size=4)
    assert BLAS_THREADS_SEEN and set(BLAS_THREADS_SEEN) == {1}
    assert _blas_threads() == outside


def test_warm_up_leaves_the_compiled_loop_ready() -> None:
    """warm_up compiles (or loads from numba's disk cache) the loop the batches will call, so that
    the CLI can say so before its progress bar starts, and workers do not each compile it."""
    script = (
        "from sevens.lab import kernels\n"
        "from sevens.lab.run import warm_up\n"
        "assert not kernels.play_tournaments.signatures\n"
        "assert warm_up(8)\n"
        "print(len(kernels.play_tournaments.signatures))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert int(done.stdout) == 1


def _app() -> typer.Typer:
    app = typer.Typer()
    lab_cli.register(app)

    @app.command()
    def other() -> None:  # a second command keeps typer from collapsing the app into 'lab'
        pass

    return app


def test_cli_json_and_plot(tmp_path: Path) -> None:
    """sevens lab --strategies a,b --tournaments N --seed S --json --plot FILE."""
    plot = tmp_path / "ranking.svg"
    out = CliRunner().invoke(
        _app(),
        ["lab", "--strategies", "even,random", "--tournaments", "50", "--seed", "3", "--teams", "8", "--json", "--plot", str(plot)],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["tournaments"] == 50
    assert {r["strategy"] for r in data["results"]} == {"even", "random"}
    assert plot.read_text().lstrip().startswith("<?xml")


def test_cli_field_and_weights_plot(tmp_path: Path) -> None:
    """sevens lab --strategies one strategy at several knockout weights --field F --plot: the table
    says what the field is, and the plot is drawn against the weight."""
    plot = tmp_path / "weights.svg"
    out = CliRunner().invoke(
        _app(),
        ["lab", "--strategies", "even@0.5,even,even@2", "--field", "even", "--tournaments", "60", "--teams", "8",
         "--plot", str(plot)],
    )
    assert out.exit_code == 0, out.output
    assert "field of even" in " ".join(out.stdout.split()) and "even (field)" in out.stdout
    assert "knockout weight" in plot.read_text()
    leaning = CliRunner().invoke(
        _app(),
        ["lab", "--strategies", "field-reader@1,field-reader,field-reader@2", "--tournaments", "30", "--teams", "8",
         "--plot", str(plot), "--overwrite"],
    )
    assert leaning.exit_code == 0, leaning.output
    assert "field-reader leans toward" in plot.read_text()
    bad = CliRunner().invoke(_app(), ["lab", "--strategies", "even", "--field", "even@x", "--tournaments", "10"])
    assert bad.exit_code == 2 and "knockout weight" in bad.stderr


@pytest.mark.parametrize("teams", [8, 16])
@pytest.mark.parametrize("field", [False, True])
def test_the_fewest_tournaments_a_run_takes_are_the_fewest_that_seat_every_strategy(teams: int, field: bool) -> None:
    """For 1 to 40 strategies, check_run's least number of tournaments is the least for which
    seat_block seats every strategy at least once, whatever the seed's order; and a multiple of
    the number its message gives seats each strategy in every seat equally often."""
    for count in range(1, 41):
        names = [f"even-flair@{1 + i / 100:.2f}" for i in range(count)]
        seated = count + 1 if field else count
        least = max(
            next(n for n in range(1, 100)
                 if set(range(count)) <= set(seat_block(seated, teams, 0, n, field=field, key=key).ravel().tolist()))
            for key in (0, 7, 12345)
        )
        check_run(names, least, teams=teams, field="even" if field else None)
        if least > 1:
            with pytest.raises(ValueError, match=f"need at least {least} tournaments"):
                check_run(names, least - 1, teams=teams, field="even" if field else None)
        period = count * teams if field else count
        seats = seat_block(seated, teams, 0, 2 * period, field=field, key=7)
        for strategy in range(count):
            assert len(set((seats == strategy).sum(axis=0).tolist())) == 1, (count, strategy)


def test_cli_table_and_errors() -> None:
    """The table names every strategy; a bad name ends in a one-line error, exit code 2."""
    runner = CliRunner()
    out = runner.invoke(_app(), ["lab", "--strategies", "even,knockout-saver", "--tournaments", "30", "--teams", "8"])
    assert out.exit_code == 0, out.output
    assert "knockout-saver" in out.stdout and "±" in out.stdout
    bad = runner.invoke(_app(), ["lab", "--strategies", "even,nope", "--tournaments", "10"])
    assert bad.exit_code == 2
    assert bad.stderr.startswith("error: ") and "nope" in bad.stderr
    # Counts and sizes are refused before anything starts (no progress bar, no compiling).
    for args, says in ((["--teams", "12"], "R6"), (["--tournaments", "0"], "at least 1"), (["--workers", "0"], "workers"),
                       (["--seed", "-1"], "seed must be 0 or more"), (["--strategies", "even,random,even"], "even named more than once")):
        refused = runner.invoke(_app(), ["lab", "--strategies", "even", *args])
        assert refused.exit_code == 2 and refused.stderr.startswith("error: ") and says in refused.stderr, args
    # A strategy named twice is a mistake in --strategies: the refusal leads with it, as others of a name do.
    for names in ("even,random,even", "even-flair,even-flair@1.0"):
        twice = runner.invoke(_app(), ["lab", "--strategies", names, "--tournaments", "10"])
        assert twice.exit_code == 2 and twice.stderr.startswith("error: --strategies: "), twice.stderr


def test_cli_help_names_the_built_in_strategies_and_the_default_workers() -> None:
    from sevens.lab.registry import BUILTINS

    out = CliRunner().invoke(_app(), ["lab", "--help"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.stdout.replace("│", " ").split())  # the help's box wraps lines
    missing = [name for name in BUILTINS if name not in text]
    assert not missing, missing
    assert f"one per batch of {BATCH_SIZE:,} tournaments" in text


def test_default_workers_are_one_per_core_but_no_more_than_the_batches() -> None:
    cores = available_cores()  # taskset's, where the run is started under it
    assert default_workers(BATCH_SIZE) == 1
    assert default_workers(BATCH_SIZE + 1) == min(2, cores)
    assert default_workers(BATCH_SIZE * 100) == cores
    assert default_workers(10, batch_size=1) == min(10, cores)


def test_cli_a_strategy_of_ones_own_that_raises_stops_the_run_in_one_line(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Code the user wrote may fail mid-run: one line naming it and what it raised, exit 1, not a
    traceback through the lab's internals."""
    (tmp_path / "crashing_pacer.py").write_text(
        "from sevens.bots.strategies import EvenSpread\n"
        "class Crashy(EvenSpread):\n"
        "    name = 'crashy'\n"
        "    def order(self, view, rng):\n"
        "        if view.turn >= 2:\n"
        "            raise RuntimeError('no idea what to do')\n"
        "        return super().order(view, rng)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    out = CliRunner().invoke(
        _app(), ["lab", "--strategies", "even,crashing_pacer:Crashy", "--tournaments", "20", "--workers", "1"]
    )
    assert out.exit_code == 1, out.output
    said = " ".join(out.output.split())
    assert said.startswith(
        "error: the run stopped: strategy 'crashing_pacer:Crashy' (named 'even') raised RuntimeError: no idea what to "
        f"do at {tmp_path / 'crashing_pacer.py'}, line 6, deciding for team "  # a bot decides for one team
    ), said
    assert " SCRUM, in turn 2 (group round 2); " in said, said
    assert "Traceback" not in out.output


@pytest.mark.parametrize("k, n", [(0, 1), (0, 10), (1, 10), (5, 10), (10, 10), (3, 1000), (640, 10000)])
def test_rate_intervals_are_wilsons_as_scipy_computes_them(k: int, n: int) -> None:
    low, high = wilson_interval(k, n)
    expected = scipy.stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert (low, high) == pytest.approx((expected.low, expected.high), abs=1e-12)
    assert low <= k / n <= high and low < high


def test_a_strategy_seated_nowhere_has_the_whole_unit_interval() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_a_dask_scheduler_that_is_not_there_is_said_so_not_blamed_on_a_strategy() -> None:
    """The connection's OSError reached the command as if a strategy of one's own had raised it."""
    import socket

    import dask

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{free.getsockname()[1]}"  # nothing listens there once closed
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}), pytest.raises(ValueError) as caught:
        run_lab(["even", "sevens.lab.strategies:RandomPacing"], 20, seed=1, teams=8, dask=address)
    message = str(caught.value)
    assert message.startswith(f"nothing listens at {address}: the connection was refused for 1 s; ")
    assert "leave out --dask to run on this machine" in message


def test_a_pool_starts_no_more_processes_than_the_run_has_batches() -> None:
    """--workers 1000 for a run of one batch started 1,000 processes (a pool that forks starts all it
    may use at once): 15 s of starting, and 999 of them had nothing to play."""
    import psutil

    alive: list[int] = []
    with pytest.warns(WorkersCut):
        result = run_lab(NAMES, 16, seed=5, teams=8, workers=40, batch_size=8,
                         progress=lambda n: alive.append(len(psutil.Process().children())))
    assert alive and max(alive) <= 2 + 1, alive  # two batches, and multiprocessing's resource tracker
    assert result.to_dict() == run_lab(NAMES, 16, seed=5, teams=8, workers=1, batch_size=8).to_dict()


ON_ONE_CORE = """
import json, sys, warnings
import psutil
from sevens.lab.run import run_lab
alive = []
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    result = run_lab(["even", "group-blitz", "odds-aware"], 40, seed=5, teams=8, workers=3, batch_size=10,
                     progress=lambda n: alive.append(len(psutil.Process().children())))
print(json.dumps({"warned": [(w.category.__name__, str(w.message)) for w in caught], "most": max(alive),
                  "result": result.to_dict()}))
"""


@pytest.mark.skipif(shutil.which("taskset") is None, reason="needs taskset")
def test_more_workers_than_cores_from_python_are_cut_to_the_cores_with_a_warning() -> None:
    """Only the command cut workers to the cores the run may use: run_lab(workers=3) under
    ``taskset -c 0`` started 3 processes to take turns on one core. It plays in its own process
    now, warns as for workers beyond the batches, and gives the same result as one worker."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    ran = subprocess.run(["taskset", "-c", "0", sys.executable, "-c", ON_ONE_CORE], env=env, capture_output=True,
                         text=True, timeout=600, check=True)
    said = json.loads(ran.stdout)
    assert said["warned"] == [[
        "WorkersCut", "workers=3 is more than the 1 core this run may use: playing with 1 (more workers would only "
        "take turns on the same cores, each with its own memory, for the same results)"
    ]]
    assert said["most"] == 0  # one worker plays in the run's own process
    assert said["result"] == run_lab(NAMES, 40, seed=5, teams=8, workers=1, batch_size=10).to_dict()


def test_more_workers_than_batches_from_python_warns_once_and_plays_with_the_batches() -> None:
    """Only the command said that workers beyond the batches were dropped: run_lab cut them without
    a word, and a caller asking for 2 workers for one batch saw one busy core and took it for a fault.
    It warns now, as a WorkersCut a caller can filter; as many workers as batches say nothing."""
    import warnings

    with pytest.warns(WorkersCut) as caught:
        cut = run_lab(NAMES, 20, seed=5, teams=8, workers=2, batch_size=20)
    assert [str(w.message) for w in caught] == [
        "workers=2 is more than the 1 batch of up to 20 tournaments this run has: playing with 1 (a batch plays in "
        "one worker, and is not split, since each has dice of its own from the seed: that keeps the results the same "
        "for any number of workers)"
    ]
    assert caught[0].filename == __file__  # it points at the call, not into run_lab
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cut.to_dict() == run_lab(NAMES, 20, seed=5, teams=8, workers=1, batch_size=20).to_dict()
        run_lab(NAMES, 40, seed=5, teams=8, workers=2, batch_size=20)
