"""``sevens play``: the qualification outlook before each group order, and ``t`` at the order
prompt for the tables."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from sevens.bots import get_strategy
from sevens.cli import play as play_cli
from sevens.cli.main import app
from sevens.tournament.formats import GROUP_TURNS, Format, Stage
from sevens.tournament.game import autopilot_orders, new_game, resolve_turn
from sevens.tournament.outlook import describe_outlook, game_outlook
from sevens.tournament.record import from_record
from sevens.tournament.setup import Player, PlayerId, draw_game_from_seed

runner = CliRunner()


def test_each_group_order_is_preceded_by_the_teams_outlook(tmp_path: Path) -> None:
    """Before every group order of the person's teams, the outlook worked out from the turns
    resolved before it (and only those: the orders of that turn are nobody's to see, R13)."""
    path = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "--players", "4", "--seed", "a1", "--no-save", "--record", str(path)], input="10 9\ny\n" * 12
    )
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    game, _ = from_record(json.loads(path.read_text()))
    mine = [t.id for t in game.setup.teams if t.manager == "p1"]
    shown = 0
    for turns in range(GROUP_TURNS):
        before = dataclasses.replace(game, turns=game.turns[:turns])
        for team in mine:
            outlook = game_outlook(before, team)
            assert outlook is not None
            line = describe_outlook(outlook, lambda t: game.setup.team(t).name)
            assert line in said, line
            shown += 1
    assert shown == 2 * GROUP_TURNS
    # Out whatever happens, in this game, for one team before its last group match; and nothing
    # of the kind before a knockout order.
    assert "Australia are out whatever happens: they cannot finish in the group's top 2." in said
    assert said.count("go through.") + said.count("whatever happens") == 2 * GROUP_TURNS


def test_t_at_the_order_prompt_shows_the_tables_and_asks_again() -> None:
    """'t' (or 'tables') at the order prompt prints the group tables (and the bracket once the
    knockouts are near), then the same prompt, not a refusal; '?' says so."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "a1", "--no-save"], input="t\nTABLES\n?\n10 9\ny\n")
    said = " ".join(result.output.split())
    assert "Refused" not in said
    assert said.count("Group A Pos Team P W D L") == 2 and said.count("Group B Pos Team P W D L") == 2
    assert said.count("Order for Australia as FORCE FLAIR (? for help)") == 4
    assert "Type t (or tables) to see the group tables and the bracket again" in said
    assert "10 FORCE + 9 FLAIR: expected" in said


def test_the_tables_asked_for_show_the_bracket_once_the_knockouts_are_next() -> None:
    """'t' in a group turn prints the group tables only; before a semi-final, the final group
    tables and the bracket with the semi-finals to play."""
    seed = "07" * 32
    setup = draw_game_from_seed([Player(PlayerId(f"p{i}"), f"P{i}") for i in range(1, 5)], Format(8, 4, 2), seed=seed)
    game = new_game(setup)
    printed: list[str] = []
    while game.stage is not Stage.FINAL:
        out = io.StringIO()
        play_cli._print_tables(Console(file=out, width=100), game)
        printed.append(" ".join(out.getvalue().split()))
        game = resolve_turn(game, autopilot_orders(game, game.teams_in_play(), get_strategy, seed=seed), seed)
    for shown in printed[:GROUP_TURNS]:
        assert "Group A" in shown and "Group B" in shown and "Decided by" in shown and "semi-final" not in shown
    assert "Group A" in printed[GROUP_TURNS] and "semi-final (next)" in printed[GROUP_TURNS]
