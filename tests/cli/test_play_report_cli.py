"""``sevens play`` says why a match and a group went as they did, as the web's pages do: how each
side's dice scored, and what separated teams level on league points (R1, R2, R8)."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from sevens.cli.main import app
from sevens.cli.play import _fixtures_table
from sevens.cli.render import team_story
from sevens.rules import Order, seed_commitment
from sevens.tournament import Player, PlayerId, TurnOrder, draw_game, new_game, resolve_turn
from sevens.tournament.formats import default_format

runner = CliRunner()

# Each criterion after league points as a record names it, and as the sentence under a table says it (R8).
_STEPS = [("tries_for", "tries scored", ""), ("points_for", "points scored", ""),
          ("tries_against", "tries conceded", " (fewer is better)"),
          ("points_against", "points conceded", " (fewer is better)")]


def _auto_game(tmp_path: Path, seed: str, columns: int = 100, players: int = 4) -> tuple[str, dict[str, object]]:
    path = tmp_path / f"{seed}.json"
    result = runner.invoke(
        app, ["play", "--auto", "--players", str(players), "--seed", seed, "--record", str(path)],
        env={"COLUMNS": str(columns)},
    )
    assert result.exit_code == 0, result.output
    return result.output, json.loads(path.read_text())


def _figures(words: str) -> int:
    """The points a side's scoring words add up to: each "FORCE n:" and "FLAIR n:"."""
    return sum(int(n) for n in re.findall(r"(?:FORCE|FLAIR) (\d+):", words))


@pytest.mark.parametrize("columns", [40, 100])
def test_every_match_report_says_how_each_side_scored(tmp_path: Path, columns: int) -> None:
    """The terminal showed the faces and the line (25 (3T 2C 1P 1DG)) but not which throw made
    what; the web's report says it a side a line. Here every side of every match has its line, and
    its FORCE and FLAIR figures add up to the points the record gives it; at 40 columns it wraps
    with the name and each figure whole."""
    out, record = _auto_game(tmp_path, "scored", columns)
    said = " ".join(out.split())
    name = {team["id"]: team["name"] for team in record["teams"]}  # type: ignore[index, union-attr]
    # Each match's report runs from its title to the next one's.
    titles = {m.group(1): m.start() for m in re.finditer(r"\b(t\d+-m\d+) [a-z-]+(?: [A-Z])?:", said)}
    starts = sorted(titles.values())
    report = {match: said[at:dict(itertools.pairwise([*starts, len(said)]))[at]] for match, at in titles.items()}
    sides = 0
    for turn in record["turns"]:  # type: ignore[attr-defined]
        for match in turn["matches"]:
            text = report[match["id"]]
            at = {side: re.search(rf"{re.escape(name[match[side]])}: (?=FORCE \d+:|FLAIR \d+:)", text)
                  for side in ("home", "away")}
            assert at["home"] is not None and at["away"] is not None, text
            home, away = text[at["home"].end():at["away"].start()], text[at["away"].end():]
            assert _figures(home) == match["home_line"]["points"], (match["id"], home)
            assert _figures(away) == match["away_line"]["points"], (match["id"], away)
            sides += 2
    assert sides == 2 * sum(len(t["matches"]) for t in record["turns"])  # type: ignore[attr-defined]
    if columns == 40:
        assert max(len(line) for line in out.splitlines() if "FORCE" in line and ":" in line and "|" not in line) <= 40


def test_a_side_that_ordered_nothing_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """0+0 throws no die, so there is nothing to say of its dice: it says so, as the web's report does."""
    (tmp_path / "nothing_bot.py").write_text(
        "from sevens.bots import EvenSpread\nfrom sevens.rules import Order\n\n\nclass Nothing(EvenSpread):\n"
        "    def order(self, view, rng):\n        return Order(0, 0)\n"
    )
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["play", "--auto", "--seed", "none", "--bots", "nothing_bot:Nothing"],
                           env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    # Every side of the 12 group matches and the 3 knockouts.
    assert said.count(": nothing ordered, nothing thrown") == 2 * 15


def _separations(rows: list[dict[str, object]], name: dict[str, str]) -> list[str]:
    """The sentences expected under a final group table, worked out here from its rows: for two
    neighbours on the same league points, the first count on which they differ."""
    expected = []
    for upper, lower in itertools.pairwise(rows):
        if upper["league_points"] != lower["league_points"]:
            continue
        step = next(((key, words, fewer) for key, words, fewer in _STEPS if upper[key] != lower[key]), None)
        if step is None:
            continue  # head-to-head or lots: their figures come from matches the rows do not give
        key, words, fewer = step
        expected.append(f"{name[str(upper['team'])]} above {name[str(lower['team'])]} on {words}, "
                        f"{upper[key]} to {lower[key]}{fewer}")
    return expected


@pytest.mark.parametrize("columns", [40, 100])
def test_group_tables_say_what_separated_teams_on_the_same_league_points(tmp_path: Path, columns: int) -> None:
    """The table's "Decided by" names a count ("points scored") but not against whom nor the figures;
    the web says "Australia above Fiji on points scored, 97 to 93" under the table. The last table
    of each group, after its third turn, says each of those sentences here too."""
    out, record = _auto_game(tmp_path, "3", columns)
    said = " ".join(out.split())
    name = {team["id"]: team["name"] for team in record["teams"]}  # type: ignore[index, union-attr]
    groups = record["groups"]
    assert isinstance(groups, dict)
    found = 0
    last_tables = said[said.index("Turn 3: group"):said.index("Knockouts")]
    for rows in groups.values():
        for sentence in _separations(rows, name):
            assert sentence in last_tables, (sentence, last_tables[-1500:])
            found += 1
    assert found  # seed 3 has teams level on league points in both groups
    assert said.count("Level on league points: ") >= found // 2


def test_m_at_the_order_prompt_lists_each_teams_whole_tournament(tmp_path: Path) -> None:
    """The web has a page per team with its every match; the terminal had no way to see a team's
    results again once they scrolled by. ``m`` at turn 2 lists this team's and its opponent's
    turn 1 (opponent, outcome, both orders, SCRUM before and after), checked here against the
    record; ``m NAME`` any team's; a name no team has is refused, saying what to type."""
    path = tmp_path / "game.json"
    typed = "0 0\ny\n" * 2 + "m\nm Nowhere\n" + "0 0\ny\n" * 40
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "story", "--no-save", "--record", str(path)],
                           input=typed, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    name = {team["id"]: team["name"] for team in record["teams"]}
    out = result.output
    at = out.index("(? for help): m\n")
    story = out[at:out.index("(? for help): m Nowhere", at)]
    prompted = re.findall(r"Order for (.+?) as FORCE FLAIR", out[:at])[-1]
    ours = next(t for t, n in name.items() if n == prompted)
    second = next(m for m in record["turns"][1]["matches"] if ours in (m["home"], m["away"]))
    for team in (second["home"], second["away"]):  # the prompt's team and its opponent
        match = next(m for m in record["turns"][0]["matches"] if team in (m["home"], m["away"]))
        own, other = ("home", "away") if match["home"] == team else ("away", "home")
        outcome = "drew" if match["winner"] is None else "won" if match["winner"] == team else "lost"
        before, after = match["scrum"][team]["before"], match["scrum"][team]["after"]
        spent = match[f"{own}_order"]["force"] + match[f"{own}_order"]["flair"]
        bonus = ", +10 win" if match["winner"] == team else ""
        assert f"{name[team]}, group {match['group']}:" in story, story
        assert (
            f"Turn 1, group: v {name[match[other]]}, {outcome} {match['summary']}; "
            f"order {match[f'{own}_order']['force']}+{match[f'{own}_order']['flair']} against "
            f"{match[f'{other}_order']['force']}+{match[f'{other}_order']['flair']}; "
            f"SCRUM {before}->{after} (spent {spent}{bonus})"
        ) in story, story
        # Its match of the open turn is named, with no order of it (R13).
        opponent = second["away"] if team == second["home"] else second["home"]
        assert f"Turn 2, group: v {name[opponent]}, to play." in story, story
    assert story.count("Turn 2, group:") == 2
    assert "Refused: no team is named 'Nowhere'" in " ".join(out.split())


def test_m_in_a_shared_terminal_shows_no_order_of_the_open_turn(tmp_path: Path) -> None:
    """R13 at one keyboard: Ann types Fiji's order for turn 2, then Bob, at his prompt, asks for
    Fiji's matches (m Fiji): the list names Fiji's turn-2 match and no order of it. Once turn 2 is
    resolved, m Fiji shows that order, so the check below would see it if it leaked."""
    path = tmp_path / "game.json"
    turn = "\n" + "0 0\ny\n" * 2  # Enter at the hand-over, then the person's two orders
    typed = (turn * 2 + "\n17 6\ny\n0 0\ny\n" + "\nm Fiji\n" + "0 0\ny\n" * 2
             + "\nm Fiji\n" + "0 0\ny\n" * 2 + ("\n" + "0 0\ny\n" * 2) * 12)
    result = runner.invoke(app, ["play", "--humans", "2", "--names", "Ann,Bob", "--seed", "story", "--no-save",
                                 "--record", str(path)], input=typed, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Ann types the orders of Fiji" in out  # the draw the typed lines are for
    first = out.index("(? for help): m Fiji\n")
    second = out.index("(? for help): m Fiji\n", first + 1)
    open_turn = out[first:out.index("Order for", first)]
    assert re.search(r"Turn 2, group: v [A-Za-z ]+, to play\.", open_turn), open_turn
    assert "17+6" not in open_turn and "Turn 2, group: v" in open_turn, open_turn
    resolved = out[second:out.index("Order for", second)]
    assert re.search(r"Turn 2, group: v [A-Za-z ]+, \w+ [^;]+; order 17\+6 against", resolved), resolved


def test_m_tells_a_knockout_loser_on_count_back_who_won() -> None:
    """A knockout level on points is won on count-back (R9), and its summary says "won on group
    record" of the winner; the loser's line read "lost 0-0, level on count-back, won on group
    record", as if it had won. It now names the winner there, as its "Out in the ..." line did."""
    people = [Player(PlayerId(f"p{i}"), f"Player {i}") for i in range(1, 5)]
    seed = "5e" * 32
    game = new_game(draw_game(people, default_format(4), seed_sha256=seed_commitment(seed), draw_seed=1))
    while not game.finished:  # every order 0+0: every match 0-0, every knockout on count-back
        game = resolve_turn(game, {t: TurnOrder(t, Order(0, 0)) for t in game.teams_in_play()}, seed)
    losers = 0
    for turn in game.turns[3:]:
        for match in turn.matches:
            assert match.loser is not None and ", won " in match.summary
            winner = game.setup.team(match.winner).name
            lines = [line for line in team_story(game, match.loser) if line.startswith(f"  Turn {turn.number}, ")]
            assert len(lines) == 1 and ", lost 0-0, level on count-back" in lines[0], lines
            assert f", {winner} won " in lines[0], lines
            won = [line for line in team_story(game, match.winner) if line.startswith(f"  Turn {turn.number}, ")]
            assert ", won 0-0, level on count-back" in won[0] and f", {winner} won " not in won[0], won
            losers += 1
    assert losers == 3  # both semi-finals and the final


def test_m_marks_an_order_the_autopilot_played() -> None:
    """R13: the match report marks a missed order "missed: autopilot even (R13)"; m's line gave it
    as the team's own. m now marks it in the report's words, and leaves an order sent as it is."""
    people = [Player(PlayerId(f"p{i}"), f"Player {i}") for i in range(1, 5)]
    seed = "5e" * 32
    game = new_game(draw_game(people, default_format(4), seed_sha256=seed_commitment(seed), draw_seed=1))
    missed = set(game.teams_in_play()[::2])  # each home team's manager sent nothing
    orders = {t: TurnOrder(t, Order(10, 9) if t in missed else Order(4, 3), t in missed, "even" if t in missed else None)
              for t in game.teams_in_play()}
    game = resolve_turn(game, orders, seed)
    for team in orders:
        (line,) = (line for line in team_story(game, team) if line.startswith("  Turn 1, "))
        other = next(m.away.team if m.home.team == team else m.home.team for m in game.turns[0].matches
                     if team in (m.home.team, m.away.team))
        own, theirs = ("10+9, missed: autopilot even (R13)" if t in missed else "4+3" for t in (team, other))
        then = "," if team in missed else ""  # the note is set off from what follows
        assert f"; order {own}{then} against {theirs}; SCRUM " in line, line


def test_play_help_says_what_the_order_prompt_takes_besides_an_order() -> None:
    """? t and m were said only by ? at the prompt, once a game had begun: a player reading
    ``sevens play --help`` first learnt none of them."""
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.replace("│", " ").split())
    assert "type FORCE then FLAIR (20 9); ? there explains the game, t shows the group tables, m every match so far" in said


def test_the_scoring_lines_read_whole_in_an_output_that_is_ascii_only(tmp_path: Path) -> None:
    """A game written to an output in ASCII (PYTHONIOENCODING=ascii, an old log's locale) showed
    the '·' between a side's FORCE and FLAIR as '?', which reads as a question: it is '|' there,
    as between the FORCE and FLAIR dice."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"), "PYTHONIOENCODING": "ascii",
           "COLUMNS": "100"}
    run = subprocess.run([sys.executable, "-m", "sevens", "play", "--auto", "--seed", "3"], cwd=tmp_path, env=env,
                         capture_output=True, timeout=600, check=False)
    assert (run.returncode, run.stderr) == (0, b"")
    shown = " ".join(run.stdout.decode("ascii").split())
    both = re.findall(r"FORCE \d+: [^|?]*? ([|?]) FLAIR \d+:", shown)
    assert both and set(both) == {"|"}, shown[:2000]


def test_m_shows_the_next_person_no_order_typed_before_them_this_turn() -> None:
    """R13 at one keyboard: Ann types 13 6 for each of her teams at turn 2; Bob, at his turn, asks
    for every team's matches with m NAME, Ann's teams too. He sees turn 1 (resolved, public) and
    that turn 2 is to play, and nothing of the 13+6 typed a moment before."""
    args = ["play", "--players", "4", "--names", "Ann,Bob", "--seed", "secret", "--no-save"]
    draw = runner.invoke(app, args, input="")
    said = " ".join(draw.output.split())
    found = re.search(r"Ann types the orders of (.+?) Bob types the orders of (.+?) Played by", said)
    assert found is not None, said
    everyone = [team for names in found.groups() for team in names.split(", ")]
    assert len(everyone) == 4, everyone
    turn_1 = "\n10 9\ny\n10 9\ny\n" * 2
    asks = "".join(f"m {team}\n" for team in everyone)
    typed = turn_1 + "\n13 6\ny\n13 6\ny\n" + "\n" + asks + "10 9\ny\n10 9\ny\n"
    result = runner.invoke(app, args, input=typed, env={"COLUMNS": "120"})
    out = result.output
    start = out.index("Turn 2: group")
    bob = out[out.index("Bob: your orders are secret", start):]
    bob = bob[:bob.index("t2-m1 group")]  # up to the turn's results
    assert all(f"m {team}" in bob for team in everyone), bob
    assert bob.count("Turn 2, group: v ") == 4 and bob.count("Turn 1, group: v ") == 4, bob
    assert "13+6" not in bob and "13 FORCE" not in bob, bob
    assert "13+6" in out[out.index("t2-m1 group"):]  # resolved, Ann's order is public


def test_a_quarter_final_turn_is_listed_in_the_order_of_its_bracket(tmp_path: Path) -> None:
    """R11 pairs the winners of quarter-finals 1 and 3, so the bracket draws them 1, 3, 2, 4; the
    turn's matches and its match reports went 1, 2, 3, 4, and the second and third swapped places
    between a list and the bracket under it. Both follow the bracket now, as the web's pages do."""
    out, record = _auto_game(tmp_path, "bracket", columns=200, players=16)
    turn = next(t for t in record["turns"] if t["stage"] == "quarter-final")  # type: ignore[attr-defined]
    reports = re.findall(rf"\b(t{turn['number']}-m\d) quarter-final:", " ".join(out.split()))
    assert reports == [f"t{turn['number']}-m{n}" for n in (1, 3, 2, 4)], reports
    # The open turn's table, as the order prompt shows it, of a game at its quarter-finals.
    people = [Player(PlayerId(f"p{i}"), f"Player {i}") for i in range(1, 17)]
    seed = "5e" * 32
    game = new_game(draw_game(people, default_format(16), seed_sha256=seed_commitment(seed), draw_seed=1))
    while game.stage is None or not game.stage.knockout:
        game = resolve_turn(game, {t: TurnOrder(t, Order(0, 3)) for t in game.teams_in_play()}, seed)
    console = Console(width=120, record=True)
    console.print(_fixtures_table(game))
    shown = console.export_text()
    assert re.findall(r"\bt\d+-m(\d)\b", shown) == ["1", "3", "2", "4"], shown
    homes = [game.setup.team(f.home).name for f in game.fixtures()]
    assert [shown.index(homes[i]) for i in (0, 2, 1, 3)] == sorted(shown.index(h) for h in homes), shown
