"""Whole 8-team and 16-team games with bots, checked against facts worked out by hand."""

from __future__ import annotations

import itertools
import time
from collections import Counter

import pytest
from tournament_helpers import SEED, bot_game, make_setup

from sevens.bots import STRATEGIES
from sevens.tournament import Game, GameSetup, Stage, to_record, verify_record

# R11 written out: (winner's group, runner-up's group) for each first-round knockout match.
FIRST_ROUND = {2: [("A", "B"), ("B", "A")], 4: [("A", "D"), ("B", "C"), ("C", "B"), ("D", "A")]}


def _mixed(setup: GameSetup) -> GameSetup:
    """Every bot in play: team i gets strategy i mod 4."""
    for i, team in enumerate(setup.teams):
        setup = setup.with_autopilot(team.id, list(STRATEGIES)[i % len(STRATEGIES)])
    return setup


def _check_whole_game(game: Game, matches_per_turn: list[int]) -> None:
    setup = game.setup
    assert game.finished and game.champion is not None
    assert [len(turn.matches) for turn in game.turns] == matches_per_turn
    assert [turn.stage for turn in game.turns] == list(setup.format.stages)

    # Group stage: each pair of a group met exactly once, every team once a round (R7).
    met = Counter(frozenset(m.fixture.teams) for turn in game.turns[:3] for m in turn.matches)
    pairs = {
        frozenset(p)
        for letter in setup.format.group_letters
        for p in itertools.combinations(setup.group(letter), 2)
    }
    assert set(met) == pairs and set(met.values()) == {1}

    # First knockout round from the final tables (R11).
    tables = game.tables()
    first = game.turns[3]
    expected = [(tables[w].order[0], tables[r].order[1]) for w, r in FIRST_ROUND[setup.format.groups]]
    assert [m.fixture.teams for m in first.matches] == expected
    # Later rounds: winners of matches (1, 3) and (2, 4), then (1, 2).
    for previous, turn in itertools.pairwise(game.turns[3:]):
        winners = [m.winner for m in previous.matches]
        paired = (
            [(winners[0], winners[2]), (winners[1], winners[3])] if len(winners) == 4 else [tuple(winners)]
        )
        assert [m.fixture.teams for m in turn.matches] == paired

    # Knockouts always have a winner who gains 10; group draws none (R4, R9).
    for turn in game.turns:
        for m in turn.matches:
            if turn.stage is not Stage.GROUP:
                assert m.winner is not None and m.decided_by is not None
            for side in (m.home, m.away):
                gain = 10 if m.winner == side.team else 0
                assert side.scrum_after == side.scrum_before - side.order.total + gain >= 0

    # The champion won the final; verification accepts the record.
    assert game.champion == game.turns[-1].matches[0].winner
    assert verify_record(to_record(game, seed=SEED)).dice_checked


@pytest.mark.parametrize("draw_seed", range(3))
def test_a_whole_8_team_game_with_bots(draw_seed: int) -> None:
    """8 teams: 4 group matches in each of 3 turns, 2 semi-finals, 1 final (R6, R7, R11)."""
    game = bot_game(_mixed(make_setup(4, draw_seed=draw_seed)))
    _check_whole_game(game, [4, 4, 4, 2, 1])


@pytest.mark.parametrize(("players", "draw_seed"), [(5, 0), (9, 1), (16, 2), (6, 3)])
def test_a_whole_16_team_game_with_bots(players: int, draw_seed: int) -> None:
    """16 teams: 8 group matches in each of 3 turns, 4 quarter-finals, 2 semi-finals, 1 final."""
    game = bot_game(_mixed(make_setup(players, draw_seed=draw_seed)))
    _check_whole_game(game, [8, 8, 8, 4, 2, 1])


def test_games_for_every_player_count_are_quick() -> None:
    """Performance: the CLI plays a game for every player count 4..16 in a second or two. Measured:
    about 0.03 s of CPU for a 16-team game; the bound here is loose for slow shared machines."""
    start = time.process_time()
    for players in range(4, 17):
        bot_game(make_setup(players))
    assert time.process_time() - start < 2.0
