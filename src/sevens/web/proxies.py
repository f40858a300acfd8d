"""Serving behind a reverse proxy: whose address a request is, and whether it came over HTTPS.

Only a proxy named in ``SEVENS_TRUSTED_PROXIES`` is believed. When the connection comes from
one, the client is the rightmost address of ``X-Forwarded-For`` that is not itself a trusted
proxy (each proxy appends the address it saw, so everything left of that may be made up by the
client), and the scheme is the last value of ``X-Forwarded-Proto``. From any other peer both
headers are ignored: the client is the connection's address, as without a proxy, so a client
cannot change the address its attempts are counted against by sending the headers itself.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["Network", "TrustedProxies", "forwarded_client", "parse_trusted"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

SETTING = "SEVENS_TRUSTED_PROXIES (sevens serve --trusted-proxies)"


def parse_trusted(text: str) -> tuple[Network, ...]:
    """The proxies named by the setting: addresses and networks, separated by commas.

    >>> [str(n) for n in parse_trusted(" 127.0.0.1, 10.0.0.0/8,::1 ")]
    ['127.0.0.1/32', '10.0.0.0/8', '::1/128']
    >>> parse_trusted("")
    ()
    >>> parse_trusted("10.0.0.1/8")
    Traceback (most recent call last):
    ValueError: SEVENS_TRUSTED_PROXIES (sevens serve --trusted-proxies): '10.0.0.1/8' has bits set after its prefix length; write the network as 10.0.0.0/8, or the one address as 10.0.0.1
    >>> parse_trusted("proxy.local")
    Traceback (most recent call last):
    ValueError: SEVENS_TRUSTED_PROXIES (sevens serve --trusted-proxies): 'proxy.local' is not an IP address or network; give the proxies' addresses (127.0.0.1, ::1) or networks (10.0.0.0/8), separated by commas; names are not looked up

    Raises:
        ValueError: for an item that is not an address or a network, saying which and how to write it.
    """
    networks: list[Network] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if item == "*":
            raise ValueError(
                f"{SETTING}: '*' would let any client set its own address; name the proxies' addresses "
                "or networks (to trust every address, write 0.0.0.0/0,::/0)"
            )
        try:
            networks.append(ipaddress.ip_network(item, strict=True))
        except ValueError:
            try:
                loose = ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(
                    f"{SETTING}: {item!r} is not an IP address or network; give the proxies' addresses "
                    "(127.0.0.1, ::1) or networks (10.0.0.0/8), separated by commas; names are not looked up"
                ) from None
            raise ValueError(
                f"{SETTING}: {item!r} has bits set after its prefix length; write the network as "
                f"{loose}, or the one address as {item.split('/')[0]}"
            ) from None
    return tuple(networks)


def _address(text: str) -> Address | None:
    """An address as a proxy writes it into ``X-Forwarded-For``: plain, or IPv6 in brackets, with
    or without a port; an IPv4 address mapped into IPv6 is the IPv4 one.

    >>> [str(_address(t)) for t in ("203.0.113.7", "[2001:db8::1]:443", "203.0.113.7:8080", "::ffff:10.0.0.1")]
    ['203.0.113.7', '2001:db8::1', '203.0.113.7', '10.0.0.1']
    >>> _address("unknown"), _address("")
    (None, None)
    """
    text = text.strip()
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        found = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


def _trusted(address: Address, networks: Sequence[Network]) -> bool:
    return any(address.version == network.version and address in network for network in networks)


def forwarded_client(peer: str, forwarded_for: str, networks: Sequence[Network]) -> str | None:
    """The client's address if the connection's peer is a trusted proxy and ``X-Forwarded-For``
    names one: its rightmost address that is not a trusted proxy (the leftmost when all are);
    None to keep the peer's own address.

    >>> proxies = parse_trusted("127.0.0.1, 10.0.0.0/8")
    >>> forwarded_client("127.0.0.1", "198.51.100.9, 203.0.113.7, 10.1.2.3", proxies)
    '203.0.113.7'
    >>> forwarded_client("198.51.100.1", "203.0.113.7", proxies) is None  # an untrusted peer
    True
    >>> forwarded_client("127.0.0.1", "10.0.0.2, 10.0.0.3", proxies)
    '10.0.0.2'
    >>> forwarded_client("127.0.0.1", "203.0.113.7, garbage", proxies) is None
    True
    """
    own = _address(peer)
    if own is None or not _trusted(own, networks):
        return None
    hops = [hop for hop in forwarded_for.split(",") if hop.strip()]
    client: Address | None = None
    for hop in reversed(hops):
        client = _address(hop)
        if client is None:
            # Not an address, so not written by a proxy: a misconfigured chain; believe none of it.
            return None
        if not _trusted(client, networks):
            break
    return None if client is None else str(client)


class TrustedProxies:
    """ASGI middleware giving a request from a trusted proxy the client address and scheme the
    proxy forwarded (:func:`forwarded_client`, ``X-Forwarded-Proto``), so that the limits count
    each client apart and cookies are marked Secure behind an HTTPS proxy."""

    def __init__(self, app: ASGIApp, *, trusted: Sequence[Network]) -> None:
        self.app = app
        self.trusted = tuple(trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        peer = scope.get("client")
        if scope["type"] != "http" or not peer:
            await self.app(scope, receive, send)
            return
        own = _address(str(peer[0]))
        if own is None or not _trusted(own, self.trusted):
            await self.app(scope, receive, send)
            return
        forwarded: list[str] = []
        protos: list[str] = []
        for name, value in scope.get("headers", []):
            if name == b"x-forwarded-for":
                forwarded.append(value.decode("latin-1"))
            elif name == b"x-forwarded-proto":
                protos += [p.strip().lower() for p in value.decode("latin-1").split(",") if p.strip()]
        changed = dict(scope)
        client = forwarded_client(str(peer[0]), ",".join(forwarded), self.trusted)
        if client is not None:
            changed["client"] = (client, 0)
        if protos and protos[-1] in ("http", "https"):
            changed["scheme"] = protos[-1]
        await self.app(changed, receive, send)
