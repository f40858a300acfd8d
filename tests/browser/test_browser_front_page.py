"""The front page with games in its lists, in real Chromium at a desktop width and on phones: each
game's line reads as one item, and the docs' picture of the front page shows games listed."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from browser.browser_helpers import PICTURE_TIME, picture_context, shot, visit

LONG_NAME = "The very long annual invitational sevens tournament of the Northern Hemisphere XI"[:80]


def _list_games(tmp_path: Path) -> None:
    """A game of each kind the public list shows, made through the pages of a second app on the
    test server's own database: one running (with an 80-letter name), a lobby, one its organiser
    ended after turn 3, and one played to a champion."""
    from sevens.web.app import create_app
    from sevens.web.settings import Settings
    from web.web_helpers import every_seat_taken, host_game, post_form

    url = f"sqlite:///{tmp_path / 'browser.sqlite3'}"
    # the picture's clock: the list says when a game was ended
    app = create_app(Settings(database_url=url, scheduler=False, migrate=False, games_per_hour=0), clock=lambda: PICTURE_TIME)
    running = host_game(app, name=LONG_NAME)
    running.join("p1", "Ann")
    running.start()
    host_game(app, name="Saturday sevens in the park").join("p1", "Ann")
    ended = every_seat_taken(app, name="Ended early cup")
    ended.resolve(1, 2, 3)
    assert post_form(ended.organiser, f"{ended.base}/end").status_code == 303
    played = host_game(app, hours="0", name="Played cup")
    played.join("p1", "Ann")
    played.start()
    while turn := played.turn():  # once Ann's teams are out, the bots play the rest at once
        played.resolve(turn)
    app.state.engine.dispose()


# For each game's line: the first line of its name (the rectangle the bullet should be beside) and
# its list item's left edge.
FIRST_LINES = """() => Array.from(document.querySelectorAll('ul.games > li')).map(li => {
  const name = document.createRange();
  name.selectNodeContents(li.querySelector('a'));
  const first = name.getClientRects()[0];
  return {text: li.textContent, left: li.getBoundingClientRect().left, top: first.top, bottom: first.bottom};
})"""


def _has_bullet(png: bytes) -> bool:
    """Whether a strip of the screen holds the list's dark bullet (the page's background is light)."""
    from PIL import Image

    strip = Image.open(io.BytesIO(png)).convert("L")
    return bool(strip.getextrema()[0] < 100)


@pytest.mark.parametrize("width", [1280, 390, 320])
def test_each_game_on_the_front_page_has_its_bullet_beside_its_name(picture_server: str, chromium: Any, tmp_path: Path, width: int) -> None:
    """On a phone each game's link is a 44-pixel box to tap, and was one inline: a name that
    wrapped put its line's bullet beside the name's last line (an 80-letter name's bullet at 390
    pixels sat a line below its first, at 320 beside the line under it), so a long name read as
    the end of the game above. The bullet is now beside the first line of every game's name, and
    nothing is wider than the screen."""
    _list_games(tmp_path)
    page = picture_context(chromium, viewport={"width": width, "height": 800}).new_page()
    visit(page, picture_server + "/")
    lines = page.evaluate(FIRST_LINES)
    assert [line["text"].split(" (")[0] for line in lines] == [LONG_NAME, "Saturday sevens in the park", "Played cup", "Ended early cup"]
    assert "(finished, champion " in lines[2]["text"] and "(ended by the organiser on " in lines[3]["text"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    for line in lines:
        page.evaluate(f"window.scrollTo(0, {line['top']} - 100)")  # the line in view, its bullet with it
        top = page.evaluate("window.scrollY")
        clip = {"x": line["left"] - 24, "y": line["top"] - top, "width": 22, "height": line["bottom"] - line["top"]}
        assert _has_bullet(page.screenshot(clip=clip)), f"no bullet beside the first line of {line['text']!r} at {width} px"
    if width == 1280:
        # The docs' picture of the front page (docs/web.md): the form, then the public games.
        page.set_viewport_size({"width": 1000, "height": 760})
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "home", full_page=True)


@pytest.mark.parametrize("width", [1280, 390, 320])
def test_the_sign_out_hint_is_a_paragraph_under_its_button(server: str, chromium: Any, width: int) -> None:
    """The hint after 'Sign out of this browser' ran on beside the button: at 320 px its first word
    ('Your') sat there alone, the rest below it flush left. It is a paragraph of its own under the
    button, which names it as its description for a screen reader."""
    import httpx

    with httpx.Client(base_url=server, timeout=60) as api:
        made = api.post("/api/v1/games", json={"name": "Cup", "players": 4})
        made.raise_for_status()
    page = chromium.new_context(viewport={"width": width, "height": 800}).new_page()
    visit(page, f"{server}/join/{made.json()['invites']['p1']}")
    page.fill("input[name=name]", "Ann")
    page.get_by_role("button", name="Join the game").click()
    page.wait_for_load_state("load")
    visit(page, f"{server}/")
    hint = page.locator("#sign-out + *")  # the hint, whatever its element
    assert hint.inner_text().startswith("Your games here are then closed to this browser")
    shape = hint.evaluate("""(hint) => {
      const button = document.querySelector('#sign-out button').getBoundingClientRect();
      const first = hint.getClientRects()[0];
      return {buttonBottom: button.bottom, buttonLeft: button.left, top: first.top, left: first.left};
    }""")
    assert shape["top"] >= shape["buttonBottom"] - 1, shape  # under the button, not beside it
    assert abs(shape["left"] - shape["buttonLeft"]) <= 1, shape  # lined up with it
    button = page.get_by_role("button", name="Sign out of this browser")
    assert button.get_attribute("aria-describedby") == hint.get_attribute("id") == "sign-out-hint"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
