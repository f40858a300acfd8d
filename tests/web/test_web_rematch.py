"""A rematch with the same settings, from the organiser page of a game that is over."""

from __future__ import annotations

import re

from fastapi import FastAPI
from sqlalchemy import select

from sevens.store.models import GameRow
from web.refused_forms import refused_form
from web.web_helpers import host_game, post_form


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
    settings = ("players", "teams", "teams_per_player", "turn_seconds", "default_bot", "visibility")
    assert [getattr(new, s) for s in settings] == [getattr(old, s) for s in settings]
    assert new.default_bot == "field-reader@1" and new.turn_seconds == 1800
    assert new.status.value == "lobby" and new.seed_sha256 != old.seed_sha256
    assert "This browser has taken seat p1 again as Solo Sam." in page.text
    links = dict(re.findall(r'data-player="(p\d+)"><code class="invite">([^<]+)<', page.text))
    assert sorted(links, key=lambda p: int(p[1:])) == [f"p{n}" for n in range(2, 17)]
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
    assert said == ["the game is running: a rematch is started once it is over (finished, or ended early from this page)"]
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    assert post_form(player, f"{game.base}/rematch").status_code == 403
    assert len(_games(app)) == 1
