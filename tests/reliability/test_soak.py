"""Issue "Scale-out on PostgreSQL and a reliability suite", item 5 (soak), in short: the
``make soak`` script run for a few seconds over 20 games on each store, to prove it works —
mixed traffic with zero errors other than the expected conflicts, every RPC kind measured,
memory sampled, and the store consistent afterwards. The real run is ``make soak`` (10
minutes over 200 games per store; ``SOAK_SECONDS`` / ``SOAK_GAMES`` change it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from service.store.config import StoreConfig
from tests.reliability.cluster import sqlite_store
from tests.reliability.soak import SoakPlan, SoakReport, run_soak

SHORT = SoakPlan(seconds=8.0, games=20, workers=6, watchers=2, samples=4, stale_percent=10)


def _assert_clean(report: SoakReport) -> None:
    print(report.text())
    assert report.clean, report.text()
    for method in ("CreateGame", "SubmitAction", "ListLegalActions", "GetGame", "GetView",
                   "GetHistory", "ListGames"):  # fmt: skip
        assert report.calls.get(method, 0) > 0, method
        assert report.latency_ms[method]["p99"] > 0
    assert report.expected_conflicts > 0  # stale writes were refused with ABORTED
    assert report.watch_streams > 0
    assert len(report.rss_kib) >= 2 and min(report.rss_kib) > 0
    assert report.store_summary


def test_short_soak_on_sqlite(tmp_path: Path) -> None:
    """Item 5 in short, on SQLite."""
    _assert_clean(run_soak(sqlite_store(tmp_path), tmp_path, SHORT))


@pytest.mark.postgres
def test_short_soak_on_postgres(pg_config: StoreConfig, tmp_path: Path) -> None:
    """Item 5 in short, on PostgreSQL."""
    _assert_clean(run_soak(pg_config, tmp_path, SHORT))
