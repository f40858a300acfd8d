"""The odds worked out in a process of each server worker's own (sevens.web.odds_process): started
when first asked, restarted when it dies, killed when it hangs, and gone when the server is.

Real servers on SQLite; the odds process is found as the server's child and killed or stopped
(SIGSTOP: a process that answers nothing, as a stuck one would) with signals.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from reliability.helpers import cluster, database, server_env
from sevens.web.testing import HostedGame, ServerFarm, host_game, semi_finals, wait_until_up

pytestmark = pytest.mark.slow


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _odds_processes(pid: int) -> list[int]:
    """The server's children running the odds process."""
    found = []
    for child in _children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"sevens.web.odds_process" in command:
            found.append(child)
    return found


def _gone(pid: int, *, within: float) -> bool:
    """Whether ``pid`` has exited (and been reaped by someone) within ``within`` seconds.

    Every thread of it, not only the first: a killed process's first thread shows as a zombie while
    its others (numpy's) are still ending, and until they have, its parent cannot reap it and its
    pipes stay open, so a question sent then is taken and never answered.
    """
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            states = [
                (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
                for task in Path(f"/proc/{pid}/task").iterdir()
            ]
        except OSError:
            return True
        if all(state in ("Z", "X") for state in states):  # exited, not yet reaped by its parent
            return True
        time.sleep(0.05)
    return False


def _odds(client: httpx.Client, game: HostedGame, team: str) -> httpx.Response:
    return client.post(
        f"/api/v1/games/{game.public_id}/teams/{team}/odds",
        json={"force": 3, "flair": 3},
        headers=game.players[game.teams[team]],
    )


def test_the_odds_process_starts_when_first_asked_and_survives_being_killed(
    farm: ServerFarm, tmp_path: Path
) -> None:
    """No odds process until odds are asked; one killed between questions is replaced without the
    next question noticing; one killed while it works out a question makes that request 503 with
    Retry-After and a message saying to ask again, and the next is answered by a new one. The log
    says what happened, without the draft."""
    with database("sqlite", tmp_path) as (url, _engine):
        server = farm.start(server_env(url, games_per_hour=0))
        try:
            with httpx.Client(base_url=server.url, timeout=60) as client:
                game = host_game(client)
                team = next(iter(game.teams))
                assert _odds_processes(server.pid) == []  # a server nobody asks odds of starts none
                first = _odds(client, game, team)
                assert first.status_code == 200, first.text
                [child] = _odds_processes(server.pid)
                # It opens no database and reads no setting: their values stay with the server.
                names = [v.split(b"=")[0] for v in Path(f"/proc/{child}/environ").read_bytes().split(b"\0")]
                assert b"DATABASE_URL" not in names and not any(n.startswith(b"SEVENS_") for n in names)

                os.kill(child, signal.SIGKILL)
                assert _gone(child, within=5)
                again = _odds(client, game, team)
                assert again.status_code == 200, again.text
                assert again.json() == first.json()
                [child] = _odds_processes(server.pid)

                # Stopped, it takes the question and answers nothing; killed then, mid-question.
                os.kill(child, signal.SIGSTOP)
                with ThreadPoolExecutor(max_workers=1) as pool:
                    asked = pool.submit(_odds, client, game, team)
                    time.sleep(0.5)
                    os.kill(child, signal.SIGKILL)
                    lost = asked.result()
                assert lost.status_code == 503, lost.text
                assert lost.headers["Retry-After"] == "1"
                assert lost.json()["detail"] == (
                    "the odds process stopped while working out these odds: ask again (it has been restarted)"
                )
                assert _odds(client, game, team).json() == first.json()
                assert len(_odds_processes(server.pid)) == 1
        finally:
            server.kill()
    log = farm.logs()
    assert "had stopped (exit status -9); starting another" in log, log
    assert "stopped while working out these odds (exit status -9)" in log, log
    assert "Traceback" not in log, log


def test_a_stuck_odds_process_is_killed_and_the_request_told_so(farm: ServerFarm, tmp_path: Path) -> None:
    """An odds process that answers nothing (stopped) past SEVENS_ODDS_SECONDS: the request gets
    503 saying how long it waited, the process is killed (not left stopped), the game's /state is
    answered at once meanwhile, and the next odds are answered by a new process."""
    with database("sqlite", tmp_path) as (url, _engine):
        server = farm.start(server_env(url, games_per_hour=0, odds_seconds=2))
        try:
            with httpx.Client(base_url=server.url, timeout=60) as client:
                game = host_game(client)
                team = next(iter(game.teams))
                assert _odds(client, game, team).status_code == 200
                [stuck] = _odds_processes(server.pid)
                os.kill(stuck, signal.SIGSTOP)
                with ThreadPoolExecutor(max_workers=1) as pool:
                    started = time.monotonic()
                    asked = pool.submit(_odds, client, game, team)
                    time.sleep(0.3)
                    polled = time.monotonic()
                    state = client.get(f"/api/v1/games/{game.public_id}/state", headers=game.organiser)
                    polled = time.monotonic() - polled
                    given_up = asked.result()
                    waited = time.monotonic() - started
                assert state.status_code == 200 and polled < 1.0, polled
                assert given_up.status_code == 503, given_up.text
                assert given_up.json()["detail"] == (
                    "the odds process took longer than 2 s to work out these odds: ask again (it has been restarted)"
                )
                assert 2 <= waited < 10, waited
                assert _gone(stuck, within=5)
                assert _odds(client, game, team).status_code == 200
                assert stuck not in _odds_processes(server.pid)
        finally:
            server.kill()


def test_an_idle_odds_process_gives_its_memory_back_and_the_next_question_starts_another(tmp_path: Path) -> None:
    """SEVENS_ODDS_IDLE_MINUTES without a question: the odds process exits (its caches' memory
    given back) and the log says so; questions coming closer together keep it; the next question
    after it stopped is answered alike by a new one. Questions sent on and around the moment it
    stops are each answered once, 200: it is only stopped between questions, under their lock."""
    idle = 1.2  # seconds: 0.02 minutes
    with _sevens_serve(tmp_path, SEVENS_ODDS_IDLE_MINUTES=str(idle / 60)) as (server, url):
        with httpx.Client(base_url=url, timeout=60) as client:
            game = host_game(client)
            team = next(iter(game.teams))
            first = _odds(client, game, team)
            assert first.status_code == 200, first.text
            [child] = _odds_processes(server.pid)
            for _ in range(3):  # each within the idle time of the last answer
                time.sleep(idle / 3)
                assert _odds(client, game, team).json() == first.json()
            assert _odds_processes(server.pid) == [child]
            assert _gone(child, within=idle + 5), "the idle odds process was left running"
            assert _odds_processes(server.pid) == []
            again = _odds(client, game, team)
            assert again.status_code == 200, again.text
            assert again.json() == first.json()
            [new] = _odds_processes(server.pid)
            assert new != child

            # Questions from two clients at gaps around the idle time: some land as it stops.
            def ask_around_the_stop(seed: int) -> list[int]:
                rng = random.Random(seed)
                codes = []
                with httpx.Client(base_url=url, timeout=60) as own:
                    for _ in range(6):
                        time.sleep(idle + rng.uniform(-0.15, 0.15))
                        codes.append(_odds(own, game, team).status_code)
                return codes

            with ThreadPoolExecutor(max_workers=2) as pool:
                codes = [c for got in pool.map(ask_around_the_stop, range(2)) for c in got]
            assert codes == [200] * 12
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
        assert server.stderr is not None
        log = server.stderr.read().decode()
    assert f"stopped after {idle / 60:g} minutes without a question, giving its memory back" in log, log
    assert "had stopped" not in log and "stopped while working out" not in log, log
    assert "Traceback" not in log, log


def test_two_servers_on_one_database_have_an_odds_process_each(farm: ServerFarm, tmp_path: Path) -> None:
    """Two server processes on one database (two workers behind a proxy): each works odds out in
    an odds process of its own; one killed takes its own with it, and the other's still answers."""
    with cluster(farm, "sqlite", tmp_path, games_per_hour=0) as race:
        first, second = race.servers
        one, two = race.client(0, timeout=60), race.client(1, timeout=60)
        game = host_game(one)
        team = next(iter(game.teams))
        assert _odds(one, game, team).json() == _odds(two, game, team).json()
        [mine], [theirs] = _odds_processes(first.pid), _odds_processes(second.pid)
        assert mine != theirs
        first.kill()
        assert _gone(mine, within=5)
        assert _odds(two, game, team).status_code == 200
        assert _odds_processes(second.pid) == [theirs]


@contextmanager
def _sevens_serve(tmp_path: Path, **env: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``sevens serve`` itself (not forked from the zygote: its own signal handling, its log at
    level INFO) on SQLite, with the settings ``env`` besides."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "sevens", "serve", "--port", str(port),
         "--database-url", f"sqlite:///{tmp_path / 'sevens.db'}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, "SEVENS_GAMES_PER_HOUR": "0", **env},
        start_new_session=True,  # a process group of its own, as a service's: killpg reaches it only
    )
    try:
        wait_until_up(port, pid=process.pid, timeout=60)
        yield process, f"http://127.0.0.1:{port}"
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stderr is not None:
            process.stderr.close()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_the_odds_process_ends_with_the_server(tmp_path: Path, signum: signal.Signals) -> None:
    """SIGTERM: the server stops its odds process and exits 0. SIGKILL (no clean-up at all): the
    odds process, orphaned, exits by itself within seconds; no process is left either way."""
    with _sevens_serve(tmp_path) as (server, url):
        with httpx.Client(base_url=url, timeout=60) as client:
            game = host_game(client)
            assert _odds(client, game, next(iter(game.teams))).status_code == 200
        [child] = _odds_processes(server.pid)
        server.send_signal(signum)
        status = server.wait(timeout=30)
        assert status == (0 if signum == signal.SIGTERM else -signal.SIGKILL)
        assert _gone(child, within=5), f"the odds process {child} outlived the server"
        if signum == signal.SIGTERM:
            assert server.stderr is not None
            log = server.stderr.read().decode()
            assert "sevens stopped cleanly on SIGTERM" in log, log
            assert "odds process" not in log, log  # stopped, not lost


def test_odds_being_worked_out_are_answered_when_the_whole_server_gets_sigterm(tmp_path: Path) -> None:
    """``systemctl stop`` (and Ctrl-C in a terminal) signal every process of the server, the odds
    process too: the odds requests in flight are still answered, the server exits 0, and its odds
    process with it. (Killed by the signal, the odds process failed the requests in flight: 503.)"""
    with _sevens_serve(tmp_path) as (server, url):
        with httpx.Client(base_url=url, timeout=60) as client:
            game, team, scrum, _ = semi_finals(client)
            headers = game.players[game.teams[team]]
            odds_url = f"/api/v1/games/{game.public_id}/teams/{team}/odds"
            assert client.post(odds_url, json={"force": 1, "flair": 0}, headers=headers).status_code == 200
        [child] = _odds_processes(server.pid)
        drafts = [{"force": scrum - flair, "flair": flair} for flair in range(60, 42, -3)]  # six, none asked

        # Each on a connection opened before (a busy machine may take longer to connect than the
        # odds take), so that all six are surely sent when the signal comes.
        clients = [httpx.Client(base_url=url, timeout=60) for _ in drafts]
        try:
            for own in clients:
                assert own.get("/api/v1/strategies").status_code == 200
            with ThreadPoolExecutor(max_workers=len(drafts)) as pool:
                asked = [
                    pool.submit(lambda own, draft: own.post(odds_url, json=draft, headers=headers).status_code, own, d)
                    for own, d in zip(clients, drafts, strict=True)
                ]
                time.sleep(0.3)
                os.killpg(server.pid, signal.SIGTERM)
                codes = [a.result() for a in asked]
        finally:
            for own in clients:
                own.close()
        assert codes == [200] * len(drafts)
        assert server.wait(timeout=30) == 0
        assert _gone(child, within=5)
        assert server.stderr is not None
        log = server.stderr.read().decode()
        assert "odds process" not in log, log
