"""A demanding player and organiser on a 375-pixel phone: what they act on is on the screen, not
off to the right of a table that scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from browser.browser_helpers import CHROMIUM, start_with_one_seat, visit

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (scripts/setup-system)"
    ),
]

PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}

OVERFLOW = """(selector) => Array.from(document.querySelectorAll(selector)).map(
    (table) => { const box = table.closest('.table-scroll'); return [box.scrollWidth, box.clientWidth]; })"""


def _right_edges(page: Any, selector: str) -> list[float]:
    return [float(box["x"] + box["width"]) for box in (el.bounding_box() for el in page.locator(selector).all()) if box]


def test_the_house_bots_menus_and_every_odds_column_fit_a_phone(server: str, chromium: Any) -> None:
    """At 375 pixels the table of the teams nobody plays had five columns, and its menus, weight
    boxes and Set buttons sat off the right edge of the screen; the odds table's last column
    (loss) too. Both now fit: nothing to scroll sideways to, every control on the screen."""
    from playwright.sync_api import expect

    context = chromium.new_context(**PHONE)
    page = context.new_page()
    organise = start_with_one_seat(page, server, "Phone cup", hours="24")
    expect(page.locator("#house-bots")).to_be_visible()
    assert all(scroll <= client for scroll, client in page.evaluate(OVERFLOW, "#house-bots"))
    edges = _right_edges(page, "#house-bots select, #house-bots input[name=weight], #house-bots button")
    assert edges and max(edges) <= 375, edges

    visit(page, organise.removesuffix("/organise") + "/play")
    expect(page.locator(".odds-table")).to_have_count(2)
    sizes = page.evaluate(OVERFLOW, ".odds-table")
    assert all(scroll <= client for scroll, client in sizes), sizes
    assert max(_right_edges(page, ".odds-table th")) <= 375
    context.close()
