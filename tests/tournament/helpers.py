"""Shared by the tournament tests: run a whole bot tournament on a fresh SQLite store.

Bulk bot tournaments commit thousands of commands, each fsynced (``synchronous=FULL``): on a
disk that is the whole cost. :func:`fast_dir` puts those store files on ``/dev/shm`` (tmpfs:
still real SQLite files in WAL mode, the fsync is simply free) when the machine has one.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from service.app.application import GameService
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.tournaments.service import TournamentService


@dataclass
class BotRun:
    """A finished bot tournament: its service (open store) and its exported record."""

    service: TournamentService
    tournament_id: str
    lines: list[bytes]

    def close(self) -> None:
        """Release the store."""
        self.service.store.close()


@contextmanager
def fast_dir(fallback: Path) -> Iterator[Path]:
    """A temporary folder on tmpfs if available (else ``fallback``), removed afterwards."""
    if not os.path.isdir("/dev/shm"):
        yield fallback
        return
    path = Path(tempfile.mkdtemp(prefix="annales-tournament-", dir="/dev/shm"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def tournament_service(path: Path) -> TournamentService:
    """A tournament service on a real SQLite file."""
    return TournamentService(GameService(EventStore(StoreConfig(kind="sqlite", path=str(path)))))


def run_bot_tournament(
    path: Path,
    *,
    game: str,
    format: str,
    entrants: int,
    rounds: int,
    master_seed: bytes,
    bots: tuple[str, ...] = ("random",),
    table_size: int = 2,
    tournament_id: str = "tournament-test",
    pairing_method: str = "matching",
) -> BotRun:
    """Create, register ``entrants`` bots (kinds cycling through ``bots``), run, export
    (``pairing_method``: how Swiss rounds pair, ``domain.tournament.pairing.PAIRINGS``)."""
    service = tournament_service(path)
    created = service.create(
        game,
        format=format,
        rounds=rounds,
        table_size=table_size,
        master_seed=master_seed,
        tournament_id=tournament_id,
        name=f"{format} test",
        pairing_method=pairing_method,
    )
    for index in range(entrants):
        service.register(
            created.tournament_id, f"bot-{index:02d}", kind="bot", bot=bots[index % len(bots)]
        )
    service.run(created.tournament_id)
    return BotRun(service, created.tournament_id, service.export(created.tournament_id))
