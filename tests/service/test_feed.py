"""The store's feed (``service/store/feed.py``) on PostgreSQL, where inserts take no lock
shared by all games: commits out of notification-id order are delivered once each and never
behind a position already read; a table from before the ``xact`` column is migrated; the
insert waits for nobody (and, with ``ANNALES_PG_TABLE_LOCK=1``, takes the table lock)."""

from __future__ import annotations

import dataclasses
import threading
import time

import psycopg
import pytest
from eventsourcing.persistence import StoredEvent as RecordedEvent

from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.store.feed import START, Position
from service.store.pginsert import PreparedInsert
from tests.pg import pg_config

__all__ = ["pg_config"]

pytestmark = pytest.mark.postgres


def _record(game: str, seq: int) -> RecordedEvent:
    return RecordedEvent(game, seq, "annales:Test", f"{game}{seq}".encode())


def _connect(config: StoreConfig) -> psycopg.Connection[tuple[object, ...]]:
    """A connection of its own, in a transaction until it commits or rolls back."""
    return psycopg.connect(
        host=config.pg_host, port=config.pg_port, user=config.pg_user,
        dbname=config.pg_dbname, autocommit=False,
    )  # fmt: skip


def _insert_open(connection: psycopg.Connection[tuple[object, ...]], game: str) -> int:
    """Insert one row in the connection's open transaction; its notification id."""
    row = connection.execute(
        "INSERT INTO stored_events (originator_id, originator_version, topic, state) "
        "VALUES (%s, 1, 'annales:Test', %s) RETURNING notification_id",
        (game, game.encode()),
    ).fetchone()
    assert row is not None
    return int(str(row[0]))


def _games(store: EventStore, after: Position = START) -> list[str]:
    return [note.originator_id for note in store.feed_after(after, 100)]


def test_a_row_committed_after_a_later_id_is_neither_skipped_nor_delivered_twice(
    pg_config: StoreConfig,
) -> None:
    """A transaction draws notification id n and stays open; another draws n+1 and commits.
    A reader following ids would read n+1, move past n and lose it for good when it commits.
    The feed holds n+1 back while n's transaction runs, then delivers n, n+1, once each."""
    store = EventStore(dataclasses.replace(pg_config, group_commit=False))
    insert = PreparedInsert(store.events)
    try:
        insert([_record("before", 1)])
        assert _games(store) == ["before"]
        position = store.feed_after(START, 100)[-1].position
        with _connect(pg_config) as slow:
            early = _insert_open(slow, "slow")
            (late,) = insert([_record("fast", 1)])  # commits first, with the larger id
            assert early < late
            assert _games(store, position) == []  # held back: "slow" may still commit
            assert [r.originator_id for r in store.events.select_events("fast")] == ["fast"]
            slow.commit()
        notes = store.feed_after(position, 100)
        assert [(n.originator_id, n.id) for n in notes] == [("slow", early), ("fast", late)]
        assert [n.position for n in notes] == sorted(n.position for n in notes)
        assert store.feed_after(notes[-1].position, 100) == []
        assert store.feed_head() == notes[-1].position
    finally:
        store.close()


def test_the_feed_orders_by_transaction_not_by_id(pg_config: StoreConfig) -> None:
    """A transaction that began writing first but drew its id last comes first in the feed:
    its rows sort by the transaction that wrote them, and a rolled-back row never appears."""
    store = EventStore(dataclasses.replace(pg_config, group_commit=False))
    insert = PreparedInsert(store.events)
    try:
        with _connect(pg_config) as first, _connect(pg_config) as gone:
            first.execute("SELECT pg_current_xact_id()")  # its transaction id is drawn now
            _insert_open(gone, "gone")
            (second_id,) = insert([_record("second", 1)])
            first_id = _insert_open(first, "first")
            assert second_id < first_id
            first.commit()
            gone.rollback()
        notes = store.feed_after(START, 100)
        assert [(n.originator_id, n.id) for n in notes] == [
            ("first", first_id), ("second", second_id),
        ]  # fmt: skip
        assert notes[0].xact < notes[1].xact
    finally:
        store.close()


def test_inserts_wait_for_no_other_transaction_unless_the_table_lock_is_asked_for(
    pg_config: StoreConfig,
) -> None:
    """Without the lock, an insert commits while another transaction holds rows of the same
    table uncommitted; with ``ANNALES_PG_TABLE_LOCK=1`` it waits for it, as every server of
    the cluster did behind the recorder's ``LOCK TABLE``."""
    config = dataclasses.replace(pg_config, group_commit=False)
    assert StoreConfig.from_env(config.environment()).pg_table_lock is False
    locked_config = StoreConfig.from_env({**config.environment(), "ANNALES_PG_TABLE_LOCK": "1"})
    assert locked_config.pg_table_lock is True
    store, locked_store = EventStore(config), EventStore(locked_config)
    done: list[list[int]] = []
    try:
        assert isinstance(locked_store._insert, PreparedInsert)
        with _connect(pg_config) as open_writer:
            _insert_open(open_writer, "open")
            started = time.monotonic()
            assert len(store._insert([_record("free", 1)])) == 1
            assert time.monotonic() - started < 5
            thread = threading.Thread(
                target=lambda: done.append(locked_store._insert([_record("locked", 1)]))
            )
            thread.start()
            time.sleep(0.5)
            assert done == []  # waiting for the open writer's transaction
            open_writer.commit()
        thread.join(10)
        assert len(done) == 1
        assert _games(store) == ["open", "free", "locked"]
    finally:
        store.close()
        locked_store.close()


def test_a_table_from_before_the_feed_column_is_migrated_on_start(pg_config: StoreConfig) -> None:
    """Rows stored before the ``xact`` column existed all get the migrating transaction's id
    and keep their notification order; rows stored after come after them."""
    store = EventStore(dataclasses.replace(pg_config, group_commit=False))
    insert = PreparedInsert(store.events)
    old = [insert([_record(f"old{index}", 1)])[0] for index in range(3)]
    store.close()
    with _connect(pg_config) as admin:
        admin.execute("DROP INDEX stored_events_feed_idx")
        admin.execute("ALTER TABLE stored_events DROP COLUMN xact")
        admin.commit()
    store = EventStore(pg_config)
    try:
        (new,) = PreparedInsert(store.events)([_record("new", 1)])
        notes = store.feed_after(START, 100)
        assert [(n.originator_id, n.id) for n in notes] == [
            ("old0", old[0]), ("old1", old[1]), ("old2", old[2]), ("new", new),
        ]  # fmt: skip
        assert len({n.xact for n in notes[:3]}) == 1
        assert store.feed_after(notes[1].position, 1)[0].originator_id == "old2"
    finally:
        store.close()


def test_rows_restored_from_a_cluster_ahead_are_delivered(pg_config: StoreConfig) -> None:
    """A dump restored into a cluster whose transaction counter is behind the rows' ``xact``
    (simulated by moving them 50 million ahead): before, no snapshot's xmin passed them and
    the read models never listed the restored games (an operator's check, 2026-12-07). On
    start they take the migrating transaction's id and are delivered, in their order."""
    store = EventStore(dataclasses.replace(pg_config, group_commit=False))
    insert = PreparedInsert(store.events)
    restored = [insert([_record(f"restored{index}", 1)])[0] for index in range(3)]
    store.close()
    with _connect(pg_config) as admin:
        admin.execute("UPDATE stored_events SET xact = xact + 50000000")
        admin.commit()
    store = EventStore(pg_config)
    try:
        (new,) = PreparedInsert(store.events)([_record("new", 1)])
        notes = store.feed_after(START, 100)
        assert [(n.originator_id, n.id) for n in notes] == [
            ("restored0", restored[0]), ("restored1", restored[1]), ("restored2", restored[2]),
            ("new", new),
        ]  # fmt: skip
    finally:
        store.close()
