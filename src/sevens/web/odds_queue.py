"""Live odds worked out one at a time per worker, off the database connection and the thread pool.

A draft order's odds in a knockout take a tenth of a second or more of CPU (count-back over every
line, against each bot's order), and a client can ask for one different draft after another. Were
they worked out where the request holds its database connection (SQLite's only one per worker) and a
thread of the pool that serves every request, one client asking for many at once would hold up
everyone's pages, polls and orders. So the database is read first and let go, and the working out
waits here for the worker's odds process (:mod:`sevens.web.odds_process`), one question at a time:
at most one core goes to each worker's odds, outside the worker's interpreter, the requests waiting
hold no thread and no connection, and each credential may have only so many waiting.

The credentials with questions waiting take turns, one question each (round-robin): a player asking
while another has eight waiting waits for one of them, not all eight. Within a credential they go in
the order they came, except that a question asked as the newest draft of something (an order form's
team on one page, ``latest_of``) replaces that credential's question waiting for the same thing: a
player typing has the odds of each key asked, and only the last one's are worth working out. The one
replaced is answered 409 at once, and never reaches the odds process.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.to_thread
from fastapi import HTTPException

from sevens.web.odds_process import OddsProcess, OddsQuestion, OddsUnavailable

__all__ = ["ODDS_AT_ONCE", "SUPERSEDED", "OddsQueue"]

ODDS_AT_ONCE = 8
"""Odds requests one credential (a browser or a bot token) may have waiting or being worked out:
a player's page asks for each of its order forms' odds at once (four teams at most) and again as
each is typed in; more than this is one client asking faster than the answers come."""

SUPERSEDED = (
    "a newer draft's odds were asked for in its place before these were worked out: only the newest "
    "draft's are worked out, and these never will be (ask again to have them)"
)
"""The 409's detail for a question replaced while it waited (:meth:`OddsQueue.answer`'s ``latest_of``)."""


@dataclass(eq=False, slots=True)
class _Ask:
    asker: int
    question: OddsQuestion
    latest_of: Hashable | None
    turn: anyio.Event = field(default_factory=anyio.Event)  # set when chosen, or replaced
    replaced: bool = False


class OddsQueue:
    """Has the odds of :class:`OddsQuestion` worked out one at a time by an :class:`OddsProcess`:
    the credentials with questions waiting in turn, one question each, and each credential's in the
    order they came, less those a newer draft replaced.

    All of its state is touched from the event loop alone (no lock): only the odds process's answer
    is waited for on a thread.
    """

    def __init__(self, *, seconds: float, idle_seconds: float = 0.0, at_once: int = ODDS_AT_ONCE) -> None:
        self.at_once = at_once
        self.process = OddsProcess(seconds=seconds, idle_seconds=idle_seconds)
        # Per credential with questions waiting, in the order of their turns (a dict keeps it: the
        # one served goes to the back).
        self._waiting: dict[int, deque[_Ask]] = {}
        self._working: _Ask | None = None  # the one question with the odds process
        self._last_served: int | None = None  # whose question went to the odds process last

    async def answer(self, principal_id: int, question: OddsQuestion, *, latest_of: Hashable | None = None) -> dict[str, Any]:
        """The odds for ``question``, asked by the credential ``principal_id``.

        Args:
            latest_of: What ``question`` is the newest draft of (an order form's team on one page):
                a question of the same credential's with the same ``latest_of`` still waiting is
                replaced by this one (it gets 409). None: it replaces nothing, and nothing replaces it.

        Raises:
            HTTPException: 409, a newer draft with the same ``latest_of`` replaced it while it
                waited; 429, the credential has :attr:`at_once` odds requests waiting already;
                503, the odds process died or took too long working them out (it is restarted).
        """
        if latest_of is not None:
            self._replace(principal_id, latest_of)
        if self._holding(principal_id) >= self.at_once:
            raise HTTPException(
                status_code=429,
                detail=(
                    f"you have {self.at_once} odds requests being worked out already: wait for their answers "
                    "before asking for more (odds are worked out one at a time, for everyone)"
                ),
                headers={"Retry-After": "1"},
            )
        ask = _Ask(principal_id, question, latest_of)
        self._waiting.setdefault(principal_id, deque()).append(ask)
        try:
            self._next()
            await ask.turn.wait()
            if ask.replaced:
                raise HTTPException(status_code=409, detail=SUPERSEDED)
            try:
                return await anyio.to_thread.run_sync(self.process.answer, question, principal_id)
            except OddsUnavailable as exc:
                raise HTTPException(status_code=503, detail=str(exc), headers={"Retry-After": "1"}) from None
        finally:
            if self._working is ask:
                self._working = None
                self._next()
            elif not ask.turn.is_set():  # cancelled while it waited (the client went, the server stops)
                self._withdraw(ask)

    def _replace(self, asker: int, latest_of: Hashable) -> None:
        """Answer 409 the questions of ``asker`` waiting as drafts of ``latest_of`` (not the one the
        odds process has: it is answered, its work done). Only the asker's own are looked at."""
        waiting = self._waiting.get(asker)
        if not waiting:
            return
        for old in [a for a in waiting if a.latest_of == latest_of]:
            self._withdraw(old)
            old.replaced = True
            old.turn.set()

    def _holding(self, asker: int) -> int:
        """How many of ``asker``'s questions are waiting or with the odds process: a replaced one
        no longer counts, though its answer (409) is still on its way."""
        working = self._working is not None and self._working.asker == asker
        return len(self._waiting.get(asker, ())) + working

    def _withdraw(self, ask: _Ask) -> None:
        waiting = self._waiting.get(ask.asker)
        if waiting is not None and ask in waiting:
            waiting.remove(ask)
            if not waiting:
                del self._waiting[ask.asker]

    def _next(self) -> None:
        """Give the odds process, if free, the oldest question of the credential whose turn it is.

        The credential served last goes to the back of the turns first: behind those who asked
        while its question was worked out too."""
        if self._working is not None or not self._waiting:
            return
        if self._last_served in self._waiting:
            self._waiting[self._last_served] = self._waiting.pop(self._last_served)
        asker = next(iter(self._waiting))
        waiting = self._waiting[asker]
        ask = waiting.popleft()
        if not waiting:
            del self._waiting[asker]
        self._working, self._last_served = ask, asker
        ask.turn.set()

    def close(self) -> None:
        """Stop the odds process (the app's shutdown)."""
        self.process.close()
