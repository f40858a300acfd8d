"""A game's results as CSV for a club's records or a spreadsheet (docs/web.md, Watching): the final
standing and every match played, from the game's page and the API alike, read back here as a
spreadsheet would; names a spreadsheet would take for formulas come as text, and nothing of a turn
not yet resolved is in them (R13)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from web.web_helpers import Hosted, host_game, new_client

# Display names a spreadsheet would run as formulas if written bare (OWASP's CSV injection).
FORMULA_NAMES = {"p1": '=HYPERLINK("http://evil.example","x")', "p2": "+1+1", "p3": "-2+3", "p4": "@SUM(1)"}


def _rows(response) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert response.headers["content-disposition"].startswith("attachment; filename=")
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff"), "a byte order mark, so Excel reads UTF-8"
    return list(csv.DictReader(io.StringIO(text[1:], newline="")))


def _played(app: FastAPI, name: str, names: dict[str, str], *turns: int) -> Hosted:
    """A game of ``name`` whose seats ``names`` joined, started and resolved through ``turns``."""
    game = host_game(app, hours="0", name=name)
    for seat, manager in names.items():
        game.join(seat, manager)
    game.start()
    game.resolve(*turns)
    return game


def test_a_finished_games_standing_and_matches_as_csv_match_its_view(app: FastAPI) -> None:
    # Nobody orders: the autopilots play every turn to the final.
    game = _played(app, "Club cup", FORMULA_NAMES, *range(1, 6))
    spectator = new_client(app)
    view = spectator.get(f"/api/v1/games/{game.public_id}").json()
    assert view["status"] == "finished"
    names = {t["id"]: t["name"] for t in view["teams"]}
    managers = {t["id"]: t["manager"] for t in view["teams"]}
    page = spectator.get(game.base).text
    assert f'href="{game.base}/standing.csv"' in page and f'href="{game.base}/matches.csv"' in page

    for url in (f"{game.base}/standing.csv", f"/api/v1/games/{game.public_id}/standing.csv"):
        standing = _rows(spectator.get(url))
        # A shared place with an en dash: a spreadsheet reads "3-4" as the 4th of March.
        assert [(r["place"], r["team"], r["how far it went"]) for r in standing] == [
            (p["place"].replace("-", "\u2013"), names[p["team"]], p["went"]) for p in view["standing"]
        ]
        # A manager's name is text whatever it starts with: an apostrophe before it, and as typed after.
        assert {r["manager"] for r in standing} == {"'" + name for name in FORMULA_NAMES.values()}
        assert [r["manager"] for r in standing] == ["'" + managers[p["team"]] for p in view["standing"]]

    every = [(t["turn"], t["stage"], m) for t in view["turns"] for m in t["matches"]]
    for url in (f"{game.base}/matches.csv", f"/api/v1/games/{game.public_id}/matches.csv"):
        matches = _rows(spectator.get(url))
        assert len(matches) == len(every) == 12 + 2 + 1  # groups, semi-finals, final
        for row, (turn, stage, m) in zip(matches, every, strict=True):
            assert (row["turn"], row["stage"], row["match"]) == (str(turn), stage, m["match"])
            assert (row["home"], row["away"]) == (names[m["home"]["team"]], names[m["away"]["team"]])
            assert row["home manager"] == "'" + managers[m["home"]["team"]]
            assert (row["home points"], row["away points"]) == (
                str(m["home"]["line"]["points"]), str(m["away"]["line"]["points"])
            )
            assert row["winner"] == ("draw" if m["winner"] is None else names[m["winner"]])
            assert row["result"] == m["summary"].replace("-", "\u2013")
            for side in ("home", "away"):
                assert (row[f"{side} force"], row[f"{side} flair"], row[f"{side} tries"]) == (
                    str(m[side]["order"]["force"]), str(m[side]["order"]["flair"]), str(m[side]["line"]["tries"])
                )
                assert row[f"{side} missed order"] == "yes"
                # SCRUM before and after (R4) and every die, so a spreadsheet can tell why a match went as it did
                assert (row[f"{side} scrum before"], row[f"{side} scrum after"]) == (
                    str(m[side]["scrum_before"]), str(m[side]["scrum_after"])
                )
                assert [int(f) for f in row[f"{side} force dice"].split()] == m[side]["dice"]["force"]
                flair = [[[int(d) for d in t.split("+")] for t in o.split(">")] for o in row[f"{side} flair dice"].split()]
                assert "-" not in row[f"{side} flair dice"]  # "5-4" would be a date in a spreadsheet
                assert flair == m[side]["dice"]["flair"]


def test_no_csv_holds_anything_of_the_open_turn(app: FastAPI) -> None:
    game = _played(app, "Half-played cup", FORMULA_NAMES, 1)
    team = game.my_teams("p1")[0]
    # An order for turn 2 nobody has played yet: its figures are nowhere in a download.
    assert game.order("p1", team, 7, 0, action="ready").status_code == 303
    spectator = new_client(app)
    view = spectator.get(f"/api/v1/games/{game.public_id}").json()
    for client in (spectator, game.players["p1"], game.organiser):
        matches = _rows(client.get(f"{game.base}/matches.csv"))
        assert {r["turn"] for r in matches} == {"1"}
        assert [r["match"] for r in matches] == [m["match"] for m in view["turns"][0]["matches"]]
        assert _rows(client.get(f"{game.base}/standing.csv")) == [], "no standing before the final"
    page = spectator.get(game.base).text
    assert 'id="matches-csv"' in page and 'id="standing-csv"' not in page


def test_a_private_games_csv_is_for_its_players_only(app: FastAPI) -> None:
    game = host_game(app, hours="0", visibility="private", name="Quiet cup")
    game.join("p1", "Ann")
    game.start()
    game.resolve(1)
    stranger: TestClient = new_client(app)
    for path in ("standing.csv", "matches.csv"):
        assert stranger.get(f"{game.base}/{path}").status_code == 404
        assert stranger.get(f"/api/v1/games/{game.public_id}/{path}").status_code == 404
        assert len(_rows(game.players["p1"].get(f"{game.base}/{path}"))) == (0 if path == "standing.csv" else 4)


def test_the_manager_column_says_what_the_games_teams_table_says(app: FastAPI) -> None:
    """The Teams table says "house team (bot: even)", "not taken (bot: even)", "Cy, handed to the
    bots (bot: even)"; the CSV said "house team", "not taken", "Cy, handed to the bots", leaving out
    which bot played. Both now come from one wording (SpectatorView.manager_words). Read as a
    spreadsheet reads it: Python's csv with the byte order mark (utf-8-sig), a line per match."""
    import re

    game = host_game(app, arrangement="5-16-3", hours="0", name="Pub cup")  # one house team
    for seat, name in (("p1", "Ann"), ("p2", "Bob"), ("p3", "Cy")):
        game.join(seat, name)
    game.start()
    from web.web_helpers import post_form

    assert post_form(game.organiser, f"{game.base}/seats/p3/release").status_code == 303
    game.resolve(1)
    page = new_client(app).get(game.base).text
    teams = re.search(r'<section id="teams">(.*?)</section>', page, re.S)
    assert teams is not None
    table = {
        re.sub(r"<[^>]+>", "", team): re.sub(r"<[^>]+>", "", manager)
        for team, manager in re.findall(r'<tr><td class="name">(.*?)</td><td>\w</td><td class="name">(.*?)</td>', teams.group(1))
    }
    assert len(table) == 16
    said = set(table.values())
    assert {"Ann", "Bob", "Cy, handed to the bots (bot: even)", "not taken (bot: even)", "house team (bot: even)"} == said
    raw = new_client(app).get(f"{game.base}/matches.csv").content
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert list(rows[0])[:7] == ["turn", "stage", "match", "home", "home manager", "away", "away manager"]
    assert len(rows) == 8 and len({r["match"] for r in rows}) == 8  # a line per match of turn 1
    for row in rows:
        assert row["home manager"] == table[row["home"]] and row["away manager"] == table[row["away"]]


# The full-width signs that spreadsheets in East Asian locales also start a formula with.
FULL_WIDTH_NAMES = {"p1": "\uff1dHYPERLINK(\"http://evil.example\")", "p2": "\uff0bSUM(1)", "p3": "\uff0d2",
                    "p4": "\uff20SUM(1)"}


def test_full_width_formula_signs_are_text_too(app: FastAPI) -> None:
    game = _played(app, "Wide cup", FULL_WIDTH_NAMES, 1)
    spectator = new_client(app)
    matches = _rows(spectator.get(f"{game.base}/matches.csv"))
    assert {r["home manager"] for r in matches} | {r["away manager"] for r in matches} == {
        "'" + name for name in FULL_WIDTH_NAMES.values()
    }


def _date_like(cell: str) -> bool:
    """What a spreadsheet turns into a date when it opens a CSV: "3-4", "12-10", "4/9"."""
    import re

    return re.fullmatch(r"\d{1,4}[-/]\d{1,4}([-/]\d{1,4})?", cell) is not None


def test_no_cell_reads_as_a_date(app: FastAPI) -> None:
    """A shared place ("3-4", the semi-finalists) and a score ("12-10") opened in a spreadsheet
    became the 4th of March and the 10th of December; a knockout's count-back result too."""
    game = host_game(app, hours="0", name="Date cup")
    game.start()  # nobody joined: the bots play it to the final at once
    spectator = new_client(app)
    standing = _rows(spectator.get(f"{game.base}/standing.csv"))
    assert [r["place"] for r in standing] == ["1", "2", "3\u20134", "3\u20134", "5\u20136", "5\u20136",
                                              "7\u20138", "7\u20138"]
    matches = _rows(spectator.get(f"{game.base}/matches.csv"))
    assert all(row["result"].startswith(f"{max(int(row['home points']), int(row['away points']))}\u2013")
               for row in matches)
    for table in (standing, matches):
        assert not [cell for row in table for cell in row.values() if _date_like(cell)]


def _saved_as(response) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """The file names a download offers: the plain ``filename`` and the UTF-8 ``filename*``
    (RFC 6266 and RFC 8187; browsers take the second)."""
    import re
    from urllib.parse import unquote

    header = response.headers["content-disposition"]
    assert header.isascii(), header
    found = re.fullmatch(r'attachment; filename="([^"\\]+)"; filename\*=UTF-8\'\'([A-Za-z0-9%._~!$&+^`|-]+)', header)
    assert found, header
    return found.group(1), unquote(found.group(2), errors="strict")


def test_downloads_are_named_after_the_game_and_when(app: FastAPI, clock) -> None:  # type: ignore[no-untyped-def]
    """A club secretary's downloads folder held "sevens-Ws8j9xNmaVBD-matches.csv" for every game:
    nothing said which game, nor how far it had gone. The names now say the game's name (in its
    own script where the browser takes it), what, after which turn, the day, and the id."""
    import re

    game = host_game(app, hours="0", name="Coupe d\u2019\u00e9t\u00e9: Z\u00fcrich/Basel \u26bd")
    for seat, name in (("p1", "Ann"), ("p2", "Ben"), ("p3", "Cat"), ("p4", "Dan")):
        game.join(seat, name)  # every team someone's: the bots never play it on by themselves
    game.start()
    game.resolve(1, 2)
    day = clock().date().isoformat()
    spectator = new_client(app)
    unsafe = re.compile(r'[\\/:*?"<>|\x00-\x1f\s]')  # what Windows, macOS or Linux refuse or a shell trips on
    expected = {
        "matches.csv": f"Coupe-d\u2019\u00e9t\u00e9-Z\u00fcrich-Basel-\u26bd-matches-after-turn-2-{day}-{game.public_id}.csv",
        "standing.csv": f"Coupe-d\u2019\u00e9t\u00e9-Z\u00fcrich-Basel-\u26bd-standing-after-turn-2-{day}-{game.public_id}.csv",
        "record.json": f"Coupe-d\u2019\u00e9t\u00e9-Z\u00fcrich-Basel-\u26bd-record-after-turn-2-{day}-{game.public_id}.json",
    }
    for path, name in expected.items():
        for url in (f"{game.base}/{path}", f"/api/v1/games/{game.public_id}/{path}"):
            if path == "record.json" and url.startswith("/api"):
                continue  # the API gives the record as JSON to read, not as a file
            plain, utf8 = _saved_as(spectator.get(url))
            assert utf8 == "sevens-" + name, url
            assert plain == "sevens-Coupe-d-ete-Zurich-Basel-" + name.split("Basel-\u26bd-")[1], url
            assert not unsafe.search(plain) and not unsafe.search(utf8), url
    game.resolve(*range(3, 6))
    plain, utf8 = _saved_as(spectator.get(f"{game.base}/standing.csv"))
    assert plain == f"sevens-Coupe-d-ete-Zurich-Basel-standing-final-{day}-{game.public_id}.csv"
    # A name in another script alone: the plain name does without it.
    other = host_game(app, hours="0", name="\u6771\u4eac\u30bb\u30d6\u30f3\u30ba")
    plain, utf8 = _saved_as(new_client(app).get(f"{other.base}/matches.csv"))
    assert (plain, utf8) == (f"sevens-matches-before-turn-1-{day}-{other.public_id}.csv",
                             f"sevens-\u6771\u4eac\u30bb\u30d6\u30f3\u30ba-matches-before-turn-1-{day}-{other.public_id}.csv")
    # The longest name a game may have, of emoji, within the 255 bytes most file systems allow a name.
    player = "\U0001f3c9\U0001f3fd\u200d\u2642\ufe0f"  # one character: a man playing rugby, his skin tone
    longest = host_game(app, hours="0", name=player * 64)
    plain, utf8 = _saved_as(new_client(app).get(f"{longest.base}/matches.csv"))
    assert utf8.startswith(f"sevens-{player}") and len(utf8.encode()) <= 200, len(utf8.encode())


def _mapping() -> list[list[str]]:
    """docs/web.md's table of one match in matches.csv, the API and the record: a row each, the
    three names (or "-")."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    section = page[page.index("### One match in matches.csv, the API and the record"):]
    section = section[:section.index("\n\n", section.index("| matches.csv"))]  # the first table alone
    rows = [[cell.strip().strip("`") for cell in line.strip("|").split("|")][:3]
            for line in section.splitlines() if line.startswith("| ")]
    assert rows[0] == ["matches.csv", "API", "record"]
    return rows[2:]


def _keys(data: dict[str, Any], prefix: str = "") -> set[str]:
    """Every key of a JSON object, a nested one's dotted; lists (the dice) are values."""
    keys: set[str] = set()
    for key, value in data.items():
        keys |= _keys(value, f"{prefix}{key}.") if isinstance(value, dict) else {prefix + key}
    return keys


def _sides(name: str) -> set[str]:
    return {name.replace("SIDE", side) for side in ("home", "away")} if name != "-" else set()


def test_the_docs_name_every_column_of_matches_csv_and_every_key_of_a_match_in_the_api_and_the_record(
    app: FastAPI,
) -> None:
    # A match has three shapes (a CSV line with word headings, the API's home.order, the record's
    # home_order) and nothing said which column was which key: a script had to guess. Each shape
    # keeps its names (scripts read them); docs/web.md maps them, and this fails on a rename.
    game = _played(app, "Names", FORMULA_NAMES, 1)
    spectator = new_client(app)
    view = spectator.get(f"/api/v1/games/{game.public_id}").json()
    record = spectator.get(f"/api/v1/games/{game.public_id}/record").json()
    header = next(csv.reader(io.StringIO(spectator.get(f"{game.base}/matches.csv").content.decode("utf-8")[1:])))
    api_turn, record_turn = view["turns"][0], record["turns"][0]
    api = _keys({k: v for k, v in api_turn.items() if k != "matches"}) | _keys(api_turn["matches"][0])
    match = dict(record_turn["matches"][0])
    # The record keeps SCRUM by team id: the page writes that scrum[SIDE].
    match["scrum"] = {f"[{side}]": match["scrum"][match[side]] for side in ("home", "away")}
    kept = _keys({k: v for k, v in record_turn.items() if k != "matches"}) | _keys(match)
    kept = {key.replace(".[", "[") for key in kept}
    rows = _mapping()
    assert {n for row in rows for n in _sides(row[0])} == set(header)
    assert {n for row in rows for n in _sides(row[1])} == api
    assert {n for row in rows for n in _sides(row[2])} == kept
    # Every column of the CSV is one of the API's keys too, where the table gives one.
    for csv_name, api_name, _ in rows:
        if csv_name != "-" and api_name != "-":
            for column, key in zip(sorted(_sides(csv_name)), sorted(_sides(api_name)), strict=True):
                assert column.split()[0] == key.split(".")[0] or column in ("winner", "decided by", "result",
                                                                             "turn", "stage", "match"), (column, key)


def test_the_docs_name_every_column_of_standing_csv_and_the_key_of_the_view_it_comes_from(app: FastAPI) -> None:
    game = _played(app, "Standing names", FORMULA_NAMES, *range(1, 6))
    spectator = new_client(app)
    view = spectator.get(f"/api/v1/games/{game.public_id}").json()
    header = next(csv.reader(io.StringIO(spectator.get(f"{game.base}/standing.csv").content.decode("utf-8")[1:])))
    page = " ".join((Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8").split())
    said = page[page.index("`standing.csv` is the view's `standing`:"):]
    said = said[:said.index(". ")]
    named = re.findall(r"`([^`]+)`", said)[2:]
    assert [n for n in named if "[]." not in n] == header
    for key in (n for n in named if "[]." in n):
        listing, field = key.split("[].")
        assert all(field in entry for entry in view[listing]), key


def test_the_docs_name_every_top_level_key_of_the_game_view_and_of_the_record(app: FastAPI) -> None:
    # The view's format is the record's tournament, and teams[].manager is a name in one and a seat
    # id in the other: docs/web.md's second table says which is which, and fails on a rename.
    game = _played(app, "Top names", FORMULA_NAMES, 1)
    spectator = new_client(app)
    view = spectator.get(f"/api/v1/games/{game.public_id}").json()
    record = spectator.get(f"/api/v1/games/{game.public_id}/record").json()
    page = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    section = page[page.index("Around the matches, the game view and the record"):page.index("`standing.csv` is the view")]
    rows = [line.strip("|").split("|")[:2] for line in section.splitlines() if line.startswith("| `") or line.startswith("| - ")]
    for column, data in ((0, view), (1, record)):
        named = {key for row in rows for key in re.findall(r"`([^`]+)`", row[column])}
        shown: set[str] = set()
        for key, value in data.items():
            inside = {n.split("[].", 1)[1] for n in named if n.startswith(key + "[].")}
            shown |= {f"{key}[].{k}" for k in value[0]} if inside else {key}
        assert shown == named, column
