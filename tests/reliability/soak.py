"""The soak: minutes of mixed traffic over many concurrent games on one real server.

``make soak`` runs ``python -m tests.reliability.soak --store both``: for each store
(an SQLite file, then a fresh PostgreSQL database) a server is started, ``SOAK_GAMES``
(default 200) games of every type are created through the API, and for ``SOAK_SECONDS``
(default 600) seconds worker threads send, as fast as they are answered:

* writes (55 %): a random legal action (ListLegalActions + SubmitAction with the expected
  version and a key), sometimes Undo, sometimes RequestUndo answered by every other seat with
  RespondUndo; a finished game is replaced by a new one (CreateGame);
* reads: GetGame, GetView (as a seat), GetHistory (a random page), ListGames;
* stale writes (2 %): SubmitAction with ``expected_version`` one behind — the *expected
  conflicts*, which must be ABORTED / VERSION_CONFLICT and change nothing;
* watchers: threads that follow a random game with WatchGame for a few seconds each.

It reports every RPC's count and p50 / p99 / max latency, throughput, the resident memory of
the server (with its read-model child) sampled from start to end, and every error other than
the expected conflicts — a run is clean when there are none. At the end the store is checked
like after a crash run (:func:`tests.reliability.checks.check_store`: every acknowledged
write present, no gap, chains and records verify, folds equal a replay).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from service.store.config import StoreConfig
from tests.reliability.checks import check_store
from tests.reliability.cluster import Server, postgres_store, sqlite_store
from tests.reliability.player import Journal, Refused, Table, advance, call, create

WEIGHTS = {"write": 55, "GetGame": 10, "GetView": 12, "GetHistory": 10, "ListGames": 6, "stale": 2}
GAME_TYPES = ("riseandfall", "riseandfall", "riseandfall", "tapestry", "imperium")


@dataclass(frozen=True)
class SoakPlan:
    """How long and how wide."""

    seconds: float = 600.0
    games: int = 200
    workers: int = 8
    watchers: int = 4
    seed: int = 1
    samples: int = 10  # memory samples over the run
    stale_percent: int = 2  # share of operations that are stale writes (expected conflicts)
    check: bool = True


@dataclass
class SoakReport:
    """The numbers of one soak run."""

    store: str
    seconds: float = 0.0
    games_created: int = 0
    calls: dict[str, int] = field(default_factory=dict)
    latency_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    expected_conflicts: int = 0
    watch_streams: int = 0
    watched_events: int = 0
    rss_kib: list[int] = field(default_factory=list)  # server + read-model child
    server_rss_kib: list[int] = field(default_factory=list)  # the server process alone
    errors: list[str] = field(default_factory=list)
    store_problems: list[str] = field(default_factory=list)
    store_summary: str = ""

    @property
    def clean(self) -> bool:
        """No error other than the expected conflicts, and the store checks passed."""
        return not self.errors and not self.store_problems

    def text(self) -> str:
        """A human-readable report."""
        total = sum(self.calls.values())
        lines = [
            f"== soak on {self.store}: {self.seconds:.0f}s, {total} calls "
            f"({total / max(self.seconds, 1e-9):.0f}/s), {self.games_created} games created, "
            f"{self.expected_conflicts} expected conflicts, {self.watch_streams} watch streams "
            f"({self.watched_events} events), errors: {len(self.errors)}",
            f"   server RSS (KiB, with its read-model child): start {self.rss_kib[0]}, "
            f"end {self.rss_kib[-1]}, max {max(self.rss_kib)}; samples {self.rss_kib}",
            f"   server process alone (KiB): samples {self.server_rss_kib}",
            f"   {'rpc':<18}{'calls':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}",
        ]
        for method in sorted(self.latency_ms):
            stats = self.latency_ms[method]
            lines.append(
                f"   {method:<18}{self.calls.get(method, 0):>8}{stats['p50']:>9.1f}"
                f"{stats['p99']:>9.1f}{stats['max']:>9.1f}"
            )
        lines.append(f"   store check: {self.store_summary or 'skipped'}")
        lines.extend(f"   ERROR: {error}" for error in self.errors[:20])
        lines.extend(f"   STORE: {problem}" for problem in self.store_problems[:20])
        return "\n".join(lines)


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank; 0 when empty).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5)
    2.0
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(fraction * len(ordered) + 0.999999) - 1))
    return ordered[rank]


class Soak:
    """The traffic of one run."""

    def __init__(self, server: Server, plan: SoakPlan, journal: Journal) -> None:
        self.server = server
        self.plan = plan
        self.journal = journal
        self.tables: list[Table] = []
        self.stop = threading.Event()
        self._guard = threading.Lock()
        self._created = 0
        self.watch_streams = 0
        self.watched_events = 0

    def new_table(self, stub: annales_pb2_grpc.GameServiceStub) -> Table:
        """Create a game (the type and seat count cycle with the creation number)."""
        with self._guard:
            number = self._created
            self._created += 1
        game_type = GAME_TYPES[number % len(GAME_TYPES)]
        seats = 2 + number % 3
        return create(stub, self.journal, game_type, seats, f"soak-{self.plan.seed}-{number}")

    def populate(self, stub: annales_pb2_grpc.GameServiceStub) -> None:
        """Create the plan's games."""
        self.tables = [self.new_table(stub) for _ in range(self.plan.games)]

    def _read(
        self, stub: annales_pb2_grpc.GameServiceStub, op: str, table: Table, rng: Any
    ) -> None:
        j, gid = self.journal, table.game_id
        if op == "GetGame":
            call(j, op, stub.GetGame, pb.GetGameRequest(game_id=gid))
        elif op == "GetView":
            seat = rng.randrange(len(table.tokens))
            call(j, op, stub.GetView, pb.GetViewRequest(game_id=gid), table.md(seat))
        elif op == "GetHistory":
            first, _ = call(
                j, op, stub.GetHistory, pb.GetHistoryRequest(game_id=gid, page_size=100)
            )
            if first.next_page_token and rng.random() < 0.5:
                more = pb.GetHistoryRequest(
                    game_id=gid, page_size=100, page_token=first.next_page_token
                )
                call(j, op, stub.GetHistory, more)
        elif op == "ListGames":
            status = rng.choice([pb.GAME_STATUS_UNSPECIFIED, pb.GAME_STATUS_RUNNING])
            listing = pb.ListGamesRequest(page_size=50, status=status)
            call(j, op, stub.ListGames, listing)

    def _stale(self, stub: annales_pb2_grpc.GameServiceStub, table: Table, rng: Any) -> None:
        """A write at a stale version: must be ABORTED (an expected conflict)."""
        seat = table.pending[0] if table.pending else 0
        listing = pb.ListLegalActionsRequest(game_id=table.game_id)
        legal, _ = call(self.journal, "ListLegalActions", stub.ListLegalActions, listing,
                        table.md(seat))  # fmt: skip
        if not legal.actions or legal.version < 2:
            return
        request = pb.SubmitActionRequest(
            game_id=table.game_id,
            action=rng.choice(list(legal.actions)),
            expected_version=legal.version - 1,
            idempotency_key=f"stale-{rng.getrandbits(64):x}",
        )
        try:
            call(self.journal, "SubmitAction", stub.SubmitAction, request, table.md(seat))
        except Refused as error:
            if error.code == grpc.StatusCode.ABORTED and error.reason == "VERSION_CONFLICT":
                self.journal.count("expected conflicts")
                return
            raise
        self.journal.error(f"{table.game_id}: a write at a stale version was accepted")

    def worker(self, index: int) -> None:
        """Send mixed traffic until stopped."""
        rng = random.Random(f"soak-{self.plan.seed}-{index}")
        mix = {**WEIGHTS, "stale": self.plan.stale_percent}
        ops, weights = list(mix), list(mix.values())
        with self.server.channel() as channel:
            stub = annales_pb2_grpc.GameServiceStub(channel)
            while not self.stop.is_set():
                op = rng.choices(ops, weights)[0]
                slot = rng.randrange(len(self.tables))
                table = self.tables[slot]
                try:
                    if op in ("write", "stale"):
                        if not table.lock.acquire(blocking=False):
                            continue  # another worker writes to this game now
                        try:
                            if op == "stale":
                                self._stale(stub, table, rng)
                            elif not advance(stub, table, rng, self.journal):
                                self.tables[slot] = self.new_table(stub)
                        finally:
                            table.lock.release()
                    else:
                        self._read(stub, op, table, rng)
                except Exception as error:  # Refused, or a bug of the harness: both reported
                    self.journal.error(repr(error))

    def watcher(self, index: int) -> None:
        """Follow random games with WatchGame, a few seconds each."""
        rng = random.Random(f"watch-{self.plan.seed}-{index}")
        with self.server.channel() as channel:
            stub = annales_pb2_grpc.GameServiceStub(channel)
            while not self.stop.is_set():
                table = self.tables[rng.randrange(len(self.tables))]
                try:
                    got = stub.GetGame(
                        pb.GetGameRequest(game_id=table.game_id), timeout=20, wait_for_ready=True
                    )
                    request = pb.WatchGameRequest(
                        game_id=table.game_id, after_version=got.game.version
                    )
                    expected = got.game.version + 1
                    stream = stub.WatchGame(
                        request, timeout=rng.uniform(1.0, 4.0), wait_for_ready=True
                    )
                    for message in stream:
                        for event in message.events:
                            if event.seq != expected:
                                self.journal.error(
                                    f"watch {table.game_id}: seq {event.seq}, {expected} expected"
                                )
                            expected = event.seq + 1
                            with self._guard:
                                self.watched_events += 1
                        if self.stop.is_set():
                            stream.cancel()
                except grpc.RpcError as error:
                    code = error.code()
                    if code not in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED):
                        self.journal.error(f"WatchGame: {code.name} {error}")
                        continue
                with self._guard:
                    self.watch_streams += 1


def run_soak(config: StoreConfig, directory: Path, plan: SoakPlan) -> SoakReport:
    """Run one soak on ``config`` (files in ``directory``)."""
    report = SoakReport(store=config.kind)
    journal = Journal()
    server = Server(config, directory, name="soak")
    server.start()
    soak = Soak(server, plan, journal)
    try:
        with server.channel() as channel:
            soak.populate(annales_pb2_grpc.GameServiceStub(channel))
        threads = [threading.Thread(target=soak.worker, args=(i,)) for i in range(plan.workers)]
        threads += [threading.Thread(target=soak.watcher, args=(i,)) for i in range(plan.watchers)]
        report.rss_kib.append(server.rss_kib())
        report.server_rss_kib.append(server.rss_kib(children=False))
        began = time.monotonic()
        for thread in threads:
            thread.start()
        step = plan.seconds / max(plan.samples, 1)
        while (left := began + plan.seconds - time.monotonic()) > 0:
            time.sleep(min(step, left))
            report.rss_kib.append(server.rss_kib())
            report.server_rss_kib.append(server.rss_kib(children=False))
            if not server.alive():
                report.errors.append("the server died")
                break
        soak.stop.set()
        for thread in threads:
            thread.join(60)
        report.seconds = time.monotonic() - began
    finally:
        soak.stop.set()
        code = server.stop()
        server.ensure_stopped()
    if code != 0:
        report.errors.append(f"the server's graceful stop exited with {code}")
    report.errors.extend(server.fatal_errors())
    report.errors.extend(journal.errors)
    report.games_created = journal.counts.get("CreateGame", 0)
    report.expected_conflicts = journal.counts.get("expected conflicts", 0)
    report.watch_streams, report.watched_events = soak.watch_streams, soak.watched_events
    for method, values in journal.latencies.items():
        report.calls[method] = len(values)
        report.latency_ms[method] = {
            "p50": 1000 * percentile(values, 0.50),
            "p99": 1000 * percentile(values, 0.99),
            "max": 1000 * max(values),
        }
    if plan.check:
        checked = check_store(config, journal)
        report.store_problems = checked.problems
        report.store_summary = (
            f"{checked.games} games, {checked.events} events, {checked.acked_events} "
            f"acknowledged events present, {checked.finished} finished "
            f"({checked.reexecuted} re-executed), folds equal a replay: "
            f"{'yes' if not checked.problems else 'NO'}"
        )
    return report


def main(argv: list[str] | None = None) -> int:
    """Command line (``make soak``): soak each store, print the reports; 1 if not clean."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument(
        "--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", "600"))
    )
    parser.add_argument("--games", type=int, default=int(os.environ.get("SOAK_GAMES", "200")))
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--watchers", type=int, default=4)
    parser.add_argument("--no-check", action="store_true", help="skip the store check")
    parser.add_argument("--json", help="also write the reports to this JSON file")
    args = parser.parse_args(argv)
    plan = SoakPlan(args.seconds, args.games, args.workers, args.watchers, check=not args.no_check)
    stores = ["sqlite", "postgres"] if args.store == "both" else [args.store]
    reports: list[SoakReport] = []
    for kind in stores:
        directory = Path(tempfile.mkdtemp(prefix=f"annales-soak-{kind}-"))
        if kind == "sqlite":
            reports.append(run_soak(sqlite_store(directory), directory, plan))
        else:
            with postgres_store("soak") as config:
                reports.append(run_soak(config, directory, plan))
        print(reports[-1].text(), flush=True)
        if reports[-1].clean:
            shutil.rmtree(directory, ignore_errors=True)
        else:
            print(f"   (files and the server log kept in {directory})", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps([vars(r) for r in reports], indent=1))
    return 0 if all(report.clean for report in reports) else 1


if __name__ == "__main__":
    raise SystemExit(main())
