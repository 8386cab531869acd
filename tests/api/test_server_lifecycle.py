"""The server process: health, reflection, graceful shutdown with open streams, durability.

Issue "Public gRPC API, seat security, live streams" — requirements: health checking and
reflection on; graceful shutdown on SIGTERM (open streams end, the process exits 0); events
acknowledged before the shutdown are durable (a restarted server on the same file serves them).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from grpc_health.v1 import health_pb2
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from tests.api.conftest import health_status, start_server, stop_server
from tests.api.helpers import Driver, create_game, failure, history


def test_sigterm_ends_streams_and_restart_keeps_games(tmp_path: Path) -> None:
    """A server with an open WatchGame stream stops on SIGTERM within the grace period (exit
    status 0; the stream ends instead of hanging); a new server on the same SQLite file serves
    the same game, history and seat tokens; reflection lists the public services."""
    running = start_server(tmp_path)
    try:
        with running.channel() as channel:
            stub = annales_pb2_grpc.GameServiceStub(channel)
            services = _reflected(channel)
            assert {"annales.v1.GameService", "annales.v1.DiagnosticsService"} <= services
            assert "grpc.health.v1.Health" in services
            game = create_game(stub, 2)
            driver = Driver(stub, game, b"lifecycle")
            driver.play(max_steps=30)
            before = history(stub, game.game_id)
            ended: dict[str, Any] = {}

            def watch() -> None:
                call = stub.WatchGame(pb.WatchGameRequest(game_id=game.game_id))
                try:
                    ended["messages"] = sum(1 for _ in call)
                    ended["code"] = grpc.StatusCode.OK
                except grpc.RpcError as error:
                    ended["code"] = failure(error).code

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            time.sleep(0.5)  # the watcher has caught up and waits for new events
            started = time.monotonic()
            code = stop_server(running)
            watcher.join(10)
            assert code == 0, running.output()[-3000:]
            assert time.monotonic() - started < 15
            assert not watcher.is_alive(), "the open stream did not end at shutdown"
            assert ended["code"] in (grpc.StatusCode.OK, grpc.StatusCode.UNAVAILABLE), ended
    finally:
        if running.process.poll() is None:
            stop_server(running)
    assert health_status(running.target, timeout=0.5) is None, "the old server still answers"

    again = start_server(tmp_path)
    try:
        with again.channel() as channel:
            stub = annales_pb2_grpc.GameServiceStub(channel)
            assert history(stub, game.game_id) == before
            view = stub.GetView(pb.GetViewRequest(game_id=game.game_id), metadata=game.md(0))
            assert view.game.head_version == before[-1].seq
            assert health_status(again.target) == health_pb2.HealthCheckResponse.SERVING
    finally:
        assert stop_server(again) == 0


def _reflected(channel: grpc.Channel) -> set[str]:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    answers = list(stub.ServerReflectionInfo(iter([request]), timeout=10))
    return {s.name for a in answers for s in a.list_services_response.service}
