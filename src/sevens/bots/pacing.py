"""How much a pacing bot spends on a match, with a knockout weight (issue 5).

``"even-flair@1.5"`` names "even-flair" spreading its SCRUM as if each knockout match it could
still play counted 1.5 group matches. K = 1 is even pacing; K < 1 spends more in the groups,
K > 1 saves for the knockouts. The game's bots and the lab's batch strategies read the same names
and the same weights, so a variant found in the lab can play in a game. "field-reader@K" names
field-reader leaning toward K rather than 1.5 (:func:`reply_weight`), K from 0 to 4.
"""

from __future__ import annotations

import difflib
import re
from fractions import Fraction
from typing import Literal

from sevens.rules import MAX_ORDER_POINTS

__all__ = [
    "FIELD_CAP",
    "NO_FIELD_REPLY",
    "REPLY_PULL",
    "REPLY_STEP",
    "REPLY_TARGET",
    "WEIGHTED",
    "check_knockout_weight",
    "WeightError",
    "check_reply_pull",
    "check_reply_target",
    "implied_weight",
    "paced_budget",
    "parse_knockout_weight",
    "reply_weight",
    "split_weighted_name",
]

WEIGHTED = ("even", "even-flair", "even-force", "odds-aware", "equilibrium", "field-reader")
"""The strategies that take a knockout weight (``NAME@K``); field-reader's is the weight its
reply leans toward."""


# Plain decimals and fractions only: Fraction("1e99999999") would spend minutes on one power of ten.
_WEIGHT_TEXT = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,2})?|[+-]?\d+/\d+")


def check_knockout_weight(k: object, typed: str | None = None) -> None:
    """Refuse a knockout weight outside 0 to 1000 or finer than 6 decimals (bounded so that exact
    totals stay far inside int64 in the lab's arrays). ``typed``: the weight as written, which the
    message quotes (``float`` would show 1.1400000000000001 as 1.14, the very number it refuses).

    >>> check_knockout_weight(Fraction("1.1400000000000001"), "1.1400000000000001")
    Traceback (most recent call last):
    ...
    ValueError: a knockout weight is a number from 0 to 1000 with at most 6 decimals, got 1.1400000000000001 (to 6 decimals: 1.14)
    """
    if not isinstance(k, Fraction) or not 0 <= k <= 1000 or k.denominator > 10**6:
        shown = typed if typed is not None else f"{float(k):g}" if isinstance(k, Fraction) else repr(k)
        rounded = f" (to 6 decimals: {float(round(k, 6)):g})" if isinstance(k, Fraction) and 0 <= k <= 1000 else ""
        raise ValueError(
            f"a knockout weight is a number from 0 to 1000 with at most 6 decimals, got {shown}{rounded}"
        )


class WeightError(ValueError):
    """A knockout weight refused by :func:`parse_knockout_weight`; ``kind`` says why, so that a
    form can say it in the words of its own boxes: ``"no-weight"`` (the bot takes none),
    ``"not-a-number"``, or ``"out-of-range"`` (a number, but not one the bot takes)."""

    def __init__(self, message: str, kind: Literal["no-weight", "not-a-number", "out-of-range"]) -> None:
        super().__init__(message)
        self.kind = kind


def parse_knockout_weight(base: str, weight: str) -> Fraction:
    """The knockout weight ``weight`` (text, as after the ``@`` of ``"even-flair@1.5"``) for the
    bot ``base``, read and checked: the one definition of what a weight looks like.

    Raises:
        WeightError: ``base`` takes no weight, ``weight`` is no number, or it is out of range.

    >>> parse_knockout_weight("even", " 3/2 "), parse_knockout_weight("odds-aware", "1e-1")
    (Fraction(3, 2), Fraction(1, 10))
    >>> parse_knockout_weight("even", "soon")
    Traceback (most recent call last):
    ...
    sevens.bots.pacing.WeightError: the knockout weight must be a number such as 0.5, 1.5 or 2, got 'soon'
    """
    if base not in WEIGHTED:
        # 'even-flar@1.5', 'Equilibrium@1.1': the name meant, as an unknown name without a weight is told.
        close = difflib.get_close_matches("-".join(base.lower().replace("_", "-").split()), WEIGHTED, n=1, cutoff=0.75)
        meant = f" (did you mean '{close[0]}@{weight.strip()}'?)" if close else ""
        raise WeightError(
            f"only {', '.join(WEIGHTED)} take a knockout weight ('even-flair@1.5'), not {base!r}{meant}", "no-weight"
        )
    text = weight.strip()
    try:
        if not _WEIGHT_TEXT.fullmatch(text):
            raise ValueError(text)
        k = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise WeightError(
            f"the knockout weight must be a number such as 0.5, 1.5 or 2, got {weight!r}", "not-a-number"
        ) from None
    try:
        (check_reply_target if base == "field-reader" else check_knockout_weight)(k, text)
    except ValueError as exc:
        raise WeightError(str(exc), "out-of-range") from None
    return k


def split_weighted_name(name: str) -> tuple[str, Fraction, str]:
    """``"even-flair@ 1.5"`` as ``("even-flair", Fraction(3, 2), "even-flair@1.5")``: the base,
    the weight (checked by :func:`parse_knockout_weight`) and the name as strategies carry it.

    Raises:
        ValueError: the base takes no weight, or the weight is not a number in range; the message
            names the whole name and what to write instead.

    >>> split_weighted_name("equilibrium@ 1.1")
    ('equilibrium', Fraction(11, 10), 'equilibrium@1.1')
    >>> split_weighted_name("random@2")
    Traceback (most recent call last):
    ...
    ValueError: 'random@2': only even, even-flair, even-force, odds-aware, equilibrium, field-reader take a knockout weight ('even-flair@1.5'), not 'random'
    """
    base, _, weight = name.partition("@")
    try:
        k = parse_knockout_weight(base, weight)
    except WeightError as exc:
        raise ValueError(f"{name!r}: {exc}") from None
    return base, k, f"{base}@{weight.strip()}"


def paced_budget(scrum: int, turns_left: int, group_left: int, knockout_weight: Fraction = Fraction(1)) -> int:
    """SCRUM to spend on this match: ``ceil(SCRUM / (g + K k))`` in the groups (``g`` group matches
    left, this one included, ``k`` knockout rounds), an even share of what is left in the
    knockouts; within what the team holds and R3's cap. Exact: K is a fraction.

    >>> paced_budget(100, 6, 3), paced_budget(100, 6, 3, Fraction(2)), paced_budget(7, 0, 0)
    (17, 12, 0)
    """
    if turns_left <= 0:
        return 0
    k = knockout_weight
    if k == 1 or group_left == 0:
        total = -(-scrum // turns_left)
    else:
        total = -(-scrum * k.denominator // (group_left * k.denominator + (turns_left - group_left) * k.numerator))
    return max(0, min(total, scrum, MAX_ORDER_POINTS))


FIELD_CAP = 4.0
"""The largest knockout weight read off an order (a team that spends almost nothing in a group
match counts as this, not as infinitely patient)."""

REPLY_STEP = 20
"""A reply's knockout weight is a whole number of twentieths."""

NO_FIELD_REPLY = Fraction(11, 10)
"""The reply before any group round has been played: the lab's best reply to even pacers."""

REPLY_TARGET = 1.5
"""The knockout weight a reply leans toward unless field-reader is given another (``field-reader@K``)."""

REPLY_PULL = 0.25
"""A reply moves this share of the way from the field's weight toward its target (field-reader's
``pull``, which the guide's trials of how far to move set to 0 and 0.5)."""


def check_reply_pull(pull: object) -> None:
    """Refuse a share of the way for field-reader's reply to move that is not a number from 0 (pace
    as the field does) to 1 (pace at the target).

    >>> check_reply_pull(1.5)
    Traceback (most recent call last):
    ...
    ValueError: field-reader's pull is the share of the way it moves from the field's knockout weight toward its target, a number from 0 to 1, got 1.5
    """
    if isinstance(pull, bool) or not isinstance(pull, int | float) or not 0 <= pull <= 1:
        raise ValueError(
            "field-reader's pull is the share of the way it moves from the field's knockout weight toward its "
            f"target, a number from 0 to 1, got {pull!r}"
        )


def check_reply_target(k: object, typed: str | None = None) -> None:
    """Refuse a weight for field-reader to lean toward outside 0 to :data:`FIELD_CAP` (its replies
    stay within the weights it reads); ``typed`` as for :func:`check_knockout_weight`."""
    check_knockout_weight(k, typed)
    assert isinstance(k, Fraction)
    if k > Fraction(FIELD_CAP):
        shown = typed if typed is not None else f"{float(k):g}"
        raise ValueError(f"field-reader leans toward a knockout weight from 0 to {FIELD_CAP:g}, got {shown}")


def implied_weight(spent: int, scrum: int, group_left: int, knockout_rounds: int) -> float:
    """The knockout weight K at which a team holding ``scrum`` would spend ``spent`` on a group
    match (``group_left`` group matches left, that one included): ``(scrum / spent - g) / k``,
    within 0 and :data:`FIELD_CAP`. Only for ``scrum > 0``.

    >>> [round(implied_weight(spent, 100, 3, 3), 3) for spent in (17, 29, 0)]
    [0.961, 0.149, 4.0]
    """
    if spent <= 0:
        return FIELD_CAP
    return min(FIELD_CAP, max(0.0, (scrum / spent - group_left) / knockout_rounds))


def reply_weight(field: float | None, target: float = REPLY_TARGET, pull: float = REPLY_PULL) -> Fraction:
    """The knockout weight to pace with against a field that paces at ``field``: a quarter of the
    way (``pull``) from the field's own toward ``target`` (1.5 unless field-reader is given another), in
    twentieths (the lab's finding: the best reply lies between the field's pacing and K = 1.5,
    close to the field's); 1.1 with nothing to read yet.

    >>> reply_weight(None), reply_weight(1.0), reply_weight(0.15), reply_weight(2.0)
    (Fraction(11, 10), Fraction(11, 10), Fraction(1, 2), Fraction(19, 10))
    >>> reply_weight(0.15, target=1.25)
    Fraction(2, 5)
    >>> reply_weight(0.15, pull=0), reply_weight(0.15, pull=0.5)
    (Fraction(3, 20), Fraction(4, 5))
    """
    if field is None:
        return NO_FIELD_REPLY
    k = field + (target - field) * pull
    return Fraction(round(k * REPLY_STEP), REPLY_STEP)
