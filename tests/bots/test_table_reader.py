"""table-reader: reads its group's table before the last group match (sevens.bots.stakes, R7, R8)."""

from __future__ import annotations

import random
from itertools import product

import pytest

from sevens.bots import get_strategy
from sevens.bots.smart import Equilibrium, TableReader, table_stakes
from sevens.bots.stakes import last_match_stakes
from sevens.rules import Order, SeededDice
from sevens.tournament.formats import Format, Stage
from sevens.tournament.game import Game, TurnOrder, autopilot_orders, new_game, play_turn
from sevens.tournament.setup import Player, PlayerId, TeamId, draw_game

MIXED = ("group-blitz", "even", "knockout-saver", "random", "even-flair@0.5", "equilibrium")


def _dice(seed: int, n: int):  # type: ignore[no-untyped-def]
    return lambda stream: SeededDice(random.Random(f"{seed}/{n}/{stream}"))


def _before_last_group_round(seed: int, teams: int) -> Game:
    """A game of mixed bots after its first two group rounds."""
    people = [Player(PlayerId(f"p{k}"), f"P{k}") for k in range(teams)]
    setup = draw_game(people, Format(teams, teams, 1), seed_sha256="0" * 64, draw_seed=seed)
    for t, team in enumerate(setup.teams):
        setup = setup.with_autopilot(team.id, MIXED[(t + seed) % len(MIXED)])
    game = new_game(setup)
    for n in (1, 2):
        game = play_turn(game, autopilot_orders(game, game.teams_in_play(), get_strategy, seed=f"{seed:064x}"), _dice(seed, n))
    assert game.stage is Stage.GROUP and game.view_for(game.teams_in_play()[0]).group_matches_left == 1
    return game


def _brute_force(mine: int, opponent: int, other: int, others_opponent: int) -> tuple[bool, bool, bool, bool]:
    # Every outcome of the two last matches, written out again: second or level if lost, through if
    # lost, out if won, can top.
    lost, won = [], []
    for (a, b), (c, d) in product(((2, 0), (1, 1), (0, 2)), repeat=2):
        rivals = sorted((opponent + b, other + c, others_opponent + d), reverse=True)
        (won if a == 2 else lost if a == 0 else []).append((mine + a, rivals))
    return (
        all(rivals[1] <= me for me, rivals in lost),
        all(rivals[1] < me for me, rivals in lost),
        all(rivals[1] > me for me, rivals in won),
        any(rivals[0] < me for me, rivals in won),
    )


def test_the_stakes_are_what_the_nine_outcomes_say() -> None:
    """Every table of league points a group can show before its last round (0 to 4 each)."""
    for points in product(range(5), repeat=4):
        stakes = last_match_stakes(*points)
        found = (stakes.second_or_level_if_lost, stakes.through_if_lost, stakes.out_if_won, stakes.can_top)
        assert found == _brute_force(*points), points


@pytest.mark.parametrize("teams", [8, 16])
def test_what_the_table_says_of_a_loss_holds_after_ordering_nothing(teams: int) -> None:
    """The reading holds in real games, with R8's tie-breaks and lots: every team that table-reader
    would rest (a loss cannot put it out on league points) ends its group with at most one team
    above it on league points after ordering nothing in the last match, whatever the others order,
    and those the table says are through even if they lose end first or second."""
    rested = through = 0
    for seed in range(12):
        game = _before_last_group_round(seed, teams)
        views = {team: game.view_for(team) for team in game.teams_in_play()}
        stakes = {team: table_stakes(view) for team, view in views.items()}
        resting = {team for team, s in stakes.items() if s is not None and s.second_or_level_if_lost}
        safe = {team for team, s in stakes.items() if s is not None and s.through_if_lost}
        assert None not in stakes.values() and safe <= resting
        rested, through = rested + len(resting), through + len(safe)
        orders = autopilot_orders(game, game.teams_in_play(), get_strategy, seed=f"{seed:064x}")
        for team in resting:
            orders[TeamId(team)] = TurnOrder(TeamId(team), Order(0, 0))
        done = play_turn(game, orders, _dice(seed, 3))
        tables = done.final_tables
        assert tables is not None
        rows = {row.team: (table, row) for table in tables.values() for row in table.rows}
        for team in resting:
            table, row = rows[team]
            assert sum(other.league_points > row.league_points for other in table.rows) <= 1, (seed, team)
        assert safe <= {row.team for table in tables.values() for row in table.rows[:2]}, seed
    assert rested > through >= 6  # common cases: about one team in three after two rounds rests


def test_table_reader_orders_nothing_when_through_if_it_loses_and_as_equilibrium_otherwise() -> None:
    """Before the last group match, a team that a loss cannot put out on league points orders
    nothing; every other order, at every turn, is equilibrium's with the same random source."""
    seen = {True: 0, False: 0}
    for seed in range(6):
        game = _before_last_group_round(seed, 8)
        for team in game.teams_in_play():
            view = game.view_for(team)
            stakes = table_stakes(view)
            assert stakes is not None
            mine = TableReader().order(view, random.Random(seed))
            if stakes.second_or_level_if_lost:
                assert mine == Order(0, 0), (seed, team)
            else:
                assert mine == Equilibrium().order(view, random.Random(seed)), (seed, team)
            seen[stakes.second_or_level_if_lost] += 1
        first = new_game(game.setup)
        for view in (first.view_for(t) for t in first.teams_in_play()):
            assert table_stakes(view) is None
            assert TableReader().order(view, random.Random(1)) == Equilibrium().order(view, random.Random(1))
    assert seen[True] and seen[False]


def test_table_reader_is_a_bot_of_the_game() -> None:
    """Named as the other built-ins are: a house team's or an autopilot's bot, with its few words."""
    from sevens.bots import STRATEGIES, describe
    from sevens.bots.strategies import meant_bot

    assert get_strategy("table-reader") == TableReader()
    assert "table-reader" in STRATEGIES
    assert "rests its last group match if a loss cannot put it out" in describe("table-reader")
    assert meant_bot("rest-when-safe", STRATEGIES) == "table-reader"
    with pytest.raises(ValueError, match="only even, even-flair, even-force, odds-aware, equilibrium, field-reader"):
        get_strategy("table-reader@1.5")


def test_the_guides_count_of_resting_autopilots_runs_as_shown() -> None:
    """docs/strategy.md's script behind its figures of a rest (which bot plays when nobody chooses),
    run as a reader would, on fewer games: it prints a line for each bot, and the rested
    table-readers it counts lost their match (nothing against a side that spends: only a side
    that scores nothing too could draw, 2 times in the guide's 11,243)."""
    import re
    import subprocess
    import sys
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "strategy.md").read_text(encoding="utf-8")
    section = guide[guide.index("### Which bot plays when nobody chooses"):]
    script = re.search(r"```python\n(.*?)```", section, re.S)
    assert script is not None, "no python block in the guide's section on the default bot"
    assert "range(40_000)" in script[1]
    result = subprocess.run(
        [sys.executable, "-c", script[1].replace("range(40_000)", "range(48)")],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["table-reader", "equilibrium"], result.stdout
    shape = r"\d+ teams, lost \d+ \([\d.]+%\), out \d+ \([\d.]+%\), champion \d+ \([\d.]+%\)"
    assert all(re.fullmatch(rf"[a-z-]+: {shape}", line) for line in lines), result.stdout
    rested = re.match(r"table-reader: (\d+) teams, lost (\d+) ", lines[0])
    assert rested is not None and int(rested[1]) > 0 and rested[1] == rested[2], lines[0]
