"""What an organiser running a game for friends meets: a seat its player left, a Start pressed
before anyone joined, and the refusals a game still in its lobby gives."""

from __future__ import annotations

import re

from fastapi import FastAPI

from web.web_helpers import event_log, host_game, new_client, post_form


def _seat_row(page: str, player_id: str) -> str:
    # Found by the row's id, which keeps the seat's; its first cell says "Seat 2" to people.
    row = re.search(rf'<tr role="row" id="seat-{player_id}"><td role="cell">Seat {player_id[1:]}</td>.*?</tr>', page, re.S)
    assert row is not None, page
    return row.group(0)


def test_a_seat_its_player_left_says_so_on_the_organiser_page(app: FastAPI) -> None:
    """A player who signs their browser out leaves a seat that is taken but played by nobody: its
    teams play their autopilot and only a new link opens it again. The seats table says so in the
    Joined column, not only by which button the row offers."""
    game = host_game(app)
    game.join("p1", "Ann")
    ben = game.join("p2", "Ben")
    game.start()
    page = game.organiser.get(f"{game.base}/organise").text
    assert "nobody plays it now" not in page
    assert post_form(ben, "/signout").status_code == 303
    page = game.organiser.get(f"{game.base}/organise").text
    assert "nobody plays it now (signed out)" in _seat_row(page, "p2")
    assert "nobody plays it now" not in _seat_row(page, "p1")
    assert "not yet" in _seat_row(page, "p3")


def test_start_asks_first_while_nobody_has_a_seat(app: FastAPI) -> None:
    """With no seat taken, Start makes the bots play the whole game at once (docs/web.md): the button
    asks first (where the script runs), and stops asking once somebody has joined."""
    game = host_game(app)
    page = game.organiser.get(f"{game.base}/organise").text
    start = re.search(r'<form [^>]*id="start"[^>]*>', page)
    assert start is not None and "the whole game is over at once" in start.group(0), page
    game.join("p1", "Ann")
    page = game.organiser.get(f"{game.base}/organise").text
    start = re.search(r'<form [^>]*id="start"[^>]*>', page)
    assert start is not None and "data-confirm" not in start.group(0)


def test_a_game_in_its_lobby_is_said_so_in_refusals(app: FastAPI) -> None:
    """An order, a resolution, a pause or a rematch asked of a game not started yet is refused
    saying it is still in its lobby ("the game is lobby" read as a slip)."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Lobby", "players": 4, "deadline_hours": 24}).json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    base = f"/api/v1/games/{created['game']}"
    assert client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Olga"}, headers=auth).status_code == 200
    lobby = "the game is still in its lobby (not started)"
    answers = {
        "resolve": client.post(f"{base}/resolve", json={"turn": 1}, headers=auth),
        "pause": client.post(f"{base}/pause", headers=auth),
        "rematch": client.post(f"{base}/rematch", headers=auth),
        "order": client.put(f"{base}/orders/fiji", json={"turn": 1, "force": 3, "flair": 3}, headers=auth),
    }
    said = {what: (answer.status_code, answer.json()["detail"]) for what, answer in answers.items()}
    assert said == {
        "resolve": (409, f"turn 1 is not open: {lobby}"),
        "pause": (409, "only a running game can be paused; this one is still in its lobby (not started)"),
        "rematch": (409, f"{lobby}: a rematch is started once it is over (finished, or ended early by its organiser)"),
        "order": (409, f"{lobby}; orders are taken only while it is running"),
    }, said


def test_the_event_log_page_says_times_as_people_read_them(app: FastAPI) -> None:
    """The organiser page's event log gives an extension and the time a pause kept in days, hours
    and minutes, and the deadline a resume set as a time the page shows in the reader's zone; the
    API keeps the seconds and the ISO time as the log holds them."""
    game = host_game(app, hours="24")
    game.join("p1", "Ann")
    game.start()
    for act, data in (("extend", {"hours": "30"}), ("pause", {}), ("resume", {})):
        assert post_form(game.organiser, f"{game.base}/{act}", data).status_code == 303, act
    page = game.organiser.get(f"{game.base}/organise").text
    log = re.search(r'<ol class="events"[^>]*>(.*?)</ol>', page, re.S)
    assert log is not None
    (shown, heard), (shown_2, heard_2), (shown_3, heard_3) = event_log(page)[:3]  # newest first
    assert shown_3.endswith("· organiser · extended the deadline · +1 d 6 h"), shown_3
    assert heard_3.endswith(" UTC, organiser: extended the deadline, +1 d 6 h"), heard_3
    assert shown_2.endswith("· organiser · paused the deadline · 2 d 6 h left"), shown_2
    assert heard_2.endswith(" UTC, organiser: paused the deadline, 2 d 6 h left"), heard_2
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC · organiser · resumed the deadline · due \d{4}-\d\d-\d\d \d\d:\d\d UTC", shown), shown
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC, organiser: resumed the deadline, due \d{4}-\d\d-\d\d \d\d:\d\d UTC", heard), heard
    assert re.search(r'resumed the deadline, </span>due <time datetime="[^"]+">', log.group(1)), log.group(1)
    assert " s left" not in log.group(1) and "+108000 s" not in log.group(1)


def test_the_organiser_api_says_which_seats_somebody_plays(app: FastAPI) -> None:
    """A bot organising the game sees, per seat, whether anyone plays it now: a seat whose player
    revoked their token is taken (its invite used) but played by nobody."""
    client = new_client(app)
    created = client.post("/api/v1/games", json={"name": "Who plays", "players": 4}).json()
    organiser = {"Authorization": f"Bearer {created['token']}"}
    base = f"/api/v1/games/{created['game']}"
    tokens = {}
    for seat, name in (("p1", "Ann"), ("p2", "Ben")):
        joined = client.post("/api/v1/join", json={"invite": created["invites"][seat], "name": name})
        tokens[seat] = {"Authorization": f"Bearer {joined.json()['token']}"}
    assert client.post(f"{base}/start", headers=organiser).status_code == 200
    assert client.delete("/api/v1/me", headers=tokens["p2"]).status_code == 204
    invites = client.get(base, headers=organiser).json()["invites"]
    said = {seat: (entry["state"], entry["played"]) for seat, entry in invites.items()}
    assert said == {"p1": ("used", True), "p2": ("used", False), "p3": ("open", False), "p4": ("open", False)}, said


def test_a_16_player_games_log_reads_newest_first_with_names_and_no_order(app: FastAPI) -> None:
    """At the end of a 16-player game the log listed the oldest event first, under the bracket and
    the group tables: the organiser scrolled past its creation and start to read how it ended, as
    "server · finished · champion wales" (the team's id) and
    "resolved · turn 3 (all-ready)". It reads newest first now, each line numbered from the oldest,
    the teams by their names and the reasons in words; an order saved before its turn is resolved
    is nowhere in it (R13)."""
    game = host_game(app, arrangement="16-16-1", hours="0")
    for number in range(1, 17):
        game.join(f"p{number}", f"Manager {number}")
    game.start()
    team = game.my_teams("p1")[0]
    assert game.order("p1", team, 17, 9).status_code == 303
    open_log = event_log(game.organiser.get(f"{game.base}/organise").text)
    assert not any(re.search(r"\b(17|9)\b|FORCE|FLAIR|order", shown + heard) for shown, heard in open_log), open_log
    game.resolve(1, 2, 3, 4, 5, 6)
    page = game.organiser.get(f"{game.base}/organise").text
    view = new_client(app).get(f"/api/v1{game.base}").json()
    names = {t["id"]: t["name"] for t in view["teams"]}
    log = event_log(page)
    assert len(log) == 9 and 'id="event-log-hint">Newest first: 9 events' in page
    assert re.findall(r'<li value="(\d+)">', page.split('class="events"', 1)[1]) == [str(n) for n in range(9, 0, -1)]
    shown = [line for line, _ in log]
    assert shown[0].endswith(f" · server · the game is over · champion {names[view['champion']]}"), shown[0]
    assert [re.sub(r"^.* UTC · ", "", line) for line in shown[1:7]] == [
        f"organiser · resolved turn {turn} · at once" for turn in range(6, 0, -1)
    ], shown
    assert shown[7].endswith("· organiser · started the game") and " · created the game · " in shown[8], shown
    assert log[1][1].endswith(" UTC, organiser: resolved turn 6, at once"), log[1]


def test_the_seats_say_what_a_new_invite_link_does_before_it_is_pressed(app: FastAPI) -> None:
    """A first-time organiser who had closed the page of invites pressed *New invite link* to see a
    seat's link again: the seat's old link, already sent to its player, stopped working, which only
    the event log said afterwards. The seats' section says first that a link is shown once and
    what each button does, and each *New invite link* button is described by it."""
    game = host_game(app)
    game.join("p1", "Ann")
    page = game.organiser.get(f"{game.base}/organise").text
    hint = re.search(r'<p class="hint" id="seats-hint">(.*?)</p>', page)
    assert hint is not None, page
    said = re.sub(r"<[^>]+>", "", hint.group(1))
    assert "shown once" in said and "the seat's old link stops working at once" in said and "not to see a link again" in said
    assert page.index('id="seats-hint"') < page.index("New invite link</button>")
    buttons = re.findall(r'<button [^>]*aria-label="New invite link for seat \d+"[^>]*>', page)
    assert len(buttons) == 3 and all('aria-describedby="seats-hint"' in b for b in buttons), buttons
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    assert 'id="seats-hint"' not in game.organiser.get(f"{game.base}/organise").text  # no link to make once it is over
