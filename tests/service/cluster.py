"""Several real ``annales serve`` processes on one store, for tests and benchmarks.

:func:`start_cluster` starts ``n`` servers *at the same time* (so table creation on a fresh
PostgreSQL database races, as it does in a real deployment), each on its own loopback port with
its own read-model file, and waits until every one answers the gRPC health check with SERVING.
:meth:`Cluster.stop` sends SIGTERM and reports each exit status.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.store.config import StoreConfig

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 90.0
STOP_TIMEOUT = 20.0


def free_port() -> int:
    """A TCP port free on the loopback interface right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serving(target: str, timeout: float = 1.0) -> bool:
    """``True`` when the server at ``target`` reports SERVING."""
    with grpc.insecure_channel(target) as channel:
        try:
            answer = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""), timeout=timeout
            )
        except grpc.RpcError:
            return False
        return bool(answer.status == health_pb2.HealthCheckResponse.SERVING)


@dataclass
class Server:
    """One server subprocess."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def target(self) -> str:
        """``host:port`` to dial."""
        return f"127.0.0.1:{self.port}"

    def output(self) -> str:
        """What the server printed so far."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@dataclass
class Cluster:
    """Servers sharing one store."""

    config: StoreConfig
    servers: list[Server] = field(default_factory=list)

    def channels(self) -> list[grpc.Channel]:
        """One new channel per server (close them when done)."""
        return [grpc.insecure_channel(server.target) for server in self.servers]

    def stop(self) -> list[int]:
        """SIGTERM every server; their exit statuses (-9: had to be killed)."""
        for server in self.servers:
            if server.process.poll() is None:
                server.process.send_signal(signal.SIGTERM)
        codes = []
        for server in self.servers:
            try:
                codes.append(server.process.wait(STOP_TIMEOUT))
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait()
                codes.append(-9)
        return codes


def start_cluster(
    config: StoreConfig, count: int, directory: Path, projections: bool = True
) -> Cluster:
    """Start ``count`` servers on ``config`` together; return once all are SERVING."""
    cluster = Cluster(config)
    directory.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, **config.environment(), "PYTHONUNBUFFERED": "1"}
    if config.kind == "postgres":
        for name in ("ANNALES_STORE", "ANNALES_PG_DBNAME", "ANNALES_PG_HOST", "ANNALES_PG_PORT"):
            env.pop(name)
    for index in range(count):
        port = free_port()
        log = directory / f"server-{index}.log"
        command = [
            sys.executable, "-m", "annales_cli.main", "serve", "--host", "127.0.0.1",
            "--port", str(port), "--readmodels", str(directory / f"readmodels-{index}.db"),
        ]  # fmt: skip
        if config.kind == "postgres":  # the flags (not the environment) choose the store
            command += [
                "--store", "postgres", "--pg-dbname", config.pg_dbname, "--pg-host",
                config.pg_host, "--pg-port", str(config.pg_port), "--pg-user", config.pg_user,
            ]  # fmt: skip
        if not projections:
            command.append("--no-projections")
        with log.open("wb") as out:
            process = subprocess.Popen(
                command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env
            )
        cluster.servers.append(Server(process, port, log))
    deadline = time.monotonic() + START_TIMEOUT
    waiting = list(cluster.servers)
    while waiting:
        for server in list(waiting):
            if server.process.poll() is not None:
                cluster.stop()
                raise RuntimeError(
                    f"server on port {server.port} exited with {server.process.returncode}:\n"
                    + server.output()[-4000:]
                )
            if serving(server.target):
                waiting.remove(server)
        if time.monotonic() > deadline:
            cluster.stop()
            raise RuntimeError(f"servers not SERVING after {START_TIMEOUT}s")
        time.sleep(0.1)
    return cluster
