"""The API's game document carries the final standing the game's page shows: once the final is
played, every team once, the champion first, then the runner-up, the semi-final losers sharing 3-4,
and the teams out after the groups by their group place; empty while the game runs or once ended early."""

from __future__ import annotations

import html
import re

from fastapi import FastAPI

from web.web_helpers import host_game, new_client, on_screen, post_form


def test_a_finished_games_view_gives_the_final_standing_the_page_shows(app: FastAPI) -> None:
    over = host_game(app, name="Standing cup")
    over.start()  # nobody seated: the bots play it through at once
    client = new_client(app)
    view = client.get(f"/api/v1/games/{over.public_id}").json()
    assert view["status"] == "finished"
    standing = view["standing"]
    teams = {team["id"]: team for team in view["teams"]}
    assert sorted(p["team"] for p in standing) == sorted(teams), "every team once"
    assert standing[0] == {**standing[0], "place": "1", "team": view["champion"]}
    final = view["turns"][-1]["matches"][0]
    runner_up = ({final["home"]["team"], final["away"]["team"]} - {view["champion"]}).pop()
    assert standing[1]["place"] == "2" and standing[1]["team"] == runner_up
    semis = view["turns"][-2]["matches"]
    semi_losers = {side["team"] for m in semis for side in (m["home"], m["away"])} - {view["champion"], runner_up}
    assert {p["team"] for p in standing[2:4]} == semi_losers and {p["place"] for p in standing[2:4]} == {"3-4"}
    # the teams out after the groups: the thirds (5-6 in an 8-team game), then the fourths (7-8)
    places = {row["team"]: row["position"] for table in view["tables"].values() for row in table["rows"]}
    assert [places[p["team"]] for p in standing[4:]] == [3, 3, 4, 4]
    assert [p["place"] for p in standing[4:]] == ["5-6", "5-6", "7-8", "7-8"]
    # the page's table, row by row
    page = on_screen(client.get(f"/games/{over.public_id}").text)  # scores and places also said in words
    section = page.split('<section id="standing">', 1)[1].split("</section>", 1)[0]
    rows = re.findall(r'<tr><td>([^<]+)</td><th scope="row" class="name"><a href="[^"]+/teams/[\w-]+">([^<]+)</a></th><td>([^<]*)</td></tr>', section)
    shown = [(place, html.unescape(name), html.unescape(went)) for place, name, went in rows]
    assert shown == [(p["place"], teams[p["team"]]["name"], p["went"]) for p in standing]


def test_no_standing_before_the_final_or_for_a_game_ended_early(app: FastAPI) -> None:
    playing = host_game(app, name="Running cup")
    playing.join("p1", "Ann")
    playing.start()
    ended = host_game(app, name="Ended cup")
    ended.join("p1", "Ben")
    ended.start()
    assert post_form(ended.organiser, f"{ended.base}/end", {}).status_code == 303
    client = new_client(app)
    for game, status in ((playing, "running"), (ended, "ended")):
        view = client.get(f"/api/v1/games/{game.public_id}").json()
        assert view["status"] == status and view["standing"] == []
