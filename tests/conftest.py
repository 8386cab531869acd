"""Shared fixtures: a fresh SQLite event store per test, and hypothesis profiles.

Hypothesis runs with a fixed seed (``derandomize``) and a bounded budget in CI; set
``HYPOTHESIS_PROFILE=long`` for more examples.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from service.app.application import GameService
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from tests.pg import pg_config  # noqa: F401  (a fixture for every test module)

settings.register_profile(
    "ci", max_examples=10, derandomize=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip
settings.register_profile(
    "long", max_examples=500, derandomize=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventStore]:
    """A real SQLite event-store file in a temporary folder."""
    event_store = EventStore(StoreConfig(kind="sqlite", path=str(tmp_path / "events.db")))
    yield event_store
    event_store.close()


@pytest.fixture
def service(store: EventStore) -> GameService:
    """The application on a fresh SQLite store."""
    return GameService(store)
