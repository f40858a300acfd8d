"""The compiled lab keeps no value from an older source: numba's cache on disk notices a change only
in the compiled function's own file, while the lab's loop takes constants (the rules' numbers,
field-reader's REPLY_PULL) from others."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = '''
from sevens.bots.pacing import REPLY_PULL
from sevens.lab.jit import compiler

_PULL = REPLY_PULL


@compiler()
def pull() -> float:
    return _PULL
'''


def _pull(copy: Path, cache: Path | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(copy)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    run = subprocess.run([sys.executable, "-c", "from sevens.lab._probe import pull; print(pull())"], env=env,
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


@pytest.mark.parametrize("own_cache_dir", [False, True])
def test_a_constant_changed_in_another_file_is_compiled_afresh(tmp_path: Path, own_cache_dir: bool) -> None:
    """As the guide has it, REPLY_PULL changed in sevens.bots.pacing: the next run must play the new
    value, not the one compiled into numba's cache by the run before (it did: 0.25 again)."""
    pytest.importorskip("numba")
    copy = tmp_path / "src"
    shutil.copytree(ROOT / "src" / "sevens", copy / "sevens", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "sevens" / "lab" / "_probe.py").write_text(PROBE)
    cache = tmp_path / "numba" if own_cache_dir else None
    assert _pull(copy, cache) == "0.25"
    written = cache if cache is not None else copy / "sevens" / "lab" / "__pycache__"
    assert any(written.rglob("_probe.pull-*.nbi")), "the first run left no cache to be taken back"
    pacing = copy / "sevens" / "bots" / "pacing.py"
    source = pacing.read_text()
    assert "\nREPLY_PULL = 0.25\n" in source
    pacing.write_text(source.replace("\nREPLY_PULL = 0.25\n", "\nREPLY_PULL = 0.5\n"))
    assert _pull(copy, cache) == "0.5"
    assert _pull(copy, cache) == "0.5"  # and from the new cache
