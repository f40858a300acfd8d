"""What a spectator reads on a game's public page (and in its API document) about who plays each
team and where the game stands: a seat nobody took, or one handed to the bots, is said to be
played by its bot rather than by a manager called "Player 3"."""

from __future__ import annotations

import re

from fastapi import FastAPI

from web.web_helpers import FakeClock, every_seat_taken, host_game, new_client, post_form, unset


def _managers(page: str) -> dict[str, str]:
    """The public page's Teams table: each team's name and what its Manager cell says."""
    table = unset(page).split('<table class="teams">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr><td class="name"><a href="[^"]+/teams/[\w-]+">([^<]+)</a></td><td>\w</td><td class="name">([^<]+)</td>', table)
    return dict(rows)


def test_the_teams_table_says_a_bot_plays_a_seat_nobody_took(app: FastAPI) -> None:
    game = host_game(app, hours="0")
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    game.start()
    assert post_form(game.organiser, f"{game.base}/seats/p2/release").status_code == 303
    record = game.organiser.get(f"/api/v1/games/{game.public_id}/record").json()
    seat_of = {t["name"]: t["manager"] for t in record["teams"]}
    p3_team = next(t["id"] for t in record["teams"] if t["manager"] == "p3")
    chosen = post_form(game.organiser, f"{game.base}/house-bot", {"team": p3_team, "strategy": "field-reader", "weight": "1"})
    assert chosen.status_code == 303, chosen.text
    spectator = new_client(app)
    managers = _managers(spectator.get(game.base).text)
    assert len(managers) == 8, managers
    for name, said in managers.items():
        seat = seat_of[name]
        if seat == "p1":
            assert said == "Ann", (name, said)  # a player's autopilot is theirs alone
        elif seat == "p2":
            assert said == "Ben, handed to the bots (bot: even)", (name, said)
        elif name == next(t["name"] for t in record["teams"] if t["id"] == p3_team):
            assert said == "not taken (bot: field-reader@1)", (name, said)
        else:
            assert said == "not taken (bot: even)", (name, said)
    document = spectator.get(f"/api/v1/games/{game.public_id}").json()
    bots = {t["id"]: t["bot"] for t in document["teams"]}
    seats = {t["id"]: t["manager"] for t in record["teams"]}
    assert {team for team, bot in bots.items() if bot is None} == {t for t, s in seats.items() if s == "p1"}
    assert bots[p3_team] == "field-reader@1"


def test_a_house_team_is_named_so_with_its_bot(app: FastAPI) -> None:
    game = host_game(app, arrangement="5-16-3", hours="0", bot="even-flair")
    for number in range(1, 6):
        game.join(f"p{number}", f"Manager {number}")
    game.start()
    said = _managers(new_client(app).get(game.base).text)
    assert sorted(said.values()).count("house team (bot: even-flair)") == 1, said
    assert all(s.startswith("Manager ") for s in said.values() if not s.startswith("house")), said


def _ended(page: str) -> str:
    """The words after "ended" in a page's status."""
    found = re.search(r'<dd class="status">ended <span id="ended">(.*?)</span></dd>', page)
    assert found is not None, re.findall(r'<dd class="status">.*?</dd>', page)
    return re.sub(r"<[^>]+>", "", found.group(1))


def test_an_ended_game_says_when_and_after_which_turn(app: FastAPI, clock: FakeClock) -> None:
    game = every_seat_taken(app)
    game.resolve(1, 2, 3)
    clock.advance(hours=5)
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    said = "by the organiser on 2026-05-01 17:00 UTC, after turn 3 of 5, before the semi-finals"
    for client, page in ((new_client(app), ""), (game.players["p1"], "/play"), (game.organiser, "/organise")):
        assert _ended(client.get(game.base + page).text) == said, page
    document = new_client(app).get(f"/api/v1/games/{game.public_id}").json()
    assert document["status"] == "ended" and document["ended_at"] == "2026-05-01T17:00:00+00:00"
    assert len(document["turns"]) == 3 and document["stage"] == "semi-final"


def test_a_game_ended_early_in_its_groups_or_before_its_start_says_so(app: FastAPI, clock: FakeClock) -> None:
    groups = host_game(app, hours="0")
    groups.join("p1", "Ann")
    groups.start()
    assert post_form(groups.organiser, f"{groups.base}/end").status_code == 303
    said = _ended(groups.organiser.get(f"{groups.base}/organise").text)
    assert said == "by the organiser on 2026-05-01 12:00 UTC, before turn 1 of 5 was played"
    once = host_game(app, hours="0", name="Saturday sevens")
    once.join("p1", "Ann")
    assert post_form(once.organiser, f"{once.base}/start").status_code == 303
    assert post_form(once.organiser, f"{once.base}/resolve", {"turn": "1"}).status_code == 303
    assert post_form(once.organiser, f"{once.base}/end").status_code == 303
    assert _ended(once.players["p1"].get(f"{once.base}/play").text).endswith(", after turn 1 of 5, in the group stage")
    lobby = host_game(app, hours="0", name="Sunday sevens")
    lobby.join("p1", "Ann")
    assert post_form(lobby.organiser, f"{lobby.base}/end").status_code == 303
    assert _ended(lobby.players["p1"].get(f"{lobby.base}/play").text).endswith(", before it started")


def _seats_taken(page: str) -> str:
    found = re.search(r'<dd id="seats-taken">([^<]*)<', page)
    assert found is not None, re.findall(r"<dl class=\"summary\">.*?</dl>", page, re.S)
    return found.group(1).strip()


def test_a_lobby_says_how_many_seats_are_taken_and_follows_them(app: FastAPI) -> None:
    game = host_game(app, hours="0")
    game.join("p1", "Ann")
    spectator = new_client(app)
    page = spectator.get(game.base).text
    assert _seats_taken(page) == "1 of 4 seats taken"
    # How many, never by whom beyond the names already public, nor any link (the organiser's alone).
    assert "/join/" not in page and game.organiser_link not in page
    assert not any(invite.split("testserver", 1)[1] in page for invite in game.invites.values())
    version = spectator.get(f"{game.base}/state").json()["version"]
    game.join("p2", "Ben")
    assert _seats_taken(spectator.get(game.base).text) == "2 of 4 seats taken"
    assert _seats_taken(game.players["p1"].get(f"{game.base}/play").text) == "2 of 4 seats taken"
    moved = spectator.get(f"{game.base}/state").json()["version"]
    assert moved != version, "a spectator's lobby page follows the seats taken"
    # Handed to the bots in the lobby, a seat is open again.
    assert post_form(game.organiser, f"{game.base}/seats/p2/release").status_code == 303
    assert _seats_taken(spectator.get(game.base).text) == "1 of 4 seats taken"
    assert spectator.get(f"{game.base}/state").json()["version"] == version
    game.start()
    assert 'id="seats-taken"' not in spectator.get(game.base).text, "once started, the Teams table says it"


def test_lots_in_a_knockout_are_shown_by_name_with_every_throw_as_in_a_group(app: FastAPI) -> None:
    """R9, R10: eight managers order nothing all game, so every match ends 0-0 and every group and
    knockout match goes to lots. A knockout's lots line gave the draw's record words, team ids
    and all ("t4-m1 (semi-final): great-britain v argentina, ..."), and only the winner; a group's
    gave every throw by name. Both now give the throws by name, read here from the record."""
    game = host_game(app, arrangement="8-8-1", hours="0")
    for number in range(1, 9):
        game.join(f"p{number}", f"Manager {number}")
    game.start()
    while game.turn():
        for player in game.players:
            for team in game.my_teams(player):
                assert game.order(player, team, 0, 0, action="ready").status_code == 303
    record = game.organiser.get(f"/api/v1/games/{game.public_id}/record").json()
    name = {team["id"]: team["name"] for team in record["teams"]}
    page = new_client(app).get(game.base).text
    # The screen's text: the words said to screen readers instead (macros.said) left out.
    shown = re.sub(r'<span class="visually-hidden">[^<]*</span>', "", page)
    lines = [re.sub(r"<[^>]+>", "", line) for line in re.findall(r'<p class="lots">(.*?)</p>', shown)]

    def throws(draw: dict[str, list[list[list[object]]]]) -> str:
        rounds = " ".join("[" + ", ".join(f"{name[str(t)]} {f}" for t, f in r) + "]" for r in draw["throws"])
        return f"{rounds} → {', '.join(name[str(t)] for t in draw['order'])}"

    knockouts = [m for turn in record["turns"][3:] for m in turn["matches"]]
    assert len(knockouts) == 3 and all(m["decided_by"] == "lots" for m in knockouts)
    for turn in record["turns"][3:]:
        for draw in turn["lots"]:
            assert f"Lots (level after count-back and group record, R9): {throws(draw)}" in lines, lines
    for draw in record["turns"][2]["lots"]:
        assert f"Lots ({draw['what']}): {throws(draw)}" in lines, lines
    assert not any(team in line for line in lines for team in name if "-" in team), lines


def _listed(page: str, list_id: str, name: str) -> str:
    """What the front page's list ``list_id`` says of the game called ``name``, tags left out."""
    found = re.search(rf'<ul class="games" id="{list_id}">(.*?)</ul>', unset(page), re.S)
    assert found is not None, page
    line = next((li for li in found.group(1).split("<li>") if f">{name}</a>" in li), None)
    assert line is not None, found.group(1)
    return re.sub(r"<[^>]+>", "", line).split("</li>")[0].strip()


def test_the_front_page_lists_say_how_a_game_ended_as_its_page_does(app: FastAPI, clock: FakeClock) -> None:
    """The front page's lists said just "ended" for a game its organiser ended early, as if it had
    been played out: they now say briefly what the game's page says (by the organiser, when, after
    which turn), and a game played to the final names its champion."""
    ended = every_seat_taken(app, name="Ended cup")
    ended.resolve(1, 2, 3)
    clock.advance(hours=5)
    assert post_form(ended.organiser, f"{ended.base}/end").status_code == 303
    said = "ended by the organiser on 2026-05-01 17:00 UTC, after turn 3 of 5, before the semi-finals"
    assert _listed(new_client(app).get("/").text, "public-games", "Ended cup") == f"Ended cup ({said})"
    assert _listed(ended.organiser.get("/").text, "my-games", "Ended cup") == f"Ended cup (organiser, {said})"

    played = host_game(app, hours="0", name="Played cup")
    played.join("p1", "Ann")
    played.start()
    document = new_client(app).get(f"/api/v1/games/{played.public_id}").json()
    while document["status"] != "finished":  # once Ann's teams are out, the bots play the rest at once
        assert post_form(played.organiser, f"{played.base}/resolve", {"turn": str(document["turn"])}).status_code == 303
        document = new_client(app).get(f"/api/v1/games/{played.public_id}").json()
    champion = next(t["name"] for t in document["teams"] if t["id"] == document["champion"])
    assert _listed(new_client(app).get("/").text, "public-games", "Played cup") == f"Played cup (finished, champion {champion})"

    lobby = host_game(app, hours="0", name="Lobby cup")
    lobby.join("p1", "Ann")
    assert post_form(lobby.organiser, f"{lobby.base}/end").status_code == 303
    assert _listed(lobby.players["p1"].get("/").text, "my-games", "Lobby cup").endswith(
        "(player, ended by the organiser on 2026-05-01 17:00 UTC, before it started)"
    )
