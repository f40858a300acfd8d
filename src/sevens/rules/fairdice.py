"""Fair, verifiable dice (R14).

Every die of a game comes from a secret 32-byte seed. When the game is created only the seed's
SHA-256 (the *commitment*) is published. The dice of a turn come from
``HMAC-SHA256(key=seed, message=f"{orders_digest}/{stream}/{block}")`` where ``orders_digest``
hashes every order of the turn, so no one can know a turn's dice before all its orders are in.
Each output byte below 252 gives one die, ``byte % 6 + 1``; bytes 252-255 are skipped, which
keeps all six faces exactly equally likely (252 = 42 x 6). When the game ends the seed is
revealed and anyone can recompute every die.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator, Mapping

from sevens.rules.orders import Order

__all__ = [
    "SEED_BYTES",
    "FairDice",
    "fair_die",
    "fair_dice_bytes",
    "orders_digest",
    "parse_seed",
    "seed_commitment",
]

SEED_BYTES = 32
_ACCEPT_BELOW = 252  # the largest multiple of 6 not above 256


def parse_seed(seed: str | bytes) -> bytes:
    """A seed as bytes, from bytes or from its 64-character hex form.

    >>> len(parse_seed("00" * 32))
    32
    >>> parse_seed("abc")
    Traceback (most recent call last):
    ...
    ValueError: R14: a game seed is 32 bytes written as 64 hexadecimal characters; got 3 characters
    """
    if isinstance(seed, bytes):
        raw = seed
    else:
        if len(seed) != 2 * SEED_BYTES:
            raise ValueError(
                f"R14: a game seed is {SEED_BYTES} bytes written as {2 * SEED_BYTES} hexadecimal "
                f"characters; got {len(seed)} characters"
            )
        try:
            raw = bytes.fromhex(seed)
        except ValueError:
            raise ValueError("R14: a game seed must be written in hexadecimal (0-9, a-f)") from None
    if len(raw) != SEED_BYTES:
        raise ValueError(f"R14: a game seed is {SEED_BYTES} bytes, got {len(raw)}")
    return raw


def seed_commitment(seed: str | bytes) -> str:
    """The published commitment to a seed: its SHA-256, in hex (R14).

    >>> seed_commitment("00" * 32)
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
    """
    return hashlib.sha256(parse_seed(seed)).hexdigest()


def orders_digest(seed_sha256: str, turn: int, orders: Mapping[str, Order]) -> str:
    """SHA-256 of a turn's orders in canonical JSON (R14).

    The document hashed is ``{"game":commitment,"orders":[{"flair":k,"force":f,"team":id},...],
    "turn":n}`` with orders sorted by team id, keys sorted, no spaces, UTF-8.

    >>> digest = orders_digest("ab" * 32, 1, {"fiji": Order(10, 9), "samoa": Order(0, 30)})
    >>> digest == orders_digest("ab" * 32, 1, {"samoa": Order(0, 30), "fiji": Order(10, 9)})
    True
    >>> digest == orders_digest("ab" * 32, 1, {"fiji": Order(10, 9), "samoa": Order(3, 27)})
    False
    """
    document = {
        "game": seed_sha256,
        "orders": [
            {"flair": order.flair, "force": order.force, "team": team}
            for team, order in sorted(orders.items())
        ],
        "turn": turn,
    }
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def fair_dice_bytes(seed: str | bytes, digest: str, stream: str, block: int) -> bytes:
    """One 32-byte block of a dice stream: HMAC-SHA256(seed, f"{digest}/{stream}/{block}")."""
    message = f"{digest}/{stream}/{block}".encode()
    return hmac.new(parse_seed(seed), message, hashlib.sha256).digest()


def _faces(seed: bytes, digest: str, stream: str) -> Iterator[int]:
    block = 0
    while True:
        for byte in fair_dice_bytes(seed, digest, stream, block):
            if byte < _ACCEPT_BELOW:
                yield byte % 6 + 1
        block += 1


class FairDice:
    """The dice stream named ``stream`` of the turn whose orders hash to ``digest`` (R14).

    >>> dice = FairDice("00" * 32, "ab" * 32, "t1-m1/home")
    >>> faces = [dice.d6() for _ in range(40)]
    >>> faces == [fair_die("00" * 32, "ab" * 32, "t1-m1/home", i) for i in range(40)]
    True
    >>> sorted(set(faces))
    [1, 2, 3, 4, 5, 6]
    """

    __slots__ = ("_faces", "thrown")

    def __init__(self, seed: str | bytes, digest: str, stream: str) -> None:
        self._faces = _faces(parse_seed(seed), digest, stream)
        self.thrown = 0

    def d6(self) -> int:
        self.thrown += 1
        return next(self._faces)


def fair_die(seed: str | bytes, digest: str, stream: str, index: int) -> int:
    """Recompute die number ``index`` (from 0) of a stream from the revealed seed (R14).

    >>> fair_die("00" * 32, "ab" * 32, "t1-m1/home", 0) in range(1, 7)
    True
    """
    if index < 0:
        raise ValueError(f"a die's index counts from 0, got {index}")
    faces = _faces(parse_seed(seed), digest, stream)
    for _ in range(index):
        next(faces)
    return next(faces)
