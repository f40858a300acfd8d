"""Strategies of one's own that misbehave: each is stopped with a message that names it, the turn,
what was wrong and how to put it right, never a bare traceback or a silently wrong table."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sevens.lab import run
from sevens.lab.registry import resolve
from sevens.lab.run import run_lab
from sevens.lab.simulate import simulate
from sevens.lab.strategies import BatchView, Orders, StrategyError, paced_total, split_orders
from sevens.rules import Order
from sevens.tournament.game import ManagerView
from strategy_sources import FAILS_ONCE

HERE = __name__


def _even(view: BatchView) -> Orders:
    total = paced_total(view.scrum, view.turns_left, view.group_matches_left)
    return split_orders(total, np.ones(view.size), view.scrum)


class _Own:
    """Even pacing, all FLAIR, with ``bend`` changing its orders (or what it returns) from ``turn`` on."""

    name = "own"
    turn = 1

    def orders(self, view: BatchView, rng: np.random.Generator) -> Any:
        force, flair = _even(view)
        return self.bend(force, flair, view) if view.turn >= self.turn else (force, flair)

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return force, flair


class Raises(_Own):
    name, turn = "raises", 3

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        raise ValueError("shapes do not match")  # a ValueError of its own was shown as if the user typed it


class Exits(_Own):
    name, turn = "exits", 2

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        sys.exit(3)  # ended `sevens lab` with status 3 and no word, the table lost


class Negative(_Own):
    name, turn = "negative", 2

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return force - 100, flair


class FlairNotOptions(_Own):
    name = "flair-not-options"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return force, flair + 1


class MoreThanHeld(_Own):
    name = "more-than-held"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return view.scrum, np.full(view.size, 3)


class OneOrderForAll(_Own):
    name = "one-for-all"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return 10, 9


class ThreeArrays(_Own):
    name = "three-arrays"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return force, flair, force


class RowsInOneArray(_Own):
    name = "rows-in-one-array"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return np.stack([force, flair])  # was said as "returned a ndarray": which way it was wrong, not said


class ColumnsInOneArray(_Own):
    name = "columns-in-one-array"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return np.stack([force, flair], axis=1)


class Nothing(_Own):
    name = "nothing"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return None


class Halves(_Own):
    name = "halves"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return force + 0.5, flair  # was played as FORCE cut to the whole number below, without a word


class WholeFloats(_Own):
    name = "whole-floats"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return force.astype(float), flair


class NotANumber(_Own):
    name = "not-a-number"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        force = force.astype(float)
        force[0] = np.nan
        return force, flair


class Text(_Own):
    name = "text"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return force, flair.astype(str)  # '9' was read as 9


class BadOrder:
    """A one-decision bot whose Order breaks R3."""

    name = "bad-order"

    def order(self, view: object, rng: object) -> Order:
        return Order(force=0, flair=4)


class BotRaisesLate:
    """A one-decision bot whose code fails for one team only, in its second match, raising with no message."""

    name = "bot-raises-late"

    def order(self, view: ManagerView, rng: object) -> Order:
        if view.turn == 2 and view.team == "b3":
            raise LookupError
        return Order(force=0, flair=0)


class BotChangesItsView:
    """A one-decision bot that writes what it works out into its view."""

    name = "bot-changes-its-view"

    def order(self, view: ManagerView, rng: object) -> Order:
        view.scrum -= 10  # type: ignore[misc]
        return Order(force=0, flair=0)


class ChangesItsView:
    """A batch strategy that sets a field of its view."""

    name = "changes-its-view"

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        view.turn = 0  # type: ignore[misc]
        return _even(view)


class TupleOrder:
    """A one-decision bot that returns a tuple instead of an Order."""

    name = "tuple-order"

    def order(self, view: object, rng: object) -> object:
        return (10, 9)


class NoneOrder:
    """A one-decision bot that forgot its return."""

    name = "none-order"

    def order(self, view: object, rng: object) -> object:
        return None


class BotMoreThanHeld:
    """A one-decision bot whose Order is legal on its own but more than its team holds."""

    name = "bot-more-than-held"

    def order(self, view: Any, rng: object) -> Order:
        return Order(force=view.scrum + 1, flair=0)


HOW = "split_orders(total, flair_share, view.scrum) from sevens.lab.strategies makes legal orders"


@pytest.mark.parametrize(("strategy", "says"), [
    (Raises, ["strategy 'raises' raised ValueError: shapes do not match at ", "test_lab_own_strategies.py, line ",
              "in turn 3 (group round 3)", "fix it and run again"]),
    (Exits, ["strategy 'exits' raised SystemExit: 3 at ", "test_lab_own_strategies.py, line ",
             "in turn 2 (group round 2)", "fix it and run again"]),
    (Negative, ["R3: strategy 'negative' gave team ", "in turn 2 (group round 2)", "is negative", HOW]),
    (FlairNotOptions, ["R3: strategy 'flair-not-options' gave team ", "in turn 1 (group round 1)",
                       "is not a multiple of 3", HOW]),
    (MoreThanHeld, ["R3: strategy 'more-than-held' gave team ", "FORCE 100 + FLAIR 3 = 103 is more than the 100 SCRUM "
                    "the team holds", HOW]),
    (OneOrderForAll, ["strategy 'one-for-all' gave FORCE of shape () for 32 teams in turn 1 (group round 1)",
                      "two arrays of shape (view.size,)"]),
    (ThreeArrays, ["strategy 'three-arrays' returned a tuple of 3 items in turn 1", "two arrays, (force, flair)"]),
    (Nothing, ["strategy 'nothing' returned a NoneType in turn 1", "two arrays, (force, flair)"]),
    (RowsInOneArray, ["strategy 'rows-in-one-array' returned a single array of shape (2, 32) in turn 1",
                      "two arrays, (force, flair), with one entry per team of the view: return its two rows as a "
                      "pair, (orders[0], orders[1])"]),
    (ColumnsInOneArray, ["strategy 'columns-in-one-array' returned a single array of shape (32, 2) in turn 1",
                         "return its two columns as a pair, (orders[:, 0], orders[:, 1])"]),
    (Halves, ["strategy 'halves' gave FORCE as floating-point numbers (float64) in turn 1 (group round 1), 32 of "
              "them not whole (such as ", "np.rint(x).astype(np.int64)", HOW]),
    (WholeFloats, ["strategy 'whole-floats' gave FORCE as floating-point numbers (float64) in turn 1", "whole points"]),
    (NotANumber, ["strategy 'not-a-number' gave FORCE as floating-point numbers (float64) in turn 1 (group round 1), "
                  "1 of them not whole (such as nan)"]),
    (Text, ["strategy 'text' gave FLAIR as text (<U21) in turn 1", "integer arrays"]),
    (BadOrder, ["strategy 'bad-order' raised OrderError: R3: FLAIR points must be a multiple of 3",
                "test_lab_own_strategies.py, line ", "in turn 1 (group round 1)"]),
    # A bot decides for one team: "deciding for 32 teams" left its author to find which, and what it held.
    # An exception without a message read "LookupError: at ...".
    (BotRaisesLate, ["strategy 'bot-raises-late' raised LookupError at ", "test_lab_own_strategies.py, line ",
                     ", deciding for team b3, holding ", " SCRUM, in turn 2 (group round 2); the lab runs"]),
    # A frozen view was said as "FrozenInstanceError: cannot assign to field 'scrum'", with "fix it" alone.
    (BotChangesItsView, ["raised FrozenInstanceError: cannot assign to field 'scrum' at ", "deciding for team a",
                         "holding 100 SCRUM, in turn 1 (group round 1); the view the lab gives (and an Order) cannot "
                         "be changed: keep what you work out in variables of your own, or on the strategy object"]),
    (ChangesItsView, ["raised FrozenInstanceError: cannot assign to field 'turn' at ", "deciding for 32 teams in turn 1",
                      "the view the lab gives (and an Order) cannot be changed"]),
    # Said as what the bot returned: "raised TypeError" sent its author looking for a raise.
    (TupleOrder, ["strategy 'tuple-order' returned tuple (10, 9) for team ", " in turn 1 (group round 1), not an "
                  "Order: order(view, rng) must return a sevens.rules.Order; if the pair is (force, flair), return "
                  "Order(force=10, flair=9)"]),
    (NoneOrder, ["strategy 'none-order' returned NoneType None for team ", "not an Order", "such as Order(force=10, "
                 "flair=9) (from sevens.rules import Order)"]),
    # A bot's fix is its Order, not the batch strategies' split_orders.
    (BotMoreThanHeld, ["R3: strategy 'bot-more-than-held' gave team ", "FORCE 101 + FLAIR 0 = 101 is more than the "
                       "100 SCRUM the team holds", "a bot's Order(force=..., flair=...) must add up to no more than "
                       "view.scrum"]),
])
def test_a_strategy_that_misbehaves_is_stopped_naming_it_the_turn_the_fault_and_the_fix(
    strategy: type, says: list[str]
) -> None:
    with pytest.raises(StrategyError) as caught:
        run_lab(["even", f"{HERE}:{strategy.__name__}"], 8, seed=1, teams=8, batch_size=8)
    message = str(caught.value)
    typed = f"'{HERE}:{strategy.__name__}' (named '{strategy.name}')"  # as the run names it, and its own name
    assert typed in message
    missing = [part for part in says if part not in message.replace(typed, repr(strategy.name))]
    assert not missing, message


class OwnRandomness:
    """Draws its shares from numpy's global generator instead of the rng it is given."""

    name = "own-randomness"

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left)
        return split_orders(total, np.random.random(view.size), view.scrum)


CALLS = [0]


class GlobalCounter:
    """Keeps its state in a module global: all FLAIR on odd calls, all FORCE on even ones."""

    name = "global-counter"

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        CALLS[0] += 1
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left)
        return split_orders(total, np.full(view.size, float(CALLS[0] % 2)), view.scrum)


@pytest.mark.parametrize("strategy", [OwnRandomness, GlobalCounter])
def test_a_strategy_whose_answers_change_is_refused_before_its_table_misleads(strategy: type) -> None:
    """Its results would differ from run to run and with the number of workers: the run's first
    batch asks it each question twice and refuses it."""
    with pytest.raises(StrategyError) as caught:
        run_lab(["even", f"{HERE}:{strategy.__name__}"], 16, seed=1, teams=8, batch_size=8, workers=1)
    message = str(caught.value)
    assert f"strategy '{HERE}:{strategy.__name__}' (named {strategy.name!r}) gave different orders when asked twice" in message
    assert "in turn 1 (group round 1)" in message
    assert "draw every random number from the rng it is given" in message


class CallCounter:
    """Keeps state on itself, as it may: all FLAIR on odd calls, all FORCE on even ones."""

    name = "call-counter"

    def __init__(self) -> None:
        self.calls = 0

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        self.calls += 1
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left)
        return split_orders(total, np.full(view.size, float(self.calls % 2)), view.scrum)


SHARED = CallCounter()
"""One object named by its path: its calls used to pile up over every batch a process played."""


def test_a_strategy_object_that_keeps_state_gives_the_same_results_for_any_workers() -> None:
    one = run_lab(["even", f"{HERE}:SHARED"], 48, seed=5, teams=8, batch_size=8, workers=1)
    two = run_lab(["even", f"{HERE}:SHARED"], 48, seed=5, teams=8, batch_size=8, workers=2)
    assert one.to_dict() == two.to_dict()
    assert SHARED.calls == 0  # the module's object is copied for each batch, never played itself
    assert resolve(f"{HERE}:SHARED") is not resolve(f"{HERE}:SHARED")


def test_asking_twice_leaves_the_results_as_they_are() -> None:
    """The check plays the first answers: a batch comes out the same with it and without it."""
    own = resolve(f"{HERE}:CallCounter")
    seats = np.tile(np.array([0, 1] * 4), (20, 1))
    plain = simulate(8, seats, [resolve("random"), own], np.random.default_rng(3), compiled=False)
    checked = simulate(8, seats, [resolve("random"), resolve(f"{HERE}:CallCounter")], np.random.default_rng(3),
                       compiled=False, probe={1: resolve(f"{HERE}:CallCounter")})
    for field in ("champion", "group_points", "scrum_left", "reached"):
        assert np.array_equal(getattr(plain, field), getattr(checked, field)), field


class WritesItsView(_Own):
    """Raises the SCRUM its view shows and spends it: the R3 check read the view it had changed."""

    name = "writes-its-view"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        view.scrum[:] = 100
        return view.scrum, np.zeros(view.size, dtype=np.int64)


class WritesTheRecord(_Own):
    """Writes into the group stage's public record, which the simulation and every other strategy read."""

    name, turn = "writes-the-record", 2

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        view.group_spent[...] = 0
        return force, flair


class Overflowing(_Own):
    """FORCE and FLAIR each far past any SCRUM, whose sum wraps round to a negative 64-bit number."""

    name = "overflowing"

    def bend(self, force: Any, flair: Any, view: BatchView) -> Any:
        return np.full(view.size, 2**62, dtype=np.int64), np.full(view.size, 3 * 2**61, dtype=np.int64)


READ_ONLY = ("the view's arrays are the run's own figures, read-only: copy one to work on it "
             "(view.scrum.copy())")
"""The fix, said with numpy's bare 'assignment destination is read-only'."""


@pytest.mark.parametrize(("strategy", "says"), [
    (WritesItsView, ["strategy 'writes-its-view' raised ValueError: ", "read-only", "in turn 1 (group round 1)",
                     "test_lab_own_strategies.py, line ", READ_ONLY]),
    (WritesTheRecord, ["strategy 'writes-the-record' raised ValueError: ", "read-only", "in turn 2 (group round 2)",
                       READ_ONLY]),
    (Overflowing, ["R3: strategy 'overflowing' gave team ", f"FORCE {2**62}, FLAIR {3 * 2**61}",
                   "is more than the 100 SCRUM the team holds", HOW]),
])
def test_a_strategy_cannot_change_what_the_run_shows_it_nor_pass_r3_by_overflow(strategy: type, says: list[str]) -> None:
    """A view's arrays are the run's own figures: a strategy that wrote into them changed what the R3
    check read and what the other strategies saw; a sum past 64 bits looked small enough."""
    with pytest.raises(StrategyError) as caught:
        run_lab(["even", f"{HERE}:{strategy.__name__}"], 8, seed=1, teams=8, batch_size=8)
    message = str(caught.value).replace(f"'{HERE}:{strategy.__name__}' (named '{strategy.name}')", repr(strategy.name))
    missing = [part for part in says if part not in message]
    assert not missing, message


class Locked:
    """Even pacing, all FLAIR, holding a lock (as a strategy that talks to a service might): it
    cannot be copied."""

    name = "locked"

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls = 0

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        with self.lock:
            self.calls += 1
        return _even(view)


LOCKED = Locked()
"""One object named by its path that cannot be copied: it used to be played as it is, its calls
piling up over the batches each process played, with no word said."""


def test_a_strategy_object_that_cannot_be_copied_is_refused_before_the_run_saying_what_to_name_instead() -> None:
    with pytest.raises(ValueError) as caught:
        run_lab(["even", f"{HERE}:LOCKED"], 16, seed=1, teams=8, batch_size=8)
    message = str(caught.value)
    for part in (f"strategy '{HERE}:LOCKED' is an object (Locked) that cannot be copied",
                 "cannot pickle '_thread.lock' object", "the same for any --workers",
                 f"Name its class or a function that makes one instead (its class is {HERE}:Locked", "__deepcopy__"):
        assert part in message, message
    assert LOCKED.calls == 0  # refused before it played


class LockedRandom(Locked):
    """Holds a lock and draws from numpy's global generator: the check that asks twice used to
    skip it (it could not copy it), so its table changed from run to run without a word."""

    name = "locked-random"

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left)
        return split_orders(total, np.random.random(view.size), view.scrum)


class MadeAtRandom:
    """Picks its FLAIR share when made, as a class drawing its settings at random would, so that
    each batch's strategy differs (a copy would have hidden it). The share alternates between all
    FORCE and all FLAIR rather than being drawn: two drawn shares close together split small totals
    alike, and the check then had nothing to catch (the test failed now and then)."""

    name = "made-at-random"
    made = 0

    def __init__(self) -> None:
        MadeAtRandom.made += 1
        self.share = float(MadeAtRandom.made % 2)

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left)
        return split_orders(total, np.full(view.size, self.share), view.scrum)


@pytest.mark.parametrize("strategy", [LockedRandom, MadeAtRandom])
def test_a_strategy_class_is_checked_by_asking_a_second_one_the_same_questions(strategy: type) -> None:
    with pytest.raises(StrategyError) as caught:
        run_lab(["even", f"{HERE}:{strategy.__name__}"], 16, seed=1, teams=8, batch_size=8, workers=1)
    message = str(caught.value)
    assert f"strategy '{HERE}:{strategy.__name__}' (named {strategy.name!r}) gave different orders" in message
    assert "made differently each time" in message


def test_a_strategy_class_that_cannot_be_copied_plays_and_gives_the_same_results_for_any_workers() -> None:
    one = run_lab(["even", f"{HERE}:Locked"], 48, seed=5, teams=8, batch_size=8, workers=1)
    two = run_lab(["even", f"{HERE}:Locked"], 48, seed=5, teams=8, batch_size=8, workers=2)
    assert one.to_dict() == two.to_dict()


FLAG: list[Path] = []
"""Where WaitsToBeSeen waits for the run's progress to show (set by the test; workers fork with it)."""


class WaitsToBeSeen:
    """Even pacing, one team at a time. From its 40th decision on it thinks 20 ms a decision until
    the run's progress has shown part of a batch: a slow strategy's bar used to stand still until a
    whole batch was done. (Stopping dead instead, a batch that got there within the half second
    before its first report would never send one.)"""

    name = "waits-to-be-seen"

    def __init__(self) -> None:
        self.decided = 0

    def order(self, view: Any, rng: object) -> Order:
        self.decided += 1
        if FLAG and self.decided >= 40 and not FLAG[0].exists():
            threading.Event().wait(0.02)
        total = -(-view.scrum // view.turns_left)
        return Order(force=total, flair=0)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_slow_strategy_shows_progress_while_a_batch_plays_and_the_results_are_unchanged(
    workers: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = run_lab(["even", f"{HERE}:WaitsToBeSeen"], 24, seed=2, teams=8, batch_size=8)
    monkeypatch.setattr(run, "PROGRESS_EVERY", 0.0)  # tell every step: the test waits on the steps, not the clock
    monkeypatch.setattr(sys.modules[__name__], "FLAG", [tmp_path / "seen"])
    told: list[int] = []

    def progress(n: int) -> None:
        told.append(n)
        if n < 8:  # less than a batch: part of one
            FLAG[0].touch()

    shown = run_lab(["even", f"{HERE}:WaitsToBeSeen"], 24, seed=2, teams=8, batch_size=8, workers=workers,
                    progress=progress)
    assert FLAG[0].exists() and len(told) > 3 and min(told) > 0 and sum(told) == 24, told
    assert shown.to_dict() == plain.to_dict()


@pytest.mark.parametrize(("typed", "says"), [
    # A file's name, as one would type it: the import said "'pacers' is not a package".
    ("pacers.py:SaveThenFlair", "'pacers.py' is a file, and a strategy is named by its module: run from the folder "
                                "that holds pacers.py (or put that folder on PYTHONPATH) and name it "
                                "'pacers:SaveThenFlair'"),
    ("lab/pacers.py:SaveThenFlair", "run from the folder that holds pacers.py"),
    # A dotted path, as Python writes one: the list of built-ins said nothing of the colon wanted.
    ("pacers.SaveThenFlair", "or give a 'module:attribute' path ('pacers:SaveThenFlair'?)"),
    # The file alone, as a shell completes it: read as a dotted path, it was told "('pacers:py'?)".
    ("pacers.py", "('pacers.py' is a file, and a strategy is named by its module and the name in it: run from the "
                  "folder that holds pacers.py and name it as 'pacers:NAME')"),
    ("./lab/pacers.py", "run from the folder that holds pacers.py and name it as 'pacers:NAME'"),
])
def test_a_strategy_named_by_its_file_or_a_dotted_path_is_refused_saying_how_to_name_it(typed: str, says: str) -> None:
    with pytest.raises(ValueError) as caught:
        run_lab(["even", typed], 8, seed=1, teams=8)
    assert says in str(caught.value)
    assert ":py'" not in str(caught.value)


def test_a_name_that_is_no_strategy_is_told_how_to_register_one() -> None:
    """The list of names and 'a module:attribute path' said nothing of the entry points that register a
    name of one's own, which the guide's own example uses."""
    with pytest.raises(ValueError) as caught:
        run_lab(["even", "save-then-flair-mine"], 8, seed=1, teams=8)
    assert str(caught.value).endswith(
        "or register a name of your own as an entry point in the group 'sevens.strategies' (docs/strategy.md, "
        "Writing your own strategy)"
    )


class Nameless:
    """Even pacing, all FLAIR, and no name: the guide asks for one only to name it in messages."""

    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        return _even(view)


class NamelessRaises:
    def orders(self, view: BatchView, rng: np.random.Generator) -> Orders:
        raise KeyError("notes")


def test_a_strategy_without_a_name_plays_and_is_named_as_typed() -> None:
    """It stopped the run with AttributeError: no attribute 'name', blamed on its own code."""
    result = run_lab(["even", f"{HERE}:Nameless"], 16, seed=1, teams=8, batch_size=8)
    assert {row["strategy"] for row in result.to_dict()["results"]} == {"even", f"{HERE}:Nameless"}
    with pytest.raises(StrategyError) as caught:
        run_lab(["even", f"{HERE}:NamelessRaises"], 16, seed=1, teams=8, batch_size=8)
    assert str(caught.value).startswith(f"strategy '{HERE}:NamelessRaises' raised KeyError: 'notes' at ")


DRIVES_A_FAILING_RUN = """
import sys
from sevens.lab import run
from sevens.lab.strategies import StrategyError

run.PROGRESS_EVERY = 0.0  # every step told: the workers have much to say while the run stops
told = []
try:
    run.run_lab(["even", "fails_once:FailsOnce"], 200_000, seed=1, teams=8, workers=2, progress=told.append)
except StrategyError as exc:
    print(exc)
"""


def test_a_failed_batch_ends_a_run_whose_workers_have_much_progress_to_tell(tmp_path: Path) -> None:
    """The run stopped reading its workers' progress when a batch failed, and waited for them to
    end: a worker that had told more than the pipe holds waited for it to be read before it could
    end, and the run never ended (it is killed here after 120 s)."""
    (tmp_path / "fails_once.py").write_text(FAILS_ONCE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(run.__file__).parents[2]), str(tmp_path)]),
           "FAILS_ONCE_FLAG": str(tmp_path / "failed")}
    with subprocess.Popen([sys.executable, "-c", DRIVES_A_FAILING_RUN], cwd=tmp_path, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True) as driven:
        try:
            out, err = driven.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(driven.pid, signal.SIGKILL)
            pytest.fail("the run did not end after its batch failed")
    assert driven.returncode == 0, err.decode()
    assert "strategy 'fails_once:FailsOnce' (named 'fails-once') raised RuntimeError: no plan for turn 3" in out.decode()


class UnnamedBotRaises:
    """A one-decision bot with no name, raising."""

    def order(self, view: object, rng: object) -> Order:
        raise KeyError("no plan")


def test_a_bot_with_no_name_is_named_by_its_path_alone() -> None:
    """Its adapter takes a name from its class, and the message said "(named 'UnnamedBotRaises')", as if
    the bot had been given that name; docs/strategy.md says one with no name is named by its path."""
    with pytest.raises(StrategyError) as caught:
        run_lab(["even", f"{HERE}:UnnamedBotRaises"], 8, seed=1, teams=8, batch_size=8)
    message = str(caught.value)
    assert message.startswith(f"strategy '{HERE}:UnnamedBotRaises' raised KeyError: 'no plan' at "), message
    assert "(named" not in message
