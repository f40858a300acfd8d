"""What the pages of a 16-team game weigh at turn 1, turn 3 and the final: each page's body
plain, the same gzipped, their ratio, what the server sent, the bytes each match report on the page
adds (plain and gzipped), and what the game page's bytes are made of (attributes, tags, whitespace).

    .venv/bin/python benchmarks/page_bytes.py              # a 16-team game
    .venv/bin/python benchmarks/page_bytes.py --teams 8    # a 4-player, 8-team game

"sent" is the body this server sends a browser that takes gzip (``Accept-Encoding: gzip``): it is
gzipped whole only where the response holds no secret (docs/web.md, *Security*), so a spectator's
pages shrink whole; a player's or the organiser's page only in its public stretches (bracket, group
tables, match reports), the rest going stored as it is; and the front page, whose create form hands
a visitor a token, only in its blank form and its list of public games (the games of this run). For those two pages at the final it also
prints each section's bytes (by its heading), which of them are public, and what every form repeats
(its hidden fields). SQLite, in process, like benchmarks/web.py.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from sevens.store.db import make_engine, run_migrations
from sevens.store.testing import throwaway_database
from sevens.web.app import create_app
from sevens.web.settings import Settings
from web import host, requests_of  # beside this script, on its sys.path

STAGES = ("t1", "t3", "final")
SKIPPED = ("API poll, 304",)
"""No body at all (a 304)."""


def breakdown(html: str) -> list[tuple[str, int]]:
    """What the bytes of a page are spent on, biggest first: whitespace between tags, each
    attribute by name (its name, quotes and value, summed over the page) and each element's tags."""
    parts: Counter[str] = Counter()
    parts["whitespace between tags"] = sum(len(m[1]) for m in re.finditer(r">(\s+)<", html))
    for name, value in re.findall(r'\s([\w:-]+)="([^"]*)"', html):
        parts[f"attribute {name}"] += len(name) + len(value) + 4
    for tag in re.findall(r"</?([a-z][\w-]*)", html):
        parts[f"<{tag}> tags"] += len(tag) + 3  # the name, its brackets and the slash of the end tag
    svg = sum(len(m) for m in re.findall(r"<svg.*?</svg>", html, re.S))
    parts["inline SVG (all of it)"] = svg
    return parts.most_common(12)


def sections(html: str) -> list[tuple[str, int, bool]]:
    """A page's bytes by section: from each ``<h2>`` to the next (the first part is everything
    before the first heading), with whether the section lies in a public stretch (compression.py)."""
    heads = [(m.start(), re.sub(r"<[^>]+>", "", m[1]).strip()) for m in re.finditer(r"<h2[^>]*>(.*?)</h2>", html, re.S)]
    marks = [m.start() for m in re.finditer(r"<!--/?public-->", html)]
    cuts = [(0, "(before the first heading)"), *heads, (len(html), "")]
    out = []
    for (start, name), (end, _) in itertools.pairwise(cuts):
        opened = sum(1 for m in marks if m < start) % 2 == 1  # an odd number of marks before it: inside
        out.append((name[:48], len(html[start:end].encode()), opened))
    return out


def hidden_fields(html: str) -> tuple[int, int, int]:
    """The forms on a page, their hidden inputs, and those inputs' bytes (each form's token, proofs
    and the fields that name what it acts on)."""
    hidden = re.findall(r'<input type="hidden"[^>]*>', html)
    return html.count("<form "), len(hidden), sum(len(h.encode()) for h in hidden)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, choices=(8, 16), default=16, help="teams in the game")
    args = parser.parse_args(argv)
    players = 16 if args.teams == 16 else 4
    sizes: dict[str, dict[str, tuple[int, int, int, int]]] = {}
    pages: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="sevens-bytes-") as tmp, throwaway_database("sqlite", Path(tmp)) as url:
        run_migrations(make_engine(url))
        settings = Settings(
            database_url=url, scheduler=False, migrate=False, rate_limit_attempts=10**6, games_per_hour=0,
            organiser_acts_per_hour=10**6, credentials_per_hour=10**6,
        )
        app = create_app(settings)
        try:
            for stage in STAGES:
                game = host(app, players, args.teams, stage)
                reads = requests_of(game)
                # the big screen as a spectator's television shows it, beside the organiser's
                reads["big screen (spectator)"] = (game.spectator, f"/games/{game.public_id}?screen=1", {})
                for name, (client, url_of, headers) in reads.items():
                    if name in SKIPPED:
                        continue
                    client.get(url_of)  # a first visit may set a cookie
                    answer = client.get(url_of, headers={**headers, "Accept-Encoding": "gzip"})
                    assert answer.status_code == 200, (name, answer.status_code)
                    plain = answer.content  # as the browser has it, unzipped
                    sent = int(answer.headers["content-length"])
                    reports = plain.count(b'<article class="match"')
                    sizes.setdefault(name, {})[stage] = (len(plain), len(gzip.compress(plain, 6)), sent, reports)
                    if name in ("game page (spectator)", "player's page", "organiser's page") and stage == "final":
                        pages[name] = plain.decode()
        finally:
            app.state.odds_queue.close()
            app.state.engine.dispose()
    print(f"bytes of each page of a {args.teams}-team game (SQLite), turn 1 / turn 3 / the final")
    print(f"  {'':<24}{'plain':>26}{'gzipped':>26}{'gz/plain':>20}{'sent (gzip asked)':>28}{'per report, plain / gz':>24}")
    for name, by in sizes.items():
        plain = " /".join(f"{by[s][0]:>7,}" for s in STAGES)
        zipped = " /".join(f"{by[s][1]:>7,}" for s in STAGES)
        ratio = " /".join(f"{by[s][1] / by[s][0]:>5.2f}" for s in STAGES)
        sent = " /".join(f"{by[s][2]:>7,}" for s in STAGES)
        final = by["final"]
        more = final[3] - by["t1"][3]
        per = f"{(final[0] - by['t1'][0]) / more:>9,.0f} /{(final[1] - by['t1'][1]) / more:>6,.0f}" if more > 0 else ""
        print(f"  {name:<24}{plain:>26}{zipped:>26}{ratio:>20}{sent:>28}{per:>24}")
    print("  (per report: what the final's page adds over turn 1's for each match report more on it)")
    html = pages["game page (spectator)"]
    print(f"\nthe spectator's game page at the final, {len(html.encode()):,} bytes: where they go")
    for part, size in breakdown(html):
        print(f"  {part:<32}{size:>9,}  {size / len(html):>6.1%}")
    for name in ("player's page", "organiser's page"):
        html = pages[name]
        total = len(html.encode())
        print(f"\nthe {name} at the final, {total:,} bytes, by section (public: gzipped even for a session)")
        for part, size, public in sections(html):
            print(f"  {part:<50}{size:>9,}  {size / total:>6.1%}  {'public' if public else ''}")
        forms, fields, size = hidden_fields(html)
        print(f"  {forms} forms with {fields} hidden fields: {size:,} bytes ({size / total:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
