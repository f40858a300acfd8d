"""A player typing faster than the odds come: the drafts typed past are not worked out, and the page
shows the odds of what is in its boxes, never an older draft's."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

from browser.browser_helpers import start_with_one_seat, type_order, visit
from sevens.web.odds_queue import SUPERSEDED
from sevens.web.testing import child_pids

DESKTOP = {"width": 1280, "height": 900}

# Every text the order form's odds showed, in order (its output is replaced at each answer).
RECORD_SHOWN = """
window.shownOdds = [];
document.addEventListener("DOMContentLoaded", function () {
  var out = document.querySelector("form.order-form output.odds");
  new MutationObserver(function () { window.shownOdds.push(out.textContent); })
    .observe(out, { childList: true, subtree: true, characterData: true });
});
"""


def _odds_process() -> int:
    """The test server's odds process (it runs in this process, beside the browser's)."""
    found = [pid for pid in child_pids(os.getpid())
             if b"sevens.web.odds_process" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert len(found) == 1, found
    return found[0]


def test_typing_while_the_odds_are_busy_shows_the_last_drafts_odds(server: str, chromium: Any) -> None:
    """The odds process is held (stopped) while 11, 12 and 13 are typed, each after the last was
    sent: 11 is with the process, 12 waits and is replaced by 13 (409, never worked out; before,
    it was worked out and 13 waited for it). Let go, the page shows 13+9's odds, and neither
    11's answer (which comes back too) nor 12's refusal was ever shown once 13 was typed."""
    from playwright.sync_api import expect

    context = chromium.new_context(viewport=DESKTOP)
    context.add_init_script(RECORD_SHOWN)
    page = context.new_page()
    base = start_with_one_seat(page, server, "Typing cup", hours="24").removesuffix("/organise")
    visit(page, f"{base}/play")
    form = page.locator("form.order-form").first
    odds = form.locator("output.odds")
    type_order(form, 10, 9)
    expect(odds).to_contain_text("10+9")  # the odds process is running
    answers: list[tuple[str, int]] = []
    page.on("response", lambda r: answers.append((r.request.post_data or "", r.status)) if r.url.endswith("/odds") else None)
    held = _odds_process()
    os.kill(held, signal.SIGSTOP)
    try:
        with page.expect_request(lambda r: r.url.endswith("/odds") and "force=11" in (r.post_data or "")):
            form.locator("input[name=force]").fill("11")
        with page.expect_request(lambda r: r.url.endswith("/odds") and "force=12" in (r.post_data or "")):
            form.locator("input[name=force]").fill("12")
        page.wait_for_timeout(300)  # 12's request is read and waiting
        typed_last = page.evaluate("window.shownOdds.length")
        with page.expect_response(lambda r: r.url.endswith("/odds") and "force=12" in (r.request.post_data or "")) as replaced:
            form.locator("input[name=force]").fill("13")
        assert replaced.value.status == 409
        assert replaced.value.json() == {"detail": SUPERSEDED}
    finally:
        os.kill(held, signal.SIGCONT)
    expect(odds).to_contain_text("13+9")
    page.wait_for_function("() => window.shownOdds.length > 0")
    page.wait_for_timeout(300)
    assert sorted((body.split("force=")[1].split("&")[0], status) for body, status in answers) == [
        ("11", 200), ("12", 409), ("13", 200)
    ], answers
    since = page.evaluate("window.shownOdds").copy()[typed_last:]
    assert since and since[-1].startswith("Your order 13+9: expected"), since
    # (A bot's mix may list 11+9 among its orders: only the sentence about the player's order counts.)
    assert not any(text.startswith(("Your order 11+9", "Your order 12+9")) or "newer draft" in text for text in since), since
    context.close()
