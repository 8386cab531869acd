"""Scale-out load on PostgreSQL (``make bench``): N servers, M client processes.

One fresh PostgreSQL database (created and dropped here, ``tests/pg.py``), ``--servers``
``annales serve`` processes on it (``tests/service/cluster.py``, ``--no-projections`` unless
``--projections``), and ``--clients`` client *processes* (so that the load generator is not
bound by one interpreter lock), each running its share of ``--inflight`` threads; each thread
plays its own Rise & Fall game from a precomputed seeded script (every call with
``expected_version`` and an idempotency key) and sends each call to the next server (round
robin, no affinity). Printed, never asserted:

* acknowledged SubmitActions per second, p50 / p99 latency;
* CPU seconds of the servers (their process trees) and of PostgreSQL (every ``postgres``
  process of the machine: on a shared machine other clients' work is counted too) per
  acknowledged command;
* commands per insert transaction (acknowledged commands over the distinct transaction ids,
  ``xmin``, of the rows they stored: group commit at work);
* time under the events table's ``EXCLUSIVE`` lock per insert transaction: the share of the
  run during which the lock was held (:class:`LockSampler`: ``pg_locks`` asked in a loop by a
  connection of its own) times the wall time, over the insert transactions — next to the same
  figure for raw one-row locked inserts by 8 psycopg connections in the same run (goal: at
  most 2x), and the raw commit rates with and without the lock.

Defaults are small (2 servers, 2 client processes, 16 games in flight, 800 commands: what
``make bench`` runs). Bigger, on a machine with cores for it::

    .venv/bin/python -m tests.bench.cluster_load --servers 4 --clients 4 --inflight 64 \\
        --commands 8000

``--series 1,2,4,8`` runs those cluster sizes one after the other with ``--clients``,
``--inflight`` and ``--commands`` per server, and ends with the scaling (goal 5 of the write
path: at least 0.8 x N x one server's rate up to 8 servers, 5,000/s with 8); on a machine
without our packages or a PostgreSQL server, ``tests/bench/device/scaleout.sh`` runs it.

PostgreSQL is the one of ``tests/pg.py`` (``ANNALES_PG_HOST`` / ``_PORT`` / ``_USER``, trust
authentication); without it the script prints a line and returns.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg

from tests.bench.scaleout import raw_pg_commits
from tests.pg import HOST, PORT, USER, admin_connection, fresh_database
from tests.service.cluster import start_cluster

SEATS = 3


def _client(
    index: int,
    targets: list[str],
    games: int,
    commands: int,
    ready: Any,
    results: Any,
) -> None:
    """One client process: create ``games`` games, wait for the start, play ``commands``
    commands per game in one thread per game; put (latencies, duplicates) on ``results``."""
    import grpc
    from annales.v1 import annales_pb2 as pb
    from annales.v1 import annales_pb2_grpc

    from tests.api.helpers import auth
    from tests.bench.api import _script

    channels = [grpc.insecure_channel(target) for target in targets]
    stubs = [annales_pb2_grpc.GameServiceStub(channel) for channel in channels]
    played: list[tuple[str, dict[int, str], int, list[Any]]] = []
    for game in range(games):
        seed = f"cluster-load-{index}-{game}-{uuid.uuid4().hex}"
        answer = stubs[game % len(stubs)].CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_RISE_AND_FALL,
                seat_names=[f"s{i}" for i in range(SEATS)],
                seed=seed,
            )
        )
        tokens = {t.seat: t.token for t in answer.seat_tokens}
        played.append((answer.game_id, tokens, answer.version, _script(SEATS, seed, commands)))
    latencies: list[list[float]] = [[] for _ in played]
    duplicates = [0]

    def play(slot: int) -> None:
        game_id, tokens, version, script = played[slot]
        for step, (seat, action) in enumerate(script):
            stub = stubs[(slot + step) % len(stubs)]
            request = pb.SubmitActionRequest(
                game_id=game_id, action=action, expected_version=version, idempotency_key=f"c{step}"
            )
            t0 = time.perf_counter()
            answer = stub.SubmitAction(request, metadata=auth(tokens[seat]))
            latencies[slot].append(time.perf_counter() - t0)
            duplicates[0] += answer.duplicate
            version = answer.version

    threads = [threading.Thread(target=play, args=(slot,)) for slot in range(len(played))]
    ready.wait()  # every client has created its games: go
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for channel in channels:
        channel.close()
    results.put(([x for slot in latencies for x in slot], duplicates[0]))


def _cpu(pid: int) -> float:
    """User + system CPU seconds of a process and of its waited-for children (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _tree(pid: int) -> list[int]:
    """``pid`` and its live descendants."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def _postgres_pids() -> list[int]:
    """Every process of the machine named ``postgres`` (the database server's processes)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


class LockSampler:
    """Samples, as fast as one connection can ask, whether a table's ``EXCLUSIVE`` lock is
    granted to someone (``pg_locks``): the fraction of samples that found it held estimates
    the share of the time the lock was held, whatever the transactions' sizes."""

    def __init__(self, config: Any, table: str) -> None:
        self.config, self.table = config, table
        self.samples = self.held = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> LockSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)

    @property
    def share(self) -> float:
        """The share of samples that found the lock held."""
        return self.held / self.samples if self.samples else float("nan")

    def _run(self) -> None:
        with psycopg.connect(
            host=self.config.pg_host, port=self.config.pg_port, user=self.config.pg_user,
            dbname=self.config.pg_dbname, autocommit=True,
        ) as db:  # fmt: skip
            query = (
                "SELECT count(*) FROM pg_locks WHERE granted AND mode = 'ExclusiveLock' "
                "AND relation = (SELECT oid FROM pg_class WHERE relname = %s)"
            )
            while not self._stop.is_set():
                row = db.execute(query, (self.table,), prepare=True).fetchone()
                self.samples += 1
                self.held += bool(row and row[0])


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def run(
    servers: int,
    clients: int,
    inflight: int,
    commands: int,
    projections: bool,
    table_lock: bool = False,
) -> float:
    """Start the cluster, drive it, print the figures; return the acknowledged SubmitActions
    per second (``table_lock``: the servers' inserts take the events table's lock,
    ``ANNALES_PG_TABLE_LOCK=1``)."""
    per_game = max(1, commands // inflight)
    clients = max(1, min(clients, inflight))  # every client process plays at least one game
    with tempfile.TemporaryDirectory() as tmp, fresh_database() as config:
        with LockSampler(config, "raw_locked") as raw_sampler:
            raw_locked = raw_pg_commits(config, locked=True)
        raw_free = raw_pg_commits(config, locked=False)
        served = dataclasses.replace(config, pg_table_lock=table_lock)
        cluster = start_cluster(served, servers, Path(tmp), projections=projections)
        context = multiprocessing.get_context("spawn")
        ready = context.Barrier(clients + 1)
        results = context.Queue()
        targets = [server.target for server in cluster.servers]
        shares = [inflight // clients + (i < inflight % clients) for i in range(clients)]
        processes = [
            context.Process(target=_client, args=(i, targets, shares[i], per_game, ready, results))
            for i in range(clients)
        ]
        try:
            for process in processes:
                process.start()
            with psycopg.connect(
                host=config.pg_host, port=config.pg_port, user=config.pg_user,
                dbname=config.pg_dbname, autocommit=True,
            ) as db:  # fmt: skip
                ready.wait(timeout=600)
                first = db.execute("SELECT coalesce(max(notification_id), 0) FROM stored_events")
                start_id = int(first.fetchone()[0])  # type: ignore[index]
                server_pids = [p for s in cluster.servers for p in _tree(s.process.pid)]
                pg_pids = _postgres_pids()
                cpu0 = sum(map(_cpu, server_pids)), sum(map(_cpu, pg_pids))
                t0 = time.perf_counter()
                with LockSampler(config, "stored_events") as sampler:
                    gathered = [results.get(timeout=900) for _ in processes]
                    wall = time.perf_counter() - t0
                cpu1 = sum(map(_cpu, server_pids)), sum(map(_cpu, pg_pids))
                row = db.execute(
                    "SELECT count(*), count(DISTINCT xmin::text) FROM stored_events "
                    "WHERE notification_id > %s",
                    (start_id,),
                ).fetchone()
                assert row is not None
                rows, transactions = int(row[0]), int(row[1])
            for process in processes:
                process.join(60)
        finally:
            for process in processes:
                if process.is_alive():
                    process.kill()
            cluster.stop()
    latencies = [x for part, _ in gathered for x in part]
    duplicates = sum(d for _, d in gathered)
    acks = len(latencies)
    under_lock = sampler.share * wall / transactions * 1000 if transactions else float("nan")
    raw_under_lock = raw_sampler.share / raw_locked * 1000
    print(
        f"{servers} server(s), {len(processes)} client process(es), {inflight} in flight"
        f"{' (projections on)' if projections else ''}"
        f"{' (inserts take the table lock)' if table_lock else ''}: "
        f"SubmitAction {acks / wall:,.0f}/s (p50 {_percentile(latencies, 0.5) * 1000:.1f} ms, p99 "
        f"{_percentile(latencies, 0.99) * 1000:.1f} ms, {duplicates} duplicates)"
    )
    print(
        f"  CPU per acknowledged command: servers {(cpu1[0] - cpu0[0]) / acks * 1000:.2f} ms, "
        f"PostgreSQL {(cpu1[1] - cpu0[1]) / acks * 1000:.2f} ms | {acks / transactions:.1f} "
        f"commands ({rows / transactions:.1f} rows) per insert transaction"
    )
    print(
        f"  events table lock held {sampler.share:.0%} of the time ({sampler.samples} samples"
        f"{'' if table_lock else '; the inserts take none'}): {under_lock:.2f} ms per insert "
        f"transaction | raw one-row locked insert {raw_under_lock:.2f} ms (8 connections, held "
        f"{raw_sampler.share:.0%}) | ratio {under_lock / raw_under_lock:.2f} (goal <= 2)"
    )
    print(
        f"  raw one-row commits, 8 connections: {raw_locked:,.0f}/s under the table lock, "
        f"{raw_free:,.0f}/s without it (x{raw_free / raw_locked:.2f}: what the cluster gains "
        f"from inserts without the lock)"
    )
    return acks / wall


def series(
    counts: list[int],
    clients: int,
    inflight: int,
    commands: int,
    projections: bool,
    table_lock: bool = False,
) -> None:
    """Run each cluster size of ``counts`` (smallest first) with ``clients`` client processes,
    ``inflight`` games and ``commands`` commands *per server* (so that each server gets the
    same load), and after each print its scaling against goal 5: at least 0.8 x N x the rate
    of one server (the smallest size's rate per server), and 5,000 acknowledged commands per
    second with 8 servers. A series cut short keeps the lines already printed."""
    per_server = 0.0
    for n in sorted(counts):
        rate = run(n, clients * n, inflight * n, commands * n, projections, table_lock)
        per_server = per_server or rate / n
        print(
            f"scale-out ({clients} client processes and {inflight} games in flight per "
            f"server{', table lock' if table_lock else ''}): {n} server(s) {rate:,.0f}/s = "
            f"x{rate / per_server:.2f} one server's rate (goal >= x{0.8 * n:.1f}"
            f"{', and >= 5,000/s' if n == 8 else ''})",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    """Parse the options and run (``make bench`` runs the defaults)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--inflight", type=int, default=16, help="games played at once")
    parser.add_argument("--commands", type=int, default=800, help="SubmitActions in all")
    parser.add_argument("--projections", action="store_true", help="servers keep read models")
    parser.add_argument(
        "--table-lock", action="store_true", help="inserts take the events table's lock"
    )
    parser.add_argument(
        "--series",
        help="cluster sizes to run one after the other, e.g. 1,2,4,8; --clients, --inflight "
        "and --commands are then per server, and the scaling is printed at the end",
    )
    options = parser.parse_args(argv if argv is not None else [])
    try:
        admin_connection().close()
    except psycopg.OperationalError as error:
        print(f"(skipped: PostgreSQL at {HOST}:{PORT} as {USER} unreachable: {error})")
        return
    if options.series:
        counts = [int(n) for n in options.series.split(",")]
        series(
            counts, options.clients, options.inflight, options.commands, options.projections,
            options.table_lock,
        )  # fmt: skip
        return
    run(
        options.servers, options.clients, options.inflight, options.commands, options.projections,
        options.table_lock,
    )  # fmt: skip


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
