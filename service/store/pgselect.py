"""PostgreSQL reads of one game's events with their statements composed once.

Every per-game RPC on a shared PostgreSQL store checks the cached head against the store (one
indexed query, ``GameService.request_scope``): ``EventStore.read(game, after=version)``,
usually empty. The eventsourcing recorder's ``select_events`` composes its statement anew at
each call (``psycopg.sql.Composed`` concatenations, then the conversion of the composed query
to bytes inside ``execute``): on the write path's profile more CPU than the query itself.
:class:`PreparedSelect` runs the very same statement — built by the same rules, for each of
the few shapes of the call — composed and converted once, then sent as bytes (psycopg caches
the parsed form of a bytes query, and ``prepare=True`` keeps the server-side prepared
statement as before). Same rows, same ``StoredEvent`` values.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.utils import retry

#: (gt given, lte given, descending, limit given)
_Shape = tuple[bool, bool, bool, bool]


class PreparedSelect:
    """``select_events`` of a ``PostgresAggregateRecorder`` (or application recorder), with
    one composed statement per shape of the call."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self.datastore = recorder.datastore
        self._statements: dict[_Shape, bytes] = {}
        self._guard = threading.Lock()

    def _statement(self, shape: _Shape, connection: Any) -> bytes:
        with self._guard:
            found = self._statements.get(shape)
        if found is not None:
            return found
        from psycopg.sql import SQL

        gt, lte, desc, limit = shape
        statement = self.recorder.select_events_statement  # "SELECT * ... originator_id = %s"
        if gt:
            statement += SQL(" AND originator_version > %s")
        if lte:
            statement += SQL(" AND originator_version <= %s")
        statement += SQL(" ORDER BY originator_version")
        statement += SQL(" DESC") if desc else SQL(" ASC")
        if limit:
            statement += SQL(" LIMIT %s")
        data: bytes = statement.as_bytes(connection)
        with self._guard:
            self._statements[shape] = data
        return data

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def __call__(
        self,
        originator_id: str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        """The events of ``originator_id`` with ``gt < version <= lte``, in version order
        (``desc``: newest first), at most ``limit`` — as the recorder's ``select_events``."""
        params: list[Any] = [originator_id]
        if gt is not None:
            params.append(gt)
        if lte is not None:
            params.append(lte)
        if limit is not None:
            params.append(limit)
        shape = (gt is not None, lte is not None, desc, limit is not None)
        with self.datastore.get_connection() as connection, connection.cursor() as cursor:
            cursor.execute(self._statement(shape, connection), params, prepare=True)
            return [
                StoredEvent(
                    originator_id=row["originator_id"],
                    originator_version=row["originator_version"],
                    topic=row["topic"],
                    state=bytes(row["state"]),
                )
                for row in cursor.fetchall()
            ]
