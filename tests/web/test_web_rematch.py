"""A rematch with the same settings, from the organiser page of a game that is over."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from sevens.store import games as store
from sevens.store.models import GameRow
from sevens.web.api import NOT_ORGANISER
from web.refused_forms import refused_form
from web.web_helpers import host_game, new_client, post_form, unset


def _games(app: FastAPI) -> list[GameRow]:
    with app.state.sessionmaker() as db:
        return list(db.scalars(select(GameRow).order_by(GameRow.id)))


def test_a_player_alone_starts_a_rematch_in_one_click_and_keeps_their_seat(app: FastAPI) -> None:
    """The organiser who played seat p1 against the bots ends the game, then asks for a rematch:
    a new game with the same settings and a new seed, this browser organising it and already in
    seat p1 under the same name, the other seats' invite links shown once; the old game's other
    players are not in it."""
    game = host_game(app, arrangement="16-16-1", hours="0.5", bot="field-reader", bot_weight="1", visibility="private")
    me = game.organiser
    path = game.invites["p1"].split("testserver", 1)[1]
    assert post_form(me, path, {"name": "Solo Sam"}).status_code == 303
    friend = game.join("p2", "Friend")
    game.start()
    assert post_form(me, f"{game.base}/end").status_code == 303
    over = me.get(f"{game.base}/organise").text
    assert 'id="rematch"' in over and "Rematch with the same settings" in over

    page = post_form(me, f"{game.base}/rematch")
    assert page.status_code == 201, page.text
    old, new = _games(app)
    assert new.name == "Friday sevens (rematch)"
    settings = ("players", "teams", "teams_per_player", "turn_seconds", "default_bot", "default_autopilot", "visibility")
    assert [getattr(new, s) for s in settings] == [getattr(old, s) for s in settings]
    assert new.default_bot == "field-reader@1" and new.turn_seconds == 1800
    assert new.status.value == "lobby" and new.seed_sha256 != old.seed_sha256
    assert "This browser has taken seat 1 again as Solo Sam." in unset(page.text)
    links = dict(re.findall(r'data-player="(p\d+)">.*?<code class="invite">([^<]+)<', unset(page.text)))
    assert sorted(links, key=lambda p: int(p[1:])) == [f"p{n}" for n in range(2, 17)]
    # This browser plays seat p1 already, and a browser plays one seat: no link offers it another.
    assert "take this seat yourself" not in page.text
    # A reload reads the new game's organiser page; it does not make a third game.
    assert f'data-canonical="/games/{new.public_id}/organise"' in page.text

    base = f"/games/{new.public_id}"
    assert me.get(f"{base}/organise").status_code == 200
    mine = me.get(f"{base}/play")
    assert mine.status_code == 200 and "Solo Sam" in mine.text
    # The friend of the first game plays only if they open a new invite (the game is private).
    assert friend.get(f"{base}/play").status_code == 404
    assert post_form(friend, links["p2"].split("testserver", 1)[1], {"name": "Friend"}).status_code == 303
    assert friend.get(f"{base}/play").status_code == 200
    assert post_form(me, f"{base}/start").status_code == 303
    assert me.get(f"{base}/play").text.count('class="order-form"') == 1


def test_no_rematch_before_the_end_nor_by_a_player(app: FastAPI) -> None:
    """A game still being played gets no rematch (409, said at the button on the organiser page,
    nothing created); a player who does not organise is refused (403)."""
    game = host_game(app)
    player = game.join("p1", "Ann")
    game.start()
    page = post_form(game.organiser, f"{game.base}/rematch")
    assert page.status_code == 409
    assert 'id="rematch"' not in game.organiser.get(f"{game.base}/organise").text  # no button while running
    form = refused_form(page.text, "rematch")
    said = [e.text for e in form.summary().all() if e.tag == "li"]
    assert said == ["the game is running: a rematch is started once it is over (finished, or ended early by its organiser)"]
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    assert post_form(player, f"{game.base}/rematch").status_code == 403
    assert len(_games(app)) == 1


REMATCH_LINK = re.compile(r'id="rematch-link">This game was followed by a rematch: <a href="/games/([\w-]+)">')


def _rematch_link(client: TestClient, url: str) -> str | None:
    """The game the page at ``url`` names as its rematch, if any."""
    page = client.get(url)
    assert page.status_code == 200, page.text
    found = REMATCH_LINK.search(page.text)
    return None if found is None else found.group(1)


def test_a_public_games_pages_lead_everyone_to_its_rematch(app: FastAPI) -> None:
    """Whoever opens the old game's link (a spectator, a player, the organiser) finds the rematch
    of a public game; the new game's page names the old one; the organiser page shows the rematch
    where the button was, not the button again."""
    game = host_game(app)
    player = game.join("p2", "Bo")
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    spectator = new_client(app)
    assert _rematch_link(spectator, game.base) is None
    assert post_form(game.organiser, f"{game.base}/rematch").status_code == 201
    new = _games(app)[1].public_id
    assert _rematch_link(spectator, game.base) == new
    assert _rematch_link(player, f"{game.base}/play") == new
    assert _rematch_link(game.organiser, f"{game.base}/organise") == new
    organise = game.organiser.get(f"{game.base}/organise").text
    assert 'id="rematch"' not in organise and 'id="rematched"' in organise
    later = unset(spectator.get(f"/games/{new}").text)
    assert f'id="previous-game">A rematch of <a href="{game.base}">Friday sevens</a>.' in later
    assert _rematch_link(spectator, f"/games/{new}") is None


def test_a_private_rematch_is_named_only_to_those_who_may_see_it(app: FastAPI) -> None:
    """A private game's old players find its rematch only once they have joined it: until then
    the old page names no rematch, nor its address, as an unknown game would not be."""
    game = host_game(app, visibility="private")
    friend = game.join("p2", "Friend")
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    page = post_form(game.organiser, f"{game.base}/rematch")
    new = _games(app)[1].public_id
    for url in (game.base, f"{game.base}/play"):
        shown = friend.get(url).text
        assert "rematch" not in shown.lower() and new not in shown, url
    assert _rematch_link(game.organiser, game.base) == new
    links = dict(re.findall(r'data-player="(p\d+)">.*?<code class="invite">([^<]+)<', unset(page.text)))
    assert post_form(friend, links["p2"].split("testserver", 1)[1], {"name": "Friend"}).status_code == 303
    assert _rematch_link(friend, game.base) == new
    assert _rematch_link(friend, f"{game.base}/play") == new


def test_a_game_has_one_rematch(app: FastAPI) -> None:
    """A second rematch of the same game (a second click, or another organiser) is refused with
    409 at the button, saying why, and makes no game: the old game's players find one rematch."""
    game = host_game(app, visibility="private")
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    other = new_client(app)
    path = game.organiser_link.split("testserver", 1)[1]
    assert post_form(other, path).status_code == 303  # a second organiser
    assert post_form(game.organiser, f"{game.base}/rematch").status_code == 201
    page = post_form(other, f"{game.base}/rematch")
    assert page.status_code == 409
    said = [e.text for e in refused_form(page.text, "rematch").summary().all() if e.tag == "li"]
    assert said == [store.ALREADY_REMATCHED]
    assert len(_games(app)) == 2
    # The other organiser is told there is one, not where: the private rematch is not theirs to see.
    organise = other.get(f"{game.base}/organise").text
    assert 'id="rematch"' not in organise and "This game already has its rematch" in organise
    assert _games(app)[1].public_id not in organise


def _api_game(client: TestClient, **body: object) -> dict[str, Any]:
    created = client.post("/api/v1/games", json={"name": "Series", "players": 4, **body})
    assert created.status_code == 201, created.text
    return dict(created.json())


def test_a_bot_starts_the_rematch_by_api(app: FastAPI) -> None:
    """POST /api/v1/games/{id}/rematch answers like creation: the new game, its organiser link
    and the invites of the seats still open; the seat the token played it plays again under the
    same name, so its waiting list picks the new game up once it starts."""
    client = new_client(app)
    created = _api_game(
        client, visibility="private", deadline_hours=2, default_bot="field-reader@1", default_autopilot="even-flair"
    )
    auth = {"Authorization": f"Bearer {created['token']}"}
    old = created["game"]
    joined = client.post("/api/v1/join", json={"invite": created["invites"]["p3"], "name": "Robo"}, headers=auth)
    assert joined.status_code == 200, joined.text
    assert client.post(f"/api/v1/games/{old}/start", headers=auth).status_code == 200
    assert client.post(f"/api/v1/games/{old}/rematch", headers=auth).status_code == 409  # not over yet
    assert client.post(f"/api/v1/games/{old}/end", headers=auth).status_code == 200

    answer = client.post(f"/api/v1/games/{old}/rematch", headers=auth)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert sorted(body) == ["game", "invites", "name", "organiser_link", "rematch_of", "seed_sha256", "taken"]
    new = body["game"]
    assert body["rematch_of"] == old and body["name"] == "Series (rematch)"
    assert body["taken"] == {"p3": "Robo"} and sorted(body["invites"]) == ["p1", "p2", "p4"]
    old_row, new_row = _games(app)
    assert old_row.rematch_id == new_row.id and new_row.public_id == new
    assert (new_row.visibility.value, new_row.turn_seconds, new_row.default_bot, new_row.default_autopilot) == (
        "private", 7200, "field-reader@1", "even-flair"
    )
    assert new_row.seed_sha256 == body["seed_sha256"] != old_row.seed_sha256
    grants = client.get("/api/v1/me", headers=auth).json()["grants"]
    assert {"game": new, "role": "organiser", "player": None} in grants
    assert {"game": new, "role": "player", "player": "p3"} in grants
    # The secrets work: an invite joins, the organiser link organises.
    friend = client.post("/api/v1/join", json={"invite": body["invites"]["p1"], "name": "Ana"})
    assert friend.status_code == 200 and friend.json()["game"] == new
    organiser = client.post("/api/v1/organise", json={"link": body["organiser_link"]})
    assert organiser.status_code == 200 and organiser.json()["game"] == new
    assert client.post(f"/api/v1/games/{new}/start", headers=auth).status_code == 200
    waiting = client.get("/api/v1/waiting", headers=auth).json()
    assert [w["game"] for w in waiting] == [new]
    # One rematch per game.
    again = client.post(f"/api/v1/games/{old}/rematch", headers=auth)
    assert again.status_code == 409 and again.json() == {"detail": store.ALREADY_REMATCHED}
    assert len(_games(app)) == 2


def test_the_api_rematch_refuses_as_the_page_does(app: FastAPI) -> None:
    """403 for a token that plays but does not organise, 404 for a stranger to a private game (as
    an unknown game), 401 without a token; nothing is created."""
    client = new_client(app)
    created = _api_game(client, visibility="private")
    old = created["game"]
    auth = {"Authorization": f"Bearer {created['token']}"}
    player = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ana"}).json()["token"]
    stranger = _api_game(client)["token"]
    assert client.post(f"/api/v1/games/{old}/end", headers=auth).status_code == 200
    refused = client.post(f"/api/v1/games/{old}/rematch", headers={"Authorization": f"Bearer {player}"})
    assert refused.status_code == 403 and refused.json() == {"detail": NOT_ORGANISER}
    hidden = client.post(f"/api/v1/games/{old}/rematch", headers={"Authorization": f"Bearer {stranger}"})
    assert hidden.status_code == 404 and hidden.json() == {"detail": store.no_such_game(old)}
    assert client.post(f"/api/v1/games/{old}/rematch").status_code == 401
    assert len(_games(app)) == 2


def _seen(client: TestClient, game: str, token: str | None) -> tuple[str | None, str | None]:
    """The rematch and the game it is the rematch of, as the API's game view names them to ``token``."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    answer = client.get(f"/api/v1/games/{game}", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()["rematch"], answer.json()["rematch_of"]


def test_the_api_names_a_public_games_rematch_to_everyone(app: FastAPI) -> None:
    """As the pages do: every caller's game view of a public game names its rematch once there is
    one (null before), and the rematch's view names the game it follows; the organiser's answer
    to starting the rematch does too."""
    client = new_client(app)
    created = _api_game(client)
    old, organiser = created["game"], created["token"]
    auth = {"Authorization": f"Bearer {organiser}"}
    player = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Ana"}).json()["token"]
    stranger = _api_game(client)["token"]
    assert client.post(f"/api/v1/games/{old}/end", headers=auth).status_code == 200
    assert _seen(client, old, None) == (None, None)
    new = client.post(f"/api/v1/games/{old}/rematch", headers=auth).json()["game"]
    for token in (None, stranger, player, organiser):
        assert _seen(client, old, token) == (new, None), token
        assert _seen(client, new, token) == (None, old), token
    started = client.post(f"/api/v1/games/{new}/start", headers=auth).json()
    assert (started["rematch"], started["rematch_of"]) == (None, old)


def test_the_api_names_a_private_rematch_only_to_those_who_may_see_it(app: FastAPI) -> None:
    """A private game's rematch is named in the API exactly where its page names it: to the token
    that organises it, to an old player only once they have joined it, and never to an organiser
    of the old game who is not one of the new (the page tells them only that there is one)."""
    client = new_client(app)
    created = _api_game(client, visibility="private")
    old, organiser = created["game"], created["token"]
    auth = {"Authorization": f"Bearer {organiser}"}
    friend = client.post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "Friend"}).json()["token"]
    other = client.post("/api/v1/organise", json={"link": created["organiser_link"]}).json()["token"]
    assert client.post(f"/api/v1/games/{old}/end", headers=auth).status_code == 200
    body = client.post(f"/api/v1/games/{old}/rematch", headers=auth).json()
    new = body["game"]
    assert _seen(client, old, organiser) == (new, None)
    assert _seen(client, new, organiser) == (None, old)
    for token in (friend, other):
        view = client.get(f"/api/v1/games/{old}", headers={"Authorization": f"Bearer {token}"})
        assert view.json()["rematch"] is None and new not in view.text, token
    again = {"invite": body["invites"]["p2"], "name": "Friend"}
    joined = client.post("/api/v1/join", json=again, headers={"Authorization": f"Bearer {friend}"})
    assert joined.status_code == 200, joined.text
    assert _seen(client, old, friend) == (new, None)
    assert _seen(client, new, friend) == (None, old)
    assert _seen(client, old, other) == (None, None)


@pytest.mark.parametrize(("word", "kept_words"), [(6, 11), (7, 10)])
def test_a_long_thai_names_rematch_is_cut_as_its_limit_counts_never_after_a_zero_width_space(
    app: FastAPI, word: int, kept_words: int
) -> None:
    """Thai puts a zero width space between words; a name's limit does not count it, and a name
    holds one only between two letters. Cut for " (rematch)" counting those spaces, a name near the
    limit lost words it had room for, and cut just after a space its rematch was refused: "the
    game's name holds U+200B ZERO WIDTH SPACE ... type the name without it", a name nobody typed."""
    thai = "\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22"[:word]
    name = "\u200b".join([thai] * 11)  # 66 or 77 characters shown, 10 spaces more
    client = new_client(app)
    created = _api_game(client, name=name)
    auth = {"Authorization": f"Bearer {created['token']}"}
    old = created["game"]
    joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Robo"}, headers=auth)
    assert joined.status_code == 200, joined.text
    assert client.post(f"/api/v1/games/{old}/start", headers=auth).status_code == 200
    assert client.post(f"/api/v1/games/{old}/end", headers=auth).status_code == 200
    answer = client.post(f"/api/v1/games/{old}/rematch", headers=auth)
    assert answer.status_code == 201, answer.text
    # 80 characters at most: 70 of the name's and " (rematch)"; the 66 fit whole.
    assert answer.json()["name"] == "\u200b".join([thai] * kept_words) + " (rematch)"


def test_a_rematchs_organiser_page_says_whose_each_open_seat_was(app: FastAPI) -> None:
    """The sheet of a rematch's invites says whose each seat was in the game before, but it is
    shown once; on the rematch's organiser page the seats were "Player 2", "Player 3", so an
    organiser who lost the sheet could not tell whom a seat's new link was for. Each seat nobody
    has taken yet says it there now, in the lobby, to an organiser who may see the old game; a
    helper given only the rematch's organiser link of a private game is told nothing of it."""
    game = host_game(app, visibility="private", name="Friday sevens")
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    made = post_form(game.organiser, f"{game.base}/rematch")
    assert made.status_code == 201
    rematch = _games(app)[1].public_id
    organise = f"/games/{rematch}/organise"
    page = unset(game.organiser.get(organise).text)
    assert '<span class="seat-before" id="before-p1">(in Friday sevens: Ann)</span>' in page
    assert '<span class="seat-before" id="before-p2">(in Friday sevens: Ben)</span>' in page
    assert 'id="before-p3"' not in page  # nobody had it: no name to tell
    links = dict(re.findall(r'data-player="(p\d+)">.*?<code class="invite">([^<]+)<', unset(made.text)))
    assert post_form(new_client(app), links["p2"].split("testserver", 1)[1], {"name": "Ben"}).status_code == 303
    page = unset(game.organiser.get(organise).text)
    assert 'id="before-p2"' not in page and 'id="before-p1"' in page  # taken: its name is its own now
    helper = new_client(app)
    organiser_link = re.search(r'id="organiser-link">([^<]+)<', made.text)
    assert organiser_link is not None
    path = organiser_link.group(1).split("testserver", 1)[1]
    assert helper.get(path).status_code == 200 and post_form(helper, path).status_code == 303
    seen = helper.get(organise)
    assert seen.status_code == 200 and 'class="seat-before"' not in seen.text and "Ann" not in seen.text


def _shown(page: str) -> str:
    """The words of a page as a person reads them (no markup, scripts or styles)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", unset(page))).split())


def test_a_rematch_invite_names_its_seat_as_the_sheet_of_invites_does(app: FastAPI) -> None:
    """The organiser's sheet of invites says "Seat 3", and the join page that seat's link opened
    said "You are invited to play seat p3", the seat's id inside the app; the rematch page said
    "taken seat p1 again". Each now says the seat's number, and no page a player meets on the way
    in shows a seat's id."""
    game = host_game(app)
    me = game.organiser
    assert post_form(me, game.invites["p1"].split("testserver", 1)[1], {"name": "Sam"}).status_code == 303
    game.join("p3", "Cy")
    game.start()
    assert post_form(me, f"{game.base}/end").status_code == 303
    made = post_form(me, f"{game.base}/rematch")
    assert made.status_code == 201, made.text
    sheet = _shown(made.text)
    assert "This browser has taken seat 1 again as Sam." in sheet
    links = dict(re.findall(r'data-player="(p\d+)">.*?<code class="invite">([^<]+)<', unset(made.text)))
    assert f"Seat 3 (Cy): {links['p3']}" in made.text  # the sheet's text to copy
    invited = new_client(app)
    joining = invited.get(links["p3"].split("testserver", 1)[1])
    assert joining.status_code == 200
    said = _shown(joining.text)
    assert "You are invited to play seat 3." in said, said
    assert not re.search(r"\bp\d+\b", said), said
    # Sam's browser, which plays seat 1 of the rematch, opening seat 3's link is told both by number.
    held = _shown(me.get(links["p3"].split("testserver", 1)[1]).text)
    assert "This browser already plays seat 1 of " in held and "Whoever plays seat 3 opens it" in held, held
    assert not re.search(r"\bp\d+\b", held), held
