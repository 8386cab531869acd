"""SQLite appends on their own connection (``service/store/sqliteinsert.py``): the rows and
notification ids the recorder itself would store, all-or-nothing batches with the recorder's
errors, one writer at a time within the process, waiting for another process's writer, and
the durability read from the connection that commits."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest
from eventsourcing.persistence import IntegrityError
from eventsourcing.persistence import StoredEvent as RecordedEvent

from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.store.sqliteinsert import DirectInsert, direct_insert


def _rows(path: Path) -> list[tuple[object, ...]]:
    """Every stored event of the file as an independent connection reads it."""
    with sqlite3.connect(path) as db:
        return db.execute("SELECT rowid, * FROM stored_events ORDER BY rowid").fetchall()


def _records(game: str, first: int, count: int) -> list[RecordedEvent]:
    return [
        RecordedEvent(game, seq, f"annales:Kind{seq}", bytes([seq % 256]) * (seq * 7))
        for seq in range(first, first + count)
    ]


def _store(path: Path) -> EventStore:
    return EventStore(StoreConfig(kind="sqlite", path=str(path), group_commit=False))


def test_the_sqlite_store_inserts_on_its_own_connection(tmp_path: Path) -> None:
    """A file store appends through :class:`DirectInsert`; an in-memory database (private to
    each connection) keeps the recorder's own path."""
    store = _store(tmp_path / "file.db")
    memory = EventStore(StoreConfig(kind="sqlite", path="file::memory:?cache=shared"))
    try:
        assert isinstance(store._insert, DirectInsert)
        assert direct_insert(memory.events) == memory.events.insert_events
    finally:
        store.close()
        memory.close()


def test_same_rows_and_ids_as_the_recorder(tmp_path: Path) -> None:
    """The same batches stored by the recorder in one file and by :class:`DirectInsert` in
    another give the same rows, byte for byte, and the same notification ids."""
    by_recorder, direct = _store(tmp_path / "a.db"), _store(tmp_path / "b.db")
    batches = [_records("g1", 1, 3), _records("g2", 1, 1), _records("g1", 4, 5)]
    try:
        for batch in batches:
            expected = by_recorder.events.insert_events(batch)
            assert direct._insert(batch) == list(expected)
    finally:
        by_recorder.close()
        direct.close()
    assert _rows(tmp_path / "a.db") == _rows(tmp_path / "b.db")
    assert len(_rows(tmp_path / "b.db")) == 9


def test_a_duplicate_stores_nothing_of_its_batch(tmp_path: Path) -> None:
    """A batch holding an existing ``(game, seq)`` raises the recorder's ``IntegrityError``,
    stores none of its rows (those before the duplicate included), and the connection goes on
    working; the store answers ``VersionConflict`` through ``append`` as before."""
    path = tmp_path / "dup.db"
    store = _store(path)
    try:
        store._insert(_records("g", 1, 2))
        before = _rows(path)
        with pytest.raises(IntegrityError):
            store._insert([*_records("h", 1, 2), *_records("g", 2, 1)])
        assert _rows(path) == before
        assert len(store._insert(_records("g", 3, 1))) == 1
        assert [row[2] for row in _rows(path)] == [1, 2, 3]
    finally:
        store.close()


def test_one_writer_at_a_time_within_the_process(tmp_path: Path) -> None:
    """Event inserts on the own connection and the pool's writes (snapshots) from many
    threads at once: every one is stored, none fails with a locked database."""
    path = tmp_path / "threads.db"
    store = _store(path)
    errors: list[BaseException] = []

    def work(index: int) -> None:
        try:
            for step in range(20):
                store._insert(_records(f"game-{index}", 2 * step + 1, 2))
                store.save_snapshot(f"game-{index}", 2 * step + 2, b"snapshot")
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert not errors, errors
        assert len(_rows(path)) == 8 * 40
        assert store.latest_snapshot("game-3") == (40, b"snapshot")
    finally:
        store.close()


def test_waits_for_another_process_writer(tmp_path: Path) -> None:
    """While another connection holds the file's write lock, an insert waits (the busy
    timeout) and is stored once that writer commits — it neither fails nor overtakes it."""
    path = tmp_path / "busy.db"
    store = _store(path)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute(
            "INSERT INTO stored_events VALUES (?, ?, ?, ?)", ("other", 1, "annales:T", b"o")
        )
        done = threading.Event()
        result: list[object] = []

        def insert() -> None:
            result.append(store._insert(_records("mine", 1, 1)))
            done.set()

        thread = threading.Thread(target=insert)
        thread.start()
        time.sleep(0.3)
        assert not done.is_set()  # waiting for the other writer
        other.execute("COMMIT")
        thread.join(10)
        assert done.is_set()
        assert [(row[1], row[2]) for row in _rows(path)] == [("other", 1), ("mine", 1)]
    finally:
        other.close()
        store.close()


def test_durability_is_read_from_the_committing_connection(tmp_path: Path) -> None:
    """WAL and ``synchronous=FULL`` (2) on the connection that commits the events."""
    store = _store(tmp_path / "durable.db")
    try:
        assert store.durability() == {"journal_mode": "wal", "synchronous": "2"}
        assert isinstance(store._insert, DirectInsert)
        assert store._insert.setting("synchronous") == "2"
    finally:
        store.close()
