"""A real Annales server in a subprocess, on a free loopback port, for client tests.

``annales_server`` (module-scoped) starts ``python -m annales_cli.main serve --port <free>
--db <tmp>``, waits until the gRPC health check answers SERVING, and terminates it at the end.
:class:`ServerProcess` can also be stopped and restarted on the same port and database (to
test reconnection).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port free on the loopback interface right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_healthy(target: str, timeout: float = 30.0) -> None:
    """Block until the server at ``target`` answers the health check with SERVING."""
    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(target) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while True:
            try:
                answer = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=1.0)
                if answer.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"no healthy server at {target} after {timeout}s")
            time.sleep(0.1)


class ServerProcess:
    """``annales serve`` in a subprocess; restartable on the same port and database."""

    def __init__(self, db: Path, log: Path, port: int | None = None) -> None:
        self.db = db
        self.log = log
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def target(self) -> str:
        """``host:port`` of the server."""
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the server and wait until it is healthy."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        command = [
            sys.executable,
            "-m",
            "annales_cli.main",
            "serve",
            "--port",
            str(self.port),
            "--db",
            str(self.db),
        ]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
        try:
            wait_healthy(self.target)
        except TimeoutError:
            self.stop()
            raise

    def stop(self) -> None:
        """Terminate the server (SIGTERM: graceful shutdown), killing it if it hangs."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture(scope="module")
def annales_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A running server for the module's tests (its own database)."""
    directory = tmp_path_factory.mktemp("annales-server")
    server = ServerProcess(directory / "annales.db", directory / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
