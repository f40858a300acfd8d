"""What one poll of the deadline scheduler costs with N games nobody plays any more: statements sent
and time, side by side, with the ratio of each time to the fewest games'.

    .venv/bin/python benchmarks/scheduler_poll.py                    # 10, 100 and 1,000 games
    .venv/bin/python benchmarks/scheduler_poll.py --games 10 100     # other counts
    .venv/bin/python benchmarks/scheduler_poll.py --no-postgres      # SQLite only

Each game is running, has no deadline and waits for its one manager's orders (joined, never ordered):
an abandoned game, which stays running for good. A poll is what the server does every
``scheduler_seconds``: :func:`~sevens.web.scheduler.resolve_due` (the turns past their deadline, none
here) and :func:`~sevens.web.scheduler.resolve_all_ready` (after a first poll that looks at each game
once, as their starts made them due). The median of 20 polls is printed. A SQLite file, then a
PostgreSQL database (the script runs itself again under ``scripts/pg`` when no server is given), in
process.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from postgres_or_rerun import postgres_or_rerun  # beside this script, on its sys.path
from sqlalchemy import event, select

from sevens.store import games as store
from sevens.store.db import make_engine, make_sessionmaker, run_migrations, session_scope
from sevens.store.models import SeatRow, Visibility
from sevens.store.testing import throwaway_database
from sevens.web.scheduler import resolve_all_ready, resolve_due

START = datetime(2026, 1, 1, tzinfo=UTC)
POLLS = 20


def _poll_cost(backend: str, games: int) -> tuple[int, float]:
    """Statements a poll sends and its median time (s) with ``games`` abandoned games."""
    with tempfile.TemporaryDirectory() as tmp, throwaway_database(backend, Path(tmp)) as url:
        engine = make_engine(url)
        run_migrations(engine)
        factory = make_sessionmaker(engine)
        for number in range(games):
            with session_scope(factory) as session:
                spec = store.NewGame(f"Abandoned {number}", 4, 8, 2, None, "even", Visibility.PRIVATE)
                game = store.create_game(session, spec=spec, now=START).game
                seat = session.scalars(select(SeatRow).where(SeatRow.game_id == game.id, SeatRow.player_id == "p1")).one()
                store.join_seat(session, seat=seat, name="Ann", now=START)
                store.start_game(session, game_id=game.id, now=START, then_advance=False)
        sent: list[str] = []

        def note(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            sent.append(statement)

        now = START + timedelta(hours=1)
        resolve_all_ready(factory, now=now)  # the first poll after the starts: each game looked at once
        event.listen(engine, "before_cursor_execute", note)
        times = []
        for _ in range(POLLS):
            now += timedelta(seconds=5)
            sent.clear()
            began = time.perf_counter()
            resolve_due(factory, now=now, failed=set())
            resolve_all_ready(factory, now=now)
            times.append(time.perf_counter() - began)
        engine.dispose()
        return len(sent), statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10, 100, 1000], help="counts of abandoned games")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args()
    if not args.no_postgres and not postgres_or_rerun(__file__):
        return 2
    print(f"{'database':<10}  {'abandoned games':>16}  {'statements a poll':>17}  {'ms a poll':>9}  {'ratio':>6}")
    for backend in ["sqlite"] + ([] if args.no_postgres else ["postgresql"]):
        first: float | None = None
        for games in args.games:
            statements, seconds = _poll_cost(backend, games)
            first = first or seconds
            print(
                f"{backend:<10}  {games:>16,}  {statements:>17}  {seconds * 1000:>9.2f}  {seconds / first:>6.2f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
