"""gRPC API benchmarks (``make bench``): printed as ratios to the trivial Echo RPCs, never asserted.

A real ``annales serve`` subprocess on a temporary SQLite file serves both the game RPCs and
``DiagnosticsService`` (Echo / EchoStream), so every ratio compares two calls on the same
server, transport and machine in the same run:

* SubmitAction throughput and p50 / p99 latency at 1, 8 and 64 calls in flight (threads, each
  playing its own game so that in-flight submits never conflict), against Echo at the same
  concurrency. The commands are precomputed in memory (seeded random bots on the same seeds),
  so only SubmitAction is timed — each with ``expected_version`` and an idempotency key;
* projection lag (event committed → visible in the read model written by the server's own
  runner) under that SubmitAction load, p50 / p99 (see :mod:`tests.bench.lag`);
* WatchGame events/s and messages/s (a finished game streamed from the start, and a live game
  watched while it is played), against EchoStream messages/s.

Run alone: ``.venv/bin/python -m tests.bench.api``.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import msgspec
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from domain.bots import make_bot
from projections.runner import default_path
from service.api.convert import fill
from tests.api.conftest import ServerProcess, start_server, stop_server
from tests.api.helpers import auth
from tests.bench.lag import LagProbe
from tests.harness import Table, play

LEVELS = (1, 8, 64)
#: SubmitAction calls per level (spread over the games in flight).
SUBMITS = {1: 400, 8: 1200, 64: 1920}
ECHO_CALLS = {1: 1000, 8: 3000, 64: 4000}
STREAM_COUNT = 20_000


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _action(command: Any) -> pb.Action:
    action = pb.Action()
    fill(action.rise_and_fall, msgspec.to_builtins(command), "RiseAndFall")
    return action


def _script(seats: int, seed: str, commands: int) -> list[tuple[int, pb.Action]]:
    """The first ``commands`` (seat, action) of a seeded random-bot game, computed in memory."""
    table = Table("riseandfall", seats, seed.encode())
    bots = {i: make_bot("random", f"{seed}/{i}".encode()) for i in range(seats)}
    script: list[tuple[int, pb.Action]] = []

    def record(_table: Table, seat: int, command: Any) -> None:
        script.append((seat, _action(command)))

    play(table, bots, max_commands=commands, before=record)
    return script


def _run_threads(count: int, work: Callable[[int], list[float]]) -> tuple[float, list[float]]:
    """Run ``work(i)`` in ``count`` threads released together: (wall seconds, latencies)."""
    barrier = threading.Barrier(count + 1)
    results: list[list[float]] = [[] for _ in range(count)]
    errors: list[BaseException] = []

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = work(index)
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    barrier.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    if errors:
        raise errors[0]
    return wall, [x for r in results for x in r]


def _stubs(server: ServerProcess, count: int) -> tuple[list[grpc.Channel], list[Any], list[Any]]:
    channels = [server.channel() for _ in range(min(count, 8))]
    for channel in channels:
        grpc.channel_ready_future(channel).result(timeout=10)
    games = [annales_pb2_grpc.GameServiceStub(channels[i % len(channels)]) for i in range(count)]
    diags = [
        annales_pb2_grpc.DiagnosticsServiceStub(channels[i % len(channels)]) for i in range(count)
    ]
    return channels, games, diags


def bench_echo(server: ServerProcess, inflight: int) -> tuple[float, float, float]:
    """Echo: (calls/s, p50 ms, p99 ms) at ``inflight`` calls in flight."""
    channels, _, diags = _stubs(server, inflight)
    per_thread = ECHO_CALLS[inflight] // inflight
    request = pb.EchoRequest(payload=b"x" * 64)

    def work(index: int) -> list[float]:
        latencies = []
        for _ in range(per_thread):
            t0 = time.perf_counter()
            diags[index].Echo(request)
            latencies.append(time.perf_counter() - t0)
        return latencies

    work(0)  # warm-up
    wall, latencies = _run_threads(inflight, work)
    for channel in channels:
        channel.close()
    return (
        len(latencies) / wall,
        _percentile(latencies, 0.5) * 1000,
        _percentile(latencies, 0.99) * 1000,
    )


def bench_submit(
    server: ServerProcess, inflight: int, probe: LagProbe | None = None
) -> tuple[float, float, float]:
    """SubmitAction: (calls/s, p50 ms, p99 ms) at ``inflight`` calls in flight, one game each;
    every acknowledged command is reported to ``probe`` (projection lag)."""
    channels, stubs, _ = _stubs(server, inflight)
    per_game = SUBMITS[inflight] // inflight
    scripts, games = [], []
    for index in range(inflight):
        seed = f"bench-submit-{inflight}-{index}-seed-0123456789"
        scripts.append(_script(3, seed, per_game))
        answer = stubs[index].CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b", "c"], seed=seed
            )
        )
        tokens = {t.seat: t.token for t in answer.seat_tokens}
        games.append((answer.game_id, tokens, answer.version))

    def work(index: int) -> list[float]:
        game_id, tokens, version = games[index]
        latencies = []
        for step, (seat, action) in enumerate(scripts[index]):
            request = pb.SubmitActionRequest(
                game_id=game_id, action=action, expected_version=version, idempotency_key=f"b{step}"
            )
            t0 = time.perf_counter()
            answer = stubs[index].SubmitAction(request, metadata=auth(tokens[seat]))
            acked = time.perf_counter()
            latencies.append(acked - t0)
            version = answer.version
            if probe is not None:
                probe.acknowledged(game_id, version, t0, acked)
        return latencies

    wall, latencies = _run_threads(inflight, work)
    for channel in channels:
        channel.close()
    return (
        len(latencies) / wall,
        _percentile(latencies, 0.5) * 1000,
        _percentile(latencies, 0.99) * 1000,
    )


def bench_echo_stream(server: ServerProcess) -> float:
    """EchoStream messages/s (one stream of STREAM_COUNT small messages)."""
    with server.channel() as channel:
        diag = annales_pb2_grpc.DiagnosticsServiceStub(channel)
        list(diag.EchoStream(pb.EchoStreamRequest(payload=b"x" * 64, count=100)))
        t0 = time.perf_counter()
        count = sum(
            1 for _ in diag.EchoStream(pb.EchoStreamRequest(payload=b"x" * 64, count=STREAM_COUNT))
        )
        return count / (time.perf_counter() - t0)


def bench_watch(server: ServerProcess) -> tuple[float, float, float, float]:
    """WatchGame: (catch-up events/s, catch-up messages/s, live events/s, live messages/s)."""
    seed = "bench-watch-seed-0123456789abcdef"
    script = _script(3, seed, 100_000)
    with server.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        answer = stub.CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b", "c"], seed=seed
            )
        )
        game_id = answer.game_id
        tokens = {t.seat: t.token for t in answer.seat_tokens}
        live: dict[str, float] = {}

        def watch() -> None:
            events = messages = 0
            for message in stub.WatchGame(pb.WatchGameRequest(game_id=game_id)):
                if not messages:
                    live["start"] = time.perf_counter()
                events += len(message.events)
                messages += 1
            live.update(end=time.perf_counter(), events=events, messages=messages)

        watcher = threading.Thread(target=watch)
        watcher.start()
        version = answer.version
        for step, (seat, action) in enumerate(script):
            version = stub.SubmitAction(
                pb.SubmitActionRequest(
                    game_id=game_id,
                    action=action,
                    expected_version=version,
                    idempotency_key=f"w{step}",
                ),
                metadata=auth(tokens[seat]),
            ).version
        watcher.join(60)
        live_s = live["end"] - live["start"]
        t0 = time.perf_counter()
        events = messages = 0
        for message in stub.WatchGame(pb.WatchGameRequest(game_id=game_id)):
            events += len(message.events)
            messages += 1
        catch_s = time.perf_counter() - t0
    return (
        events / catch_s,
        messages / catch_s,
        live["events"] / live_s,
        live["messages"] / live_s,
    )


def standalone_runner_lag(directory: Path, inflight: int) -> str:
    """The projection lag at ``inflight`` SubmitActions in flight when the runner is its own
    process (``annales serve --no-projections`` + ``annales projections run --poll 0.01``):
    the runner then competes with no RPC thread for the server's GIL."""
    directory.mkdir()
    server = start_server(directory, ("--no-projections",))
    runner = subprocess.Popen(
        [sys.executable, "-m", "annales_cli.main", "projections", "run", "--db", str(server.db),
         "--poll", "0.01"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        with LagProbe(Path(default_path(str(server.db)))) as probe:
            probe.wait_ready()  # the runner's start-up is not a lag
            submit = bench_submit(server, inflight, probe)
        return f"standalone runner process, SubmitAction @{inflight} {submit[0]:,.0f}/s: " + (
            probe.summary()
        )
    finally:
        runner.send_signal(signal.SIGTERM)
        runner.wait(30)
        stop_server(server)


def main() -> None:
    """Start a server, run every API benchmark, print ratios to Echo / EchoStream."""
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp))
        try:
            for inflight in LEVELS:
                echo = bench_echo(server, inflight)
                with LagProbe(Path(default_path(str(server.db)))) as probe:
                    submit = bench_submit(server, inflight, probe)
                print(
                    f"SubmitAction @{inflight:>2} in flight: {submit[0]:,.0f}/s "
                    f"(p50 {submit[1]:.2f} ms, p99 {submit[2]:.2f} ms) | Echo {echo[0]:,.0f}/s "
                    f"(p50 {echo[1]:.2f} ms, p99 {echo[2]:.2f} ms) | ratio throughput "
                    f"{submit[0] / echo[0]:.3f}, p50 x{submit[1] / echo[1]:.1f}, "
                    f"p99 x{submit[2] / echo[2]:.1f}"
                )
                print(f"  {probe.summary()}")
            print(f"  {standalone_runner_lag(Path(tmp) / 'standalone', 64)}")
            stream = bench_echo_stream(server)
            catch_events, catch_messages, live_events, live_messages = bench_watch(server)
            print(
                f"WatchGame catch-up: {catch_events:,.0f} events/s in {catch_messages:,.0f} "
                f"messages/s | EchoStream {stream:,.0f} messages/s | ratio events/echo-msgs "
                f"{catch_events / stream:.2f}, messages {catch_messages / stream:.3f}"
            )
            print(
                f"WatchGame live (bounded by the submit rate): {live_events:,.0f} events/s in "
                f"{live_messages:,.0f} messages/s | ratio events/echo-msgs "
                f"{live_events / stream:.3f}"
            )
        finally:
            code = stop_server(server)
            if code != 0:
                print(f"(server exit status {code})")


if __name__ == "__main__":
    main()
