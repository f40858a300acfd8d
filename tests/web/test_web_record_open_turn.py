"""R13 in the game record: a record (page download or API) taken while a turn is open holds the turns
resolved so far and nothing of the open one, not even an order already saved or marked ready."""

from __future__ import annotations

import json

from web.web_helpers import Hosted


def test_a_record_taken_mid_turn_holds_no_order_of_the_open_turn(hosted: Hosted) -> None:
    for pid in hosted.players:
        for team in hosted.my_teams(pid):
            assert hosted.order(pid, team, 8, 6, action="ready").status_code == 303
    if hosted.turn() == 1:
        hosted.resolve(1)
    assert hosted.turn() == 2
    # Orders of the open turn, one ready and one only saved, with figures no turn-1 order used.
    first, second = hosted.my_teams("p1")[:2]
    assert hosted.order("p1", first, 13, 21, action="ready").status_code == 303
    assert hosted.order("p1", second, 11, 27).status_code == 303
    for client in (hosted.organiser, hosted.players["p1"], hosted.players["p2"]):
        for record in (
            json.loads(client.get(f"{hosted.base}/record.json").text),
            client.get(f"/api/v1/games/{hosted.public_id}/record").json(),
        ):
            assert record["seed"] is None
            assert [turn["number"] for turn in record["turns"]] == [1]
            orders = [(m[side]["force"], m[side]["flair"]) for turn in record["turns"] for m in turn["matches"]
                      for side in ("home_order", "away_order")]
            assert (13, 21) not in orders and (11, 27) not in orders
            assert '"force": 13' not in json.dumps(record) and '"force": 11' not in json.dumps(record)
