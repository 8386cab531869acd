"""Bot tournaments played by parallel workers (``annales tournament run``).

:class:`service.simulation.runner.ParallelRunner` is a
tournament ``JobRunner``: each round's all-bot
games are played in 2 spawned worker processes, straight into the store. The tournament it
produces is byte-identical to the one played in-process with the same master seed (same bot
decisions, command ids, hashes, standings), and its record verifies.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.app.application import GameService
from service.simulation.runner import ParallelRunner
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.tournaments.record import verify_tournament
from service.tournaments.service import TournamentService

ENTRANTS = ("Ada", "Bea", "Cyd", "Dov", "Eve")


def _tournament(path: Path, runner: ParallelRunner | None) -> list[bytes]:
    """A 5-bot Swiss tournament of Rise & Fall (2 rounds, byes rotate) played to its end;
    its exported record."""
    store = EventStore(StoreConfig(kind="sqlite", path=str(path)))
    try:
        service = TournamentService(GameService(store))
        created = service.create(
            "riseandfall", rounds=2, master_seed=b"parallel", tournament_id="tournament-par"
        )
        for name in ENTRANTS:
            service.register(created.tournament_id, name, kind="bot", bot="random")
        service.run(created.tournament_id, runner)
        return service.export(created.tournament_id)
    finally:
        store.close()


@pytest.fixture
def memory_dir(tmp_path: Path) -> Iterator[Path]:
    """A folder on tmpfs when there is one (``/dev/shm``): the in-process runner commits each
    bot command on its own (an fsync each), which this test does not need to measure."""
    if not os.path.isdir("/dev/shm"):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="annales-test-", dir="/dev/shm"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_parallel_workers_play_the_same_tournament_as_one_process(
    tmp_path: Path, memory_dir: Path
) -> None:
    """In-process and 2-worker runs of the same seeded bot tournament export the same bytes;
    the record verifies."""
    inline = _tournament(memory_dir / "inline.db", None)
    config = StoreConfig(kind="sqlite", path=str(tmp_path / "parallel.db"))
    with ParallelRunner(config, workers=2) as runner:
        parallel = _tournament(tmp_path / "parallel.db", runner)
        assert [r.played for r in runner.reports] == [2, 2]  # 2 tables per round, 1 bye
    assert parallel == inline
    report = verify_tournament(parallel)
    assert report.ok, report.message
