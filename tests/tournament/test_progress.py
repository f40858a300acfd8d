"""How far each team went (sevens.tournament.progress), checked turn by turn along whole games
against the fixtures, the group tables and the bracket."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from tournament_helpers import SEED, make_setup, ordered_game, zero_orders

from sevens.bots import get_strategy
from sevens.tournament import (
    Format,
    Game,
    Stage,
    describe_progress,
    final_standing,
    new_game,
    team_progress,
)
from sevens.tournament.formats import GROUP_TURNS
from sevens.tournament.game import autopilot_orders, resolve_turn


def turn_by_turn(players: int, fmt: Format | None = None, draw_seed: object = 1) -> list[Game]:
    game = new_game(make_setup(players, fmt, draw_seed=draw_seed))
    games = [game]
    while not game.finished:
        game = resolve_turn(game, autopilot_orders(game, game.teams_in_play(), get_strategy, seed=SEED), SEED)
        games.append(game)
    return games


@pytest.mark.parametrize(("players", "teams"), [(16, 16), (8, 8), (4, 8), (5, 16)])
@pytest.mark.parametrize("draw_seed", [1, 2])
def test_progress_follows_the_game_turn_by_turn(players: int, teams: int, draw_seed: int) -> None:
    games = turn_by_turn(players, draw_seed=draw_seed)
    assert games[-1].format.teams == teams
    for game in games:
        in_play = set(game.teams_in_play())
        tables = game.tables()
        for team in game.setup.teams:
            progress = team_progress(game, team.id)
            assert progress.group == team.group
            assert progress.group_played == min(len(game.turns), GROUP_TURNS)
            assert tables[team.group].row(team.id).position == progress.group_place
            assert progress.groups_over == (len(game.turns) >= GROUP_TURNS)
            # Out exactly when it has no match to come, the champion apart.
            if game.finished:
                assert progress.out == (game.champion != team.id)
            else:
                assert progress.out == (team.id not in in_play)
            assert (progress.next_stage is not None) == (team.id in in_play)
            if progress.next_stage is not None:
                assert progress.next_stage is game.stage
            assert all(m.fixture.stage.knockout for m in progress.knockout)
            assert all(m.winner == team.id for m in progress.knockout[:-1])


@pytest.mark.parametrize(("players", "out_at"), [
    (16, {"groups": 8, Stage.QUARTER_FINAL: 4, Stage.SEMI_FINAL: 2, Stage.FINAL: 1}),
    (8, {"groups": 4, Stage.SEMI_FINAL: 2, Stage.FINAL: 1}),
])
def test_a_finished_game_has_one_champion_and_each_stage_its_losers(players: int, out_at: dict[object, int]) -> None:
    game = turn_by_turn(players)[-1]
    everyone = [team_progress(game, t.id) for t in game.setup.teams]
    assert [p.team for p in everyone if p.champion] == [game.champion]
    stages: Counter[object] = Counter()
    for p in everyone:
        if p.champion:
            continue
        assert p.out
        beaten = p.beaten_in
        stages[beaten.fixture.stage if beaten is not None else "groups"] += 1
        if beaten is None:
            assert p.group_place > 2 and not p.knockout
    assert stages == Counter(out_at)


def test_the_sentences_name_the_stage_the_opponent_and_the_score() -> None:
    games = turn_by_turn(16)
    final = games[-1]
    names = {t.id: t.name for t in final.setup.teams}
    said = {t.id: describe_progress(team_progress(final, t.id), names.__getitem__) for t in final.setup.teams}
    champion = final.champion
    assert champion is not None
    last = final.turns[-1].matches[0]
    runner_up = last.loser
    assert runner_up is not None
    assert said[champion] == f"Champion: won the final against {names[runner_up]}, {last.summary}."
    assert said[runner_up] == (
        f"Runner-up: lost the final to {names[champion]}, {last.summary.replace(', won ', f', {names[champion]} won ', 1)}."
    )
    kinds = Counter(sentence.split(":")[0] for sentence in said.values())
    assert kinds == Counter(
        {"Out after the groups": 8, "Out in the quarter-final": 4, "Out in the semi-final": 2, "Runner-up": 1, "Champion": 1}
    )
    for team, sentence in said.items():
        if sentence.startswith("Out in the"):
            beaten = team_progress(final, team).beaten_in
            assert beaten is not None and beaten.winner is not None
            summary = beaten.summary.replace(", won ", f", {names[beaten.winner]} won ", 1)
            assert f"lost to {names[beaten.winner]}, {summary}." in sentence
        if sentence.startswith("Out after the groups"):
            place = final.tables()[final.setup.team(team).group].order.index(team) + 1
            assert sentence.endswith(f"{ {3: '3rd', 4: '4th'}[place] } in group {final.setup.team(team).group}.")
    # During the game: the group stage counts matches, the knockouts say what comes next.
    after_one = games[1]
    team = after_one.setup.teams[0]
    assert describe_progress(team_progress(games[0], team.id)) == f"Group {team.group}: no match played yet."
    assert describe_progress(team_progress(after_one, team.id)).startswith(f"Group {team.group}: ")
    assert describe_progress(team_progress(after_one, team.id)).endswith(" after 1 of 3 matches.")
    quarter = games[GROUP_TURNS]
    through = [t for t in quarter.teams_in_play()]
    assert all(
        describe_progress(team_progress(quarter, t)).startswith("Through to the quarter-final: ") for t in through
    )
    semi = games[GROUP_TURNS + 1]
    for t in semi.teams_in_play():
        sentence = describe_progress(team_progress(semi, t), names.__getitem__)
        assert sentence.startswith("Through to the semi-final: beat "), sentence
        assert " in the quarter-final, " in sentence
    # A game stopped early does not tell a team still in play that it plays on.
    for t in semi.teams_in_play():
        assert describe_progress(team_progress(semi, t), ended=True).startswith("Still in play when the game was ended")


def test_teams_level_in_an_unfinished_group_are_told_the_place_they_share() -> None:
    """R8: in an unfinished group, teams level up to head-to-head share a place (the table shows
    both as, say, 2nd). With nothing spent every first-round match is 0-0, so each group's four
    teams share 1st; the managers of three of them were told 2nd, 3rd and 4th (their place in
    the list, which is by team id)."""
    game = ordered_game(make_setup(4), zero_orders, turns=1)
    for team in game.setup.teams:
        assert game.tables()[team.group].row(team.id).position == 1
        progress = team_progress(game, team.id)
        assert progress.group_place == 1
        assert describe_progress(progress) == f"Group {team.group}: 1st after 1 of 3 matches."


def test_an_unknown_team_is_refused_with_the_teams_that_exist() -> None:
    game = new_game(make_setup(4))
    with pytest.raises(KeyError, match="no team 'atlantis'"):
        team_progress(game, "atlantis")


@pytest.mark.parametrize(
    ("summary", "told"),
    [
        ("46-46, won on drop goals 2-0", "46-46, {w} won on drop goals 2-0"),
        ("20-20, level on count-back, won on group record (tries scored 9-7)",
         "20-20, level on count-back, {w} won on group record (tries scored 9-7)"),
        ("20-20, level on count-back and group record, won by drawing lots",
         "20-20, level on count-back and group record, {w} won by drawing lots"),
        ("27-13", "27-13"),
    ],
)
def test_a_team_beaten_on_count_back_is_told_who_won_it(summary: str, told: str) -> None:
    """Argentina, out in a level knockout, read "lost to Fiji, 46-46, won on drop goals 2-0": as if
    Argentina had won on drop goals. The winner is now named where the summary says won."""
    final = turn_by_turn(16)[-1]
    names = {t.id: t.name for t in final.setup.teams}
    for turn in final.turns[GROUP_TURNS:]:
        for match in turn.matches:
            assert match.loser is not None and match.winner is not None
            beaten = dataclasses.replace(
                team_progress(final, match.loser), knockout=(dataclasses.replace(match, summary=summary),)
            )
            said = describe_progress(beaten, names.__getitem__)
            winner = names[match.winner]
            assert said.endswith(f" to {winner}, {told.format(w=winner)}."), said


@pytest.mark.parametrize(("players", "teams"), [(16, 16), (8, 8), (4, 8), (5, 16)])
@pytest.mark.parametrize("draw_seed", [1, 2])
def test_the_final_standing_places_every_team_by_the_stage_it_reached(players: int, teams: int, draw_seed: int) -> None:
    """The finished game's standing: champion 1, runner-up 2, each knockout stage's losers sharing
    its places (semi-finals 3-4, quarter-finals 5-8), then the teams out after the groups by their
    group place (R8), every group's third before every fourth; nothing before the final."""
    games = turn_by_turn(players, draw_seed=draw_seed)
    assert all(final_standing(game) == () for game in games[:-1])
    game = games[-1]
    standing = final_standing(game)
    assert sorted(p.team for p in standing) == sorted(t.id for t in game.setup.teams)
    assert [p.first for p in standing] == sorted(p.first for p in standing)
    assert standing[0].place == "1" and standing[0].team == game.champion
    final = game.turns[-1].matches[0]
    assert standing[1].place == "2" and standing[1].team == final.loser
    groups = teams // 4
    for placing in standing[2:]:
        progress = team_progress(game, placing.team)
        if progress.knockout:  # beaten in a knockout: the places of that stage's losers
            losers = len(game.turns[GROUP_TURNS + len(progress.knockout) - 1].matches)
            assert placing.last - placing.first + 1 == losers and placing.last == 2 * losers
        else:  # out after the groups: 3rds share the places after the knockouts, then 4ths
            first = 2 * groups + 1 + (progress.group_place - 3) * groups
            assert (placing.first, placing.last) == (first, first + groups - 1)
    assert standing[-1].last == teams
