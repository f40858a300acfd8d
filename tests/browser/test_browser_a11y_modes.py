"""The pages as people with other settings see them, in real headless Chromium: zoomed in until the
window is 320 or 640 CSS px wide (WCAG 1.4.10: a 1280 px window at 400% and at 200%), Windows'
forced colours, and the contrast of every text colour style.css gives against the backgrounds it
is shown on (WCAG 1.4.3: 4.5:1), worked out in the browser from the stylesheet as it applies.
"""

from __future__ import annotations

from typing import Any

import pytest

from browser.browser_helpers import create_game, start_with_one_seat, visit
from browser.test_browser_a11y import _FOCUSED, DESKTOP, PHONE, _loaded_width, phone_problems, walk


@pytest.mark.parametrize(
    "viewport", [{"width": 320, "height": 640}, {"width": 640, "height": 400}], ids=["400%", "200%"]
)
def test_every_page_reflows_when_zoomed_in(server: str, chromium: Any, viewport: dict[str, int]) -> None:
    """Zoomed in to 400% (320 CSS px) no page, nor any table or box in it, scrolls sideways, and
    the phone's other checks hold (the public page's table of teams was 311 px in 296); at 200%
    (640 px, the computer's layout) no page is wider than the window."""
    found: list[str] = []

    def check(page: Any, what: str) -> None:
        if viewport["width"] < 600:
            found.extend(phone_problems(page, what))
            return
        wide, widest = _loaded_width(page)
        if wide > viewport["width"]:
            found.append(f"{what}: the page is {wide} px wide in {viewport['width']} (widest: {widest})")

    walk(chromium, server, viewport, check)
    assert not found, f"at {viewport['width']} CSS px:\n" + "\n".join(found)


def _first_tabs_skip(page: Any, link: str, then: str) -> None:
    """The first Tab on ``page`` reaches a skip link named ``link``, shown on the screen with the
    focus ring; Enter follows it and the next Tab reaches ``then``."""
    from playwright.sync_api import expect

    page.wait_for_load_state("load")
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    expect(skip).to_be_focused()
    expect(skip).to_have_accessible_name(link)
    assert page.evaluate(_FOCUSED)[1], "the skip link shows no focus ring"
    box = skip.bounding_box()
    assert box is not None and box["y"] >= 0 and box["height"] > 0, f"the focused skip link is off the screen: {box}"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator(then)).to_be_focused()


def test_a_skip_link_takes_the_keyboard_to_the_orders_and_the_turns_controls(server: str, chromium: Any) -> None:
    """On a player's page the first Tab offers to skip to their teams, and the next Tab after it
    is the first team's FORCE box; on the organiser's, to the turn's controls, where the next Tab is
    the link to their own team's order and then Resolve; on the game's page, to the turn's matches."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport=DESKTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    organise = start_with_one_seat(page, server, "Skipping cup", hours="24")
    visit(page, organise.removesuffix("/organise") + "/play")
    _first_tabs_skip(page, "Skip to your teams", "form.order-form >> nth=0 >> input[name=force]")
    visit(page, organise)
    # This organiser plays a team not ready yet: the link to its order comes before Resolve.
    _first_tabs_skip(page, "Skip to the turn's controls", "#to-my-teams")
    page.keyboard.press("Tab")
    expect(page.locator("#resolve button")).to_be_focused()
    # The game's page: past its links to the turn's matches, then on to the teams' pages.
    visit(page, organise.removesuffix("/organise"))
    _first_tabs_skip(page, "Skip to this turn's matches", "#teams tbody a >> nth=0")
    page.context.close()


_BUTTONS_WITHOUT_EDGE = """() => Array.from(document.querySelectorAll('button, a.button')).filter(el => {
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) { return false; }
  const style = getComputedStyle(el);
  return style.borderTopStyle === 'none' || parseFloat(style.borderTopWidth) < 1
    || style.borderTopColor === style.backgroundColor;
}).map(el => el.outerHTML.slice(0, 80))"""


def test_buttons_keep_an_edge_in_forced_colours(server: str, chromium: Any) -> None:
    """With Windows' forced colours on, every button and button-like link on the organiser's and
    the player's pages has an edge in a colour of its own: the colours paint the green away, and
    "Save", "Save and mark ready" and "Set" read as words among words."""
    page = chromium.new_context(viewport=DESKTOP, forced_colors="active").new_page()
    organise = start_with_one_seat(page, server, "High contrast cup", hours="24")
    found = []
    for url in (organise, organise.removesuffix("/organise") + "/play", organise.removesuffix("/organise")):
        visit(page, url)
        assert page.evaluate("matchMedia('(forced-colors: active)').matches")
        found += [f"{url}: {button}" for button in page.evaluate(_BUTTONS_WITHOUT_EDGE)]
    page.context.close()
    assert not found, "buttons with no edge in forced colours:\n" + "\n".join(found)


PROBES = [
    # (what, markup put into <main>; its element marked data-probe is the text measured)
    ("page text", '<p data-probe>x</p>'),
    ("the skip link", '<a class="skip-link" href="#x" data-probe>x</a>'),
    ("the header's name", '<header><a class="brand" href="/" data-probe>x</a></header>'),
    ("the header's tag line", '<header><span class="tag" data-probe>x</span></header>'),
    ("the footer", '<footer data-probe>x</footer>'),
    ("a link", '<a href="/x" data-probe>x</a>'),
    ("code", '<code data-probe>x</code>'),
    ("a table's cell", '<table><tr><td data-probe>x</td></tr></table>'),
    ("a button", '<button data-probe>x</button>'),
    ("a red button", '<button class="danger" data-probe>x</button>'),
    ("a link as a button", '<a class="button" href="/x" data-probe>x</a>'),
    ("an error", '<p class="error" data-probe>x</p>'),
    ("a warning", '<p class="warn" data-probe>x</p>'),
    ("a done note", '<p class="ok" data-probe>x</p>'),
    ("a hint", '<span class="hint" data-probe>x</span>'),
    ("a team's box", '<article class="my-team"><p data-probe>x</p></article>'),
    ("a link in a team's box", '<article class="my-team"><a href="/x" data-probe>x</a></article>'),
    ("a done note in a team's box", '<article class="my-team"><p class="ok" data-probe>x</p></article>'),
    ("a hint in a team's box", '<article class="my-team"><span class="hint" data-probe>x</span></article>'),
    ("the odds", '<article class="my-team"><output class="odds" data-probe>x</output></article>'),
    ("a knockout's group records", '<article class="my-team"><p class="if-level"><span class="figures" data-probe>x</span></p></article>'),
    ("the odds refused", '<article class="my-team"><output class="odds"><span class="error" data-probe>x</span></output></article>'),
    ("a field's error", '<span class="field-error" data-probe>x</span>'),
    ("a name box's count past its cap", '<span class="hint char-count too-long" data-probe>x</span>'),
    ("a field's error in a team's box", '<article class="my-team"><span class="field-error" data-probe>x</span></article>'),
    ("an error summary's link", '<div class="error-summary"><a href="#x" data-probe>x</a></div>'),
    ("a notice", '<div class="notice"><p data-probe>x</p></div>'),
    ("a link in a notice", '<div class="notice"><a href="/x" data-probe>x</a></div>'),
    ("the next game", '<p class="next-game" data-probe>x</p>'),
    ("a link to the next game", '<p class="next-game"><a href="/x" data-probe>x</a></p>'),
    ("a live note", '<p class="live-note" data-probe>x</p>'),
    ("a link in a live note", '<p class="live-note"><a href="/x" data-probe>x</a></p>'),
    ("a kept note", '<span class="kept-note" data-probe>x</span>'),
    ("a retired link", '<code class="retired-link" data-probe>x</code>'),
    ("a retired note", '<span class="retired-note" data-probe>x</span>'),
    ("an unsure note", '<span class="unsure-note" data-probe>x</span>'),
    ("a house seat", '<table class="house-bots"><tr><td><span class="house-seat" data-probe>x</span></td></tr></table>'),
    ("a house bot", '<table class="house-bots"><tr><td><span class="house-bot" data-probe>x</span></td></tr></table>'),
    ("a place decided by", '<table class="group-table"><tr><td class="decided" data-probe>x</td></tr></table>'),
    ("a match report's label", '<table class="report"><tr><td><span class="cell-label" data-probe>x</span></td></tr></table>'),
    *[
        (f"an order {state} in a table", f'<table><tr><td class="state-{state}" data-probe>x</td></tr></table>')
        for state in ("none", "unclaimed", "released", "saved", "ready", "house")
    ],
    *[(f"an order {state}", f'<span class="state-{state}" data-probe>x</span>') for state in ("none", "unclaimed", "released", "saved", "ready", "house")],
]
"""Every place style.css colours text, on each background it is shown on."""

# Contrast as WCAG 2 works it out: colours as the browser computed them, a text's opacity (the
# header's tag line) and any see-through background laid over what is under it.
_CONTRAST = """(probes) => {
  const rgba = text => { const p = text.match(/[\\d.]+/g).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3]));
  const channel = c => { c /= 255; return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const box = document.createElement('div');
  document.querySelector('main').appendChild(box);
  const results = probes.map(([what, markup]) => {
    box.innerHTML = markup;
    const el = box.querySelector('[data-probe]');
    const chain = [];
    for (let node = el; node; node = node.parentElement) { chain.unshift(node); }
    let background = [255, 255, 255];
    let opacity = 1;
    for (const node of chain) {
      const style = getComputedStyle(node);
      background = over(rgba(style.backgroundColor), background);
      opacity *= parseFloat(style.opacity);
    }
    // Opacity of the text's own element and those between it and its background's: only the
    // header's tag line has any, and no background of its own.
    const ink = rgba(getComputedStyle(el).color);
    const text = over([ink[0], ink[1], ink[2], ink[3] * opacity], background);
    const [a, b] = [luminance(text), luminance(background)].sort((x, y) => y - x);
    return [what, Math.round((a + 0.05) / (b + 0.05) * 100) / 100, getComputedStyle(el).color, background.map(Math.round).join(',')];
  });
  box.remove();
  return results;
}"""

# Every rule of style.css that sets a text colour, and whether a probe is one it colours.
_COLOUR_RULES = """(probes) => {
  const box = document.createElement('div');
  document.querySelector('main').appendChild(box);
  box.innerHTML = probes.map(([, markup]) => markup).join('');
  const elements = [document.body, ...box.querySelectorAll('*')];
  const rules = [];
  const walk = list => { for (const rule of list) { if (rule.style && rule.style.color) { rules.push(rule.selectorText); } if (rule.cssRules) { walk(rule.cssRules); } } };
  for (const sheet of document.styleSheets) { if (new URL(sheet.href || 'about:blank').pathname === '/static/style.css') { walk(sheet.cssRules); } }
  const unprobed = [];
  for (const selectors of rules) {
    for (const selector of selectors.split(',').map(s => s.trim())) {
      if (!elements.some(el => el.matches(selector))) { unprobed.push(selector); }
    }
  }
  box.remove();
  return [rules.length, unprobed];
}"""


def test_every_text_colour_has_a_contrast_of_4_5_to_1(server: str, chromium: Any) -> None:
    """Each text colour style.css sets, on each background it appears on, at a computer's width and
    a phone's, is at least 4.5:1 against it; and no rule colours text without a probe here."""
    page = chromium.new_context(viewport=DESKTOP).new_page()
    organise = start_with_one_seat(page, server, "Contrast cup", hours="24")
    visit(page, organise.removesuffix("/organise") + "/play")
    rules, unprobed = page.evaluate(_COLOUR_RULES, PROBES)
    assert rules >= 20 and not unprobed, f"rules colouring text with no probe in PROBES: {unprobed}"
    low = []
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        for what, ratio, colour, background in page.evaluate(_CONTRAST, PROBES):
            if ratio < 4.5:
                low.append(f"{what} at {viewport['width']} px: {ratio}:1 ({colour} on rgb({background}))")
    page.context.close()
    print(low)
    assert not low, "text below 4.5:1:\n" + "\n".join(low)


# A player's page's text of each kind: what is read, typed and pressed as well as what is around it.
_TEXT_SIZES = """() => Object.fromEntries([
  'main > p', 'h1', 'form.order-form label', 'form.order-form input[name=force]', 'form.order-form button',
  'table td', '.hint', 'footer',
].map(selector => [selector, parseFloat(getComputedStyle(document.querySelector(selector)).fontSize)]))"""


def test_text_grows_with_the_browsers_text_size(server: str, chromium: Any) -> None:
    """A reader who doubles the browser's text size (Chrome's Settings, Appearance, Font size: 32
    instead of 16) has all of a player's page's text doubled, on a computer and on a phone (WCAG
    1.4.4): the body's 15 px in px left paragraphs, an order's labels, boxes and buttons at 15-16 px
    while headings, hints and tables doubled around them."""
    page = chromium.new_context(viewport=DESKTOP).new_page()
    organise = start_with_one_seat(page, server, "Large print cup", hours="24")
    play = organise.removesuffix("/organise") + "/play"
    cookies = page.context.cookies()
    page.context.close()
    found = []
    for viewport, touch in ((DESKTOP, False), (PHONE, True)):
        sizes = []
        for standard in (16, 32):
            context = chromium.new_context(viewport=viewport, is_mobile=touch, has_touch=touch)
            context.add_cookies(cookies)
            page = context.new_page()
            # the setting a reader changes, as Chromium's DevTools protocol sets it
            cdp = context.new_cdp_session(page)
            cdp.send("Page.enable")
            cdp.send("Page.setFontSizes", {"fontSizes": {"standard": standard, "fixed": standard * 13 // 16}})
            visit(page, play)
            sizes.append(page.evaluate(_TEXT_SIZES))
            context.close()
        normal, large = sizes
        found += [
            f"{what} at {viewport['width']} px: {normal[what]} px, {large[what]} px with the text doubled"
            for what in normal
            if large[what] < 1.9 * normal[what]
        ]
    assert not found, "text that does not grow with the browser's text size:\n" + "\n".join(found)


def test_a_skip_link_takes_the_keyboard_past_the_links_once_the_game_is_over(server: str, chromium: Any) -> None:
    """Once the game was over, the organiser's page had no skip link: the rematch came after the
    page's links and a Remove name button per seat (sixteen in a 16-player game), Tab by Tab. The
    game's page had none either, its final standing after up to eight links. Now the first Tab on
    the organiser's page offers to skip to the rematch, on the game's page to the final standing
    (during the game, to the turn's matches)."""
    from playwright.sync_api import expect

    page, organise, _ = create_game(chromium, server, "Skip at the end cup", viewport=DESKTOP, hours="0")
    base = organise.removesuffix("/organise")
    visit(page, organise)
    page.click("#start button")  # nobody has a seat: the bots play the whole game at once
    expect(page.locator("#rematch button")).to_be_visible()
    visit(page, organise)
    _first_tabs_skip(page, "Skip to the rematch", "#rematch button")
    visit(page, base)
    _first_tabs_skip(page, "Skip to the final standing", "#standing tbody a >> nth=0")
    page.context.close()
