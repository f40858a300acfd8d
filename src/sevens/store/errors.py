"""Errors the store raises on bad requests; the web layer maps each kind to one HTTP status."""

from __future__ import annotations

from sevens.tournament.quoting import quoted

__all__ = [
    "Conflict", "DamagedRecord", "GameGone", "Gone", "Invalid", "NotFound", "Refused", "SeatSignedOut", "StoreError",
    "UnplayableOrder",
]


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


class GameGone(NotFound):
    """The game a request found a moment ago was deleted before its credential's grants were read
    (they went with it). The web answers as for any missing game, naming its address."""

    def __init__(self) -> None:
        super().__init__("this game was deleted by its organiser a moment ago; a deleted game is gone for good")


class Refused(StoreError):
    """The credential may not do this in this game."""

    status = 403


class SeatSignedOut(Refused):
    """The credential that sent an order or an autopilot played its seat when the caller checked,
    and no longer does under the game's lock: the organiser signed it out or handed the seat to the
    bots in between. ``player_id`` names the seat, so that a page can answer as it does when it
    finds the seat gone itself (what was sent, not saved, and how to get the seat back).

    >>> error = SeatSignedOut("p2", what="the order")
    >>> error.player_id, error.status, str(error)[:60]
    ('p2', 403, 'seat p2 was signed out, so the order was not saved: this cre')
    """

    def __init__(self, player_id: str, *, what: str) -> None:
        self.player_id = player_id
        super().__init__(
            f"seat {player_id} was signed out, so {what} was not saved: this credential no longer plays it "
            "(the organiser signed it out or handed the seat to the bots); ask the organiser for a new link"
        )


class Conflict(StoreError):
    """The game has moved on: a stale turn, a game not yet started or already over."""

    status = 409


class UnplayableOrder(Conflict):
    """A saved order the rules refuse when its turn is resolved, so the turn cannot be: the store
    checks every order as it is saved, so only a changed database or a hand-made backup holds one.
    ``what`` names the team and the rule, never the order's numbers (R13: secret until the turn is
    resolved), for the message and for a log. ``team_name``: the team as pages name it (its id if
    not given), for a page to say it with :meth:`naming`.

    >>> UnplayableOrder(3, team="fiji", rule="R3", part="flair").what
    "the saved order of team 'fiji' breaks R3 (its FLAIR)"
    """

    def __init__(self, turn: int, *, team: str, rule: str | None, part: str | None, team_name: str | None = None) -> None:
        self.turn, self.team, self.team_name = turn, team, team_name or team
        self._broken = f"breaks {rule or 'the rules'} ({'the order as a whole' if part is None else f'its {part.upper()}'})"
        self.what = f"the saved order of team {quoted(team)} {self._broken}"
        super().__init__(self._said(self.what))

    def naming(self, name: str) -> str:
        """The message with the team called ``name``, as a page names it, not by its id.

        >>> UnplayableOrder(2, team="new-zealand", rule="R3", part=None).naming("New Zealand")[:80]
        'turn 2 cannot be resolved: the saved order of New Zealand breaks R3 (the order a'
        """
        return self._said(f"the saved order of {name} {self._broken}")

    def _said(self, what: str) -> str:
        return (
            f"turn {self.turn} cannot be resolved: {what}, which only a changed database or backup can hold; "
            "the turn stays open: its manager can send another order, which replaces it (and the organiser can "
            "extend the deadline for that)"
        )


class Gone(StoreError):
    """A secret that worked once and no longer does: an invite already used, or expired."""

    status = 410


class DamagedRecord(StoreError):
    """The game's stored record no longer replays: it was changed outside sevens (in the database, or
    in a backup edited by hand before it was imported). The server's trouble, not the request's.
    ``reason`` says where the record fails; it names nothing a spectator may not read, since the
    stored record holds the resolved turns only (R13).

    >>> str(DamagedRecord("turns[0]: missing")).split(";")[0]
    'the record this server keeps of this game is damaged: it no longer replays (turns[0]: missing)'
    """

    status = 500

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(
            f"the record this server keeps of this game is damaged: it no longer replays ({reason}); it was "
            "changed outside sevens, in the server's database or in a backup edited before it was imported"
        )
