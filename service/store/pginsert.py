"""PostgreSQL appends without a lock shared by all games, in one round trip.

The eventsourcing recorder keeps notification ids in commit order by taking the events table
``IN EXCLUSIVE MODE`` in every insert transaction (``PostgresApplicationRecorder._lock_table``),
so the lock is the one serialisation point of every server sharing the database: their
commits, and the flush each waits for, happen one at a time. Our followers do not need ids in
commit order — they read the feed of :mod:`service.store.feed`, ordered by each row's
transaction id below their snapshot's ``xmin`` — so :class:`PreparedInsert` takes no such lock
by default: the transactions of several servers commit side by side and can share WAL
flushes, and per-game order rests on the unique ``(game, seq)`` key alone. With
``lock=True`` (``ANNALES_PG_TABLE_LOCK=1``, for comparison) it takes the recorder's lock, and
holds it for the INSERT and the COMMIT only. The recorder's
``insert_events`` sends ``BEGIN`` and the ``LOCK`` first, *then* builds the rows (a composite
value per event, in Python) and waits for the INSERT's result before it sends ``COMMIT`` — two
round trips and Python work, each needing the interpreter lock, while the table lock is held:
with dozens of RPC threads in the process, the holder waits its turn for the interpreter lock
between the statements, and every server of the cluster waits with it.

:class:`PreparedInsert` does the same transaction in the same order — ``BEGIN``, (with
the lock: the recorder's own ``SET LOCAL lock_timeout`` and ``LOCK TABLE``), ``NOTIFY`` on the
recorder's channel (which the watchers of every server follow), the recorder's own INSERT statement
(``RETURNING notification_id``), ``COMMIT`` — but builds every row before, and sends all the
statements in one pipeline with one synchronisation: the server runs them back to back, so the
lock is held for the INSERT and the COMMIT's flush only, whatever the Python process does
meanwhile. When a statement fails (a duplicate ``(game, seq)``: another process stored that
version first) nothing is committed, the transaction is rolled back and the error is raised
as the recorder raises it (``eventsourcing.persistence.IntegrityError``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.utils import retry


class PreparedInsert:
    """``insert_events`` of a ``PostgresApplicationRecorder``, with the rows built before the
    transaction and the whole transaction sent in one round trip."""

    def __init__(self, recorder: Any, lock: bool = False) -> None:
        from psycopg.sql import SQL, Identifier

        self.recorder = recorder
        self.datastore = recorder.datastore
        self._begin = SQL("BEGIN")
        #: SET LOCAL lock_timeout; LOCK TABLE (with ``lock``)
        self._lock = list(recorder.lock_table_statements) if lock else []
        self._notify = SQL("NOTIFY {0}").format(Identifier(recorder.channel_name))
        self._insert = recorder.insert_events_statement  # ... RETURNING notification_id
        self._commit = SQL("COMMIT")

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def __call__(self, records: Sequence[Any]) -> list[int]:
        """Insert ``records`` (eventsourcing ``StoredEvent``) in one locked transaction; their
        notification ids, in order."""
        if not records:
            return []
        rows = [
            self.recorder.construct_pg_stored_event(
                r.originator_id, r.originator_version, r.topic, r.state
            )
            for r in records
        ]  # built before any lock is asked for
        with self.datastore.get_connection() as connection:  # maps psycopg errors
            try:
                with connection.pipeline() as pipeline:
                    cursor, insert = connection.cursor(), connection.cursor()
                    cursor.execute(self._begin, prepare=True)
                    for statement in self._lock:
                        cursor.execute(statement, prepare=True)
                    cursor.execute(self._notify, prepare=True)
                    insert.execute(self._insert, (rows,), prepare=True)
                    cursor.execute(self._commit, prepare=True)
                    pipeline.sync()  # the one round trip: the server runs them back to back
                    ids = [row["notification_id"] for row in insert.fetchall()]
            except BaseException:
                _roll_back(connection)
                raise
        if len(ids) != len(records):
            raise RuntimeError(f"{len(ids)} notification ids for {len(records)} events")
        return ids


def _roll_back(connection: Any) -> None:
    """End a failed transaction (its COMMIT was skipped by the server) before the connection
    goes back to the pool."""
    from psycopg.pq import TransactionStatus

    if connection.closed or connection.info.transaction_status == TransactionStatus.IDLE:
        return
    connection.execute("ROLLBACK")
