"""What a player alone against the bots met in the terminal's wording (task solo1)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from sevens.cli.main import app

runner = CliRunner()


def test_the_final_says_it_is_the_last_match_not_at_most_1_matches_left() -> None:
    """Before the final the order's heading said 'at most 1 matches left if you keep winning': bad
    English, and 'at most' of a match that is certainly the last. It now says that it is the last
    match and that no SCRUM is of use after it (R4: SCRUM only buys dice)."""
    result = runner.invoke(
        app,
        ["play", "--players", "4", "--humans", "4", "--names", "Ann,Bob,Cy,Di", "--seed", "last", "--no-save"],
        input="\n3 3\ny\n" * 200,
        env={"COLUMNS": "100"},
    )
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "1 matches" not in out
    final = out[out.index("Turn 5: final"):]
    assert "final, turn 5; the last match: no SCRUM is of use after it." in " ".join(final.split()), final[:1500]
    assert "at most 2 matches left if you keep winning." in " ".join(out.split())


def test_where_the_game_is_kept_is_said_in_words_that_fit_and_the_command_on_a_line_of_its_own(tmp_path: Path) -> None:
    """At the start, 'The game is kept in ... (it is removed then).' was one line left for the
    terminal to wrap, which at 80 columns cut words in two ('carry it o' / 'n with', 'the g' / 'ame
    is over'); so did 'Carried on from ...'. The prose now wraps between words within the width and
    the command that carries the game on has a line of its own, whole, to be copied."""
    kept = tmp_path / "kept.json"
    started = runner.invoke(app, ["play", "--players", "4", "--seed", "w", "--save", str(kept)], input="", env={"COLUMNS": "80"})
    carried = runner.invoke(app, ["play", "--resume", str(kept)], input="", env={"COLUMNS": "80"})
    for result, first, last in (
        (started, "The game is kept in", f"  sevens play --resume {kept}"),
        (carried, "Carried on from", "─"),
    ):
        assert result.exit_code == 1, result.output
        lines = result.output.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith(first))
        end = next(i for i in range(start, len(lines)) if lines[i].startswith(last))
        prose = lines[start:end]
        assert prose and all(len(line) <= 80 for line in prose), prose
        assert "keep it to yourself until the game is over (it is removed then)." in " ".join(" ".join(prose).split())
    assert f"  sevens play --resume {kept}" in started.output.splitlines()


def _bracket_rows(output: str) -> list[list[tuple[str, str]]]:
    """The last boxed bracket's rows: for each, every column's (match, who went through)."""
    table = output[output.rindex("Knockouts"):]
    lines = table[table.index("┡"):table.index("└")].splitlines()[1:]
    cells = [[cell.strip() for cell in line.split("│")[1:-1]] for line in lines]
    return [list(zip(top, bottom, strict=True)) for top, bottom in zip(cells[::2], cells[1::2], strict=True)]


def test_the_bracket_puts_each_match_beside_the_two_it_follows() -> None:
    """R11: the semi-finals are (winner of quarter-final 1 v winner of 3) and (2 v 4). The bracket
    listed the quarter-finals 1, 2, 3, 4 with the semi-finals on the first two rows, so the first
    semi-final stood beside the first two quarter-finals while it followed the first and the third.
    The quarter-finals are now drawn 1, 3, 2, 4 and each semi-final (and the final) beside the two
    matches it follows."""
    result = runner.invoke(app, ["play", "--auto", "--players", "16", "--seed", "solo1"], env={"COLUMNS": "130"})
    assert result.exit_code == 0, result.output[-2000:]
    rows = _bracket_rows(result.output)
    assert len(rows) == 4
    through = [row[0][1].removeprefix("-> ").split(" on ")[0] for row in rows]
    for semi, (first, second) in ((0, (0, 1)), (2, (2, 3))):
        match = rows[semi][1][0]
        assert match.startswith(through[first] + " ") and match.endswith(" " + through[second]), (match, through)
    assert rows[1][1] == ("", "") and rows[3][1] == ("", "")
    final = rows[0][2][0]
    semis = [rows[0][1][1].removeprefix("-> ").split(" on ")[0], rows[2][1][1].removeprefix("-> ").split(" on ")[0]]
    assert final.startswith(semis[0] + " ") and final.endswith(" " + semis[1]), (final, semis)


def test_two_of_ones_own_teams_meeting_are_said_to_be_both_yours() -> None:
    """Alone against the bots, two of one's own teams met in a semi-final (seed own8) and the order's
    heading called the opponent 'Player 1's team', as if someone else's; it is now 'your team too'."""
    result = runner.invoke(
        app, ["play", "--players", "4", "--seed", "own8", "--no-save"], input="12 6\ny\n" * 20, env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output[-2000:]
    semi = result.output[result.output.index("Turn 4: semi-final"):]
    assert "v Great Britain (SCRUM 66, your team too), semi-final, turn 4" in semi
    assert "Player 1's team" not in result.output


def test_one_number_or_an_empty_line_is_refused_saying_what_is_missing() -> None:
    """An order of one number ('21', FLAIR forgotten) or an empty line (Enter pressed early) got
    only 'type two whole numbers, ...'; the refusal now says which it was and, for one number,
    how to order no FLAIR. An empty line is never an order of 0 + 0 (as the web's empty boxes are
    not): it says that nothing was sent and how to spend nothing, and '0 0' is then an order."""
    result = runner.invoke(
        app, ["play", "--players", "4", "--seed", "one", "--no-save"], input="21\n\n0 0\ny\n", env={"COLUMNS": "200"}
    )
    said = " ".join(result.output.split())
    assert "'21' is one number: add FLAIR after it, '21 0' for none. Try again." in said
    assert "(FLAIR a multiple of 3); the line was empty, so nothing was sent: '0 0' spends nothing this match. Try again." in said
    assert "0 FORCE + 0 FLAIR: expected 0.00 points" in said


def test_a_knockout_order_says_who_a_level_match_goes_to() -> None:
    """R9: a knockout match level after count-back goes to the better group record, then lots. The
    web's order form says which team that is and on which count; the terminal said nothing, so a
    player had to work it out from the tables. It now says it above each knockout order, and only
    there (seed own8: South Africa 6 league points, Great Britain 4; in the final Fiji and South
    Africa level on league points, Fiji ahead on tries)."""
    result = runner.invoke(
        app, ["play", "--players", "4", "--seed", "own8", "--no-save"], input="12 6\ny\n" * 20, env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    said = "If it ends level on points, tries, conversions and drop goals, the better group record goes through (R9): "
    groups, semi, final = out[: out.index("Turn 4: semi-final")], out[out.index("Turn 4: semi-final"):out.index("Turn 5: final")], out[out.index("Turn 5: final"):]
    assert "If it ends level" not in groups
    assert semi.count(said + "South Africa, on league points 6-4.") == 2
    assert said + "Fiji, on tries scored 14-13." in final


def test_knockout_odds_put_level_between_win_and_loss_as_a_draw_is() -> None:
    """A group order's odds read 'win, draw, lose' and the web's knockout odds 'win, level
    (count-back), loss'; the terminal's knockout odds read 'win, lose, level after count-back', the
    middle outcome last. They then read 'win, level after count-back, lose', and now name the loss
    as sevens odds and the web do: 'win, level after count-back, loss'."""
    result = runner.invoke(
        app, ["play", "--players", "4", "--seed", "own8", "--no-save"], input="12 6\ny\n" * 20, env={"COLUMNS": "200"}
    )
    groups, out = result.output.split("Turn 4: semi-final", 1)
    assert re.search(r"win [\d.<>]+%, draw [\d.<>]+%, loss [\d.<>]+%", groups), groups[:3000]
    assert re.search(r"win [\d.<>]+%, level after count-back [\d.<>]+%, loss [\d.<>]+%", out), out[:3000]
    assert ", lose " not in result.output and not re.search(r"loss [\d.<>]+%, level", out)


def test_your_team_too_is_not_split_in_a_narrow_terminal() -> None:
    """At 50 columns the heading broke as '... (SCRUM 66, your' / 'team too), ...' (seed n50, 16
    teams: Germany and Argentina, both the player's, meet in a quarter-final)."""
    result = runner.invoke(
        app, ["play", "--players", "4", "--teams", "16", "--seed", "n50", "--no-save"],
        input="12 6\ny\n" * 40, env={"COLUMNS": "50"},
    )
    lines = [line.strip() for line in result.output.splitlines()]
    assert any("your team too" in line for line in lines), result.output[-3000:]
    assert not any(line.endswith("your") for line in lines)


def test_once_all_ones_teams_are_out_the_game_says_the_bots_play_the_rest() -> None:
    """Alone with one team out after the groups (16 players, seed out1), the quarter-finals, semi-finals
    and final scrolled by with no word, and the player wondered whether a prompt would come. The game
    now says once, before the next turn, that the bots play the rest without asking."""
    result = runner.invoke(
        app, ["play", "--players", "16", "--seed", "out1", "--no-save"], input="3 3\ny\n" * 3, env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    said = "All your teams are out: the bots play the rest of the game without asking."
    assert out.count(said) == 1
    assert out.index("Turn 3: group") < out.index(said) < out.index("Turn 4: quarter-final")
