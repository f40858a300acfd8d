"""Live odds worked out in a process of their own, beside each server worker.

A knockout draft's odds take a tenth of a second or more of CPU, and a client may ask for one after
another. Worked out on a thread of the worker, they held its interpreter lock most of the time, and
every page, poll and order of that worker slowed down while they ran. Here the worker sends each
question down a pipe to a child process and waits for the answer on a thread that holds no lock
while it waits; the child keeps the odds' caches (bounded, ``sevens.odds.joint.CACHE_BYTES``), so
the worker's own memory no longer grows with them.

The child is started by the first odds question a worker gets (most servers the tests start never
ask one, and a start costs a few tenths of a second of CPU: the import, then the tables all askers
share, worked out first, docs/web.md), and again after it died. It is sent the asking team's draft, what the
opponent's manager may see (a :class:`ManagerView`: nothing secret, R13) and the asking credential's
number (what it works out is kept per asker), never the game's state, a secret or a name; it
sends back the answer as JSON (the worker unpickles nothing from it), and logs nothing. An answer that takes longer than the worker's
limit (``SEVENS_ODDS_SECONDS``) is given up: the child is killed, and the request gets 503 saying to
ask again, as does one whose child died working it out. It ends when the worker closes its pipe
(the app's shutdown, once the requests in flight are answered, or after ``SEVENS_ODDS_IDLE_MINUTES``
without a question: its caches' memory is given back, and the next question starts another) or is gone (its pipe closes, and it
checks its parent each second while it works). It ignores SIGINT and SIGTERM, which a terminal's
Ctrl-C and ``systemctl stop`` send to every process of the server: the odds being worked out for
the requests the worker still answers are finished first.

Run as ``python -m sevens.web.odds_process`` by :class:`OddsProcess` only.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import hashlib
import json
import logging
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, BinaryIO, cast

from sevens import __version__
from sevens.bots import ShownMix, plausible_orders
from sevens.odds import mix_odds, order_odds
from sevens.odds.api import warm_shared_tables
from sevens.rules import Order
from sevens.tournament.game import ManagerView

__all__ = ["OddsProcess", "OddsQuestion", "OddsUnavailable", "malloc_trim", "odds_answer", "odds_key"]

log = logging.getLogger("sevens.web")

START_SECONDS = 60.0
"""How long the odds process may take to start (a second or two on a busy machine) before it
is taken as stuck: killed, and the request answered 503."""

MIX_LISTED = 12
"""A row lists the orders of a mix of at most this many (the pacing and equilibrium bots' two or
three); the "random" bot's hundreds would fill an answer at every keystroke, and say no more than
their count."""

READY = b"R"
ANSWER = b"A"
FAILED = b"E"


@dataclass(frozen=True, slots=True)
class OddsQuestion:
    """What the odds of a draft order are worked out from, read from the database first: the working
    out (:func:`odds_answer`) then needs no connection, and may happen in another process.

    ``theirs`` is what the opponent's manager (or bot) may see, from which each bot's mix of orders
    is worked out; ``None`` when the team has no match next."""

    team_id: str
    mine: Order
    scrum: int
    theirs: ManagerView | None
    their_bot: str | None
    knockout: bool
    bots: tuple[str, ...]
    """The bots a game may use (``sevens.store.games.strategy_names``), whose mixes of orders are
    worked out: read by the worker, which has the store, and sent with the question."""


def odds_key(question: OddsQuestion, player_id: str) -> str:
    """A digest of what the odds of ``question``'s team depend on besides its draft, for player
    ``player_id``: :func:`odds_answer` is a function of its question alone, so equal keys and
    equal drafts give equal answers. The order form's script keeps its last answer under this key
    and shows it again on a reload rather than ask, as long as the page gives the same key.

    The version stands for the code that works the odds out (built-in bots only, R13); the player
    keeps one player's kept answer from another's page in a shared browser.
    """
    inputs = (
        __version__,
        player_id,
        question.team_id,
        question.scrum,
        question.theirs,
        question.their_bot,
        question.knockout,
        question.bots,
    )
    return hashlib.sha256(repr(inputs).encode()).hexdigest()[:32]


def _plausible_orders(
    theirs: ManagerView, names: tuple[str, ...], their_bot: str | None, knockout: bool
) -> list[tuple[str, ShownMix, bool]]:
    """Each bot's orders in the opponent's place (:func:`sevens.bots.plausible_orders`, as sevens
    play asks it), and whether they are its whole mix (``True``) or one typical order. A bot whose
    mix or order cannot be told (it raised, or gave what R3 refuses) has no row: the others' odds
    still answer."""
    found: list[tuple[str, ShownMix, bool]] = []
    for name in names + ((their_bot,) if their_bot is not None and their_bot not in names else ()):
        plausible = plausible_orders(name, theirs, knockout=knockout)
        if not isinstance(plausible, str):
            found.append((name, *plausible))
    return found


def odds_answer(question: OddsQuestion, asker: Hashable | None = None) -> dict[str, Any]:
    """Live odds of a checked draft order against each bot's mix of opposing orders (no database).

    What is worked out is kept under ``asker`` (a credential), apart from every other asker's: the
    same answer, as soon or as late whatever anyone else asked before (docs/web.md). The bots'
    mixes, made from what the opponent's manager may see, are not secret and share a cache.
    """
    mine = question.mine
    expected = order_odds(mine.force, mine.flair, scope=asker).expected_points
    rows: list[dict[str, Any]] = []
    rules = None
    theirs = question.theirs
    if theirs is not None:
        rules = "knockout" if question.knockout else "group"  # which of draw or level the rows carry
        for name, mix, whole in _plausible_orders(theirs, question.bots, question.their_bot, question.knockout):
            odds = mix_odds(mine, mix.orders, knockout=question.knockout, scope=asker)
            row: dict[str, Any] = {"bot": name, "order": mix.likeliest.to_dict(), **odds.to_dict()}
            listed = whole and len(mix.orders) <= MIX_LISTED
            row["mix"] = [{**order.to_dict(), "chance": chance} for order, chance in mix.orders] if listed else (
                [] if whole else None
            )
            row["mix_size"] = mix.size if whole else None
            row["mix_used"] = len(mix.orders) if whole else None
            rows.append(row)
    return {
        "team": question.team_id,
        "rules": rules,
        "order": mine.to_dict(),
        "expected_points": round(float(expected), 3),
        "scrum_left": question.scrum - mine.total,
        "opponent": None if theirs is None else str(theirs.team),
        "opponent_bot": question.their_bot,
        "against": rows,
    }


class OddsUnavailable(Exception):
    """The odds process gave no answer (it died, or took longer than the limit); the message says
    which, for the client, who may ask again."""


def _frame(kind: bytes, payload: bytes) -> bytes:
    return kind + len(payload).to_bytes(4, "big") + payload


class OddsProcess:
    """One child process working out odds for a worker, started when first asked, one question at
    a time (:class:`~sevens.web.odds_queue.OddsQueue` takes turns before; a lock here too).

    Args:
        seconds: How long one answer may take before it is given up and the process killed (its
            start has :data:`START_SECONDS` of its own).
        idle_seconds: How long the child may go without a question before it is stopped, giving
            its memory back (the next question starts another); 0: it runs until :meth:`close`.
    """

    def __init__(self, *, seconds: float, idle_seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.idle_seconds = idle_seconds
        self._lock = threading.Lock()
        self._child: subprocess.Popen[bytes] | None = None
        self._last = time.monotonic()  # when the last question was done with, under the lock

    @property
    def pid(self) -> int | None:
        """The child's process id, if one is running."""
        child = self._child
        return None if child is None or child.poll() is not None else child.pid

    def answer(self, question: OddsQuestion, asker: int | None = None) -> dict[str, Any]:
        """The odds for ``question``, worked out in the child (blocking: call it on a thread), from
        what the child kept for ``asker`` alone (a credential's id; :func:`odds_answer`).

        Raises:
            OddsUnavailable: the child died working them out, or took longer than :attr:`seconds`.
        """
        with self._lock:
            try:
                child = self._running(time.monotonic() + START_SECONDS)
                deadline = time.monotonic() + self.seconds
                assert child.stdin is not None and child.stdout is not None
                asked = pickle.dumps((question, asker), protocol=pickle.HIGHEST_PROTOCOL)
                self._write(child, _frame(b"Q", asked), deadline)
                kind, payload = self._read_frame(child, deadline)
            finally:
                self._last = time.monotonic()
            if kind == FAILED:  # a bug, not the client's doing: the type only, never the draft
                raise RuntimeError(f"the odds process failed on a question: {payload.decode()}")
            answer: dict[str, Any] = json.loads(payload)
            return answer

    def _stop_when_idle(self, child: subprocess.Popen[bytes]) -> None:
        """Stop ``child`` once it has had no question for :attr:`idle_seconds` (on a thread of its own).

        Decided and done under the lock every question holds from its start to its answer: a
        question either came first (and the idle time counts from its answer) or finds no child and
        starts another. The child is only ever stopped between questions, when it holds none.
        """
        while True:
            with self._lock:
                if self._child is not child:  # lost, closed or replaced meanwhile
                    return
                left = self._last + self.idle_seconds - time.monotonic()
                if left <= 0:
                    self._child = None
                    _end(child)
                    log.info(
                        "the odds process %d stopped after %g minutes without a question, giving its memory back; "
                        "the next odds question starts another", child.pid, self.idle_seconds / 60,
                    )
                    return
            time.sleep(left)

    def _running(self, deadline: float) -> subprocess.Popen[bytes]:
        child = self._child
        if child is not None and child.poll() is None:
            return child
        if child is not None:  # died between questions (the OOM killer, an operator): start another
            log.warning("the odds process %d had stopped (exit status %s); starting another", child.pid, child.returncode)
            self._child = None
        child = subprocess.Popen(
            [sys.executable, "-m", "sevens.web.odds_process"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            # Its own errors go to the worker's log; it writes nothing else there.
            env=_child_environment(),
        )
        self._child = child
        kind, _ = self._read_frame(child, deadline, starting=True)
        if kind != READY:
            raise self._lost(child, "did not start")
        if self.idle_seconds:
            threading.Thread(target=self._stop_when_idle, args=(child,), name="odds-idle", daemon=True).start()
        return child

    def _write(self, child: subprocess.Popen[bytes], data: bytes, deadline: float) -> None:
        # A question larger than the pipe's buffer would block a plain write for as long as a stuck
        # child reads nothing: written a pipe's atomic size at a time, each when there is room.
        assert child.stdin is not None
        fd = child.stdin.fileno()
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [fd], [], left)[1]:
                raise self._lost(child, f"took longer than {self.seconds:g} s to work out these odds")
            try:
                view = view[os.write(fd, view[: select.PIPE_BUF]) :]
            except BrokenPipeError:
                raise self._lost(child, "stopped while working out these odds") from None

    def _read_frame(self, child: subprocess.Popen[bytes], deadline: float, *, starting: bool = False) -> tuple[bytes, bytes]:
        head = self._read(child, 5, deadline, starting)
        return head[:1], self._read(child, int.from_bytes(head[1:], "big"), deadline, starting)

    def _read(self, child: subprocess.Popen[bytes], size: int, deadline: float, starting: bool) -> bytes:
        assert child.stdout is not None
        fd = child.stdout.fileno()
        chunks: list[bytes] = []
        while size:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                if starting:
                    raise self._lost(child, f"took longer than {START_SECONDS:g} s to start")
                raise self._lost(child, f"took longer than {self.seconds:g} s to work out these odds")
            chunk = os.read(fd, size)
            if not chunk:
                raise self._lost(child, "did not start" if starting else "stopped while working out these odds")
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def _lost(self, child: subprocess.Popen[bytes], what: str) -> OddsUnavailable:
        """Forget ``child`` (the next question starts another), reaped, and say what happened."""
        if child.poll() is None:
            child.kill()
        status = child.wait()
        for pipe in (child.stdin, child.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        if self._child is child:
            self._child = None
        log.warning("the odds process %d %s (exit status %s); the next odds question starts another", child.pid, what, status)
        return OddsUnavailable(f"the odds process {what}: ask again (it has been restarted)")

    def close(self) -> None:
        """Stop the child: its pipe closed, it exits; killed if it has not within two seconds."""
        child, self._child = self._child, None
        if child is not None:
            _end(child)


def _end(child: subprocess.Popen[bytes]) -> None:
    # Its pipe closed, a child waiting for a question exits; one that has not within two seconds is killed.
    if child.stdin is not None:
        with contextlib.suppress(OSError):  # it had died
            child.stdin.close()
    try:
        child.wait(timeout=2)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
    if child.stdout is not None:
        child.stdout.close()


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""What numpy's linear algebra reads for its thread count, set to 1 in the odds process."""


def _child_environment() -> dict[str, str]:
    # The child opens no database and reads no setting: the database's address (and its password)
    # and the server's settings stay with the worker.
    kept = {k: v for k, v in os.environ.items() if k != "DATABASE_URL" and not k.startswith("SEVENS_")}
    # One question at a time: BLAS threads on the large knockout dot products only busy-wait on the
    # server's cores (a new knockout draft against a 12-order mix took 2 to 4 times the CPU). Set
    # before numpy loads. An operator's own OMP_NUM_THREADS is kept in effect: OpenBLAS and MKL read
    # their own variables first, so a 1 set there would overrule it.
    if "OMP_NUM_THREADS" in kept:
        return kept
    for name in BLAS_THREADS:
        kept.setdefault(name, "1")
    return kept


def malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, which gives memory the C library holds freed back to the system, or
    None where the C library has none (musl, macOS: none of glibc's thresholds either)."""
    name = ctypes.util.find_library("c")
    trim = getattr(ctypes.CDLL(name), "malloc_trim", None) if name else None
    return cast("Callable[[int], int] | None", trim)


def _give_back_freed_memory() -> Callable[[], object]:
    """What gives the memory freed since the last call back to the system: glibc's ``malloc_trim``
    where the C library has it, else nothing.

    glibc raises its threshold for serving an allocation from fresh pages of its own to the size of
    the largest block freed so far (up to 32 MB): after the first large array of a knockout
    count-back is freed, the next ones of up to 32 MB come from its heap, which keeps them resident
    once freed. Asked 40 knockout drafts by 4 askers, the process held 780 MB resident for 494 MB
    counted in its cache (tracemalloc: 497 MB); given back after each answer, 562 MB
    (benchmarks/odds_memory.py --resident).
    """
    trim = malloc_trim()
    if trim is None:
        return lambda: None
    return lambda: trim(0)


def _read_exactly(stream: BinaryIO, size: int) -> bytes | None:
    data = stream.read(size)
    return data if len(data) == size else None


def _watch_parent(parent: int) -> None:
    # The pipe's end tells a child waiting for a question that the worker is gone; one busy on a
    # long (or stuck) answer learns it here.
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def main() -> None:  # pragma: no cover - runs in the child
    """The child's loop: a question in, its answer out, until the pipe closes."""
    for signum in (signal.SIGINT, signal.SIGTERM):  # the worker stops it (module docstring)
        signal.signal(signum, signal.SIG_IGN)
    questions = sys.stdin.buffer
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # anything printed by mistake is not an answer
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    # Before any question: which small tables are kept must not depend on who asked what.
    warm_shared_tables()
    give_back = _give_back_freed_memory()
    give_back()
    answers.write(_frame(READY, b""))
    answers.flush()
    while (head := _read_exactly(questions, 5)) is not None:
        payload = _read_exactly(questions, int.from_bytes(head[1:], "big"))
        if payload is None:
            return
        try:
            question, asker = pickle.loads(payload)
            reply = _frame(ANSWER, json.dumps(odds_answer(question, asker)).encode())
        except Exception as exc:  # said to the worker, which fails the request
            reply = _frame(FAILED, type(exc).__name__.encode())
        give_back()  # what the answer's arrays freed, before it waits for the next question
        try:
            answers.write(reply)
            answers.flush()
        except BrokenPipeError:  # the worker is gone; nothing left to flush, nothing to say at exit
            os._exit(0)


if __name__ == "__main__":  # pragma: no cover - the child
    main()
