"""A new organiser link: shown once, the old one dead at once, and whoever came in through it out."""

from __future__ import annotations

import re

from fastapi import FastAPI

from sevens.web.api import NOT_ORGANISER
from sevens.web.security import RateLimiter
from web.web_helpers import Hosted, host_game, log_heard, log_shown, new_client, post_form


def _path(link: str) -> str:
    return link.split("testserver", 1)[1]


def _rotate(hosted: Hosted) -> str:
    response = post_form(hosted.organiser, f"{hosted.base}/organiser-link")
    assert response.status_code == 200, response.text
    found = re.search(r'id="organiser-link">([^<]+)<', response.text)
    assert found is not None
    return found.group(1)


def test_new_organiser_link_replaces_the_old_one_and_signs_out_who_used_it(app: FastAPI) -> None:
    """The old link answers as any wrong link; a browser that organised through it organises no
    more; the one that asked keeps organising; the new link works; the log has it, not the secret."""
    hosted = host_game(app)
    old = hosted.organiser_link
    intruder = new_client(app)  # the old link pasted in the wrong chat, and used
    assert post_form(intruder, _path(old)).status_code == 303
    assert intruder.get(f"{hosted.base}/organise").status_code == 200
    page = hosted.organiser.get(f"{hosted.base}/organise").text
    assert 'id="new-organiser-link" data-confirm="Make a new organiser link?' in page

    response = post_form(hosted.organiser, f"{hosted.base}/organiser-link")
    assert response.status_code == 200
    # Shown once: the address bar is replaced, so a reload reads the organiser page.
    assert f'data-canonical="/games/{hosted.public_id}/organise"' in response.text
    new = re.search(r'id="organiser-link">([^<]+)<', response.text)
    assert new is not None and new.group(1) != old
    assert new.group(1).startswith("http://testserver/organiser/")

    stranger = new_client(app)
    wrong = stranger.get("/organiser/" + "x" * 32)
    for answer in (stranger.get(_path(old)), post_form(stranger, _path(old))):
        assert (answer.status_code, answer.text) == (wrong.status_code, wrong.text) == (404, wrong.text)
    refused = intruder.get(f"{hosted.base}/organise")
    assert refused.status_code == 403 and "a new organiser link was made, and only that one opens this page" in refused.text
    assert post_form(intruder, f"{hosted.base}/start").status_code == 403
    organise = hosted.organiser.get(f"{hosted.base}/organise")
    assert organise.status_code == 200
    said = "the old link stops working; 1 other browser(s) or token(s) lost organiser rights"
    assert f"organiser · made a new organiser link · {said}" in log_shown(organise.text)
    assert f"organiser: made a new organiser link, {said}" in log_heard(organise.text)
    for secret in (old, new.group(1)):
        assert secret.rsplit("/", 1)[1] not in organise.text
    helper = new_client(app)
    assert helper.get(_path(new.group(1))).status_code == 200
    assert post_form(helper, _path(new.group(1))).status_code == 303
    assert helper.get(f"{hosted.base}/organise").status_code == 200


def test_new_organiser_link_only_for_the_organiser_with_the_form_token(app: FastAPI) -> None:
    """A player, a stranger and a forged post (no CSRF token) change nothing: the link still works."""
    hosted = host_game(app)
    player = hosted.join("p1", "Ann")
    for client, token, status in ((player, True, 403), (new_client(app), True, 403), (hosted.organiser, False, 403)):
        assert post_form(client, f"{hosted.base}/organiser-link", token=token).status_code == status
    assert new_client(app).get(_path(hosted.organiser_link)).status_code == 200
    assert "organiser link ·" not in hosted.organiser.get(f"{hosted.base}/organise").text


def test_old_organiser_link_counts_as_a_wrong_secret(app: FastAPI) -> None:
    """The old link is held back by the same limit as any wrong secret: 429 past it."""
    app.state.limiter = RateLimiter(attempts=2, window_seconds=60)
    hosted = host_game(app)
    old = hosted.organiser_link
    _rotate(hosted)
    client = new_client(app)
    assert [client.get(_path(old)).status_code for _ in range(2)] == [404, 404]
    blocked = client.get(_path(old))
    assert blocked.status_code == 429 and blocked.headers["retry-after"] == "60"


def test_api_new_organiser_link(app: FastAPI) -> None:
    """By API as in the browser: the calling token keeps organising, a token and a browser that
    came in through the old link lose it, the old link is refused as a wrong one, the new one works."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Cup", "players": 4}).json()
    gid, boss = created["game"], {"Authorization": f"Bearer {created['token']}"}
    helper = client.post("/api/v1/organise", json={"link": created["organiser_link"]}).json()
    helper_auth = {"Authorization": f"Bearer {helper['token']}"}
    browser = new_client(app)
    assert post_form(browser, f"/organiser/{created['organiser_link']}").status_code == 303

    player = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Bot"}).json()
    refused = client.post(f"/api/v1/games/{gid}/organiser-link", headers={"Authorization": f"Bearer {player['token']}"})
    assert refused.status_code == 403 and refused.json() == {"detail": NOT_ORGANISER}

    response = client.post(f"/api/v1/games/{gid}/organiser-link", headers=boss)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["game"] == gid and body["organiser_link"] != created["organiser_link"]
    assert client.post(f"/api/v1/games/{gid}/start", headers=helper_auth).status_code == 403
    assert browser.get(f"/games/{gid}/organise").status_code == 403
    old = client.post("/api/v1/organise", json={"link": created["organiser_link"]})
    assert old.status_code == 404 and old.json() == {"detail": "this organiser link is not valid"}
    again = client.post("/api/v1/organise", json={"link": body["organiser_link"]}, headers=helper_auth)
    assert again.status_code == 200
    view = client.get(f"/api/v1/games/{gid}", headers=boss).json()
    logged = [e for e in view["events"] if e["kind"] == "organiser link"]
    assert logged and logged[0]["actor"] == "organiser (api: organiser)"
    assert "2 other browser(s) or token(s)" in logged[0]["detail"]
    assert body["organiser_link"] not in str(view)
    assert client.post(f"/api/v1/games/{gid}/start", headers=boss).status_code == 200


def _marks(client, hosted: Hosted):  # type: ignore[no-untyped-def]
    return client.get(f"{hosted.base}/links")


def test_pages_that_show_links_can_tell_when_a_newer_one_retires_them(app: FastAPI) -> None:
    """A page that shows a link once carries a mark of it; ``/links`` gives the marks as they are
    now, so that page, left open in one tab, can tell when another tab made a newer link. A mark
    moves only for the link replaced; a player gets their own seat's mark alone, anyone else none."""
    hosted = host_game(app, visibility="public")
    player = hosted.join("p1", "Ana")
    shown = post_form(hosted.organiser, f"{hosted.base}/organiser-link")
    mark = re.search(r'data-link="organiser" data-mark="([0-9a-f]{16})"', shown.text)
    assert mark is not None and f'data-links="/games/{hosted.public_id}/links"' in shown.text
    before = _marks(hosted.organiser, hosted)
    assert before.status_code == 200 and before.headers["cache-control"] == "no-store"
    assert sorted(before.json()) == ["organiser", "p1", "p2", "p3", "p4"]
    assert before.json()["organiser"] == mark.group(1)
    # The secrets are not in it: only marks of their hashes.
    assert not any(secret.rsplit("/", 1)[1] in before.text for secret in hosted.invites.values())

    _rotate(hosted)  # a second tab makes a newer organiser link
    after = _marks(hosted.organiser, hosted).json()
    assert after["organiser"] != mark.group(1)
    assert {k: v for k, v in after.items() if k != "organiser"} == {
        k: v for k, v in before.json().items() if k != "organiser"
    }
    hosted.new_invite("p3")
    assert _marks(hosted.organiser, hosted).json()["p3"] != after["p3"]

    own = _marks(player, hosted)
    assert own.status_code == 200 and sorted(own.json()) == ["p1"]
    device = post_form(player, f"{hosted.base}/device-link")
    assert f'data-link="p1" data-mark="{_marks(player, hosted).json()["p1"]}"' in device.text
    assert _marks(player, hosted).json()["p1"] != own.json()["p1"]
    assert _marks(new_client(app), hosted).status_code == 403  # a spectator of a public game
    private = host_game(app, visibility="private")
    assert _marks(new_client(app), private).status_code == 404  # as an unknown game
