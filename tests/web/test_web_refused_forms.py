"""A refused form comes back as the same form: what was typed still in its boxes, a summary at
its top linking to the box the reason is about, and the reason beside that box (marked
aria-invalid and described by it), on the page that holds the form."""

from __future__ import annotations

import html
import re

import pytest
from annotated_types import MaxLen
from fastapi import FastAPI
from fastapi.routing import APIRoute
from sqlalchemy import func, select

from sevens.store.models import OrderLogRow
from sevens.web import pages
from sevens.web.security import RateLimiter
from web.refused_forms import page_notice, page_tree, refused_form
from web.web_helpers import FakeClock, Hosted, host_game, new_client, post_form

CREATE_TYPED = {
    "name": "Harbour cup",
    "arrangement": "4-8-2",
    "deadline_hours": "6",
    "default_bot": "equilibrium",
    "default_bot_weight": "1.5",
    "default_autopilot": "field-reader",
    "default_autopilot_weight": "0.5",
    "visibility": "private",
}


@pytest.mark.parametrize(
    ("change", "box", "words"),
    [
        ({"name": "   "}, "name", "the game's name is empty"),
        ({"name": "x" * 81}, "name", "keep it to 80"),
        ({"arrangement": "4-12-2"}, "arrangement", "R6"),
        ({"arrangement": "4-8-1"}, "arrangement", "R12"),
        ({"arrangement": "lots"}, "arrangement", "R12: choose an arrangement"),
        ({"deadline_hours": "soon"}, "deadline_hours", "a number of hours such as 24"),
        ({"deadline_hours": "745"}, "deadline_hours", "to 720 hours (30 days), got 745 hours"),
        ({"default_bot": "nobody"}, "default_bot", "R13: unknown default bot"),
        # Read by the bots' parser, said without the 'equilibrium@2000' nobody typed.
        ({"default_bot_weight": "2000"}, "default_bot_weight", "R13: a knockout weight is a number from 0 to 1000 with at most 6 decimals, got 2000"),
        ({"default_bot": "random", "default_bot_weight": "2"}, "default_bot_weight", "R13: random takes no knockout weight: leave the weight box blank"),
        ({"default_autopilot": "nobody"}, "default_autopilot", "R13: unknown default autopilot"),
        ({"default_autopilot_weight": "9"}, "default_autopilot_weight", "R13: field-reader leans toward a knockout weight from 0 to 4, got 9"),
        ({"visibility": "secret"}, "visibility", "visibility must be"),
    ],
)
def test_a_refused_game_comes_back_as_the_create_form(
    app: FastAPI, change: dict[str, str], box: str, words: str
) -> None:
    client = new_client(app)
    typed = {**CREATE_TYPED, **change}
    answer = post_form(client, "/games", typed)
    assert answer.status_code == 422, answer.text[-400:]
    form = refused_form(answer.text, "create-game")
    assert words in form.described(box)
    assert form.linked() == box and form.invalid() == [box]
    assert words in form.summary().text
    for name in ("name", "deadline_hours", "default_bot_weight", "default_autopilot_weight"):
        assert form.value(name) == typed[name][:200]
    for name in ("arrangement", "default_bot", "default_autopilot", "visibility"):
        if typed[name] in ("4-8-2", "equilibrium", "field-reader", "private"):
            assert form.value(name) == typed[name]
    assert 'data-canonical="/"' in answer.text  # a reload reads the home page, not a second post


ORDER_CASES = [
    # (force, flair, status, boxes the message is tied to, words)
    ("ten", "9", 422, ["force"], "R3: FORCE must be a whole number, got 'ten'"),
    ("10", "1.5", 422, ["flair"], "R3: FLAIR must be a whole number"),
    ("-4", "9", 422, ["force"], "R3: FORCE points cannot be negative, got -4"),
    ("10", "-3", 422, ["flair"], "R3: FLAIR points cannot be negative, got -3"),
    ("10", "4", 422, ["flair"], "R3: FLAIR points must be a multiple of 3 (one option per 3 points); got 4, try 3 or 6"),
    ("90", "30", 422, ["force", "flair"], "R3: the order spends 120 points but the team holds only 100 SCRUM points"),
    ("1000000", "0", 422, ["force"], "R3: FORCE is too large (7 digits)"),
]


@pytest.mark.parametrize(("force", "flair", "status", "boxes", "words"), ORDER_CASES)
def test_a_refused_order_comes_back_as_its_form(
    hosted: Hosted, force: str, flair: str, status: int, boxes: list[str], words: str
) -> None:
    """R3 refusals: at FORCE, at FLAIR, or at both when the order as a whole is too big."""
    team, other = hosted.my_teams("p1")
    typed = {"team": team, "turn": "1", "force": force, "flair": flair, "action": "ready"}
    answer = post_form(hosted.players["p1"], f"{hosted.base}/orders", typed)
    assert answer.status_code == status, answer.text[-400:]
    form = refused_form(answer.text, f"order-{team}")
    assert form.invalid() == boxes and form.linked() == boxes[0]
    for box in boxes:
        assert form.described(box).startswith(words)
    assert form.value("force") == force and form.value("flair") == flair
    assert "Not saved:" in form.summary().text and words in form.summary().text
    assert refused_form(answer.text, f"order-{other}").invalid() == []
    assert f'data-canonical="/games/{hosted.public_id}/play#team-{team}"' in answer.text


@pytest.mark.parametrize(
    ("sent", "boxes", "words"),
    [
        ({"force": "", "flair": ""}, ["force", "flair"], "FORCE and FLAIR for {name} were left empty"),
        ({}, ["force", "flair"], "FORCE and FLAIR for {name} were left empty"),  # no boxes sent at all
        ({"force": "  ", "flair": "9"}, ["force"], "FORCE for {name} was left empty: type the points to spend on FORCE, 0 for none"),
        ({"force": "10", "flair": ""}, ["flair"], "FLAIR for {name} was left empty: type the points to spend on FLAIR (a multiple of 3), 0 for none"),
    ],
)
def test_an_order_left_empty_is_refused_naming_the_team_and_the_box(
    hosted: Hosted, sent: dict[str, str], boxes: list[str], words: str
) -> None:
    """A newcomer who pressed *Save and mark ready* on a form they had not typed into sent an empty
    FORCE and FLAIR, which the server read as 0 + 0: a match spent with nothing, marked ready. An
    empty box is now refused, naming the team and the box and saying that 0 is typed for none;
    what was typed stays, and nothing is saved."""
    from web.test_web_bad_input import snapshot

    team = hosted.my_teams("p1")[0]
    page = hosted.players["p1"].get(f"{hosted.base}/play").text
    name = refused_form(page, f"order-{team}").form.attrs["data-name"]
    # Before any order, the boxes start empty: nothing is sent that was not typed.
    assert refused_form(page, f"order-{team}").value("force") == "" and refused_form(page, f"order-{team}").value("flair") == ""
    before = snapshot(hosted.app)
    answer = post_form(hosted.players["p1"], f"{hosted.base}/orders", {"team": team, "turn": "1", **sent, "action": "ready"})
    assert answer.status_code == 422, answer.text[-400:]
    assert snapshot(hosted.app) == before
    form = refused_form(answer.text, f"order-{team}")
    said = words.format(name=name)
    assert form.invalid() == boxes and form.linked() == boxes[0]
    assert said in form.summary().text and form.described(boxes[-1]).startswith(said)
    assert form.value("force") == sent.get("force", "") and form.value("flair") == sent.get("flair", "")


def test_an_order_of_nothing_is_sent_by_typing_0(hosted: Hosted) -> None:
    """Spending nothing stays an order the rules allow (R3: both may be 0): typed as 0 and 0, it is
    saved and ready, and the form then holds the 0s the player chose. The saved order's line says
    what it spends and leaves after the match, a page without its script included."""
    team = hosted.my_teams("p1")[0]
    assert hosted.order("p1", team, 0, 0, action="ready").status_code == 303
    page = hosted.players["p1"].get(f"{hosted.base}/play").text
    form = refused_form(page, f"order-{team}")
    assert form.value("force") == "0" and form.value("flair") == "0"
    assert "Your order: 0 FORCE + 0 FLAIR" in page
    # What the saved order spends and leaves is said without the script too (the odds say it as typed).
    assert "It spends nothing, leaving 100 after this match (110 if it wins)." in page
    other = hosted.my_teams("p1")[1]
    assert hosted.order("p1", other, 10, 9).status_code == 303
    page = hosted.players["p1"].get(f"{hosted.base}/play").text
    assert "It spends 19 of its 100 SCRUM points, leaving 81 after this match (91 if it wins)." in page


def test_an_order_for_a_stale_turn_comes_back_said_at_the_top_of_its_form(hosted: Hosted) -> None:
    """Not the fault of a box: the summary says it, and no box is marked."""
    team = hosted.my_teams("p1")[0]
    typed = {"team": team, "turn": "2", "force": "10", "flair": "9", "action": "save"}
    answer = post_form(hosted.players["p1"], f"{hosted.base}/orders", typed)
    assert answer.status_code == 409
    form = refused_form(answer.text, f"order-{team}")
    assert form.invalid() == [] and "turn 2 is not open for orders" in form.summary().text
    assert form.value("force") == "10" and form.value("flair") == "9"


def test_an_order_for_a_turn_resolved_meanwhile_is_said_not_put_in_the_new_turns_form(hosted: Hosted) -> None:
    """A player's second tab still showed turn 1's form when the organiser resolved it; its
    "Save and mark ready" with 17+6 came back as turn 2's form, another match, holding 17 and 6
    and saying only "turn 1 is not open for orders; the open turn is 2: reload and order again":
    one more press saved turn 1's numbers for turn 2. Now the form holds what the server has for
    turn 2, and its summary says that turn 1 was resolved first and what was not saved. The same
    order sent again once its turn was resolved with it (a second click, another tab) is said to
    be in already, with nothing to do; one for a team that plays no more says where it ended."""
    team, other = hosted.my_teams("p1")
    assert hosted.order("p1", other, 10, 9).status_code == 303
    assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"}).status_code == 303
    answer = hosted.order("p1", team, 17, 6, action="ready", turn=1)
    assert answer.status_code == 409
    form = refused_form(answer.text, f"order-{team}")
    assert form.invalid() == []
    # The server has no order for turn 2 yet: its boxes are empty, neither 17 + 6 nor an unasked 0 + 0.
    assert form.value("force") == "" and form.value("flair") == "" and form.value("turn") == "2"
    said = " ".join(form.summary().text.split())
    assert "turn 1 had already been resolved when this order came in" in said, said
    assert "so 17 FORCE + 6 FLAIR was not saved for it. This form is for turn 2: type its order" in said, said

    again = hosted.order("p1", other, 10, 9, action="ready", turn=1)
    assert again.status_code == 409
    note = page_notice(again.text)
    assert "10 FORCE + 9 FLAIR, was already saved for turn 1 (a second click, or another tab)" in note, note
    assert note.endswith("nothing more to do. Turn 2 is open now."), note
    assert "error-summary" not in again.text

    # Once the team plays no more (here the game is over) there is no form: said at the top, with
    # where the team ended rather than "reload and order again".
    for turn in range(2, 6):
        assert post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": str(turn)}).status_code == 303
    late = hosted.order("p1", team, 4, 3, action="ready", turn=5)
    assert late.status_code == 409
    note = page_notice(late.text)
    assert ", 4 FORCE + 3 FLAIR, was not saved: turn 5 had already been resolved when it came in" in note, note
    assert note.endswith("The game is finished.") and "reload" not in note, note


@pytest.mark.parametrize(
    ("strategy", "weight", "box", "words"),
    [
        ("genius", "", "strategy", "R13: unknown autopilot 'genius'"),
        ("group-blitz", "1", "weight", "R13: group-blitz takes no knockout weight: leave the weight box blank"),
        # Read by the bots' parser, said without the 'even@2000' nobody typed.
        ("even", "2000", "weight", "R13: a knockout weight is a number from 0 to 1000 with at most 6 decimals, got 2000"),
        ("field-reader", "5", "weight", "R13: field-reader leans toward a knockout weight from 0 to 4, got 5"),
        ("even", "1.5.", "weight", "R13: the knockout weight must be a number such as 0.5, 1.5 or 2, got '1.5.'"),
    ],
)
def test_a_refused_autopilot_comes_back_as_its_form(
    hosted: Hosted, strategy: str, weight: str, box: str, words: str
) -> None:
    team = hosted.my_teams("p1")[1]
    typed = {"team": team, "strategy": strategy, "weight": weight}
    answer = post_form(hosted.players["p1"], f"{hosted.base}/autopilot", typed)
    assert answer.status_code == 422, answer.text[-400:]
    form = refused_form(answer.text, f"autopilot-{team}")
    assert form.invalid() == [box] and form.linked() == box
    assert words in form.described(box) and words in form.summary().text
    assert form.value("weight") == weight
    if strategy != "genius":  # not in the menu: the menu shows its first bot
        assert form.value("strategy") == strategy
    # The box keeps its own description too (what the menu's bot is now, what a weight means).
    described = form.box(box).attrs["aria-describedby"].split()
    assert described[0] == (f"autopilot-now-{team}" if box == "strategy" else f"weight-hint-{team}")
    assert f'data-canonical="/games/{hosted.public_id}/play#team-{team}"' in answer.text


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("   ", "your display name is empty; type a name of 1 to 40 characters"),
        ("n" * 41, "your display name is 41 characters long; keep it to 40"),
        ("Ann\u200b", "your display name holds U+200B ZERO WIDTH SPACE, an invisible format character, after 'Ann'; a zero width space may stand only between two letters (as between words in Thai or Khmer); type the name without it"),
        # The name as the other has it: the seat nobody took is 'Player 3', not what was typed.
        ("PLAYER 3", "another player in this game is already called 'Player 3'; pick"),
    ],
)
def test_a_refused_name_comes_back_as_the_join_form(app: FastAPI, name: str, words: str) -> None:
    game = host_game(app)
    link = game.invites["p1"].split("testserver", 1)[1]
    answer = post_form(new_client(app), link, {"name": name})
    assert answer.status_code == 422, answer.text[-400:]
    form = refused_form(answer.text, "join")
    assert form.invalid() == ["name"] and form.linked() == "name"
    assert form.described("name").startswith(words) and words in form.summary().text
    assert form.value("name") == name
    assert f'data-canonical="{link}"' in answer.text


@pytest.mark.parametrize(
    ("strategy", "weight", "box", "words"),
    [
        ("genius", "", "strategy", "R13: unknown bot 'genius'"),
        # These two spoke of 'random@2' and of the weight 'after @', which no box of the form has.
        ("random", "2", "weight", "R13: random takes no knockout weight: leave the weight box blank"),
        ("even", "x", "weight", "R13: the knockout weight must be a number such as 0.5, 1.5 or 2, got 'x'"),
    ],
)
def test_a_refused_house_bot_comes_back_as_its_form(
    app: FastAPI, strategy: str, weight: str, box: str, words: str
) -> None:
    """The organiser's form for a team nobody plays (here: the seat p4 never claimed)."""
    game = host_game(app)
    for number in range(1, 4):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    team = re.findall(r'<tr id="house-([\w-]+)">', game.organiser.get(f"{game.base}/organise").text)[0]
    answer = post_form(game.organiser, f"{game.base}/house-bot", {"team": team, "strategy": strategy, "weight": weight})
    assert answer.status_code == 422, answer.text[-400:]
    form = refused_form(answer.text, f"house-bot-{team}")
    assert form.invalid() == [box] and form.linked() == box
    assert words in form.described(box) and words in form.summary().text
    assert form.value("weight") == weight
    if strategy != "genius":
        assert form.value("strategy") == strategy
    assert f'data-canonical="/games/{game.public_id}/organise"' in answer.text


@pytest.mark.parametrize(
    ("hours", "words"),
    [
        ("soon", "extend by a number of hours, got 'soon'"),
        ("-2", "extend by 1 minute (0.0167 hours) to 720 hours (30 days), got -2 hours"),
        ("99999", "extend by 1 minute (0.0167 hours) to 720 hours (30 days), got 99999 hours"),
        # Said 'more than 0' (0.01 is more) or, past that check, counted seconds the box does not take.
        ("0.01", "extend by 1 minute (0.0167 hours) to 720 hours (30 days), got 0.01 hours"),
        ("0.001", "extend by 1 minute (0.0167 hours) to 720 hours (30 days), got 0.001 hours"),
    ],
)
def test_a_refused_extension_comes_back_as_its_form(hosted: Hosted, hours: str, words: str) -> None:
    answer = post_form(hosted.organiser, f"{hosted.base}/extend", {"hours": hours})
    assert answer.status_code == 422, answer.text[-400:]
    form = refused_form(answer.text, "extend")
    assert form.invalid() == ["hours"] and form.linked() == "hours"
    assert form.described("hours") == words and words in form.summary().text
    assert form.value("hours") == hours
    assert f'data-canonical="/games/{hosted.public_id}/organise"' in answer.text


def _token(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def test_a_create_form_loaded_before_the_browser_signed_in_comes_back_to_send_again(app: FastAPI) -> None:
    """A new visitor loads the create form (its token: the CSRF cookie's, double submit), then joins
    a game in another tab (a session, whose own token replaces that one), then sends the form: it
    comes back as typed with the session's token, and sent again it creates the game."""
    browser = new_client(app)
    loaded = _token(browser.get("/").text)
    other = host_game(app)
    tab = other.invites["p1"].split("testserver", 1)[1]
    assert _token(browser.get(tab).text) == loaded  # the same browser, still without a session
    assert browser.post(tab, data={"name": "Ann", "csrf": loaded}).status_code == 303
    answer = browser.post("/games", data={**CREATE_TYPED, "csrf": loaded})
    assert answer.status_code == 403, answer.text[-400:]
    form = refused_form(answer.text, "create-game")
    assert "This browser signed in after this page was loaded" in form.summary().text
    assert "press Create game again" in form.summary().text and form.invalid() == []
    for name in CREATE_TYPED:
        assert form.value(name) == CREATE_TYPED[name]
    fresh = form.value("csrf")
    assert fresh != loaded and 'data-canonical="/"' in answer.text
    assert "Harbour cup" not in browser.get("/").text.split('id="create-game"')[0]  # nothing created yet
    created = browser.post("/games", data={**CREATE_TYPED, "csrf": fresh})
    assert created.status_code == 201, created.text[-400:]
    mine = browser.get("/").text.split('id="create-game"')[0]
    assert "Harbour cup" in mine and "Friday sevens" in mine  # the new game and the one joined


def test_a_planted_csrf_cookie_still_does_nothing_for_a_session(app: FastAPI) -> None:
    """The session's token stays the only one its posts are good with: a CSRF cookie and a form
    token planted to match create nothing (the form comes back, as any form loaded before the
    session would), and a stranger's token gets the error page."""
    game = host_game(app)
    browser = game.join("p1", "Ann")
    planted = "p" * 40
    browser.cookies.set("sevens_csrf", planted)
    answer = browser.post("/games", data={**CREATE_TYPED, "csrf": planted})
    assert answer.status_code == 403 and refused_form(answer.text, "create-game").value("csrf") != planted
    assert browser.post("/games", data={**CREATE_TYPED, "csrf": "q" * 40}).status_code == 403
    assert "Harbour cup" not in browser.get("/").text.split('id="create-game"')[0]
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303  # the organiser's own still work


def test_a_join_form_loaded_before_the_browser_signed_in_comes_back_with_the_name(app: FastAPI) -> None:
    first, second = host_game(app), host_game(app, name="Second sevens")
    browser = new_client(app)
    here = second.invites["p2"].split("testserver", 1)[1]
    loaded = _token(browser.get(here).text)
    tab = first.invites["p1"].split("testserver", 1)[1]
    assert browser.post(tab, data={"name": "Ann", "csrf": loaded}).status_code == 303
    answer = browser.post(here, data={"name": "Ann B", "csrf": loaded})
    assert answer.status_code == 403, answer.text[-400:]
    form = refused_form(answer.text, "join")
    assert "press Join the game again" in form.summary().text and form.value("name") == "Ann B"
    again = browser.post(here, data={"name": "Ann B", "csrf": form.value("csrf")})
    assert again.status_code == 303 and browser.get(f"{second.base}/play").status_code == 200
    # Only an open invite's form comes back: a used or wrong link is refused as any stale form is
    # (403), not as a wrong secret's 404 nor as a used invite's 410 (a wrong one is counted, though:
    # test_a_stale_form_guessing_links_is_held_back_as_any_wrong_secret).
    for link in (tab, "/join/not-a-real-invite"):
        assert browser.post(link, data={"name": "Ann C", "csrf": loaded}).status_code == 403
    assert browser.post("/organiser/not-a-real-link", data={"csrf": loaded}).status_code == 403


def test_an_organiser_link_loaded_before_the_browser_signed_in_comes_back_to_press_again(app: FastAPI) -> None:
    game, other = host_game(app), host_game(app, name="Second sevens")
    browser = new_client(app)
    link = game.organiser_link.split("testserver", 1)[1]
    loaded = _token(browser.get(link).text)
    tab = other.invites["p1"].split("testserver", 1)[1]
    assert browser.post(tab, data={"name": "Ann", "csrf": loaded}).status_code == 303
    answer = browser.post(link, data={"csrf": loaded})
    assert answer.status_code == 403
    assert "press the button again" in page_notice(answer.text)
    assert browser.post(link, data={"csrf": _token(answer.text)}).status_code == 303
    assert browser.get(f"{game.base}/organise").status_code == 200


def test_a_stale_form_guessing_links_is_held_back_as_any_wrong_secret(app: FastAPI) -> None:
    """A stale form's link is looked up to tell an open invite or a right organiser link (its form
    comes back) from a wrong one (refused): that lookup is a guess at a secret like any other, so a
    wrong link is counted against the address and held back with 429 past the limit, as the links'
    own pages are; otherwise a script holding a session and its CSRF cookie could try links without
    end. A right link still always comes back."""
    app.state.limiter = RateLimiter(attempts=2, window_seconds=60)
    game, other = host_game(app), host_game(app, name="Second sevens")
    browser = new_client(app)
    loaded = _token(browser.get("/").text)
    tab = other.invites["p1"].split("testserver", 1)[1]
    assert browser.post(tab, data={"name": "Ann", "csrf": loaded}).status_code == 303  # a session now
    guesses = [
        browser.post("/join/not-a-real-invite", data={"name": "Ann C", "csrf": loaded}).status_code,
        browser.post("/organiser/not-a-real-link", data={"csrf": loaded}).status_code,
    ]
    assert guesses == [403, 403]
    for wrong in ("/join/another-guess", "/organiser/another-guess"):
        held = browser.post(wrong, data={"name": "Ann C", "csrf": loaded})
        assert held.status_code == 429 and held.headers["retry-after"] == "60", held.text[-300:]
    here = game.invites["p2"].split("testserver", 1)[1]
    right = browser.post(here, data={"name": "Ann B", "csrf": loaded})
    assert right.status_code == 403 and "press Join the game again" in refused_form(right.text, "join").summary().text


SENT_FROM_THIS_SITE = {"Sec-Fetch-Site": "same-origin"}
"""What a browser says of a form sent from one of the site's own pages (a header no script sets)."""


def _orders_logged(app: FastAPI) -> int:
    with app.state.sessionmaker() as db:
        return db.scalar(select(func.count()).select_from(OrderLogRow)) or 0


def test_an_order_form_whose_page_expired_comes_back_with_the_typing(hosted: Hosted) -> None:
    """A player's page left open while its browser signed out and in again (a new session, so a
    new token for its forms): the order sent from it comes back at its form, as typed, saying the
    page had expired and nothing was saved; sent again with the page's new token, it is saved.
    The stale token itself saves nothing, and a form not sent from the site's own pages (another
    site's, or a browser that does not say) gets the error page as before."""
    browser = hosted.players["p1"]
    team = hosted.my_teams("p1")[0]
    loaded = _token(browser.get(f"{hosted.base}/play").text)
    link = hosted.new_invite("p1").split("testserver", 1)[1]  # for another device, made before signing out
    assert browser.post("/signout", data={"csrf": loaded}).status_code == 303
    assert post_form(browser, link, {"name": "Player 1"}).status_code == 303  # signed in again
    typed = {"team": team, "turn": "1", "force": "5", "flair": "6", "action": "ready", "csrf": loaded}
    before = _orders_logged(hosted.app)
    refused = browser.post(f"{hosted.base}/orders", data=typed)
    assert refused.status_code == 403 and "security token is missing or stale" in refused.text
    answer = browser.post(f"{hosted.base}/orders", data=typed, headers=SENT_FROM_THIS_SITE)
    assert answer.status_code == 403, answer.text[-400:]
    form = refused_form(answer.text, f"order-{team}")
    assert "This page had expired" in form.summary().text and "Nothing was done" in form.summary().text
    assert "press Save or Ready again" in form.summary().text and form.invalid() == []
    assert form.value("force") == "5" and form.value("flair") == "6"
    assert _orders_logged(hosted.app) == before
    # The page's other forms alike: the autopilot's as typed, the button for another device's link at the top.
    bot = {"team": team, "strategy": "knockout-saver", "weight": "2", "csrf": loaded}
    answer = browser.post(f"{hosted.base}/autopilot", data=bot, headers=SENT_FROM_THIS_SITE)
    assert answer.status_code == 403, answer.text[-400:]
    kept = refused_form(answer.text, f"autopilot-{team}")
    assert "This page had expired" in kept.summary().text and "press Set again" in kept.summary().text
    assert kept.value("weight") == "2"
    answer = browser.post(f"{hosted.base}/device-link", data={"csrf": loaded}, headers=SENT_FROM_THIS_SITE)
    assert answer.status_code == 403 and "This page had expired" in page_notice(answer.text)
    assert 'id="invite-link"' not in answer.text  # no link was made
    sent = browser.post(f"{hosted.base}/orders", data={**typed, "csrf": form.value("csrf")}, headers=SENT_FROM_THIS_SITE)
    assert sent.status_code == 303, refused_form(sent.text, f"order-{team}").summary().text
    assert _orders_logged(hosted.app) == before + 1


def test_an_expired_order_form_of_a_turn_resolved_since_says_the_order_typed(hosted: Hosted) -> None:
    """The same page left open while its browser signed out and in again, and while its turn was
    resolved: the form of that turn is gone, so the page came back with "This page had expired
    ... check this page and send what you meant to again" at its top and the order typed was said
    nowhere. The note now says what was not saved, for which team and turn, and that the turn moved."""
    browser = hosted.players["p1"]
    team = hosted.my_teams("p1")[0]
    page = browser.get(f"{hosted.base}/play").text
    loaded = _token(page)
    name = re.findall(r'name="team_name" value="([^"]+)"', page)[0]
    link = hosted.new_invite("p1").split("testserver", 1)[1]
    assert browser.post("/signout", data={"csrf": loaded}).status_code == 303
    assert post_form(browser, link, {"name": "Player 1"}).status_code == 303
    hosted.resolve(1)
    typed = {"team": team, "turn": "1", "force": "5", "flair": "6", "action": "ready", "csrf": loaded}
    before = _orders_logged(hosted.app)
    answer = browser.post(f"{hosted.base}/orders", data=typed, headers=SENT_FROM_THIS_SITE)
    assert answer.status_code == 403, answer.text[-400:]
    note = page_notice(answer.text)
    assert "This page had expired" in note, note
    assert f"Your order for {html.unescape(name)}, 5 FORCE + 6 FLAIR for turn 1, was not saved: turn 1 has been " \
           "resolved since. Turn 2 is open now." in note, note
    assert _orders_logged(hosted.app) == before


def test_an_organiser_form_whose_page_expired_comes_back_with_the_typing(hosted: Hosted) -> None:
    """The organiser page left open while its browser signed out and opened the organiser link
    again: a typed form (extend) comes back as typed at its form, a button (pause) says so at the
    top of the page; nothing was done until sent again with the page's new token."""
    browser = hosted.organiser
    loaded = _token(browser.get(f"{hosted.base}/organise").text)
    assert browser.post("/signout", data={"csrf": loaded}).status_code == 303
    link = hosted.organiser_link.split("testserver", 1)[1]
    assert browser.post(link, data={"csrf": _token(browser.get(link).text)}).status_code == 303
    page = browser.get(f"{hosted.base}/organise").text
    assert browser.post(f"{hosted.base}/extend", data={"hours": "3", "csrf": loaded}).status_code == 403
    answer = browser.post(f"{hosted.base}/extend", data={"hours": "3", "csrf": loaded}, headers=SENT_FROM_THIS_SITE)
    assert answer.status_code == 403, answer.text[-400:]
    form = refused_form(answer.text, "extend")
    assert "This page had expired" in form.summary().text and form.value("hours") == "3"
    paused = browser.post(f"{hosted.base}/pause", data={"csrf": loaded}, headers=SENT_FROM_THIS_SITE)
    assert paused.status_code == 403
    assert "This page had expired" in page_notice(paused.text) and "press the button again" in page_notice(paused.text)
    assert browser.get(f"{hosted.base}/organise").text == page  # nothing moved, nothing paused
    again = browser.post(f"{hosted.base}/extend", data={"hours": "3", "csrf": form.value("csrf")})
    assert again.status_code == 303, again.text[-400:]
    # A game that does not exist, or one this browser has no part in, is refused as stale alike:
    # a stale form tells nobody which games there are.
    stranger = host_game(hosted.app, name="Other sevens")
    for elsewhere in ("/games/no-such-game", stranger.base):
        for act in ("pause", "orders"):
            got = browser.post(f"{elsewhere}/{act}", data={"csrf": loaded}, headers=SENT_FROM_THIS_SITE)
            assert got.status_code == 403 and "security token is missing or stale" in got.text, (elsewhere, act)


def test_a_create_form_whose_cookies_were_cleared_comes_back_with_the_typing(app: FastAPI) -> None:
    """A visitor's create form whose CSRF cookie was cleared since it was loaded: it comes back as
    typed with a new token, and sent again it creates the game."""
    browser = new_client(app)
    loaded = _token(browser.get("/").text)
    browser.cookies.clear()
    assert browser.post("/games", data={**CREATE_TYPED, "csrf": loaded}).status_code == 403
    answer = browser.post("/games", data={**CREATE_TYPED, "csrf": loaded}, headers=SENT_FROM_THIS_SITE)
    assert answer.status_code == 403, answer.text[-400:]
    form = refused_form(answer.text, "create-game")
    assert "This page had expired" in form.summary().text and "press Create game again" in form.summary().text
    assert all(form.value(name) == value for name, value in CREATE_TYPED.items())
    created = browser.post("/games", data={**CREATE_TYPED, "csrf": form.value("csrf")})
    assert created.status_code == 201, created.text[-400:]


def test_a_join_form_whose_cookies_were_cleared_comes_back_with_the_name(app: FastAPI) -> None:
    """The same for an invite's join form: back with the name typed, the invite still open; sent
    again, the seat is taken."""
    game = host_game(app)
    browser = new_client(app)
    here = game.invites["p1"].split("testserver", 1)[1]
    loaded = _token(browser.get(here).text)
    browser.cookies.clear()
    assert browser.post(here, data={"name": "Ann", "csrf": loaded}).status_code == 403
    answer = browser.post(here, data={"name": "Ann", "csrf": loaded}, headers=SENT_FROM_THIS_SITE)
    assert answer.status_code == 403, answer.text[-400:]
    form = refused_form(answer.text, "join")
    assert "This page had expired" in form.summary().text and form.value("name") == "Ann"
    again = browser.post(here, data={"name": "Ann", "csrf": form.value("csrf")})
    assert again.status_code == 303 and browser.get(f"{game.base}/play").status_code == 200


def _route_limits(action: str) -> dict[str, int]:
    """The most characters the route a form posts to takes in each of its fields."""
    for route in pages.router.routes:
        if isinstance(route, APIRoute) and "POST" in route.methods and route.path_regex.fullmatch(action):
            return {
                param.alias: limit.max_length
                for param in route.dependant.body_params
                for limit in param.field_info.metadata
                if isinstance(limit, MaxLen)
            }
    raise AssertionError(f"no route takes a post to {action}")


def _typed_boxes(address: str, html: str) -> list[tuple[str, str, str | None]]:
    """Each text box of the page's forms, as (the form's address, the box's name, its maxlength);
    a form with no action posts to the page's own ``address``."""
    boxes = []
    for form in (e for e in page_tree(html).all() if e.tag == "form"):
        for box in form.all():
            if box.tag == "input" and box.attrs.get("type", "text") == "text":
                boxes.append((form.attrs.get("action", address), box.attrs["name"], box.attrs.get("maxlength")))
    return boxes


def test_every_box_stops_at_what_its_form_takes(app: FastAPI) -> None:
    """A box with no maxlength, or a longer one than its route takes, let a person send more than
    the server reads (the extend and deadline boxes, and the new game's deadline, took anything): the
    answer was then a bare error page in the validator's words ("deadline_hours: String should have
    at most 20 characters") rather than the form with the reason beside the box. Every text box of
    every form now stops where its route does."""
    timed = host_game(app, arrangement="4-16-2", hours="24")
    player = timed.join("p1", "Ann")
    timed.start()
    untimed = host_game(app, hours="0")
    untimed.join("p1", "Bo")
    untimed.start()
    lobby = host_game(app)  # a seat's name is typed only before the start
    stranger = new_client(app)
    addresses = {
        "/": (stranger, "/"),
        "join": (stranger, lobby.invites["p2"].split("testserver", 1)[1]),
        "play": (player, f"{timed.base}/play"),
        "organise": (timed.organiser, f"{timed.base}/organise"),
        "organise, no deadline": (untimed.organiser, f"{untimed.base}/organise"),
    }
    seen: dict[str, set[str]] = {page: set() for page in addresses}
    for page, (client, address) in addresses.items():
        for action, name, maxlength in _typed_boxes(address, client.get(address).text):
            limit = _route_limits(action).get(name)
            assert limit is not None, (page, action, name)
            assert maxlength is not None and int(maxlength) <= limit, (page, action, name, maxlength, limit)
            seen[page].add(name)
    assert seen == {
        "/": {"name", "deadline_hours", "default_bot_weight", "default_autopilot_weight"},
        "join": {"name"},
        "play": {"weight"},
        "organise": {"hours", "weight"},
        "organise, no deadline": {"hours", "weight"},
    }


@pytest.mark.parametrize("how", ["used", "expired"])
def test_an_invite_gone_while_its_form_was_open_says_so_and_keeps_the_name(
    app: FastAPI, clock: FakeClock, how: str
) -> None:
    """Two browsers open the same invite (a link sent to a group), or one leaves its form open past
    the invite's expiry: the join that comes too late is told on the invite's page what happened and
    to ask the organiser for a new link, with the name it typed there to copy. It got the general
    refusal page, "go back to correct the form", and the name was lost."""
    game = host_game(app, visibility="private")
    here = game.invites["p1"].split("testserver", 1)[1]
    late = new_client(app)
    loaded = _token(late.get(here).text)
    if how == "used":
        game.join("p1", "Ann")
    else:
        clock.advance(days=15)
    answer = late.post(here, data={"name": "Bea Late", "csrf": loaded})
    assert answer.status_code == 410, answer.text[-400:]
    said = page_notice(answer.text)
    assert "You have not joined seat 1" in said and "ask the organiser for a new invite link" in said
    assert ("already been used" if how == "used" else "has expired") in said
    kept = [e for e in page_tree(answer.text).all() if e.attrs.get("id") == "typed-name"]
    assert len(kept) == 1 and kept[0].attrs["value"] == "Bea Late" and "readonly" in kept[0].attrs
    assert 'id="join"' not in answer.text  # no form that could only be refused again
    assert f'data-canonical="{here}"' in answer.text  # a reload reads the page, sending nothing again
    assert late.get(f"{game.base}/play").status_code in (403, 404)
    # The link opened again says the same, without a name, and not "correct the form".
    opened = late.get(here)
    assert opened.status_code == 410 and "ask the organiser for a new invite link" in page_notice(opened.text)
    assert 'id="typed-name"' not in opened.text and "correct the form" not in opened.text
