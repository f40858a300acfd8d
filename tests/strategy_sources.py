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
