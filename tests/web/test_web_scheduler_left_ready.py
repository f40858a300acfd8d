"""A turn left open with every order ready while the server runs (the work after its last ready
order, a start with no seat taken or a seat handed to the bots failed after the commit: a database
error, a killed worker) is resolved by the scheduler's next polls, not left for a restart."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

from fastapi import FastAPI
from sqlalchemy import event

from sevens.store import games as store
from sevens.store.db import session_scope
from sevens.store.games import LEFT_READY_AFTER
from sevens.web.scheduler import resolve_all_ready, resolve_due, run_scheduler
from web.web_helpers import FakeClock, Hosted, host_game, statements_sent


def _strand(app: FastAPI, game: Hosted, clock: FakeClock) -> None:
    """Every order of turn 1 ready and committed, the turn not worked out: what a request whose
    work after the commit failed leaves."""
    teams = game.my_teams("p1")  # before the session: a SQLite app has one connection
    with session_scope(app.state.sessionmaker) as session:
        game_id = store.game_by_public_id(session, public_id=game.public_id).id
        for team in teams:
            store.save_order(
                session, game_id=game_id, player_id="p1", team_id=team, turn=1, force=9, flair=9,
                ready=True, via="web", now=clock(), then_advance=False,
            )


def _one_player(app: FastAPI, name: str) -> Hosted:
    game = host_game(app, name=name, arrangement="4-8-2", hours="0")
    game.join("p1", "Ann")
    game.start()
    return game


def test_a_turn_left_all_ready_while_the_server_runs_is_resolved_at_a_later_poll(app: FastAPI, clock: FakeClock) -> None:
    """Only the first poll after a start looked for such turns: one left while the server stayed up
    waited, in a game without a deadline, until someone pressed Ready again or the organiser
    Resolve. The scheduler now looks at a changed turn once it has stood still for a while (its
    own request may be working it out meanwhile), and leaves a turn still waiting for an order."""
    waiting = _one_player(app, "Still waiting")
    stranded = _one_player(app, "Stranded")
    assert waiting.order("p1", waiting.my_teams("p1")[0], 5, 3, action="ready").status_code == 303

    async def run(seconds: float, then: float = 0) -> None:
        task = asyncio.create_task(run_scheduler(app.state.sessionmaker, clock=clock, interval=0.1))
        await asyncio.sleep(seconds)
        if then:
            _strand(app, stranded, clock)
            await asyncio.sleep(1)  # ten polls: the turn is seen, too fresh to look at
            assert stranded.turn() == 1, "looked at while its own request might still be resolving it"
            clock.advance(seconds=LEFT_READY_AFTER.total_seconds() + 1)
            for _ in range(int(then * 10)):
                if stranded.turn() == 2:
                    break
                await asyncio.sleep(0.1)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    asyncio.run(run(1, then=10))  # the first poll is over when the turn is left
    assert stranded.turn() == 2, "a turn left with every order ready was not resolved"
    assert waiting.turn() == 1, "a turn still waiting for an order was resolved"


def test_a_poll_looks_only_at_the_games_whose_open_turn_changed(app: FastAPI, clock: FakeClock) -> None:
    """Each poll reads one statement, which finds the games due from an index: only a game a write
    may have left all ready, once that write has stood for a while, is read further (replayed to
    see who is ready), once. It read a row for every game being played, abandoned ones included."""
    games = [_one_player(app, f"Game {n}") for n in range(3)]
    clock.advance(seconds=60)
    assert resolve_all_ready(app.state.sessionmaker, now=clock()) == 0  # each start: looked at once
    clock.advance(seconds=60)
    with statements_sent(app) as sent:
        assert resolve_all_ready(app.state.sessionmaker, now=clock()) == 0
    assert len(sent) == 1, sent
    _strand(app, games[1], clock)
    with statements_sent(app) as sent:
        assert resolve_all_ready(app.state.sessionmaker, now=clock()) == 0
    assert len(sent) == 1, "a turn changed just now was looked at"
    clock.advance(seconds=LEFT_READY_AFTER.total_seconds())
    assert resolve_all_ready(app.state.sessionmaker, now=clock()) == 1
    assert [game.turn() for game in games] == [1, 2, 1]
    clock.advance(seconds=60)  # turn 2 is new, looked at once: Ann's orders are awaited
    assert resolve_all_ready(app.state.sessionmaker, now=clock()) == 0
    clock.advance(seconds=60)
    with statements_sent(app) as sent:
        assert resolve_all_ready(app.state.sessionmaker, now=clock()) == 0
    assert len(sent) == 1, sent


def test_a_turn_with_an_order_not_ready_is_never_replayed(app: FastAPI, clock: FakeClock) -> None:
    """An order saved but not ready holds the turn up: it does not make the game due, and the poll's
    one statement finds nothing to read further."""
    game = _one_player(app, "Saved only")
    clock.advance(seconds=60)
    resolve_all_ready(app.state.sessionmaker, now=clock())  # the start's look
    assert game.order("p1", game.my_teams("p1")[0], 5, 3).status_code == 303  # saved, not ready
    for _ in range(2):
        clock.advance(seconds=60)
        with statements_sent(app) as sent:
            assert resolve_all_ready(app.state.sessionmaker, now=clock()) == 0
        assert len(sent) == 1, sent


def test_a_poll_reads_as_much_with_many_idle_games_as_with_one(app: FastAPI, clock: FakeClock) -> None:
    """A poll's statements find the games due from the indexes of ``deadline_at`` and
    ``ready_check_at``: one abandoned game, then six (with a deadline days away, and with none),
    and a poll sends the same two statements, which return no row and, on SQLite, whose plans scan
    no table of games. The look for turns left all ready read a row for every game being played."""
    engine = app.state.engine

    def poll() -> list[tuple[str, Any]]:
        clock.advance(seconds=60)
        sent: list[tuple[str, Any]] = []

        def note(conn: Any, cursor: Any, statement: str, parameters: Any, *args: Any) -> None:
            sent.append((statement, parameters))

        event.listen(engine, "before_cursor_execute", note)
        try:
            resolve_due(app.state.sessionmaker, now=clock(), failed=set())
            resolve_all_ready(app.state.sessionmaker, now=clock())
        finally:
            event.remove(engine, "before_cursor_execute", note)
        return sent

    def abandoned(name: str, hours: str) -> None:
        game = host_game(app, name=name, arrangement="4-8-2", hours=hours)
        game.join("p1", "Ann")
        game.start()

    abandoned("Idle 0", "0")
    poll()  # the start's look, once it has stood for a while
    one = poll()
    for number in range(1, 6):
        abandoned(f"Idle {number}", "0" if number % 2 else "72")
    poll()
    six = poll()
    assert [statement for statement, _ in six] == [statement for statement, _ in one], six
    assert len(six) == 2, six
    with engine.connect() as connection:
        for statement, parameters in six:
            assert connection.exec_driver_sql(statement, parameters).all() == [], statement
            if engine.dialect.name == "sqlite":
                plan = [row[-1] for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)]
                assert not [step for step in plan if re.match(r"SCAN (TABLE )?games\b", step)], (statement, plan)
