"""Counter-based deterministic randomness derived from a secret game seed.

Every draw is ``HMAC-SHA256(seed, b"annales/chance/v1" | version | index)`` read as a big-endian
integer, where ``version`` is the number of events in the game when the command was decided and
``index`` counts draws within that decision. Nothing depends on the Python version, the
platform, ``hash()`` or set order, so a record can be re-executed anywhere from the revealed seed.

Outcomes are always copied into events; folding never draws.

>>> c = Chance(b"seed", version=0)
>>> [c.below(6) for _ in range(5)]
[5, 4, 3, 5, 3]
>>> Chance(b"seed", version=0).below(6)
5
>>> Chance(b"seed", version=0).permutation(5)
[2, 4, 3, 0, 1]
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_DOMAIN = b"annales/chance/v1"


class Chance:
    """A stream of uniform draws for one decision of one game.

    Args:
        seed: the game's secret seed (bytes).
        version: the game's version (events so far) when the decision is taken; it makes the
            draws of different decisions independent.
    """

    __slots__ = ("_index", "_seed", "_version")

    def __init__(self, seed: bytes, version: int) -> None:
        self._seed = seed
        self._version = version
        self._index = 0

    @property
    def draws(self) -> int:
        """How many raw 64-bit draws were taken so far."""
        return self._index

    def _next64(self) -> int:
        message = _DOMAIN + self._version.to_bytes(8, "big") + self._index.to_bytes(8, "big")
        self._index += 1
        digest = hmac.new(self._seed, message, hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        """One item of a non-empty sequence, uniformly."""
        return items[self.below(len(items))]

    def permutation(self, n: int) -> list[int]:
        """A uniform permutation of ``range(n)`` (Fisher-Yates)."""
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order

    def secret(self, label: str) -> str:
        """A 256-bit secret (hex) bound to the seed and ``label``, not to the version.

        Sealed events carry one as a salt, so that their hash cannot be brute-forced by
        trying every possible hidden value before the reveal (the salt is redacted with the
        hidden value, and it is the same when an undone command is submitted again).
        """
        message = b"annales/secret/v1|" + label.encode()
        return hmac.new(self._seed, message, hashlib.sha256).hexdigest()

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in a uniformly random order."""
        return [items[i] for i in self.permutation(len(items))]


#: the commitment of games created before salting: ``SHA-256(seed)``.
LEGACY_COMMITMENT = "sha256-seed"
#: the commitment of every game created since: ``SHA-256(nonce || seed)``, nonce 32 bytes.
SALTED_COMMITMENT = "sha256-nonce-seed"
#: length of the nonce of a salted commitment, in bytes.
NONCE_BYTES = 32


def seed_commitment(seed: bytes, nonce: bytes | None = None) -> str:
    """The public commitment to a seed: lowercase hex ``SHA-256(nonce || seed)``.

    ``nonce=None`` gives the legacy unsalted ``SHA-256(seed)`` of games created before salted
    commitments (records of that time still verify). The nonce is a fresh secret of
    :data:`NONCE_BYTES` bytes per game, kept and revealed with the seed: two games with the
    same seed get different commitments, and a short seed cannot be found from its
    commitment by trying candidates.

    >>> seed_commitment(b"abc")[:16]
    'ba7816bf8f01cfea'
    >>> seed_commitment(b"abc", bytes(32)) != seed_commitment(b"abc", bytes([1]) * 32)
    True
    """
    if nonce is None:
        return hashlib.sha256(seed).hexdigest()
    return hashlib.sha256(nonce + seed).hexdigest()


def derived_nonce(seed: bytes, game_id: str) -> bytes:
    """A deterministic nonce ``HMAC-SHA256(key=seed, "annales/nonce/v1|" + game_id)``.

    Only for drivers whose seeds are themselves 256-bit secrets derived from a master secret
    (tournaments, ``annales simulate``), so that their runs reproduce byte for byte: the
    commitment then differs between games (their ids differ) and reveals nothing a guess
    could test. A seed typed by a person gets a random nonce instead.
    """
    return hmac.new(seed, b"annales/nonce/v1|" + game_id.encode(), hashlib.sha256).digest()
