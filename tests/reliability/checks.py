"""The invariants checked after a crash run, read straight from the store (no server).

:func:`check_store`
    * every write a client was told succeeded is in the store with the same ``(seq, hash)``,
      and every game a client was told was created exists at its announced version;
    * each game's sequence numbers are contiguous from 1, and the global notification log
      holds each ``(game, seq)`` exactly once (no gap, no duplicate);
    * each game's hash chain verifies, and its exported record passes
      :func:`service.audit.records.verify_record` (a finished game is re-executed from its seed);
    * an idempotency key appears on at most one command of a game (nothing applied twice);
    * folds equal a fresh replay: every game materialised from the snapshots the crashed
      servers wrote equals the same game folded from its events alone (snapshots deleted,
      a new :class:`~service.app.application.GameService`).

:func:`check_readmodels`
    the read models the server's runner kept (while being killed) are caught up with the log
    and equal a rebuild from scratch.

:func:`api_answers` reads what a server answers about every game (to compare a long-lived
server's folds with a fresh server's).
"""

from __future__ import annotations

import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from domain.core.envelope import GENESIS, Envelope, verify_link
from projections.runner import rebuild
from projections.schema import APPLICATION_NAME, ReadModelTracking, connect, table_rows
from service.app.application import GameService, get_codec_for_envelope
from service.app.ledger import Ledger
from service.audit.records import export_lines, verify_record
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.store.feed import START, Position
from tests.reliability.player import Journal, Table, call


@dataclass
class StoreReport:
    """What :func:`check_store` found."""

    games: int = 0
    events: int = 0
    acked_events: int = 0
    finished: int = 0
    reexecuted: int = 0
    snapshots_compared: int = 0
    problems: list[str] = field(default_factory=list)


def _fingerprint(ledger: Ledger) -> tuple[int, str, bytes, bytes]:
    match = ledger.match
    return (
        match.version,
        ledger.last_hash,
        ledger.game.encode_state(match.state),
        msgspec.msgpack.encode(match.kernel),
    )


def _notification_counts(store: EventStore) -> Counter[tuple[str, int]]:
    seen: Counter[tuple[str, int]] = Counter()
    start = 1
    while True:
        notes = store.events.select_notifications(start, 1000)
        for note in notes:
            seen[(str(note.originator_id), int(note.originator_version))] += 1
        if len(notes) < 1000:
            return seen
        start = int(notes[-1].id) + 1


def _check_log(game_id: str, envelopes: list[Envelope], report: StoreReport) -> None:
    seqs = [e.seq for e in envelopes]
    if seqs != list(range(1, len(envelopes) + 1)):
        report.problems.append(f"{game_id}: sequence numbers {seqs[:5]}... not contiguous")
    prev = GENESIS
    for envelope in envelopes:
        if not verify_link(envelope, prev):
            report.problems.append(f"{game_id}: hash chain broken at seq {envelope.seq}")
            break
        prev = envelope.hash
    keys = Counter(
        e.idempotency_key for e in envelopes if e.command is not None and e.idempotency_key
    )
    twice = [key for key, times in keys.items() if times > 1]
    if twice:
        report.problems.append(f"{game_id}: idempotency keys applied twice: {twice[:3]}")
    codec = get_codec_for_envelope(envelopes[0])
    lines = export_lines(envelopes, lambda e: codec.decode_event(e.kind, e.schema, e.payload))
    verified = verify_record(lines)
    if not verified.ok:
        report.problems.append(f"{game_id}: record does not verify: {verified.message}")
    if any(e.kind == "SeedRevealed" for e in envelopes):
        report.finished += 1
        report.reexecuted += int(verified.reexecuted)


def check_store(config: StoreConfig, journal: Journal) -> StoreReport:
    """Check the store against what clients were told (see the module docstring)."""
    report = StoreReport()
    store = EventStore(config)
    try:
        ids = store.game_ids()
        logs = {game_id: store.read(game_id) for game_id in ids}
        report.games = len(ids)
        report.events = sum(len(envelopes) for envelopes in logs.values())
        for game_id, envelopes in logs.items():
            _check_log(game_id, envelopes, report)
        seen = _notification_counts(store)
        doubled = [key for key, times in seen.items() if times > 1]
        if doubled:
            report.problems.append(f"notifications recorded twice: {doubled[:5]}")
        if len(seen) != report.events:
            report.problems.append(f"{len(seen)} notifications for {report.events} events")
        for game_id, version in journal.created.items():
            if len(logs.get(game_id, [])) < version:
                report.problems.append(f"created game {game_id} (version {version}) is missing")
        for ack in journal.acks:
            envelopes = logs.get(ack.game_id, [])
            for seq, digest in ack.events:
                report.acked_events += 1
                if seq > len(envelopes) or envelopes[seq - 1].hash != digest:
                    report.problems.append(
                        f"acknowledged {ack.method} {ack.key} lost: {ack.game_id} seq {seq}"
                    )
        cached = {g: _fingerprint(GameService(store).materialise(g)) for g in ids}
        store.delete_snapshots()
        fresh = GameService(store)
        for game_id in ids:
            report.snapshots_compared += 1
            if _fingerprint(fresh.materialise(game_id)) != cached[game_id]:
                report.problems.append(f"{game_id}: the fold from snapshots differs from a replay")
    finally:
        store.close()
    return report


def readmodel_position(path: Path) -> Position:
    """The feed position the read models at ``path`` have applied (``START`` if none)."""
    if not path.exists():
        return START
    db = connect(str(path))
    try:
        return ReadModelTracking(db).position(APPLICATION_NAME) or START
    except Exception:  # being created
        return START
    finally:
        db.close()


def check_readmodels(config: StoreConfig, path: Path) -> list[str]:
    """Problems of the read models at ``path``: behind the log, or different from a rebuild."""
    store = EventStore(config)
    problems: list[str] = []
    scratch = path.parent / (path.name + ".check")
    scratch.mkdir(exist_ok=True)
    try:
        head = store.feed_head()
        position = readmodel_position(path)
        if position != head:
            problems.append(f"read models at {position}, the log at {head}")
        rebuilt = scratch / "rebuilt.db"
        rebuild(store, str(rebuilt))
        kept, fresh = connect(str(path)), connect(str(rebuilt))
        try:
            if table_rows(kept) != table_rows(fresh):
                problems.append("the read models differ from a rebuild")
        finally:
            kept.close()
            fresh.close()
    finally:
        store.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return problems


def api_answers(
    stub: annales_pb2_grpc.GameServiceStub, game_ids: list[str], tables: dict[str, Table]
) -> dict[str, list[bytes]]:
    """What the server answers about each game: GetGame, then GetView for every seat whose
    token a client holds (serialized deterministically)."""
    answers: dict[str, list[bytes]] = {}
    journal = Journal()  # calls wait for the server (a loaded machine may be slow to accept)
    for game_id in game_ids:
        got: Any
        got, _ = call(journal, "GetGame", stub.GetGame, pb.GetGameRequest(game_id=game_id))
        found = [got.SerializeToString(deterministic=True)]
        table = tables.get(game_id)
        for seat in range(len(table.tokens) if table else 0):
            assert table is not None
            request = pb.GetViewRequest(game_id=game_id)
            view, _ = call(journal, "GetView", stub.GetView, request, table.md(seat))
            found.append(view.SerializeToString(deterministic=True))
        answers[game_id] = found
    return answers
