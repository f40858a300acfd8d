"""A button refused because the game moved on (a second click, another tab, the deadline) brings
the organiser or player back to the page they pressed it on, with a note at its top saying what
happened and what to do now, and the HTTP status of the refusal; nothing of the refused act is
kept, and nothing else is lost."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from sevens.store.models import TeamRow
from sevens.web.scheduler import resolve_due
from web.refused_forms import page_notice
from web.web_helpers import FakeClock, Hosted, host_game, log_shown, post_form, unset


def _events(hosted: Hosted) -> list[str]:
    page = hosted.organiser.get(f"{hosted.base}/organise").text
    return re.findall(r"· organiser · ([\w' ]+)", log_shown(page))


def _organise_back(answer, hosted: Hosted, status: int) -> str:  # type: ignore[no-untyped-def]
    """The organiser page, refused with ``status``: its note's text."""
    assert answer.status_code == status, answer.text[-600:]
    assert "<h1>Organise Friday sevens</h1>" in unset(answer.text)
    assert f'data-canonical="/games/{hosted.public_id}/organise"' in answer.text  # a reload reads the page
    return page_notice(answer.text)


def test_start_pressed_twice(hosted: Hosted) -> None:
    """The hosted game is started already: a second "Start" (two tabs, a double click)."""
    before = _events(hosted)
    note = _organise_back(post_form(hosted.organiser, f"{hosted.base}/start"), hosted, 409)
    assert note == "The game had already been started (a second click, or another tab): nothing more to do. Turn 1 is open now."
    assert _events(hosted) == before and hosted.turn() == 1


def test_start_after_the_game_was_ended_in_its_lobby(app: FastAPI) -> None:
    """Not "already started": it never was."""
    game = host_game(app)
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    note = _organise_back(post_form(game.organiser, f"{game.base}/start"), game, 409)
    assert note == "The game was not started: the game was ended early, so there is nothing left to do."


def test_resolve_after_the_deadline_resolved_the_turn(app: FastAPI, clock: FakeClock, hosted: Hosted) -> None:
    team = hosted.my_teams("p1")[0]
    hosted.order("p1", team, 20, 0, action="ready")
    clock.advance(hours=24)
    assert resolve_due(app.state.sessionmaker, now=clock()) == 1
    answer = post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": "1"})
    note = _organise_back(answer, hosted, 409)
    assert note.startswith("Turn 1 had already been resolved (at its deadline, once every order was ready, or from another tab)")
    assert note.endswith("nothing more to do. Turn 2 is open now.")
    assert hosted.turn() == 2  # turn 2 was not resolved in its place
    # The player's order for turn 1 counted, and nothing of turn 2 was played.
    assert "20+0" in hosted.organiser.get(hosted.base).text
    assert 'name="turn" value="2"' in answer.text  # the page as it stands: its Resolve button is turn 2's


@pytest.mark.parametrize(
    ("first", "again", "status", "words"),
    [
        ("pause", "pause", 409, "The deadline was already paused (a second click, or another tab): nothing more to do. Resume restarts it"),
        ("end", "end", 409, "The game had already been ended (a second click, or another tab): nothing more to do."),
        ("end", "pause", 409, "The deadline was not paused: the game was ended early, so there is nothing left to do."),
        ("end", "resume", 409, "The deadline was not resumed: the game was ended early, so there is nothing left to do."),
        ("end", "resolve", 409, "Turn 1 was not resolved: the game was ended early, so there is nothing left to do."),
    ],
)
def test_a_button_pressed_after_the_same_or_a_later_act(
    hosted: Hosted, first: str, again: str, status: int, words: str
) -> None:
    assert post_form(hosted.organiser, f"{hosted.base}/{first}", {"turn": "1"}).status_code == 303
    before = _events(hosted)
    note = _organise_back(post_form(hosted.organiser, f"{hosted.base}/{again}", {"turn": "1"}), hosted, status)
    assert note.startswith(words), note
    assert _events(hosted) == before


def test_resume_pressed_twice(hosted: Hosted) -> None:
    assert post_form(hosted.organiser, f"{hosted.base}/pause").status_code == 303
    assert post_form(hosted.organiser, f"{hosted.base}/resume").status_code == 303
    note = _organise_back(post_form(hosted.organiser, f"{hosted.base}/resume"), hosted, 409)
    assert note == "The deadline was already running again (a second click, or another tab): nothing more to do."


def test_end_after_the_last_turn_was_resolved(hosted: Hosted) -> None:
    for turn in range(1, 10):
        if post_form(hosted.organiser, f"{hosted.base}/resolve", {"turn": str(turn)}).status_code != 303:
            break
    assert "champion" in hosted.organiser.get(hosted.base).text
    note = _organise_back(post_form(hosted.organiser, f"{hosted.base}/end"), hosted, 409)
    assert note == "The game had already finished (its last turn was resolved): there is nothing to end."


def test_extend_after_the_game_was_ended(hosted: Hosted) -> None:
    """The extend box has gone from the page, so the note says it at the top (before, the page
    came back with the reason nowhere on it, or as the error page)."""
    assert post_form(hosted.organiser, f"{hosted.base}/end").status_code == 303
    for hours in ("2", "soon"):
        answer = post_form(hosted.organiser, f"{hosted.base}/extend", {"hours": hours})
        note = _organise_back(answer, hosted, 409 if hours == "2" else 422)
        assert note == "The deadline was not moved: the game was ended early, so there is nothing left to do."


def test_new_invite_for_a_seat_taken_since_the_page_was_loaded(app: FastAPI) -> None:
    game = host_game(app)
    loaded = game.organiser.get(f"{game.base}/organise").text
    assert 'aria-label="New invite link for seat 2"' in loaded  # nobody plays it yet
    player = game.join("p2", "Ann")
    answer = post_form(game.organiser, f"{game.base}/seats/p2/invite")
    note = _organise_back(answer, game, 409)
    assert note.startswith("No new link was made for seat 2: its player has taken the seat since this page was loaded")
    assert note.endswith("use 'Sign out and new link' in its row.")
    assert 'aria-label="Sign out and new link for seat 2"' in answer.text  # that button is there now
    assert player.get(f"{game.base}/play").status_code == 200  # Ann still plays it
    assert "/join/" not in answer.text  # no link was shown


def test_sign_out_of_a_seat_after_the_game_ended(app: FastAPI) -> None:
    game = host_game(app)
    game.join("p2", "Ann")
    assert post_form(game.organiser, f"{game.base}/end").status_code == 303
    answer = post_form(game.organiser, f"{game.base}/seats/p2/invite", {"sign_out": "yes"})
    note = _organise_back(answer, game, 409)
    assert note == "Seat 2 was not signed out and no new link was made: the game was ended early, so there is nothing left to do."
    assert game.players["p2"].get(f"{game.base}/play").status_code == 200


def test_house_bot_of_a_team_whose_manager_took_the_seat_since(app: FastAPI) -> None:
    game = host_game(app)
    for number in range(1, 4):
        game.join(f"p{number}", f"Player {number}")
    game.start()
    team = re.findall(r'<tr id="house-([\w-]+)">', game.organiser.get(f"{game.base}/organise").text)[0]
    game.join("p4", "Late Lou")  # the seat of the team's manager, taken after the page was loaded
    answer = post_form(game.organiser, f"{game.base}/house-bot", {"team": team, "strategy": "random", "weight": ""})
    note = _organise_back(answer, game, 403)
    assert note.startswith("The bot was not changed: ") and "manager has taken their seat: only they choose its autopilot" in note
    assert "chose a bot for a team nobody plays" not in _events(game)


def test_an_order_for_a_turn_resolved_since_and_a_game_over(hosted: Hosted) -> None:
    """Its form went with the turn: the player's page comes back with a note at the top."""
    team = hosted.my_teams("p1")[0]
    name = re.search(rf'id="team-{team}">\s*<h2>([^<]+?) <small>', hosted.players["p1"].get(f"{hosted.base}/play").text)
    assert name is not None
    assert post_form(hosted.organiser, f"{hosted.base}/end").status_code == 303
    answer = hosted.order("p1", team, 20, 0, turn=1)
    assert answer.status_code == 409, answer.text[-400:]
    note = page_notice(answer.text)
    assert note == f"Your order for {name.group(1)} was not saved: the game is ended; orders are taken only while it is running. The game was ended early."
    assert f'data-canonical="/games/{hosted.public_id}/play"' in answer.text


def test_a_link_for_another_device_after_the_game_ended(hosted: Hosted) -> None:
    assert post_form(hosted.organiser, f"{hosted.base}/end").status_code == 303
    answer = post_form(hosted.players["p1"], f"{hosted.base}/device-link")
    assert answer.status_code == 409
    note = page_notice(answer.text)
    assert note == "No link for another device was made: the game is ended: no seat needs a new link. The game was ended early."


def test_an_autopilot_set_after_the_game_ended(hosted: Hosted) -> None:
    """A player's page loaded before the organiser ended the game: its autopilot's Set answered
    "Autopilot for ... set." and changed the team's bot in a game no bot plays any more. Now the
    page comes back saying nothing was changed, and why."""
    team = hosted.my_teams("p1")[0]
    name = re.search(rf'id="team-{team}">\s*<h2>([^<]+?) <small>', hosted.players["p1"].get(f"{hosted.base}/play").text)
    assert name is not None
    assert post_form(hosted.organiser, f"{hosted.base}/end").status_code == 303
    answer = post_form(hosted.players["p1"], f"{hosted.base}/autopilot", {"team": team, "strategy": "even-force"})
    assert answer.status_code == 409, answer.text[-400:]
    note = page_notice(answer.text)
    assert note == f"The autopilot for {name.group(1)} was not changed: the game is ended: no autopilot plays for it any more."
    assert f'data-canonical="/games/{hosted.public_id}/play"' in answer.text
    with hosted.app.state.sessionmaker() as db:
        assert db.scalar(select(TeamRow.autopilot).where(TeamRow.team_id == team)) is None


def test_a_button_of_someone_who_does_not_organise_keeps_the_error_page(hosted: Hosted, app: FastAPI) -> None:
    """Not a race but a request nobody's page offered: the error page, saying what to do."""
    answer = post_form(hosted.players["p1"], f"{hosted.base}/start")
    assert answer.status_code == 403
    assert "only the game&#39;s organiser can do this; open your organiser link first" in answer.text
    assert 'class="notice"' not in answer.text and "Go back to the page you came from and reload it" in answer.text
    assert "to correct the form" not in answer.text  # nothing typed to correct: a reload is what helps


def test_a_stale_security_token_says_to_reload(hosted: Hosted) -> None:
    """A tampered or stale CSRF token keeps the error page, which says to reload, not to go back and
    send the form again (that would send the same token)."""
    answer = hosted.organiser.post(f"{hosted.base}/end", data={"csrf": "x" * 43})
    assert answer.status_code == 403
    assert "reload the page and submit again" in answer.text
    assert "Go back to the page you came from and reload it" in answer.text and "to correct the form" not in answer.text
    assert "organiser · ended the game" not in log_shown(hosted.organiser.get(f"{hosted.base}/organise").text)
