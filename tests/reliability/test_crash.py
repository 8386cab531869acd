"""Issue "Scale-out on PostgreSQL and a reliability suite", item 3 (crash safety), on both
stores: a real server under sustained load is SIGKILLed at seeded random moments at least 20
times (and its read-model runner a few times) and restarted; then nothing acknowledged is
missing, no sequence has a gap or a duplicate, every hash chain and record verifies, folds
equal a fresh replay, and the read models caught up equal a rebuild
(see :mod:`tests.reliability.crash`).

The normal run kills each server 20 times (about a minute per store on an idle 2-core
machine); ``make long`` runs 100 kills per store with more clients.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from service.store.config import StoreConfig
from tests.reliability.cluster import sqlite_store
from tests.reliability.crash import CrashPlan, CrashReport, run_crash

CI_PLAN = CrashPlan(kills=20, runner_kills=4, clients=4, games_per_client=3, seed=7)
LONG_PLAN = CrashPlan(kills=100, runner_kills=20, clients=8, games_per_client=4, seed=11)


def _assert_clean(report: CrashReport, plan: CrashPlan) -> None:
    print(report.summary())
    assert not report.problems, "\n".join(report.problems[:20])
    assert report.kills == plan.kills and report.runner_kills == plan.runner_kills
    assert report.runner_restarts_seen == plan.runner_kills  # the server restarted each one
    assert report.counts.get("retried writes", 0) > 0  # some kills hit writes in flight
    assert report.checked.acked_events > 0
    assert report.checked.games >= plan.clients * plan.games_per_client


def test_sqlite_server_killed_20_times_loses_nothing(tmp_path: Path) -> None:
    """Item 3 on SQLite: ≥ 20 SIGKILLs of the server and 4 of its runner under load."""
    _assert_clean(run_crash(sqlite_store(tmp_path), tmp_path, CI_PLAN), CI_PLAN)


@pytest.mark.postgres
def test_postgres_server_killed_20_times_loses_nothing(
    pg_config: StoreConfig, tmp_path: Path
) -> None:
    """Item 3 on PostgreSQL: ≥ 20 SIGKILLs of the server and 4 of its runner under load."""
    _assert_clean(run_crash(pg_config, tmp_path, CI_PLAN), CI_PLAN)


@pytest.mark.long
def test_sqlite_server_killed_100_times_loses_nothing(tmp_path: Path) -> None:
    """Item 3, the larger run on SQLite (``make long``)."""
    _assert_clean(run_crash(sqlite_store(tmp_path), tmp_path, LONG_PLAN), LONG_PLAN)


@pytest.mark.long
@pytest.mark.postgres
def test_postgres_server_killed_100_times_loses_nothing(
    pg_config: StoreConfig, tmp_path: Path
) -> None:
    """Item 3, the larger run on PostgreSQL (``make long``)."""
    _assert_clean(run_crash(pg_config, tmp_path, LONG_PLAN), LONG_PLAN)
