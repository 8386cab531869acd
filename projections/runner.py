"""Keep the read models up to date: the polling runner, catch-up and rebuild.

The runner reads the store's feed (``EventStore.feed_after``, :mod:`service.store.feed`)
after the tracked position. It looks every ``poll_interval`` seconds, or at once when
:meth:`ReadModelRunner.wake` is called: ``annales serve`` calls it after every durable append,
so the lag is the processing time, not the poll interval. On **PostgreSQL** a listening
thread also wakes it at each ``NOTIFY`` of the events table's channel (sent by every insert),
so a commit made by *any* process — another server, a script — reaches the read models at
once; and it looks again at least every 50 ms, because the feed holds a committed row back
while an older transaction is still running, and no notification says when that one ends.

Each batch (at most ``batch_size`` events in feed order) is one transaction with its
tracking row, and events at or before the tracked position are skipped, so nothing is
applied twice or skipped after a crash or a restart.

The read models follow one event store: its identity (SQLite path or PostgreSQL database) is
kept in ``readmodel_meta``, and the default file is named after the store
(:func:`default_path`: ``data/annales.readmodels.db`` for ``data/annales.db``). A file that
follows another store is refused (:class:`ReadModelsOfAnotherStore`), never rebuilt behind
the user's back; a store that is behind the tracked position (recreated at the same place)
drops the read models and rebuilds them — they are a cache.

:func:`rebuild` projects the whole log into a fresh temporary file, then swaps the tables
in, in one transaction (readers never see a half-built model; a runner working on the same
file notices the new position and drops its folded states).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

import sqlite_utils

from projections.projector import Projector
from projections.schema import (
    APPLICATION_NAME,
    META_TABLE,
    SCHEMA_VERSION,
    TABLE_NAMES,
    TRACKING_TABLE,
    ReadModelTracking,
    connect,
    create_tables,
    drop_tables,
    get_meta,
    set_meta,
)
from service.app.errors import ServiceError
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.store.feed import Position

log = logging.getLogger("annales.projections")

DEFAULT_BATCH = 500
#: PostgreSQL: the longest wait between two looks at the feed (see the module docstring)
PG_RECHECK = 0.05

Progress = Callable[[int, int], None]  # (notification id applied, last notification id)


def store_identity(store: EventStore) -> str:
    """What identifies the event store the read models follow."""
    config = store.config
    if config.kind == "sqlite":
        return "sqlite:" + os.path.abspath(config.path)
    return f"postgres:{config.pg_host}:{config.pg_port}/{config.pg_dbname}"


class ReadModelsOfAnotherStore(ServiceError):
    """The read-model file follows another event store than the one given."""

    reason = "READ_MODELS_OF_ANOTHER_STORE"


def default_path(store_path: str) -> str:
    """The read-model file of an SQLite event store: next to it, named after it.

    >>> default_path("/srv/data/annales.db"), default_path("/tmp/sim")
    ('/srv/data/annales.readmodels.db', '/tmp/sim.readmodels.db')
    """
    absolute = os.path.abspath(store_path)
    stem, _ = os.path.splitext(os.path.basename(absolute))
    return os.path.join(os.path.dirname(absolute), f"{stem}.readmodels.db")


def path_for(config: StoreConfig, port: int | None = None) -> str:
    """The default read-model file of a store: :func:`default_path` for SQLite; for
    PostgreSQL ``data/<database>.<port>.readmodels.db`` (one file per database and server
    port, so several servers on one host never share one)."""
    if config.kind == "sqlite":
        return default_path(config.path)
    suffix = str(port) if port else f"pid{os.getpid()}"
    return os.path.join("data", f"{config.pg_dbname}.{suffix}.readmodels.db")


def check_owner(path: str, store: EventStore) -> None:
    """Raise :class:`ReadModelsOfAnotherStore` when the file at ``path`` exists and follows
    another store than ``store`` (a missing or new file is fine)."""
    if not os.path.exists(path):
        return
    db = connect(path)
    try:
        known = get_meta(db, "store") if META_TABLE in db.table_names() else None
    finally:
        db.close()
    identity = store_identity(store)
    if known is not None and known != identity:
        raise ReadModelsOfAnotherStore(
            f"the read models at {path} follow {known.split(':', 1)[-1]}, not "
            f"{identity.split(':', 1)[-1]}: pass --readmodels FILE for this store "
            f"(default {path_for(store.config)}), or delete {path}"
        )


def open_readmodels(path: str, store: EventStore) -> sqlite_utils.Database:
    """Open (creating if needed) the read-model file for ``store``; reset it if it follows
    another store or is ahead of the store."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    db = connect(path)
    identity = store_identity(store)
    db.execute("BEGIN IMMEDIATE")
    try:
        create_tables(db)
        known = get_meta(db, "store")
        schema = get_meta(db, "schema")
        if known is not None and known != identity:
            db.rollback()
            db.close()
            check_owner(path, store)  # raises ReadModelsOfAnotherStore
        if known is not None and schema != SCHEMA_VERSION:
            log.warning("read models at %s have schema %s: rebuilding them", path, schema)
            drop_tables(db)
            create_tables(db)
        tracked = ReadModelTracking(db).position(APPLICATION_NAME)
        if tracked is not None and tracked > store.feed_head():
            log.warning("read models at %s are ahead of a recreated store: rebuilding", path)
            drop_tables(db)
            create_tables(db)
        set_meta(db, "store", identity)
        set_meta(db, "schema", SCHEMA_VERSION)
        db.execute("COMMIT")
    except BaseException:
        db.rollback()
        raise
    return db


class ReadModelRunner:
    """Applies new notifications to the read models, in the caller's thread or its own."""

    def __init__(
        self,
        store: EventStore,
        path: str,
        batch_size: int = DEFAULT_BATCH,
        poll_interval: float = 0.05,
        cache_size: int = 256,
    ) -> None:
        self.store = store
        self.path = path
        self.batch_size = batch_size
        self.poll_interval = poll_interval
        if store.config.kind == "postgres":
            self.poll_interval = min(poll_interval, PG_RECHECK)
        self.db = open_readmodels(path, store)
        self.projector = Projector(ReadModelTracking(self.db), store, cache_size)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._applied = threading.Condition()
        self._thread: threading.Thread | None = None
        self._listener: threading.Thread | None = None
        self.error: BaseException | None = None
        #: held while the read-model file is used, so that it is never closed under a batch
        self._file = threading.RLock()
        #: the position when the file was closed (``None`` while it is open)
        self._closed_at: Position | None = None

    @property
    def position(self) -> Position:
        """The feed position of the last event applied (the last one, once closed)."""
        with self._file:
            if self._closed_at is not None:
                return self._closed_at
            return self.projector.position()

    def step(self) -> int:
        """Apply at most one batch of new events; return how many were applied (0 once
        closed)."""
        with self._file:
            if self._closed_at is not None:
                return 0
            after = self.projector.position()
        notes = self.store.feed_after(after, self.batch_size)  # the store: not under the lock
        with self._file:
            if self._closed_at is not None:
                return 0
            applied = self.projector.process(notes)
        if applied:
            with self._applied:
                self._applied.notify_all()
        return applied

    def catch_up(self, progress: Progress | None = None) -> int:
        """Apply every event committed now; return how many were applied."""
        total = 0
        target = self.store.feed_head()
        while True:
            applied = self.step()
            total += applied
            if progress is not None:
                progress(self.position[1], target[1])
            if self.position >= target:
                return total
            if applied == 0:  # held back by a transaction still running: look again
                time.sleep(0.01)

    # -- background thread ----------------------------------------------------------------
    def start(self) -> None:
        """Run in a daemon thread until :meth:`stop` (PostgreSQL: with a listening thread)."""
        self._thread = threading.Thread(target=self._loop, name="annales-projections", daemon=True)
        self._thread.start()
        if self.store.config.kind == "postgres":
            self._listener = threading.Thread(
                target=self._listen, name="annales-projections-listen", daemon=True
            )
            self._listener.start()

    def wake(self, *args: object) -> None:
        """Look for new notifications now (a commit listener)."""
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread (the current batch finishes or rolls back) and close the file."""
        self._stop.set()
        self._wake.set()
        for thread in (self._thread, self._listener):
            if thread is not None:
                thread.join(timeout)
        self.close(timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Close the read-model file once no batch is using it (:attr:`position` still
        answers). A batch still running after ``timeout`` seconds (its store read stuck, say)
        keeps the file open: it commits or rolls back, and the process's exit closes the
        file, which stays consistent either way (closing it under the batch would crash the
        process)."""
        if not self._file.acquire(timeout=timeout):
            log.warning("read models at %s: a batch still runs; the file stays open", self.path)
            return
        try:
            if self._closed_at is None:
                self._closed_at = self.projector.position()
                self.db.close()
        finally:
            self._file.release()

    def _loop(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                while not self._stop.is_set() and self.step() >= self.batch_size:
                    pass
                failures = 0
            except Exception as error:
                failures += 1
                self.error = error
                log.error("read-model projection failed (retrying): %r", error)
                self._stop.wait(min(0.1 * 2**failures, 5.0))
                continue
            self._wake.wait(self.poll_interval)
            self._wake.clear()

    def _listen(self) -> None:
        """Wake the loop at each ``NOTIFY`` of the events table's channel (reconnecting
        after a failure; the loop's own looks cover the gap)."""
        failures = 0
        while not self._stop.is_set():
            try:
                with self.store.listen() as connection:
                    failures = 0
                    while not self._stop.is_set():
                        for _ in connection.notifies(timeout=0.5, stop_after=1):
                            self._wake.set()
            except Exception as error:
                failures += 1
                log.warning("read-model listener: %r (reconnecting)", error)
                self._stop.wait(min(0.1 * 2**failures, 5.0))

    def wait_for(self, position: Position, timeout: float = 1.0) -> bool:
        """Block until the feed ``position`` is applied (``True``) or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        with self._applied:
            while self.position < position:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._wake.set()
                self._applied.wait(min(remaining, 0.05))
        return True


def rebuild(
    store: EventStore, path: str, progress: Progress | None = None, batch_size: int = 2000
) -> int:
    """Drop every read model of ``path`` and rebuild it from the whole log; return the
    number of notifications applied."""
    scratch = path + ".rebuild"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(scratch + suffix):
            os.remove(scratch + suffix)
    runner = ReadModelRunner(store, scratch, batch_size=batch_size, cache_size=1024)
    try:
        applied = runner.catch_up(progress)
    finally:
        runner.close()
    db = open_readmodels(path, store)
    try:
        db.execute("ATTACH DATABASE ? AS fresh", [scratch])
        db.execute("BEGIN IMMEDIATE")
        try:
            drop_tables(db)
            create_tables(db)
            set_meta(db, "store", store_identity(store))
            set_meta(db, "schema", SCHEMA_VERSION)
            for name in (*TABLE_NAMES, TRACKING_TABLE):
                db.execute(f"INSERT INTO main.[{name}] SELECT * FROM fresh.[{name}]")
            db.execute("COMMIT")
        except BaseException:
            db.rollback()
            raise
        db.execute("DETACH DATABASE fresh")
    finally:
        db.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(scratch + suffix):
            os.remove(scratch + suffix)
    return applied
