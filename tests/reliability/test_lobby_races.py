"""Lobby races: joins sent at the same moment, to two servers on one database.

Two players picking one name, one token taking two seats, and the last join crossing the
organiser's *Start*: each is released together from a barrier, several times, and whatever the
order the servers took them in, the game must come out as if they had come one after the other.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine, select, text

from reliability.helpers import BACKENDS, cluster, pg_available, together
from sevens.store import games as store
from sevens.store.auth import REPLACED_INVITE
from sevens.store.db import make_sessionmaker
from sevens.store.games import seat_name
from sevens.store.models import GameRow, SeatRow
from sevens.store.secrets import hash_token
from sevens.web.testing import ServerFarm

pytestmark = pytest.mark.slow

def _new_game(client: httpx.Client, **extra: object) -> dict[str, object]:
    body: dict[str, object] = {"name": "Race", "players": 4, "teams": 8, "teams_per_player": 2, **extra}
    created = client.post("/api/v1/games", json=body)
    assert created.status_code == 201, created.text
    data: dict[str, object] = created.json()
    return data


def _join(client: httpx.Client, invite: str, name: str, token: str | None = None) -> Callable[[], httpx.Response]:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return lambda: client.post("/api/v1/join", json={"invite": invite, "name": name}, headers=headers)


def _start(client: httpx.Client, public_id: str, organiser: dict[str, str]) -> Callable[[], httpx.Response]:
    return lambda: client.post(f"/api/v1/games/{public_id}/start", headers=organiser)


def _seats(engine: Engine, public_id: str) -> list[SeatRow]:
    with make_sessionmaker(engine)() as db:
        game = db.scalar(select(GameRow).where(GameRow.public_id == public_id))
        assert game is not None
        return list(db.scalars(select(SeatRow).where(SeatRow.game_id == game.id)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_players_racing_for_one_name_get_it_once(farm: ServerFarm, tmp_path: Path, backend: str) -> None:
    """Four players join four seats of one lobby at once, all as "Sam": one gets the name, the
    others are told it is taken (as they would be one after the other), never two seats of one name."""
    with cluster(farm, backend, tmp_path) as race:
        engine, clients = race.engine, race.clients
        for _ in range(4):
            game = _new_game(clients[0])
            invites = sorted(game["invites"].items())  # type: ignore[attr-defined]
            answers = together(
                [_join(clients[i % 2], invite, "Sam") for i, (_, invite) in enumerate(invites)]
            )
            statuses = sorted(a.status_code for a in answers)
            assert statuses == [200, 422, 422, 422], [a.text for a in answers]
            for refused in (a for a in answers if a.status_code == 422):
                assert "Sam" in refused.text and "name" in refused.text, refused.text
            names = [s.name for s in _seats(engine, str(game["game"])) if s.joined_at is not None]
            assert names == ["Sam"], names


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_token_racing_into_two_seats_gets_one(farm: ServerFarm, tmp_path: Path, backend: str) -> None:
    """A bot sends its token with three invites of one game at once: it gets one seat, and the
    other joins are refused as they are one after the other (one credential plays one seat), their
    invites left open for someone else."""
    with cluster(farm, backend, tmp_path) as race:
        engine, clients = race.engine, race.clients
        # The token comes from a seat in another game.
        other = _new_game(clients[0])
        first = clients[0].post(
            "/api/v1/join", json={"invite": next(iter(other["invites"].values())), "name": "Bot"}  # type: ignore[attr-defined]
        )
        token = first.json()["token"]
        for _ in range(4):
            game = _new_game(clients[0])
            invites = sorted(game["invites"].items())[:3]  # type: ignore[attr-defined]
            answers = together(
                [_join(clients[i % 2], invite, f"Bot {pid}", token) for i, (pid, invite) in enumerate(invites)]
            )
            statuses = sorted(a.status_code for a in answers)
            assert statuses == [200, 409, 409], [a.text for a in answers]
            for refused in (a for a in answers if a.status_code == 409):
                assert "this token already plays seat" in refused.text, refused.text
            taken = [s.player_id for s in _seats(engine, str(game["game"])) if s.invite_used_at is not None]
            assert len(taken) == 1, taken


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_join_crossing_the_start_is_in_the_lobby_or_after_it(
    farm: ServerFarm, tmp_path: Path, backend: str
) -> None:
    """The last player joins as the organiser presses Start. Either the join came first, and the
    start draws the seat as taken (its name in the record, its teams under the taken seat's
    autopilot), or the start came first, and the join is told the seat keeps the record's name;
    never a seat renamed in the lobby whose teams the start handed to the bots as nobody's."""
    with cluster(farm, backend, tmp_path) as race:
        engine, clients = race.engine, race.clients
        outcomes = {"joined first": 0, "started first": 0}
        for trial in range(8):
            game = _new_game(clients[0], default_bot="random", default_autopilot="even")
            public_id = str(game["game"])
            organiser = {"Authorization": f"Bearer {game['token']}"}
            invites = sorted(game["invites"].items())  # type: ignore[attr-defined]
            for pid, invite in invites[:3]:
                assert _join(clients[0], invite, f"Early {pid}")().status_code == 200
            last_pid, last_invite = invites[3]
            joined, started = together(
                [_join(clients[(trial + 1) % 2], last_invite, "Late"), _start(clients[trial % 2], public_id, organiser)]
            )
            assert started.status_code == 200, started.text
            assert joined.status_code == 200, joined.text
            with make_sessionmaker(engine)() as db:
                row = db.scalar(select(GameRow).where(GameRow.public_id == public_id))
                assert row is not None and row.record_json is not None
                record = json.loads(row.record_json)
            named = {p["id"]: p["name"] for p in record["players"]}
            autopilots = {t["autopilot"] for t in record["teams"] if t["manager"] == last_pid}
            seat = next(s for s in _seats(engine, public_id) if s.player_id == last_pid)
            # The seat plays under the record's name, whichever came first.
            assert seat_name(seat) == named[last_pid], (seat.name, named)
            if joined.json()["name"] == "Late":
                outcomes["joined first"] += 1
                assert named[last_pid] == "Late"
                assert autopilots == {"even"}, record["teams"]
            else:
                outcomes["started first"] += 1
                assert "names are fixed once the game has started" in (joined.json()["note"] or ""), joined.json()
                assert autopilots == {"random"}, record["teams"]


def _csrf(client: httpx.Client) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get("/").text)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_browser_joining_from_two_tabs_gets_one_seat(farm: ServerFarm, tmp_path: Path, backend: str) -> None:
    """A browser that plays a seat elsewhere presses Join on two invites of one game in two tabs at
    once: one takes its seat, the other tab says the browser already plays it and joins nothing."""
    with cluster(farm, backend, tmp_path) as race:
        engine, clients = race.engine, race.clients
        api = clients[0]
        tabs = [race.client(i, follow_redirects=False) for i in range(2)]
        other = _new_game(api)
        path = "/join/" + next(iter(other["invites"].values()))  # type: ignore[attr-defined]
        first = tabs[0].post(path, data={"name": "Ann", "csrf": _csrf(tabs[0])})
        assert first.status_code == 303, first.text
        tabs[1].cookies = tabs[0].cookies  # the same browser: one cookie jar
        token = _csrf(tabs[0])
        for _ in range(4):
            game = _new_game(api)
            invites = sorted(game["invites"].items())[:2]  # type: ignore[attr-defined]
            answers = together(
                [
                    lambda tab=tab, invite=invite: tab.post(f"/join/{invite}", data={"name": f"Ann {invite[:4]}", "csrf": token})
                    for tab, (_, invite) in zip(tabs, invites, strict=True)
                ]
            )
            statuses = sorted(a.status_code for a in answers)
            assert statuses == [303, 409], [a.text[:300] for a in answers]
            refused = next(a for a in answers if a.status_code == 409)
            assert "this: browser already plays seat" not in refused.text
            assert "browser already plays seat" in refused.text, refused.text
            taken = [s.player_id for s in _seats(engine, str(game["game"])) if s.invite_used_at is not None]
            assert len(taken) == 1, taken


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_new_browser_joining_from_two_tabs_gets_one_seat(farm: ServerFarm, tmp_path: Path, backend: str) -> None:
    """A browser with no session yet presses Join on two invites of one game in two tabs at once:
    both carry the CSRF cookie the invite pages set, and nothing else. Before, each made a session
    of its own and took its seat, and the browser kept whichever cookie came last."""
    with cluster(farm, backend, tmp_path) as race:
        engine, api = race.engine, race.clients[0]
        for _ in range(4):
            tabs = [race.client(i, follow_redirects=False) for i in range(2)]
            token = _csrf(tabs[0])  # a new browser: its CSRF cookie, no session
            tabs[1].cookies = tabs[0].cookies
            game = _new_game(api)
            invites = sorted(game["invites"].items())[:2]  # type: ignore[attr-defined]
            answers = together(
                [
                    lambda tab=tab, invite=invite, token=token: tab.post(f"/join/{invite}", data={"name": f"Ann {invite[:4]}", "csrf": token})
                    for tab, (_, invite) in zip(tabs, invites, strict=True)
                ]
            )
            statuses = sorted(a.status_code for a in answers)
            assert statuses == [303, 409], [a.text[:300] for a in answers]
            assert "browser already plays seat" in next(a for a in answers if a.status_code == 409).text
            taken = [s.player_id for s in _seats(engine, str(game["game"])) if s.invite_used_at is not None]
            assert len(taken) == 1, taken


@pytest.mark.skipif(not pg_available(), reason="needs PostgreSQL, whose lock waits can be seen (pg_locks)")
def test_a_join_waiting_while_its_invite_is_replaced_opens_nothing(farm: ServerFarm, tmp_path: Path) -> None:
    """The organiser replaces a seat's invite (New invite link) while a join with the old one
    waits for the game: the old link opens nothing, with a message that says it was replaced, and
    the new link still opens the seat. The test holds the game's row lock itself, sees the join
    queue behind it in pg_locks, then replaces the invite as reissue_invite does and lets go."""
    with cluster(farm, "postgresql", tmp_path, count=1) as race:
        engine, client = race.engine, race.clients[0]
        game = _new_game(client)
        old = game["invites"]["p1"]  # type: ignore[index]
        with make_sessionmaker(engine)() as db:
            row = db.scalar(select(GameRow).where(GameRow.public_id == game["game"]))
            assert row is not None
            store.lock_game(db, game_id=row.id)
            answer: list[httpx.Response] = []
            joining = threading.Thread(target=lambda: answer.append(_join(client, old, "Ann")()))
            joining.start()
            with engine.connect() as watch:
                waiting, until = 0, time.monotonic() + 15
                while not waiting and time.monotonic() < until:  # looks until the join is seen to wait
                    waiting = watch.scalar(text("SELECT count(*) FROM pg_locks WHERE NOT granted")) or 0
                assert waiting, "the join did not wait for the game's row lock"
            seat = db.scalar(select(SeatRow).where(SeatRow.game_id == row.id, SeatRow.player_id == "p1"))
            assert seat is not None
            seat.invite_hash = hash_token("a new link's secret")
            db.commit()
        joining.join(timeout=30)
        assert answer and answer[0].status_code == 410, answer[0].text if answer else "no answer"
        assert answer[0].json()["detail"] == REPLACED_INVITE
        again = _join(client, "a new link's secret", "Ann")()
        assert again.status_code == 200, again.text


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_seat_signed_out_on_two_devices_at_once_is_logged_as_left(
    farm: ServerFarm, tmp_path: Path, backend: str
) -> None:
    """A player plays one seat on a laptop and a phone (a link for another device) and signs out
    on both at once: the event log says the seat was left, once, so the organiser knows to hand
    it to the bots. Each sign-out used to count the other device as still playing and say nothing."""
    with cluster(farm, backend, tmp_path) as race:
        engine, clients = race.engine, race.clients
        api = clients[0]
        for _ in range(2):
            laptop, phone = (race.client(i, follow_redirects=False) for i in range(2))
            game = _new_game(api)
            public_id = str(game["game"])
            joined = laptop.post(f"/join/{game['invites']['p1']}", data={"name": "Ann", "csrf": _csrf(laptop)})  # type: ignore[index]
            assert joined.status_code == 303, joined.text
            made = laptop.post(f"/games/{public_id}/device-link", data={"csrf": _csrf(laptop)})
            link = re.search(r"/join/([A-Za-z0-9_-]{20,})", made.text)
            assert made.status_code == 200 and link is not None, made.text[:500]
            again = phone.post(f"/join/{link.group(1)}", data={"name": "Ann", "csrf": _csrf(phone)})
            assert again.status_code == 303, again.text
            tokens = [_csrf(laptop), _csrf(phone)]
            answers = together(
                [
                    lambda c=c, t=t: c.post("/signout", data={"csrf": t})
                    for c, t in zip((laptop, phone), tokens, strict=True)
                ]
            )
            assert [a.status_code for a in answers] == [303, 303], [a.text[:300] for a in answers]
            with make_sessionmaker(engine)() as db:
                row = db.scalar(select(GameRow).where(GameRow.public_id == public_id))
                assert row is not None
                left = [e.detail for e in store.events_of(db, game_id=row.id) if e.kind == "seat left"]
            assert len(left) == 1, left
