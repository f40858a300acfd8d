"""``sevens play``: whole games in the terminal, by bots and by a person typing orders."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from installed_packages import install_package
from sevens.cli import play as play_cli
from sevens.cli.main import app
from sevens.tournament.formats import default_format, legal_formats
from sevens.tournament.progress import describe_progress, final_standing, team_progress
from sevens.tournament.record import from_record
from sevens.tournament.verify import verify_record

runner = CliRunner()




CASES = [(p, f.teams, f.teams_per_player) for p in range(4, 17) for f in legal_formats(p)]


@pytest.mark.parametrize(("players", "teams", "per_player"), CASES)
def test_auto_game_for_every_legal_arrangement_verifies(tmp_path: Path, players: int, teams: int, per_player: int) -> None:
    """Acceptance: `sevens play --auto --players P --teams T --per-player K --seed S --record F` works for every
    legal arrangement of R12 (4 to 16 players), and the record it writes passes verification."""
    path = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", "--auto", "--players", str(players), "--teams", str(teams), "--per-player", str(per_player),
         "--seed", f"s{players}", "--record", str(path)],
    )
    assert result.exit_code == 0, result.output
    assert "Champion:" in result.output
    record = json.loads(path.read_text())
    assert record["format"] == "sevens-game-record"
    assert len(record["teams"]) == teams
    assert record["tournament"]["teams_per_player"] == per_player
    assert record["seed"] is not None
    verify_record(record)


@pytest.mark.parametrize(
    ("args", "teams", "per_player"),
    [
        ([], 8, 2),  # R12's default for 4 players
        (["--teams", "16"], 16, 4),  # every team managed by a person, not 2 each and 8 house teams
        (["--teams", "8"], 8, 2),
        (["--per-player", "2"], 8, 2),  # the smaller game on a tie
        (["--per-player", "3"], 16, 3),
        (["--teams", "16", "--per-player", "2"], 16, 2),
    ],
)
def test_teams_and_per_player_choose_as_r12_prefers(args: list[str], teams: int, per_player: int) -> None:
    result = runner.invoke(app, ["play", "--auto", "--players", "4", "--seed", "fmt", *args])
    assert result.exit_code == 0, result.output
    assert f"Sevens: {teams} teams, 4 players, {per_player} teams each" in result.output


def test_with_no_choice_the_arrangement_is_r12s_default() -> None:
    from sevens.cli.play import _choose_format

    assert all(_choose_format(p, None) == default_format(p) for p in range(4, 17))


def test_the_cli_and_the_json_api_choose_the_same_arrangement() -> None:
    """One rule behind --teams/--per-player and the API's teams/teams_per_player: the same
    arrangement for every choice, and a refusal from both when there is none (worded for each)."""
    from sevens.cli.play import _choose_format
    from sevens.tournament.formats import check_format, format_asked

    def api(players: int, teams: int | None, each: int | None) -> object:
        try:
            fmt = format_asked(players, teams=teams, teams_per_player=each)
            check_format(fmt)  # a pair given whole is taken as asked and judged afterwards, by R6 and R12
        except ValueError:
            return "refused"
        return fmt

    def cli(players: int, teams: int | None, each: int | None) -> object:
        try:
            return _choose_format(players, teams, each)
        except ValueError:
            return "refused"

    asked = list(itertools.product(range(4, 17), (None, 0, 8, 12, 16), (None, 0, 1, 2, 3, 4, 5)))
    assert [cli(*a) for a in asked] == [api(*a) for a in asked]
    # Not all refusals: every legal arrangement is among those chosen.
    assert {cli(*a) for a in asked} >= {f for p in range(4, 17) for f in legal_formats(p)}


def test_auto_with_no_humans_is_consistent_and_plays() -> None:
    result = runner.invoke(app, ["play", "--auto", "--humans", "0", "--seed", "h0"])
    assert result.exit_code == 0 and "Champion:" in result.output


def test_same_seed_same_game(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        result = runner.invoke(app, ["play", "--auto", "--players", "6", "--seed", "same", "--record", str(path)])
        assert result.exit_code == 0, result.output
    assert a.read_text() == b.read_text()


def test_a_person_plays_refused_orders_are_asked_again(tmp_path: Path) -> None:
    """A bad order (not numbers, FLAIR not a multiple of 3, more than the team holds) is refused with the rule
    and asked again; the game goes on to a champion and the person's orders are in the record, not missed."""
    path = tmp_path / "game.json"
    answers = "nonsense\n10 10\n150 0\n10 9\ny\n" * 12
    result = runner.invoke(
        app, ["play", "--players", "4", "--seed", "people", "--record", str(path)], input=answers
    )
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "type two whole numbers" in said
    assert "R3: FLAIR points must be a multiple of 3" in said
    assert "R3: the order spends 150 points but the team holds only" in said
    assert "played by the bot equilibrium)" in said
    assert "against the order its bot equilibrium gives here," in said
    record = json.loads(path.read_text())
    mine = {t["id"] for t in record["teams"] if t["manager"] == "p1"}
    assert len(mine) == 2
    seen = 0
    for turn in record["turns"]:
        for match in turn["matches"]:
            for side in ("home", "away"):
                if match[side] in mine:
                    seen += 1
                    assert match[f"{side}_order"]["force"] == 10
                    assert match[f"{side}_order"]["flair"] == 9
                    assert match[f"{side}_order"]["missed"] is False
    assert seen >= 6  # two teams, three group matches each
    verify_record(record)


@pytest.mark.parametrize("columns", [60, 100])
def test_the_help_at_the_order_prompt_indents_what_wraps_under_each_paragraph(columns: int) -> None:
    """Its wrapped lines began at the left edge, where they read as paragraphs of their own."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "help", "--no-save"], input="?\n",
                           env={"COLUMNS": str(columns)})
    lines = result.output.split("(? for help): ?\n", 1)[1].splitlines()  # the line read is shown after its prompt
    # Up to the match's heading, said again after the help, or the prompt.
    shown = lines[: next(i for i, line in enumerate(lines) if "(? for help)" in line or " (SCRUM 100) v " in line)]
    assert len(shown) > 7, shown  # the help wraps at these widths
    for line in shown:
        assert len(line.rstrip()) <= columns, line
        assert line.startswith("    ") or re.match(r"  [A-Z]", line), line
    assert "a converted try (7 points)" in " ".join(line.strip() for line in shown)


@pytest.mark.parametrize("typed", ["--5 3", "² 3", "٣ ٩", "20 9²", "-+5 3"])
def test_orders_are_read_in_ascii_digits_only(typed: str) -> None:
    """Not a Python error ('invalid literal for int()'), and no digits from other scripts: the
    project's own message, then the order is asked again."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "digits"], input=f"{typed}\n")
    said = " ".join(result.output.split())
    assert "Refused: type two whole numbers, FORCE then FLAIR, e.g. '20 9'" in said
    assert "invalid literal" not in said and "Send this order?" not in said


@pytest.mark.parametrize(("typed", "meant"), [("１０ ６", "10 6"), ("١٠ ٦", "10 6"), ("1_0,6", "10 6")])
def test_an_order_in_other_digits_is_refused_with_the_order_to_type(typed: str, meant: str) -> None:
    """An input method's full-width digits (or Arabic-Indic ones, or 1_0) got only "type two whole
    numbers", which is what the person did; the command line says "write 12, not '１２'", and so
    does the order prompt now, the order still refused and asked again."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "digits"], input=f"{typed}\n")
    said = " ".join(result.output.split())
    assert (f"Refused: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3), with the digits "
            f"0-9: write '{meant}', not '{typed}'. Try again.") in said
    assert "Send this order?" not in said


@pytest.mark.parametrize("typed", ["9" * 5000 + " 3", "20 -" + "9" * 5000, "1234567 0"])
def test_an_order_with_an_over_long_number_is_refused_in_the_projects_words(typed: str) -> None:
    """Not Python's 'Exceeds the limit (4300 digits) ... sys.set_int_max_str_digits()'."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "digits"], input=f"{typed}\n")
    said = " ".join(result.output.split())
    assert "Refused: R3: a number of more than 6 digits is too large; an order has at most 160 points" in said
    assert "4300" not in said and "Send this order?" not in said


def test_two_people_at_one_keyboard(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    answers = "\n10 9\ny\n" * 40
    result = runner.invoke(
        app, ["play", "--players", "4", "--humans", "2", "--seed", "hotseat", "--record", str(path)], input=answers
    )
    assert result.exit_code == 0, result.output
    assert "your orders are secret" in result.output
    record = json.loads(path.read_text())
    verify_record(record)
    # Against a person's team the odds are given against an even-paced order, not a bot's.
    people = {t["id"] for t in record["teams"] if t["manager"] in ("p1", "p2")}
    met = any(m["home"] in people and m["away"] in people for t in record["turns"] for m in t["matches"])
    assert met and "against an even-paced order" in " ".join(result.output.split())


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--players", "3", "--auto"], "R12: Sevens is for 4 to 16 players"),
        (["--players", "17", "--auto"], "R12"),
        (["--players", "8", "--teams", "12", "--auto"],
         "R6: a game has 8 or 16 teams, not 12; use --teams 8 or --teams 16 (or leave --teams out for R12's default)"),
        (["--players", "9", "--teams", "12", "--auto"],
         "R6: a game has 8 or 16 teams, not 12; use --teams 16 (or leave --teams out for R12's default)"),
        (["--players", "4", "--humans", "5"], "--humans must be from 0"),
        (["--auto", "--humans", "3"], "--auto has bots play every team, so nobody types orders: drop --humans 3 or --auto"),
        (["--players", "4", "--teams", "8", "--per-player", "3", "--auto"],
         "R12: no player may have two teams in one group, so with 2 groups a player manages at most 2 teams, not 3; "
         "legal for 4 players: 8 teams with 2 each, 16 teams with 2 each"),
        (["--players", "9", "--per-player", "2", "--auto"], "R12: 9 players with 2 teams each need 18 teams"),
        (["--players", "9", "--teams", "8", "--per-player", "1", "--auto"],
         "R12: 9 players with 1 team each need 9 teams, but the game has only 8"),
        (["--players", "5", "--teams", "8", "--auto"], "R12: 5 players cannot play with 8 teams; legal for 5 players"),
        (["--auto", "--record", "/no/such/folder/game.json"], "does not exist"),
    ],
)
def test_bad_options_give_one_line_errors(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code != 0
    assert says in " ".join(result.output.split())
    assert "Traceback" not in result.output


@pytest.mark.parametrize("where", ["folder", "", "/proc/x.json"])
def test_a_record_path_that_cannot_be_written_is_refused_before_the_game(tmp_path: Path, where: str) -> None:
    """A folder, an empty name or a place nobody may create files: refused before the draw, not
    after a whole game."""
    if where.startswith("/proc") and not Path("/proc").is_dir():
        pytest.skip("no /proc here")
    target = str(tmp_path) if where == "folder" else where
    result = runner.invoke(app, ["play", "--auto", "--seed", "3", "--record", target])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "--record" in said and ("is a folder" in said or "cannot write" in said or "is empty" in said)
    assert "The draw" not in result.output and "Traceback" not in result.output


def test_a_record_that_fails_at_the_end_is_kept_in_the_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the record cannot be written after all (its folder went away during the game), it is
    saved to a new file in the temporary folder, the error says where, and that file verifies."""
    from sevens.cli.play import play_game

    spare = tmp_path / "spare"
    spare.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spare))
    target = tmp_path / "gone" / "game.json"
    with pytest.raises(OSError, match=r"cannot write the game record to .*game.json: No such file or directory; "
                                      r"the record was saved to .*sevens-record-.*\.json instead") as raised:
        play_game(Console(file=io.StringIO(), width=100), players=4, teams=None, humans=0, seed="lost", record=target)
    [kept] = spare.iterdir()
    assert str(raised.value).endswith(f"check it with: sevens verify {kept} (or by the name you move it to)")
    verify_record(json.loads(kept.read_text()))
    assert not target.exists()


def test_a_record_that_cannot_be_kept_anywhere_is_printed_not_lost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither the file asked for nor the temporary folder can be written: the record is printed
    before the error, and it verifies."""
    from sevens.cli.play import play_game

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "no-temp-either"))
    out = io.StringIO()
    target = tmp_path / "gone" / "game.json"
    with pytest.raises(OSError, match=r"cannot write the game record to .*the record is printed above"):
        play_game(Console(file=out, width=100), players=4, teams=None, humans=0, seed="lost", record=target)
    text = out.getvalue()
    record = json.loads(text[text.index('{\n  "format"'):])
    verify_record(record)
    assert not target.exists()


def test_an_existing_record_is_refused_before_the_game_and_left_as_it_was(tmp_path: Path) -> None:
    """A record file from an earlier game is never replaced unless --overwrite says so; the refusal
    comes before the draw and says how to go on."""
    path = tmp_path / "game.json"
    path.write_text("an earlier game", encoding="utf-8")
    result = runner.invoke(app, ["play", "--auto", "--seed", "3", "--record", str(path)])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert f"error: --record {path} already exists and would be replaced; choose another file name, or pass " \
           "--overwrite to replace it" in said
    assert "The draw" not in said and path.read_text() == "an earlier game"


def test_a_record_and_a_save_file_both_there_already_are_named_in_one_refusal(tmp_path: Path) -> None:
    """Refused one at a time, a player who renamed the record was sent back again for the save file."""
    record, save = tmp_path / "game.json", tmp_path / "notes.json"
    record.write_text("an earlier game", encoding="utf-8")
    save.write_text("mine", encoding="utf-8")
    result = runner.invoke(app, ["play", "--players", "4", "--record", str(record), "--save", str(save)], input="")
    assert result.exit_code == 2
    assert result.stderr == (f"error: --record {record} and --save {save} already exist and would be replaced; choose "
                             "other file names, or pass --overwrite to replace them\n")
    assert record.read_text() == "an earlier game" and save.read_text() == "mine"


def test_overwrite_replaces_an_existing_record_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("an earlier game", encoding="utf-8")
    result = runner.invoke(app, ["play", "--auto", "--seed", "3", "--record", str(path), "--overwrite"])
    assert result.exit_code == 0, result.output
    verify_record(json.loads(path.read_text()))
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_overwrite_still_needs_a_folder_that_can_be_written() -> None:
    """The record replaces the file by a move within its folder: an existing file in a folder where
    no file can be created is refused before the game, --overwrite or not."""
    if not Path("/proc/version").is_file():
        pytest.skip("no /proc here")
    result = runner.invoke(app, ["play", "--auto", "--seed", "3", "--record", "/proc/version", "--overwrite"])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "cannot write --record /proc/version" in said and "The draw" not in said


def test_a_record_file_that_appears_during_the_game_is_not_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another game started meanwhile with the same --record name and finished first: its record is
    left as it is, and this game's record goes to the temporary folder instead."""
    from sevens.cli.play import play_game

    spare = tmp_path / "spare"
    spare.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spare))
    target = tmp_path / "game.json"
    target.write_text("the other game", encoding="utf-8")
    with pytest.raises(OSError, match="a file of that name appeared during the game"):
        play_game(Console(file=io.StringIO(), width=100), players=4, teams=None, humans=0, seed="twice", record=target)
    assert target.read_text() == "the other game"
    [kept] = spare.iterdir()
    verify_record(json.loads(kept.read_text()))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "spare"]


def test_interrupted_game_writes_nothing(tmp_path: Path) -> None:
    """With --no-save the game is kept nowhere: interrupted, it is lost and no record is written."""
    path = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "--players", "4", "--seed", "x", "--record", str(path), "--no-save"], input="10 9\ny\n"
    )
    assert result.exit_code == 1  # the input ran out
    assert (f"before the game did; with --no-save it was kept nowhere, so it is lost and there is nothing to carry on "
            f"(to keep the next game, leave out --no-save, or give --save FILE); {path} was not written") in result.output
    assert not path.exists()


def test_ctrl_c_ends_the_game_with_the_exit_code_of_an_interrupt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C at a prompt (the terminal's SIGINT reaches the prompt as KeyboardInterrupt): 130, as
    shells expect of a command stopped by SIGINT, and the one-line error without a traceback."""

    def interrupted(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(play_cli.AskLine, "ask", interrupted)
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "x", "--no-save"])
    assert result.exit_code == 130
    assert "error: the game was interrupted before the end" in result.output
    assert "was not written" not in result.output and "Traceback" not in result.output


def test_bots_are_chosen_by_name_and_given_to_the_bot_teams_in_turn(tmp_path: Path) -> None:
    """R13: `--bots even-flair,even-force` gives the teams nobody types for those bots in turn; each
    plays as its name says, and the record says which bot played which team and checks out."""
    from sevens.bots import verify_with_bots

    path = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "--auto", "--players", "4", "--seed", "bots", "--bots", "even-flair, even-force", "--record", str(path)]
    )
    assert result.exit_code == 0, result.output
    assert "Played by the bot even-flair (paces evenly, all FLAIR)" in " ".join(result.output.split())
    record = json.loads(path.read_text())
    autopilots = {team["id"]: team["autopilot"] for team in record["teams"]}
    assert sorted(autopilots.values()) == ["even-flair"] * 4 + ["even-force"] * 4
    orders = 0
    for turn in record["turns"]:
        for match in turn["matches"]:
            for side in ("home", "away"):
                order = match[f"{side}_order"]
                assert order["autopilot"] == autopilots[match[side]]
                if autopilots[match[side]] == "even-force":
                    assert order["flair"] == 0
                else:
                    assert order["force"] <= 2  # all FLAIR but what is not a whole option (R3)
                orders += 1
    assert orders == 8 * 3 + 4 + 2  # 2 groups of 4: three rounds, then semi-finals and the final
    assert verify_with_bots(record).endswith(f"; {orders} bot orders played again from the seed, each what its bot plays")


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("evn", "there is no bot called 'evn' (did you mean 'even'?); choose one of: even,"),
        # what the issue and the strategy guide call it
        ("front-loading", "there is no bot called 'front-loading' (did you mean 'group-blitz'?); choose one of:"),
        ("cautious", "there is no bot called 'cautious'; choose one of: even,"),
        ("even,,random", "has an empty name"),
        ("os:system", "--bots: 'os:system' is not a bot: calling it with no arguments failed"),
        # a bot's name is optional (docs/strategy.md): the order method is what it needs
        ("os:system", "a class or function that makes one, with an order(view, rng) method (a name is optional)"),
        ("even,sys:exit", "--bots: 'sys:exit' is not a bot: loading it or calling it with no arguments raised SystemExit;"),
        ("asyncio:get_running_loop", "--bots: 'asyncio:get_running_loop' is not a bot: loading it or calling it with "
                                     "no arguments raised RuntimeError: no running event loop"),
    ],
)
def test_unknown_or_empty_bot_names_are_refused_before_the_game(tmp_path: Path, given: str, says: str) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "--auto", "--bots", given, "--record", str(path)])
    assert result.exit_code == 2
    assert says in " ".join(result.output.split())
    assert not path.exists() and "The draw" not in result.output


def test_weighted_bots_from_the_lab_play_a_game_that_verifies(tmp_path: Path) -> None:
    """A variant from the strategy guide (`equilibrium@1.1`) plays in a game; the record names it
    and verification plays its orders again."""
    from sevens.bots import verify_with_bots

    path = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "--auto", "--players", "4", "--seed", "k", "--bots", "equilibrium@1.1,even-flair@0.5", "--record", str(path)]
    )
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    assert sorted({team["autopilot"] for team in record["teams"]}) == ["equilibrium@1.1", "even-flair@0.5"]
    first = {m["home"]: m["home_order"] for m in record["turns"][0]["matches"]}
    first |= {m["away"]: m["away_order"] for m in record["turns"][0]["matches"]}
    spent = {team["autopilot"]: first[team["id"]]["force"] + first[team["id"]]["flair"] for team in record["teams"]}
    # 100 SCRUM, 3 group matches and 2 knockout rounds: ceil(100 / (3 + 2K)).
    assert spent == {"equilibrium@1.1": 20, "even-flair@0.5": 25}
    assert "30 bot orders played again from the seed" in verify_with_bots(record)


def test_a_field_reader_reads_the_group_orders_and_its_game_verifies(tmp_path: Path) -> None:
    """"field-reader" paces by the public group orders (R13): among front-loaders it spends more in
    its second group match than in an even field, and verification plays its orders again."""
    from sevens.bots import verify_with_bots

    spent = {}
    for others in ("group-blitz", "knockout-saver"):
        path = tmp_path / f"{others}.json"
        bots = ",".join(["field-reader"] + [others] * 7)  # 16 teams: two field-readers among 14 others
        result = runner.invoke(
            app, ["play", "--auto", "--players", "16", "--seed", "f", "--bots", bots, "--record", str(path)]
        )
        assert result.exit_code == 0, result.output
        record = json.loads(path.read_text())
        readers = {t["id"] for t in record["teams"] if t["autopilot"] == "field-reader"}
        second = [
            m[f"{side}_order"] for m in record["turns"][1]["matches"] for side in ("home", "away") if m[side] in readers
        ]
        spent[others] = [o["force"] + o["flair"] for o in second]
        assert "bot orders played again from the seed, each what its bot plays" in verify_with_bots(record)
    assert len(spent["group-blitz"]) == 2 and min(spent["group-blitz"]) > max(spent["knockout-saver"])


def test_a_field_reader_leaning_elsewhere_plays_and_verifies(tmp_path: Path) -> None:
    """"field-reader@1" leans toward K = 1 rather than 1.5: among front-loaders it spends more in its
    second group match than "field-reader" does, the record names it, and verification plays its
    orders again."""
    from sevens.bots import verify_with_bots

    path = tmp_path / "lean.json"
    bots = ",".join(["field-reader@1", "field-reader"] + ["group-blitz"] * 6)  # two of each among 12 front-loaders
    result = runner.invoke(app, ["play", "--auto", "--players", "16", "--seed", "f", "--bots", bots, "--record", str(path)])
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    autopilot = {t["id"]: t["autopilot"] for t in record["teams"]}
    share: dict[str, list[float]] = {"field-reader@1": [], "field-reader": []}
    for m in record["turns"][1]["matches"]:
        for side in ("home", "away"):
            if autopilot[m[side]] in share:
                order = m[f"{side}_order"]
                share[autopilot[m[side]]].append((order["force"] + order["flair"]) / m["scrum"][m[side]]["before"])
    assert len(share["field-reader@1"]) == 2 and len(share["field-reader"]) == 2
    # The share of the SCRUM held (a first-round win adds 10): about 1/3 at K = 0.35, 2/7 at 0.5.
    assert min(share["field-reader@1"]) > max(share["field-reader"])
    assert "bot orders played again from the seed, each what its bot plays" in verify_with_bots(record)


def test_a_table_reader_rests_when_its_table_says_a_loss_cannot_put_it_out_and_its_game_verifies(tmp_path: Path) -> None:
    """"table-reader" in a game of bots: before the last group round, the teams their group's table
    shows a loss cannot put out on league points order nothing, the others as equilibrium would; the record
    names the bot, and sevens verify plays its orders again (the same record claiming equilibrium
    for a rested team is a mismatch)."""
    from sevens.bots.stakes import last_match_stakes

    rested = 0
    for seed in ("t1", "t2", "t3"):
        path = tmp_path / f"{seed}.json"
        result = runner.invoke(
            app, ["play", "--auto", "--players", "16", "--seed", seed, "--bots", "table-reader", "--record", str(path)]
        )
        assert result.exit_code == 0, result.output
        record = json.loads(path.read_text())
        assert {t["autopilot"] for t in record["teams"]} == {"table-reader"}
        points = dict.fromkeys((t["id"] for t in record["teams"]), 0)
        for turn in record["turns"][:2]:
            for m in turn["matches"]:
                home, away = m["home_line"], m["away_line"]
                scored = [5 * x["tries"] + 2 * x["conversions"] + 3 * (x["penalties"] + x["drop_goals"]) for x in (home, away)]
                points[m["home"]] += 2 * (scored[0] > scored[1]) + (scored[0] == scored[1])
                points[m["away"]] += 2 * (scored[1] > scored[0]) + (scored[0] == scored[1])
        third = record["turns"][2]["matches"]
        for m in third:
            others = [n for n in third if n["group"] == m["group"] and n is not m]
            (other,) = others
            for side, rival in (("home", "away"), ("away", "home")):
                safe = last_match_stakes(
                    points[m[side]], points[m[rival]], points[other["home"]], points[other["away"]]
                ).second_or_level_if_lost
                order = m[f"{side}_order"]
                assert (order["force"] + order["flair"] == 0) == safe, (seed, m[side], points)
                rested += safe
        code = runner.invoke(app, ["verify", str(path)])
        assert code.exit_code == 0, code.output
        assert "bot orders played again from the seed" in code.stdout
    assert rested >= 3
    # The last record, a rested team's order said to be equilibrium's: not what equilibrium plays.
    m, side = next((m, s) for m in third for s in ("home", "away") if m[f"{s}_order"]["force"] + m[f"{s}_order"]["flair"] == 0)
    m[f"{side}_order"]["autopilot"] = "equilibrium"
    path.write_text(json.dumps(record))
    code = runner.invoke(app, ["verify", str(path)])
    assert code.exit_code == 1, code.output
    assert "found FORCE 0, FLAIR 0 (the order the bot 'equilibrium' plays for" in code.stderr, code.stderr


def test_the_hand_over_between_people_clears_the_scrollback_too(tmp_path: Path) -> None:
    """With people taking turns at one keyboard, each hand-over erases the screen (ESC[2J) and then
    the scrollback (ESC[3J): the next player cannot scroll back to the orders just typed. FORCE_COLOR
    makes rich write to the runner as to a terminal, control codes included."""
    answers = "\n10 9\ny\n" * 40
    result = runner.invoke(
        app, ["play", "--players", "4", "--humans", "2", "--seed", "hotseat"], input=answers, env={"FORCE_COLOR": "1"}
    )
    assert result.exit_code == 0, result.output
    out = result.output
    clears = out.count("\x1b[2J")
    assert clears >= 2 and out.count("\x1b[2J\x1b[3J") == clears
    first = out.index("\x1b[2J\x1b[3J")
    assert out.index("Order for") < first < out.index("Player 2: your orders are secret")


@pytest.mark.parametrize("columns", ["60", "80"])
def test_group_tables_keep_every_name_whole_in_a_narrow_terminal(columns: str) -> None:
    """At 60 or 80 columns the boxed group table does not fit: it loses its frame rather than cut
    team names and the "Decided by" column down to 'Ar…' and 't…'."""
    result = runner.invoke(app, ["play", "--auto", "--players", "16", "--seed", "w60"], env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    out = result.output
    tables = out[out.index("Group A", out.index("Turn 1")):out.index("Turn 2")]
    assert "…" not in tables
    rows = [line for line in tables.splitlines() if line.strip()[:1].isdigit()]
    assert len(rows) == 16 and all(len(line) <= int(columns) for line in tables.splitlines())
    # One line per team, with its name whole and why it stands where it does.
    assert all(any(line.rstrip().endswith(why) for why in ("league points", "tries scored", "points scored",
                                                          "fewer tries conceded", "fewer points conceded",
                                                          "head-to-head", "lots")) for line in rows), rows


def test_a_refused_order_says_the_rule_without_the_teams_id() -> None:
    """The player reads 'Refused: R3: ...', not 'Refused: australia, turn 1: R3: ...' (an id they never typed)."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "a1"], input="20 10\n-5 9\n200 0\n")
    said = " ".join(result.output.split())
    assert "Refused: R3: FLAIR points must be a multiple of 3 (one option per 3 points); got 10, try 9 or 12. Try again." in said
    assert "Refused: R3: FORCE points cannot be negative, got -5. Try again." in said
    assert "Refused: R3: the order spends 200 points but the team holds only 100 SCRUM points. Try again." in said
    assert ", turn 1: R3" not in said


def test_an_interrupted_prompt_ends_on_a_line_of_its_own() -> None:
    """Ctrl-D at the order prompt: the error starts a new line instead of trailing after the prompt."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "x"], input="")
    assert result.exit_code != 0
    assert "(? for help): \nerror: standard input ended" in result.output


def test_the_next_person_sees_the_turns_fixtures_again_but_no_order(tmp_path: Path) -> None:
    """After the hand-over clears the screen, the next person has the public state of the turn
    (the heading, the group tables, the fixtures) and none of the orders typed before."""
    answers = "\n10 9\ny\n" * 40
    result = runner.invoke(
        app, ["play", "--players", "4", "--humans", "2", "--seed", "hotseat"], input=answers, env={"FORCE_COLOR": "1"}
    )
    assert result.exit_code == 0, result.output
    out = re.sub(r"\x1b\[[0-9;]*m", "", result.output)  # colours off, the screen's control codes kept
    # Turn 2: Player 1 orders, the screen is cleared, then Player 2's screen.
    start = out.index("Turn 2")
    cleared = out.index("\x1b[2J\x1b[3J", start)
    screen = out[cleared:out.index("Player 2: your orders are secret", cleared)]
    assert "Turn 2" in screen and "Group A" in screen and "t2-m1" in screen
    assert "Order for" not in screen and "10 FORCE" not in screen and "Send this order" not in screen


def test_without_a_terminal_the_hand_over_still_pushes_the_orders_off_the_screen() -> None:
    """Output that cannot be cleared (a pipe, TERM=dumb: rich drops control codes there): the game
    says so and scrolls the orders out of sight with blank lines before the next person comes."""
    answers = "\n10 9\ny\n" * 40
    result = runner.invoke(app, ["play", "--players", "4", "--humans", "2", "--seed", "hotseat"], input=answers)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "not a terminal that can be cleared" in out
    between = out[out.index("Send this order?"):out.index("Player 2: your orders are secret")]
    assert "\n" * 25 in between


def test_a_question_mark_explains_the_order_and_asks_again() -> None:
    """'?' at the order prompt: what FORCE and FLAIR do, the SCRUM that is left, what the odds mean;
    then the same prompt, not a refusal."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "a1"], input="?\n10 9\ny\n")
    said = " ".join(result.output.split())
    assert "Order for Australia as FORCE FLAIR (? for help)" in said
    assert "at most the team's SCRUM (100)" in said and "each 5 is a try (5 points, never converted)" in said
    assert "a total of 7 is a converted try" in said and "the winner gains 10 for its next match" in said
    assert "36 (5T 1C 2P 1DG) is 36 points from 5 tries, 1 conversion, 2 penalties and 1 drop goal" in said
    assert "Refused" not in said and "10 FORCE + 9 FLAIR: expected" in said
    assert "Stopping: to stop the game press Ctrl-C (or Ctrl-D at an empty prompt)" in said


def test_quit_at_the_order_prompt_says_how_to_stop() -> None:
    """'quit' (or exit, q, ...) is not an order: the refusal says how to stop the game, then asks again."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "a1", "--no-save"], input="quit\nEXIT\n10 9\ny\n")
    said = " ".join(result.output.split())
    for word in ("quit", "EXIT"):
        assert (f"Refused: '{word}' is not an order; to stop the game press Ctrl-C (or Ctrl-D at an empty prompt): "
                "it is not kept (--no-save), so it is lost. Try again.") in said
    assert "10 FORCE + 9 FLAIR: expected" in said


def test_an_answer_at_the_order_prompt_says_the_order_comes_first() -> None:
    """A refused order's "y" in orders piped in (or y pressed twice) is not an order: the refusal
    says what it answers and that the order comes first, where it said only "type two whole numbers"."""
    result = runner.invoke(
        app, ["play", "--players", "4", "--seed", "a1", "--no-save"], input="200 0\ny\nYes\n10 9\ny\n"
    )
    said = " ".join(result.output.split())
    assert "Refused: R3: the order spends 200 points but the team holds only 100 SCRUM points." in said
    for word in ("y", "Yes"):
        assert (f"Refused: '{word}' answers \"Send this order?\", which is asked once an order is accepted; type the "
                "order for Australia first, e.g. '20 9'. Try again.") in said, said
    assert "10 FORCE + 9 FLAIR: expected" in said


def test_a_team_with_no_scrum_left_is_not_asked_for_its_only_order(tmp_path: Path) -> None:
    """R3: at 0 SCRUM the only order is 0 + 0; the game sends it and says so. Here both teams spend
    everything by their third match, and the game then plays to the end with no more typing."""
    path = tmp_path / "game.json"
    answers = "100 0\ny\n1 99\ny\n10 0\ny\n10 0\ny\n"
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "z0", "--record", str(path)], input=answers)
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "Ireland has no SCRUM left, so its order is 0 FORCE + 0 FLAIR." in said
    assert "Great Britain has no SCRUM left, so its order is 0 FORCE + 0 FLAIR." in said
    record = json.loads(path.read_text())
    verify_record(record)


def test_match_reports_show_the_win_bonus_and_plain_titles() -> None:
    """R4: the winner's SCRUM after the match includes its 10, which the report names; titles say
    'group A' once, and a draw is not announced twice ('draw: 14-14, a draw')."""
    result = runner.invoke(app, ["play", "--auto", "--players", "16", "--seed", "w60"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert "t1-m1 group A: " in out and "(group A)" not in out
    assert "order 2+15 SCRUM 100->93 (+10 win)" in out  # 100 - 17 + 10
    assert "SCRUM 100->83 (+10 win)" not in out and "SCRUM 100->83 " in out
    assert "draw: " not in out and ", a draw" in out


def test_the_confirmation_takes_yes_and_no_and_says_what_else_it_takes() -> None:
    """'yes' sends the order and 'no' asks for another (rich alone takes only y and n); anything else
    is asked again, saying what y and n do."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "a1"], input="10 9\nmaybe\nno\n10 9\nYes\n")
    said = " ".join(result.output.split())
    assert "Please answer y (send it) or n (type another order)" in said
    assert said.count("Order for Australia") == 2 and "Order for South Africa" in said


@pytest.mark.parametrize("record", [False, True])
def test_the_end_of_a_game_says_where_its_record_is_or_that_none_was_written(tmp_path: Path, record: bool) -> None:
    """A person's game ends saying how to check it: with --record, the file and its sevens verify
    command; without, that no record was written and the option that writes one, where before it
    ended on the seed and the player looked for a record that was never there."""
    path = tmp_path / "game.json"
    args = ["play", "--players", "4", "--seed", "end", "--no-save", *(["--record", str(path)] if record else [])]
    result = runner.invoke(app, args, input="5 3\ny\n" * 12)
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    none = "No game record was written (none was asked for): to check a game with sevens verify, start it with --record FILE"
    assert (none in said) is not record and path.exists() is record
    if record:
        assert f"Game record written to {path}; check it with: sevens verify {path}" in said


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_the_seed_and_its_hash_are_printed_whole_in_a_narrow_terminal(columns: int) -> None:
    """At 60 columns the 64 hex digits are not broken by a newline: copied, they are the seed. At 80
    the label and the digits made one line of 115 columns, which the terminal broke where its edge
    fell, the digits' end on the next line: where they do not fit beside it, the digits have a line
    of their own, whole from 64 columns up."""
    result = runner.invoke(app, ["play", "--auto", "--seed", "n"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    assert re.search(r"Seed commitment \(SHA-256 of the secret dice seed\):[ \n][0-9a-f]{64}\n", result.output)
    assert re.search(r"Dice seed, revealed:[ \n][0-9a-f]{64}\n", result.output)
    hashes = [line for line in result.output.splitlines() if re.search(r"[0-9a-f]{64}", line)]
    assert len(hashes) == 2 and all(len(line) <= max(columns, 64) for line in hashes), hashes


def test_a_seed_given_to_a_game_with_people_comes_with_a_warning() -> None:
    """R14: with --seed the people at the keyboard can compute the dice (and the bots' orders) of any
    order they consider; the game says so. Bots alone (--auto) need no warning."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "s"], input="")
    assert "whoever knows the seed text can work out the bots' orders and the dice" in " ".join(result.output.split())
    result = runner.invoke(app, ["play", "--auto", "--seed", "s"])
    assert "whoever knows the seed text" not in " ".join(result.output.split())


def test_the_bracket_says_in_words_what_settled_a_level_knockout() -> None:
    """R9: a quarter-final won 18-18 on the group record reads '-> Ireland on group record' in the
    bracket, not '(group_record)'; a win on points needs no note."""
    result = runner.invoke(app, ["play", "--auto", "--players", "16", "--seed", "k2"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert "18-18, level on count-back, won on group record" in " ".join(out.split())
    assert "-> Ireland on group record" in out
    assert "group_record" not in out and "(points)" not in out


@pytest.mark.parametrize(("players", "first_knockout"), [(4, "semi-finals"), (16, "quarter-finals")])
def test_group_tables_show_their_lots_and_who_went_through_as_the_web_page_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int, first_knockout: str
) -> None:
    """R8, R10: bots that order nothing draw every match 0-0, so every group is settled by lots
    and every knockout by lots too. The terminal showed "lots" as the reason and nothing else: not
    the throws the record keeps, nor who went through. Each draw and each group's top two are
    read here from the record the game wrote."""
    (tmp_path / "nothing_bot.py").write_text(
        "from sevens.bots import EvenSpread\nfrom sevens.rules import Order\n\n\nclass Nothing(EvenSpread):\n"
        "    def order(self, view, rng):\n        return Order(0, 0)\n"
    )
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", "--auto", "--players", str(players), "--seed", "lots", "--bots", "nothing_bot:Nothing",
         "--record", str(path)],
        env={"COLUMNS": "100"},
    )
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    record = json.loads(path.read_text())
    name = {team["id"]: team["name"] for team in record["teams"]}

    def throws(draw: dict[str, object]) -> str:
        rounds = draw["throws"]
        assert isinstance(rounds, list)
        return "; ".join(f"round {n}: " + ", ".join(f"{name[t]} {f}" for t, f in r) for n, r in enumerate(rounds, 1))

    group_draws = record["turns"][2]["lots"]
    assert len(group_draws) == len(record["groups"])
    for draw in group_draws:
        assert f"Lots drawn for {draw['what']} ({throws(draw)}) placed them " \
               f"{', '.join(name[t] for t in draw['order'])}." in said
    for rows in record["groups"].values():
        assert [row["decided_by"] for row in rows] == ["lots"] * 4
        assert f"Through to the {first_knockout}: {name[rows[0]['team']]} and {name[rows[1]['team']]}." in said
    knockouts = [m for turn in record["turns"][3:] for m in turn["matches"]]
    assert knockouts and all(m["decided_by"] == "lots" for m in knockouts)
    for turn in record["turns"][3:]:
        for draw in turn["lots"]:
            assert f"Lots drawn ({throws(draw)}) placed them {', '.join(name[t] for t in draw['order'])}." in said


@pytest.mark.parametrize("players", [4, 16])
def test_the_end_gives_every_teams_place_as_the_web_page_does(tmp_path: Path, players: int) -> None:
    """After the final the terminal named the champion and only the typing people's teams; the web's
    game page gives every team's place. Here each place is worked out from the record: the final's
    winner 1, its loser 2, the semi-final losers 3-4, the quarter-final losers 5-8, then every
    group's third and every fourth sharing the places after them."""
    path = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "--auto", "--players", str(players), "--seed", "standing", "--record", str(path)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    name = {team["id"]: team["name"] for team in record["teams"]}
    expected: dict[str, str] = {}
    done = 0
    for turn in reversed(record["turns"][3:]):
        losers = [m["home"] if m["winner"] == m["away"] else m["away"] for m in turn["matches"]]
        if len(losers) == 1:
            expected[turn["matches"][0]["winner"]] = "1"
            done = 1
        place = f"{done + 1}" if len(losers) == 1 else f"{done + 1}-{done + len(losers)}"
        expected.update(dict.fromkeys(losers, place))
        done += len(losers)
    groups = record["groups"].values()
    for position in (3, 4):
        band = [rows[position - 1]["team"] for rows in groups]
        expected.update(dict.fromkeys(band, f"{done + 1}-{done + len(band)}"))
        done += len(band)
    assert done == len(record["teams"])
    lines = result.output.split("Final standing:\n", 1)[1].splitlines()[: len(record["teams"])]
    shown = {}
    for line in lines:
        place, rest = line.split(None, 1)
        team = next(t for t, n in name.items() if rest.startswith(f"{n}: "))
        shown[team] = place
    assert shown == expected


def test_the_draw_keeps_names_and_managers_whole_at_60_columns() -> None:
    """The boxed 4-group draw does not fit 60 columns: each manager goes under its team's name
    rather than 'Great' / 'Britain (Bot' / '1)' over three lines."""
    result = runner.invoke(app, ["play", "--auto", "--players", "16", "--seed", "k2"], env={"COLUMNS": "60"})
    assert result.exit_code == 0, result.output
    out = result.output
    draw = out[out.index("The draw"):out.index("Played by")]
    names = ["France", "Fiji", "Argentina", "Great Britain", "Samoa", "New Zealand", "Japan", "Canada",
             "Germany", "Kenya", "United States", "Australia", "Ireland", "Uruguay", "Spain", "South Africa"]
    assert all(name in draw for name in names)
    assert all(f"(Bot {i})" in draw for i in range(1, 17))
    assert all(len(line) <= 60 for line in draw.splitlines())


def test_long_names_in_a_narrow_draw_are_not_cut() -> None:
    """Two people with long names at 60 columns: even with each manager under its team, four groups
    would cut the names ('(Maximiliana…'), and two names alike could not be told apart; the draw
    lists one group under the other instead, each team with its manager's whole name."""
    long = ("Maximiliana Annabelle Smithers", "Maximiliana Annabelle Smythe")
    result = runner.invoke(
        app, ["play", "--players", "5", "--names", ",".join(long), "--seed", "demo", "--no-save"], env={"COLUMNS": "60"}
    )
    draw = result.output[result.output.index("The draw"):result.output.index("Played by")]
    assert "…" not in draw and all(len(line) <= 60 for line in draw.splitlines())
    assert [line.strip() for line in draw.splitlines()[:3]] == ["The draw", "Group A", "Fiji (Maximiliana Annabelle Smithers)"]
    assert all(draw.count(f"({name})") == 3 for name in long)


def test_a_narrow_bracket_lists_one_match_a_line_round_by_round() -> None:
    """At 60 columns four bracket columns would break 'Australia 17-14 Japan -> Australia' over
    four lines and run one match into the next: each round is listed under the other instead."""
    result = runner.invoke(app, ["play", "--auto", "--players", "16", "--seed", "k2"], env={"COLUMNS": "60"})
    assert result.exit_code == 0, result.output
    out = result.output
    last = out[out.rindex("Knockouts"):out.index("Champion: ")]
    lines = [line.rstrip() for line in last.splitlines()]
    assert "  Australia 17-14 Japan -> Australia" in lines
    assert "  Ireland 18-18 Argentina -> Ireland on group record" in lines
    assert lines.index("quarter-final") < lines.index("semi-final") < lines.index("final") < lines.index("champion")
    assert lines[lines.index("champion") + 1] == "  Samoa"


def test_people_named_with_names_are_called_by_name_in_the_draw_the_hand_overs_and_the_record(tmp_path: Path) -> None:
    """`--names Ann,Bob` (two names: two people at the keyboard): the draw shows each team's manager
    by name, each hand-over calls the person by name, and the record names the players."""
    path = tmp_path / "game.json"
    answers = "\n10 9\ny\n" * 40
    result = runner.invoke(
        app, ["play", "--players", "4", "--names", " Ann , Bob", "--seed", "hotseat", "--record", str(path)],
        input=answers, env={"COLUMNS": "120"},
    )
    assert result.exit_code == 0, result.output
    out = result.output
    draw = out[out.index("The draw"):out.index("Played by")]
    assert draw.count("(Ann)") == 2 and draw.count("(Bob)") == 2 and "Player 1" not in draw
    assert "Ann: your orders are secret" in out and "Bob: your orders are secret" in out
    assert "Player 1" not in out and "Player 2" not in out
    assert re.search(r"Champion: [A-Za-z ]+ \((Ann|Bob|Bot 3|Bot 4)\)", out)
    record = json.loads(path.read_text())
    assert [(p["id"], p["name"]) for p in record["players"]] == [("p1", "Ann"), ("p2", "Bob"), ("p3", "Bot 3"), ("p4", "Bot 4")]
    verify_record(record)
    # After the champion, each person reads the place and how far each of their teams went (then its record).
    game, _ = from_record(record)
    names = {t.id: t.name for t in game.setup.teams}
    places = {placing.team: placing.place for placing in final_standing(game)}
    end = " ".join(out[out.index("Champion: "):].split())
    for person, pid in (("Ann", "p1"), ("Bob", "p2")):
        said = [
            f"{places[t]} {names[t]}: {describe_progress(team_progress(game, t), names.__getitem__)} Won "
            for t in game.setup.teams_of(pid)
        ]
        assert f"{person}'s teams: {said[0]}" in end and said[1] in end[end.index(said[0]):]
    assert "Bot 3's teams" not in end


def test_a_name_is_shown_as_typed_not_read_as_markup(tmp_path: Path) -> None:
    """rich would read '[bold]' as a style and '[/]' as an error: a name is printed as it was given."""
    result = runner.invoke(
        app, ["play", "--players", "4", "--humans", "2", "--names", "[bold]Ann,[/]", "--seed", "hotseat"],
        input="\n10 9\ny\n" * 40, env={"COLUMNS": "120"},
    )
    assert result.exit_code == 0, result.output
    assert "([bold]Ann)" in result.output and "[bold]Ann: your orders are secret" in result.output
    assert "([/])" in result.output and "[/]: your orders are secret" in result.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--humans", "2", "--names", "Ann,Bob,Cy"],
         "error: --names gives 3 names for 2 people typing orders (--humans 2); give one name for each, or --humans 3"),
        (["--humans", "3", "--names", "Ann"],
         "error: --names gives 1 name for 3 people typing orders (--humans 3); give one name for each, or --humans 1"),
        # --humans left out, --names sets it: the refusal spoke of a --humans 5 nobody typed.
        (["--names", "Ann,Bob,Cy,Di,Ed"],
         "error: --names gives 5 names, but the game has 4 players (--players 4); every person typing orders is one "
         "of them: give --players 5 or more, or fewer names"),
        (["--names", "Ann,,Bob"], "error: --names has an empty name; give names separated by commas, e.g. --names Ann,Bob"),
        (["--names", "Ann, ANN"], "error: --names: 'ANN' is 'Ann' again (names are compared ignoring case and spacing); "
                                  "give each person a name of their own"),
        # Alike in a table and a hand-over: the spacing between words, full-width letters, case.
        (["--names", "Ann  Lee,ann lee"], "error: --names: 'ann lee' is 'Ann Lee' again (names are compared ignoring case "
                                          "and spacing); give each person a name of their own"),  # one line: spaces run together
        (["--names", "Ann,Ａｎｎ"], "error: --names: 'Ａｎｎ' is 'Ann' again"),
        (["--names", "Ann,BOT  4"], "error: --names: 'BOT 4' is the name of a bot in this game"),
        (["--names", "Bot 1,Ann"], "error: --names: 'Bot 1' is named like a bot (the bots here are Bot 3 and Bot 4), and "
                                   "the draw would show a person's teams as a bot's; choose another name"),
        # Another person's default name: the hand-over "Player 2: your orders are secret" would call the wrong person.
        (["--names", "Player 2,Ann"], "error: --names: 'Player 2' is the name the game gives person 2 when none is given, "
                                      "and this is person 1; choose another name"),
        (["--names", "Ann,player1"], "error: --names: 'player1' is the name the game gives person 1 when none is given, "
                                     "and this is person 2; choose another name"),
        (["--names", "Ann,Bot 4"], "error: --names: 'Bot 4' is the name of a bot in this game (players 3 and 4 are bots); "
                                   "choose another name"),
        # Names that read as someone else beside the teams in the draw and the headings: the reader,
        # the teams nobody manages, a team, a bot.
        (["--names", "Ann,YOU"], "error: --names: 'YOU' would read as whoever is at the keyboard (you); choose another name"),
        (["--names", "House,Ann"], "error: --names: 'House' is what the draw calls the teams nobody manages"),
        (["--names", "Ann,new  ZEALAND"], "error: --names: 'new ZEALAND' is the name of a team in Sevens, and the draw "
                                          "shows people's names beside their teams'; choose another name"),
        (["--names", "Even,Ann"], "error: --names: 'Even' is the name of a bot (sevens play --bots); choose another name"),
        (["--names", "Ann,Bob\x07the builder"], "error: --names: 'Bob\\x07the builder' holds U+0007, a control character, after 'Bob'"),
        (["--names", "A" * 31], f"error: --names: '{'A' * 30}'... is 31 characters long; keep it to 30"),
        (["--auto", "--names", "Ann"], "error: --auto has bots play every team, so nobody types orders and no name is "
                                       "needed: drop --names or --auto"),
    ],
)
def test_names_that_cannot_tell_the_people_apart_are_refused_before_the_game(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "n", *args], input="")
    assert result.exit_code == 2
    assert result.stderr == says + "\n" or result.stderr.startswith(says), result.stderr
    assert "The draw" not in result.output


def test_a_full_disk_at_the_end_keeps_the_record_elsewhere_and_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The record's write fails at the end (no space left): one line says why and where the record
    went instead, and the command that checks it there; exit 1 (the command line was fine: 2 is for
    bad input); nothing half-written. The command said "sevens verify FILE", not the file's name."""
    import errno

    def full(path: Path, text: str, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    spare = tmp_path / "spare room"  # a space: the command is quoted for a shell
    spare.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spare))
    monkeypatch.setattr(play_cli, "write_text", full)
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "--auto", "--seed", "full", "--record", str(path)])
    assert result.exit_code == 1
    [kept] = spare.iterdir()
    assert result.stderr == (
        f"error: cannot write the game record to {path}: No space left on device; the record was saved to {kept} "
        f"instead: check it with: sevens verify '{kept}' (or by the name you move it to)\n"
    )
    checked = runner.invoke(app, shlex.split(result.stderr.split("check it with: ")[1].partition(" (")[0])[1:])
    assert checked.exit_code == 0, checked.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spare room"]


def test_overwrite_without_a_record_is_refused_before_the_game() -> None:
    """--overwrite alone would do nothing: the user most likely forgot --record."""
    result = runner.invoke(app, ["play", "--auto", "--seed", "o", "--overwrite"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --overwrite replaces the files --record and --save write, and neither is given: add --record FILE or "
        "drop --overwrite\n"
    )


def test_the_odds_of_an_order_never_round_a_possible_result_to_0_or_an_uncertain_one_to_100() -> None:
    """The odds shown as an order is typed read "win 100.0%, draw 0.0%, lose 0.0%" for 90 FLAIR
    against 2+18, which can lose (about 1 in 300,000): they now follow the web page's rule, so only
    what cannot happen reads 0% and only what must happen 100%."""
    result = runner.invoke(
        app, ["play", "--humans", "1", "--no-save", "--seed", "r2"], input="0 90\nn\n", env={"COLUMNS": "400"}
    )
    line = next(line for line in result.output.splitlines() if "0 FORCE + 90 FLAIR:" in line)
    assert line.endswith("against the order its bot equilibrium gives here, 2+18: win >99.9%, draw <0.0001%, loss 0.00033%")
    assert "0.0%" not in line and "100.0%" not in line


# What a terminal of 40 to 59 columns (a phone's SSH client, a split tmux pane) broke: a team's
# name across two lines, or a figure apart from its label.
_NAMES = ("Great Britain", "New Zealand", "South Africa", "United States")  # the game's two-word names
_LABELS = ("SCRUM", "(SCRUM", "win", "draw", "loss", "count-back")


def _broken(out: str, columns: int) -> list[str]:
    """The lines of ``out`` that are too wide, cut short with '…', or end where a name was broken
    off or a label parted from its figure on the next line (table borders aside); the two seed
    lines are wrapped by the terminal itself."""
    lines = [line for line in out.splitlines()
             if not re.fullmatch(r"[0-9a-f]{64}", line) and not line.startswith(("Seed commitment", "Dice seed, revealed"))]
    bad = [line for line in lines if len(line.rstrip()) > columns or "…" in line]
    for line, after in itertools.pairwise(lines):
        last, first = line.strip(" │┃").split(" ")[-1], (after.strip(" │┃").split(" ") or [""])[0]
        if f"{last} {first.rstrip(',.;:)')}" in _NAMES or (last in _LABELS and first.lstrip("<>")[:1].isdigit()):
            bad.append(f"{line}\n{after}")
    return bad


@pytest.mark.parametrize("columns", [40, 50, 59])
def test_below_60_columns_every_table_of_a_game_keeps_names_and_figures_whole(columns: int) -> None:
    """At 40 to 59 columns the fixtures cut names to 'Argenti…' and 'Austral…', the group tables
    cut figures to '1…' and 'P…' (or squeezed 'Decided by' to 'Decid…'), and the match reports and
    the bracket broke 'Great Britain' and 'South Africa' over two lines. Now the fixtures put the
    away team under the home team, the group tables each team's figures under its name, the match
    reports one side under the other and the bracket the winner under the match."""
    result = runner.invoke(app, ["play", "--auto", "--players", "16", "--seed", "w60"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    out = result.output
    assert _broken(out, columns) == []
    fixtures = out[out.index("Turn 1"):out.index("t1-m1 group")]
    for name in ("Argentina", "Australia", "United States", "Great Britain", "New Zealand", "South Africa"):
        assert f"│ {name} " in fixtures or f"│ v {name} " in fixtures, fixtures
    # Every team's nine figures together on one line, after each of the three group turns.
    tables = out[out.index("Turn 1"):out.index("Knockouts")]
    assert len(re.findall(r"(?<!\S)(?:\d+ +){8}\d+(?= |$)", tables, re.MULTILINE)) == 3 * 16, tables
    assert "Champion:" in out and "Knockouts" in out


def test_below_60_columns_the_order_and_its_odds_keep_each_figure_with_its_label() -> None:
    """A person at 40 columns read 'win 43.8%, draw' and '3.1%, lose 53.0%' on the next line, and
    the team's how-far line broke 'New Zealand' between two lines."""
    answers = "\n10 9\ny\n" * 40
    result = runner.invoke(
        app, ["play", "--players", "4", "--names", "Alexandra Konstantinopoulou,Bob", "--seed", "nm", "--no-save"],
        input=answers, env={"COLUMNS": "40"},
    )
    assert result.exit_code == 0, result.output
    # A prompt's answer is typed in a terminal, whose Enter ends its line: here the input is not echoed.
    out = re.sub(r"help\): |the\s+keyboard: |\(y\): ", "\n", result.output)
    assert _broken(out, 40) == []
    # Each chance with its figure; the line may break between them.
    assert re.search(r"win \d+(\.\d+)?%,\n? +draw \d+(\.\d+)?%,\n? +loss \d+(\.\d+)?%", out), out
    assert "New Zealand: Out" in out or "New Zealand: Champion" in out or "New Zealand: Runner-up" in out, out


def test_at_40_columns_a_prompt_breaks_between_phrases_only() -> None:
    """At 40 columns the order's prompt broke as 'Order for Ireland as FORCE FLAIR (? for' / 'help):'
    and the hand-over's as '... Press' / 'Enter when ...': now '(? for help):' and 'Press Enter'
    move to the next line whole, indented under the prompt's first line."""
    result = runner.invoke(
        app, ["play", "--players", "4", "--names", "Alexandra Konstantinopoulou,Bob", "--seed", "nm", "--no-save"],
        input="\n10 9\ny\n" * 40, env={"COLUMNS": "40"},
    )
    assert result.exit_code == 0, result.output
    lines = [line.rstrip() for line in result.output.splitlines()]
    prompts = [(line, after) for line, after in itertools.pairwise(lines) if line.startswith("Order for ")]
    assert len(prompts) >= 6 and all(after.startswith("  (? for help):") or line.endswith("(? for help): 10 9")
                                     for line, after in prompts), prompts
    assert any(line == "Order for Ireland as FORCE FLAIR" for line, _ in prompts), prompts
    hand_over = [(line, after) for line, after in itertools.pairwise(lines) if line.startswith("Alexandra Konstantinopoulou: ")]
    assert hand_over and all(line == "Alexandra Konstantinopoulou: your" and after.startswith(
        "  orders are secret. Press Enter") for line, after in hand_over), hand_over


@pytest.mark.parametrize("name", ["new zealand", "NEW ZEALAND", "New Zealand", "the [bold]all blacks"])
def test_the_order_prompt_keeps_a_team_name_whole_whatever_its_case(name: str) -> None:
    """The prompt kept two capitalised words together ('New Zealand') but broke a lowercase name
    as 'Order for new' / '  zealand as ...': given the team's name, it keeps it whole, as a name."""
    from sevens.cli import lineedit
    from sevens.cli.render import literal

    for width in range(len(name) + 2, 48):  # wide enough for the name on an indented line
        console = Console(width=width, file=io.StringIO(), color_system=None)
        lineedit.unread("10 6")
        answer = lineedit.AskLine.keeping([name]).ask(f"Order for {literal(name)} as FORCE FLAIR (? for help)", console=console)
        shown = console.file.getvalue()  # type: ignore[attr-defined]
        assert answer == "10 6" and any(name in line for line in shown.splitlines()), (width, shown)


def test_at_40_columns_a_long_line_of_dice_keeps_flair_with_its_first_throw() -> None:
    """28 FORCE dice filled a line up to '... 5 1 | FLAIR' at 40 columns, its throws on the next
    line; 'FLAIR' now goes down with the first of them, as 'FORCE' starts its line with its first die."""
    result = runner.invoke(app, ["play", "--humans", "1", "--players", "4", "--seed", "r2", "--no-save"],
                           input="28 30\ny\n" * 3, env={"COLUMNS": "40"})  # a game over or cut short: no matter
    dice = [line.strip(" │") for line in result.output.splitlines() if "FLAIR" in line and "│" in line]
    assert dice and all(re.search(r"FLAIR \d-\d", line) for line in dice), dice
    assert any(line.startswith("FLAIR ") for line in dice), dice  # the line that ended '| FLAIR'


@pytest.mark.parametrize("columns", [60, 64, 70, 80, 100, 120])
def test_the_wide_match_report_breaks_the_order_and_scrum_between_phrases(columns: int) -> None:
    """Side by side, each cell's 'order 2+15  SCRUM 100->93 (+10 win)' was plain text: at 70
    columns it wrapped as '... (+10' / 'win)', flush left. It breaks between phrases now, as the
    stacked layout below 60 does, the rest indented under it."""
    result = runner.invoke(app, ["play", "--auto", "--players", "16", "--seed", "k2", "--no-save"],
                           env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    rows = [line.split("│")[1:-1] for line in result.output.splitlines() if line.count("│") == 3]  # two sides
    column = [row[side].rstrip() for side in (0, 1) for row in rows]
    first = r" order \d+\+\d+( missed: autopilot [a-z-]+ \(R13\))?( SCRUM \d+->\d+)?( \(\+\d+ win\))?"
    whole = r"order \d+\+\d+( missed: autopilot [a-z-]+ \(R13\))? SCRUM \d+->\d+( \(\+\d+ win\))?"
    checked = 0
    for at, cell in enumerate(column):
        if not cell.startswith(" order "):
            continue
        assert re.fullmatch(first, cell), (columns, cell)
        rest = list(itertools.takewhile(lambda c: c.startswith("   ") and c.strip(), column[at + 1:]))
        assert re.fullmatch(whole, " ".join(c.strip() for c in [cell, *rest])), (columns, cell, rest)
        checked += 1
    assert checked > 30


def test_the_fixtures_at_60_columns_keep_every_name_on_one_line() -> None:
    """At exactly 60 columns the boxed fixtures (61 columns with 'Great Britain' or 'United States'
    in both name columns) were squeezed in, 'United' over 'States' in the Away column; where they do
    not fit whole the away team goes under the home team, as below 60."""
    names = ["France", "Fiji", "Argentina", "Great Britain", "Samoa", "New Zealand", "Japan", "Canada",
             "Germany", "Kenya", "United States", "Australia", "Ireland", "Uruguay", "Spain", "South Africa"]
    for columns in ("60", "61", "62"):
        result = runner.invoke(app, ["play", "--auto", "--players", "16", "--seed", "k2"], env={"COLUMNS": columns})
        assert result.exit_code == 0, result.output
        out = result.output
        fixtures = out[out.index("Turn 1: group"):out.index("t1-m1 group A:")]
        assert all(name in fixtures for name in names), fixtures
        assert all(len(line) <= int(columns) for line in fixtures.splitlines())
    assert "│ Great Britain │" in fixtures  # where the boxed table fits, it is kept


@pytest.mark.parametrize("columns", [40, 120])
def test_the_fixtures_scrum_figures_are_right_aligned_wide_and_narrow(columns: int) -> None:
    """The wide fixtures left-aligned SCRUM ('│ 100   │'), the narrow ones right-aligned it, as the
    group tables do their figures: now both right-align it."""
    result = runner.invoke(app, ["play", "--auto", "--players", "4", "--seed", "k2", "--no-save"],
                           env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    out = result.output
    fixtures = out[out.index("Turn 2"):out.index("t2-m1 group")]  # SCRUM 100 beside 90 and 80 after turn 1
    header = next(line for line in fixtures.splitlines() if "Match" in line).split("┃")[1:-1]
    scrum = [i for i, cell in enumerate(header) if cell.strip() == "SCRUM"]
    assert len(scrum) == (2 if columns == 120 else 1), fixtures
    cells = [line.split("│")[1:-1] for line in fixtures.splitlines() if line.startswith("│")]
    figures = [cell[i] for cell in cells for i in scrum]
    assert figures and all(re.fullmatch(r" +\d+ ", figure) for figure in figures), fixtures
    assert any(figure.strip() != "100" for figure in figures), fixtures


def test_a_long_line_breaks_between_phrases_and_indents_at_any_width(tmp_path: Path) -> None:
    """At 100 columns the order's heading broke as '... turn 1; at most' / '5 matches left ...', the
    figure parted from its words and the second line flush left, as if a new line; only below 60
    did it break between phrases. Now it does at every width, the lines after the first indented."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "d1", "--no-save"], input="", env={"COLUMNS": "100"})
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("New Zealand (SCRUM 100) v France"))
    heading = lines[start:start + 2]  # then the team's outlook in the group, then the prompt
    assert heading[0].startswith("New Zealand (SCRUM 100) v France") and heading[1].startswith("  "), heading
    assert all(len(line) <= 100 for line in heading) and "most 5 matches" in heading[1]


def test_the_verify_command_after_the_record_is_one_line_that_can_be_pasted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'check it with: sevens verify PATH' broke the command over two lines at 60 columns, and a
    path with a space in it was given unquoted, which the shell would read as two files."""
    monkeypatch.chdir(tmp_path)
    record = Path("my game.json")
    result = runner.invoke(app, ["play", "--auto", "--seed", "v", "--record", str(record)], env={"COLUMNS": "60"})
    assert result.exit_code == 0, result.output
    command = f"sevens verify {shlex.quote(str(record))}"
    assert any(line.strip() == command or line.endswith(f" {command}") for line in result.output.splitlines()), (
        result.output[-400:]
    )


def test_how_far_a_team_went_keeps_its_group_letter_with_the_word_group() -> None:
    """At 50 columns the line for a team out after the groups broke as '4th in group' / 'A.', the
    letter alone on a line; 'group A.' now moves to the next line together."""
    result = runner.invoke(
        app, ["play", "--players", "4", "--humans", "2", "--names", "Ann,Bob", "--seed", "m", "--no-save"],
        input="\n12 6\ny\n" * 100, env={"COLUMNS": "50"},
    )
    assert result.exit_code == 0, result.output
    lines = [line.rstrip() for line in result.output[result.output.index("Ann's teams:"):].splitlines()]
    assert "  7-8 South Africa: Out after the groups: 4th in" in lines, lines
    assert any(line.startswith("    group A. Won ") for line in lines), lines  # the record follows on its line
    assert not any(line.strip() in ("A.", "B.") for line in lines)


def test_at_40_columns_a_figure_stays_with_the_word_after_it() -> None:
    """At 40 columns the order's heading broke as '... at most 6' / 'matches left ...' and its odds
    as 'expected 8.07' / 'points; ...': the figure parted from what it counts. 'at most 6 matches'
    is kept whole."""
    result = runner.invoke(app, ["play", "--players", "4", "--teams", "16", "--seed", "n", "--no-save"],
                           input="3 3\ny\n", env={"COLUMNS": "40"})
    out = re.sub(r"help\): |\(y\): ", "\n", result.output)
    lines = [line.strip() for line in out.splitlines()]
    assert not [line for line in lines if re.search(r"(at|at most|at most \d+)$|expected [\d.]+$", line)], out
    assert any("at most 6 matches" in line for line in lines), out
    assert any("expected 8.07 points;" in line for line in lines), out


@pytest.mark.parametrize(
    "code",
    [
        "raise RuntimeError('no weights\\x1b[2J' + 'y' * 1000)\n",  # as it is imported
        "class Mine:\n    def __init__(self):\n        raise RuntimeError('no weights\\x1b[2J' + 'y' * 1000)\n",  # made
    ],
)
def test_a_bot_that_raises_a_long_message_with_terminal_codes_is_refused_in_one_short_escaped_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str
) -> None:
    """What a bot's code raised is quoted escaped and cut to 300 characters: it was printed whole,
    the terminal codes sent to the terminal (here one that clears the screen)."""
    module = f"loud_{len(code)}"
    (tmp_path / f"{module}.py").write_text(code)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["play", "--auto", "--bots", f"{module}:Mine", "--no-save"])
    assert result.exit_code == 2 and result.stdout == ""
    assert "raised RuntimeError: no weights\\x1b[2Jyyy" in result.stderr and "... (1,014 characters)" in result.stderr
    assert "\x1b" not in result.stderr and result.stderr.count("\n") == 1 and len(result.stderr) < 700


@pytest.mark.parametrize("saving", [["--no-save"], ["--save", "kept.json"]])
def test_a_bot_that_raises_as_it_chooses_an_order_stops_the_game_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, saving: list[str]
) -> None:
    """Which bot, for which team, where it raised, and how to go on; it was a traceback."""
    module = f"stops_in_play_{len(saving)}"  # one module each: a module imported once stays imported
    (tmp_path / f"{module}.py").write_text(
        "from sevens.bots import EvenSpread\n\n\nclass Mine(EvenSpread):\n"
        "    def order(self, view, rng):\n"
        "        raise RuntimeError('asked to stop')\n"
    )
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["play", "--auto", "--bots", f"{module}:Mine,even", *saving])
    message = " ".join(result.stderr.split())
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert f"error: the bot '{module}:Mine' that plays " in message
    assert f"raised RuntimeError: asked to stop at {tmp_path / module}.py, line 6, as it chose its order for " \
           "turn 1, so the game stopped before turn 1 was played" in message
    if saving == ["--no-save"]:
        assert message.endswith(": fix the bot and play again")
    else:
        assert message.endswith("; the game is kept as it was before turn 1: fix the bot and carry it on with: sevens play "
                                f"--resume {tmp_path / 'kept.json'} --bots {module}:Mine,even")


ROOT = Path(__file__).resolve().parents[2]


def _sevens(args: list[str], cwd: Path, site: Path | None = None, typed: str = "") -> subprocess.CompletedProcess[str]:
    """``sevens`` in a process of its own, with ``site`` on its path as pip's folder would be."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in (ROOT / "src", site) if p is not None)}
    return subprocess.run([sys.executable, "-m", "sevens", *args], cwd=cwd, env=env, input=typed,
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("by", ["path", "entry point"])
def test_a_bot_name_set_to_none_is_told_to_be_a_bot_not_a_batch_strategy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, by: str
) -> None:
    """'Mine = None' under sevens play --bots was told to become "a batch strategy (orders(view, rng))
    or a bot", the lab's words: a game refuses a batch strategy, so it is offered a bot only."""
    module = f"unset_bot_{by.replace(' ', '_')}"
    install_package(tmp_path, f"pkg_{module}", {module: "Mine = None\n"}, {f"{module}-mine": f"{module}:Mine"})
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    name = f"{module}:Mine" if by == "path" else f"{module}-mine"
    how = "" if by == "path" else f", as the entry point '{module}:Mine' names it"
    result = runner.invoke(app, ["play", "--auto", "--bots", name, "--no-save"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"error: --bots: cannot load '{name}': 'Mine' in {module} ({tmp_path / module}.py) is "
                             f"None{how}, not a bot: set it to a bot (order(view, rng)), or to a class or function "
                             "that makes one (docs/strategy.md, 'Writing your own strategy')\n")


def test_the_start_says_where_a_bot_of_ones_own_and_a_registered_one_come_from(tmp_path: Path) -> None:
    """A module-path bot was called "a registered bot", as any name describe() did not know."""
    mine = "from sevens.bots import EvenSpread\n\n\nclass Mine(EvenSpread):\n    pass\n"
    (tmp_path / "minebots.py").write_text(mine)
    site = tmp_path / "site"
    install_package(site, "housebots", {"housebots": mine}, {"house-even": "housebots:Mine"})
    done = _sevens(["play", "--auto", "--no-save", "--bots", "minebots:Mine,house-even"], tmp_path, site)
    said = " ".join(done.stdout.split())
    assert done.returncode == 0, done.stderr
    assert "Played by the bot minebots:Mine (your own bot from the module minebots): " in said
    assert "Played by the bot house-even (registered by the installed package housebots): " in said
    assert "a registered bot" not in said


def test_a_bot_that_raises_as_its_order_is_foreseen_leaves_the_odds_out_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The odds line runs the opponent's bot to foresee its order; a bot raising there gave a traceback
    as the person's order was shown. Now the odds are left out, saying why, and the game stops as
    it does for a bot that raises as it chooses (one line, before the turn)."""
    (tmp_path / "foreseen_boom.py").write_text(
        "from sevens.bots import EvenSpread\n\n\nclass Boom(EvenSpread):\n"
        "    def order(self, view, rng):\n"
        "        raise RuntimeError('no [red]weights')\n"
    )
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["play", "--players", "4", "--bots", "foreseen_boom:Boom", "--no-save"],
                           input="20 9\ny\n" * 2)
    said = " ".join(result.stdout.split())
    assert result.exit_code == 2 and result.exception is not None and isinstance(result.exception, SystemExit), result.output
    assert "20 FORCE + 9 FLAIR: expected 38.87 points; no odds against its bot foreseen_boom:Boom, which raised " \
           "RuntimeError: no [red]weights at " in said  # a path longer than a line is broken anywhere
    assert "line 6 when asked for a typical order (if its real order fails the same way, the game " \
           "stops before this turn)" in said
    assert "foreseen_boom.py,line6" in "".join(result.stdout.split())  # a path may break even in ".py"
    assert said.count("no odds against its bot") == 2 and "Traceback" not in result.output
    message = " ".join(result.stderr.split())
    assert result.stderr.count("\n") == 1
    assert message.startswith("error: the bot 'foreseen_boom:Boom' that plays ")
    assert message.endswith("as it chose its order for turn 1, so the game stopped before turn 1 was played: fix the bot "
                            "and play again")


def test_the_rename_hint_is_given_only_when_another_module_of_that_name_is_hidden(tmp_path: Path) -> None:
    """A module installed on the path and run from another folder was told "if yours is another
    pacers, rename it: this one is found first" with no other pacers anywhere; the hint now comes
    only when a namesake exists that Python never reaches, and names its file."""
    site, other, elsewhere = tmp_path / "site", tmp_path / "other", tmp_path / "elsewhere"
    for folder in (site, other, elsewhere):
        folder.mkdir()
    (site / "pacers.py").write_text("class Cautious:\n    pass\n")
    alone = _sevens(["play", "--auto", "--no-save", "--bots", "pacers:Nope"], elsewhere, site)
    message = " ".join(alone.stderr.split())
    assert alone.returncode == 2 and alone.stderr.count("\n") == 1, alone.stderr
    assert f"pacers ({site / 'pacers.py'}) has no 'Nope'; it has Cautious: check the name" in message
    assert "rename it" not in message and "found first" not in message

    (other / "pacers.py").write_text("class Nope:\n    pass\n")
    hidden = _sevens(["play", "--auto", "--no-save", "--bots", "pacers:Nope"], elsewhere, Path(f"{site}{os.pathsep}{other}"))
    message = " ".join(hidden.stderr.split())
    assert hidden.returncode == 2 and hidden.stderr.count("\n") == 1, hidden.stderr
    assert f"it has Cautious (another pacers at {other / 'pacers.py'} is not the one loaded: if that is yours, " \
           "rename it): check the name" in message


def test_a_dotted_name_after_the_colon_is_looked_up_part_by_part(tmp_path: Path) -> None:
    """'nestbots:Bots.Inner' was looked up as one attribute called "Bots.Inner": a bot an entry point
    may name so was refused by its path ("has no 'Bots.Inner'; it defines Bots"). Each part is now
    looked up in the one before, and a missing one named with where it was looked for."""
    (tmp_path / "nestbots.py").write_text(
        "from sevens.bots import EvenSpread\n\n\nclass Bots:\n    class Inner(EvenSpread):\n        pass\n"
    )
    played = _sevens(["play", "--auto", "--no-save", "--bots", "nestbots:Bots.Inner"], tmp_path)
    assert played.returncode == 0, played.stderr
    assert "Played by the bot nestbots:Bots.Inner (your own bot from the module nestbots): " in " ".join(played.stdout.split())
    missing = _sevens(["play", "--auto", "--no-save", "--bots", "nestbots:Bots.Nope"], tmp_path)
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr == "error: --bots: cannot load 'nestbots:Bots.Nope': nestbots:Bots has no 'Nope': check the " \
                             "name after the colon (case counts), or define 'Nope' in Bots\n"


def test_a_missing_name_in_a_package_lists_what_it_re_exports_bots_first(tmp_path: Path) -> None:
    """A package whose __init__ only imports its bots ('from okbots.core import Mine') was said to
    "define no class" when a name after its colon was wrong, under play, lab and an entry point alike:
    what it has to name is now listed, bots first, then batch strategies, then its other classes and
    functions, and nothing it merely imported from elsewhere."""
    site = tmp_path / "site"
    (site / "okbots").mkdir(parents=True)
    (site / "okbots" / "core.py").write_text(
        "from sevens.bots import EvenSpread\n\n\nclass Mine(EvenSpread):\n    pass\n\n\n"
        "class Batchy:\n    name = 'batchy'\n\n    def orders(self, view, rng):\n        raise NotImplementedError\n\n\n"
        "def helper():\n    return 1\n"
    )
    (site / "okbots" / "__init__.py").write_text(
        "from dataclasses import dataclass\n\nfrom okbots.core import Batchy, Mine, helper\n\nMINE = Mine()\n"
    )
    info = site / "okbots-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: okbots\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[sevens.strategies]\nok-nope = okbots:Nope\n")
    has = "has no 'Nope'; it has the bots MINE, Mine; the batch strategy Batchy; also helper:"
    where = f"okbots ({site / 'okbots' / '__init__.py'})"
    played = _sevens(["play", "--auto", "--no-save", "--bots", "okbots:Nope"], tmp_path, site)
    assert played.returncode == 2 and played.stderr.count("\n") == 1, played.stderr
    assert f"{where} {has} check the name after the colon" in " ".join(played.stderr.split())
    lab = _sevens(["lab", "--strategies", "even,okbots:Nope", "--tournaments", "10"], tmp_path, site)
    assert lab.returncode == 2 and lab.stderr.count("\n") == 1, lab.stderr
    assert f"{where} {has} check the name after the colon" in " ".join(lab.stderr.split())
    entry = _sevens(["play", "--auto", "--no-save", "--bots", "ok-nope"], tmp_path, site)
    assert entry.returncode == 2 and entry.stderr.count("\n") == 1, entry.stderr
    assert f"{where} {has} correct the entry point" in " ".join(entry.stderr.split())
    assert "defines no class" not in played.stderr + lab.stderr + entry.stderr
    assert "dataclass" not in played.stderr + lab.stderr + entry.stderr


def test_a_batch_strategy_given_to_play_is_said_to_be_one_for_the_lab(tmp_path: Path) -> None:
    """The guide's batch strategy (SaveThenFlair: a name and orders(view, rng)) given to --bots was
    told "is not a bot: it needs a name and an order(view, rng) method", though it has a name: it is
    now said to be a batch strategy, which only the lab plays, by its path and by an entry point."""
    code = ("class SaveThenFlair:\n    name = 'save-then-flair'\n\n"
            "    def orders(self, view, rng):\n        raise NotImplementedError\n")
    (tmp_path / "batchpacers.py").write_text(code)
    site = tmp_path / "site"
    install_package(site, "housebots", {"housepacers": code}, {"save-then-flair": "housepacers:SaveThenFlair"})
    for bot in ("batchpacers:SaveThenFlair", "save-then-flair"):
        played = _sevens(["play", "--auto", "--no-save", "--bots", bot], tmp_path, site)
        assert played.returncode == 2 and played.stdout == ""
        assert played.stderr == (f"error: --bots: {bot!r} is a batch strategy (orders(view, rng)), which only sevens "
                                 "lab plays: a bot for games needs an order(view, rng) method for one team "
                                 "(docs/strategy.md, 'Writing your own strategy'), or play it with sevens lab "
                                 "--strategies\n")


def test_a_lazy_attribute_that_fails_to_load_is_left_out_of_what_a_module_offers(tmp_path: Path) -> None:
    """Listing what a module has to name looked up every name in its __all__, and a lazy one whose
    module __getattr__ raised turned 'lazybots:Nope' into "cannot make 'lazybots:Nope': calling it
    with no arguments raised RuntimeError": the failing name is now left out of the list."""
    (tmp_path / "lazybots.py").write_text(
        "from sevens.bots import EvenSpread\n\n__all__ = ['Mine', 'Heavy']\n\n\nclass Mine(EvenSpread):\n    pass\n\n\n"
        "def __getattr__(name):\n    if name == 'Heavy':\n        raise RuntimeError('no weights here')\n"
        "    raise AttributeError(name)\n"
    )
    played = _sevens(["play", "--auto", "--no-save", "--bots", "lazybots:Nope"], tmp_path)
    assert played.returncode == 2 and played.stdout == ""
    assert played.stderr == (f"error: --bots: cannot load 'lazybots:Nope': lazybots ({tmp_path / 'lazybots.py'}) has "
                             "no 'Nope'; it has the bot Mine: check the name after the colon (case counts), or define "
                             "'Nope' in lazybots\n")


def test_a_bot_without_a_name_plays_called_by_its_path_and_its_record_verifies(tmp_path: Path) -> None:
    """The strategy guide makes a name optional ("A name attribute, if it has one"), and the lab plays a
    bot without one, but sevens play refused it: "'nameless:Plain' is not a bot: it needs a name and an
    order(view, rng) method". It now plays, called by the path it was given, and its record verifies."""
    (tmp_path / "nameless.py").write_text(
        "from sevens.rules import Order\n\n\nclass Plain:\n    def order(self, view, rng):\n"
        "        total = -(-view.scrum // view.turns_left)\n        flair = total // 2 // 3 * 3\n"
        "        return Order(force=total - flair, flair=flair)\n"
    )
    played = _sevens(["play", "--auto", "--players", "4", "--seed", "3", "--bots", "nameless:Plain,even",
                      "--record", "game.json"], tmp_path)
    assert played.returncode == 0, played.stderr
    assert "Played by the bot nameless:Plain (your own bot from the module nameless): " in " ".join(played.stdout.split())
    verified = _sevens(["verify", "game.json", "--bots", "nameless:Plain"], tmp_path)
    assert verified.returncode == 0, verified.stderr
    assert "30 bot orders played again from the seed, each what its bot plays" in " ".join(verified.stdout.split())


def test_a_bot_returning_no_order_is_told_what_to_return(tmp_path: Path) -> None:
    """A bot whose order method returned (10, 9) was said to have "raised AttributeError: 'tuple' object
    has no attribute 'force'", with no line of its own to look at: the game now says what it returned
    and what it must return."""
    (tmp_path / "tuplebot.py").write_text("class Mine:\n    def order(self, view, rng):\n        return (10, 9)\n")
    played = _sevens(["play", "--auto", "--no-save", "--players", "4", "--seed", "3", "--bots", "tuplebot:Mine"],
                     tmp_path)
    assert played.returncode != 0 and "Traceback" not in played.stderr and played.stderr.count("\n") == 1
    message = " ".join(played.stderr.split())
    # The team by its name, as every other message names it, not its id ("argentina").
    assert "the bot 'tuplebot:Mine' gave an order the game refuses: Argentina, turn 1: " in message, message
    assert "turn 1: its order method returned tuple (10, 9), not an Order: return sevens.rules.Order(force=..., " \
           "flair=...)" in message
    assert "AttributeError" not in message


def test_a_registered_bot_under_a_built_ins_name_is_said_to_be_left_out_and_how_to_play_it(tmp_path: Path) -> None:
    """A package registering its own 'equilibrium' had the built-in play in its place without a word:
    its author took the built-in's play for their own bot's (sevens lab already said so)."""
    mine = "from sevens.bots import EvenSpread\n\n\nclass Mine(EvenSpread):\n    pass\n"
    site = tmp_path / "site"
    install_package(site, "ownbots", {"ownbots": mine}, {"equilibrium": "ownbots:Mine"})
    done = _sevens(["play", "--auto", "--no-save", "--bots", "equilibrium,even,equilibrium"], tmp_path, site)
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        "note: --bots: the package ownbots registers a bot called 'equilibrium', which is a built-in's name: the "
        "built-in equilibrium plays; to play the package's, name it by its path, ownbots:Mine, or rename its entry "
        "point in that package's pyproject.toml\n"
    )
    assert "Played by the bot equilibrium (" in " ".join(done.stdout.split())


def test_a_bot_named_with_markup_is_shown_as_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot of one's own may be called anything ('[/]' an attribute's name, or a package's entry
    point): rich read it as markup where the game names the bot (MarkupError, a traceback)."""
    (tmp_path / "marked_bots.py").write_text("from sevens.bots.strategies import EvenSpread\n\nglobals()['x[/]'] = EvenSpread\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    result = runner.invoke(app, ["play", "--bots", "marked_bots:x[/]", "--no-save", "--seed", "marked"],
                           input="10 6\ny\n" * 40, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Played by the bot marked_bots:x[/] (your own bot from the module marked_bots): " in result.output
    assert "played by the bot marked_bots:x[/])" in result.output
    assert "against its bot marked_bots:x[/]'s mix of 2 orders (" in result.output
