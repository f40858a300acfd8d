"""The game as a state machine: orders (R3, R13), resolution with fair dice (R14), SCRUM (R4),
turns and stages (R6), views."""

from __future__ import annotations

import dataclasses
import random

import pytest
from tournament_helpers import OTHER_SEED, SEED, bot_game, make_setup

from sevens.bots import get_strategy
from sevens.rules import STARTING_SCRUM, Order, fair_die, orders_digest, seed_commitment
from sevens.tournament import (
    DEFAULT_AUTOPILOT,
    Game,
    ManagerView,
    OrderRefused,
    Stage,
    TeamId,
    TurnOrder,
    autopilot_orders,
    check_order,
    new_game,
    resolve_turn,
)


def _orders(game: Game, force: int = 10, flair: int = 9) -> dict[TeamId, TurnOrder]:
    return {t: TurnOrder(t, Order(force, flair)) for t in game.teams_in_play()}


def _after_groups(players: int = 4) -> Game:
    return bot_game(make_setup(players), turns=3)


def test_a_new_game_is_at_turn_one_of_the_group_stage() -> None:
    game = new_game(make_setup(4))
    assert (game.turn_number, game.stage, game.finished, game.champion) == (1, Stage.GROUP, False, None)
    assert len(game.fixtures()) == 4 and len(game.teams_in_play()) == 8
    assert set(game.scrums().values()) == {STARTING_SCRUM}


@pytest.mark.parametrize(("players", "in_play"), [(4, [8, 8, 8, 4, 2]), (9, [16, 16, 16, 8, 4, 2])])
def test_r6_one_turn_is_one_round_every_team_still_in_plays_once(players: int, in_play: list[int]) -> None:
    """R6: "One turn is one round: every team still in plays exactly one match"."""
    game = new_game(make_setup(players))
    seen = []
    while not game.finished:
        teams = game.teams_in_play()
        assert len(set(teams)) == len(teams)
        seen.append(len(teams))
        game = resolve_turn(game, autopilot_orders(game, teams, get_strategy, seed=SEED), SEED)
    assert seen == in_play
    assert game.turn_number is None and game.stage is None and game.fixtures() == ()


def test_r3_orders_are_checked_against_the_balance() -> None:
    """R3: "Their sum may not exceed the team's SCRUM points at the time of the match. Anything else
    is refused with an error that says which rule it breaks"."""
    game = new_game(make_setup(4))
    team = game.teams_in_play()[0]
    assert check_order(game, turn=1, team=team, force=55, flair=45) == Order(55, 45)
    for force, flair, words in ((60, 45, "holds only 100"), (10, 4, "multiple of 3"), (-1, 0, "negative")):
        with pytest.raises(OrderRefused, match="R3") as info:
            check_order(game, turn=1, team=team, force=force, flair=flair)
        assert words in str(info.value) and info.value.rule == "R3"
        # Named as people know the team (not "fiji, turn 1: ..."), one order checked or a whole turn's.
        assert str(info.value).startswith(f"{game.setup.team(team).name}, turn 1: R3")
    with pytest.raises(OrderRefused, match=rf"^{game.setup.team(team).name}, turn 1: R3"):
        resolve_turn(game, {**_orders(game), team: TurnOrder(team, Order(60, 45))}, SEED)


def test_orders_are_tagged_with_game_turn_and_team() -> None:
    """Orders are tagged with game, turn and team; one for another turn is refused."""
    game = new_game(make_setup(4))
    team = game.teams_in_play()[0]
    with pytest.raises(OrderRefused, match="for turn 2, but the game is at turn 1"):
        check_order(game, turn=2, team=team, force=1, flair=0)
    with pytest.raises(OrderRefused, match="this order is for game"):
        check_order(game, turn=1, team=team, force=1, flair=0, game_id="0" * 64)
    assert check_order(game, turn=1, team=team, force=1, flair=0, game_id=game.id) == Order(1, 0)
    with pytest.raises(OrderRefused, match="no team 'atlantis'"):
        check_order(game, turn=1, team="atlantis", force=1, flair=0)
    game = resolve_turn(game, _orders(game), SEED)
    with pytest.raises(OrderRefused, match="turn 1, which is already resolved; send an order for turn 2"):
        check_order(game, turn=1, team=team, force=1, flair=0)


def test_r6_an_eliminated_team_takes_no_order() -> None:
    """R6: only teams still in play; the others are out."""
    game = _after_groups()
    out = next(t.id for t in game.setup.teams if t.id not in game.teams_in_play())
    with pytest.raises(OrderRefused, match="out of the tournament"):
        check_order(game, turn=4, team=out, force=1, flair=0)
    orders = _orders(game)
    orders[out] = TurnOrder(out, Order(0, 0))
    with pytest.raises(OrderRefused, match="play no match this turn"):
        resolve_turn(game, orders, SEED)


def test_r6_a_team_beaten_in_a_knockout_is_out_too() -> None:
    """R6 ("every team still in plays exactly one match") after a knockout defeat: a quarter-final
    loser takes no order, no autopilot order and no place in the turn, and its view says it plays
    no more; its SCRUM stays as the quarter-final left it."""
    game = bot_game(make_setup(9), turns=4)
    assert game.stage is Stage.SEMI_FINAL
    beaten = [m.loser for m in game.turns[3].matches]
    assert all(loser is not None for loser in beaten) and len(beaten) == 4
    for loser in beaten:
        assert loser is not None and loser not in game.teams_in_play()
        name = game.setup.team(loser).name
        with pytest.raises(OrderRefused, match=rf"^R6: {name} is out of the tournament") as info:
            check_order(game, turn=5, team=loser, force=0, flair=0)
        assert info.value.rule == "R6"
        with pytest.raises(OrderRefused, match=rf"^R6: {name} is out of the tournament"):
            autopilot_orders(game, [loser], get_strategy, seed=SEED)
        with pytest.raises(OrderRefused, match=f"{loser} play no match this turn"):
            resolve_turn(game, {**_orders(game, 0, 0), loser: TurnOrder(loser, Order(0, 0))}, SEED)
        view = game.view_for(loser)
        assert (view.in_play, view.fixture, view.turns_left, view.stages_left) == (False, None, 0, ())
        assert view.scrum == game.turns[3].matches[beaten.index(loser)].side(loser).scrum_after
    after = resolve_turn(game, _orders(game, 0, 0), SEED)
    assert all(after.scrum(loser) == game.scrum(loser) for loser in beaten if loser is not None)


def test_a_finished_game_takes_no_orders() -> None:
    game = bot_game(make_setup(4))
    with pytest.raises(OrderRefused, match="finished"):
        check_order(game, turn=6, team=game.setup.teams[0].id, force=0, flair=0)
    with pytest.raises(OrderRefused, match="finished"):
        resolve_turn(game, {}, SEED)


def test_r13_every_team_in_play_needs_an_order_when_the_turn_is_resolved() -> None:
    """R13: "A team without an order when the turn is resolved plays its autopilot" - the caller
    fills those in; a turn with an order missing is refused, naming the team."""
    game = new_game(make_setup(4))
    orders = _orders(game)
    missing = next(iter(orders))
    del orders[missing]
    with pytest.raises(OrderRefused, match=f"no order for {missing}.*R13"):
        resolve_turn(game, orders, SEED)


def test_resolve_refuses_mistagged_or_overspent_orders_and_changes_nothing() -> None:
    """R3: "nothing is spent on a refused order"."""
    game = new_game(make_setup(4))
    a, b = game.teams_in_play()[:2]
    orders = _orders(game)
    orders[a] = TurnOrder(b, Order(1, 0))
    with pytest.raises(OrderRefused, match=f"filed under {a} is tagged for {b}"):
        resolve_turn(game, orders, SEED)
    orders = _orders(game)
    orders[a] = TurnOrder(a, Order(80, 30))
    with pytest.raises(OrderRefused, match="R3"):
        resolve_turn(game, orders, SEED)
    assert game.turns == () and game.scrum(a) == 100


def test_r14_the_seed_must_match_the_commitment() -> None:
    """R14: "a secret game seed whose SHA-256 hash is published when the game is created"."""
    game = new_game(make_setup(4))
    assert game.id == seed_commitment(SEED)
    with pytest.raises(ValueError, match="R14"):
        resolve_turn(game, _orders(game), OTHER_SEED)


def test_r14_dice_come_from_the_seed_and_the_digest_of_all_the_turns_orders() -> None:
    """R14: "Every die of a game comes from a secret game seed ... combined with a digest of all the
    orders of that turn, through HMAC-SHA256 ... No one ... can know a turn's dice before all its
    orders are in." Streams are f"{match}/home" and f"{match}/away"."""
    game = new_game(make_setup(4))
    orders = _orders(game, force=12, flair=0)
    after = resolve_turn(game, orders, SEED)
    digest = orders_digest(game.id, 1, {t: o.order for t, o in orders.items()})
    turn = after.turns[0]
    assert turn.orders_digest == digest
    for match in turn.matches:
        for side, stream in ((match.home, "home"), (match.away, "away")):
            expected = tuple(fair_die(SEED, digest, f"{match.fixture.id}/{stream}", i) for i in range(12))
            assert side.dice.force == expected
    # Change one team's order and every match's dice change, not only that team's.
    changed = dict(orders)
    first = next(iter(changed))
    changed[first] = TurnOrder(first, Order(11, 0))
    other = resolve_turn(game, changed, SEED).turns[0]
    assert all(
        m1.away.dice.force != m2.away.dice.force[:12]
        for m1, m2 in zip(other.matches, turn.matches, strict=True)
        if first not in m1.fixture.teams
    )


def test_r4_scrum_is_carried_between_matches_and_never_negative() -> None:
    """R4: "Each team starts with 100. Points ordered are spent whatever happens. The winner of a
    match gains 10 after the match, usable from the next match on"."""
    game = bot_game(make_setup(9))
    last = {t.id: STARTING_SCRUM for t in game.setup.teams}
    for turn in game.turns:
        for match in turn.matches:
            for side in (match.home, match.away):
                assert side.scrum_before == last[side.team]
                assert side.scrum_after >= 0
                last[side.team] = side.scrum_after
    assert game.scrums() == last
    assert all(game.scrum(team) == balance for team, balance in last.items())


def test_r13_autopilot_orders_are_marked_missed_for_managed_teams_only() -> None:
    """R13: "A team without an order ... plays its autopilot: a bot its manager picked, or the
    game's default bot. The report marks the order as missed." House teams are always bot-played and
    nobody missed them."""
    setup = make_setup(5)  # 15 managed teams and one house team
    game = new_game(setup.with_autopilot(setup.teams[0].id, "knockout-saver"))
    orders = autopilot_orders(game, game.teams_in_play(), get_strategy, seed=SEED)
    for team, given in orders.items():
        info = game.setup.team(team)
        assert given.missed is (info.manager is not None)
        assert given.autopilot == game.setup.autopilot(team)
    assert orders[setup.teams[0].id].autopilot == "knockout-saver"
    assert orders == autopilot_orders(game, game.teams_in_play(), get_strategy, seed=SEED)
    after = resolve_turn(game, orders, SEED)
    assert after.turns[0].orders == orders  # public once resolved (R13)


def test_r13_the_bots_randomness_comes_from_the_secret_seed() -> None:
    """R13 with R14: a bot's rng is derived from the game seed, so it is reproducible by whoever
    holds the seed and differs from game seed to game seed."""
    setup = make_setup(4, seed=SEED)
    game = new_game(setup)
    for team in game.teams_in_play():
        game = new_game(game.setup.with_autopilot(team, "random"))
    teams = game.teams_in_play()
    one = autopilot_orders(game, teams, get_strategy, seed=SEED)
    two = autopilot_orders(game, teams, {"random": get_strategy("random")}, seed=OTHER_SEED)
    assert one != two


def test_a_bot_that_breaks_r3_is_refused_by_name() -> None:
    class Greedy:
        name = "greedy"

        def order(self, view: ManagerView, rng: random.Random) -> Order:
            return Order(view.scrum + 1, 0)

    game = new_game(make_setup(4))
    team = game.setup.team(game.teams_in_play()[0])
    assert team.name != team.id  # so the message shows which of the two it names
    refuses = rf"the bot '{DEFAULT_AUTOPILOT}' gave an order the game refuses: {team.name}, turn 1: .*R3"
    with pytest.raises(OrderRefused, match=refuses):
        autopilot_orders(game, [team.id], {DEFAULT_AUTOPILOT: Greedy()}, seed=SEED)


def test_a_team_out_of_the_tournament_is_named_for_people() -> None:
    """An autopilot or an order asked for an eliminated team named it by its id ("fiji"): people
    read its name everywhere else."""
    game = _after_groups()
    out = next(t for t in game.setup.teams if t.id not in game.teams_in_play())
    with pytest.raises(OrderRefused, match=rf"^R6: {out.name} is out of the tournament"):
        autopilot_orders(game, [out.id], get_strategy, seed=SEED)
    with pytest.raises(OrderRefused, match=rf"^R6: {out.name} is out of the tournament"):
        check_order(game, turn=game.turn_number, team=out.id, force=1, flair=0)


def test_views_show_what_a_manager_may_see() -> None:
    game = new_game(make_setup(4))
    fixture = game.fixtures()[0]
    view = game.view_for(fixture.home)
    assert (view.turn, view.stage, view.scrum, view.in_play) == (1, Stage.GROUP, 100, True)
    assert (view.opponent, view.opponent_scrum, view.fixture) == (fixture.away, 100, fixture)
    assert view.turns_left == 5 and view.group_matches_left == 3
    assert set(view.table.order) == set(game.setup.group(view.group))
    game = _after_groups()
    out = next(t.id for t in game.setup.teams if t.id not in game.teams_in_play())
    gone = game.view_for(out)
    assert (gone.in_play, gone.turns_left, gone.fixture, gone.opponent, gone.stages_left) == (
        False,
        0,
        None,
        None,
        (),
    )
    still = game.view_for(game.teams_in_play()[0])
    assert (still.turns_left, still.group_matches_left, still.stage) == (2, 0, Stage.SEMI_FINAL)
    assert len(still.history) == 3


def test_tables_are_partial_during_the_groups_and_final_after() -> None:
    """R8 tables at any time; after the group stage, complete and final."""
    game = new_game(make_setup(4))
    game = resolve_turn(game, _orders(game), SEED)
    assert all(row.played == 1 for table in game.tables().values() for row in table.rows)
    assert game.final_tables is None
    game = _after_groups()
    assert game.final_tables is not None and all(t.complete for t in game.tables().values())


def test_a_games_tables_are_worked_out_once_and_stay_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game is a value: its tables are worked out at the first ask, and a caller changing the
    dict it was given changes neither the game nor an equal game's tables."""
    from sevens.tournament import game as game_module

    game = new_game(make_setup(4))
    game = resolve_turn(game, _orders(game), SEED)
    worked: list[str] = []
    real = game_module.group_table

    def counted(*args: object, **kwargs: object) -> object:
        worked.append(str(args[-1]))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(game_module, "group_table", counted)
    first = game.tables()
    first.clear()
    again = game.tables()
    assert len(worked) == len(game.format.group_letters) and set(again) == set(game.format.group_letters)
    assert all(row.played == 1 for table in again.values() for row in table.rows)
    assert game == dataclasses.replace(game) and "_tables" not in repr(game)


def test_the_champion_is_the_winner_of_the_final() -> None:
    game = bot_game(make_setup(4))
    final = game.turns[-1]
    assert final.stage is Stage.FINAL and len(final.matches) == 1
    assert game.champion == final.matches[0].winner is not None
    # The champion won every knockout match it played.
    for turn in game.turns[3:]:
        for m in turn.matches:
            if game.champion in m.fixture.teams:
                assert m.winner == game.champion


def test_games_are_values() -> None:
    """A transition returns a new game; the old one is untouched."""
    game = new_game(make_setup(4))
    after = resolve_turn(game, _orders(game), SEED)
    assert game.turns == () and len(after.turns) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.turns = ()  # type: ignore[misc]
