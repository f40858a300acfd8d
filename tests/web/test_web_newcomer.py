"""The game taught to someone who has never played it, in one page the order form links to (task
newcomer1)."""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction

from fastapi import FastAPI

from sevens.odds import order_odds
from sevens.tournament import from_record
from web.web_helpers import host_game, new_client, on_screen, post_form, unset


def _words(page: str) -> str:
    """The page's text as read: tags dropped, spaces folded, none before a stop."""
    return re.sub(r" ([.,:;)])", r"\1", " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split()))


def test_the_order_form_links_to_a_page_that_teaches_the_game(app: FastAPI) -> None:
    """Nothing on the web pages said what FORCE, FLAIR or SCRUM points do, that SCRUM lasts the
    whole tournament and a win brings 10, what wins a group or a knockout, or what the odds shown
    as you type mean: a newcomer alone against the bots had to guess (or find docs/rules.md). Now
    /how-to-play says it, in step with R1-R4, R8 and R9, and the player's page links to it once,
    above the order forms, as do the front page and the join page."""
    game = host_game(app, hours="0")
    joining = new_client(app).get(game.invites["p1"].split("testserver", 1)[1]).text
    game.join("p1", "Newcomer")
    game.start()
    play = game.players["p1"].get(f"{game.base}/play").text
    assert play.count('href="/how-to-play"') == 1 and play.count('class="order-form"') == 2
    assert 'href="/how-to-play"' in game.organiser.get("/").text and 'href="/how-to-play"' in joining

    taught = game.players["p1"].get("/how-to-play")
    assert taught.status_code == 200
    said = _words(taught.text)
    force, flair = order_odds(3, 0).expected_points_exact, order_odds(0, 3).expected_points_exact
    assert force == 4 and flair == Fraction(61, 15)
    for fact in (
        "starts with 100 SCRUM points",  # R4
        "must last it the whole tournament",
        "winner of a match gains 10",
        "FORCE: one die per point. A 5 is a try (5 points), a 3 a penalty (3 points)",  # R1
        f"On average 3 points of FORCE score {force}",
        "each 3 points throw two dice. A total of 7 is a converted try (7 points)",
        "scores as usual and then throws again",  # R2
        f"On average 3 points of FLAIR score {float(flair):.2f}",
        "FLAIR must be a multiple of 3, either may be 0",  # R3
        "a win is worth 2 league points, a draw 1. The top two of each group go through",  # R8
        "more tries wins, then more conversions, then more drop goals, then the better group record, then lots",  # R9
        "your chances of a win, a draw",  # the odds
        "Save and mark ready says you are done",
    ):
        assert fact in said, fact
    for word in ("Autopilot", "House team", "Knockout weight", "count-back"):
        assert word in said, word


def test_each_team_card_says_what_its_last_match_did_with_its_order(app: FastAPI) -> None:
    """After a turn a team's card said only its group place ("Group A: 4th after 1 of 3 matches"):
    whether it won, what its order scored and what it has left were in the match reports, far down
    the page among every other match. The card now says it in a line, naming the match (its report has the dice),
    from the record: the opponent, the score, the order, the line and the SCRUM before and after."""
    game = host_game(app, hours="0")
    game.join("p1", "Newcomer")
    game.start()
    mine = game.my_teams("p1")
    page = game.players["p1"].get(f"{game.base}/play").text
    assert not any(f'id="last-{team}"' in page for team in mine)  # nothing played yet
    seen = set()
    for turn in (1, 2, 3):
        for team in game.my_teams("p1"):
            assert game.order("p1", team, 10, 9, "ready").status_code == 303
        record = json.loads(game.organiser.get(f"{game.base}/record.json").text)
        played, _ = from_record(record)
        # the bots play every other team, so the turn was resolved (and, once both teams are out
        # after the groups, the rest of the game too)
        assert len(played.turns) >= turn
        names = {t["id"]: t["name"] for t in record["teams"]}
        page = html.unescape(on_screen(game.players["p1"].get(f"{game.base}/play").text))
        for team in mine:
            match = next(m for m in played.turns[turn - 1].matches if team in (m.home.team, m.away.team))
            side, other = (match.home, match.away) if match.home.team == team else (match.away, match.home)
            shown = re.search(rf'id="last-{team}">([^<]*)</p>', page)
            assert shown is not None and shown.group(1).endswith(". Its dice are in the match reports below.")
            verb = "drew with" if match.winner is None else "beat" if match.winner == team else "lost to"
            seen.add(verb)
            line = side.line
            first = other.line.points if match.winner == other.team else line.points  # the winner's first
            assert shown.group(1).startswith(f"Turn {turn}, match {match.fixture.id}: {verb} {names[other.team]}, {first}-")
            said = re.search(r"Your order 10 FORCE \+ 9 FLAIR scored (\d+) \((\d+) tr(y|ies), (\d+) conversions?, (\d+) penalt(y|ies), (\d+) drop goals?\); SCRUM from (\d+) to (\d+)", shown.group(1))
            assert said is not None, shown.group(1)
            figures = (line.points, line.tries, line.conversions, line.penalties, line.drop_goals, side.scrum_before, side.scrum_after)
            assert tuple(int(said.group(i)) for i in (1, 2, 4, 5, 7, 8, 9)) == figures
            for n in (2, 5):  # one try, one penalty: said as one
                one = int(said.group(n)) == 1
                assert said.group(n + 1) == ("y" if one else "ies"), said.group(0)
            assert f'id="match-{match.fixture.id}"' in page
    assert seen & {"beat", "lost to"}


def test_a_player_who_organises_finds_the_rematch_on_their_page_when_the_game_is_over(app: FastAPI) -> None:
    """Alone against the bots, a newcomer plays every turn on their own page; when the game was over
    that page said only "finished: champion ..." and led nowhere: the rematch was a button on the
    organiser page, which they had no reason to open. Their page now offers it, for whoever
    organises the game, until the rematch is made (then the page links to it instead); a player who
    does not organise it is offered nothing they could not press."""
    game = host_game(app, hours="0")
    me = game.organiser
    assert post_form(me, game.invites["p1"].split("testserver", 1)[1], {"name": "Newcomer"}).status_code == 303
    game.players["p1"] = me
    friend = game.join("p2", "Friend")
    game.start()
    while 'id="play-again"' not in (page := me.get(f"{game.base}/play").text):
        assert 'class="status">running' in page  # offered only once the game is over
        for pid in ("p1", "p2"):
            for team in game.my_teams(pid):
                assert game.order(pid, team, 6, 6, "ready").status_code == 303
    assert 'class="status">finished' in page
    assert 'id="play-again"' not in friend.get(f"{game.base}/play").text  # not the organiser
    action = re.search(r'<form method="post" action="([^"]+)" id="play-again"', page)
    assert action is not None
    made = post_form(me, action.group(1))
    assert made.status_code == 201 and "This browser has taken seat 1 again as Newcomer." in unset(made.text)
    after = me.get(f"{game.base}/play").text
    assert 'id="play-again"' not in after and 'id="rematch-link"' in after


def test_the_organiser_who_plays_is_sent_to_their_teams_page_for_their_orders(app: FastAPI) -> None:
    """Start leaves the organiser on the organiser page: "Started: the groups are drawn and turn 1
    is open", the teams listed, and first of its buttons "Resolve turn 1 now", which would have the
    autopilot play their own teams. Where their orders go was a link at the top among four. The
    turn's controls now say how many of their own teams are not ready and link to their page for
    the orders; the line goes once they are all ready."""
    game = host_game(app, hours="0")
    me = game.organiser
    assert post_form(me, game.invites["p1"].split("testserver", 1)[1], {"name": "Newcomer"}).status_code == 303
    game.players["p1"] = me
    game.join("p2", "Friend")  # keeps the turn open once the organiser's teams are ready
    game.start()
    page = _words(me.get(f"{game.base}/organise").text)
    assert "2 of your teams are not ready: send their orders on your teams' page: the turn waits for them." in page
    assert f'href="{game.base}/play" id="to-my-teams"' in me.get(f"{game.base}/organise").text
    first, second = game.my_teams("p1")
    assert game.order("p1", first, 3, 3, "ready").status_code == 303
    assert game.order("p1", second, 3, 3, "save").status_code == 303  # saved, not ready: still due
    assert "1 of your teams is not ready: send its order on your teams' page" in _words(me.get(f"{game.base}/organise").text)
    assert game.order("p1", second, 3, 3, "ready").status_code == 303
    assert game.turn() == 1 and 'id="your-orders"' not in me.get(f"{game.base}/organise").text
    # an organiser who plays no seat is told nothing of the kind
    other = host_game(app, hours="0", name="Not playing")
    other.join("p1", "Someone")
    other.start()
    assert 'id="your-orders"' not in other.organiser.get(f"{other.base}/organise").text


def test_a_team_card_says_when_its_last_order_was_the_autopilots(app: FastAPI) -> None:
    """A turn resolved before the player sent anything: the autopilot played their teams (R13), and
    the card must not call its order theirs."""
    game = host_game(app, hours="0")
    game.join("p1", "Newcomer")
    game.start()
    game.resolve(1)
    page = html.unescape(on_screen(game.players["p1"].get(f"{game.base}/play").text))
    for team in game.my_teams("p1"):
        shown = re.search(rf'id="last-{team}">([^<]*)</p>', page)
        assert shown is not None, team
        assert "Your autopilot's order (you sent none): " in shown.group(1) and "Your order" not in shown.group(1)


def _fold(page: str, team: str) -> tuple[bool, str]:
    """Whether a team's folded autopilot controls are open, and the words of their summary as seen
    (what is there for a screen reader alone, the team's name, left out)."""
    found = re.search(rf'<details class="autopilot-box" id="autopilot-box-{team}"( open)?>\s*<summary>(.*?)</summary>', page, re.S)
    assert found is not None, team
    name = re.search(rf'data-team="{team}" data-name="([^"]+)"', page)
    hidden = f'<span class="visually-hidden"> of {name.group(1)}:</span>' if name else ""
    assert name is not None and hidden in found.group(2)
    return found.group(1) is not None, _words(found.group(2).replace(hidden, ""))


def test_the_autopilot_controls_are_folded_until_the_player_changes_them(app: FastAPI) -> None:
    """Under every team the player's page showed the autopilot menu, the knockout-weight box, Set
    and four lines of hint: with four teams, a newcomer scrolled past a dozen controls they did not
    need yet to find the next order. They are now folded in a disclosure (no script needed) whose
    summary says what is set; it stands open for a team whose manager chose its autopilot, and for
    a form sent back refused, its reason and typing in sight."""
    game = host_game(app, arrangement="4-16-4", autopilot="equilibrium")
    game.join("p1", "Newcomer")
    game.start()
    first, second, third, fourth = game.my_teams("p1")
    page = game.players["p1"].get(f"{game.base}/play").text
    for team in (first, second, third, fourth):
        assert _fold(page, team) == (False, "Autopilot: equilibrium, knockout weight: the bot's own (plays if you send no order)")
        # the controls are all there inside it, for whoever opens it
        inside = page.split(f'id="autopilot-box-{team}"', 1)[1].split("</details>", 1)[0]
        assert f'id="autopilot-{team}"' in inside and 'name="strategy"' in inside and 'name="weight"' in inside

    me = game.players["p1"]
    assert post_form(me, f"{game.base}/autopilot", {"team": first, "strategy": "even", "weight": "1.5"}).status_code == 303
    assert post_form(me, f"{game.base}/autopilot", {"team": third, "strategy": "group-blitz"}).status_code == 303
    page = me.get(f"{game.base}/play").text
    assert _fold(page, first) == (True, "Autopilot: even, knockout weight 1.5 (plays if you send no order)")
    assert _fold(page, third) == (True, "Autopilot: group-blitz (plays if you send no order)")
    assert not _fold(page, second)[0] and not _fold(page, fourth)[0]

    refused = post_form(me, f"{game.base}/autopilot", {"team": second, "strategy": "even", "weight": "lots"})
    assert refused.status_code == 422
    assert _fold(refused.text, second)[0] and not _fold(refused.text, fourth)[0]
    inside = refused.text.split(f'id="autopilot-box-{second}"', 1)[1].split("</details>", 1)[0]
    assert f'id="autopilot-{second}-summary"' in inside and 'value="lots"' in inside


def test_the_page_says_when_all_your_orders_are_ready_and_whom_the_turn_waits_for(app: FastAPI) -> None:
    """A newcomer marked both orders ready and the page came back as before: the same forms, the
    same buttons, the note "Order for Fiji ready (turn 1)." and nothing saying that was all, nor
    why nothing happened. Once every order of theirs is ready, the page now says so above the
    teams, with whom the turn waits for (whether they have ordered, never what: R13)."""
    game = host_game(app, hours="0")
    me, friend = game.join("p1", "Newcomer"), game.join("p2", "Friend")
    game.start()
    first, second = game.my_teams("p1")
    assert game.order("p1", first, 10, 9, "ready").status_code == 303
    assert 'id="all-ready"' not in me.get(f"{game.base}/play").text  # one still to send
    assert game.order("p1", second, 4, 6, "save").status_code == 303
    assert 'id="all-ready"' not in me.get(f"{game.base}/play").text  # saved is not ready
    done = game.order("p1", second, 4, 6, "ready")
    page = me.get(done.headers["location"]).text
    said = re.search(r'id="all-ready">(.*?)</p>', page, re.S)
    assert said is not None
    assert _words(said.group(1)) == (
        "All your orders for turn 1 are ready: nothing more to do for now. The turn waits for Friend "
        "(2 teams not ready); then it is resolved and the results come on this page. Until then you may still change an order."
    )
    assert "ready (turn 1). That was the last of your orders this turn." in _words(page)
    friends = game.my_teams("p2")
    assert game.order("p2", friends[0], 3, 3, "ready").status_code == 303
    assert "The turn waits for Friend (1 team not ready)" in _words(me.get(f"{game.base}/play").text)
    assert 'id="all-ready"' not in friend.get(f"{game.base}/play").text
    assert game.order("p2", friends[1], 3, 3, "ready").status_code == 303
    assert game.turn() == 2 and 'id="all-ready"' not in me.get(f"{game.base}/play").text  # a new turn


def test_a_player_whose_teams_lost_is_told_where_they_finished(app: FastAPI) -> None:
    """At the end of a game a player whose teams were out read "finished: champion New Zealand" and,
    under each team, the stage it went out at: no place, nothing said to them, and the final
    standing only on the game page. Their page now opens on how their teams finished: the champion
    and whose it is, their best team's place, and each team's place of all, from the final standing."""
    game = host_game(app, hours="0")
    me = game.join("p1", "Newcomer")
    game.start()
    # Nothing spent, nothing scored: the newcomer's teams lose their group matches and are out,
    # then the bots play the rest to the end.
    while 'class="status">finished' not in (page := me.get(f"{game.base}/play").text):
        for team in game.my_teams("p1"):
            assert game.order("p1", team, 0, 0, "ready").status_code == 303
    record = json.loads(game.organiser.get(f"{game.base}/record.json").text)
    played, _ = from_record(record)
    names = {t["id"]: t["name"] for t in record["teams"]}
    standing = json.loads(game.organiser.get(f"/api/v1/games/{game.public_id}").text)["standing"]
    mine = [p for p in standing if p["team"] in {t["id"] for t in record["teams"] if t["manager"] == "p1"}]
    assert len(mine) == 2
    said = re.search(r'id="my-standing">(.*?)</section>', page, re.S)
    assert said is not None
    words = _words(said.group(1))

    def nth(n: str) -> str:  # places 1 to 8 here
        return n + {"1": "st", "2": "nd", "3": "rd"}.get(n, "th")

    def place(p: dict[str, str]) -> str:
        first, _, last = p["place"].partition("-")
        return f"shared {nth(first)} to {nth(last)}" if last else nth(first)

    for p in mine:
        assert f"{names[p['team']]}: {place(p)} of 8. {p['went']}" in words, words
    best = mine[0]
    assert best["went"].startswith("Out after the groups"), best
    champion = names[played.champion]
    assert f"The champion is {champion} (played by a bot)." in words  # the other seats were never taken
    assert f"None of your teams won it this time: the best of them, {names[best['team']]}, finished {place(best)} of 8." in words
    assert f'href="/games/{game.public_id}#standing"' in said.group(1)
    # nothing of the kind before the final
    other = host_game(app, hours="0", name="Not over")
    other.join("p1", "Newcomer")
    other.start()
    assert 'id="my-standing"' not in other.players["p1"].get(f"{other.base}/play").text
