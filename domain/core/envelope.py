"""Stored events: the envelope around each event and the SHA-256 hash chain over them.

Each event is stored inside an :class:`Envelope` carrying the game id, its sequence number
(contiguous from 1), the command that produced it, the acting seat, the ruleset version, the
event's schema version and tag, its msgpack payload, the previous envelope's hash and its own.
The first envelope of each command batch also carries the command's bytes and idempotency key.

``hash = SHA-256(prev_hash || msgpack([game_id, seq, command_id, seat, ruleset, schema, kind,
payload, command, idempotency_key]))`` — so changing any stored byte breaks the chain. In games
created with ``GameCreated.key_digests`` the envelope also carries ``key_digest`` (see
:func:`key_digest`), and the hash covers it in place of the key: a record can then hide the
key (it is the seat's business) and still be checked link by link.

>>> e = seal(game_id="g", seq=1, command_id="c", seat=-1, ruleset="r", schema=1, kind="K",
...          payload=b"\\x90", prev_hash=GENESIS)
>>> verify_link(e, GENESIS)
True
"""

from __future__ import annotations

import hashlib

import msgspec
import msgspec.structs

#: the ``prev_hash`` of a game's first envelope.
GENESIS = "0" * 64
#: seat value of events decided by the system (setup, seed reveal).
SYSTEM_SEAT = -1


class Envelope(msgspec.Struct, frozen=True, array_like=True):
    """One stored event with its metadata and hash (see module docstring)."""

    game_id: str
    seq: int
    command_id: str
    seat: int
    ruleset: str
    schema: int
    kind: str
    payload: bytes
    prev_hash: str
    hash: str
    command: bytes | None = None
    idempotency_key: str | None = None
    key_digest: str | None = None


def key_digest(game_id: str, key: str) -> str:
    """The digest of an idempotency key in the hash chain of a game with key digests:
    lowercase hex ``SHA-256(UTF-8(game_id) || 0x00 || UTF-8(key))``.

    >>> key_digest("g", "k")[:16]
    '7500c0b79ffc5a74'
    """
    return hashlib.sha256(game_id.encode() + b"\x00" + key.encode()).hexdigest()


def link_hash(envelope: Envelope) -> str:
    """The hash ``envelope`` must carry, from all its other fields (hex SHA-256)."""
    e = envelope
    key = e.key_digest if e.key_digest is not None else e.idempotency_key
    body = msgspec.msgpack.encode(
        [e.game_id, e.seq, e.command_id, e.seat, e.ruleset, e.schema, e.kind, e.payload,
         e.command, key]
    )  # fmt: skip
    return hashlib.sha256(e.prev_hash.encode("ascii") + body).hexdigest()


def seal(
    *,
    game_id: str,
    seq: int,
    command_id: str,
    seat: int,
    ruleset: str,
    schema: int,
    kind: str,
    payload: bytes,
    prev_hash: str,
    command: bytes | None = None,
    idempotency_key: str | None = None,
    key_digest: str | None = None,
) -> Envelope:
    """Build an envelope and compute its hash."""
    unsealed = Envelope(
        game_id, seq, command_id, seat, ruleset, schema, kind, payload, prev_hash, "",
        command, idempotency_key, key_digest,
    )  # fmt: skip
    return msgspec.structs.replace(unsealed, hash=link_hash(unsealed))


def verify_link(envelope: Envelope, prev_hash: str) -> bool:
    """``True`` if ``envelope`` follows ``prev_hash`` and its own hash is right."""
    return envelope.prev_hash == prev_hash and envelope.hash == link_hash(envelope)


_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(Envelope)


def encode_envelope(envelope: Envelope) -> bytes:
    """Envelope → stored bytes."""
    return _ENCODER.encode(envelope)


def decode_envelope(data: bytes) -> Envelope:
    """Stored bytes → envelope."""
    return _DECODER.decode(data)
