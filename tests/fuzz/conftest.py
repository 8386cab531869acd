"""A real ``annales serve`` subprocess (SQLite, projections on) for the fuzz tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.api.conftest import ServerProcess, start_server, stop_server


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server for one fuzz module; it must still shut down cleanly at the end."""
    running = start_server(tmp_path_factory.mktemp("fuzz-server"))
    yield running
    code = stop_server(running)
    assert code == 0, f"server did not shut down cleanly (exit {code}):\n{running.output()[-4000:]}"
