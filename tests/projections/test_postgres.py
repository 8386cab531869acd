"""Read models following a PostgreSQL event store (issue "Read models", item 1: "on
PostgreSQL its subscription").

The runner reads the store's feed (``service.store.feed``), woken by ``LISTEN``/``NOTIFY``
and looking again at least every ``PG_RECHECK`` seconds. The games are played by *another*
application with its own connections and no wake-up call to the runner, as another server
process would. Each test creates its own database and drops it; the feed's own guarantees
(commits out of order, no lock) are tested in ``tests/service/test_feed.py``.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from domain.bots import make_bot
from projections.runner import PG_RECHECK, ReadModelRunner, rebuild
from projections.schema import connect, table_rows
from service.app.application import GameService
from service.app.autoplay import play_with_bots
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from tests.projections.conftest import scratch_dir

pytestmark = pytest.mark.postgres


def _play(service: GameService, index: int, commands: int) -> str:
    seats = 2 + index % 3
    seed = f"pg-readmodels-{index}".encode()
    game_id = service.create_game("riseandfall", {}, [f"p{s}" for s in range(seats)], seed).game_id
    bots = {s: make_bot("random", f"bot-{index}-{s}".encode()) for s in range(seats)}
    play_with_bots(service, game_id, bots, max_commands=commands)
    return game_id


def test_subscription_follows_another_writer_then_equals_rebuild(pg_config: StoreConfig) -> None:
    """Requirement 1 + 2 on PostgreSQL: the runner sees the commits of another application
    without being woken by it (its listener hears every insert's NOTIFY; it also looks at
    least every PG_RECHECK seconds, whatever its poll interval), and its tables equal a
    rebuild's."""
    directory: Path = scratch_dir()
    reader_store = EventStore(pg_config)
    writer_store = EventStore(pg_config)
    runner = ReadModelRunner(reader_store, str(directory / "readmodels.db"), poll_interval=3600)
    try:
        assert runner.poll_interval == PG_RECHECK
        runner.start()
        writer = GameService(writer_store)
        finished = _play(writer, 0, 10**9)
        partial = [_play(writer, index, 25 + index) for index in range(1, 4)]
        target = writer_store.feed_head()
        assert runner.wait_for(target, timeout=60), (runner.position, target, runner.error)
        # a later commit is also picked up without a wake-up call
        before = time.monotonic()
        _play(writer, 9, 3)
        assert runner.wait_for(writer_store.feed_head(), timeout=30)
        assert time.monotonic() - before < 30
        runner.stop()
        incremental = table_rows(connect(str(directory / "readmodels.db")))
        games = {row[0]: row for row in incremental["games"]}
        assert set(games) >= {finished, *partial}
        assert any(row[6] == "finished" for row in incremental["games"])
        total = writer_store.max_notification_id()
        assert rebuild(reader_store, str(directory / "rebuilt.db")) == total
        assert table_rows(connect(str(directory / "rebuilt.db"))) == incremental
    finally:
        runner.stop()
        reader_store.close()
        writer_store.close()
        shutil.rmtree(directory, ignore_errors=True)


def test_subscribed_runner_resumes_from_its_position(pg_config: StoreConfig) -> None:
    """Requirement 2 (resume): a runner stopped part-way and restarted on the same
    file applies each notification exactly once (its tables equal a rebuild's)."""
    directory = scratch_dir()
    store = EventStore(pg_config)
    try:
        service = GameService(store)
        path = str(directory / "readmodels.db")
        first = ReadModelRunner(store, path, batch_size=17)
        first.start()
        _play(service, 1, 60)
        assert first.wait_for(store.feed_head(), timeout=60)
        first.stop()
        _play(service, 2, 60)  # committed while no runner runs
        second = ReadModelRunner(store, path, batch_size=17)
        second.start()
        _play(service, 3, 40)
        assert second.wait_for(store.feed_head(), timeout=60), second.error
        second.stop()
        rebuild(store, str(directory / "rebuilt.db"))
        assert table_rows(connect(path)) == table_rows(connect(str(directory / "rebuilt.db")))
    finally:
        store.close()
        shutil.rmtree(directory, ignore_errors=True)
