"""A team's story (sevens.tournament.story), which the web's team page and the terminal's ``m`` both
format: checked turn by turn along whole games against the game's own figures, the group tables
and the game record, and for R13 against the orders of the turn still open."""

from __future__ import annotations

from itertools import pairwise

import pytest
from tournament_helpers import SEED, make_setup, zero_orders

from sevens.bots import get_strategy
from sevens.rules import STARTING_SCRUM, WIN_BONUS
from sevens.tournament import Format, Game, new_game, team_progress
from sevens.tournament.formats import GROUP_TURNS, Stage
from sevens.tournament.game import TurnOrder, autopilot_orders, resolve_turn
from sevens.tournament.record import from_record, to_record
from sevens.tournament.story import team_story


def _turn_by_turn(players: int, fmt: Format | None = None, *, zero: bool = False) -> list[Game]:
    game = new_game(make_setup(players, fmt))
    games = [game]
    while not game.finished:
        if zero:
            orders = {t: TurnOrder(t, zero_orders(game, t)) for t in game.teams_in_play()}
        else:
            orders = autopilot_orders(game, game.teams_in_play(), get_strategy, seed=SEED)
        game = resolve_turn(game, orders, SEED)
        games.append(game)
    return games


@pytest.mark.parametrize(("players", "zero"), [(4, False), (16, False), (4, True)])
def test_a_story_adds_up_to_the_scrum_the_tables_and_the_record(players: int, zero: bool) -> None:
    """SCRUM after = before - spent + 10 for a win (R4), each match starting where the last left
    it and the last ending at the team's SCRUM now; its group matches' points, tries and results
    add up to its row of the table (R8); and the record, read back, tells the same story."""
    games = _turn_by_turn(players, zero=zero)
    for game in games:
        replayed, _ = from_record(to_record(game, seed=SEED if game.finished else None))
        tables = game.tables()
        for team in game.setup.teams:
            story = team_story(game, team.id)
            assert story == team_story(replayed, team.id)
            before = STARTING_SCRUM
            for m in story.matches:
                assert m.own.team == team.id and m.other.team != team.id
                assert m.own.scrum_before == before
                assert m.own.scrum_after == before - m.spent + m.bonus
                assert m.bonus == (WIN_BONUS if m.match.winner == team.id else 0)
                before = m.own.scrum_after
            assert story.scrum == before == game.scrum(team.id)
            row = tables[team.group].row(team.id)
            group = [m for m in story.matches if m.stage is Stage.GROUP]
            assert row.played == len(group)
            assert (row.won, row.drawn, row.lost) == tuple(
                sum(m.outcome == o for m in group) for o in ("won", "drew", "lost")
            )
            assert row.points_for == sum(m.own.line.points for m in group)
            assert row.points_against == sum(m.other.line.points for m in group)
            assert row.tries_for == sum(m.own.line.tries for m in group)
            assert row.tries_against == sum(m.other.line.tries for m in group)
            knockout = [m.match for m in story.matches if m.stage.knockout]
            assert tuple(knockout) == story.progress.knockout == team_progress(game, team.id).knockout
            assert len(group) == min(len(game.turns), GROUP_TURNS)


def test_a_story_holds_the_resolved_turns_only_and_its_open_match_without_an_order() -> None:
    """R13: a story of the game before turn n is resolved holds no match of turn n, so none of its
    orders; its match of turn n is the fixture and the opponent. Once resolved, both orders are in."""
    games = _turn_by_turn(16)
    for before, after in pairwise(games):
        resolved = after.turns[-1]
        for team in before.teams_in_play():
            story = team_story(before, team)
            assert all(m.turn < resolved.number for m in story.matches)
            assert [m.match for m in story.matches] == [
                m for t in before.turns for m in t.matches if team in (m.home.team, m.away.team)
            ]
            up = story.next_match
            assert up is not None and up.turn == resolved.number and up.stage is resolved.stage
            played = next(m for m in resolved.matches if team in (m.home.team, m.away.team))
            assert up.fixture == played.fixture and up.opponent in (played.home.team, played.away.team)
            assert not hasattr(up, "order") and not hasattr(up, "orders")
            told = team_story(after, team).matches[-1]
            assert told.match == played and told.own.order == played.side(team).order
        for team in (t.id for t in before.setup.teams if t.id not in before.teams_in_play()):
            assert team_story(before, team).next_match is None  # out: nothing to play
    last = games[-1]
    assert all(team_story(last, t.id).next_match is None for t in last.setup.teams)


def test_an_ended_game_leaves_no_match_to_play() -> None:
    """The organiser ended it: a team still in is not told it plays on."""
    game = _turn_by_turn(4)[3]
    team = game.teams_in_play()[0]
    assert team_story(game, team).next_match is not None
    ended = team_story(game, team, ended=True)
    assert ended.next_match is None and ended.said.startswith("Still in play when the game was ended")


def test_an_unknown_team_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        team_story(new_game(make_setup(4)), "atlantis")


def test_a_missed_order_reads_the_same_in_the_terminal_as_on_the_web() -> None:
    """The web's team page said "(missed: autopilot even)", its match report "missed: autopilot
    even (R13)" and the terminal's "(missed, autopilot)": one wording now, story.order_note's, in
    the terminal's ``m`` list and its match report too."""
    from dataclasses import replace

    from sevens.cli.render import _order_phrases
    from sevens.cli.render import team_story as told_in_terminal
    from sevens.tournament.story import order_note

    game = new_game(make_setup(4))
    orders = autopilot_orders(game, game.teams_in_play(), get_strategy, seed=SEED)
    missed = next(iter(orders))
    orders[missed] = replace(orders[missed], missed=True, autopilot="even")
    game = resolve_turn(game, orders, SEED)
    side = next(m.side(missed) for m in game.turns[0].matches if missed in m.fixture.teams)
    assert order_note(side) == "missed: autopilot even (R13)"
    order = f"{side.order.force}+{side.order.flair}"
    lines = told_in_terminal(game, missed)
    assert f"order {order}, missed: autopilot even (R13), against " in lines[1], lines
    assert "missed: autopilot even (R13)" in _order_phrases(side)
