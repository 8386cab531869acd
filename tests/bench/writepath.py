"""The write path (``make bench``): what a durable acknowledgement costs, against its floor.

A real ``annales serve`` subprocess on a temporary SQLite file (``--no-projections``, so the
figures are those of the write path alone), driven by client threads each playing its own
game from a precomputed script (every call with ``expected_version`` and an idempotency key):

* **SubmitAction / Echo** at 1, 8 and 64 calls in flight on the same server in the same run;
* **CPU per acknowledged command** at 64 in flight (the server process's user + system CPU
  time over the acknowledgements), next to the engine's own ``decide`` + ``evolve`` time for
  the same commands (measured in this process, no storage) and the server's CPU per Echo;
  then where it goes: the transport (the server's CPU per Echo), the application alone
  (``GameService.submit`` in this process on its own SQLite file, one thread, no gRPC: store,
  ledger and engine) and the rest (the API layer, and 64 threads sharing one interpreter);
  then the ceiling this machine puts on SubmitAction at that CPU: its cores over the server's
  plus this client's CPU per call, as a rate and as a ratio to the measured Echo;
* **PostgreSQL**: SubmitAction / Echo and the CPU per acknowledged command at 64 in flight
  on a fresh database (``tests/pg.py``), when one is reachable;
* **the floor at 1 in flight**: Echo p50 + one raw durable commit (an sqlite3 one-row
  INSERT + COMMIT, WAL, ``synchronous=FULL``, into a table of its own in the server's file)
  + 0.3 ms, next to the SubmitAction p50.

``WRITEPATH_BASE=/path/of/another/checkout`` also starts that checkout's server (same
interpreter, same protos) and prints its figures first: a before/after on the same machine
in the same run. Printed, never asserted. Run alone: ``.venv/bin/python -m tests.bench.writepath``.
"""

from __future__ import annotations

import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from annales.v1 import annales_pb2 as pb

from domain.bots import make_bot
from domain.core import Chance
from tests.api.conftest import ROOT, ServerProcess, free_port, health_status, stop_server
from tests.api.helpers import auth
from tests.bench.api import ECHO_CALLS, _action, _percentile, _run_threads, _stubs, bench_echo

LEVELS = (1, 8, 64)
#: SubmitAction calls per level (spread over the games in flight).
SUBMITS = {1: 300, 8: 960, 64: 1920}
SEATS = 3


def start(directory: Path, root: Path = ROOT, extra: tuple[str, ...] = ()) -> ServerProcess:
    """``annales serve --no-projections`` of the checkout at ``root`` on a fresh SQLite file
    (``extra``: more options, e.g. another store)."""
    directory.mkdir(parents=True, exist_ok=True)
    db, log, port = directory / "api.db", directory / "server.log", free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(root))
    env.pop("ANNALES_STORE", None)
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "annales_cli.main", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--db", str(db), "--no-projections", *extra],
            cwd=root, stdout=out, stderr=subprocess.STDOUT, text=True, env=env,
        )  # fmt: skip
    running = ServerProcess(process, port, db, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {running.output()}")
        if health_status(running.target) == 1:  # SERVING
            return running
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("server not SERVING")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def scripts(inflight: int) -> tuple[list[str], list[list[tuple[int, Any, pb.Action]]]]:
    """Per game: its seed and its first commands (seat, command, action) from seeded bots."""
    from tests.harness import Table, play

    per_game = SUBMITS[inflight] // inflight
    seeds, result = [], []
    for index in range(inflight):
        seed = f"bench-writepath-{inflight}-{index}-seed-0123456789"
        table = Table("riseandfall", SEATS, seed.encode())
        bots = {i: make_bot("random", f"{seed}/{i}".encode()) for i in range(SEATS)}
        commands: list[tuple[int, Any]] = []
        play(table, bots, max_commands=per_game, before=partial(_keep, commands))
        seeds.append(seed)
        result.append([(seat, command, _action(command)) for seat, command in commands])
    return seeds, result


def application_cpu(seeds: list[str], games: list[list[tuple[int, Any, pb.Action]]]) -> float:
    """CPU ms per command of the application alone — ``GameService.submit`` on a fresh SQLite
    file with the server's durability, the same commands, one thread, no gRPC: what the
    server adds on top of it is the API layer and the transport. (With ``WRITEPATH_BASE``
    this, like the engine's time, is measured with this checkout's code.)"""
    from service.app.application import GameService
    from service.store.config import StoreConfig
    from service.store.eventstore import EventStore

    with tempfile.TemporaryDirectory() as tmp:
        service = GameService(EventStore(StoreConfig(path=str(Path(tmp) / "app.db"))))
        created = [
            service.create_game("riseandfall", {}, ["a", "b", "c"], seed.encode()).game_id
            for seed in seeds
        ]
        count = 0
        t0 = time.thread_time()
        for game_id, script in zip(created, games, strict=True):
            for step, (seat, command, _) in enumerate(script):
                service.submit(game_id, seat, command, idempotency_key=f"a{step}")
                count += 1
        spent = time.thread_time() - t0
        service.store.close()
    return spent / count * 1000


def _keep(into: list[tuple[int, Any]], _table: Any, seat: int, command: Any) -> None:
    into.append((seat, command))


def engine_seconds(seeds: list[str], games: list[list[tuple[int, Any, pb.Action]]]) -> float:
    """The engine's ``decide`` + ``evolve`` time for every command of ``games`` (no storage,
    no ledger, no hashing), total seconds."""
    from domain.registry import get_game

    game = get_game("riseandfall")
    spent = 0.0
    for seed, script in zip(seeds, games, strict=True):
        state = game.initial(game.decode_options({}), SEATS)
        version = 1  # GameCreated
        for event in game.setup(state, Chance(seed.encode(), version)):
            state = game.evolve(state, event)
            version += 1
        for seat, command, _ in script:
            t0 = time.perf_counter()
            events = game.decide(state, seat, command, Chance(seed.encode(), version))
            for event in events:
                state = game.evolve(state, event)
            spent += time.perf_counter() - t0
            version += len(events)
    return spent


def game_players(
    stubs: list[Any], seeds: list[str], games: list[list[tuple[int, Any, pb.Action]]], key: str
) -> Callable[[int], list[float]]:
    """Create one Rise & Fall game per seed (stub ``i`` for game ``i``) and return the worker
    that plays game ``i``'s scripted commands, one SubmitAction at a time (idempotency keys
    ``key`` + step), and gives each call's latency in seconds."""
    created = []
    for index, seed in enumerate(seeds):
        answer = stubs[index].CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b", "c"], seed=seed
            )
        )
        created.append((answer.game_id, {t.seat: t.token for t in answer.seat_tokens},
                        answer.version))  # fmt: skip

    def work(index: int) -> list[float]:
        game_id, tokens, version = created[index]
        latencies = []
        for step, (seat, _, action) in enumerate(games[index]):
            request = pb.SubmitActionRequest(
                game_id=game_id, action=action, expected_version=version,
                idempotency_key=f"{key}{step}",
            )  # fmt: skip
            t0 = time.perf_counter()
            version = stubs[index].SubmitAction(request, metadata=auth(tokens[seat])).version
            latencies.append(time.perf_counter() - t0)
        return latencies

    return work


@dataclass(frozen=True)
class SubmitFigures:
    """SubmitAction at some calls in flight: rate, latencies and CPU (ms per acknowledged
    command: the server's, the engine's decide+evolve, the application's alone, and this
    client process's own while it drove the calls)."""

    rate: float
    p50: float
    p99: float
    cpu: float
    engine: float
    application: float
    client_cpu: float


def client_cpu_seconds() -> float:
    """User + system CPU time of this (client) process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def submit(server: ServerProcess, inflight: int) -> SubmitFigures:
    """SubmitAction at ``inflight`` in flight, one game per client thread."""
    channels, stubs, _ = _stubs(server, inflight)
    seeds, games = scripts(inflight)
    work = game_players(stubs, seeds, games, "w")
    cpu0, client0 = cpu_seconds(server.process.pid), client_cpu_seconds()
    wall, latencies = _run_threads(inflight, work)
    cpu = cpu_seconds(server.process.pid) - cpu0
    client = client_cpu_seconds() - client0
    for channel in channels:
        channel.close()
    acks = len(latencies)
    engine = engine_seconds(seeds, games)
    return SubmitFigures(
        rate=acks / wall,
        p50=_percentile(latencies, 0.5) * 1000,
        p99=_percentile(latencies, 0.99) * 1000,
        cpu=cpu / acks * 1000,
        engine=engine / acks * 1000,
        application=application_cpu(seeds, games),
        client_cpu=client / acks * 1000,
    )


def ceiling(echo_rate: float, echo_cpu: float, echo_client: float, figures: SubmitFigures) -> str:
    """What this machine allows SubmitAction at the CPU it costs now, against this Echo: with
    every core busy, calls/s ≤ cores / (server + client CPU per call)."""
    cores = os.cpu_count() or 1
    machine = cores / (figures.cpu + figures.client_cpu) * 1000
    echo_machine = cores / (echo_cpu + echo_client) * 1000
    return (
        f"the ceiling @64 on this machine ({cores} cores; CPU ms per call, server + client): "
        f"Echo {echo_cpu:.2f} + {echo_client:.2f} (≤ {echo_machine:,.0f}/s, measured "
        f"{echo_rate:,.0f}/s), SubmitAction {figures.cpu:.2f} + {figures.client_cpu:.2f}: "
        f"≤ {machine:,.0f}/s with every core busy, ratio ≤ {machine / echo_rate:.2f}"
    )


def raw_durable_commits(db: Path, count: int = 200) -> list[float]:
    """Times (ms) of raw one-row INSERT + COMMIT by sqlite3 (WAL, ``synchronous=FULL``)
    into a table of its own in the server's database file, the server idle: the same file,
    WAL and disk as the server's commits."""
    db_connection = sqlite3.connect(db, isolation_level=None, timeout=30)
    db_connection.execute("PRAGMA synchronous=FULL")
    db_connection.execute(
        "CREATE TABLE IF NOT EXISTS raw_commit (id INTEGER PRIMARY KEY, data BLOB)"
    )
    times = []
    for _ in range(count):
        t0 = time.perf_counter()
        db_connection.execute("BEGIN IMMEDIATE")
        db_connection.execute("INSERT INTO raw_commit (data) VALUES (?)", (b"x" * 300,))
        db_connection.execute("COMMIT")
        times.append((time.perf_counter() - t0) * 1000)
    db_connection.close()
    return times


def run(label: str, root: Path, directory: Path) -> None:
    """Every figure of this module for the checkout at ``root``."""
    server = start(directory, root)
    try:
        for inflight in LEVELS:
            cpu0, client0 = cpu_seconds(server.process.pid), client_cpu_seconds()
            echo = bench_echo(server, inflight)
            calls = ECHO_CALLS[inflight] // inflight * (inflight + 1)  # with its warm-up
            echo_cpu = (cpu_seconds(server.process.pid) - cpu0) / calls * 1000
            echo_client = (client_cpu_seconds() - client0) / calls * 1000
            before = raw_durable_commits(server.db) if inflight == 1 else []
            figures = submit(server, inflight)
            rate, p50, cpu, engine = figures.rate, figures.p50, figures.cpu, figures.engine
            print(
                f"{label}SubmitAction @{inflight:>2}: {rate:,.0f}/s (p50 {p50:.2f} ms, p99 "
                f"{figures.p99:.2f} ms) | Echo {echo[0]:,.0f}/s (p50 {echo[1]:.2f} ms) | ratio "
                f"{rate / echo[0]:.3f}"
            )
            if inflight == 64:
                print(
                    f"{label}  CPU per acknowledged command @64: {cpu:.2f} ms | engine "
                    f"decide+evolve of the same commands {engine:.3f} ms | ratio "
                    f"{cpu / engine:.0f}x | server CPU per Echo {echo_cpu:.2f} ms"
                )
                print(
                    f"{label}  where it goes: transport (server CPU per Echo) {echo_cpu:.2f} ms + "
                    f"application alone (store, ledger, engine; one thread, no gRPC) "
                    f"{figures.application:.2f} ms, of which the engine {engine:.2f} ms + the "
                    f"rest {max(0.0, cpu - echo_cpu - figures.application):.2f} ms (the API "
                    "layer — token, action, redaction, log line — and 64 threads sharing one "
                    "interpreter)"
                )
                print(f"{label}  {ceiling(echo[0], echo_cpu, echo_client, figures)}")
            if inflight == 1:  # the disk is shared: commits timed just before and after
                raw = statistics.median(before + raw_durable_commits(server.db))
                floor = echo[1] + raw + 0.3
                print(
                    f"{label}  @1 floor: Echo p50 {echo[1]:.2f} ms + raw durable commit "
                    f"{raw:.2f} ms + 0.3 ms = {floor:.2f} ms | SubmitAction p50 {p50:.2f} ms | "
                    f"ratio {p50 / floor:.2f}"
                )
    finally:
        stop_server(server)


def run_postgres(label: str, root: Path, directory: Path) -> None:
    """SubmitAction / Echo and CPU per acknowledged command at 64 in flight on a fresh
    PostgreSQL database (skipped with a line when PostgreSQL is unreachable)."""
    import psycopg

    from tests.pg import fresh_database

    try:
        with fresh_database() as config:
            server = start(
                directory, root, ("--store", "postgres", "--pg-dbname", config.pg_dbname)
            )
            try:
                echo = bench_echo(server, 64)
                figures = submit(server, 64)
            finally:
                stop_server(server)
    except psycopg.OperationalError as error:
        print(f"{label}(PostgreSQL unavailable: {error})")
        return
    print(
        f"{label}PostgreSQL SubmitAction @64: {figures.rate:,.0f}/s (p50 {figures.p50:.2f} ms) "
        f"| Echo {echo[0]:,.0f}/s | ratio {figures.rate / echo[0]:.3f} | CPU per acknowledged "
        f"command {figures.cpu:.2f} ms, engine decide+evolve {figures.engine:.3f} ms"
    )


def main() -> None:
    """Print the write-path figures (and those of ``WRITEPATH_BASE`` first, when set)."""
    with tempfile.TemporaryDirectory() as tmp:
        base = os.environ.get("WRITEPATH_BASE")
        if base:
            run("[base] ", Path(base), Path(tmp) / "base")
            run_postgres("[base] ", Path(base), Path(tmp) / "base-pg")
        run("", ROOT, Path(tmp) / "this")
        run_postgres("", ROOT, Path(tmp) / "this-pg")


if __name__ == "__main__":
    main()
