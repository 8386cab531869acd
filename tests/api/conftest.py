"""A real ``annales serve`` subprocess for the API tests, and channels/stubs to talk to it.

* :func:`server` (session): starts ``python -m annales_cli.main serve`` on a free loopback port
  with a temporary SQLite file, waits until the gRPC health check answers SERVING, and at the
  end sends SIGTERM and checks that the process exits by itself with status 0 (graceful
  shutdown) — a server that needs SIGKILL fails the session;
* :func:`channel` / :func:`stub` / :func:`diag` / :func:`health_stub`: one channel per test.

Under ``pytest -n`` each worker gets its own server (session fixtures are per worker).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from annales.v1 import annales_pb2_grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0
STOP_TIMEOUT = 20.0


@dataclass
class ServerProcess:
    """A running server subprocess."""

    process: subprocess.Popen[str]
    port: int
    db: Path
    log: Path

    @property
    def target(self) -> str:
        """``host:port`` to dial."""
        return f"127.0.0.1:{self.port}"

    def channel(self) -> grpc.Channel:
        """A new insecure channel to the server (close it when done)."""
        return grpc.insecure_channel(
            self.target,
            options=[
                ("grpc.max_send_message_length", 64 * 1024 * 1024),
                ("grpc.max_receive_message_length", 64 * 1024 * 1024),
            ],
        )

    def output(self) -> str:
        """Everything the server printed so far (stdout and stderr)."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def free_port() -> int:
    """A TCP port that is free on the loopback interface right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def health_status(target: str, timeout: float = 1.0) -> int | None:
    """The overall health status of the server at ``target`` (``None`` when unreachable)."""
    with grpc.insecure_channel(target) as channel:
        try:
            answer = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""), timeout=timeout
            )
        except grpc.RpcError:
            return None
        return int(answer.status)


def start_server(directory: Path, extra: tuple[str, ...] = ()) -> ServerProcess:
    """Start ``annales serve`` on a free port and wait until it reports SERVING
    (``extra``: more command-line options, e.g. ``("--no-projections",)``)."""
    db = directory / "api.db"
    log = directory / "server.log"
    port = free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("ANNALES_STORE", None)
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "annales_cli.main",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                str(db),
                *extra,
            ],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
    running = ServerProcess(process, port, db, log)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}:\n{running.output()}")
        if health_status(running.target) == health_pb2.HealthCheckResponse.SERVING:
            # it prints its port (just after SERVING is set: allow the print a moment)
            printed = time.monotonic() + 5.0
            while f":{port}" not in running.output() and time.monotonic() < printed:
                time.sleep(0.05)
            assert f":{port}" in running.output(), running.output()
            return running
        time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"server not SERVING after {START_TIMEOUT}s:\n{running.output()}")


def stop_server(running: ServerProcess) -> int:
    """SIGTERM the server and return its exit status (SIGKILL after STOP_TIMEOUT: -9)."""
    running.process.send_signal(signal.SIGTERM)
    try:
        return running.process.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        running.process.kill()
        running.process.wait()
        return -9


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One real server subprocess for the session; stopped gracefully (checked) at the end."""
    running = start_server(tmp_path_factory.mktemp("api-server"))
    yield running
    code = stop_server(running)
    output = running.output()
    assert code == 0, f"server did not shut down cleanly (exit {code}):\n{output[-4000:]}"
    assert '"event": "stopped"' in output, output[-4000:]


@pytest.fixture
def channel(server: ServerProcess) -> Iterator[grpc.Channel]:
    """A channel to the session's server."""
    with server.channel() as chan:
        yield chan


@pytest.fixture
def stub(channel: grpc.Channel) -> annales_pb2_grpc.GameServiceStub:
    """A ``GameService`` stub on :func:`channel`."""
    return annales_pb2_grpc.GameServiceStub(channel)


@pytest.fixture
def diag(channel: grpc.Channel) -> annales_pb2_grpc.DiagnosticsServiceStub:
    """A ``DiagnosticsService`` stub on :func:`channel`."""
    return annales_pb2_grpc.DiagnosticsServiceStub(channel)


@pytest.fixture
def health_stub(channel: grpc.Channel) -> health_pb2_grpc.HealthStub:
    """A health-check stub on :func:`channel`."""
    return health_pb2_grpc.HealthStub(channel)
