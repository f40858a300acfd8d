"""The pages work under their own Content-Security-Policy (``script-src 'self'``, ``style-src
'self'``, no inline code): Chromium reports no rule broken on any page of a game, from the front
page to the verified record, while the pages' scripts do their work (live odds, copying a link,
following the game). An inline style or script added to a template would be blocked silently in
every browser, the page looking or acting wrong with nothing said: this test says it."""

from __future__ import annotations

import re
from typing import Any

from browser.browser_helpers import visit

NOTE_BROKEN_RULES = """
document.addEventListener("securitypolicyviolation", function (event) {
  console.error("CSP broken: " + event.violatedDirective + " by " + (event.blockedURI || "inline") +
    " at " + event.sourceFile + ":" + event.lineNumber + " (" + (event.sample || "") + ")");
});
"""


def _watched(chromium: Any, broken: list[str], **options: Any) -> Any:
    """A page in a browser of its own whose every broken CSP rule, and every script error, is noted
    in ``broken`` with the address it happened at."""
    context = chromium.new_context(viewport={"width": 1000, "height": 800}, **options)
    context.add_init_script(NOTE_BROKEN_RULES)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.on("dialog", lambda dialog: dialog.accept())
    page.on("console", lambda m: broken.append(f"{page.url}: {m.text}") if m.text.startswith("CSP broken") else None)
    page.on("pageerror", lambda error: broken.append(f"{page.url}: script error {error}"))
    return page


def test_no_page_breaks_a_rule_of_its_content_security_policy(server: str, chromium: Any) -> None:
    from playwright.sync_api import expect

    broken: list[str] = []
    organiser = _watched(chromium, broken, permissions=["clipboard-read", "clipboard-write"])
    visit(organiser, server + "/")
    organiser.fill("input[name=name]", "Policy cup")
    organiser.fill("input[name=deadline_hours]", "2")
    organiser.click("#create-game button[type=submit]")
    expect(organiser.locator("#organiser-link")).to_be_visible()
    organiser.locator("#copy-organiser-link").click()  # the copy buttons are the script's
    expect(organiser.locator("#copy-organiser-link-said")).not_to_be_empty()
    invite = organiser.locator("code.invite").first.inner_text()
    organise = server + str(organiser.locator("#to-organise").get_attribute("href"))

    player = _watched(chromium, broken)
    visit(player, invite)
    player.fill("input[name=name]", "Ann")
    player.click("#join button[type=submit]")
    expect(player).to_have_url(re.compile(r"/play$"))
    base = player.url.removesuffix("/play")

    visit(organiser, organise)
    organiser.click("#start button")
    for act in ("pause", "resume"):
        organiser.click(f"form[action$='/{act}'] button")
        expect(organiser.locator("#done")).to_be_visible()
    organiser.fill("#extend input[name=hours]", "1")
    organiser.click("#extend button")
    expect(organiser.locator("#done")).to_contain_text("Deadline moved")

    visit(player, f"{base}/play")
    form = player.locator("form.order-form").first
    form.locator("input[name=force]").fill("12")
    form.locator("input[name=flair]").fill("9")
    expect(form.locator("output.odds table")).to_be_visible()  # the live odds, fetched by the script
    form.locator("button[value=ready]").click()
    expect(player.locator("#message")).to_contain_text("ready (turn 1)")

    spectator = _watched(chromium, broken)
    visit(spectator, base)
    expect(spectator.locator("#turn")).to_contain_text("1 of 5")
    visit(organiser, organise)
    organiser.click("#resolve button")  # every open page follows: the spectator's reloads itself
    expect(spectator.locator("#turn")).to_contain_text("2 of 5")
    organiser.click("#end button")
    for address in (base, f"{base}/verify", f"{base}/play", f"{base}/teams/fiji", organise, server + "/", server + "/no-such-page"):
        visit(spectator, address)
        visit(player, address)
    assert broken == []


def test_the_error_pages_of_a_damaged_record_and_of_an_unexpected_failure_keep_the_policy(
    tmp_path: Any, chromium: Any
) -> None:
    """The pages a game with a damaged record shows (to a spectator, and to its organiser, with the
    Delete form) and the page of an unexpected failure (a row holding a time the server cannot
    read) break no rule of the policy either."""
    import sqlite3

    from playwright.sync_api import expect

    from browser.browser_helpers import serve

    running = serve(tmp_path)
    server = next(running)
    try:
        broken: list[str] = []
        organiser = _watched(chromium, broken)
        made = []
        for name in ("Damaged cup", "Broken cup"):
            visit(organiser, server + "/")
            organiser.fill("input[name=name]", name)
            organiser.click("#create-game button[type=submit]")
            made.append(server + str(organiser.locator("#to-organise").get_attribute("href")))
        visit(organiser, made[0])
        organiser.click("#start button")  # nobody joined: the bots play it to the end at once
        damaged, crashing = (address.split("/")[-2] for address in made)
        with sqlite3.connect(tmp_path / "browser.sqlite3") as db:
            db.execute("UPDATE games SET record_json = substr(record_json, 1, 100) WHERE public_id = ?", (damaged,))
            db.execute("UPDATE games SET created_at = 'not a time' WHERE public_id = ?", (crashing,))
        visit(organiser, made[0])
        expect(organiser.locator("#delete")).to_be_visible()
        visit(organiser, f"{server}/games/{damaged}")
        expect(organiser.locator("#stored-record")).to_be_visible()
        visit(organiser, f"{server}/games/{crashing}")
        expect(organiser.locator("#reference")).to_be_visible()
        assert broken == []
    finally:
        next(running, None)
