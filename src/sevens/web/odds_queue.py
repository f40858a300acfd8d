"""Live odds worked out one at a time per worker, off the database connection and the thread pool.

A draft order's odds in a knockout take a tenth of a second or more of CPU (count-back over every
line, against each bot's order), and a client can ask for one different draft after another. Were
they worked out where the request holds its database connection (SQLite's only one per worker) and a
thread of the pool that serves every request, one client asking for many at once would hold up
everyone's pages, polls and orders. So the database is read first and let go, and the working out
waits here for the worker's odds process (:mod:`sevens.web.odds_process`), one question at a time:
at most one core goes to each worker's odds, outside the worker's interpreter, the requests waiting
hold no thread and no connection, and each credential may have only so many waiting.
A credential's requests are taken one at a time, in turn with everyone else's: a player asking
while another has eight waiting waits for one of them, not all eight.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import anyio
import anyio.to_thread
from fastapi import HTTPException

from sevens.web.odds_process import OddsProcess, OddsQuestion, OddsUnavailable

__all__ = ["ODDS_AT_ONCE", "OddsQueue"]

ODDS_AT_ONCE = 8
"""Odds requests one credential (a browser or a bot token) may have waiting or being worked out:
a player's page asks for each of its order forms' odds at once (four teams at most) and again as
each is typed in; more than this is one client asking faster than the answers come."""


class OddsQueue:
    """Has the odds of :class:`OddsQuestion` worked out one at a time by an :class:`OddsProcess`:
    each credential's in the order they came, and the credentials' in turn."""

    def __init__(self, *, seconds: float, idle_seconds: float = 0.0, at_once: int = ODDS_AT_ONCE) -> None:
        self.at_once = at_once
        self.process = OddsProcess(seconds=seconds, idle_seconds=idle_seconds)
        self._limiter: anyio.CapacityLimiter | None = None  # made in the event loop, on first use
        self._waiting: Counter[int] = Counter()  # per credential; a count back to 0 is deleted
        self._turns: dict[int, anyio.Lock] = {}  # per credential with requests waiting: one at a time

    async def answer(self, principal_id: int, question: OddsQuestion) -> dict[str, Any]:
        """The odds for ``question``, asked by the credential ``principal_id``.

        Raises:
            HTTPException: 429, the credential has :attr:`at_once` odds requests waiting already;
                503, the odds process died or took too long working them out (it is restarted).
        """
        if self._waiting[principal_id] >= self.at_once:
            raise HTTPException(
                status_code=429,
                detail=(
                    f"you have {self.at_once} odds requests being worked out already: wait for their answers "
                    "before asking for more (odds are worked out one at a time, for everyone)"
                ),
                headers={"Retry-After": "1"},
            )
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(1)
        self._waiting[principal_id] += 1
        turn = self._turns.setdefault(principal_id, anyio.Lock())
        try:
            async with turn:
                return await anyio.to_thread.run_sync(self.process.answer, question, principal_id, limiter=self._limiter)
        except OddsUnavailable as exc:
            raise HTTPException(status_code=503, detail=str(exc), headers={"Retry-After": "1"}) from None
        finally:
            self._waiting[principal_id] -= 1
            if not self._waiting[principal_id]:
                del self._waiting[principal_id]
                del self._turns[principal_id]

    def close(self) -> None:
        """Stop the odds process (the app's shutdown)."""
        self.process.close()
