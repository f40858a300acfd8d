"""The ``sevens`` command line: one module per command group, registered in :mod:`sevens.cli.main`."""
