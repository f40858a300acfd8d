"""The colours of what the commands print, chosen to read on a dark and on a light terminal alike.

Nothing tells a program whether its terminal is dark or light (COLORFGBG is set by a few terminals
only, and not updated when a profile changes), so the commands use one set of colours for both.
rich's and typer's own choices did not read on white: cyan dice and option names, green rules,
yellow metavars, a green count and a cyan time under the lab's bar (in xterm's colours under 2:1
against white, where text wants at least 3:1). The colours kept are xterm's red, magenta and
bright blue, which stand at 3:1 or more against black and against white, bold (often drawn in the
bright colour) included; the rest is the terminal's own foreground, bold, dim or italic. The
contrasts are worked out, from xterm's palette, by tests/cli/test_colours_cli.py.

Colour never carries meaning alone: a refusal says 'Refused:', dice say FORCE and FLAIR, a winner
'win'. NO_COLOR, FORCE_COLOR and TERM=dumb are honoured as rich honours them: no colour (bold and
the like kept); colour even into a pipe; no codes at all.
"""

from __future__ import annotations

from types import ModuleType

from rich.theme import Theme

__all__ = ["ACCENT", "DICE", "HELP_STYLES", "RICH_STYLES", "THEME", "style_help"]

DICE = "magenta"
"""The dice thrown, in a match report: told from the orders and lines around them."""

ACCENT = "bright_blue"
"""Rules between turns, option names in the help, the lab's progress bar."""

RICH_STYLES = {
    "rule.line": ACCENT,
    "prompt.default": "bold",  # rich's bold cyan
    "progress.download": "none",  # the lab's 'done/total' count: rich's green
    "progress.remaining": "none",  # its time left: rich's cyan
    "progress.elapsed": "none",  # rich's yellow
    "progress.spinner": ACCENT,  # rich's green
    "status.spinner": ACCENT,
    "bar.back": "bright_black",  # rich's grey23, all but invisible on black
    "bar.complete": ACCENT,  # rich's pink and olive are not in the terminal's palette
    "bar.finished": ACCENT,
    "bar.pulse": ACCENT,
}
"""rich's styles where its own do not read on both backgrounds."""

THEME = Theme(RICH_STYLES)
"""rich's own styles with :data:`RICH_STYLES` instead: every console of the commands has it."""

HELP_STYLES = {
    "STYLE_OPTION": f"bold {ACCENT}",  # typer's bold cyan
    "STYLE_SWITCH": f"bold {ACCENT}",  # bold green
    "STYLE_COMMANDS_TABLE_FIRST_COLUMN": f"bold {ACCENT}",  # bold cyan
    "STYLE_TYPES": "bold",  # bold yellow
    "STYLE_USAGE": "bold",  # yellow
    "STYLE_OPTION_ENVVAR": "dim",  # dim yellow
    "STYLE_REQUIRED_LONG": "dim",  # dim red: under 2:1 on black
    "STYLE_HELPTEXT": "none",  # dim: an option named in the description was dim bright blue, 1.6:1 on black
}
"""typer's styles for the help (constants of ``typer.rich_utils``) where its own do not read on both."""


def style_help(rich_utils: ModuleType) -> None:
    """Give typer's help (``rich_utils``, its module that lays it out) the colours above."""
    for name, style in HELP_STYLES.items():
        setattr(rich_utils, name, style)
