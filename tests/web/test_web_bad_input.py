"""Bad input in every form and endpoint: a clear message, a 4xx, nothing changed, never a 500.

The test client re-raises any server error, so a 500 anywhere fails these tests outright.
"""

from __future__ import annotations

import gzip
import re
import time
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from sqlalchemy import func, select

from sevens.store.models import Base, EventRow, GameRow, OrderLogRow, OrderRow, SeatRow, TeamRow
from sevens.web.app import create_app
from sevens.web.settings import Settings
from web.web_helpers import FakeClock, Hosted, csrf, host_game, new_client, post_form

TABLES: tuple[type[Base], ...] = (GameRow, SeatRow, TeamRow, OrderRow, OrderLogRow, EventRow)


def snapshot(app: FastAPI) -> dict[str, object]:
    """Row counts and every game's turn and status: what a refused request must leave as it was."""
    with app.state.sessionmaker() as db:
        counts: dict[str, object] = {
            m.__tablename__: db.scalar(select(func.count()).select_from(m)) for m in TABLES
        }
        counts["games"] = [
            tuple(r)
            for r in db.execute(
                select(GameRow.current_turn, GameRow.status, GameRow.deadline_at, GameRow.name)
            )
        ]
        counts["orders"] = [
            tuple(r)
            for r in db.execute(select(OrderRow.team_id, OrderRow.force, OrderRow.flair, OrderRow.ready))
        ]
        counts["autopilots"] = [tuple(r) for r in db.execute(select(TeamRow.team_id, TeamRow.autopilot))]
        counts["seats"] = [tuple(r) for r in db.execute(select(SeatRow.player_id, SeatRow.name))]
    return counts


def refused(response, status: int, words: str) -> None:  # type: ignore[no-untyped-def]
    assert response.status_code == status, (response.status_code, response.text[-400:])
    text = response.text
    assert words.lower() in text.lower(), text[-600:]


CREATE_OK = {
    "name": "Cup",
    "arrangement": "4-8-2",
    "deadline_hours": "24",
    "default_bot": "even",
    "visibility": "public",
}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 81}, "80"),
        ({"arrangement": "lots"}, "R12"),
        ({"arrangement": "3-8-2"}, "R12"),
        ({"arrangement": "4-12-2"}, "R6"),
        ({"arrangement": "4-8-1"}, "R12"),
        ({"arrangement": "99999-8-2"}, "R12"),
        ({"arrangement": "\u00b2-8-2"}, "R12: choose an arrangement"),  # a superscript 2 passes isdigit()
        ({"arrangement": "\u0664-\u0668-\u0662"}, "R12: choose an arrangement"),  # Arabic-Indic 4-8-2
        ({"deadline_hours": "soon"}, "hours"),
        ({"deadline_hours": "-3"}, "a number of hours such as 24"),
        ({"deadline_hours": "nan"}, "a number of hours such as 24"),
        ({"deadline_hours": "inf"}, "a number of hours such as 24"),
        ({"deadline_hours": "1_0"}, "a number of hours such as 24"),
        ({"deadline_hours": "0.001"}, "from 1 minute (0.0167 hours) to 720 hours (30 days), got 0.001 hours"),
        ({"deadline_hours": "745"}, "to 720 hours (30 days), got 745 hours"),
        ({"deadline_hours": "1e9"}, "a number of hours such as 24"),
        ({"default_bot": "nobody"}, "R13"),
        ({"default_bot": "sevens.bots.strategies:EvenSpread"}, "R13: unknown default bot"),
        ({"default_bot": "random", "default_bot_weight": "2"}, "random takes no knockout weight: leave the weight box blank, or choose one of even, even-flair"),
        ({"default_bot": "even", "default_bot_weight": "lots"}, "must be a number"),
        ({"default_bot": "even", "default_bot_weight": "-1"}, "0 to 1000"),
        ({"default_bot": "field-reader", "default_bot_weight": "5"}, "from 0 to 4, got 5"),
        ({"visibility": "secret"}, "visibility"),
    ],
)
def test_create_game_bad_input(app: FastAPI, change: dict[str, str], words: str) -> None:
    """Every field of the create form: a bad value is refused with a message naming it."""
    client = new_client(app)
    before = snapshot(app)
    refused(post_form(client, "/games", {**CREATE_OK, **change}), 422, words)
    assert snapshot(app) == before


ORDER_FORM_CASES = [
    ("force", "ten", 422, "whole number"),
    ("force", "1.5", 422, "whole number"),
    ("force", "1_0", 422, "whole number"),
    ("flair", "\u0663", 422, "whole number"),  # an Arabic-Indic 3: int() reads it, the form does not
    ("force", "-4", 422, "negative"),
    ("flair", "4", 422, "multiple of 3"),
    ("force", "95", 422, "R3"),
    ("force", "100000", 422, "R3"),
    ("turn", "two", 422, "whole number"),
    ("turn", "2", 409, "turn 2"),
    ("turn", "0", 409, "open turn is 1"),
    ("team", "atlantis", 404, "no team"),
    ("team", "", 404, "no team"),
    ("action", "shout", 422, "action"),
]


def test_order_form_bad_input(hosted: Hosted) -> None:
    """The order form: wrong types, out-of-range orders (R3), unknown teams and stale turns."""
    team = hosted.my_teams("p1")[0]
    before = snapshot(hosted.app)
    for field, value, status, words in ORDER_FORM_CASES:
        form = {"team": team, "turn": "1", "force": "10", "flair": "9", "action": "save"}
        form[field] = value
        refused(post_form(hosted.players["p1"], f"{hosted.base}/orders", form), status, words)
        assert snapshot(hosted.app) == before, (field, value)


def test_odds_refuse_a_number_too_long_to_read(hosted: Hosted) -> None:
    """The order form's odds take their numbers from the request's body, with no length limit: a FORCE
    or FLAIR of thousands of digits (past Python's 4,300-digit limit on int()) is a 422 that says
    what was wrong, as any other bad number, not a 500."""
    team = hosted.my_teams("p1")[0]
    client = hosted.players["p1"]
    for field, value, words in [
        ("force", "9" * 5000, "R3: FORCE is too large (5000 digits): type a whole number of at most 6 digits"),
        ("flair", "3" * 4301, "R3: FLAIR is too large (4301 digits)"),
        ("force", "1000000", "R3: FORCE is too large (7 digits)"),
        ("force", "999999", "R3"),  # six digits are read, and R3 refuses the order
    ]:
        answer = client.post(f"{hosted.base}/odds", data={"team": team, field: value})
        refused(answer, 422, words)
        assert len(answer.text) < 300  # a long number is not quoted back


def test_odds_refuse_a_page_name_too_long_and_take_one_short_enough(hosted: Hosted) -> None:
    """The order form's odds name the asking page (its waiting drafts of a team are replaced by the
    newest): a name past PAGE_NAME_LENGTH is a 422 that says what to send, not kept in the queue;
    one of that length, and none, are answered."""
    from sevens.web.pages import PAGE_NAME_LENGTH

    team = hosted.my_teams("p1")[0]
    client = hosted.players["p1"]
    draft = {"team": team, "force": "10", "flair": "9"}
    answer = client.post(f"{hosted.base}/odds", data={**draft, "page": "p" * (PAGE_NAME_LENGTH + 1)})
    refused(answer, 422, f"the field 'page' names the asking page in at most {PAGE_NAME_LENGTH} characters")
    assert f"got {PAGE_NAME_LENGTH + 1}: send a shorter one, or none" in answer.text
    for page in ("p" * PAGE_NAME_LENGTH, ""):
        answer = client.post(f"{hosted.base}/odds", data={**draft, "page": page})
        assert answer.status_code == 200, answer.text
        assert answer.json()["order"] == {"force": 10, "flair": 9}


def test_a_turn_too_long_to_read_in_a_pages_link_says_nothing(hosted: Hosted) -> None:
    """The notes after a form (``?done=...&turn=``) read the turn from the query, which has no
    length limit: a turn of thousands of digits (past int()'s 4,300) made the player's and the
    organiser's pages a 500. Now such a link, like any other that claims what did not happen,
    shows the page with no note."""
    team = hosted.my_teams("p1")[0]
    long_turn = "9" * 5000
    page = hosted.players["p1"].get(f"{hosted.base}/play", params={"done": "ready", "team": team, "turn": long_turn})
    assert page.status_code == 200
    assert 'id="message"' not in page.text
    page = hosted.organiser.get(f"{hosted.base}/organise", params={"done": "resolve", "turn": long_turn})
    assert page.status_code == 200
    assert 'id="done"' not in page.text


def test_the_note_after_start_is_not_said_once_turn_1_is_over(hosted: Hosted) -> None:
    """The organiser page after Start is /organise?done=start, and a reload (or a bookmark) keeps
    that address: in turn 2 it still said "Started: the groups are drawn and turn 1 is open."
    Now the note after Start is said only while turn 1 is open, as the others are only while
    they are true."""
    assert 'id="done"' in hosted.organiser.get(f"{hosted.base}/organise", params={"done": "start"}).text
    assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"}).status_code == 303
    page = hosted.organiser.get(f"{hosted.base}/organise", params={"done": "start"})
    assert page.status_code == 200
    assert "turn 1 is open" not in page.text and 'id="done"' not in page.text


def test_the_notes_after_resume_extend_and_resolve_are_not_said_in_a_later_turn(hosted: Hosted, clock: FakeClock) -> None:
    """After Resume or Extend the organiser page's address said only ?done=resume (or extend): a
    reload in any later turn said "Deadline running again: turn 3 is due ..." though nobody had
    touched the deadline of turn 3. Each note now stands only in the turn its button was pressed
    in, as the one after Start does; and "Turn 1 resolved: turn N is open" only while N is 2."""
    organiser = hosted.organiser
    assert post_form(organiser, f"{hosted.base}/pause").status_code == 303
    after: dict[str, str] = {}
    for act, data, said in [("resume", {}, "Deadline running again: turn 1 is due"), ("extend", {"hours": "2"}, "Deadline moved: turn 1 is due")]:
        answer = post_form(organiser, f"{hosted.base}/{act}", data)
        assert answer.status_code == 303, answer.text
        after[act] = answer.headers["location"].split("#", 1)[0]
        assert said in organiser.get(after[act]).text  # and on a reload in the same turn
        assert said in organiser.get(after[act]).text
    answer = post_form(organiser, f"{hosted.base}/resolve", {"turn": "1"})
    after["resolve"] = answer.headers["location"].split("#", 1)[0]
    assert "Turn 1 resolved: turn 2 is open." in organiser.get(after["resolve"]).text
    clock.advance(minutes=5)
    assert post_form(organiser, f"{hosted.base}/resolve", {"turn": "2"}).status_code == 303
    for act, address in after.items():
        page = organiser.get(address)
        assert page.status_code == 200
        assert 'id="done"' not in page.text, (act, address)


def test_the_note_after_an_order_is_not_said_two_turns_later(hosted: Hosted, clock: FakeClock) -> None:
    """A player's page after an order is /play?done=ready&team=...&turn=1, and a reload (or a tab
    the browser restores) keeps it: in turn 3 it said "Order for ... ready (turn 1). Turn 1 has
    been resolved: turn 3 is open", as if the turn had just moved on. The note now stands in the
    order's turn and the next one only."""
    team = hosted.my_teams("p1")[0]
    answer = hosted.order("p1", team, 5, 3, action="ready")
    address = answer.headers["location"].split("#", 1)[0]
    player = hosted.players["p1"]
    assert 'id="message"' in player.get(address).text
    assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"}).status_code == 303
    assert "Turn 1 has been resolved: turn 2 is open" in player.get(address).text
    clock.advance(minutes=5)
    assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "2"}).status_code == 303
    page = player.get(address)
    assert page.status_code == 200
    assert 'id="message"' not in page.text and "Turn 1 has been resolved" not in page.text


def test_a_link_from_someone_else_never_says_an_order_is_in_that_is_not(hosted: Hosted) -> None:
    """The address a player's page has after an order (/play?done=ready&team=...&turn=...) can be
    written by anyone who knows the player's teams, which every player does. Sent to them, it said
    "Order for Fiji ready (turn 1)." beside Fiji's empty form, and a player who took it for done let
    the autopilot play the turn. The note now says what the store holds for that team and turn."""
    player = hosted.players["p1"]
    team, other = hosted.my_teams("p1")

    def note(done: str, which: str) -> str:
        page = player.get(f"{hosted.base}/play?done={done}&team={which}&turn=1")
        assert page.status_code == 200
        found = re.search(r'id="message">([^<]*)<', page.text)
        return found.group(1) if found else ""

    assert note("saved", team) == "" and note("ready", team) == ""
    assert hosted.order("p1", team, 5, 3).status_code == 303
    assert note("saved", team).startswith("Order for ") and note("ready", team) == ""
    assert hosted.order("p1", team, 5, 3, action="ready").status_code == 303
    assert note("ready", team).endswith(" ready (turn 1).")
    assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"}).status_code == 303
    # Turn 1 is resolved: its ready order is still said; the other team's autopilot played it.
    assert "Turn 1 has been resolved: turn 2 is open" in note("ready", team)
    assert note("ready", other) == "" and note("saved", other) == ""


def test_the_note_after_the_last_order_a_game_waited_for_says_the_game_is_over(app: FastAPI, clock: FakeClock) -> None:
    """One person against the bots: their last order resolves its turn and, nobody else playing,
    every turn after it to the champion at once. The note says so, on a reload too, though the
    game is several turns past the order's."""
    game = host_game(app)
    game.join("p1", "Solo")
    game.start()
    address = ""
    while teams := game.my_teams("p1"):
        clock.advance(minutes=5)
        for team in teams:
            address = game.order("p1", team, 4, 3, action="ready").headers["location"].split("#", 1)[0]
    for _ in (1, 2):
        page = game.players["p1"].get(address).text
        assert "has been resolved: the game is over." in page, address


def test_a_refused_order_is_said_beside_its_form_with_the_typing_kept(hosted: Hosted) -> None:
    """The player's own page comes back with the reason at that team's form and what they typed in
    it, instead of an error page and the back button."""
    team, other = hosted.my_teams("p1")
    form = {"team": team, "turn": "1", "force": "17", "flair": "4", "action": "ready"}
    answer = post_form(hosted.players["p1"], f"{hosted.base}/orders", form)
    assert answer.status_code == 422
    page = answer.text
    articles = {a.split('"', 1)[0]: a for a in page.split('<article class="my-team" id="team-')[1:]}
    refused = re.search(r'<span class="field-error" id="order-([\w-]+)-error">([^<]+)</span>', page)
    assert refused and refused.group(1) == team
    assert refused.group(2).startswith("R3: FLAIR points must be a multiple of 3")
    assert 'value="17"' in articles[team] and 'value="4"' in articles[team]
    assert page.count('class="error-summary"') == 1 and "No order yet" in articles[other]
    stale = post_form(hosted.players["p1"], f"{hosted.base}/orders", {**form, "flair": "3", "turn": "2"})
    assert stale.status_code == 409 and "Not saved:" in stale.text
    assert '<li class="error">turn 2 is not open for orders' in stale.text


def test_stale_turn_after_resolution_is_refused(hosted: Hosted) -> None:
    """An order for a turn that has moved on is refused (tagged orders)."""
    team = hosted.my_teams("p1")[0]
    assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"}).status_code == 303
    before = snapshot(hosted.app)
    refused(hosted.order("p1", team, 5, 3, turn=1), 409, "turn 1 had already been resolved when this order came in")
    refused(post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"}), 409, "Turn 1 had already been resolved")
    assert snapshot(hosted.app) == before


OTHER_FORM_CASES = [
    ("autopilot", {"team": "{mine}", "strategy": "genius"}, 422, "R13"),
    ("autopilot", {"team": "{mine}", "strategy": "os:system"}, 422, "R13: unknown autopilot"),
    ("autopilot", {"team": "{mine}", "strategy": "group-blitz", "weight": "1"}, 422, "group-blitz takes no knockout weight"),
    ("autopilot", {"team": "{mine}", "strategy": "even", "weight": "1e400"}, 422, "must be a number"),
    ("autopilot", {"team": "{mine}", "strategy": "even", "weight": "2000"}, 422, "0 to 1000"),
    ("autopilot", {"team": "{mine}", "strategy": "even", "weight": "\u0661.\u0665"}, 422, "must be a number"),  # Arabic-Indic 1.5
    ("autopilot", {"team": "atlantis", "strategy": "even"}, 404, "no team"),
    ("autopilot", {"team": "{theirs}", "strategy": "even"}, 403, "own teams"),
    ("house-bot", {"team": "atlantis", "strategy": "even"}, 404, "no team"),
    ("house-bot", {"team": "{theirs}", "strategy": "genius"}, 422, "R13"),
    ("house-bot", {"team": "{theirs}", "strategy": "even", "weight": "x"}, 422, "must be a number"),
    ("house-bot", {"team": "{theirs}", "strategy": "even"}, 403, "taken their seat"),
    ("extend", {"hours": "soon"}, 422, "hours"),
    ("extend", {"hours": "1_0"}, 422, "extend by a number of hours, got &#39;1_0&#39;"),  # float() read 10
    ("extend", {"hours": "\u0663"}, 422, "extend by a number of hours"),  # an Arabic-Indic 3
    ("extend", {"hours": "1e2"}, 422, "extend by a number of hours"),
    ("extend", {"hours": "-2"}, 422, "extend by 1 minute (0.0167 hours) to 720 hours"),
    ("extend", {"hours": "99999"}, 422, "720"),
    ("resolve", {"turn": "x"}, 422, "whole number"),
    ("resolve", {"turn": "4"}, 409, "Turn 4 was not resolved: it is not the open turn. Nothing was changed. Turn 1 is open now."),
    ("resume", {}, 409, "already running again"),
    ("start", {}, 409, "already been started"),
    ("seats/p9/invite", {}, 404, "no seat"),
]


def test_other_forms_bad_input(hosted: Hosted) -> None:
    """Autopilot and organiser forms: bad values, unknown ids, wrong state."""
    mine, theirs = hosted.my_teams("p1")[0], hosted.my_teams("p2")[0]
    before = snapshot(hosted.app)
    for path, data, status, words in OTHER_FORM_CASES:
        filled = {k: v.replace("{mine}", mine).replace("{theirs}", theirs) for k, v in data.items()}
        client = hosted.players["p1"] if path == "autopilot" else hosted.organiser
        refused(post_form(client, f"{hosted.base}/{path}", filled), status, words)
        assert snapshot(hosted.app) == before, (path, data)


CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
FORGED = "p1\x00\x1b[31m\x07"


def test_control_characters_in_a_request_are_never_echoed_raw(hosted: Hosted) -> None:
    """A forged seat id with control characters in it (an escape, a bell) came back raw in the
    organiser's note, and so did such a value typed into a box the page refills: the note now
    names no seat that is not one, and no page carries a control character."""
    seat = quote(FORGED.replace("\x00", ""), safe="")
    team = hosted.my_teams("p1")[0]
    before = snapshot(hosted.app)
    answers = {
        "invite": post_form(hosted.organiser, f"{hosted.base}/seats/{seat}/invite"),
        "sign-out": post_form(hosted.organiser, f"{hosted.base}/seats/{seat}/invite", {"sign_out": "yes"}),
        "extend": post_form(hosted.organiser, f"{hosted.base}/extend", {"hours": FORGED}),
        "order": post_form(
            hosted.players["p1"], f"{hosted.base}/orders",
            {"team": team, "turn": "1", "force": FORGED, "flair": "0", "action": "save"},
        ),
        "new game": post_form(new_client(hosted.app), "/games", {**CREATE_OK, "name": FORGED}),
    }
    assert snapshot(hosted.app) == before
    for what, answer in answers.items():
        assert 400 <= answer.status_code < 500, (what, answer.status_code)
        assert not CONTROL.search(answer.text), (what, CONTROL.search(answer.text))
    assert "No new link was made: no seat &#39;p1\\x1b[31m\\x07&#39; in this game" in answers["invite"].text
    assert "No seat was signed out: no seat &#39;p1" in answers["sign-out"].text
    assert 'value="p1\ufffd\ufffd[31m\ufffd"' in answers["extend"].text  # the box as typed, shown safely


def test_a_nul_in_an_id_is_refused_on_every_database(hosted: Hosted) -> None:
    """PostgreSQL takes no NUL in text, not even in a lookup: a seat id or a team with one in it
    was a 500 there (SQLite looked it up and found nothing). Either way it is now a refusal that
    says what was wrong, shows no control character, and changes nothing."""
    before = snapshot(hosted.app)
    answers = [
        post_form(hosted.organiser, f"{hosted.base}/seats/{quote(FORGED, safe='')}/invite"),
        post_form(hosted.players["p1"], f"{hosted.base}/autopilot", {"team": FORGED, "strategy": "even"}),
        post_form(hosted.organiser, f"{hosted.base}/house-bot", {"team": FORGED, "strategy": "even"}),
        hosted.players["p1"].get(f"/games/{quote(FORGED, safe='')}/play"),
    ]
    assert snapshot(hosted.app) == before
    for answer in answers:
        assert answer.status_code in (400, 404), (answer.status_code, answer.text[-300:])
        assert not CONTROL.search(answer.text)
        if answer.status_code == 400:
            assert "holds a NUL character (\\x00)" in answer.text


def test_join_bad_input(app: FastAPI) -> None:
    """Joining: an unknown invite, an empty or over-long name."""
    game = host_game(app)
    link = game.invites["p1"].split("testserver", 1)[1]
    client = new_client(app)
    before = snapshot(app)
    refused(post_form(client, "/join/not-a-real-invite", {"name": "Ann"}), 404, "not valid")
    refused(client.get("/join/" + "x" * 500), 404, "not valid")
    refused(post_form(client, link, {"name": "   "}), 422, "empty")
    refused(post_form(client, link, {"name": "n" * 300}), 422, "40")
    # What the pages and the API call a team nobody manages: a player so named would pass for the bot.
    refused(post_form(client, link, {"name": " House "}), 422, "&#39;House&#39; is what the teams nobody manages are called")
    refused(post_form(client, link, {"name": "\uff28ouse"}), 422, "is what the teams nobody manages are called")
    # Names that show nothing: Hangul fillers and a blank Braille pattern, combining marks alone.
    for blank in ("\u3164", "\u115f\u2800", "\uffa0 \u1160"):
        refused(post_form(client, link, {"name": blank}), 422, "your display name is empty")
    refused(post_form(client, link, {"name": "\u0301\u0308"}), 422, "shows no letter, digit or sign")
    refused(post_form(client, link, {"name": "\u200d"}), 422, "shows no letter, digit or sign")
    refused(post_form(client, "/organiser/wrong", {}), 404, "not valid")
    assert snapshot(app) == before
    # A filler after a name is a space: "Ann" and "Ann" + filler, two names alike, are one name.
    game.join("p2", "Ann")
    refused(post_form(client, link, {"name": "Ann\u3164"}), 422, "already called &#39;Ann&#39;")


def test_a_name_that_reads_as_the_reader_a_team_or_a_bot_is_refused(app: FastAPI) -> None:
    """A player's page lists who has ordered as "Fiji (you)" for its own teams and "Samoa (Ann)"
    for the others': a player called "You" passed for the reader there, one called "Fiji" or
    "even" for a team or a bot beside them. Refused on the form and by the API, whatever the case,
    spacing or width of its letters; a team that is not in this game, or "Bot 3" (no seat of a
    hosted game has that name), is a name like any other."""
    game = host_game(app)  # 8 teams: Fiji to Great Britain
    link = game.invites["p1"].split("testserver", 1)[1]
    client = new_client(app)
    before = snapshot(app)
    reader = "is how each player&#39;s own page names its reader"
    for name, words in (
        ("You", reader), (" yOU ", reader), ("\uff39ou", reader), ("fiji", "is the name of a team in this game"),
        ("NEW  zealand", "&#39;NEW zealand&#39; is the name of a team in this game"),
        ("Even", "&#39;Even&#39; is the name of a bot; pick another display name"), ("group-blitz", "name of a bot"),
    ):
        refused(post_form(client, link, {"name": name}), 422, words)
    api = new_client(app).post("/api/v1/join", json={"invite": link.rsplit("/", 1)[1], "name": "you"})
    refused(api, 422, "'you' is how each player's own page names its reader ('you'); pick another display name")
    assert snapshot(app) == before
    for seat, name in (("p1", "Bot 3"), ("p2", "Canada"), ("p3", "Youssef")):
        game.join(seat, name)


@pytest.mark.parametrize(
    "path",
    [
        "/games/nope",
        "/games/nope/play",
        "/games/nope/organise",
        "/games/nope/record.json",
        "/games/nope/verify",
        "/games/" + "z" * 300,
        "/no/such/page",
    ],
)
def test_unknown_ids_are_404(app: FastAPI, path: str) -> None:
    """Unknown game ids and pages: 404 with a message."""
    refused(new_client(app).get(path), 404, "no ")


def test_unknown_game_posts_are_404(app: FastAPI) -> None:
    """Posting to an unknown game: 404, nothing written."""
    client = new_client(app)
    before = snapshot(app)
    for action in ("orders", "autopilot", "house-bot", "start", "resolve", "pause", "resume", "extend", "end"):
        refused(
            post_form(client, f"/games/nope/{action}", {"turn": "1", "hours": "1", "team": "x"}),
            404,
            "no game",
        )
    assert snapshot(app) == before


def test_wrong_method_is_405(app: FastAPI) -> None:
    """A GET to a form's address says it takes no such request."""
    refused(new_client(app).get("/games/nope/start"), 405, "does not take")


def api_headers(app: FastAPI, invite: str) -> dict[str, str]:
    response = new_client(app).post("/api/v1/join", json={"invite": invite.rsplit("/", 1)[1], "name": "Bot"})
    assert response.status_code == 200
    return {"Authorization": f"Bearer {response.json()['token']}"}


API_ORDER_CASES = [
    ({"turn": 1, "force": "ten", "flair": 0}, 422, "force"),
    ({"turn": 1, "force": 1.5, "flair": 0}, 422, "force"),
    ({"turn": 1, "force": True, "flair": 0}, 422, "force"),
    ({"turn": 1, "force": 3, "flair": 0, "ready": "yes"}, 422, "ready"),
    ({"turn": 1, "force": 3}, 422, "flair"),
    ({"turn": 1, "force": 3, "flair": 0, "colour": "red"}, 422, "colour"),
    ({"turn": 1, "force": -1, "flair": 0}, 422, "force"),
    ({"turn": 1, "force": 0, "flair": 5}, 422, "multiple of 3"),
    ({"turn": 1, "force": 80, "flair": 30}, 422, "R3"),
    ({"turn": 2, "force": 1, "flair": 0}, 409, "turn 2"),
    ({"turn": 9, "force": 1, "flair": 0}, 409, "the open turn is 1"),  # past the last turn: not open either
    ({"turn": 0, "force": 1, "flair": 0}, 422, "turn"),
]


def test_api_order_bad_input(hosted: Hosted) -> None:
    """The order endpoint: wrong types, extra fields, out-of-range orders (R3), stale turns."""
    headers = api_headers(hosted.app, hosted.new_invite("p1"))
    team = hosted.my_teams("p1")[0]
    before = snapshot(hosted.app)
    client = new_client(hosted.app)
    for body, status, words in API_ORDER_CASES:
        url = f"/api/v1/games/{hosted.public_id}/orders/{team}"
        refused(client.put(url, json=body, headers=headers), status, words)
        assert snapshot(hosted.app) == before, body


def test_api_body_json_cannot_read_says_why(hosted: Hosted) -> None:
    """A JSON body that json.loads refuses for something other than its syntax (a number of
    5000 digits, past int()'s limit; bytes that are not UTF-8 after a valid object) got FastAPI's
    400 "There was an error parsing the body", saying neither what was wrong nor what to send,
    where a body with a syntax error gets a 422 that does. Now a 422 says which it was."""
    headers = api_headers(hosted.app, hosted.new_invite("p1"))
    team = hosted.my_teams("p1")[0]
    before = snapshot(hosted.app)
    client = new_client(hosted.app)
    url = f"/api/v1/games/{hosted.public_id}/orders/{team}"
    for body, words in [
        (b'{"turn": 1, "force": ' + b"9" * 5000 + b', "flair": 0}', "a number in the request body has more than 4300 digits"),
        (b'{"turn": 1, "force": 3, "flair": 0}\xff', "the request body is not UTF-8 text"),
    ]:
        answer = client.put(url, content=body, headers={**headers, "Content-Type": "application/json"})
        refused(answer, 422, words)
        assert snapshot(hosted.app) == before, body


def test_api_other_bad_input(hosted: Hosted) -> None:
    """Unknown teams and games, bad bot names, bad odds queries, bad tokens, malformed JSON."""
    headers = api_headers(hosted.app, hosted.new_invite("p1"))
    client = new_client(hosted.app)
    gid = hosted.public_id
    before = snapshot(hosted.app)
    order = {"turn": 1, "force": 1, "flair": 0}
    refused(client.put(f"/api/v1/games/{gid}/orders/atlantis", json=order, headers=headers), 404, "no team")
    refused(client.put("/api/v1/games/nope/orders/fiji", json=order, headers=headers), 404, "no game")
    refused(
        client.put(
            f"/api/v1/games/{gid}/autopilot/{hosted.my_teams('p1')[0]}",
            json={"strategy": "genius"},
            headers=headers,
        ),
        422,
        "R13",
    )
    refused(
        client.get(f"/api/v1/games/{gid}/teams/{hosted.my_teams('p1')[0]}/odds?force=-1", headers=headers),
        422,
        "force",
    )
    refused(
        client.get(f"/api/v1/games/{gid}/teams/{hosted.my_teams('p1')[0]}/odds?flair=4", headers=headers),
        422,
        "multiple of 3",
    )
    refused(
        client.get(f"/api/v1/games/{gid}/teams/{hosted.my_teams('p1')[0]}/odds?force=200", headers=headers),
        422,
        "R3",
    )
    as_json = {**headers, "Content-Type": "application/json"}  # with no type it is 415 (test_web_api_statuses)
    refused(client.put(f"/api/v1/games/{gid}/orders/fiji", content=b"{not json", headers=as_json), 422, "json")
    refused(client.get("/api/v1/me", headers={"Authorization": "Bearer wrong"}), 401, "unknown")
    refused(client.get("/api/v1/me", headers={"Authorization": "Basic abc"}), 401, "Bearer")
    refused(client.post("/api/v1/join", json={"invite": "nope", "name": "Bot"}), 404, "not valid")
    refused(client.post("/api/v1/join", json={"invite": "nope"}), 422, "name")
    refused(
        client.post("/api/v1/join", json={"invite": hosted.invites["p3"].rsplit("/", 1)[1], "name": ""}),
        422,
        "name",
    )
    assert snapshot(hosted.app) == before


def _app_allowing_three_wrong_secrets_a_minute(tmp_path: Path) -> FastAPI:
    return create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'rl.sqlite3'}",
            scheduler=False,
            rate_limit_attempts=3,
            rate_limit_window_seconds=60,
        )
    )


def test_rate_limit_on_wrong_secrets(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Attempts with a wrong secret are limited per client: past the limit a wrong one gets 429, and
    a right one still goes through (a block must not lock out everyone behind one address)."""
    app = _app_allowing_three_wrong_secrets_a_minute(tmp_path)
    game = host_game(app)
    client = new_client(app)
    for _ in range(3):
        assert client.get("/join/wrong-invite").status_code == 404
    response = client.get("/join/wrong-again")
    refused(response, 429, "too many attempts")
    # The wait left of the minute, counted from the first wrong attempt.
    assert 1 <= int(response.headers["retry-after"]) <= 60
    refused(client.get("/organiser/wrong-link"), 429, "too many")
    refused(client.get("/api/v1/me", headers={"Authorization": "Bearer wrong"}), 429, "too many")
    refused(client.post("/api/v1/join", json={"invite": "anything", "name": "Bo"}), 429, "too many")
    refused(client.post("/api/v1/organise", json={"link": "anything"}), 429, "too many")
    refused(client.post("/api/v1/games", json=API_CREATE_OK, headers={"Authorization": "Bearer x"}), 429, "too")
    # Right secrets from the same address still work: the invite, the organiser link, a bot's join.
    assert client.get(game.invites["p1"].split("testserver", 1)[1]).status_code == 200
    assert client.get(game.organiser_link.split("testserver", 1)[1]).status_code == 200
    joined = client.post("/api/v1/join", json={"invite": game.invites["p2"].rsplit("/", 1)[1], "name": "Bo"})
    assert joined.status_code == 200, joined.text
    token = joined.json()["token"]
    assert client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert client.post("/api/v1/games", json=API_CREATE_OK).status_code == 201
    app.state.engine.dispose()


def test_a_wrong_secret_past_the_limit_says_the_wait_left_as_retry_after_gives_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The 429 of wrong secrets says on the page, in the words of the hourly limits' refusals,
    the wait left: the same figure as its Retry-After, counted from the attempt that must leave the
    window, not the whole window again (which said 'wait 60 seconds' however little was left)."""
    app = _app_allowing_three_wrong_secrets_a_minute(tmp_path)
    client = new_client(app)
    for _ in range(3):
        assert client.get("/join/wrong-invite").status_code == 404
    time.sleep(2.1)
    for page in ("/join/wrong-again", "/organiser/wrong-link"):
        response = client.get(page)
        assert response.status_code == 429
        wait = int(response.headers["retry-after"])
        assert 50 <= wait <= 58, wait
        message = re.search(r'<p class="error" role="alert">([^<]*)</p>', response.text)
        assert message is not None, response.text
        assert message[1] == f"too many attempts with a wrong link or token; try again in {wait} seconds"
    app.state.engine.dispose()


API_CREATE_OK = {"name": "Cup", "players": 4, "teams": 8, "teams_per_player": 2}
API_CREATE_CASES = [
    ({"players": 3}, "players"),
    ({"players": "four"}, "players"),
    ({"teams": 12}, "R6"),
    ({"teams_per_player": 1}, "R12"),
    ({"teams_per_player": None, "teams": 12}, "R6"),
    ({"deadline_hours": -1}, "deadline_hours"),
    ({"deadline_hours": "24"}, "deadline_hours"),
    ({"deadline_hours": 0.001}, "deadline"),
    ({"default_bot": "genius"}, "R13"),
    ({"default_bot": "equilibrium@x"}, "must be a number"),
    ({"visibility": "secret"}, "visibility"),
    ({"name": ""}, "name"),
    ({"colour": "red"}, "colour"),
]


def test_api_organiser_bad_input(app: FastAPI) -> None:
    """Creating and running a game by API: bad settings, stale turns, wrong state, unknown links."""
    client = new_client(app)
    before = snapshot(app)
    for change, words in API_CREATE_CASES:
        refused(client.post("/api/v1/games", json={**API_CREATE_OK, **change}), 422, words)
        assert snapshot(app) == before, change
    created = client.post("/api/v1/games", json=API_CREATE_OK).json()
    boss = {"Authorization": f"Bearer {created['token']}"}
    gid = created["game"]
    assert client.post(f"/api/v1/games/{gid}/start", headers=boss).status_code == 200
    before = snapshot(app)
    refused(client.post(f"/api/v1/games/{gid}/start", headers=boss), 409, "already started")
    refused(client.post(f"/api/v1/games/{gid}/resolve", json={"turn": 2}, headers=boss), 409, "not open")
    refused(client.post(f"/api/v1/games/{gid}/resolve", json={"turn": "1"}, headers=boss), 422, "turn")
    refused(client.post(f"/api/v1/games/{gid}/pause", headers=boss), 409, "no deadline")
    refused(client.post(f"/api/v1/games/{gid}/extend", json={"hours": 0}, headers=boss), 422, "hours")
    refused(client.post("/api/v1/organise", json={"link": "wrong"}), 404, "not valid")
    refused(client.post("/api/v1/games/nope/end", headers=boss), 404, "no game")
    assert snapshot(app) == before


def test_a_form_field_sent_twice_is_refused_not_the_last_kept(hosted: Hosted) -> None:
    """``force=1&force=30`` in the order form saved 30 without a word (the last one won), and so on
    for every form: a field given twice is now refused before anything is done, as the API
    refuses a body field given twice. No page's form sends one twice, so a page never meets it."""
    from urllib.parse import urlencode

    team = hosted.my_teams("p1")[0]
    player, organiser = hosted.players["p1"], hosted.organiser
    create_once = urlencode(list(CREATE_OK.items()))
    cases = [
        (player, f"{hosted.base}/orders", f"team={team}&turn=1&force=1&flair=0&action=save&force=30", "'force'"),
        (player, f"{hosted.base}/autopilot", f"team={team}&strategy=even&strategy=random", "'strategy'"),
        (organiser, f"{hosted.base}/extend", "hours=1&hours=700", "'hours'"),
        (organiser, f"{hosted.base}/resolve", "turn=1&turn=1", "'turn'"),  # even the same value twice
        (new_client(hosted.app), "/games", f"{create_once}&name=Other&visibility=private", "'name', 'visibility'"),
    ]
    before = snapshot(hosted.app)
    for client, url, fields, named in cases:
        body = f"csrf={csrf(client)}&{fields}"
        answer = client.post(url, content=body.encode(), headers={"Content-Type": "application/x-www-form-urlencoded"})
        plural = "s" if "," in named else ""
        refused(answer, 422, f"the form sent the field{plural} {named} more than once".replace("'", "&#39;"))
        assert snapshot(hosted.app) == before, url
    assert hosted.order("p1", team, 1, 0).status_code == 303  # the form as the page sends it


LONG = "Z" * 5000


def _quoted_short(answer, status: int, words: str) -> None:  # type: ignore[no-untyped-def]
    """Refused with ``words``, the long value quoted by its first 40 characters and its length."""
    text = answer.text if "json" not in answer.headers.get("content-type", "") else answer.json()["detail"]
    assert answer.status_code == status, (answer.status_code, text[-300:])
    assert words in text, text[-300:]
    assert "Z" * 41 not in text and "... (5,000 characters)" in text, text[-300:]


def test_a_long_value_in_an_address_or_query_is_quoted_back_short(hosted: Hosted) -> None:
    """A 5,000-character team id came back whole in the API's 403 (and a game id, seat or query
    value cut to 16 or 20 characters with no sign it was cut): every refusal now quotes such a value
    by its first 40 characters and says how long it was."""
    headers = api_headers(hosted.app, hosted.new_invite("p1"))
    api = new_client(hosted.app)
    at = f"/api/v1/games/{hosted.public_id}"
    team = hosted.my_teams("p1")[0]
    before = snapshot(hosted.app)
    _quoted_short(api.get(f"{at}/teams/{LONG}/view", headers=headers), 404, "this game has no team 'ZZZ")
    _quoted_short(api.get(f"{at}/teams/{LONG}/odds", headers=headers), 404, "no team 'ZZZ")
    _quoted_short(api.put(f"{at}/orders/{LONG}", json={"turn": 1, "force": 1, "flair": 0}, headers=headers), 404, "no team")
    _quoted_short(api.get(f"{at}/teams/{team}/odds?force={LONG}", headers=headers), 422, "whole number")
    _quoted_short(api.get(f"{at}?{LONG}=1", headers=headers), 422, "unknown query parameter")
    _quoted_short(api.get(f"/api/v1/games/{LONG}", headers=headers), 404, "no game 'ZZZ")
    _quoted_short(hosted.players["p1"].get(f"/games/{LONG}/play"), 404, "no game &#39;ZZZ")
    _quoted_short(post_form(hosted.organiser, f"{hosted.base}/seats/{LONG}/invite"), 404, "no seat &#39;ZZZ")
    _quoted_short(hosted.players["p1"].post(f"{hosted.base}/odds", data={"team": LONG}), 404, "no team 'ZZZ")
    assert snapshot(hosted.app) == before


def _page_posts() -> list[str]:
    from sevens.web import pages

    return sorted(
        route.path for route in pages.router.routes if isinstance(route, APIRoute) and "POST" in (route.methods or ())
    )


@pytest.mark.parametrize("kind", ["json", "text", "no type"])
def test_a_page_post_that_is_not_a_form_is_refused_saying_so(hosted: Hosted, kind: str) -> None:
    """JSON posted to the order form's odds was answered "no team '' in this game" (FastAPI reads
    a body that is no form as an empty form): every page's POST address now refuses such a body
    with 415, saying it takes a form and where the JSON API is, and does nothing."""
    bodies = {
        "json": {"json": {"team": hosted.my_teams("p1")[0], "force": 3, "csrf": csrf(hosted.players["p1"])}},
        "text": {"content": b"team=t1", "headers": {"Content-Type": "text/plain"}},
        "no type": {"content": b"team=t1"},
    }
    before = snapshot(hosted.app)
    paths = _page_posts()
    assert "/games/{public_id}/odds" in paths and len(paths) > 15
    for path in paths:
        url = path.replace("{public_id}", hosted.public_id).replace("{player_id}", "p2").replace("{token}", "x" * 20)
        answer = hosted.players["p1"].post(url, **bodies[kind])  # type: ignore[arg-type]
        text = answer.json()["detail"] if url.endswith("/odds") else answer.text
        assert answer.status_code == 415, (url, answer.status_code, text[-300:])
        assert "this address takes a form (application/x-www-form-urlencoded" in text, (url, text[-300:])
        assert "the JSON API under /api/v1/" in text
    assert snapshot(hosted.app) == before


def test_a_page_post_with_a_content_encoding_is_refused_saying_so(hosted: Hosted) -> None:
    """A gzipped form was read as if it were plain (the server decodes no request body), so the
    order form's post was refused for fields it seemed to lack: it now gets 415 saying the body
    must come without a content encoding, and nothing is saved."""
    team = hosted.my_teams("p1")[0]
    player = hosted.players["p1"]
    form = urlencode({"team": team, "turn": "1", "force": "3", "flair": "0", "action": "save", "csrf": csrf(player)})
    before = snapshot(hosted.app)
    for url in (f"{hosted.base}/orders", f"{hosted.base}/odds"):
        answer = player.post(
            url, content=gzip.compress(form.encode()),
            headers={"Content-Type": "application/x-www-form-urlencoded", "Content-Encoding": "gzip"},
        )
        assert answer.status_code == 415, (url, answer.status_code, answer.text[-300:])
        assert "must be sent without a content encoding (this one came with Content-Encoding: 'gzip')" in answer.text
    assert snapshot(hosted.app) == before



def test_a_bot_name_and_weight_too_long_are_quoted_back_saying_they_were_cut(app: FastAPI) -> None:
    """An unknown bot's name in the create form's box (at most 40 characters) with a weight (at most
    20) reaches the store as 61 characters, which it quoted by its first 60 with nothing to say that
    the rest was left out; now by its first 40 and its length, as every refusal quotes a value."""
    client = new_client(app)
    before = snapshot(app)
    form = {**CREATE_OK, "default_bot": "q" * 40, "default_bot_weight": "1" * 20}
    refused(post_form(client, "/games", form), 422, f"R13: unknown default bot &#39;{'q' * 40}&#39;... (61 characters)")
    assert snapshot(app) == before


def test_a_long_draft_number_for_the_odds_is_quoted_back_saying_it_was_cut(hosted: Hosted) -> None:
    """The order form's odds take FORCE and FLAIR from a body with no length limit: a word there
    was quoted by its first 20 characters, read as all of it."""
    team = hosted.my_teams("p1")[0]
    answer = hosted.players["p1"].post(f"{hosted.base}/odds", data={"team": team, "force": "q" * 100})
    refused(answer, 422, f"R3: FORCE must be a whole number, got '{'q' * 40}'... (100 characters)")


@pytest.mark.parametrize("data", [{}, {"team": ""}, {"team": "  ", "force": "5"}])
def test_the_odds_of_a_draft_with_no_team_say_which_field_to_send(hosted: Hosted, data: dict[str, str]) -> None:
    """An empty POST to a game's odds (or a blank team) answered "no team '' in this game", which
    named no field and no fix: it now names the field and what it takes."""
    answer = hosted.players["p1"].post(f"{hosted.base}/odds", data=data)
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"] == (
        "the field 'team' is missing or blank: send the id of one of your teams in it (as the order form's script "
        "does), with the draft's 'force' and 'flair'"
    )
