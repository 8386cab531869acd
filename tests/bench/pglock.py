"""Time under the events table's lock on PostgreSQL (``make bench``): the recorder's own insert
against :class:`~service.store.pginsert.PreparedInsert`, next to a raw locked insert.

Every insert transaction takes the events table ``IN EXCLUSIVE MODE``, so such transactions
never overlap: with ``THREADS`` writers always waiting, transactions per second give the mean
time each holds the lock (wall time / transactions — an upper bound that includes the
hand-over to the next holder). Measured on one fresh database in the same run:

* **raw**: psycopg directly, one row per transaction (``LOCK``, ``INSERT``, ``COMMIT``), the
  reference the issue names (a raw locked insert);
* **recorder** and **prepared**: three envelopes (the size of one command) per transaction on
  the store's events table, through eventsourcing's ``insert_events`` and through
  :class:`PreparedInsert`;

each with the process otherwise idle, and with ``BUSY`` threads spinning Python code in the
same process (what a server's RPC threads do to the lock holder: it needs the interpreter
lock between statements). Printed, never asserted. Run alone:
``.venv/bin/python -m tests.bench.pglock``.
"""

from __future__ import annotations

import dataclasses
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import psycopg
from eventsourcing.persistence import StoredEvent as RecordedEvent

from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.store.pginsert import PreparedInsert
from tests.bench.api import _run_threads
from tests.pg import fresh_database

THREADS = 8
TRANSACTIONS = 800
#: the most seconds one case may take
SECONDS = 15.0
BUSY = 6


def _busy(stop: threading.Event) -> None:
    while not stop.is_set():
        sum(range(2000))


def _held_ms(work: Callable[[int, int], None], busy: int) -> float:
    """Mean milliseconds per locked transaction with ``THREADS`` writers (``busy`` spinning
    threads beside them): ``TRANSACTIONS`` of them, or as many as ``SECONDS`` allow (with
    spinning threads a lock holder may wait seconds for the interpreter lock between its
    statements)."""
    stop = threading.Event()
    spinners = [threading.Thread(target=_busy, args=(stop,), daemon=True) for _ in range(busy)]
    for spinner in spinners:
        spinner.start()
    per_thread = TRANSACTIONS // THREADS
    deadline = time.monotonic() + SECONDS

    def run(index: int) -> list[float]:
        done = []
        for step in range(per_thread):
            if time.monotonic() > deadline:
                break
            work(index, step)
            done.append(0.0)
        return done

    try:
        wall, done = _run_threads(THREADS, run)
    finally:
        stop.set()
        for spinner in spinners:
            spinner.join()
    return wall / max(1, len(done)) * 1000


def measure(config: StoreConfig) -> dict[str, tuple[float, float]]:
    """(idle, busy) mean lock hold in ms for raw / recorder / prepared."""
    store = EventStore(dataclasses.replace(config, group_commit=False, pg_pool_size=THREADS))
    prepared = PreparedInsert(store.events, lock=True)  # ANNALES_PG_TABLE_LOCK=1
    connections: list[Any] = []
    with psycopg.connect(
        host=config.pg_host, port=config.pg_port, user=config.pg_user, dbname=config.pg_dbname,
        autocommit=True,
    ) as admin:  # fmt: skip
        admin.execute("CREATE TABLE raw_locked (id bigserial PRIMARY KEY, data bytea)")
    for _ in range(THREADS):
        connections.append(
            psycopg.connect(
                host=config.pg_host,
                port=config.pg_port,
                user=config.pg_user,
                dbname=config.pg_dbname,
            )
        )

    def raw(index: int, step: int) -> None:
        connection = connections[index]
        with connection.transaction():
            connection.execute("LOCK TABLE raw_locked IN EXCLUSIVE MODE")
            connection.execute("INSERT INTO raw_locked (data) VALUES (%s)", (b"x" * 300,))

    run_id = uuid.uuid4().hex[:8]

    def rows(label: str, index: int, step: int) -> list[RecordedEvent]:
        game = f"{label}-{run_id}-{index}"
        return [RecordedEvent(game, step * 3 + k, "annales:Bench", b"x" * 300) for k in (1, 2, 3)]

    results: dict[str, tuple[float, float]] = {}
    try:
        for label, work in (
            ("raw", raw),
            ("recorder", lambda i, s: store.events.insert_events(rows("rec", i, s))),
            ("prepared", lambda i, s: prepared(rows("pre", i, s))),
        ):
            idle = _held_ms(work, 0)
            run_id = uuid.uuid4().hex[:8]
            busy = _held_ms(work, BUSY)
            run_id = uuid.uuid4().hex[:8]
            results[label] = (idle, busy)
    finally:
        for connection in connections:
            connection.close()
        store.close()
    return results


def main() -> None:
    """Print the lock hold times (skips without PostgreSQL)."""
    try:
        with fresh_database() as config:
            results = measure(config)
    except psycopg.OperationalError as error:
        print(f"(PostgreSQL unavailable: {error})")
        return
    raw = results["raw"]
    for label in ("raw", "recorder", "prepared"):
        idle, busy = results[label]
        print(
            f"lock held per insert transaction, {label:>8}: {idle:.2f} ms idle, {busy:.2f} ms "
            f"with {BUSY} busy threads | ratio to raw {idle / raw[0]:.1f}x idle, "
            f"{busy / raw[1]:.1f}x busy"
        )


if __name__ == "__main__":
    main()
