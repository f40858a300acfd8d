"""sevens play's odds line against a bot that mixes: against its whole mix where it says what it
mixes over, and said to be one typical order where it does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sevens.cli.main import app
from sevens.cli.render import percent
from sevens.odds import match_odds, mix_odds
from sevens.rules import Order

runner = CliRunner()


def _odds_lines(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if "FORCE + 9 FLAIR: expected" in line]


def test_the_odds_against_a_pacing_bot_are_against_its_whole_mix() -> None:
    """'even' at 20 points orders 11+9 5/8 of the time and 8+12 3/8 (its jitter). The odds were
    against one draw of it ("a typical order of its bot even, 11+9"); they are now against both,
    each weighted by its chance, and the line says which orders and how often."""
    result = runner.invoke(app, ["play", "--players", "4", "--bots", "even", "--seed", "people", "--no-save"],
                           input="10 9\ny\n" * 12, env={"COLUMNS": "300"})
    first = _odds_lines(result.output)[0]
    mix = ((Order(11, 9), 0.625), (Order(8, 12), 0.375))
    odds = mix_odds(Order(10, 9), mix, knockout=False)
    assert first == (
        "10 FORCE + 9 FLAIR: expected 25.53 points; against its bot even's mix of 2 orders (11+9 62.5%, 8+12 37.5%): "
        f"win {percent(odds.win)}, draw {percent(odds.draw)}, loss {percent(odds.loss)}"
    )
    alone = [match_odds(Order(10, 9), order).win for order, _ in mix]
    assert min(alone) < odds.win < max(alone)


def test_the_knockout_odds_against_the_random_bot_are_against_an_even_sample_of_its_mix_said_so() -> None:
    """'random' mixes hundreds of orders; in a knockout its odds against each would take minutes, so
    they are against an even sample of 12 (MIX_MOST), and the line says so."""
    result = runner.invoke(app, ["play", "--players", "4", "--bots", "random", "--seed", "people", "--no-save"],
                           input="10 9\ny\n" * 12, env={"COLUMNS": "300"})
    lines = _odds_lines(result.output)
    assert "against its bot random's mix of 1,751 orders (by an even sample of " in lines[0]
    knockout = [line for line in lines if "level after count-back" in line and "its bot random" in line]
    assert knockout and all("by an even sample of 12 of them, not exact)" in line for line in knockout), knockout


def _play_against_own_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str, source: str, bot: str, *, seed: str, columns: int
) -> Any:
    """A 4-player game against a bot of one's own, written as ``module``.py in the folder the game
    is played from, each order answered 10 9 and sent."""
    (tmp_path / f"{module}.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    return runner.invoke(app, ["play", "--players", "4", "--bots", f"{module}:{bot}", "--no-save", "--seed", seed],
                         input="10 9\ny\n" * 12, env={"COLUMNS": str(columns)})


def test_a_bot_that_does_not_say_what_it_mixes_over_gets_one_typical_order_said_to_be_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = ("from sevens.rules import Order\n\n\nclass Jitter:\n    name = 'jitter'\n\n"
              "    def order(self, view, rng):\n        return Order(force=rng.choice([9, 12]), flair=9)\n")
    result = _play_against_own_bot(tmp_path, monkeypatch, "jitter_bots", source, "Jitter", seed="j", columns=300)
    first = _odds_lines(result.output)[0]
    assert "against one typical order of its bot jitter_bots:Jitter (it does not say what it mixes over), " in first


def test_a_bot_whose_mix_raises_leaves_the_odds_out_saying_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = ("from sevens.bots import EvenSpread\n\n\nclass Boom(EvenSpread):\n"
              "    def order_mix(self, view):\n        raise RuntimeError('no mix today')\n")
    result = _play_against_own_bot(tmp_path, monkeypatch, "mix_boom", source, "Boom", seed="m", columns=400)
    said = " ".join(result.output.split())
    assert "no odds against its bot mix_boom:Boom, which raised RuntimeError: no mix today at " in said
    assert "when asked what it mixes over (if its real order fails the same way" in said


@pytest.mark.parametrize(("given", "said"), [
    ("'eleven'", "gave a mix of orders that is refused (not enough values to unpack (expected 2, got 1); a mix is "),
    # Endless, the odds line never came; 200,000 is as far as the test waits without the cap.
    ("itertools.repeat((Order(force=5, flair=3), 1.0), 200_000)",
     "gave a mix of orders that is refused (more than 20,000 (order, chance) pairs; a mix names each order it "),
])
def test_a_bot_whose_mix_is_junk_or_too_long_leaves_the_odds_out_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str, said: str
) -> None:
    """Refused as the web's live odds refuse it (sevens.bots.plausible_orders): the web leaves the
    bot's row out (tests/web/test_web_odds_junk_bots.py), the terminal says why."""
    source = ("import itertools\n\nfrom sevens.bots import EvenSpread\nfrom sevens.rules import Order\n\n\n"
              f"class Junk(EvenSpread):\n    def order_mix(self, view):\n        return {given}\n")
    module = f"mix_junk_{len(given)}"  # one module per case: Python keeps the first one imported
    result = _play_against_own_bot(tmp_path, monkeypatch, module, source, "Junk", seed="m", columns=400)
    assert f"no odds against its bot {module}:Junk, which {said}" in " ".join(result.output.split())
