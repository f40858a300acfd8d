"""Packages as pip leaves them in a site folder, for tests that run bots and strategies of one's own
from an entry point: real modules and a real dist-info folder, found by importlib.metadata."""

from __future__ import annotations

from pathlib import Path


def install_package(site: Path, package: str, modules: dict[str, str], entry_points: dict[str, str]) -> None:
    """Write ``package`` into ``site``: each module's source (``{"mine": "class Mine: ..."}``) and a
    dist-info folder declaring ``entry_points`` (name -> ``module:attribute``) in 'sevens.strategies'."""
    info = site / f"{package}-0.1.dist-info"
    info.mkdir(parents=True)
    for module, code in modules.items():
        (site / f"{module}.py").write_text(code)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n")
    lines = "".join(f"{name} = {target}\n" for name, target in entry_points.items())
    (info / "entry_points.txt").write_text(f"[sevens.strategies]\n{lines}")
