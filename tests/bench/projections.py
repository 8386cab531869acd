"""Projection lag: event committed → visible in the read model, p50 and p99, under load.

A server (gRPC, projections on) runs in this process on a temporary SQLite store on disk;
``writers`` threads play random-bot games through its application layer as fast as they can
(every command is committed with fsync, then announced, as for a gRPC call). For each commit
the time and the log's last notification id are noted; a monitor thread sees when the
runner's tracked position reaches that id. ``main()`` prints p50/p99 next to the commit rate,
on SQLite and then on a fresh PostgreSQL database (``tests/pg.py``) when one answers.

The load starts once the read-model process follows the store (one warm-up game committed and
projected): the lag is that of a running server. The read-model process's start-up — how long
after ``start`` returns a first commit becomes visible — is printed on its own line, since
commits made during it wait for the child's imports, not for the projection.

Run: ``python -m tests.bench.projections [seconds] [writers]``.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from domain.bots import make_bot
from service.api.server import start
from service.app.autoplay import play_with_bots
from service.store.config import StoreConfig


def measure_lag(
    seconds: float = 10.0, writers: int = 4, config: StoreConfig | None = None
) -> dict[str, float]:
    """Lag statistics in milliseconds (``p50``, ``p99``, ``max``) and ``commits_per_s``, on
    ``config`` (default: a temporary SQLite file)."""
    directory = Path(tempfile.mkdtemp(prefix="annales-lag-"))
    config = config or StoreConfig(kind="sqlite", path=str(directory / "events.db"))
    running = start(config, port=0, readmodels=str(directory / "readmodels.db"))
    runner = running.projections
    assert runner is not None
    service = running.service
    started_at = time.perf_counter()
    service.create_game("riseandfall", {}, ["a", "b"], seed=b"lag-warm-up")
    runner.wait_for(service.store.feed_head(), timeout=120)
    ready = time.perf_counter() - started_at
    pending: list[tuple[tuple[int, int], float]] = []
    guard = threading.Lock()
    lags: list[float] = []
    stop = threading.Event()

    def committed(game_id: str, envelopes: object) -> None:
        stamp = time.perf_counter()
        nid = service.store.feed_head()
        with guard:
            pending.append((nid, stamp))

    service.on_commit(committed)

    def monitor() -> None:
        while not stop.is_set() or pending:
            position = runner.position
            now = time.perf_counter()
            with guard:
                done = [p for p in pending if p[0] <= position]
                pending[:] = [p for p in pending if p[0] > position]
            lags.extend((now - stamp) * 1000 for _, stamp in done)
            time.sleep(0.001)

    def writer(index: int) -> None:
        game = 0
        while not stop.is_set():
            created = service.create_game(
                "riseandfall", {}, ["a", "b"], seed=f"lag-{index}-{game}".encode()
            )
            bots = {s: make_bot("random", f"lag-{index}-{game}-{s}".encode()) for s in range(2)}
            while not stop.is_set() and play_with_bots(
                service, created.game_id, bots, max_commands=20
            ):
                pass
            game += 1

    watcher = threading.Thread(target=monitor, daemon=True)
    watcher.start()
    threads = [threading.Thread(target=writer, args=(i,), daemon=True) for i in range(writers)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    runner.wait_for(service.store.feed_head(), timeout=60)
    watcher.join(60)
    running.stop(1.0)
    lags.sort()
    if not lags:
        nan = float("nan")
        return {"p50": nan, "p99": nan, "max": nan, "commits_per_s": 0, "ready_s": ready}
    return {
        "p50": statistics.median(lags),
        "p99": lags[min(len(lags) - 1, int(len(lags) * 0.99))],
        "max": lags[-1],
        "commits_per_s": len(lags) / elapsed,
        "ready_s": ready,
    }


def main() -> None:
    """Print the projection lag (p50 / p99) under load, on SQLite then on PostgreSQL."""
    import psycopg

    from tests.pg import admin_connection, fresh_database

    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    writers = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    _print("SQLite", measure_lag(seconds, writers), writers)
    try:
        admin_connection().close()
    except psycopg.OperationalError as error:
        print(f"(PostgreSQL unavailable: {error})")
        return
    with fresh_database() as config:
        _print("PostgreSQL", measure_lag(seconds, writers, config), writers)


def _print(store: str, result: dict[str, float], writers: int) -> None:
    print(
        f"{store}: projection lag (commit → read model): p50 {result['p50']:.1f} ms, "
        f"p99 {result['p99']:.1f} ms (goal <= 200 ms), max {result['max']:.1f} ms "
        f"at {result['commits_per_s']:.0f} commits/s ({writers} writers at full load)"
    )
    print(
        f"{store}: the read-model process follows the store {result['ready_s']:.2f} s after the "
        "server started (a first commit projected; the load above starts then)"
    )


if __name__ == "__main__":
    main()
