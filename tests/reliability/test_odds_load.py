"""One client asking for many expensive odds at once: the others' requests are not held up.

A knockout draft's odds take a tenth of a second or more of CPU each (count-back over every line,
against each bot's order). A real server on SQLite, whose worker has one database connection, in
the semi-finals of a game; one player asks for the odds of many different large drafts at once.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import httpx
import pytest

from reliability.helpers import database, server_env
from sevens.web.odds_queue import ODDS_AT_ONCE
from sevens.web.testing import ServerFarm, semi_finals

pytestmark = pytest.mark.slow


def _two_players_odds(base_url: str) -> tuple[tuple[str, dict[str, str], int], tuple[str, dict[str, str]]]:
    """A game played to its semi-finals: the odds address, headers and SCRUM of the team with most
    SCRUM (its opponents' orders worked out once already), and the odds address and headers of a
    team of another player."""
    with httpx.Client(base_url=base_url, timeout=60) as client:
        game, team, scrum, _ = semi_finals(client)
        headers = game.players[game.teams[team]]
        odds_url = f"/api/v1/games/{game.public_id}/teams/{team}/odds"
        assert client.post(odds_url, json={"force": 1, "flair": 0}, headers=headers).status_code == 200
        other = next(t for t, pid in game.teams.items() if pid != game.teams[team])
        other_url = f"/api/v1/games/{game.public_id}/teams/{other}/odds"
        return (odds_url, headers, scrum), (other_url, game.players[game.teams[other]])


def _drafts(scrum: int, count: int, skip: int = 0) -> list[dict[str, int]]:
    """``count`` different large drafts (none asked before): many FLAIR options, the rest FORCE."""
    drafts = []
    for flair in range(60, 0, -3):
        for force in range(scrum - flair, 0, -1):
            drafts.append({"force": force, "flair": flair})
    return drafts[skip : skip + count]


def test_odds_asked_at_once_hold_up_no_other_request(farm: ServerFarm, tmp_path: Path) -> None:
    """Six large knockout drafts asked at once, then the game's /state: it is answered while some
    of the odds are still being worked out. (When the odds were worked out on the request's own
    database connection, the /state waited for it behind every one of them.)"""
    with database("sqlite", tmp_path) as (url, _engine):
        server = farm.start(server_env(url, games_per_hour=0))
        try:
            with httpx.Client(base_url=server.url, timeout=60) as client:
                game, team, scrum, _ = semi_finals(client)
                assert scrum >= 70
                headers = game.players[game.teams[team]]
                odds_url = f"/api/v1/games/{game.public_id}/teams/{team}/odds"
                # The opponents' orders are worked out once here: only the drafts are new below.
                assert client.post(odds_url, json={"force": 1, "flair": 0}, headers=headers).status_code == 200

            def ask(draft: dict[str, int]) -> tuple[int, float, int]:
                with httpx.Client(base_url=server.url, timeout=60) as own:
                    answer = own.post(odds_url, json=draft, headers=headers)
                    return answer.status_code, time.monotonic(), len(answer.json().get("against", []))

            def state() -> tuple[int, float]:
                with httpx.Client(base_url=server.url, timeout=60) as own:
                    answer = own.get(f"/api/v1/games/{game.public_id}/state", headers=game.organiser)
                    return answer.status_code, time.monotonic()

            with ThreadPoolExecutor(max_workers=8) as pool:
                asked = [pool.submit(ask, draft) for draft in _drafts(scrum, 6)]
                time.sleep(0.2)
                polled = pool.submit(state)
                odds = [a.result() for a in asked]
                status, answered_at = polled.result()
            assert status == 200
            assert [(code, rows > 0) for code, _, rows in odds] == [(200, True)] * 6
            # Some may be answered before it (as many as were worked out in the 0.2 s); never all.
            before = sum(at < answered_at for _, at, _ in odds)
            assert before <= 4, f"/state was answered after {before} of the 6 odds"
        finally:
            server.kill()


def test_one_credential_asking_too_many_odds_at_once_is_told_to_wait(farm: ServerFarm, tmp_path: Path) -> None:
    """Far more odds at once than ODDS_AT_ONCE from one player: those past the limit get 429 with
    Retry-After and a message saying to wait for the answers; the rest are answered, and so is
    another player asking meanwhile."""
    with database("sqlite", tmp_path) as (url, _engine):
        server = farm.start(server_env(url, games_per_hour=0))
        try:
            (odds_url, headers, scrum), (other_url, other_headers) = _two_players_odds(server.url)

            def ask(url_and_draft: tuple[str, dict[str, int], dict[str, str]]) -> httpx.Response:
                where, draft, who = url_and_draft
                with httpx.Client(base_url=server.url, timeout=60) as own:
                    return own.post(where, json=draft, headers=who)

            many = 3 * ODDS_AT_ONCE
            with ThreadPoolExecutor(max_workers=many + 1) as pool:
                asked = [pool.submit(ask, (odds_url, draft, headers)) for draft in _drafts(scrum, many)]
                time.sleep(0.2)
                theirs = pool.submit(ask, (other_url, {"force": 0, "flair": 0}, other_headers)).result()
                answers = [a.result() for a in asked]
            assert theirs.status_code in (200, 409), theirs.text  # 409: their team is out
            codes = sorted(a.status_code for a in answers)
            assert set(codes) == {200, 429}, codes
            assert codes.count(200) >= ODDS_AT_ONCE
            refused = next(a for a in answers if a.status_code == 429)
            assert refused.headers["Retry-After"] == "1"
            assert refused.json()["detail"] == (
                f"you have {ODDS_AT_ONCE} odds requests being worked out already: wait for their answers before "
                "asking for more (odds are worked out one at a time, for everyone)"
            )
        finally:
            server.kill()


def test_a_player_asking_odds_waits_for_one_of_anothers_many(farm: ServerFarm, tmp_path: Path) -> None:
    """One player has eight large knockout drafts waiting; another player's odds, asked after them,
    are answered before the last of them. (In one queue for all, they waited behind all eight.)"""
    with database("sqlite", tmp_path) as (url, _engine):
        server = farm.start(server_env(url, games_per_hour=0))
        try:
            (odds_url, headers, scrum), (other_url, other_headers) = _two_players_odds(server.url)

            def ask(url_and_draft: tuple[str, dict[str, int], dict[str, str]]) -> tuple[int, float]:
                where, draft, who = url_and_draft
                with httpx.Client(base_url=server.url, timeout=60) as own:
                    answer = own.post(where, json=draft, headers=who)
                    return answer.status_code, time.monotonic()

            with ThreadPoolExecutor(max_workers=ODDS_AT_ONCE + 1) as pool:
                asked = [pool.submit(ask, (odds_url, d, headers)) for d in _drafts(scrum, ODDS_AT_ONCE)]
                # Once two are answered, the others are read and waiting to be worked out.
                answered = as_completed(asked)
                next(answered), next(answered)
                status, answered_at = pool.submit(ask, (other_url, {"force": 1, "flair": 0}, other_headers)).result()
                many = [a.result() for a in asked]
            assert status == 200
            assert [code for code, _ in many] == [200] * ODDS_AT_ONCE
            # The two, the one being worked out when it came, perhaps one more; not the rest.
            before = sum(at < answered_at for _, at in many)
            assert before <= ODDS_AT_ONCE - 3, f"the other player's odds came after {before} of {ODDS_AT_ONCE}"
        finally:
            server.kill()


@pytest.mark.parametrize("sent_in", ["body", "address"])
def test_a_newer_draft_sent_latest_only_replaces_the_tokens_own_waiting_one(
    farm: ServerFarm, tmp_path: Path, sent_in: str
) -> None:
    """The odds process held (stopped) while one token sends three drafts with latest_only and
    another player one of their own: the token's second, still waiting when its third came, gets
    409 and is never worked out; the first (with the process), the third and the other player's
    are answered, each with its own draft's odds. (Before, all four were worked out in turn.) The
    same by POST with the draft in the body and by GET with it in the address, which refused
    latest_only as a parameter it did not take."""
    from reliability.test_odds_process import _odds_processes
    from sevens.web.odds_queue import SUPERSEDED

    with database("sqlite", tmp_path) as (url, _engine):
        server = farm.start(server_env(url, games_per_hour=0))
        try:
            (odds_url, headers, scrum), (other_url, other_headers) = _two_players_odds(server.url)
            [held] = _odds_processes(server.pid)
            first, second, third = _drafts(scrum, 3)

            def ask(where: str, draft: dict[str, int], who: dict[str, str]) -> httpx.Response:
                with httpx.Client(base_url=server.url, timeout=60) as own:
                    if sent_in == "address":
                        return own.get(where, params={**draft, "latest_only": "true"}, headers=who)
                    return own.post(where, json={**draft, "latest_only": True}, headers=who)

            os.kill(held, signal.SIGSTOP)
            try:
                with ThreadPoolExecutor(max_workers=4) as pool:
                    asked = []
                    for where, draft, who in [(odds_url, first, headers), (odds_url, second, headers),
                                              (other_url, {"force": 1, "flair": 0}, other_headers),
                                              (odds_url, third, headers)]:
                        asked.append(pool.submit(ask, where, draft, who))
                        time.sleep(0.5)  # read and queued before the next
                    replaced = asked[1].result(timeout=30)  # at once, the process still held
                    os.kill(held, signal.SIGCONT)
                    answers = [a.result() for a in asked]
            finally:
                with contextlib.suppress(ProcessLookupError):  # killed by the server as stuck meanwhile
                    os.kill(held, signal.SIGCONT)
            assert replaced.status_code == 409, replaced.text
            assert replaced.json() == {"detail": SUPERSEDED}
            assert [a.status_code for a in answers] == [200, 409, 200, 200], [a.text for a in answers]
            assert answers[0].json()["order"] == first and answers[3].json()["order"] == third
            assert answers[2].json()["order"] == {"force": 1, "flair": 0}
        finally:
            server.kill()
