"""The odds queue of sevens.web.odds_queue with a real odds process: whose question goes next, and
which are never worked out (the servers' side of it is tests/reliability/test_odds_load.py).

The first question asked goes to the odds process at once; those asked in the same moment wait
behind it (its answer comes back through a thread, after they have all been queued), so the order
of the answers below is the queue's, not the machine's."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest
from fastapi import HTTPException

from sevens.rules import Order
from sevens.web.odds_process import OddsQuestion
from sevens.web.odds_queue import SUPERSEDED, OddsQueue

ALICE, BOB = 1, 2


def _draft(force: int, flair: int = 0, team: str = "T1") -> OddsQuestion:
    return OddsQuestion(team_id=team, mine=Order(force=force, flair=flair), scrum=100, theirs=None, their_bot=None,
                        knockout=False, bots=())


Outcome = tuple[int, str, int]  # asker, team, then the draft's FORCE answered, or the refusal's status


def _asked_together(queue: OddsQueue, asks: list[tuple[int, OddsQuestion, Any]]) -> list[Outcome]:
    """Ask all of ``asks`` (asker, question, latest_of) in that order at the same moment; the
    outcomes in the order they came: the odds' FORCE, or the HTTP status refused with."""
    outcomes: list[Outcome] = []
    details: list[str] = []

    def one(asker: int, question: OddsQuestion, latest_of: Any) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            try:
                answer = await queue.answer(asker, question, latest_of=latest_of)
                outcomes.append((asker, question.team_id, answer["order"]["force"]))
            except HTTPException as exc:
                outcomes.append((asker, question.team_id, exc.status_code))
                details.append(str(exc.detail))
        return run

    async def main() -> None:
        async with anyio.create_task_group() as tasks:
            for asker, question, latest_of in asks:
                tasks.start_soon(one(asker, question, latest_of))

    anyio.run(main)
    assert all(detail == SUPERSEDED or "being worked out already" in detail for detail in details), details
    return outcomes


@pytest.fixture
def queue() -> Any:
    odds = OddsQueue(seconds=30)
    anyio.run(odds.answer, ALICE, _draft(1))  # started: its start is not one of the answers timed below
    yield odds
    odds.close()


def test_a_newer_draft_replaces_the_older_ones_still_waiting(queue: OddsQueue) -> None:
    """A player typing 10, 11, 12, 13 into a form: 10 is with the odds process when the others
    come; 11 and 12 are answered 409 at once and never worked out, 13 after 10. (Before, 11 and 12
    were worked out, and 13 waited for both.)"""
    typed = [(ALICE, _draft(force), ("page", "p1", "T1")) for force in (10, 11, 12, 13)]
    outcomes = _asked_together(queue, typed)
    assert outcomes == [(ALICE, "T1", 409), (ALICE, "T1", 409), (ALICE, "T1", 10), (ALICE, "T1", 13)]


def test_only_the_same_form_of_the_same_page_is_replaced(queue: OddsQueue) -> None:
    """Another team's form, another page (tab) of the same browser and a draft asked without
    latest_of are not replaced: each of those is answered with its own odds."""
    asks = [
        (ALICE, _draft(10), None),
        (ALICE, _draft(20), ("page", "p1", "T1")),
        (ALICE, _draft(30, team="T2"), ("page", "p1", "T2")),
        (ALICE, _draft(40), ("page", "p2", "T1")),
        (ALICE, _draft(50), None),
        (ALICE, _draft(60), ("page", "p1", "T1")),
    ]
    outcomes = _asked_together(queue, asks)
    assert outcomes == [(ALICE, "T1", 409), (ALICE, "T1", 10), (ALICE, "T2", 30), (ALICE, "T1", 40),
                        (ALICE, "T1", 50), (ALICE, "T1", 60)]


def test_one_players_draft_never_replaces_anothers(queue: OddsQueue) -> None:
    """Two players on the same team id and the same page name (a name is the page's to choose):
    each player's waiting draft is theirs alone, answered with its own odds (a secret: nothing of
    one's draft may reach the other, not even as a refusal)."""
    same = ("page", "p1", "T1")
    asks = [(ALICE, _draft(10), None), (BOB, _draft(20), same), (ALICE, _draft(30), same)]
    assert _asked_together(queue, asks) == [(ALICE, "T1", 10), (BOB, "T1", 20), (ALICE, "T1", 30)]


def test_askers_take_turns_one_question_each(queue: OddsQueue) -> None:
    """Alice asks four at once, then Bob two: after Alice's first (already with the odds process),
    they alternate, Bob first, rather than Bob's waiting behind all of Alice's."""
    asks = [(ALICE, _draft(f), None) for f in (10, 11, 12, 13)] + [(BOB, _draft(f), None) for f in (20, 21)]
    forces = [force for _, _, force in _asked_together(queue, asks)]
    assert forces == [10, 20, 11, 21, 12, 13]


def test_a_typing_page_is_never_told_to_wait_but_a_flood_is() -> None:
    """Twelve keys typed into one form while its first draft is worked out: each replaces the last
    waiting, so the page never reaches the limit of requests waiting (before, the ninth on got
    429). Twelve drafts asked without latest_of do reach it: the bound on each asker stands."""
    queue = OddsQueue(seconds=30, at_once=8)
    try:
        typed = _asked_together(queue, [(ALICE, _draft(force), ("page", "p1", "T1")) for force in range(1, 13)])
        assert [force for _, _, force in typed] == [409] * 10 + [1, 12]
        flood = _asked_together(queue, [(BOB, _draft(force), None) for force in range(1, 13)])
        assert [force for _, _, force in flood] == [429] * 4 + list(range(1, 9))
    finally:
        queue.close()


def test_a_question_given_up_while_it_waits_is_never_worked_out(queue: OddsQueue) -> None:
    """A request cancelled while its question waited (the server stopping, a client gone) leaves
    the queue: the next asker's question is worked out after the one with the process, and the
    asker's count of questions waiting is back to none."""
    outcomes: list[int] = []

    async def ask(asker: int, force: int) -> None:
        outcomes.append((await queue.answer(asker, _draft(force)))["order"]["force"])

    async def main() -> None:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(ask, ALICE, 10)
            await anyio.sleep(0)
            with anyio.CancelScope() as given_up:
                given_up.cancel()
                await ask(ALICE, 11)
            tasks.start_soon(ask, BOB, 20)

    anyio.run(main)
    assert outcomes == [10, 20]
    assert queue._waiting == {} and queue._working is None  # nobody holds a question: none counted
