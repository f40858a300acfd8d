"""What a bot mixes over: the orders it may give for a view, each with its chance.

A bot that draws from its ``rng`` (the pacing bots' jitter, "random", the equilibrium bots'
optimal mix) plays one order of a known mix. Odds against one draw of that mix are not the
chances its opponent faces; odds against the whole mix, each order weighted by its chance, are.
A strategy may say what it mixes over with an optional method, ``order_mix(view)``, which gets no
random source: the mix is a function of what the manager may see alone (R13, R14), so working
it out shows nothing of the game's secret seed or of an order already sent.

A user's strategy needs only ``order(view, rng)``; where it has no ``order_mix``,
:func:`order_mix` says ``None`` and the caller falls back on one typical order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Real

from sevens.rules import FLAIR_OPTION_COST, MAX_ORDER_POINTS, Order, validate_order
from sevens.tournament.game import ManagerView

__all__ = [
    "MIX_MOST",
    "MIX_PAIRS_READ",
    "Mix",
    "MixRefused",
    "ShownMix",
    "order_mix",
    "share_mix",
    "shown_mix",
]

Mix = tuple[tuple[Order, float], ...]
"""``(order, chance)`` pairs, distinct orders, chances above 0 summing to 1."""

MIX_MOST = {False: 400, True: 12}
"""At most this many orders of a mix are worked odds against, in the groups and in the knockouts.
A knockout's odds against an order it has not met take 2 to 60 ms (count-back lines), so the
"random" bot's 1,751 orders at 100 SCRUM took 110 s; a mix of more orders is stood in for by an
even sample of this many (:func:`shown_mix`), and says so. Group odds take under 1 ms an order."""


MIX_PAIRS_READ = 20_000
"""At most this many ``(order, chance)`` pairs of a bot's ``order_mix`` are read. There are 4,401
legal orders at most (160 points), so a longer mix repeats orders; an endless one (a generator that
never stops) would hold the odds up for good."""


def share_mix(total: int, low: float, high: float, scrum: int) -> Mix:
    """The orders :func:`sevens.bots.strategies.split` gives for ``total`` with a FLAIR share drawn
    uniformly between ``low`` and ``high`` (equal: that share alone), each with its chance.

    >>> [(o.flair, round(p, 12)) for o, p in share_mix(20, 0.4, 0.6, scrum=100)]  # 20 * share / 3: 2.67 to 4
    [(9, 0.625), (12, 0.375)]
    >>> share_mix(20, 1.0, 1.0, scrum=100)
    ((Order(force=2, flair=18), 1.0),)
    """
    total = max(0, min(total, scrum, MAX_ORDER_POINTS))
    low, high = min(max(low, 0.0), 1.0), min(max(high, 0.0), 1.0)
    most = total // FLAIR_OPTION_COST
    # split rounds total * share / 3 to whole options; with the share uniform, so is that figure.
    start, end = total * low / FLAIR_OPTION_COST, total * high / FLAIR_OPTION_COST
    chances: dict[int, float] = {}
    if end - start <= 0:
        chances[min(round(start), most)] = 1.0
    else:
        for k in range(math.floor(start + 0.5), math.floor(end + 0.5) + 1):
            inside = min(end, k + 0.5) - max(start, k - 0.5)
            if inside > 0:
                options = min(k, most)
                chances[options] = chances.get(options, 0.0) + inside / (end - start)
    return tuple(
        (Order(force=total - k * FLAIR_OPTION_COST, flair=k * FLAIR_OPTION_COST), p) for k, p in sorted(chances.items())
    )


class MixRefused(ValueError):
    """A strategy's ``order_mix`` gave something that is no mix of legal orders: what was wrong."""


def order_mix(strategy: object, view: ManagerView) -> Mix | None:
    """What ``strategy`` mixes over for ``view``, checked (R3) and its chances summing to 1; ``None``
    where it does not say: it has no ``order_mix`` method, or inherits one from a class whose
    methods it changes (a user's subclass of "even" with an ``order`` of its own).

    Raises:
        MixRefused: what it gave is no mix: not ``(order, chance)`` pairs, a chance that is not a
            number of 0 or more, none above 0, an order that breaks R3 for the team's SCRUM, or
            more than :data:`MIX_PAIRS_READ` pairs.
        Exception: whatever the strategy's own code raised.
    """
    method = getattr(strategy, "order_mix", None)
    if not callable(method) or not _own_mix(type(strategy)):
        return None
    given = method(view)
    merged: dict[Order, float] = {}
    try:
        for read, (order, chance) in enumerate(given):
            if read == MIX_PAIRS_READ:
                raise MixRefused(
                    f"more than {MIX_PAIRS_READ:,} (order, chance) pairs; a mix names each order it may give once"
                )
            # A string or a bool is no chance, though float() takes "0.5" and True.
            weight = float(chance) if isinstance(chance, Real) and not isinstance(chance, bool) else math.nan
            if not math.isfinite(weight) or weight < 0:
                raise MixRefused(f"a chance of {chance!r} for {order!r}; each chance must be a number of 0 or more")
            checked = validate_order(order.force, order.flair, scrum=view.scrum)
            merged[checked] = merged.get(checked, 0.0) + weight
    except MixRefused:
        raise
    except (ValueError, TypeError, AttributeError) as exc:  # OrderError is a ValueError
        raise MixRefused(f"{exc}; a mix is (Order, chance) pairs, each order legal (R3)") from None
    whole = sum(merged.values())
    if whole <= 0:
        raise MixRefused("no order with a chance above 0; a mix needs at least one")
    return tuple((order, chance / whole) for order, chance in merged.items() if chance > 0)


def _own_mix(kind: type) -> bool:
    """Whether the ``order_mix`` a class has describes its own ``order``: false where a subclass of
    a built-in bot changes a method (``order``, ``budget``, ``flair_share``...) but inherits the
    built-in's mix, which would then be the built-in's play, not its own."""
    for cls in kind.__mro__:
        # A built-in's mix is written for its own methods (EvenSpread's share_range with its flair_share).
        if "order_mix" in vars(cls) or cls.__module__.startswith("sevens.bots."):
            return True
        changed = [name for name, value in vars(cls).items() if not name.startswith("__") and (
            callable(value) or isinstance(value, (property, staticmethod, classmethod)))]
        if changed:
            return False
    return True


@dataclass(frozen=True, slots=True)
class ShownMix:
    """The orders odds are worked against for a mix, and how they stand for it."""

    orders: Mix
    """What the odds are against: the whole mix, or an even sample of it."""
    size: int
    """How many orders the whole mix holds."""
    top: Order | None = None
    """The whole mix's likeliest order, where :attr:`orders` is a sample of it (a sample's orders
    count alike, so its own likeliest is whichever happened to be taken twice or first)."""

    @property
    def sampled(self) -> bool:
        """Whether :attr:`orders` is a sample standing in for a larger mix (figures not exact)."""
        return len(self.orders) < self.size

    @property
    def likeliest(self) -> Order:
        """The order of the whole mix most often played (the first of those tied)."""
        if self.top is not None:
            return self.top
        return max(self.orders, key=lambda pair: pair[1])[0]


def shown_mix(mix: Sequence[tuple[Order, float]], *, knockout: bool) -> ShownMix:
    """``mix`` itself, or, past :data:`MIX_MOST` orders, an even sample of that many: the orders in
    order of total and FLAIR, each taken where its share of the mix's cumulative chance holds
    (i + 1/2) / n, every one taken counting 1 / n. Fixed by the mix alone (no random source).

    >>> mix = tuple((Order(force=t, flair=0), 1 / 130) for t in range(130))
    >>> shown = shown_mix(mix, knockout=True)
    >>> shown.size, shown.sampled, [order.force for order, _ in shown.orders]
    (130, True, [5, 16, 27, 37, 48, 59, 70, 81, 92, 102, 113, 124])
    """
    most = MIX_MOST[knockout]
    if len(mix) <= most:
        return ShownMix(orders=tuple(mix), size=len(mix))
    ordered = sorted(mix, key=lambda pair: (pair[0].total, pair[0].flair))
    taken: dict[Order, float] = {}
    reached, at = 0.0, 0
    for i in range(most):
        target = (i + 0.5) / most
        while at < len(ordered) - 1 and reached + ordered[at][1] <= target:
            reached += ordered[at][1]
            at += 1
        order = ordered[at][0]
        taken[order] = taken.get(order, 0.0) + 1 / most
    return ShownMix(orders=tuple(taken.items()), size=len(mix), top=max(mix, key=lambda pair: pair[1])[0])
