"""A player's page says who the open turn is waiting for: whether each team in play has ordered
(no order yet, saved, ready), and which teams bots play (a seat not taken yet, a house team),
never what anyone ordered (R13). The API's player view has the same list (``who_ordered``); the
page's poll carries a mark of it, so that its script refreshes the list alone, from
``/games/{id}/who-ordered``, while the player's version stays put as orders come in. Spectators
are told nothing of it (docs/web.md, "Who sees what")."""

from __future__ import annotations

import html
import re

from fastapi import FastAPI

from web.test_web_api_polling import Bots
from web.web_helpers import Hosted, host_game, new_client, post_form, unset


def _listed(page: str) -> tuple[str, list[tuple[str, str, str]]]:
    """The count's sentence, and (team, state, words) per line of the list, in the page's order."""
    page = unset(page)
    count = re.search(r'<p id="who-ordered-count" aria-live="polite">([^<]*)</p>', page)
    assert count is not None, page[:300]
    part = page.split('id="who-ordered-list">', 1)[1].split("</ul>", 1)[0]
    lines = re.findall(r'<li class="state-(\w+)(?: mine)?" data-team="([\w-]+)">([^<]*)</li>', part)
    assert len(lines) == part.count("<li"), part
    return html.unescape(count.group(1)), [(team, state, html.unescape(words)) for state, team, words in lines]


def _states(page: str) -> dict[str, str]:
    return {team: state for team, state, _ in _listed(page)[1]}


def test_a_players_page_lists_who_has_ordered_waiting_teams_first(hosted: Hosted) -> None:
    play = f"{hosted.base}/play"
    p1 = hosted.players["p1"]
    count, lines = _listed(p1.get(play).text)
    assert count == "Ready: 0 of 8 teams that people play."
    assert [state for _, state, _ in lines] == ["none"] * 8
    mine, theirs = hosted.my_teams("p1"), hosted.my_teams("p2")
    words = {team: said for team, _, said in lines}
    assert all(words[team].endswith("(you): no order yet") for team in mine), words
    assert all(words[team].endswith("(Player 2): no order yet") for team in theirs), words

    assert hosted.order("p2", theirs[0], 5, 3).status_code == 303
    assert hosted.order("p2", theirs[1], 5, 3, action="ready").status_code == 303
    assert hosted.order("p1", mine[0], 4, 6, action="ready").status_code == 303
    count, lines = _listed(p1.get(play).text)
    assert count == "Ready: 2 of 8 teams that people play."
    assert [state for _, state, _ in lines] == ["none"] * 5 + ["saved", "ready", "ready"]
    states = {team: state for team, state, _ in lines}
    assert (states[theirs[0]], states[theirs[1]], states[mine[0]]) == ("saved", "ready", "ready")
    assert dict((t, w) for t, _, w in lines)[theirs[0]].endswith("(Player 2): saved, not ready")
    assert "5+3" not in p1.get(play).text and "4 FORCE + 6 FLAIR" in p1.get(play).text  # own order only


def test_the_teams_bots_play_are_listed_last(app: FastAPI) -> None:
    """A 6-seat game of 16 teams with 4 seats taken: 8 teams people play, 4 whose seats nobody has
    taken (their autopilot plays), 4 house teams (their bot plays)."""
    game = host_game(app, arrangement="6-16-2")
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    count, lines = _listed(game.players["p1"].get(f"{game.base}/play").text)
    assert count == "Ready: 0 of 8 teams that people play. 8 more teams are played by their bots."
    assert [state for _, state, _ in lines] == ["none"] * 8 + ["unclaimed"] * 4 + ["house"] * 4
    assert all(words.endswith(": house team, its bot plays") and "(" not in words for _, s, words in lines if s == "house")
    assert all(words.endswith("): seat not taken yet, its autopilot plays") for _, s, words in lines if s == "unclaimed")


def test_the_page_is_the_same_whatever_another_seat_ordered(hosted: Hosted) -> None:
    """R13: p1's page, its poll and its list are byte for byte the same whether p2 saved 5+3 or
    13+0 (or marked either ready); they differ only between saved and ready."""
    p1, theirs = hosted.players["p1"], hosted.my_teams("p2")[0]
    urls = (f"{hosted.base}/play", f"{hosted.base}/state?as=player", f"{hosted.base}/who-ordered")

    def seen_after(force: int, flair: int, action: str) -> list[bytes]:
        assert hosted.order("p2", theirs, force, flair, action=action).status_code == 303
        return [p1.get(url).content for url in urls]

    for action in ("save", "ready"):
        first = seen_after(5, 3, action)
        assert seen_after(13, 0, action) == first, action
        assert seen_after(0, 9, action) == first, action
        assert _states(first[0].decode())[theirs] == ("saved" if action == "save" else "ready")
    assert seen_after(5, 3, "save") != first  # not the same page whatever happens


def test_the_poll_carries_a_mark_of_the_list_and_the_part_refreshes_it(app: FastAPI, hosted: Hosted) -> None:
    """The player's poll says ``who_ordered``, a mark that moves when any team's state does while
    the version stays; ``/who-ordered`` gives the list alone, as the page shows it, with the same
    mark. Spectators and an organiser who plays no seat get neither."""
    p1, p2 = hosted.players["p1"], hosted.players["p2"]
    state_url, part_url = f"{hosted.base}/state?as=player", f"{hosted.base}/who-ordered"
    before = p1.get(state_url).json()
    page = p1.get(f"{hosted.base}/play").text
    shown = re.search(r'id="who-ordered" data-url="([^"]+)" data-mark="(\w+)"', page)
    assert shown is not None and shown.groups() == (f"{part_url}?turn=1", before["who_ordered"])
    part = p1.get(part_url)
    assert part.status_code == 200 and part.headers["cache-control"] == "no-store"
    assert part.headers["x-who-ordered"] == before["who_ordered"]
    assert _listed(part.text) == _listed(page)

    assert hosted.order("p2", hosted.my_teams("p2")[0], 5, 3, action="ready").status_code == 303
    after = p1.get(state_url).json()
    assert after["version"] == before["version"] and after["who_ordered"] != before["who_ordered"]
    part = p1.get(part_url)
    assert part.headers["x-who-ordered"] == after["who_ordered"] == p2.get(state_url).json()["who_ordered"]
    assert _listed(part.text) == _listed(p1.get(f"{hosted.base}/play").text)
    assert "ready" in [state for _, state, _ in _listed(part.text)[1]]

    spectator = new_client(app)
    assert "who_ordered" not in spectator.get(state_url).json()
    assert "who_ordered" not in hosted.organiser.get(state_url).json()
    # a player's other pages poll without ?as=player, and are spared working the mark out
    assert "who_ordered" not in p1.get(f"{hosted.base}/state").json()
    assert spectator.get(part_url).status_code == 403
    assert hosted.organiser.get(part_url).status_code == 403
    public = spectator.get(hosted.base).text
    assert "who-ordered" not in public and "Ready:" not in public


def test_nothing_is_listed_before_the_start_or_after_the_end(app: FastAPI) -> None:
    game = host_game(app)
    for number in range(1, 5):
        game.join(f"p{number}", f"Player {number}")
    p1 = game.players["p1"]
    assert 'id="who-ordered"' not in p1.get(f"{game.base}/play").text
    assert "who_ordered" not in p1.get(f"{game.base}/state?as=player").json()
    game.start()
    assert 'id="who-ordered"' in p1.get(f"{game.base}/play").text
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    assert 'id="who-ordered"' not in p1.get(f"{game.base}/play").text
    assert "who_ordered" not in p1.get(f"{game.base}/state?as=player").json()


def test_a_private_games_list_is_not_found_by_strangers(app: FastAPI) -> None:
    game = host_game(app, visibility="private")
    game.join("p1", "Ann")
    game.start()
    assert game.players["p1"].get(f"{game.base}/who-ordered").status_code == 200
    assert new_client(app).get(f"{game.base}/who-ordered").status_code == 404


def test_the_api_player_view_lists_who_has_ordered(app: FastAPI) -> None:
    """``who_ordered`` in a player's game view: every team in play with its state and whether it is
    the caller's, waiting teams first, as the page lists them; in the organiser-and-player view
    too, and in no view without a seat; empty before the start."""
    bots = Bots(app)
    url = f"/api/v1/games/{bots.game}"
    p1 = bots.players["p1"]
    assert bots.client.get(url, headers=p1).json()["who_ordered"] == []
    bots.act("start")
    bots.order("p2", ready=True)
    view = bots.client.get(url, headers=p1).json()
    listed = view["who_ordered"]
    mine = {t["team"] for t in view["my_teams"]}
    theirs = set(bots.teams("p2"))
    assert [t["team"] for t in listed if t["mine"]] == [t for t in (x["team"] for x in listed) if t in mine]
    assert {t["team"] for t in listed if t["mine"]} == mine
    assert {t["team"]: t["state"] for t in listed if t["team"] in theirs} == dict.fromkeys(theirs, "ready")
    assert [t["state"] for t in listed] == ["none"] * 6 + ["ready"] * 2
    assert {t["team"]: t["state"] for t in listed} == view["order_states"]
    assert "force" not in str(listed)
    for who in (bots.organiser, bots.spectator, {}):
        assert "who_ordered" not in bots.client.get(url, headers=who).json()


def test_an_organiser_who_plays_is_not_interrupted_on_their_page_when_others_order(app: FastAPI) -> None:
    """The organiser's version moves as orders come in (their page counts them), and the player's
    page of an organiser who plays a seat polled that one: each other seat's order reloaded the
    page, or told them the game had moved on while they typed. Their player's page now polls a
    player's version (``?as=player``), which moves when the turn does, and refreshes its list of
    who has ordered by the mark; their organiser page still polls the organiser's."""
    game = host_game(app)
    path = game.invites["p1"].split("testserver", 1)[1]
    assert post_form(game.organiser, path, {"name": "Org"}).status_code == 303
    game.players["p1"] = game.organiser
    for number in range(2, 5):
        game.join(f"p{number}", f"Player {number}")
    game.start()

    def live(page: str) -> tuple[str, str]:
        found = re.search(r'<main data-live="([^"]+)" data-version="([^"]+)"', page)
        assert found is not None
        return html.unescape(found.group(1)), html.unescape(found.group(2))

    play_url, play_version = live(game.organiser.get(f"{game.base}/play").text)
    organise_url, organise_version = live(game.organiser.get(f"{game.base}/organise").text)
    assert (play_url, organise_url) == (f"{game.base}/state?as=player", f"{game.base}/state")
    assert play_version == live(game.players["p2"].get(f"{game.base}/play").text)[1]
    before = game.organiser.get(play_url).json()
    assert before["version"] == play_version

    assert game.order("p2", game.my_teams("p2")[0], 5, 3, action="ready").status_code == 303
    after = game.organiser.get(play_url).json()
    assert after["version"] == play_version and after["who_ordered"] != before["who_ordered"]
    assert game.organiser.get(organise_url).json()["version"] != organise_version

    assert post_form(game.organiser, f"{game.base}/resolve", {"turn": "1"}).status_code == 303
    assert game.organiser.get(play_url).json()["version"] != play_version
    # A browser that plays no seat asks as a player in vain: it is told what it may see.
    spectator = new_client(app)
    assert spectator.get(play_url).json() == spectator.get(organise_url).json()


def test_a_list_asked_for_a_turn_no_longer_open_is_refused(hosted: Hosted) -> None:
    """The page asks for the list of the turn it shows: a fetch that crossed the turn's resolution
    (or the end) put the next turn's list, or an empty one, under the old turn's heading."""
    p1 = hosted.players["p1"]
    assert p1.get(f"{hosted.base}/who-ordered?turn=1").status_code == 200
    assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"}).status_code == 303
    refused = p1.get(f"{hosted.base}/who-ordered?turn=1")
    assert refused.status_code == 409 and "turn 1 is not open any more: reload the page" in refused.text
    assert 'data-url="/games/' in (page := p1.get(f"{hosted.base}/play").text) and "/who-ordered?turn=2" in page
    assert p1.get(f"{hosted.base}/who-ordered?turn=2").status_code == 200
    assert post_form(hosted.organiser, f"{hosted.base}/end").status_code == 303
    assert p1.get(f"{hosted.base}/who-ordered?turn=2").status_code == 409


def test_while_paused_the_note_does_not_speak_of_a_deadline(hosted: Hosted) -> None:
    p1 = hosted.players["p1"]
    assert "resolved at the deadline, or before it once every team" in p1.get(f"{hosted.base}/play").text
    assert post_form(hosted.organiser, f"{hosted.base}/pause").status_code == 303
    page = p1.get(f"{hosted.base}/play").text
    assert "The turn is resolved once every team people play is ready, or when the organiser resolves it" in page
