"""The bots: registry, protocol, and what each strategy does."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from sevens.bots import DEFAULT_BOT, STRATEGIES, Strategy, get_strategy, split
from sevens.rules import Order, seed_commitment
from sevens.tournament import (
    DEFAULT_AUTOPILOT,
    Format,
    ManagerView,
    Player,
    PlayerId,
    Stage,
    autopilot_orders,
    default_format,
    draw_game,
    new_game,
    resolve_turn,
)

SEED = "3c" * 32


def _view(players: int = 4, **changes: object) -> ManagerView:
    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(players)]
    setup = draw_game(people, default_format(players), seed_sha256=seed_commitment(SEED), draw_seed=0)
    game = new_game(setup)
    view = game.view_for(game.teams_in_play()[0])
    return dataclasses.replace(view, **changes)  # type: ignore[arg-type]


def _knockout_view(fmt_players: int, turn: int, scrum: int) -> ManagerView:
    view = _view(fmt_players)
    fmt: Format = view.format
    return dataclasses.replace(
        view, turn=turn, stage=fmt.stages[turn - 1], scrum=scrum, turns_left=fmt.turns - turn + 1
    )


def test_registry_names_and_default() -> None:
    assert {"even", "group-blitz", "knockout-saver"} <= set(STRATEGIES)
    assert DEFAULT_BOT == DEFAULT_AUTOPILOT == "equilibrium"
    for name in STRATEGIES:
        bot = get_strategy(name)
        assert bot.name == name
        assert isinstance(bot, Strategy)


def test_unknown_bot_names_list_the_choices() -> None:
    with pytest.raises(ValueError) as info:
        get_strategy("cautious")
    message = str(info.value)
    assert "'cautious'" in message
    assert all(name in message for name in STRATEGIES)


@pytest.mark.parametrize(("players", "matches"), [(4, 5), (9, 6)])
def test_even_spreads_over_the_matches_left_if_it_keeps_winning(players: int, matches: int) -> None:
    """ "even": spread SCRUM evenly over the matches the team could still play."""
    bot = get_strategy("even")
    first = bot.order(_view(players), random.Random(1))
    assert first.total == math.ceil(100 / matches)
    semi = bot.order(_knockout_view(players, matches - 1, 57), random.Random(1))
    assert semi.total == math.ceil(57 / 2)
    final = bot.order(_knockout_view(players, matches, 43), random.Random(1))
    assert final.total == 43  # all in at the final


def test_group_blitz_spends_more_and_knockout_saver_less_in_the_groups() -> None:
    """ "group-blitz" spends big in the group stage, "knockout-saver" saves for the knockouts."""
    view = _view(9)
    rng = random.Random
    even, blitz, saver = (
        get_strategy(n).order(view, rng(2)).total for n in ("even", "group-blitz", "knockout-saver")
    )
    assert saver < even < blitz
    assert saver <= 10 and blitz >= 25


def test_saver_holds_more_scrum_than_blitz_after_the_groups() -> None:
    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(9)]
    setup = draw_game(people, default_format(9), seed_sha256=seed_commitment(SEED), draw_seed=5)
    for i, team in enumerate(setup.teams):
        setup = setup.with_autopilot(team.id, "group-blitz" if i % 2 else "knockout-saver")
    game = new_game(setup)
    for _ in range(3):
        game = resolve_turn(game, autopilot_orders(game, game.teams_in_play(), get_strategy, seed=SEED), SEED)
    blitz = [game.scrum(t.id) for i, t in enumerate(setup.teams) if i % 2]
    saver = [game.scrum(t.id) for i, t in enumerate(setup.teams) if not i % 2]
    assert min(saver) > max(blitz)


def test_bots_order_nothing_once_out() -> None:
    view = _view(4, in_play=False, turns_left=0, fixture=None, opponent=None, opponent_scrum=None)
    for name in STRATEGIES:
        assert get_strategy(name).order(view, random.Random(0)) == Order(0, 0)


def test_bots_mix_force_and_flair() -> None:
    """A sensible FORCE/FLAIR mix: both used when there is enough to spend."""
    for name in ("even", "group-blitz", "knockout-saver"):
        order = get_strategy(name).order(_view(4), random.Random(3))
        assert order.force > 0 and order.flair > 0


def test_split_keeps_orders_legal() -> None:
    """R3: FLAIR a multiple of 3, the total within the balance."""
    assert split(20, 0.5, scrum=100) == Order(11, 9)
    assert split(20, 1.0, scrum=100) == Order(2, 18)
    assert split(20, 0.0, scrum=100) == Order(20, 0)
    assert split(500, 0.5, scrum=200).total == 160
    assert split(2, 1.0, scrum=100) == Order(2, 0)


def test_stage_is_visible_to_bots() -> None:
    assert _knockout_view(4, 4, 50).stage is Stage.SEMI_FINAL


def test_own_bot_by_module_path_and_bad_paths_are_refused() -> None:
    """Issue 5: "a way to register one's own (a Python entry point or a module path)"."""
    from sevens.bots import get_strategy

    assert get_strategy("sevens.bots.strategies:EvenSpread").name == "even"
    with pytest.raises(ValueError, match=r"cannot load 'no_such_module_here:Bot'.*current folder"):
        get_strategy("no_such_module_here:Bot")
    with pytest.raises(ValueError, match="is not a bot"):
        get_strategy("sevens.rules:Line")
    with pytest.raises(ValueError, match="there is no bot called 'cautious'"):
        get_strategy("cautious")


def test_every_bot_has_a_few_words_for_the_menus() -> None:
    from sevens.bots import SUMMARIES, describe

    assert set(SUMMARIES) == set(STRATEGIES)
    assert all(describe(name) == SUMMARIES[name] and 0 < len(SUMMARIES[name]) <= 70 for name in STRATEGIES)


def test_weighted_bots_pace_by_their_knockout_weight_and_bad_weights_are_refused() -> None:
    """"equilibrium@1.1" and the like play in games as in the lab: each knockout match still
    possible counts K group matches; a bad name or weight says what to write instead."""
    from dataclasses import replace
    from fractions import Fraction

    from sevens.bots import describe

    bot = get_strategy("even-flair@2")
    assert bot.name == "even-flair@2"
    view = _view(4)
    assert view.group_matches_left == 3 and view.turns_left == 5
    order = bot.order(view, random.Random(0))
    assert order.total == -(-view.scrum // 7) and order.force <= 2  # 3 group matches + 2 x 2 knockouts
    assert get_strategy("equilibrium@1").order(view, random.Random(5)) == get_strategy("equilibrium").order(
        view, random.Random(5)
    )
    assert get_strategy("odds-aware@ 0.5").knockout_weight == Fraction(1, 2)  # type: ignore[attr-defined]
    # field-reader's weight is the one its reply leans toward; 1.5 is its own.
    assert get_strategy("field-reader@1.25").knockout_weight == Fraction(5, 4)  # type: ignore[attr-defined]
    assert get_strategy("field-reader@1.5") == replace(get_strategy("field-reader"), name="field-reader@1.5")
    assert describe("field-reader@1.25").endswith("leans toward a knockout weight of 1.25")
    for name, says in [
        ("random@2", "only even, even-flair, even-force, odds-aware, equilibrium, field-reader take a knockout weight"),
        ("field-reader@4.5", "field-reader leans toward a knockout weight from 0 to 4, got 4.5"),
        ("even@fast", "must be a number such as 0.5"),
        ("even@-1", "from 0 to 1000"),
        ("equilibrium@1e-9", "at most 6 decimals"),
        ("even@3/2x", "must be a number such as 0.5"),
        # Refused as written: Fraction would first work out ten to the power of a billion.
        ("even@1e999999999", "must be a number such as 0.5"),
        ("even@1e99", "from 0 to 1000 with at most 6 decimals, got 1e99$"),
    ]:
        with pytest.raises(ValueError, match=says):
            get_strategy(name)
    with pytest.raises(ValueError, match="there is no bot called 'cautious@2'"):
        get_strategy("cautious@2")


def test_own_bot_module_in_the_current_folder_is_found(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A module path names a file in the folder the command runs from, as ``python -m`` would
    find it (a console script does not look there); the folder goes last on the path."""
    import sys

    from sevens.bots import get_strategy

    (tmp_path / "my_own_pacer.py").write_text("from sevens.bots.strategies import EvenSpread as Pacer\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    assert get_strategy("my_own_pacer:Pacer").name == "even"
    assert sys.path[-1] == str(tmp_path)


def test_equilibrium_orders_can_be_foreseen_as_the_guide_says() -> None:
    """docs/strategy.md once said a player who knows equilibrium "still cannot tell its order in
    advance", its split being drawn from a mix. Its mixes are pure at the budgets it meets, so its
    order is the same whatever its random source: here before every match of a whole 16-team game."""
    from pathlib import Path

    guide = " ".join((Path(__file__).resolve().parents[2] / "docs" / "strategy.md").read_text().split())
    assert "cannot tell its order in advance" not in guide and "Its order can be foreseen" in guide
    people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(16)]
    game = new_game(draw_game(people, default_format(16), seed_sha256=seed_commitment(SEED), draw_seed=7))
    bot = get_strategy("equilibrium")
    seen = 0
    while not game.finished:
        for team in game.teams_in_play():
            view = game.view_for(team)
            assert len({bot.order(view, random.Random(r)) for r in range(5)}) == 1, (game.turn_number, team)
            seen += 1
        game = resolve_turn(game, autopilot_orders(game, game.teams_in_play(), get_strategy, seed=SEED), SEED)
    assert seen == 16 * 3 + 8 + 4 + 2
