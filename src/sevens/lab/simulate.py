"""Many whole tournaments at once: numpy arrays of shape ``(tournaments, teams)`` move turn by turn.

Team ``t`` of a tournament is place ``t % 4`` (in draw order) of group ``"ABCD"[t // 4]``, exactly
as the game lists its teams (:class:`sevens.tournament.setup.GameSetup`), so seat ``t`` means the
same team in the batch and in a game. Each turn:

1. every team in play gets an order from the strategy in its seat (a :class:`BatchStrategy`,
   deciding for all its teams of the batch at once); every order is checked against R3;
2. every line is drawn (:mod:`sevens.lab.sampling`);
3. group matches: points decide, 2/1/0 league points (seed 6); knockouts: count-back (R9), the
   group record, then lots; SCRUM is spent and a winner gains 10 (R4);
4. after the third group round, the tables: league points, tries, points, fewest tries and points
   conceded, head-to-head among the teams still level, lots (R8); the first knockout round is
   paired by the tournament's own R11 functions.

Lots are drawn from the batch's generator: every order of the teams still level is equally likely,
as with the game's lots (:mod:`sevens.tournament.lots`), though not die by die.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import nullcontext
from dataclasses import FrozenInstanceError, dataclass, fields, replace
from enum import IntEnum
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from sevens.bots.strategies import raised_at, shown_raised
from sevens.lab import held, kernels
from sevens.lab.cores import available_cores
from sevens.lab.sampling import Lines, TableSampler, point_weights, sample_lines
from sevens.lab.smart import rest_table
from sevens.lab.strategies import (
    BatchStrategy,
    BatchView,
    BotRaised,
    NotAnOrder,
    Orders,
    ScalarAdapter,
    StrategyError,
)
from sevens.rules import (
    FLAIR_OPTION_COST,
    MAX_ORDER_POINTS,
    STARTING_SCRUM,
    WIN_BONUS,
    DecidedBy,
    Line,
    SeededDice,
)
from sevens.tournament.fixtures import GROUP_ROUNDS, Fixture, first_knockout_pairs, next_knockout_pairs
from sevens.tournament.formats import GROUP_SIZE, GROUP_TURNS, Format, Stage
from sevens.tournament.setup import TeamId
from sevens.tournament.standings import CHAIN, GroupResult, group_table

__all__ = ["KNOCKOUT_DECIDERS", "BatchResult", "Sampler", "simulate", "team_id"]

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

KNOCKOUT_DECIDERS: tuple[DecidedBy, ...] = tuple(DecidedBy)
"""What can decide a knockout match, in R9's order (the index used in the counts)."""


_CHUNK = 2048  # tournaments per chunk of the compiled loop (a thread plays whole chunks)
_COUNT_SHIFTS = np.array([0, 8, 16, 24], dtype=np.uint32)  # a packed line's four counts


class Sampler(IntEnum):
    """How lines are drawn: alias tables (fast) or the closed-form draws (no tables)."""

    TABLES = 0
    DIRECT = 1


def team_id(team: int) -> TeamId:
    """The id the simulator gives team ``team`` in views: its group letter and draw place.

    >>> team_id(0), team_id(13)
    ('a1', 'd2')
    """
    return TeamId(f"{'abcd'[team // GROUP_SIZE]}{team % GROUP_SIZE + 1}")


@dataclass(frozen=True, slots=True, eq=False)
class BatchResult:
    """What happened in a batch of tournaments (arrays indexed ``[tournament, team]``).

    Attributes:
        teams: teams per tournament (8 or 16).
        seats: the strategy index in each seat.
        champion: the champion's team index, per tournament.
        knockout_wins: knockout matches each team won (the champion won them all).
        reached: knockout matches each team played (0: out in the groups; finalists play all).
        group_points: league points after the group stage.
        group_position: final place in the group (1-4).
        scrum_left: SCRUM at the end (eliminated teams keep what they had).
        stage_lines: per stage (group, then each knockout round), the sums of tries,
            conversions, penalties, drop goals over every line of that stage, shape ``(stages, 4)``.
        stage_matches: team-lines per stage.
        group_decided: counts of ``[place - 1, criterion]`` (R8 chain order: league points ...
            lots), over every group of the batch.
        knockout_decided: counts of ``[knockout round, decider]`` (:data:`KNOCKOUT_DECIDERS`).
        group_draws: drawn group matches.
        group_line_codes: every group line, ``[tournament, round, match of the round,
            home/away]``, matches in fixture order (R7), packed 8 bits per count (tries in the
            lowest byte, then conversions, penalties, drop goals); :attr:`group_lines` unpacks them.
    """

    teams: int
    seats: IntArray
    champion: IntArray
    knockout_wins: IntArray
    reached: IntArray
    group_points: IntArray
    group_position: IntArray
    scrum_left: IntArray
    stage_lines: IntArray
    stage_matches: IntArray
    group_decided: IntArray
    knockout_decided: IntArray
    group_draws: int
    group_line_codes: NDArray[np.uint32]

    @property
    def tournaments(self) -> int:
        return int(self.seats.shape[0])

    @property
    def group_lines(self) -> NDArray[np.int16]:
        """Every group line, ``[tournament, round, match of the round, home/away, (tries,
        conversions, penalties, drop goals)]``, matches in fixture order (R7). Unpacked at each
        call: keep the array rather than asking again in a loop."""
        lines: NDArray[np.int16] = ((self.group_line_codes[..., None] >> _COUNT_SHIFTS) & 0xFF).astype(np.int16)
        return lines

    @property
    def finalist(self) -> BoolArray:
        """Teams that played the final."""
        played: BoolArray = self.reached == len(Format(self.teams, 1, 1).knockout_stages)
        return played


@dataclass(slots=True)
class _State:
    teams: int
    scrum: IntArray
    lp: IntArray
    tries_for: IntArray
    tries_against: IntArray
    points_for: IntArray
    points_against: IntArray
    h2h: IntArray  # [b, t, q]: league points t took from group place q
    group_lines: NDArray[np.int16]  # [b, round, match in round, side, (t, c, p, d)]
    group_spent: IntArray  # [b, round, team]: SCRUM spent in each group round (public, R13)
    group_scrum: IntArray  # [b, round, team]: SCRUM held before it
    final_position: IntArray | None = None


def _when(turn: int, stage: Stage) -> str:
    """A turn as a message names it.

    >>> _when(2, Stage.GROUP), _when(6, Stage.SEMI_FINAL)
    ('turn 2 (group round 2)', 'turn 6 (semi-final)')
    """
    return f"turn {turn} ({f'group round {turn}' if stage is Stage.GROUP else stage.value})"


_LEGAL_HINT = "split_orders(total, flair_share, view.scrum) from sevens.lab.strategies makes legal orders of any totals and shares"
_BOT_HINT = "a bot's Order(force=..., flair=...) must add up to no more than view.scrum"


_KINDS = {"f": "floating-point numbers", "c": "complex numbers", "b": "True/False", "U": "text", "S": "bytes",
          "O": "Python objects", "M": "dates", "m": "time spans", "V": "records"}


def _fix_for(exc: BaseException) -> str:
    """What to do about an exception a strategy raised.

    >>> _fix_for(KeyError("x"))
    "the lab runs a strategy's code as it is: fix it and run again"
    """
    if isinstance(exc, ValueError) and "read-only" in str(exc):
        # numpy says only that the destination is read-only, not whose it is nor what to do.
        return ("the view's arrays are the run's own figures, read-only: copy one to work on it (view.scrum.copy()), "
                "and run again")
    if isinstance(exc, FrozenInstanceError):
        # "cannot assign to field 'scrum'": the view (a bot's ManagerView too) is frozen, as an Order is.
        return ("the view the lab gives (and an Order) cannot be changed: keep what you work out in variables of your "
                "own, or on the strategy object, and run again")
    return "the lab runs a strategy's code as it is: fix it and run again"


def _ask(strategy: BatchStrategy, name: str, view: BatchView, rng: np.random.Generator, when: str) -> Orders:
    """The strategy's orders for the view, checked; anything wrong is a :class:`StrategyError`
    that names the strategy (``name``, as messages show it), the turn, what was wrong and how to
    put it right."""
    try:
        made = strategy.orders(view, rng)
    except StrategyError:
        raise
    except NotAnOrder as exc:
        raise StrategyError(_not_an_order(name, exc, view, when)) from None
    except BotRaised as asked:  # a bot decides for one team: that one, and what it held
        cause = asked.__cause__
        assert cause is not None
        i = asked.index
        raise StrategyError(
            f"strategy {name} raised {shown_raised(cause)}{raised_at(cause)}, deciding for team "
            f"{team_id(int(view.team[i]))}, holding {int(view.scrum[i])} SCRUM, in {when}; {_fix_for(cause)}"
        ) from cause
    except (Exception, SystemExit) as exc:  # the strategy's own code (sys.exit too): say whose and where, not a traceback through the lab
        raise StrategyError(
            f"strategy {name} raised {shown_raised(exc)}{raised_at(exc)}, deciding for {view.size} teams in "
            f"{when}; {_fix_for(exc)}"
        ) from exc
    if not isinstance(made, tuple | list) or len(made) != 2:
        shown = f"{type(made).__name__} of {len(made)} items" if isinstance(made, tuple | list) else type(made).__name__
        fix = ""
        if isinstance(made, np.ndarray):
            # Both orders in one array ("returned a ndarray") did not say which way it was wrong.
            shown = f"single array of shape {made.shape}"
            if made.shape == (2, view.size):
                fix = ": return its two rows as a pair, (orders[0], orders[1])"
            elif made.shape == (view.size, 2):
                fix = ": return its two columns as a pair, (orders[:, 0], orders[:, 1])"
        raise StrategyError(
            f"strategy {name} returned a {shown} in {when}; orders(view, rng) must return two arrays, "
            f"(force, flair), with one entry per team of the view{fix}"
        )
    force = _points(name, "FORCE", made[0], view.size, when)
    flair = _points(name, "FLAIR", made[1], view.size, when)
    _check_orders(name, force, flair, view, when, _BOT_HINT if isinstance(strategy, ScalarAdapter) else _LEGAL_HINT)
    return force, flair


def _not_an_order(name: str, exc: NotAnOrder, view: BatchView, when: str) -> str:
    """What a one-decision bot returned instead of an Order, said as returned: its code raised nothing.

    >>> view = BatchView(8, 1, Stage.GROUP, 3, 3, *[np.zeros(1, dtype=np.int64)] * 8)
    >>> _not_an_order("'mine:Bot'", NotAnOrder((10, 9), 0), view, "turn 1 (group round 1)")
    "strategy 'mine:Bot' returned tuple (10, 9) for team a1 in turn 1 (group round 1), not an Order: order(view, rng) must return a sevens.rules.Order; if the pair is (force, flair), return Order(force=10, flair=9)"
    """
    given = exc.returned
    shown = repr(given)
    shown = shown if len(shown) <= 60 else f"{shown[:60]}..."
    if isinstance(given, tuple | list) and len(given) == 2 and all(type(v) is int for v in given):
        fix = f"; if the pair is (force, flair), return Order(force={given[0]}, flair={given[1]})"
    else:
        fix = ", such as Order(force=10, flair=9) (from sevens.rules import Order)"
    return (f"strategy {name} returned {type(given).__name__} {shown} for team {team_id(int(view.team[exc.index]))} "
            f"in {when}, not an Order: order(view, rng) must return a sevens.rules.Order{fix}")


def _points(name: str, part: str, given: object, size: int, when: str) -> IntArray:
    """One half of a strategy's orders as whole numbers of points, one per team, or a StrategyError."""
    values = np.asarray(given)
    if values.shape != (size,):
        raise StrategyError(
            f"strategy {name} gave {part} of shape {values.shape} for {size} teams in {when}; orders(view, rng) "
            "must return one FORCE and one FLAIR per team of the view: two arrays of shape (view.size,)"
        )
    if values.dtype.kind not in "iu":
        odd = ""
        if values.dtype.kind in "fc":
            real = values.real.astype(np.float64)
            bad = ~np.isfinite(real) | (real != np.round(real))
            if bad.any():
                odd = f", {int(bad.sum())} of them not whole (such as {values[np.flatnonzero(bad)[0]].item()!r})"
        kind = _KINDS.get(values.dtype.kind, "values")
        raise StrategyError(
            f"strategy {name} gave {part} as {kind} ({values.dtype}) in {when}{odd}; orders are whole points: "
            f"return integer arrays (np.int64), for example np.rint(x).astype(np.int64); {_LEGAL_HINT}"
        )
    if values.dtype.kind == "u" and size and int(values.max()) > MAX_ORDER_POINTS:
        top = int(values.max())
        raise StrategyError(
            f"strategy {name} gave {part} {top} in {when}, more than any team holds (R3); {_LEGAL_HINT}"
        )
    return values.astype(np.int64)


def _check_orders(
    name: str, force: IntArray, flair: IntArray, view: BatchView, when: str, hint: str = _LEGAL_HINT
) -> None:
    scrum = view.scrum
    negative = (force < 0) | (flair < 0)
    not_options = flair % FLAIR_OPTION_COST != 0
    # Each half on its own first: two huge halves add up past 64 bits to a small or negative sum.
    too_much = (force > scrum) | (flair > scrum) | (force + flair > scrum)
    bad = negative | not_options | too_much
    if not bad.any():
        return
    i = int(np.flatnonzero(bad)[0])
    f, fl, held = int(force[i]), int(flair[i]), int(scrum[i])
    if negative[i]:
        what = f"{'FORCE' if f < 0 else 'FLAIR'} {f if f < 0 else fl} is negative"
    elif not_options[i]:
        what = f"FLAIR {fl} is not a multiple of 3 (one option per 3 points)"
    else:
        what = f"FORCE {f} + FLAIR {fl} = {f + fl} is more than the {held} SCRUM the team holds"
    more = int(bad.sum()) - 1
    others = f" ({more} more of the {view.size} teams' orders break R3 too)" if more else ""
    raise StrategyError(
        f"R3: strategy {name} gave team {team_id(int(view.team[i]))} the order FORCE {f}, FLAIR {fl} in {when}, "
        f"holding {held} SCRUM: {what}{others}; every order needs FORCE and FLAIR of 0 or more, FLAIR a multiple "
        f"of 3, the two within the SCRUM held: {hint}"
    )


def _lines(sampler: Sampler, tables: TableSampler, rng: np.random.Generator, force: IntArray, flair: IntArray) -> Lines:
    options = flair // FLAIR_OPTION_COST
    if sampler is Sampler.TABLES:
        return tables.sample(rng, force, options)
    return sample_lines(rng, force, options)


def _group_position(lp: IntArray, teams: int) -> IntArray:
    grouped = lp.reshape(lp.shape[0], teams // GROUP_SIZE, GROUP_SIZE)
    above = (grouped[:, :, None, :] > grouped[:, :, :, None]).sum(axis=-1)
    position: IntArray = (above + 1).reshape(lp.shape)
    return position


def simulate(
    teams: int,
    seats: IntArray,
    strategies: Sequence[BatchStrategy],
    rng: np.random.Generator,
    *,
    sampler: Sampler = Sampler.TABLES,
    tables: TableSampler | None = None,
    compiled: bool | None = None,
    threads: int | None = None,
    probe: Mapping[int, BatchStrategy] | None = None,
    labels: Sequence[str] | None = None,
    progress: Callable[[float], None] | None = None,
) -> BatchResult:
    """Play ``len(seats)`` whole tournaments at once.

    Args:
        teams: 8 or 16 (R6).
        seats: strategy index of every team, shape ``(tournaments, teams)``.
        strategies: the strategies the indices refer to.
        rng: the random source of the whole batch (lines, lots, and the strategies' choices).
        sampler: how lines are drawn.
        tables: alias tables to reuse across batches (built as needed otherwise).
        compiled: play each tournament in the compiled loop of :mod:`sevens.lab.kernels` (True),
            or turn by turn with numpy (False); by default, compiled when numba is there, every
            strategy is a built-in one (:func:`sevens.lab.kernels.spec`) and ``sampler``
            is :attr:`Sampler.TABLES`. Both draw from the same laws, not the same stream.
        threads: threads sharing the compiled loop's work (default: one per core this process may
            use, :func:`sevens.lab.cores.available_cores`, so ``taskset`` is respected); any number
            gives the same result.
        probe: strategies (not built-in ones) to ask twice, by index, each with its twin: a second
            one made the same way (its class called again, its object copied again), asked every
            question the first is asked, with a copy of the generator as the first had it. One whose
            twin answers differently is refused (it draws numbers of its own, keeps state outside
            itself or is made differently each time); the answers kept are the first ones, so the
            batch's results are those it has without ``probe``. No strategy is ever copied here.
        labels: how messages name each strategy (default: its ``name``, quoted).
        progress: called as the batch plays with the share of its decisions made so far (0 to 1,
            never less than before): after each strategy's answer for its teams in a turn, and
            before each team's decision by a one-decision bot, so that a slow strategy shows it is
            moving. Not called by the compiled loop, which plays a batch in moments. It sees the
            batch's progress only: nothing it does changes the results.

    Returns:
        Champions, places, league points, SCRUM left and tie-break counts.

    Raises:
        StrategyError: a strategy raised, gave orders that are not whole numbers, one per team,
            or that break R3, or (in ``probe``) answered the same question differently.
        ValueError: the seats do not fit, or
            ``compiled`` was asked for without numba, with :attr:`Sampler.DIRECT` or with a
            strategy that is not a built-in one.

    >>> from sevens.lab.strategies import EvenPacing
    >>> result = simulate(8, np.zeros((5, 8), dtype=np.int64), [EvenPacing()], np.random.default_rng(1))
    >>> result.champion.shape, int(result.group_points.sum(axis=1).max()) <= 24
    ((5,), True)
    """
    if teams not in (8, 16):
        raise ValueError(f"R6: a tournament has 8 or 16 teams, not {teams}")
    seats = np.asarray(seats, dtype=np.int64)
    if seats.ndim != 2 or seats.shape[1] != teams:
        raise ValueError(f"seats must have shape (tournaments, {teams}), got {seats.shape}")
    if seats.size and (seats.min() < 0 or seats.max() >= len(strategies)):
        raise ValueError(f"seats must name strategies 0 to {len(strategies) - 1}")
    fmt = Format(teams, teams, 1)
    tables = tables or TableSampler()
    specs = [kernels.spec(s) for s in strategies]
    builtin = all(x is not None for x in specs)
    if compiled is None:
        compiled = kernels.AVAILABLE and sampler is Sampler.TABLES and builtin
    elif compiled and not kernels.AVAILABLE:
        raise ValueError("compiled=True needs numba (pip install numba); or pass compiled=False")
    elif compiled and sampler is not Sampler.TABLES:
        raise ValueError("the compiled loop draws through alias tables: use Sampler.TABLES or compiled=False")
    elif compiled and not builtin:
        other = next(s for s, x in zip(strategies, specs, strict=True) if x is None)
        raise ValueError(
            f"the compiled loop plays the built-in strategies only, not {other!r}; pass compiled=False"
        )
    if threads is not None and threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    if compiled:
        return _simulate_compiled(fmt, seats, strategies, rng, tables, threads or available_cores())
    b = seats.shape[0]
    meter = None if progress is None else _Meter.of(fmt, seats, probe, progress)
    groups = teams // GROUP_SIZE
    state = _new_state(b, teams)
    zeros = np.zeros((b, teams), dtype=np.int64)
    stages = fmt.stages
    stage_lines = np.zeros((1 + len(fmt.knockout_stages), 4), dtype=np.int64)
    stage_matches = np.zeros(1 + len(fmt.knockout_stages), dtype=np.int64)
    knockout_decided = np.zeros((len(fmt.knockout_stages), len(KNOCKOUT_DECIDERS)), dtype=np.int64)
    knockout_wins = zeros.copy()
    reached = zeros.copy()
    group_draws = 0

    home = away = np.zeros((b, 0), dtype=np.int64)
    base = (np.arange(b) * teams)[:, None]
    group_decided = np.zeros((GROUP_SIZE, len(CHAIN)), dtype=np.int64)
    position = np.ones((b, teams), dtype=np.int64)
    for turn, stage in enumerate(stages, start=1):
        if stage is Stage.GROUP:
            pairs = [(g * GROUP_SIZE + h, g * GROUP_SIZE + a) for g in range(groups) for h, a in GROUP_ROUNDS[turn - 1]]
            home = np.broadcast_to(np.array([h for h, _ in pairs]), (b, len(pairs)))
            away = np.broadcast_to(np.array([a for _, a in pairs]), (b, len(pairs)))
            if turn > 1:
                position = _group_position(state.lp, teams)
        elif state.final_position is not None:
            position = state.final_position
        half = home.shape[1]
        playing = np.concatenate((home, away), axis=1)
        flat = (base + playing).ravel()
        opponent_flat = (base + np.concatenate((away, home), axis=1)).ravel()
        is_home = np.zeros(playing.shape, dtype=bool)
        is_home[:, :half] = True
        force, flair = _decide(
            fmt, turn, stage, state, seats, strategies, rng, flat, opponent_flat, is_home.ravel(), position, probe,
            labels, meter,
        )
        lines = _lines(sampler, tables, rng, force, flair)
        stacked = np.stack([lines.tries, lines.conversions, lines.penalties, lines.drop_goals], axis=1)
        stage_index = 0 if stage is Stage.GROUP else fmt.knockout_stages.index(stage) + 1
        stage_lines[stage_index] += stacked.sum(axis=0)
        stage_matches[stage_index] += stacked.shape[0]
        shape = playing.shape
        points = lines.points.reshape(shape)
        hp, ap = points[:, :half], points[:, half:]
        if stage is Stage.GROUP:
            spent = np.zeros((b, teams), dtype=np.int64)
            spent.ravel()[flat] = force + flair
            state.group_spent[:, turn - 1] = spent
            state.group_scrum[:, turn - 1] = state.scrum
        state.scrum.ravel()[flat] -= force + flair
        if stage is Stage.GROUP:
            group_draws += int((hp == ap).sum())
            _play_group_round(state, turn, home[0], away[0], stacked.reshape(*shape, 4), hp, ap)
            if turn == GROUP_TURNS:
                group_decided = _final_tables(state, rng)
                home, away = _first_knockout(state, groups)
        else:
            k = fmt.knockout_stages.index(stage)
            reached.ravel()[flat] += 1
            home_wins = _knockout(state, rng, home, away, stacked.reshape(*shape, 4), knockout_decided[k])
            winners = np.where(home_wins, home, away)
            state.scrum.ravel()[(base + winners).ravel()] += WIN_BONUS
            knockout_wins.ravel()[(base + winners).ravel()] += 1
            home, away = _next_round(winners, away)
    assert state.final_position is not None
    return BatchResult(
        teams=teams,
        seats=seats,
        champion=home[:, 0].copy(),
        knockout_wins=knockout_wins,
        reached=reached,
        group_points=state.lp,
        group_position=state.final_position,
        scrum_left=state.scrum,
        stage_lines=stage_lines,
        stage_matches=stage_matches,
        group_decided=group_decided,
        knockout_decided=knockout_decided,
        group_draws=group_draws,
        group_line_codes=_pack_lines(state.group_lines),
    )


def _pack_lines(lines: NDArray[np.int16]) -> NDArray[np.uint32]:
    """Lines ``[..., (t, c, p, d)]`` packed 8 bits per count (the compiled loop's form)."""
    packed: NDArray[np.uint32] = np.bitwise_or.reduce(lines.astype(np.uint32) << _COUNT_SHIFTS, axis=-1)
    return packed


def _next_round(winners: IntArray, away: IntArray) -> tuple[IntArray, IntArray]:
    """The next knockout round's home and away seats from this round's winners, paired as the
    tournament pairs them (R11); after the final, the champion is ``home[:, 0]``."""
    if winners.shape[1] == 1:
        return winners, away
    nxt = next_knockout_pairs([TeamId(str(i)) for i in range(winners.shape[1])])
    home = np.ascontiguousarray(winners[:, [int(h) for h, _ in nxt]])
    return home, np.ascontiguousarray(winners[:, [int(a) for _, a in nxt]])


def _new_state(b: int, teams: int) -> _State:
    zeros = np.zeros((b, teams), dtype=np.int64)
    return _State(
        teams=teams,
        scrum=zeros + STARTING_SCRUM,
        lp=zeros.copy(),
        tries_for=zeros.copy(),
        tries_against=zeros.copy(),
        points_for=zeros.copy(),
        points_against=zeros.copy(),
        h2h=np.zeros((b, teams, GROUP_SIZE), dtype=np.int64),
        group_lines=np.zeros((b, GROUP_TURNS, 2 * (teams // GROUP_SIZE), 2, 4), dtype=np.int16),
        group_spent=np.zeros((b, GROUP_TURNS, teams), dtype=np.int64),
        group_scrum=np.zeros((b, GROUP_TURNS, teams), dtype=np.int64),
    )


def _knockout_spec(groups: int) -> tuple[IntArray, IntArray]:
    """R11's first knockout round as rows ``(group, place - 1)`` for the home and away sides."""
    letters = "ABCD"[:groups]
    pairs = first_knockout_pairs({x: [f"{x}1", f"{x}2"] for x in letters})

    def rows(labels: list[str]) -> IntArray:
        return np.array([(letters.index(x[0]), int(x[1]) - 1) for x in labels], dtype=np.int64)

    return rows([h for h, _ in pairs]), rows([a for _, a in pairs])


@lru_cache(maxsize=16)
def _order_plan(strategies: tuple[BatchStrategy, ...], knockout_rounds: int) -> tuple[IntArray, NDArray[np.float64]]:
    """The compiled loop's order plan, kept: reading it off the strategies costs more than a
    small batch's tournaments (the built-in strategies are frozen, so equal ones plan alike)."""
    return kernels.order_plan(*kernels.order_tables(strategies, GROUP_TURNS, knockout_rounds), GROUP_TURNS)


@lru_cache(maxsize=4)
def _field_totals(knockout_rounds: int) -> IntArray:
    """"field-reader"'s totals for the compiled loop, kept (a few milliseconds of numpy)."""
    return kernels.field_totals(GROUP_TURNS, knockout_rounds)


@lru_cache(maxsize=8)
def _decisions(group_rounds: int, turns: int) -> kernels.Decisions:
    """The smart strategies' decisions, kept for the process: each costs milliseconds of exact odds."""
    return kernels.Decisions(group_rounds, turns)


def _simulate_compiled(
    fmt: Format,
    seats: IntArray,
    strategies: Sequence[BatchStrategy],
    rng: np.random.Generator,
    tables: TableSampler,
    threads: int,
) -> BatchResult:
    """:func:`simulate` in the compiled loop (:mod:`sevens.lab.kernels`), tournament by tournament.

    The batch is cut into chunks; ``threads`` threads play them (the loop holds no GIL), each
    chunk adding its counts to its own row, so the result does not depend on the thread count.
    """
    teams = fmt.teams
    b = seats.shape[0]
    groups = teams // GROUP_SIZE
    knockouts = fmt.knockout_stages
    plan, jitter = _order_plan(tuple(strategies), len(knockouts))
    by_field = _field_totals(len(knockouts))
    targets = kernels.field_targets(strategies)
    pulls = kernels.field_pulls(strategies)
    rows, stakes = kernels.table_rows(strategies), rest_table()
    decisions = _decisions(GROUP_TURNS, GROUP_TURNS + len(knockouts))
    rounds = [[(g * GROUP_SIZE + h, g * GROUP_SIZE + a) for g in range(groups) for h, a in fixture]
              for fixture in GROUP_ROUNDS]
    group_home = np.array([[h for h, _ in r] for r in rounds], dtype=np.int64)
    group_away = np.array([[a for _, a in r] for r in rounds], dtype=np.int64)
    first_home, first_away = _knockout_spec(groups)
    # Later rounds as indices into the last round's winners, paired by the tournament's own R11.
    later = [next_knockout_pairs([TeamId(str(i)) for i in range(len(first_home) >> r)])
             for r in range(len(knockouts) - 1)]
    width = max(1, len(first_home) // 2)
    next_home = np.zeros((max(1, len(later)), width), dtype=np.int64)
    next_away = np.zeros_like(next_home)
    for r, pairs in enumerate(later):
        next_home[r, : len(pairs)] = [int(h) for h, _ in pairs]
        next_away[r, : len(pairs)] = [int(a) for _, a in pairs]
    key = np.uint64(rng.integers(0, 2**64, dtype=np.uint64))
    bounds = np.unique(np.append(np.arange(0, b, _CHUNK), b)).astype(np.int64)
    chunks = len(bounds) - 1
    champion = np.zeros(b, dtype=np.int64)
    per_team = [np.zeros((b, teams), dtype=np.int64) for _ in range(5)]
    knockout_wins, reached, league_points, position, scrum = per_team
    group_lines = np.zeros((b, GROUP_TURNS, 2 * groups, 2), dtype=np.uint32)
    stage_lines = np.zeros((chunks, 1 + len(knockouts), 4), dtype=np.int64)
    group_decided = np.zeros((chunks, GROUP_SIZE, len(CHAIN)), dtype=np.int64)
    knockout_decided = np.zeros((chunks, len(knockouts), len(KNOCKOUT_DECIDERS)), dtype=np.int64)
    counters = np.zeros((chunks, 1), dtype=np.int64)
    missing = np.full((chunks, 2), -1, dtype=np.int64)
    at = bounds[:-1].copy()  # where each chunk goes on from; -1 when it is done

    def play(c: int, index: NDArray[np.uint64], cells: NDArray[np.uint64], mixes: NDArray[np.float64]) -> None:
        at[c] = kernels.play_tournaments(
            int(at[c]), int(bounds[c + 1]), key, seats, plan, jitter, decisions.decided, mixes, by_field, targets, pulls,
            rows, stakes, group_home, group_away, first_home, first_away, next_home, next_away, index, cells, champion,
            knockout_wins, reached, league_points, position, scrum, group_lines, stage_lines[c],
            group_decided[c], knockout_decided[c], counters[c], missing[c],
            kernels.new_scratch(teams, len(knockouts), len(first_home)),
        )

    # Threads of its own: a Ctrl-C raised inside the pool's code (starting a thread, waiting for a
    # chunk) could leave a lock held, and the process never ended. Held for a look between chunks.
    with (held.between_steps() if threads > 1 else nullcontext()) as signals, (
        ThreadPoolExecutor(max_workers=threads) if threads > 1 else nullcontext()
    ) as pool:
        while (at >= 0).any():
            index, cells = tables.arrays()
            mixes = decisions.mixes
            todo = [int(c) for c in np.flatnonzero(at >= 0)]
            if pool is None or signals is None:
                for c in todo:
                    play(c, index, cells, mixes)
            else:
                _play_chunks(pool, signals, play, todo, index, cells, mixes)
            if (missing[:, 0] == -2).any():
                raise ValueError("a group total is beyond the simulator's packed range")  # pragma: no cover
            # Chunks that stopped at a case not decided yet, or at an order whose table is missing:
            # decide or build them and go on.
            undecided = missing[:, 0] == -3
            for case in missing[undecided, 1]:
                decisions.decide(kernels.decision_key(int(case), decisions.turns))
            tables_missing = missing[~undecided]
            tables.ensure(tables_missing[tables_missing >= 0])
            missing[:] = -1
    stage_matches = np.array([GROUP_TURNS * teams] + [len(first_home) >> r << 1 for r in range(len(knockouts))])
    return BatchResult(
        teams=teams,
        seats=seats,
        champion=champion,
        knockout_wins=knockout_wins,
        reached=reached,
        group_points=league_points,
        group_position=position,
        scrum_left=scrum,
        stage_lines=stage_lines.sum(axis=0),
        stage_matches=stage_matches * b,
        group_decided=group_decided.sum(axis=0),
        knockout_decided=knockout_decided.sum(axis=0),
        group_draws=int(counters.sum()),
        group_line_codes=group_lines,
    )


def _play_chunks(pool: ThreadPoolExecutor, signals: held.Held, play: Callable[..., None], todo: list[int],
                 *arrays: object) -> None:
    """Chunks ``todo`` played on ``pool``, looking for a held signal every :data:`held.EVERY` seconds;
    one that stops the batch leaves the chunks not started unplayed."""
    pending = {pool.submit(play, c, *arrays) for c in todo}
    try:
        while pending:
            finished, pending = wait(pending, timeout=held.EVERY)
            signals.take()
            for future in finished:
                future.result()  # a chunk's error, raised here
    except BaseException:
        for future in pending:
            future.cancel()
        raise


def _decide(
    fmt: Format,
    turn: int,
    stage: Stage,
    state: _State,
    seats: IntArray,
    strategies: Sequence[BatchStrategy],
    rng: np.random.Generator,
    flat: IntArray,
    opponent_flat: IntArray,
    is_home: BoolArray,
    position: IntArray,
    probe: Mapping[int, BatchStrategy] | None = None,
    labels: Sequence[str] | None = None,
    meter: _Meter | None = None,
) -> Orders:
    """Orders of every team in play (``flat``: flat indices into ``[tournament, team]``); the
    strategies whose indices are in ``probe`` are asked twice, the second time through their twin
    (:func:`_check_repeatable`)."""
    teams = fmt.teams
    who = seats.ravel()[flat]
    # Group the teams by strategy once; each strategy then sees one contiguous slice.
    order = np.argsort(who, kind="stable")
    bounds = np.searchsorted(who[order], np.arange(len(strategies) + 1))
    mine = flat[order]
    theirs = opponent_flat[order]
    scrum = state.scrum.ravel()
    lp = state.lp.ravel()
    scrum_g, opponent_scrum_g = scrum[mine], scrum[theirs]
    lp_g, opponent_lp_g = lp[mine], lp[theirs]
    position_g = position.ravel()[mine]
    home_g = is_home[order]
    tournament_g, team_g = mine // teams, mine % teams
    force = np.zeros(flat.size, dtype=np.int64)
    flair = np.zeros(flat.size, dtype=np.int64)
    turns_left = fmt.turns - turn + 1
    group_left = max(0, GROUP_TURNS - turn + 1)
    played = min(turn - 1, GROUP_TURNS)  # group rounds resolved before this turn
    when = _when(turn, stage)
    for s, strategy in enumerate(strategies):
        lo, hi = int(bounds[s]), int(bounds[s + 1])
        if lo == hi:
            continue
        view = BatchView(
            teams=teams,
            turn=turn,
            stage=stage,
            turns_left=turns_left,
            group_matches_left=group_left,
            scrum=scrum_g[lo:hi],
            opponent_scrum=opponent_scrum_g[lo:hi],
            league_points=lp_g[lo:hi],
            opponent_league_points=opponent_lp_g[lo:hi],
            group_position=position_g[lo:hi],
            home=home_g[lo:hi],
            tournament=tournament_g[lo:hi],
            team=team_g[lo:hi],
            group_spent=state.group_spent[:, :played],
            group_scrum=state.group_scrum[:, :played],
            group_league_points=state.lp[:, :],  # a view of its own, made read-only below, not state.lp
        )
        if getattr(strategy, "needs_manager_view", False):
            view = _with_manager_views(view, fmt, state, theirs[lo:hi] % teams, rng)
        _read_only(view)
        twin = None if probe is None else probe.get(s)
        rng_before = None if twin is None else copy.deepcopy(rng)
        label = repr(getattr(strategy, "name", type(strategy).__name__)) if labels is None else labels[s]
        start = 0 if meter is None else meter.done
        f, fl = _ask(strategy, label, _metered(view, meter), rng, when)
        if meter is not None:
            meter.reach(start + view.size)
        if twin is not None and rng_before is not None:
            _check_repeatable(twin, rng_before, label, _metered(view, meter), when, (f, fl))
            if meter is not None:
                meter.reach(start + 2 * view.size)
        force[order[lo:hi]] = f
        flair[order[lo:hi]] = fl
    return force, flair


@dataclass(slots=True)
class _Meter:
    """A batch's progress in team decisions: ``done`` of about ``total`` (a team asked twice
    counts twice), passed on as a share."""

    report: Callable[[float], None]
    total: int
    done: int = 0
    ceiling: int = 0
    """Where the answer being asked for ends: one-decision bots step up to it, no further."""

    @classmethod
    def of(
        cls, fmt: Format, seats: IntArray, probe: Mapping[int, BatchStrategy] | None, report: Callable[[float], None]
    ) -> _Meter:
        """A meter for a batch: every seat decides in each group round, half as many in each
        knockout round, and the seats of strategies in ``probe`` are asked twice (in the
        knockouts, as often as in the groups: near enough for a progress bar).

        >>> meter = _Meter.of(Format(8, 8, 1), np.zeros((10, 8), dtype=np.int64), {0: None}, print)
        >>> meter.total  # (3 group rounds of 8 teams, 4 and 2 in the knockouts) x 10 x 2
        600
        >>> meter.reach(150)
        0.25
        """
        per_tournament = GROUP_TURNS * fmt.teams + sum(fmt.teams >> (k + 1) for k in range(len(fmt.knockout_stages)))
        twice = float(np.isin(seats, list(probe or ())).mean()) if seats.size else 0.0
        return cls(report, max(1, round(per_tournament * seats.shape[0] * (1 + twice))))

    def reach(self, mark: int) -> None:
        """Decisions are made up to ``mark``; the next answer's bots may step on from there."""
        self.done = self.ceiling = max(self.done, mark)
        self.report(min(1.0, self.done / self.total))

    def step(self) -> None:
        """A one-decision bot is deciding for one more team."""
        if self.done < self.ceiling:
            self.done += 1
            self.report(min(1.0, self.done / self.total))


def _metered(view: BatchView, meter: _Meter | None) -> BatchView:
    """The view, its manager views counted by ``meter`` as one-decision bots ask for them, at
    most ``view.size`` of them."""
    make = view.manager_view
    if meter is None or make is None:
        return view
    meter.ceiling = meter.done + view.size

    def counted(i: int) -> object:
        meter.step()
        return make(i)

    return replace(view, manager_view=counted)


def _read_only(view: BatchView) -> BatchView:
    """The view with every array made read-only. Its arrays are the run's own figures (the group
    rounds' record is the simulation's state itself, SCRUM the figures the R3 check reads): a
    strategy that wrote into them would change what the check, the simulation and the other
    strategies see, so writing raises instead, in the strategy's code.

    >>> view = _read_only(BatchView(8, 1, Stage.GROUP, 4, 3, *[np.zeros(2, dtype=np.int64)] * 8))
    >>> view.scrum[0] = 5
    Traceback (most recent call last):
    ...
    ValueError: assignment destination is read-only
    """
    for field in fields(view):
        value = getattr(view, field.name)
        if isinstance(value, np.ndarray):
            value.flags.writeable = False  # this array object only: the arrays it views stay writable
    return view


def _check_repeatable(
    twin: BatchStrategy, rng: np.random.Generator, name: str, view: BatchView, when: str, given: Orders
) -> None:
    """Ask the strategy's twin, made the same way and asked the same questions so far, this one
    too, with the generator as the strategy had it: a strategy whose orders depend on nothing but
    the views, the generator and its own state answers the same. One that draws numbers of its own
    or keeps state outside itself would give a run whose results change from one run to the next
    and with the number of workers."""
    again = _ask(twin, name, view, rng, when)
    if all(np.array_equal(a, b) for a, b in zip(given, again, strict=True)):
        return
    raise StrategyError(
        f"strategy {name} gave different orders when asked twice for the same {view.size} teams in {when}, "
        "with the same view and a copy of the same random generator (the second time to a second one made "
        "the same way and asked the same questions before): it draws random numbers of its own "
        "(numpy.random, random, the clock), keeps state outside itself (a module's globals, its class) or is "
        "made differently each time, so its results would change from run to run and with the number of workers; draw every "
        "random number from the rng it is given and keep any state on the strategy object (each batch of "
        "tournaments gets a fresh one)"
    )


def _play_group_round(
    state: _State,
    turn: int,
    home: IntArray,
    away: IntArray,
    lines: IntArray,
    hp: IntArray,
    ap: IntArray,
) -> None:
    """A group round: every tournament of the batch plays the same fixtures (columns ``home``, ``away``)."""
    half = home.shape[0]
    home_lines, away_lines = lines[:, :half], lines[:, half:]
    state.group_lines[:, turn - 1, :, 0] = home_lines
    state.group_lines[:, turn - 1, :, 1] = away_lines
    home_lp = 2 * (hp > ap) + (hp == ap)
    away_lp = 2 * (ap > hp) + (hp == ap)
    for team, lp, own, other, scored, conceded in (
        (home, home_lp, home_lines, away_lines, hp, ap),
        (away, away_lp, away_lines, home_lines, ap, hp),
    ):
        state.lp[:, team] += lp
        state.tries_for[:, team] += own[..., 0]
        state.tries_against[:, team] += other[..., 0]
        state.points_for[:, team] += scored
        state.points_against[:, team] += conceded
    state.h2h[:, home, away % GROUP_SIZE] += home_lp
    state.h2h[:, away, home % GROUP_SIZE] += away_lp
    # R4: a group winner gains 10; a draw has no winner.
    state.scrum[:, home] += WIN_BONUS * (hp > ap)
    state.scrum[:, away] += WIN_BONUS * (ap > hp)


def _record_key(state: _State) -> IntArray:
    """R9's group record (and R8's first five criteria) packed into one integer, higher better."""
    parts = (
        (state.lp, 4),
        (state.tries_for, 12),
        (state.points_for, 14),
        (-state.tries_against, 12),
        (-state.points_against, 14),
    )
    key = np.zeros_like(state.lp)
    for values, bits in parts:
        offset = 1 << (bits - 1)
        if np.abs(values).max(initial=0) >= offset:
            raise ValueError("a group total is beyond the simulator's packed range")  # pragma: no cover
        key = (key << bits) | (values + offset)
    return key


def _final_tables(state: _State, rng: np.random.Generator) -> IntArray:
    """R8 over every group of the batch: sets the final places, returns the decided-by counts."""
    b, teams = state.lp.shape
    groups = teams // GROUP_SIZE
    shape = (b, groups, GROUP_SIZE)
    criteria = [
        state.lp,
        state.tries_for,
        state.points_for,
        -state.tries_against,
        -state.points_against,
    ]
    stats = _record_key(state).reshape(shape)
    level = stats[..., :, None] == stats[..., None, :]
    h2h = state.h2h.reshape(b, groups, GROUP_SIZE, GROUP_SIZE)
    # Head-to-head league points among exactly the teams still level on all five (R8).
    head_to_head = (h2h * level).sum(axis=-1)
    lots = np.argsort(rng.random(shape), axis=-1)
    chain = [c.reshape(shape) for c in criteria] + [head_to_head, lots]
    full = (stats * 8 + head_to_head) * GROUP_SIZE + lots
    better = (full[..., None, :] > full[..., :, None]).sum(axis=-1)
    state.final_position = (better + 1).reshape(b, teams)
    # A team's place is decided by the first criterion that separates it from the last team
    # level with it that long: the latest "first difference" against any other team.
    first = np.full((*shape, GROUP_SIZE), -1, dtype=np.int64)
    for index in range(len(chain) - 1, -1, -1):
        c = chain[index]
        differs = c[..., :, None] != c[..., None, :]
        first = np.where(differs, index, first)
    decided = first.max(axis=-1)
    counts = np.zeros((GROUP_SIZE, len(CHAIN)), dtype=np.int64)
    np.add.at(counts, (better.ravel(), decided.ravel()), 1)
    return counts


def _first_knockout(state: _State, groups: int) -> tuple[IntArray, IntArray]:
    assert state.final_position is not None
    places = state.final_position.reshape(-1, groups, GROUP_SIZE)
    order = np.argsort(places, axis=-1) + (np.arange(groups) * GROUP_SIZE)[None, :, None]
    letters = "ABCD"[:groups]
    # The tournament's own pairing (R11) on symbolic standings: "A1" is group A's winner.
    pairs = first_knockout_pairs({x: [f"{x}1", f"{x}2"] for x in letters})

    def column(label: str) -> IntArray:
        col: IntArray = order[:, letters.index(label[0]), int(label[1]) - 1]
        return col

    home = np.stack([column(h) for h, _ in pairs], axis=1)
    away = np.stack([column(a) for _, a in pairs], axis=1)
    return home, away


def _knockout(
    state: _State,
    rng: np.random.Generator,
    home: IntArray,
    away: IntArray,
    lines: IntArray,
    decided: IntArray,
) -> BoolArray:
    """R9: points, tries, conversions, drop goals, group record, lots. Returns home wins."""
    half = home.shape[1]
    weights = np.array(point_weights())
    hl, al = lines[:, :half], lines[:, half:]
    record = _record_key(state)
    rows = np.arange(home.shape[0])[:, None]
    steps = [
        (hl @ weights, al @ weights),
        (hl[..., 0], al[..., 0]),
        (hl[..., 1], al[..., 1]),
        (hl[..., 3], al[..., 3]),
        (record[rows, home], record[rows, away]),
    ]
    home_wins = rng.random(home.shape) < 0.5
    decider = np.full(home.shape, len(steps), dtype=np.int64)  # lots unless something else decides
    open_ = np.ones(home.shape, dtype=bool)
    for index, (h, a) in enumerate(steps):
        now = open_ & (h != a)
        home_wins = np.where(now, h > a, home_wins)
        decider = np.where(now, index, decider)
        open_ &= h == a
    decided += np.bincount(decider.ravel(), minlength=len(KNOCKOUT_DECIDERS))
    return home_wins


def _with_manager_views(
    view: BatchView,
    fmt: Format,
    state: _State,
    opponents: IntArray,
    rng: np.random.Generator,
) -> BatchView:
    """Attach a function that builds each team's ManagerView (for one-decision bots)."""
    from sevens.tournament.game import ManagerView

    lots_seed = int(rng.integers(0, 2**62))

    def make(i: int) -> ManagerView:
        b = int(view.tournament[i])
        team = int(view.team[i])
        opponent = int(opponents[i])
        group = team // GROUP_SIZE
        letter = "ABCD"[group]
        members = [team_id(group * GROUP_SIZE + q) for q in range(GROUP_SIZE)]
        results = []
        played = min(view.turn - 1, GROUP_TURNS)
        for r in range(played):
            for m, (h, a) in enumerate(GROUP_ROUNDS[r]):
                hl, al = state.group_lines[b, r, group * 2 + m]
                results.append(
                    GroupResult(members[h], members[a], Line(*map(int, hl)), Line(*map(int, al)))
                )
        table = group_table(members, results, SeededDice(random.Random(lots_seed + b)), f"group {letter}")
        home_id, away_id = (team, opponent) if view.home[i] else (opponent, team)
        fixture = Fixture(f"t{view.turn}-m1", view.turn, team_id(home_id), team_id(away_id), view.stage,
                          letter if view.stage is Stage.GROUP else None)
        return ManagerView(
            game_id="lab",
            team=team_id(team),
            group=letter,
            format=fmt,
            turn=view.turn,
            stage=view.stage,
            scrum=int(view.scrum[i]),
            in_play=True,
            fixture=fixture,
            opponent=team_id(opponent),
            opponent_scrum=int(view.opponent_scrum[i]),
            turns_left=view.turns_left,
            table=table,
        )

    return BatchView(
        teams=view.teams,
        turn=view.turn,
        stage=view.stage,
        turns_left=view.turns_left,
        group_matches_left=view.group_matches_left,
        scrum=view.scrum,
        opponent_scrum=view.opponent_scrum,
        league_points=view.league_points,
        opponent_league_points=view.opponent_league_points,
        group_position=view.group_position,
        home=view.home,
        tournament=view.tournament,
        team=view.team,
        manager_view=make,
        group_spent=view.group_spent,
        group_scrum=view.group_scrum,
        group_league_points=view.group_league_points,
    )
