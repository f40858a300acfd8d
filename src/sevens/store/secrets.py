"""Secrets: 128+ random bits, handed out once, stored only as SHA-256; and what is not random
enough for a plain hash (a client's address), stored only as an HMAC under a key of the server's."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

__all__ = ["TOKEN_BYTES", "hash_token", "is_public_id", "keyed_hash", "new_token", "new_public_id", "tokens_equal"]

TOKEN_BYTES = 24  # 192 random bits, above the 128 asked for


def new_token() -> str:
    """A fresh URL-safe secret of 192 random bits.

    >>> len(new_token()) >= 32 and new_token() != new_token()
    True
    """
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_public_id() -> str:
    """A short public id for a game's address (not a secret: private games check credentials).

    >>> len(new_public_id())
    12
    """
    return secrets.token_urlsafe(9)


_PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{12}")


def is_public_id(text: str) -> bool:
    """Whether ``text`` has the shape of :func:`new_public_id`'s ids: 12 characters of base64url
    (ASCII letters, digits, ``-`` and ``_``). Such an id is safe in an address and as a file name;
    a backup edited by hand could hold anything else, such as ``../x``.

    >>> is_public_id(new_public_id()), is_public_id("../../escape"), is_public_id("abc")
    (True, False, False)
    >>> is_public_id("abcdefghijk\\n"), is_public_id("abcdefghijké")
    (False, False)
    """
    return _PUBLIC_ID.fullmatch(text) is not None


def hash_token(token: str) -> str:
    """The stored form of a secret: its SHA-256 in hex.

    Secrets are random with 192 bits, so a plain hash (no salt, no stretching) cannot be
    reversed by guessing; it lets the server look a token up without keeping it.

    >>> hash_token("abc")
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def keyed_hash(key: bytes, text: str) -> str:
    """The stored form of something guessable, such as an IPv4 address (there are only 2**32 to
    try): its HMAC-SHA-256 under ``key``, in hex. Without the key the value cannot be tested
    against a guess, and two servers with different keys store different values for one text.

    >>> keyed_hash(b"k" * 32, "203.0.113.7") == keyed_hash(b"k" * 32, "203.0.113.7")
    True
    >>> keyed_hash(b"k" * 32, "203.0.113.7") in (keyed_hash(b"j" * 32, "203.0.113.7"), hash_token("203.0.113.7"))
    False
    """
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()


def tokens_equal(a: str, b: str) -> bool:
    """Compare two secrets in constant time.

    >>> tokens_equal("x", "x"), tokens_equal("x", "y")
    (True, False)
    """
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))
