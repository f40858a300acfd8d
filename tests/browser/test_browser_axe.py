"""axe-core's WCAG rules on every state a page shows, in both colour schemes, at both widths, with
and without the page's script, in real headless Chromium; and what a screen-reader or keyboard
user meets when the page's poll finds the game moved on.

test_browser_a11y.py walks one game with the script on, light, at 1000 and 360 px, and fails only
at axe's "moderate" impact and worse. Here every rule axe-core tags WCAG 2.0, 2.1 or 2.2 A or AA
runs (with test_browser_a11y.py's extras), at every impact, on each state: in light and dark
(prefers-color-scheme), at 1280 px and at 320 px (a 1280 px window at 400%, WCAG 1.4.10), with
the script and without it (every page works without it; the live odds are then absent), each
setting in two of four cases. The
games are set up once, by the first case, on a server all the cases share; each state is then
opened (and a form sent where the state is a form's answer) in a fresh browser sharing the
cookies of whoever sees it (the 429 page comes from a server of the case's own). A case fails
listing each violation (state, rule, element, help), and each state that did not come as meant.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.browser_helpers import TEST_POLL_SECONDS, serve, start_with_one_seat, type_order, visit
from browser.test_browser_a11y import _FOCUSED, DESKTOP, EXTRA_RULES, settled
from sevens.rules.fairdice import seed_commitment

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
WIDTHS = {"1280": {"width": 1280, "height": 800}, "320": {"width": 320, "height": 640}}


def wcag_violations(page: Any, where: str) -> list[str]:
    """Every violation axe-core finds on ``page`` of its WCAG A and AA rules, whatever its impact:
    one line per element, with the rule, the element and the rule's help."""
    from axe_playwright_python.sync_playwright import Axe

    options = {
        "runOnly": {"type": "tag", "values": WCAG_TAGS},
        "resultTypes": ["violations"],
        "rules": {rule: {"enabled": True} for rule in EXTRA_RULES},
    }
    found = []
    for violation in Axe().run(page, options=options).response["violations"]:
        for node in violation["nodes"]:
            target = " ".join(str(t) for t in node["target"])
            found.append(f"{where}: {violation['id']} ({violation['impact']}) at {target}: {violation['help']}")
    return found


class Games:
    """The games the states are taken from, set up once: the cookies of each who sees them, and
    their addresses."""

    def __init__(self, chromium: Any, server: str, database: Path) -> None:
        from playwright.sync_api import expect

        self.server = server
        # The case under way's own server, which the 429 state sends wrong secrets to (set by
        # each case): the shared one never refuses this address, so no case waits for the next.
        self.refusing = server
        setup = {"viewport": WIDTHS["1280"]}

        def browser() -> Any:
            page = chromium.new_context(**setup).new_page()
            page.set_default_timeout(15000)
            page.on("dialog", lambda dialog: dialog.accept())
            return page

        def create(page: Any, name: str, hours: str) -> tuple[str, list[str]]:
            visit(page, server + "/")
            page.fill("input[name=name]", name)
            page.fill("input[name=deadline_hours]", hours)
            page.click("#create-game button[type=submit]")
            organise = server + str(page.locator("#to-organise").get_attribute("href"))
            return organise, page.locator("code.invite").all_inner_texts()

        def join(page: Any, invite: str, name: str) -> None:
            visit(page, invite)
            page.fill("input[name=name]", name)
            page.click("#join button[type=submit]")
            expect(page).to_have_url(re.compile(r"/play$"))

        org = browser()
        # A lobby: the organiser plays seat 1, seat 3's invite is left open.
        self.lobby, invites = create(org, "Lobby cup", "24")
        join(org, invites[0], "Me")
        self.open_invite = invites[2]
        guest = browser()
        join(guest, invites[1], "Guest")
        self.used_invite = invites[1]
        # Running, with a deadline: turn 1 resolved (a turn report), then on turn 2 one team's order
        # saved and the other's ready.
        self.running, invites = create(org, "Running cup", "24")
        join(org, invites[0], "Me")
        visit(org, self.running)
        org.click("#start button")
        org.click("#resolve button")
        expect(org.locator("#resolve input[name=turn][value='1']")).to_have_count(0)
        self.running_play = self.running.removesuffix("/organise") + "/play"
        visit(org, self.running_play)
        forms = org.locator("form.order-form")
        expect(forms.first).to_be_visible()
        type_order(forms.nth(0), 10, 9)
        forms.nth(0).locator("button[value=ready]").click()
        expect(org.locator("#message")).to_be_visible()
        if forms.count() > 1:
            type_order(forms.nth(1), 10, 9)
            forms.nth(1).locator("button[value=save]").click()
            expect(org.locator("#message")).to_be_visible()
        # Paused.
        self.paused, invites = create(org, "Paused cup", "24")
        join(org, invites[0], "Me")
        visit(org, self.paused)
        org.click("#start button")
        org.click("button:has-text('Pause the deadline')")
        expect(org.locator("#paused")).to_be_visible()
        # Over: played to the end by the organiser's resolves, with the bracket.
        self.over, invites = create(org, "Finished cup", "24")
        join(org, invites[0], "Me")
        visit(org, self.over)
        org.click("#start button")
        for _ in range(8):
            visit(org, self.over)
            if not org.locator("#resolve").count():
                break
            turn = org.locator("#resolve input[name=turn]").input_value()
            org.click("#resolve button")
            expect(org.locator(f"#resolve input[name=turn][value='{turn}']")).to_have_count(0)
        # Over, and then damaged in the database: another seed, with its commitment, so that the
        # dice in the record are not those of the seed revealed and verification fails.
        self.damaged, _ = create(org, "Damaged cup", "0")
        visit(org, self.damaged)
        org.click("#start button")  # nobody joined: the bots play it to the end at once
        other, public_id = "ab" * 32, self.damaged.split("/")[-2]
        with sqlite3.connect(database) as db:
            text, was = db.execute(
                "SELECT record_json, seed_sha256 FROM games WHERE public_id = ?", (public_id,)
            ).fetchone()
            text = text.replace(was, seed_commitment(other))
            db.execute(
                "UPDATE games SET seed_hex = ?, seed_sha256 = ?, record_json = ? WHERE public_id = ?",
                (other, seed_commitment(other), text, public_id),
            )
        # A lobby whose row holds a time the server cannot read (as a hand-edited database could):
        # its page fails with an unexpected error, the page with a reference. The guest's, so that
        # no page of the organiser's lists it.
        self.broken, _ = create(guest, "Broken cup", "24")
        with sqlite3.connect(database) as db:
            db.execute("UPDATE games SET created_at = 'not a time' WHERE public_id = ?", (self.broken.split("/")[-2],))
        self.organiser = org.context.storage_state()
        self.player = guest.context.storage_state()
        org.context.close()
        guest.context.close()

    def game(self, organise: str, page: str = "") -> str:
        return organise.removesuffix("/organise") + page


# A state: what it is called, whose cookies see it ("organiser", "player" or "" for a stranger),
# whether it works without JavaScript, and how to reach it from a fresh page.
State = tuple[str, str, bool, Callable[[Any, Games], None]]


def _go(where: Callable[[Games], str], shows: str) -> Callable[[Any, Games], None]:
    """Open the address ``where`` gives, which shows the element ``shows`` (the state is the one meant)."""

    def reach(page: Any, games: Games) -> None:
        visit(page, where(games))
        page.locator(shows).first.wait_for()

    return reach


def _refused_create(page: Any, games: Games) -> None:
    visit(page, games.server + "/")
    page.fill("input[name=deadline_hours]", "soon")
    page.click("#create-game button[type=submit]")
    page.locator("#create-game-summary").wait_for()


def _created(page: Any, games: Games) -> None:
    visit(page, games.server + "/")
    page.fill("input[name=name]", "Created cup")
    page.click("#create-game button[type=submit]")
    page.locator("#organiser-link").wait_for()


def _expired_form(page: Any, games: Games) -> None:
    visit(page, games.server + "/")
    page.context.clear_cookies()  # the form's token no longer matches any cookie
    page.click("#create-game button[type=submit]")
    page.locator("#create-game-summary").wait_for()


def _refused_join(page: Any, games: Games) -> None:
    visit(page, games.open_invite)
    page.fill("input[name=name]", "   ")
    page.click("#join button[type=submit]")
    page.locator("#join-summary").wait_for()


def _refused_house_bot(page: Any, games: Games) -> None:
    visit(page, games.paused)
    form = page.locator("#house-bots form").first
    form.locator("input[name=weight]").fill("lots")
    form.locator("button").click()
    page.locator(".error-summary").wait_for()


def _refused_order(page: Any, games: Games) -> None:
    visit(page, games.game(games.paused, "/play"))
    form = page.locator("form.order-form").first
    scrum = page.locator(f"#team-{form.get_attribute('data-team')} .scrum").inner_text()
    form.locator("input[name=force]").fill(scrum)  # and FLAIR besides: more than the scrum (R3)
    form.locator("input[name=flair]").fill("6")
    form.locator("button[value=save]").click()
    page.locator(".error-summary").wait_for()


def _typed_order(page: Any, games: Games) -> None:
    visit(page, games.game(games.paused, "/play"))
    form = page.locator("form.order-form").first
    type_order(form, 10, 9)  # the boxes start empty, and empty boxes ask for no odds
    if page.evaluate("typeof watchOdds === 'function'"):  # the script ran: its odds table comes
        form.locator("output.odds table").wait_for()


def _pressed_again(page: Any, games: Games) -> None:
    visit(page, games.paused)
    # The paused game's Resume, sent as a form of the running game it showed before: the page
    # as it stands comes back (409) with a note.
    page.evaluate(
        "f => { f.action = f.action.replace('/resume', '/pause'); }",
        page.locator("form[action$='/resume']").element_handle(),
    )
    page.locator("form[action$='/pause'] button").click()
    page.locator("#notice").wait_for()


def _too_many(page: Any, games: Games) -> None:
    for _ in range(30):
        answer = visit(page, f"{games.refusing}/join/not-an-invite")
        if answer.status == 429:
            return
    raise AssertionError("no 429 after 30 wrong invites")


STATES: list[State] = [
    ("front page, public games listed", "", True, _go(lambda g: g.server + "/", "#public-games")),
    ("front page, one's games", "organiser", True, _go(lambda g: g.server + "/", "a.organise-link")),
    ("front page, create form refused", "", True, _refused_create),
    ("links shown once", "", True, _created),
    ("front page, expired form", "", True, _expired_form),
    ("invite, join form", "", True, _go(lambda g: g.open_invite, "#join")),
    ("invite, name refused", "", True, _refused_join),
    ("invite, already used (409)", "", True, _go(lambda g: g.used_invite, "#invite-gone")),
    ("invite of a second seat", "player", True, _go(lambda g: g.open_invite, "#other-seat")),
    ("organiser page, lobby", "organiser", True, _go(lambda g: g.lobby, "#start")),
    ("organiser page, running with deadline", "organiser", True, _go(lambda g: g.running, "#extend")),
    ("organiser page, paused, house bots", "organiser", True, _go(lambda g: g.paused, "#house-bots")),
    ("organiser page, house bot refused", "organiser", True, _refused_house_bot),
    ("organiser page, pressed again (409)", "organiser", True, _pressed_again),
    ("organiser page, over", "organiser", True, _go(lambda g: g.over, "#new-organiser-link")),
    ("player page, lobby", "player", True, _go(lambda g: g.game(g.lobby, "/play"), "#lobby")),
    ("player page, order forms and live odds", "organiser", True, _typed_order),
    ("player page, order refused", "organiser", True, _refused_order),
    ("player page, turn report, saved and ready", "organiser", True, _go(lambda g: g.running_play, "form.order-form")),
    ("player page, over with bracket", "organiser", True, _go(lambda g: g.game(g.over, "/play"), "section.bracket")),
    ("spectator page, running", "", True, _go(lambda g: g.game(g.running), "#turn")),
    ("spectator page, over with bracket", "", True, _go(lambda g: g.game(g.over), "#champion")),
    ("team page, over: its whole tournament", "", True, _go(lambda g: g.game(g.over, "/teams/fiji"), "#team-matches")),
    ("team page, running: its match to play", "", True, _go(lambda g: g.game(g.running, "/teams/fiji"), "#next-match")),
    ("verify, good record", "", True, _go(lambda g: g.game(g.over, "/verify"), "#verified")),
    ("verify, damaged record", "", True, _go(lambda g: g.game(g.damaged, "/verify"), "#verify-failed")),
    ("game page, damaged record", "", True, _go(lambda g: g.game(g.damaged), "#stored-record")),
    ("organiser page, damaged record, Delete", "organiser", True, _go(lambda g: g.damaged, "#delete")),
    ("error 500, unexpected, with a reference", "", True, _go(lambda g: g.game(g.broken), "#reference")),
    ("error 404", "", True, _go(lambda g: g.server + "/no/such/page", "h1:has-text('Sorry: 404')")),
    ("error 403, a stranger at the organiser page", "", True, _go(lambda g: g.running, "h1:has-text('Sorry: 403')")),
    ("error 403, a stranger at a player's page", "", True, _go(lambda g: g.game(g.running, "/play"), "h1:has-text('Sorry: 403')")),
    # Last: from here on this address is refused wrong secrets by the case's own server for a while.
    ("error 429, too many wrong invites", "", True, _too_many),
]


@pytest.fixture(scope="module")
def axe_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, dict[str, Games]]]:
    """One server for every case, its games set up by the first (kept in the dict): a case sets
    up nothing of its own there."""
    folder = tmp_path_factory.mktemp("axe")
    running = serve(folder)
    yield next(running), folder / "browser.sqlite3", {}
    next(running, None)


@pytest.fixture
def refusing_server(tmp_path: Path) -> Iterator[str]:
    """A case's own server for the 429 state: six wrong secrets in ten seconds get 429. Where the
    shared server gave it, each case slept the ten seconds out so that the next could open an
    invite there (40 s of the file's run)."""
    yield from serve(tmp_path, rate_limit_attempts=5, rate_limit_window_seconds=10)


# Each scheme, width and script setting in two of four cases (pairwise), not all eight: the pages
# paint their own colours in either scheme, and a case takes one to two minutes.
@pytest.mark.parametrize(
    ("scheme", "width", "script"),
    [("light", "1280", True), ("light", "320", False), ("dark", "320", True), ("dark", "1280", False)],
    ids=["light-1280px-script", "light-320px-no-script", "dark-320px-script", "dark-1280px-no-script"],
)
def test_axe_finds_no_wcag_violation_in_any_state(
    axe_server: tuple[str, Path, dict[str, Games]], refusing_server: str, chromium: Any, scheme: str, width: str,
    script: bool,
) -> None:
    """axe-core's WCAG 2.0/2.1/2.2 A and AA rules find nothing, at any impact, on any state of any
    page, in this colour scheme and width, with the page's script or without it."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    server, database, built = axe_server
    if "games" not in built:
        built["games"] = Games(chromium, server, database)
    games = built["games"]
    games.refusing = refusing_server
    cookies = {"organiser": games.organiser, "player": games.player, "": None}
    touch = WIDTHS[width]["width"] < 600
    found: list[str] = []
    for what, who, without_script, reach in STATES:
        if not (script or without_script):
            continue
        context = chromium.new_context(
            viewport=WIDTHS[width], color_scheme=scheme, is_mobile=touch, has_touch=touch,
            storage_state=cookies[who],
        )
        if not script:
            # The page without its script: app.js is its only one and no template has a
            # <noscript>, so this is the page as a browser with JavaScript off shows it. Turning
            # JavaScript off in Chromium would stop axe-core too (its run never ends).
            context.route(re.compile(r"\.js(\?.*)?$"), lambda route: route.abort())
        page = context.new_page()
        page.set_default_timeout(15000)
        page.on("dialog", lambda dialog: dialog.accept())
        where = f"{what}, {scheme}, {width} px, script {'on' if script else 'off'}"
        try:
            reach(page, games)
            if script:
                settled(page)
        except PlaywrightTimeout as exc:  # said with the rest, and axe-core runs on what came instead
            found.append(f"{where}: not the state meant: {str(exc).splitlines()[-1].strip()}")
        found.extend(wcag_violations(page, where))
        context.close()
    assert not found, "axe-core found:\n" + "\n".join(found)


# Each change of what a live region says (polite or assertive, a status, an alert, a log), as the
# screen reader is told of it: the region's role or politeness and its words, in order.
_HEARD = """() => {
  window.heard = [];
  const live = '[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]';
  new MutationObserver(changes => {
    for (const change of changes) {
      const node = change.target.nodeType === 1 ? change.target : change.target.parentElement;
      const region = node && node.closest(live);
      if (region && region.textContent.trim()) {
        window.heard.push((region.getAttribute('role') || region.getAttribute('aria-live')) + ': ' + region.textContent.trim());
      }
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""

# How many polls the page has taken in: each that finds the game as it was sets the "Up to date
# at" time again. Observed after _HEARD's observer, so what a poll said is heard when it counts.
_POLLS_TAKEN_IN = """() => {
  window.pollsTakenIn = 0;
  new MutationObserver(() => { window.pollsTakenIn += 1; })
    .observe(document.getElementById('as-of'), { attributes: true, attributeFilter: ['datetime'] });
}"""


def test_a_focused_reader_keeps_the_focus_and_hears_once_that_the_turn_moved_on(server: str, chromium: Any) -> None:
    """A keyboard or screen-reader user resting on a button of their page while the page polls:
    polls that find nothing new say nothing to any live region (the countdown and "Up to date at"
    change, unannounced); when the organiser resolves the turn, the page does not reload under
    them (the very element keeps the focus, with its focus ring) and a polite status says once
    that the game moved on, next to where they are."""
    from playwright.sync_api import expect

    org = chromium.new_context(viewport=DESKTOP).new_page()
    org.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(org, server, "Quiet cup", hours="24")
    player = org.context.new_page()
    player.set_default_timeout(15000)
    visit(player, organise.removesuffix("/organise") + "/play")
    settled(player)
    save = player.locator("form.order-form").first.locator("button[value=save]")
    player.keyboard.press("Tab")  # the reader is at the keyboard: the focus ring shows
    save.focus()
    player.evaluate("() => { document.activeElement.dataset.mine = 'yes'; }")  # gone if the page reloads
    player.evaluate(_HEARD)
    # Two polls of the live page answered and taken in (each sets "Up to date at" again), rather
    # than a fixed wait: 1 to 2 s at the test server's pace, and never fewer than two on a loaded machine.
    player.evaluate(_POLLS_TAKEN_IN)
    player.wait_for_function("() => window.pollsTakenIn >= 2", timeout=30_000)
    assert player.evaluate("window.heard") == [], "a poll that found nothing new was announced"
    visit(org, organise)
    org.click("#resolve button")
    note = player.locator("#live-note [role=status]")
    expect(note).to_have_text(re.compile(r"^The game has moved on \(running, turn 2\)\.$"), timeout=20_000)
    expect(player.locator("[data-mine=yes]")).to_be_focused()
    assert player.evaluate(_FOCUSED)[1], "the focused button lost its focus ring"
    # The poll is stopped: nothing more is said over three of the test server's polls.
    player.wait_for_timeout(3_000 * TEST_POLL_SECONDS)
    assert player.evaluate("window.heard") == ["status: The game has moved on (running, turn 2)."]
    org.context.close()
