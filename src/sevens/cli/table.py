"""``sevens table FILE``: the group table (R8) for results typed in by hand.

For a game played with real dice at a table. The file holds the group's four teams (R7) and the
matches played so far::

    {"teams": ["fiji", "samoa", "tonga", "wales"],
     "matches": [{"home": "fiji", "away": "samoa",
                  "home_line": {"tries": 2, "conversions": 1, "penalties": 0, "drop_goals": 1},
                  "away_line": {"tries": 1, "conversions": 0, "penalties": 2, "drop_goals": 0, "points": 11}}]}

A line's ``points`` is optional; if given it must agree with the rest of the line (R1). An
optional ``"group"`` names the group.

If teams of a complete group are still level after head-to-head, lots decide (R10). A hand-entered
table has no game seed, so the lots come from :class:`sevens.rules.FairDice` seeded with the
SHA-256 of the input file's bytes (digest ``"table"``, stream ``"lots"``): the same file always
gives the same table. ``--lots-seed TEXT`` seeds them with the SHA-256 of TEXT instead, e.g. a
number the players agreed on.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from pathlib import Path
from typing import Annotated, Any

import typer

from sevens.cli.errors import fail, hidden_character
from sevens.cli.inputs import other_kind, parse_json, read_input, shown
from sevens.cli.output import ResultsConsole, printing
from sevens.cli.render import describe_lots, separation_sentence
from sevens.cli.render import group_table as render_group_table
from sevens.rules.fairdice import FairDice
from sevens.tournament.formats import GROUP_SIZE
from sevens.tournament.names import name_clash
from sevens.tournament.quoting import quoted
from sevens.tournament.standings import GroupResult, GroupTable, group_table

__all__ = ["LOTS_DIGEST", "LOTS_STREAM", "lots_dice", "read_table_input", "register"]

LOTS_DIGEST = "table"
LOTS_STREAM = "lots"

MAX_LINE_COUNT = 999
"""The most tries, conversions, penalties or drop goals a line typed by hand may count. R2 sets no
upper end, but a team spends at most 150 points on one match (R3, R4): penalties and conversions
never pass 150, and 1,000 tries or drop goals would take over 400 scoring doubles (each 1 in 36). So
more is a slip of the keyboard: a line of 10**23 tries was printed as if it were a score."""


def lots_dice(file_bytes: bytes, lots_seed: str | None) -> FairDice:
    """The dice for lots: FairDice seeded by SHA-256 of ``lots_seed`` if given, else of the file."""
    source = file_bytes if lots_seed is None else lots_seed.encode("utf-8")
    return FairDice(hashlib.sha256(source).digest(), LOTS_DIGEST, LOTS_STREAM)


def read_table_input(raw: bytes) -> tuple[str, tuple[str, ...], tuple[GroupResult, ...]]:
    """Parse the input file: the group's name, its teams and its matches.

    Raises:
        ValueError: the file is not JSON or not in the expected shape.
    """
    data: Any = parse_json(raw, keys_once=True)
    if not isinstance(data, dict):
        raise ValueError('the file must hold a JSON object {"teams": [...], "matches": [...]}')
    unknown = sorted(map(str, set(data) - {"teams", "matches", "group"}))
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(unknown)}; the file has teams, matches and optionally group")
    if "teams" not in data or "matches" not in data:
        raise ValueError('the file must have "teams" (a list of team ids) and "matches" (a list of matches)')
    teams = data["teams"]
    if not isinstance(teams, list) or not all(isinstance(team, str) and team for team in teams):
        raise ValueError('"teams" must be a list of team ids (non-empty strings)')
    if len(teams) != GROUP_SIZE:
        raise ValueError(f'a group has {GROUP_SIZE} teams (R7); "teams" lists {len(teams)}: list all four')
    matches = data["matches"]
    if not isinstance(matches, list):
        raise ValueError('"matches" must be a list of {"home", "away", "home_line", "away_line"} objects')
    group = data.get("group", "group")
    if not isinstance(group, str) or not group:
        raise ValueError('"group" must be a non-empty name')
    for where, name in [*((f"teams[{n}]", team) for n, team in enumerate(teams)), ("group", group)]:
        _check_shown(where, name)
    teams = [unicodedata.normalize("NFC", team) for team in teams]
    _check_apart(teams)
    results = []
    for number, match in enumerate(matches, start=1):
        try:
            result = GroupResult.from_dict(_composed(match))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"match {number}: {exc}") from None
        for side, line in (("home_line", result.home_line), ("away_line", result.away_line)):
            for field in ("tries", "conversions", "penalties", "drop_goals"):
                count = getattr(line, field)
                if count > MAX_LINE_COUNT:
                    said = str(count) if len(str(count)) <= 12 else f"a number of {len(str(count))} digits"
                    raise ValueError(
                        f"match {number}: {side}: {field} is {said}, more than a match can score; a line counts at "
                        f"most {MAX_LINE_COUNT} of each: check what was typed"
                    )
        results.append(result)
    return group, tuple(teams), tuple(results)


def _composed(match: object) -> object:
    """``match`` with the teams it names in Unicode's composed form (NFC), as the teams are kept:
    "Tōkyō" typed with its accents apart, as some editors and systems write it, is the team typed
    whole, where it was refused as 'not one of the group's teams (Tōkyō, ...)'."""
    if not isinstance(match, dict):
        return match
    return {
        key: unicodedata.normalize("NFC", value) if key in ("home", "away") and isinstance(value, str) else value
        for key, value in match.items()
    }


def _check_apart(teams: list[str]) -> None:
    """Refuse two teams the table would show alike: in case or spacing alone ("Fiji", "fiji "),
    with a letter of another script drawn as a Latin one (a Cyrillic "і" in "Fіji"), or with Latin
    characters drawn alike ("U20", "U2O"), as two names of one game are refused (:func:`sevens.tournament.names.name_clash`). Each was a row of its own,
    and a match counted for one of them could not be told from the other's.

    >>> _check_apart(["Fiji", "Samoa", "Tonga", "fiji "])
    Traceback (most recent call last):
    ...
    ValueError: teams[3]: 'fiji ' reads as teams[0], 'Fiji', in the table; give each team a name of its own
    """
    for n, team in enumerate(teams):
        clash = name_clash(team, taken=[other for other in teams[:n] if other != team])  # the same twice: said below
        if clash is not None:
            raise ValueError(
                f"teams[{n}]: {quoted(team)} reads as teams[{teams.index(clash.other)}], {quoted(clash.other)}"
                f"{clash.look_alike}, in the table; give each team a name of its own"
            )


def _check_shown(where: str, name: str) -> None:
    """Refuse a name the table would print that is not plain visible text: a terminal obeys the
    control sequences in it (ESC[2J clears the screen), and a lone surrogate cannot be printed at all.

    >>> _check_shown("group", "Pool B")
    >>> _check_shown("teams[0]", "fi\\x1b[2Jji")
    Traceback (most recent call last):
    ...
    ValueError: teams[0]: 'fi\\x1b[2Jji' holds a control or invisible character ('\\x1b'), which a terminal acts on or cannot show; write the name in visible characters
    """
    hidden = hidden_character(name)
    if hidden is not None:
        raise ValueError(
            f"{where}: {quoted(name)} holds a control or invisible character ({hidden!r}), which a terminal "
            "acts on or cannot show; write the name in visible characters"
        )


def _print_table(table: GroupTable, results: tuple[GroupResult, ...], seed_note: str) -> None:
    console = ResultsConsole(highlight=False)
    grid = render_group_table(table)
    played = len(results)
    with printing():
        console.print(grid)
        sentence = separation_sentence(table, results)
        if sentence:  # whom each team was set against, and on which figures, as under the web's tables
            console.print(sentence, markup=False)
        n = len(table.rows)
        if not table.complete:
            console.print(
                f"{played} of {n * (n - 1) // 2} matches played; teams level on every criterion share a place "
                "until the group is complete."
            )
        # Team ids, the group's name and --lots-seed as typed: shown as they are, never read as markup.
        for draw in table.lots:
            console.print(" ".join(describe_lots(draw)), markup=False)
        if table.lots:
            console.print(f"Dice for lots: {seed_note}.", markup=False)


def register(app: typer.Typer) -> None:
    """Add ``sevens table`` to ``app``."""

    @app.command("table")
    def table_command(
        file: Annotated[
            Path, typer.Argument(metavar="FILE", help="A JSON file with the group's teams and matches, or - to read it from standard input.")
        ],
        as_json: Annotated[bool, typer.Option("--json", metavar="", help="Print the table as JSON.")] = False,
        lots_seed: Annotated[
            str | None,
            typer.Option(
                "--lots-seed",
                metavar="TEXT",
                help="Seed the dice for lots with the SHA-256 of this text (default: of the file).",
            ),
        ] = None,
    ) -> None:
        """The group table (R8) for results typed in by hand, with every tie-break shown.

        FILE names the group's four teams and the matches played so far, each team's line
        counting tries, conversions, penalties and drop goals, for example:

        \b
        {"teams": ["fiji", "samoa", "tonga", "wales"],
        "matches": [{"home": "fiji", "away": "samoa",
        "home_line": {"tries": 2, "conversions": 1, "penalties": 0, "drop_goals": 0},
        "away_line": {"tries": 1, "conversions": 0, "penalties": 1, "drop_goals": 0}
        }]}

        A line may also give its "points", which must add up; "group" may name the group. The
        whole format is in docs/standings.md."""
        raw = read_input(file, what="a JSON file of a group's results", dash_is_stdin=True)
        try:
            refused = other_kind(parse_json(raw), file, wanted="table", expected="a group's results")
            if refused is not None:
                fail(refused)
            group, teams, results = read_table_input(raw)
            table = group_table(teams, results, lots_dice(raw, lots_seed), what=group)
        except ValueError as exc:
            fail(f"{shown(file)}: {exc}")
        if as_json:
            document = {"rows": [row.to_dict() for row in table.rows], "lots": [d.to_dict() for d in table.lots]}
            with printing():
                typer.echo(json.dumps(document, indent=2))
            return
        seed_note = (
            "FairDice seeded by the SHA-256 of the input file"
            if lots_seed is None
            else f"FairDice seeded by the SHA-256 of --lots-seed {lots_seed!r}"
        )
        _print_table(table, results, seed_note)
