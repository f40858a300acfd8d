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
from importlib.metadata import entry_points

from sevens.bots.pacing import WEIGHTED, split_weighted_name
from sevens.bots.strategies import (
    ENTRY_POINT_GROUP,
    STRATEGIES,
    Strategy,
    get_strategy,
    raised_at,
    shown_error,
    shown_raised,
)
from sevens.tournament.game import Game, TurnOrder, autopilot_orders
from sevens.tournament.quoting import plain_or_quoted, quoted
from sevens.tournament.record import RecordError, VerificationError, Words
from sevens.tournament.setup import TeamId
from sevens.tournament.verify import verify_record

__all__ = [
    "BotLoadError",
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
    return quoted(name)


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


class BotLoadError(ValueError):
    """A bot registered here (an entry point of that name in :data:`ENTRY_POINT_GROUP`) whose
    loading or making fails: it is installed, and broken, which is not the same as missing.

    Attributes:
        name: the bot's name.
        reason: what failed, as :func:`shown_error` quotes it.
    """

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        # Room for the loader's own advice (what the entry point names, what the module defines),
        # whose quotes of the bot's words are already cut to 300 characters.
        self.reason = shown_error(reason, limit=1_000)
        super().__init__(f"{shown_name(name)} is installed here but fails to load: {self.reason}")


def _registered(name: str) -> bool:
    return any(ep.name == name for ep in entry_points(group=ENTRY_POINT_GROUP))


def named_bot(name: str) -> Strategy:
    """A built-in or registered (entry point) bot by the name a record gives it.

    A record is data from anyone: a ``module:attribute`` name in it is not imported.

    Raises:
        BotLoadError: the bot is registered here, but importing or making it raised (or exited).
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
    # Only a registered bot runs code of its own here, so whatever it raises means that it is
    # installed and broken; a verification must say so, and go on, not stop at it.
    try:
        return get_strategy(name)
    except SyntaxError as exc:
        reason = f"{exc.filename or 'its module'}, line {exc.lineno} is not valid Python (SyntaxError: {exc.msg})"
    except (Exception, SystemExit) as exc:
        if isinstance(exc, ValueError) and not raised_at(exc):  # the loader's own words
            if not _registered(name):
                raise
            reason = str(exc).removeprefix(f"cannot load {name!r}: ").removesuffix("; fix it and run again")
        else:  # its class or factory raised as it made the bot ("no weights given")
            reason = f"making it (calling what its entry point names) raised {shown_raised(exc)}{raised_at(exc)}"
    raise BotLoadError(name, reason)


@dataclass(slots=True)
class BotOrderCheck:
    """Plays every bot's order of a record again, turn by turn; counts what it checked.

    Attributes:
        seed: the record's revealed seed.
        strategies: the bots by name (:func:`named_bot`: built-in and registered ones).
        checked: orders played again and found equal.
        unknown: well-formed names of bots this installation does not have (their orders are not
            checked); a malformed name is a :class:`RecordError`.
        failing: bots that fail to load (:class:`BotLoadError`) or to play an order, by name,
            with what failed ("fails to load: ...", "fails to play: ..."); their orders are not
            checked either.
    """

    seed: str
    strategies: Callable[[str], Strategy] = named_bot
    checked: int = 0
    unknown: set[str] = field(default_factory=set)
    failing: dict[str, str] = field(default_factory=dict)

    def __call__(self, game: Game, orders: Mapping[TeamId, TurnOrder], paths: Mapping[TeamId, str]) -> None:
        for team, given in orders.items():
            name = given.autopilot
            if name is None:
                continue
            check_autopilot_name(name, f"{paths[team]}.autopilot")
            if name in self.failing:
                continue
            try:
                strategy = self.strategies(name)
            except BotLoadError as exc:
                self.failing[name] = f"fails to load: {exc.reason}"
                continue
            except ValueError:
                self.unknown.add(name)
                continue
            try:
                # The bot named in the order, whatever the team's autopilot is now set to.
                picked = autopilot_orders(game, [team], {game.setup.autopilot(team): strategy}, seed=self.seed)
            except (Exception, SystemExit) as exc:  # its own code raised: said, as a bot that will not load is
                self.failing[name] = (
                    f"fails to play: its order for {game.setup.team(team).name} in turn {game.turn_number} raised "
                    f"{shown_raised(exc)}{raised_at(exc)}"
                )
                continue
            replayed = picked[team]
            want, got = replayed.order, given.order
            if (want.force, want.flair) != (got.force, got.flair):
                raise VerificationError(
                    paths[team],
                    Words(f"FORCE {want.force}, FLAIR {want.flair}"),
                    Words(f"FORCE {got.force}, FLAIR {got.flair}"),
                    f"the order the bot {name!r} plays for {plain_or_quoted(game.setup.team(team).name)} in turn {game.turn_number}, from the revealed seed",
                )
            self.checked += 1

    def summary(self) -> str:
        """A sentence on what was checked.

        >>> BotOrderCheck("00" * 32, checked=12, unknown={"mine"}).summary()
        "12 bot orders played again from the seed, each what its bot plays; orders of bots not installed here were not checked: 'mine'"
        >>> BotOrderCheck("00" * 32, checked=12, failing={"mine": "fails to load: ImportError"}).summary()
        "12 bot orders played again from the seed, each what its bot plays; orders of bots that fail to load or to play here were not checked: 'mine'"
        >>> BotOrderCheck("00" * 32).summary()
        'no order came from a bot'
        """
        if self.checked == 0 and not self.unknown and not self.failing:
            return "no order came from a bot"
        text = f"{self.checked} bot orders played again from the seed, each what its bot plays"
        if self.unknown:
            text += "; orders of bots not installed here were not checked: " + shown_names(self.unknown)
        if self.failing:
            text += "; orders of bots that fail to load or to play here were not checked: " + shown_names(self.failing)
        return text


@dataclass(frozen=True, slots=True)
class BotVerification:
    """What :func:`check_with_bots` found: a sentence on what was checked, and the bots named in
    the record that this installation lacks (their orders could not be played again, so the
    record is not verified in full: a server could have put any order in such a bot's name), and
    those it has that fail to load or to play, with what failed (not verified in full either)."""

    summary: str
    unchecked: tuple[str, ...] = ()
    failing: tuple[tuple[str, str], ...] = ()

    @property
    def in_full(self) -> bool:
        """Whether every bot's order was played again."""
        return not self.unchecked and not self.failing

    def shortfall(self, here: str) -> str:
        """Which bots' orders were not played again and why, ``here`` naming the installation
        ("this server"); what failed in a bot is left out (it may show the installation's files).

        >>> BotVerification("", ("mine",), (("theirs", "fails to load: ImportError"),)).shortfall("this server")
        "this server lacks 'mine'; 'theirs' is installed on this server but fails to load"
        """
        said = [f"{here} lacks {shown_names(self.unchecked)}"] if self.unchecked else []
        for name, why in self.failing[:_LISTED]:
            said.append(f"{shown_name(name)} is installed on {here} but {why.partition(':')[0]}")
        if len(self.failing) > _LISTED:
            said.append(f"{len(self.failing) - _LISTED:,} more bots fail on {here}")
        return "; ".join(said)


def check_with_bots(record: object, *, strategies: Callable[[str], Strategy] = named_bot) -> BotVerification:
    """:func:`~sevens.tournament.verify.verify_record`, and once the seed is revealed every bot's
    order played again (R13, R14).

    Args:
        record: the record, as parsed JSON.
        strategies: the bots by name; :func:`named_bot` never imports a module path. A caller may
            pass one that does, for paths its user trusts (``sevens verify --bots``).

    Raises:
        RecordError: the record is malformed.
        VerificationError: the first place where the record differs, a bot's order included.
    """
    seed = record.get("seed") if isinstance(record, dict) else None
    _check_team_autopilots(record)
    check = BotOrderCheck(seed, strategies=strategies) if isinstance(seed, str) else None
    # Without the seed no bot's order can be played again, but a name no bot can have is still refused.
    report = verify_record(record, check_orders=check if check is not None else _check_order_names)
    if check is None:
        return BotVerification(report.summary())
    return BotVerification(
        f"{report.summary()}; {check.summary()}", tuple(sorted(check.unknown)), tuple(sorted(check.failing.items()))
    )


def _check_team_autopilots(record: object) -> None:
    """Refuse a team's ``autopilot`` in ``teams`` that no bot can have, as an order's is refused:
    taken as written (its manager may change it), it was never looked at, so a record could carry
    ``'mine\x1b[2J'`` there and still verify. A team of the wrong shape is left to the reading."""
    teams = record.get("teams") if isinstance(record, dict) else None
    for index, team in enumerate(teams if isinstance(teams, list) else []):
        name = team.get("autopilot") if isinstance(team, dict) else None
        if isinstance(name, str) and name:  # an empty one is refused by the reading, in its words
            check_autopilot_name(name, f"teams[{index}].autopilot")


def _check_order_names(game: Game, orders: Mapping[TeamId, TurnOrder], paths: Mapping[TeamId, str]) -> None:
    """Each bot-played order's name checked as :class:`BotOrderCheck` checks it, its order not played."""
    for team, given in orders.items():
        if given.autopilot is not None:
            check_autopilot_name(given.autopilot, f"{paths[team]}.autopilot")


def verify_with_bots(record: object) -> str:
    """:func:`check_with_bots`'s sentence on what was checked."""
    return check_with_bots(record).summary
