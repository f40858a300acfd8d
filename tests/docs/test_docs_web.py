"""docs/web.md against the server it describes: the settings table names every setting the server
reads, each with its real default, and no other; no page names a SEVENS_ variable nothing reads;
every API call it (or any other page) names is one the server has, and so is every address of
the server a page names; the refusals a table row promises are in that
operation's list, and the page's list of refusals is the document's."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from sevens.web import api, pages
from sevens.web.app import create_app
from sevens.web.settings import Settings
from sevens.web.testing import ServerFarm

ROOT = Path(__file__).resolve().parents[2]
WEB = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CALL = re.compile(r"\b(GET|POST|PUT|DELETE) (/api/v1/[^\s`?]*)")


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    app = create_app(Settings(database_url="sqlite://", scheduler=False))
    return dict(app.openapi())


def _settings_table() -> dict[str, str]:
    """The settings table's names (``..._X`` written out after the name before it) and defaults."""
    start = WEB.index("| setting | default | meaning |")
    rows: dict[str, str] = {}
    for line in WEB[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        names = re.findall(r"`([A-Z_.]+)`", cells[0])
        defaults = [d.strip() for d in cells[1].split(" / ")]
        for i, name in enumerate(names):
            if name.startswith("..."):
                name = names[0].rsplit("_", 1)[0] + name[3:]
            rows[name] = defaults[i if len(defaults) == len(names) else 0]
    return rows


def _env_name(field: str) -> str:
    return "DATABASE_URL" if field == "database_url" else f"SEVENS_{field.upper()}"


def test_the_settings_table_names_every_setting_and_no_other() -> None:
    table = _settings_table()
    assert set(table) == {_env_name(field) for field in Settings.model_fields}


def test_the_settings_tables_defaults_are_the_servers() -> None:
    table = _settings_table()
    for field, info in Settings.model_fields.items():
        default, shown = info.default, table[_env_name(field)].strip("`")
        if isinstance(default, bool):
            assert shown == str(default).lower(), field
        elif isinstance(default, (int, float)):
            assert float(shown) == default, field
        elif default:  # an empty default is described in words ("none", "the request's")
            assert shown == default, field


def test_every_sevens_variable_a_page_names_is_read() -> None:
    """A variable named on a page is a setting, one the tests or scripts read (the test database), or
    one the code reads outside the settings (the operator's memory trace, read before the app is made)."""
    read = {_env_name(field) for field in Settings.model_fields}
    code = " ".join(path.read_text(encoding="utf-8") for folder in ("tests", "scripts", "src/sevens")
                    for path in (ROOT / folder).rglob("*") if path.is_file() and path.suffix in ("", ".py"))
    for page in PAGES:
        for name in re.findall(r"SEVENS_[A-Z][A-Z_]*[A-Z]", page.read_text(encoding="utf-8")):
            assert name in read or re.search(rf"\b{name}\b", code), f"{page.name} names {name}, which nothing reads"


def _operation(document: dict[str, Any], method: str, path: str) -> dict[str, Any] | None:
    path = path.rstrip(".,;:)").replace("{id}", "{public_id}")
    operation = document["paths"].get(path, {}).get(method.lower())
    return dict(operation) if operation is not None else None


def test_every_call_the_page_names_is_the_servers(document: dict[str, Any]) -> None:
    calls = CALL.findall(WEB)
    assert len(calls) > 15
    for method, path in calls:
        assert _operation(document, method, path) is not None, f"docs/web.md names {method} {path}, which the API has not"


def test_every_call_another_page_names_is_the_servers(document: dict[str, Any]) -> None:
    """docs/record.md, reliability.md and strategy.md name API calls of their own."""
    calls = [(page.name, method, path) for page in PAGES if page.name != "web.md"
             for method, path in CALL.findall(page.read_text(encoding="utf-8"))]
    assert len(calls) > 5
    wrong = [call for call in calls if _operation(document, call[1], call[2]) is None]
    assert not wrong, f"pages name calls the API has not: {wrong}"


def test_every_address_a_page_names_is_the_servers() -> None:
    """`/games/{id}/who-ordered`, `/join/<secret>`, `/static/app.js`: an address of the server that a
    page names in backquotes is a route of its pages or API, or a file it serves; a suffix
    (`/organiser-link`) or a prefix (`/api/v1`) alone is not checked."""
    app = create_app(Settings(database_url="sqlite://", scheduler=False))
    paths = [route.path for route in [*api.router.routes, *pages.router.routes]] + [app.openapi_url or ""]
    routes = [re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "/?$") for path in paths]
    served = {path.split("/")[1] for path in paths}
    checked, wrong = 0, []
    for page in PAGES:
        for named in re.findall(r"`(?:(?:GET|POST|PUT|DELETE) )?(/[^`\s]*)`", page.read_text(encoding="utf-8")):
            path = re.split(r"[?#]", named)[0].rstrip(".,;:")
            if "..." in path or path.split("/")[1] not in served | {"static"} or path.rstrip("/") in ("/api", "/api/v1"):
                continue
            checked += 1
            if path.startswith("/static/"):
                found = (ROOT / "src" / "sevens" / "web" / path.lstrip("/")).is_file()
            else:
                found = any(route.match(re.sub(r"\{[^}]+\}|<[^>]+>", "x", path)) for route in routes)
            if not found:
                wrong.append(f"{page.name}: {named}")
    assert checked > 30
    assert not wrong, f"pages name addresses the server has not: {wrong}"


def test_the_refusals_a_row_of_the_api_table_names_are_its_operations(document: dict[str, Any]) -> None:
    rows = [line for line in WEB.splitlines() if line.startswith("| `") and "/api/v1/" in line]
    assert len(rows) > 10
    for row in rows:
        first, rest = row.split("|")[1], "|".join(row.split("|")[2:])
        for method, path in CALL.findall(first):
            operation = _operation(document, method, path)
            assert operation is not None, row
            for code in re.findall(r"\b(4\d\d)\b", rest):
                assert code in operation["responses"], f"{method} {path}: the page says {code}, the document does not"


def test_the_pages_list_of_refusals_is_the_documents(document: dict[str, Any]) -> None:
    said = re.search(r"lists the\s+refusals it gives \(([\d, ]+)\)", WEB)
    assert said, "docs/web.md no longer lists the refusals the operations give"
    listed = {int(code) for item in document["paths"].values() for operation in item.values()
              for code in operation["responses"] if int(code) >= 400}
    assert {int(code) for code in said.group(1).split(", ")} == listed


def test_the_headers_the_security_section_names_are_on_every_answer(tmp_path: Path) -> None:
    """`X-Frame-Options: DENY` and the like, as the page writes them, on a page and an API answer."""
    from fastapi.testclient import TestClient

    bullet = re.search(r"^- Every response has a Content-Security-Policy.*?(?=^- )", WEB, re.S | re.M)
    assert bullet, "docs/web.md no longer lists the headers every response has"
    text = " ".join(bullet.group(0).split())
    pairs = re.findall(r"`([A-Z][\w-]+): ([^`]+)`", text)
    names = {name for name in re.findall(r"`([A-Z][\w-]+)`", text)} | {"Content-Security-Policy"}
    assert len(pairs) >= 4 and len(names) >= 2, (pairs, names)
    web = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'web.sqlite3'}", scheduler=False))
    # Strict-Transport-Security goes only with answers to HTTPS requests, as the page says.
    assert "Strict-Transport-Security" not in TestClient(web).get("/").headers
    client = TestClient(web, base_url="https://testserver")
    for answer in (client.get("/"), client.get("/api/v1/strategies"), client.get("/api/v1/no-such")):
        for name, value in pairs:
            assert answer.headers.get(name) == value, (answer.url, name, answer.headers.get(name))
        for name in names:
            assert name in answer.headers, (answer.url, name)
    assert "script-src 'self'" in client.get("/").headers["Content-Security-Policy"]


def test_every_nginx_example_keeps_the_pages_uncompressed() -> None:
    """Pages hold secrets beside words other players chose, so a proxy must not gzip them (BREACH,
    'On a slow connection'), and Debian's nginx gzips HTML unless told not to: the host's own
    example turned it off, but the one under a path (location /sevens/) did not, so a site set up
    from it had every page compressed. Each example that passes requests on to sevens says gzip off."""
    examples = re.findall(r"```nginx\n(.*?)```", WEB, flags=re.DOTALL)
    passing = [example for example in examples if "proxy_pass http://127.0.0.1:8000" in example]
    assert len(passing) >= 2, "the host's example and the one under a path"
    for example in passing:
        assert re.search(r"^\s*gzip off;", example, flags=re.MULTILINE), example


# Debian puts it in /usr/sbin, which a user's PATH may not hold.
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")


def _nginx_blocks() -> list[str]:
    return re.findall(r"```nginx\n(.*?)```", WEB, flags=re.DOTALL)


@pytest.mark.skipif(NGINX is None, reason="needs nginx (scripts/setup-system installs it)")
@pytest.mark.parametrize("block", range(2), ids=["under-a-path", "own-host"])
def test_the_nginx_examples_keep_a_port_in_the_links_shown(tmp_path: Path, block: int) -> None:
    """Behind the page's own nginx blocks on a port other than 443 (:8443), the invite and organiser
    links shown keep the port: `Host $host` passed the name alone, and the links lost it."""
    text = _nginx_blocks()[block]
    root = "/sevens" if text.lstrip().startswith("location /sevens/") else ""
    database = tmp_path / "site.sqlite3"
    env = {
        "DATABASE_URL": f"sqlite:///{database}", "SEVENS_SCHEDULER": "false", "SEVENS_ROOT_PATH": root,
        "SEVENS_ALLOWED_HOSTS": "games.example.org", "SEVENS_TRUSTED_PROXIES": "127.0.0.1",
    }
    with ServerFarm(directory=tmp_path) as farm:
        server = farm.start(env)
        text = text.replace("http://127.0.0.1:8000", f"http://127.0.0.1:{server.port}")
        port = _free_port()
        if root:  # the block goes in the host's server block
            text = f"server {{\n listen 127.0.0.1:{port};\n server_name games.example.org;\n{text}}}\n"
        else:  # plain HTTP on a free port: the test has no certificate
            text = re.sub(r"listen 443 ssl;", f"listen 127.0.0.1:{port};", text)
        temp = "".join(f"{kind}_temp_path {tmp_path / kind};\n" for kind in
                       ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (tmp_path / "nginx.conf").write_text(
            f"daemon off;\npid {tmp_path / 'nginx.pid'};\nerror_log {tmp_path / 'error.log'};\n"
            f"events {{}}\nhttp {{\n{temp}access_log off;\n{text}}}\n"
        )
        nginx = subprocess.Popen([str(NGINX), "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
                                 stderr=subprocess.PIPE)
        try:
            site = f"http://games.example.org:{port}{root}"
            with httpx.Client(base_url=f"http://127.0.0.1:{port}{root}", headers={"Host": f"games.example.org:{port}"},
                              timeout=30) as client:
                for _ in range(200):  # until nginx listens
                    try:
                        home = client.get("/")
                        break
                    except httpx.ConnectError:
                        time.sleep(0.05)
                assert home.status_code == 200, home.text
                found = re.search(r'name="csrf" value="([^"]+)"', home.text)
                assert found is not None
                created = client.post("/games", data={"csrf": found.group(1), "name": "Cup", "arrangement": "4-8-2"})
            assert created.status_code == 201, created.text
            links = re.findall(r"https?://[^\s\"<]*/(?:join|organiser)/[A-Za-z0-9_-]+", created.text)
            assert links and all(link.startswith(site + "/") for link in links), (site, links)
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# What every operation can refuse alike, said once above the table rather than in each row.
EVERYWHERE = {400, 412, 413, 415, 500, 503}


def test_the_table_of_refusals_gives_each_operation_its_own_with_a_reason(document: dict[str, Any]) -> None:
    """The table of refusals by operation has a row for every operation of the document, and no
    other, naming exactly the refusals its entry lists (besides those every operation gives), each
    with its reason in words; a row "as the GET above" has that row's refusals."""
    start = WEB.index("| operation | its refusals and why |")
    rows: dict[tuple[str, str], set[int]] = {}
    before: set[int] = set()
    for line in WEB[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        first, said = line.split("|")[1], line.split("|")[2]
        ((method, path),) = CALL.findall(first)
        operation = _operation(document, method, path)
        assert operation is not None, line
        codes = {int(code) for code in re.findall(r"\b([45]\d\d)\b", said)}
        if said.strip().startswith("as the `GET` above"):
            codes = before
        for code, reason in re.findall(r"\b([45]\d\d) ([^;]*)", said):
            assert len(reason.split()) >= 2, (method, path, code, reason)
        key = (method.lower(), path.replace("{id}", "{public_id}"))
        assert key not in rows, f"two rows for {method} {path}"
        rows[key] = before = codes
    listed = {
        (method, path): {int(code) for code in operation["responses"] if int(code) >= 400} - EVERYWHERE
        for path, item in document["paths"].items()
        for method, operation in item.items()
    }
    assert set(rows) == set(listed), set(rows) ^ set(listed)
    wrong = {operation: (rows[operation], codes) for operation, codes in listed.items() if rows[operation] != codes}
    assert not wrong, f"the page's refusals, then the document's: {wrong}"
