"""Wake-ups for live streams: a watcher waits until its game's version moves past its own.

The application calls :meth:`Broadcaster.committed` after each durable append (never before),
and watchers then read the new events *from the store*, after the last version they sent —
so a resumed or slow watcher sees every event exactly once, in order. Waits time out
(``poll_seconds``) so that events committed by another process sharing the database are
picked up by polling too.

**Several servers on PostgreSQL.** Every insert sends ``NOTIFY`` on the events table's
channel, whichever server made it. :class:`StoreFollower` (one thread and one connection per
server) listens (``LISTEN``) on that channel and, at each notification (and every
``RECHECK`` seconds), reads the ``(game, version)`` of the rows after its position in the
store's feed (:mod:`service.store.feed`: no row can be committed behind a position read
there, so nothing is missed) — a narrow index scan, no payloads — and wakes the watchers of
those games through :meth:`Broadcaster.moved`. A watcher on one server therefore streams
events committed through another within milliseconds (``make bench`` measures it); the
0.5 s poll remains as the fallback while the listening connection is being re-established.
SQLite has no notifications: a single server owns the file, and several processes on one
file fall back to the poll.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from domain.core.envelope import Envelope
from service.store.feed import Position, rows_after_statement

log = logging.getLogger("annales.watch")

#: seconds between two looks at the feed without a notification (rows held back behind a
#: transaction still running are announced by none)
RECHECK = 0.05


#: games whose newest announced version a broadcaster keeps (the least recently announced go
#: first; a game forgotten reads as version 0, which only costs its next command a check)
VERSIONS_KEPT = 100_000


class Broadcaster:
    """Per-game condition variables signalled on commit.

    Its memory does not grow with the number of games a server ever sees: a game's condition
    lives while a watcher waits on it, and at most :data:`VERSIONS_KEPT` versions are kept.
    """

    def __init__(self, poll_seconds: float = 0.5, versions_kept: int = VERSIONS_KEPT) -> None:
        self.poll_seconds = poll_seconds
        self.versions_kept = versions_kept
        self._lock = threading.Lock()
        self._conditions: weakref.WeakValueDictionary[str, threading.Condition] = (
            weakref.WeakValueDictionary()
        )
        self._versions: OrderedDict[str, int] = OrderedDict()
        self._closed = False

    def _condition(self, game_id: str) -> threading.Condition:
        with self._lock:
            condition = self._conditions.get(game_id)
            if condition is None:
                condition = self._conditions[game_id] = threading.Condition()
            return condition

    def committed(self, game_id: str, envelopes: Sequence[Envelope]) -> None:
        """Announce that ``envelopes`` are durable."""
        if not envelopes:
            return
        self.moved(game_id, envelopes[-1].seq)

    def known_version(self, game_id: str) -> int:
        """The newest version of ``game_id`` announced so far (0 if none)."""
        with self._lock:
            return self._versions.get(game_id, 0)

    def moved(self, game_id: str, version: int) -> None:
        """Announce that the store holds ``game_id`` up to ``version`` (committed by any
        process); wakes the game's watchers if it is news."""
        with self._lock:
            if self._versions.get(game_id, 0) >= version:
                return
            self._versions[game_id] = version
            self._versions.move_to_end(game_id)
            if len(self._versions) > self.versions_kept:
                self._versions.popitem(last=False)
            condition = self._conditions.get(game_id)
        if condition is not None:
            with condition:
                condition.notify_all()

    def wait(self, game_id: str, after: int) -> None:
        """Block until a version above ``after`` is announced, or the poll interval passes."""
        condition = self._condition(game_id)
        with condition:
            if self._closed or self._versions.get(game_id, 0) > after:
                return
            condition.wait(self.poll_seconds)

    def close(self) -> None:
        """Wake every watcher (server shutdown)."""
        self._closed = True
        with self._lock:
            conditions = list(self._conditions.values())
        for condition in conditions:
            with condition:
                condition.notify_all()

    @property
    def closed(self) -> bool:
        """``True`` once the server is shutting down."""
        return self._closed


class StoreFollower:
    """Wakes a :class:`Broadcaster` for every commit to a PostgreSQL store, by any process.

    ``start()`` begins at the store's current feed head; ``stop()`` ends the
    thread. Connection failures are logged and retried with backoff (the broadcaster's poll
    covers the gap).
    """

    def __init__(self, store: Any, broadcaster: Broadcaster, batch: int = 1000) -> None:
        if store.config.kind != "postgres":
            raise ValueError("StoreFollower follows a PostgreSQL store only")
        self.store = store
        self.broadcaster = broadcaster
        self.batch = batch
        self.table: str = store.feed.table
        self.position: Position = store.feed_head()
        self.seen = 0  # notifications read (for tests and benchmarks)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="annales-follower", daemon=True)
        self.listening = threading.Event()

    def start(self) -> StoreFollower:
        """Start following (returns ``self``)."""
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Stop following."""
        self._stop.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                self._follow()
                failures = 0
            except Exception as error:  # reconnect; watchers poll meanwhile
                failures += 1
                self.listening.clear()
                log.warning("store follower: %r (reconnecting)", error)
                self._stop.wait(min(0.1 * 2**failures, 5.0))

    def _follow(self) -> None:
        with self.store.listen() as connection:
            self.listening.set()
            query = rows_after_statement(
                self.table, "notification_id, xact, originator_id, originator_version"
            )
            while not self._stop.is_set():
                self._read(connection, query)  # also after (re)connecting: nothing is missed
                # a NOTIFY wakes it at once; it looks again soon anyway, for the rows the
                # feed held back behind a transaction still running (no NOTIFY tells)
                for _ in connection.notifies(timeout=RECHECK, stop_after=1):
                    pass

    def _read(self, connection: Any, query: str) -> None:
        while True:
            rows = connection.execute(query, (*self.position, self.batch)).fetchall()
            latest: dict[str, int] = {}
            for _, _, game_id, version in rows:
                latest[str(game_id)] = max(latest.get(str(game_id), 0), int(version))
            for game_id, version in latest.items():
                self.broadcaster.moved(game_id, version)
            if rows:
                self.position = (int(rows[-1][1]), int(rows[-1][0]))
                self.seen += len(rows)
            if len(rows) < self.batch:
                return
