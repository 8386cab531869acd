"""PostgreSQL appends in one round trip (``service/store/pginsert.py``): the same rows,
ids, notifications and errors as the recorder's own insert; with ``lock=True``, under the
same ``EXCLUSIVE`` lock (without it: ``tests/service/test_feed.py``)."""

from __future__ import annotations

import dataclasses
import threading
import time

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError
from eventsourcing.persistence import StoredEvent as RecordedEvent

from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.store.pginsert import PreparedInsert
from tests.pg import pg_config

__all__ = ["pg_config"]

pytestmark = pytest.mark.postgres


def _record(game: str, seq: int, data: bytes = b"x") -> RecordedEvent:
    return RecordedEvent(game, seq, "annales:Test", data)


def _connect(
    config: StoreConfig, autocommit: bool = True
) -> psycopg.Connection[tuple[object, ...]]:
    return psycopg.connect(
        host=config.pg_host, port=config.pg_port, user=config.pg_user,
        dbname=config.pg_dbname, autocommit=autocommit,
    )  # fmt: skip


def test_prepared_insert_stores_what_the_recorder_stores(pg_config: StoreConfig) -> None:
    """Rows and notification ids in order, interleaving with the recorder's own inserts; a
    duplicate ``(game, seq)`` raises the recorder's ``IntegrityError`` and commits nothing of
    its transaction; the pooled connection serves the next insert; every commit is announced
    on the recorder's channel."""
    store = EventStore(dataclasses.replace(pg_config, group_commit=False))
    insert = PreparedInsert(store.events)
    try:
        with _connect(pg_config) as listener:
            listener.execute(f'LISTEN "{store.events.channel_name}"')
            first = insert([_record("a", 1, b"one"), _record("b", 1, b"two")])
            second = store.events.insert_events([_record("a", 2)])
            assert len(first) == 2 and first[0] < first[1] < second[0]
            with pytest.raises(IntegrityError):
                insert([_record("c", 1), _record("a", 1)])
            assert store.events.select_events("c") == []
            third = insert([_record("c", 1, b"three")])
            assert third[0] > second[0]
            notes = store.events.select_notifications(1, 10)
            assert [(n.originator_id, n.originator_version, n.state) for n in notes] == [
                ("a", 1, b"one"), ("b", 1, b"two"), ("a", 2, b"x"), ("c", 1, b"three"),
            ]  # fmt: skip
            assert [n.id for n in notes] == [*first, *second, *third]
            heard = list(listener.notifies(timeout=2.0, stop_after=3))
            assert len(heard) == 3  # one per committed transaction (the failed one: none)
            assert insert([]) == []
    finally:
        store.close()


def test_prepared_insert_takes_the_recorders_table_lock(pg_config: StoreConfig) -> None:
    """With ``lock=True``, while another session holds the events table ``IN EXCLUSIVE
    MODE`` the insert waits (it takes the same lock, so notification ids stay in commit
    order), and it commits once the lock is released."""
    store = EventStore(dataclasses.replace(pg_config, group_commit=False))
    insert = PreparedInsert(store.events, lock=True)
    assert insert._lock  # SET LOCAL lock_timeout; LOCK TABLE
    done: list[list[int]] = []
    try:
        with _connect(pg_config, autocommit=False) as holder:
            holder.execute("LOCK TABLE stored_events IN EXCLUSIVE MODE")
            thread = threading.Thread(target=lambda: done.append(insert([_record("l", 1)])))
            thread.start()
            time.sleep(0.5)
            assert done == []  # blocked on the lock
            assert store.events.select_events("l") == []
            holder.rollback()
        thread.join(10)
        assert len(done) == 1 and len(done[0]) == 1
        assert [r.originator_version for r in store.events.select_events("l")] == [1]
    finally:
        store.close()


def test_the_postgres_store_appends_through_the_prepared_insert(pg_config: StoreConfig) -> None:
    """The store's appends, grouped or not, go through :class:`PreparedInsert`; a conflict
    is still the application's ``VersionConflict``."""
    from service.app.application import GameService
    from service.app.errors import VersionConflict

    for grouped in (True, False):
        store = EventStore(dataclasses.replace(pg_config, group_commit=grouped))
        try:
            assert isinstance(store._insert, PreparedInsert)
            service = GameService(store)
            created = service.create_game("riseandfall", {}, ["a", "b"], f"p{grouped}".encode())
            envelopes = store.read(created.game_id)
            with pytest.raises(VersionConflict):
                store.append(envelopes[-1:])
        finally:
            store.close()
