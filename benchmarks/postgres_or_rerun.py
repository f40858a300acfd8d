"""For a benchmark that compares SQLite with PostgreSQL: without a server's address in the
environment, run the script again under ``scripts/pg`` (a throwaway server, stopped after)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from sevens.store.testing import POSTGRES_ENV

SCRIPTS_PG = Path(__file__).resolve().parent.parent / "scripts" / "pg"


def postgres_or_rerun(script: str) -> bool:
    """True when PostgreSQL is there to measure; otherwise replaces this process with ``script``
    run under ``scripts/pg``, or, with no ``scripts/pg`` or bash, says so and returns False."""
    if os.environ.get(POSTGRES_ENV):
        return True
    if shutil.which("bash") and SCRIPTS_PG.exists():
        os.execvp("bash", ["bash", str(SCRIPTS_PG), sys.executable, script, *sys.argv[1:]])
    print("no PostgreSQL: run under scripts/pg or pass --no-postgres", file=sys.stderr)
    return False
