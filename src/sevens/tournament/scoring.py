"""How one side's dice made its line, in words: the match report's "How it scored", said alike by
the web's match report and the terminal's (R1, R2)."""

from __future__ import annotations

from sevens.rules.lines import Line
from sevens.rules.play import Dice, flair_throw_line, force_die_line

__all__ = ["NOTHING_THROWN", "scoring_sentence", "scoring_words"]

NOTHING_THROWN = "nothing ordered, nothing thrown"
"""What a side says that ordered 0+0: it threw no dice, so :func:`scoring_words` has nothing to say."""


def _counted(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def scoring_words(dice: Dice) -> tuple[str, ...]:
    """How one side's dice made its line, FORCE then FLAIR (R1, R2), for a reader who sees the
    faces and the total but not which throw scored what.

    >>> scoring_words(Dice(force=(5, 3, 1), flair=(((3, 3), (2, 5)), ((5, 4),))))
    ('FORCE 8: 1 try (a 5), 1 penalty (a 3)', 'FLAIR 18: 1 seven (a converted try), 1 try (a 5), 2 drop goals (3s); 1 double, thrown again')
    >>> scoring_words(Dice(force=(6, 2), flair=()))
    ('FORCE 0: no 5 or 3',)
    """
    said: list[str] = []
    if dice.force:
        force = sum((force_die_line(face) for face in dice.force), Line())
        parts = [f"{_counted(force.tries, 'try (a 5)', 'tries (5s)')}" if force.tries else "",
                 f"{_counted(force.penalties, 'penalty (a 3)', 'penalties (3s)')}" if force.penalties else ""]
        said.append(f"FORCE {force.points}: " + (", ".join(p for p in parts if p) or "no 5 or 3"))
    throws = [throw for option in dice.flair for throw in option]
    if throws:
        sevens = sum(1 for a, b in throws if a + b == 7)
        doubles = sum(1 for a, b in throws if a == b)
        # A 7's 5 or 3 (5-2, 4-3) is part of the converted try, not a try or drop goal of its own (R1).
        rest = sum((flair_throw_line(a, b) for a, b in throws if a + b != 7), Line())
        total = sum((flair_throw_line(a, b) for a, b in throws), Line())
        parts = [_counted(sevens, "seven (a converted try)", "sevens (converted tries)") if sevens else "",
                 _counted(rest.tries, "try (a 5)", "tries (5s)") if rest.tries else "",
                 _counted(rest.drop_goals, "drop goal (a 3)", "drop goals (3s)") if rest.drop_goals else ""]
        words = f"FLAIR {total.points}: " + (", ".join(p for p in parts if p) or "no 7, 5 or 3")
        if doubles:
            words += f"; {_counted(doubles, 'double, thrown again', 'doubles, each thrown again')}"
        said.append(words)
    return tuple(said)


def scoring_sentence(dice: Dice) -> str:
    """:func:`scoring_words` as one line, or :data:`NOTHING_THROWN` for a side that threw nothing.

    >>> scoring_sentence(Dice(force=(), flair=()))
    'nothing ordered, nothing thrown'
    """
    return " · ".join(scoring_words(dice)) or NOTHING_THROWN
