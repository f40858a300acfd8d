"""Real answers of every API operation, for several callers, over whole games: the material the
OpenAPI document's response schemas are checked against (test_web_api_schema.py).

Only HTTP calls, so the same recording runs against any version of the app (but for the tighter
rate limits of its last phase, set on the app for a moment).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI

from sevens.web.security import RateLimiter
from web.web_helpers import new_client

NOBODY = "nobody"  # no Authorization header
WRONG = "wrong"  # a bearer token the server never gave
MALFORMED = "malformed"  # an Authorization header that is not a bearer token
STRANGER = "stranger"  # a valid token with no grant in the game
ORGANISER = "organiser"
PLAYER = "player"  # plays seat p1
BOTH = "both"  # organises the game and plays seat p2
READERS = (NOBODY, STRANGER, ORGANISER, PLAYER, BOTH)


@dataclass(frozen=True)
class Answer:
    phase: str
    caller: str
    method: str
    template: str  # the operation's path as in the OpenAPI document
    status: int
    body: Any  # the JSON answer; None for an empty one
    headers: dict[str, str] = field(default_factory=dict, compare=False)  # lower-case names


class Recorder:
    def __init__(self, app: FastAPI) -> None:
        self.client = new_client(app)
        self.tokens: dict[str, str] = {}
        self.answers: list[Answer] = []
        self.phase = "lobby"
        self.etag = ""  # the last answer's ETag header, if it had one

    def headers(self, caller: str) -> dict[str, str]:
        if caller == NOBODY:
            return {}
        if caller == WRONG:
            return {"Authorization": "Bearer not-a-token-the-server-gave"}
        if caller == MALFORMED:
            return {"Authorization": "Basic dXNlcjpwYXNz"}
        return {"Authorization": f"Bearer {self.tokens[caller]}"}

    def call(
        self, caller: str, method: str, template: str, json: Any = None, if_none_match: str = "", **path: str
    ) -> Any:
        url = template.format(**path)
        query = path.pop("query", "")
        headers = self.headers(caller)
        if if_none_match:
            headers["If-None-Match"] = if_none_match
        response = self.client.request(method, url + query, headers=headers, json=json)
        self.etag = response.headers.get("etag", "")
        csv = response.headers.get("content-type", "").startswith("text/csv")
        body = response.text if csv else response.json() if response.content else None
        sent_back = {name.lower(): value for name, value in response.headers.items()}
        self.answers.append(Answer(self.phase, caller, method.lower(), template, response.status_code, body, sent_back))
        return body

    def reads(self, game: str, team_of: dict[str, str]) -> None:
        """Every reading operation, by every kind of caller."""
        for caller in READERS:
            team = team_of.get(caller, team_of[PLAYER])
            for template in ("/api/v1/me", "/api/v1/waiting", "/api/v1/strategies"):
                if caller != NOBODY or template == "/api/v1/strategies":
                    self.call(caller, "GET", template)
            # The views that answer with an ETag, read once more with it: 304, no body.
            for template in (
                "/api/v1/games/{public_id}",
                "/api/v1/games/{public_id}/state",
                "/api/v1/games/{public_id}/teams/{team}/view",
            ):
                self.call(caller, "GET", template, public_id=game, team=team)
                if self.etag:
                    self.call(caller, "GET", template, if_none_match=self.etag, public_id=game, team=team)
            self.call(caller, "GET", "/api/v1/games/{public_id}/record", public_id=game)
            self.call(caller, "GET", "/api/v1/games/{public_id}/standing.csv", public_id=game)
            self.call(caller, "GET", "/api/v1/games/{public_id}/matches.csv", public_id=game)
            self.call(caller, "GET", "/api/v1/games/{public_id}/orders", public_id=game)
            for query in ("?force=5&flair=3", "?force=900&flair=0"):
                self.call(
                    caller, "GET", "/api/v1/games/{public_id}/teams/{team}/odds", public_id=game, team=team, query=query
                )
            for draft in ({"force": 5, "flair": 3}, {"force": 900, "flair": 0}):
                self.call(caller, "POST", "/api/v1/games/{public_id}/teams/{team}/odds", draft, public_id=game, team=team)


def _teams(rec: Recorder, game: str, caller: str) -> list[str]:
    view = rec.client.get(f"/api/v1/games/{game}", headers=rec.headers(caller)).json()
    return [t["team"] for t in view.get("my_teams", [])]


def _resolve(rec: Recorder, game: str) -> dict[str, Any]:
    view = rec.client.get(f"/api/v1/games/{game}", headers=rec.headers(ORGANISER)).json()
    return dict(rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/resolve", {"turn": view["turn"]}, public_id=game))


def record_answers(app: FastAPI) -> list[Answer]:
    """Play a public game from lobby to champion, a private one ended early and one ended in its
    lobby, recording every answer (refusals included)."""
    rec = Recorder(app)
    create = "/api/v1/games"
    body = {"name": "Schema", "players": 4, "teams": 8, "teams_per_player": 2, "deadline_hours": 24}
    created = rec.call(NOBODY, "POST", create, body)
    game, rec.tokens[ORGANISER] = created["game"], created["token"]
    rec.tokens[STRANGER] = rec.call(NOBODY, "POST", create, dict(body, name="Elsewhere"))["token"]
    rec.call(ORGANISER, "POST", create, dict(body, name="Again", deadline_hours=None))
    rec.call(WRONG, "POST", create, body)
    rec.call(NOBODY, "POST", create, dict(body, teams=None))
    rec.tokens[PLAYER] = rec.call(NOBODY, "POST", "/api/v1/join", {"invite": created["invites"]["p1"], "name": "Ana"})[
        "token"
    ]
    rec.call(PLAYER, "POST", "/api/v1/join", {"invite": created["invites"]["p1"], "name": "Ana"})  # again: same seat
    rec.call(NOBODY, "POST", "/api/v1/join", {"invite": created["invites"]["p1"], "name": "Eve"})  # used: 410
    rec.call(NOBODY, "POST", "/api/v1/join", {"invite": "nonsense", "name": "Eve"})
    rec.call(WRONG, "POST", "/api/v1/join", {"invite": created["invites"]["p3"], "name": "Eve"})
    rec.call(NOBODY, "POST", "/api/v1/join", {"invite": created["invites"]["p3"]})
    rec.tokens[BOTH] = rec.call(NOBODY, "POST", "/api/v1/organise", {"link": created["organiser_link"]})["token"]
    rec.call(ORGANISER, "POST", "/api/v1/organise", {"link": created["organiser_link"]})
    rec.call(NOBODY, "POST", "/api/v1/organise", {"link": "nonsense"})
    rec.call(BOTH, "POST", "/api/v1/join", {"invite": created["invites"]["p2"], "name": "Bo"})
    rec.call(PLAYER, "POST", "/api/v1/join", {"invite": created["invites"]["p4"], "name": "Ana2"})  # one seat each
    for caller in (WRONG, MALFORMED, NOBODY):
        rec.call(caller, "GET", "/api/v1/me")
        rec.call(caller, "GET", "/api/v1/games/{public_id}", public_id=game)
        rec.call(caller, "PUT", "/api/v1/games/{public_id}/orders/{team}", {"turn": 1, "force": 1, "flair": 1},
                 public_id=game, team="x")
    rec.reads(game, {PLAYER: "nobody-yet"})
    rec.call(PLAYER, "POST", "/api/v1/games/{public_id}/start", public_id=game)  # not the organiser
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/resolve", {"turn": 1}, public_id=game)  # not running
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/start", public_id="no-such-game")

    rec.phase = "running"
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/start", public_id=game)
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/start", public_id=game)  # again: 409
    mine, theirs = _teams(rec, game, PLAYER), _teams(rec, game, BOTH)
    everyone = [t["id"] for t in rec.client.get(f"/api/v1/games/{game}").json()["teams"]]
    unclaimed = [t for t in everyone if t not in mine + theirs]
    team_of = {PLAYER: mine[0], BOTH: theirs[0]}
    rec.reads(game, team_of)
    put_order = "/api/v1/games/{public_id}/orders/{team}"
    rec.call(PLAYER, "PUT", put_order, {"turn": 1, "force": 6, "flair": 3}, public_id=game, team=mine[0])
    rec.call(PLAYER, "PUT", put_order, {"turn": 1, "force": 600, "flair": 3}, public_id=game, team=mine[1])
    rec.call(PLAYER, "PUT", put_order, {"turn": 2, "force": 6, "flair": 3}, public_id=game, team=mine[1])
    rec.call(PLAYER, "PUT", put_order, {"turn": 1, "force": 6, "flair": 3}, public_id=game, team=theirs[0])
    rec.call(BOTH, "PUT", put_order, {"turn": 1, "force": 5, "flair": 5, "ready": True}, public_id=game, team=theirs[0])
    # Input the operation does not take: refused, 422 (an unknown field, query parameter or body).
    rec.call(PLAYER, "PUT", put_order, {"turn": 1, "forse": 6, "flair": 3}, public_id=game, team=mine[0])
    rec.call(PLAYER, "GET", "/api/v1/games/{public_id}/teams/{team}/odds", public_id=game, team=mine[0],
             query="?forse=6")
    rec.call(PLAYER, "POST", "/api/v1/games/{public_id}/teams/{team}/odds", {"forse": 6}, public_id=game, team=mine[0])
    rec.call(NOBODY, "GET", "/api/v1/strategies", query="?verbose=1")
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/pause", {"minutes": 5}, public_id=game)
    rec.call(ORGANISER, "PUT", put_order, {"turn": 1, "force": 5, "flair": 5}, public_id=game, team=theirs[0])
    autopilot = "/api/v1/games/{public_id}/autopilot/{team}"
    rec.call(PLAYER, "PUT", autopilot, {"strategy": "even"}, public_id=game, team=mine[1])
    rec.call(PLAYER, "PUT", autopilot, {"strategy": "no-such-bot"}, public_id=game, team=mine[1])
    house = "/api/v1/games/{public_id}/house-bot/{team}"
    rec.call(ORGANISER, "PUT", house, {"strategy": "even"}, public_id=game, team=unclaimed[0])
    rec.call(ORGANISER, "PUT", house, {"strategy": "even"}, public_id=game, team=mine[0])
    rec.call(PLAYER, "PUT", house, {"strategy": "even"}, public_id=game, team=unclaimed[0])
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/extend", {"hours": 2}, public_id=game)
    deadline = "/api/v1/games/{public_id}/deadline"
    rec.call(ORGANISER, "POST", deadline, {"hours": 1.5}, public_id=game)
    rec.call(ORGANISER, "POST", deadline, {"hours": -1}, public_id=game)  # in the past: 422
    rec.call(ORGANISER, "POST", deadline, {"hours": 721}, public_id=game)  # past 30 days: 422
    rec.call(PLAYER, "POST", deadline, {"hours": 2}, public_id=game)  # not the organiser: 403
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/resume", public_id=game)  # not paused
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/rematch", public_id=game)  # not over: 409
    rec.reads(game, team_of)

    rec.phase = "paused"
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/pause", public_id=game)
    rec.reads(game, team_of)
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/resume", public_id=game)
    _resolve(rec, game)
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/resolve", {"turn": 1}, public_id=game)  # gone: 409

    rec.phase = "group"
    rec.reads(game, team_of)
    while _resolve(rec, game)["stage"] == "group":
        pass
    # Once no claimed team is left in play the bots play on to the final by themselves, so the
    # game may finish without another resolve (even the last group one): ask the game, not the
    # last resolve's answer, and name the phase by what it says.
    def finished() -> bool:
        return bool(rec.client.get(f"/api/v1/games/{game}").json()["status"] == "finished")

    rec.phase = "finished" if finished() else "knockout"
    team_of = {PLAYER: (_teams(rec, game, PLAYER) or mine)[0], BOTH: (_teams(rec, game, BOTH) or theirs)[0]}
    rec.reads(game, team_of)
    while not finished():
        _resolve(rec, game)
    rec.phase = "finished"
    rec.reads(game, team_of)
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/pause", public_id=game)
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/end", public_id=game)
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/organiser-link", public_id=game)
    rec.phase = "finished, new organiser link"  # BOTH no longer organises the game
    rec.call(BOTH, "POST", "/api/v1/games/{public_id}/end", public_id=game)
    rec.reads(game, team_of)

    # A private game ended early, its organiser also playing a seat.
    rec.phase = "ended"
    private = rec.call(BOTH, "POST", create, dict(body, name="Secret", visibility="private"))
    early = private["game"]
    rec.call(BOTH, "POST", "/api/v1/join", {"invite": private["invites"]["p1"], "name": "Bo"})
    rec.call(PLAYER, "POST", "/api/v1/join", {"invite": private["invites"]["p2"], "name": "Ana"})
    rec.call(ORGANISER, "POST", "/api/v1/organise", {"link": private["organiser_link"]})
    rec.call(BOTH, "POST", "/api/v1/games/{public_id}/start", public_id=early)
    team_of = {PLAYER: _teams(rec, early, PLAYER)[0], BOTH: _teams(rec, early, BOTH)[0]}
    rec.reads(early, team_of)
    assert rec.call(BOTH, "POST", "/api/v1/games/{public_id}/resolve", {"turn": 1}, public_id=early)["turn"] == 2
    rec.call(ORGANISER, "POST", "/api/v1/games/{public_id}/end", public_id=early)
    rec.reads(early, team_of)
    rematch = "/api/v1/games/{public_id}/rematch"
    rec.call(PLAYER, "POST", rematch, public_id=early)  # plays, does not organise: 403
    rec.call(STRANGER, "POST", rematch, public_id=early)  # a private game: 404
    rec.call(WRONG, "POST", rematch, public_id=early)
    assert rec.call(BOTH, "POST", rematch, public_id=early)["taken"] == {"p1": "Bo"}
    rec.call(ORGANISER, "POST", rematch, public_id=early)  # it has one: 409
    # The old game's views name the private rematch to BOTH alone (it organises and plays it).
    rec.reads(early, team_of)
    sequel = rec.call(BOTH, "GET", "/api/v1/games/{public_id}", public_id=early)["rematch"]
    assert sequel is not None
    assert rec.call(BOTH, "GET", "/api/v1/games/{public_id}", public_id=sequel)["rematch_of"] == early

    rec.phase = "ended-in-lobby"
    never = rec.call(BOTH, "POST", create, dict(body, name="Never played"))
    lobby = never["game"]
    # A friend joins, then drops out: the organiser hands the seat to the bots (before the start).
    rec.call(NOBODY, "POST", "/api/v1/join", {"invite": never["invites"]["p3"], "name": "Leaver"})
    release = "/api/v1/games/{public_id}/seats/{player}/release"
    rec.call(PLAYER, "POST", release, public_id=lobby, player="p3")  # not the organiser: 403
    assert rec.call(BOTH, "POST", release, public_id=lobby, player="p3")["invites"]["p3"]["played"] is False
    rec.call(BOTH, "POST", release, public_id=lobby, player="p3")  # nobody has it now: 409
    rec.call(BOTH, "POST", release, public_id=lobby, player="p9")  # no such seat: 404
    # ... and a new invite link for the seat, through the API as on the organiser page.
    invite = "/api/v1/games/{public_id}/seats/{player}/invite"
    rec.call(PLAYER, "POST", invite, public_id=lobby, player="p3")  # not the organiser: 403
    retaken = rec.call(BOTH, "POST", invite, public_id=lobby, player="p3")["invite"]
    rec.call(NOBODY, "POST", "/api/v1/join", {"invite": retaken, "name": "Back"})
    rec.call(BOTH, "POST", invite, public_id=lobby, player="p3")  # played again: 409
    rec.call(BOTH, "POST", invite, public_id=lobby, player="p9")  # no such seat: 404
    rec.call(BOTH, "POST", "/api/v1/games/{public_id}/end", public_id=lobby)
    rec.reads(lobby, {PLAYER: "none"})

    rec.phase = "name removed"
    removing = "/api/v1/games/{public_id}/seats/{player}/remove-name"
    rec.call(PLAYER, "POST", removing, public_id=lobby, player="p3")  # not the organiser: 403
    rec.call(BOTH, "POST", removing, public_id=lobby, player="p3")
    rec.call(BOTH, "POST", removing, public_id=lobby, player="p4")  # nobody took it: 409
    rec.call(BOTH, "POST", removing, public_id=lobby, player="p9")  # no such seat: 404

    rec.phase = "deleted"
    rec.call(PLAYER, "DELETE", "/api/v1/games/{public_id}", public_id=lobby)  # not the organiser: 403
    rec.call(BOTH, "DELETE", "/api/v1/games/{public_id}", public_id=lobby)
    rec.call(BOTH, "DELETE", "/api/v1/games/{public_id}", public_id=lobby)  # gone: 404

    rec.phase = "revoked"
    rec.call(STRANGER, "DELETE", "/api/v1/me")
    rec.call(STRANGER, "GET", "/api/v1/me")
    rec.call(STRANGER, "DELETE", "/api/v1/me")

    # Last, as it shuts this client out: wrong secrets past a limit of 2, a new game past 1 an hour.
    rec.phase = "limited"
    limiters = app.state.limiter, app.state.games_limiter
    app.state.limiter = RateLimiter(attempts=2, window_seconds=60)
    app.state.games_limiter = RateLimiter(attempts=1, window_seconds=3600)
    try:
        for _ in range(3):
            rec.call(WRONG, "GET", "/api/v1/waiting")
        rec.call(NOBODY, "POST", "/api/v1/join", {"invite": "nonsense", "name": "Eve"})
        rec.call(WRONG, "GET", "/api/v1/games/{public_id}", public_id=game)
        for _ in range(2):
            rec.call(ORGANISER, "POST", create, dict(body, name="One more"))
    finally:
        app.state.limiter, app.state.games_limiter = limiters
    assert [answer.status for answer in rec.answers[-7:]] == [401, 401, 429, 429, 429, 201, 429]
    return rec.answers
