"""What each page and poll of a hosted game costs: SQL statements per request, requests a second
and bytes, for a 4-player (8-team) and a 16-player (16-team) game, at turns 1, 2 and 3 (the group
stage, its tables and history filling) and at the final, on SQLite and PostgreSQL, printed side by
side with their ratios; and, to set them against, the lightest page of a server with no game.

    .venv/bin/python benchmarks/web.py                 # SQLite and PostgreSQL
    .venv/bin/python benchmarks/web.py --no-postgres   # SQLite only
    .venv/bin/python benchmarks/web.py --quick         # fewer requests, for a smoke run

The app runs in this process (no network, no uvicorn): each request goes through the whole ASGI
app, its middleware and a real database, one after another from one client, so a figure is what
one worker spends on that request and "requests a second" is one core's worth. Compare figures
within a run (the ratios), not across machines or runs. Without a PostgreSQL URL in
``SEVENS_TEST_POSTGRES_URL`` the script runs itself again under ``scripts/pg``.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from postgres_or_rerun import postgres_or_rerun  # beside this script, on its sys.path
from sqlalchemy import event

from sevens.store.db import make_engine, run_migrations
from sevens.store.testing import throwaway_database
from sevens.web.app import create_app
from sevens.web.settings import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CASES = (
    ("4p t1", 4, 8, "t1"),
    ("4p t2", 4, 8, "t2"),
    ("4p t3", 4, 8, "t3"),
    ("4p final", 4, 8, "final"),
    ("16p t1", 16, 16, "t1"),
    ("16p t2", 16, 16, "t2"),
    ("16p t3", 16, 16, "t3"),
    ("16p final", 16, 16, "final"),
)
GROUP_STAGE = ("4p t1", "4p t2", "4p t3", "16p t1", "16p t2", "16p t3")
IDLE = "/how-to-play"
"""The lightest page (no game, no database row read), timed on the server before any game is hosted."""


def _csrf(client: TestClient) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get("/").text)
    assert found is not None
    return found.group(1)


def _post(client: TestClient, url: str, data: dict[str, str]) -> Any:
    return client.post(url, data={**data, "csrf": _csrf(client)})


@dataclass
class Game:
    public_id: str
    organiser: TestClient
    player: TestClient
    spectator: TestClient
    team: str


def host(app: Any, players: int, teams: int, stage: str) -> Game:
    """A public game hosted through the pages, every seat taken, played to ``stage`` (``t2``: turn
    2, or the final, every turn before it resolved by the organiser)."""
    organiser = TestClient(app, follow_redirects=False)
    made = _post(
        organiser,
        "/games",
        {
            "name": "Measured",
            "arrangement": f"{players}-{teams}-{teams // players}",
            "deadline_hours": "24",
            "default_bot": "even",
            "default_bot_weight": "",
            "visibility": "public",
        },
    )
    assert made.status_code == 201, made.text[:300]
    public_id = re.search(r'href="/games/([\w-]+)/organise"', made.text)
    invites = re.findall(r'data-player="(p\d+)">.*?<code class="invite">([^<]+)<', made.text)
    assert public_id is not None and invites
    seats = []
    for number, (_, link) in enumerate(invites, 1):
        client = TestClient(app, follow_redirects=False)
        joined = _post(client, link.split("testserver", 1)[1], {"name": f"Player {number}"})
        assert joined.status_code == 303, joined.text[:300]
        seats.append(client)
    base = f"/games/{public_id[1]}"
    assert _post(organiser, f"{base}/start", {}).status_code == 303
    api = f"/api/v1/games/{public_id[1]}"
    while (view := organiser.get(api).json())["status"] == "running" and (
        view["stage"] != "final" if stage == "final" else view["turn"] < int(stage.removeprefix("t"))
    ):
        assert _post(organiser, f"{base}/resolve", {"turn": str(view["turn"])}).status_code == 303
    spectator = TestClient(app, follow_redirects=False)
    for client in seats:
        mine = re.findall(r'class="order-form"[^>]*data-team="([\w-]+)"', client.get(f"{base}/play").text)
        if mine:
            return Game(public_id[1], organiser, client, spectator, mine[0])
    raise AssertionError("no seat has a team in play")


def requests_of(game: Game) -> dict[str, tuple[TestClient, str, dict[str, str]]]:
    base, api = f"/games/{game.public_id}", f"/api/v1/games/{game.public_id}"
    tag = game.spectator.get(f"{api}/state").headers["ETag"]
    return {
        "front page": (game.spectator, "/", {}),
        "game page (spectator)": (game.spectator, base, {}),
        "big screen (organiser)": (game.organiser, f"{base}?screen=1", {}),
        "player's page": (game.player, f"{base}/play", {}),
        "organiser's page": (game.organiser, f"{base}/organise", {}),
        "team page": (game.spectator, f"{base}/teams/{game.team}", {}),
        "page poll (player)": (game.player, f"{base}/state?as=player", {}),
        "page poll (organiser)": (game.organiser, f"{base}/state", {}),
        "page poll (spectator)": (game.spectator, f"{base}/state", {}),
        "who ordered (player)": (game.player, f"{base}/who-ordered", {}),
        "record.json": (game.spectator, f"{base}/record.json", {}),
        "matches.csv": (game.spectator, f"{base}/matches.csv", {}),
        "API game (spectator)": (game.spectator, api, {}),
        "API poll, 304": (game.spectator, f"{api}/state", {"If-None-Match": tag}),
    }


@contextmanager
def counting(app: Any) -> Iterator[list[str]]:
    sent: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        sent.append(statement)

    event.listen(app.state.engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(app.state.engine, "before_cursor_execute", note)


def measure(
    app: Any, games: dict[str, Game], repeats: int, rounds: int = 4
) -> dict[str, dict[str, tuple[int, float, int]]]:
    """Per case and request: statements, requests a second and body bytes. The cases take turns,
    ``rounds`` times, so that a machine busy for a while slows them alike."""
    reads = {label: requests_of(game) for label, game in games.items()}
    counted: dict[str, dict[str, tuple[int, int]]] = {label: {} for label in games}
    spent: dict[str, dict[str, float]] = {label: {} for label in games}
    for label, kinds in reads.items():
        for name, (client, url, headers) in kinds.items():
            client.get(url, headers=headers)  # a first visit may set a cookie, and warms the caches
            with counting(app) as sent:
                response = client.get(url, headers=headers)
            assert response.status_code in (200, 304), (name, response.status_code, response.text[:200])
            counted[label][name] = (len(sent), len(response.content))
    per_round = max(1, repeats // rounds)
    for _ in range(rounds):
        for label, kinds in reads.items():
            for name, (client, url, headers) in kinds.items():
                began = time.perf_counter()
                for _ in range(per_round):
                    client.get(url, headers=headers)
                spent[label][name] = spent[label].get(name, 0.0) + time.perf_counter() - began
    return {
        label: {
            name: (statements, per_round * rounds / spent[label][name], size)
            for name, (statements, size) in counted[label].items()
        }
        for label in games
    }


def idle(app: Any, repeats: int) -> tuple[int, float, int]:
    """Statements, requests a second and body bytes of :data:`IDLE` on a server with no game."""
    client = TestClient(app, follow_redirects=False)
    client.get(IDLE)
    with counting(app) as sent:
        response = client.get(IDLE)
    assert response.status_code == 200, response.text[:200]
    began = time.perf_counter()
    for _ in range(repeats):
        client.get(IDLE)
    return len(sent), repeats / (time.perf_counter() - began), len(response.content)


Figures = dict[str, dict[str, tuple[int, float, int]]]


def run_backend(backend: str, directory: Path, repeats: int) -> tuple[Figures, tuple[int, float, int]]:
    with throwaway_database(backend, directory) as url:
        run_migrations(make_engine(url))
        settings = Settings(
            database_url=url,
            scheduler=False,
            migrate=False,
            rate_limit_attempts=10**6,
            games_per_hour=0,
            organiser_acts_per_hour=10**6,
            credentials_per_hour=10**6,
        )
        app = create_app(settings)
        try:
            empty = idle(app, repeats * 4)
            figures = measure(app, {label: host(app, p, t, stage) for label, p, t, stage in CASES}, repeats)
            kept = app.state.templates.env.globals["turn_reports"].cache_info()
            single = app.state.templates.env.globals["kept_match_report"].cache_info()
            said = (
                f"{backend}: turns' reports rendered {kept.misses} times, kept ones served {kept.hits};"
                f" the team pages' single reports rendered {single.misses} times, kept ones served {single.hits}"
            )
            print(said)
            return figures, empty
        finally:
            app.state.odds_queue.close()
            app.state.engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=80, help="timed requests of each kind in each case")
    parser.add_argument("--quick", action="store_true", help="a small run (smoke test)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args(argv)
    repeats = 4 if args.quick else args.repeats
    postgres = not args.no_postgres
    if postgres and not postgres_or_rerun(__file__):
        return 2
    backends = ["sqlite"] + (["postgresql"] if postgres else [])
    with tempfile.TemporaryDirectory(prefix="sevens-web-") as tmp:
        ran = {b: run_backend(b, Path(tmp), repeats) for b in backends}
    results = {b: figures for b, (figures, _) in ran.items()}
    names = list(results["sqlite"]["4p t1"])
    labels = [label for label, *_ in CASES]
    print(f"statements per request ({', '.join(labels)}); the same on every backend unless shown twice")
    for name in names:
        per = {b: "/".join(str(results[b][label][name][0]) for label in labels) for b in backends}
        shown = (
            per["sqlite"] if len(set(per.values())) == 1 else "  ".join(f"{b} {v}" for b, v in per.items())
        )
        print(f"  {name:<24} {shown}")
    print(f"\nrequests a second, one client, in process ({repeats} of each)")
    head = "".join(f"{b[:6] + ' ' + label:>18}" for b in backends for label in ("4p t1", "16p final"))
    ratios = "".join(f"{b[:6] + ' 16p/4p':>15}" for b in backends)
    print(f"  {'':<24}{head}{ratios}" + (f"{'pg/sqlite 16p':>15}" if postgres else ""))
    for name in names:
        cells = "".join(
            f"{results[b][label][name][1]:>18.0f}" for b in backends for label in ("4p t1", "16p final")
        )
        cells += "".join(
            f"{results[b]['16p final'][name][1] / results[b]['4p t1'][name][1]:>14.2f}x" for b in backends
        )
        if postgres:
            pg_sqlite = results["postgresql"]["16p final"][name][1] / results["sqlite"]["16p final"][name][1]
            cells += f"{pg_sqlite:>14.2f}x"
        print(f"  {name:<24}{cells}")
    for b in backends:
        print(f"\nrequests a second through the group stage, {b} (the game's turn 1, 2 and 3)")
        head = "".join(f"{label:>9}" for label in GROUP_STAGE)
        ratios = ("4p t3/t1", "16p t2/t1", "16p t3/t1")
        print(f"  {'':<24}{head}" + "".join(f"{r:>11}" for r in ratios))
        for name in names:
            cells = "".join(f"{results[b][label][name][1]:>9.0f}" for label in GROUP_STAGE)
            for later, first in (("4p t3", "4p t1"), ("16p t2", "16p t1"), ("16p t3", "16p t1")):
                cells += f"{results[b][later][name][1] / results[b][first][name][1]:>10.2f}x"
            print(f"  {name:<24}{cells}")
    # What a page costs once every turn before the final is on it (all their match reports)
    print("\nrequests a second at the final against turn 1, 16-team game (16p fin/t1)")
    print(f"  {'':<24}" + "".join(f"{b:>12}" for b in backends))
    for name in names:
        final = (results[b]["16p final"][name][1] / results[b]["16p t1"][name][1] for b in backends)
        cells = "".join(f"{ratio:>11.2f}x" for ratio in final)
        print(f"  {name:<24}{cells}")
    print(f"\nbody bytes ({', '.join(labels)})")
    for name in names:
        print(f"  {name:<24}" + " /".join(f"{results['sqlite'][label][name][2]:>8,}" for label in labels))
    print(f"\nidle: {IDLE} on a server with no game, one client ({repeats * 4} requests)")
    for b, (_, (statements, per_second, size)) in ran.items():
        print(f"  {b:<24}{per_second:>9.0f} a second, {statements} statements, {size:,} bytes")
    if postgres:
        print(f"  {'pg/sqlite':<24}{ran['postgresql'][1][1] / ran['sqlite'][1][1]:>9.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
