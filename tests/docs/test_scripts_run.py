"""`bash scripts/run COMMAND`: the README's way to run any sevens command. File names given to it are
the caller's: `bash ~/sevens/scripts/run verify game.json` reads ./game.json where it is typed.

The project is copied with a `.venv` that is already set up (scripts/setup then has nothing to do
and reaches no network): its `python` is this one, and its `sevens` runs this checkout's program."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _project(into: Path) -> Path:
    project = into / "project"
    (project / "scripts").mkdir(parents=True)
    for name in ("scripts/run", "scripts/setup", "requirements.lock", "pyproject.toml"):
        shutil.copy(ROOT / name, project / name)
    bin_dir = project / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").symlink_to(sys.executable)
    sevens = bin_dir / "sevens"
    sevens.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT / "src"}" exec "{sys.executable}" -m sevens "$@"\n')
    sevens.chmod(0o755)
    stamp = hashlib.sha256((ROOT / "requirements.lock").read_bytes() + (ROOT / "pyproject.toml").read_bytes())
    (project / ".venv" / ".sevens-lock").write_text(stamp.hexdigest() + "\n")
    return project


def _run(project: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "CDPATH"}
    return subprocess.run(["bash", str(project / "scripts" / "run"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_run_takes_file_names_from_the_folder_it_is_called_in(tmp_path: Path) -> None:
    project = _project(tmp_path)
    here = tmp_path / "games"
    here.mkdir()
    played = _run(project, here, "play", "--auto", "--seed", "1", "--record", "game.json")
    assert played.returncode == 0, played.stderr
    assert (here / "game.json").is_file(), "the record went elsewhere than where the command was typed"
    assert not (project / "game.json").exists()
    checked = _run(project, here, "verify", "game.json")
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith("game.json: ok:")


def test_the_readme_names_every_debian_package_the_two_commands_install() -> None:
    """On a fresh Debian machine scripts/setup installs python3-venv (as root) where Debian's Python
    cannot make a virtual environment, and scripts/setup-system chromium, postgresql-15 and nginx;
    the README's two commands named the last three only, so a reader not root met python3-venv's
    refusal unwarned. Each package either script installs is named in that section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## The two commands"):readme.index("## Installed as a package")]
    installed: set[str] = set()
    for script in ("setup", "setup-system"):
        text = (ROOT / "scripts" / script).read_text(encoding="utf-8")
        installed |= set(re.findall(r"apt-get install [^\n]*?--no-install-recommends ([\w.-]+)", text))
        installed |= set(re.findall(r"need\+=\(([\w.-]+)\)", text))
    assert installed >= {"python3-venv", "chromium", "postgresql-15", "nginx"}, installed
    missing = sorted(name for name in installed if f"`{name}`" not in section)
    assert not missing, f"README's two commands do not name the Debian packages {missing} the scripts install"
