"""The match reports of one resolved turn, rendered once and kept.

A resolved turn never changes (R13: its orders and dice are public and final), yet every game page,
player's page and organiser's page rendered all of them again at each load: at the final of a
16-team game that was 30 reports, most of the page's time. The fragment is kept under everything it
is made of, so a changed record, a team renamed or a seat handed to the bots since gives a new key,
never an old page. Nothing in it depends on who reads it: the reports are the same for everyone,
and only resolved turns (``SpectatorView.history``) are ever passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from jinja2 import Environment
from markupsafe import Markup

from sevens.tournament.game import MatchResult

KEPT = 768
"""Fragments kept: the 6 turns of 128 games, as many as the store keeps replayed records for
(``sevens.store.games._replay``). A 16-team group turn's is about 33,000 characters, which Python
holds in about 65 kB (its arrows and dashes take two bytes a character), and its key holds the
turn's 8 matches (about 24 kB more once the store's replayed record is gone): a 16-team game's six
turns average about 45 kB of fragment, 35 MB for all 768, and at worst (every one a group turn)
about 70 MB with the matches."""


class _Names:
    # All the fragment's template may read of the view: the names in its key, nothing else.
    def __init__(self, names: tuple[tuple[str, str], ...]) -> None:
        self._names = dict(names)

    def name(self, team: str) -> str:
        return self._names.get(team, team)


def _names(view: Any) -> tuple[tuple[str, str], ...]:
    # Every team's, not just the sides': a report's lots may name others of the group.
    return tuple((team, view.name(team)) for team in sorted(view.teams))


class _Kept:
    """A template rendered once for each set of inputs and kept (``kept`` at most): every input is
    in the key, the view's names as :class:`_Names` and the bots as a dict once rendered."""

    def __init__(self, env: Environment, template: str, kept: int) -> None:
        self._env, self._template = env, template
        self._render = lru_cache(maxsize=kept)(self._fresh)

    def _fresh(self, names: tuple[tuple[str, str], ...], bots: tuple[tuple[str, str], ...], **fields: Any) -> Markup:
        template = self._env.get_template(self._template)
        return Markup(template.render(view=_Names(names), bots_then=dict(bots), **fields))

    def cache_info(self) -> Any:
        """Hits, misses and size, as :func:`functools.lru_cache` counts them (tests and benchmarks)."""
        return self._render.cache_info()


class TurnReports(_Kept):
    """Jinja global ``turn_reports(view, number, stage, matches)``: the heading and match reports of
    resolved turn ``number``, as ``macros.html``'s ``turn_reports.html`` makes them."""

    def __init__(self, env: Environment, kept: int = KEPT) -> None:
        super().__init__(env, "turn_reports.html", kept)

    def __call__(self, view: Any, number: int, stage: str, matches: Sequence[MatchResult]) -> Markup:
        # The key holds every input: the matches themselves (compared whole, so another record's
        # turn never matches), every team's shown name and the bots that played seats then.
        bots = tuple(sorted(view.bots_then(number).items()))
        return self._render(_names(view), bots, number=number, stage=stage, matches=tuple(matches))


MATCHES_KEPT = 4096
"""Single reports kept for the team pages: a 16-team game's 31 matches (each on two teams' pages,
under one key) for about 130 games. A 16-team game's report is about 4,300 characters (5,600 at
most), which Python holds in about 8.7 kB (11 kB; two bytes a character, as for the turns), and its
key holds the match (about 3 kB): about 48 MB for all 4,096, 60 MB at worst."""


class MatchReport(_Kept):
    """Jinja global ``kept_match_report(view, match, bots_then)``: one resolved match's report, as
    ``macros.html``'s ``match_report`` makes it, for the team page, which shows single matches rather
    than whole turns. Kept under the same inputs as :class:`TurnReports`' turns."""

    def __init__(self, env: Environment, kept: int = MATCHES_KEPT) -> None:
        super().__init__(env, "match_report.html", kept)

    def __call__(self, view: Any, match: MatchResult, bots_then: dict[str, str]) -> Markup:
        return self._render(_names(view), tuple(sorted(bots_then.items())), match=match)
