"""Real ``annales serve`` processes for the reliability harnesses, on SQLite or PostgreSQL.

* :class:`Server` starts ``python -m annales_cli.main serve`` on a fixed loopback port (kept
  across restarts, so clients' channels reconnect by themselves), waits until the gRPC health
  check answers SERVING, and can be killed with SIGKILL (:meth:`Server.kill`), restarted,
  or stopped gracefully. Its read-model runner child is found through ``/proc`` (to kill it,
  or to add its memory to the server's).
* :func:`sqlite_store` / :func:`postgres_store` give the store configuration the server is
  started with (a fresh PostgreSQL database, dropped at the end, through ``tests/pg.py``'s
  admin connection — for scripts; tests use the ``pg_config`` fixture).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2

from service.store.config import StoreConfig
from tests.api.conftest import free_port, health_status
from tests.pg import HOST, PORT, USER, admin_connection

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0
STOP_TIMEOUT = 30.0

#: channel options: reconnect quickly after a restart (gRPC's default backoff grows to 120 s)
CHANNEL_OPTIONS = [
    ("grpc.initial_reconnect_backoff_ms", 50),
    ("grpc.min_reconnect_backoff_ms", 50),
    ("grpc.max_reconnect_backoff_ms", 300),
    ("grpc.max_receive_message_length", 64 * 1024 * 1024),
]


class ServerDied(RuntimeError):
    """The server process exited (or never became SERVING) when it should run."""


class Server:
    """One ``annales serve`` process on ``config``, restartable on the same port."""

    def __init__(
        self, config: StoreConfig, directory: Path, projections: bool = True, name: str = "server"
    ) -> None:
        self.config = config
        self.directory = directory
        self.projections = projections
        self.port = free_port()
        self.readmodels = directory / f"{name}-readmodels.db"
        self.log = directory / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.start_seconds: list[float] = []

    @property
    def target(self) -> str:
        """``host:port`` to dial."""
        return f"127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        """The running server's process id."""
        if self.process is None:
            raise ServerDied("the server is not running")
        return self.process.pid

    def channel(self) -> grpc.Channel:
        """A new channel to the server that reconnects quickly (close it when done)."""
        return grpc.insecure_channel(self.target, options=CHANNEL_OPTIONS)

    def start(self) -> None:
        """Start the server and wait until it is SERVING."""
        if self.process is not None and self.process.poll() is None:
            raise RuntimeError("the server is already running")
        command = [sys.executable, "-m", "annales_cli.main", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port), "--readmodels", str(self.readmodels)]  # fmt: skip
        if not self.projections:
            command.append("--no-projections")
        env = {
            **os.environ,
            **self.config.environment(),
            "PYTHONUNBUFFERED": "1",
            "PYTHONFAULTHANDLER": "1",
        }  # fmt: skip  (a crash prints every thread's stack)
        began = time.monotonic()
        with self.log.open("ab") as out:
            out.write(f"--- start {self.starts + 1}\n".encode())
            out.flush()
            self.process = subprocess.Popen(
                command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env
            )
        self.starts += 1
        deadline = began + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerDied(f"server exited with {self.process.returncode}:\n{self.output()}")
            if health_status(self.target, 0.5) == health_pb2.HealthCheckResponse.SERVING:
                self.start_seconds.append(time.monotonic() - began)
                return
            time.sleep(0.02)
        self.process.kill()
        raise ServerDied(f"server not SERVING after {START_TIMEOUT}s:\n{self.output()}")

    def kill(self) -> None:
        """SIGKILL the server (its read-model child sees its pipe close and ends by itself)."""
        process = self.process
        if process is None or process.poll() is not None:
            raise ServerDied(f"the server died before it was killed:\n{self.output()[-3000:]}")
        process.send_signal(signal.SIGKILL)
        process.wait()

    def restart(self) -> None:
        """SIGKILL the server, then start it again on the same port and store."""
        self.kill()
        self.start()

    def stop(self) -> int:
        """SIGTERM the server (graceful) and return its exit status (-9 if it had to be
        killed)."""
        process = self.process
        if process is None or process.poll() is not None:
            return -1 if process is None else int(process.returncode)
        process.send_signal(signal.SIGTERM)
        try:
            return process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            return -9

    def ensure_stopped(self) -> None:
        """SIGKILL the server if it still runs (cleanup after a failure)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def alive(self) -> bool:
        """``True`` while the server process runs."""
        return self.process is not None and self.process.poll() is None

    def children(self) -> list[int]:
        """Process ids of the server's children (the read-model runner)."""
        pids: list[int] = []
        tasks = Path(f"/proc/{self.pid}/task")
        try:
            for task in tasks.iterdir():
                text = (task / "children").read_text()
                pids.extend(int(pid) for pid in text.split())
        except (FileNotFoundError, ProcessLookupError):
            return []
        return sorted(set(pids))

    def kill_runner(self, timeout: float = 10.0) -> int:
        """SIGKILL the server's read-model runner child; return its pid."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            children = self.children()
            if children:
                os.kill(children[0], signal.SIGKILL)
                return children[0]
            time.sleep(0.02)
        raise ServerDied("the server has no read-model runner child to kill")

    def rss_kib(self, children: bool = True) -> int:
        """Resident memory of the server (and its children), in KiB."""
        pids = [self.pid, *(self.children() if children else [])]
        return sum(rss_kib(pid) for pid in pids)

    def output(self) -> str:
        """Everything the server printed so far (all starts)."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def fatal_errors(self) -> list[str]:
        """The crashes the server's log shows (``PYTHONFAULTHANDLER`` prints every thread's
        stack on a segmentation fault), each with its first lines."""
        parts = self.output().split("Fatal Python error")[1:]
        return ["Fatal Python error" + "\n".join(part.splitlines()[:80]) for part in parts]


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return 0
    return 0


def sqlite_store(directory: Path) -> StoreConfig:
    """An SQLite event store in ``directory``."""
    return StoreConfig(kind="sqlite", path=str(directory / "events.db"))


@contextmanager
def postgres_store(tag: str = "reliab") -> Iterator[StoreConfig]:
    """A fresh PostgreSQL database on this machine's server, dropped afterwards."""
    name = f"annales_{tag}_{uuid.uuid4().hex[:10]}"
    admin = admin_connection()
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield StoreConfig(kind="postgres", pg_dbname=name, pg_host=HOST, pg_port=PORT, pg_user=USER)
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
