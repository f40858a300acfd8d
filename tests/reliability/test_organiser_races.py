"""Organiser races: the same button pressed in two tabs, or several buttons at once, on two
servers sharing one database. Each act must come out as if the presses had come one after the
other: nothing done twice, and no act's change to the game's record lost under another's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

from reliability.helpers import BACKENDS, ApiGame, cluster, together
from sevens.store.db import make_sessionmaker
from sevens.store.models import EventRow, SeatRow, TeamRow
from sevens.web.testing import ServerFarm

pytestmark = pytest.mark.slow

@pytest.mark.parametrize("backend", BACKENDS)
def test_start_pressed_in_two_tabs_starts_the_game_once(farm: ServerFarm, tmp_path: Path, backend: str) -> None:
    """Two Starts at once: one starts the game, the other is told it has already started; one
    draw (eight teams, one "started" event)."""
    with cluster(farm, backend, tmp_path) as race:
        engine, clients = race.engine, race.clients
        for _ in range(4):
            game = ApiGame.create(clients[0], engine, start=False)
            answers = together(
                [
                    lambda c=c, g=game: c.post(f"/api/v1/games/{g.public_id}/start", headers=g.organiser)
                    for c in clients
                ]
            )
            assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
            refused = next(a for a in answers if a.status_code == 409)
            assert "the game has already started" in refused.text, refused.text
            with make_sessionmaker(engine)() as db:
                teams = db.scalar(select(func.count()).select_from(TeamRow).where(TeamRow.game_id == game.game_id))
                started = db.scalar(
                    select(func.count())
                    .select_from(EventRow)
                    .where(EventRow.game_id == game.game_id, EventRow.kind == "started")
                )
            assert (teams, started) == (8, 1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_names_removed_at_once_are_all_gone_from_the_record(farm: ServerFarm, tmp_path: Path, backend: str) -> None:
    """The organiser removes every player's name of a game over at once (four presses, two
    servers): each seat and the record say "Player N", and no chosen name is left in the record
    (one removal writing the record as it read it before another's would put that name back)."""
    with cluster(farm, backend, tmp_path) as race:
        engine, clients = race.engine, race.clients
        for _ in range(3):
            game = ApiGame.create(clients[0], engine)
            ended = clients[0].post(f"/api/v1/games/{game.public_id}/end", headers=game.organiser)
            assert ended.status_code == 200, ended.text
            seats = sorted(game.players)
            answers = together(
                [
                    lambda c=clients[i % 2], pid=pid, g=game: c.post(
                        f"/api/v1/games/{g.public_id}/seats/{pid}/remove-name", headers=g.organiser
                    )
                    for i, pid in enumerate(seats)
                ]
            )
            assert [a.status_code for a in answers] == [200] * len(seats), [a.text for a in answers]
            with make_sessionmaker(engine)() as db:
                record = json.loads(game.row(db).record_json or "{}")
                names = {s.player_id: s.name for s in db.scalars(select(SeatRow).where(SeatRow.game_id == game.game_id))}
            in_record = {p["id"]: p["name"] for p in record["players"]}
            expected = {pid: f"Player {pid[1:]}" for pid in seats}
            assert names == expected
            assert in_record == expected, "a removed name is back in the record"
