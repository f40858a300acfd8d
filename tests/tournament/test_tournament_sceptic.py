"""A sceptic's check of whole tournaments: every record worked out again from the rules alone.

Games are played by the real engine (bots of every kind, for every player count 4 to 16, in R12's
default arrangement and in every other legal one, plus games of tiny orders where ties of every kind
come up) and one through ``sevens play --auto``. Each game record is then checked by
``sceptic_check.check_record``, which imports nothing from :mod:`sevens` and was written from the
rules (the seed's original text, R1-R14, docs/record.md, docs/standings.md, docs/fair-dice.md)
before the tournament code was read. It throws every die and every drawing of lots again from the
revealed seed, scores every line, decides every match, keeps every team's SCRUM, redoes the group
draw, the fixtures, the group tables with all their tie-breaks, the bracket and the champion, and
compares all of it with the record, and with what :mod:`sevens.tournament` reports (``Game``,
``verify_record``); the tables after rounds 1 and 2 (shared places, no lots) are compared with the
engine's too. Changing a die, an order, a result or a lots throw in a record makes it
disagree (the tamper tests), so these tests can fail.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sceptic_check import Findings, check_record, default_arrangement, legal_arrangements, table_so_far
from sceptic_games import CHEAP_BOTS, ODDS_BOTS, Played, bot_game, scripted_game, small_orders_game
from typer.testing import CliRunner

from sevens.cli.main import app
from sevens.rules import Order
from sevens.tournament import (
    Format,
    Game,
    RecordError,
    VerificationError,
    default_format,
    legal_formats,
    verify_record,
)

PLAYER_COUNTS = range(4, 17)


def _games() -> list[Played]:
    games: list[Played] = []
    for players in PLAYER_COUNTS:
        for s in range(3):
            bots = CHEAP_BOTS[s:] + CHEAP_BOTS[:s]
            games.append(bot_game(players, f"{players}/{s}", bots, missed=s != 1))
        games.append(bot_game(players, f"{players}/odds", ODDS_BOTS))
        for fmt in legal_formats(players):
            if fmt != default_format(players):
                games.append(bot_game(players, f"{players}/{fmt.teams}x{fmt.teams_per_player}", CHEAP_BOTS, fmt))
    # Tiny orders: low scores, so draws, count-back, head-to-head and lots all come up (fixed seeds).
    for players in (8, 9, 12, 16):
        for top, options in ((0, 0), (1, 1), (2, 1), (0, 4)):
            games.append(small_orders_game(players, f"{players}/small/{top}/{options}", top, options))
    games.append(small_orders_game(16, "16/conv/105", 0, 4))  # a group place on head-to-head
    games.append(small_orders_game(16, "16/small2/3", 2, 1))  # another
    games.append(small_orders_game(16, "16/gr/3", 1, 1))  # a knockout won on tries conceded
    games.append(small_orders_game(16, "16/gr/5", 1, 1))  # a knockout won on points conceded
    games.append(small_orders_game(16, "16/zero/11", 0, 0))  # lots: a level pair ties again before the next
    games.append(scripted_game("conv/1661", Order(0, 0), Order(0, 9)))  # a knockout won on conversions
    return games


@pytest.fixture(scope="module")
def games() -> list[tuple[Played, Findings]]:
    return [(g, check_record(g.record, default_format=g.default_format)) for g in _games()]


def _rows(game: Played) -> dict[str, list[dict[str, Any]]]:
    tables = game.game.final_tables
    assert tables is not None
    out = {}
    for letter, table in tables.items():
        rows = []
        for row in table.rows:
            fields = {k: getattr(row, k) for k in ("team", "position", "played", "won", "drawn", "lost")}
            fields |= {k: getattr(row, k) for k in ("tries_for", "tries_against", "points_for", "points_against")}
            rows.append({**fields, "league_points": row.league_points, "decided_by": str(row.decided_by)})
        out[letter] = rows
    return out


def test_every_record_agrees_with_the_rules(games: list[tuple[Played, Findings]]) -> None:
    for played, found in games:
        assert found.problems == [], (played.label, found.problems[:5])


def test_the_engine_reports_what_the_rules_give(games: list[tuple[Played, Findings]]) -> None:
    for played, found in games:
        game = played.game
        assert game.finished and str(game.champion) == found.champion, played.label
        assert dict(game.scrums()) == found.scrum_left, played.label
        assert _rows(played) == found.tables, played.label
        report = verify_record(played.record)
        assert (report.champion, report.matches) == (found.champion, found.seen["matches"]), played.label


def test_tables_during_the_group_stage_agree(games: list[tuple[Played, Findings]]) -> None:
    """After rounds 1 and 2, every group's table as the engine shows it, shared places and all."""
    shared = 0
    for played, _ in games:
        game, record = played.game, played.record
        for rounds in (1, 2):
            matches = [m for turn in record["turns"][:rounds] for m in turn["matches"]]
            so_far = Game(game.setup, game.turns[:rounds]).tables()
            for letter, table in so_far.items():
                ids = [t["id"] for t in record["teams"] if t["group"] == letter]
                mine = table_so_far(ids, [m for m in matches if m["group"] == letter])
                theirs = [
                    {**{k: getattr(row, k) for k in mine[0] if k != "decided_by"}, "decided_by": row.decided_by}
                    for row in table.rows
                ]
                assert theirs == mine, (played.label, rounds, letter)
                shared += sum(1 for row in mine if row["decided_by"] is None)
    assert shared > 0  # some teams were still level after head-to-head, sharing a place


def test_the_games_cover_every_player_count_and_every_kind_of_tie(games: list[tuple[Played, Findings]]) -> None:
    seen: Counter[str] = Counter()
    for _, found in games:
        seen.update(found.seen)
    assert {len(p.record["players"]) for p, _ in games} == set(PLAYER_COUNTS)
    assert {
        (len(p.record["players"]), p.record["tournament"]["teams"], p.record["tournament"]["teams_per_player"])
        for p, _ in games
    } == {(n, t, k) for n in PLAYER_COUNTS for t, k in legal_arrangements(n)}
    kinds = [
        "group draws",
        "group draws 0-0",
        *(f"knockout decided by {k}" for k in ("points", "tries", "conversions", "drop_goals", "group_record", "lots")),
        *(f"knockout won on group record ({w})" for w in ("league points", "tries scored", "points scored")),
        *(f"knockout won on group record ({w})" for w in ("tries conceded", "points conceded")),
        *(f"table places by {c}" for c in ("league_points", "tries_for", "points_for", "tries_against")),
        *(f"table places by {c}" for c in ("points_against", "head_to_head", "lots")),
        "group lots",
        "knockout lots",
        "lots throws leaving two level sets",
        "lots: the higher level set tied again before the lower threw",
        "teams that ran out of SCRUM",
        "orders spending all SCRUM held",
        "missed orders",
        "house teams",
        "FLAIR re-throws after doubles",
    ]
    assert [k for k in kinds if not seen[k]] == []
    assert seen["champions"] == len(games) and seen["group draws redone"] == len(games)


def test_r12_default_arrangements_as_the_rules_list_them() -> None:
    listed = {4: (8, 2), 5: (16, 3), 6: (16, 2), 7: (16, 2), 8: (8, 1)} | {n: (16, 1) for n in range(9, 17)}
    assert {n: default_arrangement(n) for n in PLAYER_COUNTS} == listed
    for n in PLAYER_COUNTS:
        assert {(f.teams, f.teams_per_player) for f in legal_formats(n)} == set(legal_arrangements(n))
        assert default_format(n) == Format(*default_arrangement(n)[:1], n, default_arrangement(n)[1])


def test_a_game_played_by_sevens_play(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    args = ["play", "--auto", "--players", "7", "--bots", "random,knockout-saver,even-force", "--seed", "sceptic2"]
    result = CliRunner().invoke(app, [*args, "--record", str(path)])
    assert result.exit_code == 0, result.output
    found = check_record(json.loads(path.read_text(encoding="utf-8")), default_format=True)
    assert found.problems == [] and found.champion is not None


# --- tampering: a record changed anywhere no longer agrees ---------------------------------


def _matches(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for turn in record["turns"] for m in turn["matches"]]


def _a_die(r: dict[str, Any]) -> None:
    m = next(m for m in _matches(r) if m["home_dice"]["force"])
    m["home_dice"]["force"][0] = m["home_dice"]["force"][0] % 6 + 1


def _a_die_and_its_line(r: dict[str, Any]) -> None:
    # A 5 made a 6, the line and every later figure left alone but the try taken off: the line
    # agrees with the dice; only the dice thrown again from the seed show it.
    m = next(m for m in _matches(r) if 5 in m["home_dice"]["force"])
    m["home_dice"]["force"][m["home_dice"]["force"].index(5)] = 6
    m["home_line"]["tries"] -= 1
    m["home_line"]["points"] -= 5


def _a_rethrow_left_out(r: dict[str, Any]) -> None:
    m = next(m for m in _matches(r) if any(len(o) > 1 for o in m["home_dice"]["flair"]))
    option = next(o for o in m["home_dice"]["flair"] if len(o) > 1)
    del option[0]


def _an_order(r: dict[str, Any]) -> None:
    m = next(m for m in _matches(r) if m["scrum"][m["home"]]["before"] > m["home_order"]["force"] + m["home_order"]["flair"])
    m["home_order"]["force"] += 1


def _an_order_beyond_scrum(r: dict[str, Any]) -> None:
    m = r["turns"][-1]["matches"][0]
    m["home_order"]["force"] = m["scrum"][m["home"]]["before"] + 1


def _a_winner(r: dict[str, Any]) -> None:
    m = next(m for m in _matches(r) if m["group"] is not None and m["winner"] is not None)
    m["winner"] = m["away"] if m["winner"] == m["home"] else m["home"]


def _a_summary(r: dict[str, Any]) -> None:
    r["turns"][-1]["matches"][0]["summary"] += " "


def _a_scrum_balance(r: dict[str, Any]) -> None:
    m = r["turns"][1]["matches"][0]
    m["scrum"][m["home"]]["after"] += 10


def _a_table_place(r: dict[str, Any]) -> None:
    rows = r["groups"]["A"]
    rows[2]["team"], rows[3]["team"] = rows[3]["team"], rows[2]["team"]


def _a_table_reason(r: dict[str, Any]) -> None:
    row = r["groups"]["B"][0]
    row["decided_by"] = "head_to_head" if row["decided_by"] != "head_to_head" else "lots"


def _the_champion(r: dict[str, Any]) -> None:
    final = r["turns"][-1]["matches"][0]
    r["champion"] = final["away"] if r["champion"] == final["home"] else final["home"]


def _a_lots_throw(r: dict[str, Any]) -> None:
    draw = next(d for turn in r["turns"] for d in turn["lots"])
    draw["throws"][0][0][1] = draw["throws"][0][0][1] % 6 + 1


def _a_knockout_pairing(r: dict[str, Any]) -> None:
    m = r["turns"][3]["matches"][0]
    m["home"], m["away"] = m["away"], m["home"]
    m["home_order"], m["away_order"] = m["away_order"], m["home_order"]
    m["home_dice"], m["away_dice"] = m["away_dice"], m["home_dice"]
    m["home_line"], m["away_line"] = m["away_line"], m["home_line"]


def _the_group_draw(r: dict[str, Any]) -> None:
    a, b = r["teams"][0], r["teams"][4]
    a["group"], b["group"] = b["group"], a["group"]
    r["teams"][0], r["teams"][4] = b, a


def _a_house_order_of_nobody(r: dict[str, Any]) -> None:
    house = {t["id"] for t in r["teams"] if t["manager"] is None}
    m = next(m for m in _matches(r) if m["home"] in house)
    m["home_order"]["autopilot"] = None  # R12: a house team is played by its bot


def _the_house_count(r: dict[str, Any]) -> None:
    r["tournament"]["house_teams"] += 1


# Each change, and the game it is made in: "bots" (9 players, house teams, big orders) or "lots"
# (all 0-0 in the groups, so lots everywhere; FLAIR only in the knockouts).
TAMPERING: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a die": (_a_die, "bots"),
    "a die and its line": (_a_die_and_its_line, "bots"),
    "a FLAIR re-throw left out": (_a_rethrow_left_out, "bots"),
    "an order": (_an_order, "bots"),
    "an order beyond the SCRUM held": (_an_order_beyond_scrum, "bots"),
    "a group winner": (_a_winner, "bots"),
    "a summary": (_a_summary, "lots"),
    "a SCRUM balance": (_a_scrum_balance, "bots"),
    "a table place": (_a_table_place, "bots"),
    "a table's tie-break": (_a_table_reason, "lots"),
    "the champion": (_the_champion, "bots"),
    "a lots throw": (_a_lots_throw, "lots"),
    "a knockout pairing": (_a_knockout_pairing, "bots"),
    "the group draw": (_the_group_draw, "bots"),
    "the number of house teams": (_the_house_count, "bots"),
    "a house team's order given by no bot": (_a_house_order_of_nobody, "bots"),
}


@pytest.fixture(scope="module")
def tamper_games() -> dict[str, Played]:
    return {
        "bots": bot_game(9, "9/tamper", CHEAP_BOTS),
        "lots": scripted_game("conv/1661", Order(0, 0), Order(0, 9)),
    }


@pytest.mark.parametrize("change", TAMPERING)
def test_a_changed_record_disagrees(change: str, tamper_games: dict[str, Played]) -> None:
    tamper, which = TAMPERING[change]
    record = copy.deepcopy(tamper_games[which].record)
    assert check_record(record, default_format=True).problems == []
    tamper(record)
    assert check_record(record, default_format=True).problems != []
    # The project's own verifier refuses it too.
    with pytest.raises((VerificationError, RecordError)):
        verify_record(record)
