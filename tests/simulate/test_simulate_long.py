"""``make long``: simulations at scale for every game.

Per game, hundreds of seeded random-bot games by 2 worker processes into one SQLite file:
every game finished and stored complete, every 10th record verifies by re-execution, and the
balance statistics read model counts each game once per seat.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from projections import queries
from projections.runner import ReadModelRunner
from service.app.application import GameService
from service.audit.records import export_lines, verify_record
from service.simulation.jobs import simulation_jobs
from service.simulation.runner import run_jobs
from service.store.config import StoreConfig
from service.store.eventstore import EventStore

#: game -> (players, games)
RUNS = {"riseandfall": (3, 60), "tapestry": (4, 60), "imperium": (3, 40)}


@pytest.mark.long
@pytest.mark.parametrize("game", sorted(RUNS))
def test_simulation_at_scale(game: str, tmp_path: Path) -> None:
    """Seeded bot games at scale: all complete, sampled records verify, balance counts."""
    players, games = RUNS[game]
    config = StoreConfig(kind="sqlite", path=str(tmp_path / "events.db"))
    jobs = simulation_jobs(game, players, games, ["random", "greedy"], f"long-{game}".encode())
    report = run_jobs(config, jobs, workers=2)
    assert report.played == games
    store = EventStore(config)
    runner = ReadModelRunner(store, str(tmp_path / "readmodels.db"), batch_size=2000)
    try:
        service = GameService(store)
        for index, job in enumerate(jobs):
            match = service.head(job.game_id)
            assert match.game.is_over(match.state) and match.kernel.seed is not None
            if index % 10 == 0:
                lines = export_lines(
                    service.events(job.game_id), lambda e, g=job.game_id: service.decode(g, e)
                )
                verified = verify_record(lines)
                assert verified.ok and verified.reexecuted, (job.game_id, verified.message)
        runner.catch_up()
        rows = queries.balance_stats(runner.db, game, players)
        assert sum(r.games for r in rows) == games * players
        assert sum(r.wins for r in rows) == sum(len(r.winners) for r in report.results)
    finally:
        runner.db.close()
        store.close()
