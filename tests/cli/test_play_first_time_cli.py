"""A first-time player's game in the terminal, mistakes included (task pty1)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sevens.cli.main import app

runner = CliRunner()


def _refusals(typed: str) -> list[str]:
    """The refusals one game prints for the lines ``typed`` at the first order prompt, in order."""
    result = runner.invoke(
        app, ["play", "--players", "4", "--seed", "first", "--no-save"], input=typed, env={"COLUMNS": "400"}
    )
    return [line for line in result.output.splitlines() if line.startswith("Refused:")]


def test_a_number_and_a_word_is_refused_naming_the_word_not_as_one_number() -> None:
    """'7 flair' and '20 −9' (a typographic minus, as some keyboards and pasted text give) were refused
    as "'7' is one number: add FLAIR after it": the player had typed a second thing and was sent
    looking for it. The refusal now names the word that is not a whole number; a word FORCE or FLAIR
    also gets how the two numbers are told apart. A word alone ('f3') is named too."""
    said = _refusals("7 flair\n20 \u22129\nf3\nforce 20 flair 9\n")
    assert len(said) == 4, said
    assert "one number" not in " ".join(said)
    assert "'flair' is not a whole number written with the digits 0-9; the numbers alone say which is which, FORCE first: '0 9' is 9 FLAIR, '9 0' is 9 FORCE. Try again." in said[0]
    assert "'\u22129' is not a whole number written with the digits 0-9. Try again." in said[1]
    assert "'f3' is not a whole number written with the digits 0-9. Try again." in said[2]
    assert "'force 20 flair 9' is 4 words; the numbers alone say which is which" in said[3]


def test_a_name_like_a_bot_is_refused_naming_the_bots_as_a_person_would() -> None:
    """With three people of four, 'Bot 1' was refused because "the bots here are Bot 4 to Bot 4",
    and 'Bot 4' because "players 4 to 4 are bots"; with two bots, "Bot 3 to Bot 4". One bot is now
    named alone, two joined by 'and', more as a range."""
    said = {
        names: runner.invoke(app, ["play", "--players", str(players), "--names", names, "--no-save"], input="").output
        for names, players in (("Ann,Bob,Bot 1", 4), ("Ann,Bob,Bot 4", 4), ("Ann,Bot 1", 4), ("Ann,Bot 9", 6))
    }
    assert "named like a bot (the bot here is Bot 4), and" in said["Ann,Bob,Bot 1"]
    assert "'Bot 4' is the name of a bot in this game (player 4 is a bot); choose" in said["Ann,Bob,Bot 4"]
    assert "named like a bot (the bots here are Bot 3 and Bot 4), and" in said["Ann,Bot 1"]
    assert "named like a bot (the bots here are Bot 3 to Bot 6), and" in said["Ann,Bot 9"]


def test_the_match_and_both_balances_are_said_again_after_the_help_and_the_tables() -> None:
    """'?' prints 21 lines at 80 columns and 't' the tables: on a 24-line terminal the match being
    ordered for, with the team's SCRUM and the opponent's, had scrolled away when the order was
    asked again. The heading is now said again after each, just above the prompt."""
    result = runner.invoke(
        app, ["play", "--players", "4", "--seed", "first", "--no-save"], input="?\nt\n", env={"COLUMNS": "400"}
    )
    lines = result.output.splitlines()
    heading = next(line for line in lines if " (SCRUM 100) v " in line)
    assert heading.startswith("South Africa (SCRUM 100) v Australia (SCRUM 100, played by the bot equilibrium), group, turn 1;")
    prompts = [i for i, line in enumerate(lines) if line.startswith("Order for South Africa as FORCE FLAIR")]
    assert len(prompts) == 3, result.output
    help_ends = next(i for i, line in enumerate(lines) if line.lstrip().startswith("Stopping: "))
    assert lines[help_ends + 1] == heading and help_ends + 2 == prompts[1]
    assert lines[prompts[1] + 1].startswith("Group A") and lines[prompts[2] - 1] == heading


@pytest.mark.parametrize("columns", [66, 74])
def test_a_match_report_side_by_side_keeps_a_winners_bonus_whole(columns: int) -> None:
    """Between 60 and 80 columns (a split tmux pane) the two sides of a report stand side by side in
    cells about 30 wide, and the winner's 'order 2+18 SCRUM 100->90 (+10 win)' broke as '(+10' with
    'win)' alone on the next line, read as a line of its own. It breaks between phrases now, as the
    stacked layout's does, the bonus kept whole under its SCRUM."""
    result = runner.invoke(app, ["play", "--auto", "--seed", "split", "--no-save"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output[-2000:]
    cells = [cell.strip() for line in result.output.splitlines() for cell in line.split("│")]
    bonuses = [cell for cell in cells if "(+10" in cell]
    assert bonuses and all(cell.endswith("(+10 win)") for cell in bonuses), bonuses
    assert "(+10 win)" in cells  # the bonus moved under its SCRUM where the line is too long ...
    assert "order 2+18 SCRUM 100->80" in cells  # ... and the rest of the line kept on one


def test_an_order_naming_a_team_is_refused_saying_whose_order_is_asked() -> None:
    """A first-time player typed the team with the order, 'fiji 20 9' (a team not theirs), and was
    told only that it is 3 words. The refusal now says that the line names a team, that the numbers
    go alone, which team the order is for and what the named team is to them (seed first: Player 1
    manages South Africa and France; Fiji is a bot's)."""
    said = _refusals("fiji 20 9\nFrance 20 9\nsouth-africa,20,9\nNew Zealand\n")
    assert said == [
        "Refused: 'fiji 20 9' names a team; type the two numbers alone, e.g. '20 9': this order is for South Africa; "
        "Fiji is not one of your teams. Try again.",
        "Refused: 'France 20 9' names a team; type the two numbers alone, e.g. '20 9': this order is for South Africa, "
        "and France's is asked for in its turn. Try again.",
        "Refused: 'south-africa,20,9' names a team; type the two numbers alone, e.g. '20 9': this order is for South "
        "Africa. Try again.",
        "Refused: 'New Zealand' names a team; type the two numbers alone, e.g. '20 9': this order is for South Africa; "
        "New Zealand is not one of your teams. Try again.",
    ]


def test_the_start_says_which_teams_each_person_types_for() -> None:
    """Alone against the bots, a first-time player found their teams in the draw as '(Player 1)'
    and nothing said that Player 1 was them; the bots' teams were listed, theirs were not. The start
    now says it, for each person at the keyboard (seed first: South Africa and France)."""
    alone = runner.invoke(app, ["play", "--players", "4", "--seed", "first", "--no-save"], input="", env={"COLUMNS": "200"})
    two = runner.invoke(
        app, ["play", "--players", "4", "--names", "Ann,Bob", "--seed", "first", "--no-save"], input="", env={"COLUMNS": "200"}
    )
    bots = runner.invoke(app, ["play", "--auto", "--seed", "first", "--no-save"], env={"COLUMNS": "200"})
    assert "\nYou are Player 1: you type the orders of South Africa, France\nPlayed by the bot" in alone.output
    assert "\nAnn types the orders of South Africa, France\nBob types the orders of Great Britain, Argentina\n" in two.output
    assert "types the orders" not in bots.output and "you type" not in bots.output


def test_two_of_ones_own_teams_meeting_get_odds_against_the_order_just_sent() -> None:
    """In a knockout between two of one person's teams, the second order's odds were against 'an
    even-paced order' while the first order, typed a moment before by the same person, was on the
    screen above. They are now against that order (seed own8: South Africa meets Great Britain in a
    semi-final). Another person's order is never used so (R13): in a game of four people at one
    keyboard, every odds line against another person's team is against the even-paced yardstick."""
    alone = runner.invoke(
        app, ["play", "--players", "4", "--seed", "own8", "--no-save"], input="12 6\ny\n" * 20, env={"COLUMNS": "200"}
    )
    semi = alone.output[alone.output.index("Turn 4: semi-final"):]
    first, second = [line for line in semi.splitlines() if "12 FORCE + 6 FLAIR: expected" in line][:2]
    assert "against an even-paced order, 0+33:" in first
    assert "against the order you sent for South Africa, 12+6: win 49.6%, level after count-back 0.84%, loss 49.6%" in second
    two = runner.invoke(
        app, ["play", "--players", "4", "--humans", "4", "--seed", "own8", "--no-save"],
        input="\n12 6\ny\n12 6\ny\n" * 30, env={"COLUMNS": "200"},
    )
    heading = ""
    against_people = 0
    for line in two.output.splitlines():
        if " (SCRUM " in line and ", turn " in line:
            heading = line
        elif "FORCE + 6 FLAIR: expected" in line:
            if "the order you sent" in line:
                assert "your team too" in heading, (heading, line)
            if "'s team)" in heading:  # another person's team: the yardstick, never their order
                assert "against an even-paced order" in line, (heading, line)
                against_people += 1
    assert against_people > 0


def test_the_first_help_says_where_a_newcomer_starts_and_the_order_help_that_scrum_lasts_the_tournament() -> None:
    """`sevens --help` listed eight commands, from odds to import, and said nothing of which one a
    person who has never played should try; it now says 'sevens play' (against the bots) and '?' at
    an order for the rules. That help said points ordered are spent, but not that the 100 SCRUM a
    team starts with must last it the whole tournament, which is what pacing is about (R4)."""
    about = " ".join(runner.invoke(app, ["--help"], env={"COLUMNS": "400"}).output.split())
    assert "New to the game? Start with 'sevens play': you against the bots; type ? at an order for the rules." in about
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "first", "--no-save"], input="?\n", env={"COLUMNS": "400"})
    assert (
        "SCRUM must last the whole tournament: every team starts with 100, points ordered are spent, win or lose, "
        "and the winner gains 10 for its next match." in result.output
    )
