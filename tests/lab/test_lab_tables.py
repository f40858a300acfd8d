"""The batch's group tables (R8) and knockout pairing (R11) against the tournament's own functions."""

from __future__ import annotations

import numpy as np

from sevens.lab.registry import resolve
from sevens.lab.simulate import simulate, team_id
from sevens.rules import Line
from sevens.tournament.fixtures import GROUP_ROUNDS
from sevens.tournament.standings import CHAIN, GroupResult, group_table


def test_r8_group_order_and_decided_by_match_the_standings_module() -> None:
    """R8: league points, tries, points, fewest tries and points conceded, head-to-head among the
    teams still level, lots. Every group place and the criterion that decided it, in 3000 batch
    groups, equal what sevens.tournament.standings gives for the same results (lots aside, which
    are random on both sides: only their occurrence is compared)."""
    strategies = [resolve("random"), resolve("even-force")]
    seats = np.tile(np.arange(8) % 2, (1500, 1))
    result = simulate(8, seats, strategies, np.random.default_rng(11))
    group_lines = result.group_lines  # unpacked once
    checked = lots = 0
    for b in range(result.tournaments):
        for g in range(2):
            members = [team_id(g * 4 + q) for q in range(4)]
            results = []
            for r in range(3):
                for m, (h, a) in enumerate(GROUP_ROUNDS[r]):
                    hl, al = group_lines[b, r, g * 2 + m]
                    results.append(GroupResult(members[h], members[a], Line(*map(int, hl)), Line(*map(int, al))))
            table = group_table(members, results, _NoLots(), "group")
            for row in table.rows:
                if row.decided_by is CHAIN[-1]:
                    lots += 1
                    continue
                assert result.group_position[b, g * 4 + members.index(row.team)] == row.position
                checked += 1
    assert checked > 10_000
    assert lots < checked


class _NoLots:
    """Lots dice cycling through the faces: enough for group_table to finish a draw of lots, whose
    outcome the tests do not compare (only that lots were needed)."""

    def __init__(self) -> None:
        self.n = 0

    def d6(self) -> int:
        self.n += 1
        return self.n % 6 + 1


def test_r8_criteria_frequencies_match_the_standings_module() -> None:
    """R8: the batch counts how often each criterion decides each place exactly as the standings
    module's ``decided_by`` does, for the same group results."""
    strategies = [resolve("random")]
    result = simulate(8, np.zeros((400, 8), dtype=np.int64), strategies, np.random.default_rng(5))
    group_lines = result.group_lines  # unpacked once
    expected = np.zeros_like(result.group_decided)
    for b in range(result.tournaments):
        for g in range(2):
            members = [team_id(g * 4 + q) for q in range(4)]
            results = []
            for r in range(3):
                for m, (h, a) in enumerate(GROUP_ROUNDS[r]):
                    hl, al = group_lines[b, r, g * 2 + m]
                    results.append(GroupResult(members[h], members[a], Line(*map(int, hl)), Line(*map(int, al))))
            for row in group_table(members, results, _NoLots(), "group").rows:
                expected[row.position - 1, CHAIN.index(row.decided_by)] += 1
    # Lots reorder the teams they separate, so compare per criterion summed over places, and the
    # places decided before lots exactly.
    assert (expected.sum(axis=0) == result.group_decided.sum(axis=0)).all()


def test_r11_first_knockout_round_pairs_winners_with_runners_up_of_other_groups() -> None:
    """R11: with 4 groups, A1-D2, B1-C2, C1-B2, D1-A2: a group's winner and runner-up are in
    opposite halves, so they can meet only in the final; the champion won every knockout match."""
    result = simulate(16, np.zeros((300, 16), dtype=np.int64), [resolve("even")], np.random.default_rng(2))
    rows = np.arange(result.tournaments)
    assert (result.knockout_wins[rows, result.champion] == 3).all()
    first, second = result.group_position == 1, result.group_position == 2
    assert (result.reached[~(first | second)] == 0).all()
    assert (result.reached[first | second] >= 1).all()
    finalists = result.finalist
    for g in range(4):
        both = finalists[:, g * 4 : g * 4 + 4].sum(axis=1)
        # Two finalists from one group must be its winner and runner-up.
        two = both == 2
        assert (result.group_position[two, g * 4 : g * 4 + 4][finalists[two, g * 4 : g * 4 + 4]] <= 2).all()
