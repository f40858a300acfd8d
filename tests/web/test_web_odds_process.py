"""The odds process of sevens.web.odds_process on its own: a real child process, driven as a worker
drives it (the servers' side of it is tests/reliability/test_odds_process.py)."""

from __future__ import annotations

import dataclasses
import os
import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from random import Random

import pytest

from sevens.bots import STRATEGIES, get_strategy, order_mix, shown_mix
from sevens.odds import clear_caches, joint, mix_odds
from sevens.rules import Order, seed_commitment
from sevens.tournament import ManagerView, Player, PlayerId, default_format, draw_game, new_game
from sevens.tournament.standings import group_table
from sevens.web import schemas
from sevens.web.odds_process import (
    BLAS_THREADS,
    MIX_LISTED,
    OddsProcess,
    OddsQuestion,
    OddsUnavailable,
    odds_answer,
)

MB = 1 << 20


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


def _environment_given(process: OddsProcess, monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> dict[bytes, bytes]:
    """The environment the odds process is started with when the server's has no BLAS thread
    setting but ``name`` = ``value``."""
    for blas in BLAS_THREADS:
        monkeypatch.delenv(blas, raising=False)
    monkeypatch.setenv(name, value)
    process.answer(_question("A"))
    assert process.pid is not None
    with open(f"/proc/{process.pid}/environ", "rb") as environ:
        return dict(item.split(b"=", 1) for item in environ.read().split(b"\0") if b"=" in item)


def test_the_odds_process_runs_numpys_linear_algebra_on_one_thread(
    process: OddsProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It answers one question at a time; BLAS threads on the knockout count-back's dot products
    only spun on the server's cores. An operator's own setting is kept."""
    settings = _environment_given(process, monkeypatch, "MKL_NUM_THREADS", "2")
    assert settings.get(b"OPENBLAS_NUM_THREADS") == b"1" and settings.get(b"OMP_NUM_THREADS") == b"1"
    assert settings.get(b"MKL_NUM_THREADS") == b"2"


def test_an_operators_omp_num_threads_is_not_overruled_in_the_odds_process(
    process: OddsProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenBLAS reads OPENBLAS_NUM_THREADS before OMP_NUM_THREADS (and MKL its own first): a 1 set
    there beside the operator's OMP_NUM_THREADS=3 ran numpy on one thread all the same."""
    settings = _environment_given(process, monkeypatch, "OMP_NUM_THREADS", "3")
    assert settings.get(b"OMP_NUM_THREADS") == b"3"
    assert b"OPENBLAS_NUM_THREADS" not in settings and b"MKL_NUM_THREADS" not in settings


def _view(knockout: bool) -> ManagerView:
    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    game = new_game(draw_game(people, default_format(4), seed_sha256=seed_commitment("4d" * 32), draw_seed=0))
    view = game.view_for(game.teams_in_play()[0])
    if knockout:
        fmt = view.format
        view = dataclasses.replace(view, turn=4, stage=fmt.stages[3], scrum=57, turns_left=fmt.turns - 3)
    return view


@pytest.mark.parametrize("knockout", [False, True])
def test_the_odds_are_against_each_bots_whole_mix_and_the_answer_says_it(knockout: bool) -> None:
    """Each row was against one draw of its bot (Random(0)): for 'even' one of its two orders, for
    'random' one of hundreds. A row is now against the bot's whole mix, which it gives (`mix`, with
    `mix_size`), its figures the mix's weighted odds; `order` is the mix's likeliest. 'random' has
    more orders than MIX_MOST, and its row says it is an even sample."""
    view = _view(knockout)
    mine = Order(force=10, flair=9)
    question = OddsQuestion(team_id="t", mine=mine, scrum=100, theirs=view, their_bot="even", knockout=knockout,
                            bots=tuple(STRATEGIES))
    rows = {row["bot"]: row for row in odds_answer(question)["against"]}
    assert set(rows) == set(STRATEGIES)
    for name, row in rows.items():
        mix = order_mix(get_strategy(name), view)
        assert mix is not None
        shown = shown_mix(mix, knockout=knockout)
        assert row["mix_size"] == len(mix) and row["mix_used"] == len(shown.orders)
        listed = list(shown.orders) if len(shown.orders) <= MIX_LISTED else []
        assert [(Order(o["force"], o["flair"]), o["chance"]) for o in row["mix"]] == listed
        assert row["order"] == shown.likeliest.to_dict()
        odds = mix_odds(mine, shown.orders, knockout=knockout).to_dict()
        assert {k: row[k] for k in odds} == odds
    assert len(rows["even"]["mix"]) > 1 and rows["random"]["mix_size"] > rows["random"]["mix_used"]
    assert schemas.OddsAnswer.model_validate({**odds_answer(question), "assumed_zero": []})


def test_a_bot_that_does_not_say_its_mix_gets_a_row_against_one_typical_order_with_no_mix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class OrderOnly:
        name = "order-only"

        def order(self, view: ManagerView, rng: Random) -> Order:
            return Order(force=rng.choice([9, 12]), flair=9)

    monkeypatch.setitem(STRATEGIES, "order-only", OrderOnly)
    question = OddsQuestion(team_id="t", mine=Order(10, 9), scrum=100, theirs=_view(False), their_bot=None,
                            knockout=False, bots=("order-only",))
    (row,) = odds_answer(question)["against"]
    assert row["mix"] is None and row["mix_size"] is None and row["mix_used"] is None
    assert row["order"] == OrderOnly().order(_view(False), Random(0)).to_dict()


def _resident_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS in /proc/{pid}/status")


def _knockout_question(mine: Order) -> OddsQuestion:
    fmt = default_format(16)
    turn = next(i for i, stage in enumerate(fmt.stages, 1) if stage.knockout)
    theirs = ManagerView(
        game_id="x", team="b2", group="B", format=fmt, turn=turn, stage=fmt.stages[turn - 1], scrum=120,
        in_play=True, fixture=None, opponent="a1", opponent_scrum=140, turns_left=fmt.turns + 1 - turn,
        table=group_table(["b1", "b2"], [], None),
    )
    return OddsQuestion(team_id="a1", mine=mine, scrum=140, theirs=theirs, their_bot=None, knockout=True,
                        bots=("even", "odds-aware"))


@pytest.mark.skipif(not os.path.exists(f"/proc/{os.getpid()}/status"), reason="the OS reports no resident memory")
def test_the_odds_process_holds_resident_little_more_than_it_counts_after_answers() -> None:
    """A knockout answer's arrays, once freed, stayed resident in glibc's heap: two such drafts made
    the process 111 MB larger for the 73 MB its cache counts; given back after each answer, 75 MB.

    What the cache counts is read from this process, asked the same questions in the same order
    (the caches are the same, entry for entry)."""
    drafts = [Order(force=40, flair=90), Order(force=70, flair=60)]
    clear_caches()
    odds_answer(_question("A"), 1)
    counted = joint._cached_bytes
    for asker, mine in enumerate(drafts, 2):
        odds_answer(_knockout_question(mine), asker)
    counted = (joint._cached_bytes - counted) / MB
    clear_caches()
    process = OddsProcess(seconds=120)
    try:
        process.answer(_question("A"), 1)
        assert process.pid is not None
        started = _resident_mb(process.pid)
        for asker, mine in enumerate(drafts, 2):
            process.answer(_knockout_question(mine), asker)
        grown = _resident_mb(process.pid) - started
    finally:
        process.close()
    assert counted > 50  # the drafts' lines are large enough for freed arrays to show
    assert grown <= counted + 24, f"{grown:.0f} MB more resident for {counted:.0f} MB counted"
