"""The qualification outlook before a group match (sevens.tournament.outlook): hand-worked group
situations, and games played with the real engine, whose every completion must agree with what
the outlook calls certain."""

from __future__ import annotations

import random
from itertools import product

import pytest
from tournament_helpers import SEED, make_setup

from sevens.rules import Order
from sevens.rules.dice import SeededDice
from sevens.rules.lines import Line
from sevens.tournament import Format, Game, TurnOrder, new_game
from sevens.tournament.fixtures import group_fixtures
from sevens.tournament.formats import GROUP_TURNS
from sevens.tournament.game import resolve_turn
from sevens.tournament.outlook import (
    AfterResult,
    Completion,
    MatchOutcome,
    Verdict,
    describe_outlook,
    game_outlook,
    group_outlook,
    places_through,
)
from sevens.tournament.standings import GroupResult, group_table

TEAMS = ["a", "b", "c", "d"]
WIN, NIL = Line(tries=1), Line()
# The group's rounds for draw order a b c d (R7): a v b, c v d; c v a, d v b; a v d, b v c.
ROUND_3 = [("a", "d"), ("b", "c")]


def beat(winner: str, loser: str) -> GroupResult:
    return GroupResult(winner, loser, WIN, NIL)


def drew(home: str, away: str) -> GroupResult:
    return GroupResult(home, away, NIL, NIL)


def verdicts(results: list[GroupResult], remaining: list[tuple[str, str]], team: str) -> list[str]:
    return [a.verdict.value for a in group_outlook(TEAMS, results, remaining, team).after]


# a 4, b 2, c 2, d 0 with a v d and b v c to play.
TWO_ROUNDS = [beat("a", "b"), beat("c", "d"), beat("a", "c"), beat("b", "d")]


def test_a_team_that_cannot_be_caught_by_two_others_is_through_already() -> None:
    # a on 4: a loss leaves it on 4, and only the winner of b v c can reach 4 too.
    outlook = group_outlook(TEAMS, TWO_ROUNDS, ROUND_3, "a")
    assert outlook.already_through and outlook.opponent == "d"
    assert describe_outlook(outlook).startswith("a are through to the knockouts whatever happens")


def test_a_team_two_others_stay_ahead_of_is_out_already() -> None:
    # d on 0: even a win (2) leaves a on 4 and the winner of b v c on 4, or both on 3.
    outlook = group_outlook(TEAMS, TWO_ROUNDS, ROUND_3, "d")
    assert outlook.already_out
    assert "out whatever happens" in describe_outlook(outlook)


def test_a_win_is_needed_and_a_draw_leaves_it_to_the_margins() -> None:
    # b v c, both on 2, a on 4 or more: the winner is through, the loser out, a draw leaves both on 3
    # behind a and level with each other for second place: tries, points... decide (R8).
    assert verdicts(TWO_ROUNDS, ROUND_3, "b") == ["through", "tie-breaks", "out"]
    text = describe_outlook(group_outlook(TEAMS, TWO_ROUNDS, ROUND_3, "b"), str.upper)
    assert "Top 2 go through. Against C, a win: through whatever else happens" in text
    assert "a draw: level on league points for a place whatever else happens, so tie-breaks" in text


def test_a_draw_is_enough_and_a_loss_depends_on_the_other_match() -> None:
    played = [beat("a", "b"), beat("d", "c"), drew("c", "a"), drew("d", "b")]
    # a 3, d 3, b 1, c 1. a v d: a win (5) or a draw (4, d 4, b and c at most 3) puts a through; a
    # loss leaves a on 3, d on 5, and the winner of b v c on 3 too: level for second place; a draw
    # there leaves b and c on 2, so a is second.
    outlook = group_outlook(TEAMS, played, ROUND_3, "a")
    assert [a.verdict for a in outlook.after] == [Verdict.THROUGH, Verdict.THROUGH, Verdict.DEPENDS]
    loss = outlook.after[2]
    assert loss.decider == ("b", "c")
    assert dict(loss.by_outcome) == {
        MatchOutcome.HOME: Completion.TIE_BREAKS,
        MatchOutcome.DRAW: Completion.THROUGH,
        MatchOutcome.AWAY: Completion.TIE_BREAKS,
    }
    text = describe_outlook(outlook, str.upper)
    assert "a loss: left to tie-breaks unless B and C draw, then through" in text


def test_before_the_first_match_everything_depends_on_other_results() -> None:
    remaining = [("a", "b"), ("c", "d"), ("c", "a"), ("d", "b"), ("a", "d"), ("b", "c")]
    outlook = group_outlook(TEAMS, [], remaining, "a")
    assert all(a.verdict is Verdict.DEPENDS and a.decider is None for a in outlook.after)
    # A first win can still end through, out (two losses after it) or level for second place.
    assert outlook.after[0].possible == frozenset(Completion)
    assert describe_outlook(outlook) == "Top 2 go through. Against b, whatever the result: depends on other results."


def test_a_match_that_settles_it_for_some_of_its_outcomes_is_named() -> None:
    # Round 1: b beat a, c beat d. Round 2, a v c: after a draw a has 1 and c 3. Then if a does not
    # beat d in round 3, a ends on 2 at most, c on 3 or more, and d v b leaves d on 3 (d beat b,
    # then drew a), or b on 3 or more: two teams above a, so out. If a beats d, it depends.
    played = [beat("b", "a"), beat("c", "d")]
    remaining = [("c", "a"), ("d", "b"), ("a", "d"), ("b", "c")]
    draw = group_outlook(TEAMS, played, remaining, "a").after[1]
    assert draw.verdict is Verdict.DEPENDS and draw.decider == ("a", "d")
    assert dict(draw.by_outcome) == {
        MatchOutcome.HOME: None,
        MatchOutcome.DRAW: Completion.OUT,
        MatchOutcome.AWAY: Completion.OUT,
    }
    text = describe_outlook(group_outlook(TEAMS, played, remaining, "a"), str.upper)
    assert "a draw: out if A do not beat D, otherwise it depends;" in text


def test_a_win_can_leave_it_to_the_margins_and_anything_else_is_out() -> None:
    played = [beat("a", "b"), drew("c", "d"), drew("c", "a"), beat("b", "d")]
    # a 3, b 2, c 2, d 1; d v a: a d win puts d on 3 with a, and b v c gives someone 4 or both 3.
    assert verdicts(played, ROUND_3, "d") == ["tie-breaks", "out", "out"]


def test_the_top_two_of_each_group_go_through_in_every_format() -> None:
    assert places_through(Format(8, 4, 2)) == 2
    assert places_through(Format(16, 16, 1)) == 2


def test_a_team_with_no_match_left_or_a_match_played_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="no group match left"):
        group_outlook(TEAMS, TWO_ROUNDS, [("b", "c")], "a")
    with pytest.raises(ValueError, match="already played"):
        group_outlook(TEAMS, TWO_ROUNDS, [("a", "b")], "a")


# --- The real engine: whatever the outlook calls certain, every completion agrees. ---

# Lines for a completion: wins by a try or by many, draws at nil or with tries, so that tries,
# points and conceded counts vary across completions, and lots are needed at times.
_HOME_WINS = [(Line(tries=1), Line()), (Line(tries=6, conversions=3), Line(penalties=1))]
_DRAWS = [(Line(), Line()), (Line(tries=3), Line(tries=3)), (Line(penalties=5), Line(tries=3))]


def _lines(outcome: MatchOutcome) -> list[tuple[Line, Line]]:
    if outcome is MatchOutcome.HOME:
        return _HOME_WINS
    if outcome is MatchOutcome.DRAW:
        return _DRAWS
    return [(away, home) for home, away in _HOME_WINS]


def _random_orders(game: Game, rng: random.Random) -> dict[str, TurnOrder]:
    orders = {}
    for team in game.teams_in_play():
        scrum = game.scrum(team)
        force = rng.randint(0, scrum)
        flair = 3 * rng.randint(0, (scrum - force) // 3)
        orders[team] = TurnOrder(team, Order(force, flair))
    return orders


def _check_every_completion(game: Game, rng: random.Random) -> int:
    """For every team of every group, what its outlook calls certain (a result's verdict, or what
    the deciding match's outcome leads to) against the group's completions with lines from the
    palette above (all of them, or 400 drawn at random); returns how many claims were checked."""
    checked = 0
    n = game.turn_number
    assert n is not None
    for letter in game.format.group_letters:
        teams = game.setup.group(letter)
        played = list(game.group_results(letter))
        for team in teams:
            outlook = game_outlook(game, team)
            assert outlook is not None
            remaining = [
                (f.home, f.away)
                for turn in range(n, GROUP_TURNS + 1)
                for f in group_fixtures(game.setup, turn)
                if f.group == letter
            ]
            own = next(m for m in remaining if team in m)
            for after in outlook.after:
                if after.verdict not in (Verdict.THROUGH, Verdict.OUT) and after.decider is None:
                    continue
                mine = {
                    "win": MatchOutcome.HOME if own[0] == team else MatchOutcome.AWAY,
                    "draw": MatchOutcome.DRAW,
                    "loss": MatchOutcome.AWAY if own[0] == team else MatchOutcome.HOME,
                }[after.result]
                choices = [
                    [(mine, pair) for pair in _lines(mine)]
                    if match == own
                    else [(o, pair) for o in MatchOutcome for pair in _lines(o)]
                    for match in remaining
                ]
                combos = list(product(*choices))
                if len(combos) > 400:  # a fair sample of the larger sets of completions
                    combos = rng.sample(combos, 400)
                for combo in combos:
                    claim: Completion | None = None
                    if after.verdict in (Verdict.THROUGH, Verdict.OUT):
                        claim = Completion(after.verdict.value)
                    else:  # what the deciding match's outcome in this completion was said to lead to
                        outcome = combo[remaining.index(after.decider)][0]  # type: ignore[arg-type]
                        claim = dict(after.by_outcome)[outcome]
                    if claim is None or claim is Completion.TIE_BREAKS:
                        continue  # "it depends" and "the margins decide" claim nothing
                    checked += 1
                    results = played + [
                        GroupResult(h, a, lh, la) for (h, a), (_, (lh, la)) in zip(remaining, combo, strict=True)
                    ]
                    table = group_table(teams, results, SeededDice(rng.random()), f"group {letter}")
                    through = table.row(team).position <= outlook.places
                    assert through == (claim is Completion.THROUGH), (team, after, table.order, combo)
    return checked


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("fmt", [Format(8, 4, 2), Format(8, 8, 1), Format(16, 16, 1), Format(16, 5, 3)])
def test_what_the_outlook_calls_certain_holds_in_every_completion(fmt: Format, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(make_setup(fmt.players, fmt, draw_seed=seed))
    checked = 0
    while len(game.turns) < GROUP_TURNS:
        checked += _check_every_completion(game, rng)
        game = resolve_turn(game, _random_orders(game, rng), SEED)
    assert checked > 0  # round 3 at least always has certain verdicts to check


@pytest.mark.parametrize("seed", range(6))
def test_the_real_results_agree_with_the_outlook_for_the_result_each_team_got(seed: int) -> None:
    """Played with the real engine: before each group turn, what the outlook said of the result a
    team then got (through, out, or through/out according to the deciding match) came true."""
    rng = random.Random(100 + seed)
    game = new_game(make_setup(8, Format(8, 8, 1), draw_seed=seed))
    said: list[tuple[str, AfterResult]] = []
    while len(game.turns) < GROUP_TURNS:
        outlooks = {team: game_outlook(game, team) for team in game.teams_in_play()}
        game = resolve_turn(game, _random_orders(game, rng), SEED)
        for match in game.turns[-1].matches:
            for team in (match.home.team, match.away.team):
                outlook = outlooks[team]
                assert outlook is not None
                got = "draw" if match.winner is None else ("win" if match.winner == team else "loss")
                said.append((team, next(a for a in outlook.after if a.result == got)))
    tables = game.final_tables
    assert tables is not None
    for team, after in said:
        place = tables[game.setup.team(team).group].row(team).position
        if after.verdict is Verdict.THROUGH:
            assert place <= 2, (team, after)
        elif after.verdict is Verdict.OUT:
            assert place > 2, (team, after)
    assert any(after.verdict in (Verdict.THROUGH, Verdict.OUT) for _, after in said)
