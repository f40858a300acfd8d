"""pytest imports a test folder without __init__.py by the file's bare name, so two such files with
one name stop the whole run at collection (it happened: tests/odds and tests/tournament each had a
test_sceptic.py, and targeted runs of either folder never showed it)."""

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).parent


def test_modules_imported_by_bare_name_have_distinct_names() -> None:
    # a folder with __init__.py is a package: its files are imported as tests.folder.name
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("*.py"):
        if (path.parent / "__init__.py").exists() or path.name == "conftest.py":
            continue
        by_name[path.stem].append(str(path.relative_to(TESTS)))
    clashes = {name: paths for name, paths in by_name.items() if len(paths) > 1}
    assert not clashes, f"rename one of each pair so pytest can import both: {clashes}"
