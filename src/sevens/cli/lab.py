"""``sevens lab``: strategy tournaments in the batched simulator."""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import re
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console, Group
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Column, Table
from rich.text import Text

from sevens.cli.errors import check_loadable, fail, raised
from sevens.cli.files import check_writable, exists_message, refuse_existing, replacing
from sevens.cli.output import OutputFailed, ResultsConsole, printing, writing_stdout
from sevens.cli.stopping import Stopped, exit_code
from sevens.cli.theme import THEME
from sevens.extras import MissingExtra, require
from sevens.lab import held
from sevens.lab.registry import BUILTINS, WEIGHTED, is_builtin
from sevens.lab.strategies import StrategyError
from sevens.tournament.quoting import escaped, shell_quoted

if TYPE_CHECKING:
    from sevens.lab.run import LabResult, StrategyRow

__all__ = ["register"]


def _decimals(least: int, *widths: float) -> int:
    """Decimals that show each of ``widths`` not as zero: ``least``, or more where a width is smaller
    (a run of millions: "0.058 ± 0.002", where two decimals read "0.06 ± 0.00", as if exact). A
    width of exactly 0 is an exact figure, and takes no more.

    >>> _decimals(2, 0.03), _decimals(2, 0.0021), _decimals(1, 0.04), _decimals(2, 0.0, 0.0004)
    (2, 3, 2, 4)
    """
    decimals = least
    for width in widths:
        while width > 0 and decimals < 12 and float(f"{width:.{decimals}f}") == 0:
            decimals += 1
    return decimals


def _rate_cell(rate: float, low: float, high: float, *, exact: bool = False) -> str:
    """A rate in percent with its 95% interval: ``rate ± half-width`` where the interval is
    symmetric at the decimals shown (runs of any size), else ``rate (low–high)`` (Wilson's
    interval leans toward the middle over few entries, and is never empty at 0% or 100%). Two
    decimals, or as many more as the interval needs to show as more than zero.

    >>> _rate_cell(0.0975, 0.0972, 0.0978)
    '9.75 ± 0.03'
    >>> _rate_cell(0.0, 0.0, 0.2775)
    '0.00 (0.00–27.75)'
    >>> _rate_cell(0.00057575, 0.00055272, 0.00059974)  # random's titles over 2,000,000 tournaments
    '0.058 ± 0.002'
    >>> _rate_cell(0.125, 0.125, 0.125, exact=True)  # one strategy in every seat of 8 teams
    '12.50 (exact)'
    """
    if exact:  # "± 0.00" read as an estimate whose interval rounded away
        return f"{100 * rate:.2f} (exact)"
    d = _decimals(2, 100 * (rate - low), 100 * (high - rate))
    below, above = f"{100 * (rate - low):.{d}f}", f"{100 * (high - rate):.{d}f}"
    if below == above:
        return f"{100 * rate:.{d}f} ± {below}"
    return f"{100 * rate:.{d}f} ({100 * low:.{d}f}–{100 * high:.{d}f})"


def _mean_cell(mean: float, half: float, digits: int, *, exact: bool = False) -> str:
    """A mean and its 95% half-width, at ``digits`` decimals or as many more as the half-width needs
    to show; a single entry has no interval to show.

    >>> _mean_cell(30.3126, 0.0291, 1)
    '30.31 ± 0.03'
    """
    if exact:
        return f"{mean:.{digits}f} (exact)"
    if math.isnan(half):
        return f"{mean:.{digits}f} (1 entry)"
    d = _decimals(digits, half)
    return f"{mean:.{d}f} ± {half:.{d}f}"


def _table(result: object, console: Console) -> Table:
    """The results, one line per strategy where the console is wide enough for that (80 columns
    are, for names of up to 12 characters); else each strategy on two lines, its finals under its
    titles and its SCRUM left under its group points; where even that does not fit (a long name
    at 40 columns), each strategy's name on a line of its own with its figures under it, two to a
    line, or one (30 columns). A figure is never cut short nor parted from its interval: only a
    name wider than the whole console is broken over lines."""
    from sevens.lab.run import LabResult

    assert isinstance(result, LabResult)
    for folded in (False, True):
        laid_out = _laid_out(result, folded=folded)
        if Measurement.get(console, console.options.update_width(10**6), laid_out).maximum <= console.width:
            return laid_out
    # Narrower still (a long name at 40 columns broke both it and an interval over lines): each
    # strategy's name on a line of its own, its two pairs of figures under it; where a pair is too
    # wide for that (30 columns wrapped "2.78 ±" over "0.04"), each figure on a line of its own.
    stacked = _stacked(result)
    if Measurement.get(console, console.options.update_width(10**6), stacked).maximum <= console.width:
        return stacked
    return _one_a_line(result)


def _count(tournaments: int) -> str:
    from sevens.lab.run import counted  # loaded by then: the run's module is what made the figures

    return counted(tournaments)


def _title(result: LabResult) -> str:
    against = "" if result.field is None else f", one team at a time against a field of {result.field}"
    return (
        f"{_count(result.totals.tournaments)} of {result.teams} teams, seed {result.seed}{against} "
        f"(rates per team entered with their 95% intervals, ± where symmetric, else (low–high); "
        f"neutral title rate {100 / result.teams:.2f}%)"
    )


def _cells(row: StrategyRow) -> tuple[str, str, str, str]:
    return (
        _rate_cell(row.title_rate, row.title_low, row.title_high, exact=row.exact),
        _rate_cell(row.final_rate, row.final_low, row.final_high, exact=row.exact),
        _mean_cell(row.group_points, row.group_points_ci, 2, exact=row.exact),
        _mean_cell(row.scrum_left, row.scrum_left_ci, 1),
    )


def _stacked(result: LabResult) -> Table:
    headers = ("titles %", "finals %", "group points", "SCRUM left")
    cells = [_cells(row) for row in result.rows]
    rates = max(len(text) for text in (*headers[:2], *(c for row in cells for c in row[:2])))
    means = max(len(text) for text in (*headers[2:], *(c for row in cells for c in row[2:])))

    def pair(rate: str, mean: str) -> Text:
        return Text(f"  {rate.rjust(rates)}  {mean.rjust(means)}")

    table = Table(title=Text(_title(result)), box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 0),
                  show_lines=True)
    table.add_column(Group(Text("strategy"), pair(*headers[::2]), pair(*headers[1::2])), overflow="fold")
    for row, (title, final, points, scrum) in zip(result.rows, cells, strict=True):
        table.add_row(Group(Text(row.name), pair(title, points), pair(final, scrum)))
    return table


def _one_a_line(result: LabResult) -> Table:
    headers = ("titles %", "finals %", "group points", "SCRUM left")
    cells = [_cells(row) for row in result.rows]
    width = max(len(text) for text in (*headers, *(c for row in cells for c in row)))

    def lines(texts: tuple[str, ...]) -> list[Text]:
        return [Text(f"  {text.rjust(width)}") for text in texts]

    table = Table(title=Text(_title(result)), box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 0),
                  show_lines=True)
    table.add_column(Group(Text("strategy"), *lines(headers)), overflow="fold")
    for row, texts in zip(result.rows, cells, strict=True):
        table.add_row(Group(Text(row.name), *lines(texts)))
    return table


def _laid_out(result: LabResult, *, folded: bool) -> Table:
    # No lines between the columns: they took the width that an interval's figures need.
    table = Table(
        title=Text(_title(result)),  # --field's name, as the strategies' names, is anybody's text: not markup
        box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0),
        show_lines=folded,  # a blank line between two strategies' pairs of lines
    )
    # A long name (a module path) goes on several lines rather than being cut: two cut the same way
    # would be told apart by nothing. The figures too, where nothing else fits.
    table.add_column("strategy", justify="left", overflow="fold")
    headers = ("titles %", "finals %", "group points", "SCRUM left")
    for column in (headers[:2], headers[2:]) if folded else [(h,) for h in headers]:
        table.add_column("\n".join(column), justify="right", overflow="fold")
    for row in result.rows:
        cells = _cells(row)
        if folded:
            table.add_row(Text(row.name), "\n".join(cells[:2]), "\n".join(cells[2:]))
        else:
            table.add_row(Text(row.name), *cells)
    return table


def _empty_name(strategies: str) -> str:
    """Why ``--strategies``, given ``strategies`` with an empty name among its comma-separated ones, is
    refused: which position is empty, between which names, and the list without it. It was
    dropped without a word, so that "even,,random" ran two strategies where three were meant.

    >>> print(_empty_name("even,,random"))
    --strategies 'even,,random' has an empty name, the 2nd, between 'even' and 'random' (two commas together); give the names parted by one comma each, --strategies even,random, or put back the name left out
    >>> print(_empty_name(",even"))
    --strategies ',even' has an empty name, the 1st, before 'even' (a comma at the start); give the names parted by one comma each, --strategies even, or put back the name left out
    >>> print(_empty_name("even, random, "))
    --strategies 'even, random, ' has an empty name, the 3rd, after 'random' (a comma at the end); give the names parted by one comma each, --strategies even,random, or put back the name left out
    """
    given = [name.strip() for name in strategies.split(",")]
    at = given.index("")
    named = [name for name in given if name]
    before = next((name for name in reversed(given[:at]) if name), None)
    after = next((name for name in given[at + 1:] if name), None)
    if before is None:
        where = f"before {after!r} (a comma at the start)"
    elif after is None:
        where = f"after {before!r} (a comma at the end)"
    else:
        where = f"between {before!r} and {after!r} (two commas together)"
    nth = at + 1
    suffix = "th" if nth % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(nth % 10, "th")
    return (
        f"--strategies {strategies!r} has an empty name, the {nth}{suffix}, {where}; give the names parted by one "
        f"comma each, --strategies {shell_quoted(','.join(named))}, or put back the name left out"
    )


def lab(
    strategies: Annotated[
        str,
        typer.Option(
            metavar="NAMES",
            help=f"Comma-separated strategy names ({', '.join(BUILTINS)}), one of "
            f"{', '.join(WEIGHTED)} with a knockout weight (even-flair@1.5, field-reader@1), "
            "module:attribute paths, or the names installed packages register (entry points); docs/strategy.md says "
            "what each assumes."
        ),
    ],
    tournaments: Annotated[
        int,
        typer.Option(metavar="N", help="Number of tournaments. A run that will take a minute or more says how "
                     "long on stderr, a few seconds in, at the pace it has played so far, and again if that pace changes a lot."),
    ] = 10000,
    seed: Annotated[int, typer.Option(metavar="N", help="Seed: the same seed gives the same results for any workers.")] = 0,
    teams: Annotated[int, typer.Option(metavar="N", help="Teams per tournament: 8 or 16 (R6).")] = 16,
    workers: Annotated[
        int | None,
        typer.Option(metavar="N", help="Local worker processes (default, and the most used: one per core; never more than one per batch of 2,000 tournaments). Not with --dask, whose workers play."),
    ] = None,
    field: Annotated[
        str | None,
        typer.Option(
            metavar="NAME",
            help="A strategy for every seat but one: each of --strategies then plays one team per "
            "tournament against it, in every seat in turn (does it beat the field?)."
        ),
    ] = None,
    dask: Annotated[str | None, typer.Option(metavar="ADDRESS", help="Dask scheduler address to run on instead (needs sevens\\[dask]).")] = None,
    json_out: Annotated[bool, typer.Option("--json", metavar="", help="Print the results as JSON, instead of the table (docs/strategy.md says what each key holds).")] = False,
    plot: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Write a plot (.png or .svg): the ranking, or title rates against the knockout weight "
            "if the strategies are one at several weights. An existing file is refused before the run "
            "unless --overwrite is given. Needs sevens\\[plot]."
        ),
    ] = None,
    csv_out: Annotated[
        Path | None,
        typer.Option(
            "--csv",
            metavar="FILE",
            help="Write the results as CSV for a spreadsheet or pandas: one row per strategy with every figure "
            "of --json and the run's settings (- for standard output, instead of the table). An existing file "
            "is refused before the run unless --overwrite is given."
        ),
    ] = None,
    overwrite: Annotated[bool, typer.Option(
        "--overwrite", metavar="",
        # Two files, not "the output file": the words export's one PATH has.
        help="Replace the files --plot and --csv write if they already exist (without this, an existing file is "
             "refused and left as it is).",
    )] = False,
) -> None:
    """Seat every strategy in every position in turn and compare titles, finals, points and SCRUM."""
    from sevens.lab.on_dask import ClusterError
    from sevens.lab.run import SameStrategyTwice, check_run, default_workers, run_lab, workers_to_use

    # Named by their options, with what to give instead: check_run's words ("the number of workers
    # must be at least 1") said neither which option nor what a good value is.
    for option, value, what, least, otherwise in (
        ("--tournaments", tournaments, "the number of tournaments must be at least", 1, "10,000 if left out"),
        ("--workers", workers, "the number of workers must be at least", 1, "one per core if left out"),
        ("--seed", seed, "the seed must be", 0, "0 if left out"),
    ):
        if value is not None and value < least:
            fail(f"{option} {value}: {what} {least}{' or more' if least == 0 else ''}, got {value}; give {option} "
                 f"{least} or more ({otherwise})")
    given = [name.strip() for name in strategies.split(",")]
    names = [name for name in given if name]
    if not names:
        fail("--strategies is empty; give names such as even,group-blitz,odds-aware")
    if len(names) < len(given):
        fail(_empty_name(strategies))
    for weighted, rest in itertools.pairwise(names):
        if "@" in weighted and rest.isdigit():
            # 'even-flair@1,5' with a decimal comma: the comma parts the names, and '5' was told it is no strategy.
            fail(f"--strategies: '{weighted},{rest}' reads as {weighted!r} and a strategy called {rest!r}, as commas "
                 f"part the names; write a knockout weight with a point: {weighted}.{rest}")
    # Said before the run, which may take minutes: these came with sevens before they were extras.
    for extra, option, asked in (("plot", "--plot", plot is not None), ("dask", "--dask", dask is not None)):
        if asked:
            try:
                require(extra, option)
            except MissingExtra as exc:
                fail(str(exc))
    _check_files(plot, csv_out, json_out=json_out, overwrite=overwrite)
    if workers is not None and dask is not None:
        # Was dropped without a word: the cluster's workers play a run on Dask, as many as were started there.
        fail(f"--workers {workers} is for a run on this machine, and with --dask the cluster's workers play (as many as "
             "were started with dask worker ADDRESS): drop --workers, or --dask to run here")
    if workers is None:
        workers = default_workers(tournaments)
    # Loading a strategy of one's own runs its module and makes it: what that prints goes to stderr
    # too (it went into --json's output, which then could not be read).
    with _printing_to_stderr():
        for option, name in [("--strategies", n) for n in names] + ([("--field", field)] if field else []):
            _check_callable(option, name)
            _note_hidden(option, name)
        try:
            check_run(names, tournaments, teams=teams, workers=workers, field=field, seed=seed)
        except SameStrategyTwice as exc:
            fail(f"--strategies: {exc}")  # led by its option, as the other refusals of a name are
        except ValueError as exc:
            fail(str(exc))
    if dask is None:
        # The rule is run_lab's; said here as notes, so that run_lab has nothing left to warn of.
        workers, reasons = workers_to_use(workers, tournaments, asked="--workers {}")
        for reason in reasons:
            _note(f"note: {reason}")
    console = Console(stderr=True, theme=THEME, highlight=False)
    simulated = 0
    doing = "playing" if dask is None else "connecting"  # what the run is doing (sevens.lab.on_dask.STAGES)

    pace = _Pace(tournaments)

    def advance(n: int) -> None:
        nonlocal simulated
        simulated += n
        progress.advance(task, n)
        said = pace.seen(simulated, time.monotonic())
        if said is not None:
            if console.is_interactive:
                progress.console.print(said, markup=False)  # above the bar, which stays whole
            else:
                _note(said)  # where no bar is drawn (a log, a script), the one word of how long

    def stage(now: str) -> None:
        nonlocal doing
        doing = now
        if now != "playing":
            pace.waiting()  # no worker to play: the time until one is heard from again is no measure of the pace
        progress.update(task, description=_DOING[now].format(address=dask))

    signals = _Signals()
    unwritten = _unwritten(json_out, csv_out, plot)  # what a run that stops leaves undone, said in its message
    own = [n for n in (*names, *([field] if field else [])) if not is_builtin(n)]  # named when a run stops
    try:
        with _printing_to_stderr(), _interrupted_once(signals):  # stdout is for the results alone
            if dask is None:
                from sevens.lab.run import warm_up

                # Shown on a terminal only: elsewhere rich still wrote to stderr as it stopped, and where
                # that failed (2>/dev/full) the run ended there, its results lost.
                loading = "loading the compiled simulator (the first run after an install compiles it: a minute or so)"
                with console.status(loading) if console.is_interactive else contextlib.nullcontext():
                    warm_up(teams)
            # Only the bar gives way to a narrow terminal: rich cut the figures first ("400000/40…").
            with Progress(
                TextColumn("{task.description}", table_column=Column(no_wrap=True)),
                BarColumn(),
                MofNCompleteColumn(table_column=Column(no_wrap=True)),
                TimeRemainingColumn(table_column=Column(no_wrap=True)),
                console=console,
                # Where stderr is no terminal, rich draws no bar, and on stopping wrote an empty line
                # instead, which came before the run's error. With --json too the bar is drawn on a
                # terminal (stdout holds the JSON alone): without it a long run showed nothing for minutes.
                disable=not console.is_interactive,
                transient=True,  # gone once done, or when a run stops: the table or the error says the rest
            ) as progress:
                task = progress.add_task(_DOING[doing].format(address=dask), total=tournaments)
                result = run_lab(
                    names,
                    tournaments,
                    seed,
                    teams=teams,
                    workers=workers,
                    dask=dask,
                    progress=advance,
                    field=field,
                    stage=stage,
                )
    except KeyboardInterrupt as exc:
        if signals.watching and signals.came is None and own:
            # No Ctrl-C, kill or closed terminal reached the run: a strategy's own code raised it.
            fail(
                f"the run stopped: {raised(exc)}, raised while {', '.join(own)} played, though the run was sent no "
                f"Ctrl-C or other signal (so a strategy's own code raised it, or code it called); {unwritten}; fix it "
                "and run again",
                code=1,
            )
        fail(_interrupted(doing, simulated, tournaments, dask, exc, unwritten), code=exit_code(exc))
    except StrategyError as exc:  # a strategy of one's own failed: the message names it, the turn and the fix
        fail(f"the run stopped: {exc}; {unwritten}", code=1)
    except ClusterError as exc:  # the Dask cluster failed the run: as with Ctrl-C, what was done is not shown
        fail(
            f"the run stopped after about {simulated:,} of {_count(tournaments)}: {exc}; {unwritten}, since a "
            "part of a run depends on which batches happened to finish",
            code=1,
        )
    except ValueError as exc:
        fail(str(exc))
    except BrokenProcessPool:
        # A worker that ended without a word (os._exit, a crash in compiled code, the kernel's OOM
        # killer) was said as "BrokenProcessPool: A process in the process pool was terminated
        # abruptly while the future was running or pending., raised while ... played": no cause, no fix.
        playing = f"while {', '.join(own)} played" if own else "while the built-in strategies played"
        fail(
            f"the run stopped after about {simulated:,} of {_count(tournaments)}: a worker process ended "
            f"abruptly {playing}, with no error to report; a strategy that ends its own process (os._exit, a "
            "signal, a crash in compiled code) does this, and so does the system stopping a worker short of "
            f"memory (dmesg then names it); {unwritten}, since a part of a run depends on which batches happened "
            "to finish; find what ended it, or run with fewer --workers for less memory, and run again",
            code=1,
        )
    except Exception as exc:
        if not own:
            raise  # a built-in failing is the lab's own bug: its traceback is what to report
        fail(
            f"the run stopped: {raised(exc)}, raised while {', '.join(own)} played (strategies of your "
            f"own run as their code says; the built-ins are tested); {unwritten}; fix it and run again",
            code=1,
        )
    _report(result, plot, json_out=json_out, overwrite=overwrite, csv_out=csv_out)


def _note(text: str) -> None:
    """Say ``text`` on stderr, if it can be written: a note lost to a full or closed stderr is no
    reason to lose the run (2>/dev/full ended it before it played)."""
    with contextlib.suppress(OSError):
        typer.echo(text, err=True)


def _unwritten(json_out: bool, csv_out: Path | None, plot: Path | None) -> str:
    """What a run that stopped leaves unwritten, naming every output it was asked for: the table,
    the JSON or the CSV it would have printed, and each file (--csv, --plot) by its name. A message
    that said "nothing is printed or plotted" left a user asking after the CSV file.

    >>> _unwritten(False, None, None)
    'no table is printed'
    >>> _unwritten(True, Path("out.csv"), Path("out.png"))
    'no JSON is printed and no file is written (--csv out.csv, --plot out.png)'
    >>> _unwritten(False, Path("-"), Path("r.svg"))
    'no CSV is printed and no file is written (--plot r.svg)'
    """
    printed = _printed(json_out, csv_out)
    files = [f"{option} {file}" for option, file in (("--csv", None if _is_stdout(csv_out) else csv_out),
                                                      ("--plot", plot)) if file is not None]
    return f"no {printed} is printed" + (f" and no file is written ({', '.join(files)})" if files else "")


def _printed(json_out: bool, csv_out: Path | None) -> str:
    """What the run prints on stdout: "JSON", "CSV" (``--csv -``) or the "table"."""
    return "JSON" if json_out else "CSV" if _is_stdout(csv_out) else "table"


ESTIMATE_AFTER = 5.0
"""Seconds of play, counted from the first progress reported, over which a run's pace is measured
before :class:`_Pace` says how long the rest will take: the first report comes once the workers
have started (and compiled the simulator, where it had changed), so their start does not slow the
pace measured."""

ESTIMATE_LEAST = 60.0
"""Seconds still to go at least for :class:`_Pace` to say so: a shorter run is over before a note
would help."""

RECHECK_EVERY = 30.0
"""Seconds of play over which :class:`_Pace` measures the pace again, each time, after a note: if
the time to go at that pace differs by more than half from what the last note implies, it says so."""

NOTES_AT_MOST = 3
"""Notes of how long a run will take at most, the first included: a log keeps a few lines of them
however the pace goes up and down."""


class _Pace:
    """Says early in a long run how long the rest of it will take at the pace measured so far, and
    again if that pace changes a lot. A run of 100,000,000 tournaments started without a word of
    that: a terminal's bar showed it only as the run went on, and a log nothing at all.

    Only the time in which batches play counts: from the first report (workers started, simulator
    compiled), and not while a Dask cluster has no workers (:meth:`waiting`), which used to be taken
    for a slow pace (222 tournaments a second, said after a worker died and another joined, of a run
    that played at 13,000 a second).

    >>> pace = _Pace(100_000_000)
    >>> pace.seen(1_000, 10.0), pace.seen(26_000, 12.0)  # the first report, then too soon to tell
    (None, None)
    >>> pace.seen(126_000, 15.0)  # 125,000 in 5 s: 25,000 a second
    'note: about 1 h 7 min to go at this pace (25,000 tournaments a second); Ctrl-C stops the run'
    >>> print(pace.seen(876_000, 45.0))  # the pace holds: nothing more to say
    None
    >>> pace.seen(1_176_000, 75.0)  # 10,000 a second over the last 30 s: about 2.5 times as long
    'note: now about 2 h 45 min to go at this pace (10,000 tournaments a second, where it was 25,000); Ctrl-C stops the run'

    A wait for workers is left out: 5 s of play, either side of 2 min with none, at 25,000 a second.

    >>> waited = _Pace(100_000_000)
    >>> waited.seen(2_000, 0.0), waited.seen(52_000, 2.0), waited.waiting()
    (None, None, None)
    >>> waited.seen(60_000, 127.0), waited.seen(135_000, 130.0)
    (None, 'note: about 1 h 7 min to go at this pace (25,000 tournaments a second); Ctrl-C stops the run')

    A run that ends within the minute says nothing, unless it slows down so much that it will not.

    >>> quick = _Pace(100_000)
    >>> quick.seen(1_000, 0.0), quick.seen(76_000, 5.0)  # one second to go
    (None, None)
    >>> slowed = _Pace(1_000_000)
    >>> slowed.seen(0, 0.0), slowed.seen(100_000, 5.0)  # 45 s to go at 20,000 a second
    (None, None)
    >>> slowed.seen(130_000, 35.0)  # 1,000 a second now
    'note: about 14 min to go at this pace (1,000 tournaments a second); Ctrl-C stops the run'
    """

    def __init__(self, tournaments: int) -> None:
        self.tournaments = tournaments
        self.last: tuple[float, int] | None = None  # the last report while playing; None before one, or after a wait
        self.played = 0.0  # seconds of play measured, since the last note (or the first report)
        self.done = 0  # tournaments played in those seconds
        # The last estimate, said or not (a run then within the minute of its end): its time, its
        # seconds to go and its pace.
        self.said: tuple[float, float, float] | None = None
        self.notes = 0

    def waiting(self) -> None:
        """The run has stopped playing (a Dask cluster with no workers): the time until the next report
        is not play, nor the time since the last one, in which no worker was heard."""
        self.last = None

    def seen(self, simulated: int, now: float) -> str | None:
        """The note to show now that ``simulated`` tournaments' worth is done at ``now`` (seconds),
        or None."""
        if self.notes >= NOTES_AT_MOST:
            return None
        last, self.last = self.last, (now, simulated)
        if last is None:
            return None
        self.played += now - last[0]
        self.done += simulated - last[1]
        if self.played < (ESTIMATE_AFTER if self.said is None else RECHECK_EVERY) or self.done <= 0:
            return None
        rate = self.done / self.played
        left = (self.tournaments - simulated) / rate
        self.played, self.done = 0.0, 0
        was = 0.0
        if self.said is not None:
            when, told, was = self.said
            expected = told - (now - when)  # what the last estimate implies is left now
            if abs(left - expected) <= expected / 2:
                return None
        self.said = (now, left, rate)
        if left < ESTIMATE_LEAST:
            return None  # over within the minute, at this pace
        self.notes += 1
        if self.notes == 1:
            return f"note: about {_duration(left)} to go at this pace ({rate:,.0f} tournaments a second); Ctrl-C stops the run"
        return (f"note: now about {_duration(left)} to go at this pace ({rate:,.0f} tournaments a second, where it was "
                f"{was:,.0f}); Ctrl-C stops the run")


def _duration(seconds: float) -> str:
    """A time to go, to the minute (an estimate has no more to it than that).

    >>> _duration(75), _duration(4000), _duration(7200), _duration(3 * 86400 + 5000)
    ('1 min', '1 h 7 min', '2 h', '3 days 1 h')
    """
    minutes = max(1, round(seconds / 60))
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    days, hours = divmod(hours, 24)
    return f"{days} days" + (f" {hours} h" if hours else "")


_DOING = {
    "connecting": "connecting to {address}",
    "playing": "simulating",
    "no workers": "no workers at {address}, waiting",
}
"""What the progress bar says a run is doing, by its stage (:data:`sevens.lab.on_dask.STAGES`): short,
for the bar to keep its figures in 80 columns."""


def _interrupted(
    doing: str, simulated: int, tournaments: int, dask: str | None, by: KeyboardInterrupt | None = None,
    unwritten: str = "no table is printed",
) -> str:
    """What Ctrl-C (or ``kill``, or a closed terminal: ``by``) stopped, what it leaves ``unwritten``
    (:func:`_unwritten`), and advice that fits what the run was doing when it came.

    >>> _interrupted("connecting", 0, 10, "tcp://h:1")  # doctest: +ELLIPSIS
    'interrupted while connecting to the Dask scheduler at tcp://h:1, before any tournament was played, so no table is printed; check...'
    >>> _interrupted("playing", 5, 10, None, Stopped(signal.SIGTERM))  # doctest: +ELLIPSIS
    'stopped by SIGTERM (kill) after about 5 of 10 tournaments: no table is printed, since...'
    """
    interrupted = "interrupted"
    if isinstance(by, Stopped) and by.signum != signal.SIGINT:
        interrupted = f"stopped by {by} ({_SENT_BY.get(by.signum, 'a signal')})"
    if doing == "connecting":
        return (
            f"{interrupted} while connecting to the Dask scheduler at {dask}, before any tournament was played, so "
            f"{unwritten}; check "
            "that the scheduler is running and that this is its address (tcp://HOST:PORT, as dask scheduler prints "
            "it), or leave out --dask to run on this machine"
        )
    # ``simulated`` counts the batches still playing by their share done, so it is no count of whole
    # tournaments: "about".
    stopped = (
        f"{interrupted} after about {simulated:,} of {_count(tournaments)}: {unwritten}, "
        "since a part of a run depends on which batches happened to finish"
    )
    if doing == "no workers":
        return (
            f"{stopped}; the Dask cluster at {dask} had no workers, so the run was waiting for one: start workers "
            f"(dask worker {dask}) and run again, or leave out --dask to run on this machine"
        )
    if tournaments == 1:
        # "a smaller --tournaments" was the advice here too, and no run is shorter.
        return (
            f"{stopped}; a run of one tournament is as short as a run gets, so one that takes this long has a "
            "strategy slow to decide: a one-decision bot (order(view, rng)) is asked once per team and turn, far "
            "slower than a batch strategy (docs/strategy.md), and a strategy of your own is asked what its code takes "
            "to answer"
        )
    return f"{stopped}; run again, with a smaller --tournaments for a shorter run"


_SENT_BY = {getattr(signal, name): why for name, why in (("SIGTERM", "kill"), ("SIGHUP", "the terminal closed"))
            if hasattr(signal, name)}


class _Signals:
    """What :func:`_interrupted_once` saw: whether its handlers were set (``watching``) and the
    first signal they took (``came``), so that a KeyboardInterrupt no signal caused is told apart."""

    def __init__(self) -> None:
        self.watching = False
        self.came: int | None = None


@contextlib.contextmanager
def _interrupted_once(signals: _Signals | None = None) -> Iterator[None]:
    """Ctrl-C stops the run once: a second press while the workers' pool winds down would break
    off its clean-up (a traceback under the run's message), or the one line that says how far the
    run got. Presses after the first are ignored until the command ends. A command started with
    Ctrl-C ignored (in the background of a script) keeps ignoring it, as its workers do.

    ``kill`` (SIGTERM) and a closed terminal (SIGHUP) stop it the same way, raising
    :class:`~sevens.cli.stopping.Stopped`: by default they ended the command where it was, and its
    worker processes played on without it, for as long as the run had to go. Any of the three
    after the first is ignored; one the command was started ignoring (``nohup``) stays ignored.
    ``signals``, if given, is told which signal came first, if any."""

    def first(signum: int, frame: object) -> None:
        if signals is not None:
            signals.came = signum
        for taken in handled:
            signal.signal(taken, signal.SIG_IGN)
        raise KeyboardInterrupt if signum == signal.SIGINT else Stopped(signum)

    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers (a run called from a thread of one's own)
        return
    # A Ctrl-C meant for the script's job in the foreground stops this run, not its workers.
    # What stops a run as Ctrl-C does: the signals the run holds for its next look.
    handled = [signum for signum in held.SIGNALS if signal.getsignal(signum) is not signal.SIG_IGN]
    before = {signum: signal.signal(signum, first) for signum in handled}
    if signals is not None:
        signals.watching = True
    try:
        yield
    except KeyboardInterrupt:
        for signum in handled:
            signal.signal(signum, signal.SIG_IGN)  # a signal that came before its handler was set
        raise
    for signum, handler in before.items():
        signal.signal(signum, handler)


@contextlib.contextmanager
def _printing_to_stderr() -> Iterator[None]:
    """While the strategies play, what they print (a strategy of one's own saying what it decides)
    goes to stderr, so that stdout holds the results alone: ``--json`` piped to a file or to ``jq``
    stays JSON. File descriptor 1 is pointed at stderr too, for the worker processes and for code
    that writes to it directly; where there is none to point (an embedded or captured run), only
    Python's ``sys.stdout`` is."""
    sys.stdout.flush()  # what is already written goes first, where it was meant to
    try:
        saved: int | None = os.dup(1)
    except OSError:
        saved = None
    with contextlib.redirect_stdout(sys.stderr):
        if saved is None:
            yield
            return
        try:
            os.dup2(2, 1)
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 1)
            os.close(saved)


def _note_hidden(option: str, name: str) -> None:
    """Say on stderr where an installed package registers a strategy under a built-in's name: the
    built-in is played, and the package's was left out without a word, its author reading the
    built-in's figures as their own."""
    from sevens.lab.registry import hidden_entry_point

    hidden = hidden_entry_point(name)
    if hidden is not None:
        package, path = hidden
        _note(
            f"note: {option}: the package {package} registers a strategy called {name!r}, which is a built-in's name: "
            f"the built-in {name} is played; to play the package's, name it by its path, {path}, or rename its entry "
            "point in that package's pyproject.toml"
        )


def _check_callable(option: str, name: str) -> None:
    """Refuse a name that is no strategy here, or a module:attribute path naming a function or class
    that cannot make one."""
    from sevens.lab.registry import resolve

    try:
        check_loadable(option, name, resolve, what="strategy", needs="orders(view, rng) or order(view, rng)")
    except ValueError as exc:
        # Said now, not left for check_run to find again: Python keeps no module whose import
        # raised, so a second look ran one's own module's code a second time (its prints, twice).
        # The option leads, as in check_loadable's own refusals: which of --strategies and --field.
        fail(f"{option}: {exc}")


def _is_stdout(path: Path | None) -> bool:
    return path is not None and str(path) == "-"


def _check_files(plot: Path | None, csv_out: Path | None, *, json_out: bool, overwrite: bool) -> None:
    """Refuse, before the run, the files --plot and --csv cannot write, and what cannot go together."""
    if _is_stdout(csv_out) and json_out:
        fail("--csv - and --json would both print to standard output, one after the other, which no reader "
             "takes apart: write the CSV to a file (--csv results.csv), or drop --json or --csv")
    if plot is not None and csv_out is not None and not _is_stdout(csv_out) and _same_file(plot, csv_out):
        fail(f"--csv {csv_out} and --plot {plot} name the same file, and each would replace the other: give "
             "each a file of its own (--csv results.csv --plot ranking.png)")
    refuse_existing([("--plot", plot), ("--csv", None if _is_stdout(csv_out) else csv_out)], overwrite=overwrite)
    if plot is not None:
        check_writable(plot, "--plot", example="ranking.png", suffixes=(".png", ".svg"), overwrite=overwrite)
    if csv_out is not None and not _is_stdout(csv_out):
        check_writable(csv_out, "--csv", example="results.csv", overwrite=overwrite)
    if overwrite and plot is None and (csv_out is None or _is_stdout(csv_out)):
        given = ", and --csv - prints to standard output" if csv_out is not None else ""
        fail(f"--overwrite replaces the files --plot and --csv write, and no file is given{given}: add --plot FILE "
             "or --csv FILE, or drop --overwrite")


def _same_file(one: Path, other: Path) -> bool:
    """Whether two paths name one file: the same path however written (through links, ``./``), or
    two names of one file already there (a hard link)."""
    if os.path.realpath(one) == os.path.realpath(other):
        return True
    with contextlib.suppress(OSError):
        return os.path.samefile(one, other)
    return False


def _report(
    result: LabResult, plot: Path | None, *, json_out: bool, overwrite: bool = False, csv_out: Path | None = None
) -> None:
    """Print the results (``--csv -``: as CSV, instead of the table), then write the CSV file and
    draw the plot: a file that cannot be written loses no results, and each file is written whole or
    not at all (an existing one is replaced only with ``overwrite``). Results that cannot all be
    printed (a reader that left, ``| head -1``; a full disk) lose no file either: they are written,
    and then the command ends as :mod:`sevens.cli.output` says."""
    from sevens.lab.plot import plot_result

    csv_file = None if csv_out is None or _is_stdout(csv_out) else csv_out
    unprinted: OutputFailed | None = None
    try:
        with writing_stdout():
            if json_out:
                typer.echo(json.dumps(result.to_dict(), indent=2))
            elif _is_stdout(csv_out):
                typer.echo(result.to_csv(), nl=False)
            else:
                console = ResultsConsole()
                console.print(_table(result, console))
    except OutputFailed as failed:
        unprinted = failed
    # Named as asked for: "the results are printed above" left a user of --json > out.json looking up.
    printed = _printed(json_out, csv_out)
    shown = (f"the {printed} was not all printed" if unprinted is not None
             else "the table is printed above" if printed == "table" else f"the {printed} is printed")
    failed_files: list[str] = []
    written: list[str] = []
    caught: list[warnings.WarningMessage] = []

    def draw(part: Path) -> None:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            plot_result(result, part)
        caught.extend(seen)

    for option, file, what, make in (
        ("--csv", csv_file, "CSV", lambda part: part.write_text(result.to_csv(), encoding="utf-8")),
        ("--plot", plot, "plot", draw),
    ):
        if file is None:
            continue
        try:
            with replacing(file, overwrite=overwrite) as part:  # whole or not at all
                make(part)
        except FileExistsError:
            failed_files.append(f"{exists_message(f'{option} {file}')}; it appeared during the run")
        except OSError as exc:
            failed_files.append(f"cannot write {option} {file}: {exc.strerror or exc}")
        else:
            written.append(f"the {what} is written to {file}")
    if failed_files:
        done = f", and {' and '.join(written)}" if written else ""
        fail(f"{'; '.join(failed_files)}; {shown}{done}", code=1)
    if unprinted is not None:
        unprinted.end(then=f" ({' and '.join(written)})" if written else "")
    if not json_out and not _is_stdout(csv_out):  # stdout holds the JSON or the CSV alone
        with printing():
            for file, what in ((csv_file, "CSV"), (plot, "plot")):
                if file is not None:
                    ResultsConsole().print(f"{what} written to {escaped(file)}", markup=False)  # anybody's text
    if plot is not None:
        _note_missing_glyphs(caught, result)


_MISSING_GLYPH = re.compile(r"Glyph (\d+) \(.*\) missing from font\(s\) (.+)\.")


def _note_missing_glyphs(caught: list[warnings.WarningMessage], result: LabResult) -> None:
    """Say once which characters of the strategies' names the plot's font has not, and what they
    show as; matplotlib's own warning named a line of sevens' source and a character by its
    decimal number, once for every time it was drawn."""
    missing: dict[str, str] = {}
    for caught_one in caught:
        found = _MISSING_GLYPH.fullmatch(str(caught_one.message))
        if found is None:
            warnings.warn_explicit(caught_one.message, caught_one.category, caught_one.filename, caught_one.lineno)
        else:
            missing.setdefault(chr(int(found[1])), found[2])
    if not missing:
        return
    fonts = sorted(set(missing.values()))
    chars = ", ".join(f"{c} (U+{ord(c):04X})" for c in missing)
    names = [row.name for row in result.rows if any(c in row.name for c in missing)]
    _note(
        f"note: --plot: the plot's font ({', '.join(fonts)}) has no {chars}, in the name"
        f"{'s' if len(names) > 1 else ''} {', '.join(map(repr, names))}: the plot shows a box for each; the table "
        "and --json give the names whole"
    )


LAB_EXAMPLES = "\n\n".join([
    "Examples (docs/strategy.md says more):",
    "sevens lab --strategies even,group-blitz,odds-aware   (three strategies in every seat in turn: the table)",
    "sevens lab --strategies field-reader,equilibrium --field even-flair   (each as one team against a field)",
    "sevens lab --strategies even-flair,even-flair@1.5,even-flair@2 --plot weights.png   (titles against the "
    "knockout weight)",
    "sevens lab --strategies even,random --seed 7 --json   (for a script: the same seed gives the same figures)",
    "sevens lab --strategies mine:Mine,even --csv results.csv   (your own strategy, class Mine in mine.py in this "
    "folder, and a CSV for a spreadsheet)",
])


def register(app: typer.Typer) -> None:
    """Add ``sevens lab`` to the application."""
    # The options alone showed no run put together: a newcomer had to find docs/strategy.md first.
    app.command(name="lab", epilog=LAB_EXAMPLES)(lab)
