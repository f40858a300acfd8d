"""The commands' colours read on a black and on a white terminal: the contrast of every style they
print, worked out from xterm's sixteen colours, as WCAG defines contrast.

The threshold is 3:1. The 4.5:1 WCAG asks of ordinary text cannot be had on black and on white
at once: the best any colour can do against both is the square root of 21, 4.58:1, and none of
xterm's sixteen reaches 4.5 against both (magenta 4.48, bright blue 4.43). 3:1 is WCAG's floor for
bold and large text and for lines and bars, and the commands' coloured text is an accent on words
that say the same without it. The terminal's own foreground is assumed to read on its background
(black on white, xterm's own, or light grey on black).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from rich.style import Style

from sevens.cli import theme

XTERM = ["000000", "cd0000", "00cd00", "cdcd00", "0000ee", "cd00cd", "00cdcd", "e5e5e5",
         "7f7f7f", "ff0000", "00ff00", "ffff00", "5c5cff", "ff00ff", "00ffff", "ffffff"]
"""xterm's sixteen colours, as its default resources give them (color0 to color15)."""

BACKGROUNDS = {"black": ((0, 0, 0), (0xE5, 0xE5, 0xE5)), "white": ((255, 255, 255), (0, 0, 0))}
"""Each background with the foreground a terminal pairs with it."""

THRESHOLD = 3.0

RGB = tuple[int, int, int]


def _rgb(index: int) -> RGB:
    """Colour ``index`` of xterm's 256: the sixteen, the 6x6x6 cube, the 24 greys."""
    if index < 16:
        code = XTERM[index]
        return int(code[:2], 16), int(code[2:4], 16), int(code[4:], 16)
    if index < 232:
        steps = [0, 95, 135, 175, 215, 255]
        index -= 16
        return steps[index // 36], steps[index // 6 % 6], steps[index % 6]
    grey = 8 + 10 * (index - 232)
    return grey, grey, grey


def luminance(rgb: RGB) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: RGB, other: RGB) -> float:
    """WCAG 2's contrast ratio, 1 to 21."""
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def shown(colour: int | RGB | None, *, bold: bool, dim: bool, background: str) -> list[RGB]:
    """The colours a terminal may draw text of ``colour`` (None: its own foreground) in, on
    ``background``: bold may be drawn in the bright colour (xterm's boldColors), and dim (faint) as
    the colour mixed half and half with the background."""
    back, fore = BACKGROUNDS[background]
    if colour is None:
        drawn = [fore]
    elif isinstance(colour, tuple):
        drawn = [colour]
    else:
        drawn = [_rgb(colour)] + ([_rgb(colour + 8)] if bold and colour < 8 else [])
    if dim:
        drawn = [(round((r + back[0]) / 2), round((g + back[1]) / 2), round((b + back[2]) / 2)) for r, g, b in drawn]
    return drawn


def worst(colour: int | RGB | None, *, bold: bool = False, dim: bool = False) -> tuple[float, str]:
    """The lowest contrast text in ``colour`` has on black or on white, and on which."""
    return min((contrast(drawn, BACKGROUNDS[background][0]), background)
               for background in BACKGROUNDS for drawn in shown(colour, bold=bold, dim=dim, background=background))


def test_the_contrast_rule_matches_what_is_known_of_it() -> None:
    """The arithmetic, checked on known figures: black on white is 21:1, a colour against itself
    1:1, and rich's cyan on white and bright blue on black as the palette gives them."""
    assert round(contrast((0, 0, 0), (255, 255, 255)), 2) == 21.0
    assert contrast(_rgb(5), _rgb(5)) == 1.0
    assert worst(6) == (pytest.approx(1.98, abs=0.01), "white")  # cyan: why the dice were hard to read
    assert worst(None, dim=True)[0] > THRESHOLD  # dim text in the terminal's own colour reads
    assert worst(1, dim=True)[0] < 2  # dim red does not, on black


def _colour_of(style: Style) -> int | RGB | None:
    colour = style.color
    if colour is None or colour.is_default:
        return None
    if colour.number is not None:
        return colour.number
    triplet = colour.get_truecolor()
    return triplet.red, triplet.green, triplet.blue


def _theme_styles() -> Iterator[tuple[str, Style]]:
    """Every style the theme sets: rich's it replaces, typer's help's, sevens' own."""
    yield from ((name, theme.THEME.styles[name]) for name in theme.RICH_STYLES)
    import typer.rich_utils

    theme.style_help(typer.rich_utils)
    for name in dir(typer.rich_utils):
        value = getattr(typer.rich_utils, name)
        if name.startswith("STYLE_") and isinstance(value, str) and "BOX" not in name:
            yield name, Style.parse(value or "none")
    yield "DICE", Style.parse(theme.DICE)
    yield "ACCENT", Style.parse(theme.ACCENT)


@pytest.mark.parametrize(("name", "style"), list(_theme_styles()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_style_of_the_theme_reads_on_black_and_on_white(name: str, style: Style) -> None:
    """rich's cyan, green and yellow (dice, rules, the lab's count and time, prompts' defaults) and
    typer's in the help (option names, metavars, usage) were under 2:1 on white; its grey23 bar
    1.8:1 on black. Each style of the theme now stands at 3:1 or more on both."""
    if style.bgcolor is not None:
        pytest.fail(f"{name} sets a background ({style}): work out its contrast against that")
    ratio, where = worst(_colour_of(style), bold=bool(style.bold), dim=bool(style.dim))
    assert ratio >= THRESHOLD, f"{name} ({style}) is {ratio:.2f}:1 on {where}"


_SGR = re.compile(r"\x1b\[([0-9;]*)m([^\x1b]*)")


def _runs(text: str) -> Iterator[tuple[str, int | RGB | None, bool, bool]]:
    """Each stretch of visible text in ``text`` with the style its colour codes give it: the codes,
    the colour (None: the terminal's own), bold, dim. A background or reversed colours fail."""
    colour: int | RGB | None = None
    bold = dim = False
    for match in _SGR.finditer(text):
        codes = [int(code or 0) for code in match[1].split(";")]
        while codes:
            code = codes.pop(0)
            if code == 0:
                colour, bold, dim = None, False, False
            elif code == 1:
                bold = True
            elif code == 2:
                dim = True
            elif code == 22:
                bold = dim = False
            elif 30 <= code <= 37 or 90 <= code <= 97:
                colour = code - 30 if code < 90 else code - 82
            elif code == 39:
                colour = None
            elif code == 38:
                kind = codes.pop(0)
                colour = codes.pop(0) if kind == 5 else (codes.pop(0), codes.pop(0), codes.pop(0))
            elif code in (7, *range(40, 48), 48, *range(100, 108)):
                pytest.fail(f"a background colour or reversed text (\\x1b[{match[1]}m): work out its contrast")
        if match[2].strip(" \n\r"):
            yield match[1], colour, bold, dim


def _coloured_output(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """What the commands print where they colour it (FORCE_COLOR: as in a terminal, 256 colours),
    each command's output by its name: every help, a bots' game and its record verified, odds, a
    group table and a short lab run with its progress bar."""
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES", "TERM")}
    environ.update({"FORCE_COLOR": "1", "TERM": "xterm-256color", "COLUMNS": "100", "HOME": str(tmp_path)})
    record = tmp_path / "record.json"
    results = tmp_path / "results.json"
    results.write_text('{"teams": ["fiji", "samoa", "tonga", "wales"], "matches": [{"home": "fiji", "away": "samoa", '
                       '"home_line": {"tries": 2, "conversions": 1, "penalties": 0, "drop_goals": 0}, '
                       '"away_line": {"tries": 1, "conversions": 0, "penalties": 1, "drop_goals": 0}}]}')
    # Each inner list runs in order (verify reads the record play writes); the lists run side by
    # side, as many at once as there are cores: each command is mostly Python starting up.
    commands = [[[name, "--help"]] for name in ("odds", "play", "verify", "table", "serve", "lab", "export", "import", "rotate-key")]
    commands += [[["--help"]], [["play", "--auto", "--seed", "colours", "--record", str(record)], ["verify", str(record)]],
                 [["odds", "--force", "10", "--flair", "9", "--vs-force", "5", "--vs-flair", "12"]],
                 [["odds", "--solve", "30", "10"]], [["table", str(results)]],
                 [["lab", "--tournaments", "2", "--strategies", "even,equilibrium"]]]

    def in_turn(chain: list[list[str]]) -> list[tuple[list[str], subprocess.CompletedProcess[str]]]:
        return [(args, subprocess.run([sys.executable, "-m", "sevens", *args], capture_output=True, text=True,
                                      env=environ, timeout=600, check=False)) for args in chain]

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for done in pool.map(in_turn, commands):
            for args, run in done:
                assert run.returncode == 0, (args, run.stderr[-2000:])
                yield " ".join(args), run.stdout + run.stderr


def test_everything_the_commands_print_in_colour_reads_on_black_and_on_white(tmp_path: Path) -> None:
    """Each colour code the commands really print, whichever part of them chose it (sevens, rich,
    typer), read as a terminal draws it: cyan dice (1.98:1 on white), green rules between turns
    (1.37 for bright green), bold cyan option names drawn bright (1.25), numbers highlighted in bold
    cyan were all there before. Now every stretch of coloured text stands at 3:1 or more."""
    seen: dict[str, tuple[float, str, str]] = {}
    for command, text in _coloured_output(tmp_path):
        for codes, colour, bold, dim in _runs(text):
            ratio, where = worst(colour, bold=bold, dim=dim)
            if ratio < seen.get(codes, (99.0,))[0]:
                seen[codes] = (ratio, where, command)
    low = {codes: found for codes, found in seen.items() if found[0] < THRESHOLD}
    assert not low, {codes: f"{ratio:.2f}:1 on {where} in sevens {command}" for codes, (ratio, where, command) in low.items()}
    assert len(seen) >= 4  # bold, dim, the dice's and the accent's colours at least


@pytest.mark.parametrize(("environ", "colour", "any_code"), [
    ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, True),  # no colour; bold and dim stay
    ({"FORCE_COLOR": "1", "TERM": "dumb"}, False, False),  # no code of any kind
    ({"FORCE_COLOR": "1"}, True, True),  # colour even into a pipe
    ({}, False, False),  # a pipe: plain text
])
def test_no_color_force_color_and_a_dumb_terminal_are_honoured(environ: dict[str, str], colour: bool,
                                                               any_code: bool) -> None:
    """A bots' game and the help into a pipe, as if it were a terminal (FORCE_COLOR) with NO_COLOR
    or TERM=dumb, or with nothing said."""
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM", "COLUMNS")}
    for args in (["play", "--auto", "--seed", "c", "--no-save"], ["play", "--help"]):
        run = subprocess.run([sys.executable, "-m", "sevens", *args], capture_output=True, text=True, timeout=300,
                             env={**base, "TERM": "xterm-256color", **environ}, check=False)
        assert run.returncode == 0, run.stderr
        codes = set(re.findall(r"\x1b\[([0-9;]*)m", run.stdout))
        coloured = {code for code in codes if re.search(r"(?:^|;)(?:3[0-7]|9[0-7]|38)(?:;|$)", code)}
        assert bool(coloured) == colour, (args, environ, codes)
        assert ("\x1b[" in run.stdout) == any_code, (args, environ)


def test_the_help_styles_set_are_typers_own() -> None:
    """typer lays out the help with module constants; one renamed in a later typer would be set
    here for nothing, and its old colour would come back unseen. Asked of a fresh typer."""
    run = subprocess.run([sys.executable, "-c", "import typer.rich_utils as r; from sevens.cli.theme import HELP_STYLES; "
                          "print([name for name in HELP_STYLES if not isinstance(getattr(r, name, None), str)])"],
                         capture_output=True, text=True, timeout=60, check=True)
    assert run.stdout == "[]\n", run.stdout
