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


# The optional packages (extras in pyproject.toml, sevens.extras.EXTRAS) and the one module each may
# be imported from: a plain `pip install sevens` leaves them out, so every other module must load
# without them, and these import them inside the functions that use them.
OPTIONAL = {"psycopg": set(), "dask": {"lab/on_dask.py"}, "distributed": {"lab/on_dask.py"},
            "matplotlib": {"lab/plot.py"}}


def _top_level_imports(tree: ast.Module) -> set[int]:
    """The line numbers of the imports a module runs as it loads (not in a function, nor under TYPE_CHECKING)."""
    lines: set[int] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.Import | ast.ImportFrom):
                lines.add(node.lineno)
            elif isinstance(node, ast.If) and not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try | ast.With | ast.ClassDef):
                visit(node.body)
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
                visit(getattr(node, "orelse", []))
                visit(getattr(node, "finalbody", []))

    visit(tree.body)
    return lines


def test_optional_packages_are_imported_only_where_allowed_and_only_when_used() -> None:
    """sevens serve on SQLite, play and odds run without psycopg, Dask and matplotlib (extras)."""
    from sevens.extras import EXTRAS

    assert set(OPTIONAL) == {module for modules in EXTRAS.values() for module in modules}
    bad = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        eager = _top_level_imports(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                where = str(path.relative_to(SRC))
                if top in OPTIONAL and where not in OPTIONAL[top]:
                    bad.append(f"{where}:{node.lineno} imports {name}, which only {OPTIONAL[top] or 'SQLAlchemy'} may")
                elif top in OPTIONAL and node.lineno in eager:
                    bad.append(f"{where}:{node.lineno} imports {name} as it loads: import it in the function using it")
    assert not bad, "\n".join(bad)
