"""Rich renderings of a game for the terminal: group tables, match reports, the bracket."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from sevens.cli.theme import DICE
from sevens.rules import DecidedBy, Dice, Line
from sevens.tournament.fixtures import in_bracket_order
from sevens.tournament.formats import Stage
from sevens.tournament.game import Game, MatchResult, MatchSide
from sevens.tournament.lots import LotsDraw
from sevens.tournament.quoting import escaped
from sevens.tournament.scoring import scoring_sentence
from sevens.tournament.standings import (
    DECIDED_BY_WORDS,
    Criterion,
    GroupResult,
    GroupTable,
    describe_separation,
    separations,
)
from sevens.tournament.story import order_note
from sevens.tournament.story import team_story as told

__all__ = [
    "EXPLAIN",
    "NARROW",
    "Narrower",
    "Phrases",
    "phrases",
    "bracket",
    "describe_lots",
    "dice_text",
    "draw_table",
    "group_notes",
    "group_table",
    "line_text",
    "literal",
    "match_report",
    "percent",
    "scoring_lines",
    "separation_sentence",
    "team_names",
    "team_story",
]

NARROW = 60
"""Below this many columns (a phone's SSH client, a split tmux pane) the match reports, the fixtures
and the odds stack what sits side by side at 60 and more."""


class Phrases:
    """Text that breaks lines only between its phrases, so that a team's name or a figure and its
    label ("SCRUM 100->90") stays on one line wherever it fits the width; the lines after the first
    are indented by ``indent``. A phrase wider than the whole width is wrapped as any text is.

    >>> import io
    >>> console = Console(width=24, file=io.StringIO(), color_system=None)
    >>> console.print(Phrases(["Great Britain 42-26", "South Africa", "-> South Africa"], indent=2))
    >>> print(console.file.getvalue().rstrip())
    Great Britain 42-26
      South Africa
      -> South Africa
    """

    def __init__(self, phrases: Sequence[str | Text], *, indent: int = 0, style: str = "") -> None:
        self.phrases = [p if isinstance(p, Text) else Text(p) for p in phrases if p]
        self.indent = indent
        self.style = style

    def lines(self, width: int) -> list[Text]:
        """The lines at ``width`` columns, before any phrase too wide for them is folded."""
        lines: list[Text] = []
        line: Text | None = None
        for phrase in self.phrases:
            if line is not None and line.cell_len + 1 + phrase.cell_len <= width:
                line.append(" ")
                line.append_text(phrase)
                continue
            if line is not None:
                lines.append(line)
            line = Text(" " * self.indent if line is not None else "")
            line.append_text(phrase)
        if line is not None:
            lines.append(line)
        return lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = Text("\n", style=self.style).join(self.lines(options.max_width))
        text.stylize(self.style)
        yield text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((p.cell_len for p in self.phrases), default=0)
        whole = sum(p.cell_len for p in self.phrases) + max(0, len(self.phrases) - 1)
        return Measurement(widest + (self.indent if len(self.phrases) > 1 else 0), whole).clamp(
            max_width=options.max_width
        )


def literal(text: str) -> str:
    r"""``text`` (a name, a path, a message) as markup that shows it as it is, for a place in a line
    of prose that no tag follows: ``[bold]`` and ``[/]`` in a team's name were read as styles, or
    raised MarkupError. rich's own escape also doubles a backslash that ends the text, which only a
    tag right after it takes back: before plain text, a name "end\" showed as "end\\". Control
    and invisible characters are :func:`~sevens.tournament.quoting.escaped`: rich passes an escape
    sequence in a ``--record`` path or a bot's folder to the terminal, which obeyed it.

    >>> from rich.text import Text
    >>> [Text.from_markup(f"{literal(n)}: won").plain for n in ("[bold]Fiji", "x [/]", "end\\", "[", "g\x1b[2J")]
    ['[bold]Fiji: won', 'x [/]: won', 'end\\: won', '[: won', 'g\\x1b[2J: won']
    """
    text = escaped(text)
    shown = escape(text)
    return shown[:-1] if text.endswith("\\") and not text.endswith("\\\\") else shown


def phrases(markup: str, keep: Iterable[str] = ()) -> list[Text]:
    """A line of prose (markup) cut into phrases for :class:`Phrases`: its words, each figure kept
    with the word before it ("draw 3.1%,", "(SCRUM 100)") and each text of ``keep`` (team names)
    whole; the line's indentation stays on its first phrase.

    >>> [str(p) for p in phrases("  Fiji: lost to New Zealand, 19-12 (SCRUM 90).", keep=["New Zealand"])]
    ['  Fiji:', 'lost', 'to', 'New Zealand, 19-12', '(SCRUM 90).']
    """
    for text in keep:
        markup = markup.replace(text, text.replace(" ", "\0"))
    indent = markup[: len(markup) - len(markup.lstrip(" "))]
    out: list[str] = []
    for word in markup.split():
        figure = word.lstrip("(<>")[:1].isdigit()
        if figure and out:
            out[-1] += " " + word
        else:
            out.append(word)
    if out:
        out[0] = indent + out[0]
    return [Text.from_markup(word.replace("\0", " ")) for word in out]


class Narrower:
    """``wide`` at :data:`NARROW` columns and more (or ``columns``), ``narrow`` below; with
    ``whole``, ``narrow`` too where ``wide`` would have to wrap its cells to fit (a table whose every
    cell is a name that must not be split)."""

    def __init__(self, wide: RenderableType, narrow: RenderableType, columns: int = NARROW, *, whole: bool = False) -> None:
        self.wide = wide
        self.narrow = narrow
        self.columns = columns
        self.whole = whole

    def _pick(self, options: ConsoleOptions, console: Console) -> RenderableType:
        if options.max_width < self.columns:
            return self.narrow
        if self.whole and Measurement.get(console, options.update(max_width=10**6), self.wide).maximum > options.max_width:
            return self.narrow
        return self.wide

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._pick(options, console)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._pick(options, console))


EXPLAIN: dict[Criterion | None, str] = {
    criterion: "level (group unfinished)" if criterion is None else DECIDED_BY_WORDS[criterion]
    for criterion in (*Criterion, None)
}
"""The short explanation shown for each place's ``decided_by`` (R8)."""


def percent(p: float) -> str:
    """A probability as a percentage with one decimal, by the live odds' rule on the web pages
    (``percent`` in web/static/app.js): only what cannot happen reads 0% and only what must happen
    100%; a long shot under 1% keeps two figures, and a near-certainty reads ">99.9%".

    >>> percent(0.1234), percent(0.0), percent(1.0)
    ('12.3%', '0%', '100%')
    >>> percent(2.29e-5), percent(0.0042), percent(2.6e-9), percent(0.99997)
    ('0.0023%', '0.42%', '<0.0001%', '>99.9%')
    """
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    share = 100 * p
    if share < 0.0001:
        return "<0.0001%"
    if share < 1:
        return f"{share:.2g}%"
    if share > 99.9:
        return ">99.9%"
    return f"{share:.1f}%"


def line_text(line: Line) -> str:
    """A line in words, e.g. ``"17 (2T 1C 0P 1DG)"``.

    >>> line_text(Line(tries=2, conversions=1, drop_goals=1))
    '15 (2T 1C 0P 1DG)'
    """
    return f"{line.points} ({line.tries}T {line.conversions}C {line.penalties}P {line.drop_goals}DG)"


def dice_text(dice: Dice) -> str:
    """Every die thrown: FORCE faces, then each FLAIR option's throws (re-throws joined by '>').

    >>> dice_text(Dice(force=(5, 3), flair=(((2, 2), (3, 4)),)))
    'FORCE 5 3 | FLAIR 2-2>3-4'
    """
    return " ".join(dice_phrases(dice))


def dice_phrases(dice: Dice) -> list[str]:
    """:func:`dice_text` in phrases for :class:`Phrases`: each label with its first figure, so that
    a long line of dice never ends on "FLAIR" with its throws on the next line.

    >>> dice_phrases(Dice(force=(5, 3), flair=(((2, 2), (3, 4)), ((1, 6),))))
    ['FORCE 5', '3', '|', 'FLAIR 2-2>3-4', '1-6']
    """
    out: list[str] = []
    if dice.force:
        first, *rest = (str(face) for face in dice.force)
        out += [f"FORCE {first}", *rest]
    if dice.flair:
        first, *rest = (">".join(f"{a}-{b}" for a, b in option) for option in dice.flair)
        out += [*(["|"] if out else []), f"FLAIR {first}", *rest]
    return out or ["no dice"]


def _order_phrases(side: MatchSide) -> list[str]:
    """The order, whether the autopilot sent it, and the SCRUM before and after."""
    order = f"order {side.order.force}+{side.order.flair}"
    # The winner's 10 (R4) is in scrum_after: say so, or 100->90 after spending 20 reads as a mistake.
    bonus = side.scrum_after - (side.scrum_before - side.order.force - side.order.flair)
    # Missed orders marked in the web report's words; a bot's own team is not (every line would say it).
    return [order, order_note(side) if side.missed else "", f"SCRUM {side.scrum_before}->{side.scrum_after}",
            f"(+{bonus} win)" if bonus else ""]


def _side_cell(game: Game, side: MatchSide) -> Group:
    """A side's cell beside the other's: its order and SCRUM broken between phrases only, as in
    the narrow layout (a cell squeezed to 33 columns at 70 broke "(+10" from "win)")."""
    return Group(
        Text(game.setup.team(side.team).name, style="bold"),
        Phrases(_order_phrases(side), indent=2, style="dim"),
        Text(line_text(side.line)),
        Phrases(dice_phrases(side.dice), style=DICE),
    )


def _side_stacked(game: Game, side: MatchSide) -> Group:
    """A side's cell for a narrow terminal: its order and SCRUM broken between phrases only."""
    return Group(
        Text(game.setup.team(side.team).name, style="bold"),
        Phrases(_order_phrases(side), indent=2, style="dim"),
        Text(line_text(side.line)),
        Phrases(dice_phrases(side.dice), style=DICE),
    )


def match_report(game: Game, match: MatchResult) -> RenderableType:
    """One match: both orders, every die, the lines, and what decided it; the two sides side by
    side, or below :data:`NARROW` columns one above the other, team names never broken."""
    home = game.setup.team(match.home.team).name
    away = game.setup.team(match.away.team).name
    title = f"{match.fixture.id} {match.fixture.stage}"
    if match.fixture.group:
        title += f" {match.fixture.group}"  # "t1-m1 group A"
    # Names as they are, never read as markup: a record or a saved game may give a team any name.
    table = Table(title=Text(f"{title}: {home} v {away}"), show_header=False, expand=False, title_justify="left")
    table.add_column("home")
    table.add_column("away")
    table.add_row(_side_cell(game, match.home), _side_cell(game, match.away))
    # A draw's summary says so itself ("14-14, a draw").
    winner = [] if match.winner is None else [f"{game.setup.team(match.winner).name} win:"]
    table.caption = Text(" ".join([*winner, match.summary]))
    table.caption_justify = "left"
    stacked = Table(show_header=False, expand=False, show_lines=True)
    stacked.add_column("side", overflow="fold")
    stacked.add_row(_side_stacked(game, match.home))
    stacked.add_row(_side_stacked(game, match.away))
    narrow = Group(
        Phrases([f"{title}:", home, f"v {away}"], indent=2, style="italic"),
        stacked,
        Phrases([*winner, *match.summary.split()], indent=2, style="dim italic"),
    )
    report = [Narrower(table, narrow), *scoring_lines(game, match)]
    if match.lots is not None:
        # Lots settled it (R9): the throws, as the record keeps them (R10), so the winner is not taken on trust.
        report.append(Phrases(describe_lots(match.lots, team_names(game), what=False), indent=2, style="dim italic"))
    return Group(*report)


def scoring_lines(game: Game, match: MatchResult) -> list[RenderableType]:
    """How each side's dice made its line, as the web's match report says it ("How it scored"):
    the faces alone leave a reader to work out which throw was a try and which a drop goal. A line
    a side, its name kept whole and each figure with its word where the line wraps."""
    lines: list[RenderableType] = []
    for side in (match.home, match.away):
        name = game.setup.team(side.team).name
        said = scoring_sentence(side.dice)
        # Indented under the match, so that a side's name does not read as the next match's title.
        lines.append(Phrases([f"  {name}:", *(p.plain for p in phrases(literal(said)))], indent=4))
    return lines


def team_story(game: Game, team: str) -> list[str]:
    """``team``'s whole tournament so far (:func:`sevens.tournament.story.team_story`), a line a
    match, as the web's team page lists it: the turn, the opponent, how it ended, both orders, and
    its SCRUM before and after (with the winner's 10, R4); then how far it has gone and its match
    in the open turn, if any. Resolved turns only: an order of the open turn is nobody's to see (R13).

    Raises:
        KeyError: no such team in the game.
    """
    setup = game.setup
    story = told(game, team, lambda t: setup.team(t).name)
    lines = [f"{setup.team(story.team).name}, group {story.group}:"]
    for m in story.matches:
        # An order the autopilot played is marked, as the match report marks it (R13).
        own, other = (f"{s.order.force}+{s.order.flair}{', ' + order_note(s) + after if s.missed else ''}"
                      for s, after in ((m.own, ","), (m.other, "")))
        bonus = f", +{m.bonus} win" if m.bonus else ""
        lines.append(
            f"  Turn {m.turn}, {m.stage}: v {setup.team(m.other.team).name}, {m.result}; "
            f"order {own} against {other}; "
            f"SCRUM {m.own.scrum_before}->{m.own.scrum_after} (spent {m.spent}{bonus})"
        )
    if not story.matches:
        lines.append("  No match played yet.")
    lines.append(f"  {story.said}")
    upcoming = story.next_match
    if upcoming is not None:
        lines.append(f"  Turn {upcoming.turn}, {upcoming.stage}: v {setup.team(upcoming.opponent).name}, to play.")
    return lines


def team_names(game: Game) -> dict[str, str]:
    """Each team's name by its id."""
    return {team.id: team.name for team in game.setup.teams}


def describe_lots(draw: LotsDraw, names: Mapping[str, str] | None = None, *, what: bool = True) -> list[str]:
    """A drawing of lots in words, as phrases (R10): what it decided, every round of throws and the
    order it gave; each team by its name in ``names`` (its id where missing).

    >>> draw = LotsDraw("group A: places 1-2", ("fiji", "samoa"), ((("fiji", 4), ("samoa", 4)), (("fiji", 2), ("samoa", 6))),
    ...                 ("samoa", "fiji"))
    >>> " ".join(describe_lots(draw, {"fiji": "Fiji", "samoa": "Samoa"}))
    'Lots drawn for group A: places 1-2 (round 1: Fiji 4, Samoa 4; round 2: Fiji 2, Samoa 6) placed them Samoa, Fiji.'
    >>> " ".join(describe_lots(draw, what=False))
    'Lots drawn (round 1: fiji 4, samoa 4; round 2: fiji 2, samoa 6) placed them samoa, fiji.'
    """
    shown = names or {}
    # A team's name stays with its throw, so the sentence breaks only between them.
    said = [f"Lots drawn for {draw.what}" if what else "Lots drawn"]
    for number, round_ in enumerate(draw.throws, start=1):
        said.append(f"{'(' if number == 1 else ''}round {number}:")
        last = number == len(draw.throws)
        said += [
            f"{shown.get(team, team)} {face}{',' if i < len(round_) - 1 else ')' if last else ';'}"
            for i, (team, face) in enumerate(round_)
        ]
    order = [shown.get(team, team) for team in draw.order]
    return [*said, "placed them", *(f"{name}{',' if i < len(order) - 1 else '.'}" for i, name in enumerate(order))]


def separation_sentence(
    table: GroupTable, results: Iterable[GroupResult], name: Callable[[str], str] = str
) -> str | None:
    """What put each team above the next on the same league points, in one sentence for the
    terminal (:func:`~sevens.tournament.standings.describe_separation`), or None if none was level."""
    split = separations(table, results)
    if not split:
        return None
    return "Level on league points: " + "; ".join(describe_separation(s, name) for s in split) + "."


def group_notes(
    table: GroupTable, names: Mapping[str, str], first_knockout: Stage, results: Iterable[GroupResult] = ()
) -> list[RenderableType]:
    """What goes under a group table in a game, as the web's game page says it: what put each team
    above the next on the same league points, with both figures (``results``: the group's matches,
    which head-to-head counts), any lots it drew, with every throw (R10), and once the group is
    played who went through (R8)."""
    notes: list[RenderableType] = []
    sentence = separation_sentence(table, results, lambda t: names.get(t, t))
    if sentence:
        keep = sorted({names.get(r.team, r.team) for r in table.rows}, key=len, reverse=True)
        notes.append(Phrases([p.plain for p in phrases(literal(sentence), keep=[literal(k) for k in keep])], indent=2))
    notes += [Phrases(describe_lots(draw, names), indent=2) for draw in table.lots]
    if table.complete:
        first, second = (names.get(row.team, row.team) for row in table.rows[:2])
        notes.append(Phrases([f"Through to the {first_knockout}s:", f"{first} and", f"{second}."], indent=2))
    return notes


def group_table(table: GroupTable, names: Mapping[str, str] | None = None) -> RenderableType:
    """A group table with every tie-break column and why each place fell as it did (R8): boxed where
    the terminal is wide enough, otherwise without the box, so that no team name is cut short.

    Args:
        table: The table.
        names: How to show each team id (its id when missing); all the game's teams, so that every
            group table of a game has the same layout at the same width.
    """
    shown = names or {}
    # The widest a table of this game can be, not this one: the groups of one turn, printed one
    # after the other, then all take the same layout.
    team_width = max((len(n) for n in (*shown.values(), *(r.team for r in table.rows))), default=4)
    # Measured with the longest "Decided by" too, which a later turn may bring to any group.
    probe = _group_grid(table, shown, team_width, boxed=True, explain_width=_EXPLAIN_WIDTH)
    wide, narrow = (_group_grid(table, shown, team_width, boxed=b) for b in (True, False))
    # Without the frame, while "Decided by" keeps room for its longest word; narrower still (below
    # about 56 columns), the figures cut to "1…" and "P…": each team's name above its figures.
    unboxed_probe = _group_grid(table, shown, team_width, boxed=False, explain_width=_EXPLAIN_WORD)
    return _WideOrNarrow(wide, _WideOrNarrow(narrow, _group_stack(table, shown), unboxed_probe, whole=False), probe)


_FIGURE_HEADERS = ("P", "W", "D", "L", "TF", "TA", "PF", "PA", "Pts")
# The narrowest each figure's column is, so that the groups of one game line up with each other.
_FIGURE_WIDTHS = (1, 1, 1, 1, 2, 2, 3, 3, 3)


def _group_stack(table: GroupTable, shown: Mapping[str, str]) -> Table:
    """The group table for a narrow terminal: each team's place, name and why it stands there on
    one line, its figures on the next, under one header naming them."""
    counts = [
        (r.played, r.won, r.drawn, r.lost, r.tries_for, r.tries_against, r.points_for, r.points_against,
         r.league_points)
        for r in table.rows
    ]
    widths = [max(least, len(header), *(len(str(c[i])) for c in counts))
              for i, (header, least) in enumerate(zip(_FIGURE_HEADERS, _FIGURE_WIDTHS, strict=True))]

    def figures(values: Sequence[object]) -> Text:
        return Text(" ".join(str(v).rjust(w) for v, w in zip(values, widths, strict=True)))

    title = Text(table.what[:1].upper() + table.what[1:])  # a group's name as typed (sevens table): not markup
    out = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 0), pad_edge=False,
                collapse_padding=True, show_edge=False)
    out.add_column("Pos", justify="right", no_wrap=True)
    out.add_column(Group(Text("Team: decided by"), figures(_FIGURE_HEADERS)))
    for row, count in zip(table.rows, counts, strict=True):
        name = shown.get(row.team, row.team)
        out.add_row(str(row.position), Group(Phrases([f"{name}:", *EXPLAIN[row.decided_by].split()], indent=2),
                                             figures(count)))
    return out


def _group_grid(
    table: GroupTable, shown: Mapping[str, str], team_width: int, *, boxed: bool, explain_width: int | None = None
) -> Table:
    title = Text(table.what[:1].upper() + table.what[1:])  # a group's name as typed (sevens table): not markup
    if boxed:
        out = Table(title=title, title_justify="left")
    else:
        # One space between columns and no frame: 60 columns hold every name whole.
        out = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 0), pad_edge=False,
                    collapse_padding=True, show_edge=False)
    out.add_column("Pos", justify="right", no_wrap=True)
    out.add_column("Team", no_wrap=True, min_width=team_width)
    for header in ("P", "W", "D", "L", "TF", "TA", "PF", "PA", "Pts"):
        out.add_column(header, justify="right", no_wrap=True)
    out.add_column("Decided by", min_width=explain_width)
    for row in table.rows:
        counts = (
            row.played,
            row.won,
            row.drawn,
            row.lost,
            row.tries_for,
            row.tries_against,
            row.points_for,
            row.points_against,
            row.league_points,
        )
        out.add_row(str(row.position), Text(shown.get(row.team, row.team)), *map(str, counts), EXPLAIN[row.decided_by])
    return out


_EXPLAIN_WIDTH = max(len(text) for text in EXPLAIN.values())
_EXPLAIN_WORD = max(len(word) for text in (*EXPLAIN.values(), "Decided by") for word in text.split())


class _WideOrNarrow:
    """The wide rendering where ``probe`` (the wide one at its widest, or with ``whole=False`` at its
    narrowest) fits the width given, else the narrow one."""

    def __init__(self, wide: Table, narrow: Table | _WideOrNarrow, probe: Table, *, whole: bool = True) -> None:
        self.wide = wide
        self.narrow = narrow
        self.probe = probe
        self.whole = whole

    def _pick(self, console: Console, options: ConsoleOptions) -> Table | _WideOrNarrow:
        measured = Measurement.get(console, options.update(width=10_000), self.probe)
        # whole=False: the probe may wrap its cells between words, down to its least width.
        fits = (measured.maximum if self.whole else measured.minimum) <= options.max_width
        return self.wide if fits else self.narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._pick(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._pick(console, options))


def draw_table(game: Game) -> RenderableType:
    """The group draw: one column per group, each team with its manager (or "house"); where that
    does not fit, the manager goes under the team's name, so that neither is broken; and where
    even that does not fit (people's long names), one group under the other, a team a line."""
    names = {p.id: p.name for p in game.setup.players}
    letters = game.format.group_letters
    columns = [game.setup.group(letter) for letter in letters]

    def grid(narrow: bool) -> Table:
        out = (
            # Two spaces between groups: "Great Britain  Canada" still reads as two teams.
            Table(title="The draw", title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0),
                  pad_edge=False, show_edge=False)
            if narrow else Table(title="The draw", title_justify="left")
        )
        for letter in letters:
            out.add_column(f"Group {letter}", no_wrap=narrow)
        for i in range(max(len(c) for c in columns)):
            cells = []
            for column in columns:
                team = game.setup.team(column[i])
                who = names[team.manager] if team.manager else "house"
                # Names people typed (or a saved game's): shown as they are, never read as markup.
                cells.append(Text(f"{team.name}\n ({who})" if narrow else f"{team.name} ({who})"))
            out.add_row(*cells)
        return out

    listing = Table(title="The draw", title_justify="left", box=None, show_header=False, padding=(0, 0))
    listing.add_column(overflow="fold")
    for letter, column in zip(letters, columns, strict=True):
        listing.add_row(Text(f"Group {letter}", style="bold"))
        for team_id in column:
            team = game.setup.team(team_id)
            # A long name of a person goes under the team's rather than break either.
            listing.add_row(Phrases([f"  {team.name}", f"({names[team.manager] if team.manager else 'house'})"],
                                    indent=4))
    wide, narrow = grid(narrow=False), grid(narrow=True)
    return _WideOrNarrow(wide, _WideOrNarrow(narrow, listing, narrow), wide)


def _count_back(decided_by: DecidedBy | None) -> str:
    """What settled a level knockout match (R9), in words; nothing for a win on points.

    >>> _count_back(DecidedBy.POINTS), _count_back(DecidedBy.GROUP_RECORD), _count_back(DecidedBy.LOTS)
    ('', ' on group record', ' by lots')
    """
    if decided_by is None or decided_by == DecidedBy.POINTS:
        return ""
    if decided_by == DecidedBy.LOTS:
        return " by lots"
    return " on " + decided_by.value.replace("_", " ")


def bracket(game: Game) -> RenderableType:
    """The knockout rounds so far and the next one: one column per round, or, where those columns
    do not fit, one round under the other with one line per match (two where one line would break
    a name)."""
    titles: list[str] = []
    rounds: list[list[tuple[list[str], list[str]]]] = []  # (the match, who went through), in phrases
    for turn in game.turns:
        if not turn.stage.knockout:
            continue
        titles.append(str(turn.stage))
        cells = []
        for m in in_bracket_order(turn.matches):
            h, a = game.setup.team(m.home.team).name, game.setup.team(m.away.team).name
            w = game.setup.team(m.winner).name if m.winner else "?"
            cells.append(([h, f"{m.home.line.points}-{m.away.line.points}", a], [f"-> {w}", _count_back(m.decided_by)]))
        rounds.append(cells)
    if not game.finished and game.stage is not None and game.stage.knockout:
        titles.append(f"{game.stage} (next)")
        rounds.append(
            [
                ([game.setup.team(f.home).name, f"v {game.setup.team(f.away).name}"], [])
                for f in in_bracket_order(game.fixtures())
            ]
        )
    if game.champion is not None:
        titles.append("champion")
        rounds.append([([game.setup.team(game.champion).name], [])])

    wide = Table(title="Knockouts", title_justify="left")
    for title in titles:
        wide.add_column(title)
    height = max((len(r) for r in rounds), default=0)
    for i in range(height):
        # A match beside the two it follows: the semi-finals on the rows of the first and third
        # quarter-finals shown, the final on the first; so each row pair leads to the match beside it.
        wide.add_row(*(Text(_cell(*r[i * len(r) // height], "\n  ")) if i * len(r) % height == 0 else "" for r in rounds))

    narrow = Table(title="Knockouts", title_justify="left", box=None, show_header=False, padding=(0, 0))
    narrow.add_column(overflow="fold")
    for title, matches in zip(titles, rounds, strict=True):
        narrow.add_row(Text(title, style="bold"))
        for match, through in matches:
            # The line as it always was where it fits; else broken between names and figures.
            narrow.add_row(Phrases(["  " + match[0], *match[1:], *(p.strip() for p in through)], indent=4))
    return _WideOrNarrow(wide, narrow, wide)


def _cell(match: list[str], through: list[str], sep: str) -> str:
    said = " ".join(match)
    return f"{said}{sep}{''.join(through)}" if through else said
