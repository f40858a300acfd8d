"""Rich renderings of a game for the terminal: group tables, match reports, the bracket."""

from __future__ import annotations

from collections.abc import Mapping

from rich import box
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from sevens.rules import DecidedBy, Dice, Line
from sevens.tournament.game import Game, MatchResult, MatchSide
from sevens.tournament.standings import Criterion, GroupTable

__all__ = ["EXPLAIN", "bracket", "dice_text", "draw_table", "group_table", "line_text", "match_report", "percent"]

EXPLAIN: dict[Criterion | None, str] = {
    Criterion.LEAGUE_POINTS: "league points",
    Criterion.TRIES_FOR: "tries scored",
    Criterion.POINTS_FOR: "points scored",
    Criterion.TRIES_AGAINST: "fewer tries conceded",
    Criterion.POINTS_AGAINST: "fewer points conceded",
    Criterion.HEAD_TO_HEAD: "head-to-head",
    Criterion.LOTS: "lots",
    None: "level (group unfinished)",
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
    parts = []
    if dice.force:
        parts.append("FORCE " + " ".join(str(face) for face in dice.force))
    if dice.flair:
        parts.append("FLAIR " + " ".join(">".join(f"{a}-{b}" for a, b in option) for option in dice.flair))
    return " | ".join(parts) if parts else "no dice"


def _side_cell(game: Game, side: MatchSide) -> Text:
    name = game.setup.team(side.team).name
    order = f"{side.order.force}+{side.order.flair}"
    note = " (missed, autopilot)" if side.missed else ""
    # The winner's 10 (R4) is in scrum_after: say so, or 100->90 after spending 20 reads as a mistake.
    bonus = side.scrum_after - (side.scrum_before - side.order.force - side.order.flair)
    gained = f" (+{bonus} win)" if bonus else ""
    text = Text(f"{name}\n", style="bold")
    text.append(f"order {order}{note}  SCRUM {side.scrum_before}->{side.scrum_after}{gained}\n", style="dim")
    text.append(line_text(side.line) + "\n")
    text.append(dice_text(side.dice), style="cyan")
    return text


def match_report(game: Game, match: MatchResult) -> Table:
    """One match: both orders, every die, the lines, and what decided it."""
    home = game.setup.team(match.home.team).name
    away = game.setup.team(match.away.team).name
    title = f"{match.fixture.id} {match.fixture.stage}"
    if match.fixture.group:
        title += f" {match.fixture.group}"  # "t1-m1 group A"
    table = Table(title=f"{title}: {home} v {away}", show_header=False, expand=False, title_justify="left")
    table.add_column("home")
    table.add_column("away")
    table.add_row(_side_cell(game, match.home), _side_cell(game, match.away))
    # A draw's summary says so itself ("14-14, a draw").
    table.caption = match.summary if match.winner is None else f"{game.setup.team(match.winner).name} win: {match.summary}"
    table.caption_justify = "left"
    return table


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
    return _WideOrNarrow(wide, narrow, probe)


def _group_grid(
    table: GroupTable, shown: Mapping[str, str], team_width: int, *, boxed: bool, explain_width: int | None = None
) -> Table:
    title = table.what[:1].upper() + table.what[1:]
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
        out.add_row(str(row.position), shown.get(row.team, row.team), *map(str, counts), EXPLAIN[row.decided_by])
    return out


_EXPLAIN_WIDTH = max(len(text) for text in EXPLAIN.values())


class _WideOrNarrow:
    """The wide rendering where ``probe`` (the wide one at its widest) fits the width given, else the
    narrow one."""

    def __init__(self, wide: Table, narrow: Table | _WideOrNarrow, probe: Table) -> None:
        self.wide = wide
        self.narrow = narrow
        self.probe = probe

    def _pick(self, console: Console, options: ConsoleOptions) -> Table | _WideOrNarrow:
        fits = Measurement.get(console, options.update(width=10_000), self.probe).maximum <= options.max_width
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
                who = escape(names[team.manager]) if team.manager else "house"  # a name people typed: not markup
                cells.append(f"{team.name}\n ({who})" if narrow else f"{team.name} ({who})")
            out.add_row(*cells)
        return out

    listing = Table(title="The draw", title_justify="left", box=None, show_header=False, padding=(0, 0))
    listing.add_column()
    for letter, column in zip(letters, columns, strict=True):
        listing.add_row(Text(f"Group {letter}", style="bold"))
        for team_id in column:
            team = game.setup.team(team_id)
            listing.add_row(Text(f"  {team.name} ({names[team.manager] if team.manager else 'house'})"))
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
    do not fit, one round under the other with one line per match."""
    titles: list[str] = []
    rounds: list[list[tuple[str, str]]] = []  # (the match, who went through)
    for turn in game.turns:
        if not turn.stage.knockout:
            continue
        titles.append(str(turn.stage))
        cells = []
        for m in turn.matches:
            h, a = game.setup.team(m.home.team).name, game.setup.team(m.away.team).name
            w = game.setup.team(m.winner).name if m.winner else "?"
            cells.append((f"{h} {m.home.line.points}-{m.away.line.points} {a}", f"-> {w}{_count_back(m.decided_by)}"))
        rounds.append(cells)
    if not game.finished and game.stage is not None and game.stage.knockout:
        titles.append(f"{game.stage} (next)")
        rounds.append(
            [(f"{game.setup.team(f.home).name} v {game.setup.team(f.away).name}", "") for f in game.fixtures()]
        )
    if game.champion is not None:
        titles.append("champion")
        rounds.append([(game.setup.team(game.champion).name, "")])

    wide = Table(title="Knockouts", title_justify="left")
    for title in titles:
        wide.add_column(title)
    height = max((len(r) for r in rounds), default=0)
    for i in range(height):
        wide.add_row(*(_cell(*r[i], "\n  ") if i < len(r) else "" for r in rounds))

    narrow = Table(title="Knockouts", title_justify="left", box=None, show_header=False, padding=(0, 0))
    narrow.add_column()
    for title, matches in zip(titles, rounds, strict=True):
        narrow.add_row(Text(title, style="bold"))
        for match in matches:
            narrow.add_row("  " + _cell(*match, " "))
    return _WideOrNarrow(wide, narrow, wide)


def _cell(match: str, through: str, sep: str) -> str:
    return f"{match}{sep}{through}" if through else match
