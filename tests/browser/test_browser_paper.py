"""Paper for a tournament in a club room (docs/web.md, On paper): a finished 16-team game's page
printed in Chromium (print emulation on an A4 page's width, and page.pdf()) holds the final
standing, group tables, bracket and every match's report, with no buttons, links bar or dark
header, and nothing cut at the paper's edge or across a page; the page of a new game's links prints
as a sheet of invites to cut up and hand out, one per seat, the organiser's link kept off it."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from browser.browser_helpers import visit

# An A4 sheet's width at 96 CSS pixels an inch (210 mm), less Chromium's default margins (1 cm each side).
A4_PRINTABLE = {"width": 718, "height": 1047}


def _finished_game(server: str) -> str:
    with httpx.Client(base_url=server, timeout=60) as api:
        made = api.post("/api/v1/games", json={"name": "Club night", "players": 16, "teams": 16, "teams_per_player": 1})
        made.raise_for_status()
        game = str(made.json()["game"])
        auth = {"Authorization": f"Bearer {made.json()['token']}"}
        api.post(f"/api/v1/games/{game}/start", headers=auth).raise_for_status()  # the bots play it through
    return game


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_a_finished_game_prints_whole_and_plain(server: str, chromium: Any) -> None:
    from playwright.sync_api import expect

    game = _finished_game(server)
    page = chromium.new_context(viewport=A4_PRINTABLE).new_page()
    visit(page, f"{server}/games/{game}")
    expect(page.locator("#champion")).to_be_visible()
    page.emulate_media(media="print")
    # What is for the screen alone stays off paper: the links bar, buttons, the site's footer.
    for selector in ("nav.links", "footer", "button", "form"):
        for element in page.locator(selector).all():
            expect(element).to_be_hidden()
    # Black on white: no green header, no tinted page, nothing for a printer to fill in.
    colours = page.evaluate(
        """() => [document.body, document.querySelector('header')].map(e => getComputedStyle(e).backgroundColor)"""
    )
    assert all(c in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)") for c in colours), colours
    assert page.evaluate("getComputedStyle(document.querySelector('header .brand')).color") == "rgb(0, 0, 0)"
    # Everything a club keeps is there: standing, group tables, bracket, every match's report.
    for selector in ("#standing", "section.tables", "section.bracket", "section.reports"):
        expect(page.locator(selector)).to_be_visible()
    expect(page.locator("article.match")).to_have_count(24 + 4 + 2 + 1)
    # The game's address, which paper cannot link to, is printed under its name (only there).
    expect(page.locator("#printed-address")).to_have_text(re.compile(re.escape(f"{server}/games/{game}") + "$"))
    page.emulate_media(media="screen")
    expect(page.locator("#printed-address")).to_be_hidden()
    page.emulate_media(media="print")
    # Nothing runs off the paper's edge: a box that scrolls on screen shows all of its table on
    # paper, where nobody can scroll it, and the bracket's rounds fit the width.
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.table-scroll, .rounds, main')]
               .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className || e.tagName)"""
    )
    assert cut == [], f"cut at the paper's edge: {cut}"
    # A group table, a match's report and a bracket's match are never split across two sheets;
    # a table's head comes again on the next sheet.
    whole = page.evaluate(
        """() => ['.group-table', 'article.match', '.round li', '#standing tr'].map(
               s => getComputedStyle(document.querySelector(s)).breakInside)"""
    )
    assert whole == ["avoid"] * 4, whole
    assert page.evaluate("getComputedStyle(document.querySelector('#standing thead')).display") == "table-header-group"
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and _pages(pdf) >= 3


def test_the_new_games_links_print_as_a_sheet_of_invites(server: str, chromium: Any) -> None:
    from playwright.sync_api import expect

    page = chromium.new_context(viewport=A4_PRINTABLE).new_page()
    visit(page, f"{server}/")
    page.get_by_label("Name", exact=True).fill("Pub sevens")
    page.get_by_label("Players and teams (R12)").select_option("16-16-1")
    page.get_by_role("button", name="Create game").click()
    expect(page.locator("#invites li")).to_have_count(16)
    links = page.locator("#invites code.invite").all_inner_texts()
    page.emulate_media(media="print")
    # A strip per seat: the game, the seat and its whole link, never cut across two sheets.
    strips = page.locator("#invites li")
    for number, strip in enumerate(strips.all(), start=1):
        expect(strip).to_be_visible()
        expect(strip).to_contain_text("Pub sevens")
        expect(strip).to_contain_text(f"Seat {number}")
        expect(strip).to_contain_text(links[number - 1])
        assert strip.evaluate("e => getComputedStyle(e).breakInside") == "avoid"
        # its QR code, 3.2 cm square, with a name of its own
        code = strip.get_by_role("img", name=f"QR code of seat {number}'s invite link")
        expect(code).to_be_visible()
        box = code.bounding_box()
        assert box is not None and abs(box["width"] - 3.2 / 2.54 * 96) < 2 and box["width"] == box["height"]
    # Not the organiser's link (whoever gets that strip would run the game), nor what is for the
    # screen: the box of every link, the copy buttons, "take this seat yourself".
    for selector in ("#organiser-link", "#all-links", ".take-seat", "button", "#to-organise"):
        for element in page.locator(selector).all():
            expect(element).to_be_hidden()
    expect(page.locator("#print-sheet-note")).to_be_hidden()
    page.emulate_media(media="screen")
    expect(page.locator("#print-sheet-note")).to_be_visible()
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and _pages(pdf) >= 2


def _decoded(element: Any) -> list[str]:
    """What a phone's camera reads from ``element`` as printed: its screenshot (at twice the
    pixels, as a camera sees a sheet closer than a screen shows it) decoded by zxing-cpp."""
    import io

    import zxingcpp
    from PIL import Image

    shot = Image.open(io.BytesIO(element.screenshot(animations="disabled")))
    return [found.text for found in zxingcpp.read_barcodes(shot) if found.format == zxingcpp.BarcodeFormat.QRCode]


@pytest.fixture
def proxied(tmp_path: Any) -> Any:
    from browser.browser_helpers import serve
    from sevens.web.testing import PrefixProxy

    for upstream in serve(tmp_path, root_path="/sevens"):
        with PrefixProxy(upstream, "/sevens") as proxy:
            yield proxy


def test_each_printed_strips_qr_code_opens_that_seat_and_a_new_invite_prints_as_a_strip(
    proxied: Any, chromium: Any
) -> None:
    """No test read the codes: each strip's QR code, screenshot as printed and decoded, is exactly
    its seat's invite link, whole, with the server's address and its root path (/sevens), and no
    code is the organiser's link. The page of one seat's new invite link printed as the warning
    and the bare link: it prints as the same strip (the seat's name, the link, a code of it)."""
    from playwright.sync_api import expect

    site = proxied.url
    context = chromium.new_context(viewport=A4_PRINTABLE, device_scale_factor=2)
    context.on("dialog", lambda dialog: dialog.accept())
    page = context.new_page()
    visit(page, f"{site}/")
    page.get_by_label("Name", exact=True).fill("QR night")
    page.get_by_label("Players and teams (R12)").select_option("8-8-1")
    page.get_by_role("button", name="Create game").click()
    expect(page.locator("#invites li")).to_have_count(8)
    links = page.locator("#invites code.invite").all_inner_texts()
    organiser_link = page.locator("#organiser-link").inner_text()
    assert all(re.fullmatch(re.escape(site) + r"/join/[\w-]+", link) for link in links), links
    page.emulate_media(media="print")
    read = [_decoded(strip.locator("svg.qr")) for strip in page.locator("#invites li").all()]
    assert read == [[link] for link in links]
    assert organiser_link not in str(read) and organiser_link.split("/")[-1] not in str(read)

    # Seat 3 is taken, its player signed out, and the organiser prints its new link.
    player = chromium.new_context(viewport=A4_PRINTABLE).new_page()
    visit(player, links[2])
    player.get_by_label("Your display name").fill("Ann")
    player.get_by_role("button", name=re.compile("^Join")).click()
    expect(player.locator("h1")).to_contain_text("QR night")
    page.emulate_media(media="screen")
    page.locator("#to-organise").click()
    page.get_by_role("button", name="Sign out and new link for seat 3", exact=True).click()
    expect(page.locator("#invite-link")).to_be_visible()
    new_link = page.locator("#invite-link").inner_text()
    assert re.fullmatch(re.escape(site) + r"/join/[\w-]+", new_link) and new_link != links[2]
    expect(page.get_by_role("img", name="QR code of seat 3's invite link")).to_be_hidden()
    page.emulate_media(media="print")
    strip = page.locator("#invite-strip")
    expect(strip).to_be_visible()
    for text in ("QR night", "Seat 3", "Ann:", new_link):
        expect(strip).to_contain_text(text)
    assert strip.evaluate("e => getComputedStyle(e).breakInside") == "avoid"
    assert strip.evaluate("e => getComputedStyle(e).display") == "grid"
    code = strip.get_by_role("img", name="QR code of seat 3's invite link")
    expect(code).to_be_visible()
    assert _decoded(code) == [new_link]
    for selector in (".warn", "button", "main a"):
        for element in page.locator(selector).all():
            expect(element).to_be_hidden()
