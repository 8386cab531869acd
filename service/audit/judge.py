"""The judge's full record: nothing redacted, the seed in the header, verifiable any time.

A game's judge (its judge token, or a tournament game's organiser) may export the *full*
record of a game that has not ended: the ordinary record (``service/audit/records.py``) with
every event and command unredacted, and one more header key, ``"seed"`` (hex), appended last
so that the header line stays in canonical form. :func:`verify_full_record` checks the seed
against the header's ``seed_commitment``, then the record as any record (canonical lines, hash
chain, payloads) and re-executes every command from that seed — so an unfinished game is
verified in full, by the judge alone, without revealing anything to anyone else. Such a record
is as secret as the seed until the game ends.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from domain.core.chance import seed_commitment
from domain.core.envelope import Envelope
from domain.core.errors import RuleViolation
from domain.core.game import Event
from domain.core.kernel_events import Undone
from domain.registry import get_codec
from service.app.ledger import SETUP_COMMAND_ID, Ledger
from service.audit.records import (
    RecordError,
    VerifyReport,
    export_lines,
    parse_lines,
    verify_record,
)

#: the header key holding the seed (hex) in a full record
SEED_KEY = "seed"


def export_full_record(
    envelopes: Sequence[Envelope], decode: Callable[[Envelope], Event], seed: bytes
) -> bytes:
    """The full record of a game (JSON lines, each ending with a newline)."""
    lines = export_lines(envelopes, decode, None)
    header = msgspec.json.decode(lines[0])
    header[SEED_KEY] = seed.hex()
    lines[0] = msgspec.json.encode(header)
    return b"".join(line + b"\n" for line in lines)


def is_full_record(record: bytes) -> bool:
    """``True`` when the record's header carries a seed."""
    first = record.split(b"\n", 1)[0]
    try:
        header = msgspec.json.decode(first)
    except (msgspec.DecodeError, ValueError):  # not JSON, not UTF-8 (found by the fuzzer)
        return False
    return isinstance(header, dict) and SEED_KEY in header


def _commitment_ok(header: dict[str, Any], seed: bytes) -> bool:
    """The seed against the header's commitment (with the header's nonce when it has one)."""
    commitment = str(header.get("seed_commitment", ""))
    nonce = header.get("seed_nonce")
    if isinstance(nonce, str):
        salted = hashlib.sha256(bytes.fromhex(nonce) + seed).hexdigest()
        return salted == commitment
    return seed_commitment(seed) == commitment


def verify_full_record(record: bytes) -> VerifyReport:
    """Verify a full record: seed, then every check of :func:`verify_record`, then re-run."""
    try:
        items = parse_lines(record.splitlines())
        header = dict(items[0])
        seed = bytes.fromhex(str(header.pop(SEED_KEY)))
    except (RecordError, ValueError, KeyError) as error:
        return VerifyReport(False, f"unreadable full record: {error}")
    if not _commitment_ok(header, seed):
        return VerifyReport(False, "the seed in the header does not match the seed commitment")
    plain = [msgspec.json.encode(header), *record.splitlines()[1:]]
    report = verify_record(plain)
    if not report.ok or report.reexecuted:
        return report
    try:
        return _reexecute(items, seed)
    except (KeyError, TypeError, ValueError, msgspec.DecodeError, msgspec.ValidationError) as e:
        return VerifyReport(False, f"malformed record: {type(e).__name__}: {e}")


def _reexecute(items: list[dict[str, Any]], seed: bytes) -> VerifyReport:
    """Re-run every command of a (chain-checked) record from ``seed``; compare every hash."""
    header = items[0]
    game_type = str(header["game_type"])
    codec = get_codec(game_type)
    batches: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for item in items[1:]:
        if item["type"] == "command":
            batches.append((item, []))
        else:
            batches[-1][1].append(item)
    targets = {
        int(event["event"]["to_version"])
        for _, events in batches
        for event in events
        if event["kind"] == Undone.__name__
    }
    saved: dict[int, bytes] = {}
    ledger: Ledger | None = None

    def state_at(version: int) -> Any:
        assert ledger is not None
        return ledger.game.decode_state(saved[version])

    total = 0
    for command, recorded in batches:
        if command["command_id"] == SETUP_COMMAND_ID and ledger is None:
            ledger, produced = Ledger.create(
                str(header["game_id"]), game_type, header["options"], header["seats"], seed
            )
        else:
            if ledger is None or command["command"] is None:
                return _diverged(recorded, "missing command", game_type)
            try:
                _, produced = ledger.submit(
                    int(command["seat"]),
                    codec.command_from_data(command["command"]),
                    str(command["command_id"]),
                    seed,
                    state_at,
                    command["idempotency_key"],
                )
            except RuleViolation as error:
                return _diverged(recorded, f"the command is refused ({error.code})", game_type)
        if [e.hash for e in produced] != [str(e["hash"]) for e in recorded]:
            return _diverged(recorded, "re-execution gives different events", game_type)
        total += len(produced)
        if produced and produced[-1].seq in targets:
            saved[produced[-1].seq] = ledger.game.encode_state(ledger.match.state)
    return VerifyReport(
        True,
        f"verified: {total} events re-executed from the seed in the full record "
        "(the game may not have ended), every hash matches",
        game_type,
        total,
        reexecuted=True,
    )


def _diverged(recorded: list[dict[str, Any]], reason: str, game_type: str) -> VerifyReport:
    seq = int(recorded[0]["seq"]) if recorded else 0
    return VerifyReport(False, f"divergence at seq {seq}: {reason}", game_type)


def verify_any(lines: Iterable[bytes]) -> VerifyReport:
    """Verify a record, full (judge's) or not."""
    record = b"\n".join(line.rstrip(b"\n") for line in lines)
    if is_full_record(record):
        return verify_full_record(record)
    return verify_record(record.splitlines())
