"""A bounded cache of GetView answers, one entry per game, version and reader.

A GetView answer is a function of the game's log up to the head: the view and the summary of
the requested version, the head version the summary names, and the seed and nonce revealed
once the game is over (a ``SeedRevealed`` event, so at a later head version). Events are only
ever appended — an undo appends an ``Undone`` event and moves the head to a *new* version —
so an answer keyed by (game, ruleset, requested version, head version, reader) never goes
stale: no invalidation, only least-recently-used eviction. The reader is a seat number or the
judge, never shared: a seat is only ever answered from its own entries.

The entries are the response messages themselves, never modified once stored: each hit
serializes the same message again, so a cached answer is byte for byte the first one (a
message parsed back from stored bytes may order map entries differently).
``ANNALES_VIEW_CACHE`` sets the number of entries (``0`` turns the cache off).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from annales.v1 import annales_pb2 as pb

from service import settings

#: entries kept by default (a few KiB each)
DEFAULT_ENTRIES = 2048

#: (game id, ruleset, requested version, head version, reader: a seat number or -1, the judge)
ViewKey = tuple[str, str, int, int, int]


def configured_entries() -> int:
    """The capacity from ``ANNALES_VIEW_CACHE`` (a non-negative integer; 0 turns the cache
    off), else the default; raises ``SettingError`` for another value."""
    return settings.integer("ANNALES_VIEW_CACHE", DEFAULT_ENTRIES, 0)


class ViewCache:
    """Least-recently-used GetView answers (thread-safe); callers never modify them."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self._lock = threading.Lock()
        self._data: OrderedDict[ViewKey, pb.GetViewResponse] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: ViewKey) -> pb.GetViewResponse | None:
        """The answer stored under ``key``, marked as recently used; ``None`` when absent."""
        if self.entries <= 0:
            return None
        with self._lock:
            found = self._data.get(key)
            if found is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: ViewKey, answer: pb.GetViewResponse) -> None:
        """Store ``answer`` under ``key``, evicting the least recently used beyond capacity."""
        if self.entries <= 0:
            return
        with self._lock:
            self._data[key] = answer
            self._data.move_to_end(key)
            while len(self._data) > self.entries:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        """The number of entries held."""
        return len(self._data)
