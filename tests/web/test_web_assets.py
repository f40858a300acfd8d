"""The static files on a metered phone: fetched once under a versioned address and kept, gzipped on
the way, asked again with If-None-Match (a 304) under any other address."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from fastapi import FastAPI

from sevens.web.assets import FOREVER, REVALIDATE, css_without_comments, js_without_comment_lines
from sevens.web.security import CSP
from web.web_helpers import new_client

STATIC = Path(__file__).resolve().parents[2] / "src" / "sevens" / "web" / "static"


def _served(name: str) -> bytes:
    """The bytes the server sends for the static file ``name``: the style sheet without its comments,
    the script without its comment lines."""
    plain = (STATIC / name).read_bytes()
    if name.endswith(".css"):
        return css_without_comments(plain.decode()).encode()
    return js_without_comment_lines(plain.decode()).encode() if name.endswith(".js") else plain


def _linked(page: str) -> dict[str, str]:
    """The static files a page names, by file name: their addresses as written."""
    return {m[1]: m[0] for m in re.finditer(r'/static/([a-z]+\.[a-z]+)\?v=[0-9a-f]{16}', page)}


def test_a_page_names_each_static_file_by_a_versioned_address_kept_for_a_year(app: FastAPI) -> None:
    """Every page carried /static/app.js and /static/style.css (54 kB) with Cache-Control: no-store,
    so a phone fetched both again with every page and every reload a resolved turn brings. A page now
    names them with the hash of their bytes, and that address is cached as immutable for a year."""
    client = new_client(app)
    linked = _linked(client.get("/").text)
    assert set(linked) == {"app.js", "style.css", "favicon.svg"}
    for name, url in linked.items():
        answer = client.get(url, headers={"Accept-Encoding": "identity"})
        assert answer.status_code == 200, url
        assert answer.content == _served(name)
        assert answer.headers["cache-control"] == FOREVER
        assert answer.headers["etag"] and answer.headers["vary"] == "Accept-Encoding"
        assert "content-encoding" not in answer.headers
        # The security headers stay: only the caching is the file's own.
        assert answer.headers["content-security-policy"] == CSP
        assert answer.headers["x-content-type-options"] == "nosniff"
    assert client.get(linked["app.js"]).headers["content-type"] == "text/javascript; charset=utf-8"
    assert client.get(linked["style.css"]).headers["content-type"] == "text/css; charset=utf-8"
    assert client.get(linked["favicon.svg"]).headers["content-type"] == "image/svg+xml"


def test_the_script_and_style_sheet_travel_gzipped_to_a_browser_that_takes_it(app: FastAPI) -> None:
    """They went as they are (36 + 18 kB); gzipped they are under a third of that. They hold no
    secret and nothing a request changes, so their compressed size tells an eavesdropper nothing."""
    client = new_client(app)
    linked = _linked(client.get("/").text)
    for name in ("app.js", "style.css"):
        answer = client.get(linked[name], headers={"Accept-Encoding": "gzip, deflate, br"})
        assert answer.headers["content-encoding"] == "gzip", name
        assert answer.content == _served(name)  # decoded by the client
        assert int(answer.headers["content-length"]) < (STATIC / name).stat().st_size / 3
        plain = client.get(linked[name], headers={"Accept-Encoding": "identity"})
        assert plain.headers["etag"] != answer.headers["etag"]  # two bodies, two strong tags
    refused = client.get(linked["app.js"], headers={"Accept-Encoding": "gzip;q=0, br"})
    assert "content-encoding" not in refused.headers


def test_an_unversioned_or_old_address_is_asked_again_and_answered_304_while_unchanged(app: FastAPI) -> None:
    """An address without the current hash (a bookmark, a page from before a new release) is not
    kept blindly: the browser asks again, and its If-None-Match gets 304 with no body."""
    client = new_client(app)
    for url in ("/static/app.js", "/static/app.js?v=0123456789abcdef"):
        first = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert first.status_code == 200 and first.headers["cache-control"] == REVALIDATE, url
        again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b"", url
        assert again.headers["etag"] == first.headers["etag"]
    moved = client.get("/favicon.ico", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == "/static/favicon.svg"


def test_a_static_address_with_no_file_or_another_method_is_refused_plainly(app: FastAPI) -> None:
    client = new_client(app)
    missing = client.get("/static/nothing.js")
    assert missing.status_code == 404 and "no such file" in missing.text
    assert client.get("/static/").status_code == 404
    assert client.get("/static/../app.py").status_code == 404
    posted = client.post("/static/app.js")
    assert posted.status_code == 405 and posted.headers["allow"] == "GET, HEAD"
    head = client.head(_linked(client.get("/").text)["style.css"])
    assert head.status_code == 200 and head.content == b"" and head.headers["cache-control"] == FOREVER


def test_a_websocket_asked_of_a_static_file_is_closed_as_elsewhere(app: FastAPI) -> None:
    """The static files' mount takes websockets too (a server with a websocket library, as
    uvicorn[standard] has, passes them on): one asked of /static/app.js failed in the app with
    KeyError 'method', a traceback in the log, where any other address closes it."""
    from starlette.websockets import WebSocketDisconnect

    client = new_client(app)
    for path in ("/games/nothing-here", "/static/app.js"):
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(path):
            pass


def test_the_style_sheet_goes_without_its_comments_and_keeps_every_rule(app: FastAPI) -> None:
    """The comments of style.css (for whoever edits it) were more than half of its gzipped bytes on a
    phone's first visit. They are left out; not one character of a rule is."""
    client = new_client(app)
    address = _linked(client.get("/").text)["style.css"]
    source = (STATIC / "style.css").read_text()
    served = client.get(address, headers={"Accept-Encoding": "identity"}).text
    assert "/*" not in served and "*/" not in served
    # The file's strings hold no "/*", so here a plain cut of each comment leaves the rules as served.
    assert re.sub(r"\s+", "", re.sub(r"/\*.*?\*/", "", source, flags=re.S)) == re.sub(r"\s+", "", served)
    zipped = client.get(address, headers={"Accept-Encoding": "gzip"})
    assert int(zipped.headers["content-length"]) < 0.6 * len(gzip.compress(source.encode(), 9))


def test_the_script_goes_without_its_comment_lines_and_keeps_every_line_of_code(app: FastAPI) -> None:
    """The script's lines of comment (for whoever edits it) were over 40% of its gzipped bytes on a
    phone's first visit (19.9 kB). They are left out; every other line goes as it is, in order."""
    client = new_client(app)
    address = _linked(client.get("/").text)["app.js"]
    source = (STATIC / "app.js").read_text()
    served = client.get(address, headers={"Accept-Encoding": "identity"}).text
    code = [line for line in source.splitlines() if line.strip() and not line.lstrip().startswith("//")]
    assert served.splitlines() == code
    assert served.startswith('"use strict";\n')  # the directive first, as it must be to count
    assert not [line for line in code if "`" in line]  # no template literal, whose lines could start with // as text
    zipped = client.get(address, headers={"Accept-Encoding": "gzip"})
    assert int(zipped.headers["content-length"]) < 0.7 * len(gzip.compress(source.encode(), 9))


def test_a_comment_mark_inside_a_quoted_string_of_a_style_sheet_is_kept() -> None:
    sheet = "a::after { content: '/* not a comment */' } /* a comment */\nb::before { content: \"*/\" }\n"
    assert css_without_comments(sheet) == "a::after { content: '/* not a comment */' }\nb::before { content: \"*/\" }\n"
    assert css_without_comments("/* one\n two */\n\n.x {}  /* end */\n") == ".x {}\n"
