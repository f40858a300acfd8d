"""A turn left open with every order ready while the server runs (the work after its last ready
order, a start with no seat taken or a seat handed to the bots failed after the commit: a database
error, a killed worker) is resolved by the scheduler's next polls, not left for a restart."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta

from fastapi import FastAPI

from sevens.store import games as store
from sevens.store.db import session_scope
from sevens.web.scheduler import LEFT_READY_AFTER, ReadyWatch, resolve_all_ready, run_scheduler
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
    """Each poll reads one statement for every game being played; only a game whose open turn has
    changed, and has stood still since, is read further (replayed to see who is ready), once."""
    games = [_one_player(app, f"Game {n}") for n in range(3)]
    watch = ReadyWatch()
    assert resolve_all_ready(app.state.sessionmaker, now=clock(), watch=watch) == 0  # the first: every game
    clock.advance(seconds=60)
    with statements_sent(app) as sent:
        assert resolve_all_ready(app.state.sessionmaker, now=clock(), watch=watch) == 0
    assert len(sent) == 1, sent
    _strand(app, games[1], clock)
    with statements_sent(app) as sent:
        assert resolve_all_ready(app.state.sessionmaker, now=clock(), watch=watch) == 0
    assert len(sent) == 1, "a turn changed just now was looked at"
    clock.advance(seconds=LEFT_READY_AFTER.total_seconds())
    assert resolve_all_ready(app.state.sessionmaker, now=clock(), watch=watch) == 1
    assert [game.turn() for game in games] == [1, 2, 1]
    for _seen_then_looked_at in range(2):  # turn 2 is new, then looked at once: Ann's orders are awaited
        clock.advance(seconds=60)
        assert resolve_all_ready(app.state.sessionmaker, now=clock(), watch=watch) == 0
    clock.advance(seconds=60)
    with statements_sent(app) as sent:
        assert resolve_all_ready(app.state.sessionmaker, now=clock(), watch=watch) == 0
    assert len(sent) == 1, sent


def test_a_turn_with_an_order_not_ready_is_never_replayed(app: FastAPI, clock: FakeClock) -> None:
    """An order saved but not ready holds the turn up: the poll's one statement says so, and the
    game is not read further."""
    game = _one_player(app, "Saved only")
    watch = ReadyWatch(after=timedelta(0))
    resolve_all_ready(app.state.sessionmaker, now=clock(), watch=watch)
    assert game.order("p1", game.my_teams("p1")[0], 5, 3).status_code == 303  # saved, not ready
    for _seen_then_due in range(2):  # the change is seen, then due to be looked at (after=0)
        with statements_sent(app) as sent:
            assert resolve_all_ready(app.state.sessionmaker, now=clock(), watch=watch) == 0
        assert len(sent) == 1, sent
