"""``python -m sevens``: the ``sevens`` command, for when the script is not on the PATH."""

from sevens.cli import run

run()
