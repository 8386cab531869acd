"""The Node.js client (``clients/node``) plays a whole game against a real server.

* a real ``python -m annales_cli.main serve`` subprocess on a free loopback port with a
  temporary SQLite file, ready once the gRPC health check answers SERVING;
* ``npm ci`` in ``clients/node`` once per session when ``node_modules`` is missing or older
  than ``package-lock.json`` (CI starts from a clean clone);
* ``node src/play.js --target 127.0.0.1:N --players 3 --seed 7``: seeded random seats play to
  the end through the API while a spectator watches the stream; the script exports and
  verifies the record and prints one JSON summary line.

Without ``node``/``npm`` on PATH the test is skipped — and fails when ``CI`` is set.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / "clients" / "node"
START_TIMEOUT = 30.0
INSTALL_TIMEOUT = 180.0
PLAY_TIMEOUT = 75.0


def _tool(name: str) -> str:
    """The path of ``name`` on PATH; skip without it (fail when ``CI`` is set)."""
    path = shutil.which(name)
    if path is None:
        message = (
            f"`{name}` is not on PATH: the Node.js client test needs Node.js >= 18 and npm "
            "(https://nodejs.org)."
        )
        if os.environ.get("CI"):
            pytest.fail(message + " CI is set, so this is a failure, not a skip.")
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def node() -> str:
    """``node``, with ``clients/node/node_modules`` installed from the lock file."""
    node_path = _tool("node")
    npm = _tool("npm")
    lock = NODE_DIR / "package-lock.json"
    stamp = NODE_DIR / "node_modules" / ".package-lock.json"  # written by npm on install
    lock_path = Path(tempfile.gettempdir()) / "annales-clients-node-install.lock"
    with lock_path.open("w") as guard:  # pytest -n: one install at a time
        fcntl.flock(guard, fcntl.LOCK_EX)
        fresh = stamp.exists() and (
            not lock.exists() or stamp.stat().st_mtime >= lock.stat().st_mtime
        )
        if not fresh:
            command = [
                npm,
                "ci" if lock.exists() else "install",
                "--no-audit",
                "--no-fund",
                "--ignore-scripts",
            ]
            done = subprocess.run(
                command,
                cwd=NODE_DIR,
                capture_output=True,
                text=True,
                timeout=INSTALL_TIMEOUT,
                check=False,
            )
            assert done.returncode == 0, (
                f"{' '.join(command)} failed in {NODE_DIR}:\n{done.stdout}\n{done.stderr}"
            )
    return node_path


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serving(target: str) -> bool:
    with grpc.insecure_channel(target) as channel:
        try:
            answer = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""), timeout=1.0
            )
        except grpc.RpcError:
            return False
        return bool(answer.status == health_pb2.HealthCheckResponse.SERVING)


@pytest.fixture
def node_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``(target, log file)`` of a fresh server subprocess; SIGTERM at the end."""
    log = tmp_path / "server.log"
    port = _free_port()
    target = f"127.0.0.1:{port}"
    command = [
        sys.executable,
        "-m",
        "annales_cli.main",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        str(tmp_path / "events.db"),
    ]
    with log.open("w") as out:  # a file, not a pipe: a full pipe would block the server
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not _serving(target):
            if process.poll() is not None:
                pytest.fail(f"the server exited with {process.returncode}:\n{log.read_text()}")
            if time.monotonic() > deadline:
                pytest.fail(
                    f"the server was not SERVING after {START_TIMEOUT} s:\n{log.read_text()}"
                )
            time.sleep(0.1)
        yield target, log
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def test_node_client_plays_watches_exports_and_verifies(
    node: str, node_server: tuple[str, Path]
) -> None:
    target, log = node_server
    command = [node, "src/play.js", "--target", target, "--players", "3", "--seed", "7"]
    try:
        done = subprocess.run(
            command, cwd=NODE_DIR, capture_output=True, text=True, timeout=PLAY_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired as error:
        pytest.fail(
            f"play.js did not finish within {PLAY_TIMEOUT} s: {error.stderr!r}\n"
            f"server log tail:\n{log.read_text()[-3000:]}"
        )
    server_tail = log.read_text()[-3000:]
    report = f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}\nserver log tail:\n{server_tail}"
    assert done.returncode == 0, report
    lines = done.stdout.strip().splitlines()
    assert lines, report
    summary = json.loads(lines[-1])

    assert summary["verified"] is True, report
    assert summary["game_id"], report
    assert summary["events"] > 1, report
    # the spectator's stream: seq 1..events, no gap, no duplicate (checked by play.js) and
    # ended by the server after the final event
    assert summary["watched"] == summary["events"], report
    assert summary["stream_ended"] is True, report
    assert summary["winners"], report
    assert set(summary["winners"]) <= {0, 1, 2}, report
    assert len(summary["scores"]) == 3, report
    assert summary["commands"] > 0, report
    # typed errors decoded from grpc-status-details-bin (google.rpc.Status → ErrorInfo)
    assert summary["error_reasons"] == ["TOKEN_REQUIRED", "VERSION_CONFLICT", "BAD_TOKEN"], report
    # the pending decision and next actions of SubmitAction answers replace most listings
    assert 0 < summary["list_calls"] < summary["commands"], report


def test_missing_node_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ``node`` on PATH: a skip normally, a failure when ``CI`` is set."""
    monkeypatch.setenv("PATH", "")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        _tool("node")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        _tool("node")
