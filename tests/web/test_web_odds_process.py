"""The odds process of sevens.web.odds_process on its own: a real child process, driven as a worker
drives it (the servers' side of it is tests/reliability/test_odds_process.py)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

import pytest

from sevens.rules import Order
from sevens.web.odds_process import OddsProcess, OddsQuestion, OddsUnavailable


@pytest.fixture
def process() -> Iterator[OddsProcess]:
    odds = OddsProcess(seconds=1)
    yield odds
    odds.close()


def _question(team: str) -> OddsQuestion:
    return OddsQuestion(team_id=team, mine=Order(force=4, flair=6), scrum=20, theirs=None, their_bot=None, knockout=False, bots=())


def test_a_question_larger_than_the_pipe_holds_is_given_up_when_the_process_is_stuck(process: OddsProcess) -> None:
    """A stuck odds process (stopped) reads nothing: a question larger than the pipe's buffer
    (64 KB on Linux) once blocked the worker's write for good, the limit never checked, and every
    odds request after it waited behind it. Now it is given up at the limit as an answer is."""
    assert process.answer(_question("A"))["expected_points"] > 0
    stuck = process.pid
    assert stuck is not None
    os.kill(stuck, signal.SIGSTOP)
    with ThreadPoolExecutor(max_workers=1) as pool:
        asked = pool.submit(process.answer, _question("A" * 200_000))
        try:
            with pytest.raises(OddsUnavailable, match=r"^the odds process took longer than 1 s to work out these odds: ask again"):
                asked.result(timeout=15)
        except FutureTimeout:
            os.kill(stuck, signal.SIGKILL)  # let the blocked write fail, so the test can end
            pytest.fail("the question's write blocked past the limit")
    assert process.answer(_question("B" * 200_000))["team"] == "B" * 200_000  # by a new process
    assert process.pid != stuck
