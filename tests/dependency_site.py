"""A site folder holding only some of the project's .venv: the distributions that given requirements
need, and what those need in turn, linked file by file as pip laid them out. A fresh venv that reads
this folder through a path line sees sevens' dependencies as an install of ``sevens`` (or of
``sevens[postgres]``, ...) from the same versions would, without the network and without the optional
packages an install without their extra leaves out."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name


def needed(own: list[str], extras: Iterable[str] = ()) -> set[str]:
    """The canonical names of the installed distributions that sevens needs, whole closure, given its
    own requirements (a wheel's Requires-Dist) and the ``extras`` asked of it."""
    found: set[str] = set()
    seen = {("sevens", extra) for extra in ["", *extras]}  # (distribution, extra) whose requirements are listed
    todo = [(Requirement(r), extra) for _, extra in seen for r in own]
    while todo:
        requirement, extra = todo.pop()
        if requirement.marker and not requirement.marker.evaluate(default_environment() | {"extra": extra}):
            continue
        name = canonicalize_name(requirement.name)
        if name == "sevens":  # sevens[all] names the other extras
            for wanted in requirement.extras - {e for n, e in seen if n == name}:
                seen.add((name, wanted))
                todo.extend((Requirement(r), wanted) for r in own)
            continue
        dist = importlib.metadata.distribution(name)
        asked = {canonicalize_name(e) for e in requirement.extras}
        for wanted in ["", *sorted(asked)]:  # its own requirements, then each extra asked of it
            if (name, wanted) not in seen:
                seen.add((name, wanted))
                todo.extend((Requirement(r), wanted) for r in dist.requires or [])
        found.add(name)
    return found


def link_site(site: Path, names: Iterable[str]) -> None:
    """Link each file of the installed distributions ``names`` into ``site``, in the same places."""
    for name in names:
        dist = importlib.metadata.distribution(name)
        for file in dist.files or []:
            if file.parts[0] == ".." or file.suffix == ".pyc":  # scripts in bin/; compiled anew here
                continue
            source = Path(str(dist.locate_file(file)))
            if not source.is_file():
                continue
            target = site / file
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists():
                target.symlink_to(source)
