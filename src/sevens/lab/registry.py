"""Finding a strategy by name: the lab's built-ins, the bots, an entry point, or a module path.

A name is looked up in this order:

1. the lab's batch built-ins (:data:`BUILTINS`);
2. the bots of :data:`sevens.bots.STRATEGIES` and :mod:`sevens.bots.smart` (one decision at a
   time, run through :class:`~sevens.lab.strategies.ScalarAdapter`);
3. a Python entry point in the group ``"sevens.strategies"`` (a package declares, in its
   ``pyproject.toml``: ``[project.entry-points."sevens.strategies"] mine = "mypkg.bots:Mine"``);
4. a ``"module:attribute"`` path (``"mypkg.bots:Mine"``).

An entry point or path may name a strategy object or a class/function that makes one. Anything
with ``orders(view, rng)`` is a batch strategy; anything with ``order(view, rng)`` a one-decision
bot, adapted. Each :func:`resolve` makes a fresh strategy: a class or function is called again, an
object is copied (one that cannot be copied is refused), so that state one batch leaves on it never reaches the next (which would make a
run's results depend on how its batches are shared out among workers).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import hashlib
import importlib.machinery
import math
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from importlib.metadata import entry_points, packages_distributions, version
from typing import Any

from sevens.bots import ENTRY_POINT_GROUP, load_registered, pacing
from sevens.bots.strategies import meant_bot, registered_entry_point
from sevens.lab.smart import EquilibriumPacing, FieldReaderPacing, OddsAwarePacing, TableReaderPacing
from sevens.lab.strategies import (
    BatchStrategy,
    EvenPacing,
    GroupBlitzPacing,
    KnockoutSaverPacing,
    RandomPacing,
    ScalarAdapter,
)

__all__ = [
    "BUILTINS", "ENTRY_POINT_GROUP", "WEIGHTED", "WEIGHTED_TYPES", "available", "describe", "hidden_entry_point",
    "is_builtin", "resolve",
]


BUILTINS: dict[str, Callable[[], BatchStrategy]] = {
    "even": EvenPacing,
    "group-blitz": GroupBlitzPacing,
    "knockout-saver": KnockoutSaverPacing,
    "random": RandomPacing,
    "even-flair": lambda: EvenPacing(name="even-flair", flair=1.0),
    "even-force": lambda: EvenPacing(name="even-force", flair=0.0),
    "odds-aware": OddsAwarePacing,
    "equilibrium": EquilibriumPacing,
    "field-reader": FieldReaderPacing,
    "table-reader": TableReaderPacing,
}
"""The batch strategies by name. "even", "group-blitz" (front-loading), "knockout-saver" and
"random" follow the bots of the same name; "even-flair"/"even-force" pace evenly and put
everything in FLAIR/FORCE; "odds-aware", "equilibrium", "field-reader" and "table-reader"
follow :mod:`sevens.bots.smart` (all run in the compiled loop; "field-reader" keeps every team's
group orders there to read the field, and "table-reader" reads its group's league points there
before the last group round)."""


WEIGHTED = pacing.WEIGHTED
"""The built-ins that take a knockout weight: ``"even-flair@1.5"`` is even-flair spreading its
SCRUM as if each knockout match counted 1.5 group matches
(:func:`~sevens.lab.strategies.paced_total`), its split unchanged; "field-reader@K" leans toward K
rather than 1.5. The game's bots take the same."""

WEIGHTED_TYPES = (EvenPacing, OddsAwarePacing, EquilibriumPacing, FieldReaderPacing)
"""The classes behind :data:`WEIGHTED`: each has a ``knockout_weight`` field."""


def _weighted(name: str) -> BatchStrategy:
    base, k, named = pacing.split_weighted_name(name)
    made = BUILTINS[base]()
    assert isinstance(made, WEIGHTED_TYPES)
    return replace(made, name=named, knockout_weight=k)


def _scalar_bots() -> dict[str, Callable[[], object]]:
    from sevens.bots import STRATEGIES

    return dict(STRATEGIES)


def _wrap(obj: object, name: str) -> BatchStrategy:
    made: object
    if isinstance(obj, type) or (callable(obj) and not hasattr(obj, "orders") and not hasattr(obj, "order")):
        made = obj()  # a class or a factory
        if not isinstance(obj, type) and not hasattr(made, "orders") and not hasattr(made, "order"):
            # A function that makes the strategy but returned something else: said to be "neither a
            # batch strategy nor a bot", as if the function itself were meant to have the methods.
            raise ValueError(
                f"{name!r} is a function, called to make the strategy, and it returned {_shown(made)}, which is "
                "neither a batch strategy (orders(view, rng)) nor a bot (order(view, rng)): return the strategy "
                "from it (a forgotten return gives None), or name the class or object that has one of those methods"
            )
    elif hasattr(obj, "orders") or hasattr(obj, "order"):
        made = _fresh(obj, name)
    else:
        made = obj  # refused below
    if hasattr(made, "orders"):
        return made  # type: ignore[return-value]
    if hasattr(made, "order"):
        return ScalarAdapter(made)
    raise ValueError(
        f"{name!r} is neither a batch strategy (orders(view, rng)) nor a bot (order(view, rng)): give it one of "
        "those methods (docs/strategy.md shows both), or name the class or object in its module that has one"
    )


def _shown(value: object) -> str:
    """A value as a message names it: short, and with its type where the text alone would not say it.

    >>> _shown(None), _shown((25, 0))
    ('None', 'a tuple (25, 0)')
    """
    if value is None:
        return "None"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
        return f"{text} (a {type(value).__name__})"
    return f"a {type(value).__name__} {text}"


def _fresh(obj: object, name: str) -> object:
    """A copy of a strategy object named by its path, as it was loaded: the module's own object
    is never played, so what one batch leaves on it cannot reach the next.

    Raises:
        ValueError: the object cannot be copied (it holds a lock, an open file, a generator, a
            connection...). Played as it is, it would carry what each batch leaves on it to the
            batches its process plays next, so that the results would depend on ``--workers``.

    >>> _fresh([1], "mine:NOTES") == [1]
    True
    >>> import threading
    >>> _fresh(threading.Lock(), "mine:LOCKED")
    Traceback (most recent call last):
    ...
    ValueError: strategy 'mine:LOCKED' is an object (lock) that cannot be copied: ...
    """
    try:
        return copy.deepcopy(obj)
    except Exception as exc:  # a lock, an open file, a generator, a connection...
        kind = type(obj)
        raise ValueError(
            f"strategy {name!r} is an object ({kind.__name__}) that cannot be copied: copying it raised "
            f"{type(exc).__name__}: {exc}. The lab plays a fresh strategy for each batch of tournaments, so that "
            "what one batch leaves on it never reaches the next and the results are the same for any --workers; "
            "played as it is, this one would carry its state from batch to batch. Name its class or a function "
            f"that makes one instead (its class is {kind.__module__}:{kind.__qualname__}, called once per batch), "
            "or give its class a __deepcopy__ that makes a working copy (opening its own file or connection)"
        ) from None


def is_builtin(name: str) -> bool:
    """Whether ``name`` is one of the project's strategies (tested with the lab), rather than one
    of an entry point or a module path.

    >>> is_builtin("even-flair@1.5"), is_builtin("cautious"), is_builtin("sevens.lab.strategies:RandomPacing")
    (True, False, False)
    """
    return name.partition("@")[0] in BUILTINS or name in _scalar_bots()


def _is_module(name: str) -> bool:
    """Whether ``name`` is a top-level module where a ``"module:attribute"`` path is looked for (the
    current folder and the path), found without importing it."""
    if not name.isidentifier() or name in sys.stdlib_module_names:  # 'json': no strategy of one's own
        return False
    with contextlib.suppress(Exception):  # a folder that cannot be read, a path entry that is no folder
        return importlib.machinery.PathFinder.find_spec(name, [os.getcwd(), *sys.path]) is not None
    return False


def hidden_entry_point(name: str) -> tuple[str, str] | None:
    """An installed package's entry point called ``name`` that :func:`resolve` never reaches, since a
    built-in (``"even"``, ``"even-flair@1.5"``) is called so and comes first: the package's name and
    the entry point's ``module:attribute``; ``None`` where there is none.

    >>> hidden_entry_point("even") is None  # no package here registers one called so
    True
    """
    if not (name in BUILTINS or name in _scalar_bots() or "@" in name):
        return None  # resolve reaches an entry point of this name
    return registered_entry_point(name)


def available() -> list[str]:
    """Every name that resolves without a module path.

    >>> {"even", "odds-aware", "equilibrium", "random"} <= set(available())
    True
    """
    names = dict.fromkeys(BUILTINS)
    names.update(dict.fromkeys(_scalar_bots()))
    names.update(dict.fromkeys(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)))
    return list(names)


def resolve(name: str, *, scalar: bool = False) -> BatchStrategy:
    """The batch strategy called ``name`` (see the module docstring for the search order).

    Args:
        name: a strategy name, an entry point name, or ``"module:attribute"``.
        scalar: prefer the one-decision bot over the batch built-in of the same name (slower;
            for checking that both agree).

    Raises:
        ValueError: nothing is called ``name``, listing what is.

    >>> resolve("even").name, resolve("even", scalar=True).name
    ('even', 'even')
    >>> resolve("sevens.lab.strategies:RandomPacing").name
    'random'
    >>> resolve("even-flair@1.5").knockout_weight
    Fraction(3, 2)
    >>> resolve("cautious")
    Traceback (most recent call last):
    ...
    ValueError: there is no strategy called 'cautious'; choose one of: ...
    >>> resolve("Group_Blitz")
    Traceback (most recent call last):
    ...
    ValueError: there is no strategy called 'Group_Blitz' (did you mean 'group-blitz'?); choose one of: ...
    >>> resolve("front-loading")
    Traceback (most recent call last):
    ...
    ValueError: there is no strategy called 'front-loading' (did you mean 'group-blitz'?); choose one of: ...
    >>> resolve("pacers.SaveThenFlair")
    Traceback (most recent call last):
    ...
    ValueError: there is no strategy called 'pacers.SaveThenFlair'; ... or give a 'module:attribute' path ('pacers:SaveThenFlair'?), ...
    >>> resolve("pacers.py")
    Traceback (most recent call last):
    ...
    ValueError: there is no strategy called 'pacers.py'; ... path ('pacers.py' is a file, and a strategy is named by its module and the name in it: run from the folder that holds pacers.py and name it as 'pacers:NAME'), or register a name of your own as an entry point in the group 'sevens.strategies' (docs/strategy.md, Writing your own strategy)
    """
    bots = _scalar_bots()
    if scalar and name in bots:
        return ScalarAdapter(bots[name]())
    if name in BUILTINS:
        return BUILTINS[name]()
    if name in bots:
        return ScalarAdapter(bots[name]())
    if "@" in name:
        return _weighted(name)
    target = load_registered(name)
    if target is not None:
        return _wrap(target, name)
    module, dot, attribute = name.rpartition(".")
    meant = f" ('{module}:{attribute}'?)" if dot and module and attribute else ""
    if name.endswith(".py"):
        # 'pacers.py' or './pacers.py', the file itself: read as a dotted path, it was 'pacers:py'?
        file = os.path.basename(name)
        meant = (f" ({name!r} is a file, and a strategy is named by its module and the name in it: run from the "
                 f"folder that holds {file} and name it as '{file.removesuffix('.py')}:NAME')")
    if not meant and _is_module(name):
        # 'pacers' for the pacers.py beside it: the module, not a strategy in it.
        meant = f" ({name!r} is a module here: name the strategy in it, as '{name}:NAME')"
    # A capital or a letter astray ('Even', 'group_blitz', 'odds-awre'), or what a bot does
    # ('front-loading'): the name that was meant first.
    close = meant_bot(name, available())
    near = f" (did you mean {close!r}?)" if close else ""
    raise ValueError(
        f"there is no strategy called {name!r}{near}; choose one of: {', '.join(available())}, "
        f"one of {', '.join(WEIGHTED)} with a knockout weight ('even-flair@1.5'), "
        f"or give a 'module:attribute' path{meant}, or register a name of your own as an entry point in the group "
        f"{ENTRY_POINT_GROUP!r} (docs/strategy.md, Writing your own strategy)"
    )


def describe(name: str) -> dict[str, Any]:
    """What ``name`` plays, for a run's record (``sevens lab --json``, ``sources``): enough to say in a
    paper which code and settings made the figures, and to tell whether a strategy of one's own has
    changed since. The name alone did not: ``save-then-flair`` named neither its package nor its
    version, and ``pacers:SaveThenFlair`` gave the same seed other figures once ``pacers.py`` was edited.

    Keys, always all there (``null`` where they do not apply):

    - ``name``: as given; ``kind``: ``"built-in"``, ``"entry point"`` or ``"module path"``;
    - ``target``: the ``module:attribute`` played (a built-in's class, an entry point's value);
    - ``parameters``: the made strategy's settings (a dataclass's fields, else its public
      attributes) that are numbers, text, booleans or fractions (as ``"3/2"``); its ``name`` left out;
    - ``package`` and ``package_version``: the installed distribution it comes from (``sevens``
      for a built-in), where there is one;
    - ``file`` and ``file_sha256``: the module file of a strategy of one's own and a digest of its
      bytes (a built-in's code is the run's ``sevens.source_digest``).

    >>> about = describe("even-flair@1.5")
    >>> about["kind"], about["target"], about["parameters"]
    ('built-in', 'sevens.lab.strategies:EvenPacing', {'flair': 1.0, 'knockout_weight': '3/2'})
    >>> describe("sevens.lab.strategies:RandomPacing")["kind"]
    'module path'
    """
    made = resolve(name)
    inner = made.strategy if isinstance(made, ScalarAdapter) else made
    kind = type(inner)
    about: dict[str, Any] = {
        "name": name, "kind": "module path", "target": name, "parameters": _parameters(inner),
        "package": None, "package_version": None, "file": None, "file_sha256": None,
    }
    if is_builtin(name):
        from sevens import __version__

        return {**about, "kind": "built-in", "target": f"{kind.__module__}:{kind.__qualname__}", "package": "sevens",
                "package_version": __version__}
    module = name.partition(":")[0]
    entry = next((ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name), None)
    if entry is not None:
        module = entry.module
        about.update(kind="entry point", target=entry.value)
        if entry.dist is not None:
            about.update(package=entry.dist.name, package_version=entry.dist.version)
    elif (owners := packages_distributions().get(module.partition(".")[0])):
        with contextlib.suppress(Exception):  # metadata that cannot be read: no package said
            about.update(package=owners[0], package_version=version(owners[0]))
    file = getattr(sys.modules.get(module), "__file__", None)
    if file:
        with contextlib.suppress(OSError), open(file, "rb") as source:
            about.update(file=os.path.abspath(file), file_sha256=hashlib.sha256(source.read()).hexdigest())
    return about


def _parameters(strategy: object) -> dict[str, Any]:
    """A strategy's settings that JSON can hold (fractions, and floats JSON has no number for, as text).

    >>> @dataclasses.dataclass
    ... class Odd:
    ...     name: str = "odd"
    ...     cap: float = float("inf")
    ...     floor: float = float("nan")
    ...     step: Fraction = Fraction(1, 3)
    ...     spare: object = object()
    >>> _parameters(Odd())
    {'cap': 'Infinity', 'floor': 'NaN', 'step': '1/3'}
    """
    if dataclasses.is_dataclass(strategy) and not isinstance(strategy, type):
        items = {f.name: getattr(strategy, f.name, None) for f in dataclasses.fields(strategy)}
    else:
        items = dict(getattr(strategy, "__dict__", {}))
    kept: dict[str, Any] = {}
    for key, value in items.items():
        if key == "name" or key.startswith("_"):
            continue
        if isinstance(value, Fraction):
            kept[key] = str(value)
        elif isinstance(value, float) and not math.isfinite(value):
            # json.dumps would write a bare Infinity or NaN, which no JSON reader takes: said as text.
            kept[key] = "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"
        elif value is None or isinstance(value, bool | int | float | str):
            kept[key] = value
    return kept
