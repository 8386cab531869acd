"""Group commit: the appends of several games in flight share one transaction.

Each commit pays a flush: on SQLite the file has one writer at a time and, in WAL mode with
``synchronous=FULL``, every commit fsyncs the WAL, so the process's write rate is one flush
per transaction; on PostgreSQL the commit returns once its WAL record is flushed (and with
``ANNALES_PG_TABLE_LOCK=1`` every insert also takes the events table in ``EXCLUSIVE`` mode, one
transaction at a time for the whole cluster). :class:`GroupCommit` lets the threads of one
process that append at the same moment share a transaction:

* a thread that finds no transaction in progress becomes the *leader*: it takes every pending
  request (its own included), inserts all their records in one insert call — one transaction,
  one commit, one flush — and hands each request its answer;
* threads arriving meanwhile queue up; when the leader is done, the first of them is promoted
  to lead the next batch (a leader serves one batch, never someone else's forever);
* when a batch fails (a version conflict of one game — another process stored that sequence
  number first — or any other error), nothing of it was committed, and each of its requests is
  inserted again on its own, so each gets exactly its own success or error.

Nothing changes for the caller: :meth:`GroupCommit.insert` returns when *its* records are
committed — durable: the batch's commit has returned, so its flush is done — or raises,
atomically per request; no request is answered before its batch's commit returns. Requests
of one game never share a batch (the application holds the game's lock during its append), so
a batch never conflicts with itself.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

Insert = Callable[[list[Any]], Sequence[int] | None]


@dataclass
class _Request:
    records: list[Any]
    done: threading.Event = field(default_factory=threading.Event)
    promoted: bool = False
    ids: list[int] = field(default_factory=list)
    error: BaseException | None = None


class GroupCommit:
    """Batches concurrent ``insert(records)`` calls into shared transactions."""

    def __init__(self, insert: Insert, max_records: int = 2000) -> None:
        self._insert = insert
        self.max_records = max_records
        self._guard = threading.Lock()
        self._pending: list[_Request] = []
        self._leading = False
        #: transactions committed, requests they carried, and failed batches split up
        self.transactions = 0
        self.requests = 0
        self.splits = 0

    def insert(self, records: list[Any]) -> list[int]:
        """Insert ``records`` atomically (alone or with other requests); their ids."""
        request = _Request(records)
        with self._guard:
            self._pending.append(request)
            lead = not self._leading
            if lead:
                self._leading = True
        if lead:
            self._lead()  # the batch starts with this request
        else:
            request.done.wait()  # answered, or promoted to lead the next batch
            if request.promoted:
                self._lead()  # this request heads the pending list: it is in the batch
        if request.error is not None:
            raise request.error
        return request.ids

    def _lead(self) -> None:
        """Serve one batch, then promote the next waiting request (or stop leading)."""
        with self._guard:
            batch: list[_Request] = []
            size = 0
            while self._pending and (not batch or size < self.max_records):
                request = self._pending.pop(0)
                batch.append(request)
                size += len(request.records)
        try:
            self._run(batch)
        finally:
            with self._guard:
                if self._pending:
                    successor = self._pending[0]  # leads the next batch, itself first
                    successor.promoted = True
                    successor.done.set()
                else:
                    self._leading = False
            for request in batch:
                request.done.set()

    def _run(self, batch: list[_Request]) -> None:
        records = [record for request in batch for record in request.records]
        try:
            ids = list(self._insert(records) or [])
        except BaseException:
            if len(batch) == 1:
                _insert_alone(batch[0], self._insert)
                return
            self.splits += 1
            for request in batch:  # nothing was committed: each on its own
                _insert_alone(request, self._insert)
            return
        self.transactions += 1
        self.requests += len(batch)
        offset = 0
        for request in batch:
            request.ids = ids[offset : offset + len(request.records)]
            offset += len(request.records)


def _insert_alone(request: _Request, insert: Insert) -> None:
    """Insert one request's records alone, keeping its result or its error."""
    try:
        request.ids = list(insert(request.records) or [])
    except BaseException as error:  # handed to the requesting thread
        request.error = error
