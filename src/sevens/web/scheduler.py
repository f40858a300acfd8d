"""The deadline scheduler: a background task that resolves every turn whose deadline has passed,
and every turn left open with all its orders ready (:func:`resolve_all_ready`), and now and then
forgets what has outlived its use (:func:`tidy`).

Deadlines are absolute UTC times in the database, so the scheduler needs no state of its own for
them: a restarted server finds the overdue turns on its first poll, and so for the turns it is to
look at to see whether their orders are all ready (``games.ready_check_at``). A poll reads only
the games due, from those two columns' indexes: games nobody plays any more cost it nothing. Each
resolution takes the game's row lock and checks the turn number (:func:`sevens.store.games.resolve_turn`), so two servers polling
the same database never resolve a turn twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from sevens.store.db import session_scope
from sevens.store.errors import DamagedRecord, NotFound, UnplayableOrder
from sevens.store.games import (
    advance,
    due_turns,
    note_unresolved,
    public_ids,
    ready_check_done,
    ready_checks_due,
    resolve_then_advance,
)
from sevens.store.retention import delete_game, games_over_before, prune

__all__ = [
    "Keeping", "database_trouble", "resolve_all_ready", "resolve_due",
    "resolve_if_still_due", "run_scheduler", "tidy",
]

log = logging.getLogger("sevens.web.scheduler")


def resolve_due(
    factory: sessionmaker[Session],
    *,
    now: datetime,
    reached: Callable[[], None] | None = None,
    stop: threading.Event | None = None,
    failed: set[tuple[int, int]] | None = None,
) -> int:
    """Resolve every overdue turn, one transaction per game; returns how many turns were resolved.

    Each resolution is logged (the game's public id and the turn, never an order: R13). A database
    that cannot be reached (:class:`OperationalError`) ends the poll: the next one tries again.
    ``reached`` is called once the overdue turns are found, before any is resolved. Once ``stop``
    is set (the server is stopping) no further game is begun; the one being resolved is finished.

    A turn that cannot be resolved stays due, and is tried again at every poll: ``failed`` holds the
    (game, turn) pairs whose failure was logged already (kept across polls by the caller), so that
    each is said once, not once a poll. Those no longer due are dropped from it at each poll: a turn
    that fails again after its deadline was moved is said again."""
    with session_scope(factory) as session:
        due = due_turns(session, now=now)
        # For the log: the ids in the pages' addresses, which the operator is told.
        public = public_ids(session, [game_id for game_id, _ in due])
    if failed is not None:
        # A turn no longer due (resolved, its deadline moved, its game ended or deleted) is forgotten:
        # kept, the set grew by every turn that ever failed, for the life of the server.
        failed.intersection_update(due)
    if reached is not None:
        reached()
    resolved = 0
    for game_id, turn in due:
        if stop is not None and stop.is_set():
            break  # the rest wait for the next server: their deadlines are in the database
        public_id = public.get(game_id, game_id)
        said = failed is not None and (game_id, turn) in failed
        try:
            done = resolve_if_still_due(factory, game_id=game_id, turn=turn, now=now)
        except OperationalError:
            raise
        except NotFound:
            # Its organiser deleted it since the turns were listed: nothing is left to resolve.
            log.info("game %s: deleted before turn %s was resolved at its deadline", public_id, turn)
            continue
        except UnplayableOrder as exc:
            # A saved order the rules refuse (a hand-made backup's, say): the store's words name the
            # team and the rule, never the order's numbers (R13).
            if not said:
                log.error(
                    "game %s: turn %s cannot be resolved at its deadline: %s; the turn stays open, tried again "
                    "at every poll (said once): extend its deadline so that the team's manager can send another",
                    public_id, turn, exc.what,
                )
                _tell_organiser(factory, game_id=game_id, turn=turn, now=now, why=exc.what)
        except DamagedRecord:
            # Not a bug to trace: the record was changed outside sevens. The game's pages say so (to
            # its organiser too), so the event log, which they cannot show, is not written; nor is
            # where it fails, whose words may quote a name.
            if not said:
                log.error(
                    "game %s: turn %s cannot be resolved at its deadline: its stored record is damaged and no "
                    "longer replays (its Verify page says where); tried again at every poll (said once): restore "
                    "the game from a backup made before, or its organiser deletes it", public_id, turn,
                )
        except Exception:  # one broken game must not stop the others' deadlines
            if not said:
                reference = secrets.token_hex(4)
                log.exception(
                    "game %s: resolving turn %s at its deadline failed (reference %s); tried again at every poll "
                    "(said once)", public_id, turn, reference,
                )
                _tell_organiser(
                    factory, game_id=game_id, turn=turn, now=now,
                    why=f"an unexpected error on the server (reference {reference} in its log)",
                )
        else:
            if done:
                after = f", and the {done - 1} after it at once (all ready, or bots only)" if done > 1 else ""
                log.info("game %s: turn %s resolved at its deadline%s", public_id, turn, after)
            resolved += done
            continue
        if failed is not None:
            failed.add((game_id, turn))
    return resolved


def _tell_organiser(factory: sessionmaker[Session], *, game_id: int, turn: int, now: datetime, why: str) -> None:
    # In the event log, which the organiser page reads to say that the turn is stuck, and why.
    try:
        with session_scope(factory) as session:
            note_unresolved(session, game_id=game_id, turn=turn, now=now, why=why)
    except OperationalError:
        raise
    except Exception:
        log.exception("could not note in the event log why turn %s of a game could not be resolved", turn)


def database_trouble(exc: OperationalError) -> str:
    """The driver's first line about a database that could not be used (no statement, no parameters).

    >>> database_trouble(OperationalError("SELECT 1", {}, Exception("unable to open database file\\nmore")))
    'unable to open database file'
    """
    return (str(exc.orig) or type(exc.orig).__name__).splitlines()[0]


def resolve_if_still_due(factory: sessionmaker[Session], *, game_id: int, turn: int, now: datetime) -> int:
    """Resolve a turn :func:`resolve_due` found due, in a transaction of its own, unless the organiser
    paused the game or extended its deadline since (the turn then stays open, as the page said).
    Returns how many turns were resolved."""
    with session_scope(factory) as session:
        return resolve_then_advance(session, game_id=game_id, turn=turn, reason="deadline", now=now, due_only=True)


@dataclass(frozen=True)
class Keeping:
    """How long the server keeps what it may forget (:func:`tidy`)."""

    unused_bot_days: int
    """A bot token that opens no game is removed this long after it was made."""
    games_over_days: int = 0
    """A game over (finished or ended) is deleted this long after it ended; 0: kept for ever."""
    every_seconds: float = 3600.0
    """How often the scheduler tidies (the first time at its first poll)."""


def tidy(factory: sessionmaker[Session], *, now: datetime, keeping: Keeping) -> int:
    """Remove expired sessions, bot tokens that open nothing, counts of attempts past every rate
    limit's window and, if ``keeping`` says so, games long over; returns how many rows of those
    went (a game counts one). One line in the log says how many, when any did: no name or id."""
    with session_scope(factory) as session:
        pruned = prune(session, now=now, unused_bot_days=keeping.unused_bot_days)
    games = 0
    if keeping.games_over_days:
        with session_scope(factory) as session:
            old = games_over_before(session, before=now - timedelta(days=keeping.games_over_days))
        for game_id in old:  # one transaction each: a long list holds no lock for long
            with session_scope(factory) as session:
                delete_game(session, game_id=game_id, now=now)
            games += 1
    if pruned.total or games:
        log.info(
            "tidied: %d expired browser sessions, %d bot tokens that opened no game, %d counts of attempts, "
            "%d games over for more than %d days",
            pruned.sessions, pruned.bot_tokens, pruned.attempts, games, keeping.games_over_days,
        )
    return pruned.total + games


def resolve_all_ready(
    factory: sessionmaker[Session],
    *,
    now: datetime,
    stop: threading.Event | None = None,
    starting: bool = False,
) -> int:
    """Resolve every turn whose orders are all ready but which is still open; returns how many turns
    were resolved (with the bots-only turns that follow them).

    A last ready order, a start with no seat taken and a seat handed to the bots are committed
    before the turns they complete are worked out (outside the game's lock), so a server stopped
    between the two, or a database error or a killed worker after the commit, leaves a turn that
    nothing would resolve until someone pressed Ready again, the organiser Resolve, or its deadline
    came. Each such write (and each turn resolved) makes its game due :data:`~sevens.store.games.LEFT_READY_AFTER`
    later (:func:`~sevens.store.games.ready_checks_due`); a poll looks at the games due, each once,
    and then clears them unless a write made them due again meanwhile. ``starting`` (a server's
    first poll): every game a write marked, however recently, for the request that made the write
    may have been a stopped server's. A turn with an order saved but not ready is not resolved: it
    waits for that order. Once ``stop`` is set no further game is begun."""
    with session_scope(factory) as session:
        due = ready_checks_due(session, now=None if starting else now)
        if not due:
            return 0
        public = public_ids(session, [game_id for game_id, _ in due])
    resolved = 0
    for game_id, at in due:
        if stop is not None and stop.is_set():
            break  # still due: looked at by the next poll, or the next server's
        try:
            with session_scope(factory) as session:
                done = advance(session, game_id=game_id, now=now)
        except OperationalError:
            raise  # the database cannot be used: this game and those after it stay due
        except (NotFound, UnplayableOrder, DamagedRecord):
            done = 0  # said where a person sees it: at the next order, Resolve or deadline
        except Exception:  # one broken game must not stop the others; looked at again once it changes
            log.exception("game %s: resolving a turn whose orders are all ready failed", public.get(game_id, game_id))
            done = 0
        with session_scope(factory) as session:
            ready_check_done(session, game_id=game_id, at=at)
        if done:
            log.info(
                "game %s: %d turns resolved whose orders were all ready but which were left open (a server "
                "stopped, or the work after the last order failed)", public.get(game_id, game_id), done,
            )
        resolved += done
    return resolved


async def run_scheduler(
    factory: sessionmaker[Session],
    *,
    clock: Callable[[], datetime],
    interval: float,
    keeping: Keeping | None = None,
) -> None:
    """Poll for overdue turns every ``interval`` seconds until cancelled; cancelled in the middle of
    a poll, it finishes the game being resolved, begins no other, and then ends. With ``keeping``,
    :func:`tidy` runs at the first poll and then every ``keeping.every_seconds``.

    While the database cannot be reached the poll fails each time; that is logged once, in one
    line with the driver's reason, and again when the database answers (not a traceback a poll)."""
    unreachable = False
    failed: set[tuple[int, int]] = set()  # turns whose failure to resolve was logged: said once each

    def reached() -> None:
        nonlocal unreachable
        if unreachable:
            log.info("the deadline scheduler reaches the database again")
        unreachable = False

    stop = threading.Event()
    tidied: float | None = None  # the loop's time of the last tidy
    loop = asyncio.get_running_loop()
    started = False

    def poll() -> None:
        nonlocal started
        resolve_due(factory, now=clock(), reached=reached, stop=stop, failed=failed)
        # Turns left all ready (the work after their last order failed, or a server stopped).
        resolve_all_ready(factory, now=clock(), stop=stop, starting=not started)
        started = True

    while True:
        if keeping is not None and (tidied is None or loop.time() - tidied >= keeping.every_seconds):
            tidied = loop.time()
            try:
                await asyncio.to_thread(tidy, factory, now=clock(), keeping=keeping)
            except OperationalError:
                pass  # the poll below says the database cannot be used, once
            except Exception:
                log.exception("tidying the database failed; tried again in %g s", keeping.every_seconds)
        polling = asyncio.ensure_future(asyncio.to_thread(poll))
        try:
            # Cancelled (the server stopping), the poll's thread would go on resolving games after
            # the server had let go of the database, and the process could end in the middle of
            # it: it is told to begin no other game, and waited for.
            await asyncio.shield(polling)
        except asyncio.CancelledError:
            stop.set()
            with contextlib.suppress(Exception):
                await polling
            raise
        except OperationalError as exc:
            if not unreachable:
                log.error(
                    "the deadline scheduler cannot use the database: %s; turns past their deadline wait "
                    "until it answers (tried again every %g s)", database_trouble(exc), interval,
                )
            unreachable = True
        except Exception:
            log.exception("scheduler poll failed")
        await asyncio.sleep(interval)
