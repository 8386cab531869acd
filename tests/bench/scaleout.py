"""Scale-out benchmarks (``make bench``): several servers on one PostgreSQL database.

Printed, never asserted; every figure sits next to a reference measured in the same run:

* **raw commits**: one-row INSERT transactions per second by 8 threads straight through
  psycopg on the same PostgreSQL server (``synchronous_commit`` as configured) — free, and
  each under ``LOCK TABLE ... IN EXCLUSIVE MODE`` as the eventsourcing recorder does (to keep
  notification ids in commit order; commits then cannot be grouped: the write ceiling of the
  whole cluster, whatever the number of servers) — and through sqlite3 on a file with
  ``synchronous=FULL`` in WAL mode;
* **SubmitAction throughput with 1, 2 and 3 servers** on one fresh PostgreSQL database (run
  with ``--no-projections`` unless ``SCALEOUT_PROJECTIONS=1``):
  ``INFLIGHT`` client threads, each playing its own game from a precomputed script (every
  call with ``expected_version`` and an idempotency key), each call sent to the *next* server
  (round robin per call, like a load balancer without affinity — every server's cached heads
  go stale all the time, the worst case for the caches); the scaling ratio is against one
  server;
* **GetView throughput with 1, 2 and 3 servers** (the same games, each seat's view, round
  robin): reads are CPU-bound in the server (redaction and conversion under one interpreter
  lock per process), so this is what more servers buy when they have cores of their own;
* **group commit** (``service/store/groupcommit.py``): one server with ``ANNALES_GROUP_COMMIT=0``
  against the default;
* **PostgreSQL against SQLite** with one server and the same load;
* **cross-server WatchGame delay**: a watcher on server 3 while commands are sent to server 1;
  from the moment a command is sent until server 3 streams its events (p50 / p99), next to the
  SubmitAction round trip itself.

Run alone: ``.venv/bin/python -m tests.bench.scaleout``. Needs the PostgreSQL server of
``tests/pg.py``; prints a line and skips without it.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import statistics
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import grpc
import psycopg
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from service.store.config import StoreConfig
from tests.api.helpers import auth
from tests.bench.api import _percentile, _run_threads, _script
from tests.pg import HOST, PORT, USER, admin_connection, fresh_database
from tests.service.cluster import Cluster, start_cluster

#: client threads (games in flight) of the throughput runs.
INFLIGHT = 24
#: SubmitAction calls per throughput run (spread over the games).
SUBMITS = 1440
RAW_COMMITS = 2000
#: servers keep their read models up to date (``SCALEOUT_PROJECTIONS=1``); by default they
#: run ``--no-projections`` so that the write path is measured (each server's runner follows
#: the whole log, so on one machine N runners cost N times the projection work).
PROJECTIONS = os.environ.get("SCALEOUT_PROJECTIONS", "0") == "1"


def raw_pg_commits(config: StoreConfig, locked: bool, threads: int = 8) -> float:
    """One-row INSERT + COMMIT per second, ``threads`` connections, psycopg directly; with
    ``locked`` each transaction first takes the table in EXCLUSIVE mode, as the eventsourcing
    recorder does to keep notification ids in commit order (commits then cannot overlap)."""
    table = "raw_locked" if locked else "raw_free"
    with psycopg.connect(
        host=config.pg_host, port=config.pg_port, user=config.pg_user, dbname=config.pg_dbname,
        autocommit=True,
    ) as connection:  # fmt: skip
        connection.execute(f"CREATE TABLE {table} (id bigserial PRIMARY KEY, data bytea)")
    per_thread = RAW_COMMITS // threads

    def work(index: int) -> list[float]:
        with psycopg.connect(
            host=config.pg_host, port=config.pg_port, user=config.pg_user,
            dbname=config.pg_dbname,
        ) as connection:  # fmt: skip
            for _ in range(per_thread):
                with connection.transaction():
                    if locked:
                        connection.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
                    connection.execute(f"INSERT INTO {table} (data) VALUES (%s)", (b"x" * 300,))
        return []

    wall, _ = _run_threads(threads, work)
    return per_thread * threads / wall


def raw_sqlite_commits(directory: Path) -> float:
    """One-row INSERT + COMMIT per second on an SQLite file (WAL, synchronous=FULL)."""
    db = sqlite3.connect(directory / "raw.db", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE raw_bench (id INTEGER PRIMARY KEY, data BLOB)")
    start = time.perf_counter()
    for _ in range(RAW_COMMITS // 4):
        db.execute("BEGIN")
        db.execute("INSERT INTO raw_bench (data) VALUES (?)", (b"x" * 300,))
        db.execute("COMMIT")
    wall = time.perf_counter() - start
    db.close()
    return RAW_COMMITS // 4 / wall


def _stubs(cluster: Cluster) -> tuple[list[grpc.Channel], list[Any]]:
    channels = cluster.channels()
    for channel in channels:
        grpc.channel_ready_future(channel).result(timeout=10)
    return channels, [annales_pb2_grpc.GameServiceStub(c) for c in channels]


#: GetView calls per read-throughput run.
VIEWS = 1440


def view_throughput(cluster: Cluster, games: list[tuple[str, dict[int, str]]]) -> float:
    """GetView/s (each seat's view of its game, CPU-bound: fold-free but redacted and
    converted), ``INFLIGHT`` threads, calls round robin over the servers."""
    channels, stubs = _stubs(cluster)
    per_thread = VIEWS // INFLIGHT

    def work(index: int) -> list[float]:
        game_id, tokens = games[index % len(games)]
        for step in range(per_thread):
            stub = stubs[(index + step) % len(stubs)]
            seat = step % len(tokens)
            stub.GetView(pb.GetViewRequest(game_id=game_id), metadata=auth(tokens[seat]))
        return []

    wall, _ = _run_threads(INFLIGHT, work)
    for channel in channels:
        channel.close()
    return per_thread * INFLIGHT / wall


def submit_throughput(
    cluster: Cluster, tag: str, games_out: list[tuple[str, dict[int, str]]] | None = None
) -> tuple[float, float, float, int]:
    """(SubmitAction/s, p50 ms, p99 ms, duplicates — always 0) with ``INFLIGHT`` games in
    flight, calls spread round robin over the cluster's servers."""
    channels, stubs = _stubs(cluster)
    per_game = SUBMITS // INFLIGHT
    scripts, games = [], []
    for index in range(INFLIGHT):
        seed = f"scaleout-{tag}-{index}-{uuid.uuid4().hex}"
        scripts.append(_script(3, seed, per_game))
        answer = stubs[index % len(stubs)].CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b", "c"], seed=seed
            )
        )
        tokens = {t.seat: t.token for t in answer.seat_tokens}
        games.append((answer.game_id, tokens, answer.version))
        if games_out is not None:
            games_out.append((answer.game_id, tokens))
    duplicates = [0]

    def work(index: int) -> list[float]:
        game_id, tokens, version = games[index]
        latencies = []
        for step, (seat, action) in enumerate(scripts[index]):
            stub = stubs[(index + step) % len(stubs)]
            request = pb.SubmitActionRequest(
                game_id=game_id, action=action, expected_version=version, idempotency_key=f"s{step}"
            )
            t0 = time.perf_counter()
            answer = stub.SubmitAction(request, metadata=auth(tokens[seat]))
            latencies.append(time.perf_counter() - t0)
            if answer.duplicate:
                duplicates[0] += 1
            version = answer.version
        return latencies

    wall, latencies = _run_threads(INFLIGHT, work)
    for channel in channels:
        channel.close()
    return (
        len(latencies) / wall,
        _percentile(latencies, 0.5) * 1000,
        _percentile(latencies, 0.99) * 1000,
        duplicates[0],
    )


def watch_delay(cluster: Cluster, commands: int = 60) -> tuple[float, float, float, float]:
    """(p50, p99 ms from send on server 1 to stream on the last server; p50, p99 ms of the
    SubmitAction round trip)."""
    channels, stubs = _stubs(cluster)
    seed = f"scaleout-watch-{uuid.uuid4().hex}"
    script = _script(3, seed, commands)
    answer = stubs[0].CreateGame(
        pb.CreateGameRequest(
            game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b", "c"], seed=seed
        )
    )
    tokens = {t.seat: t.token for t in answer.seat_tokens}
    version = answer.version
    received: dict[int, float] = {}
    stream = stubs[-1].WatchGame(pb.WatchGameRequest(game_id=answer.game_id, after_version=version))

    def watch() -> None:
        try:
            for message in stream:
                now = time.perf_counter()
                for event in message.events:
                    received[event.seq] = now
        except grpc.RpcError:
            return

    watcher = threading.Thread(target=watch)
    watcher.start()
    time.sleep(0.3)
    delays, round_trips = [], []
    for step, (seat, action) in enumerate(script):
        sent = time.perf_counter()
        answer_ = stubs[0].SubmitAction(
            pb.SubmitActionRequest(
                game_id=answer.game_id, action=action, expected_version=version,
                idempotency_key=f"w{step}",
            ),
            metadata=auth(tokens[seat]),
        )  # fmt: skip
        round_trips.append(time.perf_counter() - sent)
        version = answer_.version
        deadline = time.perf_counter() + 5.0
        while version not in received and time.perf_counter() < deadline:
            time.sleep(0.0005)
        delays.append(received.get(version, float("inf")) - sent)
        time.sleep(0.02)
    stream.cancel()
    watcher.join(5)
    for channel in channels:
        channel.close()
    return (
        statistics.median(delays) * 1000,
        _percentile(delays, 0.99) * 1000,
        statistics.median(round_trips) * 1000,
        _percentile(round_trips, 0.99) * 1000,
    )


def main() -> None:
    """Run the scale-out benchmarks and print them."""
    try:
        admin_connection().close()
    except psycopg.OperationalError as error:
        print(f"(skipped: PostgreSQL at {HOST}:{PORT} as {USER} unreachable: {error})")
        return
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        with fresh_database() as config:
            raw_free = raw_pg_commits(config, locked=False)
            raw_pg = raw_pg_commits(config, locked=True)
        raw_sqlite = raw_sqlite_commits(directory)
        print(
            f"raw commits (1 row each, 8 connections): PostgreSQL {raw_free:,.0f}/s, "
            f"{raw_pg:,.0f}/s under the recorder's table lock | SQLite WAL+FULL "
            f"{raw_sqlite:,.0f}/s (1 connection)"
        )
        results: dict[int, tuple[float, float, float, int]] = {}
        views: dict[int, float] = {}
        for count in (1, 2, 3):
            with fresh_database() as config:
                cluster = start_cluster(
                    config, count, directory / f"pg{count}", projections=PROJECTIONS
                )
                try:
                    games: list[tuple[str, dict[int, str]]] = []
                    results[count] = submit_throughput(cluster, f"pg{count}", games)
                    views[count] = view_throughput(cluster, games)
                    if count == 3:
                        watch = watch_delay(cluster)
                finally:
                    cluster.stop()
            rate, p50, p99, _ = results[count]
            print(
                f"PostgreSQL, {count} server(s), {INFLIGHT} in flight round robin: "
                f"SubmitAction {rate:,.0f}/s (p50 {p50:.1f} ms, p99 {p99:.1f} ms) | "
                f"scaling x{rate / results[1][0]:.2f} of 1 server | "
                f"{rate / raw_free:.3f} of raw PostgreSQL commits (the inserts take no lock)"
            )
            print(
                f"  GetView (CPU-bound reads) {views[count]:,.0f}/s | scaling "
                f"x{views[count] / views[1]:.2f} of 1 server"
            )
        with fresh_database() as config:
            single = dataclasses.replace(config, group_commit=False)
            cluster = start_cluster(single, 1, directory / "pg-single", projections=PROJECTIONS)
            try:
                alone = submit_throughput(cluster, "pg-single")
            finally:
                cluster.stop()
        print(
            f"PostgreSQL, 1 server without group commit (ANNALES_GROUP_COMMIT=0): SubmitAction "
            f"{alone[0]:,.0f}/s (p50 {alone[1]:.1f} ms, p99 {alone[2]:.1f} ms) | group commit "
            f"x{results[1][0] / alone[0]:.2f} | {alone[0] / raw_free:.3f} of raw commits"
        )
        sqlite_config = StoreConfig(kind="sqlite", path=str(directory / "sqlite" / "a.db"))
        cluster = start_cluster(sqlite_config, 1, directory / "sqlite", projections=PROJECTIONS)
        try:
            sqlite = submit_throughput(cluster, "sqlite")
        finally:
            cluster.stop()
        print(
            f"SQLite, 1 server, {INFLIGHT} in flight: SubmitAction {sqlite[0]:,.0f}/s "
            f"(p50 {sqlite[1]:.1f} ms, p99 {sqlite[2]:.1f} ms) | PostgreSQL/SQLite on one "
            f"server x{results[1][0] / sqlite[0]:.2f} | {sqlite[0] / raw_sqlite:.3f} of raw "
            f"SQLite commits"
        )
        print(
            f"WatchGame across servers (sent to server 1, streamed by server 3): "
            f"p50 {watch[0]:.1f} ms, p99 {watch[1]:.1f} ms | SubmitAction round trip "
            f"p50 {watch[2]:.1f} ms, p99 {watch[3]:.1f} ms"
        )


if __name__ == "__main__":
    main()
