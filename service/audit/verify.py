"""Verifying a record offline: never an exception, always one of five outcomes.

* ``verified`` — intact and re-executed: every line canonical, every link of the hash chain
  recomputed, every payload equal to its readable form, the seed matching its commitment, and
  every command re-executed from the seed giving the recorded events;
* ``intact_as_far_as_visible`` — nothing wrong in what the viewer could see (chain, payloads,
  commitment), but the record cannot be re-executed yet: the seed is still secret, or some
  events are redacted / commands or legacy idempotency keys hidden for this viewer
  (``redacted`` counts the events whose payload is withheld, ``unchecked_links`` the links
  that could not be recomputed);
* ``tampered`` — a recorded value disagrees with what the rest of the record (or its
  re-execution) implies: the first bad line, the field, the expected and the found value;
* ``malformed`` — the record cannot be read (bad JSON or encoding, not canonical, a missing or
  unknown key, a wrong type, a command the game does not know): the line and what is wrong;
* ``unsupported`` — a readable record this verifier cannot judge (recorded under a ruleset or
  game it does not implement): it refuses rather than re-execute under other rules.

:func:`verify_record` needs nothing but the record and the game rules; run it in a fresh
process with ``annales verify RECORD``. The outcomes and the report are in
:mod:`service.audit.verdicts`.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.core.chance import LEGACY_COMMITMENT, SALTED_COMMITMENT, seed_commitment
from domain.core.codec import Codec
from domain.core.envelope import GENESIS, Envelope, key_digest, link_hash
from domain.core.errors import MalformedCommand, RuleViolation
from domain.core.kernel_events import GameCreated, SeedRevealed, Undone
from domain.core.match import StoredEvent, replay_events
from domain.registry import GAMES, RULESETS, codec_for
from service.app.ledger import SETUP_COMMAND_ID, Ledger
from service.audit.format import (
    FORMAT_2,
    CommandLine,
    EventLine,
    Parsed,
    RecordError,
    parse_record,
)
from service.audit.verdicts import (
    Divergence,
    Outcome,
    Rejection,
    VerifyReport,
    first_difference,
    malformed,
    report_of,
    tampered,
)


@dataclass
class _Event:
    line: int
    item: EventLine
    envelope: Envelope | None  # None when redacted (no payload)


@dataclass
class _Batch:
    line: int
    item: CommandLine
    events: list[_Event] = field(default_factory=list)


def verify_record(lines: Iterable[bytes]) -> VerifyReport:
    """Check a record: canonical lines, hash chain, payloads, seed, then re-execution.

    Never raises (a bug of the verifier itself would be reported as malformed, with its
    type), and never answers "verified" unless everything was checked.
    """
    game_type = ""
    lines = list(lines)
    try:
        parsed = parse_record(lines)
        game_type = parsed.header.game_type
        return _verify(parsed)
    except RecordError as error:
        seq = _seq_near(lines, error.line)
        return report_of(Outcome.MALFORMED, Divergence(seq, "", "", error.reason, error.line,
                                                     error.field), game_type)  # fmt: skip
    except Rejection as bad:
        return report_of(bad.outcome, bad.divergence, game_type)
    except Exception as error:
        return report_of(
            Outcome.MALFORMED,
            Divergence(0, "", "", f"unreadable record ({type(error).__name__}: {error})"),
            game_type,
        )


def _seq_near(lines: list[bytes], line: int) -> int:
    """The sequence number of the event at ``line`` (1-based), or of the first event after
    a command line there; 0 when there is none to read."""
    for raw in lines[line - 1 : line + 1] if line >= 1 else []:
        try:
            data = msgspec.json.decode(raw)
        except msgspec.DecodeError:
            continue
        if isinstance(data, dict) and isinstance(data.get("seq"), int):
            return int(data["seq"])
    return 0


def _structure(parsed: Parsed) -> list[_Batch]:
    batches: list[_Batch] = []
    for number, item in parsed.lines:
        if isinstance(item, CommandLine):
            batches.append(_Batch(number, item))
            continue
        if not batches:
            raise malformed(number, item.seq, "$.type", "an event line before any command line")
        batches[-1].events.append(_Event(number, item, None))
    for batch in batches:
        if not batch.events:
            raise malformed(batch.line, 0, "$.type", "a command line with no event after it")
    return batches


def _decode_payload(event: _Event) -> bytes:
    assert event.item.payload is not None
    try:
        return base64.b64decode(event.item.payload, validate=True)
    except (binascii.Error, ValueError) as error:
        raise malformed(event.line, event.item.seq, "$.payload", f"not base64 ({error})") from error


def _command_bytes(codec: Codec, batch: _Batch) -> bytes | None:
    """The command's msgpack bytes: the line's ``command_payload`` (format 2), checked against
    its readable form, or re-encoded from the readable form (format 1)."""
    try:
        return _command_bytes_of(codec, batch)
    except Rejection as bad:
        bad.divergence.seq = batch.events[0].item.seq  # the batch's first event
        raise


def _command_bytes_of(codec: Codec, batch: _Batch) -> bytes | None:
    data = batch.item.command
    if data is None:
        if batch.item.command_payload is not None:
            raise malformed(batch.line, 0, "$.command_payload",
                             "a command payload without its readable command")  # fmt: skip
        return None
    try:
        encoded = codec.encode_command(codec.command_from_data(data))
    except MalformedCommand as error:
        where = str(error.message).rsplit(" - at `", 1)
        fld = "$.command" + where[1].rstrip("`")[1:] if len(where) == 2 else "$.command"
        raise malformed(
            batch.line, 0, fld, f"not a command of this game ({error.message})"
        ) from error
    if batch.item.command_payload is None:
        return encoded
    try:
        payload = base64.b64decode(batch.item.command_payload, validate=True)
    except (binascii.Error, ValueError) as error:
        reason = f"not base64 ({error})"
        raise malformed(batch.line, 0, "$.command_payload", reason) from error
    try:
        readable = codec.command_to_data(codec.decode_command(payload))
    except MalformedCommand as error:
        raise tampered(batch.line, 0, "$.command_payload", "a command of this game",
                        batch.item.command_payload, "the command payload is not a command"
                        ) from error  # fmt: skip
    difference = first_difference(readable, data, "$.command")
    if difference is not None:
        path, expected, found = difference
        raise tampered(batch.line, 0, path, expected, found,
                        "the readable command differs from its payload")  # fmt: skip
    return payload


def _verify(parsed: Parsed) -> VerifyReport:
    header = parsed.header
    if header.game_type not in GAMES:
        raise Rejection(
            Outcome.UNSUPPORTED,
            Divergence(0, "", header.game_type, "unknown game type", 1, "$.game_type"),
        )
    game = RULESETS.get(header.ruleset)
    if game is not None and game.name != header.game_type:
        raise tampered(1, 0, "$.game_type", game.name, header.game_type,
                        "the header's game type is not its ruleset's")  # fmt: skip
    if game is None:
        raise Rejection(
            Outcome.UNSUPPORTED,
            Divergence(
                0, "", header.ruleset,
                f"recorded under ruleset {header.ruleset!r}, which this verifier does not "
                f"implement (it knows {', '.join(RULESETS)}); it refuses to re-execute under "
                "different rules", 1, "$.ruleset",
            ),
        )  # fmt: skip
    codec = codec_for(game)
    batches = _structure(parsed)
    redacted, unchecked = _check_chain(header.game_id, codec, batches, parsed.format)
    events = [event for batch in batches for event in batch.events]
    if header.events != len(events):
        raise tampered(1, 0, "$.events", len(events), header.events,
                        "the header's event count differs from the record's")  # fmt: skip
    created = _check_header(parsed, codec, events[0])
    seed, nonce = _check_seed(parsed, codec, created, events)
    _check_not_cut(game, codec, batches)
    notes: list[str] = []
    if redacted:
        notes.append(f"{redacted} events redacted for this viewer")
    if unchecked:
        notes.append(f"{unchecked} links not recomputable (redacted or hidden inputs)")
    total = len(events)
    hidden_commands = sum(1 for b in batches if "command" in _hidden(b))
    if seed is None or redacted or hidden_commands:
        why = (
            "the game is not over, so the seed is secret"
            if seed is None
            else f"{redacted} events redacted and {hidden_commands} commands hidden for this viewer"
        )
        message = (
            f"intact as far as visible: hash chain, payloads and commitment checked over "
            f"{total} events ({redacted} redacted for this viewer); not re-executable yet: {why}"
        )
        return VerifyReport(True, message, header.game_type, total, notes=notes,
                            outcome=Outcome.INTACT_AS_FAR_AS_VISIBLE, redacted=redacted,
                            unchecked_links=unchecked)  # fmt: skip
    _reexecute(header.game_id, codec, created, seed, nonce, batches)
    if unchecked:
        message = (
            f"intact as far as visible: {total} events re-executed from the seed, but "
            f"{unchecked} links could not be recomputed (hidden idempotency keys of a game "
            "hashed with its keys)"
        )
        return VerifyReport(True, message, header.game_type, total, reexecuted=True,
                            notes=notes, outcome=Outcome.INTACT_AS_FAR_AS_VISIBLE,
                            unchecked_links=unchecked)  # fmt: skip
    revealed = any(event.item.kind == "SeedRevealed" for event in events)
    source = "the revealed seed" if revealed else "the judge's seed (header; not yet revealed)"
    return VerifyReport(
        True,
        f"verified: {total} events re-executed from {source}, every hash matches",
        header.game_type,
        total,
        reexecuted=True,
        notes=notes,
    )


def _hidden(batch: _Batch) -> list[str]:
    hidden: list[str] = list(batch.item.hidden)
    if batch.item.command is None and batch.item.seat >= 0 and "command" not in hidden:
        hidden.append("command")  # format 1: a player's command shown as null was hidden
    return hidden


def _check_chain(
    game_id: str, codec: Codec, batches: list[_Batch], record_format: str
) -> tuple[int, int]:
    """Sequence numbers, links, payloads against their readable form; returns the numbers of
    redacted events and of links that could not be recomputed."""
    prev = GENESIS
    seq = 0
    redacted = unchecked = 0
    for batch in batches:
        command = batch.item
        if record_format == FORMAT_2:
            _check_markers(batch)
        hidden = _hidden(batch)
        command_bytes = None if "command" in hidden else _command_bytes(codec, batch)
        if command.idempotency_key is not None and command.idempotency_key_digest is not None:
            digest = key_digest(game_id, command.idempotency_key)
            if digest != command.idempotency_key_digest:
                raise tampered(batch.line, 0, "$.idempotency_key_digest", digest,
                                command.idempotency_key_digest,
                                "the key digest does not match the key")  # fmt: skip
        for index, event in enumerate(batch.events):
            item, first = event.item, index == 0
            seq += 1
            if item.seq != seq:
                raise tampered(event.line, item.seq, "$.seq", seq, item.seq,
                                "sequence numbers are not contiguous")  # fmt: skip
            if item.prev_hash != prev:
                raise tampered(event.line, item.seq, "$.prev_hash", prev, item.prev_hash,
                                "hash chain broken: not the previous hash")  # fmt: skip
            prev = item.hash
            if item.payload is None:
                if record_format == FORMAT_2 and not item.redacted:
                    why = "an event without its payload is not marked redacted"
                    raise malformed(event.line, item.seq, "$.redacted", why)
                redacted += 1
                unchecked += 1
                continue
            if item.redacted:
                raise malformed(event.line, item.seq, "$.redacted",
                                 "an event marked redacted carries a payload")  # fmt: skip
            payload = _decode_payload(event)
            try:
                decoded = codec.decode_event(item.kind, item.schema, payload)
            except (KeyError, msgspec.DecodeError, msgspec.ValidationError) as error:
                raise tampered(event.line, item.seq, "$.payload", f"a {item.kind} event",
                                item.payload, f"the payload is not a {item.kind} event "
                                f"({type(error).__name__})") from error  # fmt: skip
            readable = msgspec.to_builtins(codec.event_to_data(decoded))
            difference = first_difference(readable, item.event, "$.event")
            if difference is not None:
                path, expected, found = difference
                raise tampered(event.line, item.seq, path, expected, found,
                                "the readable event differs from its payload")  # fmt: skip
            key_known = (
                command.idempotency_key is not None
                or command.idempotency_key_digest is not None
                or "idempotency_key" not in hidden
            )
            if first and ("command" in hidden or not key_known):
                unchecked += 1
                continue
            envelope = Envelope(
                game_id, item.seq, command.command_id, command.seat, item.ruleset, item.schema,
                item.kind, payload, item.prev_hash, item.hash,
                command_bytes if first else None,
                command.idempotency_key if first else None,
                command.idempotency_key_digest if first else None,
            )  # fmt: skip
            expected_hash = link_hash(envelope)
            if expected_hash != item.hash:
                raise tampered(event.line, item.seq, "$.hash", expected_hash, item.hash,
                                "the hash does not cover this line's values")  # fmt: skip
            event.envelope = envelope
    return redacted, unchecked


def _check_markers(batch: _Batch) -> None:
    """Format 2: a player's command is shown, or listed in ``hidden`` — never both, never
    neither (only the setup, by the system, has no command)."""
    item = batch.item
    listed = "command" in item.hidden
    if item.command is None and item.seat >= 0 and not listed:
        raise malformed(batch.line, 0, "$.hidden",
                         "a player's command is left out without being marked hidden")  # fmt: skip
    if item.command is not None and listed:
        raise malformed(batch.line, 0, "$.hidden", "a command shown is also marked hidden")


def _check_not_cut(game: Any, codec: Codec, batches: list[_Batch]) -> None:
    """A record whose events (all visible) fold to a finished game ends with SeedRevealed, the
    last event of the batch that ended the game: otherwise it has been cut. (A record that
    does not fold is left to re-execution, or is as far as visible.)"""
    events = [(batch, event) for batch in batches for event in batch.events]
    last = events[-1][1]
    if last.item.kind == "SeedRevealed" or any(e.item.payload is None for _, e in events):
        return
    try:
        stored = [
            StoredEvent(event.item.seq, batch.item.command_id, batch.item.seat,
                        codec.decode_event(event.item.kind, event.item.schema,
                                           _decode_payload(event)))
            for batch, event in events
        ]  # fmt: skip
        over = game.is_over(replay_events(game, stored).state)
    except Exception:  # a history that does not fold: re-execution (if any) says why
        return
    if over:
        raise tampered(last.line, last.item.seq, "$.events", "SeedRevealed after the end",
                        f"{last.item.kind} last", "the record was cut: the game is over but its "
                        "seed is not revealed")  # fmt: skip


def _check_header(parsed: Parsed, codec: Codec, first: _Event) -> GameCreated:
    header = parsed.header
    if first.envelope is None or first.item.kind != "GameCreated":
        raise tampered(first.line, 1, "$.kind", "GameCreated", first.item.kind,
                        "a record starts with a visible GameCreated event")  # fmt: skip
    created = codec.decode_event("GameCreated", first.item.schema, first.envelope.payload)
    assert isinstance(created, GameCreated)
    expected = {
        "game_type": created.game_type,
        "ruleset": created.ruleset,
        "options": created.options,
        "seats": list(created.seat_names),
        "seed_commitment": created.seed_commitment,
    }
    if header.seed_commitment_scheme is not None:
        expected["seed_commitment_scheme"] = created.seed_commitment_scheme
    for name, value in expected.items():
        found = getattr(header, name)
        if msgspec.to_builtins(value) != found:
            raise tampered(1, 0, f"$.{name}", value, found,
                            "the header disagrees with the GameCreated event")  # fmt: skip
    if created.seed_commitment_scheme not in (LEGACY_COMMITMENT, SALTED_COMMITMENT):
        raise Rejection(Outcome.UNSUPPORTED, Divergence(
            1, "", created.seed_commitment_scheme, "unknown seed commitment scheme", first.line,
            "$.event.seed_commitment_scheme"))  # fmt: skip
    return created


def _hex(value: str, line: int, seq: int, name: str) -> bytes:
    try:
        return bytes.fromhex(value)
    except ValueError as error:
        raise malformed(line, seq, name, "not hexadecimal") from error


def _check_seed(
    parsed: Parsed, codec: Codec, created: GameCreated, events: list[_Event]
) -> tuple[bytes | None, bytes | None]:
    """The seed and nonce (revealed, or a judge's), checked against the commitment."""
    salted = created.seed_commitment_scheme == SALTED_COMMITMENT
    found: list[tuple[int, int, str, str, str]] = []  # line, seq, seed, nonce, where
    for event in events:
        if event.item.kind == "SeedRevealed" and event.envelope is not None:
            revealed = codec.decode_event("SeedRevealed", event.item.schema,
                                          event.envelope.payload)  # fmt: skip
            assert isinstance(revealed, SeedRevealed)
            found.append((event.line, event.item.seq, revealed.seed, revealed.nonce, "$.event"))
    header = parsed.header
    if header.seed is not None:
        found.append((1, 0, header.seed, header.nonce or "", "$"))
    result: tuple[bytes | None, bytes | None] = (None, None)
    for line, seq, seed_hex, nonce_hex, where in found:
        seed = _hex(seed_hex, line, seq, f"{where}.seed")
        nonce = _hex(nonce_hex, line, seq, f"{where}.nonce") if salted else None
        if salted and not nonce:
            raise tampered(line, seq, f"{where}.nonce", "the nonce of the commitment", "",
                            "a salted commitment is revealed without its nonce")  # fmt: skip
        commitment = seed_commitment(seed, nonce)
        if commitment != created.seed_commitment:
            construction = "SHA-256(nonce || seed)" if salted else "SHA-256(seed)"
            raise tampered(line, seq, f"{where}.seed", created.seed_commitment, commitment,
                            f"the seed does not match the commitment ({construction})")  # fmt: skip
        result = (seed, nonce)
    return result


def _reexecute(
    game_id: str,
    codec: Codec,
    created: GameCreated,
    seed: bytes,
    nonce: bytes | None,
    batches: list[_Batch],
) -> None:
    """Re-run every command from the seed; the produced events must be the recorded ones."""
    targets = set()
    for batch in batches:
        for event in batch.events:
            if event.item.kind == "Undone" and event.envelope is not None:
                undone = codec.decode_event("Undone", event.item.schema, event.envelope.payload)
                assert isinstance(undone, Undone)
                targets.add(undone.to_version)
    saved: dict[int, bytes] = {}
    ledger: Ledger | None = None

    def state_at(version: int) -> Any:
        assert ledger is not None
        if version not in saved:  # an undo back to a version no batch of the record ended at
            raise tampered(0, version, "$.to_version", "the end of a command's events", version,
                            "an undo goes back inside a command")  # fmt: skip
        return ledger.game.decode_state(saved[version])

    for number, batch in enumerate(batches, start=1):
        item = batch.item
        first_seq = batch.events[0].item.seq
        last = number == len(batches)
        if item.command_id == SETUP_COMMAND_ID and ledger is None:
            ledger, produced = Ledger.create(
                game_id, created.game_type, created.options, created.seat_names, seed,
                created.ruleset, nonce,
            )  # fmt: skip
        else:
            if ledger is None or item.command is None:
                raise tampered(batch.line, first_seq, "$.command", "a command", None,
                                "a player's batch without its command")  # fmt: skip
            command = codec.command_from_data(item.command)
            try:
                _, produced = ledger.submit(
                    item.seat, command, item.command_id, seed, state_at, None, nonce
                )
            except RuleViolation as error:
                raise tampered(batch.line, first_seq, "$.command", "a legal command",
                                f"refused: {error.code}",
                                "the command is illegal on re-execution") from error  # fmt: skip
        for index in range(max(len(produced), len(batch.events))):
            mine = produced[index] if index < len(produced) else None
            theirs = batch.events[index] if index < len(batch.events) else None
            if theirs is None and last:
                break  # a record cut at a version inside the batch (e.g. a judge's at v)
            if theirs is None:
                assert mine is not None
                raise tampered(batch.line, mine.seq, "$.events", len(produced),
                                len(batch.events), "re-execution gives more events")  # fmt: skip
            if mine is None:
                raise tampered(theirs.line, theirs.item.seq, "$", "(no event)", theirs.item.kind,
                                "re-execution gives fewer events")  # fmt: skip
            _compare(codec, mine, theirs)
        if produced and produced[-1].seq in targets:
            saved[produced[-1].seq] = ledger.game.encode_state(ledger.match.state)


def _compare(codec: Codec, mine: Envelope, theirs: _Event) -> None:
    recorded = theirs.envelope
    assert recorded is not None
    item = theirs.item
    for name in ("kind", "schema", "ruleset"):
        if getattr(mine, name) != getattr(recorded, name):
            raise tampered(theirs.line, item.seq, f"$.{name}", getattr(mine, name),
                            getattr(recorded, name),
                            "re-execution gives a different event")  # fmt: skip
    if mine.payload != recorded.payload:
        expected = msgspec.to_builtins(codec.event_to_data(
            codec.decode_event(mine.kind, mine.schema, mine.payload)))  # fmt: skip
        difference = first_difference(expected, item.event, "$.event")
        path, want, got = difference if difference is not None else ("$.payload", "", "")
        raise tampered(theirs.line, item.seq, path, want, got,
                        "re-execution gives a different event")  # fmt: skip
