"""sevens as a user installs it: a wheel built from the source distribution, installed into a virtual
environment of its own and run from a folder that is no checkout, with no network.

The tracked files are copied (a clean clone), the sdist is built from them with the setuptools of
requirements.lock, the wheel from the unpacked sdist (so the sdist holds what a rebuild needs), and
the wheel installed without its dependencies into a fresh venv; the dependencies are the project's
own .venv's, seen through a path line in the new venv (the .venv's own .pth files, among them the
editable sevens, are not read that way). Everything the checkout would lend, templates, static
files, migrations or the record's schema, must then come from the wheel."""

from __future__ import annotations

import contextlib
import email.parser
import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from dependency_site import link_site, needed
from sevens.store.testing import POSTGRES_ENV, throwaway_database
from sevens.web.testing import wait_until_up

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
# A version of its own, set where the package keeps it, so that --version and the metadata are seen
# to follow that one place (and a wheel of the checkout's version could not be mistaken for this one).
VERSION = "0.1.0.dev4242"


@dataclass(frozen=True)
class Installed:
    wheel: Path
    sdist: Path
    venv: Path
    elsewhere: Path  # the folder the commands run in: no checkout, nothing of sevens

    @property
    def sevens(self) -> str:
        return str(self.venv / "bin" / "sevens")

    def run(self, *args: str, timeout: float = 120, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([self.sevens, *args], cwd=self.elsewhere, env=_environment(self.elsewhere) | (env or {}),
                              capture_output=True, text=True, timeout=timeout, check=False)

    def python(self, code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.venv / "bin" / "python"), "-c", code], cwd=self.elsewhere,
                              env=_environment(self.elsewhere), capture_output=True, text=True, timeout=timeout,
                              check=False)


def _environment(home: Path) -> dict[str, str]:
    """This process's environment less anything that would point Python at the checkout."""
    kept = {k: v for k, v in os.environ.items()
            if not k.startswith(("PYTHON", "SEVENS_", "VIRTUAL_ENV")) and k != "DATABASE_URL"}
    return kept | {"HOME": str(home), "XDG_STATE_HOME": str(home / "state")}


def _build(hook: str, source: Path, out: Path) -> Path:
    """Run setuptools' PEP 517 ``hook`` in ``source`` with this venv's setuptools (no network)."""
    out.mkdir(parents=True, exist_ok=True)
    code = f"import setuptools.build_meta as b; print(b.{hook}({str(out)!r}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=source, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return out / done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("packaging")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    clone = base / "clone"
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    init = clone / "src" / "sevens" / "__init__.py"
    text = init.read_text()
    assert '__version__ = "' in text
    init.write_text(text.replace(text.split('__version__ = "')[1].split('"')[0], VERSION, 1))

    sdist = _build("build_sdist", clone, base / "dist")
    with tarfile.open(sdist) as archive:
        archive.extractall(base / "unpacked", filter="data")
    wheel = _build("build_wheel", base / "unpacked" / sdist.name.removesuffix(".tar.gz"), base / "dist")

    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "--disable-pip-version-check"]
    subprocess.run([*pip, "install", "--quiet", "--no-index", "--no-deps", str(wheel)], check=True, timeout=300,
                   capture_output=True)
    site = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "project_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    yield Installed(wheel=wheel, sdist=sdist, venv=venv, elsewhere=elsewhere)


def _metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return email.parser.Parser().parsestr(archive.read(name).decode())


def _locked() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version.strip()
    return pins


def test_the_installed_package_is_the_wheels_and_not_the_checkout(installed: Installed) -> None:
    found = subprocess.run(
        [str(installed.venv / "bin" / "python"), "-c", "import sevens, numpy; print(sevens.__file__)"],
        cwd=installed.elsewhere, env=_environment(installed.elsewhere), capture_output=True, text=True, check=True)
    assert Path(found.stdout.strip()).is_relative_to(installed.venv), found.stdout


def test_the_wheel_holds_every_file_of_the_package(installed: Installed) -> None:
    """Each tracked file under src/sevens (templates, static files, migrations, the record's schema,
    py.typed), not only the modules."""
    tracked = subprocess.run(["git", "ls-files", "src/sevens"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    with zipfile.ZipFile(installed.wheel) as archive:
        held = set(archive.namelist())
    missing = [name for name in tracked if name.removeprefix("src/") not in held]
    assert not missing, f"left out of the wheel (package-data in pyproject.toml): {missing}"


def test_the_sdist_holds_the_source_and_no_environment_caches_or_stray_tests(installed: Installed) -> None:
    """setuptools adds tests/test*.py to an sdist by default: three modules of the suite, which
    cannot run without the rest of tests/ and the docs they check, came with the source."""
    with tarfile.open(installed.sdist) as archive:
        names = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    assert {"pyproject.toml", "README.md", "PKG-INFO", "src/sevens/web/templates/base.html"} <= set(names)
    unwanted = [n for n in names if n.startswith((".venv", ".git", "build/", "dist/", "tests/")) or "__pycache__" in n
                or n.endswith((".pyc", ".sqlite3"))]
    assert not unwanted, unwanted


def test_the_metadata_names_the_package_its_version_python_licence_readme_and_command(installed: Installed) -> None:
    meta = _metadata(installed.wheel)
    assert (meta["Name"], meta["Version"], meta["Requires-Python"]) == ("sevens", VERSION, ">=3.11")
    assert meta["License-Expression"] == "MIT"
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload().startswith("# sevens\n")
    with zipfile.ZipFile(installed.wheel) as archive:
        points = next(archive.read(n).decode() for n in archive.namelist() if n.endswith("entry_points.txt"))
    assert "[console_scripts]\nsevens = sevens.cli:run\n" in points


def test_the_wheel_and_the_sdist_carry_the_licence_text(installed: Installed) -> None:
    """The metadata said MIT, but neither archive held the licence's text, which MIT asks to go with
    every copy: LICENSE is now in both (license-files in pyproject.toml)."""
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the sevens contributors" in text
    with zipfile.ZipFile(installed.wheel) as archive:
        held = [n for n in archive.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert len(held) == 1, archive.namelist()
        assert archive.read(held[0]).decode() == text
    assert _metadata(installed.wheel).get_all("License-File") == ["LICENSE"]
    with tarfile.open(installed.sdist) as archive:
        member = archive.extractfile(f"{installed.sdist.name.removesuffix('.tar.gz')}/LICENSE")
        assert member is not None and member.read().decode() == text
    installed_licence = next(installed.venv.glob("lib/python*/site-packages/sevens-*.dist-info/licenses/LICENSE"))
    assert installed_licence.read_text() == text


def test_the_dependencies_are_ranges_the_lock_satisfies_with_nothing_only_tests_need(installed: Installed) -> None:
    """A pinned dependency (numpy==2.4.6) made pip change the numpy of any environment sevens was
    installed into, or refuse; a range from the version tested keeps it installable beside others.
    The same holds for the extras' packages (postgres, dask, plot), which .venv has from the lock."""
    meta = _metadata(installed.wheel)
    locked = _locked()
    runtime = [Requirement(r) for r in meta.get_all("Requires-Dist") or [] if "extra ==" not in r]
    optional = [Requirement(r) for r in meta.get_all("Requires-Dist") or []
                if "extra ==" in r and 'extra == "dev"' not in r and not r.startswith("sevens[")]
    assert runtime and {canonicalize_name(r.name) for r in optional} == {"psycopg", "dask", "distributed", "matplotlib"}
    for requirement in runtime + optional:
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{name} is a dependency but not in requirements.lock"
        assert requirement.specifier.contains(locked[name]), f"{requirement} refuses the locked {locked[name]}"
        assert not any(spec.operator in ("==", "===") for spec in requirement.specifier), f"{requirement} is pinned"
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    only_tests = {canonicalize_name(Requirement(r).name) for r in dev}
    assert not only_tests & {canonicalize_name(r.name) for r in runtime}


def test_the_build_system_asks_for_a_setuptools_that_can_build_it() -> None:
    """``license = "MIT"`` is a licence expression (PEP 639): setuptools 77.0.3 builds the project,
    while 68.2.2, which ``setuptools>=68`` allowed, refused it ("`project.license` must be valid
    exactly by one definition"; tried by hand, both from PyPI). The lock's setuptools, with which
    these tests build, must be one the build system allows."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())
    setuptools = next(Requirement(r) for r in declared["build-system"]["requires"] if r.startswith("setuptools"))
    assert isinstance(declared["project"]["license"], str)
    assert not setuptools.specifier.contains("68.2.2") and not setuptools.specifier.contains("77.0.2")
    assert setuptools.specifier.contains(_locked()["setuptools"])


def test_the_installed_command_starts_and_says_its_version(installed: Installed) -> None:
    shown = installed.run("--version")
    assert (shown.returncode, shown.stdout, shown.stderr) == (0, f"sevens {_metadata(installed.wheel)['Version']}\n", "")
    assert shown.stdout == f"sevens {VERSION}\n"
    module = subprocess.run([str(installed.venv / "bin" / "python"), "-m", "sevens", "--version"],
                            cwd=installed.elsewhere, env=_environment(installed.elsewhere), capture_output=True,
                            text=True, timeout=60, check=False)
    assert module.stdout == f"sevens {VERSION}\n", module.stderr
    for command in ("odds", "play", "verify", "table", "serve", "lab", "export", "import"):
        helped = installed.run(command, "--help")
        assert helped.returncode == 0 and f"Usage: sevens {command}" in helped.stdout, (command, helped.stderr)


def test_the_installed_command_plays_computes_odds_and_verifies(installed: Installed) -> None:
    odds = installed.run("odds", "--force", "0", "--flair", "3")
    assert odds.returncode == 0 and "61/15" in odds.stdout, odds.stderr
    played = installed.run("play", "--auto", "--players", "4", "--seed", "3", "--record", "game.json")
    assert played.returncode == 0, played.stderr
    assert (installed.elsewhere / "game.json").is_file()
    verified = installed.run("verify", "game.json")
    assert verified.returncode == 0 and verified.stdout.startswith("game.json: ok: "), verified.stdout + verified.stderr


def _get(port: int, path: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


@dataclass
class Served:
    port: int
    output: str = ""


@contextlib.contextmanager
def _serving(installed: Installed, folder: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[Served]:
    """``sevens serve`` of ``installed`` started in ``folder`` on a free port, stopped (SIGTERM) afterwards;
    it must then have stopped cleanly, and its output is kept."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    folder.mkdir(exist_ok=True)
    server = subprocess.Popen([installed.sevens, "serve", "--port", str(port), *args], cwd=folder,
                              env=_environment(folder) | (env or {}), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    served = Served(port)
    try:
        wait_until_up(port, timeout=60, pid=server.pid)
        yield served
    finally:
        server.send_signal(signal.SIGTERM)
        served.output = server.communicate(timeout=60)[0]
    assert server.returncode == 0, served.output
    assert "Traceback" not in served.output, served.output


def test_the_installed_server_migrates_its_database_and_serves_pages_and_static_files(installed: Installed) -> None:
    folder = installed.elsewhere / "server"
    with _serving(installed, folder) as served:
        port = served.port
        status, kind, page = _get(port, "/")
        assert (status, kind) == (200, "text/html; charset=utf-8") and b"<html" in page
        for path, expected in (("/static/style.css", "text/css"), ("/static/app.js", "text/javascript"),
                               ("/favicon.ico", "image/svg+xml")):
            status, kind, body = _get(port, path)
            assert status == 200 and kind.startswith(expected) and body, (path, status, kind)
        assert _get(port, "/api/v1/openapi.json")[0] == 200
    assert (folder / "sevens.sqlite3").is_file(), served.output  # the default, in the folder it was started in
    assert f"(database: {folder / 'sevens.sqlite3'})\n" in served.output, served.output
    exported = installed.run("export", "--database-url", f"sqlite:///{folder / 'sevens.sqlite3'}", "games.json")
    assert exported.returncode == 0, exported.stderr  # export reads only a database at this version's schema


# sevens without its extras, as `pip install sevens` leaves it: psycopg (PostgreSQL), Dask and
# matplotlib (the lab's --dask and --plot) are extras of the package now, and each part that needs
# one says which to install. The dependencies come from the project's .venv as above, but only those
# the wheel's metadata asks for (tests/dependency_site.py): pip then installs the wheel with
# --no-index and without --no-deps, so it checks that they are all its requirements need.

PG_URL = "postgresql://sevens@127.0.0.1:9/sevens"  # port 9 (discard): nothing of PostgreSQL answers there


def _install_with(installed: Installed, base: Path, extras: list[str]) -> Installed:
    own = _metadata(installed.wheel).get_all("Requires-Dist") or []
    site = base / "dependencies"
    link_site(site, needed(own, extras))
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    purelib = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    (Path(purelib) / "project_dependencies.pth").write_text(f"{site}\n")
    asked = f"sevens[{','.join(extras)}] @ {installed.wheel.as_uri()}" if extras else str(installed.wheel)
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                           "--disable-pip-version-check", "install", "--no-index", asked],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    return Installed(wheel=installed.wheel, sdist=installed.sdist, venv=venv, elsewhere=elsewhere)


@pytest.fixture(scope="module")
def bare(installed: Installed, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel installed with no extra."""
    return _install_with(installed, tmp_path_factory.mktemp("bare"), [])


@pytest.fixture(scope="module")
def with_extras(installed: Installed, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel installed as sevens[all]."""
    return _install_with(installed, tmp_path_factory.mktemp("all"), ["all"])


def test_a_plain_install_brings_none_of_the_optional_packages(bare: Installed) -> None:
    """psycopg, Dask, distributed and matplotlib (with their own dependencies: pillow, fonttools,
    tornado...) came with every install, though only PostgreSQL, --dask and --plot use them."""
    found = bare.python("import importlib.util as u; print(*[m for m in ('psycopg', 'dask', 'distributed', "
                        "'matplotlib') if u.find_spec(m)])")
    assert (found.returncode, found.stdout) == (0, "\n"), found.stderr
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert {"postgres", "dask", "plot"} <= set(extras) and extras["all"] == ["sevens[postgres,dask,plot]"]


def test_a_plain_install_plays_computes_odds_serves_and_backs_up_on_sqlite(bare: Installed) -> None:
    odds = bare.run("odds", "--force", "0", "--flair", "3")
    assert odds.returncode == 0 and "61/15" in odds.stdout, odds.stderr
    played = bare.run("play", "--auto", "--players", "4", "--seed", "3", "--record", "game.json")
    assert played.returncode == 0, played.stderr
    verified = bare.run("verify", "game.json")
    assert verified.returncode == 0, verified.stderr
    folder = bare.elsewhere / "server"
    with _serving(bare, folder) as served:
        assert _get(served.port, "/")[0] == 200
    exported = bare.run("export", "--database-url", f"sqlite:///{folder / 'sevens.sqlite3'}", "games.json")
    assert exported.returncode == 0, exported.stderr


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (["serve"], {"DATABASE_URL": PG_URL}, "--database-url (or $DATABASE_URL) names a PostgreSQL database, and its "
         "driver psycopg is not installed: install sevens[postgres]: pip install 'sevens[postgres]'"),
        (["export", "--database-url", PG_URL, "out.json"], {}, "--database-url (or $DATABASE_URL) names a PostgreSQL "
         "database, and its driver psycopg is not installed: install sevens[postgres]: pip install 'sevens[postgres]'"),
        (["lab", "--strategies", "even,equilibrium", "--tournaments", "20", "--dask", "tcp://127.0.0.1:9"], {},
         "--dask needs dask, which is not installed: install sevens[dask]: pip install 'sevens[dask]'"),
        (["lab", "--strategies", "even,equilibrium", "--tournaments", "20", "--plot", "ranking.png"], {},
         "--plot needs matplotlib, which is not installed: install sevens[plot]: pip install 'sevens[plot]'"),
    ],
    ids=["serve-postgres", "export-postgres", "lab-dask", "lab-plot"],
)
def test_without_its_extra_each_optional_part_says_what_to_install(
    bare: Installed, args: list[str], env: dict[str, str], said: str
) -> None:
    """The lab played its whole run and then ended in a traceback (No module named 'matplotlib'),
    or one at once for --dask; PostgreSQL named the driver but not how to get it."""
    refused = bare.run(*args, env=env)
    assert (refused.returncode, refused.stdout, refused.stderr) == (2, "", f"error: {said}\n")
    assert not (bare.elsewhere / "ranking.png").exists() and not (bare.elsewhere / "out.json").exists()


def test_without_its_extra_the_library_names_it_too(bare: Installed) -> None:
    """From Python, run_lab(dask=...) and the plots raise sevens.extras.MissingExtra (a
    ModuleNotFoundError) with the same advice, before any work."""
    code = """
from sevens.extras import MissingExtra
from sevens.lab.plot import plot_solver_map
from sevens.lab.run import run_lab
for call in (lambda: run_lab(["even"], 10, seed=1, dask="tcp://127.0.0.1:9"),
             lambda: plot_solver_map("map.png", range(3, 7, 3))):
    try:
        call()
    except MissingExtra as exc:
        print(exc)
"""
    shown = bare.python(code)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines() == [
        "run_lab(dask=...) needs dask, which is not installed: install sevens[dask]: pip install 'sevens[dask]'",
        "sevens.lab.plot.plot_solver_map needs matplotlib, which is not installed: install sevens[plot]: "
        "pip install 'sevens[plot]'",
    ]


@pytest.mark.parametrize("extra", ["postgres", "dask", "plot"])
def test_each_extra_asks_pip_for_its_packages(bare: Installed, extra: str) -> None:
    """Asked for sevens[EXTRA] with nothing more to install from, pip wants that extra's packages."""
    asked = subprocess.run([sys.executable, "-m", "pip", "--python", str(bare.venv / "bin" / "python"),
                            "--disable-pip-version-check", "install", "--no-index", "--dry-run",
                            f"sevens[{extra}] @ {bare.wheel.as_uri()}"], capture_output=True, text=True, timeout=300,
                           check=False)
    wanted = {"postgres": "psycopg", "dask": "dask", "plot": "matplotlib"}[extra]
    assert asked.returncode != 0 and f"No matching distribution found for {wanted}" in asked.stderr, asked.stderr


def test_with_the_extras_the_lab_runs_on_dask_and_plots(with_extras: Installed) -> None:
    """A real Dask cluster, started with the installed venv's Python (its worker importing the same
    installed sevens), plays the run, and matplotlib draws it."""
    cluster = subprocess.Popen(
        [str(with_extras.venv / "bin" / "python"), "-c",
         "import sys; from distributed import LocalCluster\n"
         "with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host='127.0.0.1',\n"
         "                  dashboard_address=':0', silence_logs=50) as c:\n"
         "    print(c.scheduler_address, flush=True); sys.stdin.read()"],
        cwd=with_extras.elsewhere, env=_environment(with_extras.elsewhere), stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert cluster.stdout is not None
        address = cluster.stdout.readline().strip()
        assert address.startswith("tcp://127.0.0.1:"), address
        ran = with_extras.run("lab", "--strategies", "even,equilibrium", "--tournaments", "40", "--teams", "8",
                              "--seed", "1", "--dask", address, "--plot", "ranking.png", timeout=600)
    finally:
        cluster.communicate("", timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert "equilibrium" in ran.stdout and "plot written to ranking.png" in ran.stdout, ran.stdout
    assert (with_extras.elsewhere / "ranking.png").read_bytes().startswith(b"\x89PNG")


def test_with_the_extras_sevens_reaches_for_postgresql(with_extras: Installed) -> None:
    """The driver loads: what is said is about the server, which is not there."""
    refused = with_extras.run("export", "--database-url", PG_URL, "out.json")
    assert refused.returncode != 0 and "check that the PostgreSQL server is running" in refused.stderr, refused.stderr
    assert "sevens[postgres]" not in refused.stderr and "Traceback" not in refused.stderr


@pytest.mark.skipif(POSTGRES_ENV not in os.environ, reason=f"no PostgreSQL server ({POSTGRES_ENV}; scripts/pg)")
def test_with_the_extras_sevens_serves_from_postgresql(with_extras: Installed) -> None:
    with throwaway_database("postgresql", with_extras.elsewhere) as url:
        with _serving(with_extras, with_extras.elsewhere / "pg", env={"DATABASE_URL": url}) as served:
            assert _get(served.port, "/")[0] == 200
        exported = with_extras.run("export", "--database-url", url, "pg.json")
        assert exported.returncode == 0, exported.stderr
