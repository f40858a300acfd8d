"""Access: every route and API endpoint for every role, allowed vs refused; no current order leaks (R13).

Roles: anonymous (a browser with no credential), spectator (a browser that organises some other
game), another game's player, the player (p1), another player of the same game (p2), the organiser.
Over the API the roles are bot tokens: none, another game's player, p1 and p2.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import pytest
from fastapi import FastAPI

from web.web_helpers import Hosted, TestClient, csrf, host_game, log_shown, new_client, post_form

ROLES = ("anonymous", "spectator", "other_game_player", "player", "same_game_player", "organiser")


@dataclass
class World:
    game: Hosted
    other: Hosted
    clients: dict[str, TestClient]
    tokens: dict[str, str | None]
    p1_team: str
    p2_team: str
    visibility: str


def api_join(app: FastAPI, invite_link: str, name: str) -> str:
    client = new_client(app)
    response = client.post("/api/v1/join", json={"invite": invite_link.rsplit("/", 1)[1], "name": name})
    assert response.status_code == 200, response.text
    token = response.json()["token"]
    assert isinstance(token, str)
    return token


def build_world(app: FastAPI, visibility: str) -> World:
    game = host_game(app, visibility=visibility)
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    other = host_game(app, name="Another game")
    other.join("p1", "Outsider")
    anonymous = new_client(app)
    csrf(anonymous)  # a CSRF cookie but no credential: refusals below are about access, not CSRF
    clients = {
        "anonymous": anonymous,
        "spectator": other.organiser,
        "other_game_player": other.players["p1"],
        "player": game.players["p1"],
        "same_game_player": game.players["p2"],
        "organiser": game.organiser,
    }
    tokens: dict[str, str | None] = {
        "anonymous": None,
        "other_game_player": api_join(app, other.invites["p2"], "Outside bot"),
        "player": api_join(app, game.new_invite("p1"), "Player 1"),
        "same_game_player": api_join(app, game.new_invite("p2"), "Player 2"),
        "organiser": new_client(app)
        .post("/api/v1/organise", json={"link": game.organiser_link.rsplit("/", 1)[1]})
        .json()["token"],
    }
    return World(game, other, clients, tokens, game.my_teams("p1")[0], game.my_teams("p2")[0], visibility)


@pytest.fixture(params=["public", "private"])
def world(request: pytest.FixtureRequest, app: FastAPI) -> World:
    return build_world(app, request.param)


def _public(world: World) -> bool:
    return world.visibility == "public"


def test_get_pages_by_role(world: World) -> None:
    """Public pages for anyone who may watch; organiser page for the organiser; play page for players."""
    for role in ROLES:
        check_get_pages(world, role)


def check_get_pages(world: World, role: str) -> None:
    client = world.clients[role]
    base = world.game.base
    public = _public(world)
    member = role in ("player", "same_game_player", "organiser")
    watch = 200 if public or member else 404
    assert client.get(base).status_code == watch
    assert client.get(f"{base}/record.json").status_code == watch
    assert client.get(f"{base}/verify").status_code == watch
    assert client.get(f"{base}/teams/{world.p1_team}").status_code == watch
    organise = client.get(f"{base}/organise").status_code
    assert organise == (200 if role == "organiser" else 403 if watch == 200 else 404)
    play = client.get(f"{base}/play").status_code
    assert play == (200 if role in ("player", "same_game_player") else 403 if watch == 200 else 404)
    odds = client.post(f"{base}/odds", data={"team": world.p1_team, "force": 3, "flair": 3}).status_code
    assert odds == (200 if role == "player" else 403 if watch == 200 else 404)


def test_post_player_forms_by_role(world: World) -> None:
    """Only the team's own player may order for it or set its autopilot; refusals change nothing."""
    for role in sorted(ROLES, key=lambda r: r == "player"):  # the owner last: refusals must change nothing
        check_player_forms(world, role)


def check_player_forms(world: World, role: str) -> None:
    client = world.clients[role]
    base = world.game.base
    public = _public(world)
    member = role in ("player", "same_game_player", "organiser")
    refused = 403 if public or member else 404
    order = post_form(
        client, f"{base}/orders", {"team": world.p1_team, "turn": "1", "force": "5", "flair": "3"}
    )
    assert order.status_code == (303 if role == "player" else refused)
    auto = post_form(client, f"{base}/autopilot", {"team": world.p1_team, "strategy": "group-blitz"})
    assert auto.status_code == (303 if role == "player" else refused)
    page = world.game.players["p1"].get(f"{base}/play").text
    assert ('value="5"' in page) == (role == "player")
    assert ('<option value="group-blitz" selected>' in page) == (role == "player")


ORGANISER_POSTS = (
    ("pause", {}),
    ("extend", {"hours": "1"}),
    ("resume", {}),
    ("seats/p3/invite", {"sign_out": "yes"}),
    ("resolve", {"turn": "1"}),
    ("end", {}),
)


def test_post_organiser_forms_by_role(world: World) -> None:
    """Only the organiser may start, pause, extend, resume, resolve, re-invite or end."""
    for role in sorted(ROLES, key=lambda r: r == "organiser"):
        check_organiser_forms(world, role)


def check_organiser_forms(world: World, role: str) -> None:
    client = world.clients[role]
    public = _public(world)
    member = role in ("player", "same_game_player", "organiser")
    refused = 403 if public or member else 404
    # Everyone here has taken their seat: the organiser is told so, anyone else is refused first.
    house = post_form(client, f"{world.game.base}/house-bot", {"team": world.p1_team, "strategy": "even"})
    assert house.status_code == (403 if role == "organiser" else refused)
    assert ("taken their seat" in html.unescape(house.text)) == (role == "organiser")
    for action, data in ORGANISER_POSTS:
        response = post_form(client, f"{world.game.base}/{action}", data)
        if role == "organiser":
            assert response.status_code in (200, 303), (action, response.text)
        else:
            assert response.status_code == refused, (action, response.status_code)
    ended = "ended" in world.game.organiser.get(f"{world.game.base}/organise").text
    assert ended == (role == "organiser")
    # Starting an already started game is a conflict for the organiser, refused for everyone else.
    start = post_form(client, f"{world.game.base}/start")
    assert start.status_code == (409 if role == "organiser" else refused)


def api(world: World, role: str, method: str, path: str, **kwargs: object):  # type: ignore[no-untyped-def]
    client = new_client(world.game.app)
    token = world.tokens.get(role)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.request(method, path, headers=headers, **kwargs)  # type: ignore[arg-type]


API_ROLES = ("anonymous", "other_game_player", "player", "same_game_player", "organiser")


def test_api_by_role(world: World) -> None:
    """The API: a token is required; a game's data for those who may watch it; orders for own teams only."""
    # Allowed writers last, the organiser (who ends the game) very last: refusals must change nothing.
    for role in ("anonymous", "other_game_player", "same_game_player", "player", "organiser"):
        check_api(world, role)


def check_api(world: World, role: str) -> None:
    gid, team = world.game.public_id, world.p1_team
    public = _public(world)
    if role == "anonymous":
        for method, path in (
            ("GET", "/api/v1/me"),
            ("GET", "/api/v1/waiting"),
            ("GET", f"/api/v1/games/{gid}/orders"),
            ("PUT", f"/api/v1/games/{gid}/orders/{team}"),
            ("POST", f"/api/v1/games/{gid}/resolve"),
            ("POST", f"/api/v1/games/{gid}/end"),
        ):
            # A body only where the operation takes one (a body sent to /end is refused as such, 422).
            body = {"turn": 1, "force": 1, "flair": 0} if path.endswith((team, "/resolve")) else None
            assert api(world, role, method, path, json=body).status_code == 401, path
        # What the game's page shows anyone, the API shows without a token: a public game only.
        for path in (f"/api/v1/games/{gid}", f"/api/v1/games/{gid}/record"):
            answer = api(world, role, "GET", path)
            assert answer.status_code == (200 if public else 404), (path, answer.text)
        if public:
            seen = api(world, role, "GET", f"/api/v1/games/{gid}").json()
            assert "me" not in seen and "order_states" not in seen and "events" not in seen
        return
    member = role in ("player", "same_game_player")
    watch = 200 if public or member or role == "organiser" else 404
    assert api(world, role, "GET", "/api/v1/me").status_code == 200
    assert api(world, role, "GET", "/api/v1/strategies").status_code == 200
    assert api(world, role, "GET", f"/api/v1/games/{gid}").status_code == watch
    assert api(world, role, "GET", f"/api/v1/games/{gid}/record").status_code == watch
    own = 200 if role == "player" else 403 if watch == 200 else 404
    mine_or_member = 200 if member else 403 if watch == 200 else 404
    assert api(world, role, "GET", f"/api/v1/games/{gid}/orders").status_code == mine_or_member
    assert api(world, role, "GET", f"/api/v1/games/{gid}/teams/{team}/view").status_code == own
    assert (
        api(world, role, "GET", f"/api/v1/games/{gid}/teams/{team}/odds?force=3&flair=3").status_code == own
    )
    put = api(
        world, role, "PUT", f"/api/v1/games/{gid}/orders/{team}", json={"turn": 1, "force": 4, "flair": 3}
    )
    assert put.status_code == own
    auto = api(world, role, "PUT", f"/api/v1/games/{gid}/autopilot/{team}", json={"strategy": "random"})
    assert auto.status_code == own
    waiting = api(world, role, "GET", "/api/v1/waiting").json()
    assert any(w["game"] == gid for w in waiting) == member
    boss = 200 if role == "organiser" else 403 if watch == 200 else 404
    house = api(world, role, "PUT", f"/api/v1/games/{gid}/house-bot/{team}", json={"strategy": "even"})
    assert house.status_code == (403 if boss == 200 else boss)
    assert ("taken their seat" in house.text) == (role == "organiser")
    for action, body in (
        ("pause", None),
        ("extend", {"hours": 1}),
        ("resume", None),
        ("resolve", {"turn": 1}),
    ):
        answer = api(world, role, "POST", f"/api/v1/games/{gid}/{action}", json=body)
        assert answer.status_code == boss, (role, action, answer.text)
    organise_page = world.game.organiser.get(f"{world.game.base}/organise").text
    said = "organiser (api: organiser) · resolved turn 1 · at once"
    assert (said in log_shown(organise_page)) == (role == "organiser")
    assert api(world, role, "POST", f"/api/v1/games/{gid}/end").status_code == boss


def leaks(text: str, force: int, flair: int) -> bool:
    """Whether a response shows the order (force, flair) in any of the forms pages and the API use."""
    patterns = (
        rf'value="{force}"',
        rf'value="{flair}"',
        rf"\b{force} FORCE\b",
        rf"\b{flair} FLAIR\b",
        rf'"force":\s*{force}\b',
        rf'"flair":\s*{flair}\b',
        rf"\b{force}\+{flair}\b",
    )
    return any(re.search(p, text) for p in patterns)


def test_r13_no_one_but_the_owner_sees_a_current_order(world: World) -> None:
    """R13: orders are secret until the turn is resolved, on every page, API, export and log."""
    gid, base = world.game.public_id, world.game.base
    assert world.game.order("p1", world.p1_team, 37, 27).status_code == 303
    put = api(
        world,
        "same_game_player",
        "PUT",
        f"/api/v1/games/{gid}/orders/{world.p2_team}",
        json={"turn": 1, "force": 41, "flair": 21, "ready": True},
    )
    assert put.status_code == 200
    secrets = {"player": (37, 27), "same_game_player": (41, 21)}
    pages = ["/", base, f"{base}/organise", f"{base}/play", f"{base}/record.json", f"{base}/verify",
             f"{base}/teams/{world.p1_team}", f"{base}/teams/{world.p2_team}"]
    for role, client in world.clients.items():
        for path in pages:
            text = client.get(path).text
            for owner, (force, flair) in secrets.items():
                if role == owner and path == f"{base}/play":
                    assert leaks(text, force, flair), "the owner sees their own order"
                else:
                    assert not leaks(text, force, flair), (role, path, owner)
    api_paths = [
        "/api/v1/me",
        "/api/v1/waiting",
        f"/api/v1/games/{gid}",
        f"/api/v1/games/{gid}/record",
        f"/api/v1/games/{gid}/orders",
        f"/api/v1/games/{gid}/teams/{world.p1_team}/view",
        f"/api/v1/games/{gid}/teams/{world.p2_team}/view",
    ]
    for role in API_ROLES:
        for path in api_paths:
            text = api(world, role, "GET", path).text
            for owner, (force, flair) in secrets.items():
                own_team = world.p1_team if owner == "player" else world.p2_team
                own_data = role == owner and (
                    path.endswith("/orders")
                    or path == f"/api/v1/games/{gid}"
                    or path.endswith(f"/{own_team}/view")
                )
                assert leaks(text, force, flair) == own_data, (role, path, owner)
    # Once resolved the orders are public (R13): the organiser resolves, everyone who watches sees them.
    assert post_form(world.game.organiser, f"{base}/resolve", {"turn": "1"}).status_code == 303
    assert "37+27" in world.game.organiser.get(base).text
    assert "37+27" in world.game.organiser.get(f"{base}/teams/{world.p1_team}").text


def test_a_private_game_answers_as_an_unknown_one(app: FastAPI) -> None:
    """Whether a private game exists is not disclosed: to an outsider, with or without a token of
    another game, it answers 404 with the very words of a game that does not exist."""
    client = new_client(app)
    created = client.post(
        "/api/v1/games", json={"name": "Hidden", "players": 4, "visibility": "private"}
    ).json()
    other = client.post("/api/v1/games", json={"name": "Other", "players": 4}).json()
    stranger = {"Authorization": f"Bearer {other['token']}"}
    hidden, unknown = created["game"], "x" * len(created["game"])
    for path in ("/api/v1/games/{}", "/api/v1/games/{}/record", "/games/{}", "/games/{}/record.json", "/games/{}/teams/fiji",
                 "/games/{}/state", "/games/{}/state?as=player", "/games/{}/who-ordered", "/games/{}/links"):
        for headers in ({}, stranger):
            answers = [client.get(path.format(game), headers=headers) for game in (hidden, unknown)]
            assert [a.status_code for a in answers] == [404, 404], path
            texts = [a.text.replace(game, "ID") for a, game in zip(answers, (hidden, unknown), strict=True)]
            assert texts[0] == texts[1], (path, headers)
    order = {"turn": 1, "force": 1, "flair": 0}
    puts = [client.put(f"/api/v1/games/{game}/orders/fiji", json=order, headers=stranger) for game in (hidden, unknown)]
    assert [p.status_code for p in puts] == [404, 404]
    assert puts[0].text.replace(hidden, "ID") == puts[1].text.replace(unknown, "ID")


def test_a_join_form_sent_again_under_another_name_says_the_name_was_not_used(app: FastAPI) -> None:
    """A join form loaded in a second tab and sent after the browser joined from the first sent
    the browser to its seat's page as if the name typed had been taken; the seat kept its name."""
    hosted = host_game(app)
    ana = hosted.join("p1", "Ana")
    path = hosted.invites["p1"].split("testserver", 1)[1]
    assert post_form(ana, path, {"name": "Ana"}).status_code == 303
    again = post_form(ana, path, {"name": "Bea"})
    assert again.status_code == 422, again.text
    assert "this seat is 'Ana', not 'Bea'" in html.unescape(again.text)
    assert "Bea" not in html.unescape(ana.get(f"{hosted.base}/play").text)
