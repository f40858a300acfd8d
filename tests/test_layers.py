"""The layers import one way (ARCHITECTURE.md): rules <- odds, tournament <- bots <- lab; store; web, cli."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "sevens"

# What each layer may import from the project, besides itself.
ALLOWED = {
    "rules": set(),
    "odds": {"rules"},
    "tournament": {"rules"},
    "bots": {"rules", "odds", "tournament"},
    "lab": {"rules", "odds", "tournament", "bots"},
    "store": {"rules", "odds", "tournament", "bots"},
    "web": {"rules", "odds", "tournament", "bots", "store"},
    "cli": {"rules", "odds", "tournament", "bots", "lab", "store", "web"},
}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        found.update(names)
    return found


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_point_one_way(layer: str) -> None:
    bad = []
    for path in sorted((SRC / layer).rglob("*.py")):
        for name in _imports(path):
            parts = name.split(".")
            other = parts[1] if parts[0] == "sevens" and len(parts) > 1 else None
            if other in ALLOWED and other != layer and other not in ALLOWED[layer]:
                bad.append(f"{path.relative_to(SRC)} imports {name}")
    assert not bad, "\n".join(bad)


def test_rules_use_the_standard_library_only() -> None:
    """ARCHITECTURE.md: rules/ is "Standard library only. No I/O, no clock, no global random, no print"."""
    stdlib = set(sys.stdlib_module_names)
    forbidden_calls = {"print", "open", "input"}
    problems = []
    for path in sorted((SRC / "rules").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in _imports(path):
            top = name.split(".")[0]
            if top not in stdlib and top != "sevens" and top != "__future__":
                problems.append(f"{path.name} imports {name}")
            if top in {"time", "datetime", "os", "secrets", "socket", "pathlib"}:
                problems.append(f"{path.name} imports {name} (I/O or clock)")
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in forbidden_calls:
                problems.append(f"{path.name} calls {node.func.id}()")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "random"
                and node.func.attr != "Random"  # a seeded instance passed around is fine
            ):
                problems.append(f"{path.name} uses the global random source (random.{node.func.attr})")
    assert not problems, "\n".join(problems)


def test_the_command_line_loads_no_solver_or_plotting_library() -> None:
    """``sevens --help``, ``play``, ``serve`` and pacing-only ``lab`` runs never solve a game or draw a
    plot: scipy.optimize (half a second to import) and matplotlib load only when used."""
    import subprocess

    probe = "import sys, sevens.cli.main, sevens.lab.run; print(' '.join(sorted(sys.modules)))"
    loaded = set(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split())
    assert "sevens.odds.solver" in loaded  # the probe did load the module that uses scipy.optimize
    assert {"scipy.optimize", "matplotlib"}.isdisjoint(loaded)
