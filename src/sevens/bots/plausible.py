"""What an opponent's bot may order, for odds worked out before the turn: the terminal's odds line
(``sevens play``) and the web's live odds both ask :func:`plausible_orders`, so a bot's mix that
raises, gives junk or is too long is met the same way in both.

A bot is asked in the opponent's place, from what its manager may see alone: its whole mix where it
says what it mixes over (no random source), else one typical order, drawn from a fixed source rather
than the game's secret seed (R14). What a bot of one's own gives is checked (R3) before odds are
worked against it: figures against an order that breaks the rules would be for a match never played.
"""

from __future__ import annotations

import random

from sevens.bots.mixes import MixRefused, ShownMix, order_mix, shown_mix
from sevens.bots.strategies import get_strategy, raised_at, shown_error, shown_raised
from sevens.rules import OrderError, validate_order
from sevens.tournament.game import ManagerView

__all__ = ["Plausible", "plausible_orders"]


Plausible = tuple[ShownMix, bool]
"""The orders odds are worked against, and whether they are the bot's whole mix (``True``) or one
typical order of a bot that does not say what it mixes over (``False``)."""


def plausible_orders(name: str, view: ManagerView, *, knockout: bool) -> Plausible | str:
    """What the bot called ``name`` may order in ``view``'s place; or, where it cannot be told, why,
    in words that follow "which" ("raised RuntimeError: no mix at /srv/mine.py, line 4 when asked
    what it mixes over"). Never raises for what a bot's own code does: it is run here only to
    foresee its order, and the game goes on (its real order, if it fails too, is met by the game).

    >>> from sevens.tournament import Player, PlayerId, default_format, draw_game, new_game
    >>> from sevens.rules import seed_commitment
    >>> people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    >>> game = new_game(draw_game(people, default_format(4), seed_sha256=seed_commitment("4d" * 32), draw_seed=0))
    >>> mix, whole = plausible_orders("even", game.view_for(game.teams_in_play()[0]), knockout=False)
    >>> whole, mix.size
    (True, 2)
    >>> said = plausible_orders("no-such-bot", game.view_for(game.teams_in_play()[0]), knockout=False)
    >>> said.startswith("could not be made (ValueError: there is no bot called 'no-such-bot'")
    True
    """
    try:
        strategy = get_strategy(name)
    except (Exception, SystemExit) as exc:  # a bot's own package, loaded here
        return f"could not be made ({shown_raised(exc)}{raised_at(exc)})"
    try:
        mix = order_mix(strategy, view)
    except MixRefused as exc:
        return f"gave a mix of orders that is refused ({shown_error(str(exc))})"
    except (Exception, SystemExit) as exc:
        return f"raised {shown_raised(exc)}{raised_at(exc)} when asked what it mixes over"
    if mix is not None:
        return shown_mix(mix, knockout=knockout), True
    try:
        order = strategy.order(view, random.Random(0))
    except (Exception, SystemExit) as exc:
        return f"raised {shown_raised(exc)}{raised_at(exc)} when asked for a typical order"
    try:
        checked = validate_order(order.force, order.flair, scrum=view.scrum)
    except (OrderError, AttributeError, TypeError) as exc:
        return f"gave a typical order that is refused ({shown_error(repr(order), 60)}: {shown_error(str(exc))})"
    return ShownMix(orders=((checked, 1.0),), size=1), False
