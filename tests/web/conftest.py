"""A real ``annales serve --web-port`` subprocess for the web tests (gRPC and Connect ports)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import grpc
import pytest

from tests.api.conftest import ServerProcess, free_port, start_server, stop_server
from tests.web.client import Connect


@dataclass
class WebServer:
    """The server subprocess and its web port."""

    process: ServerProcess
    web_port: int

    @property
    def base(self) -> str:
        """The web port's base address."""
        return f"http://127.0.0.1:{self.web_port}"


@pytest.fixture(scope="session")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """One server with both ports for the session; stopped gracefully (checked) at the end."""
    port = free_port()
    running = start_server(tmp_path_factory.mktemp("web-server"), ("--web-port", str(port)))
    yield WebServer(running, port)
    code = stop_server(running)
    assert code == 0, f"server did not shut down cleanly (exit {code}):\n{running.output()[-4000:]}"


@pytest.fixture
def channel(web: WebServer) -> Iterator[grpc.Channel]:
    """A gRPC channel to the session's server."""
    with web.process.channel() as chan:
        yield chan


@pytest.fixture
def connect(web: WebServer) -> Connect:
    """A Connect client (binary protobuf) on the web port."""
    return Connect(web.base, "proto")


@pytest.fixture
def connect_json(web: WebServer) -> Connect:
    """A Connect client (JSON) on the web port."""
    return Connect(web.base, "json")
