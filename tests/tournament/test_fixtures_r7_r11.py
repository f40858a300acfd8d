"""Group fixtures (R7) and the knockout pairing (R11)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from tournament_helpers import bot_game, make_setup

from sevens.tournament import (
    GROUP_ROUNDS,
    Stage,
    TeamId,
    first_knockout_pairs,
    group_fixtures,
    knockout_fixtures,
    next_knockout_pairs,
)

FOUR = {g: [TeamId(f"{g}{place}") for place in (1, 2, 3, 4)] for g in "ABCD"}
TWO = {g: FOUR[g] for g in "AB"}


def _ids(pairs: tuple[tuple[TeamId, TeamId], ...]) -> list[str]:
    return [f"{h}-{a}" for h, a in pairs]


@pytest.mark.parametrize("players", [4, 9])
def test_r7_every_team_plays_every_other_once_over_three_rounds(players: int) -> None:
    """R7: "Each group of four plays a round robin over three rounds; every team plays every other
    team once." R6: "One turn is one round: every team still in plays exactly one match"."""
    setup = make_setup(players)
    met: Counter[frozenset[str]] = Counter()
    for turn in (1, 2, 3):
        fixtures = group_fixtures(setup, turn)
        playing = [team for f in fixtures for team in f.teams]
        assert sorted(playing) == sorted(t.id for t in setup.teams)  # each team exactly once a round
        assert [f.id for f in fixtures] == [f"t{turn}-m{k}" for k in range(1, len(fixtures) + 1)]
        for f in fixtures:
            assert f.stage is Stage.GROUP and f.turn == turn
            assert setup.team(f.home).group == setup.team(f.away).group == f.group
            met[frozenset(f.teams)] += 1
    expected = {
        frozenset(pair)
        for letter in setup.format.group_letters
        for pair in itertools.combinations(setup.group(letter), 2)
    }
    assert set(met) == expected
    assert set(met.values()) == {1}


def test_r7_the_round_robin_table_covers_all_six_pairs() -> None:
    """R7: "every team plays every other team once" (the place-numbers table itself)."""
    pairs = [frozenset(p) for round_ in GROUP_ROUNDS for p in round_]
    assert sorted(map(sorted, pairs)) == sorted(
        map(sorted, map(frozenset, itertools.combinations(range(4), 2)))
    )


def test_r7_group_rounds_are_1_to_3() -> None:
    """R7: "over three rounds"."""
    with pytest.raises(ValueError, match="R7"):
        group_fixtures(make_setup(4), 4)


def test_r11_two_groups() -> None:
    """R11: "With 2 groups: A1-B2, B1-A2"."""
    assert _ids(first_knockout_pairs(TWO)) == ["A1-B2", "B1-A2"]


def test_r11_four_groups() -> None:
    """R11: "With 4 groups: A1-D2, B1-C2, C1-B2, D1-A2"."""
    assert _ids(first_knockout_pairs(FOUR)) == ["A1-D2", "B1-C2", "C1-B2", "D1-A2"]


def test_r11_semi_finals_from_the_quarter_finals() -> None:
    """R11: "with the semi-finals (A1/D2 v C1/B2) and (B1/C2 v D1/A2)", whoever wins each."""
    quarters = first_knockout_pairs(FOUR)
    for picks in itertools.product((0, 1), repeat=4):
        winners = [pair[pick] for pair, pick in zip(quarters, picks, strict=True)]
        semis = next_knockout_pairs(winners)
        assert semis[0][0] in ("A1", "D2") and semis[0][1] in ("C1", "B2")
        assert semis[1][0] in ("B1", "C2") and semis[1][1] in ("D1", "A2")
        final = next_knockout_pairs([semis[0][0], semis[1][0]])
        assert final == ((semis[0][0], semis[1][0]),)


@pytest.mark.parametrize("standings", [TWO, FOUR], ids=["2 groups", "4 groups"])
def test_r11_winner_and_runner_up_of_a_group_can_meet_only_in_the_final(
    standings: dict[str, list[TeamId]],
) -> None:
    """R11: "every group winner meets a runner-up of another group, and a group's winner and
    runner-up are placed in opposite halves of the bracket, so they can meet only in the final"."""
    first = first_knockout_pairs(standings)
    for home, away in first:
        assert home[1] == "1" and away[1] == "2" and home[0] != away[0]
    rounds = 1 + (len(first) == 4)
    for picks in itertools.product((0, 1), repeat=len(first) + (2 if rounds == 2 else 0)):
        pairs, i = first, 0
        while len(pairs) > 1:
            for home, away in pairs:
                assert home[0] != away[0], f"{home} and {away} met before the final"
            winners = [pair[picks[i + k]] for k, pair in enumerate(pairs)]
            i += len(pairs)
            pairs = next_knockout_pairs(winners)


def test_knockout_fixture_ids_and_stage() -> None:
    fixtures = knockout_fixtures(4, Stage.QUARTER_FINAL, first_knockout_pairs(FOUR))
    assert (fixtures[0].id, fixtures[0].home, fixtures[0].away) == ("t4-m1", "A1", "D2")
    assert all(f.group is None and f.stage is Stage.QUARTER_FINAL for f in fixtures)
    with pytest.raises(ValueError, match="not a knockout stage"):
        knockout_fixtures(4, Stage.GROUP, [])
    with pytest.raises(ValueError, match="R11"):
        next_knockout_pairs([TeamId("a"), TeamId("b"), TeamId("c")])
    with pytest.raises(ValueError, match="R11"):
        first_knockout_pairs({"A": FOUR["A"], "C": FOUR["C"]})


@pytest.mark.parametrize(
    ("players", "first", "later"),
    [
        (4, ["A1-B2", "B1-A2"], [["A1/B2-B1/A2"]]),
        (
            9,
            ["A1-D2", "B1-C2", "C1-B2", "D1-A2"],
            [["A1/D2-C1/B2", "B1/C2-D1/A2"], ["A1/D2/C1/B2-B1/C2/D1/A2"]],
        ),
    ],
    ids=["8 teams", "16 teams"],
)
def test_r11_a_games_knockouts_follow_its_final_tables_and_its_winners(
    players: int, first: list[str], later: list[list[str]]
) -> None:
    """Seed 7 and R11 in a whole game: the first knockout round is built from the final group
    tables (winner at home against the named runner-up), and each later round from the winners of
    the slots R11 names; every team placed 3rd or 4th plays no knockout match."""
    game = bot_game(make_setup(players))
    tables = game.tables()
    label = {
        team: f"{letter}{place}"
        for letter, table in tables.items()
        for place, team in enumerate(table.order[:2], start=1)
    }
    knockouts = game.turns[3:]
    assert [f"{label[m.home.team]}-{label[m.away.team]}" for m in knockouts[0].matches] == first
    # Each later slot holds the winner of the slots it names, in that order.
    slots = {f"{label[m.home.team]}/{label[m.away.team]}": m.winner for m in knockouts[0].matches}
    for turn, names in zip(knockouts[1:], later, strict=True):
        expected = []
        for name in names:
            home, away = name.split("-")
            expected.append((slots[home], slots[away]))
        assert [(m.home.team, m.away.team) for m in turn.matches] == expected
        slots = {
            name.replace("-", "/"): m.winner for name, m in zip(names, turn.matches, strict=True)
        }
    played = {team for turn in knockouts for m in turn.matches for team in m.fixture.teams}
    assert played == set(label)
