"""Replaying the bots' orders of a game record: each one is what its bot plays (R13, R14).

A bot's order comes from the game as it stood and a random source derived from the secret seed
(:func:`sevens.tournament.game.autopilot_rng`), so once the seed is revealed every such order can
be played again and compared. :class:`BotOrderCheck` does that during a verification
(``verify_record(record, check_orders=...)``); :func:`verify_with_bots` is the whole check.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from sevens.bots.pacing import WEIGHTED, split_weighted_name
from sevens.bots.strategies import ENTRY_POINT_GROUP, STRATEGIES, Strategy, get_strategy
from sevens.tournament.game import Game, TurnOrder, autopilot_orders
from sevens.tournament.record import RecordError, VerificationError
from sevens.tournament.setup import TeamId
from sevens.tournament.verify import verify_record

__all__ = [
    "BotOrderCheck",
    "NAME_LENGTH",
    "check_autopilot_name",
    "named_bot",
    "shown_name",
    "shown_names",
    "verify_with_bots",
]

NAME_LENGTH = 100
"""The longest bot name a record may give (built-in and weighted names are far shorter)."""

_SHOWN = 40
"""Characters of a name from a record that a message quotes."""

_LISTED = 5
"""Names of missing bots a message lists before it only counts the rest."""

# An entry point's name in the recommended form, or a module:attribute path (never imported).
_REGISTERED_NAME = re.compile(r"[\w.-]+(:[\w.]+)?")

_WHAT_A_NAME_IS = (
    f"an autopilot is a built-in bot ({', '.join(STRATEGIES)}), one of {', '.join(WEIGHTED)} with a "
    f"knockout weight ('even-flair@1.5'), or the name of a bot registered in the entry point group "
    f"{ENTRY_POINT_GROUP!r}: up to {NAME_LENGTH} letters, digits, '_', '.' and '-'"
)


def shown_name(name: str) -> str:
    """A name from a record as messages quote it: escaped like ``repr`` (control characters
    included) and cut to its first 40 characters, so a record cannot flood or restyle a terminal.

    >>> shown_name("mine")
    "'mine'"
    >>> shown_name("bad\\x1b[31m")
    "'bad\\\\x1b[31m'"
    >>> shown_name("x" * 100_000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (100,000 characters)"
    """
    if len(name) <= _SHOWN:
        return repr(name)
    return f"{name[:_SHOWN]!r}... ({len(name):,} characters)"


def shown_names(names: Iterable[str]) -> str:
    """:func:`shown_name` of each, the first five listed and the rest counted."""
    every = sorted(names)
    text = ", ".join(shown_name(name) for name in every[:_LISTED])
    if len(every) > _LISTED:
        text += f" and {len(every) - _LISTED:,} more"
    return text


def check_autopilot_name(name: str, path: str) -> None:
    """Refuse a name that no bot can have, at ``path`` in the record; a well-formed name of a bot
    not installed here passes (it is reported as such, not as malformed).

    Raises:
        RecordError: the name is empty, too long, has characters no bot's name has, or gives a
            knockout weight that is not one.

    >>> check_autopilot_name("even-flair@nan", "turns[0].matches[0].home_order.autopilot")
    Traceback (most recent call last):
    ...
    sevens.tournament.record.RecordError: turns[0].matches[0].home_order.autopilot: 'even-flair@nan': the knockout weight must be a number such as 0.5, 1.5 or 2, got 'nan'
    """
    if name in STRATEGIES:
        return
    if len(name) > NAME_LENGTH:
        raise RecordError(path, f"{shown_name(name)} is too long for a bot's name; {_WHAT_A_NAME_IS}")
    if "@" in name and name.partition("@")[0] in STRATEGIES:
        try:
            split_weighted_name(name)
        except ValueError as exc:
            raise RecordError(path, str(exc)) from None
        return
    if not _REGISTERED_NAME.fullmatch(name):
        raise RecordError(path, f"{shown_name(name)} is not a bot's name; {_WHAT_A_NAME_IS}")


def named_bot(name: str) -> Strategy:
    """A built-in or registered (entry point) bot by the name a record gives it.

    A record is data from anyone: a ``module:attribute`` name in it is not imported.

    Raises:
        ValueError: no such bot here, or a module path.

    >>> named_bot("even").name
    'even'
    >>> named_bot("os:abort")
    Traceback (most recent call last):
    ...
    ValueError: 'os:abort' is a module path; bots named in a record are not imported from one
    """
    if ":" in name:
        raise ValueError(f"{name!r} is a module path; bots named in a record are not imported from one")
    return get_strategy(name)


@dataclass(slots=True)
class BotOrderCheck:
    """Plays every bot's order of a record again, turn by turn; counts what it checked.

    Attributes:
        seed: the record's revealed seed.
        strategies: the bots by name (:func:`named_bot`: built-in and registered ones).
        checked: orders played again and found equal.
        unknown: well-formed names of bots this installation does not have (their orders are not
            checked); a malformed name is a :class:`RecordError`.
    """

    seed: str
    strategies: Callable[[str], Strategy] = named_bot
    checked: int = 0
    unknown: set[str] = field(default_factory=set)

    def __call__(self, game: Game, orders: Mapping[TeamId, TurnOrder], paths: Mapping[TeamId, str]) -> None:
        for team, given in orders.items():
            name = given.autopilot
            if name is None:
                continue
            check_autopilot_name(name, f"{paths[team]}.autopilot")
            try:
                strategy = self.strategies(name)
            except ValueError:
                self.unknown.add(name)
                continue
            # The bot named in the order, whatever the team's autopilot is now set to.
            replayed = autopilot_orders(game, [team], {game.setup.autopilot(team): strategy}, seed=self.seed)[team]
            want, got = replayed.order, given.order
            if (want.force, want.flair) != (got.force, got.flair):
                raise VerificationError(
                    paths[team],
                    f"FORCE {want.force}, FLAIR {want.flair}",
                    f"FORCE {got.force}, FLAIR {got.flair}",
                    f"the order the bot {name!r} plays for {team} in turn {game.turn_number}, from the revealed seed",
                )
            self.checked += 1

    def summary(self) -> str:
        """A sentence on what was checked.

        >>> BotOrderCheck("00" * 32, checked=12, unknown={"mine"}).summary()
        "12 bot orders played again from the seed, each what its bot plays; orders of bots not installed here were not checked: 'mine'"
        >>> BotOrderCheck("00" * 32).summary()
        'no order came from a bot'
        """
        if self.checked == 0 and not self.unknown:
            return "no order came from a bot"
        text = f"{self.checked} bot orders played again from the seed, each what its bot plays"
        if self.unknown:
            text += "; orders of bots not installed here were not checked: " + shown_names(self.unknown)
        return text


@dataclass(frozen=True, slots=True)
class BotVerification:
    """What :func:`check_with_bots` found: a sentence on what was checked, and the bots named in
    the record that this installation lacks (their orders could not be played again, so the
    record is not verified in full: a server could have put any order in such a bot's name)."""

    summary: str
    unchecked: tuple[str, ...] = ()


def check_with_bots(record: object) -> BotVerification:
    """:func:`~sevens.tournament.verify.verify_record`, and once the seed is revealed every bot's
    order played again (R13, R14).

    Raises:
        RecordError: the record is malformed.
        VerificationError: the first place where the record differs, a bot's order included.
    """
    seed = record.get("seed") if isinstance(record, dict) else None
    check = BotOrderCheck(seed) if isinstance(seed, str) else None
    report = verify_record(record, check_orders=check)
    if check is None:
        return BotVerification(report.summary())
    return BotVerification(f"{report.summary()}; {check.summary()}", tuple(sorted(check.unknown)))


def verify_with_bots(record: object) -> str:
    """:func:`check_with_bots`'s sentence on what was checked."""
    return check_with_bots(record).summary
