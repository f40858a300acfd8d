"""How long a player typing a draft waits for its odds while API clients ask odds non-stop.

    .venv/bin/python benchmarks/odds_typing.py                 # 4 askers, 3 trials of each kind
    .venv/bin/python benchmarks/odds_typing.py --quick         # 2 askers, 1 trial of each, a smoke run
    .venv/bin/python benchmarks/odds_typing.py --kinds before  # the old way only (for an older checkout)

One ``sevens serve`` (SQLite, one worker, so one odds process) on a free port of 127.0.0.1, with games
played to their semi-finals through the API. ``--askers`` API clients, each a token of its own with a
team in play, ask the odds of random knockout drafts non-stop, one at a time. Meanwhile a "typing"
client sends the draft of another team every 150 ms, as a page does at each key (``--keys`` of them,
each a draft not asked before), without waiting for the answers, and the time from its last draft
until that draft's answer is taken. A draft refused with 429 (too many waiting) is asked again after
its ``Retry-After``, as a client that must have it would.

Two kinds of trial, alternately, so that both meet the same load from the rest of the machine:
"before", each draft asked as the API always took them (all worked out, in the order they came), and
"after", each with ``latest_only`` (as the order form's page asks, by its page's name): a draft still
waiting when a newer one comes is answered 409 and never worked out. Printed side by side with the
ratio after / before: the last draft's wait (median and slowest), how many of the typed drafts were
worked out, refused (429) and replaced (409), and the askers' odds answered a second over the
20 s from each trial's first draft (``--window``; the trial's own time when longer).

Everything stops by itself: the server is stopped with SIGTERM at the end (and killed if it lingers).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from odds_load import _server  # beside this script, on its sys.path: the same server, started alike

from sevens.web.testing import percentile, semi_finals

TYPING_EVERY = 0.150


@dataclass(frozen=True, slots=True)
class Team:
    """A team in play in a knockout, its odds address and its player's headers."""

    odds_url: str
    headers: dict[str, str]
    scrum: int


@dataclass(slots=True)
class Trial:
    last_wait: float = 0.0
    worked_out: int = 0
    refused: int = 0
    replaced: int = 0
    asked: dict[str, int] = field(default_factory=dict)


def _teams_in_play(client: httpx.Client, seats: int) -> tuple[Team, list[Team]]:
    """The typing team (most SCRUM of the first game) and ``seats`` teams in play of other players,
    one a player (so one a token), from as many games as that takes."""
    typing: Team | None = None
    askers: list[Team] = []
    while len(askers) < seats:
        game, _, _, _ = semi_finals(client)
        found = []
        for team, pid in game.teams.items():
            headers = game.players[pid]
            view = client.get(f"/api/v1/games/{game.public_id}/teams/{team}/view", headers=headers).json()
            if view["team"]["in_play"]:
                found.append((pid, Team(f"/api/v1/games/{game.public_id}/teams/{team}/odds", headers, view["team"]["scrum"])))
        found.sort(key=lambda pid_team: -pid_team[1].scrum)
        taken: set[str] = set()
        for pid, team_in_play in found:
            if pid in taken:
                continue
            taken.add(pid)
            if typing is None:
                typing = team_in_play
            elif len(askers) < seats:
                askers.append(team_in_play)
    assert typing is not None
    return typing, askers


def _asker(url: str, team: Team, seed: int, stop: threading.Event, answered: list[int], slot: int) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=url, timeout=120, headers=team.headers) as client:
        while not stop.is_set():
            flair = 3 * rng.randint(0, min(team.scrum, 60) // 3)
            draft = {"force": rng.randint(0, team.scrum - flair), "flair": flair}
            if client.post(team.odds_url, json=draft).status_code == 200:
                answered[slot] += 1


def _typing_trial(client: httpx.Client, team: Team, drafts: list[dict[str, int]], latest_only: bool) -> Trial:
    """Send ``drafts`` 150 ms apart without waiting; the last one's wait until its answer (asked
    again after Retry-After while refused)."""
    trial = Trial()

    def ask(draft: dict[str, int]) -> tuple[int, float]:
        body: dict[str, object] = {**draft, "latest_only": True} if latest_only else dict(draft)
        answer = client.post(team.odds_url, json=body, headers=team.headers)
        return answer.status_code, float(answer.headers.get("Retry-After", "1"))

    with ThreadPoolExecutor(max_workers=len(drafts)) as pool:
        sent: list[Future[tuple[int, float]]] = []
        for draft in drafts:
            last_sent = time.monotonic()
            sent.append(pool.submit(ask, draft))
            time.sleep(TYPING_EVERY)
        codes = [f.result()[0] for f in sent[:-1]]
        status, retry_after = sent[-1].result()
        while status == 429:
            trial.refused += 1
            time.sleep(retry_after)
            status, retry_after = ask(drafts[-1])
        trial.last_wait = time.monotonic() - last_sent
    assert status == 200, status
    assert set(codes) <= {200, 409, 429}, codes
    trial.worked_out = codes.count(200) + 1
    trial.refused += codes.count(429)
    trial.replaced = codes.count(409)
    return trial


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2 askers, 1 trial of each kind, 6 keys")
    parser.add_argument("--askers", type=int, default=None, help="API clients asking odds non-stop (4)")
    parser.add_argument("--trials", type=int, default=None, help="trials of each kind (3)")
    parser.add_argument("--keys", type=int, default=None, help="drafts typed in a trial (10)")
    parser.add_argument("--window", type=float, default=None,
                        help="seconds from a trial's first draft over which the askers' odds are counted (20), "
                        "the trial's own if longer")
    parser.add_argument("--kinds", default="before,after", help="which kinds of trial: before, after or both")
    args = parser.parse_args()
    askers = args.askers or (2 if args.quick else 4)
    trials = args.trials or (1 if args.quick else 3)
    keys = args.keys or (6 if args.quick else 10)
    window = args.window if args.window is not None else (5.0 if args.quick else 20.0)
    kinds = [kind for kind in ("before", "after") if kind in args.kinds.split(",")]
    results: dict[str, list[Trial]] = {kind: [] for kind in kinds}
    rates: dict[str, list[float]] = {kind: [] for kind in kinds}
    with (
        tempfile.TemporaryDirectory(prefix="sevens-odds-typing-") as temp,
        _server(Path(temp), 0.0) as (url, _),
        httpx.Client(base_url=url, timeout=120, limits=httpx.Limits(max_connections=64)) as client,
    ):
        typing, teams = _teams_in_play(client, askers)
        assert typing.scrum >= 70, typing.scrum  # room for the drafts below
        client.post(typing.odds_url, json={"force": 1, "flair": 0}, headers=typing.headers).raise_for_status()
        stop = threading.Event()
        answered = [0] * askers
        threads = [threading.Thread(target=_asker, args=(url, team, slot, stop, answered, slot)) for slot, team in enumerate(teams)]
        for thread in threads:
            thread.start()
        try:
            time.sleep(2.0)  # every asker asking
            for trial in range(trials):
                for kind in kinds:
                    # Drafts nobody asked before (the odds process keeps what it worked out per asker).
                    flair = 3 * ((trial * len(kinds) + kinds.index(kind)) % 20)
                    drafts = [{"force": 10 + key, "flair": flair} for key in range(keys)]
                    before_count, started = sum(answered), time.monotonic()
                    results[kind].append(_typing_trial(client, typing, drafts, latest_only=kind == "after"))
                    # The askers' share over the same stretch of time either way (a trial's own
                    # few seconds made too short a sample on a busy machine).
                    time.sleep(max(0.0, started + window - time.monotonic()))
                    rates[kind].append((sum(answered) - before_count) / (time.monotonic() - started))
        finally:
            stop.set()
            for thread in threads:
                thread.join()
    print(f"{askers} API askers asking knockout odds non-stop; a client typing {keys} drafts {TYPING_EVERY * 1000:.0f} ms apart; "
          f"{trials} trial(s) of each kind, alternately")
    rows = {
        "last draft's odds, median s": lambda ts: percentile([t.last_wait for t in ts], 0.5),
        "last draft's odds, slowest s": lambda ts: max(t.last_wait for t in ts),
        f"typed drafts worked out (of {keys})": lambda ts: percentile([float(t.worked_out) for t in ts], 0.5),
        "typed drafts refused 429": lambda ts: percentile([float(t.refused) for t in ts], 0.5),
        "typed drafts replaced 409": lambda ts: percentile([float(t.replaced) for t in ts], 0.5),
    }
    print(f"{'':<34}" + "".join(f"{kind:>9}" for kind in kinds) + ("    after/before" if len(kinds) == 2 else ""))
    for name, figure in rows.items():
        values = [figure(results[kind]) for kind in kinds]
        ratio = f"{values[1] / values[0]:10.2f}x" if len(kinds) == 2 and values[0] else ""
        print(f"{name:<34}" + "".join(f"{v:9.2f}" for v in values) + ratio)
    values = [percentile(rates[kind], 0.5) for kind in kinds]
    ratio = f"{values[1] / values[0]:10.2f}x" if len(kinds) == 2 and values[0] else ""
    print(f"{'askers odds a second, median':<34}" + "".join(f"{v:9.2f}" for v in values) + ratio)


if __name__ == "__main__":
    main()
