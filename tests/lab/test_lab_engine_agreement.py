"""The batched simulator against the one-by-one game engine (sevens.tournament + sevens.bots).

Both sides play 16-team tournaments with the same bots in the same seats (seat ``t`` plays
"even", "group-blitz", "knockout-saver", "random" in turn). The batch plays 10^5 tournaments, the
engine fewer (it is about 500 times slower), through both simulator paths (the compiled loops and
numpy alone); every comparison is a two-sample test whose spread accounts for both sample sizes,
with thresholds that a correct simulator fails about once in 10^4 runs per statistic.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest
from scipy.stats import chi2

from sevens.bots import get_strategy
from sevens.lab import kernels
from sevens.lab.registry import resolve
from sevens.lab.simulate import KNOCKOUT_DECIDERS, simulate
from sevens.rules import SeededDice
from sevens.tournament.formats import Format, Stage
from sevens.tournament.game import Game, autopilot_orders, new_game, play_turn
from sevens.tournament.setup import Player, PlayerId, draw_game
from sevens.tournament.standings import CHAIN

NAMES = ("even", "group-blitz", "knockout-saver", "random")
BATCH_TOURNAMENTS = 100_000
ENGINE_TOURNAMENTS = 1000
P_FLOOR = 1e-4
Z_LIMIT = 4.0


def _engine_game(i: int, field: tuple[str, ...] = NAMES, teams: int = 16, stream: str = "") -> Game:
    """Game ``i`` played by the rules engine, its teams' autopilots ``field`` in turn round the draw;
    ``stream`` keeps one test's dice apart from another's."""
    people = [Player(PlayerId(f"p{k}"), f"P{k}") for k in range(teams)]
    setup = draw_game(people, Format(teams, teams, 1), seed_sha256="0" * 64, draw_seed=i)
    for t, team in enumerate(setup.teams):
        setup = setup.with_autopilot(team.id, field[t % len(field)])
    game = new_game(setup)
    seed = f"{i + 1:064x}"
    while not game.finished:
        n = game.turn_number
        orders = autopilot_orders(game, game.teams_in_play(), get_strategy, seed=seed)
        game = play_turn(game, orders, lambda s, n=n: SeededDice(random.Random(f"{stream}{i}/{n}/{s}")))
    return game


def _homogeneity_p(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sample chi-square test of homogeneity; categories with few counts are pooled."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    na, nb = a.sum(), b.sum()
    pooled = (a + b) / (na + nb)
    small = pooled * min(na, nb) < 5
    if small.any():
        a = np.append(a[~small], a[small].sum())
        b = np.append(b[~small], b[small].sum())
        pooled = (a + b) / (na + nb)
    keep = pooled > 0
    a, b, pooled = a[keep], b[keep], pooled[keep]
    stat = (((a - na * pooled) ** 2) / (na * pooled)).sum() + (((b - nb * pooled) ** 2) / (nb * pooled)).sum()
    return float(chi2.sf(stat, len(pooled) - 1)) if len(pooled) > 1 else 1.0


@pytest.fixture(scope="module")
def both() -> tuple[dict[str, np.ndarray], list[Any]]:
    engine = {
        "champion": np.zeros(16),
        "group_decided": np.zeros(len(CHAIN)),
        "knockout_decided": np.zeros(len(KNOCKOUT_DECIDERS)),
    }
    per_game_lines = []
    for i in range(ENGINE_TOURNAMENTS):
        game = _engine_game(i)
        teams = [t.id for t in game.setup.teams]
        engine["champion"][teams.index(game.champion)] += 1
        tables = game.final_tables
        assert tables is not None
        for table in tables.values():
            for row in table.rows:
                engine["group_decided"][CHAIN.index(row.decided_by)] += 1
        sums = np.zeros((4, 4))
        for turn in game.turns:
            stage = 0 if turn.stage is Stage.GROUP else 1 + Format(16, 16, 1).knockout_stages.index(turn.stage)
            for match in turn.matches:
                for side in (match.home, match.away):
                    line = side.line
                    sums[stage] += (line.tries, line.conversions, line.penalties, line.drop_goals)
                if turn.stage is not Stage.GROUP:
                    engine["knockout_decided"][KNOCKOUT_DECIDERS.index(match.decided_by)] += 1
        per_game_lines.append(sums)
    engine["lines"] = np.array(per_game_lines)
    strategies = [resolve(name) for name in NAMES]
    seats = np.tile(np.arange(16) % 4, (BATCH_TOURNAMENTS, 1))
    # Both simulator paths face the engine: the compiled loops (when numba is there) and numpy.
    paths = [False] + ([True] if kernels.AVAILABLE else [])
    batches = [
        simulate(16, seats, strategies, np.random.default_rng(20261130 + c), compiled=c) for c in paths
    ]
    return engine, batches


@pytest.mark.slow
def test_champion_frequencies_by_seat_agree(both: tuple[dict[str, np.ndarray], list[Any]]) -> None:
    """Champions by seat: the batch and the engine come from the same distribution."""
    engine, batches = both
    for batch in batches:
        counts = np.bincount(batch.champion, minlength=16)
        assert counts.sum() == BATCH_TOURNAMENTS
        assert _homogeneity_p(engine["champion"], counts) > P_FLOOR


@pytest.mark.slow
def test_mean_lines_by_stage_agree(both: tuple[dict[str, np.ndarray], list[Any]]) -> None:
    """Mean tries, conversions, penalties, drop goals per team and match, by stage (R1)."""
    engine, batches = both
    lines = engine["lines"]  # [game, stage, component]
    matches = np.array([48, 8, 4, 2])  # team-lines per tournament and stage: 16 x 3 rounds, 8, 4, 2
    per_team = lines / matches[None, :, None]
    mean_e = per_team.mean(axis=0)
    sd_e = per_team.std(axis=0, ddof=1)
    se = sd_e * math.sqrt(1 / ENGINE_TOURNAMENTS + 1 / BATCH_TOURNAMENTS)
    for batch in batches:
        assert np.array_equal(batch.stage_matches, matches * BATCH_TOURNAMENTS)
        mean_b = batch.stage_lines / batch.stage_matches[:, None]
        z = (mean_b - mean_e) / se
        assert np.abs(z).max() < Z_LIMIT, z


@pytest.mark.slow
def test_tie_break_frequencies_agree(both: tuple[dict[str, np.ndarray], list[Any]]) -> None:
    """R8 and R9: how often each criterion decides a group place and a knockout match."""
    engine, batches = both
    for batch in batches:
        group = batch.group_decided.sum(axis=0)
        knockout = batch.knockout_decided.sum(axis=0)
        assert group.sum() == 16 * BATCH_TOURNAMENTS
        assert _homogeneity_p(engine["group_decided"], group) > P_FLOOR
        assert _homogeneity_p(engine["knockout_decided"], knockout) > P_FLOOR
        # The tests above have power only if the tie-breaks actually occur.
        assert group[1:].sum() > 1000 and knockout[1:].sum() > 100


# A field with table-reader, which reads its group's table before the last group round: 8 teams,
# table-reader in the even seats and equilibrium in the odd ones; the batch plays it with numpy.
TABLE_FIELD = ("table-reader", "equilibrium")
TABLE_ENGINE_TOURNAMENTS = 1500
TABLE_BATCH_TOURNAMENTS = 50_000


class _CountingRests:
    """table-reader for a batch, counting its teams' orders and its empty ones in the last group round."""

    name = "table-reader"

    def __init__(self) -> None:
        self.inner = resolve("table-reader")
        self.asked = self.rested = 0

    def orders(self, view: Any, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        force, flair = self.inner.orders(view, rng)
        if view.turn == 3:
            self.asked += view.size
            self.rested += int(((force + flair) == 0).sum())
        return force, flair


@pytest.mark.slow
def test_a_field_with_table_reader_agrees_with_the_engine() -> None:
    """The engine's table-reader reads the game's group tables, the batch's the simulator's league
    points: how often it orders nothing before the last group round, the league points its teams
    end the groups with, and the champions by seat come from the same distributions."""
    champion = np.zeros(8)
    points = np.zeros(7)  # the league points of table-reader's teams after the groups, 0 to 6
    asked = rested = 0
    for i in range(TABLE_ENGINE_TOURNAMENTS):
        game = _engine_game(i, TABLE_FIELD, teams=8, stream="t")
        teams = [t.id for t in game.setup.teams]
        champion[teams.index(game.champion)] += 1
        third = game.turns[2]
        for match in third.matches:
            for side in (match.home, match.away):
                if teams.index(side.team) % 2 == 0:
                    asked += 1
                    rested += side.order.total == 0
        tables = game.final_tables
        assert tables is not None
        for table in tables.values():
            for row in table.rows:
                if teams.index(row.team) % 2 == 0:
                    points[row.league_points] += 1
    counting = _CountingRests()
    seats = np.tile(np.arange(8) % 2, (TABLE_BATCH_TOURNAMENTS, 1))
    batch = simulate(8, seats, [counting, resolve("equilibrium")], np.random.default_rng(20261204), compiled=False)
    assert counting.asked == asked // TABLE_ENGINE_TOURNAMENTS * TABLE_BATCH_TOURNAMENTS == 4 * TABLE_BATCH_TOURNAMENTS
    engine_rate, batch_rate = rested / asked, counting.rested / counting.asked
    assert 0.15 < engine_rate < 0.4  # the rest is common enough for the comparison to have power
    pooled = (rested + counting.rested) / (asked + counting.asked)
    se = math.sqrt(pooled * (1 - pooled) * (1 / asked + 1 / counting.asked))
    assert abs(engine_rate - batch_rate) / se < Z_LIMIT, (engine_rate, batch_rate)
    batch_points = np.bincount(batch.group_points[:, ::2].ravel(), minlength=7)
    assert _homogeneity_p(points, batch_points) > P_FLOOR
    assert _homogeneity_p(champion, np.bincount(batch.champion, minlength=8)) > P_FLOOR
