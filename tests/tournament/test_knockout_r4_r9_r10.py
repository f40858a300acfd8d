"""Deciding knockout matches (R9), lots from the game's dice (R10), the winner's bonus (R4)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_helpers import SEED, bot_game, make_setup, ordered_game, zero_orders

from sevens.bots import get_strategy
from sevens.rules import DecidedBy, DiceSource, FairDice, Line, Order, ScriptedDice, Side
from sevens.tournament import (
    Criterion,
    Decision,
    Game,
    GroupResult,
    Stage,
    TableRow,
    TeamId,
    decide_knockout,
    describe,
    draw_lots,
    group_table,
)


def _row(team: str, lp: int = 4, tf: int = 6, pf: int = 40, ta: int = 4, pa: int = 30) -> TableRow:
    return TableRow(team, 1, 3, 2, 0, 1, tf, ta, pf, pa, lp, Criterion.LEAGUE_POINTS)


def _never() -> DiceSource:
    raise AssertionError("lots were drawn although something else decided the match")


def _decide(
    home: Line,
    away: Line,
    hr: TableRow | None = None,
    ar: TableRow | None = None,
    lots: Callable[[], DiceSource] = _never,
) -> Decision:
    return decide_knockout(
        home, away, home_record=hr or _row("fiji"), away_record=ar or _row("samoa"), lots=lots, what="t4-m1"
    )


def test_r9_points_decide_first() -> None:
    """R9 / seed 6: "The total scores of the 2 teams involved in a match are compared and the higher
    score wins"."""
    home, away = Line(tries=3, conversions=3), Line(tries=2, conversions=2)
    decision = _decide(home, away)
    assert (decision.winner, decision.decided_by) == (Side.HOME, DecidedBy.POINTS)
    assert describe(home, away, decision) == "21-14"


def test_r9_level_on_points_more_tries_wins() -> None:
    """R9: "Level on points: more tries wins" - the example "14-14, won on tries 2-1"."""
    home, away = Line(tries=1, penalties=3), Line(tries=2, conversions=2)
    assert home.points == away.points == 14
    decision = _decide(home, away)
    assert (decision.winner, decision.decided_by) == (Side.AWAY, DecidedBy.TRIES)
    assert describe(home, away, decision) == "14-14, won on tries 2-1"


def test_r9_then_more_conversions() -> None:
    """R9: "then more conversions"."""
    home, away = Line(tries=3, penalties=3), Line(tries=3, conversions=3, penalties=1)
    assert home.points == away.points == 24
    decision = _decide(home, away)
    assert (decision.winner, decision.decided_by) == (Side.AWAY, DecidedBy.CONVERSIONS)
    assert describe(home, away, decision) == "24-24, won on conversions 3-0"


def test_r9_then_more_drop_goals() -> None:
    """R9: "then more drop goals"."""
    home, away = Line(tries=1, drop_goals=1), Line(tries=1, penalties=1)
    decision = _decide(home, away)
    assert (decision.winner, decision.decided_by) == (Side.HOME, DecidedBy.DROP_GOALS)
    assert describe(home, away, decision) == "8-8, won on drop goals 1-0"


@pytest.mark.parametrize(
    ("better", "worse", "words"),
    [
        (_row("samoa", lp=6), _row("fiji", lp=4), "league points 6-4"),
        (_row("samoa", tf=9), _row("fiji", tf=8), "tries scored 9-8"),
        (_row("samoa", pf=50), _row("fiji", pf=41), "points scored 50-41"),
        (_row("samoa", ta=2), _row("fiji", ta=3), "tries conceded 2-3"),
        (_row("samoa", pa=10), _row("fiji", pa=11), "points conceded 10-11"),
    ],
)
def test_r9_then_the_better_group_record(better: TableRow, worse: TableRow, words: str) -> None:
    """R9: "then the better group record (compared as in R8 over each team's group matches: league
    points, tries scored, points scored, fewest tries conceded, fewest points conceded)"."""
    line = Line(tries=2, conversions=1, penalties=1, drop_goals=1)
    for home_record, away_record, side in ((worse, better, Side.AWAY), (better, worse, Side.HOME)):
        decision = _decide(line, line, home_record, away_record)
        assert (decision.winner, decision.decided_by) == (side, DecidedBy.GROUP_RECORD)
        assert describe(line, line, decision, home_record=home_record, away_record=away_record) == (
            f"18-18, level on count-back, won on group record ({words})"
        )


def test_r9_r10_then_lots_from_the_dice_given() -> None:
    """R9: "then lots". R10: "Lots are drawn from the game's own dice source ... and every draw is
    recorded with what it decided"."""
    line = Line(tries=1)
    decision = _decide(line, line, _row("fiji"), _row("samoa"), lots=lambda: ScriptedDice([2, 5]))
    assert (decision.winner, decision.decided_by) == (Side.AWAY, DecidedBy.LOTS)
    assert decision.lots is not None
    assert decision.lots.throws == ((("fiji", 2), ("samoa", 5)),)
    assert decision.lots.what == "t4-m1"
    assert describe(line, line, decision) == "5-5, level on count-back and group record, won by drawing lots"


def _bonus_holds(game: Game) -> None:
    for turn in game.turns:
        for match in turn.matches:
            for side in (match.home, match.away):
                won = match.winner == side.team
                assert side.scrum_after == side.scrum_before - side.order.force - side.order.flair + 10 * won


def test_r4_knockout_winner_gains_ten_and_group_draws_gain_nothing() -> None:
    """R4: "The winner of a match gains 10 after the match ... A group-stage draw has no winner. A
    knockout match always has a winner (R9), and that winner gains the 10."""
    game = bot_game(make_setup(9))
    _bonus_holds(game)
    for turn in game.turns:
        for match in turn.matches:
            if turn.stage.knockout:
                assert match.winner in match.fixture.teams
            elif match.home.line.points == match.away.line.points:
                assert match.winner is None and match.decided_by is None


def test_r4_r8_r10_a_game_of_empty_orders_is_settled_by_lots() -> None:
    """R4, R8, R10: with no SCRUM spent every group match is a 0-0 draw (no bonus), every table is
    level to the last criterion, so lots order the groups; every knockout is level on count-back and
    group record, so lots decide it and the winner still gains 10."""
    game = ordered_game(make_setup(4), zero_orders)
    assert game.finished and game.champion is not None
    for turn in game.turns[:3]:
        for match in turn.matches:
            assert match.winner is None and match.home.scrum_after == 100
    tables = game.tables()
    assert all(row.decided_by is Criterion.LOTS for table in tables.values() for row in table.rows)
    knockouts = [m for turn in game.turns[3:] for m in turn.matches]
    assert all(m.decided_by is DecidedBy.LOTS and m.lots is not None for m in knockouts)
    assert game.scrum(game.champion) == 120  # two knockout wins, nothing spent
    _bonus_holds(game)
    # The lots come from the fair dice streams named in the contract (recomputed here).
    third = game.turns[2]
    for letter, table in tables.items():
        dice = FairDice(SEED, third.orders_digest, f"t3/lots/group-{letter}")
        again = [draw_lots(d.what, d.teams, dice) for d in table.lots]
        assert again == list(table.lots)
    for turn in game.turns[3:]:
        for m in turn.matches:
            assert m.lots is not None
            dice = FairDice(SEED, turn.orders_digest, f"t{turn.number}/lots/{m.fixture.id}")
            assert draw_lots(m.lots.what, m.lots.teams, dice) == m.lots
            assert m.winner == m.lots.order[0]


def _better(a: TableRow, b: TableRow) -> int:
    """R9's group record comparison written out step by step."""
    for x, y in (
        (a.league_points, b.league_points),
        (a.tries_for, b.tries_for),
        (a.points_for, b.points_for),
        (b.tries_against, a.tries_against),
        (b.points_against, a.points_against),
    ):
        if x != y:
            return 1 if x > y else -1
    return 0


def test_r9_group_record_decides_level_knockouts_in_a_game() -> None:
    """R9: with identical lines (no SCRUM spent) the better group record wins the knockout."""
    bots = get_strategy("even")

    def choose(game: Game, team: TeamId) -> Order:
        if game.stage is Stage.GROUP:
            return bots.order(game.view_for(team), random.Random(team))
        return Order(0, 0)

    decided = 0
    for draw_seed in range(4):
        game = ordered_game(make_setup(4, draw_seed=draw_seed), choose)
        tables = game.tables()
        rows = {row.team: row for table in tables.values() for row in table.rows}
        for turn in game.turns[3:]:
            for m in turn.matches:
                comparison = _better(rows[m.home.team], rows[m.away.team])
                if comparison == 0:
                    assert m.decided_by is DecidedBy.LOTS
                    continue
                decided += 1
                assert m.decided_by is DecidedBy.GROUP_RECORD
                assert m.winner == (m.home.team if comparison > 0 else m.away.team)
                assert "won on group record" in m.summary
    assert decided >= 8


# Lines level on points by different routes (3: a penalty or a drop goal; 8: a try and either; 10: two
# tries, or a converted try and either) and records of 0s and 1s make every step come up often.
_small_lines = st.sampled_from([
    Line(), Line(tries=1, penalties=1), Line(tries=1, drop_goals=1), Line(penalties=1), Line(drop_goals=1),
    Line(tries=2), Line(tries=1, conversions=1, penalties=1), Line(tries=1, conversions=1, drop_goals=1),
])
_records = st.tuples(*(st.integers(0, 1) for _ in range(5)))


@settings(max_examples=500, deadline=None)
@given(
    _small_lines, _small_lines, _records, _records,
    st.lists(st.integers(1, 6), min_size=40, max_size=40), st.booleans(),
)
def test_property_knockout_decisions_follow_r9_read_by_hand(
    home: Line, away: Line, home_rec: tuple[int, ...], away_rec: tuple[int, ...], faces: list[int], fiji_home: bool
) -> None:
    """R9 written out again, independently: points, tries, conversions, drop goals, then league
    points, tries scored, points scored, fewest tries conceded, fewest points conceded, then lots,
    the two teams throwing in id order until the throws differ, the higher winning. Small lines
    and records make every step, lots included, come up often."""
    names = ("fiji", "samoa") if fiji_home else ("samoa", "fiji")
    faces = [*faces, 1, 2]  # the lots end, however many level throws come first

    def row(team: str, rec: tuple[int, ...]) -> TableRow:
        lp, tf, pf, ta, pa = rec
        return TableRow(team, 1, 3, 0, 0, 0, tf, ta, pf, pa, lp, Criterion.LEAGUE_POINTS)

    steps = [
        (DecidedBy.POINTS, home.points, away.points),
        (DecidedBy.TRIES, home.tries, away.tries),
        (DecidedBy.CONVERSIONS, home.conversions, away.conversions),
        (DecidedBy.DROP_GOALS, home.drop_goals, away.drop_goals),
        *((DecidedBy.GROUP_RECORD, h, a) for h, a in zip(home_rec[:3], away_rec[:3], strict=True)),
        *((DecidedBy.GROUP_RECORD, -h, -a) for h, a in zip(home_rec[3:], away_rec[3:], strict=True)),
    ]
    expected = next(((by, Side.HOME if h > a else Side.AWAY) for by, h, a in steps if h != a), None)
    if expected is None:
        # fiji throws first (id order); pairs of throws until they differ.
        pairs = zip(faces[0::2], faces[1::2], strict=True)
        fiji, samoa = next((f, s) for f, s in pairs if f != s)
        fiji_wins = fiji > samoa
        expected = (DecidedBy.LOTS, Side.HOME if fiji_wins == fiji_home else Side.AWAY)
    decision = decide_knockout(
        home, away, home_record=row(names[0], home_rec), away_record=row(names[1], away_rec),
        lots=lambda: ScriptedDice(faces), what="final",
    )
    assert (decision.decided_by, decision.winner) == expected


def test_r9_a_final_between_two_teams_of_one_group_level_on_all_five_counts_goes_to_lots() -> None:
    """R9: "then the better group record (compared as in R8 over each team's group matches: league
    points, tries scored, points scored, fewest tries conceded, fewest points conceded); then lots."
    A group's winner and runner-up can meet again in the final (R11). When their five counts are
    equal, head-to-head or lots had parted them in the group table, but R9 names neither: the
    record is level, and the final's lots decide, whatever the table's order."""
    won, nil = Line(tries=1), Line()
    # Every win 5-0: a beat b and d, lost to c; b beat c and d. a and b: 4 league points, 2 tries and 10
    # points for, 1 try and 5 points against. a is first on head-to-head, b second.
    results = [
        GroupResult("a", "b", won, nil), GroupResult("a", "c", nil, won), GroupResult("a", "d", won, nil),
        GroupResult("b", "c", won, nil), GroupResult("b", "d", won, nil), GroupResult("c", "d", nil, won),
    ]
    table = group_table(["a", "b", "c", "d"], results, None)
    first, second = table.rows[:2]
    assert (first.team, second.team) == ("a", "b") and first.decided_by is Criterion.HEAD_TO_HEAD
    final = Line(tries=2, conversions=1, penalties=1)
    for dice, winner in (([2, 5], Side.AWAY), ([6, 1], Side.HOME)):
        decision = decide_knockout(
            final, final, home_record=first, away_record=second, lots=lambda d=dice: ScriptedDice(d), what="final"
        )
        assert (decision.winner, decision.decided_by) == (winner, DecidedBy.LOTS)
        assert describe(final, final, decision, home_record=first, away_record=second) == (
            "15-15, level on count-back and group record, won by drawing lots"
        )
