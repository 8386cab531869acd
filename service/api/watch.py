"""Wake-ups for live streams: a watcher waits until its game's version moves past its own.

The application calls :meth:`Broadcaster.committed` after each durable append (never before),
and watchers then read the new events *from the store*, after the last version they sent —
so a resumed or slow watcher sees every event exactly once, in order. Waits time out
(``poll_seconds``) so that events committed by another process sharing the database are
picked up by polling too.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from domain.core.envelope import Envelope


class Broadcaster:
    """Per-game condition variables signalled on commit."""

    def __init__(self, poll_seconds: float = 0.5) -> None:
        self.poll_seconds = poll_seconds
        self._lock = threading.Lock()
        self._conditions: dict[str, threading.Condition] = {}
        self._versions: dict[str, int] = {}
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
        condition = self._condition(game_id)
        with condition:
            self._versions[game_id] = max(self._versions.get(game_id, 0), envelopes[-1].seq)
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
