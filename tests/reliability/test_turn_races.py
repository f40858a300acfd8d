"""Turn and game races, on two servers sharing one database (cluster()): the organiser's *Resolve
turn* pressed in two tabs, players' orders crossing a resolution, and *Delete game* crossing a join.

Each race is released together from a barrier, several times, on SQLite and PostgreSQL. Whatever
order the servers took the requests in, each must come out as if they had come one after the
other: a turn resolved once; an order either played in its turn or refused with a message that says
the turn was resolved (never accepted and then lost); a deleted game leaving nothing of a player
who joined as it went.
"""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from reliability.helpers import BACKENDS, ApiGame, check_game, cluster, record_orders, together
from sevens.store.db import make_sessionmaker
from sevens.store.models import ApiPrincipal, Base, EventRow, GameRow, TeamRow, TurnRow
from sevens.web.testing import ServerFarm

pytestmark = pytest.mark.slow


def _csrf(client: httpx.Client) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get("/").text)
    assert found is not None
    return found.group(1)


def _resolved(engine, game: ApiGame) -> tuple[list[int], list[str]]:  # type: ignore[no-untyped-def]
    with make_sessionmaker(engine)() as db:
        turns = list(db.scalars(select(TurnRow.number).where(TurnRow.game_id == game.game_id).order_by(TurnRow.number)))
        events = list(
            db.scalars(
                select(EventRow.detail)
                .where(EventRow.game_id == game.game_id, EventRow.kind == "resolved")
                .order_by(EventRow.id)
            )
        )
    return turns, events


@pytest.mark.parametrize("backend", BACKENDS)
def test_resolve_pressed_in_two_organiser_tabs_resolves_the_turn_once(
    farm: ServerFarm, tmp_path: Path, backend: str
) -> None:
    """One organiser's browser, two tabs on two servers, *Resolve turn* pressed in both at once:
    one resolves the turn and goes back to the organiser page; the other shows that page saying the
    turn had already been resolved, from another tab, and which turn is open now. One turn row, one
    "resolved" event, each time."""
    with cluster(farm, backend, tmp_path) as race:
        engine = race.engine
        game = ApiGame.create(race.clients[0], engine, hours=1.0)
        tabs = [race.client(i, follow_redirects=False) for i in range(2)]
        link = race.clients[0].post(f"/api/v1/games/{game.public_id}/organiser-link", headers=game.organiser)
        assert link.status_code == 200, link.text
        claimed = tabs[0].post(f"/organiser/{link.json()['organiser_link']}", data={"csrf": _csrf(tabs[0])})
        assert claimed.status_code == 303, claimed.text
        tabs[1].cookies = tabs[0].cookies  # one browser: one cookie jar
        token = _csrf(tabs[0])
        for turn in (1, 2, 3):
            answers = together(
                [
                    lambda tab=tab, turn=turn: tab.post(
                        f"/games/{game.public_id}/resolve", data={"csrf": token, "turn": str(turn)}
                    )
                    for tab in (tabs if turn % 2 else tabs[::-1])
                ]
            )
            assert sorted(a.status_code for a in answers) == [303, 409], [a.text[:300] for a in answers]
            done = next(a for a in answers if a.status_code == 303)
            assert done.headers["location"].endswith(f"/organise?done=resolve&turn={turn}#done"), done.headers
            late = next(a for a in answers if a.status_code == 409)
            assert f"Turn {turn} had already been resolved" in late.text, late.text
            assert "from another tab" in late.text and f"Turn {turn + 1} is open now" in late.text, late.text
            turns, events = _resolved(engine, game)
            assert turns == list(range(1, turn + 1)), turns
            assert events == [f"turn {n} (organiser)" for n in range(1, turn + 1)], events
        check_game(engine, game.game_id)


def _answered_only_about(answer: httpx.Response, team: str) -> None:
    """R13: an order's answer, accepted or refused, says nothing of any other team's order."""
    if answer.status_code == 200:
        assert set(answer.json()) == {"game", "turn", "team", "force", "flair", "ready", "resolved", "held_up"}, \
            answer.json()
        assert answer.json()["team"] == team
        assert answer.json()["held_up"] is None  # no order the rules refuse here: nothing said of another's
    else:
        assert set(answer.json()) == {"detail"}, answer.json()


@pytest.mark.parametrize("backend", BACKENDS)
def test_orders_crossing_a_resolution_are_played_or_refused_never_lost(
    farm: ServerFarm, tmp_path: Path, backend: str
) -> None:
    """Two bots send their teams' last orders (ready) on two servers as the organiser presses
    *Resolve turn*, on either. Each order is either accepted and then played in that turn, as sent,
    or refused with 409 saying the turn is no longer open and which is; never accepted and then
    played by the autopilot. Exactly the answer whose order completed the turn says it resolved it,
    and no answer says anything of another team's order (R13)."""
    outcomes = {"organiser first": 0, "orders first": 0, "mixed": 0}
    with cluster(farm, backend, tmp_path) as race:
        engine, clients = race.engine, race.clients
        played_turns = 0
        while played_turns < 8:
            game = ApiGame.create(clients[0], engine, hours=1.0)
            while played_turns < 8:
                turn, teams, status = game.open_turn(engine)
                if status != "running":
                    break
                # Two players' teams left to order, the rest ready.
                racers: list[str] = []
                for team in teams:
                    if len(racers) < 2 and all(game.managers[team] != game.managers[r] for r in racers):
                        racers.append(team)
                if len(racers) < 2:
                    break  # one player's teams left in play (a final of two of one seat's): a new game
                for i, team in enumerate(t for t in teams if t not in racers):
                    answer = game.put_order(clients[i % 2], team, turn, 1 + i % 4, 3, True)
                    assert answer.status_code == 200, answer.text
                sent = {racers[0]: (2, 6), racers[1]: (3, 0)}
                calls = [partial(game.put_order, clients[k % 2], team, turn, *sent[team], True) for k, team in enumerate(racers)]
                calls.append(partial(game.resolve, clients[played_turns % 2], turn))
                *orders, resolved = together(calls)
                with make_sessionmaker(engine)() as db:
                    row = game.row(db)
                    assert row.record_json is not None and len(json.loads(row.record_json)["turns"]) >= turn
                    played = record_orders(row.record_json, turn)
                    over = row.status.value == "finished"
                assert resolved.status_code in (200, 409), resolved.text
                if resolved.status_code == 409:
                    said = "the game is finished" if over else f"the open turn is {turn + 1}"
                    assert resolved.json()["detail"] == f"turn {turn} is not open{':' if over else ';'} {said}", resolved.text
                for team, answer in zip(racers, orders, strict=True):
                    _answered_only_about(answer, team)
                    if answer.status_code == 200:
                        assert played[team] == (*sent[team], False), (turn, team, played[team])
                    else:
                        assert answer.status_code == 409, answer.text
                        assert answer.json()["detail"] == (
                            "the game is finished; orders are taken only while it is running" if over else
                            f"turn {turn} is not open for orders; the open turn is {turn + 1}: turn {turn} has been "
                            f"resolved, so this order was not saved; read the game again and send an order for "
                            f"turn {turn + 1}"
                        ), answer.text
                        assert played[team][2] is True, "a refused order leaves the team to its autopilot"
                said_resolved = [a.json()["resolved"] for a in orders if a.status_code == 200]
                if resolved.status_code == 200:
                    assert not any(said_resolved), said_resolved
                    refused = sum(a.status_code == 409 for a in orders)
                    outcomes["organiser first" if refused == 2 else "mixed"] += 1
                else:
                    assert said_resolved.count(True) == 1, said_resolved
                    outcomes["orders first"] += 1
                turns, _ = _resolved(engine, game)
                assert turns == list(range(1, turn + 1)), turns
                check_game(engine, game.game_id)
                played_turns += 1
    print("outcomes:", outcomes)


@pytest.mark.parametrize("backend", BACKENDS)
def test_delete_game_crossing_a_join_leaves_nothing_of_the_joiner(
    farm: ServerFarm, tmp_path: Path, backend: str
) -> None:
    """The organiser deletes a lobby as a player joins it, on two servers. The delete goes through;
    the join either came first (200, and its bot token, labelled with the player's name, goes with
    the game: it opens nothing) or came after (refused, saying the invite or game is gone). No
    credential is left labelled with the player's name either way, and nothing answers 500."""
    with cluster(farm, backend, tmp_path) as race:
        clients = race.clients
        for trial in range(6):
            created = clients[0].post("/api/v1/games", json={"name": "Doomed", "players": 4})
            assert created.status_code == 201, created.text
            data = created.json()
            name = f"Racer {trial}"
            joined, deleted = together(
                [
                    partial(clients[trial % 2].post, "/api/v1/join", json={"invite": data["invites"]["p1"], "name": name}),
                    partial(
                        clients[(trial + 1) % 2].delete,
                        f"/api/v1/games/{data['game']}",
                        headers={"Authorization": f"Bearer {data['token']}"},
                    ),
                ]
            )
            assert deleted.status_code == 204, deleted.text
            assert joined.status_code in (200, 404), joined.text
            if joined.status_code == 200:
                me = clients[0].get("/api/v1/me", headers={"Authorization": f"Bearer {joined.json()['token']}"})
                assert me.status_code == 401, me.text
            else:
                # The invite found no seat, or its seat no game (read just before the delete
                # committed), or the game's lock found it gone.
                said = joined.json()["detail"]
                assert "invite is not valid" in said or said in ("no such game", "the game no longer exists"), said
            with make_sessionmaker(race.engine)() as db:
                assert db.scalar(select(func.count()).select_from(GameRow).where(GameRow.public_id == data["game"])) == 0
                left = list(db.scalars(select(ApiPrincipal.label).where(ApiPrincipal.label == name)))
            assert left == [], f"a credential labelled {name!r} outlived the game ({joined.status_code})"


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_order_form_crossing_a_resolution_is_played_or_said_not_saved(
    farm: ServerFarm, tmp_path: Path, backend: str
) -> None:
    """A player presses Ready on the order form (one server) as the organiser resolves the turn
    through the API (the other). Either the order came first (303, and it is played as sent) or the
    page says, with 409, that the turn had already been resolved and what was not saved, its team
    played by its autopilot; never an order shown as saved and not played."""
    with cluster(farm, backend, tmp_path) as race:
        engine, clients = race.engine, race.clients
        outcomes = {"order first": 0, "organiser first": 0}
        for trial in range(2):
            created = clients[0].post(
                "/api/v1/games", json={"name": "Race", "players": 4, "teams": 8, "teams_per_player": 2, "deadline_hours": 1}
            )
            assert created.status_code == 201, created.text
            data = created.json()
            browser = race.client(trial % 2, follow_redirects=False)
            joined = browser.post(f"/join/{data['invites']['p1']}", data={"name": "Ann", "csrf": _csrf(browser)})
            assert joined.status_code == 303, joined.text
            game = ApiGame(data["game"], {"Authorization": f"Bearer {data['token']}"}, {})
            for pid, invite in sorted(data["invites"].items())[1:]:
                answer = clients[0].post("/api/v1/join", json={"invite": invite, "name": f"Bot {pid}"})
                assert answer.status_code == 200, answer.text
                game.players[pid] = {"Authorization": f"Bearer {answer.json()['token']}"}
            started = clients[0].post(f"/api/v1/games/{game.public_id}/start", headers=game.organiser)
            assert started.status_code == 200, started.text
            with make_sessionmaker(engine)() as db:
                row = db.scalar(select(GameRow).where(GameRow.public_id == game.public_id))
                assert row is not None
                game.game_id = row.id
            token = _csrf(browser)
            for _ in range(3):
                turn, teams, status = game.open_turn(engine)
                if status != "running":
                    break
                mine = [t for t in teams if _manager(engine, game, t) == "p1"]
                if not mine:
                    break
                for i, team in enumerate(t for t in teams if t not in mine):
                    pid = _manager(engine, game, team)
                    answer = clients[i % 2].put(
                        f"/api/v1/games/{game.public_id}/orders/{team}",
                        json={"turn": turn, "force": 1, "flair": 3, "ready": True},
                        headers=game.players[pid],
                    )
                    assert answer.status_code == 200, answer.text
                team = mine[0]
                form = {"csrf": token, "team": team, "turn": str(turn), "force": "2", "flair": "6", "action": "ready"}
                ordered, resolved = together(
                    [
                        partial(browser.post, f"/games/{game.public_id}/orders", data=form),
                        partial(game.resolve, clients[(trial + 1) % 2], turn),
                    ]
                )
                assert ordered.status_code in (303, 409), ordered.text[:500]
                assert resolved.status_code in (200, 409), resolved.text
                with make_sessionmaker(engine)() as db:
                    record_json = game.row(db).record_json
                assert record_json is not None
                played = record_orders(record_json, turn)
                if ordered.status_code == 303:
                    outcomes["order first"] += 1
                    assert played[team] == (2, 6, False), (turn, team, played[team])
                else:
                    outcomes["organiser first"] += 1
                    assert f"turn {turn} had already been resolved when this order came in" in ordered.text or (
                        f"was not saved: turn {turn} had already been resolved when it came in" in ordered.text
                    ), ordered.text
                    assert "2 FORCE + 6 FLAIR" in ordered.text and "was not saved" in ordered.text, ordered.text
                    assert played[team][2] is True, "a refused order leaves the team to its autopilot"
                check_game(engine, game.game_id)
    print("outcomes:", outcomes)


def _manager(engine, game: ApiGame, team: str) -> str:  # type: ignore[no-untyped-def]
    if not game.managers:
        with make_sessionmaker(engine)() as db:
            game.managers = {t.team_id: t.player_id or "" for t in db.scalars(select(TeamRow).where(TeamRow.game_id == game.game_id))}
    return game.managers[team]


@pytest.mark.parametrize("backend", BACKENDS)
def test_delete_game_crossing_orders_and_a_resolve_leaves_no_row(farm: ServerFarm, tmp_path: Path, backend: str) -> None:
    """Delete game pressed as two bots send orders and the organiser resolves the turn, on two
    servers: the delete goes through, each other request either came first (200; an order after
    the resolve 409) or finds no game (404) or its token gone with it (401), nothing answers 500,
    and no row of the game is left in any table."""
    with cluster(farm, backend, tmp_path) as race:
        engine, clients = race.engine, race.clients
        for trial in range(4):
            game = ApiGame.create(clients[0], engine, hours=1.0)
            turn, teams, _ = game.open_turn(engine)
            two = [teams[0], next(t for t in teams if game.managers[t] != game.managers[teams[0]])]
            calls = [partial(game.put_order, clients[i % 2], team, turn, 3, 3, True) for i, team in enumerate(two)]
            calls.append(partial(game.resolve, clients[trial % 2], turn))
            calls.append(
                partial(clients[(trial + 1) % 2].delete, f"/api/v1/games/{game.public_id}", headers=game.organiser)
            )
            *others, deleted = together(calls)
            assert deleted.status_code == 204, deleted.text
            for answer in others:
                # 409: the order came after the resolve, which came before the delete; 401: after the
                # delete, whose tokens (each opened only this game) went with it.
                assert answer.status_code in (200, 401, 404, 409), answer.text
                if answer.status_code == 401:
                    assert answer.json()["detail"].startswith(
                        "this bot token opens nothing any more: the game it was made for was deleted at"
                    ), answer.text
                if answer.status_code == 404:
                    assert "no longer exists" in answer.text or "no game" in answer.text, answer.text
                if answer.status_code == 409:
                    assert f"turn {turn} is not open" in answer.text, answer.text
            with engine.connect() as connection:
                left = {
                    table.name: connection.scalar(
                        select(func.count()).select_from(table).where(table.c.game_id == game.game_id)
                    )
                    for table in Base.metadata.sorted_tables
                    if "game_id" in table.c
                }
            assert not any(left.values()), left
