"""What a player alone against the bots met in the terminal's wording (task solo1)."""

from __future__ import annotations

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
