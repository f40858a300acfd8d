"""The organiser page names seats and teams as the rest of the app does, for people: "Seat 3", "Fiji";
and so do the sheet of invites, the invite and join pages, and an error page that says a store's refusal."""

from __future__ import annotations

import html
import re
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select, update

from sevens.store import games as store
from sevens.store.models import OrderRow, TeamRow
from sevens.web import views
from sevens.web.scheduler import resolve_due
from web.web_helpers import FakeClock, host_game, new_client, post_form, unset

# What a person meets beside the page's words: what a screen reader says for a button, the
# question a confirm box asks, a box's hint.
_READ_ATTRIBUTES = re.compile(r'\b(?:aria-label|data-confirm|title|placeholder|alt)="([^"]*)"')


def _read(page: str) -> str:
    """Everything of a page a person reads or hears: its words, and its attributes said aloud."""
    page = unset(page)
    heard = " ".join(_READ_ATTRIBUTES.findall(page))
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + heard).split())


def _no_ids(said: str, team_ids: list[str], where: str) -> None:
    seats = re.findall(r".{0,40}\bp\d+\b.{0,40}", said)
    assert not seats, f"{where}: a seat's id where a person reads: {seats}"
    teams = [t for t in team_ids if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", said)]
    assert not teams, f"{where}: a team's id where a person reads: {teams} in {said}"


def test_the_organiser_page_names_seats_by_number_and_teams_by_name(app: FastAPI, clock: FakeClock) -> None:
    """The organiser page's Seat column said "p3", its buttons "New invite link for seat p2", its
    notes "Done: seat p2 ..." and "Seat p2 was not handed to the bots", its event log "p2: the old
    link stops working", and a turn a saved order blocked named that order's team by its id
    ("team 'fiji'"), on its Resolve and in the deadline's note. Each now says what the sheet of
    invites and the other pages say: "Seat 3", "seat 2", and the team's name."""
    game = host_game(app)
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    game.join("p3", "Cy")
    game.start()
    with app.state.sessionmaker() as db:
        teams = {row.team_id: row.name for row in db.execute(select(TeamRow.team_id, TeamRow.name))}
    team_ids = sorted(teams)
    assert all(teams[t] != t for t in team_ids)
    me = game.organiser
    organise = f"{game.base}/organise"
    seen = [("the page as it opens", me.get(organise).text)]
    first = seen[0][1]
    assert re.search(r'<td role="cell">Seat 3</td>', first), first
    assert 'aria-label="New invite link for seat 4"' in first and 'aria-label="Hand to the bots: seat 2"' in first
    assert 'aria-label="Sign out and new link for seat 3"' in first
    # A new link, a sign-out and a hand-over: the event log's lines, the notes of each.
    assert post_form(me, f"{game.base}/seats/p4/invite").status_code == 200
    assert post_form(me, f"{game.base}/seats/p3/invite", {"sign_out": "yes"}).status_code == 200
    released = post_form(me, f"{game.base}/seats/p2/release")
    assert released.status_code == 303, released.text
    done = me.get(released.headers["location"]).text
    assert "Done: seat 2 is played by the bots of its teams" in _read(done)
    seen.append(("a seat handed to the bots", done))
    again = post_form(me, f"{game.base}/seats/p2/release")  # a second tab's click
    assert again.status_code == 409, again.text
    assert "Seat 2 was not handed to the bots: " in _read(again.text)
    seen.append(("a hand-over refused", again.text))
    # Ann's saved order over her team's SCRUM (as a hand-edited backup could hold) blocks the turn.
    team = game.my_teams("p1")[0]
    assert game.order("p1", team, 10, 0).status_code == 303
    with app.state.sessionmaker() as db:
        db.execute(update(OrderRow).where(OrderRow.team_id == team).values(force=91, flair=12))
        db.commit()
    blocked = post_form(me, f"{game.base}/resolve", {"turn": "1"})
    assert blocked.status_code == 409, blocked.text
    said = _read(blocked.text)
    assert f"Turn 1 cannot be resolved: the saved order of {teams[team]} breaks R3" in said, said
    notice = re.search(r"Turn 1 cannot be resolved: [^.]*\.", said)
    assert notice is not None and not re.search(r"\b(91|12|103)\b", notice.group(0)), said  # never the order's numbers (R13)
    seen.append(("Resolve refused", blocked.text))
    # The scheduler meets it at the deadline: the page's note and the event log name the team.
    assert resolve_due(app.state.sessionmaker, now=clock() + timedelta(hours=25)) == 0
    clock.advance(hours=25)
    stuck = me.get(organise).text
    said = _read(stuck)
    assert f"could not be resolved at its deadline: the saved order of {teams[team]} breaks R3" in said, said
    assert f"turn 1: the saved order of {teams[team]} breaks R3" in said, said
    for line in ("seat 4: the old link stops working", "seat 3: 1 browser(s) or token(s) lost it",
                 "seat 2 (Ben): 1 browser(s) or token(s) lost it"):
        assert line in said, said
    seen.append(("a turn stuck at its deadline", stuck))
    # Over: the buttons that remove a name.
    assert post_form(me, f"{game.base}/end").status_code == 303
    over = me.get(organise).text
    assert 'aria-label="Remove name: seat 1"' in over and "Seat 1 is called Player 1 instead" in html.unescape(over)
    seen.append(("the game over", over))
    for where, page in seen:
        _no_ids(_read(page), team_ids, where)


def test_an_error_page_saying_a_stores_refusal_names_the_seat_by_its_number(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The organiser signs seat 1 out (Sign out and new link) after Ann's order form was checked as
    hers and before the store, under the game's lock, finds she no longer plays it: the store
    refuses the order, and the error page said its words as they are, "seat p1 was signed out",
    an id no person is shown anywhere else. It said "seat 1" then; now the refusal gets the page of
    a seat found gone (tests/web/test_web_flow.py), which names no seat by id either."""
    game = host_game(app, hours="0")
    game.join("p1", "Ann")
    game.join("p2", "Ben")
    game.start()
    team = game.my_teams("p1")[0]
    with app.state.sessionmaker() as db:
        team_ids = list(db.scalars(select(TeamRow.team_id)))
    signed_out: list[int] = []
    real = store.save_order

    def meanwhile(*args: Any, **kwargs: Any) -> Any:
        if not signed_out:  # another tab of the organiser's, as a separate request
            args[0].commit()  # what Ann's request wrote so far (its session's last use): SQLite's one writer
            url = f"{game.base}/seats/p1/invite"
            other = threading.Thread(target=lambda: signed_out.append(post_form(game.organiser, url, {"sign_out": "yes"}).status_code))
            other.start()
            other.join(timeout=15)
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "save_order", meanwhile)
    answer = game.order("p1", team, 10, 0)
    assert signed_out == [200]
    assert answer.status_code == 403, answer.text
    said = _read(answer.text)
    assert "so your order was not saved: the organiser has signed it out" in said, said
    _no_ids(said, team_ids, "the error page")


def test_the_invite_pages_say_a_seat_by_the_one_rule_for_saying_a_seat() -> None:
    """The sheet of invites, the invite and join pages and the printed strips wrote a seat's number
    as its id cut (``pid[1:]``) where the organiser page asks views.seat_said: two rules for one
    thing, which a seat id of another form would part. Every template now asks the filters
    (seat_said, seat_number), and none cuts a seat's id itself."""
    templates = Path(views.__file__).parent / "templates"
    cut = {t.name: re.findall(r".{0,30}(?:pid|player_id)\[1:\].{0,10}", t.read_text()) for t in templates.glob("*.html")}
    cut = {name: found for name, found in cut.items() if found}
    assert not cut, cut


def test_the_sheet_of_invites_and_the_invite_and_join_pages_say_seats_by_number(app: FastAPI) -> None:
    """What a person reads on those pages says "seat 2", "Seat 3", never "p2", as the organiser page."""

    def read(page: str) -> str:
        return re.sub(r"https?://\S+", " ", _read(page))  # the links hold random secrets, not words

    organiser = new_client(app)
    created = post_form(organiser, "/games", {"name": "Friday sevens", "arrangement": "4-8-2", "deadline_hours": "24",
                                              "default_bot": "even", "visibility": "public"})
    assert created.status_code == 201, created.text
    sheet = read(created.text)
    assert "Seat 1, invite link:" in sheet, sheet
    assert "Seat 4:" in sheet and "take this seat yourself (seat 4)" in sheet, sheet
    assert '<li class="strip" value="3" data-link="p3"' in created.text
    _no_ids(sheet, [], "the sheet of invites")
    game = host_game(app)
    invite = post_form(game.organiser, f"{game.base}/seats/p3/invite")
    assert invite.status_code == 200 and "New invite for seat 3" in read(invite.text), invite.text
    _no_ids(read(invite.text), [], "the new invite's page")
    ann = game.join("p1", "Ann")
    path = game.invites["p2"].split("testserver", 1)[1]
    invited = read(new_client(app).get(path).text)
    assert "You are invited to play seat 2." in invited, invited
    _no_ids(invited, [], "the join page")
    held = read(ann.get(path).text)
    assert "This browser already plays seat 1 of" in held and "Whoever plays seat 2 opens it" in held, held
    _no_ids(held, [], "the join page of a browser playing another seat")
