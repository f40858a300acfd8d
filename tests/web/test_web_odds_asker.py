"""The live odds' work for one asker does not depend on what anyone else asked (docs/web.md, 'Who
sees what'): how long an answer takes must not tell a player that somebody on the same worker asked
about that split lately. Work is counted (lines and arrays worked out, cached odds missed), not
timed, which on a shared machine would be noise."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from sevens.odds import api, clear_caches, force_die, joint, points
from sevens.odds.api import warm_shared_tables
from sevens.rules import Order
from sevens.tournament.formats import Format
from sevens.tournament.game import ManagerView
from sevens.tournament.standings import group_table
from sevens.web.odds_process import OddsQuestion, odds_answer

BOTS = ("even", "even-flair", "odds-aware")


def _question(mine: Order, *, knockout: bool, opponent_scrum: int = 90) -> OddsQuestion:
    fmt = Format(16, 16, 1)
    turn = 4 if knockout else 2
    theirs = ManagerView(
        game_id="x", team="b2", group="B", format=fmt, turn=turn, stage=fmt.stages[turn - 1],
        scrum=opponent_scrum, in_play=True, fixture=None, opponent="a1", opponent_scrum=120,
        turns_left=fmt.turns + 1 - turn, table=group_table(["b1", "b2"], [], None),
    )
    return OddsQuestion(
        team_id="a1", mine=mine, scrum=120, theirs=theirs, their_bot=None, knockout=knockout, bots=BOTS,
    )


def _work() -> int:
    # Lines, FLAIR arrays, points and odds of orders and pairs: all kept in one place, each counted there.
    return joint.worked_out()


def _fresh_worker() -> None:
    # As the odds process starts (odds_process.main); then a first question works out the bots'
    # typical orders, which are public and shared, so that they count in neither case below.
    clear_caches()
    warm_shared_tables()
    odds_answer(_question(Order(force=3, flair=0), knockout=True), asker="first")
    odds_answer(_question(Order(force=3, flair=0), knockout=False), asker="first")


@pytest.fixture(autouse=True)
def _cleared() -> Iterator[None]:
    yield
    clear_caches()


@pytest.mark.parametrize("knockout", [True, False], ids=["knockout", "group"])
def test_an_answer_costs_the_same_work_whether_or_not_another_player_asked_that_split(knockout: bool) -> None:
    """Before, a split another credential had asked was found kept (none of its lines or odds worked
    out again), so it came back about twice as fast in a knockout (40 ms against 90)."""
    secret = Order(force=42, flair=27)
    _fresh_worker()
    before = _work()
    alone = odds_answer(_question(secret, knockout=knockout), asker="player")
    work_alone = _work() - before

    _fresh_worker()
    # Another game's player drafts the same split (their opponent is in another position).
    odds_answer(_question(secret, knockout=knockout, opponent_scrum=70), asker="other")
    before = _work()
    after_other = odds_answer(_question(secret, knockout=knockout), asker="player")
    work_after_other = _work() - before

    assert work_alone > 0
    assert work_after_other == work_alone
    assert after_other == alone

    # The player's own repeat is still found kept: nothing worked out again.
    before = _work()
    assert odds_answer(_question(secret, knockout=knockout), asker="player") == alone
    assert _work() == before


@pytest.mark.parametrize("knockout", [True, False], ids=["knockout", "group"])
def test_an_askers_answer_is_the_one_worked_out_for_everyone(knockout: bool) -> None:
    question = _question(Order(force=20, flair=12), knockout=knockout)
    shared = odds_answer(question)
    clear_caches()
    assert odds_answer(question, asker="player") == shared


def test_the_small_tables_everyone_shares_are_all_worked_out_before_any_question() -> None:
    """Which counts of FORCE dice or FLAIR options have their points or cut kept would tell a draft's
    split as well as its lines would: every count an order can hold is worked out at the start."""
    clear_caches()
    warm_shared_tables()
    shared = (points._force_points, points._flair_points, points._flair_finals, points._doubles_run, points.doubles_cutoff,
              points.doubles_weights, joint._force_array)
    kept = [f.cache_info().currsize for f in shared]
    for mine in (Order(force=160, flair=0), Order(force=1, flair=159), Order(force=0, flair=0), Order(force=77, flair=33)):
        api.knockout_odds(mine, (3, 0), scope="player")
        api.match_odds(mine, (3, 0), scope="player")
    assert [f.cache_info().currsize for f in shared] == kept


def test_each_count_of_force_dice_worked_out_from_the_one_before_is_the_same_to_the_bit() -> None:
    clear_caches()
    dice = force_die().counts()
    for count in (0, 1, 2, 17, 160):
        assert np.array_equal(joint._force_array(count), joint._power(dice, count))
