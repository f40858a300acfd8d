"""``sevens table FILE``: group tables for results typed in by hand."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sevens.cli.main import app
from sevens.rules import FairDice
from sevens.tournament.lots import draw_lots


def _line(tries: int = 0, conversions: int = 0, penalties: int = 0, drop_goals: int = 0) -> dict[str, int]:
    return {"tries": tries, "conversions": conversions, "penalties": penalties, "drop_goals": drop_goals}


def _match(home: str, away: str, home_line: dict[str, int], away_line: dict[str, int]) -> dict[str, Any]:
    return {"home": home, "away": away, "home_line": home_line, "away_line": away_line}


NIL = _line()
TRY = _line(tries=1)

# fiji wins all three 5-0: 6 league points. samoa and tonga each lose to fiji, beat wales and
# draw 0-0 with each other: 3 league points. samoa beat wales with a converted try (7), tonga
# with a try and a drop goal (8): one try each, so tonga is 2nd on points scored. wales 0.
DECIDED: dict[str, Any] = {
    "teams": ["wales", "tonga", "samoa", "fiji"],
    "matches": [
        _match("fiji", "samoa", TRY, NIL),
        _match("fiji", "tonga", TRY, NIL),
        _match("fiji", "wales", TRY, NIL),
        _match("samoa", "wales", {**_line(tries=1, conversions=1), "points": 7}, NIL),
        _match("tonga", "wales", _line(tries=1, drop_goals=1), NIL),
        _match("samoa", "tonga", NIL, NIL),
    ],
}
DECIDED_ORDER = [("fiji", 1, "league_points"), ("tonga", 2, "points_for"), ("samoa", 3, "points_for"),
                 ("wales", 4, "league_points")]

# fiji, samoa, tonga each beat wales 5-0 and draw 0-0 among themselves: level on everything,
# head-to-head included, so lots decide places 1-3.
LEVEL: dict[str, Any] = {
    "teams": ["fiji", "samoa", "tonga", "wales"],
    "matches": [
        _match("fiji", "wales", TRY, NIL),
        _match("samoa", "wales", TRY, NIL),
        _match("tonga", "wales", TRY, NIL),
        _match("fiji", "samoa", NIL, NIL),
        _match("fiji", "tonga", NIL, NIL),
        _match("samoa", "tonga", NIL, NIL),
    ],
}


def _write(tmp_path: Path, data: object, name: str = "group.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def _run(*args: str) -> Any:
    return CliRunner().invoke(app, ["table", *args])


def test_json_rows(tmp_path: Path) -> None:
    result = _run(str(_write(tmp_path, DECIDED)), "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert [(r["team"], r["position"], r["decided_by"]) for r in out["rows"]] == DECIDED_ORDER
    tonga = out["rows"][1]
    # tonga: L to fiji 0-5, W v wales 8-0, D v samoa 0-0.
    assert tonga == {
        "team": "tonga", "position": 2, "played": 3, "won": 1, "drawn": 1, "lost": 1,
        "tries_for": 1, "tries_against": 1, "points_for": 8, "points_against": 5,
        "league_points": 3, "decided_by": "points_for",
    }
    assert out["lots"] == []


def test_human_table(tmp_path: Path) -> None:
    result = _run(str(_write(tmp_path, DECIDED)))
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    for header in ("P", "W", "D", "L", "TF", "TA", "PF", "PA", "Pts", "Decided by"):
        assert re.search(rf"(?<!\S){header}(?!\S)", text)  # a word of its own; the last ends its line
    tonga = next(line for line in text.splitlines() if "tonga" in line)
    assert "points scored" in tonga
    assert "Lots" not in text


def test_lots_use_the_files_sha256_by_default(tmp_path: Path) -> None:
    path = _write(tmp_path, LEVEL)
    first = _run(str(path), "--json")
    assert first.exit_code == 0, first.stderr
    out = json.loads(first.stdout)
    # The documented source: FairDice seeded with SHA-256 of the file, digest "table", stream "lots".
    dice = FairDice(hashlib.sha256(path.read_bytes()).digest(), "table", "lots")
    expected = draw_lots("group: places 1-3", ["fiji", "samoa", "tonga"], dice)
    assert out["lots"] == [expected.to_dict()]
    assert [r["team"] for r in out["rows"]] == [*expected.order, "wales"]
    assert [r["decided_by"] for r in out["rows"]] == ["lots", "lots", "lots", "league_points"]
    assert _run(str(path), "--json").stdout == first.stdout


def test_lots_seed_option(tmp_path: Path) -> None:
    path = _write(tmp_path, LEVEL)
    out = json.loads(_run(str(path), "--json", "--lots-seed", "agreed 42").stdout)
    dice = FairDice(hashlib.sha256(b"agreed 42").digest(), "table", "lots")
    assert out["lots"] == [draw_lots("group: places 1-3", ["fiji", "samoa", "tonga"], dice).to_dict()]


def test_human_output_says_lots_decided(tmp_path: Path) -> None:
    result = _run(str(_write(tmp_path, {**LEVEL, "group": "Pool B"})))
    assert result.exit_code == 0, result.stderr
    assert "Lots drawn for Pool B: places 1-3 (round 1: fiji " in result.stdout
    assert "SHA-256 of the input file" in result.stdout
    # The table's rows (framed or not, as the width allows), not the note about the draw above it.
    assert sum(line.rstrip(" │").endswith(" lots") for line in result.stdout.splitlines()) == 3


def test_partial_group(tmp_path: Path) -> None:
    partial = {"teams": LEVEL["teams"], "matches": LEVEL["matches"][:2]}
    result = _run(str(_write(tmp_path, partial)), "--json")
    out = json.loads(result.stdout)
    # fiji and samoa won 5-0 (level on everything, not yet met): they share 1st. tonga (not played)
    # and wales (lost twice 0-5) have 0 league points, 0 tries and 0 points scored; tonga conceded
    # no try, wales two, so tonga is 3rd on fewest tries conceded.
    assert [(r["team"], r["position"], r["decided_by"]) for r in out["rows"]] == [
        ("fiji", 1, None), ("samoa", 1, None), ("tonga", 3, "tries_against"), ("wales", 4, "tries_against"),
    ]
    human = _run(str(_write(tmp_path, partial)))
    assert "2 of 6 matches played" in human.stdout


def _bad_match(**change: Any) -> dict[str, Any]:
    return {**DECIDED, "matches": [{**DECIDED["matches"][0], **change}, *DECIDED["matches"][1:]]}


BAD_INPUTS: dict[str, tuple[object, str]] = {
    "not json": ("{teams: [", "is not valid JSON"),
    "not an object": ([1, 2], "must hold a JSON object"),
    "no matches": ({"teams": ["a", "b"]}, 'must have "teams"'),
    "teams not ids": ({"teams": ["a", 3], "matches": []}, '"teams" must be a list of team ids'),
    "unknown field": ({**DECIDED, "venue": "x"}, "unknown field(s) venue"),
    "unknown team": (_bad_match(away="england"), "names 'england', which is not one of the group's teams"),
    "plays itself": (_bad_match(away="fiji"), "'fiji' cannot play itself; R7"),
    "duplicate fixture": (
        {**DECIDED, "matches": [*DECIDED["matches"], _match("samoa", "fiji", NIL, NIL)]},
        "already met in match 1; R7",
    ),
    "more conversions than tries": (
        _bad_match(home_line=_line(tries=1, conversions=2)),
        "match 1: home_line: R1: a line cannot have more conversions (2) than tries (1)",
    ),
    "wrong points": (
        _bad_match(away_line={**TRY, "points": 7}),
        "match 1: away_line: R1: the line says 7 points but",
    ),
    "negative tries": (_bad_match(home_line=_line(tries=-1)), "tries must be a whole number >= 0"),
    "line not an object": (_bad_match(home_line=5), "match 1: home_line: a line must be an object"),
    "missing line field": (_bad_match(home_line={"tries": 1}), "a line is missing conversions"),
    "match not an object": ({**DECIDED, "matches": ["fiji v samoa"]}, "match 1: a match must be an object"),
    "one team": ({"teams": ["a"], "matches": []}, 'a group has 4 teams (R7); "teams" lists 1'),
    "three teams": ({"teams": ["a", "b", "c"], "matches": []}, 'a group has 4 teams (R7); "teams" lists 3'),
    "five teams": ({"teams": ["a", "b", "c", "d", "e"], "matches": []}, '"teams" lists 5: list all four'),
    "nested too deep": ("[" * 100000 + "]" * 100000, "nested too deeply"),
    # json keeps the last of two equal keys without a word: a second "tries" typed over the first.
    "a key twice in a line": (
        json.dumps(DECIDED).replace('"tries": 1', '"tries": 1, "tries": 3', 1),
        'it names the key "tries" twice in one object (in matches[0].home_line): JSON readers differ',
    ),
    "a key twice at the top": (
        json.dumps(DECIDED).replace('"teams": [', '"teams": ["a", "b", "c", "d"], "teams": [', 1),
        'it names the key "teams" twice in one object (at its top level)',
    ),
}


@pytest.mark.parametrize("name", list(BAD_INPUTS))
def test_bad_input_one_line_error(tmp_path: Path, name: str) -> None:
    data, message = BAD_INPUTS[name]
    result = _run(str(_write(tmp_path, data)))
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert message in lines[0]
    assert "Traceback" not in result.stderr
    assert isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("kind", ["missing", "directory", "not utf-8"])
def test_unreadable_file(tmp_path: Path, kind: str) -> None:
    if kind == "missing":
        path = tmp_path / "nope.json"
    elif kind == "directory":
        path = tmp_path
    else:
        path = tmp_path / "latin1.json"
        path.write_bytes(b'{"teams": ["caf\xe9"]}')
    result = _run(str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("columns", [40, 50])
def test_a_narrow_terminal_shows_each_team_whole_with_its_figures_under_it(tmp_path: Path, columns: int) -> None:
    """At 40 columns a long team id left 'P…' for the place, '1…' for 105 points scored and '…' for
    whole columns. Now each team's place, id and reason go on one line and its nine figures, under
    the header's, on the next."""
    clubs = ["harlequins", "saracens", "wasps", "northampton-saints"]
    data = {"teams": clubs, "matches": [
        _match("wasps", "northampton-saints", _line(tries=20, conversions=1, drop_goals=1), _line(tries=1, penalties=2)),
        _match("harlequins", "saracens", _line(tries=2, conversions=1, drop_goals=1), _line(tries=1, penalties=2)),
    ]}
    result = CliRunner().invoke(app, ["table", str(_write(tmp_path, data))], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "…" not in result.stdout and max(len(line.rstrip()) for line in lines) <= columns
    assert lines[2].split() == ["Pos", "P", "W", "D", "L", "TF", "TA", "PF", "PA", "Pts"]
    wasps = lines.index(next(line for line in lines if "wasps" in line))
    assert lines[wasps].split() == ["1", "wasps:", "tries", "scored"]
    assert lines[wasps + 1].split() == ["1", "1", "0", "0", "20", "1", "105", "11", "2"]
    saints = next(line for line in lines if "northampton-saints" in line)
    assert saints.split()[:2] == ["4", "northampton-saints:"]


@pytest.mark.parametrize(
    ("count", "said"),
    [
        ("1000", "tries is 1000, more than a match can score; a line counts at most 999 of each"),
        ("1" + "0" * 23, "tries is a number of 24 digits, more than a match can score; a line counts at most 999 of each"),
        ("9" * 5000, "the file holds a number of more than 4300 digits, which no count in Sevens comes near"),
        ("-3", "a line's tries must be a whole number >= 0, got -3"),
    ],
)
def test_an_absurd_count_is_refused_naming_the_bound(count: str, said: str, tmp_path: Path) -> None:
    """Through the real command: 10**23 tries made a table of 24-digit figures, and 5,000 digits got
    Python's own advice (sys.set_int_max_str_digits) as the error."""
    document = {**DECIDED, "matches": [_match("fiji", "samoa", _line(tries=12345), NIL)]}
    file = tmp_path / "group.json"
    file.write_text(json.dumps(document).replace("12345", count), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "sevens", "table", str(file)], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: {file}: ")
    assert said in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("where", "name", "said"),
    [
        ("team", "fi\x1b[2Jji", "teams[0]: 'fi\\x1b[2Jji' holds a control or invisible character ('\\x1b')"),
        ("group", "Pool \x1b]0;owned\x07B", "group: 'Pool \\x1b]0;owned\\x07B' holds a control or invisible character ('\\x1b')"),
        ("team", "a\x00", "teams[0]: 'a\\x00' holds a control or invisible character ('\\x00')"),
        ("team", "\u202efiji", "teams[0]: '\\u202efiji' holds a control or invisible character ('\\u202e')"),
        ("team", "\ud800", "teams[0]: '\\ud800' holds a control or invisible character ('\\ud800')"),
    ],
)
def test_a_name_the_terminal_would_act_on_is_refused(where: str, name: str, said: str, tmp_path: Path) -> None:
    """Through the real command: a team id or group name holding ESC[2J cleared the reader's screen
    (and ESC]0;... set the window's title), as the table printed it as it was; a lone surrogate
    (written \\ud800 in the JSON) ended in Python's advice to set PYTHONIOENCODING. Each is now
    refused in one line that shows the name escaped, and nothing is printed."""
    document: dict[str, Any] = {**LEVEL, "matches": []}
    if where == "team":
        document["teams"] = [name, *LEVEL["teams"][1:]]
    else:
        document["group"] = name
    file = tmp_path / "group.json"
    file.write_text(json.dumps(document), encoding="ascii")  # json.dumps writes every one as an escape
    result = subprocess.run([sys.executable, "-m", "sevens", "table", str(file)], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 2, result.stdout
    assert result.stdout == ""
    assert result.stderr == f"error: {file}: {said}, which a terminal acts on or cannot show; write the name in visible characters\n"


@given(names=st.lists(st.text(min_size=1, max_size=12), min_size=5, max_size=5, unique=True))
@settings(max_examples=150, deadline=None, derandomize=True, database=None)
def test_any_names_print_a_table_or_one_line_error_with_no_control_character(names: list[str]) -> None:
    """Hypothesis names the teams and the group with any text (controls, marks, emoji, surrogates):
    the command either prints a table without a control character in it or refuses in one line,
    never a traceback."""
    document = {"group": names[4], "teams": names[:4], "matches": [_match(names[0], names[1], TRY, NIL)]}
    result = CliRunner().invoke(app, ["table", "-"], input=json.dumps(document))
    assert result.exit_code in (0, 2), result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    if result.exit_code == 2:
        assert result.stdout == "" and result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    else:
        assert all(c.isprintable() or c == "\n" for c in result.stdout), repr(result.stdout)


@pytest.mark.parametrize("columns", ["40", "100"])
def test_names_holding_markup_are_printed_as_typed(tmp_path: Path, columns: str) -> None:
    """rich read '[bold]' in a team id or group name as a style and '[/]' as an error (MarkupError,
    a traceback): the table, its title, the lots drawn and --lots-seed show each as it was typed."""
    teams = ["[bold]fiji", "sa[/]moa", "[link=https://example.org]tonga", "wales ["]
    level = {"group": "Pool [/] [red]B", "teams": teams,
             "matches": [_match(a, b, TRY if b == teams[3] else NIL, NIL) for a, b in
                         [(teams[0], teams[3]), (teams[1], teams[3]), (teams[2], teams[3]),
                          (teams[0], teams[1]), (teams[0], teams[2]), (teams[1], teams[2])]]}
    result = CliRunner().invoke(app, ["table", str(_write(tmp_path, level)), "--lots-seed", "[/]"],
                                env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Pool [/] [red]B"), out
    assert sum(line.count(team) for line in out.splitlines() for team in teams) >= 8, out  # rows and lots
    flat = " ".join(out.split())  # the notes under the table wrap at 40 columns
    assert "Lots drawn for Pool [/] [red]B: places 1-3 (round 1: " in flat
    assert "--lots-seed '[/]'." in flat


def test_a_long_name_holding_a_control_character_is_quoted_saying_it_was_cut(tmp_path: Path) -> None:
    """The refusal quoted a long team id by its first 40 characters as if that were all of it."""
    teams = ["f" * 60 + "\x1b[2J", "samoa", "tonga", "wales"]
    result = _run(str(_write(tmp_path, {"teams": teams, "matches": []})))
    assert result.exit_code == 2
    assert f"teams[0]: '{'f' * 40}'... (64 characters) holds a control or invisible character ('\\x1b')" in result.stderr


def test_the_table_says_what_separated_teams_level_on_league_points(tmp_path: Path) -> None:
    """docs/standings.md's worked example: all four on 3 league points. The "Decided by" column says
    "head-to-head" three times but not who beat whom on it nor the figures, which the worked
    example gives (Fiji 3 tries to 1; head-to-head among Samoa, Tonga, Wales: 3, 2, 1), as the
    web's tables say under them. Lines as the example's table gives them: 3, 0, 5 and 8 points."""
    lines = {0: NIL, 3: _line(penalties=1), 5: TRY, 8: _line(tries=1, penalties=1)}
    played = [("samoa", "tonga", 3, 0), ("samoa", "wales", 0, 0), ("samoa", "fiji", 5, 8),
              ("tonga", "wales", 3, 0), ("tonga", "fiji", 5, 5), ("wales", "fiji", 8, 5)]
    data = {"teams": ["fiji", "samoa", "tonga", "wales"], "matches": [_match(h, a, lines[x], lines[y]) for h, a, x, y in played]}
    result = _run(str(_write(tmp_path, data)))
    assert result.exit_code == 0, result.stderr
    said = " ".join(result.stdout.split())
    among = "in the matches among samoa, tonga and wales"
    assert (f"Level on league points: fiji above samoa on tries scored, 3 to 1; samoa above tonga on head-to-head, "
            f"3 league points to 2 {among}; tonga above wales on head-to-head, 2 league points to 1 {among}.") in said
    result = _run(str(_write(tmp_path, DECIDED, "decided.json")))
    assert "tonga above samoa on points scored, 8 to 7." in " ".join(result.stdout.split())


def test_a_team_typed_with_its_accents_apart_is_the_team_typed_whole(tmp_path: Path) -> None:
    """'Tōkyō' listed with ō and named in a match as o + U+0304 (as some editors write it) was
    refused as 'not one of the group's teams (Tōkyō, ...)', naming a team that read the same; both
    forms are one team now, and the table names it as it was listed."""
    composed, apart = "T\u014dky\u014d", "To\u0304kyo\u0304"
    document = {"teams": [composed, "samoa", "tonga", "wales"], "matches": [_match(apart, "samoa", TRY, NIL)]}
    result = _run(str(_write(tmp_path, document)), "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert (rows[0]["team"], rows[0]["won"]) == (composed, 1), rows


@pytest.mark.parametrize(
    ("teams", "said"),
    [
        (["Fiji", "samoa", "tonga", "fiji "], "teams[3]: 'fiji ' reads as teams[0], 'Fiji', in the table"),
        (["Fiji", "F\u0456ji", "tonga", "wales"], "teams[1]: 'Fіji' reads as teams[0], 'Fiji' (its 'і' is CYRILLIC SMALL"),
        (["T\u014dky\u014d", "samoa", "To\u0304kyo\u0304", "wales"], "team 'Tōkyō' is listed twice"),
    ],
    ids=["case and a space", "a Cyrillic letter", "accents apart"],
)
def test_two_teams_that_would_look_alike_in_the_table_are_refused(teams: list[str], said: str, tmp_path: Path) -> None:
    """'Fiji' and 'fiji ', or 'Fiji' with a Cyrillic і, or 'Tōkyō' typed two ways, were two rows
    that looked alike, and a match counted for one could not be told from the other's; refused in
    one line as two names of one game are."""
    result = _run(str(_write(tmp_path, {"teams": teams, "matches": []})))
    assert result.exit_code == 2, result.output
    assert said in result.stderr and result.stderr.count("\n") == 1, result.stderr
