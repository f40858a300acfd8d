"""A bot polls cheaply: ``GET /api/v1/games/{id}/state`` gives a version that moves only when what
the caller may see has changed, and the game and team views answer ``If-None-Match`` with 304.
The version moves for the organiser when orders come in, as its page shows who has ordered, but
not for a spectator or a player: a player's page follows who has ordered by its own mark, without
a reload (R13: whether, never what).
"""

from __future__ import annotations

import html
import re
from typing import Any

from fastapi import FastAPI

from sevens.web.conditional import etag_of
from web.web_helpers import FakeClock, TestClient, host_game, new_client, post_form


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Bots:
    """A public API game for 4 with every seat joined by its own token, and a spectator: a valid
    token with no grant in this game."""

    def __init__(self, app: FastAPI) -> None:
        self.client = new_client(app)
        created = self.client.post("/api/v1/games", json={"name": "Polled", "players": 4, "deadline_hours": 24}).json()
        self.game = created["game"]
        self.organiser = _bearer(created["token"])
        self.players: dict[str, dict[str, str]] = {}
        for player, invite in sorted(created["invites"].items()):
            joined = self.client.post("/api/v1/join", json={"invite": invite, "name": f"bot {player}"})
            self.players[player] = _bearer(joined.json()["token"])
        elsewhere = self.client.post("/api/v1/games", json={"name": "Elsewhere", "players": 4}).json()
        self.spectator = _bearer(elsewhere["token"])

    def state(self, who: dict[str, str]) -> dict[str, Any]:
        answer = self.client.get(f"/api/v1/games/{self.game}/state", headers=who)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def etag(self, who: dict[str, str], path: str = "") -> str:
        answer = self.client.get(f"/api/v1/games/{self.game}{path}", headers=who)
        assert answer.status_code == 200, answer.text
        return answer.headers["etag"]

    def act(self, what: str, **body: Any) -> None:
        answer = self.client.post(f"/api/v1/games/{self.game}/{what}", headers=self.organiser, json=body or None)
        assert answer.status_code == 200, answer.text

    def teams(self, player: str) -> list[str]:
        view = self.client.get(f"/api/v1/games/{self.game}", headers=self.players[player]).json()
        return [team["team"] for team in view["my_teams"] if team["match"] is not None]

    def order(self, player: str, *, ready: bool) -> None:
        turn = self.state(self.players[player])["turn"]
        for team in self.teams(player):
            body = {"turn": turn, "force": 3, "flair": 3, "ready": ready}
            saved = self.client.put(f"/api/v1/games/{self.game}/orders/{team}", headers=self.players[player], json=body)
            assert saved.status_code == 200 and not saved.json()["resolved"], saved.text


def test_the_state_moves_when_the_game_starts_pauses_resumes_and_resolves(app: FastAPI) -> None:
    """Each change everyone may see moves everyone's version, and the state says the status and
    the open turn."""
    bots = Bots(app)
    callers = [bots.players["p1"], bots.spectator, {}, bots.organiser]
    seen = [bots.state(who) for who in callers]
    assert all(state["status"] == "lobby" and state["turn"] is None for state in seen)
    for act, body, status, turn in (
        ("start", {}, "running", 1),
        ("pause", {}, "paused", 1),
        ("resume", {}, "running", 1),
        ("extend", {"hours": 1}, "running", 1),
        ("resolve", {"turn": 1}, "running", 2),
        ("end", {}, "ended", None),
    ):
        bots.act(act, **body)
        now = [bots.state(who) for who in callers]
        for before, after in zip(seen, now, strict=True):
            assert (after["status"], after["turn"]) == (status, turn), act
            assert after["version"] != before["version"], act
        seen = now


def test_another_seat_ordering_moves_nothing_a_player_or_spectator_polls(app: FastAPI) -> None:
    """R13: p2 saving and readying its orders changes neither the version nor the ETags of a
    spectator's state and game view (token or none), nor p1's version, state and team view. p1's
    game view lists whether each team has ordered (docs/web.md, "Who sees what"), so its ETag
    moves with those two fields (order_states, and who_ordered as the player's page lists it) and
    nothing else of the body; the organiser's version and game ETag
    move, as its page shows who has ordered (never what)."""
    bots = Bots(app)
    bots.act("start")
    p1 = bots.players["p1"]
    team = bots.teams("p1")[0]
    game_url = f"/api/v1/games/{bots.game}"

    def polled() -> dict[str, tuple[Any, ...]]:
        seen: dict[str, tuple[Any, ...]] = {
            name: (bots.state(who)["version"], bots.etag(who), bots.etag(who, "/state"))
            for name, who in (("spectator", bots.spectator), ("nobody", {}))
        }
        seen["p1"] = (bots.state(p1)["version"], bots.etag(p1, "/state"), bots.etag(p1, f"/teams/{team}/view"))
        seen["p1 game"] = (bots.etag(p1),)
        seen["organiser"] = (bots.state(bots.organiser)["version"], bots.etag(bots.organiser))
        return seen

    before, p1_game = polled(), bots.client.get(game_url, headers=p1).json()
    for ready in (False, True):
        bots.order("p2", ready=ready)
        after, p1_now = polled(), bots.client.get(game_url, headers=p1).json()
        for name in ("p1", "spectator", "nobody"):
            assert after[name] == before[name], (name, ready)
        assert after["p1 game"] != before["p1 game"], ready
        assert {key for key in p1_now if p1_now[key] != p1_game[key]} == {"order_states", "who_ordered"}, ready
        assert set(p1_now["order_states"].values()) <= {"none", "saved", "ready", "unclaimed"}
        theirs = {t["team"]: t["state"] for t in p1_now["who_ordered"] if t["team"] in p1_now["order_states"]}
        assert theirs == p1_now["order_states"], ready
        assert after["organiser"][0] != before["organiser"][0], ready
        assert after["organiser"][1] != before["organiser"][1], ready
        before, p1_game = after, p1_now


def test_an_unchanged_view_answers_304_and_a_changed_one_a_new_etag(app: FastAPI) -> None:
    """If-None-Match with the ETag of the last answer: 304 with no body while nothing changed,
    then 200 with the new body and a new ETag once a turn is resolved; the ETag is the hash of the
    body received and nothing else."""
    bots = Bots(app)
    bots.act("start")
    p1 = bots.players["p1"]
    team = bots.teams("p1")[0]
    for path in ("", "/state", f"/teams/{team}/view"):
        url = f"/api/v1/games/{bots.game}{path}"
        first = bots.client.get(url, headers=p1)
        etag = first.headers["etag"]
        assert etag == etag_of(first.content) and not etag.startswith("W/"), path
        again = bots.client.get(url, headers={**p1, "If-None-Match": etag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag, path
        for named in (f'"other", W/{etag}', "*"):
            assert bots.client.get(url, headers={**p1, "If-None-Match": named}).status_code == 304, (path, named)
        assert bots.client.get(url, headers={**p1, "If-None-Match": '"other"'}).status_code == 200, path
    etags = {path: bots.etag(p1, path) for path in ("", "/state", f"/teams/{team}/view")}
    bots.act("resolve", turn=1)
    for path, old in etags.items():
        changed = bots.client.get(f"/api/v1/games/{bots.game}{path}", headers={**p1, "If-None-Match": old})
        assert changed.status_code == 200 and changed.json(), path
        assert changed.headers["etag"] not in (old, "") and changed.headers["etag"] == etag_of(changed.content), path


def test_each_caller_gets_the_etag_of_its_own_answer(app: FastAPI) -> None:
    """The organiser's, a player's and the public's views of one game are different answers with
    different ETags, and one caller's ETag is not another's 304."""
    bots = Bots(app)
    bots.act("start")
    callers = {"organiser": bots.organiser, "p1": bots.players["p1"], "p2": bots.players["p2"], "public": {}}
    etags = {name: bots.etag(who) for name, who in callers.items()}
    assert len(set(etags.values())) == len(etags), etags
    url = f"/api/v1/games/{bots.game}"
    for name, who in callers.items():
        for other, etag in etags.items():
            answer = bots.client.get(url, headers={**who, "If-None-Match": etag})
            assert answer.status_code == (304 if other == name else 200), (name, other)
    # A token with no grant sees what the public sees: the same answer, so the same ETag (compared
    # unzipped: the public's goes gzipped to a client that takes it, under a tag of its own).
    plain = {"Accept-Encoding": "identity"}
    assert bots.etag({**bots.spectator, **plain}) == bots.etag(plain) == etags["public"].replace('-gzip"', '"')


def test_a_browser_polls_the_api_state_with_its_session(app: FastAPI) -> None:
    """The API's state call also takes a browser's session (no token): a private game's organiser
    reads it, with the organiser's version (as its page polls); a stranger is told there is no
    such game, as everywhere else."""
    game = host_game(app, visibility="private")
    url = f"/api/v1/games/{game.public_id}/state"
    answer = game.organiser.get(url)
    assert answer.status_code == 200, answer.text
    page_state = game.organiser.get(f"{game.base}/state").json()
    assert answer.json() == page_state and page_state["status"] == "lobby"
    stranger: TestClient = new_client(app)
    refused = stranger.get(url)
    assert refused.status_code == 404 and "etag" not in refused.headers


def test_a_rematch_moves_the_old_games_state_for_whoever_may_see_it(app: FastAPI) -> None:
    """A bot polling a game that is over learnt nothing when its organiser started a rematch: the
    old game's version stayed put, so the bot never read the view that names the rematch. Now it
    moves for everyone who may see the rematch (anyone for a public one), and for the old game's
    organiser, whose page says there is one."""
    bots = Bots(app)
    bots.act("end")
    readers = {"organiser": bots.organiser, "player": bots.players["p1"], "spectator": bots.spectator, "nobody": {}}
    before = {who: bots.state(headers)["version"] for who, headers in readers.items()}
    made = bots.client.post(f"/api/v1/games/{bots.game}/rematch", headers=bots.organiser)
    assert made.status_code == 201, made.text
    for who, headers in readers.items():
        after = bots.state(headers)
        assert after["version"] != before[who], who
        assert bots.client.get(f"/api/v1/games/{bots.game}", headers=headers).json()["rematch"] == made.json()["game"]


def test_a_private_rematch_moves_the_version_only_for_those_who_may_see_it(app: FastAPI) -> None:
    """A private rematch's existence is told to nobody outside it: a player of the old game who has
    not joined the rematch polls the same version as before, until they open their new invite."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Quiet", "players": 4, "visibility": "private"}).json()
    game, organiser = created["game"], _bearer(created["token"])
    player = _bearer(client.post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "Pat"}).json()["token"])
    assert client.post(f"/api/v1/games/{game}/end", headers=organiser).status_code == 200

    def version(who: dict[str, str]) -> str:
        return str(client.get(f"/api/v1/games/{game}/state", headers=who).json()["version"])

    before_player, before_organiser = version(player), version(organiser)
    made = client.post(f"/api/v1/games/{game}/rematch", headers=organiser).json()
    assert version(player) == before_player
    assert version(organiser) != before_organiser
    joined = client.post("/api/v1/join", json={"invite": made["invites"]["p2"], "name": "Pat"}, headers=player)
    assert joined.status_code == 200, joined.text
    assert version(player) != before_player


def test_my_orders_say_null_while_no_turn_is_open(app: FastAPI) -> None:
    """``GET /orders`` in the lobby said ``"turn": 0``, a number no turn has; a bot author testing
    for "no turn yet" had to know that. It is null then, and after the end, as in ``/state``."""
    bots = Bots(app)
    p1 = bots.players["p1"]

    def mine() -> dict[str, Any]:
        answer = bots.client.get(f"/api/v1/games/{bots.game}/orders", headers=p1)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    assert mine() == {"turn": None, "orders": {}}
    bots.act("start")
    assert mine() == {"turn": 1, "orders": {}}
    bots.order("p1", ready=False)
    assert mine()["turn"] == 1 and len(mine()["orders"]) == 2
    bots.act("end")
    assert mine() == {"turn": None, "orders": {}}


def test_the_organisers_state_moves_when_a_seat_is_left_or_handed_to_the_bots(app: FastAPI) -> None:
    """The organiser page's *Joined* column says "nobody plays it now" for a seat whose browser
    signed out or whose token was revoked, but the organiser's version did not move for either,
    so an open organiser page kept saying "yes" until reloaded by hand. It moves for both (and
    for a seat handed to the bots), stays put while nothing changes (the page's own version is
    the poll's, or the page would reload for ever), and moves for nobody else (a player's page
    shows no such thing)."""
    game = host_game(app, hours="24")
    ann = game.join("p1", "Ann")
    game.join("p2", "Ben")
    bots_token = new_client(app).post("/api/v1/join", json={"invite": game.invites["p3"], "name": "Cat"}).json()
    cat = _bearer(bots_token["token"])
    game.start()
    poll, organise = f"{game.base}/state", f"{game.base}/organise"

    def versions() -> tuple[str, str]:
        page = game.organiser.get(organise).text
        shown = re.search(r'data-version="([^"]+)"', page)
        assert shown is not None
        polled = game.organiser.get(poll).json()["version"]
        assert html.unescape(shown.group(1)) == polled, "the page's version is the one its poll reads"
        return polled, ann.get(poll).json()["version"]

    before = versions()
    assert versions() == before, "nothing changed, nothing moves"
    for leave in (
        lambda: post_form(game.players["p2"], "/signout").status_code == 303,
        lambda: game.organiser.delete("/api/v1/me", headers=cat).status_code == 204,
        lambda: post_form(game.organiser, f"{game.base}/seats/p2/release").status_code == 303,
    ):
        assert leave()
        after = versions()
        assert after[0] != before[0], "the organiser's Joined column changed"
        assert after[1] == before[1], "a player's page shows nothing of it"
        before = after


def test_another_organiser_tab_follows_a_new_invite_link_and_a_bot_chosen(app: FastAPI) -> None:
    """Two tabs on the organiser page: a new invite link made in one (the seat's Invite column
    says "open until ...") or a bot chosen for a team nobody plays left the other's version as it
    was, so that tab kept the old column and menu, and pressing *New invite link* there again
    would kill the link just sent. Every organiser act adds to the event log, which the page shows:
    its length is in the organiser's version, which moves for both; a player's does not."""
    game = host_game(app, hours="24")
    ann = game.join("p1", "Ann")
    game.start()
    poll = f"{game.base}/state"
    before = game.organiser.get(poll).json()["version"], ann.get(poll).json()["version"]
    made = post_form(game.organiser, f"{game.base}/seats/p3/invite")
    assert made.status_code == 200, made.text
    after = game.organiser.get(poll).json()["version"], ann.get(poll).json()["version"]
    assert after[0] != before[0] and after[1] == before[1]
    page = game.organiser.get(f"{game.base}/organise").text
    shown = re.search(r'data-version="([^"]+)"', page)
    assert shown is not None and html.unescape(shown.group(1)) == after[0]
    team = re.search(r'<tr id="house-([\w-]+)">', page)
    assert team is not None
    chosen = post_form(game.organiser, f"{game.base}/house-bot", {"team": team.group(1), "strategy": "group-blitz"})
    assert chosen.status_code == 303, chosen.text
    assert game.organiser.get(poll).json()["version"] != after[0] and ann.get(poll).json()["version"] == after[1]


def test_an_open_organiser_page_follows_an_invite_link_expiring(app: FastAPI, clock: FakeClock) -> None:
    """An invite passing its expiry (SEVENS_INVITE_DAYS) left the organiser's version as it was, so
    an organiser page left open kept saying "open until ..." and offering a dead link. The moment
    it expires the organiser's version moves, the page's and its poll's alike, and the page then
    says "expired"; nothing moves for a player or through the API for anyone but the organiser."""
    game = host_game(app, hours="0")
    ann = game.join("p1", "Ann")
    game.start()
    poll, organise = f"{game.base}/state", f"{game.base}/organise"
    api = f"/api/v1/games/{game.public_id}/state"

    def versions() -> tuple[str, str, str]:
        page = game.organiser.get(organise).text
        shown = re.search(r'data-version="([^"]+)"', page)
        assert shown is not None
        polled = game.organiser.get(poll).json()["version"]
        assert html.unescape(shown.group(1)) == polled, "the page's version is the one its poll reads"
        return polled, game.organiser.get(api).json()["version"], ann.get(poll).json()["version"]

    def p2_invite() -> str:
        cell = re.search(r'<span class="invite-state" data-player="p2">(.*?)</span>', game.organiser.get(organise).text)
        assert cell is not None
        return cell.group(1)

    assert p2_invite().startswith("open until")
    clock.advance(days=13, hours=23)
    before = versions()
    assert versions() == before, "nothing changed, nothing moves"
    clock.advance(hours=1, seconds=1)
    after = versions()
    assert after[0] != before[0] and after[1] != before[1], "the organiser's invite column changed"
    assert after[2] == before[2], "a player's page shows no invites"
    assert p2_invite() == "expired"
    assert versions() == after
