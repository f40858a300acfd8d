"""R6 (formats) and R12 (teams per player, default format, organiser's override)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from sevens.tournament import Format, Stage, check_format, default_format, legal_formats

# RULES.md R12, written out by hand: players -> (teams, teams each).
R12_DEFAULTS = {
    4: (8, 2),
    5: (16, 3),
    6: (16, 2),
    7: (16, 2),
    8: (8, 1),
    **{n: (16, 1) for n in range(9, 17)},
}


def _placeable(players: int, groups: int, k: int) -> bool:
    """Brute force, independent of the code: can every player get k teams in k different groups,
    no group holding more than four teams? Dynamic programming over group loads."""
    loads = {tuple([0] * groups)}
    for _ in range(players):
        loads = {
            tuple(load[g] + (g in chosen) for g in range(groups))
            for load in loads
            for chosen in itertools.combinations(range(groups), k)
            if all(load[g] + (g in chosen) <= 4 for g in range(groups))
        }
        if not loads:
            return False
    return True


def _legal_by_hand(players: int) -> list[tuple[int, int]]:
    found = []
    for teams in (8, 16):
        groups = teams // 4
        for k in range(1, 17):
            if players < 8 and k < 2:
                continue  # R12: "With fewer than eight players, each player manages at least two teams"
            if k <= groups and _placeable(players, groups, k):
                found.append((teams, k))
    return found


def test_r6_eight_teams_two_groups_five_turns() -> None:
    """R6: "8 teams in 2 groups (5 turns: 3 group rounds, semi-finals, final)"."""
    fmt = Format(8, 4, 2)
    assert (fmt.groups, fmt.turns) == (2, 5)
    assert fmt.stages == (Stage.GROUP, Stage.GROUP, Stage.GROUP, Stage.SEMI_FINAL, Stage.FINAL)


def test_r6_sixteen_teams_four_groups_six_turns() -> None:
    """R6: "16 teams in 4 groups (6 turns: 3 group rounds, quarter-finals, semi-finals, final)"."""
    fmt = Format(16, 9, 1)
    assert (fmt.groups, fmt.turns) == (4, 6)
    assert fmt.stages == (
        Stage.GROUP,
        Stage.GROUP,
        Stage.GROUP,
        Stage.QUARTER_FINAL,
        Stage.SEMI_FINAL,
        Stage.FINAL,
    )


@pytest.mark.parametrize("players", range(4, 17))
def test_r12_legal_arrangements_match_a_brute_force_placement(players: int) -> None:
    """R12: "Each player manages the same number of teams, and no player has two teams in the same
    group. With fewer than eight players, each player manages at least two teams"."""
    assert [(f.teams, f.teams_per_player) for f in legal_formats(players)] == _legal_by_hand(players)


@pytest.mark.parametrize("players", range(4, 17))
def test_r12_default_table_for_every_player_count(players: int) -> None:
    """R12: "Default format: among the legal arrangements, the one with the largest share of
    human-managed teams, the smaller format on a tie: 4 players: 8 teams, 2 each; 5: 16 teams,
    3 each; 6 and 7: 16 teams, 2 each; 8: 8 teams, 1 each; 9 to 16: 16 teams, 1 each."""
    fmt = default_format(players)
    assert (fmt.teams, fmt.teams_per_player) == R12_DEFAULTS[players]
    # The stated rule gives the same answer from the hand-derived legal list.
    best = max(_legal_by_hand(players), key=lambda tk: (Fraction(players * tk[1], tk[0]), -tk[0]))
    assert best == R12_DEFAULTS[players]
    check_format(fmt)


@pytest.mark.parametrize(
    ("fmt", "words"),
    [
        (Format(8, 5, 2), "need 10 teams"),
        (Format(8, 4, 1), "at least two teams"),
        (Format(8, 7, 1), "at least two teams"),
        (Format(8, 4, 3), "no player may have two teams in one group"),
        (Format(16, 4, 5), "no player may have two teams in one group"),
        (Format(16, 9, 2), "need 18 teams"),
        (Format(16, 6, 3), "need 18 teams"),
        (Format(16, 3, 4), "4 to 16 players"),
        (Format(16, 17, 1), "4 to 16 players"),
        (Format(16, 8, 0), "at least one team"),
    ],
)
def test_r12_illegal_overrides_are_refused_naming_the_rule(fmt: Format, words: str) -> None:
    """R12: "The organiser may choose another legal arrangement." Anything else is refused."""
    with pytest.raises(ValueError, match="R12") as info:
        check_format(fmt)
    assert words in str(info.value)


def test_r6_team_counts_other_than_8_or_16_are_refused() -> None:
    """R6: "8 teams in 2 groups ... or 16 teams in 4 groups"."""
    with pytest.raises(ValueError, match="R6"):
        check_format(Format(12, 6, 2))


def test_r12_refusal_lists_the_legal_choices() -> None:
    """R12: the organiser is told which arrangements are legal for that many players."""
    with pytest.raises(ValueError) as info:
        check_format(Format(8, 6, 2))
    assert "legal for 6 players: 16 teams with 2 each" in str(info.value)


def test_r12_every_legal_override_is_accepted() -> None:
    """R12: "The organiser may choose another legal arrangement"."""
    for players in range(4, 17):
        for fmt in legal_formats(players):
            check_format(fmt)
            assert fmt.house_teams == fmt.teams - players * fmt.teams_per_player >= 0


@pytest.mark.parametrize("players", [0, 3, 17, 100])
def test_r12_player_counts_outside_4_to_16(players: int) -> None:
    """R12: "4 to 16 players"."""
    with pytest.raises(ValueError, match="R12: Sevens is for 4 to 16 players"):
        legal_formats(players)
    with pytest.raises(ValueError, match="R12"):
        default_format(players)


def test_format_fields_must_be_whole_numbers() -> None:
    with pytest.raises(ValueError, match="whole number"):
        Format(8.0, 4, 2)  # type: ignore[arg-type]
