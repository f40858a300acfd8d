"""The deadline scheduler meeting a saved order the rules refuse (one a hand-made backup could hold)."""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import re
from datetime import timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import select, update

from sevens.store.models import GameRow, OrderRow, TeamRow
from sevens.web.scheduler import resolve_due, run_scheduler
from web.web_helpers import FakeClock, Hosted, host_game, log_shown, new_client, post_form


def test_a_refused_saved_order_is_logged_once_by_team_and_rule_without_its_numbers(
    app: FastAPI, hosted: Hosted, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """A saved order over its team's SCRUM made resolution fail at every poll, and each time the
    log held the refusal's text, with the order's numbers (R13: secret until the turn is resolved)
    and a traceback. Now one line says which game, turn and team, and which rule, and no number
    of the order; later polls say nothing more about that turn."""
    team = hosted.my_teams("p1")[0]
    assert hosted.order("p1", team, 10, 0).status_code == 303
    with app.state.sessionmaker() as db:  # as a hand-edited backup could have left it: over SCRUM 100
        db.execute(update(OrderRow).where(OrderRow.team_id == team).values(force=91, flair=12))
        db.commit()
    clock.advance(hours=25)

    async def polls() -> None:
        task = asyncio.create_task(run_scheduler(app.state.sessionmaker, clock=clock, interval=0.2))
        await asyncio.sleep(1.5)  # several polls
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    with caplog.at_level(logging.INFO, logger="sevens.web.scheduler"):
        asyncio.run(polls())
    lines = [r for r in caplog.records if r.name == "sevens.web.scheduler"]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    said = lines[0].getMessage()
    assert lines[0].levelno == logging.ERROR and lines[0].exc_info is None
    assert said.startswith(
        f"game {hosted.public_id}: turn 1 cannot be resolved at its deadline: the saved order of team '{team}' "
        "breaks R3 (the order as a whole); the turn stays open"
    ), said
    unsaid = said.replace(hosted.public_id, "")
    assert "91" not in unsaid and "12" not in unsaid and "103" not in unsaid, said
    with app.state.sessionmaker() as db:  # the turn stays open, the order as it was
        assert db.scalar(select(GameRow.current_turn).where(GameRow.public_id == hosted.public_id)) == 1


def _over_scrum(app: FastAPI, team: str) -> None:
    with app.state.sessionmaker() as db:  # as a hand-edited backup could have left it: over SCRUM 100
        db.execute(update(OrderRow).where(OrderRow.team_id == team).values(force=91, flair=12))
        db.commit()


def test_the_scheduler_forgets_a_failed_turn_once_it_is_no_longer_due(app: FastAPI, clock: FakeClock) -> None:
    """The scheduler keeps each turn it failed to resolve, to say so once, not once a poll. It kept
    them for the life of the server, after the turn was resolved, its deadline moved or its game
    deleted: a set that only grew. Now each poll keeps only the turns still due."""
    games = []
    for _ in range(6):
        game = host_game(app)
        for number in range(1, 5):
            game.join(f"p{number}", f"Player {number}")
        game.start()
        team = game.my_teams("p1")[0]
        assert game.order("p1", team, 10, 0).status_code == 303
        _over_scrum(app, team)
        games.append(game)
    due = clock() + timedelta(hours=25)
    failed: set[tuple[int, int]] = set()
    assert resolve_due(app.state.sessionmaker, now=due, failed=failed) == 0
    assert len(failed) == 6
    for game in games[:3]:
        assert post_form(game.organiser, f"{game.base}/delete", {"confirm": "yes"}).status_code == 200
    for game in games[3:5]:  # moved past the poll's time
        assert post_form(game.organiser, f"{game.base}/extend", {"hours": "10"}).status_code == 303
    assert resolve_due(app.state.sessionmaker, now=due, failed=failed) == 0
    with app.state.sessionmaker() as db:
        still = db.scalar(select(GameRow.id).where(GameRow.public_id == games[5].public_id))
    assert failed == {(still, 1)}


def _team_name(app: FastAPI, team: str) -> str:
    with app.state.sessionmaker() as db:
        name = db.scalar(select(TeamRow.name).where(TeamRow.team_id == team))
    assert name is not None and name != team
    return str(name)


def _no_numbers(said: str, public_id: str) -> None:
    """Neither of the order's numbers (91 FORCE, 103 in all) stands as a word of its own: a page's
    tokens and hashes may hold the digits ('...a91f...', 'x-103k')."""
    words = re.findall(r"[A-Za-z0-9_-]+", said.replace(public_id, ""))
    assert "91" not in words and "103" not in words, said


def test_the_organisers_resolve_on_the_page_says_which_order_blocks_the_turn_without_its_numbers(
    app: FastAPI, hosted: Hosted, caplog: pytest.LogCaptureFixture
) -> None:
    """Resolve now with such an order was a 500, and the server's log had the traceback ending in
    the order's numbers (R13). Now 409, saying whose order and which rule, and the turn stays open."""
    team = hosted.my_teams("p1")[0]
    assert hosted.order("p1", team, 10, 0).status_code == 303
    _over_scrum(app, team)
    with caplog.at_level(logging.DEBUG):
        answer = post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"})
    assert answer.status_code == 409, answer.text
    # The organiser page again, naming the team as the page names teams (it said "team 'fiji'").
    assert f"Turn 1 cannot be resolved: the saved order of {_team_name(app, team)} breaks R3" in answer.text, answer.text
    assert f"&#39;{team}&#39;" not in answer.text and f"'{team}'" not in answer.text
    _no_numbers(answer.text.split("<main", 1)[-1], hosted.public_id)
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    with app.state.sessionmaker() as db:
        assert db.scalar(select(GameRow.current_turn).where(GameRow.public_id == hosted.public_id)) == 1
    # the manager replaces the order, and the turn can be resolved
    assert hosted.order("p1", team, 10, 0).status_code == 303
    assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"}).status_code == 303
    with app.state.sessionmaker() as db:
        assert db.scalar(select(GameRow.current_turn).where(GameRow.public_id == hosted.public_id)) == 2


def test_the_apis_resolve_answers_409_naming_the_order_that_blocks_the_turn(app: FastAPI) -> None:
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Blocked", "players": 4}).json()
    game, organiser = created["game"], {"Authorization": f"Bearer {created['token']}"}
    joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ann"}).json()
    p1 = {"Authorization": f"Bearer {joined['token']}"}
    assert client.post(f"/api/v1/games/{game}/start", headers=organiser).status_code == 200
    team = client.get(f"/api/v1/games/{game}", headers=p1).json()["my_teams"][0]["team"]
    put = client.put(f"/api/v1/games/{game}/orders/{team}", json={"turn": 1, "force": 10, "flair": 0}, headers=p1)
    assert put.status_code == 200, put.text
    _over_scrum(app, team)
    answer = client.post(f"/api/v1/games/{game}/resolve", json={"turn": 1}, headers=organiser)
    assert answer.status_code == 409, answer.text
    detail = answer.json()["detail"]
    assert f"the saved order of team '{team}' breaks R3 (the order as a whole)" in detail, detail
    _no_numbers(detail, game)
    assert client.get(f"/api/v1/games/{game}", headers=organiser).json()["turn"] == 1


def _unresolved(page: str) -> str | None:
    found = re.search(r'<p class="error" id="unresolved">(.*?)</p>', page)
    return None if found is None else html.unescape(found.group(1))


def test_the_organiser_page_says_the_turn_could_not_be_resolved_at_its_deadline_and_why(
    app: FastAPI, hosted: Hosted, clock: FakeClock
) -> None:
    """The scheduler tried such a turn again at every poll and said so in the server's log only:
    the organiser, whose players waited on a turn past its deadline, was told nothing. Now the event
    log says it once (not once a poll, nor again after a restart), and the organiser page says in a
    sentence which order blocks the turn (never its numbers, R13) and what to do; an extension,
    which reopens the turn, ends the notice."""
    team = hosted.my_teams("p1")[0]
    assert hosted.order("p1", team, 10, 0).status_code == 303
    _over_scrum(app, team)
    due = clock() + timedelta(hours=25)
    for failed in (set(), set()):  # two runs of the scheduler (a restart between), two polls each
        assert resolve_due(app.state.sessionmaker, now=due, failed=failed) == 0
        assert resolve_due(app.state.sessionmaker, now=due, failed=failed) == 0
    clock.advance(hours=25)
    page = hosted.organiser.get(f"{hosted.base}/organise").text
    said = _unresolved(page)
    assert said == (
        f"Turn 1 could not be resolved at its deadline: the saved order of {_team_name(app, team)} breaks R3 (the order as a "
        "whole). It stays open, and the server tries again every few seconds; past its deadline no order can be "
        "sent, so extend the deadline below: the team's manager can then send another order, which replaces the "
        "refused one."
    ), page
    _no_numbers(said, hosted.public_id)
    assert log_shown(page).count("· server · could not resolve the turn ·") == 1, page
    assert 'id="unresolved"' not in hosted.players["p1"].get(f"{hosted.base}/play").text
    assert post_form(hosted.organiser, f"{hosted.base}/extend", {"hours": "1"}).status_code == 303
    assert _unresolved(hosted.organiser.get(f"{hosted.base}/organise").text) is None


def test_an_unexpected_failure_at_the_deadline_gives_the_organiser_the_logs_reference(
    app: FastAPI, hosted: Hosted, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """A turn that fails to resolve for a reason nobody foresaw (here every team's autopilot a bot
    this server lacks, as a hand-edited backup could hold): one ERROR line with the traceback and a
    reference, and the organiser page gives the same reference for whoever runs the server."""
    with app.state.sessionmaker() as db:
        db.execute(update(TeamRow).values(autopilot="nowhere-v1"))
        db.commit()
    failed: set[tuple[int, int]] = set()
    with caplog.at_level(logging.INFO, logger="sevens.web.scheduler"):
        for _ in range(3):
            assert resolve_due(app.state.sessionmaker, now=clock() + timedelta(hours=25), failed=failed) == 0
    lines = [r for r in caplog.records if r.name == "sevens.web.scheduler"]
    assert len(lines) == 1 and lines[0].levelno == logging.ERROR and lines[0].exc_info, [r.getMessage() for r in lines]
    reference = re.fullmatch(
        rf"game {hosted.public_id}: resolving turn 1 at its deadline failed \(reference ([0-9a-f]{{8}})\); tried "
        r"again at every poll \(said once\)", lines[0].getMessage()
    )
    assert reference, lines[0].getMessage()
    said = _unresolved(hosted.organiser.get(f"{hosted.base}/organise").text)
    assert said is not None and said.startswith(
        f"Turn 1 could not be resolved at its deadline: an unexpected error on the server (reference "
        f"{reference.group(1)} in its log)."
    ), said



def test_a_last_ready_order_kept_while_another_saved_order_blocks_the_turn_is_said_to_be_saved(app: FastAPI) -> None:
    """The last ready order is committed before its turn is worked out; when another player's
    saved order the rules refuse then blocks the turn, the player was shown an error page ("Sorry:
    409"), as if their order had been refused, though it was kept. Now their page (200) says it is saved
    and what holds the turn up, without the blocking order's numbers (R13)."""
    game = host_game(app, arrangement="4-8-2", hours="0")
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    game.start()
    (first, last), bens = game.my_teams("p1"), game.my_teams("p2")
    for team in bens:
        assert game.order("p2", team, 10, 0, action="ready").status_code == 303
    _over_scrum(app, bens[0])
    assert game.order("p1", first, 9, 9, action="ready").status_code == 303
    answer = game.order("p1", last, 7, 3, action="ready")
    assert answer.status_code == 200, answer.text  # kept: not a refusal
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", answer.text)).split())
    notice = re.search(r"Your order for [^.]+ is saved and ready, but turn 1 cannot be resolved: [^.]+\.", said)
    # The blocking team by its name, as the page names teams (it said "team 'new-zealand'", its id).
    with app.state.sessionmaker() as db:
        blocking = db.scalar(select(TeamRow.name).where(TeamRow.team_id == bens[0]))
    assert blocking is not None and blocking != bens[0]
    assert notice is not None and f"the saved order of {blocking} breaks R3" in notice[0], said
    assert f"'{bens[0]}'" not in said
    _no_numbers(notice[0], game.public_id)
    assert "91 FORCE" not in said and "12 FLAIR" not in said
    with app.state.sessionmaker() as db:
        kept = db.scalar(select(OrderRow).where(OrderRow.team_id == last))
        assert kept is not None and (kept.force, kept.flair, kept.ready) == (7, 3, True)
        assert db.scalar(select(GameRow.current_turn).where(GameRow.public_id == game.public_id)) == 1


def test_an_api_ready_order_kept_while_another_saved_order_blocks_the_turn_answers_200_saying_why(
    app: FastAPI, clock: FakeClock
) -> None:
    """The API's PUT of such a last ready order answered 409, the status of a refusal, so a client
    would send it again or drop it, though it was kept. Now 200 with the order, ``resolved``
    false and ``held_up`` saying what holds the turn up, without the blocking order's numbers (R13)."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Held up", "players": 4}).json()
    game = created["game"]
    ann = {"Authorization": f"Bearer {created['token']}"}
    assert client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ann"}, headers=ann).status_code == 200
    ben = {"Authorization": f"Bearer {client.post('/api/v1/join', json={'invite': created['invites']['p2'], 'name': 'Ben'}).json()['token']}"}
    assert client.post(f"/api/v1/games/{game}/start", headers=ann).status_code == 200
    anns, bens = ([t["team"] for t in client.get(f"/api/v1/games/{game}", headers=who).json()["my_teams"]] for who in (ann, ben))
    for team in bens:
        put = client.put(f"/api/v1/games/{game}/orders/{team}", json={"turn": 1, "force": 10, "flair": 0, "ready": True}, headers=ben)
        assert put.status_code == 200 and put.json()["held_up"] is None, put.text
    _over_scrum(app, bens[0])
    first = client.put(f"/api/v1/games/{game}/orders/{anns[0]}", json={"turn": 1, "force": 9, "flair": 9, "ready": True}, headers=ann)
    assert first.status_code == 200 and first.json()["held_up"] is None, first.text  # the turn is not complete yet
    order = {"turn": 1, "force": 7, "flair": 3, "ready": True}
    answer = client.put(f"/api/v1/games/{game}/orders/{anns[1]}", json=order, headers=ann)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    held_up = body.pop("held_up")
    assert body == {"game": game, "team": anns[1], **order, "resolved": False}, body
    assert held_up.startswith(f"turn 1 cannot be resolved: the saved order of team '{bens[0]}' breaks R3"), held_up
    _no_numbers(held_up, game)
    mine = client.get(f"/api/v1/games/{game}/orders", headers=ann).json()
    assert mine["turn"] == 1 and mine["orders"][anns[1]]["force"] == 7 and mine["orders"][anns[1]]["ready"], mine
    assert client.get(f"/api/v1/games/{game}/state", headers=ann).json()["turn"] == 1
