"""The record format: its versions, canonical JSON, and the typed shape of every line.

``docs/record-format.md`` is the specification; this module is its reading in code.

* ``annales.game/1`` — records exported before salted seed commitments. Each line is
  ``msgspec.json`` compact JSON with the keys in the order the exporter wrote them.
* ``annales.game/2`` — today's records. Each line is the RFC 8785 (JSON Canonicalization
  Scheme) serialisation of its object, through the maintained ``rfc8785`` package.

Every line is checked to be exactly the canonical serialisation of what it decodes to, then
converted to a typed struct (unknown keys, missing keys and wrong types are refused with the
line number and the JSON path): :func:`parse_record` never raises anything but
:class:`RecordError`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

import msgspec
import rfc8785

FORMAT_1 = "annales.game/1"
FORMAT_2 = "annales.game/2"
#: the format today's exporter writes.
RECORD_FORMAT = FORMAT_2
FORMATS = (FORMAT_1, FORMAT_2)


class RecordError(Exception):
    """A record that cannot be read: ``line`` (1-based, 0 for the whole record), ``field`` (a
    JSON path such as ``$.seq``, or ``""``) and a sentence saying what is wrong."""

    def __init__(self, message: str, line: int = 0, field: str = "") -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.field = field
        self.reason = message


def canonical(data: Any, record_format: str = RECORD_FORMAT) -> bytes:
    """The canonical bytes of one line's object under ``record_format`` (no newline)."""
    if record_format == FORMAT_1:
        return msgspec.json.encode(data)
    return bytes(rfc8785.dumps(data))


class Header(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Line 1 of a record."""

    record: str
    game_id: str
    game_type: str
    ruleset: str
    options: dict[str, Any]
    seats: list[str]
    seed_commitment: str
    events: int
    # format 2 only
    seed_commitment_scheme: str | None = None
    viewer: str | None = None
    seed: str | None = None
    nonce: str | None = None


class CommandLine(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A command: who sent it, its id and key, and the command as data (``None`` for the
    setup, or when hidden from this viewer)."""

    type: Literal["command"]
    command_id: str
    seat: int
    idempotency_key: str | None
    command: Any
    # format 2 only
    idempotency_key_digest: str | None = None
    command_payload: str | None = None
    hidden: list[Literal["command", "idempotency_key"]] = []


class EventLine(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """An event: its envelope fields, readable form and base64 payload (``None`` if redacted)."""

    type: Literal["event"]
    seq: int
    kind: str
    schema: int
    ruleset: str
    event: Any
    payload: str | None
    prev_hash: str
    hash: str
    # format 2 only
    redacted: bool = False


@dataclass
class Parsed:
    """A record read line by line: its format, header and the following lines (with their
    1-based line numbers)."""

    format: str
    header: Header
    lines: list[tuple[int, CommandLine | EventLine]]


_FORMAT_2_ONLY = {
    Header: ("seed_commitment_scheme", "viewer", "seed", "nonce"),
    CommandLine: ("idempotency_key_digest", "command_payload", "hidden"),
    EventLine: ("redacted",),
}


#: keys every format-2 line of that kind carries (``command_payload`` is optional: the first
#: format-2 records were written without it; ``seed`` and ``nonce`` only in a judge's header)
_FORMAT_2_REQUIRED = {
    Header: ("seed_commitment_scheme", "viewer"),
    CommandLine: ("idempotency_key_digest", "hidden"),
    EventLine: ("redacted",),
}


def _typed(number: int, data: dict[str, Any], cls: Any, record_format: str) -> Any:
    if record_format == FORMAT_1:
        for name in _FORMAT_2_ONLY[cls]:
            if name in data:
                raise RecordError(
                    f"unknown field {name!r} in an {FORMAT_1} record", number, f"$.{name}"
                )
    else:
        for name in _FORMAT_2_REQUIRED[cls]:
            if name not in data:
                raise RecordError(
                    f"missing field {name!r} (every {FORMAT_2} {cls.__name__} has it)",
                    number,
                    f"$.{name}",
                )
    try:
        return msgspec.convert(data, type=cls)
    except msgspec.ValidationError as error:
        text = str(error)
        path = text.rsplit(" - at `", 1)[1].rstrip("`") if " - at `" in text else ""
        raise RecordError(f"malformed {cls.__name__}: {text}", number, path) from error


def parse_record(lines: Iterable[bytes]) -> Parsed:
    """Read and type-check every line (raises :class:`RecordError` naming the first bad one).

    Trailing empty lines are ignored; an empty line elsewhere is an error.
    """
    raw = list(lines)
    while raw and not raw[-1].strip(b"\n"):
        raw.pop()
    if not raw:
        raise RecordError("the record is empty")
    items: list[dict[str, Any]] = []
    for number, line in enumerate(raw, start=1):
        line = line.rstrip(b"\n")
        if not line:
            raise RecordError("empty line", number)
        try:
            data = msgspec.json.decode(line)
        except msgspec.DecodeError as error:
            raise RecordError(f"not valid UTF-8 JSON ({error})", number) from error
        if not isinstance(data, dict):
            raise RecordError("a line must be a JSON object", number)
        items.append(data)
    record_format = items[0].get("record")
    if record_format not in FORMATS:
        raise RecordError(
            f'not an Annales game record ("record" must be one of {", ".join(FORMATS)})',
            1,
            "$.record",
        )
    assert isinstance(record_format, str)
    for number, (line, data) in enumerate(zip(raw, items, strict=True), start=1):
        try:
            expected = canonical(data, record_format)
        except (TypeError, ValueError, OverflowError, rfc8785.CanonicalizationError) as error:
            raise RecordError(f"cannot be canonicalised ({error})", number) from error
        if expected != line.rstrip(b"\n"):
            raise RecordError(f"not in canonical form ({record_format}): altered?", number)
    header = _typed(1, items[0], Header, record_format)
    if record_format == FORMAT_2:
        _check_viewer(header, items[0])
    parsed: list[tuple[int, CommandLine | EventLine]] = []
    for number, data in enumerate(items[1:], start=2):
        kind = data.get("type")
        if kind == "command":
            parsed.append((number, _typed(number, data, CommandLine, record_format)))
        elif kind == "event":
            parsed.append((number, _typed(number, data, EventLine, record_format)))
        else:
            raise RecordError(
                f'unknown line type {kind!r} ("command" or "event" expected)', number, "$.type"
            )
    return Parsed(record_format, header, parsed)


def _check_viewer(header: Header, data: dict[str, Any]) -> None:
    """A format-2 header names a viewer the record can be for, and carries the seed and
    nonce keys exactly when that viewer is the judge."""
    viewer = header.viewer or ""
    seats = [f"seat {n}" for n in range(len(header.seats))]
    if viewer not in ("spectator", "judge", "full", *seats):
        raise RecordError(
            f"viewer {viewer!r} is none of spectator, judge, full, seat 0..{len(seats) - 1}",
            1,
            "$.viewer",
        )
    for name in ("seed", "nonce"):
        if (name in data) != (viewer == "judge"):
            where = "missing from" if viewer == "judge" else "not allowed in"
            raise RecordError(f"{name!r} is {where} a {viewer} record's header", 1, f"$.{name}")


def parse_lines(lines: Iterable[bytes]) -> list[dict[str, Any]]:
    """The JSON objects of lines written with ``msgspec.json`` (format 1's canonical form:
    compact, keys in written order), each checked to be in that form; raises
    :class:`RecordError` naming the first bad line. Tournament records use it."""
    parsed: list[dict[str, Any]] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip(b"\n")
        if not line:
            continue
        try:
            data = msgspec.json.decode(line)
        except msgspec.DecodeError as error:
            raise RecordError(f"not valid JSON ({error})", number) from error
        if not isinstance(data, dict) or msgspec.json.encode(data) != line:
            raise RecordError("not in canonical form (altered?)", number)
        parsed.append(data)
    if not parsed:
        raise RecordError("the record is empty")
    return parsed
