"""Settings from the environment (pydantic-settings), read when the app is built."""

from __future__ import annotations

import math
from typing import Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from sevens.web.hosts import parse_allowed_hosts
from sevens.web.prefix import parse_root_path
from sevens.web.proxies import parse_trusted

__all__ = ["POLL_SECONDS_LEAST", "POLL_SECONDS_MOST", "Settings"]

POLL_SECONDS_LEAST = 0.5
POLL_SECONDS_MOST = 60.0


class Settings(BaseSettings):
    """Server settings; every field can be set as ``SEVENS_<NAME>`` (the database also as ``DATABASE_URL``).

    >>> Settings(database_url="sqlite://").scheduler_seconds > 0
    True
    """

    model_config = SettingsConfigDict(env_prefix="SEVENS_", extra="ignore")

    database_url: str = Field(
        default="sqlite:///./sevens.sqlite3",
        validation_alias=AliasChoices("DATABASE_URL", "SEVENS_DATABASE_URL", "database_url"),
    )
    sqlite_synchronous: Literal["normal", "full"] = "normal"
    """SQLite in WAL mode: ``normal`` keeps every commit through a crash of the server (tested with
    SIGKILL) but may lose the last ones if the machine loses power; ``full`` syncs each commit to
    disk, which costs about a fifth of the order throughput."""
    migrate: bool = True
    """Run the migrations at start-up."""
    scheduler: bool = True
    """Poll for turns whose deadline has passed."""
    scheduler_seconds: float = Field(default=5.0, gt=0)
    """How often overdue turns are looked for; 0 would poll the database without a pause."""
    poll_seconds: float = 5.0
    """How often a page open on a game asks the server whether the game moved on, while its reader
    uses it; left alone for three minutes, four times as long. Shorter shows news sooner for more
    requests (a poll is about 1 kB each way), longer spares a busy server or a metered phone."""
    db_connections: int = Field(default=5, ge=1, le=500)
    """PostgreSQL: the connections each worker keeps to the database, and so how many of its
    requests use the database at once (the others wait their turn, first come first served); the
    worker opens one more when its deadline scheduler needs it. SQLite: always one. More did not
    help one worker on a local database (benchmarks/load.py: 15 served 0.9x the requests a second
    of 5, at 1.1-1.6x the p99), where its one core is the limit; a database far away might."""
    secure_cookies: bool = False
    """Mark cookies Secure (set when served over HTTPS)."""
    session_days: int = Field(default=60, gt=0)
    """How long a browser stays signed in; also how long a bot token that opens no game (its seat
    taken from it, its games deleted) is kept after it was made."""
    delete_games_over_days: int = Field(default=0, ge=0)
    """Delete a game (every row of it) this many days after it finished or was ended; 0: never."""
    invite_days: float = Field(default=14.0, gt=0, le=366)
    """How long a new invite link can be used (once)."""
    rate_limit_attempts: int = Field(default=10, ge=0)
    """Failed attempts with a secret allowed per client per window."""
    rate_limit_window_seconds: int = Field(default=60, gt=0)
    games_per_hour: int = Field(default=20, ge=0)
    """New games one client address may create per hour, by form and API together; 0: no limit.
    The address is the one the limit on wrong secrets counts (the connection's, or the one a
    trusted proxy forwarded)."""
    credentials_per_hour: int = Field(default=60, ge=0)
    """New credentials one client address may be given per hour by an organiser link: bot tokens
    from ``POST /api/v1/organise`` sent without one, browser sessions from ``/organiser/<link>``
    without a cookie; 0: no limit. Each is a row that a loop would otherwise add without end."""
    organiser_acts_per_hour: int = Field(default=120, ge=0)
    """Organiser acts per game per hour that can be repeated without moving the game on (new
    links, pause and resume, deadline changes, house bots, seats handed to the bots), by page and
    API together; 0: no limit. Each adds a row to the game's event log."""
    device_links_per_hour: int = Field(default=10, ge=0)
    """Links for another device one seat's player may make per hour (each a new invite and a row
    in the game's event log); 0: no limit."""
    odds_seconds: float = Field(default=30.0, gt=0, le=3600)
    """How long one draft's odds may take to work out in the worker's odds process before it is
    killed and the request gets 503 saying to ask again: a few tenths of a second is usual, so only
    a stuck process reaches it."""
    odds_idle_minutes: float = Field(default=10.0, ge=0, le=10080)
    """How long the worker's odds process may go without a question before it is stopped, giving
    back the memory its caches hold (up to about 0.7 GB); the next question starts another, which
    takes about a second more. 0: it runs until the server stops."""
    max_body_bytes: int = Field(default=65536, gt=0)
    """Largest request body accepted (413 beyond): every form and API body is far smaller."""
    base_url: str = ""
    """Scheme and host for links shown to the organiser; by default the request's own."""
    root_path: str = ""
    """The path on its host the site is served under behind a reverse proxy that strips it
    (``/sevens``); empty for the root of the host (:mod:`sevens.web.prefix`)."""
    trusted_proxies: str = ""
    """Reverse proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed: IP
    addresses and networks separated by commas (``127.0.0.1,10.0.0.0/8``); none by default, so
    the client is the connection's address (:mod:`sevens.web.proxies`)."""

    allowed_hosts: str = ""
    """Host names besides the loopback ones (and the host of ``base_url``) that requests may be
    addressed to, comma-separated; ``*``: any. Empty by default: a connection that arrived on a
    loopback address must name a loopback host, one from the network may name any
    (:mod:`sevens.web.hosts`); once set, every connection must name one of them."""

    @field_validator("poll_seconds")
    @classmethod
    def _poll_pace_in_bounds(cls, value: float) -> float:
        # Faster than twice a second each open page would be a load of its own; slower than a
        # minute a page would show a turn resolved long after its players had moved on.
        if POLL_SECONDS_LEAST <= value <= POLL_SECONDS_MOST:
            return value
        if math.isnan(value):  # fails both bounds without being too short or too long
            wrong = "is not a number of seconds"
        else:
            wrong = f"is too {'short' if value < POLL_SECONDS_LEAST else 'long'} a time between an open page's polls of its game"
        raise ValueError(
            f"SEVENS_POLL_SECONDS: {value:g} {wrong}; "
            f"give a number of seconds from {POLL_SECONDS_LEAST:g} to {POLL_SECONDS_MOST:g} (5 if unset)"
        )

    @field_validator("allowed_hosts")
    @classmethod
    def _hosts_parse(cls, value: str) -> str:
        parse_allowed_hosts(value)
        return value

    @field_validator("base_url")
    @classmethod
    def _base_url_has_scheme_and_host(cls, value: str) -> str:
        # Without them every invite link shown would be a path on whatever site shows it.
        parts = urlsplit(value)
        if value and (parts.scheme not in ("http", "https") or not parts.netloc):
            raise ValueError(
                f"SEVENS_BASE_URL: {value!r} is not a site's address; write its scheme and host, "
                "e.g. https://sevens.example.org"
            )
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            # The links would carry the path, but the pages' own links and the cookies would not.
            raise ValueError(
                f"SEVENS_BASE_URL: {value!r} holds a path; write the scheme and host only "
                f"({parts.scheme}://{parts.netloc}) and the path as SEVENS_ROOT_PATH ({parts.path.rstrip('/') or '/'})"
            )
        return value

    @field_validator("root_path")
    @classmethod
    def _root_path_parse(cls, value: str) -> str:
        return parse_root_path(value)

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_parse(cls, value: str) -> str:
        parse_trusted(value)  # a bad item is refused now, saying which and how to write it
        return value
