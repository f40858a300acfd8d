"""Bots: strategies behind one small protocol, used for house teams and autopilots (R12, R13).

A strategy sees exactly what a manager sees (:class:`sevens.tournament.game.ManagerView`) and
gets its randomness passed in (``rng``); it returns an :class:`sevens.rules.Order` that is always
legal: whole numbers, FLAIR a multiple of 3, the total within the team's SCRUM (R3).

The pacing bots ("even", "group-blitz", "knockout-saver") split roughly half and half, leaning to
FLAIR in the knockouts, with a little jitter from ``rng`` so that they are not fully predictable.
"even-flair" and "even-force" pace like "even" with every point in one kind. The strategy lab
(``docs/strategy.md``) finds all FLAIR the stronger choice: at similar budgets it is the match's
saddle point, and its tries win knockout count-backs (R9). So the default bot is "equilibrium"
(:mod:`sevens.bots.smart`), which plays the solver's split and is level with "even-flair" among
the fixed pacers; "table-reader" wins more by resting its last group match, but would leave a
newcomer against house teams a little over half a fair share and throw a match for an absent manager
(docs/strategy.md, "Which bot plays when nobody chooses").
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import importlib.machinery
import importlib.util
import math
import os
import random
import sys
import sysconfig
import traceback
import types
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from fractions import Fraction
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

from sevens.bots.mixes import Mix, share_mix
from sevens.bots.pacing import WEIGHTED, check_knockout_weight, paced_budget, split_weighted_name
from sevens.bots.smart import Equilibrium, FieldReader, OddsAware, TableReader
from sevens.rules import FLAIR_OPTION_COST, MAX_ORDER_POINTS, Order
from sevens.tournament.game import ManagerView
from sevens.tournament.quoting import escaped
from sevens.tournament.setup import DEFAULT_AUTOPILOT

__all__ = [
    "DEFAULT_BOT",
    "ENTRY_POINT_GROUP",
    "hidden_entry_point",
    "hidden_entry_points",
    "load_registered",
    "meant_bot",
    "raised_at",
    "registered_entry_point",
    "shown_error",
    "shown_raised",
    "STRATEGIES",
    "SUMMARIES",
    "EvenSpread",
    "GroupBlitz",
    "KnockoutSaver",
    "MIX_JITTER",
    "MIX_SHARES",
    "RandomOrders",
    "Strategy",
    "describe",
    "get_strategy",
    "split",
]

DEFAULT_BOT = DEFAULT_AUTOPILOT


@runtime_checkable
class Strategy(Protocol):
    """A bot: given what a manager may see and a random source, a legal order (R3)."""

    @property
    def name(self) -> str: ...

    def order(self, view: ManagerView, rng: random.Random) -> Order: ...


# A strategy may also say what it mixes over, ``order_mix(view) -> Mix`` (sevens.bots.mixes): every
# built-in does, and odds shown against it are then against the whole mix. It is left out of the
# protocol so that a strategy with ``order`` alone stays one.


def split(total: int, flair_share: float, scrum: int) -> Order:
    """A legal order spending about ``total`` points, about ``flair_share`` of them on FLAIR (R3).

    The total is cut to the team's SCRUM (and to what any team can hold); FLAIR is rounded to a
    whole number of options, the rest goes to FORCE.

    >>> split(20, 0.5, scrum=100)
    Order(force=11, flair=9)
    >>> split(50, 0.5, scrum=7)
    Order(force=4, flair=3)
    >>> split(-3, 0.5, scrum=100)
    Order(force=0, flair=0)
    """
    total = max(0, min(total, scrum, MAX_ORDER_POINTS))
    share = min(max(flair_share, 0.0), 1.0)
    options = min(round(total * share / FLAIR_OPTION_COST), total // FLAIR_OPTION_COST)
    flair = options * FLAIR_OPTION_COST
    return Order(force=total - flair, flair=flair)


MIX_SHARES = (0.5, 0.6)
"""The pacing bots' FLAIR share in the groups and in the knockouts (they lean to FLAIR there)..."""
MIX_JITTER = 0.1
"""... give or take up to this much, uniformly, at every order."""


def _mix(view: ManagerView, rng: random.Random) -> float:
    base = _base_share(view)
    return base + rng.uniform(-MIX_JITTER, MIX_JITTER)


def _base_share(view: ManagerView) -> float:
    return MIX_SHARES[1] if view.stage is not None and view.stage.knockout else MIX_SHARES[0]


def _even_budget(scrum: int, matches: int) -> int:
    return math.ceil(scrum / matches) if matches > 0 else 0


class _Pacing:
    """A bot that decides how much to spend (``budget``) and mixes FORCE and FLAIR the same way."""

    __slots__ = ()

    def budget(self, *, scrum: int, turns_left: int, group_left: int) -> int:
        raise NotImplementedError

    def flair_share(self, view: ManagerView, rng: random.Random) -> float:
        """FLAIR's share of the order."""
        return _mix(view, rng)

    def share_range(self, view: ManagerView) -> tuple[float, float]:
        """The least and the most :meth:`flair_share` may draw, uniformly between."""
        base = _base_share(view)
        return base - MIX_JITTER, base + MIX_JITTER

    def order(self, view: ManagerView, rng: random.Random) -> Order:
        if not view.in_play:
            return Order(0, 0)
        total = self.budget(scrum=view.scrum, turns_left=view.turns_left, group_left=view.group_matches_left)
        return split(total, self.flair_share(view, rng), view.scrum)

    def order_mix(self, view: ManagerView) -> Mix:
        """The orders :meth:`order` may give for ``view``, each with its chance (the jitter's)."""
        if not view.in_play:
            return ((Order(0, 0), 1.0),)
        total = self.budget(scrum=view.scrum, turns_left=view.turns_left, group_left=view.group_matches_left)
        return share_mix(total, *self.share_range(view), view.scrum)


@dataclass(frozen=True, slots=True)
class EvenSpread(_Pacing):
    """ "even": spread SCRUM evenly over the matches the team could still play if it keeps winning
    (all in at the final). "even-flair" and "even-force" are this bot with a fixed share.

    >>> EvenSpread().budget(scrum=100, turns_left=5, group_left=3)
    20
    """

    name: str = "even"
    flair: float | None = None
    """A fixed FLAIR share for every order (1.0: all FLAIR, 0.0: all FORCE) in place of the jittered
    half and half."""
    knockout_weight: Fraction = Fraction(1)
    """Each knockout match still possible counts this many group matches (:func:`paced_budget`)."""

    def __post_init__(self) -> None:
        check_knockout_weight(self.knockout_weight)

    def budget(self, *, scrum: int, turns_left: int, group_left: int) -> int:
        """SCRUM to spend on this match."""
        return paced_budget(scrum, turns_left, group_left, self.knockout_weight)

    def flair_share(self, view: ManagerView, rng: random.Random) -> float:
        """FLAIR's share of the order: :attr:`flair` when set (no draw from ``rng``)."""
        return _mix(view, rng) if self.flair is None else self.flair

    def share_range(self, view: ManagerView) -> tuple[float, float]:
        """The least and the most :meth:`flair_share` may give: :attr:`flair` alone when set."""
        if self.flair is not None:
            return self.flair, self.flair
        return _Pacing.share_range(self, view)


@dataclass(frozen=True, slots=True)
class GroupBlitz(_Pacing):
    """ "group-blitz": spend big in the groups to be sure of qualifying, keeping only a small
    reserve (``reserve`` points per knockout round); then spread what is left evenly.

    >>> GroupBlitz().budget(scrum=100, turns_left=6, group_left=3)
    29
    """

    name: str = "group-blitz"
    reserve: int = 5

    def budget(self, *, scrum: int, turns_left: int, group_left: int) -> int:
        """SCRUM to spend on this match."""
        if group_left == 0:
            return _even_budget(scrum, turns_left)
        knockouts = turns_left - group_left
        return _even_budget(max(0, scrum - self.reserve * knockouts), group_left)


@dataclass(frozen=True, slots=True)
class KnockoutSaver(_Pacing):
    """ "knockout-saver": spend little in the groups (``share`` of SCRUM per group match) and save
    the rest for the knockouts, spread evenly there.

    >>> KnockoutSaver().budget(scrum=100, turns_left=5, group_left=3)
    10
    """

    name: str = "knockout-saver"
    share: float = 0.1

    def budget(self, *, scrum: int, turns_left: int, group_left: int) -> int:
        """SCRUM to spend on this match."""
        if group_left == 0:
            return _even_budget(scrum, turns_left)
        return math.ceil(scrum * self.share)


@dataclass(frozen=True, slots=True)
class RandomOrders:
    """ "random": any legal order, uniformly chosen total and split (a baseline and a fuzzer)."""

    name: str = "random"

    def order(self, view: ManagerView, rng: random.Random) -> Order:
        if not view.in_play:
            return Order(0, 0)
        total = rng.randint(0, min(view.scrum, MAX_ORDER_POINTS))
        return split(total, rng.random(), view.scrum)

    def order_mix(self, view: ManagerView) -> Mix:
        """Every order :meth:`order` may give, each with its chance: every total equally likely,
        the FLAIR share uniform."""
        if not view.in_play:
            return ((Order(0, 0), 1.0),)
        most = min(view.scrum, MAX_ORDER_POINTS)
        return tuple(
            (order, chance / (most + 1)) for total in range(most + 1) for order, chance in share_mix(total, 0.0, 1.0, view.scrum)
        )


STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "even": EvenSpread,
    "group-blitz": GroupBlitz,
    "knockout-saver": KnockoutSaver,
    "random": RandomOrders,
    "even-flair": lambda: EvenSpread(name="even-flair", flair=1.0),
    "even-force": lambda: EvenSpread(name="even-force", flair=0.0),
    "odds-aware": OddsAware,
    "equilibrium": Equilibrium,
    "field-reader": FieldReader,
    "table-reader": TableReader,
}
"""Every built-in bot by name; each value makes a fresh strategy."""

SUMMARIES: dict[str, str] = {
    "even": "paces evenly, about half FLAIR",
    "group-blitz": "spends big in the groups, keeps little for the knockouts",
    "knockout-saver": "spends little in the groups, saves for the knockouts",
    "random": "any legal order at random (a baseline)",
    "even-flair": "paces evenly, all FLAIR",
    "even-force": "paces evenly, all FORCE",
    "odds-aware": "paces evenly, the split with the best exact odds",
    "equilibrium": "paces evenly, the split drawn from the match's optimal mix",
    "field-reader": "paces by what the other teams do, split as equilibrium",
    "table-reader": "as equilibrium; rests its last group match if a loss cannot put it out",
}
"""What each built-in bot does, in a few words, for pages and menus (:func:`describe`)."""


def describe(name: str) -> str:
    """A few words on the bot called ``name``, a weighted one included: where it comes from for one
    named by a ``"module:attribute"`` path or by an entry point.

    >>> describe("even-flair")
    'paces evenly, all FLAIR'
    >>> describe("even-flair@1.5")
    'paces evenly, all FLAIR; a knockout match weighs 1.5 group matches'
    >>> describe("mypkg.bots:Mine")
    'your own bot from the module mypkg.bots'
    """
    base, _, weight = name.partition("@")
    if weight and base == "field-reader":
        return f"{SUMMARIES[base]}; leans toward a knockout weight of {weight.strip()}"
    if weight and base in WEIGHTED:
        return f"{SUMMARIES[base]}; a knockout match weighs {weight.strip()} group matches"
    if name in SUMMARIES:
        return SUMMARIES[name]
    # An entry point's name may hold a colon too: the name is looked for as load_registered does.
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if found:
        package = found[0].dist.name if found[0].dist is not None else None
        return f"registered by the installed package {package}" if package else "registered by an installed package"
    if ":" in name:
        return f"your own bot from the module {name.partition(':')[0]}"
    return "not a bot known here"


ENTRY_POINT_GROUP = "sevens.strategies"
"""Packages register their own bots under this entry-point group, e.g. in ``pyproject.toml``:
``[project.entry-points."sevens.strategies"] cautious = "mypkg.bots:Cautious"``."""


def _builtin_bot_name(name: str) -> bool:
    """Whether :func:`get_strategy` finds ``name`` among the built-ins (a weighted one included)
    before it looks for an entry point."""
    return name in STRATEGIES or ("@" in name and name.partition("@")[0] in STRATEGIES)


def registered_entry_point(name: str) -> tuple[str, str] | None:
    """The package's name and ``module:attribute`` of an installed entry point called ``name``
    (group :data:`ENTRY_POINT_GROUP`), whether or not a built-in hides it; ``None`` where none is.

    >>> registered_entry_point("no-package-registers-this") is None
    True
    """
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            return (ep.dist.name if ep.dist is not None else "an installed package"), ep.value
    return None


def hidden_entry_points() -> list[tuple[str, str, str]]:
    """Every installed package's entry point that :func:`get_strategy` never reaches, since a built-in
    bot is called so and comes first (``"even"``, ``"equilibrium@1.1"``): its name, the package's
    name and its ``module:attribute``. A package's author would otherwise read the built-in's play
    as their own bot's.

    >>> hidden_entry_points()  # no package here registers one called so
    []
    """
    return [
        (ep.name, ep.dist.name if ep.dist is not None else "an installed package", ep.value)
        for ep in entry_points(group=ENTRY_POINT_GROUP)
        if _builtin_bot_name(ep.name)
    ]


def hidden_entry_point(name: str) -> tuple[str, str] | None:
    """The package's name and ``module:attribute`` of an entry point called ``name`` that a built-in
    bot hides (:func:`hidden_entry_points`); ``None`` where there is none.

    >>> hidden_entry_point("even") is None, hidden_entry_point("mine:Mine") is None
    (True, True)
    """
    if not _builtin_bot_name(name):
        return None  # get_strategy reaches an entry point of this name
    return registered_entry_point(name)


def load_registered(name: str, *, bots_only: bool = False) -> object | None:
    """What an entry point called ``name`` (group :data:`ENTRY_POINT_GROUP`) or a ``"module:attribute"``
    path names, as it is (a bot, a class, a factory...); ``None`` if ``name`` is neither.
    ``bots_only``: it is loaded for a game, which plays bots and not the lab's batch strategies, so
    a message says what a game can take.

    Raises:
        ValueError: the path names a module or attribute that cannot be loaded.

    >>> load_registered("sevens.bots.strategies:EvenSpread").__name__
    'EvenSpread'
    >>> load_registered("even") is None
    True
    >>> load_registered("bots/mine.py:Mine")
    Traceback (most recent call last):
    ...
    ValueError: cannot load 'bots/mine.py:Mine': 'bots/mine.py' is a file, and a strategy is named by its module: ...
    >>> load_registered(":Mine")
    Traceback (most recent call last):
    ...
    ValueError: cannot load ':Mine': a 'module:attribute' path needs both parts, such as 'mine:Mine' (Mine in mine.py)
    """
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    target: object = None
    if found:
        entry = found[0]
        # Which installed package declares it: with several, the name alone does not say where to look.
        package = f" of the package {entry.dist.name}" if entry.dist is not None else ""
        try:
            loaded: object = importlib.import_module(entry.module)
        except SyntaxError:
            raise  # the file and line are the exception's own (the command line says them)
        except ModuleNotFoundError as exc:
            missing = exc.name or ""
            if missing and (missing == entry.module or entry.module.startswith(f"{missing}.")):
                # The entry point's own module is not there: a typo in it, or a module left out of the package.
                declared = entry.dist.name if entry.dist is not None else "the package that declares it"
                raise ValueError(
                    f"cannot load {name!r}: the entry point {entry.value!r}{package} names the module "
                    f"{entry.module}, which is not installed where this runs ({exc}): correct the entry point in "
                    f"the pyproject.toml of {declared} and reinstall it, or install {entry.module}"
                ) from None
            raise ValueError(
                f"cannot load {name!r}: {_where(entry.module)}, imported for the entry point {entry.value!r}"
                f"{package}, imports {missing!r}, which is not installed where this runs ({exc}): install it here, "
                f"or take that import out of {entry.module}"
            ) from None
        except (Exception, SystemExit) as exc:  # its module's code ran, and raised
            raise ValueError(
                f"cannot load {name!r}: importing {_where(entry.module)} for the entry point "
                f"{entry.value!r}{package} raised {shown_raised(exc)}{raised_at(exc)}; fix it and run again"
            ) from None
        # Looked up here rather than by entry.load(), whose AttributeError was said to be raised
        # "at importlib/metadata/__init__.py", and "fix it" pointed at no file of one's own.
        target = loaded
        parts = entry.attr.split(".") if entry.attr else []
        for i, part in enumerate(parts):
            try:
                target = getattr(target, part)
            except AttributeError:
                owner = entry.module if i == 0 else f"{entry.module}:{'.'.join(parts[:i])}"
                lacking = f"{_where(owner)} has no {part!r}{_defined(loaded)}" if i == 0 else f"{owner} has no {part!r}"
                raise ValueError(
                    f"cannot load {name!r}: the entry point {entry.value!r} names {entry.attr!r}, but "
                    f"{lacking}: correct the entry point in "
                    "the pyproject.toml of the package that declares it and reinstall that package, or define "
                    f"{part!r} in {owner}"
                ) from None
        if target is None:
            raise ValueError(_names_none(
                name, entry.attr, entry.module, f", as the entry point {entry.value!r} names it", bots_only=bots_only
            ))
    elif ":" in name:
        module, _, attribute = name.partition(":")
        if not module or not attribute:
            raise ValueError(
                f"cannot load {name!r}: a 'module:attribute' path needs both parts, such as 'mine:Mine' "
                "(Mine in mine.py)"
            )
        if module.endswith(".py") or "/" in module or os.sep in module:
            file = os.path.basename(module)
            raise ValueError(
                f"cannot load {name!r}: {module!r} is a file, and a strategy is named by its module: run from the "
                f"folder that holds {file} (or put that folder on PYTHONPATH) and name it "
                f"'{file.removesuffix('.py')}:{attribute}'"
            )
        try:
            loaded = _import_own(module)
        except ModuleNotFoundError as exc:
            missing = exc.name or ""
            if missing and missing != module and not module.startswith(f"{missing}."):
                # The module was found: it is one it imports that is not there.
                raise ValueError(
                    f"cannot load {name!r}: {_where(module)} imports {missing!r}, which is not installed where "
                    f"this runs ({exc}): install it here, or take that import out of {module}"
                ) from None
            raise ValueError(
                f"cannot load {name!r}: {exc} (a module of your own is looked for where Python looks and "
                "in the current folder: run from its folder, set PYTHONPATH, or install it)"
            ) from None
        except ImportError as exc:  # an import inside the module failed: "cannot import name ..."
            raise ValueError(
                f"cannot load {name!r}: importing {_where(module)} raised ImportError: {exc}{raised_at(exc)}; "
                "fix it and run again"
            ) from None
        except SyntaxError:
            raise  # the file and line are the exception's own (the command line says them)
        except (Exception, SystemExit) as exc:  # the module's own code raised as it was imported (or exited)
            raise ValueError(
                f"cannot load {name!r}: importing {_where(module)} raised {shown_raised(exc)}{raised_at(exc)}; "
                "fix it and run again"
            ) from None
        first, _, rest = attribute.partition(".")
        try:
            target = getattr(loaded, first)
        except AttributeError:
            there = _defined(loaded)
            hidden = _hidden_namesake(module, getattr(loaded, "__file__", None))
            if hidden is not None:
                # random:Mine with one's own random.py here: Python's own random comes first.
                there += f" (another {module} at {hidden} is not the one loaded: if that is yours, rename it)"
            raise ValueError(
                f"cannot load {name!r}: {_where(module)} has no {first!r}{there}: check the name after "
                f"the colon (case counts), or define {first!r} in {module}"
            ) from None
        # 'mine:Bots.Cautious', as an entry point may name it: each part looked up in the one before.
        parts = rest.split(".") if rest else []
        for i, part in enumerate(parts):
            try:
                target = getattr(target, part)
            except AttributeError:
                owner = ".".join([first, *parts[:i]])
                raise ValueError(
                    f"cannot load {name!r}: {module}:{owner} has no {part!r}: check the name after the colon "
                    f"(case counts), or define {part!r} in {owner}"
                ) from None
        if target is None:
            raise ValueError(_names_none(name, attribute, module, "", bots_only=bots_only))
    return target


def _names_none(name: str, attribute: str, module: str, how: str, *, bots_only: bool) -> str:
    """What to say of a path or entry point whose attribute is there but None (``Mine = None``, left
    for later): it was said to be no strategy's name at all, as if the module lacked it. A game
    (``bots_only``) is not offered the batch strategy it would refuse."""
    if bots_only:
        return (
            f"cannot load {name!r}: {attribute!r} in {_where(module)} is None{how}, not a bot: set it to a bot "
            "(order(view, rng)), or to a class or function that makes one (docs/strategy.md, 'Writing your own "
            "strategy')"
        )
    return (
        f"cannot load {name!r}: {attribute!r} in {_where(module)} is None{how}, not a strategy: set it to a batch "
        "strategy (orders(view, rng)) or a bot (order(view, rng)), or to a class or function that makes one "
        "(docs/strategy.md shows both)"
    )


def _hidden_namesake(module: str, loaded: str | None) -> str | None:
    """The file of a module called ``module`` in the current folder or on the path other than the
    one loaded (``loaded``), which Python never reaches; ``None`` if there is none."""
    if "." in module:
        return None
    seen = {os.path.abspath(loaded)} if loaded else set()
    for folder in (os.getcwd(), *sys.path):
        with contextlib.suppress(Exception):  # a folder that cannot be read, a path entry that is no folder
            spec = importlib.machinery.PathFinder.find_spec(module, [folder or os.getcwd()])
            if spec is not None and spec.origin and os.path.abspath(spec.origin) not in seen:
                return spec.origin
    return None


_NAMEABLE_SHOWN = 6
"""How many names a message on a missing attribute offers instead."""


def _defined(module: object) -> str:
    """What ``module`` has that could be named after its colon instead, for a message saying it lacks
    the one named: bots first (an ``order`` method), then batch strategies (``orders``), then its
    package's other public classes and functions, re-exports included (a package's ``__init__``
    often only imports its bots). At most :data:`_NAMEABLE_SHOWN` are named.

    >>> import sevens.lab.strategies
    >>> _defined(sevens.lab.strategies)
    '; it has the batch strategies EvenPacing, GroupBlitzPacing, ...; also BatchView (... more not shown)'
    """
    own = str(getattr(module, "__name__", "")).partition(".")[0]
    listed = getattr(module, "__all__", None)
    names = [n for n in listed if isinstance(n, str)] if isinstance(listed, (list, tuple)) else list(vars(module))
    ranked: list[tuple[int, str]] = []
    for key in names:
        if key.startswith("_"):
            continue
        try:
            tier = _nameable(getattr(module, key), own)
        except Exception:  # a lazy attribute (a module's __getattr__) that fails as it loads: not offered
            continue
        if tier is not None:
            ranked.append((tier, key))
    if not ranked:
        return ", and has no bot, class or function to name"
    ranked.sort()
    shown = ranked[:_NAMEABLE_SHOWN]
    groups: list[str] = []
    for tier, (one, many) in enumerate([("the bot", "the bots"), ("the batch strategy", "the batch strategies"),
                                        ("", "")]):
        keys = [key for t, key in shown if t == tier]
        if keys:
            label = (one if len(keys) == 1 else many) if tier < 2 else ("also" if groups else "")
            groups.append(f"{label} {', '.join(keys)}".strip())
    more = len(ranked) - len(shown)
    return f"; it has {'; '.join(groups)}" + (f" ({more} more not shown)" if more > 0 else "")


def _nameable(value: object, own: str) -> int | None:
    """0 for a bot, 1 for a batch strategy, 2 for another class or function of the package ``own``,
    ``None`` for what is not worth offering."""
    if value is None or isinstance(value, types.ModuleType):
        return None
    if isinstance(value, type) and getattr(value, "_is_protocol", False):
        return None  # a Protocol has the methods but plays nothing
    if callable(getattr(value, "order", None)):
        return 0
    if callable(getattr(value, "orders", None)):
        return 1
    if callable(value) and str(getattr(value, "__module__", "")).partition(".")[0] == own:
        return 2  # whatever came from elsewhere (dataclass, Random) is no bot of this package's
    return None


_OWN_CODE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the sevens package
_PATHS = sysconfig.get_paths()
_PYTHONS_OWN = tuple({os.path.abspath(_PATHS[key]) + os.sep for key in ("stdlib", "platstdlib")})
# Installed packages (a bot's own, too) may live inside the standard library's folder.
_INSTALLED = tuple({os.path.abspath(_PATHS[key]) + os.sep for key in ("purelib", "platlib")})


def _one_of_ours_or_pythons(filename: str) -> bool:
    if filename.startswith("<"):
        return True  # generated: importlib's frozen frames, a dataclass's __init__
    path = os.path.abspath(filename)
    if path.startswith(_OWN_CODE + os.sep):
        return True
    return path.startswith(_PYTHONS_OWN) and not path.startswith(_INSTALLED)


def raised_at(exc: BaseException) -> str:
    """Where code of one's own raised ``exc``: ``" at FILE, line N"`` for the innermost frame of its
    traceback outside the sevens package, Python's standard library (where one's own call of
    ``json.loads`` or an entry point's missing attribute raises) and generated code (importlib's
    frozen frames, a dataclass's ``__init__``), or nothing if there is none (a function written in
    C raised). FILE is :func:`~sevens.tournament.quoting.escaped`: a folder's name is anybody's
    text, and the line is printed to a terminal (sevens play's odds line) or a page.

    >>> try:
    ...     exec(compile("1 / 0", "/srv/mine.py", "exec"))
    ... except ZeroDivisionError as exc:
    ...     raised_at(exc)
    ' at /srv/mine.py, line 1'
    >>> try:
    ...     exec(compile("1 / 0", "/srv/ev\\x1b[2Jil/mine.py", "exec"))
    ... except ZeroDivisionError as exc:
    ...     print(raised_at(exc))
     at /srv/ev\\x1b[2Jil/mine.py, line 1
    >>> raised_at(ValueError("never raised"))
    ''
    """
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if not _one_of_ours_or_pythons(frame.filename):
            return f" at {escaped(frame.filename)}, line {frame.lineno}"
    return ""


_SHOWN_ERROR = 300
"""Characters of what a bot's code raised that a message quotes."""


def shown_error(text: str, limit: int = _SHOWN_ERROR) -> str:
    """What a bot's code raised, as messages quote it: control characters escaped and cut to its
    first ``limit`` characters (a package's error may be anything, a page of text or terminal codes).

    >>> shown_error("no weights\\x1b[31m")
    'no weights\\\\x1b[31m'
    >>> shown = shown_error("y" * 1_000)
    >>> len(shown), shown.endswith("y... (1,000 characters)")
    (322, True)
    """
    shown = escaped(text)
    if len(shown) <= limit:
        return shown
    return f"{shown[:limit]}... ({len(text):,} characters)"


def shown_raised(exc: BaseException) -> str:
    """An exception some other code raised, as a message quotes it: its type, and its message by
    :func:`shown_error`."""
    return f"{type(exc).__name__}: {shown_error(str(exc))}" if str(exc) else type(exc).__name__


def _where(module: str) -> str:
    """``module`` and the file Python loads it from, where it can tell.

    >>> _where("sevens.bots.strategies").endswith("strategies.py)")
    True
    """
    file = None
    with contextlib.suppress(Exception):  # finding it imports its packages, which may raise anything
        spec = importlib.util.find_spec(module)
        file = None if spec is None else spec.origin
    return f"{module} ({file})" if file else module


def _import_own(module: str) -> object:
    """Import ``module``; if Python cannot find it, look in the current folder too, as ``python -m``
    would. The folder goes last on the path, so a file there never hides an installed module."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        if exc.name != module.partition(".")[0] or here in sys.path:
            raise
        sys.path.append(here)
        return importlib.import_module(module)


@dataclass(frozen=True)
class _CalledByItsPath:
    """A bot of one's own with an order method but no ``name`` (the guide makes it optional), called
    by the name it was given (its path or entry point)."""

    bot: Any
    name: str

    def order(self, view: ManagerView, rng: random.Random) -> Order:
        made: Order = self.bot.order(view, rng)
        return made


def _external(name: str) -> Strategy | None:
    """A bot from an entry point called ``name``, or from a ``"module:attribute"`` path."""
    target = load_registered(name, bots_only=True)
    if target is None:
        return None
    # A class or a factory makes the bot; anything else is the bot itself.
    factory = isinstance(target, type) or (callable(target) and not hasattr(target, "order"))
    made: object = target() if factory and callable(target) else target
    if not hasattr(made, "name") and callable(getattr(made, "order", None)):
        return _CalledByItsPath(made, name)
    if not isinstance(made, Strategy):
        if callable(getattr(made, "orders", None)) and not hasattr(made, "order"):
            # The guide's batch strategy: the lab plays it, a game asks one team at a time.
            raise ValueError(
                f"{name!r} is a batch strategy (orders(view, rng)), which only sevens lab plays: a bot for "
                "games needs an order(view, rng) method for one team (docs/strategy.md, 'Writing your own "
                "strategy'), or play it with sevens lab --strategies"
            )
        raise ValueError(f"{name!r} is not a bot: it needs an order(view, rng) method")
    return made


DESCRIBED_AS = {
    "front-loading": "group-blitz",
    "front-loader": "group-blitz",
    "front-load": "group-blitz",
    "blitz": "group-blitz",
    "knockout-saving": "knockout-saver",
    "saver": "knockout-saver",
    "even-pacing": "even",
    "even-pacer": "even",
    "pacing": "even",
    "odds": "odds-aware",
    "equilibrium-based": "equilibrium",
    "solver": "equilibrium",
    "field": "field-reader",
    "table": "table-reader",
    "standings": "table-reader",
    "rest-when-safe": "table-reader",
}
"""What the built-in bots do, as people describe them (the issue and the strategy guide call
group-blitz "front-loading"), with the bot each means."""


def meant_bot(name: str, names: Collection[str]) -> str | None:
    """The one of ``names`` that ``name`` most likely meant: a bot described by what it does
    ("front-loading"), or a capital or a letter astray ("Group_Blitz", "odds-awre"); None if none.

    >>> names = ["even", "group-blitz", "odds-aware"]
    >>> meant_bot("front-loading", names), meant_bot("Group_Blitz", names), meant_bot("odds-awre", names)
    ('group-blitz', 'group-blitz', 'odds-aware')
    >>> meant_bot("cautious", names) is None
    True
    """
    key = "-".join(name.lower().replace("_", "-").split())
    described = DESCRIBED_AS.get(key)
    if described in names:
        return described
    close = difflib.get_close_matches(key, list(names), n=1, cutoff=0.75)
    return close[0] if close else None


def get_strategy(name: str) -> Strategy:
    """The bot called ``name``.

    Raises:
        ValueError: no such bot, listing the names there are.

    >>> get_strategy("even").name
    'even'
    >>> get_strategy("cautious")
    Traceback (most recent call last):
    ...
    ValueError: there is no bot called 'cautious'; choose one of: even, group-blitz, knockout-saver, random, even-flair, even-force, odds-aware, equilibrium, field-reader, table-reader, one of even, even-flair, even-force, odds-aware, equilibrium, field-reader with a knockout weight ('equilibrium@1.1'), a 'module:attribute' path, or an entry point in the group 'sevens.strategies'
    >>> get_strategy("even-flair@1.5").budget(scrum=100, turns_left=6, group_left=3)
    14
    """
    factory = STRATEGIES.get(name)
    if factory is not None:
        return factory()
    if "@" in name and name.partition("@")[0] in STRATEGIES:
        base, k, named = split_weighted_name(name)
        made = STRATEGIES[base]()
        assert isinstance(made, (EvenSpread, OddsAware, Equilibrium, FieldReader))
        return replace(made, name=named, knockout_weight=k)
    external = _external(name)
    if external is None:
        meant = meant_bot(name, STRATEGIES)
        near = f" (did you mean {meant!r}?)" if meant else ""
        raise ValueError(
            f"there is no bot called {name!r}{near}; choose one of: {', '.join(STRATEGIES)}, "
            f"one of {', '.join(WEIGHTED)} with a knockout weight ('equilibrium@1.1'), "
            f"a 'module:attribute' path, or an entry point in the group {ENTRY_POINT_GROUP!r}"
        )
    return external
