"""The optional parts of sevens and the packages each needs, installed as extras of the package:
``pip install 'sevens[postgres]'`` (PostgreSQL), ``'sevens[dask]'`` (the lab on a Dask cluster),
``'sevens[plot]'`` (the lab's plots), ``'sevens[all]'`` (the three). A plain ``pip install sevens``
plays, computes odds and serves on SQLite without them. Standard library only: any layer may ask.
"""

from __future__ import annotations

import importlib.util

__all__ = ["EXTRAS", "MissingExtra", "extra_of", "install_hint", "require"]

EXTRAS = {"postgres": ("psycopg",), "dask": ("dask", "distributed"), "plot": ("matplotlib",)}
"""Each extra and the modules it brings, as they are imported."""


class MissingExtra(ModuleNotFoundError):
    """An optional part of sevens was asked for without the packages of its extra installed.

    >>> print(MissingExtra("plot", "--plot", "matplotlib"))
    --plot needs matplotlib, which is not installed: install sevens[plot]: pip install 'sevens[plot]'
    """

    def __init__(self, extra: str, what: str, module: str) -> None:
        super().__init__(f"{what} needs {module}, which is not installed: {install_hint(extra)}", name=module)
        self.extra = extra


def install_hint(extra: str) -> str:
    """What to do for ``extra``, with the exact command (quoted: a shell would read the brackets).

    >>> install_hint("postgres")
    "install sevens[postgres]: pip install 'sevens[postgres]'"
    """
    return f"install sevens[{extra}]: pip install 'sevens[{extra}]'"


def extra_of(module: str | None) -> str | None:
    """The extra that brings ``module`` (a dotted name from an ImportError), or None.

    >>> extra_of("psycopg.pq"), extra_of("distributed"), extra_of("numpy")
    ('postgres', 'dask', None)
    """
    top = (module or "").split(".")[0]
    return next((extra for extra, modules in EXTRAS.items() if top in modules), None)


def require(extra: str, what: str) -> None:
    """Raise :class:`MissingExtra` unless every module of ``extra`` can be found (none is imported:
    asking costs nothing). ``what`` names what needs it, for the message.

    >>> require("plot", "--plot")  # installed here: nothing happens
    """
    for module in EXTRAS[extra]:
        if importlib.util.find_spec(module) is None:
            raise MissingExtra(extra, what, module)
