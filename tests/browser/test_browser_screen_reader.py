"""What a screen reader says of a player's page, in real headless Chromium: the page's title,
which is read first each time the page opens (after each form sent, and when it reloads itself as
the game moves on), and the words of the match reports, read as words rather than glyphs.
"""

from __future__ import annotations

import re
import time
from typing import Any

from browser.browser_helpers import (
    create_game,
    join_by_invites,
    on_screen,
    start_with_one_seat,
    type_order,
    visit,
)
from browser.test_browser_a11y import DESKTOP


def test_the_play_pages_title_says_what_changed(server: str, chromium: Any) -> None:
    """A blind player hears the title first as the page opens: it says where their orders stand
    in the turn, what the form just did, that it was refused, and, at the end, that the game is
    over; the name and the game stay at its end. The title was the same on every load."""
    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Title cup", hours="24")
    play = organise.removesuffix("/organise") + "/play"
    visit(page, play)
    tail = " · \u2068Me\u2069 · \u2068Title cup\u2069 · Sevens"
    forms = page.locator("form.order-form")
    mine = forms.count()
    assert page.title() == f"Turn 1 of 5: {mine} of your orders not ready{tail}"
    # More points than the team holds: refused by the server (the boxes' limits let it through).
    type_order(forms.first, 60, 60)
    forms.first.locator("button[value=ready]").click()
    page.wait_for_load_state("load")
    assert page.title() == f"Error: Turn 1 of 5: {mine} of your orders not ready{tail}"
    team = str(forms.first.get_attribute("data-name"))
    type_order(forms.first, 5, 3)
    forms.first.locator("button[value=ready]").click()
    page.wait_for_load_state("load")
    assert page.title() == f"Order for {team} ready (turn 1). Turn 1 of 5: {mine - 1} of your orders not ready{tail}"
    # Every order ready, turn after turn, to the end of the game.
    ready = page.locator(".order-state", has_text=re.compile("^ready$"))
    to_order = page.locator("article.my-team").filter(has_not=ready).locator("form.order-form")
    for _ in range(40):
        if page.title().startswith("Game over"):
            break
        if to_order.count():
            type_order(to_order.first, 0, 0)
            to_order.first.locator("button[value=ready]").click()
            page.wait_for_load_state("load")
        else:
            visit(page, play)
    assert page.title().startswith("Game over"), page.title()
    champion = page.locator("#champion").inner_text()
    assert page.title() == f"Game over, champion {champion}{tail}"
    page.context.close()


def test_the_match_reports_are_read_as_words(server: str, chromium: Any) -> None:
    """A match report's cells showed the dice as "5-3" (read "5 minus 3"), the line as "10 (1T 1C
    1P 0DG)" (read "1 T 1 C...") and SCRUM as "100 → 92" (read "100 right arrow 92"). The screen
    looks the same; what the accessibility tree gives a screen reader is in words. So are the group
    tables' headers, read with each figure: "tries against", not "T A"."""
    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Words cup", hours="24")
    play = organise.removesuffix("/organise") + "/play"
    visit(page, play)
    ready = page.locator(".order-state", has_text=re.compile("^ready$"))
    to_order = page.locator("article.my-team").filter(has_not=ready).locator("form.order-form")
    for _ in range(to_order.count()):
        type_order(to_order.first, 5, 6)
        to_order.first.locator("button[value=ready]").click()
        page.wait_for_load_state("load")
    # Each team's latest match, said above its next order: "SCRUM 100 → 89" was "100 right arrow 89".
    visit(page, play)
    latest = page.locator("p.latest-match")
    assert latest.count() >= 1
    for said in (p.aria_snapshot() for p in latest.all()):
        assert "→" not in said and re.search(r"SCRUM from \d+ to \d+", said), said
    visit(page, organise.removesuffix("/organise"))
    from playwright.sync_api import expect

    # The public page reloads itself as the game moves on: its title says where the game stands.
    assert page.title() == "Turn 2 of 5 · \u2068Words cup\u2069 · Sevens"
    reports = page.locator("section.reports")
    shown = reports.inner_text()
    assert re.search(r"\d-\d", shown) and "→" in shown and re.search(r"\(\d+T \d+C \d+P \d+DG\)", shown), shown
    # The tables only: a heading's score ("29-10") is read as a score.
    said = "\n".join(table.aria_snapshot() for table in reports.locator("table.report").all())
    for glyphs in (r"\d-\d", "→", r"\d(T|C|P|DG)\b"):
        assert not re.search(glyphs, said), (glyphs, said)
    # Every side of every match: its line and its SCRUM in words, each throw of FLAIR as two dice.
    sides = page.locator("table.report tbody tr").count()
    assert sides >= 8
    assert len(re.findall(r"cell \"\d+ points?: \d+ tr(y|ies), \d+ conversions?, \d+ penalt(y|ies), \d+ drop goals?", said)) == sides, said
    assert len(re.findall(r"cell \"\d+ to \d+", said)) == sides, said
    assert re.search(r"FLAIR \d and \d", said), said
    # A group table's figures are read with their header: in words, not "T A" or "P t s".
    table = page.locator("table#group-A")
    for short, long in (("TF", "tries for"), ("TA", "tries against"), ("Pts", "league points"), ("P", "played")):
        header = table.get_by_role("columnheader", name=long, exact=True)
        expect(header).to_have_count(1)
        expect(header).to_have_text(short)
    page.context.close()


def test_the_organiser_pages_title_says_where_the_game_stands(server: str, chromium: Any) -> None:
    """The organiser page reloads itself as seats are taken and orders come in; its title, read
    first, was "Organise <game>" whatever happened. It now says how many seats are taken, then
    how many teams are ready (whether, never what: R13), that a form was refused, and the end."""
    from playwright.sync_api import expect

    page, organise, invites = create_game(chromium, server, "Lead cup", viewport=DESKTOP, hours="24")
    tail = " · Organise \u2068Lead cup\u2069 · Sevens"
    visit(page, organise)
    assert page.title() == f"Not started, 0 of {len(invites)} seats taken{tail}"
    (player,) = join_by_invites(chromium, invites[:1], DESKTOP)
    visit(page, organise)
    assert page.title() == f"Not started, 1 of {len(invites)} seats taken{tail}"
    page.click("#start button")
    expect(page.locator("#order-states")).to_be_visible()
    visit(player, organise.removesuffix("/organise") + "/play")
    teams = player.locator("form.order-form").count()  # the seats nobody took are the bots'
    assert teams > 0
    assert page.title() == f"Turn 1 of 5: 0 of {teams} teams ready{tail}"
    page.fill("#extend-hours", "forever")
    page.click("#extend button[type=submit]")
    expect(page.locator("#extend-summary")).to_be_focused()
    assert page.title() == f"Error: Turn 1 of 5: 0 of {teams} teams ready{tail}"
    form = player.locator("form.order-form").first
    type_order(form, 5, 3)
    form.locator("button[value=ready]").click()
    player.wait_for_load_state("load")
    visit(page, organise)
    assert page.title() == f"Turn 1 of 5: 1 of {teams} teams ready{tail}"
    page.click("#end button[type=submit]")  # create_game's page accepts the confirmation
    expect(page.locator("#end")).to_have_count(0)
    assert page.title() == f"Ended by the organiser{tail}"
    visit(player, organise.removesuffix("/organise"))
    assert player.title() == "Ended by the organiser · \u2068Lead cup\u2069 · Sevens"
    player.context.close()
    page.context.close()


def test_a_refused_join_says_error_first(server: str, chromium: Any) -> None:
    """A refused form comes back as its page with a focused summary; the title, which a screen
    reader says as the page opens, was the same as before the form was sent. It now starts with
    "Error:" on every page a form is refused on, the join page too."""
    from playwright.sync_api import expect

    organiser, _, invites = create_game(chromium, server, "Join cup", viewport=DESKTOP, hours="24")
    page = chromium.new_context(viewport=DESKTOP).new_page()
    visit(page, invites[0])
    assert page.title() == "Join \u2068Join cup\u2069 · Sevens"
    page.fill("input[name=name]", "A" * 60)  # the box takes it; the server takes 40 characters
    page.click("#join button[type=submit]")
    expect(page.locator("#join-summary")).to_be_focused()
    assert page.title() == "Error: Join \u2068Join cup\u2069 · Sevens"
    page.context.close()
    organiser.context.close()


def _play_level_game(chromium: Any, server: str, name: str) -> tuple[Any, str]:
    """A 4-8-2 game whose four seats are taken by API tokens that order 0+0 for every team, every
    turn: each group match a 0-0 draw, each group and each knockout match left to lots (R9, R10).
    The organiser's page (its browser) and the organiser page's address once the final is played."""
    import httpx

    page, organise, invites = create_game(chromium, server, name, viewport=DESKTOP, hours="24")
    game = organise.removesuffix("/organise").rsplit("/", 1)[-1]
    with httpx.Client(base_url=server + "/api/v1", timeout=30) as api:
        tokens = []
        for number, invite in enumerate(invites, start=1):
            joined = api.post("/join", json={"invite": invite, "name": f"Level {number}"})
            assert joined.status_code in (200, 201), joined.text
            tokens.append({"Authorization": f"Bearer {joined.json()['token']}"})
        visit(page, organise)
        page.click("#start button")
        for _ in range(12):
            waiting = [(h, w) for h in tokens for w in api.get("/waiting", headers=h).json()]
            if not waiting:
                if api.get(f"/games/{game}/state").json()["status"] == "finished":
                    break
                time.sleep(0.2)  # the turn being resolved
                continue
            for headers, w in waiting:
                for team in w["teams"]:
                    sent = api.put(f"/games/{game}/orders/{team}", headers=headers, json={"turn": w["turn"], "force": 0, "flair": 0, "ready": True})
                    assert sent.status_code == 200, sent.text
        assert api.get(f"/games/{game}/state").json()["status"] == "finished"
    return page, organise


def test_lots_the_team_page_and_orders_are_read_as_words(server: str, chromium: Any) -> None:
    """A game of 0+0 orders: every group level, so drawn by lots, and each knockout match too.
    What was read: the lots "left bracket Fiji 5, Samoa 3 right bracket right arrow Fiji, Samoa",
    each order "0 plus 0" as if a sum, the team page's "SCRUM 100 right arrow 100" and its
    "drew 0-0, a draw", which says the draw twice. The screen shows what it showed; the
    accessibility tree has words: "throws ...; order ...", "0 FORCE, 0 FLAIR", "100 to 100"."""
    from playwright.sync_api import expect

    page, organise = _play_level_game(chromium, server, "Level cup")
    base = organise.removesuffix("/organise")
    visit(page, base)
    lots = page.locator("p.lots")
    expect(lots.first).to_be_visible()
    assert lots.count() >= 3, "two groups and at least one knockout match"
    assert "] → " in lots.first.inner_text()  # the screen keeps its short form
    for said in (p.aria_snapshot() for p in lots.all()):
        assert "→" not in said and "[" not in said and "]" not in said, said
        assert re.search(r"throws .+ \d+; .*order \S", said), said
    orders = "\n".join(t.aria_snapshot() for t in page.locator("table.report").all())
    assert "0+0" in page.locator("table.report").first.inner_text()
    assert "+" not in orders.replace("(+10 win)", ""), orders
    assert re.search(r"cell \"0 FORCE, 0 FLAIR\"", orders), orders
    # The team page of a team that played the groups: its list of matches.
    href = page.locator("a[href*='/teams/']").first.get_attribute("href")
    assert href
    visit(page, server + href)
    listed = page.locator("#team-matches ol")
    shown = on_screen(listed)
    assert "drew 0-0 · order 0+0" in shown and "a draw" not in shown, shown
    assert "→" in shown  # the screen keeps the arrow
    said = listed.aria_snapshot()
    for glyph in ("→", "+"):
        assert glyph not in said.replace("+10 win", ""), (glyph, said)
    assert "order 0 FORCE, 0 FLAIR against 0 FORCE, 0 FLAIR" in said and re.search(r"SCRUM \d+ to \d+", said), said
    page.context.close()


def _bots_play_a_whole_game(chromium: Any, server: str, name: str) -> tuple[Any, str]:
    """A 4-8-2 game nobody takes a seat in, started: the bots play it to the end at once. The
    organiser's page (its browser) and the game page's address."""
    from playwright.sync_api import expect

    page, organise, _ = create_game(chromium, server, name, viewport=DESKTOP, hours="0")
    visit(page, organise)
    page.click("#start button")  # nobody has a seat: it asks first (accepted)
    base = organise.removesuffix("/organise")
    visit(page, base)
    expect(page.locator("#champion")).to_be_visible()
    return page, base


_SCORE = re.compile(r"\d-\d")


def test_the_bracket_and_the_standing_are_heard_in_order_with_scores_as_scores(server: str, chromium: Any) -> None:
    """Listened to without the picture, the bracket was a run of paragraphs ("Ireland v France,
    link France win 60-51"): nothing said how many matches a round had, a score was read "60 minus
    51" (or "60 51"), and the champion was left to the page's top. The match reports' headings, the
    final standing's shared places ("3-4") and the team page's list read their scores the same way;
    on the big screen the bracket's results were links to reports that page does not have. Now
    each round is a list of its matches in bracket order, the scores are said "60 to 51", the
    bracket ends with the champion, and the big screen's results link nowhere they cannot go."""
    from playwright.sync_api import expect

    page, base = _bots_play_a_whole_game(chromium, server, "Bracket ears cup")
    champion = page.locator("#champion").inner_text()
    bracket = page.locator("section.bracket")
    expect(bracket).to_have_accessible_name("Bracket")
    rounds = bracket.get_by_role("list")
    expect(rounds).to_have_count(2)  # the semi-finals, then the final
    expect(rounds.nth(0).get_by_role("listitem")).to_have_count(2)
    expect(rounds.nth(1).get_by_role("listitem")).to_have_count(1)
    said = bracket.aria_snapshot()
    assert not _SCORE.search(said), said
    assert len(re.findall(r"win \d+ to \d+", said)) == 3, said
    expect(bracket.locator("p.bracket-champion")).to_have_text(f"Champion: {champion}")
    assert said.rstrip().endswith(f"- strong: {champion}"), said  # the last words of the bracket
    assert re.search(r"\d+-\d+", bracket.locator("a").first.inner_text())  # the screen keeps its short form
    for heading in page.locator("article.match h4").all():
        assert not _SCORE.search(heading.aria_snapshot()), heading.aria_snapshot()
    places = page.locator("#standing tbody").aria_snapshot()
    assert not _SCORE.search(places) and 'cell "3 to 4"' in places, places
    # The team page's list of matches.
    visit(page, server + str(page.locator("#standing a[href*='/teams/']").first.get_attribute("href")))
    listed = page.locator("#team-matches ol").aria_snapshot()
    assert not _SCORE.search(listed) and re.search(r"\d+ to \d+ order", listed), listed
    # The big screen: no match reports there, so no link to one; its results read as scores too.
    visit(page, base + "?screen=1")
    expect(page.locator("#big-screen section.bracket")).to_be_visible()
    expect(page.locator("#big-screen section.bracket a")).to_have_count(0)
    for part in ("section.bracket", "#last-results", "#final-result", "table.standing"):
        heard = page.locator(f"#big-screen {part}").aria_snapshot()
        assert not _SCORE.search(heard) and re.search(r"\d+ to \d+", heard), (part, heard)
    page.context.close()


def test_the_odds_on_the_order_form_are_heard_once_and_in_words(server: str, chromium: Any) -> None:
    """The odds under an order: each bot's order in the table was read "2 plus 18", and the
    sentence above it ("Your order 10 plus 9: expected ...") was in the accessibility tree twice,
    once in the output and once in the live region that announces it. The table's orders are now
    "2 FORCE, 18 FLAIR", and the sentence is heard once, in words, from the live region."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Odds ears cup", hours="24")
    visit(page, organise.removesuffix("/organise") + "/play")
    form = page.locator("form.order-form").first
    type_order(form, 10, 9)
    table = form.locator("table.odds-table")
    expect(table).to_be_visible()
    expect(form.locator("output.odds p").first).to_contain_text("Your order 10+9: expected")  # as shown
    heard = form.aria_snapshot()
    assert heard.count("expected") == 1, heard
    assert "Your order 10 FORCE, 9 FLAIR: expected" in heard, heard
    rows = table.locator("tr:has(td)").count()
    cells = table.aria_snapshot()
    assert "+" not in cells, cells
    # a mixing bot's likeliest order is marked so (the odds are against its whole mix)
    assert len(re.findall(r'cell "\d+ FORCE, \d+ FLAIR(?: \(mix\))?"', cells)) == rows >= 2, cells
    page.context.close()


def test_the_big_screen_says_its_news_and_not_its_wake_lock(server: str, chromium: Any) -> None:
    """The organiser's big screen reloads itself at each order ready and each turn: each time, a
    screen reader announced the live note "This screen is kept on while this page is shown" and
    read a title that had not changed ("Turn 1 of 5"). The note is no longer a live region, and
    the title says how many teams the turn waits for."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Screen ears cup", hours="24")
    visit(page, organise.removesuffix("/organise") + "?screen=1")
    waiting = page.locator("#waiting li")
    expect(waiting.first).to_be_visible()
    count = waiting.count()
    assert page.title() == f"Turn 1 of 5: waiting for {count} teams · \u2068Screen ears cup\u2069 · Sevens"
    expect(page.locator("#wake-note")).not_to_have_text("")
    expect(page.get_by_role("status").filter(has_text="screen")).to_have_count(0)
    page.context.close()


# A word, a space, then a sign: how Chromium joins a hidden (positioned) span to the text after it.
_STRAY = re.compile(r"\w [,.;:)]")


def test_a_sign_after_hidden_words_is_heard_without_a_space_before_it(server: str, chromium: Any) -> None:
    """The hidden words of a score or a throw are in a positioned span, which the browser reads as a
    block of its own: the sign after it came out with a space before it, "58 to 40 ." in the final
    standing, "FLAIR 5 and 5 , 1 and 6" in the match reports' dice, "Autopilot of Fiji :" on the
    order form. The sign is now said inside the hidden words, and still shown where it was."""
    page, _ = _bots_play_a_whole_game(chromium, server, "Comma ears cup")
    for part in ("#standing", "section.matches, article.match"):
        heard = "\n".join(el.aria_snapshot() for el in page.locator(part).all())
        assert heard and not _STRAY.search(heard), (part, _STRAY.findall(heard))
    dice = page.locator("article.match td.dice").all()
    assert any(" and " in d.aria_snapshot() and "," in d.aria_snapshot() for d in dice)  # a throw of two dice
    assert any(re.search(r"\d-\d, \d-\d", on_screen(d)) for d in dice)  # as shown: "5-5, 1-6"
    assert any(re.search(r"\d+-\d+\.$", on_screen(td).strip()) for td in page.locator("#standing tbody td").all())
    page.context.close()

    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Colon ears cup", hours="24")
    visit(page, organise.removesuffix("/organise") + "/play")
    summary = page.locator("details.autopilot-box summary").first
    assert not _STRAY.search(summary.aria_snapshot()), summary.aria_snapshot()
    assert re.search(r"Autopilot of [\w ]+: ", summary.aria_snapshot()), summary.aria_snapshot()
    assert on_screen(summary).startswith("Autopilot: ")
    page.context.close()


def test_the_odds_messages_on_the_order_form_are_heard_once(server: str, chromium: Any) -> None:
    """sr3 made the odds' sentence heard once; the messages shown instead of odds (an order the
    team cannot pay, "Type FORCE and FLAIR points ...") were still in the accessibility tree twice,
    in the output and in the live region that announces them. Each is heard once now, and shown."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Refusal ears cup", hours="24")
    visit(page, organise.removesuffix("/organise") + "/play")
    form = page.locator("form.order-form").first
    expect(form.locator("output.odds")).to_contain_text("Type FORCE and FLAIR points")
    assert form.aria_snapshot().count("Type FORCE and FLAIR points") == 1, form.aria_snapshot()
    type_order(form, 1000, 9)
    expect(form.locator("output.odds")).to_contain_text("R3:")
    expect(form.locator(".odds-said")).to_contain_text("R3:")
    assert form.aria_snapshot().count("R3:") == 1, form.aria_snapshot()
    page.context.close()


def test_the_rematch_invites_say_whose_seat_each_link_opens(server: str, chromium: Any) -> None:
    """A rematch of a game nobody sat in listed its invite links as "1", "2", ...: the list's
    numbers alone, so a listener could not tell which link to send to whom. Each line now says
    its seat (and the name it had, where it had one: the teams are drawn at the start) and that it
    is an invite link."""
    page, base = _bots_play_a_whole_game(chromium, server, "Rematch ears cup")
    visit(page, base + "/organise")
    page.click("#rematch button")
    lines = page.locator("#invites > li")
    assert lines.count() >= 2
    for n, line in enumerate(lines.all(), start=1):
        heard = line.aria_snapshot()
        assert re.search(rf'text: "Seat {n}, invite link:"\n\s*- code: http', heard), heard
    page.context.close()


def test_the_dots_between_links_are_not_read(server: str, chromium: Any) -> None:
    """The links atop the game's, the player's and the organiser's pages were separated by " · ",
    read "middle dot" by a screen reader set to say signs. The dot is shown still, and not read."""
    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Dot ears cup", hours="24")
    base = organise.removesuffix("/organise")
    for address in (base, base + "/play", organise):
        visit(page, address)
        bar = page.locator("nav.links")
        assert " · " in on_screen(bar), (address, on_screen(bar))
        assert "·" not in bar.aria_snapshot(), (address, bar.aria_snapshot())
        assert bar.get_by_role("link").count() >= 3
    page.context.close()


def _words(locator: Any) -> str:
    """What ``locator`` is heard to say: its aria snapshot without the links' addresses."""
    return "\n".join(line for line in locator.aria_snapshot().splitlines() if "- /url:" not in line)


def test_versus_the_turns_and_the_match_ids_are_heard_in_words(server: str, chromium: Any) -> None:
    """Shown "Ireland v Fiji", "Turn 5 · Final" and "t5-m1", they were heard "Ireland v Fiji" (the
    letter), "Turn 5 middle dot Final" and "t 5 minus m 1"; the team page's "18 FLAIR, bot ..." was
    heard "18 FLAIR , bot" and its dots between parts "middle dot". Heard now: "versus", "Turn 5,
    Final", "turn 5, match 1", and the dots between a side's dice not at all; the screen shows
    what it showed."""
    page, base = _bots_play_a_whole_game(chromium, server, "Versus ears cup")
    glyphs = re.compile(r"\bv\b|·|t\d+-m\d+")
    reports = page.locator("section.reports")
    shown = on_screen(reports)
    assert re.search(r"Turn \d+ · \w", shown) and re.search(r"t\d+-m\d+: .+ v .+ — ", shown), shown
    turns = reports.locator("h3")
    for heading in turns.all():
        assert re.fullmatch(r'- heading "Turn \d+, \w[\w -]*" \[level=3\]', heading.aria_snapshot().strip()), heading.aria_snapshot()
    for heading in reports.locator("article.match h4").all():
        heard = _words(heading)
        assert not glyphs.search(heard), heard
        assert re.search(r'heading "turn \d+, match \d+: .+ versus .+ — ', heard), heard
    dice = reports.locator("td.dice")
    assert any(" · " in on_screen(d) for d in dice.all()) and not any("·" in d.aria_snapshot() for d in dice.all())
    bracket = page.locator("section.bracket")
    assert " v " in on_screen(bracket)
    heard = _words(bracket)
    assert not glyphs.search(heard) and heard.count("versus") == 3, heard
    # A team's page: its list of matches.
    visit(page, server + str(page.locator("#standing a[href*='/teams/']").first.get_attribute("href")))
    listed = page.locator("#team-matches ol")
    assert re.search(r": v .+ · order .+ · SCRUM", on_screen(listed)), on_screen(listed)
    heard = _words(listed)
    assert not glyphs.search(heard) and not _STRAY.search(heard), (glyphs.findall(heard), _STRAY.findall(heard))
    assert re.search(r'link "Turn \d+, \w', heard) and '": versus ' in heard and re.search(r"FLAIR, \S", heard), heard
    page.context.close()

    # A game being played: this turn's matches on its page, the big screen and the order form.
    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Fixture ears cup", hours="24")
    base = organise.removesuffix("/organise")
    for address in (base, base + "?screen=1"):
        visit(page, address)
        fixtures = page.locator("#fixtures ul")
        assert " v " in on_screen(fixtures), on_screen(fixtures)
        heard = _words(fixtures)
        assert not glyphs.search(heard) and "versus" in heard, (address, heard)
    visit(page, base + "/play")
    told = page.locator("article.my-team p", has_text="against").first
    assert re.match(r"Turn 1, match t1-m\d+: against", on_screen(told)), on_screen(told)
    assert re.search(r"Turn 1, match \d+: against", told.aria_snapshot()), told.aria_snapshot()
    page.context.close()


def test_the_event_log_is_heard_in_words_newest_first(server: str, chromium: Any) -> None:
    """The organiser's event log joined when, who, what and its detail with " · ", heard "middle
    dot" three times a line, in short kinds ("paused", "seat to bots"), oldest first at the foot of
    the page. Its lines still show the dots and are heard "when, who: what, detail", newest first,
    each numbered from the oldest."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Log ears cup", hours="24")
    visit(page, organise)
    page.click("button:has-text('Pause the deadline')")
    lines = page.locator("ol.events > li")
    expect(lines).to_have_count(3)
    when = r"[^·]+? UTC"  # in the reader's own way of writing a time
    shown = [on_screen(line) for line in lines.all()]
    assert re.fullmatch(rf"{when} · organiser · paused the deadline · 1 d left", shown[0]), shown
    assert re.fullmatch(rf"{when} · organiser · started the game", shown[1]), shown
    assert re.fullmatch(rf"{when} · organiser · created the game · seed commitment [0-9a-f]{{64}}", shown[2]), shown
    heard = _words(page.locator("ol.events"))
    assert "·" not in heard, heard
    # Each line: its time (a time element), then the words after it.
    said = re.findall(r'- listitem:\n\s*- time: [^\n]+ UTC\n\s*- text: "(.*)"', heard)
    assert said[:2] == [", organiser: paused the deadline, 1 d left", ", organiser: started the game"], heard
    assert re.fullmatch(r", organiser: created the game, seed commitment [0-9a-f]{64}", said[2]), heard
    assert [line.evaluate("li => li.value") for line in lines.all()] == [3, 2, 1]
    page.context.close()
