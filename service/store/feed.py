"""The store's feed: every stored event once, in an order that no later commit can go behind.

Read models and the watchers of other servers follow the whole log from a *position* they
keep. The position must only ever move forward over rows that are final: a row committed
later must never land behind it, or a follower would skip it for good.

* **SQLite** has one writer at a time: rows are numbered (``rowid``, the notification id)
  under the file's write lock and committed in that order, so the feed is the notification
  log itself and a position is ``(0, notification id)``.
* **PostgreSQL** servers insert without a lock shared by all games (``PreparedInsert``), so
  notification ids (a sequence, drawn at insert time) can be committed out of order. Each
  row also stores the id of the transaction that wrote it, ``xact``
  (``pg_current_xact_id()``, a 64-bit id that never wraps). The feed is ordered by
  ``(xact, notification_id)`` and a reader only takes rows whose ``xact`` is below the
  ``xmin`` of its own snapshot: every transaction below it has ended, and any transaction
  that has not written yet will get a larger id, so no row can appear behind a position read
  that way. A game's rows keep their order (its next command is decided after its previous
  commit returned, so its transaction gets a larger id). The price: a transaction left open
  anywhere on the PostgreSQL server holds every feed back until it ends.

Positions compare as tuples; ``START`` is before every row. Tables created before the
``xact`` column existed get it on start (:func:`migrate_postgres`): their rows all take the
migrating transaction's id, so they keep their notification order; so do rows restored from
another cluster whose transaction ids are ahead of this one's.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from service.store.config import StoreConfig

#: a place in the feed: (writing transaction, notification id); SQLite rows have transaction 0
Position = tuple[int, int]
#: before every row
START: Position = (0, 0)
#: the PostgreSQL column holding each row's transaction id, and its index
XACT_COLUMN = "xact"
#: ``xmin`` of the reader's snapshot, as a bigint: every transaction below it has ended
_SAFE_BELOW = "pg_snapshot_xmin(pg_current_snapshot())::text::bigint"


@dataclass(frozen=True)
class FeedNote:
    """One stored event as the feed delivers it (the fields of an eventsourcing
    ``Notification``, plus its transaction)."""

    id: int
    xact: int
    originator_id: str
    originator_version: int
    topic: str
    state: bytes

    @property
    def position(self) -> Position:
        """Where this row is in the feed."""
        return (self.xact, self.id)

    @classmethod
    def of_notification(cls, note: Any) -> FeedNote:
        """An eventsourcing ``Notification`` of a SQLite store (transaction 0)."""
        return cls(int(note.id), 0, str(note.originator_id), int(note.originator_version),
                   note.topic, bytes(note.state))  # fmt: skip


class SQLiteFeed:
    """The feed of a SQLite store: the notification log, in notification id order."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder

    def after(self, position: Position, limit: int) -> list[FeedNote]:
        """At most ``limit`` rows after ``position``, in feed order."""
        notes = self.recorder.select_notifications(position[1] + 1, limit)
        return [FeedNote.of_notification(note) for note in notes]

    def head(self) -> Position:
        """The position of the last row stored (``START`` when empty)."""
        return (0, int(self.recorder.max_notification_id() or 0))


class PostgresFeed:
    """The feed of a PostgreSQL store, ordered by ``(xact, notification_id)`` and read below
    the reader's snapshot ``xmin`` (see the module docstring)."""

    def __init__(self, recorder: Any, schema: str, config: StoreConfig) -> None:
        self.datastore = recorder.datastore
        self.config = config
        self.channel: str = recorder.channel_name
        self.table = f'"{schema}"."{recorder.events_table_name}"'
        self._after = rows_after_statement(
            self.table, "notification_id, xact, originator_id, originator_version, topic, state"
        )
        self._head = (
            f"SELECT {XACT_COLUMN}, notification_id FROM {self.table} "
            f"ORDER BY {XACT_COLUMN} DESC, notification_id DESC LIMIT 1"
        )

    def after(self, position: Position, limit: int) -> list[FeedNote]:
        """At most ``limit`` final rows after ``position``, in feed order."""
        with self.datastore.get_connection() as connection, connection.cursor() as cursor:
            cursor.execute(self._after, (position[0], position[1], limit), prepare=True)
            rows = cursor.fetchall()
        return [
            FeedNote(int(r["notification_id"]), int(r["xact"]), str(r["originator_id"]),
                     int(r["originator_version"]), r["topic"], bytes(r["state"]))
            for r in rows
        ]  # fmt: skip

    def head(self) -> Position:
        """The position of the last row committed (``START`` when empty); a follower has
        seen everything committed so far once its position reaches it."""
        with self.datastore.get_connection() as connection, connection.cursor() as cursor:
            cursor.execute(self._head, prepare=True)
            row = cursor.fetchone()
        return START if row is None else (int(row[XACT_COLUMN]), int(row["notification_id"]))

    @contextlib.contextmanager
    def listen(self) -> Iterator[Any]:
        """A psycopg connection of its own listening on the events table's channel (every
        insert sends ``NOTIFY`` there; wait with ``connection.notifies(timeout=...)``),
        closed on exit."""
        from psycopg import sql

        with self.config.pg_connect() as connection:
            connection.execute(sql.SQL("LISTEN {0}").format(sql.Identifier(self.channel)))
            yield connection


def rows_after_statement(table: str, columns: str) -> str:
    """``SELECT columns`` of the final rows after a position ``(%s, %s)``, ``LIMIT %s``, in
    feed order (for :class:`PostgresFeed` and the other servers' watchers)."""
    return (
        f"SELECT {columns} FROM {table} "
        f"WHERE ({XACT_COLUMN}, notification_id) > (%s, %s) AND {XACT_COLUMN} < {_SAFE_BELOW} "
        f"ORDER BY {XACT_COLUMN}, notification_id LIMIT %s"
    )


def migrate_postgres(connection: Any, table: str, index: str) -> None:
    """Give the events table its ``xact`` column (each row's transaction id, filled in by
    default) and the feed's index, where they are missing (idempotent; the caller holds the
    schema lock)."""
    connection.execute(
        f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {XACT_COLUMN} bigint NOT NULL "
        "DEFAULT (pg_current_xact_id()::text::bigint)"
    )
    connection.execute(
        f"CREATE INDEX IF NOT EXISTS {index} ON {table} ({XACT_COLUMN}, notification_id)"
    )
    # Rows restored from another cluster (a pg_dump) keep that cluster's transaction ids: those
    # ahead of this cluster's counter would stay above every snapshot's xmin, and the feed would
    # never deliver them. They take this transaction's id, like the rows of an old table
    # (ordered among themselves by notification id, which keeps each game's order). No follower
    # can be past them: while this transaction runs, no xmin is above its id.
    current = "pg_current_xact_id()::text::bigint"
    connection.execute(
        f"UPDATE {table} SET {XACT_COLUMN} = {current} WHERE {XACT_COLUMN} >= {current}"
    )
