"""Fuzz cases of malformed records for VerifyRecord.

A real record (an old one from ``tests/audit/fixtures``, or a record of today's format made
once per process) is changed structurally: a key renamed (``"card"`` → ``"bard"`` in a
command), a value of the wrong type, the JSON truncated, a line duplicated, moved, removed or
added, a line re-encoded (Latin-1, UTF-16, CRLF, a BOM) — each line re-canonicalised or left
as it is. The server must answer OK with a typed outcome (never INTERNAL/UNKNOWN); the
property test ``tests/audit/test_record_fuzz.py`` checks the verifier directly.
"""

from __future__ import annotations

import functools
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from annales.v1 import annales_pb2 as pb
from hypothesis import strategies as st

FIXTURE = Path(__file__).parent.parent / "audit" / "fixtures" / "riseandfall-unfinished-seat0.jsonl"
KINDS = ("rename", "retype", "truncate", "duplicate", "remove", "insert", "encoding", "swap")
ODD_VALUES: tuple[Any, ...] = (None, True, 0, -1, 2**63, 1.5, "", "x", [], {}, [1], {"a": 1})


@functools.cache
def base_records() -> tuple[bytes, ...]:
    """The records mutated: an old (format 1) one and one of today's format."""
    from domain.bots import make_bot
    from service.api.redaction import RecordRequest, Redactor
    from service.app.application import GameService
    from service.app.autoplay import play_with_bots
    from service.store.config import StoreConfig
    from service.store.eventstore import EventStore

    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(StoreConfig(kind="sqlite", path=str(Path(tmp) / "fuzz.db")))
        service = GameService(store)
        game_id = service.create_game("riseandfall", {}, ["a", "b", "c"], b"fuzz-records").game_id
        bots = {i: make_bot("random", bytes([i])) for i in range(3)}
        play_with_bots(service, game_id, bots, max_commands=60)  # type: ignore[arg-type]
        today, _ = Redactor(service).outgoing(game_id, 1, RecordRequest())
        store.close()
    return FIXTURE.read_bytes(), today


@dataclass(frozen=True)
class Mutation:
    """One structural change: ``kind`` (see :data:`KINDS`) at line ``line`` (modulo the
    record), key ``key`` / position ``at`` (modulo their range), value ``value``, and whether
    the changed line is re-canonicalised (so it passes the canonical-form check)."""

    kind: str
    record: int
    line: int
    at: int
    value: Any
    text: str
    canonical: bool


def mutations() -> st.SearchStrategy[Mutation]:
    """Drawn structural mutations."""
    return st.builds(
        Mutation,
        st.sampled_from(KINDS),
        st.integers(0, 1),
        st.integers(0, 10_000),
        st.integers(0, 10_000),
        st.sampled_from(ODD_VALUES),
        st.sampled_from(["bard", "", "type", "seq", "hash", "x" * 40]),
        st.booleans(),
    )


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    paths = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, inner in value.items():
            paths += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            paths += _paths(inner, (*prefix, index))
    return paths


def _set(root: Any, path: tuple[Any, ...], value: Any, rename: str | None) -> None:
    parent = root
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if rename is not None and isinstance(parent, dict):
        parent[rename] = parent.pop(last)
    else:
        parent[last] = value


def apply(mutation: Mutation) -> bytes:
    """The mutated record."""
    from service.audit.format import FORMAT_1, canonical

    record = base_records()[mutation.record]
    lines = record.rstrip(b"\n").split(b"\n")
    index = mutation.line % len(lines)
    line = lines[index]
    kind = mutation.kind
    if kind in ("rename", "retype"):
        data = msgspec.json.decode(line)
        paths = _paths(data)
        if paths:
            path = paths[mutation.at % len(paths)]
            _set(data, path, mutation.value, mutation.text if kind == "rename" else None)
        fmt = FORMAT_1 if b'"annales.game/1"' in lines[0] else "2"
        lines[index] = canonical(data, fmt) if mutation.canonical else msgspec.json.encode(data)
    elif kind == "truncate":
        lines[index] = line[: mutation.at % max(len(line), 1)]
        lines = lines[: index + 1]
    elif kind == "duplicate":
        lines.insert(mutation.at % len(lines), line)
    elif kind == "remove":
        del lines[index]
    elif kind == "insert":
        extra = msgspec.json.encode({"type": mutation.text or "event", "value": mutation.value})
        lines.insert(index, extra)
    elif kind == "encoding":
        text = line.decode()
        choices = (
            text.encode("latin-1", "replace") + b"\xe9",
            text.encode("utf-16"),
            line + b"\r",
            b"\xef\xbb\xbf" + line,
        )
        lines[index] = choices[mutation.at % len(choices)]
    elif kind == "swap":
        other = mutation.at % len(lines)
        lines[index], lines[other] = lines[other], lines[index]
    return b"\n".join(lines) + b"\n"


def record_calls() -> st.SearchStrategy[Any]:
    """VerifyRecord calls with a structurally mutated record (see the module docstring)."""
    from tests.fuzz.cases import Call, Creds, Target

    return st.builds(
        Call,
        st.just("/annales.v1.GameService/VerifyRecord"),
        mutations().map(lambda m: pb.VerifyRecordRequest(record=apply(m))),
        st.just(Target("none")),
        st.just(Creds("none")),
    )
