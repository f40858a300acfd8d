"""R9: a knockout match level after count-back goes to the better group record. The order screen
of a knockout match gives both teams' group records and what they decide, and the API's player
view says the same; a group match has neither. All of it is public (the final group tables)."""

from __future__ import annotations

import html
import json
import re

from sevens.tournament import from_record
from sevens.tournament.standings import TableRow, compare_group_records
from web.web_helpers import Hosted, new_client, post_form

WHEN = (
    "If the match ends level (on points, then tries, conversions and drop goals), "
    "the team with the better group record goes through (R9): "
)


def _said(page: str, team: str) -> str | None:
    found = re.search(rf'<p class="if-level" id="if-level-{team}">(.*?)</p>', page, re.S)
    return None if found is None else html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))


def _record(name: str, row: TableRow) -> str:
    return (
        f"{name} {row.league_points} league points, {row.tries_for} tries and {row.points_for} points scored, "
        f"{row.tries_against} tries and {row.points_against} points conceded"
    )


def _token(hosted: Hosted, player: str) -> dict[str, str]:
    """A bot token for the seat ``player`` already plays in its browser (its link for another device)."""
    device = post_form(hosted.players[player], f"{hosted.base}/device-link")
    link = re.search(r'id="invite-link">([^<]+)<', device.text)
    assert link, device.text[-400:]
    joined = new_client(hosted.app).post(
        "/api/v1/join", json={"invite": link.group(1).rsplit("/", 1)[1], "name": "Player"}
    )
    assert joined.status_code in (200, 201), joined.text
    return {"Authorization": f"Bearer {joined.json()['token']}"}


def test_a_knockout_order_screen_gives_the_group_records_a_level_match_falls_back_on(hosted: Hosted) -> None:
    tokens = {player: _token(hosted, player) for player in hosted.players}
    api = new_client(hosted.app)
    for turn in (1, 2, 3):  # the groups: a level match is a draw, nothing to fall back on
        for player, client in hosted.players.items():
            assert 'class="if-level"' not in client.get(f"{hosted.base}/play").text
            mine = api.get(f"/api/v1/games/{hosted.public_id}", headers=tokens[player]).json()["my_teams"]
            assert [t["if_level"] for t in mine] == [None, None]
        assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": str(turn)}).status_code == 303
    record = json.loads(hosted.organiser.get(f"{hosted.base}/record.json").text)
    game, _ = from_record(record)
    names = {t["id"]: t["name"] for t in record["teams"]}
    final = game.final_tables
    assert final is not None and str(game.stage) == "semi-final"
    rows = {row.team: row for table in final.values() for row in table.rows}
    shown = 0
    for player, client in hosted.players.items():
        page = client.get(f"{hosted.base}/play").text
        mine = api.get(f"/api/v1/games/{hosted.public_id}", headers=tokens[player]).json()["my_teams"]
        for team in mine:
            said = _said(page, team["team"])
            if team["match"] is None:  # out after the groups: no match, no form, nothing said
                assert said is None and team["if_level"] is None
                continue
            shown += 1
            ours, theirs = rows[team["team"]], rows[team["opponent"]]
            better = compare_group_records(ours, theirs)
            favoured = None if not better else ours.team if better > 0 else theirs.team
            figures = f"Group records: {_record(names[ours.team], ours)}; {_record(names[theirs.team], theirs)}."
            verdict = "the records are level too, so lots would decide." if favoured is None else f"here {names[favoured]}, on "
            assert said is not None and said.startswith(WHEN + verdict), said
            assert said.endswith(f" {figures}"), said
            # The API says it in the same words, with the figures as numbers.
            level = team["if_level"]
            assert said == f"{level['explanation']} {level['figures']}"
            assert level["favours"] == favoured
            assert [r["team"] for r in level["records"]] == [ours.team, theirs.team]
            assert level["records"][1] == {
                "team": theirs.team,
                "league_points": theirs.league_points,
                "tries_for": theirs.tries_for,
                "points_for": theirs.points_for,
                "tries_against": theirs.tries_against,
                "points_against": theirs.points_against,
            }
            assert favoured is None or f"on {level['decided_on']} " in said
            # It sits with the team's order form, and nothing the opponent orders changes it (R13).
            article = page.split(f'id="team-{team["team"]}"')[1].split("</article>")[0]
            assert 'class="if-level"' in article and 'name="force"' in article
            rival = next(p for p in hosted.players if team["opponent"] in hosted.my_teams(p))
            assert hosted.order(rival, team["opponent"], 11, 9).status_code == 303
            assert _said(client.get(f"{hosted.base}/play").text, team["team"]) == said
            view = api.get(
                f"/api/v1/games/{hosted.public_id}/teams/{team['team']}/view", headers=tokens[player]
            ).json()
            assert view["team"]["if_level"] == level
            # The live odds name the rules they were worked under, as `sevens odds --json` does.
            odds = client.post(f"{hosted.base}/odds", data={"team": team["team"], "force": 6, "flair": 3}).json()
            assert odds["rules"] == "knockout" and odds["against"]
            assert all(abs(row["win"] + row["level"] + row["loss"] - 1) < 1e-6 for row in odds["against"])
    assert shown == 4  # both semi-finals, each team from its manager's page
