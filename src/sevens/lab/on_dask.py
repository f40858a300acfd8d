"""The lab on a Dask cluster: :func:`sevens.lab.run.run_lab` with ``dask=ADDRESS`` sends its batches here.

The batches play on the cluster's workers as :func:`sevens.lab.run.run_batch` plays them anywhere
else; the run hears their progress and what their strategies print through Dask events, and a
cluster that fails the run (its scheduler gone, or the workers playing a batch dying again and again)
is a :class:`ClusterError`. Dask itself is imported only when a run uses it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from itertools import islice
from typing import Any

from sevens.bots.strategies import shown_raised
from sevens.lab.jit import source_digest
from sevens.lab.registry import is_builtin
from sevens.lab.run import BatchSpec, Totals, run_batch

__all__ = ["CONNECT_TIMEOUT", "ON_DASK", "STAGES", "ClusterError", "not_on_dask", "run_on_dask"]

STAGES = ("connecting", "playing", "no workers")
"""What a run on Dask can be doing: connecting to the scheduler, playing its batches, or waiting for a
worker on a cluster that has none (:class:`_Waiting` says so once it has waited a while)."""

CONNECT_TIMEOUT = 10
"""Seconds a run gives a Dask scheduler to answer before it gives up, unless Dask's own setting
(``distributed.comm.timeouts.connect``) has been changed from its default of 30: that left a run
with a mistyped host waiting half a minute to say so, while a scheduler that can be reached at all
answers in well under a second. A port where nothing listens is waited on for as long, with a line
saying so, for a scheduler started with the run (:func:`_greet_when_up`)."""


def _connect_timeout() -> float:
    """:data:`CONNECT_TIMEOUT`, or Dask's connect timeout in seconds where one has been set."""
    import dask
    from dask.utils import parse_timedelta

    configured = parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), default="s")
    return float(CONNECT_TIMEOUT if configured == 30 else configured)


SOURCE_DIGEST = source_digest()
"""The sevens source this process runs, as read when it imported this module: a Dask worker imports
it with its first batch, and files changed after that are not what it runs."""


def _worker_digest() -> str:
    """Run on the scheduler and each worker by :func:`_check_cluster`."""
    return SOURCE_DIGEST


class _OtherCode(Exception):
    """Raised on a worker whose sevens source is not the run's (it joined after the run began)."""


def _other_code(address: str, workers: list[str], of: int | None = None) -> str:
    """Why a run on Dask refuses to go on with ``workers``, which run other sevens code than this process."""
    some = ", ".join(workers[:3]) + (f" and {len(workers) - 3} more" if len(workers) > 3 else "")
    count = "" if of is None else f" ({len(workers)} of {of})"
    return (
        f"the Dask workers at {address} run other sevens code than this process{count}: {some}. They were "
        "started before sevens changed here, or import another copy of it, and what they send back would "
        "not add up with this run's code. Restart them so that they load this code: stop each worker and start "
        f"it again (dask worker {address}), or from Python distributed.Client({address!r}).restart(); where "
        "they import another copy (their PYTHONPATH or installation), install this one there. Or leave out "
        "--dask to run on this machine"
    )


def _check_cluster(client: Any, address: str) -> None:
    """Refuse a cluster whose scheduler or workers run other sevens code than this process: the
    scheduler reads each batch and the workers send back results, in classes that may have another
    shape there, and the run failed as if the user's strategy had. One older than this check has no
    :func:`_worker_digest` to run, and is refused the same way."""
    try:
        scheduler = client.run_on_scheduler(_worker_digest)
    except ImportError as exc:  # no sevens there, or one without the lab
        raise ClusterError(_scheduler_without_sevens(address, exc)) from None
    except Exception as exc:  # it cannot read the check, as it could not read the batches
        scheduler = exc
    if scheduler != SOURCE_DIGEST:
        raise ClusterError(
            f"the Dask scheduler at {address} runs other sevens code than this process: it was started before "
            "sevens changed here, or imports another copy of it, and reads each batch with that code. Restart it "
            "and its workers so that they load this code (stop each and start it again: dask scheduler, then "
            f"dask worker {address}); where they import another copy (their PYTHONPATH or installation), install "
            "this one there. Or leave out --dask to run on this machine"
        )
    digests = client.run(_worker_digest, on_error="return")
    other = sorted(worker for worker, digest in digests.items() if digest != SOURCE_DIGEST)
    if other:
        raise ClusterError(_other_code(address, other, len(digests)))


def _scheduler_without_sevens(address: str, cause: BaseException | None) -> str:
    return (
        f"the Dask scheduler at {address} cannot read the run's batches"
        + ("" if cause is None else f" ({shown_raised(cause)})")
        + ": the scheduler imports sevens to read them, as the workers do to play them; install the "
        "same sevens as here where the scheduler runs (and on every worker), and start it again"
    )


_DASK_IN_FLIGHT = 64  # batches queued on a cluster, whose size this side does not know (a local run: 4 a worker)


class ClusterError(RuntimeError):
    """A run on a Dask cluster could not go on: the scheduler went away, or the workers that played
    a batch kept dying. The message says which, and what to look at."""


_DASK_TOPIC = "sevens-lab"
"""The Dask event topic a run's batches tell it on: progress and what its strategies print. One topic
for every run (each message names its run), so that the scheduler keeps one log of them, not one per run."""


def run_on_dask(
    address: str,
    specs: Iterator[BatchSpec],
    told: dict[int, int],
    partly: Callable[[int, int], None] | None,
    done: Callable[[BatchSpec, Totals], None],
    stage: Callable[[str], None] | None = None,
) -> None:
    """Play the batches on the Dask cluster at ``address``, at most :data:`_DASK_IN_FLIGHT` at a time.

    ``stage``, if given, is told what the run is doing whenever that changes (:data:`STAGES`).

    Everything the run hears comes on one queue, read here and nowhere else: the batches' progress
    and what their strategies print (Dask events, which the client's own thread receives) and the
    batches as they finish (their futures' callbacks). A batch the run lets go of (Ctrl-C, a failed
    batch) is cancelled on the cluster, and one already playing stops at its next progress report
    (:func:`_dask_batch`).
    """
    import distributed
    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError

    if stage is not None:
        stage("connecting")
    timeout = _connect_timeout()
    try:
        scheduler = _greet_when_up(address, timeout)
        client = _client(address, timeout, scheduler)
    except _NotDask as exc:
        raise ValueError(
            f"something accepts connections at {address}, but not as a Dask scheduler ({exc}): is it the dashboard's port "
            "(8787 unless told otherwise) or another program's? Give the address the scheduler printed as it "
            "started (tcp://HOST:PORT, port 8786 unless told otherwise), or leave out --dask to run on this machine"
        ) from None
    except OSError as exc:  # nothing there, or it does not answer
        refused_now = not isinstance(exc, _RefusedAtOnce | _NoAnswer | _NoSuchHost) and _knock(address)[0] == "refused"
        raise ValueError(_unreachable(address, exc, timeout, refused_now=refused_now)) from None
    except (ValueError, TypeError) as exc:  # no address at all, or one Dask cannot use ('nonsense', 'http://...')
        raise ValueError(
            f"{address!r} is not an address Dask can connect to ({shown_raised(exc)}): give it as the "
            "scheduler prints it, tcp://HOST:PORT (dask scheduler listens on port 8786 unless told otherwise), or "
            "leave out --dask to run on this machine"
        ) from None
    run = uuid.uuid4().hex
    heard: queue.SimpleQueue[Any] = queue.SimpleQueue()

    def hear(event: tuple[float, Any]) -> None:  # on the client's thread: pass it on, nothing more
        message = event[1]
        if isinstance(message, dict) and message.get("run") == run:
            heard.put(message)

    sent: dict[Any, BatchSpec] = {}

    def send(spec: BatchSpec) -> None:
        told[spec.start] = 0
        future = client.submit(_dask_batch, spec, run, address, partly is not None, SOURCE_DIGEST, pure=False)
        sent[future] = spec
        future.add_done_callback(heard.put)

    with _quiet_dask_client(), client:
        # Before any batch is sent: the scheduler takes the two in the order they were sent.
        client.subscribe_topic(_DASK_TOPIC, hear)
        _check_cluster(client, address)  # workers that join later check each batch themselves (_dask_batch)
        for spec in islice(specs, _DASK_IN_FLIGHT):
            send(spec)
        waiting = _Waiting(client, address, stage)
        if stage is not None:
            stage("playing")
        while sent:
            try:
                item = heard.get(timeout=_LOOK_EVERY)
            except queue.Empty:
                waiting.look()
                continue
            waiting.heard()
            if isinstance(item, dict):
                if "text" in item:
                    stream = sys.stdout if item["stream"] == 1 else sys.stderr
                    stream.write(item["text"])
                    stream.flush()
                elif partly is not None:
                    partly(item["start"], item["done"])
                continue
            spec = sent.pop(item)
            try:
                totals = waiting.for_result(item)
            except distributed.KilledWorker as exc:
                died = exc.allowed_failures + 1
                # Named as a local run's worker dying names them: the likeliest cause is one's own code.
                own = [name for name in spec.strategies if not is_builtin(name)]
                playing = f" while {', '.join(own)} played" if own else ""
                raise ClusterError(
                    f"Dask gave up on tournaments {spec.start + 1:,} to {spec.start + spec.count:,} after "
                    f"{'a worker' if died == 1 else f'{died} workers'} died playing them{playing} (Dask's "
                    "distributed.scheduler.allowed-failures): a worker short of memory or killed, or a strategy "
                    "that ends its process (os._exit, a crash in compiled code), does this; the workers' logs "
                    "say more"
                ) from None
            except _OtherCode as exc:
                raise ClusterError(_other_code(address, [str(exc)])) from None
            except RuntimeError as exc:
                if not str(exc).startswith("Error during deserialization of the task graph"):
                    raise
                raise ClusterError(_scheduler_without_sevens(address, exc.__cause__)) from None
            except (FutureCancelledError, CommClosedError) as exc:
                if not (isinstance(exc, CommClosedError) or exc.reason == "scheduler-connection-lost"):
                    raise
                raise ClusterError(
                    f"lost the connection to the Dask scheduler at {address} while the run played; check that the "
                    "scheduler is running and can be reached, and run again (or leave out --dask to run on this "
                    "machine)"
                ) from None
            done(spec, totals)
            for spec in islice(specs, 1):
                send(spec)


NO_WORKERS_AFTER = 5.0
"""Seconds without a word from the batches after which a run on Dask asks whether the cluster has any
workers left, and says so once if not (:class:`_Waiting`)."""

_LOOK_EVERY = 1.0  # seconds between two looks, once NO_WORKERS_AFTER has passed


class _Waiting:
    """A run on a cluster with no workers (none had joined, or all have left) waits for one, as Dask
    does; it used to wait with the progress bar still at 0 and no word. After :data:`NO_WORKERS_AFTER`
    seconds in which no batch said anything, this says so on stderr, once until a batch is heard from
    again."""

    def __init__(self, client: Any, address: str, stage: Callable[[str], None] | None = None) -> None:
        self.client = client
        self.address = address
        self.stage = stage
        self.since = time.monotonic()
        self.said = False

    def heard(self) -> None:
        """A batch said something (its progress, a print, its result): the run is not stuck."""
        self.since = time.monotonic()
        if self.said and self.stage is not None:
            self.stage("playing")
        self.said = False

    def for_result(self, future: Any) -> Any:
        """The result of a batch that has finished, looking at the cluster meanwhile: it is fetched from
        the worker that played it, and if that worker has gone, Dask plays the batch again, which
        waits for a worker like any other (the run sat in this fetch, saying nothing, when its only
        worker died)."""
        while True:
            try:
                return future.result(timeout=_LOOK_EVERY)
            except TimeoutError:
                if future.status == "error":  # the batch itself raised TimeoutError: that is its result
                    raise
                self.look()

    def look(self) -> None:
        """Nothing heard for a while: if the cluster has no workers, say so (once)."""
        if self.said or time.monotonic() - self.since < NO_WORKERS_AFTER:
            return
        # A call to the scheduler, answered from the client's last copy if the scheduler is gone (the
        # run then hears that its batches were lost).
        if self.client.scheduler_info(n_workers=0).get("n_workers") != 0:
            return
        self.said = True
        if self.stage is not None:
            self.stage("no workers")
        sys.stderr.write(
            f"the Dask cluster at {self.address} has no workers (none have joined, or all have left: a worker "
            "without the same sevens as here leaves when sent a batch, and its log says so); the run waits for "
            f"one: start workers (dask worker {self.address}) or press Ctrl-C to stop\n"
        )
        sys.stderr.flush()


@contextlib.contextmanager
def _quiet_dask_client() -> Iterator[None]:
    """While a run uses a Dask client, leave out what the client logs of failures the run handles
    itself: a result it could not fetch from a worker that died (Dask plays that batch again, and the
    totals are the same), and, once the scheduler has gone, its attempt to reconnect, broken off as
    the run stops (a traceback, or "Failed to reconnect ... after 30.00 seconds", whichever the close
    meets): the run says in one line what happened."""
    logger = logging.getLogger("distributed.client")
    handled = _HandledByTheRun()
    logger.addFilter(handled)
    try:
        yield
    finally:
        logger.removeFilter(handled)


class _HandledByTheRun(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info is not None and isinstance(record.exc_info[1], asyncio.CancelledError):
            return False
        return not str(record.msg).startswith(("Couldn't gather", "Failed to reconnect to scheduler"))


ON_DASK = threading.local()
"""On a Dask worker, in a thread playing a batch of :func:`run_on_dask`: ``address``, the scheduler's
address as the run was given it (for messages)."""


class _Released(Exception):
    """The run let go of the batch playing here (it was interrupted, or another batch failed)."""


def _dask_batch(spec: BatchSpec, run: str, address: str, tell: bool, digest: str) -> Totals:
    """:func:`run_batch` on a Dask worker, telling the run (through Dask events) how far it is if
    ``tell``, and what its strategies print, where the run prints it; a batch the run has let go of
    stops at its next report rather than play on for nothing. A worker whose sevens source is not
    the run's (``digest``) refuses the batch."""
    from distributed import get_worker

    worker = get_worker()
    if digest != SOURCE_DIGEST:
        raise _OtherCode(worker.address)
    key = worker.get_current_task()
    written: list[tuple[int, list[str]]] = []  # what the batch's strategies wrote, by stream, in order

    def send(**message: object) -> None:
        worker.log_event(_DASK_TOPIC, {"run": run, "start": spec.start, **message})

    def pass_on_what_was_written() -> None:
        for stream, parts in written:
            send(stream=stream, text="".join(parts))
        written.clear()

    def reached(tournaments: int) -> None:
        task = worker.state.tasks.get(key)
        if task is None or task.state == "cancelled":
            raise _Released
        pass_on_what_was_written()
        if tell:
            send(done=tournaments)

    def write(stream: int, text: str) -> None:
        if not written or written[-1][0] != stream:
            written.append((stream, []))
        written[-1][1].append(text)

    ON_DASK.address = address
    try:
        with _PassedOn.kept_by(write):
            return run_batch(spec, reached)
    finally:
        ON_DASK.address = None
        pass_on_what_was_written()


class _PassedOn:
    """A Dask worker's ``sys.stdout`` or ``sys.stderr`` while batches play there: what a thread
    playing one writes is kept for the run (:func:`_dask_batch`), which prints it as a local run
    would; what other threads write goes where it went before. The streams are put back once no
    batch plays."""

    to = threading.local()
    """In a thread playing a batch: ``write(stream, text)``, which keeps it for the run."""

    _lock = threading.Lock()
    _playing = 0

    def __init__(self, stream: Any, number: int) -> None:
        self.stream = stream
        self.number = number

    @classmethod
    @contextlib.contextmanager
    def kept_by(cls, write: Callable[[int, str], None]) -> Iterator[None]:
        """While the block runs, what this thread writes to stdout (1) or stderr (2) goes to ``write``."""
        with cls._lock:
            cls._playing += 1
            if not isinstance(sys.stdout, cls):
                sys.stdout = cls(sys.stdout, 1)
            if not isinstance(sys.stderr, cls):
                sys.stderr = cls(sys.stderr, 2)
        cls.to.write = write
        try:
            yield
        finally:
            cls.to.write = None
            with cls._lock:
                cls._playing -= 1
                if not cls._playing:
                    if isinstance(sys.stdout, cls):
                        sys.stdout = sys.stdout.stream
                    if isinstance(sys.stderr, cls):
                        sys.stderr = sys.stderr.stream

    def write(self, text: str) -> int:
        write = getattr(self.to, "write", None)
        if write is None:
            return int(self.stream.write(text))
        write(self.number, text)
        return len(text)

    def flush(self) -> None:
        if getattr(self.to, "write", None) is None:
            self.stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _client(address: str, timeout: float, scheduler: str) -> Any:
    """A Dask client of the scheduler at ``address`` (``scheduler``: its address as the connection
    to it names it)."""
    import distributed

    try:
        return distributed.Client(address, timeout=timeout)  # type: ignore[no-untyped-call]
    except KeyboardInterrupt:
        # Ctrl-C (or kill) as the client registered: distributed drops that connection unclosed, and
        # its log said 'Closing dangling stream in <TCP ...>' under the run's one line.
        logging.getLogger("distributed.comm.tcp").addFilter(_LeftByTheRun(scheduler))
        raise


class _LeftByTheRun(logging.Filter):
    """Leaves out distributed's word on closing a connection to ``scheduler`` that a stopped run let go of."""

    def __init__(self, scheduler: str) -> None:
        super().__init__()
        self.scheduler = scheduler

    def filter(self, record: logging.LogRecord) -> bool:
        said = record.getMessage()
        return not (said.startswith("Closing dangling stream") and f"remote={self.scheduler}>" in said)


class _NotDask(Exception):
    """Something accepted the connection but did not greet the run as a Dask scheduler does."""


_GREETING = 5.0
"""Seconds, after the connection is made, for the other end to answer Dask's greeting."""


_KNOCK_AFTER = 0.5
"""Seconds Dask's connection has to greet a scheduler before the run tries a plain one beside it:
a scheduler that can be reached answers well within that."""

_KNOCK_LIMIT = 1.0
"""Seconds a plain connection has to be accepted or refused: a refusal comes back within a round trip."""


class _RefusedAtOnce(ConnectionRefusedError):
    """A plain connection tried beside Dask's was refused: nothing listens there."""


class _NoSuchHost(OSError):
    """The host of the address cannot be found (its name does not resolve): the message says why."""


class _NoAnswer(OSError):
    """Dask's connection timed out, and a plain one tried beside it was neither accepted nor refused."""


def _greet(address: str, timeout: float) -> str:
    """Connect to ``address`` and exchange Dask's greeting (its handshake), then let go, returning
    the scheduler's address as the connection names it (``tcp://IP:PORT``): an
    :class:`OSError` if nothing answers within ``timeout`` seconds, :class:`_NotDask` if something
    accepts the connection but does not answer as Dask does. ``distributed.Client`` waits for that
    answer with no limit: given the dashboard's port, a run waited under its progress bar for as long
    as the dashboard ran. This runs on a thread of its own, with an event loop of its own, so that it
    works where the caller's thread has one running (a notebook).

    Dask's connect retries a refused connection until its timeout (10 s) is up. Where the greeting
    has not come within :data:`_KNOCK_AFTER` seconds, one plain connection is tried beside it, and
    a refusal ends the wait at once (:class:`_RefusedAtOnce`). It is not tried first: a scheduler
    logs each connection closed without Dask's greeting, and would log one for every run."""
    import distributed
    from distributed.comm.core import connect

    # The security that distributed.Client takes from Dask's configuration, so that a tls:// cluster
    # set up there is greeted as the client will connect.
    security = distributed.Security().get_connection_args("client")  # type: ignore[no-untyped-call]
    greeting: list[tuple[asyncio.AbstractEventLoop, asyncio.Task[Any]]] = []

    async def greet() -> str:
        task = asyncio.current_task()
        assert task is not None
        greeting.append((asyncio.get_running_loop(), task))
        comm = await asyncio.wait_for(connect(address, timeout=timeout, **security), timeout + _GREETING)  # type: ignore[no-untyped-call]
        await comm.close()
        return str(comm.peer_address)

    outcome: list[BaseException | str] = []

    def probe() -> None:
        try:
            outcome.append(asyncio.run(greet()))
        except (Exception, asyncio.CancelledError) as exc:  # handed to the run's thread, which says what it means
            outcome.append(exc)

    thread = threading.Thread(target=probe, name="sevens-lab-greets-dask", daemon=True)
    thread.start()
    thread.join(_KNOCK_AFTER)
    knocked = None
    if thread.is_alive():
        knocked, why = _knock(address)
        if knocked in ("refused", "no such host") and thread.is_alive():
            with contextlib.suppress(IndexError, RuntimeError):  # not started yet, or just ended
                loop, task = greeting[0]
                loop.call_soon_threadsafe(task.cancel)
            if knocked == "no such host":  # Dask's connect retries that too, and then says it had no answer
                raise _NoSuchHost(why)
            raise _RefusedAtOnce(f"connection to {address} refused")
    thread.join()
    exc = outcome[0] if outcome else OSError("the connection attempt stopped")
    if isinstance(exc, str):
        return exc
    if type(exc) is TimeoutError:  # asyncio.wait_for's: the connection was made, the greeting not answered
        raise _NotDask("it did not answer Dask's greeting")
    if isinstance(exc, OSError) and str(exc).startswith("Timed out"):
        if knocked == "silent":
            silent = _NoAnswer(str(exc))
            silent.__cause__ = exc.__cause__  # what Dask's attempts ended with, as _unreachable reads it
            raise silent
        raise exc
    if isinstance(exc, OSError):  # the other end closed the connection, or answered with what is not Dask's
        raise _NotDask(shown_raised(exc))
    raise exc


def _greet_when_up(address: str, timeout: float) -> str:
    """:func:`_greet`, waiting up to ``timeout`` seconds for a scheduler to listen where nothing does
    yet: one started in the same moment as the run (``dask scheduler & sevens lab --dask ...``)
    takes a second or two to listen, and the run gave up at once. The wait is said once on stderr,
    so that a mistyped port is not a silent pause; a refusal after it is :class:`_RefusedAtOnce`."""
    until = time.monotonic() + timeout
    said = False
    while True:
        try:
            return _greet(address, timeout)
        except _RefusedAtOnce:
            left = until - time.monotonic()
            if left <= 0:
                raise _RefusedAtOnce(f"connection to {address} refused for {timeout:g} s") from None
            if not said:
                said = True
                sys.stderr.write(
                    f"nothing listens at {address} yet: waiting up to {timeout:g} s for a Dask scheduler to "
                    "start there (Ctrl-C to stop)\n"
                )
                sys.stderr.flush()
            time.sleep(min(_KNOCK_AFTER, left))


def _knock(address: str) -> tuple[str | None, str]:
    """What one plain connection to ``address`` meets: ``"refused"``, ``"accepted"``, ``"silent"``
    (neither within :data:`_KNOCK_LIMIT` seconds) or ``"no such host"`` (its name does not resolve),
    with the system's word on it; None where that cannot be told (an address that is not tcp:// or
    tls://). Dask's own retries hide a refusal: the attempt its timeout cuts short leaves a
    cancellation, not the refusals before it, as the cause it raises with."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme not in ("tcp", "tls"):
            return None, ""
        host, port = parse_host_port(location)
        with socket.create_connection((host, port), timeout=_KNOCK_LIMIT):
            return "accepted", ""
    except ConnectionRefusedError as exc:
        return "refused", exc.strerror or str(exc)
    except TimeoutError:
        return "silent", ""
    except socket.gaierror as exc:
        return "no such host", f"the host of {address} cannot be found: {exc.strerror or exc}"
    except (OSError, ValueError, TypeError):
        return None, ""


def _unreachable(address: str, exc: BaseException, timeout: float, *, refused_now: bool = False) -> str:
    """Why a run could not connect to the scheduler at ``address`` in ``timeout`` seconds (what
    Dask's connect raised), and what to check: a connection refused (nothing listens on that port)
    is not one unanswered (a host down or away, a firewall that drops it), and the checks differ.
    ``refused_now``: a plain connection tried after Dask's was refused.

    >>> print(_unreachable("tcp://h:1", OSError("Timed out trying to connect to tcp://h:1 after 10 s"), 10))
    no answer from tcp://h:1 within 10 s: the connection was neither accepted nor refused, ...
    """
    if isinstance(exc, _NoSuchHost):
        return (
            f"{exc}; check the host name (or give the scheduler's IP address, as dask scheduler prints it), or "
            "leave out --dask to run on this machine"
        )
    causes: list[BaseException] = []
    cause: BaseException | None = exc
    while cause is not None and len(causes) < 10:
        causes.append(cause)
        cause = cause.__cause__ or cause.__context__
    if refused_now or any(isinstance(cause, ConnectionRefusedError) for cause in causes):
        port = address.rpartition(":")[2]
        start = f"dask scheduler --port {port}" if port.isdigit() else "dask scheduler"
        return (
            f"nothing listens at {address}: the connection was refused for {timeout:g} s; check that the "
            "scheduler is running on that host and that the port is the one it printed as it started "
            f"(tcp://HOST:PORT, 8786 unless told otherwise), or start one there ({start}, and workers: dask "
            f"worker {address}), or leave out --dask to run on this machine"
        )
    timed_out = str(exc).startswith("Timed out")
    if timed_out and all(isinstance(cause, TimeoutError | asyncio.CancelledError) for cause in causes[1:]):
        return (
            f"no answer from {address} within {timeout:g} s: the connection was neither accepted nor refused, as "
            "when the host is down or is not the one meant, or a firewall drops the connection without a word; "
            "check the host name or IP address, that the machine is up and can be reached from here, and that its "
            "firewall lets the port through, or leave out --dask to run on this machine"
        )
    why = shown_raised(causes[1] if timed_out and len(causes) > 1 else exc)
    return (
        f"cannot reach a Dask scheduler at {address} ({why}); check that the scheduler is running and that this is "
        "the address it printed as it started (tcp://HOST:PORT), and that no firewall stands between, or leave "
        "out --dask to run on this machine"
    )


def not_on_dask(name: str, exc: BaseException, address: str) -> str:
    """Why strategy ``name``, which loads in the run's process, does not on the Dask cluster's workers.

    >>> exc = ValueError("cannot load 'mine:Mine'")
    >>> exc.__context__ = ModuleNotFoundError("No module named 'mine'")
    >>> print(not_on_dask("mine:Mine", exc, "tcp://h:8786"))  # doctest: +ELLIPSIS
    strategy 'mine:Mine' loads in this process but not on the Dask cluster's workers (ModuleNotFoundError: No module named 'mine'), ...upload_file('mine.py'); or run without --dask ...
    """
    cause = exc.__context__ if isinstance(exc.__context__, ImportError | AttributeError) else None
    module, _, attribute = name.partition(":")
    if cause is not None:
        why = shown_raised(cause)
    elif str(exc).startswith("there is no strategy called"):
        why = "no strategy of that name is installed there"
    else:
        why = shown_raised(exc)
    said = f"strategy {name!r} loads in this process but not on the Dask cluster's workers ({why})"
    instead = "; or run without --dask (dask=None), which plays on this machine"
    if not attribute:  # an entry point's name: only an installed package declares one
        return f"{said}: install the package that declares it on every worker{instead}"
    if module == "__main__":
        return (
            f"{said}: '__main__' on a worker is the worker's own program, not the script or notebook the run "
            f"started from. Put the strategy in a file of its own (mine.py, naming it 'mine:{attribute}'), then "
            "install that on every worker or put its folder on their PYTHONPATH, or send it to them from Python: "
            f"distributed.Client({address!r}).upload_file('mine.py'){instead}"
        )
    top = module.partition(".")[0]
    file = f"{top}.py" if top == module else f"{top}.zip"
    return (
        f"{said}, which import each strategy by its path, from their own folder and PYTHONPATH. Install it on "
        "every worker or put its folder on their PYTHONPATH, or send it to them from Python: "
        f"distributed.Client({address!r}).upload_file({file!r})"
        + ("" if top == module else f" (the package {top!r} zipped)")
        + instead
    )
