"""Simulation at scale (``annales simulate``): games per second with 1 and 2 worker processes,
and the store's commit rate during the simulation against raw batched SQLite inserts.

* Per game type, the same seeded random-bot games are played twice into fresh SQLite files
  (on disk, WAL, ``synchronous=FULL``): by 1 worker, then by 2 (``multiprocessing`` spawn,
  pools started and warmed up before the clock starts). The ratio 2 workers / 1 worker shows
  the parallel scaling (at most 2 on these 2-core machines, less when the store's single
  writer or the machine's other load is the limit).
* Commit rate: events per second of the workers' commits (one transaction per batch of games;
  lock waits included), against raw ``executemany`` inserts into an SQLite table shaped like
  the store's (auto-increment notification id, unique (game, seq), topic, blob of the same
  average size), in transactions of the same number of rows, measured now on the same disk.

Run alone: ``python -m tests.bench.simulate``. Nothing is asserted.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from pathlib import Path

from service.simulation.jobs import SimulationReport, simulation_jobs
from service.simulation.runner import new_pool, run_jobs
from service.store.config import StoreConfig

#: game -> (players, games per measurement); random bots (the greedy bot measures itself).
GAMES = {"riseandfall": (3, 8), "tapestry": (3, 32), "imperium": (3, 12)}
BATCH = 3


def _simulate(path: Path, game: str, players: int, games: int, workers: int) -> SimulationReport:
    """``games`` seeded games by ``workers`` warmed-up workers into a fresh file."""
    config = StoreConfig(kind="sqlite", path=str(path))
    with new_pool(config, workers) as pool:
        warm = simulation_jobs(game, players, 2 * workers, ["random"], b"warm-up")
        run_jobs(config, warm, workers=workers, batch=1, pool=pool)
        jobs = simulation_jobs(game, players, games, ["random"], b"bench")
        return run_jobs(config, jobs, workers=workers, batch=BATCH, pool=pool)


def _raw_batched(path: Path, rows: int, per_commit: int, blob_size: int) -> float:
    """Raw rows/s: ``executemany`` in transactions of ``per_commit`` rows (WAL, FULL)."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute(
        "CREATE TABLE t (nid INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT, seq INTEGER,"
        " topic TEXT, state BLOB, UNIQUE (game, seq))"
    )
    blob = os.urandom(blob_size)
    start = time.perf_counter()
    written = 0
    game = 0
    while written < rows:
        game += 1
        batch = [(f"game-{game}", seq, "annales:Event", blob) for seq in range(1, per_commit + 1)]
        connection.execute("BEGIN")
        connection.executemany("INSERT INTO t (game, seq, topic, state) VALUES (?, ?, ?, ?)", batch)
        connection.execute("COMMIT")
        written += per_commit
    seconds = time.perf_counter() - start
    connection.close()
    return written / seconds if seconds > 0 else float("inf")


def _average_envelope(path: Path) -> int:
    """Average stored envelope size (bytes) in a store file."""
    connection = sqlite3.connect(path)
    try:
        row = connection.execute("SELECT AVG(LENGTH(state)) FROM stored_events").fetchone()
    finally:
        connection.close()
    return int(row[0] or 300)


def main() -> None:
    """Print games/s with 1 and 2 workers per game type, and commit rates against raw."""
    with tempfile.TemporaryDirectory(prefix="annales-bench-sim-") as tmp:
        directory = Path(tmp)
        for game, (players, games) in GAMES.items():
            one = _simulate(directory / f"{game}-1.db", game, players, games, 1)
            two = _simulate(directory / f"{game}-2.db", game, players, games, 2)
            per_game = one.events / max(one.played, 1)
            print(
                f"simulate {game} {players}p random, {games} games: 1 worker "
                f"{one.games_per_second:.2f} games/s | 2 workers {two.games_per_second:.2f} "
                f"games/s | ratio 2/1 {two.games_per_second / one.games_per_second:.2f}x "
                f"({per_game:,.0f} events/game, {BATCH} games per commit)"
            )
            path = directory / f"{game}-1.db"
            per_commit = max(1, round(per_game * BATCH))
            raw = _raw_batched(
                directory / f"{game}-raw.db", 20 * per_commit, per_commit, _average_envelope(path)
            )
            for label, report in (("1 worker", one), ("2 workers", two)):
                rate = report.events / report.commit_seconds if report.commit_seconds else 0.0
                print(
                    f"  store commits during simulation ({label}): {rate:,.0f} events/s | raw "
                    f"batched SQLite insert ({per_commit} rows/commit) {raw:,.0f} rows/s | "
                    f"ratio store/raw {rate / raw:.2f}"
                )


if __name__ == "__main__":
    main()
