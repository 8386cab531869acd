"""The crash harness: sustained load on a real server killed with SIGKILL again and again.

:func:`run_crash` starts ``annales serve`` on a store (SQLite file or PostgreSQL database),
lets ``clients`` threads play ``games_per_client`` games each through the API (random legal
actions with expected versions and idempotency keys, undos, undo requests; a finished game is
replaced by a new one), and meanwhile, at seeded random moments — each after the load has
made progress since the previous kill, so every kill lands with requests in flight — either

* SIGKILLs the server and starts it again on the same port (clients keep their channels and
  send their in-flight request again, with the same key), or
* SIGKILLs the server's read-model runner child (the server's watchdog must start a new one).

Then it checks (see :mod:`tests.reliability.checks`): the read models catch up with the log;
every acknowledged write is in the store with its hash; no gap or duplicate; every hash chain
and record verifies; folds from the crashed servers' snapshots equal a replay; a long-lived
server's answers equal a fresh server's; the read models equal a rebuild; no runner process
outlives its server.

Run by hand: ``python -m tests.reliability.crash --store sqlite --kills 20`` (or
``--store postgres``, which creates and drops a database).
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from annales.v1 import annales_pb2_grpc

from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from tests.reliability.checks import (
    StoreReport,
    api_answers,
    check_readmodels,
    check_store,
    readmodel_position,
)
from tests.reliability.cluster import Server, postgres_store, sqlite_store
from tests.reliability.player import Journal, Table, advance, create


@dataclass(frozen=True)
class CrashPlan:
    """How hard to hit the server."""

    kills: int = 20  # SIGKILLs of the server
    runner_kills: int = 4  # SIGKILLs of its read-model runner
    clients: int = 4
    games_per_client: int = 3
    min_gap: float = 0.1  # seconds of load between progress after a restart and the next kill
    max_gap: float = 0.8
    seed: int = 1
    game_types: tuple[str, ...] = ("riseandfall", "riseandfall", "tapestry", "imperium")


@dataclass
class CrashReport:
    """What happened and what the checks found."""

    store: str
    kills: int = 0
    runner_kills: int = 0
    runner_restarts_seen: int = 0
    seconds: float = 0.0
    acks: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    restart_seconds: float = 0.0
    catch_up_seconds: float = 0.0
    checked: StoreReport = field(default_factory=StoreReport)
    errors: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        """Everything that went wrong (empty when the run is clean)."""
        return self.errors + self.checked.problems

    def summary(self) -> str:
        """One paragraph for logs and reports."""
        c = self.checked
        return (
            f"[{self.store}] {self.kills} server kills + {self.runner_kills} runner kills "
            f"(runner restarted {self.runner_restarts_seen}) in {self.seconds:.1f}s; "
            f"{self.acks} acknowledged writes ({self.counts.get('retried writes', 0)} retried "
            f"across a kill, {self.counts.get('duplicate answers', 0)} answered as duplicates), "
            f"{self.counts.get('CreateGame', 0)} games created; store: {c.games} games, "
            f"{c.events} events, {c.acked_events} acknowledged events all present, "
            f"{c.finished} finished ({c.reexecuted} re-executed), {c.snapshots_compared} folds "
            f"compared; mean restart {self.restart_seconds:.2f}s, read models caught up "
            f"{self.catch_up_seconds:.2f}s after the load; problems: {len(self.problems)}"
        )


class Load:
    """Client threads playing games on a server until stopped."""

    def __init__(self, server: Server, plan: CrashPlan, journal: Journal) -> None:
        self.server = server
        self.plan = plan
        self.journal = journal
        self.stop = threading.Event()
        self.tables: dict[str, Table] = {}
        self._guard = threading.Lock()
        self.threads = [
            threading.Thread(target=self._client, args=(i,), name=f"crash-client-{i}")
            for i in range(plan.clients)
        ]

    def start(self) -> None:
        """Start the clients."""
        for thread in self.threads:
            thread.start()

    def finish(self) -> None:
        """Stop the clients after their current call."""
        self.stop.set()
        for thread in self.threads:
            thread.join(120)

    def _new(self, stub: annales_pb2_grpc.GameServiceStub, index: int, number: int) -> Table:
        plan = self.plan
        game_type = plan.game_types[(index + number) % len(plan.game_types)]
        seats = 2 + (index + number) % 2
        table = create(stub, self.journal, game_type, seats, f"crash-{plan.seed}-{index}-{number}")
        with self._guard:
            self.tables[table.game_id] = table
        return table

    def _client(self, index: int) -> None:
        rng = random.Random(f"crash-{self.plan.seed}-{index}")
        created = 0
        with self.server.channel() as channel:
            stub = annales_pb2_grpc.GameServiceStub(channel)
            tables: list[Table] = []
            try:
                while len(tables) < self.plan.games_per_client:
                    tables.append(self._new(stub, index, created))
                    created += 1
                while not self.stop.is_set():
                    slot = rng.randrange(len(tables))
                    if not advance(stub, tables[slot], rng, self.journal):
                        tables[slot] = self._new(stub, index, created)
                        created += 1
            except Exception as error:  # Refused, or a bug of the harness: both are reported
                self.journal.error(f"client {index}: {error!r}")


def _wait_progress(journal: Journal, since: int, timeout: float = 90.0) -> bool:
    deadline = time.monotonic() + timeout
    while journal.total_acks() <= since:
        if time.monotonic() > deadline or journal.errors:
            return False
        time.sleep(0.01)
    return True


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def _kill_loop(server: Server, plan: CrashPlan, journal: Journal, report: CrashReport) -> list[int]:
    """Kill the server / its runner at seeded moments; return the runner pids of killed
    servers (they must end by themselves)."""
    rng = random.Random(f"kills-{plan.seed}")
    targets = ["server"] * plan.kills + ["runner"] * plan.runner_kills
    rng.shuffle(targets)
    orphans: list[int] = []
    restarts: list[float] = []
    for target in targets:
        if not _wait_progress(journal, journal.total_acks()):
            report.errors.append(f"no progress before kill {report.kills + report.runner_kills}")
            break
        time.sleep(rng.uniform(plan.min_gap, plan.max_gap))
        if target == "server":
            orphans.extend(server.children())
            began = time.monotonic()
            server.restart()
            restarts.append(time.monotonic() - began)
            report.kills += 1
        else:
            killed = server.kill_runner()
            report.runner_kills += 1
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                if [pid for pid in server.children() if pid != killed]:
                    report.runner_restarts_seen += 1
                    break
                time.sleep(0.02)
    report.restart_seconds = sum(restarts) / len(restarts) if restarts else 0.0
    return orphans


def _catch_up(config: StoreConfig, server: Server, timeout: float = 90.0) -> float | None:
    """Seconds until the server's read models reach the log's head (``None``: never)."""
    store = EventStore(config)
    try:
        head = store.feed_head()
    finally:
        store.close()
    began = time.monotonic()
    while readmodel_position(server.readmodels) < head:
        if time.monotonic() - began > timeout:
            return None
        time.sleep(0.05)
    return time.monotonic() - began


def run_crash(config: StoreConfig, directory: Path, plan: CrashPlan) -> CrashReport:
    """Run the harness on ``config`` (files in ``directory``) and return its report (no
    server process is left running, whatever happens)."""
    servers: list[Server] = []
    try:
        return _run(config, directory, plan, servers)
    finally:
        for server in servers:
            server.ensure_stopped()


def _run(
    config: StoreConfig, directory: Path, plan: CrashPlan, servers: list[Server]
) -> CrashReport:
    report = CrashReport(store=config.kind)
    journal = Journal()
    server = Server(config, directory)
    servers.append(server)
    server.start()
    load = Load(server, plan, journal)
    began = time.monotonic()
    try:
        load.start()
        orphans = _kill_loop(server, plan, journal, report)
        if not _wait_progress(journal, journal.total_acks()):
            report.errors.append("no progress after the last kill")
        time.sleep(0.3)
    finally:
        load.finish()
    report.seconds = time.monotonic() - began
    report.errors.extend(journal.errors)
    report.acks = journal.total_acks()
    report.counts = dict(journal.counts)
    if not server.alive():
        report.errors.append(f"the server died by itself:\n{server.output()[-3000:]}")
        server.start()
    caught = _catch_up(config, server)
    if caught is None:
        report.errors.append("the read models did not catch up with the log in 90 s")
    report.catch_up_seconds = caught or 0.0
    with server.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        ids = sorted(journal.created)
        before = api_answers(stub, ids, load.tables)
    code = server.stop()
    if code != 0:
        report.errors.append(f"graceful stop after the run exited with {code}")
    deadline = time.monotonic() + 15
    while any(_alive(pid) for pid in orphans) and time.monotonic() < deadline:
        time.sleep(0.1)
    leftover = [pid for pid in orphans if _alive(pid)]
    if leftover:
        report.errors.append(f"read-model runners outlived their killed server: {leftover}")
    report.checked = check_store(config, journal)  # deletes the snapshots (a cache)
    fresh = Server(config, directory, projections=False, name="fresh")
    servers.append(fresh)
    fresh.start()
    try:
        with fresh.channel() as channel:
            after = api_answers(annales_pb2_grpc.GameServiceStub(channel), ids, load.tables)
    finally:
        fresh.stop()
    differing = [game_id for game_id in ids if before[game_id] != after[game_id]]
    if differing:
        report.errors.append(f"a fresh server answers differently about {differing[:5]}")
    report.errors.extend(check_readmodels(config, server.readmodels))
    report.errors.extend(server.fatal_errors())
    return report


def main(argv: list[str] | None = None) -> int:
    """Command line: run the harness on one store and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--runner-kills", type=int, default=4)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--games", type=int, default=3, help="games per client")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    plan = CrashPlan(args.kills, args.runner_kills, args.clients, args.games, seed=args.seed)
    directory = Path(tempfile.mkdtemp(prefix="annales-crash-"))
    if args.store == "sqlite":
        report = run_crash(sqlite_store(directory), directory, plan)
    else:
        with postgres_store("crash") as config:
            report = run_crash(config, directory, plan)
    print(report.summary())
    for problem in report.problems:
        print("PROBLEM:", problem)
    if report.problems:
        print(f"(files and server logs kept in {directory})")
        return 1
    shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
