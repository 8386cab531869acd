"""SQLite appends on a connection of their own, without the connection pool's bookkeeping.

The eventsourcing recorder's ``insert_events`` takes a connection from its pool for every
transaction (a fairness semaphore, the writer lock, age checks, and the cursor and
transaction wrappers around ``sqlite3``): measured on this project's 2-core machine, about
0.2 ms of CPU for a two-event command, half of it spent before the first ``INSERT``. With one
command in flight every command pays it whole (a batch of the group commit shares it).

:class:`DirectInsert` runs the same transaction — the recorder's own ``INSERT`` statement, one
row per event in order, each row's ``rowid`` as its notification id, then ``COMMIT`` — on one
``sqlite3`` connection opened like the pool's (same file, same busy timeout, WAL, SQLite's
default ``synchronous=FULL``), and takes the pool's writer lock for it, so that it never runs
beside another write of this process (snapshots, seeds, tokens): the writes of one process
stay one at a time, as they are through the pool. The transaction starts with
``BEGIN IMMEDIATE`` (the file's write lock first, waiting up to the busy timeout for another
process's writer). A failed statement rolls everything back and is raised as the recorder
raises it (``eventsourcing.persistence.IntegrityError`` for a ``(game, seq)`` already stored).
An in-memory database is private to its connection: there the recorder's own path is kept.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from typing import Any

from eventsourcing import persistence

#: sqlite3's errors as the eventsourcing recorders raise them (most specific first)
_ERRORS: tuple[tuple[type[sqlite3.Error], type[Exception]], ...] = (
    (sqlite3.IntegrityError, persistence.IntegrityError),
    (sqlite3.OperationalError, persistence.OperationalError),
    (sqlite3.DataError, persistence.DataError),
    (sqlite3.InterfaceError, persistence.InterfaceError),
    (sqlite3.InternalError, persistence.InternalError),
    (sqlite3.ProgrammingError, persistence.ProgrammingError),
    (sqlite3.NotSupportedError, persistence.NotSupportedError),
    (sqlite3.DatabaseError, persistence.DatabaseError),
)

#: sqlite3's own busy timeout, used by the pool when none is configured
DEFAULT_TIMEOUT = 5.0


def direct_insert(recorder: Any) -> Any:
    """A :class:`DirectInsert` for a file database, else the recorder's ``insert_events``."""
    if recorder.datastore.pool.is_sqlite_memory_mode:
        return recorder.insert_events
    return DirectInsert(recorder)


class DirectInsert:
    """``insert_events`` of a ``SQLiteApplicationRecorder`` on a dedicated connection."""

    def __init__(self, recorder: Any) -> None:
        pool = recorder.datastore.pool
        #: the lock every writing connection of the pool holds while it is out
        self._writer: threading.Lock = pool._writer_lock
        self._statement: str = recorder.insert_events_statement
        self._connection = sqlite3.connect(
            pool.db_name,
            uri=True,
            check_same_thread=False,  # used by one thread at a time, under the writer lock
            isolation_level=None,  # transactions are begun and committed here
            timeout=pool.lock_timeout or DEFAULT_TIMEOUT,
        )

    def __call__(self, records: Sequence[Any]) -> list[int]:
        """Insert ``records`` (eventsourcing ``StoredEvent``) in one transaction; their
        notification ids, in order."""
        rows = [(r.originator_id, r.originator_version, r.topic, r.state) for r in records]
        with self._writer:
            connection = self._connection
            cursor = connection.cursor()
            try:
                cursor.execute("BEGIN IMMEDIATE")
                ids = []
                for row in rows:
                    cursor.execute(self._statement, row)
                    ids.append(int(cursor.lastrowid or 0))
                cursor.execute("COMMIT")
            except sqlite3.Error as error:
                if connection.in_transaction:
                    connection.rollback()
                raise _translated(error) from error
            finally:
                cursor.close()
        return ids

    def setting(self, pragma: str) -> str:
        """The value of ``PRAGMA <pragma>`` on the connection that commits the events."""
        with self._writer:
            row = self._connection.execute(f"PRAGMA {pragma}").fetchone()
        return str(row[0])

    def close(self) -> None:
        """Close the connection."""
        with self._writer:
            self._connection.close()


def _translated(error: sqlite3.Error) -> Exception:
    """``error`` as the eventsourcing recorder would raise it."""
    for raw, mapped in _ERRORS:
        if isinstance(error, raw):
            return mapped(error)
    return persistence.PersistenceError(error)
