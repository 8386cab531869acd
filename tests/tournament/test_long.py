"""Large seeded bot tournaments (``make long``): every format and game, played in 2 worker
processes, reproduced byte for byte by a second in-process run, and verified offline."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.simulation.runner import ParallelRunner
from service.store.config import StoreConfig
from service.tournaments.record import verify_tournament
from tests.tournament.helpers import fast_dir, run_bot_tournament, tournament_service

pytestmark = pytest.mark.long

CASES = [
    ("riseandfall", "duplicate", 8, 3, ("random", "greedy")),
    ("imperium", "swiss", 16, 4, ("random",)),
    ("tapestry", "round_robin", 6, 0, ("random", "greedy")),
]


@pytest.mark.parametrize(("game", "fmt", "entrants", "rounds", "bots"), CASES)
def test_large_tournament_reproduces_and_verifies(
    tmp_path: Path, game: str, fmt: str, entrants: int, rounds: int, bots: tuple[str, ...]
) -> None:
    """Workers and in-process play give the same record; it verifies."""
    with fast_dir(tmp_path) as base:
        inline = run_bot_tournament(
            base / "inline.db",
            game=game,
            format=fmt,
            entrants=entrants,
            rounds=rounds,
            master_seed=f"long-{game}".encode(),
            bots=bots,
        )
        inline.close()
        service = tournament_service(base / "workers.db")
        tid = service.create(
            game,
            format=fmt,
            rounds=rounds,
            master_seed=f"long-{game}".encode(),
            tournament_id="tournament-test",
            name=f"{fmt} test",
        ).tournament_id
        for index in range(entrants):
            service.register(tid, f"bot-{index:02d}", kind="bot", bot=bots[index % len(bots)])
        config = StoreConfig(kind="sqlite", path=str(base / "workers.db"))
        with ParallelRunner(config, workers=2) as runner:
            service.run(tid, runner)
        lines = service.export(tid)
        service.store.close()
    assert lines == inline.lines
    report = verify_tournament(lines)
    assert report.ok, report.message
