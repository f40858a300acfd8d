"""The deadline scheduler: a background task that resolves every turn whose deadline has passed.

Deadlines are absolute UTC times in the database, so the scheduler keeps no state of its own: a
restarted server finds the overdue turns on its first poll. Each resolution takes the game's row
lock and checks the turn number (:func:`sevens.store.games.resolve_turn`), so two servers polling
the same database never resolve a turn twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from datetime import datetime

from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from sevens.store.db import session_scope
from sevens.store.errors import UnplayableOrder
from sevens.store.games import due_turns, public_ids, resolve_then_advance

__all__ = ["database_trouble", "resolve_due", "resolve_if_still_due", "run_scheduler"]

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
    each is said once, not once a poll."""
    with session_scope(factory) as session:
        due = due_turns(session, now=now)
        # For the log: the ids in the pages' addresses, which the operator is told.
        public = public_ids(session, [game_id for game_id, _ in due])
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
        except UnplayableOrder as exc:
            # A saved order the rules refuse (a hand-made backup's, say): the store's words name the
            # team and the rule, never the order's numbers (R13).
            if not said:
                log.error(
                    "game %s: turn %s cannot be resolved at its deadline: %s; the turn stays open, tried again "
                    "at every poll (said once): extend its deadline so that the team's manager can send another",
                    public_id, turn, exc.what,
                )
        except Exception:  # one broken game must not stop the others' deadlines
            if not said:
                log.exception("game %s: resolving turn %s at its deadline failed", public_id, turn)
        else:
            if done:
                after = f", and the {done - 1} after it at once (all ready, or bots only)" if done > 1 else ""
                log.info("game %s: turn %s resolved at its deadline%s", public_id, turn, after)
            resolved += done
            continue
        if failed is not None:
            failed.add((game_id, turn))
    return resolved


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


async def run_scheduler(
    factory: sessionmaker[Session], *, clock: Callable[[], datetime], interval: float
) -> None:
    """Poll for overdue turns every ``interval`` seconds until cancelled; cancelled in the middle of
    a poll, it finishes the game being resolved, begins no other, and then ends.

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
    while True:
        poll = asyncio.ensure_future(
            asyncio.to_thread(resolve_due, factory, now=clock(), reached=reached, stop=stop, failed=failed)
        )
        try:
            # Cancelled (the server stopping), the poll's thread would go on resolving games after
            # the server had let go of the database, and the process could end in the middle of
            # it: it is told to begin no other game, and waited for.
            await asyncio.shield(poll)
        except asyncio.CancelledError:
            stop.set()
            with contextlib.suppress(Exception):
                await poll
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
