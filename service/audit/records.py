"""Portable game records (JSON lines) and their offline verification.

A record is one JSON object per line:

1. the header: ``{"record": "annales.game/1", "game_id", "game_type", "ruleset", "options",
   "seats", "seed_commitment", "events"}``;
2. then, for each command (the setup first), a ``{"type": "command", ...}`` line with the
   command id, seat, idempotency key and the command as data (``null`` for the setup),
   followed by one ``{"type": "event", ...}`` line per event: sequence number, kind, schema,
   the event as data, its msgpack payload (base64), the previous hash and its hash.

Every line is written in canonical form (``msgspec.json`` with fixed key order), so changing,
adding or removing any byte is detected: a line that is not canonical, a broken hash chain,
a payload that disagrees with its readable form, or — once the seed is revealed — a command
whose re-execution from ``SHA-256``-committed seed does not give the recorded hashes.

:func:`verify_record` needs nothing but the record and the game rules: run it in a fresh
process (``annales verify RECORD``).
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.core.envelope import GENESIS, Envelope, verify_link
from domain.core.errors import MalformedCommand, RuleViolation
from domain.core.game import Event
from domain.core.kernel_events import GameCreated, SeedRevealed, Undone
from domain.registry import GAMES, RULESETS, codec_for, get_ruleset
from service.app.ledger import SETUP_COMMAND_ID, Ledger

RECORD_FORMAT = "annales.game/1"
EventFilter = Callable[[Envelope, Event], Event | None]


def _canonical(data: dict[str, Any]) -> bytes:
    return msgspec.json.encode(data)


def export_lines(
    envelopes: Sequence[Envelope],
    decode: Callable[[Envelope], Event],
    redact: EventFilter | None = None,
) -> list[bytes]:
    """The record of a game as canonical JSON lines (without trailing newlines).

    ``redact(envelope, event)`` may replace an event by what a viewer may see, or drop it
    (``None``); a redacted record still reads but will not verify past the redaction.
    """
    header_event = decode(envelopes[0])
    if not isinstance(header_event, GameCreated):
        raise ValueError("a game log starts with GameCreated")
    lines = [
        _canonical(
            {
                "record": RECORD_FORMAT,
                "game_id": envelopes[0].game_id,
                "game_type": header_event.game_type,
                "ruleset": header_event.ruleset,
                "options": header_event.options,
                "seats": list(header_event.seat_names),
                "seed_commitment": header_event.seed_commitment,
                "events": len(envelopes),
            }
        )
    ]
    codec = codec_for(get_ruleset(header_event.ruleset))
    redacted_any = False
    for batch in _batches(envelopes):
        shown_events: list[tuple[Envelope, Event, Event | None]] = []
        for envelope in batch:
            event = decode(envelope)
            shown_events.append(
                (envelope, event, event if redact is None else redact(envelope, event))
            )
        # A command is hidden as soon as one of its events (or any earlier one) is redacted.
        redacted_any = redacted_any or any(shown is not event for _, event, shown in shown_events)
        first = batch[0]
        hide_command = redact is not None and redacted_any
        command_data = (
            None
            if first.command is None or hide_command
            else codec.command_to_data(codec.decode_command(first.command))
        )
        lines.append(
            _canonical(
                {
                    "type": "command",
                    "command_id": first.command_id,
                    "seat": first.seat,
                    "idempotency_key": None if hide_command else first.idempotency_key,
                    "command": command_data,
                }
            )
        )
        for envelope, event, shown in shown_events:
            if shown is None:
                continue
            same = shown is event
            lines.append(
                _canonical(
                    {
                        "type": "event",
                        "seq": envelope.seq,
                        "kind": envelope.kind,
                        "schema": envelope.schema,
                        "ruleset": envelope.ruleset,
                        "event": codec.event_to_data(shown),
                        "payload": base64.b64encode(envelope.payload).decode() if same else None,
                        "prev_hash": envelope.prev_hash,
                        "hash": envelope.hash,
                    }
                )
            )
    return lines


def _batches(envelopes: Sequence[Envelope]) -> list[list[Envelope]]:
    """Envelopes grouped by the command that produced them, in order."""
    batches: list[list[Envelope]] = []
    for envelope in envelopes:
        if batches and batches[-1][0].command_id == envelope.command_id:
            batches[-1].append(envelope)
        else:
            batches.append([envelope])
    return batches


@dataclass
class Divergence:
    """Where a record and its re-execution first disagree."""

    seq: int
    expected: str
    found: str
    reason: str


@dataclass
class VerifyReport:
    """The outcome of :func:`verify_record`."""

    ok: bool
    message: str
    game_type: str = ""
    events: int = 0
    reexecuted: bool = False
    divergence: Divergence | None = None
    notes: list[str] = field(default_factory=list)


class RecordError(Exception):
    """A record that cannot be read (its message says where)."""


def parse_lines(lines: Iterable[bytes]) -> list[dict[str, Any]]:
    """The JSON objects of a record's lines, each checked to be in canonical form (an altered
    line is not); raises :class:`RecordError` saying which line is wrong."""
    parsed: list[dict[str, Any]] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip(b"\n")
        if not line:
            continue
        try:
            data = msgspec.json.decode(line)
        except msgspec.DecodeError as error:
            raise RecordError(f"line {number}: not valid JSON ({error})") from error
        if not isinstance(data, dict) or _canonical(data) != line:
            raise RecordError(f"line {number}: not in canonical form (altered?)")
        parsed.append(data)
    if not parsed:
        raise RecordError("the record is empty")
    return parsed


def verify_record(lines: Iterable[bytes]) -> VerifyReport:
    """Check a record: canonical lines, hash chain, payloads, seed, then re-execution."""
    try:
        return _verify(parse_lines(lines))
    except RecordError as error:
        return VerifyReport(False, f"unreadable record: {error}")
    except (KeyError, TypeError, ValueError, msgspec.DecodeError, msgspec.ValidationError) as error:
        return VerifyReport(False, f"malformed record: {type(error).__name__}: {error}")
    except MalformedCommand as error:  # a recorded command that no longer decodes (altered)
        return VerifyReport(False, f"malformed record: {error.code}: {error.message}")


def _verify(items: list[dict[str, Any]]) -> VerifyReport:
    header = items[0]
    if header.get("record") != RECORD_FORMAT:
        return VerifyReport(False, f"not an Annales game record ({RECORD_FORMAT} expected)")
    game_type = str(header["game_type"])
    if game_type not in GAMES:
        return VerifyReport(False, f"unknown game type {game_type!r}")
    game = RULESETS.get(str(header["ruleset"]))
    if game is None or game.name != game_type:
        return VerifyReport(
            False,
            f"recorded under ruleset {header['ruleset']!r}, which this verifier does not "
            f"implement (it knows {', '.join(RULESETS)}); it refuses to re-execute under "
            "different rules",
            game_type,
        )
    codec = codec_for(game)
    game_id = str(header["game_id"])
    # 1. Rebuild the envelopes from the record and check the chain.
    envelopes: list[Envelope] = []
    commands: list[tuple[dict[str, Any], list[Envelope]]] = []
    prev = GENESIS
    for item in items[1:]:
        if item["type"] == "command":
            commands.append((item, []))
            continue
        if item["type"] != "event" or not commands:
            raise RecordError(f"unexpected line type {item.get('type')!r}")
        command_item, batch = commands[-1]
        if item["payload"] is None:
            return VerifyReport(
                False, f"seq {item['seq']}: redacted event; cannot verify", game_type
            )
        payload = base64.b64decode(item["payload"], validate=True)
        first = not batch
        command_bytes = None
        if first and command_item["command"] is not None:
            command_bytes = codec.encode_command(codec.command_from_data(command_item["command"]))
        envelope = Envelope(
            game_id,
            int(item["seq"]),
            str(command_item["command_id"]),
            int(command_item["seat"]),
            str(item["ruleset"]),
            int(item["schema"]),
            str(item["kind"]),
            payload,
            str(item["prev_hash"]),
            str(item["hash"]),
            command_bytes,
            command_item["idempotency_key"] if first else None,
        )
        if envelope.seq != len(envelopes) + 1:
            return _diverged(
                envelope.seq,
                str(len(envelopes) + 1),
                str(envelope.seq),
                "sequence numbers are not contiguous",
                game_type,
            )
        if not verify_link(envelope, prev):
            return _diverged(
                envelope.seq,
                envelope.hash,
                "(chain broken)",
                "hash chain broken: a recorded byte was changed",
                game_type,
            )
        event = codec.decode_event(envelope.kind, envelope.schema, payload)
        if msgspec.json.encode(codec.event_to_data(event)) != msgspec.json.encode(item["event"]):
            return _diverged(
                envelope.seq,
                envelope.hash,
                "(readable form differs)",
                "the readable event differs from its payload",
                game_type,
            )
        envelopes.append(envelope)
        batch.append(envelope)
        prev = envelope.hash
    if int(header["events"]) != len(envelopes):
        return VerifyReport(
            False,
            f"header announces {header['events']} events, record has {len(envelopes)}",
            game_type,
        )
    created = codec.decode_event(envelopes[0].kind, envelopes[0].schema, envelopes[0].payload)
    if not isinstance(created, GameCreated) or (
        created.game_type,
        created.ruleset,
        created.options,
        list(created.seat_names),
        created.seed_commitment,
    ) != (
        header["game_type"],
        header["ruleset"],
        header["options"],
        header["seats"],
        header["seed_commitment"],
    ):
        return VerifyReport(False, "the header disagrees with the first event", game_type)
    # 2. The seed, once revealed, must match the commitment; then re-execute everything.
    seed_hex = None
    for envelope in envelopes:
        if envelope.kind == "SeedRevealed":
            revealed = codec.decode_event(envelope.kind, envelope.schema, envelope.payload)
            assert isinstance(revealed, SeedRevealed)
            seed_hex = revealed.seed
    if seed_hex is None:
        return VerifyReport(
            True,
            "hash chain verified; the game is not over, so the seed is "
            "secret and commands were not re-executed",
            game_type,
            len(envelopes),
        )
    seed = bytes.fromhex(seed_hex)
    if hashlib.sha256(seed).hexdigest() != header["seed_commitment"]:
        return VerifyReport(
            False, "the revealed seed does not match the seed commitment", game_type, len(envelopes)
        )
    return _reexecute(game_id, game_type, created, seed, commands, len(envelopes))


def _diverged(seq: int, expected: str, found: str, reason: str, game_type: str) -> VerifyReport:
    return VerifyReport(
        False,
        f"divergence at seq {seq}: {reason} (expected {expected}, found {found})",
        game_type,
        divergence=Divergence(seq, expected, found, reason),
    )


def _reexecute(
    game_id: str,
    game_type: str,
    created: GameCreated,
    seed: bytes,
    commands: list[tuple[dict[str, Any], list[Envelope]]],
    total: int,
) -> VerifyReport:
    codec = codec_for(get_ruleset(created.ruleset))
    targets = set()
    for _, batch in commands:
        for envelope in batch:
            if envelope.kind == "Undone":
                undone = codec.decode_event(envelope.kind, envelope.schema, envelope.payload)
                assert isinstance(undone, Undone)
                targets.add(undone.to_version)
    saved: dict[int, bytes] = {}
    ledger: Ledger | None = None

    def state_at(version: int) -> Any:
        assert ledger is not None
        return ledger.game.decode_state(saved[version])

    for command_item, recorded in commands:
        if command_item["command_id"] == SETUP_COMMAND_ID and ledger is None:
            ledger, produced = Ledger.create(
                game_id, game_type, created.options, created.seat_names, seed, created.ruleset
            )
        else:
            if ledger is None or command_item["command"] is None:
                return _diverged(
                    recorded[0].seq if recorded else 0,
                    "a command",
                    "no command",
                    "missing command",
                    game_type,
                )
            command = codec.command_from_data(command_item["command"])
            try:
                _, produced = ledger.submit(
                    int(command_item["seat"]),
                    command,
                    str(command_item["command_id"]),
                    seed,
                    state_at,
                    command_item["idempotency_key"],
                )
            except RuleViolation as error:
                seq = recorded[0].seq if recorded else ledger.version + 1
                return _diverged(
                    seq,
                    recorded[0].hash if recorded else "",
                    f"refused: {error.code}",
                    "the command is illegal on re-execution",
                    game_type,
                )
        for index in range(max(len(produced), len(recorded))):
            mine = produced[index] if index < len(produced) else None
            theirs = recorded[index] if index < len(recorded) else None
            if mine is None or theirs is None or mine.hash != theirs.hash:
                seq = (theirs or mine).seq  # type: ignore[union-attr]
                return _diverged(
                    seq,
                    theirs.hash if theirs else "(no event)",
                    mine.hash if mine else "(no event)",
                    "re-execution gives a different event",
                    game_type,
                )
        if produced and produced[-1].seq in targets:
            saved[produced[-1].seq] = ledger.game.encode_state(ledger.match.state)
    return VerifyReport(
        True,
        f"verified: {total} events re-executed from the revealed seed, every hash matches",
        game_type,
        total,
        reexecuted=True,
    )
