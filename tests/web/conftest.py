"""Web tests: the real app on SQLite and, when SEVENS_TEST_POSTGRES_URL is set, on PostgreSQL too."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from fastapi import FastAPI
from sqlalchemy import Engine

from sevens.store.db import make_engine, run_migrations
from sevens.store.testing import backends, clear_tables, throwaway_database
from sevens.web.app import create_app
from sevens.web.deps import hourly_limiter
from sevens.web.security import RateLimiter
from sevens.web.settings import Settings
from web.web_helpers import FakeClock, Hosted, host_game


@dataclass
class WebDb:
    url: str
    engine: Engine


@pytest.fixture(scope="session", params=backends())
def web_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDb]:
    with throwaway_database(request.param, tmp_path_factory.mktemp("webdb")) as url:
        engine = make_engine(url)
        run_migrations(engine)
        yield WebDb(url, engine)
        engine.dispose()


@dataclass
class Site:
    app: FastAPI
    clock: FakeClock


@pytest.fixture(scope="session")
def site(web_db: WebDb) -> Iterator[Site]:
    """One app per database backend; each test starts from empty tables and a reset clock."""
    clock = FakeClock()
    # No limit on new games: the tests create far more than 20 from one address (the limit has
    # tests of its own, test_web_games_limit.py).
    settings = Settings(
        database_url=web_db.url, scheduler=False, migrate=False, rate_limit_attempts=1000, games_per_hour=0
    )
    application = create_app(settings, clock=clock)
    yield Site(application, clock)
    application.state.odds_queue.close()  # the lifespan's work, which the test client skips
    application.state.engine.dispose()


@pytest.fixture
def clock(site: Site) -> FakeClock:
    site.clock.now = FakeClock().now
    return site.clock


@pytest.fixture
def app(site: Site, web_db: WebDb, clock: FakeClock) -> FastAPI:
    clear_tables(web_db.engine)
    site.app.state.limiter = RateLimiter(attempts=1000, window_seconds=60)
    # The hourly limits at their defaults, counted afresh for each test as on a new server: the
    # app lives for the whole session, and one test's organiser links and acts are normal use.
    settings: Settings = site.app.state.settings
    site.app.state.credentials_limiter = hourly_limiter(settings.credentials_per_hour)
    site.app.state.organiser_acts_limiter = hourly_limiter(settings.organiser_acts_per_hour)
    site.app.state.device_links_limiter = hourly_limiter(settings.device_links_per_hour)
    return site.app


@pytest.fixture
def hosted(app: FastAPI) -> Hosted:
    """A started public 4-player game (8 teams, 2 each) with every seat joined."""
    game = host_game(app)
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    return game
