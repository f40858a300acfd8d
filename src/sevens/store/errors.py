"""Errors the store raises on bad requests; the web layer maps each kind to one HTTP status."""

from __future__ import annotations

__all__ = ["Conflict", "Gone", "Invalid", "NotFound", "Refused", "StoreError", "UnplayableOrder"]


class StoreError(ValueError):
    """A request the store refused; ``str(error)`` says what was wrong and how to fix it.

    ``field`` names the value that was wrong, where one was (the argument's name, such as
    ``"name"`` or ``"turn_seconds"``), so that a form can say it beside that box; ``None`` when the
    request as a whole was refused.

    >>> Invalid("the game's name is empty", field="name").field
    'name'
    >>> print(Conflict("the game has already started").field)
    None
    """

    status = 400

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class Invalid(StoreError):
    """Bad input: a value out of range, an order that breaks a rule (the message names it)."""

    status = 422


class NotFound(StoreError):
    """No such game, team, seat or invite."""

    status = 404


class Refused(StoreError):
    """The credential may not do this in this game."""

    status = 403


class Conflict(StoreError):
    """The game has moved on: a stale turn, a game not yet started or already over."""

    status = 409


class UnplayableOrder(Conflict):
    """A saved order the rules refuse when its turn is resolved, so the turn cannot be: the store
    checks every order as it is saved, so only a changed database or a hand-made backup holds one.
    The message names the team and the rule, never the order's numbers (R13: secret until the turn
    is resolved); ``team``, ``rule`` and ``part`` (``"force"``, ``"flair"`` or None for the order as
    a whole) say the same for a log."""

    def __init__(self, message: str, *, team: str, rule: str | None, part: str | None) -> None:
        super().__init__(message)
        self.team = team
        self.rule = rule
        self.part = part


class Gone(StoreError):
    """A secret that worked once and no longer does: an invite already used, or expired."""

    status = 410
