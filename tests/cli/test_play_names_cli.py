"""sevens play takes people's names by the rule the web's forms and the API follow
(sevens.tournament.names): kept in NFC, emoji joined by ZWJ and the flags of England, Scotland and
Wales allowed, hidden characters refused by name and place; a game saved with such names carries on."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from sevens.cli.main import app
from sevens.tournament.record import loads

runner = CliRunner()
GAME = ["play", "--players", "4", "--teams", "16", "--seed", "names"]  # one person with 4 teams, 6 turns
ORDER = "10 6\ny\n"  # 16 points a match: every team can afford it in all 6 turns
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"


def test_a_name_with_a_flag_a_joined_emoji_and_an_accent_typed_apart_is_kept_and_carries_on(tmp_path: Path) -> None:
    """The CLI refused ZWJ and the flag's tags as characters that cannot be shown, which the web
    takes, and kept 'José' decomposed; a saved game with such a name must carry on and verify."""
    kept, record = tmp_path / "kept.json", tmp_path / "game.json"
    typed = f"{SCOTLAND} {FAMILY} Jose\u0301"
    stopped = runner.invoke(app, [*GAME, "--names", typed, "--save", str(kept)], input=ORDER * 4 + "30 3\ny\n")
    assert stopped.exit_code == 1, stopped.output
    name = f"{SCOTLAND} {FAMILY} Jos\u00e9"
    assert json.loads(kept.read_text())["game"]["players"][0]["name"] == name
    resumed = runner.invoke(app, ["play", "--resume", str(kept), "--record", str(record)], input=ORDER * 40)
    assert resumed.exit_code == 0, resumed.output
    assert loads(record.read_bytes())["players"][0]["name"] == name
    verified = runner.invoke(app, ["verify", str(record)])
    assert verified.exit_code == 0 and ": ok: " in verified.stdout, verified.output


def test_a_hidden_character_in_a_name_is_refused_by_name_and_place() -> None:
    result = runner.invoke(app, [*GAME, "--names", "Ann\u202eeL"])
    assert result.exit_code == 2
    assert (
        "error: --names: 'Ann\\u202eeL' holds U+202E RIGHT-TO-LEFT OVERRIDE, an invisible format character, after "
        "'Ann'; type the name without it"
    ) in result.stderr
    # A joiner alone is taken by no rule of its own, and would stand blank in the draw.
    blank = runner.invoke(app, [*GAME, "--names", "\u200d"])
    assert blank.exit_code == 2
    assert "error: --names: '\\u200d' shows no letter, digit or sign; type a name of 1 to 30 characters" in blank.stderr


def test_a_record_kept_before_the_rule_on_names_still_verifies(tmp_path: Path) -> None:
    """docs/record.md: names are taken as written, so a record holding a decomposed accent, a
    direction override or a stack of marks, which sevens now refuses in a new name, verifies."""
    record = tmp_path / "old.json"
    assert runner.invoke(app, ["play", "--auto", "--players", "4", "--seed", "old", "--record", str(record)]).exit_code == 0
    data = json.loads(record.read_text())
    data["players"][0]["name"] = "Jose\u0301 \u202eevil\u202c\u200b"
    data["players"][1]["name"] = "Z" + "\u0336" * 40
    record.write_text(json.dumps(data, ensure_ascii=False))
    verified = runner.invoke(app, ["verify", str(record)])
    assert verified.exit_code == 0 and ": ok: " in verified.stdout, verified.output


def test_a_name_drawn_in_another_script_as_another_persons_is_refused_saying_which_letter() -> None:
    """'Аnn' with a Cyrillic А was a second person beside 'Ann', and 'ВОТ 4' in Cyrillic capitals a
    person named as the bot Bot 4: the draw and the hand-overs showed two of one name."""
    twin = runner.invoke(app, [*GAME, "--humans", "2", "--names", "Ann,\u0410nn"])
    assert twin.exit_code == 2
    assert (
        "error: --names: '\u0410nn' reads as 'Ann' (its '\u0410' is CYRILLIC CAPITAL LETTER A, drawn as a Latin 'A'); "
        "give each person a name of their own"
    ) in twin.stderr
    bot = runner.invoke(app, [*GAME, "--humans", "2", "--names", "Ann,\u0412\u041e\u0422 4"])
    assert bot.exit_code == 2
    assert "'\u0412\u041e\u0422 4', which reads as 'Bot 4' (its '\u0412' is CYRILLIC CAPITAL LETTER VE" in bot.stderr
    assert "is the name of a bot in this game (players 3 and 4 are bots); choose another name" in bot.stderr
    team = runner.invoke(app, [*GAME, "--names", "\U0001d405iji"])  # mathematical bold F
    assert team.exit_code == 2 and "is the name of a team in Sevens" in team.stderr


def test_names_of_30_characters_as_shown_are_taken_and_a_game_saved_before_carries_on(tmp_path: Path) -> None:
    """A name's length is its characters as shown: 30 flags (60 code points) were refused as too
    long. A game saved with two names that now read as one ('Ann' and a Cyrillic 'Аnn', which an
    older sevens took) resumes and verifies: names already kept are not judged again."""
    flags = "\U0001f1eb\U0001f1ef" * 30
    kept, record = tmp_path / "kept.json", tmp_path / "game.json"
    two = ["play", "--players", "4", "--teams", "16", "--seed", "names", "--humans", "2"]
    stopped = runner.invoke(app, [*two, "--names", f"{flags},Ann", "--save", str(kept)], input=ORDER * 5 + "30 3\ny\n")
    assert stopped.exit_code == 1, stopped.output
    saved = json.loads(kept.read_text())
    assert [p["name"] for p in saved["game"]["players"][:2]] == [flags, "Ann"]
    long = runner.invoke(app, [*two, "--names", f"{flags}\U0001f1eb\U0001f1ef,Ann"])
    assert long.exit_code == 2 and "is 31 characters long; keep it to 30" in long.stderr
    saved["game"]["players"][0]["name"] = "\u0410nn"  # as an older sevens kept it
    kept.write_text(json.dumps(saved, ensure_ascii=False))
    resumed = runner.invoke(app, ["play", "--resume", str(kept), "--record", str(record)], input=ORDER * 80)
    assert resumed.exit_code == 0, resumed.output
    assert [p["name"] for p in loads(record.read_bytes())["players"][:2]] == ["\u0410nn", "Ann"]
    verified = runner.invoke(app, ["verify", str(record)])
    assert verified.exit_code == 0 and ": ok: " in verified.stdout, verified.output
