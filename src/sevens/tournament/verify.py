"""Verifying a game record (R14): recompute everything from the revealed seed and the orders.

For a finished record with its seed, :func:`verify_record` checks that the seed matches
``seed_sha256``, then replays every turn from the recorded orders: each turn's
``orders_digest``, every die (thrown again with :class:`sevens.rules.FairDice`), every line,
winner, ``decided_by`` and sentence, every SCRUM balance (so the before/after chain across
turns), every lots draw, the group tables, the knockout pairings and the champion. It stops at
the first place where the record differs and names it, e.g.
``turns[3].matches[1].home_dice.force[4]: expected 5, found 2`` (indexes count from 0).

A game its organiser ended before the final is over too: its record says ``"ended_early": true``
and carries the seed, and the turns it played are checked the same way, dice included.

An unfinished record (``seed`` null) is checked for consistency only: the recorded dice are
taken as given, and everything that follows from them and from the orders is checked; the
report says the dice themselves could not be.

The bots live outside this package: whether a bot's order (an autopilot's for a missed order, or
a house team's) is what the bot plays is checked by a ``check_orders`` function given from
outside (``sevens verify`` passes :class:`sevens.bots.BotOrderCheck`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sevens.tournament.game import Game
from sevens.tournament.record import (
    OrderCheck,
    RecordError,
    VerificationError,
    Words,
    count_dice,
    replay_record,
)

__all__ = ["RecordError", "VerificationError", "VerifyReport", "verify_record"]


NOT_REDRAWN = (
    "; the group draw was not redone: the record says it did not come from the seed (draw: null), so its "
    "groups and who manages which team are taken as written"
)
"""What a verified record with ``"draw": null`` adds to its summary."""


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What a verification checked."""

    turns: int
    matches: int
    dice: int
    lots: int
    dice_checked: bool
    finished: bool
    champion: str | None
    draw_checked: bool = False

    def summary(self) -> str:
        """One paragraph saying what was checked.

        >>> VerifyReport(5, 20, 900, 0, True, True, "fiji", draw_checked=True).summary()
        'ok: 5 turns, 20 matches and 900 dice recomputed from the revealed seed; the group draw, orders digests, dice, lines, winners, SCRUM balances, group tables, pairings and the champion (fiji) all agree'
        >>> VerifyReport(5, 20, 900, 0, True, True, "fiji").summary().endswith(NOT_REDRAWN)
        True
        >>> "ended the game before its first turn, so" in VerifyReport(0, 0, 0, 0, True, False, None).summary()
        True
        """
        if self.dice_checked:
            draw = "the group draw, " if self.draw_checked else ""
            agree = (
                f"group tables, pairings and the champion ({self.champion}) all agree"
                if self.finished
                else "group tables and pairings all agree; its organiser ended the game "
                f"{f'after turn {self.turns}' if self.turns else 'before its first turn'}, so it has no champion"
            )
            # Said, not just left out: a record of sevens play or the web app always says "game-seed",
            # so a null there means the set-up was edited and nothing checked who managed which team.
            return (
                f"ok: {self.turns} turns, {self.matches} matches and {self.dice} dice recomputed from the "
                f"revealed seed; {draw}orders digests, dice, lines, winners, SCRUM balances, {agree}"
                + ("" if self.draw_checked else NOT_REDRAWN)
            )
        return (
            f"consistent: {self.turns} turns and {self.matches} matches; orders digests, lines, winners, "
            f"SCRUM balances, group tables and pairings agree with the {self.dice} recorded dice. The game is "
            "not finished (seed not revealed), so the dice themselves could not be checked"
        )


def _report(game: Game, dice_checked: bool) -> VerifyReport:
    return VerifyReport(
        turns=len(game.turns),
        matches=len(game.matches()),
        dice=count_dice(game),
        lots=sum(len(turn.lots) for turn in game.turns),
        dice_checked=dice_checked,
        finished=game.finished,
        champion=game.champion,
        draw_checked=dice_checked and game.setup.drawn_from_seed,
    )


def verify_record(data: object, *, check_orders: OrderCheck | None = None) -> VerifyReport:
    """Check a game record from its orders (and its revealed seed, once the game is over).

    ``check_orders`` also checks each turn's orders against the game before the turn
    (:class:`sevens.bots.BotOrderCheck` replays the bots' orders).

    Raises:
        RecordError: the record is malformed (not an object, wrong format, a field missing...).
        VerificationError: the first place where the record differs from the recomputation.

    >>> from sevens.tournament.formats import Format
    >>> from sevens.tournament.game import new_game
    >>> from sevens.tournament.record import to_record
    >>> from sevens.tournament.setup import Player, PlayerId, draw_game
    >>> people = [Player(PlayerId(f"p{i}"), f"P{i}") for i in range(4)]
    >>> game = new_game(draw_game(people, Format(8, 4, 2), seed_sha256="0" * 64, draw_seed=1))
    >>> verify_record(to_record(game)).dice_checked
    False
    """
    game, revealed = replay_record(data, check_dice=True, check_orders=check_orders)
    if game.finished and revealed is None:
        # Without this, stripping the seed from a finished record would pass with unchecked dice.
        raise VerificationError("seed", Words("the game's seed"), None, "R14: a finished game reveals its seed")
    return _report(game, dice_checked=revealed is not None)
