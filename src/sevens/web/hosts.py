"""Which host names a request may be addressed to (the ``Host`` header), against DNS rebinding.

A hostile page can point its own name at 127.0.0.1 and so have a visitor's browser talk to a
server on the visitor's machine as if it were that page's site. The browser still sends the
hostile name in ``Host``: a connection that arrived on a loopback address is therefore refused
unless its ``Host`` is a loopback name (``localhost``, ``127.0.0.1``, ``[::1]``, any port), the
host of ``SEVENS_BASE_URL``, or one of ``SEVENS_ALLOWED_HOSTS`` (``*``: any). A connection that
arrived on another address (``sevens serve --host 0.0.0.0``, reached over a network) is checked
only against a list that is set, since the server cannot know the names it is reached by.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from sevens.tournament.quoting import quoted
from sevens.web.security import answer_plainly

__all__ = ["HostCheck", "host_name", "parse_allowed_hosts"]

SETTING = "SEVENS_ALLOWED_HOSTS (sevens serve --allowed-hosts)"

NAME_LENGTH = 253
"""The longest host name DNS allows: a refusal quotes a real name whole, and anything longer cut short."""


def parse_allowed_hosts(text: str) -> tuple[str, ...]:
    """The host names the setting lists, lower case, without ports; ``*`` stands for any.

    >>> parse_allowed_hosts(" Games.Example.org, 192.168.1.20:8000 ,[fd00::1]")
    ('games.example.org', '192.168.1.20', 'fd00::1')
    >>> parse_allowed_hosts("*")
    ('*',)
    >>> parse_allowed_hosts("https://games.example.org/")
    Traceback (most recent call last):
    ValueError: SEVENS_ALLOWED_HOSTS (sevens serve --allowed-hosts): 'https://games.example.org/' is not a host name; give names only, comma-separated (games.example.org,192.168.1.20), or * for any
    >>> parse_allowed_hosts("games.example.org\\x1b[31m")
    Traceback (most recent call last):
    ValueError: SEVENS_ALLOWED_HOSTS (sevens serve --allowed-hosts): 'games.example.org\\x1b[31m' is not a host name; give names only, comma-separated (games.example.org,192.168.1.20), or * for any

    Raises:
        ValueError: for an item that is a URL or holds a space or a control character, saying which and how to write it.
    """
    hosts: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name = host_name(item)
        # A control character or a space cannot be in a Host header: such an item is a typing slip.
        if item != "*" and (not name or "/" in item or "@" in item or not item.isprintable() or " " in item):
            raise ValueError(
                f"{SETTING}: {item!r} is not a host name; give names only, comma-separated "
                "(games.example.org,192.168.1.20), or * for any"
            )
        hosts.append(item if item == "*" else name)
    return tuple(hosts)


def host_name(host: str) -> str:
    """The name in a ``Host`` header: lower case, without the port, an IPv6 address without brackets.

    >>> host_name("LocalHost:8000"), host_name("[::1]:8000"), host_name("127.0.0.1"), host_name("example.org.")
    ('localhost', '::1', '127.0.0.1', 'example.org')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _loopback(name: str) -> bool:
    """Whether ``name`` (a host name, or a connection's own address) is this machine's loopback.

    >>> [_loopback(n) for n in ("localhost", "127.0.0.1", "127.3.0.1", "::1", "::ffff:127.0.0.1", "10.0.0.1", "evil.example")]
    [True, True, True, True, True, False, False]
    """
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


class HostCheck:
    """ASGI middleware refusing, with 400, a request whose ``Host`` names a site this server is
    not (see the module's description)."""

    def __init__(self, app: ASGIApp, *, allowed: tuple[str, ...], base_url: str) -> None:
        self.app = app
        self.any = "*" in allowed
        self.listed = frozenset(allowed)
        base = urlsplit(base_url).hostname if base_url else None
        self.known = self.listed | ({host_name(base)} if base else set())

    def _accepts(self, scope: Scope, host: str) -> bool:
        name = host_name(host)
        if self.any or name in self.known:
            return True
        server = scope.get("server")
        on_loopback = server is not None and _loopback(host_name(str(server[0])))
        if on_loopback or self.listed:
            return _loopback(name)
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        hosts = [value.decode("latin-1") for name, value in scope.get("headers", []) if name == b"host"]
        # No Host at all (HTTP/1.0) cannot come from a browser led there by a name.
        if not hosts or self._accepts(scope, hosts[0]):
            await self.app(scope, receive, send)
            return
        message = (
            f"this server does not answer to the host name {quoted(host_name(hosts[0]), NAME_LENGTH)}; if it should, add it "
            f"to {SETTING} or set SEVENS_BASE_URL to the site's address"
        )
        await answer_plainly(scope, send, 400, message)
