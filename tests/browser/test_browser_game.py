"""A whole game in real headless Chromium: an organiser and four players, orders typed into the forms.

The server is the real app under uvicorn on a free local port, with a throwaway SQLite database.
The test saves screenshots of the main pages to docs/screenshots/ and checks the downloaded record
with sevens.tournament.verify.
"""

from __future__ import annotations

import json
import re
import time
import urllib.parse
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from browser.browser_helpers import (
    Pictured,
    create_game,
    join_by_invites,
    local,
    on_screen,
    picture_context,
    shot,
    start_with_one_seat,
    visit,
)
from sevens.bots import STRATEGIES
from sevens.tournament.verify import verify_record


def _cancelled_question(page: Any, button: str) -> str:
    """Click ``button``, answer its confirmation with Cancel, and return the question it asked."""
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click(button)
    for _ in range(100):  # the handler runs while the test waits on the page
        if asked:
            break
        page.wait_for_timeout(50)
    assert asked, f"{button} asked nothing"
    return asked[0]


def test_whole_8_team_game_in_chromium(picture_server: str, chromium: Any, tmp_path: Path) -> None:
    """Organiser and four players play a whole 8-team game through the pages to a champion (R6, R12).
    Its pictures are the same at every run (browser_helpers.picture_server)."""
    from playwright.sync_api import expect

    server = picture_server
    started = time.monotonic()
    viewport = {"width": 1000, "height": 760}
    organiser = picture_context(chromium, viewport=viewport, accept_downloads=True).new_page()
    organiser.on("dialog", lambda dialog: dialog.accept())  # "Resolve turn N now?"
    organiser.set_default_timeout(15000)

    # The organiser creates a game: 4 players, 8 teams, 2 each, resolved when all are ready.
    visit(organiser, server + "/")
    organiser.fill("input[name=name]", "Browser cup")
    organiser.select_option("select[name=arrangement]", "4-8-2")
    organiser.fill("input[name=deadline_hours]", "0")
    # The teams nobody plays: field-reader leaning toward a knockout weight of 1 (the weight's own box).
    organiser.select_option("select[name=default_bot]", "field-reader")
    organiser.fill("input[name=default_bot_weight]", "1")
    organiser.click("#create-game button[type=submit]")
    expect(organiser.locator("#organiser-link")).to_be_visible()
    expect(organiser.locator("#solo")).to_contain_text("played by the bot field-reader@1 (R13)")
    invites = [local(link, server) for link in organiser.locator("code.invite").all_inner_texts()]
    assert len(invites) == 4
    shot(organiser, "created")
    organiser.click("#to-organise")
    organise_url = organiser.url
    base = organise_url.removesuffix("/organise")

    # Each player opens their invite in their own browser and picks a name.
    players = join_by_invites(Pictured(chromium), invites, viewport)

    visit(organiser, organise_url)
    organiser.click("#start button")
    expect(organiser.locator("#order-states")).to_be_visible()
    organiser.evaluate("window.scrollTo(0, 0)")  # Start came back at its note: the picture is of the top
    shot(organiser, "organise")
    # A spectator keeps the public page open: it follows the game by itself.
    spectator = picture_context(chromium, viewport=viewport).new_page()
    visit(spectator, base)
    expect(spectator.locator("#turn")).to_contain_text("1 of 5")

    print(f"set-up done after {time.monotonic() - started:.1f} s")
    for turn in range(1, 6):
        ordered = 0
        for index, page in enumerate(players):
            visit(page, f"{base}/play")
            if turn == 1 and index == 2:
                page.locator("details.autopilot-box > summary").first.click()  # folded until opened
                pilot = page.locator("form.autopilot").first
                pilot.locator("select[name=strategy]").select_option("equilibrium")
                pilot.locator("input[name=weight]").fill("0.4")
                pilot.locator("button[type=submit]").click()
                expect(page.locator("form.autopilot").first).to_contain_text("Now: equilibrium@0.4")
                expect(page.locator("form.autopilot input[name=weight]").first).to_have_value("0.4")
            forms = page.locator("form.order-form")
            for i in range(forms.count()):
                form = page.locator("form.order-form").nth(i)
                team = form.get_attribute("data-team")
                article = page.locator(f"#team-{team}")
                scrum = int(article.locator(".scrum").inner_text())
                force = min(8 + index + turn, scrum)
                flair = 6 if scrum - force >= 6 else 0
                form.locator("input[name=force]").fill(str(force))
                form.locator("input[name=flair]").fill(str(flair))
                if i == 0 and index == turn % 4:
                    # Live odds from the page's own script and sevens.odds: group odds in
                    # turns 1-3, knockout odds with count-back (R9) after.
                    odds = form.locator("output.odds")
                    expect(odds).to_contain_text(f"Your order {force}+{flair}: expected")
                    # A screen reader hears the sentence only, not the table rebuilt at each key.
                    said = form.locator(".odds-said")
                    # What it spends and leaves, and what a win would add but in the final (turn 5).
                    costs = rf"It spends {force + flair} of its {scrum} SCRUM points, leaving {scrum - force - flair} after this match"
                    then = r"\." if turn == 5 else rf" \({scrum - force - flair + 10} if it wins\)\."
                    expect(said).to_have_text(re.compile(rf"^Your order {force} FORCE, {flair} FLAIR: expected [^\n]+ points\. {costs}{then}$"))
                    # One row per distinct opposing order, every bot named once.
                    table = odds.locator("table.odds-table")
                    expect(table.locator("th").nth(3)).to_have_text("draw" if turn <= 3 else "level after count-back")
                    theirs = table.locator("td:nth-child(2)").all_inner_texts()
                    assert len(theirs) == len(set(theirs)) >= 2, theirs
                    named = ", ".join(table.locator("th[scope=row]").all_inner_texts()).split(", ")
                    assert sorted(named) == sorted(STRATEGIES), named
                if turn == 1 and index == 1 and i == 0:
                    # The README's picture of live odds: the odds table whole, not cut at the window's foot.
                    page.set_viewport_size({"width": 1000, "height": 1040})
                    expect(form.locator("output.odds table.odds-table")).to_be_in_viewport(ratio=1)
                    shot(page, "play-order-form")
                    page.set_viewport_size(viewport)
                name = form.get_attribute("data-name")
                form.locator("button[value=ready]").click()
                # The last order of a turn resolves it at once, and the note says so too; the
                # player's last order of a turn the others hold up says it was the last.
                ready = rf"^Order for {re.escape(str(name))} ready \(turn {turn}\)\.( That was the last of your orders this turn\.| Turn {turn} has been resolved: .+)?$"
                expect(page.locator("#message")).to_have_text(re.compile(ready))
                ordered += 1
            if turn == 1 and index == 0:
                # Typed but not sent: when the turn resolves, this page says so rather than
                # reloading over the typing.
                page.locator("form.order-form input[name=force]").first.fill("3")
        if turn == 1:
            expect(spectator.locator("#turn")).to_contain_text("2 of 5", timeout=60000)
            expect(players[0].locator("#live-note")).to_contain_text("moved on", timeout=60000)
            expect(players[0].locator("form.order-form input[name=force]").first).to_have_value("3")
            # A page left on "Order for ... ready" reloads into turn 2 without that note.
            expect(players[1].locator("#message")).to_have_count(0, timeout=60000)
            assert "done=" not in players[1].url
        visit(organiser, organise_url)
        if (
            organiser.locator("#resolve").count()
            and f"Resolve turn {turn} now" in organiser.content()
        ):
            # No player team is left in play (or one missed): the organiser resolves the turn.
            organiser.click("#resolve button")
        print(f"turn {turn} done after {time.monotonic() - started:.1f} s")
        visit(organiser, base)
        if turn < 5:
            expect(organiser.locator("#turn")).to_contain_text(f"{turn + 1} of 5")

    visit(organiser, base)
    expect(organiser.locator("#champion")).to_be_visible()
    expect(organiser.locator("#seed")).to_be_visible()
    organiser.set_viewport_size({"width": 1000, "height": 1400})
    shot(organiser, "game-finished")
    visit(organiser, f"{base}/verify")
    expect(organiser.locator("#verified")).to_be_visible()
    organiser.set_viewport_size({"width": 1000, "height": 560})  # the page is short: no blank half picture
    shot(organiser, "verify")

    visit(organiser, organise_url)
    with organiser.expect_download() as download_info:
        organiser.click("#download")
    path = tmp_path / "record.json"
    download_info.value.save_as(str(path))

    record = json.loads(path.read_text(encoding="utf-8"))
    report = verify_record(record)
    assert report.finished and report.dice_checked and report.champion == record["champion"]
    assert record["draw"] == "game-seed" and report.draw_checked  # the draw is redone from the seed too
    assert record["seed"] is not None and len(record["turns"]) == 5
    names = {p["name"] for p in record["players"]}
    assert names == {"Player 1", "Player 2", "Player 3", "Player 4"}
    # Every order in the group stage was typed in the forms: none was missed (R13).
    group = [m for t in record["turns"][:3] for m in t["matches"]]
    assert not any(m["home_order"]["missed"] or m["away_order"]["missed"] for m in group)


def test_one_person_against_bots_of_their_choosing_in_chromium(picture_server: str, chromium: Any) -> None:
    """One person alone (R13): creates a 16-team game, takes a seat from the created page, starts it,
    picks the bots of the teams nobody plays (house teams, R12, and unclaimed seats) and plays their
    three teams to the end; no turn waits for a bot, and the finished game verifies."""
    from playwright.sync_api import expect

    server = picture_server
    page = picture_context(chromium, viewport={"width": 1000, "height": 900}).new_page()
    page.set_default_timeout(15000)
    visit(page, server + "/")
    page.fill("input[name=name]", "Solo cup")
    page.select_option("select[name=arrangement]", "4-16-3")
    page.fill("input[name=deadline_hours]", "0")
    page.click("#create-game button[type=submit]")
    organise_url = server + str(page.locator("#to-organise").get_attribute("href"))
    expect(page).to_have_url(organise_url)  # a reload shows the organiser page, it creates no second game
    base = organise_url.removesuffix("/organise")
    visit(page, local(str(page.locator("a.take-seat").first.get_attribute("href")), server))
    page.fill("input[name=name]", "Me")
    page.click("#join button[type=submit]")
    expect(page.locator("#lobby")).to_contain_text("You organise this game")

    visit(page, organise_url)
    page.click("#start button")
    house = page.locator("#house-bots tbody tr")
    expect(house).to_have_count(13)  # 4 house teams and the 9 teams of the 3 empty seats
    expect(page.locator("#house-bots")).to_contain_text("house team")
    choices = [("group-blitz", ""), ("group-blitz", ""), ("knockout-saver", ""), ("field-reader", "1")]
    for index, (bot, weight) in enumerate(choices):
        entry = page.locator("#house-bots tbody tr").nth(index)
        entry.locator("select[name=strategy]").select_option(bot)
        entry.locator("input[name=weight]").fill(weight)
        entry.locator("button[type=submit]").click()
        shown = f"{bot}@{weight}" if weight else bot
        expect(page.locator("#house-bots tbody tr").nth(index).locator(".house-bot")).to_have_text(shown)
    expect(page.locator("ol.events")).to_contain_text("chose a bot for a team nobody plays")
    shot(page, "organise-house-bots", part="#house-bots-section")

    # Resolving now asks first; "Cancel" sends nothing.
    asked = _cancelled_question(page, "#resolve button")
    assert asked.startswith("Resolve turn 1 now? An order saved but not marked ready counts as saved"), asked
    page.reload()
    expect(page.locator("#resolve input[name=turn]")).to_have_value("1")
    refused_once = False
    for _ in range(8):
        public = visit(page, base)
        assert public is not None
        if page.locator("#champion").count():
            break
        visit(page, f"{base}/play")
        forms = page.locator("form.order-form")
        teams = [forms.nth(i).get_attribute("data-team") for i in range(forms.count())]
        for team in teams:
            form = page.locator(f"form.order-form[data-team='{team}']")
            scrum = int(page.locator(f"#team-{team} .scrum").inner_text())
            if not refused_once:
                # More than the team holds (each box within its bound): refused beside the form,
                # the typing kept, and a reload reads the page again instead of sending the order.
                refused_once = True
                form.locator("input[name=force]").fill(str(scrum))
                form.locator("input[name=flair]").fill("6")
                form.locator("button[value=save]").click()
                expect(page.locator(f"#order-{team}-summary")).to_contain_text("Not saved:")
                expect(page.locator(f"#order-{team}-summary")).to_be_focused()
                # The box's hint comes first, then the refusal.
                expect(form.locator("input[name=flair]")).to_have_accessible_description(
                    re.compile(r"^Type a number in both boxes: .* R3: the order spends")
                )
                expect(page.locator(f"#team-{team} input[name=force]")).to_have_value(str(scrum))
                expect(page).to_have_url(f"{base}/play#team-{team}")
                page.reload()
                expect(page.locator(".error-summary")).to_have_count(0)
                form = page.locator(f"form.order-form[data-team='{team}']")
            force = min(10, scrum)
            flair = 6 if scrum - force >= 6 else 0
            form.locator("input[name=force]").fill(str(force))
            form.locator("input[name=flair]").fill(str(flair))
            if team == teams[0]:
                odds = form.locator("output.odds")
                opponent = page.locator(f"#team-{team} p strong").first.inner_text()
                mine = {forms.nth(i).get_attribute("data-name") for i in range(forms.count())}
                if opponent in mine:
                    # Two of one's own teams meet in a knockout: one's own autopilot is no house bot.
                    expect(odds).to_contain_text("if they play like")
                    expect(odds).not_to_contain_text("Nobody manages them")
                else:
                    # Any other opponent is a bot: the odds say which one, its row in bold.
                    expect(odds).to_contain_text("Nobody manages them: the bot ")
                    expect(odds.locator("tr.their-bot")).to_contain_text("(plays them)")
            name = form.get_attribute("data-name")
            form.locator("button[value=ready]").click()
            expect(page.locator("#message")).to_contain_text(f"Order for {name} ready")
        if not teams:  # all three out: the organiser resolves each turn
            visit(page, organise_url)
            page.once("dialog", lambda dialog: dialog.accept())
            page.click("#resolve button")
    expect(page.locator("#champion")).to_be_visible()
    report = page.locator("section.reports").inner_text()
    assert "bot group-blitz" in report and "bot field-reader@1" in report
    visit(page, f"{base}/verify")
    expect(page.locator("#verified")).to_be_visible()

    # A rematch with the same settings: one click, then Start, and the same three teams' forms.
    visit(page, organise_url)
    page.click("#rematch button")
    expect(page.locator("#rematch-of")).to_contain_text("This browser has taken seat 1 again as Me.")
    expect(page.locator("code.invite")).to_have_count(3)
    page.click("#to-organise")
    assert page.url != organise_url
    page.click("#start button")
    visit(page, page.url.replace("/organise", "/play"))
    expect(page.locator("form.order-form")).to_have_count(3)
    expect(page.locator("h1")).to_contain_text("Solo cup (rematch)")


def _server_time_moved_on(page: Any, by: timedelta) -> None:
    """The answers to ``page``'s polls of its game say the server's time ``by`` later than it is,
    as they would to a page left open that long (its clock fast-forwarded), the server kept short
    of the deadline."""

    def moved_on(route: Any) -> None:
        answer = route.fetch()
        headers = dict(answer.headers)
        said = datetime.fromisoformat(headers["sevens-server-time"])
        route.fulfill(response=answer, headers={**headers, "sevens-server-time": (said + by).isoformat()})

    page.route(re.compile(r"/games/[^/]+/state(\?|$)"), moved_on)  # the player's page asks as its seat: ?as=player


def test_pages_count_down_to_the_deadline(server: str, chromium: Any) -> None:
    """A turn with a deadline: the pages show how long is left in words, and the pause keeps it."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport={"width": 1000, "height": 800}).new_page()
    start_with_one_seat(page, server, "Deadline cup", hours="2")
    expect(page.locator(".countdown")).to_have_text(re.compile(r"^\(in (2 h|1 h 59 min)\)$"))
    # Past the deadline (the page left open three hours, the server not yet at the turn), the page
    # used to say the turn 'is being resolved', which a pause or an extension first makes untrue: it
    # says what happens. (The page counts by the server's time it was given: a browser whose clock
    # is simply ahead still says 2 h, see test_browser_clocks.)
    later = chromium.new_context(viewport={"width": 1000, "height": 800}, storage_state=page.context.storage_state())
    late_page = later.new_page()
    late_page.clock.install(time=datetime.now(UTC))
    # The page checks the server's time at each poll (and takes it again should the phone's clock
    # jump): left open three hours, it would hear the server three hours on too.
    _server_time_moved_on(late_page, timedelta(hours=3))
    visit(late_page, page.url)
    late_page.clock.fast_forward("03:00:00")
    # The organiser page (where start_with_one_seat leaves it) says whose the pause is; the player's
    # page names the organiser.
    expect(late_page.locator(".countdown")).to_have_text(
        "(passed: orders are closed; the turn plays as soon as the server gets to it, unless you pause or "
        "extend the deadline first (below))"
    )
    visit(late_page, page.url.replace("/organise", "/play"))
    late_page.clock.fast_forward("03:00:00")
    expect(late_page.locator(".countdown")).to_have_text(
        "(passed: orders are closed; the turn plays as soon as the server gets to it, unless the organiser "
        "pauses or extends the deadline first)"
    )
    # A poll's answer being fetched when the context closes would raise its error in this thread at
    # the next call on the other page ("Request context disposed").
    late_page.unroute_all(behavior="ignoreErrors")
    later.close()
    page.click("button:has-text(\"Pause the deadline\")")
    expect(page.locator("#paused")).to_have_text(re.compile(r"^paused, (2 h|1 h 59 min) left when it resumes$"))
    page.context.close()


ODDS_HANDLED = """(() => {
  window.oddsHandled = 0;
  const json = Response.prototype.json;
  Response.prototype.json = function () {
    const odds = new URL(this.url).pathname.endsWith('/odds');
    return json.call(this).then((body) => {
      if (odds) { setTimeout(() => { window.oddsHandled += 1; }, 0); }
      return body;
    });
  };
})()"""
"""An init script that counts the answers to the odds' requests the page's script has read and
acted on: the count goes up in a task of its own, after the promise callbacks that read the body
(and show or drop it) have run."""


def test_live_odds_show_the_order_typed_last(server: str, chromium: Any) -> None:
    """The odds of a draft typed first (FORCE alone) may come back after those of what was typed
    since (a slow answer, a busy server): they must not replace them. The first request is held
    back here until the whole order's odds are shown, then let through."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport={"width": 1000, "height": 800}).new_page()
    organise_url = start_with_one_seat(page, server, "Odds cup", hours="0")
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(re.compile(r"/odds$"), hold_the_first)
    page.add_init_script(ODDS_HANDLED)
    asked: list[Any] = []
    page.on("request", lambda request: asked.append(request) if request.url.endswith("/odds") else None)
    visit(page, organise_url.replace("/organise", "/play"))
    form = page.locator("form.order-form").first
    form.locator("input[name=force]").fill("7")
    for _ in range(100):  # asked once the script's 250 ms wait after the last key is over
        if held:
            break
        page.wait_for_timeout(50)
    form.locator("input[name=flair]").fill("3")
    odds = form.locator("output.odds")
    expect(odds).to_contain_text("Your order 7+3: expected")
    first = held[0].request
    # The draft rides in the body: an address is what access logs keep. FLAIR, still empty, is
    # sent empty: the server says it took it as 0 (assumed_zero), and the form would refuse it.
    sent = urllib.parse.parse_qs(first.post_data or "", keep_blank_values=True)
    assert len(held) == 1 and first.method == "POST" and sent.get("force") == ["7"] and sent.get("flair") == [""], sent
    assert f"team={form.get_attribute('data-team')}&" in (first.post_data or "")  # this form's own
    assert "force" not in first.url
    held[0].continue_()
    # Every answer asked for has been read and acted on, the held one too: a fixed wait (it was
    # 1.5 s) can end before the answer comes on a loaded machine, and the checks below then pass
    # whatever the page does with it.
    page.wait_for_function("n => window.oddsHandled >= n", arg=len(asked))
    expect(odds).to_contain_text("Your order 7+3: expected")
    expect(form.locator(".odds-said")).to_have_text(re.compile(r"^Your order 7 FORCE, 3 FLAIR: expected"))
    page.context.close()


def test_pages_fit_a_phone(server: str, chromium: Any) -> None:
    """At 390 px no page is wider than the screen (a wide table scrolls inside itself), and the
    order form's fields are big enough to tap."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    organise_url = start_with_one_seat(page, server, "Phone cup", hours="0")
    base = organise_url.removesuffix("/organise")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resolve button")  # a turn of reports, dice and tables to lay out
    expect(page.locator("#resolve input[name=turn]")).to_have_value("2")
    from browser.test_browser_a11y import settled

    for url in (server + "/", base, f"{base}/play", organise_url, f"{base}/verify"):
        visit(page, url)
        settled(page)  # the player's page with its odds' tables in: they come after load
        wide = page.evaluate("document.scrollingElement.scrollWidth")
        assert wide <= 390, (url, wide)
    visit(page, f"{base}/play")
    box = page.locator("form.order-form input[name=force]").first.bounding_box()
    assert box is not None and box["height"] >= 44
    page.context.close()


# How many lines each shown column header of a table takes (its text's line boxes).
_HEADER_LINES = """t => Object.fromEntries(Array.from(t.querySelectorAll('thead th:not(.decided)'), th => {
  const range = document.createRange();
  range.selectNodeContents(th);
  return [th.textContent, range.getClientRects().length];
}))"""


def test_group_tables_fit_a_phone_with_how_each_place_was_decided(server: str, chromium: Any) -> None:
    """At 360 px the 16-team game's group tables, played out (three-figure points), fit the screen
    with nothing to scroll sideways: "place decided by (R8)" was off to the right of the scroll
    (370-395 px in 336); now it is on a line of its own under each team's figures, led by the
    column's name. A screen reader still reads a table, that column's header and all."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True).new_page()
    organise_url = start_with_one_seat(page, server, "Phone tables", hours="0", arrangement="16-16-1")
    page.on("dialog", lambda dialog: dialog.accept())
    for turn in (1, 2, 3):
        visit(page, organise_url)
        if page.locator(f"#resolve input[name=turn][value='{turn}']").count():
            page.click("#resolve button")
    visit(page, organise_url.removesuffix("/organise"))
    tables = page.locator("section.tables table")
    assert tables.count() == 4
    for index in range(4):
        table = tables.nth(index)
        name = table.get_attribute("id")
        assert "(final)" in table.locator("caption").inner_text()
        box = table.evaluate("t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
        assert box[0] <= box[1], (name, box)
        shown = table.evaluate("t => t.parentElement.getBoundingClientRect().right")
        points = table.evaluate("t => t.querySelector(\"th[title='league points']\").getBoundingClientRect().right")
        assert points <= shown, (name, points, shown)
        # Each header on one line: "Pts" once broke into "Pt" and "s" in too narrow a column.
        lines = table.evaluate(_HEADER_LINES)
        assert set(lines.values()) == {1}, (name, lines)
        rows = table.locator("tbody tr")
        assert rows.count() == 4
        for row in rows.all():
            decided = row.locator("td.decided")
            assert re.fullmatch(r"Place decided by: [a-z -]+", decided.inner_text()), decided.inner_text()
            team, under = row.locator("th").bounding_box(), decided.bounding_box()
            assert team and under and under["y"] >= team["y"] + team["height"] - 1, (name, team, under)
            assert under["x"] + under["width"] <= shown, (name, under)
        # To a screen reader still a table: its rows, the team naming each, the column's header.
        expect(table.get_by_role("columnheader", name="Place decided by (R8)")).to_have_count(1)
        expect(table.get_by_role("rowheader")).to_have_count(4)
        expect(table.get_by_role("row")).to_have_count(5)
    page.context.close()


def test_new_organiser_link_asks_first_and_is_shown_once(server: str, chromium: Any) -> None:
    """'New organiser link' asks first (Cancel sends nothing); the new link is shown once, the
    address bar then names the organiser page (a reload does not make another), and the old
    link opens nothing."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport={"width": 1000, "height": 760}).new_page()
    page.set_default_timeout(15000)
    visit(page, server + "/")
    page.fill("input[name=name]", "Link cup")
    page.click("#create-game button[type=submit]")
    old = page.locator("#organiser-link").inner_text()
    page.click("#to-organise")
    organise_url = page.url
    asked = _cancelled_question(page, "#new-organiser-link button")
    assert asked.startswith("Make a new organiser link? The old link stops working"), asked
    assert page.url == organise_url
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#new-organiser-link button")
    expect(page.locator("h1")).to_contain_text("New organiser link")
    new = page.locator("#organiser-link").inner_text()
    assert new != old and new.startswith(server + "/organiser/")
    expect(page).to_have_url(organise_url)
    page.reload()
    expect(page.locator("ol.events")).to_contain_text("made a new organiser link")
    assert page.locator("ol.events li", has_text="made a new organiser link").count() == 1
    other = chromium.new_context().new_page()
    assert visit(other, old).status == 404
    assert visit(other, new).status == 200
    page.context.close()
    other.context.close()


def test_a_game_past_the_limit_says_when_and_keeps_the_form(one_game_server: str, chromium: Any) -> None:
    """Past the limit on new games the form comes back with what was typed still in it and, at its
    top (focused), what was wrong and when to try again; a reload reads the home page, it does not
    post the form again."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport={"width": 1000, "height": 760}).new_page()
    page.set_default_timeout(15000)
    visit(page, one_game_server + "/")
    page.fill("input[name=name]", "First cup")
    page.click("#create-game button[type=submit]")
    expect(page.locator("#organiser-link")).to_be_visible()
    visit(page, one_game_server + "/")
    page.fill("input[name=name]", "Second cup")
    page.fill("input[name=deadline_hours]", "6")
    page.click("#create-game button[type=submit]")
    summary = page.locator("#create-game-summary")
    expect(summary).to_contain_text(
        "too many new games from your address: this server allows 1 an hour from one address; "
        "nothing was created, try again in 60 minutes"
    )
    expect(summary).to_be_focused()
    expect(page.locator("input[name=name]")).to_have_value("Second cup")
    expect(page.locator("input[name=deadline_hours]")).to_have_value("6")
    assert page.url == one_game_server + "/"
    page.context.close()


def test_a_rematchs_invites_say_whom_each_is_for(server: str, chromium: Any) -> None:
    """The created page of a rematch listed its invite links by seat number only: the names the
    seats had in the game over were in the box to copy, not beside the links the organiser sends
    one by one. Each link of the list now follows its seat's name."""
    from playwright.sync_api import expect

    page, organise, invites = create_game(chromium, server, "Named cup", viewport={"width": 1000, "height": 800})
    guest = chromium.new_context().new_page()
    visit(guest, invites[1])
    guest.fill("input[name=name]", "Bartholomew")
    guest.click("#join button[type=submit]")
    guest.wait_for_url(re.compile(r"/play$"))
    guest.context.close()
    visit(page, organise)
    page.click("#end button")
    page.click("#rematch button")
    expect(page.locator("#rematch-of")).to_be_visible()
    assert on_screen(page.locator("#invites li[data-player=p2]")).strip().startswith("Bartholomew: http")
    expect(page.locator("#invites li[data-player=p2] .seat-name")).to_have_text("Bartholomew:")
    assert page.locator("#all-links").input_value().startswith("Seat 1")
    page.context.close()
