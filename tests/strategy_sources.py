"""Source texts of strategies of one's own, written to files by the lab tests that run them."""

PRINTER = '''
import numpy as np
from sevens.lab.strategies import paced_total, split_orders


class Printer:
    """Says what it decides, as one does while working on a strategy."""

    name = "printer"

    def orders(self, view, rng):
        print("deciding turn", view.turn)
        total = paced_total(view.scrum, view.turns_left, view.group_matches_left)
        return split_orders(total, np.ones(view.size), view.scrum)
'''
"""Prints what it decides, one line a turn, as one does while working on a strategy."""

FAILS_ONCE = '''
import os
import time

from sevens.bots.strategies import EvenSpread


class FailsOnce:
    """Plays as "even", one team at a time, and raises in turn 3 of the first batch to get there (it
    leaves the file named by FAILS_ONCE_FLAG to say so). Every other batch then plays on, each decision
    taking FAILS_ONCE_THINKS seconds (0 by default), as a slow strategy's do."""

    name = "fails-once"

    def __init__(self):
        self.even = EvenSpread()

    def order(self, view, rng):
        flag = os.environ["FAILS_ONCE_FLAG"]
        if os.path.exists(flag):
            time.sleep(float(os.environ.get("FAILS_ONCE_THINKS", "0")))
        elif view.turn == 3:
            try:
                open(flag, "x").close()
            except FileExistsError:  # another batch got there at the same moment
                pass
            else:
                raise RuntimeError("no plan for turn 3")
        return self.even.order(view, rng)
'''
"""Fails in one batch of a run; the run's other batches play on, quickly or slowly."""
